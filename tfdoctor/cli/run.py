"""``tfdoctor run``: run a command; explain its output when it fails.

The ``tfdoctor`` executable starts the command in :mod:`tfdoctor.cli.fast` and comes here
only afterwards (:func:`finish_run`), or for what that fast path leaves to the full parser.
"""

from __future__ import annotations

import shlex
import sys
from typing import TYPE_CHECKING, Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli.options import COLOR_OPTION, MATRIX_OPTION
from tfdoctor.cli.output import OutputFormat, fail, last_words, render, use_color

if TYPE_CHECKING:
    from tfdoctor.findings import Report
    from tfdoctor.runwatch import Watched


def run_command(
    command: list[str] = typer.Argument(  # noqa: B008 - typer's declaration style
        ..., metavar="COMMAND...", help="The command to run, with its arguments (after --)."
    ),
    explain_on_success: bool = typer.Option(
        False, "--explain-on-success", help="Explain the output even when the command succeeds."
    ),
    report_file: Optional[str] = typer.Option(
        None, "--report", metavar="FILE", help="Also write the explanation as JSON to FILE."
    ),
    bundle_file: Optional[str] = typer.Option(
        None,
        "--bundle",
        metavar="FILE",
        help="Then write a bug-report bundle (see `tfdoctor bundle`) with the output to FILE.",
    ),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Run COMMAND, its output passed through unchanged; explain that output when it fails.

    Exits with COMMAND's exit code: 128+N when signal N killed it, 127 when it is not found,
    126 when it cannot be executed. The explanation goes to stderr after COMMAND's output.
    """
    # `tfdoctor run ...` as the executable reaches this only when tfdoctor.cli.fast handed it
    # on (--help, an option it does not know); the common case starts COMMAND there.
    from tfdoctor.runwatch import watch

    if bundle_file is not None:
        from tfdoctor.bundle import BundleError, check_output

        try:
            check_output(bundle_file)
        except BundleError as exc:
            raise fail(str(exc)) from None
    raise typer.Exit(
        finish_run(watch(command), explain_on_success, report_file, matrix, color, bundle_file)
    )


def finish_run(
    watched: Watched,
    explain_on_success: bool,
    report_file: Optional[str],
    matrix: Optional[str],
    color: Optional[bool],
    bundle_file: Optional[str] = None,
) -> int:
    """After a watched run: explain, report and bundle as asked; the exit code is the command's."""
    if watched.start_error is not None:
        last_words(f"tfdoctor run: cannot start {watched.argv[0]}: {watched.start_error}")
    else:
        _explain_and_report(watched, explain_on_success, report_file, matrix, color)
    if bundle_file is not None:
        _write_bundle(watched, bundle_file, matrix)
    return watched.exit_code


def _explain_and_report(
    watched: Watched,
    explain_on_success: bool,
    report_file: Optional[str],
    matrix: Optional[str],
    color: Optional[bool],
) -> None:
    """The explanation on stderr when the run earns one, and the JSON report when asked."""
    from tfdoctor.runwatch import should_explain

    show = should_explain(watched, explain_on_success)
    if show or report_file is not None:
        report = _explain_run(watched, matrix)
        if report is not None and report_file is not None:
            _write_run_report(report, report_file)
        if report is not None and show:
            colored = use_color(sys.stderr) if color is None else color
            text = render(report, OutputFormat.text, False, False, colored)
            # The report's own summary names the exit code its findings earn; the last line
            # says the one this process exits with, the command's.
            last_words(text.rstrip("\n") + "\n" + _run_footer(watched))


def _explain_run(watched: Watched, matrix: Optional[str]) -> Optional[Report]:
    """The explanation of a run's kept output; None, after one line on stderr, when it fails.

    The command's exit code stands whatever happens here, so nothing is raised.
    """
    try:
        from tfdoctor.explain import explain
        from tfdoctor.inputs import open_matrix
        from tfdoctor.signatures import load_signatures

        blocks = watched.kept.blocks()
        report = explain(blocks, load_signatures(), open_matrix(matrix), version=__version__)
    except ImportError as exc:
        last_words(f"tfdoctor run: cannot explain the output: {exc}")
        return None
    except Exception as exc:  # a failed explanation must not change the command's result
        last_words(f"tfdoctor run: cannot explain the output: {type(exc).__name__}: {exc}")
        return None
    return report


def _write_bundle(watched: Watched, path: str, matrix: Optional[str]) -> None:
    """The bundle with the run's output (this interpreter examined); one line on failure."""
    from tfdoctor.bundle import BundleError
    from tfdoctor.cli.bundle import make_bundle

    try:
        make_bundle(path, sys.executable, matrix=matrix, watched=watched)
    except BundleError as exc:
        last_words(f"tfdoctor run: cannot write the bundle: {exc}")
    except typer.Exit:
        pass  # bad input to the checks: make_bundle has said so in one line
    else:
        last_words(f"tfdoctor run: wrote the bundle {path}")


def _run_footer(watched: Watched) -> str:
    """One line naming how the command ended, how much output was read, and the exit code."""
    how = (
        f"was killed by {watched.signal_name} (exit {watched.exit_code})"
        if watched.signal_name
        else f"exited {watched.exit_code}"
    )
    kept = watched.kept
    seen = f"{kept.total_lines} output lines"
    if kept.dropped:
        last = kept.first_tail_line - 1
        seen += f"; lines {len(kept.head) + 1}-{last} were not kept"
    shown = shlex.join(watched.argv)
    if len(shown) > 60:  # a `python -c` script, a long argument list: the start names it
        shown = shown[:57] + "..."
    return f"tfdoctor run: {shown} {how} ({seen}); exiting {watched.exit_code} with it."


def _write_run_report(report: Report, path: str) -> None:
    """The JSON report to ``path`` (atomically); one line on stderr when it cannot be."""
    from tfdoctor.pin.atomic import write_atomic

    try:
        write_atomic(path, render(report, OutputFormat.json, False, False, False))
    except (OSError, ValueError) as exc:
        last_words(f"tfdoctor run: cannot write {path}: {exc}")


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command(
        "run",
        short_help="Run a command; explain its output when it fails.",
        # Everything from COMMAND on is COMMAND's own: `tfdoctor run python train.py --epochs 3`.
        context_settings={"allow_interspersed_args": False, "ignore_unknown_options": True},
    )(run_command)
