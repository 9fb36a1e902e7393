"""Containers: detection from mounts, "no GPU at build time" vs a broken GPU, --require-gpu."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import factories as f
from tests.commandline import tfdoctor
from tfdoctor.checks import GPU_GATE, run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.gpu import check_gpu_required
from tfdoctor.facts import DeviceFacts, DriverFacts, Facts, ProbeError, TensorFlowFacts, to_json
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import Matrix
from tfdoctor.probes import system

DATA = Path(__file__).resolve().parent / "data" / "docker"
MATRIX = f.FIXTURE_MATRIX


def run_one(
    check_id: str, facts: Facts, require_gpu: bool = False, matrix: Matrix | None = MATRIX
) -> list[Finding]:
    ctx = CheckContext(facts, matrix, require_gpu=require_gpu)
    return list(run_checks(ctx, select_checks([check_id])))


def _text(finding: Finding) -> str:
    parts = [finding.summary, finding.detail]
    if finding.fix:
        parts += [finding.fix.text, *finding.fix.commands]
    return "\n".join(parts)


# --- detection -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("mountinfo_docker_run.txt", "docker", id="docker-run"),
        pytest.param("mountinfo_buildkit_step.txt", "buildkit", id="buildkit-step"),
        pytest.param("mountinfo_podman_rootful.txt", "podman", id="podman"),
        pytest.param("mountinfo_containerd_nerdctl.txt", "containerd", id="containerd"),
        pytest.param("mountinfo_docker_host.txt", None, id="docker-host-is-not-a-container"),
    ],
)
def test_root_mount_runtime(name: str, expected: str | None) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    assert system.parse_root_mount_runtime(text) == expected


@pytest.mark.parametrize(
    ("cgroup", "env", "dockerenv", "containerenv", "mountinfo", "expected"),
    [
        # BuildKit RUN steps: no /.dockerenv, cgroup v2 "0::/"; only the mounts tell.
        pytest.param(
            "0::/\n", {}, False, False, "mountinfo_buildkit_step.txt", "buildkit", id="bk"
        ),
        pytest.param("0::/\n", {}, False, False, "mountinfo_docker_run.txt", "docker", id="docker"),
        pytest.param("0::/\n", {}, True, False, "mountinfo_docker_host.txt", "docker", id="marker"),
        pytest.param("0::/\n", {}, False, True, "mountinfo_podman_rootful.txt", "podman", id="pm"),
        pytest.param(
            "0::/\n",
            {"KUBERNETES_SERVICE_HOST": "10.96.0.1"},
            False,
            False,
            "mountinfo_containerd_nerdctl.txt",
            "kubernetes",
            id="kubernetes-env-wins",
        ),
        pytest.param("0::/\n", {}, False, False, "mountinfo_docker_host.txt", None, id="host"),
    ],
)
def test_parse_container_uses_mounts(
    cgroup: str,
    env: dict[str, str],
    dockerenv: bool,
    containerenv: bool,
    mountinfo: str,
    expected: str | None,
) -> None:
    text = (DATA / mountinfo).read_text(encoding="utf-8")
    assert system.parse_container(cgroup, env, dockerenv, containerenv, text) == expected


def test_probe_platform_reads_the_container_of_this_process() -> None:
    # Whatever this machine is, the probe must agree with the parser on its own files.
    def read(path: str) -> str:
        try:
            return Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    expected = system.parse_container(
        read("/proc/1/cgroup"),
        os.environ,
        Path("/.dockerenv").exists(),
        Path("/run/.containerenv").exists(),
        read("/proc/self/mountinfo"),
    )
    if sys.platform != "linux":
        expected = None
    assert system.probe_platform().container == expected


# --- facts fixtures --------------------------------------------------------------------------

STATIC_TF = TensorFlowFacts(status="skipped", interpreter="/opt/venv/bin/python")


def build_step(container: str = "docker", **kw: Any) -> Facts:
    """A `docker build` RUN step of a GPU image: CUDA wheels installed, no GPU, no driver."""
    base = f.facts(
        platform=f.platform(container=container, nvidia_device_nodes=()),
        driver=f.NO_DRIVER,
        tensorflow=STATIC_TF,
    )
    return dataclasses.replace(base, **kw)


def gpu_container(**kw: object) -> Facts:
    """A container started with `--gpus all`: device nodes, driver, TensorFlow sees the GPU."""
    return f.facts(platform=f.platform(container="docker"), **kw)


NO_GPU_TF = f.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),))
OLD_DRIVER = f.driver(driver_version="470.82.01", cuda_version="11.4")
MISMATCH = DriverFacts(
    "none", error=ProbeError("driver", "version-mismatch", "Driver/library version mismatch")
)
NOT_LOADED = DriverFacts(
    "none", error=ProbeError("driver", "driver-not-loaded", "kernel module not loaded")
)
NVML_NO_GPU = DriverFacts(
    "none", error=ProbeError("driver", "no-gpu", "The NVIDIA driver is loaded but reports no GPUs")
)


# --- gpu.absent ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "needle"),
    [
        pytest.param(build_step(), "this docker container (expected at build time)", id="docker"),
        pytest.param(build_step("buildkit"), "this BuildKit build step", id="buildkit"),
        pytest.param(build_step("podman"), "podman", id="podman"),
        pytest.param(build_step("kubernetes"), "Kubernetes pod", id="kubernetes"),
        pytest.param(build_step(driver=NVML_NO_GPU), "expected at build time", id="nvml-no-gpu"),
    ],
)
def test_gpu_absent_is_info_in_a_container_without_gpu_access(facts: Facts, needle: str) -> None:
    (finding,) = run_one("gpu.absent", facts)
    assert finding.id == "gpu.absent"
    assert finding.severity is Severity.INFO
    assert needle in finding.summary


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(f.cpu_only_machine(), id="not-a-container"),
        pytest.param(gpu_container(), id="gpu-present"),
        # Device nodes but no driver library: a broken setup, driver.nvidia's error.
        pytest.param(
            build_step(platform=f.platform(container="docker")), id="nodes-without-driver"
        ),
        pytest.param(build_step(driver=MISMATCH), id="driver-mismatch"),
        pytest.param(
            build_step(driver=None, errors=(ProbeError("driver", "crashed", "boom"),)),
            id="no-driver-facts",
        ),
    ],
)
def test_gpu_absent_is_silent_otherwise(facts: Facts) -> None:
    assert run_one("gpu.absent", facts) == []


@pytest.mark.parametrize(
    ("facts", "where"),
    [
        pytest.param(build_step(), "this docker container", id="docker"),
        pytest.param(build_step("buildkit"), "this BuildKit build step", id="buildkit"),
    ],
)
def test_gpu_absent_is_the_cause_when_a_gpu_is_required(facts: Facts, where: str) -> None:
    # With --require-gpu the missing GPU is no longer expected: the report names the cause
    # that gpu.required then raises to an error.
    (finding,) = run_one("gpu.absent", facts, require_gpu=True)
    assert (finding.severity, finding.cause) == (Severity.WARNING, "container-no-gpu")
    assert finding.summary == f"No GPU was handed to {where}"


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(build_step(platform=f.platform(container="docker")), id="nodes-no-library"),
        pytest.param(build_step(driver=MISMATCH), id="version-mismatch"),
        pytest.param(
            build_step(platform=f.platform(container="docker"), driver=NOT_LOADED),
            id="nodes-module-not-loaded",
        ),
    ],
)
def test_a_broken_gpu_in_a_container_is_still_an_error(facts: Facts) -> None:
    (finding,) = run_one("driver.nvidia", facts)
    assert finding.severity is Severity.ERROR
    assert run_one("gpu.absent", facts) == []


def test_build_step_passes_strict() -> None:
    facts = build_step()
    findings = run_checks(CheckContext(facts, MATRIX))
    worst = {x.id: x.severity for x in findings if x.severity.rank > Severity.INFO.rank}
    assert worst == {}
    assert "gpu.absent" in {x.id for x in findings}


# --- gpu.required ----------------------------------------------------------------------------

TOOLKIT_FIX = "docker run --gpus all IMAGE"

#: What the gate's cause waits for where the GPU checks do not yet name it.


@dataclasses.dataclass(frozen=True)
class Gate:
    """A --require-gpu scenario: the facts, the cause the gate must name, words it must use."""

    id: str
    facts: Facts
    cause: str
    needles: tuple[str, ...]
    with_matrix: bool = True
    #: Why the GPU checks do not yet name ``cause`` (the scenario is then an expected failure).
    pending: str | None = None
    #: Until then the gate even opens (no GPU check finds anything wrong).
    still_opens: bool = False


REQUIRED_ERRORS = [
    Gate(
        "docker-no-access",
        build_step(),
        "container-no-gpu",
        ("No GPU was handed to this docker container", "(see gpu.absent)", TOOLKIT_FIX),
    ),
    Gate(
        "podman-no-access",
        build_step("podman"),
        "container-no-gpu",
        ("podman container", "podman run --device nvidia.com/gpu=all IMAGE", "nvidia-ctk cdi"),
    ),
    Gate(
        "kubernetes-no-limit",
        build_step("kubernetes"),
        "container-no-gpu",
        ("No GPU was handed to this Kubernetes pod", "nvidia.com/gpu: 1"),
    ),
    Gate(
        "nodes-without-libraries",
        build_step(platform=f.platform(container="docker")),
        "container-no-gpu",
        ("NVIDIA device nodes exist", "without the NVIDIA runtime", TOOLKIT_FIX),
    ),
    Gate(
        "visible-devices-void",
        build_step(environment={"NVIDIA_VISIBLE_DEVICES": "void"}),
        "container-no-gpu",
        ("NVIDIA_VISIBLE_DEVICES='void'", TOOLKIT_FIX),
    ),
    # The catalogue has no cause for "no GPU at all": the gate names driver.nvidia's note.
    Gate(
        "host-without-gpu",
        f.cpu_only_machine(),
        "",
        ("No NVIDIA GPU or driver on this machine", "(see driver.nvidia)", "nvidia-smi"),
    ),
    Gate(
        "driver-mismatch",
        gpu_container(driver=MISMATCH, tensorflow=NO_GPU_TF),
        "driver-version-mismatch",
        ("version mismatch", "(see driver.nvidia)", "do this on the host"),
    ),
    Gate(
        "host-nodes-without-library",
        f.facts(driver=f.NO_DRIVER, tensorflow=NO_GPU_TF),
        "driver-libraries-missing",
        (
            "libnvidia-ml.so.1",
            "(see driver.nvidia)",
            "Reinstall the user-space libraries of the driver",
        ),
    ),
    Gate(
        "old-driver-matrix",
        gpu_container(driver=OLD_DRIVER, tensorflow=NO_GPU_TF),
        "driver-too-old",
        ("Driver 470.82.01 is too old for TensorFlow 2.15's CUDA 12.2 build", ">= 525.60.13"),
    ),
    Gate(
        "old-driver-static",
        build_step(platform=f.platform(container="docker"), driver=OLD_DRIVER),
        "driver-too-old",
        ("too old", "525.60.13", "on the host"),
    ),
    Gate(
        "old-driver-log-without-matrix",
        gpu_container(
            driver=OLD_DRIVER,
            tensorflow=f.tensorflow(
                devices=(),
                log_errors=("failed call to cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",),
            ),
        ),
        "driver-too-old",
        ("sees none of the 1 GPU(s)", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"),
        with_matrix=False,
    ),
    Gate(
        "libraries-missing",
        gpu_container(cuda_libs=f.cuda_libs(f.lib("cudnn", "libcudnn.so.8")), tensorflow=NO_GPU_TF),
        "cuda-libs-missing",
        ("Missing CUDA libraries TensorFlow needs: cudnn", "tensorflow[and-cuda]==2.15.1"),
    ),
    Gate(
        "libraries-dlopen-log",
        gpu_container(
            tensorflow=f.tensorflow(
                devices=(), log_errors=("Cannot dlopen some GPU libraries. Skipping",)
            )
        ),
        "cuda-libs-missing",
        ("sees none of the 1 GPU(s)", "Cannot dlopen"),
    ),
    Gate(
        "import-dlopen",
        gpu_container(
            tensorflow=f.tensorflow(
                status="import-error",
                devices=(),
                error_type="ImportError",
                error_message="libcudart.so.12: cannot open shared object file: No such file",
            )
        ),
        "cuda-libs-missing",
        ("Missing: cudart", "(see tensorflow.import)"),
    ),
    Gate(
        "cpu-build",
        gpu_container(tensorflow=f.tensorflow(is_cuda_build=False, devices=())),
        "tf-cpu-only-build",
        ("tensorflow 2.15.1) is a CPU-only build", 'install "tensorflow[and-cuda]==2.15.1"'),
    ),
    Gate(
        "cpu-distribution-static",
        gpu_container(
            packages=(f.pkg("tensorflow-cpu", "2.15.1", top_level=("tensorflow",)),),
            tensorflow=STATIC_TF,
        ),
        "tf-cpu-only-build",
        ("tensorflow-cpu 2.15.1", "CPU-only build", "uninstall -y tensorflow-cpu"),
        still_opens=True,
    ),
    Gate(
        "not-installed",
        gpu_container(packages=(f.pkg("numpy", "1.26.4"),), tensorflow=STATIC_TF),
        "tf-not-installed",
        ("TensorFlow is not installed", "(see packages.tensorflow)"),
    ),
    Gate(
        "import-crash",
        gpu_container(tensorflow=f.tensorflow(status="signal", signal="SIGSEGV", devices=())),
        "import-crash",
        ("killed the interpreter with SIGSEGV", "(see tensorflow.import)"),
    ),
    Gate(
        "tf-sees-no-gpu",
        gpu_container(tensorflow=NO_GPU_TF),
        "gpu-unseen-no-reason",
        ("sees none of the 1 GPU(s)", "(see gpu.visible)", "TF_CPP_MIN_LOG_LEVEL=0"),
    ),
    Gate(
        "no-driver-facts",
        build_step(driver=None, errors=(ProbeError("driver", "crashed", "boom"),)),
        "",
        ("Could not determine the NVIDIA driver", "(see driver.nvidia)"),
    ),
]


def _gates(*, needs_cause: bool) -> list[Any]:
    """The scenarios as parameters. A pending one is a strict expected failure where the test
    needs the cause it waits for, or wherever the gate still opens without it."""
    params = []
    for gate in REQUIRED_ERRORS:
        marks = []
        if gate.pending is not None and (needs_cause or gate.still_opens):
            marks.append(pytest.mark.xfail(reason=gate.pending, strict=True))
        params.append(pytest.param(gate, id=gate.id, marks=marks))
    return params


def _gate_report(gate: Gate) -> tuple[Finding, list[Finding]]:
    """The gate's finding and the whole report it is part of."""
    ctx = CheckContext(gate.facts, MATRIX if gate.with_matrix else None, require_gpu=True)
    report = list(run_checks(ctx))
    (verdict,) = [x for x in report if x.id == "gpu.required"]
    return verdict, report


@pytest.mark.parametrize("gate", _gates(needs_cause=False))
def test_gpu_required_names_the_cause(gate: Gate) -> None:
    ctx = CheckContext(gate.facts, MATRIX if gate.with_matrix else None, require_gpu=True)
    (finding,) = run_checks(ctx, select_checks(["gpu.required"]))
    assert finding.id == "gpu.required"
    assert finding.severity is Severity.ERROR, finding
    text = _text(finding)
    for needle in gate.needles:
        assert needle in text, (needle, text)
    assert finding.fix is not None and finding.fix.text


@pytest.mark.parametrize("gate", _gates(needs_cause=False))
def test_gpu_required_names_a_finding_of_the_same_report(gate: Gate) -> None:
    # The gate never disagrees with the report above it: it is one of the GPU_GATE findings,
    # raised to an error, with that finding's cause and fix.
    verdict, report = _gate_report(gate)
    assert verdict.severity is Severity.ERROR, verdict
    gate_ids = {c.id for c in GPU_GATE}
    named = [
        x
        for x in report
        if x.check in gate_ids and verdict.summary.endswith(f": {x.summary} (see {x.id})")
    ]
    assert named, (verdict.summary, [x.summary for x in report])
    assert verdict.cause == named[0].cause
    assert verdict.detail == named[0].detail
    if named[0].fix is not None:
        assert verdict.fix is not None
        assert verdict.fix.commands[: len(named[0].fix.commands)] == named[0].fix.commands


def test_the_gate_reuses_the_findings_the_report_made() -> None:
    # Every check runs once per context: the gate's inputs are the very findings of the
    # report above it (the same objects), not a second run of the same checks.
    gate = REQUIRED_ERRORS[0]
    ctx = CheckContext(gate.facts, MATRIX, require_gpu=True)
    report = run_checks(ctx)
    again = run_checks(ctx, GPU_GATE)
    first = {id(x) for x in report}
    assert again
    assert all(id(x) in first for x in again)
    assert set(ctx.findings_made) == {c.id for c in select_checks([], [])}


@pytest.mark.parametrize("gate", _gates(needs_cause=True))
def test_gpu_required_carries_the_right_cause(gate: Gate) -> None:
    verdict, report = _gate_report(gate)
    assert verdict.cause == gate.cause, verdict
    if gate.cause:
        assert gate.cause in {x.cause for x in report if x.id != "gpu.required"}


def test_the_worst_finding_wins_and_the_earlier_check_breaks_ties() -> None:
    # driver.nvidia and gpu.visible are both errors naming the driver's cause.
    verdict, report = _gate_report(REQUIRED_ERRORS[6])
    visible = next(x for x in report if x.id == "gpu.visible")
    assert visible.severity is Severity.ERROR and visible.cause == "driver-version-mismatch"
    assert verdict.summary.endswith("(see driver.nvidia)")


def test_among_equals_a_finding_that_names_a_cause_wins() -> None:
    ctx = CheckContext(gpu_container(tensorflow=NO_GPU_TF), MATRIX, require_gpu=True)
    vague = Finding("gpu.visible", Severity.ERROR, "sees none")
    named = Finding("cuda.libraries", Severity.ERROR, "missing cudnn", cause="cuda-libs-missing")
    (finding,) = check_gpu_required(ctx, [vague, named])
    assert finding.cause == "cuda-libs-missing"


def test_a_crashed_gpu_check_keeps_the_gate_closed() -> None:
    crashed = Finding(
        "doctor.crashed",
        Severity.UNKNOWN,
        "Check gpu.visible crashed: KeyError",
        check="gpu.visible",
    )
    ctx = CheckContext(gpu_container(tensorflow=NO_GPU_TF), MATRIX, require_gpu=True)
    (finding,) = check_gpu_required(ctx, [crashed])
    assert finding.severity is Severity.ERROR
    assert finding.summary.endswith(": Check gpu.visible crashed: KeyError (see doctor.crashed)")


def test_without_any_reason_the_gate_still_closes() -> None:
    ctx = CheckContext(gpu_container(tensorflow=NO_GPU_TF), MATRIX, require_gpu=True)
    (finding,) = check_gpu_required(ctx, [Finding("gpu.visible", Severity.OK, "fine")])
    assert finding.severity is Severity.ERROR
    assert "no GPU check says why" in finding.summary


@pytest.mark.parametrize(
    ("severity", "opens"),
    [
        pytest.param(Severity.WARNING, True, id="warning"),
        pytest.param(Severity.UNKNOWN, True, id="unknown"),
        pytest.param(Severity.ERROR, False, id="error"),
    ],
)
def test_under_static_only_an_error_closes_the_gate(severity: Severity, opens: bool) -> None:
    # Without importing TensorFlow a warning (PTX JIT, wheels off their pins) leaves the GPUs
    # the driver lists usable; an error (driver too old, libraries missing) does not.
    ctx = CheckContext(gpu_container(tensorflow=STATIC_TF), MATRIX, require_gpu=True)
    reason = Finding("gpu.compute-capability", severity, "GPU 0 runs only through PTX JIT")
    (finding,) = check_gpu_required(ctx, [reason])
    assert (finding.severity is Severity.OK) is opens, finding


@pytest.mark.parametrize(
    ("facts", "needle"),
    [
        pytest.param(gpu_container(), "TensorFlow can use 1 GPU(s)", id="tf-sees-gpu"),
        # TensorFlow's own listing wins over the matrix floor (forward compatibility).
        pytest.param(gpu_container(driver=OLD_DRIVER), "can use 1 GPU", id="forward-compat"),
        pytest.param(
            gpu_container(tensorflow=STATIC_TF), "not confirmed", id="static-driver-lists-gpu"
        ),
    ],
)
def test_gpu_required_passes_with_a_usable_gpu(facts: Facts, needle: str) -> None:
    (finding,) = run_one("gpu.required", facts, True)
    assert finding.severity is Severity.OK
    assert needle in finding.summary


def test_gpu_required_is_silent_unless_asked() -> None:
    assert run_one("gpu.required", build_step()) == []


# --- CLI -------------------------------------------------------------------------------------


@pytest.fixture
def build_facts(tmp_path: Path) -> Path:
    path = tmp_path / "build-step.json"
    path.write_text(json.dumps(to_json(build_step())), encoding="utf-8")
    return path


def test_cli_build_step_passes_static_strict(build_facts: Path) -> None:
    out = tfdoctor("check", "--facts", str(build_facts), "--static", "--strict", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    ids = {x["id"]: x["severity"] for x in json.loads(out.stdout)["findings"]}
    assert ids["gpu.absent"] == "info"
    assert "gpu.required" not in ids


def test_cli_require_gpu_fails_with_exit_2_and_the_cause(build_facts: Path) -> None:
    out = tfdoctor("check", "--facts", str(build_facts), "--require-gpu", "--json")
    assert out.returncode == 2, out.stdout + out.stderr
    found = {x["id"]: x for x in json.loads(out.stdout)["findings"]}
    gate, absent = found["gpu.required"], found["gpu.absent"]
    assert (gate["severity"], absent["severity"]) == ("error", "warning")
    assert gate["cause"] == absent["cause"] == "container-no-gpu"
    assert absent["summary"] in gate["summary"]
    assert TOOLKIT_FIX in gate["fix"]["commands"]


def test_cli_require_gpu_passes_on_a_gpu_container(tmp_path: Path) -> None:
    path = tmp_path / "gpu.json"
    path.write_text(json.dumps(to_json(gpu_container())), encoding="utf-8")
    out = tfdoctor("check", "--facts", str(path), "--require-gpu", "gpu.required", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    (finding,) = json.loads(out.stdout)["findings"]
    assert (finding["id"], finding["severity"]) == ("gpu.required", "ok")


LIBCUDA = "libcuda.so.1: cannot open shared object file: No such file or directory"


@pytest.mark.parametrize(
    "container, nodes, cause",
    [
        ("docker", (), "container-no-gpu"),
        # On a host, what explain names for the same line: the driver's own library is not
        # installed (or not where the loader looks), which loading the kernel module would not mend.
        (None, (), "driver-libraries-missing"),
    ],
    ids=["container-without-gpu-access", "host"],
)
def test_libcuda_missing_inside_a_container_is_the_gpu_not_handed_over(
    container: str | None, nodes: tuple[str, ...], cause: str
) -> None:
    facts = f.facts(
        platform=f.platform(container=container, nvidia_device_nodes=nodes),
        tensorflow=f.tensorflow(
            status="import-error", error_type="ImportError", error_message=LIBCUDA
        ),
    )
    (found,) = [x for x in run_one("tensorflow.import", facts) if x.severity is Severity.ERROR]
    assert found.cause == cause
