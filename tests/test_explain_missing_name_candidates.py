"""A name of TensorFlow's API missing where the log shows no TensorFlow release (``module
'tensorflow' has no attribute 'keras'``): an older TensorFlow than the name, a module named
tensorflow that is not TensorFlow, and an incomplete install all read the same. The reading
ranks them by what the log shows (Python 2 keeps the older release first; a Python no
TensorFlow 1 runs on puts it last) and gives each its own fix; a Python 2 log's install is a
release with Python 2 wheels (1.15.0), never 1.15.5, which has none."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, one_frame_log, top_error
from tfdoctor.findings import Severity
from tfdoctor.matrix import load_matrix


def _frames_log(message: str, code: str, python_dir: str) -> str:
    """A traceback run by ``python -m`` (runpy's frames in ``python_dir``), then the user's
    own file with ``code`` raising ``message``."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "{python_dir}/runpy.py", line 196, in _run_module_as_main\n'
        "    return _run_code(code, main_globals, None,\n"
        f'  File "{python_dir}/runpy.py", line 86, in _run_code\n'
        "    exec(code, run_globals)\n"
        '  File "/home/user/proj/train.py", line 7, in <module>\n'
        f"    {code}\n"
        f"{message}\n"
    )


#: The shipped matrix: its early releases hold the Pythons each 1.15 patch has wheels for.
MATRIX = load_matrix()


def _by_cause(text: str) -> dict[str, Severity]:
    return {x.cause: x.severity for x in explained(text).findings}


def test_no_sign_either_way_keeps_the_older_release_first_with_the_others_after() -> None:
    report = explained(
        one_frame_log(
            "AttributeError: module 'tensorflow' has no attribute 'keras'",
            "model = tf.keras.Sequential()",
        )
    )
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code"
    assert "tensorflow==1.15.5" in fix_text(top)
    others = {x.cause: x for x in report.findings[1:]}
    for cause in ("tf-shadowed-module", "tf-install-incomplete"):
        assert others[cause].severity is Severity.INFO
        assert others[cause].summary.startswith("Or: ")
        assert others[cause].summary.endswith("(the other candidate)")
    assert "print(tf.__file__" in fix_text(others["tf-shadowed-module"])
    assert "uninstall" in fix_text(others["tf-install-incomplete"])


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            _frames_log(
                "AttributeError: module 'tensorflow' has no attribute 'keras'",
                "model = tf.keras.Sequential()",
                "/usr/lib/python3.10",
            ),
            id="python-3.10-paths",
        ),
        pytest.param(
            one_frame_log(
                "AttributeError: module 'tensorflow' has no attribute 'data'. "
                "Did you mean: 'dtypes'?",
                "ds = tf.data.Dataset.range(3)",
            ),
            id="did-you-mean",
        ),
        # A name a later 1.x release brought (tf.function, 1.14, dated by the 1.x listings):
        # no release before it ran on Python 3.12 either.
        pytest.param(
            _frames_log(
                "AttributeError: module 'tensorflow' has no attribute 'function'",
                "@tf.function",
                "/usr/lib/python3.12",
            ),
            id="python-3.12-a-name-of-1.14",
        ),
    ],
)
def test_a_python_no_tf1_runs_on_ranks_a_module_of_the_users_own_first(text: str) -> None:
    report = explained(text)
    assert report.findings[0].cause == "tf-shadowed-module"
    assert report.findings[0].severity is Severity.WARNING
    assert not any(x.severity is Severity.ERROR for x in report.findings)
    by_cause = _by_cause(text)
    assert by_cause["tf-too-old-for-code"] is Severity.INFO
    assert by_cause["tf-install-incomplete"] is Severity.INFO


def test_a_python_tf1_runs_on_keeps_the_older_release_first_and_its_latest_patch() -> None:
    text = _frames_log(
        "AttributeError: module 'tensorflow' has no attribute 'keras'",
        "model = tf.keras.Sequential()",
        "/usr/lib/python3.6",
    )
    top = top_error(explained(text, matrix=MATRIX))
    assert top.cause == "tf-too-old-for-code"
    assert "1.15.0" not in fix_text(top)


def test_python2_words_install_the_last_release_with_python2_wheels() -> None:
    text = one_frame_log(
        "AttributeError: 'module' object has no attribute 'summary'",
        "writer = tf.summary.FileWriter('./logs')",
    )
    top = top_error(explained(text, matrix=MATRIX))
    assert top.cause == "tf-too-old-for-code"
    fix = fix_text(top)
    assert 'tensorflow==1.15.0"' in fix and "1.15.5" not in fix
    assert "Python 2" in fix and "a Python 3 that 1.15 has wheels for" in fix


@pytest.mark.parametrize(
    ("message", "python_dir", "present", "absent"),
    [
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'keras'",
            "/usr/lib/python2.7",
            'tensorflow==1.15.0"',
            "1.15.5",
            id="python2-paths",
        ),
        # No TensorFlow release has Python 2 wheels for Windows (the matrix).
        pytest.param(
            "AttributeError: 'module' object has no attribute 'keras'",
            "C:\\Python27\\lib",
            "py -3.7 -m venv",
            "1.15.0",
            id="python2-windows",
        ),
    ],
)
def test_python2_frames_install_what_python2_can_run(
    message: str, python_dir: str, present: str, absent: str
) -> None:
    text = _frames_log(message, "model = tf.keras.Sequential()", python_dir)
    fix = fix_text(top_error(explained(text, matrix=MATRIX)))
    assert present in fix and absent not in fix


def test_the_users_own_tensorflow_py_in_the_frames_is_certain() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/home/user/proj/tensorflow.py", line 3, in <module>\n'
        "    model = tf.keras.Sequential()\n"
        "AttributeError: module 'tensorflow' has no attribute 'keras'\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "tf-shadowed-module"
    assert "api-removed" not in {x.cause for x in report.findings}


@pytest.mark.parametrize(
    ("message", "code"),
    [
        pytest.param(
            "AttributeError: 'module' object has no attribute 'py_function'",
            "y = tf.py_function(f, [x], tf.float32)",
            id="name-a-later-1x-brought",
        ),
        pytest.param(
            "TypeError: reduce_max() got an unexpected keyword argument 'keepdims'",
            "m = tf.reduce_max(x, axis=1, keepdims=True)",
            id="keyword-a-later-1x-brought",
        ),
    ],
)
def test_python2_with_a_release_shown_installs_what_python2_can_run(
    message: str, code: str
) -> None:
    text = "tensorflow version: 1.4.0\n" + _frames_log(message, code, "/usr/lib/python2.7")
    top = top_error(explained(text, matrix=MATRIX))
    fix = fix_text(top)
    assert 'tensorflow==1.15.0"' in fix and "1.15.5" not in fix
    assert "venv" not in fix


# --- a name a later release brought and a release after 2.1 removed, under Python 2 --------


def test_python2_rules_out_the_releases_after_21_that_removed_the_name() -> None:
    # tf.estimator: from 1.1 (its release notes) until 2.16 removed it. Python 2 ran no
    # TensorFlow after 2.1, so of the releases it ran only those before 1.1 lack the name.
    text = one_frame_log(
        "AttributeError: 'module' object has no attribute 'estimator'",
        "classifier = tf.estimator.Estimator(model_fn=model_fn)",
    )
    report = explained(text, matrix=MATRIX)
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code"
    assert "upgrade TensorFlow to 1.1 or later" in fix_text(top)
    assert "tf-estimator-removed" not in {x.cause for x in report.findings}
    # Keeping the installed release and writing the code without the name: the other reading.
    other = next(x for x in report.findings if x.cause == "api-removed")
    assert other.severity is Severity.WARNING and "To keep the installed" in fix_text(other)


def test_python3_leaves_the_removal_of_the_name_its_reading() -> None:
    # Python 3's words: a TensorFlow from 2.16 lacks tf.estimator as much as one before 1.1.
    text = one_frame_log(
        "AttributeError: module 'tensorflow' has no attribute 'estimator'",
        "classifier = tf.estimator.Estimator(model_fn=model_fn)",
    )
    causes = {x.cause for x in explained(text, matrix=MATRIX).findings}
    assert "tf-too-old-for-code" not in causes and "tf-estimator-removed" in causes


# --- a frame of the installed TensorFlow -----------------------------------------------------


@pytest.mark.parametrize(
    "attr, code", [("function", "@tf.function"), ("linalg", "tf.linalg.inv(y)")]
)
def test_a_frame_of_tensorflows_own_files_rules_out_a_module_of_the_users_own(
    attr: str, code: str
) -> None:
    # tf.app.run's own file ran the code: `import tensorflow` loaded TensorFlow.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 40, in <module>\n'
        "    tf.app.run()\n"
        '  File "/usr/local/lib/python3.6/site-packages/tensorflow/python/platform/app.py", '
        "line 48, in run\n"
        "    _sys.exit(main(_sys.argv[:1] + flags_passthrough))\n"
        '  File "/home/user/proj/train.py", line 12, in main\n'
        f"    {code}\n"
        f"AttributeError: module 'tensorflow' has no attribute '{attr}'\n"
    )
    causes = _by_cause(text)
    assert "tf-shadowed-module" not in causes
    assert causes["tf-too-old-for-code"] is Severity.ERROR
    assert causes["tf-install-incomplete"] is Severity.INFO


@pytest.mark.parametrize(
    ("message", "python_dir", "present", "absent"),
    [
        # Python 2's words alone: 2.7, whose wheels 1.15's later patches lack.
        pytest.param(
            "AttributeError: 'module' object has no attribute 'contrib'",
            "",
            'tensorflow==1.15.0"',
            'tensorflow==1.15.5"',
            id="python2-words",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'contrib'",
            "/usr/lib/python2.7",
            'tensorflow==1.15.0"',
            'tensorflow==1.15.5"',
            id="python2-paths",
        ),
        # No 1.15 release has Python 2 wheels for Windows: an environment of a Python 3.
        pytest.param(
            "AttributeError: 'module' object has no attribute 'contrib'",
            "C:\\Python27\\lib",
            "no wheel for Python 2.7",
            'tensorflow==1.15.0"',
            id="python2-windows",
        ),
        # 1.15.5 has no Python 3.5 wheels; 1.15.4 does.
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'contrib'",
            "/usr/lib/python3.5",
            'tensorflow==1.15.4"',
            'tensorflow==1.15.5"',
            id="python3.5",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'contrib'",
            "/usr/lib/python3.7",
            'tensorflow==1.15.5"',
            'tensorflow==1.15.0"',
            id="python3.7",
        ),
    ],
)
def test_the_last_1x_line_for_tf_contrib_is_a_release_with_wheels_for_the_python(
    message: str, python_dir: str, present: str, absent: str
) -> None:
    code = "cell = tf.contrib.rnn.LSTMCell(10)"
    text = _frames_log(message, code, python_dir) if python_dir else one_frame_log(message, code)
    top = top_error(explained(text, matrix=MATRIX))
    assert top.cause == "tf-contrib-removed"
    fix = fix_text(top)
    assert present in fix and absent not in fix
