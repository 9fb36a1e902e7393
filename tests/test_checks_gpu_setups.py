"""GPU set-ups the driver's own view does not explain: WSL 2 (the GPU comes from the Windows
driver through /dev/dxg and the libraries WSL mounts in /usr/lib/wsl/lib), a GPU in MIG mode,
and another framework's nvidia-* pins beside TensorFlow's; each machine a facts file in
tests/data/gpu_setups giving its verdict and fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.explaining import explained
from tests.facts_cases import assert_verdict, read_case
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import load_matrix, ranges_meet

#: The set-ups above, and those of the driver stack below TensorFlow (tests/data/driver_stack:
#: the kernel module, NVML and libcuda of two versions, the stub and forward-compatibility
#: libcuda, a GPU another process holds; tests/test_checks_driver_stack.py).
CASES = sorted(
    p
    for folder in ("gpu_setups", "driver_stack")
    for p in (Path(__file__).parent / "data" / folder).glob("*.json")
)
WSL = [p for p in CASES if p.stem.startswith("wsl2-")]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_machine_gets_its_verdict_and_fix(path: Path) -> None:
    assert_verdict(path)


@pytest.mark.parametrize("path", WSL, ids=lambda p: p.stem)
def test_no_finding_sends_a_wsl_machine_to_a_linux_driver_or_a_container(path: Path) -> None:
    # Outside a container, WSL 2 has no Linux driver or container runtime to mend: no finding
    # of any check may ask for one.
    facts = facts_from_json(read_case(path)["facts"])
    for found in run_checks(CheckContext(facts, load_matrix())):
        if found.fix is None or found.severity.rank < Severity.WARNING.rank:
            continue
        fix = found.fix.text + "\n" + "\n".join(found.fix.commands)
        assert "--gpus" not in fix and "modprobe" not in fix, found
        assert found.cause not in ("container-no-gpu", "driver-libraries-missing"), found


def _with(
    path: str, change: Callable[[dict[str, Any]], None], check: str = "gpu.visible"
) -> Finding:
    """``check``'s finding on a facts file of tests/data/gpu_setups, changed by ``change``."""
    doc = read_case(Path(__file__).parent / "data" / "gpu_setups" / path)["facts"]
    change(doc)
    facts = facts_from_json(doc)
    (found,) = [
        f
        for f in run_checks(CheckContext(facts, load_matrix()), select_checks([check]))
        if f.id == check
    ]
    return found


def _fix(found: Finding) -> str:
    return "" if found.fix is None else found.fix.text + "\n" + "\n".join(found.fix.commands)


def test_wsls_own_driver_store_libcuda_is_no_linux_drivers() -> None:
    # WSL's libcuda.so.1 loads the Windows driver store's libcuda.so.1.1, which
    # /proc/self/maps may list first: WSL's own, no package to remove.
    def change(doc: dict[str, Any]) -> None:
        doc["cuinit"]["library"] = (
            "/usr/lib/wsl/drivers/nv_dispsi.inf_amd64_7cc7738d8e428783/libcuda.so.1.1"
        )

    found = _with("wsl2-linux-libcuda-over-wsl.json", change)
    assert "apt-get remove" not in _fix(found) and "Linux driver" not in found.summary, found


def test_the_toolkits_stub_libcuda_is_no_driver_package_to_remove() -> None:
    # driver.nvidia under WSL 2 with the CUDA toolkit's stub loaded for libcuda: no driver
    # package installed it, so none is removed (apt-get would take the toolkit's).
    def change(doc: dict[str, Any]) -> None:
        doc["cuinit"].update(
            status="error",
            code=34,
            name="CUDA_ERROR_STUB_LIBRARY",
            library="/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so",
        )

    found = _with("wsl2-no-driver-libraries.json", change, "driver.nvidia")
    assert found.cause == "wsl-driver-broken" and "apt-get remove" not in _fix(found), found


def test_the_package_is_asked_of_the_file_the_loaders_path_resolves_to() -> None:
    # ld.so.cache lists /lib/x86_64-linux-gnu/... where /lib links to /usr/lib: dpkg recorded
    # only the /usr/lib path, so the path is resolved before dpkg -S is asked.
    def change(doc: dict[str, Any]) -> None:
        doc["cuinit"]["library"] = "/lib/x86_64-linux-gnu/libcuda.so.1"

    fix = _fix(_with("wsl2-linux-libcuda-over-wsl.json", change))
    assert 'dpkg -S "$(realpath /lib/x86_64-linux-gnu/libcuda.so.1)"' in fix, fix


@pytest.mark.parametrize(
    ("os_name", "dpkg"),
    [
        ("Debian GNU/Linux 12 (bookworm)", True),
        # Kali is a WSL distribution of Debian's family: dpkg and apt too.
        ("Kali GNU/Linux Rolling", True),
        ("Fedora Linux 40 (Container Image)", False),
    ],
)
def test_the_package_is_asked_of_dpkg_where_the_distribution_uses_apt(
    os_name: str, dpkg: bool
) -> None:
    # The distribution's package manager (Machine.packager) decides whether dpkg names the
    # Linux driver's package to remove.
    def change(doc: dict[str, Any]) -> None:
        doc["platform"]["os_name"] = os_name

    fix = _fix(_with("wsl2-linux-libcuda-over-wsl.json", change))
    assert ("dpkg -S" in fix and "apt-get remove" in fix) is dpkg, fix
    if not dpkg:
        assert "ls -l " in fix, fix


def test_mig_without_devices_read_from_cuinit_finding_no_device() -> None:
    # CUDA with no device to enumerate fails cuInit itself with CUDA_ERROR_NO_DEVICE.
    def change(doc: dict[str, Any]) -> None:
        doc["cuinit"].update(
            status="error",
            code=100,
            name="CUDA_ERROR_NO_DEVICE",
            device_count=None,
            message="cuInit(0) returned CUDA_ERROR_NO_DEVICE (100)",
        )

    found = _with("a100-mig-mode-no-mig-device.json", change)
    assert found.cause == "mig-no-instances", found


def test_turning_mig_off_says_it_applies_at_a_reset_of_an_idle_gpu() -> None:
    fix = _fix(_with("a100-mig-mode-no-mig-device.json", lambda doc: None))
    assert "-mig 0" in fix and "reset" in fix and "mig.mode.pending" in fix, fix


def test_a_framework_whose_pins_meet_tensorflows_ranges_shares_its_environment() -> None:
    # torch pinning the very nvidia-* releases TensorFlow's and-cuda extra pins: pip installs
    # the extra in place, with no second environment.
    def change(doc: dict[str, Any]) -> None:
        (tf,) = [p for p in doc["packages"] if p["name"] == "tensorflow"]
        pins = [r.split(";")[0] for r in tf["requires"] if r.startswith("nvidia-")]
        (torch,) = [p for p in doc["packages"] if p["name"] == "torch"]
        torch["requires"] = [
            r if not r.startswith("nvidia-") else next(p for p in pins if p.split("==")[0] in r)
            for r in torch["requires"]
        ]

    found = _with("tf215-beside-torch-cudnn9.json", change)
    assert found.cause == "cuda-libs-missing" and "-m venv" not in _fix(found), found


def test_ranges_meet() -> None:
    assert ranges_meet("==9.10.2.21", "<10.0,>=9.10.2.21")
    assert ranges_meet(">=9.1,<10", "<10.0,>=9.3.0.75")
    assert not ranges_meet("==9.1.0.70", "==8.9.4.25")
    assert not ranges_meet("==9.1.0.70", "<10.0,>=9.3.0.75")
    assert ranges_meet("", "==8.9.4.25") and ranges_meet("not a range", "==1")


def test_a_cuinit_probe_that_gave_no_answer_is_no_wsl_driver_failure() -> None:
    # The cuInit child failing on its own (or timing out) says nothing of WSL's driver, and
    # the libcuda the search found is WSL's: no wsl-driver-broken from that.
    def change(doc: dict[str, Any]) -> None:
        doc["cuinit"] = {"status": "child-error", "message": "the cuInit child reported no code"}
        for lib in doc["cuda_libs"]["libraries"]:
            if lib["name"] == "cuda":
                lib["candidates"][lib["selected"]]["path"] = "/usr/lib/wsl/lib/libcuda.so.1"

    found = _with("wsl2-linux-libcuda-over-wsl.json", change)
    assert found.cause != "wsl-driver-broken", found


def test_explain_gives_the_machines_wsl_fix_that_check_gives() -> None:
    # explain with the machine's facts: the same Linux driver's libcuda to remove as check's
    # fix names, not WSL's general one.
    doc = read_case(
        Path(__file__).parent / "data" / "gpu_setups" / "wsl2-linux-libcuda-over-wsl.json"
    )
    text = (
        "E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:152] failed call to "
        "cuInit: INTERNAL: CUDA error: Failed call to cuInit: CUDA_ERROR_NO_DEVICE: no "
        "CUDA-capable device is detected\n"
    )
    found = [
        x
        for x in explained(text, facts_from_json(doc["facts"])).findings
        if x.cause == "wsl-driver-broken"
    ]
    assert found and all(
        x.fix is not None and any("apt-get remove" in c for c in x.fix.commands) for x in found
    ), found
