"""What the commands print: reports rendered in the format asked for, colour, width, the job
summary, and the one-line errors that end a command with exit code 3."""

from __future__ import annotations

import contextlib
import datetime
import enum
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Optional

import typer

from tfdoctor import __version__
from tfdoctor.defaults import ExitCode

if TYPE_CHECKING:
    from tfdoctor.findings import Report
    from tfdoctor.smoke import Progress, ProgressFunc


class OutputFormat(str, enum.Enum):
    """Every output format; which command offers which is :data:`tfdoctor.cli.options.FORMATS`."""

    text = "text"
    json = "json"
    markdown = "markdown"
    junit = "junit"
    github = "github"
    sarif = "sarif"
    html = "html"


class OutputError(Exception):
    """Standard output could not be written (a full disk, a closed pipe): exit code 3."""


def fail(message: str) -> typer.Exit:
    """One line on stderr; the exit (code 3) for the command to raise."""
    typer.echo(f"tfdoctor: error: {message}", err=True)
    return typer.Exit(ExitCode.DOCTOR_FAILED)


@contextlib.contextmanager
def doctor_errors() -> Iterator[None]:
    """Bad input found by a service (a DoctorError) becomes one line on stderr and exit 3."""
    from tfdoctor.inputs import DoctorError

    try:
        yield
    except DoctorError as exc:
        raise fail(str(exc)) from None


def print_out(text: str, nl: bool = True) -> None:
    """``text`` on standard output; a failed write becomes :class:`OutputError`.

    Not an OSError, so that typer passes it on instead of turning a closed pipe into exit 1.
    """
    # Started with standard output closed (`>&-`), Python sets sys.stdout to None and click's
    # echo then drops the text without a word (https://docs.python.org/3/library/sys.html#sys.__stdout__).
    if sys.stdout is None:
        raise OutputError("standard output is closed")
    try:
        try:
            typer.echo(text, nl=nl)
        except UnicodeEncodeError:
            # An output encoding that cannot hold every character (Windows' ANSI code page
            # where output is redirected, PYTHONIOENCODING=cp1252) and a log in another
            # script: those characters become escapes, as Python's own stderr writes them.
            # The stream encodes the whole text before writing any of it.
            encoding = getattr(sys.stdout, "encoding", None) or "ascii"
            typer.echo(text.encode(encoding, "backslashreplace").decode(encoding), nl=nl)
    except OSError as exc:
        raise OutputError(exc.strerror or str(exc)) from exc


def last_words(line: str) -> None:
    """One line on stderr, if stderr can still be written."""
    with contextlib.suppress(OSError):
        typer.echo(line, err=True)


def use_color(stream: Any) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def terminal_width() -> int:
    """Standard output's width, within 60-140 columns; 100 when it is not a terminal."""
    try:
        return max(60, min(os.get_terminal_size(sys.stdout.fileno()).columns, 140))
    except (OSError, ValueError, AttributeError):  # AttributeError: stdout closed (None)
        return 100


def now() -> str:
    """The time a report is made, as its ``collected_at`` says it."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def spinner() -> Any:
    """A rich status line on stderr, shown while probes run (terminal sessions only)."""
    from rich.console import Console  # only a terminal session pays for rich

    return Console(stderr=True).status("tfdoctor: probing")


def progress_bars() -> tuple[Any, ProgressFunc]:
    """A rich progress bar per device on stderr (terminal sessions only), and its callback."""
    from rich.console import Console  # only a terminal session pays for rich
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
    from rich.progress import Progress as Bars

    bars = Bars(
        TextColumn("{task.fields[device]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def update(step: Progress) -> None:
        if step.device not in tasks:
            tasks[step.device] = bars.add_task(step.current, total=step.total, device=step.device)
        bars.update(tasks[step.device], completed=step.done, description=step.current)

    return bars, update


def emit(
    report: Report,
    fmt: OutputFormat,
    verbose: bool,
    strict: bool,
    color: Optional[bool],
    command: str = "check",
) -> None:
    """The report on standard output; in GitHub's format, in the job summary too."""
    print_out(render(report, fmt, verbose, strict, color, command), nl=False)
    if fmt is OutputFormat.github:
        _append_step_summary(report, strict)


def emit_report(report: Report, fmt: OutputFormat, color: Optional[bool], command: str) -> int:
    """Emit a report of a command without ``--strict`` or ``--verbose``; its exit code."""
    emit(report, fmt, False, False, color, command)
    return report.exit_code()


def render(
    report: Report,
    fmt: OutputFormat,
    verbose: bool,
    strict: bool,
    color: Optional[bool],
    command: str = "check",
) -> str:
    """The report in ``fmt``."""
    # Each renderer is imported when used: the text one pulls in rich, which --json never needs.
    if fmt is OutputFormat.json:
        from tfdoctor.render.jsonout import render_json

        return render_json(report, __version__, strict)
    if fmt is OutputFormat.junit:
        from tfdoctor.render.junit import render_junit

        return render_junit(report, __version__, command=command, strict=strict)
    if fmt is OutputFormat.github:
        from tfdoctor.render.github import render_github

        return render_github(report, __version__, command=command, strict=strict)
    if fmt is OutputFormat.markdown:
        from tfdoctor.render.markdown import render_markdown

        return render_markdown(report, __version__, strict=strict, verbose=verbose)
    if fmt is OutputFormat.html:
        from tfdoctor.render.html import render_html

        return render_html(report, __version__, command=command, strict=strict)
    if fmt is OutputFormat.sarif:
        from tfdoctor.render.sarif import render_sarif

        return render_sarif(report, __version__)
    from tfdoctor.render.text import render_text

    colored = use_color(sys.stdout) if color is None else color
    return render_text(
        report, verbose=verbose, color=colored, width=terminal_width(), strict=strict
    )


def _append_step_summary(report: Report, strict: bool) -> None:
    """The markdown report appended to ``$GITHUB_STEP_SUMMARY`` (GitHub Actions' job summary),
    within the room the step has left; one line on stderr when the file cannot be written."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    from tfdoctor.render.github import STEP_SUMMARY_LIMIT, fit_step_summary
    from tfdoctor.render.markdown import render_markdown

    try:
        used = os.path.getsize(path) if os.path.exists(path) else 0  # noqa: PTH202, PTH110 - one stat
        text = fit_step_summary(
            render_markdown(report, __version__, strict=strict), STEP_SUMMARY_LIMIT - used
        )
        if text:
            with open(path, "a", encoding="utf-8") as summary:  # noqa: PTH123 - appending
                summary.write(text)
    except OSError as exc:
        last_words(f"tfdoctor: warning: cannot write $GITHUB_STEP_SUMMARY: {exc}")
