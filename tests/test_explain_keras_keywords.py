"""A keyword Keras refused of a layer, dated by the parameters read from each Keras release's
wheel (tfdoctor/scan/keras_signature_lines.txt): taken only by earlier releases (the keyword
left), or only by later ones (the code needs a later Keras)."""

from __future__ import annotations

from tests.explaining import explained, fix_text, one_frame_log


def _keras2_words(code: str, kwarg: str, head: str = "") -> str:
    return one_frame_log(f"TypeError: ('Keyword argument not understood:', '{kwarg}')", code, head)


def test_a_keyword_only_a_later_keras_takes_asks_for_that_keras() -> None:
    # keras 2.9.0 to 2.15.0 keras/layers/rnn/lstm.py: no use_cudnn; keras 3.2.1's LSTM takes
    # use_cudnn="auto" (read from the wheels). TensorFlow 2.9 runs keras 2.9.
    text = _keras2_words(
        "x = layers.LSTM(64, use_cudnn=False)(x)", "use_cudnn", "tensorflow 2.9.1\n"
    )
    (found,) = [x for x in explained(text).findings if "takes `use_cudnn`" in x.detail]
    assert found.cause == "api-removed" and found.severity.value == "error"
    assert "Keras 3.2 to 3.15" in found.detail and "Keras 2.9 is older" in found.detail
    assert "keras>=3.2" in fix_text(found)


def test_a_keyword_keras_3_dropped_is_the_keras_3_change() -> None:
    # keras 2.6.0 to 2.15.0 LSTM(..., time_major=False); no Keras 3 LSTM takes it, and Keras
    # 3's Layer refuses what is left of **kwargs in these words.
    text = one_frame_log(
        "ValueError: Unrecognized keyword arguments passed to LSTM: {'time_major': False}",
        "model.add(LSTM(64, time_major=False))",
    )
    (found,) = [x for x in explained(text).findings if "takes `time_major`" in x.detail]
    assert found.cause == "keras3-behaviour-change"
    assert "Keras 2.6 to 2.15" in found.detail
    assert "`time_major=`" in fix_text(found) and "TF_USE_LEGACY_KERAS" in fix_text(found)


def test_a_keyword_the_release_shown_takes_is_not_dated() -> None:
    # TensorFlow 2.9's keras 2.9 LSTM takes time_major: refused for another reason.
    text = _keras2_words(
        "x = layers.LSTM(64, time_major=True)(x)", "time_major", "tensorflow 2.9.1\n"
    )
    assert not [x for x in explained(text).findings if "takes `time_major`" in x.detail]


def test_a_class_no_keras_has_is_not_dated() -> None:
    text = one_frame_log(
        "ValueError: Unrecognized keyword arguments passed to MyBlock: {'time_major': False}",
        "x = MyBlock(64, time_major=False)(x)",
    )
    assert not [x for x in explained(text).findings if "takes `time_major`" in x.detail]


def test_a_keyword_a_later_keras_2_brought_asks_for_its_tensorflow() -> None:
    # keras 2.11.0 keras/layers/normalization/batch_normalization.py: no synchronized; 2.12.0's
    # BatchNormalization takes it (read from the wheels). Keras 2 comes with the TensorFlow
    # line of its number: the fix is that TensorFlow, not a keras of another line.
    text = _keras2_words(
        "x = tf.keras.layers.BatchNormalization(synchronized=True)(x)",
        "synchronized",
        "tensorflow 2.9.1\n",
    )
    (found,) = [x for x in explained(text).findings if "takes `synchronized`" in x.detail]
    assert found.cause == "api-removed" and "Keras 2.12 to 3.15" in found.detail
    assert "tensorflow==2.12" in fix_text(found) and "keras>=" not in fix_text(found)
