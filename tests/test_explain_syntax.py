"""Python failing to compile syntax a newer Python added, where the log shows the older Python:
the code (a package's release) needs the newer one."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.explain.syntax import newer_syntax


def _compile_error(path: str, code: str, tail: str = "SyntaxError: invalid syntax\n") -> str:
    """A traceback whose last entry is Python's location line of a compile error."""
    return (
        "Traceback (most recent call last):\n"
        '  File "run.py", line 3, in <module>\n'
        "    import pkg\n"
        f'  File "{path}", line 70\n'
        f"    {code}\n"
        "                   ^\n"
        f"{tail}"
    )


@pytest.mark.parametrize(
    ("code", "release"),
    [
        ("self._token2idx: Dict[str, int] = None", "3.6"),
        ("count: int", "3.6"),
        ('print(f"{name} loaded")', "3.6"),
        ("if (n := len(items)) > 10:", "3.8"),
        ("def scale(x, /, factor=2):", "3.8"),
        ("match command.split():", "3.10"),
        ("except* OSError as group:", "3.11"),
        ("def first[T](items: list[T]) -> T:", "3.12"),
        ("class Box[T]:", "3.12"),
        ("type Pairs = list[tuple[int, int]]", "3.12"),
    ],
)
def test_the_release_each_syntax_came_with(code: str, release: str) -> None:
    found = newer_syntax(code)
    assert found is not None and found[0] == release


@pytest.mark.parametrize(
    "code",
    [
        "else: x = 1",
        "lambda x: x + 1",
        "'key': value,",
        "x = {'a': 1}",
        "if a == b:",
        "print('f')",
        # Inside a string or a comment the words are text, not syntax.
        "print('a f')",
        'subprocess.call(["rm", "-rf", path])',
        'os.system("ls -f")',
        'print "-f"',
        'print("a := b")',
        'x = 1  # f"{x}" needs 3.6',
        # A dict's entry over several lines: a comma outside brackets is no annotation.
        "    key: value,",
        "    name: Dict[a, b],",
        # match and type are soft keywords: names assigned or called are older syntax.
        "match = pattern.match(line)",
        "match(x):",
        "type = 'float32'",
        "kind = type(x)",
        "except (ValueError, TypeError):",
        "class Box(Generic[T]):",
    ],
)
def test_older_syntax_is_not_read_as_newer(code: str) -> None:
    assert newer_syntax(code) is None


@pytest.mark.parametrize(
    "code",
    [
        "x = rf'{root}\\data'",
        'msg = "it\'s " + F"{n}"',
        "x: List[Dict[str, int]] = []",
    ],
)
def test_newer_syntax_beside_strings_is_read(code: str) -> None:
    assert newer_syntax(code) is not None


def test_python_2_code_under_python_35_is_not_read_as_an_f_string() -> None:
    text = _compile_error("/usr/local/lib/python3.5/dist-packages/pkg/cli.py", 'print "-f"')
    assert all(x.cause != "python-too-old-for-package" for x in explained(text).findings)


def test_a_packages_annotation_under_python_35_needs_36() -> None:
    text = _compile_error(
        "/usr/local/lib/python3.5/dist-packages/kashgari/embeddings.py",
        "self._token2idx: Dict[str, int] = None",
    )
    found = [x for x in explained(text).findings if x.cause == "python-too-old-for-package"]
    assert found and found[0].severity.value == "error"
    fix = fix_text(found[0])
    assert "Python 3.6" in fix and "kashgari" in fix and "python3.6 -m venv" in fix


def test_a_cut_traceback_ending_at_the_location_line_is_read_too() -> None:
    text = _compile_error(
        "/home/user/.venv/lib/python3.7/site-packages/pkg/util.py",
        "while (chunk := f.read(4096)):",
        tail="",
    )
    found = [x for x in explained(text).findings if x.cause == "python-too-old-for-package"]
    assert found and "3.8" in fix_text(found[0])


@pytest.mark.parametrize(
    "path",
    [
        # The Python running it has the syntax: another mistake in the line.
        "/usr/lib/python3.9/site-packages/pkg/util.py",
        # No Python shown: nothing to compare with.
        "pkg/util.py",
    ],
)
def test_no_reading_where_the_python_is_new_enough_or_not_shown(path: str) -> None:
    text = _compile_error(path, "self.x: int = None")
    assert all(x.cause != "python-too-old-for-package" for x in explained(text).findings)


def test_a_frame_of_a_run_is_not_a_compile_error() -> None:
    # Frames of a run carry ", in <function>": only the compile error's location line lacks it.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.5/site-packages/pkg/a.py", line 7, in load\n'
        "    self.x: int = None\n"
        "AttributeError: 'NoneType' object has no attribute 'x'\n"
    )
    assert all(x.cause != "python-too-old-for-package" for x in explained(text).findings)


def _walrus_fix(shown: str) -> str:
    """The fix for a walrus under Python 3.7, in a log that begins with ``shown``."""
    text = shown + _compile_error(
        "/home/user/.venv/lib/python3.7/site-packages/pkg/util.py",
        "while (chunk := f.read(4096)):",
    )
    found = [x for x in explained(text).findings if x.cause == "python-too-old-for-package"]
    assert found
    return fix_text(found[0])


def test_the_venv_python_is_one_the_shown_tensorflow_line_has_wheels_for() -> None:
    # TensorFlow 2.15's wheels start at Python 3.9: a 3.8 environment could not install it.
    fix = _walrus_fix("tensorflow 2.15.0\n")
    assert "python3.9 -m venv" in fix and "TensorFlow 2.15" in fix
    assert "python3.8 -m venv" not in fix


def test_without_a_tensorflow_line_the_venv_python_is_the_syntaxs_release() -> None:
    fix = _walrus_fix("")
    assert "python3.8 -m venv" in fix and "tfdoctor matrix" in fix


def test_a_match_statement_under_python_39_needs_python_310() -> None:
    text = _compile_error(
        "/usr/local/lib/python3.9/site-packages/pkg/dispatch.py", "match event.kind:"
    )
    top = next(x for x in explained(text).findings if x.cause == "python-too-old-for-package")
    assert "a match statement, which Python 3.10 added" in fix_text(top)
    assert "Python 3.9" in fix_text(top)


def test_a_match_statement_under_python_310_is_not_this_cause() -> None:
    text = _compile_error(
        "/usr/local/lib/python3.10/site-packages/pkg/dispatch.py", "match event.kind:"
    )
    assert all(x.cause != "python-too-old-for-package" for x in explained(text).findings)


def _subscript_error(python: str, code: str) -> str:
    """CPython's TypeError raised by a package's line evaluated at import (an annotation)."""
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import pkg\n"
        f'  File "/opt/venv/lib/python{python}/site-packages/pkg/layers.py", line 12, in '
        "<module>\n"
        f"    {code}\n"
        "TypeError: 'type' object is not subscriptable\n"
    )


def test_a_built_in_generic_under_python_38_needs_python_39() -> None:
    text = _subscript_error("3.8", "def pad(shape: tuple[int, ...]) -> dict[str, int]:")
    top = next(x for x in explained(text).findings if x.cause == "python-too-old-for-package")
    assert "PEP 585), which Python 3.9 added, and this is Python 3.8" in fix_text(top)
    assert "release of pkg that still supports Python 3.8" in fix_text(top)


#: Lines and Pythons a subscripting TypeError says nothing about the Python under: a Python
#: with PEP 585, an attribute that is a list, a class of the code's own.
_NOT_GENERICS = {
    "python-3.9-has-them": ("3.9", "def pad(shape: tuple[int, ...]):"),
    "an-attribute": ("3.8", "value = self.list[0]"),
    "another-class": ("3.8", "kind = Registry[name]"),
}


@pytest.mark.parametrize("case", sorted(_NOT_GENERICS))
def test_no_python_verdict_where_the_line_or_the_python_does_not_fit(case: str) -> None:
    text = _subscript_error(*_NOT_GENERICS[case])
    assert all(x.cause != "python-too-old-for-package" for x in explained(text).findings)


def _union_error(code: str, message: str, folder: str = "/Users/user/faceswap/lib") -> str:
    """A class body's method annotated with ``code`` refused by CPython, as Python prints it."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "{folder}/actions.py", line 49, in <module>\n'
        "    class FileFullPaths(_FullPaths):\n"
        f'  File "{folder}/actions.py", line 72, in FileFullPaths\n'
        f"    {code}\n"
        f"TypeError: {message}\n"
    )


_UNION_REFUSAL = "unsupported operand type(s) for |: 'type' and 'NoneType'"


def test_a_union_annotation_refused_needs_python_310_whatever_python_is_shown() -> None:
    text = _union_error(
        "def __init__(self, *args, filetypes: str | None = None) -> None:", _UNION_REFUSAL
    )
    top = next(x for x in explained(text).findings if x.cause == "python-too-old-for-package")
    assert "needs Python 3.10 or newer; this is a Python before 3.10" in top.summary
    assert "python3.10 -m venv .venv" in fix_text(top)


def test_a_packages_union_annotation_names_the_package() -> None:
    text = _union_error(
        "def f(x: int | list[int]) -> None:",
        "unsupported operand type(s) for |: 'type' and '_GenericAlias'",
        "/opt/venv/lib/python3.9/site-packages/pkg",
    )
    top = next(x for x in explained(text).findings if x.cause == "python-too-old-for-package")
    assert "pkg's code needs Python 3.10" in top.summary and "Python 3.9" in top.summary


#: A ``|`` refused that says nothing of the Python: values that are no classes, an expression
#: outside an annotation, a Python the log shows at 3.10.
_NOT_UNIONS = {
    "values": ("mask = flags: int | 0", "unsupported operand type(s) for |: 'str' and 'int'"),
    "no-annotation": ("kinds = str | None", _UNION_REFUSAL),
}


@pytest.mark.parametrize("case", sorted(_NOT_UNIONS))
def test_no_union_verdict_where_the_line_or_the_operands_do_not_fit(case: str) -> None:
    text = _union_error(*_NOT_UNIONS[case])
    assert all(x.cause != "python-too-old-for-package" for x in explained(text).findings)


def test_no_union_verdict_where_the_log_shows_python_310() -> None:
    text = _union_error(
        "def f(x: str | None) -> None:",
        _UNION_REFUSAL,
        "/opt/venv/lib/python3.10/site-packages/pkg",
    )
    assert all(x.cause != "python-too-old-for-package" for x in explained(text).findings)


def test_a_built_in_generic_refused_needs_python_39_with_no_python_shown() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/layers.py", line 12, in <module>\n'
        "    def pad(shape: tuple[int, ...]) -> dict[str, int]:\n"
        "TypeError: 'type' object is not subscriptable\n"
    )
    top = next(x for x in explained(text).findings if x.cause == "python-too-old-for-package")
    assert "needs Python 3.9 or newer; this is a Python before 3.9" in top.summary
