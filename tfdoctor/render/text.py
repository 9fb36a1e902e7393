"""The terminal report: one verdict per area, what to fix, and with ``verbose`` every fact.

Colour and width come from the arguments only, so the output is the same on every machine
and golden tests can compare it whole.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.redact import Redactor
from tfdoctor.render._common import (
    EvidenceFolder,
    counts_phrase,
    exit_phrase,
    facts_sections,
    group_by_area,
    inert,
    wrap_at_spaces,
)
from tfdoctor.render.smoke import smoke_lines

# Severity marks for plain terminals (and logs, and CI) and for colour terminals.
_PLAIN_MARK = {
    Severity.OK: "[ ok ]",
    Severity.INFO: "[info]",
    Severity.UNKNOWN: "[ ?? ]",
    Severity.WARNING: "[warn]",
    Severity.ERROR: "[FAIL]",
}
_COLOR_MARK = {
    Severity.OK: "✔",
    Severity.INFO: "i",
    Severity.UNKNOWN: "?",
    Severity.WARNING: "!",
    Severity.ERROR: "✘",
}
_STYLE = {
    Severity.OK: "green",
    Severity.INFO: "cyan",
    Severity.UNKNOWN: "magenta",
    Severity.WARNING: "yellow",
    Severity.ERROR: "bold red",
}


#: The cluster test's all-reduce verdict, bandwidth sweep, its check against --min-busbw and
#: the ring neighbours' links (tfdoctor.cluster.verdicts): printed in a section of their own.
COLLECTIVE_IDS = ("cluster.allreduce", "cluster.bandwidth", "cluster.busbw", "cluster.links")
#: Those whose detail is a table, printed under the summary.
TABLE_IDS = ("cluster.bandwidth", "cluster.links")


def render_text(
    report: Report,
    *,
    verbose: bool = False,
    color: bool = False,
    width: int = 100,
    strict: bool = False,
) -> str:
    """The report for a terminal: verdict per area, non-ok findings with fixes, a summary.

    The string ends in one newline; the caller prints it as it is.
    """
    # Every string printed below comes from this redacted copy, so the finished text needs
    # no second pass (which could also rewrite what the layout added).
    safe = Redactor(private=False).tree(report)
    out = io.StringIO()
    console = Console(
        file=out,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        width=width,
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
        force_jupyter=False,
        force_interactive=False,
    )
    marks = _COLOR_MARK if color else _PLAIN_MARK
    mark_width = max(len(m) for m in marks.values())
    facts = safe.facts

    header = Text(f"tfdoctor {facts.tfdoctor_version}", style="bold")
    if facts.python is not None:
        header.append(f" - {facts.python.executable} (Python {facts.python.version})")
    console.print(header, soft_wrap=True)
    console.print()

    groups = group_by_area(safe.findings)
    evidence = EvidenceFolder(verbose=verbose)
    area_width = max((len(area) for area, _ in groups), default=0)
    for area, findings in groups:
        worst = max((f.severity for f in findings), key=lambda s: s.rank)
        line = Text()
        line.append(marks[worst].ljust(mark_width), style=_STYLE[worst])
        line.append(f" {area.ljust(area_width)}  ", style="bold")
        line.append(_area_verdict(findings, worst))
        console.print(line, soft_wrap=True)
        indent = mark_width + 1
        for finding in findings:
            if finding.severity is not Severity.OK:
                _print_finding(console, finding, marks, indent, mark_width, evidence)
    if not groups:
        console.print("No checks ran.")

    failed = sorted({err.probe for err in facts.errors})
    if failed and not verbose:
        console.print()
        console.print(
            f"Probes that could not determine their facts: {', '.join(failed)} "
            "(--verbose shows why)",
            soft_wrap=True,
        )

    collective = [f for f in safe.findings if f.id in COLLECTIVE_IDS]
    if collective:
        # The cluster test's results, shown whole: an ok all-reduce line would otherwise fold
        # into its area's verdict, and the sweep is a note's detail (--verbose only).
        console.print()
        console.print(Text("Collective test", style="bold underline"), soft_wrap=True)
        for found in collective:
            console.print(Text(found.summary), soft_wrap=True)
            if found.id in TABLE_IDS:
                for table_line in found.detail.splitlines():
                    console.print(Text(f"  {table_line}"), soft_wrap=True)

    if facts.smoke is not None:
        console.print()
        console.print(Text("Smoke test", style="bold underline"), soft_wrap=True)
        for smoke_line in smoke_lines(facts.smoke):
            console.print(Text(smoke_line), soft_wrap=True)

    if verbose:
        for section in facts_sections(facts, brief=False):
            console.print()
            console.print(Text(section.title, style="bold underline"), soft_wrap=True)
            for fact_line in section.lines:
                console.print(Text(fact_line), soft_wrap=True)

    console.print()
    summary = Text("Summary: ", style="bold")
    summary.append(f"{counts_phrase(safe.findings)}; {exit_phrase(safe, strict)}.")
    console.print(summary, soft_wrap=True)
    # Strip trailing blanks rich leaves on wrapped lines: they only make diffs and pastes noisy.
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    return inert("\n".join(lines).rstrip("\n") + "\n")


def _area_verdict(findings: Sequence[Finding], worst: Severity) -> str:
    checks = f"{len(findings)} check{'s' if len(findings) != 1 else ''}"
    if worst is Severity.OK:
        # A healthy area says what was found, so the quiet report still shows the stack.
        return "; ".join(f.summary for f in findings)
    if worst is Severity.INFO:
        notes = sum(1 for f in findings if f.severity is Severity.INFO)
        return f"ok, {notes} note{'s' if notes != 1 else ''} ({checks})"
    return f"{counts_phrase(findings, include_ok=False)} ({checks})"


def _print_finding(
    console: Console,
    finding: Finding,
    marks: dict[Severity, str],
    indent: int,
    mark_width: int,
    evidence: EvidenceFolder,
) -> None:
    """The summary, then the fix and its commands, then the evidence: the cause and the
    remedy fit on the screen however long the log behind them is."""
    head = Text(" " * indent)
    head.append(marks[finding.severity].ljust(mark_width), style=_STYLE[finding.severity])
    head.append(f" {finding.summary}")
    # The cause names the catalogue entry `explain` and `scan` share (docs/findings.md).
    label = f"{finding.id}; cause {finding.cause}" if finding.cause else finding.id
    head.append(f" ({label})", style="dim")
    console.print(head, soft_wrap=True)
    body = indent + mark_width + 1
    # Everything a user might copy (fix, commands, links) is printed whole, never wrapped.
    if finding.fix is not None:
        fix = Text(" " * body)
        fix.append("Fix: ", style="bold")
        fix.append(finding.fix.text)
        console.print(fix, soft_wrap=True)
        for command in finding.fix.commands:
            console.print(Text(" " * (body + 4)) + Text(command, style="bold"), soft_wrap=True)
    for link in finding.links:
        console.print(Text(" " * body + f"See: {link}"), soft_wrap=True)
    # Quiet by default: a note is one line; its detail shows with --verbose.
    if finding.detail and (evidence.verbose or finding.severity is not Severity.INFO):
        # Prose wraps to the width, at spaces only: a path or a pin in it stays whole.
        for line in evidence.lines(finding):
            for part in wrap_at_spaces(line, max(20, console.width - body)):
                console.print(Text(" " * body + part), soft_wrap=True)
