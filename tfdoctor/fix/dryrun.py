"""Each operation checked before it runs: what pip says it would change, and the reasons to
refuse it (a second TensorFlow, a TensorFlow downgrade nobody asked for, a broken range)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Optional

from packaging.version import InvalidVersion, Version

from tfdoctor.facts import TF_DISTRIBUTIONS, normalize_name
from tfdoctor.findings import Report
from tfdoctor.fix.pip import Change, IndexOptions, Inventory, dry_run, with_before
from tfdoctor.fix.plan import Operation, Plan
from tfdoctor.machine import applicable_requirements, separate_installations
from tfdoctor.matrix import spec_contains
from tfdoctor.records import Record, record


@record
class Checked(Record):
    """An operation with the changes pip's resolver says it makes, and a refusal if any."""

    operation: Operation
    changes: tuple[Change, ...]
    refusal: Optional[str] = None


def expected_changes(
    python: str, op: Operation, inventory: Inventory, index: IndexOptions
) -> tuple[tuple[Change, ...], Mapping[str, tuple[str, ...]]]:
    """The changes ``op`` would make here, and the requirements of what it would install."""
    if op.action == "uninstall":
        gone = (inventory.get(n) for n in op.specs)
        return tuple(Change(p.name, p.version, None) for p in gone if p is not None), {}
    changes, requires = dry_run(python, op.pip_args()[1:], index)
    return with_before(changes, inventory), requires


def check_operation(
    python: str, op: Operation, inventory: Inventory, index: IndexOptions
) -> Checked:
    """``op`` with its dry-run changes, refused when it would leave the environment worse."""
    changes, requires = expected_changes(python, op, inventory, index)
    return Checked(op, changes, refusal(op, changes, requires, inventory))


def refusal(
    op: Operation,
    changes: Sequence[Change],
    new_requires: Mapping[str, tuple[str, ...]],
    inventory: Inventory,
) -> Optional[str]:
    """Why ``changes`` must not be made, or None."""
    before = {normalize_name(p.name): p.version for p in inventory.packages}
    after = dict(before)
    for c in changes:
        if c.after is None:
            after.pop(normalize_name(c.name), None)
        else:
            after[normalize_name(c.name)] = c.after
    declared = {normalize_name(p.name): p.requires for p in inventory.packages}
    declared.update(new_requires)
    return (
        _second_tensorflow(before, after, declared)
        or _tf_downgrade(op, changes)
        or _broken_ranges(before, after, new_requires, inventory)
    )


def _tf_names(versions: Mapping[str, str], declared: Mapping[str, Sequence[str]]) -> set[str]:
    """The TensorFlow installations among ``versions`` (a wrapper and its body count once)."""
    names = [n for n in versions if n in TF_DISTRIBUTIONS]
    return separate_installations({n: declared.get(n, ()) for n in names})


def _second_tensorflow(
    before: Mapping[str, str], after: Mapping[str, str], declared: Mapping[str, Sequence[str]]
) -> Optional[str]:
    """Two distributions writing one ``tensorflow`` package overwrite each other's files (the
    catalogue's ``tf-multiple-distributions``, :mod:`tfdoctor.causes.software`)."""
    now, then = _tf_names(after, declared), _tf_names(before, declared)
    if len(now) > 1 and now != then:
        return f"it would install a second TensorFlow distribution ({', '.join(sorted(now))})"
    return None


def _tf_downgrade(op: Operation, changes: Sequence[Change]) -> Optional[str]:
    """A TensorFlow older than the installed one, when the operation did not name it."""
    for c in changes:
        name = normalize_name(c.name)
        if name not in TF_DISTRIBUTIONS or name in op.names() or not c.before or not c.after:
            continue
        if _older(c.after, c.before):
            return f"it would downgrade {c.name} {c.before} -> {c.after}, which nothing asked for"
    return None


def _older(a: str, b: str) -> bool:
    try:
        return Version(a) < Version(b)
    except InvalidVersion:
        return False


def _broken_ranges(
    before: Mapping[str, str],
    after: Mapping[str, str],
    new_requires: Mapping[str, tuple[str, ...]],
    inventory: Inventory,
) -> Optional[str]:
    """A declared requirement of a distribution left installed that the change breaks (it
    held before and fails after); removed requirements are judged by the plan's next steps."""
    env = dict(inventory.environment)
    env["extra"] = ""
    broken = []
    for holder in sorted(after):
        declared = new_requires.get(holder)
        if declared is None:
            installed = inventory.get(holder)
            declared = installed.requires if installed is not None else ()
        for dep, spec in applicable_requirements(declared, env):
            if dep not in after or dep == holder:
                continue
            if spec_contains(after[dep], spec) is False and (
                dep not in before or spec_contains(before[dep], spec) is not False
            ):
                broken.append(f"{holder} requires {dep}{spec}, {dep} would be {after[dep]}")
    return f"it would break a declared range: {'; '.join(broken)}" if broken else None


@record
class Planned(Record):
    """A plan with the report it came from and each operation's dry run."""

    report: Report
    plan: Plan
    checked: tuple[Checked, ...] = ()
    #: Where packages come from, in words (the network named), when the plan needs any.
    source: str = ""
    #: Snapshots of unfinished fixes restored first: ``(id, problem)``.
    recovered: tuple[tuple[str, str], ...] = ()

    @property
    def refusal(self) -> Optional[str]:
        """Why this plan must not be applied, if so."""
        if self.plan.refusal is not None:
            return self.plan.refusal
        for i, c in enumerate(self.checked, 1):
            if c.refusal is not None:
                return f"step {i} ({c.operation.shown()}) is refused: {c.refusal}"
        return None
