"""The peaks smoke throughput is judged against: the GPU table, GPU peaks derived from SM counts
and clocks, CPU peaks per microarchitecture, the FMA loop that measures them, and CPU quotas."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests import factories as f
from tests.cstubs import build_shared_lib
from tests.smoke_helpers import assert_schema_valid, by_id, cpu_result, fma_runs_here, judge
from tests.test_env_memory_checks import CUDA_STUB_C
from tfdoctor.facts import (
    CpuPeakFacts,
    Facts,
    SmokeDevice,
    SmokeFacts,
    facts_from_json,
    to_json,
)
from tfdoctor.findings import Report, Severity
from tfdoctor.probes._run import CommandResult
from tfdoctor.render.jsonout import render_json
from tfdoctor.render.markdown import render_markdown
from tfdoctor.render.smoke import short_source
from tfdoctor.render.text import render_text
from tfdoctor.smoke import CHILD
from tfdoctor.smoke.child import fma_loop, smoke_kernels
from tfdoctor.smoke.events import ChildEnd, smoke_facts
from tfdoctor.smoke.fma import CHILD as FMA_CHILD
from tfdoctor.smoke.fma import FmaMeasurement, fma_kernels, fma_threads, parse_fma, read_fma
from tfdoctor.smoke.microarch import MICROARCHITECTURES, Microarchitecture
from tfdoctor.smoke.peaks import (
    GpuCounts,
    cpu_peak,
    derive_gpu_peak,
    device_peaks,
    fp32_results_per_clock,
    gpu_peak,
    parse_cfs,
    parse_cpu_max,
    peak_for,
    read_cpu_quota,
)

ROOT = Path(__file__).resolve().parent.parent

# --- peaks --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "label"),
    [
        pytest.param("NVIDIA H100 80GB HBM3", "H100 SXM", id="h100-sxm"),
        pytest.param("NVIDIA H100 PCIe", "H100 PCIe", id="h100-pcie"),
        pytest.param("NVIDIA H200", "H200 SXM", id="h200"),
        pytest.param("NVIDIA A100-SXM4-80GB", "A100 (SXM4 and PCIe)", id="a100"),
        pytest.param("Tesla V100-SXM2-16GB", "V100 SXM2", id="v100-sxm2"),
        pytest.param("Tesla V100-PCIE-32GB", "V100 PCIe", id="v100-pcie"),
        pytest.param("Tesla T4", "T4", id="t4"),
        pytest.param("NVIDIA L40S", "L40S", id="l40s"),
        pytest.param("NVIDIA B200", "B200 (HGX)", id="b200"),
    ],
)
def test_gpu_peak_table_matches_tensorflow_names(name: str, label: str) -> None:
    row = gpu_peak(name)
    assert row is not None and row.label == label
    assert row.source.startswith("https://")


def test_unknown_gpus_and_precisions_have_no_peak() -> None:
    assert gpu_peak("NVIDIA H100 NVL") is None
    assert gpu_peak("NVIDIA GeForce GTX 1080") is None
    t4 = gpu_peak("Tesla T4")
    assert t4 is not None and "bfloat16" not in t4.peaks()
    assert peak_for(t4.peaks(), "matmul", "bfloat16", tf32=False) is None
    assert peak_for(t4.peaks(), "mixed-precision-step", "mixed_float16", tf32=False) == 65e12
    assert peak_for(t4.peaks(), "train-step", "graph", tf32=False) is None
    # With TF32 on, a float32 (non-tensor) peak does not bound the kernel: unknown.
    assert peak_for({"float32": 82.6e12}, "matmul", "float32", tf32=True) is None
    assert peak_for({"float32": 82.6e12}, "matmul", "float32", tf32=False) == 82.6e12


# --- derived GPU peaks: SMs x FP32 results/clk/SM x 2 x clock ----------------------------

MHZ = 1e6


@pytest.mark.parametrize(
    ("capability", "per_sm"),
    [
        # "32-bit floating-point add, multiply, multiply-add" row of the CUDA C++ Programming
        # Guide's "Throughput of Native Arithmetic Instructions" table, per column.
        pytest.param("5.0", 128, id="maxwell-5.0"),
        pytest.param("5.2", 128, id="maxwell-5.2"),
        pytest.param("5.3", 128, id="tegra-x1-5.3"),
        pytest.param("6.0", 64, id="p100-6.0"),
        pytest.param("6.1", 128, id="pascal-geforce-6.1"),
        pytest.param("6.2", 128, id="tegra-6.2"),
        pytest.param("7.0", 64, id="volta-7.0"),
        pytest.param("7.2", 64, id="xavier-7.x"),
        pytest.param("7.5", 64, id="turing-7.x"),
        pytest.param("8.0", 64, id="a100-8.0"),
        pytest.param("8.6", 128, id="ampere-geforce-8.6"),
        pytest.param("8.9", 128, id="ada-8.9"),
        pytest.param("9.0", 128, id="hopper-9.0"),
        pytest.param("12.0", 128, id="blackwell-geforce-12.x"),
        pytest.param("12.1", 128, id="12.1-12.x"),
        pytest.param("8.7", None, id="orin-8.7-no-column"),
        pytest.param("10.0", None, id="b200-10.0-no-column"),
        pytest.param("11.0", None, id="11.0-no-column"),
        pytest.param("3.5", None, id="kepler-not-carried"),
        pytest.param(None, None, id="unknown"),
        pytest.param("8", None, id="malformed"),
    ],
)
def test_fp32_results_per_clock_follow_the_guide(
    capability: str | None, per_sm: int | None
) -> None:
    assert fp32_results_per_clock(capability) == per_sm


@pytest.mark.parametrize(
    ("name", "capability", "sms", "mhz"),
    [
        # The derivation reproduces the data-sheet rows (SM counts and boost clocks from the
        # same NVIDIA documents): it checks the per-SM rates of 7.x, 8.0, 8.9 and 9.0.
        pytest.param("Tesla T4", "7.5", 40, 1590, id="t4-7.5"),
        pytest.param("NVIDIA A100-SXM4-80GB", "8.0", 108, 1410, id="a100-8.0"),
        pytest.param("NVIDIA L40S", "8.9", 142, 2520, id="l40s-8.9"),
        pytest.param("NVIDIA H100 80GB HBM3", "9.0", 132, 1980, id="h100-sxm-9.0"),
    ],
)
def test_derived_peak_matches_the_data_sheets(
    name: str, capability: str, sms: int, mhz: int
) -> None:
    row = gpu_peak(name)
    assert row is not None and row.float32 is not None
    derived = derive_gpu_peak(GpuCounts(capability, sms, float(mhz)))
    assert derived.flops == sms * fp32_results_per_clock(capability) * 2 * mhz * MHZ  # type: ignore[operator]
    assert derived.flops == pytest.approx(row.float32 * 1e12, rel=0.01)


def test_derived_peak_says_how_it_was_derived() -> None:
    derived = derive_gpu_peak(GpuCounts("8.9", 128, 2520.0))
    assert derived.flops == 128 * 128 * 2 * 2520 * MHZ
    assert derived.source.startswith(
        "derived: 128 SMs \u00d7 128 FP32 FMA/clk/SM \u00d7 2 \u00d7 2520 MHz (CUDA C++ "
        "Programming Guide, arithmetic instructions table, compute capability 8.9: https://"
    )
    assert "non-tensor float32" in derived.source and "GeForce boost" in derived.source


@pytest.mark.parametrize(
    ("counts", "why"),
    [
        pytest.param(
            GpuCounts(None, None, None, "CudaError: cuInit returned 3"),
            "unknown: CudaError: cuInit returned 3",
            id="driver-error",
        ),
        pytest.param(GpuCounts("10.0", 148, 1965.0), "10.0 has no column", id="no-column"),
        pytest.param(GpuCounts("8.6", 0, 1695.0), "no SM count or clock", id="zero-sms"),
        pytest.param(GpuCounts("8.6", 82, None), "no SM count or clock", id="no-clock"),
    ],
)
def test_no_derived_peak_says_why(counts: GpuCounts, why: str) -> None:
    derived = derive_gpu_peak(counts)
    assert derived.flops is None
    assert why in derived.source


def test_the_table_wins_and_the_derivation_fills_in() -> None:
    counts = GpuCounts("9.0", 132, 1980.0)
    table = device_peaks("GPU", "NVIDIA H100 80GB HBM3", None, counts)
    assert table.basis == "data-sheet" and table.peaks["tf32"] == 494.5e12
    nvl = device_peaks("GPU", "NVIDIA H100 NVL", None, GpuCounts("9.0", 132, 1785.0))
    assert nvl.basis == "derived" and set(nvl.peaks) == {"float32"}
    assert nvl.peaks["float32"] == 132 * 128 * 2 * 1785 * MHZ
    none = device_peaks("GPU", "NVIDIA Jetson AGX Orin", None, GpuCounts("8.7", 16, 1300.0))
    assert none.basis is None and none.peaks == {}
    assert none.source.startswith("no data-sheet figures for NVIDIA Jetson AGX Orin")
    assert "8.7 has no column" in none.source


@pytest.mark.parametrize(
    ("tf_info", "cuda", "want"),
    [
        pytest.param(
            {"model": "NVIDIA GeForce RTX 4090", "compute_capability": "8.9"},
            {
                "name": "NVIDIA GeForce RTX 4090",
                "compute_capability": "8.9",
                "sm_count": 128,
                "max_clock_khz": 2520000,
            },
            {"sm_count": 128, "max_clock_khz": 2520000},
            id="matched",
        ),
        pytest.param(
            {"model": "Tesla T4", "compute_capability": "7.5"},
            {
                "name": "NVIDIA GeForce RTX 4090",
                "compute_capability": "8.9",
                "sm_count": 128,
                "max_clock_khz": 2520000,
            },
            {
                "sm_error": "CUDA ordinal 0 is NVIDIA GeForce RTX 4090 (8.9), TensorFlow's "
                "GPU:0 is Tesla T4 (7.5): not matched"
            },
            id="other-device",
        ),
        pytest.param(
            {"model": "Tesla T4"},
            {"error": "CudaError: cuInit returned 3"},
            {"sm_error": "CudaError: cuInit returned 3"},
            id="driver-error",
        ),
        pytest.param({}, None, {"sm_error": "CUDA ordinal 0 was not read"}, id="not-read"),
    ],
)
def test_sm_counts_are_matched_to_tensorflows_gpu(
    tf_info: dict[str, str], cuda: dict[str, object] | None, want: dict[str, object]
) -> None:
    assert smoke_kernels.sm_counts(tf_info, cuda, 0) == want


@pytest.fixture(scope="module")
def fake_cuda(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the gcc-built fake libcuda.so.1."""
    directory = tmp_path_factory.mktemp("cuda")
    build_shared_lib(directory, "libcuda.so.1", CUDA_STUB_C)
    return directory


READ_CUDA = (
    "import json, sys; sys.path.insert(0, sys.argv[1]); import smoke_kernels as k; "
    "print(json.dumps(k.cuda_devices(int(sys.argv[2]))))"
)


@pytest.mark.parametrize(
    ("extra", "count", "want"),
    [
        pytest.param(
            {
                "STUB_CUDA_DEVICES": "NVIDIA GeForce RTX 4090|8.9|128|2520000;"
                "Tesla T4|7.5|40|1590000"
            },
            2,
            {
                "0": {
                    "name": "NVIDIA GeForce RTX 4090",
                    "compute_capability": "8.9",
                    "sm_count": 128,
                    "max_clock_khz": 2520000,
                },
                "1": {
                    "name": "Tesla T4",
                    "compute_capability": "7.5",
                    "sm_count": 40,
                    "max_clock_khz": 1590000,
                },
            },
            id="two-gpus",
        ),
        pytest.param(
            {"STUB_CUDA_DEVICES": "Tesla T4|7.5|40|1590000", "STUB_CUDA_RC_cuInit": "3"},
            1,
            {"0": {"error": "CudaError: cuInit returned 3"}},
            id="init-fails",
        ),
        pytest.param(
            {"STUB_CUDA_DEVICES": "Tesla T4|7.5|40|1590000"},
            2,
            {
                "0": {
                    "name": "Tesla T4",
                    "compute_capability": "7.5",
                    "sm_count": 40,
                    "max_clock_khz": 1590000,
                },
                "1": {"error": "CudaError: cuDeviceGetName returned 101"},
            },
            id="ordinal-the-driver-lacks",
        ),
        pytest.param(
            {
                "STUB_CUDA_DEVICES": "Tesla T4|7.5|40|1590000",
                "STUB_CUDA_RC_cuDeviceGetAttribute": "1",
            },
            1,
            {"0": {"error": "CudaError: cuDeviceGetAttribute returned 1"}},
            id="attribute-fails",
        ),
    ],
)
def test_the_child_reads_sm_counts_through_ctypes(
    fake_cuda: Path, extra: dict[str, str], count: int, want: dict[str, object]
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUB_")}
    env.update(LD_LIBRARY_PATH=str(fake_cuda), **extra)
    out = subprocess.run(
        [sys.executable, "-c", READ_CUDA, str(CHILD.parent), str(count)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(out.stdout) == want


# (model, compute capability, SM count, max SM clock in kHz) as the CUDA driver reports them.
RTX_2080_TI = ("NVIDIA GeForce RTX 2080 Ti", "7.5", 68, 1545000)
RTX_4090 = ("NVIDIA GeForce RTX 4090", "8.9", 128, 2520000)


def derived_gpu_events(
    model: str, capability: str, sms: int, khz: int, tf32: bool, *done: dict[str, object]
) -> list[dict[str, object]]:
    """Events of a finished run on one GPU the child read the SM count and clock of."""
    plan = [[d["kernel"], d["dtype"]] for d in done]
    gpu = {
        "name": "/device:GPU:0",
        "device_type": "GPU",
        "model": model,
        "compute_capability": capability,
        "tf32": tf32,
        "sm_count": sms,
        "max_clock_khz": khz,
        "memory_limit": 2**30,
        "memory_growth": True,
        "plan": plan,
    }
    kernels = [
        {
            "event": "kernel-done",
            "device": "/device:GPU:0",
            "placed_on": "/device:GPU:0",
            "ok": True,
            "seconds": 0.01,
            "size": "n=4096",
            **d,
        }
        for d in done
    ]
    return [
        {"event": "imported", "seconds": 3.0, "tf_version": "2.21.0"},
        {"event": "plan", "runtime_seconds": 0.5, "devices": [gpu]},
        *kernels,
        {"event": "device-done", "device": "/device:GPU:0", "memory_peak": 300 * 2**20},
        {"event": "done"},
    ]


def replay(events: list[dict[str, object]]) -> Facts:
    smoke = smoke_facts(
        events,
        ChildEnd(returncode=0, seconds=9.0),
        level="quick",
        interpreter="python",
        kernel_timeout=60.0,
        max_memory=2**30,
    )
    facts = f.facts(smoke=smoke)
    assert facts_from_json(json.loads(json.dumps(to_json(facts)))) == facts
    assert_schema_valid(facts)
    return facts


def test_replayed_derived_peak_is_in_the_json_and_its_fraction_in_the_table() -> None:
    # A GeForce RTX 2080 Ti (Turing, no TF32): 68 SMs x 64 x 2 x 1545 MHz = 13.4 TFLOP/s.
    events = derived_gpu_events(
        *RTX_2080_TI,
        False,
        {"kernel": "matmul", "dtype": "float32", "flops": 1e11, "throughput": 10e12},
        {"kernel": "matmul", "dtype": "float16", "flops": 1e11, "throughput": 40e12},
    )
    facts = replay(events)
    peak = 68 * 64 * 2 * 1545 * MHZ
    report = Report(facts=facts, findings=tuple(judge(facts)))
    device = json.loads(render_json(report, "0.1.0"))["facts"]["smoke"]["devices"][0]
    assert device["peaks"] == {"float32": peak}
    assert device["peak_basis"] == "derived"
    assert (device["sm_count"], device["max_clock_mhz"]) == (68, 1545.0)
    assert device["peak_source"].startswith("derived: 68 SMs \u00d7 64 FP32 FMA/clk/SM")
    matmul, half = device["results"]
    assert matmul["peak"] == peak and matmul["fraction_of_peak"] == pytest.approx(10e12 / peak)
    assert half["peak"] is None  # no derived float16 peak: tensor cores
    lines = render_text(report, width=120).splitlines()
    assert "    SMs: 68, max SM clock 1545 MHz" in lines
    assert any(
        line.startswith("    matmul  float32") and line.endswith("10.0 TFLOP/s  74%")
        for line in lines
    ), lines
    (ok,) = by_id(list(report.findings), "smoke.throughput")
    assert ok.severity is Severity.OK and "74% of peak" in ok.summary


def test_tf32_kernels_are_judged_only_against_the_derived_lower_bound() -> None:
    # A GeForce RTX 4090 with TF32 on: the derived 82.6 TFLOP/s is non-tensor float32.
    events = derived_gpu_events(
        *RTX_4090,
        True,
        {"kernel": "matmul", "dtype": "float32", "flops": 1e11, "throughput": 120e12},
        {"kernel": "conv2d-forward", "dtype": "float32", "flops": 1e11, "throughput": 5e12},
    )
    facts = replay(events)
    assert facts.smoke is not None
    (device,) = facts.smoke.devices
    assert all(r.peak is None and r.fraction_of_peak is None for r in device.results)
    found = by_id(judge(facts), "smoke.throughput")
    assert [x.severity for x in found] == [Severity.WARNING, Severity.INFO]
    slow, info = found
    assert slow.summary == (
        "conv2d-forward/float32 on /device:GPU:0 reached 5.0 TFLOP/s as TF32, under 10% of "
        "even the 82.6 TFLOP/s non-tensor float32 peak"
    )
    assert "2 TF32 kernels on /device:GPU:0" in info.summary and "lower bound" in info.summary
    # Above the bound (matmul at 145 %) is no claim of health: no OK, no "faster than peak".
    assert not [x for x in found if "of peak" in x.summary or "faster" in x.summary]


def test_a_gpu_above_its_derived_peak_is_named() -> None:
    events = derived_gpu_events(
        *RTX_2080_TI,
        False,
        {"kernel": "matmul", "dtype": "float32", "flops": 1e11, "throughput": 15e12},
    )
    found = by_id(judge(replay(events)), "smoke.throughput")
    assert [x.severity for x in found] == [Severity.INFO, Severity.OK]
    assert "boosted above the clock the CUDA driver reports" in found[0].summary


def test_a_gpu_without_counts_has_no_peak_and_says_why() -> None:
    events = derived_gpu_events(
        *RTX_4090,
        False,
        {"kernel": "matmul", "dtype": "float32", "flops": 1e11, "throughput": 60e12},
    )
    plan = events[1]["devices"][0]  # type: ignore[index]
    del plan["sm_count"], plan["max_clock_khz"]
    plan["sm_error"] = "OSError: libcuda.so.1: cannot open shared object file"
    facts = replay(events)
    assert facts.smoke is not None
    (device,) = facts.smoke.devices
    assert device.peaks == {} and device.peak_basis is None and device.sm_count is None
    (info,) = by_id(judge(facts), "smoke.throughput")
    assert info.severity is Severity.INFO and "No peak known" in info.summary
    assert "no derived peak: the CUDA driver's SM count and clock are unknown: OSError" in (
        info.detail
    )


CPUINFO_ZEN4 = "\n\n".join(
    f"processor\t: {i}\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
    f"model name\t: AMD EPYC 9R14 96-Core Processor\nphysical id\t: 0\ncore id\t\t: {i // 2}\n"
    "cpu MHz\t\t: 2600.000\nflags\t\t: fpu sse2 avx avx2 fma avx512f avx512bw\n"
    for i in range(4)
)
CPUINFO = ROOT / "tests" / "data" / "cpuinfo"
GHZ = 1e9


def cpuinfo(name: str) -> str:
    """A /proc/cpuinfo excerpt in tests/data/cpuinfo (written for these tests, real-shaped)."""
    return (CPUINFO / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "max_khz", "uarch", "per_cycle", "flops", "words"),
    [
        # Zen 1 runs AVX2 on two 128-bit FMA pipes: 2 cores x 2.0 GHz x 16 = 64 GFLOP/s, what
        # TensorFlow's matmul reaches on it (about 65), not the 128 a flags-only rule gave.
        pytest.param(
            "zen1_epyc_7551.txt", None, "AMD Zen / Zen+", 16, 2 * 1.99625 * GHZ * 16,
            "two 128-bit halves", id="zen1",
        ),
        pytest.param(
            "zen3_epyc_7763.txt", None, "AMD Zen 3", 32, 2 * 2.44541 * GHZ * 32,
            "256-bit FP pipes", id="zen3",
        ),
        # Zen 4 runs AVX-512 on its 256-bit pipes: 32, not 64; the 2.0 GHz shown is a base
        # clock, so this derivation (128) stays below what the cores do.
        pytest.param(
            "zen4_epyc_9r14.txt", None, "AMD Zen 4", 32, 2 * 2.0 * GHZ * 32,
            "does not double the peak", id="zen4",
        ),
        pytest.param(
            "zen4_epyc_9r14.txt", 3_700_000, "AMD Zen 4", 32, 2 * 3.7 * GHZ * 32,
            "cpuinfo_max_freq", id="zen4-cpufreq",
        ),
        # A Gold 6xxx has two 512-bit FMA units; 4 CPUs are 2 cores with SMT; the clock is
        # the base clock the model name carries.
        pytest.param(
            "skylake_sp_gold_6148.txt", None, "Intel Skylake-SP / Cascade Lake (two AVX-512 FMA "
            "units)", 64, 2 * 2.4 * GHZ * 64, "base clock from the model name", id="skylake-sp",
        ),
        # Without a SKU in the name, one unit is taken and said to be a lower bound.
        pytest.param(
            "cascade_lake_unnamed.txt", None, "Intel Skylake-SP / Cascade Lake", 32,
            2 * 2.8 * GHZ * 32, "a lower bound: parts of this model have one or two", id="clx",
        ),
        pytest.param(
            "coffee_lake_i7_8700.txt", None, "Intel Skylake client (Kaby, Coffee, Whiskey, "
            "Comet Lake)", 32, 2 * 3.2 * GHZ * 32, "two 256-bit FMA ports", id="avx2-client",
        ),
        pytest.param(
            "neoverse_n1.txt", 2_500_000, "Arm Neoverse N1", 16, 2 * 2.5 * GHZ * 16,
            "128-bit NEON FMA", id="neoverse-n1",
        ),
    ],
)  # fmt: skip
def test_cpu_peak_is_derived_per_microarchitecture(
    name: str, max_khz: int | None, uarch: str, per_cycle: int, flops: float, words: str
) -> None:
    peak = cpu_peak(cpuinfo(name), max_khz, None)
    assert peak.basis == "derived"
    assert peak.detail.microarchitecture == uarch
    assert peak.detail.flops_per_cycle == per_cycle
    assert peak.detail.sources and all(s.startswith("http") for s in peak.detail.sources)
    assert peak.flops == pytest.approx(flops)
    assert peak.source.startswith(f"derived: {uarch}, 2 cores x ")
    assert words in peak.source
    assert "not measured: the FMA loop was not run" in peak.source


def shadowed_rows(rows: Sequence[Microarchitecture]) -> list[tuple[str, str]]:
    """(row, earlier row) pairs where the earlier row always matches first.

    The table is read first match wins (``find_microarchitecture``). A row is unreachable
    for a model number when an earlier row claims that number without a name pattern, or
    with the same name pattern.
    """
    claims: dict[tuple[str, int, int], list[Microarchitecture]] = {}
    shadowed: list[tuple[str, str]] = []
    for row in rows:
        for low, high in row.models:
            for model in range(low, high + 1):
                earlier = claims.setdefault((row.vendor, row.family, model), [])
                for first in earlier:
                    if first.name_pattern is None or first.name_pattern == row.name_pattern:
                        shadowed.append((row.name, first.name))
                earlier.append(row)
    return sorted(set(shadowed))


def test_every_table_row_cites_its_sources() -> None:
    for row in MICROARCHITECTURES:
        assert row.sources and all(s.startswith("http") for s in row.sources), row.name
        assert row.flops_per_cycle in (16, 32, 64), row.name


def test_no_table_row_is_shadowed_by_an_earlier_one() -> None:
    assert shadowed_rows(MICROARCHITECTURES) == []
    # Planted: a row repeated later, and a catch-all row before the rows it would hide.
    row = MICROARCHITECTURES[0]
    assert shadowed_rows((*MICROARCHITECTURES, row)) == [(row.name, row.name)]
    catch_all = dataclasses.replace(row, name="catch-all", name_pattern=None)
    assert (row.name, "catch-all") in shadowed_rows((catch_all, *MICROARCHITECTURES))


def test_a_cpu_missing_from_the_table_is_judged_by_its_flags_as_a_lower_bound() -> None:
    text = cpuinfo("zen4_epyc_9r14.txt").replace("cpu family\t: 25", "cpu family\t: 99")
    peak = cpu_peak(text, None, None)
    assert peak.detail.microarchitecture is None and peak.detail.flops_per_cycle == 32
    assert "microarchitecture unknown" in peak.source
    assert "by the instruction-set flags only" in peak.detail.lower_bound
    no_units = cpu_peak(text.replace("flags\t\t:", "flags\t\t: none\nx:"), None, None)
    assert no_units.flops is None and no_units.basis is None
    assert "no known vector unit" in no_units.source


def test_cpu_peak_on_recorded_graviton3_cpuinfo() -> None:
    text = (ROOT / "tests" / "data" / "system" / "cpuinfo_graviton3.txt").read_text(
        encoding="utf-8"
    )
    peak = cpu_peak(text, None, None)
    # Neoverse V1 (part 0xd40), but arm64 /proc/cpuinfo has no clock: no derived peak.
    assert peak.detail.microarchitecture == "Arm Neoverse V1"
    assert peak.flops is None and "no clock frequency found" in peak.source


ZEN4_MEASURED = FmaMeasurement(
    flops=229e9, kernel="fma512", wall_flops=227e9, threads=2, clock_hz=3.6e9
)


def test_a_measured_clock_makes_the_derivation_honest() -> None:
    # The field case: Zen 4 shows 2.0 GHz, runs near 3.6; an FMA loop reached 230-233 GFLOP/s.
    peak = cpu_peak(cpuinfo("zen4_epyc_9r14.txt"), None, 2, measured=ZEN4_MEASURED)
    assert peak.basis == "derived"
    assert peak.flops == pytest.approx(2 * 3.6 * GHZ * 32)  # 230.4 GFLOP/s
    assert peak.detail.clock_source == "measured"
    assert peak.detail.listed_clock_hz == pytest.approx(2.0 * GHZ)
    assert "3.60 GHz (measured: a dependent-add chain" in peak.source
    assert "/proc/cpuinfo shows 2.00 GHz" in peak.source
    assert peak.source.endswith("; measured 229.0 GFLOP/s (fma512 FMA loop, 99% of it)")


def test_a_measured_peak_above_the_derivation_wins_and_says_so() -> None:
    # No measured clock: the derivation falls back to the 2.0 GHz shown (128 GFLOP/s).
    measured = dataclasses.replace(ZEN4_MEASURED, clock_hz=None)
    peak = cpu_peak(cpuinfo("zen4_epyc_9r14.txt"), None, 2, measured=measured)
    assert peak.basis == "measured" and peak.flops == pytest.approx(229e9)
    assert peak.detail.derived_flops == pytest.approx(128e9)
    assert peak.source.startswith(
        "measured: 229.0 GFLOP/s (fma512 FMA loop on 2 threads, per CPU second, best of 3 runs)"
        "; derived only 128.0 GFLOP/s: AMD Zen 4, 2 cores x 2.00 GHz (the clock /proc/cpuinfo "
        "shows"
    )
    assert peak.source.endswith(", which understates this CPU")
    assert short_source(peak.source) == (
        "measured: 229.0 GFLOP/s; derived only 128.0 GFLOP/s: AMD Zen 4, 2 cores x 2.00 GHz x 32 "
        "float32 FLO\u2026"
    )
    found = device_peaks("CPU", None, peak)
    assert (found.basis, found.peaks) == ("measured", {"float32": 229e9})
    # A Cascade Lake named without its SKU: one FMA unit is taken; two measure twice that.
    clx = FmaMeasurement(flops=2 * 2.8e9 * 64, kernel="fma512", threads=2, clock_hz=2.8e9)
    peak = cpu_peak(cpuinfo("cascade_lake_unnamed.txt"), None, 2, measured=clx)
    assert peak.basis == "measured" and peak.flops == pytest.approx(2 * 2.8e9 * 64)


def test_a_measured_peak_is_capped_at_the_quota_and_an_error_is_named() -> None:
    quota = cpu_peak(cpuinfo("zen4_epyc_9r14.txt"), None, 2, 1.0, measured=ZEN4_MEASURED)
    assert quota.detail.measured_flops == pytest.approx(229e9 / 2)
    assert quota.flops == pytest.approx(1 * 3.6 * GHZ * 32)
    failed = FmaMeasurement(error="the FMA loop died of SIGILL")
    peak = cpu_peak(cpuinfo("zen1_epyc_7551.txt"), None, 2, measured=failed)
    assert peak.basis == "derived" and peak.detail.clock_source == "cpuinfo"
    assert peak.source.endswith("; not measured: the FMA loop died of SIGILL")


@pytest.mark.parametrize(
    ("flags", "kernels"),
    [
        pytest.param({"avx", "fma", "avx512f"}, ("fma512", "fma256"), id="avx512"),
        pytest.param({"avx", "avx2", "fma"}, ("fma256",), id="fma3"),
        pytest.param({"avx"}, (), id="avx-without-fma"),
        pytest.param({"asimd", "fp"}, (), id="aarch64"),
    ],
)
def test_fma_kernels_follow_the_flags(flags: set[str], kernels: tuple[str, ...]) -> None:
    assert fma_kernels(flags) == kernels


@pytest.mark.parametrize(
    ("usable", "quota", "threads"),
    [(8, None, 8), (8, 1.5, 2), (2, 8.0, 2), (None, None, 1)],
)
def test_fma_threads_load_the_usable_cpus_up_to_the_quota(
    usable: int | None, quota: float | None, threads: int
) -> None:
    assert fma_threads(usable, quota) == threads


def fma_result(stdout: str = "", **kw: object) -> CommandResult:
    fields: dict[str, object] = {
        "argv": ("python", "fma_loop.py", "{}"),
        "returncode": 0,
        "stdout": stdout,
        "stderr": "",
        "seconds": 0.4,
    }
    fields.update(kw)
    return CommandResult(**fields)  # type: ignore[arg-type]


FMA_OUTPUT = json.dumps(
    {
        "threads": 2,
        "clock": {"hz": 3.6e9, "per_thread_hz": [3.6e9, 3.6e9]},
        "kernels": {
            "fma256": {"flops": 229e9, "wall_flops": 200e9, "seconds": 0.04, "threads": 2},
            "fma512": {"flops": 231e9, "wall_flops": 201e9, "seconds": 0.04, "threads": 2},
        },
        "seconds": 0.45,
    }
)


@pytest.mark.parametrize(
    ("result", "want"),
    [
        pytest.param(
            fma_result(FMA_OUTPUT),
            FmaMeasurement(231e9, "fma512", 201e9, 2, 3.6e9),
            id="the-widest-best",
        ),
        pytest.param(
            fma_result('{"error": "the FMA kernels run on Linux only, not darwin"}'),
            FmaMeasurement(error="the FMA kernels run on Linux only, not darwin"),
            id="unsupported",
        ),
        pytest.param(
            fma_result(returncode=-4),
            FmaMeasurement(error="the FMA loop died of SIGILL"),
            id="sigill",
        ),
        pytest.param(
            fma_result(returncode=-9, timed_out=True, seconds=30.0),
            FmaMeasurement(error="the FMA loop ran past 30 s; killed"),
            id="timeout",
        ),
        pytest.param(
            fma_result(returncode=1, stderr="Traceback ...\nPermissionError: denied"),
            FmaMeasurement(
                error="the FMA loop printed no result: Traceback ...\nPermissionError: denied"
            ),
            id="no-output",
        ),
        pytest.param(
            fma_result(
                json.dumps({"clock": {"hz": 3e9}, "kernels": {}, "error": "OSError: mprotect"})
            ),
            FmaMeasurement(clock_hz=3e9, error="OSError: mprotect"),
            id="exec-refused",
        ),
    ],
)
def test_parse_fma(result: CommandResult, want: FmaMeasurement) -> None:
    assert parse_fma(result) == want


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the FMA loop runs on Linux")
def test_read_fma_asks_the_child_for_the_flags_kernels_only() -> None:
    calls: list[list[str]] = []

    def runner(argv: object, env: object, timeout: float) -> CommandResult:
        calls.append(list(argv))  # type: ignore[call-overload]
        return fma_result(FMA_OUTPUT)

    assert read_fma(("fma512", "fma256"), 2, "python3", runner).flops == 231e9
    ((python, child, config),) = calls
    assert (python, child) == ("python3", str(FMA_CHILD))
    assert json.loads(config) == {"threads": 2, "kernels": ["fma512", "fma256"]}
    # No FMA3 (an aarch64 CPU): nothing is started, and the reason is kept.
    none = read_fma((), 2, "python3", runner)
    assert len(calls) == 1 and none.flops is None
    assert none.error == (
        "no FMA loop for this CPU: the loops are x86-64 FMA3 and AVX-512 machine code"
    )


def test_the_fma_machine_code_is_the_intended_instructions(tmp_path: Path) -> None:
    objdump = shutil.which("objdump")
    if objdump is None:
        pytest.skip("objdump (binutils) is not installed")
    want = {
        "fma256": "vfmadd231ps ymm11,ymm14,ymm15",
        "fma512": "vfmadd231ps zmm11,zmm14,zmm15",
    }
    for kernel, fma in want.items():
        code = tmp_path / f"{kernel}.bin"
        code.write_bytes(fma_loop.fma_code(kernel))
        out = subprocess.run(
            [objdump, "-D", "-b", "binary", "-m", "i386:x86-64", "-M", "intel", str(code)],
            capture_output=True, text=True, check=True, timeout=60,
        ).stdout  # fmt: skip
        text = " ".join(out.split())
        assert text.count("vfmadd231ps") == fma_loop.ACCUMULATORS
        assert fma in text and "vxorps ymm15,ymm15,ymm15" in text
        assert "dec rdi" in text and "vzeroupper" in text and text.rstrip().endswith("ret")
    clock = tmp_path / "clock.bin"
    clock.write_bytes(fma_loop.clock_code())
    out = subprocess.run(
        [objdump, "-D", "-b", "binary", "-m", "i386:x86-64", "-M", "intel", str(clock)],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    assert " ".join(out.split()).count("add rax,rdx") == fma_loop.ADDS


x86_64_linux = pytest.mark.skipif(
    not fma_runs_here(), reason="the FMA loop is x86-64 FMA3 machine code run on Linux"
)


@x86_64_linux
def test_the_fma_child_measures_this_cpu() -> None:
    text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    flags = set(re.search(r"^flags\s*:(.*)$", text, re.MULTILINE).group(1).split())  # type: ignore[union-attr]
    start = time.monotonic()
    measured = read_fma(fma_kernels(flags), 1)
    assert time.monotonic() - start < 10
    assert measured.error is None, measured.error
    assert measured.kernel in fma_kernels(flags) and measured.threads == 1
    assert measured.flops is not None and measured.clock_hz is not None
    assert 0.4e9 < measured.clock_hz < 7e9
    # One thread, one core: FLOP per cycle within what any x86-64 core does (8 to 64).
    assert 6 < measured.flops / measured.clock_hz < 70
    peak = cpu_peak(text, None, 1, measured=measured)
    if peak.detail.microarchitecture and not peak.detail.lower_bound:
        # The table's figure for this CPU is what its FMA pipes measurably do.
        per_cycle = measured.flops / measured.clock_hz
        assert 0.6 < per_cycle / (peak.detail.flops_per_cycle or 1) < 1.25, peak.source


def test_an_old_report_without_the_cpu_peak_detail_still_reads() -> None:
    device = SmokeDevice(
        name="/device:CPU:0",
        device_type="CPU",
        peaks={"float32": 128e9},
        peak_source="2 cores x 2.00 GHz x 32 float32 FLOP/cycle",
        peak_basis="derived",
        results=(cpu_result(throughput=221e9, peak=128e9, fraction_of_peak=221 / 128),),
    )
    facts = f.facts(smoke=SmokeFacts("ok", "quick", "python", devices=(device,)))
    doc = json.loads(json.dumps(to_json(facts)))
    del doc["smoke"]["devices"][0]["cpu_peak"]
    assert facts_from_json(doc) == facts


def above_peak_facts(basis: str, detail: CpuPeakFacts) -> Facts:
    """A CPU whose matmul beat its peak, as the Zen 4 of the issue did (221 of 128 GFLOP/s)."""
    device = SmokeDevice(
        name="/device:CPU:0",
        device_type="CPU",
        model="AMD EPYC 9R14 96-Core Processor",
        peaks={"float32": 128e9},
        peak_source="derived: AMD Zen 4, 2 cores x 2.00 GHz x 32 float32 FLOP/cycle",
        peak_basis=basis,
        cpu_peak=detail,
        cpu_affinity=2,
        cpu_busy_others=0.0,
        results=(
            cpu_result(throughput=221e9, peak=128e9, fraction_of_peak=221 / 128, size="n=2048"),
            cpu_result(kernel="conv2d-forward", throughput=64e9, peak=128e9, fraction_of_peak=0.5),
        ),
    )
    return f.facts(smoke=SmokeFacts("ok", "quick", "python", devices=(device,)))


def test_a_fraction_above_one_is_never_shown_as_a_percentage() -> None:
    detail = CpuPeakFacts(microarchitecture="AMD Zen 4", clock_source="cpuinfo")
    facts = above_peak_facts("derived", detail)
    assert_schema_valid(facts)
    findings = judge(facts)
    report = Report(facts=facts, findings=tuple(findings))
    for text in (render_text(report, width=120), render_markdown(report, "0.1.0")):
        assert "173%" not in text and "172%" not in text
        assert ">100% *" in text
        assert "* faster than the peak: the peak is a lower bound here, not a ceiling" in text
        assert "50%" in text  # a fraction below 1 still reads as one
    info, ok = by_id(findings, "smoke.throughput")
    assert info.severity is Severity.INFO
    assert info.summary == (
        "/device:CPU:0 ran faster than its peak (matmul/float32 reached 1.73x it): the clock "
        "used is the one /proc/cpuinfo or the model name shows, below the one the cores run at"
    )
    assert ok.severity is Severity.OK and "%" not in ok.summary
    assert "above its peak, which is therefore only a lower bound" in ok.summary
    # The JSON keeps the measured ratio; the peak it is a ratio of stays named.
    result = json.loads(render_json(report, "0.1.0"))["facts"]["smoke"]["devices"][0]["results"][0]
    assert result["fraction_of_peak"] == pytest.approx(221 / 128)


@pytest.mark.parametrize(
    ("basis", "detail", "why"),
    [
        pytest.param(
            "derived",
            CpuPeakFacts(clock_source="measured", lower_bound="E-cores are slower"),
            "the FLOP per cycle are a lower bound (E-cores are slower)",
            id="lower-bound",
        ),
        pytest.param(
            "measured",
            CpuPeakFacts(clock_source="measured"),
            "the kernel beat the FMA loop's measurement",
            id="measured",
        ),
    ],
)
def test_a_cpu_above_its_peak_says_why(basis: str, detail: CpuPeakFacts, why: str) -> None:
    (info, _ok) = by_id(judge(above_peak_facts(basis, detail)), "smoke.throughput")
    assert info.severity is Severity.INFO and why in info.summary


# /proc/stat as Linux 6.1 prints it on a 2-CPU machine (the aggregate line first).
PROC_STAT = """cpu  4705 356 584 3699176 23060 0 277 0 0 0
cpu0 1393 280 283 1849587 11517 0 71 10 0 0
cpu1 3312 76 301 1849589 11543 0 206 20 0 0
intr 114930548 113199788 3 0 5 263 0 4 [...]
ctxt 1990473
btime 1062191376
"""


@pytest.mark.parametrize(
    ("cpus", "busy"),
    [
        pytest.param(None, (1393 + 280 + 283 + 71 + 10) + (3312 + 76 + 301 + 206 + 20), id="all"),
        pytest.param({1}, 3312 + 76 + 301 + 206 + 20, id="affinity-cpu1"),
        pytest.param({5}, None, id="cpu-not-listed"),
    ],
)
def test_proc_stat_busy_ticks(cpus: set[int] | None, busy: int | None) -> None:
    assert smoke_kernels.parse_proc_stat(PROC_STAT, cpus) == busy


def test_busy_others_subtracts_the_childs_own_cpu_time() -> None:
    # 2 s of wall time, 3 CPU-seconds busy, 1 of them this process's: others kept 1 CPU busy.
    assert smoke_kernels.busy_others((10.0, 100.0, 5.0), (12.0, 103.0, 6.0)) == 1.0
    assert smoke_kernels.busy_others((10.0, 100.0, 5.0), (12.0, 101.0, 7.0)) == 0.0
    assert smoke_kernels.busy_others(None, (12.0, 101.0, 7.0)) is None


@pytest.mark.parametrize(
    ("text", "cpus"),
    [
        pytest.param("max 100000\n", None, id="v2-unlimited"),
        pytest.param("150000 100000\n", 1.5, id="v2-one-and-a-half"),
        pytest.param("200000 100000", 2.0, id="v2-two"),
        pytest.param("garbage", None, id="v2-unreadable"),
    ],
)
def test_cgroup_v2_cpu_max(text: str, cpus: float | None) -> None:
    assert parse_cpu_max(text) == cpus


@pytest.mark.parametrize(
    ("quota", "period", "cpus"),
    [
        pytest.param("-1\n", "100000\n", None, id="v1-unlimited"),
        pytest.param("50000\n", "100000\n", 0.5, id="v1-half"),
        pytest.param("400000", "100000", 4.0, id="v1-four"),
    ],
)
def test_cgroup_v1_cfs_quota(quota: str, period: str, cpus: float | None) -> None:
    assert parse_cfs(quota, period) == cpus


@pytest.mark.parametrize(
    ("files", "cpus"),
    [
        # This machine's layout: v1 controllers at the root of the container's namespace.
        pytest.param(
            {
                "proc/self/cgroup": "4:memory:/job\n1:cpu:/\n2:cpuacct:/\n0::/\n",
                "sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1\n",
                "sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
            },
            None,
            id="v1-no-quota",
        ),
        pytest.param(
            {
                "proc/self/cgroup": "0::/system.slice/job.scope\n",
                "sys/fs/cgroup/system.slice/job.scope/cpu.max": "max 100000\n",
                "sys/fs/cgroup/system.slice/cpu.max": "150000 100000\n",
                "sys/fs/cgroup/cpu.max": "max 100000\n",
            },
            1.5,
            id="v2-parent-limits",
        ),
        pytest.param(
            {
                "proc/self/cgroup": "5:cpu,cpuacct:/docker/abc\n",
                "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "200000\n",
                "sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
            },
            2.0,
            id="v1-docker",
        ),
        pytest.param({}, None, id="nothing-readable"),
    ],
)
def test_read_cpu_quota_walks_the_cgroup(
    tmp_path: Path, files: dict[str, str], cpus: float | None
) -> None:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="ascii")
    assert read_cpu_quota(str(tmp_path)) == cpus


def test_the_cpu_peak_is_capped_at_the_quota() -> None:
    peak = cpu_peak(CPUINFO_ZEN4, None, 4, quota=1.5)
    assert peak.flops == pytest.approx(1.5 * 2.6e9 * 32)
    assert peak.source.startswith(
        "derived: AMD Zen 4, 1.5 cores, capped at the cgroup CPU quota of 1.5 CPUs x"
    )
    assert peak.quota == 1.5
    assert cpu_peak(CPUINFO_ZEN4, None, 4, quota=8.0).flops == pytest.approx(2 * 2.6e9 * 32)
