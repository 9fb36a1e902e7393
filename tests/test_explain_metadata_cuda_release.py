"""Two readings a resolver's or TensorFlow's own words carry: a TensorFlow release whose own
metadata requires a companion no resolver can find (uv's universal lock, Poetry, Pipenv and
pip-tools), and a GPU newer than the CUDA release the build runs with (the GPU from its device
line, the CUDA from the libraries it opened, a handle or plan that fails)."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, readings, top_error
from tfdoctor.causes.gpu import gpu_newer_candidate
from tfdoctor.cuda_layout import first_cuda_for
from tfdoctor.facts import Facts
from tfdoctor.machine import Machine
from tfdoctor.matrix import load_matrix

_REAL_MATRIX = load_matrix(env={})


def _causes(text: str) -> set[str]:
    return {x.cause for x in readings(explained(text)) if x.cause}


# --- tf-metadata-unsatisfiable ----------------------------------------------------------------


def test_uvs_universal_lock_of_a_platform_companion_is_limited_to_other_environments() -> None:
    text = (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  ╰─▶ Because there is no version of tensorflow-intel{sys_platform == 'win32'}==2.18.0"
        " and tensorflow==2.18.0 depends on\n"
        "      tensorflow-intel{sys_platform == 'win32'}==2.18.0, we can conclude that"
        " tensorflow==2.18.0 cannot be used.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-metadata-unsatisfiable"
    fix = fix_text(top)
    # The environment uv cannot lock is left out, named from the marker it printed.
    assert "tensorflow-intel==2.18.0" in fix
    assert "environments = [\"sys_platform != 'win32'\"]" in fix
    assert "uv lock" in fix


def test_a_marker_of_several_clauses_is_told_without_a_made_up_complement() -> None:
    text = (
        "Because there are no versions of tensorflow-cpu-aws{platform_machine == 'aarch64' and"
        " sys_platform == 'linux'}==2.16.1 and tensorflow==2.16.1 depends on"
        " tensorflow-cpu-aws{platform_machine == 'aarch64' and sys_platform == 'linux'}==2.16.1,"
        " we can conclude that tensorflow==2.16.1 cannot be used.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-metadata-unsatisfiable"
    fix = fix_text(top)
    assert "tensorflow-cpu-aws" in fix and "environments" in fix and "!=" not in fix


def test_a_pre_release_companion_pipenv_could_not_match_is_locked_with_pre() -> None:
    text = (
        "Warning: Your dependencies could not be resolved. You likely have a mismatch in your"
        " sub-dependencies.\n"
        "Could not find a version that matches tensorflow-estimator<2.5.0,>=2.4.0-rc0\n"
        "Tried: 2.2.0, 2.3.0, 2.4.0rc0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-metadata-unsatisfiable"
    fix = fix_text(top)
    assert "tensorflow-estimator" in fix and "pipenv lock --pre" in fix
    assert "release candidate" in fix


def test_poetrys_words_name_the_companion() -> None:
    text = (
        "Because tensorflow-cpu (2.19.0) depends on tensorflow-intel (2.19.0) which doesn't"
        " match any versions, tensorflow-cpu is forbidden.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-metadata-unsatisfiable"
    assert "pip index versions tensorflow-intel" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        # The project's own pin of a release that does not exist: not TensorFlow's metadata.
        "Because there is no version of tensorflow==2.99.0 and your project depends on"
        " tensorflow==2.99.0, we can conclude that your project's requirements are"
        " unsatisfiable.",
        # Another distribution's requirement, or TensorFlow's of a non-companion.
        "Because there is no version of numpy==3.0.0 and tensorflow==2.15.0 depends on"
        " numpy==3.0.0, we can conclude that tensorflow==2.15.0 cannot be used.",
        "Because there is no version of tensorboard==9.0 and mytool==1.0 depends on"
        " tensorboard==9.0, we can conclude that mytool==1.0 cannot be used.",
        # pip-tools on a project's own one-sided pin of tensorboard, and on TensorFlow itself.
        "Could not find a version that matches tensorboard==9.9.9",
        "Could not find a version that matches tensorflow<2.5,>=2.4",
        # Poetry on the project's own requirement.
        "Because myapp depends on tensorflow-intel (9.9.9) which doesn't match any versions,"
        " version solving failed.",
    ],
    ids=["uv-own-pin", "uv-numpy", "uv-other-dependant", "piptools-pin", "piptools-tf", "poetry"],
)
def test_the_same_words_about_other_requirements_are_not_this_cause(line: str) -> None:
    assert "tf-metadata-unsatisfiable" not in _causes(line + "\n")


# --- cuda-release-predates-gpu ----------------------------------------------------------------

_TURING_CUDA9 = (
    "I tensorflow/stream_executor/dso_loader.cc:152] successfully opened CUDA library"
    " libcublas.so.9.0 locally\n"
    "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1432] Found device 0 with properties:\n"
    "name: GeForce GTX 1660 Ti major: 7 minor: 5 memoryClockRate(GHz): 1.77\n"
)


def test_first_cuda_per_architecture_comes_from_the_data() -> None:
    assert first_cuda_for("7.5") == "10.0"
    assert first_cuda_for("8.6") == "11.1"
    assert first_cuda_for("3.1") is None


@pytest.mark.parametrize(
    "failure",
    [
        "E tensorflow/stream_executor/cuda/cuda_blas.cc:464] failed to create cublas handle:"
        " CUBLAS_STATUS_NOT_INITIALIZED",
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:373] Could not create cudnn handle:"
        " CUDNN_STATUS_INTERNAL_ERROR",
        "E tensorflow/stream_executor/cuda/cuda_fft.cc:261] failed to make cuFFT batched plan:5",
        "E tensorflow/stream_executor/cuda/cuda_blas.cc:652] failed to run cuBLAS routine"
        " cublasSgemm_v2: CUBLAS_STATUS_EXECUTION_FAILED",
    ],
    ids=["cublas-handle", "cudnn-handle", "cufft-plan", "cublas-execution"],
)
def test_a_turing_gpu_under_cuda_9_is_told_the_first_cuda_that_knows_it(failure: str) -> None:
    report = explained(_TURING_CUDA9 + failure + "\n", matrix=_REAL_MATRIX)
    top = top_error(report)
    assert top.cause == "cuda-release-predates-gpu"
    fix = fix_text(top)
    assert "CUDA 10.0" in fix and "GTX 1660 Ti" in fix and "CUDA 9.0" in fix
    # The matrix's first line built with CUDA 10.0 or later, and its install.
    assert "TensorFlow 1.15" in fix and "tensorflow-gpu==1.15" in fix


def test_an_ampere_gpu_named_by_its_model_under_a_cuda_10_build() -> None:
    text = (
        "2021-03-01 10:00:00.000000: I tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:48] Successfully opened dynamic library libcudart.so.10.1\n"
        "2021-03-01 10:00:01.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1555]"
        " Found device 0 with properties: \n"
        "pciBusID: 0000:01:00.0 name: GeForce RTX 3090 computeCapability: 8.6\n"
        "2021-03-01 10:00:05.000000: E tensorflow/stream_executor/cuda/cuda_blas.cc:226]"
        " failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n"
    )
    top = top_error(explained(text, matrix=_REAL_MATRIX))
    assert top.cause == "cuda-release-predates-gpu"
    fix = fix_text(top)
    assert "CUDA 11.1" in fix and "RTX 3090" in fix


def test_a_gpu_no_known_line_is_built_for_keeps_the_other_readings() -> None:
    # Compute capability 12.0 (Blackwell): its first CUDA is newer than every line's build, so
    # no install would help, and the handle failure keeps its usual reading (the memory).
    text = (
        "2025-06-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:2021]"
        " Created device /job:localhost/replica:0/task:0/device:GPU:0 with 30000 MB memory:"
        "  -> device: 0, name: NVIDIA GeForce RTX 5090, pci bus id: 0000:01:00.0, compute"
        " capability: 12.0\n"
        "2025-06-01 10:00:05.000000: E external/local_xla/xla/stream_executor/cuda/"
        "cuda_blas.cc:190] failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n"
    )
    causes = _causes(text)
    assert "cuda-release-predates-gpu" not in causes and "gpu-library-init-failed" in causes


def test_a_ptx_only_gpu_under_an_older_cuda_is_this_cause_not_the_jit_cache() -> None:
    text = (
        _TURING_CUDA9
        + "W tensorflow/stream_executor/cuda/cuda_driver.cc:1000] CUDA_ERROR_NO_BINARY_FOR_GPU\n"
    )
    top = top_error(explained(text, matrix=_REAL_MATRIX))
    assert top.cause == "cuda-release-predates-gpu"


@pytest.mark.parametrize(
    "text",
    [
        # The same failures on a Turing GPU under CUDA 10.0, which knows it.
        "Successfully opened dynamic library libcudart.so.10.0\n"
        "name: GeForce RTX 2070 major: 7 minor: 5 memoryClockRate(GHz): 1.62\n"
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] Could not create cudnn handle:"
        " CUDNN_STATUS_INTERNAL_ERROR\n",
        # A Pascal GPU under CUDA 9.0.
        "successfully opened CUDA library libcublas.so.9.0 locally\n"
        "name: GeForce GTX 1080 Ti major: 6 minor: 1 memoryClockRate(GHz): 1.58\n"
        "E tensorflow/stream_executor/cuda/cuda_blas.cc:464] failed to create cublas handle:"
        " CUBLAS_STATUS_NOT_INITIALIZED\n",
        # An Ampere GPU under a CUDA 11 runtime, its minor unknown: not older by its major.
        "Successfully opened dynamic library libcudart.so.11.0\n"
        "pciBusID: 0000:01:00.0 name: NVIDIA GeForce RTX 3090 computeCapability: 8.6\n"
        "E tensorflow/stream_executor/cuda/cuda_blas.cc:226] failed to create cublas handle:"
        " CUBLAS_STATUS_NOT_INITIALIZED\n",
        # A Turing GPU and the failure, but no CUDA the log shows.
        "name: GeForce GTX 1660 Ti major: 7 minor: 5 memoryClockRate(GHz): 1.77\n"
        "E tensorflow/stream_executor/cuda/cuda_blas.cc:464] failed to create cublas handle:"
        " CUBLAS_STATUS_NOT_INITIALIZED\n",
    ],
    ids=["turing-cuda10", "pascal-cuda9", "ampere-cuda11-major", "no-cuda-shown"],
)
def test_a_gpu_the_builds_cuda_knows_keeps_the_library_reading(text: str) -> None:
    causes = _causes(text)
    assert "cuda-release-predates-gpu" not in causes
    assert "gpu-library-init-failed" in causes


def test_cufft_plan_failure_alone_is_a_library_that_could_not_start() -> None:
    text = (
        "E tensorflow/stream_executor/cuda/cuda_fft.cc:261] failed to make cuFFT batched plan:5\n"
    )
    assert top_error(explained(text)).cause == "gpu-library-init-failed"


def test_a_plan_in_other_words_is_not_cufft() -> None:
    assert "gpu-library-init-failed" not in _causes("failed to make a plan for the weekend\n")


# --- the GPU's and the build's sides, as TensorFlow 1.x and Windows print them ---------------

_TF1_CREATED_TURING = (
    "2019-08-23 10:56:41.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1115]"
    " Created TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 6925 MB"
    " memory) -> physical GPU (device: 0, name: GeForce RTX 2070, pci bus id: 0000:01:00.0,"
    " compute capability: 7.5)\n"
)
_CUFFT_PLAN = (
    "2019-08-23 10:57:05.092767: E tensorflow/stream_executor/cuda/cuda_fft.cc:261] failed to"
    " make cuFFT batched plan:5\n"
)
_CUBLAS_HANDLE = (
    "E tensorflow/stream_executor/cuda/cuda_blas.cc:464] failed to create cublas handle:"
    " CUBLAS_STATUS_NOT_INITIALIZED\n"
)


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(
            "I tensorflow/stream_executor/dso_loader.cc:152] successfully opened CUDA library"
            " libcufft.so.9.0 locally\n",
            id="tf1-linux-library",
        ),
        pytest.param(
            "I tensorflow/stream_executor/dso_loader.cc:152] successfully opened CUDA library"
            " cublas64_90.dll locally\n",
            id="tf1-windows-dll",
        ),
        pytest.param(
            "Requirement already satisfied: tensorflow-gpu==1.12.0 in /usr/local/lib/python3.6/"
            "dist-packages (1.12.0)\n",
            id="release-of-the-tested-configurations",
        ),
    ],
)
def test_tf1s_created_device_line_and_the_builds_cuda_make_the_cause(build: str) -> None:
    top = top_error(explained(build + _TF1_CREATED_TURING + _CUFFT_PLAN, matrix=_REAL_MATRIX))
    assert top.cause == "cuda-release-predates-gpu"
    fix = fix_text(top)
    assert "RTX 2070" in fix and "CUDA 9.0" in fix and "CUDA 10.0" in fix


def test_a_release_of_the_tested_configurations_that_knows_the_gpu_is_not_the_cause() -> None:
    build = "pip install tensorflow-gpu==1.13.1\n"
    causes = _causes(build + _TF1_CREATED_TURING + _CUFFT_PLAN)
    assert "cuda-release-predates-gpu" not in causes and "gpu-library-init-failed" in causes


def _candidates(text: str) -> str:
    report = explained(text, matrix=_REAL_MATRIX)
    finding = next(x for x in report.findings if x.cause == "gpu-library-init-failed")
    return fix_text(finding)


def test_the_gpu_alone_ranks_the_cuda_that_predates_it_after_memory() -> None:
    text = _candidates(
        "name: GeForce GTX 1660 Ti major: 7 minor: 5 memoryClockRate(GHz): 1.77\n" + _CUBLAS_HANDLE
    )
    memory = text.index("memory was already taken")
    newer = text.index("GTX 1660 Ti (compute capability 7.5), is newer than the CUDA release")
    version = text.index("of another version than the build's")
    assert memory < newer < version
    # The first release built with CUDA 10.0, from the tested build configurations.
    assert "TensorFlow 1.13.1 or later" in text


def test_the_builds_cuda_alone_names_the_first_gpus_it_does_not_know() -> None:
    text = _candidates(
        "successfully opened CUDA library libcublas.so.9.0 locally\n" + _CUBLAS_HANDLE
    )
    assert "newer than CUDA 9.0" in text
    assert "compute capability 7.2 or later" in text
    # Weaker than the GPU shown: after memory and the library's version, before the driver.
    newer = text.index("newer than CUDA 9.0")
    assert text.index("memory was already taken") < text.index("of another version") < newer
    assert newer < text.index("driver is older than")


def test_the_version_candidate_names_what_the_build_wants() -> None:
    text = _candidates(
        "tf.__version__ 2.12.0\n"
        '  File "/usr/lib/python3.10/site-packages/tensorflow/python/x.py", line 1, in f\n'
        + _CUBLAS_HANDLE
    )
    assert "the build wants cuDNN 8.6 (or a newer 8.x) and the cuBLAS of CUDA 11.8" in text


def test_a_gpu_every_build_knows_leaves_the_candidate_out() -> None:
    text = _candidates(
        "name: GeForce GTX 1080 Ti major: 6 minor: 1 memoryClockRate(GHz): 1.58\n" + _CUBLAS_HANDLE
    )
    assert "newer than the CUDA" not in text and "architecture newer" not in text


def test_the_bare_error_keeps_every_candidate_the_architecture_table_last() -> None:
    text = _candidates(_CUBLAS_HANDLE)
    assert text.startswith("The error does not say why")
    last = text.index("of an architecture newer than the CUDA release")
    assert last > text.index("driver is older than")
    # The first CUDA of each architecture some build predates (cuda.yaml's table).
    assert "7.5: CUDA 10.0" in text and "8.6: CUDA 11.1" in text
    assert "nvidia-smi -L" in text


@pytest.mark.parametrize(
    ("memory", "first"),
    [
        pytest.param("totalMemory: 10.92GiB freeMemory: 318.06MiB", True, id="little-free"),
        pytest.param("totalMemory: 10.92GiB freeMemory: 10.76GiB", False, id="nearly-all-free"),
    ],
)
def test_memory_taken_at_start_is_the_evidence_for_memory(memory: str, first: bool) -> None:
    text = _candidates(
        "name: GeForce GTX 1080 Ti major: 6 minor: 1 memoryClockRate(GHz): 1.58\n"
        "pciBusID: 0000:01:00.0\n" + memory + "\n" + _CUBLAS_HANDLE
    )
    shown = "only 318.06MiB of the GPU's 10.92GiB free when TensorFlow started"
    assert (shown in text) is first
    assert text.index("memory was already taken") < text.index("driver is older than")


@pytest.mark.parametrize(
    ("compiled", "kept"),
    [
        pytest.param("8.9.4", False, id="cudnn-of-lines-that-know-ampere"),
        pytest.param("7.6.0", True, id="cudnn-of-lines-before-ampere"),
    ],
)
def test_the_builds_cudnn_bounds_its_cuda_for_the_gpu_newer_candidate(
    compiled: str, kept: bool
) -> None:
    text = _candidates(
        "pciBusID: 0000:01:00.0 name: NVIDIA GeForce RTX 3090 computeCapability: 8.6\n"
        f"Loaded runtime CuDNN library: 7.4.1 but source was compiled with: {compiled}\n"
        + _CUBLAS_HANDLE
    )
    assert ("RTX 3090 (compute capability 8.6), is newer than the CUDA" in text) is kept


def test_the_gpu_newer_candidate_follows_minor_version_compatibility() -> None:
    # Ada (8.9) is first known to CUDA 11.8, yet a build of 11.1 or later of the same major
    # runs on it (the rule cuda-release-predates-gpu judges by): 2.5's CUDA 11.2 is the first.
    found = gpu_newer_candidate(Machine(Facts("", ""), _REAL_MATRIX), "8.9", None, None)
    assert found is not None
    assert found[0].startswith("the GPU (compute capability 8.9) is newer")
    assert "TensorFlow 2.5 the first whose CUDA runs on it (CUDA 11.2)" in found[0]


_SMI_AMPERE = (
    "| NVIDIA-SMI 455.45.01    Driver Version: 455.45.01    CUDA Version: 11.1     |\n"
    "|===============================+======================+======================|\n"
    "|   0  GeForce RTX 3090    Off  | 00000000:01:00.0  On |                  N/A |\n"
    "| 30%   35C    P8    20W / 350W |    512MiB / 24265MiB |      2%      Default |\n"
)
_CUBLAS_NOT_SUPPORTED = (
    "E tensorflow/stream_executor/cuda/cuda_blas.cc:428] failed to run cuBLAS routine:"
    " CUBLAS_STATUS_NOT_SUPPORTED\n"
)


@pytest.mark.parametrize(
    ("release", "cause"),
    [
        pytest.param("2.3.0", "cuda-release-predates-gpu", id="a-line-of-cuda-10"),
        pytest.param("2.4.0", "gpu-library-init-failed", id="a-line-that-knows-ampere"),
    ],
)
def test_nvidia_smis_gpu_and_the_release_shown_without_the_system_decide(
    release: str, cause: str
) -> None:
    # The log shows no operating system: a line's CUDA builds share one CUDA release, and a
    # cuBLAS that ran says the build is a CUDA one.
    text = f"{_SMI_AMPERE}$ pip install tensorflow-gpu=={release}\n{_CUBLAS_NOT_SUPPORTED}"
    top = top_error(explained(text, matrix=_REAL_MATRIX))
    assert top.cause == cause
    if cause == "cuda-release-predates-gpu":
        assert "GeForce RTX 3090 (compute capability 8.6)" in fix_text(top)


def test_nvidia_smis_gpu_alone_ranks_the_gpu_newer_candidate_first() -> None:
    # cuBLAS's NOT_SUPPORTED alone is no lack of memory: the GPU shown leads.
    text = _candidates(_SMI_AMPERE + _CUBLAS_NOT_SUPPORTED)
    assert "1. the GPU, GeForce RTX 3090 (compute capability 8.6), is newer" in text
    assert "memory was already taken" not in text


@pytest.mark.parametrize(
    ("release", "wants"),
    [
        pytest.param("1.2.0", "cuDNN 5.1 (or a newer 5.x) and the cuBLAS of CUDA 8.0", id="1.2"),
        pytest.param("1.12.0", "a cuDNN 7.x and the cuBLAS of CUDA 9.0", id="1.12"),
    ],
)
def test_a_release_of_the_tested_configurations_names_its_cudnn(release: str, wants: str) -> None:
    text = _candidates(f"pip install tensorflow-gpu=={release}\n{_CUBLAS_HANDLE}")
    assert f"the build wants {wants}" in text


def test_a_requirements_files_pin_of_1x_is_not_the_release_installed() -> None:
    # A pin alone on its line is what a requirements file asks for: no CUDA is read from it.
    text = "tensorflow-gpu==1.12.0\n" + _TF1_CREATED_TURING + _CUFFT_PLAN
    found = {x.cause for x in readings(explained(text, matrix=_REAL_MATRIX))}
    assert "cuda-release-predates-gpu" not in found and "gpu-library-init-failed" in found
