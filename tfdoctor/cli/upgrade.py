"""``tfdoctor upgrade``: the plan to move this environment and its code to another TensorFlow."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli.options import (
    COLOR_OPTION,
    JSON_OPTION,
    MATRIX_OPTION,
    chosen_format,
    facts_option,
    format_option,
    interpreter_option,
)
from tfdoctor.cli.output import (
    OutputFormat,
    doctor_errors,
    print_out,
    terminal_width,
    use_color,
)


def upgrade_command(
    to: str = typer.Option(
        ...,
        "--to",
        metavar="X.Y[.Z]",
        help="The TensorFlow release to move to (a line such as 2.21: its newest release).",
    ),
    paths: Optional[list[str]] = typer.Argument(  # noqa: B008 - typer's declaration style
        None, metavar="[PATH]...", help="The code to move: Python files, notebooks, directories."
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("upgrade"),
    resolve: bool = typer.Option(
        False,
        "--resolve",
        help="Pin every package exactly (==) as pip's resolver picks them; reads the package "
        "index (network). Without it the pins are ranges, offline.",
    ),
    index_url: Optional[str] = typer.Option(
        None, "--index-url", metavar="URL", help="The package index --resolve reads."
    ),
    python: str = interpreter_option("Plan the move of this interpreter's environment."),
    facts_file: Optional[str] = facts_option("Plan from"),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Plan the move to another TensorFlow: pins, platform, code changes, in order.

    Reads, never changes anything. Exit codes: 0 nothing to change, 1 changes to make,
    2 the move cannot be done on this machine, 3 bad input.
    """
    from tfdoctor.upgrade.service import UpgradeOptions, make_plan

    fmt = chosen_format(output_format, json_out)
    options = UpgradeOptions(
        to=to,
        paths=tuple(paths or ()),
        python=python,
        facts_file=facts_file,
        matrix=matrix,
        resolve=resolve,
        index_url=index_url,
    )
    with doctor_errors():
        plan = make_plan(options, __version__)
    if fmt is OutputFormat.json:
        from tfdoctor.render.upgrade import render_upgrade_json

        text = render_upgrade_json(plan, __version__)
    elif fmt is OutputFormat.markdown:
        from tfdoctor.render.upgrade import render_upgrade_markdown

        text = render_upgrade_markdown(plan)
    elif fmt is OutputFormat.sarif:
        from tfdoctor.render.sarif import render_sarif

        text = render_sarif(plan.report, __version__)
    else:
        from tfdoctor.render.upgrade import render_upgrade_text

        colored = use_color(sys.stdout) if color is None else color
        text = render_upgrade_text(plan, color=colored, width=terminal_width())
    print_out(text, nl=False)
    raise typer.Exit(plan.exit_code())


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("upgrade", short_help="Plan the move to another TensorFlow: pins, platform, code.")(
        upgrade_command
    )
