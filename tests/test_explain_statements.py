"""explain on what a user quotes rather than a full traceback: an exception's message alone,
the import statement a session shows, a name missing from TensorFlow's internal API, Keras'
model classes it cannot locate, and the instruction set a CPU lacks."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.traceback import import_statements, module_origins, read_tracebacks
from tfdoctor.explain.reader import clean
from tfdoctor.findings import Severity

_INTERNAL = (
    "AttributeError: module 'tensorflow._api.v2.compat.v2.__internal__' has no attribute "
    "'register_load_context_function'. Did you mean: 'register_call_context_function'?"
)


def test_a_message_quoted_alone_is_read_as_its_own_exception() -> None:
    text = "I get this:\nmodule 'tensorflow' has no attribute 'contrib'\nand then it stops\n"
    (tb,) = read_tracebacks(text)
    assert (tb.type, tb.message, tb.where) == (
        "AttributeError",
        "module 'tensorflow' has no attribute 'contrib'",
        "line 2",
    )
    (tb,) = read_tracebacks("No module named 'tf_keras'\n")
    assert tb.type == "ModuleNotFoundError"
    # Python 2's words for a module's attribute, alone: AttributeError's, kept as printed.
    (tb,) = read_tracebacks("'module' object has no attribute 'SummaryWriter'\n")
    assert (tb.type, tb.message) == (
        "AttributeError",
        "'module' object has no attribute 'SummaryWriter'",
    )
    assert read_tracebacks("the 'module' object has no attribute 'x' here\n") == []


_RAISED = 'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n'


@pytest.mark.parametrize(
    ("quoted", "message"),
    [
        ('No module named "tensorflow.contrib"', "No module named 'tensorflow.contrib'"),
        ("No module named `keras.engine`", "No module named 'keras.engine'"),
        ("No module named \u2018keras.engine\u2019", "No module named 'keras.engine'"),
        (
            "module `tensorflow` has no attribute `Session`",
            "module 'tensorflow' has no attribute 'Session'",
        ),
        (
            'cannot import name "Adam" from "keras.optimizers"',
            "cannot import name 'Adam' from 'keras.optimizers'",
        ),
    ],
)
def test_a_name_quoted_otherwise_is_read_in_pythons_quotes(quoted: str, message: str) -> None:
    # Alone on a line and after its type: every reader then meets Python's own form.
    (alone,) = read_tracebacks(f"It says:\n{quoted}\n")
    (typed,) = read_tracebacks(f"{_RAISED}    import x\nImportError: {quoted}\n")
    assert alone.message == typed.message == message


@pytest.mark.parametrize(
    "glued",
    [
        "module'keras.utils' has no attribute 'get_custom_objects'",
        "module\u2018keras.utils\u2019 has no attribute \u2018get_custom_objects\u2019",
    ],
)
def test_the_space_a_paste_lost_after_module_is_put_back(glued: str) -> None:
    # Python always prints "module 'M' has no attribute 'N'" (Objects/moduleobject.c).
    (tb,) = read_tracebacks(f"{_RAISED}    x()\nAttributeError: {glued}\n")
    assert tb.message == "module 'keras.utils' has no attribute 'get_custom_objects'"
    kept = f"{_RAISED}    x()\nValueError: submodule'a' failed\n"
    assert read_tracebacks(kept)[0].message == "submodule'a' failed"


def test_quotes_inside_a_message_that_python_does_not_quote_are_kept() -> None:
    text = f'{_RAISED}    f()\nValueError: bad value "x"\n'
    (tb,) = read_tracebacks(text)
    assert tb.message == 'bad value "x"'
    loaded = text.replace('bad value "x"', 'could not load from "model.h5"')
    assert read_tracebacks(loaded)[0].message == 'could not load from "model.h5"'
    said = "Unknown layer: 'X' from \"custom\""
    assert read_tracebacks(text.replace('bad value "x"', said))[0].message == said


def test_a_message_shown_with_its_type_is_not_read_twice() -> None:
    text = (
        "module 'tensorflow' has no attribute 'contrib'\n"
        "AttributeError: module 'tensorflow' has no attribute 'contrib'\n"
    )
    assert [tb.type for tb in read_tracebacks(text)] == ["AttributeError"]


def test_prose_that_merely_holds_the_words_is_not_an_exception() -> None:
    text = "The docs say module 'tensorflow' has no attribute 'contrib' in 2.x, fine.\n"
    assert read_tracebacks(text) == []


def test_the_import_above_an_exception_without_frames_is_kept() -> None:
    (tb,) = read_tracebacks(">>> import tf_keras\n" + _INTERNAL + "\n")
    assert tb.statement == "import tf_keras"
    (tb,) = read_tracebacks("print('hello')\n" + _INTERNAL + "\n")
    assert tb.statement == ""


def test_the_source_line_above_an_exception_without_frames_is_its_code() -> None:
    py2 = "AttributeError: 'module' object has no attribute 'Session'\n"
    (tb,) = read_tracebacks("        sess = tf.Session(config=cfg)\n" + py2)
    assert (tb.code, tb.frames) == ("sess = tf.Session(config=cfg)", ())
    # A paste that lost the indentation still shows a statement calling TensorFlow's API.
    (tb,) = read_tracebacks("sess = tf.Session()\n" + py2)
    assert tb.code == "sess = tf.Session()"
    # Prose, a prompt, a frame's own line, or frames printed: no such line.
    for above in (
        "I then ran the session and got this:\n",
        ">>> print(x)\n",
        '  File "run.py", line 3, in <module>\n',
        "",
    ):
        (tb,) = read_tracebacks(above + py2)
        assert tb.code == ""


_SESSION = "AttributeError: module 'tensorflow' has no attribute 'Session'\n"


@pytest.mark.parametrize(
    ("above", "code", "typed"),
    [
        pytest.param(">>> sess = tf.Session()\n", "sess = tf.Session()", True, id="python"),
        pytest.param("In [3]: sess = tf.Session()\n", "sess = tf.Session()", True, id="ipython"),
        pytest.param("sess = tf.Session()\n\n", "sess = tf.Session()", False, id="blank-line"),
        pytest.param(
            ">>> sess = tf.Session()\n\n", "sess = tf.Session()", True, id="prompt-blank-line"
        ),
        pytest.param("Session = tf.Session\n", "Session = tf.Session", False, id="binding"),
        pytest.param(
            "    Session = tensorflow.Session\n\n",
            "Session = tensorflow.Session",
            False,
            id="indented-binding-blank-line",
        ),
    ],
)
def test_the_line_a_prompt_or_a_blank_line_sets_above_the_message_is_its_code(
    above: str, code: str, typed: bool
) -> None:
    (tb,) = read_tracebacks(above + _SESSION)
    assert (tb.code, tb.typed, tb.frames) == (code, typed, ())


@pytest.mark.parametrize(
    "above",
    [
        pytest.param("sess = tf.Session()\n\n\n", id="two-blank-lines"),
        pytest.param("sess = tf.Session()\nthen\n\n", id="text-between"),
        pytest.param("tf.Session() fails for me with:\n\n", id="prose-naming-a-call"),
        pytest.param("    tensorflow\n\n", id="an-indented-listing"),
        pytest.param("sess = tf.Session(config=\n\n", id="a-cut-statement"),
        pytest.param("    305     sess = tf.Session()\n\n", id="ipython-source-context"),
        pytest.param(">>> print(sess)\n", id="a-prompt-not-calling-tensorflow"),
        pytest.param("\n", id="a-blank-line-alone"),
    ],
)
def test_no_code_is_read_past_a_blank_line_but_a_whole_call_of_tensorflow(above: str) -> None:
    (tb,) = read_tracebacks(above + _SESSION)
    assert (tb.code, tb.typed) == ("", False)


@pytest.mark.parametrize(
    ("above", "code", "typed"),
    [
        # Python 3.11 on marks the expression that raised under the line it ran.
        pytest.param(
            "    sess = tf.Session()\n           ^^^^^^^^^^\n",
            "sess = tf.Session()",
            False,
            id="marks-under-a-frames-line",
        ),
        pytest.param(
            ">>> y = tf.add(x, tf.Session())\n             ~~~~~~^^^^^^^^^\n",
            "y = tf.add(x, tf.Session())",
            True,
            id="marks-under-a-typed-line",
        ),
        pytest.param(
            "sess = tf.Session(config=tf.ConfigProto(\n",
            "sess = tf.Session(config=tf.ConfigProto(",
            False,
            id="a-statement-its-brackets-carry-on",
        ),
        pytest.param("^^^^^^^^^^\n", "", False, id="marks-alone"),
        pytest.param("tf.Session() fails for me with:\n", "", False, id="prose-naming-a-call"),
        pytest.param(">>> tf.Session() hangs, then\n", "", False, id="prose-after-a-prompt"),
    ],
)
def test_the_line_above_the_message_is_python_never_marks_or_prose(
    above: str, code: str, typed: bool
) -> None:
    (tb,) = read_tracebacks(above + _SESSION)
    assert (tb.code, tb.typed, tb.frames) == (code, typed, ())


_CONTEXT_ABOVE = (
    "     14     def step(self, x):\n"
    "     15         w = self.weights(x)\n"
    "---> 16         return graph_ops.fused_step(w, x)\n"
    "     17 \n"
    "     18     def weights(self, x):\n"
    "\n"
)


@pytest.mark.parametrize(
    ("above", "code"),
    [
        pytest.param(_CONTEXT_ABOVE, "return graph_ops.fused_step(w, x)", id="ipython-7-context"),
        pytest.param(
            _CONTEXT_ABOVE.replace("     17 \n", "     17\n"),
            "return graph_ops.fused_step(w, x)",
            id="an-empty-lines-space-lost",
        ),
        pytest.param(
            _CONTEXT_ABOVE.rstrip("\n") + "\n",
            "return graph_ops.fused_step(w, x)",
            id="no-blank-line-before-the-message",
        ),
        pytest.param(
            "    301   spec = flatten(spec)[0]\n--> 302   if isinstance(spec,\n"
            "    303                 (tf.TypeSpec,)):\n\n",
            "if isinstance(spec,",
            id="three-digits-a-shorter-arrow",
        ),
        pytest.param(
            "  12344     y = 1\n> 12345     z = tf.Session()\n   (...)\n  12350 \n\n",
            "z = tf.Session()",
            id="five-digits-and-ipython-8s-gap",
        ),
    ],
)
def test_the_line_ipython_marked_under_a_header_cut_away_is_the_code(above: str, code: str) -> None:
    # IPython's source context under a frame (ultratb's _format_traceback_lines), the frame's
    # header (`~/lib/x.py in step(self, x)`) cut from the paste: the marked line ran.
    (tb,) = read_tracebacks(above + _SESSION)
    assert (tb.code, tb.typed, tb.printed, tb.frames) == (code, False, True, ())


def test_an_import_ipython_marked_under_a_header_cut_away_is_the_statement() -> None:
    above = "      1 import os\n----> 2 from tensorflow.contrib import slim\n      3 \n\n"
    (tb,) = read_tracebacks(above + "ModuleNotFoundError: No module named 'tensorflow.contrib'\n")
    assert (tb.statement, tb.code, tb.printed) == ("from tensorflow.contrib import slim", "", True)


@pytest.mark.parametrize(
    "above",
    [
        pytest.param("     15         w = 1\n     16         x = 2\n\n", id="no-marked-line"),
        pytest.param(
            "---> 16         x = tf.Session()\nI then got:\n\n", id="prose-below-the-mark"
        ),
        pytest.param("---> 16         x = tf.Session()\n\n\n\n", id="three-blank-lines"),
    ],
)
def test_no_marked_line_is_read_past_what_is_not_ipythons_context(above: str) -> None:
    (tb,) = read_tracebacks(above + _SESSION)
    assert tb.code == "" or not tb.printed


@pytest.mark.parametrize(
    ("above", "printed"),
    [
        pytest.param("    sess = tf.Session()\n", True, id="pythons-indented-frame-line"),
        pytest.param("sess = tf.Session()\n", False, id="a-script-line-at-the-margin"),
        pytest.param(">>> sess = tf.Session()\n", False, id="typed"),
        pytest.param("    import tensorflow.contrib\n", True, id="an-indented-import"),
        pytest.param("import tensorflow.contrib\n", False, id="an-import-at-the-margin"),
    ],
)
def test_a_frames_line_as_python_prints_it_is_told_from_a_pasted_one(
    above: str, printed: bool
) -> None:
    (tb,) = read_tracebacks(above + _SESSION)
    assert (tb.code or tb.statement) and tb.printed is printed
    # The same paste indented as a whole (a Markdown code block): nothing is deeper.
    (tb,) = read_tracebacks("".join(f"    {line}\n" for line in (above + _SESSION).splitlines()))
    assert not tb.printed or printed


def test_python2_s_unnamed_module_is_read_from_the_line_above_it() -> None:
    report = explained(
        "    logits = tf.contrib.layers.fully_connected(x, 10)\n"
        "AttributeError: 'module' object has no attribute 'contrib'\n"
    )
    assert top_error(report).cause in ("tf-contrib-removed", "api-removed")
    # The same words under a line that does not name it: no TensorFlow name is guessed.
    quiet = explained(
        "    value = helpers.contrib(3)\n"
        "AttributeError: 'module' object has no attribute 'contrib'\n"
    )
    assert not any(f.cause in ("tf-contrib-removed", "api-removed") for f in quiet.findings)


def test_import_statements_are_read_outside_tracebacks_only() -> None:
    text = (
        ">>> import tensorflow as tf\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    from keras.engine import data_adapter\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
        "In [4]: from keras.preprocessing.text import Tokenizer\n"
        "  # we import the data next\n"
    )
    assert import_statements(text, 10) == [
        (0, "import tensorflow as tf"),
        (5, "from keras.preprocessing.text import Tokenizer"),
    ]
    assert import_statements(text, 1) == [(0, "import tensorflow as tf")]


def test_a_name_missing_from_tf_internal_under_import_tf_keras_is_tf_keras_of_another_line() -> (
    None
):
    top = top_error(explained("import tf_keras\n" + _INTERNAL + "\n"))
    assert top.cause == "tf-keras-mismatch"
    fix = fix_text(top)
    # The TensorFlow is unknown: the newest tf-keras would require (and install) the newest
    # TensorFlow, so the fix names the minor to match instead of installing it unpinned.
    assert 'pip install "tf-keras"' not in fix
    assert "tf-keras~=2.X.0" in fix


def test_tf_internal_quoted_alone_under_python_3_12_is_tf_keras() -> None:
    log = (
        "module 'tensorflow._api.v2.compat.v2.__internal__' has no attribute "
        "'register_load_context_function'\n"
        '  File "/home/u/venv/lib/python3.12/site-packages/transformers/utils/import_utils.py",'
        " line 1764, in _get_module\n"
    )
    report = explained(log)
    top = top_error(report)
    assert top.cause == "tf-keras-mismatch"
    assert "Python 3.12" in top.detail


def test_tf_internal_under_tensorflow_2_15_is_keras_of_another_line() -> None:
    log = "Successfully installed tensorflow-2.15.0\n" + _INTERNAL + "\n"
    assert top_error(explained(log)).cause == "keras-version"


def test_an_import_a_log_shows_is_judged_for_the_tensorflow_it_shows() -> None:
    shown = "from keras.preprocessing.text import Tokenizer\n\ntensorflow version: {}\n"
    top = top_error(explained(shown.format("2.16.1")))
    assert top.cause == "keras3-behaviour-change"
    # The tf-keras of the log's own TensorFlow line, not of the newest.
    assert "tf-keras<2.17,>=2.16" in fix_text(top)
    report = explained(shown.format("2.15.0"))
    assert all(x.cause != "keras3-behaviour-change" for x in report.findings)


def test_an_import_inside_a_traceback_is_not_judged_as_a_statement() -> None:
    log = (
        "tensorflow version: 2.16.1\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    from keras.preprocessing.text import Tokenizer\n"
        "RuntimeError: something else\n"
    )
    report = explained(log)
    assert all(x.cause != "keras3-behaviour-change" for x in report.findings)


def test_a_keras2_model_class_keras3_cannot_locate_is_keras2_model_under_keras3() -> None:
    log = (
        "Successfully installed tensorflow-2.16.1\n"
        "TypeError: Could not locate class 'Functional'. Make sure custom classes are "
        "decorated with `@keras.saving.register_keras_serializable()`.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "keras3-behaviour-change"
    fix = fix_text(top)
    assert "TF_USE_LEGACY_KERAS=1" in fix
    assert "tf-keras<2.17,>=2.16" in fix


def test_a_keras3_model_class_keras2_cannot_locate_is_a_model_from_newer_keras() -> None:
    log = (
        "Successfully installed tensorflow-2.15.0\n"
        "TypeError: Could not locate class 'Functional'. Make sure custom classes are "
        "decorated with `@keras.saving.register_keras_serializable()`.\n"
    )
    assert top_error(explained(log)).cause == "model-from-newer-keras"


def test_a_custom_class_not_located_is_not_an_environment_cause() -> None:
    log = (
        "TypeError: Could not locate class 'AttentionBlock'. Make sure custom classes are "
        "decorated with `@keras.saving.register_keras_serializable()`.\n"
    )
    causes_found = {x.cause for x in explained(log).findings}
    assert not causes_found & {"keras3-behaviour-change", "model-from-newer-keras"}


def test_the_instruction_set_the_cpu_lacks_is_the_one_tensorflow_named() -> None:
    log = (
        "F tensorflow/core/platform/cpu_feature_guard.cc:35] The TensorFlow library was "
        "compiled to use SSE4.1 instructions, but these aren't available on your machine.\n"
        "Aborted (core dumped)\n"
    )
    top = top_error(explained(log))
    assert top.cause == "cpu-lacks-avx"
    fix = fix_text(top)
    assert "SSE4.1" in fix and "sse4_1" in fix


_RANDOM_FLIP = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/project/train.py", line 134, in <module>\n'
    '    [layers.RandomFlip("horizontal"), layers.RandomRotation(0.1),]\n'
    "AttributeError: module 'tensorflow.keras.layers' has no attribute 'RandomFlip'\n"
)


def test_a_name_only_later_releases_have_says_the_tensorflow_is_older() -> None:
    top = top_error(explained(_RANDOM_FLIP))
    assert top.cause == "tf-too-old-for-code"
    fix = fix_text(top)
    # The listings: tf.keras.layers.RandomFlip is in every line from 2.6 on, in none before.
    assert "tensorflow==2.6." in fix
    assert "does not show which" in fix


def test_a_name_the_logs_own_tensorflow_lacks_is_judged_with_that_release() -> None:
    top = top_error(explained("Successfully installed tensorflow-2.5.0\n" + _RANDOM_FLIP))
    assert top.cause == "tf-too-old-for-code"
    assert "this TensorFlow (2.5.0)" in fix_text(top)
    assert "tensorflow==2.6." in fix_text(top)


def test_the_edit_keeping_the_release_is_the_other_candidates_fix_alone() -> None:
    report = explained("Successfully installed tensorflow-2.5.0\n" + _RANDOM_FLIP)
    top = top_error(report)
    other = next(x for x in report.findings if x.cause == "api-removed")
    # One fix each: the upgrade, and (the other candidate) the code without the name.
    assert "write" not in fix_text(top).lower()
    assert "write the code without" in fix_text(other)


def test_a_name_no_release_has_is_not_put_down_to_versions() -> None:
    log = _RANDOM_FLIP.replace("RandomFlip", "RandomFlipp")
    # scan's own verdict on a name the newest release lacks (check the name), no release.
    fixes = [fix_text(x) for x in explained(log).findings if x.fix is not None]
    assert fixes and not any("tensorflow==" in fix for fix in fixes)


def _tf1_error(message: str, head: str = "") -> str:
    return (
        head + "Traceback (most recent call last):\n"
        '  File "/home/u/project/train.py", line 9, in <module>\n'
        "    main()\n"
        f"AttributeError: {message}\n"
    )


@pytest.mark.parametrize(
    ("message", "name"),
    [
        pytest.param(
            "module 'tensorflow' has no attribute 'optimizers'", "tf.optimizers", id="top"
        ),
        # TensorFlow 1.13-1.15 print their generated API's module: the release shows itself.
        pytest.param(
            "module 'tensorflow._api.v1.random' has no attribute 'set_seed'",
            "tf.random.set_seed",
            id="v1-module",
        ),
        pytest.param(
            "module 'tensorflow_core._api.v1.summary' has no attribute 'create_file_writer'",
            "tf.summary.create_file_writer",
            id="v1-core-module",
        ),
    ],
)
def test_a_tensorflow_2_name_tensorflow_1_lacks_says_the_tensorflow_is_1x(
    message: str, name: str
) -> None:
    top = top_error(explained(_tf1_error(message)))
    assert top.cause == "api-removed"
    assert f"`{name}` is TensorFlow 2's" in top.detail
    fix = fix_text(top)
    # The newest line before Keras 3 (tf.keras Keras 2, as TensorFlow 2 code of that era
    # expects), never tf.compat.v1, which has no such name.
    assert "tensorflow==2.15." in fix
    assert "compat.v1" not in fix


def test_a_name_no_release_has_is_not_put_down_to_a_release() -> None:
    message = "module 'tensorflow' has no attribute 'Sessionn'"
    findings = explained(_tf1_error(message)).findings
    fixes = [fix_text(x) for x in findings if x.fix is not None]
    assert not any("is TensorFlow 2's" in x.detail for x in findings)
    assert not any("tensorflow==2.15." in fix for fix in fixes)


@pytest.mark.parametrize(
    ("message", "since"),
    [
        # The 1.x listings (1.9 to 1.15): tf.is_tensor from 1.14, tf.py_function from 1.13,
        # kept in TensorFlow 2: a TensorFlow without them is an older 1.x.
        pytest.param("module 'tensorflow' has no attribute 'is_tensor'", "1.14", id="is-tensor"),
        pytest.param("module 'tensorflow' has no attribute 'py_function'", "1.13", id="py-func"),
        pytest.param("module 'tensorflow' has no attribute 'function'", "1.14", id="function"),
    ],
)
def test_a_name_tensorflow_1_gained_says_the_tensorflow_is_an_older_1x(
    message: str, since: str
) -> None:
    top = top_error(explained(_tf1_error(message)))
    assert top.cause == "tf-too-old-for-code"
    assert "is TensorFlow 2's" not in top.detail
    fix = fix_text(top)
    assert f"from {since} on" in fix and "compat.v1" not in fix
    # Shown as a release that has it: missing for another reason, no claim of versions.
    shown = explained(_tf1_error(message, head=">>> tf.__version__\n'1.15.5'\n")).findings
    assert not any(f"from {since} on" in fix_text(x) for x in shown if x.fix is not None)


def test_a_name_a_1x_release_already_had_is_no_tensorflow_2_name() -> None:
    # tf.io.gfile is in 1.13 on: not TensorFlow 2's even though 2.0 has it.
    top = top_error(
        explained(_tf1_error("module 'tensorflow._api.v1.io' has no attribute 'gfile'"))
    )
    assert "is TensorFlow 2's" not in top.detail
    assert "from 1.13 on" in fix_text(top)


def test_a_tensorflow_2_name_missing_under_a_2x_release_is_not_put_down_to_tf1() -> None:
    log = _tf1_error(
        "module 'tensorflow' has no attribute 'optimizers'",
        "Successfully installed tensorflow-2.4.0\n",
    )
    assert not any("is TensorFlow 2's" in x.detail for x in explained(log).findings)


def test_pytest_reports_the_exception_of_a_failed_test_after_its_prefixes() -> None:
    text = (
        "E       AttributeError: module 'tensorflow' has no attribute 'Session'\n"
        "FAILED tests/test_model.py::test_fit - ModuleNotFoundError: No module named 'tf_keras'\n"
        "ERROR tests/test_data.py - ImportError: cannot import name 'x' from 'keras.utils'\n"
        "ERROR: No matching distribution found for tensorflow - ValueError: not an exception\n"
    )
    assert [(tb.type, tb.message) for tb in read_tracebacks(text)] == [
        ("AttributeError", "module 'tensorflow' has no attribute 'Session'"),
        ("ModuleNotFoundError", "No module named 'tf_keras'"),
        ("ImportError", "cannot import name 'x' from 'keras.utils'"),
    ]


def test_a_refused_wheel_file_is_asked_for_by_its_own_distribution_and_release() -> None:
    log = (
        "$ pip install tensorflow_text-2.12.1-cp39-cp39-macosx_11_0_arm64.whl\n"
        "ERROR: tensorflow_text-2.12.1-cp39-cp39-macosx_11_0_arm64.whl is not a supported "
        "wheel on this platform.\n"
    )
    fix = fix_text(top_error(explained(log)))
    assert "pip install tensorflow-text==2.12.1" in fix
    assert "tensorflow==" not in fix


@pytest.mark.parametrize(
    ("arch", "said"),
    [
        ("arm64", "installs only into a Python of that architecture"),
        # A universal2 wheel holds arm64 and x86_64 code: either Python takes it.
        ("universal2", "installs into an arm64 or an x86_64 Python"),
    ],
)
def test_a_refused_macos_wheel_is_told_what_its_architecture_tag_needs(
    arch: str, said: str
) -> None:
    wheel = f"zzkit-1.0.0-cp39-cp39-macosx_11_0_{arch}.whl"
    log = f"$ pip install {wheel}\nERROR: {wheel} is not a supported wheel on this platform.\n"
    fix = fix_text(top_error(explained(log)))
    assert said in fix
    assert arch != "universal2" or "only into a Python of that architecture" not in fix


def test_a_conda_builds_own_library_from_another_channel_is_one_channel_to_install() -> None:
    # A symbol of snappy's namespace missing from TensorFlow's framework library, in a conda
    # environment: conda-forge's build links snappy from the environment.
    log = (
        "ImportError: /home/u/miniconda3/envs/dl/lib/python3.11/site-packages/tensorflow/"
        "python/platform/../../libtensorflow_framework.so.2: undefined symbol: "
        "_ZTIN6snappy4SinkE\n"
    )
    top = top_error(explained(log))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "libsnappy" in fix and "channel_priority strict" in fix and "conda-forge" in fix
    missing = (
        '  File "/opt/conda/envs/t/lib/python3.10/site-packages/tensorflow/python/'
        'pywrap_tensorflow.py", line 62, in <module>\n'
        "ImportError: libflatbuffers.so.2: cannot open shared object file: No such file or "
        "directory\n"
    )
    assert "libflatbuffers" in fix_text(top_error(explained(missing)))


def test_the_same_symbol_outside_conda_gets_the_loaders_general_fix() -> None:
    log = (
        "ImportError: /home/u/venv/lib/python3.11/site-packages/tensorflow/libtensorflow_"
        "framework.so.2: undefined symbol: _ZTIN6snappy4SinkE\n"
    )
    fix = fix_text(top_error(explained(log)))
    assert "conda" not in fix
    # TensorFlow's own library is never in the loader's cache: no ldconfig for it.
    assert "ldconfig" not in fix and "LD_DEBUG=libs" in fix


def test_a_name_later_lines_removed_and_the_oldest_lacked_names_both_ways_out() -> None:
    # tf.keras.layers.experimental.preprocessing: in the listings from 2.1 until Keras 3
    # (2.16); with no TensorFlow shown, the error is also what TensorFlow 2.0 raises.
    log = (
        "ImportError: cannot import name 'preprocessing' from "
        "'tensorflow.keras.layers.experimental'\n"
    )
    top = top_error(explained(log))
    assert "from 2.1 until 2.16" in top.detail
    assert "older than 2.1" in fix_text(top)
    # Shown a TensorFlow of the Keras 3 lines, the one way out is said alone.
    shown = explained("Successfully installed tensorflow-2.16.1\n" + log)
    assert all("older than 2.1" not in fix_text(x) for x in shown.findings if x.fix is not None)


def test_a_companion_imported_above_an_error_without_frames_is_the_caller() -> None:
    log = (
        ">>> import tensorflow_addons as tfa\n"
        "AttributeError: module 'tensorflow.keras.activations' has no attribute 'gelu'\n"
    )
    report = explained(log)
    top = top_error(report)
    assert top.cause == "companion-mismatch"
    assert "tensorflow-addons" in top.summary
    assert [x.cause for x in report.findings if x.severity.value == "error"] == [
        "companion-mismatch"
    ]
    # The user's own import of TensorFlow is no caller of another release.
    own = explained(
        ">>> import tensorflow as tf\n"
        "AttributeError: module 'tensorflow.keras.activations' has no attribute 'gelu'\n"
    )
    assert all(x.cause != "companion-mismatch" for x in own.findings)


def test_the_release_that_brings_a_name_is_installed_by_the_distribution_it_publishes() -> None:
    # tensorflow-gpu ended with 2.11: the line that brings Lion (2.13) is `tensorflow`.
    log = (
        "Successfully installed tensorflow-gpu-2.10.0\n"
        "AttributeError: module 'tensorflow.keras.optimizers' has no attribute 'Lion'\n"
    )
    fix = fix_text(top_error(explained(log)))
    assert "tensorflow-gpu==2.1" not in fix
    assert "tensorflow==2.13." in fix


def test_a_protobuf_symbol_is_read_by_its_second_name_and_another_packages_library_is_not() -> None:
    protobuf = (
        "ImportError: /opt/conda/envs/x/lib/python3.10/site-packages/tensorflow/libtensorflow_"
        "framework.so.2: undefined symbol: _ZNK6google8protobuf7Message11GetTypeNameEv\n"
    )
    assert "libprotobuf" in fix_text(top_error(explained(protobuf)))
    # OpenCV's own missing libpng in a conda environment holding TensorFlow is no sign of a
    # conda TensorFlow build.
    cv2 = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/miniconda3/envs/cv/lib/python3.10/site-packages/cv2/__init__.py", line '
        "8, in <module>\n"
        "ImportError: libpng16.so.16: cannot open shared object file: No such file or directory\n"
        '  File "/home/u/miniconda3/envs/cv/lib/python3.10/site-packages/tensorflow/__init__.py"\n'
    )
    assert all("conda build" not in fix_text(x) for x in explained(cv2).findings if x.fix)


def test_a_companion_built_for_a_newer_macos_is_pointed_at_older_releases_or_macos() -> None:
    lib = "/Users/u/venv/lib/python3.9/site-packages/tensorflow_io/python/ops/libtensorflow_io.so"
    log = (
        f"NotImplementedError: unable to open file: libtensorflow_io.so, from paths: ['{lib}']\n"
        f"    caused by: ['dlopen({lib}, 6): Library not loaded: /System/Library/Frameworks/"
        f"AVFAudio.framework/Versions/A/AVFAudio\\n  Referenced from: {lib}']\n"
    )
    fix = fix_text(top_error(explained(log)))
    assert "sw_vers -productVersion" in fix and "older tensorflow-io release" in fix


def test_an_import_of_a_general_package_above_an_error_is_no_caller() -> None:
    log = ">>> import numpy as np\nAttributeError: module 'tensorflow' has no attribute 'contrib'\n"
    report = explained(log)
    assert all("numpy" not in x.summary for x in report.findings)


def test_the_users_own_import_of_tensorflow_with_any_blanks_is_no_other_caller() -> None:
    log = (
        ">>> import  tensorflow as tf\n"
        "AttributeError: module 'tensorflow.keras.layers' has no attribute 'RandomFlip'\n"
    )
    assert "tensorflow==2.6." in fix_text(top_error(explained(log)))


def test_a_versioned_icu_namespace_and_an_absurd_mangled_length_are_read_safely() -> None:
    icu = (
        "ImportError: /opt/conda/envs/x/lib/python3.10/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: undefined symbol: _ZN6icu_7313UnicodeStringC1Ev\n"
    )
    assert "libicu" in fix_text(top_error(explained(icu)))
    absurd = (
        "ImportError: /x/site-packages/tensorflow/python/_pywrap_tensorflow_internal.so: "
        "undefined symbol: _ZN" + "1" * 5000 + "\n"
    )
    assert explained(absurd).findings  # read, not raised


def test_import_statements_keep_their_names_and_refuse_prose() -> None:
    text = (
        "from a.b import (c, d as e)\n"
        "from a import b  # x\n"
        "from a import " + " " * 400 + "!\n"
        "In [3]: from a import *\n"
    )
    assert [code for _, code in import_statements(text, 10)] == [
        "from a.b import (c, d as e)",
        "from a import b",
        "from a import *",
    ]


def test_the_import_above_an_exception_is_read_past_a_cut() -> None:
    for cut in ("...", "\u2026", "[...]"):
        text = f">>> import tensorflow as tf\n{cut}\n"
        text += "AttributeError: module 'numpy' has no attribute 'x'\n"
        (tb,) = read_tracebacks(text)
        assert tb.statement == "import tensorflow as tf", cut
    # Any other line between them: the statement is not the one that raised it.
    text = ">>> import tensorflow\n>>> run()\nAttributeError: module 'numpy' has no attribute 'x'\n"
    assert read_tracebacks(text)[0].statement == ""


def test_a_removed_numpy_name_raised_by_an_import_is_the_librarys_not_the_users() -> None:
    log = (
        "$ python\n>>> import tensorflow\n...\n"
        "AttributeError: module 'numpy' has no attribute 'object'.\n"
        "`np.object` was a deprecated alias for the builtin `object`.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "dependency-out-of-range"
    assert "numpy<1.24" in fix_text(top)
    # The same message under the user's own statement: their code, fixed in the code.
    own = ">>> x = np.object\nAttributeError: module 'numpy' has no attribute 'object'.\n"
    assert top_error(explained(own)).cause != "dependency-out-of-range"


def test_a_private_name_missing_with_no_frame_is_the_package_the_log_shows_imported() -> None:
    log = (
        "AttributeError: module 'tensorflow.python.framework.ops' has no attribute '_Tensorish'\n"
        "_____ TestModels.test_dense[keras] _____\n"
        "keras = <module 'keras' from '/usr/lib/python3.6/site-packages/keras/__init__.py'>\n"
    )
    top = top_error(explained(log))
    assert top.cause == "keras-version"
    assert "site-packages/keras/__init__.py" in top.detail
    # The user's own module printed from a checkout is not a package built for TensorFlow.
    own = log.replace(
        "<module 'keras' from '/usr/lib/python3.6/site-packages/keras/__init__.py'>",
        "<module 'mymodels' from '/home/user/proj/mymodels/__init__.py'>",
    )
    assert all(x.cause != "keras-version" for x in explained(own).findings)


def test_module_objects_are_read_with_their_files() -> None:
    text = "x = <module 'keras' from '/a/site-packages/keras/__init__.py'>\n" * 2
    assert module_origins(text) == [("keras", "/a/site-packages/keras/__init__.py")]
    assert module_origins("<module 'sys' (built-in)>") == []


def test_a_name_missing_from_a_module_that_imported_is_not_the_module_removed() -> None:
    # A rule says tensorflow.python.keras no longer works beside Keras 3; here it imported (the
    # path shows its file) and only the name is gone from it.
    log = (
        "ImportError: cannot import name 'LayerNormalization' from 'tensorflow.python.keras."
        "layers' (/home/user/venv/lib/python3.8/site-packages/tensorflow/python/keras/layers/"
        "__init__.py)\n"
    )
    top = top_error(explained(log))
    assert top.cause == "api-removed"
    assert "tensorflow.keras" in fix_text(top)
    # The module itself missing is no Keras 3 matter either: every wheel from 1.4 to 2.21
    # ships TensorFlow's own copy, so the TensorFlow is older than the code.
    gone = "ModuleNotFoundError: No module named 'tensorflow.python.keras'\n"
    assert top_error(explained(gone)).cause == "api-removed"


def test_a_submodule_missing_from_a_module_still_shipped_is_that_submodules_absence() -> None:
    # tensorflow.python.keras still ships (a rule says it no longer works beside Keras 3):
    # Python names the submodule, so the copy imported and lacks only that.
    pruned = "ModuleNotFoundError: No module named 'tensorflow.python.keras.preprocessing'\n"
    assert top_error(explained(pruned)).cause == "api-removed"
    # A removed module keeps its own cause: TensorFlow 2.0's forwarding package names the
    # deeper module when tensorflow.contrib itself is gone.
    gone = "ModuleNotFoundError: No module named 'tensorflow.contrib.seq2seq'\n"
    assert top_error(explained(gone)).cause == "tf-contrib-removed"


def test_a_library_built_on_tensorflow_missing_a_name_as_it_imports_is_of_another_release() -> None:
    # Python 2 names no module in the message; the import above names the library.
    log = "import sonnet\nAttributeError: 'module' object has no attribute 'nest'\n"
    (top,) = [x for x in explained(log).findings if x.cause == "companion-mismatch"]
    # Python 2 names no module: the likely reading, as a warning that says so.
    assert top.severity.value == "warning"
    assert "dm-sonnet" in top.summary and "does not name" in top.detail
    # A package that is not written against TensorFlow says nothing of TensorFlow.
    other = "import pandas\nAttributeError: 'module' object has no attribute 'nest'\n"
    assert all(x.cause != "companion-mismatch" for x in explained(other).findings)


def test_a_keras_2_module_that_is_there_without_a_name_is_not_keras_3() -> None:
    # keras.engine is Keras 2's layout, gone in Keras 3; that it is there, lacking Layer,
    # says this Keras is a Keras 2.
    log = "AttributeError: module 'keras.engine' has no attribute 'Layer'\n"
    top = top_error(explained(log))
    assert top.cause == "api-removed"
    assert "keras.layers" in fix_text(top)
    # The Keras 3 reading stays where the module is not shown to be there.
    gone = "from keras.engine import Layer\nModuleNotFoundError: No module named 'keras.engine'\n"
    assert "Layer" not in top_error(explained(gone)).summary


def test_a_submodule_of_a_keras_2_module_missing_shows_its_parent_imported() -> None:
    # Python names the first module of a dotted import it did not find: keras.engine.topology
    # missing says keras.engine imported, which no Keras 3 has: a Keras 2 without topology.
    log = (
        "from keras.engine.topology import Layer\n"
        "ModuleNotFoundError: No module named 'keras.engine.topology'\n"
    )
    found = explained(log).findings
    assert "keras3-behaviour-change" not in {x.cause for x in found}
    assert top_error(explained(log)).cause == "api-removed"


def test_what_is_shown_but_is_not_evidence_of_the_caller_is_not_blamed() -> None:
    # A printed numpy module says nothing of who asked TensorFlow for a private name.
    log = (
        "AttributeError: module 'tensorflow.python.framework.ops' has no attribute '_Tensorish'\n"
        "np = <module 'numpy' from '/usr/lib/python3.8/site-packages/numpy/__init__.py'>\n"
    )
    assert all("numpy" not in x.summary for x in explained(log).findings)
    # Importing NumPy runs no other library's code: the removed name is the user's.
    own = ">>> import numpy as np\n...\nAttributeError: module 'numpy' has no attribute 'float'.\n"
    assert all("numpy uses" not in x.summary for x in explained(own).findings)
    # TensorFlow 1.x's own contrib op library (tensorflow_core) is no add-on.
    core = (
        "NotFoundError: C:\\Python37\\lib\\site-packages\\tensorflow_core\\contrib\\resampler"
        "\\python\\ops\\_resampler_ops.so not found\n"
    )
    assert all(x.cause != "companion-mismatch" for x in explained(core).findings)
    # An empty namespace directory left behind is not the module of a Keras 2.
    left = "ImportError: cannot import name 'Layer' from 'keras.engine' (unknown location)\n"
    assert all("this Keras 2" not in x.detail for x in explained(left).findings)


def test_a_pin_without_a_patch_is_its_first_release() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow==1.10 "
        "(from versions: 1.13.1, 1.14.0)\nERROR: No matching distribution found for "
        "tensorflow==1.10\n"
    )
    assert "Python 2.7, 3.3 to 3.6 on Linux x86-64" in fix_text(top_error(explained(log)))


def test_a_colab_path_beside_the_cuda_image_path_is_no_container() -> None:
    line = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
        "library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such "
        "file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64\n"
    )
    assert any(x.cause == "container-no-gpu" for x in explained(line).findings)
    colab = line + (
        "Traceback (most recent call last):\n"
        '  File "/content/train.py", line 3, in <module>\n'
        "    model.fit(x)\n"
        "RuntimeError: no GPU\n"
    )
    assert all(x.cause != "container-no-gpu" for x in explained(colab).findings)


def _no_keras(statement: str, frames: str = "", head: str = "") -> str:
    return (
        head + "Traceback (most recent call last):\n"
        '  File "/home/u/project/train.py", line 3, in <module>\n'
        f"    {statement}\n" + frames + "ModuleNotFoundError: No module named 'keras'\n"
    )


_LAZY = (
    '  File "/home/u/venv/lib/python3.9/site-packages/tensorflow/python/util/lazy_loader.py", '
    "line 62, in _load\n"
    "    module = importlib.import_module(self.__name__)\n"
)


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(_no_keras("from tensorflow.keras.layers import Dense", _LAZY), id="lazy"),
        pytest.param(_no_keras("model = tf.keras.Sequential()"), id="tf.keras"),
        pytest.param(_no_keras("import tensorflow_addons as tfa"), id="companion"),
    ],
)
def test_keras_missing_on_the_way_through_tensorflow_is_tensorflows_dependency(log: str) -> None:
    top = top_error(explained(log))
    assert top.cause == "dependency-missing"
    assert "keras==2.X.*" in fix_text(top)


def test_keras_missing_under_a_shown_tensorflow_installs_the_keras_of_its_line() -> None:
    log = _no_keras(
        "from tensorflow.keras.layers import Dense",
        _LAZY,
        "Successfully installed tensorflow-2.10.1\n",
    )
    top = top_error(explained(log))
    assert top.cause == "dependency-missing"
    assert 'keras<2.11,>=2.10.0"' in fix_text(top)


@pytest.mark.parametrize(
    "log",
    [
        # The user's own import of the keras package: no TensorFlow on the way (the package
        # is not installed, not TensorFlow's dependency).
        pytest.param(_no_keras("import keras"), id="own-import"),
        # Before 2.6 tf.keras was TensorFlow's own code.
        pytest.param(
            _no_keras("import tensorflow_addons", head="Successfully installed tensorflow-2.4.1\n"),
            id="tf-2.4",
        ),
    ],
)
def test_keras_missing_elsewhere_is_not_tensorflows_dependency(log: str) -> None:
    assert not any(x.cause == "dependency-missing" for x in explained(log).findings)


@pytest.mark.parametrize(
    ("head", "wanted"),
    [
        pytest.param("", "keras==2.X.*", id="tensorflow-unknown"),
        pytest.param("Successfully installed tensorflow-2.12.0\n", "keras<2.13", id="tf-2.12"),
    ],
)
def test_the_codes_own_import_of_a_missing_keras_is_keras_not_installed(
    head: str, wanted: str
) -> None:
    top = top_error(explained(_no_keras("import keras", head=head)))
    assert top.cause == "package-not-installed"
    assert wanted in fix_text(top)


@pytest.mark.parametrize(
    ("message", "cause"),
    [
        # Python 2 prints the module bare; a known distribution's module is still read.
        pytest.param("ImportError: No module named tensorflow", "tf-not-installed", id="py2-tf"),
        pytest.param("ImportError: No module named cv2", "package-not-installed", id="py2-cv2"),
        pytest.param(
            "I got `No module named tensorflow` errors", "tf-not-installed", id="backticked"
        ),
    ],
)
def test_an_unquoted_missing_module_is_read(message: str, cause: str) -> None:
    assert top_error(explained(message + "\n")).cause == cause


@pytest.mark.parametrize(
    "message",
    [
        # Python 2's tail of a dotted import (import tensorflow.contrib.slim): no package.
        "ImportError: No module named slim",
        "ImportError: No module named tensorflow.contrib",
        "ImportError: No module named tensorflow_hubx",
    ],
)
def test_an_unquoted_name_no_distribution_installs_is_not_called_missing(message: str) -> None:
    found = explained(message + "\n").findings
    assert not any(x.cause in ("tf-not-installed", "package-not-installed") for x in found)


def test_an_ipython_statement_cut_after_import_still_names_its_module() -> None:
    text = (
        "ModuleNotFoundError                       Traceback (most recent call last)\n"
        "---> 11 from tensorflow_addons.layers import\n"
        "ModuleNotFoundError: No module named 'keras'\n"
    )
    (tb,) = read_tracebacks(text)
    assert tb.statement == "from tensorflow_addons.layers import"


@pytest.mark.parametrize(
    ("log", "target"),
    [
        pytest.param(
            "dyld: Symbol not found: ____chkstk_darwin (which was built for Mac OS X 10.15)\n",
            "macOS 10.15 or newer",
            id="built-for",
        ),
        pytest.param(
            "ImportError: dlopen(/Users/u/venv/lib/python2.7/site-packages/tensorflow/python/"
            "_pywrap_tensorflow.so, 2): Symbol not found: ___sincos_stret\n"
            "  Referenced from: /Users/u/venv/lib/python2.7/site-packages/tensorflow/python/"
            "_pywrap_tensorflow.so\n"
            "  Expected in: /usr/lib/libSystem.B.dylib\n",
            "the macOS the binary was built for",
            id="system-symbol",
        ),
        pytest.param(
            "dyld: lazy symbol binding failed: Symbol not found: _clock_gettime\n"
            "  Referenced from: /Users/u/lib/libtensorflow_framework.so (which was built for "
            "Mac OS X 10.12)\n"
            "  Expected in: /usr/lib/libSystem.B.dylib\n",
            "macOS 10.12 or newer",
            id="referenced-built-for",
        ),
    ],
)
def test_a_system_symbol_an_older_macos_lacks_is_macos_too_old(log: str, target: str) -> None:
    top = top_error(explained(log))
    assert top.cause == "macos-too-old"
    assert target in fix_text(top)


def test_a_built_for_note_on_a_plugins_missing_symbol_is_no_old_macos() -> None:
    # dyld names the referencing binary's target for any missing symbol: a symbol TensorFlow's
    # own library lacks (a plugin of another release) is not the system's.
    log = (
        "dlopen(/Users/u/env/lib/python3.11/site-packages/tensorflow-plugins/"
        "libmetal_plugin.dylib, 0x0006): Symbol not found: __ZN3tsl8internal10LogMessageC1EPKcii\n"
        "  Referenced from: /Users/u/env/lib/python3.11/site-packages/tensorflow-plugins/"
        "libmetal_plugin.dylib (which was built for Mac OS X 12.0)\n"
        "  Expected in: /Users/u/env/lib/python3.11/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so\n"
    )
    assert not any(x.cause == "macos-too-old" for x in explained(log).findings)


_PIP_2024 = (
    "Using pip 20.2.4 from /Users/u/env/lib/python3.8/site-packages/pip (python 3.8)\n"
    "ERROR: Could not find a version that satisfies the requirement tensorflow (from versions: "
    "none)\nERROR: No matching distribution found for tensorflow\n"
)


def test_a_pip_before_macos_11s_tags_listing_no_tensorflow_is_pip_too_old() -> None:
    # Python 3.8 has TensorFlow wheels on macOS; pip 20.2 reads no macOS 11 tag.
    top = top_error(explained(_PIP_2024))
    assert top.cause == "pip-too-old"
    assert "20.3" in fix_text(top) and "install --upgrade pip" in fix_text(top)


def test_on_linux_the_same_refusal_is_not_put_down_to_macos_tags() -> None:
    log = _PIP_2024.replace("/Users/u/", "/home/u/")
    assert not any("macOS 11" in fix_text(x) for x in explained(log).findings if x.fix)


def test_multi_backend_keras_refusing_tensorflow_2_installs_the_keras_that_works_with_it() -> None:
    log = (
        "Successfully installed tensorflow-2.1.0\n"
        "RuntimeError: It looks like you are trying to use a version of multi-backend Keras that "
        "does not support TensorFlow 2.0. We recommend using `tf.keras`, or alternatively, "
        "downgrading to TensorFlow 1.14.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "keras-version"
    # The standalone keras rows: 2.3 works with TensorFlow 1.13 to 2.2.
    assert 'keras==2.3.*"' in fix_text(top)


@pytest.mark.parametrize(
    ("code", "attr", "cause"),
    [
        pytest.param(
            "x = tf.placeholder(tf.float32, [None, 784])",
            "placeholder",
            "api-moved-to-compat-v1",
            id="placeholder",
        ),
        pytest.param("slim = tf.contrib.slim", "contrib", "tf-contrib-removed", id="contrib"),
    ],
)
def test_python_2s_words_for_a_missing_attribute_are_read_with_the_line_that_raised(
    code: str, attr: str, cause: str
) -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 12, in <module>\n'
        f"    {code}\n"
        f"AttributeError: 'module' object has no attribute '{attr}'\n"
    )
    assert top_error(explained(log)).cause == cause


def test_python_2s_words_without_the_line_that_raised_say_nothing_of_an_api() -> None:
    log = "AttributeError: 'module' object has no attribute 'placeholder'\n"
    assert not any(x.cause.startswith("api-") for x in explained(log).findings)


def test_an_op_a_tpu_worker_lacks_is_a_tpu_of_another_tensorflow() -> None:
    log = (
        "NotFoundError: 'AnonymousSeedGenerator' is neither a type of a primitive operation nor "
        "a name of a function registered in binary running on n-c0cd0e2d-w-0.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "tpu-version-mismatch"
    assert "tensorflowVersion" in fix_text(top)
    # The same words about a host that is no TPU worker are not put down to a TPU.
    other = log.replace("n-c0cd0e2d-w-0", "my-laptop")
    assert not any(x.cause == "tpu-version-mismatch" for x in explained(other).findings)


def test_a_tf_variable_method_missing_from_a_keras_3_variable_is_keras_3() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 20, in <module>\n'
        "    m.save('/tmp/model.ckpt')\n"
        "AttributeError: 'Variable' object has no attribute 'read_value'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "keras3-behaviour-change"
    assert "variable.value" in fix_text(top)


def test_get_shape_missing_from_a_keras_tensor_is_keras_3() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "model.py", line 20, in build\n'
        "    n = int(x.get_shape()[-1])\n"
        "AttributeError: 'KerasTensor' object has no attribute 'get_shape'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "keras3-behaviour-change"
    assert "x.shape" in fix_text(top)
    # Another member no rule knows gone, or get_shape missing from another class: no reading.
    for other in (
        "'KerasTensor' object has no attribute 'op'",
        "'Foo' object has no attribute 'get_shape'",
    ):
        causes = {x.cause for x in explained(f"AttributeError: {other}\n").findings}
        assert "keras3-behaviour-change" not in causes


def test_a_packages_own_name_missing_in_a_notebook_is_a_kernel_to_restart() -> None:
    log = (
        "ImportError                               Traceback (most recent call last)\n"
        "[/usr/local/lib/python3.11/dist-packages/numpy/_core/strings.py]"
        "(https://localhost:8080/#) in <module>()\n"
        "---> 14 from numpy._core.umath import (\n"
        "\n"
        "ImportError: cannot import name '_center' from 'numpy._core.umath' "
        "(/usr/local/lib/python3.11/dist-packages/numpy/_core/umath.py)\n"
    )
    top = top_error(explained(log))
    assert top.cause == "kernel-restart-needed"
    # The same refusal outside a notebook is no kernel to restart.
    plain = (
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.11/dist-packages/numpy/_core/strings.py", line 14, in '
        "<module>\n"
        "    from numpy._core.umath import (\n"
        "ImportError: cannot import name '_center' from 'numpy._core.umath'\n"
    )
    assert not any(x.cause == "kernel-restart-needed" for x in explained(plain).findings)


def test_a_flex_model_under_a_runtime_without_the_flex_delegate() -> None:
    log = (
        "ERROR: Select TensorFlow op(s), included in the given model, is(are) not supported by "
        "this interpreter. Make sure you apply/link the Flex delegate before inference.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "op-not-registered"
    assert "Flex delegate" in fix_text(top) and "TFLITE_BUILTINS" in fix_text(top)


def test_a_refused_tflite_runtime_wheel_is_read_from_its_tags() -> None:
    log = (
        "ERROR: tflite_runtime-2.6.0-cp39-none-linux_aarch64.whl is not a supported wheel on "
        "this platform.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "wheel-mismatch"
    assert "CPython 3.9" in fix_text(top) and "tflite-runtime==2.6.0" in fix_text(top)


def test_nccls_plugin_probe_is_no_missing_library() -> None:
    log = (
        "Unable to load libnccl-net.so : libnccl-net.so: cannot open shared object file: No such "
        "file or directory\nNCCL version 2.3.7+cuda8.0\n"
    )
    assert all(x.severity is Severity.INFO for x in explained(log).findings)


def test_horovod_built_for_another_tensorflow_is_installed_again_without_the_cache() -> None:
    log = (
        "horovod.common.exceptions.HorovodVersionMismatchError: Framework tensorflow installed "
        "with version 2.14.0 but found version 2.12.0.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "companion-mismatch"
    assert "--no-cache-dir --force-reinstall --no-deps horovod" in fix_text(top)


def test_the_tfjs_converter_refusing_newer_ops_is_an_older_converter() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/venv/lib/python3.6/site-packages/tensorflowjs/converters/'
        'tf_saved_model_conversion_v2.py", line 126, in optimize_graph\n'
        "    ', '.join(unsupported))\n"
        "ValueError: Unsupported Ops in the model before optimization\nFusedBatchNormV3\n"
    )
    top = top_error(explained(log))
    assert top.cause == "companion-mismatch"
    assert "upgrade tensorflowjs" in fix_text(top) and "pip show tensorflowjs" in fix_text(top)


def test_a_narrow_unicode_python_2_wheel_on_linux_names_the_wide_abi() -> None:
    log = (
        "tensorflow-1.3.0-cp27-cp27m-manylinux1_x86_64.whl is not a supported wheel on this "
        "platform.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "wheel-mismatch"
    assert "cp27mu" in fix_text(top)
    wide = log.replace("cp27m-", "cp27mu-")
    assert "narrow-Unicode" not in fix_text(top_error(explained(wide)))


@pytest.mark.parametrize(
    ("message", "public"),
    [
        pytest.param(
            "AttributeError: module 'keras.preprocessing.sequence' has no attribute "
            "'pad_sequences'",
            "from keras.utils import pad_sequences",
            id="pad-sequences",
        ),
        pytest.param(
            "ImportError: cannot import name 'img_to_array' from 'keras.preprocessing.image'",
            "from keras.utils import img_to_array",
            id="img-to-array",
        ),
    ],
)
def test_a_name_keras_2_moved_between_its_own_modules_is_imported_by_its_public_name(
    message: str, public: str
) -> None:
    top = top_error(explained(message + "\n"))
    assert top.cause == "api-removed"
    assert public in fix_text(top)


@pytest.mark.parametrize("keras", ["3.3.3", "2.15.0", ""])
def test_a_name_missing_from_keras_src_is_not_said_to_have_moved_among_keras_2_6_modules(
    keras: str,
) -> None:
    # keras.src is Keras 2.13-2.15's tree and Keras 3's (whose keras/src/backend/ package holds
    # no flatten): not one of the 2.6-2.12 modules whose names moved to a public home.
    shown = f"$ pip show keras\nName: keras\nVersion: {keras}\n" if keras else ""
    log = shown + "AttributeError: module 'keras.src.backend' has no attribute 'flatten'\n"
    report = explained(log)
    top = report.findings[0]
    assert top.cause == "api-removed"
    assert top.severity is Severity.WARNING
    assert "`keras.src.backend.flatten` is not in the installed Keras" in fix_text(top)
    assert not any(
        "from keras.backend import flatten" in fix_text(x) for x in report.findings if x.fix
    )
    assert not any("2.6 to 2.12" in x.detail for x in report.findings)


def test_a_name_that_stayed_in_its_public_module_is_not_said_to_have_moved() -> None:
    report = explained("AttributeError: module 'keras.utils' has no attribute 'get_file'\n")
    assert not any("public name" in fix_text(x) for x in report.findings if x.fix)


_SESSION_TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/runner/work/x/x/t.py", line 20, in <module>\n'
    "    self._session = tf.Session()\n"
    "AttributeError: module 'tensorflow' has no attribute 'Session'\n"
)


def test_github_actions_timestamps_before_every_line_are_read_through() -> None:
    log = "".join(f"2023-01-05T10:00:01.1234567Z {line}\n" for line in _SESSION_TB.splitlines())
    assert top_error(explained(log)).cause == "api-moved-to-compat-v1"


def test_a_ci_pages_line_numbers_and_lost_indentation_are_read_through() -> None:
    log = "".join(
        f"{1439 + i} {line.strip()}\n" for i, line in enumerate(_SESSION_TB.splitlines())
    ).replace("module 'tensorflow' has", "'module' object has")
    # Python 2's words: the line that raised (now flush left) says which module.
    assert top_error(explained(log)).cause == "api-moved-to-compat-v1"


def test_numbers_that_do_not_count_up_stay_in_the_text() -> None:
    text = "10 epochs done\n3 layers frozen\n7 files\n"
    assert clean(text) == text
    # A numbered list, or a table of numbers, that holds no log: its numbers stay.
    for kept in ("1 install cuda\n2 reboot\n3 run\n4 test\n", "0 0.693\n1 0.54\n2 0.43\n3 0.41\n"):
        assert clean(kept) == kept
    # Numbers counting up on lines that are not next to each other are no log view's.
    apart = "100 first\n101 second\n102 ERROR third\n\nunrelated\n103 warnings emitted\n"
    assert clean(apart) == apart
    # A log view: the numbering goes on over an empty line (a bare number) and indentation.
    view = (
        '10 Traceback (most recent call last):\n11   File "a.py", line 1, in <module>\n'
        "12     import tensorflow\n13\n14 ImportError: x\n"
    )
    assert clean(view) == (
        'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n'
        "    import tensorflow\n\nImportError: x\n"
    )


def test_libcuda_missing_beside_a_loaded_kernel_module_is_the_drivers_libraries() -> None:
    log = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
        "library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such "
        "file or directory\n"
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:200] libcuda reported version "
        "is: NOT_FOUND: was unable to find libcuda.so DSO loaded into this program\n"
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:204] kernel reported version is: "
        "460.91.3\n"
    )
    causes_seen = [x.cause for x in explained(log).findings]
    assert "driver-libraries-missing" in causes_seen and "driver-not-loaded" not in causes_seen
    without = log.rsplit("I tensorflow", 1)[0]
    assert "driver-libraries-missing" not in [x.cause for x in explained(without).findings]


def test_dylds_referenced_from_note_on_any_missing_symbol_is_no_old_macos() -> None:
    log = (
        "ImportError: dlopen(/Users/u/env/lib/python3.8/site-packages/h5py/_errors.so, 2): "
        "Symbol not found: _H5E_ALREADYEXISTS_g\n"
        "  Referenced from: /Users/u/env/lib/python3.8/site-packages/h5py/_errors.so (which was "
        "built for Mac OS X 10.9)\n"
        "  Expected in: /Users/u/env/lib/libhdf5.103.dylib\n"
    )
    assert not any(x.cause == "macos-too-old" for x in explained(log).findings)


def test_a_pin_is_moved_only_to_a_line_with_wheels_for_the_logs_python() -> None:
    log = (
        '  File "/home/u/env/lib/python3.7/site-packages/pip/_internal/x.py", line 1, in f\n'
        "The conflict is caused by:\n"
        "    The user requested protobuf==3.20.3\n"
        "    tensorflow 2.9.0 depends on protobuf<3.20 and >=3.9.2\n"
    )
    # 2.12, whose range admits 3.20.3, has no wheel for Python 3.7.
    fix = fix_text(top_error(explained(log)))
    assert '"protobuf==3.20.3"' not in fix


def test_tensorflow_itself_missing_under_pkg_resources_is_no_companion_mismatch() -> None:
    log = (
        "pkg_resources.DistributionNotFound: The 'tensorflow>=2.4' distribution was not found "
        "and is required by tensorflow-text\n"
    )
    assert not any(x.cause == "companion-mismatch" for x in explained(log).findings)


def test_a_namespace_packages_missing_name_in_a_notebook_is_no_kernel_to_restart() -> None:
    log = (
        "ImportError                               Traceback (most recent call last)\n"
        "[/usr/local/lib/python3.10/dist-packages/google/protobuf/descriptor.py]"
        "(https://localhost:8080/#) in <module>()\n"
        "---> 47   from google.protobuf.pyext import _message\n"
        "\n"
        "ImportError: cannot import name '_message' from 'google.protobuf.pyext'\n"
    )
    assert not any(x.cause == "kernel-restart-needed" for x in explained(log).findings)


def test_a_companions_op_on_a_tpu_worker_is_no_version_skew() -> None:
    log = (
        "NotFoundError: 'SentencepieceOp' is neither a type of a primitive operation nor a name "
        "of a function registered in binary running on n-c0cd0e2d-w-0.\n"
    )
    assert top_error(explained(log)).cause == "op-not-registered"


def test_a_cuda_library_the_loader_did_not_find_is_looked_for_before_it_is_installed() -> None:
    log = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
        "library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object "
        "file: No such file or directory\n"
    )
    fix = fix_text(top_error(explained(log)))
    assert "LD_LIBRARY_PATH" in fix and "ldconfig -p | grep" in fix
    assert "conda" not in fix  # nothing says this Python is conda's


def test_a_tensorflow_library_of_another_architecture_is_rebuilt_not_reinstalled() -> None:
    log = "deps/libtensorflow/lib/libtensorflow.so: error adding symbols: File in wrong format\n"
    top = top_error(explained(log))
    assert top.cause == "wheel-mismatch"
    assert "file deps/libtensorflow/lib/libtensorflow.so" in fix_text(top)
    assert "pip" not in fix_text(top)  # the C library is no wheel
    wheel = (
        "ImportError: /home/u/env/lib/python3.8/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: wrong ELF class: ELFCLASS64\n"
    )
    # A wheel's library: a new environment of a native interpreter, the wheel installed
    # there, not a reinstall by the Python that runs as the other architecture.
    shown = fix_text(top_error(explained(wheel)))
    assert "--force-reinstall" not in shown
    assert ".venv/bin/python -m pip install tensorflow" in shown.splitlines(), shown


def test_a_pinned_nvidia_jetson_build_is_looked_up_on_nvidias_index() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorflow==1.15.5+nv21.7 (from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow==1.15.5+nv21.7\n"
    )
    top = top_error(explained(log))
    assert top.cause == "tf-release-not-for-python"
    assert "developer.download.nvidia.com/compute/redist/jp/" in fix_text(top)
    assert "64-bit" not in fix_text(top)


def test_a_flush_left_frame_takes_no_pytest_error_or_log_line_as_its_source() -> None:
    text = (
        'File "<frozen runpy>", line 198, in _run_module_as_main\n'
        "2023-01-01 10:00:00.000000: I tensorflow/core/x.cc:1] foo\n"
        "ModuleNotFoundError: No module named 'x'\n"
    )
    (tb,) = read_tracebacks(text)
    assert tb.frames[0].code == ""


def test_a_kernel_module_beside_a_driver_nvidia_smi_cannot_reach_is_not_put_down_to_libcuda() -> (
    None
):
    log = (
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
        "that the latest NVIDIA driver is installed and running.\n"
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:204] kernel reported version is: "
        "460.91.3\n"
    )
    assert not any(x.cause == "driver-libraries-missing" for x in explained(log).findings)


def test_installs_from_inside_a_kernel_are_read_with_their_names_only() -> None:
    from tfdoctor.evidence.packages import read_kernel_installs

    text = (
        'In [3]: %pip install -U "tf-keras>=2.16" numpy<2 -r req.txt\n'
        "!conda install -c conda-forge cudatoolkit=11.2 -y\n"
        "$ pip install scipy\n"
    )
    assert read_kernel_installs(text) == ["tf-keras", "numpy", "cudatoolkit"]


def test_the_kernels_install_of_a_distribution_is_found_by_its_name() -> None:
    from tfdoctor.evidence.packages import kernel_install_end

    first = "!pip install tensorflow-datasets\n"
    second = "In [4]: %pip install -U Tensorflow_GPU==2.4.0\n"
    text = first + "Requirement already satisfied: x in /y (1)\n" + second
    assert kernel_install_end(text, "tensorflow-gpu") == len(text) - 1
    assert kernel_install_end(text, "tensorflow-datasets") == len(first) - 1
    assert kernel_install_end(text, "tensorflow") is None


_KERNEL_LOG = "!pip install tensorflow==1.6.0\nimport keras\nAttributeError: module 'tensorflow' "


def test_a_name_every_release_has_missing_after_a_kernel_install_needs_a_restart() -> None:
    top = top_error(explained(_KERNEL_LOG + "has no attribute 'name_scope'\n"))
    assert top.cause == "kernel-restart-needed"
    assert "Restart" in fix_text(top)


@pytest.mark.parametrize(
    "log",
    [
        # Installed from a shell, not inside the kernel: nothing in memory to mix.
        pytest.param(
            _KERNEL_LOG.replace("!pip", "$ pip") + "has no attribute 'name_scope'\n",
            id="shell-install",
        ),
        # A name some releases lack (tf.random.set_seed: 2.0 on): a question of versions.
        pytest.param(
            _KERNEL_LOG.replace("'tensorflow' ", "'tensorflow.random' ")
            + "has no attribute 'set_seed'\n",
            id="versioned-name",
        ),
    ],
)
def test_a_kernel_restart_needs_both_the_install_and_a_name_no_release_lacks(log: str) -> None:
    assert not any(x.cause == "kernel-restart-needed" for x in explained(log).findings)


_LIBCUDA = "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"


def test_libcuda_missing_inside_a_cuda_image_is_a_container_started_without_the_gpu() -> None:
    image = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic "
        "library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such "
        "file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64\n"
    )
    found = explained(image + _LIBCUDA).findings
    assert [x.cause for x in found if x.severity.rank >= Severity.WARNING.rank] == [
        "container-no-gpu"
    ]
    assert "--gpus" in fix_text(found[0])


def test_libcuda_missing_elsewhere_names_the_container_case_after_the_driver() -> None:
    top = top_error(explained(_LIBCUDA))
    assert top.cause == "driver-libraries-missing"
    assert "--gpus all" in fix_text(top)


@pytest.mark.parametrize(
    ("run", "cause"),
    [
        pytest.param("$ docker run --rm -it my/gpu-image\n", "container-no-gpu", id="no-gpu-flag"),
        pytest.param(
            "$ sudo docker run --gpus all -it my/gpu-image\n", "driver-libraries-missing", id="gpus"
        ),
        pytest.param("$ nvidia-docker run -it my/gpu-image\n", "driver-libraries-missing", id="nv"),
    ],
)
def test_libcuda_missing_after_a_docker_run_is_judged_by_its_gpu_flags(
    run: str, cause: str
) -> None:
    found = explained(run + _LIBCUDA).findings
    assert [x.cause for x in found if x.severity.rank >= Severity.WARNING.rank] == [cause]


@pytest.mark.parametrize(
    "head",
    [
        pytest.param(
            "$ docker run -it --rm \\\n    --gpus all \\\n    my/gpu-image\n", id="continued"
        ),
        pytest.param("I first started redis with docker run -d redis, then:\n", id="prose"),
    ],
)
def test_a_docker_run_that_hands_over_the_gpu_or_is_prose_is_no_container_case(head: str) -> None:
    found = explained(head + _LIBCUDA).findings
    assert [x.cause for x in found if x.severity.rank >= Severity.WARNING.rank] == [
        "driver-libraries-missing"
    ]


def test_a_podman_run_without_the_gpu_gets_podmans_fix() -> None:
    top = top_error(explained("$ podman run -it --rm my/gpu-image\n" + _LIBCUDA))
    assert top.cause == "container-no-gpu"
    assert "nvidia.com/gpu" in fix_text(top) and "docker run" not in fix_text(top)


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            "!pip install tensorflow\nTraceback (most recent call last):\n"
            '  File "/content/tensorflow.py", line 2, in <module>\n    x = tf.constant(1)\n'
            "AttributeError: module 'tensorflow' has no attribute 'constant'\n",
            id="own-tensorflow-py",
        ),
        pytest.param(
            "!pip install tensorflow\nAttributeError: partially initialized module 'tensorflow' "
            "has no attribute 'constant' (most likely due to a circular import)\n",
            id="circular",
        ),
    ],
)
def test_a_shadowed_tensorflow_after_a_kernel_install_is_no_restart(log: str) -> None:
    assert not any(x.cause == "kernel-restart-needed" for x in explained(log).findings)


def test_the_platform_of_a_refused_wheel_is_not_taken_for_the_machines() -> None:
    log = (
        "ERROR: tensorflow-2.15.0-cp311-cp311-macosx_10_15_x86_64.whl is not a supported wheel "
        "on this platform.\n"
    )
    assert not any("macOS (" in x.detail for x in explained(log).findings)


def test_a_name_a_later_1x_brought_under_a_shown_1x_installs_the_last_1x() -> None:
    head = ">>> tf.__version__\n'1.12.0'\n"
    top = top_error(
        explained(_tf1_error("module 'tensorflow' has no attribute 'py_function'", head))
    )
    assert top.cause == "tf-too-old-for-code"
    assert "tensorflow==1.15" in fix_text(top)
