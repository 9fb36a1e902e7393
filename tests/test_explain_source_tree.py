"""explain reads a program run inside a TensorFlow source tree that misses one of the modules
TensorFlow's build generates (a ``_pb2`` module) as the tree's ``tensorflow/`` folder imported
instead of the installed package. Every log is written for the test, a variant of the family."""

from __future__ import annotations

import pytest

from tests import factories as f
from tfdoctor.evidence.traceback import python_scripts
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text
from tfdoctor.findings import Finding, Report
from tfdoctor.signatures import load_signatures

SIGNATURES = load_signatures()
_SUMMARY = "found a TensorFlow source tree"


def _explain(text: str) -> Report:
    return explain([split_text(text)], SIGNATURES, f.FIXTURE_MATRIX)


def _source_tree(report: Report) -> list[Finding]:
    return [x for x in report.findings if _SUMMARY in x.summary]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "$ python tensorflow/examples/tutorials/word2vec/word2vec_basic.py\n"
            "ImportError: No module named core.example.example_pb2\n",
            id="python2-bare-words-command",
        ),
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "/home/me/src/tensorflow/tensorflow/python/__init__.py", line 40, in <module>\n'
            "    from tensorflow.core.example import example_pb2\n"
            "ModuleNotFoundError: No module named 'tensorflow.core.example.example_pb2'\n",
            id="python3-frame-in-checkout",
        ),
        pytest.param(
            "C:\\src\\tf>python tensorflow\\examples\\tutorials\\mnist\\mnist_softmax.py\n"
            "ModuleNotFoundError: No module named 'tensorflow.core.protobuf.config_pb2'\n",
            id="windows-command",
        ),
    ],
)
def test_a_generated_module_missing_in_a_source_tree_is_the_tree_imported(text: str) -> None:
    found = _source_tree(_explain(text))
    assert len(found) == 1
    assert found[0].cause == "tf-shadowed-module" and found[0].severity.value == "error"
    fix = found[0].fix
    assert fix is not None
    words = "\n".join((fix.text, *fix.commands))
    assert "source tree" in words and "protobuf" not in words


def test_the_fix_runs_in_the_windows_shell_the_log_shows() -> None:
    # cmd reads no ``~`` and passes single quotes to Python as part of the code.
    text = (
        "C:\\src\\tf>python tensorflow\\examples\\tutorials\\mnist\\mnist_softmax.py\n"
        "ModuleNotFoundError: No module named 'tensorflow.core.protobuf.config_pb2'\n"
    )
    fix = _source_tree(_explain(text))[0].fix
    assert fix is not None
    assert fix.commands[0] == 'cd /d "%USERPROFILE%"'
    assert fix.commands[1].endswith('-c "import tensorflow as tf; print(tf.__file__)"')


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "ModuleNotFoundError: No module named 'tensorflow.core.example.example_pb2'\n",
            id="no-tree-shown",
        ),
        pytest.param(
            "$ python tensorflow/train.py\n"
            "Traceback (most recent call last):\n"
            '  File "tensorflow/train.py", line 1, in <module>\n'
            "    import tensorflow as tf\n"
            '  File "/opt/env/lib/python3.9/site-packages/tensorflow/__init__.py", line 3, in '
            "<module>\n"
            "    from tensorflow.core.example import example_pb2\n"
            "ModuleNotFoundError: No module named 'tensorflow.core.example.example_pb2'\n",
            id="installed-tensorflow-in-frames",
        ),
        pytest.param(
            "$ python tensorflow/models/research/object_detection/model_main.py\n"
            "ImportError: No module named protos.anchor_generator_pb2\n",
            id="a-projects-protos",
        ),
        pytest.param(
            "$ python tensorflow/train.py\nImportError: No module named google.protobuf.text_pb2\n",
            id="another-distributions-module",
        ),
        pytest.param(
            "$ python tensorflow/serving/client.py\n"
            "ImportError: No module named apis.predict_pb2\n",
            id="a-users-folder-named-tensorflow-python2",
        ),
        pytest.param(
            "$ python tensorflow/train.py\n"
            "Traceback (most recent call last):\n"
            '  File "/home/me/tensorflow/train.py", line 2, in <module>\n'
            "    from tensorflow.core.protobuf import tpu_pb2\n"
            "ModuleNotFoundError: No module named 'tensorflow.core.protobuf.tpu_pb2'\n",
            id="a-users-folder-named-tensorflow-python3",
        ),
    ],
)
def test_no_source_tree_is_read_without_both_signs(text: str) -> None:
    assert _source_tree(_explain(text)) == []


def test_the_programs_shell_lines_run_are_read_as_typed() -> None:
    text = (
        "$ python3 -m pip install tensorflow\n"
        "$ python tensorflow/models/image/mnist/convolutional.py --fake\n"
        "(tf) C:\\src>python3.11 tools\\x.py\n"
    )
    assert python_scripts(text) == [
        "tensorflow/models/image/mnist/convolutional.py",
        "tools\\x.py",
    ]
