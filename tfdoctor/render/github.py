"""The report as GitHub Actions workflow commands: annotations, a folded list, a summary line.

Annotations follow GitHub's limits (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands):
at most 10 of each kind (error, warning, notice) per step and 50 per job, so the most severe
findings are annotated first and one plain line says how many more there are. Every finding is
still listed in a folded group of the log, and the markdown report goes to the job summary
(``$GITHUB_STEP_SUMMARY``, at most 1 MiB per step): :func:`fit_step_summary` cuts it to fit.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Optional

from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.redact import Redactor
from tfdoctor.render._common import counts_phrase, exit_phrase, group_by_area, inert

#: Annotations of one kind GitHub shows per step.
MAX_PER_KIND = 10
#: Annotations GitHub shows per job.
MAX_PER_JOB = 50
#: The most a step may write to ``$GITHUB_STEP_SUMMARY``; past it the summary is dropped
#: and an error annotation says so (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#step-isolation-and-limits).
STEP_SUMMARY_LIMIT = 1024 * 1024
#: Detail lines an annotation carries; the rest is in the job summary.
DETAIL_LINES = 12

# Unknown is a warning here: it is never OK, and --strict fails on it.
_KIND = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.UNKNOWN: "warning",
    Severity.INFO: "notice",
}
_NOUNS = {"error": "errors", "warning": "warnings", "notice": "notices"}
_MARK = {
    Severity.OK: "[ ok ]",
    Severity.INFO: "[info]",
    Severity.UNKNOWN: "[ ?? ]",
    Severity.WARNING: "[warn]",
    Severity.ERROR: "[FAIL]",
}
_FENCE = re.compile(r"^(`{3,})")


def render_github(report: Report, version: str, *, command: str, strict: bool = False) -> str:
    """Workflow commands for ``report``: annotations (most severe first, within GitHub's
    limits), a note of those left out, every finding in a folded group, and a summary line."""
    safe = Redactor(private=False).tree(report)
    ordered = [f for _, group in group_by_area(safe.findings) for f in group]
    # sorted() is stable: within a severity, findings keep the report's area order.
    to_annotate = sorted(
        (f for f in ordered if f.severity in _KIND), key=lambda f: -f.severity.rank
    )
    lines: list[str] = []
    shown: Counter[str] = Counter()
    left: Counter[str] = Counter()
    for finding in to_annotate:
        kind = _KIND[finding.severity]
        if shown[kind] < MAX_PER_KIND and sum(shown.values()) < MAX_PER_JOB:
            lines.append(annotation(finding, kind))
            shown[kind] += 1
        else:
            left[kind] += 1
    if left:
        more = ", ".join(
            f"{left[k]} more {k if left[k] == 1 else _NOUNS[k]}" for k in _NOUNS if left[k]
        )
        lines.append(
            f"tfdoctor: {more} not annotated (GitHub shows at most {MAX_PER_KIND} of each "
            "kind per step); all findings are listed below and in the job summary."
        )
    lines.append(f"::group::tfdoctor {command}: {counts_phrase(safe.findings)}")
    lines += [f"{_MARK[f.severity]} {f.id}: {inert(_one_line(f.summary))}" for f in ordered]
    lines.append("::endgroup::")
    lines.append(f"tfdoctor {version}: {counts_phrase(safe.findings)}; {exit_phrase(safe, strict)}")
    return "\n".join(lines) + "\n"


def annotation(finding: Finding, kind: str) -> str:
    """One ``::error``/``::warning``/``::notice`` command for ``finding``, with its file and
    line when it has a location."""
    title = f"tfdoctor {finding.id}"
    if finding.severity is Severity.UNKNOWN:
        title += " (could not determine)"
    props = [*_location(finding), ("title", title)]
    params = ",".join(f"{name}={escape_property(value)}" for name, value in props)
    return f"::{kind} {params}::{escape_data(_message(finding))}"


def _message(finding: Finding) -> str:
    parts = [finding.summary]
    if finding.detail:
        detail = finding.detail.splitlines()
        if len(detail) > DETAIL_LINES:
            detail = [*detail[:DETAIL_LINES], "(more in the job summary)"]
        parts.append("\n".join(detail))
    if finding.fix is not None:
        fix = [f"Fix: {finding.fix.text}", *(f"  $ {c}" for c in finding.fix.commands)]
        parts.append("\n".join(fix))
    return "\n\n".join(parts)


def _location(finding: Finding) -> list[tuple[str, str]]:
    """``file``, ``line`` and ``col`` for a finding that carries a ``location`` (an object or
    mapping with ``path``, ``line``, ``column`` and, in a notebook, ``cell``, as ``scan``
    findings have); else none."""
    loc: Any = getattr(finding, "location", None)
    if loc is None:
        return []

    def field(name: str) -> Optional[object]:
        return loc.get(name) if isinstance(loc, dict) else getattr(loc, name, None)

    path = field("path")
    if not path:
        return []
    props = [("file", str(path))]
    if field("cell") is not None:
        return props  # a notebook's line counts within its cell: GitHub's would be wrong
    for name, key in (("line", "line"), ("col", "column")):
        value = field(key)
        if isinstance(value, int) and value > 0:
            props.append((name, str(value)))
    return props


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as the Actions toolkit does
    (https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value (``title=``, ``file=``), escaped as the toolkit does."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _one_line(text: str) -> str:
    # A log line that starts with "::" is read as a command; ours start with a mark.
    return " ".join(text.split())


def fit_step_summary(markdown: str, room: int) -> str:
    """``markdown`` cut at a line so its UTF-8 size fits in ``room`` bytes, with a note saying
    it was cut; an open code fence is closed. Empty when not even the note fits."""
    data = markdown.encode("utf-8")
    if len(data) <= room:
        return markdown
    note = (
        "\n\n_tfdoctor: the report was cut here to stay under GitHub's 1 MiB job-summary "
        "limit; the full report is in the JSON report._\n"
    )
    budget = room - len(note.encode("utf-8")) - 16  # 16: a closing fence and its newlines
    if budget <= 0:
        return ""
    kept = data[:budget].decode("utf-8", errors="ignore")
    lines = kept.split("\n")[:-1]  # the last line may be cut mid-way
    fence: Optional[str] = None
    for line in lines:
        match = _FENCE.match(line)
        if match and fence is None:
            fence = match.group(1)
        elif match and fence is not None and line.strip() == fence:
            fence = None
    text = "\n".join(lines)
    if fence is not None:
        text += "\n" + fence
    text += note
    return text if len(text.encode("utf-8")) <= room else ""
