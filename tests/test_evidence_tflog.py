"""TensorFlow's own log lines read into typed events: prefixes, families, what sonames imply."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.evidence import tflog
from tfdoctor.evidence.tflog import (
    CudaError,
    DriverMismatch,
    DriverNotFound,
    DriverTooOld,
    DriverVersion,
    GpuIgnored,
    GpuRegistrationSkipped,
    HandleFailed,
    LibdeviceMissing,
    LibraryNotLoaded,
    LogLine,
    NcclError,
    NoKernelsForGpu,
    OutOfMemory,
    PtxasProblem,
    TensorRTMissing,
    VersionMismatch,
    error_lines,
    parse_line,
    ptxas_path_shown,
    read_events,
)
from tfdoctor.signatures import load_signatures

LOGS = Path(__file__).parent / "data" / "logs"
SIGNATURES = load_signatures()

# --- prefixes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(
            "2021-04-09 19:52:41.024315: W tensorflow/stream_executor/platform/default/"
            "dso_loader.cc:60] Could not load dynamic library 'libcudart.so.11.0'",
            LogLine(
                "W",
                "tensorflow/stream_executor/platform/default/dso_loader.cc:60",
                "Could not load dynamic library 'libcudart.so.11.0'",
            ),
            id="tf-logger-2.15",
        ),
        pytest.param(
            "E0000 00:00:1744708234.717753 1370911 cuda_dnn.cc:8579] Unable to register",
            LogLine("E", "cuda_dnn.cc:8579", "Unable to register"),
            id="absl-2.16",
        ),
        pytest.param(
            "W0501 12:00:00.123456   42 gpu_device.cc:2344] Cannot dlopen some GPU libraries.",
            LogLine("W", "gpu_device.cc:2344", "Cannot dlopen some GPU libraries."),
            id="absl-initialised",
        ),
        pytest.param(
            "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register",
            LogLine(
                "E",
                "external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261",
                "Unable to register",
            ),
            id="timestamp-cut-off",
        ),
        pytest.param(
            "  ImportError: libcublas.so.9.0: cannot open shared object file  ",
            LogLine("", "", "ImportError: libcublas.so.9.0: cannot open shared object file"),
            id="no-prefix",
        ),
    ],
)
def test_prefixes_are_read(line: str, expected: LogLine) -> None:
    assert parse_line(line) == expected


# --- events -----------------------------------------------------------------------------------

EVENTS = [
    pytest.param(
        "2021-01-02 20:12:26.425425: W tensorflow/stream_executor/platform/default/dso_loader.cc:"
        "60] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
        "cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/lib",
        LibraryNotLoaded(
            1,
            "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
            "cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/lib",
            "libcudart.so.11.0",
            "libcudart.so.11.0: cannot open shared object file: No such file or directory",
            "/usr/lib",
        ),
        id="dso-loader",
    ),
    pytest.param(
        "2020-02-04 15:57:41.076301: I tensorflow/stream_executor/platform/default/dso_loader.cc:"
        "53] Could not dlopen library 'libcurand.so.10.0'; dlerror: x",
        LibraryNotLoaded(
            1, "Could not dlopen library 'libcurand.so.10.0'; dlerror: x", "libcurand.so.10.0", "x"
        ),
        id="dso-loader-tf1.14",
    ),
    pytest.param(
        "Could not load library libcudnn_ops_infer.so.8. Error: libcublas.so.11: cannot open "
        "shared object file: No such file or directory",
        LibraryNotLoaded(
            1,
            "Could not load library libcudnn_ops_infer.so.8. Error: libcublas.so.11: cannot open "
            "shared object file: No such file or directory",
            "libcublas.so.11",
            "cannot open shared object file: No such file or directory",
        ),
        id="cudnn-loading-its-part",
    ),
    pytest.param(
        "ImportError: libcudnn.so.7 cannot open shared object file: No such file or directory",
        LibraryNotLoaded(
            1,
            "ImportError: libcudnn.so.7 cannot open shared object file: No such file or directory",
            "libcudnn.so.7",
            "cannot open shared object file: No such file or directory",
        ),
        id="import-retyped-without-colon",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 7201 "
        "(compatibility version 7200) but source was compiled with 7004 (compatibility version "
        "7000).  If using a binary install, upgrade your CuDNN library to match.",
        VersionMismatch(1, "", "cuDNN", "7.2.1", "7.0.4"),
        id="cudnn-mismatch-integers",
    ),
    pytest.param(
        "E0000 00:00:1744708234.717753 1370911 cuda_dnn.cc:447] Loaded runtime CuDNN library: "
        "9.1.0 but source was compiled with: 9.3.0.  CuDNN library needs to have matching major",
        VersionMismatch(1, "", "cuDNN", "9.1.0", "9.3.0"),
        id="cudnn-mismatch-absl",
    ),
    pytest.param(
        "2020-04-12 10:31:21.744339: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1641] "
        "Ignoring visible gpu device (device: 0, name: GeForce GT 730, pci bus id: 0000:01:00.0, "
        "compute capability: 3.5) with Cuda compute capability 3.5. The minimum required Cuda "
        "capability is 3.7.",
        GpuIgnored(1, "", "GeForce GT 730", "3.5", "3.7"),
        id="gpu-ignored",
    ),
    pytest.param(
        "W gpu_device.cc:1703] TensorFlow was not built with CUDA kernel binaries compatible with "
        "compute capability 8.6. CUDA kernels will be jit-compiled from PTX",
        NoKernelsForGpu(1, "", "8.6"),
        id="no-kernels",
    ),
    pytest.param(
        "E0000 00:00:1795971381.226757    3751 cuda_platform.cc:52] failed call to cuInit: "
        "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)",
        CudaError(1, "", "cuInit", "", 303),
        id="cuinit-number-absl",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:318] failed call to cuInit: "
        "CUDA_ERROR_UNKNOWN: unknown error",
        CudaError(1, "", "cuInit", "CUDA_ERROR_UNKNOWN", 999),
        id="cuinit-name",
    ),
    pytest.param(
        "tensorflow.python.framework.errors_impl.InternalError: cudaGetDevice() failed. Status: "
        "CUDA driver version is insufficient for CUDA runtime version",
        DriverTooOld(1, ""),
        id="driver-insufficient",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:306] kernel version 390.77.0 does "
        "not match DSO version 396.37.0 -- cannot find working devices in this configuration",
        DriverMismatch(1, "", "390.77.0", "396.37.0"),
        id="driver-dso-mismatch",
    ),
    pytest.param(
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:189] kernel reported version is: "
        "352.63.0",
        DriverVersion(1, "", "kernel", "352.63.0"),
        id="driver-version-kernel",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:360] Possibly insufficient driver version: "
        "396.26.0",
        DriverVersion(1, "", "cudnn", "396.26.0"),
        id="driver-version-cudnn-hint",
    ),
    pytest.param(
        "W asm_compiler.cc:235] The ptxas error was: ptxas fatal   : Value 'sm_86' is not "
        "defined for option 'gpu-name'",
        PtxasProblem(1, "", "unknown-arch", arch="sm_86"),
        id="ptxas-unknown-arch",
    ),
    pytest.param(
        "W nvptx_compiler.cc:765] The NVIDIA driver's CUDA version is 12.4 which is older than "
        "the PTX compiler version 12.5.82. Because the driver is older than the PTX compiler "
        "version, XLA is disabling parallel compilation, which may slow down compilation.",
        PtxasProblem(1, "", "newer-than-driver", ptxas="12.5.82", other="12.4"),
        id="ptxas-newer-than-driver",
    ),
    pytest.param(
        "W nvptx_compiler.cc:508] *** WARNING *** You are using ptxas 10.1.243, which is older "
        "than 11.1. ptxas before 11.1 is known to miscompile XLA code",
        PtxasProblem(1, "", "too-old", ptxas="10.1.243", other="11.1"),
        id="ptxas-too-old",
    ),
    pytest.param(
        "E0000 00:00:1740000000.000001    4242 ptx_compiler_helpers.cc:75] *** WARNING *** "
        "Invoking ptxas with version 12.5.82, which corresponds to a CUDA version <=12.6.2. CUDA "
        "versions 12.x.y up to and including 12.6.2 miscompile certain edge cases around "
        "clamping.",
        PtxasProblem(1, "", "miscompiles", ptxas="12.5.82", other="12.6.2"),
        id="ptxas-miscompiles",
    ),
    pytest.param(
        "Failed to load in-memory CUBIN: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX "
        "was compiled with an unsupported toolchain.",
        PtxasProblem(1, "", "unsupported-toolchain"),
        id="ptx-unsupported-toolchain",
    ),
    pytest.param(
        "W gpu_backend_lib.cc:530] libdevice not found at ./libdevice.10.bc",
        LibdeviceMissing(1, "", "./libdevice.10.bc"),
        id="libdevice",
    ),
    pytest.param(
        "ResourceExhaustedError: OOM when allocating tensor with shape[25088,4096] and type "
        "float on /job:localhost/replica:0/task:0/device:GPU:1 by allocator GPU_1_bfc",
        OutOfMemory(1, "", "GPU:1"),
        id="oom-tensor",
    ),
    pytest.param(
        "W bfc_allocator.cc:419] Allocator (GPU_0_bfc) ran out of memory trying to allocate "
        "1.53GiB (rounded to 1638400000).  Current allocation summary follows.",
        OutOfMemory(1, "", "GPU:0", 1638400000),
        id="oom-bfc",
    ),
    pytest.param(
        "W bfc_allocator.cc:245] Allocator (GPU_0_bfc) ran out of memory trying to allocate "
        "2.19GiB with freed_by_count=0. The caller indicates that this is not a failure, but may "
        "mean that there could be performance gains if more memory were available.",
        OutOfMemory(1, "", "GPU:0", None, failure=False),
        id="oom-bfc-not-a-failure",
    ),
    pytest.param(
        "E cuda_driver.cc:1002] failed to allocate 10.76G (11552124928 bytes) from device: "
        "CUDA_ERROR_OUT_OF_MEMORY",
        OutOfMemory(1, "", "", 11552124928),
        id="oom-cuda",
    ),
    pytest.param(
        "E cuda_dnn.cc:334] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR",
        HandleFailed(1, "", "cuDNN", "CUDNN_STATUS_INTERNAL_ERROR"),
        id="cudnn-handle",
    ),
    pytest.param(
        "E cuda_blas.cc:238] failed to create cublas handle: CUBLAS_STATUS_ALLOC_FAILED",
        HandleFailed(1, "", "cuBLAS", "CUBLAS_STATUS_ALLOC_FAILED"),
        id="cublas-handle",
    ),
    pytest.param(
        "host:2143:2561 [1] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space",
        NcclError(1, ""),
        id="nccl-warn",
    ),
    pytest.param(
        "InternalError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"
        " ncclSystemError",
        NcclError(1, "", "ncclSystemError"),
        id="nccl-error",
    ),
    pytest.param(
        "W gpu_device.cc:2256] Cannot dlopen some GPU libraries. Please make sure the missing "
        "libraries mentioned above are installed properly.",
        GpuRegistrationSkipped(1, ""),
        id="dlopen-summary",
    ),
    pytest.param(
        "W0000 00:00:1710000000.000000 1 gpu_device.cc:2344] Skipping registering GPU devices...",
        GpuRegistrationSkipped(1, ""),
        id="skipping-registering",
    ),
    pytest.param(
        "I tensorflow/tsl/cuda/cudart_stub.cc:28] Could not find cuda drivers on your machine, "
        "GPU will not be used.",
        DriverNotFound(1, ""),
        id="cudart-stub",
    ),
    pytest.param(
        "E external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:152] kernel driver "
        "does not appear to be running on this host (node7): /proc/driver/nvidia/version does "
        "not exist",
        DriverNotFound(1, "", kernel_module_absent=True),
        id="no-kernel-module",
    ),
    pytest.param(
        "W py_utils.cc:38] TF-TRT Warning: Could not find TensorRT",
        TensorRTMissing(1, ""),
        id="tensorrt",
    ),
]


@pytest.mark.parametrize(("line", "expected"), EVENTS)
def test_one_line_one_event_with_what_it_states(line: str, expected: tflog.Event) -> None:
    events = read_events(line)

    assert len(events) >= 1
    event = next(e for e in events if type(e) is type(expected))
    # The message is the line without its prefix; the rest is what the line states.
    assert event.message == parse_line(line).message
    assert event == dataclasses.replace(expected, message=event.message)


def test_a_line_without_a_family_reports_nothing() -> None:
    noise = (
        "2024-03-30 14:29:58.668656: I tensorflow/core/util/port.cc:113] oneDNN custom "
        "operations are on.\n"
        "I0000 00:00:1710092571.339121   10148 device_compiler.h:186] Compiled cluster using XLA!\n"
        "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1703] CUDA kernels will be "
        "jit-compiled from PTX, which could take 30 minutes or longer.\n"
    )
    assert read_events(noise) == []


def test_each_event_keeps_its_line_number() -> None:
    text = (
        "Epoch 1/3\n"
        "W dso_loader.cc:60] Could not load dynamic library 'libcudnn.so.8'; dlerror: x\n"
        "noise\n"
        "W gpu_device.cc:1757] Cannot dlopen some GPU libraries.\n"
    )
    events = read_events(text, first_line=10)

    assert [(type(e).__name__, e.line) for e in events] == [
        ("LibraryNotLoaded", 11),
        ("GpuRegistrationSkipped", 13),
    ]
    # Each line read on its own numbers the same: the literal search skips no event.
    assert [
        e for n, line in enumerate(text.splitlines(), 10) for e in tflog.read_line(line, n)
    ] == events


def test_what_is_not_in_the_line_stays_unknown() -> None:
    cut = "E cuda_dnn.cc:378] Loaded runtime CuDNN library: but"

    (event,) = read_events(cut)

    assert event == VersionMismatch(1, event.message, "cuDNN", None, None)


# --- what a file name implies -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("soname", "cuda", "cudnn"),
    [
        ("libcudart.so.11.0", "11", None),
        ("libcublas.so.12", "12", None),
        ("libcublasLt.so.13", "13", None),
        ("libcublas.so.10.0", "10.0", None),
        ("libcufft.so.9.0", "9.0", None),
        # From CUDA 11 cuFFT and cuRAND have their own soname versions: no CUDA implied.
        ("libcufft.so.10", None, None),
        ("libcurand.so.10", None, None),
        ("cudart64_101.dll", "10.1", None),
        ("cudart64_110.dll", "11", None),
        # Two digits from "1" on are a major (no CUDA 1.x was); cuFFT's and cuSOLVER's their own.
        ("cublas64_12.dll", "12", None),
        ("cublas64_10.dll", "10", None),
        ("cudart64_92.dll", "9.2", None),
        ("cufft64_10.dll", None, None),
        ("cusolver64_11.dll", None, None),
        ("libcudnn.so.8", None, "8"),
        ("libcudnn_ops_infer.so.8", None, "8"),
        ("cudnn64_9.dll", None, "9"),
        ("libnvinfer.so.7", None, None),
    ],
)
def test_a_soname_implies_a_cuda_or_cudnn_major(
    soname: str, cuda: str | None, cudnn: str | None
) -> None:
    event = LibraryNotLoaded(1, "", soname)

    assert (event.cuda, event.cudnn) == (cuda, cudnn)


def test_unloaded_files_are_listed_once_in_order() -> None:
    log = (
        "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: x\n"
        "W dso_loader.cc:64] Could not load dynamic library 'cublasLt64_11.dll'; dlerror: x\n"
        "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: x\n"
        "ImportError: libcudart.so.12: cannot open shared object file: No such file"
    )
    assert tflog.unloaded_files(read_events(log)) == (
        "libcudnn.so.8",
        "cublasLt64_11.dll",
        "libcudart.so.12",
    )


# --- one reader: the signatures' examples of these families are read as events ---------------

#: Signature -> the event its examples report (the families both readers know).
SIGNATURE_EVENTS: dict[str, type] = {
    "dlopen-cuda-library": LibraryNotLoaded,
    "dlopen-libcuda": LibraryNotLoaded,
    "import-cuda-soname": LibraryNotLoaded,
    "cuda-library-loader": LibraryNotLoaded,
    "dlopen-summary": GpuRegistrationSkipped,
    "cudart-stub-no-driver": DriverNotFound,
    "cudnn-runtime-mismatch": VersionMismatch,
    "cudnn-handle-failed": HandleFailed,
    "cublas-failed": HandleFailed,
    "oom-allocating-tensor": OutOfMemory,
    "oom-allocating-host": OutOfMemory,
    "bfc-ran-out": OutOfMemory,
    "cuda-out-of-memory": OutOfMemory,
    "allocator-out-of-memory": OutOfMemory,
    "cuinit-unknown": CudaError,
    "cuinit-no-device": CudaError,
    "cuinit-invalid-device": CudaError,
    "cuinit-driver-mismatch": CudaError,
    "kernel-dso-mismatch": DriverMismatch,
    "driver-insufficient": DriverTooOld,
    "cuinit-insufficient": DriverTooOld,
    "ignoring-gpu-capability": GpuIgnored,
    "ptx-jit-compile": NoKernelsForGpu,
    "libdevice-not-found": LibdeviceMissing,
    "libdevice-dir-missing": LibdeviceMissing,
    "ptxas-not-found": PtxasProblem,
    "ptxas-unknown-gpu-name": PtxasProblem,
    "ptxas-miscompiles-clamping": PtxasProblem,
    "nccl-shm-segment": NcclError,
    "nccl-shm-no-space": NcclError,
    "tf-trt-missing": TensorRTMissing,
    "cudnn-driver-version": DriverVersion,
}


def examples_not_read_as(examples: Sequence[str], kind: type) -> list[str]:
    """The examples in which the log reader finds no event of ``kind``."""
    return [line for line in examples if kind not in {type(e) for e in read_events(line)}]


@pytest.mark.parametrize("sig_id", sorted(SIGNATURE_EVENTS))
def test_every_example_of_a_family_signature_is_an_event(sig_id: str) -> None:
    sig = SIGNATURES.by_id(sig_id)
    assert sig.examples and examples_not_read_as(sig.examples, SIGNATURE_EVENTS[sig_id]) == []


def test_an_example_the_reader_does_not_see_is_caught() -> None:
    sig = SIGNATURES.by_id("ptxas-not-found")
    planted = (*sig.examples, "Epoch 1/10 - loss: 0.25")
    assert examples_not_read_as(planted, PtxasProblem) == ["Epoch 1/10 - loss: 0.25"]
    assert examples_not_read_as(sig.examples, NcclError) == list(sig.examples)


def event_faults(text: str, events: Sequence[tflog.Event]) -> list[str]:
    """Events out of line order, or whose message is not their line's."""
    faults = [] if [e.line for e in events] == sorted(e.line for e in events) else ["order"]
    lines = text.split("\n")
    return faults + [
        f"line {e.line}: message"
        for e in events
        if not 0 < e.line <= len(lines) or e.message != parse_line(lines[e.line - 1]).message
    ]


def test_every_real_log_reads_into_events_in_line_order_with_their_messages() -> None:
    logs = sorted(LOGS.glob("*.log"))
    assert logs
    kinds = set()
    texts = [log.read_text(encoding="utf-8", errors="replace") for log in logs]
    for log, text in zip(logs, texts):
        events = read_events(text)
        assert event_faults(text, events) == [], log.name
        kinds |= {type(e) for e in events}
    assert {LibraryNotLoaded, VersionMismatch, GpuIgnored, OutOfMemory, NcclError} <= kinds
    # Planted: the events of a log reversed, and one moved to another line.
    text, events = next((t, read_events(t)) for t in texts if len(read_events(t)) > 1)
    assert event_faults(text, events[::-1]) == ["order"]
    moved = dataclasses.replace(events[-1], line=len(text.split("\n")) + 1)
    assert event_faults(text, [*events[:-1], moved]) == [f"line {moved.line}: message"]


# --- the lines that go into the facts' log_errors --------------------------------------------

# Real stderr lines; the first group from TF issues and user reports, the absl ones recorded
# from tensorflow 2.21.0 on a machine without a GPU.
LOG_LINES = [
    pytest.param(
        "2021-04-09 19:52:41.024315: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:60] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
        "libcudart.so.11.0: cannot open shared object file: No such file or directory",
        "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
        "cannot open shared object file: No such file or directory",
        id="dso-loader-libcudart-tf2.4",
    ),
    pytest.param(
        "2022-07-10 15:08:09.276131: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: "
        "libcudnn.so.8: cannot open shared object file: No such file or directory; "
        "LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64",
        "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open "
        "shared object file: No such file or directory; LD_LIBRARY_PATH: "
        "/usr/local/nvidia/lib:/usr/local/nvidia/lib64",
        id="dso-loader-libcudnn-with-ld-library-path",
    ),
    pytest.param(
        "2022-07-10 15:08:09.276917: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1850] "
        "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned "
        "above are installed properly if you would like to use GPU. Follow the guide at "
        "https://www.tensorflow.org/install/gpu for how to download and setup the required "
        "libraries for your platform.",
        "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned "
        "above are installed properly if you would like to use GPU. Follow the guide at "
        "https://www.tensorflow.org/install/gpu for how to download and setup the required "
        "libraries for your platform.",
        id="gpu-device-cannot-dlopen",
    ),
    pytest.param(
        "Skipping registering GPU devices...",
        "Skipping registering GPU devices...",
        id="gpu-device-continuation-line",
    ),
    pytest.param(
        "I0000 00:00:1795971376.044005    3751 cudart_stub.cc:31] Could not find cuda drivers "
        "on your machine, GPU will not be used.",
        "Could not find cuda drivers on your machine, GPU will not be used.",
        id="cudart-stub-no-driver-absl-2.21",
    ),
    pytest.param(
        "E0000 00:00:1795971381.226757    3751 cuda_platform.cc:52] failed call to cuInit: "
        "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)",
        "failed call to cuInit: INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)",
        id="cuinit-303-absl-2.21",
    ),
    pytest.param(
        "2017-08-14 07:28:29.379866: E tensorflow/stream_executor/cuda/cuda_driver.cc:406] "
        "failed call to cuInit: CUDA_ERROR_NO_DEVICE",
        "failed call to cuInit: CUDA_ERROR_NO_DEVICE",
        id="cuinit-no-device-tf1",
    ),
    pytest.param(
        "2024-05-10 11:33:15.185131: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] "
        "TF-TRT Warning: Could not find TensorRT",
        "TF-TRT Warning: Could not find TensorRT",
        id="tf-trt-warning",
    ),
    pytest.param(
        " W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not "
        "find TensorRT",
        "TF-TRT Warning: Could not find TensorRT",
        id="level-prefix-without-timestamp",
    ),
    pytest.param(
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: "
        "cannot open shared object file: No such file or directory",
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: "
        "cannot open shared object file: No such file or directory",
        id="cudnn-sublibrary-unprefixed",
    ),
    pytest.param(
        "2021-03-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:60] Could not load dynamic library 'cudart64_110.dll'; dlerror: "
        "cudart64_110.dll not found",
        "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found",
        id="dso-loader-windows-dll",
    ),
    # Informational lines are left out.
    pytest.param(
        "I0000 00:00:1795971376.345104    3751 cpu_feature_guard.cc:227] This TensorFlow binary "
        "is optimized to use available CPU instructions in performance-critical operations.",
        None,
        id="cpu-feature-guard-absl-2.21",
    ),
    pytest.param(
        "To enable the following instructions: AVX2 FMA, in other operations, rebuild "
        "TensorFlow with the appropriate compiler flags.",
        None,
        id="cpu-feature-guard-continuation",
    ),
    pytest.param(
        "2021-04-09 19:52:41.024341: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] "
        "Ignore above cudart dlerror if you do not have a GPU set up on your machine.",
        None,
        id="cudart-stub-ignore-hint",
    ),
    pytest.param(
        "2024-06-19 16:06:44.995157: I tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:49] Successfully opened dynamic library libcudart.so.11.0",
        None,
        id="dso-loader-success",
    ),
    pytest.param(
        "2023-10-09 13:36:23.355516: E tensorflow/compiler/xla/stream_executor/cuda/"
        "cuda_dnn.cc:9342] Unable to register cuDNN factory: Attempting to register factory "
        "for plugin cuDNN when one has already been registered",
        None,
        id="duplicate-cudnn-factory",
    ),
    pytest.param(
        "2024-03-30 14:29:58.668656: I tensorflow/core/util/port.cc:113] oneDNN custom "
        "operations are on. You may see slightly different numerical results due to "
        "floating-point round-off errors from different computation orders. To turn them off, "
        "set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.",
        None,
        id="onednn-note",
    ),
    pytest.param(
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
        None,
        id="absl-init-warning",
    ),
]


@pytest.mark.parametrize(("line", "expected"), LOG_LINES)
def test_error_lines_of_one_line(line: str, expected: str | None) -> None:
    assert error_lines(line + "\n") == (() if expected is None else (expected,))


def test_error_lines_recorded_stderr_deduplicates() -> None:
    # `import tensorflow; tf.config.list_physical_devices()` with tensorflow 2.21.0, no GPU.
    stderr = (
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n"
        "I0000 00:00:1795971376.044005    3751 cudart_stub.cc:31] Could not find cuda drivers "
        "on your machine, GPU will not be used.\n"
        "I0000 00:00:1795971376.345104    3751 cpu_feature_guard.cc:227] This TensorFlow binary "
        "is optimized to use available CPU instructions in performance-critical operations.\n"
        "To enable the following instructions: AVX2 FMA, in other operations, rebuild "
        "TensorFlow with the appropriate compiler flags.\n"
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n"
        "I0000 00:00:1795971380.641726    3751 cudart_stub.cc:31] Could not find cuda drivers "
        "on your machine, GPU will not be used.\n"
        "E0000 00:00:1795971381.226757    3751 cuda_platform.cc:52] failed call to cuInit: "
        "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)"
    )

    assert error_lines(stderr) == (
        "Could not find cuda drivers on your machine, GPU will not be used.",
        "failed call to cuInit: INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)",
    )


def test_nccl_results_without_error_in_their_names_are_read() -> None:
    (event,) = read_events(
        "NCCL failure: ncclInvalidUsage: invalid usage (run with NCCL_DEBUG=WARN)"
    )
    assert event == NcclError(1, event.message, "ncclInvalidUsage")


def test_a_huge_line_keeps_its_start_only() -> None:
    line = (
        "W bfc_allocator.cc:419] Allocator (GPU_0_bfc) ran out of memory trying to allocate 1GiB "
    )
    (event,) = read_events(line + "x" * 10_000_000)
    assert isinstance(event, OutOfMemory) and event.device == "GPU:0"
    assert len(event.message) == tflog.MAX_MESSAGE


def test_nccl_info_lines_are_not_errors() -> None:
    info = "host:1:2 [0] NCCL INFO Channel 00/02 :    0   1\nhost:1:2 [0] NCCL INFO Connected"
    failed = (
        "INTERNAL: NCCL operation ncclGroupEnd() failed: unhandled system error (run with "
        "NCCL_DEBUG=INFO for details)"
    )
    assert read_events(info) == []
    assert [type(e) for e in read_events(failed)] == [NcclError]


def test_cudnns_mismatch_is_read_in_either_casing() -> None:
    # cuda_dnn.cc writes "CuDNN"; the same line is pasted and printed as "cuDNN" too.
    for word in ("CuDNN", "cuDNN"):
        line = (
            "E tensorflow/stream_executor/cuda/cuda_dnn.cc:359] Loaded runtime "
            f"{word} library: 8.0.5 but source was compiled with: 8.1.0"
        )
        found = [e for e in tflog.read_line(line) if isinstance(e, tflog.VersionMismatch)]
        assert [(e.loaded, e.compiled) for e in found] == [("8.0.5", "8.1.0")]


def test_the_ptxas_signature_and_the_reader_share_one_home_for_xlas_words() -> None:
    # The signature writes the words as a named part: one list, read by both.
    assert tflog.PTXAS_MISSING_WORDS in SIGNATURES.by_id("ptxas-not-found").pattern.pattern


def test_the_no_kernel_image_signature_and_the_reader_share_one_home_for_cudas_words() -> None:
    assert tflog.NO_KERNEL_IMAGE_WORDS in SIGNATURES.by_id("no-kernel-image").pattern.pattern


@pytest.mark.parametrize(
    ("text", "line"),
    [
        pytest.param(
            "2020-08-01 03:45:09.105836: F tensorflow/core/kernels/conv_2d_gpu.h:710] "
            "Non-OK-status: GpuLaunchKernel(...) status: Internal: no kernel image is "
            "available for execution on the device",
            "no kernel image is available",
            id="runtime-message",
        ),
        pytest.param(
            "I ok\nRuntimeError: CUDA runtime implicit initialization on GPU:0 failed. Status: "
            "device kernel image is invalid\n",
            "device kernel image is invalid",
            id="invalid-kernel-image",
        ),
        pytest.param(
            "E cuda_driver.cc] failed call to cuModuleLoadData: CUDA_ERROR_NO_BINARY_FOR_GPU",
            "CUDA_ERROR_NO_BINARY_FOR_GPU",
            id="driver-api-name",
        ),
        pytest.param("CUDA error: cudaErrorNoKernelImageForDevice", "cudaError", id="runtime-name"),
        pytest.param(
            "F relu_op_gpu.cu.cc:130] Non-OK-status: GpuLaunchKernel(ReluKernel) status: Internal: "
            "invalid device function",
            "invalid device function",
            id="invalid-device-function",
        ),
        pytest.param(
            "CUDA error: cudaErrorInvalidDeviceFunction", "cudaError", id="device-function-name"
        ),
        pytest.param("I gpu_device.cc] Created device /GPU:0", None, id="none"),
    ],
)
def test_cuda_refusing_the_builds_gpu_code_is_read_in_each_api(
    text: str, line: Optional[str]
) -> None:
    found = tflog.gpu_code_refused(text)
    if line is None:
        assert found is None
    else:
        assert found is not None and line in found and "\n" not in found


@pytest.mark.parametrize(
    ("text", "size"),
    [
        pytest.param("1023B", 1023, id="bytes"),
        pytest.param("312.50MiB", int(312.5 * 2**20), id="mebibytes"),
        pytest.param("5.80GiB", int(5.8 * 2**30), id="gibibytes"),
        pytest.param("5.80 apples", None, id="not-a-size"),
    ],
)
def test_sizes_as_tensorflow_prints_them(text: str, size: Optional[int]) -> None:
    assert tflog.readable_bytes(text) == size


# --- Windows DLL names: one decoder ----------------------------------------------------------

#: The decoders the DLL rule had before it had one home, kept here as the reference the one
#: decoder must agree with: the CUDA table's reading (library, digits) and the CUDA release's.
_FORMER_TABLE_DLL = re.compile(r"(?P<library>[A-Za-z]+?)64_(?P<version>\d+)\.dll", re.IGNORECASE)
_FORMER_TOOLKIT_DLL = re.compile(
    r"(?:cudart|cublas|cublasLt|cufft|curand|cusolver|cusparse|nvrtc)64_(\d{1,2})(\d)\.dll$",
    re.IGNORECASE,
)


def _former_cuda(name: str) -> Optional[str]:
    """The CUDA release the former toolkit decoder read from a DLL name."""
    dll = _FORMER_TOOLKIT_DLL.search(name)
    if dll is None:
        return None
    digits = dll.group(1) + dll.group(2)
    if len(digits) == 2 and digits.startswith("1"):
        return digits if name.lower().startswith(("cudart", "cublas")) else None
    major = int(digits[:-1])
    return str(major) if major >= 11 else f"{major}.{digits[-1]}"


_LIBRARIES = (
    "cudart",
    "cublas",
    "cublasLt",
    "cufft",
    "curand",
    "cusolver",
    "cusparse",
    "nvrtc",
    "cudnn",
    "cupti",
    "nvinfer",
    "CUDART",
    "cuBLAS",
)
_DIGITS = ("7", "8", "9", "10", "11", "12", "13", "64", "80", "90", "92", "100", "101", "102")
_DLL_NAMES = [
    f"{lib}64_{digits}.{ext}"
    for lib in _LIBRARIES
    for digits in (*_DIGITS, "110", "120", "1100")
    for ext in ("dll", "DLL")
]
#: Every soname version the CUDA table or a cuDNN major can hold.
_SONAMES = ("7", "8", "9", "10", "11", "12", "13", "9.0", "9.2", "10.0", "10.1", "10.2", "11.0")


@pytest.mark.parametrize("name", _DLL_NAMES)
def test_a_dll_name_decodes_as_both_former_decoders_read_it(name: str) -> None:
    dll = tflog.windows_dll(name)
    former = _FORMER_TABLE_DLL.fullmatch(name)
    assert former is not None and dll is not None
    assert dll.library == former.group("library") and dll.digits == former.group("version")
    # The table's soname versions it stands for are those the former dotless comparison took.
    for soname in _SONAMES:
        assert (dll.soname == soname) == (soname.replace(".", "") == former.group("version"))
    assert dll.cuda == _former_cuda(name)
    assert tflog.cuda_of_soname(name) == _former_cuda(name)


@pytest.mark.parametrize(
    ("name", "library", "soname", "cuda"),
    [
        ("cudart64_110.dll", "cudart", "11.0", "11"),
        ("cudart64_101.dll", "cudart", "10.1", "10.1"),
        ("cudart64_92.dll", "cudart", "9.2", "9.2"),
        ("cublas64_11.dll", "cublas", "11", "11"),
        ("cublasLt64_12.dll", "cublasLt", "12", "12"),
        ("cusolver64_10.dll", "cusolver", "10", None),
        ("cusolver64_100.dll", "cusolver", "10.0", "10.0"),
        ("cudnn64_8.dll", "cudnn", "8", None),
        (" cufft64_10.dll\n", "cufft", "10", None),
    ],
)
def test_a_dll_name_gives_its_library_soname_and_cuda(
    name: str, library: str, soname: str, cuda: Optional[str]
) -> None:
    dll = tflog.windows_dll(name)
    assert dll is not None
    assert (dll.library, dll.soname, dll.cuda) == (library, soname, cuda)


@pytest.mark.parametrize(
    "name", ["libcudart.so.11.0", "nvrtc64_112_0.dll", "nvcuda.dll", "cudart64.dll", ""]
)
def test_a_name_of_another_form_is_no_cuda_dll(name: str) -> None:
    assert tflog.windows_dll(name) is None


@pytest.mark.parametrize(
    ("text", "majors"),
    [
        ("/usr/local/cuda-13/bin/ptxas\n", {13}),
        ("export PATH=/usr/local/cuda-12.4/bin:$PATH\n", {12}),
        ("Successfully installed nvidia-cuda-nvcc-cu12-12.3.107\n", {12}),
        ("nvidia-cuda-nvcc                 13.0.48\n", {13}),
        ("C:\\venv\\Lib\\site-packages\\nvidia\\cu13\\bin\\ptxas.exe\n", {13}),
        ("/usr/local/cuda/bin/ptxas\n", set()),
    ],
    ids=["major-dir", "release-dir", "wheel-cu12", "wheel-13", "grouped-dir", "unversioned"],
)
def test_the_toolkit_majors_a_log_shows(text: str, majors: set[int]) -> None:
    assert set(tflog.toolkit_majors_shown(text)) == majors


@pytest.mark.parametrize(
    ("text", "path"),
    [
        pytest.param(
            "W asm_compiler.cc:234] Used ptxas at /usr/local/cuda-11.2/bin/ptxas",
            "/usr/local/cuda-11.2/bin/ptxas",
            id="used",
        ),
        pytest.param(
            "I cuda_asm_compiler.cc:52] Using ptxas at C:\\CUDA\\v11.2\\bin\\ptxas.exe",
            "C:\\CUDA\\v11.2\\bin\\ptxas.exe",
            id="using-windows",
        ),
        pytest.param(
            "W redzone_allocator.cc:317] UNIMPLEMENTED: /opt/cuda/bin/ptxas ptxas too old. "
            "Falling back to the driver to compile.",
            "/opt/cuda/bin/ptxas",
            id="unimplemented",
        ),
        pytest.param("W asm_compiler.cc:234] Used ptxas at ptxas", None, id="bare-name"),
    ],
)
def test_the_ptxas_path_xla_names(text: str, path: Optional[str]) -> None:
    assert ptxas_path_shown(text) == path


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("--xla_gpu_cuda_data_dir=/opt/envs/a/lib/\n", "/opt/envs/a/lib", id="echo"),
        pytest.param(
            "export XLA_FLAGS='--xla_gpu_autotune_level=0 --xla_gpu_cuda_data_dir=/usr/cuda'\n",
            "/usr/cuda",
            id="quoted-among-others",
        ),
        # Each root on a log line of its own, the first the flag's.
        pytest.param(
            "XLA_FLAGS=--xla_gpu_cuda_data_dir=/opt/cuda-11.1\n"
            "W xla/service/gpu/nvptx_compiler.cc:76] Searched for CUDA in the following "
            "directories:\n"
            "W xla/service/gpu/nvptx_compiler.cc:79]   /opt/cuda-11.1\n",
            "/opt/cuda-11.1",
            id="searched-first-prefixed",
        ),
        pytest.param(
            "XLA_FLAGS=--xla_gpu_cuda_data_dir=/opt/cuda-11.1\n"
            "Searched for CUDA in the following directories:\n  ./cuda_sdk_lib\n",
            None,
            id="searched-default",
        ),
        pytest.param(
            "setting the environment variable XLA_FLAGS=--xla_gpu_cuda_data_dir=/path/to/cuda "
            "will work.\n",
            None,
            id="xla-advice",
        ),
        # A value quoted on its own runs to its quote, spaces and all.
        pytest.param(
            "export XLA_FLAGS=--xla_gpu_cuda_data_dir='/opt/my cuda/11.8'\n",
            "/opt/my cuda/11.8",
            id="quoted-value",
        ),
        # A Windows path is not read: the fix's commands are a POSIX shell's.
        pytest.param(
            "set XLA_FLAGS=--xla_gpu_cuda_data_dir=C:\\Program Files\\NVIDIA GPU Computing "
            "Toolkit\\CUDA\\v11.2\n",
            None,
            id="windows",
        ),
    ],
)
def test_the_xla_data_dir_a_log_shows_set(text: str, expected: Optional[str]) -> None:
    assert tflog.xla_data_dir_shown(text) == expected


@pytest.mark.parametrize(
    ("name", "toolkit"),
    [
        ("libcudart.so.10.2", True),
        ("cuBLAS64_11.dll", True),  # Windows names are not case-sensitive
        ("libnvJitLink.so.12", True),
        ("libcupti.so.11.8", True),
        ("libcudnn.so.8", False),  # cuDNN, NCCL and TensorRT are separate downloads
        ("libnccl.so.2", False),
        ("libnvinfer.so.8", False),
    ],
)
def test_the_toolkits_own_libraries_are_one_list(name: str, toolkit: bool) -> None:
    assert tflog.is_toolkit_library(name) is toolkit
