"""tfdoctor: an environment doctor for TensorFlow.

Importing this package stays light: the doctor never imports TensorFlow, which only ever runs
in child interpreters. The one exception is :func:`configure_gpus`, for training scripts: it
imports TensorFlow when called, in the caller's process, and is itself loaded on first use.
:func:`check` (the doctor from Python or a notebook) and :func:`load_ipython_extension`
(``%load_ext tfdoctor``) load the doctor on first use too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tfdoctor.cli.notebook import NotebookReport, check, load_ipython_extension
    from tfdoctor.gpu_config import GpuConfigResult, TooLateError, configure_gpus

__version__ = "0.1.0"

__all__ = [
    "GpuConfigResult",
    "NotebookReport",
    "TooLateError",
    "__version__",
    "check",
    "configure_gpus",
    "load_ipython_extension",
]

# Names served on first access (PEP 562 module __getattr__), by the module that holds them.
_LAZY_FROM = {
    "GpuConfigResult": "tfdoctor.gpu_config",
    "TooLateError": "tfdoctor.gpu_config",
    "configure_gpus": "tfdoctor.gpu_config",
    "NotebookReport": "tfdoctor.cli.notebook",
    "check": "tfdoctor.cli.notebook",
    "load_ipython_extension": "tfdoctor.cli.notebook",
}
_LAZY = frozenset(_LAZY_FROM)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib  # noqa: PLC0415 - loaded on first use, see above

        return getattr(importlib.import_module(_LAZY_FROM[name]), name)
    raise AttributeError(f"module 'tfdoctor' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with the lazy ones, so that completion finds ``configure_gpus``
    (PEP 562: a module ``__getattr__`` hides its names from ``dir()`` unless ``__dir__`` adds them).
    """
    return sorted(set(globals()) | _LAZY)
