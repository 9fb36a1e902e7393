"""Load CUDA libraries by absolute path and ask each one for its own version.

Usage: ``python lib_versions.py MARKER SECONDS KIND:PATH [KIND:PATH ...]`` where KIND is one
of the keys of ``STRATEGIES`` (``cudart``, ``cudnn`` ...). For each library, in argument
order and flushed as each is done, prints a line ``MARKER {json}`` (after a newline, so what
a library's constructor prints cannot run into it): a library that kills this process is the
first one without a record, and ``MARKER loaded N`` on stderr tells whether argument N got
past loading. Loading and asking one library may take SECONDS; past that, faulthandler
prints ``Timeout (...)!`` and ends the process with status 1.
Standard library only; runs on Python 3.7 and later.
"""

from __future__ import annotations

import ctypes
import faulthandler
import json
import struct
import sys
from pathlib import Path
from typing import Any, Callable, Optional

# libraryPropertyType from CUDA's library_types.h: MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL.
_PROPERTIES = (0, 1, 2)


class CallFailed(Exception):
    """A version function returned a failure status."""


def _three(value: int, major_unit: int) -> str:
    """major.minor.patch from major*major_unit + minor*100 + patch."""
    return f"{value // major_unit}.{(value % major_unit) // 100}.{value % 100}"


def _int_out(lib: ctypes.CDLL, name: str) -> int:
    """The int written by ``status name(int *out)``; raises CallFailed on a non-zero status."""
    func = getattr(lib, name)
    func.restype = ctypes.c_int
    func.argtypes = [ctypes.POINTER(ctypes.c_int)]
    value = ctypes.c_int(0)
    status = func(ctypes.byref(value))
    if status != 0:
        raise CallFailed(f"{name} returned status {status}")
    return int(value.value)


def cuda_style(lib: ctypes.CDLL, name: str) -> str:
    """cudaRuntimeGetVersion / cuDriverGetVersion: 1000 * major + 10 * minor (12040 -> 12.4)."""
    value = _int_out(lib, name)
    return f"{value // 1000}.{(value % 1000) // 10}"


def thousands_style(lib: ctypes.CDLL, name: str) -> str:
    """curandGetVersion, cusolverGetVersion, cufftGetVersion: 1000*major + 100*minor + patch."""
    value = _int_out(lib, name)
    return _three(value, 1000)


def properties(lib: ctypes.CDLL, name: str) -> str:
    """``status xGetProperty(libraryPropertyType, int *)`` asked for major, minor and patch."""
    func = getattr(lib, name)
    func.restype = ctypes.c_int
    func.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    parts = []
    for prop in _PROPERTIES:
        value = ctypes.c_int(0)
        status = func(prop, ctypes.byref(value))
        if status != 0:
            raise CallFailed(f"{name}({prop}) returned status {status}")
        parts.append(value.value)
    return ".".join(str(part) for part in parts)


def cudnn_style(lib: ctypes.CDLL, name: str) -> str:
    """cudnnGetVersion() returns CUDNN_VERSION as a size_t.

    cudnn_version.h defines it as major*1000 + minor*100 + patch up to cuDNN 8 (8.9.2 ->
    8902) and as major*10000 + minor*100 + patch from cuDNN 9 (9.1.0 -> 90100).
    """
    func = getattr(lib, name)
    func.restype = ctypes.c_size_t
    func.argtypes = []
    value = func()
    if value >= 90000:
        return _three(value, 10000)
    return _three(value, 1000)


def cublaslt_style(lib: ctypes.CDLL, name: str) -> str:
    """cublasLtGetVersion() returns CUBLAS_VERSION, major*10000 + minor*100 + patch."""
    func = getattr(lib, name)
    func.restype = ctypes.c_size_t
    func.argtypes = []
    value = func()
    return _three(value, 10000)


def nccl_style(lib: ctypes.CDLL, name: str) -> str:
    """ncclGetVersion(int*): NCCL_VERSION_CODE, major*10000 + minor*100 + patch since 2.9,
    major*1000 + minor*100 + patch before (nccl.h)."""
    value = _int_out(lib, name)
    if value >= 10000:
        return _three(value, 10000)
    return _three(value, 1000)


# Each library's own version functions, tried in order; the *GetProperty forms need no handle.
STRATEGIES: dict[str, list[tuple[str, Callable[[ctypes.CDLL, str], str]]]] = {
    "cudart": [("cudaRuntimeGetVersion", cuda_style)],
    "cuda": [("cuDriverGetVersion", cuda_style)],
    "cudnn": [("cudnnGetVersion", cudnn_style)],
    "cublas": [("cublasGetProperty", properties)],
    "cublasLt": [("cublasLtGetProperty", properties), ("cublasLtGetVersion", cublaslt_style)],
    "cufft": [("cufftGetProperty", properties), ("cufftGetVersion", thousands_style)],
    "cusparse": [("cusparseGetProperty", properties)],
    "cusolver": [("cusolverGetProperty", properties), ("cusolverGetVersion", thousands_style)],
    "curand": [("curandGetProperty", properties), ("curandGetVersion", thousands_style)],
    "nccl": [("ncclGetVersion", nccl_style)],
}


def elf_signature(path: Path) -> Optional[tuple[int, int, int]]:
    """(class, byte order, machine) from an ELF header, or None for anything else."""
    try:
        with path.open("rb") as handle:
            header = handle.read(20)
    except OSError:
        return None
    if len(header) < 20 or header[:4] != b"\x7fELF":
        return None
    order = "<" if header[5] == 1 else ">"
    machine: int = struct.unpack(order + "H", header[18:20])[0]
    return (header[4], header[5], machine)


def own_signature() -> Optional[tuple[int, int, int]]:
    """The ELF signature of this interpreter (None off Linux), read once per run."""
    if not sys.platform.startswith("linux"):
        return None
    return elf_signature(Path(sys.executable).resolve())


def wrong_kind(path: str, own: Optional[tuple[int, int, int]]) -> bool:
    """True for an ELF file of another class or machine than ``own``, this interpreter's.

    glibc's loader passes over such a file while searching and tries the next directory
    (open_verify in elf/dl-load.c); any other file it finds ends the search.
    """
    if own is None:
        return False
    theirs = elf_signature(Path(path))
    return theirs is not None and own != theirs


def examine(
    kind: str, path: str, own: Optional[tuple[int, int, int]], on_loaded: Callable[[], None]
) -> dict[str, Any]:
    """Load one library and call its version functions; a JSON-ready dict."""
    result: dict[str, Any] = {
        "path": path,
        "loadable": False,
        "error": None,
        "wrong_kind": wrong_kind(path, own),
        "version": None,
        "call_error": None,
    }
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        result["error"] = str(exc)
        return result
    result["loadable"] = True
    on_loaded()
    errors: list[str] = []
    for name, reader in STRATEGIES.get(kind, []):
        try:
            result["version"] = reader(lib, name)
        except AttributeError:
            errors.append(f"{name} is not exported")
            continue
        except CallFailed as exc:
            errors.append(str(exc))
            continue
        break
    if result["version"] is None and errors:
        result["call_error"] = "; ".join(errors)
    return result


def main(argv: list[str]) -> int:
    """Examine every KIND:PATH argument after MARKER and SECONDS, one record each."""
    if len(argv) < 2:
        sys.stderr.write("usage: lib_versions.py MARKER SECONDS KIND:PATH ...\n")
        return 2
    marker, seconds = argv[0], float(argv[1])
    own = own_signature()
    for index, arg in enumerate(argv[2:]):
        kind, _, path = arg.partition(":")

        def loaded(index: int = index) -> None:
            # Tells the parent that loading worked should the version call kill us.
            sys.stderr.write(f"\n{marker} loaded {index}\n")
            sys.stderr.flush()

        # A C watchdog thread: it fires even while dlopen or a version call holds the GIL.
        faulthandler.dump_traceback_later(seconds, exit=True)
        record = examine(kind, path, own, loaded)
        faulthandler.cancel_dump_traceback_later()
        sys.stdout.write(f"\n{marker} {json.dumps(record, sort_keys=True)}\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
