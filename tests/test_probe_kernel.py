"""The NVIDIA kernel-side probe on fake file trees and recorded outputs, and CPU emulation.

Readers take the tree's root, so each test builds the few sysfs/procfs/dev files it needs
under ``tmp_path``; commands go through a strict scripted runner that fails on any call it
was not told to expect.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.facts import DeviceNode, NvidiaKernelFacts, PciDevice, ProbeError
from tfdoctor.probes import kernel, system
from tfdoctor.probes._run import CommandResult

DATA = Path(__file__).parent / "data" / "kernel"
SYSTEM_DATA = Path(__file__).parent / "data" / "system"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the probe reads Linux's sysfs and procfs"
)


def recorded(name: str) -> str:
    """A recorded output under tests/data/kernel."""
    return (DATA / name).read_text(encoding="utf-8")


class ScriptedRunner:
    """Answers exactly the calls it was given, in order; any other call fails the test."""

    def __init__(self, *steps: tuple[Sequence[str], CommandResult]) -> None:
        self.steps = list(steps)
        self.calls: list[tuple[str, ...]] = []

    def __call__(
        self, argv: Sequence[str], env: Optional[Mapping[str, str]], timeout: float
    ) -> CommandResult:
        self.calls.append(tuple(argv))
        assert self.steps, f"unexpected command {list(argv)!r}"
        expected, result = self.steps.pop(0)
        assert list(argv) == list(expected), f"expected {list(expected)!r}, got {list(argv)!r}"
        assert timeout <= kernel.DKMS_TIMEOUT
        return result


def done(argv: Sequence[str], stdout: str = "", rc: int = 0, stderr: str = "") -> CommandResult:
    """A finished command."""
    return CommandResult(tuple(argv), rc, stdout, stderr, 0.01)


def write(path: Path, content: str | bytes) -> None:
    """Write a file, creating its directories."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


def pci_device(
    root: Path, slot: str, vendor: str, device: str, cls: str, driver: Optional[str] = None
) -> None:
    """One ``/sys/bus/pci/devices/<slot>`` entry as the kernel lays it out (one line each)."""
    entry = root / "sys/bus/pci/devices" / slot
    write(entry / "vendor", f"{vendor}\n")
    write(entry / "device", f"{device}\n")
    write(entry / "class", f"{cls}\n")
    if driver is not None:
        # A relative link into /sys/bus/pci/drivers, as sysfs has it; only its name is read.
        (entry / "driver").symlink_to(f"../../../bus/pci/drivers/{driver}")


@pytest.fixture
def empty_bin(tmp_path: Path) -> Path:
    """A PATH directory without dkms or lspci."""
    path = tmp_path / "bin"
    path.mkdir()
    return path


# --- the whole probe on a fake machine -------------------------------------------------------


def test_a_gpu_server_tree(tmp_path: Path, empty_bin: Path) -> None:
    root = tmp_path / "root"
    pci_device(root, "0000:00:00.0", "0x8086", "0x2020", "0x060000", "skx_uncore")
    pci_device(root, "0000:07:00.0", "0x10de", "0x1E89", "0x030000", "nvidia")
    # The GeForce card's audio function: NVIDIA's, but no GPU.
    pci_device(root, "0000:07:00.1", "0x10de", "0x10f8", "0x040300", "snd_hda_intel")
    pci_device(root, "0000:3b:00.0", "0x10de", "0x1eb8", "0x030200", "vfio-pci")
    pci_device(root, "0000:af:00.0", "0x10de", "0x2330", "0x030200")
    write(root / "proc/driver/nvidia/version", recorded("proc_driver_nvidia_version_r550.txt"))
    write(root / "proc/modules", recorded("proc_modules_nvidia.txt"))
    for name in ("nvidia1", "nvidia0", "nvidia10", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"):
        write(root / "dev" / name, "")
    (root / "dev/nvidia-caps").mkdir()
    write(root / "dev/nvme0", "")
    write(root / kernel.SECURE_BOOT_VAR, b"\x06\x00\x00\x00\x01")

    facts = kernel.probe_nvidia_kernel(root, {"PATH": str(empty_bin)}, ScriptedRunner())

    assert facts == NvidiaKernelFacts(
        pci_devices=(
            PciDevice("0000:07:00.0", "0x1e89", "0x030000", "nvidia"),
            PciDevice("0000:3b:00.0", "0x1eb8", "0x030200", "vfio-pci"),
            PciDevice("0000:af:00.0", "0x2330", "0x030200", None),
        ),
        pci_source="sysfs",
        kernel_module_version=(
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.135  Fri Jan 10 20:00:00 UTC 2025"
        ),
        modules=("nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset"),
        device_nodes=tuple(
            DeviceNode(f"/dev/{n}", True)
            for n in (
                "nvidia0",
                "nvidia1",
                "nvidia10",
                "nvidia-uvm",
                "nvidia-uvm-tools",
                "nvidiactl",
            )
        ),
        secure_boot=True,
    )


def test_an_empty_tree_knows_nothing_but_says_so(tmp_path: Path, empty_bin: Path) -> None:
    runner = ScriptedRunner(
        (["lspci", "-Dnn"], CommandResult(("lspci",), None, "", "", 0.0, start_error="No such"))
    )
    facts = kernel.probe_nvidia_kernel(tmp_path, {"PATH": str(empty_bin)}, runner)
    assert facts.pci_devices == ()
    assert facts.pci_source is None
    assert facts.modules is None
    assert facts.kernel_module_version is None
    assert facts.device_nodes == ()
    assert facts.secure_boot is None
    assert facts.error is not None
    assert facts.error.probe == "nvidia_kernel"
    assert facts.error.reason == "pci-unreadable"
    assert facts.error.detail == "No such"


def test_lspci_is_the_fallback_when_sysfs_is_unreadable(tmp_path: Path, empty_bin: Path) -> None:
    runner = ScriptedRunner(
        (["lspci", "-Dnn"], done(["lspci"], recorded("lspci_Dnn_t4_server.txt")))
    )
    facts = kernel.probe_nvidia_kernel(tmp_path, {"PATH": str(empty_bin)}, runner)
    assert runner.calls == [("lspci", "-Dnn")]
    assert facts.pci_source == "lspci"
    assert facts.error is None
    assert [d.slot for d in facts.pci_devices] == ["0000:00:06.0", "0000:af:00.0"]


def test_a_failing_lspci_is_recorded(tmp_path: Path, empty_bin: Path) -> None:
    runner = ScriptedRunner(
        (["lspci", "-Dnn"], done(["lspci"], rc=1, stderr="pcilib: Cannot open /proc/bus/pci\n"))
    )
    facts = kernel.probe_nvidia_kernel(tmp_path, {"PATH": str(empty_bin)}, runner)
    assert facts.error == ProbeError(
        "nvidia_kernel",
        "pci-unreadable",
        "the PCI bus could not be read (/sys/bus/pci unreadable, lspci exited with 1)",
        "pcilib: Cannot open /proc/bus/pci",
    )


def test_dkms_runs_only_where_it_is_installed(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    write(bin_dir / "dkms", "#!/bin/sh\nexit 99\n")
    (bin_dir / "dkms").chmod(0o755)
    dkms = str(bin_dir / "dkms")
    runner = ScriptedRunner(([dkms, "status"], done([dkms], recorded("dkms_status_mixed.txt"))))
    assert kernel.read_dkms({"PATH": str(bin_dir)}, runner) == (
        "nvidia, 510.85.02, 5.13.0-40-generic, x86_64: installed",
        "nvidia, 510.85.02, 5.8.0-43-generic, x86_64: installed",
    )
    assert runner.calls == [(dkms, "status")]


def test_a_hung_dkms_leaves_the_builds_unknown(tmp_path: Path) -> None:
    write(tmp_path / "dkms", "#!/bin/sh\n")
    (tmp_path / "dkms").chmod(0o755)
    dkms = str(tmp_path / "dkms")
    hung = CommandResult((dkms,), -9, "nvidia/550", "", 5.0, timed_out=True)
    runner = ScriptedRunner(([dkms, "status"], hung))
    assert kernel.read_dkms({"PATH": str(tmp_path)}, runner) == ()


def test_device_nodes_record_what_this_user_may_open(tmp_path: Path) -> None:
    for name in ("nvidia0", "nvidiactl", "nvidia-modeset", "nvidia-uvm"):
        write(tmp_path / "dev" / name, "")
    asked: list[tuple[str, int]] = []

    def access(path: str, mode: int) -> bool:
        asked.append((path, mode))
        return not path.endswith("nvidia0")

    nodes = kernel.read_device_nodes(tmp_path, access)
    assert nodes == (
        DeviceNode("/dev/nvidia0", False),
        DeviceNode("/dev/nvidia-modeset", True),
        DeviceNode("/dev/nvidia-uvm", True),
        DeviceNode("/dev/nvidiactl", True),
    )
    assert {mode for _path, mode in asked} == {os.R_OK | os.W_OK}


# --- pure parsers on recorded outputs --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param(
            "lspci_Dnn_t4_server.txt",
            (
                PciDevice("0000:00:06.0", "0x15f7", "0x030200"),
                PciDevice("0000:af:00.0", "0x1eb8", "0x030200"),
            ),
            id="server-p100-t4-and-a-matrox-vga",
        ),
        pytest.param(
            "lspci_Dnn_geforce_desktop.txt",
            (PciDevice("0000:07:00.0", "0x1e89", "0x030000"),),
            id="geforce-without-its-audio-usb-functions",
        ),
        pytest.param(
            "lspci_vnn_azure_k80.txt",
            (PciDevice("61f0:00:00.0", "0x102d", "0x030200"),),
            id="azure-domain-and-verbose-lines",
        ),
        pytest.param(
            "lspci_nn_fallen_off_bus.txt",
            (PciDevice("0000:01:00.0", "0x1d52", "0x030200"),),
            id="no-domain-rev-ff",
        ),
    ],
)
def test_parse_lspci(name: str, expected: tuple[PciDevice, ...]) -> None:
    assert kernel.parse_lspci(recorded(name)) == expected


def test_parse_lspci_without_pci_ids() -> None:
    # No pci.ids file: lspci -nn names neither class nor vendor, the codes stay.
    text = "0000:17:00.0 Class [0302]: Device [10de:20b7] (rev a1)\n"
    assert kernel.parse_lspci(text) == (PciDevice("0000:17:00.0", "0x20b7", "0x030200"),)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param(
            "proc_driver_nvidia_version_r550.txt",
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.135  Fri Jan 10 20:00:00 UTC 2025",
            id="proprietary-r550",
        ),
        pytest.param(
            "proc_driver_nvidia_version_open_r580.txt",
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  "
            "(dvs-builder@U22-I3-B17-02-5)  Tue Sep 23 09:55:41 UTC 2025",
            id="open-r580",
        ),
        pytest.param(
            "proc_driver_nvidia_version_open_r580_h200.txt",
            "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
            "(nixbld@)",
            id="open-r580-h200-trailing-spaces",
        ),
    ],
)
def test_parse_driver_version(name: str, expected: str) -> None:
    assert kernel.parse_driver_version(recorded(name)) == expected


def test_parse_driver_version_of_nothing() -> None:
    assert kernel.parse_driver_version(None) is None
    assert kernel.parse_driver_version("\n") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            recorded("proc_modules_nvidia.txt"),
            ("nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset"),
            id="desktop",
        ),
        pytest.param(
            recorded("proc_modules_talos.txt"),
            ("nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset"),
            id="talos-no-refcounts",
        ),
        pytest.param(
            recorded("proc_modules_h200_vm.txt"),
            ("nvidia", "nvidia_uvm"),
            id="h200-vm-without-drm",
        ),
        pytest.param(
            "nouveau 2306048 3 - Live 0x0000000000000000\nttm 86016 1 nouveau, Live 0x0\n",
            ("nouveau",),
            id="nouveau-only",
        ),
        pytest.param("", (), id="none-loaded"),
        pytest.param(None, None, id="unreadable"),
    ],
)
def test_parse_modules(text: Optional[str], expected: Optional[tuple[str, ...]]) -> None:
    assert kernel.parse_modules(text) == expected


@pytest.mark.parametrize(
    ("data", "firmware", "expected"),
    [
        pytest.param(b"\x06\x00\x00\x00\x01", ("acpi", "efi"), True, id="enabled"),
        pytest.param(b"\x06\x00\x00\x00\x00", ("acpi", "efi"), False, id="disabled"),
        pytest.param(b"\x06\x00\x00\x00", ("acpi", "efi"), None, id="truncated"),
        pytest.param(None, ("acpi", "dmi", "memmap"), False, id="legacy-bios-boot"),
        pytest.param(None, ("acpi", "efi"), None, id="efivars-not-mounted"),
        pytest.param(None, (), None, id="container-masks-firmware"),
        pytest.param(None, None, None, id="no-firmware-dir"),
    ],
)
def test_parse_secure_boot(
    data: Optional[bytes], firmware: Optional[tuple[str, ...]], expected: Optional[bool]
) -> None:
    assert kernel.parse_secure_boot(data, firmware) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param(
            "dkms_status_mixed.txt",
            (
                "nvidia, 510.85.02, 5.13.0-40-generic, x86_64: installed",
                "nvidia, 510.85.02, 5.8.0-43-generic, x86_64: installed",
            ),
            id="dkms2-among-other-modules",
        ),
        pytest.param(
            "dkms_status_dkms3.txt",
            ("nvidia/610.57.04, 7.1.3+deb13-amd64, x86_64: installed",),
            id="dkms3",
        ),
    ],
)
def test_parse_dkms(name: str, expected: tuple[str, ...]) -> None:
    assert kernel.parse_dkms(recorded(name)) == expected


def test_parse_device_nodes_orders_numbered_nodes_numerically() -> None:
    names = ["nvidia10", "nvidia2", "nvidia-caps", "nvidiactl", "nvme0n1", "nvidia-modeset"]
    assert [n.path for n in kernel.parse_device_nodes(names, {})] == [
        "/dev/nvidia2",
        "/dev/nvidia10",
        "/dev/nvidia-modeset",
        "/dev/nvidiactl",
    ]


# --- CPU emulation (tfdoctor.probes.system) --------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("cpuinfo_graviton3.txt", "aarch64", id="graviton3"),
        pytest.param("cpuinfo_zen4.txt", "x86_64", id="zen4"),
        pytest.param("cpuinfo_old_xeon_no_avx.txt", "x86_64", id="old-xeon"),
    ],
)
def test_parse_cpuinfo_arch(name: str, expected: str) -> None:
    text = (SYSTEM_DATA / name).read_text(encoding="utf-8")
    assert system.parse_cpuinfo_arch(text) == expected


def test_parse_cpuinfo_arch_of_nothing() -> None:
    assert system.parse_cpuinfo_arch("") is None


@pytest.mark.parametrize(
    ("entry", "status", "expected"),
    [
        pytest.param(recorded("binfmt_qemu-x86_64.txt"), "enabled\n", True, id="enabled"),
        pytest.param("disabled\ninterpreter /usr/bin/qemu-x86_64\n", None, False, id="disabled"),
        pytest.param(recorded("binfmt_qemu-x86_64.txt"), "disabled\n", False, id="all-off"),
        pytest.param(None, None, False, id="absent"),
    ],
)
def test_parse_binfmt_enabled(entry: Optional[str], status: Optional[str], expected: bool) -> None:
    assert system.parse_binfmt_enabled(entry, status) is expected


GRAVITON = (SYSTEM_DATA / "cpuinfo_graviton3.txt").read_text(encoding="utf-8")
ZEN4 = (SYSTEM_DATA / "cpuinfo_zen4.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("machine", "cpuinfo", "handler", "rosetta", "expected"),
    [
        pytest.param("x86_64", GRAVITON, True, False, ("qemu", "aarch64"), id="amd64-on-arm64"),
        pytest.param("x86_64", GRAVITON, False, False, ("qemu", "aarch64"), id="cpuinfo-alone"),
        pytest.param("x86_64", "", True, False, ("qemu", None), id="binfmt-alone"),
        pytest.param("aarch64", GRAVITON, False, False, (None, None), id="native-arm64"),
        pytest.param("x86_64", ZEN4, True, False, (None, None), id="native-amd64"),
        pytest.param("x86_64", "", False, True, ("rosetta", "arm64"), id="rosetta"),
        pytest.param("x86_64", "", False, False, (None, None), id="unknown"),
    ],
)
def test_parse_emulation(
    machine: str,
    cpuinfo: str,
    handler: bool,
    rosetta: bool,
    expected: tuple[Optional[str], Optional[str]],
) -> None:
    assert system.parse_emulation(machine, cpuinfo, handler, rosetta) == expected


def test_read_emulation_on_an_arm64_host_tree(tmp_path: Path) -> None:
    write(tmp_path / "proc/cpuinfo", GRAVITON)
    write(tmp_path / "proc/sys/fs/binfmt_misc/status", "enabled\n")
    write(tmp_path / "proc/sys/fs/binfmt_misc/qemu-x86_64", recorded("binfmt_qemu-x86_64.txt"))
    assert system.read_emulation("x86_64", False, tmp_path) == ("qemu", "aarch64")
    assert system.read_emulation("aarch64", False, tmp_path) == (None, None)


def test_read_emulation_with_only_the_handler(tmp_path: Path) -> None:
    write(tmp_path / "proc/sys/fs/binfmt_misc/qemu-x86_64", recorded("binfmt_qemu-x86_64.txt"))
    assert system.read_emulation("x86_64", False, tmp_path) == ("qemu", None)
    assert system.read_emulation("x86_64", False, tmp_path / "elsewhere") == (None, None)


def test_this_machine_is_probed_without_raising() -> None:
    facts = kernel.probe_nvidia_kernel()
    assert facts.pci_source in ("sysfs", "lspci", None)
    emulation, _host = system.read_emulation(os.uname().machine, False)
    assert emulation in (None, "qemu")
