"""Observed beats inferred: what TensorFlow itself showed working overrules a verdict.

A check infers from versions, paths and tables, and a log claims in its lines, that TensorFlow
cannot import, cannot use the GPU or cannot run a kind of kernel there. When a machine's facts
show TensorFlow doing just that (the import ran, the GPU is in its device list, the smoke
test's kernels ran on it), the claim is wrong for this machine or does not matter: the finding
stays, as a note that names what was observed. ``check`` applies this to every finding of its
checks, ``explain`` to the log's findings when it is given the machine's facts. Which
observation refutes which cause is data on the catalogue (:data:`tfdoctor.causes.CONTRADICTED_BY`);
the observations are the machine view's (:attr:`tfdoctor.machine.Machine.observations`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Optional

from tfdoctor.causes import CAUSES
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine


def refuting(finding: Finding, machine: Machine) -> Optional[str]:
    """What TensorFlow showed that contradicts ``finding``'s cause, in plain words; None when
    nothing observed does (or the finding names no cause)."""
    return refuted_by(finding, machine.observations)


def refuted_by(finding: Finding, seen: Mapping[str, str]) -> Optional[str]:
    """What of ``seen`` (observations by kind, in plain words) contradicts ``finding``'s
    cause; None when nothing does (or the finding names no cause)."""
    cause = CAUSES.get(finding.cause) if finding.cause else None
    if cause is None:
        return None
    return next((seen[kind] for kind in cause.contradicted_by if kind in seen), None)


def overrule(finding: Finding, machine: Machine) -> Finding:
    """``finding`` as a note when an observation contradicts it, else unchanged."""
    return overrule_seen(finding, machine.observations)


def overrule_seen(finding: Finding, observations: Mapping[str, str]) -> Finding:
    """``finding`` as a note when one of ``observations`` (by kind, in plain words: a
    machine's, or what a log showed) contradicts it, else unchanged."""
    if finding.severity.rank <= Severity.INFO.rank:
        return finding
    seen = refuted_by(finding, observations)
    if seen is None:
        return finding
    return dataclasses.replace(
        finding,
        severity=Severity.INFO,
        summary=f"{seen} although {_mid_sentence(finding.summary)}",
        detail=f"{seen}: what TensorFlow did wins over what tfdoctor inferred, so this is a "
        "note, not a problem; the fix applies only if it stops working."
        + (f"\n{finding.detail}" if finding.detail else ""),
    )


#: Capitalised words that stay capitalised mid-sentence.
_PROPER = frozenset({"Python", "Linux", "Windows", "Keras", "Docker", "Rosetta", "Kubernetes"})


def _mid_sentence(summary: str) -> str:
    """``summary`` continuing a sentence: a plain first word lower-cased ("Missing CUDA ..."
    -> "missing CUDA ..."), names kept ("TensorFlow", "NVIDIA", "Python")."""
    word = summary.split(" ", 1)[0]
    if word[1:].islower() and word.isalpha() and word not in _PROPER:
        return summary[0].lower() + summary[1:]
    return summary
