"""The NVIDIA GPU stack's own messages, in the words TensorFlow's stream executor, XLA, the CUDA
driver and runtime APIs, cuDNN and cuBLAS print them, each read as the cause its code path
means. The lines below are written here; the words are the programs' (sources under the
table). "new" marks a reading added with this table; the others are guarded against change.

Each entry: the message (the releases that print it): the cause [sources below].

- `failed call to cuInit: CUDA_ERROR_NO_DEVICE` (TF 1.x-2.x): cuda-visible-devices-hidden [1]
- `Status: no CUDA-capable device is detected` (runtime API): same (new) [2]
- `CUDA_ERROR_INSUFFICIENT_DRIVER`, `..._COMPAT_NOT_SUPPORTED_ON_DEVICE` (driver API):
  driver-too-old [3]
- `CUDA driver version is insufficient for CUDA runtime version` (runtime API): driver-too-old [2]
- `forward compatibility was attempted on non supported HW` (runtime API): same (new) [2]
- `failed call to cuInit: CUDA_ERROR_UNKNOWN`, `UNKNOWN ERROR (999)` (TF 1.x-2.x):
  cuinit-unknown-error [1]
- `Status: unknown error` (cudaErrorUnknown, TensorFlow's sentence) (runtime API): same (new) [2, 6]
- `failed call to cuInit: UNKNOWN ERROR (303)` (TF 1.x): container-no-gpu (note) [3]
- `CUDA_ERROR_SYSTEM_DRIVER_MISMATCH` (driver API): driver-version-mismatch [3]
- `system has unsupported display driver / cuda driver combination` (runtime API): same (new) [2]
- `kernel version X does not match DSO version Y` (TF 1.x-2.x): driver-version-mismatch [4]
- `Failed to initialize NVML: Driver/library version mismatch` (NVML): driver-version-mismatch [5]
- `all CUDA-capable devices are busy or unavailable` (runtime API): gpu-busy-or-unavailable [6]
- `CUDA_ERROR_DEVICE_UNAVAILABLE`, `device(s) is/are busy or unavailable` (driver API): same (new)
  [3]
- `CUDA_ERROR_SYSTEM_NOT_READY`, `UNKNOWN ERROR (802)`, 1.x's `CUresult(802)` (driver API):
  fabric-manager-not-running (new) [3, 7]
- `Status: system not yet initialized`, `CUDA error: system not yet initialized` (runtime): same
  (new) [2, 7]
- `CUDA_ERROR_LAUNCH_TIMEOUT`, `the launch timed out and was terminated` (driver, runtime):
  gpu-watchdog-timeout (new cause) [2, 3, 16]
- `CUDA_ERROR_OPERATING_SYSTEM`, `OS call failed or operation not supported on this OS` where the
  log shows WSL (driver, runtime): wsl-driver-broken (new) [2, 3, 17]
- `CUDA_ERROR_OUT_OF_MEMORY` creating the context (TF 1.x-2.x): gpu-out-of-memory [1]
- `Could not find cuda drivers on your machine, GPU will not be used.` (TF 2.14+): cuda-libs-missing
  (note) [8]
- `cudaGetErrorString symbol not found.` (the CUDA runtime stub's words, TF 1.14-2.13) as a failed
  call's status: cuda-libs-missing, naming cudart (new) [21, 22]
- `Error loading CUDA libraries. GPU will not be used.` (the stub's words, TF 2.14+): same, a note
  on a machine that shows no GPU (new) [8]
- `Loaded runtime CuDNN library: X but source was compiled with: Y` (TF 1.x-2.x):
  cudnn-version-mismatch [9]; a newer minor of the same major refused (as 1.x did before cuDNN 7):
  the fix asks for the build's own minor (new) [9, 24]
- `Could not create cudnn handle: CUDNN_STATUS_*` (TF 1.x-2.x): gpu-library-init-failed [9]
- `failed to create cublas handle: CUBLAS_STATUS_*` (TF 1.x-2.x): gpu-library-init-failed [10]
- `CUDNN_STATUS_ARCH_MISMATCH`, `CUBLAS_STATUS_ARCH_MISMATCH` (cuDNN, cuBLAS): gpu-arch-unsupported
  (new) [11, 12]
- `CUDNN_STATUS_VERSION_MISMATCH`, `CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH` (cuDNN 8.0.1+, 9):
  cuda-lib-shadowed (new) [11]
- `failed to make cuFFT batched plan:5` (TF 1.x-2.x): gpu-library-init-failed [13]
- `Ignoring visible gpu device ... minimum required Cuda capability is Y` (TF 1.x-2.x):
  gpu-arch-unsupported [6]
- `Ignoring visible gpu device ... with Cuda multiprocessor count: N` (TF 1.x; later `with core
  count: N`): gpu-too-few-cores (note; the 1.x words new) [6, 23]
- `CUDA_ERROR_UNSUPPORTED_PTX_VERSION` (driver API via XLA): ptxas-too-new [3]
- `no kernel image is available for execution on the device` (runtime API): gpu-arch-unsupported [2]
- `invalid device function` (cudaErrorInvalidDeviceFunction, runtime API): same (new) [2]
- `Failed to allocate request for X (NB) on device ordinal N` (XLA's device allocator):
  gpu-out-of-memory (new) [20]
- `ptxas does not support CC X.Y`, `ptxas too old. Falling back to the driver to compile.`
  (XLA's asm_compiler.cc, TF 2.12+): ptxas-too-old (new) [19]
- `UNKNOWN: JIT compilation failed.` (the op's kernel, beside `[Op:X]` raised) (TF 2.x kernel_gen):
  libdevice-missing (new form) [18]
- `libdevice not found at X` (XLA in TF 2.x): libdevice-missing [14]
- `libdevice is required by this HLO module but was not found at X` (XLA in TF 2.x): same (new) [14,
  15]

1. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/cuda/cuda_driver.cc
2. https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html
3. https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html
4. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/cuda/cuda_diagnostics.cc
5. https://docs.nvidia.com/deploy/nvml-api/group__nvmlReturnValues.html
6. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/core/common_runtime/gpu/gpu_device.cc
7. https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html
8. https://github.com/openxla/xla/blob/main/xla/tsl/cuda/cudart_stub.cc
9. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/cuda/cuda_dnn.cc
10. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/cuda/cuda_blas.cc
11. https://docs.nvidia.com/deeplearning/cudnn/latest/api/cudnn-graph-library.html
12. https://docs.nvidia.com/cuda/cublas/index.html
13. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/cuda/cuda_fft.cc
14. https://github.com/tensorflow/tensorflow/blob/v2.12.0/tensorflow/compiler/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc
15. https://github.com/openxla/xla/blob/main/xla/service/gpu/llvm_gpu_backend/nvptx_backend.cc
16. https://learn.microsoft.com/windows-hardware/drivers/display/tdr-registry-keys
17. https://docs.nvidia.com/cuda/wsl-user-guide/index.html
18. https://github.com/tensorflow/tensorflow/blob/v2.9.0/tensorflow/compiler/mlir/tools/kernel_gen/tf_framework_c_interface.cc
19. https://github.com/tensorflow/tensorflow/blob/v2.14.0/tensorflow/compiler/xla/stream_executor/gpu/asm_compiler.cc
20. https://github.com/openxla/xla/blob/main/xla/stream_executor/stream_executor_memory_allocator.cc
21. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/cuda/cudart_stub.cc
22. https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/cuda/cuda_runtime_10_1.inc
23. https://github.com/tensorflow/tensorflow/blob/v1.12.0/tensorflow/core/common_runtime/gpu/gpu_device.cc
24. https://github.com/tensorflow/tensorflow/blob/v1.12.0/tensorflow/stream_executor/cuda/cuda_dnn.cc
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, one_error, top_error
from tfdoctor.causes import CAUSES
from tfdoctor.findings import Severity

#: TensorFlow's log prefixes of three eras: stream_executor (to 2.11), XLA's inside
#: TensorFlow (2.12-2.14), and the external XLA (2.15 on).
_OLD = "2019-05-02 10:11:12.000001: E tensorflow/stream_executor/cuda/cuda_driver.cc:318] "
_XLA = (
    "2024-05-02 10:11:12.000001: E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] "
)
_STATUS = (
    "tensorflow.python.framework.errors_impl.InternalError: "
    "CUDA runtime implicit initialization on GPU:0 failed. Status: "
)


def _causes_at_warning(text: str) -> set[str]:
    """The causes the report gives at warning or above for ``text``."""
    return {
        x.cause
        for x in explained(text).findings
        if x.severity.rank >= Severity.WARNING.rank and x.cause
    }


#: Messages read before this table was written: each line, the cause it must keep.
_ALREADY_READ = [
    pytest.param(
        _OLD + "failed call to cuInit: CUDA_ERROR_NO_DEVICE",
        "cuda-visible-devices-hidden",
        id="cuinit-no-device",
    ),
    pytest.param(
        _OLD + "failed call to cuInit: CUDA_ERROR_INSUFFICIENT_DRIVER",
        "driver-too-old",
        id="cuinit-insufficient",
    ),
    pytest.param(
        _XLA + "failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error",
        "cuinit-unknown-error",
        id="cuinit-unknown",
    ),
    pytest.param(
        _XLA + "failed call to cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported "
        "display driver / cuda driver combination",
        "driver-version-mismatch",
        id="cuinit-driver-mismatch",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:306] kernel version 450.80.2 does "
        "not match DSO version 460.32.3 -- cannot find working devices in this configuration",
        "driver-version-mismatch",
        id="kernel-dso",
    ),
    pytest.param(
        "Failed to initialize NVML: Driver/library version mismatch",
        "driver-version-mismatch",
        id="nvml-mismatch",
    ),
    pytest.param(
        "InternalError: cudaGetDevice() failed. Status: CUDA driver version is insufficient for "
        "CUDA runtime version",
        "driver-too-old",
        id="runtime-insufficient",
    ),
    pytest.param(
        _STATUS + "all CUDA-capable devices are busy or unavailable",
        "gpu-busy-or-unavailable",
        id="runtime-busy",
    ),
    pytest.param(
        _OLD + "failed call to cuDevicePrimaryCtxRetain: CUDA_ERROR_OUT_OF_MEMORY: out of memory; "
        "total memory reported: 8506048512",
        "gpu-out-of-memory",
        id="ctx-oom",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:319] Loaded runtime CuDNN library: 7.1.4 "
        "but source was compiled with: 7.4.1.  CuDNN library major and minor version needs to "
        "match",
        "cudnn-version-mismatch",
        id="cudnn-loaded-compiled",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] Could not create cudnn handle: "
        "CUDNN_STATUS_INTERNAL_ERROR",
        "gpu-library-init-failed",
        id="cudnn-handle",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_blas.cc:238] failed to create cublas handle: "
        "CUBLAS_STATUS_NOT_INITIALIZED",
        "gpu-library-init-failed",
        id="cublas-handle",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_fft.cc:261] failed to make cuFFT batched plan:5",
        "gpu-library-init-failed",
        id="cufft-plan",
    ),
    pytest.param(
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1700] Ignoring visible gpu device "
        "(device: 0, name: GeForce GT 730, pci bus id: 0000:01:00.0, compute capability: 3.5) "
        "with Cuda compute capability 3.5. The minimum required Cuda capability is 3.7.",
        "gpu-arch-unsupported",
        id="ignoring-capability",
    ),
    pytest.param(
        "InternalError: Failed to load in-memory CUBIN: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the "
        "provided PTX was compiled with an unsupported toolchain.",
        "ptxas-too-new",
        id="ptx-version",
    ),
    pytest.param(
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "gpu-arch-unsupported",
        id="no-kernel-image",
    ),
    pytest.param(
        "W tensorflow/compiler/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:530] "
        "libdevice not found at ./libdevice.10.bc",
        "libdevice-missing",
        id="libdevice-not-found",
    ),
]


@pytest.mark.parametrize(("line", "cause"), _ALREADY_READ)
def test_the_messages_already_read_keep_their_cause(line: str, cause: str) -> None:
    assert cause in _causes_at_warning(line + "\n")


#: Messages read with this table's later additions: the line, its cause, and what the fix
#: then names.
_LATER_READ = [
    # cudaErrorInvalidDeviceFunction: "not compiled for the proper device architecture".
    pytest.param(
        "2021-03-02 10:11:12.000001: F tensorflow/core/kernels/relu_op_gpu.cu.cc:130] "
        "Non-OK-status: GpuLaunchKernel(ReluKernel<T>, config.block_count, "
        "config.thread_per_block, 0, d.stream(), count, input, output) status: Internal: "
        "invalid device function",
        "gpu-arch-unsupported",
        "compute_cap",
        id="kernel-launch-invalid-function",
    ),
    pytest.param(
        _STATUS + "invalid device function", "gpu-arch-unsupported", "compute_cap", id="init"
    ),
    pytest.param(
        "F0311 09:14:02.318822 2201 my_op_gpu.cu.cc:41] Check failed: err == cudaSuccess "
        "(98 vs. 0) invalid device function",
        "gpu-arch-unsupported",
        "compute_cap",
        id="check-failed-invalid-function",
    ),
    # XLA's device allocator without room for a buffer.
    pytest.param(
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Failed to allocate "
        "request for 3.00GiB (3221225472B) on device ordinal 0",
        "gpu-out-of-memory",
        "TF_FORCE_GPU_ALLOW_GROWTH",
        id="xla-allocation",
    ),
    # XLA's later words for a ptxas that does not know the GPU; the fix names its arch.
    pytest.param(
        "2024-02-03 11:22:33.000001: W tensorflow/compiler/xla/stream_executor/gpu/"
        "asm_compiler.cc:231] Falling back to the CUDA driver for PTX compilation; ptxas "
        "does not support CC 9.0",
        "ptxas-too-old",
        "sm_90",
        id="ptxas-falling-back",
    ),
    # A ptxas that does not know Kepler (sm_3x, dropped by CUDA 11 and 12) is newer than the
    # GPU: the GPU is too old for the toolchain and the build.
    pytest.param(
        "2021-02-27 01:33:51.779607: W tensorflow/stream_executor/gpu/asm_compiler.cc:235] "
        "Your CUDA software stack is old. We fallback to the NVIDIA driver for some "
        "compilation. Update your CUDA version to get the best performance. The ptxas error "
        "was: ptxas fatal   : Value 'sm_35' is not defined for option 'gpu-name'",
        "gpu-arch-unsupported",
        "compute capability 3.5",
        id="ptxas-without-kepler",
    ),
    pytest.param(
        "jaxlib.xla_extension.XlaRuntimeError: UNIMPLEMENTED: /usr/local/cuda/bin/ptxas "
        "ptxas too old. Falling back to the driver to compile.",
        "ptxas-too-old",
        "which -a ptxas",
        id="ptxas-unimplemented",
    ),
]


@pytest.mark.parametrize(("line", "cause", "named"), _LATER_READ)
def test_the_messages_read_later_give_their_cause_and_fix(
    line: str, cause: str, named: str
) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == cause
    assert named in fix_text(top)


_XLA_PTXAS_CC = (
    "2025-09-10 08:12:40.118204: W external/local_xla/xla/stream_executor/cuda/"
    "subprocess_compilation.cc:194] Falling back to the CUDA driver for PTX compilation; "
    "ptxas does not support CC {cc}\n"
)


@pytest.mark.parametrize(
    "shown",
    [
        "$ which ptxas\n/usr/local/cuda-13.0/bin/ptxas\n",
        "$ nvcc --version\nCuda compilation tools, release 13.0, V13.0.48\n",
        "$ ls -d /usr/local/cuda-13/bin\n/usr/local/cuda-13/bin\n",
        "$ pip list | grep nvcc\nnvidia-cuda-nvcc          13.0.48\n",
    ],
    ids=["toolkit-dir", "nvcc-release", "major-dir", "nvcc-wheel"],
)
def test_a_cuda13_ptxas_refusing_a_gpu_below_turing_is_the_gpu_too_old(shown: str) -> None:
    # CUDA 13.0 dropped offline compilation for compute capability 5.x to 7.2: a newer ptxas
    # cannot help; a CUDA 12 one still compiles for the GPU.
    top = top_error(explained(shown + _XLA_PTXAS_CC.format(cc="7.0")))
    # The compiler's cause, in its own words: the wheel may well carry code for the GPU.
    assert top.cause == "ptxas-too-old"
    assert top.summary == (
        "The ptxas XLA runs is of CUDA 13, which does not compile for compute capability 7.0"
    )
    fix = fix_text(top)
    assert "CUDA 12 ptxas" in fix and "nvidia-cuda-nvcc-cu12" in fix
    # XLA runs a ptxas on PATH before it looks among its CUDA roots (the wheel's is one).
    assert "off PATH" in fix and "which XLA finds in site-packages" not in fix


@pytest.mark.parametrize(
    ("shown", "cc"),
    [
        ("$ nvcc --version\nCuda compilation tools, release 12.4, V12.4.131\n", "7.0"),
        ("$ nvcc --version\nCuda compilation tools, release 13.0, V13.0.48\n", "12.0"),
        ("", "7.0"),
    ],
    ids=["cuda12-volta", "cuda13-newer-gpu", "no-toolkit-shown"],
)
def test_ptxas_refusing_a_gpu_elsewhere_keeps_the_newer_ptxas(shown: str, cc: str) -> None:
    top = top_error(explained(shown + _XLA_PTXAS_CC.format(cc=cc)))
    assert top.cause == "ptxas-too-old"
    assert "CUDA 12 ptxas" not in fix_text(top)


def test_an_invalid_device_ordinal_is_no_kernel_without_code() -> None:
    line = _STATUS + "invalid device ordinal\n"
    assert "gpu-arch-unsupported" not in _causes_at_warning(line)


def test_the_driver_apis_device_unavailable_is_a_gpu_held_by_another_process() -> None:
    for line in (
        _XLA + "failed call to cuInit: CUDA_ERROR_DEVICE_UNAVAILABLE: "
        "CUDA-capable device(s) is/are busy or unavailable",
        _OLD + "failed call to cuDevicePrimaryCtxRetain: CUDA-capable device(s) is/are busy or "
        "unavailable",
    ):
        top = top_error(explained(line + "\n"))
        assert top.cause == "gpu-busy-or-unavailable"
        assert "compute_mode" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            _XLA + "failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system not yet initialized",
            id="driver-name",
        ),
        pytest.param(_OLD + "failed call to cuInit: UNKNOWN ERROR (802)", id="driver-number"),
        pytest.param(_OLD + "failed call to cuInit: CUresult(802)", id="driver-number-1x"),
        pytest.param(_STATUS + "system not yet initialized", id="runtime-status"),
        pytest.param("RuntimeError: CUDA error: system not yet initialized", id="cuda-error"),
    ],
)
def test_a_system_not_ready_is_fabric_manager(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "fabric-manager-not-running"
    fix = fix_text(top)
    assert "systemctl status nvidia-fabricmanager" in fix
    assert "sudo systemctl enable --now nvidia-fabricmanager" in fix
    # The package of the driver's own branch, read from the driver on that machine.
    assert "nvidia-fabricmanager-$(nvidia-smi --query-gpu=driver_version" in fix


def test_a_kernel_the_display_watchdog_ended() -> None:
    for line in (
        "2020-03-01 10:00:00.000001: E tensorflow/stream_executor/cuda/cuda_event.cc:29] Error "
        "polling for event status: failed to query event: CUDA_ERROR_LAUNCH_TIMEOUT: the launch "
        "timed out and was terminated",
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:1003] failed to enqueue async memcpy "
        "from device to host: CUDA_ERROR_LAUNCH_TIMEOUT",
        "RuntimeError: CUDA error: the launch timed out and was terminated",
    ):
        top = top_error(explained(line + "\n"))
        assert top.cause == "gpu-watchdog-timeout"
        fix = fix_text(top)
        assert "display_active" in fix and "TdrDelay" in fix


def test_another_launch_that_timed_out_is_not_the_gpu() -> None:
    line = "selenium.common.exceptions.TimeoutException: the browser launch timed out after 30s"
    assert "gpu-watchdog-timeout" not in _causes_at_warning(line + "\n")


def test_an_operating_system_error_under_wsl_is_wsls_gpu_support() -> None:
    wsl = "Linux DESKTOP-1 5.15.90.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux\n"
    for line in (
        _XLA + "failed call to cuInit: CUDA_ERROR_OPERATING_SYSTEM: OS call failed or operation "
        "not supported on this OS",
        _STATUS + "OS call failed or operation not supported on this OS",
    ):
        top = top_error(explained(wsl + line + "\n"))
        assert top.cause == "wsl-driver-broken"
        assert "wsl --update" in fix_text(top)


def test_an_operating_system_error_without_wsl_names_no_wsl_fix() -> None:
    line = (
        _XLA + "failed call to cuInit: CUDA_ERROR_OPERATING_SYSTEM: OS call failed or operation "
        "not supported on this OS\n"
    )
    assert "wsl-driver-broken" not in _causes_at_warning(line)


_WSL2 = "Linux DESKTOP-1 5.15.90.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux\n"


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            _XLA + "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is "
            "detected",
            id="no-device",
        ),
        pytest.param(
            _XLA + "failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error", id="unknown"
        ),
        pytest.param(
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
            "sure that the latest NVIDIA driver is installed and running.",
            id="nvidia-smi",
        ),
    ],
)
def test_a_driver_not_reached_under_wsl2_is_wsls_gpu_support(line: str) -> None:
    # Elsewhere a Linux driver's reading (a module to load, a device hidden); under WSL 2 the
    # driver is the Windows host's, reached through what WSL mounts.
    assert "wsl-driver-broken" not in _causes_at_warning(line + "\n")
    report = explained(_WSL2 + line + "\n")
    top = max(report.findings, key=lambda x: x.severity.rank)
    assert top.cause == "wsl-driver-broken"
    assert "wsl --update" in fix_text(top)
    assert not {"driver-not-loaded", "cuinit-unknown-error", "cuda-visible-devices-hidden"} & {
        x.cause for x in report.findings
    }


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("$ uname -r\n4.19.128-microsoft-standard\n", id="kernel-4.19"),
        pytest.param(
            "$ ls -l /dev/dxg\ncrw-rw-rw- 1 root root 10, 63 Mar  1 10:00 /dev/dxg\n", id="dxg"
        ),
        pytest.param("I run TensorFlow in Ubuntu 22.04 on WSL2.\n", id="users-words"),
    ],
)
def test_wsl2_is_read_from_its_older_kernels_and_its_gpu_device(shown: str) -> None:
    smi = (
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
        "sure that the latest NVIDIA driver is installed and running.\n"
    )
    assert top_error(explained(shown + smi)).cause == "wsl-driver-broken"
    # WSL 1's kernel (capital M, no "standard") is not WSL 2's.
    wsl1 = "$ uname -r\n4.4.0-19041-Microsoft\n"
    assert top_error(explained(wsl1 + smi)).cause == "wsl1"


@pytest.mark.parametrize(
    ("said", "wsl2"),
    [
        ("The same script works on WSL2, but fails on my server.\n", False),
        ("On WSL 2 it runs fine; on the cluster node it fails.\n", False),
        ("It works on my laptop but fails under WSL2.\n", True),
        ("TensorFlow does not work on WSL2 any more.\n", True),
    ],
    ids=["works-there-fails-here", "runs-fine-there", "fails-there", "not-working-there"],
)
def test_wsl2_in_the_users_words_counts_only_for_the_failing_run(said: str, wsl2: bool) -> None:
    smi = (
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
        "sure that the latest NVIDIA driver is installed and running.\n"
    )
    causes = {x.cause for x in explained(said + smi).findings}
    assert ("wsl-driver-broken" in causes) is wsl2


def test_wsl2_with_a_gpu_device_created_keeps_the_libraries_reading() -> None:
    # TensorFlow created the GPU device: the Windows driver answered.
    created = (
        "I0000 00:00:1700000000.000000  101 gpu_device.cc:2022] Created device "
        "/job:localhost/replica:0/task:0/device:GPU:0 with 9000 MB memory\n"
    )
    hidden = _XLA + "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device\n"
    assert "wsl-driver-broken" not in _causes_at_warning(_WSL2 + created + hidden)


@pytest.mark.parametrize(
    ("line", "cause"),
    [
        (
            "Failed to initialize NVML: GPU access blocked by the operating system",
            "gpu-access-blocked",
        ),
        (
            "Failed to properly shut down NVML: GPU access blocked by the operating system",
            "gpu-access-blocked",
        ),
        # The NVIDIA Container Toolkit under WSL 2, for `docker run --gpus all`: its words
        # name WSL.
        (
            "docker: Error response from daemon: failed to create task for container: failed "
            "to create shim task: OCI runtime create failed: error running hook #0: exit status "
            "1, stdout: , stderr: nvidia-container-cli: initialization error: WSL environment "
            "detected but no adapters were found: unknown.",
            "wsl-driver-broken",
        ),
    ],
)
def test_nvml_blocked_by_the_operating_system_is_the_systems_gpu_access(
    line: str, cause: str
) -> None:
    top = top_error(explained("$ nvidia-smi\n" + line + "\n"))
    assert top.cause == cause


_NVML_BLOCKED = (
    "$ nvidia-smi\n"
    "Failed to initialize NVML: GPU access blocked by the operating system\n"
    "Failed to properly shut down NVML: GPU access blocked by the operating system\n"
)


def test_nvml_blocked_speaks_of_wsl_only_where_the_log_shows_it() -> None:
    # A Hyper-V guest given a GPU partition, or a container without the device nodes, gets
    # the same refusal: WSL 2's own fix only where the log shows WSL.
    elsewhere = top_error(explained(_NVML_BLOCKED))
    # A cause of its own, whose title names no WSL.
    assert elsewhere.cause == "gpu-access-blocked"
    assert "WSL" not in elsewhere.summary and "WSL" not in CAUSES[elsewhere.cause].title
    assert "wsl --shutdown" not in fix_text(elsewhere)
    assert "Hyper-V" in fix_text(elsewhere) and "--gpus all" in fix_text(elsewhere)
    under_wsl = top_error(explained(_WSL2 + _NVML_BLOCKED))
    assert under_wsl.cause == "wsl-driver-broken"
    assert "wsl --shutdown" in fix_text(under_wsl)
    assert "Hyper-V" not in fix_text(under_wsl)


def test_the_runtimes_words_for_the_driver_results_read_by_name() -> None:
    cases = {
        "unknown error": "cuinit-unknown-error",
        "no CUDA-capable device is detected": "cuda-visible-devices-hidden",
        "forward compatibility was attempted on non supported HW": "driver-too-old",
        "system has unsupported display driver / cuda driver combination": (
            "driver-version-mismatch"
        ),
    }
    for words, cause in cases.items():
        text = "InternalError: cudaGetDevice() failed. Status: " + words + "\n"
        report = explained(text)
        assert report.findings and report.findings[0].cause == cause, words
        assert report.findings[0].severity.rank >= Severity.WARNING.rank
    no_device = explained(_STATUS + "no CUDA-capable device is detected\n").findings[0]
    assert "CUDA_VISIBLE_DEVICES" in fix_text(no_device)
    mismatch = top_error(
        explained(_STATUS + "system has unsupported display driver / cuda driver combination\n")
    )
    assert "reboot" in fix_text(mismatch)


def test_a_library_refusing_the_gpus_architecture_is_the_gpu() -> None:
    for line in (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] Could not create cudnn handle: "
        "CUDNN_STATUS_ARCH_MISMATCH",
        "E tensorflow/stream_executor/cuda/cuda_blas.cc:652] failed to run cuBLAS routine: "
        "CUBLAS_STATUS_ARCH_MISMATCH",
    ):
        report = explained(line + "\n")
        top = top_error(report)
        assert top.cause == "gpu-arch-unsupported"
        assert "compute_cap" in fix_text(top)
        # Not also the handle's candidates (memory, a library's version): the status names it.
        assert "gpu-library-init-failed" not in _causes_at_warning(line + "\n")


def test_cudnn_parts_of_two_releases_are_two_installs_mixed() -> None:
    for status in ("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", "CUDNN_STATUS_VERSION_MISMATCH"):
        line = (
            "2024-05-02 10:11:12.000001: E external/local_xla/xla/stream_executor/cuda/"
            f"cuda_dnn.cc:535] Could not create cudnn handle: {status}"
        )
        top = top_error(explained(line + "\n"))
        assert top.cause == "cuda-lib-shadowed"
        fix = fix_text(top)
        assert "ldconfig -p | grep -E 'libcudnn'" in fix and "grep -i cudnn" in fix
        assert "gpu-library-init-failed" not in _causes_at_warning(line + "\n")


def test_other_library_statuses_stay_the_handles_candidates() -> None:
    for line in (
        "Could not create cudnn handle: CUDNN_STATUS_ALLOC_FAILED",
        "failed to run cuBLAS routine: CUBLAS_STATUS_EXECUTION_FAILED",
    ):
        assert top_error(explained(line + "\n")).cause == "gpu-library-init-failed"


def test_xlas_libdevice_warning_alone_is_libdevice_missing() -> None:
    line = (
        "2023-06-01 09:00:00.000001: W tensorflow/compiler/xla/service/gpu/llvm_gpu_backend/"
        "gpu_backend_lib.cc:274] libdevice is required by this HLO module but was not found at "
        "./libdevice.10.bc"
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == "libdevice-missing"
    assert "xla_gpu_cuda_data_dir" in fix_text(top)


def test_the_run_time_kernel_compiler_failing_as_the_kernel_logs_it() -> None:
    text = (
        "W tensorflow/compiler/xla/service/gpu/nvptx_helper.cc:56] Can't find libdevice "
        "directory ${CUDA_DIR}/nvvm/libdevice\n"
        "2022-08-09 14:54:40.390320: W tensorflow/core/framework/op_kernel.cc:1733] UNKNOWN: JIT "
        "compilation failed.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "libdevice-missing"


def test_another_programs_jit_failure_is_not_libdevice() -> None:
    for line in ("RuntimeError: JIT compilation failed.", "error: JIT compilation failed."):
        assert "libdevice-missing" not in _causes_at_warning(line + "\n")


# --- near misses --------------------------------------------------------------------------------


def test_system_not_yet_initialized_of_another_program_is_not_cuda() -> None:
    for line in (
        "WARNING: logging system not yet initialized, messages are buffered",
        "[Engine] audio subsystem not yet initialized; retrying",
    ):
        assert "fabric-manager-not-running" not in _causes_at_warning(line + "\n")


def test_an_unknown_error_outside_tensorflows_sentence_is_not_cuda() -> None:
    text = "ValueError: Status: unknown error\n"
    assert "cuinit-unknown-error" not in _causes_at_warning(text)


def test_rocms_bitcode_module_is_not_libdevice() -> None:
    line = (
        "E external/local_xla/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:243] bitcode "
        "module is required by this HLO module but was not found at ./opencl.bc"
    )
    assert "libdevice-missing" not in _causes_at_warning(line + "\n")


def test_tensorrts_forward_compatibility_is_not_the_driver() -> None:
    line = (
        "ERROR:tensorflow:Loaded TensorRT 8.2.1 but linked TensorFlow against TensorRT 8.4.0. "
        "TensorRT does not support forward compatibility."
    )
    assert "driver-too-old" not in _causes_at_warning(line + "\n")


def test_the_stacks_info_lines_stay_harmless() -> None:
    text = (
        "2023-06-01 09:00:00.000001: I tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:53] Successfully opened dynamic library libcudnn.so.8\n"
        "2023-06-01 09:00:00.000002: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1510] "
        "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 22302 MB memory:  -> "
        "device: 0, name: NVIDIA A100-SXM4-40GB, pci bus id: 0000:07:00.0, compute capability: "
        "8.0\n"
        "2023-06-01 09:00:00.000003: I tensorflow/stream_executor/cuda/cuda_dnn.cc:384] Loaded "
        "cuDNN version 8101\n"
    )
    assert _causes_at_warning(text) == set()


#: TensorFlow 2.14+'s CUDA runtime stub answering for a libcudart that did not load.
_STUB_LATER = (
    "E0000 00:00:1731000000.123456   12345 cuda_executor.cc:1228] INTERNAL: CUDA Runtime "
    "error: Failed call to cudaGetRuntimeVersion: Error loading CUDA libraries. GPU will not "
    "be used.: Error loading CUDA libraries. GPU will not be used.\n"
)

#: TensorFlow's CUDA runtime stub answering for a libcudart that did not load, in each
#: release's words, as the failed call's status TensorFlow passes on.
_STUB_STATUS = [
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in <module>\n'
        "    with tf.device('/GPU:0'):\n"
        "tensorflow.python.framework.errors_impl.InternalError: cudaGetDevice() failed. Status: "
        "cudaGetErrorString symbol not found.\n",
        id="get-device-1.14-2.13",
    ),
    pytest.param(
        "InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: "
        "cudaGetErrorName symbol not found.\n",
        id="implicit-init-error-name",
    ),
    pytest.param(
        _STUB_LATER
        + "W0000 00:00:1731000000.223456   12345 gpu_device.cc:2344] Cannot dlopen some GPU "
        "libraries. Please make sure the missing libraries mentioned above are installed properly "
        "if you would like to use GPU.\nSkipping registering GPU devices...\n",
        id="runtime-version-2.14-on",
    ),
]


@pytest.mark.parametrize("text", _STUB_STATUS)
def test_the_cuda_runtime_stubs_words_are_libcudart_not_loaded(text: str) -> None:
    top = top_error(explained(text))
    assert (top.cause, top.severity) == ("cuda-libs-missing", Severity.ERROR)
    assert "Missing: cudart" in fix_text(top)


def test_the_stubs_later_words_on_a_machine_without_a_gpu_stay_a_note() -> None:
    found = [x for x in explained(_STUB_LATER).findings if x.cause == "cuda-libs-missing"]
    assert [x.severity for x in found] == [Severity.INFO]


#: nvidia-smi's table listing a GPU: the machine has one, so TensorFlow meant to use it.
_SMI_GPU = (
    "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
    "|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |\n"
    "| 30%   35C    P8    20W / 350W |    512MiB / 24265MiB |      2%      Default |\n"
)


def test_the_stubs_later_words_beside_a_gpu_are_an_error() -> None:
    found = [
        x for x in explained(_SMI_GPU + _STUB_LATER).findings if x.cause == "cuda-libs-missing"
    ]
    assert [x.severity for x in found] == [Severity.ERROR]
    assert "Missing: cudart" in fix_text(found[0])


@pytest.mark.parametrize(
    "text",
    [
        # jaxlib's own CUDA stubs give the same words (jax-ml/jax#5080, #3951, #11828).
        "Traceback (most recent call last):\n"
        '  File "/home/u/run.py", line 5, in <module>\n'
        "    key = jax.random.PRNGKey(0)\n"
        '  File "/home/u/.local/lib/python3.8/site-packages/jax/_src/random.py", line 75, in '
        "PRNGKey\n"
        "jax._src.traceback_util.UnfilteredStackTrace: RuntimeError: CUDA operation failed: "
        "cudaGetErrorString symbol not found\n",
        "jax._src.traceback_util.UnfilteredStackTrace: jaxlib.xla_extension.XlaRuntimeError: "
        "INTERNAL: CustomCall failed: jaxlib/cuda/cuda_prng_kernels.cc:32: operation "
        "cudaGetLastError() failed: cudaGetErrorString symbol not found.\n",
        ">>> import jax\n>>> jax.devices()\n" + _SMI_GPU + _STUB_LATER,
    ],
    ids=["jax-frames", "jaxlib-error", "jax-import"],
)
def test_the_stubs_words_where_the_log_shows_jax_are_not_tensorflows(text: str) -> None:
    assert not any(x.cause == "cuda-libs-missing" for x in explained(text).findings)


@pytest.mark.parametrize(
    "line",
    [
        # Another stub's fatal line: a symbol a loaded library lacks, not the runtime unloaded.
        "2024-05-01 10:00:00.123456: F external/local_tsl/tsl/cuda/cublas_stub.cc:30] "
        "cublasGetSmCountTarget symbol not found.",
        "OSError: dlsym: cudaGetErrorStringEx symbol not found in libfoo.so",
        "RuntimeError: Error loading CUDA libraries from the plugin directory",
    ],
    ids=["cublas-stub-fatal", "other-symbol", "other-words"],
)
def test_other_symbol_not_found_words_are_not_the_runtime_stub(line: str) -> None:
    assert "cuda-libs-missing" not in _causes_at_warning(line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        "2018-10-31 10:35:54.318150: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1469] "
        "Ignoring visible gpu device (device: 1, name: Quadro K4000, pci bus id: 0000:08:00.0, "
        "compute capability: 3.0) with Cuda multiprocessor count: 4. The minimum required count "
        "is 8. You can adjust this requirement with the env var TF_MIN_GPU_MULTIPROCESSOR_COUNT.",
        "2020-05-21 15:44:36.450426: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1688] "
        "Ignoring visible gpu device (device: 1, name: GeForce GT 1030, pci bus id: 0000:04:00.0, "
        "compute capability: 6.1) with core count: 3. The minimum required count is 8. You can "
        "adjust this requirement with the env var TF_MIN_GPU_MULTIPROCESSOR_COUNT.",
    ],
    ids=["1.x-multiprocessor-count", "2.x-core-count"],
)
def test_a_gpu_ignored_for_its_multiprocessors_is_a_note_in_each_releases_words(
    line: str,
) -> None:
    report = explained(line + "\n")
    found = [(x.cause, x.severity) for x in report.findings if x.cause]
    assert found == [("gpu-too-few-cores", Severity.INFO)]
    assert "TF_MIN_GPU_MULTIPROCESSOR_COUNT" in fix_text(report.findings[0])


_REFUSED = (
    "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: {} but "
    "source was compiled with {}.  If using a binary install, upgrade your CuDNN library to "
    "match.\n"
)


def test_a_newer_minor_the_build_refused_asks_for_the_builds_own_minor() -> None:
    # TensorFlow 1.x with cuDNN 5 refusing 5.1 for a build of 5.0: "this minor or newer"
    # would name the release that failed.
    log = _REFUSED.format("5110 (compatibility version 5100)", "5005 (compatibility version 5000)")
    text = fix_text(one_error(explained(log), "cudnn-version-mismatch"))
    assert "5.0 itself" in text and "refused the newer 5.1.10" in text
    assert "this minor or newer" not in text


@pytest.mark.parametrize(
    ("loaded", "compiled"),
    [
        ("8.0.4", "8.1.0"),
        ("7005 (compatibility version 7000)", "6021 (compatibility version 6000)"),
        # From cuDNN 7 on a newer minor serves the build (TensorFlow's own words say so).
        ("8.2.1", "8.1.0"),
        ("7605 (compatibility version 7600)", "7104 (compatibility version 7100)"),
    ],
    ids=["older-minor", "other-major", "newer-minor-8", "newer-minor-7"],
)
def test_an_older_minor_or_another_major_keeps_the_minor_or_newer_rule(
    loaded: str, compiled: str
) -> None:
    text = fix_text(
        one_error(explained(_REFUSED.format(loaded, compiled)), "cudnn-version-mismatch")
    )
    assert "same major, this minor or newer" in text and "itself" not in text


def test_a_busy_word_elsewhere_is_not_the_gpu() -> None:
    line = "requests.exceptions.HTTPError: 503 Server Error: the service is busy or unavailable"
    assert "gpu-busy-or-unavailable" not in _causes_at_warning(line + "\n")


# --- fixes fitted to where the program ran ------------------------------------------------------


def test_fabric_manager_in_a_container_is_the_hosts_to_start() -> None:
    text = (
        "$ kubectl logs trainer-0\n"
        + _XLA
        + "failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system not yet initialized\n"
    )
    top = top_error(explained(text))
    assert top.cause == "fabric-manager-not-running"
    assert top.fix is not None
    assert "on the host" in top.fix.text
    # No systemctl or apt-get meant for the container itself: it has neither the daemon nor
    # the driver.
    for command in top.fix.commands:
        if "systemctl" in command or "apt-get" in command:
            assert "on the host" in command, command


def test_the_watchdogs_fix_is_the_systems_the_log_shows() -> None:
    line = _OLD + "failed to query event: CUDA_ERROR_LAUNCH_TIMEOUT\n"
    windows = (
        'File "C:\\Users\\me\\lib\\site-packages\\tensorflow\\python\\eager\\execute.py", '
        "line 54, in quick_execute\n"
    )
    linux = (
        'File "/home/me/.local/lib/python3.10/site-packages/tensorflow/python/eager/'
        'execute.py", line 54, in quick_execute\n'
    )
    wsl = "Linux DESKTOP-1 5.15.90.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux\n"
    on_windows = fix_text(top_error(explained(windows + line)))
    assert "TdrDelay" in on_windows and "systemctl" not in on_windows
    on_linux = fix_text(top_error(explained(linux + line)))
    assert "multi-user.target" in on_linux and "TdrDelay" not in on_linux
    # WSL's GPU is the Windows host's, and so is its watchdog.
    under_wsl = fix_text(top_error(explained(wsl + line)))
    assert "the Windows host" in under_wsl and "systemctl" not in under_wsl


def test_another_programs_status_line_is_not_a_system_not_ready() -> None:
    line = "[sensor] Status: system not yet initialized, waiting for calibration\n"
    assert "fabric-manager-not-running" not in _causes_at_warning(line)
    # TensorFlow's own sentences all end "failed. Status: ...".
    tf = "InternalError: cudaSetDevice() on GPU:0 failed. Status: system not yet initialized\n"
    assert top_error(explained(tf)).cause == "fabric-manager-not-running"


def test_an_absl_status_of_another_program_is_not_tensorflows_kernel_compiler() -> None:
    for line in (
        "jaxlib.xla_extension.XlaRuntimeError: UNKNOWN: JIT compilation failed.",
        "RuntimeError: Unknown: JIT compilation failed.",
    ):
        assert "libdevice-missing" not in _causes_at_warning(line + "\n"), line


def test_cudnn_parts_mixed_on_windows_are_listed_from_path() -> None:
    text = (
        'File "C:\\Users\\me\\lib\\site-packages\\tensorflow\\python\\eager\\execute.py", '
        "line 54, in quick_execute\n"
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:372] Could not create cudnn handle: "
        "CUDNN_STATUS_VERSION_MISMATCH\n"
    )
    top = top_error(explained(text))
    assert top.cause == "cuda-lib-shadowed"
    fix = fix_text(top)
    # Windows loads the DLLs found on PATH: no ldconfig, find / or LD_LIBRARY_PATH there.
    assert "where.exe cudnn*.dll" in fix
    assert "ldconfig" not in fix and "LD_LIBRARY_PATH" not in fix


def test_an_unknown_error_in_a_container_reloads_the_hosts_module() -> None:
    text = "$ kubectl logs trainer-0\n" + _STATUS + "unknown error\n"
    top = top_error(explained(text))
    assert top.cause == "cuinit-unknown-error"
    assert top.fix is not None and "on the host" in top.fix.text
    assert all("on the host" in command for command in top.fix.commands)


def _ignored(capability: str) -> str:
    return (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1700] Ignoring visible gpu device "
        f"(device: 0, name: GeForce GT 7x0, pci bus id: 0000:01:00.0, compute capability: "
        f"{capability}) with Cuda compute capability {capability}. The minimum required Cuda "
        "capability is 3.7."
    )


def test_an_ignored_gpu_names_the_newest_release_with_code_for_it() -> None:
    (found,) = [x for x in explained(_ignored("3.5")).findings if x.cause == "gpu-arch-unsupported"]
    assert found.fix is not None
    # From the matrix's build lists: 2.14 is the last line with sm_35.
    assert "TensorFlow 2.14." in found.fix.text and "newest release with machine code" in (
        found.fix.text
    )


def test_an_ignored_gpu_no_release_has_code_for_says_so() -> None:
    (found,) = [x for x in explained(_ignored("3.0")).findings if x.cause == "gpu-arch-unsupported"]
    assert found.fix is not None
    assert found.fix.text.startswith("No TensorFlow release in the matrix has machine code")


def test_a_gpu_newer_than_every_build_is_not_told_to_get_a_newer_gpu() -> None:
    # Compute capability 12.0 has no machine code in any wheel, but compute_90's PTX runs on
    # it once the driver compiles it: a newer GPU is no fix for the newest GPU.
    log = (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1635] Created device "
        "/job:localhost/replica:0/task:0/device:GPU:0 with 30000 MB memory:  -> device: 0, "
        "name: NVIDIA GeForce RTX 5090, pci bus id: 0000:01:00.0, compute capability: 12.0\n"
        "F tensorflow/core/kernels/conv_2d_gpu.h:710] Non-OK-status: status: Internal: no "
        "kernel image is available for execution on the device\n"
    )
    (found,) = [x for x in explained(log).findings if x.cause == "gpu-arch-unsupported"]
    assert found.fix is not None
    assert "newer GPU" not in found.fix.text
    assert "PTX" in found.fix.text


def test_an_ignored_gpu_on_native_windows_names_a_release_with_a_windows_gpu_build() -> None:
    # cudart64_110.dll: native Windows, whose GPU builds end with 2.10.
    opened = (
        "2021-01-01 10:00:00.000001: I tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:49] Successfully opened dynamic library cudart64_110.dll\n"
    )
    (found,) = [
        x for x in explained(opened + _ignored("3.5")).findings if x.cause == "gpu-arch-unsupported"
    ]
    assert found.fix is not None
    assert "TensorFlow 2.10." in found.fix.text and "2.14" not in found.fix.text
