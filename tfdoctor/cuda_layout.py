"""Where NVIDIA's CUDA pip wheels put their libraries, and the XLA flag that names a CUDA root.

The library probe, ``tfdoctor env`` and the machine view read the same layout from here.
Imports nothing from the package.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Optional

#: Library -> its wheel's directories under ``<site>/nvidia/`` (``lib`` inside on Linux,
#: ``bin`` on Windows) up to CUDA 12. TF's libtensorflow_framework.so.2 carries these in its
#: RUNPATH as ``$ORIGIN/../nvidia/<dir>/lib`` (cusolver's is in libtensorflow_cc.so.2; TF 2.21
#: names no curand directory, as XLA no longer loads cuRAND). ``cuda`` is the driver's
#: libcuda, which no wheel ships.
LIBRARY_DIRS: Mapping[str, tuple[str, ...]] = {
    "cudart": ("cuda_runtime",),
    "cublas": ("cublas",),
    "cublasLt": ("cublas",),
    "cufft": ("cufft",),
    "cusparse": ("cusparse",),
    "cusolver": ("cusolver",),
    "curand": ("curand",),
    "cudnn": ("cudnn",),
    "nccl": ("nccl",),
    "cuda": (),
}

#: The first CUDA major whose toolkit wheels share one directory, ``nvidia/cu<major>/lib``.
GROUPED_FROM = 13
#: Libraries the CUDA 13 toolkit wheels put in ``nvidia/cu13/lib``; cuDNN and NCCL keep
#: their own directories (https://github.com/NVIDIA/cuml/pull/7304,
#: https://github.com/NVIDIA/cuda-python/pull/864).
GROUPED_LIBRARIES = frozenset(
    {"cudart", "cublas", "cublasLt", "cufft", "cusparse", "cusolver", "curand"}
)

#: ``nvidia-*`` distribution, without its ``-cuXX`` suffix -> its directory under ``nvidia/``
#: (``nvidia-cudnn-cu12`` ships ``nvidia/cudnn/lib``).
WHEEL_DIRS: Mapping[str, str] = {
    "nvidia-cublas": "cublas",
    "nvidia-cuda-cupti": "cuda_cupti",
    "nvidia-cuda-nvcc": "cuda_nvcc",
    "nvidia-cuda-nvrtc": "cuda_nvrtc",
    "nvidia-cuda-runtime": "cuda_runtime",
    "nvidia-cudnn": "cudnn",
    "nvidia-cufft": "cufft",
    "nvidia-curand": "curand",
    "nvidia-cusolver": "cusolver",
    "nvidia-cusparse": "cusparse",
    "nvidia-nccl": "nccl",
    "nvidia-nvjitlink": "nvjitlink",
}
#: Wheel directories whose libraries moved into ``nvidia/cu13/lib`` with CUDA 13 (nvJitLink
#: and NVRTC too: https://github.com/NVIDIA/cuda-python/pull/864).
_GROUPED_DIRS = frozenset(
    {*(d for lib in GROUPED_LIBRARIES for d in LIBRARY_DIRS[lib]), "nvjitlink", "cuda_nvrtc"}
)

#: The wheel directory whose ``nvvm/libdevice`` and ``bin/ptxas`` XLA finds by itself
#: (xla/tsl/platform/default/cuda_libdevice_path.cc, CandidateCudaRoots).
NVCC_WHEEL_DIR = "cuda_nvcc"
#: Where a CUDA toolkit sits when nothing says otherwise; XLA searches it whatever was
#: installed (CandidateCudaRoots: TF_CUDA_TOOLKIT_PATH, /usr/local/cuda).
DEFAULT_CUDA_ROOT = "/usr/local/cuda"

_XLA_DATA_DIR = re.compile(r"--xla_gpu_cuda_data_dir=(\"[^\"]*\"|'[^']*'|\S+)")


def library_dirs(name: str, cuda_major: Optional[int] = None) -> tuple[str, ...]:
    """Directories under ``nvidia/`` that hold library ``name`` for a CUDA major, newest first.

    From CUDA 13 the toolkit libraries sit in ``cu13`` first; the per-library directories
    follow, for wheels of older releases in the same site.
    """
    dirs = LIBRARY_DIRS.get(name, ())
    if cuda_major is not None and cuda_major >= GROUPED_FROM and name in GROUPED_LIBRARIES:
        return (f"cu{cuda_major}", *dirs)
    return dirs


def wheel_dir(dist: str, version: str) -> Optional[str]:
    """The directory under ``nvidia/`` an installed ``nvidia-*`` distribution fills, or None.

    ``dist`` is in PEP 503 normal form. ``nvidia-cudnn-cu12`` fills ``cudnn``; the CUDA 13
    toolkit wheels carry no suffix (``nvidia-cublas`` 13.0) and fill ``cu13``.
    """
    head, _, tail = dist.rpartition("-")
    suffixed = tail.startswith("cu") and tail[2:].isdigit()
    directory = WHEEL_DIRS.get(head if suffixed else dist)
    if directory is None:
        return None
    major_text = tail[2:] if suffixed else version.partition(".")[0]
    major = int(major_text) if major_text.isdigit() else None
    if major is not None and major >= GROUPED_FROM and directory in _GROUPED_DIRS:
        return f"cu{major}"
    return directory


def wheel_name(base: str, cuda_major: int) -> str:
    """The pip distribution of an NVIDIA component for a CUDA major: ``nvidia-cuda-nvcc-cu12``
    for CUDA 12; from CUDA 13 the wheels carry no ``-cuXX`` suffix (``nvidia-cuda-nvcc``)."""
    return base if cuda_major >= GROUPED_FROM else f"{base}-cu{cuda_major}"


def libraries_in(directory: str) -> tuple[str, ...]:
    """The libraries of :data:`LIBRARY_DIRS` a directory under ``nvidia/`` holds."""
    match = re.fullmatch(r"cu(\d+)", directory)
    if match is not None and int(match.group(1)) >= GROUPED_FROM:
        return tuple(name for name in LIBRARY_DIRS if name in GROUPED_LIBRARIES)
    return tuple(name for name, dirs in LIBRARY_DIRS.items() if directory in dirs)


def xla_cuda_data_dir(xla_flags: Optional[str]) -> Optional[str]:
    """The ``DIR`` of ``--xla_gpu_cuda_data_dir=DIR`` in XLA_FLAGS, unquoted, if set."""
    match = _XLA_DATA_DIR.search(xla_flags or "")
    return match.group(1).strip("\"'") if match else None


def without_xla_cuda_data_dir(xla_flags: Optional[str]) -> tuple[str, ...]:
    """The other flags of XLA_FLAGS, in order."""
    return tuple(_XLA_DATA_DIR.sub("", xla_flags or "").split())


#: The ``nvidia-*`` distributions (without ``-cuXX``) whose versions follow the CUDA toolkit's,
#: and cuDNN's: a TensorFlow wheel's ``and-cuda`` extra pins them to the build's versions.
_RUNTIME_WHEEL = "nvidia-cuda-runtime"
_CUDNN_WHEEL = "nvidia-cudnn"
_LOWER_BOUNDS = ("==", "===", ">=", "~=")


def declared_cuda(requires: Sequence[str]) -> tuple[Optional[str], Optional[str]]:
    """(CUDA ``X.Y``, cuDNN ``X.Y``) a wheel's ``and-cuda`` requirements pin, each the lowest
    version admitted (``nvidia-cuda-runtime-cu12<13.0,>=12.5.82; extra == "and-cuda"`` is
    CUDA 12.5); None for one it does not pin.

    TensorFlow's setup.py pins the CUDA wheels of the toolkit it was built with (2.18:
    ``nvidia-cuda-runtime-cu12==12.5.82``, 2.21: ``>=12.5.82``); from 2.22 its build info no
    longer records the CUDA version (``tf.sysconfig.get_build_info()`` has only the flags).
    """
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415

    found: dict[str, str] = {}
    for text in requires:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if req.marker is None or "and-cuda" not in str(req.marker):
            continue
        head, _, tail = req.name.lower().replace("_", "-").rpartition("-")
        base = head if tail.startswith("cu") and tail[2:].isdigit() else req.name.lower()
        if base not in (_RUNTIME_WHEEL, _CUDNN_WHEEL) or base in found:
            continue
        bounds = [s.version for s in req.specifier if s.operator in _LOWER_BOUNDS]
        parts = [re.findall(r"\d+", b)[:2] for b in bounds]
        lowest = min((tuple(int(x) for x in p) for p in parts if len(p) == 2), default=None)
        if lowest is not None:
            found[base] = f"{lowest[0]}.{lowest[1]}"
    return found.get(_RUNTIME_WHEEL), found.get(_CUDNN_WHEEL)
