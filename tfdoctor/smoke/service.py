"""``tfdoctor smoke``'s service: check the options, run the kernels, judge the result."""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from typing import Optional

from tfdoctor import __version__
from tfdoctor.checks import SMOKE_COMMAND, run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import Facts
from tfdoctor.findings import Report
from tfdoctor.inputs import DoctorError, require_python
from tfdoctor.probes.nvidia import probe_driver
from tfdoctor.smoke import LEVELS, ProgressFunc, SmokeOptions, run_smoke


def validate_smoke(options: SmokeOptions) -> None:
    """DoctorError for smoke options that cannot work."""
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
    validate_smoke(options)
    # The driver's GPU count (NVML, else nvidia-smi; well under a second) tells a smoke test
    # that found no GPU from one on a machine without any.
    try:
        driver = probe_driver(env, timeout=15.0)
    except Exception:  # a probe that crashes costs the count, never the test
        driver = None
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
