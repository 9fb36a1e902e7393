"""Findings: the verdicts checks produce, and the report that carries them.

Findings are plain data (no glyphs, no colours): renderers decide how they look.
This module imports nothing from the package except :mod:`tfdoctor.facts` and the exit codes
of :mod:`tfdoctor.defaults`.
"""

from __future__ import annotations

import enum
from typing import Any, Optional

from tfdoctor.defaults import ExitCode
from tfdoctor.facts import Facts, FactsError, facts_from_json, to_json
from tfdoctor.records import Record, record

#: Version of the JSON report (facts + findings + summary).
REPORT_SCHEMA_VERSION = 2
#: Report versions this tfdoctor still reads facts from.
READABLE_REPORT_VERSIONS = (1, 2)
#: The finding ``explain`` adds for an exception in the log that no cause explains: beside
#: notes alone the report is not clean, and its summary says so.
UNEXPLAINED_EXCEPTION = "explain.unexplained-exception"


class Severity(str, enum.Enum):
    """How bad a finding is. ``unknown`` means the doctor could not tell."""

    OK = "ok"
    INFO = "info"
    UNKNOWN = "unknown"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        """Order for sorting and for the exit code: ok < info < unknown < warning < error."""
        return _RANK[self]


_RANK = {
    Severity.OK: 0,
    Severity.INFO: 1,
    Severity.UNKNOWN: 2,
    Severity.WARNING: 3,
    Severity.ERROR: 4,
}


@record
class Fix(Record):
    """How to repair a finding: one line of advice and the exact commands, in order."""

    text: str
    commands: tuple[str, ...] = ()


@record
class Location(Record):
    """Where in a source file a finding points (``tfdoctor scan``)."""

    path: str
    #: 1-based line (in a notebook: within the cell).
    line: int
    #: 1-based column, in characters.
    column: int
    #: The notebook cell (1-based) the line counts in; absent outside notebooks.
    cell: Optional[int] = None
    #: In a notebook, the line of the ``.ipynb`` file itself that holds that source line,
    #: where it can be told (for tools that point into the file, such as code scanning).
    file_line: Optional[int] = None


@record
class Finding(Record):
    """One verdict: a stable id, a severity, a one-line summary, detail and a fix."""

    id: str
    severity: Severity
    summary: str
    detail: str = ""
    fix: Optional[Fix] = None
    links: tuple[str, ...] = ()
    #: The check that produced the finding.
    check: str = ""
    #: The cause in the catalogue (:mod:`tfdoctor.causes`) the finding rests on, when it names
    #: one: ``explain`` and ``scan`` name the same causes with the same fixes.
    cause: str = ""
    #: Where in the code the finding points (``tfdoctor scan``); written only when set.
    location: Optional[Location] = None


def keep_weightier(findings: dict[str, Finding], found: Finding) -> None:
    """Keep ``found`` where no finding of its id is kept yet, or where it weighs more than the
    kept one: one finding per id, where it first appears, unless a later one of that id weighs
    more (a signature's error after a listing's warning of one id takes its place)."""
    kept = findings.get(found.id)
    if kept is None or found.severity.rank > kept.severity.rank:
        findings[found.id] = found


@record
class Summary(Record):
    """Counts per severity and the exit code the report earns."""

    counts: dict[str, int]
    worst: Severity
    exit_code: int


@record
class BandwidthPoint(Record):
    """One message size of an all-reduce sweep: seconds per call, algorithm and bus bandwidth
    (bytes per second, as nccl-tests defines them)."""

    size: int
    #: The median of the timed calls.
    seconds: float
    #: Bytes per second at the median time.
    algbw: float
    #: algbw * 2(n-1)/n for n ranks, at the median time.
    busbw: float
    #: The fastest timed call (0: not measured).
    seconds_min: float = 0.0
    #: The slowest timed call (0: not measured).
    seconds_max: float = 0.0
    #: Timed calls, after one untimed warm-up.
    iterations: int = 0


@record
class LinkPoint(Record):
    """One ring neighbour pair's point-to-point transfers, timed alone on the wire."""

    #: The sending task (``worker 0``).
    source: str
    #: The receiving task, the next in the ring.
    target: str
    #: Bytes per transfer.
    size: int = 0
    #: The median transfer's seconds.
    seconds: float = 0.0
    seconds_min: float = 0.0
    seconds_max: float = 0.0
    #: Bytes per second of the fastest transfer: what the link carries at best.
    bandwidth: float = 0.0
    #: Why the pair could not be measured (empty when it was).
    error: str = ""
    #: An outlier: far slower than the pairs' median.
    slow: bool = False


@record
class CollectiveImplementation(Record):
    """The collective implementation of the all-reduces: as configured, and as run."""

    #: As MultiWorkerMirroredStrategy holds it (CommunicationOptions): AUTO, RING or NCCL.
    configured: str
    #: What the all-reduces ran on: RING, NCCL, or AUTO where TensorFlow's runtime picks.
    ran: str
    #: The workers' replica device type (CPU, GPU).
    device: str
    #: Replicas in the all-reduce (its ranks).
    ranks: int = 0


@record
class FleetRow(Record):
    """One fact compared across nodes: each node's value, and the nodes out of line."""

    fact: str
    #: The value on each node, in the order of :attr:`FleetTable.nodes`.
    values: tuple[str, ...]
    #: The values differ between the nodes.
    differs: bool = False
    #: The nodes holding a minority value when one value is the majority's.
    odd: tuple[str, ...] = ()


@record
class FleetTable(Record):
    """The facts a fleet compares, node by node."""

    nodes: tuple[str, ...]
    rows: tuple[FleetRow, ...]


@record
class Report(Record):
    """Facts plus the findings the checks drew from them."""

    facts: Facts
    findings: tuple[Finding, ...]
    #: Ctrl-C ended the probing early: the facts are what was found by then.
    interrupted: bool = False
    #: ``cluster smoke``/``local``: the all-reduce bandwidth sweep, smallest message first.
    bandwidth: tuple[BandwidthPoint, ...] = ()
    #: ``cluster smoke``/``local``: the ring neighbours' point-to-point transfers.
    links: tuple[LinkPoint, ...] = ()
    #: ``cluster smoke``/``local``: the collective implementation the all-reduces ran on.
    collective: Optional[CollectiveImplementation] = None
    #: ``fleet`` and the cluster commands: the facts compared across the nodes.
    fleet: Optional[FleetTable] = None

    def worst(self) -> Severity:
        """The most severe finding's severity (``ok`` for an empty report)."""
        return max((f.severity for f in self.findings), key=lambda s: s.rank, default=Severity.OK)

    def exit_code(self, strict: bool = False) -> int:
        """0 nothing worse than info (or warnings, unless strict); 1 warnings when strict;
        2 errors; 130 (128 + SIGINT, the shell's) when interrupted, whatever was found.
        ``unknown`` counts as a warning under ``--strict``: unknown is never OK."""
        if self.interrupted:
            return ExitCode.INTERRUPTED
        worst = self.worst()
        if worst is Severity.ERROR:
            return ExitCode.ERRORS
        if strict and worst.rank >= Severity.UNKNOWN.rank:
            return ExitCode.WARNINGS
        return ExitCode.OK

    def unexplained(self) -> Optional[Finding]:
        """The finding for an exception no cause explains, where the report holds one."""
        return next((f for f in self.findings if f.id == UNEXPLAINED_EXCEPTION), None)

    def summary(self, strict: bool = False) -> Summary:
        """Counts per severity, in severity order, and the exit code."""
        counts = {s.value: 0 for s in Severity}
        for f in self.findings:
            counts[f.severity.value] += 1
        return Summary(counts=counts, worst=self.worst(), exit_code=self.exit_code(strict))


def finding_to_json(finding: Finding) -> dict[str, Any]:
    """A finding as a JSON object (``location`` only when the finding has one)."""
    data: dict[str, Any] = {
        "id": finding.id,
        "check": finding.check,
        "cause": finding.cause,
        "severity": finding.severity.value,
        "summary": finding.summary,
        "detail": finding.detail,
        "fix": None
        if finding.fix is None
        else {"text": finding.fix.text, "commands": list(finding.fix.commands)},
        "links": list(finding.links),
    }
    where = finding.location
    if where is not None:
        data["location"] = {"path": where.path, "line": where.line, "column": where.column}
        if where.cell is not None:
            data["location"]["cell"] = where.cell
    return data


def report_to_json(report: Report, version: str, strict: bool = False) -> dict[str, Any]:
    """The versioned JSON report: schema version, tfdoctor version, facts, findings, summary."""
    summary = report.summary(strict)
    return {
        "schema_version": REPORT_SCHEMA_VERSION,
        "tfdoctor_version": version,
        "facts": to_json(report.facts),
        "findings": [finding_to_json(f) for f in report.findings],
        "summary": {
            "counts": summary.counts,
            "worst": summary.worst.value,
            "exit_code": summary.exit_code,
        },
        **collective_to_json(report),
    }


def collective_to_json(report: Report) -> dict[str, Any]:
    """``{"collective": ...}``: the cluster test's measurements; nothing for other reports."""
    if not (report.bandwidth or report.links or report.collective is not None):
        return {}
    return {
        "collective": {
            "implementation": None if report.collective is None else to_json(report.collective),
            "bandwidth": [to_json(p) for p in report.bandwidth],
            "links": [to_json(p) for p in report.links],
        }
    }


def facts_from_report_json(data: Any) -> Facts:
    """The facts inside a saved JSON report (or a bare facts document)."""
    if isinstance(data, dict) and "facts" in data and "findings" in data:
        if data.get("schema_version") not in READABLE_REPORT_VERSIONS:
            raise FactsError(
                f"report: schema_version {data.get('schema_version')!r} is not supported "
                f"(this tfdoctor reads {', '.join(str(v) for v in READABLE_REPORT_VERSIONS)})"
            )
        data = data["facts"]
    return facts_from_json(data)
