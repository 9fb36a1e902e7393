"""``tfdoctor smoke``: run kernels on every device; check results and speed."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import Optional

import typer

from tfdoctor.cli.options import (
    COLOR_OPTION,
    JSON_OPTION,
    STRICT_OPTION,
    chosen_format,
    format_option,
    interpreter_option,
    timeout_option,
)
from tfdoctor.cli.output import OutputFormat, doctor_errors, emit, fail, progress_bars, use_color
from tfdoctor.defaults import DEFAULT_KERNEL_TIMEOUT


def smoke_command(
    quick: bool = typer.Option(False, "--quick", help="A few seconds per device (default)."),
    full: bool = typer.Option(False, "--full", help="Larger sizes, longer measurements."),
    max_memory: str = typer.Option(
        "1GiB",
        "--max-memory",
        metavar="SIZE",
        help="GPU memory the test may take per GPU (512MiB, 2GiB); it grows into it on demand.",
    ),
    timeout: float = timeout_option(
        DEFAULT_KERNEL_TIMEOUT,
        "Time allowed per kernel before the test is killed and the kernel reported.",
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("smoke"),
    python: str = interpreter_option("Run the kernels in this interpreter's TensorFlow."),
    devices: Optional[list[str]] = typer.Option(  # noqa: B008 - typer's declaration style
        None, "--device", metavar="NAME", help="Run only on this device (GPU:0, CPU:0); repeat."
    ),
    strict: bool = STRICT_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Run TensorFlow kernels on every device: placement, correctness, speed against peak."""
    from tfdoctor.smoke import SmokeOptions, parse_size
    from tfdoctor.smoke.service import smoke_report

    if quick and full:
        raise fail("--quick and --full ask for different levels")
    fmt = chosen_format(output_format, json_out)
    try:
        cap = parse_size(max_memory)
    except ValueError as exc:
        raise fail(f"--max-memory: {exc}") from None
    options = SmokeOptions(
        python=python,
        level="full" if full else "quick",
        max_memory=cap,
        kernel_timeout=timeout,
        devices=tuple(devices or ()),
    )
    bars = progress_bars() if fmt is OutputFormat.text and use_color(sys.stderr) else None
    with doctor_errors(), bars[0] if bars is not None else nullcontext():
        report = smoke_report(options, progress=None if bars is None else bars[1])
    emit(report, fmt, False, strict, color, command="smoke")
    raise typer.Exit(report.exit_code(strict))


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("smoke", short_help="Run kernels on every device; check results and speed.")(
        smoke_command
    )
