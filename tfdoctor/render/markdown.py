"""The paste-ready bug-report block: findings, fixes and the key facts, with private details
(home directories, hostname, GPU UUIDs) redacted as well as secrets."""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.redact import MASK, Redactor
from tfdoctor.render._common import (
    EvidenceFolder,
    counts_phrase,
    exit_phrase,
    facts_sections,
    group_by_area,
    inert,
)
from tfdoctor.render.smoke import smoke_lines


def render_markdown(
    report: Report,
    version: str,
    *,
    strict: bool = False,
    verbose: bool = False,
    redactor: Optional[Redactor] = None,
) -> str:
    """The report as GitHub-flavoured markdown, ready to paste into an issue.

    Each finding's evidence is shown with repeats left out and folded, or whole with
    ``verbose``. ``redactor`` defaults to private redaction for this machine; tests pass a
    fixed one.
    """
    redactor = redactor or Redactor.for_this_machine(private=True)
    safe = redactor.tree(report)
    facts = safe.facts
    out: list[str] = [
        "### tfdoctor report",
        "",
        f"tfdoctor {escape(version)}: **{counts_phrase(safe.findings)}**; "
        f"{escape(exit_phrase(safe, strict))}.",
        "",
    ]
    ordered = [f for _, group in group_by_area(safe.findings) for f in group]
    if ordered:
        out += ["| Severity | Check | Summary |", "| --- | --- | --- |"]
        out += [f"| {f.severity.value} | {_code(f.id)} | {_cell(f.summary)} |" for f in ordered]
        out.append("")
    else:
        out += ["No checks ran.", ""]

    to_act = [f for f in ordered if f.severity is not Severity.OK]
    if to_act:
        out += ["#### Details and fixes", ""]
        evidence = EvidenceFolder(verbose=verbose)
        for finding in to_act:
            out += _finding_block(finding, evidence)

    facts_text = []
    for section in facts_sections(facts, brief=True):
        facts_text.append(section.title)
        facts_text += section.lines
        facts_text.append("")
    if facts.smoke is not None:
        facts_text += ["Smoke test", *smoke_lines(facts.smoke), ""]
    out += [
        "<details>",
        f"<summary>Environment (facts collected {escape(facts.collected_at)} by tfdoctor "
        f"{escape(facts.tfdoctor_version)})</summary>",
        "",
        *fenced("\n".join(facts_text).rstrip("\n"), "text"),
        "",
        "</details>",
    ]
    # Every string came from the redacted copy; a second pass over the finished page would
    # undo the escaping of the mask (inert touches only what a CI runner would obey).
    return inert("\n".join(out) + "\n")


def _finding_block(finding: Finding, evidence: EvidenceFolder) -> list[str]:
    """A list item: the summary, the fix and its commands, the links, then the evidence."""
    cause = f" ({_code(finding.cause)})" if finding.cause else ""
    lines = [
        f"- **{finding.severity.value}** {_code(finding.id)}{cause}: {escape(finding.summary)}"
    ]
    body: list[str] = []
    if finding.fix is not None:
        body += ["", f"**Fix:** {escape(finding.fix.text)}"]
        if finding.fix.commands:
            body += ["", *fenced("\n".join(finding.fix.commands), "sh")]
    if finding.links:
        body += ["", "See: " + ", ".join(f"<{link}>" for link in finding.links)]
    if finding.detail:
        detail = evidence.lines(finding)
        # One line is prose; more is a log or a traceback, whose lines and indentation only
        # a code block keeps (markdown joins lines and eats leading spaces).
        if len(detail) == 1:
            body += ["", escape(detail[0])]
        elif detail:
            body += ["", *fenced("\n".join(detail), "text")]
    # Continuation lines are indented two spaces so they stay inside the list item.
    lines += [f"  {line}" if line else "" for line in body]
    lines.append("")
    return lines


def fenced(text: str, lang: str) -> list[str]:
    """A fenced code block whose fence is longer than any backtick run inside it."""
    fence = "`" * max(3, _longest_backtick_run(text) + 1)
    return [f"{fence}{lang}", *text.splitlines(), fence]


def _code(text: str) -> str:
    """An inline code span that survives backticks inside ``text``."""
    ticks = "`" * (_longest_backtick_run(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _longest_backtick_run(text: str) -> int:
    """The length of the longest run of backticks in ``text`` (0 when there is none)."""
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def escape(text: str) -> str:
    """Prose made inert: a stray ``<details>`` would swallow the page and the redaction mask
    ``***`` would turn into emphasis."""
    text = re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text)
    return text.replace(MASK, "\\*" * len(MASK))


def _cell(text: str) -> str:
    """Prose for one table cell: no pipes, no line breaks."""
    return " ".join(escape(text).replace("|", "\\|").split())
