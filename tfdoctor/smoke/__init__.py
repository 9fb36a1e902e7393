"""The smoke test: run TensorFlow kernels on every visible device, in a child, within a budget.

The child (``child/smoke_kernels.py``) runs in the examined interpreter and prints one event
per kernel start and finish; this module reads them as they come, reports progress, kills
the child when a kernel (or TensorFlow's import) runs past its budget, and turns what it
saw into :class:`~tfdoctor.facts.SmokeFacts`. It never raises for what the child does.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import secrets
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Optional

from tfdoctor.defaults import DEFAULT_KERNEL_TIMEOUT
from tfdoctor.facts import SmokeFacts
from tfdoctor.probes._run import STDERR_TAIL_CHARS, run_stepped
from tfdoctor.records import Record, record
from tfdoctor.smoke.events import ChildEnd, parse_event_line, smoke_facts
from tfdoctor.smoke.memory import read_memory_held
from tfdoctor.smoke.peaks import read_cpu_peak

CHILD = Path(__file__).resolve().parent / "child" / "smoke_kernels.py"

# DEFAULT_KERNEL_TIMEOUT: seconds one kernel may take before the child is killed (a cold
# cuDNN autotune or PTX JIT of one kernel can take tens of seconds).
#: Seconds ``import tensorflow`` and device creation may take.
DEFAULT_IMPORT_TIMEOUT = 120.0
#: GPU memory the smoke test may take per GPU by default: small beside a training job.
DEFAULT_MAX_MEMORY = 2**30
LEVELS = ("quick", "full")


@record
class SmokeOptions(Record):
    """What ``tfdoctor smoke`` was asked to do."""

    python: str = sys.executable
    level: str = "quick"
    max_memory: int = DEFAULT_MAX_MEMORY
    kernel_timeout: float = DEFAULT_KERNEL_TIMEOUT
    import_timeout: float = DEFAULT_IMPORT_TIMEOUT
    #: Device names to run on (``GPU:0``, ``CPU:0``); empty means every device.
    devices: tuple[str, ...] = ()
    #: Test seams, not offered on the command line: ``tiny`` problem sizes, and faults the
    #: child injects (``{"perturb": "matmul/float32"}``, ``{"hang": "conv2d-forward/float32"}``
    #: or ``{"hang": "import/tensorflow"}`` before the import, ``{"misplace": "matmul/float32"}``
    #: pins that kernel to a device that does not exist).
    sizes: Optional[str] = None
    fault: Mapping[str, str] = dataclasses.field(default_factory=dict)


@record
class Progress(Record):
    """One step of the run, for a progress display."""

    device: str
    done: int
    total: int
    #: ``matmul/float16``, or ``done``.
    current: str


ProgressFunc = Callable[[Progress], None]


def child_env(env: Optional[Mapping[str, str]]) -> dict[str, str]:
    """The child's environment: GPU memory grows on demand instead of being reserved.

    TF_FORCE_GPU_ALLOW_GROWTH overrides the allocator's allow_growth
    (tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.h); the cap itself is a logical
    device memory limit the child sets.
    """
    out = dict(os.environ if env is None else env)
    out["TF_FORCE_GPU_ALLOW_GROWTH"] = "true"
    return out


def run_smoke(
    options: SmokeOptions,
    env: Optional[Mapping[str, str]] = None,
    progress: Optional[ProgressFunc] = None,
) -> SmokeFacts:
    """Run the smoke child in ``options.python`` and report what it measured; never raises.

    Where it planned a GPU, a second fresh child then checks, with ``env`` unchanged, that
    the user's memory-growth setting takes effect (:mod:`tfdoctor.smoke.memory`).
    """
    marker = f"=== tfdoctor smoke {secrets.token_hex(8)} ==="
    level = options.sizes or options.level
    config = {
        "level": level,
        "max_memory": options.max_memory,
        "devices": list(options.devices),
        "fault": dict(options.fault),
        "watch_parent": True,
    }
    argv = [options.python, str(CHILD), marker, json.dumps(config)]
    events, end = _stream(argv, child_env(env), marker, options, progress)
    planned = {
        d.get("device_type")
        for e in events
        if e.get("event") == "plan"
        for d in e.get("devices") or ()
        if isinstance(d, dict)
    }
    facts = smoke_facts(
        events,
        end,
        level=level,
        interpreter=options.python,
        kernel_timeout=options.kernel_timeout,
        max_memory=options.max_memory,
        # Measured after the kernels, so the FMA loop and TensorFlow do not compete.
        cpu=read_cpu_peak(measure=True) if "CPU" in planned else None,
        requested=options.devices,
    )
    if "GPU" not in planned or facts.status == "interrupted":
        return facts
    if progress is not None:
        progress(Progress("memory", 0, 1, "one op in a fresh process, your environment"))
    held = read_memory_held(options.python, env, options.import_timeout + options.kernel_timeout)
    if progress is not None:
        progress(Progress("memory", 1, 1, "done"))
    return dataclasses.replace(facts, memory_held=held)


def _stream(
    argv: list[str],
    env: Mapping[str, str],
    marker: str,
    options: SmokeOptions,
    progress: Optional[ProgressFunc],
) -> tuple[list[dict[str, Any]], ChildEnd]:
    """Run the child, collecting events; kill it when the current step overruns its budget:
    ``import tensorflow`` until the child has planned its kernels, then each kernel."""
    events: list[dict[str, Any]] = []
    tracker = _Tracker(progress)
    phase = ["import"]

    def on_line(line: str) -> Optional[float]:
        event = parse_event_line(line, marker)
        if event is None:
            return None  # TensorFlow's or the user's output: no step
        events.append(event)
        if event["event"] == "plan":
            phase[0] = "kernel"
        tracker.update(event)
        return options.kernel_timeout if phase[0] == "kernel" else options.import_timeout

    # stdin kept open: the child exits by itself when this process dies (end of file).
    start = time.monotonic()
    try:
        run = run_stepped(argv, env, options.import_timeout, on_line, keep_stdin_open=True)
    except KeyboardInterrupt:
        # Ctrl-C: the child is killed already (run_stepped); what it reported stands.
        return events, ChildEnd(None, interrupted=True, seconds=time.monotonic() - start)
    result = run.result
    if result.start_error is not None:
        return [], ChildEnd(None, start_error=result.start_error, seconds=result.seconds)
    end = ChildEnd(
        returncode=result.returncode,
        signal=None if run.overran else result.signal_name,
        killed=phase[0] if run.overran else None,
        seconds=result.seconds,
        stderr_tail=result.stderr_tail(STDERR_TAIL_CHARS),
    )
    return events, end


class _Tracker:
    """Turns events into per-device progress steps."""

    def __init__(self, progress: Optional[ProgressFunc]) -> None:
        self.progress = progress
        self.totals: dict[str, int] = {}
        self.done: dict[str, int] = {}

    def update(self, event: dict[str, Any]) -> None:
        if self.progress is None:
            return
        kind = event["event"]
        if kind == "plan":
            for info in event.get("devices") or ():
                if isinstance(info, dict):
                    name = str(info.get("name"))
                    self.totals[name] = len(info.get("plan") or ())
                    self.done[name] = 0
                    self.progress(Progress(name, 0, self.totals[name], "waiting"))
            return
        device = str(event.get("device"))
        if device not in self.totals:
            return
        if kind == "kernel-start":
            label = f"{event.get('kernel')}/{event.get('dtype')}"
            self.progress(Progress(device, self.done[device], self.totals[device], label))
        elif kind == "kernel-done":
            self.done[device] += 1
            self.progress(Progress(device, self.done[device], self.totals[device], "…"))
        elif kind == "device-done":
            self.progress(Progress(device, self.totals[device], self.totals[device], "done"))


_UNITS = {"": 1, "b": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_size(text: str) -> int:
    """Bytes in ``512MiB``, ``2GiB``, ``1g``, ``1073741824``; ValueError for anything else."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?\s*", text.lower())
    if match is None:
        raise ValueError(f"{text!r} is not a size such as 512MiB or 2GiB")
    return int(float(match.group(1)) * _UNITS[match.group(2)])
