"""What explain reads of a Keras of another release than the TensorFlow or the model file
beside it: multi-backend Keras refusing TensorFlow 1's session under TensorFlow 2, Keras 2
refusing an argument a saved model's configuration carries, and standalone Keras reaching
into TensorFlow's private tree. Every log here is written for the test, a variant of its
family, with a near miss that must not fire."""

from __future__ import annotations

import pytest

from tests.explaining import explained as _explain
from tests.explaining import fix_text as _fix
from tests.explaining import top_error
from tfdoctor.findings import Finding, Severity


def _causes(text: str) -> set[str]:
    """The causes of the findings at warning or above that explain gives for ``text``."""
    return {
        x.cause or "" for x in _explain(text).findings if x.severity.rank >= Severity.WARNING.rank
    }


def _one(text: str, cause: str) -> Finding:
    """The finding of ``cause`` explain gives for ``text``."""
    (found,) = [x for x in _explain(text).findings if x.cause == cause]
    return found


# --- multi-backend Keras' session under TensorFlow 2 -------------------------------------------


def _session_log(python: str, function: str = "get_session") -> str:
    return (
        "Using TensorFlow backend.\n"
        "Traceback (most recent call last):\n"
        '  File "detect.py", line 22, in __init__\n'
        f"    self.sess = K.{function}()\n"
        f'  File "/opt/envs/det/lib/python{python}/site-packages/keras/backend/'
        f'tensorflow_backend.py", line 379, in {function}\n'
        f"    '`{function}` is not available '\n"
        f"RuntimeError: `{function}` is not available when using TensorFlow 2.0.\n"
    )


def test_keras_refusing_its_session_under_tensorflow_2_is_tensorflow_1_code() -> None:
    top = top_error(_explain(_session_log("3.7")))
    assert top.cause == "api-moved-to-compat-v1"
    fix = _fix(top)
    assert "tf.compat.v1.keras.backend.get_session" in fix
    # Python 3.7 has TensorFlow 1.15's wheels: the code can also run as written.
    assert '"tensorflow==1.15.5" "keras==2.3.*"' in fix


def test_set_session_pasted_alone_names_its_own_compat_v1_home() -> None:
    line = "RuntimeError: `set_session` is not available when using TensorFlow 2.0.\n"
    top = top_error(_explain(line))
    assert top.cause == "api-moved-to-compat-v1"
    assert "tf.compat.v1.keras.backend.set_session" in _fix(top)
    # Which Python runs is not shown: TensorFlow 1.15 is said, not installed.
    assert top.fix is not None and top.fix.commands == ()


def test_no_tensorflow_1_is_installed_on_a_python_it_has_no_wheel_for() -> None:
    top = top_error(_explain(_session_log("3.9")))
    assert top.fix is not None
    assert top.fix.commands == ()
    assert "no wheel for Python 3.9" in top.fix.text


def test_keras_refusing_its_session_under_tensorflow_1_eager_is_not_tensorflow_2() -> None:
    # The same function's other guard: TensorFlow 1 with eager execution turned on.
    line = "RuntimeError: `get_session` is not available when TensorFlow is executing eagerly.\n"
    assert "api-moved-to-compat-v1" not in _causes(line)


# --- an argument of a saved model's configuration --------------------------------------------


_SITE = "/home/user/.venv/lib/python3.6/site-packages"


def _keyword_log(frames: str, argument: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        + frames
        + f'  File "{_SITE}/keras/engine/base_layer.py", line 128, in __init__\n'
        "    raise TypeError('Keyword argument not understood:', kwarg)\n"
        f"TypeError: ('Keyword argument not understood:', '{argument}')\n"
    )


_LOADING = (
    '  File "predict.py", line 8, in <module>\n'
    "    model = load_model('shapes.h5')\n"
    f'  File "{_SITE}/keras/engine/saving.py", line 419, in load_model\n'
    "    model = _deserialize_model(f, custom_objects, compile)\n"
    f'  File "{_SITE}/keras/engine/network.py", line 1032, in from_config\n'
    "    process_layer(layer_data)\n"
    f'  File "{_SITE}/keras/layers/convolutional.py", line 484, in __init__\n'
    "    **kwargs)\n"
)
_BUILDING = (
    '  File "model.py", line 14, in <module>\n'
    "    x = Conv2D(32, 3, padding_mode='reflect')(inputs)\n"
    f'  File "{_SITE}/keras/layers/convolutional.py", line 484, in __init__\n'
    "    **kwargs)\n"
)


def test_an_argument_keras_refuses_while_loading_a_model_is_a_newer_keras_file() -> None:
    top = top_error(_explain(_keyword_log(_LOADING, "data_format")))
    assert top.cause == "model-from-newer-keras"
    assert "`data_format`" in _fix(top) and "keras_version" in _fix(top)


def test_the_refusal_pasted_alone_is_most_likely_a_newer_keras_file() -> None:
    line = "TypeError: ('Keyword argument not understood:', 'negative_slope')\n"
    found = _one(line, "model-from-newer-keras")
    assert found.severity is Severity.WARNING
    assert "no frames" in found.detail


def test_an_argument_the_codes_own_layer_call_passes_is_not_a_model_file() -> None:
    assert "model-from-newer-keras" not in _causes(_keyword_log(_BUILDING, "padding_mode"))


def test_a_keras_1_argument_pasted_alone_is_keras_1_code_not_a_model_file() -> None:
    line = "TypeError: ('Keyword argument not understood:', 'W_regularizer')\n"
    assert "model-from-newer-keras" not in _causes(line)


# --- standalone Keras reaching into TensorFlow's private tree ---------------------------------


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        pytest.param(
            "from tensorflow.python.keras.utils import tf_utils",
            "ImportError: cannot import name 'tf_utils'",
            id="python36-words",
        ),
        pytest.param(
            "from tensorflow.python.keras.utils.generic_utils import "
            "populate_dict_with_module_objects",
            "ImportError: cannot import name 'populate_dict_with_module_objects' from "
            "'tensorflow.python.keras.utils.generic_utils' (/srv/env/lib/python3.8/"
            "site-packages/tensorflow/python/keras/utils/generic_utils.py)",
            id="python38-words",
        ),
    ],
)
def test_standalone_keras_missing_a_private_tensorflow_name_is_a_keras_of_another_release(
    statement: str, message: str
) -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 2, in <module>\n'
        "    import keras\n"
        '  File "/srv/env/lib/python3.8/site-packages/keras/backend/tensorflow_backend.py", '
        "line 13, in <module>\n"
        f"    {statement}\n"
        f"{message}\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "keras-version"
    # scan's advice to import the public API is for Keras' authors, not its user.
    assert "api-removed" not in _causes(log)


def test_the_codes_own_import_of_a_private_keras_name_keeps_scans_advice() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 4, in <module>\n'
        "    from tensorflow.python.keras.utils import tf_utils\n"
        "ImportError: cannot import name 'tf_utils' from 'tensorflow.python.keras.utils'\n"
    )
    found = _causes(log)
    assert "api-removed" in found and "keras-version" not in found
