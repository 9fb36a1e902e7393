"""``tfdoctor upgrade``'s plan as text, markdown and JSON (SARIF: :mod:`tfdoctor.render.sarif`).

The steps keep the plan's order (what to do first comes first), so they are not grouped by area
as a report's findings are; code changes are headed by their file. The JSON is the report
document (``schema_version``, ``facts``, ``findings``, ``summary``) with a ``plan`` object.
"""

from __future__ import annotations

import json
from typing import Any

from tfdoctor.defaults import ExitCode
from tfdoctor.findings import Finding, Severity, report_to_json
from tfdoctor.redact import Redactor
from tfdoctor.render._common import inert_json, wrap_at_spaces
from tfdoctor.render.markdown import escape as _escape
from tfdoctor.render.markdown import fenced
from tfdoctor.upgrade import Plan

_MARK = {
    Severity.OK: "[ ok ]",
    Severity.INFO: "[info]",
    Severity.UNKNOWN: "[ ?? ]",
    Severity.WARNING: "[todo]",
    Severity.ERROR: "[FAIL]",
}
#: ANSI SGR colours of the marks (ECMA-48): green, cyan, magenta, yellow, bold red.
_COLOUR = {
    Severity.OK: "32",
    Severity.INFO: "36",
    Severity.UNKNOWN: "35",
    Severity.WARNING: "33",
    Severity.ERROR: "1;31",
}


def exit_phrase(plan: Plan) -> str:
    """What the plan's exit code means."""
    code = plan.exit_code()
    if code == ExitCode.ERRORS:
        return f"exit code {code}: the move cannot be done on this machine"
    if code == ExitCode.WARNINGS:
        return f"exit code {code}: changes to make"
    return f"exit code {code}: nothing to change"


def _safe(plan: Plan, controls: bool = True) -> Plan:
    """``plan`` redacted; ``controls`` off for JSON, which escapes control characters itself."""
    return Redactor(private=False, controls=controls).tree(plan)


def _is_code(finding: Finding) -> bool:
    return finding.location is not None


def render_upgrade_text(plan: Plan, *, color: bool = False, width: int = 100) -> str:
    """The plan for a terminal: the summary, the steps in order, the oks, the exit code."""
    safe = _safe(plan)
    out = [safe.summary, ""]
    steps = [f for f in safe.report.findings if f.severity is not Severity.OK]
    oks = [f for f in safe.report.findings if f.severity is Severity.OK]
    path = None
    for number, item in enumerate(steps, 1):
        if _is_code(item) and item.location is not None and item.location.path != path:
            path = item.location.path
            out.append(f"Code: {path}")
        elif not _is_code(item) and path is not None:
            path = None
        mark = _MARK[item.severity]
        if color:
            mark = f"\x1b[{_COLOUR[item.severity]}m{mark}\x1b[0m"
        out += wrap_at_spaces(f"{number:>3}. {mark} {item.summary}", width, " " * 12)
        body: list[str] = []
        if item.detail:
            body += item.detail.splitlines()
        if item.fix is not None:
            body.append(f"Fix: {item.fix.text}")
            body += [f"  $ {command}" for command in item.fix.commands]
        if item.links:
            body.append("See: " + " ".join(item.links))
        for text in body:
            out += wrap_at_spaces(f"       {text}", width, "  ")
    if oks:
        out += ["", "Already fine:"]
        for item in oks:
            out += wrap_at_spaces(f"  {_MARK[item.severity]} {item.summary}", width, " " * 9)
    out += ["", exit_phrase(safe)]
    return "\n".join(out) + "\n"


def render_upgrade_markdown(plan: Plan) -> str:
    """The plan as GitHub-flavoured markdown: the summary, numbered steps, fixes as code."""
    safe = _safe(plan)
    out = ["### tfdoctor upgrade plan", "", f"**{_escape(safe.summary)}**", ""]
    path = None
    steps = [f for f in safe.report.findings if f.severity is not Severity.OK]
    for number, item in enumerate(steps, 1):
        if _is_code(item) and item.location is not None and item.location.path != path:
            path = item.location.path
            out += [f"#### Code: `{path}`", ""]
        out.append(f"{number}. **{item.severity.value}** `{item.id}`: {_escape(item.summary)}")
        detail = item.detail.splitlines()
        # One line is prose; more (the pins) only a code block keeps as written.
        if len(detail) == 1:
            out += ["", f"   {_escape(detail[0])}"]
        elif detail:
            out += ["", *(f"   {text}" for text in fenced("\n".join(detail), "text"))]
        if item.fix is not None:
            out += ["", f"   Fix: {_escape(item.fix.text)}"]
            if item.fix.commands:
                out += ["", *(f"   {c}" for c in fenced("\n".join(item.fix.commands), "sh"))]
        out.append("")
    oks = [f for f in safe.report.findings if f.severity is Severity.OK]
    if oks:
        out += ["Already fine:", "", *(f"- {_escape(f.summary)}" for f in oks), ""]
    out += [_escape(exit_phrase(safe)) + ".", ""]
    return "\n".join(out)


def render_upgrade_json(plan: Plan, version: str) -> str:
    """The report document of the plan's steps, plus ``plan``: from, to, summary, pins."""
    safe = _safe(plan, controls=False)
    data: dict[str, Any] = report_to_json(safe.report, version, strict=True)
    pins = safe.pins
    data["plan"] = {
        "from": safe.source,
        "to": safe.target,
        "summary": safe.summary,
        "paths": list(safe.paths),
        "pins": None
        if pins is None
        else [entry.requirement() for entry in pins.entries if entry.pinned],
        "requested": None if pins is None else list(pins.requested),
        "pins_mode": None if pins is None else pins.mode,
    }
    return inert_json(json.dumps(data, indent=2, sort_keys=True) + "\n")
