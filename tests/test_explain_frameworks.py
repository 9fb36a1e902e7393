"""What explain reads where TensorFlow shares an environment or a process with another
framework (PyTorch, JAX, Keras 3's other backends): their CUDA wheels' pins, the cuDNN one
of them loaded first, the GPU memory each takes. Every log here is written for the test in
the program's own format (pip's resolver, XLA's cuda_dnn.cc, Keras' backend modules)."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, finding_of, fix_text
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import Matrix, load_matrix, spec_contains

BUNDLED = load_matrix()


def _only(text: str, cause: str) -> Finding:
    found: Optional[Finding] = finding_of(explained(text, matrix=BUNDLED), cause)
    assert found is not None, [(x.id, x.severity.value) for x in explained(text).findings]
    return found


def _lines_admitting(matrix: Matrix, dist: str, version: str) -> list[str]:
    """The matrix lines whose and-cuda extra's pin on ``dist`` admits ``version``."""
    return [
        x.line
        for x in matrix.lines
        if (pin := x.declared(dist)) is not None and spec_contains(version, pin)
    ]


# --- the NVIDIA wheels both frameworks pin ------------------------------------------------------

#: pip's resolver refusing TensorFlow's and-cuda extra beside a PyTorch wheel (resolvelib's
#: "The conflict is caused by:" block, each requirer's Requires-Dist as pip prints it).
_RESOLVER = """\
ERROR: Cannot install tensorflow[and-cuda]==2.17.1 and torch=={torch} because these package \
versions have conflicting dependencies.

The conflict is caused by:
    tensorflow[and-cuda] 2.17.1 depends on nvidia-cudnn-cu12==8.9.7.29; extra == "and-cuda"
    torch {torch} depends on nvidia-cudnn-cu12=={cudnn}; platform_system == "Linux" and \
platform_machine == "x86_64"

To fix this you could try to:
1. loosen the range of package versions you've specified
2. remove package versions to allow pip to attempt to solve the dependency conflict

ERROR: ResolutionImpossible: for help visit \
https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts
"""


def test_the_and_cuda_pins_of_the_matrix_choose_lines_too() -> None:
    line = BUNDLED.line_for("2.17")
    assert line is not None and line.and_cuda is not None
    assert line.declared("nvidia-cudnn-cu12") == line.and_cuda["nvidia-cudnn-cu12"]
    assert line.declared("protobuf") == line.pins.protobuf  # a companion's pin, as before
    assert line.declared("absl-py") is None  # recorded nowhere
    chosen = BUNDLED.lines_pinning("nvidia-cudnn-cu12", lambda spec: spec.startswith("=="))
    assert chosen and all(x.and_cuda for x in chosen)


def test_two_frameworks_cudnn_pins_no_tensorflow_meets_keep_them_apart() -> None:
    cudnn = "9.0.0.312"  # a release no TensorFlow line's pin admits (checked here)
    assert not _lines_admitting(BUNDLED, "nvidia-cudnn-cu12", cudnn)
    found = _only(_RESOLVER.format(torch="2.4.1", cudnn=cudnn), "library-pin-conflicts")
    assert found.severity is Severity.ERROR
    text = fix_text(found)
    assert "separate environments" in text and "torch" in text
    assert "pip install" not in text  # no release is guessed


def test_two_frameworks_cudnn_pins_a_tensorflow_meets_name_that_release_with_its_extra() -> None:
    cudnn = "9.5.1.17"
    admitting = _lines_admitting(BUNDLED, "nvidia-cudnn-cu12", cudnn)
    if not admitting:
        pytest.skip("no line of the bundled matrix pins a cuDNN wheel that admits it")
    found = _only(_RESOLVER.format(torch="2.7.0", cudnn=cudnn), "library-pin-conflicts")
    commands = " ".join(found.fix.commands if found.fix else ())
    assert "tensorflow[and-cuda]==" in commands
    named = commands.split("tensorflow[and-cuda]==", 1)[1].split('"', 1)[0]
    line = BUNDLED.line_for(named)
    assert line is not None and line.line in admitting


#: pip's notice after installing PyTorch into TensorFlow's environment (resolution/resolvelib's
#: "does not currently take into account all the packages that are installed").
_NOTICE = """\
Installing collected packages: nvidia-cudnn-cu12, torch
  Attempting uninstall: nvidia-cudnn-cu12
    Found existing installation: nvidia-cudnn-cu12 8.9.7.29
    Uninstalling nvidia-cudnn-cu12-8.9.7.29:
      Successfully uninstalled nvidia-cudnn-cu12-8.9.7.29
ERROR: pip's dependency resolver does not currently take into account all the packages that \
are installed. This behaviour is the source of the following dependency conflicts.
tensorflow 2.17.1 requires nvidia-cudnn-cu12==8.9.7.29; extra == "and-cuda", but you have \
nvidia-cudnn-cu12 {cudnn} which is incompatible.
Successfully installed nvidia-cudnn-cu12-{cudnn} torch-2.6.0
"""


def test_a_cuda_wheel_another_framework_replaced_is_two_pins_not_a_reinstall() -> None:
    cudnn = "9.0.0.312"
    found = _only(_NOTICE.format(cudnn=cudnn), "cuda-wheel-pins")
    assert found.severity is Severity.WARNING
    text = fix_text(found)
    # Installing TensorFlow's pin back would break the framework that pulled the other one.
    assert 'pip install "nvidia-cudnn-cu12==8.9.7.29"' not in text
    assert "separate virtual environments" in text
    assert "tensorflow[and-cuda]==2.17.1" in text


#: pip's notice after installing TensorFlow's and-cuda extra into PyTorch's environment.
_REPLACED = """\
Installing collected packages: nvidia-cudnn-cu12, tensorflow
  Attempting uninstall: nvidia-cudnn-cu12
    Found existing installation: nvidia-cudnn-cu12 {cudnn}
    Uninstalling nvidia-cudnn-cu12-{cudnn}:
      Successfully uninstalled nvidia-cudnn-cu12-{cudnn}
ERROR: pip's dependency resolver does not currently take into account all the packages that \
are installed. This behaviour is the source of the following dependency conflicts.
torch 2.5.1 requires nvidia-cudnn-cu12=={cudnn}; platform_system == "Linux" and \
platform_machine == "x86_64", but you have nvidia-cudnn-cu12 8.9.7.29 which is incompatible.
Successfully installed nvidia-cudnn-cu12-8.9.7.29 tensorflow-2.17.1
"""


def test_pytorchs_cuda_wheel_tensorflow_replaced_moves_tensorflow_apart() -> None:
    cudnn = "9.0.0.312"
    assert not _lines_admitting(BUNDLED, "nvidia-cudnn-cu12", cudnn)
    found = _only(_REPLACED.format(cudnn=cudnn), "cuda-wheel-pins")
    assert found.severity is Severity.WARNING
    commands = found.fix.commands if found.fix else ()
    assert any("venv" in c for c in commands)
    assert any('"tensorflow[and-cuda]==2.17.1"' in c for c in commands)
    assert commands[-1] == f'pip install "nvidia-cudnn-cu12=={cudnn}"'  # torch's pin, here


@pytest.mark.parametrize(
    ("log", "also"),
    [
        pytest.param(_NOTICE, "", id="tensorflows-pin-replaced"),
        pytest.param(_REPLACED, '"torch==2.5.1"', id="pytorchs-pin-replaced"),
    ],
)
def test_a_replaced_cuda_wheel_a_tensorflow_pin_meets_names_that_release(
    log: str, also: str
) -> None:
    cudnn = "9.5.1.17"
    admitting = _lines_admitting(BUNDLED, "nvidia-cudnn-cu12", cudnn)
    if not admitting:
        pytest.skip("no line of the bundled matrix pins a cuDNN wheel that admits it")
    found = _only(log.format(cudnn=cudnn), "cuda-wheel-pins")
    commands = " ".join(found.fix.commands if found.fix else ())
    named = commands.split("tensorflow[and-cuda]==", 1)[1].split('"', 1)[0]
    line = BUNDLED.line_for(named)
    assert line is not None and line.line in admitting and also in commands


@pytest.mark.parametrize("log", [_NOTICE, _REPLACED], ids=["tf-pin-replaced", "torch-pin-replaced"])
@pytest.mark.parametrize(("python", "newest"), [("3.12.3", True), ("3.9.18", False)])
def test_a_replaced_cuda_wheel_names_the_newest_admitting_line_with_wheels_for_the_python(
    log: str, python: str, newest: bool
) -> None:
    cudnn = "9.5.1.17"
    admitting = [
        x
        for x in BUNDLED.lines
        if not x.pre_release
        and (pin := x.declared("nvidia-cudnn-cu12")) is not None
        and spec_contains(cudnn, pin)
    ]
    fitting = [x for x in admitting if x.has_wheels_for(python[:-2].rstrip("."), "")]
    if len(admitting) < 2 or not fitting:
        pytest.skip("the bundled matrix has no two lines admitting it")
    found = _only(
        f"$ python --version\nPython {python}\n" + log.format(cudnn=cudnn), "cuda-wheel-pins"
    )
    commands = " ".join(found.fix.commands if found.fix else ())
    named = commands.split("tensorflow[and-cuda]==", 1)[1].split('"', 1)[0]
    want = max(fitting, key=lambda x: [int(p) for p in x.line.split(".")])
    assert named == want.latest_patch, (named, [x.line for x in fitting])
    # The newest admitting line lacks wheels for Python 3.9: the newest that has them.
    assert (want is max(admitting, key=lambda x: [int(p) for p in x.line.split(".")])) is newest


# --- the cuDNN another framework loaded first ---------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439", id="jaxlib-openxla"),
        pytest.param(
            "external/org_tensorflow/tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:417",
            id="jaxlib-before-openxla",
        ),
    ],
)
def test_jaxlibs_cudnn_refusal_is_another_frameworks_cudnn_first(path: str) -> None:
    text = (
        f"2024-03-02 10:11:12.345678: E {path}] Loaded runtime CuDNN library: 8.6.0 but "
        "source was compiled with: 8.9.6.  CuDNN library needs to have matching major version "
        "and equal or higher minor version. If using a binary install, upgrade your CuDNN "
        "library.  If building from sources, make sure the library loaded at runtime is "
        "compatible with the version specified during compile configuration.\n"
    )
    found = _only(text, "cudnn-shadowed")
    assert found.severity.rank >= Severity.WARNING.rank
    words = fix_text(found)
    assert "JAX" in words and "tensorflow-cpu" in words and "8.9.6" in words
    # The log names no TensorFlow: nothing is uninstalled on a guess.
    assert "uninstall" not in " ".join(found.fix.commands if found.fix else ())


def test_tensorflows_own_cudnn_refusal_stays_its_versions_finding() -> None:
    text = (
        "2024-03-02 10:11:12.345678: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_dnn.cc:535] Loaded runtime CuDNN library: 8.6.0 but source was compiled with: "
        "8.9.6.  CuDNN library needs to have matching major version and equal or higher minor "
        "version.\n"
    )
    found = _only(text, "cudnn-version-mismatch")
    assert "JAX" not in fix_text(found)


def test_a_jax_refusal_beside_a_tensorflow_the_log_names_swaps_it_for_its_cpu_build() -> None:
    text = (
        "Successfully installed tensorflow-2.15.0\n"
        "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Loaded runtime CuDNN "
        "library: 8.6.0 but source was compiled with: 8.9.6.  CuDNN library needs to have "
        "matching major version and equal or higher minor version.\n"
    )
    report = explained(text, matrix=BUNDLED)
    found = finding_of(report, "cudnn-shadowed")
    assert found is not None and found.fix is not None
    assert any("tensorflow-cpu" in c for c in found.fix.commands)


def test_the_second_cuda_plugin_registration_stays_harmless() -> None:
    # TensorFlow 2.14-2.17 print these when another copy of XLA's CUDA plugins (JAX's, or a
    # second import) registered first (xla/stream_executor/cuda/cuda_dnn.cc, cuda_fft.cc,
    # cuda_blas.cc: "Unable to register ... factory").
    text = "".join(
        f"2024-06-01 10:00:00.123456: E external/local_xla/xla/stream_executor/cuda/{f}] "
        f"Unable to register {lib} factory: Attempting to register factory for plugin {lib} "
        "when one has already been registered\n"
        for f, lib in (
            ("cuda_dnn.cc:9261", "cuDNN"),
            ("cuda_fft.cc:607", "cuFFT"),
            ("cuda_blas.cc:1515", "cuBLAS"),
        )
    )
    report = explained(text, matrix=BUNDLED)
    assert all(x.severity.rank <= Severity.INFO.rank for x in report.findings)


# --- Keras 3 on another backend -----------------------------------------------------------------

_SITE = "/home/u/venv/lib/python3.11/site-packages"

#: pytest's long report of a failure inside Keras' jax backend: the innermost frame's
#: place comes after the exception's "E" line (_pytest/_code/code.py, ReprFileLocation).
PYTEST_REPORT = (
    "keras/src/layers/attention/attention.py:210: in _calculate_scores\n"
    "    return ops.dot_product_attention(q, k, v)\n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
    "\n"
    ">       return jax.nn.dot_product_attention(\n"
    "E       AttributeError: module 'jax.nn' has no attribute 'dot_product_attention'\n"
    "\n"
    "keras/src/backend/jax/nn.py:1090: AttributeError\n"
)


def _traceback(frames: list[tuple[str, int, str, str]], error: str) -> str:
    """A CPython traceback of ``frames`` (path, line, function, source) ending in ``error``."""
    body = "".join(
        f'  File "{path}", line {line}, in {function}\n    {code}\n'
        for path, line, function, code in frames
    )
    return f"Traceback (most recent call last):\n{body}{error}\n"


@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_keras_set_to_a_backend_not_installed_names_keras_backend(backend: str) -> None:
    text = _traceback(
        [
            ("/home/u/train.py", 3, "<module>", "import keras"),
            (
                f"{_SITE}/keras/src/backend/__init__.py",
                37,
                "<module>",
                f"from keras.src.backend.{backend} import *  # noqa: F403",
            ),
            (f"{_SITE}/keras/src/backend/{backend}/core.py", 6, "<module>", f"import {backend}"),
        ],
        f"ModuleNotFoundError: No module named '{backend}'",
    )
    found = _only(text, "package-not-installed")
    assert found.severity is Severity.ERROR
    words = fix_text(found)
    assert "KERAS_BACKEND" in words and f'pip install "{backend}"' in words


def test_a_backends_own_submodule_missing_is_a_broken_install_not_an_absent_one() -> None:
    # torch imported (its frame below) and then found no compiled torch._C: installed, broken.
    text = _traceback(
        [
            ("/home/u/train.py", 3, "<module>", "import keras"),
            (f"{_SITE}/keras/src/backend/torch/core.py", 6, "<module>", "import torch"),
            (f"{_SITE}/torch/__init__.py", 237, "<module>", "from torch._C import *"),
        ],
        "ModuleNotFoundError: No module named 'torch._C'",
    )
    report = explained(text, matrix=BUNDLED)
    assert finding_of(report, "package-not-installed") is None
    found = _only(text, "wheel-mismatch")
    words = fix_text(found)
    assert "--force-reinstall" in words and "not installed" not in words, words


def test_a_module_missing_elsewhere_is_not_keras_backends_matter() -> None:
    text = _traceback(
        [(f"{_SITE}/keras/src/backend/torch/core.py", 6, "<module>", "import optree")],
        "ModuleNotFoundError: No module named 'optree'",
    )
    report = explained(text, matrix=BUNDLED)
    assert all("KERAS_BACKEND" not in fix_text(x) for x in report.findings if x.fix)


@pytest.mark.parametrize(
    ("backend", "code", "error"),
    [
        pytest.param(
            "torch",
            "return torch.as_tensor(x, dtype=dtype, device=get_device())",
            "AttributeError: module 'torch' has no attribute 'float8_e4m3fn'",
            id="torch-module-name",
        ),
        pytest.param(
            "jax",
            "return jax.nn.dot_product_attention(",
            "AttributeError: module 'jax.nn' has no attribute 'dot_product_attention'",
            id="jax-module-name",
        ),
        pytest.param(
            "jax",
            "return jax.lax.conv_general_dilated(",
            "TypeError: conv_general_dilated() got an unexpected keyword argument "
            "'preferred_element_type'",
            id="jax-keyword",
        ),
    ],
)
def test_keras_backends_call_the_framework_lacks_is_the_frameworks_release(
    backend: str, code: str, error: str
) -> None:
    text = _traceback(
        [
            ("/home/u/train.py", 9, "<module>", "model.fit(x, y)"),
            (f"{_SITE}/keras/src/backend/{backend}/nn.py", 120, "conv", code),
        ],
        error,
    )
    found = _only(text, "keras-backend-version-unsupported")
    assert found.severity is Severity.WARNING
    assert backend in fix_text(found)


def test_the_users_object_refused_inside_a_backend_is_not_the_frameworks_release() -> None:
    text = _traceback(
        [(f"{_SITE}/keras/src/backend/torch/core.py", 200, "convert_to_tensor", "x.numpy()")],
        "AttributeError: 'list' object has no attribute 'numpy'",
    )
    assert finding_of(explained(text, matrix=BUNDLED), "keras-backend-version-unsupported") is None


def test_keras_backends_frame_in_pytests_long_report_is_the_innermost() -> None:
    found = _only(PYTEST_REPORT, "keras-backend-version-unsupported")
    assert "jax" in fix_text(found)


# --- two frameworks on one GPU's memory ---------------------------------------------------------

#: TensorFlow creating its GPU device (gpu_device.cc), which maps the memory free then.
_CREATED = (
    "2024-05-10 09:12:01.612345: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1928] "
    "Created device /job:localhost/replica:0/task:0/device:GPU:0 with {mb} MB memory:  -> "
    "device: 0, name: NVIDIA A100-SXM4-40GB, pci bus id: 0000:00:04.0, compute capability: "
    "8.0\n"
)


def test_pytorch_out_of_memory_after_tensorflow_started_is_tensorflows_mapping() -> None:
    text = _CREATED.format(mb=38500) + _traceback(
        [("/home/u/pipeline.py", 41, "<module>", 'logits = model(batch.to("cuda"))')],
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a "
        "total capacity of 39.39 GiB of which 19.06 MiB is free.",
    )
    found = _only(text, "gpu-out-of-memory")
    assert found.severity is Severity.ERROR
    words = fix_text(found)
    assert "PyTorch" in words and "TF_FORCE_GPU_ALLOW_GROWTH=true" in words
    assert "set_visible_devices" in words
    assert "XLA_PYTHON_CLIENT" not in words  # no JAX in the log


def test_jax_out_of_memory_after_tensorflow_started_names_both_shares() -> None:
    text = _CREATED.format(mb=38500) + _traceback(
        [("/content/train_jax.py", 30, "<module>", "params = model.init(rng, x)")],
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying "
        "to allocate 268435456 bytes.",
    )
    words = fix_text(_only(text, "gpu-out-of-memory"))
    assert "JAX then found none left" in words and "XLA_PYTHON_CLIENT_MEM_FRACTION" in words


def test_tensorflow_out_of_memory_beside_jax_turns_jaxs_preallocation_off() -> None:
    text = (
        ">>> import jax\n>>> jax.devices()\n[cuda(id=0)]\n>>> x = jax.numpy.ones(3)\n"
        ">>> import tensorflow as tf\n"
        + _CREATED.format(mb=9780)
        + "2024-05-10 09:12:01.712399: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_driver.cc:1045] failed to allocate 9.55G (10255073280 bytes) from device: "
        "CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
    )
    found = _only(text, "gpu-out-of-memory")
    assert found.fix is not None
    assert any("XLA_PYTHON_CLIENT_PREALLOCATE=false" in c for c in found.fix.commands or ())


def test_a_bare_import_beside_tensorflows_out_of_memory_holds_no_memory() -> None:
    # Importing torch or jax allocates nothing on the GPU: no "shared" reading from that.
    text = (
        ">>> import torch\n>>> import jax\n>>> import tensorflow as tf\n"
        + _CREATED.format(mb=38500)
        + "2024-05-10 09:12:01.712399: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_driver.cc:1045] failed to allocate 9.55G (10255073280 bytes) from device: "
        "CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
    )
    words = fix_text(_only(text, "gpu-out-of-memory"))
    assert "holds memory of its own" not in words and "XLA_PYTHON_CLIENT" not in words, words


def test_jax_out_of_memory_without_tensorflows_device_leads_with_jaxs_preallocation() -> None:
    # JAX's own failure, no device of TensorFlow's in the log: JAX's settings come first, and
    # TensorFlow's growth setting is no command, as nothing shows TensorFlow on the GPU.
    text = _traceback(
        [
            ("/home/u/sample.py", 12, "<module>", "out = generate(params, tokens)"),
            (f"{_SITE}/jax/_src/interpreters/pxla.py", 1250, "__call__", "self.xla_executable"),
        ],
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN: "
        "CUDA_ERROR_OUT_OF_MEMORY: out of memory",
    )
    found = _only(text, "gpu-out-of-memory")
    assert found.severity is Severity.ERROR and found.fix is not None
    words = fix_text(found)
    assert words.startswith("JAX could not allocate"), words
    assert "set_visible_devices" in words
    commands = found.fix.commands or ()
    assert any("XLA_PYTHON_CLIENT_PREALLOCATE=false" in c for c in commands)
    assert not any("TF_FORCE_GPU_ALLOW_GROWTH" in c for c in commands)


def test_pytorch_out_of_memory_without_tensorflows_device_leads_with_its_allocator() -> None:
    text = _traceback(
        [("/home/u/pipeline.py", 41, "<module>", 'logits = model(batch.to("cuda"))')],
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a "
        "total capacity of 7.79 GiB of which 19.06 MiB is free.",
    )
    words = fix_text(_only(text, "gpu-out-of-memory"))
    assert words.startswith("PyTorch could not allocate") and "expandable_segments" in words
    assert "empty_cache" not in words  # it frees memory for other programs, not for PyTorch
    assert "XLA_PYTHON_CLIENT" not in words


def test_tensorflow_alone_out_of_memory_keeps_its_own_reading() -> None:
    text = _CREATED.format(mb=9780) + (
        "2024-05-10 09:12:01.712399: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_driver.cc:1045] failed to allocate 9.55G (10255073280 bytes) from device: "
        "CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
    )
    words = fix_text(_only(text, "gpu-out-of-memory"))
    assert "JAX" not in words and "PyTorch" not in words


#: TensorFlow's own cuDNN refusal (cuda_dnn.cc under TensorFlow 2.16 and later's XLA).
_TF_REFUSAL = (
    "2024-11-02 10:00:01.123456: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:522"
    "] Loaded runtime CuDNN library: {loaded} but source was compiled with: 9.3.0.  CuDNN "
    "library needs to have matching major version and equal or higher minor version.\n"
)


def test_tensorflows_cudnn_refusal_beside_pytorch_names_a_cudnn_both_take() -> None:
    text = ">>> import torch\n>>> import tensorflow as tf\n" + _TF_REFUSAL.format(loaded="9.1.0")
    found = _only(text, "cudnn-shadowed")
    words = fix_text(found)
    assert "PyTorch" in words and "nvidia-cudnn-cu12>=9.3.0,<10" in words


def test_tensorflows_cudnn_refusal_of_another_major_beside_jax_keeps_them_apart() -> None:
    text = ">>> import jax\n>>> import tensorflow as tf\n" + _TF_REFUSAL.format(loaded="8.9.7")
    found = _only(text, "cudnn-shadowed")
    words = fix_text(found)
    assert "JAX" in words and "separate virtual environments" in words
    assert "nvidia-cudnn-cu12>=" not in words  # another major serves neither side


# --- ONNX Runtime beside TensorFlow -------------------------------------------------------------


def test_onnxruntimes_cuda_provider_refusal_names_its_own_majors() -> None:
    text = (
        "2024-09-10 12:00:00.2 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 "
        "CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN "
        "9.* and CUDA 12.*. Please install all dependencies as mentioned in the GPU "
        "requirements page, make sure they're in the PATH, and that your GPU is supported.\n"
    )
    report = explained(text, matrix=BUNDLED)
    found = _only(text, "cuda-libs-missing")
    assert found.severity is Severity.WARNING  # ONNX Runtime goes on on the CPU
    words = fix_text(found)
    assert "onnxruntime-gpu" in words and "nvidia-cudnn-cu12==9.*" in words
    assert finding_of(report, "cuda-libs-off-path") is None


@pytest.mark.parametrize(
    ("library", "loaded", "required", "cause", "words"),
    [
        pytest.param("cuDNN", "8700", "8904", "cudnn-shadowed", "cuDNN 8.9.4", id="cudnn8"),
        pytest.param("cuDNN", "90100", "90300", "cudnn-shadowed", "cuDNN 9.3.0", id="cudnn9"),
        pytest.param("CUDA", "12010", "12020", "cuda-lib-shadowed", "CUDA 12.2", id="cuda"),
        pytest.param(
            "cuSOLVER", "11405", "11502", "cuda-lib-shadowed", "cuSOLVER 11502", id="cusolver"
        ),
    ],
)
def test_jaxs_own_check_of_an_older_cuda_library_is_an_older_copy_first(
    library: str, loaded: str, required: str, cause: str, words: str
) -> None:
    text = (
        f"CUDA backend failed to initialize: Found {library} version {loaded}, but JAX was "
        f"built against version {required}, which is newer. The copy of {library} that is "
        "installed must be at least as new as the version against which JAX was built. (Set "
        "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n"
    )
    found = _only(text, cause)
    assert found.severity is Severity.WARNING  # JAX goes on on the CPU
    assert words in fix_text(found) and "LD_LIBRARY_PATH" in fix_text(found)


_ORT_REFUSAL = (
    "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 CreateExecutionProviderInstance] "
    "Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA {cuda}.*. Please install "
    "all dependencies as mentioned in the GPU requirements page, make sure they're in the PATH, "
    "and that your GPU is supported.\n"
)


def test_onnxruntimes_cudnn_never_replaces_the_cudnn_major_tensorflow_pins() -> None:
    # TensorFlow 2.17's and-cuda extra pins nvidia-cudnn-cu12==8.9.7.29: ONNX Runtime's cuDNN 9
    # in the same environment would replace it, and TensorFlow would refuse cuDNN 9.
    line = BUNDLED.line_for("2.17")
    assert line is not None and (line.declared("nvidia-cudnn-cu12") or "").startswith("==8.")
    text = "Successfully installed nvidia-cudnn-cu12-8.9.7.29 tensorflow-2.17.1\n"
    found = _only(text + _ORT_REFUSAL.format(cuda="12"), "cuda-libs-missing")
    commands = " ".join(found.fix.commands if found.fix else ())
    assert "nvidia-cudnn-cu12==9" not in commands
    assert "venv" in commands and "onnxruntime-gpu" in commands
    assert "2.17" in fix_text(found) and "8.9.7.29" in fix_text(found)


def test_onnxruntimes_cuda_13_runtime_is_the_unsuffixed_wheel() -> None:
    # From CUDA 13 NVIDIA's toolkit wheels carry no -cuXX suffix (tfdoctor/data/cuda.yaml).
    found = _only(_ORT_REFUSAL.format(cuda="13"), "cuda-libs-missing")
    commands = " ".join(found.fix.commands if found.fix else ())
    assert "nvidia-cuda-runtime-cu13" not in commands
    assert '"nvidia-cuda-runtime"' in commands and '"nvidia-cudnn-cu13==9.*"' in commands


def test_tensorflow_servings_cudnn_refusal_is_not_jaxlibs() -> None:
    # TensorFlow Serving's workspace names TensorFlow org_tensorflow as jaxlib's did: its
    # 2.12-2.14 model server logs XLA's cuda_dnn.cc under the same path.
    text = (
        "2023-07-11 18:29:01.101010: I tensorflow_serving/model_servers/server.cc:74] Building "
        "single TensorFlow model file config:  model_name: m model_base_path: /models/m\n"
        "2023-07-11 18:29:03.216176: E external/org_tensorflow/tensorflow/compiler/xla/"
        "stream_executor/cuda/cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.6.0 but source "
        "was compiled with: 8.9.4.  CuDNN library needs to have matching major version and "
        "equal or higher minor version.\n"
    )
    report = explained(text, matrix=BUNDLED)
    assert all("JAX" not in fix_text(x) for x in report.findings if x.fix is not None)
    assert finding_of(report, "cudnn-version-mismatch") is not None


#: pip's notice of TensorFlow's and-cuda pin broken, with no other framework in the log.
_NO_FRAMEWORK_SHOWN = """\
ERROR: pip's dependency resolver does not currently take into account all the packages that \
are installed. This behaviour is the source of the following dependency conflicts.
tensorflow 2.17.1 requires nvidia-cudnn-cu12==8.9.7.29; extra == "and-cuda", but you have \
nvidia-cudnn-cu12 9.1.0.70 which is incompatible.
Successfully installed nvidia-cudnn-cu12-9.1.0.70
"""


def test_a_replaced_cuda_wheel_no_framework_shown_asks_what_requires_it() -> None:
    found = _only(_NO_FRAMEWORK_SHOWN, "cuda-wheel-pins")
    text = fix_text(found)
    # No framework's requirement is in the log: none is said to have pulled the wheel, and
    # where TensorFlow alone requires it, its own pin back is the answer.
    assert "the framework that pulled" not in text and "what pulled it pins" not in text
    assert found.fix is not None and found.fix.commands[0] == "pip show nvidia-cudnn-cu12"
    assert "Required-by" in text and "(nvidia-cudnn-cu12==8.9.7.29) back serves" in text


def test_a_cuda_11_tensorflows_cudnn_refusal_beside_pytorch_names_its_own_cudnn_wheel() -> None:
    # TensorFlow 2.14 is built with CUDA 11.8: its and-cuda extra pins nvidia-cudnn-cu11, and a
    # CUDA 12 cuDNN wheel is not the one it needs.
    line = BUNDLED.line_for("2.14")
    assert line is not None and line.declared("nvidia-cudnn-cu11") == "==8.7.0.84"
    text = (
        "Successfully installed tensorflow-2.14.1\n>>> import torch\n>>> import tensorflow\n"
        "2023-11-02 10:00:01.123456: E tensorflow/compiler/xla/stream_executor/cuda/"
        "cuda_dnn.cc:439] Loaded runtime CuDNN library: 8.5.0 but source was compiled with: "
        "8.7.0.  CuDNN library needs to have matching major version and equal or higher minor "
        "version.\n"
    )
    found = _only(text, "cudnn-shadowed")
    words = fix_text(found)
    assert "nvidia-cudnn-cu12" not in words
    assert "nvidia-cudnn-cu11==8.7.0.84" in words


def test_a_tensorflow_without_cuda_wheels_beside_pytorch_installs_no_cudnn_wheel() -> None:
    # TensorFlow 2.13 has no and-cuda extra: it finds no NVIDIA wheel's cuDNN, and pip's
    # CUDA 12 cuDNN serves neither its CUDA 11.8 build nor changes what loads.
    text = (
        "Successfully installed tensorflow-2.13.1\n>>> import torch\n>>> import tensorflow\n"
        "2023-11-02 10:00:01.123456: E tensorflow/compiler/xla/stream_executor/cuda/"
        "cuda_dnn.cc:439] Loaded runtime CuDNN library: 8.5.0 but source was compiled with: "
        "8.6.0.  CuDNN library needs to have matching major version and equal or higher minor "
        "version.\n"
    )
    found = _only(text, "cudnn-shadowed")
    assert "nvidia-cudnn-cu12" not in fix_text(found)
