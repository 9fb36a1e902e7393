"""Checks on the NVIDIA driver, GPU visibility and the CUDA libraries TensorFlow loads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePath
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix, unknown
from tfdoctor.evidence import tflog
from tfdoctor.evidence.tflog import library_of
from tfdoctor.facts import Facts, LibraryFacts, TFStatus
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine

_NVIDIA_CONTAINER_DOCS = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)

# Driver failure reasons (DriverFacts.error.reason) -> severity when device nodes show a GPU
# is there, one-line summary, and fix. Without device nodes most reasons just mean "no GPU".
_DRIVER_REASONS: dict[str, tuple[str, Fix]] = {
    "version-mismatch": (
        "NVIDIA driver/library version mismatch: the loaded kernel module and the user-space "
        "libraries are different versions (typically after a driver upgrade without reboot)",
        fix(
            "Reboot, or reload the kernel modules so they match the installed libraries.",
            "sudo reboot",
        ),
    ),
    "no-permission": (
        "No permission to open the NVIDIA devices",
        fix(
            "Give this user access to /dev/nvidia* (usually the video group), then log in again.",
            "ls -l /dev/nvidia*",
            'sudo usermod -aG video "$USER"',
        ),
    ),
    "driver-not-loaded": (
        "The NVIDIA kernel driver is not loaded",
        fix(
            "Load the kernel module; if that fails, reinstall the driver for this kernel "
            "(Secure Boot can also block an unsigned module).",
            "sudo modprobe nvidia",
            "dmesg | grep -i nvidia | tail",
        ),
    ),
    "library-not-found": (
        "NVIDIA device nodes exist but the driver's user-space library (libnvidia-ml.so.1) is "
        "missing: a container started without the NVIDIA runtime, or a broken driver install",
        fix(
            "Start the container with GPU access through the NVIDIA Container Toolkit, or "
            "reinstall the driver on the host.",
            "docker run --gpus all ...",
            "nvidia-smi",
        ),
    ),
}


#: Driver failure reason -> the cause in the catalogue.
_REASON_CAUSES = {
    "version-mismatch": causes.gpu.DRIVER_VERSION_MISMATCH,
    "no-permission": causes.gpu.DRIVER_NO_PERMISSION,
    "driver-not-loaded": causes.gpu.DRIVER_NOT_LOADED,
    "library-not-found": causes.container.CONTAINER_NO_GPU,
}


def _no_gpu_here(ctx: CheckContext) -> bool:
    """No NVIDIA GPU reached this process (the machine view's one rule); device nodes handed
    in without the driver's libraries are the driver finding's to explain."""
    m = ctx.machine
    return m.gpu_presence == "absent" or (
        m.gpu_presence == "not-handed-over" and not m.device_nodes
    )


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
    if _no_gpu_here(ctx):
        yield Finding(
            "driver.nvidia",
            Severity.INFO,
            "No NVIDIA GPU or driver on this machine",
            drv.error.message if drv.error else "",
        )
        return
    err = drv.error
    if err is None or err.reason not in _DRIVER_REASONS:
        yield Finding(
            "driver.nvidia",
            Severity.UNKNOWN,
            "Could not determine the state of the NVIDIA driver",
            err.message + ("\n" + err.detail if err.detail else "") if err else "",
        )
        return
    summary = _DRIVER_REASONS[err.reason][0]
    cause, remedy = _driver_cause(ctx, err.reason)
    if err.reason == "library-not-found" and not ctx.machine.container:
        cause = causes.gpu.DRIVER_LIBRARIES_MISSING
        summary = (
            "NVIDIA device nodes exist but the driver's user-space library (libnvidia-ml.so.1) "
            "is missing: a broken or partial driver install"
        )
        remedy = fix(
            "Reinstall the NVIDIA driver (its user-space libraries), then check nvidia-smi.",
            "sudo ubuntu-drivers install  # Ubuntu; elsewhere the driver package or runfile",
            "nvidia-smi",
        )
    yield causes.finding(
        "driver.nvidia",
        Severity.ERROR,
        cause,
        summary,
        err.message + ("\n" + err.detail if err.detail else ""),
        remedy,
    )


def _driver_cause(ctx: CheckContext, reason: str) -> tuple[causes.CauseId, Fix]:
    """The cause a driver failure reason names, and its fix (one builder per cause, the
    same that explain uses)."""
    cause = _REASON_CAUSES.get(reason, causes.gpu.DRIVER_NOT_LOADED)
    if cause == causes.container.CONTAINER_NO_GPU:
        return cause, causes.container.container_gpu_fix(ctx.machine)
    if cause == causes.gpu.DRIVER_VERSION_MISMATCH:
        return cause, causes.gpu.driver_mismatch_fix()
    if cause == causes.gpu.DRIVER_NO_PERMISSION:
        return cause, _DRIVER_REASONS["no-permission"][1]
    return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.driver_load_fix(ctx.machine)


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
            _DRIVER_REASONS["no-permission"][1],
        )
    return None


def _old_driver_logged(m: Machine) -> bool:
    """TensorFlow's log says the driver is older than its CUDA build: cudaErrorInsufficientDriver
    (35, "CUDA driver version is insufficient for CUDA runtime version"), CUresult 803
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, or the driver refusing the build's PTX (CUresult 222
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION)."""
    return (
        bool(m.tf_logged(tflog.DriverTooOld))
        or any(e.number == 803 for e in m.tf_logged(tflog.CudaError))
        or any(p.problem == "unsupported-toolchain" for p in m.tf_logged(tflog.PtxasProblem))
    )


def _unknown_error_logged(m: Machine) -> bool:
    """TensorFlow's log shows a CUDA call failing with CUDA_ERROR_UNKNOWN (999)."""
    return any(e.number == 999 for e in m.tf_logged(tflog.CudaError))


def check_ecc(ctx: CheckContext) -> Iterator[Finding]:
    """Uncorrected ECC errors mean a GPU returned corrupted memory since the driver loaded."""
    drv = ctx.facts.driver
    if drv is None:
        return
    for gpu in drv.gpus:
        if gpu.ecc_uncorrected:
            yield causes.finding(
                "gpu.ecc",
                Severity.WARNING,
                causes.gpu.GPU_MEMORY_ERRORS,
                f"GPU {gpu.index} ({gpu.name}) reports {gpu.ecc_uncorrected} uncorrected ECC "
                "errors",
                "Uncorrectable memory errors corrupt results and crash kernels; pages are "
                "retired on the next driver reload.",
                causes.gpu.gpu_memory_errors_fix(gpu.index),
            )


def _hidden_by_visible_devices(facts: Facts) -> Optional[str]:
    """The CUDA_VISIBLE_DEVICES value when it hides every GPU ("", "-1", "none", bad ids)."""
    env = facts.environment or {}
    if "CUDA_VISIBLE_DEVICES" not in env:
        return None
    value = env["CUDA_VISIBLE_DEVICES"].strip()
    first = value.split(",")[0].strip()
    # CUDA stops at the first invalid entry: an empty or negative first id hides all GPUs.
    if not first or first.startswith("-") or first.lower() in ("none", "void", "nodevfiles"):
        return value
    drv = facts.driver
    if drv and drv.gpus and first.isdigit() and int(first) >= len(drv.gpus):
        return value
    return None


def check_gpu_visible(ctx: CheckContext) -> Iterator[Finding]:
    """TensorFlow lists the machine's GPUs; when it does not, the reason."""
    facts = ctx.facts
    tf, drv = facts.tensorflow, facts.driver
    gpus = drv.gpus if drv else ()
    not_installed = tf is not None and tf.status == TFStatus.NOT_INSTALLED
    if not_installed or (facts.packages is not None and ctx.machine.tf is None):
        # Not applicable rather than unknown: packages.tensorflow says what to install.
        yield Finding("gpu.visible", Severity.INFO, "Not applicable: TensorFlow is not installed")
        return
    if tf is None or tf.status == TFStatus.SKIPPED:
        m = ctx.machine
        if gpus and m.tf is not None and m.cpu_only_distribution:
            yield causes.finding(
                "gpu.visible",
                Severity.WARNING,
                causes.gpu.TF_CPU_ONLY_BUILD,
                f"This TensorFlow ({m.tf.name} {m.tf.version}) is a CPU-only build, but the "
                f"machine has {len(gpus)} NVIDIA GPU(s)",
                "",
                causes.gpu.gpu_build_fix(m),
            )
            return
        if gpus:
            yield Finding(
                "gpu.visible",
                Severity.INFO,
                f"{len(gpus)} NVIDIA GPU(s) present; whether TensorFlow uses them was not checked "
                "(--static)",
            )
        return
    if tf.status != TFStatus.OK:
        yield unknown("gpu.visible", "which GPUs TensorFlow sees: it did not import")
        return
    tf_gpus = [d for d in tf.devices if d.device_type == "GPU"]
    if tf_gpus:
        yield Finding(
            "gpu.visible",
            Severity.OK,
            f"TensorFlow sees {len(tf_gpus)} GPU(s): " + ", ".join(d.name for d in tf_gpus),
        )
        return
    hidden = _hidden_by_visible_devices(facts)
    if hidden is not None and gpus:
        yield causes.finding(
            "gpu.visible",
            Severity.WARNING,
            causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN,
            f"CUDA_VISIBLE_DEVICES={hidden!r} hides every GPU from TensorFlow",
            "CUDA numbers devices from 0 and stops at the first invalid entry.",
            fix(
                "Unset it, or list the GPUs to use.",
                "unset CUDA_VISIBLE_DEVICES",
                "export CUDA_VISIBLE_DEVICES=0",
            ),
        )
        return
    if not tf.is_cuda_build:
        if gpus:
            m = ctx.machine
            name = m.tf.name if m.tf else "tensorflow"
            windows_ended = (
                m.os == "windows" and m.line is not None and not m.line.windows_native_gpu
            )
            yield causes.finding(
                "gpu.visible",
                Severity.WARNING,
                causes.platform.WINDOWS_NATIVE_GPU_ENDED
                if windows_ended
                else causes.gpu.TF_CPU_ONLY_BUILD,
                f"This TensorFlow ({name} {tf.version}) is a CPU-only build, but the machine "
                f"has {len(gpus)} NVIDIA GPU(s)",
                "",
                causes.gpu.gpu_build_fix(m) if m.tf is not None else None,
            )
        else:
            yield Finding(
                "gpu.visible", Severity.OK, "CPU-only TensorFlow on a machine without GPUs"
            )
        return
    if drv is not None and _no_gpu_here(ctx):
        yield Finding(
            "gpu.visible",
            Severity.INFO,
            "TensorFlow is a CUDA build, but there is no NVIDIA GPU here: it runs on the CPU",
            "TensorFlow's log lines about missing CUDA drivers (cuInit error 303) are expected "
            "on a machine without a GPU and do not mean a broken setup.",
        )
        return
    if drv is None or not gpus:
        reason = drv.error.reason if drv is not None and drv.error is not None else ""
        cause, remedy = _driver_cause(ctx, reason)
        yield causes.finding(
            "gpu.visible",
            Severity.ERROR,
            cause,
            "TensorFlow sees no GPU: the NVIDIA driver is not working (see driver.nvidia)",
            "\n".join(tf.log_errors),
            remedy,
        )
        return
    missing = ctx.machine.missing_libraries
    log = "\n".join(tf.log_errors)
    unloaded = ctx.machine.unloaded_files
    cuinit = facts.cuinit
    if (cuinit is not None and cuinit.code == 35) or _old_driver_logged(ctx.machine):
        floor = causes.gpu.build_driver_floor(ctx.machine)
        yield causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.gpu.DRIVER_TOO_OLD,
            f"TensorFlow sees none of the {len(gpus)} GPU(s): the driver is too old for its "
            "CUDA build",
            log,
            causes.gpu.driver_too_old_fix(ctx.machine, floor.version if floor else None),
        )
        return
    if missing or unloaded or ctx.machine.dlopen_failed:
        names = missing or tuple(library_of(n) for n in unloaded)
        what = ", ".join(missing or unloaded) or "some CUDA libraries"
        cause, remedy = causes.gpu.cuda_libraries_fix(ctx.machine, tuple(n for n in names if n))
        yield causes.finding(
            "gpu.visible",
            Severity.ERROR,
            cause,
            f"TensorFlow sees none of the {len(gpus)} GPU(s): it cannot load {what}",
            log,
            remedy,
        )
        return
    if (cuinit is not None and cuinit.code == 999) or _unknown_error_logged(ctx.machine):
        yield causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.gpu.CUINIT_UNKNOWN_ERROR,
            f"TensorFlow sees none of the {len(gpus)} GPU(s): cuInit fails with "
            "CUDA_ERROR_UNKNOWN (999)",
            log,
            causes.gpu.cuinit_unknown_fix(),
        )
        return
    yield causes.finding(
        "gpu.visible",
        Severity.ERROR,
        causes.gpu.GPU_UNSEEN_NO_REASON,
        f"TensorFlow sees none of the {len(gpus)} GPU(s) the driver lists",
        log or "TensorFlow logged no reason; run with TF_CPP_MIN_LOG_LEVEL=0 to see more.",
        causes.gpu.read_device_log_fix(),
    )


def _describe(lib: LibraryFacts, unopened: frozenset[str]) -> str:
    if lib.selected is None:
        never = " (the build never opens it)" if lib.name in unopened else ""
        return f"{lib.name}: not found{never}"
    cand = lib.candidates[lib.selected]
    version = f" {cand.version}" if cand.version else ""
    return f"{lib.name}{version} ({cand.origin}: {cand.path})"


def _cuda_build(facts: Facts) -> Optional[bool]:
    tf = facts.tensorflow
    if tf is not None and tf.is_cuda_build is not None:
        return tf.is_cuda_build
    return None


def check_cuda_libraries(ctx: CheckContext) -> Iterator[Finding]:
    """Every CUDA library the TensorFlow build needs is found, and which file wins."""
    facts = ctx.facts
    libs, drv = facts.cuda_libs, facts.driver
    # No TensorFlow (packages.tensorflow says so), or a CPU-only one: no CUDA build to serve.
    if _cuda_build(facts) is False or ctx.machine.cpu_only_distribution:
        return
    if facts.packages is not None and ctx.machine.tf is None:
        return
    if libs is None:
        yield unknown(
            "cuda.libraries", "which CUDA libraries would load", facts.error_for("cuda_libs")
        )
        return
    if libs.error is not None and not libs.libraries:
        yield unknown("cuda.libraries", "which CUDA libraries would load", libs.error)
        return
    missing = ctx.machine.missing_libraries
    unopened = ctx.machine.unopened_libraries
    detail = "\n".join(_describe(lib, unopened) for lib in libs.libraries)
    has_gpu = bool(drv and drv.gpus)
    if not missing:
        opened = [lib for lib in libs.libraries if lib.name not in unopened]
        yield Finding(
            "cuda.libraries",
            Severity.OK,
            f"All {len(opened)} CUDA libraries the build opens for CUDA {libs.cuda_major} / "
            f"cuDNN {libs.cudnn_major} are found",
            detail,
        )
        return
    tf = facts.tensorflow
    listed = [d.name for d in tf.devices if d.device_type == "GPU"] if tf is not None else []
    if tf is not None and tf.status == TFStatus.OK and listed:
        # Observed beats inferred: TensorFlow registered the GPU, so whatever the search
        # missed was found by the loader after all, or is not needed for it.
        yield Finding(
            "cuda.libraries",
            Severity.INFO,
            f"The library search found no {', '.join(missing)}, yet TensorFlow lists "
            f"{len(listed)} GPU(s) ({', '.join(listed)}): it loaded what it needs",
            detail,
        )
        return
    if not has_gpu:
        yield Finding(
            "cuda.libraries",
            Severity.INFO,
            f"CUDA libraries not installed ({', '.join(missing)}); not needed without a GPU",
            detail,
        )
        return
    cause, remedy = causes.gpu.cuda_libraries_fix(ctx.machine, missing)
    found = [f for f in libs.elsewhere if f.name in missing]
    if found:
        detail += "\nfound off the loader's path:\n" + "\n".join(
            f"{f.name} {f.version or ''} {f.path} ({f.place})".replace("  ", " ") for f in found
        )
    yield causes.finding(
        "cuda.libraries",
        Severity.ERROR,
        cause,
        f"Missing CUDA libraries TensorFlow needs: {', '.join(missing)}",
        detail,
        remedy,
    )


def check_cuda_shadowed(ctx: CheckContext) -> Iterator[Finding]:
    """A library found earlier in the search order hides the pip wheel's, of another version."""
    facts = ctx.facts
    libs = facts.cuda_libs
    if libs is None:
        return
    for lib in libs.libraries:
        if lib.selected is None:
            continue
        chosen = lib.candidates[lib.selected]
        if chosen.origin == "pip":
            continue
        pip = next((c for c in lib.candidates if c.origin == "pip"), None)
        if pip is None or (pip.version and chosen.version and pip.version == chosen.version):
            continue
        directory = str(PurePath(chosen.path).parent)
        remedy = causes.gpu.shadow_fix(ctx.machine, lib, pip)
        yield causes.finding(
            "cuda.shadowed",
            Severity.WARNING,
            causes.gpu.CUDNN_SHADOWED if lib.name == "cudnn" else causes.gpu.CUDA_LIB_SHADOWED,
            f"{lib.name} {chosen.version or '(unknown version)'} from {directory} "
            f"({chosen.origin}) shadows the pip wheel's {pip.version or '(unknown version)'}",
            "The dynamic loader searches LD_LIBRARY_PATH before the pip wheels' directories "
            "(TensorFlow's RUNPATH), then the ldconfig cache: the first match is the one "
            f"TensorFlow gets.\nloaded: {chosen.path}\nshadowed: {pip.path}",
            remedy,
        )
