"""``tfdoctor matrix``: which TensorFlow releases fit a Python, CUDA, driver, GPU; with
``--companion``, which release of a companion goes with which TensorFlow."""

from __future__ import annotations

import sys
from typing import NoReturn, Optional

import typer

from tfdoctor.cli.options import COLOR_OPTION, MATRIX_OPTION, chosen_format, format_option
from tfdoctor.cli.output import (
    OutputFormat,
    doctor_errors,
    fail,
    print_out,
    terminal_width,
    use_color,
)
from tfdoctor.defaults import ExitCode


def matrix_command(
    python: Optional[str] = typer.Option(
        None,
        "--python",
        metavar="PATH",
        help="Ask about this interpreter's Python version (a path, or a command on PATH).",
    ),
    python_version: Optional[str] = typer.Option(
        None, "--python-version", metavar="X.Y", help="Ask about this Python version."
    ),
    platform: Optional[str] = typer.Option(
        None,
        "--platform",
        metavar="OS",
        help="linux, windows, macos or a platform key such as linux-aarch64 (default: this "
        "machine's, when asking about Python).",
    ),
    cuda: Optional[str] = typer.Option(
        None, "--cuda", metavar="X.Y", help="An installed CUDA toolkit version."
    ),
    driver: Optional[str] = typer.Option(
        None, "--driver", metavar="VERSION", help="NVIDIA driver version (nvidia-smi)."
    ),
    gpu: Optional[str] = typer.Option(
        None, "--gpu", metavar="CC|NAME", help="GPU compute capability (8.6) or model name."
    ),
    companion: Optional[str] = typer.Option(
        None,
        "--companion",
        metavar="NAME[==X.Y]",
        help="Which releases of a companion (tensorflow-text, tensorflow-io, ...) go with which "
        "TensorFlow; NAME==X.Y: which TensorFlow goes with that release.",
    ),
    tensorflow: Optional[str] = typer.Option(
        None,
        "--tensorflow",
        metavar="X.Y",
        help="With --companion: the companion's release for this TensorFlow.",
    ),
    pre: bool = typer.Option(
        False, "--pre", help="Let a pre-release line be the newest fit, or serve a companion."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object per line."),
    output_format: str = format_option("matrix"),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Which TensorFlow releases work with a Python, platform, CUDA, driver and GPU; with
    --companion, which release of a companion goes with which TensorFlow.

    Exits 0, or 2 when a query matches no release, or 3 on bad input.
    """
    from tfdoctor.query import query_matrix

    fmt = chosen_format(output_format, json_out)
    if companion is not None:
        if any(v is not None for v in (python, python_version, platform, cuda, driver, gpu)):
            raise fail("--companion answers for a TensorFlow (--tensorflow), not a target")
        _companion_query(matrix, companion, tensorflow, pre, fmt)
    if tensorflow is not None:
        raise fail("--tensorflow asks about a companion: add --companion NAME")
    with doctor_errors():
        table, target, verdicts, asked = query_matrix(
            matrix,
            python=python,
            python_version=python_version,
            platform=platform,
            cuda=cuda,
            driver=driver,
            gpu=gpu,
        )
    if fmt is OutputFormat.json:
        from tfdoctor.render.matrixout import render_matrix_json

        print_out(render_matrix_json(table, verdicts, target), nl=False)
    else:
        from tfdoctor.render.matrixout import render_matrix_text

        colored = use_color(sys.stdout) if color is None else color
        text = render_matrix_text(
            table, verdicts, target, asked=asked, color=colored, width=terminal_width(), pre=pre
        )
        print_out(text, nl=False)
    fits = any(v.fits for v in verdicts)
    raise typer.Exit(ExitCode.OK if fits or not asked else ExitCode.ERRORS)


def _companion_query(
    matrix: Optional[str], companion: str, tensorflow: Optional[str], pre: bool, fmt: OutputFormat
) -> NoReturn:
    """``matrix --companion``: print the answer, exit 2 where no release matches."""
    from tfdoctor.query import query_companion
    from tfdoctor.render.matrixout import render_companion_json, render_companion_text

    with doctor_errors():
        answer = query_companion(matrix, companion, tensorflow, pre)
    if fmt is OutputFormat.json:
        print_out(render_companion_json(answer), nl=False)
    else:
        print_out(render_companion_text(answer, width=terminal_width()), nl=False)
    raise typer.Exit(ExitCode.OK if answer.matches else ExitCode.ERRORS)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("matrix", short_help="Which TensorFlow releases fit a Python, CUDA, driver, GPU.")(
        matrix_command
    )
