"""``tfdoctor explain``: explain a TensorFlow log: causes, fixes, harmless noise."""

from __future__ import annotations

from contextlib import nullcontext
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
    require_python,
)
from tfdoctor.cli.output import doctor_errors, emit, fail, last_words


def explain_command(
    log: str = typer.Argument("-", metavar="[FILE|-]", help="The log to read (default: stdin)."),
    facts_file: Optional[str] = facts_option("Combine the log with"),
    here: bool = typer.Option(
        False,
        "--here",
        help="Combine the log with this machine's static facts (TensorFlow is not imported).",
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = format_option("explain"),
    python: str = interpreter_option("With --here: examine this interpreter's environment."),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Explain a TensorFlow log: the causes its lines show, the fixes, and what is harmless.

    Reads a file or stdin (plain text, ANSI colours, CRLF, progress bars, Jupyter notebooks).
    Exits 0 when only harmless noise or nothing is recognised, 2 when a cause of error level
    is found, 3 on bad input.
    """
    from tfdoctor.bounded import InputError, stdin_bytes, stdin_is_terminal
    from tfdoctor.doctor import collect_facts
    from tfdoctor.explain import explain
    from tfdoctor.explain.reader import read_log
    from tfdoctor.inputs import load_facts, open_matrix
    from tfdoctor.signatures import SignatureError, load_signatures

    if facts_file is not None and here:
        raise fail("--facts and --here both say which machine the log comes from")
    if facts_file == "-" and log == "-":
        raise fail("the log and --facts cannot both be read from stdin")
    fmt = chosen_format(output_format, json_out)
    if here:
        require_python(python)
    with doctor_errors():
        table = open_matrix(matrix)
        facts = load_facts(facts_file) if facts_file is not None else None
        if here:
            facts = collect_facts(python, static=True)
    if log == "-" and stdin_is_terminal():
        # `tfdoctor explain` typed alone waits for a paste: say so, or it looks hung.
        last_words(
            "tfdoctor explain: reading the log from the terminal: paste it, then press Ctrl-D "
            "(Ctrl-Z and Enter on Windows)"
        )
    try:
        signatures = load_signatures()
        # A binary stream either way: stdin's buffer, or the file opened for reading bytes.
        source = nullcontext(stdin_bytes()) if log == "-" else open(log, "rb")  # noqa: PTH123, SIM115
        with source as stream:
            report = explain(read_log(stream, log), signatures, table, facts, __version__)
    except (SignatureError, InputError) as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot read {'stdin' if log == '-' else log}: {exc.strerror or exc}") from None
    emit(report, fmt, False, False, color, command="explain")
    raise typer.Exit(report.exit_code())


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("explain", short_help="Explain a TensorFlow log: causes, fixes, harmless noise.")(
        explain_command
    )
