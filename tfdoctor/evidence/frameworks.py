"""Other GPU frameworks a log shows at work beside TensorFlow (observed, not inferred).

Today many environments hold TensorFlow with PyTorch or JAX; in one program they share the
GPU's memory and the CUDA libraries the loader finds first. Each is read by its own words:
PyTorch's caching allocator refusing ("CUDA out of memory. Tried to allocate",
c10/cuda/CUDACachingAllocator.cpp), its frames or its import; JAX's runtime error type
(jaxlib's XlaRuntimeError), its frames or its import.

https://github.com/pytorch/pytorch/blob/v2.4.0/c10/cuda/CUDACachingAllocator.cpp
https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html

The evidence never says what a finding is worth; explain decides that (:mod:`tfdoctor.explain`).
"""

from __future__ import annotations

import re

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


def read_frameworks(text: str) -> tuple[str, ...]:
    """The other frameworks (``PyTorch``, ``JAX``, in that order) whose work ``text`` shows."""
    return tuple(name for name, words in _FRAMEWORKS if words.search(text))
