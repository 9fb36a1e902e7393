"""Shared helpers for tests that explain a log written in the test: the report, its top
finding (which must be an error) and its fix as one text."""

from __future__ import annotations

from typing import Optional

from tests import factories as f
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.matrix import Matrix
from tfdoctor.signatures import load_signatures

SIGNATURES = load_signatures()


def explained(text: str, facts: Optional[Facts] = None, matrix: Optional[Matrix] = None) -> Report:
    """The report explain gives for ``text``, with the fixture matrix unless ``matrix`` (and
    a machine's ``facts``, where given)."""
    return explain([split_text(text)], SIGNATURES, matrix or f.FIXTURE_MATRIX, facts)


def top_error(report: Report) -> Finding:
    """The report's first finding, asserted to be an error."""
    assert report.findings, "no finding"
    top = report.findings[0]
    assert top.severity is Severity.ERROR, [(x.id, x.severity.value) for x in report.findings]
    return top


#: How a ranked candidate's summary ends where the log cannot tell it from the finding above it
#: (the second of two readings of one observation, a warning).
CANDIDATE = "(the other candidate)"


def readings(report: Report) -> list[Finding]:
    """The findings at warning or above, without the ranked candidates that follow one."""
    return [
        x
        for x in report.findings
        if x.severity.rank >= Severity.WARNING.rank and not x.summary.endswith(CANDIDATE)
    ]


def fix_text(finding: Finding) -> str:
    """The finding's fix: its text and commands, one per line."""
    assert finding.fix is not None
    return "\n".join((finding.fix.text, *finding.fix.commands))


def one_frame_log(message: str, code: str, head: str = "") -> str:
    """A traceback of one frame of the user's own file: ``head`` (a version line), the source
    line ``code`` and the exception line ``message``."""
    return (
        f"{head}"
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 12, in <module>\n'
        f"    {code}\n"
        f"{message}\n"
    )
