"""CUDA libraries the loader did not find, where the log cannot tell absent from installed off
the loader's path: the missing cause first, and the other candidate as a warning with the
search that tells them apart and its path line. Where the log decides (a copy shown on the
disk), only one reading."""

from __future__ import annotations

from typing import Optional

from tests.explaining import explained, fix_text
from tfdoctor import causes
from tfdoctor.findings import Finding, Report, Severity

LINUX = (
    "2023-05-02 10:11:12.000001: W tensorflow/compiler/xla/stream_executor/platform/default/"
    "dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
    "libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
    "Traceback (most recent call last):\n"
    '  File "/srv/app/train.py", line 4, in <module>\n'
    "    assert tf.config.list_physical_devices('GPU')\n"
    "AssertionError\n"
)


def _of(report: Report, cause: str) -> Optional[Finding]:
    return next((f for f in report.findings if f.cause == cause), None)


def test_an_unfound_library_names_the_off_path_candidate_second() -> None:
    report = explained(LINUX)
    missing = _of(report, "cuda-libs-missing")
    other = _of(report, "cuda-libs-off-path")
    assert missing is not None and other is not None
    assert other.severity is Severity.WARNING
    assert missing.severity.rank >= other.severity.rank
    fix = fix_text(other)
    assert "LD_LIBRARY_PATH" in fix and "ldconfig -p" in fix and "libcudart" in fix


def test_a_windows_dll_is_searched_for_and_put_on_path() -> None:
    log = (
        "2020-06-20 09:00:00.000000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:55] Could not load dynamic library 'cudart64_101.dll'; dlerror: "
        "cudart64_101.dll not found\n"
    )
    other = _of(explained(log), "cuda-libs-off-path")
    assert other is not None and other.severity is Severity.WARNING
    fix = fix_text(other)
    assert "PATH" in fix and "where.exe /R" in fix and "LD_LIBRARY_PATH" not in fix


def test_a_copy_the_log_shows_is_one_reading_only() -> None:
    log = (
        "$ ls /opt/cuda-11.0/lib64/libcudart.so.11.0\n"
        "/opt/cuda-11.0/lib64/libcudart.so.11.0\n" + LINUX
    )
    report = explained(log)
    found = [f for f in report.findings if f.cause in ("cuda-libs-off-path", "cuda-libs-missing")]
    assert [f.cause for f in found] == ["cuda-libs-off-path"]
    assert "/opt/cuda-11.0/lib64" in fix_text(found[0])


def test_two_releases_mixed_on_the_path_get_no_off_path_candidate() -> None:
    # The library loaded and lacks a versioned symbol of its partner: it is on the path.
    log = (
        "2023-05-02 10:11:12.000001: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcusolver.so.11'; dlerror: "
        "/usr/local/cuda-11.2/lib64/libcusolver.so.11: undefined symbol: cublasLtMatmul, "
        "version libcublasLt.so.11\n"
    )
    report = explained(log)
    assert _of(report, "cuda-libs-off-path") is None


# --- a program run from the Nix store: its libraries come through run paths -----------------

_NIX_SITE = "/nix/store/0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p-python3-3.10.12-env/lib/python3.10"


def _nix_import(library: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{_NIX_SITE}/site-packages/tensorflow/python/pywrap_tensorflow.py", line 58, '
        "in <module>\n"
        "    from tensorflow.python._pywrap_tensorflow_internal import *\n"
        f"ImportError: {library}: cannot open shared object file: No such file or directory\n"
    )


def test_a_toolkit_library_unfound_under_the_nix_store_is_off_its_run_path() -> None:
    report = explained(_nix_import("libcusolver.so.11"))
    found = _of(report, "cuda-libs-off-path")
    assert found is not None and found.severity == Severity.ERROR
    fix = fix_text(found)
    assert "cudatoolkit" in fix and "find /nix/store" in fix
    assert "/run/opengl-driver/lib" not in fix  # the driver's directory is for libcuda
    assert _of(report, "cuda-libs-missing") is None


def test_libcuda_off_the_nix_run_path_is_the_driver_directory() -> None:
    fix = causes.gpu.nix_cuda_fix(_NIX_SITE, ["cuda"])
    assert "/run/opengl-driver/lib" in fix.text and "hardware.graphics.enable" in fix.text
    assert "cudatoolkit" not in fix.text  # the toolkit's words are for its own libraries
    assert any("/run/opengl-driver/lib" in c for c in fix.commands)


def test_the_same_import_outside_the_nix_store_is_no_nix_reading() -> None:
    text = _nix_import("libcusolver.so.11").replace(_NIX_SITE, "/usr/lib/python3.10")
    assert "/nix/store" not in "\n".join(
        fix_text(f) for f in explained(text).findings if f.fix is not None
    )


# --- the CUDA runtime missing where a GPU was enumerated is not a machine without one --------

_CUDART_LOOK = (
    "2023-09-12 10:09:46.962824: W tensorflow/stream_executor/platform/default/dso_loader.cc:64]"
    " Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot "
    "open shared object file: No such file or directory\n"
    "2023-09-12 10:09:46.962865: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore "
    "above cudart dlerror if you do not have a GPU set up on your machine.\n"
)
_NUMA_READ = (
    "2023-09-12 10:09:50.526712: I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:939] "
    "successful NUMA node read from SysFS had negative value (-1), but there must be at least "
    "one NUMA node, so returning NUMA node zero\n"
)


def test_the_runtimes_look_alone_stays_a_note() -> None:
    found = _of(explained(_CUDART_LOOK), "cuda-libs-missing")
    assert found is not None and found.severity == Severity.INFO


def test_the_runtime_missing_after_a_gpu_was_enumerated_is_a_problem() -> None:
    found = _of(explained(_CUDART_LOOK + _NUMA_READ), "cuda-libs-missing")
    assert found is not None and found.severity.rank >= Severity.WARNING.rank


# --- TensorFlow's summary without the loader's lines: a cuDNN of another major too ----------

_SKIPPED = (
    "W0000 00:00:1736383795.205652  747392 gpu_device.cc:2344] Cannot dlopen some GPU libraries. "
    "Please make sure the missing libraries mentioned above are installed properly if you would "
    "like to use GPU. Follow the guide at https://www.tensorflow.org/install/gpu for how to "
    "download and setup the required libraries for your platform.\n"
    "Skipping registering GPU devices...\n"
)


def test_the_summary_alone_ranks_a_cudnn_of_another_major_among_the_candidates() -> None:
    report = explained(_SKIPPED)
    ids = [(x.cause, x.severity) for x in report.findings]
    # No line names the library: the summary alone says the GPU was not registered.
    assert ids[0] == ("cuda-libs-missing", Severity.WARNING)
    (cudnn,) = [x for x in report.findings if x.cause == "cudnn-version-mismatch"]
    assert cudnn.severity is Severity.WARNING and cudnn.summary.startswith("Or: ")
    fix = fix_text(cudnn)
    # Each cuDNN major with the lines whose builds load it, from the matrix.
    assert "cuDNN 9: 2.18 to" in fix and "cuDNN 8: 2.4 to 2.17" in fix
    assert cudnn.fix is not None and any("libcudnn" in c for c in cudnn.fix.commands)


def test_the_summary_with_the_tensorflow_shown_names_its_cudnn_major() -> None:
    fix = fix_text(
        next(
            x
            for x in explained("tensorflow 2.18.0\n" + _SKIPPED).findings
            if x.cause == "cudnn-version-mismatch"
        )
    )
    assert "TensorFlow 2.18 loads cuDNN 9" in fix


def test_a_library_the_loader_names_leaves_no_cudnn_candidate() -> None:
    named = (
        "2022-01-01 10:00:00.000001: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcusolver.so.11'; dlerror: "
        "libcusolver.so.11: cannot open shared object file: No such file or directory\n"
    )
    report = explained(named + _SKIPPED)
    assert all(x.cause != "cudnn-version-mismatch" for x in report.findings)


def test_the_cudnn_candidates_install_is_the_releases_own_way() -> None:
    # TensorFlow 2.10 on Windows finds cuDNN's DLLs through PATH, not in pip's nvidia wheels;
    # 2.12 does not search the wheels' directories itself: the fix the cause has elsewhere.
    windows = next(
        x
        for x in explained(
            "tensorflow 2.10.0\nC:\\Users\\me> python train.py\n" + _SKIPPED
        ).findings
        if x.cause == "cudnn-version-mismatch"
    )
    assert "nvidia-cudnn" not in fix_text(windows) and "on PATH" in fix_text(windows)
    linux = next(
        x
        for x in explained("tensorflow 2.12.0\n" + _SKIPPED).findings
        if x.cause == "cudnn-version-mismatch"
    )
    assert linux.fix is not None
    assert any("LD_LIBRARY_PATH" in c for c in linux.fix.commands), linux.fix.commands


def test_the_summary_alone_says_no_line_names_the_library_and_claims_no_copy() -> None:
    report = explained(_SKIPPED)
    missing = _of(report, "cuda-libs-missing")
    assert missing is not None and missing.severity is Severity.WARNING
    assert "No line of the log names the library" in fix_text(missing)
    # The summary's own words: some GPU libraries did not load, the GPU skipped.
    assert "some GPU libraries did not load and that it skipped the GPU" in fix_text(missing)
    # Nothing named, nothing shown on the disk: no library is shown off the loader's path.
    assert _of(report, "cuda-libs-off-path") is None


def test_the_summary_after_the_loaders_line_names_the_library_at_error() -> None:
    log = (
        "2023-03-01 10:00:00.000000: W tensorflow/tsl/platform/default/dso_loader.cc:66] "
        "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open "
        "shared object file: No such file or directory\n" + _SKIPPED
    )
    report = explained(log)
    missing = _of(report, "cuda-libs-missing")
    assert missing is not None and missing.severity is Severity.ERROR
    assert "No line of the log names" not in fix_text(missing)
    assert _of(report, "cuda-libs-off-path") is not None
