"""Containers: detection from mounts, "no GPU at build time" vs a broken GPU, --require-gpu."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

import pytest

from tests import factories as f
from tests.test_cli import tfdoctor
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
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


def build_step(container: str = "docker", **kw: object) -> Facts:
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


def test_gpu_absent_leaves_the_verdict_to_gpu_required() -> None:
    assert run_one("gpu.absent", build_step(), require_gpu=True) == []


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

REQUIRED_ERRORS = [
    # (id, facts, matrix?, needles in summary+detail+fix)
    ("docker-no-access", build_step(), True, ("started without GPU access", TOOLKIT_FIX)),
    (
        "podman-no-access",
        build_step("podman"),
        True,
        ("podman container", "podman run --device nvidia.com/gpu=all IMAGE", "nvidia-ctk cdi"),
    ),
    (
        "kubernetes-no-limit",
        build_step("kubernetes"),
        True,
        ("Kubernetes pod was started without GPU access", "nvidia.com/gpu: 1"),
    ),
    (
        "nodes-without-libraries",
        build_step(platform=f.platform(container="docker")),
        True,
        ("without GPU access", "Device nodes present", TOOLKIT_FIX),
    ),
    (
        "visible-devices-void",
        build_step(environment={"NVIDIA_VISIBLE_DEVICES": "void"}),
        True,
        ("NVIDIA_VISIBLE_DEVICES='void'", TOOLKIT_FIX),
    ),
    (
        "host-without-gpu",
        f.cpu_only_machine(),
        True,
        ("this machine has no NVIDIA GPU or driver",),
    ),
    (
        "driver-mismatch",
        gpu_container(driver=MISMATCH),
        True,
        ("does not work (version-mismatch", "driver.nvidia"),
    ),
    (
        "host-nodes-without-library",
        f.facts(driver=f.NO_DRIVER),
        True,
        ("does not work (library-not-found",),
    ),
    (
        "old-driver-matrix",
        gpu_container(driver=OLD_DRIVER, tensorflow=NO_GPU_TF),
        True,
        ("driver 470.82.01 is too old for this image's CUDA 12.2 build", ">= 525.60.13"),
    ),
    (
        "old-driver-static",
        build_step(platform=f.platform(container="docker"), driver=OLD_DRIVER),
        True,
        ("too old", "525.60.13"),
    ),
    (
        "old-driver-log-without-matrix",
        gpu_container(
            driver=OLD_DRIVER,
            tensorflow=f.tensorflow(
                devices=(),
                log_errors=("failed call to cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",),
            ),
        ),
        False,
        ("driver 470.82.01 is too old", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"),
    ),
    (
        "libraries-missing",
        gpu_container(cuda_libs=f.cuda_libs(f.lib("cudnn", "libcudnn.so.8")), tensorflow=NO_GPU_TF),
        True,
        ("cannot load its CUDA libraries", "missing: cudnn", "tensorflow[and-cuda]==2.15.1"),
    ),
    (
        "libraries-dlopen-log",
        gpu_container(
            tensorflow=f.tensorflow(
                devices=(), log_errors=("Cannot dlopen some GPU libraries. Skipping",)
            )
        ),
        True,
        ("cannot load its CUDA libraries", "Cannot dlopen"),
    ),
    (
        "import-dlopen",
        gpu_container(
            tensorflow=f.tensorflow(
                status="import-error",
                devices=(),
                error_type="ImportError",
                error_message="libcudart.so.12: cannot open shared object file: No such file",
            )
        ),
        True,
        ("cannot load its CUDA libraries", "libcudart.so.12"),
    ),
    (
        "cpu-build",
        gpu_container(tensorflow=f.tensorflow(is_cuda_build=False, devices=())),
        True,
        ("tensorflow 2.15.1 is a CPU-only build", 'install "tensorflow[and-cuda]==2.15.1"'),
    ),
    (
        "cpu-distribution-static",
        gpu_container(
            packages=(f.pkg("tensorflow-cpu", "2.15.1", top_level=("tensorflow",)),),
            tensorflow=STATIC_TF,
        ),
        True,
        ("tensorflow-cpu 2.15.1 is a CPU-only build", "uninstall -y tensorflow-cpu"),
    ),
    (
        "not-installed",
        gpu_container(packages=(f.pkg("numpy", "1.26.4"),), tensorflow=STATIC_TF),
        True,
        ("TensorFlow is not installed",),
    ),
    (
        "import-crash",
        gpu_container(tensorflow=f.tensorflow(status="signal", signal="SIGSEGV", devices=())),
        True,
        ("did not import (signal", "tensorflow.import"),
    ),
    (
        "tf-sees-no-gpu",
        gpu_container(tensorflow=NO_GPU_TF),
        True,
        ("sees none of the 1 GPU(s)", "TF_CPP_MIN_LOG_LEVEL=0"),
    ),
    (
        "no-driver-facts",
        build_step(driver=None, errors=(ProbeError("driver", "crashed", "boom"),)),
        True,
        ("could not be determined",),
    ),
]


@pytest.mark.parametrize(
    ("facts", "with_matrix", "needles"),
    [pytest.param(fa, m, n, id=i) for i, fa, m, n in REQUIRED_ERRORS],
)
def test_gpu_required_names_the_cause(
    facts: Facts, with_matrix: bool, needles: tuple[str, ...]
) -> None:
    (finding,) = run_one("gpu.required", facts, True, MATRIX if with_matrix else None)
    assert finding.id == "gpu.required"
    assert finding.severity is Severity.ERROR, finding
    text = _text(finding)
    for needle in needles:
        assert needle in text, (needle, text)
    assert finding.fix is not None and finding.fix.text


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
    out = tfdoctor("check", "--facts", str(build_facts), "--require-gpu", "--no-color")
    assert out.returncode == 2, out.stdout + out.stderr
    assert "started without GPU access" in out.stdout
    assert TOOLKIT_FIX in out.stdout
    assert "gpu.absent" not in out.stdout


def test_cli_require_gpu_passes_on_a_gpu_container(tmp_path: Path) -> None:
    path = tmp_path / "gpu.json"
    path.write_text(json.dumps(to_json(gpu_container())), encoding="utf-8")
    out = tfdoctor("check", "--facts", str(path), "--require-gpu", "gpu.required", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    (finding,) = json.loads(out.stdout)["findings"]
    assert (finding["id"], finding["severity"]) == ("gpu.required", "ok")
