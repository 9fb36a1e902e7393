"""The environment variables TensorFlow should start with on this machine, and why.

Pure: facts in, an ordered tuple of :class:`EnvSetting` out. ``tfdoctor env`` renders them
for a shell, a Dockerfile or a dotenv file. These variables must be set before Python starts
(TensorFlow reads them when its runtime and XLA initialise, and the dynamic loader reads
LD_LIBRARY_PATH only at process start).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import PurePosixPath
from typing import Optional

from tfdoctor.facts import TF_DISTRIBUTIONS, Facts, normalize_name

#: Log levels TF_CPP_MIN_LOG_LEVEL takes: 0 all, 1 no INFO, 2 no WARNING, 3 no ERROR.
LOG_LEVELS = (0, 1, 2, 3)

# tsl/platform/default/logging.cc (MinLogLevelFromEnv): lines below the level are dropped.
_LOG_LEVEL_REASONS = (
    "TensorFlow's C++ runtime logs everything",
    "TensorFlow's C++ runtime hides its INFO lines",
    "TensorFlow's C++ runtime hides its INFO and WARNING lines",
    "TensorFlow's C++ runtime hides its INFO, WARNING and ERROR lines",
)

# The wheel each CUDA library comes from: (distribution stem, directory under nvidia/).
# ``nvidia-cudnn-cu12`` installs ``nvidia/cudnn/lib``; TensorFlow's own RUNPATH names these
# same directories relative to its package (see tfdoctor/probes/cudalibs.py).
_WHEELS: dict[str, tuple[str, str]] = {
    "cudart": ("cuda-runtime", "cuda_runtime"),
    "cublas": ("cublas", "cublas"),
    "cublasLt": ("cublas", "cublas"),
    "cufft": ("cufft", "cufft"),
    "cusparse": ("cusparse", "cusparse"),
    "cusolver": ("cusolver", "cusolver"),
    "curand": ("curand", "curand"),
    "cudnn": ("cudnn", "cudnn"),
    "nccl": ("nccl", "nccl"),
}

_XLA_DATA_DIR = re.compile(r"--xla_gpu_cuda_data_dir=(\"[^\"]*\"|'[^']*'|\S+)")

#: CUDA root XLA searches whatever was installed (xla/tsl/platform/default/
#: cuda_libdevice_path.cc, CandidateCudaRoots: TF_CUDA_TOOLKIT_PATH, /usr/local/cuda, and
#: nvidia/cuda_nvcc next to TensorFlow's own libraries).
XLA_DEFAULT_ROOT = "/usr/local/cuda"


@dataclasses.dataclass(frozen=True)
class EnvSetting:
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


def _tf_site(facts: Facts) -> Optional[str]:
    """The site directory holding the ``tensorflow`` package, from its distribution."""
    pkgs = facts.packages or ()
    for pkg in pkgs:
        if "tensorflow" in pkg.top_level:
            return pkg.location
    # Distributions that install the ``tensorflow`` import package, where RECORD does not say.
    for pkg in pkgs:
        if normalize_name(pkg.name) in TF_DISTRIBUTIONS:
            return pkg.location
    return None


def _xla_flags(facts: Facts) -> Optional[EnvSetting]:
    """``--xla_gpu_cuda_data_dir`` when libdevice was found where XLA does not look."""
    libs = facts.cuda_libs
    if libs is None or libs.libdevice is None:
        return None
    if facts.platform is not None and facts.platform.system == "Windows":
        return None  # no TensorFlow GPU build on native Windows since 2.11
    # libdevice sits at <root>/nvvm/libdevice/libdevice.10.bc.
    root = PurePosixPath(libs.libdevice).parents[2]
    site = _tf_site(facts)
    defaults = {PurePosixPath(XLA_DEFAULT_ROOT)}
    if site is not None:
        defaults.add(PurePosixPath(site) / "nvidia" / "cuda_nvcc")
    else:
        # Without a known TensorFlow, any site's cuda_nvcc may be the one next to it.
        sites = facts.python.site_packages if facts.python else ()
        defaults.update(PurePosixPath(s) / "nvidia" / "cuda_nvcc" for s in sites)
    current = (facts.environment or {}).get("XLA_FLAGS", "")
    match = _XLA_DATA_DIR.search(current)
    if match is not None and PurePosixPath(match.group(1).strip("\"'")) == root:
        return None
    if match is None and root in defaults:
        return None
    others = _XLA_DATA_DIR.sub("", current).split()
    return EnvSetting(
        "XLA_FLAGS",
        " ".join([*others, f"--xla_gpu_cuda_data_dir={root}"]),
        f"XLA compiles GPU kernels with libdevice, found under {root}, where it does not "
        "look by itself",
    )


def _ld_library_path(facts: Facts) -> Optional[EnvSetting]:
    """The pip wheels' ``nvidia/*/lib`` for the CUDA libraries the loader would not find."""
    libs = facts.cuda_libs
    if libs is None or (facts.platform is not None and facts.platform.system != "Linux"):
        return None
    missing = [lib.name for lib in libs.libraries if lib.selected is None and lib.name in _WHEELS]
    env = facts.environment or {}
    current = [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]
    # Wheels beside TensorFlow are on its RUNPATH already: if their library is still
    # missing, it does not load, and LD_LIBRARY_PATH would not change that.
    tf_site = _tf_site(facts)
    added: list[str] = []
    names: list[str] = []
    for name in missing:
        stem, directory = _WHEELS[name]
        wheel = re.compile(rf"nvidia-{re.escape(stem)}(-cu\d+)?")
        for pkg in facts.packages or ():
            if not wheel.fullmatch(normalize_name(pkg.name)) or pkg.location == tf_site:
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
