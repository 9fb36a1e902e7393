"""The catalogue of causes: each cause once, with its explanation, its fix builder and sources.

Checks decide which causes the evidence shows and attach them to findings; the words and the
fix come from here, fitted to the examined machine (:class:`tfdoctor.machine.Machine`): the
package actually installed, the environment kind (conda commands only inside conda, a virtual
environment where the system Python is externally managed), the release's own way of getting
its CUDA libraries (from the matrix), and copies of a library the loader cannot see. ``explain``
and ``scan`` name the same causes, so one cause has one fix.

One module per area, named like the checks of that area (:mod:`tfdoctor.checks`), defines its
causes next to their fix builders; this module assembles them into :data:`CAUSES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Optional

from tfdoctor.causes import (
    cluster,
    code,
    conda,
    container,
    gpu,
    hosted,
    network,
    notebook,
    platform,
    runtime,
    software,
    xla,
)
from tfdoctor.causes.base import CONTRADICTED_BY, Cause, CauseId
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine

__all__ = [
    "AREAS",
    "CAUSES",
    "CONTRADICTED_BY",
    "Cause",
    "CauseId",
    "cluster",
    "code",
    "conda",
    "container",
    "finding",
    "gpu",
    "hosted",
    "merge",
    "network",
    "notebook",
    "other_candidate",
    "platform",
    "runtime",
    "software",
    "unreleased_build_finding",
    "xla",
]

#: The area modules, each with its own ``CAUSES``, in the order the catalogue lists them.
AREAS = (
    platform,
    notebook,
    hosted,
    software,
    gpu,
    container,
    conda,
    xla,
    runtime,
    network,
    code,
    cluster,
)


def merge(areas: Iterable[Mapping[str, Cause]]) -> dict[str, Cause]:
    """The areas' causes in one mapping; an id two areas define is an error, not an override."""
    out: dict[str, Cause] = {}
    for area in areas:
        for cid, cause in area.items():
            if cid in out:
                raise ValueError(f"cause {cid!r} is defined in two areas")
            out[cid] = cause
    return out


#: Every cause, by id. Ids are stable: reports, ``explain`` and ``scan`` name them.
CAUSES: Mapping[str, Cause] = merge(area.CAUSES for area in AREAS)


def finding(
    check: str,
    severity: Severity,
    cause: CauseId,
    summary: str,
    detail: str = "",
    fix: Optional[Fix] = None,
    links: tuple[str, ...] = (),
) -> Finding:
    """A finding resting on ``cause``: its id is the check's, its links start with the cause's."""
    known = CAUSES[cause]
    merged = tuple(dict.fromkeys((*links, *known.links)))
    return Finding(check, severity, summary, detail or known.explanation, fix, merged, cause=cause)


def unreleased_build_finding(
    m: Machine,
    check: str,
    severity: Severity,
    dist: str,
    version: str,
    *,
    did: str = "",
    shown: str = "",
    after: str = "",
    summary: str = "",
    detail: str = "",
) -> Optional[Finding]:
    """That ``dist`` ``version`` (TensorFlow's), a nightly or a pre-release, is at fault: the
    one finding ``tfdoctor check`` and ``tfdoctor explain`` give of it, with
    :func:`runtime.unreleased_build_fix`. ``did``: what the build did, after its name;
    ``shown``: what the evidence shows, the detail's first clause; ``after``: what the detail
    adds. A reader whose evidence says more passes its own ``summary`` and ``detail``
    instead. None for a final release."""
    found = runtime.unreleased_build(version)
    if found is None:
        return None
    cause, final = found
    kind = runtime.unreleased_kind(cause)
    return finding(
        check,
        severity,
        cause,
        summary or f"{dist} {version}, {kind}: {did}",
        detail
        or f"{shown}, and {dist} {version} is {kind} of {final}: unreleased builds carry "
        f"defects that their final release, or a build of another day, does not.{after}",
        runtime.unreleased_build_fix(m, dist, version, final),
    )


def other_candidate(
    cause: CauseId,
    summary: str,
    detail: str,
    fix: Fix,
    severity: Severity = Severity.WARNING,
) -> Finding:
    """A ranked candidate beside the reading the log's words lead with: a finding of its own
    ``cause`` and fix at ``severity`` (a warning unless the caller ranks it lower), its
    ``summary`` given as the other candidate."""
    return finding(
        f"explain.{cause}",
        severity,
        cause,
        f"Or: {summary} (the other candidate)",
        detail,
        fix,
    )
