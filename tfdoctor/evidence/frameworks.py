"""Other GPU frameworks a log shows at work beside TensorFlow (observed, not inferred).

Today many environments hold TensorFlow with PyTorch or JAX; in one program they share the
GPU's memory and the CUDA libraries the loader finds first. Each is read by its own words:
PyTorch's caching allocator refusing ("CUDA out of memory. Tried to allocate",
c10/cuda/CUDACachingAllocator.cpp), its frames or its import (its CUDA check's "CUDA error: out
of memory", c10/cuda/CUDAException.cpp, is not its own: llama.cpp's ggml prints the same words,
ggml-cuda.cu's ggml_cuda_error); JAX's runtime error type
(jaxlib's XlaRuntimeError), its frames or its import; CuPy's out-of-memory errors (its memory
pool's, its runtime binding's).

https://github.com/pytorch/pytorch/blob/v2.4.0/c10/cuda/CUDACachingAllocator.cpp
https://github.com/pytorch/pytorch/blob/v2.4.0/c10/cuda/CUDAException.cpp
https://github.com/cupy/cupy/blob/v13.3.0/cupy/cuda/memory.pyx
https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html

The evidence never says what a finding is worth; explain decides that (:mod:`tfdoctor.explain`).
"""

from __future__ import annotations

import re
from typing import Final

#: Each framework's words that show it present in the program: its GPU words below, its
#: frames, its import. An import alone loads its libraries (PyTorch's libtorch_cuda links its
#: cuDNN) but allocates no GPU memory.
_FRAMEWORKS = (
    (
        "PyTorch",
        re.compile(
            r"CUDA out of memory\. Tried to allocate|torch\.(?:cuda\.)?OutOfMemoryError"
            r"|[/\\]site-packages[/\\]torch[/\\]|^\s*(?:>>> )?import torch\b",
            re.MULTILINE,
        ),
    ),
    (
        "JAX",
        re.compile(
            r"\bjaxlib\.xla_extension\.XlaRuntimeError|[/\\]site-packages[/\\]jax(?:lib)?[/\\]"
            r"|^\s*(?:>>> )?(?:import jax\b|from jax\b)",
            re.MULTILINE,
        ),
    ),
)

#: The words that show a framework at work on the GPU, not merely imported.
#: PyTorch: its caching allocator refusing ("CUDA out of memory. Tried to allocate",
#: c10/cuda/CUDACachingAllocator.cpp; torch.OutOfMemoryError, torch/__init__.py), a tensor
#: on a CUDA device as torch prints it (``device='cuda:0'``, torch/_tensor_str.py), or the
#: program's own move of a model or tensor there (``.cuda()``, ``.to("cuda")``,
#: ``device="cuda"``, ``torch.device("cuda")``) where the log shows torch beside it.
#: https://github.com/pytorch/pytorch/blob/v2.4.0/torch/_tensor_str.py
_TORCH_ALLOCATES = re.compile(
    r"CUDA out of memory\. Tried to allocate|torch\.(?:cuda\.)?OutOfMemoryError"
    r"|torch\.cuda\.memory_allocated\b"
)
_CUDA_CALL = re.compile(
    r"\.cuda\(\s*(?:\d+\s*)?\)|\.to\(\s*['\"]cuda(?::\d+)?['\"]"
    r"|\bdevice\s*=\s*['\"]cuda(?::\d+)?['\"]|torch\.device\(\s*['\"]cuda"
)
#: JAX: XLA's out-of-memory as JAX raises it (``XlaRuntimeError: RESOURCE_EXHAUSTED``, or
#: the CUDA driver's own ``CUDA_ERROR_OUT_OF_MEMORY`` inside jaxlib's error, as where it loads
#: a compiled kernel: ``XlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN:
#: CUDA_ERROR_OUT_OF_MEMORY``), its GPU devices as jax.devices() prints them (jaxlib's
#: device repr across releases: ``GpuDevice(id=0, process_index=0)``,
#: ``StreamExecutorGpuDevice(id=0, ...)``, ``cuda(id=0)``, ``CudaDevice(id=0)``;
#: xla/python/py_device.cc), or its backend
#: (``jax.default_backend()`` answering ``'gpu'``).
#: https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html
_JAX_ON_GPU = re.compile(
    r"XlaRuntimeError: (?:RESOURCE_EXHAUSTED|[A-Z_]{1,40}: [^\n]{0,300}?CUDA_ERROR_OUT_OF_MEMORY)"
    r"|\b(?:StreamExecutor)?GpuDevice\(id=\d|\bCudaDevice\(id=\d|\bcuda\(id=\d"
    r"|default_backend\(\)\s*\n\s*'gpu'"
)


#: CuPy: its memory pool refusing an allocation (cupy/cuda/memory.pyx, OutOfMemoryError: "Out
#: of memory allocating N bytes (allocated so far: M bytes[, limit set to: L bytes])"), or its
#: runtime binding raising the CUDA runtime's error by name and string
#: (cupy_backends/cuda/api/runtime.pyx, CUDARuntimeError: "cudaErrorMemoryAllocation: out of
#: memory"). Its words alone, as JAX's: only its GPU work is read, not its import. The one home
#: of these words: the ``cupy-out-of-memory`` signature writes them as
#: ``{{cupy_out_of_memory}}`` and reads the sizes from its groups.
#: https://docs.cupy.dev/en/stable/user_guide/memory.html
CUPY_OUT_OF_MEMORY_WORDS: Final = (
    r"OutOfMemoryError: Out of memory allocating (?P<request_bytes>[\d,]+) bytes"
    r"(?: \(allocated so far: (?P<allocated_bytes>[\d,]+) bytes"
    r"(?:, limit set to: (?P<limit_bytes>[\d,]+) bytes)?)?"
    r"|CUDARuntimeError: cudaErrorMemoryAllocation: out of memory"
)
_CUPY_ON_GPU = re.compile(CUPY_OUT_OF_MEMORY_WORDS)
#: Words every match of :data:`CUPY_OUT_OF_MEMORY_WORDS` holds: the pattern runs only on a log
#: with one of them (read_gpu_frameworks reads every log).
_CUPY_GATE: Final = ("Out of memory allocating", "cudaErrorMemoryAllocation")


def read_frameworks(text: str) -> tuple[str, ...]:
    """The other frameworks (``PyTorch``, ``JAX``, in that order) present in ``text``: their
    GPU work, their frames or their import."""
    return tuple(name for name, words in _FRAMEWORKS if words.search(text))


def read_gpu_frameworks(text: str) -> tuple[str, ...]:
    """The other frameworks ``text`` shows on the GPU (``PyTorch``, ``JAX``, ``CuPy``, in that
    order): their allocation, device or out-of-memory lines, a CUDA move beside PyTorch. An import
    alone is no such sign (:func:`read_frameworks` names it a candidate)."""
    present = read_frameworks(text)
    out = []
    # ``.cuda()`` and ``device="cuda"`` are PyTorch's calls only where PyTorch is in the log.
    if "PyTorch" in present and (_TORCH_ALLOCATES.search(text) or _CUDA_CALL.search(text)):
        out.append("PyTorch")
    if _JAX_ON_GPU.search(text):
        # Each of these words is jaxlib's own: no import needs to show beside it.
        out.append("JAX")
    if any(word in text for word in _CUPY_GATE) and _CUPY_ON_GPU.search(text):
        out.append("CuPy")
    return tuple(out)
