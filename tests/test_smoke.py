"""The smoke test: real TensorFlow on the CPU, a perturbed and a hanging kernel, replayed GPU
facts judged and rendered, the peak table and the CPU peak derivation."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

import pytest

from tests import factories as f
from tests.commandline import tfdoctor
from tests.cstubs import build_shared_lib
from tests.processes import alive, gone_within, start, wait_for_child
from tests.test_env_memory_checks import CUDA_STUB_C
from tfdoctor.checks import CHECKS, run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import (
    CpuPeakFacts,
    Facts,
    SmokeDevice,
    SmokeFacts,
    SmokeResult,
    facts_from_json,
    to_json,
)
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.gpu_config import choose_policy
from tfdoctor.probes._run import CommandResult
from tfdoctor.render.jsonout import render_json
from tfdoctor.render.markdown import render_markdown
from tfdoctor.render.smoke import short_source
from tfdoctor.render.text import render_text
from tfdoctor.smoke import CHILD, SmokeOptions, parse_size, run_smoke
from tfdoctor.smoke.child import fma_loop, smoke_kernels
from tfdoctor.smoke.events import ChildEnd, smoke_facts
from tfdoctor.smoke.fma import CHILD as FMA_CHILD
from tfdoctor.smoke.fma import FmaMeasurement, fma_kernels, fma_threads, parse_fma, read_fma
from tfdoctor.smoke.memory import CHILD as MEMORY_CHILD
from tfdoctor.smoke.microarch import MICROARCHITECTURES
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
from tfdoctor.smoke.service import smoke_report

ROOT = Path(__file__).resolve().parent.parent
SMOKE_CHECKS = tuple(c for c in CHECKS if c.id.startswith("smoke."))
MARKER = "=== m ==="


def judge(facts: Facts) -> list[Finding]:
    return list(run_checks(CheckContext(facts), SMOKE_CHECKS))


def by_id(findings: list[Finding], fid: str) -> list[Finding]:
    return [x for x in findings if x.id == fid]


def assert_schema_valid(facts: Facts) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))
    report = Report(facts=facts, findings=tuple(judge(facts)))
    jsonschema.Draft202012Validator(schema).validate(json.loads(render_json(report, "0.1.0")))


tensorflow_missing = pytest.mark.skipif(
    shutil.which(sys.executable) is None
    or subprocess.run(
        [
            sys.executable,
            "-c",
            "import importlib.util as u; exit(u.find_spec('tensorflow') is None)",
        ],
        check=False,
        timeout=60,
    ).returncode
    != 0,
    reason="TensorFlow is not installed in this interpreter",
)


# --- real TensorFlow on /CPU:0 --------------------------------------------------------------


@pytest.mark.slow
@tensorflow_missing
def test_every_kernel_passes_on_the_cpu() -> None:
    smoke = run_smoke(SmokeOptions(sizes="tiny", devices=("CPU:0",)))
    assert smoke.status == "ok", smoke.error_message or smoke.stderr_tail
    (device,) = smoke.devices
    assert device.name == "/device:CPU:0"
    kernels = {(r.kernel, r.dtype) for r in device.results}
    assert {
        ("first-op", "float32"),
        ("matmul", "float32"),
        ("matmul", "float16"),
        ("matmul", "bfloat16"),
        ("conv2d-forward", "float32"),
        ("conv2d-backward", "float32"),
        ("xla-dense", "float32"),
        ("train-step", "eager"),
        ("train-step", "graph"),
    } == kernels
    for result in device.results:
        assert result.status == "ok", result
        assert result.ok is True, result
        assert result.placed_on == "/device:CPU:0", result
        assert result.seconds is not None and result.seconds > 0
    matmul = next(r for r in device.results if (r.kernel, r.dtype) == ("matmul", "float32"))
    assert matmul.flops == 2.0 * 128**3
    assert matmul.throughput is not None and matmul.throughput > 0
    if device.peaks:  # Linux: the derived or the measured peak, whichever is higher
        assert matmul.peak == device.peaks["float32"]
        assert matmul.fraction_of_peak == pytest.approx(matmul.throughput / matmul.peak)
        assert device.peak_source and "FLOP/cycle" in device.peak_source
    # The FMA loop ran after the kernels, in its own process, where its machine code runs.
    cpu = device.cpu_peak
    assert cpu is not None
    if fma_runs_here():
        assert cpu.measure_error is None, cpu.measure_error
        assert cpu.measured_flops and cpu.measured_kernel and cpu.clock_source == "measured"
        assert device.peak_basis in ("derived", "measured")
        assert device.peaks["float32"] >= cpu.measured_flops
        assert device.peaks["float32"] >= (cpu.derived_flops or 0)
    # The facts survive JSON and validate against the schema; the checks find no error.
    facts = f.facts(smoke=smoke)
    assert facts_from_json(json.loads(json.dumps(to_json(facts)))) == facts
    assert_schema_valid(facts)
    findings = judge(facts)
    assert not [x for x in findings if x.severity is Severity.ERROR], findings
    assert by_id(findings, "smoke.correctness")[0].severity is Severity.OK
    assert by_id(findings, "smoke.placement")[0].severity is Severity.OK
    assert by_id(findings, "smoke.graph-mode")


@pytest.mark.slow
@tensorflow_missing
def test_a_wrong_result_is_caught_and_a_hang_is_killed_and_named() -> None:
    smoke = run_smoke(
        SmokeOptions(
            sizes="tiny",
            devices=("CPU:0",),
            kernel_timeout=3.0,
            fault={"perturb": "matmul/float32", "hang": "xla-dense/float32"},
        )
    )
    assert smoke.status == "timeout"
    assert (smoke.failed_kernel, smoke.failed_device) == ("xla-dense/float32", "/device:CPU:0")
    assert smoke.seconds is not None and smoke.seconds < 60
    results = {(r.kernel, r.dtype): r for r in smoke.devices[0].results}
    wrong = results["matmul", "float32"]
    assert wrong.ok is False and wrong.max_abs_error == pytest.approx(1.0, abs=1e-3)
    assert results["matmul", "float16"].ok is True
    assert results["xla-dense", "float32"].status == "timeout"
    assert results["train-step", "eager"].status == "not-run"
    findings = judge(f.facts(smoke=smoke))
    (crashed,) = by_id(findings, "smoke.crashed")
    assert crashed.severity is Severity.ERROR
    assert "hung in xla-dense/float32 on /device:CPU:0" in crashed.summary
    # A CPU kernel's hang does not blame CUDA.
    assert crashed.fix is not None and "CUDA" not in crashed.fix.text
    # The killed child is gone, not left behind in its own session.
    assert smoke.pid is not None and not alive(smoke.pid)
    (bad,) = [x for x in by_id(findings, "smoke.correctness") if x.severity is Severity.ERROR]
    assert "matmul/float32 on /device:CPU:0" in bad.summary


@pytest.mark.gpu
def test_gpu_kernels_run_on_the_gpu_within_the_memory_cap() -> None:
    smoke = run_smoke(SmokeOptions(level="quick", max_memory=2**30))
    gpus = [d for d in smoke.devices if d.device_type == "GPU"]
    assert smoke.status == "ok", smoke.error_message
    assert gpus, "no GPU listed by TensorFlow"
    for device in gpus:
        assert all(r.placed_on == device.name for r in device.results if r.placed_on)
        assert all(r.ok for r in device.results if r.ok is not None), device.results
        assert device.memory_growth is True and device.memory_limit == 2**30
        assert device.memory_peak is not None and device.memory_peak <= 2**30
    findings = judge(f.facts(smoke=smoke))
    assert not [x for x in findings if x.severity is Severity.ERROR], findings


# --- the CLI -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("smoke", "--quick", "--full"), "different levels", id="both-levels"),
        pytest.param(("smoke", "--max-memory", "lots"), "--max-memory", id="bad-size"),
        pytest.param(("smoke", "--max-memory", "1MiB"), "at least 64 MiB", id="tiny-cap"),
        pytest.param(("smoke", "--timeout", "0"), "positive", id="zero-timeout"),
        pytest.param(("smoke", "--timeout", "inf"), "finite", id="inf-timeout"),
        pytest.param(("smoke", "--timeout", "nan"), "finite", id="nan-timeout"),
        pytest.param(("smoke", "--python", "/nonexistent/python"), "no such", id="no-python"),
        pytest.param(("check", "--smoke", "--static"), "--static", id="check-static"),
    ],
)
def test_bad_smoke_input_exits_3_with_one_line(args: tuple[str, ...], message: str) -> None:
    out = tfdoctor(*args, timeout=60)
    assert out.returncode == 3, out.stderr
    assert out.stdout == ""
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_check_smoke_with_a_facts_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(to_json(f.facts())), encoding="utf-8")
    out = tfdoctor("check", "--smoke", "--facts", str(path), timeout=60)
    assert out.returncode == 3 and "--facts" in out.stderr


@pytest.mark.slow
@tensorflow_missing
def test_smoke_command_json_on_the_cpu() -> None:
    out = tfdoctor(
        "smoke", "--quick", "--json", "--device", "CPU:0", "--max-memory", "256MiB", timeout=300
    )
    report = json.loads(out.stdout)
    # Kernels that compute right and run where pinned give no error; a slow CPU is at most a
    # warning, which changes the exit status only under --strict.
    errors = [x for x in report["findings"] if x["severity"] == "error"]
    assert errors == [], errors
    assert out.returncode == 0, out.stderr
    smoke = report["facts"]["smoke"]
    assert smoke["status"] == "ok" and smoke["level"] == "quick"
    assert smoke["max_memory"] == 256 * 2**20
    row = next(r for r in smoke["devices"][0]["results"] if r["kernel"] == "matmul")
    assert set(row) >= {
        "kernel",
        "dtype",
        "device",
        "placed_on",
        "ok",
        "max_abs_error",
        "tolerance",
        "seconds",
        "flops",
        "throughput",
        "peak",
        "fraction_of_peak",
    }
    assert {x["id"].split(".")[0] for x in report["findings"]} == {"smoke"}
    assert out.returncode == report["summary"]["exit_code"]


def test_check_without_smoke_reports_no_smoke_findings() -> None:
    assert not [x for x in run_checks(CheckContext(f.facts())) if x.id.startswith("smoke.")]


# --- replayed GPU facts ------------------------------------------------------------------


def gpu_result(kernel: str, dtype: str, **kw: object) -> SmokeResult:
    base = SmokeResult(
        kernel=kernel,
        dtype=dtype,
        device="/device:GPU:0",
        placed_on="/device:GPU:0",
        ok=True,
        max_abs_error=0.01,
        tolerance=0.06,
        seconds=0.0005,
        flops=2.0 * 4096**3,
        throughput=2.0 * 4096**3 / 0.0005,
        peak=494.5e12,
        fraction_of_peak=2.0 * 4096**3 / 0.0005 / 494.5e12,
        size="n=4096",
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def gpu_smoke(*results: SmokeResult, **kw: object) -> SmokeFacts:
    device = SmokeDevice(
        name="/device:GPU:0",
        device_type="GPU",
        model="NVIDIA H100 80GB HBM3",
        compute_capability="9.0",
        tf32=True,
        peaks={"float32": 67e12, "tf32": 494.5e12, "float16": 989.5e12, "bfloat16": 989.5e12},
        peak_source="NVIDIA data sheet for H100 SXM (dense, no sparsity): https://example",
        memory_limit=2**30,
        memory_growth=True,
        memory_peak=600 * 2**20,
        results=results
        or (
            gpu_result(
                "first-op",
                "float32",
                seconds=0.8,
                flops=None,
                throughput=None,
                peak=None,
                fraction_of_peak=None,
            ),
            gpu_result("matmul", "float32"),
            gpu_result("mixed-precision-step", "float32", seconds=0.004),
            gpu_result("mixed-precision-step", "mixed_float16", seconds=0.002),
        ),
    )
    base = SmokeFacts(
        status="ok",
        level="quick",
        interpreter="/opt/venv/bin/python",
        tf_version="2.21.0",
        devices=(device,),
        import_seconds=3.0,
        runtime_seconds=1.2,
        kernel_timeout=60.0,
        seconds=12.0,
        max_memory=2**30,
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def test_replayed_gpu_facts_render_and_judge_through_the_cli(tmp_path: Path) -> None:
    slow = gpu_result(
        "matmul", "float16", throughput=50e12, peak=989.5e12, fraction_of_peak=50e12 / 989.5e12
    )
    fallback = gpu_result("conv2d-forward", "float32", placed_on="/device:CPU:0")
    smoke = gpu_smoke(gpu_result("matmul", "float32"), slow, fallback)
    path = tmp_path / "report.json"
    path.write_text(json.dumps(to_json(f.facts(smoke=smoke))), encoding="utf-8")
    out = tfdoctor("check", "--facts", str(path), "--no-color", timeout=60)
    assert out.returncode == 2, out.stderr
    assert "conv2d-forward/float32 asked for /device:GPU:0 but ran on /device:CPU:0" in out.stdout
    assert "(smoke.placement)" in out.stdout
    assert "matmul/float16 on /device:GPU:0 reached 50.0 TFLOP/s, 5% of the 989.5 TFLOP/s peak" in (
        out.stdout
    )
    assert "Smoke test" in out.stdout and "CPU:0 (!)" in out.stdout
    assert "memory: cap 1024 MiB, growth on, peak used 600 MiB" in out.stdout


@pytest.mark.parametrize(
    ("smoke", "fid", "severity", "text"),
    [
        pytest.param(gpu_smoke(), "smoke.throughput", Severity.OK, "of peak", id="healthy"),
        pytest.param(
            gpu_smoke(gpu_result("matmul", "float32", ok=False, max_abs_error=3.0)),
            "smoke.correctness",
            Severity.ERROR,
            "max error 3",
            id="wrong-result",
        ),
        pytest.param(
            gpu_smoke(gpu_result("first-op", "float32", seconds=95.0, flops=None, peak=None)),
            "smoke.first-op",
            Severity.WARNING,
            "took 95.0 s",
            id="ptx-jit",
        ),
        pytest.param(gpu_smoke(), "smoke.mixed-precision", Severity.INFO, "2.0x", id="mixed-pays"),
        pytest.param(
            gpu_smoke(
                gpu_result("matmul", "bfloat16", status="error", ok=False, error="NotFoundError")
            ),
            "smoke.crashed",
            Severity.ERROR,
            "raised an error",
            id="kernel-raised",
        ),
        pytest.param(
            gpu_smoke(
                status="signal",
                signal="SIGSEGV",
                failed_kernel="conv2d-backward/float32",
                failed_device="/device:GPU:0",
            ),
            "smoke.crashed",
            Severity.ERROR,
            "crashed (SIGSEGV) in conv2d-backward/float32 on /device:GPU:0",
            id="signal",
        ),
        pytest.param(
            gpu_smoke(
                gpu_result("matmul", "float32", fraction_of_peak=None, peak=None),
                **{"devices": ()},
            ),
            "smoke.devices",
            Severity.ERROR,
            "tested no device",
            id="no-devices",
        ),
    ],
)
def test_smoke_checks(smoke: SmokeFacts, fid: str, severity: Severity, text: str) -> None:
    found = by_id(judge(f.facts(smoke=smoke)), fid)
    assert any(x.severity is severity and text in x.summary for x in found), found


def test_gpu_smoke_facts_validate_and_render_in_text() -> None:
    facts = f.facts(smoke=gpu_smoke())
    assert_schema_valid(facts)
    text = render_text(Report(facts=facts, findings=tuple(judge(facts))), width=120)
    assert "NVIDIA H100 80GB HBM3 (compute capability 9.0)" in text
    lines = text.splitlines()
    assert (
        "    kernel                dtype          ran on  result  error / tol        time"
        "       throughput     of peak"
    ) in lines
    assert (
        "    matmul                float32        GPU:0   ok      1.0e-02 / 6.0e-02  0.50 ms"
        "    274.9 TFLOP/s  56%"
    ) in lines


# --- the child's events into facts, without TensorFlow ---------------------------------------


def test_a_signal_names_the_running_kernel_and_leaves_the_rest_not_run() -> None:
    plan = {
        "event": "plan",
        "runtime_seconds": 0.5,
        "devices": [
            {
                "name": "/device:GPU:0",
                "device_type": "GPU",
                "model": "NVIDIA A100-SXM4-80GB",
                "compute_capability": "8.0",
                "tf32": True,
                "memory_limit": 2**30,
                "memory_growth": True,
                "plan": [["first-op", "float32"], ["matmul", "float32"], ["matmul", "float16"]],
            }
        ],
    }
    events: list[dict[str, Any]] = [
        {"event": "imported", "seconds": 3.1, "tf_version": "2.21.0"},
        plan,
        {
            "event": "kernel-start",
            "device": "/device:GPU:0",
            "kernel": "first-op",
            "dtype": "float32",
        },
        {
            "event": "kernel-done",
            "device": "/device:GPU:0",
            "kernel": "first-op",
            "dtype": "float32",
            "placed_on": "/device:GPU:0",
            "ok": True,
            "seconds": 0.2,
        },
        {
            "event": "kernel-start",
            "device": "/device:GPU:0",
            "kernel": "matmul",
            "dtype": "float32",
        },
    ]
    smoke = smoke_facts(
        events,
        ChildEnd(returncode=-11, signal="SIGSEGV", seconds=5.0),
        level="quick",
        interpreter="python",
        kernel_timeout=60.0,
        max_memory=2**30,
    )
    assert (smoke.status, smoke.failed_kernel, smoke.signal) == (
        "signal",
        "matmul/float32",
        "SIGSEGV",
    )
    (device,) = smoke.devices
    assert [r.status for r in device.results] == ["ok", "crashed", "not-run"]
    assert device.peaks["tf32"] == 156e12 and device.results[1].peak == 156e12
    assert device.peak_source and "a100-datasheet" in device.peak_source


def test_an_interpreter_that_cannot_start_is_a_child_error() -> None:
    smoke = run_smoke(SmokeOptions(python="/nonexistent/python3"))
    assert smoke.status == "child-error" and "could not start" in (smoke.error_message or "")
    assert smoke.devices == ()


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


def test_every_table_row_cites_its_sources_and_ranges_do_not_overlap() -> None:
    seen: dict[tuple[str, int, int], str] = {}
    for row in MICROARCHITECTURES:
        assert row.sources and all(s.startswith("http") for s in row.sources), row.name
        assert row.flops_per_cycle in (16, 32, 64), row.name
        for low, high in row.models:
            for model in range(low, high + 1):
                key = (row.vendor, row.family, model)
                # Only rows told apart by the model name may share a model number.
                assert key not in seen or row.name_pattern is None or seen[key] != row.name
                seen.setdefault(key, row.name)


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


def fma_runs_here() -> bool:
    """Whether the FMA loop can run on this machine: Linux, x86-64, FMA3."""
    if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "AMD64"):
        return False
    match = re.search(r"^flags\s*:(.*)$", Path("/proc/cpuinfo").read_text(), re.MULTILINE)
    return match is not None and bool(fma_kernels(set(match.group(1).split())))


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


@pytest.mark.parametrize(
    ("text", "size"),
    [
        pytest.param("1GiB", 2**30, id="gib"),
        pytest.param("512MiB", 512 * 2**20, id="mib"),
        pytest.param("2g", 2 * 2**30, id="g"),
        pytest.param("1.5G", 3 * 2**29, id="fraction"),
        pytest.param("1048576", 2**20, id="bytes"),
    ],
)
def test_parse_size(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize(
    ("child", "python"),
    [
        pytest.param(CHILD, (3, 8), id="kernels"),
        pytest.param(FMA_CHILD, (3, 8), id="fma-loop"),
        pytest.param(MEMORY_CHILD, (3, 7), id="memory-held"),
    ],
)
def test_the_children_parse_on_old_pythons_and_import_nothing_from_tfdoctor(
    child: Path, python: tuple[int, int]
) -> None:
    tree = ast.parse(child.read_text(encoding="utf-8"), feature_version=python)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert not node.module.startswith("tfdoctor"), node.module
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("tfdoctor") for a in node.names)


# --- devices asked for, placement with soft placement off, the CPU shared --------------------


@pytest.mark.slow
@tensorflow_missing
def test_a_device_tensorflow_lacks_and_a_misplaced_kernel_are_errors() -> None:
    smoke = run_smoke(
        SmokeOptions(sizes="tiny", devices=("CPU:0", "GPU:7"), fault={"misplace": "matmul/float16"})
    )
    assert smoke.status == "ok", smoke.error_message or smoke.stderr_tail
    assert smoke.requested_devices == ("CPU:0", "GPU:7")
    assert smoke.unmatched_devices == ("GPU:7",)
    assert "CPU:0" in smoke.listed_devices
    (device,) = smoke.devices
    results = {(r.kernel, r.dtype): r for r in device.results}
    misplaced = results["matmul", "float16"]
    assert misplaced.placed_on == "fallback" and misplaced.status == "error", misplaced
    assert "Could not satisfy device specification" in (misplaced.error or "")
    assert results["matmul", "float32"].placed_on == "/device:CPU:0"
    # What the child measured of the CPU it ran on.
    assert device.cpu_affinity == len(os.sched_getaffinity(0))
    assert device.cpu_busy_others is not None and device.cpu_busy_others >= 0
    findings = judge(f.facts(smoke=smoke))
    (devices,) = [x for x in by_id(findings, "smoke.devices") if x.severity is Severity.ERROR]
    listed = ", ".join(smoke.listed_devices)
    assert devices.summary == f"GPU:7 was asked for; TensorFlow lists only {listed}"
    (placement,) = by_id(findings, "smoke.placement")
    assert placement.severity is Severity.ERROR
    assert placement.summary == "matmul/float16 could not run on /device:CPU:0"
    # Counted once, as placement: the crash check passes the rest.
    assert [x.severity for x in by_id(findings, "smoke.crashed")] == [Severity.OK]
    assert not alive(smoke.pid or 0)


@pytest.mark.slow
@tensorflow_missing
def test_smoke_on_a_gpu_tensorflow_does_not_list_exits_2_naming_it() -> None:
    out = tfdoctor("smoke", "--json", "--device", "GPU:9", timeout=300)
    report = json.loads(out.stdout)
    assert out.returncode == 2, out.stderr
    smoke = report["facts"]["smoke"]
    assert smoke["devices"] == [] and smoke["unmatched_devices"] == ["GPU:9"]
    errors = [x for x in report["findings"] if x["severity"] == "error"]
    assert [x["id"] for x in errors] == ["smoke.devices"]
    assert errors[0]["summary"].startswith("GPU:9 was asked for; TensorFlow lists only CPU:0")
    assert not [x for x in report["findings"] if x["severity"] == "ok"]


def smoke_plan(**plan: object) -> list[dict[str, object]]:
    """Events of a finished run whose plan carried ``plan``."""
    return [
        {"event": "start", "pid": 4242},
        {"event": "imported", "seconds": 3.0, "tf_version": "2.21.0"},
        {"event": "plan", "runtime_seconds": 0.1, **plan},
        {"event": "done"},
    ]


def test_unmatched_devices_become_facts_and_an_error_not_an_ok() -> None:
    events = smoke_plan(devices=[], listed=["CPU:0"], unmatched=["GPU:0"])
    smoke = smoke_facts(
        events,
        ChildEnd(returncode=0, seconds=7.0),
        level="quick",
        interpreter="python",
        kernel_timeout=60.0,
        max_memory=2**30,
        requested=("GPU:0",),
    )
    assert (smoke.requested_devices, smoke.unmatched_devices) == (("GPU:0",), ("GPU:0",))
    assert (smoke.listed_devices, smoke.pid, smoke.devices) == (("CPU:0",), 4242, ())
    facts = f.facts(smoke=smoke, driver=None)
    assert_schema_valid(facts)
    findings = judge(facts)
    assert [(x.id, x.severity, x.summary) for x in findings] == [
        ("smoke.devices", Severity.ERROR, "GPU:0 was asked for; TensorFlow lists only CPU:0")
    ]
    text = render_text(Report(facts=facts, findings=tuple(findings)), width=120)
    assert "asked for GPU:0; TensorFlow lists CPU:0" in text


@pytest.mark.parametrize(
    ("requested", "severities"),
    [
        pytest.param((), [Severity.WARNING], id="every-device"),
        pytest.param(("GPU:0", "CPU:0"), [Severity.WARNING], id="gpu-asked"),
        pytest.param(("CPU:0",), [Severity.OK], id="cpu-only-asked"),
    ],
)
def test_driver_gpus_that_tensorflow_did_not_test_are_named(
    requested: tuple[str, ...], severities: list[Severity]
) -> None:
    cpu = SmokeDevice(name="/device:CPU:0", device_type="CPU")
    smoke = SmokeFacts(
        "ok",
        "quick",
        "python",
        devices=(cpu,),
        requested_devices=requested,
        listed_devices=("CPU:0",),
    )
    driver = f.driver()
    assert driver.gpus
    found = by_id(judge(f.facts(smoke=smoke, driver=driver)), "smoke.devices")
    assert [x.severity for x in found] == severities
    if severities == [Severity.WARNING]:
        count = len(driver.gpus)
        assert found[0].summary == (
            f"The driver reports {count} GPU{'s' if count != 1 else ''}; TensorFlow tested none"
        )


def test_smoke_report_reads_the_driver(tmp_path: Path) -> None:
    # An "interpreter" that says its version, then exits at once when given the smoke child:
    # the smoke fails, the driver is still probed.
    python = tmp_path / "python"
    python.write_text(
        f'#!/bin/sh\n[ "$1" = -c ] && exec {shlex.quote(sys.executable)} "$@"\nexit 0\n',
        encoding="utf-8",
    )
    python.chmod(0o755)
    report = smoke_report(SmokeOptions(python=str(python)))
    assert report.facts.smoke is not None and report.facts.smoke.status == "child-error"
    assert report.facts.driver is not None
    assert report.facts.driver.source in ("nvml", "nvidia-smi", "none")


@pytest.mark.parametrize(
    ("message", "fallback"),
    [
        pytest.param(
            "InvalidArgumentError: Could not satisfy device specification "
            "'/job:localhost/replica:0/task:0/device:GPU:0'. enable_soft_placement=0. "
            "Supported device types [CPU]. All available devices "
            "[/job:localhost/replica:0/task:0/device:CPU:0].",
            True,
            id="no-such-device-tf-2.21",
        ),
        pytest.param(
            "NotFoundError: No registered 'Conv2D' OpKernel for 'GPU' devices compatible with "
            "node {{node Conv2D}}",
            True,
            id="no-gpu-kernel",
        ),
        pytest.param(
            "InvalidArgumentError: Cannot assign a device for operation MatMul: Could not "
            "satisfy explicit device specification '/device:GPU:0' because no supported kernel "
            "for GPU devices is available.",
            True,
            id="explicit-no-supported-kernel",
        ),
        pytest.param(
            "NotFoundError: Could not find device for node: {{node MatMul}} = MatMul[T=DT_INT8]",
            True,
            id="no-device-for-node",
        ),
        pytest.param(
            "InternalError: Failed to load in-memory CUBIN: CUDA_ERROR_NO_BINARY_FOR_GPU",
            False,
            id="cuda-error",
        ),
        pytest.param(
            "ResourceExhaustedError: OOM when allocating tensor with shape[4096,4096]",
            False,
            id="oom",
        ),
    ],
)
def test_placement_errors_are_told_from_other_errors(message: str, fallback: bool) -> None:
    assert smoke_kernels.is_placement_error(message) is fallback


def cpu_smoke(busy: float | None, affinity: int = 2, quota: float | None = None) -> SmokeFacts:
    slow = SmokeResult(
        kernel="xla-dense",
        dtype="float32",
        device="/device:CPU:0",
        placed_on="/device:CPU:0",
        ok=True,
        throughput=17e9,
        peak=100e9,
        fraction_of_peak=0.17,
        size="n=1024",
    )
    device = SmokeDevice(
        name="/device:CPU:0",
        device_type="CPU",
        peaks={"float32": 100e9},
        peak_source="2 cores x 2.45 GHz (clock) x 32 float32 FLOP/cycle (AVX2+FMA)",
        peak_basis="derived",
        cpu_affinity=affinity,
        cpu_quota=quota,
        cpu_busy_others=busy,
        results=(slow,),
    )
    return SmokeFacts("ok", "quick", "python", devices=(device,))


@pytest.mark.parametrize(
    ("smoke", "severity", "words"),
    [
        pytest.param(cpu_smoke(1.0), Severity.INFO, "kept 1.0 of its 2 CPUs busy", id="shared"),
        pytest.param(cpu_smoke(0.2), Severity.WARNING, "17% of the", id="idle-machine"),
        pytest.param(cpu_smoke(None), Severity.WARNING, "17% of the", id="not-measured"),
        # A quota of 2 CPUs on a 16-CPU machine: others on 10 CPUs still leave it 6.
        pytest.param(cpu_smoke(10.0, 16, 2.0), Severity.WARNING, "17%", id="quota-room-left"),
        pytest.param(cpu_smoke(15.0, 16, 2.0), Severity.INFO, "not judged", id="quota-squeezed"),
    ],
)
def test_a_shared_cpu_is_not_judged_slow(smoke: SmokeFacts, severity: Severity, words: str) -> None:
    (found,) = by_id(judge(f.facts(smoke=smoke)), "smoke.throughput")
    assert found.severity is severity and words in found.summary, found
    if severity is Severity.WARNING:
        assert "GPU" not in found.detail and "fallback" not in found.detail
        assert found.fix is not None and found.fix.commands == ("top",)


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


# --- the child never outlives the parent ------------------------------------------------------

PARENT = """
import sys
from tfdoctor.smoke import SmokeOptions, run_smoke
run_smoke(SmokeOptions(kernel_timeout=600, import_timeout=600, fault={"hang": "import/tensorflow"}))
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_the_child_dies_with_its_parent(signum: signal.Signals) -> None:
    parent = start(
        [sys.executable, "-c", PARENT],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        child = wait_for_child(parent.pid, "smoke_kernels.py")
        assert child, "the smoke child never started"
        time.sleep(0.5)  # past exec: the child runs its own code, hanging before the import
        parent.send_signal(signum)
        parent.wait(timeout=30)
        assert gone_within(child[0], 15), f"child {child[0]} outlived its parent ({signum.name})"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


# --- GPU selection in the child: only the GPUs asked for get a CUDA context -------------------


class _Dev:
    def __init__(self, name: str, device_type: str) -> None:
        self.name = name
        self.device_type = device_type


class _Ns:
    def __init__(self, **attrs: object) -> None:
        self.__dict__.update(attrs)


class SelectionTF:
    """The tf.config calls setup_devices makes, keeping TensorFlow's renumbering of visible
    GPUs (tensorflow/core/common_runtime/gpu/gpu_device.cc); anything else is an error."""

    def __init__(self, gpus: int) -> None:
        self.physical = [_Dev("/physical_device:CPU:0", "CPU")] + [
            _Dev(f"/physical_device:GPU:{i}", "GPU") for i in range(gpus)
        ]
        self.visible = [d for d in self.physical if d.device_type == "GPU"]
        self.capped: list[str] = []
        self.soft: list[bool] = []
        self.config = _Ns(
            list_physical_devices=self._physical,
            set_visible_devices=self._set_visible,
            set_logical_device_configuration=lambda dev, configs: self.capped.append(dev.name),
            LogicalDeviceConfiguration=lambda memory_limit: memory_limit,
            list_logical_devices=self._logical,
            set_soft_device_placement=self.soft.append,
            experimental=_Ns(
                tensor_float_32_execution_enabled=lambda: True,
                get_device_details=lambda dev: {
                    "device_name": f"Tesla T4 {dev.name[-1]}",
                    "compute_capability": (7, 5),
                },
            ),
        )

    def _physical(self, device_type: str | None = None) -> list[_Dev]:
        assert device_type is None
        return list(self.physical)

    def _set_visible(self, devices: list[_Dev], device_type: str) -> None:
        assert device_type == "GPU"
        self.visible = list(devices)

    def _logical(self) -> list[_Dev]:
        gpus = [_Dev(f"/device:GPU:{i}", "GPU") for i in range(len(self.visible))]
        return [_Dev("/device:CPU:0", "CPU"), *gpus]


@pytest.mark.parametrize(
    ("wanted", "visible", "names", "unmatched"),
    [
        pytest.param([], ["GPU:0", "GPU:1"], ["CPU:0", "GPU:0", "GPU:1"], [], id="all"),
        pytest.param(["CPU:0"], [], ["CPU:0"], [], id="cpu-only-hides-every-gpu"),
        pytest.param(["GPU:1"], ["GPU:1"], ["GPU:1"], [], id="second-gpu-only"),
        pytest.param(["/device:GPU:1", "gpu:5"], ["GPU:1"], ["GPU:1"], ["gpu:5"], id="missing"),
    ],
)
def test_the_child_makes_only_the_selected_gpus_visible(
    wanted: list[str], visible: list[str], names: list[str], unmatched: list[str]
) -> None:
    tf = SelectionTF(2)
    config: dict[str, object] = {"devices": wanted}
    devices = smoke_kernels.setup_devices(tf, config, 2**30)
    assert [d.name.rsplit("/", 1)[1].replace("physical_device:", "") for d in tf.visible] == (
        visible
    )
    assert tf.capped == [f"/physical_device:{v}" for v in visible]
    assert [d["name"].replace("/device:", "") for d in devices] == names
    assert config["unmatched"] == unmatched
    assert config["listed"] == ["CPU:0", "GPU:0", "GPU:1"]
    assert tf.soft == [False]
    if wanted == ["GPU:1"]:
        (gpu,) = devices
        # Reported as GPU:1, run as TensorFlow's renumbered GPU:0, described as physical 1.
        assert (gpu["name"], gpu["run_as"], gpu["model"]) == (
            "/device:GPU:1",
            "/device:GPU:0",
            "Tesla T4 1",
        )


# --- fixes fit the device, and the memory cap ------------------------------------------------


def cpu_result(**kw: object) -> SmokeResult:
    base = SmokeResult(
        kernel="matmul", dtype="float32", device="/device:CPU:0", placed_on="/device:CPU:0"
    )
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def test_fixes_name_gpu_tools_only_for_gpu_kernels() -> None:
    cpu = SmokeDevice(
        name="/device:CPU:0",
        device_type="CPU",
        results=(
            cpu_result(ok=False, max_abs_error=2.0, tolerance=1e-3),
            cpu_result(kernel="conv2d-forward", status="error", error="InternalError: boom"),
        ),
    )
    findings = judge(f.facts(smoke=SmokeFacts("ok", "quick", "python", devices=(cpu,))))
    (wrong,) = by_id(findings, "smoke.correctness")
    (raised,) = by_id(findings, "smoke.crashed")
    assert wrong.fix is not None and "nvidia-smi" not in " ".join(wrong.fix.commands)
    assert "ECC" not in wrong.fix.text
    assert raised.fix is not None and "tfdoctor check" not in raised.fix.text
    gpu_findings = judge(f.facts(smoke=gpu_smoke(gpu_result("matmul", "float32", ok=False))))
    (gpu_wrong,) = by_id(gpu_findings, "smoke.correctness")
    assert gpu_wrong.fix is not None and gpu_wrong.fix.commands == ("nvidia-smi -q -d ECC",)
    hung = judge(f.facts(smoke=gpu_smoke(status="timeout", failed_device="/device:GPU:0")))
    (crashed,) = by_id(hung, "smoke.crashed")
    assert crashed.fix is not None and "CUDA/cuDNN" in crashed.fix.text


@pytest.mark.parametrize(
    ("capability", "policy"),
    [
        pytest.param("9.0", "mixed_bfloat16", id="hopper-bfloat16"),
        pytest.param("8.0", "mixed_bfloat16", id="a100-bfloat16"),
        pytest.param("7.5", "mixed_float16", id="turing-float16"),
        pytest.param("6.1", "mixed_float16", id="pascal-float16-by-name"),
        pytest.param(None, "mixed_float16", id="unknown-float16-by-name"),
    ],
)
def test_mixed_precision_fix_points_at_the_training_script(
    capability: Optional[str], policy: str
) -> None:
    smoke = gpu_smoke()
    smoke = dataclasses.replace(
        smoke, devices=(dataclasses.replace(smoke.devices[0], compute_capability=capability),)
    )
    (found,) = by_id(judge(f.facts(smoke=smoke)), "smoke.mixed-precision")
    assert found.fix is not None and found.fix.commands == ()
    # "auto" keeps float32 where it sees no tensor cores: the advice then names the float16
    # that the step measured.
    asked = "auto" if capability is not None and float(capability) >= 7.0 else "float16"
    assert f'tfdoctor.configure_gpus(mixed_precision="{asked}")`' in found.fix.text
    assert f'keras.mixed_precision.set_global_policy("{policy}")' in found.fix.text
    assert "python -c" not in found.fix.text


@pytest.mark.parametrize(
    "capability",
    [
        "3.5",
        "5.2",
        "6.0",
        "6.1",
        "7.0",
        "7.2",
        "7.5",
        "8.0",
        "8.6",
        "8.9",
        "9.0",
        "10.0",
        "12.0",
        None,
    ],
)
def test_the_child_plans_the_policy_that_configure_gpus_picks(capability: Optional[str]) -> None:
    # The child runs without tfdoctor, so it keeps its own copy of the rule (gpu_supports);
    # both must give one policy for every compute capability.
    major, _, minor = (capability or "").partition(".")
    parsed = None if capability is None else (int(major), int(minor))
    if smoke_kernels.gpu_supports("bfloat16", parsed):
        child = "mixed_bfloat16"
    elif smoke_kernels.gpu_supports("float16", parsed):
        child = "mixed_float16"
    else:
        child = None
    assert choose_policy("auto", (capability,))[0] == child


@pytest.mark.parametrize(
    ("device", "severity", "words"),
    [
        pytest.param({}, Severity.OK, "stayed within its 1024 MiB cap", id="within"),
        pytest.param(
            {"memory_peak": 1500 * 2**20}, Severity.WARNING, "1500 MiB on /device:GPU:0", id="over"
        ),
        pytest.param(
            {"memory_setup_error": "RuntimeError: Virtual devices cannot be modified"},
            Severity.WARNING,
            "could not cap its memory",
            id="cap-not-set",
        ),
    ],
)
def test_the_memory_cap_is_judged(
    device: dict[str, object], severity: Severity, words: str
) -> None:
    smoke = gpu_smoke()
    changed = dataclasses.replace(smoke.devices[0], **device)  # type: ignore[arg-type]
    smoke = dataclasses.replace(smoke, devices=(changed,))
    (found,) = by_id(judge(f.facts(smoke=smoke)), "smoke.memory")
    assert found.severity is severity and words in found.summary


def test_the_text_table_shortens_the_peak_source() -> None:
    cpu = SmokeDevice(
        name="/device:CPU:0",
        device_type="CPU",
        peaks={"float32": 156.8e9},
        peak_source=(
            "2 cores x 2.45 GHz (clock /proc/cpuinfo reports (often the base clock, notably in "
            "a virtual machine; boost runs higher)) x 32 float32 FLOP/cycle (AVX2+FMA: 2 FMA "
            "units x 8 float32 lanes x 2)"
        ),
        cpu_affinity=2,
        cpu_busy_others=0.1,
        results=(cpu_result(throughput=50e9, peak=156.8e9, fraction_of_peak=50 / 156.8),),
    )
    facts = f.facts(smoke=SmokeFacts("ok", "quick", "python", devices=(cpu,)))
    lines = render_text(Report(facts=facts, findings=()), width=120).splitlines()
    assert "    peak: 2 cores x 2.45 GHz x 32 float32 FLOP/cycle" in lines
    assert "    CPUs: 2 usable; other processes meanwhile: 0.1 CPUs busy" in lines
    (header,) = [line for line in lines if line.startswith("    kernel ")]
    assert header.endswith(" of peak") and " peak" not in header.replace("of peak", "")
