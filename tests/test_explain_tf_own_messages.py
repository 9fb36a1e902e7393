"""TensorFlow's own messages about its ops, kernels, native extensions and its install, as the
releases print them, each read to its cause with a fix that changes the machine; near misses
(the same words in another context) are not. Each message, the cause it reads as, the releases
that print it and the source that prints it:

- `Op type not registered 'X' in binary running on H. Make sure the Op and Kernel are registered in
  the binary running in this process. Note that if you are loading a saved graph which used ops
  from tf.contrib, accessing (e.g.) ...` (2.x: `from tf.contrib (e.g. ...), accessing should be
  done ...`): `op-not-registered`; 1.x, 2.x; printed by
  https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/core/framework/op.cc,
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/core/framework/op.cc.
- `'X' is neither a type of a primitive operation nor a name of a function registered in binary
  running on H. Make sure the operation or function is registered ...` (an op name, on a host
  that is no TPU worker): `op-not-registered`; 2.x; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.0.0/tensorflow/c/eager/c_api.cc,
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/core/common_runtime/eager/eager_operation.cc.
- `TPUs not found in the cluster. Failed in initialization: <error>` (no TPU_SYSTEM device; not
  the TPU system op without a kernel, `tpu-tf-without-libtpu`): `tpu-not-found`; 2.x; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/python/tpu/tpu_strategy_util.py.
- `NodeDef expected inputs 'T, ...' do not match N inputs specified; Op<name=X; ...>` (X no TPU
  internal op): `op-not-registered`, a graph of another release; 1.x, 2.x; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/core/framework/node_def_util.cc.
- `No op named X in defined operations.`: `op-not-registered`; 1.x; printed by
  https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/python/framework/importer.py.
- `error: 'tf.X' op is neither a custom op nor a flex op` (the TFLite converter):
  `op-not-registered`; 2.2 on; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/compiler/mlir/lite/flatbuffer_export.cc.
- `No OpKernel was registered to support Op 'X' used by {{node N}} with these attrs: [...]` (1.x:
  `with these attrs.  Registered devices: [...]`): `op-kernel-missing`; 1.x, 2.x; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/core/framework/op_kernel.cc.
- `No registered 'X' OpKernel for 'CPU' devices compatible with node ... (OpKernel was found, but
  attributes didn't match)`: `op-kernel-missing`; 2.x; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/core/framework/op_kernel.cc.
- `Could not find device for node: {{node X}} = X[...]` / `Could not find valid device for node.`:
  `op-kernel-missing`; 2.4 on / 2.1-2.3; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/core/common_runtime/eager/execute.cc,
  https://github.com/tensorflow/tensorflow/blob/v2.2.0/tensorflow/core/common_runtime/eager/execute.cc.
- `Detected unsupported operations when trying to compile graph G on XLA_GPU_JIT: X (No registered
  'X' OpKernel for XLA_GPU_JIT devices ...)`: `op-kernel-missing`; 1.x, 2.x; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/compiler/tf2xla/xla_compiler.cc.
- `LIB.so: undefined symbol: _ZN10tensorflow...` / `_ZN3tsl...` (a project's own op library):
  `custom-op-build-mismatch`; any / 2.13 on; printed by
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/tsl/platform/default/load_library.cc,
  https://man7.org/linux/man-pages/man3/dlopen.3.html.
- `dlopen(LIB.so, 6): Symbol not found: __ZN10tensorflow...` / `dlopen(LIB.so, 0x0006): symbol not
  found in flat namespace '__ZN10tensorflow...'`: `custom-op-build-mismatch`; macOS before 12 / 12
  on; printed by https://github.com/apple-oss-distributions/dyld.
- `TileOp : Unhandled input dimensions, DT : 1, dims : 7` (a rank above 5, a dtype every release
  tiles): `tf-too-old-for-code`; before 1.3, whose Tile kernel dispatches on a fixed list of ranks
  (1.2.1's wheel: 1 to 7; 1.3.0's is rank-generic); printed by
  https://github.com/tensorflow/tensorflow/blob/0f3eff963dd0d4617ed3cb61271ddb4a7840d378/tensorflow/core/kernels/tile_ops.cc
  (later releases' rank-generic kernel says the same only for a dtype it does not tile).
- `Failed to convert object of type <type 'list'> to Tensor. Contents: [Dimension(8), 1]` (static
  shape values in a list given as an integer input): `tf-too-old-for-code`, a warning; before
  1.4, whose tensor_util._FilterInt accepts Python ints only (1.4.0's wheel: also Dimension);
  printed by https://github.com/tensorflow/tensorflow/blob/v1.3.0/tensorflow/python/framework/tensor_util.py.
- `variable_scope() got an unexpected keyword argument 'values'` / `variable_scope() got multiple
  values for keyword argument 'reuse'` (code for the default_name and values signature):
  `tf-too-old-for-code`, a warning; 0.x before 0.11 (RELEASE.md, "Release 0.11.0": the new argument
  order), whose variable_scope(name_or_scope, reuse=None, initializer=None, ...) lacks them;
  printed by CPython for
  https://github.com/tensorflow/tensorflow/blob/v0.9.0/tensorflow/python/ops/variable_scope.py.
- `WARNING: Ignoring invalid distribution -ensorflow (SITE)`: `tf-install-incomplete`; pip 20.3 on;
  printed by https://github.com/pypa/pip/blob/23.0/src/pip/_internal/metadata/base.py.
- `cannot import name 'X' from 'tensorflow' (unknown location)`: `tf-install-incomplete`; Python
  3.8 on; printed by https://github.com/python/cpython/blob/3.8/Python/ceval.c.
- `module 'tensorflow' has no attribute '__version__'`: `tf-install-incomplete`; any; printed by
  https://github.com/python/cpython/blob/3.8/Objects/moduleobject.c.
- `partially initialized module 'tensorflow' has no attribute 'X' (most likely due to a circular
  import)`: `tf-shadowed-module`; Python 3.8 on; printed by
  https://github.com/python/cpython/blob/3.8/Objects/moduleobject.c.
- `<module 'tensorflow' (namespace)>` (newer Pythons: `... (namespace) from ['PATH']>`):
  `tf-install-incomplete`; Python 3.7 on; printed by
  https://github.com/python/cpython/blob/3.8/Lib/importlib/_bootstrap_external.py,
  https://github.com/python/cpython/blob/3.12/Lib/importlib/_bootstrap.py.
- `pip list` / `pip freeze` rows of `tensorflow` beside `tensorflow-gpu`, `tensorflow-cpu` or
  `tf-nightly`: `tf-multiple-distributions`; any; printed by
  https://pip.pypa.io/en/stable/cli/pip_list/.
- `Requirement already satisfied: tensorflow-gpu in SITE (1.0.1)` then `Successfully installed ...
  tensorflow-1.0.1`: `tf-multiple-distributions`; any pip; printed by
  https://github.com/pypa/pip/blob/23.0/src/pip/_internal/operations/prepare.py,
  https://github.com/pypa/pip/blob/23.0/src/pip/_internal/commands/install.py.
- `Successfully uninstalled tensorflow-X+zzzcolabDATE` (Colab's own build replaced):
  `hosted-tf-replaced`; Colab images; printed by
  https://github.com/pypa/pip/blob/23.0/src/pip/_internal/req/req_uninstall.py,
  https://research.google.com/colaboratory/runtime-version-faq.html.
"""

from __future__ import annotations

import time

import pytest

from tests.explaining import SIGNATURES, explained, fix_text, readings, top_error
from tfdoctor.explain.native import _INSTALLED_PATH
from tfdoctor.findings import Severity

_TF_HINT = (
    "Make sure the Op and Kernel are registered in the binary running in this process. Note "
    "that if you are loading a saved graph which used ops from tf.contrib (e.g. "
    "`tf.contrib.resampler`), accessing should be done before importing the graph, as contrib "
    "ops are lazily registered when the module is first accessed."
)


def _causes(text: str) -> set[str]:
    return {f.cause for f in readings(explained(text))}


# --- ops not registered -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "package"),
    [
        pytest.param("CaseFoldUTF8", "tensorflow_text", id="tf-text"),
        pytest.param("Addons>ImageProjectiveTransformV2", "tensorflow_addons", id="tf-addons"),
        pytest.param("IO>KafkaReadableInit", "tensorflow_io", id="tf-io"),
        pytest.param("WordpieceTokenizeWithOffsets", "tensorflow_text", id="tf-text-wordpiece"),
        pytest.param("SentencepieceTokenizeOp", "tensorflow_text", id="tf-text-sentencepiece"),
        pytest.param("SentencepieceEncodeSparse", "tf_sentencepiece", id="tf-sentencepiece"),
        pytest.param("TFRA>CuckooHashTableOfTensors", "tensorflow_recommenders_addons", id="tfra"),
    ],
)
def test_an_add_on_op_is_told_to_import_the_package_that_registers_it(
    op: str, package: str
) -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered "
        f"'{op}' in binary running on worker-3. {_TF_HINT}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    assert f"import {package}" in fix_text(top)


_EAGER_UNREGISTERED = (
    "tensorflow.python.framework.errors_impl.NotFoundError: '{op}' is neither a type of a "
    "primitive operation nor a name of a function registered in binary running on {host}. "
    "Make sure the operation or function is registered in the binary running in this process.\n"
)


def test_an_op_the_eager_runtime_does_not_know_is_an_unregistered_op() -> None:
    # An add-on's op, named by the package that registers it.
    text = _EAGER_UNREGISTERED.format(op="CaseFoldUTF8", host="build-box")
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    assert "import tensorflow_text" in fix_text(top)
    # An op of a newer TensorFlow: the release that saved the model.
    text = _EAGER_UNREGISTERED.format(op="DisableCopyOnRead", host="build-box")
    top = top_error(explained(text))
    assert top.cause == "op-not-registered" and "newer TensorFlow" in fix_text(top)


@pytest.mark.parametrize(
    "name",
    [
        # A traced function's name, not an op's: a function not registered, another fault.
        pytest.param("__inference_train_step_1234", id="function"),
        pytest.param("_MklConv2D", id="internal-op"),
    ],
)
def test_a_function_the_eager_runtime_does_not_know_is_no_unregistered_op(name: str) -> None:
    text = _EAGER_UNREGISTERED.format(op=name, host="build-box")
    assert not any(f.cause == "op-not-registered" for f in explained(text).findings)


def test_an_add_on_op_unregistered_in_tensorflow_serving_is_a_model_server_build() -> None:
    text = (
        "2023-01-01 10:00:00.000000: E tensorflow_serving/util/retrier.cc:37] Loading "
        "servable: {name: bert version: 1} failed: NOT_FOUND: Op type not registered "
        f"'CaseFoldUTF8' in binary running on 3f2a. {_TF_HINT}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "tensorflow-text" in fix and "model server built with" in fix
    assert "import tensorflow_text" not in fix


def test_an_op_unregistered_under_tensorflow_java_is_loaded_as_a_library() -> None:
    text = (
        'Exception in thread "main" org.tensorflow.exceptions.TFNotFoundException: Op type not '
        f"registered 'SentencepieceOp' in binary running on mac.local. {_TF_HINT}\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "TensorFlow.loadLibrary" in fix and "import tensorflow_text" not in fix


def test_a_contrib_op_is_told_to_touch_its_contrib_module_first() -> None:
    text = (
        "NotFoundError: Op type not registered 'ImageProjectiveTransform' in binary running on "
        "gpu-box. Make sure the Op and Kernel are registered in the binary running in this "
        "process. Note that if you are loading a saved graph which used ops from tf.contrib, "
        "accessing (e.g.) `tf.contrib.resampler` should be done before importing the graph, as "
        "contrib ops are lazily registered when the module is first accessed.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "import tensorflow.contrib.image" in fix and "1.15" in fix


def test_a_core_op_of_a_newer_release_is_not_read_as_contrib() -> None:
    text = (
        "NotFoundError: Op type not registered 'ImageProjectiveTransformV3' in binary running "
        f"on h. {_TF_HINT}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered" and "tensorflow.contrib" not in fix_text(top)


@pytest.mark.parametrize(
    ("registry", "op", "package"),
    [
        ("{'SentencepieceOp'}", "SentencepieceOp", "tensorflow_text"),
        ("set([u'Addons>Resampler'])", "Addons>Resampler", "tensorflow_addons"),
    ],
    ids=["py3-set", "py2-set"],
)
def test_tf_hubs_loader_of_tf1_modules_words_it_too(registry: str, op: str, package: str) -> None:
    text = (
        f"RuntimeError: Graph ops missing from the python registry ({registry}) are also absent "
        "from the c++ registry.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered" and f"import {package}" in fix_text(top)


def test_tensorflow_1s_graph_importer_words_it_too() -> None:
    top = top_error(explained("ValueError: No op named ClipByValue in defined operations.\n"))
    assert top.cause == "op-not-registered"


def test_the_tflite_converter_without_select_tf_ops() -> None:
    text = (
        "tensorflow.lite.python.convert_phase.ConverterError: Could not translate MLIR to "
        "FlatBuffer./home/u/export.py:30:1: error: 'tf.ExtractImagePatches' op is neither a "
        "custom op nor a flex op\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "SELECT_TF_OPS" in fix and "`ExtractImagePatches`" in fix and "float32" in fix


def test_an_unregistered_sentencepiece_op_of_neither_table_is_no_add_on() -> None:
    # TensorFlow Text's and tf_sentencepiece's op names are listed whole: a name of the same
    # prefix that neither registers is not told to import either.
    text = (
        "NotFoundError: Op type not registered 'SentencepieceFooBar' in binary running on h. "
        f"{_TF_HINT}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    assert "import tensorflow_text" not in fix_text(top)
    assert "import tf_sentencepiece" not in fix_text(top)


_UNRESOLVED = (
    "Traceback (most recent call last):\n"
    '  File "detect.py", line 40, in <module>\n'
    "    interpreter.allocate_tensors()\n"
    "RuntimeError: Encountered unresolved custom op: {op}.Node number 0 ({op}) failed to "
    "prepare.\n"
)


def test_the_edge_tpus_custom_op_without_its_delegate() -> None:
    top = top_error(explained(_UNRESOLVED.format(op="edgetpu-custom-op")))
    assert top.cause == "op-not-registered" and top.severity.value == "error"
    fix = fix_text(top)
    assert "load_delegate('libedgetpu.so.1')" in fix and "Edge TPU" in fix


def test_a_flex_op_left_unresolved_is_the_flex_delegate() -> None:
    top = top_error(explained(_UNRESOLVED.format(op="FlexRFFT")))
    assert top.cause == "op-not-registered" and "Flex delegate" in fix_text(top)


def test_another_custom_op_is_registered_or_converted_with_select_tf_ops() -> None:
    top = top_error(explained(_UNRESOLVED.format(op="RandomStandardNormal")))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "`RandomStandardNormal`" in fix and "AddCustom" in fix and "SELECT_TF_OPS" in fix
    assert "edgetpu" not in fix


_TOCO = (
    "tensorflow.lite.python.convert.ConverterError: TOCO failed. See console for info.\n"
    "Some of the operators in the model are not supported by the standard TensorFlow Lite "
    "runtime{extra}. If you have a custom implementation for them you can disable this error "
    "with --allow_custom_ops, or by setting allow_custom_ops=True when calling "
    "tf.lite.TFLiteConverter(). Here is a list of builtin operators you are using: ADD, "
    "CONV_2D. Here is a list of operators for which you will need custom implementations: "
    "{ops}.\n"
)


def test_tocos_refusal_of_tensorflow_ops_is_select_tf_ops() -> None:
    top = top_error(explained(_TOCO.format(extra="", ops="Mfcc, AudioSpectrogram")))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "SELECT_TF_OPS" in fix and "`Mfcc`" in fix


def test_tocos_refusal_with_select_tf_ops_on_is_no_tensorflow_op() -> None:
    text = _TOCO.format(extra=" and are not recognized by TensorFlow", ops="Addons>Resampler")
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "`Addons>Resampler` is no TensorFlow op" in fix and "AddCustom" in fix
    assert "supported_ops" not in fix


def test_the_converters_other_refusals_are_not_this_one() -> None:
    text = "error: 'tf.Conv2D' op is not supported on the GPU delegate; falling back to the CPU\n"
    assert "op-not-registered" not in _causes(text)


# --- no kernel for an op ------------------------------------------------------------------------


def test_no_kernel_for_the_dtype_given_is_told_to_cast_it() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: No OpKernel was "
        "registered to support Op 'MatMul' used by {{node dense/MatMul}} with these attrs: "
        "[transpose_a=false, T=DT_INT8, transpose_b=false]\n"
        "Registered devices: [CPU, GPU]\n"
        "Registered kernels:\n"
        "  device='GPU'; T in [DT_FLOAT]\n"
        "  device='CPU'; T in [DT_FLOAT]\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-kernel-missing"
    fix = fix_text(top)
    assert "`MatMul`" in fix and "tf.cast" in fix


def test_an_add_ons_op_without_a_kernel_is_its_library_to_load() -> None:
    text = (
        "NotFoundError: No OpKernel was registered to support Op 'SentencepieceOp' used by "
        '{{node SentencepieceOp}} with these attrs: [model_file="", use_node_name_sharing=false]\n'
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered" and "import tensorflow_text" in fix_text(top)


def test_tensorflow_1s_wording_of_the_same() -> None:
    text = (
        "InvalidArgumentError (see above for traceback): No OpKernel was registered to support "
        "Op 'DecodeProtoV2' with these attrs.  Registered devices: [CPU], Registered kernels:\n"
        "  <no registered kernels>\n"
    )
    assert top_error(explained(text)).cause == "op-kernel-missing"


def test_a_cpu_kernel_of_another_dtype() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: No registered 'Unique' OpKernel "
        "for 'CPU' devices compatible with node {{node Unique}}\n"
        "\t (OpKernel was found, but attributes didn't match) Requested Attributes: T=DT_HALF, "
        "out_idx=DT_INT32\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-kernel-missing" and "tf.cast" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "tensorflow.python.framework.errors_impl.NotFoundError: Could not find device for "
            "node: {{node Svd}} = Svd[T=DT_HALF, compute_uv=true, full_matrices=false]",
            id="2.4-on",
        ),
        pytest.param("NotFoundError: Could not find valid device for node.", id="2.1-2.3"),
    ],
)
def test_the_eager_runtime_finding_no_device_for_the_dtype(line: str) -> None:
    text = line + "\nAll kernels registered for op Svd:\n  device='CPU'; T in [DT_FLOAT]\n"
    top = top_error(explained(text))
    assert top.cause == "op-kernel-missing" and "dtype" in fix_text(top)


@pytest.mark.parametrize("device", ["XLA_GPU_JIT", "XLA_CPU_JIT", "XLA_TPU_JIT"])
def test_xla_without_a_kernel_is_told_to_compile_without_xla(device: str) -> None:
    text = (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Detected unsupported "
        "operations when trying to compile graph __inference_train_step_3021[_XlaMustCompile="
        f"true] on {device}: PyFunc (No registered 'PyFunc' OpKernel for {device} devices "
        "compatible with node {{node model/PyFunc}}){{node model/PyFunc}}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-kernel-missing"
    fix = fix_text(top)
    assert "jit_compile=False" in fix and "`PyFunc`" in fix


def test_xlas_device_quoted_is_still_xlas() -> None:
    # op_kernel.cc's CreateOpKernel quotes the device type, as it does 'CPU'.
    text = (
        "NotFoundError: No registered 'PyFunc' OpKernel for 'XLA_GPU_JIT' devices compatible "
        "with node {{node PyFunc}}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-kernel-missing" and "jit_compile=False" in fix_text(top)


def test_ncclss_op_keeps_its_own_fix() -> None:
    text = (
        "InvalidArgumentError: No OpKernel was registered to support Op 'NcclAllReduce' used by "
        '{{node Adam/NcclAllReduce}} with these attrs: [reduction="sum", T=DT_FLOAT]\n'
    )
    top = top_error(explained(text))
    assert top.cause == "op-kernel-missing" and "HierarchicalCopyAllReduce" in fix_text(top)


def test_the_tpu_system_op_is_the_tpus_reading_not_a_kernel() -> None:
    text = (
        "RuntimeError: TPUs not found in the cluster. Failed in initialization: No OpKernel was "
        "registered to support Op 'ConfigureDistributedTPU' used by {{node "
        "ConfigureDistributedTPU}} with these attrs: []\n"
    )
    assert "op-kernel-missing" not in _causes(text)


@pytest.mark.parametrize(
    "cause",
    [
        "No matching devices found for '/device:TPU_SYSTEM:0'",
        "Could not satisfy device specification '/job:worker/replica:0/task:0/device:TPU_SYSTEM:0'",
    ],
)
def test_no_tpu_system_device_at_initialization_is_no_tpu_reached(cause: str) -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: TPUs not found in the cluster. "
        f"Failed in initialization: {cause}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tpu-not-found"
    # The TPU VM's own case, where the PyPI wheel registers no TPU device, is named.
    assert "TPUClusterResolver" in fix_text(top) and "tensorflow-tpu" in fix_text(top)


def test_the_tpu_system_op_without_a_kernel_stays_the_builds() -> None:
    text = (
        "RuntimeError: TPUs not found in the cluster. Failed in initialization: No OpKernel was "
        "registered to support Op 'ConfigureDistributedTPU' used by {{node "
        "ConfigureDistributedTPU}} with these attrs: []\n"
    )
    assert top_error(explained(text)).cause == "tpu-tf-without-libtpu"
    assert "tpu-not-found" not in _causes(text)


def test_a_node_with_other_inputs_than_the_op_is_a_graph_of_another_release() -> None:
    text = (
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: NodeDef expected inputs "
        "'float, int32' do not match 3 inputs specified; Op<name=ResizeBilinear; "
        "signature=images:T, size:int32 -> resized_images:float; attr=T:type>; NodeDef: "
        "{{node up/ResizeBilinear}}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "`ResizeBilinear` node has other inputs" in fix and "Export the graph again" in fix
    # The TPU's internal op of another signature stays the TPU's release.
    tpu = text.replace("ResizeBilinear", "_Send")
    assert top_error(explained(tpu)).cause == "tpu-version-mismatch"


def test_a_gpu_placement_keeps_the_placement_fix() -> None:
    text = (
        "NotFoundError: No registered 'RngReadAndSkip' OpKernel for 'GPU' devices compatible "
        "with node {{node RngReadAndSkip}}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-kernel-missing" and "set_soft_device_placement" in fix_text(top)


def test_xla_named_in_prose_is_nothing() -> None:
    text = "I set jit_compile=True and the XLA_GPU_JIT device compiles the training step fine.\n"
    assert "op-kernel-missing" not in _causes(text)


# --- an op library built against another TensorFlow -----------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "tensorflow.python.framework.errors_impl.NotFoundError: /home/u/pointnet2/tf_ops/"
            "_grouping.so: undefined symbol: _ZN3tsl8internal10LogMessageC1EPKcii",
            id="tsl-symbol",
        ),
        pytest.param(
            "tensorflow.python.framework.errors_impl.NotFoundError: dlopen(/Users/u/src/ops/"
            "_sampling_ops.so, 6): Symbol not found: __ZN10tensorflow8OpKernel11TraceStringEPNS_"
            "15OpKernelContextEb",
            id="macos-before-12",
        ),
        pytest.param(
            "tensorflow.python.framework.errors_impl.NotFoundError: dlopen(/Users/u/src/ops/"
            "_sampling_ops.so, 0x0006): symbol not found in flat namespace "
            "'__ZN10tensorflow12OpDefBuilder4AttrENSt3__112basic_stringIcEE'",
            id="macos-12-on",
        ),
    ],
)
def test_a_projects_own_op_library_is_rebuilt_against_the_installed_tensorflow(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "custom-op-build-mismatch"
    fix = fix_text(top)
    assert "_ops.so" in fix or ".so" in fix
    assert "get_compile_flags" in fix or "compile and link flags" in fix


def test_an_add_ons_library_missing_a_tsl_symbol_is_the_add_ons_release() -> None:
    text = (
        "ImportError: /usr/local/lib/python3.10/dist-packages/tensorflow_text/python/ops/"
        "_regex_split_ops.so: undefined symbol: _ZN3tsl6StatusC1EN10tensorflow5error4CodeE\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch" and "tensorflow-text" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "ImportError: /opt/venv/lib/python3.11/site-packages/jaxlib/xla_extension.so: "
            "undefined symbol: _ZN3tsl8internal10LogMessageC1EPKcii",
            id="jaxlib",
        ),
        pytest.param(
            "ImportError: /opt/venv/lib/python3.11/site-packages/tensorflow/python/"
            "_pywrap_tensorflow_internal.so: undefined symbol: "
            "_ZN3tsl8internal10LogMessageC1EPKcii",
            id="tensorflows-own",
        ),
    ],
)
def test_a_library_that_is_no_op_library_is_not_a_custom_op(line: str) -> None:
    assert "custom-op-build-mismatch" not in _causes(line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "ImportError: /root/anaconda3/envs/pytorch/lib/python3.8/site-packages/"
            "torch_xla-1.13-py3.8-linux-x86_64.egg/_XLAC.cpython-38-x86_64-linux-gnu.so: "
            "undefined symbol: _ZN3tsl3Env7DefaultEv",
            id="torch-xla-extension",
        ),
        pytest.param(
            "ImportError: /opt/venv/lib/python3.11/site-packages/torch_xla/lib/libxla.so: "
            "undefined symbol: _ZN3tsl6StatusC1Ev",
            id="torch-xla-library",
        ),
        pytest.param(
            "NotFoundError: dlopen(/Users/u/venv/lib/python3.11/site-packages/jaxlib/"
            "xla_extension.so, 0x0002): symbol not found in flat namespace '__ZN3tsl6StatusC1Ev'",
            id="jaxlib-on-macos",
        ),
    ],
)
def test_another_frameworks_tsl_is_not_tensorflows(line: str) -> None:
    # PyTorch/XLA and jaxlib carry XLA's own tsl (pytorch/xla#4036): no TensorFlow release
    # gives their symbols.
    found = _causes(line + "\n")
    assert not found & {"custom-op-build-mismatch", "companion-mismatch"}, found


def test_dyld_words_on_a_long_line_are_read_in_linear_time() -> None:
    line = "NotFoundError: " + "dlopen(/a/b" * 10_000 + " Symbol not found: __ZN3tsl\n"
    pattern = SIGNATURES.by_id("op-library-flat-namespace").pattern
    started = time.perf_counter()
    pattern.search(line)
    assert time.perf_counter() - started < 0.5


# --- two distributions, a half-removed install ----------------------------------------------


@pytest.mark.parametrize(
    ("listing", "second"),
    [
        pytest.param(
            "$ pip list | grep tensorflow\ntensorflow                   2.10.0\n"
            "tensorflow-gpu               2.9.1\ntensorflow-estimator         2.10.0\n",
            "tensorflow-gpu",
            id="pip-list-gpu",
        ),
        pytest.param(
            "$ pip freeze\ntensorflow==2.15.0\ntf-nightly==2.16.0.dev20231101\n",
            "tf-nightly",
            id="freeze-nightly",
        ),
        pytest.param(
            "$ pip freeze\ntensorflow==2.13.0\ntensorflow-macos==2.12.0\n",
            "tensorflow-macos",
            id="wrapper-of-another-release",
        ),
    ],
)
def test_two_tensorflow_distributions_listed(listing: str, second: str) -> None:
    top = top_error(explained(listing))
    assert top.cause == "tf-multiple-distributions"
    fix = fix_text(top)
    assert "uninstall -y" in fix and second in fix


@pytest.mark.parametrize(
    "listing",
    [
        pytest.param("$ pip freeze\ntensorflow==2.12.0\ntensorflow-intel==2.12.0\n", id="wrapper"),
        pytest.param(
            "$ pip list\ntensorflow                   2.10.0\n"
            "tensorflow-estimator         2.10.0\ntensorflow-io-gcs-filesystem 0.27.0\n",
            id="companions",
        ),
        pytest.param("tensorflow==2.15.0\ntf-nightly==2.16.0.dev20231101\n", id="requirements"),
    ],
)
def test_one_installation_or_a_requirements_file_is_not_two(listing: str) -> None:
    assert "tf-multiple-distributions" not in _causes(listing)


def test_pip_adding_a_second_tensorflow_for_a_dependant() -> None:
    text = (
        "$ pip install --upgrade keras\n"
        "Requirement already satisfied: tensorflow-gpu in "
        "/home/u/anaconda3/lib/python3.6/site-packages (1.0.1)\n"
        "Collecting tensorflow (from keras)\n"
        "Installing collected packages: tensorflow, keras\n"
        "Successfully installed keras-2.0.2 tensorflow-1.0.1\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-multiple-distributions"
    fix = fix_text(top)
    assert "uninstall -y tensorflow-gpu tensorflow" in fix
    assert "--no-deps" in top.detail


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Requirement already satisfied: tensorflow-gpu in /usr/lib/python3.8/site-packages "
            "(2.4.1)\nSuccessfully installed tensorflow-gpu-2.5.0\n",
            id="the-same-distribution-upgraded",
        ),
        pytest.param(
            "Requirement already satisfied: tensorflow-estimator in /usr/lib/python3/site-packages "
            "(2.10.0)\nSuccessfully installed tensorflow-2.10.0\n",
            id="a-companion",
        ),
    ],
)
def test_one_distribution_installed_by_pip_is_not_two(text: str) -> None:
    assert "tf-multiple-distributions" not in _causes(text)


def test_pips_half_removed_tensorflow() -> None:
    text = (
        "WARNING: Ignoring invalid distribution -ensorflow-gpu "
        "(/home/me/venv/lib/python3.8/site-packages)\n"
    )
    found = [f for f in explained(text).findings if f.cause == "tf-install-incomplete"]
    assert found and found[0].severity.value == "warning"
    fix = fix_text(found[0])
    assert "rm -rf /home/me/venv/lib/python3.8/site-packages/~ensorflow*" in fix
    assert "--force-reinstall" in fix and "tensorflow-gpu" in fix


def test_a_windows_leftover_rewrites_the_platform_build_that_holds_the_files() -> None:
    # On Windows from 2.11 `tensorflow` is a wrapper whose files are tensorflow-intel's:
    # reinstalling the wrapper alone with --no-deps rewrites none of them.
    text = (
        "WARNING: Ignoring invalid distribution -ensorflow-intel "
        "(c:\\python310\\lib\\site-packages)\n"
        "tensorflow                   2.12.0\ntensorflow-intel             2.12.0\n"
    )
    found = [f for f in explained(text).findings if f.cause == "tf-install-incomplete"]
    assert found and found[0].fix is not None
    assert any(
        "--no-deps" in x and '"tensorflow-intel==2.12.0"' in x for x in found[0].fix.commands
    ), found[0].fix.commands


def test_a_leftover_without_a_version_shown_has_no_command_with_a_placeholder() -> None:
    text = (
        "WARNING: Ignoring invalid distribution -ensorflow "
        "(/srv/env/lib/python3.10/site-packages)\n"
    )
    found = [f for f in explained(text).findings if f.cause == "tf-install-incomplete"]
    assert found and found[0].fix is not None
    assert not any("<" in x for x in found[0].fix.commands), found[0].fix.commands


@pytest.mark.parametrize("leftover", ["-ensorflow-io-gcs-filesystem", "-ensorflow-estimator"])
def test_a_companions_leftover_is_not_tensorflows(leftover: str) -> None:
    text = f"WARNING: Ignoring invalid distribution {leftover} (/usr/lib/python3/dist-packages)\n"
    assert all(f.cause != "tf-install-incomplete" for f in explained(text).findings)


def test_tensorflow_as_an_empty_folder() -> None:
    text = "ImportError: cannot import name 'keras' from 'tensorflow' (unknown location)\n"
    top = top_error(explained(text))
    assert top.cause == "tf-install-incomplete"
    assert "tf.__path__" in fix_text(top) and "uninstall" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        "<module 'tensorflow' (namespace)>",
        "<module 'tensorflow' (namespace) from "
        "['/opt/venv/lib/python3.12/site-packages/tensorflow']>",
    ],
)
def test_tensorflow_printed_as_a_namespace_package(line: str) -> None:
    top = top_error(explained(">>> print(tf)\n" + line + "\n"))
    assert top.cause == "tf-install-incomplete" and "uninstall" in fix_text(top)


def test_another_namespace_package_is_not_tensorflow() -> None:
    text = "<module 'google' (namespace) from ['/opt/venv/lib/python3.12/site-packages/google']>\n"
    assert "tf-install-incomplete" not in _causes(text)


def test_a_submodule_in_an_unknown_location_is_not_the_whole_package() -> None:
    text = (
        "ImportError: cannot import name 'builder' from 'google.protobuf.internal' "
        "(unknown location)\n"
    )
    assert "tf-install-incomplete" not in _causes(text)


def test_a_hollow_tensorflow_without_its_version() -> None:
    top = top_error(
        explained("AttributeError: module 'tensorflow' has no attribute '__version__'\n")
    )
    assert top.cause == "tf-install-incomplete"


def test_a_name_the_installed_release_has_missing_is_a_hollow_tensorflow() -> None:
    # tf.compat is in every release the listings hold: under the 2.12 the log shows, what
    # imported as tensorflow without it is a leftover folder or a module of the user's.
    text = (
        "$ pip list | grep tensorflow\n"
        "tensorflow                   2.12.0\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    tf.compat.v1.disable_eager_execution()\n"
        "AttributeError: module 'tensorflow' has no attribute 'compat'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-install-incomplete"
    assert "TensorFlow 2.12, the release the log shows installed" in top.detail
    assert "tf.__file__" in fix_text(top)


def test_a_namespace_tensorflow_missing_a_name_says_nothing_of_a_release() -> None:
    # Printed as a namespace package, tensorflow is a folder without its files: tf.compat
    # missing from it is no TensorFlow older than the code.
    text = (
        ">>> import tensorflow as tf\n"
        ">>> tf\n"
        "<module 'tensorflow' (namespace)>\n"
        ">>> tf.compat\n"
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        "AttributeError: module 'tensorflow' has no attribute 'compat'\n"
    )
    found = readings(explained(text))
    assert [x.cause for x in found] == ["tf-install-incomplete"]


def _ranked(text: str) -> list[tuple[str, str]]:
    """Each finding of ``text`` above info as (cause, severity), in the report's order."""
    return [
        (x.cause, x.severity.value)
        for x in explained(text).findings
        if x.severity.rank > Severity.INFO.rank
    ]


def _missing(attr: str, above: str = "") -> str:
    """A log of ``tf.<attr>`` missing from the top-level tensorflow, ``above`` before it."""
    return (
        above + "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 7, in <module>\n'
        f"    x = tf.{attr}\n"
        f"AttributeError: module 'tensorflow' has no attribute '{attr}'\n"
    )


@pytest.mark.parametrize("attr", ["test", "image"])
def test_a_module_of_the_first_release_missing_is_no_whole_tensorflow(attr: str) -> None:
    # tf.test and tf.image are in 0.5.0's __init__.py and in every release since: no release
    # lacks them, so neither the code's age nor a release's removal explains it. The install
    # is broken: its files incomplete first, two distributions in one folder the other
    # candidate (no listing shows which).
    ranked = _ranked(_missing(attr))
    assert ranked[:2] == [
        ("tf-install-incomplete", "error"),
        ("tf-multiple-distributions", "warning"),
    ], ranked
    assert "api-removed" not in {cause for cause, _ in ranked}


#: Two TensorFlow distributions as a log shows them: each listing's words, and pip installing
#: one beside the other.
_TWO_SHOWN = {
    "pip-list": "$ pip list | grep tensorflow\ntensorflow   2.3.0\ntensorflow-gpu   2.1.0\n",
    "pip-freeze": "$ pip freeze | grep tensorflow\ntensorflow==2.3.0\ntensorflow-gpu==2.1.0\n",
    "conda-list": (
        "$ conda list tensorflow\n# packages in environment at /home/u/miniconda3/envs/tf:\n"
        "#\n# Name                    Version                   Build  Channel\n"
        "tensorflow                2.3.0                    pypi_0    pypi\n"
        "tensorflow-gpu            2.1.0                    pypi_0    pypi\n"
    ),
    "pip-beside": (
        "Requirement already satisfied: tensorflow-gpu in /srv/venv/lib/python3.8/site-packages "
        "(2.1.0)\nCollecting tensorflow\nInstalling collected packages: tensorflow\n"
        "Successfully installed tensorflow-2.3.0\n"
    ),
}


@pytest.mark.parametrize("listed", list(_TWO_SHOWN.values()), ids=list(_TWO_SHOWN))
def test_two_distributions_shown_lead_for_a_name_every_release_has(listed: str) -> None:
    report = explained(_missing("test", listed))
    top = top_error(report)
    assert top.cause == "tf-multiple-distributions"
    assert "uninstall" in fix_text(top) and "tensorflow-gpu" in fix_text(top)
    assert [x.cause for x in readings(report)] == ["tf-multiple-distributions"]
    # The incomplete install stays, as information below it.
    assert [x.cause for x in report.findings if x.severity is Severity.INFO] == [
        "tf-install-incomplete"
    ]


def _printed(path: str) -> str:
    """A session printing the module tensorflow imported from ``path``."""
    return f">>> import tensorflow as tf\n>>> print(tf)\n<module 'tensorflow' from '{path}'>\n"


@pytest.mark.parametrize(
    ("path", "own"),
    [
        ("/home/me/proj/tensorflow.py", "/home/me/proj/tensorflow.py"),
        ("/home/me/proj/tensorflow/__init__.py", "/home/me/proj/tensorflow"),
    ],
    ids=["file", "folder"],
)
def test_a_tensorflow_printed_from_outside_site_packages_leads(path: str, own: str) -> None:
    report = explained(_missing("test", _printed(path)))
    top = top_error(report)
    assert top.cause == "tf-shadowed-module"
    assert f'mv "{own}"' in fix_text(top)
    assert [x.cause for x in readings(report)] == ["tf-shadowed-module"]


def test_the_installed_tensorflow_printed_is_no_shadow() -> None:
    path = "/srv/venv/lib/python3.10/site-packages/tensorflow/__init__.py"
    top = top_error(explained(_missing("test", _printed(path))))
    assert top.cause == "tf-install-incomplete"


@pytest.mark.parametrize("release", ["1.12.0", "1.4.0"])
def test_a_tf1_name_missing_under_a_tf1_release_is_no_whole_tensorflow(release: str) -> None:
    # tf.Session is in every 1.x release (0.5.0's client_lib on): under the 1.x release the
    # log lists it says the install is broken, whatever the listings' oldest line (1.9).
    listed = f"$ pip list | grep tensorflow\ntensorflow                   {release}\n"
    top = top_error(explained(_missing("Session", listed)))
    assert top.cause == "tf-install-incomplete"
    assert f"the log shows TensorFlow {release}" in top.detail


def test_a_tf1_name_missing_under_tf2_stays_its_move_to_compat_v1() -> None:
    listed = "$ pip list | grep tensorflow\ntensorflow                   2.4.0\n"
    assert top_error(explained(_missing("Session", listed))).cause == "api-moved-to-compat-v1"


def test_a_name_a_later_release_brought_stays_the_releases_question() -> None:
    # tf.data came with 1.4: missing under 1.2, the release is older than the code.
    listed = "$ pip list | grep tensorflow\ntensorflow                   1.2.1\n"
    assert top_error(explained(_missing("data", listed))).cause == "tf-too-old-for-code"


def test_a_name_tensorflow_216_removed_stays_its_removal() -> None:
    # tf.estimator is gone from 2.16 on: a release's removal, not a broken install.
    listed = "$ pip list | grep tensorflow\ntensorflow                   2.16.1\n"
    ranked = _ranked(_missing("estimator", listed))
    assert ranked[0] == ("tf-estimator-removed", "error"), ranked
    assert "tf-install-incomplete" not in {cause for cause, _ in ranked}


def test_a_name_another_distribution_serves_is_not_a_hollow_tensorflow() -> None:
    # tf.estimator comes from tensorflow-estimator: missing, that package failed.
    text = (
        "tensorflow                   2.12.0\n"
        "AttributeError: module 'tensorflow' has no attribute 'estimator'\n"
    )
    assert "tf-install-incomplete" not in _causes(text)


# --- an import cycle through a file of the user's own ----------------------------------------


def test_a_users_file_named_like_a_module_tensorflow_imports() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/home/u/venv/lib/python3.10/site-packages/tensorflow/__init__.py", line 45, '
        "in <module>\n"
        "    from tensorflow._api.v2 import __internal__\n"
        '  File "/home/u/proj/keras.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/home/u/proj/keras.py", line 2, in <module>\n'
        "    model = tf.keras.Sequential()\n"
        "AttributeError: partially initialized module 'tensorflow' has no attribute 'keras' "
        "(most likely due to a circular import)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-shadowed-module" and "/home/u/proj/keras.py" in fix_text(top)


def test_the_cycle_without_frames_is_a_warning() -> None:
    text = (
        "AttributeError: partially initialized module 'tensorflow' has no attribute 'keras' "
        "(most likely due to a circular import)\n"
    )
    found = readings(explained(text))
    assert [(f.cause, f.severity.value) for f in found] == [("tf-shadowed-module", "warning")]


def test_another_packages_cycle_is_not_tensorflows() -> None:
    text = (
        "AttributeError: partially initialized module 'cv2' has no attribute 'gapi_wip_gst_"
        "GStreamerPipeline' (most likely due to a circular import)\n"
    )
    assert "tf-shadowed-module" not in _causes(text)


# --- Colab's own TensorFlow replaced ----------------------------------------------------------

_REPLACED = (
    "Installing collected packages: tensorflow\n"
    "  Attempting uninstall: tensorflow\n"
    "    Found existing installation: tensorflow 2.8.2+zzzcolab20220719082949\n"
    "    Uninstalling tensorflow-2.8.2+zzzcolab20220719082949:\n"
    "      Successfully uninstalled tensorflow-2.8.2+zzzcolab20220719082949\n"
    "Successfully installed tensorflow-2.7.0\n"
)


def test_pip_removing_colabs_own_build_is_the_image_replaced() -> None:
    found = [f for f in explained(_REPLACED).findings if f.cause == "hosted-tf-replaced"]
    assert found and found[0].severity.value == "warning"
    fix = fix_text(found[0])
    assert "tensorflow==2.7.0" in fix and "Disconnect and delete runtime" in fix


def test_with_the_gpu_failing_after_it_the_replacement_is_the_error() -> None:
    text = _REPLACED + (
        "2022-07-20 10:00:00.000000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Loaded "
        "runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs "
        "to have matching major version and equal or higher minor version.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "hosted-tf-replaced"


def test_replacing_a_tensorflow_elsewhere_is_not_the_hosted_image() -> None:
    text = _REPLACED.replace("+zzzcolab20220719082949", "")
    assert all(f.cause != "hosted-tf-replaced" for f in explained(text).findings)


def test_an_installed_path_on_a_long_line_is_read_in_linear_time() -> None:
    # A cited line is searched for the installed file it names (a companion's extension).
    started = time.perf_counter()
    assert _INSTALLED_PATH.search("/a" * 50_000) is None
    assert time.perf_counter() - started < 0.5
    assert _INSTALLED_PATH.findall("Referenced from: '/e/lib/site-packages/t/x.so' and q") == [
        "/e/lib/site-packages/t/x.so"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "UnimplementedError: TileOp : Unhandled input dimensions, DT : 1, dims : 7",
        "tensorflow.python.framework.errors_impl.UnimplementedError: TileOp : Unhandled input "
        "dimensions, DT : 9, dims : 12",
    ],
    ids=["float-rank-7", "int64-rank-12"],
)
def test_a_tile_kernel_limited_to_rank_5_is_an_older_tensorflow(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "tf-too-old-for-code"
    text = fix_text(top)
    # The log's rank is named; 1.0.0 already tiled 6 dimensions and 1.1.0 7, so the fix
    # speaks of the release that tiles any rank, never of "more than 5" from 1.3.
    rank = line.rsplit(" ", 1)[-1]
    assert f"any rank (this one has {rank} dimensions)" in text
    assert "more than 5" not in text and "Upgrade TensorFlow to 1.3 or later" in text
    # 1.3 brought the rank-generic kernel (the wheels' TileOp::HandleCase symbols).
    assert top.fix is not None
    assert any('"tensorflow>=1.3,<2"' in c for c in top.fix.commands)


@pytest.mark.parametrize(
    "line",
    [
        # A rank every release tiles: the words mean a dtype the kernel lacks.
        "UnimplementedError: TileOp : Unhandled input dimensions, DT : 1, dims : 4",
        # A dtype (half) a rank-generic release may not tile on a device: not the release.
        "UnimplementedError: TileOp : Unhandled input dimensions, DT : 19, dims : 7",
        # The gradient's kernel handles a fixed list of ranks in every release.
        "UnimplementedError: TileGradientOp : Unhandled input dimensions, DT : 1, dims : 8",
    ],
    ids=["rank-4", "half-dtype", "gradient-kernel"],
)
def test_other_unhandled_tile_words_are_not_the_release(line: str) -> None:
    assert "tf-too-old-for-code" not in _causes(line + "\n")


_NOT_CONVERTED = (
    "TypeError: Failed to convert object of type <type 'list'> to Tensor. Contents: {}. "
    "Consider casting elements to a supported type.\n"
)


@pytest.mark.parametrize(
    "contents",
    ["[Dimension(16), Dimension(4), Dimension(4), 1]", "(-1, Dimension(128))"],
    ids=["tile-multiples", "reshape-tuple"],
)
def test_static_sizes_refused_in_a_list_are_an_older_tensorflow(contents: str) -> None:
    (found,) = [
        x
        for x in explained(_NOT_CONVERTED.format(contents)).findings
        if x.cause == "tf-too-old-for-code"
    ]
    assert found.severity.value == "warning"
    # 1.4's tensor_util._FilterInt accepts Dimension; a cast works on every release.
    assert "from 1.4 on" in fix_text(found) and "d.value" in fix_text(found)


def test_static_sizes_refused_by_a_release_that_converts_them_are_cast_only() -> None:
    log = "$ pip freeze\ntensorflow==1.8.0\n" + _NOT_CONVERTED.format("[Dimension(2), 1]")
    (found,) = [x for x in explained(log).findings if x.cause == "tf-too-old-for-code"]
    assert "1.8.0 converts" in fix_text(found) and "Upgrade" not in fix_text(found)


@pytest.mark.parametrize(
    "contents",
    # An unknown size converts on no release; a list without Dimension is another refusal.
    ["[Dimension(None), 4]", "[<object object at 0x7f>, 4]"],
    ids=["unknown-size", "no-dimension"],
)
def test_other_lists_refused_are_not_the_release(contents: str) -> None:
    assert "tf-too-old-for-code" not in _causes(_NOT_CONVERTED.format(contents))


@pytest.mark.parametrize(
    "line",
    [
        "TypeError: variable_scope() got an unexpected keyword argument 'values'",
        "TypeError: variable_scope() got multiple values for keyword argument 'reuse'",
        "TypeError: variable_scope() got multiple values for argument 'reuse'",
    ],
    ids=["values-refused", "reuse-twice-python2", "reuse-twice-python3"],
)
def test_an_early_variable_scope_signature_is_an_older_tensorflow(line: str) -> None:
    (found,) = [x for x in explained(line + "\n").findings if x.cause == "tf-too-old-for-code"]
    assert found.severity.value == "warning"
    # The first release with the new argument order: RELEASE.md, "Release 0.11.0".
    assert "default_name" in fix_text(found) and "from 0.11 on" in fix_text(found)
    assert found.fix is not None
    assert any('"tensorflow>=0.11,<1"' in c for c in found.fix.commands)


@pytest.mark.parametrize(
    "line",
    [
        "TypeError: variable_scope() got an unexpected keyword argument 'reuse_scope'",
        "TypeError: my_scope() got an unexpected keyword argument 'values'",
        "TypeError: variable_scope() got multiple values for argument 'initializer'",
    ],
    ids=["other-keyword", "other-function", "other-argument-twice"],
)
def test_other_refusals_of_a_scope_call_are_not_the_release(line: str) -> None:
    assert "tf-too-old-for-code" not in _causes(line + "\n")


# --- tf.flags before absl -----------------------------------------------------------------------


def _flags_log(attr: str, absl_below: bool = False) -> str:
    """A traceback of ``FLAGS.<attr>`` through TensorFlow's flags wrapper: the wrapper of 1.4
    and older raising itself, or that of 1.5 on passing the name to absl's FlagValues."""
    site = "/usr/lib/python3.6/site-packages"
    text = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 60, in save_config\n'
        f"    flagdict = FLAGS.{attr}()\n"
        f'  File "{site}/tensorflow/python/platform/flags.py", line 44, in __getattr__\n'
    )
    if absl_below:
        text += (
            "    return wrapped.__getattr__(name)\n"
            f'  File "{site}/absl/flags/_flagvalues.py", line 470, in __getattr__\n'
        )
    return text + f"    raise AttributeError(name)\nAttributeError: {attr}\n"


@pytest.mark.parametrize("attr", ["flag_values_dict", "mark_as_parsed"])
def test_absls_flag_methods_refused_by_tensorflows_own_wrapper_need_1_5(attr: str) -> None:
    top = top_error(explained(_flags_log(attr)))
    assert top.cause == "tf-too-old-for-code"
    assert top.fix is not None
    assert any('"tensorflow>=1.5,<2"' in c for c in top.fix.commands)


def test_a_flag_absl_itself_does_not_know_is_not_an_old_tensorflow() -> None:
    # 1.5 on: the wrapper hands the name to absl, which raises; not a release before absl.
    assert "tf-too-old-for-code" not in _causes(_flags_log("flag_values_dict", absl_below=True))


def test_a_flag_the_code_never_defined_is_not_an_old_tensorflow() -> None:
    assert "tf-too-old-for-code" not in _causes(_flags_log("learning_rate"))


# --- cuDNN's RNN kernel without an NVIDIA GPU -------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: No OpKernel was "
        "registered to support Op 'CudnnRNN' with these attrs.  Registered devices: [CPU], "
        "Registered kernels:\n  <no registered kernels>",
        "InvalidArgumentError: Could not find device for node: {{node CudnnRNNV3}} = "
        'CudnnRNNV3[T=DT_FLOAT, direction="unidirectional"]\nAll kernels registered for op '
        "CudnnRNNV3:\n  device='GPU'; T in [DT_FLOAT]",
    ],
    ids=["keras2-cudnn-layer-on-cpu", "v3-on-a-plugin-gpu"],
)
def test_cudnns_rnn_kernel_without_an_nvidia_gpu_builds_the_layer_without_it(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "op-kernel-missing"
    text = fix_text(top)
    assert "CuDNNLSTM and CuDNNGRU become LSTM and GRU" in text
    assert "tf.keras.layers.RNN(tf.keras.layers.LSTMCell(units))" in text
    # Not the dtype advice of other kernels without the attributes asked.
    assert "tf.cast" not in text


# op_kernel.cc's look-up for the GPU (its words, then "\n\t" and what AppendToMessage adds) and
# the graph's refusal (the process's devices, then KernelsRegisteredForOp, a kernel a line).
_RNN_ATTRS = (
    'T=DT_BFLOAT16, direction="unidirectional", dropout=0, input_mode="linear_input", '
    'is_training=true, rnn_mode="lstm", seed=0, seed2=0'
)
_RNN_GPU_KERNELS = (
    "  device='GPU'; T in [DT_DOUBLE]\n  device='GPU'; T in [DT_FLOAT]\n"
    "  device='GPU'; T in [DT_HALF]\n"
)


@pytest.mark.parametrize(
    "log",
    [
        "tensorflow.python.framework.errors_impl.NotFoundError: No registered 'CudnnRNN' "
        "OpKernel for 'GPU' devices compatible with node {{node CudnnRNN}}\n"
        "\t.  Registered:  <no registered kernels>\n",
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: No OpKernel was "
        "registered to support Op 'CudnnRNNV3' used by {{node lstm/CudnnRNNV3}} with these "
        f"attrs: [{_RNN_ATTRS}]\nRegistered devices: [CPU, GPU]\nRegistered kernels:\n"
        "  <no registered kernels>\n",
    ],
    ids=["no-kernel-for-the-gpu", "gpu-registered-without-the-kernel"],
)
def test_cudnns_rnn_kernel_not_registered_for_the_gpu_builds_the_layer_without_it(
    log: str,
) -> None:
    # A GPU the process registered (a plugin's) without cuDNN's kernel: the kernel is missing.
    text = fix_text(top_error(explained(log)))
    assert "CuDNNLSTM and CuDNNGRU become LSTM and GRU" in text
    assert "tf.cast" not in text


@pytest.mark.parametrize(
    "log",
    [
        "tensorflow.python.framework.errors_impl.NotFoundError: No registered 'CudnnRNN' "
        "OpKernel for 'GPU' devices compatible with node {{node CudnnRNN}}\n"
        f"\t (OpKernel was found, but attributes didn't match) Requested Attributes: {_RNN_ATTRS}"
        f"\n\t.  Registered:{_RNN_GPU_KERNELS}",
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: No OpKernel was "
        "registered to support Op 'CudnnRNNV3' used by {{node lstm/CudnnRNNV3}} with these "
        f"attrs: [{_RNN_ATTRS}]\nRegistered devices: [CPU, GPU]\nRegistered kernels:\n"
        f"{_RNN_GPU_KERNELS}",
    ],
    ids=["attributes-did-not-match", "gpu-registered-with-other-dtypes"],
)
def test_cudnns_rnn_kernel_refusing_a_dtype_on_a_registered_gpu_is_the_dtype(log: str) -> None:
    # The GPU is there and has the kernel, for other dtypes: not "no GPU registered".
    top = top_error(explained(log))
    assert top.cause == "op-kernel-missing"
    text = fix_text(top)
    assert "tf.cast" in text
    assert "CuDNNLSTM" not in text and "registered none" not in text


@pytest.mark.parametrize("attr", ["compat", "Variable"])
def test_a_tensorflow_still_importing_is_no_hollow_tensorflow(attr: str) -> None:
    # Python's own words: the module was asked for a name while its import was running (an
    # import cycle), not one whose files are missing.
    text = (
        "tensorflow                   2.12.0\n"
        f"AttributeError: partially initialized module 'tensorflow' has no attribute '{attr}' "
        "(most likely due to a circular import)\n"
    )
    assert "tf-install-incomplete" not in _causes(text)


def test_version_is_dated_from_the_release_that_brought_it() -> None:
    # tf.__version__ came with 0.6.0 ("This already works since 0.6",
    # tensorflow/tensorflow#1137): not in the first release, so the words name 0.6.0.
    top = top_error(explained(_missing("__version__")))
    assert top.cause == "tf-install-incomplete"
    assert "from 0.6.0 to" in top.detail and "from the first" not in top.detail


def test_version_missing_under_the_first_release_is_no_hollow_tensorflow() -> None:
    listed = "$ pip list | grep tensorflow\ntensorflow                   0.5.0\n"
    causes = {x.cause for x in explained(_missing("__version__", listed)).findings}
    assert "tf-install-incomplete" not in causes


def test_a_windows_tensorflow_printed_is_named_with_its_own_backslashes() -> None:
    # Python's module repr doubles each backslash of the path it prints.
    printed = _printed("C:\\\\Users\\\\me\\\\proj\\\\tensorflow.py")
    top = top_error(explained(_missing("test", printed)))
    assert top.cause == "tf-shadowed-module"
    assert "C:\\Users\\me\\proj\\tensorflow.py," in top.summary
    assert "\\\\" not in fix_text(top)
    assert 'ren "C:\\Users\\me\\proj\\tensorflow.py" "tensorflow.py.bak"' in fix_text(top)


def test_a_linked_add_ons_op_missing_from_a_bazel_built_server_is_a_newer_server() -> None:
    # TensorFlow Serving logs TensorFlow's files under external/org_tensorflow/ (TensorFlow
    # built as its Bazel dependency), and links tensorflow-text's ops at one release.
    text = (
        "2022-10-04 19:10:22.730427: E external/org_tensorflow/tensorflow/core/grappler/"
        "optimizers/meta_optimizer.cc:954] function_optimizer failed: NOT_FOUND: Op type not "
        "registered 'FastBertNormalize' in binary running on 2d4c8711fa01.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "tensorflow-text" in fix and "tensorflow/serving:nightly" in fix
    assert "import tensorflow_text" not in fix
