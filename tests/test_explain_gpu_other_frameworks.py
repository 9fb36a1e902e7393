"""The GPU failing in another framework's own words. Its memory running out: the CUDA runtime's
out-of-memory as PyTorch's CUDA check raises it (from Python, or libtorch's other bindings such
as R's torch), and CuPy's memory pool and runtime binding refusing an allocation; alone, or
after TensorFlow created its GPU device in the same program; and a cuDNN or cuBLAS handle that
fails in JAX's runtime, whose memory candidate is JAX's preallocation; PyTorch's build without
code for the GPU (its own check, its CUDA check's "no kernel image"). Every log here is
written for the test in the program's own format (c10/cuda/CUDAException.cpp,
cupy/cuda/memory.pyx, cupy_backends/cuda/api/runtime.pyx, XLA's cuda_dnn.cc and cuda_blas.cc,
torch/cuda/__init__.py)."""

from __future__ import annotations

import pytest

from tests.explaining import explained, finding_of, fix_text
from tfdoctor.evidence.frameworks import read_gpu_frameworks
from tfdoctor.findings import Finding, Severity

_SITE = "/opt/conda/lib/python3.10/site-packages"

#: TensorFlow's line as it creates its GPU device (gpu_device.cc), mapping the free memory.
_CREATED = (
    "2023-03-02 14:20:11.402817: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1613] "
    "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 14626 MB memory:  -> "
    "device: 0, name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5\n"
)

#: PyTorch's CUDA check raising the runtime's own out-of-memory from Python: a tensor moved to
#: the GPU (torch 1.x RuntimeError; 2.8 and later raise torch.AcceleratorError).
_TORCH_PY = (
    "Traceback (most recent call last):\n"
    '  File "/home/ana/seg/infer.py", line 22, in <module>\n'
    '    net = net.to("cuda")\n'
    f'  File "{_SITE}/torch/nn/modules/module.py", line 1145, in to\n'
    "    return self._apply(convert)\n"
    "{error}: CUDA error: out of memory\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the "
    "stacktrace below might be incorrect.\n"
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
)

#: R's torch (libtorch through Rcpp) failing to put a tensor on the GPU, as testthat reports it.
_TORCH_R = (
    "── Error (test-model.R:41:3): model fits on the GPU ──────────────────────────\n"
    "Error in `cpp_tensor_to(self, device, dtype, non_blocking, copy)`: CUDA error: out of "
    "memory\n"
    "Backtrace:\n"
    "    ▆\n"
    ' 1. └─x$to(device = "cuda") at test-model.R:41:3\n'
)

#: CuPy's memory pool refusing an allocation (cupy/cuda/memory.pyx).
_CUPY_POOL = (
    "Traceback (most recent call last):\n"
    '  File "/srv/deconv/run.py", line 57, in <module>\n'
    "    psf_f = cp.fft.fftn(cp.asarray(psf), s=shape)\n"
    '  File "cupy/cuda/memory.pyx", line 1283, in cupy.cuda.memory.alloc\n'
    "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 2,147,483,648 bytes "
    "(allocated so far: 12,884,901,888 bytes).\n"
)

#: CuPy's runtime binding raising the CUDA runtime's error by name and string.
_CUPY_RUNTIME = (
    "Traceback (most recent call last):\n"
    '  File "/srv/deconv/run.py", line 12, in <module>\n'
    "    stream = cp.cuda.Stream(non_blocking=True)\n"
    '  File "cupy_backends/cuda/api/runtime.pyx", line 144, in '
    "cupy_backends.cuda.api.runtime.check_status\n"
    "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorMemoryAllocation: out of memory\n"
)


def _memory(text: str) -> Finding:
    found = finding_of(explained(text), "gpu-out-of-memory")
    assert found is not None, [(x.id, x.severity.value) for x in explained(text).findings]
    assert found.severity is Severity.ERROR
    return found


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_TORCH_PY.format(error="RuntimeError"), id="torch-runtime-error"),
        pytest.param(_TORCH_PY.format(error="torch.AcceleratorError"), id="torch-accelerator"),
    ],
)
def test_pytorchs_cuda_check_out_of_memory_is_the_gpus_memory(text: str) -> None:
    words = fix_text(_memory(text))
    assert words.startswith("PyTorch could not get GPU memory from CUDA itself"), words
    # Not its caching allocator's refusal: its fragmentation option is no remedy here.
    assert "expandable_segments" not in words
    # TensorFlow in the same program is named as what may hold the GPU, with its setting.
    assert "TF_FORCE_GPU_ALLOW_GROWTH=true" in words
    assert "XLA_PYTHON_CLIENT" not in words


#: llama.cpp's ggml failing to allocate, in its own words (ggml-cuda.cu, ggml_cuda_error:
#: "CUDA error: %s", then the device and the function).
_GGML = (
    "ggml_cuda_init: found 1 CUDA devices:\n"
    "  Device 0: NVIDIA GeForce RTX 4070, compute capability 8.9, VMM: yes\n"
    "CUDA error: out of memory\n"
    "  current device: 0, in function alloc at ggml/src/ggml-cuda.cu:402\n"
    "  cuMemCreate(&handle, reserve_size, &prop, 0)\n"
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_TORCH_R, id="r-torch-no-import-shown"),
        pytest.param(_GGML, id="llama-cpp-ggml"),
    ],
)
def test_a_cuda_call_out_of_memory_of_no_program_shown_names_none(text: str) -> None:
    found = _memory(text)
    words = fix_text(found)
    # The same words are PyTorch's CUDA check's and ggml's: the log does not say whose.
    assert "PyTorch" not in found.summary and "PyTorch" not in words, words
    assert words.startswith("A CUDA call found no room on the GPU"), words
    assert "TF_FORCE_GPU_ALLOW_GROWTH=true" in words


def test_pytorchs_cuda_check_after_tensorflows_device_is_tensorflows_mapping() -> None:
    text = _CREATED + _TORCH_PY.format(error="RuntimeError")
    found = _memory(text)
    words = fix_text(found)
    assert "PyTorch then found none left" in words, words
    assert found.fix is not None
    assert any("TF_FORCE_GPU_ALLOW_GROWTH=true" in c for c in found.fix.commands or ())


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_CUPY_POOL, id="cupy-memory-pool"),
        pytest.param(_CUPY_RUNTIME, id="cupy-runtime-binding"),
    ],
)
def test_cupys_out_of_memory_looks_at_what_else_holds_the_gpu(text: str) -> None:
    words = fix_text(_memory(text))
    # Its pool freed what it kept before it gave up: the memory was held elsewhere.
    assert words.startswith("CuPy could not allocate"), words
    assert "set_visible_devices" in words and "TF_FORCE_GPU_ALLOW_GROWTH=true" in words
    assert "PYTORCH_CUDA_ALLOC_CONF" not in words and "free_all_blocks" not in words


def test_cupys_pool_refusing_beyond_its_own_limit_names_that_limit() -> None:
    text = _CUPY_POOL.replace("bytes).", "bytes, limit set to: 8,589,934,592 bytes).")
    words = fix_text(_memory(text))
    assert words.startswith("CuPy's memory pool refused the allocation beyond the limit"), words
    assert "CUPY_GPU_MEMORY_LIMIT" in words


def test_cupys_limit_that_did_not_refuse_is_not_named() -> None:
    # The pool prints the limit whenever one is set; 2 + 1 GiB is far below 32 GiB: the GPU
    # itself had no room.
    text = _CUPY_POOL.replace(
        "2,147,483,648 bytes (allocated so far: 12,884,901,888 bytes).",
        "1,073,741,824 bytes (allocated so far: 2,147,483,648 bytes, limit set to: "
        "34,359,738,368 bytes).",
    )
    words = fix_text(_memory(text))
    assert words.startswith("CuPy could not allocate"), words
    assert "raise that limit" not in words


def test_cupys_out_of_memory_after_tensorflows_device_is_tensorflows_mapping() -> None:
    found = _memory(_CREATED + _CUPY_POOL)
    words = fix_text(found)
    assert "CuPy then found none left" in words, words
    assert found.fix is not None
    assert any("TF_FORCE_GPU_ALLOW_GROWTH=true" in c for c in found.fix.commands or ())


@pytest.mark.parametrize(
    ("text", "frameworks"),
    [
        pytest.param(
            "RuntimeError: CUDA error: out of memory\n", (), id="cuda-call-of-no-program-shown"
        ),
        pytest.param(_GGML, (), id="llama-cpp-ggml"),
        pytest.param(_TORCH_PY.format(error="RuntimeError"), ("PyTorch",), id="torch-frames"),
        pytest.param(_CUPY_POOL, ("CuPy",), id="cupy"),
        pytest.param(">>> import cupy as cp\n", (), id="cupy-import-alone"),
    ],
)
def test_each_frameworks_own_out_of_memory_shows_it_on_the_gpu(
    text: str, frameworks: tuple[str, ...]
) -> None:
    assert read_gpu_frameworks(text) == frameworks


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "tests/test_retry.py::test_cuda_error_out_of_memory_halves_the_batch PASSED  [ 40%]\n",
            id="a-test-named-for-it",
        ),
        pytest.param(
            "    # On a 'CUDA error: out of memory' lower --batch-size and run again\n",
            id="a-comment-in-pasted-code",
        ),
    ],
)
def test_the_words_where_nothing_ran_out_stay_quiet(text: str) -> None:
    report = explained(text)
    assert all(x.severity.rank <= Severity.INFO.rank for x in report.findings), [
        (x.id, x.severity.value) for x in report.findings
    ]


# --- a cuDNN/cuBLAS handle failing in JAX's runtime: JAX's preallocation, not TensorFlow's -----

#: jaxlib's XLA logging a cuDNN handle that did not start, then JAX's error (openxla paths).
_JAX_DNN = (
    "2024-02-19 11:04:37.551902: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] "
    "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n"
    "Traceback (most recent call last):\n"
    '  File "/home/kim/diffusion/sample.py", line 61, in <module>\n'
    "    images = sample_fn(params, noise)\n"
    "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization "
    "failed. Look at the errors above for more details.\n"
)

#: An older jaxlib, built with XLA inside TensorFlow's tree (external/org_tensorflow), failing
#: to create its cuBLAS handle as its GEMM autotuner starts; no other word of JAX's.
_OLD_JAXLIB_BLAS = (
    "2021-09-03 16:22:10.402255: E external/org_tensorflow/tensorflow/stream_executor/cuda/"
    "cuda_blas.cc:232] failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n"
    "2021-09-03 16:22:10.402301: F external/org_tensorflow/tensorflow/compiler/xla/service/gpu/"
    "gemm_algorithm_picker.cc:118] Check failed: stream->parent()->GetBlasGemmAlgorithms("
    "&algorithms)\n"
)


def _library(text: str) -> Finding:
    found = finding_of(explained(text), "gpu-library-init-failed")
    assert found is not None, [(x.id, x.severity.value) for x in explained(text).findings]
    assert found.fix is not None
    return found


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_JAX_DNN, id="jax-cudnn-handle"),
        pytest.param(_OLD_JAXLIB_BLAS, id="old-jaxlib-cublas-handle"),
    ],
)
def test_a_handle_failing_in_jax_names_jaxs_preallocation(text: str) -> None:
    found = _library(text)
    words = fix_text(found)
    assert "1. the GPU's memory was already taken" in words, words
    assert "another JAX process on the same GPU" in words
    commands = found.fix.commands if found.fix is not None else ()
    assert any("XLA_PYTHON_CLIENT_PREALLOCATE=false" in c for c in commands)
    # JAX does not read TensorFlow's setting: no command sets it.
    assert not any("TF_FORCE_GPU_ALLOW_GROWTH" in c for c in commands)


@pytest.mark.parametrize(
    ("text", "jax_setting"),
    [
        pytest.param(
            ">>> import jax\n>>> import tensorflow as tf\n"
            "2021-09-03 16:22:10.402255: E tensorflow/stream_executor/cuda/cuda_dnn.cc:336] "
            "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n",
            True,
            id="beside-jax-tensorflows-source-path",
        ),
        pytest.param(
            # absl's prefix (2.16 on) names the source file without its directory: the
            # version TensorFlow answered shows it instead.
            ">>> import jax\n>>> import tensorflow as tf\n>>> tf.__version__\n'2.17.0'\n"
            "E0000 00:00:1723000000.000000   4242 cuda_dnn.cc:522] Could not create cudnn "
            "handle: CUDNN_STATUS_INTERNAL_ERROR\n",
            True,
            id="beside-jax-absl-basename-tf-version",
        ),
        pytest.param(
            "2021-09-03 16:22:10.402255: E tensorflow/stream_executor/cuda/cuda_dnn.cc:336] "
            "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n",
            False,
            id="tensorflow-alone",
        ),
        pytest.param(
            "2021-09-03 16:22:09.100000: I tensorflow_serving/model_servers/server.cc:89] "
            "Building single TensorFlow model file config:  model_name: resnet\n"
            "2021-09-03 16:22:10.402255: E external/org_tensorflow/tensorflow/stream_executor/"
            "cuda/cuda_dnn.cc:336] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n",
            False,
            id="tensorflow-serving",
        ),
    ],
)
def test_a_handle_failing_in_tensorflow_keeps_its_memory_growth(
    text: str, jax_setting: bool
) -> None:
    # TensorFlow's setting whenever its own handle failed; JAX's beside it only where JAX
    # shows in the same program.
    found = _library(text)
    commands = found.fix.commands if found.fix is not None else ()
    assert any("TF_FORCE_GPU_ALLOW_GROWTH=true" in c for c in commands)
    assert any("XLA_PYTHON_CLIENT_PREALLOCATE=false" in c for c in commands) is jax_setting
    assert ("XLA_PYTHON_CLIENT" in fix_text(found)) is jax_setting


def test_jaxs_convolution_autotuning_gives_one_memory_candidate_in_both_places() -> None:
    # XLA's autotuner failing every algorithm in JAX's runtime: the library finding and the
    # memory candidate's own finding say the same words with the same (JAX's) setting.
    text = (
        "2023-05-01 10:00:00.000000: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] "
        "Loaded runtime CuDNN library: 8.2.0 but source was compiled with: 8.6.0.  CuDNN "
        "library needs to have matching major version and equal or higher minor version.\n"
        "jaxlib.xla_extension.XlaRuntimeError: UNKNOWN: Failed to determine best cudnn "
        "convolution algorithm for:\n"
    )
    report = explained(text)
    main = _library(text)
    other = next(x for x in report.findings if x.cause == "gpu-out-of-memory")
    for found in (main, other):
        assert "when XLA tried the convolution's cuDNN algorithms" in fix_text(found)
        commands = found.fix.commands if found.fix is not None else ()
        assert any("XLA_PYTHON_CLIENT_PREALLOCATE=false" in c for c in commands), commands
        assert not any("TF_FORCE_GPU_ALLOW_GROWTH" in c for c in commands), commands


# --- PyTorch's build without code for the GPU: PyTorch's wheel, not TensorFlow's --------------

_TORCH_SITE = "/home/r/venv/lib/python3.10/site-packages"


def _torch_warning(gpu: str, sm: str, archs: str) -> str:
    """PyTorch's own check of the GPU as it warns (torch/cuda/__init__.py)."""
    return (
        f"{_TORCH_SITE}/torch/cuda/__init__.py:155: UserWarning:\n"
        f"{gpu} with CUDA capability sm_{sm} is not compatible with the current PyTorch "
        "installation.\n"
        f"The current PyTorch install supports CUDA capabilities {archs}.\n"
        f"If you want to use the {gpu} GPU with PyTorch, please check the instructions at "
        "https://pytorch.org/get-started/locally/\n"
    )


_NO_KERNEL = (
    "Traceback (most recent call last):\n"
    '  File "/home/r/proj/bench.py", line 9, in <module>\n'
    "    y = model(x.cuda())\n"
    f'  File "{_TORCH_SITE}/torch/nn/modules/module.py", line 1130, in _call_impl\n'
    "    return forward_call(*input, **kwargs)\n"
    "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
)


def _arch(text: str, severity: Severity = Severity.ERROR) -> str:
    found = finding_of(explained(text), "gpu-arch-unsupported")
    assert found is not None, [(x.id, x.severity.value) for x in explained(text).findings]
    assert found.severity is severity
    return fix_text(found)


@pytest.mark.parametrize(
    ("gpu", "sm", "archs", "cuda"),
    [
        pytest.param(
            "NVIDIA GeForce RTX 3060", "86", "sm_37 sm_50 sm_60 sm_70", "CUDA 11.1", id="ampere"
        ),
        pytest.param(
            "NVIDIA GeForce RTX 5090",
            "120",
            "sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_90",
            "CUDA 12.8",
            id="blackwell",
        ),
    ],
)
def test_a_gpu_newer_than_pytorchs_build_names_the_cuda_that_knows_it(
    gpu: str, sm: str, archs: str, cuda: str
) -> None:
    words = _arch(_torch_warning(gpu, sm, archs) + _NO_KERNEL)
    assert f"PyTorch wheel built with {cuda} or newer" in words, words
    assert "tfdoctor matrix" not in words and "TF_CUDA_COMPUTE_CAPABILITIES" not in words


def test_a_newer_gpu_with_the_builds_ptx_is_told_it_compiles_at_start() -> None:
    # PyTorch's check (_check_cubins) warns where no sm_ entry shares the GPU's major, though
    # its PTX (compute_90) lets the driver compile the kernels for the GPU: the program runs,
    # slowly at first, so the warning alone is no failure.
    text = _torch_warning(
        "NVIDIA GeForce RTX 5090", "120", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 compute_90"
    )
    text += "Epoch 1/3: loss 0.52\nTraining finished.\n"
    words = _arch(text, Severity.WARNING)
    assert "Its PTX (compute_90) lets the driver compile its kernels" in words, words
    assert "install a PyTorch wheel built with CUDA 12.8 or newer" in words


def test_the_builds_machine_code_of_the_gpus_major_is_a_note() -> None:
    # sm_80's machine code runs on 8.6 (same major, older minor): the warning of an older
    # release stops nothing.
    text = (
        _torch_warning("GeForce RTX 3090", "86", "sm_37 sm_50 sm_60 sm_61 sm_70 sm_75 sm_80")
        + ">>> (torch.ones(3, device='cuda') * 2).sum().item()\n6.0\n"
    )
    words = _arch(text, Severity.INFO)
    assert "nothing needs to change" in words, words
    assert "install a PyTorch wheel" not in words


def test_a_gpu_older_than_pytorchs_build_is_one_its_wheels_dropped() -> None:
    text = _torch_warning(
        "Tesla P100-PCIE-16GB", "60", "sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"
    )
    words = _arch(text + _NO_KERNEL)
    assert "older than every architecture this PyTorch build carries" in words, words
    # No source build: the CUDA releases that build PyTorch today may no longer target it.
    assert "TORCH_CUDA_ARCH_LIST" not in words


def test_tensorflows_refusal_beside_pytorchs_warning_keeps_tensorflows_reading() -> None:
    text = (
        "2021-03-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1703] "
        "Ignoring visible gpu device (device: 0, name: GeForce GTX 760, pci bus id: "
        "0000:01:00.0, compute capability: 3.0) with Cuda compute capability 3.0. The minimum "
        "required Cuda capability is 3.5.\n"
        ">>> import torch\n"
    ) + _torch_warning("GeForce GTX 760", "30", "sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86")
    words = _arch(text)
    assert "PyTorch" not in words and "ROCm" not in words, words
    assert "compute capability 3.0" in words


def test_another_programs_no_kernel_image_is_not_pytorchs() -> None:
    # llama.cpp's ggml prints the CUDA error bare (ggml_cuda_error), where PyTorch raises it.
    text = (
        ">>> import torch\n"
        "ggml_cuda_init: found 1 CUDA devices:\n"
        "  Device 0: Tesla K80, compute capability 3.7, VMM: no\n"
        "CUDA error: no kernel image is available for execution on the device\n"
        "  current device: 0, in function ggml_cuda_op_mul_mat at ggml-cuda.cu:1600\n"
    )
    found = finding_of(explained(text), "gpu-arch-unsupported")
    assert found is None or "PyTorch" not in fix_text(found)


def test_pytorchs_no_kernel_image_alone_asks_for_its_arch_list() -> None:
    words = _arch(_NO_KERNEL)
    assert words.startswith("PyTorch's build has no code"), words
    assert "torch.cuda.get_arch_list()" in words


def test_tensorflows_own_no_kernel_image_keeps_its_reading() -> None:
    text = (
        "2020-08-01 03:45:09.105836: F tensorflow/core/kernels/conv_2d_gpu.h:710] Non-OK-status: "
        "GpuLaunchKernel(SwapDimension1And2InTensor3UsingTiles<T>, total_tiles_count, "
        "NumThreads, 0, d.stream(), input, input_dims, output) status: Internal: no kernel "
        "image is available for execution on the device\n"
    )
    words = _arch(text)
    assert "PyTorch" not in words and "TensorFlow release" in words, words


def test_a_filter_for_pytorchs_warning_in_pasted_code_stays_quiet() -> None:
    text = (
        "    warnings.filterwarnings(\n"
        '        "ignore",\n'
        '        message=r"\\s*NVIDIA .* with CUDA capability sm_\\d+ is not compatible with the '
        'current PyTorch installation",\n'
        "    )\n"
    )
    report = explained(text)
    assert all(x.severity.rank <= Severity.INFO.rank for x in report.findings), [
        (x.id, x.severity.value) for x in report.findings
    ]
