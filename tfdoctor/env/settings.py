"""The environment variables TensorFlow should start with on this machine, and why.

Pure: facts in, an ordered tuple of :class:`EnvSetting` out. ``tfdoctor env`` renders them
for a shell, a Dockerfile or a dotenv file. These variables must be set before Python starts
(TensorFlow reads them when its runtime and XLA initialise, and the dynamic loader reads
LD_LIBRARY_PATH only at process start).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Optional

from tfdoctor.cuda_layout import (
    libraries_in,
)
from tfdoctor.facts import Facts
from tfdoctor.machine import view
from tfdoctor.records import Record, record

#: Log levels TF_CPP_MIN_LOG_LEVEL takes: 0 all, 1 no INFO, 2 no WARNING, 3 no ERROR.
LOG_LEVELS = (0, 1, 2, 3)

# tsl/platform/default/logging.cc (MinLogLevelFromEnv): lines below the level are dropped.
_LOG_LEVEL_REASONS = (
    "TensorFlow's C++ runtime logs everything",
    "TensorFlow's C++ runtime hides its INFO lines",
    "TensorFlow's C++ runtime hides its INFO and WARNING lines",
    "TensorFlow's C++ runtime hides its INFO, WARNING and ERROR lines",
)


@record
class EnvSetting(Record):
    """One variable: its name, the value to set, and one line on why."""

    name: str
    value: str
    reason: str


def environment_settings(
    facts: Facts, *, async_allocator: bool = False, log_level: Optional[int] = None
) -> tuple[EnvSetting, ...]:
    """The variables to set before starting TensorFlow here, in the order to set them."""
    if log_level is not None and log_level not in LOG_LEVELS:
        raise ValueError(f"log level must be one of 0-3, got {log_level}")
    settings = [
        EnvSetting(
            "TF_FORCE_GPU_ALLOW_GROWTH",
            # TF compares the value with exactly "true" or "false" (GetAllowGrowthValue,
            # tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc); anything else is ignored.
            "true",
            "map GPU memory as needed, not nearly all of it at start "
            "(https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth)",
        )
    ]
    if async_allocator:
        # The BFC allocator's out-of-memory message suggests it for fragmentation
        # (tsl/framework/bfc_allocator.cc, "If the cause is memory fragmentation maybe the
        # environment variable 'TF_GPU_ALLOCATOR=cuda_malloc_async' will improve the situation").
        settings.append(
            EnvSetting(
                "TF_GPU_ALLOCATOR",
                "cuda_malloc_async",
                "CUDA's stream-ordered allocator (CUDA 11.2+): grows on demand and fragments "
                "less; TensorFlow's out-of-memory message suggests it",
            )
        )
    if log_level is not None:
        settings.append(
            EnvSetting(
                "TF_CPP_MIN_LOG_LEVEL",
                str(log_level),
                _LOG_LEVEL_REASONS[log_level],
            )
        )
    xla = _xla_flags(facts)
    if xla is not None:
        settings.append(xla)
    ld_path = _ld_library_path(facts)
    if ld_path is not None:
        settings.append(ld_path)
    return tuple(settings)


def _xla_flags(facts: Facts) -> Optional[EnvSetting]:
    """``--xla_gpu_cuda_data_dir`` when libdevice was found where XLA does not look."""
    machine = view(facts, None)
    value = machine.xla_flags_for_libdevice
    if value is None:
        return None
    return EnvSetting(
        "XLA_FLAGS",
        value,
        f"XLA compiles GPU kernels with libdevice, found under {machine.libdevice_root}, where "
        "it does not look by itself",
    )


def _ld_library_path(facts: Facts) -> Optional[EnvSetting]:
    """The pip wheels' ``nvidia/*/lib`` for the CUDA libraries the loader would not find."""
    libs = facts.cuda_libs
    if libs is None or (facts.platform is not None and facts.platform.system != "Linux"):
        return None
    missing = [lib.name for lib in libs.libraries if lib.selected is None]
    env = facts.environment or {}
    current = [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]
    # Wheels beside TensorFlow are on its RUNPATH already: if their library is still
    # missing, it does not load, and LD_LIBRARY_PATH would not change that.
    machine = view(facts, None)
    tf_site = machine.tf.location if machine.tf is not None else None
    added: list[str] = []
    names: list[str] = []
    for name in missing:
        for pkg, directory in machine.build_cuda_wheels:
            if name not in libraries_in(directory) or pkg.location == tf_site:
                continue
            path = str(PurePosixPath(pkg.location) / "nvidia" / directory / "lib")
            if path not in current and path not in added:
                added.append(path)
            if name not in names:
                names.append(name)
    if not added:
        return None
    return EnvSetting(
        "LD_LIBRARY_PATH",
        ":".join(added + current),
        f"TensorFlow's RUNPATH reaches only the nvidia/*/lib beside it; the {', '.join(names)} "
        "wheels sit in another site directory",
    )
