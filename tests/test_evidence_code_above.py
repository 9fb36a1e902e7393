"""The source line above an exception printed with no frames: an indented line is a frame's
line only where it is Python, not an installer's indented step before the message."""

from __future__ import annotations

import pytest

from tfdoctor.evidence.traceback import read_tracebacks

_ERROR = "ValueError: the model's input shape does not match the data\n"


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("  Total: 312.4 MB", id="conda-download-total"),
        pytest.param(
            "  Downloading somepkg-1.2.3-cp311-cp311-manylinux_2_17_x86_64.whl (12.5 MB)",
            id="pip-downloading",
        ),
        pytest.param("  Attempting uninstall: somepkg", id="pip-attempting-uninstall"),
        pytest.param("  Found existing installation: somepkg 1.2.3", id="pip-found-existing"),
        pytest.param("  - somepkg==1.2.3", id="conda-spec-that-parses"),
        pytest.param("    this line is prose, indented", id="prose"),
        pytest.param("    Caused by:", id="prose-heading"),
    ],
)
def test_an_indented_line_that_is_no_python_is_no_code(line: str) -> None:
    (tb,) = read_tracebacks(f"{line}\n{_ERROR}")
    assert tb.code == ""
    assert not tb.printed


@pytest.mark.parametrize(
    ("line", "code"),
    [
        pytest.param("    model.fit(x_train, y_train)", "model.fit(x_train, y_train)", id="call"),
        pytest.param("    outputs = layer(inputs,", "outputs = layer(inputs,", id="bracket-open"),
        pytest.param("    total: int = count(rows)", "total: int = count(rows)", id="annotated"),
        # A compound statement's header runs code too (an iterator's next, a context
        # manager's __enter__): Python prints it as the frame's line, though it parses only
        # with a body.
        pytest.param("    for batch in dataset:", "for batch in dataset:", id="for-header"),
        pytest.param(
            "    with tf.Session() as sess:", "with tf.Session() as sess:", id="with-header"
        ),
        pytest.param("    elif step > limit:", "elif step > limit:", id="elif-clause"),
        pytest.param("    @tf.function", "@tf.function", id="decorator"),
    ],
)
def test_an_indented_python_line_is_the_code(line: str, code: str) -> None:
    (tb,) = read_tracebacks(f"{line}\n{_ERROR}")
    assert tb.code == code


# --- the interactive interpreter's own frame -----------------------------------------------------

_STDIN_TRACE = (
    'Traceback (most recent call last):\n  File "<stdin>", line {n}, in <module>\n'
    "AttributeError: 'module' object has no attribute 'global_variables_initializer'\n"
)


@pytest.mark.parametrize(
    ("typed", "n", "code"),
    [
        pytest.param(
            ">>> init = tf.global_variables_initializer()\n",
            1,
            "init = tf.global_variables_initializer()",
            id="one-line",
        ),
        # A block ends with an empty line at the continuation prompt: ``... `` as printed,
        # ``...`` where the paste lost its trailing space.
        pytest.param(
            ">>> with tf.Session() as sess:\n"
            "...     sess.run(tf.global_variables_initializer())\n"
            "... \n",
            2,
            "sess.run(tf.global_variables_initializer())",
            id="continued",
        ),
        pytest.param(
            ">>> with tf.Session() as sess:\n"
            "...     sess.run(tf.global_variables_initializer())\n"
            "...\n",
            2,
            "sess.run(tf.global_variables_initializer())",
            id="continued-stripped-prompt",
        ),
    ],
)
def test_a_stdin_frame_takes_its_line_from_the_prompt_above(typed: str, n: int, code: str) -> None:
    # The interpreter prints no source line for <stdin>: the statement typed at the prompt,
    # counted from its >>> line, is the code that ran.
    (tb,) = read_tracebacks(">>> import tensorflow as tf\n" + typed + _STDIN_TRACE.format(n=n))
    assert tb.frames[-1].code == code


@pytest.mark.parametrize(
    "above",
    [
        pytest.param("", id="nothing-above"),
        pytest.param("$ python train.py\n", id="shell-command"),
        pytest.param(">>> x = 1\n", id="line-number-past-the-statement"),
    ],
)
def test_a_stdin_frame_without_its_statement_keeps_no_line(above: str) -> None:
    (tb,) = read_tracebacks(above + _STDIN_TRACE.format(n=2))
    assert tb.frames[-1].code == ""


def test_a_stdin_function_frame_keeps_no_line_of_the_later_statement() -> None:
    # The innermost frame is a function typed at an earlier prompt: its line number counts
    # from its own def, so the statement above the traceback is not its line.
    text = (
        ">>> def f():\n"
        "...     return tf.global_variables_initializer()\n"
        "... \n"
        ">>> x = 1; y = (2,\n"
        "...   f())\n"
        'Traceback (most recent call last):\n  File "<stdin>", line 2, in <module>\n'
        '  File "<stdin>", line 2, in f\n'
        "AttributeError: 'module' object has no attribute 'global_variables_initializer'\n"
    )
    (tb,) = read_tracebacks(text)
    assert tb.frames[-1].function == "f"
    assert tb.frames[-1].code == ""
