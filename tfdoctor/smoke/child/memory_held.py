"""Run one small op per GPU in a fresh process and report the GPU memory the process holds.

Run by path in the examined interpreter, with the user's environment unchanged, as
``python memory_held.py MARKER [--watch-parent]``: it starts TensorFlow as a training script
would, so what it holds afterwards shows whether the environment's memory-growth setting
takes effect. Standard library plus TensorFlow; NVML and the CUDA driver are read through
ctypes, since the examined interpreter need not have ``pynvml``. Nothing from tfdoctor;
Python 3.7 syntax. With ``--watch-parent`` it exits as soon as its stdin reaches end of file:
the parent holds the other end of that pipe, so the child dies with the parent however the
parent ends (even SIGKILL), rather than holding GPU memory until its timeout.

Prints one line, ``MARKER {json}``: ``{"event": "memory-held", "status": "ok" | "no-gpu",
"pid", "nvml_error", "gpus": [{"device", "pci_bus_id", "memory_total", "memory_held",
"memory_held_method", "memory_needed", "memory_free_before", "error"}]}`` or
``{"event": "import-error", "error"}``.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import sys
import threading
from typing import Any, Optional

# nvml.h: nvmlReturn_t values used here, and NVML_VALUE_NOT_AVAILABLE for an unsigned long
# long (usedGpuMemory is unavailable under Windows WDDM and in some containers).
NVML_SUCCESS = 0
NVML_ERROR_NOT_SUPPORTED = 3
NVML_ERROR_INSUFFICIENT_SIZE = 7
NVML_ERROR_FUNCTION_NOT_FOUND = 13
NVML_VALUE_NOT_AVAILABLE = 2**64 - 1
# nvml.h: NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE is 32; CUDA's cuDeviceGetPCIBusId writes at most 13.
BUS_ID_SIZE = 64


class ProcessInfo(ctypes.Structure):
    """``nvmlProcessInfo_t`` as ``nvmlDeviceGetComputeRunningProcesses_v2``/``_v3`` fill it."""

    _fields_ = [
        ("pid", ctypes.c_uint),
        ("usedGpuMemory", ctypes.c_ulonglong),
        ("gpuInstanceId", ctypes.c_uint),
        ("computeInstanceId", ctypes.c_uint),
    ]


class ProcessInfoV1(ctypes.Structure):
    """``nvmlProcessInfo_v1_t``, filled by the unversioned call of older drivers."""

    _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong)]


class Memory(ctypes.Structure):
    """``nvmlMemory_t``."""

    _fields_ = [
        ("total", ctypes.c_ulonglong),
        ("free", ctypes.c_ulonglong),
        ("used", ctypes.c_ulonglong),
    ]


class PciInfo(ctypes.Structure):
    """``nvmlPciInfo_t`` (v3, as ``nvmlDeviceGetPciInfo_v3`` fills it)."""

    _fields_ = [
        ("busIdLegacy", ctypes.c_char * 16),
        ("domain", ctypes.c_uint),
        ("bus", ctypes.c_uint),
        ("device", ctypes.c_uint),
        ("pciDeviceId", ctypes.c_uint),
        ("pciSubSystemId", ctypes.c_uint),
        ("busId", ctypes.c_char * 32),
    ]


# Newest first: _v3 and _v2 fill nvmlProcessInfo_t, the unversioned call the v1 struct.
PROCESS_CALLS = (
    ("nvmlDeviceGetComputeRunningProcesses_v3", ProcessInfo),
    ("nvmlDeviceGetComputeRunningProcesses_v2", ProcessInfo),
    ("nvmlDeviceGetComputeRunningProcesses", ProcessInfoV1),
)


class LibError(Exception):
    """A library call failed: its name and return code (None: the library lacks it)."""

    def __init__(self, call: str, code: Optional[int]) -> None:
        super().__init__(call, code)
        self.call = call
        self.code = code

    def __str__(self) -> str:
        if self.code is None:
            return self.call + " is missing from the library"
        return f"{self.call} returned {self.code}"


def describe(exc: BaseException) -> str:
    """``TypeName: message``."""
    return f"{type(exc).__name__}: {exc}"


def pci_key(text: Optional[str]) -> Optional[tuple[int, int, int, int]]:
    """(domain, bus, device, function) of ``00000000:07:00.0`` (NVML) or ``0000:07:00.0`` (CUDA)."""
    match = re.search(r"([0-9a-f]+):([0-9a-f]+):([0-9a-f]+)\.([0-9a-f]+)", text or "", re.I)
    if match is None:
        return None
    domain, bus, device, function = (int(g, 16) for g in match.groups())
    return domain, bus, device, function


def call(lib: Any, name: str, *args: Any) -> None:
    """Call ``lib.name``; raise LibError unless it returns 0 (NVML_SUCCESS, CUDA_SUCCESS)."""
    try:
        func = getattr(lib, name)
    except AttributeError:
        raise LibError(name, None) from None
    code = func(*args)
    if code != 0:
        raise LibError(name, code)


class Nvml:
    """The few NVML calls this test needs, on ``libnvidia-ml.so.1`` through ctypes."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib

    @classmethod
    def load(cls) -> Nvml:
        """Load and initialise NVML; raises OSError or LibError."""
        name = "nvml.dll" if sys.platform == "win32" else "libnvidia-ml.so.1"
        lib = ctypes.CDLL(name)
        try:
            call(lib, "nvmlInit_v2")
        except LibError as exc:
            if exc.code is not None:
                raise
            call(lib, "nvmlInit")
        return cls(lib)

    def devices(self) -> list[dict[str, Any]]:
        """Every device: its NVML index, handle, PCI bus id, total and used memory."""
        count = ctypes.c_uint(0)
        try:
            call(self.lib, "nvmlDeviceGetCount_v2", ctypes.byref(count))
        except LibError as exc:
            if exc.code is not None:
                raise
            call(self.lib, "nvmlDeviceGetCount", ctypes.byref(count))
        out = []
        for index in range(count.value):
            handle = ctypes.c_void_p()
            call(self.lib, "nvmlDeviceGetHandleByIndex_v2", index, ctypes.byref(handle))
            pci = PciInfo()
            call(self.lib, "nvmlDeviceGetPciInfo_v3", handle, ctypes.byref(pci))
            memory = Memory()
            call(self.lib, "nvmlDeviceGetMemoryInfo", handle, ctypes.byref(memory))
            out.append(
                {
                    "index": index,
                    "handle": handle,
                    "pci_bus_id": pci.busId.decode("ascii", "replace"),
                    "total": int(memory.total),
                    "used": int(memory.used),
                }
            )
        return out

    def process_memory(self, handle: Any, pid: int) -> tuple[Optional[int], str]:
        """Bytes process ``pid`` holds on the device, or None and why not."""
        why = ""
        for name, struct in PROCESS_CALLS:
            try:
                infos = self._processes(name, struct, handle)
            except LibError as exc:
                why = str(exc)
                if exc.code in (None, NVML_ERROR_NOT_SUPPORTED, NVML_ERROR_FUNCTION_NOT_FOUND):
                    continue  # an older driver: try the older call
                return None, why
            mine = [p.usedGpuMemory for p in infos if p.pid == pid]
            if not mine:
                # In a container without the host's PID namespace NVML lists host pids.
                return None, f"NVML lists no compute process with this process's pid {pid}"
            if NVML_VALUE_NOT_AVAILABLE in mine:
                return None, "NVML does not report per-process memory here"
            return int(sum(mine)), ""
        return None, why

    def _processes(self, name: str, struct: Any, handle: Any) -> list[Any]:
        """The compute processes on a device, as ``struct`` records (size first, then fill)."""
        count = ctypes.c_uint(0)
        func = getattr(self.lib, name, None)
        if func is None:
            raise LibError(name, None)
        code = func(handle, ctypes.byref(count), None)
        if code == NVML_SUCCESS:
            return []
        if code != NVML_ERROR_INSUFFICIENT_SIZE:
            raise LibError(name, code)
        # Room for processes that start between the two calls.
        count.value = count.value * 2 + 4
        infos = (struct * count.value)()
        call(self.lib, name, handle, ctypes.byref(count), infos)
        return list(infos[: count.value])

    def shutdown(self) -> None:
        """Release NVML; a failure changes nothing already read."""
        with contextlib.suppress(LibError):
            call(self.lib, "nvmlShutdown")


def cuda_bus_ids(count: int) -> dict[int, str]:
    """PCI bus id of each CUDA device ordinal, from the CUDA driver TensorFlow loaded."""
    name = "nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1"
    try:
        lib = ctypes.CDLL(name)
        call(lib, "cuInit", 0)
    except (OSError, LibError):
        return {}
    out = {}
    for ordinal in range(count):
        device = ctypes.c_int(0)
        buf = ctypes.create_string_buffer(BUS_ID_SIZE)
        try:
            call(lib, "cuDeviceGet", ctypes.byref(device), ordinal)
            call(lib, "cuDeviceGetPCIBusId", buf, BUS_ID_SIZE, device)
        except LibError:
            continue
        out[ordinal] = buf.value.decode("ascii", "replace")
    return out


def run_ops(tf: Any) -> list[dict[str, Any]]:
    """One small op on each GPU, and the peak TensorFlow's allocator needed for it."""
    gpus = []
    for dev in tf.config.list_logical_devices("GPU"):
        name = dev.name[dev.name.find("/device:") :] if "/device:" in dev.name else dev.name
        entry: dict[str, Any] = {"device": name, "ordinal": int(name.rsplit(":", 1)[1])}
        try:
            with tf.device(name):
                out = tf.constant([1.0, 2.0]) * 2.0 + 1.0
            out.numpy()
            entry["memory_needed"] = int(tf.config.experimental.get_memory_info(name)["peak"])
        except Exception as exc:
            entry["error"] = describe(exc)
        gpus.append(entry)
    return gpus


def match(
    entry: dict[str, Any], devices: list[dict[str, Any]], bus_ids: dict[int, str]
) -> Optional[dict[str, Any]]:
    """The NVML device behind a TensorFlow GPU: same PCI bus id, or the only one there is.

    In a fresh process TensorFlow's GPU:N is CUDA ordinal N (no visible_device_list set;
    tensorflow/core/common_runtime/gpu/gpu_device.cc). NVML ignores CUDA_VISIBLE_DEVICES and
    counts in PCI order, so its index is no guide; the bus id is.
    """
    key = pci_key(bus_ids.get(entry["ordinal"]))
    for device in devices:
        if key is not None and pci_key(device["pci_bus_id"]) == key:
            return device
    return devices[0] if len(devices) == 1 else None


def measure(nvml: Nvml, before: dict[str, int], gpus: list[dict[str, Any]], pid: int) -> None:
    """Fill each GPU entry with its total, its free memory before TensorFlow loaded (from
    ``before``, used bytes by bus id) and the memory this process holds there."""
    devices = nvml.devices()
    bus_ids = cuda_bus_ids(len(gpus))
    for entry in gpus:
        device = match(entry, devices, bus_ids)
        if device is None:
            entry["error"] = f"could not match {entry['device']} to an NVML device"
            continue
        entry["pci_bus_id"] = device["pci_bus_id"]
        entry["memory_total"] = device["total"]
        if device["pci_bus_id"] in before:
            # Without memory growth TensorFlow maps all of this but a small reserve, however
            # little of the total it is beside another job.
            entry["memory_free_before"] = max(0, device["total"] - before[device["pci_bus_id"]])
        held, why = nvml.process_memory(device["handle"], pid)
        if held is not None:
            entry["memory_held"], entry["memory_held_method"] = held, "process"
        elif device["pci_bus_id"] in before:
            entry["memory_held"] = max(0, device["used"] - before[device["pci_bus_id"]])
            entry["memory_held_method"] = "device-delta"
            entry["error"] = why
        else:
            entry["error"] = why


def emit(marker: str, doc: dict[str, Any]) -> None:
    """The one result line."""
    sys.stdout.write(marker + " " + json.dumps(doc, sort_keys=True) + "\n")
    sys.stdout.flush()


def watch_parent() -> None:
    """Exit at once when stdin closes: the parent that holds its other end has gone."""

    def wait() -> None:
        with contextlib.suppress(OSError, ValueError):
            sys.stdin.buffer.read()
        os._exit(1)

    threading.Thread(target=wait, name="watch-parent", daemon=True).start()


def main(argv: list[str]) -> int:
    """Measure and print; the exit status is 0 unless the arguments are bad."""
    if len(argv) < 2 or argv[2:] not in ([], ["--watch-parent"]):
        sys.stderr.write("usage: memory_held.py MARKER [--watch-parent]\n")
        return 2
    marker = argv[1]
    if argv[2:]:
        watch_parent()
    doc: dict[str, Any] = {"event": "memory-held", "pid": os.getpid(), "nvml_error": None}
    nvml = None
    before: dict[str, int] = {}
    try:
        nvml = Nvml.load()
        # Before TensorFlow loads: the baseline for the device-delta fallback.
        before = {d["pci_bus_id"]: d["used"] for d in nvml.devices()}
    except (OSError, LibError) as exc:
        doc["nvml_error"] = describe(exc)
    try:
        import tensorflow as tf  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: PLC0415
    except BaseException as exc:  # SystemExit and KeyboardInterrupt raised by an import too
        emit(marker, {"event": "import-error", "error": describe(exc)})
        return 0
    gpus = run_ops(tf)
    doc["status"] = "ok" if gpus else "no-gpu"
    if gpus and nvml is not None:
        try:
            measure(nvml, before, gpus, os.getpid())
        except (OSError, LibError) as exc:
            doc["nvml_error"] = describe(exc)
    if nvml is not None:
        nvml.shutdown()
    for entry in gpus:
        del entry["ordinal"]
    doc["gpus"] = gpus
    emit(marker, doc)
    return 0


if __name__ == "__main__":
    _status = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip TensorFlow's atexit handlers and slow shutdown; the result is already flushed.
    os._exit(_status)
