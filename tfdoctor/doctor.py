"""The one place that wires probes -> facts -> checks -> report.

Probes run concurrently (they mostly wait on child processes), so ``tfdoctor check`` costs
about one TensorFlow import.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import os
import platform as pyplatform
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

from tfdoctor import __version__
from tfdoctor.bounded import MAX_REPORT_BYTES, InputError, parse_json, read_text
from tfdoctor.compat import (
    CompanionAnswer,
    Target,
    TargetError,
    Verdict,
    make_target,
    platform_of,
    verdicts,
)
from tfdoctor.defaults import DEFAULT_TIMEOUT, SHADOW_IMPORT_TIMEOUT
from tfdoctor.facts import Facts, FactsError, PackageFacts, ProbeError, TensorFlowFacts, TFStatus
from tfdoctor.findings import Report, Severity, facts_from_report_json
from tfdoctor.machine import Machine, tf_providers, tf_shadow
from tfdoctor.matrix import Companions, Matrix, MatrixError, load_matrix
from tfdoctor.probes._lifeline import stop_all as stop_children
from tfdoctor.probes._run import Runner, run_command
from tfdoctor.probes.build_info import read_build_info
from tfdoctor.probes.conda import probe_conda
from tfdoctor.probes.cudalibs import probe_cuda_libs
from tfdoctor.probes.cuinit import probe_cuinit
from tfdoctor.probes.elsewhere import probe_elsewhere
from tfdoctor.probes.kernel import probe_nvidia_kernel
from tfdoctor.probes.nvidia import probe_driver
from tfdoctor.probes.pyenv import is_current_interpreter, probe_pyenv
from tfdoctor.probes.system import probe_cpu, probe_platform, select_environment
from tfdoctor.records import Record, record

if TYPE_CHECKING:
    from tfdoctor.envvars import EnvSetting
    from tfdoctor.pin import Pinset
    from tfdoctor.smoke import ProgressFunc, SmokeOptions

# Each command loads only what it uses (checks, pin, smoke, envvars are imported in the
# functions below): `tfdoctor pin` and `tfdoctor env` should start as fast as `pip freeze`.

T = TypeVar("T")
Progress = Callable[[str], None]


class DoctorError(Exception):
    """The doctor could not do its job (bad input): exit code 3, one line, no traceback."""


@record
class CheckOptions(Record):
    """What ``tfdoctor check`` was asked to do."""

    python: str = sys.executable
    static: bool = False
    timeout: float = DEFAULT_TIMEOUT
    check_ids: tuple[str, ...] = ()
    facts_file: Optional[str] = None
    #: Another compatibility matrix (else ``$TFDOCTOR_MATRIX``, else the bundled one).
    matrix: Optional[str] = None
    #: No usable GPU is an error (``--require-gpu``, a container's start-time gate).
    require_gpu: bool = False
    #: A requirements file to compare the installed packages with (``--against``).
    against: Optional[str] = None
    #: Also run the smoke test (``--smoke``), after the probes.
    smoke: Optional[SmokeOptions] = None


def _guard(probe: str, func: Callable[[], T], errors: list[ProbeError]) -> Optional[T]:
    """Run a probe; an exception becomes a recorded ProbeError instead of a crash."""
    try:
        return func()
    except Exception as exc:
        errors.append(ProbeError(probe, "crashed", f"{type(exc).__name__}: {exc}"))
        return None


class ProbesInterrupted(KeyboardInterrupt):
    """Ctrl-C while the probes ran: ``facts`` holds what they had found by then."""

    def __init__(self, facts: Facts) -> None:
        super().__init__()
        self.facts = facts


#: Each probe (the name its errors carry) and the facts fields it fills.
_PROBE_FIELDS = {
    "python": ("python", "packages"),
    "platform": ("platform",),
    "cpu": ("cpu",),
    "driver": ("driver",),
    "cuda_libs": ("cuda_libs",),
    "tensorflow": ("tensorflow",),
    "nvidia_kernel": ("nvidia_kernel",),
    "cuinit": ("cuinit",),
    "conda": ("conda",),
}


def collect_facts(
    python: str = sys.executable,
    static: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    progress: Optional[Progress] = None,
    all_packages: bool = False,
) -> Facts:
    """Probe this machine and ``python``'s environment into :class:`Facts`.

    ``all_packages`` lists every installed distribution, not only TensorFlow's family
    (``tfdoctor pin``, ``check --against``). Ctrl-C ends every child at once and raises
    :class:`ProbesInterrupted` with the facts found so far, each unfinished probe recorded
    as ``interrupted``.
    """
    env = dict(os.environ if env is None else env)
    errors: list[ProbeError] = []
    note = progress or (lambda _msg: None)
    #: Facts fields, filled as each probe answers.
    found: dict[str, Any] = {
        "packages_complete": False,
        "environment": select_environment(env),
    }
    futures: dict[str, Future[Any]] = {}
    pool = ThreadPoolExecutor(max_workers=6)
    try:
        if static:
            found["tensorflow"] = TensorFlowFacts(status=TFStatus.SKIPPED, interpreter=python)
        futures["driver"] = pool.submit(
            _guard, "driver", lambda: probe_driver(env, runner, min(timeout, 15.0)), errors
        )
        futures["cpu"] = pool.submit(_guard, "cpu", lambda: probe_cpu(runner), errors)
        futures["nvidia_kernel"] = pool.submit(
            _guard, "nvidia_kernel", lambda: probe_nvidia_kernel("/", env, runner), errors
        )
        # cuInit without TensorFlow, in the examined interpreter: one interpreter start.
        futures["cuinit"] = pool.submit(
            _guard, "cuinit", lambda: probe_cuinit(python, env, runner, min(timeout, 15.0)), errors
        )
        # The interpreter and its packages first (in-process, or one short child): where
        # `import tensorflow` resolves is known before the import runs.
        pyenv = probe_pyenv(python, env, runner, min(timeout, 30.0), all_packages)
        if pyenv.error is not None:
            errors.append(pyenv.error)
        found.update(
            python=pyenv.python,
            packages=pyenv.packages,
            packages_complete=all_packages and pyenv.packages is not None,
        )
        tf_timeout = timeout
        if not static:
            # Loaded here: `--static` (a container's start, a build step) does not pay for it.
            from tfdoctor.probes.tensorflow import probe_tensorflow  # noqa: PLC0415

            shadow = tf_shadow(pyenv.python, tf_providers(pyenv.packages or ()))
            tf_timeout = timeout if shadow is None else min(timeout, SHADOW_IMPORT_TIMEOUT)
            note(
                f"importing TensorFlow in a child process (up to {tf_timeout:g} s)"
                if shadow is None
                else f"importing {shadow}, which shadows the installed TensorFlow "
                f"(up to {tf_timeout:g} s)"
            )
            futures["tensorflow"] = pool.submit(
                _guard,
                "tensorflow",
                lambda: probe_tensorflow(python, env, runner, tf_timeout),
                errors,
            )
        site_dirs = pyenv.python.site_packages if pyenv.python else ()
        build_info = read_build_info(site_dirs)
        tf_requires = [r for p in tf_providers(pyenv.packages or ()) for r in p.requires]
        prefix = pyenv.python.prefix if pyenv.python else None
        futures["cuda_libs"] = pool.submit(
            _guard,
            "cuda_libs",
            lambda: probe_elsewhere(
                probe_cuda_libs(
                    site_dirs,
                    build_info,
                    env,
                    runner,
                    timeout=min(timeout, 15.0),
                    requires=tf_requires,
                ),
                env,
                prefix,
            ),
            errors,
        )
        found["conda"] = _guard("conda", lambda: probe_conda(prefix), errors)
        found["platform"] = _guard(
            "platform", lambda: probe_platform(env, pyenv.machine, pyenv.rosetta, runner), errors
        )
        driver_side = [f for name, f in futures.items() if name not in ("tensorflow", "cpu")]
        if "tensorflow" not in futures or not all(f.done() for f in driver_side):
            note("probing the NVIDIA driver and CUDA libraries")
        for name, future in futures.items():
            if name == "tensorflow":
                continue
            found[name] = future.result()
        if "tensorflow" in futures:
            if not futures["tensorflow"].done():
                # The driver probes are done: what is left to wait for is the import alone.
                note(f"waiting for the TensorFlow import (up to {tf_timeout:g} s)")
            found["tensorflow"] = futures["tensorflow"].result()
    except KeyboardInterrupt:
        raise ProbesInterrupted(_interrupted_facts(found, futures, errors, pool)) from None
    finally:
        # Every future has answered unless something was raised: nothing to wait for then.
        pool.shutdown(wait=False)
    return _facts(found, errors)


def _interrupted_facts(
    found: dict[str, Any],
    futures: Mapping[str, Future[Any]],
    errors: Sequence[ProbeError],
    pool: ThreadPoolExecutor,
) -> Facts:
    """Ctrl-C: end every child now, and the facts found so far; the rest ``interrupted``.

    The probes' threads are left to return (their children killed, none started any more)
    instead of being waited for: the process is ending.
    """
    stop_children()
    pool.shutdown(wait=False, cancel_futures=True)
    for name, future in futures.items():
        if future.done() and not future.cancelled():
            found.setdefault(name, future.result())
    # What the threads record after this moment belongs to a killed child: left out.
    kept = list(errors)
    for probe, fields in _PROBE_FIELDS.items():
        if not all(field in found for field in fields):
            kept.append(
                ProbeError(probe, "interrupted", "interrupted (Ctrl-C) before this probe finished")
            )
    return _facts(found, kept)


def _facts(found: Mapping[str, Any], errors: Sequence[ProbeError]) -> Facts:
    """Facts from the probes' fields; a field no probe filled stays unknown (None)."""
    return Facts(
        tfdoctor_version=__version__,
        collected_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        errors=tuple(sorted(errors, key=lambda e: e.probe)),
        **found,
    )


#: The oldest Python whose environment the doctor can examine: its child scripts
#: (tfdoctor/probes/child) are written for Python 3.7 and newer.
OLDEST_PYTHON = (3, 7)

#: Seconds an interpreter given as ``--python`` may take to say its version (an interpreter
#: starts in well under one); ``$TFDOCTOR_PYTHON_TIMEOUT`` overrides it.
PYTHON_ANSWER_TIMEOUT = 10.0

#: What the interpreter check runs: any Python from 2 on prints the marker and its version.
_PYTHON_MARKER = "tfdoctor-python"
_ASK_VERSION = (
    f"import sys; sys.stdout.write('{_PYTHON_MARKER} %d.%d.%d' % tuple(sys.version_info[:3]))"
)
_ANSWER = re.compile(_PYTHON_MARKER + r" (\d+)\.(\d+)\.(\d+)")
_VERSION_LIKE = re.compile(r"^\d+(\.\d+){0,2}$")


def require_python(
    python: str,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    *,
    version_option: bool = False,
) -> tuple[int, int]:
    """The (major, minor) version of the interpreter ``--python`` names (a path, or a command
    on PATH); DoctorError, saying why, unless it is a Python the doctor can examine.

    Every command's ``--python`` goes through here first, so that a wrong value is one line
    and exit 3 within seconds, not probes that time out one by one. ``version_option``: the
    command also takes ``--python-version`` (matrix, pin), which a bare version belongs to.
    """
    if is_current_interpreter(python):
        return sys.version_info[0], sys.version_info[1]
    where = _locate_interpreter(python, version_option)
    environ = os.environ if env is None else env
    timeout = _answer_timeout(environ)
    result = runner([where, "-c", _ASK_VERSION], env, timeout)
    if result.start_error is not None:
        raise DoctorError(f"--python {python}: cannot run it: {result.start_error}")
    if result.timed_out:
        raise DoctorError(
            f"--python {python}: did not answer within {timeout:g} s when asked for its "
            "Python version"
        )
    # Searched for, not matched whole: a sitecustomize may print before the answer.
    answer = _ANSWER.search(result.stdout)
    if answer is None:
        code = result.signal_name or result.returncode
        how = f"exited with {code}" if code else "printed no Python version"
        raise DoctorError(
            f"--python {python}: not a Python interpreter ({how} when asked for its version)"
        )
    version = tuple(int(part) for part in answer.groups())
    if version[:2] < OLDEST_PYTHON:
        oldest = ".".join(map(str, OLDEST_PYTHON))
        shown = ".".join(map(str, version))
        raise DoctorError(
            f"--python {python}: Python {shown} is older than {oldest}, the oldest whose "
            "environment tfdoctor can examine"
        )
    return version[0], version[1]


def _locate_interpreter(python: str, version_option: bool) -> str:
    """The file ``python`` names; DoctorError when there is none, or it cannot be run."""
    if _VERSION_LIKE.match(python) and not Path(python).exists():
        hint = (
            f"for a Python version use --python-version {python}"
            if version_option
            else "a version is not an interpreter"
        )
        raise DoctorError(
            f"--python {python}: expected an interpreter (a path, or a command on PATH); {hint}"
        )
    has_dir = os.sep in python or (os.altsep is not None and os.altsep in python)
    found = python if has_dir else shutil.which(python)
    if found is None or not Path(found).exists():
        raise DoctorError(f"--python {python}: no such interpreter")
    if Path(found).is_dir():
        raise DoctorError(f"--python {python}: is a directory, not an interpreter")
    if not os.access(found, os.X_OK):
        raise DoctorError(f"--python {python}: not executable (no execute permission)")
    return found


def _answer_timeout(environ: Mapping[str, str]) -> float:
    """The seconds :func:`require_python` waits: ``$TFDOCTOR_PYTHON_TIMEOUT``, else the default."""
    text = environ.get("TFDOCTOR_PYTHON_TIMEOUT", "")
    try:
        value = float(text)
    except ValueError:
        return PYTHON_ANSWER_TIMEOUT
    return value if math.isfinite(value) and value > 0 else PYTHON_ANSWER_TIMEOUT


def load_facts(path: str) -> Facts:
    """Facts from a saved ``--json`` report (or bare facts document); DoctorError if unusable."""
    try:
        text = read_text(path, MAX_REPORT_BYTES, "a facts file")
    except (OSError, UnicodeDecodeError) as exc:
        raise DoctorError(f"cannot read facts file {path}: {exc}") from exc
    except InputError as exc:
        raise DoctorError(str(exc)) from None
    try:
        data = parse_json(text, path, "a facts file")
    except InputError as exc:
        raise DoctorError(str(exc)) from None
    except ValueError as exc:
        raise DoctorError(f"facts file {path} is not valid JSON: {exc}") from exc
    try:
        return facts_from_report_json(data)
    except FactsError as exc:
        raise DoctorError(f"facts file {path}: {exc}") from exc


def diagnose(
    options: CheckOptions,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    progress: Optional[Progress] = None,
    smoke_progress: Optional[ProgressFunc] = None,
) -> Report:
    """Facts (probed, or loaded from ``options.facts_file``) judged by the selected checks.

    After Ctrl-C during the probes or the smoke test, the report judges what was found by
    then and is marked ``interrupted`` (exit code 130).
    """
    # The checks load with the command that runs them (see the note at the imports).
    from tfdoctor.checks import (  # noqa: PLC0415
        UnknownCheckError,
        implied_checks,
        run_checks,
        select_checks,
    )
    from tfdoctor.checks._context import CheckContext  # noqa: PLC0415

    if options.smoke is not None and options.facts_file is not None:
        raise DoctorError("--smoke runs on this machine; a --facts file carries its own smoke")
    if options.smoke is not None and options.static:
        raise DoctorError("--smoke imports TensorFlow; it cannot run with --static")
    # An option that asks for a verdict runs its check even when the ids leave it out.
    implied = implied_checks(require_gpu=options.require_gpu, against=options.against is not None)
    try:
        checks = select_checks(options.check_ids, implied)
    except UnknownCheckError as exc:
        raise DoctorError(str(exc)) from exc
    if options.timeout <= 0:
        raise DoctorError(f"--timeout must be positive, got {options.timeout:g}")
    matrix = open_matrix(options.matrix, env)
    against = read_against(options.against) if options.against is not None else None
    interrupted = False
    if options.facts_file is not None:
        facts = load_facts(options.facts_file)
    else:
        require_python(options.python, env, runner)
        try:
            facts = collect_facts(
                options.python,
                options.static,
                options.timeout,
                env,
                runner,
                progress,
                all_packages=against is not None,
            )
        except ProbesInterrupted as exc:
            facts, interrupted = exc.facts, True
    if options.smoke is not None and not interrupted:
        validate_smoke(options.smoke)
        if progress is not None:
            progress("running kernels on each device (smoke test)")
        from tfdoctor.smoke import run_smoke  # noqa: PLC0415 - lazy, see the imports

        smoke_options = dataclasses.replace(options.smoke, python=options.python)
        try:
            smoke = run_smoke(smoke_options, env, smoke_progress)
        except KeyboardInterrupt:  # outside the kernels (the CPU's peak): its child is killed
            interrupted = True
        else:
            facts = dataclasses.replace(facts, smoke=smoke)
            interrupted = smoke.status == "interrupted"
    ctx = CheckContext(
        facts,
        matrix,
        require_gpu=options.require_gpu,
        against=against,
        against_file=options.against,
    )
    return Report(facts=facts, findings=run_checks(ctx, checks), interrupted=interrupted)


def validate_smoke(options: SmokeOptions) -> None:
    """DoctorError for smoke options that cannot work."""
    from tfdoctor.smoke import LEVELS  # noqa: PLC0415 - lazy, see the imports

    if options.level not in LEVELS:
        raise DoctorError(f"smoke level must be one of {', '.join(LEVELS)}")
    # inf overflows the child's wait and nan never compares, so both are refused here.
    if not (math.isfinite(options.kernel_timeout) and options.kernel_timeout > 0):
        raise DoctorError(
            f"--timeout must be a positive, finite number of seconds, got "
            f"{options.kernel_timeout:g}"
        )
    if options.max_memory < 64 * 2**20:
        raise DoctorError("--max-memory must be at least 64 MiB")
    require_python(options.python)


def smoke_report(
    options: SmokeOptions,
    env: Optional[Mapping[str, str]] = None,
    progress: Optional[ProgressFunc] = None,
) -> Report:
    """``tfdoctor smoke``: run the kernels and judge them with the smoke checks only."""
    from tfdoctor.checks import SMOKE_COMMAND, run_checks  # noqa: PLC0415 - lazy, see the imports
    from tfdoctor.checks._context import CheckContext  # noqa: PLC0415
    from tfdoctor.smoke import run_smoke  # noqa: PLC0415

    validate_smoke(options)
    # The driver's GPU count (NVML, else nvidia-smi; well under a second) tells a smoke test
    # that found no GPU from one on a machine without any.
    driver = _guard("driver", lambda: probe_driver(env, timeout=15.0), [])
    smoke = run_smoke(options, env, progress)
    facts = Facts(
        tfdoctor_version=__version__,
        collected_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        driver=driver,
        smoke=smoke,
    )
    # runtime.memory-held (in SMOKE_COMMAND) judges the smoke test's fresh-process measurement.
    findings = run_checks(CheckContext(facts), SMOKE_COMMAND)
    return Report(facts=facts, findings=findings, interrupted=smoke.status == "interrupted")


def environment_for(
    python: str = sys.executable,
    facts_file: Optional[str] = None,
    *,
    async_allocator: bool = False,
    log_level: Optional[int] = None,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
) -> tuple[EnvSetting, ...]:
    """The variables ``tfdoctor env`` prints, from static facts (TensorFlow is not imported)."""
    from tfdoctor.envvars import LOG_LEVELS, environment_settings  # noqa: PLC0415 - lazy

    if log_level is not None and log_level not in LOG_LEVELS:
        raise DoctorError(f"--log-level must be 0, 1, 2 or 3, got {log_level}")
    if facts_file is not None:
        facts = load_facts(facts_file)
    else:
        require_python(python, env, runner)
        facts = collect_facts(python, static=True, env=env, runner=runner)
    return environment_settings(facts, async_allocator=async_allocator, log_level=log_level)


def open_matrix(path: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> Matrix:
    """The matrix at ``path`` / ``$TFDOCTOR_MATRIX`` / bundled; DoctorError when unusable."""
    try:
        return load_matrix(path, env)
    except MatrixError as exc:
        raise DoctorError(str(exc)) from None


def open_companions() -> Companions:
    """The bundled companion table; DoctorError when unusable."""
    from tfdoctor.matrix import load_companions  # noqa: PLC0415 - loaded when used

    try:
        return load_companions()
    except MatrixError as exc:
        raise DoctorError(str(exc)) from None


def list_checks() -> Sequence[tuple[str, str]]:
    """(id, title) of every registered check, in order."""
    from tfdoctor.checks import CHECKS  # noqa: PLC0415 - lazy, see the imports

    return [(c.id, c.title) for c in CHECKS]


def query_matrix(
    path: Optional[str] = None,
    *,
    python: Optional[str] = None,
    python_version: Optional[str] = None,
    platform: Optional[str] = None,
    cuda: Optional[str] = None,
    driver: Optional[str] = None,
    gpu: Optional[str] = None,
    env: Optional[Mapping[str, str]] = None,
) -> tuple[Matrix, Target, tuple[Verdict, ...], bool]:
    """The matrix, the target asked about, every line's verdict, and whether anything was asked.

    ``python`` is an interpreter, which is asked its version; ``python_version`` a version.
    A query about Python without ``--platform`` is about this machine's platform.
    """
    if python is not None and python_version is not None:
        raise DoctorError("--python and --python-version both say which Python to ask about")
    matrix = open_matrix(path, env)
    if python is not None:
        major, minor = require_python(python, env, version_option=True)
        python_version = f"{major}.{minor}"
    asked = any(v is not None for v in (python_version, platform, cuda, driver, gpu))
    if platform is None and python_version is not None:
        platform = platform_of(pyplatform.system(), pyplatform.machine())
    target = _make_target(
        matrix, python=python_version, platform=platform, cuda=cuda, driver=driver, gpu=gpu
    )
    return matrix, target, verdicts(matrix, target), asked


_COMPANION_QUERY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:==(\d+\.\d+(?:\.\d+)?))?$")
_TF_QUERY = re.compile(r"^\d+\.\d+(?:\.\d+(?:(?:a|b|rc)\d+)?)?$")


def query_companion(
    path: Optional[str],
    companion: str,
    tensorflow: Optional[str] = None,
    pre: bool = False,
    env: Optional[Mapping[str, str]] = None,
) -> CompanionAnswer:
    """Which releases of a companion (``tensorflow-text``, or ``tensorflow-text==2.20`` for
    one of its releases) go with which TensorFlow (``tensorflow``: a line or a release);
    DoctorError on a name the companion table does not know or a malformed version."""
    from tfdoctor.compat import (  # noqa: PLC0415 - loaded when used
        PINNED_COMPANIONS,
        companion_answer,
        pinned_answer,
    )
    from tfdoctor.facts import normalize_name  # noqa: PLC0415

    asked = _COMPANION_QUERY.match(companion.strip())
    if asked is None:
        raise DoctorError(f"--companion {companion!r}: expected NAME or NAME==X.Y[.Z]")
    if tensorflow is not None and _TF_QUERY.match(tensorflow) is None:
        raise DoctorError(f"--tensorflow {tensorflow!r}: expected a version such as 2.21")
    matrix = open_matrix(path, env)
    table = open_companions()
    name = normalize_name(asked.group(1))
    if name in PINNED_COMPANIONS:
        return pinned_answer(matrix, name, tensorflow, asked.group(2), pre)
    if name not in table.companions:
        known = ", ".join(sorted({*table.companions, *PINNED_COMPANIONS}))
        raise DoctorError(f"--companion {asked.group(1)}: not in the companion table ({known})")
    return companion_answer(matrix, table, name, tensorflow, asked.group(2), pre)


def _make_target(matrix: Matrix, **fields: Optional[str]) -> Target:
    """:func:`make_target` with its bad input (a malformed version) as a DoctorError."""
    try:
        return make_target(matrix, **fields)
    except TargetError as exc:
        raise DoctorError(str(exc)) from None


def read_against(path: str) -> tuple[str, ...]:
    """The requirements of ``check --against FILE``; DoctorError when the file is unusable."""
    from tfdoctor.pin.reqfile import RequirementsError, read_requirements  # noqa: PLC0415

    try:
        return read_requirements(path)
    except RequirementsError as exc:
        raise DoctorError(str(exc)) from None


@record
class PinOptions(Record):
    """What ``tfdoctor pin`` was asked to do; any target field selects target mode."""

    #: The interpreter whose environment is pinned, or which fills a target's gaps.
    python: str = sys.executable
    all_packages: bool = False
    #: The target's Python version (``--python-version X.Y``).
    python_version: Optional[str] = None
    platform: Optional[str] = None
    cuda: Optional[str] = None
    driver: Optional[str] = None
    gpu: Optional[str] = None
    hashes: bool = False
    facts_file: Optional[str] = None
    matrix: Optional[str] = None
    #: Target mode: exact pins from pip's resolver over the package index (network, opt-in).
    resolve: bool = False
    #: The index ``--resolve`` and ``--hashes`` read (PEP 503/691); None: PyPI.
    index_url: Optional[str] = None

    @property
    def targeted(self) -> bool:
        """Whether a target field was given."""
        fields = (self.python_version, self.platform, self.cuda, self.driver, self.gpu)
        return any(v is not None for v in fields)


#: Index URL schemes pip and the hash look-up both read.
_INDEX_SCHEMES = ("https://", "http://", "file://")


def make_pins(
    options: PinOptions,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    fetch: Optional[Callable[[str], object]] = None,
) -> Pinset:
    """The pins ``tfdoctor pin`` writes: this environment's, or a target's.

    Raises :class:`DoctorError` on bad input, an unreachable index or a resolver that cannot
    run, and :class:`PinError` when nothing fits (or pip finds no wheels that install).
    """
    from tfdoctor.pin import environment_pinset, needs_matrix, target_pinset  # noqa: PLC0415

    if options.targeted and options.all_packages:
        raise DoctorError("--all pins this environment; it cannot be combined with a target")
    if options.resolve and not options.targeted:
        raise DoctorError(
            "--resolve pins a target (--python-version, --platform, --cuda, --driver, --gpu) "
            "exactly; an environment's pins are exact already"
        )
    if options.index_url is not None:
        if not (options.resolve or options.hashes):
            raise DoctorError("--index-url names the index of --resolve or --hashes; give one")
        if not options.index_url.startswith(_INDEX_SCHEMES):
            raise DoctorError(
                f"--index-url {options.index_url}: expected an https://, http:// or file:// URL"
            )
    if options.facts_file is not None and options.python != sys.executable:
        raise DoctorError("--facts and --python both say which environment to read")
    if options.facts_file is not None:
        facts = load_facts(options.facts_file)
        if not options.targeted and facts.packages is not None and not facts.packages_complete:
            # Pins from such a report would silently leave out every package it does not list.
            raise DoctorError(
                f"{options.facts_file}: this report lists only TensorFlow's packages; save it "
                "with `tfdoctor check --json --against FILE`, or run pin on the machine"
            )
    else:
        require_python(options.python, env, runner, version_option=True)
        facts = collect_facts(
            options.python, True, 30.0, env, runner, all_packages=not options.targeted
        )
        listing = facts.error_for("python")
        if listing is not None and not options.targeted:
            raise DoctorError(listing.message)
    if options.targeted:
        table = open_matrix(options.matrix, env)
        target, origins = _pin_target(table, options, facts)
        pinset = target_pinset(table, target, origins, _installed_companions(facts))
        if options.resolve:
            from tfdoctor.pin.resolve import (  # noqa: PLC0415 - network, opt-in
                ResolveError,
                resolve_target,
            )

            try:
                pinset = resolve_target(
                    pinset,
                    target,
                    table,
                    run=runner,
                    index_url=options.index_url,
                    env=env,
                    hashes=options.hashes,
                )
            except ResolveError as exc:
                raise DoctorError(f"--resolve: {exc}") from None
    else:
        # The matrix costs a YAML parse; the installed metadata usually says all it would.
        lines = open_matrix(options.matrix, env) if needs_matrix(facts) else None
        pinset = environment_pinset(
            facts, lines, all_packages=options.all_packages, smoke_verdict=smoke_verdict(facts)
        )
    if options.hashes:
        from tfdoctor.pin.hashes import (  # noqa: PLC0415 - network, opt-in
            PYPI_SIMPLE,
            HashError,
            add_hashes,
            fetch_project_json,
        )

        index = options.index_url or PYPI_SIMPLE

        def from_index(name: str) -> object:
            return fetch_project_json(name, index)

        try:
            pinset = add_hashes(pinset, fetch or from_index)
        except HashError as exc:
            raise DoctorError(f"--hashes: {exc}") from None
    return pinset


def _installed_companions(facts: Facts) -> Optional[tuple[Companions, tuple[PackageFacts, ...]]]:
    """The companion table and this environment's packages, which a target's pins keep in
    step with the target's TensorFlow."""
    return (open_companions(), tuple(facts.packages)) if facts.packages else None


def smoke_verdict(facts: Facts) -> Optional[str]:
    """The smoke checks' verdict on ``facts.smoke``: "passed", "failed: ..."; None if not run.

    Errors and unknowns fail it; warnings (a slow device) pass it, named.
    """
    if facts.smoke is None:
        return None
    from tfdoctor.checks import SMOKE, run_checks  # noqa: PLC0415 - lazy, see the imports
    from tfdoctor.checks._context import CheckContext  # noqa: PLC0415

    findings = run_checks(CheckContext(facts), SMOKE)
    failed = [x.summary for x in findings if x.severity in (Severity.ERROR, Severity.UNKNOWN)]
    if failed:
        return f"failed: {'; '.join(failed)}"
    warned = [x.summary for x in findings if x.severity is Severity.WARNING]
    if warned:
        return f"passed, with warnings: {'; '.join(warned)}"
    return "passed"


def _pin_target(matrix: Matrix, options: PinOptions, facts: Facts) -> tuple[Target, dict[str, str]]:
    """The target: the given fields, the rest from this machine (its GPU only on its own OS)."""
    here = Machine(facts, None).target
    given = _make_target(
        matrix,
        python=options.python_version,
        platform=options.platform,
        cuda=options.cuda,
        driver=options.driver,
        gpu=options.gpu,
    )
    origins: dict[str, str] = {}
    values: dict[str, Optional[str]] = {}
    same_os = given.platform is None or (
        here.platform is not None and given.platform.split("-")[0] == here.platform.split("-")[0]
    )
    for field in ("python", "platform", "cuda", "driver", "gpu"):
        value = getattr(given, field)
        if value is not None:
            values[field], origins[field] = value, "given"
            continue
        mine = getattr(here, field)
        if field in ("driver", "gpu") and not same_os:
            mine = None
        values[field] = mine
        if mine is not None:
            origins[field] = "this machine"
    return Target(**values), origins
