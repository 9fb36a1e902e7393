"""The smoke test's measurements as plain lines: one table per device. Formatting only."""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor.facts import SmokeDevice, SmokeFacts, SmokeResult

#: The columns of a device's kernel table (:func:`result_cells`).
RESULT_HEADER = (
    "kernel",
    "dtype",
    "ran on",
    "result",
    "error / tol",
    "time",
    "throughput",
    "of peak",
)
#: The text table's peak line keeps this many characters; the JSON has the whole source.
PEAK_SOURCE_CHARS = 100
_PARENS = re.compile(r"\s*\([^()]*\)")


def short_source(source: str) -> str:
    """A peak source without its parenthesised explanations, cut to one line."""
    short = source
    while True:
        shorter = _PARENS.sub("", short)
        if shorter == short:
            break
        short = shorter
    short = " ".join(short.split())
    if len(short) > PEAK_SOURCE_CHARS:
        short = short[: PEAK_SOURCE_CHARS - 1].rstrip() + "\u2026"
    return short


def rate(flops: Optional[float]) -> str:
    if flops is None:
        return "-"
    if flops >= 1e12:
        return f"{flops / 1e12:.1f} TFLOP/s"
    return f"{flops / 1e9:.1f} GFLOP/s"


def _seconds(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    if seconds < 1.0:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def _verdict(result: SmokeResult) -> str:
    if result.status != "ok":
        return result.status.upper() if result.status != "not-run" else "not run"
    return {True: "ok", False: "WRONG", None: "-"}[result.ok]


def _above_peak(result: SmokeResult) -> bool:
    return result.fraction_of_peak is not None and result.fraction_of_peak > 1.0


def result_cells(device: SmokeDevice, result: SmokeResult) -> tuple[str, ...]:
    """One kernel's row of its device's table, as the cells :data:`RESULT_HEADER` names."""
    placed = "-" if result.placed_on is None else result.placed_on.replace("/device:", "")
    if result.placed_on is not None and result.placed_on != result.device:
        placed += " (!)"
    error = "-"
    if result.max_abs_error is not None and result.tolerance is not None:
        error = f"{result.max_abs_error:.1e} / {result.tolerance:.1e}"
    fraction = "-"
    if result.fraction_of_peak is not None:
        # Above 1 the peak is a lower bound: no percentage of it, a mark the note explains.
        fraction = ">100% *" if _above_peak(result) else f"{result.fraction_of_peak:.0%}"
    return (
        result.kernel,
        result.dtype,
        placed,
        _verdict(result),
        error,
        _seconds(result.seconds),
        rate(result.throughput),
        fraction,
    )


def smoke_lines(smoke: SmokeFacts) -> list[str]:
    """The smoke test as plain lines: status, then per device its peak and a kernel table."""
    level = f"{smoke.level} level"
    version = f"TensorFlow {smoke.tf_version}" if smoke.tf_version else "TensorFlow"
    took = "" if smoke.seconds is None else f", {smoke.seconds:.1f} s"
    lines = [f"  {version}, {level}, status {smoke.status}{took}"]
    if smoke.import_seconds is not None:
        lines.append(f"  import tensorflow: {smoke.import_seconds:.2f} s")
    if smoke.error_message:
        lines.append(f"  {smoke.error_message}")
    if smoke.unmatched_devices:
        lines.append(
            f"  asked for {', '.join(smoke.unmatched_devices)}; TensorFlow lists "
            f"{', '.join(smoke.listed_devices) or 'no device'}"
        )
    for device in smoke.devices:
        title = f"  {device.name}"
        if device.model:
            title += f": {device.model}"
        if device.compute_capability:
            title += f" (compute capability {device.compute_capability})"
        lines.append(title)
        lines.append(f"    peak: {short_source(device.peak_source or 'unknown')}")
        if device.peaks:
            peaks = ", ".join(f"{k} {rate(v)}" for k, v in sorted(device.peaks.items()))
            lines.append(f"    peaks: {peaks}")
        if device.sm_count is not None and device.max_clock_mhz is not None:
            lines.append(f"    SMs: {device.sm_count}, max SM clock {device.max_clock_mhz:g} MHz")
        if device.device_type == "GPU":
            cap = "unknown" if device.memory_limit is None else f"{device.memory_limit / 2**20:.0f}"
            peak = "unknown" if device.memory_peak is None else f"{device.memory_peak / 2**20:.0f}"
            growth = {True: "on", False: "off", None: "unknown"}[device.memory_growth]
            lines.append(f"    memory: cap {cap} MiB, growth {growth}, peak used {peak} MiB")
            if device.memory_setup_error:
                lines.append(f"    memory cap not set: {device.memory_setup_error}")
        if device.cpu_affinity is not None:
            quota = "" if device.cpu_quota is None else f", cgroup quota {device.cpu_quota:g}"
            others = (
                "unknown"
                if device.cpu_busy_others is None
                else f"{device.cpu_busy_others:.1f} CPUs busy"
            )
            lines.append(
                f"    CPUs: {device.cpu_affinity} usable{quota}; other processes meanwhile: "
                f"{others}"
            )
        rows = [RESULT_HEADER] + [result_cells(device, r) for r in device.results]
        widths = [max(len(row[i]) for row in rows) for i in range(len(RESULT_HEADER))]
        for row in rows:
            cells = [cell.ljust(widths[i]) for i, cell in enumerate(row)]
            lines.append(("    " + "  ".join(cells)).rstrip())
        if any(_above_peak(r) for r in device.results):
            lines.append(
                "    * faster than the peak: the peak is a lower bound here, not a ceiling"
            )
        notes = [r for r in device.results if r.note or r.error]
        for result in notes:
            text = "; ".join(t for t in (result.error or "", result.note) if t)
            lines.append(f"    {result.kernel}/{result.dtype}: {text}")
    return lines
