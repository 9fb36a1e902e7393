"""Checks on how TensorFlow's runtime will use the GPUs: memory growth and the allocator."""

from __future__ import annotations

from collections.abc import Iterator

from tfdoctor.checks._context import CheckContext, fix, unknown
from tfdoctor.facts import Facts, GpuFacts
from tfdoctor.findings import Finding, Fix, Severity

_GPU_GUIDE = "https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth"

#: Share of a GPU's memory already in use by others above which TF's default is a problem.
_BUSY_SHARE = 0.10


def _growth_fix() -> Fix:
    return fix(
        "Let TensorFlow map GPU memory as it needs it: set the variable before Python starts, "
        "or call tfdoctor.configure_gpus() right after `import tensorflow`.",
        'eval "$(tfdoctor env)"',
        "export TF_FORCE_GPU_ALLOW_GROWTH=true",
    )


def _gpus_in_use(facts: Facts) -> bool:
    """The machine has NVIDIA GPUs and TensorFlow either sees them or was not asked."""
    drv = facts.driver
    if drv is None or not drv.gpus:
        return False
    tf = facts.tensorflow
    if tf is None or tf.status == "skipped":
        return True
    if tf.status != "ok" or tf.is_cuda_build is False:
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
    if not _gpus_in_use(facts):
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
            _growth_fix(),
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
            _growth_fix(),
            (_GPU_GUIDE,),
        )
        return
    yield Finding(
        "runtime.memory-growth",
        Severity.INFO,
        "GPU memory growth is not configured: TensorFlow will map nearly all GPU memory",
        detail,
        _growth_fix(),
        (_GPU_GUIDE,),
    )
