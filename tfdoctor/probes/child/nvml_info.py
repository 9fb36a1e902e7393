"""Print the NVIDIA driver and its GPUs as NVML reports them, as one JSON document.

Run by path with the doctor's own interpreter (it needs ``pynvml`` from ``nvidia-ml-py``):
a driver bug that crashes NVML then kills this child, not the doctor, and the child's
``LD_LIBRARY_PATH`` decides which ``libnvidia-ml.so.1`` loads. Standard library plus
``pynvml`` only, Python 3.7 syntax.

Output: ``{"ok": true, "driver_version", "cuda_driver_version", "nvml_version", "count",
"devices": [...], "device_errors": [...], "call_errors": [{"where", "call", "code", "name"}]}``
or ``{"ok": false, "stage", "code", "name", "message"}`` where ``code``/``name`` are the NVML
return code and its ``NVML_ERROR_*`` name.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import json
import sys
import traceback
from typing import Any, Optional

# NVML return codes (nvml.h, nvmlReturn_t). Kept here so the script can name an error even
# when pynvml cannot be imported or is older than the code.
NVML_ERROR_NAMES = {
    1: "NVML_ERROR_UNINITIALIZED",
    2: "NVML_ERROR_INVALID_ARGUMENT",
    3: "NVML_ERROR_NOT_SUPPORTED",
    4: "NVML_ERROR_NO_PERMISSION",
    5: "NVML_ERROR_ALREADY_INITIALIZED",
    6: "NVML_ERROR_NOT_FOUND",
    7: "NVML_ERROR_INSUFFICIENT_SIZE",
    8: "NVML_ERROR_INSUFFICIENT_POWER",
    9: "NVML_ERROR_DRIVER_NOT_LOADED",
    10: "NVML_ERROR_TIMEOUT",
    11: "NVML_ERROR_IRQ_ISSUE",
    12: "NVML_ERROR_LIBRARY_NOT_FOUND",
    13: "NVML_ERROR_FUNCTION_NOT_FOUND",
    14: "NVML_ERROR_CORRUPTED_INFOROM",
    15: "NVML_ERROR_GPU_IS_LOST",
    16: "NVML_ERROR_RESET_REQUIRED",
    17: "NVML_ERROR_OPERATING_SYSTEM",
    18: "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
    19: "NVML_ERROR_IN_USE",
    20: "NVML_ERROR_MEMORY",
    21: "NVML_ERROR_NO_DATA",
    999: "NVML_ERROR_UNKNOWN",
}
NVML_ERROR_NOT_SUPPORTED = 3
NVML_ERROR_LIBRARY_NOT_FOUND = 12
NVML_ERROR_FUNCTION_NOT_FOUND = 13
# nvml.h: nvmlMemoryErrorType_t / nvmlEccCounterType_t / NVML_DEVICE_MIG_ENABLE.
MEMORY_ERROR_TYPE_CORRECTED = 0
MEMORY_ERROR_TYPE_UNCORRECTED = 1
VOLATILE_ECC = 0
DEVICE_MIG_ENABLE = 1


class Unsupported(Exception):
    """The call exists but this driver or device does not support it."""


def _text(value: object) -> str:
    """A str from pynvml's str-or-bytes results (older bindings return bytes)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _error_doc(stage: str, exc: BaseException) -> dict[str, Any]:
    """The failure document for an NVMLError (or another exception) at ``stage``."""
    code = getattr(exc, "value", None)
    if not isinstance(code, int):
        return {
            "ok": False,
            "stage": stage,
            "code": None,
            "name": type(exc).__name__,
            "message": f"{type(exc).__name__}: {exc}",
            "detail": traceback.format_exc(),
        }
    try:
        message = str(exc)
    except Exception:  # str() of an NVMLError calls back into the library
        message = f"NVML Error with code {code}"
    return {
        "ok": False,
        "stage": stage,
        "code": code,
        "name": NVML_ERROR_NAMES.get(code, f"NVML_ERROR_{code}"),
        "message": message,
    }


def _optional(pynvml: Any, func_name: str, *args: Any) -> Any:
    """Call ``pynvml.func_name``; raise Unsupported where the binding or driver lacks it."""
    func = getattr(pynvml, func_name, None)
    if func is None:
        raise Unsupported(func_name)
    try:
        return func(*args)
    except pynvml.NVMLError as exc:
        if exc.value in (NVML_ERROR_NOT_SUPPORTED, NVML_ERROR_FUNCTION_NOT_FOUND):
            raise Unsupported(func_name) from exc
        raise


def _call_error(where: str, func_name: str, exc: BaseException) -> dict[str, Any]:
    """The record of one failed call: the NVML return code and its name, or the exception."""
    # NVMLError carries the nvmlReturn_t in ``value``.
    code = getattr(exc, "value", None)
    if isinstance(code, int):
        name = NVML_ERROR_NAMES.get(code, f"NVML_ERROR_{code}")
        return {"where": where, "call": func_name, "code": code, "name": name}
    return {"where": where, "call": func_name, "code": None, "name": f"{type(exc).__name__}: {exc}"}


def _guarded(
    pynvml: Any, errors: list[dict[str, Any]], where: str, func_name: str, *args: Any
) -> Any:
    """``_optional`` that records any failure in ``errors`` and returns None instead."""
    try:
        return _optional(pynvml, func_name, *args)
    except Unsupported:
        return None
    except Exception as exc:  # one odd field must not lose the others
        errors.append(_call_error(where, func_name, exc))
        return None


def _cuda_driver_version(pynvml: Any, errors: list[dict[str, Any]]) -> Optional[int]:
    """The CUDA version the driver supports as NVML's integer (12040 for 12.4)."""
    # _v2 exists since NVML 11.x; the unversioned call is the older name for the same value.
    for name in ("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"):
        try:
            value: Optional[int] = _optional(pynvml, name)
            return value
        except Unsupported:
            continue
        except Exception as exc:  # recorded; the other system values are still read
            errors.append(_call_error("system", name, exc))
            return None
    return None


def _device(pynvml: Any, index: int, errors: list[dict[str, Any]]) -> dict[str, Any]:
    """One device's facts; raises NVMLError when its handle or name cannot be read."""
    handle = pynvml.nvmlDeviceGetHandleByIndex(index)
    where = f"device {index}"
    doc: dict[str, Any] = {"index": index, "name": _text(pynvml.nvmlDeviceGetName(handle))}
    uuid = _guarded(pynvml, errors, where, "nvmlDeviceGetUUID", handle)
    doc["uuid"] = None if uuid is None else _text(uuid)
    pci = _guarded(pynvml, errors, where, "nvmlDeviceGetPciInfo", handle)
    doc["pci_bus_id"] = None if pci is None else _text(pci.busId)
    cc = _guarded(pynvml, errors, where, "nvmlDeviceGetCudaComputeCapability", handle)
    doc["compute_capability"] = None if cc is None else [int(cc[0]), int(cc[1])]
    mem = _guarded(pynvml, errors, where, "nvmlDeviceGetMemoryInfo", handle)
    doc["memory_total"] = None if mem is None else int(mem.total)
    doc["memory_used"] = None if mem is None else int(mem.used)
    mig = _guarded(pynvml, errors, where, "nvmlDeviceGetMigMode", handle)
    doc["mig_mode"] = None if mig is None else int(mig[0]) == DEVICE_MIG_ENABLE
    for key, kind in (
        ("ecc_corrected", MEMORY_ERROR_TYPE_CORRECTED),
        ("ecc_uncorrected", MEMORY_ERROR_TYPE_UNCORRECTED),
    ):
        count = _guarded(
            pynvml, errors, where, "nvmlDeviceGetTotalEccErrors", handle, kind, VOLATILE_ECC
        )
        doc[key] = None if count is None else int(count)
    return doc


def _library_missing() -> Optional[dict[str, Any]]:
    """The failure document when ``libnvidia-ml.so.1`` cannot be loaded at all, else None.

    Importing pynvml costs about 80 ms, most of this script's run. Where the driver's
    library is absent (a Docker build step, a machine without a GPU) one dlopen by the same
    name pynvml uses (``_LoadNvmlLibrary``: ``CDLL("libnvidia-ml.so.1")`` on Linux) gives the
    same answer pynvml's nvmlInit would.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return {
            "ok": False,
            "stage": "nvmlInit",
            "code": NVML_ERROR_LIBRARY_NOT_FOUND,
            "name": NVML_ERROR_NAMES[NVML_ERROR_LIBRARY_NOT_FOUND],
            "message": "NVML Shared Library Not Found",
        }
    return None


def collect() -> dict[str, Any]:
    """Everything NVML tells about the driver and devices, as a JSON-ready dict."""
    missing = _library_missing()
    if missing is not None:
        return missing
    try:
        # Imported here so that a missing or broken binding is reported as data.
        import pynvml  # type: ignore[import-untyped]
    except Exception as exc:  # ImportError, or a broken binding
        return {
            "ok": False,
            "stage": "import",
            "code": None,
            "name": "pynvml-import",
            "message": f"cannot import pynvml (nvidia-ml-py): {type(exc).__name__}: {exc}",
        }
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        return _error_doc("nvmlInit", exc)
    try:
        errors: list[dict[str, Any]] = []
        driver = _guarded(pynvml, errors, "system", "nvmlSystemGetDriverVersion")
        nvml_version = _guarded(pynvml, errors, "system", "nvmlSystemGetNVMLVersion")
        cuda = _cuda_driver_version(pynvml, errors)
        try:
            count = pynvml.nvmlDeviceGetCount()
        except pynvml.NVMLError as exc:
            return _error_doc("nvmlDeviceGetCount", exc)
        devices: list[dict[str, Any]] = []
        device_errors: list[dict[str, Any]] = []
        for index in range(count):
            try:
                devices.append(_device(pynvml, index, errors))
            except pynvml.NVMLError as exc:
                doc = _error_doc(f"device {index}", exc)
                doc["index"] = index
                device_errors.append(doc)
        return {
            "ok": True,
            "driver_version": None if driver is None else _text(driver),
            "nvml_version": None if nvml_version is None else _text(nvml_version),
            "cuda_driver_version": cuda,
            "count": count,
            "devices": devices,
            "device_errors": device_errors,
            "call_errors": errors,
        }
    finally:
        # The facts are already read; a failing shutdown changes none of them.
        with contextlib.suppress(Exception):
            pynvml.nvmlShutdown()


def main() -> int:
    """Print the document; exit 0 whenever a document was printed."""
    # A crash inside the driver then leaves the Python stack (which NVML call) on stderr.
    faulthandler.enable()
    try:
        doc = collect()
    except Exception as exc:  # report, never a bare traceback
        doc = _error_doc("collect", exc)
    sys.stdout.write(json.dumps(doc, sort_keys=True))
    sys.stdout.write("\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
