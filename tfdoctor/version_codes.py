"""NVIDIA's libraries' version integers (CUDA_VERSION, cudnnGetVersion) in dotted form.

This module imports nothing from the package.
"""

from __future__ import annotations

import re
from typing import Optional


def cuda_dotted(code: int) -> str:
    """CUDA's version integer, 1000 * major + 10 * minor (cuda.h's CUDA_VERSION, as
    cudaRuntimeGetVersion, cuDriverGetVersion and NVML return it), dotted: 12020 -> ``12.2``,
    11080 -> ``11.8``."""
    return f"{code // 1000}.{code % 1000 // 10}"


#: CUDNN_VERSION as cudnnGetVersion() returns it (cudnn_version.h): major*1000 + minor*100 +
#: patch up to cuDNN 8 (8600: 8.6.0), major*10000 + minor*100 + patch from cuDNN 9 (90300:
#: 9.3.0, 91001: 9.10.1).
_CUDNN_INT = re.compile(r"^(\d)(\d)(\d\d)$")
_CUDNN9_INT = re.compile(r"^(\d{1,2})(\d\d)(\d\d)$")


def cudnn_dotted(value: Optional[str]) -> Optional[str]:
    """cuDNN versions as TensorFlow logs them: ``8.9.4``, ``7201`` (7.2.1), ``8600`` (8.6.0),
    ``90300`` (9.3.0)."""
    if not value:
        return None
    match = _CUDNN_INT.match(value) or _CUDNN9_INT.match(value)
    if match is not None:
        major, minor, patch = match.groups()
        return f"{int(major)}.{int(minor)}.{int(patch)}"
    return value
