"""Call ``cuInit(0)`` through the CUDA driver library and print the outcome as one JSON document.

Run by path with the examined interpreter, without TensorFlow: a driver that hangs or crashes
in ``cuInit`` takes this child down, never the doctor, and the child's ``LD_LIBRARY_PATH``
decides which ``libcuda.so.1`` loads, as it would for TensorFlow. Standard library only,
Python 3.7 syntax.

Output: ``{"library", "loaded", "load_error", "path", "code", "name", "driver_version",
"device_count", "count_code", "failure"}``: ``code`` is cuInit's CUresult and ``name`` its
``CUDA_ERROR_*`` name; ``driver_version`` is ``cuDriverGetVersion``'s integer (12040);
``failure`` says why the calls could not be made at all.
"""

from __future__ import annotations

import ctypes
import faulthandler
import json
import sys
from typing import Any, Optional

# CUresult values cuInit returns (CUDA Driver API, "Data types used by CUDA driver",
# enum cudaError_enum), for a library whose cuGetErrorName is missing or fails.
CUDA_ERROR_NAMES = {
    0: "CUDA_SUCCESS",
    1: "CUDA_ERROR_INVALID_VALUE",
    2: "CUDA_ERROR_OUT_OF_MEMORY",
    3: "CUDA_ERROR_NOT_INITIALIZED",
    34: "CUDA_ERROR_STUB_LIBRARY",
    35: "CUDA_ERROR_INSUFFICIENT_DRIVER",
    46: "CUDA_ERROR_DEVICE_UNAVAILABLE",
    100: "CUDA_ERROR_NO_DEVICE",
    101: "CUDA_ERROR_INVALID_DEVICE",
    303: "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED",
    304: "CUDA_ERROR_OPERATING_SYSTEM",
    803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
    804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
    999: "CUDA_ERROR_UNKNOWN",
}
CUDA_SUCCESS = 0


def library_name() -> str:
    """The file name the CUDA driver library is loaded by on this OS."""
    return "nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1"


def loaded_path(name: str) -> Optional[str]:
    """The file the loader mapped for ``name`` (Linux: ``/proc/self/maps``), else None."""
    stem = name.split(".so", maxsplit=1)[0] + ".so"
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                # address perms offset dev inode path (proc(5)); anonymous maps have no path.
                fields = line.split(None, 5)
                path = fields[5].strip() if len(fields) == 6 else ""
                if path.startswith("/") and path.rsplit("/", 1)[-1].startswith(stem):
                    return path
    except OSError:
        pass
    return None


def error_name(lib: Any, code: int) -> str:
    """``cuGetErrorName`` for ``code``, else the local table's name, else ``CUDA_ERROR_<n>``."""
    try:
        func = lib.cuGetErrorName
        text = ctypes.c_char_p()
        if func(ctypes.c_int(code), ctypes.byref(text)) == CUDA_SUCCESS and text.value:
            return text.value.decode("ascii", "replace")
    except AttributeError:  # a library older than CUDA 6.0 lacks it
        pass
    return CUDA_ERROR_NAMES.get(code, f"CUDA_ERROR_{code}")


def int_call(lib: Any, func_name: str) -> tuple[Optional[int], Optional[int]]:
    """(value, CUresult) of a ``CUresult f(int *)`` entry point; (None, None) if absent."""
    try:
        func = getattr(lib, func_name)
    except AttributeError:
        return None, None
    value = ctypes.c_int(0)
    code = int(func(ctypes.byref(value)))
    return (int(value.value) if code == CUDA_SUCCESS else None), code


def collect() -> dict[str, Any]:
    """What loading the library and calling cuInit gave, as a JSON-ready dict."""
    name = library_name()
    doc: dict[str, Any] = {"library": name, "loaded": False}
    try:
        lib = ctypes.CDLL(name)
    except OSError as exc:
        doc["load_error"] = str(exc)
        return doc
    doc["loaded"] = True
    doc["path"] = loaded_path(name) if sys.platform.startswith("linux") else None
    lib.cuInit.argtypes = [ctypes.c_uint]
    lib.cuInit.restype = ctypes.c_int
    code = int(lib.cuInit(0))
    doc["code"] = code
    doc["name"] = error_name(lib, code)
    # cuDriverGetVersion needs no cuInit: it still answers when cuInit failed (an old driver
    # gives CUDA_ERROR_INSUFFICIENT_DRIVER, and this says which CUDA it does support).
    doc["driver_version"] = int_call(lib, "cuDriverGetVersion")[0]
    if code == CUDA_SUCCESS:
        count, count_code = int_call(lib, "cuDeviceGetCount")
        doc["device_count"] = count
        doc["count_code"] = count_code
    return doc


def main() -> int:
    """Print the document; exit 0 whenever a document was printed."""
    # A crash inside the driver then leaves the Python stack (which call) on stderr.
    faulthandler.enable()
    try:
        doc = collect()
    except Exception as exc:  # a library without cuInit, a ctypes failure: data, not a trace
        doc = {
            "library": library_name(),
            "loaded": True,
            "failure": f"{type(exc).__name__}: {exc}",
        }
    sys.stdout.write(json.dumps(doc, sort_keys=True))
    sys.stdout.write("\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
