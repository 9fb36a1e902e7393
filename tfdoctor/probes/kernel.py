"""The NVIDIA hardware and kernel side, read without the driver's libraries.

Every reader takes the root of the file tree (``/`` on a real machine) so a test can point it
at a fake tree; each reads a fixed list of files (no recursion) and each ``parse_*`` is a pure
function of what was read. The PCI bus comes from sysfs, else from ``lspci -Dnn``; ``dkms
status`` runs only where ``dkms`` is on PATH. Nothing here raises: what could not be read is
None (or empty) in the facts, and a bus that could not be read at all is a ``ProbeError``.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Callable, Optional, Union

from tfdoctor.facts import DeviceNode, NvidiaKernelFacts, PciDevice, ProbeError
from tfdoctor.probes._run import Runner, run_command

PROBE = "nvidia_kernel"

#: PCI vendor id of NVIDIA (PCI-SIG; the ``10de`` of ``lspci -nn``'s ``[10de:2330]``).
NVIDIA_VENDOR = "0x10de"
#: PCI base class 03 (display controller), subclasses 00 (VGA) and 02 (3D): the two a GPU
#: reports itself as (PCI Code and ID Assignment Specification, "Base Class 03h"). The audio
#: and USB functions of a GeForce card (classes 0403, 0c03) are left out.
GPU_CLASS_PREFIXES = ("0x0300", "0x0302")
#: The modules the NVIDIA driver is made of, and the open-source driver that blocks it.
MODULES = ("nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nouveau")
#: The device nodes the driver creates (NVIDIA driver README, "Installing the NVIDIA Driver":
#: ``/dev/nvidia[0-N]``, ``/dev/nvidiactl``, ``/dev/nvidia-uvm``, ``/dev/nvidia-uvm-tools``,
#: ``/dev/nvidia-modeset``). ``/dev/nvidia-caps`` is a directory (MIG) and is not listed.
_DEVICE_NODE = re.compile(r"nvidia(?:[0-9]+|ctl|-uvm|-uvm-tools|-modeset)")
#: UEFI global variable ``SecureBoot`` (UEFI spec, "Globally Defined Variables"); efivarfs
#: prefixes the value with the variable's 4-byte attributes (kernel docs, efivarfs.rst).
SECURE_BOOT_VAR = "sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
#: ``dkms status`` reads a small tree; it should answer well within this.
DKMS_TIMEOUT = 5.0

Access = Callable[[str, int], bool]


def probe_nvidia_kernel(
    root: Union[str, Path] = "/",
    env: Optional[Mapping[str, str]] = None,
    runner: Runner = run_command,
    timeout: float = 10.0,
) -> NvidiaKernelFacts:
    """PCI devices, kernel module, device nodes, Secure Boot and DKMS builds; never raises."""
    if not sys.platform.startswith("linux"):
        return NvidiaKernelFacts(
            error=ProbeError(
                PROBE,
                "unsupported-platform",
                f"the NVIDIA kernel side is read on Linux only (this is {sys.platform})",
            )
        )
    base = Path(root)
    env = os.environ if env is None else env
    pci = read_pci_sysfs(base)
    error = None
    source: Optional[str] = "sysfs"
    if pci is None:
        lspci = read_lspci(env, runner, min(timeout, DKMS_TIMEOUT))
        if isinstance(lspci, ProbeError):
            pci, source, error = (), None, lspci
        else:
            pci, source = lspci, "lspci"
    return NvidiaKernelFacts(
        pci_devices=pci,
        pci_source=source,
        kernel_module_version=parse_driver_version(_read_text(base / "proc/driver/nvidia/version")),
        modules=parse_modules(_read_text(base / "proc/modules")),
        device_nodes=read_device_nodes(base),
        secure_boot=read_secure_boot(base),
        dkms=read_dkms(env, runner, min(timeout, DKMS_TIMEOUT)),
        error=error,
    )


def _read_text(path: Path) -> Optional[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


# --- PCI bus ---------------------------------------------------------------------------------


def read_pci_sysfs(root: Path) -> Optional[tuple[PciDevice, ...]]:
    """NVIDIA GPUs from ``/sys/bus/pci/devices``; None when the directory cannot be listed.

    One ``vendor`` read per device, and ``class``, ``device`` and the ``driver`` link for
    NVIDIA's only: a few hundred small reads at most.
    """
    devices_dir = root / "sys/bus/pci/devices"
    try:
        slots = sorted(p.name for p in devices_dir.iterdir())
    except OSError:
        return None
    found = []
    for slot in slots:
        entry = devices_dir / slot
        vendor = _read_text(entry / "vendor")
        if vendor is None or vendor.strip().lower() != NVIDIA_VENDOR:
            continue
        device = parse_pci_device(
            slot,
            vendor,
            _read_text(entry / "device") or "",
            _read_text(entry / "class") or "",
            _driver_name(entry),
        )
        if device is not None:
            found.append(device)
    return tuple(found)


def _driver_name(entry: Path) -> Optional[str]:
    # ``driver`` is a symlink to /sys/bus/pci/drivers/<name> while a driver is bound.
    try:
        return (entry / "driver").readlink().name
    except OSError:
        return None


def parse_pci_device(
    slot: str, vendor: str, device: str, class_code: str, driver: Optional[str]
) -> Optional[PciDevice]:
    """A :class:`PciDevice` from one sysfs device's files, or None unless an NVIDIA GPU."""
    if vendor.strip().lower() != NVIDIA_VENDOR:
        return None
    cls = class_code.strip().lower()
    if not cls.startswith(GPU_CLASS_PREFIXES):
        return None
    return PciDevice(slot=slot, device_id=device.strip().lower(), class_code=cls, driver=driver)


def read_lspci(
    env: Optional[Mapping[str, str]], runner: Runner = run_command, timeout: float = 5.0
) -> Union[tuple[PciDevice, ...], ProbeError]:
    """NVIDIA GPUs from ``lspci -Dnn`` (sysfs unreadable), or why it failed."""
    result = runner(["lspci", "-Dnn"], env, timeout)
    if result.start_error is not None:
        return ProbeError(
            PROBE,
            "pci-unreadable",
            "the PCI bus could not be read (/sys/bus/pci unreadable, lspci not runnable)",
            result.start_error,
        )
    if result.timed_out or result.returncode != 0:
        how = "timed out" if result.timed_out else f"exited with {result.returncode}"
        return ProbeError(
            PROBE,
            "pci-unreadable",
            f"the PCI bus could not be read (/sys/bus/pci unreadable, lspci {how})",
            result.stderr_tail(),
        )
    return parse_lspci(result.stdout)


# ``0000:af:00.0 3D controller [0302]: NVIDIA Corporation TU104GL [Tesla T4] [10de:1eb8] (rev
# a1)``: slot (with -D its domain), class name and [class], vendor and device names, and the
# [vendor:device] pair, the last bracketed pair on the line (names hold brackets too). Without
# pci.ids the names read ``Class [0302]: Device [10de:1eb8]``; the codes are where they were.
_LSPCI_LINE = re.compile(
    r"^(?P<slot>(?:[0-9a-f]{4,}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])\s"
    r".*?\[(?P<cls>[0-9a-f]{4})\]:"
    r".*\[(?P<vendor>[0-9a-f]{4}):(?P<device>[0-9a-f]{4})\]",
    re.IGNORECASE,
)


def parse_lspci(text: str) -> tuple[PciDevice, ...]:
    """NVIDIA GPUs from ``lspci -Dnn`` output; indented detail lines (``-v``) are skipped.

    ``-nn`` shows the class without its programming interface; NVIDIA's GPUs report 00 there
    (VGA controller, 3D controller), so ``[0302]`` is recorded as sysfs would: ``0x030200``.
    lspci without ``-k`` does not show the driver.
    """
    found = []
    for line in text.splitlines():
        match = _LSPCI_LINE.match(line)
        if match is None:
            continue
        slot = match["slot"].lower()
        if slot.count(":") == 1:
            slot = f"0000:{slot}"
        device = parse_pci_device(
            slot, f"0x{match['vendor']}", f"0x{match['device']}", f"0x{match['cls']}00", None
        )
        if device is not None:
            found.append(device)
    return tuple(found)


# --- kernel module ---------------------------------------------------------------------------


def parse_driver_version(text: Optional[str]) -> Optional[str]:
    """The first line of ``/proc/driver/nvidia/version`` (``NVRM version: ...``), stripped."""
    lines = (text or "").strip().splitlines()
    return lines[0].strip() if lines else None


def parse_modules(text: Optional[str]) -> Optional[tuple[str, ...]]:
    """The loaded modules among :data:`MODULES`, in that order, from ``/proc/modules``.

    Each line starts with the module's name (proc(5): name, size, users, used by, state,
    address); None when the file could not be read.
    """
    if text is None:
        return None
    loaded = {line.split(None, 1)[0] for line in text.splitlines() if line.strip()}
    return tuple(m for m in MODULES if m in loaded)


# --- device nodes ----------------------------------------------------------------------------


def read_device_nodes(root: Path, access: Access = os.access) -> tuple[DeviceNode, ...]:
    """Each ``/dev/nvidia*`` node and whether this user may open it for reading and writing.

    The path is recorded as on the machine (``/dev/nvidia0``) whatever ``root`` is; one
    listing of ``/dev``, no recursion.
    """
    try:
        names = sorted(p.name for p in (root / "dev").iterdir())
    except OSError:
        return ()
    return parse_device_nodes(
        names, {n: access(str(root / "dev" / n), os.R_OK | os.W_OK) for n in names}
    )


def parse_device_nodes(
    names: Sequence[str], accessible: Mapping[str, bool]
) -> tuple[DeviceNode, ...]:
    """The NVIDIA device nodes among the names in ``/dev``, numbered ones in numeric order."""
    nodes = [n for n in names if _DEVICE_NODE.fullmatch(n)]

    def key(name: str) -> tuple[int, int, str]:
        digits = name[len("nvidia") :]
        return (0, int(digits), "") if digits.isdigit() else (1, 0, name)

    return tuple(
        DeviceNode(path=f"/dev/{n}", accessible=bool(accessible.get(n)))
        for n in sorted(nodes, key=key)
    )


# --- Secure Boot -----------------------------------------------------------------------------


def read_secure_boot(root: Path) -> Optional[bool]:
    """Whether UEFI Secure Boot is on; None where that cannot be told."""
    try:
        data: Optional[bytes] = (root / SECURE_BOOT_VAR).read_bytes()
    except OSError:
        data = None
    try:
        firmware: Optional[tuple[str, ...]] = tuple(
            sorted(p.name for p in (root / "sys/firmware").iterdir())
        )
    except OSError:
        firmware = None
    return parse_secure_boot(data, firmware)


def parse_secure_boot(data: Optional[bytes], firmware: Optional[Sequence[str]]) -> Optional[bool]:
    """Secure Boot from the ``SecureBoot`` efivar (4 attribute bytes, then 1 value byte).

    Without the variable: a ``/sys/firmware`` that lists entries but no ``efi`` is a machine
    booted without UEFI (no Secure Boot at all); an empty or missing one (containers mask it)
    or an EFI one whose efivars are not mounted says nothing.
    """
    if data is not None and len(data) >= 5:
        return data[4] == 1
    if data is None and firmware and "efi" not in firmware:
        return False
    return None


# --- DKMS ------------------------------------------------------------------------------------


def read_dkms(
    env: Mapping[str, str], runner: Runner = run_command, timeout: float = DKMS_TIMEOUT
) -> tuple[str, ...]:
    """``dkms status`` lines about NVIDIA modules; empty without ``dkms`` or on failure."""
    dkms = shutil.which("dkms", path=env.get("PATH", os.defpath))
    if dkms is None:
        return ()
    result = runner([dkms, "status"], env, timeout)
    if result.start_error is not None or result.timed_out:
        return ()
    return parse_dkms(result.stdout)


def parse_dkms(text: str) -> tuple[str, ...]:
    """The lines of ``dkms status`` whose module is NVIDIA's.

    dkms 3 prints ``nvidia/550.54.15, 6.5.0-27-generic, x86_64: installed``; dkms 2 printed
    ``nvidia, 510.85.02, 5.13.0-40-generic, x86_64: installed``.
    """
    lines = []
    for raw in text.splitlines():
        line = raw.strip()
        module = re.split(r"[/,\s]", line, maxsplit=1)[0].lower()
        if module.startswith("nvidia"):
            lines.append(line)
    return tuple(lines)
