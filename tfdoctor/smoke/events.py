"""Turn the smoke child's event lines into :class:`SmokeFacts`: the pure half of the smoke test.

The child prints ``MARKER {json}`` lines (see ``child/smoke_kernels.py``). Whatever happened
to the child (finished, killed at its budget, died of a signal), the events it managed to
print say which kernels ran, which one was running, and which never started.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Optional

from tfdoctor.facts import SmokeDevice, SmokeFacts, SmokeResult
from tfdoctor.records import Record, record
from tfdoctor.smoke.peaks import CpuPeak, GpuCounts, device_peaks, peak_for


@record
class ChildEnd(Record):
    """How the child process ended, as the parent saw it."""

    returncode: Optional[int]
    #: ``SIGSEGV`` ... when a signal (or a Windows crash status) ended it.
    signal: Optional[str] = None
    #: Killed by the parent: ``import`` (TensorFlow's import ran past its budget) or
    #: ``kernel`` (one kernel did).
    killed: Optional[str] = None
    seconds: float = 0.0
    stderr_tail: str = ""
    start_error: Optional[str] = None
    #: Ctrl-C ended the run (the parent killed the child): nothing about the rest is known.
    interrupted: bool = False


def parse_event_line(line: str, marker: str) -> Optional[dict[str, Any]]:
    """The event on one stdout line, or None for anything else TensorFlow or user code printed."""
    if not line.startswith(marker + " "):
        return None
    try:
        doc = json.loads(line[len(marker) + 1 :])
    except ValueError:
        return None
    return doc if isinstance(doc, dict) and isinstance(doc.get("event"), str) else None


def parse_events(stdout: str, marker: str) -> list[dict[str, Any]]:
    """Every event in the child's stdout, in order."""
    return [e for e in (parse_event_line(line, marker) for line in stdout.splitlines()) if e]


def _float(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _text(value: Any) -> Optional[str]:
    return None if value is None else str(value)


def _result(doc: dict[str, Any], peak: Optional[float]) -> SmokeResult:
    throughput = _float(doc.get("throughput"))
    ok = doc.get("ok")
    return SmokeResult(
        kernel=str(doc.get("kernel", "")),
        dtype=str(doc.get("dtype", "")),
        device=str(doc.get("device", "")),
        placed_on=_text(doc.get("placed_on")),
        ok=ok if isinstance(ok, bool) else None,
        max_abs_error=_float(doc.get("max_abs_error")),
        tolerance=_float(doc.get("tolerance")),
        seconds=_float(doc.get("seconds")),
        flops=_float(doc.get("flops")),
        throughput=throughput,
        peak=peak,
        fraction_of_peak=None if throughput is None or not peak else throughput / peak,
        status=str(doc.get("status") or "ok"),
        error=_text(doc.get("error")),
        size=str(doc.get("size") or ""),
        note=str(doc.get("note") or ""),
    )


def smoke_facts(
    events: Sequence[dict[str, Any]],
    end: ChildEnd,
    *,
    level: str,
    interpreter: str,
    kernel_timeout: float,
    max_memory: int,
    cpu: Optional[CpuPeak] = None,
    requested: Sequence[str] = (),
) -> SmokeFacts:
    """Classify one run of the smoke child into facts; ``requested``: the ``--device`` names."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        by_kind.setdefault(str(event["event"]), []).append(event)
    started = next(iter(by_kind.get("start", [])), None)
    imported = next(iter(by_kind.get("imported", [])), None)
    plan = next(iter(by_kind.get("plan", [])), None)
    finished = bool(by_kind.get("done"))
    common: dict[str, Any] = {
        "level": level,
        "interpreter": interpreter,
        "kernel_timeout": kernel_timeout,
        "max_memory": max_memory,
        "returncode": end.returncode,
        "seconds": round(end.seconds, 3),
        "stderr_tail": end.stderr_tail,
        "signal": end.signal,
        "requested_devices": tuple(requested),
        "pid": None if started is None else _int(started.get("pid")),
    }
    if imported is not None:
        common["tf_version"] = _text(imported.get("tf_version"))
        common["import_seconds"] = _float(imported.get("seconds"))
    if plan is not None:
        common["runtime_seconds"] = _float(plan.get("runtime_seconds"))
        common["listed_devices"] = _names(plan.get("listed"))
        common["unmatched_devices"] = _names(plan.get("unmatched"))

    # The kernel that started last without finishing is the one that hung or crashed.
    running: Optional[dict[str, Any]] = None
    done_keys = {(e.get("device"), e.get("kernel"), e.get("dtype")) for e in _done(events)}
    for event in by_kind.get("kernel-start", []):
        if (event.get("device"), event.get("kernel"), event.get("dtype")) not in done_keys:
            running = event
    if running is not None and not finished:
        common["failed_kernel"] = f"{running.get('kernel')}/{running.get('dtype')}"
        common["failed_device"] = _text(running.get("device"))

    if end.start_error is not None:
        status = "child-error"
        common["error_message"] = f"could not start {interpreter}: {end.start_error}"
    elif by_kind.get("import-error"):
        status = "import-error"
        common["error_message"] = _text(by_kind["import-error"][0].get("error"))
    elif end.interrupted:
        status = "interrupted"
        common["error_message"] = "interrupted (Ctrl-C); the kernels not finished were not judged"
    elif end.killed is not None:
        status = "timeout"
        if end.killed == "import" or plan is None:
            common["error_message"] = "TensorFlow did not start within the budget; killed"
        else:
            common["error_message"] = (
                f"{common.get('failed_kernel', 'a kernel')} on "
                f"{common.get('failed_device', 'a device')} ran past {kernel_timeout:g} s; killed"
            )
    elif end.signal is not None:
        status = "signal"
        common["error_message"] = f"the child died of {end.signal}"
    elif finished:
        status = "ok"
    else:
        status = "child-error"
        common["error_message"] = f"the child stopped early (exit status {end.returncode})"

    crashed_status = status if status in ("timeout", "interrupted") else "crashed"
    devices = _devices(plan, events, running, crashed_status, cpu) if plan else ()
    return SmokeFacts(status=status, devices=devices, **common)


def _names(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _done(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e.get("event") == "kernel-done"]


def _gpu_counts(info: dict[str, Any]) -> GpuCounts:
    """What the child read from the CUDA driver for one GPU."""
    khz = _int(info.get("max_clock_khz"))
    return GpuCounts(
        compute_capability=_text(info.get("compute_capability")),
        sm_count=_int(info.get("sm_count")),
        max_clock_mhz=None if khz is None else khz / 1000.0,
        error=_text(info.get("sm_error")),
    )


def _devices(
    plan: dict[str, Any],
    events: Sequence[dict[str, Any]],
    running: Optional[dict[str, Any]],
    crashed_status: str,
    cpu: Optional[CpuPeak],
) -> tuple[SmokeDevice, ...]:
    done = {(e.get("device"), e.get("kernel"), e.get("dtype")): e for e in _done(events)}
    memory = {e.get("device"): e for e in events if e.get("event") == "device-done"}
    out = []
    for info in plan.get("devices") or ():
        if not isinstance(info, dict):
            continue
        name = str(info.get("name", ""))
        device_type = str(info.get("device_type", ""))
        tf32 = bool(info.get("tf32"))
        counts = _gpu_counts(info) if device_type == "GPU" else None
        found = device_peaks(device_type, _text(info.get("model")), cpu, counts)
        results = []
        for kernel, dtype in (tuple(p) for p in info.get("plan") or ()):
            key = (name, kernel, dtype)
            peak = peak_for(found.peaks, kernel, dtype, tf32)
            if key in done:
                results.append(_result(done[key], peak))
                continue
            is_running = (
                running is not None
                and (
                    running.get("device"),
                    running.get("kernel"),
                    running.get("dtype"),
                )
                == key
            )
            results.append(
                SmokeResult(
                    kernel=kernel,
                    dtype=dtype,
                    device=name,
                    peak=peak,
                    status=crashed_status if is_running else "not-run",
                )
            )
        used = memory.get(name, {})
        on_cpu = device_type == "CPU"
        out.append(
            SmokeDevice(
                name=name,
                device_type=device_type,
                model=found.model,
                compute_capability=_text(info.get("compute_capability")),
                tf32=tf32,
                peaks=found.peaks,
                peak_source=found.source,
                peak_basis=found.basis,
                sm_count=counts.sm_count if counts else None,
                max_clock_mhz=counts.max_clock_mhz if counts else None,
                memory_limit=_int(info.get("memory_limit")),
                memory_growth=info.get("memory_growth")
                if isinstance(info.get("memory_growth"), bool)
                else None,
                memory_setup_error=_text(info.get("memory_setup_error")),
                memory_peak=_int(used.get("memory_peak")),
                cpu_affinity=_int(used.get("cpu_affinity")) if on_cpu else None,
                cpu_quota=cpu.quota if on_cpu and cpu is not None else None,
                cpu_peak=cpu.detail if on_cpu and cpu is not None else None,
                cpu_busy_others=_float(used.get("cpu_busy_others")) if on_cpu else None,
                results=tuple(results),
            )
        )
    return tuple(out)
