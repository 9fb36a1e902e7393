"""``tfdoctor scan``: will this code run on that TensorFlow? (never runs it)"""

from __future__ import annotations

from typing import Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli.options import (
    COLOR_OPTION,
    JSON_OPTION,
    MATRIX_OPTION,
    STRICT_OPTION,
    chosen_format,
    format_option,
    interpreter_option,
    require_python,
)
from tfdoctor.cli.output import doctor_errors, emit, fail


def scan_command(
    paths: list[str] = typer.Argument(  # noqa: B008 - typer's declaration style
        ..., metavar="PATH...", help="Python files, notebooks (.ipynb) and directories."
    ),
    target: Optional[str] = typer.Option(
        None,
        "--target",
        metavar="X.Y",
        help="The TensorFlow line the code is to run on (default: the installed TensorFlow, "
        "else the newest line of the matrix).",
    ),
    since: Optional[str] = typer.Option(
        None,
        "--from",
        metavar="X.Y",
        help="The line the code runs on today: report only what changes up to --target.",
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("scan"),
    strict: bool = STRICT_OPTION,
    python: str = interpreter_option(
        "The environment the code runs in: its TensorFlow is the default --target."
    ),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Will this code run on that TensorFlow? Parse (never run) code and report what breaks.

    Exit codes as for check: 0 nothing worse than info (warnings too, unless --strict),
    1 warnings with --strict, 2 a use that breaks on the target, 3 bad input.
    """
    from tfdoctor.inputs import open_matrix
    from tfdoctor.scan import ScanError, ScanOptions, scan
    from tfdoctor.scan.rules import RulesError, load_rules
    from tfdoctor.scan.target import default_target

    fmt = chosen_format(output_format, json_out)
    require_python(python)
    with doctor_errors():
        table = open_matrix(matrix)
    installed: Optional[frozenset[str]] = None
    version: Optional[str] = None
    if target is None:
        target, installed, version = default_target(python, table)
    try:
        report = scan(
            ScanOptions(tuple(paths), target, since, installed, python=version),
            load_rules(),
            __version__,
            table,
        )
    except (ScanError, RulesError) as exc:
        raise fail(str(exc)) from None
    emit(report, fmt, False, strict, color, "scan")
    raise typer.Exit(report.exit_code(strict))


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("scan", short_help="Will this code run on that TensorFlow? (never runs it)")(
        scan_command
    )
