"""What ``tfdoctor fix`` prints: the plan, how applying it ended, the snapshots; as text or
as one JSON document."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.fix.apply import Outcome
from tfdoctor.fix.dryrun import Planned
from tfdoctor.fix.plan import NewVenv
from tfdoctor.fix.snapshot import Snapshot

#: Version of ``tfdoctor fix --format json``'s document.
FIX_SCHEMA_VERSION = 1


def plan_json(planned: Planned) -> dict[str, Any]:
    """The plan as a JSON object."""
    plan = planned.plan
    return {
        "interpreter": plan.interpreter,
        "prefix": plan.prefix,
        "packages_from": planned.source or None,
        "operations": [
            {
                "command": c.operation.shown(),
                "findings": list(c.operation.findings),
                "causes": list(c.operation.causes),
                "changes": [
                    {"name": x.name, "before": x.before, "after": x.after} for x in c.changes
                ],
                "refused": c.refusal,
            }
            for c in planned.checked
        ],
        "manual": [
            {
                "command": m.command,
                "reason": m.reason,
                "findings": list(m.findings),
                "causes": list(m.causes),
            }
            for m in plan.manual
        ],
        "refused": planned.refusal,
        "recovered": [{"snapshot": s, "problem": p or None} for s, p in planned.recovered],
        "venv": venv_json(plan.venv),
    }


def venv_json(new: Optional[NewVenv]) -> Optional[dict[str, Any]]:
    """The new environment an externally managed Python's fix creates (None: in place)."""
    if new is None:
        return None
    return {
        "path": new.path,
        "python": new.python,
        "created_with": new.base,
        "replaces": new.replaces,
    }


def outcome_json(outcome: Optional[Outcome]) -> Optional[dict[str, Any]]:
    """How applying ended, as a JSON object (None: not applied)."""
    if outcome is None:
        return None
    verdict = outcome.verdict
    return {
        "snapshot": outcome.snapshot,
        "done": list(outcome.done),
        "verified": outcome.ok,
        "failure": outcome.failure or None,
        "rolled_back": outcome.restored if not outcome.ok else None,
        "restore_problem": outcome.restore_problem or None,
        "interrupted": outcome.interrupted,
        "remaining": [f.summary for f in verdict.remaining] if verdict is not None else [],
    }


def render_fix_json(planned: Planned, outcome: Optional[Outcome], exit_code: int) -> str:
    """The whole run as one JSON document."""
    data = {
        "schema_version": FIX_SCHEMA_VERSION,
        "plan": plan_json(planned),
        "applied": outcome_json(outcome),
        "exit_code": exit_code,
    }
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def render_plan_text(planned: Planned, pending: bool = True) -> str:
    """The plan in words: operations with their findings and dry runs, then manual steps;
    ``pending``: it is not being applied (the line that says how to apply it)."""
    plan = planned.plan
    lines = [f"Fix plan for {plan.interpreter} (environment {plan.prefix})"]
    new = plan.venv
    # An externally managed Python is never changed in place: what it recovers is always an
    # environment a fix of it created.
    exact = " (pip freeze identical)." if new is None else " (the environment it created removed)."
    for sid, problem in planned.recovered:
        lines.append(
            f"Restored snapshot {sid}, left by an interrupted fix"
            + (f": NOT exact: {problem}" if problem else exact)
        )
    if new is not None and (plan.operations or plan.refusal is not None):
        lines.append(
            "This Python is externally managed (PEP 668): nothing is installed into it. "
            f"The fix creates a virtual environment with it at {new.path}"
            + (" (replacing the one an earlier tfdoctor fix created there)" if new.replaces else "")
            + " and installs there:"
        )
        lines.append(f"  {shlex.quote(new.base)} -m venv {shlex.quote(new.path)}")
    if plan.refusal is not None:
        return "\n".join([*lines, f"Refused: {plan.refusal}", ""])
    if not planned.checked and not plan.manual:
        return "\n".join([*lines, "Nothing to do: no error or warning has a fix to apply.", ""])
    if planned.checked:
        lines.append(f"Steps (run with {plan.target} -m pip):")
        for i, c in enumerate(planned.checked, 1):
            op = c.operation
            causes = f" (cause: {', '.join(op.causes)})" if op.causes else ""
            lines.append(f"  {i}. {op.shown()}")
            lines.append(f"     removes: {', '.join(op.findings)}{causes}")
            changes = ", ".join(x.shown() for x in c.changes) or "nothing (already satisfied)"
            if c.changes or c.refusal is None:
                lines.append(f"     pip's dry run: {changes}")
            if c.refusal is not None:
                lines.append(f"     REFUSED: {c.refusal}")
        lines.append(f"Packages come from: {planned.source}")
    if plan.manual:
        lines.append("Manual steps (tfdoctor does not take them):")
        for m in plan.manual:
            lines.append(f"  - {m.command}")
            lines.append(f"    for {', '.join(m.findings)}: {m.reason}")
    refusal = planned.refusal
    if refusal is not None:
        lines.append(f"Refused: {refusal}")
    elif planned.checked and pending:
        lines.append("Not applied: run again with --yes to apply.")
    return "\n".join([*lines, ""])


def render_outcome_text(outcome: Outcome, new: Optional[NewVenv] = None) -> str:
    """How applying ended, in words; ``new``: the environment it created, and how to use it."""
    lines = [f"Snapshot {outcome.snapshot} taken before the first step."]
    for i, command in enumerate(outcome.done, 1):
        lines.append(f"  done {i}: {command}")
    if outcome.ok:
        lines.append("Applied and verified: the fixed findings are gone and no new error appeared.")
        if new is not None:
            lines.extend(venv_usage(new))
        undo = f" (removes {new.path})" if new is not None else ""
        lines.append(f"Undo with: tfdoctor fix --rollback {outcome.snapshot}{undo}")
        return "\n".join([*lines, ""])
    lines.append(f"Failed: {outcome.failure}")
    if outcome.restored and new is not None:
        lines.append(f"Rolled back to snapshot {outcome.snapshot}: {new.path} is removed.")
    elif outcome.restored:
        lines.append(f"Rolled back to snapshot {outcome.snapshot}: pip freeze is identical again.")
    else:
        lines.append(
            f"Roll back INCOMPLETE: {outcome.restore_problem}. Retry with: "
            f"tfdoctor fix --rollback {outcome.snapshot}"
        )
    return "\n".join([*lines, ""])


def venv_usage(new: NewVenv) -> list[str]:
    """How to use the new environment: activate it in each shell (the scripts ``venv``
    writes, https://docs.python.org/3/library/venv.html#how-venvs-work), or register it as a
    Jupyter kernel (https://ipython.readthedocs.io/en/stable/install/kernel_install.html)."""
    path = shlex.quote(new.path)
    python = shlex.quote(new.python)
    name = Path(new.path).name or "tensorflow"
    return [
        f"The fixed environment is {new.path}; the system Python is unchanged. Use it:",
        f"  bash, zsh, sh:  . {path}/bin/activate",
        f"  fish:           source {path}/bin/activate.fish",
        f"  csh, tcsh:      source {path}/bin/activate.csh",
        f"  PowerShell:     {path}/bin/Activate.ps1",
        f"  without activating: {python} your_script.py",
        f"  Jupyter: {python} -m pip install ipykernel && {python} -m ipykernel install "
        f"--user --name {shlex.quote(name)} --display-name 'Python (TensorFlow)'"
        ", then pick that kernel",
        f"  check it: tfdoctor check --python {python}",
    ]


def render_snapshots(found: Sequence[Snapshot], as_json: bool) -> str:
    """``tfdoctor fix --list``."""
    if as_json:
        rows = [
            {
                "id": s.id,
                "interpreter": s.interpreter,
                "prefix": s.prefix,
                "created": s.created,
                "state": s.state,
            }
            for s in found
        ]
        return json.dumps({"snapshots": rows}, indent=2, sort_keys=True) + "\n"
    if not found:
        return "No snapshots.\n"
    return "".join(f"{s.id}  {s.state:15} {s.prefix}\n" for s in found)


def render_rollback(snap: Snapshot, problem: str, as_json: bool) -> str:
    """``tfdoctor fix --rollback``'s answer."""
    if as_json:
        data = {
            "snapshot": snap.id,
            "prefix": snap.prefix,
            "restored": not problem,
            "problem": problem or None,
        }
        return json.dumps(data, indent=2, sort_keys=True) + "\n"
    if problem:
        return f"Snapshot {snap.id} NOT restored exactly: {problem}\n"
    if snap.venv_of:
        return (
            f"Restored snapshot {snap.id}: the environment {snap.prefix} it created is removed.\n"
        )
    return f"Restored snapshot {snap.id} in {snap.prefix}: pip freeze is identical.\n"
