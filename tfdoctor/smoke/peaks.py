"""Peak FLOP/s per device and precision: a data-sheet table for GPUs, derivations otherwise.

GPU figures are NVIDIA's, dense (no 2:4 sparsity): where a data sheet prints only the
sparse figure (marked "with sparsity"), the dense one is half of it, as its footnote says.
A GPU missing from the table gets a derived non-tensor float32 peak (SMs x FP32 results per
clock per SM x 2 x maximum SM clock) where its compute capability is in the CUDA guide's
throughput table; any other model or precision has no peak, so its fraction of peak stays
unknown rather than guessed. A CPU's peak is the higher of two figures, each with its source
named: cores x clock x FLOP per cycle for its microarchitecture (:mod:`tfdoctor.smoke.microarch`)
and what an FMA loop measured on its cores (:mod:`tfdoctor.smoke.fma`).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Optional

from tfdoctor.facts import CpuPeakFacts
from tfdoctor.gpus import GpuPeak, gpu_data
from tfdoctor.records import Record, record
from tfdoctor.smoke.fma import FmaMeasurement, fma_kernels, fma_threads, read_fma
from tfdoctor.smoke.microarch import find_microarchitecture, flops_from_flags, identify

GIGA = 1e9


def gpu_peak(name: Optional[str]) -> Optional[GpuPeak]:
    """The data-sheet row for a GPU named as TensorFlow names it, or None."""
    return gpu_data().peak(name)


def gpu_peak_source(row: GpuPeak) -> str:
    """How a GPU's peaks were derived, for the facts."""
    return f"NVIDIA data sheet for {row.label} (dense, no sparsity): {row.source}"


# --- GPUs not in the table: SMs x FP32 results per clock per SM x 2 x clock ----------------


def fp32_results_per_clock(capability: Optional[str]) -> Optional[int]:
    """FP32 add/multiply/FMA results per clock per SM for a ``major.minor`` capability, from
    the CUDA guide's arithmetic instructions table (``data/gpus.yaml``); a multiply-add
    result counts two FLOP."""
    if not capability or not re.fullmatch(r"[0-9]+\.[0-9]+", capability):
        return None
    major = capability.split(".")[0]
    columns = gpu_data().fp32_results_per_clock
    exact = columns.get(capability)
    return exact if exact is not None else columns.get(f"{major}.x")


@record
class GpuCounts(Record):
    """What the CUDA driver reported for one GPU: what a derived peak is built from."""

    compute_capability: Optional[str]
    sm_count: Optional[int]
    #: CU_DEVICE_ATTRIBUTE_CLOCK_RATE, the maximum SM clock, in MHz.
    max_clock_mhz: Optional[float]
    #: Why the counts could not be read (driver missing, a call failed, no match).
    error: Optional[str] = None


@record
class DerivedPeak(Record):
    """A derived non-tensor float32 peak (None when it cannot be derived) and why."""

    flops: Optional[float]
    source: str


def derive_gpu_peak(counts: GpuCounts) -> DerivedPeak:
    """SMs x FP32 results per clock per SM x 2 FLOP x maximum SM clock, with its source.

    Non-tensor float32 only: TF32, float16 and bfloat16 run on tensor cores at rates the
    table does not give, so they stay table-only. The clock is the maximum the driver
    reports; GeForce boards from different makers boost to different clocks.
    """
    if counts.error:
        return DerivedPeak(
            None, f"the CUDA driver's SM count and clock are unknown: {counts.error}"
        )
    per_sm = fp32_results_per_clock(counts.compute_capability)
    if per_sm is None:
        return DerivedPeak(
            None,
            f"compute capability {counts.compute_capability or 'unknown'} has no column in the "
            f"CUDA C++ Programming Guide's arithmetic instructions table "
            f"({gpu_data().fp32_source})",
        )
    if not counts.sm_count or not counts.max_clock_mhz:
        return DerivedPeak(None, "the CUDA driver reported no SM count or clock")
    flops = counts.sm_count * per_sm * 2 * counts.max_clock_mhz * 1e6
    source = (
        f"derived: {counts.sm_count} SMs \u00d7 {per_sm} FP32 FMA/clk/SM \u00d7 2 \u00d7 "
        f"{counts.max_clock_mhz:g} MHz (CUDA C++ Programming Guide, arithmetic instructions "
        f"table, compute capability {counts.compute_capability}: {gpu_data().fp32_source}); "
        "non-tensor float32 at the maximum SM clock the CUDA driver reports (GeForce boost "
        "clocks vary by board)"
    )
    return DerivedPeak(flops, source)


# --- CPUs ----------------------------------------------------------------------------------

CLOCK_WHY = {
    "measured": "measured: a dependent-add chain on every usable CPU at once",
    "cpufreq": "maximum boost clock from cpufreq (cpuinfo_max_freq)",
    "model-name": "base clock from the model name (boost runs higher)",
    "cpuinfo": "the clock /proc/cpuinfo shows: often the base clock, notably in a virtual "
    "machine, while the cores run faster",
}


@record
class CpuPeak(Record):
    """A CPU's float32 peak, how it was found, and what it was chosen from."""

    model: Optional[str]
    flops: Optional[float]
    source: str
    #: The cgroup CPU quota in CPUs the peak was capped at; None: no quota, or unknown.
    quota: Optional[float] = None
    #: ``derived`` or ``measured`` (the FMA loop beat the derivation); None without a peak.
    basis: Optional[str] = None
    detail: CpuPeakFacts = dataclasses.field(default_factory=CpuPeakFacts)


def _fields(block: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in block.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            out.setdefault(key.strip().lower(), value.strip())
    return out


def _rate(flops: float) -> str:
    return f"{flops / GIGA:.1f} GFLOP/s"


def _clock(
    model: Optional[str],
    listed_hz: Optional[float],
    max_freq_khz: Optional[int],
    measured: Optional[FmaMeasurement],
) -> tuple[Optional[float], Optional[str]]:
    """The clock to derive with, best first: measured, cpufreq, model name, /proc/cpuinfo."""
    if measured is not None and measured.clock_hz:
        return measured.clock_hz, "measured"
    if max_freq_khz:
        return max_freq_khz * 1e3, "cpufreq"
    match = re.search(r"@\s*([0-9.]+)\s*GHz", model or "")
    if match:
        return float(match.group(1)) * GIGA, "model-name"
    if listed_hz:
        return listed_hz, "cpuinfo"
    return None, None


def cpu_peak(
    cpuinfo: str,
    max_freq_khz: Optional[int] = None,
    usable_cpus: Optional[int] = None,
    quota: Optional[float] = None,
    measured: Optional[FmaMeasurement] = None,
) -> CpuPeak:
    """The float32 peak of the CPU in ``/proc/cpuinfo`` text, the cpufreq maximum, the CPUs
    this process may use, its cgroup CPU quota and a measured FMA loop.

    Derived: cores x clock x FLOP per cycle, the FLOP per cycle from the microarchitecture
    table (:mod:`tfdoctor.smoke.microarch`), the clock measured where the FMA child ran. The
    peak is the derived figure or the measured one, whichever is higher: a derivation below
    what the CPU measurably does is wrong (a base clock, a table figure that is a lower bound).
    """
    blocks = [_fields(b) for b in re.split(r"\n\s*\n", cpuinfo) if b.strip()]
    procs = [b for b in blocks if "processor" in b]
    first = procs[0] if procs else (blocks[0] if blocks else {})
    model = first.get("model name") or first.get("cpu model") or None
    flags = set((first.get("flags") or first.get("features") or "").split())
    logical = len(procs) or 1
    cores_seen = {(b.get("physical id", "0"), b.get("core id")) for b in procs if "core id" in b}
    physical = len(cores_seen) or logical
    # SMT siblings share the FMA units: count cores, scaled to the CPUs we may run on.
    usable = usable_cpus if usable_cpus is not None else logical
    cores: float = max(1, min(physical, round(physical * usable / logical)))
    quota_why = ""
    if quota is not None and quota < cores:
        # A quota of N CPUs lets the process's threads run N CPU-seconds per second, on at
        # most N cores at a time (the kernel's CFS bandwidth control, sched-bwc.rst).
        cores, quota_why = quota, f", capped at the cgroup CPU quota of {quota:g} CPUs"

    row = find_microarchitecture(identify(first))
    estimate = None if row is not None else flops_from_flags(flags)
    per_cycle = row.flops_per_cycle if row else (estimate.flops_per_cycle if estimate else None)
    mhz = [float(b["cpu mhz"]) for b in procs if _is_number(b.get("cpu mhz", ""))]
    listed_hz = max(mhz) * 1e6 if mhz else None
    hz, clock_source = _clock(model, listed_hz, max_freq_khz, measured)
    derived = cores * hz * per_cycle if hz and per_cycle else None

    measured_flops = None
    if measured is not None and measured.flops:
        measured_flops = measured.flops
        threads = measured.threads or 1
        if quota is not None and quota < threads:
            measured_flops *= quota / threads
    detail = CpuPeakFacts(
        microarchitecture=row.name if row else None,
        flops_per_cycle=per_cycle,
        vector_units=row.units if row else (estimate.units if estimate else ""),
        sources=row.sources if row else (),
        lower_bound=row.lower_bound if row else (estimate.lower_bound if estimate else ""),
        cores=float(cores),
        clock_hz=hz,
        clock_source=clock_source,
        listed_clock_hz=listed_hz,
        derived_flops=derived,
        measured_flops=measured_flops,
        measured_kernel=measured.kernel if measured else None,
        measured_threads=measured.threads if measured else None,
        measured_wall_flops=measured.wall_flops if measured else None,
        measure_error=measured.error if measured else "the FMA loop was not run",
    )
    derivation = _derivation(detail, quota_why)
    if measured_flops is not None and (derived is None or measured_flops > derived):
        assert measured is not None
        found = (
            f"measured: {_rate(measured_flops)} ({measured.kernel} FMA loop on "
            f"{measured.threads} threads, per CPU second, best of 3 runs); "
        )
        if derived is None:
            found += f"no derived peak: {derivation}"
        else:
            found += f"derived only {_rate(derived)}: {derivation}, which understates this CPU"
        return CpuPeak(model, measured_flops, found, quota, "measured", detail)
    if derived is None:
        text = f"{derivation}; {_measured_text(detail, None)}"
        return CpuPeak(model, None, text, quota, None, detail)
    source = f"derived: {derivation}; {_measured_text(detail, derived)}"
    return CpuPeak(model, derived, source, quota, "derived", detail)


def _derivation(detail: CpuPeakFacts, quota_why: str) -> str:
    """cores x clock x FLOP/cycle in words, or why it cannot be derived."""
    if detail.flops_per_cycle is None:
        return "no known vector unit in the CPU flags"
    if detail.clock_hz is None or detail.clock_source is None:
        return "no clock frequency found"
    clock_why = CLOCK_WHY[detail.clock_source]
    if detail.clock_source == "measured" and detail.listed_clock_hz:
        clock_why += f"; /proc/cpuinfo shows {detail.listed_clock_hz / GIGA:.2f} GHz"
    units = detail.vector_units
    if detail.lower_bound:
        units += f"; a lower bound: {detail.lower_bound}"
    return (
        f"{detail.microarchitecture or 'microarchitecture unknown'}, {detail.cores:g} cores"
        f"{quota_why} x {detail.clock_hz / GIGA:.2f} GHz ({clock_why}) x "
        f"{detail.flops_per_cycle} float32 FLOP/cycle ({units})"
    )


def _measured_text(detail: CpuPeakFacts, derived: Optional[float]) -> str:
    """What the FMA loop measured, beside a derived peak it did not beat."""
    if detail.measured_flops is None:
        return f"not measured: {detail.measure_error or 'unknown why'}"
    text = f"measured {_rate(detail.measured_flops)} ({detail.measured_kernel} FMA loop"
    if derived is not None:
        text += f", {detail.measured_flops / derived:.0%} of it"
    return text + ")"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_cpu_peak(root: str = "/", measure: bool = False) -> CpuPeak:
    """:func:`cpu_peak` for this machine (Linux files; elsewhere the peak is unknown), with the
    FMA child's measurement where ``measure`` asks for it."""
    base = Path(root)
    try:
        cpuinfo = (base / "proc" / "cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return CpuPeak(None, None, f"cannot read /proc/cpuinfo: {exc}")
    max_khz: Optional[int] = None
    freq = base / "sys" / "devices" / "system" / "cpu" / "cpu0" / "cpufreq" / "cpuinfo_max_freq"
    try:
        max_khz = int(freq.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        max_khz = None
    usable: Optional[int] = None
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        usable = len(affinity(0))
    quota = read_cpu_quota(root)
    measured = None
    if measure:
        first = _fields(re.split(r"\n\s*\n", cpuinfo)[0])
        flags = set((first.get("flags") or first.get("features") or "").split())
        measured = read_fma(fma_kernels(flags), fma_threads(usable, quota))
    return cpu_peak(cpuinfo, max_khz, usable, quota, measured)


def parse_cpu_max(text: str) -> Optional[float]:
    """CPUs a cgroup v2 ``cpu.max`` (``QUOTA PERIOD``, ``max PERIOD``) allows; None: no limit.

    https://docs.kernel.org/admin-guide/cgroup-v2.html#cpu-interface-files
    """
    fields = text.split()
    if len(fields) != 2 or fields[0] == "max":
        return None
    return parse_cfs(fields[0], fields[1])


def parse_cfs(quota: str, period: str) -> Optional[float]:
    """CPUs a cgroup v1 ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` pair allows; None: no
    limit (a quota of -1). https://docs.kernel.org/scheduler/sched-bwc.html"""
    try:
        quota_us, period_us = int(quota.strip()), int(period.strip())
    except ValueError:
        return None
    if quota_us <= 0 or period_us <= 0:
        return None
    return quota_us / period_us


def _cgroup_dirs(root: Path) -> list[tuple[Path, str]]:
    """(directory, kind) of this process's CPU cgroup and its ancestors, innermost first.

    /proc/self/cgroup names the cgroup (``0::/path`` for v2, ``N:cpu,cpuacct:/path`` for v1);
    inside a container's cgroup namespace the path is usually ``/``. A limit set on any
    ancestor applies too, so every level up to the mount point counts.
    """
    try:
        lines = (root / "proc" / "self" / "cgroup").read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    mount = root / "sys" / "fs" / "cgroup"
    found: list[tuple[Path, str]] = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":
            bases, kind = [mount, mount / "unified"], "v2"
        elif "cpu" in parts[1].split(","):
            bases, kind = [mount / parts[1], mount / "cpu", mount / "cpu,cpuacct"], "v1"
        else:
            continue
        relative = [p for p in parts[2].split("/") if p]
        for base in bases:
            for depth in range(len(relative), -1, -1):
                found.append((base.joinpath(*relative[:depth]), kind))
    found.append((mount, "v2"))
    return found


def read_cpu_quota(root: str = "/") -> Optional[float]:
    """The tightest cgroup CPU quota on this process, in CPUs; None: none found."""
    limits: list[float] = []
    for directory, kind in _cgroup_dirs(Path(root)):
        try:
            if kind == "v2":
                limit = parse_cpu_max((directory / "cpu.max").read_text(encoding="ascii"))
            else:
                limit = parse_cfs(
                    (directory / "cpu.cfs_quota_us").read_text(encoding="ascii"),
                    (directory / "cpu.cfs_period_us").read_text(encoding="ascii"),
                )
        except OSError:
            continue
        if limit is not None:
            limits.append(limit)
    return min(limits) if limits else None


@record
class DevicePeaks(Record):
    """One device's model, peaks per precision, how they were found, and on what basis."""

    model: Optional[str]
    peaks: dict[str, float]
    source: str
    #: ``data-sheet`` (GPU table), ``derived`` (cores or SMs x clock x rate), ``measured`` (a
    #: CPU's FMA loop beat its derivation), None (no peak).
    basis: Optional[str]


def device_peaks(
    device_type: str,
    model: Optional[str],
    cpu: Optional[CpuPeak],
    gpu: Optional[GpuCounts] = None,
) -> DevicePeaks:
    """The peaks of one device: the CPU derivation, the GPU table, else the GPU derivation."""
    if device_type == "CPU":
        if cpu is None:
            return DevicePeaks(None, {}, "the CPU peak was not derived", None)
        if cpu.flops is None:
            return DevicePeaks(cpu.model, {}, cpu.source, None)
        return DevicePeaks(cpu.model, {"float32": cpu.flops}, cpu.source, cpu.basis)
    row = gpu_peak(model)
    if row is not None:
        return DevicePeaks(model, row.peaks(), gpu_peak_source(row), "data-sheet")
    missing = f"no data-sheet figures for {model or 'this GPU'} in tfdoctor's table"
    if gpu is None:
        return DevicePeaks(model, {}, missing, None)
    derived = derive_gpu_peak(gpu)
    if derived.flops is None:
        return DevicePeaks(model, {}, f"{missing}, and no derived peak: {derived.source}", None)
    return DevicePeaks(model, {"float32": derived.flops}, derived.source, "derived")


def peak_for(peaks: Mapping[str, float], kernel: str, dtype: str, tf32: bool) -> Optional[float]:
    """The peak that bounds one kernel: TF32 for float32 work where TensorFlow enables it.

    Where TF32 is on and no TF32 peak is known, the bound is unknown: a float32 (non-tensor)
    peak would understate what TF32 tensor cores reach.
    """
    if kernel in ("first-op", "train-step"):
        return None
    precision = "float16" if dtype == "mixed_float16" else dtype
    if precision == "float32" and tf32:
        return peaks.get("tf32")
    return peaks.get(precision)
