"""The ``tfdoctor`` command line: the typer application, its commands, and :func:`main`,
which turns every way a command can end into its exit code.

Exit codes (``tfdoctor check``): 0 nothing worse than info (warnings too, unless
``--strict``); 1 warnings with ``--strict``; 2 errors; 3 the doctor could not do its job.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from typing import Optional

import typer

from tfdoctor import __version__
from tfdoctor.cli import (
    bundle,
    check,
    cluster,
    diff,
    env,
    explain,
    fix,
    fleet,
    matrix,
    pin,
    run,
    scan,
    smoke,
    upgrade,
)
from tfdoctor.cli.output import OutputError, last_words, print_out
from tfdoctor.defaults import ExitCode

app = typer.Typer(
    name="tfdoctor",
    help="Diagnose a TensorFlow environment: what is wrong, and exactly how to fix it.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain click help: rich's help formatting loads about 0.1 s of modules, more than the
    # rest of `tfdoctor --help` together (a start-cost target in benchmarks/bench_start.py).
    rich_markup_mode=None,
    context_settings={"max_content_width": 100},
)

#: Every command's module, in the order ``tfdoctor --help`` lists them (groups, such as
#: ``cluster``, after the commands): each has ``register(app)``. A new command is a new
#: module and its name here.
COMMANDS = (
    check,
    fix,
    smoke,
    matrix,
    env,
    pin,
    run,
    explain,
    scan,
    upgrade,
    bundle,
    cluster,
    diff,
    fleet,
)

for _command in COMMANDS:
    _command.register(app)


def _version_callback(value: bool) -> None:
    if value:
        print_out(f"tfdoctor {__version__}")
        raise typer.Exit(ExitCode.OK)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version."
    ),
) -> None:
    """tfdoctor: an environment doctor for TensorFlow."""


class _ClosedStdout(io.TextIOBase):
    """Standard output of a process started with it closed: each write fails as a write to
    a closed descriptor does, so that click's own output (--help) cannot vanish in silence."""

    def writable(self) -> bool:
        """Writes are attempted, and fail."""
        return True

    def write(self, text: str) -> int:
        """Fail: there is no standard output."""
        raise OSError(errno.EBADF, "standard output is closed")


def main(argv: Optional[list[str]] = None) -> int:
    """Entry point: run the app; usage errors exit 3 with one line, never a traceback."""
    if sys.stdout is None:
        # Started with standard output closed (`>&-`), Python sets sys.stdout to None and
        # click's echo drops the help text without a word, exit 0
        # (https://docs.python.org/3/library/sys.html#sys.__stdout__).
        sys.stdout = _ClosedStdout()
    try:
        code = app(args=argv, prog_name="tfdoctor", standalone_mode=False)
    except (OutputError, OSError) as exc:
        # OSError: a write outside the commands' own output (click's help text).
        _abandon_stdout()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        last_words(f"tfdoctor: error: cannot write output: {reason}")
        return int(ExitCode.DOCTOR_FAILED)
    except KeyboardInterrupt:
        last_words("tfdoctor: interrupted")
        return 130
    except Exception as exc:
        # Bare `tfdoctor` asks for its help: that is an answer, not an error. The exception
        # carries the text (plain click prints nothing itself). Matched by name: click before
        # 8.2 has no such class (it prints the help and exits 0 there by itself).
        if type(exc).__name__ == "NoArgsIsHelpError":
            return _show_help(str(getattr(exc, "format_message", str)()))
        # Click's usage errors (bad option, bad value) carry `format_message`; they are bad
        # input, so exit 3 with one line instead of click's exit 2, which means "errors" here.
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            typer.echo(f"tfdoctor: error: {exc.format_message()}", err=True)
            return int(ExitCode.DOCTOR_FAILED)
        raise
    if code == 130:
        # typer turns Ctrl-C inside a command into exit 130, silently; no command exits 130.
        last_words("tfdoctor: interrupted")
    if isinstance(code, int):
        return code
    return int(ExitCode.OK)


def _show_help(text: str) -> int:
    try:
        print_out(text)
    except OutputError as exc:
        _abandon_stdout()
        last_words(f"tfdoctor: error: cannot write output: {exc}")
        return int(ExitCode.DOCTOR_FAILED)
    return int(ExitCode.OK)


def _abandon_stdout() -> None:
    """Point standard output at the null device: the unwritten rest must not fail at exit.

    Python flushes ``sys.stdout`` at shutdown, and a failing flush there prints a second
    error and exits 120 (https://docs.python.org/3/library/signal.html#note-on-sigpipe).
    """
    # No file descriptor behind sys.stdout (a test harness): nothing to flush at exit.
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
