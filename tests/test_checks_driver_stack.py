"""The driver stack below TensorFlow as ``check --facts`` reads it: the kernel module (Secure
Boot, nouveau, DKMS), NVML and libcuda of two versions, the toolkit's stub and CUDA's
forward-compatibility libcuda, a GPU another process holds, CUDA_VISIBLE_DEVICES; each machine a
facts file in tests/data/driver_stack (the healthy T4 with its driver sections changed), whose
verdict and fix tests/test_checks_gpu_setups.py asserts; here, the healthy variants give none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.facts_cases import read_case
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import Facts, facts_from_json
from tfdoctor.findings import Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import load_matrix

CASES = sorted((Path(__file__).parent / "data" / "driver_stack").glob("*.json"))
HEALTHY = [p for p in CASES if p.stem.startswith("healthy-")]


def test_the_set_ups_are_there() -> None:
    assert len(CASES) >= 15
    assert HEALTHY


@pytest.mark.parametrize("path", HEALTHY, ids=lambda p: p.stem)
def test_a_healthy_machine_gets_no_warning(path: Path) -> None:
    # The executor's NUMA notes and a second GPU are no fault: nothing above info.
    facts = facts_from_json(read_case(path)["facts"])
    worst = [
        (f.id, f.severity.value)
        for f in run_checks(CheckContext(facts, load_matrix()))
        if f.severity.rank >= Severity.WARNING.rank
    ]
    assert worst == []


def _no_gpu_host(**changes: object) -> dict[str, object]:
    """The facts of the GPU build on a host without an NVIDIA GPU, with ``changes`` made to
    its nvidia_kernel (``machine``, ``release`` and ``wsl``: to its platform)."""
    doc = read_case(
        Path(__file__).parent / "data" / "driver_stack" / "tf1-gpu-build-on-host-without-gpu.json"
    )
    facts: dict[str, object] = doc["facts"]
    platform = {k: changes.pop(k) for k in ("machine", "release", "wsl") if k in changes}
    facts["platform"] = {**facts["platform"], **platform}  # type: ignore[dict-item]
    facts["nvidia_kernel"] = {**facts["nvidia_kernel"], **changes}  # type: ignore[dict-item]
    return facts


@pytest.mark.parametrize(
    ("changes", "cause", "fix_has"),
    [
        pytest.param({}, "driver-libraries-missing", "tensorflow==1.15.5", id="bus-read-empty"),
        # A GPU on the bus the container shares with its host: the host has one to hand over.
        pytest.param(
            {
                "pci_devices": [
                    {
                        "slot": "0000:00:04.0",
                        "device_id": "0x1eb8",
                        "class_code": "0x030200",
                        "driver": "nvidia",
                    }
                ]
            },
            "container-no-gpu",
            "--gpus",
            id="gpu-on-the-bus",
        ),
        # The bus or the modules not read: nothing shows the host has no GPU.
        pytest.param({"pci_source": None}, "container-no-gpu", "--gpus", id="bus-unread"),
        pytest.param({"modules": None}, "container-no-gpu", "--gpus", id="modules-unread"),
        # Jetson's GPU is no PCI device (nvgpu drives it): an empty bus proves nothing there.
        pytest.param({"machine": "aarch64"}, "container-no-gpu", "--gpus", id="arm64"),
        # WSL 2 (Docker Desktop's containers share its kernel): the Windows driver serves the
        # GPU through /dev/dxg, with no PCI device, nvidia module or /dev/nvidia* in the VM.
        pytest.param(
            {"release": "5.15.153.1-microsoft-standard-WSL2", "wsl": "WSL2"},
            "container-no-gpu",
            "--gpus",
            id="wsl2",
        ),
    ],
)
def test_a_gpu_build_in_a_container_on_a_host_without_a_gpu_is_told_the_cpu_build(
    changes: dict[str, object], cause: str, fix_has: str
) -> None:
    facts = facts_from_json(_no_gpu_host(**changes))
    (found,) = run_checks(CheckContext(facts, load_matrix()), select_checks(["tensorflow.import"]))
    assert (found.severity, found.cause) == (Severity.ERROR, cause), found
    assert found.fix is not None
    fix = found.fix.text + "\n" + "\n".join(found.fix.commands)
    assert fix_has in fix
    if cause != "container-no-gpu":
        assert "--gpus" not in fix and "nvidia-smi" not in fix


def _cuda_image_without_gpu(**changes: object) -> Facts:
    """A CUDA build in a container of a CUDA image (NVIDIA_VISIBLE_DEVICES=all) on a host
    whose bus was read and holds no NVIDIA device, with ``changes`` made to its nvidia_kernel."""
    doc = read_case(
        Path(__file__).parent / "data" / "driver_stack" / "cuda-image-on-host-without-gpu.json"
    )
    facts: dict[str, object] = doc["facts"]
    facts["nvidia_kernel"] = {**facts["nvidia_kernel"], **changes}  # type: ignore[dict-item]
    return facts_from_json(facts)


#: An NVIDIA device on the PCI bus a container shares with its host (a T4).
_T4_ON_THE_BUS = {
    "pci_devices": [
        {"slot": "0000:00:04.0", "device_id": "0x1eb8", "class_code": "0x030200", "driver": None}
    ]
}


@pytest.mark.parametrize(
    ("changes", "presence"),
    [
        pytest.param({}, "absent", id="bus-read-empty"),
        # The host has a GPU: the container was not given it.
        pytest.param(_T4_ON_THE_BUS, "not-handed-over", id="gpu-on-the-bus"),
        # Nothing read shows the host has none: the image's variable says one is wanted.
        pytest.param({"pci_source": None}, "not-handed-over", id="bus-unread"),
    ],
)
def test_a_containers_wish_for_a_gpu_is_no_gpu_where_the_bus_holds_none(
    changes: dict[str, object], presence: str
) -> None:
    assert Machine(_cuda_image_without_gpu(**changes), None).gpu_presence == presence


@pytest.mark.parametrize("require_gpu", [False, True], ids=["plain", "require-gpu"])
def test_no_gpu_on_the_hosts_bus_is_told_the_cpu_build_not_a_gpu_flag(require_gpu: bool) -> None:
    ctx = CheckContext(_cuda_image_without_gpu(), load_matrix(), require_gpu=require_gpu)
    found = {f.id: f for f in run_checks(ctx)}
    for check in ("gpu.absent", "gpu.required") if require_gpu else ("gpu.absent",):
        fix = found[check].fix
        assert fix is not None, check
        said = fix.text + "\n" + "\n".join(fix.commands)
        assert "tensorflow-cpu==2.18.0" in said and "machine with an NVIDIA GPU" in said
        for wrong in ("--gpus", "nvidia-ctk", "Container Toolkit", "modprobe", "--device"):
            assert wrong not in said, (check, wrong)
        assert found[check].cause != "container-no-gpu"
    assert found["gpu.absent"].severity is Severity.WARNING
    if require_gpu:
        assert found["gpu.required"].severity is Severity.ERROR


def test_a_gpu_on_the_hosts_bus_keeps_the_containers_gpu_flag() -> None:
    facts = _cuda_image_without_gpu(**_T4_ON_THE_BUS)
    (found,) = run_checks(CheckContext(facts, load_matrix()), select_checks(["gpu.absent"]))
    assert (found.severity, found.cause) == (Severity.WARNING, "container-no-gpu")
    assert found.fix is not None and "docker run --gpus all IMAGE" in found.fix.commands


def test_a_container_under_wsl2_with_no_gpu_on_its_bus_keeps_the_gpu_flag() -> None:
    # WSL 2's GPU is the Windows driver's, through /dev/dxg: no PCI device, nvidia module or
    # /dev/nvidia* node in the VM (https://docs.nvidia.com/cuda/wsl-user-guide/index.html), so
    # an empty bus there is no sign the host lacks a GPU.
    doc = read_case(
        Path(__file__).parent / "data" / "driver_stack" / "cuda-image-on-host-without-gpu.json"
    )
    facts: dict[str, object] = doc["facts"]
    facts["platform"] = {
        **facts["platform"],  # type: ignore[dict-item]
        "release": "5.15.133.1-microsoft-standard-WSL2",
        "wsl": "WSL2",
    }
    machine = Machine(facts_from_json(facts), None)
    assert (machine.no_nvidia_gpu_seen, machine.gpu_presence) == (False, "not-handed-over")
    ctx = CheckContext(facts_from_json(facts), load_matrix())
    (found,) = run_checks(ctx, select_checks(["gpu.absent"]))
    assert found.cause == "container-no-gpu" and found.fix is not None
    assert "tensorflow-cpu" not in found.fix.text
