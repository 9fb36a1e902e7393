"""``tfdoctor diff``: each fact that differs between two saved reports."""

from __future__ import annotations

from typing import Optional

import typer

from tfdoctor.cli.fleet import compare
from tfdoctor.cli.options import COLOR_OPTION, JSON_OPTION, STRICT_OPTION, format_option


def diff_command(
    first: str = typer.Argument(..., metavar="A.json", help="A saved `check --json` report."),
    second: str = typer.Argument(..., metavar="B.json", help="Another one."),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("diff"),
    color: Optional[bool] = COLOR_OPTION,
    strict: bool = STRICT_OPTION,
) -> None:
    """Works on A, fails on B: each fact that differs between two saved reports."""
    compare([first, second], output_format, json_out, color, "diff", strict)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("diff", short_help="Each fact that differs between two saved reports.")(
        diff_command
    )
