"""The GPU's compilers and memory in their other wordings: libdevice and ptxas named briefly,
TensorFlow's run-time kernel compiler, nvcc older than the GPU, ROCm's out-of-memory, pinned
host memory, a memory-growth setting that differs between GPUs, and a CUDA runtime not found
beside an NVIDIA driver the log shows."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text, top_error


def test_libdevice_not_found_without_its_path() -> None:
    assert top_error(explained("libdevice not found\n")).cause == "libdevice-missing"


def test_a_scripts_notice_naming_libdevice_is_no_error() -> None:
    text = "libdevice not found; setting TF_XLA_FLAGS to disable XLA auto-jit.\nEpoch 1/10\n"
    assert all(f.severity.value != "error" for f in explained(text).findings)


_LIBDEVICE = (
    "W tensorflow/compiler/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:326] libdevice "
    "is required by this HLO module but was not found at ./libdevice.10.bc\n"
    "error: libdevice not found at ./libdevice.10.bc\n"
)


def _searched(first: str) -> str:
    """XLA's list of the CUDA roots it searched, ``first`` first, and its advice."""
    return (
        f"Searched for CUDA in the following directories:\n  {first}\n  /usr/local/cuda-11.2\n"
        "  /usr/local/cuda\n  .\nYou can choose the search directory by setting "
        "xla_gpu_cuda_data_dir in HloModule's DebugOptions.  For most apps, setting the "
        "environment variable XLA_FLAGS=--xla_gpu_cuda_data_dir=/path/to/cuda will work.\n"
    )


_OLD_ENV = "/opt/miniconda3/envs/previous/lib"


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param(f"$ echo $XLA_FLAGS\n--xla_gpu_cuda_data_dir={_OLD_ENV}\n", id="echo"),
        pytest.param(f"export XLA_FLAGS=--xla_gpu_cuda_data_dir={_OLD_ENV}/\n", id="export"),
        pytest.param(
            f"$ echo $XLA_FLAGS\n--xla_gpu_cuda_data_dir={_OLD_ENV}\n" + _searched(_OLD_ENV),
            id="searched-first",
        ),
    ],
)
def test_libdevice_missing_under_the_data_dir_xla_flags_names(shown: str) -> None:
    top = top_error(explained(shown + _LIBDEVICE))
    assert top.cause == "libdevice-missing"
    fix = fix_text(top)
    assert f"--xla_gpu_cuda_data_dir={_OLD_ENV}," in fix and "searches first" in fix
    assert f"ls {_OLD_ENV}/nvvm/libdevice" in fix


@pytest.mark.parametrize(
    ("data_dir", "word"),
    [
        pytest.param("/opt/my cuda/11.8", "'/opt/my cuda/11.8'", id="spaced"),
        # What the shell expands stays outside the quotes: a tilde-prefix runs to the first
        # unquoted slash, so a quoted slash after ~ ends the expansion.
        pytest.param("~/my cuda", "~/'my cuda'", id="home"),
        pytest.param("~ci/my cuda", "~ci/'my cuda'", id="user-home"),
        pytest.param("$HOME/my cuda", "$HOME'/my cuda'", id="variable"),
    ],
)
def test_the_data_dir_is_one_shell_word_in_the_fix(data_dir: str, word: str) -> None:
    shown = f"export XLA_FLAGS=--xla_gpu_cuda_data_dir='{data_dir}'\n"
    assert f"ls {word}/nvvm/libdevice" in fix_text(top_error(explained(shown + _LIBDEVICE)))


@pytest.mark.parametrize(
    "shown",
    [
        # XLA's own advice names no directory of the machine.
        pytest.param(_searched("./cuda_sdk_lib"), id="advice-only"),
        # The process that failed searched its default first: the flag was not set there.
        pytest.param(
            f"$ echo $XLA_FLAGS\n--xla_gpu_cuda_data_dir={_OLD_ENV}\n"
            + _searched("./cuda_sdk_lib"),
            id="not-in-effect",
        ),
        # Two settings: which one was in effect is not known.
        pytest.param(
            f"XLA_FLAGS=--xla_gpu_cuda_data_dir={_OLD_ENV}\n"
            "XLA_FLAGS=--xla_gpu_cuda_data_dir=/usr/local/cuda-12.2\n",
            id="two",
        ),
    ],
)
def test_no_data_dir_reading_where_the_log_does_not_show_it_in_effect(shown: str) -> None:
    fix = fix_text(top_error(explained(shown + _LIBDEVICE)))
    assert "searches first" not in fix and "XLA_FLAGS" in fix


def test_the_run_time_kernel_compiler_failing_names_xla_flags() -> None:
    text = "errors_impl.UnknownError: JIT compilation failed. [Op:FloorMod]\n"
    top = top_error(explained(text))
    assert top.cause == "libdevice-missing"
    assert "XLA_FLAGS" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        # XLA's search for its CUDA tools, listing where it looked.
        "XlaRuntimeError: NOT_FOUND: Couldn't find a suitable version of ptxas. The following "
        "locations were considered: /opt/venv/bin/ptxas, /usr/local/cuda/bin/ptxas",
        # TensorFlow 2.2-2.3: the exit status of `ptxas --version`, then the driver's JIT.
        "W tensorflow/stream_executor/gpu/asm_compiler.cc:81] "
        "Running ptxas --version returned 32512",
    ],
    ids=["xla-search", "tf22-exit-status"],
)
def test_ptxas_not_found_in_its_other_wordings(line: str) -> None:
    found = [f for f in explained(line + "\n").findings if f.cause == "ptxas-missing"]
    assert found and found[0].severity.value == "warning"
    # The fix works in a container too: its base and runtime images carry no ptxas.
    assert "-devel" in fix_text(found[0])


def test_ptxas_named_as_a_word_is_not_missing() -> None:
    text = (
        "Running ptxas --version to check the toolkit\nptxas: NVIDIA (R) Ptx optimizing assembler\n"
    )
    assert all(f.cause != "ptxas-missing" for f in explained(text).findings)


#: XLA's words after ptxas failed to run, as TensorFlow 2.2-2.4 and later XLA print them.
_DRIVER_FALLBACK = (
    "Relying on driver to perform ptx compilation. \nModify $PATH to customize ptxas location.\n"
    "This message will be only logged once.\n"
)


def test_the_driver_fallback_alone_reads_as_no_ptxas() -> None:
    found = [f for f in explained(_DRIVER_FALLBACK).findings if f.severity.value != "info"]
    assert [(f.cause, f.severity.value) for f in found] == [("ptxas-missing", "warning")]
    assert "nvidia-cuda-nvcc" in fix_text(found[0])


@pytest.mark.parametrize(
    ("reason", "cause"),
    [
        # TensorFlow's Windows builds never run ptxas: harmless.
        (
            "W tensorflow/stream_executor/cuda/redzone_allocator.cc:312] Internal: Invoking ptxas "
            "not supported on Windows",
            None,
        ),
        (
            "W tensorflow/stream_executor/gpu/redzone_allocator.cc:312] Internal: Invoking GPU asm "
            "compilation is supported on Cuda non-Windows platforms only",
            None,
        ),
        # A ptxas too old for the GPU: its own reading, not a missing one.
        (
            "W tensorflow/stream_executor/gpu/redzone_allocator.cc:314] Internal: ptxas exited "
            "with non-zero error code 65280, output: ptxas fatal   : Value 'sm_86' is not defined "
            "for option 'gpu-name'",
            "ptxas-too-old",
        ),
    ],
    ids=["windows", "windows-asm", "too-old"],
)
def test_the_driver_fallback_is_the_reason_shown_before_it(
    reason: str, cause: Optional[str]
) -> None:
    report = explained(f"{reason}\n{_DRIVER_FALLBACK}")
    found = [f.cause for f in report.findings if f.severity.value != "info"]
    assert found == ([cause] if cause else [])
    if cause is None:
        assert [f.id for f in report.findings] == ["explain.benign.ptxas-windows-unsupported"]


def test_ptxas_not_invoked_in_short() -> None:
    found = [f for f in explained("Couldn't invoke ptxas\n").findings if f.cause == "ptxas-missing"]
    assert found and "nvidia-cuda-nvcc" in fix_text(found[0])


@pytest.mark.parametrize(
    "line",
    [
        "nvcc fatal : Value 'sm_86' is not defined for option 'gpu-architecture'",
        "nvcc fatal   : Unsupported gpu architecture 'compute_86'",
    ],
)
def test_nvcc_older_than_the_gpu_is_told_a_newer_toolkit(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "ptxas-too-old"
    fix = fix_text(top)
    assert "sm_86" in fix and "nvcc --version" in fix
    # Not XLA's ptxas wheel: nvcc is compiling the project's own CUDA code.
    assert "which -a ptxas" not in fix


def test_rocms_allocation_failure_is_the_gpus_memory() -> None:
    text = (
        "2019-01-08 19:06:11.303639: E tensorflow/stream_executor/rocm/rocm_driver.cc:601] "
        "failed to allocate 7.35G (7889485824 bytes) from device: hipError_t(1002)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "gpu-out-of-memory"
    assert "rocm-smi" in fix_text(top) and "nvidia-smi" not in fix_text(top)


def test_pinned_host_memory_is_the_machines_not_the_gpus() -> None:
    text = (
        "2020-11-24 11:32:25.434730: E tensorflow/stream_executor/cuda/cuda_driver.cc:868] failed "
        "to alloc 4294967296 bytes on host: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
        "2020-11-24 11:32:25.435620: W ./tensorflow/core/common_runtime/gpu/cuda_host_allocator.h:"
        "44] could not allocate pinned host memory of size: 4294967296\n"
    )
    found = explained(text).findings
    assert top_error(explained(text)).cause == "host-out-of-memory"
    assert all(f.cause != "gpu-out-of-memory" for f in found)


@pytest.mark.parametrize("before", ["", "x " * 300])
def test_the_devices_out_of_memory_stays_the_gpus(before: str) -> None:
    text = (
        f"{before}E tensorflow/stream_executor/cuda/cuda_driver.cc:1002] failed to allocate "
        "10.76G (11552124928 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY\n"
    )
    assert top_error(explained(text)).cause == "gpu-out-of-memory"


def test_memory_growth_on_some_gpus_only() -> None:
    top = top_error(explained("ValueError: Memory growth cannot differ between GPU devices\n"))
    assert top.cause == "gpu-memory-growth-mixed"
    assert "list_physical_devices('GPU')" in fix_text(top)
    # The variable alone does not pass Python's check while the calls remain.
    assert top.fix is not None and not top.fix.commands


def test_a_weight_name_where_keras_3_takes_the_shape() -> None:
    text = (
        "ValueError: Cannot convert '('c', 'o', 'u', 'n', 't', 'e', 'r')' to a shape. Found "
        "invalid entry 'c' of type '<class 'str'>'.\n"
    )
    found = [f for f in explained(text).findings if f.cause == "keras3-behaviour-change"]
    # The likely reading (a warning), as where a keras/src frame shows the same habit.
    assert found and found[0].severity.value == "warning"


_STUB = (
    "2023-11-06 01:01:39.145881: I tensorflow/tsl/cuda/cudart_stub.cc:28] Could not find cuda "
    "drivers on your machine, GPU will not be used.\n"
)
_SMI = "| NVIDIA-SMI 535.113.01             Driver Version: 535.113.01   CUDA Version: 12.2     |\n"


@pytest.mark.parametrize(("text", "severity"), [(_STUB, "info"), (_STUB + _SMI, "error")])
def test_a_cuda_runtime_not_found_is_an_error_beside_a_driver(text: str, severity: str) -> None:
    found = [f for f in explained(text).findings if f.cause == "cuda-libs-missing"]
    assert found and found[0].severity.value == severity


@pytest.mark.parametrize(
    "line",
    [
        "gcc: internal compiler error: Killed (program cc1plus)",
        # Newer GCC releases.
        "g++: fatal error: Killed signal terminated program cc1plus",
        "clang: error: unable to execute command: Killed",
    ],
)
def test_a_compiler_killed_in_a_build_is_host_memory(line: str) -> None:
    top = top_error(
        explained(f"ERROR: C++ compilation of rule '//tensorflow/core:ops' failed\n{line}\n")
    )
    assert top.cause == "host-out-of-memory"
    assert "--local_ram_resources" in fix_text(top)


def test_a_compiler_crash_of_another_signal_is_not_memory() -> None:
    text = "gcc: internal compiler error: Segmentation fault (program cc1plus)\n"
    assert all(f.cause != "host-out-of-memory" for f in explained(text).findings)
