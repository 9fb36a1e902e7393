"""CUDA and GPU library readings decided by what the log shows of the disk: a library the loader
did not find that a listing shows installed is off the loader's path (the path line for that
directory); an older cuDNN loaded while a listing shows the build's one installed is a copy
shadowing it; DirectML keeping no adapter is a GPU it cannot run on."""

from __future__ import annotations

import pytest

from tests.explaining import CANDIDATE, explained, fix_text, one_error, readings
from tfdoctor.evidence import tflog
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.matrix import load_matrix

_DSO = "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
_CUDART_11 = (
    f"{_DSO}Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
    "cannot open shared object file: No such file or directory"
)


def _finding(report: Report, cause: str) -> Finding:
    """The report's finding naming ``cause``, asserted to be at warning or above."""
    found = [x for x in report.findings if x.cause == cause]
    assert found, [(x.id, x.severity.value) for x in report.findings]
    assert found[0].severity in (Severity.WARNING, Severity.ERROR)
    return found[0]


def _causes(report: Report) -> set[str]:
    return {x.cause for x in report.findings if x.severity in (Severity.WARNING, Severity.ERROR)}


# --- the file shown on the disk ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "path"),
    [
        pytest.param(
            "/usr/local/cuda-11.2/lib64/libcudart.so.11.0",
            "/usr/local/cuda-11.2/lib64/libcudart.so.11.0",
            id="find-output",
        ),
        pytest.param(
            "lrwxrwxrwx 1 root root 20 Mar  3 2021 /opt/cuda/lib64/libcudnn.so.8 -> "
            "libcudnn.so.8.1.0",
            "/opt/cuda/lib64/libcudnn.so.8",
            id="ls-long",
        ),
        pytest.param(
            "/home/user/.venv/lib/python3.10/site-packages/nvidia/cublas/lib/libcublasLt.so.11",
            "/home/user/.venv/lib/python3.10/site-packages/nvidia/cublas/lib/libcublasLt.so.11",
            id="nvidia-wheel",
        ),
        pytest.param(
            r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2\bin\cudart64_110.dll",
            r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2\bin\cudart64_110.dll",
            id="windows-dll",
        ),
    ],
)
def test_a_library_file_at_a_path_is_read(line: str, path: str) -> None:
    shown = [e for e in tflog.read_line(line) if isinstance(e, tflog.LibraryFileShown)]
    assert [e.path for e in shown] == [path]


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("$ ls -l /usr/local/cuda/lib64/libcudart.so.11.0", id="the-command-only"),
        pytest.param(
            "ls: cannot access '/usr/local/cuda/lib64/libcudart.so.11.0': No such file or "
            "directory",
            id="ls-says-absent",
        ),
        pytest.param(
            "OSError: /usr/local/cuda/lib64/libcudnn.so.8: cannot open shared object file: No "
            "such file or directory",
            id="the-failure-itself",
        ),
        pytest.param(
            "\tlibcudnn.so.8 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.8",
            id="ldconfig-cache",
        ),
        pytest.param("cuda/lib64/libcudnn.so.8", id="relative-in-an-archive"),
        pytest.param("/usr/lib/x86_64-linux-gnu/libcrypto.so.3", id="not-a-cuda-library"),
    ],
)
def test_lines_that_do_not_show_a_file_on_the_disk_are_not_read(line: str) -> None:
    assert not [e for e in tflog.read_line(line) if isinstance(e, tflog.LibraryFileShown)]


def test_a_library_listed_on_the_disk_is_off_the_path_with_its_directory() -> None:
    report = explained(
        f"{_CUDART_11}\n"
        "$ find / -name 'libcudart.so*' 2>/dev/null\n"
        "/usr/local/cuda-11.2/lib64/libcudart.so.11.0\n"
    )
    top = _finding(report, "cuda-libs-off-path")
    assert top.severity is Severity.ERROR
    fix = fix_text(top)
    assert "/usr/local/cuda-11.2/lib64/libcudart.so.11.0" in fix
    assert "export LD_LIBRARY_PATH=/usr/local/cuda-11.2/lib64" in fix
    assert "cuda-libs-missing" not in _causes(report)


def test_the_import_error_with_an_ls_listing_is_off_the_path() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: libcublas.so.9.0: cannot open shared object file: No such file or "
        "directory\n"
        "Failed to load the native TensorFlow runtime.\n"
        "$ ls -l /usr/local/cuda-9.0/lib64/libcublas.so*\n"
        "lrwxrwxrwx 1 root root 16 Sep  2 2017 /usr/local/cuda-9.0/lib64/libcublas.so.9.0 -> "
        "libcublas.so.9.0.176\n"
    )
    fix = fix_text(_finding(report, "cuda-libs-off-path"))
    assert "LD_LIBRARY_PATH=/usr/local/cuda-9.0/lib64" in fix and "sudo" in fix


def test_a_windows_dll_shown_in_the_toolkit_folder_is_put_on_path() -> None:
    report = explained(
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
        "dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found\n"
        'C:\\Users\\user>where /R "C:\\Program Files\\NVIDIA GPU Computing Toolkit" '
        "cudart64_101.dll\n"
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1\\bin\\cudart64_101.dll\n"
    )
    fix = fix_text(_finding(report, "cuda-libs-off-path"))
    assert 'set "PATH=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1\\bin;' in fix
    assert "LD_LIBRARY_PATH" not in fix and "setx" not in fix


def test_libraries_not_shown_are_named_to_be_looked_for() -> None:
    report = explained(
        f"{_CUDART_11}\n"
        f"{_DSO}Could not load dynamic library 'libcusolver.so.11'; dlerror: libcusolver.so.11: "
        "cannot open shared object file: No such file or directory\n"
        "/usr/local/cuda-11.2/lib64/libcudart.so.11.0\n"
    )
    fix = fix_text(_finding(report, "cuda-libs-off-path"))
    assert "does not show cusolver" in fix and "-name 'libcusolver.so*'" in fix


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("/usr/local/cuda-10.1/lib64/libcudart.so.10.1", id="another-release"),
        pytest.param(
            "/home/user/miniconda3/pkgs/cudatoolkit-11.0.221-h6bb024c_0/lib/libcudart.so.11.0",
            id="condas-package-cache",
        ),
        pytest.param(
            "ls: cannot access '/usr/local/cuda-11.0/lib64/libcudart.so.11.0': No such file or "
            "directory",
            id="ls-says-absent",
        ),
        pytest.param("$ ls /usr/local/cuda-11.0/lib64/libcudart.so.11.0", id="a-command-only"),
    ],
)
def test_no_copy_of_the_file_asked_for_is_not_off_the_path(shown: str) -> None:
    report = explained(f"{_CUDART_11}\n{shown}\n")
    # At most the ranked candidate after the missing cause: not off the path as a reading.
    assert [x.cause for x in readings(report)] == ["cuda-libs-missing"]


def test_a_copy_in_a_directory_the_loader_searched_is_not_off_its_path() -> None:
    report = explained(
        f"{_CUDART_11}; LD_LIBRARY_PATH: /usr/local/cuda-11.0/lib64\n"
        "/usr/local/cuda-11.0/lib64/libcudart.so.11.0\n"
    )
    assert "cuda-libs-off-path" not in _causes(report)


# --- cuDNN: older loaded, the build's shown ---------------------------------------------------

_CUDNN_OLDER = (
    "E tensorflow/stream_executor/cuda/cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.0.5 but "
    "source was compiled with: 8.6.0.  CuDNN library needs to have matching major version and "
    "equal or higher minor version."
)


def test_an_older_cudnn_loaded_beside_the_builds_on_the_disk_is_shadowed() -> None:
    report = explained(
        f"{_CUDNN_OLDER}\n"
        "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.0.5\n"
        "/home/user/.venv/lib/python3.10/site-packages/nvidia/cudnn/lib/libcudnn.so.8.6.0\n"
    )
    top = _finding(report, "cudnn-shadowed")
    fix = fix_text(top)
    assert "cuDNN 8.6.0 at /home/user/.venv" in fix and "loaded cuDNN 8.0.5" in fix
    assert "export LD_LIBRARY_PATH=/home/user/.venv/lib/python3.10/site-packages/nvidia" in fix
    assert "cudnn-version-mismatch" not in _causes(report)


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("", id="no-copy-shown"),
        pytest.param("/usr/lib/x86_64-linux-gnu/libcudnn.so.8.0.5", id="only-the-older-copy"),
        pytest.param("/usr/local/cuda/lib64/libcudnn.so.8", id="the-soname-says-no-minor"),
        pytest.param("/usr/local/cuda/lib64/libcudnn.so.9.1.0", id="another-major"),
    ],
)
def test_an_older_cudnn_without_the_builds_copy_shown_stays_a_mismatch(shown: str) -> None:
    report = explained(f"{_CUDNN_OLDER}\n{shown}\n")
    top = _finding(report, "cudnn-version-mismatch")
    assert "cudnn-shadowed" not in {x.cause for x in readings(report)}
    # Without any copy shown, an older one first on the path stays the other candidate; a
    # listing without the build's release leaves it out.
    others = {x.cause for x in report.findings if x.summary.endswith(CANDIDATE)}
    assert ("cudnn-shadowed" in others) is (shown == "")
    # The candidate the text cannot rule out, and what tells it apart: a listing of every copy.
    fix = fix_text(top)
    assert "an older copy comes first on the loader's path" in fix and "ldconfig -p" in fix


@pytest.mark.parametrize("conda", [True, False], ids=["conda-env", "no-conda-env"])
def test_an_older_cudnn_in_a_conda_environment_names_condas_own_copy(conda: bool) -> None:
    site = "/home/u/miniconda3/envs/tf" if conda else "/home/u/.venv"
    frame = f'  File "{site}/lib/python3.10/site-packages/tensorflow/python/x.py", line 1, in f\n'
    fix = fix_text(_finding(explained(f"{_CUDNN_OLDER}\n{frame}"), "cudnn-version-mismatch"))
    assert ("conda list cudnn" in fix) is conda
    assert ("$CONDA_PREFIX/lib" in fix) is conda


def test_a_newer_cudnn_of_another_major_is_not_told_of_an_older_copy() -> None:
    report = explained(
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 7201 "
        "(compatibility version 7200) but source was compiled with 6021 (compatibility version "
        "6000).  If using a binary install, upgrade your CuDNN library to match.\n"
    )
    fix = fix_text(_finding(report, "cudnn-version-mismatch"))
    assert "older copy" not in fix


# --- DirectML ---------------------------------------------------------------------------------


def test_directml_without_an_adapter_is_a_gpu_it_cannot_run_on() -> None:
    report = explained(
        "2022-09-14 10:21:07.512203: I tensorflow/c/logging.cc:34] DirectML device "
        "enumeration: found 0 compatible adapters.\n"
    )
    top = _finding(report, "gpu-arch-unsupported")
    fix = fix_text(top)
    assert "Direct3D 12" in fix and "GTX 9xx" in fix and "Could not load DirectML" in fix
    assert "nvidia-smi" not in fix


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "I tensorflow/c/logging.cc:34] DirectML device enumeration: found 1 compatible "
            "adapters.",
            id="one-adapter",
        ),
        pytest.param(
            "I tensorflow/c/logging.cc:34] DirectML device enumeration: found 2 compatible "
            "adapters.",
            id="two-adapters",
        ),
    ],
)
def test_directml_with_an_adapter_is_not_the_gpu_unsupported(line: str) -> None:
    assert "gpu-arch-unsupported" not in _causes(explained(line + "\n"))


# --- NVIDIA's wheels in a listing -------------------------------------------------------------


@pytest.mark.parametrize(
    "row",
    [
        pytest.param("nvidia-cudnn-cu11                 8.6.0.163", id="pip-list"),
        pytest.param("nvidia-cublas-cu11==11.11.3.6", id="pip-freeze"),
        pytest.param("nvidia-cuda-runtime-cu11  11.8.89  pypi_0  pypi", id="conda-list-pypi-row"),
    ],
)
def test_nvidia_wheels_listed_are_the_wheels_unfound(row: str) -> None:
    report = explained(f"{_CUDART_11}\n$ pip list | grep nvidia\n{row}\n")
    fix = fix_text(_finding(report, "cuda-wheels-unfound"))
    assert "import glob, os, sys, nvidia" in fix and "LD_LIBRARY_PATH" in fix
    assert "cuda-libs-missing" not in _causes(report)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("nvidia-cudnn-cu12                 9.1.0.70", id="another-cuda-major"),
        pytest.param("$ pip install nvidia-cudnn-cu11==8.6.0.163", id="a-command"),
        pytest.param("Collecting nvidia-cudnn-cu11==8.6.0.163", id="pip-downloading"),
    ],
)
def test_nvidia_wheels_not_shown_installed_for_the_build_are_not_read(line: str) -> None:
    report = explained(f"{_CUDART_11}\n{line}\n")
    assert "cuda-wheels-unfound" not in _causes(report)


def test_one_lines_listing_keeps_a_bounded_number_of_files() -> None:
    line = "  ".join(f"/usr/local/cuda/lib64/libcublas.so.11.{n}" for n in range(40))
    shown = [e for e in tflog.read_line(line) if isinstance(e, tflog.LibraryFileShown)]
    assert 0 < len(shown) <= 8


def _missing_cudnn_fix(listed: str) -> str:
    """The fix of a libcudnn.so.7 TensorFlow could not open, below pip's listing ``listed``,
    read with the bundled matrix (its early releases' rows are the data read)."""
    log = (
        f"$ pip list | grep tensorflow\n{listed}"
        "ImportError: libcudnn.so.7: cannot open shared object file: No such file or directory\n"
    )
    return fix_text(one_error(explained(log, matrix=load_matrix()), "cuda-libs-missing"))


def test_a_missing_cudnn_names_the_early_releases_build_only_where_it_fits() -> None:
    # A release older than the matrix's lines: its early row gives its GPU build's.
    fix = _missing_cudnn_fix("tensorflow-gpu 1.12.0\n")
    assert "Install CUDA 9.0 and cuDNN 7 from NVIDIA's archives" in fix
    # No release shown, or one whose GPU build asked for another cuDNN (1.4's is 6, not the
    # 7 of the error: not the release that ran): nothing is named.
    for listed in ("", "tensorflow-gpu 1.4.0\n"):
        general = _missing_cudnn_fix(listed)
        assert "CUDA 9.0" not in general
        assert "cuDNN 7 (the libcudnn.so.7 it asked for" in general
