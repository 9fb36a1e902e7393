"""Installs a resolver locked for every platform (uv's project commands, Poetry) read from the
installer's own list of what it installed: ``tensorflow`` of a line whose wheel for the log's
system requires a wrapper distribution (tensorflow-macos on Apple silicon for 2.13 to 2.15),
installed without it."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text
from tfdoctor import causes
from tfdoctor.evidence.pip import LockedInstall, read_locked_installs
from tfdoctor.findings import Finding, Report


def _uv_add(version: str = "2.13.1", also: str = "", command: str = "uv add") -> str:
    """uv's output for a project command, as uv prints it, in a project under a macOS home."""
    return (
        f"/Users/me/proj $ {command} tensorflow=={version}\n"
        "Using CPython 3.11.6\n"
        "Creating virtual environment at: .venv\n"
        "Resolved 40 packages in 812ms\n"
        "Installed 38 packages in 120ms\n"
        " + absl-py==2.1.0\n"
        " + numpy==1.24.3\n"
        f" + tensorflow=={version}\n"
        f"{also}"
        " + wrapt==1.15.0\n"
    )


_POETRY = (
    "/Users/me/proj $ poetry install\n"
    "Package operations: 3 installs, 0 updates, 0 removals\n\n"
    "  - Installing numpy (1.24.3)\n"
    "  - Installing tensorflow (2.14.1)\n"
    "  - Installing wrapt (1.14.1)\n"
)


def _missing(report: Report) -> Optional[Finding]:
    return next((x for x in report.findings if x.cause == "dependency-missing"), None)


def test_uv_and_poetry_lists_are_read_with_their_installer() -> None:
    assert read_locked_installs((_uv_add(),)) == [
        LockedInstall(
            "uv",
            (
                ("absl-py", "2.1.0"),
                ("numpy", "1.24.3"),
                ("tensorflow", "2.13.1"),
                ("wrapt", "1.15.0"),
            ),
        )
    ]
    poetry = read_locked_installs((_POETRY.replace("  - ", "  • "),))
    assert [x.installer for x in poetry] == ["poetry"]
    assert ("tensorflow", "2.14.1") in poetry[0].installed
    # uv's own install command resolves for the running interpreter: not a lock's list.
    assert read_locked_installs((_uv_add(command="uv pip install"),)) == []


def test_a_uv_lock_without_tensorflow_macos_on_a_mac_is_the_missing_wrapper() -> None:
    found = _missing(explained(_uv_add()))
    assert found is not None and found.severity.value == "warning"
    fix = fix_text(found)
    assert "tensorflow-macos==2.13.1" in fix and "uv add" in fix
    assert 'platform_machine == "arm64"' in fix


def test_apple_silicon_shown_makes_it_an_error_and_an_intel_mac_nothing() -> None:
    apple = explained("Platform: macOS-13.4-arm64-arm-64bit\n" + _uv_add())
    found = _missing(apple)
    assert found is not None and found.severity.value == "error"
    intel = explained("Platform: macOS-13.4-x86_64-i386-64bit\n" + _uv_add())
    assert _missing(intel) is None


def test_poetry_gets_poetrys_own_fix() -> None:
    found = _missing(explained(_POETRY))
    assert found is not None
    assert "tensorflow-macos" in fix_text(found) and "poetry lock" in fix_text(found)


def test_the_wrapper_installed_another_line_or_another_system_is_no_finding() -> None:
    with_wrapper = _uv_add(also=" + tensorflow-macos==2.13.1\n")
    # 2.16 and later publish macOS arm64 wheels of tensorflow itself (no wrapper).
    newer = _uv_add(version="2.16.1")
    linux = _uv_add().replace("/Users/me", "/home/me")
    plain_uv_pip = _uv_add(command="uv pip install")
    for text in (with_wrapper, newer, linux, plain_uv_pip):
        assert _missing(explained(text)) is None, text


@pytest.mark.parametrize(
    ("platform", "marker"),
    [
        pytest.param("windows-x86_64", 'platform_system == "Windows"', id="windows"),
        pytest.param(
            "macos-arm64", 'platform_system == "Darwin" and platform_machine == "arm64"', id="mac"
        ),
        pytest.param(
            "linux-aarch64",
            'platform_system == "Linux" and (platform_machine == "arm64" or '
            'platform_machine == "aarch64")',
            id="aarch64",
        ),
    ],
)
def test_the_wrapper_is_added_with_tensorflow_s_own_marker(platform: str, marker: str) -> None:
    # tensorflow's METADATA states the wrapper's marker with platform_system
    # (tests/data/pypi/metadata: 'tensorflow-intel ==2.16.2 ; platform_system == "Windows"').
    uv = causes.software.locked_wrapper_fix("uv", "2.16.2", "tensorflow-intel", platform)
    assert marker in " ".join(uv.commands)
    poetry = causes.software.locked_wrapper_fix("poetry", "2.16.2", "tensorflow-intel", platform)
    assert f"markers = '{marker}'" in poetry.text


def test_no_tensorflow_module_after_the_locked_install_is_the_missing_wrapper_first() -> None:
    # An x86-64 Python's wheel holds TensorFlow's code: the module missing after the install
    # says the wheel installed was the arm64 one, which needs the wrapper.
    report = explained(
        _POETRY + "/Users/me/proj $ poetry run python -c 'import tensorflow'\n"
        "ModuleNotFoundError: No module named 'tensorflow'\n"
    )
    top = report.findings[0]
    assert top.cause == "dependency-missing" and top.severity.value == "error"
    assert "tensorflow-macos" in fix_text(top)
    # Installing TensorFlow again with pip would leave the wrapper out again.
    assert "tf-not-installed" not in {x.cause for x in report.findings}


def test_no_tensorflow_module_before_the_locked_install_says_nothing_of_it() -> None:
    # The error that led to the install, shown before it: the install may have mended it.
    report = explained(
        "/Users/me/proj $ python -c 'import tensorflow'\n"
        "ModuleNotFoundError: No module named 'tensorflow'\n" + _POETRY
    )
    missing = _missing(report)
    assert missing is None or missing.severity.value == "warning"
