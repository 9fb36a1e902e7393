"""The one place that wires probes -> facts -> checks -> report.

Probes run concurrently (they mostly wait on child processes), so ``tfdoctor check`` costs
about one TensorFlow import.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import platform as pyplatform
import shutil
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Optional, TypeVar

from tfdoctor import __version__
from tfdoctor.checks import CHECKS, UnknownCheckError, run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.compat import Target, TargetError, Verdict, make_target, platform_of, verdicts
from tfdoctor.facts import Facts, FactsError, ProbeError, TensorFlowFacts
from tfdoctor.findings import Report, facts_from_report_json
from tfdoctor.matrix import Matrix, MatrixError, load_matrix
from tfdoctor.probes._run import Runner, run_command
from tfdoctor.probes.build_info import read_build_info
from tfdoctor.probes.cudalibs import probe_cuda_libs
from tfdoctor.probes.nvidia import probe_driver
from tfdoctor.probes.pyenv import probe_pyenv
from tfdoctor.probes.system import probe_cpu, probe_platform, select_environment
from tfdoctor.probes.tensorflow import probe_tensorflow

#: Seconds the TensorFlow child may take by default; a cold import takes about 3-5 s.
DEFAULT_TIMEOUT = 60.0

T = TypeVar("T")
Progress = Callable[[str], None]


class DoctorError(Exception):
    """The doctor could not do its job (bad input): exit code 3, one line, no traceback."""


@dataclasses.dataclass(frozen=True)
class CheckOptions:
    """What ``tfdoctor check`` was asked to do."""

    python: str = sys.executable
    static: bool = False
    timeout: float = DEFAULT_TIMEOUT
    check_ids: tuple[str, ...] = ()
    facts_file: Optional[str] = None
    #: Another compatibility matrix (else ``$TFDOCTOR_MATRIX``, else the bundled one).
    matrix: Optional[str] = None


def _guard(probe: str, func: Callable[[], T], errors: list[ProbeError]) -> Optional[T]:
    """Run a probe; an exception becomes a recorded ProbeError instead of a crash."""
    try:
        return func()
    except Exception as exc:
        errors.append(ProbeError(probe, "crashed", f"{type(exc).__name__}: {exc}"))
        return None


def collect_facts(
    python: str = sys.executable,
    static: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    progress: Optional[Progress] = None,
) -> Facts:
    """Probe this machine and ``python``'s environment into :class:`Facts`."""
    env = dict(os.environ if env is None else env)
    errors: list[ProbeError] = []
    note = progress or (lambda _msg: None)
    with ThreadPoolExecutor(max_workers=4) as pool:
        tf_future: Optional[Future[Optional[TensorFlowFacts]]] = None
        if not static:
            note("importing TensorFlow in a child process")
            tf_future = pool.submit(
                _guard,
                "tensorflow",
                lambda: probe_tensorflow(python, env, runner, timeout),
                errors,
            )
        driver_future = pool.submit(
            _guard, "driver", lambda: probe_driver(env, runner, min(timeout, 15.0)), errors
        )
        cpu_future = pool.submit(_guard, "cpu", lambda: probe_cpu(runner), errors)
        pyenv = probe_pyenv(python, env, runner, min(timeout, 30.0))
        if pyenv.error is not None:
            errors.append(pyenv.error)
        site_dirs = pyenv.python.site_packages if pyenv.python else ()
        build_info = read_build_info(site_dirs)
        libs_future = pool.submit(
            _guard,
            "cuda_libs",
            lambda: probe_cuda_libs(site_dirs, build_info, env, runner, timeout=min(timeout, 15.0)),
            errors,
        )
        platform = _guard(
            "platform", lambda: probe_platform(env, pyenv.machine, pyenv.rosetta, runner), errors
        )
        note("probing the NVIDIA driver and CUDA libraries")
        driver = driver_future.result()
        cpu = cpu_future.result()
        cuda_libs = libs_future.result()
        tensorflow = (
            tf_future.result()
            if tf_future is not None
            else TensorFlowFacts(status="skipped", interpreter=python)
        )
    return Facts(
        tfdoctor_version=__version__,
        collected_at=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        python=pyenv.python,
        platform=platform,
        cpu=cpu,
        packages=pyenv.packages,
        driver=driver,
        cuda_libs=cuda_libs,
        tensorflow=tensorflow,
        environment=select_environment(env),
        errors=tuple(sorted(errors, key=lambda e: e.probe)),
    )


def load_facts(path: str) -> Facts:
    """Facts from a saved ``--json`` report (or bare facts document); DoctorError if unusable."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DoctorError(f"cannot read facts file {path}: {exc}") from exc
    try:
        data = json.loads(text)
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
) -> Report:
    """Facts (probed, or loaded from ``options.facts_file``) judged by the selected checks."""
    try:
        checks = select_checks(options.check_ids)
    except UnknownCheckError as exc:
        raise DoctorError(str(exc)) from exc
    if options.timeout <= 0:
        raise DoctorError(f"--timeout must be positive, got {options.timeout:g}")
    matrix = open_matrix(options.matrix, env)
    if options.facts_file is not None:
        facts = load_facts(options.facts_file)
    else:
        if not (shutil.which(options.python) or Path(options.python).is_file()):
            raise DoctorError(f"--python {options.python}: no such interpreter")
        facts = collect_facts(
            options.python, options.static, options.timeout, env, runner, progress
        )
    return Report(facts=facts, findings=run_checks(CheckContext(facts, matrix), checks))


def open_matrix(path: Optional[str] = None, env: Optional[Mapping[str, str]] = None) -> Matrix:
    """The matrix at ``path`` / ``$TFDOCTOR_MATRIX`` / bundled; DoctorError when unusable."""
    try:
        return load_matrix(path, env)
    except MatrixError as exc:
        raise DoctorError(str(exc)) from None


def list_checks() -> Sequence[tuple[str, str]]:
    """(id, title) of every registered check, in order."""
    return [(c.id, c.title) for c in CHECKS]


def query_matrix(
    path: Optional[str] = None,
    *,
    python: Optional[str] = None,
    platform: Optional[str] = None,
    cuda: Optional[str] = None,
    driver: Optional[str] = None,
    gpu: Optional[str] = None,
    env: Optional[Mapping[str, str]] = None,
) -> tuple[Matrix, Target, tuple[Verdict, ...], bool]:
    """The matrix, the target asked about, every line's verdict, and whether anything was asked.

    A query about Python without ``--platform`` is about this machine's platform.
    """
    matrix = open_matrix(path, env)
    asked = any(v is not None for v in (python, platform, cuda, driver, gpu))
    if platform is None and python is not None:
        platform = platform_of(pyplatform.system(), pyplatform.machine())
    try:
        target = make_target(
            matrix, python=python, platform=platform, cuda=cuda, driver=driver, gpu=gpu
        )
    except TargetError as exc:
        raise DoctorError(str(exc)) from None
    return matrix, target, verdicts(matrix, target), asked
