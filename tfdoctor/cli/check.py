"""``tfdoctor check``: probe this environment, judge it, and say how to fix it."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import Any, Optional

import typer

from tfdoctor.cli.options import (
    COLOR_OPTION,
    EXAMINE_OPTION,
    IMPORT_TIMEOUT_OPTION,
    JSON_OPTION,
    MATRIX_OPTION,
    STATIC_OPTION,
    STRICT_OPTION,
    chosen_format,
    facts_option,
    format_option,
)
from tfdoctor.cli.output import OutputFormat, doctor_errors, emit, print_out, spinner, use_color
from tfdoctor.defaults import ExitCode


def check(
    ids: Optional[list[str]] = typer.Argument(  # noqa: B008 - typer's declaration style
        None, metavar="[CHECK_ID]...", help="Run only these checks (see --list)."
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("check"),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Show every fact and the whole evidence, not just verdicts."
    ),
    strict: bool = STRICT_OPTION,
    static: bool = STATIC_OPTION,
    timeout: float = IMPORT_TIMEOUT_OPTION,
    python: str = EXAMINE_OPTION,
    facts_file: Optional[str] = facts_option("Judge"),
    matrix: Optional[str] = MATRIX_OPTION,
    require_gpu: bool = typer.Option(
        False,
        "--require-gpu",
        help="Fail (exit 2) unless TensorFlow can use a GPU, naming the cause (container start).",
    ),
    against: Optional[str] = typer.Option(
        None,
        "--against",
        metavar="FILE",
        help="Report each installed package that differs from this requirements file.",
    ),
    smoke: bool = typer.Option(
        False, "--smoke", help="Also run kernels on every device (see `tfdoctor smoke`)."
    ),
    list_only: bool = typer.Option(False, "--list", help="List the check ids and exit."),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Probe Python, packages, the NVIDIA driver, CUDA libraries and TensorFlow; judge; report."""
    from tfdoctor.doctor import CheckOptions, diagnose, list_checks

    if list_only:
        for check_id, title in list_checks():
            print_out(f"{check_id:28} {title}")
        raise typer.Exit(ExitCode.OK)
    fmt = chosen_format(output_format, json_out)
    options = CheckOptions(
        python=python,
        static=static,
        timeout=timeout,
        check_ids=tuple(ids or ()),
        facts_file=facts_file,
        matrix=matrix,
        require_gpu=require_gpu,
        against=against,
        smoke=_smoke_options(python) if smoke else None,
    )
    show_progress = fmt is OutputFormat.text and facts_file is None and use_color(sys.stderr)
    status = spinner() if show_progress else None
    with doctor_errors(), status if status is not None else nullcontext():
        report = diagnose(
            options,
            progress=None if status is None else lambda msg: status.update(f"tfdoctor: {msg}"),
        )
    emit(report, fmt, verbose, strict, color, command="check")
    raise typer.Exit(report.exit_code(strict))


def _smoke_options(python: str) -> Any:
    """The smoke test's default options (its module loads only when --smoke asks for it)."""
    from tfdoctor.smoke import SmokeOptions

    return SmokeOptions(python=python)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command(short_help="Probe this environment, judge it, and say how to fix it.")(check)
