"""Readings of a program that went on after a message: whether it was fatal."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import Optional

from tfdoctor.causes import observed
from tfdoctor.evidence.traceback import failures
from tfdoctor.explain.scanning import Evidence, Hits, _notice_names
from tfdoctor.findings import Finding, Severity
from tfdoctor.signatures import GOES_ON, PROCESS_ENDED


def _went_on_overruled(found: list[Finding], evidence: Evidence) -> list[Finding]:
    """``found`` with what the log's own work done refutes made notes
    (:func:`_went_on_seen`), worst first; unchanged where the log shows none. The work done
    refutes only what the log shows before it: a finding whose evidence all comes after
    (a notice or a failure at save time, after the epochs trained) keeps its weight."""
    worked = _went_on_seen(evidence)
    if not worked:
        return found
    # What the work done alone observed, left out for a finding shown only after it.
    went = f"The run went on: {evidence.went_on[1].what}" if evidence.went_on else None
    unworked = {k: v for k, v in worked.items() if went is None or not v.startswith(went)}
    return sorted(
        (
            observed.overrule_seen(x, unworked if _shown_after_work(x, evidence) else worked)
            for x in found
        ),
        key=lambda f: -f.severity.rank,
    )


#: A line a finding cites, as :meth:`LogText.where` names it (``line 12``, ``cell 3, line 4``,
#: ``last 128 MiB, line 9``).
_CITED_AT = re.compile(r"\b(?:(cell) (\d+), |(last) [^,\n]{1,20}, )?line (\d+)\b")


_CITED_LINE = re.compile(r"^(?:cell \d+, |last [^,\n]{1,20}, )?line \d+(?=: )", re.M)


def _position(where: str) -> Optional[tuple[int, int, int]]:
    """``where`` (:meth:`LogText.where`'s words) as an order: cell, tail read, line."""
    m = _CITED_AT.search(where)
    if m is None:
        return None
    return (int(m[2]) if m[1] else 0, 1 if m[3] else 0, int(m[4]))


def _shown_after_work(finding: Finding, evidence: Evidence) -> bool:
    """Whether everything the log shows of ``finding`` comes after the line showing the work
    done: the lines of its cause's signatures and those its detail cites lie after it, and
    the notices it names (pip's conflicts, a companion's import check) were all printed after
    it. False where its evidence is before it, or where where it lies is not known."""
    if evidence.went_on is None or finding.cause is None:
        return False
    went = _position(evidence.went_on[0])
    if went is None:
        return False
    hits = [h for h in evidence.hits.values() if h.signature.cause == finding.cause]
    wheres = [w for h in hits for w, _ in h.citations]
    # The detail's own citations open its lines (``line 12: ...``); a frame's "line 40" not.
    wheres += [m[0] for m in _CITED_LINE.finditer(finding.detail)]
    positions = [p for p in map(_position, wheres) if p is not None]
    if any(p < went for p in positions):
        return False
    said = f"{finding.summary}\n{finding.detail}"
    named = _notice_names(evidence.conflicts, evidence.import_checks)
    named_here = {n for n in named if re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w-])", said)}
    if named_here and named_here & evidence.named_before_work:
        return False
    return bool(positions) or bool(named_here)


def _process_ended(evidence: Evidence) -> bool:
    """Whether the log shows a process ending without a traceback: a crash's own words
    (:func:`tfdoctor.evidence.progress.crash_shown`) or a line of a signature tagged
    ``process-ended`` (a shell's, IDE's or runtime's report of a signal that ended it)."""
    hits = evidence.hits.values()
    return evidence.crashed or any(PROCESS_ENDED in h.signature.tags for h in hits)


def _went_on_seen(evidence: Evidence) -> dict[str, str]:
    """The observations a log's own lines make where nothing failed (no exception that ended
    the run, no refusal of pip's, no crash): the run did its work (an epoch to its end, a model
    saved, tests passed), where TensorFlow's own work (:attr:`WentOn.tensorflow`) shows the
    import ran too; or TensorFlow printed its version
    when asked (``tf.__version__``), which it does only once imported. Empty otherwise, and
    where a line of the log reports a process ended by a signal (a signature tagged
    ``process-ended``: the shells', IDEs' and runtimes' words, which print no traceback)."""
    echoed = evidence.echoed.get("tensorflow")
    if (
        (evidence.went_on is None and echoed is None)
        or _process_ended(evidence)
        or evidence.refusals
        or failures([tb for tb in evidence.tracebacks if not tb.warned])
    ):
        return {}
    imported = f"TensorFlow {echoed} imported (the log prints its version)" if echoed else ""
    if evidence.went_on is None:
        return {"tf-imports": imported}
    where, went = evidence.went_on
    words = f"The run went on: {went.what} ({where})"
    if not went.tensorflow:
        # Tests that passed, or Keras 3 on a backend of its choice, do not show TensorFlow
        # imported: only a version printed does.
        return {"run-went-on": words, **({"tf-imports": imported} if imported else {})}
    return {"run-went-on": words, "tf-imports": words}


def _warned_capped(found: Iterable[Finding], evidence: Evidence) -> list[Finding]:
    """``found`` with the errors read only from a warning the program went on after (an
    exception AutoGraph names as the cause it ran a function unconverted) made warnings."""
    said = [f"{tb.where}: {tb.type}: {tb.message}" for tb in evidence.tracebacks if tb.warned]
    if not said:
        return list(found)
    return [
        dataclasses.replace(x, severity=Severity.WARNING)
        if x.severity is Severity.ERROR and any(s in x.detail for s in said)
        else x
        for x in found
    ]


#: The signature of ctypes' "Could not find module '...' (or one of its dependencies)" on
#: Windows (Modules/_ctypes/callproc.c): a package that loads an optional DLL this way often
#: catches the error and reports it as a Python warning, then goes on without it.
_CTYPES_MODULE_UNFOUND = "ctypes-windows-module-not-found"
#: A line the warnings module printed: ``file:line: Category: message``, every category's name
#: ending in Warning (Lib/warnings.py, formatwarning; the built-in categories' names).
_PYTHON_WARNING_LINE = re.compile(r"\b[A-Za-z]*Warning: ")


def _ctypes_unfound_went_on(found: Finding, hits: Sequence[Hits], evidence: Evidence) -> Finding:
    """``found`` as a note where ctypes' DLL not found is its only line and the program did
    not end on it: every such line sits in a Python warning, or the log shows the run went on
    (:func:`_went_on_seen`), and nothing else failed."""
    if (
        found.severity.rank <= Severity.INFO.rank
        or not hits
        or any(h.signature.id != _CTYPES_MODULE_UNFOUND for h in hits)
    ):
        return found
    warned = all(
        h.count == len(h.citations)
        and all(_PYTHON_WARNING_LINE.search(line) for _, line in h.citations)
        for h in hits
    )
    went_on = "run-went-on" in _went_on_seen(evidence)
    if not (went_on or (warned and all(tb.warned for tb in evidence.tracebacks))):
        return found
    why = (
        "the log shows the run went on after it"
        if went_on
        else "it is printed as a Python warning, which the program goes on after"
    )
    return dataclasses.replace(
        found,
        severity=Severity.INFO,
        detail=f"{found.detail}\nA DLL that did not load, but {why}: a package that loads an "
        "optional library this way runs without it. The fix applies only if what the library "
        "provides is needed.",
    )


def _said_to_go_on(found: Finding, hits: Sequence[Hits]) -> Finding:
    """``found`` made a warning where one of its lines is the program's own word that it goes
    on past it (a signature tagged ``goes-on``: HDF5's version check the user disabled)."""
    if found.severity is not Severity.ERROR or not any(GOES_ON in h.signature.tags for h in hits):
        return found
    said = next((line for h in hits if GOES_ON in h.signature.tags for _, line in h.citations), "")
    return dataclasses.replace(
        found,
        severity=Severity.WARNING,
        detail=f"{found.detail}\nThe program says it goes on ({said.strip()}): this did not "
        "end the run, though what it warns of may still go wrong later.",
    )
