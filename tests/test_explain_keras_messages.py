"""Keras releases against code, model files and TensorFlow, read from the words Keras and
TensorFlow print: which Keras runs (Keras 3, Keras 2, tf-keras), which wrote the file, and
whether the keras package is the one TensorFlow's tf.keras loads.

The messages, the releases that print them, where, and the cause read (every one checked
below through ``explain`` in a line written here; "new" marks what this file's readings add):

- `File format not supported: filepath=X. Keras 3 only supports V3 `.keras` files and legacy
  H5`: Keras 3.0+ load_model; keras3-behaviour-change, scan's keras3-load-savedmodel fix
  (TFSMLayer; new), as `.keras` and `.weights.h5` files` takes keras3-load-weights-path's.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/saving/saving_api.py
- `File not found: filepath=X.keras. Please ensure the file is an accessible `.keras` zip file`
  (new): Keras 3.0+ load_model given no zip (a missing path, or Keras 2.12's HDF5 under
  `.keras`); keras3-behaviour-change, a warning.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/saving/saving_api.py
- `Keras 3 only supports V3 `.keras` and `.weights.h5` files`: Keras 3.0+ load_weights;
  keras3-behaviour-change.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/saving/saving_api.py
- `Expected a model.weights.h5 or model.weights.npz file.` (new): Keras 3 load_model given a
  `.keras` archive, or (3.4+) a folder with a config.json, without a Keras 3 weights file
  (another Keras's or tool's, or weights not downloaded); keras3-behaviour-change, a warning.
  https://github.com/keras-team/keras/blob/v3.3.3/keras/src/saving/saving_lib.py
- `A KerasTensor cannot be used as input to a TensorFlow function`: Keras 3.0+;
  keras3-behaviour-change.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/backend/common/keras_tensor.py
- `Unrecognized keyword arguments passed to Dense: {...}`: Keras 3.0+ Layer;
  keras3-behaviour-change.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/layers/layer.py
- `Argument(s) not recognized: {'lr': ...}`: Keras 3.0+ optimizers; keras3-behaviour-change.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/optimizers/base_optimizer.py
- `keras.optimizers.legacy is not supported in Keras 3`: Keras 3.0+; keras3-behaviour-change.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/optimizers/__init__.py
- `Could not locate class 'Functional'`: Keras 3's deserializer; keras3-behaviour-change.
  https://github.com/keras-team/keras/blob/v3.3.3/keras/src/saving/serialization_lib.py
- `Unknown layer: 'TFOpLambda'`, `Could not locate class 'TFOpLambda'` (new): Keras 3 (quoted,
  as from Keras 2.11; every Keras 2 has the class); keras3-behaviour-change.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/legacy/saving/serialization.py
- `Unknown layer: TFOpLambda`, unquoted (new): Keras 2.10 and older, TensorFlow's copy,
  multi-backend Keras (the class came with TensorFlow 2.4); model-from-newer-keras.
  https://github.com/keras-team/keras/blob/v2.10.0/keras/utils/generic_utils.py
- `Unknown layer: Functional`: tf.keras 2.3 and older (the class came with 2.4);
  model-from-newer-keras.
  https://github.com/tensorflow/tensorflow/issues/41929
- `Could not deserialize class 'Functional' because its parent module
  keras.src.models.functional cannot be imported`: Keras 2.13-2.15; keras3-model-under-keras2.
  https://github.com/keras-team/keras/blob/v2.15.0/keras/src/saving/serialization_lib.py
- `Unrecognized keyword arguments: ['batch_shape']`: Keras 2.8-2.15 InputLayer;
  keras3-model-under-keras2.
  https://github.com/keras-team/keras/blob/v2.15.0/keras/src/engine/input_layer.py
- `('Unrecognized keyword arguments:', dict_keys(['batch_shape']))` (new): Keras 2.6-2.7
  and TensorFlow's own copy of Keras, InputLayer; keras3-model-under-keras2.
  https://github.com/keras-team/keras/blob/v2.6.0/keras/engine/input_layer.py
- `No module named 'keras.src'`: Keras 2.12 and older (keras/src/ from 2.13); keras-version.
  https://github.com/keras-team/keras/blob/v2.13.1/pip_build.py
- `No module named 'keras.src.engine'`; `preprocessing`, `premade_models`, `feature_column`,
  `dtensor` (new): Keras 3 (2.13-2.15 have them under keras/src/); keras3-behaviour-change.
  https://github.com/keras-team/keras/tree/v2.15.0/keras
- `No module named 'keras.engine'` beside a Keras 2.13-2.15 the log shows (new): code for Keras
  2.12 or older (2.13 moved the modules under keras/src/); keras-version.
  https://github.com/keras-team/keras/blob/v2.13.1/pip_build.py
- `No module named 'keras.src.models.functional'` (new): Keras 2.13-2.15 asked for a Keras 3
  module; keras-version.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/models/functional.py
- `No module named 'keras.api._v2'`, `No module named 'keras.api'` (new): TensorFlow 2.6-2.15
  loading tf.keras beside Keras 3 (or a Keras before 2.6); keras-version;
  keras3-behaviour-change where tf.keras is Keras 3.
  https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/api_template.__init__.py
- `Keras cannot be imported. Check that it is installed.` (new): TensorFlow 2.16+
  KerasLazyLoader; dependency-missing.
  https://github.com/tensorflow/tensorflow/blob/v2.16.1/tensorflow/python/util/lazy_loader.py
- `TF_USE_LEGACY_KERAS set to True, but you do not have the tf_keras package installed`:
  TensorFlow 2.16+ KerasLazyLoader; tf-keras-missing.
  https://github.com/tensorflow/tensorflow/blob/v2.16.1/tensorflow/python/util/lazy_loader.py
- `` `tf.compat.v1.keras` is not available with Keras 3``: TensorFlow 2.16+ KerasLazyLoader;
  keras3-behaviour-change.
  https://github.com/tensorflow/tensorflow/blob/v2.16.1/tensorflow/python/util/lazy_loader.py
- `module 'tensorflow' has no attribute 'placeholder'` (any TensorFlow 1 name) raised in
  keras/backend/tensorflow_backend.py (new): multi-backend Keras 2.2 and older under
  TensorFlow 2 (2.3 goes through TensorFlow's own Keras backend); keras-version.
  https://github.com/keras-team/keras/blob/2.2.4/keras/backend/tensorflow_backend.py
- `Keras requires TensorFlow 2.2 or higher`: Keras 2.4-2.5; keras-version.
  https://github.com/keras-team/keras/blob/2.4.0/keras/__init__.py
- `module 'tensorflow.compat.v2.__internal__' has no attribute ...`: Keras 2.6+ beside another
  TensorFlow; keras-version.
  https://github.com/keras-team/keras/blob/v2.6.0/keras/backend.py
- `` `lr` is deprecated in Keras optimizer, please use `learning_rate` `` (new): Keras 2.11-2.15
  drop lr (training at the default rate); api-default-changed, a warning.
  https://github.com/keras-team/keras/blob/v2.15.0/keras/optimizers/optimizer.py
- `` Argument `decay` is no longer supported and will be ignored `` (new): Keras 3.0+;
  keras3-behaviour-change, a warning.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/optimizers/base_optimizer.py
- `runs slowly on M1/M2 Macs`, `There is a known slowdown when using v2.11+ Keras optimizers`
  (new): Keras 2.12-2.15 on Apple silicon; benign.
  https://github.com/keras-team/keras/blob/v2.13.1/keras/optimizers/__init__.py
- `You are saving your model as an HDF5 file via model.save(). This file format is considered
  legacy` (new): Keras 2.13+ and Keras 3; benign.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/saving/saving_api.py
- `module 'tensorflow.compat.v2' has no attribute '__internal__'` (new: no longer a TensorFlow
  1 reading): Keras 2.6+ beside a TensorFlow without TensorFlow's API for Keras; keras-version.
  https://github.com/keras-team/keras/blob/v2.6.0/keras/backend.py
- `decay is deprecated in the new Keras optimizer`: Keras 2.11-2.15; api-removed.
  https://github.com/keras-team/keras/blob/v2.11.0/keras/optimizers/optimizer_experimental/optimizer.py
- `The `save_format` argument is deprecated in Keras 3. We recommend removing this argument`
  (new): Keras 3.0+ given save_format beside a .keras or .h5 path, which it saves; benign (the
  refusal, "Please remove this argument", stays keras3-behaviour-change).
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/saving/saving_api.py
- `You are saving your model as an HDF5 file via `model.save()` or
  `keras.saving.save_model(model)`` (new): Keras 3.0.1+; benign.
  https://github.com/keras-team/keras/blob/v3.0.1/keras/saving/saving_api.py
- `Your `PyDataset` class should call `super().__init__(**kwargs)`` (new): Keras 3.0+; benign.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/trainers/data_adapters/py_dataset_adapter.py
- `Compiled the loaded model, but the compiled metrics have yet to be built` (new): Keras 2.10+
  and Keras 3 loading an HDF5 model; benign.
- `Do not pass an `input_shape`/`input_dim` argument to a layer`, `Argument `input_length` is
  deprecated. Just remove it` (new): Keras 3.0+ and 3.2+ warnings; benign.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/layers/layer.py
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/legacy/saving/saving_utils.py
- `Only input tensors may be passed as positional arguments` (new): Keras 3.0+ Layer.__call__;
  keras3-behaviour-change.
  https://github.com/keras-team/keras/blob/v3.12.0/keras/src/layers/layer.py
- `Layer 'x' expected N variables, but received M variables during loading. Expected: [...]`
  (new): Keras 3 (bare names: keras3-behaviour-change) and Keras 2.13-2.15 (`x/kernel:0`:
  keras3-model-under-keras2), warnings whose fix first reads which Keras wrote the file; an
  empty list (Keras 2's unbuilt layer) names neither.
  https://github.com/keras-team/keras/blob/v2.15.0/keras/engine/base_layer.py
- `Unknown dtype policy: 'DTypePolicy'` (new): Keras 2 reading Keras 3.4+'s serialized dtype;
  keras3-model-under-keras2.
  https://github.com/keras-team/keras/blob/v3.4.0/keras/src/layers/layer.py
- `__init__() got an unexpected keyword argument 'batch_shape'` under a loader's frames (new):
  multi-backend Keras 2.2-2.3's InputLayer; model-from-newer-keras.
  https://github.com/keras-team/keras/blob/2.3.1/keras/engine/input_layer.py
- `` `by_name` only supports loading legacy '.h5' or '.hdf5' files`` (3.11+), `Invalid keyword
  arguments: {'by_name': ...}` (3.0-3.10) (new): Keras 3 load_weights; keras3-behaviour-change,
  scan's keras3-load-weights-by-name fix.
  https://github.com/keras-team/keras/blob/v3.11.0/keras/src/saving/saving_api.py
- `` Layer `add_metric()` method is deprecated`` (3.5+), `add_metric() got an unexpected keyword
  argument` (3.0-3.4) (new): keras3-behaviour-change, scan's keras3-add-metric fix.
  https://github.com/keras-team/keras/blob/v3.5.0/keras/src/layers/layer.py
"""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, top_error
from tfdoctor.explain.packages import before_keras3
from tfdoctor.findings import Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import Matrix


def _causes(text: str) -> set[str]:
    """The causes explain gives ``text`` at warning or error."""
    return {
        f.cause
        for f in explained(text).findings
        if f.severity.rank >= Severity.WARNING.rank and f.cause is not None
    }


@pytest.mark.parametrize(
    ("line", "cause"),
    [
        pytest.param(
            "ValueError: File format not supported: filepath=saved/unet. Keras 3 only supports "
            "V3 `.keras` files and legacy H5 format files (`.h5` extension).",
            "keras3-behaviour-change",
            id="keras3-file-format",
        ),
        pytest.param(
            "ValueError: A KerasTensor cannot be used as input to a TensorFlow function. A "
            "KerasTensor is a symbolic placeholder for a shape and dtype.",
            "keras3-behaviour-change",
            id="keras3-kerastensor",
        ),
        pytest.param(
            "ValueError: Argument(s) not recognized: {'lr': 0.0002}",
            "keras3-behaviour-change",
            id="keras3-optimizer-argument",
        ),
        pytest.param(
            "ValueError: Unrecognized keyword arguments passed to Conv2D: {'input_dim': 3}",
            "keras3-behaviour-change",
            id="keras3-layer-argument",
        ),
        pytest.param(
            "TypeError: Could not deserialize class 'Functional' because its parent module "
            "keras.src.models.functional cannot be imported.",
            "keras3-model-under-keras2",
            id="keras3-model-under-keras215",
        ),
        pytest.param(
            "ValueError: File format not supported: filepath=ckpt/best. Keras 3 only supports "
            "V3 `.keras` and `.weights.h5` files, or legacy V1/V2 `.h5` files.",
            "keras3-behaviour-change",
            id="keras3-weights-format",
        ),
        pytest.param(
            "ValueError: `keras.optimizers.legacy` is not supported in Keras 3. When using "
            "`tf.keras`, to continue using a `tf.keras.optimizers.legacy` optimizer, you can "
            "install the `tf_keras` package (Keras 2)",
            "keras3-behaviour-change",
            id="keras3-legacy-optimizer",
        ),
        pytest.param(
            "TypeError: Could not locate class 'Functional'. Make sure custom classes are "
            "decorated with `@keras.saving.register_keras_serializable()`.",
            "keras3-behaviour-change",
            id="keras3-functional-not-located",
        ),
        pytest.param(
            "ValueError: Unknown layer: Functional",
            "model-from-newer-keras",
            id="tf23-functional-unknown",
        ),
        pytest.param(
            "ValueError: Unrecognized keyword arguments: ['batch_shape']",
            "keras3-model-under-keras2",
            id="keras28-batch-shape",
        ),
        pytest.param(
            "ModuleNotFoundError: No module named 'keras.src.engine'",
            "keras3-behaviour-change",
            id="keras3-no-src-engine",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute "
            "'register_load_context_function'",
            "keras-version",
            id="keras-of-another-tf-line",
        ),
        pytest.param(
            "ValueError: decay is deprecated in the new Keras optimizer, please check the "
            "docstring for valid arguments, or use the legacy optimizer, e.g., "
            "tf.keras.optimizers.legacy.SGD.",
            "api-removed",
            id="keras211-decay",
        ),
        pytest.param(
            "ModuleNotFoundError: No module named 'tf_keras'",
            "tf-keras-missing",
            id="tf-keras-not-installed",
        ),
        pytest.param(
            "ImportError: Keras requires TensorFlow 2.2 or higher. Install TensorFlow via "
            "`pip install tensorflow`",
            "keras-version",
            id="keras24-needs-tf22",
        ),
        pytest.param(
            "ModuleNotFoundError: No module named 'keras.src'",
            "keras-version",
            id="keras-before-213",
        ),
        pytest.param(
            "ValueError: When providing `inputs` as a dict, all values in the dict must be "
            "KerasTensors. Received: inputs={'a': {'b': 1}}",
            "keras3-behaviour-change",
            id="keras3-nested-dict-inputs",
        ),
        pytest.param(
            "ValueError: Layer 'embed' looks like it has unbuilt state, but Keras is not able "
            "to trace the layer `call()` in order to build it automatically.",
            "keras3-behaviour-change",
            id="keras3-unbuilt-state",
        ),
        pytest.param(
            "ValueError: Expected a model.weights.h5 or model.weights.npz file.",
            "keras3-behaviour-change",
            id="keras3-model-folder-without-weights",
        ),
        pytest.param(
            "AttributeError: `tf.compat.v1.keras` is not available with Keras 3.",
            "keras3-behaviour-change",
            id="tf216-compat-v1-keras",
        ),
        pytest.param(
            "WARNING: Your environment has TF_USE_LEGACY_KERAS set to True, but you do not have "
            "the tf_keras package installed.",
            "tf-keras-missing",
            id="tf216-legacy-switch-without-tf-keras",
        ),
    ],
)
def test_the_catalogued_messages_keep_their_reading(line: str, cause: str) -> None:
    assert cause in _causes(line + "\n")


def test_save_format_refused_is_keras3_and_the_warning_beside_a_keras_path_is_not() -> None:
    refused = top_error(
        explained(
            "ValueError: The `save_format` argument is deprecated in Keras 3. Please remove this "
            "argument and pass a file path with either `.keras` or `.h5` extension.Received: "
            "save_format=tf\n"
        )
    )
    assert refused.cause == "keras3-behaviour-change"
    warned = explained(
        "WARNING:absl:The `save_format` argument is deprecated in Keras 3. We recommend "
        "removing this argument as it can be inferred from the file path. Received: "
        "save_format=keras\nEpoch 3/3\n"
    )
    assert all(f.severity is Severity.INFO for f in warned.findings)


# --- Keras 3's layer call: tensors only, positionally ----------------------------------------


def test_a_non_tensor_passed_positionally_is_keras2_code_passed_by_keyword() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/blocks.py", line 41, in <module>\n'
        "    y = encoder(x, False)\n"
        '  File "/srv/app/.venv/lib/python3.12/site-packages/keras/src/utils/traceback_utils.py",'
        " line 122, in error_handler\n"
        "    raise e.with_traceback(filtered_tb) from None\n"
        "ValueError: Only input tensors may be passed as positional arguments. The following "
        "argument value should be passed as a keyword argument: False (of type <class 'bool'>)\n"
    )
    top = top_error(explained("Successfully installed tensorflow-2.17.0\n" + text))
    assert top.cause == "keras3-behaviour-change" and top.severity is Severity.ERROR
    fix = fix_text(top)
    assert "training=True" in fix and "keyword" in fix
    # Keras 2 stays the way back, of the log's TensorFlow line.
    assert "tf-keras<2.18,>=2.17" in fix and "TF_USE_LEGACY_KERAS=1" in fix


# --- a `.keras` file's weights against the layers that load them ------------------------------


def test_keras3_finding_other_weights_reads_the_files_keras_and_keeps_it_a_warning() -> None:
    text = (
        "ValueError: A total of 1 objects could not be loaded. Example error message for "
        "object <Dense name=head, built=True>:\n\nLayer 'head' expected 2 variables, but "
        "received 0 variables during loading. Expected: ['kernel', 'bias']\n"
    )
    report = explained(text)
    top = next(f for f in report.findings if f.cause == "keras3-behaviour-change")
    assert top.severity is Severity.WARNING
    fix = fix_text(top)
    assert "metadata.json" in fix and "TF_USE_LEGACY_KERAS=1" in fix
    assert "keras3-model-under-keras2" not in _causes(text)


def test_keras2_finding_other_weights_in_a_keras_file_points_to_keras3() -> None:
    text = (
        "ValueError: Layer 'stem_conv' expected 2 variables, but received 0 variables during "
        "loading. Expected: ['stem_conv/kernel:0', 'stem_conv/bias:0']\n"
    )
    causes = _causes(text)
    assert "keras3-model-under-keras2" in causes
    assert "keras3-behaviour-change" not in causes
    top = next(f for f in explained(text).findings if f.cause == "keras3-model-under-keras2")
    assert top.severity is Severity.WARNING


def test_keras2_finding_other_weights_in_its_own_file_is_not_told_to_move_to_keras3() -> None:
    # Keras 2.15 loading a file it wrote itself, its model changed since (nateemma/strategies#47):
    # the names say which Keras loads, not which wrote the file.
    text = (
        "Successfully installed keras-2.15.0 tensorflow-2.15.0\n"
        "ValueError: Layer 'lstm_cell' expected 3 variables, but received 0 variables during "
        "loading. Expected: ['lstm/lstm_cell/kernel:0', 'lstm/lstm_cell/recurrent_kernel:0', "
        "'lstm/lstm_cell/bias:0']\n"
    )
    top = next(f for f in explained(text).findings if f.cause == "keras3-model-under-keras2")
    fix = fix_text(top)
    assert "metadata.json" in fix and "was saved by Keras 3" not in fix
    # Moving TensorFlow to 2.16 is the way only where metadata.json says Keras 3: not a command.
    assert top.fix is not None and not any("tensorflow>=2.16" in c for c in top.fix.commands)


def test_a_layer_expecting_no_variables_names_no_keras_generation() -> None:
    # Keras 2.13-2.15 print an unbuilt layer's empty list; Keras 3 words that case otherwise
    # ("was never built"): an empty list is no sign of Keras 3.
    text = (
        "tensorflow==2.14.1\n"
        "ValueError: Layer 'dense' expected 0 variables, but received 2 variables during "
        "loading. Expected: []\n"
    )
    assert "keras3-behaviour-change" not in _causes(text)


# --- Keras 3.4's serialized dtype policy, and Keras 3's batch_shape, under older Keras ---------


@pytest.mark.parametrize(
    "line",
    [
        "ValueError: Unknown dtype policy: 'DTypePolicy'. Please ensure you are using a "
        "`keras.utils.custom_object_scope` and that this object is included in the scope.",
        "ValueError: Unknown dtype policy: 'QuantizedDTypePolicy'. Please ensure you are using "
        "a `keras.utils.custom_object_scope`",
    ],
)
def test_keras2_refusing_a_dtype_policy_object_is_a_keras3_model(line: str) -> None:
    top = top_error(explained("tensorflow==2.14.1\n" + line + "\n"))
    assert top.cause == "keras3-model-under-keras2"
    assert "tensorflow>=2.16" in " ".join(top.fix.commands if top.fix else ())


def test_a_policy_name_of_keras2_is_no_keras3_model() -> None:
    causes = _causes("ValueError: Unknown dtype policy: 'MyPolicy'.\n")
    assert "keras3-model-under-keras2" not in causes


def test_multi_backend_keras_refusing_batch_shape_in_pythons_words_is_a_newer_file() -> None:
    site = "/opt/py37/lib/python3.7/site-packages/keras"
    text = (
        "Traceback (most recent call last):\n"
        '  File "predict.py", line 9, in <module>\n'
        "    net = load_model('unet.h5')\n"
        f'  File "{site}/engine/saving.py", line 584, in load_model\n'
        "    model = _deserialize_model(h5dict, custom_objects, compile)\n"
        f'  File "{site}/engine/network.py", line 1008, in process_layer\n'
        "    custom_objects=custom_objects)\n"
        f'  File "{site}/engine/base_layer.py", line 1109, in from_config\n'
        "    return cls(**config)\n"
        "TypeError: __init__() got an unexpected keyword argument 'batch_shape'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "model-from-newer-keras"
    assert "keras_version" in fix_text(top)


# --- TFOpLambda: Keras 2's wrapper of TensorFlow calls in a functional model ---------------


def test_keras3_refusing_keras2s_op_layer_is_keras2s_file() -> None:
    for line in (
        "ValueError: Unknown layer: 'TFOpLambda'. Please ensure you are using a "
        "`keras.utils.custom_object_scope` and that this object is included in the scope.",
        "TypeError: Could not locate class 'SlicingOpLambda'. Make sure custom classes are "
        "decorated with `@keras.saving.register_keras_serializable()`.",
    ):
        top = top_error(explained("Successfully installed tensorflow-2.16.1\n" + line + "\n"))
        assert top.cause == "keras3-behaviour-change"
        fix = fix_text(top)
        # Keras 2's file: tf-keras of the log's TensorFlow line loads it.
        assert "tf-keras<2.17,>=2.16" in fix and "TF_USE_LEGACY_KERAS=1" in fix


def test_an_older_keras_refusing_the_op_layer_is_a_file_from_a_newer_one() -> None:
    top = top_error(
        explained(
            "ValueError: Unknown layer: TFOpLambda. Please ensure this object is passed to the "
            "`custom_objects` argument.\n"
        )
    )
    assert top.cause == "model-from-newer-keras"
    assert "TFOpLambda" in fix_text(top) and "keras_version" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        # A class of the code's own: custom_objects, not a release.
        "ValueError: Unknown layer: TFOpLambdaBlock",
        "ValueError: Unknown layer: 'MyOpLambda'. Please ensure you are using a "
        "`keras.utils.custom_object_scope`",
        "TypeError: Could not locate class 'TFOpLambdaWrapper'.",
    ],
)
def test_the_codes_own_layer_of_a_similar_name_is_not_a_release(line: str) -> None:
    causes = _causes(line + "\n")
    assert "model-from-newer-keras" not in causes
    assert "keras3-behaviour-change" not in causes


def test_tensorflow_js_refusing_the_op_layer_is_no_keras_release() -> None:
    # TensorFlow.js' layers loader, in its own words after the class: no Keras loads it there.
    text = (
        "Uncaught (in promise) Error: Unknown layer: TFOpLambda. This may be due to one of the "
        "following reasons:\n"
        "1. The layer is defined in Python, in which case it needs to be ported to TensorFlow.js "
        "or your JavaScript code.\n"
    )
    assert "model-from-newer-keras" not in _causes(text)


# --- Keras 3's InputLayer configuration under Keras 2 -------------------------------------


def test_keras26_27_refusing_batch_shape_in_a_tuple_is_a_keras3_model() -> None:
    top = top_error(
        explained("ValueError: ('Unrecognized keyword arguments:', dict_keys(['batch_shape']))\n")
    )
    assert top.cause == "keras3-model-under-keras2"
    assert "Keras 3" in fix_text(top)


def test_another_refused_key_in_that_wording_stays_the_newer_file() -> None:
    text = "ValueError: ('Unrecognized keyword arguments:', dict_keys(['ragged']))\n"
    causes = _causes(text)
    assert "keras3-model-under-keras2" not in causes and "model-from-newer-keras" in causes


# --- keras.src: the module paths say which Keras is installed -------------------------------


@pytest.mark.parametrize("module", ["preprocessing", "premade_models", "feature_column", "dtensor"])
def test_a_module_only_keras_213_to_215_have_under_keras_src_is_keras3(module: str) -> None:
    top = top_error(explained(f"ModuleNotFoundError: No module named 'keras.src.{module}'\n"))
    assert top.cause == "keras3-behaviour-change"
    fix = fix_text(top)
    # TF_USE_LEGACY_KERAS does not change `import keras`: the module's tf-keras home is named.
    assert f"tf_keras.src.{module}" in fix and "not `import keras`" in fix


def test_a_keras3_module_missing_under_keras_src_is_keras2_installed() -> None:
    report = explained("ModuleNotFoundError: No module named 'keras.src.models.functional'\n")
    top = top_error(report)
    assert top.cause == "keras-version"
    assert "Keras 3" in fix_text(top)
    assert all(f.cause != "keras3-behaviour-change" for f in report.findings)


def test_a_name_refused_by_a_keras2_module_that_imported_is_no_keras3() -> None:
    # keras.engine imported from its own file: Keras 2, a release without the name.
    text = (
        "ImportError: cannot import name 'Layer' from 'keras.engine' "
        "(/usr/lib/python3/dist-packages/keras/engine/__init__.py)\n"
    )
    assert "keras3-behaviour-change" not in _causes(text)


def _refused(module: str, attr: str) -> str:
    """Python 3.7's words for a name a module that imported from its own file lacks."""
    path = "/usr/lib/python3/dist-packages/" + module.replace(".", "/") + ".py"
    return f"ImportError: cannot import name '{attr}' from '{module}' ({path})\n"


# The fix names where Keras exports the name now: a Keras 2 module's from Keras 2's own
# modules; multi-backend Keras' keras.engine.topology (in no listing) from the newest Keras.
@pytest.mark.parametrize(
    ("text", "home"),
    [
        (_refused("keras.engine", "InputSpec"), "it as keras.layers.InputSpec"),
        (
            _refused("keras.layers.normalization", "BatchNormalization"),
            "it as keras.layers.BatchNormalization",
        ),
        (_refused("keras.utils.data_utils", "get_file"), "it as keras.utils.get_file"),
        (
            _refused("keras.engine.topology", "get_source_inputs"),
            "`get_source_inputs` as keras.utils.get_source_inputs",
        ),
    ],
)
def test_a_moved_keras_name_is_fixed_with_its_public_home(text: str, home: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    assert f"exports {home}" in fix_text(top)


def test_the_folder_keras2_left_behind_is_still_keras3() -> None:
    # No __init__.py: the namespace package an upgrade to Keras 3 leaves of keras/src/engine/.
    text = (
        "ImportError: cannot import name 'data_adapter' from 'keras.src.engine' "
        "(unknown location)\n"
    )
    assert "keras3-behaviour-change" in _causes(text)


# --- keras.api._v2: the tree TensorFlow 2.6-2.15 load tf.keras from --------------------------


def test_tensorflow_215s_tf_keras_beside_keras3_is_the_keras_of_its_line() -> None:
    report = explained(
        "Successfully installed tensorflow-2.13.0\n"
        "ModuleNotFoundError: No module named 'keras.api._v2'\n"
    )
    top = top_error(report)
    assert top.cause == "keras-version"
    assert '"keras<2.14,>=2.13' in fix_text(top)
    # A private tree is no API a listing judges ("keras._v2").
    assert all(f.cause != "api-removed" for f in report.findings)


def test_keras_private_tree_under_the_package_itself_is_no_listed_api() -> None:
    # keras._tf_keras, the tree TensorFlow 2.16+ loads tf.keras from: private, as keras.api._v2.
    report = explained(
        "Successfully installed tensorflow-2.16.1\n"
        "ModuleNotFoundError: No module named 'keras._tf_keras'\n"
    )
    # No listing's verdict ("check the name"); at most the reading that the Keras differs.
    assert not any(
        f.cause == "api-removed" and f.severity is Severity.ERROR for f in report.findings
    )


def test_keras_api_missing_before_keras26_is_the_same_reading() -> None:
    assert "keras-version" in _causes("ModuleNotFoundError: No module named 'keras.api'\n")


def test_keras2s_tree_asked_under_a_keras3_tensorflow_is_keras2_code() -> None:
    top = top_error(
        explained(
            "Successfully installed tensorflow-2.17.0\n"
            "ModuleNotFoundError: No module named 'keras.api._v2'\n"
        )
    )
    assert top.cause == "keras3-behaviour-change"
    fix = fix_text(top)
    assert "`tf_keras`" in fix and "tf-keras<2.18,>=2.17" in fix


def test_other_keras_api_names_are_not_read_so() -> None:
    report = explained("ModuleNotFoundError: No module named 'keras.apis'\n")
    # Only the standalone package's warning (any name it lacks), not this reading's error.
    assert all(
        f.severity is not Severity.ERROR for f in report.findings if f.cause == "keras-version"
    )


# --- TensorFlow 2.16+ without an importable keras package ---------------------------------


def test_tensorflow_216_without_keras_installs_the_keras_it_declares() -> None:
    top = top_error(
        explained(
            "Successfully installed tensorflow-2.17.0\n"
            "ImportError: Keras cannot be imported. Check that it is installed.\n"
        )
    )
    assert top.cause == "dependency-missing"
    fix = fix_text(top)
    assert 'pip install "keras>=3.2.0"' in fix and "TF_USE_LEGACY_KERAS=1" in fix


def test_without_the_tensorflow_shown_the_fix_installs_keras3() -> None:
    top = top_error(
        explained("ImportError: Keras cannot be imported. Check that it is installed.\n")
    )
    assert top.cause == "dependency-missing" and 'pip install "keras>=3.0.0"' in fix_text(top)


def test_h5py_keeps_its_own_fix() -> None:
    top = top_error(
        explained(
            "ImportError: `save_weights` requires h5py package when saving weights in HDF5.\n"
        )
    )
    assert top.cause == "dependency-missing" and 'pip install "h5py"' in fix_text(top)


def test_other_words_about_keras_not_importing_are_not_read_so() -> None:
    text = "WARNING: Keras cannot be imported, falling back to the NumPy backend\n"
    assert "dependency-missing" not in _causes(text)


# --- tf-keras' own frames decide between tf-keras and standalone Keras ------------------------


def _internal_missing(package: str) -> str:
    site = "/home/u/.venv/lib/python3.11/site-packages"
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 3, in <module>\n'
        f"    import {package}\n"
        f'  File "{site}/{package}/src/backend.py", line 40, in <module>\n'
        "    tf.__internal__.register_load_context_function(load_context.in_load_context)\n"
        "AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute "
        "'register_load_context_function'\n"
    )


def test_tf_keras_frames_asking_tensorflows_internals_are_tf_keras_alone() -> None:
    report = explained(_internal_missing("tf_keras"))
    assert top_error(report).cause == "tf-keras-mismatch"
    # The frames show tf-keras: standalone Keras is not read from the words as well.
    assert all(f.cause != "keras-version" for f in report.findings)


def test_keras_frames_asking_the_same_stay_keras() -> None:
    assert "keras-version" in _causes(_internal_missing("keras"))


# --- Keras 3 given a `.keras` path that is no zip archive ----------------------------------


def test_keras3_finding_no_zip_at_a_keras_path_names_both_candidates() -> None:
    report = explained(
        "ValueError: File not found: filepath=models/classifier.keras. Please ensure the file "
        "is an accessible `.keras` zip file.\n"
    )
    (finding,) = [f for f in report.findings if f.cause == "keras3-behaviour-change"]
    # A missing path or Keras 2's HDF5 under that name: the log cannot tell, a warning.
    assert finding.severity is Severity.WARNING
    fix = fix_text(finding)
    assert "ls -l MODEL.keras" in fix and "h5py.is_hdf5" in fix and "cp MODEL.keras MODEL.h5" in fix


def test_another_programs_file_not_found_is_not_read_so() -> None:
    text = "FileNotFoundError: File not found: filepath=data/train.csv. Please check the path.\n"
    assert "keras3-behaviour-change" not in _causes(text)


# --- optimizer arguments the newer optimizers drop with a warning ----------------------------


def test_keras211s_optimizer_dropping_lr_is_a_default_learning_rate() -> None:
    for line in (
        "WARNING:absl:`lr` is deprecated in Keras optimizer, please use `learning_rate` or use "
        "the legacy optimizer, e.g.,tf.keras.optimizers.legacy.Adam.",
        "WARNING:absl:`lr` is deprecated, please use `learning_rate` instead, or use the legacy "
        "optimizer, e.g.,tf.keras.optimizers.legacy.SGD.",
    ):
        (finding,) = [f for f in explained(line + "\n").findings if f.cause]
        assert finding.cause == "api-default-changed" and finding.severity is Severity.WARNING
        assert "learning_rate=" in fix_text(finding)


def test_the_old_optimizers_own_lr_note_keeps_the_value() -> None:
    # Keras' optimizer_v2 maps lr to learning_rate and says so: nothing is lost.
    text = "UserWarning: The `lr` argument is deprecated, use `learning_rate` instead.\n"
    assert not _causes(text)


def test_keras3_dropping_decay_is_a_warning_with_a_schedule() -> None:
    text = "UserWarning: Argument `decay` is no longer supported and will be ignored.\n"
    (finding,) = [f for f in explained(text).findings if f.cause == "keras3-behaviour-change"]
    assert finding.severity is Severity.WARNING and "InverseTimeDecay" in fix_text(finding)


# --- Keras' notes that change nothing ------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "WARNING:absl:At this time, the v2.11+ optimizer `tf.keras.optimizers.Adam` runs slowly "
        "on M1/M2 Macs, please use the legacy Keras optimizer instead, located at "
        "`tf.keras.optimizers.legacy.Adam`.",
        "WARNING:absl:There is a known slowdown when using v2.11+ Keras optimizers on M1/M2 "
        "Macs. Falling back to the legacy Keras optimizer, i.e., "
        "`tf.keras.optimizers.legacy.Adam`.",
        "UserWarning: You are saving your model as an HDF5 file via `model.save()`. This file "
        "format is considered legacy. We recommend using instead the native Keras format, e.g. "
        "`model.save('my_model.keras')`.",
        # Keras 3.1 on name keras.saving.save_model too.
        "WARNING:absl:You are saving your model as an HDF5 file via `model.save()` or "
        "`keras.saving.save_model(model)`. This file format is considered legacy. We recommend "
        "using instead the native Keras format, e.g. `model.save('clf.keras')` or "
        "`keras.saving.save_model(model, 'clf.keras')`. ",
        # save_format beside a path that names the format: Keras 3 warns and saves.
        "WARNING:absl:The `save_format` argument is deprecated in Keras 3. We recommend "
        "removing this argument as it can be inferred from the file path. Received: "
        "save_format=h5",
        "/srv/app/.venv/lib/python3.12/site-packages/keras/src/trainers/data_adapters/"
        "py_dataset_adapter.py:121: UserWarning: Your `PyDataset` class should call "
        "`super().__init__(**kwargs)` in its constructor. `**kwargs` can include `workers`, "
        "`use_multiprocessing`, `max_queue_size`. Do not pass these arguments to `fit()`, as "
        "they will be ignored.",
        "WARNING:absl:Compiled the loaded model, but the compiled metrics have yet to be built. "
        "`model.compile_metrics` will be empty until you train or evaluate the model.",
        "/srv/app/.venv/lib/python3.12/site-packages/keras/src/layers/core/dense.py:87: "
        "UserWarning: Do not pass an `input_shape`/`input_dim` argument to a layer. When using "
        "Sequential models, prefer using an `Input(shape)` object as the first layer in the "
        "model instead.",
        "/srv/app/.venv/lib/python3.12/site-packages/keras/src/layers/core/embedding.py:93: "
        "UserWarning: Argument `input_length` is deprecated. Just remove it.",
    ],
)
def test_keras_notes_that_change_nothing_are_info(line: str) -> None:
    report = explained(line + "\n")
    assert report.findings and all(f.severity is Severity.INFO for f in report.findings)
    assert any(f.id.startswith("explain.benign.") for f in report.findings)


# --- multi-backend Keras written for TensorFlow 1 under TensorFlow 2 -------------------------


def _backend_call(path: str, statement: str, name: str, head: str = "") -> str:
    return (
        head + "Traceback (most recent call last):\n"
        '  File "/home/u/app/train.py", line 5, in <module>\n'
        "    model = build()\n"
        f'  File "{path}", line 517, in placeholder\n'
        f"    {statement}\n"
        f"AttributeError: module 'tensorflow' has no attribute '{name}'\n"
    )


def test_multi_backend_keras_asking_tensorflow_1_names_is_keras_of_another_release() -> None:
    text = _backend_call(
        "/usr/lib/python3.7/site-packages/keras/backend/tensorflow_backend.py",
        "x = tf.placeholder(dtype, shape=shape, name=name)",
        "placeholder",
        head="Successfully installed tensorflow-2.1.0\n",
    )
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    fix = fix_text(top)
    # The companion table's standalone Keras for that TensorFlow, or tf.keras.
    assert 'pip install "keras==2.3.*"' in fix and "from tensorflow import keras" in fix


def test_multi_backend_keras_banner_alone_does_not_say_that_keras_asked_the_name() -> None:
    # The banner says that Keras was imported, not that its backend raised: code of the
    # user's own importing it asks tf.placeholder as often (a frame, or the backend file
    # named, would show whose call it was).
    banner = "Using TensorFlow backend.\n"
    message = "AttributeError: module 'tensorflow' has no attribute 'placeholder'\n"
    top = top_error(explained(banner + message))
    assert top.cause == "api-moved-to-compat-v1"


def test_the_same_name_in_the_users_own_file_stays_a_tensorflow_1_api() -> None:
    text = _backend_call(
        "/home/u/app/layers.py", "x = tf.placeholder(tf.float32, (None, 3))", "placeholder"
    )
    causes = _causes(text)
    assert "api-moved-to-compat-v1" in causes and "keras-version" not in causes


def test_the_loaders_import_error_after_its_tf_keras_warning_is_tf_keras_missing() -> None:
    # TF_USE_LEGACY_KERAS set, tf_keras absent: the loader warns, then raises the same words.
    report = explained(
        "WARNING:tensorflow:Your environment has TF_USE_LEGACY_KERAS set to True, but you do "
        "not have the tf_keras package installed. You must install it in order to use the "
        "legacy tf.keras. Install it via: `pip install tf_keras`\n"
        "ImportError: Keras cannot be imported. Check that it is installed.\n"
    )
    assert top_error(report).cause == "tf-keras-missing"
    assert all(f.cause != "dependency-missing" for f in report.findings)


def test_tensorflow_without_its_api_for_keras_is_the_keras_not_an_old_tensorflow_1() -> None:
    # Keras 2.6+ asks tf.__internal__ (TensorFlow 2.x's API for Keras) of an older TensorFlow:
    # no "TensorFlow older than 1.9, install 1.15" from the listings.
    report = explained(
        "AttributeError: module 'tensorflow.compat.v2' has no attribute '__internal__'\n"
    )
    assert top_error(report).cause == "keras-version"
    assert all(f.cause != "api-removed" for f in report.findings)
    assert "1.15" not in "\n".join(fix_text(f) for f in report.findings if f.fix)


def test_a_public_name_missing_from_tf_compat_v2_is_no_keras_internal() -> None:
    # Keras 2.6+ reaches into tf.__internal__ (keras/backend.py); a public name such as
    # tf.experimental, missing under a TensorFlow 2.3 whose API has it, shows no Keras at all:
    # no "Install keras 2.4" of a Keras the log never shows.
    for module in ("tensorflow.compat.v2", "tensorflow.compat.v2.summary"):
        report = explained(
            f"tensorflow 2.3.0\nAttributeError: module '{module}' has no attribute 'experimental'\n"
        )
        assert all(f.cause != "keras-version" for f in report.findings), module
    # Under __internal__, and Keras's own import form (keras/dtensor/__init__.py), Keras asks.
    for line in (
        "AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute 'tf2'",
        "ImportError: cannot import name 'dtensor' from 'tensorflow.compat.v2.experimental'",
    ):
        found = explained(f"{line}\n").findings
        assert any(f.cause == "keras-version" and f.severity.value == "error" for f in found)


# --- Keras 2.12's layout beside a Keras 2.13-2.15 the log shows ------------------------------


def test_keras_212s_layout_beside_keras_214_is_no_keras3() -> None:
    report = explained(
        "Successfully installed keras-2.14.0 tensorflow-2.14.0\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
    )
    top = top_error(report)
    assert top.cause == "keras-version"
    assert "keras.src.engine" in fix_text(top)
    assert all(f.cause != "keras3-behaviour-change" for f in report.findings)


def test_keras_212s_layout_under_keras3_stays_keras3() -> None:
    report = explained(
        "Successfully installed keras-3.3.3 tensorflow-2.16.1\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
    )
    assert any(
        f.cause == "keras3-behaviour-change" and f.severity is Severity.ERROR
        for f in report.findings
    )
    assert not any(
        f.cause == "keras-version" and f.severity is Severity.ERROR for f in report.findings
    )


# --- a warning of the same cause does not speak for the failure beside it -------------------


def test_keras_dropping_lr_does_not_give_its_fix_to_the_failure_after_it() -> None:
    # The lr warning and a pluggable device's failure are both api-default-changed: the
    # finding is the failure's, in its words and with its fix.
    top = top_error(
        explained(
            "WARNING:absl:`lr` is deprecated in Keras optimizer, please use `learning_rate` or "
            "use the legacy optimizer, e.g.,tf.keras.optimizers.legacy.Adam.\n"
            "tensorflow.python.framework.errors_impl.NotFoundError: Graph execution error:\n"
            "could not find registered platform with id: 0x104bd3c40\n"
        )
    )
    assert top.cause == "api-default-changed"
    assert "`lr`" not in top.summary and "jit_compile=False" in fix_text(top)


def test_keras3_dropping_decay_does_not_name_the_keras3_error_after_it() -> None:
    top = top_error(
        explained(
            "UserWarning: Argument `decay` is no longer supported and will be ignored.\n"
            "ValueError: A KerasTensor cannot be used as input to a TensorFlow function. A "
            "KerasTensor is a symbolic placeholder for a shape and dtype.\n"
        )
    )
    assert top.cause == "keras3-behaviour-change"
    assert "decay" not in top.summary and "InverseTimeDecay" not in fix_text(top)


# --- observed beats inferred: Keras 3's own frames over the Keras of the TensorFlow line ----


def test_keras212s_layout_asked_in_keras3s_frames_is_keras3_whatever_the_line() -> None:
    site = "/home/u/venv/lib/python3.10/site-packages"
    report = explained(
        "Successfully installed tensorflow-2.14.0\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/app/train.py", line 3, in <module>\n'
        '    model = keras.models.load_model("m.keras")\n'
        f'  File "{site}/keras/src/trainers/trainer.py", line 5, in compile\n'
        "    from keras.engine import training\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
    )
    # The frame runs in Keras 3's files: not the Keras 2.14 TensorFlow 2.14 would bring.
    assert any(f.cause == "keras3-behaviour-change" for f in report.findings)
    assert all("tensorflow<2.13" not in fix_text(f) for f in report.findings if f.fix)


# --- TensorFlow 2.16's loader beside a keras installed in range ------------------------------


def test_keras_in_range_that_does_not_import_is_not_installed_again() -> None:
    top = top_error(
        explained(
            "Package    Version\n"
            "---------- -------\n"
            "keras      3.3.3\n"
            "tensorflow 2.16.1\n"
            "ImportError: Keras cannot be imported. Check that it is installed.\n"
        )
    )
    assert top.cause == "dependency-missing"
    fix = fix_text(top)
    assert 'pip install "keras' not in fix
    assert 'python -c "import keras"' in fix


def test_keras2_beside_tensorflow_216_still_installs_the_declared_keras() -> None:
    top = top_error(
        explained(
            "Package    Version\n"
            "---------- -------\n"
            "keras      2.15.0\n"
            "tensorflow 2.16.1\n"
            "ImportError: Keras cannot be imported. Check that it is installed.\n"
        )
    )
    assert 'pip install "keras>=3.0.0"' in fix_text(top)


# --- Keras 3's trainers refusing Keras 2's training arguments --------------------------------


@pytest.mark.parametrize(
    ("line", "argument"),
    [
        pytest.param(
            "TypeError: TensorFlowTrainer.fit() got an unexpected keyword argument 'workers'",
            "workers",
            id="fit-tensorflow-backend",
        ),
        pytest.param(
            "TypeError: JAXTrainer.predict() got an unexpected keyword argument "
            "'use_multiprocessing'",
            "use_multiprocessing",
            id="predict-jax-backend",
        ),
        pytest.param(
            "ValueError: Arguments not recognized: {'max_queue_size': 10, 'workers': 8}",
            "max_queue_size",
            id="evaluate-refuses-its-kwargs",
        ),
        pytest.param(
            "TypeError: Trainer.compile() got an unexpected keyword argument 'sample_weight_mode'",
            "sample_weight_mode",
            id="compile-base-class",
        ),
    ],
)
def test_keras3_trainers_refusing_keras2_arguments_need_no_source_line(
    line: str, argument: str
) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "keras3-behaviour-change"
    assert f"Drop {argument}=" in fix_text(top)
    assert "TF_USE_LEGACY_KERAS=1" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        # Another library's Trainer, and arguments Keras 3 still takes or never had.
        "TypeError: Trainer.train() got an unexpected keyword argument 'workers'",
        "TypeError: Trainer.__init__() got an unexpected keyword argument 'use_multiprocessing'",
        "TypeError: TensorFlowTrainer.fit() got an unexpected keyword argument 'epoch'",
        "ValueError: Arguments not recognized: {'foo': 1}",
    ],
)
def test_other_trainer_refusals_are_not_read_as_keras3(line: str) -> None:
    assert "keras3-behaviour-change" not in _causes(line + "\n")


@pytest.mark.parametrize(
    ("line", "words"),
    [
        pytest.param(
            "AttributeError: 'Conv2D' object has no attribute 'input_shape'",
            "layer.input.shape",
            id="layer-input-shape",
        ),
        pytest.param(
            "AttributeError: 'Dense' object has no attribute 'get_input_shape_at'",
            "y = layer(x)",
            id="layer-node-accessor",
        ),
        pytest.param(
            "TypeError: TensorFlowTrainer.train_on_batch() got an unexpected keyword argument "
            "'reset_metrics'",
            "model.reset_metrics()",
            id="train-on-batch-reset-metrics",
        ),
    ],
)
def test_keras2_layer_members_keras3_dropped(line: str, words: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "keras3-behaviour-change" and words in fix_text(top)


def test_another_objects_input_shape_is_not_keras3() -> None:
    assert "keras3-behaviour-change" not in _causes(
        "AttributeError: 'DataLoader' object has no attribute 'input_shape'\n"
    )


def test_keras3s_default_build_warning_is_no_finding() -> None:
    # The default build()'s UserWarning about unbuilt state is not the refusal to trace.
    line = (
        "UserWarning: `build()` was called on layer 'block', however the layer does not have a "
        "`build()` method implemented and it looks like it has unbuilt state. This will cause "
        "the layer to be marked as built, despite not being actually built.\n"
    )
    assert _causes(line) == set()


def test_nested_functional_inputs_upgrade_keras_to_the_release_that_takes_them_first() -> None:
    # Keras 3.0-3.3's Functional refuses a nested dict of inputs (functional.py); 3.4 takes any
    # structure again, so a newer Keras 3 runs the code as it is, before going back to Keras 2.
    text = (
        "ValueError: When providing `inputs` as a dict, all values in the dict must be "
        "KerasTensors. Received: inputs={'x': <KerasTensor shape=(None, 4), dtype=float32, "
        "sparse=None, name=x>, 'extra': {'y': <KerasTensor shape=(None, 2), dtype=float32, "
        "sparse=None, name=y>}} including invalid value {'y': <KerasTensor shape=(None, 2), "
        "dtype=float32, sparse=None, name=y>} of type <class 'dict'>\n"
    )
    found = top_error(explained(text))
    assert found.cause == "keras3-behaviour-change" and found.fix is not None
    assert found.fix.commands[0].endswith('pip install "keras>=3.4"')
    words = found.fix.text
    assert words.index("3.4 or later") < words.index("TF_USE_LEGACY_KERAS")


# --- Keras 3's load_weights by name, and add_metric -------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        # Keras 3.11 on, then 3.0 to 3.10 (any keyword but objects_to_skip refused).
        "ValueError: `by_name` only supports loading legacy '.h5' or '.hdf5' files. Received: "
        "weights/encoder.weights.h5",
        "ValueError: Invalid keyword arguments: {'by_name': True}",
    ],
)
def test_keras3_refusing_by_name_for_its_own_formats_gets_the_structure_fix(line: str) -> None:
    top = top_error(explained("tensorflow==2.18.0\n" + line + "\n"))
    assert top.cause == "keras3-behaviour-change"
    assert "skip_mismatch" in fix_text(top) and "set_weights" in fix_text(top)
    # tf-keras reads .weights.h5 by structure, ignoring by_name: no way back is offered.
    assert top.fix is not None and not any("TF_USE_LEGACY_KERAS" in c for c in top.fix.commands)


@pytest.mark.parametrize(
    "line",
    [
        # Keras 3.5 on.
        "NotImplementedError: Exception encountered when calling Sampler.call().\n\nLayer "
        "`add_metric()` method is deprecated. Add your metric in `Model.compile(metrics=[...])`, "
        "or create metric trackers in init() or build() when subclassing the layer or model, "
        "then call `metric.update_state()` whenever necessary.",
        # Keras 3.0 to 3.4 define add_metric(self) alone.
        "Traceback (most recent call last):\n"
        '  File "/srv/app/vae.py", line 57, in call\n'
        "    self.add_metric(kl, name='kl')\n"
        "TypeError: Layer.add_metric() got an unexpected keyword argument 'name'",
    ],
)
def test_keras2s_add_metric_under_keras3_gets_the_tracker_fix(line: str) -> None:
    top = top_error(explained("tensorflow==2.17.1\n" + line + "\n"))
    assert top.cause == "keras3-behaviour-change"
    fix = fix_text(top)
    assert "update_state" in fix and "TF_USE_LEGACY_KERAS=1" in fix


# --- keras of a later TensorFlow line beside a TensorFlow that pins none ----------------------


_SEQUENTIAL_FAILS = (
    ">>> model = keras.Sequential()\n"
    "Traceback (most recent call last):\n"
    '  File "<stdin>", line 1, in <module>\n'
    '  File "/opt/env/lib/python3.8/site-packages/keras/engine/sequential.py", line 108, '
    "in __init__\n"
    "    super(functional.Functional, self).__init__(name=name, autocast=False)\n"
    "AttributeError: 'Sequential' object has no attribute '_is_graph_network'\n"
)


@pytest.mark.parametrize(
    ("keras", "tf", "said"),
    [
        pytest.param("2.7.0", "2.4.1", "keras of TensorFlow 2.7", id="keras27-tf24"),
        pytest.param("3.3.3", "2.3.0", "keras of TensorFlow 2.16 to", id="keras3-tf23"),
    ],
)
def test_an_echoed_keras_of_a_later_line_beside_tensorflow_without_a_pin_is_named(
    keras: str, tf: str, said: str
) -> None:
    text = (
        f">>> import keras\n>>> keras.__version__\n'{keras}'\n>>> import tensorflow as tf\n"
        f">>> tf.__version__\n'{tf}'\n" + _SEQUENTIAL_FAILS
    )
    found = [f for f in explained(text).findings if f.cause == "keras-version"]
    assert found and found[0].severity is Severity.WARNING
    assert said in found[0].detail
    # The Keras that goes with TensorFlow 2.2-2.4 (the companion table's row).
    assert "keras==2.4.*" in " ".join(found[0].fix.commands if found[0].fix else ())


def test_the_keras_that_goes_with_an_unpinned_tensorflow_is_not_blamed() -> None:
    text = ">>> keras.__version__\n'2.4.3'\n>>> tf.__version__\n'2.4.1'\n" + _SEQUENTIAL_FAILS
    assert "keras-version" not in _causes(text)


def test_a_keras2_model_private_missing_beside_a_listed_keras2_is_no_keras3_change() -> None:
    text = (
        "Package    Version\n---------- -------\nkeras      2.14.0\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/export.py", line 12, in <module>\n'
        "    spec = model._get_save_spec()\n"
        "AttributeError: 'Functional' object has no attribute '_get_save_spec'\n"
    )
    assert "keras3-behaviour-change" not in _causes(text)
    # Without the listing, Keras 3 is the reading (the private member is Keras 2's).
    assert "keras3-behaviour-change" in _causes(text.split("\n", 3)[3])


# --- Keras 3's loaders refusing Keras 2's formats: the way to read each -----------------------


def test_keras3_refusing_a_savedmodel_directory_offers_tfsmlayer() -> None:
    top = top_error(
        explained(
            "tensorflow==2.19.0\n"
            "ValueError: File format not supported: filepath=exported/3. Keras 3 only supports V3 "
            "`.keras` files and legacy H5 format files (`.h5` extension). Note that the legacy "
            "SavedModel format is not supported by `load_model()` in Keras 3.\n"
        )
    )
    assert top.cause == "keras3-behaviour-change"
    fix = fix_text(top)
    assert "TFSMLayer" in fix and "tf.saved_model.load" in fix
    assert "tf-keras<2.20,>=2.19" in fix


def test_keras3_refusing_a_checkpoint_prefix_offers_tf_train_checkpoint() -> None:
    top = top_error(
        explained(
            "ValueError: File format not supported: filepath=runs/cp-0010.ckpt. Keras 3 only "
            "supports V3 `.keras` and `.weights.h5` files, or legacy V1/V2 `.h5` files.\n"
        )
    )
    assert top.cause == "keras3-behaviour-change"
    assert "tf.train.Checkpoint" in fix_text(top) and "TFSMLayer" not in fix_text(top)


def test_an_echoed_version_only_tf_keras_has_is_not_the_keras_package() -> None:
    # tf_keras imported as keras (TF_USE_LEGACY_KERAS=1's tf.keras) echoes its own release:
    # the keras package has no 2.16, so Keras 3 beside TensorFlow 2.16 is not in question.
    text = (
        ">>> import os; os.environ['TF_USE_LEGACY_KERAS'] = '1'\n"
        ">>> from tensorflow import keras\n>>> keras.__version__\n'2.16.0'\n"
        ">>> import tensorflow as tf\n>>> tf.__version__\n'2.16.1'\n"
        ">>> model = keras.models.load_model('m.h5')\n"
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        "OSError: No file or directory found at m.h5\n"
    )
    assert "keras-version" not in _causes(text)
    # The keras package's own release beside it still is (2.15's, which 2.16 does not take).
    assert "keras-version" in _causes(text.replace("'2.16.0'", "'2.15.0'"))


def test_a_tensorflow_before_keras3_is_read_from_the_matrix() -> None:
    def tf(version: str, matrix: Optional[Matrix] = f.FIXTURE_MATRIX) -> Machine:
        installed = (f.pkg("tensorflow", version, top_level=("tensorflow",)),)
        facts = f.facts(packages=installed, tensorflow=f.tensorflow(version=version))
        return Machine(facts, matrix)

    # 2.16 is the first line whose keras pin asks for Keras 3.
    assert before_keras3(tf("2.15.1")) and before_keras3(tf("1.15.5"))
    assert not before_keras3(tf("2.16.1")) and not before_keras3(tf("2.21.0"))
    assert not before_keras3(tf("2.15.1", None))  # no matrix: not known


def test_keras2_code_under_keras3_is_offered_the_last_tensorflow_whose_tf_keras_is_keras2() -> None:
    # The matrix's newest line whose keras pin admits no Keras 3, with its wheels' Pythons:
    # the alternative to tf-keras for code that cannot move.
    found = explained("AttributeError: `tf.compat.v1.keras` is not available with Keras 3.\n")
    (finding,) = [x for x in found.findings if x.cause == "keras3-behaviour-change"]
    assert finding.fix is not None
    assert "the last release whose tf.keras is Keras 2" in finding.fix.text
    assert "TF_USE_LEGACY_KERAS=1" in finding.fix.text


def test_keras3_finding_no_weights_file_lists_the_model_before_any_keras2_route() -> None:
    # Another Keras's (or tool's) files, or a Keras 3 model whose weights did not arrive: the
    # listing tells them apart, so it comes first.
    found = explained("ValueError: Expected a model.weights.h5 or model.weights.npz file.\n")
    (finding,) = [x for x in found.findings if x.cause == "keras3-behaviour-change"]
    assert finding.severity is Severity.WARNING
    assert finding.fix is not None
    assert finding.fix.commands[0] == "python -m zipfile -l MODEL.keras"
    assert "fetch it again" in finding.fix.text and "TF_USE_LEGACY_KERAS=1" in finding.fix.text
