"""Which Keras ran, read from a traceback's frames (explain.keras_versions), and what explain
says when that Keras asks TensorFlow for what the installed one lacks, or refuses an argument
a later Keras brought. Every log here is written for the test, in the format Python and
Keras print, with a near miss that must not fire."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.packages import read_listed_versions
from tfdoctor.evidence.traceback import Frame
from tfdoctor.explain.keras_versions import keras_era
from tfdoctor.findings import Severity

_SITE = "/home/ana/.venv/lib/python3.10/site-packages"


def _causes(text: str) -> set[str]:
    """The causes of the findings at warning or above that explain gives for ``text``."""
    return {
        x.cause or "" for x in explained(text).findings if x.severity.rank >= Severity.WARNING.rank
    }


@pytest.mark.parametrize(
    ("path", "era"),
    [
        pytest.param(f"{_SITE}/keras/src/backend/tensorflow/core.py", "Keras 3", id="keras3"),
        pytest.param(f"{_SITE}/keras/engine/training.py", "Keras 2", id="keras2-engine"),
        pytest.param(
            f"{_SITE}/keras/backend/tensorflow_backend.py", "multi-backend", id="multi-backend"
        ),
        pytest.param(f"{_SITE}/tf_keras/src/engine/base_layer.py", "tf-keras", id="tf-keras"),
        pytest.param(
            f"{_SITE}/tensorflow/python/keras/engine/training.py",
            "TensorFlow's own copy",
            id="tensorflow-copy",
        ),
        pytest.param(f"{_SITE}/keras/optimizers.py", "standalone keras", id="standalone"),
    ],
)
def test_the_frames_path_names_the_keras_era(path: str, era: str) -> None:
    assert era in keras_era(Frame(path, 1, "f"))


def test_a_file_of_no_keras_has_no_era() -> None:
    assert keras_era(Frame(f"{_SITE}/numpy/core/numeric.py", 1, "f")) == ""
    assert keras_era(Frame("/srv/app/keras_model.py", 1, "f")) == ""


# --- a Keras frame asking TensorFlow for what it lacks ---------------------------------------


def _keras_asks(
    message: str, *, code: str, path: str = "keras/src/backend/tensorflow/numpy.py", head: str = ""
) -> str:
    return (
        head + "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 1, in <module>\n'
        "    import keras\n"
        f'  File "{_SITE}/keras/__init__.py", line 4, in <module>\n'
        "    from keras.api import activations\n"
        f'  File "{_SITE}/{path}", line 12, in <module>\n'
        f"    {code}\n"
        f"{message}\n"
    )


def test_keras3_asking_tensorflow_for_a_public_name_it_lacks_is_keras_of_another_release() -> None:
    # tf.experimental.numpy.flatten is listed from 2.13 on: 2.12 lacks it.
    log = _keras_asks(
        "AttributeError: module 'tensorflow.experimental.numpy' has no attribute 'flatten'",
        code="flatten = tfnp.flatten",
        head="tensorflow==2.12.0\n",
    )
    top = top_error(explained(log))
    assert top.cause == "keras-version"
    assert "Keras 3 (keras/src/)" in top.detail
    # The Keras of the TensorFlow shown.
    assert "2.12" in fix_text(top)


def test_a_name_the_shown_tensorflow_lists_is_not_said_to_be_missing() -> None:
    # tf.experimental.numpy.bitwise_and is listed from 2.4 on: TensorFlow 2.12 has it, so no
    # Keras release pairing explains the failure, and nothing says 2.12 lacks it.
    log = _keras_asks(
        "AttributeError: module 'tensorflow.experimental.numpy' has no attribute 'bitwise_and'",
        code="bitwise_and = tfnp.bitwise_and",
        head="tensorflow==2.12.0\n",
    )
    assert all("does not have" not in x.summary for x in explained(log).findings)


def test_keras_importing_a_tensorflow_module_it_lacks_is_the_same_reading() -> None:
    log = _keras_asks(
        "ImportError: cannot import name 'dynamic_update_slice' from "
        "'tensorflow.compiler.tf2xla.python.xla' (/x/tensorflow/compiler/tf2xla/python/xla.py)",
        code="from tensorflow.compiler.tf2xla.python.xla import dynamic_update_slice",
        path="keras/src/backend/tensorflow/core.py",
    )
    assert top_error(explained(log)).cause == "keras-version"


def test_a_keyword_tensorflows_function_refuses_in_keras_own_call() -> None:
    log = _keras_asks(
        "TypeError: experimental_enable_numpy_behavior() got an unexpected keyword argument "
        "'dtype_conversion_mode'",
        code='tfnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")',
    )
    assert top_error(explained(log)).cause == "keras-version"


def test_tf_keras_asking_tensorflow_is_tf_keras_of_another_line() -> None:
    log = _keras_asks(
        "AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute "
        "'register_load_context_function'",
        code="tf.__internal__.register_load_context_function(ctx)",
        path="tf_keras/src/saving/legacy/save.py",
    )
    top = top_error(explained(log))
    assert top.cause == "tf-keras-mismatch"
    assert "tf-keras" in fix_text(top)


def test_a_keyword_refused_by_a_function_of_keras_own_is_not_tensorflows() -> None:
    log = _keras_asks(
        "TypeError: build() got an unexpected keyword argument 'input_shape'",
        code="self.build(input_shape=shape)",
        path="keras/src/layers/layer.py",
    )
    assert "keras-version" not in _causes(log)


def test_the_users_own_frame_asking_tensorflow_is_not_keras() -> None:
    log = (
        "Traceback (most recent call last):\n"
        f'  File "{_SITE}/keras/src/utils/traceback_utils.py", line 122, in error_handler\n'
        "    raise e.with_traceback(filtered_tb) from None\n"
        '  File "/srv/app/layers.py", line 30, in call\n'
        "    return tf.experimental.numpy.bitwise_and(x, y)\n"
        "AttributeError: module 'tensorflow.experimental.numpy' has no attribute 'bitwise_and'\n"
    )
    assert "keras-version" not in _causes(log)


def test_tensorflow_missing_altogether_stays_not_installed() -> None:
    log = _keras_asks(
        "ModuleNotFoundError: No module named 'tensorflow'",
        code="import tensorflow as tf",
        path="keras/backend/tensorflow_backend.py",
    )
    found = _causes(log)
    assert "keras-version" not in found and "tf-not-installed" in found


# --- an optimizer argument a later Keras brought -----------------------------------------------


def _optimizer_log(argument: str, *, head: str = "", function: str = "<module>") -> str:
    return (
        head + "Traceback (most recent call last):\n"
        f'  File "/srv/app/train.py", line 40, in {function}\n'
        f"    opt = Adam({argument}=1e-3)\n"
        f'  File "{_SITE}/keras/optimizers.py", line 457, in __init__\n'
        "    super(Adam, self).__init__(**kwargs)\n"
        f'  File "{_SITE}/keras/optimizers.py", line 79, in __init__\n'
        "    'passed to optimizer: ' + str(k))\n"
        f"TypeError: Unexpected keyword argument passed to optimizer: {argument}\n"
    )


def test_learning_rate_refused_by_keras_before_23_is_code_for_a_newer_keras() -> None:
    top = top_error(explained(_optimizer_log("learning_rate")))
    assert top.cause == "keras-version"
    fix = fix_text(top)
    assert "keras==2.3.*" in fix and "learning_rate" in fix


def test_a_tensorflow_too_old_for_keras_23_is_named_not_installed_over() -> None:
    top = top_error(explained(_optimizer_log("learning_rate", head="tensorflow 1.12.0\n")))
    assert top.cause == "keras-version"
    fix = fix_text(top)
    assert "1.12.0" in fix and "pip install" not in fix


def test_an_argument_no_release_table_names_is_not_read_so() -> None:
    assert "keras-version" not in _causes(_optimizer_log("momentum_decay"))


def test_an_optimizer_rebuilt_from_a_saved_config_is_not_the_codes_argument() -> None:
    log = _optimizer_log("learning_rate", function="from_config")
    assert "keras-version" not in _causes(log)


def test_tensorflows_own_copy_refusing_it_is_not_the_standalone_keras() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 40, in <module>\n'
        "    opt = tf.keras.optimizers.Adam(learning_rate=1e-3)\n"
        f'  File "{_SITE}/tensorflow/python/keras/optimizers.py", line 79, in __init__\n'
        "    'passed to optimizer: ' + str(k))\n"
        "TypeError: Unexpected keyword argument passed to optimizer: learning_rate\n"
    )
    assert "keras-version" not in _causes(log)


# --- the keras a listing shows beside TensorFlow -----------------------------------------------


def _listed(keras: str, tensorflow: str, failure: str = "ValueError: the run failed\n") -> str:
    return (
        "$ pip list\n"
        "Package              Version\n"
        f"{keras}\n"
        f"tensorflow           {tensorflow}\n"
        "\n" + failure
    )


def test_pip_lists_old_keras_under_its_registered_name() -> None:
    # Keras before 2.4 was registered on PyPI as "Keras", and pip lists it so.
    assert read_listed_versions("Keras                2.2.4\n") == {"keras": "2.2.4"}


def test_a_standalone_keras_listed_beside_a_tensorflow_its_row_rules_out() -> None:
    log = _listed("Keras                2.2.4", "2.1.0")
    found = [x for x in explained(log).findings if x.cause == "keras-version"]
    assert found and found[0].severity is Severity.WARNING
    # The companion table's row for TensorFlow 2.1: Keras 2.3.
    assert "keras==2.3.*" in fix_text(found[0])


def test_a_keras_outside_the_range_tensorflow_declares() -> None:
    log = _listed("keras                3.3.3", "2.15.0")
    found = [x for x in explained(log).findings if x.cause == "keras-version"]
    assert found and "2.16" in fix_text(found[0])


def test_a_keras_that_goes_with_the_tensorflow_is_not_read_so() -> None:
    assert "keras-version" not in _causes(_listed("Keras                2.3.1", "2.1.0"))
    assert "keras-version" not in _causes(_listed("keras                2.15.0", "2.15.0"))


def test_the_pair_without_a_failure_is_for_check_not_explain() -> None:
    log = _listed("Keras                2.2.4", "2.1.0", failure="")
    assert "keras-version" not in _causes(log)


# --- an attribute only multi-backend Keras set on its tensors ----------------------------------


@pytest.mark.parametrize(
    "cls",
    [
        "Tensor",
        "KerasTensor",
        # A C type's name is printed whole (Objects/object.c prints tp_name: the module too).
        "tensorflow.python.framework.ops.EagerTensor",
    ],
)
def test_a_tensor_without_keras_shape_is_code_for_multi_backend_keras(cls: str) -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/model.py", line 51, in build\n'
        "    channels = x._keras_shape[-1]\n"
        f"AttributeError: '{cls}' object has no attribute '_keras_shape'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "keras-version"
    fix = fix_text(top)
    assert "keras==2.3.*" in fix and "K.int_shape" in fix


def test_another_attribute_a_tensor_lacks_is_not_read_so() -> None:
    log = "AttributeError: 'Tensor' object has no attribute 'numpy'\n"
    assert "keras-version" not in _causes(log)


# --- one Keras refusing the other's tensors ----------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(
            "ValueError: Unexpectedly found an instance of type `<class 'tensorflow.python."
            "keras.engine.keras_tensor.KerasTensor'>`. Expected a symbolic tensor instance.",
            id="multi-backend-is-keras-tensor",
        ),
        pytest.param(
            "ValueError: Layer conv1 was called with an input that isn't a symbolic tensor. "
            "Received type: <class 'keras.engine.keras_tensor.KerasTensor'>. Full input: "
            "[<KerasTensor: shape=(None, 8) dtype=float32>]. All inputs to the layer should "
            "be tensors.",
            id="layer-input-check",
        ),
        pytest.param(
            "TypeError: Inputs to a layer should be tensors. Got '<KerasTensor shape=(None, 3), "
            "dtype=float32, sparse=False, name=keras_tensor>' (of type <class 'keras.src."
            "backend.common.keras_tensor.KerasTensor'>) as input for layer 'dense'.",
            id="keras2-input-spec-given-a-keras3-tensor",
        ),
    ],
)
def test_a_keras_refusing_the_other_keras_tensor_is_two_stacks_mixed(message: str) -> None:
    top = top_error(explained(message + "\n"))
    assert top.cause == "keras-version"
    assert "one Keras" in fix_text(top)


def test_a_keras_refusing_a_numpy_array_is_the_codes_own_input() -> None:
    log = (
        "ValueError: Layer conv1 was called with an input that isn't a symbolic tensor. "
        "Received type: <class 'numpy.ndarray'>. Full input: [array([1.])]. All inputs to the "
        "layer should be tensors.\n"
    )
    assert "keras-version" not in _causes(log)


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(
            "ValueError: Layer dense_2 was called with an input that isn't a symbolic tensor. "
            "Received type: <class 'keras.engine.training.Model'>. Full input: "
            "[<keras.engine.training.Model object at 0x7f3b2c1d5e80>]. All inputs to the "
            "layer should be tensors.",
            id="multi-backend-layer-called-on-a-model",
        ),
        pytest.param(
            "ValueError: Unexpectedly found an instance of type `<class 'keras.layers.core."
            "Dense'>`. Expected a symbolic tensor instance.",
            id="multi-backend-an-uncalled-layer",
        ),
        pytest.param(
            "TypeError: Inputs to a layer should be tensors. Got '<keras.src.engine.functional."
            "Functional object at 0x7f0e8c2b1d50>' (of type <class 'keras.src.engine.functional."
            "Functional'>) as input for layer 'dense'.",
            id="keras2-input-spec-given-its-own-model",
        ),
    ],
)
def test_a_keras_refusing_its_own_model_where_a_tensor_belongs_is_the_codes_slip(
    message: str,
) -> None:
    assert "keras-version" not in _causes(message + "\n")


# --- a Keras release in the user's words -------------------------------------------------------


def test_a_keras_release_named_as_the_one_to_move_to() -> None:
    text = (
        "Training fails: it complained it could not import tf_utils. Downgrading keras to "
        "2.1.5 made it work.\n"
    )
    found = [x for x in explained(text).findings if x.cause == "keras-version"]
    assert found and found[0].severity is Severity.WARNING
    assert "2.1.5" in fix_text(found[0])


def test_a_keras_release_named_beside_a_tensorflow_it_does_not_go_with() -> None:
    text = "tensorflow 2.1.0\nWith keras 2.2.4 the model does not work.\n"
    assert "keras-version" in _causes(text)


def test_a_keras_release_that_goes_with_the_tensorflow_is_not_read_so() -> None:
    text = "tensorflow 2.1.0\nWith keras 2.3.1 the model does not work.\n"
    assert "keras-version" not in _causes(text)


def test_a_keras_release_named_without_a_failure_is_not_read_so() -> None:
    assert "keras-version" not in _causes("I upgraded keras to 2.3.1 and all runs well.\n")


# --- multi-backend Keras beside a TensorFlow none of its releases works with -------------------


def _multi_backend(tensorflow: str, *, framed: bool, banner: bool = True) -> str:
    frame = (
        f'  File "{_SITE}/keras/backend/tensorflow_backend.py", line 70, in get_uid\n'
        "    graph = get_graph()\n"
        if framed
        else ""
    )
    return (
        f"tensorflow           {tensorflow}\n"
        + ("Using TensorFlow backend.\n" if banner else "")
        + "Traceback (most recent call last):\n"
        '  File "/srv/app/serve.py", line 3, in predict\n'
        "    y = model.predict(x)\n"
        + frame
        + "AttributeError: '_thread._local' object has no attribute 'value'\n"
    )


def test_multi_backend_keras_framed_beside_tensorflow_24_is_an_error() -> None:
    top = top_error(explained(_multi_backend("2.4.1", framed=True, banner=False)))
    assert top.cause == "keras-version"
    # The companion table's row for TensorFlow 2.4: Keras 2.4.
    assert "keras==2.4.*" in fix_text(top)


def test_its_banner_alone_is_a_warning() -> None:
    found = [
        x
        for x in explained(_multi_backend("2.4.1", framed=False)).findings
        if x.cause == "keras-version"
    ]
    assert found and found[0].severity is Severity.WARNING


def test_multi_backend_keras_beside_a_tensorflow_its_23_release_takes_is_not_read_so() -> None:
    assert "keras-version" not in _causes(_multi_backend("2.1.0", framed=True))


def test_the_banner_without_a_failure_is_not_read_so() -> None:
    assert "keras-version" not in _causes("tensorflow           2.4.1\nUsing TensorFlow backend.\n")


# --- a library asking for tf-keras by its import name ------------------------------------------


def test_a_library_asking_for_tf_keras_by_its_import_name_is_tf_keras_missing() -> None:
    text = (
        "ImportError: detector.keras works with Keras 2 only. You have TensorFlow 2.17.0. "
        "Please install tf_keras.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-keras-missing"
    assert "TF_USE_LEGACY_KERAS=1" in fix_text(top)


def test_another_package_of_a_similar_name_is_not_read_so() -> None:
    assert "tf-keras-missing" not in _causes("ERROR: Please install tf_keras_vis first.\n")


# --- an optimizer's get_updates of the other multi-backend Keras signature ---------------------


def _get_updates_log(message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train_pose.py", line 180, in <module>\n'
        "    model.fit_generator(gen, steps_per_epoch=100)\n"
        f'  File "{_SITE}/keras/engine/training.py", line 937, in _make_train_function\n'
        "    self.total_loss)\n"
        f"TypeError: {message}\n"
    )


def test_keras_206_calling_a_get_updates_written_for_207_on() -> None:
    top = top_error(
        explained(_get_updates_log("get_updates() takes exactly 3 arguments (4 given)"))
    )
    assert top.cause == "keras-version"
    assert "2.0.7 or later" in fix_text(top)


def test_a_newer_keras_calling_the_older_get_updates() -> None:
    log = _get_updates_log("get_updates() missing 1 required positional argument: 'constraints'")
    top = top_error(explained(log))
    assert top.cause == "keras-version"
    assert "get_updates(self, loss, params)" in fix_text(top)


def test_another_methods_arity_is_not_read_so() -> None:
    log = _get_updates_log("get_config() takes 1 positional argument but 2 were given")
    assert "keras-version" not in _causes(log)


# --- training arguments on either side of Keras 2.0's renames ----------------------------------


def test_keras_1s_nb_epoch_refused_is_keras_1_code() -> None:
    top = top_error(explained("TypeError: fit() got an unexpected keyword argument 'nb_epoch'\n"))
    assert top.cause == "keras-version"
    assert "`epochs=`" in fix_text(top)


def test_keras_1s_samples_per_epoch_refused_asks_for_batches_not_the_same_number() -> None:
    text = "TypeError: fit_generator() got an unexpected keyword argument 'samples_per_epoch'\n"
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    assert "`steps_per_epoch=`" in fix_text(top)
    assert "divided by the batch size" in fix_text(top)


def test_a_rename_of_the_same_count_keeps_the_number() -> None:
    top = top_error(explained("TypeError: fit() got an unexpected keyword argument 'nb_epoch'\n"))
    assert "batch size" not in fix_text(top)


def test_keras_2s_steps_per_epoch_refused_is_keras_2_code_under_keras_1() -> None:
    text = (
        "Keras                1.2.2\n"
        "TypeError: fit_generator() got an unexpected keyword argument 'steps_per_epoch'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    assert "Install Keras 2" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "TypeError: fit() got an unexpected keyword argument 'epochs'\n", id="no-keras-shown"
        ),
        pytest.param(
            "TypeError: RandomForestClassifier.fit() got an unexpected keyword argument 'epochs'\n",
            id="another-librarys-fit",
        ),
        pytest.param(
            "keras                2.2.4\n"
            "TypeError: fit() got an unexpected keyword argument 'steps'\n",
            id="keras-2-listed",
        ),
    ],
)
def test_a_keras_2_name_refused_without_keras_1_shown_is_not_read_so(text: str) -> None:
    assert "keras-version" not in _causes(text)


def test_another_argument_fit_refuses_is_not_read_so() -> None:
    text = "TypeError: fit() got an unexpected keyword argument 'use_multiprocessing_x'\n"
    assert "keras-version" not in _causes(text)


def test_pips_own_conflict_line_is_not_the_users_words() -> None:
    text = (
        "ERROR: pip's dependency resolver does not currently take into account all the "
        "packages that are installed.\n"
        "tensorflow 2.15.1 requires keras<2.16,>=2.15.0, but you have keras 3.1.0 which is "
        "incompatible.\n"
    )
    assert not any("user's words" in x.summary for x in explained(text).findings)


def _experimental_preprocessing_asked(path: str) -> str:
    """``path``'s import of tf.keras' experimental preprocessing, which the TensorFlow lacks."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 1, in <module>\n'
        "    import keras\n"
        f'  File "{path}", line 3, in <module>\n'
        "    from tensorflow.keras.layers.experimental.preprocessing import RandomRotation\n"
        "ModuleNotFoundError: No module named "
        "'tensorflow.keras.layers.experimental.preprocessing'\n"
    )


def test_standalone_keras_asking_tensorflow_for_a_tf_keras_module_is_no_keras_3() -> None:
    # keras 2.4's own __init__.py imports from tf.keras: that Keras and the TensorFlow are of
    # different releases; "Keras 2 code under Keras 3" would name a Keras that never ran.
    log = _experimental_preprocessing_asked(f"{_SITE}/keras/__init__.py")
    assert top_error(explained(log)).cause == "keras-version"
    assert "keras3-behaviour-change" not in _causes(log)


def test_the_users_own_import_of_the_same_module_keeps_its_reading() -> None:
    log = _experimental_preprocessing_asked("/srv/app/augment.py")
    assert "keras3-behaviour-change" in _causes(log)
