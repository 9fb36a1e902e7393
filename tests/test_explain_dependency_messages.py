"""TensorFlow's core dependencies at the wrong release, read from the words those libraries
print themselves when an installed release does not fit the code or binaries around it.

The messages (their distinctive words), the releases that print them, the reading each gets
and where the words are printed (the sources below the table). Readings: `protobuf-incompatible`
(older, newer: which libprotobuf the process loaded first; incompatible; clash: two native
libraries carry generated code of one .proto, the releases built together), `numpy-abi` (abi),
`numpy-name-removed` (removed), else `dependency-out-of-range` (range: into TensorFlow's
declared range; up: a newer NumPy; any: either direction, both named), or harmless (`benign`):

| Message | Releases | Reading | Src |
| --- | --- | --- | --- |
| `Descriptors cannot (not) be created directly` | protobuf 4.21+ | protobuf-incompatible | 1 |
| `cannot import name 'builder' from 'google.protobuf.internal'` | < 3.20 | protobuf>=3.20 | 2 |
| `cannot import name 'runtime_version' from 'google.protobuf'` | < 5.27 | protobuf>=5.27 | 3 |
| `descriptor' has no attribute '_internal_create_key'` | < 3.12 | protobuf>=3.12 | 4 |
| `unexpected keyword argument 'serialized_options'` | < 3.6 | protobuf>=3.6 | 5 |
| `unexpected keyword argument 'syntax'` (TensorFlow's `_pb2` frames) | 2.x | protobuf>=3.0 | 20 |
| `cannot import name 'service' from 'google.protobuf'` | 6.30+ | protobuf<6.30 | 25 |
| `VersionError: ... Gencode/Runtime versions when loading X.proto` | 5.27+ | incompatible | 6 |
| `Protobuf gencode version A is exactly one major version older` | 6.x warning | benign | 6 |
| `This program requires version A of the Protocol Buffer runtime` | libprotobuf 3 | older | 7 |
| `This program was compiled against version A ... installed version (B)` | 3.x | newer | 7 |
| `Couldn't build proto file into descriptor pool: duplicate file name` | 4.21+ | left alone | 24 |
| `'MessageFactory' object has no attribute 'GetPrototype'` | 6.30+ | protobuf<6.30 | 26 |
| `File already exists in database: X.proto` (and its CHECK failure) | C++ 3.x | clash | 27 |
| `MessageFactory class is deprecated ... MessageFactory.GetPrototype` | 4.x, 5.x | benign | 26 |
| `Selected implementation upb is not available. Falling back to the python` | 4.21+ | benign | 28 |
| `'...RepeatedCompositeCo' object has no attribute 'append'` | up to 3.7.1 | up (3.8) | 29 |
| `module compiled against API version 0xA but this version of numpy is 0xB` | 1.x | up | 8 |
| `module compiled against ABI version 0x1000009 but ... 0x2000000` | 1.x under 2 | numpy-abi | 8 |
| `compiled using NumPy 1.x cannot be run in NumPy 2`, `_ARRAY_API not found` | 2.x | abi | 9 |
| `numpy.core.multiarray failed to import`, `numpy.core.umath failed to import` | 1.x | any | 10 |
| `numpy.core._multiarray_umath failed to import` | 1.16-1.26 build | numpy>=1.16.0,<2.0 | 11 |
| `No module named 'numpy._core'` (written under NumPy 2) | < 1.26.1 | numpy>=1.26.1 | 21 |
| `ValueError: numpy.dtype size changed ... Expected 96 from C header, got 88` | Cython | up | 12 |
| `RuntimeWarning: numpy.dtype size changed ... Expected 96, got 88` | Cython | benign | 13 |
| `module 'numpy' has no attribute 'object'` (+ its advice from 1.24.2) | 1.24+ | removed | 14 |
| `` `np.NaN` was removed in the NumPy 2.0 release. `` (each expired name) | 2.0+ | removed | 15 |
| `has no attribute 'asscalar'` (`alen`; `msort`, `product`; `in1d`) | 1.23; 2; 2.4 | removed | 22 |
| `'str' object has no attribute 'decode'` in Keras' HDF5 loader | h5py 3 | h5py<3.0.0 | 16 |
| `module 'ml_dtypes' has no attribute 'float8_e4m3b11'` | 0.3+ | TensorFlow's range | 17 |
| `cannot import name 'X' from 'typing_extensions'`, `gast' has no attribute` | any | range | 17 |
| `this __dict__ descriptor does not support '_DictWrapper' objects` | 1.15 | wrapt<1.15 | 18 |
| `Bad argument number for Name: 3, expecting 4` | gast 0.3+ | TensorFlow's pin | 19 |
| `cannot import name 'X' from 'absl' (unknown location)` | any | dependency-missing | 23 |
| `No module named 'google.protobuf'` | any | dependency-missing | 23 |

1. https://github.com/protocolbuffers/protobuf/blob/v4.21.0/python/google/protobuf/descriptor.py
2. https://github.com/protocolbuffers/protobuf/issues/9778
3. https://github.com/protocolbuffers/protobuf/blob/v27.0/src/google/protobuf/compiler/python/generator.cc
4. https://github.com/protocolbuffers/protobuf/blob/v3.12.0/python/google/protobuf/descriptor.py
5. https://github.com/protocolbuffers/protobuf/issues/4716
6. https://github.com/protocolbuffers/protobuf/blob/v29.0/python/google/protobuf/runtime_version.py
7. https://github.com/protocolbuffers/protobuf/blob/v3.11.0/src/google/protobuf/stubs/common.cc
8. https://github.com/numpy/numpy/blob/v1.26.0/numpy/core/code_generators/generate_numpy_api.py
9. https://github.com/numpy/numpy/blob/v2.0.0/numpy/core/_multiarray_umath.py
10. https://github.com/numpy/numpy/blob/v1.15.0/numpy/core/code_generators/generate_ufunc_api.py
11. https://github.com/numpy/numpy/blob/v1.16.0/numpy/core/code_generators/generate_ufunc_api.py
12. https://github.com/cython/cython/blob/3.0.0/Cython/Utility/ImportExport.c
13. https://github.com/cython/cython/blob/0.27/Cython/Utility/ImportExport.c and
    https://github.com/numpy/numpy/blob/v1.16.0/numpy/__init__.py (NumPy's own filter)
14. https://github.com/numpy/numpy/blob/v1.24.2/numpy/__init__.py
15. https://github.com/numpy/numpy/blob/v2.0.0/numpy/_expired_attrs_2_0.py
16. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/python/keras/saving/hdf5_format.py
17. the requirement TensorFlow's wheel metadata declares (the matrix), `pip check`
18. https://github.com/tensorflow/tensorflow/issues/59869
19. https://github.com/serge-sans-paille/gast/blob/0.3.0/gast/gast.py
20. https://github.com/protocolbuffers/protobuf/blob/v3.0.0/python/google/protobuf/descriptor.py
21. https://github.com/numpy/numpy/tree/v1.26.1/numpy/_core (absent from v1.26.0)
22. https://numpy.org/doc/stable/release/1.23.0-notes.html (and 2.0.0-notes, 2.4.0-notes)
23. https://docs.python.org/3/reference/import.html#namespace-packages
24. https://github.com/protocolbuffers/protobuf/blob/v29.0/python/descriptor_pool.c and
    https://github.com/protocolbuffers/protobuf/blob/v29.0/upb/reflection/def_pool.c
25. https://github.com/protocolbuffers/protobuf/blob/v29.0/python/google/protobuf/service.py
    (absent from v30.0)
26. https://github.com/protocolbuffers/protobuf/blob/v29.0/python/google/protobuf/message_factory.py
    and https://protobuf.dev/news/v30/
27. https://github.com/protocolbuffers/protobuf/blob/v3.9.2/src/google/protobuf/descriptor_database.cc
    and descriptor.cc (InternalAddGeneratedFile)
28. https://github.com/protocolbuffers/protobuf/blob/v25.3/python/google/protobuf/internal/api_implementation.py
29. https://github.com/protocolbuffers/protobuf/blob/v3.7.1/python/google/protobuf/pyext/repeated_composite_container.cc
    (add, extend, no append) and v3.8.0's (append, insert; internal/containers.py the same);
    after an install in a notebook's kernel, `kernel-restart-needed` (the module stays loaded)
"""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import SIGNATURES, explained, fix_text, top_error
from tfdoctor.findings import Severity


def _pb2_traceback(module: str, statement: str, error: str) -> str:
    """An import of TensorFlow stopped in one of its generated ``_pb2`` modules."""
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        f'  File "/usr/local/lib/python3.8/site-packages/tensorflow/core/framework/{module}", '
        "line 20, in <module>\n"
        f"    {statement}\n"
        f"{error}\n"
    )


def _causes(text: str) -> set[str]:
    """The causes of the findings at warning or above."""
    return {
        f.cause
        for f in explained(text).findings
        if f.cause and f.severity in (Severity.ERROR, Severity.WARNING)
    }


# --- protobuf ---------------------------------------------------------------------------------


def test_protobuf_without_internal_create_key_is_upgraded_to_312() -> None:
    text = _pb2_traceback(
        "types_pb2.py",
        "create_key=_descriptor._internal_create_key,",
        "AttributeError: module 'google.protobuf.descriptor' has no attribute "
        "'_internal_create_key'",
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible"
    assert 'pip install "protobuf>=3.12"' in fix_text(top)


_CPP_APPEND = (
    "AttributeError: 'google.protobuf.pyext._message.RepeatedCompositeCo' object has no "
    "attribute 'append'\n"
)


@pytest.mark.parametrize(
    "error",
    [
        pytest.param(_CPP_APPEND, id="cpp"),
        pytest.param(
            "AttributeError: 'RepeatedCompositeFieldContainer' object has no attribute 'insert'\n",
            id="python",
        ),
    ],
)
def test_the_containers_missing_append_is_a_protobuf_older_than_the_code(error: str) -> None:
    # protobuf up to 3.7.1 gives repeated message fields no append() or insert(), in either
    # implementation; 3.8.0 brought both: an upgrade to 3.8 (a bare `pip install protobuf`
    # leaves an installed one as it is), never the "older than 3.21" advice of one too new.
    top = top_error(explained(error))
    assert top.cause == "protobuf-incompatible"
    assert "Upgrade protobuf to 3.8" in fix_text(top) and "older than" not in fix_text(top)
    # The method the message names, not another.
    assert f"calls `{error.rsplit(chr(39), 2)[1]}`" in fix_text(top)
    assert top.fix is not None and top.fix.commands == ('pip install "protobuf>=3.8"',)


@pytest.mark.parametrize("install", ["!pip install -q planted-agents\n", "%pip install planted\n"])
def test_the_same_after_an_install_in_the_notebooks_kernel_is_a_restart(install: str) -> None:
    # The kernel imported protobuf's compiled module before the install: it stays loaded.
    top = top_error(explained(install + _CPP_APPEND))
    assert top.cause == "kernel-restart-needed"
    assert "Restart the kernel" in fix_text(top) and "protobuf" in fix_text(top)
    # What the kernel keeps is protobuf, not a TensorFlow; a restart over an old protobuf on
    # disk leaves the error: the upgrade stays named after it.
    assert "TensorFlow" not in top.summary and "protobuf" in top.summary
    assert fix_text(top).index("Restart") < fix_text(top).index("protobuf to 3.8")


def test_an_install_outside_a_kernel_is_no_restart() -> None:
    # A shell's pip (no notebook shows) leaves the protobuf reading alone.
    top = top_error(explained("$ pip install planted-agents\n" + _CPP_APPEND))
    assert top.cause == "protobuf-incompatible"


def test_protobuf_floor_stays_inside_the_range_of_the_tensorflow_the_log_shows() -> None:
    text = "Successfully installed protobuf-3.11.3 tensorflow-2.15.0\n" + _pb2_traceback(
        "types_pb2.py",
        "create_key=_descriptor._internal_create_key,",
        "AttributeError: module 'google.protobuf.descriptor' has no attribute "
        "'_internal_create_key'",
    )
    fix = fix_text(top_error(explained(text)))
    # The floor joined to TensorFlow 2.15's own declared range, not an unbounded upgrade.
    assert "protobuf>=3.12," in fix and "<5.0.0dev" in fix


def test_generated_code_of_protoc_27_needs_protobuf_527() -> None:
    text = _pb2_traceback(
        "attr_value_pb2.py",
        "from google.protobuf import runtime_version as _runtime_version",
        "ImportError: cannot import name 'runtime_version' from 'google.protobuf' "
        "(/usr/local/lib/python3.8/site-packages/google/protobuf/__init__.py)",
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible"
    assert 'pip install "protobuf>=5.27"' in fix_text(top)


def test_a_floor_above_tensorflows_range_installs_no_protobuf() -> None:
    # TensorFlow 2.15 declares protobuf<5.0.0dev: protobuf 5.27 would break it.
    text = "Successfully installed protobuf-4.25.3 tensorflow-2.15.0\n" + _pb2_traceback(
        "attr_value_pb2.py",
        "from google.protobuf import runtime_version as _runtime_version",
        "ImportError: cannot import name 'runtime_version' from 'google.protobuf' "
        "(/usr/local/lib/python3.8/site-packages/google/protobuf/__init__.py)",
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible"
    assert top.fix is not None and "stops below 5.27" in top.fix.text
    assert not any("install" in c for c in top.fix.commands), top.fix.commands


def _service_import(installed: str) -> str:
    return installed + (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import evalkit\n"
        '  File "/usr/local/lib/python3.11/site-packages/evalkit/rpc_pb2.py", line 9, in <module>\n'
        "    from google.protobuf import service as _service\n"
        "ImportError: cannot import name 'service' from 'google.protobuf' "
        "(/usr/local/lib/python3.11/site-packages/google/protobuf/__init__.py)\n"
    )


#: A name protobuf 6.30 removed, under each TensorFlow the log may show: the installed text
#: and the command the fix must hold.
_BEFORE_630 = pytest.mark.parametrize(
    ("installed", "command"),
    [
        ("", 'pip install "protobuf<6.30"'),
        # TensorFlow 2.20 declares protobuf>=5.28.0: a protobuf before 6.30 inside it.
        ("Successfully installed protobuf-6.31.1 tensorflow-2.20.0\n", '"protobuf<6.30,>=5.28.0"'),
        # TensorFlow 2.21 declares protobuf>=6.31.1: none before 6.30 serves it.
        ("Successfully installed protobuf-6.31.1 tensorflow-2.21.0\n", "pip show protobuf"),
    ],
    ids=["no-tensorflow", "tf-2.20", "tf-2.21"],
)


@_BEFORE_630
def test_a_name_protobuf_removed_is_a_protobuf_newer_than_the_code(
    installed: str, command: str
) -> None:
    # protobuf 6.30 removed google.protobuf.service: a newer runtime, not an older one.
    top = top_error(explained(_service_import(installed)))
    assert top.cause == "protobuf-incompatible" and "removed" in top.summary
    assert "older than the code" not in top.summary
    assert top.fix is not None
    assert any(command in c for c in top.fix.commands), top.fix.commands


def _get_prototype(installed: str, error: str) -> str:
    return installed + (
        "Traceback (most recent call last):\n"
        '  File "infer.py", line 3, in <module>\n'
        "    hands = mp.solutions.hands.Hands()\n"
        '  File "/opt/venv/lib/python3.11/site-packages/mediapipe/python/packet_getter.py", '
        "line 95, in get_proto\n"
        "    proto_message = symbol_database.Default().GetPrototype(descriptor)()\n"
        f"{error}\n"
    )


@pytest.mark.parametrize(
    "error",
    [
        "AttributeError: 'MessageFactory' object has no attribute 'GetPrototype'",
        "AttributeError: 'SymbolDatabase' object has no attribute 'GetPrototype'. Did you mean: "
        "'GetMessages'?",
    ],
    ids=["factory", "symbol-database"],
)
@_BEFORE_630
def test_get_prototype_removed_by_protobuf_630_is_a_protobuf_newer_than_the_code(
    error: str, installed: str, command: str
) -> None:
    # protobuf 6.30 removed MessageFactory.GetPrototype: below it, never an older protobuf.
    top = top_error(explained(_get_prototype(installed, error)))
    assert top.cause == "protobuf-incompatible"
    assert top.fix is not None and "<3.21" not in fix_text(top)
    assert any(command in c for c in top.fix.commands), top.fix.commands


def test_get_prototype_under_a_tensorflow_past_630_upgrades_the_library_that_calls_it() -> None:
    # TensorFlow 2.21 declares protobuf>=6.31.1: no protobuf before 6.30 serves it. GetPrototype
    # is a call in a library's own code (mediapipe's here), not in code protoc generated:
    # generating code again changes nothing; a release of that library written for protobuf 6
    # does.
    text = _get_prototype(
        "Successfully installed protobuf-6.31.1 tensorflow-2.21.0\n",
        "AttributeError: 'MessageFactory' object has no attribute 'GetPrototype'",
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible"
    fix = fix_text(top)
    assert "generate" not in fix and "protoc" not in fix, fix
    assert "upgrade the library that calls it" in fix, fix
    # 6.30's service, imported by generated code, is still generated again.
    service = fix_text(
        top_error(explained(_service_import("Successfully installed tensorflow-2.21.0\n")))
    )
    assert "generate the code again" in service, service


def test_the_cpp_backends_own_factory_without_get_prototype_is_no_removal() -> None:
    # protobuf 3.x's C++ backend has a message factory type of its own
    # (google.protobuf.pyext._message.MessageFactory, python/google/protobuf/pyext/
    # message_factory.cc: no methods at all), gone with pyext in 4.21; GetPrototype was never
    # one of its names. Code calling it there is not a protobuf of 6.30 or later.
    text = _get_prototype(
        "",
        "AttributeError: 'google.protobuf.pyext._message.MessageFactory' object has no "
        "attribute 'GetPrototype'",
    )
    assert SIGNATURES.by_id("protobuf-get-prototype").pattern.search(text) is None
    assert "6.30" not in " ".join(fix_text(x) for x in explained(text).findings if x.fix)


def test_get_prototypes_deprecation_warning_is_harmless() -> None:
    text = (
        "/opt/venv/lib/python3.11/site-packages/tensorflow/python/tpu/tpu_embedding_v3.py:406: "
        "UserWarning: MessageFactory class is deprecated. Please use GetMessageClass() instead "
        "of MessageFactory.GetPrototype. MessageFactory class will be removed after 2024.\n"
        "  for layout in stacker.GetLayouts().tables:\n"
    )
    report = explained(text)
    assert not _causes(text)
    assert any(f.id == "explain.benign.protobuf-get-prototype-deprecated" for f in report.findings)


@pytest.mark.parametrize(
    ("installed", "spec"),
    [
        # Nothing shows a release: no bare "protobuf", which would pull the newest one.
        ("", None),
        ("Successfully installed tensorflow-2.15.0\n", "<5.0.0dev,>=3.20.3"),
        # pip's notice names the protobuf installed: that release again.
        (
            "grpcio-status 1.62.1 requires protobuf>=4.21.6, but you have protobuf 3.20.3 "
            "which is incompatible.\n",
            '"protobuf==3.20.3"',
        ),
        # A requirer's range pip printed bounds it where no release is shown.
        ("tensorboard 2.11.2 requires protobuf<4,>=3.9.2, which is not installed.\n", "<4"),
    ],
    ids=["no-tensorflow-shown", "tf-2.15", "installed-shown", "requirer-range"],
)
def test_google_protobuf_not_found_is_protobuf_missing_or_hidden(
    installed: str, spec: Optional[str]
) -> None:
    text = installed + _pb2_traceback(
        "attr_value_pb2.py",
        "from google.protobuf import descriptor as _descriptor",
        "ModuleNotFoundError: No module named 'google.protobuf'",
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-missing"
    assert top.fix is not None
    # Where `google` comes from first: a package named google with its own __init__.py hides
    # the namespace protobuf installs into.
    assert "print(google.__path__)" in top.fix.commands[0]
    if spec is None:
        assert not any("--force-reinstall" in c for c in top.fix.commands)
        assert any("show protobuf" in c for c in top.fix.commands)
    else:
        assert any(spec in c and "--force-reinstall" in c for c in top.fix.commands)


def test_protobufs_fallback_to_its_python_implementation_is_harmless() -> None:
    text = (
        "/opt/venv/lib/python3.11/site-packages/google/protobuf/internal/api_implementation.py"
        ":104: UserWarning: Selected implementation upb is not available. Falling back to the "
        "python implementation.\n"
        "  warnings.warn('Selected implementation upb is not available. '\n"
    )
    assert not _causes(text)
    assert any(f.id == "explain.benign.protobuf-upb-fallback" for f in explained(text).findings)


def test_protobuf_4_refusing_old_generated_code_takes_tensorflows_range() -> None:
    text = "Successfully installed protobuf-4.21.1 tensorflow-2.15.0\n" + _pb2_traceback(
        "tensor_shape_pb2.py",
        "_descriptor.FieldDescriptor(",
        "TypeError: Descriptors cannot not be created directly.\n"
        "If this call came from a _pb2.py file, your generated code is out of date and must be "
        "regenerated with protoc >= 3.19.0.",
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible" and "<5.0.0dev" in fix_text(top)


@pytest.mark.parametrize(
    ("statement", "keyword", "floor"),
    [
        ("serialized_pb=_b('\\n/tensorflow/core/framework/types.proto'),", "syntax", "3.0"),
        ("serialized_options=None,", "serialized_options", "3.6"),
    ],
    ids=["protobuf-2", "before-3.6"],
)
def test_descriptor_arguments_older_runtimes_do_not_take(
    statement: str, keyword: str, floor: str
) -> None:
    text = _pb2_traceback(
        "types_pb2.py",
        statement,
        f"TypeError: __init__() got an unexpected keyword argument '{keyword}'",
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible"
    assert f'pip install "protobuf>={floor}"' in fix_text(top)


def test_a_syntax_keyword_outside_generated_code_is_not_protobuf() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/highlight.py", line 3, in <module>\n'
        "    lexer = Lexer(syntax='c')\n"
        "TypeError: __init__() got an unexpected keyword argument 'syntax'\n"
    )
    assert "protobuf-incompatible" not in _causes(text)


def test_runtime_version_check_of_protobuf_5() -> None:
    text = (
        "google.protobuf.runtime_version.VersionError: Detected incompatible Protobuf "
        "Gencode/Runtime versions when loading tensorflow/core/framework/attr_value.proto: "
        "gencode 5.28.3 runtime 5.27.2. Runtime version cannot be older than the linked "
        "gencode version.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible" and "5.28.3" in fix_text(top)


def test_libprotobuf_newer_than_the_code_it_serves() -> None:
    text = (
        "[libprotobuf FATAL google/protobuf/stubs/common.cc:87] This program was compiled "
        "against version 3.6.1 of the Protocol Buffer runtime library, which is not compatible "
        "with the installed version (3.19.4).  Contact the program author for an update.  "
        '(Version verification failed in "bazel-out/k8-opt/bin/tensorflow/core/framework/'
        'tensor.pb.cc".)\n'
        "terminate called after throwing an instance of 'google::protobuf::FatalException'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible"
    fix = fix_text(top)
    assert "compiled against protobuf 3.6.1" in fix and "protobuf 3.19.4" in fix
    # conda's listing is a command only where the log shows a conda environment.
    assert top.fix is not None and "conda list libprotobuf" not in top.fix.commands
    site = "/opt/conda/envs/tf/lib/python3.10/site-packages"
    conda = top_error(explained(f"{site}/tensorflow/__init__.py\n" + text))
    assert conda.fix is not None
    assert "conda list libprotobuf" in conda.fix.commands, conda.fix.commands


def test_libprotobuf_older_than_the_code_keeps_its_own_reading() -> None:
    text = (
        "[libprotobuf FATAL external/protobuf_archive/src/google/protobuf/stubs/common.cc:68] "
        "This program requires version 3.7.0 of the Protocol Buffer runtime library, but the "
        "installed version is 3.6.1.  Please update your library.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible" and "imported before" in fix_text(top)


@pytest.mark.parametrize(
    ("lines", "proto"),
    [
        pytest.param(
            "[libprotobuf ERROR external/com_google_protobuf/src/google/protobuf/"
            "descriptor_database.cc:641] File already exists in database: xla/xla_data.proto\n"
            "[libprotobuf FATAL external/com_google_protobuf/src/google/protobuf/descriptor.cc:"
            "1371] CHECK failed: GeneratedDatabase()->Add(encoded_file_descriptor, size):\n"
            "terminate called after throwing an instance of 'google::protobuf::FatalException'\n",
            "xla/xla_data.proto",
            id="file-exists",
        ),
        pytest.param(
            "[libprotobuf ERROR external/com_google_protobuf/src/google/protobuf/"
            "descriptor_database.cc:393] Invalid file descriptor data passed to "
            "EncodedDescriptorDatabase::Add().\n"
            "libc++abi.dylib: terminating with uncaught exception of type "
            "google::protobuf::FatalException: CHECK failed: "
            "GeneratedDatabase()->Add(encoded_file_descriptor, size):\n",
            "",
            id="invalid-data",
        ),
    ],
)
def test_two_copies_of_generated_code_in_one_process_are_no_protobuf_from_pip(
    lines: str, proto: str
) -> None:
    text = '$ python -c "import jax; import tensorflow"\n' + lines
    top = top_error(explained(text))
    assert top.cause == "protobuf-incompatible"
    fix = fix_text(top)
    assert "built for the installed TensorFlow" in fix and proto in fix
    # The copies are compiled into the libraries: no protobuf release from pip is the fix.
    assert top.fix is not None
    assert not any("install" in c and "protobuf" in c for c in top.fix.commands)
    assert "<3.21" not in fix and "jax imported before TensorFlow" in fix


@pytest.mark.parametrize(
    "line",
    [
        # protobuf 3.x: GOOGLE_CHECK's words behind its own prefix.
        pytest.param(
            "[libprotobuf FATAL google/protobuf/descriptor.cc:1986] CHECK failed: "
            "GeneratedDatabase()->Add(encoded_file_descriptor, size): \n",
            id="protobuf-3",
        ),
        # protobuf 22 and later: ABSL_CHECK's "Check failed: " behind absl's prefix.
        pytest.param(
            "F0304 10:00:00.123456   41234 descriptor.cc:1953] Check failed: "
            "GeneratedDatabase()->Add(encoded_file_descriptor, size) \n"
            "*** Check failure stack trace: ***\n",
            id="protobuf-22-absl",
        ),
    ],
)
def test_generated_database_abort_reads_in_both_check_wordings(line: str) -> None:
    top = top_error(explained('$ python -c "import jax; import tensorflow"\n' + line))
    assert top.cause == "protobuf-incompatible"
    assert "built for the installed TensorFlow" in fix_text(top)


def test_another_programs_file_already_in_its_database_is_not_protobuf() -> None:
    assert not _causes("File already exists in database: /srv/media/clip.mp4\n")


def test_gencode_one_major_older_is_only_a_warning_of_protobuf() -> None:
    text = (
        "/opt/venv/lib/python3.11/site-packages/google/protobuf/runtime_version.py:98: "
        "UserWarning: Protobuf gencode version 5.28.3 is exactly one major version older than "
        "the runtime version 6.31.1 at tensorflow/core/framework/attr_value.proto. Please "
        "update the gencode to avoid compatibility violations in the next runtime release.\n"
        "  warnings.warn(\n"
    )
    report = explained(text)
    assert "protobuf-incompatible" not in _causes(text)
    assert any(f.id == "explain.benign.protobuf-gencode-one-major-older" for f in report.findings)


def test_a_duplicate_proto_in_the_pool_is_not_a_release() -> None:
    text = (
        "TypeError: Couldn't build proto file into descriptor pool: duplicate file name "
        "tensorflow/core/framework/tensor.proto\n"
    )
    assert "protobuf-incompatible" not in _causes(text)


@pytest.mark.parametrize(
    "line",
    [
        # The same words about another program's own library, or in prose.
        "error: This program was compiled against version 2 of libfoo, which is not compatible",
        '  File "/home/u/keys.py", line 4, in make\n    k = store.create_key()\n'
        "AttributeError: 'Store' object has no attribute 'create_key'",
    ],
    ids=["other-library", "users-create-key"],
)
def test_protobufs_words_elsewhere_are_not_protobuf(line: str) -> None:
    assert "protobuf-incompatible" not in _causes(line + "\n")


# --- NumPy ------------------------------------------------------------------------------------


def test_an_extension_of_numpy_116_under_an_older_numpy_is_told_the_floor() -> None:
    text = (
        "ModuleNotFoundError: No module named 'numpy.core._multiarray_umath'\n"
        "ImportError: numpy.core._multiarray_umath failed to import\n"
        "ImportError: numpy.core.umath failed to import\n"
        "2019-03-04 00:54:06.762221: F tensorflow/python/lib/core/bfloat16.cc:675] "
        "Check failed: PyBfloat16_Type.tp_base != nullptr\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    assert 'pip install "numpy>=1.16.0,<2.0"' in fix_text(top)


def test_the_ufunc_import_of_numpy_116_headers_alone() -> None:
    top = top_error(explained("ImportError: numpy.core._multiarray_umath failed to import\n"))
    assert top.cause == "dependency-out-of-range" and "numpy>=1.16.0" in fix_text(top)


def test_the_umath_line_alone_names_both_directions() -> None:
    top = top_error(explained("ImportError: numpy.core.umath failed to import\n"))
    assert top.cause == "dependency-out-of-range"
    fix = fix_text(top)
    assert "pip show tensorflow numpy" in fix and "numpy<2" in fix


def test_the_umath_line_under_numpy_2_is_numpy_2() -> None:
    text = (
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.1.3 as it may crash. To support both 1.x and 2.x\n"
        "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
        "AttributeError: _ARRAY_API not found\n"
        "ImportError: numpy.core.umath failed to import\n"
    )
    assert _causes(text) == {"numpy-abi"}


def test_the_multiarray_umath_line_under_numpy_2_is_no_older_numpy() -> None:
    # A build of NumPy 1.16 to 1.26's headers under NumPy 2: its import_array fails on
    # _ARRAY_API, then its import_umath prints the line that alone reads as an older NumPy.
    text = (
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.0.1 as it may crash. To support both 1.x and 2.x\n"
        "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
        "Traceback (most recent call last):\n"
        '  File "/app/serve.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "AttributeError: _ARRAY_API not found\n"
        "ImportError: numpy.core._multiarray_umath failed to import\n"
        "ImportError: numpy.core.umath failed to import\n"
    )
    assert _causes(text) == {"numpy-abi"}


def test_numpys_broken_install_is_not_an_old_numpy() -> None:
    # NumPy's own refusal to import its C extensions (a broken install): the module it names
    # is missing from NumPy itself, not from an older release.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/.local/lib/python3.8/site-packages/numpy/core/overrides.py", line 7, '
        "in <module>\n"
        "    from numpy.core._multiarray_umath import (\n"
        "ModuleNotFoundError: No module named 'numpy.core._multiarray_umath'\n"
        "\n"
        "IMPORTANT: PLEASE READ THIS FOR ADVICE ON HOW TO SOLVE THIS ISSUE!\n"
        "\n"
        "Importing the numpy C-extensions failed. This error can happen for\n"
    )
    assert "dependency-out-of-range" not in _causes(text)


def _numpy_2_pickle(installed: str) -> str:
    return installed + (
        "Traceback (most recent call last):\n"
        '  File "/app/serve.py", line 14, in <module>\n'
        "    scaler = pickle.load(f)\n"
        "ModuleNotFoundError: No module named 'numpy._core'\n"
    )


def test_numpy_2s_pickle_under_an_older_numpy_takes_the_stubs_of_1261() -> None:
    top = top_error(explained(_numpy_2_pickle("")))
    assert top.cause == "dependency-out-of-range"
    assert 'pip install "numpy>=1.26.1,<2"' in fix_text(top)


def test_numpy_core_floor_joins_tensorflows_range() -> None:
    text = _numpy_2_pickle("Successfully installed numpy-1.24.3 tensorflow-2.15.0\n")
    assert 'numpy>=1.26.1,<2.0.0,>=1.23.5"' in fix_text(top_error(explained(text)))


def test_numpy_core_floor_above_tensorflows_range_is_not_installed() -> None:
    # TensorFlow 2.12 declares numpy<=1.24.3: no NumPy with numpy._core serves it.
    text = _numpy_2_pickle("Successfully installed numpy-1.24.3 tensorflow-2.12.0\n")
    top = top_error(explained(text))
    fix = fix_text(top)
    assert "stops below 1.26.1" in fix and "pip install" not in fix


def test_numpy_core_under_a_users_numpy_py_is_no_numpy_release() -> None:
    # Python's "'numpy' is not a package": the numpy imported is a file of the user's own.
    text = "ModuleNotFoundError: No module named 'numpy._core'; 'numpy' is not a package\n"
    assert "dependency-out-of-range" not in _causes(text)


def test_a_submodule_of_numpy_core_is_not_read_as_the_package() -> None:
    text = "ModuleNotFoundError: No module named 'numpy._core.numeric'\n"
    assert "dependency-out-of-range" not in _causes(text)


def test_the_c_api_version_check_names_the_builds_numpy() -> None:
    text = (
        "RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xe\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range" and "numpy>=1.23" in fix_text(top)


def test_the_abi_version_check_of_numpy_2() -> None:
    text = (
        "RuntimeError: module compiled against ABI version 0x1000009 but this version of numpy "
        "is 0x2000000\n"
    )
    top = top_error(explained(text))
    assert top.cause == "numpy-abi" and "numpy<2" in fix_text(top)


def test_cythons_size_warning_is_harmless() -> None:
    text = (
        "/usr/lib/python3/dist-packages/scipy/stats/_stats_py.py:12: RuntimeWarning: "
        "numpy.dtype size changed, may indicate binary incompatibility. Expected 96, got 88\n"
    )
    report = explained(text)
    assert not _causes(text)
    assert any(f.id == "explain.benign.numpy-struct-grew-warning" for f in report.findings)


def test_cythons_size_error_is_still_an_extension_for_a_newer_numpy() -> None:
    text = (
        '  File "h5py/h5t.pxd", line 14, in init h5py._conv\n'
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 "
        "from C header, got 88 from PyObject\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range" and "h5py" in fix_text(top)


@pytest.mark.parametrize(
    ("text", "floor"),
    [
        (
            "AttributeError: module 'numpy' has no attribute 'bool'.\n"
            "`np.bool` was a deprecated alias for the builtin `bool`. To avoid this error in "
            "existing code, use `bool` by itself.\n",
            "numpy<1.24",
        ),
        (
            "AttributeError: `np.NaN` was removed in the NumPy 2.0 release. Use `np.nan` "
            "instead.\n",
            "numpy<2.0",
        ),
        (
            "AttributeError: `np.sctypes` was removed in the NumPy 2.0 release. \n",
            "numpy<2.0",
        ),
    ],
    ids=["alias-1.24", "nan-2.0", "no-advice-2.0"],
)
def test_numpys_removed_names_in_numpys_own_words(text: str, floor: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "numpy-name-removed" and floor in fix_text(top)


@pytest.mark.parametrize(
    ("name", "floor", "instead"),
    [
        ("asscalar", "numpy<1.23", "a.item()"),
        ("msort", "numpy<2.0", "np.sort(a, axis=0)"),
        ("product", "numpy<2.0", "np.prod"),
        ("in1d", "numpy<2.4", "np.isin"),
    ],
)
def test_numpy_functions_removed_without_advice_get_the_notes_replacement(
    name: str, floor: str, instead: str
) -> None:
    text = (
        '  File "/home/u/proj/stats.py", line 8, in summarise\n'
        f"    v = np.{name}(x)\n"
        f"AttributeError: module 'numpy' has no attribute '{name}'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "numpy-name-removed"
    fix = fix_text(top)
    assert floor in fix and f"`{instead}`" in fix


@pytest.mark.parametrize(
    "frames",
    [
        # The user's numpy.py runs itself: its frames show the file.
        '  File "/home/u/proj/numpy.py", line 1, in <module>\n    import numpy as np\n'
        '  File "/home/u/proj/numpy.py", line 3, in <module>\n    x = np.asscalar(a)\n',
        '  File "/home/u/proj/numpy/__init__.py", line 3, in <module>\n    x = np.asscalar(a)\n',
    ],
    ids=["numpy-py", "numpy-folder"],
)
def test_a_users_own_numpy_is_no_numpy_release(frames: str) -> None:
    text = "Traceback (most recent call last):\n" + frames
    text += "AttributeError: module 'numpy' has no attribute 'asscalar'\n"
    assert "numpy-name-removed" not in _causes(text)
    assert "tf-shadowed-module" in _causes(text)


def test_python_313s_note_on_a_users_numpy_is_no_numpy_release() -> None:
    text = (
        '  File "/home/u/proj/stats.py", line 8, in summarise\n'
        "    v = np.float(x)\n"
        "AttributeError: module 'numpy' has no attribute 'float' (consider renaming "
        "'/home/u/proj/numpy.py' if it has the same name as a library you intended to import)\n"
    )
    assert "numpy-name-removed" not in _causes(text)


def test_a_library_outside_tensorflows_family_using_a_removed_name_is_named() -> None:
    # scikit-learn's frame asked for np.in1d (NumPy 2.4 removed it): the library, not the
    # user's script, uses it, and NumPy 2.0 to 2.3 still have it.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/run.py", line 3, in <module>\n'
        "    score(a, b)\n"
        '  File "/usr/local/lib/python3.12/site-packages/sklearn/metrics/_ranking.py", line 80, '
        "in score\n"
        "    mask = np.in1d(a, b)\n"
        "AttributeError: module 'numpy' has no attribute 'in1d'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "numpy-name-removed" and "scikit-learn" in top.summary
    fix = fix_text(top)
    assert 'numpy<2.4"' in fix and 'numpy<2"' not in fix


def test_a_name_numpy_never_had_is_not_a_removal() -> None:
    text = "AttributeError: module 'numpy' has no attribute 'tensordotx'\n"
    assert "numpy-name-removed" not in _causes(text)


# --- h5py, ml_dtypes, typing_extensions, wrapt, gast --------------------------------------------


def test_h5py_3_under_keras_hdf5_loader() -> None:
    text = (
        '  File "/usr/local/lib/python3.8/site-packages/tensorflow/python/keras/saving/'
        'hdf5_format.py", line 651, in load_weights_from_hdf5_group\n'
        "    original_keras_version = f.attrs['keras_version'].decode('utf8')\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range" and "h5py<3.0.0" in fix_text(top)


def test_a_decode_in_the_users_own_code_is_not_h5py() -> None:
    text = (
        '  File "/home/u/app/util.py", line 12, in read_name\n'
        "    return name.decode('utf8')\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    assert "dependency-out-of-range" not in _causes(text)


@pytest.mark.parametrize(
    ("text", "dist"),
    [
        (
            '  File "/usr/local/lib/python3.10/site-packages/tensorflow/python/framework/'
            'dtypes.py", line 37, in <module>\n'
            "    _np_float8_e4m3b11 = ml_dtypes.float8_e4m3b11\n"
            "AttributeError: module 'ml_dtypes' has no attribute 'float8_e4m3b11'\n",
            "ml-dtypes",
        ),
        (
            '  File "/usr/local/lib/python3.9/site-packages/tensorflow/python/types/trace.py", '
            "line 24, in <module>\n"
            "    from typing_extensions import Protocol\n"
            "ImportError: cannot import name 'Protocol' from 'typing_extensions' "
            "(/usr/local/lib/python3.9/site-packages/typing_extensions.py)\n",
            "typing-extensions",
        ),
        (
            '  File "/usr/local/lib/python3.6/site-packages/tensorflow/python/autograph/'
            'converters/logical_expressions.py", line 54, in <module>\n'
            "    gast.Num: 'tf.negative',\n"
            "AttributeError: module 'gast' has no attribute 'Num'\n",
            "gast",
        ),
    ],
    ids=["ml-dtypes", "typing-extensions", "gast"],
)
def test_a_requirement_without_the_name_tensorflow_uses(text: str, dist: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    assert dist in top.summary and "pip check" in fix_text(top)


def test_the_module_is_named_beside_a_distribution_spelled_otherwise() -> None:
    text = (
        '  File "/usr/local/lib/python3.10/site-packages/tensorflow/python/framework/'
        'dtypes.py", line 51, in <module>\n'
        "    _np_int4 = ml_dtypes.int4\n"
        "AttributeError: module 'ml_dtypes' has no attribute 'int4'\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "ml-dtypes is the distribution of the `ml_dtypes` module" in fix


def test_a_requirement_found_as_a_bare_directory_is_missing_not_a_release() -> None:
    text = (
        '  File "/usr/local/lib/python3.8/site-packages/tensorflow/python/platform/'
        'tf_logging.py", line 18, in <module>\n'
        "    from absl import logging\n"
        "ImportError: cannot import name 'logging' from 'absl' (unknown location)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-missing"
    fix = fix_text(top)
    assert "absl.__path__" in fix and "--force-reinstall" in fix and "absl-py" in fix


def test_the_directory_found_is_printed_by_the_examined_python() -> None:
    text = (
        '  File "/opt/py/lib/python3.8/site-packages/tensorflow/python/platform/'
        'tf_logging.py", line 18, in <module>\n'
        "    from absl import logging\n"
        "ImportError: cannot import name 'logging' from 'absl' (unknown location)\n"
    )
    facts = f.facts(python=f.python(executable="/opt/py/bin/python3.8", version="3.8.10"))
    top = top_error(explained(text, facts=facts))
    assert top.fix is not None
    assert top.fix.commands[0].startswith("/opt/py/bin/python3.8 -c "), top.fix.commands


def test_numpy_2s_pickle_under_a_python_older_than_numpy_1261_installs_no_numpy() -> None:
    # NumPy 1.26.1 declares requires-python >=3.9: under Python 3.8 no NumPy has numpy._core.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/app/serve.py", line 14, in <module>\n'
        "    scaler = joblib.load(f)\n"
        '  File "/usr/local/lib/python3.8/site-packages/joblib/numpy_pickle.py", line 658, '
        "in load\n    obj = _unpickle(fobj)\n"
        "ModuleNotFoundError: No module named 'numpy._core'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range" and top.fix is not None
    assert "Python 3.9 or later" in top.fix.text
    assert not any("install" in c for c in top.fix.commands), top.fix.commands


def test_a_bare_directory_of_a_package_tensorflow_does_not_require_is_left_alone() -> None:
    text = "ImportError: cannot import name 'helpers' from 'myproject' (unknown location)\n"
    assert "dependency-missing" not in _causes(text)


def test_wrapt_115_under_tensorflows_tracked_dicts() -> None:
    text = (
        '  File "/opt/conda/lib/python3.11/site-packages/tensorflow/python/trackable/'
        'data_structures.py", line 823, in __getattribute__\n'
        "    return super().__getattribute__(name)\n"
        "TypeError: this __dict__ descriptor does not support '_DictWrapper' objects\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range" and "wrapt<1.15" in fix_text(top)


_CUT_AT_DICT_WRAPPER = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 40, in <module>\n'
    '    model.save("saved")\n'
    '  File "/opt/conda/lib/python3.10/site-packages/tensorflow/python/trackable/'
    'data_structures.py", line 823, in __getattribute__\n'
    "    return super().__getattribute__(name)\n"
)


def test_a_traceback_cut_at_the_tracked_dicts_lookup_is_most_likely_wrapt_115() -> None:
    report = explained(_CUT_AT_DICT_WRAPPER)
    (hit,) = [x for x in report.findings if x.cause == "dependency-out-of-range"]
    assert hit.severity is Severity.WARNING and "wrapt<1.15" in fix_text(hit)


@pytest.mark.parametrize(
    "text",
    [
        # A frame below the lookup (a property's own code) raised: not the proxy.
        _CUT_AT_DICT_WRAPPER + '  File "model.py", line 9, in weights\n    return self.w\n',
        # The exception line is there, and says something else.
        _CUT_AT_DICT_WRAPPER + "KeyError: 'dense'\n",
        # TensorFlow 2.13 and later: the same error comes from typing-extensions.
        "tensorflow 2.15.0\n" + _CUT_AT_DICT_WRAPPER,
    ],
    ids=["deeper-frame", "exception-shown", "tf-2.15"],
)
def test_a_tracked_dict_frame_that_is_not_the_cut_end_under_old_tf_is_not_wrapt(
    text: str,
) -> None:
    assert not any("wrapt" in fix_text(x) for x in explained(text).findings if x.fix)


@pytest.mark.parametrize(
    "line",
    [
        "ImportError: /venv/lib/python3.9/site-packages/tfx_bsl/cc/tfx_bsl_extension.so: "
        "undefined symbol: _ZN5arrow6Status8ToStringB5cxx11Ev",
        "ImportError: /venv/lib/python3.9/site-packages/tensorflow_data_validation/pywrap/"
        "_pywrap_tensorflow_data_validation.so: undefined symbol: "
        "_ZTIN5arrow11ArrayBuilderE",
    ],
    ids=["tfx-bsl", "tfdv"],
)
def test_an_extension_missing_an_arrow_symbol_is_pyarrow_outside_its_range(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "dependency-out-of-range" and "pyarrow" in fix_text(top)


def test_pyarrows_own_module_missing_an_arrow_symbol_is_not_a_range() -> None:
    line = (
        "ImportError: /venv/lib/python3.9/site-packages/pyarrow/lib.cpython-39-x86_64-linux-gnu"
        ".so: undefined symbol: _ZN5arrow6Status8ToStringB5cxx11Ev\n"
    )
    assert "dependency-out-of-range" not in _causes(line)


def test_urllib3_2_refusing_an_old_openssl_installs_urllib3_1_26() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.9/site-packages/tensorflow_hub/resolver.py", line 27, '
        "in <module>\n"
        "    import requests\n"
        '  File "/opt/venv/lib/python3.9/site-packages/urllib3/__init__.py", line 42, in '
        "<module>\n"
        '    "urllib3 v2 only supports OpenSSL 1.1.1+, currently "\n'
        "ImportError: urllib3 v2 only supports OpenSSL 1.1.1+, currently the 'ssl' module is "
        "compiled with 'OpenSSL 1.0.2k-fips  26 Jan 2017'. See: "
        "https://github.com/urllib3/urllib3/issues/2168\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    assert 'pip install "urllib3<2"' in fix_text(top)


def test_urllib3_2_warning_of_libressl_is_harmless() -> None:
    text = (
        "/Users/u/venv/lib/python3.9/site-packages/urllib3/__init__.py:35: NotOpenSSLWarning: "
        "urllib3 v2 only supports OpenSSL 1.1.1+, currently the 'ssl' module is compiled with "
        "'LibreSSL 2.8.3'. See: https://github.com/urllib3/urllib3/issues/3020\n"
        "  warnings.warn(\n"
    )
    assert all(x.severity.rank <= Severity.INFO.rank for x in explained(text).findings)
    assert "dependency-out-of-range" not in _causes(text)


def test_urllib3_2_0_refusing_libressl_is_not_called_an_old_openssl() -> None:
    # urllib3 2.0.0 to 2.0.2 raised for LibreSSL too (2.0.3 made it a warning): the same
    # words, and urllib3 1.26 still the fix, but no OpenSSL older than 1.1.1 is in the log.
    text = (
        "ImportError: urllib3 v2.0 only supports OpenSSL 1.1.1+, currently the 'ssl' module is "
        "compiled with LibreSSL 2.8.3. See: https://github.com/urllib3/urllib3/issues/2168\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    assert 'pip install "urllib3<2"' in fix_text(top)
    # Each names LibreSSL beside the old OpenSSL, not the old OpenSSL alone.
    assert "LibreSSL" in top.summary and "LibreSSL" in fix_text(top)


def test_urllib3_2_0_warning_of_libressl_is_harmless_too() -> None:
    # urllib3 2.0.3 to 2.0.7 word the warning "urllib3 v2.0 only supports" (2.1.0: "v2").
    text = (
        "/Users/u/venv/lib/python3.9/site-packages/urllib3/__init__.py:34: NotOpenSSLWarning: "
        "urllib3 v2.0 only supports OpenSSL 1.1.1+, currently the 'ssl' module is compiled with "
        "'LibreSSL 2.8.3'. See: https://github.com/urllib3/urllib3/issues/3020\n"
        "  warnings.warn(\n"
    )
    found = explained(text).findings
    assert all(x.severity.rank <= Severity.INFO.rank for x in found)
    assert any(x.summary.startswith("Harmless: urllib3 2 warns") for x in found)
