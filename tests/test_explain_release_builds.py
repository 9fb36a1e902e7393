"""Builds of TensorFlow and TensorFlow Lite that do not run on the platform they were built for,
and code reaching into TensorFlow's generated op wrappers of another release, read through
explain on logs written here. Near misses (two TFLite releases' libraries, a project's own
library, TensorFlow's own symbol, a module of another name, a TFLite app that loaded) must not
become the cause.

| Message | Printed by | Cause |
| --- | --- | --- |
| `.../tflite_runtime/_pywrap_tensorflow_interpreter_wrapper.so: undefined symbol: _ZN6tflite...` | Python's import of TFLite's self-contained wrapper | `tf-release-platform-bug` |
| `.../_tensorflow_wrap_interpreter_wrapper.so: undefined symbol: _ZN6tflite...` | TensorFlow 1.x's SWIG wrapper (https://github.com/tensorflow/tensorflow/blob/v1.14.0/tensorflow/lite/python/interpreter_wrapper/BUILD) | `tf-release-platform-bug` |
| `dlopen failed: cannot locate symbol "__register_atfork" referenced by ".../libtensorflowlite_jni.so"` | Android's linker (https://android.googlesource.com/platform/bionic/+/refs/heads/main/linker/linker.cpp) | `tf-release-platform-bug` |
| `'module' object has no attribute '_relu_grad'` below `gen_nn_ops._relu_grad(...)` | Python 2 | `api-removed` |
| `'AccumOptimizer' object has no attribute '_set_hyper'` (a class named as an optimizer, a member TensorFlow 2.11's Optimizer dropped) | Python, a custom optimizer | `api-default-changed` (warning) |
"""  # noqa: E501 - a table row is one line

from __future__ import annotations

import time

import pytest

from tests.explaining import explained, fix_text, problem_causes, top_error
from tfdoctor.evidence.packages import pip_spelled
from tfdoctor.explain.api import _SHAPE_VALUE
from tfdoctor.findings import Severity
from tfdoctor.signatures import load_signatures

_PLATFORM_BUG = "tf-release-platform-bug"

_RUNTIME_AARCH64 = """\
pi@rpi4:~ $ python3 -c "from tflite_runtime.interpreter import Interpreter"
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/home/pi/env/lib/python3.9/site-packages/tflite_runtime/interpreter.py", line 33, in <module>
    from tflite_runtime import _pywrap_tensorflow_interpreter_wrapper as _interpreter_wrapper
ImportError: /home/pi/env/lib/python3.9/site-packages/tflite_runtime/_pywrap_tensorflow_interpreter_wrapper.so: undefined symbol: _ZN6tflite12tensor_utils16NeonCpuBackendGemmEPKaPKiS2_iiiiiPiPNS_13CpuBackendContextE
"""  # noqa: E501 - the loader's line is one line

_TF1_ARMV7 = """\
$ python3 detect.py --model ssd_mobilenet.tflite
Traceback (most recent call last):
  File "detect.py", line 4, in <module>
    interpreter = tf.lite.Interpreter(model_path=args.model)
  File "/usr/local/lib/python3.5/dist-packages/tensorflow/lite/python/interpreter.py", line 50, in __init__
    _interpreter_wrapper.InterpreterWrapper_CreateWrapperCPPFromFile(
  File "/usr/local/lib/python3.5/dist-packages/tensorflow/python/util/lazy_loader.py", line 53, in __getattr__
    module = self._load()
ImportError: /usr/local/lib/python3.5/dist-packages/tensorflow/lite/python/interpreter_wrapper/_tensorflow_wrap_interpreter_wrapper.so: undefined symbol: _ZN6tflite12tensor_utils39NeonMatrixBatchVectorMultiplyAccumulateEPKfiiS2_iPfi
"""  # noqa: E501 - the loader's line is one line

_ANDROID_ATFORK = """\
2021-03-14 10:22:07.118 4512-4512/com.acme.scanner E/AndroidRuntime: FATAL EXCEPTION: main
    Process: com.acme.scanner, PID: 4512
    java.lang.UnsatisfiedLinkError: dlopen failed: cannot locate symbol "__register_atfork" referenced by "/data/app/com.acme.scanner-1/lib/arm/libtensorflowlite_jni.so"...
        at java.lang.Runtime.loadLibrary(Runtime.java:372)
        at java.lang.System.loadLibrary(System.java:1076)
        at org.tensorflow.lite.TensorFlowLite.init(TensorFlowLite.java:30)
"""  # noqa: E501 - the linker's line is one line

_ANDROID_GPU_DELEGATE = """\
E/AndroidRuntime: java.lang.UnsatisfiedLinkError: dlopen failed: cannot locate symbol "AHardwareBuffer_describe" referenced by "/data/app/org.example.camera-2/lib/arm64/libtensorflowlite_gpu_jni.so"...
"""  # noqa: E501 - the linker's line is one line


@pytest.mark.parametrize(
    ("log", "words"),
    [
        pytest.param(_RUNTIME_AARCH64, ("tflite-runtime", "changes nothing"), id="tflite-runtime"),
        pytest.param(_TF1_ARMV7, ("build of tensorflow", "changes nothing"), id="tf1-swig-wrapper"),
        pytest.param(
            _ANDROID_ATFORK,
            ("org.tensorflow:tensorflow-lite", "minSdkVersion", "__register_atfork"),
            id="android-atfork",
        ),
        pytest.param(
            _ANDROID_GPU_DELEGATE,
            ("libtensorflowlite_gpu_jni.so", "AHardwareBuffer_describe", "minSdkVersion"),
            id="android-gpu-delegate",
        ),
    ],
)
def test_build_that_does_not_run_on_its_platform(log: str, words: tuple[str, ...]) -> None:
    top = top_error(explained(log))
    assert top.cause == _PLATFORM_BUG
    fix = fix_text(top)
    for word in words:
        assert word in fix


@pytest.mark.parametrize(
    "library",
    [
        # tflite_flutter's bundled C library: the plugin chooses it, not build.gradle.
        pytest.param("/data/app/com.acme.flutter-1/lib/arm64/libtensorflowlite_c.so", id="c-api"),
        # A library the app's developer built from TensorFlow's sources.
        pytest.param("/data/app/com.acme.scanner-1/lib/arm/libtensorflowlite.so", id="self-built"),
    ],
)
def test_android_tflite_library_outside_gradle_archives(library: str) -> None:
    log = (
        "E/AndroidRuntime: java.lang.UnsatisfiedLinkError: dlopen failed: cannot locate symbol "
        f'"__register_atfork" referenced by "{library}"...\n'
    )
    top = top_error(explained(log))
    assert top.cause == _PLATFORM_BUG
    fix = fix_text(top)
    assert "org.tensorflow:tensorflow-lite" not in fix
    assert "build.gradle" not in fix
    file = library.rsplit("/", 1)[-1]
    for word in ("if it ran on this device", "rebuild", "minSdkVersion", file):
        assert word in fix


def test_android_gradle_release_before_is_not_said_to_have_run() -> None:
    fix = fix_text(top_error(explained(_ANDROID_ATFORK)))
    assert "which ran on the device" not in fix
    assert "if it ran on this device" in fix


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("x" * 1_800_000 + " undefined symbol: _ZN6tflite3fooEv", id="one-token"),
        pytest.param("/tflite_runtime/" * 110_000 + " undefined symbol: _ZN6tflite", id="paths"),
    ],
)
def test_tflite_wrapper_symbol_pattern_on_a_long_line(line: str) -> None:
    found = {s.id: s for s in load_signatures().signatures}
    pattern = found["tflite-wrapper-own-symbol-undefined"].pattern
    start = time.perf_counter()
    pattern.search(line)
    assert time.perf_counter() - start < 3


@pytest.mark.parametrize(
    "log",
    [
        # Two TFLite releases' libraries: the GPU delegate asks the interpreter's for TFLite's
        # own (mangled) code.
        pytest.param(
            'E/AndroidRuntime: java.lang.UnsatisfiedLinkError: dlopen failed: cannot locate symbol "_ZN6tflite3gpu2gl14NewInferenceEnvEPNSt6__ndk110unique_ptrINS1_16InferenceEnvironENS2_14default_deleteIS4_EEEE" referenced by "/data/app/org.example.camera-2/lib/arm64/libtensorflowlite_gpu_jni.so"...\n',  # noqa: E501 - the linker's line is one line
            id="android-two-tflite-releases",
        ),
        # A project's own library built against TFLite: not the wrapper's build.
        pytest.param(
            "ImportError: /home/u/proj/build/libcustom_tflite_ops.so: undefined symbol: "
            "_ZN6tflite3ops7builtin13Register_ADDEv\n",
            id="own-library",
        ),
        # TensorFlow's own symbol in TensorFlow's own library: two releases' files.
        pytest.param(
            "ImportError: /usr/local/lib/python3.8/dist-packages/tensorflow/python/"
            "_pywrap_tensorflow_internal.so: undefined symbol: "
            "_ZN10tensorflow8internal21CheckOpMessageBuilder9NewStringEv\n",
            id="tensorflow-namespace",
        ),
        # An app whose TFLite library loaded: the linker's notes only.
        pytest.param(
            "W/linker: /data/app/com.acme.scanner-1/lib/arm64/libtensorflowlite_jni.so: unused "
            "DT entry: type 0x6ffffffe arg 0x2020\n"
            "I/tflite: Initialized TensorFlow Lite runtime.\n"
            "I/tflite: Created TensorFlow Lite XNNPACK delegate for CPU.\n",
            id="benign-android-loaded",
        ),
    ],
)
def test_near_misses_are_not_a_platform_build(log: str) -> None:
    assert _PLATFORM_BUG not in {x.cause for x in explained(log).findings}


def test_benign_tflite_app_reports_nothing_above_info() -> None:
    log = (
        "W/linker: /data/app/com.acme.scanner-1/lib/arm64/libtensorflowlite_jni.so: unused DT "
        "entry: type 0x6ffffffe arg 0x2020\n"
        "I/tflite: Initialized TensorFlow Lite runtime.\n"
    )
    assert problem_causes(explained(log)) == set()


def _py2(code: str, attr: str, path: str = "seg.py") -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 57, in <module>\n'
        f"    {code}\n"
        f"AttributeError: 'module' object has no attribute '{attr}'\n"
    )


@pytest.mark.parametrize(
    ("log", "name", "causes"),
    [
        pytest.param(
            _py2("net = gen_array_ops._concat(0, [a, b])", "_concat"),
            "gen_array_ops._concat",
            {"api-removed"},
            id="own-code",
        ),
        pytest.param(
            _py2(
                "return tf.where(0. < grad, gen_nn_ops._relu_grad(grad, op.outputs[0]), grad)",
                "_relu_grad",
            ),
            "gen_nn_ops._relu_grad",
            {"api-removed"},
            id="beside-public-names",
        ),
        pytest.param(
            _py2("y = gen_math_ops.add(gen_nn_ops._relu_grad(g, x), b)", "_relu_grad"),
            "gen_nn_ops._relu_grad",
            {"api-removed"},
            id="second-wrapper-on-line",
        ),
        pytest.param(
            _py2(
                "inference = gen_nn_ops._conv2d(incoming, W, strides, padding)",
                "_conv2d",
                "/usr/local/lib/python2.7/dist-packages/tflearn/layers/conv.py",
            ),
            "gen_nn_ops._conv2d",
            {"api-removed", "companion-mismatch"},
            id="installed-library",
        ),
    ],
)
def test_python2_generated_op_wrapper_missing(log: str, name: str, causes: set[str]) -> None:
    report = explained(log)
    assert problem_causes(report) == causes
    assert any(f"`{name}`" in x.summary for x in report.findings)
    # The module's name alone does not say whose it is: 1.x's contrib packages had their own.
    assert not any("python.ops" in x.summary for x in report.findings)


_CONTRIB_TRANSFORM = """\
Traceback (most recent call last):
  File "augment.py", line 21, in <module>
    out = tf.contrib.image.transform(images, transforms)
  File "/usr/local/lib/python2.7/dist-packages/tensorflow/contrib/image/python/ops/image_ops.py", line 254, in transform
    output = gen_image_ops.image_projective_transform(
AttributeError: 'module' object has no attribute 'image_projective_transform'
"""  # noqa: E501 - a frame's line is one line


@pytest.mark.parametrize(
    ("log", "name"),
    [
        # Named alone: TensorFlow's gen_image_ops or contrib image's, the log does not say.
        pytest.param(
            _py2(
                "y = gen_image_ops.image_projective_transform(x, m)", "image_projective_transform"
            ),
            "`gen_image_ops.image_projective_transform`",
            id="alone",
        ),
        # The frame using it lies in contrib image's package: its own ops module.
        pytest.param(
            _CONTRIB_TRANSFORM,
            "tf.contrib.image.ops.gen_image_ops.image_projective_transform",
            id="contrib-frame",
        ),
        # The import printed names the module.
        pytest.param(
            _py2(
                "from tensorflow.contrib.rnn.ops import gen_lstm_ops; gen_lstm_ops.block_lstm(x)",
                "block_lstm",
            ),
            "contrib.rnn.ops.gen_lstm_ops.block_lstm",
            id="printed-import",
        ),
        # TensorFlow's own python/ops code uses its own wrappers.
        pytest.param(
            _py2(
                "return gen_nn_ops._relu_grad(grad, op.outputs[0])",
                "_relu_grad",
                "/usr/local/lib/python2.7/dist-packages/tensorflow/python/ops/nn_grad.py",
            ),
            "tf.python.ops.gen_nn_ops._relu_grad",
            id="tensorflow-frame",
        ),
    ],
)
def test_generated_op_wrappers_module_named_as_the_log_shows(log: str, name: str) -> None:
    report = explained(log)
    assert any(name in x.summary for x in report.findings), [x.summary for x in report.findings]


def test_python2_module_of_another_name_is_not_read_as_tensorflow() -> None:
    report = explained(_py2("mygen_nn_ops.relu6(x)", "relu6", "build.py"))
    assert "api-removed" not in problem_causes(report)


def _optimizer_member(cls: str, attr: str, head: str = "") -> str:
    return (
        f"{head}Traceback (most recent call last):\n"
        '  File "/home/u/proj/accum.py", line 22, in __init__\n'
        f"    self.{attr}('learning_rate', lr)\n"
        f"AttributeError: '{cls}' object has no attribute '{attr}'\n"
    )


@pytest.mark.parametrize(
    ("cls", "attr"),
    [
        pytest.param("AccumOptimizer", "_set_hyper", id="set-hyper"),
        pytest.param("GradientAccumulateOptimizer", "_get_hyper", id="get-hyper"),
        pytest.param("LookaheadOptimiser", "_create_slots", id="create-slots-british"),
        pytest.param("WarmupOptimizer", "_resource_apply_dense", id="resource-apply-dense"),
    ],
)
def test_own_optimizer_written_for_optimizer_v2(cls: str, attr: str) -> None:
    found = [x for x in explained(_optimizer_member(cls, attr)).findings if x.cause]
    assert [(x.cause, x.severity) for x in found][:1] == [("api-default-changed", Severity.WARNING)]
    assert "tf.keras.optimizers.legacy" in fix_text(found[0])


@pytest.mark.parametrize(
    "log",
    [
        # TensorFlow 2.10 shown: OptimizerV2 is still tf.keras' Optimizer there.
        pytest.param(
            _optimizer_member(
                "AccumOptimizer",
                "_set_hyper",
                "$ pip freeze | grep tensorflow\ntensorflow==2.10.1\n",
            ),
            id="tf-210-shown",
        ),
        # TensorFlow 1's own optimizer class never had Keras' members.
        pytest.param(_optimizer_member("AdamOptimizer", "_set_hyper"), id="tf1-class"),
        # A member no rule knows.
        pytest.param(_optimizer_member("LambOptimizer", "step_size"), id="unknown-member"),
        # A class not named as an optimizer.
        pytest.param(_optimizer_member("Accumulator", "_set_hyper"), id="other-class"),
    ],
)
def test_own_optimizer_near_misses(log: str) -> None:
    assert "api-default-changed" not in problem_causes(explained(log))


@pytest.mark.parametrize(
    ("head", "words"),
    [
        pytest.param("", "tf.compat.v1.disable_eager_execution()", id="tf2"),
        pytest.param("tensorflow 1.13.1\n", "tf.enable_eager_execution()", id="tf1-eager-on"),
    ],
)
def test_tf1_optimizer_given_a_loss_tensor_under_eager(head: str, words: str) -> None:
    log = (
        f"{head}Traceback (most recent call last):\n"
        '  File "lr.py", line 14, in <module>\n'
        "    train = optimizer.minimize(cost)\n"
        '  File "/usr/local/lib/python3.7/site-packages/tensorflow/python/training/optimizer.py",'
        " line 403, in minimize\n"
        "    grad_loss=grad_loss)\n"
        "RuntimeError: `loss` passed to Optimizer.compute_gradients should be a function when "
        "eager execution is enabled.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "api-moved-to-compat-v1"
    assert words in fix_text(top)


@pytest.mark.parametrize(
    "function",
    [
        pytest.param("softmax_cross_entropy_with_logits", id="softmax"),
        pytest.param("sparse_softmax_cross_entropy_with_logits", id="sparse"),
        pytest.param("sigmoid_cross_entropy_with_logits", id="sigmoid"),
    ],
)
def test_tf0_positional_cross_entropy(function: str) -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "cnn.py", line 88, in <module>\n'
        f"    cost = tf.reduce_mean(tf.nn.{function}(pred, y))\n"
        f"ValueError: Only call `{function}` with named arguments (labels=..., logits=..., ...)\n"
    )
    top = top_error(explained(log))
    assert top.cause == "api-removed"
    assert "labels=y, logits=logits" in fix_text(top)


def test_cross_entropy_named_in_a_sentence_is_not_a_call() -> None:
    log = "INFO: switched to softmax_cross_entropy_with_logits with named arguments everywhere\n"
    assert problem_causes(explained(log)) == set()


@pytest.mark.parametrize(
    ("message", "severity"),
    [
        pytest.param(
            "TypeError: Could not build a TypeSpec for <KerasTensor: shape=(None, 64, 64, 8) "
            "dtype=float32 (created by layer 'tf.math.multiply_3')> with type KerasTensor",
            Severity.ERROR,
            id="type-spec-24",
        ),
        pytest.param(
            "TypeError: Could not build a TypeSpec for KerasTensor(type_spec=TensorSpec(shape="
            "(None, 10), dtype=tf.float32, name=None), name='tf.nn.relu/Relu:0', description="
            "\"created by layer 'tf.nn.relu'\") of unsupported type "
            "<class 'tensorflow.python.keras.engine.keras_tensor.KerasTensor'>.",
            Severity.ERROR,
            id="type-spec-25",
        ),
        pytest.param(
            "TypeError: Cannot convert a symbolic Keras input/output to a numpy array. This "
            "error may indicate that you're trying to pass a symbolic value to a NumPy call, "
            "which is not supported.",
            Severity.WARNING,
            id="numpy-array",
        ),
    ],
)
def test_keras_tensor_of_24_refused(message: str, severity: Severity) -> None:
    found = [x for x in explained(message + "\n").findings if x.cause]
    assert [(x.cause, x.severity) for x in found][:1] == [("api-default-changed", severity)]
    assert "2.4" in fix_text(found[0])


def test_keras3_tensor_type_spec_is_not_read_as_tf24() -> None:
    log = (
        "TypeError: Could not build a TypeSpec for <KerasTensor shape=(None, 3), dtype=float32, "
        "sparse=False, name=keras_tensor> of unsupported type "
        "<class 'keras.src.backend.common.keras_tensor.KerasTensor'>.\n"
    )
    assert "api-default-changed" not in problem_causes(explained(log))


def _shape_value(code: str, owner: str = "int", head: str = "") -> str:
    return (
        f"{head}Traceback (most recent call last):\n"
        '  File "/home/u/proj/attention.py", line 31, in build\n'
        f"    {code}\n"
        f"AttributeError: '{owner}' object has no attribute 'value'\n"
    )


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(_shape_value("n_in = x.get_shape()[-1].value"), id="get-shape"),
        pytest.param(
            _shape_value(
                "self.dim = input_shape[2].value",
                head="$ pip freeze | grep tensorflow\ntensorflow==2.4.1\n",
            ),
            id="input-shape-tf-shown",
        ),
        pytest.param(_shape_value("d = tf.shape(x)[0] + x.shape[1].value"), id="tf-on-line"),
        pytest.param(_shape_value("batch = x.shape.dims[0].value", "NoneType"), id="dims-none"),
    ],
)
def test_tf1_shape_value_under_tf2(log: str) -> None:
    top = top_error(explained(log))
    assert top.cause == "api-moved-to-compat-v1"
    fix = fix_text(top)
    assert "tf.compat.v1.disable_v2_tensorshape()" in fix
    assert "tf.compat.dimension_value" in fix


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            _shape_value(
                "n_in = x.get_shape()[-1].value",
                head="$ pip freeze | grep tensorflow\ntensorflow==1.15.5\n",
            ),
            id="tf1-shown",
        ),
        pytest.param(_shape_value("total = counts[0].value"), id="not-a-shape"),
        pytest.param("AttributeError: 'int' object has no attribute 'value'\n", id="no-line"),
        # No TensorFlow in the log: pandas' and NumPy's shapes are tuples of ints.
        pytest.param(_shape_value("n = df.shape[0].value"), id="pandas"),
        pytest.param(_shape_value("h = img.shape[0].value"), id="numpy"),
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "/home/u/proj/train.py", line 40, in <module>\n'
            "    out = model(batch)\n"
            '  File "/usr/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1501, '
            "in _call_impl\n"
            "    return forward_call(*args, **kwargs)\n"
            '  File "/home/u/proj/net.py", line 12, in forward\n'
            "    n = x.shape[1].value\n"
            "AttributeError: 'int' object has no attribute 'value'\n",
            id="torch",
        ),
    ],
)
def test_shape_value_near_misses(log: str) -> None:
    assert "api-moved-to-compat-v1" not in problem_causes(explained(log))


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("shape[" * 60_000, id="open-brackets"),
        pytest.param("x.get_shape() [" * 60_000, id="get-shape-open"),
    ],
)
def test_shape_value_pattern_on_a_long_line(line: str) -> None:
    start = time.perf_counter()
    _SHAPE_VALUE.search(line)
    assert time.perf_counter() - start < 3


@pytest.mark.parametrize(
    ("printed", "cause"),
    [
        pytest.param(
            '$ python -c "import tensorflow as tf; print(tf.__version__)"\n2.16.0-dev20231109',
            "tf-build-regression",
            id="one-line-program-nightly",
        ),
        pytest.param(
            '$ python -c "import tensorflow as tf; print(tf.__version__)"\n2.17.0-rc0',
            "tf-prerelease-regression",
            id="one-line-program-candidate",
        ),
        pytest.param(
            "TensorFlow version: 2.16.0-dev20231109", "tf-build-regression", id="printed-nightly"
        ),
        pytest.param(
            "tf.__version__ = 2.16.0-dev20231109", "tf-build-regression", id="dunder-nightly"
        ),
        pytest.param(
            "TensorFlow version: 2.17.0-rc1", "tf-prerelease-regression", id="printed-candidate"
        ),
    ],
)
def test_pre_release_printed_by_the_program(printed: str, cause: str) -> None:
    log = (
        f"{printed}\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/train.py", line 40, in <module>\n'
        "    model.fit(ds, epochs=3)\n"
        "TypeError: unsupported operand type(s) for |: 'OrderedDict' and 'OrderedDict'\n"
    )
    assert cause in problem_causes(explained(log))


@pytest.mark.parametrize(
    ("sid", "printed", "release"),
    [
        pytest.param("tf-version-dunder", "tf.__version__ = 2.0.0-alpha0", "2.0.0a0", id="alpha"),
        pytest.param("tf-version-print", "TensorFlow version: 2.0.0-beta1", "2.0.0b1", id="beta"),
        pytest.param("tf-version-print", "TensorFlow version: 2.17.0rc0", "2.17.0rc0", id="pip-rc"),
        pytest.param(
            "tf-version-dunder",
            "tf.__version__ = 2.16.0.dev20231109",
            "2.16.0.dev20231109",
            id="pip-dev",
        ),
    ],
)
def test_printed_pre_release_of_each_kind_is_read_whole(
    sid: str, printed: str, release: str
) -> None:
    found = {s.id: s for s in load_signatures().signatures}
    read = found[sid].pattern.search(printed)
    assert read is not None
    assert pip_spelled(read["tf_version"]) == release


def test_printed_version_with_an_unknown_suffix_is_not_read() -> None:
    found = {s.id: s for s in load_signatures().signatures}
    assert found["tf-version-dunder"].pattern.search("tf.__version__ = 2.0.0-gamma0") is None


def test_final_release_printed_is_no_nightly() -> None:
    log = (
        "TensorFlow version: 2.16.1\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/train.py", line 40, in <module>\n'
        "    model.fit(ds, epochs=3)\n"
        "TypeError: unsupported operand type(s) for |: 'OrderedDict' and 'OrderedDict'\n"
    )
    causes = problem_causes(explained(log))
    assert not causes & {"tf-build-regression", "tf-prerelease-regression"}
