"""Command line: thin typer commands that parse options, call one function, render, exit.

Exit codes (``tfdoctor check``): 0 nothing worse than info (warnings too, unless
``--strict``); 1 warnings with ``--strict``; 2 errors; 3 the doctor could not do its job.
"""

from __future__ import annotations

import enum
import os
import sys
from contextlib import nullcontext
from typing import Any, Optional

import typer

from tfdoctor import __version__
from tfdoctor.doctor import (
    DEFAULT_TIMEOUT,
    CheckOptions,
    DoctorError,
    diagnose,
    list_checks,
    query_matrix,
)
from tfdoctor.findings import ExitCode, Report

app = typer.Typer(
    name="tfdoctor",
    help="Diagnose a TensorFlow environment: what is wrong, and exactly how to fix it.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


class OutputFormat(str, enum.Enum):
    """Output formats of ``tfdoctor check``."""

    text = "text"
    json = "json"
    markdown = "markdown"


MATRIX_OPTION: Any = typer.Option(
    None,
    "--matrix",
    metavar="FILE",
    help="Use this compatibility matrix (default: $TFDOCTOR_MATRIX, else the bundled one).",
)


def _use_color(stream: Any) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _terminal_width() -> int:
    try:
        return max(60, min(os.get_terminal_size(sys.stdout.fileno()).columns, 140))
    except (OSError, ValueError):
        return 100


def _spinner() -> Any:
    """A rich status line on stderr, shown while probes run (terminal sessions only)."""
    from rich.console import Console  # noqa: PLC0415 - only a terminal session pays for rich

    return Console(stderr=True).status("tfdoctor: probing")


def _fail(message: str) -> typer.Exit:
    typer.echo(f"tfdoctor: error: {message}", err=True)
    return typer.Exit(ExitCode.DOCTOR_FAILED)


@app.command()
def check(
    ids: Optional[list[str]] = typer.Argument(  # noqa: B008 - typer's declaration style
        None, metavar="[CHECK_ID]...", help="Run only these checks (see --list)."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print the JSON report."),
    output_format: OutputFormat = typer.Option(  # noqa: B008
        OutputFormat.text, "--format", "-f", help="Output format."
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Show every fact, not just verdicts."
    ),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings and unknowns."),
    static: bool = typer.Option(
        False,
        "--static",
        help="Do not import TensorFlow (build steps, or when importing is the problem).",
    ),
    timeout: float = typer.Option(
        DEFAULT_TIMEOUT,
        "--timeout",
        metavar="SECONDS",
        help="Time allowed for importing TensorFlow.",
    ),
    python: str = typer.Option(
        sys.executable,
        "--python",
        metavar="PATH",
        help="Examine this interpreter's environment.",
        show_default="this interpreter",
    ),
    facts_file: Optional[str] = typer.Option(
        None,
        "--facts",
        metavar="FILE",
        help="Judge the facts of a saved --json report ('-' reads stdin).",
    ),
    matrix: Optional[str] = MATRIX_OPTION,
    list_only: bool = typer.Option(False, "--list", help="List the check ids and exit."),
    color: Optional[bool] = typer.Option(
        None,
        "--color/--no-color",
        help="Force colour on or off (default: on a terminal, unless NO_COLOR).",
    ),
) -> None:
    """Probe Python, packages, the NVIDIA driver, CUDA libraries and TensorFlow; judge; report."""
    if list_only:
        for check_id, title in list_checks():
            typer.echo(f"{check_id:28} {title}")
        raise typer.Exit(ExitCode.OK)
    if json_out and output_format not in (OutputFormat.text, OutputFormat.json):
        raise _fail(f"--json and --format {output_format.value} ask for different outputs")
    fmt = OutputFormat.json if json_out else output_format
    options = CheckOptions(
        python=python,
        static=static,
        timeout=timeout,
        check_ids=tuple(ids or ()),
        facts_file=facts_file,
        matrix=matrix,
    )
    show_progress = fmt is OutputFormat.text and facts_file is None and _use_color(sys.stderr)
    status = _spinner() if show_progress else None
    try:
        with status if status is not None else nullcontext():
            report = diagnose(
                options,
                progress=None if status is None else lambda msg: status.update(f"tfdoctor: {msg}"),
            )
    except DoctorError as exc:
        raise _fail(str(exc)) from None
    typer.echo(_render(report, fmt, verbose, strict, color), nl=False)
    raise typer.Exit(report.exit_code(strict))


def _render(
    report: Report, fmt: OutputFormat, verbose: bool, strict: bool, color: Optional[bool]
) -> str:
    # Each renderer is imported when used: the text one pulls in rich, which --json never needs.
    if fmt is OutputFormat.json:
        from tfdoctor.render.jsonout import render_json  # noqa: PLC0415 - see above

        return render_json(report, __version__, strict)
    if fmt is OutputFormat.markdown:
        from tfdoctor.render.markdown import render_markdown  # noqa: PLC0415 - see above

        return render_markdown(report, __version__, strict=strict)
    from tfdoctor.render.text import render_text  # noqa: PLC0415 - see above

    use_color = _use_color(sys.stdout) if color is None else color
    return render_text(
        report, verbose=verbose, color=use_color, width=_terminal_width(), strict=strict
    )


@app.command("matrix")
def matrix_command(
    python: Optional[str] = typer.Option(None, "--python", metavar="X.Y", help="Python version."),
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
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object per line."),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = typer.Option(
        None, "--color/--no-color", help="Force colour on or off (default: on a terminal)."
    ),
) -> None:
    """Which TensorFlow releases work with a Python, platform, CUDA, driver and GPU.

    Exits 0, or 2 when a query matches no release, or 3 on bad input.
    """
    try:
        table, target, verdicts, asked = query_matrix(
            matrix, python=python, platform=platform, cuda=cuda, driver=driver, gpu=gpu
        )
    except DoctorError as exc:
        raise _fail(str(exc)) from None
    if json_out:
        from tfdoctor.render.matrixout import render_matrix_json  # noqa: PLC0415 - lazy

        typer.echo(render_matrix_json(table, verdicts, target), nl=False)
    else:
        from tfdoctor.render.matrixout import render_matrix_text  # noqa: PLC0415 - lazy

        use_color = _use_color(sys.stdout) if color is None else color
        text = render_matrix_text(
            table, verdicts, target, asked=asked, color=use_color, width=_terminal_width()
        )
        typer.echo(text, nl=False)
    fits = any(v.fits for v in verdicts)
    raise typer.Exit(ExitCode.OK if fits or not asked else ExitCode.ERRORS)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"tfdoctor {__version__}")
        raise typer.Exit(ExitCode.OK)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version."
    ),
) -> None:
    """tfdoctor: an environment doctor for TensorFlow."""


def main(argv: Optional[list[str]] = None) -> int:
    """Entry point: run the app; usage errors exit 3 with one line, never a traceback."""
    try:
        code = app(args=argv, prog_name="tfdoctor", standalone_mode=False)
    except Exception as exc:
        # Bare `tfdoctor` has printed its help: that is an answer, not an error. Matched by
        # name: click before 8.2 has no such class (it exits 0 there by itself).
        if type(exc).__name__ == "NoArgsIsHelpError":
            return int(ExitCode.OK)
        # Click's usage errors (bad option, bad value) carry `format_message`; they are bad
        # input, so exit 3 with one line instead of click's exit 2, which means "errors" here.
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            typer.echo(f"tfdoctor: error: {exc.format_message()}", err=True)
            return int(ExitCode.DOCTOR_FAILED)
        raise
    if isinstance(code, int):
        return code
    return int(ExitCode.OK)


if __name__ == "__main__":
    sys.exit(main())
