"""Fix commands that run pip reach the examined environment: its interpreter's pip where the
facts name it, uv's where the log shows uv installing (``Machine.pip``, the one home)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import pytest

from tests import factories as f
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.evidence.installer import log_installer
from tfdoctor.explain import explain
from tfdoctor.explain.reader import read_log
from tfdoctor.facts import Facts, facts_from_json
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import UV_PIP_COMMANDS
from tfdoctor.signatures import load_signatures

DATA = Path(__file__).resolve().parent / "data"


def _facts_in(path: Path) -> Optional[dict[str, Any]]:
    """The facts a plain JSON file under tests/data holds: a ``.facts.json`` file, a case
    with its machine under ``facts``, or a saved facts document; None for other data."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if path.name.endswith(".facts.json"):
        return doc if isinstance(doc, dict) else None
    if isinstance(doc, dict) and isinstance(doc.get("facts"), dict):
        return doc["facts"]  # type: ignore[no-any-return]
    if isinstance(doc, dict) and "tfdoctor_version" in doc and "collected_at" in doc:
        return doc
    return None


def _facts_files() -> Iterator[tuple[Path, Facts]]:
    # Only plain files: a gzipped case is held out and never read.
    for path in sorted(DATA.rglob("*.json")):
        found = _facts_in(path)
        if found is not None:
            yield path, facts_from_json(found)


def _commands(findings: tuple[Finding, ...]) -> Iterator[tuple[str, str]]:
    """Each fix command of ``findings``, with the id of its finding."""
    for x in findings:
        for command in x.fix.commands if x.fix is not None else ():
            yield x.id, command


def _bare_pip(findings: tuple[Finding, ...]) -> list[str]:
    return [f"{i}: {c}" for i, c in _commands(findings) if c.startswith("pip ")]


def test_no_fix_runs_a_bare_pip_where_the_facts_name_the_interpreter() -> None:
    seen = 0
    for path, facts in _facts_files():
        if facts.python is None or not facts.python.executable:
            continue
        seen += 1
        findings = run_checks(CheckContext(facts, f.FIXTURE_MATRIX))
        assert _bare_pip(findings) == [], path.name
    assert seen >= 200  # the replayed machines, healthy and failing


def test_a_bare_pip_is_caught_where_a_fix_writes_one() -> None:
    """Planted: the property sees a bare pip among a fix's commands, and only there."""
    looks = Fix("See which release is installed.", ("pip show tensorflow",))
    assert _bare_pip((Finding("tensorflow.import", Severity.ERROR, "s", fix=looks),)) != []
    words = Fix("`pip show tensorflow` names it.", ("/usr/bin/python3 -m pip show tensorflow",))
    assert _bare_pip((Finding("tensorflow.import", Severity.ERROR, "s", fix=words),)) == []


def _uv_logs() -> list[Path]:
    logs = sorted((DATA / "logs").glob("*.log")) + sorted((DATA / "logs_unseen").glob("*/*.log"))
    return [p for p in logs if log_installer(p.read_text(encoding="utf-8", errors="replace"))]


#: pip's options uv's pip interface refuses (clap: "unexpected argument"), or asks none of.
_NOT_UV: frozenset[str] = frozenset({"--timeout", "--retries", "--proxy", "--user", "-y", "--yes"})


def _not_uv(findings: tuple[Finding, ...]) -> list[str]:
    """The commands that call uv's pip interface with a command or an option it lacks."""
    return [
        f"{i}: {c}"
        for i, c in _commands(findings)
        if c.startswith("uv pip ")
        and (
            c.split(" ")[2] not in UV_PIP_COMMANDS
            or any(word in _NOT_UV for word in c.split(" ")[3:])
        )
    ]


@pytest.mark.parametrize("path", _uv_logs(), ids=lambda p: p.stem)
def test_a_log_of_uv_installing_gets_no_bare_pip(path: Path) -> None:
    report = explain(read_log(io.BytesIO(path.read_bytes()), path.name), load_signatures(), None)
    assert _bare_pip(report.findings) == []
    assert _not_uv(report.findings) == []


def test_a_uv_form_uv_lacks_is_caught() -> None:
    """Planted: a `uv pip` command with pip's --timeout, or a pip command uv lacks."""
    for command in ("uv pip install --timeout 120 PACKAGE", "uv pip cache purge"):
        planted = Fix("Install it again.", (command,))
        assert _not_uv((Finding("install.x", Severity.ERROR, "s", fix=planted),)) != []
    fine = Fix("Install it again.", ("uv pip install --no-cache-dir PACKAGE",))
    assert _not_uv((Finding("install.x", Severity.ERROR, "s", fix=fine),)) == []


def test_the_corpus_has_logs_of_uv_installing() -> None:
    assert len(_uv_logs()) >= 3
