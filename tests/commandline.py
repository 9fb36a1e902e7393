"""The one way the tests run the command line: ``python -m tfdoctor`` in a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.facts import to_json

ROOT = Path(__file__).resolve().parent.parent

#: Variables that change what a command prints on the machine running the tests, left out of
#: the child's environment: ``NO_COLOR`` (https://no-color.org) and GitHub Actions' own
#: (``GITHUB_STEP_SUMMARY`` makes ``--format github`` append to the job's summary).
_HOST_ONLY = ("NO_COLOR", "GITHUB_")


def tfdoctor(
    *args: str,
    env: Optional[Mapping[str, str]] = None,
    environ: Optional[Mapping[str, str]] = None,
    stdin: Optional[str] = None,
    timeout: float = 120,
    cwd: Path = ROOT,
) -> subprocess.CompletedProcess[str]:
    """``tfdoctor ARGS`` in a child interpreter, its output captured as text.

    The child's environment is this one's without :data:`_HOST_ONLY`, with ``env`` added;
    ``environ`` instead replaces it whole (a test that controls every variable).
    """
    if environ is None:
        child = {k: v for k, v in os.environ.items() if not k.startswith(_HOST_ONLY)}
        child.update(env or {})
    else:
        child = {**environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "tfdoctor", *args],
        cwd=cwd,
        env=child,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def write_facts(tmp_path: Path, facts: object, name: str = "facts.json") -> Path:
    """``facts`` saved as a bare facts document, the way ``--facts`` reads it."""
    path = tmp_path / name
    path.write_text(json.dumps(to_json(facts)), encoding="utf-8")
    return path


def in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``tfdoctor ARGS`` through the command line's :func:`~tfdoctor.cli.app.main` in this
    process (no child, no fast path): its exit code, and what it printed on each stream."""
    from tfdoctor.cli.app import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err
