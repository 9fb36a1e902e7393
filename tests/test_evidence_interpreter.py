"""The interpreter pip ran in, as pip's tags and the banner show it
(tfdoctor.evidence.interpreter), and explain's reading of a pip that lists no TensorFlow for
it: the interpreter's kind, not its bits, where its own words say so."""

from __future__ import annotations

import re
from typing import Optional

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.causes.common import INTERPRETER_CHECK
from tfdoctor.evidence.interpreter import Interpreter, read_interpreter

#: pip debug --verbose's head and its first tags, as pip prints them (commands/debug.py).
_DEBUG = "sys.platform: {platform}\nCompatible tags: 558\n  {first}\n  {second}\n"


def _tags(first: str, second: str, platform: str = "linux") -> str:
    return _DEBUG.format(first=first, second=second, platform=platform)


@pytest.mark.parametrize(
    ("text", "expected", "bits"),
    [
        pytest.param(
            _tags("cp312-cp312-win_amd64", "cp312-abi3-win_amd64", "win32"),
            Interpreter("CPython", False, "3.12", "win_amd64"),
            64,
            id="windows-x86-64",
        ),
        pytest.param(
            _tags("cp311-cp311-win32", "cp311-abi3-win32", "win32"),
            Interpreter("CPython", False, "3.11", "win32"),
            32,
            id="windows-32bit",
        ),
        pytest.param(
            _tags("cp313-cp313t-manylinux_2_39_x86_64", "cp313-cp313t-manylinux_2_38_x86_64"),
            Interpreter("CPython", True, "3.13", "manylinux_2_39_x86_64"),
            64,
            id="free-threaded-tag",
        ),
        pytest.param(
            _tags("pp310-pypy310_pp73-manylinux_2_35_x86_64", "pp310-none-manylinux_2_35_x86_64"),
            Interpreter("PyPy", False, "3.10", "manylinux_2_35_x86_64"),
            64,
            id="pypy-tag",
        ),
        pytest.param(
            _tags("cp39-cp39-linux_armv7l", "cp39-abi3-linux_armv7l"),
            Interpreter("CPython", False, "3.9", "linux_armv7l"),
            32,
            id="armv7l",
        ),
        pytest.param(
            "Python 3.10.14 (75b3de9d9035, Apr 21 2024, 10:55:51)\n"
            "[PyPy 7.3.16 with GCC 10.2.1 20210130 (Red Hat 10.2.1-11)] on linux\n",
            Interpreter("PyPy"),
            None,
            id="pypy-banner",
        ),
        pytest.param(
            "Python 3.13.1 experimental free-threading build (main, Dec  4 2024, 08:54:14) "
            "[GCC 13.2.0] on linux\n",
            Interpreter("CPython", True, "3.13.1"),
            None,
            id="free-threaded-banner-3.13",
        ),
        pytest.param(
            "sys.version: 3.14.0 free-threading build (main, Oct  7 2025, 15:35:12) [Clang 17]\n",
            Interpreter("CPython", True, "3.14.0"),
            None,
            id="free-threaded-banner-3.14",
        ),
        pytest.param(
            "$ python3.14t -m pip install tensorflow\n"
            "ERROR: Could not find a version that satisfies the requirement tensorflow (from "
            "versions: none)\n",
            Interpreter("CPython", True, "3.14"),
            None,
            id="free-threaded-command-name",
        ),
        pytest.param(
            '  File "/opt/py/lib/python3.13t/site-packages/pip/__main__.py", line 22\n',
            Interpreter("CPython", True, "3.13"),
            None,
            id="free-threaded-library-folder",
        ),
        pytest.param(
            "Python 3.12.4 (tags/v3.12.4:8e8a4ba, Jun  6 2024, 19:17:21) [MSC v.1940 64 bit "
            "(ARM64)] on win32\n",
            Interpreter("CPython", platform="win_arm64"),
            64,
            id="windows-arm64-banner",
        ),
        pytest.param(
            _tags("cp312-cp312-win_arm64", "cp312-abi3-win_arm64", "win32"),
            Interpreter("CPython", False, "3.12", "win_arm64"),
            64,
            id="windows-arm64-tag",
        ),
        pytest.param(
            '>>> import struct\n>>> print(struct.calcsize("P") * 8)\n32\n',
            Interpreter(answered_bits=32),
            32,
            id="pointer-size-32",
        ),
        pytest.param(
            ">>> import sys\n>>> sys.maxsize > 2**32\nTrue\n",
            Interpreter(answered_bits=64),
            64,
            id="maxsize-64",
        ),
        pytest.param(
            # The check python_64bit_fix gives, run in a shell: its quote closes the line.
            "$ python3.13 -c 'import struct; print(struct.calcsize(\"P\") * 8)'\n64\n",
            Interpreter(answered_bits=64),
            64,
            id="pointer-size-one-liner",
        ),
        pytest.param(
            'C:\\> python -c "import sys; print(sys.maxsize > 2**32)"\nFalse\n',
            Interpreter(answered_bits=32),
            32,
            id="maxsize-one-liner",
        ),
        pytest.param(
            f"> {INTERPRETER_CHECK}\n3.11.8 Windows AMD64 32\n",
            Interpreter(answered_bits=32),
            32,
            id="tfdoctors-own-check",
        ),
        pytest.param(
            "Python 3.12.3 (main, Apr 24 2024, 22:23:13) [GCC 13.2.1 20231014] on linux\n",
            None,
            None,
            id="plain-banner-says-nothing",
        ),
    ],
)
def test_read_interpreter(text: str, expected: Optional[Interpreter], bits: Optional[int]) -> None:
    found = read_interpreter(text)
    assert found == expected
    assert (found.bits if found is not None else None) == bits


_NONE = (
    "ERROR: Could not find a version that satisfies the requirement tensorflow (from versions: "
    "none)\nERROR: No matching distribution found for tensorflow\n"
)


@pytest.mark.parametrize(
    ("shown", "says", "command"),
    [
        pytest.param(
            "$ pypy3 -VV\nPython 3.10.14 (75b3de9d9035, Apr 21 2024, 10:55:51)\n"
            "[PyPy 7.3.16 with GCC 10.2.1 20210130 (Red Hat 10.2.1-11)]\n",
            "TensorFlow publishes wheels for CPython only",
            r"python3\.\d+ -m venv .venv",
            id="pypy",
        ),
        pytest.param(
            "$ python3.13t -VV\nPython 3.13.1 experimental free-threading build (main, Dec  4 "
            "2024, 08:54:14) [GCC 13.2.0]\n",
            "free-threaded build of 3.13",
            r"python3\.13 -m venv .venv",
            id="free-threaded",
        ),
    ],
)
def test_no_release_for_an_interpreter_kind_names_the_cpython_build(
    shown: str, says: str, command: str
) -> None:
    report = explained(shown + "$ pip install tensorflow\n" + _NONE)
    top = top_error(report)
    assert top.cause == "tf-no-wheel-for-python"
    assert says in fix_text(top)
    assert top.fix is not None and any(re.fullmatch(command, c) for c in top.fix.commands)
    # Its kind, not its bits: no 32-bit candidate beside it.
    assert all(x.cause != "python-32bit" for x in report.findings)


def test_pips_64bit_tags_rule_out_the_32bit_candidate() -> None:
    """pip's tags say the interpreter is 64-bit: "use a 64-bit Python" would change nothing."""
    text = _tags("cp314-cp314-win_amd64", "cp314-abi3-win_amd64", "win32") + _NONE
    report = explained(text)
    assert any(x.cause == "tf-no-wheel-for-python" for x in report.findings)
    assert all(x.cause != "python-32bit" for x in report.findings)


def test_windows_on_arm_gets_wsl_not_another_python() -> None:
    """Windows on Arm's CPython: no Windows Arm64 wheel; the Linux aarch64 ones run in WSL2."""
    banner = (
        "Python 3.12.4 (tags/v3.12.4:8e8a4ba, Jun  6 2024, 19:17:21) [MSC v.1940 64 bit "
        "(ARM64)] on win32\n"
    )
    report = explained(banner + _NONE)
    top = top_error(report)
    assert top.cause == "tf-no-wheel-for-python"
    assert "Windows on Arm" in fix_text(top) and "WSL2" in fix_text(top)
    assert top.fix is not None and top.fix.commands == ("wsl --install -d Ubuntu",)
    assert all(x.cause != "python-32bit" for x in report.findings)


@pytest.mark.parametrize(
    ("answer", "cause"),
    [
        pytest.param(">>> sys.maxsize > 2**32\nFalse\n", "python-32bit", id="32-bit"),
        pytest.param(">>> sys.maxsize > 2**32\nTrue\n", "tf-no-wheel-for-python", id="64-bit"),
    ],
)
def test_the_interpreters_own_width_answer_decides_the_32bit_reading(
    answer: str, cause: str
) -> None:
    report = explained(answer + _NONE)
    assert top_error(report).cause == cause
    if cause != "python-32bit":
        assert all(x.cause != "python-32bit" for x in report.findings)
