"""The GPU at run time, by family of messages: a GPU the build ignores for its compute
capability, the ptxas XLA runs (its version as XLA's own lines name it), GPU memory, and
emulation. The lines are written for these tests in each program's format."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity

_TS = "2023-05-10 12:01:02.123456: "


def test_a_gpu_ignored_for_its_capability_explains_the_empty_gpu_list() -> None:
    # gpu_device.cc leaves the GPU out of the list it returns, so `[]` says nothing more.
    log = (
        f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1661] Ignoring visible gpu "
        "device (device: 0, name: GeForce GTX 680, pci bus id: 0000:01:00.0, compute "
        "capability: 3.0) with Cuda compute capability 3.0. The minimum required Cuda "
        "capability is 3.5.\nNum GPUs Available:  0\n"
    )
    report = explained(log)
    assert top_error(report).cause == "gpu-arch-unsupported"
    assert [f.cause for f in report.findings if f.severity.rank >= Severity.WARNING.rank] == [
        "gpu-arch-unsupported"
    ]


def test_an_empty_gpu_list_alone_still_gets_its_candidates() -> None:
    report = explained("Num GPUs Available:  0\n")
    assert len([f for f in report.findings if f.severity.rank >= Severity.WARNING.rank]) > 1


@pytest.mark.parametrize("capability", ["6.1", "8.9"], ids=["pascal", "ada"])
def test_kernels_compiled_from_ptx_name_the_gpu_and_a_build_that_carries_it(
    capability: str,
) -> None:
    log = (
        f"{_TS}W tensorflow/core/common_runtime/gpu/gpu_device.cc:2020] TensorFlow was not "
        "built with CUDA kernel binaries compatible with compute capability "
        f"{capability}. CUDA kernels will be jit-compiled from PTX, which could take 30 "
        "minutes or longer.\n"
    )
    (found,) = [f for f in explained(log).findings if f.cause == "gpu-ptx-jit"]
    fix = fix_text(found)
    # A source build's own list, or a release's: the cache only spares later starts.
    assert f"compute capability {capability}" in fix
    assert f"{capability} in TF_CUDA_COMPUTE_CAPABILITIES" in fix
    assert fix.index("TF_CUDA_COMPUTE_CAPABILITIES") < fix.index("JIT cache")


def test_the_fallback_warning_alone_is_a_ptxas_older_than_the_gpu() -> None:
    log = (
        f"{_TS}W tensorflow/stream_executor/gpu/asm_compiler.cc:235] Your CUDA software stack "
        "is old. We fallback to the NVIDIA driver for some compilation. Update your CUDA "
        "version to get the best performance.\n"
    )
    assert top_error(explained(log)).cause == "ptxas-too-old"


def test_xlas_floor_names_the_ptxas_version_the_log_shows() -> None:
    log = (
        f"{_TS}W tensorflow/compiler/xla/stream_executor/gpu/asm_compiler.cc:115] *** WARNING "
        "*** You are using ptxas 11.0.194, which is older than 11.1. ptxas before 11.1 is known "
        "to miscompile XLA code, leading to incorrect results or invalid-address errors.\n"
    )
    (found,) = [f for f in explained(log).findings if f.cause == "ptxas-too-old"]
    assert found.severity is Severity.WARNING
    text = fix_text(found)
    assert "ptxas 11.0.194" in text and "CUDA 11.1 or newer" in text


def test_the_clamping_warning_is_a_note_naming_the_ptxas() -> None:
    # XLA logs it at error level, but it compiles and runs: TensorFlow 2.18-2.19's and-cuda
    # install prints it on a healthy machine.
    log = (
        "E0000 00:00:1740000000.000001    4242 ptx_compiler_helpers.cc:75] *** WARNING *** "
        "Invoking ptxas with version 12.5.82, which corresponds to a CUDA version <=12.6.2. "
        "CUDA versions 12.x.y up to and including 12.6.2 miscompile certain edge cases around "
        "clamping.\nPlease upgrade to CUDA 12.6.3 or newer.\nEpoch 1/5\n"
    )
    report = explained(log)
    assert all(f.severity.rank < Severity.WARNING.rank for f in report.findings)
    (found,) = [f for f in report.findings if f.cause == "ptxas-too-old"]
    assert "ptxas 12.5.82" in fix_text(found) and "12.6.2" in fix_text(found)


_UNSUPPORTED_PTX = (
    f"{_TS}E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:1237] failed to load "
    "PTX text as a module: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX was compiled "
    "with an unsupported toolchain.\n"
)


@pytest.mark.parametrize(
    ("serial", "named", "wheel"),
    [
        pytest.param(
            "The NVIDIA driver's CUDA version is 12.2 which is older than the PTX compiler "
            "version 12.5.82. Because the driver is older than the PTX compiler version",
            ("ptxas 12.5.82", "CUDA 12.2"),
            "nvidia-cuda-nvcc-cu12==12.2.*",
            id="cuda12-wheel",
        ),
        pytest.param(
            # CUDA 11's compiler wheels start at 11.7: none is named for an 11.4 driver.
            "The NVIDIA driver's CUDA version is 11.4 which is older than the ptxas CUDA "
            "version (11.8.89). Because the driver is older than the ptxas version",
            ("ptxas 11.8.89", "CUDA 11.4"),
            None,
            id="cuda11-no-wheel",
        ),
    ],
)
def test_a_ptxas_newer_than_the_driver_names_both_versions(
    serial: str, named: tuple[str, str], wheel: Optional[str]
) -> None:
    log = (
        f"{_TS}W external/local_xla/xla/service/gpu/nvptx_compiler.cc:893] {serial}, XLA is "
        "disabling parallel compilation, which may slow down compilation.\n" + _UNSUPPORTED_PTX
    )
    top = top_error(explained(log))
    assert top.cause == "ptxas-too-new"
    text = fix_text(top)
    assert all(words in text for words in named)
    assert (wheel in text) if wheel else ("nvidia-cuda-nvcc" not in text)


_CREATED_SMALL = (
    f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1510] Created device "
    "/job:localhost/replica:0/task:0/device:GPU:0 with 215 MB memory:  -> device: 0, name: "
    "NVIDIA GeForce RTX 3080, pci bus id: 0000:01:00.0, compute capability: 8.6\n"
)
_V100 = (
    f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1510] Created device "
    "/job:localhost/replica:0/task:0/device:GPU:0 with 14791 MB memory:  -> device: 0, "
    "name: Tesla V100-SXM2-16GB, pci bus id: 0000:00:1e.0, compute capability: 7.0\n"
)
_BFC = (
    f"{_TS}W tensorflow/core/common_runtime/bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran "
    "out of memory trying to allocate {size} (rounded to {n})requested by op MatMul\n"
)


def test_memory_held_before_tensorflow_started_leads_the_fix() -> None:
    log = _CREATED_SMALL + _BFC.format(size="256.00MiB", n=268435456)
    top = top_error(explained(log))
    assert top.cause == "gpu-out-of-memory"
    text = fix_text(top)
    assert text.startswith("Another process held") and "215 MiB" in text
    assert "--query-compute-apps" in text


def test_a_device_far_smaller_than_the_gpu_its_name_sizes_is_memory_taken() -> None:
    log = (
        f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1510] Created device "
        "/job:localhost/replica:0/task:0/device:GPU:0 with 3000 MB memory:  -> device: 0, name: "
        "Tesla V100-SXM2-16GB, pci bus id: 0000:00:1e.0, compute capability: 7.0\n"
        + _BFC.format(size="1.00GiB", n=1073741824)
    )
    text = fix_text(top_error(explained(log)))
    assert text.startswith("Another process held") and "16 GiB" in text


def test_one_request_above_the_allocators_limit_is_a_tensor_too_large() -> None:
    log = (
        _V100
        + _BFC.format(size="20.00GiB", n=21474836480)
        + f"{_TS}I tensorflow/core/common_runtime/bfc_allocator.cc:1098] Stats: \n"
        "Limit:                     15509586944\nInUse:                        12345678\n"
    )
    text = fix_text(top_error(explained(log)))
    assert text.startswith("One tensor is too large") and "20 GiB" in text


def test_memory_filled_by_the_run_keeps_the_batch_first() -> None:
    log = _V100 + _BFC.format(size="1.17GiB", n=1254096896)
    assert fix_text(top_error(explained(log))).startswith("Reduce the batch size")


def test_tensorflows_first_region_failing_at_start_is_no_tensor_too_large() -> None:
    # cuda_driver.cc's failures while the allocator takes its first region are no request of
    # the program's: they say nothing of one tensor's size.
    log = (
        f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1418] Created TensorFlow "
        "device (/job:localhost/replica:0/task:0/device:GPU:0 with 10470 MB memory) -> physical "
        "GPU (device: 0, name: GeForce RTX 2080 Ti, pci bus id: 0000:65:00.0, compute "
        "capability: 7.5)\n"
        f"{_TS}E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to allocate 10.22G "
        "(10978721792 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n"
    )
    assert not fix_text(top_error(explained(log))).startswith("One tensor")


def test_no_room_for_the_cuda_context_is_memory_taken() -> None:
    log = (
        "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
        "initialization on GPU:0 failed. Status: out of memory\n"
    )
    assert fix_text(top_error(explained(log))).startswith("Another process held")


def test_the_allocators_optional_request_stays_a_note() -> None:
    log = (
        f"{_TS}W tensorflow/core/common_runtime/bfc_allocator.cc:290] Allocator (GPU_0_bfc) "
        "ran out of memory trying to allocate 2.35GiB with freed_by_count=0. The caller "
        "indicates that this is not a failure, but may mean that there could be performance "
        "gains if more memory were available.\n" + _CREATED_SMALL
    )
    assert all(f.severity.rank < Severity.WARNING.rank for f in explained(log).findings)


_WSL_UNAME = "Linux DESKTOP-1 5.15.90.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux\n"


@pytest.mark.parametrize(
    "line",
    [
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: UNKNOWN "
        "ERROR (500)",
        "E0000 00:00:1712345678.123456    1234 cuda_executor.cc:1015] failed call to cuInit: "
        "INTERNAL: CUDA error: Failed call to cuInit: CUDA_ERROR_NOT_FOUND: named symbol not "
        "found",
    ],
    ids=["2x-number", "absl-name"],
)
def test_cuinit_not_found_under_wsl_is_wsls_gpu_path(line: str) -> None:
    assert top_error(explained(line + "\n" + _WSL_UNAME)).cause == "wsl-driver-broken"
    # Off WSL the same number names no cause tfdoctor can fix.
    assert all(f.cause != "wsl-driver-broken" for f in explained(line + "\n").findings)


def test_the_avx_abort_under_rosetta_shown_by_sysctl_is_emulation() -> None:
    log = (
        f"{_TS}F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was "
        "compiled to use AVX instructions, but these aren't available on your machine.\n"
        'zsh: abort      python -c "import tensorflow"\n'
        "% sysctl -in sysctl.proc_translated\n1\n"
    )
    assert top_error(explained(log)).cause == "cpu-emulated"


def test_the_stream_ordered_allocator_refused_unsets_the_variable() -> None:
    log = (
        f"{_TS}F tensorflow/tsl/framework/gpu/gpu_cudamallocasync_allocator.cc:146] "
        "TF_GPU_ALLOCATOR=cuda_malloc_async isn't currently supported on GPU id 0: Possible "
        "causes: device not supported (request SM60+), driver too old,  OS not supported, CUDA "
        "version too old(request CUDA11.2+).\n"
    )
    top = top_error(explained(log))
    assert top.cause == "tf-env-flag-invalid"
    assert "unset TF_GPU_ALLOCATOR" in fix_text(top) and "XLA_FLAGS" not in fix_text(top)


def test_the_stream_ordered_allocator_in_use_is_no_finding() -> None:
    log = (
        f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_cudamallocasync_allocator.cc:288] Using "
        "CUDA malloc Async allocator for GPU: 0\nEpoch 1/3\n"
    )
    assert all(f.severity.rank < Severity.WARNING.rank for f in explained(log).findings)


def test_an_amd64_image_asked_of_docker_with_the_avx_abort_is_emulation() -> None:
    log = (
        "$ docker run --platform linux/amd64 -it tensorflow/tensorflow:2.15.0 python -c "
        "'import tensorflow'\n"
        f"{_TS}F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was "
        "compiled to use AVX instructions, but these aren't available on your machine.\n"
    )
    assert top_error(explained(log)).cause == "cpu-emulated"


def test_an_amd64_image_asked_of_docker_alone_is_a_note() -> None:
    log = "$ docker build --platform=linux/amd64 -t trainer .\nEpoch 1/3\n"
    report = explained(log)
    assert any(f.cause == "cpu-emulated" for f in report.findings)
    assert all(f.severity.rank < Severity.WARNING.rank for f in report.findings)


def test_tensorflow_1x_free_memory_at_start_leads_a_failed_allocation() -> None:
    log = (
        "2018-06-01 10:00:00.000001: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1356] "
        "Found device 0 with properties: \nname: GeForce GTX 1080 Ti major: 6 minor: 1 "
        "memoryClockRate(GHz): 1.582\npciBusID: 0000:01:00.0\ntotalMemory: 10.92GiB "
        "freeMemory: 318.06MiB\n2018-06-01 10:00:01.000001: E tensorflow/stream_executor/cuda/"
        "cuda_driver.cc:936] failed to allocate 118.06M (123797504 bytes) from device: "
        "CUDA_ERROR_OUT_OF_MEMORY\n"
    )
    text = fix_text(top_error(explained(log)))
    assert text.startswith("Another process held") and "318.06MiB" in text


def test_the_gpus_size_tensorflow_24_describes_shows_memory_taken() -> None:
    log = (
        f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1720] Found device 0 with "
        "properties: \npciBusID: 0000:01:00.0 name: GeForce GTX 1080 computeCapability: 6.1\n"
        "coreClock: 1.7335GHz coreCount: 20 deviceMemorySize: 7.93GiB deviceMemoryBandwidth: "
        f"298.32GiB/s\n{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1406] Created "
        "TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 3000 MB memory) "
        "-> physical GPU (device: 0, name: GeForce GTX 1080, pci bus id: 0000:01:00.0, compute "
        "capability: 6.1)\n" + _BFC.format(size="64.00MiB", n=67108864)
    )
    text = fix_text(top_error(explained(log)))
    assert text.startswith("Another process held") and "7.9 GiB" in text


_GC = (
    f"{_TS}W tensorflow/core/common_runtime/bfc_allocator.cc:337] Garbage collection: "
    "deallocate free memory regions (i.e., allocations) so that we can re-allocate a larger "
    "region to avoid OOM due to memory fragmentation. If you see this message frequently, you "
    "are running near the threshold of the available device memory and re-allocation may incur "
    "great performance overhead.\n"
)
_REDZONE = (
    f"{_TS}W tensorflow/core/kernels/gpu_utils.cc:49] Failed to allocate memory for convolution "
    "redzone checking; skipping this check. This is benign and only means that we won't check "
    "cudnn for out-of-bounds reads and writes. This message will only be printed once.\n"
)


def test_the_allocators_working_notices_are_harmless() -> None:
    report = explained(_GC + _REDZONE + "Epoch 2/10\n")
    assert {f.id for f in report.findings} == {
        "explain.benign.bfc-garbage-collection",
        "explain.benign.conv-redzone-skipped",
    }
    assert all(f.severity is Severity.INFO for f in report.findings)


def test_a_failure_after_the_allocators_notices_is_still_one() -> None:
    log = _GC + _REDZONE + _BFC.format(size="1.17GiB", n=1254096896)
    assert top_error(explained(log)).cause == "gpu-out-of-memory"


def test_a_tiny_device_shows_memory_taken_to_a_library_that_did_not_start() -> None:
    log = _CREATED_SMALL + (
        f"{_TS}E tensorflow/stream_executor/cuda/cuda_blas.cc:226] failed to create cublas "
        "handle: CUBLAS_STATUS_NOT_INITIALIZED\n"
    )
    top = top_error(explained(log))
    assert top.cause == "gpu-library-init-failed"
    assert "The evidence shows TensorFlow found only 215 MiB free" in fix_text(top)


_FALLBACK = (
    "W0000 00:00:1740000000.000001    1234 subprocess_compilation.cc:279] Falling back to the "
    "CUDA driver for PTX compilation; ptxas does not support CC {cc}\n"
    "W0000 00:00:1740000000.000002    1234 subprocess_compilation.cc:282] Used ptxas at {path}\n"
)


def test_the_ptxas_xla_ran_is_named_in_the_fix() -> None:
    log = _FALLBACK.format(cc="9.0", path="/usr/local/cuda-11.2/bin/ptxas")
    text = fix_text(top_error(explained(log)))
    assert "sm_90 (CUDA 11.8 or newer" in text and "/usr/local/cuda-11.2/bin/ptxas" in text


@pytest.mark.parametrize(
    ("version", "wheel"),
    [
        # 2.13's and-cuda extra is none, its XLA no nvidia/cuda_nvcc root: no wheel offered.
        pytest.param("2.13.1", None, id="no-lookup"),
        # 2.15's extra ships nvidia-cuda-nvcc-cu12==12.2.140 (its setup.py), which XLA finds
        # beside TensorFlow.
        pytest.param("2.15.1", "nvidia-cuda-nvcc-cu12==12.2.140", id="lookup"),
    ],
)
def test_an_old_ptxas_on_path_is_taken_off_it_before_any_wheel(
    version: str, wheel: Optional[str]
) -> None:
    # XLA runs a ptxas on PATH before the wheel (FindCudaExecutable): a wheel beside the old
    # one changes nothing while that stays first.
    log = f"TensorFlow version: {version}\n" + _FALLBACK.format(
        cc="9.0", path="/usr/local/cuda-11.2/bin/ptxas"
    )
    text = fix_text(top_error(explained(log)))
    assert "off PATH" in text and "which XLA finds in site-packages" not in text
    if wheel is None:
        assert "nvidia-cuda-nvcc" not in text
        assert "TensorFlow 2.13 does not look for it; 2.14 and newer do" in text
    else:
        assert wheel in text and "XLA takes a ptxas on PATH before the wheel" in text


def test_an_old_ptxas_on_path_gets_no_wheel_tensorflows_pin_keeps_below_the_gpu() -> None:
    # TensorFlow 2.19's and-cuda extra pins nvidia-cuda-nvcc-cu12==12.5.82 (setup.py); CUDA
    # 12.8 is the first to know compute capability 12.0 (data/cuda.yaml).
    log = "TensorFlow version: 2.19.0\n" + _FALLBACK.format(
        cc="12.0", path="/usr/local/cuda-12.4/bin/ptxas"
    )
    text = fix_text(top_error(explained(log)))
    assert "off PATH" in text and "pip install" not in text
    assert "nvidia-cuda-nvcc-cu12==12.5.82, older than CUDA 12.8" in text


def test_xlas_floor_offers_no_wheel_to_a_tensorflow_that_never_looks_for_it() -> None:
    log = (
        "TensorFlow version: 2.5.0\n"
        f"{_TS}W tensorflow/compiler/xla/stream_executor/gpu/asm_compiler.cc:115] *** WARNING "
        "*** You are using ptxas 11.0.194, which is older than 11.1. ptxas before 11.1 is known "
        "to miscompile XLA code, leading to incorrect results or invalid-address errors.\n"
    )
    (found,) = [f for f in explained(log).findings if f.cause == "ptxas-too-old"]
    text = fix_text(found)
    assert "ptxas 11.0.194" in text and "off PATH" in text
    assert "nvidia-cuda-nvcc" not in text and "install the CUDA compiler wheel" not in text


def _too_new_fix(version: str, where: str, serial: str) -> str:
    """The fix of the ptxas-too-new error for XLA's ``serial`` line (at ``where``) under
    TensorFlow ``version``."""
    log = (
        f"TensorFlow version: {version}\n{_TS}W {where}/xla/service/gpu/nvptx_compiler.cc:893] "
        f"{serial}, XLA is disabling parallel compilation, which may slow down compilation.\n"
        + _UNSUPPORTED_PTX
    )
    top = top_error(explained(log))
    assert top.cause == "ptxas-too-new"
    return fix_text(top)


def test_a_ptxas_newer_than_the_driver_gets_no_wheel_where_tensorflow_never_looks() -> None:
    text = _too_new_fix(
        "2.13.0",
        "tensorflow/compiler",
        "The NVIDIA driver's CUDA version is 11.8 which is older than the ptxas CUDA version "
        "(12.1.105). Because the driver is older than the ptxas version",
    )
    assert "nvidia-cuda-nvcc" not in text and "PATH" in text


def test_the_compiler_wheels_own_ptxas_older_than_the_gpu_upgrades_that_wheel() -> None:
    path = "/home/u/venv/lib/python3.12/site-packages/nvidia/cuda_nvcc/bin/ptxas"
    text = fix_text(top_error(explained(_FALLBACK.format(cc="12.0", path=path))))
    # CUDA 12.8 is the first to know compute capability 12.0 (data/cuda.yaml).
    assert 'nvidia-cuda-nvcc-cu12>=12.8"' in text
    assert "take it out of the way" not in text


@pytest.mark.parametrize(
    ("arch", "base_first"),
    [
        # CUDA 11.8's ptxas knows sm_90, not Hopper's architecture-specific sm_90a (CUDA
        # 12.0); the family targets (sm_120f) came with CUDA 12.9, after sm_120 (12.8).
        pytest.param("sm_90a", "11.8", id="arch-specific"),
        pytest.param("sm_120f", "12.8", id="family"),
    ],
)
def test_a_suffixed_target_is_not_given_the_first_release_of_its_base(
    arch: str, base_first: str
) -> None:
    log = f"ptxas fatal   : Value '{arch}' is not defined for option 'gpu-name'\n"
    top = top_error(explained(log))
    assert top.cause == "ptxas-too-old"
    text = fix_text(top)
    assert arch in text and f"CUDA {base_first} or newer" not in text


_WHEEL_PTXAS = "/home/u/venv/lib/python3.12/site-packages/nvidia/cuda_nvcc/bin/ptxas"


@pytest.mark.parametrize(
    ("version", "offered"),
    [
        # TensorFlow 2.19's and-cuda extra pins nvidia-cuda-nvcc-cu12==12.5.82 (setup.py);
        # 2.20's asks for >=12.5.82,<13.0, which 12.8 meets.
        pytest.param("2.19.0", False, id="exact-pin"),
        pytest.param("2.20.0", True, id="range"),
    ],
)
def test_the_compiler_wheel_moves_only_where_tensorflows_pin_lets_it(
    version: str, offered: bool
) -> None:
    log = f"TensorFlow version: {version}\n" + _FALLBACK.format(cc="12.0", path=_WHEEL_PTXAS)
    text = fix_text(top_error(explained(log)))
    assert ('nvidia-cuda-nvcc-cu12>=12.8"' in text) is offered
    if not offered:
        assert "nvidia-cuda-nvcc-cu12==12.5.82" in text and "PATH" in text


def test_the_compiler_wheel_in_dist_packages_is_the_wheel_too() -> None:
    # Debian's Python and TensorFlow's own images install pip packages into dist-packages.
    path = "/usr/local/lib/python3.11/dist-packages/nvidia/cuda_nvcc/bin/ptxas"
    text = fix_text(top_error(explained(_FALLBACK.format(cc="12.0", path=path))))
    assert "XLA ran the ptxas of the CUDA compiler wheel" in text
    assert "take it out of the way" not in text


def test_a_driver_older_than_the_pinned_ptxas_gets_no_wheel_tensorflow_refuses() -> None:
    text = _too_new_fix(
        "2.19.0",
        "external/local_xla",
        "The NVIDIA driver's CUDA version is 12.2 which is older than the PTX compiler version "
        "12.5.82. Because the driver is older than the PTX compiler version",
    )
    assert "nvidia-cuda-nvcc-cu12==12.2" not in text
    assert "nvidia-cuda-nvcc-cu12==12.5.82" in text and "PATH" in text


@pytest.mark.parametrize(
    "cap",
    [
        "tf.config.set_logical_device_configuration(gpus[0], "
        "[tf.config.LogicalDeviceConfiguration(memory_limit=3000)])\n",
        "config.gpu_options.per_process_gpu_memory_fraction = 0.2\n",
    ],
    ids=["memory-limit", "memory-fraction"],
)
def test_a_cap_the_program_set_is_no_memory_another_process_took(cap: str) -> None:
    log = (
        cap + f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1510] Created device "
        "/job:localhost/replica:0/task:0/device:GPU:0 with 3000 MB memory:  -> device: 0, name: "
        "Tesla V100-SXM2-16GB, pci bus id: 0000:00:1e.0, compute capability: 7.0\n"
        + _BFC.format(size="1.00GiB", n=1073741824)
    )
    text = fix_text(top_error(explained(log)))
    assert not text.startswith("Another process held")


def test_virtual_devices_of_one_gpu_are_no_memory_another_process_took() -> None:
    created = (
        f"{_TS}I tensorflow/core/common_runtime/gpu/gpu_device.cc:1510] Created device "
        "/job:localhost/replica:0/task:0/device:GPU:{n} with 2048 MB memory:  -> device: 0, "
        "name: Tesla V100-SXM2-16GB, pci bus id: 0000:00:1e.0, compute capability: 7.0\n"
    )
    log = created.format(n=0) + created.format(n=1) + _BFC.format(size="1.00GiB", n=1073741824)
    assert not fix_text(top_error(explained(log))).startswith("Another process held")


def test_the_stream_ordered_allocator_refused_on_windows_unsets_it_in_its_shells() -> None:
    log = (
        "C:\\Users\\me\\anaconda3\\envs\\tf\\lib\\site-packages\\tensorflow\\python\\"
        "client\\session.py\n"
        "2021-08-01 10:00:00.000001: F tensorflow/core/common_runtime/gpu/"
        "gpu_cudamallocasync_allocator.cc:127] TF_GPU_ALLOCATOR=cuda_malloc_async isn't "
        "currently supported. Possible causes: device not supported, driver too old,  OS not "
        "supported, CUDA version too old.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "tf-env-flag-invalid"
    assert top.fix is not None
    assert not any(c.startswith("unset ") for c in top.fix.commands)
    assert "set TF_GPU_ALLOCATOR=" in top.fix.commands
    assert "Remove-Item Env:TF_GPU_ALLOCATOR -ErrorAction SilentlyContinue" in top.fix.commands


_DRIVER_OLDER = (
    f"{_TS}W external/local_xla/xla/service/gpu/nvptx_compiler.cc:893] The NVIDIA driver's CUDA "
    "version is 12.2 which is older than the PTX compiler version 12.5.82. Because the driver "
    "is older than the PTX compiler version, XLA is disabling parallel compilation, which may "
    "slow down compilation.\n"
)
_CLAMPING = (
    "E0000 00:00:1740000000.000001    4242 ptx_compiler_helpers.cc:75] *** WARNING *** "
    "Invoking ptxas with version 12.5.82, which corresponds to a CUDA version <=12.6.2. CUDA "
    "versions 12.x.y up to and including 12.6.2 miscompile certain edge cases around "
    "clamping.\n"
)


@pytest.mark.parametrize("log", [_DRIVER_OLDER + _CLAMPING, _CLAMPING + _DRIVER_OLDER])
def test_each_ptxas_note_keeps_the_versions_its_own_line_names(log: str) -> None:
    # TensorFlow 2.19 on a driver of CUDA 12.2 prints both: each note reads its own line.
    fixes = {f.cause: fix_text(f) for f in explained(log).findings}
    assert "clamping" in fixes["ptxas-too-old"]
    assert "ptxas 12.5.82" in fixes["ptxas-too-new"] and "CUDA 12.2" in fixes["ptxas-too-new"]
