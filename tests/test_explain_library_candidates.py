"""CUDA libraries the loader did not find, where the log cannot tell absent from installed off
the loader's path: the missing cause first, and the other candidate as a warning with the
search that tells them apart and its path line. Where the log decides (a copy shown on the
disk), only one reading."""

from __future__ import annotations

from typing import Optional

from tests.explaining import explained, fix_text
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
    assert "PATH" in fix and "where /R" in fix and "LD_LIBRARY_PATH" not in fix


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
