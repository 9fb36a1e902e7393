"""``tfdoctor fleet``: merge per-node reports; name what is out of line."""

from __future__ import annotations

from typing import Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli.options import (
    COLOR_OPTION,
    JSON_OPTION,
    STRICT_OPTION,
    chosen_format,
    format_option,
)
from tfdoctor.cli.output import emit, fail, now


def fleet_command(
    reports: list[str] = typer.Argument(  # noqa: B008 - typer's declaration style
        ..., metavar="REPORT...", help="Saved `check --json` reports, one per node."
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("fleet"),
    color: Optional[bool] = COLOR_OPTION,
    strict: bool = STRICT_OPTION,
) -> None:
    """Merge per-node reports into one fleet report, naming each fact and node out of line.

    Exits 0 when the nodes agree (notes allowed), 1 with --strict when a fact differs that
    does not break the job outright, 2 when one does, 3 when a report cannot be read.
    """
    compare(reports, output_format, json_out, color, "fleet", strict)


def compare(
    paths: list[str],
    output_format: str,
    json_out: bool,
    color: Optional[bool],
    command: str,
    strict: bool = False,
) -> None:
    """The fleet report of the saved reports at ``paths``, emitted; ends the command."""
    from tfdoctor.cluster import FleetError, fleet_report

    fmt = chosen_format(output_format, json_out)
    try:
        report = fleet_report(paths, __version__, now())
    except FleetError as exc:
        raise fail(str(exc)) from None
    emit(report, fmt, False, strict, color, command)
    raise typer.Exit(report.exit_code(strict))


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("fleet", short_help="Merge per-node reports; name what is out of line.")(
        fleet_command
    )
