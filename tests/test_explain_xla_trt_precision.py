"""XLA's compiler, TF-TRT and mixed precision in a log: the words each prints while it works
stay notes, its refusals name their cause; a status that quotes "Failed to build" is not pip."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, one_frame_log, top_error
from tfdoctor.evidence import tflog
from tfdoctor.evidence.pip import read_source_builds
from tfdoctor.findings import Severity


def _fix_of(text: str, cause: str) -> str:
    """The fix of ``text``'s top finding, asserted to be an error resting on ``cause``."""
    top = top_error(explained(text))
    assert top.cause == cause, top.cause
    return fix_text(top)


#: TF-TRT's warning when TensorRT built no engine for a segment (trt_engine_op.cc), in the
#: wordings of 2.4 (status code in words) and 2.12 (absl's capitals, with TF-TRT's prefix).
TRT_FALLBACK = [
    "2021-06-07 10:11:12.000001: W tensorflow/compiler/tf2tensorrt/kernels/trt_engine_op.cc:"
    "1002] Engine creation for StatefulPartitionedCall/TRTEngineOp_0_1 failed. The native "
    "segment will be used instead. Reason: Internal: Failed to build TensorRT engine",
    "2023-02-03 04:05:06.000007: W tensorflow/compiler/tf2tensorrt/kernels/trt_engine_op.cc:"
    "1104] TF-TRT Warning: Engine creation for PartitionedCall/TRTEngineOp_000_000 failed. The "
    "native segment will be used instead. Reason: INTERNAL: Failed to build TensorRT engine",
]


def _worst(text: str) -> Severity:
    """The highest severity among the findings explain gives for ``text``."""
    return max((x.severity for x in explained(text).findings), key=lambda s: s.rank)


@pytest.mark.parametrize("line", TRT_FALLBACK, ids=["status-words", "status-capitals"])
def test_tf_trts_fallback_to_tensorflows_ops_is_a_note(line: str) -> None:
    assert _worst(line + "\nINFO:tensorflow:Assets written to: trt_model/assets\n").rank < (
        Severity.WARNING.rank
    )


@pytest.mark.parametrize("line", TRT_FALLBACK, ids=["status-words", "status-capitals"])
def test_a_status_that_says_failed_to_build_is_no_pip_build(line: str) -> None:
    assert read_source_builds([line]) == []


@pytest.mark.parametrize(
    "line",
    ["Failed to build horovod", "ERROR: Failed to build horovod"],
    ids=["bare", "pip-error-prefix"],
)
def test_pips_own_summary_still_names_the_distribution(line: str) -> None:
    (build,) = read_source_builds([line])
    assert build.dist == "horovod"


#: Keras' device check for mixed_float16 (device_compatibility_check.py): a GPU below compute
#: capability 7.0, and a machine without a GPU.
MIXED_PRECISION_SLOW = [
    "WARNING:tensorflow:Mixed precision compatibility check (mixed_float16): WARNING\n"
    "Your GPU may run slowly with dtype policy mixed_float16 because it does not have compute "
    "capability of at least 7.0. Your GPU:\n"
    "  Quadro P4000, compute capability 6.1\n"
    "See https://developer.nvidia.com/cuda-gpus for a list of GPUs and their compute "
    "capabilities.\n",
    "WARNING:tensorflow:Mixed precision compatibility check (mixed_float16): WARNING\n"
    "The dtype policy mixed_float16 may run slowly because this machine does not have a GPU. "
    "Only Nvidia GPUs with compute capability of at least 7.0 run quickly with "
    "mixed_float16.\n",
]


@pytest.mark.parametrize("text", MIXED_PRECISION_SLOW, ids=["old-gpu", "no-gpu"])
def test_mixed_float16_on_a_slow_device_is_a_note(text: str) -> None:
    report = explained(text + "Epoch 1/3\n")
    assert [x.id for x in report.findings] == ["explain.benign.mixed-precision-slow-device"]
    assert report.findings[0].severity is Severity.INFO


def _serial_warning(compiler: str, named: str) -> str:
    """XLA's warning (nvptx_compiler.cc) where its PTX compiler, ``compiler`` with its
    version, is of a newer CUDA minor than the driver, ``named`` in its second sentence."""
    return (
        "2024-03-04 05:06:07.000008: W external/local_xla/xla/service/gpu/nvptx_compiler.cc:"
        f"718] The NVIDIA driver's CUDA version is 12.2 which is older than the {compiler}. "
        f"Because the driver is older than the {named} version, XLA is disabling parallel "
        "compilation, which may slow down compilation. You should update your NVIDIA driver or "
        "use the NVIDIA-provided CUDA forward compatibility packages."
    )


#: The warning in its older and newer wordings.
PTXAS_NEWER = [
    _serial_warning("ptxas CUDA version (12.4.131)", "ptxas"),
    _serial_warning("PTX compiler version 12.6.85", "PTX compiler"),
]


@pytest.mark.parametrize("line", PTXAS_NEWER, ids=["ptxas-cuda-version", "ptx-compiler"])
def test_xla_compiling_serially_for_an_older_driver_is_a_note_naming_ptxas(line: str) -> None:
    (finding,) = explained(line + "\n").findings
    assert finding.cause == "ptxas-too-new"
    assert finding.severity is Severity.INFO


@pytest.mark.parametrize(
    ("line", "ptxas"), list(zip(PTXAS_NEWER, ("12.4.131", "12.6.85"))), ids=["older", "newer"]
)
def test_the_evidence_reads_the_ptxas_and_driver_of_both_wordings(line: str, ptxas: str) -> None:
    (event,) = [e for e in tflog.read_line(line) if isinstance(e, tflog.PtxasProblem)]
    assert (event.problem, event.ptxas) == ("newer-than-driver", ptxas)


def _xla_failure(message: str) -> str:
    """A traceback of a jit-compiled call that XLA refused with ``message``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/fit.py", line 41, in <module>\n'
        "    loss = train_step(batch)\n"
        '  File "/home/user/.venv/lib/python3.11/site-packages/tensorflow/python/eager/'
        'execute.py", line 53, in quick_execute\n'
        "    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,\n"
        f"{message}\n"
    )


#: XLA's refusals of code it cannot compile (tf2xla), each with words of its own fix.
XLA_LIMITS = [
    (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: XLA compilation "
        "requires a fixed tensor list size. Set the max number of elements. This could also "
        "happen if you're using a TensorArray in a while loop that does not have its "
        "maximum_iteration set, you can fix this by setting maximum_iteration to a suitable "
        "value. [Op:__inference_train_step_301]",
        "maximum_iterations",
    ),
    (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Input 1 to node "
        "`sequential/flatten/Reshape` with op Reshape must be a compile-time constant.\n\n"
        "XLA compilation requires that operator arguments that represent shapes or dimensions "
        "be evaluated to concrete values at compile time. This error means that a shape or "
        "dimension argument could not be evaluated at compile time, usually because the value "
        "of the argument depends on a parameter to the computation, on a variable, or on a "
        "stateful operation such as a random number generator.",
        "Python range",
    ),
    (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Input 2 to "
        "ConcatV2 operator must be a compile-time constant.",
        "Python range",
    ),
    (
        "tensorflow.python.framework.errors_impl.UnimplementedError: Support for TensorList "
        "crossing the XLA/TF boundary is not implemented [Op:__inference_train_step_77]",
        "tf.GradientTape",
    ),
]


@pytest.mark.parametrize(
    ("message", "words"),
    XLA_LIMITS,
    ids=["unbounded-loop", "shape-and-words", "input-alone", "tensorlist-boundary"],
)
def test_code_xla_cannot_compile_names_the_change_and_compiling_without_xla(
    message: str, words: str
) -> None:
    text = _fix_of(_xla_failure(message), "xla-code-uncompilable")
    assert words in text
    assert "jit_compile=False" in text


def test_each_limit_shown_gets_its_change_once() -> None:
    both = _xla_failure(XLA_LIMITS[1][0]) + _xla_failure(XLA_LIMITS[0][0])
    text = fix_text(top_error(explained(both)))
    assert text.count("Python range") == 1
    assert text.index("maximum_iterations") < text.index("Python range")


# --- mixed precision's API across Keras releases ---------------------------------------------


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (
            "policy = tf.keras.mixed_precision.experimental.Policy('mixed_float16')",
            "AttributeError: module 'keras.api._v2.keras.mixed_precision' has no attribute "
            "'experimental'",
        ),
        (
            "mixed_precision.experimental.set_policy('mixed_float16')",
            "AttributeError: module 'tensorflow.keras.mixed_precision' has no attribute "
            "'experimental'",
        ),
    ],
    ids=["keras-2-module", "keras-3-module"],
)
def test_the_experimental_mixed_precision_module_names_its_stable_api(
    code: str, message: str
) -> None:
    text = _fix_of(one_frame_log(message, code), "api-removed")
    assert "set_global_policy" in text
    # Never a module of the same last name elsewhere (tf.experimental is another API).
    assert "tf.experimental." not in text


@pytest.mark.parametrize(
    ("method", "code"),
    [
        ("get_scaled_loss", "scaled_loss = optimizer.get_scaled_loss(loss)"),
        ("get_unscaled_gradients", "grads = opt.get_unscaled_gradients(scaled_grads)"),
    ],
)
def test_keras_2_loss_scaling_under_keras_3_names_scale_loss(method: str, code: str) -> None:
    message = f"AttributeError: 'LossScaleOptimizer' object has no attribute '{method}'"
    assert "scale_loss(loss)" in _fix_of(one_frame_log(message, code), "keras3-behaviour-change")


@pytest.mark.parametrize(
    "message",
    [
        "ValueError: LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
        "`loss_scale_factor` directly on the `inner_optimizer`.",
        "ValueError: LossScaleOptimizer does not support arguments: `loss_scale`.",
        "ValueError: LossScaleOptimizer does not support `weight_decay`. Instead, set "
        "`weight_decay` on the `inner_optimizer`.",
    ],
    ids=["dynamic-false", "loss-scale", "inner-option"],
)
def test_keras_3_refusing_keras_2_loss_scale_arguments_names_its_own(message: str) -> None:
    code = "opt = keras.mixed_precision.LossScaleOptimizer(opt, dynamic=False)"
    text = _fix_of(one_frame_log(message, code), "keras3-behaviour-change")
    assert "initial_scale" in text
    assert "loss_scale_factor" in text
    assert "TF_USE_LEGACY_KERAS=1" in text


def test_an_unregistered_xla_device_names_jit_compile() -> None:
    message = (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Could not satisfy device "
        "specification '/job:localhost/replica:0/task:0/device:XLA_CPU:0'. "
        "enable_soft_placement=0. Supported device types [CPU]. All available devices "
        "[/job:localhost/replica:0/task:0/device:CPU:0]."
    )
    assert "jit_compile=True" in _fix_of(
        one_frame_log(message, "with tf.device('/device:XLA_CPU:0'):"), "api-removed"
    )


def test_an_xla_device_missing_where_the_release_registers_them_is_not_the_2_4_change() -> None:
    # TensorFlow 2.3 on a machine without a GPU: XLA_CPU is registered (the list shows it),
    # XLA_GPU is missing for want of a GPU, which jit_compile=True on /GPU:0 does not mend.
    message = (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Could not satisfy device "
        "specification '/job:localhost/replica:0/task:0/device:XLA_GPU:0'. "
        "enable_soft_placement=0. Supported device types [CPU, XLA_CPU]. All available devices "
        "[/job:localhost/replica:0/task:0/device:CPU:0, "
        "/job:localhost/replica:0/task:0/device:XLA_CPU:0]."
    )
    report = explained(one_frame_log(message, "with tf.device('/device:XLA_GPU:0'):"))
    assert "api-removed" not in {x.cause for x in report.findings}


#: XLA's launch refusing a variable of another device, and the resource manager's same words
#: without XLA's pointer to its known issues.
_OTHER_DEVICE = (
    "tensorflow.python.framework.errors_impl.InvalidArgumentError: Trying to access resource "
    "counter (defined @ /home/user/proj/fit.py:9) located in device "
    "/job:localhost/replica:0/task:0/device:CPU:0 from device "
    "/job:localhost/replica:0/task:0/device:GPU:0"
)


def test_a_variable_on_another_device_than_the_compiled_function_names_int64() -> None:
    log = _xla_failure(
        _OTHER_DEVICE + "\n Cf. https://www.tensorflow.org/xla/known_issues"
        "#tfvariable_on_a_different_device [Op:__inference_train_step_12]"
    )
    assert "int64" in _fix_of(log, "xla-code-uncompilable")


def test_compiling_without_xla_is_offered_off_a_tpu_only() -> None:
    # A TPU compiles every step: the code's change is the way there, as for an op without
    # an XLA kernel.
    log = _xla_failure(
        _OTHER_DEVICE + "\n Cf. https://www.tensorflow.org/xla/known_issues"
        "#tfvariable_on_a_different_device [Op:__inference_train_step_12]"
    )
    fix = _fix_of(log, "xla-code-uncompilable")
    assert "Or, on a CPU or GPU, compile that function without XLA" in fix
    assert "On a TPU, where every step is compiled, change the code" in fix


#: The same refusal from a Keras 3 layer called in dataset.map: tf.data's words for a function
#: it ran (framework/dataset.h, AddErrorContext) before it, the host as the reading device.
_IN_MAP = (
    "tensorflow.python.framework.errors_impl.InvalidArgumentError: Graph execution error:\n"
    "  (0) INVALID_ARGUMENT:  Error in user-defined function passed to MapDataset:3 "
    "transformation with iterator: Iterator::Root::Prefetch::Map:  Trying to access resource "
    "random_flip/seed_generator_state/0 (defined @ /srv/venv/lib/python3.12/site-packages/"
    "keras/src/backend/tensorflow/core.py:38) located in device "
    "/job:localhost/replica:0/task:0/device:GPU:0 from device "
    "/job:localhost/replica:0/task:0/device:CPU:0\n"
    " Cf. https://www.tensorflow.org/xla/known_issues#tfvariable_on_a_different_device\n"
    "\t [[{{node StatefulPartitionedCall}}]]\n"
)


def test_a_model_called_in_dataset_map_is_told_as_the_input_pipeline() -> None:
    fix = _fix_of(_xla_failure(_IN_MAP), "xla-code-uncompilable")
    assert "dataset.map" in fix and "tf.device('/CPU:0')" in fix
    # Not the compiled function's advice: no variable to create on the GPU, no int64.
    assert "int64" not in fix and "under tf.device('/GPU:0')" not in fix


def test_the_same_words_without_xlas_pointer_are_not_read_as_xla() -> None:
    causes = {x.cause for x in explained(_xla_failure(_OTHER_DEVICE)).findings}
    assert "xla-code-uncompilable" not in causes


def test_the_experimental_loss_scale_argument_under_the_stable_class_names_initial_scale() -> None:
    message = "TypeError: __init__() got an unexpected keyword argument 'loss_scale'"
    code = "opt = tf.keras.mixed_precision.LossScaleOptimizer(opt, loss_scale='dynamic')"
    assert "initial_scale=N" in _fix_of(one_frame_log(message, code), "api-removed")


#: TF-TRT needs no tensorrt Python package: the fix reads the library and the GPU instead,
#: and says what TensorRT's own words expected and found.
@pytest.mark.parametrize(
    ("line", "said", "command"),
    [
        (
            "2023-08-09 10:11:12.000013: E tensorflow/compiler/tf2tensorrt/utils/trt_logger.cc:"
            "40] DefaultLogger 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: "
            "Serialization (Serialization assertion stdVersionRead == serializationVersion "
            "failed.Version tag does not match. Note: Current Version: 228, Serialized Engine "
            "Version: 213)",
            "",
            "ldconfig -p | grep -E 'libnvinfer\\.so'",
        ),
        (
            "[TRT] [E] 6: The engine plan file is not compatible with this version of TensorRT, "
            "expecting library version 8.4.3.1 got 8.2.5.1, please rebuild.",
            "TensorRT expected TensorRT release 8.4.3.1 and found 8.2.5.1",
            "ldconfig -p | grep -E 'libnvinfer\\.so'",
        ),
        (
            "E tensorflow/compiler/tf2tensorrt/utils/trt_logger.cc:42] DefaultLogger "
            "INVALID_CONFIG: The engine plan file is generated on an incompatible device, "
            "expecting compute 8.0 got compute 8.6, please rebuild.",
            "TensorRT expected compute capability 8.0 and found 8.6",
            "nvidia-smi --query-gpu=name,compute_cap --format=csv",
        ),
    ],
    ids=["version-tag", "library-version", "other-gpu"],
)
def test_a_tensorrt_engine_of_another_release_or_gpu_is_built_again(
    line: str, said: str, command: str
) -> None:
    fix = _fix_of(line + "\n", "tensorrt-engine-stale")
    assert "converter.build()" in fix and said in fix and command in fix
    assert "import tensorrt" not in fix
