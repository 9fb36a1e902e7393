"""Peak FLOP/s per device and precision: a data-sheet table for GPUs, a derivation for CPUs.

GPU figures are NVIDIA's, dense (no 2:4 sparsity): where a data sheet prints only the
sparse figure (marked "with sparsity"), the dense one is half of it, as its footnote says.
A model or precision missing here has no peak, so its fraction of peak stays unknown rather
than guessed. CPU peaks are cores x clock x FLOP per cycle, each with its source named.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Optional

TERA = 1e12
GIGA = 1e9


@dataclasses.dataclass(frozen=True)
class GpuPeak:
    """One GPU model's peak TFLOP/s per precision, dense, from the cited document."""

    #: Regular expression on the name TensorFlow reports (``NVIDIA H100 80GB HBM3``).
    pattern: str
    label: str
    float32: Optional[float]
    tf32: Optional[float]
    float16: Optional[float]
    bfloat16: Optional[float]
    source: str

    def peaks(self) -> dict[str, float]:
        """FLOP/s per precision, only those the source gives."""
        values = {
            "float32": self.float32,
            "tf32": self.tf32,
            "float16": self.float16,
            "bfloat16": self.bfloat16,
        }
        return {k: v * TERA for k, v in values.items() if v is not None}


_H100 = "https://www.nvidia.com/en-us/data-center/h100/"

#: First match wins: specific names before the general ones.
GPU_PEAKS: tuple[GpuPeak, ...] = (
    # H100 PCIe: 51 FP32; TF32 756, BF16/FP16 1,513 with sparsity.
    GpuPeak(r"H100.*PCIe", "H100 PCIe", 51.0, 378.0, 756.5, 756.5, _H100),
    # H100 SXM: 67 FP32; TF32 989, BF16/FP16 1,979 with sparsity.
    GpuPeak(r"H100(?!.*NVL)", "H100 SXM", 67.0, 494.5, 989.5, 989.5, _H100),
    # H200 SXM is the H100 SXM's GH100 with HBM3e: the same compute figures.
    GpuPeak(
        r"H200(?!.*NVL)",
        "H200 SXM",
        67.0,
        494.5,
        989.5,
        989.5,
        "https://www.nvidia.com/en-us/data-center/h200/",
    ),
    GpuPeak(
        r"A100",
        "A100 (SXM4 and PCIe)",
        19.5,
        156.0,
        312.0,
        312.0,
        "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
        "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    ),
    # L40S: TF32 183 (366 sparse), BF16/FP16 362.05 (733 sparse).
    GpuPeak(
        r"L40S",
        "L40S",
        91.6,
        183.0,
        362.05,
        362.05,
        "https://www.nvidia.com/en-us/data-center/l40s/",
    ),
    # Volta: FP16 tensor cores only (no TF32, no BF16).
    GpuPeak(
        r"V100.*PCIE",
        "V100 PCIe",
        14.0,
        None,
        112.0,
        None,
        "https://images.nvidia.com/content/tesla/pdf/Tesla-V100-PCIe-Product-Brief.pdf",
    ),
    GpuPeak(
        r"V100.*SXM2",
        "V100 SXM2",
        15.0,
        None,
        120.0,
        None,
        "https://images.nvidia.com/content/volta-architecture/pdf/volta-architecture-whitepaper.pdf",
    ),
    # Turing T4: 65 TFLOPS mixed precision (FP16 multiply, FP32 accumulate).
    GpuPeak(
        r"\bT4\b",
        "T4",
        8.1,
        None,
        65.0,
        None,
        "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/"
        "t4-tensor-core-datasheet-951643.pdf",
    ),
    # HGX B200 (1,000 W): TF32 2.2 PF and FP16/BF16 4.5 PF with sparsity per GPU. The FP32
    # figure differs between NVIDIA's pages, so it is left out.
    GpuPeak(
        r"B200",
        "B200 (HGX)",
        None,
        1100.0,
        2250.0,
        2250.0,
        "https://www.nvidia.com/en-us/data-center/hgx/",
    ),
)


def gpu_peak(name: Optional[str]) -> Optional[GpuPeak]:
    """The table row for a GPU named as TensorFlow names it, or None."""
    if not name:
        return None
    for row in GPU_PEAKS:
        if re.search(row.pattern, name, re.IGNORECASE):
            return row
    return None


def gpu_peak_source(row: GpuPeak) -> str:
    """How a GPU's peaks were derived, for the facts."""
    return f"NVIDIA data sheet for {row.label} (dense, no sparsity): {row.source}"


# --- CPUs ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class CpuPeak:
    """A CPU's float32 peak and how it was derived."""

    model: Optional[str]
    flops: Optional[float]
    source: str


def _fields(block: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in block.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            out.setdefault(key.strip().lower(), value.strip())
    return out


def flops_per_cycle(vendor: str, family: Optional[int], flags: set[str]) -> tuple[int, str]:
    """float32 FLOP per cycle per core from the vector units, and why.

    An FMA counts two FLOP. Intel: AVX-512 server cores have two 512-bit FMA units
    (Intel 64 and IA-32 Architectures Optimization Reference Manual; parts with one unit reach
    half). AMD Zen 4 (family 19h with AVX-512) runs 512-bit instructions as two 256-bit halves
    on its two 256-bit FMA pipes (AMD's Zen 4 software optimization guide), so AVX-512 does
    not double its peak; Zen 5 (family 1Ah) has 512-bit pipes.
    """
    amd = vendor == "AuthenticAMD"
    if "avx512f" in flags:
        if amd and family == 0x19:
            return 32, "Zen 4: 2 FMA pipes x 8 float32 lanes x 2 (AVX-512 runs at 256-bit width)"
        if amd:
            return 64, "AVX-512: 2 FMA units x 16 float32 lanes x 2"
        return 64, "AVX-512: 2 FMA units x 16 float32 lanes x 2 (parts with one unit: half)"
    if "avx2" in flags and "fma" in flags:
        return 32, "AVX2+FMA: 2 FMA units x 8 float32 lanes x 2"
    if "avx" in flags:
        return 16, "AVX: one 8-lane add and one 8-lane multiply per cycle"
    if "asimd" in flags:
        return 16, "NEON: 2 FMA pipes x 4 float32 lanes x 2 (Neoverse N1; wider cores do more)"
    if "sse2" in flags:
        return 8, "SSE: one 4-lane add and one 4-lane multiply per cycle"
    return 0, "no known vector unit"


def cpu_peak(
    cpuinfo: str, max_freq_khz: Optional[int] = None, usable_cpus: Optional[int] = None
) -> CpuPeak:
    """Peak float32 FLOP/s from ``/proc/cpuinfo`` text, the cpufreq maximum and the CPUs
    this process may use: cores x clock x FLOP per cycle, each with its source."""
    blocks = [_fields(b) for b in re.split(r"\n\s*\n", cpuinfo) if b.strip()]
    procs = [b for b in blocks if "processor" in b]
    first = procs[0] if procs else (blocks[0] if blocks else {})
    model = first.get("model name") or first.get("cpu model") or None
    vendor = first.get("vendor_id", "")
    family_text = first.get("cpu family", "")
    family = int(family_text) if family_text.isdigit() else None
    flags = set((first.get("flags") or first.get("features") or "").split())
    logical = len(procs) or 1
    cores_seen = {(b.get("physical id", "0"), b.get("core id")) for b in procs if "core id" in b}
    physical = len(cores_seen) or logical
    # SMT siblings share the FMA units: count cores, scaled to the CPUs we may run on.
    usable = usable_cpus if usable_cpus is not None else logical
    cores = max(1, min(physical, round(physical * usable / logical)))

    per_cycle, unit_why = flops_per_cycle(vendor, family, flags)
    if max_freq_khz:
        hz, clock_why = max_freq_khz * 1e3, "maximum boost clock from cpufreq (cpuinfo_max_freq)"
    else:
        match = re.search(r"@\s*([0-9.]+)\s*GHz", model or "")
        mhz = [float(b["cpu mhz"]) for b in procs if _is_number(b.get("cpu mhz", ""))]
        if match:
            hz = float(match.group(1)) * GIGA
            clock_why = "base clock from the model name (boost runs higher)"
        elif mhz:
            hz = max(mhz) * 1e6
            clock_why = (
                "clock /proc/cpuinfo reports (often the base clock, notably in a virtual "
                "machine; boost runs higher, so measured throughput can exceed this peak)"
            )
        else:
            return CpuPeak(model, None, "no clock frequency found")
    if per_cycle == 0:
        return CpuPeak(model, None, f"no known vector unit in the CPU flags ({unit_why})")
    flops = cores * hz * per_cycle
    source = (
        f"{cores} cores x {hz / GIGA:.2f} GHz ({clock_why}) x {per_cycle} float32 FLOP/cycle "
        f"({unit_why})"
    )
    return CpuPeak(model, flops, source)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_cpu_peak(root: str = "/") -> CpuPeak:
    """:func:`cpu_peak` for this machine (Linux files; elsewhere the peak is unknown)."""
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
    return cpu_peak(cpuinfo, max_khz, usable)


def device_peaks(
    device_type: str, model: Optional[str], cpu: Optional[CpuPeak]
) -> tuple[Optional[str], dict[str, float], str]:
    """(model, peaks per precision, peak source) of one device."""
    if device_type == "CPU":
        if cpu is None:
            return None, {}, "the CPU peak was not derived"
        peaks = {} if cpu.flops is None else {"float32": cpu.flops}
        return cpu.model, peaks, cpu.source
    row = gpu_peak(model)
    if row is None:
        return model, {}, f"no data-sheet figures for {model or 'this GPU'} in tfdoctor's table"
    return model, row.peaks(), gpu_peak_source(row)


def peak_for(peaks: Mapping[str, float], kernel: str, dtype: str, tf32: bool) -> Optional[float]:
    """The peak that bounds one kernel: TF32 for float32 work where TensorFlow enables it."""
    if kernel in ("first-op", "train-step"):
        return None
    precision = "float16" if dtype == "mixed_float16" else dtype
    if precision == "float32" and tf32:
        return peaks.get("tf32", peaks.get("float32"))
    return peaks.get(precision)
