"""What every check receives, and small helpers for building findings."""

from __future__ import annotations

import functools
from typing import Optional

from tfdoctor.facts import Facts, ProbeError
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import Matrix
from tfdoctor.records import Record, record


@record
class CheckContext(Record):
    """The inputs of a check: the facts and the compatibility matrix."""

    facts: Facts
    #: None only where a caller judges facts without the matrix (its checks then say so).
    matrix: Optional[Matrix] = None
    #: ``--require-gpu``: no usable GPU is an error (a container's start-time gate).
    require_gpu: bool = False
    #: ``--against FILE``: its requirements (``numpy==1.26.4``), to compare the packages with.
    against: Optional[tuple[str, ...]] = None
    #: The ``--against`` file's name as given, for the findings about it.
    against_file: Optional[str] = None

    @functools.cached_property
    def machine(self) -> Machine:
        """The derived view of the facts, computed once for every check."""
        return Machine(self.facts, self.matrix)

    @functools.cached_property
    def findings_made(self) -> dict[str, tuple[Finding, ...]]:
        """Each check's findings on this context, by check id, once made (``run_checks``)."""
        return {}

    @functools.cached_property
    def output_read(self) -> dict[str, tuple[Finding, ...]]:
        """What TensorFlow's child printed, as ``explain`` read it, by text (read once)."""
        return {}


def unknown(fid: str, what: str, error: Optional[ProbeError] = None) -> Finding:
    """The finding for a check whose inputs are missing: "could not determine ..."."""
    detail = ""
    if error is not None:
        detail = error.message + (f"\n{error.detail}" if error.detail else "")
    return Finding(fid, Severity.UNKNOWN, f"Could not determine {what}", detail)


def pip_command(machine: Machine, args: str) -> str:
    """``pip <args>`` for the examined environment, as one shell line (the machine view's
    rule: the examined interpreter's pip; a virtual environment first where the system
    Python is externally managed)."""
    return " && ".join(machine.pip(args)) or f"true  # pip {args}: not needed"


def fix(text: str, *commands: str) -> Fix:
    """A fix with its commands."""
    return Fix(text, tuple(commands))
