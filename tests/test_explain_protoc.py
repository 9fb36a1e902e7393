"""explain reads a project's own generated ``_pb2`` module missing as protoc not run on the
project's .proto files (the Object Detection API's object_detection/protos and any project of
that shape), with protoc run from the directory the imports are rooted at; and protoc's parser
refusing newer .proto syntax as a protoc too old. A known distribution's generated module
missing, or protobuf's runtime refusing generated code, stays with its own cause. Every log is
written for the test, a variant of the family."""

from __future__ import annotations

import inspect

import pytest

from tests.explaining import explained, fix_text, tag_readings, top_error
from tfdoctor.evidence.traceback import is_installed
from tfdoctor.explain import generated
from tfdoctor.findings import Report, Severity
from tfdoctor.signatures import PROTO3_OPTIONAL

TREE = "/home/ana/src/models/research"


def _causes(report: Report) -> set[str]:
    return {x.cause for x in report.findings if x.cause}


def _traceback(path: str, code: str, exception: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 4, in <module>\n'
        "    from object_detection.utils import config_util\n"
        f'  File "{path}", line 25, in <module>\n'
        f"    {code}\n"
        f"{exception}\n"
    )


@pytest.mark.parametrize(
    "exception",
    [
        pytest.param(
            "ImportError: cannot import name 'pipeline_pb2' from 'object_detection.protos' "
            f"({TREE}/object_detection/protos/__init__.py)",
            id="python3-named-module",
        ),
        pytest.param("ImportError: cannot import name 'pipeline_pb2'", id="python36-quoted"),
        pytest.param("ImportError: cannot import name pipeline_pb2", id="python2-bare"),
    ],
)
def test_a_missing_generated_module_of_the_tree_is_protoc_not_run(exception: str) -> None:
    text = _traceback(
        f"{TREE}/object_detection/utils/config_util.py",
        "from object_detection.protos import pipeline_pb2",
        exception,
    )
    top = top_error(explained(text))
    assert top.cause == "protos-not-compiled"
    fix = fix_text(top)
    assert f'cd "{TREE}"' in fix
    assert "protoc object_detection/protos/*.proto --python_out=." in fix
    assert "pip install tensorflow" not in fix and "protobuf==" not in fix


def test_no_module_named_the_dotted_generated_module() -> None:
    text = _traceback(
        f"{TREE}/object_detection/builders/model_builder.py",
        "from object_detection.protos.losses_pb2 import Loss",
        "ModuleNotFoundError: No module named 'object_detection.protos.losses_pb2'",
    )
    top = top_error(explained(text))
    assert top.cause == "protos-not-compiled"
    assert 'python -c "import object_detection.protos.losses_pb2"' in fix_text(top)


def test_python2_names_only_the_tail_and_the_frame_the_package() -> None:
    text = _traceback(
        f"{TREE}/object_detection/builders/model_builder.py",
        "from object_detection.protos import model_pb2",
        "ImportError: No module named model_pb2",
    )
    top = top_error(explained(text))
    assert top.cause == "protos-not-compiled"
    assert "protoc object_detection/protos/*.proto" in fix_text(top)


def test_the_import_alone_names_the_protos_package() -> None:
    text = (
        ">>> from object_detection.protos import anchor_generator_pb2\n"
        "ImportError: cannot import name 'anchor_generator_pb2'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "protos-not-compiled"
    fix = fix_text(top)
    # No path shows the tree: the directory is described, not invented.
    assert "cd " not in fix and "the directory that holds object_detection/" in fix


def test_another_projects_protos_from_its_own_tree() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/speech/serve.py", line 2, in <module>\n'
        "    from speech.api import service_pb2\n"
        "ImportError: cannot import name 'service_pb2' from 'speech.api' "
        "(/srv/speech/api/__init__.py)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "protos-not-compiled"
    fix = fix_text(top)
    assert 'cd "/srv"' in fix and "protoc speech/api/*.proto --python_out=." in fix


def test_windows_paths_get_a_wildcard_powershell_expands() -> None:
    root = "C:\\Users\\ana\\models\\research"
    text = _traceback(
        f"{root}\\object_detection\\utils\\label_map_util.py",
        "from object_detection.protos import string_int_label_map_pb2",
        "ImportError: cannot import name 'string_int_label_map_pb2' from "
        f"'object_detection.protos' ({root}\\object_detection\\protos\\__init__.py)",
    )
    fix = fix_text(top_error(explained(text)))
    assert f'cd "{root}"' in fix and "Get-ChildItem object_detection/protos/*.proto" in fix


def test_an_installed_copy_without_them_is_rebuilt_from_the_tree() -> None:
    site = "/opt/venv/lib/python3.10/site-packages"
    text = _traceback(
        f"{site}/object_detection/utils/label_map_util.py",
        "from object_detection.protos import string_int_label_map_pb2",
        "ImportError: cannot import name 'string_int_label_map_pb2' from "
        f"'object_detection.protos' ({site}/object_detection/protos/__init__.py)",
    )
    top = top_error(explained(text))
    assert top.cause == "protos-not-compiled"
    fix = fix_text(top)
    assert "reinstall the project" in fix and f'cd "{site}' not in fix


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "ModuleNotFoundError: No module named 'tensorflow.core.framework.graph_pb2'\n",
            id="tensorflows-own",
        ),
        pytest.param(
            "ImportError: cannot import name 'summary_pb2' from 'tensorboard.compat.proto'\n",
            id="tensorboards-own",
        ),
        pytest.param(
            _traceback(
                "/opt/venv/lib/python3.10/site-packages/mediapipe/python/solutions/hands.py",
                "from mediapipe.framework.formats import landmark_pb2",
                "ImportError: cannot import name 'landmark_pb2' from 'mediapipe.framework.formats'",
            ),
            id="installed-distribution-not-a-protos-package",
        ),
        pytest.param(
            "ImportError: cannot import name 'pipeline_pb2' from partially initialized module "
            "'object_detection.protos' (most likely due to a circular import)\n",
            id="circular-import",
        ),
        pytest.param("ImportError: cannot import name 'pipeline_pb2'\n", id="no-package-shown"),
        pytest.param(
            "ModuleNotFoundError: No module named 'object_detection'\n", id="project-off-path"
        ),
    ],
)
def test_other_missing_modules_are_not_protoc_not_run(text: str) -> None:
    assert "protos-not-compiled" not in _causes(explained(text))


def test_protobufs_runtime_refusing_generated_code_stays_protobufs() -> None:
    site = "/opt/venv/lib/python3.11/site-packages"
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{TREE}/object_detection/protos/anchor_generator_pb2.py", line 33, in <module>\n'
        "    _descriptor.FieldDescriptor(\n"
        f'  File "{site}/google/protobuf/descriptor.py", line 561, in __new__\n'
        "    _message.Message._CheckCalledFromGeneratedFile()\n"
        "TypeError: Descriptors cannot be created directly.\n"
    )
    found = _causes(explained(text))
    assert "protobuf-incompatible" in found and "protos-not-compiled" not in found


@pytest.mark.parametrize(
    ("line", "optional"),
    [
        pytest.param(
            'object_detection/protos/ssd.proto:1:10: Unrecognized syntax identifier "proto3".  '
            'This parser only recognizes "proto2".',
            False,
            id="protoc2-proto3-file",
        ),
        pytest.param(
            "api/settings.proto:14:3: Explicit 'optional' labels are disallowed in the Proto3 "
            "syntax. To define 'optional' fields in Proto3, simply remove the 'optional' label, "
            "as fields are 'optional' by default.",
            True,
            id="protoc-before-312-optional",
        ),
        pytest.param(
            "api/settings.proto: This file contains proto3 optional fields, but "
            "--experimental_allow_proto3_optional was not set.",
            True,
            id="protoc-312-to-314-optional",
        ),
    ],
)
def test_protoc_refusing_newer_syntax_is_too_old(line: str, optional: bool) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "protoc-too-old"
    fix = fix_text(top)
    assert "protoc --version" in fix and "releases/download" in fix
    assert ("3.15" in fix) is optional
    # protoc 3 says none of these: the file is not at fault whatever `protoc --version` says.
    assert "fix the file instead" not in fix


def test_proto3_optional_is_read_from_the_tag() -> None:
    # A line of the family under an id no code names: its tag alone asks for protoc 3.15.
    line = (
        "api/settings.proto: This file contains proto3 optional fields, but "
        "--experimental_allow_proto3_optional was not set.\n"
    )
    tagged, untagged = tag_readings(
        line, "protoc-proto3-optional-refused", PROTO3_OPTIONAL, "protoc-too-old"
    )
    assert "3.15" in tagged and "3.15" not in untagged


def test_a_label_asked_for_is_a_warning_of_an_old_protoc() -> None:
    text = (
        'object_detection/protos/anchor_generator.proto:11:3: Expected "required", '
        '"optional", or "repeated".\n'
        "object_detection/protos/anchor_generator.proto:11:32: Missing field number.\n"
    )
    found = [x for x in explained(text).findings if x.cause == "protoc-too-old"]
    assert found and found[0].severity is Severity.WARNING
    assert "protoc --version" in fix_text(found[0])
    # protoc 3 asks the same of a proto2 file's own unlabelled field.
    assert "fix the file instead" in fix_text(found[0])


@pytest.mark.parametrize(
    "before",
    [
        pytest.param("$ protoc --version\nlibprotoc 3.21.12\n", id="protoc-3-shown"),
        pytest.param(
            "[libprotobuf WARNING google/protobuf/compiler/parser.cc:648] No syntax specified "
            "for the proto file: msg.proto. Please use 'syntax = \"proto2\";' or 'syntax = "
            '"proto3";\' to specify a syntax version. (Defaulted to proto2 syntax.)\n',
            id="file-without-syntax",
        ),
    ],
)
def test_a_label_asked_for_by_protoc_3_is_the_files_own(before: str) -> None:
    text = before + 'msg.proto:4:3: Expected "required", "optional", or "repeated".\n'
    assert "protoc-too-old" not in _causes(explained(text))


def test_a_newer_protoc_naming_both_syntaxes_is_not_too_old() -> None:
    text = (
        'x.proto:1:10: Unrecognized syntax identifier "proto4".  This parser only recognizes '
        '"proto2" and "proto3".\n'
    )
    assert "protoc-too-old" not in _causes(explained(text))


def test_an_installed_copy_is_told_by_the_evidence_layer_alone() -> None:
    # One home for what marks an installed file: the evidence layer's, not a copy here.
    assert "site|dist" not in inspect.getsource(generated)
    assert is_installed("/venv/lib/python3.11/site-packages/object_detection/protos/x.py")
    assert not is_installed("/src/models/research/object_detection/protos/x.py")


def test_a_windows_log_gets_no_linux_download() -> None:
    text = (
        "C:\\Users\\ana\\models\\research>protoc object_detection/protos/*.proto --python_out=.\n"
        'object_detection/protos/eval.proto:1:10: Unrecognized syntax identifier "proto3".  '
        'This parser only recognizes "proto2".\n'
    )
    top = top_error(explained(text))
    assert top.cause == "protoc-too-old"
    fix = fix_text(top)
    assert "linux-x86_64" not in fix and "export PATH" not in fix
    assert "the one for Windows" in fix and "protoc --version" in fix
