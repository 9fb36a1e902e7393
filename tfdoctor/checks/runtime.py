"""Checks on how TensorFlow's runtime uses the GPUs: memory growth configured, and in effect."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Optional

from tfdoctor.causes.common import load_env, set_env
from tfdoctor.checks._context import CheckContext, fix, unknown
from tfdoctor.facts import Facts, GpuFacts, HeldGpu, TFStatus
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine

_GPU_GUIDE = "https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth"

#: Share of a GPU's memory already in use by others above which TF's default is a problem.
_BUSY_SHARE = 0.10


def _growth_fix(m: Machine) -> Fix:
    """Memory growth set before Python starts, in the machine's shells (``tfdoctor env``
    loaded, or the variable set by hand)."""
    return fix(
        "Let TensorFlow map GPU memory as it needs it: set the variable before Python starts, "
        "or call tfdoctor.configure_gpus() right after `import tensorflow`.",
        load_env(m),
        *set_env(m, ("TF_FORCE_GPU_ALLOW_GROWTH", "true")),
    )


def _gpus_in_use(facts: Facts) -> bool:
    """The machine has NVIDIA GPUs and TensorFlow either sees them or was not asked."""
    drv = facts.driver
    if drv is None or not drv.gpus:
        return False
    tf = facts.tensorflow
    if tf is None or tf.status == TFStatus.SKIPPED:
        return True
    if tf.status != TFStatus.OK or tf.is_cuda_build is False:
        return False  # tensorflow.import / gpu.visible say why
    return any(d.device_type == "GPU" for d in tf.devices)


def _busy(gpus: tuple[GpuFacts, ...]) -> list[GpuFacts]:
    """GPUs on which other processes already hold a noticeable share of the memory."""
    return [
        g
        for g in gpus
        if g.memory_total and g.memory_used and g.memory_used > _BUSY_SHARE * g.memory_total
    ]


def check_memory_growth(ctx: CheckContext) -> Iterator[Finding]:
    """TensorFlow is told to map GPU memory as needed (or to use the async allocator)."""
    facts = ctx.facts
    if not _gpus_in_use(facts) or (facts.packages is not None and ctx.machine.tf is None):
        return
    if facts.environment is None:
        yield unknown("runtime.memory-growth", "whether GPU memory growth is configured")
        return
    env = facts.environment
    # TF_GPU_ALLOCATOR=cuda_malloc_async switches to CUDA's stream-ordered allocator, which
    # takes memory from a pool on demand (tensorflow/core/common_runtime/gpu/
    # gpu_cudamallocasync_allocator.cc), so nothing is mapped up front.
    if env.get("TF_GPU_ALLOCATOR") == "cuda_malloc_async":
        yield Finding(
            "runtime.memory-growth",
            Severity.OK,
            "TF_GPU_ALLOCATOR=cuda_malloc_async: TensorFlow allocates GPU memory on demand",
        )
        return
    growth = env.get("TF_FORCE_GPU_ALLOW_GROWTH")
    # GetAllowGrowthValue (tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc) compares
    # with exactly "true" and "false"; any other value is logged as invalid and ignored.
    if growth == "true":
        yield Finding(
            "runtime.memory-growth",
            Severity.OK,
            "TF_FORCE_GPU_ALLOW_GROWTH=true: TensorFlow maps GPU memory as it needs it",
        )
        return
    if growth is not None and growth != "false":
        yield Finding(
            "runtime.memory-growth",
            Severity.WARNING,
            f"TF_FORCE_GPU_ALLOW_GROWTH={growth!r} is ignored: TensorFlow accepts only "
            "'true' or 'false', lower-case",
            "TensorFlow logs the value as invalid and keeps its default: it maps nearly all "
            "GPU memory on first use.",
            _growth_fix(ctx.machine),
            (_GPU_GUIDE,),
        )
        return
    drv = facts.driver
    busy = _busy(drv.gpus) if drv is not None else []
    if growth == "false":
        yield Finding(
            "runtime.memory-growth",
            Severity.INFO,
            "TF_FORCE_GPU_ALLOW_GROWTH=false: TensorFlow maps nearly all GPU memory on first "
            "use, even where a script asks for memory growth",
        )
        return
    detail = (
        "By default TensorFlow maps nearly all memory of every visible GPU on first use. "
        "Beside another process that fails as out of memory, CUDNN_STATUS_INTERNAL_ERROR or "
        "CUBLAS_STATUS_NOT_INITIALIZED; set in code after the first op it fails with "
        '"Physical devices cannot be modified after being initialized".'
    )
    if busy:
        used = ", ".join(
            f"GPU {g.index} {(g.memory_used or 0) / 2**30:.1f} of "
            f"{(g.memory_total or 0) / 2**30:.0f} GiB"
            for g in busy
        )
        yield Finding(
            "runtime.memory-growth",
            Severity.WARNING,
            f"GPU memory growth is not configured, and other processes already use memory ({used})",
            detail,
            _growth_fix(ctx.machine),
            (_GPU_GUIDE,),
        )
        return
    yield Finding(
        "runtime.memory-growth",
        Severity.INFO,
        "GPU memory growth is not configured: TensorFlow will map nearly all GPU memory",
        detail,
        _growth_fix(ctx.machine),
        (_GPU_GUIDE,),
    )


# --- the smoke test's fresh process: does the setting take effect? --------------------------

#: Held memory within this much of what TensorFlow needed, or this multiple of it, is the
#: CUDA context, cuBLAS/cuDNN workspaces and the allocator's first region: growth is working.
#: The context alone takes a few hundred MiB, more without CUDA's lazy module loading
#: (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#lazy-loading).
_HELD_SLACK = 2**30
_HELD_FACTOR = 4
#: Without growth TensorFlow's BFC allocator maps all FREE memory but a small reserve at the
#: first allocation (tensorflow/core/common_runtime/gpu/gpu_device.cc, MinSystemMemory), so
#: holding this share of what was free before the import means the GPU was mapped. Beside
#: another job the free memory can be a small share of the total, so the total is no guide.
_MAPPED_SHARE = 0.8
#: Where the free memory before the import is unknown (older facts), a held share of the
#: total above which the GPU was mapped.
_HELD_SHARE = 0.25


def _gib(size: int) -> str:
    return f"{size / 2**30:.1f}"


def _size(size: Optional[int]) -> str:
    if size is None:
        return "an unknown amount"
    if size < 2**20:
        return f"{size} bytes"
    return f"{size / 2**20:.0f} MiB" if size < 2**30 else f"{_gib(size)} GiB"


def _near_need(held: int, needed: Optional[int]) -> bool:
    """Held memory stays near what the op needed: nothing beyond context and workspaces."""
    need = needed or 0
    return held <= max(_HELD_FACTOR * need, need + _HELD_SLACK)


def _mapped_free(gpu: HeldGpu, held: int) -> bool:
    """The process took (nearly) all memory that was free: TensorFlow's no-growth default."""
    if gpu.memory_free_before is not None:
        return held >= _MAPPED_SHARE * gpu.memory_free_before
    return gpu.memory_total is not None and held >= _HELD_SHARE * gpu.memory_total


def _growth_in_effect(gpu: HeldGpu, held: int, configured: Optional[bool]) -> bool:
    """Held memory shows growth (or the async allocator) at work.

    Held near the need is growth. Far above it, growth can still be in effect only where the
    environment asks for it and the process did not take what was free; where nothing asks
    for growth, TensorFlow maps all free memory, whatever share of the GPU that is.
    """
    if _near_need(held, gpu.memory_needed):
        return True
    return bool(configured) and not _mapped_free(gpu, held)


def check_memory_held(ctx: CheckContext) -> Iterator[Finding]:
    """In a fresh process with the user's environment, a small op holds little GPU memory."""
    smoke = ctx.facts.smoke
    held = smoke.memory_held if smoke is not None else None
    if held is None or held.status == "no-gpu":
        return
    fid = "runtime.memory-held"
    if held.status != "ok":
        yield Finding(
            fid,
            Severity.UNKNOWN,
            f"Could not determine whether memory growth takes effect: the test process "
            f"ended with {held.status}",
            "\n".join(p for p in (held.error_message or "", held.stderr_tail[-1500:]) if p),
        )
        return
    fine: list[HeldGpu] = []
    for gpu in held.gpus:
        if gpu.memory_held is None:
            yield Finding(
                fid,
                Severity.UNKNOWN,
                f"Could not measure the memory {gpu.device} held after a small op",
                gpu.error or held.nvml_error or "NVML gave no figure",
            )
        elif _growth_in_effect(gpu, gpu.memory_held, held.growth_configured):
            fine.append(gpu)
        else:
            yield _mapped(ctx.machine, gpu, gpu.memory_held, held.growth_configured)
    if fine:
        most = max(fine, key=lambda g: g.memory_held or 0)
        yield Finding(
            fid,
            Severity.OK,
            f"Memory growth is in effect: a fresh process held at most "
            f"{_gib(most.memory_held or 0)} GiB on {len(fine)} GPU"
            f"{'s' if len(fine) != 1 else ''} after a small op",
        )


def _mapped(m: Machine, gpu: HeldGpu, held: int, configured: Optional[bool]) -> Finding:
    """The warning for a GPU on which the fresh process took what was free, not what it needed."""
    total = f" of {_gib(gpu.memory_total)}" if gpu.memory_total else ""
    free = (
        ""
        if gpu.memory_free_before is None
        else f" ({_gib(gpu.memory_free_before)} GiB were free before the import)"
    )
    if configured:
        why = (
            "The environment asks for memory growth, yet the process mapped the GPU's free "
            "memory: something that runs at interpreter start (a sitecustomize or .pth file, "
            "a wrapper) overrides it."
        )
    else:
        why = (
            "Nothing in the environment asks for memory growth, so TensorFlow's allocator took "
            "all free memory at the first op; a second process on this GPU fails with out "
            "of memory or CUDNN_STATUS_INTERNAL_ERROR."
        )
    how = {
        "process": "NVML's per-process figure for the test process",
        "device-delta": (
            "the GPU's used memory after the op minus before the import (other processes' "
            "changes count too)"
        ),
    }.get(gpu.memory_held_method or "", "NVML")
    return Finding(
        "runtime.memory-held",
        Severity.WARNING,
        f"TensorFlow mapped {_gib(held)}{total} GiB on {gpu.device} after a small op{free}: "
        "memory growth is not in effect",
        f"{why} The op needed {_size(gpu.memory_needed)}; held memory is {how}.",
        _growth_fix(m),
        (_GPU_GUIDE,),
    )
