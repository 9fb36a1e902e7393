"""Facts files that state their own verdict: ``{"title", "source", "expect", "facts"}``, where
``expect`` names the check, the severity and cause of its finding, and words its fix must
(``fix_includes``) or must not (``fix_excludes``) hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Finding
from tfdoctor.matrix import load_matrix


def read_case(path: Path) -> dict[str, Any]:
    """A facts file with its expectation."""
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def assert_verdict(path: Path) -> Finding:
    """The expected check's one finding on the file's facts has the expected severity, cause
    and fix; the file cites where its machine's contents come from."""
    case = read_case(path)
    expect = case["expect"]
    facts = facts_from_json(case["facts"])
    findings = run_checks(CheckContext(facts, load_matrix()), select_checks([expect["check"]]))
    (found,) = [f for f in findings if f.id == expect["check"]]
    assert (found.severity.value, found.cause) == (expect["severity"], expect["cause"]), found
    fix = "" if found.fix is None else found.fix.text + "\n" + "\n".join(found.fix.commands)
    for needle in expect.get("fix_includes", ()):
        assert needle in fix, (needle, fix)
    for needle in expect.get("fix_excludes", ()):
        assert needle not in fix, (needle, fix)
    assert case["source"].startswith("https://")
    return found
