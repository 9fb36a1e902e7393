"""``tfdoctor fix`` behind the command line: examine, plan, check, snapshot, apply, verify;
restore and list snapshots. Bad input is a DoctorError (exit 3)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Optional

from tfdoctor.defaults import DEFAULT_TIMEOUT, ExitCode
from tfdoctor.doctor import CheckOptions, diagnose
from tfdoctor.facts import Facts, PythonFacts
from tfdoctor.findings import Report
from tfdoctor.fix import snapshot, venv
from tfdoctor.fix.apply import Outcome, Verdict, apply_plan, recover, rollback
from tfdoctor.fix.dryrun import Checked, Planned, check_operation
from tfdoctor.fix.pip import IndexOptions, Inventory, PipError, read_freeze, read_inventory
from tfdoctor.fix.plan import NewVenv, Operation, Plan, build_plan, into_venv
from tfdoctor.fix.snapshot import Snapshot, SnapshotError
from tfdoctor.fix.venv import VenvError
from tfdoctor.fix.verify import judge, judge_facts, rejudge_facts
from tfdoctor.inputs import DoctorError, load_facts, open_matrix, require_python
from tfdoctor.records import Record, record

Progress = Callable[[str], None]

#: Asks an interpreter where its environment is (any Python 3 answers).
_ASK_PREFIX = "import sys; print(sys.prefix)"


@record
class FixOptions(Record):
    """What ``tfdoctor fix`` was asked to do."""

    #: The interpreter whose environment is fixed; None: this one (for ``--rollback``: the
    #: snapshot's).
    python: Optional[str] = None
    facts_file: Optional[str] = None
    static: bool = False
    timeout: float = DEFAULT_TIMEOUT
    matrix: Optional[str] = None
    index: IndexOptions = IndexOptions()
    #: Where an externally managed Python's fix creates its environment; None: the default
    #: (:func:`tfdoctor.fix.venv.default_path`).
    venv: Optional[str] = None


def venv_folder(where: str) -> str:
    """``--venv``'s folder, absolute (``~`` expanded; links left as they are)."""
    return str(Path.cwd() / Path(where).expanduser())


def prefix_of(python: str) -> str:
    """The real path of the environment ``python`` runs in (its ``sys.prefix``)."""
    try:
        done = subprocess.run(
            [python, "-c", _ASK_PREFIX], capture_output=True, text=True, timeout=30, check=True
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise DoctorError(f"--python {python}: cannot ask it for its prefix: {exc}") from None
    return os.path.realpath(done.stdout.strip())


class FixSession:
    """One fix of one environment, holding its lock from the plan to the last step."""

    def __init__(
        self,
        options: FixOptions,
        python: str,
        prefix: str,
        lock_fd: int,
        facts: Optional[Facts] = None,
    ) -> None:
        self.options = options
        #: The saved facts the plan is made from (``--facts``); None: examine now.
        self.facts = facts
        self.python = python
        self.prefix = prefix
        self.lock_fd = lock_fd
        #: ``pip inspect`` as the plan read it (the lock held since: still the environment).
        self._inspected: Optional[tuple[Inventory, str]] = None
        #: Locks taken while planning (a new environment's), released with the session.
        self.locks = contextlib.ExitStack()
        self._venv_fd = -1

    def plan(self, progress: Progress) -> Planned:
        """Restore what an interrupted fix left; examine; plan; dry-run each operation."""
        recovered = tuple(
            recover(self.prefix, self.python, self.options.index, self.lock_fd, progress)
        )
        report = self._examine(progress)
        py = report.facts.python
        if py is None or not py.executable:
            raise DoctorError("the facts do not say which interpreter was examined")
        if os.path.realpath(py.prefix) != self.prefix:
            raise DoctorError(
                f"the facts describe the environment at {py.prefix}, not --python "
                f"{self.python}'s ({self.prefix}): tfdoctor fix changes only the one examined"
            )
        if py.externally_managed:
            return self._plan_venv(report, py, recovered, progress)
        if self.options.venv is not None:
            raise DoctorError(
                f"--venv is for an externally managed Python (PEP 668); {self.python} is not, "
                "and its own environment is the one fixed"
            )
        plan = build_plan(report, py.executable, self.prefix)
        if not plan.operations or plan.refusal is not None:
            return Planned(report, plan, recovered=recovered)
        progress("asking pip what each step would change (pip install --dry-run)")
        try:
            self._inspected = read_inventory(self.python)
        except PipError as exc:
            refusal = f"pip cannot list this environment ({exc}); pip 22.2 or newer is needed"
            return Planned(
                report, Plan(plan.interpreter, plan.prefix, refusal=refusal), recovered=recovered
            )
        inventory = self._inspected[0]
        checked = tuple(self._check(op, inventory) for op in plan.operations)
        source = self.options.index.where()
        return Planned(report, plan, checked, source, recovered)

    def _plan_venv(
        self,
        report: Report,
        py: PythonFacts,
        recovered: tuple[tuple[str, str], ...],
        progress: Progress,
    ) -> Planned:
        """The plan of an externally managed Python: its fixes, in a new environment.

        The fixes are the checks' answers for this Python as if pip could install into it
        (the commands they give it otherwise create an environment by hand); the dry run
        runs in a scratch environment of the same interpreter.
        """
        o = self.options
        try:
            where = o.venv or str(venv.default_path(py.version))
        except VenvError as exc:
            raise DoctorError(str(exc)) from None
        path = venv_folder(where)
        with _snapshot_errors():
            self._venv_fd = self.locks.enter_context(snapshot.locked(path))
        new = NewVenv(path, py.executable)
        recovered += tuple(recover(path, new.python, o.index, self._venv_fd, progress))
        as_if = dataclasses.replace(py, externally_managed=False)
        facts = dataclasses.replace(report.facts, python=as_if)
        in_place = build_plan(judge_facts(facts, open_matrix(o.matrix)), py.executable, self.prefix)
        refusal = None
        if venv.occupied(path):
            if venv.made_here(path):
                new = NewVenv(path, py.executable, replaces=True)
            else:
                refusal = (
                    f"{path} is not empty and no tfdoctor fix created it: give --venv a new "
                    "or empty folder"
                )
        plan = into_venv(in_place, report.facts.packages or (), new)
        if refusal is not None or not plan.operations:
            plan = dataclasses.replace(plan, refusal=refusal)
            return Planned(report, plan, recovered=recovered)
        progress("asking pip what the new environment would get (pip install --dry-run)")
        try:
            with venv.scratch(py.executable) as scratch:
                inventory, _ = read_inventory(scratch)
                checked = tuple(self._check(op, inventory, scratch) for op in plan.operations)
        except (VenvError, PipError) as exc:
            plan = dataclasses.replace(plan, refusal=f"no environment for the dry run: {exc}")
            return Planned(report, plan, recovered=recovered)
        return Planned(report, plan, checked, o.index.where(), recovered)

    def _check(self, op: Operation, inventory: Inventory, python: str = "") -> Checked:
        try:
            return check_operation(python or self.python, op, inventory, self.options.index)
        except PipError as exc:
            return Checked(op, (), f"pip cannot resolve it: {exc}")

    def _examine(self, progress: Progress) -> Report:
        o = self.options
        if self.facts is not None:
            return judge_facts(self.facts, open_matrix(o.matrix))
        progress("examining the environment (tfdoctor check)")
        return diagnose(self._check_options())

    def _check_options(self, python: str = "") -> CheckOptions:
        """The check that examines the environment, before the fix and after it."""
        o = self.options
        return CheckOptions(
            python=python or self.python, static=o.static, timeout=o.timeout, matrix=o.matrix
        )

    def _verify(self, before: Report, planned: Planned) -> Verdict:
        o = self.options
        new = planned.plan.venv
        python = new.python if new is not None else self.python
        if self.facts is not None:
            after = rejudge_facts(before.facts, python, open_matrix(o.matrix))
        else:
            after = diagnose(self._check_options(python))
        return judge(before, after, planned.plan.fixable)

    def apply(self, planned: Planned, progress: Progress) -> Outcome:
        """Snapshot, then apply the plan under its journal; roll back unless it verifies."""
        if planned.plan.venv is not None:
            return self._apply_venv(planned, planned.plan.venv, progress)
        try:
            freeze = read_freeze(self.python)
            inventory, inspect = self._inspected or read_inventory(self.python)
        except PipError as exc:
            raise DoctorError(f"cannot take the snapshot: {exc}") from None
        touched = sorted({c.name for ck in planned.checked for c in ck.changes})
        operations = [
            {"command": c.operation.shown(), "findings": list(c.operation.findings)}
            for c in planned.checked
        ]
        with _snapshot_errors():
            snap = snapshot.create(self.prefix, self.python, freeze, inspect, operations, touched)
        progress(f"snapshot {snap.id} taken")
        with _terminate_as_interrupt():
            return apply_plan(
                snap,
                self.python,
                inventory,
                planned.checked,
                self.options.index,
                self.lock_fd,
                lambda: self._verify(planned.report, planned),
                progress,
            )

    def _apply_venv(self, planned: Planned, new: NewVenv, progress: Progress) -> Outcome:
        """Create the new environment and apply the plan there, under its own snapshot: the
        environment is its prefix, and restoring removes it."""
        touched = sorted({c.name for ck in planned.checked for c in ck.changes})
        operations = [
            {"command": c.operation.shown(), "findings": list(c.operation.findings)}
            for c in planned.checked
        ]
        aside = f"{new.path}.replaced-{secrets.token_hex(3)}" if new.replaces else ""
        with _snapshot_errors():
            snap = snapshot.create(
                new.path, new.python, "", "", operations, touched, venv_of=new.base, replaced=aside
            )
        progress(f"snapshot {snap.id} taken")

        def prepare() -> Inventory:
            if aside:
                snapshot.append(snap, "replace", aside=aside)
                venv.set_aside(new.path, aside)
            snapshot.append(snap, "create")
            progress(f"creating the virtual environment {new.path}")
            venv.create(new.base, new.path, [self._venv_fd])
            return read_inventory(new.python)[0]

        with _terminate_as_interrupt():
            outcome = apply_plan(
                snap,
                new.python,
                Inventory(()),
                planned.checked,
                self.options.index,
                self._venv_fd,
                lambda: self._verify(planned.report, planned),
                progress,
                prepare,
            )
        if outcome.ok and aside:
            venv.discard(aside)
        return outcome


@contextlib.contextmanager
def _snapshot_errors() -> Iterator[None]:
    try:
        yield
    except SnapshotError as exc:
        raise DoctorError(str(exc)) from None


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM ends a fix as Ctrl-C does: the steps stop and the snapshot is restored."""

    def interrupt(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def open_session(options: FixOptions) -> Iterator[FixSession]:
    """The examined environment, locked; DoctorError for bad input or a held lock.

    With ``--facts`` and no ``--python``, the environment is the one the facts describe.
    """
    if options.timeout <= 0:
        raise DoctorError(f"--timeout must be positive, got {options.timeout:g}")
    facts = load_facts(options.facts_file) if options.facts_file is not None else None
    described = facts.python.executable if facts is not None and facts.python else ""
    python = options.python or described or sys.executable
    require_python(python)
    prefix = prefix_of(python)
    with _snapshot_errors(), snapshot.locked(prefix) as fd:
        session = FixSession(options, python, prefix, fd, facts)
        with session.locks:
            yield session


def plan_exit_code(planned: Planned) -> int:
    """A plan not applied: 2 when refused, else what the check earned (0 nothing wrong)."""
    if planned.refusal is not None:
        return int(ExitCode.ERRORS)
    return planned.report.exit_code()


def list_snapshots() -> list[Snapshot]:
    """Every snapshot, oldest first."""
    with _snapshot_errors():
        return snapshot.snapshots()


def restore_snapshot(
    sid: Optional[str], options: FixOptions, progress: Progress
) -> tuple[Snapshot, str]:
    """``--rollback [ID]``: the snapshot restored and the problem (empty when exact). Without
    an id, the newest snapshot of the examined environment."""
    with _snapshot_errors():
        if sid is None and options.venv is not None:
            found = snapshot.snapshots(venv_folder(options.venv))
            if not found:
                raise SnapshotError(f"no snapshot of the environment at {options.venv}")
            sid = found[-1].id
        if sid is not None:
            snap = snapshot.find(sid)
            if snap.venv_of:
                return snap, _remove_venv(snap, options.index, progress)
            python = options.python or snap.interpreter
        else:
            python = options.python or sys.executable
            require_python(python)
            found = snapshot.snapshots(prefix_of(python))
            if not found:
                raise SnapshotError(f"no snapshot of the environment of {python}")
            snap = found[-1]
            if snap.venv_of:
                return snap, _remove_venv(snap, options.index, progress)
        require_python(python)
        prefix = prefix_of(python)
        if prefix != os.path.realpath(snap.prefix):
            raise DoctorError(
                f"snapshot {snap.id} is of the environment at {snap.prefix}, not of {python}'s"
            )
        with snapshot.locked(prefix) as fd, _terminate_as_interrupt():
            progress(f"restoring snapshot {snap.id}")
            return snap, rollback(snap, python, options.index, fd)


def _remove_venv(snap: Snapshot, index: IndexOptions, progress: Progress) -> str:
    """``--rollback`` of a fix that created an environment: remove it (only the newest
    snapshot of that path: an older one's environment is gone already)."""
    newer = [s.id for s in snapshot.snapshots(snap.prefix) if s.id > snap.id]
    if newer:
        raise SnapshotError(
            f"snapshot {snap.id} is not the newest of {snap.prefix}: roll back {newer[-1]} first"
        )
    with snapshot.locked(snap.prefix) as fd, _terminate_as_interrupt():
        progress(f"restoring snapshot {snap.id}: removing the environment {snap.prefix}")
        return rollback(snap, snap.interpreter, index, fd)
