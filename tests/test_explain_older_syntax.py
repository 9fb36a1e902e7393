"""Python's compile error at a line written for an older Python than the one compiling it:
a name Python 3.7 made a keyword (`async`, `await`), Python 2's statements and literals. The
compile error itself shows the Python is that release or newer; whose file it is decides the
cause: TensorFlow's own (a release not built for this Python), an installed package's (a
release of it that predates this Python), the project's (the line to rewrite). The logs are
written here in CPython's words.
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.explain.syntax import compile_error_at_older_syntax
from tfdoctor.findings import Severity


def _compile_error(path: str, code: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    import thing\n"
        f'  File "{path}", line 114\n'
        f"    {code}\n"
        "        ^\n"
        "SyntaxError: invalid syntax\n"
    )


def test_tensorflows_own_file_with_async_as_a_name_is_a_release_older_than_the_python() -> None:
    log = _compile_error(
        "/home/user/venv/lib/python3.9/site-packages/tensorflow/python/pywrap_tensorflow_internal.py",
        "def TFE_ContextOptionsSetAsync(arg1, async):",
    )
    top = top_error(explained(log))
    assert top.cause == "tf-release-not-for-python"
    text = fix_text(top)
    assert "3.7" in text and "Python 3.9" in text
    assert "tensorflow>=" in text  # the first line with wheels for 3.9, from the matrix


def test_an_installed_packages_python_2_statement_is_its_release() -> None:
    log = _compile_error(
        "/usr/lib/python3/dist-packages/oldlib/util.py", 'print "loading %s" % name'
    )
    top = top_error(explained(log))
    assert top.cause == "python-removed-module"
    assert "oldlib" in fix_text(top) and "print" in fix_text(top)


def test_the_projects_own_line_is_rewritten() -> None:
    log = _compile_error("/home/user/project/model.py", "self.async = True")
    top = top_error(explained(log))
    assert top.cause == "python-removed-module"
    assert "another name" in fix_text(top)


@pytest.mark.parametrize(
    "code",
    [
        "async def fetch(url):",
        "result = await client.get(url)",
        "async with session:",
        'print("x", end="")',
        "print (x)",
        "except (ValueError, KeyError):",
        "mode = 0o777",
        "x = 0",
        'msg = "print it `now` <> never"',
        "# print old style",
        # The function in an expression: Python 3 compiles these (and fails, if at all, as it
        # runs them).
        'print >>sys.stderr, "warning"',
        "print -1",
        "print [0]",
        "print += 1",
        "print if verbose else log",
        "exec not in handlers",
        "opt = Adam(lr=1e-05, epsilon=1E+07)",
    ],
)
def test_syntax_every_python_3_compiles_is_not_read(code: str) -> None:
    assert compile_error_at_older_syntax(_compile_error("/p/x.py", code)) is None


def test_a_runtime_frame_is_no_compile_error() -> None:
    # A frame of a run prints ", in <function>": its line compiled. Python 2 ran this one:
    # its `raise E, message`, which no Python 3 compiles, is no compile error here.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/p/x.py", line 9, in run\n'
        '    raise ValueError, "bad"\n'
        "ValueError: bad\n"
    )
    findings = explained(log).findings
    assert not [
        f
        for f in findings
        if f.cause in {"python-removed-module", "tf-release-not-for-python"}
        and f.severity.rank >= Severity.WARNING.rank
    ]


def test_except_with_a_comma_is_not_read_where_the_python_compiles_it() -> None:
    # PEP 758: Python 3.14 compiles `except A, B:` (both caught): a compile error there under
    # 3.14 is something else. 3.13 still refuses it.
    log = _compile_error("/p/x.py", "except IOError, e:")
    assert compile_error_at_older_syntax(log, "3.14.0") is None
    found = compile_error_at_older_syntax(log, "3.13.1")
    assert found is not None and found[1] == "3.0"


def test_async_as_a_name_is_not_read_under_a_python_that_compiles_it() -> None:
    # Before 3.7 `async` is a name: a compile error at the line is another one's.
    log = _compile_error("/p/x.py", "self.async = True")
    assert compile_error_at_older_syntax(log, "3.6.9") is None
    assert compile_error_at_older_syntax(log, "3.7.0") is not None


def test_a_file_of_pips_build_folder_is_that_distributions_release() -> None:
    # pip builds foo's source release (pip 20.3 on adds a hash to the folder): its setup.py
    # is foo's, not the project's code to rewrite.
    log = _compile_error("/tmp/pip-install-k2j4/foo_3f9a1c2b7d/setup.py", 'print "hello"')
    (found,) = [f for f in explained(log).findings if f.cause == "python-removed-module"]
    text = fix_text(found)
    assert "foo release pip is building predates" in text and "Upgrade it" in text
    assert "this is this" not in text  # no Python shown: the release is the bound
    # foo is not installed: its releases are listed, not shown as installed.
    assert found.fix is not None
    assert not [c for c in found.fix.commands if "pip show" in c], found.fix.commands
    assert [c for c in found.fix.commands if "index versions foo" in c], found.fix.commands
