"""A model converted from tf.keras that a loader cannot rebuild for a class the saving Keras
wrote: TensorFlow.js' layers API ("Unknown layer: X. This may be due to one of the following
reasons", tfjs-layers/src/utils/generic_utils.ts) is told by its own words even where no file
of its package is named, and gets TensorFlow.js' fix; a Python Keras gets the Keras one. The
classes: Functional (a newer tf.keras's) and BatchNormalizationV1 (TensorFlow 1.13's HDF5
writer, tensorflow/tfjs#1334). The logs are written here in the programs' words.
"""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity

_REASONS = (
    "1. The layer is defined in Python, in which case it needs to be ported to TensorFlow.js "
    "or your JavaScript code.\n"
    "2. The custom layer is defined in JavaScript, but is not registered properly with "
    "tf.serialization.registerClass().\n"
    "    at new e (errors.ts:48)\n"
    "    at deserializeKerasObject (generic_utils.ts:242)\n"
)


def _tfjs(cls: str) -> str:
    return (
        f"Uncaught (in promise) Error: Unknown layer: {cls}. This may be due to one of the "
        "following reasons:\n" + _REASONS
    )


def test_tensorflow_js_refusing_functional_gets_its_own_fix() -> None:
    top = top_error(explained(_tfjs("Functional")))
    assert top.cause == "model-from-newer-keras"
    text = fix_text(top)
    assert "@tensorflow/tfjs" in text and "functional model" in text
    assert "keras_version" not in text  # no Keras release loads it in the browser


def test_tensorflow_js_refusing_batchnormalizationv1_converts_again() -> None:
    # No TensorFlow.js registers the class (tfjs-layers' normalization.ts registers
    # BatchNormalization alone); the tensorflowjs converter renames it (keras_h5_conversion.py's
    # _CLASS_NAME_MAP), so updating TensorFlow.js changes nothing.
    top = top_error(explained(_tfjs("BatchNormalizationV1")))
    assert top.cause == "model-from-newer-keras"
    assert top.fix is not None
    assert "1.13" in top.fix.text
    assert "pip install -U tensorflowjs" in top.fix.commands
    assert any(
        c.startswith("tensorflowjs_converter --input_format keras ") for c in top.fix.commands
    )
    assert not [c for c in top.fix.commands if "@tensorflow/tfjs" in c]


def test_a_python_keras_refusing_batchnormalizationv1_loads_with_tf_keras() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "convert.py", line 9, in <module>\n'
        "    model = load_model('resnet.h5')\n"
        '  File "/usr/lib/python3.6/site-packages/keras/utils/generic_utils.py", line 138, '
        "in deserialize_keras_object\n"
        "    ': ' + class_name)\n"
        "ValueError: Unknown layer: BatchNormalizationV1\n"
    )
    top = top_error(explained(log))
    assert top.cause == "model-from-newer-keras"
    text = fix_text(top)
    # TensorFlow 1.13's misnomer, which tf.keras's layer table maps back: no newer Keras.
    assert "tf.keras" in text and "custom_objects={'BatchNormalizationV1'" in text
    assert "saved by a newer Keras" not in text and "keras_version" not in text
    assert "@tensorflow/tfjs" not in text


@pytest.mark.parametrize("cls", ["BatchNormalizationV12", "ResidualBlockV1", "MyFunctional"])
def test_a_class_of_the_codes_own_is_not_a_newer_keras(cls: str) -> None:
    findings = explained(_tfjs(cls)).findings
    assert not [
        f
        for f in findings
        if f.cause == "model-from-newer-keras" and f.severity.rank >= Severity.WARNING.rank
    ]
