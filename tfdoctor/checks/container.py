"""Checks for containers: a GPU-less build step is not a broken GPU; ``--require-gpu`` gates.

At ``docker build`` time no container has a GPU; at ``docker run --gpus all`` time it must.
:func:`check_gpu_absent` tells the first apart from a broken driver; :func:`check_gpu_required`
turns "no usable GPU" into an error that names the cause, for an entrypoint to fail on.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import (
    CheckContext,
    fix,
    installed_tf,
    pip_command,
)
from tfdoctor.compat import DriverFloor, driver_floor
from tfdoctor.facts import DriverFacts, Facts, PlatformFacts
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key

TOOLKIT_INSTALL = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)
TOOLKIT_CDI = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html"
)
KUBERNETES_GPUS = "https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/"

# Driver failure reasons that, without device nodes, mean "no GPU was handed to this process"
# rather than "a GPU is there and its driver fails" (probes/nvidia.py REASONS).
_ABSENT_REASONS = (None, "library-not-found", "driver-not-loaded", "no-gpu")

# What TensorFlow logs when the driver is older than its CUDA build: CUresult 803
# CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, cudaErrorInsufficientDriver (35, "CUDA driver version is
# insufficient for CUDA runtime version"), CUresult 222 CUDA_ERROR_UNSUPPORTED_PTX_VERSION
# (CUDA Driver API / Runtime API reference, error enumerations).
_OLD_DRIVER_LOG = re.compile(
    r"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH|driver version is insufficient"
    r"|CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
    re.IGNORECASE,
)
# What TensorFlow logs or raises when a CUDA library does not load (tsl/platform/default/
# dso_loader.cc: "Could not load dynamic library"; gpu_device.cc: "Cannot dlopen some GPU
# libraries").
_DLOPEN_LOG = re.compile(
    r"Could not load dynamic library|Cannot dlopen|cannot open shared object file",
    re.IGNORECASE,
)
# NVIDIA_VISIBLE_DEVICES values for which the container toolkit hands over no GPU (container
# toolkit docs, "Specialized Configurations with Docker": void, none, empty).
_NO_DEVICES_VALUES = ("", "void", "none")


def _where(plat: PlatformFacts) -> str:
    if plat.container == "buildkit":
        return "this BuildKit build step"
    if plat.container == "kubernetes":
        return "this Kubernetes pod"
    return f"this {plat.container} container" if plat.container else "this machine"


def _no_gpu_handed_over(drv: DriverFacts, plat: PlatformFacts) -> bool:
    """No GPU reached this process, as opposed to a GPU whose driver fails."""
    if drv.gpus:
        return False
    reason = drv.error.reason if drv.error is not None else None
    if reason not in _ABSENT_REASONS:
        return False
    if not plat.nvidia_device_nodes:
        return True
    # Device nodes in a container without the driver's libraries (or with none of its GPUs):
    # devices passed in by hand, not through the toolkit. On a host, nodes mean a GPU whose
    # driver fails (driver.nvidia's error).
    return plat.container is not None and reason in ("library-not-found", "no-gpu")


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


def check_gpu_absent(ctx: CheckContext) -> Iterator[Finding]:
    """In a container without GPU access (every build step), no GPU is expected, not broken."""
    facts = ctx.facts
    plat, drv = facts.platform, facts.driver
    # Without the platform or driver facts, doctor.probes and driver.nvidia already say so;
    # with --require-gpu, gpu.required judges the same facts as an error.
    if ctx.require_gpu or plat is None or drv is None or plat.container is None:
        return
    if plat.nvidia_device_nodes or not _no_gpu_handed_over(drv, plat):
        return
    if _gpu_image_run(ctx):
        tf = facts.tensorflow
        # --static is how build steps check (docker/Dockerfile.gpu): a note there, a warning
        # when the container runs.
        static = tf is not None and tf.status == "skipped"
        yield causes.finding(
            "gpu.absent",
            Severity.INFO if static else Severity.WARNING,
            "container-no-gpu",
            f"No GPU was handed to {_where(plat)}, which runs a CUDA build of TensorFlow",
            "No /dev/nvidia* device nodes and no NVIDIA driver, while the image is a GPU "
            "image (a CUDA build of TensorFlow, the CUDA base image's variables or libraries). "
            "Outside a build step this is a container started without GPU access.",
            causes.container_gpu_fix(ctx.machine),
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


# --- --require-gpu ------------------------------------------------------------------------------


def _required(summary: str, detail: str = "", remedy: Optional[Fix] = None) -> Finding:
    return Finding("gpu.required", Severity.ERROR, summary, detail, remedy)


def _no_access(facts: Facts, plat: PlatformFacts, drv: DriverFacts) -> Finding:
    """A container (or machine) that was handed no GPU."""
    lines = []
    if drv.error is not None:
        lines.append(drv.error.message)
    if plat.nvidia_device_nodes:
        lines.append(
            f"Device nodes present ({', '.join(plat.nvidia_device_nodes)}) but the driver "
            "lists no GPU: devices passed in without the driver libraries, or none selected."
        )
    else:
        lines.append("No /dev/nvidia* device nodes.")
    visible = (facts.environment or {}).get("NVIDIA_VISIBLE_DEVICES")
    if visible is not None and visible.strip().lower() in _NO_DEVICES_VALUES:
        lines.append(f"NVIDIA_VISIBLE_DEVICES={visible!r} asks the container toolkit for no GPU.")
    if plat.container is None:
        return Finding(
            "gpu.required",
            Severity.ERROR,
            "A GPU is required, but this machine has no NVIDIA GPU or driver",
            "\n".join(lines),
            fix(
                "Run on a machine with an NVIDIA GPU and its driver installed.",
                "nvidia-smi",
            ),
            ("https://www.nvidia.com/en-us/drivers/",),
        )
    return Finding(
        "gpu.required",
        Severity.ERROR,
        f"A GPU is required, but {_where(plat)} was started without GPU access",
        "\n".join(lines),
        fix(
            "Start the container with GPU access; the host needs the NVIDIA driver and the "
            "NVIDIA Container Toolkit. Kubernetes: request `nvidia.com/gpu: 1` under "
            "resources.limits (NVIDIA device plugin).",
            "docker run --gpus all IMAGE",
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
            "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
            "podman run --device nvidia.com/gpu=all IMAGE",
        ),
        (TOOLKIT_INSTALL, TOOLKIT_CDI, KUBERNETES_GPUS),
    )


def _driver_broken(drv: DriverFacts) -> Finding:
    err = drv.error
    detail = err.message + (f"\n{err.detail}" if err.detail else "") if err else ""
    reason = err.reason if err else "unknown"
    return _required(
        f"A GPU is required, but the NVIDIA driver does not work ({reason}; see driver.nvidia)",
        detail,
        fix("Fix the driver as driver.nvidia says; `nvidia-smi` must list the GPUs.", "nvidia-smi"),
    )


def _floor(ctx: CheckContext) -> Optional[tuple[str, DriverFloor]]:
    """The build's CUDA and the matrix's driver floor for it on this OS, if both are known."""
    m = ctx.machine
    line, cuda = m.line, m.build_cuda
    if m.matrix is None or line is None or m.os is None or cuda is None:
        return None
    if cuda != line.cuda:
        line = dataclasses.replace(line, cuda=cuda)
    floor = driver_floor(m.matrix, line, m.os)
    return (cuda, floor) if floor is not None else None


def _old_driver(ctx: CheckContext, drv: DriverFacts) -> Optional[Finding]:
    """The driver is older than the image's CUDA build needs (matrix floor, or TF's log)."""
    tf = ctx.facts.tensorflow
    log = "\n".join(tf.log_errors) if tf is not None else ""
    found = _floor(ctx)
    have = drv.driver_version
    if found is not None and have:
        cuda, floor = found
        if version_key(have) < version_key(floor.version):
            return _required(
                f"A GPU is required, but the host's driver {have} is too old for this image's "
                f"CUDA {cuda} build (needs >= {floor.version})",
                f"Rule: {floor.rule}. The driver comes from the host, not the image: upgrade "
                "it on the host, or build the image with a TensorFlow whose CUDA this driver "
                "runs (see driver.cuda).",
                fix(
                    f"Install NVIDIA driver {floor.version} or newer on the host.",
                    "nvidia-smi",
                ),
            )
    if _OLD_DRIVER_LOG.search(log):
        driver = f"driver {have}" if have else "driver"
        return _required(
            f"A GPU is required, but the host's {driver} is too old for this image's CUDA build",
            log,
            fix("Install a newer NVIDIA driver on the host (see driver.cuda).", "nvidia-smi"),
        )
    return None


def _unloadable_libraries(facts: Facts) -> Optional[str]:
    """What keeps TensorFlow from loading its CUDA libraries, when something does."""
    libs = facts.cuda_libs
    missing = list(Machine(facts, None).missing_libraries) if libs is not None else []
    if missing:
        return "missing: " + ", ".join(missing)
    tf = facts.tensorflow
    if tf is None:
        return None
    texts = [*tf.log_errors, tf.error_message or ""]
    hits = [t for t in texts if _DLOPEN_LOG.search(t)]
    return "\n".join(hits) if hits else None


def check_gpu_required(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--require-gpu``: a GPU TensorFlow can use, or an error naming why there is none."""
    if not ctx.require_gpu:
        return
    facts = ctx.facts
    drv, plat, tf = facts.driver, facts.platform, facts.tensorflow
    if drv is None or plat is None:
        # A gate must not open on facts it does not have.
        yield _required(
            "A GPU is required, but whether one is usable could not be determined",
            "The driver or platform probe produced no facts (see doctor.probe-failed).",
            fix("Read why the probe failed in the full report.", "tfdoctor check --verbose"),
        )
        return
    if not drv.gpus:
        yield (
            _no_access(facts, plat, drv) if _no_gpu_handed_over(drv, plat) else _driver_broken(drv)
        )
        return
    pkg = installed_tf(facts)
    if pkg is None:
        yield _required(
            "A GPU is required, but TensorFlow is not installed",
            remedy=fix(
                "Install TensorFlow with its CUDA libraries.",
                pip_command(facts, 'install "tensorflow[and-cuda]"'),
            ),
        )
        return
    if ctx.machine.cpu_only_distribution:
        yield causes.finding(
            "gpu.required",
            Severity.ERROR,
            "tf-cpu-only-build",
            f"A GPU is required, but {pkg.name} {pkg.version} is a CPU-only build",
            "CPU builds never use CUDA GPUs.",
            causes.gpu_build_fix(ctx.machine),
        )
        return
    tf_gpus = [d.name for d in tf.devices if d.device_type == "GPU"] if tf is not None else []
    if tf_gpus:
        # What TensorFlow lists wins over any rule: a forward-compatible driver runs it.
        yield Finding(
            "gpu.required",
            Severity.OK,
            f"TensorFlow can use {len(tf_gpus)} GPU(s): {', '.join(tf_gpus)}",
        )
        return
    old = _old_driver(ctx, drv)
    if old is not None:
        yield old
        return
    unloadable = _unloadable_libraries(facts)
    if unloadable is not None:
        cause, remedy = causes.cuda_libraries_fix(ctx.machine, ctx.machine.missing_libraries)
        yield causes.finding(
            "gpu.required",
            Severity.ERROR,
            cause,
            "A GPU is required, but TensorFlow cannot load its CUDA libraries",
            unloadable,
            remedy,
        )
        return
    if tf is None or tf.status not in ("ok", "skipped"):
        status = tf.status if tf is not None else "no facts"
        yield _required(
            f"A GPU is required, but TensorFlow did not import ({status}; see tensorflow.import)",
            (tf.error_message or "") if tf is not None else "",
            fix("Fix the import as tensorflow.import says.", "tfdoctor check tensorflow.import"),
        )
        return
    names = ", ".join(g.name for g in drv.gpus)
    if tf.status == "skipped":
        yield Finding(
            "gpu.required",
            Severity.OK,
            f"The driver lists {len(drv.gpus)} GPU(s) ({names}); TensorFlow was not imported "
            "(--static), so its use of them is not confirmed",
        )
        return
    yield _required(
        f"A GPU is required, but TensorFlow sees none of the {len(drv.gpus)} GPU(s) the driver "
        "lists (see gpu.visible)",
        "\n".join(tf.log_errors) or "TensorFlow logged no reason.",
        fix(
            "Check CUDA_VISIBLE_DEVICES and TensorFlow's log while it lists devices.",
            'TF_CPP_MIN_LOG_LEVEL=0 python -c "import tensorflow as tf; '
            "print(tf.config.list_physical_devices('GPU'))\"",
        ),
    )
