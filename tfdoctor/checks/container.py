"""Checks for containers: a GPU-less build step is not a broken GPU; ``--require-gpu`` gates.

At ``docker build`` time no container has a GPU; at ``docker run --gpus all`` time it must.
:func:`check_gpu_absent` tells the first apart from a broken driver; :func:`check_gpu_required`
turns "no usable GPU" into an error for an entrypoint to fail on, naming the worst finding of
the GPU checks (the registry's ``GPU_GATE``) as the reason, with that finding's cause and fix.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import DriverFacts, Facts, PlatformFacts, TFStatus
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine

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


# --- --require-gpu ------------------------------------------------------------------------------


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
            Fix(
                "Read TensorFlow's log while it lists devices.",
                (
                    'TF_CPP_MIN_LOG_LEVEL=0 python -c "import tensorflow as tf; '
                    "print(tf.config.list_physical_devices('GPU'))\"",
                ),
            ),
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
