"""The plan of a fix: the findings' commands split into operations tfdoctor runs itself (pip,
with the examined interpreter) and steps it leaves to the user (drivers, sudo, apt, conda,
shell variables, another environment). For an externally managed Python the operations go
into a new virtual environment instead (:func:`into_venv`)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Optional

from tfdoctor.facts import TF_DISTRIBUTIONS, PackageFacts, normalize_name, requirement_name
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.machine import Machine
from tfdoctor.records import Record, record

#: pip options an automatic install may carry: each changes only what is installed into the
#: examined environment. Anything else (another index, a target directory) is the user's call.
INSTALL_FLAGS = frozenset({"--force-reinstall", "--no-deps", "--upgrade", "-U", "--pre"})


@record
class Operation(Record):
    """One pip command tfdoctor runs with the examined interpreter, and what it answers."""

    #: ``install`` or ``uninstall``.
    action: str
    #: Requirement specifiers (install) or distribution names (uninstall), as the fix gave them.
    specs: tuple[str, ...]
    #: Install options from :data:`INSTALL_FLAGS`, in the fix's order.
    flags: tuple[str, ...] = ()
    #: The findings (ids) and causes whose fix this command is.
    findings: tuple[str, ...] = ()
    causes: tuple[str, ...] = ()

    def pip_args(self) -> tuple[str, ...]:
        """The arguments after ``python -m pip``."""
        if self.action == "uninstall":
            return ("uninstall", "-y", *self.specs)
        return ("install", *self.flags, *self.specs)

    def names(self) -> frozenset[str]:
        """The distributions the command names (normalised)."""
        return frozenset(normalize_name(requirement_name(s)) for s in self.specs)

    def shown(self) -> str:
        """The command as the plan shows it."""
        return "pip " + " ".join(shlex.quote(a) for a in self.pip_args())


@record
class ManualStep(Record):
    """A command of a fix that tfdoctor leaves to the user, and why."""

    command: str
    reason: str
    findings: tuple[str, ...] = ()
    causes: tuple[str, ...] = ()


@record
class NewVenv(Record):
    """The virtual environment a fix of an externally managed Python creates and fills."""

    #: Where it is created (absolute).
    path: str
    #: The externally managed interpreter it is created with (``BASE -m venv PATH``).
    base: str
    #: An environment an earlier ``tfdoctor fix`` created at ``path`` is replaced (it is
    #: kept aside until the new one is verified).
    replaces: bool = False

    @property
    def python(self) -> str:
        """The new environment's interpreter."""
        return str(Path(self.path) / "bin" / "python")


@record
class Plan(Record):
    """What a fix does to the examined environment, in order, and what it leaves to the user."""

    #: The examined interpreter and its environment's prefix.
    interpreter: str
    prefix: str
    operations: tuple[Operation, ...] = ()
    manual: tuple[ManualStep, ...] = ()
    #: The findings whose every command is an operation: a verified fix removes them.
    fixable: tuple[Finding, ...] = ()
    #: Why nothing may be applied here at all, if so.
    refusal: Optional[str] = None
    #: Where the operations run instead of the examined environment (an externally managed
    #: Python's fix); None: they change the examined environment.
    venv: Optional[NewVenv] = None

    @property
    def target(self) -> str:
        """The interpreter whose pip runs the operations."""
        return self.venv.python if self.venv is not None else self.interpreter


def parse_command(command: str, interpreter: str) -> tuple[Optional[Operation], str]:
    """The operation ``command`` is, when it is ``INTERPRETER -m pip install|uninstall`` with
    nothing but plain specifiers and :data:`INSTALL_FLAGS`; else None and why it is manual."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None, "not a single command tfdoctor can read"
    if len(words) < 4 or words[1:3] != ["-m", "pip"]:
        return None, _manual_reason(words)
    if words[0] != interpreter:
        return None, "runs another interpreter than the examined one"
    action, rest = words[3], words[4:]
    if action == "uninstall":
        names = [w for w in rest if w not in ("-y", "--yes")]
        if any(n.startswith("-") for n in names) or not names:
            return None, "a pip uninstall with options tfdoctor does not run itself"
        return Operation("uninstall", tuple(names)), ""
    if action != "install":
        return None, f"pip {action} is not a change tfdoctor makes"
    flags = tuple(w for w in rest if w.startswith("-"))
    specs = tuple(w for w in rest if not w.startswith("-"))
    if not specs or any(f not in INSTALL_FLAGS for f in flags):
        return None, "a pip install with options tfdoctor does not run itself"
    if any(not requirement_name(s) or "@" in s or "/" in s for s in specs):
        return None, "installs from a file or URL, which the plan cannot check"
    return Operation("install", specs, flags), ""


def _manual_reason(words: Sequence[str]) -> str:
    """Why a command that is not a pip call of the examined interpreter is left to the user."""
    first = words[0] if words else ""
    if first == "sudo":
        return "needs root (sudo)"
    if first in ("apt", "apt-get", "dnf", "yum", "zypper", "pacman", "brew"):
        return "a system package manager's change, outside the examined environment"
    if first in ("conda", "mamba", "micromamba"):
        return "a conda change (tfdoctor fix runs pip only)"
    if first in ("export", "unset") or "=" in first:
        return (
            "a shell variable: set it where the program starts (tfdoctor edits no start-up files)"
        )
    if first.endswith("nvidia-smi") or first in ("modprobe", "dkms", "reboot"):
        return "the NVIDIA driver or kernel, outside the examined environment"
    return "outside what tfdoctor changes (pip in the examined environment)"


def build_plan(report: Report, interpreter: str, prefix: str) -> Plan:
    """The plan for the report's errors and warnings, in the report's order.

    A finding whose fix has a manual command contributes manual steps only: half of a fix is
    not applied. A command two findings share runs once, tied to both.
    """
    python = report.facts.python
    if python is not None and python.externally_managed:
        # PEP 668 (https://peps.python.org/pep-0668/): the distribution owns this Python's
        # packages; pip refuses, and forcing it (--break-system-packages) can break the OS.
        # Its fix is planned for a new environment (into_venv), never here.
        refusal = "this Python is externally managed (PEP 668): nothing is installed into it"
        return Plan(interpreter, prefix, refusal=refusal)
    operations: list[Operation] = []
    manual: list[ManualStep] = []
    fixable: list[Finding] = []
    # What conda installed from a channel is conda's to change: pip would overwrite files
    # conda tracks (https://docs.conda.io/projects/conda/en/latest/user-guide/tasks/manage-pkgs.html#installing-non-conda-packages).
    machine = Machine(report.facts, None)
    for finding in report.findings:
        if finding.fix is None or finding.severity.rank < Severity.WARNING.rank:
            continue
        parsed = [
            _conda_owned(parse_command(c, interpreter), machine) for c in finding.fix.commands
        ]
        if not parsed:
            continue
        cause = (finding.cause,) if finding.cause else ()
        if any(op is None for op, _ in parsed):
            for command, (_op, why) in zip(finding.fix.commands, parsed):
                manual.append(
                    ManualStep(
                        command, why or "part of a fix with manual steps", (finding.id,), cause
                    )
                )
            continue
        fixable.append(finding)
        for op, _ in parsed:
            assert op is not None
            _add(operations, op, finding.id, cause)
    return Plan(interpreter, prefix, tuple(operations), tuple(manual), tuple(fixable))


def _conda_owned(
    parsed: tuple[Optional[Operation], str], machine: Machine
) -> tuple[Optional[Operation], str]:
    """A pip operation on a distribution conda installed (:meth:`Machine.conda_owned`) becomes
    a manual step."""
    op = parsed[0]
    for name in sorted(op.names() if op is not None else ()):
        owned = machine.conda_owned(name)
        if owned is not None:
            channel = f" (channel {owned[1]})" if owned[1] else ""
            return None, f"{owned[0]} is conda's{channel}: change it with conda"
    return parsed


def _add(operations: list[Operation], op: Operation, finding: str, cause: tuple[str, ...]) -> None:
    """Append ``op`` tied to ``finding``, or tie an equal command already planned to it too."""
    for i, known in enumerate(operations):
        if known.pip_args() == op.pip_args():
            operations[i] = Operation(
                known.action,
                known.specs,
                known.flags,
                (*known.findings, finding),
                tuple(dict.fromkeys((*known.causes, *cause))),
            )
            return
    operations.append(Operation(op.action, op.specs, op.flags, (finding,), cause))


#: What counts as TensorFlow's family when a new environment takes over an externally managed
#: Python's TensorFlow: TensorFlow's distributions, its companions and Keras.
_FAMILY = re.compile(r"^(tensorflow.*|tf-.*|tb-nightly|intel-tensorflow.*|keras.*)$")


def carried(installed: Iterable[PackageFacts]) -> tuple[tuple[str, str], ...]:
    """The TensorFlow family's distributions installed for their own sake: ``(name,
    version)``, names normalised, sorted.

    What they require follows from their own metadata when a new environment installs them,
    so a distribution another one requires is left to it; a TensorFlow counts as required
    only by another TensorFlow (a wrapper's body), not by a companion that names a range.
    """
    packages = {normalize_name(p.name): p for p in installed}

    def brought(name: str) -> bool:
        return any(
            holder != name
            and (name not in TF_DISTRIBUTIONS or holder in TF_DISTRIBUTIONS)
            and any(normalize_name(requirement_name(r)) == name for r in p.requires)
            for holder, p in packages.items()
        )

    return tuple(
        sorted((n, p.version) for n, p in packages.items() if _FAMILY.match(n) and not brought(n))
    )


def into_venv(plan: Plan, installed: Iterable[PackageFacts], venv: NewVenv) -> Plan:
    """The plan of an externally managed Python, made for a new virtual environment: one
    install of what its fixes install and of the TensorFlow family it has.

    ``plan`` is what the fixes would do in place (pip commands of the examined interpreter).
    A new environment holds nothing, so uninstalls fall away; the family's distributions the
    fixes do not name are carried at their installed versions, unpinned when a fix chooses
    the TensorFlow (the resolver then fits them to it), and another TensorFlow than the one a
    fix chooses is not carried. One install lets pip's resolver see every requirement at once.
    """
    installs = [op for op in plan.operations if op.action == "install"]
    named = {n for op in plan.operations for n in op.names()}
    chosen_tf = any(n in TF_DISTRIBUTIONS for op in installs for n in op.names())
    carry = [
        name if chosen_tf else f"{name}=={version}"
        for name, version in carried(installed)
        if name not in named and not (chosen_tf and name in TF_DISTRIBUTIONS)
    ]
    specs = tuple(dict.fromkeys([s for op in installs for s in op.specs] + carry))
    if not plan.operations or not specs:
        return Plan(plan.interpreter, plan.prefix, (), plan.manual, (), plan.refusal, venv)
    flags = ("--pre",) if any("--pre" in op.flags for op in installs) else ()
    findings = tuple(dict.fromkeys(f for op in plan.operations for f in op.findings))
    causes = tuple(dict.fromkeys(c for op in plan.operations for c in op.causes))
    op = Operation("install", specs, flags, findings, causes)
    return Plan(plan.interpreter, plan.prefix, (op,), plan.manual, plan.fixable, None, venv)
