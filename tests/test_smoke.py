"""The smoke test: real TensorFlow on the CPU, a perturbed and a hanging kernel, replayed GPU
facts judged and rendered, devices and placement, the child's lifetime and GPU selection.
The peaks it judges throughput against are tested in ``test_smoke_peaks.py``."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
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
from tests.processes import alive, gone_within, start, wait_for_child
from tests.smoke_helpers import assert_schema_valid, by_id, cpu_result, fma_runs_here, judge
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import (
    SmokeDevice,
    SmokeFacts,
    SmokeResult,
    facts_from_json,
    to_json,
)
from tfdoctor.findings import Report, Severity
from tfdoctor.gpu_config import choose_policy
from tfdoctor.render.text import render_text
from tfdoctor.smoke import CHILD, SmokeOptions, parse_size, run_smoke
from tfdoctor.smoke.child import smoke_kernels
from tfdoctor.smoke.events import ChildEnd, smoke_facts
from tfdoctor.smoke.fma import CHILD as FMA_CHILD
from tfdoctor.smoke.memory import CHILD as MEMORY_CHILD
from tfdoctor.smoke.service import smoke_report

ROOT = Path(__file__).resolve().parent.parent
MARKER = "=== m ==="


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
    assert package_imports(child.read_text(encoding="utf-8"), python) == []


def package_imports(source: str, python: tuple[int, int]) -> list[str]:
    """The tfdoctor modules a child's source imports (a child runs by path in the target
    interpreter, where tfdoctor is not installed); SyntaxError where ``python`` cannot
    parse it."""
    names = []
    for node in ast.walk(ast.parse(source, feature_version=python)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
    return [name for name in names if name.split(".")[0] == "tfdoctor"]


def test_a_child_importing_the_package_or_newer_syntax_is_caught() -> None:
    assert package_imports("import json\nfrom tfdoctor.smoke import CHILD\n", (3, 8)) == [
        "tfdoctor.smoke"
    ]
    assert package_imports("import tfdoctor\n", (3, 8)) == ["tfdoctor"]
    with pytest.raises(SyntaxError):
        package_imports("if (n := 1):\n    pass\n", (3, 7))


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
