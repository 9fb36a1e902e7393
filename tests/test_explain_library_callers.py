"""Whose code asked TensorFlow or Keras for what the installed release lacks, read from what the
log shows of the caller: an installed library's frame (under site-packages, dist-packages, a
conda environment's ``Lib``, an egg), the import a prompt or a ``python -c`` command ran, or the
user's own file. A library's code is that library's release written for another TensorFlow
(companion-mismatch, the library named by its distribution, whose import name may differ); the
user's own code is an API use; a log that shows no caller names no library."""

from __future__ import annotations

import pytest

from tests import factories as f
from tests.explaining import explained, finding_of, fix_text, library_frame_log
from tfdoctor import causes
from tfdoctor.evidence.refusals import TENSORFLOW, UNHASHABLE, read_refusal
from tfdoctor.evidence.traceback import read_tracebacks
from tfdoctor.explain.packages import package_behind, statement_import, statement_library
from tfdoctor.findings import Report, Severity
from tfdoctor.machine import Machine

#: A TensorFlow 1 name TensorFlow 2 lacks at its top level.
_NODE_DEF = "AttributeError: module 'tensorflow' has no attribute 'NodeDef'"
#: A Keras 2 module Keras 2.13 moved under keras.src and Keras 3 dropped.
_TOPOLOGY = "AttributeError: module 'keras.engine' has no attribute 'topology'"


def _named_library(report: Report, library: str) -> bool:
    """Whether a companion-mismatch at warning or above names ``library`` in its fix."""
    return any(
        x.cause == "companion-mismatch"
        and x.severity.rank >= Severity.WARNING.rank
        and library in fix_text(x)
        for x in report.findings
    )


@pytest.mark.parametrize(
    "path",
    [
        "/home/user/.local/lib/python3.8/site-packages/onnx_tf/common/handler_helper.py",
        "/usr/local/lib/python3.8/dist-packages/onnx_tf/common/handler_helper.py",
        r"C:\Users\user\miniconda3\envs\conv\Lib\site-packages\onnx_tf\common\handler_helper.py",
        "/opt/conda/lib/python3.7/site-packages/onnx_tf-1.5.0-py3.7.egg/onnx_tf/backend.py",
    ],
    ids=["user-site", "dist-packages", "windows-conda-lib", "egg"],
)
def test_a_library_frame_asking_for_a_missing_name_names_the_library(path: str) -> None:
    report = explained(library_frame_log(path, "node = tf.NodeDef()", _NODE_DEF))
    companion = finding_of(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.ERROR
    # The import name onnx_tf is the distribution onnx-tf (the module table's mapping).
    assert "onnx-tf" in companion.summary and "onnx-tf" in fix_text(companion)
    assert "onnx_tf" not in companion.summary


def test_the_users_own_frame_asking_for_it_is_an_api_use() -> None:
    report = explained(
        library_frame_log("/home/user/proj/graphs.py", "node = tf.NodeDef()", _NODE_DEF)
    )
    assert report.findings[0].cause == "api-moved-to-compat-v1"
    assert report.findings[0].severity is Severity.ERROR
    assert not _named_library(report, "onnx")


def test_no_frame_names_no_library() -> None:
    report = explained(f"{_NODE_DEF}\n")
    assert report.findings[0].cause == "api-moved-to-compat-v1"
    assert not any("onnx" in fix_text(x) for x in report.findings if x.fix is not None)


@pytest.mark.parametrize(
    "command",
    [
        '$ python3 -c "from onnx_tf.backend import prepare"',
        "user@host:~$ python -c 'import onnx_tf'",
        r'C:\Users\user\proj>python -c "import onnx_tf;"',
    ],
    ids=["posix-from", "posix-import", "windows-prompt"],
)
def test_a_python_c_import_of_a_library_names_it(command: str) -> None:
    text = f"{command}\n{_NODE_DEF}\n"
    (tb,) = read_tracebacks(text)
    assert tb.statement.startswith(("from onnx_tf", "import onnx_tf")) and tb.typed
    report = explained(text)
    companion = finding_of(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.ERROR
    assert "onnx-tf" in companion.summary


def test_a_python_c_program_of_more_than_an_import_is_not_read_as_one() -> None:
    text = f'$ python -c "import onnx_tf; print(onnx_tf.__version__)"\n{_NODE_DEF}\n'
    (tb,) = read_tracebacks(text)
    assert tb.statement == ""
    assert not _named_library(explained(text), "onnx-tf")


def test_a_typed_import_of_a_library_asking_keras_for_a_gone_module_names_it() -> None:
    report = explained(f">>> import lucid\n{_TOPOLOGY}\n")
    companion = finding_of(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.ERROR
    assert "lucid" in fix_text(companion)
    assert "import lucid" in companion.detail


@pytest.mark.parametrize(
    "statement",
    [">>> import model", ">>> import json", '$ python -c "import os"', ">>> import numpy as np"],
    ids=["users-own", "standard-library", "python-c-standard-library", "not-on-tensorflow"],
)
@pytest.mark.parametrize("message", [_TOPOLOGY, _NODE_DEF], ids=["keras", "tensorflow"])
def test_a_typed_import_of_no_library_on_tensorflow_names_no_library(
    statement: str, message: str
) -> None:
    # The user's own module, the standard library's, or a package not built on TensorFlow:
    # its import ran no code that asks TensorFlow or Keras for anything.
    report = explained(f"{statement}\n{message}\n")
    assert finding_of(report, "companion-mismatch") is None


@pytest.mark.parametrize(
    ("message", "owner"),
    [
        (
            "Variable is unhashable if Tensor equality is enabled. Instead, use "
            "tensor.experimental_ref() as the key.",
            "Variable",
        ),
        ("Tensor is unhashable. Instead, use tensor.ref() as the key.", "Tensor"),
        ("Variable is unhashable. Instead, use variable.ref() as the key.", "Variable"),
    ],
    ids=["tf20-variable", "tensor-ref", "variable-ref"],
)
def test_tensorflow_refusing_to_hash_its_objects_is_read(message: str, owner: str) -> None:
    refusal = read_refusal(message)
    assert refusal is not None
    assert (refusal.shape, refusal.owner, refusal.speaker) == (UNHASHABLE, owner, TENSORFLOW)


#: TensorFlow's own frames raising, each with the code a caller's frame runs into them: its
#: Variable's ``__hash__`` (a set of variables) and TensorFlow 1's placeholder under eager
#: execution.
_HASH = (
    "    frozen = set(self._func.variables) - set(self._func.trainable_variables)\n"
    '  File "/home/user/venv/lib/python3.7/site-packages/tensorflow_core/python/ops/'
    'variables.py", line 1086, in __hash__\n'
    '    raise TypeError("Variable is unhashable if Tensor equality is enabled. "\n'
    "TypeError: Variable is unhashable if Tensor equality is enabled. Instead, use "
    "tensor.experimental_ref() as the key.\n"
)
_EAGER = (
    "    self.x = tf.compat.v1.placeholder(tf.float32, [None, 2])\n"
    '  File "/home/user/venv/lib/python3.7/site-packages/tensorflow/python/ops/'
    'array_ops.py", line 3340, in placeholder\n'
    '    raise RuntimeError("tf.placeholder() is not compatible with "\n'
    "RuntimeError: tf.placeholder() is not compatible with eager execution.\n"
)
_SITE = "/home/user/venv/lib/python3.7/site-packages"


def _into_tensorflow(path: str, rest: str) -> str:
    """The user's script calling the frame at ``path``, whose line runs into TensorFlow's
    frames (``rest``: that line, TensorFlow's frame and its exception)."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 9, in <module>\n'
        "    model = build(url)\n"
        f'  File "{path}", line 140, in build\n{rest}'
    )


def test_a_library_hashing_tensorflows_variables_is_its_release() -> None:
    report = explained(_into_tensorflow(f"{_SITE}/tensorflow_hub/keras_layer.py", _HASH))
    companion = finding_of(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.WARNING
    assert "tensorflow-hub" in companion.summary and "tensorflow-hub" in fix_text(companion)
    changed = finding_of(report, "api-default-changed")
    assert changed is not None and changed.severity is Severity.WARNING


def test_the_users_own_code_hashing_them_names_no_library() -> None:
    report = explained(_into_tensorflow("/home/user/proj/layers.py", _HASH))
    assert finding_of(report, "companion-mismatch") is None


@pytest.mark.parametrize(
    ("path", "words"),
    [
        # The library's release, or the TensorFlow before 2.0 it was written for, never an
        # edit of its installed file alone (the edit stays, for the code handing it data).
        (f"{_SITE}/deepxde/maps/fnn.py", ("deepxde's own code", "tensorflow<2.0")),
        ("/home/user/proj/net.py", ("This is TensorFlow 1 graph code",)),
    ],
    ids=["library", "users-own"],
)
def test_tensorflow_1_graph_code_under_eager_is_fitted_to_its_caller(
    path: str, words: tuple[str, ...]
) -> None:
    found = finding_of(explained(_into_tensorflow(path, _EAGER)), "api-moved-to-compat-v1")
    assert found is not None and found.severity is Severity.ERROR
    text = fix_text(found)
    assert all(w in text for w in words) and "disable_eager_execution" in text
    # Only a library's call is told it is not the user's own code.
    assert ("s own code (" in text) == path.startswith(_SITE)


def test_an_unknown_librarys_owner_is_looked_up_by_its_import_name() -> None:
    text = library_frame_log(f"{_SITE}/graph_kit_x/nodes.py", "node = tf.NodeDef()", _NODE_DEF)
    companion = finding_of(explained(text), "companion-mismatch")
    assert companion is not None and companion.fix is not None
    # pip's name for the import package graph_kit_x is graph-kit-x; its files lie in
    # graph_kit_x/, the folder the owner's look-up must match.
    owner = [c for c in companion.fix.commands if "b'graph_kit_x/'" in c]
    assert "`graph_kit_x`" in companion.fix.text and owner


def test_an_unknown_librarys_owner_is_found_whatever_the_case_of_its_folder() -> None:
    # pip's name for the import package GraphKit is graphkit: the owner's look-up must match
    # the distribution whose files lie in GraphKit/ (tests/test_owner_command.py runs it).
    text = library_frame_log(f"{_SITE}/GraphKit/nodes.py", "node = tf.NodeDef()", _NODE_DEF)
    companion = finding_of(explained(text), "companion-mismatch")
    assert companion is not None and companion.fix is not None
    assert causes.common.owner_of_package_command("graphkit", folded=True) in (
        companion.fix.commands
    )


def test_a_library_under_eager_with_tensorflow_1_shown_is_not_told_tensorflow_1() -> None:
    # TensorFlow 1.15 runs eagerly only where the program enabled it: the installed release
    # predates 2.0, so keeping a TensorFlow before 2.0 changes nothing.
    shown = "Name: tensorflow\nVersion: 1.15.0\n"
    log = shown + _into_tensorflow(f"{_SITE}/deepxde/maps/fnn.py", _EAGER)
    found = finding_of(explained(log), "api-moved-to-compat-v1")
    assert found is not None and found.fix is not None
    text = fix_text(found)
    assert "deepxde's own code" in text and "tensorflow<2.0" not in text


@pytest.mark.parametrize(
    ("shown", "words", "absent"),
    [
        (
            "Name: tensorflow\nVersion: 1.15.0\n",
            ("TensorFlow 1.15.0 builds graphs", "enable_eager_execution()"),
            ("TensorFlow 2", "tensorflow==1.15"),
        ),
        ("Name: tensorflow\nVersion: 2.1.0\n", ("TensorFlow 2 runs eagerly",), ()),
        ("", ("TensorFlow 2 runs eagerly",), ()),
    ],
    ids=["tensorflow-1-shown", "tensorflow-2-shown", "none-shown"],
)
def test_graph_code_under_eager_is_worded_by_the_tensorflow_shown(
    shown: str, words: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    # TensorFlow 1.x builds graphs unless the program turns eager execution on: its summary
    # and fix speak of that, not of TensorFlow 2's default.
    log = shown + _into_tensorflow("/home/user/proj/net.py", _EAGER)
    found = finding_of(explained(log), "api-moved-to-compat-v1")
    assert found is not None and found.severity is Severity.ERROR
    text = fix_text(found)
    assert "TensorFlow 2" not in found.summary
    assert all(w in text for w in words) and not any(w in text for w in absent)


@pytest.mark.parametrize(
    ("statement", "imported", "behind", "library"),
    [
        ("from onnx_tf.backend import prepare", ("onnx_tf", "onnx-tf"), "onnx-tf", "onnx_tf"),
        # A package not built on TensorFlow raised it, but its import ran no TensorFlow code.
        ("import numpy as np", ("numpy", "numpy"), "numpy", None),
        # Keras' own import: the package behind it, never a library asking Keras.
        ("import keras", ("keras", "keras"), "keras", None),
        ("import tensorflow as tf", None, None, None),
        ("import model", None, None, None),
    ],
    ids=["library-on-tensorflow", "not-on-tensorflow", "keras-itself", "tensorflow", "unknown"],
)
def test_the_statement_above_a_message_is_read_once_for_both_its_readers(
    statement: str,
    imported: tuple[str, str] | None,
    behind: str | None,
    library: str | None,
) -> None:
    (tb,) = read_tracebacks(f">>> {statement}\n{_NODE_DEF}\n")
    assert tb.statement == statement and not tb.frames
    assert statement_import(tb) == imported
    assert package_behind(tb)[0] == behind
    assert statement_library(tb, Machine(f.facts(), f.FIXTURE_MATRIX)) == library


def _asks_internal_layers(site: str) -> str:
    """keras_nlp's import asking for tf.keras.__internal__.layers, which only TensorFlow 2.9
    to 2.15 have, from a site-packages at ``site``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/app/train.py", line 3, in <module>\n'
        "    import keras_nlp\n"
        f'  File "{site}/keras_nlp/layers/__init__.py", line 20, in <module>\n'
        "    from tensorflow.keras.__internal__.layers import BaseRandomLayer\n"
        "ModuleNotFoundError: No module named 'tensorflow.keras.__internal__.layers'\n"
    )


@pytest.mark.parametrize(
    ("site", "upgraded", "newer"),
    [
        # Python 3.7's lines without the name (2.8 and older) are all older than 2.9: the
        # package is newer than TensorFlow, and its upgrade moves it further off.
        pytest.param("/opt/venv/lib/python3.7/site-packages", False, True, id="older"),
        # Python 3.12's lines (2.16 on) are all newer than 2.15: the package is older.
        pytest.param("/opt/venv/lib/python3.12/site-packages", True, False, id="newer"),
        # No Python shown: TensorFlow may lie on either side, so no upgrade runs blind.
        pytest.param("/opt/venv/site-packages", False, False, id="either"),
    ],
)
def test_a_library_is_upgraded_only_where_tensorflow_is_newer_than_the_name(
    site: str, upgraded: bool, newer: bool
) -> None:
    found = finding_of(explained(_asks_internal_layers(site)), "companion-mismatch")
    assert found is not None and found.fix is not None
    commands = found.fix.commands
    assert any("--upgrade keras-nlp" in c for c in commands) is upgraded, commands
    said = "is newer than the installed TensorFlow" in found.fix.text
    assert said is newer and ("2.9 to 2.15" in found.fix.text), found.fix.text
