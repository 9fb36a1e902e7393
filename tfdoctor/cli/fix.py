"""``tfdoctor fix``: apply the fixes of a check as one transaction, verify, roll back."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from tfdoctor.cli.options import MATRIX_OPTION, facts_option, format_option
from tfdoctor.cli.output import doctor_errors, fail, last_words, print_out
from tfdoctor.defaults import DEFAULT_TIMEOUT, ExitCode


def fix(
    snapshot_id: Optional[str] = typer.Argument(
        None, metavar="[ID]", help="With --rollback: the snapshot to restore (default: newest)."
    ),
    yes: bool = typer.Option(False, "--yes", "-y", help="Apply the plan without asking."),
    output_format: str = format_option("fix"),
    python: Optional[str] = typer.Option(
        None,
        "--python",
        metavar="PATH",
        help="Fix this interpreter's environment.",
        show_default="this interpreter",
    ),
    facts_file: Optional[str] = facts_option("Plan from"),
    static: bool = typer.Option(
        False, "--static", help="Examine and verify without importing TensorFlow."
    ),
    timeout: float = typer.Option(
        DEFAULT_TIMEOUT,
        "--timeout",
        metavar="SECONDS",
        help="Time allowed for importing TensorFlow.",
    ),
    matrix: Optional[str] = MATRIX_OPTION,
    index_url: Optional[str] = typer.Option(
        None, "--index-url", metavar="URL", help="Install packages from this index."
    ),
    find_links: Optional[list[str]] = typer.Option(  # noqa: B008 - typer's declaration style
        None, "--find-links", metavar="DIR", help="Also look for packages here (repeatable)."
    ),
    no_index: bool = typer.Option(
        False, "--no-index", help="Use no index, only --find-links (no network)."
    ),
    venv: Optional[str] = typer.Option(
        None,
        "--venv",
        metavar="PATH",
        help="For an externally managed Python (PEP 668): create the fixed environment here.",
        show_default="~/.local/share/tfdoctor/venvs/tensorflow-pyX.Y",
    ),
    rollback: bool = typer.Option(
        False, "--rollback", help="Restore a snapshot taken before an earlier fix."
    ),
    list_only: bool = typer.Option(False, "--list", help="List the snapshots and exit."),
) -> None:
    """Plan the fixes of `tfdoctor check`; with --yes apply them, verify, roll back on failure."""
    from tfdoctor.fix.pip import IndexOptions
    from tfdoctor.fix.service import (
        FixOptions,
        list_snapshots,
        open_session,
        plan_exit_code,
        restore_snapshot,
    )
    from tfdoctor.render.fixout import (
        render_fix_json,
        render_outcome_text,
        render_plan_text,
        render_rollback,
        render_snapshots,
    )

    as_json = output_format == "json"
    index = IndexOptions(index_url, tuple(find_links or ()), no_index)
    options = FixOptions(python, facts_file, static, timeout, matrix, index, venv)
    if snapshot_id is not None and not rollback:
        raise fail(f"unexpected argument {snapshot_id!r} (a snapshot id goes with --rollback)")
    if list_only:
        with doctor_errors():
            print_out(render_snapshots(list_snapshots(), as_json), nl=False)
        raise typer.Exit(ExitCode.OK)
    if rollback:
        with doctor_errors():
            snap, problem = restore_snapshot(snapshot_id, options, _say)
        print_out(render_rollback(snap, problem, as_json), nl=False)
        raise typer.Exit(ExitCode.ERRORS if problem else ExitCode.OK)
    with doctor_errors(), open_session(options) as session:
        # While planning, progress only on a terminal: bad input must stay one line.
        planned = session.plan(_say if sys.stderr.isatty() else _silent)
        applicable = planned.refusal is None and bool(planned.checked)
        asked = applicable and not yes and not as_json and _interactive()
        if asked:
            print_out(render_plan_text(planned, pending=False), nl=False)
        if not applicable or not (yes or (asked and _confirm())):
            code = plan_exit_code(planned)
            if as_json:
                print_out(render_fix_json(planned, None, code), nl=False)
            else:
                print_out("Not applied." if asked else render_plan_text(planned), nl=asked)
            raise typer.Exit(code)
        if not as_json and not asked:
            print_out(render_plan_text(planned, pending=False), nl=False)
        outcome = session.apply(planned, _say)
    if outcome.ok:
        code = ExitCode.OK
    else:
        code = ExitCode.INTERRUPTED if outcome.interrupted else ExitCode.ERRORS
    if as_json:
        text = render_fix_json(planned, outcome, code)
    else:
        text = render_outcome_text(outcome, planned.plan.venv)
    print_out(text, nl=False)
    raise typer.Exit(code)


def _say(message: str) -> None:
    """A step of the fix, on stderr."""
    last_words(f"tfdoctor: {message}")


def _silent(_message: str) -> None:
    """No progress shown."""


def _interactive() -> bool:
    """Both ends on a terminal: a person can be asked (a closed one is None)."""
    from tfdoctor.bounded import stdin_is_terminal

    return stdin_is_terminal() and bool(sys.stdout and sys.stdout.isatty())


def _confirm() -> bool:
    return bool(typer.confirm("Apply these steps?", default=False))


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command(short_help="Apply the fixes as one transaction: verify, roll back on failure.")(fix)
