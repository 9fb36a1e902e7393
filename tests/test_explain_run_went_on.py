"""Observed beats inferred, within a log (issue 21): a notice that predicts a failure of a
package's version (a companion's version warning, pip's list of conflicts) is a note where the
log shows the run doing its work afterwards (an epoch to its end, a model saved, tests passed),
and keeps its weight where the log shows a failure or a crash, or nothing done. Beside them:
pip's notice of a TensorFlow-family package's range when nothing failed, and an exception
raised wholly outside TensorFlow."""

from __future__ import annotations

import pytest

from tests.explaining import SIGNATURES, explained
from tfdoctor.findings import Report, Severity
from tfdoctor.signatures import PROCESS_ENDED

#: tensorflow-addons' check as it imports (tensorflow_addons/utils/ensure_tf_install.py,
#: ``_check_tf_version``: a UserWarning, and the import goes on).
_ADDONS = (
    "/opt/venv/lib/python3.9/site-packages/tensorflow_addons/utils/ensure_tf_install.py:53: "
    "UserWarning: Tensorflow Addons supports using Python ops for all Tensorflow versions above "
    "or equal to 2.5.0 and strictly below 2.8.0 (nightly versions are not supported). \n"
    " The versions of TensorFlow you are currently using is 2.9.1 and is not supported. \n"
    "Some things might work, some things might not.\n"
    "If you were to encounter a bug, do not file an issue.\n"
    "  warnings.warn(\n"
)
#: pip 20.3 and later, after an install (commands/install.py ``_warn_about_conflicts``).
_PIP = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.\n"
    "tensorflow 2.5.0 requires numpy~=1.19.2, but you have numpy 1.22.4 which is "
    "incompatible.\n"
)
_EPOCHS = (
    "Epoch 1/2\n"
    "938/938 [==============================] - 6s 6ms/step - loss: 0.3012 - accuracy: 0.9120\n"
    "Epoch 2/2\n"
    "938/938 [==============================] - 5s 6ms/step - loss: 0.1433 - accuracy: 0.9571\n"
)
_SAVED = "INFO:tensorflow:Assets written to: out/model/assets\n"
_PASSED = "==================== 21 passed, 4 warnings in 12.30s ====================\n"
_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 40, in <module>\n'
    "    model.fit(x, y, epochs=3)\n"
    '  File "/opt/venv/lib/python3.9/site-packages/tensorflow_addons/layers/crf.py", line 9, '
    "in call\n"
    "    return self._kernel(x)\n"
    "tensorflow.python.framework.errors_impl.NotFoundError: undefined symbol: "
    "_ZN10tensorflow8OpKernel11TraceStringEv\n"
)
_CRASH = (
    "2022-07-01 10:00:02.101010: F tensorflow/core/framework/tensor_shape.cc:45] Check failed: "
    "NDIMS == dims() (2 vs. 3)\nAborted (core dumped)\n"
)


def _weights(report: Report) -> dict[str, Severity]:
    return {x.cause or x.id: x.severity for x in report.findings}


@pytest.mark.parametrize(
    ("notice", "cause"),
    [(_ADDONS, "companion-mismatch"), (_PIP, "dependency-out-of-range")],
    ids=["addons", "pip"],
)
@pytest.mark.parametrize("work", [_EPOCHS, _SAVED, _PASSED], ids=["epochs", "saved", "tests"])
def test_a_notice_before_the_work_done_is_a_note(notice: str, cause: str, work: str) -> None:
    report = explained(notice + work)
    weights = _weights(report)
    assert weights[cause] is Severity.INFO, weights
    assert report.worst().rank <= Severity.INFO.rank
    [note] = [x for x in report.findings if x.cause == cause]
    assert note.summary.startswith("The run went on:"), note.summary


@pytest.mark.parametrize(
    ("notice", "cause"),
    [(_ADDONS, "companion-mismatch"), (_PIP, "dependency-out-of-range")],
    ids=["addons", "pip"],
)
@pytest.mark.parametrize(
    "after",
    [
        pytest.param("", id="nothing-done"),
        pytest.param(_EPOCHS + _TRACEBACK, id="then-a-traceback"),
        pytest.param(_EPOCHS + _CRASH, id="then-a-crash"),
        pytest.param(
            "Epoch 1/2\n  17/938 [>.............................] - ETA: 40s - loss: 2.2\n",
            id="a-step-short-of-the-epoch",
        ),
    ],
)
def test_a_notice_keeps_its_weight_without_the_work_done(
    notice: str, cause: str, after: str
) -> None:
    report = explained(notice + after)
    assert report.worst().rank >= Severity.WARNING.rank, _weights(report)
    if after != _EPOCHS + _CRASH:
        assert _weights(report)[cause].rank >= Severity.WARNING.rank, _weights(report)


#: NumPy 2's refusal of an extension built for NumPy 1 (numpy/core/_multiarray_umath.py,
#: ``_raise_warning``), as a module imported at save time prints it.
_NUMPY_REFUSED = (
    "A module that was compiled using NumPy 1.x cannot be run in\n"
    "NumPy 2.0.1 as it may crash. To support both 1.x and 2.x\n"
    "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
)


@pytest.mark.parametrize(
    ("notice", "cause"),
    [
        (_ADDONS, "companion-mismatch"),
        (_PIP, "dependency-out-of-range"),
        (_NUMPY_REFUSED, "numpy-abi"),
    ],
    ids=["addons", "pip", "signature"],
)
def test_the_work_done_refutes_only_what_came_before_it(notice: str, cause: str) -> None:
    # The epochs trained before the notice was printed (at save time, or a later
    # evaluation): they say nothing of it. Before the epochs, they do.
    assert _weights(explained(notice + _EPOCHS))[cause] is Severity.INFO
    assert _weights(explained(_EPOCHS + notice))[cause].rank >= Severity.WARNING.rank


def test_the_work_done_does_not_refute_the_gpu() -> None:
    # A run does its work on the CPU all the same: the GPU's causes are not refuted by it
    # (their weight is the device readings' to decide, not this note's).
    loaded = (
        "2022-07-01 10:00:00.1: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
        "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open "
        "shared object file: No such file or directory\n"
    )
    without = _weights(explained(loaded))
    assert _weights(explained(loaded + _EPOCHS)) == without


# --- pip's notice of a TensorFlow-family package's range -----------------------------------

_FAMILY_NOTICE = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.\n"
    "tensorflow-datasets 4.6.0 requires protobuf>=3.12.2, but you have protobuf 3.11.0 which "
    "is incompatible.\n"
    "tensorflow-probability 0.17.0 requires gast>=0.3.2, but you have gast 0.2.2 which is "
    "incompatible.\n"
    "Successfully installed gast-0.2.2\n"
)


def test_pip_notice_of_a_family_package_alone_is_a_note() -> None:
    weights = _weights(explained(_FAMILY_NOTICE))
    assert weights["dependency-out-of-range"] is Severity.INFO, weights


def test_pip_20_2_saying_what_it_will_install_keeps_its_warning() -> None:
    # The legacy resolver checks the set it is about to install ("you'll have"): the package
    # is one the install makes.
    legacy = (
        "ERROR: tensorflow-probability 0.11.0 has requirement gast>=0.3.2, but you'll have "
        "gast 0.2.2 which is incompatible.\n"
    )
    weights = _weights(explained(legacy))
    assert weights["dependency-out-of-range"] is Severity.WARNING, weights


def test_pip_notice_of_a_family_package_beside_its_failure_keeps_its_warning() -> None:
    failed = _FAMILY_NOTICE + (
        "Traceback (most recent call last):\n"
        '  File "run.py", line 3, in <module>\n'
        "    import tensorflow_probability as tfp\n"
        '  File "/usr/lib/python3/site-packages/tensorflow_probability/__init__.py", line 75, '
        "in <module>\n"
        "    from tensorflow_probability.python import *\n"
        "AttributeError: module 'gast' has no attribute 'Constant'\n"
    )
    weights = _weights(explained(failed))
    assert weights["dependency-out-of-range"].rank >= Severity.WARNING.rank, weights


#: A run that failed in a package outside the pair pip named (pandas' own KeyError).
_PANDAS_RAISED = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/project/prepare.py", line 12, in <module>\n'
    '    labels = frame["label"]\n'
    '  File "/usr/local/lib/python3.9/site-packages/pandas/core/frame.py", line 3761, in '
    "__getitem__\n"
    "    indexer = self.columns.get_loc(key)\n"
    "KeyError: 'label'\n"
)


@pytest.mark.parametrize(
    ("failure", "weight"),
    [
        pytest.param(_PANDAS_RAISED, Severity.INFO, id="through-neither"),
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "run.py", line 2, in <module>\n'
            "    import gast\n"
            "ModuleNotFoundError: No module named 'gast'\n",
            Severity.WARNING,
            id="naming-the-dependency",
        ),
    ],
)
def test_pip_notice_of_a_family_package_the_run_never_imports_is_a_note(
    failure: str, weight: Severity
) -> None:
    # The run failed elsewhere: tensorflow-probability and gast are never imported, so pip's
    # notice of them did not matter to it.
    [found] = [
        x
        for x in explained(_FAMILY_NOTICE + failure).findings
        if x.cause == "dependency-out-of-range" and "gast" in x.summary
    ]
    assert found.severity is weight, found


@pytest.mark.parametrize(
    "ended",
    [
        "Segmentation fault (core dumped)\n",
        "Floating point exception\n",
        "Process finished with exit code -1073741819 (0xC0000005)\n",
        "zsh: killed     python run.py\n",
    ],
)
def test_pip_notice_of_a_family_package_before_a_crash_keeps_its_warning(ended: str) -> None:
    # A process that ended without a traceback failed all the same: the note's "nothing in
    # the log failed" would be false.
    weights = _weights(explained(_FAMILY_NOTICE + "$ python run.py\n" + ended))
    assert weights["dependency-out-of-range"].rank >= Severity.WARNING.rank, weights


# --- an exception raised outside TensorFlow -------------------------------------------------

_TORCH_RAISED = (
    "2023-04-03 20:08:56.469128: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] "
    "TF-TRT Warning: Could not find TensorRT\n"
    "Traceback (most recent call last):\n"
    '  File "/work/project/train.py", line 88, in <module>\n'
    "    loss = criterion(out, target)\n"
    '  File "/usr/local/lib/python3.9/dist-packages/torch/nn/modules/module.py", line 1501, in '
    "_call_impl\n"
    "    return forward_call(*args, **kwargs)\n"
    '  File "/usr/local/lib/python3.9/dist-packages/torch/nn/modules/loss.py", line 536, in '
    "forward\n"
    "    return F.mse_loss(input, target, reduction=self.reduction)\n"
    "RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
    "dimension 1\n"
)


def test_an_exception_raised_wholly_outside_tensorflow_is_a_note() -> None:
    report = explained(_TORCH_RAISED)
    [found] = [x for x in report.findings if x.id == "explain.unexplained-exception"]
    assert found.severity is Severity.INFO
    assert "torch" in found.summary and "outside TensorFlow" in found.summary
    assert report.worst().rank <= Severity.INFO.rank


@pytest.mark.parametrize(
    "change",
    [
        # A frame of the user's that calls TensorFlow, or TensorFlow's word in the message.
        ("    loss = criterion(out, target)\n", "    loss = tf.reduce_mean(criterion(out))\n"),
        ("non-singleton dimension 1", "non-singleton dimension 1 (tensorflow tensor)"),
        # A library's TensorFlow code, named as such in its file name.
        ("torch/nn/modules/loss.py", "transformers/modeling_tf_utils.py"),
    ],
    ids=["tf-in-code", "tf-in-message", "library-tf-module"],
)
def test_an_exception_touching_tensorflow_stays_unknown(change: tuple[str, str]) -> None:
    report = explained(_TORCH_RAISED.replace(*change))
    [found] = [x for x in report.findings if x.id == "explain.unexplained-exception"]
    assert found.severity is Severity.UNKNOWN


# --- TensorFlow printing its version: the import ran ----------------------------------------

_PROTOBUF_NOTICE = (
    "tensorflow 2.10.0 requires protobuf<3.20,>=3.9.2, but you have protobuf 4.21.12 which is "
    "incompatible.\n"
)
_ECHO = ">>> import tensorflow as tf\n>>> tf.__version__\n'2.10.0'\n"


def test_a_version_printed_refutes_what_says_the_import_fails() -> None:
    assert _weights(explained(_PROTOBUF_NOTICE))["protobuf-incompatible"] is Severity.ERROR
    [note] = explained(_PROTOBUF_NOTICE + _ECHO).findings
    assert note.severity is Severity.INFO
    assert note.summary.startswith("TensorFlow 2.10.0 imported"), note.summary


def test_a_version_printed_beside_a_failure_refutes_nothing() -> None:
    failed = (
        _PROTOBUF_NOTICE
        + _ECHO
        + (
            "Traceback (most recent call last):\n"
            '  File "app.py", line 2, in <module>\n'
            "    import tensorflow as tf\n"
            "TypeError: Descriptors cannot be created directly.\n"
        )
    )
    assert _weights(explained(failed))["protobuf-incompatible"] is Severity.ERROR


def test_a_version_printed_refutes_no_version_notice() -> None:
    # The import ran; a companion of another release may still break where it is used.
    assert (
        _weights(explained(_ADDONS + _ECHO.replace("2.10.0", "2.9.1")))["companion-mismatch"].rank
        >= Severity.WARNING.rank
    )


# --- a process that ended without a traceback, in the words of what ran it ----------------

#: The lines of the shells, IDEs, container runtimes and emulators that report a process's end
#: by a signal or an access violation (the signatures tagged ``process-ended``), each after an
#: epoch done or beside a pytest summary pasted from another run.
_ENDED = [
    "Illegal instruction\n",
    "zsh: illegal hardware instruction  python train.py\n",
    "Illegal instruction: 4\n",
    "Process finished with exit code -1073741819 (0xC0000005)\n",
    "Process finished with exit code -1073741795 (0xC000001D)\n",
    "./train.sh: line 3: 41213 Killed                  python train.py\n",
    "zsh: killed     python train.py\n",
    "Process finished with exit code 137 (interrupted by signal 9: SIGKILL)\n",
    "*** stack smashing detected ***: terminated\n",
]


@pytest.mark.parametrize("ended", _ENDED)
@pytest.mark.parametrize("work", [_EPOCHS, _PASSED], ids=["epochs", "tests"])
def test_a_process_ended_by_a_signal_is_not_a_run_that_went_on(work: str, ended: str) -> None:
    report = explained(_ADDONS + work + ended)
    weights = _weights(report)
    assert weights["companion-mismatch"].rank >= Severity.WARNING.rank, weights
    assert report.worst().rank >= Severity.ERROR.rank, weights
    assert not any(x.summary.startswith("The run went on:") for x in report.findings), weights


def test_every_line_of_a_process_ended_is_tagged() -> None:
    # The tag is the one home of "this line reports the process's end": each example of a
    # tagged signature, after an epoch done, keeps the notice's weight.
    tagged = [s for s in SIGNATURES.signatures if PROCESS_ENDED in s.tags]
    assert len(tagged) >= 10
    for sig in tagged:
        for example in sig.examples:
            report = explained(_ADDONS + _EPOCHS + example + "\n")
            weights = _weights(report)
            assert weights["companion-mismatch"].rank >= Severity.WARNING.rank, (sig.id, weights)


def test_a_version_printed_then_a_process_ended_keeps_the_crash() -> None:
    # TensorFlow's version printed in one run, then a run that died on an instruction: the
    # import that ran does not make the death a note.
    weights = _weights(explained(_ECHO + "$ python train.py\nIllegal instruction\n"))
    assert weights["cpu-lacks-avx"] is Severity.ERROR, weights


# --- a test runner's passes do not show TensorFlow imported --------------------------------

#: NumPy 2's warning as an extension built for NumPy 1 is imported (numpy/core/_multiarray_umath
#: .py), then pytest skipping the test module that imports TensorFlow (importorskip) and
#: passing the rest.
_NUMPY_ABI = (
    "A module that was compiled using NumPy 1.x cannot be run in\n"
    "NumPy 2.0.0 as it may crash. To support both 1.x and 2.x\n"
    "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
)
_SKIPPED_TF = (
    "SKIPPED [1] tests/test_model.py:3: could not import 'tensorflow': numpy.core.multiarray "
    "failed to import\n"
    "==================== 1 passed, 1 skipped in 0.52s ====================\n"
)


@pytest.mark.parametrize(
    "runner",
    [_SKIPPED_TF, "Ran 1 test in 0.001s\n\nOK (skipped=1)\n"],
    ids=["pytest", "unittest"],
)
def test_tests_passed_do_not_refute_what_says_the_import_fails(runner: str) -> None:
    # The tests that passed may never have imported TensorFlow: the import's causes keep
    # their weight (a companion's notice is still a note: the run went on).
    weights = _weights(explained(_NUMPY_ABI + runner))
    assert weights["numpy-abi"].rank >= Severity.WARNING.rank, weights


def test_an_epoch_done_refutes_what_says_the_import_fails() -> None:
    # Keras' own bar at its target: TensorFlow imported and ran.
    weights = _weights(explained(_NUMPY_ABI + _EPOCHS))
    assert weights["numpy-abi"] is Severity.INFO, weights
