"""``tfdoctor fix`` behind the command line: examine, plan, check, snapshot, apply, verify;
restore and list snapshots. Bad input is a DoctorError (exit 3)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any, Callable, Optional

from tfdoctor.defaults import DEFAULT_TIMEOUT, ExitCode
from tfdoctor.doctor import CheckOptions, diagnose
from tfdoctor.facts import Facts
from tfdoctor.findings import Report
from tfdoctor.fix import snapshot
from tfdoctor.fix.apply import Outcome, Verdict, apply_plan, recover, rollback
from tfdoctor.fix.dryrun import Checked, Planned, check_operation
from tfdoctor.fix.pip import IndexOptions, Inventory, PipError, read_freeze, read_inventory
from tfdoctor.fix.plan import Operation, Plan, build_plan
from tfdoctor.fix.snapshot import Snapshot, SnapshotError
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

    def _check(self, op: Operation, inventory: Inventory) -> Checked:
        try:
            return check_operation(self.python, op, inventory, self.options.index)
        except PipError as exc:
            return Checked(op, (), f"pip cannot resolve it: {exc}")

    def _examine(self, progress: Progress) -> Report:
        o = self.options
        if self.facts is not None:
            return judge_facts(self.facts, open_matrix(o.matrix))
        progress("examining the environment (tfdoctor check)")
        return diagnose(self._check_options())

    def _check_options(self) -> CheckOptions:
        """The check that examines the environment, before the fix and after it."""
        o = self.options
        return CheckOptions(python=self.python, static=o.static, timeout=o.timeout, matrix=o.matrix)

    def _verify(self, before: Report, planned: Planned) -> Verdict:
        o = self.options
        if self.facts is not None:
            after = rejudge_facts(before.facts, self.python, open_matrix(o.matrix))
        else:
            after = diagnose(self._check_options())
        return judge(before, after, planned.plan.fixable)

    def apply(self, planned: Planned, progress: Progress) -> Outcome:
        """Snapshot, then apply the plan under its journal; roll back unless it verifies."""
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
        yield FixSession(options, python, prefix, fd, facts)


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
        if sid is not None:
            snap = snapshot.find(sid)
            python = options.python or snap.interpreter
        else:
            python = options.python or sys.executable
            require_python(python)
            found = snapshot.snapshots(prefix_of(python))
            if not found:
                raise SnapshotError(f"no snapshot of the environment of {python}")
            snap = found[-1]
        require_python(python)
        prefix = prefix_of(python)
        if prefix != os.path.realpath(snap.prefix):
            raise DoctorError(
                f"snapshot {snap.id} is of the environment at {snap.prefix}, not of {python}'s"
            )
        with snapshot.locked(prefix) as fd, _terminate_as_interrupt():
            progress(f"restoring snapshot {snap.id}")
            return snap, rollback(snap, python, options.index, fd)
