"""The status a CUDA library prints when its handle fails, read as evidence: ALLOC_FAILED is
the library's own word that it could not allocate memory (cuDNN API reference and cuBLAS
library guide, their status enums), where INTERNAL_ERROR and NOT_INITIALIZED leave the
candidates open; and TensorFlow's hint that follows any kernel's RESOURCE_EXHAUSTED
(executor.cc), an allocation that failed. The lines are written for the tests in the wordings
of cuda_dnn.cc, cuda_blas.cc and executor.cc."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.matrix import load_matrix

DNN = "E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] Could not create cudnn handle: "
BLAS = "E tensorflow/stream_executor/cuda/cuda_blas.cc:238] failed to create cublas handle: "
HINT = (
    "Hint: If you want to see a list of allocated tensors when OOM happens, add "
    "report_tensor_allocations_upon_oom to RunOptions for current allocation info."
)
EAGER_HINT = HINT + " This isn't available when running in Eager mode."
#: The candidates the log would need a version, driver or GPU line for.
UNSHOWN = {"cudnn-version-mismatch", "driver-too-old", "cuda-release-predates-gpu"}


def _problems(report: Report) -> list[Finding]:
    return [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(f"{DNN}CUDNN_STATUS_ALLOC_FAILED", id="cudnn"),
        pytest.param(f"{BLAS}CUBLAS_STATUS_ALLOC_FAILED", id="cublas"),
        pytest.param(
            f"{BLAS}CUBLAS_STATUS_ALLOC_FAILED\n{BLAS}CUBLAS_STATUS_ALLOC_FAILED", id="repeated"
        ),
    ],
)
def test_alloc_failed_puts_memory_first_and_raises_no_unshown_candidate(log: str) -> None:
    report = explained(log, matrix=load_matrix())
    main = top_error(report)
    assert main.cause == "gpu-library-init-failed"
    fix = fix_text(main)
    assert "ALLOC_FAILED" in fix and "memory was already taken" in fix
    # What tells the readings of memory apart: another process, TensorFlow's own mapping
    # (growth off), the program's own step too large for the GPU.
    assert "memory growth" in fix and "reduce the batch or input size" in fix
    assert "2. " not in fix
    assert not UNSHOWN & {x.cause for x in _problems(report)}
    # One candidate left: no ranking of one, and no "other" candidate beside the finding.
    assert "which leaves one candidate: the GPU's memory" in fix and "1. " not in fix
    (memory,) = [x for x in report.findings if x.cause == "gpu-out-of-memory"]
    assert not memory.summary.startswith("Or: ") and "1 of 1" not in memory.summary


def test_alloc_failed_keeps_the_version_the_log_shows() -> None:
    log = (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:359] Loaded runtime cuDNN library: 8.0.5 "
        f"but source was compiled with: 8.1.0\n{DNN}CUDNN_STATUS_ALLOC_FAILED"
    )
    assert "cudnn-version-mismatch" in {x.cause for x in _problems(explained(log))}


@pytest.mark.parametrize("status", ["CUDNN_STATUS_INTERNAL_ERROR", "CUDNN_STATUS_NOT_INITIALIZED"])
def test_an_ambiguous_status_keeps_the_candidates_open(status: str) -> None:
    report = explained(f"{DNN}{status}", matrix=load_matrix())
    assert "2. " in fix_text(top_error(report))
    assert UNSHOWN & {x.cause for x in _problems(report)}


def test_alloc_failed_beside_another_status_keeps_the_candidates_open() -> None:
    report = explained(
        f"{DNN}CUDNN_STATUS_ALLOC_FAILED\n{DNN}CUDNN_STATUS_INTERNAL_ERROR", matrix=load_matrix()
    )
    assert "2. " in fix_text(top_error(report))


@pytest.mark.parametrize("hint", [HINT, EAGER_HINT], ids=["graph", "eager"])
def test_the_oom_hint_is_an_allocation_that_failed(hint: str) -> None:
    (problem,) = _problems(explained(hint))
    assert problem.cause == "gpu-out-of-memory"
    assert problem.severity is Severity.ERROR


def test_the_oom_hint_beside_a_handle_alloc_failed_is_memory_alone() -> None:
    report = explained(f"{DNN}CUDNN_STATUS_ALLOC_FAILED\n{HINT}", matrix=load_matrix())
    causes = {x.cause for x in _problems(report)}
    assert "gpu-out-of-memory" in causes
    assert not UNSHOWN & causes


def test_the_oom_hint_after_a_host_allocation_is_host_memory() -> None:
    log = (
        "ResourceExhaustedError: OOM when allocating tensor with shape[24,1,2304,1152,3] and "
        "type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu\n" + HINT
    )
    assert [x.cause for x in _problems(explained(log))] == ["host-out-of-memory"]


@pytest.mark.parametrize(
    "status",
    [
        pytest.param(
            "/data/train_cache.tf-data_0.data-00000-of-00001.tempstate1; No space left on device",
            id="disk",
        ),
        pytest.param("/data/shards/train-00042.tfrecord; Too many open files", id="files"),
    ],
)
def test_the_oom_hint_after_another_resource_exhausted_is_that_failures(status: str) -> None:
    # The executor appends the hint to any kernel's RESOURCE_EXHAUSTED status, and errno's
    # ENOSPC and EMFILE are RESOURCE_EXHAUSTED (errors.cc): the status names what ran out.
    log = f"  (0) RESOURCE_EXHAUSTED:  {status}\n\t [[{{{{node IteratorGetNext}}}}]]\n{EAGER_HINT}"
    causes = {x.cause for x in _problems(explained(log))}
    assert causes and "gpu-out-of-memory" not in causes


def test_the_oom_hint_beside_a_failure_of_another_status_is_still_the_gpus() -> None:
    # h5py's refused file lock is no RESOURCE_EXHAUSTED status: the hint is not its.
    log = (
        "OSError: Unable to create file (unable to lock file, errno = 11, error message = "
        "'Resource temporarily unavailable')\n" + HINT
    )
    causes = {x.cause for x in _problems(explained(log))}
    assert {"hdf5-file-lock-failed", "gpu-out-of-memory"} <= causes


def test_the_oom_hint_after_a_tpu_compilation_is_not_the_gpus() -> None:
    # TPUCompileSucceededAssert keeps the compilation's RESOURCE_EXHAUSTED and appends "TPU
    # compilation failed" (tpu_compile_op.cc); the executor appends the hint to it.
    log = (
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Compilation failure: "
        "Ran out of memory in memory space hbm.\n\tTPU compilation failed\n"
        "\t [[node TPUReplicateMetadata]]\n" + HINT
    )
    assert "gpu-out-of-memory" not in {x.cause for x in explained(log).findings}


def test_the_oom_hint_where_tensorflow_registered_no_gpu_is_not_the_gpus() -> None:
    # gpu_device.cc prints the summary when it skips every GPU: no kernel ran on one, so the
    # allocation the hint follows was another device's.
    log = (
        "W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU "
        "libraries. Please make sure the missing libraries mentioned above are installed "
        "properly if you would like to use GPU.\nSkipping registering GPU devices...\n" + HINT
    )
    assert "gpu-out-of-memory" not in {x.cause for x in explained(log).findings}
