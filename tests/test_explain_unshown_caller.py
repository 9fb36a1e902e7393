"""A TensorFlow or Keras name the installed release lacks, where the log keeps the last line of
the traceback alone: Python's message names the module asked, not the code that asked, so an
installed library's release written for another TensorFlow is the other candidate, after the
reading of the name as the code's own use. Where frames are shown they decide, and no second
candidate is added."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text
from tfdoctor import causes
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.machine import Machine


def _named(report: Report, cause: str) -> Optional[Finding]:
    return next((x for x in report.findings if x.cause == cause), None)


def _ids(report: Report) -> list[str]:
    return [x.id for x in report.findings]


def test_a_name_a_later_release_brought_has_the_library_as_the_other_candidate() -> None:
    report = explained("AttributeError: module 'tensorflow' has no attribute 'TensorSpec'\n")
    api = _named(report, "tf-too-old-for-code")
    other = _named(report, "companion-mismatch")
    assert api is not None and api.severity is Severity.ERROR
    assert other is not None and other.severity is Severity.WARNING
    # The code's own use first, the library second.
    assert _ids(report).index(api.id) < _ids(report).index(other.id)
    assert other.summary.startswith("Or: ") and "`tf.TensorSpec`" in other.summary
    assert other.fix is not None and api.fix is not None
    # The TensorFlow that has the name, as the name's reading found it, pairs with the library.
    pairing = [c for c in api.fix.commands if "tensorflow==" in c]
    assert pairing and all(c in other.fix.commands for c in pairing)
    assert "site-packages" in fix_text(other)


def test_tensorflow_1_api_pairs_the_library_with_the_last_1x_line() -> None:
    report = explained("AttributeError: module 'tensorflow' has no attribute 'placeholder'\n")
    other = _named(report, "companion-mismatch")
    assert other is not None and other.fix is not None
    assert "TensorFlow 1.15, the last 1.x line" in other.fix.text
    assert any("tensorflow==1.15" in c for c in other.fix.commands)


def test_a_tensorflow_1_module_gone_has_the_library_candidate_too() -> None:
    report = explained("ModuleNotFoundError: No module named 'tensorflow.contrib'\n")
    assert _named(report, "tf-contrib-removed") is not None
    other = _named(report, "companion-mismatch")
    assert other is not None and other.severity is Severity.WARNING


def test_no_tensorflow_1_install_for_a_python_its_last_line_lacks() -> None:
    machine = Machine(f.facts(python=f.python(version="3.11.7")), f.FIXTURE_MATRIX)
    fix = causes.software.unshown_caller_fix(machine, "tf.placeholder", tf1=True)
    assert "no wheel for Python 3.11.7" in fix.text
    assert not any("1.15" in c for c in fix.commands)


def test_the_users_own_frame_decides_no_second_candidate() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
    )
    assert _named(report, "api-moved-to-compat-v1") is not None
    assert _named(report, "companion-mismatch") is None


def test_a_librarys_own_frame_gives_one_reading_not_a_candidate() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 3, in <module>\n'
        "    import graphnets\n"
        '  File "/opt/venv/lib/python3.7/site-packages/graphnets/core.py", line 40, in <module>\n'
        "    x = tensorflow.placeholder(tensorflow.float32)\n"
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
    )
    found = [x for x in report.findings if x.cause == "companion-mismatch"]
    assert len(found) == 1 and not found[0].summary.startswith("Or: ")


def test_an_earlier_exceptions_name_is_not_read_into_the_last() -> None:
    report = explained(
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
        "During handling of the above exception, another exception occurred:\n"
        "RuntimeError: the model could not be built\n"
    )
    assert _named(report, "companion-mismatch") is None


def test_a_member_an_object_lacks_is_the_calls_not_a_modules() -> None:
    report = explained("AttributeError: 'Adagrad' object has no attribute 'lr'\n")
    assert any(x.severity.rank >= Severity.WARNING.rank for x in report.findings)
    assert _named(report, "companion-mismatch") is None


def test_a_name_that_cannot_be_imported_from_a_module_is_read_too() -> None:
    report = explained(
        "ImportError: cannot import name 'RandomFlip' from 'tensorflow.keras.layers' "
        "(/opt/venv/lib/python3.8/site-packages/tensorflow/keras/layers/__init__.py)\n"
    )
    other = _named(report, "companion-mismatch")
    assert _named(report, "api-removed") is not None
    assert other is not None and other.severity is Severity.WARNING
    assert other.fix is not None
    assert any("tensorflow==2.6" in c for c in other.fix.commands)


_LISTED = (
    "$ pip list | grep tensor\n"
    "tensorflow               2.12.0\n"
    "tensorflow-datasets      1.3.2\n"
    "$ python serve.py\n"
)


def _cut(code: str) -> str:
    """A traceback the paste cut after the frame running ``code``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/serve.py", line 4, in <module>\n'
        "    from app import model\n"
        '  File "/srv/app/app/model.py", line 2, in <module>\n'
        f"    {code}\n"
    )


def test_a_traceback_cut_at_a_listed_companions_import_is_that_release() -> None:
    report = explained(_LISTED + _cut("import tensorflow_datasets as tfds"))
    found = _named(report, "companion-mismatch")
    assert found is not None and found.severity is Severity.WARNING
    assert "tensorflow-datasets 1.3.2" in found.summary and "2.12.0" in found.summary
    assert "message is cut off" in found.summary
    assert "tensorflow-datasets" in fix_text(found)


def test_no_reading_of_a_cut_import_the_listing_does_not_show() -> None:
    report = explained(
        "$ pip list | grep tensor\ntensorflow               2.12.0\n"
        + _cut("import tensorflow_datasets as tfds")
    )
    assert _named(report, "companion-mismatch") is None


def test_no_reading_of_a_cut_import_of_a_library_not_on_tensorflow() -> None:
    report = explained(_LISTED + "pandas                   2.0.3\n" + _cut("import pandas as pd"))
    assert _named(report, "companion-mismatch") is None


def test_the_message_shown_decides_not_the_cut_reading() -> None:
    report = explained(
        _LISTED
        + _cut("import tensorflow_datasets as tfds")
        + "ModuleNotFoundError: No module named 'tensorflow_datasets.core'\n"
    )
    found = _named(report, "companion-mismatch")
    assert found is None or "message is cut off" not in found.summary


def test_a_keyword_a_tensorflow_function_refuses_has_the_library_candidate() -> None:
    report = explained("TypeError: reduce_max() got an unexpected keyword argument 'keepdims'\n")
    api = _named(report, "tf-too-old-for-code")
    other = _named(report, "companion-mismatch")
    assert api is not None and api.fix is not None
    assert other is not None and other.fix is not None and other.severity is Severity.WARNING
    pairing = [c for c in api.fix.commands if "tensorflow==" in c]
    assert pairing and all(c in other.fix.commands for c in pairing)


def test_the_same_message_printed_again_after_its_frames_is_not_frameless() -> None:
    # A logger (or the paste) repeats the exception's last line after the traceback that
    # shows the user's frame: the log does show whose code asked.
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 3, in <module>\n'
        "    x = tf.placeholder(tf.float32)\n"
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
    )
    assert _named(report, "api-moved-to-compat-v1") is not None
    assert _named(report, "companion-mismatch") is None


def test_no_reading_of_a_cut_import_of_the_release_made_for_the_installed_tensorflow() -> None:
    # The companion table pairs tensorflow-probability 0.20 with TensorFlow 2.12: the cut
    # message is some other fault, and installing 0.20 again would change nothing.
    report = explained(
        "$ pip list | grep tensor\ntensorflow               2.12.0\n"
        "tensorflow-probability   0.20.1\n$ python serve.py\n"
        + _cut("import tensorflow_probability as tfp")
    )
    assert _named(report, "companion-mismatch") is None


_GPU_OPTIONS = "AttributeError: module 'tensorflow' has no attribute 'GPUOptions'\n"


@pytest.mark.parametrize(
    "above",
    [
        pytest.param(">>> opts = tf.GPUOptions(allow_growth=True)\n", id="python-prompt"),
        pytest.param("In [7]: opts = tf.GPUOptions(allow_growth=True)\n", id="ipython-prompt"),
        pytest.param(
            "import tensorflow as tf\nopts = tf.GPUOptions(allow_growth=True)\n\n",
            id="script-line-then-a-blank-line",
        ),
        pytest.param("GPUOptions = tf.GPUOptions\n", id="a-binding-of-the-name"),
    ],
)
def test_the_users_own_line_above_the_message_decides_no_second_candidate(above: str) -> None:
    report = explained(above + _GPU_OPTIONS)
    api = _named(report, "api-moved-to-compat-v1")
    assert api is not None and api.severity is Severity.ERROR
    assert _named(report, "companion-mismatch") is None


@pytest.mark.parametrize(
    "above",
    [
        pytest.param("", id="the-message-alone"),
        pytest.param("opts = tf.GPUOptions(allow_growth=True)\n\n\n", id="two-blank-lines"),
        pytest.param(">>> print(opts)\n", id="a-prompt-not-calling-tensorflow"),
    ],
)
def test_no_line_of_the_users_above_the_message_keeps_the_library_candidate(above: str) -> None:
    report = explained(above + _GPU_OPTIONS)
    assert _named(report, "api-moved-to-compat-v1") is not None
    other = _named(report, "companion-mismatch")
    assert other is not None and other.severity is Severity.WARNING


@pytest.mark.parametrize(
    "above",
    [
        pytest.param("    opts = tf.GPUOptions(allow_growth=True)\n", id="pythons-frame-line"),
        pytest.param(
            "     40     def options(self):\n"
            "---> 41         opts = tf.GPUOptions(allow_growth=True)\n"
            "     42         return opts\n\n",
            id="ipythons-marked-line",
        ),
    ],
)
def test_a_frames_line_whose_file_line_was_cut_keeps_the_library_candidate(above: str) -> None:
    # The line says what ran, not whose code it is: no path shows the frame's file.
    report = explained(above + _GPU_OPTIONS)
    assert _named(report, "api-moved-to-compat-v1") is not None
    other = _named(report, "companion-mismatch")
    assert other is not None and other.severity is Severity.WARNING
