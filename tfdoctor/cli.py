"""Command line: thin typer commands that parse options, call one function, render, exit.

Exit codes (``tfdoctor check``): 0 nothing worse than info (warnings too, unless
``--strict``); 1 warnings with ``--strict``; 2 errors; 3 the doctor could not do its job.
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import errno
import io
import os
import shlex
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import typer

from tfdoctor import __version__
from tfdoctor.defaults import DEFAULT_KERNEL_TIMEOUT, DEFAULT_TIMEOUT, ExitCode

if TYPE_CHECKING:
    from tfdoctor.doctor import PinOptions
    from tfdoctor.findings import Report
    from tfdoctor.matrix import Matrix
    from tfdoctor.runwatch import Watched
    from tfdoctor.smoke import Progress, ProgressFunc

# Each command imports what it needs when it runs: `tfdoctor --version`, `pin` and `env`
# do not pay for the checks, and no command pays for another's modules.

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


class OutputFormat(str, enum.Enum):
    """Every output format; which command offers which is :data:`FORMATS`."""

    text = "text"
    json = "json"
    markdown = "markdown"
    junit = "junit"
    github = "github"
    sarif = "sarif"


_REPORT_FORMATS = (
    OutputFormat.text,
    OutputFormat.json,
    OutputFormat.markdown,
    OutputFormat.junit,
    OutputFormat.github,
)

#: The formats each command offers (``--format``), in one place, by the same names. Every
#: report renders as text, JSON and markdown, and for CI as JUnit XML and GitHub workflow
#: commands; SARIF (code scanning) needs findings with a file and a line: scan's. matrix
#: prints a table of release lines, as text or JSON lines. ``--json`` is ``--format json``.
FORMATS: dict[str, tuple[OutputFormat, ...]] = {
    "check": _REPORT_FORMATS,
    "smoke": _REPORT_FORMATS,
    "explain": _REPORT_FORMATS,
    "scan": (*_REPORT_FORMATS, OutputFormat.sarif),
    "cluster": _REPORT_FORMATS,
    "diff": _REPORT_FORMATS,
    "fleet": _REPORT_FORMATS,
    "matrix": (OutputFormat.text, OutputFormat.json),
}


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


def _interpreter_option(help_text: str) -> Any:
    """``--python``: an interpreter (a path, or a command on PATH), in every command that takes
    one; the one tfdoctor runs in by default. A Python version is ``--python-version``."""
    return typer.Option(
        sys.executable, "--python", metavar="PATH", help=help_text, show_default="this interpreter"
    )


def _require_python(python: str) -> None:
    """One line and exit 3 unless ``--python`` names a Python the doctor can examine (for the
    commands whose core function does not ask itself)."""
    from tfdoctor.doctor import require_python  # noqa: PLC0415 - loaded when used

    with _doctor_errors():
        require_python(python)


def _format_option(command: str) -> Any:
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


def _output_format(output_format: str, json_out: bool) -> OutputFormat:
    """The format asked for (``--json`` is ``--format json``); exit 3 when the two differ."""
    fmt = OutputFormat(output_format)
    if json_out and fmt not in (OutputFormat.text, OutputFormat.json):
        raise _fail(f"--json and --format {fmt.value} ask for different outputs")
    return OutputFormat.json if json_out else fmt


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
    except (OSError, ValueError, AttributeError):  # AttributeError: stdout closed (None)
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
    # Started with standard output closed (`>&-`), Python sets sys.stdout to None and click's
    # echo then drops the text without a word (https://docs.python.org/3/library/sys.html#sys.__stdout__).
    if sys.stdout is None:
        raise _OutputError("standard output is closed")
    try:
        typer.echo(text, nl=nl)
    except OSError as exc:
        raise _OutputError(exc.strerror or str(exc)) from exc


@app.command(short_help="Probe this environment, judge it, and say how to fix it.")
def check(
    ids: Optional[list[str]] = typer.Argument(  # noqa: B008 - typer's declaration style
        None, metavar="[CHECK_ID]...", help="Run only these checks (see --list)."
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = _format_option("check"),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Show every fact and the whole evidence, not just verdicts."
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
    fmt = _output_format(output_format, json_out)
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
    _emit(report, fmt, verbose, strict, color, command="check")
    raise typer.Exit(report.exit_code(strict))


@app.command("smoke", short_help="Run kernels on every device; check results and speed.")
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
    output_format: str = _format_option("smoke"),
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
    fmt = _output_format(output_format, json_out)
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
    bars = _progress_bars() if fmt is OutputFormat.text and _use_color(sys.stderr) else None
    with _doctor_errors(), bars[0] if bars is not None else nullcontext():
        report = smoke_report(options, progress=None if bars is None else bars[1])
    _emit(report, fmt, False, strict, color, command="smoke")
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


def _emit(
    report: Report,
    fmt: OutputFormat,
    verbose: bool,
    strict: bool,
    color: Optional[bool],
    command: str = "check",
) -> None:
    """The report on standard output; in GitHub's format, in the job summary too."""
    _print(_render(report, fmt, verbose, strict, color, command), nl=False)
    if fmt is OutputFormat.github:
        _append_step_summary(report, strict)


def _emit_report(
    report: Report, output_format: str, json_out: bool, color: Optional[bool], command: str
) -> int:
    """Emit a report of a command without ``--strict`` or ``--verbose``; its exit code."""
    _emit(report, _output_format(output_format, json_out), False, False, color, command)
    return report.exit_code()


def _render(
    report: Report,
    fmt: OutputFormat,
    verbose: bool,
    strict: bool,
    color: Optional[bool],
    command: str = "check",
) -> str:
    # Each renderer is imported when used: the text one pulls in rich, which --json never needs.
    if fmt is OutputFormat.json:
        from tfdoctor.render.jsonout import render_json  # noqa: PLC0415 - see above

        return render_json(report, __version__, strict)
    if fmt is OutputFormat.junit:
        from tfdoctor.render.junit import render_junit  # noqa: PLC0415 - see above

        return render_junit(report, __version__, command=command, strict=strict)
    if fmt is OutputFormat.github:
        from tfdoctor.render.github import render_github  # noqa: PLC0415 - see above

        return render_github(report, __version__, command=command, strict=strict)
    if fmt is OutputFormat.markdown:
        from tfdoctor.render.markdown import render_markdown  # noqa: PLC0415 - see above

        return render_markdown(report, __version__, strict=strict, verbose=verbose)
    if fmt is OutputFormat.sarif:
        from tfdoctor.render.sarif import render_sarif  # noqa: PLC0415 - see above

        return render_sarif(report, __version__)
    from tfdoctor.render.text import render_text  # noqa: PLC0415 - see above

    use_color = _use_color(sys.stdout) if color is None else color
    return render_text(
        report, verbose=verbose, color=use_color, width=_terminal_width(), strict=strict
    )


def _append_step_summary(report: Report, strict: bool) -> None:
    """The markdown report appended to ``$GITHUB_STEP_SUMMARY`` (GitHub Actions' job summary),
    within the room the step has left; one line on stderr when the file cannot be written."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    from tfdoctor.render.github import STEP_SUMMARY_LIMIT, fit_step_summary  # noqa: PLC0415
    from tfdoctor.render.markdown import render_markdown  # noqa: PLC0415 - loaded when used

    try:
        used = os.path.getsize(path) if os.path.exists(path) else 0  # noqa: PTH202, PTH110 - one stat
        text = fit_step_summary(
            render_markdown(report, __version__, strict=strict), STEP_SUMMARY_LIMIT - used
        )
        if text:
            with open(path, "a", encoding="utf-8") as summary:  # noqa: PTH123 - appending
                summary.write(text)
    except OSError as exc:
        _last_words(f"tfdoctor: warning: cannot write $GITHUB_STEP_SUMMARY: {exc}")


@app.command("matrix", short_help="Which TensorFlow releases fit a Python, CUDA, driver, GPU.")
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
    output_format: str = _format_option("matrix"),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Which TensorFlow releases work with a Python, platform, CUDA, driver and GPU; with
    --companion, which release of a companion goes with which TensorFlow.

    Exits 0, or 2 when a query matches no release, or 3 on bad input.
    """
    from tfdoctor.doctor import query_matrix  # noqa: PLC0415 - loaded when used

    fmt = _output_format(output_format, json_out)
    if companion is not None:
        if any(v is not None for v in (python, python_version, platform, cuda, driver, gpu)):
            raise _fail("--companion answers for a TensorFlow (--tensorflow), not a target")
        _companion_query(matrix, companion, tensorflow, pre, fmt)
    if tensorflow is not None:
        raise _fail("--tensorflow asks about a companion: add --companion NAME")
    with _doctor_errors():
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
        from tfdoctor.render.matrixout import render_matrix_json  # noqa: PLC0415 - lazy

        _print(render_matrix_json(table, verdicts, target), nl=False)
    else:
        from tfdoctor.render.matrixout import render_matrix_text  # noqa: PLC0415 - lazy

        use_color = _use_color(sys.stdout) if color is None else color
        text = render_matrix_text(
            table, verdicts, target, asked=asked, color=use_color, width=_terminal_width(), pre=pre
        )
        _print(text, nl=False)
    fits = any(v.fits for v in verdicts)
    raise typer.Exit(ExitCode.OK if fits or not asked else ExitCode.ERRORS)


def _companion_query(
    matrix: Optional[str], companion: str, tensorflow: Optional[str], pre: bool, fmt: OutputFormat
) -> NoReturn:
    """``matrix --companion``: print the answer, exit 2 where no release matches."""
    from tfdoctor.doctor import query_companion  # noqa: PLC0415 - loaded when used
    from tfdoctor.render.matrixout import (  # noqa: PLC0415 - lazy
        render_companion_json,
        render_companion_text,
    )

    with _doctor_errors():
        answer = query_companion(matrix, companion, tensorflow, pre)
    if fmt is OutputFormat.json:
        _print(render_companion_json(answer), nl=False)
    else:
        _print(render_companion_text(answer, width=_terminal_width()), nl=False)
    raise typer.Exit(ExitCode.OK if answer.matches else ExitCode.ERRORS)


class Shell(str, enum.Enum):
    """Shells ``tfdoctor env`` writes for (``tfdoctor.render.envfile.SHELLS``)."""

    sh = "sh"
    bash = "bash"
    zsh = "zsh"
    dash = "dash"
    fish = "fish"
    powershell = "powershell"


@app.command("env", short_help="The environment variables TensorFlow should start with here.")
def env_command(
    shell: Optional[Shell] = typer.Option(  # noqa: B008 - typer's declaration style
        None,
        "--shell",
        help="Shell syntax: sh, bash, zsh or dash (the same export lines; the default), fish, "
        "powershell.",
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


@app.command("pin", short_help="Pinned requirements for this setup, or for a target.")
def pin_command(
    output: Optional[str] = typer.Option(
        None, "--output", "-o", metavar="FILE", help="Write FILE (atomically), not stdout."
    ),
    all_packages: bool = typer.Option(
        False, "--all", help="Pin every installed distribution, not only TensorFlow's."
    ),
    python_version: Optional[str] = typer.Option(
        None, "--python-version", metavar="X.Y", help="Pin for this Python version (target mode)."
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
    resolve: bool = typer.Option(
        False,
        "--resolve",
        help="Target mode: pin every package exactly (==) as pip's resolver picks them for the "
        "target; reads the package index (network). Without it a target gets ranges, offline.",
    ),
    index_url: Optional[str] = typer.Option(
        None,
        "--index-url",
        metavar="URL",
        help="The package index --resolve and --hashes read (default: PyPI).",
    ),
    hashes: bool = typer.Option(
        False,
        "--hashes",
        help="Add sha256 hashes of every file of each pinned release from the package index "
        "(network); exact pins only (an environment, or a target with --resolve).",
    ),
    python: str = _interpreter_option(
        "Pin this interpreter's environment; in target mode it fills what the target leaves out."
    ),
    facts_file: Optional[str] = _facts_option("Pin from"),
    matrix: Optional[str] = MATRIX_OPTION,
) -> None:
    """Pinned requirements reproducing this TensorFlow setup, or the newest fitting a target.

    The package index is read only with --resolve or --hashes. Exits 0; 2 when nothing can be
    pinned (nothing fits; with --resolve, pip finds no wheels that install); 3 on bad input,
    an index that cannot be reached, pip missing or older than 22.2, or an unwritable FILE
    (left as is).
    """
    from tfdoctor.doctor import PinOptions, make_pins  # noqa: PLC0415 - loaded when used
    from tfdoctor.pin import PinError  # noqa: PLC0415
    from tfdoctor.pin.atomic import write_atomic  # noqa: PLC0415

    options = PinOptions(
        python=python,
        all_packages=all_packages,
        python_version=python_version,
        platform=platform,
        cuda=cuda,
        driver=driver,
        gpu=gpu,
        hashes=hashes,
        facts_file=facts_file,
        matrix=matrix,
        resolve=resolve,
        index_url=index_url,
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
    flags = (
        ("--all", options.all_packages),
        ("--resolve", options.resolve),
        ("--hashes", options.hashes),
    )
    words.extend(flag for flag, on in flags if on)
    index_url = options.index_url
    if index_url is not None:
        from tfdoctor.pin.resolve import display_url  # noqa: PLC0415 - lazy

        index_url = display_url(index_url)  # a token in it must not go into the file
    valued = (
        ("--index-url", index_url),
        ("--python-version", options.python_version),
        ("--platform", options.platform),
        ("--cuda", options.cuda),
        ("--driver", options.driver),
        ("--gpu", options.gpu),
        ("--facts", path(options.facts_file)),
        ("--matrix", path(options.matrix)),
        ("--python", None if options.python == sys.executable else path(options.python)),
        ("-o", path(output)),
    )
    words.extend(f"{flag} {_shell_word(value)}" for flag, value in valued if value is not None)
    return " ".join(words)


def _shell_word(value: str) -> str:
    """``value`` quoted for a shell, leaving a leading ``~/`` unquoted so that it expands."""
    if value.startswith("~/"):
        return "~/" + shlex.quote(value[2:])
    return shlex.quote(value)


@app.command(
    "run",
    short_help="Run a command; explain its output when it fails.",
    # Everything from COMMAND on is COMMAND's own: `tfdoctor run python train.py --epochs 3`.
    context_settings={"allow_interspersed_args": False, "ignore_unknown_options": True},
)
def run_command(
    command: list[str] = typer.Argument(  # noqa: B008 - typer's declaration style
        ..., metavar="COMMAND...", help="The command to run, with its arguments (after --)."
    ),
    explain_on_success: bool = typer.Option(
        False, "--explain-on-success", help="Explain the output even when the command succeeds."
    ),
    report_file: Optional[str] = typer.Option(
        None, "--report", metavar="FILE", help="Also write the explanation as JSON to FILE."
    ),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Run COMMAND, its output passed through unchanged; explain that output when it fails.

    Exits with COMMAND's exit code: 128+N when signal N killed it, 127 when it is not found,
    126 when it cannot be executed. The explanation goes to stderr after COMMAND's output.
    """
    # `tfdoctor run ...` as the executable reaches this only when tfdoctor.entry handed it
    # on (--help, an option it does not know); the common case starts COMMAND there.
    from tfdoctor.runwatch import watch  # noqa: PLC0415 - loaded when used

    raise typer.Exit(finish_run(watch(command), explain_on_success, report_file, matrix, color))


def finish_run(
    watched: Watched,
    explain_on_success: bool,
    report_file: Optional[str],
    matrix: Optional[str],
    color: Optional[bool],
) -> int:
    """After a watched run: explain and report as asked; the exit code is the command's."""
    from tfdoctor.runwatch import should_explain  # noqa: PLC0415 - loaded when used

    if watched.start_error is not None:
        _last_words(f"tfdoctor run: cannot start {watched.argv[0]}: {watched.start_error}")
        return watched.exit_code
    show = should_explain(watched, explain_on_success)
    if show or report_file is not None:
        report = _explain_run(watched, matrix)
        if report is not None and report_file is not None:
            _write_run_report(report, report_file)
        if report is not None and show:
            use_color = _use_color(sys.stderr) if color is None else color
            text = _render(report, OutputFormat.text, False, False, use_color)
            # The report's own summary names the exit code its findings earn; the last line
            # says the one this process exits with, the command's.
            _last_words(text.rstrip("\n") + "\n" + _run_footer(watched))
    return watched.exit_code


def _explain_run(watched: Watched, matrix: Optional[str]) -> Optional[Report]:
    """The explanation of a run's kept output; None, after one line on stderr, when it fails.

    The command's exit code stands whatever happens here, so nothing is raised.
    """
    try:
        from tfdoctor.doctor import open_matrix  # noqa: PLC0415 - loaded when used
        from tfdoctor.explain import explain  # noqa: PLC0415
        from tfdoctor.signatures import load_signatures  # noqa: PLC0415

        blocks = watched.kept.blocks()
        report = explain(blocks, load_signatures(), open_matrix(matrix), version=__version__)
    except ImportError as exc:
        _last_words(f"tfdoctor run: cannot explain the output: {exc}")
        return None
    except Exception as exc:  # a failed explanation must not change the command's result
        _last_words(f"tfdoctor run: cannot explain the output: {type(exc).__name__}: {exc}")
        return None
    return report


def _run_footer(watched: Watched) -> str:
    """One line naming how the command ended, how much output was read, and the exit code."""
    how = (
        f"was killed by {watched.signal_name} (exit {watched.exit_code})"
        if watched.signal_name
        else f"exited {watched.exit_code}"
    )
    kept = watched.kept
    seen = f"{kept.total_lines} output lines"
    if kept.dropped:
        last = kept.first_tail_line - 1
        seen += f"; lines {len(kept.head) + 1}-{last} were not kept"
    shown = shlex.join(watched.argv)
    if len(shown) > 60:  # a `python -c` script, a long argument list: the start names it
        shown = shown[:57] + "..."
    return f"tfdoctor run: {shown} {how} ({seen}); exiting {watched.exit_code} with it."


def _write_run_report(report: Report, path: str) -> None:
    """The JSON report to ``path`` (atomically); one line on stderr when it cannot be."""
    from tfdoctor.pin.atomic import write_atomic  # noqa: PLC0415 - loaded when used

    try:
        write_atomic(path, _render(report, OutputFormat.json, False, False, False))
    except (OSError, ValueError) as exc:
        _last_words(f"tfdoctor run: cannot write {path}: {exc}")


@app.command("explain", short_help="Explain a TensorFlow log: causes, fixes, harmless noise.")
def explain_command(
    log: str = typer.Argument("-", metavar="[FILE|-]", help="The log to read (default: stdin)."),
    facts_file: Optional[str] = _facts_option("Combine the log with"),
    here: bool = typer.Option(
        False,
        "--here",
        help="Combine the log with this machine's static facts (TensorFlow is not imported).",
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = _format_option("explain"),
    python: str = _interpreter_option("With --here: examine this interpreter's environment."),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Explain a TensorFlow log: the causes its lines show, the fixes, and what is harmless.

    Reads a file or stdin (plain text, ANSI colours, CRLF, progress bars, Jupyter notebooks).
    Exits 0 when only harmless noise or nothing is recognised, 2 when a cause of error level
    is found, 3 on bad input.
    """
    from tfdoctor.bounded import InputError  # noqa: PLC0415 - lazy
    from tfdoctor.doctor import collect_facts, load_facts, open_matrix  # noqa: PLC0415
    from tfdoctor.explain import explain  # noqa: PLC0415
    from tfdoctor.explain.reader import read_log  # noqa: PLC0415
    from tfdoctor.signatures import SignatureError, load_signatures  # noqa: PLC0415

    if facts_file is not None and here:
        raise _fail("--facts and --here both say which machine the log comes from")
    if facts_file == "-" and log == "-":
        raise _fail("the log and --facts cannot both be read from stdin")
    fmt = _output_format(output_format, json_out)
    if here:
        _require_python(python)
    with _doctor_errors():
        table = open_matrix(matrix)
        facts = load_facts(facts_file) if facts_file is not None else None
        if here:
            facts = collect_facts(python, static=True)
    try:
        signatures = load_signatures()
        # A binary stream either way: stdin's buffer, or the file opened for reading bytes.
        source = nullcontext(sys.stdin.buffer) if log == "-" else open(log, "rb")  # noqa: PTH123, SIM115
        with source as stream:
            report = explain(read_log(stream, log), signatures, table, facts, __version__)
    except (SignatureError, InputError) as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        raise _fail(f"cannot read {log}: {exc.strerror or exc}") from None
    _emit(report, fmt, False, False, color, command="explain")
    raise typer.Exit(report.exit_code())


@app.command("scan", short_help="Will this code run on that TensorFlow? (never runs it)")
def scan_command(
    paths: list[str] = typer.Argument(  # noqa: B008 - typer's declaration style
        ..., metavar="PATH...", help="Python files, notebooks (.ipynb) and directories."
    ),
    target: Optional[str] = typer.Option(
        None,
        "--target",
        metavar="X.Y",
        help="The TensorFlow line the code is to run on (default: the installed TensorFlow, "
        "else the newest line of the matrix).",
    ),
    since: Optional[str] = typer.Option(
        None,
        "--from",
        metavar="X.Y",
        help="The line the code runs on today: report only what changes up to --target.",
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = _format_option("scan"),
    strict: bool = STRICT_OPTION,
    python: str = _interpreter_option(
        "The environment the code runs in: its TensorFlow is the default --target."
    ),
    matrix: Optional[str] = MATRIX_OPTION,
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Will this code run on that TensorFlow? Parse (never run) code and report what breaks.

    Exit codes as for check: 0 nothing worse than info (warnings too, unless --strict),
    1 warnings with --strict, 2 a use that breaks on the target, 3 bad input.
    """
    from tfdoctor.scan import ScanError, ScanOptions, scan  # noqa: PLC0415 - loaded when used
    from tfdoctor.scan.rules import RulesError, load_rules  # noqa: PLC0415

    fmt = _output_format(output_format, json_out)
    from tfdoctor.doctor import open_matrix  # noqa: PLC0415 - loaded when used

    _require_python(python)

    with _doctor_errors():
        table = open_matrix(matrix)
    installed: Optional[frozenset[str]] = None
    if target is None:
        target, installed = _scan_target(python, table)
    try:
        report = scan(
            ScanOptions(tuple(paths), target, since, installed), load_rules(), __version__, table
        )
    except (ScanError, RulesError) as exc:
        raise _fail(str(exc)) from None
    _emit(report, fmt, False, strict, color, "scan")
    raise typer.Exit(report.exit_code(strict))


def _scan_target(python: str, table: Matrix) -> tuple[str, Optional[frozenset[str]]]:
    """The installed TensorFlow's line (read from its metadata, never imported) and the
    environment's TensorFlow family of distributions; else the matrix's newest line."""
    from tfdoctor.facts import Facts, normalize_name  # noqa: PLC0415 - when used
    from tfdoctor.machine import Machine  # noqa: PLC0415
    from tfdoctor.matrix import release_line  # noqa: PLC0415
    from tfdoctor.probes.pyenv import probe_pyenv  # noqa: PLC0415

    found = probe_pyenv(python)
    facts = Facts(tfdoctor_version=__version__, collected_at="", packages=found.packages)
    installed = Machine(facts, None).tf
    key = release_line(installed.version) if installed is not None else None
    # A line the matrix does not know yet (a tfdoctor older than the TensorFlow) is scanned
    # as its newest release, the nearest it can judge (a pre-release only when asked for).
    if key is not None and table.line_for(f"{key[0]}.{key[1]}") is not None:
        packages = frozenset(normalize_name(p.name) for p in found.packages or ())
        return f"{key[0]}.{key[1]}", packages
    newest = table.newest_release or table.lines[0]
    return newest.line, None


# --- tfdoctor cluster, diff, fleet ---------------------------------------------------------------

cluster_app = typer.Typer(
    help="Pre-flight for multi-worker training with tf.distribute (TF_CONFIG, Slurm, Kubernetes).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(
    cluster_app, name="cluster", short_help="Pre-flight for multi-worker tf.distribute training."
)

CLUSTER_TIMEOUT_OPTION: Any = typer.Option(
    60.0,
    "--timeout",
    metavar="SECONDS",
    help="Time allowed per step (strategy start, each all-reduce); then the missing task is named.",
)
CLUSTER_FULL_OPTION: Any = typer.Option(
    False, "--full", help="Sweep all-reduce sizes from 4 B to 64 MiB (default: up to 16 MiB)."
)


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _cluster_smoke_options(python: str, timeout: float, full: bool) -> Any:
    from tfdoctor.cluster import DEFAULT_SIZES, FULL_SIZES, SmokeOptions  # noqa: PLC0415 - lazy

    if timeout <= 0:
        raise _fail("--timeout must be positive")
    _require_python(python)
    return SmokeOptions(python=python, timeout=timeout, sizes=FULL_SIZES if full else DEFAULT_SIZES)


@cluster_app.command("check", short_help="Validate this worker's cluster description.")
def cluster_check_command(
    tf_config: Optional[str] = typer.Option(
        None,
        "--tf-config",
        metavar="FILE",
        help="Validate this TF_CONFIG document ('-' reads stdin) instead of $TF_CONFIG.",
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = _format_option("cluster"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Validate this worker's cluster description; TensorFlow is not imported, nothing connects.

    Exits 0 when it is a valid cluster, 2 on errors, 3 when --tf-config cannot be read.
    """
    from tfdoctor.bounded import InputError  # noqa: PLC0415 - when used
    from tfdoctor.cluster import NameLookup, check_report, read_tf_config, system_resolver  # noqa: PLC0415

    env = dict(os.environ)
    if tf_config is not None:
        try:
            env["TF_CONFIG"] = read_tf_config(tf_config)
        except InputError as exc:
            raise _fail(str(exc)) from None
    status = _spinner() if _use_color(sys.stderr) else None
    with status if status is not None else nullcontext():
        lookup = NameLookup(
            progress=None
            if status is None
            else lambda done, total: status.update(f"tfdoctor: resolving host names {done}/{total}")
        )
        report = check_report(env, system_resolver, __version__, _now(), lookup)
    raise typer.Exit(_emit_report(report, output_format, json_out, color, "cluster check"))


@cluster_app.command("smoke", short_help="Check, all-reduce and bandwidth on every worker.")
def cluster_smoke_command(
    timeout: float = CLUSTER_TIMEOUT_OPTION,
    full: bool = CLUSTER_FULL_OPTION,
    python: str = _interpreter_option("Run the worker in this interpreter's TensorFlow."),
    json_out: bool = JSON_OPTION,
    output_format: str = _format_option("cluster"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Run on every worker under its launcher: check, all-reduce, bandwidth, fleet report."""
    from tfdoctor.cluster import smoke_report, system_resolver  # noqa: PLC0415 - when used

    options = _cluster_smoke_options(python, timeout, full)
    report = smoke_report(dict(os.environ), options, system_resolver, __version__, _now())
    raise typer.Exit(_emit_report(report, output_format, json_out, color, "cluster smoke"))


@cluster_app.command("local", short_help="Run N loopback workers and smoke them.")
def cluster_local_command(
    workers: int = typer.Option(2, "--workers", "-n", min=1, max=16, help="Worker processes."),
    timeout: float = CLUSTER_TIMEOUT_OPTION,
    full: bool = CLUSTER_FULL_OPTION,
    python: str = _interpreter_option("Run the workers in this interpreter's TensorFlow."),
    json_out: bool = JSON_OPTION,
    output_format: str = _format_option("cluster"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Start N workers on free loopback ports, each with its own TF_CONFIG, and smoke them."""
    from tfdoctor.cluster import local_report  # noqa: PLC0415 - when used

    options = _cluster_smoke_options(python, timeout, full)
    report = local_report(workers, options, __version__, _now())
    raise typer.Exit(_emit_report(report, output_format, json_out, color, "cluster local"))


def _fleet(
    paths: list[str], output_format: str, json_out: bool, color: Optional[bool], command: str
) -> None:
    from tfdoctor.cluster import FleetError, fleet_report  # noqa: PLC0415 - when used

    fmt = _output_format(output_format, json_out)
    try:
        report = fleet_report(paths, __version__, _now())
    except FleetError as exc:
        raise _fail(str(exc)) from None
    raise typer.Exit(_emit_report(report, fmt.value, False, color, command))


@app.command("diff", short_help="Each fact that differs between two saved reports.")
def diff_command(
    first: str = typer.Argument(..., metavar="A.json", help="A saved `check --json` report."),
    second: str = typer.Argument(..., metavar="B.json", help="Another one."),
    json_out: bool = JSON_OPTION,
    output_format: str = _format_option("diff"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Works on A, fails on B: each fact that differs between two saved reports."""
    _fleet([first, second], output_format, json_out, color, "diff")


@app.command("fleet", short_help="Merge per-node reports; name what is out of line.")
def fleet_command(
    reports: list[str] = typer.Argument(  # noqa: B008 - typer's declaration style
        ..., metavar="REPORT...", help="Saved `check --json` reports, one per node."
    ),
    json_out: bool = JSON_OPTION,
    output_format: str = _format_option("fleet"),
    color: Optional[bool] = COLOR_OPTION,
) -> None:
    """Merge per-node reports into one fleet report, naming each fact and node out of line."""
    _fleet(reports, output_format, json_out, color, "fleet")


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
        _last_words("tfdoctor: interrupted")
    if isinstance(code, int):
        return code
    return int(ExitCode.OK)


def _show_help(text: str) -> int:
    try:
        _print(text)
    except _OutputError as exc:
        _abandon_stdout()
        _last_words(f"tfdoctor: error: cannot write output: {exc}")
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


def _last_words(line: str) -> None:
    """One line on stderr, if stderr can still be written."""
    with contextlib.suppress(OSError):
        typer.echo(line, err=True)


if __name__ == "__main__":
    sys.exit(main())
