"""``tfdoctor scan``: each family of breaking uses, in several spellings, and the code that
must stay quiet (paths built at run time, what a name holds, arguments, older targets)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.findings import Finding, Severity
from tfdoctor.render.sarif import render_sarif
from tfdoctor.scan import ScanOptions, _keras_idiom, scan
from tfdoctor.scan.api import ApiIndex
from tfdoctor.scan.rules import load_rules

RULES = load_rules()
HEAD = "import os\nimport tensorflow as tf\nfrom tensorflow import keras\n"


def findings(tmp_path: Path, body: str, target: str = "2.21", name: str = "x.py") -> list[Finding]:
    """The findings of ``HEAD + body`` (lines of ``body`` count from 4) on ``target``."""
    path = tmp_path / name
    path.write_text(HEAD + body, encoding="utf-8")
    return list(scan(ScanOptions((str(path),), target), RULES, "test").findings)


def ids(tmp_path: Path, body: str, target: str = "2.21") -> set[tuple[int, str]]:
    """(line, finding id without ``scan.``) of each finding."""
    out = set()
    for found in findings(tmp_path, body, target):
        assert found.location is not None
        out.add((found.location.line, found.id[len("scan.") :]))
    return out


def one(tmp_path: Path, body: str, rule: str, target: str = "2.21") -> Finding:
    """The only finding of ``rule``."""
    (found,) = [f for f in findings(tmp_path, body, target) if f.id == f"scan.{rule}"]
    return found


# --- Keras 3 save and load paths, as written and as built -------------------------------


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        pytest.param(
            "cb = keras.callbacks.ModelCheckpoint('w.keras', save_weights_only=True)\n",
            "keras3-checkpoint-weights-path",
            id="weights-to-keras",
        ),
        pytest.param(
            "cb = tf.keras.callbacks.ModelCheckpoint(filepath='w.h5', save_weights_only=True)\n",
            "keras3-checkpoint-weights-path",
            id="weights-to-h5",
        ),
        pytest.param(
            "cb = keras.callbacks.ModelCheckpoint('best.hdf5', save_best_only=True)\n",
            "keras3-checkpoint-path",
            id="model-to-hdf5",
        ),
        pytest.param(
            "cb = keras.callbacks.ModelCheckpoint('ckpt/best', save_weights_only=False)\n",
            "keras3-checkpoint-path",
            id="model-to-prefix",
        ),
        pytest.param(
            "out = 'runs'\npath = os.path.join(out, 'best.hdf5')\n"
            "cb = keras.callbacks.ModelCheckpoint(path)\n",
            "keras3-checkpoint-path",
            id="os-path-join-through-a-variable",
        ),
        pytest.param(
            "def cbs(out):\n    name = out + '/weights-' + 'best' + '.h5'\n"
            "    return keras.callbacks.ModelCheckpoint(name, save_weights_only=True)\n",
            "keras3-checkpoint-weights-path",
            id="concatenation-in-a-function",
        ),
        pytest.param(
            "run = 3\ncb = keras.callbacks.ModelCheckpoint(f'ck/{run}/ep{{epoch:02d}}.ckpt',"
            " save_weights_only=True)\n",
            "keras3-checkpoint-weights-path",
            id="f-string",
        ),
        pytest.param(
            "tpl = '{}/model-{{epoch}}.hdf5'.format('out')\n"
            "cb = keras.callbacks.ModelCheckpoint(filepath=tpl)\n",
            "keras3-checkpoint-path",
            id="format",
        ),
        pytest.param(
            "def load(model, prefix):\n    ckpt = os.path.join(prefix, 'model.ckpt')\n"
            "    model.load_weights(ckpt)\n",
            "keras3-load-weights-path",
            id="load-weights-checkpoint-prefix",
        ),
        pytest.param(
            "def save(model):\n    target = 'w_%d.h5' % 3\n    model.save_weights(target)\n",
            "keras3-save-weights",
            id="save-weights-percent-format",
        ),
    ],
)
def test_keras3_paths_break_as_written_and_as_built(tmp_path: Path, body: str, rule: str) -> None:
    found = findings(tmp_path, body)
    assert [f.id for f in found] == [f"scan.{rule}"]
    assert found[0].severity == Severity.ERROR
    assert "tf-keras" in " ".join(found[0].fix.commands if found[0].fix else ())
    # Keras 2 (up to 2.15) wrote these names.
    assert findings(tmp_path, body, target="2.15") == []


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            "cb = keras.callbacks.ModelCheckpoint('w.weights.h5', save_weights_only=True)\n",
            id="weights",
        ),
        pytest.param("cb = keras.callbacks.ModelCheckpoint('best.keras')\n", id="keras"),
        pytest.param("cb = keras.callbacks.ModelCheckpoint('best.h5')\n", id="h5-model"),
        pytest.param(
            "flag = os.environ.get('W') == '1'\n"
            "cb = keras.callbacks.ModelCheckpoint('best.h5', save_weights_only=flag)\n",
            id="flag-known-at-run-time",
        ),
        pytest.param(
            "def f(model, path):\n    model.load_weights(path)\n    model.save_weights(path)\n",
            id="path-known-at-run-time",
        ),
        pytest.param(
            "def f(model, d):\n    p = os.path.join(d, f'{model.name}.weights.h5')\n"
            "    model.save_weights(p)\n    model.load_weights(p)\n",
            id="built-weights-path",
        ),
        pytest.param(
            "p = 'a.ckpt'\ndef f(model):\n    p = 'w.weights.h5'\n    model.save_weights(p)\n",
            id="the-function-s-own-assignment-wins",
        ),
        pytest.param("model = keras.Model()\nmodel.load_weights('old.h5')\n", id="legacy-h5"),
        pytest.param(
            "path = 'a.ckpt'\ndef f(model, path):\n    model.save_weights(path)\n",
            id="a-parameter-hides-the-module-s-name",
        ),
        pytest.param(
            "path = 'a.ckpt'\nfor path in ('w1.weights.h5', 'w2.weights.h5'):\n"
            "    model.load_weights(path)\n",
            id="a-loop-variable-hides-the-assignment",
        ),
    ],
)
def test_keras3_paths_that_work_are_quiet(tmp_path: Path, body: str) -> None:
    assert findings(tmp_path, body) == []


def test_saving_to_h5_still_works_in_keras3_and_is_a_note(tmp_path: Path) -> None:
    found = one(tmp_path, "model = keras.Model()\nmodel.save('m.h5')\n", "keras3-save-h5")
    assert found.severity == Severity.INFO


# --- a flagged name gets the code to write instead ---------------------------------------


@pytest.mark.parametrize(
    ("body", "rule", "words"),
    [
        pytest.param(
            "from tensorflow.examples.tutorials.mnist import input_data\n",
            "tf-examples-tutorials",
            ("tf.keras.datasets.mnist.load_data()", "tfds.load"),
            id="examples",
        ),
        pytest.param(
            "import tensorflow.examples.tutorials.mnist.input_data as input_data\n",
            "tf-examples-tutorials",
            ("tf.keras.datasets.mnist.load_data()",),
            id="examples-import-as",
        ),
        pytest.param(
            "from keras.wrappers.scikit_learn import KerasClassifier\n",
            "keras-scikit-learn-wrappers",
            ("from scikeras.wrappers import KerasClassifier",),
            id="keras-wrappers",
        ),
        pytest.param(
            "est = tf.keras.wrappers.scikit_learn.KerasRegressor(build_fn=None)\n",
            "keras-scikit-learn-wrappers",
            ("scikeras",),
            id="tf-keras-wrappers",
        ),
        pytest.param(
            "from tensorflow.keras.utils import multi_gpu_model\n",
            "keras-multi-gpu-model",
            ("tf.distribute.MirroredStrategy()", "strategy.scope()"),
            id="multi-gpu-model",
        ),
        pytest.param(
            "model = tf.keras.models.model_from_yaml(open('m.yaml').read())\n",
            "keras-model-from-yaml",
            ("model_from_json", ".keras"),
            id="model-from-yaml",
        ),
        pytest.param(
            "tf.keras.experimental.export_saved_model(model, 'out')\n",
            "keras-export-saved-model",
            ("model.export('dir')", "tf.saved_model.save(model, 'dir')"),
            id="export-saved-model",
        ),
        pytest.param(
            "from keras.applications.imagenet_utils import _obtain_input_shape\n",
            "keras221-obtain-input-shape",
            ("from keras_applications.imagenet_utils import _obtain_input_shape",),
            id="obtain-input-shape",
        ),
        pytest.param(
            "from keras.applications.mobilenet import relu6, DepthwiseConv2D\n",
            "keras220-mobilenet-relu6",
            ("from keras.layers import DepthwiseConv2D", "ReLU(6.)"),
            id="mobilenet-relu6",
        ),
        pytest.param(
            "import keras\nsess = keras.backend.get_session()\n",
            "keras-backend-tf1-graph-functions",
            ("tf.compat.v1.keras.backend.get_session()",),
            id="keras-get-tf1-graph",
        ),
        pytest.param(
            "from keras.backend import tensorflow_backend as tfb\n",
            "keras-multi-backend-modules",
            ("tf.config.list_logical_devices('GPU')",),
            id="keras-tensorflow-backend",
        ),
        pytest.param(
            "from keras.utils.visualize_util import plot\n",
            "keras1-visualize-util",
            ("from keras.utils import plot_model",),
            id="keras1-visualize-util",
        ),
        pytest.param(
            "from keras.layers import Deconvolution2D\n",
            "keras-deconvolution-aliases",
            ("keras.layers.Conv2DTranspose",),
            id="keras-deconvolution2d",
        ),
        pytest.param(
            # Gone from keras.layers in Keras 2.2.5 already (its names imported one by one),
            # while Deconvolution2D stayed to 2.3.1.
            "from keras.layers import Deconv2D\n",
            "keras-deconv-short-aliases",
            ("keras.layers.Conv2DTranspose", "keras==2.2.4"),
            id="keras-deconv2d",
        ),
    ],
)
def test_a_removed_name_gets_its_replacement(
    tmp_path: Path, body: str, rule: str, words: tuple[str, ...]
) -> None:
    found = one(tmp_path, body, rule)
    assert found.fix is not None
    for word in words:
        assert word in found.fix.text
    assert "Find its replacement" not in found.fix.text


def test_scikeras_is_what_to_install(tmp_path: Path) -> None:
    found = one(
        tmp_path,
        "from keras.wrappers.scikit_learn import KerasClassifier\n",
        "keras-scikit-learn-wrappers",
    )
    assert found.fix is not None and "pip install scikeras" in found.fix.commands


def test_a_name_no_listing_has_is_fixed_with_where_keras_exports_it_now(tmp_path: Path) -> None:
    # keras.engine.topology is multi-backend Keras' own module (no listing has it); Keras 3 and
    # Keras 2 export the function from keras.utils. A common word keeps the generic fix.
    (moved,) = findings(tmp_path, "from keras.engine.topology import get_source_inputs\n")
    assert moved.fix is not None and "as keras.utils.get_source_inputs" in moved.fix.text
    (common,) = findings(tmp_path, "from keras.engine.topology import get\n")
    assert common.fix is not None and "Check the name" in common.fix.text


# --- what a name holds --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        pytest.param(
            "opt = keras.optimizers.Adam(1e-3)\nprint(opt.lr)\n",
            "keras3-optimizer-lr-attribute",
            id="opt-assigned",
        ),
        pytest.param(
            "def f(m):\n    return keras.backend.get_value(m.optimizer.lr)\n",
            "keras3-optimizer-lr-attribute",
            id="receiver-named-optimizer",
        ),
        pytest.param(
            "class CB(keras.callbacks.Callback):\n    def on_epoch_end(self, e, logs=None):\n"
            "        print(self.model.optimizer.lr)\n",
            "keras3-optimizer-lr-attribute",
            id="callback-self-model",
        ),
        pytest.param(
            "def f():\n    m = keras.models.load_model('m.keras')\n    s = m.optimizer.decay\n",
            "keras3-optimizer-decay-attribute",
            id="model-from-load-model",
        ),
        pytest.param(
            "dense = tf.keras.layers.Dense(4)\nprint(dense.output_shape)\n",
            "keras3-output-shape",
            id="layer-assigned",
        ),
        pytest.param(
            "model = keras.Sequential()\nfor i in range(2):\n"
            "    print(model.layers[i].output_shape)\n",
            "keras3-output-shape",
            id="model-layers-item",
        ),
        pytest.param(
            "model = keras.Sequential()\nprint(model.layers[0].input_shape)\n",
            "keras3-input-shape",
            id="model-layers-input-shape",
        ),
        pytest.param(
            "layer = model.get_layer('conv')\nshape = layer.get_output_shape_at(1)\n",
            "keras3-layer-get-output-shape-at",
            id="layer-node-accessor",
        ),
        pytest.param(
            "model = keras.Sequential()\nfor weight in model.weights:\n"
            "    print(weight.read_value())\n",
            "keras3-variable-read-value",
            id="variable-read-value",
        ),
        pytest.param(
            "inp = keras.Input(shape=(4,))\nout = tf.concat([inp, inp], axis=-1)\n",
            "keras3-tf-op-on-keras-tensor",
            id="tf-concat-on-input",
        ),
        pytest.param(
            "def build():\n    x = tf.keras.layers.Input((8,))\n"
            "    h = tf.keras.layers.Dense(4)(x)\n"
            "    return tf.reduce_sum(h, axis=1)\n",
            "keras3-tf-op-on-keras-tensor",
            id="tf-op-on-a-layer-output",
        ),
        pytest.param(
            "def build():\n    x = keras.Input((8,))\n    dense = keras.layers.Dense(4)\n"
            "    h = dense(x) * 2.0\n    return tf.nn.relu(h[:, 0])\n",
            "keras3-tf-op-on-keras-tensor",
            id="through-a-layer-variable-arithmetic-and-slicing",
        ),
    ],
)
def test_what_a_name_holds_decides(tmp_path: Path, body: str, rule: str) -> None:
    found = one(tmp_path, body, rule)
    assert found.severity == Severity.ERROR
    assert ids(tmp_path, body, target="2.15") == set()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            "opt = keras.optimizers.Adam(1e-3)\nprint(opt.learning_rate)\n", id="learning-rate"
        ),
        pytest.param("class S:\n    lr = 0.1\ns = S()\nprint(s.lr)\n", id="another-object"),
        pytest.param(
            "from gensim.models import Word2Vec\nmodel = Word2Vec(sentences=[])\n"
            "model.save('w2v.model')\n",
            id="another-package-s-model",
        ),
        pytest.param(
            "model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])\n"
            "print(model.output_shape)\n",
            id="models-keep-output-shape",
        ),
        pytest.param(
            "model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])\n"
            "print(model.input_shape)\n",
            id="models-keep-input-shape",
        ),
        # Keras 3.0 to 3.2 dropped Layer.metrics; 3.3 brought it back (keras-team/keras#19522).
        pytest.param(
            "layer = keras.layers.Dense(2)\nprint(layer.metrics)\n", id="layer-metrics-again"
        ),
        pytest.param("x = tf.zeros([3])\ny = tf.concat([x, x], 0)\n", id="eager-tensors"),
        pytest.param(
            "inp = keras.Input((4,))\n"
            "out = keras.layers.Lambda(lambda t: tf.concat([t, t], -1))(inp)\n",
            id="tf-op-inside-a-lambda-layer",
        ),
        pytest.param(
            "inp = keras.Input((4,))\nout = keras.ops.concatenate([inp, inp], axis=-1)\n",
            id="keras-ops",
        ),
        pytest.param(
            "dense = keras.layers.Dense(3)\nprint(dense.output.shape)\n", id="output-shape-idiom"
        ),
        # TensorFlow's tensors keep get_shape(); only a message naming KerasTensor is Keras 3's.
        pytest.param(
            "tensor = tf.zeros([3])\nprint(tensor.get_shape().as_list())\n", id="tensor-get-shape"
        ),
    ],
)
def test_what_a_name_holds_keeps_other_objects_quiet(tmp_path: Path, body: str) -> None:
    assert findings(tmp_path, body) == []


# --- arguments ------------------------------------------------------------------------------


def test_every_argument_of_a_call_is_judged(tmp_path: Path) -> None:
    body = "import keras as K\nopt = K.optimizers.RMSprop(lr=0.1, decay=1e-6)\n"
    assert ids(tmp_path, body) == {(5, "keras3-optimizer-lr"), (5, "keras3-optimizer-decay")}
    tb = "cb = keras.callbacks.TensorBoard('logs', batch_size=32, write_grads=True)\n"
    assert ids(tmp_path, tb) >= {
        (4, "keras3-tensorboard-batch-size"),
        (4, "keras3-tensorboard-write-grads"),
        (4, "tensorboard-callback"),
    }


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        pytest.param(
            "cb = keras.callbacks.TensorBoard(embeddings_layer_names=['e'])\n",
            "keras3-tensorboard-embeddings-layer-names",
            id="embeddings-layer-names",
        ),
        pytest.param(
            "cb = keras.callbacks.TensorBoard(embeddings_data=x)\n",
            "keras3-tensorboard-embeddings-data",
            id="embeddings-data",
        ),
        pytest.param(
            "cb = keras.callbacks.ModelCheckpoint('m.keras', period=5)\n",
            "keras3-checkpoint-period",
            id="period",
        ),
        pytest.param(
            "model.fit(gen, epochs=3, workers=4, use_multiprocessing=True)\n",
            "keras3-fit-workers",
            id="fit-workers",
        ),
        pytest.param(
            "model.evaluate(gen, max_queue_size=20)\n",
            "keras3-evaluate-max-queue-size",
            id="evaluate-max-queue-size",
        ),
        pytest.param(
            "p = model.predict(gen, use_multiprocessing=True)\n",
            "keras3-predict-use-multiprocessing",
            id="predict-use-multiprocessing",
        ),
        pytest.param(
            "loss = model.train_on_batch(x, y, reset_metrics=False)\n",
            "keras3-train-on-batch-reset-metrics",
            id="train-on-batch-reset-metrics",
        ),
        pytest.param(
            "model.compile('adam', 'mse', sample_weight_mode='temporal')\n",
            "keras3-compile-sample-weight-mode",
            id="compile-sample-weight-mode",
        ),
        pytest.param("inp = keras.Input(shape=10)\n", "keras3-input-int-shape", id="input-int"),
        pytest.param(
            "inp = tf.keras.layers.Input(shape=784, name='x')\n",
            "keras3-input-int-shape",
            id="layers-input-int",
        ),
    ],
)
def test_arguments_keras3_removed(tmp_path: Path, body: str, rule: str) -> None:
    assert one(tmp_path, body, rule).severity == Severity.ERROR
    assert not {i for _, i in ids(tmp_path, body, target="2.15")} & {rule}


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            "cb = keras.callbacks.TensorBoard('logs', histogram_freq=1, embeddings_freq=1,"
            " embeddings_metadata={'e': 'm.tsv'})\n",
            id="tensorboard-kept-arguments",
        ),
        pytest.param("model.fit(gen, epochs=3, steps_per_epoch=10)\n", id="fit-kept-arguments"),
        pytest.param("inp = keras.Input(shape=(10,))\n", id="input-tuple"),
        pytest.param("inp = keras.Input(shape=[10])\n", id="input-list"),
        pytest.param(
            "cb = keras.callbacks.ModelCheckpoint('m.keras', save_freq='epoch')\n", id="save-freq"
        ),
    ],
)
def test_arguments_keras3_keeps_are_quiet(tmp_path: Path, body: str) -> None:
    assert {i for _, i in ids(tmp_path, body)} <= {"tensorboard-callback"}


@pytest.mark.parametrize(
    ("body", "rule", "severity"),
    [
        pytest.param(
            "s = tf.reduce_sum(x, reduction_indices=[1])\n",
            "tf1-reduction-indices",
            Severity.ERROR,
            id="reduction-indices",
        ),
        pytest.param(
            "s = tf.reduce_mean(x, 1, keep_dims=True)\n",
            "tf1-keep-dims",
            Severity.ERROR,
            id="keep-dims",
        ),
        pytest.param(
            "s = tf.math.reduce_max(x, axis=0, keep_dims=True)\n",
            "tf1-keep-dims",
            Severity.ERROR,
            id="math-keep-dims",
        ),
        pytest.param(
            "y = tf.nn.dropout(x, keep_prob=0.5)\n",
            "tf1-dropout-keep-prob",
            Severity.ERROR,
            id="keep-prob-keyword",
        ),
        pytest.param(
            "def f(x, keep_prob):\n    return tf.nn.dropout(x, keep_prob)\n",
            "tf1-dropout-keep-prob-as-rate",
            Severity.WARNING,
            id="keep-prob-name",
        ),
        pytest.param(
            "y = tf.nn.dropout(x, self.keepProb)\n",
            "tf1-dropout-keep-prob-as-rate",
            Severity.WARNING,
            id="keep-prob-attribute",
        ),
        pytest.param(
            "sess = tf.Session()\ny = tf.nn.dropout(x, 0.8)\n",
            "tf1-dropout-positional-in-tf1-code",
            Severity.WARNING,
            id="positional-in-tf1-code",
        ),
    ],
)
def test_tensorflow_1_argument_meanings(
    tmp_path: Path, body: str, rule: str, severity: Severity
) -> None:
    assert one(tmp_path, body, rule).severity == severity


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("s = tf.reduce_sum(x, axis=[1], keepdims=True)\n", id="tf2-names"),
        pytest.param("y = tf.nn.dropout(x, rate=0.2)\n", id="rate-keyword"),
        pytest.param("y = tf.nn.dropout(x, 0.2)\n", id="positional-in-tf2-code"),
        pytest.param("y = tf.nn.dropout(x, 1 - keep_prob)\n", id="converted-keep-prob"),
        pytest.param(
            "import tensorflow.compat.v1 as tf1\ns = tf1.reduce_sum(x, reduction_indices=[1])\n",
            id="compat-v1-on-purpose",
        ),
    ],
)
def test_tensorflow_2_argument_names_are_quiet(tmp_path: Path, body: str) -> None:
    assert findings(tmp_path, body) == []


# --- targets before 2.16 ------------------------------------------------------------------


@pytest.mark.parametrize("target", ["2.11", "2.13", "2.15"])
def test_the_2_11_optimizers_ignore_lr_and_refuse_decay(tmp_path: Path, target: str) -> None:
    body = "opt = tf.keras.optimizers.Adam(lr=0.1, decay=0.01)\n"
    got = {f.id: f.severity for f in findings(tmp_path, body, target=target)}
    assert got == {
        "scan.keras211-optimizer-lr": Severity.WARNING,
        "scan.keras211-optimizer-decay": Severity.ERROR,
    }
    # The legacy optimizers kept both until Keras 3.
    legacy = "opt = tf.keras.optimizers.legacy.Adam(lr=0.1, decay=0.01)\n"
    assert findings(tmp_path, legacy, target=target) == []


@pytest.mark.parametrize("target", ["2.11", "2.15"])
def test_the_legacy_optimizers_keep_the_old_optimizers_methods(tmp_path: Path, target: str) -> None:
    calls = (
        "m = opt.get_slot(v, 'm')\nlr = opt._decayed_lr(tf.float32)\nu = opt.get_updates(l, [v])\n"
    )
    new = {i for _, i in ids(tmp_path, "opt = tf.keras.optimizers.Adam()\n" + calls, target)}
    assert {"keras211-optimizer-get-slot", "keras211-optimizer-decayed-lr"} <= new
    legacy = "opt = tf.keras.optimizers.legacy.Adam()\n" + calls
    assert findings(tmp_path, legacy, target=target) == []
    # TensorFlow's own aliases of the module (tf.optimizers.legacy, tf.compat.v1.keras'; 2.11 to
    # 2.15) are the same.
    for alias in ("tf.optimizers", "tf.compat.v1.keras.optimizers"):
        body = f"opt = {alias}.legacy.Adam()\n" + calls
        assert findings(tmp_path, body, target=target) == [], alias


def test_before_2_11_and_from_2_16_other_rules_speak(tmp_path: Path) -> None:
    body = "opt = tf.keras.optimizers.Adam(lr=0.1, decay=0.01)\n"
    assert findings(tmp_path, body, target="2.10") == []
    assert {i for _, i in ids(tmp_path, body)} == {"keras3-optimizer-lr", "keras3-optimizer-decay"}


def test_a_name_is_judged_by_the_listing_of_an_old_target(tmp_path: Path) -> None:
    body = "m = tf.compat.v1.keras.layers.Dense(3)\nn = tf.keras.layers.NoSuchLayer\n"
    assert ids(tmp_path, body, target="2.5") == {(5, "api-removed")}


# --- TensorFlow 1's RNN cells, private modules --------------------------------------------


def test_tf1_rnn_cells_need_keras_2(tmp_path: Path) -> None:
    body = (
        "cell = tf.compat.v1.nn.rnn_cell.LSTMCell(8)\nout = tf.compat.v1.nn.dynamic_rnn(cell, x)\n"
    )
    assert ids(tmp_path, body) == {(4, "keras3-rnn-cell-v1"), (5, "keras3-rnn-cell-v1")}
    assert findings(tmp_path, body, target="2.15") == []


@pytest.mark.parametrize(
    ("body", "rule", "severity", "word"),
    [
        pytest.param(
            "from tensorflow.python.client import device_lib\n",
            "tf-private-device-lib",
            Severity.WARNING,
            "tf.config.list_physical_devices",
            id="device-lib",
        ),
        pytest.param(
            "from tensorflow.python.framework import ops\n",
            "tf-private-module",
            Severity.WARNING,
            "public name",
            id="python-framework",
        ),
        pytest.param(
            "import tensorflow.tools.docs\n",
            "tf-private-module",
            Severity.WARNING,
            "public name",
            id="tools",
        ),
        pytest.param(
            "from tensorflow._api.v1.keras.models import Model\n",
            "tf-api-v1-tree",
            Severity.ERROR,
            "tensorflow.keras.models",
            id="api-v1",
        ),
    ],
)
def test_private_modules(
    tmp_path: Path, body: str, rule: str, severity: Severity, word: str
) -> None:
    found = one(tmp_path, body, rule)
    assert found.severity == severity
    assert found.fix is not None and word in found.fix.text


def test_a_file_importing_only_from_a_private_tree_is_read(tmp_path: Path) -> None:
    path = tmp_path / "p.py"
    path.write_text("from tensorflow._api.v1.keras.layers import Dense\n", encoding="utf-8")
    report = scan(ScanOptions((str(path),), "2.21"), RULES, "test")
    assert [f.id for f in report.findings] == ["scan.tf-api-v1-tree"]


# --- aliases ----------------------------------------------------------------------------------


def test_an_alias_assigned_from_a_module_is_followed(tmp_path: Path) -> None:
    v1 = "tf = tf.compat.v1\nx = tf.placeholder(tf.float32)\nd = tf.keras.layers.Dense(3)\n"
    assert findings(tmp_path, v1) == []
    k = "K2 = tf.keras\nopt = K2.optimizers.Adam(lr=0.1)\n"
    assert ids(tmp_path, k) == {(5, "keras3-optimizer-lr")}
    # The alias line says it once for every use through the name.
    flags = "flags = tf.app.flags\nflags.DEFINE_string('a', '', '')\nF = flags.FLAGS\n"
    assert ids(tmp_path, flags) == {(4, "tf1-app-flags")}


def test_modern_code_with_built_paths_and_typed_names_has_no_error(tmp_path: Path) -> None:
    body = (
        "def train(out, data):\n"
        "    inp = keras.Input(shape=(28, 28))\n"
        "    x = keras.layers.Flatten()(inp)\n"
        "    x = keras.layers.Dense(64, activation='relu')(x)\n"
        "    x = keras.ops.concatenate([x, x], axis=-1)\n"
        "    model = keras.Model(inp, keras.layers.Dense(10)(x))\n"
        "    opt = keras.optimizers.Adam(learning_rate=1e-3)\n"
        "    model.compile(optimizer=opt, loss='sparse_categorical_crossentropy')\n"
        "    best = os.path.join(out, 'best.keras')\n"
        "    weights = f'{out}/last.weights.h5'\n"
        "    cbs = [keras.callbacks.ModelCheckpoint(best, save_best_only=True),\n"
        "           keras.callbacks.ModelCheckpoint(weights, save_weights_only=True)]\n"
        "    model.fit(data, epochs=1, callbacks=cbs)\n"
        "    print(float(opt.learning_rate), model.layers[-1].output.shape)\n"
        "    model.save_weights(weights)\n"
        "    model.load_weights(weights)\n"
        "    model.save(best)\n"
        "    model.export(os.path.join(out, 'serving'))\n"
        "    return tf.nn.dropout(tf.zeros([4]), rate=0.5)\n"
    )
    assert findings(tmp_path, body) == []


# --- SARIF for notebooks ------------------------------------------------------------------


def _notebook(cells: list[list[str]]) -> str:
    doc = {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {},
                "outputs": [],
                "source": s,
                "execution_count": None,
            }
            for s in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(doc, indent=1)


@pytest.mark.parametrize("compact", [False, True], ids=["nbformat-layout", "one-line"])
def test_sarif_points_into_the_notebook_and_names_the_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compact: bool
) -> None:
    text = _notebook([["import tensorflow as tf\n"], ["x = 1\n", "sess = tf.Session()\n"]])
    if compact:
        text = json.dumps(json.loads(text))
    path = tmp_path / "nb.ipynb"
    path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    report = scan(ScanOptions(("nb.ipynb",), "2.21"), RULES, "test")
    (result,) = json.loads(render_sarif(report, "test"))["runs"][0]["results"]
    (location,) = result["locations"]
    (logical,) = location["logicalLocations"]
    assert logical["name"] == "cell 2, line 2"
    line: Optional[int] = location["physicalLocation"]["region"]["startLine"]
    assert line is not None
    if compact:
        assert line == 1  # the file has one line: the cell says where
    else:
        assert "sess = tf.Session()" in text.splitlines()[line - 1]


# --- what the project's own modules return ------------------------------------------------------


@pytest.mark.parametrize(
    ("neighbour", "flagged"),
    [
        pytest.param("nets.py", True, id="a-module-beside-the-file"),
        pytest.param("nets/__init__.py", True, id="a-package-beside-the-file"),
        pytest.param(None, False, id="another-package"),
    ],
)
def test_a_model_built_by_the_projects_own_module_is_judged_as_a_model(
    tmp_path: Path, neighbour: Optional[str], flagged: bool
) -> None:
    # `from nets import build` beside nets.py is the project's own code, whose builder
    # returns a Keras model; without such a file, nets is another package (gensim-like).
    if neighbour is not None:
        (tmp_path / neighbour).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / neighbour).write_text("def build():\n    pass\n", encoding="utf-8")
    body = "from nets import build\n\nmodel = build()\nmodel.save('exported_model')\n"
    found = [f.id for f in findings(tmp_path, body)]
    assert ("scan.keras3-save-savedmodel" in found) is flagged


def test_keras_1_argument_names_are_named_with_their_keras_2_names(tmp_path: Path) -> None:
    body = (
        "from tensorflow.keras.layers import Conv2D, Dense, Embedding\n"
        "c = Conv2D(32, (3, 3), border_mode='same')\n"
        "d = Dense(output_dim=10)\n"
    )
    found = findings(tmp_path, body)
    assert [f.id for f in found] == [
        "scan.keras1-layer-border-mode",
        "scan.keras1-layer-output-dim",
    ]
    assert "padding=" in (found[0].fix.text if found[0].fix else "")
    # Embedding's output_dim is its own Keras 2 argument.
    quiet = (
        "from tensorflow.keras.layers import Embedding\n"
        "e = Embedding(1000, output_dim=64)\n"
        "r = tf.keras.layers.experimental.RandomFourierFeatures(output_dim=4096)\n"
    )
    assert findings(tmp_path, quiet, target="2.15") == []


def test_tensorflow_1_converter_constructors_are_tensorflow_1_api(tmp_path: Path) -> None:
    body = "c = tf.lite.TFLiteConverter.from_keras_model_file('m.h5')\n"
    found = one(tmp_path, body, "tflite-tf1-converter-constructors")
    assert found.cause == "api-moved-to-compat-v1"
    assert found.fix is not None
    assert "tf.compat.v1.lite.TFLiteConverter.from_keras_model_file" in found.fix.text
    assert not ids(tmp_path, body, target="1.15")
    kept = "c = tf.lite.TFLiteConverter.from_keras_model(model)\n"
    assert not {i for _, i in ids(tmp_path, kept)} & {"tflite-tf1-converter-constructors"}


@pytest.mark.parametrize(
    ("body", "rule", "target", "older"),
    [
        (
            "tf.keras.mixed_precision.experimental.set_policy('mixed_float16')\n",
            "keras29-mixed-precision-experimental",
            "2.12",
            "2.8",
        ),
        ("loss = optimizer.get_scaled_loss(loss)\n", "keras3-get-scaled-loss", "2.21", "2.15"),
        (
            "grads = opt.get_unscaled_gradients(grads)\n",
            "keras3-get-unscaled-gradients",
            "2.21",
            "2.15",
        ),
        (
            "opt = tf.keras.mixed_precision.LossScaleOptimizer(opt, loss_scale='dynamic')\n",
            "keras24-loss-scale-argument",
            "2.12",
            "2.3",
        ),
    ],
    ids=["experimental-module", "get-scaled-loss", "get-unscaled-gradients", "loss-scale-arg"],
)
def test_mixed_precisions_changed_api_is_found_on_the_release_without_it(
    tmp_path: Path, body: str, rule: str, target: str, older: str
) -> None:
    assert one(tmp_path, body, rule, target).fix is not None
    assert not [f for f in findings(tmp_path, body, older) if f.id == f"scan.{rule}"]


def test_the_experimental_modules_fix_under_keras_3_keeps_to_keras_3s_arguments(
    tmp_path: Path,
) -> None:
    # Keras 3 refuses the stable class's dynamic=False (keras/src/optimizers/
    # loss_scale_optimizer.py): from 2.16 the fixed scale is the inner optimizer's.
    body = "tf.keras.mixed_precision.experimental.set_policy('mixed_float16')\n"
    fix = one(tmp_path, body, "keras29-mixed-precision-experimental", "2.21").fix
    assert fix is not None
    assert "loss_scale_factor=N" in fix.text


def test_a_keras_2_module_gets_no_idiom_from_a_module_of_the_same_name_elsewhere() -> None:
    api = ApiIndex(
        "2.21",
        "2.21.0",
        "3.12.0",
        {
            "tf": frozenset({"experimental/", "keras/"}),
            "tf.experimental": frozenset({"numpy/"}),
            "tf.keras": frozenset({"optimizers/"}),
            "tf.keras.optimizers": frozenset({"Adam"}),
        },
        {},
    )
    name = "tf.keras.mixed_precision.experimental"
    assert _keras_idiom(api, name, "experimental", name) is None
    # A class or function still moves up: the same name in an enclosing module.
    adam = "tf.keras.optimizers.legacy.Adam"
    assert _keras_idiom(api, adam, "Adam", adam) == "tf.keras.optimizers.Adam"


def test_an_op_placed_on_an_xla_device_is_found_from_2_4(tmp_path: Path) -> None:
    body = "with tf.device('/device:XLA_GPU:0'):\n    y = tf.matmul(a, b)\n"
    found = one(tmp_path, body, "tf24-xla-devices-unregistered")
    assert found.fix is not None
    assert "jit_compile=True" in found.fix.text
    assert not {i for _, i in ids(tmp_path, body, target="2.3")} & {"tf24-xla-devices-unregistered"}
    assert not ids(tmp_path, "with tf.device('/GPU:0'):\n    y = tf.matmul(a, b)\n")


# --- Keras 3's load_weights by name and add_metric ------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            "model.load_weights('backbone.weights.h5', by_name=True)\n",
            {(4, "keras3-load-weights-by-name")},
            id="by-name-keras3-weights",
        ),
        pytest.param(
            "model.load_weights('backbone.keras', by_name=True, skip_mismatch=True)\n",
            {(4, "keras3-load-weights-by-name")},
            id="by-name-keras-zip",
        ),
        # Keras 3 still loads legacy H5 weights by name.
        pytest.param("model.load_weights('backbone.h5', by_name=True)\n", set(), id="legacy-h5"),
        pytest.param(
            "class Head(keras.layers.Layer):\n"
            "    def call(self, x):\n"
            "        self.add_metric(tf.reduce_mean(x), name='mean_act')\n"
            "        return x\n",
            {(6, "keras3-add-metric")},
            id="add-metric",
        ),
    ],
)
def test_keras3_load_weights_by_name_and_add_metric(
    tmp_path: Path, body: str, expected: set[tuple[int, str]]
) -> None:
    assert ids(tmp_path, body) == expected
    # Keras 2 (up to 2.15) has both.
    assert ids(tmp_path, body, target="2.15") == set()
