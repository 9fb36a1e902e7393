"""The lines that show a run doing its work (tfdoctor.evidence.progress): Keras' bar at its
target in both generations' drawing, an Estimator's last loss, a SavedModel written, tests
that passed; and the crashes after which that work says nothing."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.progress import crash_shown, read_went_on

_KERAS2_DONE = (
    "1875/1875 [==============================] - 4s 2ms/step - loss: 0.2937 - accuracy: 0.9155"
)
_KERAS3_DONE = (
    "469/469 \u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501"
    "\u2501\u2501\u2501\u2501\u2501\u2501\u2501 3s 5ms/step - accuracy: 0.8710 - loss: 0.4421"
)


@pytest.mark.parametrize(
    ("text", "what"),
    [
        pytest.param("Epoch 1/3\n" + _KERAS2_DONE + "\n", "Keras ran an epoch", id="keras2"),
        pytest.param("Epoch 1/3\n" + _KERAS3_DONE + "\n", "Keras ran an epoch", id="keras3"),
        # The count is right-aligned to the target's width.
        pytest.param(
            "  9/9 [==============================] - 0s 1ms/step\n",
            "Keras ran an epoch",
            id="padded-predict",
        ),
        # A notebook's bar rewritten in place: the carriage returns keep one line.
        pytest.param(
            "  1/313 [..............................] - ETA: 1:02\r313/313 "
            "[==============================] - 1s 2ms/step - loss: 0.07\n",
            "Keras ran an epoch",
            id="carriage-returns",
        ),
        pytest.param(
            "INFO:tensorflow:Loss for final step: 0.28131697.\n",
            "Estimator's training loop ended",
            id="estimator",
        ),
        pytest.param(
            "INFO:tensorflow:Assets written to: /tmp/model/assets\n",
            "SavedModel was written",
            id="assets",
        ),
        pytest.param(
            "I0412 10:01:02.123 140 builder_impl.py:779] SavedModel written to: "
            "export/1/saved_model.pb\n",
            "SavedModel was written",
            id="builder",
        ),
        pytest.param(
            "======================== 14 passed, 2 warnings in 6.02s ========================\n",
            "pytest's tests passed",
            id="pytest",
        ),
        pytest.param(
            "=================== 3 skipped, 9 passed in 1.10s ===================\n",
            "pytest's tests passed",
            id="pytest-skipped-first",
        ),
        pytest.param(
            "....\n----------------------------------------------------------------------\n"
            "Ran 4 tests in 0.031s\n\nOK\n",
            "unittest's tests passed",
            id="unittest",
        ),
    ],
)
def test_the_work_done_is_read(text: str, what: str) -> None:
    found = read_went_on("Using TensorFlow backend.\n" + text)
    assert found is not None and what in found.what
    assert found.index >= 1 and found.line


@pytest.mark.parametrize(
    "text",
    [
        # A bar short of its target is a step, not an epoch; "11/1" is no "1/1".
        pytest.param("  32/1875 [>.............................] - ETA: 5s - loss: 2.2", id="step"),
        pytest.param("11/1 [==============================] - 0s", id="digits-before"),
        pytest.param("Epoch 1/10\n", id="epoch-header-alone"),
        pytest.param("============ 1 failed, 5 passed in 2.51s ============\n", id="pytest-failed"),
        pytest.param("========= 5 passed, 1 error in 2.51s =========\n", id="pytest-error"),
        pytest.param("Ran 4 tests in 0.031s\n\nFAILED (failures=1)\n", id="unittest-failed"),
        pytest.param("Ran 0 tests in 0.000s\n\nOK\n", id="unittest-none-ran"),
    ],
)
def test_what_is_no_work_done_is_not(text: str) -> None:
    assert read_went_on(text) is None


def test_the_first_of_several_is_kept() -> None:
    text = "INFO:tensorflow:Assets written to: m/assets\n" + _KERAS2_DONE + "\n"
    found: Optional[object] = read_went_on(text)
    assert found is not None and getattr(found, "index", None) == 0


@pytest.mark.parametrize(
    ("text", "crashed"),
    [
        (
            "2023-05-01 10:00:00.123456: F tensorflow/core/framework/tensor_shape.cc:45] "
            "Check failed: NDIMS == dims() (2 vs. 3)\n",
            True,
        ),
        ("F0501 10:00:00.123456  1234 logging.cc:42] Check failed: ok\n", True),
        ("Segmentation fault (core dumped)\n", True),
        ("Aborted\n", True),
        ("Killed\n", True),
        ("Fatal Python error: Segmentation fault\n", True),
        (
            "2023-05-01 10:00:00.123456: I tensorflow/core/platform/cpu_feature_guard.cc:182] "
            "This TensorFlow binary is optimized to use available CPU instructions\n",
            False,
        ),
        # PyCharm's end of a process a signal ended (its own words for 132 and 137 are the
        # signatures'), glibc's word for SIGFPE, libstdc++'s terminate handler (an abort
        # follows), Jupyter's and VS Code's words for a kernel that died.
        ("Process finished with exit code 139 (interrupted by signal 11: SIGSEGV)\n", True),
        ("Process finished with exit code 134 (interrupted by signal 6: SIGABRT)\n", True),
        ("Floating point exception (core dumped)\n", True),
        ("Floating point exception\n", True),
        (
            "terminate called after throwing an instance of 'std::bad_alloc'\n"
            "  what():  std::bad_alloc\n",
            True,
        ),
        ("The kernel appears to have died. It will restart automatically.\n", True),
        (
            "The Kernel crashed while executing code in the current cell or a previous cell.\n",
            True,
        ),
        ("Process finished with exit code 130 (interrupted by signal 2: SIGINT)\n", False),
        ("Killed two birds\n", False),
        ("the job was not killed\n", False),
    ],
)
def test_a_crash_is_seen(text: str, crashed: bool) -> None:
    assert crash_shown(text) is crashed


def test_a_crash_after_many_lines_holding_its_words_is_seen() -> None:
    # The bound on the lines a family's pattern is tried on may lose a run's work done (a
    # safe loss), never a crash: the lines holding a crash word are all tried.
    text = "register F0A1 = 0\n" * 2500 + "F0501 10:00:00.123456  1234 x.cc:42] bad state\n"
    assert crash_shown(text)


@pytest.mark.parametrize(
    "line",
    [
        "2023-01-05 10:00:01.123456: F tensorflow/core/kernels/conv_ops.cc:1116] shape mismatch",
        "F0105 10:00:01.123456  4242 cuda_executor.cc:207] could not create stream",
        "[worker0] F0105 10:00:01.123456  4242 cuda_executor.cc:207] could not create stream",
        # A log pasted indented (a code block of an issue, a notebook's output), as the
        # pattern before the one home read it.
        "    F0105 10:00:01.123456  4242 cuda_executor.cc:207] could not create stream",
    ],
    ids=["tf-stamp", "absl-stamp", "launcher-tag", "indented"],
)
def test_a_fatal_line_in_either_of_tensorflows_stamps_is_a_crash(line: str) -> None:
    # The stamps are tflog's (one home for TensorFlow's prefixes): a fatal line aborts.
    assert crash_shown("Epoch 1/2\n" + line + "\n")
    assert not crash_shown("Epoch 1/2\n" + line.replace(": F ", ": W ").replace("F0105", "W0105"))
