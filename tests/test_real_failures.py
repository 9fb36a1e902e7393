"""Real failures from public threads, replayed: the right cause, a fix that works, no harm.

Each file under tests/data/real_failures/ is one machine from a public issue or forum thread,
as the probes would record it, with the thread's URL, the confirmed root cause and the fix that
worked (see tests/data/real_failures/README.md). The checks run against the frozen test matrix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests import factories as f
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import Facts, PackageFacts, facts_from_json
from tfdoctor.findings import Finding, Severity

CASES_DIR = Path(__file__).resolve().parent / "data" / "real_failures"
CASES = sorted(CASES_DIR.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _judge(facts: Facts) -> tuple[Finding, ...]:
    return run_checks(CheckContext(facts, f.FIXTURE_MATRIX))


def _fix_text(finding: Finding) -> str:
    if finding.fix is None:
        return ""
    return "\n".join((finding.fix.text, *finding.fix.commands))


def case_faults(case: Mapping[str, Any]) -> list[str]:
    """A machine case without an https source, or without the confirmed root cause and the
    fix that worked (what the replay is judged against)."""
    faults = [] if re.match(r"https://", str(case.get("source"))) else ["source"]
    return faults + [key for key in ("root_cause", "fix_that_worked") if not case.get(key)]


def test_the_corpus_is_large_and_sourced() -> None:
    assert len(CASES) >= 60, len(CASES)
    cases = [_load(path) for path in CASES]
    assert [(p.name, x) for p, c in zip(CASES, cases) for x in case_faults(c)] == []
    # Each case is its own thread, but a thread may show two machines.
    assert len({c["source"] for c in cases}) >= len(CASES) * 0.8
    # Planted: a source that is no address, a case without the fix that worked.
    assert case_faults({**cases[0], "source": "a forum post"}) == ["source"]
    assert case_faults({**cases[0], "fix_that_worked": ""}) == ["fix_that_worked"]


#: Cases the checks do not yet get right, each with what is missing. Strict: a case that
#: starts passing must leave this list.
KNOWN_GAPS = {
    "c08-tf1131-cuda90-machine-needs-cuda100": "1.13 and 1.12 are outside the matrix",
}
#: Cases whose package fix, applied, does not yet clear the cause.
KNOWN_PROPERTY_GAPS: dict[str, str] = {}


def _case_param(path: Path) -> object:
    gap = KNOWN_GAPS.get(path.stem)
    marks = [pytest.mark.xfail(reason=gap, strict=True)] if gap else []
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", [_case_param(p) for p in CASES])
def test_real_failure_gets_its_cause_and_a_working_fix(path: Path) -> None:
    case = _load(path)
    expect = case["expect"]
    findings = _judge(facts_from_json(case["facts"]))
    problems = [x for x in findings if x.severity.rank >= Severity.WARNING.rank]
    if expect["cause"] == "none":
        assert problems == [], [f"{x.id}: {x.summary}" for x in problems]
        return
    hits = [x for x in findings if x.cause == expect["cause"]]
    assert hits, (expect["cause"], [(x.id, x.cause, x.summary) for x in problems])
    worst = max(hits, key=lambda x: x.severity.rank)
    assert worst.severity.rank >= Severity(expect["severity"]).rank, worst
    # Words in any case, as benchmarks/bench_accuracy.py judges the unseen machines.
    text = "\n".join(_fix_text(x) for x in hits).lower()
    for needle in expect.get("fix_includes", ()):
        assert needle.lower() in text, (needle, text)
    every_fix = "\n".join(_fix_text(x) for x in findings).lower()
    for needle in expect.get("fix_excludes", ()):
        assert needle.lower() not in every_fix, (needle, every_fix)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_one_cause_has_one_fix(path: Path) -> None:
    findings = _judge(facts_from_json(_load(path)["facts"]))
    fixes: dict[str, set[tuple[str, ...]]] = {}
    for x in findings:
        if x.cause and x.fix is not None and x.fix.commands:
            fixes.setdefault(x.cause, set()).add(x.fix.commands)
    assert {c: v for c, v in fixes.items() if len(v) > 1} == {}


# --- the fix, applied, removes the cause ---------------------------------------------------------

_PACKAGE_CAUSES = (
    "numpy-abi",
    "dependency-out-of-range",
    "keras-version",
    "cuda-wheel-pins",
    "companion-mismatch",
)


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            p,
            id=p.stem,
            marks=[pytest.mark.xfail(reason=KNOWN_PROPERTY_GAPS[p.stem], strict=True)]
            if p.stem in KNOWN_PROPERTY_GAPS
            else [],
        )
        for p in CASES
    ],
)
def test_applying_a_package_fix_removes_its_cause(path: Path) -> None:
    facts = facts_from_json(_load(path)["facts"])
    before = _judge(facts)
    for finding in before:
        if finding.cause not in _PACKAGE_CAUSES or finding.fix is None:
            continue
        after_facts = f.apply_installs(facts, finding.fix.commands)
        if after_facts is None:
            continue
        after = _judge(after_facts)
        # One finding per companion: the fixed one's (its name leads the summary) is gone.
        assert not [
            x
            for x in after
            if x.cause == finding.cause
            and x.id == finding.id
            and (
                x.cause != "companion-mismatch"
                or x.summary.split()[0] == finding.summary.split()[0]
            )
        ], finding.summary
        new_errors = {x.cause for x in after if x.severity is Severity.ERROR} - {
            x.cause for x in before if x.severity is Severity.ERROR
        }
        assert new_errors <= {""}, new_errors


def test_a_fixed_numpy_pin_property() -> None:
    """The property on a hand-built machine: NumPy 2 under TF 2.15, fix applied, cause gone."""
    facts = f.facts(packages=(*f.packages()[:1], PackageFacts("numpy", "2.1.0", f.SITE)))
    before = [x for x in _judge(facts) if x.cause == "numpy-abi"]
    assert before and before[0].fix is not None
    after_facts = f.apply_pip(facts, before[0].fix.commands)
    assert after_facts is not None
    assert not [x for x in _judge(after_facts) if x.cause == "numpy-abi"]
