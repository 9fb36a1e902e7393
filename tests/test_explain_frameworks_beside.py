"""TensorFlow beside PyTorch and JAX in one program: XLA's convolution autotuner failing every
cuDNN algorithm where another framework took the GPU's memory, and the ranked candidates it
shares with a cuDNN handle that fails to start."""

from __future__ import annotations

import pytest

from tests.explaining import explained, finding_of, fix_text, top_error

#: XLA's strict autotuner failure as JAX raises it (XlaRuntimeError; older jaxlib a plain
#: RuntimeError), and as TensorFlow's XLA does, each followed by the HLO it printed.
_HLO = (
    "\n%cudnn-conv.1 = (f32[8,32,30,30]{3,2,1,0}, u8[0]{0}) custom-call(f32[8,3,32,32]{3,2,1,0} "
    '%p0, f32[32,3,3,3]{3,2,1,0} %p1), custom_call_target="__cudnn$convForward"\n'
)


@pytest.mark.parametrize(
    "error",
    [
        pytest.param("jaxlib.xla_extension.XlaRuntimeError: UNKNOWN: ", id="jax-xla-runtime-error"),
        pytest.param("RuntimeError: UNKNOWN: ", id="old-jaxlib-runtime-error"),
        pytest.param("tensorflow.python.framework.errors_impl.UnknownError: ", id="tf-xla"),
    ],
)
def test_conv_algorithm_picker_failure_ranks_memory_first(error: str) -> None:
    text = f"{error}Failed to determine best cudnn convolution algorithm for:{_HLO}"
    top = top_error(explained(text))
    assert top.cause == "gpu-library-init-failed"
    fix = fix_text(top)
    # Memory leads, with what tells the two frameworks' preallocation apart.
    assert fix.index("1. the GPU's memory") < fix.index("2. ")
    assert "XLA_PYTHON_CLIENT_PREALLOCATE=false" in fix
    assert "TF_FORCE_GPU_ALLOW_GROWTH=true" in fix


def test_conv_algorithm_picker_warning_alone_is_no_failure() -> None:
    # Without strictness XLA logs the same words and goes on with a fallback algorithm.
    text = (
        "2021-06-01 10:00:00.000001: W external/org_tensorflow/tensorflow/compiler/xla/service/"
        "gpu/gpu_conv_algorithm_picker.cc:729] Failed to determine best cudnn convolution "
        "algorithm: INTERNAL: All algorithms tried for %cudnn-conv.1 failed.\n\n"
        "Convolution performance may be suboptimal.\n"
    )
    assert finding_of(explained(text), "gpu-library-init-failed") is None
