"""The package stays ruff- and mypy-clean (the configuration lives in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    if shutil.which(module) is None and not (Path(sys.executable).parent / module).exists():
        pytest.skip(f"{module} is not installed (it comes with the test extra)")
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_ruff_lint() -> None:
    out = _tool("ruff", "check", "tfdoctor", "tests", "benchmarks", "scripts")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_format() -> None:
    out = _tool("ruff", "format", "--check", "tfdoctor", "tests", "benchmarks", "scripts")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict() -> None:
    out = _tool("mypy")
    assert out.returncode == 0, out.stdout + out.stderr
