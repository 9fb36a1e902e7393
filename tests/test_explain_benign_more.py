"""Logs of programs that ran: a 2.1+ build looking for CUDA on a machine without a GPU, pip's
notice of a TensorFlow dependency outside its range after an install that went on, Colab's
request to restart after an install. Each is a note where the log shows nothing failing or
wanting a GPU, and keeps its weight where it does."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Finding, Report, Severity


def _one(report: Report, cause: str) -> Finding:
    (found,) = [x for x in report.findings if x.cause == cause]
    return found


def _worst(report: Report) -> Severity:
    return report.worst()


# --- TensorFlow 2.1+ looking for CUDA on a machine without a GPU -----------------------------

_RUNTIME_LINUX = (
    "2022-03-14 09:12:01.402211: W tensorflow/stream_executor/platform/default/dso_loader.cc:64]"
    " Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot "
    "open shared object file: No such file or directory\n"
)
_RUNTIME_WINDOWS = (
    "2020-05-02 18:40:10.118204: W tensorflow/stream_executor/platform/default/dso_loader.cc:55]"
    " Could not load dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found\n"
)
_HINT = (
    "2022-03-14 09:12:01.402260: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore "
    "above cudart dlerror if you do not have a GPU set up on your machine.\n"
)
#: The loader's line for a library it opened (dso_loader.cc), before the file's name.
_OPENED = (
    "2022-03-14 09:12:00.100000: I tensorflow/stream_executor/platform/default/"
    "dso_loader.cc:53] Successfully opened dynamic library "
)
_LIBCUDA = (
    "2022-03-14 09:12:05.771090: W tensorflow/stream_executor/platform/default/dso_loader.cc:64]"
    " Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared "
    "object file: No such file or directory\n"
)


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(_RUNTIME_LINUX + _HINT, id="linux-runtime"),
        pytest.param(_RUNTIME_WINDOWS + _HINT.replace("2022-03-14", "2020-05-02"), id="windows"),
        pytest.param(_RUNTIME_LINUX + _HINT + _LIBCUDA, id="runtime-and-libcuda"),
        # The prefix cut off by the paste: the loader's words still say which library.
        pytest.param(
            "tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic "
            "library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n" + _HINT,
            id="prefix-cut",
        ),
        pytest.param(
            "$ python -m mytool.simulate data.csv\n" + _RUNTIME_LINUX + _HINT + "done in 12.3 s\n",
            id="a-command-that-ran",
        ),
    ],
)
def test_the_runtime_looked_for_without_a_gpu_is_a_note_that_says_both(log: str) -> None:
    # TensorFlow's own next line says to ignore it without a GPU, and nothing shows one: a
    # note (the log is start-up noise, exit 0) that says it is harmless without a GPU and
    # keeps the fix for a machine meant to use one.
    report = explained(log)
    assert _worst(report) is Severity.INFO, [(x.id, x.severity) for x in report.findings]
    finding = _one(report, "cuda-libs-missing")
    assert "harmless" in finding.detail
    assert "CUDA" in fix_text(finding)


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param("print(tf.config.list_physical_devices('GPU'))\n[]\n", id="empty-gpu-list"),
        pytest.param("Num GPUs Available:  0\n", id="num-gpus-zero"),
        pytest.param("My GPU is not detected by TensorFlow.\n", id="users-complaint"),
        pytest.param("| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05 |\n", id="nvidia-smi"),
        pytest.param("GPU: NVIDIA GeForce RTX 3060\n", id="gpu-model"),
        pytest.param("GPU: NVIDIA A100-SXM4-80GB\n", id="data-center-gpu"),
        pytest.param("Running on an H100 node.\n", id="data-center-model-alone"),
        pytest.param("GPU: RTX3090\n", id="model-run-together"),
        pytest.param("$ pip install tensorflow-gpu==2.4.0\n", id="tensorflow-gpu"),
        pytest.param("$ pip install 'tensorflow[and-cuda]'\n", id="and-cuda-extra"),
        pytest.param("with tf.device('/device:GPU:0'):\n", id="device-request"),
        pytest.param("$ python train.py --require-gpu\n", id="require-gpu"),
        pytest.param("$ nvcc --version\nCuda compilation tools, release 11.2\n", id="nvcc"),
        pytest.param(">>> tf.test.gpu_device_name()\n''\n", id="gpu-device-name-empty"),
        pytest.param("print(tf.config.list_logical_devices('GPU'))\n[]\n", id="logical-gpus"),
        pytest.param(
            "tf.config.experimental.set_memory_growth(gpus[0], True)\n", id="memory-growth"
        ),
        pytest.param("Skipping registering GPU devices...\n", id="registration-skipped"),
        pytest.param(
            "$ cat /usr/local/cuda/version.txt\nCUDA Version 10.1.243\n", id="version-txt"
        ),
        pytest.param(
            "$ export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH\n", id="wsl-driver-dir"
        ),
        pytest.param("$ CUDA_VISIBLE_DEVICES=0 python train.py\n", id="visible-devices"),
        pytest.param(_OPENED + "libcublas.so.11\n", id="toolkit-library-opened"),
    ],
)
def test_a_log_that_shows_or_wants_a_gpu_keeps_the_error(extra: str) -> None:
    report = explained(extra + _RUNTIME_LINUX + _HINT)
    # The library's cause or what its builder makes of it (the CUDA wheels for an extra).
    assert _worst(report) is Severity.ERROR


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param("Copyright NVIDIA Corporation 2021\n", id="vendor-name"),
        pytest.param("Results are in table A100x and section V1000.\n", id="other-numbers"),
        # Every start opens the driver's libcuda to list devices: a CPU-only VM whose image
        # holds NVIDIA's libraries prints it too (cpu_machine._PROBED).
        pytest.param(_OPENED + "libcuda.so.1\n", id="driver-opened"),
    ],
)
def test_nvidias_other_words_name_no_gpu(extra: str) -> None:
    assert _worst(explained(extra + _RUNTIME_LINUX + _HINT)) is Severity.INFO


def test_wsl2s_driver_directory_on_the_loaders_path_wants_a_gpu() -> None:
    # The loader's own line names the path it searched: WSL2's driver directory is on it only
    # where the user set CUDA up under WSL2 (the loader does not search it by default).
    searched = _RUNTIME_LINUX.replace(
        "No such file or directory\n",
        "No such file or directory; LD_LIBRARY_PATH: /usr/lib/wsl/lib:/opt/conda/lib\n",
    )
    report = explained(searched + _HINT)
    assert _one(report, "cuda-libs-missing").severity is Severity.ERROR
    # Another directory on the path says nothing of a GPU: the note stays a note.
    other = searched.replace("/usr/lib/wsl/lib", "/usr/local/lib")
    assert _worst(explained(other + _HINT)) is Severity.INFO


def test_the_toolkits_other_libraries_are_looked_for_only_with_a_gpu_found() -> None:
    cublas = _RUNTIME_LINUX.replace("libcudart.so.11.0", "libcublas.so.11")
    report = explained(_RUNTIME_LINUX + _HINT + cublas)
    assert _one(report, "cuda-libs-missing").severity is Severity.ERROR


def test_the_gpu_libraries_summary_says_a_gpu_was_found() -> None:
    summary = (
        "2022-06-16 19:38:02.866924: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1850] "
        "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above "
        "are installed properly if you would like to use GPU.\nSkipping registering GPU "
        "devices...\n"
    )
    report = explained(_RUNTIME_LINUX + _HINT + summary)
    assert _one(report, "cuda-libs-missing").severity is Severity.ERROR


def test_the_loader_line_without_tensorflows_note_keeps_the_error() -> None:
    # A GPU setup without CUDA prints the same line alone: without TensorFlow's note nothing
    # shows the machine lacks a driver.
    report = explained(_RUNTIME_LINUX)
    assert _one(report, "cuda-libs-missing").severity is Severity.ERROR


#: The loader's lines of each release's layout for the runtime and the driver's library
#: (dso_loader.cc under stream_executor/platform/default in 2.1-2.10, tsl's copy later).
_NO_NOTE = [
    pytest.param(
        "2020-06-01 10:00:00.100000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:55] Could not load dynamic library 'libcudart.so.10.1'; dlerror: "
        "libcudart.so.10.1: cannot open shared object file: No such file or directory\n"
        "2020-06-01 10:00:02.200000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:55] Could not load dynamic library 'libcuda.so.1'; dlerror: "
        "libcuda.so.1: cannot open shared object file: No such file or directory\n",
        id="tf21-23-cuda101",
    ),
    pytest.param(_RUNTIME_LINUX + _LIBCUDA, id="tf24-210-cuda11"),
    pytest.param(
        "2021-08-01 10:00:00.100000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: "
        "cudart64_110.dll not found\n"
        "2021-08-01 10:00:03.300000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'nvcuda.dll'; dlerror: nvcuda.dll "
        "not found\n",
        id="windows-nvcuda",
    ),
    pytest.param(
        "2023-02-01 10:00:00.100000: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
        "libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
        "2023-02-01 10:00:01.100000: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcuda.so.1'; dlerror: "
        "libcuda.so.1: cannot open shared object file: No such file or directory\n",
        id="tf211-212-xla-path",
    ),
]


@pytest.mark.parametrize("log", _NO_NOTE)
def test_the_runtime_and_driver_missing_without_the_note_read_the_same(log: str) -> None:
    # TensorFlow's note is logged at INFO, under the loader's WARNING: a log at
    # TF_CPP_MIN_LOG_LEVEL=1 or a trimmed paste lacks it. The driver's library missing beside
    # a runtime only 2.1+ builds ask for is what a machine without a GPU prints.
    report = explained(log)
    assert _worst(report) is Severity.INFO, [(x.id, x.severity) for x in report.findings]


@pytest.mark.parametrize("log", _NO_NOTE)
def test_without_the_note_a_gpu_wanted_keeps_the_error(log: str) -> None:
    report = explained("GPU: NVIDIA GeForce RTX 3060\n" + log)
    assert _worst(report) is Severity.ERROR


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param(
            "$ cat /proc/driver/nvidia/version\nNVRM version: NVIDIA UNIX x86_64 Kernel Module  "
            "450.80.02  Wed Sep 23 01:13:39 UTC 2020\n",
            id="driver-version-file",
        ),
        pytest.param(
            "$ cat /usr/include/cudnn_version.h | grep CUDNN_MAJOR -A 2\n#define CUDNN_MAJOR 8\n",
            id="cudnn-header",
        ),
    ],
)
def test_a_driver_or_cudnn_the_log_shows_installed_keeps_the_error(shown: str) -> None:
    # The NVIDIA kernel module's version file and cuDNN's header show a machine set up for a
    # GPU: the runtime missing under TensorFlow's note is that setup's failure.
    assert _worst(explained(_RUNTIME_LINUX + _HINT)) is Severity.INFO
    report = explained(_RUNTIME_LINUX + _HINT + shown)
    assert _one(report, "cuda-libs-missing").severity is Severity.ERROR


def test_without_the_note_a_runtime_of_the_separate_gpu_build_keeps_the_error() -> None:
    # libcudart.so.10.0 is the runtime of tensorflow-gpu 1.13-2.0 (CUDA 10.0): a package
    # installed to use a GPU, whatever follows.
    old = (_RUNTIME_LINUX + _LIBCUDA).replace("libcudart.so.11.0", "libcudart.so.10.0")
    assert _worst(explained(old)) is Severity.ERROR
    # With TensorFlow's note (2.1 and later print it) the same start-up look reads the same.
    assert _worst(explained(_RUNTIME_LINUX + _LIBCUDA + _HINT)) is Severity.INFO


def test_a_tensorflow_older_than_2_1_keeps_the_error() -> None:
    report = explained("TensorFlow version: 2.0.0\n" + _RUNTIME_LINUX + _HINT)
    assert _one(report, "cuda-libs-missing").severity is Severity.ERROR


def test_jaxlibs_copy_of_the_loader_keeps_the_error() -> None:
    jax = _RUNTIME_LINUX.replace("W tensorflow/", "W external/org_tensorflow/tensorflow/")
    report = explained(jax + _HINT)
    assert _one(report, "cuda-libs-missing").severity is Severity.ERROR


def test_an_import_error_for_the_runtime_keeps_the_error() -> None:
    log = (
        _HINT + "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or "
        "directory\n"
    )
    report = explained(log)
    assert _worst(report) is Severity.ERROR


# --- pip's notice after an install that went on ------------------------------------------------

_NOTICE = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.\n"
)
# h5py 3 under TensorFlow 2.4, whose Keras loader calls .decode on what h5py 2 returned (h5py 2
# under 2.5 and later is a pair that works: test_explain_dependency_releases).
_H5PY = "tensorflow 2.4.1 requires h5py~=2.10.0, but you have h5py 3.1.0 which is incompatible.\n"


def test_tensorflows_own_range_broken_by_an_install_stays_a_warning() -> None:
    # pip prints its notice after installing, but in the real cases the pair it names is more
    # often what fails next (an h5py 3 under Keras 2's loader, a NumPy under a build for
    # another) than harmless: TensorFlow's own declared range keeps its warning.
    report = explained(_NOTICE + _H5PY + "Successfully installed h5py-3.1.0 mylib-0.4.1\n")
    finding = _one(report, "dependency-out-of-range")
    assert finding.severity is Severity.WARNING
    assert "h5py~=2.10.0" in fix_text(finding)


def test_the_same_notice_with_a_failure_after_it_is_a_warning() -> None:
    log = (
        _NOTICE + _H5PY + "Traceback (most recent call last):\n"
        '  File "train.py", line 4, in <module>\n'
        "    model = tf.keras.models.load_model('m.h5')\n"
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    report = explained(log)
    assert any(
        x.cause == "dependency-out-of-range" and x.severity.rank >= Severity.WARNING.rank
        for x in report.findings
    )


def test_the_conflict_line_alone_keeps_its_warning() -> None:
    # No notice: nothing says the install went on.
    finding = _one(explained(_H5PY), "dependency-out-of-range")
    assert finding.severity is Severity.WARNING


def test_protobuf_out_of_range_after_an_install_keeps_its_own_cause() -> None:
    line = (
        "tensorflow 2.10.0 requires protobuf<3.20,>=3.9.2, but you have protobuf 4.21.12 which "
        "is incompatible.\n"
    )
    finding = _one(explained(_NOTICE + line), "protobuf-incompatible")
    assert finding.severity is Severity.ERROR


# --- Colab's request to restart after an install --------------------------------------------------

_RESTART = (
    "WARNING: The following packages were previously imported in this runtime:\n"
    "  [numpy]\n"
    "You must restart the runtime in order to use newly installed versions.\n"
)


def test_colabs_restart_request_after_an_install_that_ended_well_is_a_note() -> None:
    report = explained("Successfully installed numpy-1.24.2 gradio-3.44.2\n" + _RESTART)
    finding = _one(report, "kernel-restart-needed")
    assert finding.severity is Severity.INFO
    assert "Restart session" in fix_text(finding)


def test_colabs_restart_request_with_a_failure_after_it_is_a_warning() -> None:
    log = (
        "Successfully installed numpy-1.24.2\n" + _RESTART + "Traceback (most recent call last):\n"
        '  File "<ipython-input-3-1>", line 1, in <module>\n'
        "    import numpy as np\n"
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility\n"
    )
    assert any(
        x.cause == "kernel-restart-needed" and x.severity is Severity.WARNING
        for x in explained(log).findings
    )


def test_colabs_restart_request_alone_is_a_warning() -> None:
    finding = _one(explained(_RESTART), "kernel-restart-needed")
    assert finding.severity is Severity.WARNING


# --- a kernel registered for an op the binary does not define --------------------------------


def test_kernels_for_unknown_ops_at_start_are_a_note() -> None:
    # TensorFlow 1.0's Windows wheels: tf.contrib's tensor_forest kernels without their ops.
    text = "".join(
        "E c:\\tf_jenkins\\home\\workspace\\release-win\\device\\cpu\\os\\windows\\tensorflow\\"
        f'core\\framework\\op_kernel.cc:943] OpKernel (\'op: "{op}" device_type: "CPU"\') for '
        f"unknown op: {op}\n"
        for op in ("BestSplits", "CountExtremelyRandomStats", "FinishedNodes")
    )
    report = explained(text)
    assert _worst(report).rank <= Severity.INFO.rank
    assert any(f.id == "explain.benign.kernel-for-unknown-op" for f in report.findings)
