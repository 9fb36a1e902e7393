"""Checks on the GPUs: memory errors, whether TensorFlow sees them, code for each in the
wheel, a container without GPU access, and the ``--require-gpu`` gate.

At ``docker build`` time no container has a GPU; at ``docker run --gpus all`` time it must.
:func:`check_gpu_absent` tells the first apart from a broken driver; :func:`check_gpu_required`
turns "no usable GPU" into an error for an entrypoint to fail on, naming the worst finding of
the GPU checks (the registry's ``GPU_GATE``) as the reason, with that finding's cause and fix.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix, unknown
from tfdoctor.checks._shared import driver_cause, installed_line, no_gpu_here
from tfdoctor.compat import (
    NONE,
    PTX,
    below_listing_floor,
    gpu_code,
    ptx_driver_floor,
)
from tfdoctor.cuda_layout import cuda_knows, first_cuda_for
from tfdoctor.evidence import tflog
from tfdoctor.evidence.tflog import library_of
from tfdoctor.facts import DriverFacts, Facts, GpuFacts, PackageFacts, PlatformFacts, TFStatus
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import ComputeCapabilities, TFLine, version_key

# CUresult 34: the toolkit's stub libcuda (for linking only) loaded instead of the driver's;
# TensorFlow prints "UNKNOWN ERROR (34)" when the stub gives no name for it.
_CUDA_ERROR_STUB_LIBRARY = 34
# CUresult 100: the driver answered and enumerated no CUDA device.
_CUDA_ERROR_NO_DEVICE = 100
# CUresult 101 (CUDA_ERROR_INVALID_DEVICE): "the device ordinal supplied by the user does not
# correspond to a valid CUDA device" (cuda.h), one of cuInit's documented results (CUDA Driver
# API, "Initialization"); cuInit takes no device, so the user's is CUDA_VISIBLE_DEVICES's.
_CUDA_ERROR_INVALID_DEVICE = 101
# CUresult 46 (CUDA_ERROR_DEVICE_UNAVAILABLE): the GPU is in an exclusive or prohibited compute
# mode and another process holds it.
_CUDA_ERROR_DEVICE_UNAVAILABLE = 46
# CUresult 804 (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE): CUDA's forward-compatibility libcuda
# on a GPU that does not take it (cuda.h; NVIDIA's CUDA Compatibility guide).
_CUDA_ERROR_COMPAT_NOT_SUPPORTED = 804
#: cuInit probe statuses where libcuda itself failed: loaded and returned an error, could not
#: be loaded, or crashed the child (``timeout`` and ``child-error`` are the probe's own).
_CUINIT_FAILED = ("error", "no-library", "crashed")


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


def _stub_logged(m: Machine) -> bool:
    """TensorFlow's log shows cuInit answered by the toolkit's stub libcuda (34)."""
    return any(e.number == _CUDA_ERROR_STUB_LIBRARY for e in m.tf_logged(tflog.CudaError))


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
    # A GPU's UUID as nvidia-smi -L prints it, or its first digits (the CUDA C++ Programming
    # Guide, "CUDA Environment Variables"): one no GPU here has is invalid, and the GPUs after
    # it are hidden as well. MIG- names are the MIG devices', which the facts do not list.
    uuids = [g.uuid.lower() for g in drv.gpus if g.uuid] if drv else []
    every_uuid = drv is not None and bool(uuids) and len(uuids) == len(drv.gpus)
    named = any(u.startswith(first.lower()) for u in uuids)
    if first.upper().startswith("GPU-") and every_uuid and not named:
        return value
    return None


def _names_a_gpu_here(facts: Facts) -> bool:
    """CUDA_VISIBLE_DEVICES's first entry names a GPU the driver lists (its index, or its
    UUID or a prefix of it): CUDA keeps that GPU, so the variable hides none of them."""
    drv = facts.driver
    value = (facts.environment or {}).get("CUDA_VISIBLE_DEVICES")
    if value is None or drv is None or not drv.gpus:
        return False
    first = value.strip().split(",")[0].strip().lower()
    if first.isdigit():
        return int(first) < len(drv.gpus)
    return first.startswith("gpu-") and any(
        g.uuid is not None and g.uuid.lower().startswith(first) for g in drv.gpus
    )


def _driver_side_finding(ctx: CheckContext, count: int, log: str) -> Optional[Finding]:
    """cuInit failing on the driver's side while the driver lists GPUs: the CUDA toolkit's
    stub libcuda answering for the driver's (cuInit's code 34, a ``/stubs/`` library, or
    TensorFlow's log), a driver older than the build's CUDA (code 35, or the log), or WSL 2's
    libraries from Windows not answering."""
    m, cuinit = ctx.machine, ctx.facts.cuinit
    stub = cuinit is not None and (
        cuinit.code == _CUDA_ERROR_STUB_LIBRARY or "/stubs/" in (cuinit.library or "")
    )
    if stub or _stub_logged(m):
        library = cuinit.library if cuinit is not None else None
        return causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.gpu.LIBCUDA_STUB,
            f"TensorFlow sees none of the {count} GPU(s): the CUDA toolkit's stub libcuda "
            "loads instead of the driver's" + (f" ({library})" if library else ""),
            log or "cuInit returns CUDA_ERROR_STUB_LIBRARY (34).",
            causes.gpu.libcuda_stub_fix(m, library, has_gpus=True),
        )
    if _cuinit_failed_with(ctx, _CUDA_ERROR_DEVICE_UNAVAILABLE):
        return causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.runtime.GPU_BUSY_OR_UNAVAILABLE,
            f"TensorFlow sees none of the {count} GPU(s): CUDA refuses them to this process "
            "(another holds them in an exclusive compute mode)",
            log or "cuInit returns CUDA_ERROR_DEVICE_UNAVAILABLE (46).",
            causes.runtime.gpu_busy_fix(m),
        )
    compat = _compat_library(ctx)
    if compat is not None:
        return causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.gpu.DRIVER_VERSION_MISMATCH,
            f"TensorFlow sees none of the {count} GPU(s): CUDA's forward-compatibility libcuda "
            "loads on a GPU that does not accept it",
            log or "cuInit returns CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804).",
            causes.gpu.compat_libcuda_fix(compat),
        )
    if (cuinit is not None and cuinit.code == 35) or _old_driver_logged(m):
        floor = causes.gpu.build_driver_floor(m)
        return causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.gpu.DRIVER_TOO_OLD,
            f"TensorFlow sees none of the {count} GPU(s): the driver is too old for its CUDA build",
            log,
            causes.gpu.driver_too_old_fix(m, floor.version if floor else None),
        )
    wsl = _wsl_driver_finding(ctx, count, log)
    if wsl is not None:
        return wsl
    if (
        m.wsl == "WSL2"
        and m.container
        and cuinit is not None
        and cuinit.status == "error"
        and (cuinit.library or "").startswith(causes.platform.WSL_LIB_DIR)
    ):
        # A container under WSL 2 handed the GPU (the toolkit mounted WSL's libcuda into it)
        # whose cuInit still fails: the Windows driver's side, and the engine's, not the flag.
        return causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.platform.WSL_DRIVER_BROKEN,
            f"TensorFlow sees none of the {count} GPU(s): cuInit fails through WSL 2's libcuda "
            "in this container",
            log or f"cuInit returns {cuinit.name or cuinit.code}.",
            causes.platform.wsl_container_gpu_fix(),
        )
    if cuinit is not None and cuinit.status == "no-library" and not m.container and not m.wsl:
        # NVML answered (the module and libnvidia-ml are there) and libcuda.so.1 is not found:
        # the driver's user-space half installed.
        return causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.gpu.DRIVER_LIBRARIES_MISSING,
            f"TensorFlow sees none of the {count} GPU(s): the driver lists them, but its "
            "libcuda.so.1 is not found",
            log or (cuinit.message or ""),
            causes.gpu.driver_userspace_fix(m),
        )
    return None


def _cuinit_failed_with(ctx: CheckContext, number: int) -> bool:
    """cuInit failed with CUresult ``number``: in the probe's child, or in TensorFlow's log."""
    cuinit = ctx.facts.cuinit
    if cuinit is not None and cuinit.status == "error" and cuinit.code == number:
        return True
    return any(e.number == number for e in ctx.machine.tf_logged(tflog.CudaError))


def _compat_library(ctx: CheckContext) -> Optional[str]:
    """The forward-compatibility libcuda cuInit refused (804 from a ``/compat/`` library)
    where the driver itself runs the build (its version at or above the build's floor);
    None otherwise: below the floor the driver is what is too old."""
    cuinit, drv = ctx.facts.cuinit, ctx.facts.driver
    if cuinit is None or "/compat/" not in (cuinit.library or ""):
        return None
    if not _cuinit_failed_with(ctx, _CUDA_ERROR_COMPAT_NOT_SUPPORTED):
        return None
    floor = causes.gpu.build_driver_floor(ctx.machine)
    driver = drv.driver_version if drv is not None else None
    if floor is None or driver is None or version_key(driver) < version_key(floor.version):
        return None
    return cuinit.library


def _wsl_driver_finding(ctx: CheckContext, count: int, log: str) -> Optional[Finding]:
    """Under WSL 2 (outside a container), cuInit failing while nvidia-smi lists the GPUs: the
    Windows driver's libraries WSL mounts are not what answers (a Linux driver's libcuda
    installed inside the distribution loads first), or that driver is too old for WSL's GPU
    support. NVIDIA's CUDA on WSL guide: https://docs.nvidia.com/cuda/wsl-user-guide/"""
    m, cuinit = ctx.machine, ctx.facts.cuinit
    if not m.wsl2_host_driver or cuinit is None or cuinit.status == "ok":
        return None
    foreign = causes.platform.wsl_foreign_libcuda(m)
    if foreign is None and cuinit.status not in _CUINIT_FAILED:
        # A probe that did not run to an answer (timed out, its child failing) says nothing
        # of the driver: what else TensorFlow lacks (cuDNN) is read as on any machine.
        return None
    why = (
        f"a Linux driver's libcuda ({foreign}) loads in place of WSL's"
        if foreign is not None
        else f"cuInit fails ({cuinit.name or cuinit.status})"
    )
    return causes.finding(
        "gpu.visible",
        Severity.ERROR,
        causes.platform.WSL_DRIVER_BROKEN,
        f"TensorFlow sees none of the {count} GPU(s) under WSL 2: {why}",
        "\n".join(filter(None, (cuinit.message, log))),
        causes.platform.wsl_gpu_fix(m),
    )


def _mig_finding(ctx: CheckContext, gpus: Sequence[GpuFacts]) -> Optional[Finding]:
    """Every GPU in MIG mode and CUDA finding no device, outside a container (whose MIG
    devices are handed in by its runtime): no MIG device was created for CUDA to use. CUDA
    with no device to enumerate fails cuInit itself with CUDA_ERROR_NO_DEVICE (100), as
    TensorFlow's "failed call to cuInit: CUDA_ERROR_NO_DEVICE" under CUDA_VISIBLE_DEVICES=-1
    shows; a cuInit that succeeds and counts none says the same."""
    cuinit = ctx.facts.cuinit
    if ctx.machine.container or not gpus or not all(g.mig_mode for g in gpus) or cuinit is None:
        return None
    none_counted = cuinit.status == "ok" and cuinit.device_count == 0
    if not none_counted and cuinit.code != _CUDA_ERROR_NO_DEVICE:
        return None
    return causes.finding(
        "gpu.visible",
        Severity.ERROR,
        causes.gpu.MIG_NO_INSTANCES,
        f"TensorFlow sees none of the {len(gpus)} GPU(s): MIG mode is on and CUDA counts no "
        "MIG device",
        ("cuDeviceGetCount returns 0" if none_counted else "cuInit returns CUDA_ERROR_NO_DEVICE")
        + " while nvidia-smi lists the GPU(s) in MIG mode.",
        causes.gpu.mig_instances_fix(tuple(g.index for g in gpus)),
    )


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
            causes.gpu.visible_devices_fix(ctx.machine),
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
    if drv is not None and no_gpu_here(ctx):
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
        cause, remedy = driver_cause(ctx, reason)
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
    driver_side = _driver_side_finding(ctx, len(gpus), log)
    if driver_side is not None:
        yield driver_side
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
    yield _cuda_side_finding(ctx, gpus, log)


def _cuda_side_finding(ctx: CheckContext, gpus: Sequence[GpuFacts], log: str) -> Finding:
    """The driver lists GPUs and the libraries load, yet TensorFlow lists none: MIG mode
    without MIG devices, cuInit's unknown error, else no reason the evidence names."""
    mig = _mig_finding(ctx, gpus)
    if mig is not None:
        return mig
    cuinit = ctx.facts.cuinit
    if (cuinit is not None and cuinit.code == 999) or _unknown_error_logged(ctx.machine):
        return causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.gpu.CUINIT_UNKNOWN_ERROR,
            f"TensorFlow sees none of the {len(gpus)} GPU(s): cuInit fails with "
            "CUDA_ERROR_UNKNOWN (999)",
            log,
            causes.gpu.cuinit_unknown_fix(ctx.machine),
        )
    visible = (ctx.facts.environment or {}).get("CUDA_VISIBLE_DEVICES")
    # Read as the variable's only where it may hide the GPUs: one whose first entry names a
    # GPU listed here keeps that GPU, and cuInit's 101 is then named below, not laid on it.
    if (
        visible is not None
        and not _names_a_gpu_here(ctx.facts)
        and _cuinit_failed_with(ctx, _CUDA_ERROR_INVALID_DEVICE)
    ):
        return causes.finding(
            "gpu.visible",
            Severity.ERROR,
            causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN,
            f"TensorFlow sees none of the {len(gpus)} GPU(s): cuInit refuses the devices "
            f"CUDA_VISIBLE_DEVICES={visible!r} names (CUDA_ERROR_INVALID_DEVICE, 101)",
            log
            or "cuInit returns CUDA_ERROR_INVALID_DEVICE (101): a device the user supplied "
            "corresponds to no CUDA device.",
            causes.gpu.visible_devices_fix(ctx.machine),
        )
    # A cuInit result without a reading of its own is named as cuda.h names it, not hidden.
    failed = (
        f": cuInit fails with {cuinit.name or 'CUresult'} ({cuinit.code})"
        if cuinit is not None and cuinit.status == "error" and cuinit.code is not None
        else ""
    )
    return causes.finding(
        "gpu.visible",
        Severity.ERROR,
        causes.gpu.GPU_UNSEEN_NO_REASON,
        f"TensorFlow sees none of the {len(gpus)} GPU(s) the driver lists{failed}",
        log or "TensorFlow logged no reason; run with TF_CPP_MIN_LOG_LEVEL=0 to see more.",
        causes.gpu.read_device_log_fix(),
    )


#: NVIDIA's NGC TensorFlow container, built for current GPUs (its release notes list them).
_NGC_RUN = "docker run --gpus all -it --rm nvcr.io/nvidia/tensorflow:25.02-tf2-py3"


def _wheel_capabilities(ctx: CheckContext, line: Optional[TFLine]) -> Optional[ComputeCapabilities]:
    """The build's own GPU code (its objects, else its build info) when read, else the matrix's."""
    caps = ctx.machine.build_gpu_code
    if caps is not None:
        return caps
    return line.compute_capabilities if line is not None else None


def _gpu_fit_fix(
    machine: Machine, capability: str, text: str, native: bool = False
) -> Optional[Fix]:
    """Install the newest TensorFlow that fits this machine with a GPU of ``capability``;
    with ``native``, only a release with machine code for it (not PTX alone)."""
    line, install = causes.gpu.gpu_fit_install(machine, capability, native)
    if line is None:
        return None
    return fix(text.format(version=line.latest_patch), *install)


def _cuda_predates_gpu(ctx: CheckContext, pkg: PackageFacts, gpu: GpuFacts) -> Optional[Finding]:
    """A warning where the build's CUDA is older than the first CUDA that knows ``gpu``'s
    architecture; None where either is unknown or the CUDA knows it."""
    cuda = ctx.machine.build_cuda
    # A build against an older CUDA carries cuBLAS and cuDNN without kernels for the GPU: the
    # driver's PTX compiler runs TensorFlow's own kernels, but the libraries' calls fail
    # ('Blas GEMM launch failed', CUBLAS_STATUS_EXECUTION_FAILED). Which CUDA first knows each
    # architecture is the GPU data's (cuda.yaml), and whether the build's CUDA knows it is the
    # rule explain applies too (cuda_layout.cuda_knows: minor version compatibility).
    need = first_cuda_for(gpu.compute_capability or "")
    if cuda is None or need is None or cuda_knows(cuda, need):
        return None
    label = f"GPU {gpu.index} ({gpu.name}, compute capability {gpu.compute_capability})"
    return causes.finding(
        "gpu.compute-capability",
        Severity.WARNING,
        causes.gpu.CUDA_RELEASE_PREDATES_GPU,
        f"TensorFlow {pkg.version} is built with CUDA {cuda}, older than {label} (CUDA {need} "
        "is the first that supports it)",
        f"CUDA {cuda}'s libraries (cuBLAS, cuDNN) carry no kernels for compute capability "
        f"{gpu.compute_capability}: TensorFlow may list the GPU and compile its own kernels "
        "from PTX, but library calls fail ('Blas GEMM launch failed', "
        "CUBLAS_STATUS_EXECUTION_FAILED) or run without the GPU's own code.",
        # One fix for the cause, explain's too: the oldest line that fits this machine and
        # carries machine code for the GPU, the smallest move from the code's release.
        causes.gpu.cuda_predates_gpu_fix(
            ctx.machine, gpu.compute_capability or "", gpu.name, cuda, need
        ),
        ("https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/",),
    )


def _architectures_unknown(
    ctx: CheckContext, pkg: PackageFacts, gpus: Sequence[GpuFacts]
) -> Iterator[Finding]:
    """What the wheel carries is unknown (a release older than the matrix): the CUDA it was
    built with still tells a GPU newer than that CUDA; for the others, unknown."""
    predating = [
        finding for gpu in gpus if (finding := _cuda_predates_gpu(ctx, pkg, gpu)) is not None
    ]
    yield from predating
    if len(predating) < len(gpus):
        yield unknown("gpu.compute-capability", "which GPU architectures the wheel carries")


def _no_code_finding(
    ctx: CheckContext,
    pkg: PackageFacts,
    gpu: GpuFacts,
    caps: ComputeCapabilities,
    label: str,
) -> Finding:
    """The verdict on a GPU the build carries no code for: TensorFlow ignores it below the
    lowest capability the release lists (:func:`tfdoctor.compat.listing_floor`), and lists it
    above (where no kernel runs on it); unknown where TensorFlow listed a GPU the reading of
    the build says it ignores."""
    capability = gpu.compute_capability or ""
    ignored = below_listing_floor(caps, capability, pkg.version)
    if ignored and "tf-lists-every-gpu" in ctx.machine.observations:
        # TensorFlow lists no GPU below that floor: listing this one shows that the build was
        # misread here (a source build's own floor), not that its code is missing.
        return unknown("gpu.compute-capability", "which GPU architectures the wheel carries")
    carried = ", ".join(caps.sass + caps.ptx)
    return causes.finding(
        "gpu.compute-capability",
        Severity.ERROR,
        causes.gpu.GPU_ARCH_UNSUPPORTED,
        f"TensorFlow {pkg.version} has no code for {label}",
        f"The wheel carries {carried}. "
        + (
            "TensorFlow ignores this GPU ('Ignoring visible gpu device ... with Cuda compute "
            "capability')."
            if ignored
            # Machine code runs on its own major version at an equal or later minor only, and
            # PTX is compiled for its own capability or a newer one, never an older one (CUDA
            # C++ Programming Guide, binary compatibility): TensorFlow lists the GPU, and none
            # of the build's kernels runs there.
            else "TensorFlow lists this GPU all the same, but CUDA finds no code in it the GPU "
            "can run: machine code runs only on its own architecture and PTX compiles only for "
            "a GPU of its capability or newer, so every operation placed there fails ('no "
            "kernel image is available for execution on the device', 'device kernel image is "
            "invalid')."
        ),
        causes.gpu.gpu_arch_fix(ctx.machine, capability),
        (
            "https://developer.nvidia.com/cuda-gpus",
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility",
        ),
    )


def check_compute_capability(ctx: CheckContext) -> Iterator[Finding]:
    """Each GPU has machine code in the wheel, or at least PTX (with a long first start)."""
    facts, matrix = ctx.facts, ctx.matrix
    drv = facts.driver
    if matrix is None or drv is None or not drv.gpus:
        return
    pkg, line = installed_line(ctx)
    if pkg is None or ctx.machine.build_cuda is None:
        return
    caps = _wheel_capabilities(ctx, line)
    if caps is None:
        yield from _architectures_unknown(ctx, pkg, drv.gpus)
        return
    carried = ", ".join(caps.sass + caps.ptx)
    os_name = ctx.machine.os or "linux"
    cuda = ctx.machine.build_cuda
    build_line = (
        line
        if line is None or line.cuda == cuda or cuda is None
        else dataclasses.replace(line, cuda=cuda)
    )
    for gpu in drv.gpus:
        if not gpu.compute_capability:
            yield unknown("gpu.compute-capability", f"the compute capability of GPU {gpu.index}")
            continue
        code = gpu_code(caps, gpu.compute_capability)
        label = f"GPU {gpu.index} ({gpu.name}, compute capability {gpu.compute_capability})"
        failure = line.known_gpu_failures.get(gpu.compute_capability) if line else None
        if failure is not None:
            # A build that reaches this GPU only through PTX fails on the path that compiles
            # PTX at run time; another release on the same path is no fix, so only a release
            # with machine code for the GPU is offered.
            jit_only = code == PTX
            newer = _gpu_fit_fix(
                ctx.machine,
                gpu.compute_capability,
                "Install TensorFlow {version}, the newest not known to fail on this GPU; or "
                "use NVIDIA's NGC TensorFlow container, built for current GPUs.",
                native=jit_only,
            )
            if newer is not None:
                newer = Fix(newer.text, (*newer.commands, _NGC_RUN))
            none_native = (
                f"No TensorFlow release on PyPI carries machine code for compute capability "
                f"{gpu.compute_capability}, and the failure is on the path that compiles PTX "
                "at run time, which every release would take on this GPU. "
                if jit_only
                else ""
            )
            yield causes.finding(
                "gpu.compute-capability",
                Severity.ERROR,
                causes.gpu.GPU_KNOWN_FAILURE,
                f"TensorFlow {pkg.version} is known to fail on {label}",
                f"On this GPU its {failure}.",
                newer
                or fix(
                    none_native + "Use NVIDIA's NGC TensorFlow container (built for current "
                    "GPUs), or build TensorFlow from source for this GPU's compute capability.",
                    _NGC_RUN,
                ),
                ("https://github.com/tensorflow/tensorflow/issues/101746",),
            )
            continue
        if code == NONE:
            yield _no_code_finding(ctx, pkg, gpu, caps, label)
        elif code == PTX:
            ptx_floor = ptx_driver_floor(matrix, build_line, os_name) if build_line else None
            too_old = (
                ptx_floor is not None
                and drv.driver_version is not None
                and version_key(drv.driver_version) < version_key(ptx_floor.version)
            )
            detail = (
                f"The wheel carries {carried}: no machine code for this GPU. At first use the "
                "driver compiles every kernel from PTX, which takes minutes; the result is "
                "cached in ~/.nv/ComputeCache, so give the cache room."
            )
            if too_old and ptx_floor is not None:
                newest = _gpu_fit_fix(
                    ctx.machine,
                    gpu.compute_capability,
                    f"Install NVIDIA driver {ptx_floor.version} or newer, or TensorFlow "
                    "{version}, the newest this driver runs on this GPU.",
                )
                upgrade_text, upgrade = causes.gpu.driver_upgrade(ctx.machine, ptx_floor.version)
                commands = (*upgrade, *(newest.commands if newest else ()))
                yield causes.finding(
                    "gpu.compute-capability",
                    Severity.ERROR,
                    causes.gpu.GPU_PTX_DRIVER_TOO_OLD,
                    f"{label} runs TensorFlow {pkg.version} only through PTX JIT, which needs "
                    f"driver >= {ptx_floor.version}",
                    detail + f" {ptx_floor.rule}; this driver is {drv.driver_version}.",
                    fix(newest.text if newest else upgrade_text + ".", *commands),
                )
                continue
            refused = ctx.machine.gpu_code_refused
            if refused is not None:
                # The PTX did not carry it: CUDA itself said so (observed beats inferred).
                yield causes.finding(
                    "gpu.compute-capability",
                    Severity.ERROR,
                    causes.gpu.GPU_ARCH_UNSUPPORTED,
                    f"TensorFlow {pkg.version} has no code {label} can run",
                    f"The wheel carries {carried}: no machine code for this GPU, and CUDA did "
                    f"not run it from the PTX either. TensorFlow said: {refused}",
                    causes.gpu.gpu_arch_fix(ctx.machine, gpu.compute_capability),
                    ("https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html",),
                )
                continue
            first = causes.gpu.first_line_with_code(ctx.machine, gpu.compute_capability)
            better = (
                f" TensorFlow {first.line} and later carry machine code for this GPU."
                if first is not None
                else ""
            )
            yield causes.finding(
                "gpu.compute-capability",
                Severity.WARNING,
                causes.gpu.GPU_PTX_JIT,
                f"{label} runs TensorFlow {pkg.version} only through PTX JIT",
                detail + better,
                causes.gpu.ptx_jit_fix(ctx.machine, gpu.compute_capability),
            )
        else:
            yield Finding(
                "gpu.compute-capability",
                Severity.OK,
                f"TensorFlow {pkg.version} has machine code for {label}",
            )


TOOLKIT_INSTALL = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)


TOOLKIT_CDI = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html"
)


KUBERNETES_GPUS = "https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/"


# NVIDIA_VISIBLE_DEVICES values for which the container toolkit hands over no GPU (container
# toolkit docs, "Specialized Configurations with Docker": void, none, empty).
_NO_DEVICES_VALUES = ("", "void", "none")


def _where(plat: PlatformFacts) -> str:
    if plat.container == "buildkit":
        return "this BuildKit build step"
    if plat.container == "kubernetes":
        return "this Kubernetes pod"
    return f"this {plat.container} container" if plat.container else "this machine"


def _gpu_image_run(ctx: CheckContext) -> bool:
    """A container at run time (not a BuildKit step) of an image built to use a GPU."""
    m = ctx.machine
    if m.container in (None, "buildkit"):
        return False
    env = ctx.facts.environment or {}
    wants = env.get("NVIDIA_VISIBLE_DEVICES", "").strip().lower() not in _NO_DEVICES_VALUES
    cuinit = ctx.facts.cuinit
    cuda_image = cuinit is not None and cuinit.library is not None and "/compat/" in cuinit.library
    tf = ctx.facts.tensorflow
    cuda_build = m.build_cuda is not None or (tf is not None and bool(tf.is_cuda_build))
    # NVIDIA's CUDA images put the toolkit's driver mount point on the loader's path.
    nvidia_path = any(p.startswith("/usr/local/nvidia/lib") for p in m.ld_library_path)
    return cuda_build and (wants or cuda_image or nvidia_path or m.pci_gpus > 0)


def _no_access_evidence(facts: Facts, drv: DriverFacts) -> str:
    """What shows that no GPU was handed over: the driver's error, NVIDIA_VISIBLE_DEVICES."""
    lines = ["No /dev/nvidia* device nodes and no NVIDIA driver."]
    if drv.error is not None:
        lines.append(drv.error.message)
    visible = (facts.environment or {}).get("NVIDIA_VISIBLE_DEVICES")
    if visible is not None and visible.strip().lower() in _NO_DEVICES_VALUES:
        lines.append(f"NVIDIA_VISIBLE_DEVICES={visible!r} asks the container toolkit for no GPU.")
    return "\n".join(lines)


def check_gpu_absent(ctx: CheckContext) -> Iterator[Finding]:
    """In a container without GPU access (every build step), no GPU is expected, not broken;
    where a GPU is wanted (a GPU image at run time, ``--require-gpu``) it is the cause."""
    facts = ctx.facts
    plat, drv = facts.platform, facts.driver
    # Without the platform or driver facts, doctor.probes and driver.nvidia already say so.
    if plat is None or drv is None or plat.container is None:
        return
    if plat.nvidia_device_nodes or ctx.machine.gpu_presence not in ("absent", "not-handed-over"):
        return
    image_run = _gpu_image_run(ctx)
    if image_run or ctx.require_gpu:
        tf = facts.tensorflow
        # --static is how build steps check (docker/Dockerfile.gpu): a note there, a warning
        # when the container runs or a GPU is required.
        static = tf is not None and tf.status == TFStatus.SKIPPED and not ctx.require_gpu
        if ctx.machine.no_nvidia_gpu_seen:
            # Observed: the PCI bus the container shares with its host holds no NVIDIA device,
            # so the host has no GPU to hand over: no container flag or toolkit gives one.
            yield Finding(
                "gpu.absent",
                Severity.INFO if static else Severity.WARNING,
                f"No GPU in {_where(plat)}: its host has no NVIDIA GPU",
                _no_access_evidence(facts, drv)
                + "\nThe PCI bus the container shares with its host holds no NVIDIA device, "
                "and no nvidia kernel module is loaded there.",
                causes.gpu.no_nvidia_gpu_fix(ctx.machine),
            )
            return
        summary = f"No GPU was handed to {_where(plat)}"
        if image_run:
            summary += ", which runs a CUDA build of TensorFlow"
        yield causes.finding(
            "gpu.absent",
            Severity.INFO if static else Severity.WARNING,
            causes.container.CONTAINER_NO_GPU,
            summary,
            _no_access_evidence(facts, drv)
            + (
                " The image is a GPU image (a CUDA build of TensorFlow, the CUDA base image's "
                "variables or libraries); outside a build step this is a container started "
                "without GPU access."
                if image_run
                else " The container was started without GPU access."
            ),
            causes.container.container_gpu_fix(ctx.machine),
        )
        return
    yield Finding(
        "gpu.absent",
        Severity.INFO,
        f"No GPU visible in {_where(plat)} (expected at build time)",
        "No /dev/nvidia* device nodes and no NVIDIA driver: the container was given no GPU, "
        "as no `docker build` step is. At container start, `tfdoctor check --require-gpu` "
        "fails when a GPU is needed but missing.",
    )


# Causes repaired on the host, not in the image: a container runs on the host's kernel module
# and driver, which the NVIDIA Container Toolkit mounts in (its install guide: "the NVIDIA
# driver ... on the host"); the image cannot change them.
_HOST_CAUSES = (
    causes.gpu.DRIVER_TOO_OLD,
    causes.gpu.DRIVER_VERSION_MISMATCH,
    causes.gpu.DRIVER_NOT_LOADED,
    causes.gpu.DRIVER_NO_PERMISSION,
    causes.gpu.CUINIT_UNKNOWN_ERROR,
)


#: Causes that mean TensorFlow cannot use a GPU here, whatever their severity in the report.
_NO_GPU_BUILD_CAUSES = frozenset(
    {causes.gpu.TF_CPU_ONLY_BUILD, causes.platform.WINDOWS_NATIVE_GPU_ENDED}
)


def _worst(findings: Sequence[Finding]) -> Optional[Finding]:
    """The most severe finding above ``ok``; among equals the one naming a cause, then the
    first (the gate's checks come causes before symptoms)."""
    ranked = [
        (-x.severity.rank, not x.cause, i, x)
        for i, x in enumerate(findings)
        if x.severity is not Severity.OK
    ]
    return min(ranked)[3] if ranked else None


def _container_note(m: Machine, cause: str) -> Optional[Fix]:
    """What to add, in a container, to a fix that is done outside the image."""
    if m.container in (None, "buildkit"):
        return None
    if cause in _HOST_CAUSES:
        return Fix("This container uses the host's NVIDIA driver: do this on the host.")
    return None  # container-no-gpu: the cause's own fix names the runtime's way


def _blocked(ctx: CheckContext, worst: Optional[Finding]) -> Finding:
    """The gate's error: the worst GPU finding, raised to an error, with its cause and fix."""
    if worst is None:
        return Finding(
            "gpu.required",
            Severity.ERROR,
            "A GPU is required, but TensorFlow lists none and no GPU check says why",
            "\n".join(ctx.facts.tensorflow.log_errors) if ctx.facts.tensorflow else "",
            Fix("Read TensorFlow's log while it lists devices.", (causes.gpu.DEVICE_LOG_COMMAND,)),
        )
    remedy = worst.fix or Fix(
        f"TensorFlow needs a GPU the NVIDIA driver lists (`nvidia-smi`); {worst.id} above says "
        "what stands in the way.",
        ("nvidia-smi",),
    )
    links = worst.links
    note = _container_note(ctx.machine, worst.cause)
    if note is not None:
        remedy = Fix(f"{remedy.text} {note.text}", (*remedy.commands, *note.commands))
        kind = ctx.machine.container
        links += (TOOLKIT_CDI,) if kind == "podman" else (TOOLKIT_INSTALL,)
    if worst.cause == causes.container.CONTAINER_NO_GPU and ctx.machine.container == "kubernetes":
        links += (KUBERNETES_GPUS,)
    return Finding(
        "gpu.required",
        Severity.ERROR,
        f"A GPU is required, but TensorFlow cannot use one: {worst.summary} (see {worst.id})",
        worst.detail,
        remedy,
        tuple(dict.fromkeys(links)),
        cause=worst.cause,
    )


def check_gpu_required(ctx: CheckContext, gate: Sequence[Finding]) -> Iterator[Finding]:
    """With ``--require-gpu``: a GPU TensorFlow can use, or an error naming the worst of
    ``gate``, the findings of the GPU checks on the same facts, as the reason there is none."""
    if not ctx.require_gpu:
        return
    tf, drv = ctx.facts.tensorflow, ctx.facts.driver
    tf_gpus = [d.name for d in tf.devices if d.device_type == "GPU"] if tf is not None else []
    if tf is not None and tf.status == TFStatus.OK and tf_gpus:
        # What TensorFlow lists wins over any rule: a forward-compatible driver runs it.
        yield Finding(
            "gpu.required",
            Severity.OK,
            f"TensorFlow can use {len(tf_gpus)} GPU(s): {', '.join(tf_gpus)}",
        )
        return
    worst = _worst(gate)
    metal = next((x for x in gate if x.id == "platform.metal" and x.cause), None)
    # A Mac's GPU is Apple's, reached through tensorflow-metal alone: what the plugin check
    # found says why there is none (short of an error), not an NVIDIA driver no Mac has.
    if (
        ctx.machine.os == "macos"
        and metal is not None
        and (worst is None or worst.severity is not Severity.ERROR)
    ):
        worst = metal
    listed = drv.gpus if drv is not None else ()
    static = tf is not None and tf.status == TFStatus.SKIPPED
    # Without importing TensorFlow only an error of the GPU checks shows that it cannot use
    # the GPUs the driver lists (a warning such as PTX JIT leaves them usable).
    unconfirmed = static and bool(listed) and ctx.machine.tf is not None
    # A CPU-only build never uses a GPU, whatever the import would show.
    decisive = worst is not None and (
        worst.severity is Severity.ERROR or worst.cause in _NO_GPU_BUILD_CAUSES
    )
    if unconfirmed and not decisive:
        names = ", ".join(g.name for g in listed)
        yield Finding(
            "gpu.required",
            Severity.OK,
            f"The driver lists {len(listed)} GPU(s) ({names}); TensorFlow was not imported "
            "(--static), so its use of them is not confirmed",
        )
        return
    yield _blocked(ctx, worst)
