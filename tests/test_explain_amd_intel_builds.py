"""TensorFlow on AMD GPUs (tensorflow-rocm), on Intel's oneDNN (MKL) kernels and on DirectML,
read from the words those builds print. Each reading is checked through explain on lines
written here; near misses (the same words elsewhere, the builds' informational lines) must not
become the cause.

| Message | Releases | Printed by | Cause |
| --- | --- | --- | --- |
| `Ignoring visible gpu device (...) with AMDGPU version : gfxN. The supported AMDGPU versions are gfxA, gfxB, ...` | tensorflow-rocm 2.x | https://github.com/ROCm/tensorflow-upstream/blob/develop-upstream/tensorflow/core/common_runtime/gpu/gpu_device.cc | `gpu-arch-unsupported` (target not in the list); `gpu-known-failure` (the list holds it, run together: 2.14.0.600's `gfx1030gfx1100`) |
| `StreamExecutor ROCM device (N) is of unsupported AMDGPU version : gfxN. The supported AMDGPU versions are ...` | XLA on ROCm | https://github.com/tensorflow/tensorflow/blob/v2.14.0/tensorflow/compiler/xla/service/platform_util.cc | as above |
| `Ignoring visible gpu device (...) with AMDGPU ISA gfxN. The minimum required AMDGPU ISA is gfxM.` | TensorFlow 2.0-2.2 built for ROCm, hiptensorflow | https://github.com/tensorflow/tensorflow/blob/v2.1.0/tensorflow/core/common_runtime/gpu/gpu_device.cc | `gpu-arch-unsupported` (below the build's oldest target) |
| `hipErrorNoBinaryForGpu: Unable to find code object for all current devices!` | HIP (ROCm 3.5 on) | https://github.com/ROCm/clr/blob/rocm-6.0.0/hipamd/src/hip_code_object.cpp | `gpu-arch-unsupported` |
| `undefined symbol: _ZN8hip_impl19Bundled_code_header13magic_string_E` | tensorflow-rocm 1.x on another ROCm 2.x | https://github.com/ROCm/HIP/blob/roc-2.4.x/include/hip/hcc_detail/code_object_bundle.hpp | `rocm-version-mismatch` |
| `libhip_hcc.so` / `libamdhip64.so.N: cannot open shared object file` | HCC-era wheels, HIP soname generations | https://github.com/ROCm/tensorflow-upstream/issues/1000 | `rocm-version-mismatch` |
| `ROCm Configuration Error: Cannot find rocm library NAME` | TensorFlow's Bazel rocm_configure (source builds) | https://github.com/tensorflow/tensorflow/blob/v2.2.0/third_party/gpus/rocm_configure.bzl | `rocm-libs-off-path` |
| `Could not load dynamic library 'librocblas.so'; dlerror: ...` | tensorflow-rocm 2.x's loader | https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/platform/default/dso_loader.cc | `rocm-libs-off-path` |
| `Cannot dlopen some GPU libraries.` where the build is ROCm's (pip's `tensorflow-rocm`, a ROCm library named) | gpu_device.cc under `GOOGLE_CUDA` or `TENSORFLOW_USE_ROCM` | https://github.com/tensorflow/tensorflow/blob/v2.14.0/tensorflow/core/common_runtime/gpu/gpu_device.cc, https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.2/install/3rd-party/tensorflow-install.html | `rocm-libs-off-path` (the ROCm release of the version's fourth part; no CUDA) |
| `message: could not create a concat primitive descriptor, in file tensorflow/core/kernels/mkl_concat_op.cc:N` | MKL builds 1.x, oneDNN kernels 2.x (`kernels/mkl/`) | https://github.com/tensorflow/tensorflow/blob/v1.12.0/tensorflow/core/kernels/mkl_concat_op.cc, https://github.com/tensorflow/tensorflow/blob/v2.9.0/tensorflow/core/kernels/mkl/mkl_conv_ops.cc | `tf-release-kernel-bug` |
| `F ./tensorflow/core/util/mkl_util.h:N] Check failed: dims == sizes.size() (5 vs. 4)` | MKL builds | https://github.com/tensorflow/tensorflow/blob/v1.14.0/tensorflow/core/util/mkl_util.h | `tf-release-kernel-bug` |
| `Unable to open /dev/kfd read-write: Permission denied` (and `is not member of "nogroup" group`) | ROCm's runtime, rocminfo | https://github.com/ROCm/rocminfo/blob/rocm-6.0.0/rocminfo.cc, https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.3.0/install/prerequisites.html | `driver-no-permission` |
| `MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_40.kdb Performance may degrade` | MIOpen (ROCm) | https://github.com/ROCm/MIOpen/blob/develop/src/include/miopen/sqlite_db.hpp | benign |
| `oneDNN custom operations are on ... TF_ENABLE_ONEDNN_OPTS=0` | 2.5 on | https://github.com/tensorflow/tensorflow/blob/v2.9.0/tensorflow/core/util/util.cc | benign |
| `DirectML device enumeration: found 0 compatible adapters.` | tensorflow-directml, -directml-plugin | https://github.com/microsoft/tensorflow-directml-plugin/blob/main/tfdml/core/dml_device_cache.cc | `gpu-arch-unsupported` |
"""  # noqa: E501 - a table row is one line

from __future__ import annotations

import time
from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import SIGNATURES, all_causes, explained, fix_text, tag_readings, top_error
from tests.factories import FIXTURE_MATRIX
from tfdoctor.causes.gpu import cuda_libraries_fix, rocm_target_listed
from tfdoctor.causes.runtime import onednn_kernel_fix
from tfdoctor.facts import CondaFacts, CondaPackage, Facts
from tfdoctor.findings import Severity
from tfdoctor.machine import view
from tfdoctor.matrix import Matrix
from tfdoctor.signatures import DIRECTML_WORDS, KFD_NODE, ROCM_WORDS

_PREFIX = "2024-02-01 09:12:44.100200: I tensorflow/core/common_runtime/gpu/gpu_device.cc:2015] "


def _ignored(target: str, supported: str, name: str = "AMD Radeon RX 7900 XTX") -> str:
    return (
        f"{_PREFIX}Ignoring visible gpu device (device: 0, name: {name}, pci bus id: "
        f"0000:03:00.0) with AMDGPU version : {target}. The supported AMDGPU versions are "
        f"{supported}.\n"
    )


@pytest.mark.parametrize(
    ("target", "supported", "listed"),
    [
        pytest.param("gfx1100", "gfx1030gfx1100, gfx900, gfx906", "gfx1030gfx1100", id="joined"),
        pytest.param("gfx1030", "gfx1030gfx1100, gfx900", "gfx1030gfx1100", id="joined-first"),
        pytest.param("gfx90a:sramecc+:xnack-", "gfx900, gfx90a", "gfx90a", id="feature-suffix"),
        pytest.param("gfx1031", "gfx1030, gfx900, gfx906", None, id="absent"),
        pytest.param("gfx90", "gfx900, gfx906", None, id="prefix-is-not-a-target"),
    ],
)
def test_the_printed_list_decides_whether_the_build_has_the_target(
    target: str, supported: str, listed: str
) -> None:
    assert rocm_target_listed(target, supported) == listed


def test_a_target_the_list_runs_together_is_the_builds_defect() -> None:
    text = _ignored("gfx1100", "gfx1030gfx1100, gfx900, gfx906, gfx908, gfx90a, gfx940")
    top = top_error(explained(text))
    assert top.cause == "gpu-known-failure"
    fix = fix_text(top)
    assert (
        "gfx1030gfx1100" in fix and "tensorflow-rocm" in fix and "pip show tensorflow-rocm" in fix
    )


def test_a_target_the_list_lacks_is_a_build_without_code_for_it() -> None:
    text = _ignored("gfx1031", "gfx1030, gfx900, gfx906, gfx908, gfx90a", "AMD Radeon RX 6700 XT")
    top = top_error(explained(text))
    assert top.cause == "gpu-arch-unsupported"
    fix = fix_text(top)
    assert "gfx1031" in fix and "gfx1030, gfx900" in fix and "TF_ROCM_AMDGPU_TARGETS" in fix


def test_xlas_words_for_the_same_refusal() -> None:
    text = (
        "I external/xla/xla/service/platform_util.cc:198] StreamExecutor ROCM device (0) is of "
        "unsupported AMDGPU version : gfx1010. The supported AMDGPU versions are gfx900, "
        "gfx906, gfx908, gfx90a, gfx1030, gfx1100.\n"
    )
    assert top_error(explained(text)).cause == "gpu-arch-unsupported"


@pytest.mark.parametrize(
    "prefix",
    [
        pytest.param(_PREFIX, id="tensorflow-log-line"),
        pytest.param("", id="message-alone"),
    ],
)
def test_a_gpu_below_the_builds_oldest_isa_is_one_without_code(prefix: str) -> None:
    text = (
        f"{prefix}Ignoring visible gpu device (device: 1, name: Device 7300, pci bus id: "
        "0000:05:00.0) with AMDGPU ISA gfx802. The minimum required AMDGPU ISA is gfx900.\n"
    )
    top = top_error(explained(text))
    # The GPU's ISA and the build's oldest, both from the line, and ROCm's tool that reads it.
    assert (top.cause, [w for w in ("gfx802", "gfx900", "rocminfo") if w in fix_text(top)]) == (
        "gpu-arch-unsupported",
        ["gfx802", "gfx900", "rocminfo"],
    )


def test_a_gpu_at_the_builds_oldest_isa_is_not_read_as_ignored() -> None:
    # The device line that lists the GPU's ISA (gpu_device.cc's "Found device ... AMDGPU
    # ISA: gfx803") is not the refusal.
    text = f"{_PREFIX}Found device 0 with properties: \nname: Device 67df\nAMDGPU ISA: gfx803\n"
    assert "gpu-arch-unsupported" not in all_causes(text)


def test_cudas_ignored_gpu_keeps_its_own_reading() -> None:
    text = (
        f"{_PREFIX}Ignoring visible gpu device (device: 0, name: GeForce GT 730, pci bus id: "
        "0000:01:00.0, compute capability: 3.5) with Cuda compute capability 3.5. The minimum "
        "required Cuda capability is 3.7.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "gpu-arch-unsupported" and "TF_ROCM_AMDGPU_TARGETS" not in fix_text(top)


def test_a_hip_runtime_symbol_of_another_rocm_release() -> None:
    text = (
        "ImportError: /home/u/venv/lib/python3.6/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: undefined symbol: "
        "_ZN8hip_impl19Bundled_code_header13magic_string_E\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "rocm-version-mismatch"
    assert "tensorflow-rocm" in fix_text(top)
    assert all(x.cause != "native-library-unresolved" for x in report.findings)


def test_pytorchs_hip_symbol_is_not_tensorflow_rocms() -> None:
    # PyTorch's ROCm build missing the same HIP symbol: its own build, not tensorflow-rocm.
    text = (
        "ImportError: /opt/conda/lib/python3.6/site-packages/torch/lib/libcaffe2_hip.so: "
        "undefined symbol: _ZN8hip_impl22target_agent_isa_nameB5cxx11Ev\n"
    )
    report = explained(text)
    assert "rocm-version-mismatch" not in {x.cause for x in report.findings}
    assert all("tensorflow-rocm" not in fix_text(x) for x in report.findings if x.fix)


def test_a_long_line_naming_tensorflows_library_is_read_in_linear_time() -> None:
    # About 100 KB of the library's name without a separator and no symbol after it: a near
    # miss the pattern must give up on without trying every split of the line.
    line = "libtensorflow_framework" * 4400 + ": undefined symbol: "
    pattern = SIGNATURES.by_id("tf-library-undefined-symbol").pattern
    start = time.perf_counter()
    pattern.search(line)
    assert time.perf_counter() - start < 0.5


def test_another_namespaces_symbol_in_tensorflows_library_is_not_rocm() -> None:
    text = (
        "ImportError: /home/u/miniconda3/envs/dl/lib/python3.11/site-packages/tensorflow/"
        "python/platform/../../libtensorflow_framework.so.2: undefined symbol: _ZTIN6snappy4SinkE\n"
    )
    assert "rocm-version-mismatch" not in all_causes(text)


def test_rocm_configure_not_finding_a_library_is_off_its_path() -> None:
    text = (
        "ERROR: An error occurred during the fetch of repository 'local_config_rocm':\n"
        "ROCm Configuration Error: Cannot find rocm library hip_hcc\n"
    )
    top = top_error(explained(text))
    assert top.cause == "rocm-libs-off-path"
    fix = fix_text(top)
    assert "ROCM_PATH" in fix and "/opt/rocm/hip" in fix and "libhip_hcc" in fix
    assert "ldconfig" not in fix  # a build's search, not the loader's


def test_the_loader_not_opening_a_rocm_library() -> None:
    text = (
        "2021-06-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libMIOpen.so'; dlerror: libMIOpen.so: "
        "cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/lib\n"
    )
    top = top_error(explained(text))
    assert top.cause == "rocm-libs-off-path"
    fix = fix_text(top)
    assert "ldconfig" in fix and "LD_LIBRARY_PATH" in fix and "libMIOpen" in fix


def test_a_versioned_rocm_runtime_of_another_release_stays_a_mismatch() -> None:
    text = (
        "ImportError: libamdhip64.so.4: cannot open shared object file: No such file or directory\n"
    )
    assert top_error(explained(text)).cause == "rocm-version-mismatch"


def test_rocm_info_lines_stay_harmless() -> None:
    text = (
        "2024-03-06 07:01:26.857151: I tensorflow/compiler/xla/stream_executor/rocm/"
        "rocm_gpu_executor.cc:756] successful NUMA node read from SysFS had negative value (-1), "
        "but there must be at least one NUMA node, so returning NUMA node zero\n"
        "2020-12-05 17:07:04.336041: I tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:48] Successfully opened dynamic library librocblas.so\n"
        "2024-03-06 07:01:27.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] "
        "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 15868 MB memory:  -> "
        "device: 0, name: AMD Instinct MI100, pci bus id: 0000:03:00.0\n"
    )
    report = explained(text)
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings), [
        x.id for x in report.findings
    ]


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "could not create a concat primitive descriptor, in file "
            "tensorflow/core/kernels/mkl_concat_op.cc:811",
            id="mkl-1x-bare",
        ),
        pytest.param(
            "tensorflow.python.framework.errors_impl.AbortedError: Operation received an "
            "exception:Status: 3, message: could not create a reorder primitive descriptor, in "
            "file tensorflow/core/kernels/mkl_conv_ops.cc:1040",
            id="mkl-1x-aborted",
        ),
        pytest.param(
            "2023-12-21 13:49:45.315092: W tensorflow/core/framework/op_kernel.cc:1839] "
            "OP_REQUIRES failed at mkl_conv_grad_input_ops.cc:548 : ABORTED: Operation received "
            "an exception:Status: 1, message: could not create a primitive, in file "
            "tensorflow/core/kernels/mkl/mkl_conv_grad_input_ops.cc:545",
            id="onednn-2x",
        ),
        pytest.param(
            "2019-08-12 17:42:33.158451: F ./tensorflow/core/util/mkl_util.h:636] Check failed: "
            "dims == sizes.size() (5 vs. 4)",
            id="mkl-util-check",
        ),
    ],
)
def test_a_onednn_kernels_failure_is_the_releases_kernel(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "tf-release-kernel-bug"
    fix = fix_text(top)
    assert "TF_ENABLE_ONEDNN_OPTS=0" in fix and "TF_DISABLE_MKL=1" in fix


def test_a_onednn_kernels_failure_on_windows_gets_the_switches_in_its_shells() -> None:
    # A traceback through a Windows site-packages shows the machine: `export` is no command
    # in cmd or PowerShell.
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\me\\anaconda3\\lib\\site-packages\\tensorflow\\python\\'
        'eager\\execute.py", line 54, in quick_execute\n'
        "tensorflow.python.framework.errors_impl.AbortedError: Operation received an "
        "exception:Status: 1, message: could not create a primitive, in file "
        "tensorflow/core/kernels/mkl/mkl_conv_ops.cc:1111\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-kernel-bug"
    assert top.fix is not None
    assert "set TF_ENABLE_ONEDNN_OPTS=0" in top.fix.commands
    assert '$env:TF_ENABLE_ONEDNN_OPTS = "0"' in top.fix.commands
    assert not any(c.startswith("export ") for c in top.fix.commands)


def test_a_release_before_the_onednn_switch_gets_its_build_without_mkl() -> None:
    text = (
        "tensorflow                1.12.0\n"
        "could not create a concat primitive descriptor, in file "
        "tensorflow/core/kernels/mkl_concat_op.cc:811\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-kernel-bug"
    fix = fix_text(top)
    assert "tensorflow==1.12.0" in fix and "TF_ENABLE_ONEDNN_OPTS" not in fix


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "2024-01-15 10:22:31.712345: I tensorflow/core/util/port.cc:113] oneDNN custom "
            "operations are on. You may see slightly different numerical results due to "
            "floating-point round-off errors from different computation orders. To turn them "
            "off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.",
            id="onednn-notice",
        ),
        pytest.param(
            "2022-10-03 06:05:46.215381: I tensorflow/core/platform/cpu_feature_guard.cc:193] "
            "This TensorFlow binary is optimized with oneAPI Deep Neural Network Library "
            "(oneDNN) to use the following CPU instructions in performance-critical "
            "operations:  AVX2 FMA",
            id="cpu-feature-note",
        ),
        # PyTorch's oneDNN words: not TensorFlow's kernels.
        pytest.param(
            "RuntimeError: could not create a primitive descriptor for a convolution forward "
            "propagation primitive",
            id="pytorch-onednn",
        ),
        # A check elsewhere in TensorFlow is not oneDNN's.
        pytest.param(
            "2019-08-12 17:42:33.158451: F tensorflow/core/framework/tensor_shape.cc:44] Check "
            "failed: NDIMS == dims() (2 vs. 3)",
            id="other-check",
        ),
    ],
)
def test_onednn_notes_and_other_words_are_not_a_kernel_bug(line: str) -> None:
    assert "tf-release-kernel-bug" not in all_causes(line + "\n")


def test_a_cuda_library_that_did_not_load_is_not_rocm() -> None:
    text = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
        "library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file\n"
    )
    assert "rocm-libs-off-path" not in all_causes(text)


def test_directml_keeping_no_adapter() -> None:
    text = (
        "2022-09-14 10:21:07.512203: I tensorflow/c/logging.cc:34] DirectML device "
        "enumeration: found 0 compatible adapters.\n"
    )
    report = explained(text)
    found = [x for x in report.findings if x.cause == "gpu-arch-unsupported"]
    assert found and "dxdiag" in fix_text(found[0])


def test_the_device_node_reading_is_the_tags_not_the_ids() -> None:
    # A line of the family under an id no code names: its kfd-node tag alone gives ROCm's fix.
    text = "Unable to open /dev/kfd read-write: Permission denied\n"
    tagged, untagged = tag_readings(
        text, "rocm-kfd-permission-denied", KFD_NODE, "driver-no-permission"
    )
    assert "usermod -a -G render,video" in tagged and "usermod -a -G render" not in untagged


def test_rocms_device_node_this_user_may_not_open() -> None:
    text = (
        "ROCk module is loaded\n"
        "Unable to open /dev/kfd read-write: Permission denied\n"
        'alice is not member of "render" group, the default DRM access group. Users must be a '
        'member of the "render" group or another DRM access group in order for ROCm '
        "applications to run successfully.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "driver-no-permission"
    fix = fix_text(top)
    assert "usermod -a -G render,video" in fix and "/dev/nvidia" not in fix


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("root@3f2a9c1b7d4e:/workspace# rocminfo\n", id="container-prompt"),
        pytest.param(
            "$ docker run -it --device=/dev/kfd --device=/dev/dri rocm/tensorflow:latest\n",
            id="docker-run",
        ),
    ],
)
def test_rocms_device_node_refused_in_a_container_is_not_fixed_with_usermod(shown: str) -> None:
    text = (
        f"{shown}Unable to open /dev/kfd read-write: Permission denied\n"
        'root is not member of "render" group, the default DRM access group.\n'
    )
    top = top_error(explained(text))
    assert top.cause == "driver-no-permission"
    fix = fix_text(top)
    assert "usermod" not in fix and "--group-add" in fix


def test_nvidias_device_nodes_refused_in_a_container_are_not_fixed_with_usermod() -> None:
    text = (
        "root@3f2a9c1b7d4e:/workspace# nvidia-smi\n"
        "Failed to initialize NVML: Insufficient Permissions\n"
    )
    top = top_error(explained(text))
    assert top.cause == "driver-no-permission"
    fix = fix_text(top)
    assert "usermod" not in fix and "--gpus" in fix


def test_rocms_device_node_of_no_group_in_a_container() -> None:
    text = (
        "Unable to open /dev/kfd read-write: Permission denied\n"
        'root is not member of "nogroup" group, the default DRM access group. Users must be a '
        'member of the "nogroup" group or another DRM access group in order for ROCm '
        "applications to run successfully.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "driver-no-permission"
    fix = fix_text(top)
    assert "--device=/dev/kfd" in fix and "--group-add" in fix and "usermod" not in fix


def test_nvidias_permission_keeps_its_own_fix() -> None:
    top = top_error(explained("Failed to initialize NVML: Insufficient Permissions\n"))
    assert top.cause == "driver-no-permission" and "/dev/nvidia" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # rocminfo prints the group note and goes on where the node opens.
        pytest.param(
            "ROCk module is loaded\n"
            'bob is not member of "video" group, the default DRM access group. Users must be a '
            'member of the "video" group or another DRM access group in order for ROCm '
            "applications to run successfully.\n"
            "=====================\nHSA System Attributes\n=====================\n",
            id="group-note-alone",
        ),
        # No node at all is not a permission.
        pytest.param(
            "ROCk module is NOT loaded, possibly no GPU devices\n"
            "Unable to open /dev/kfd read-write: No such file or directory\n",
            id="no-node",
        ),
    ],
)
def test_rocminfo_lines_that_are_not_a_permission(text: str) -> None:
    assert "driver-no-permission" not in all_causes(text)


def test_miopens_missing_kernel_database_is_harmless() -> None:
    text = (
        "MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_40.kdb "
        "Performance may degrade. Please follow instructions to install: "
        "https://github.com/ROCm/MIOpen#installing-miopen-kernels-package\n"
    )
    report = explained(text)
    assert [x.id for x in report.findings] == ["explain.benign.miopen-kernel-db-missing"]
    assert report.findings[0].severity is Severity.INFO


_MKL_CONCAT = (
    "tensorflow.python.framework.errors_impl.AbortedError: Operation received an "
    "exception:Status: 3, message: could not create a concat primitive descriptor, in file "
    "tensorflow/core/kernels/mkl_concat_op.cc:784\n"
)


def _mkl_machine(name: str, conda: bool = False) -> Facts:
    """A Python 3.6 machine with TensorFlow 1.14.0 installed as ``name`` (by conda's
    defaults channel where ``conda``)."""
    return f.facts(
        python=f.python(version="3.6.9"),
        packages=(f.pkg(name, "1.14.0", top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(version="1.14.0"),
        conda=CondaFacts(
            prefix="/opt/conda/envs/tf",
            packages=(CondaPackage(name, "1.14.0", "mkl_py36h2526735_0", "pkgs/main"),),
        )
        if conda
        else None,
    )


def test_an_mkl_build_under_pypis_name_is_replaced_not_kept() -> None:
    # pip keeps a tensorflow of the same release ("already satisfied"): it must be forced.
    top = top_error(explained(_MKL_CONCAT, facts=_mkl_machine("tensorflow")))
    installs = [c for c in top.fix.commands if " install " in c] if top.fix else []
    assert installs and all("--force-reinstall" in c for c in installs)


def test_intel_tensorflow_is_removed_before_pypis_build_goes_in() -> None:
    top = top_error(explained(_MKL_CONCAT, facts=_mkl_machine("intel-tensorflow")))
    fix = fix_text(top)
    assert "uninstall -y intel-tensorflow" in fix and '"tensorflow==1.14.0"' in fix


def test_condas_mkl_build_is_not_replaced_with_pip() -> None:
    top = top_error(explained(_MKL_CONCAT, facts=_mkl_machine("tensorflow", conda=True)))
    assert top.fix is not None and not any("pip" in c for c in top.fix.commands)
    assert "eigen variant" in top.fix.text


def test_no_pypi_wheel_of_the_release_for_this_python_is_offered() -> None:
    machine = f.facts(
        python=f.python(version="3.10.12"),
        packages=(f.pkg("tensorflow", "2.4.0", top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(version="2.4.0"),
    )
    text = (
        "tensorflow.python.framework.errors_impl.AbortedError: Operation received an "
        "exception:Status: 3, message: could not create a concat primitive descriptor, in file "
        "tensorflow/core/kernels/mkl/mkl_concat_op.cc:784\n"
    )
    top = top_error(explained(text, facts=machine))
    assert top.cause == "tf-release-kernel-bug"
    fix = fix_text(top)
    assert "TF_DISABLE_MKL=1" in fix and "pip install" not in fix and "Python 3.10" in fix


def _onednn_fix(version: str, matrix: Optional[Matrix]) -> str:
    """The fix of a failing oneDNN kernel on a machine with TensorFlow ``version``."""
    machine = f.facts(
        packages=(f.pkg("tensorflow", version, top_level=("tensorflow",)),),
        tensorflow=f.tensorflow(version=version),
    )
    fix = onednn_kernel_fix(view(machine, matrix))
    return "\n".join((fix.text, *fix.commands))


def test_the_release_that_added_the_onednn_switch_is_the_matrixs() -> None:
    # The fixture's 2.5 line is the first to read TF_ENABLE_ONEDNN_OPTS: 2.4 has only MKL's
    # switch; with 2.4 marked as reading it too, 2.4 gets the switch and the text names 2.4.
    before = _onednn_fix("2.4.0", FIXTURE_MATRIX)
    assert "TF_DISABLE_MKL=1" in before and "TF_ENABLE_ONEDNN_OPTS" not in before
    moved = f.with_line(FIXTURE_MATRIX, "2.4", onednn_opts=True)
    after = _onednn_fix("2.4.0", moved)
    assert "export TF_ENABLE_ONEDNN_OPTS=0" in after and "TensorFlow 2.4 and later" in after
    assert "TensorFlow 2.5 and later" in _onednn_fix("2.9.1", FIXTURE_MATRIX)


def test_without_a_matrix_the_onednn_fix_names_no_release() -> None:
    fix = _onednn_fix("2.4.0", None)
    assert "export TF_ENABLE_ONEDNN_OPTS=0" in fix and "export TF_DISABLE_MKL=1" in fix
    assert "2.5" not in fix


def test_rocms_and_directmls_refusals_are_read_from_their_tags() -> None:
    # Lines of the families under ids no code names: the tag alone gives the stack's own fix.
    rocm, not_rocm = tag_readings(
        "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n",
        "rocm-no-code-object",
        ROCM_WORDS,
        "gpu-arch-unsupported",
    )
    assert rocm != not_rocm and "ROCm" in rocm
    directml, not_directml = tag_readings(
        "DirectML device enumeration: found 0 compatible adapters.\n",
        "directml-no-adapter",
        DIRECTML_WORDS,
        "gpu-arch-unsupported",
    )
    assert "dxdiag" in directml and "dxdiag" not in not_directml


# --- tensorflow-rocm skipping the GPU in the CUDA build's words -------------------------------

#: gpu_device.cc's summary, printed under GOOGLE_CUDA || TENSORFLOW_USE_ROCM alike.
_DLOPEN_SUMMARY = (
    "2024-03-01 10:00:00.100000: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2211] "
    "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above "
    "are installed properly if you would like to use GPU. Follow the guide at "
    "https://www.tensorflow.org/install/gpu for how to download and setup the required "
    "libraries for your platform.\nSkipping registering GPU devices...\n"
)


def _pip_list(name: str, version: str) -> str:
    return f"$ pip list | grep tensorflow\n{name:<29}{version}\n"


@pytest.mark.parametrize(
    ("version", "release"),
    [
        pytest.param("2.14.0.600", "ROCm 6.0.0", id="rocm-6.0"),
        pytest.param("2.13.0.570", "ROCm 5.7.0", id="rocm-5.7"),
        pytest.param("2.4.0", "the ROCm release this tensorflow-rocm was built for", id="no-part"),
    ],
)
def test_tensorflow_rocm_skipping_the_gpu_gets_rocms_libraries(version: str, release: str) -> None:
    """tensorflow-rocm prints the CUDA build's summary: its missing libraries are ROCm's, of
    the ROCm release its version names, never CUDA, cuDNN or tensorflow[and-cuda]."""
    top = top_error(explained(_pip_list("tensorflow-rocm", version) + _DLOPEN_SUMMARY))
    assert top.cause == "rocm-libs-off-path"
    fix = fix_text(top)
    assert release in fix and "/opt/rocm/lib" in fix and "and-cuda" not in fix
    assert top.fix is not None
    for command in top.fix.commands:
        assert "and-cuda" not in command and "cudnn" not in command.lower(), command
    causes_found = all_causes(_pip_list("tensorflow-rocm", version) + _DLOPEN_SUMMARY)
    assert "cuda-libs-missing" not in causes_found and "cudnn-version-mismatch" not in causes_found


def test_the_same_summary_beside_a_rocm_library_the_loader_missed() -> None:
    """No distribution named: the ROCm library the loader names says which build ran, and the
    fix names no CUDA."""
    text = (
        "2024-03-01 10:00:00.000000: W tensorflow/compiler/xla/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'librocblas.so'; dlerror: "
        "librocblas.so: cannot open shared object file: No such file or directory\n"
        + _DLOPEN_SUMMARY
    )
    assert all_causes(text) & {"cuda-libs-missing", "cuda-libs-off-path"} == set()
    top = top_error(explained(text))
    assert top.cause == "rocm-libs-off-path" and "and-cuda" not in fix_text(top)


def test_the_rocm_release_reaches_the_loaders_fix() -> None:
    text = _pip_list("tensorflow-rocm", "2.14.0.600") + (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
        "library 'libMIOpen.so'; dlerror: libMIOpen.so: cannot open shared object file\n"
    )
    assert "ROCm release 6.0.0" in fix_text(top_error(explained(text)))


def test_tensorflows_own_summary_stays_cudas() -> None:
    text = _pip_list("tensorflow", "2.14.0") + _DLOPEN_SUMMARY
    top = explained(text).findings[0]
    assert top.cause == "cuda-libs-missing" and "rocm" not in fix_text(top).lower()


def test_a_rocm_machines_facts_get_rocms_libraries_from_the_shared_builder() -> None:
    """check's missing-libraries findings call the same builder: a tensorflow-rocm machine
    (by its distribution, or by its build info) is told of ROCm."""
    for facts in (
        f.facts(packages=(f.pkg("tensorflow-rocm", "2.14.0.600", top_level=("tensorflow",)),)),
        f.facts(tensorflow=f.tensorflow(is_cuda_build=False, is_rocm_build=True)),
    ):
        m = view(facts, FIXTURE_MATRIX)
        cause, fix = cuda_libraries_fix(m, ("libamdhip64.so",))
        assert cause == "rocm-libs-off-path"
        assert "libamdhip64.so" in fix.text and "ROCm" in fix.text
        assert not any("and-cuda" in c for c in fix.commands)


def test_a_cuda_library_named_beside_tensorflow_rocm_stays_cudas() -> None:
    """The loader asking for libcudart is a CUDA build at work, whatever pip lists."""
    text = _pip_list("tensorflow-rocm", "2.14.0.600") + (
        "2024-03-01 10:00:00.000000: W tensorflow/tsl/platform/default/dso_loader.cc:66] Could "
        "not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open "
        "shared object file: No such file or directory\n" + _DLOPEN_SUMMARY
    )
    assert "rocm-libs-off-path" not in all_causes(text)


def test_rocminfos_device_node_lines_name_no_rocm_build_of_tensorflow() -> None:
    """rocminfo's /dev/kfd lines show ROCm's tools on the machine, not which TensorFlow build
    ran: beside pip's plain tensorflow (PyPI's CUDA build), the summary is not told it is
    AMD's ROCm build."""
    kfd = "$ rocminfo\nUnable to open /dev/kfd read-write: Permission denied\n"
    text = _pip_list("tensorflow", "2.15.0") + kfd + _DLOPEN_SUMMARY
    assert "rocm-libs-off-path" not in all_causes(text)
    assert "driver-no-permission" in all_causes(text)
