"""tfdoctor: an environment doctor for TensorFlow.

Importing this package stays light: the doctor never imports TensorFlow, which only ever runs
in child interpreters. The one exception is :func:`configure_gpus`, for training scripts: it
imports TensorFlow when called, in the caller's process, and is itself loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tfdoctor.gpu_config import GpuConfigResult, TooLateError, configure_gpus

__version__ = "0.1.0"

__all__ = ["GpuConfigResult", "TooLateError", "__version__", "configure_gpus"]

# Names served from tfdoctor.gpu_config on first access (PEP 562 module __getattr__).
_LAZY = frozenset({"GpuConfigResult", "TooLateError", "configure_gpus"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from tfdoctor import gpu_config  # noqa: PLC0415 - loaded on first use, see above

        return getattr(gpu_config, name)
    raise AttributeError(f"module 'tfdoctor' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with the lazy ones, so that completion finds ``configure_gpus``
    (PEP 562: a module ``__getattr__`` hides its names from ``dir()`` unless ``__dir__`` adds them).
    """
    return sorted(set(globals()) | _LAZY)
