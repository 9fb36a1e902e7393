"""The one place that wires probes -> facts -> checks -> report: collect facts, diagnose.

Probes run concurrently (they mostly wait on child processes), so ``tfdoctor check`` costs
about one TensorFlow import.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

from tfdoctor import __version__
from tfdoctor.defaults import DEFAULT_TIMEOUT, SHADOW_IMPORT_TIMEOUT
from tfdoctor.facts import Facts, ProbeError, TensorFlowFacts, TFStatus
from tfdoctor.findings import Report, Severity
from tfdoctor.inputs import DoctorError, load_facts, open_matrix, require_python
from tfdoctor.machine import tf_providers, tf_shadow
from tfdoctor.probes._lifeline import stop_all as stop_children
from tfdoctor.probes._run import Runner, run_command
from tfdoctor.probes.build_info import read_build_info
from tfdoctor.probes.conda import probe_conda
from tfdoctor.probes.cudalibs import probe_cuda_libs
from tfdoctor.probes.cuinit import probe_cuinit
from tfdoctor.probes.elsewhere import probe_elsewhere
from tfdoctor.probes.hosted import probe_hosted
from tfdoctor.probes.kernel import probe_nvidia_kernel
from tfdoctor.probes.notebook import probe_notebook
from tfdoctor.probes.nvidia import probe_driver
from tfdoctor.probes.pyenv import probe_pyenv
from tfdoctor.probes.system import probe_cpu, probe_platform, select_environment
from tfdoctor.records import Record, record

if TYPE_CHECKING:
    from tfdoctor.smoke import ProgressFunc, SmokeOptions

# The checks and the smoke test load with the command that runs them (imported in the
# functions below): `tfdoctor pin` and `tfdoctor env` should start as fast as `pip freeze`.

T = TypeVar("T")
Progress = Callable[[str], None]


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
    #: List every installed distribution, not only TensorFlow's family (the bundle pins the
    #: environment from the same facts).
    all_packages: bool = False
    #: Also run the smoke test (``--smoke``), after the probes.
    smoke: Optional[SmokeOptions] = None
    #: This process is a Jupyter kernel examining itself (``tfdoctor.check()``, ``%tfdoctor``):
    #: also compare it with the environment Jupyter was started from.
    in_kernel: bool = False


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
    "hosted": ("hosted",),
}


def collect_facts(
    python: str = sys.executable,
    static: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    progress: Optional[Progress] = None,
    all_packages: bool = False,
    in_kernel: bool = False,
) -> Facts:
    """Probe this machine and ``python``'s environment into :class:`Facts`.

    ``all_packages`` lists every installed distribution, not only TensorFlow's family
    (``tfdoctor pin``, ``check --against``); ``in_kernel`` probes this process as a Jupyter
    kernel and the environment that started it. Ctrl-C ends every child at once and raises
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
        if in_kernel:
            futures["notebook"] = pool.submit(
                _guard,
                "notebook",
                lambda: probe_notebook(env, runner, sys.argv, min(timeout, 15.0)),
                errors,
            )
        futures["nvidia_kernel"] = pool.submit(
            _guard, "nvidia_kernel", lambda: probe_nvidia_kernel("/", env, runner), errors
        )
        # cuInit without TensorFlow, in the examined interpreter: one interpreter start.
        futures["cuinit"] = pool.submit(
            _guard, "cuinit", lambda: probe_cuinit(python, env, runner, min(timeout, 15.0)), errors
        )
        # The interpreter and its packages first (in-process, or one short child): where
        # `import tensorflow` resolves is known before the import runs. Probed in a worker
        # thread while this one waits: Ctrl-C raises KeyboardInterrupt in the main thread
        # wherever it runs Python code, a fork's at-fork hooks included (logging's, imported
        # by concurrent.futures, take its module lock before each fork and release it after),
        # and raised there it leaves that lock held, so that every later fork, in any thread,
        # waits forever. Waiting on a future is a safe place for the interrupt.
        pyenv = pool.submit(
            probe_pyenv, python, env, runner, min(timeout, 30.0), all_packages
        ).result()
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
        found["hosted"] = _guard("hosted", lambda: probe_hosted(env), errors)
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
                all_packages=options.all_packages or against is not None,
                in_kernel=options.in_kernel,
            )
        except ProbesInterrupted as exc:
            facts, interrupted = exc.facts, True
    if options.smoke is not None and not interrupted:
        from tfdoctor.smoke import run_smoke  # noqa: PLC0415 - lazy, see the imports
        from tfdoctor.smoke.service import validate_smoke  # noqa: PLC0415

        validate_smoke(options.smoke)
        if progress is not None:
            progress("running kernels on each device (smoke test)")

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


def list_checks() -> Sequence[tuple[str, str]]:
    """(id, title) of every registered check, in order."""
    from tfdoctor.checks import CHECKS  # noqa: PLC0415 - lazy, see the imports

    return [(c.id, c.title) for c in CHECKS]


def read_against(path: str) -> tuple[str, ...]:
    """The requirements of ``check --against FILE``; DoctorError when the file is unusable."""
    from tfdoctor.pin.reqfile import RequirementsError, read_requirements  # noqa: PLC0415

    try:
        return read_requirements(path)
    except RequirementsError as exc:
        raise DoctorError(str(exc)) from None


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
