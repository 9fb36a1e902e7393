"""Helpers the builders of several areas share: citing a line, a rule's name, a group's value,
a cause's hits from given signatures, whether a cause was warned of."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Callable, Optional

from tfdoctor import causes
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import _SEVERITY, Evidence, Hits
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine

Builder = Callable[[Machine, Revealed, Sequence[Hits]], tuple[causes.CauseId, Fix]]


def _floor(m: Machine) -> Optional[str]:
    floor = causes.gpu.build_driver_floor(m)
    return floor.version if floor is not None else None


def group(hits: Sequence[Hits], name: str) -> Optional[str]:
    """The first value a named group took in ``hits``."""
    return next((g[name] for h in hits for g in h.groups if g.get(name)), None)


def program_refused(hits: Iterable[Hits]) -> Optional[tuple[str, str]]:
    """The program glibc's loader would not start and the library it found nowhere, as the
    loader's line names them (a signature's ``command`` and ``library`` groups); None for no
    such line."""
    # glibc's words, elf/dl-error-skeleton.c (_dl_signal_error):
    # "PROGRAM: error while loading shared libraries: LIBRARY: ...".
    found = next((g for h in hits for g in h.groups if g.get("command") and g.get("library")), None)
    return (found["command"], found["library"]) if found is not None else None


def hits_by(by_cause: Mapping[str, Sequence[Hits]], cause: str, *signatures: str) -> list[Hits]:
    """The hits of ``cause`` that come from ``signatures`` (a reading bound to those words)."""
    return [h for h in by_cause.get(cause, ()) if h.signature.id in signatures]


def warned_of(findings: Mapping[str, Finding], cause: str) -> bool:
    """Whether a finding of ``cause`` at warning or above is among ``findings``: the reading a
    ranked candidate follows."""
    return any(
        x.cause == cause and x.severity.rank >= Severity.WARNING.rank for x in findings.values()
    )


def cite(hits: Sequence[Hits]) -> str:
    out = []
    for hit in hits:
        for where, line in hit.citations:
            out.append(f"{where}: {line}")
        more = hit.count - len(hit.citations)
        if more > 0:
            out.append(f"(and {more} more like it)")
    return "\n".join(out)


def _rule_named(m: Machine, hits: Sequence[Hits]) -> Optional[tuple[causes.CauseId, Fix]]:
    """A signature named as a scan rule (keras211-optimizer-decay) is that rule's error: its
    cause and fix are the rule's, the words scan gives for the use that raised it."""
    if m.matrix is None:
        return None
    from tfdoctor.scan.knowledge import ApiKnowledge  # noqa: PLC0415 - loads scan's rules

    knowledge = ApiKnowledge(m.matrix)
    # Only the lines of the cause's highest level name the rule: a warning's rule (Keras
    # dropping `lr` or `decay`) does not give its fix to an error of the same cause beside it.
    top = max(_SEVERITY[h.signature.severity].rank for h in hits)
    for hit in hits:
        if _SEVERITY[hit.signature.severity].rank < top:
            continue
        verdict = knowledge.rule(hit.signature.id)
        if verdict is not None:
            return verdict.cause, verdict.fix
    return None


def _cite_head(evidence: Evidence, fragments: Iterable[str]) -> str:
    """The lines of the log's head that hold ``fragments``, each with where it is."""
    text, block = evidence.first_text, evidence.first_block
    out: list[str] = []
    for fragment in fragments:
        at = text.find(fragment)
        if at < 0 or block is None:
            continue
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        cited = (
            f"{block.where(text.count(chr(10), 0, at))}: {text[start : end if end >= 0 else None]}"
        )
        if cited not in out:
            out.append(cited)
    return "\n".join(out)


def _without(by_cause: dict[str, list[Hits]], cause: str, signature: str) -> None:
    """``by_cause`` without ``signature``'s hits under ``cause`` (the cause gone if none stay)."""
    rest = [h for h in by_cause.get(cause, []) if h.signature.id != signature]
    if rest:
        by_cause[cause] = rest
    else:
        by_cause.pop(cause, None)
