"""Shared helpers for tests that explain a log written in the test: the report, its top
finding (which must be an error) and its fix as one text."""

from __future__ import annotations

import dataclasses
from typing import Optional

from tests import factories as f
from tfdoctor.explain import explain
from tfdoctor.explain.reader import split_text
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.matrix import Matrix
from tfdoctor.signatures import Signatures, load_signatures

SIGNATURES = load_signatures()


def explained(
    text: str,
    facts: Optional[Facts] = None,
    matrix: Optional[Matrix] = None,
    signatures: Optional[Signatures] = None,
) -> Report:
    """The report explain gives for ``text``, with the fixture matrix unless ``matrix`` (and
    a machine's ``facts``, where given), with the shipped signatures unless ``signatures``."""
    return explain([split_text(text)], signatures or SIGNATURES, matrix or f.FIXTURE_MATRIX, facts)


def renamed(sid: str, tags: tuple[str, ...]) -> Signatures:
    """The shipped signatures with ``sid`` under a new id and with ``tags`` only: a line of its
    family that no code names, whose reading comes from its tags alone."""
    return Signatures(
        SIGNATURES.path,
        tuple(
            dataclasses.replace(s, id=f"{sid}-renamed", tags=tags) if s.id == sid else s
            for s in SIGNATURES.signatures
        ),
    )


def tag_readings(text: str, sid: str, tag: str, cause: str) -> tuple[str, str]:
    """The fix (as :func:`fix_text`) of ``text``'s finding of ``cause`` with the signature
    ``sid`` as a line of its family that no code names, with ``tag`` beside its other tags,
    then with the others only."""
    others = tuple(t for t in SIGNATURES.by_id(sid).tags if t != tag)
    fixes = []
    for tags in (tuple(sorted((*others, tag))), others):
        report = explained(text, signatures=renamed(sid, tags))
        found = [x for x in report.findings if x.cause == cause]
        assert found, [(x.id, x.severity.value) for x in report.findings]
        fixes.append(fix_text(found[0]))
    return fixes[0], fixes[1]


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


def all_causes(text: str) -> set[str]:
    """The causes of every finding explain gives for ``text``, at any severity."""
    return {x.cause for x in explained(text).findings}


def problem_causes(report: Report) -> set[str]:
    """The causes of the findings at warning or above (what a user must act on)."""
    return {
        x.cause for x in report.findings if x.severity.rank >= Severity.WARNING.rank and x.cause
    }


def one_error(report: Report, cause: str) -> Finding:
    """The one finding naming ``cause``, asserted to be an error with a fix."""
    found = [x for x in report.findings if x.cause == cause]
    assert len(found) == 1, [(x.id, x.severity) for x in report.findings]
    assert found[0].severity is Severity.ERROR and found[0].fix is not None
    return found[0]


def finding_of(report: Report, cause: str) -> Optional[Finding]:
    """The report's first finding resting on ``cause``, or None."""
    return next((x for x in report.findings if x.cause == cause), None)


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


def library_frame_log(path: str, code: str, error: str) -> str:
    """A traceback from the user's script into the frame at ``path`` (a library's installed
    file, or another of the user's), which ran ``code`` and raised ``error``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/convert.py", line 12, in <module>\n'
        "    main()\n"
        f'  File "{path}", line 120, in __init__\n'
        f"    {code}\n"
        f"{error}\n"
    )
