"""TensorFlow's BFC allocator dump, printed only after an allocation it retried failed: each of
its lines alone is the failure, of the GPU's allocator or, where the log names one, the host's;
the allocator's note that an optional request could not be met is no failure. The lines are
written for the tests in the wordings of bfc_allocator.cc and allocator.cc across releases."""

from __future__ import annotations

import pytest

from tests.explaining import explained
from tfdoctor.findings import Finding, Report, Severity

GPU, HOST = "gpu-out-of-memory", "host-out-of-memory"
PREFIX = "2022-01-10 09:15:01.000000: I tensorflow/core/common_runtime/bfc_allocator.cc:1010] "
TSL = "2024-04-02 11:00:00.000000: I external/local_tsl/tsl/framework/bfc_allocator.cc:1122] "


def _problems(report: Report) -> list[Finding]:
    return [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(f"{PREFIX}BFCAllocator dump for GPU_1_bfc", id="dump-head"),
        pytest.param(
            f"{PREFIX}Bin (2048): \tTotal Chunks: 3, Chunks in use: 2. 6.0KiB allocated for "
            "chunks. 4.0KiB in use in bin. 3.1KiB client-requested in use in bin.",
            id="bin",
        ),
        pytest.param(f"{TSL}Bin for 512.00MiB was 256.00MiB, Chunk State: ", id="wanted-bin"),
        pytest.param(f"{PREFIX}4 Chunks of size 33554432 totalling 128.00MiB", id="chunk-sizes"),
        pytest.param(f"{TSL}Sum Total of in-use chunks: 10.71GiB", id="sum-total"),
        pytest.param(
            f"{PREFIX}total_region_allocated_bytes_: 11520114688 memory_limit_: 11520114688 "
            "available bytes: 0 curr_region_allocation_bytes_: 23040229376",
            id="regions",
        ),
        # The Stats block: its lines carry no prefix of TensorFlow's.
        pytest.param(
            f"{PREFIX}Stats: \nLimit:                 11520114688\n"
            "InUse:                 11490000000\nMaxInUse:              11500000000\n",
            id="stats",
        ),
        pytest.param(
            "2022-01-10 09:15:01.000000: W tensorflow/core/common_runtime/bfc_allocator.cc:474] "
            + "*" * 60
            + "_" * 3
            + "*" * 36
            + "x",
            id="occupancy",
        ),
        # The head in each release's words: 1.3-2.8, TSL's with the op, 0.x-1.2.
        pytest.param(
            "W tensorflow/core/common_runtime/bfc_allocator.cc:274] Allocator (GPU_0_bfc) ran out "
            "of memory trying to allocate 392.00MiB.  Current allocation summary follows.",
            id="head-1.x",
        ),
        pytest.param(
            "W external/local_xla/xla/tsl/framework/bfc_allocator.cc:497] Allocator (GPU_0_bfc) "
            "ran out of memory trying to allocate 2.00GiB (rounded to 2147483648)requested by op "
            "MatMul",
            id="head-tsl",
        ),
        pytest.param(
            "W tensorflow/core/common_runtime/bfc_allocator.cc:270] Ran out of memory trying to "
            "allocate 1.17GiB.  See logs for memory state.",
            id="head-0.x",
        ),
    ],
)
def test_a_line_of_the_dump_alone_is_the_gpu_out_of_memory(log: str) -> None:
    (problem,) = _problems(explained(log))
    assert problem.cause == GPU
    assert problem.severity is Severity.ERROR
    assert problem.fix is not None and "batch size" in problem.fix.text


def test_a_whole_dump_is_one_finding() -> None:
    log = "\n".join(
        [
            f"{PREFIX}BFCAllocator dump for GPU_0_bfc",
            f"{PREFIX}Bin (256): \tTotal Chunks: 9, Chunks in use: 9. 2.2KiB allocated for "
            "chunks. 2.2KiB in use in bin. 1.1KiB client-requested in use in bin.",
            f"{PREFIX}2 Chunks of size 1024 totalling 2.0KiB",
            f"{PREFIX}Sum Total of in-use chunks: 2.0KiB",
            f"{PREFIX}Stats: ",
            "Limit:                  7000000000",
            "InUse:                  6990000000",
            "MaxInUse:               6995000000",
        ]
    )
    assert [x.cause for x in _problems(explained(log))] == [GPU]


@pytest.mark.parametrize(
    "head",
    [
        pytest.param(
            "W tensorflow/core/common_runtime/bfc_allocator.cc:456] Allocator (gpu_host_bfc) ran "
            "out of memory trying to allocate 30.00GiB (rounded to 32212254720)requested by op "
            "IteratorGetNext",
            id="pinned",
        ),
        pytest.param(
            "W tensorflow/core/common_runtime/bfc_allocator.cc:456] Allocator "
            "(bfc_cpu_allocator_for_gpu) ran out of memory trying to allocate 12.00GiB",
            id="cpu-bfc",
        ),
        pytest.param(f"{PREFIX}BFCAllocator dump for cuda_host_bfc", id="old-pinned-dump"),
        # oneDNN/MKL builds' CPU allocator.
        pytest.param(
            "W tensorflow/core/common_runtime/bfc_allocator.cc:431] Allocator (mklcpu) ran out "
            "of memory trying to allocate 4.00GiB (rounded to 4294967296)requested by op MatMul",
            id="mkl-cpu",
        ),
        pytest.param(f"{PREFIX}BFCAllocator dump for mklcpu", id="mkl-cpu-dump"),
    ],
)
def test_a_dump_under_a_host_allocators_name_is_host_memory(head: str) -> None:
    log = f"{head}\n{PREFIX}3 Chunks of size 4294967296 totalling 12.00GiB\nMaxInUse:  12884901888"
    problems = _problems(explained(log))
    assert [x.cause for x in problems] == [HOST]
    assert problems[0].fix is not None and "free -h" in problems[0].fix.commands


def test_a_dump_beside_a_gpu_allocators_name_stays_the_gpus() -> None:
    log = (
        "W tensorflow/core/common_runtime/bfc_allocator.cc:456] Allocator (gpu_host_bfc) ran "
        "out of memory trying to allocate 8.00GiB\n"
        "W tensorflow/core/common_runtime/bfc_allocator.cc:456] Allocator (GPU_0_bfc) ran "
        "out of memory trying to allocate 1.00GiB\n"
        f"{PREFIX}Sum Total of in-use chunks: 7.80GiB\n"
    )
    assert sorted(x.cause for x in _problems(explained(log))) == [GPU, HOST]


@pytest.mark.parametrize(
    "log",
    [
        # The request the caller can do without (a faster algorithm's scratch space), in the
        # wordings of 0.x, 1.x-2.x and TSL: not retried, no dump, no failure.
        pytest.param(
            "W tensorflow/core/common_runtime/bfc_allocator.cc:213] Ran out of memory trying to "
            "allocate 3.11GiB. The caller indicates that this is not a failure, but may mean that "
            "there could be performance gains if more memory is available.",
            id="not-a-failure-0.x",
        ),
        pytest.param(
            "W tensorflow/core/common_runtime/bfc_allocator.cc:239] Allocator (GPU_0_bfc) ran out "
            "of memory trying to allocate 2.12GiB with freed_by_count=0. The caller indicates "
            "that this is not a failure, but may mean that there could be performance gains if "
            "more memory were available.",
            id="not-a-failure-2.x",
        ),
        pytest.param(
            "W external/local_tsl/tsl/framework/bfc_allocator.cc:366] Allocator (GPU_0_bfc) ran "
            "out of memory trying to allocate 1.07GiB with freed_by_count=0. The caller indicates "
            "that this is not a failure, but this may mean that there could be performance gains "
            "if more memory were available.",
            id="not-a-failure-tsl",
        ),
        # Look-alikes: a ruler of stars, chunked downloads, a memory table's words.
        pytest.param("*" * 40 + "_" * 20 + "*" * 40, id="ruler"),
        pytest.param("Downloading 3 chunks of size 1048576 bytes each", id="download"),
        pytest.param("InUse: see the table below for the peak", id="prose"),
        pytest.param("MaxInUse:               6995000000 (from a profile I ran)", id="annotated"),
    ],
)
def test_what_only_looks_like_the_dump_is_no_failure(log: str) -> None:
    assert _problems(explained(log)) == []
