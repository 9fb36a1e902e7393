"""Options several commands share, declared once, and the formats each command offers.

Typer reads a declaration and never changes it, so one object serves every command.
"""

from __future__ import annotations

import sys
from typing import Any

import typer

from tfdoctor.cli.output import OutputFormat, doctor_errors, fail
from tfdoctor.defaults import DEFAULT_TIMEOUT

_REPORT_FORMATS = (
    OutputFormat.text,
    OutputFormat.json,
    OutputFormat.markdown,
    OutputFormat.junit,
    OutputFormat.github,
)

#: The formats each command offers (``--format``), in one place, by the same names. Every
#: report renders as text, JSON and markdown, and for CI as JUnit XML and GitHub workflow
#: commands; SARIF (code scanning) needs findings with a file and a line: scan's; HTML (one
#: page with charts) is offered where there is something to draw. matrix
#: prints a table of release lines, as text or JSON lines. ``--json`` is ``--format json``.
FORMATS: dict[str, tuple[OutputFormat, ...]] = {
    "check": (*_REPORT_FORMATS, OutputFormat.html),
    "smoke": (*_REPORT_FORMATS, OutputFormat.html),
    "explain": _REPORT_FORMATS,
    "scan": (*_REPORT_FORMATS, OutputFormat.sarif),
    # A plan is read in order: text, markdown, JSON; SARIF for the code changes it lists.
    "upgrade": (OutputFormat.text, OutputFormat.json, OutputFormat.markdown, OutputFormat.sarif),
    "cluster": (*_REPORT_FORMATS, OutputFormat.html),
    "diff": _REPORT_FORMATS,
    "fleet": (*_REPORT_FORMATS, OutputFormat.html),
    "matrix": (OutputFormat.text, OutputFormat.json),
    # A plan and how applying it ended: not a report of findings.
    "fix": (OutputFormat.text, OutputFormat.json),
}

MATRIX_OPTION: Any = typer.Option(
    None,
    "--matrix",
    metavar="FILE",
    help="Use this compatibility matrix (default: $TFDOCTOR_MATRIX, else the bundled one).",
)
JSON_OPTION: Any = typer.Option(False, "--json", help="Print the JSON report.")
STRICT_OPTION: Any = typer.Option(False, "--strict", help="Exit 1 on warnings and unknowns.")
STATIC_OPTION: Any = typer.Option(
    False,
    "--static",
    help="Do not import TensorFlow (build steps, or when importing is the problem).",
)


def timeout_option(default: float, help_text: str) -> Any:
    """``--timeout SECONDS`` with its default and what the time is allowed for."""
    return typer.Option(default, "--timeout", metavar="SECONDS", help=help_text)


IMPORT_TIMEOUT_OPTION: Any = timeout_option(
    DEFAULT_TIMEOUT, "Time allowed for importing TensorFlow."
)
COLOR_OPTION: Any = typer.Option(
    None,
    "--color/--no-color",
    help="Force colour on or off (default: on a terminal, unless NO_COLOR).",
)


def interpreter_option(help_text: str) -> Any:
    """``--python``: an interpreter (a path, or a command on PATH), in every command that takes
    one; the one tfdoctor runs in by default. A Python version is ``--python-version``."""
    return typer.Option(
        sys.executable, "--python", metavar="PATH", help=help_text, show_default="this interpreter"
    )


EXAMINE_OPTION: Any = interpreter_option("Examine this interpreter's environment.")


def format_option(command: str) -> Any:
    """``--format``, ``-f``: the formats :data:`FORMATS` gives ``command``."""
    names = [f.value for f in FORMATS[command]]

    # A check of our own, not an Enum per command or click's Choice: recent typer releases
    # carry their own copy of click, which this module cannot import by name.
    def offered(value: str) -> str:
        if value not in names:
            raise typer.BadParameter(f"{value!r} is not one of {', '.join(names)}")
        return value

    return typer.Option(
        OutputFormat.text.value,
        "--format",
        "-f",
        metavar="[" + "|".join(names) + "]",
        callback=offered,
        help="Output format.",
    )


def facts_option(use: str) -> Any:
    """``--facts FILE``: a saved ``--json`` report instead of probing; ``use`` says what for."""
    return typer.Option(
        None,
        "--facts",
        metavar="FILE",
        help=f"{use} the facts of a saved --json report ('-' reads stdin).",
    )


def chosen_format(value: str, json_out: bool) -> OutputFormat:
    """The format asked for (``--json`` is ``--format json``); exit 3 when the two differ."""
    fmt = OutputFormat(value)
    if json_out and fmt not in (OutputFormat.text, OutputFormat.json):
        raise fail(f"--json and --format {fmt.value} ask for different outputs")
    return OutputFormat.json if json_out else fmt


def require_python(python: str) -> None:
    """One line and exit 3 unless ``--python`` names a Python the doctor can examine (for the
    commands whose service does not ask itself)."""
    from tfdoctor.inputs import require_python as check_interpreter

    with doctor_errors():
        check_interpreter(python)
