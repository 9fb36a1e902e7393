"""Apply a checked plan step by step under its journal; restore a snapshot exactly; recover
what a killed fix left behind."""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Collection, Sequence
from typing import Callable, Optional

from tfdoctor.facts import normalize_name, requirement_name
from tfdoctor.findings import Finding
from tfdoctor.fix import snapshot
from tfdoctor.fix.dryrun import Checked, check_operation
from tfdoctor.fix.pip import (
    PIP_TIMEOUT,
    Change,
    IndexOptions,
    Inventory,
    PipError,
    read_freeze,
    read_inventory,
    run_pip,
)
from tfdoctor.fix.snapshot import Snapshot, SnapshotError
from tfdoctor.fix.venv import VenvError, remove_created
from tfdoctor.records import Record, record

Progress = Callable[[str], None]


@record
class Verdict(Record):
    """The environment judged again after the last step."""

    ok: bool
    #: Why not: the findings still there, the new errors.
    reason: str = ""
    remaining: tuple[Finding, ...] = ()


@record
class Outcome(Record):
    """How an applied plan ended."""

    snapshot: str
    #: Steps that ran to the end, in order (their shown commands).
    done: tuple[str, ...] = ()
    verdict: Optional[Verdict] = None
    #: Which step failed and why, or why verification failed; empty when the fix held.
    failure: str = ""
    #: After a failure: the environment is back at the snapshot (pip freeze byte-identical).
    restored: bool = False
    #: After a failure: why the restore is not exact.
    restore_problem: str = ""
    interrupted: bool = False

    @property
    def ok(self) -> bool:
        """Applied and verified."""
        return not self.failure and not self.interrupted


def _freeze_lines(text: str) -> dict[str, str]:
    """``pip freeze`` lines by distribution (an editable line keyed by itself)."""
    lines: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key = line if line.startswith("-e") else normalize_name(requirement_name(line))
        lines[key] = line
    return lines


def restore(
    snap: Snapshot, python: str, index: IndexOptions, lock_fd: int, reinstall_touched: bool
) -> str:
    """Put the environment back to the snapshot's ``pip freeze``: uninstall what was added,
    install the frozen pins without dependencies. Empty when the freeze is byte-identical
    again; else what differs. An environment the fix created is removed instead."""
    if snap.venv_of:
        return remove_created(snap)
    frozen = _freeze_lines(snap.freeze())
    current = _freeze_lines(read_freeze(python))
    added = sorted(k for k in current if k not in frozen and not k.startswith("-e"))
    if added:
        run_pip(python, ["uninstall", "-y", *added], PIP_TIMEOUT, [lock_fd])
    # Distributions a killed pip may have left half written are reinstalled even when their
    # version matches: pip writes a distribution's files before its RECORD.
    touched = set(snap.touched) if reinstall_touched else set()
    wanted = [line for key, line in frozen.items() if current.get(key) != line or key in touched]
    if wanted:
        args = [w for line in wanted for w in shlex.split(line)]
        run_pip(
            python,
            ["install", "--no-deps", "--force-reinstall", *index.args(), *args],
            PIP_TIMEOUT,
            [lock_fd],
        )
    after = read_freeze(python)
    if after == snap.freeze():
        return ""
    now = _freeze_lines(after)
    differ = sorted(set(now.items()) ^ set(frozen.items()))
    return "pip freeze still differs: " + ", ".join(line for _, line in differ[:6])


def _restore_after(
    snap: Snapshot, python: str, index: IndexOptions, lock_fd: int, why: str
) -> tuple[bool, str]:
    """Restore after a failed or interrupted fix, journalled; (restored exactly, problem)."""
    started = any(e["event"] == "step" for e in snap.journal())
    try:
        problem = restore(snap, python, index, lock_fd, started)
    except PipError as exc:
        problem = str(exc)
    # A journal that cannot be written any more only costs the record: the next run restores
    # again (an unfinished journal), which finds nothing left to change.
    with contextlib.suppress(SnapshotError):
        snapshot.append(snap, "restore-failed" if problem else "rolled-back", reason=problem or why)
    return not problem, problem


def apply_plan(
    snap: Snapshot,
    python: str,
    inventory: Inventory,
    checked: Sequence[Checked],
    index: IndexOptions,
    lock_fd: int,
    verify: Callable[[], Verdict],
    progress: Progress,
    prepare: Optional[Callable[[], Inventory]] = None,
) -> Outcome:
    """Run each operation; judge; roll back on any failure.

    ``prepare``: run first, under the same journal and roll back, for what it answers as
    ``inventory`` (the new environment of an externally managed Python's fix, created).

    The first step's check is the plan's own dry run on ``inventory`` (the lock was held
    since, so nothing else changed the environment); each later step is dry-run again just
    before it runs, against what the earlier steps left, and must change what the plan said.
    """
    done: list[str] = []
    failure = ""
    verdict: Optional[Verdict] = None
    #: What earlier steps uninstalled: a later step may install it again (the plan's dry run
    #: saw it installed, so its changes could not name it), as removing every TensorFlow
    #: distribution and installing the one kept does.
    removed: set[str] = set()
    try:
        if prepare is not None:
            inventory = prepare()
        for i, planned in enumerate(checked, 1):
            op = planned.operation
            progress(f"step {i}/{len(checked)}: {op.shown()}")
            if i > 1:
                inventory, _ = read_inventory(python)
            now = planned if i == 1 else check_operation(python, op, inventory, index)
            if now.refusal is not None:
                failure = f"step {i} ({op.shown()}) refused: {now.refusal}"
                break
            if not follows_plan(planned.changes, now.changes, removed, inventory):
                failure = (
                    f"step {i} ({op.shown()}): pip would now "
                    f"{_changes(now)}, the plan said {_changes(planned)}"
                )
                break
            snapshot.append(snap, "step", index=i, command=op.shown())
            extra = index.args() if op.action == "install" else ()
            args = (*op.pip_args()[:1], *extra, *op.pip_args()[1:])
            run_pip(python, args, PIP_TIMEOUT, [lock_fd])
            snapshot.append(snap, "done", index=i)
            done.append(op.shown())
            if op.action == "uninstall":
                removed.update(normalize_name(name) for name in op.specs)
        if not failure:
            progress("checking the environment again")
            snapshot.append(snap, "verify")
            verdict = verify()
            if not verdict.ok:
                failure = f"after the last step: {verdict.reason}"
    except (PipError, SnapshotError, VenvError) as exc:
        failure = f"step {len(done) + 1} failed: {exc}"
    except KeyboardInterrupt:
        progress("interrupted: restoring the snapshot")
        restored, problem = _restore_after(snap, python, index, lock_fd, "interrupted")
        return Outcome(snap.id, tuple(done), verdict, "interrupted", restored, problem, True)
    if not failure:
        with contextlib.suppress(SnapshotError):  # verified: nothing is left to restore
            snapshot.append(snap, "verified")
        return Outcome(snap.id, tuple(done), verdict)
    progress(f"{failure}; restoring the snapshot")
    restored, problem = _restore_after(snap, python, index, lock_fd, failure)
    return Outcome(snap.id, tuple(done), verdict, failure, restored, problem)


def follows_plan(
    planned: Sequence[Change],
    now: Sequence[Change],
    removed: Collection[str],
    inventory: Inventory,
) -> bool:
    """Whether a step's dry run just before it runs (``now``) changes what the plan said it
    would (``planned``), given what earlier steps did: a distribution they uninstalled
    (``removed``) may be installed again, and a change they already made (it is in
    ``inventory``) is in place, not missing."""
    said = {(normalize_name(c.name), c.after) for c in planned}
    would = {
        (name, after)
        for name, after in ((normalize_name(c.name), c.after) for c in now)
        if name not in removed or (name, after) in said
    }
    # The TensorFlow an earlier step installed brought the TensorBoard a later step asks for.
    said = {
        (name, after)
        for name, after in said
        if (name, after) in would or not _in_place(inventory, name, after)
    }
    return said == would


def _in_place(inventory: Inventory, name: str, after: Optional[str]) -> bool:
    """Whether ``name`` is already as a change would leave it (``after`` None: removed)."""
    found = inventory.get(name)
    return found is None if after is None else found is not None and found.version == after


def _changes(checked: Checked) -> str:
    return ", ".join(c.shown() for c in checked.changes) or "change nothing"


def recover(
    prefix: str, python: str, index: IndexOptions, lock_fd: int, progress: Progress
) -> list[tuple[str, str]]:
    """Restore every unfinished fix of this environment (a killed one), newest first:
    ``(snapshot id, problem)`` each, the problem empty when restored exactly."""
    results = []
    for snap in reversed(snapshot.snapshots(prefix)):
        if snap.complete:
            continue
        progress(f"restoring snapshot {snap.id}, left unfinished by an interrupted fix")
        restored, problem = _restore_after(snap, python, index, lock_fd, "interrupted fix")
        results.append((snap.id, "" if restored else problem))
    return results


def rollback(snap: Snapshot, python: str, index: IndexOptions, lock_fd: int) -> str:
    """``tfdoctor fix --rollback``: restore ``snap``, journalled; empty when exact."""
    started = any(e["event"] == "step" for e in snap.journal())
    try:
        problem = restore(snap, python, index, lock_fd, started and not snap.complete)
    except PipError as exc:
        problem = str(exc)
    try:
        snapshot.append(snap, "restore-failed" if problem else "restored", reason=problem)
    except SnapshotError as exc:
        problem = problem or str(exc)
    return problem
