"""Build small real shared libraries from C source, so the real loader and bindings run.

gcc is on every machine the tests run on; a test that needs it is skipped with the reason
where it is missing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def require_gcc() -> str:
    """The gcc executable, or skip the calling test."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        pytest.skip("gcc is needed to build the stub libraries")
    return gcc


def build_shared_lib(
    directory: Path, filename: str, source: str, soname: str | None = None
) -> Path:
    """Compile ``source`` into ``directory/filename`` with the given soname (default: filename)."""
    gcc = require_gcc()
    directory.mkdir(parents=True, exist_ok=True)
    src = directory / (filename.replace("/", "_") + ".c")
    src.write_text(source, encoding="utf-8")
    out = directory / filename
    subprocess.run(
        [gcc, "-shared", "-fPIC", "-o", str(out), str(src), f"-Wl,-soname,{soname or filename}"],
        check=True,
        capture_output=True,
    )
    src.unlink()
    return out


#: A ``libcuda.so.1`` for the cuInit probe. Environment variables choose the scenario:
#: ``STUB_CUDA_INIT_RC`` is the CUresult cuInit returns (default 0), ``STUB_CUDA_DEVICES`` the
#: device count (default 2), ``STUB_CUDA_CRASH``/``STUB_CUDA_HANG`` make cuInit die or hang.
#: Names are cuda.h's (enum cudaError_enum); cuGetErrorName answers CUDA_ERROR_INVALID_VALUE
#: for a code it does not know, as the real one does.
CUDA_STUB_C = r"""
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

typedef int CUresult;

CUresult cuInit(unsigned int flags) {
    const char *rc = getenv("STUB_CUDA_INIT_RC");
    if (flags != 0) return 1; /* CUDA_ERROR_INVALID_VALUE: the flags must be 0 */
    if (getenv("STUB_CUDA_CRASH")) raise(SIGSEGV);
    if (getenv("STUB_CUDA_HANG")) sleep(60);
    return rc ? atoi(rc) : 0;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
    switch (error) {
    case 0: *name = "CUDA_SUCCESS"; return 0;
    case 35: *name = "CUDA_ERROR_INSUFFICIENT_DRIVER"; return 0;
    case 100: *name = "CUDA_ERROR_NO_DEVICE"; return 0;
    case 303: *name = "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"; return 0;
    case 304: *name = "CUDA_ERROR_OPERATING_SYSTEM"; return 0;
    case 999: *name = "CUDA_ERROR_UNKNOWN"; return 0;
    default: *name = NULL; return 1;
    }
}

CUresult cuDriverGetVersion(int *version) {
    if (!version) return 1;
    *version = 12040;
    return 0;
}

CUresult cuDeviceGetCount(int *count) {
    const char *n = getenv("STUB_CUDA_DEVICES");
    if (!count) return 1;
    *count = n ? atoi(n) : 2;
    return 0;
}
"""


def build_libcuda_stub(directory: Path) -> Path:
    """``directory/libcuda.so.1`` built from :data:`CUDA_STUB_C`."""
    return build_shared_lib(directory, "libcuda.so.1", CUDA_STUB_C)
