"""The environment judged again after a fix: are the fixed findings gone, is nothing worse?"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Optional

from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import Facts, TensorFlowFacts, TFStatus
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.fix.apply import Verdict
from tfdoctor.matrix import Matrix
from tfdoctor.probes.pyenv import probe_pyenv


def _key(finding: Finding) -> tuple[str, str, str]:
    """What makes a finding the same one after a fix: its check, its cause and what it is
    about (the summary's first word, a package's name), not the versions it quotes."""
    words = finding.summary.split(maxsplit=1)
    return finding.id, finding.cause, words[0] if words else ""


def judge(before: Report, after: Report, fixed: Sequence[Finding]) -> Verdict:
    """Whether ``fixed`` are gone from ``after`` and no error appeared that ``before`` lacked."""
    wanted = {_key(f) for f in fixed}
    still = [
        f for f in after.findings if f.severity.rank >= Severity.WARNING.rank and _key(f) in wanted
    ]
    had = {(f.id, f.cause) for f in before.findings if f.severity is Severity.ERROR}
    new = [f for f in after.findings if f.severity is Severity.ERROR and (f.id, f.cause) not in had]
    reasons = []
    if still:
        reasons.append("still found: " + "; ".join(f.summary for f in still))
    if new:
        reasons.append("new errors: " + "; ".join(f.summary for f in new))
    return Verdict(not reasons, ". ".join(reasons), tuple(still + new))


def judge_facts(facts: Facts, matrix: Optional[Matrix]) -> Report:
    """Saved facts judged by every check, as ``check --facts`` judges them."""
    return Report(facts=facts, findings=run_checks(CheckContext(facts, matrix)))


def rejudge_facts(facts: Facts, python: str, matrix: Optional[Matrix]) -> Report:
    """Saved facts with the environment's Python and packages probed again, judged.

    The saved import outcome describes the packages before the fix, so it is set aside
    (``skipped``, as ``check --static`` records it) rather than judged again.
    """
    pyenv = probe_pyenv(python, all_packages=facts.packages_complete)
    fresh = dataclasses.replace(
        facts,
        python=pyenv.python or facts.python,
        packages=pyenv.packages,
        tensorflow=TensorFlowFacts(status=TFStatus.SKIPPED, interpreter=python),
    )
    return judge_facts(fresh, matrix)
