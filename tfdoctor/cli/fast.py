"""The ``tfdoctor`` executable's entry point: what must start at once, then the CLI.

Typer, click and the CLI's declarations cost about 0.1 s, several times Python's own start;
the rest of a probing command loads about 0.3 s more. So, before any of that:

- ``tfdoctor --version`` prints its line.
- ``tfdoctor run [OPTIONS] COMMAND...`` starts the watched command as soon as this module has
  read the options, so the wrapper adds Python's start-up and nothing more to its wall time.
  The explanation, when the run earns one, loads the rest afterwards.
- ``tfdoctor check`` and ``tfdoctor pin`` on this interpreter start their probes' children
  (:mod:`tfdoctor.probes.early`), which then run while the rest loads.
- ``--help`` after command names prints the text an earlier run kept (:func:`_help`), when
  nothing it depends on has changed.

Anything else, and any ``run`` invocation these few lines do not fully understand (``--help``,
an unknown or malformed option), goes to :func:`tfdoctor.cli.app.main` unchanged, which parses and
reports exactly as it always does. ``RUN_OPTIONS`` mirrors the ``run`` command's declared
options; a test holds the two equal.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

from tfdoctor import __version__

if TYPE_CHECKING:
    from pathlib import Path

#: ``run``'s options: flag -> (destination, takes a value, the value a bare flag stores).
RUN_OPTIONS: dict[str, tuple[str, bool, object]] = {
    "--explain-on-success": ("explain_on_success", False, True),
    "--report": ("report_file", True, None),
    "--bundle": ("bundle_file", True, None),
    "--matrix": ("matrix", True, None),
    "--color": ("color", False, True),
    "--no-color": ("color", False, False),
}


class RunRequest:
    """A fully understood ``tfdoctor run`` invocation.

    A plain class: :mod:`dataclasses` would cost this path more than the rest of it.
    """

    __slots__ = ("bundle_file", "color", "command", "explain_on_success", "matrix", "report_file")

    def __init__(
        self,
        command: tuple[str, ...],
        explain_on_success: bool = False,
        report_file: Optional[str] = None,
        matrix: Optional[str] = None,
        color: Optional[bool] = None,
        bundle_file: Optional[str] = None,
    ) -> None:
        self.bundle_file = bundle_file
        self.command = command
        self.explain_on_success = explain_on_success
        self.report_file = report_file
        self.matrix = matrix
        self.color = color

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"RunRequest({fields})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunRequest):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value


def parse_run(args: Sequence[str]) -> Optional[RunRequest]:
    """The ``run`` request in ``args`` (what follows ``run``); None for anything unusual.

    None hands the invocation to the full command line, which explains what is wrong with it.
    Options end at ``--`` or at the first word that is not an option, as for the command
    (``allow_interspersed_args`` is off there too).
    """
    values: dict[str, object] = {}
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-") or word == "-":
            break
        flag, eq, inline = word.partition("=")
        known = RUN_OPTIONS.get(flag)
        if known is None:
            return None  # --help, a typo, a short flag: the CLI's parser answers
        dest, takes_value, stored = known
        if takes_value:
            if eq:
                value: object = inline
            elif i + 1 < len(args):
                i += 1
                value = args[i]
            else:
                return None
            if value == "":
                return None
        elif eq:
            return None
        else:
            value = stored
        values[dest] = value
        i += 1
    command = tuple(args[i:])
    if not command:
        return None
    return RunRequest(command, **values)  # type: ignore[arg-type]  # keys from RUN_OPTIONS


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``tfdoctor`` executable and of ``python -m tfdoctor``.

    Called as the program (``argv`` None), it ends the process itself once the command has
    answered: see :func:`_exit_now`. Called with ``argv`` (tests, embedding), it returns.
    """
    code = _dispatch(list(sys.argv[1:] if argv is None else argv))
    # A profiler or coverage tool (sys.setprofile / settrace) writes its results at exit.
    if argv is None and sys.getprofile() is None and sys.gettrace() is None:
        _exit_now(code)
    return code


def _exit_now(code: int) -> None:
    """Run the exit handlers, flush the output and end the process, skipping the
    interpreter's teardown of every loaded module: about 60 ms after a probing command
    (benchmarks/bench_check.py), spent on nothing the user sees. Nothing here depends on it:
    files are closed where they are written, and children are reaped or killed by the exit
    handlers (:func:`tfdoctor.probes._run.start_early`)."""
    import atexit  # the last thing this process does

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            # Output that cannot be written (a closed pipe): Python's own exit would fail
            # the same way; the command has said what it could.
            code = code or 3
    os._exit(code)


def _dispatch(args: list[str]) -> int:
    if args == ["--version"]:
        return _print_version()
    if args[:1] == ["run"]:
        request = parse_run(args[1:])
        if request is not None:
            return _run(request)
    if _asks_for_help(args):
        return _help(args)
    if probes_this_interpreter(args):
        from tfdoctor.probes.early import start_machine_probes  # see above

        start_machine_probes(sys.executable)
    from tfdoctor.cli.app import main as cli_main  # the point of this module

    return cli_main(args)


#: Commands that probe the machine, with the options that make them probe another
#: interpreter or none; without those, their probes' children can start before the CLI loads.
PROBING_COMMANDS = {
    "check": ("--python", "--facts", "--list", "--help"),
    "pin": ("--python", "--facts", "--help"),
}


def probes_this_interpreter(args: Sequence[str]) -> bool:
    """Whether ``args`` will probe the machine for this interpreter (a guess that may only
    err towards starting a child nobody takes, which is killed at exit)."""
    elsewhere = PROBING_COMMANDS.get(args[0]) if args else None
    if elsewhere is None:
        return False
    return not any(arg.partition("=")[0] in elsewhere for arg in args[1:])


def _asks_for_help(args: Sequence[str]) -> bool:
    """``--help`` after nothing but command names (``check --help``): help whose text depends
    only on the code and the terminal, which :func:`_help` can keep."""
    return (
        0 < len(args) <= 3
        and args[-1] == "--help"
        and all(word.isalnum() for word in args[:-1])
        and sys.stdout is not None
    )


def _help_key(args: Sequence[str]) -> Optional[list[bytes]]:
    """What the help text of ``args`` depends on: the command line's code (every module of
    this package, the defaults it shows, the version), typer's and click's (a click upgrade
    alone can change the text), the terminal width click formats for, the message locale,
    the words asked; None when typer cannot be found as a plain file on ``sys.path`` (then
    nothing is cached)."""
    import shutil  # this path only
    from pathlib import Path

    here = Path(__file__).resolve().parent
    typer_init = _library_file("typer")
    if typer_init is None:
        return None
    # Recent typer releases carry their own click, which their own file covers.
    click_init = _library_file("click")
    try:
        # Sorted, and named: a module added or removed changes the key as surely as one edited.
        files = [
            *sorted(here.glob("*.py")),
            here.parent / "defaults.py",
            here.parent / "__init__.py",
            typer_init,
            *([click_init] if click_init is not None else []),
        ]
        code = [path.name.encode() + b"\0" + path.read_bytes() for path in files]
    except OSError:
        return None
    width = shutil.get_terminal_size().columns
    locale = [os.environ.get(name, "") for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")]
    return [*code, str(width).encode(), "\0".join(locale).encode(), "\0".join(args).encode()]


def _library_file(name: str) -> Optional[Path]:
    """The ``__init__.py`` of package ``name`` as a plain file on ``sys.path``; None if none."""
    from pathlib import Path

    return next(
        (
            Path(entry or ".") / name / "__init__.py"
            for entry in sys.path
            if (Path(entry or ".") / name / "__init__.py").is_file()
        ),
        None,
    )


def _help(args: Sequence[str]) -> int:
    """The help of ``args``: kept from an earlier run when nothing it depends on changed
    (:func:`_help_key`); else made by the command line, shown, and kept."""
    from tfdoctor.cache import entry_path, read_entry, write_entry

    key = _help_key(args)
    entry = entry_path("help", key, ".txt") if key is not None else None
    kept = read_entry(entry) if entry is not None else None
    if kept is not None:
        try:
            sys.stdout.write(kept.decode("utf-8"))
            sys.stdout.flush()
            return 0
        except (OSError, UnicodeDecodeError, ValueError):
            pass  # the command line says what went wrong, as it would have
    import io

    from tfdoctor.cli.app import main as cli_main  # made once, then kept

    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = cli_main(list(args))
    text = captured.getvalue()
    if code == 0 and text and entry is not None:
        write_entry(entry, text.encode("utf-8"))
    return _print_text(text, code)


def _print_text(text: str, code: int) -> int:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.write(f"tfdoctor: error: cannot write output: {reason}\n")
        return 3
    return code


def _print_error(message: str) -> int:
    """One line on stderr; exit code 3."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(f"tfdoctor: error: {message}\n")
    return 3


def _print_version() -> int:
    try:
        sys.stdout.write(f"tfdoctor {__version__}\n")
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):  # closed or missing stdout: as the CLI does
        from tfdoctor.cli.app import main as cli_main  # the error path

        return cli_main(["--version"])
    return 0


def _run(request: RunRequest) -> int:
    """Watch the command; load the explanation machinery only when the run earns it."""
    if request.bundle_file is not None:
        from tfdoctor.bundle import BundleError, check_output  # --bundle only

        try:
            check_output(request.bundle_file)
        except BundleError as exc:  # before the command runs, as the full parser would
            return _print_error(str(exc))
    from tfdoctor.runwatch import should_explain, watch  # after parsing

    watched = watch(request.command)
    if (
        watched.start_error is None
        and not should_explain(watched, request.explain_on_success)
        and request.report_file is None
        and request.bundle_file is None
    ):
        return watched.exit_code
    from tfdoctor.cli.run import finish_run  # the command has ended

    return finish_run(
        watched,
        request.explain_on_success,
        request.report_file,
        request.matrix,
        request.color,
        request.bundle_file,
    )
