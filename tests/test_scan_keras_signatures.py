"""The parameters of Keras' public callables by release: the generator's reading of a Keras
wheel (scripts/gen_scan_signatures.py --keras), the accessor, and the shipped files' facts."""

from __future__ import annotations

import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script
from tfdoctor.keras_api import keras_api
from tfdoctor.matrix import version_key
from tfdoctor.scan import api
from tfdoctor.scan.api import ParameterListings, keras_keyword_releases
from tfdoctor.scan.rules import load_rules


def _load_script() -> ModuleType:
    """Import scripts/gen_scan_signatures.py."""
    return load_script("gen_scan_signatures")


# --- the generator: a Keras wheel of our own --------------------------------------------------

_FILES = {
    "keras/__init__.py": "from keras import layers\n",
    "keras/layers/__init__.py": (
        "from keras.src.layers.lstm import LSTM\n"
        "from keras.src.layers.old import Dense\n"
        "from keras.src.layers.old import Loose\n"
        "from keras.src.layers.old import Optimizer\n"
        "from keras.src.layers.lstm import Model\n"
        "from keras.src.layers.layer import Layer\n"
    ),
    "keras/src/__init__.py": "",
    "keras/src/layers/__init__.py": "",
    # Keras 3's shape: literal pops, then a refusal of whatever is left; a base the text
    # cannot resolve (a backend chosen at import) behind it.
    "keras/src/layers/layer.py": (
        "from keras.src.backend import BackendLayer\n"
        "class Layer(BackendLayer):\n"
        "    def __new__(cls, *args, **kwargs):\n"
        "        obj = super().__new__(cls, *args, **kwargs)\n"
        "        return obj\n"
        "    def __init__(self, *, trainable=True, name=None, **kwargs):\n"
        "        shape = kwargs.pop('input_dim', None)\n"
        "        if kwargs.pop('legacy', None) is not None:\n"
        "            raise ValueError('legacy is gone')\n"
        "        if kwargs:\n"
        "            raise ValueError(f'Unrecognized keyword arguments: {kwargs}')\n"
    ),
    "keras/src/layers/mixin.py": (
        "class Mixin:\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n"
    ),
    "keras/src/layers/rnn.py": (
        "from keras.src.layers import layer\n"
        "class RNN(layer.Layer):\n"
        "    def __init__(self, cell, go_backwards=False, **kwargs):\n"
        "        super().__init__(**kwargs)\n"
    ),
    "keras/src/layers/lstm.py": (
        "from keras.src.layers.mixin import Mixin\n"
        "from keras.src.layers.rnn import RNN\n"
        "from keras.src.layers.layer import Layer\n"
        "class LSTM(Mixin, RNN):\n"
        "    def __init__(self, units, **kwargs):\n"
        "        super().__init__(units, go_backwards=True, **kwargs)\n"
        "class Model(Layer):\n"
        "    def __new__(cls, *args, **kwargs):\n"
        "        return Functional(*args, **kwargs)\n"
        "    def __init__(self, **kwargs):\n"
        "        super().__init__(**kwargs)\n"
    ),
    # Keras 2's shape: a literal set handed to validate_kwargs, through a module attribute.
    "keras/src/layers/old.py": (
        "from keras.src.utils import generic_utils\n"
        "class Base:\n"
        "    def __init__(self, name=None, **kwargs):\n"
        "        allowed_kwargs = {'input_shape', 'weights'}\n"
        "        generic_utils.validate_kwargs(kwargs, allowed_kwargs)\n"
        "class Dense(Base):\n"
        "    def __init__(self, units, **kwargs):\n"
        "        Base.__init__(self, **kwargs)\n"
        "class Loose:\n"
        "    def __init__(self, a, **kwargs):\n"
        "        self.extra = kwargs\n"
        # Keras 2's OptimizerV2: each key outside a literal set refused in a loop.
        "class Optimizer:\n"
        "    def __init__(self, name, **kwargs):\n"
        "        allowed_kwargs = {'lr', 'clipnorm'}\n"
        "        for k in kwargs:\n"
        "            if k not in allowed_kwargs:\n"
        "                raise TypeError('Unexpected keyword argument passed to optimizer: ' + k)\n"
    ),
    "keras-9.1.2.dist-info/METADATA": "Name: keras\nVersion: 9.1.2\n",
}


def _wheel(tmp_path: Path) -> Path:
    path = tmp_path / "keras-9.1.2-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in _FILES.items():
            archive.writestr(name, text)
    return path


def test_the_generator_follows_kwargs_to_the_check_that_refuses_them(tmp_path: Path) -> None:
    script = _load_script()
    with zipfile.ZipFile(_wheel(tmp_path)) as archive:
        rows = dict(r.split("\t") for r in script.keras_signature_rows(archive, "keras", "9.1.2"))
    assert rows == {
        # Through the pass-through mixin to RNN, then Layer: the call fills RNN's cell (by
        # position) and go_backwards, so neither is the caller's; a pop whose `if` raises is
        # a refusal; `if kwargs: raise` closes the row, no **.
        "keras.layers.LSTM": "input_dim name trainable units",
        "keras.layers.Layer": "input_dim name trainable",
        # validate_kwargs with a literal set, reached by Base.__init__(self, **kwargs).
        "keras.layers.Dense": "input_shape name units weights",
        # **kwargs kept and never checked: open.
        "keras.layers.Loose": "** a",
        "keras.layers.Optimizer": "clipnorm lr name",
    }
    # A __new__ that returns what another call built: its __init__ is not the whole call.
    assert "keras.layers.Model" not in rows


def test_the_generator_writes_one_release_per_keras_wheel(tmp_path: Path) -> None:
    script = _load_script()
    (listing,) = script.listings([_wheel(tmp_path)], "keras")
    assert (listing.line, listing.keras) == ("9.1", "9.1.2")


# Keras 3's shape of a model: the backend's trainer imported under `if backend.backend() ==`,
# the base trainer's compile, a refusal of what is left of evaluate's **kwargs.
_MODEL3_FILES = {
    "keras/__init__.py": "from keras.src.models.model import Model as Model\n",
    "keras/src/__init__.py": "",
    "keras/src/models/__init__.py": "",
    "keras/src/models/model.py": (
        "from keras.src import backend\n"
        "from keras.src.trainers import trainer as base_trainer\n"
        "if backend.backend() == 'tensorflow':\n"
        "    from keras.src.backend.tensorflow.trainer import TensorFlowTrainer as Trainer\n"
        "elif backend.backend() == 'jax':\n"
        "    from keras.src.backend.jax.trainer import JAXTrainer as Trainer\n"
        "class Model(Trainer, base_trainer.Trainer):\n"
        "    def __new__(cls, *args, **kwargs):\n"
        "        return Functional(*args, **kwargs)\n"
        "    def save(self, filepath, overwrite=True, **kwargs):\n"
        "        return saving_api.save_model(self, filepath, overwrite, **kwargs)\n"
    ),
    "keras/src/trainers/__init__.py": "",
    "keras/src/trainers/trainer.py": (
        "class Trainer:\n"
        "    def compile(self, optimizer='rmsprop', loss=None, jit_compile='auto'):\n"
        "        pass\n"
        "    def fit(self, x=None, y=None):\n"
        "        raise NotImplementedError\n"
    ),
    "keras/src/backend/__init__.py": "",
    "keras/src/backend/tensorflow/__init__.py": "",
    "keras/src/backend/tensorflow/trainer.py": (
        "from keras.src.trainers import trainer as base_trainer\n"
        "class TensorFlowTrainer(base_trainer.Trainer):\n"
        "    def fit(self, x=None, y=None, epochs=1):\n"
        "        pass\n"
        "    def evaluate(self, x=None, y=None, **kwargs):\n"
        "        cached = kwargs.pop('_use_cached_eval_dataset', False)\n"
        "        if kwargs:\n"
        "            raise ValueError(f'Arguments not recognized: {kwargs}')\n"
    ),
    "keras/src/backend/jax/__init__.py": "",
    "keras/src/backend/jax/trainer.py": (
        "from keras.src.trainers import trainer as base_trainer\n"
        "class JAXTrainer(base_trainer.Trainer):\n"
        "    def fit(self, x=None, y=None, jax_only=1):\n"
        "        pass\n"
    ),
    "keras-9.2.0.dist-info/METADATA": "Name: keras\nVersion: 9.2.0\n",
}
# Keras 2's shape (2.13 to 2.15 keep it under keras/src/engine/): compile hands **kwargs to
# another method of the model, which pops some, refuses two (one inside the `if`, one by the
# name it popped into) and the rest outside a literal set.
_MODEL2_FILES = {
    "keras/__init__.py": "from keras.src.engine.training import Model\n",
    "keras/src/__init__.py": "",
    "keras/src/engine/__init__.py": "",
    "keras/src/engine/training.py": (
        "class Model:\n"
        "    def compile(self, optimizer='rmsprop', loss=None, **kwargs):\n"
        "        from_serialized = kwargs.pop('from_serialized', False)\n"
        "        self._validate_compile(optimizer, **kwargs)\n"
        "    def _validate_compile(self, optimizer, metrics=None, **kwargs):\n"
        "        kwargs.pop('experimental_run_tf_function', None)\n"
        "        if kwargs.pop('target_tensors', None) is not None:\n"
        "            raise ValueError('target_tensors')\n"
        "        distribute = kwargs.pop('distribute', None)\n"
        "        if distribute is not None:\n"
        "            raise ValueError('distribute')\n"
        "        invalid_kwargs = set(kwargs) - {'sample_weight_mode'}\n"
        "        if invalid_kwargs:\n"
        "            raise TypeError('Invalid keyword argument(s) in `compile`')\n"
        "    def fit_generator(self, generator, epochs=1):\n"
        "        pass\n"
        "    def summary(self, line_length=None, **kwargs):\n"
        "        self.extra = kwargs\n"
    ),
    "keras-9.1.0.dist-info/METADATA": "Name: keras\nVersion: 9.1.0\n",
}


def _model_rows(tmp_path: Path, files: dict[str, str]) -> dict[str, str]:
    """The generator's rows of a model's methods, from a wheel holding ``files``."""
    path = tmp_path / "keras-model-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    script = _load_script()
    with zipfile.ZipFile(path) as archive:
        rows = script.keras_signature_rows(archive, "keras", "9.2.0")
    return dict(r.split("\t") for r in rows if ".Model." in r)


def test_the_generator_reads_keras_3_model_methods_from_the_tensorflow_trainer(
    tmp_path: Path,
) -> None:
    assert _model_rows(tmp_path, _MODEL3_FILES) == {
        # The base trainer's, through the TensorFlow trainer that defines none.
        "keras.Model.compile": "jit_compile loss optimizer",
        # The TensorFlow trainer's own, not the base's, nor the JAX trainer's.
        "keras.Model.fit": "epochs x y",
        # A literal pop, then `if kwargs: raise`: closed.
        "keras.Model.evaluate": "_use_cached_eval_dataset x y",
        # **kwargs handed to another module's function: open.
        "keras.Model.save": "** filepath overwrite",
    }


def test_the_generator_follows_keras_2_compile_to_the_method_that_checks_its_kwargs(
    tmp_path: Path,
) -> None:
    assert _model_rows(tmp_path, _MODEL2_FILES) == {
        # compile's own pop; that method's parameter the call leaves (metrics), its pop, and
        # the set the rest must be in; target_tensors and distribute are refused.
        "keras.Model.compile": (
            "experimental_run_tf_function from_serialized loss metrics optimizer sample_weight_mode"
        ),
        "keras.Model.fit_generator": "epochs generator",
        # **kwargs kept and never checked: open.
        "keras.Model.summary": "** line_length",
    }


# --- the shipped files ---------------------------------------------------------------------


@pytest.mark.parametrize("dist", sorted(api.KERAS_SIGNATURE_STORES))
def test_the_shipped_files_cover_the_keras_listings(dist: str) -> None:
    text = (Path(api.__file__).parent / api.KERAS_SIGNATURE_STORES[dist]).read_text("utf-8")
    assert text.startswith("# ") and len(text.encode()) < 350_000
    assert set(ParameterListings(text).lines) == set(api.keras_releases(dist))


@pytest.mark.parametrize(
    "name, keyword, span",
    [
        # keras 2.15.0 keras/src/layers/rnn/lstm.py: LSTM(..., time_major=False, ...); keras
        # 3.0.5 keras/src/layers/rnn/lstm.py: no time_major, and keras/src/layers/layer.py's
        # Layer.__init__ refuses what is left of **kwargs ("Unrecognized keyword arguments
        # passed to"). Read from the wheels.
        pytest.param("keras.layers.LSTM", "time_major", "2.6 to 2.15", id="lstm-time-major"),
        pytest.param("tf.keras.layers.LSTM", "time_major", "2.6 to 2.15", id="tf-keras-lstm"),
        # keras 2.x keras/engine/base_layer.py (src/ from 2.13): Layer.__init__'s
        # allowed_kwargs holds input_dim; keras 3.x's Layer.__init__ pops it.
        pytest.param("keras.layers.Dense", "input_dim", "2.6 to 3.15", id="dense-input-dim"),
        # keras 2.x's allowed_kwargs holds batch_input_shape; keras 3.x's Layer pops no such.
        pytest.param(
            "keras.layers.Dense", "batch_input_shape", "2.6 to 2.15", id="dense-batch-shape"
        ),
        # keras 3.1.1 keras/src/layers/rnn/lstm.py: no use_cudnn; 3.2.1: use_cudnn="auto".
        pytest.param("keras.layers.LSTM", "use_cudnn", "3.2 to 3.15", id="lstm-use-cudnn"),
        # keras 2.6.0 to 2.10.0 keras/optimizer_v2/optimizer_v2.py: OptimizerV2.__init__'s
        # allowed_kwargs = {"clipnorm", "clipvalue", "lr", "decay", "global_clipnorm"}; 2.11's
        # optimizers are the new ones (keras/optimizers/optimizer_experimental/), whose
        # **kwargs go to a helper method the listing does not follow.
        pytest.param("keras.optimizers.Adam", "lr", "2.6 to 2.10", id="adam-lr"),
        # tf-keras 2.14.1 to 2.21.0 tf_keras/src/layers/rnn/lstm.py keeps time_major.
        pytest.param("tf_keras.layers.LSTM", "time_major", "2.14 to 2.21", id="tf-keras"),
    ],
)
def test_the_shipped_files_hold_what_the_wheels_say(name: str, keyword: str, span: str) -> None:
    dated = keras_keyword_releases(name, keyword)
    assert dated is not None and dated.span() == span


def test_a_name_no_keras_serves_is_not_answered() -> None:
    assert keras_keyword_releases("tf.reduce_max", "keepdims") is None


# --- the hand-written rows, against what the wheels say ----------------------------------------


def test_the_hand_written_optimizer_rows_agree_with_the_wheels() -> None:
    # keras_api.yaml's optimizer_arguments: an optimizer keyword taken from a Keras release
    # on. Every listed release at or after it whose optimizer the listings read takes it.
    checked = 0
    for kwarg, added_in in keras_api().optimizer_arguments.items():
        for name in ("keras.optimizers.SGD", "keras.optimizers.Adam", "keras.optimizers.RMSprop"):
            read = api.keras_parameters_of(name)
            later = [x for x in read if version_key(x) >= version_key(added_in)]
            assert later and all(kwarg in read[x] for x in later), (kwarg, name)
            checked += 1
    assert checked


def test_the_keras_3_keyword_rules_agree_with_the_wheels() -> None:
    # scan_rules.yaml's rules of a keyword Keras 3 no longer takes (removed with TensorFlow's
    # first Keras 3 line), for a class the listings read: the first Keras 3 does not take it.
    first_keras3 = min(
        (r for r in api.keras_releases("keras") if r.startswith("3.")), key=version_key
    )
    checked = 0
    for rule in load_rules().rules:
        if rule.kind != "removed" or not rule.kwarg or rule.kwarg_value is not None:
            continue
        if rule.release_key[:2] != (2, 16):
            continue
        for name in rule.api:
            read = api.keras_parameters_of(name)
            if read.get(first_keras3, {api.KWARGS_MARK}) & {api.KWARGS_MARK}:
                continue  # not a class the listings read (a module), or **kwargs left open
            assert rule.kwarg not in read[first_keras3], (rule.id, name)
            checked += 1
    assert checked


def _tf_line_of(keras_release: str) -> tuple[int, ...]:
    """The TensorFlow line whose tf.keras a ``keras`` release is: 2.6-2.15 their own line,
    every Keras 3 the lines from 2.16 (TensorFlow 2.16's wheel requires keras>=3.0.0)."""
    return version_key(keras_release) if keras_release.startswith("2.") else (2, 16)


def test_no_keyword_rule_says_an_error_that_a_release_it_covers_contradicts() -> None:
    # A rule that calls a keyword refused (a TypeError or ValueError at the call) from a line
    # on is wrong for a class of a Keras release of those lines that takes the keyword: a
    # module-wide rule (keras.layers) for every class the module exports there, unless the
    # rule excepts it. A warning-level rule says less (the keyword is ignored, or refused by
    # some releases only) and is not held to it.
    listing = api.load_keras_parameters("keras")
    checked = 0
    for rule in load_rules().rules:
        if rule.kind != "removed" or not rule.kwarg or rule.kwarg_value is not None:
            continue
        if rule.method is not None or rule.severity != "error":
            continue
        until = version_key(rule.until) if rule.until else (99,)
        for written in rule.api:
            module = written.replace("tf.keras.", "keras.", 1)
            if not module.startswith("keras."):
                continue
            names = [module] + [n for n in listing.names() if n.rpartition(".")[0] == module]
            for name in names:
                # As the code writes it: tf.keras.layers.X is excepted only as itself.
                if written + name[len(module) :] in rule.except_api:
                    continue
                for release, takes in api.keras_parameters_of(name).items():
                    if rule.release_key <= _tf_line_of(release) < until:
                        assert rule.kwarg not in takes, (rule.id, name, release)
                        checked += 1
    assert checked
