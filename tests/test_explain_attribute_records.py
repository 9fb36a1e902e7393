"""Python's AttributeError and ImportError wordings, read once by the evidence layer
(:mod:`tfdoctor.evidence.pyerrors`), mapped through the API knowledge: Python 2's words bound
the TensorFlow to the lines that ran on Python 2, so a verdict about a later release is not
what raised."""

from __future__ import annotations

import pytest

from tests.explaining import explained, one_frame_log, problem_causes, top_error
from tfdoctor.causes.notebook import r_interface_fix
from tfdoctor.findings import Fix, Report
from tfdoctor.matrix import load_matrix

#: The shipped matrix: its rows say which releases have Python 2 wheels (the test fixture's
#: start at 2.10).
MATRIX = load_matrix()

#: Python 2's words for a module's missing attribute (Objects/object.c): no module named.
PY2_MODULE = "AttributeError: 'module' object has no attribute 'rnn_cell'"
#: Python 3.5's on (Objects/moduleobject.c, module_getattro), naming TensorFlow 2's module.
PY3_MODULE = "AttributeError: module 'tensorflow._api.v2.nn' has no attribute 'rnn_cell'"
CELL = "cell = tf.nn.rnn_cell.BasicLSTMCell(64)"


def _explained(text: str) -> Report:
    """explain's report on ``text`` with the shipped matrix."""
    return explained(text, matrix=MATRIX)


def test_python_2_words_judge_the_source_line_for_a_release_python_2_ran() -> None:
    report = _explained(one_frame_log(PY2_MODULE, CELL))
    # TensorFlow 2.1 was the last release with Python 2 wheels: tf.nn.rnn_cell there is in
    # tf.compat.v1, and Keras 3 (TensorFlow 2.16 on, Python 3.9 on) cannot have raised it.
    assert top_error(report).cause == "api-moved-to-compat-v1"
    assert "keras3-behaviour-change" not in problem_causes(report)


def test_a_python_2_folder_in_the_frames_bounds_the_release_the_same_way() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python2.7/dist-packages/app/model.py", line 12, in build\n'
        f"    {CELL}\n"
        "AttributeError: 'module' object has no attribute 'rnn_cell'\n"
    )
    assert "keras3-behaviour-change" not in problem_causes(_explained(text))


@pytest.mark.parametrize(
    "path",
    [
        "/usr/lib/python2.7/dist-packages/app/model.py",
        "C:\\Python27\\lib\\site-packages\\app\\model.py",
    ],
    ids=["posix", "windows"],
)
def test_the_python_2_a_frame_shows_is_the_machines_python_too(path: str) -> None:
    # One reading of a path's Python: the folder that bounds the release as Python 2's also
    # gives the report its Python, rather than "the log does not show the Python version".
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 3, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: No module named tensorflow\n"
    )
    detail = top_error(_explained(text)).detail
    assert "Python 2.7 (" in detail
    assert "the Python version" not in detail


def test_python_3_words_keep_the_newest_release_judging() -> None:
    # Python 3's words bound nothing: the newest line's verdict stands. Its tf.nn.rnn_cell is
    # missing from every TensorFlow 2 release (its home is tf.compat.v1), so the name's move
    # raised it, not Keras 3 (whose rule is about the cells failing when used): the fix's
    # stop-gap says what Keras 3 does to it.
    report = _explained(one_frame_log(PY3_MODULE, CELL))
    found = top_error(report)
    assert found.cause == "api-moved-to-compat-v1"
    assert "keras3-behaviour-change" not in problem_causes(report)
    assert found.fix is not None and "tf.compat.v1.nn.rnn_cell" in found.fix.text
    assert "From TensorFlow 2.16 on (Keras 3)" in found.fix.text


@pytest.mark.parametrize(
    ("release", "words"),
    [
        pytest.param("2.10.0", "From TensorFlow 2.16 on (Keras 3)", id="before-keras3"),
        pytest.param(
            "2.16.1", "The stop-gap fails on the log's TensorFlow 2.16.1 (Keras 3)", id="keras3"
        ),
    ],
)
def test_the_stop_gap_is_said_to_fail_on_a_keras_3_release_the_log_shows(
    release: str, words: str
) -> None:
    echo = f">>> import tensorflow as tf\n>>> tf.__version__\n'{release}'\n"
    found = top_error(_explained(echo + one_frame_log(PY3_MODULE, CELL)))
    assert found.cause == "api-moved-to-compat-v1"
    assert found.fix is not None and words in found.fix.text


# --- the R interfaces (reticulate) ------------------------------------------------------------

#: R's words for the reticulate call that asked Python, the Python error on the next line.
R_ATTRIBUTE = (
    "Error in py_get_attr_impl(x, name, silent) : \n"
    "  AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
)


@pytest.mark.parametrize("module", ["tensorflow.compat.v2", "tensorflow.keras", "keras", "pkg"])
def test_reticulate_not_found_is_not_read_as_the_module_missing(module: str) -> None:
    # reticulate's R/python.R (py_resolve_module_proxy) prints "Python module X was not
    # found." whatever X's import raised (X installed and failing to load included): no
    # missing module, API or package is observed.
    report = _explained(f"Error: Python module {module} was not found.\n")
    causes = problem_causes(report)
    assert not causes & {"api-removed", "package-not-installed", "api-added-later"}


def test_an_error_r_passed_on_gets_r_commands_with_the_release_pinned() -> None:
    top = top_error(_explained(R_ATTRIBUTE))
    assert top.cause == "api-moved-to-compat-v1" and top.fix is not None
    commands = top.fix.commands
    assert commands[0] == "reticulate::py_config()"
    # The release the fix pins for pip, installed into reticulate's Python from R.
    assert any(c.startswith("tensorflow::install_tensorflow(version = ") for c in commands)


@pytest.mark.parametrize(
    ("command", "installed"),
    [
        ('pip install "tensorflow==2.4.1"', '"2.4.1"'),
        ("pip install tensorflow==1.15", '"1.15"'),
        # Another distribution's release (Intel's build, the GPU package) is no release of
        # the `tensorflow` package install_tensorflow(version = ...) installs.
        ('pip install "intel-tensorflow==2.4.0"', None),
        ('pip install "tensorflow-gpu==2.4.0"', None),
    ],
)
def test_r_installs_only_the_release_pinned_for_tensorflow_itself(
    command: str, installed: str | None
) -> None:
    fix = r_interface_fix(Fix("Install the release.", (command,)))
    from_r = [c for c in fix.commands if c.startswith("tensorflow::install_tensorflow")]
    assert from_r == (
        [f"tensorflow::install_tensorflow(version = {installed})"] if installed else []
    )


def test_python_s_own_traceback_gets_no_r_commands() -> None:
    top = top_error(_explained(R_ATTRIBUTE.split("\n", 1)[1]))
    assert top.cause == "api-moved-to-compat-v1" and top.fix is not None
    assert not any("reticulate" in c or "install_tensorflow" in c for c in top.fix.commands)


# --- a circular import: its own record, never a name a release lacks ----------------------------


def test_a_from_import_of_tensorflow_still_importing_is_an_import_cycle() -> None:
    # Python/ceval.c import_from, 3.8 on: the ImportError words of the same cycle whose
    # AttributeError words ("partially initialized module 'tensorflow' has no attribute")
    # name the user's own file.
    text = (
        "ImportError: cannot import name 'keras' from partially initialized module "
        "'tensorflow' (most likely due to a circular import) "
        "(/usr/lib/python3.10/site-packages/tensorflow/__init__.py)\n"
    )
    report = _explained(text)
    assert "tf-shadowed-module" in {f.cause for f in report.findings}
    assert "api-removed" not in problem_causes(report)


def test_a_cycle_in_another_package_is_not_tensorflow_s() -> None:
    text = (
        "ImportError: cannot import name 'util' from partially initialized module 'mypkg' "
        "(most likely due to a circular import) (/home/user/mypkg/__init__.py)\n"
    )
    assert "tf-shadowed-module" not in {f.cause for f in _explained(text).findings}


# --- a module still importing: no release lacks the name ---------------------------------------


def test_python_3_13_names_the_shadowing_file_in_its_message() -> None:
    # Objects/moduleobject.c (3.13, python/cpython#113769): the note replaces "partially
    # initialized" for a module of the script's directory still importing.
    text = (
        "AttributeError: module 'tensorflow' has no attribute 'placeholder' (consider "
        "renaming '/w/tensorflow.py' if it has the same name as a library you intended to "
        "import)\n"
    )
    top = top_error(_explained(text))
    assert top.cause == "tf-shadowed-module" and "/w/tensorflow.py" in top.summary
    assert top.fix is not None and any("/w/tensorflow.py" in c for c in top.fix.commands)
    assert "api-moved-to-compat-v1" not in problem_causes(_explained(text))


def test_a_name_asked_of_tensorflow_still_importing_is_no_api_removal() -> None:
    text = (
        "AttributeError: partially initialized module 'tensorflow' has no attribute "
        "'placeholder' (most likely due to a circular import)\n"
    )
    causes = problem_causes(_explained(text))
    assert "tf-shadowed-module" in causes and "api-moved-to-compat-v1" not in causes
