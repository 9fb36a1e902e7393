"""Command line: thin typer commands that parse options, call one function, render, exit.

Exit codes (``tfdoctor check``): 0 nothing worse than info (warnings too, unless
``--strict``); 1 warnings with ``--strict``; 2 errors; 3 the doctor could not do its job.
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import os
import shlex
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Optional

import typer

from tfdoctor import __version__
from tfdoctor.defaults import DEFAULT_KERNEL_TIMEOUT, DEFAULT_TIMEOUT
from tfdoctor.findings import ExitCode

if TYPE_CHECKING:
    from tfdoctor.doctor import PinOptions
    from tfdoctor.findings import Report
    from tfdoctor.smoke import Progress, ProgressFunc

# Each command imports what it needs when it runs: `tfdoctor --version`, `pin` and `env`
# do not pay for the checks, and no command pays for another's modules.

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


# Options several commands share, declared once (typer reads a declaration, never changes it).

MATRIX_OPTION: Any = typer.Option(
    None,
    "--matrix",
    metavar="FILE",
    help="Use this compatibility matrix (default: $TFDOCTOR_MATRIX, else the bundled one).",
)
JSON_OPTION: Any = typer.Option(False, "--json", help="Print the JSON report.")
STRICT_OPTION: Any = typer.Option(False, "--strict", help="Exit 1 on warnings and unknowns.")
COLOR_OPTION: Any = typer.Option(
    None,
    "--color/--no-color",
    help="Force colour on or off (default: on a terminal, unless NO_COLOR).",
)


def _interpreter_option(help_text: str, flag: str = "--python") -> Any:
    """An interpreter to examine, by path; the one tfdoctor runs in by default."""
    return typer.Option(
        sys.executable, flag, metavar="PATH", help=help_text, show_default="this interpreter"
    )


def _facts_option(use: str) -> Any:
    """``--facts FILE``: a saved ``--json`` report instead of probing; ``use`` says what for."""
    return typer.Option(
        None,
        "--facts",
        metavar="FILE",
        help=f"{use} the facts of a saved --json report ('-' reads stdin).",
    )


EXAMINE_OPTION: Any = _interpreter_option("Examine this interpreter's environment.")


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


@contextlib.contextmanager
def _doctor_errors() -> Iterator[None]:
    """Bad input found by the core (a DoctorError) becomes one line on stderr and exit 3."""
    from tfdoctor.doctor import DoctorError  # noqa: PLC0415 - every caller loads it anyway

    try:
        yield
    except DoctorError as exc:
        raise _fail(str(exc)) from None


class _OutputError(Exception):
    """Standard output could not be written (a full disk, a closed pipe): exit code 3."""


def _print(text: str, nl: bool = True) -> None:
    """``text`` on standard output; a failed write becomes :class:`_OutputError`.

    Not an OSError, so that typer passes it on instead of turning a closed pipe into exit 1.
    """
    try:
        typer.echo(text, nl=nl)
    except OSError as exc:
        raise _OutputError(exc.strerror or str(exc)) from exc


@app.command()
def check(
    ids: Optional[list[str]] = typer.Argument(  # noqa: B008 - typer's declaration style
        None, metavar="[CHECK_ID]...", help="Run only these checks (see --list)."
    ),
    json_out: bool = JSON_OPTION,
    output_format: OutputFormat = typer.Option(  # noqa: B008
        OutputFormat.text, "--format", "-f", help="Output format."
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Show every fact, not just verdicts."
    ),
    strict: bool = STRICT_OPTION,
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
    python: str = EXAMINE_OPTION,
    facts_file: Optional[str] = _facts_option("Judge"),
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
    from tfdoctor.doctor import CheckOptions, diagnose, list_checks  # noqa: PLC0415 - when used

    if list_only:
        for check_id, title in list_checks():
            _print(f"{check_id:28} {title}")
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
        require_gpu=require_gpu,
        against=against,
        smoke=_smoke_options(python) if smoke else None,
    )
    show_progress = fmt is OutputFormat.text and facts_file is None and _use_color(sys.stderr)
    status = _spinner() if show_progress else None
    with _doctor_errors(), status if status is not None else nullcontext():
        report = diagnose(
            options,
            progress=None if status is None else lambda msg: status.update(f"tfdoctor: {msg}"),
        )
    _print(_render(report, fmt, verbose, strict, color), nl=False)
    raise typer.Exit(report.exit_code(strict))


@app.command("smoke")
def smoke_command(
    quick: bool = typer.Option(False, "--quick", help="A few seconds per device (default)."),
    full: bool = typer.Option(False, "--full", help="Larger sizes, longer measurements."),
    max_memory: str = typer.Option(
        "1GiB",
        "--max-memory",
        metavar="SIZE",
        help="GPU memory the test may take per GPU (512MiB, 2GiB); it grows into it on demand.",
    ),
    timeout: float = typer.Option(
        DEFAULT_KERNEL_TIMEOUT,
        "--timeout",
        metavar="SECONDS",
        help="Time allowed per kernel before the test is killed and the kernel reported.",
    ),
    json_out: bool = JSON_OPTION,
    python: str = _interpreter_option("Run the kernels in this interpreter's TensorFlow."),
    devices: Optional[list[str]] = typer.Option(  # noqa: B008 - typer's declaration style
        None, "--device", metavar="NAME", help="Run only on this device (GPU:0, CPU:0); repeat."
    ),
    strict: bool = STRICT_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Run TensorFlow kernels on every device: placement, correctness, speed against peak."""
    from tfdoctor.doctor import smoke_report  # noqa: PLC0415 - loaded when used
    from tfdoctor.smoke import SmokeOptions, parse_size  # noqa: PLC0415

    if quick and full:
        raise _fail("--quick and --full ask for different levels")
    try:
        cap = parse_size(max_memory)
    except ValueError as exc:
        raise _fail(f"--max-memory: {exc}") from None
    options = SmokeOptions(
        python=python,
        level="full" if full else "quick",
        max_memory=cap,
        kernel_timeout=timeout,
        devices=tuple(devices or ()),
    )
    bars = _progress_bars() if not json_out and _use_color(sys.stderr) else None
    with _doctor_errors(), bars[0] if bars is not None else nullcontext():
        report = smoke_report(options, progress=None if bars is None else bars[1])
    fmt = OutputFormat.json if json_out else OutputFormat.text
    _print(_render(report, fmt, False, strict, color), nl=False)
    raise typer.Exit(report.exit_code(strict))


def _smoke_options(python: str) -> Any:
    """The smoke test's default options (its module loads only when --smoke asks for it)."""
    from tfdoctor.smoke import SmokeOptions  # noqa: PLC0415 - see above

    return SmokeOptions(python=python)


def _progress_bars() -> tuple[Any, ProgressFunc]:
    """A rich progress bar per device on stderr (terminal sessions only), and its callback."""
    from rich.console import Console  # noqa: PLC0415 - only a terminal session pays for rich
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn  # noqa: PLC0415
    from rich.progress import Progress as Bars  # noqa: PLC0415

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
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Which TensorFlow releases work with a Python, platform, CUDA, driver and GPU.

    Exits 0, or 2 when a query matches no release, or 3 on bad input.
    """
    from tfdoctor.doctor import query_matrix  # noqa: PLC0415 - loaded when used

    with _doctor_errors():
        table, target, verdicts, asked = query_matrix(
            matrix, python=python, platform=platform, cuda=cuda, driver=driver, gpu=gpu
        )
    if json_out:
        from tfdoctor.render.matrixout import render_matrix_json  # noqa: PLC0415 - lazy

        _print(render_matrix_json(table, verdicts, target), nl=False)
    else:
        from tfdoctor.render.matrixout import render_matrix_text  # noqa: PLC0415 - lazy

        use_color = _use_color(sys.stdout) if color is None else color
        text = render_matrix_text(
            table, verdicts, target, asked=asked, color=use_color, width=_terminal_width()
        )
        _print(text, nl=False)
    fits = any(v.fits for v in verdicts)
    raise typer.Exit(ExitCode.OK if fits or not asked else ExitCode.ERRORS)


class Shell(str, enum.Enum):
    """Shells ``tfdoctor env`` writes for."""

    sh = "sh"
    fish = "fish"
    powershell = "powershell"


@app.command("env")
def env_command(
    shell: Optional[Shell] = typer.Option(  # noqa: B008 - typer's declaration style
        None, "--shell", help="Shell syntax: sh (bash, zsh, dash; the default), fish, powershell."
    ),
    dockerfile: bool = typer.Option(False, "--dockerfile", help="Print Dockerfile ENV lines."),
    dotenv: bool = typer.Option(False, "--dotenv", help="Print a dotenv file (NAME=value)."),
    async_allocator: bool = typer.Option(
        False,
        "--async-allocator",
        help="Also use CUDA's async allocator (TF_GPU_ALLOCATOR=cuda_malloc_async).",
    ),
    log_level: Optional[int] = typer.Option(
        None,
        "--log-level",
        metavar="N",
        help="Also set TF_CPP_MIN_LOG_LEVEL: 0 all, 1 no INFO, 2 no WARNING, 3 no ERROR.",
    ),
    python: str = EXAMINE_OPTION,
    facts_file: Optional[str] = _facts_option("Use"),
) -> None:
    """Environment variables TensorFlow should start with here: eval "$(tfdoctor env)".

    Memory growth always; the async allocator and log level when asked; XLA's libdevice
    directory and the pip CUDA libraries' LD_LIBRARY_PATH when TensorFlow would miss them.
    """
    from tfdoctor.doctor import environment_for  # noqa: PLC0415 - loaded when used

    if dockerfile and dotenv:
        raise _fail("--dockerfile and --dotenv ask for different outputs")
    if shell is not None and (dockerfile or dotenv):
        raise _fail("--shell and --dockerfile/--dotenv ask for different outputs")
    fmt = "dockerfile" if dockerfile else "dotenv" if dotenv else (shell or Shell.sh).value
    with _doctor_errors():
        settings = environment_for(
            python, facts_file, async_allocator=async_allocator, log_level=log_level
        )
    from tfdoctor.render.envfile import EnvFormatError, render_env  # noqa: PLC0415 - lazily

    try:
        text = render_env(settings, fmt, __version__)
    except EnvFormatError as exc:
        raise _fail(str(exc)) from None
    _print(text, nl=False)
    raise typer.Exit(ExitCode.OK)


@app.command("pin")
def pin_command(
    output: Optional[str] = typer.Option(
        None, "--output", "-o", metavar="FILE", help="Write FILE (atomically), not stdout."
    ),
    all_packages: bool = typer.Option(
        False, "--all", help="Pin every installed distribution, not only TensorFlow's."
    ),
    python: Optional[str] = typer.Option(
        None, "--python", metavar="X.Y", help="Pin for this Python version (target mode)."
    ),
    platform: Optional[str] = typer.Option(
        None, "--platform", metavar="OS", help="Target platform: linux, windows, macos ..."
    ),
    cuda: Optional[str] = typer.Option(
        None, "--cuda", metavar="X.Y", help="Target: an installed CUDA toolkit version."
    ),
    driver: Optional[str] = typer.Option(
        None, "--driver", metavar="VERSION", help="Target NVIDIA driver version."
    ),
    gpu: Optional[str] = typer.Option(
        None, "--gpu", metavar="CC|NAME", help="Target GPU: compute capability or model name."
    ),
    hashes: bool = typer.Option(
        False, "--hashes", help="Add sha256 hashes from PyPI (the only network use)."
    ),
    interpreter: str = _interpreter_option("Pin this interpreter's environment.", "--interpreter"),
    facts_file: Optional[str] = _facts_option("Pin from"),
    matrix: Optional[str] = MATRIX_OPTION,
) -> None:
    """Pinned requirements reproducing this TensorFlow setup, or the newest fitting a target.

    Exits 0; 2 when nothing can be pinned; 3 on bad input or an unwritable FILE (left as is).
    """
    from tfdoctor.doctor import PinOptions, make_pins  # noqa: PLC0415 - loaded when used
    from tfdoctor.pin import PinError  # noqa: PLC0415
    from tfdoctor.pin.atomic import write_atomic  # noqa: PLC0415

    options = PinOptions(
        interpreter=interpreter,
        all_packages=all_packages,
        python=python,
        platform=platform,
        cuda=cuda,
        driver=driver,
        gpu=gpu,
        hashes=hashes,
        facts_file=facts_file,
        matrix=matrix,
    )
    try:
        with _doctor_errors():
            pinset = make_pins(options)
    except PinError as exc:
        typer.echo(f"tfdoctor: {exc}", err=True)
        for reason in exc.reasons:
            typer.echo(f"  {reason}", err=True)
        raise typer.Exit(ExitCode.ERRORS) from None
    from tfdoctor.render.requirements import render_requirements  # noqa: PLC0415 - lazy

    text = render_requirements(
        pinset,
        version=__version__,
        date=datetime.date.today().isoformat(),
        command=_pin_command_line(options, output),
    )
    for warning in pinset.warnings:
        typer.echo(f"tfdoctor: warning: {warning}", err=True)
    if output is None:
        _print(text, nl=False)
        raise typer.Exit(ExitCode.OK)
    try:
        write_atomic(output, text)
    except (OSError, ValueError) as exc:
        raise _fail(f"cannot write {output}: {exc}") from None
    raise typer.Exit(ExitCode.OK)


def _pin_command_line(options: PinOptions, output: Optional[str]) -> str:
    """The ``tfdoctor pin`` command that reproduces this output, for the file's header."""
    from tfdoctor.render.requirements import display_path  # noqa: PLC0415 - lazy

    def path(value: Optional[str]) -> Optional[str]:
        # The file is committed: this machine's absolute paths say nothing elsewhere.
        if value is None or value == "-":
            return value
        return display_path(value)

    words = ["tfdoctor", "pin"]
    flags = (("--all", options.all_packages), ("--hashes", options.hashes))
    words.extend(flag for flag, on in flags if on)
    valued = (
        ("--python", options.python),
        ("--platform", options.platform),
        ("--cuda", options.cuda),
        ("--driver", options.driver),
        ("--gpu", options.gpu),
        ("--facts", path(options.facts_file)),
        ("--matrix", path(options.matrix)),
        (
            "--interpreter",
            None if options.interpreter == sys.executable else path(options.interpreter),
        ),
        ("-o", path(output)),
    )
    words.extend(f"{flag} {_shell_word(value)}" for flag, value in valued if value is not None)
    return " ".join(words)


def _shell_word(value: str) -> str:
    """``value`` quoted for a shell, leaving a leading ``~/`` unquoted so that it expands."""
    if value.startswith("~/"):
        return "~/" + shlex.quote(value[2:])
    return shlex.quote(value)


def _version_callback(value: bool) -> None:
    if value:
        _print(f"tfdoctor {__version__}")
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
    except (_OutputError, OSError) as exc:
        # OSError: a write outside the commands' own output (click's help text).
        _abandon_stdout()
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        _last_words(f"tfdoctor: error: cannot write output: {reason}")
        return int(ExitCode.DOCTOR_FAILED)
    except KeyboardInterrupt:
        _last_words("tfdoctor: interrupted")
        return 130
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
    if code == 130:
        # typer turns Ctrl-C inside a command into exit 130, silently; no command exits 130.
        _last_words("tfdoctor: interrupted")
    if isinstance(code, int):
        return code
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


def _last_words(line: str) -> None:
    """One line on stderr, if stderr can still be written."""
    with contextlib.suppress(OSError):
        typer.echo(line, err=True)


if __name__ == "__main__":
    sys.exit(main())
