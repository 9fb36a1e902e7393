"""XLA's autotuner with no configuration for a fused operation (``Autotuner::TuneBestConfig``:
"Autotuner could not find any supported configs for HLO: ..."), read by whose backend offered
none. For a cuDNN custom call (``__cudnn$convBiasActivationForward``) the cuDNN that started
has no engine for it, as a cuDNN older than the one the build's XLA emits for has not: the
cuDNN's version leads, then a GPU newer than the build's CUDA; memory and the driver are no
candidates (the list is empty before anything runs, and cuDNN started). A GEMM fusion's empty
list is the Triton backend's and says nothing of cuDNN. The lines are written here in XLA's
words (xla/backends/autotuner/autotuner.cc prints the instruction after the colon).
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity

_HEAD = "Autotuner could not find any supported configs for HLO:"

_CUDNN_CALL = (
    "2026-03-02 10:00:01.000001: W tensorflow/core/framework/op_kernel.cc:1857] "
    "INTERNAL: " + _HEAD + " %cudnn-conv-bias-activation.3 = (f32[16,32,28,28]{3,2,1,0}, "
    "u8[0]{0}) custom-call(f32[16,1,28,28]{3,2,1,0} %a, f32[32,1,3,3]{3,2,1,0} %b, "
    'f32[32]{0} %c), custom_call_target="__cudnn$convBiasActivationForward"\n'
)

_SPLIT = (
    _HEAD + "\n"
    "  %cudnn-conv-bias-activation.11 = (f32[8,64,14,14]{3,2,1,0}, u8[0]{0}) custom-call(...)\n"
    '  custom_call_target="__cudnn$convBiasActivationForward"\n'
)

_GEMM_FUSION = (
    "INTERNAL: " + _HEAD + " %gemm_fusion_dot.4 = f16[64,64]{1,0} fusion(f16[64,32]{1,0} %p0, "
    "f16[32,64]{1,0} %p1), kind=kCustom, calls=%gemm_fusion_dot.4_computation, backend_config="
    '{"fusion_backend_config":{"kind":"__triton_gemm"}}\n'
)


@pytest.mark.parametrize("log", [_CUDNN_CALL, _SPLIT], ids=["one-line", "instruction-below"])
def test_no_cudnn_config_for_a_fused_convolution_is_the_cudnns_version(log: str) -> None:
    top = top_error(explained(log))
    assert top.cause == "cudnn-version-mismatch"
    text = fix_text(top)
    assert "cuDNN" in text
    # The ranking: the version first, then a GPU newer than the build; neither memory nor
    # the driver.
    assert text.index("1. the cuDNN") < text.index("2. the GPU")
    assert "TF_FORCE_GPU_ALLOW_GROWTH" not in text
    assert "driver is older" not in text


def test_a_gemm_fusion_without_configs_is_not_read_as_cudnn() -> None:
    findings = explained(_GEMM_FUSION).findings
    assert not [
        f
        for f in findings
        if f.severity.rank >= Severity.WARNING.rank
        and f.cause in {"cudnn-version-mismatch", "gpu-library-init-failed"}
    ]


def test_the_loaded_and_built_cudnn_shown_keep_their_own_finding() -> None:
    # Where TensorFlow printed the versions, that reading names them.
    log = (
        "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:447] Loaded runtime CuDNN "
        "library: 9.1.0 but source was compiled with: 9.3.0.  CuDNN library needs to have "
        "matching major version and equal or higher minor version.\n" + _SPLIT
    )
    top = top_error(explained(log))
    assert top.cause == "cudnn-version-mismatch"
    assert "9.3" in fix_text(top)


def test_the_fix_cites_xlas_autotuner_and_a_newer_cudnn_of_the_same_major() -> None:
    # TensorFlow 2.21's XLA finds no configuration with cuDNN 9.3 (the floor of its and-cuda
    # extra) or 9.5.1, and one with 9.24: the cuDNN the build names is no cure.
    top = top_error(explained(_CUDNN_CALL))
    text = fix_text(top)
    assert "newer cuDNN of the same major" in text
    assert 'pip install -U "nvidia-cudnn-cu12<10"' in text
    assert "the cuDNN/cuBLAS release the build names" not in text
    assert any(link.endswith("xla/backends/autotuner/autotuner.cc") for link in top.links)


def test_cudnn_9s_loaded_line_keeps_the_reading() -> None:
    # cuDNN 9 logs its version as major*10000 + minor*100 + patch (cudnn_version.h): 90501 is
    # 9.5.1, a newer minor than TensorFlow 2.21's 9.3, not another major; memory and the
    # driver stay out.
    log = (
        "TensorFlow version: 2.21.0\n"
        "I0000 00:00:1.000 1 cuda_dnn.cc:529] Loaded cuDNN version 90501\n" + _CUDNN_CALL
    )
    top = top_error(explained(log))
    assert top.cause == "cudnn-version-mismatch"
    text = fix_text(top)
    assert "nvidia-cudnn-cu12<10" in text
    assert "TF_FORCE_GPU_ALLOW_GROWTH" not in text and "driver is older" not in text
