"""Checks on the NVIDIA driver, GPU visibility and the CUDA libraries TensorFlow loads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePath
from typing import Optional

from tfdoctor.checks._context import (
    CheckContext,
    cuda_wheels_fix,
    fix,
    installed_tf,
    pip_command,
    unknown,
)
from tfdoctor.facts import CudaLibsFacts, DriverFacts, Facts, LibraryFacts
from tfdoctor.findings import Finding, Fix, Severity

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


def _no_gpu_here(driver: DriverFacts, device_nodes: tuple[str, ...]) -> bool:
    """No NVIDIA GPU is present: no driver library and no device nodes, or zero GPUs."""
    if driver.gpus:
        return False
    if driver.error is None:
        return True
    reason = driver.error.reason
    return reason == "no-gpu" or (
        reason in ("library-not-found", "driver-not-loaded") and not device_nodes
    )


def check_driver(ctx: CheckContext) -> Iterator[Finding]:
    """The NVIDIA driver loads and lists its GPUs; when not, the exact reason and fix."""
    facts = ctx.facts
    drv = facts.driver
    if drv is None:
        yield unknown("driver.nvidia", "the NVIDIA driver", facts.error_for("driver"))
        return
    nodes = facts.platform.nvidia_device_nodes if facts.platform else ()
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
    if _no_gpu_here(drv, nodes):
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
    summary, remedy = _DRIVER_REASONS[err.reason]
    links = (_NVIDIA_CONTAINER_DOCS,) if err.reason == "library-not-found" else ()
    yield Finding(
        "driver.nvidia",
        Severity.ERROR,
        summary,
        err.message + ("\n" + err.detail if err.detail else ""),
        remedy,
        links,
    )


def check_ecc(ctx: CheckContext) -> Iterator[Finding]:
    """Uncorrected ECC errors mean a GPU returned corrupted memory since the driver loaded."""
    drv = ctx.facts.driver
    if drv is None:
        return
    for gpu in drv.gpus:
        if gpu.ecc_uncorrected:
            yield Finding(
                "gpu.ecc",
                Severity.WARNING,
                f"GPU {gpu.index} ({gpu.name}) reports {gpu.ecc_uncorrected} uncorrected ECC "
                "errors",
                "Uncorrectable memory errors corrupt results and crash kernels; pages are "
                "retired on the next driver reload.",
                fix(
                    "Read the details, reset the GPU when it is idle, and have the card checked "
                    "if the count grows.",
                    f"nvidia-smi -q -d ECC,PAGE_RETIREMENT -i {gpu.index}",
                    f"sudo nvidia-smi -r -i {gpu.index}",
                ),
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


_INSTALL_CUDA_WHEELS = (
    "Install the CUDA and cuDNN libraries this TensorFlow was built for, as pip wheels."
)


def check_gpu_visible(ctx: CheckContext) -> Iterator[Finding]:
    """TensorFlow lists the machine's GPUs; when it does not, the reason."""
    facts = ctx.facts
    tf, drv = facts.tensorflow, facts.driver
    gpus = drv.gpus if drv else ()
    if tf is None or tf.status == "skipped":
        if gpus:
            yield Finding(
                "gpu.visible",
                Severity.INFO,
                f"{len(gpus)} NVIDIA GPU(s) present; whether TensorFlow uses them was not checked "
                "(--static)",
            )
        return
    if tf.status != "ok":
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
        yield Finding(
            "gpu.visible",
            Severity.WARNING,
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
            pkg = installed_tf(facts)
            name = pkg.name if pkg else "tensorflow"
            yield Finding(
                "gpu.visible",
                Severity.WARNING,
                f"This TensorFlow ({name} {tf.version}) is a CPU-only build, but the machine "
                f"has {len(gpus)} NVIDIA GPU(s)",
                "CPU builds (tensorflow-cpu, and the native Windows and macOS wheels) never "
                "use CUDA GPUs.",
                fix(
                    "On Linux or WSL 2, install the CUDA build instead.",
                    pip_command(facts, f"uninstall -y {name}"),
                    pip_command(facts, 'install "tensorflow[and-cuda]"'),
                ),
                ("https://www.tensorflow.org/install/pip",),
            )
        else:
            yield Finding(
                "gpu.visible", Severity.OK, "CPU-only TensorFlow on a machine without GPUs"
            )
        return
    nodes = facts.platform.nvidia_device_nodes if facts.platform else ()
    if drv is not None and _no_gpu_here(drv, nodes):
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
        remedy = (
            _DRIVER_REASONS[reason][1]
            if reason in _DRIVER_REASONS
            else fix(
                "Make `nvidia-smi` list the GPUs first; TensorFlow sees no more than the driver.",
                "nvidia-smi",
            )
        )
        yield Finding(
            "gpu.visible",
            Severity.ERROR,
            "TensorFlow sees no GPU: the NVIDIA driver is not working (see driver.nvidia)",
            "\n".join(tf.log_errors),
            remedy,
        )
        return
    missing = _missing_libraries(facts.cuda_libs)
    log = "\n".join(tf.log_errors)
    if missing or "dlopen" in log or "Could not load dynamic library" in log:
        what = ", ".join(missing) if missing else "some CUDA libraries"
        yield Finding(
            "gpu.visible",
            Severity.ERROR,
            f"TensorFlow sees none of the {len(gpus)} GPU(s): it cannot load {what}",
            log,
            cuda_wheels_fix(facts, _INSTALL_CUDA_WHEELS),
        )
        return
    yield Finding(
        "gpu.visible",
        Severity.ERROR,
        f"TensorFlow sees none of the {len(gpus)} GPU(s) the driver lists",
        log or "TensorFlow logged no reason; run with TF_CPP_MIN_LOG_LEVEL=0 to see more.",
        fix(
            "Read TensorFlow's log while it lists devices.",
            'TF_CPP_MIN_LOG_LEVEL=0 python -c "import tensorflow as tf; '
            "print(tf.config.list_physical_devices('GPU'))\"",
        ),
    )


def _missing_libraries(libs: Optional[CudaLibsFacts]) -> list[str]:
    """Names of the libraries (other than the driver's libcuda) no candidate satisfies."""
    if libs is None:
        return []
    return [lib.name for lib in libs.libraries if lib.selected is None and lib.name != "cuda"]


def _describe(lib: LibraryFacts) -> str:
    if lib.selected is None:
        return f"{lib.name}: not found"
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
    if _cuda_build(facts) is False:
        return
    if libs is None:
        yield unknown(
            "cuda.libraries", "which CUDA libraries would load", facts.error_for("cuda_libs")
        )
        return
    if libs.error is not None and not libs.libraries:
        yield unknown("cuda.libraries", "which CUDA libraries would load", libs.error)
        return
    missing = _missing_libraries(libs)
    detail = "\n".join(_describe(lib) for lib in libs.libraries)
    has_gpu = bool(drv and drv.gpus)
    if not missing:
        yield Finding(
            "cuda.libraries",
            Severity.OK,
            f"All {len(libs.libraries)} CUDA libraries for CUDA {libs.cuda_major} / cuDNN "
            f"{libs.cudnn_major} are found",
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
    yield Finding(
        "cuda.libraries",
        Severity.ERROR,
        f"Missing CUDA libraries TensorFlow needs: {', '.join(missing)}",
        detail,
        cuda_wheels_fix(facts, _INSTALL_CUDA_WHEELS),
        ("https://www.tensorflow.org/install/pip#linux",),
    )


def check_cuda_shadowed(ctx: CheckContext) -> Iterator[Finding]:
    """A library found earlier in the search order hides the pip wheel's, of another version."""
    facts = ctx.facts
    libs = facts.cuda_libs
    if libs is None:
        return
    env = facts.environment or {}
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
        commands: tuple[str, ...] = ()
        if chosen.origin == "LD_LIBRARY_PATH" and "LD_LIBRARY_PATH" in env:
            kept = [
                p for p in env["LD_LIBRARY_PATH"].split(":") if p and p.rstrip("/") != directory
            ]
            commands = (
                f"export LD_LIBRARY_PATH={':'.join(kept)}" if kept else "unset LD_LIBRARY_PATH",
            )
        yield Finding(
            "cuda.shadowed",
            Severity.WARNING,
            f"{lib.name} {chosen.version or '(unknown version)'} from {directory} "
            f"({chosen.origin}) shadows the pip wheel's {pip.version or '(unknown version)'}",
            "The dynamic loader searches LD_LIBRARY_PATH before the pip wheels' directories "
            "(TensorFlow's RUNPATH), then the ldconfig cache: the first match is the one "
            f"TensorFlow gets.\nloaded: {chosen.path}\nshadowed: {pip.path}",
            fix(
                f"Remove {directory} from the loader's path so the wheel's library loads.",
                *commands,
            ),
        )
