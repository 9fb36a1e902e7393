"""Checks on the NVIDIA driver: it loads and lists its GPUs, and it is new enough for the
CUDA version TensorFlow was built with."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, unknown
from tfdoctor.checks._shared import (
    driver_cause,
    installed_line,
    matrix_unknown,
    no_gpu_here,
)
from tfdoctor.compat import cuda_driver_floor
from tfdoctor.facts import ProbeError
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import version_key

# Driver failure reasons (DriverFacts.error.reason) -> the one-line summary; the cause and its
# fix come from the catalogue's builders (driver_cause), the same explain uses.
_DRIVER_REASONS: dict[str, str] = {
    "version-mismatch": (
        "NVIDIA driver/library version mismatch: the loaded kernel module and the user-space "
        "libraries are different versions (typically after a driver upgrade without reboot)"
    ),
    "no-permission": "No permission to open the NVIDIA devices",
    "driver-not-loaded": "The NVIDIA kernel driver is not loaded",
    "library-not-found": (
        "NVIDIA device nodes exist but the driver's user-space library (libnvidia-ml.so.1) is "
        "missing: a container started without the NVIDIA runtime, or a broken driver install"
    ),
}


def check_driver(ctx: CheckContext) -> Iterator[Finding]:
    """The NVIDIA driver loads and lists its GPUs; when not, the exact reason and fix."""
    facts = ctx.facts
    drv = facts.driver
    if drv is None:
        yield unknown("driver.nvidia", "the NVIDIA driver", facts.error_for("driver"))
        return
    if drv.gpus:
        names = ", ".join(
            f"{g.index}: {g.name}"
            + (f" (compute {g.compute_capability})" if g.compute_capability else "")
            for g in drv.gpus
        )
        via = "" if drv.source == "nvml" else f" (via {drv.source}; NVML failed)"
        cuda = f", supports CUDA {drv.cuda_version}" if drv.cuda_version else ""
        yield Finding(
            "driver.nvidia",
            Severity.OK,
            f"NVIDIA driver {drv.driver_version}{cuda}{via}; GPUs {names}",
            drv.nvml_error.message if drv.nvml_error else "",
        )
        return
    kernel = _kernel_finding(ctx)
    if kernel is not None:
        yield kernel
        return
    if no_gpu_here(ctx):
        said = drv.error.message if drv.error else ""
        hosted = ctx.machine.facts.hosted
        if causes.gpu.runtime_chooses_gpu(ctx.machine) and not (hosted and hosted.on_tpu()):
            # A hosted notebook's VM, or a SageMaker instance whose bus holds no NVIDIA
            # device, gets its GPU and driver from the runtime's accelerator or instance type:
            # a note, as a CPU runtime is no fault; --require-gpu raises it with this fix.
            yield causes.finding(
                "driver.nvidia",
                Severity.INFO,
                causes.hosted.HOSTED_RUNTIME_WITHOUT_GPU,
                "No NVIDIA GPU on this runtime: its accelerator or instance type gives one",
                said,
                causes.hosted.hosted_gpu_runtime_fix(ctx.machine),
            )
            return
        yield Finding(
            "driver.nvidia", Severity.INFO, "No NVIDIA GPU or driver on this machine", said
        )
        return
    err = drv.error
    if err is not None and err.reason == "no-gpu":
        yield _no_devices_finding(ctx, err)
        return
    if err is None or err.reason not in _DRIVER_REASONS:
        yield Finding(
            "driver.nvidia",
            Severity.UNKNOWN,
            "Could not determine the state of the NVIDIA driver",
            err.message + ("\n" + err.detail if err.detail else "") if err else "",
        )
        return
    summary = _DRIVER_REASONS[err.reason]
    cause, remedy = driver_cause(ctx, err.reason)
    if cause == causes.platform.WSL_DRIVER_BROKEN:
        summary = (
            "Under WSL 2 the NVIDIA driver is not reached: WSL's GPU libraries from the "
            f"Windows driver do not answer ({err.reason})"
        )
    elif err.reason == "library-not-found" and not ctx.machine.container:
        cause = causes.gpu.DRIVER_LIBRARIES_MISSING
        summary = (
            "NVIDIA device nodes exist but the driver's user-space library (libnvidia-ml.so.1) "
            "is missing: a broken or partial driver install"
        )
        remedy = causes.gpu.driver_userspace_fix(ctx.machine)
    yield causes.finding(
        "driver.nvidia",
        Severity.ERROR,
        cause,
        summary,
        err.message + ("\n" + err.detail if err.detail else ""),
        remedy,
    )


def _no_devices_finding(ctx: CheckContext, err: ProbeError) -> Finding:
    """NVML starts and counts no GPU (nvidia-smi: "No devices were found") where something
    says a GPU is here: in a container, none handed in with the driver; on a host, the
    candidates ranked by the driver each NVIDIA device on the PCI bus is bound to."""
    cause, remedy = driver_cause(ctx, err.reason)
    kernel = ctx.facts.nvidia_kernel
    devices = kernel.pci_devices if kernel is not None else ()
    # lspci (read without -k) shows no binding: its devices are listed without one.
    bindings = kernel is not None and kernel.pci_source != "lspci"
    bound = ", ".join(
        f"{d.slot} {d.device_id}" + (f": {d.driver or 'no driver'}" if bindings else "")
        for d in devices
    )
    if cause == causes.gpu.GPU_NOT_BOUND:
        summary = "The nvidia kernel module is loaded but drives no GPU (No devices were found)"
        summary += f": PCI {bound}" if bound else ""
    elif cause == causes.container.CONTAINER_NO_GPU:
        summary = (
            "The NVIDIA driver answers in this container but lists no GPU: the container was "
            "started with the driver and no GPU"
        )
    else:
        summary = "The NVIDIA driver answers but lists no GPU (No devices were found)"
    return causes.finding(
        "driver.nvidia",
        # A GPU on the bus or a container's: an error. The bus unread or empty, the
        # candidates are the fix's to tell apart.
        Severity.ERROR if devices or ctx.machine.container else Severity.WARNING,
        cause,
        summary,
        err.message + ("\n" + err.detail if err.detail else ""),
        remedy,
    )


def _kernel_finding(ctx: CheckContext) -> Optional[Finding]:
    """What the PCI bus, the loaded modules and the device nodes say when the driver lists
    no GPU (on a host: a container sees the host's bus and modules, not its own devices)."""
    m, kernel = ctx.machine, ctx.facts.nvidia_kernel
    if kernel is None or m.container or not kernel.pci_devices:
        return None
    count = len(kernel.pci_devices)
    bound = sorted({d.driver for d in kernel.pci_devices if d.driver})
    modules = kernel.modules
    if modules is not None and "nvidia" not in modules:
        detail = f"PCI: {', '.join(d.slot + ' ' + d.device_id for d in kernel.pci_devices)}"
        if bound:
            detail += f"; bound to {', '.join(bound)}"
        return causes.finding(
            "driver.nvidia",
            Severity.ERROR,
            causes.gpu.DRIVER_NOT_LOADED,
            f"{count} NVIDIA GPU(s) on the PCI bus, but the nvidia kernel module is not loaded",
            detail,
            causes.gpu.driver_load_fix(m),
        )
    closed = [n.path for n in kernel.device_nodes if not n.accessible]
    if closed:
        return causes.finding(
            "driver.nvidia",
            Severity.ERROR,
            causes.gpu.DRIVER_NO_PERMISSION,
            f"This user cannot open {', '.join(closed)}",
            "",
            causes.gpu.no_permission_fix(m.container is not None),
        )
    return None


#: NVIDIA's driver downloads and the Linux packages' branch names.
DRIVER_LINK = "https://www.nvidia.com/en-us/drivers/"


def check_driver_cuda(ctx: CheckContext) -> Iterator[Finding]:
    """The NVIDIA driver is new enough for the CUDA version TensorFlow was built with."""
    facts, matrix = ctx.facts, ctx.matrix
    drv = facts.driver
    if matrix is None or drv is None or not drv.gpus or not drv.driver_version:
        return  # no GPU: driver.nvidia says so
    os_name = ctx.machine.os
    pkg, line = installed_line(ctx)
    if pkg is None or os_name not in ("linux", "windows"):
        return
    cuda = ctx.machine.build_cuda
    if line is None and (cuda is None or ctx.facts.tensorflow is None):
        yield matrix_unknown("driver.cuda", ctx, pkg)
        return
    if cuda is None:
        return
    # A build the matrix has no line of (TensorFlow 1.x, a conda build) names its CUDA in its
    # own record: NVIDIA's table gives that CUDA's driver.
    floor = (
        causes.gpu.build_driver_floor(ctx.machine)
        if line is not None
        else cuda_driver_floor(matrix, cuda, "windows" if ctx.machine.wsl else os_name)
    )
    if floor is None:
        if line is None:
            yield matrix_unknown("driver.cuda", ctx, pkg)
        else:
            yield unknown("driver.cuda", f"the driver CUDA {cuda} needs on {os_name}")
        return
    have = drv.driver_version
    release = line.line if line is not None else pkg.version
    if version_key(have) >= version_key(floor.version):
        yield Finding(
            "driver.cuda",
            Severity.OK,
            f"Driver {have} runs TensorFlow {release}'s CUDA {cuda} build "
            f"(needs >= {floor.version})",
        )
        return
    cuinit = ctx.facts.cuinit
    served = cuinit.driver_cuda if cuinit is not None and cuinit.status == "ok" else None
    if cuinit is not None and served and version_key(served) >= version_key(cuda)[:2]:
        # cuDriverGetVersion through the libcuda this process loads answers a CUDA the
        # kernel-mode driver does not: NVIDIA's forward compatibility package (cuda-compat)
        # serves the build's CUDA on this older driver (data-center GPUs).
        yield Finding(
            "driver.cuda",
            Severity.INFO,
            f"Driver {have} is older than TensorFlow {release}'s CUDA {cuda} build needs "
            f"(>= {floor.version}), but the libcuda loaded serves CUDA {served}",
            f"cuInit ran through {cuinit.library or 'libcuda'}, whose cuDriverGetVersion "
            f"answers CUDA {served}: NVIDIA's forward compatibility package serves the newer "
            "CUDA on this driver.",
            links=("https://docs.nvidia.com/deploy/cuda-compatibility/index.html",),
        )
        return
    yield causes.finding(
        "driver.cuda",
        Severity.ERROR,
        causes.gpu.DRIVER_TOO_OLD,
        f"Driver {have} is too old for TensorFlow {release}'s CUDA {cuda} build "
        f"(needs >= {floor.version})",
        f"Rule: {floor.rule}. With an older driver TensorFlow reports "
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH or 'driver version is insufficient' and uses "
        "no GPU.",
        causes.gpu.driver_too_old_fix(ctx.machine, floor.version),
        (DRIVER_LINK,),
    )
