"""Keras' Sequential refusing a layer of the other Keras package (the standalone keras beside
tensorflow.keras), read from Keras' own words (``Sequential.add``: "The added layer must be an
instance of class Layer. Found: ..." in Keras 2 and TensorFlow's copy, "... Received: layer=...
of type ..." in Keras 2's later releases): keras-standalone-mixed-with-tf-keras, whose fix
imports every Keras name from one Keras and reinstalls nothing."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Finding

_WORDS = "TypeError: The added layer must be an instance of class Layer"


def _mixed(text: str) -> list[Finding]:
    return [
        x for x in explained(text).findings if x.cause == "keras-standalone-mixed-with-tf-keras"
    ]


@pytest.mark.parametrize(
    "message, library",
    [
        pytest.param(
            f"{_WORDS}. Found: <audiolib.layers.Spectrogram object at 0x7f01>", "audiolib"
        ),
        pytest.param(
            f"{_WORDS}. Received: layer=<seqlib.blocks.Block object at 0x7f02> of type "
            "<class 'seqlib.blocks.Block'>.",
            "seqlib",
        ),
        pytest.param(_WORDS, None, id="the-object-cut-off"),
    ],
)
def test_a_layer_keras_refuses_is_read_as_two_kerases_mixed(
    message: str, library: str | None
) -> None:
    found = _mixed(message + "\n")
    assert len(found) == 1
    fix = fix_text(found[0])
    assert "tensorflow.keras" in fix and "pip install" not in fix
    # From TensorFlow 2.16 on, Keras 2 is tf-keras beside the keras package, Keras 3.
    assert "from tf_keras import" in fix
    assert library is None or f"{library}'s" in fix


@pytest.mark.parametrize(
    "found",
    [
        'Tensor("dense_1/Relu:0", shape=(?, 10), dtype=float32)',
        "KerasTensor(type_spec=TensorSpec(shape=(None, 4), dtype=tf.float32))",
        "<function relu at 0x7f03>",
        "None",
        # The class itself (`model.add(Dense)`): Keras 2.2's str() of it, and Keras 2.7's.
        "<class 'keras.layers.core.Dense'>",
    ],
)
def test_an_object_that_is_no_layer_at_all_is_not_read_as_two_kerases(found: str) -> None:
    """A tensor, a function or None added to a model is the code's own mistake."""
    assert not _mixed(f"{_WORDS}. Found: {found}\n")


def test_a_class_passed_for_a_layer_is_not_read_as_two_kerases() -> None:
    """Keras 2.7 and later name the object and its type: a class is of type ``type``."""
    message = (
        f"{_WORDS}. Received: layer=<class 'keras.layers.core.dense.Dense'> of type "
        "<class 'type'>.\n"
    )
    assert not _mixed(message)
