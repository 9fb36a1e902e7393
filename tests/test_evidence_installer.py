"""The installer a refusal's words are in, read once (tfdoctor.evidence.installer), and the
fixes of every builder that asks it."""

from __future__ import annotations

import pytest

from tests.explaining import explained
from tfdoctor.evidence.installer import (
    PIP_WORDS,
    PIPTOOLS_WORDS,
    POETRY_WORDS,
    UV_WORDS,
    Installer,
    read_installer,
)


@pytest.mark.parametrize(
    ("words", "cited", "tool", "interface", "finder"),
    [
        pytest.param((), "", "pip", "", "pip", id="no-tag-is-pip"),
        pytest.param((PIP_WORDS,), "", "pip", "", "pip", id="pip"),
        pytest.param(
            (UV_WORDS, PIP_WORDS), "and you require tensorflow", "pip", "", "pip", id="pip-first"
        ),
        pytest.param(
            (UV_WORDS,),
            "and you require tensorflow, we can conclude that your requirements are unsatisfiable.",
            "uv",
            "uv pip",
            "uv",
            id="uv-pip-interface",
        ),
        pytest.param(
            (UV_WORDS,),
            "and your project depends on tensorflow==2.18.0, we can conclude that your "
            "project's requirements are unsatisfiable.",
            "uv",
            "uv",
            "uv",
            id="uv-project",
        ),
        pytest.param(
            (UV_WORDS,),
            "hint: You're on Windows (`win32`), but `tensorflow` (v2.18.0) only has wheels for "
            "the following platforms: `manylinux_2_17_x86_64`, `win_amd64`",
            "uv",
            "uv",
            "uv",
            id="uv-lock-hint-is-a-project",
        ),
        pytest.param((UV_WORDS,), "no wheels", "uv", "", "uv", id="uv-interface-unsaid"),
        pytest.param((POETRY_WORDS,), "", "poetry", "", "Poetry", id="poetry"),
        pytest.param((PIPTOOLS_WORDS,), "", "pip-tools", "", "pip", id="pip-tools-finds-as-pip"),
    ],
)
def test_read_installer(
    words: tuple[str, ...], cited: str, tool: str, interface: str, finder: str
) -> None:
    found = read_installer(words, cited)
    assert found == Installer(tool, interface)
    assert found.finder == finder
    assert found.uv == (tool == "uv")


#: uv's refusal of a 32-bit interpreter, in each interface's words.
_UV_32BIT_PIP = (
    "  \u00d7 No solution found when resolving dependencies:\n"
    "  ╰─▶ Because only tensorflow<=2.18.0 is available and tensorflow==2.18.0 has no wheels "
    "with a matching platform tag (e.g., `win32`), we can conclude that tensorflow>=2.18.0 "
    "cannot be used.\n      And because you require tensorflow>=2.18.0, we can conclude that "
    "your requirements are unsatisfiable.\n"
)
_UV_32BIT_PROJECT = (
    "  \u00d7 No solution found when resolving dependencies:\n"
    "  ╰─▶ Because tensorflow==2.18.0 has no wheels with a matching platform tag and your "
    "project depends on tensorflow==2.18.0, we can conclude that your project's requirements "
    "are unsatisfiable.\n\n"
    "      hint: You're on Windows (`win32`), but `tensorflow` (v2.18.0) only has wheels for the "
    "following platforms: `manylinux_2_17_aarch64`, `manylinux_2_17_x86_64`, "
    "`macosx_12_0_arm64`, `win_amd64`\n"
)


@pytest.mark.parametrize(
    ("log", "command"),
    [
        pytest.param(_UV_32BIT_PIP, "uv pip install", id="uv-pip"),
        pytest.param(_UV_32BIT_PROJECT, "uv sync", id="uv-project"),
    ],
)
def test_python_32bit_fix_speaks_the_interface_read(log: str, command: str) -> None:
    """The 32-bit Python's fix asks the one reading: uv's project hint gives a project's
    commands, uv pip's words its own."""
    finding = next(x for x in explained(log).findings if x.cause == "python-32bit")
    assert finding.fix is not None
    assert any(c.startswith(command) for c in finding.fix.commands), finding.fix.commands


def test_metadata_refusal_fix_names_pip_tools() -> None:
    """pip-tools' words (its tag, not its signature's id) give Pipenv's and pip-compile's fix
    for a pre-release requirement, not uv's."""
    report = explained(
        "Could not find a version that matches tensorflow-estimator<2.4.0,>=2.3.0-rc0\n"
    )
    finding = next(x for x in report.findings if x.cause == "tf-metadata-unsatisfiable")
    assert finding.fix is not None
    assert "pip-compile: --pre" in finding.fix.text
    assert not any(c.startswith("uv") for c in finding.fix.commands)
