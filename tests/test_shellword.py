"""One shell word for the commands fixes and file headers print (tfdoctor/shellword.py)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tfdoctor.shellword import shell_word


@pytest.mark.parametrize(
    ("value", "word"),
    [
        pytest.param("/opt/cuda-12.2", "/opt/cuda-12.2", id="plain"),
        pytest.param("/opt/my cuda/11.8", "'/opt/my cuda/11.8'", id="spaced"),
        pytest.param("it's", "'it'\"'\"'s'", id="quote"),
        pytest.param("", "''", id="empty"),
        # What the shell expands stays outside the quotes: a tilde-prefix runs to the first
        # unquoted slash, so a quoted slash after ~ would end the expansion.
        pytest.param("~/my cuda", "~/'my cuda'", id="home"),
        pytest.param("~/pins.txt", "~/pins.txt", id="home-plain"),
        pytest.param("~", "~", id="home-itself"),
        pytest.param("~ci/my cuda", "~ci/'my cuda'", id="user-home"),
        pytest.param("$HOME/my cuda", "$HOME'/my cuda'", id="variable"),
        pytest.param("${CONDA_PREFIX}/lib", "${CONDA_PREFIX}/lib", id="braced-variable"),
        # Not a plain parameter: quoted whole, read as written.
        pytest.param("${HOME:-/tmp} x", "'${HOME:-/tmp} x'", id="parameter-expression"),
        pytest.param("/a/~b c", "'/a/~b c'", id="tilde-inside"),
        # A Windows path is single-quoted where the command is for a POSIX shell only.
        pytest.param(r"C:\Program Files\Python311", r"'C:\Program Files\Python311'", id="win"),
    ],
)
def test_a_value_is_one_posix_shell_word(value: str, word: str) -> None:
    assert shell_word(value) == word


@pytest.mark.parametrize(
    ("value", "word"),
    [
        pytest.param(
            r"C:\Users\me\envs\tf\python.exe", r'"C:\Users\me\envs\tf\python.exe"', id="windows"
        ),
        pytest.param(r"D:\my env\python", r'"D:\my env\python"', id="windows-spaced"),
        # A POSIX path in a command for either shell: as for a POSIX shell.
        pytest.param("/opt/my env/bin/python", "'/opt/my env/bin/python'", id="posix-spaced"),
        pytest.param("~/env/bin/python", "~/env/bin/python", id="posix-home"),
    ],
)
def test_a_windows_path_goes_in_double_quotes_where_cmd_reads_the_command(
    value: str, word: str
) -> None:
    assert shell_word(value, windows=True) == word


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")
@pytest.mark.parametrize(
    ("value", "read"),
    [
        pytest.param("/opt/my cuda/11.8", "/opt/my cuda/11.8", id="spaced"),
        pytest.param("~/my cuda", "/home/u/my cuda", id="home"),
        pytest.param("~", "/home/u", id="home-itself"),
        pytest.param("$HOME/my 'cuda'", "/home/u/my 'cuda'", id="variable"),
        pytest.param("${HOME}/lib", "/home/u/lib", id="braced-variable"),
        pytest.param("${HOME:-/tmp} x", "${HOME:-/tmp} x", id="parameter-expression"),
        pytest.param("", "", id="empty"),
    ],
)
def test_the_shell_reads_the_word_as_one_expanded_argument(value: str, read: str) -> None:
    done = subprocess.run(
        ["sh", "-c", f"printf '%s|' {shell_word(value)}"],
        env={"HOME": "/home/u", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    )
    assert done.stdout == read + "|"
