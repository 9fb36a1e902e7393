"""Measure the CPU's float32 peak and clock: ``child/fma_loop.py`` in a child process.

The derived peak needs the clock the cores run at, which neither ``/proc/cpuinfo`` (often the
base clock in a virtual machine) nor a missing cpufreq gives, and a FLOP-per-cycle figure
that only a table knows. The child measures both: an FMA loop on every usable CPU at once,
and a dependent-add chain for the clock. It runs machine code, so it runs in its own process
(a fault there ends that process, not the smoke test or tfdoctor), in tfdoctor's interpreter
(it needs nothing but the standard library), after the kernels, so they do not compete.
:func:`read_fma` runs it; the pure :func:`parse_fma` reads its output.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.probes._run import CommandResult, Runner, run_command
from tfdoctor.records import Record, record

CHILD = Path(__file__).resolve().parent / "child" / "fma_loop.py"
#: Seconds the child may take; it needs well under one on any machine.
FMA_TIMEOUT = 30.0


@record
class FmaMeasurement(Record):
    """What the FMA child measured, or why it measured nothing."""

    #: The widest FMA loop's float32 FLOP/s over its threads (CPU time: the cores' speed),
    #: and the kernel (``fma512``, ``fma256``) that reached it.
    flops: Optional[float] = None
    kernel: Optional[str] = None
    #: FLOP/s the same run reached in wall time, with whatever else ran beside it.
    wall_flops: Optional[float] = None
    threads: Optional[int] = None
    #: The all-core clock (Hz): cycles per CPU second of a dependent-add chain.
    clock_hz: Optional[float] = None
    error: Optional[str] = None


def fma_kernels(flags: set[str]) -> tuple[str, ...]:
    """The FMA loops this CPU's flags allow, widest first (``vfmadd231ps`` needs FMA3 and AVX;
    the 512-bit one AVX-512F)."""
    kernels = []
    if "avx512f" in flags:
        kernels.append("fma512")
    if "fma" in flags and "avx" in flags:
        kernels.append("fma256")
    return tuple(kernels)


def fma_threads(usable: Optional[int], quota: Optional[float]) -> int:
    """Threads to load: every CPU this process may use, at most the quota's worth (rounded up)."""
    threads = usable or 1
    if quota is not None:
        threads = min(threads, max(1, math.ceil(quota)))
    return max(1, threads)


def parse_fma(result: CommandResult) -> FmaMeasurement:
    """The measurement in the child's output; an error naming what went wrong otherwise."""
    if result.start_error is not None:
        return FmaMeasurement(error=f"could not start {result.argv[0]}: {result.start_error}")
    if result.timed_out:
        return FmaMeasurement(error=f"the FMA loop ran past {result.seconds:.0f} s; killed")
    if result.signal_name is not None:
        return FmaMeasurement(error=f"the FMA loop died of {result.signal_name}")
    lines = result.stdout.strip().splitlines()
    try:
        doc = json.loads(lines[-1]) if lines else None
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        tail = result.stderr_tail(300) or f"exit status {result.returncode}"
        return FmaMeasurement(error=f"the FMA loop printed no result: {tail}")
    clock = _object(doc.get("clock"))
    # The kernel that reached the most: the widest one the cores run at full rate.
    kernel: Optional[str] = None
    run: dict[str, Any] = {}
    for key, value in sorted(_object(doc.get("kernels")).items()):
        if (_positive(_object(value).get("flops")) or 0) > (_positive(run.get("flops")) or 0):
            kernel, run = str(key), _object(value)
    error = doc.get("error")
    if kernel is None and error is None:
        error = "the FMA loop ran no kernel"
    threads = run.get("threads", doc.get("threads"))
    return FmaMeasurement(
        flops=_positive(run.get("flops")),
        kernel=kernel,
        wall_flops=_positive(run.get("wall_flops")),
        threads=threads if isinstance(threads, int) and not isinstance(threads, bool) else None,
        clock_hz=_positive(clock.get("hz")),
        error=None if error is None else str(error),
    )


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _positive(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if value > 0 and math.isfinite(value) else None


def read_fma(
    kernels: Sequence[str],
    threads: int,
    python: str = sys.executable,
    runner: Runner = run_command,
) -> FmaMeasurement:
    """Run the FMA child for ``kernels`` on ``threads`` threads; never raises.

    Only where it can run: Linux on x86-64 with an FMA kernel the flags allow.
    """
    if not sys.platform.startswith("linux"):
        return FmaMeasurement(error=f"the FMA loop runs on Linux only, not {sys.platform}")
    if not kernels:
        return FmaMeasurement(
            error="no FMA loop for this CPU: the loops are x86-64 FMA3 and AVX-512 machine code"
        )
    config = json.dumps({"threads": threads, "kernels": list(kernels)})
    return parse_fma(runner([python, str(CHILD), config], None, FMA_TIMEOUT))
