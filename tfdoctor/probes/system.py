"""Operating system, container, CPU, memory and environment variables.

Each ``read_*`` does one read of the world; each ``parse_*`` is a pure function of text,
tested on recorded outputs.
"""

from __future__ import annotations

import ctypes
import os
import platform
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Optional

from tfdoctor.facts import NOTEBOOK_ENV_MARKERS, CpuFacts, PlatformFacts
from tfdoctor.probes._run import Runner, run_command

# --- platform --------------------------------------------------------------------------------


def _os_release_values(text: str) -> dict[str, str]:
    """The assignments of an ``/etc/os-release`` file, quotes removed."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip()] = value.strip().strip("\"'")
    return values


def parse_os_release(text: str) -> Optional[str]:
    """PRETTY_NAME (else NAME VERSION) from an ``/etc/os-release`` file."""
    values = _os_release_values(text)
    if values.get("PRETTY_NAME"):
        return values["PRETTY_NAME"]
    name = " ".join(v for v in (values.get("NAME"), values.get("VERSION")) if v)
    return name or None


def parse_os_ids(text: str) -> tuple[str, ...]:
    """``ID`` then the ``ID_LIKE`` words of an ``/etc/os-release`` file, lower case, each once.

    os-release(5): ID_LIKE is "a space-separated list of operating system identifiers in the
    same syntax as the ID= setting", those "closely related to the local operating system in
    regards to packaging and programming interfaces", the one it derives from first (Linux
    Mint: ``ID=linuxmint``, ``ID_LIKE="ubuntu debian"``; Rocky Linux: ``ID_LIKE="rhel centos
    fedora"``). An absent ID means ``linux``, which names no distribution: left out.
    """
    values = _os_release_values(text)
    words = [values.get("ID", ""), *values.get("ID_LIKE", "").split()]
    ids: list[str] = []
    for word in (w.strip().lower() for w in words):
        if word and word != "linux" and word not in ids:
            ids.append(word)
    return tuple(ids)


def parse_wsl(kernel_release: str, proc_version: str) -> Optional[str]:
    """``WSL2``/``WSL1`` from the kernel release and ``/proc/version``, else None.

    WSL2 kernels are named like ``5.15.153.1-microsoft-standard-WSL2``; WSL1 reports a
    fake kernel like ``4.4.0-19041-Microsoft`` (capital M, no "standard").
    """
    text = f"{kernel_release} {proc_version}".lower()
    if "microsoft" not in text and "wsl" not in text:
        return None
    if "wsl2" in text or "microsoft-standard" in text:
        return "WSL2"
    return "WSL1"


def parse_container(
    cgroup: str,
    env: Mapping[str, str],
    dockerenv: bool,
    containerenv: bool,
    mountinfo: str = "",
) -> Optional[str]:
    """The container runtime from marker files, ``/proc/1/cgroup``, variables and mounts."""
    # Kubernetes injects KUBERNETES_SERVICE_HOST into every pod, whatever the runtime.
    if env.get("KUBERNETES_SERVICE_HOST") or "kubepods" in cgroup:
        return "kubernetes"
    # Podman writes /run/.containerenv and sets container=podman; Docker writes /.dockerenv.
    if containerenv or env.get("container") == "podman":
        return "podman"
    if dockerenv or "docker" in cgroup:
        return "docker"
    if "containerd" in cgroup:
        return "containerd"
    if "lxc" in cgroup or env.get("container") == "lxc":
        return "lxc"
    runtime = parse_root_mount_runtime(mountinfo)
    if runtime is not None:
        return runtime
    if env.get("container"):
        return env["container"]
    return None


# Layer-store directories in the overlay options of ``/``, most specific first. A BuildKit RUN
# step (`docker build` since Docker 23) has no /.dockerenv (moby/buildkit#4503) and cgroup v2
# shows "0::/", so the layer paths are what is left to see.
_ROOT_LAYER_MARKERS = (
    ("/buildkit/", "buildkit"),
    ("/docker/", "docker"),
    ("/containers/storage/", "podman"),
    ("io.containerd.snapshotter", "containerd"),
)


def parse_root_mount_runtime(mountinfo: str) -> Optional[str]:
    """The runtime whose layer store backs ``/``, from ``/proc/self/mountinfo`` text.

    Only the mount at ``/`` counts: a host's table also lists its containers' overlays.
    Fields per proc(5): id, parent, dev, root, mount point, options ... ``-`` type source
    super-options.
    """
    for line in mountinfo.splitlines():
        fields = line.split()
        _before, dash, after = line.partition(" - ")
        if len(fields) < 5 or fields[4] != "/" or not dash:
            continue
        fstype, _sep, options = after.partition(" ")
        if fstype != "overlay":
            continue
        for marker, runtime in _ROOT_LAYER_MARKERS:
            if marker in options:
                return runtime
    return None


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def read_libc(runner: Runner = run_command) -> tuple[str, Optional[str]]:
    """The C library and its version: ``("glibc", "2.36")``, ``("musl", "1.2.4")`` ..."""
    if sys.platform != "linux":
        return "", None
    # Android's C library (Bionic) has no confstr, so a CPython built for it has no
    # os.confstr: Termux's Python before 3.13, whose sys.platform is still "linux".
    confstr = getattr(os, "confstr", None)
    try:
        # glibc answers "glibc 2.36"; musl has no such confstr and raises or returns None.
        value = confstr("CS_GNU_LIBC_VERSION") if confstr is not None else None
    except (ValueError, OSError):
        value = None
    if value and value.startswith("glibc "):
        return "glibc", value.split()[1]
    for loader in sorted(Path("/lib").glob("ld-musl-*.so.1")):
        # musl's loader run without arguments prints "musl libc (x86_64)\nVersion 1.2.4".
        return "musl", parse_musl_version(runner([str(loader)], None, 5.0).stderr)
    return "unknown", None


def parse_musl_version(text: str) -> Optional[str]:
    """The version from musl's loader banner (``Version 1.2.4``)."""
    match = re.search(r"^Version\s+([0-9][0-9.]*)", text, re.MULTILINE)
    return match.group(1) if match else None


def _os_release_text() -> str:
    """``/etc/os-release``, else ``/usr/lib/os-release`` (os-release(5): never both)."""
    return _read("/etc/os-release") or _read("/usr/lib/os-release")


def read_os_name() -> str:
    """A human name for the OS release, as precise as the platform offers."""
    if sys.platform == "linux":
        return parse_os_release(_os_release_text()) or "Linux"
    if sys.platform == "darwin":
        return f"macOS {platform.mac_ver()[0]}".strip()
    if sys.platform == "win32":
        release, version, _csd, _ptype = platform.win32_ver()
        return f"Windows {release} ({version})".strip()
    return platform.system()


# --- CPU emulation ---------------------------------------------------------------------------

#: Architecture families of ``platform.machine()`` names and of what /proc/cpuinfo describes.
_MACHINE_FAMILIES = {
    "x86_64": "x86",
    "amd64": "x86",
    "i386": "x86",
    "i686": "x86",
    "aarch64": "arm",
    "arm64": "arm",
    "armv7l": "arm",
    "armv8l": "arm",
    "ppc64le": "ppc",
    "ppc64": "ppc",
    "s390x": "s390",
    "riscv64": "riscv",
}
#: The binfmt_misc handler names qemu-user registers per emulated machine (QEMU's
#: scripts/qemu-binfmt-conf.sh: ``qemu-$cpu``).
_QEMU_HANDLERS = {
    "x86_64": "qemu-x86_64",
    "amd64": "qemu-x86_64",
    "i386": "qemu-i386",
    "i686": "qemu-i386",
    "aarch64": "qemu-aarch64",
    "arm64": "qemu-aarch64",
}
_BINFMT_DIR = "proc/sys/fs/binfmt_misc"


def parse_cpuinfo_arch(text: str) -> Optional[str]:
    """The architecture the kernel's ``/proc/cpuinfo`` describes, or None when unknown.

    QEMU user-mode fakes ``/proc/cpuinfo`` for some guests (Arm, RISC-V, s390x, SPARC, HPPA:
    linux-user/*/target_proc.h) but not for x86: an x86-64 process emulated on an arm64 host
    reads the host's Arm lines (gnulib tests/qemu.h detects QEMU user-mode the same way).
    """
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            values.setdefault(key.strip(), value.strip())
    if "CPU implementer" in values or "CPU architecture" in values:
        # arm64 kernels print "CPU architecture: 8" for every core, ARMv9 ones too
        # (arch/arm64/kernel/cpuinfo.c); 32-bit Arm kernels print 7 or lower.
        arch = values.get("CPU architecture", "")
        return "aarch64" if arch.isdigit() and int(arch) >= 8 else "armv7l"
    vendor = values.get("vendor_id", "")
    if vendor == "IBM/S390":
        return "s390x"
    if vendor:
        return "x86_64" if "lm" in values.get("flags", "").split() else "i686"
    if values.get("cpu", "").upper().startswith("POWER"):
        return "ppc64le"
    if values.get("isa", "").startswith("rv64"):
        return "riscv64"
    return None


def parse_binfmt_enabled(entry: Optional[str], status: Optional[str]) -> bool:
    """Whether a binfmt_misc handler applies: its file and the global ``status`` say enabled.

    Each handler file starts with ``enabled`` or ``disabled`` (kernel docs, binfmt-misc.rst).
    """
    if entry is None or not entry.strip():
        return False
    if status is not None and status.strip() == "disabled":
        return False
    return entry.strip().splitlines()[0].strip() == "enabled"


def parse_emulation(
    machine: str, cpuinfo: str, qemu_handler: bool, rosetta: bool
) -> tuple[Optional[str], Optional[str]]:
    """(emulation, host machine) from the interpreter's machine and the kernel's view.

    An interpreter whose machine differs from the CPU the kernel describes runs under QEMU
    user-mode; where ``/proc/cpuinfo`` tells nothing, an enabled ``qemu-<machine>`` binfmt
    handler says the same, without naming the host.
    """
    if rosetta:
        # Rosetta 2 runs x86-64 code on Apple silicon only.
        return "rosetta", "arm64"
    family = _MACHINE_FAMILIES.get(machine.lower())
    host = parse_cpuinfo_arch(cpuinfo)
    host_family = _MACHINE_FAMILIES.get(host) if host is not None else None
    if family is not None and host_family is not None:
        return ("qemu", host) if family != host_family else (None, None)
    if family is not None and qemu_handler:
        return "qemu", None
    return None, None


def read_emulation(
    machine: str, rosetta: bool, root: Path = Path("/")
) -> tuple[Optional[str], Optional[str]]:
    """(emulation, host machine) of an interpreter reporting ``machine``; Linux reads ``root``."""
    if sys.platform != "linux":
        return parse_emulation(machine, "", qemu_handler=False, rosetta=rosetta)
    handler = _QEMU_HANDLERS.get(machine.lower())
    entry = _read(str(root / _BINFMT_DIR / handler)) if handler else ""
    status = _read(str(root / _BINFMT_DIR / "status")) or None
    return parse_emulation(
        machine,
        _read(str(root / "proc/cpuinfo")),
        qemu_handler=parse_binfmt_enabled(entry or None, status),
        rosetta=rosetta,
    )


def probe_platform(
    env: Optional[Mapping[str, str]] = None,
    machine: Optional[str] = None,
    rosetta: bool = False,
    runner: Runner = run_command,
) -> PlatformFacts:
    """OS, architecture, libc, WSL, container and NVIDIA device nodes of this machine.

    ``machine`` and ``rosetta`` come from the examined interpreter when it is another one
    (an x86-64 Python under Rosetta reports ``x86_64`` on an arm64 Mac).
    """
    env = os.environ if env is None else env
    libc, libc_version = read_libc(runner)
    release = platform.release()
    emulation, host_machine = read_emulation(machine or platform.machine(), rosetta)
    return PlatformFacts(
        system=platform.system(),
        release=release,
        os_name=read_os_name(),
        machine=machine or platform.machine(),
        libc=libc,
        libc_version=libc_version,
        wsl=parse_wsl(release, _read("/proc/version")) if sys.platform == "linux" else None,
        container=parse_container(
            _read("/proc/1/cgroup"),
            env,
            Path("/.dockerenv").exists(),
            Path("/run/.containerenv").exists(),
            _read("/proc/self/mountinfo"),
        )
        if sys.platform == "linux"
        else None,
        rosetta=rosetta,
        nvidia_device_nodes=tuple(sorted(str(p) for p in Path("/dev").glob("nvidia*"))),
        emulation=emulation,
        host_machine=host_machine,
        os_ids=parse_os_ids(_os_release_text()) if sys.platform == "linux" else (),
    )


# --- CPU -------------------------------------------------------------------------------------

#: Vector features TensorFlow wheels are built for or can use, as Linux names them.
VECTOR_FLAGS = (
    "sse4_1",
    "sse4_2",
    "avx",
    "avx2",
    "fma",
    "f16c",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512_vnni",
    "avx512_bf16",
    "amx_tile",
    "asimd",
    "sve",
)


def parse_cpuinfo(text: str) -> tuple[str, tuple[str, ...]]:
    """The CPU model and its vector flags from ``/proc/cpuinfo`` (x86 and Arm layouts)."""
    model = ""
    flags: set[str] = set()
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key = key.strip()
        if key in ("model name", "Model", "cpu model") and not model:
            model = value.strip()
        elif key in ("flags", "Features") and not flags:
            flags = set(value.split())
    return model, tuple(f for f in VECTOR_FLAGS if f in flags)


def parse_sysctl_features(text: str) -> tuple[str, ...]:
    """Vector flags from macOS ``sysctl machdep.cpu.features machdep.cpu.leaf7_features``."""
    words = {w.lower().replace(".", "_") for w in text.split()}
    # macOS calls AVX "AVX1.0"; the other names match Linux's once "." becomes "_".
    found = {"avx" if w == "avx1_0" else w for w in words}
    return tuple(f for f in VECTOR_FLAGS if f in found)


# IsProcessorFeaturePresent constants (winnt.h): PF_AVX_INSTRUCTIONS_AVAILABLE = 39, ...
_WINDOWS_FEATURES = {"avx": 39, "avx2": 40, "avx512f": 41}


def _windows_flags() -> tuple[str, ...]:
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    return tuple(
        name for name, code in _WINDOWS_FEATURES.items() if kernel32.IsProcessorFeaturePresent(code)
    )


def read_cpu(runner: Runner = run_command) -> tuple[str, tuple[str, ...], bool]:
    """CPU model, vector flags, and whether the flags could be read at all."""
    if sys.platform == "linux":
        text = _read("/proc/cpuinfo")
        model, flags = parse_cpuinfo(text)
        return model or platform.processor(), flags, bool(text)
    if sys.platform == "darwin":
        brand = runner(["sysctl", "-n", "machdep.cpu.brand_string"], None, 5.0)
        model = brand.stdout.strip() or platform.processor()
        if platform.machine() == "arm64":
            # Apple silicon has NEON (asimd) always; machdep.cpu.features does not exist there.
            return model, ("asimd",), True
        feats = runner(
            ["sysctl", "-n", "machdep.cpu.features", "machdep.cpu.leaf7_features"], None, 5.0
        )
        return model, parse_sysctl_features(feats.stdout), feats.returncode == 0
    if sys.platform == "win32":
        try:
            return platform.processor(), _windows_flags(), True
        except (AttributeError, OSError):
            return platform.processor(), (), False
    return platform.processor(), (), False


def parse_meminfo(text: str) -> tuple[Optional[int], Optional[int], Optional[int]]:
    """Bytes of RAM, of RAM available to new work, and of swap, from ``/proc/meminfo``.

    The figures ``free`` shows (``MemTotal``, ``MemAvailable``, ``SwapTotal``, in KiB:
    https://docs.kernel.org/filesystems/proc.html#meminfo); None where a line is missing.
    """
    found: dict[str, int] = {}
    for line in text.splitlines():
        key, sep, rest = line.partition(":")
        words = rest.split()
        if sep and words and words[0].isdigit():
            scale = 1024 if words[1:2] == ["kB"] else 1
            found[key.strip()] = int(words[0]) * scale
    return found.get("MemTotal"), found.get("MemAvailable"), found.get("SwapTotal")


def count_physical_cores(topology: Sequence[str]) -> Optional[int]:
    """Cores from each logical CPU's ``topology/core_cpus_list`` (its hyperthread siblings):
    one core per distinct list; None when no CPU has one."""
    distinct = {text.strip() for text in topology if text.strip()}
    return len(distinct) or None


def _linux_cores() -> Optional[int]:
    # core_cpus_list since Linux 5.3, thread_siblings_list before it (the same content):
    # https://docs.kernel.org/admin-guide/cputopology.html
    lists = []
    for cpu in Path("/sys/devices/system/cpu").glob("cpu[0-9]*"):
        text = _read(str(cpu / "topology" / "core_cpus_list")) or _read(
            str(cpu / "topology" / "thread_siblings_list")
        )
        lists.append(text)
    return count_physical_cores(lists)


def probe_cpu(runner: Runner = run_command) -> CpuFacts:
    """CPU model, cores, vector features, RAM and swap.

    On Linux from /proc and /sys directly (what psutil reads there, without its import);
    elsewhere through psutil.
    """
    model, flags, known = read_cpu(runner)
    if sys.platform == "linux":
        total, available, swap = parse_meminfo(_read("/proc/meminfo"))
        return CpuFacts(
            model=model,
            physical_cores=_linux_cores(),
            logical_cores=os.cpu_count(),
            flags=flags,
            flags_known=known,
            memory_total=total,
            memory_available=available,
            swap_total=swap,
        )
    import psutil  # noqa: PLC0415 - macOS and Windows only

    mem_total = mem_available = swap_total = None
    try:
        vm = psutil.virtual_memory()
        mem_total, mem_available = int(vm.total), int(vm.available)
        swap_total = int(psutil.swap_memory().total)
    except (OSError, RuntimeError):
        pass
    return CpuFacts(
        model=model,
        physical_cores=psutil.cpu_count(logical=False),
        logical_cores=psutil.cpu_count(logical=True),
        flags=flags,
        flags_known=known,
        memory_total=mem_total,
        memory_available=mem_available,
        swap_total=swap_total,
    )


# --- environment variables -------------------------------------------------------------------

_ENV_EXACT = frozenset(
    {
        "CUDA_VISIBLE_DEVICES",
        "CUDA_DEVICE_ORDER",
        "CUDA_HOME",
        "CUDA_PATH",
        "CUDA_ROOT",
        "CUDNN_PATH",
        "CUDA_MODULE_LOADING",
        "CUDA_CACHE_PATH",
        "CUDA_CACHE_MAXSIZE",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "DYLD_LIBRARY_PATH",
        "PATH",
        "PYTHONPATH",
        "PYTHONHOME",
        "XLA_FLAGS",
        "KERAS_BACKEND",
        "KERAS_HOME",
        "NVIDIA_VISIBLE_DEVICES",
        "NVIDIA_DRIVER_CAPABILITIES",
        "VIRTUAL_ENV",
        "CONDA_PREFIX",
        "CONDA_DEFAULT_ENV",
        "OMP_NUM_THREADS",
    }
)
_ENV_PREFIXES = ("TF_", "TENSORFLOW_", "NCCL_", "NVIDIA_")
#: The hosted-notebook markers, recorded so the environment kind can be told.
_NOTEBOOK_VARS = frozenset(var for var, _ in NOTEBOOK_ENV_MARKERS)


def select_environment(env: Mapping[str, str]) -> dict[str, str]:
    """The variables that change how TensorFlow, CUDA and the loader behave."""
    return {
        k: v
        for k, v in sorted(env.items())
        if k in _ENV_EXACT or k in _NOTEBOOK_VARS or k.startswith(_ENV_PREFIXES)
    }
