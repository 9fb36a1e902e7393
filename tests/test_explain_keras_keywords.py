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


def _subclass_log(words: str, call: str, keras_file: str, head: str = "") -> str:
    """A traceback of the user's own layer class, whose ``__init__`` hands its keywords on to
    Keras' (the frame of ``keras_file``, which raised ``words``)."""
    return (
        f"{head}Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 12, in <module>\n'
        f"    {call}\n"
        '  File "/home/user/proj/blocks.py", line 8, in __init__\n'
        "    super().__init__(**kwargs)\n"
        '  File "/usr/lib/python3.11/site-packages/keras/src/'
        f'{keras_file}", line 295, in __init__\n'
        f"{words}\n"
    )


def test_a_users_own_class_named_like_a_keras_layer_is_not_dated() -> None:
    # Keras 3's Layer names the class it refused for (self.__class__.__name__): the user's
    # own LSTM, whose __init__ hands its keywords on to keras.layers.Layer, is no Keras LSTM.
    keras3 = _subclass_log(
        "ValueError: Unrecognized keyword arguments passed to LSTM: {'time_major': False}",
        "x = LSTM(64, time_major=False)(x)",
        "layers/layer.py",
    )
    keras2 = _subclass_log(
        "TypeError: ('Keyword argument not understood:', 'use_cudnn')",
        "x = LSTM(64, use_cudnn=False)(x)",
        "engine/base_layer.py",
        "tensorflow 2.15.0\n",
    )
    for text in (keras3, keras2):
        assert not [x for x in explained(text).findings if "` takes `" in x.detail]


def test_keras_2_words_date_the_call_whose_parentheses_hold_the_keyword() -> None:
    # Bidirectional is handed use_cudnn, not the LSTM written inside it (no Bidirectional of
    # any Keras takes it); an LSTM(..., use_cudnn=) inside another call is the LSTM's.
    wrapped = _keras2_words(
        "x = layers.Bidirectional(layers.LSTM(64), use_cudnn=False)(x)",
        "use_cudnn",
        "tensorflow 2.9.1\n",
    )
    assert not [x for x in explained(wrapped).findings if "` takes `" in x.detail]
    inner = _keras2_words(
        "x = layers.Bidirectional(layers.LSTM(64, use_cudnn=False))(x)",
        "use_cudnn",
        "tensorflow 2.9.1\n",
    )
    (found,) = [x for x in explained(inner).findings if "takes `use_cudnn`" in x.detail]
    assert "`keras.layers.LSTM` takes" in found.detail


def test_keras_2_words_beside_keras_3_are_tf_keras_not_an_older_keras() -> None:
    # TensorFlow 2.16 with keras 3.3 installed: Keras 2's words come from tf-keras
    # (TF_USE_LEGACY_KERAS), whose LSTM takes no use_cudnn in any release; asking for the
    # keras>=3.2 already installed would change nothing.
    text = _keras2_words(
        "x = tf.keras.layers.LSTM(64, use_cudnn=False)(x)",
        "use_cudnn",
        "tensorflow 2.16.1\nkeras 3.3.3\n",
    )
    assert not [x for x in explained(text).findings if "keras>=3" in fix_text(x)]


def test_keras_2_words_with_no_release_shown_say_tf_keras_may_have_raised_them() -> None:
    # No version in the log: a Keras 2 may be TensorFlow 2.16+'s tf-keras under
    # TF_USE_LEGACY_KERAS, which installing the Keras 3 the keyword needs leaves in place.
    text = _keras2_words("x = layers.LSTM(64, use_cudnn=False)(x)", "use_cudnn")
    (found,) = [x for x in explained(text).findings if "takes `use_cudnn`" in x.detail]
    assert "keras>=3.2" in fix_text(found)
    assert "TF_USE_LEGACY_KERAS is set, unset it" in fix_text(found)
    # A TensorFlow shown before 2.16 has no such switch: no word of it.
    shown = _keras2_words(
        "x = layers.LSTM(64, use_cudnn=False)(x)", "use_cudnn", "tensorflow 2.9.1\n"
    )
    (found,) = [x for x in explained(shown).findings if "takes `use_cudnn`" in x.detail]
    assert "TF_USE_LEGACY_KERAS" not in fix_text(found)


def test_a_dated_keyword_is_not_read_as_a_name_the_keras_package_lacks() -> None:
    # The keyword's own dating names the Keras it needs: no second reading of a keras
    # package name missing ("A name of the standalone keras package missing ...").
    text = _keras2_words(
        "x = layers.LSTM(64, use_cudnn=False)(x)", "use_cudnn", "tensorflow 2.9.1\n"
    )
    findings = explained(text).findings
    assert [x for x in findings if "takes `use_cudnn`" in x.detail]
    assert not [x for x in findings if x.cause == "keras-version"]


# --- a model's methods (keras.Model.compile, .fit, ... rows of the listings) ------------------


def _keras_filtered_log(call: str, message: str, head: str = "") -> str:
    """The user's call of a model's method and the frame of Keras' traceback filter it passed
    through (keras/src/utils/traceback_utils.py, which re-raises), then ``message``."""
    return (
        f"{head}Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 12, in <module>\n'
        f"    {call}\n"
        '  File "/usr/lib/python3.11/site-packages/keras/src/utils/traceback_utils.py", '
        "line 122, in error_handler\n"
        "    raise e.with_traceback(filtered_tb) from None\n"
        f"{message}\n"
    )


def test_a_compile_keyword_keras_3_dropped_is_the_keras_3_change() -> None:
    # keras 2.6.0 to 2.15.0 keras/engine/training.py: Model._validate_compile pops
    # experimental_run_tf_function from compile's **kwargs; keras 3.0.5
    # keras/src/trainers/trainer.py: Trainer.compile takes no **kwargs (read from the wheels).
    text = _keras_filtered_log(
        'model.compile(optimizer="adam", loss="mse", experimental_run_tf_function=False)',
        "TypeError: Trainer.compile() got an unexpected keyword argument "
        "'experimental_run_tf_function'",
    )
    (found,) = [
        x for x in explained(text).findings if "takes `experimental_run_tf_function`" in x.detail
    ]
    assert found.cause == "keras3-behaviour-change" and found.severity.value == "error"
    assert "`keras.Model.compile` takes" in found.detail and "Keras 2.6 to 2.15" in found.detail
    assert "`experimental_run_tf_function=`" in fix_text(found)
    assert "TF_USE_LEGACY_KERAS" in fix_text(found)


def test_a_keyword_no_keras_release_took_is_left_unexplained() -> None:
    # A misspelling: no release's compile takes `optimiser`.
    text = _keras_filtered_log(
        'model.compile(optimiser="adam", loss="mse")',
        "TypeError: Trainer.compile() got an unexpected keyword argument 'optimiser'",
    )
    assert not [x for x in explained(text).findings if x.cause]


def test_a_bare_fit_with_nothing_keras_about_it_is_not_dated() -> None:
    # scikit-learn's estimators have fit too; Python before 3.10 prints no class.
    text = one_frame_log(
        "TypeError: fit() got an unexpected keyword argument 'validation_batch_size'",
        "clf.fit(X, y, validation_batch_size=64)",
    )
    assert not [x for x in explained(text).findings if "takes `validation_batch_size`" in x.detail]
    assert not [x for x in explained(text).findings if x.cause]


def test_a_bare_method_called_on_a_model_under_keras_frames_is_dated() -> None:
    # Python 3.9 prints no class; Keras' traceback filter's frame and `model.save_weights(`
    # say it is a Keras model's, TensorFlow 2.15 that its Keras is 2.15. keras 2.15.0
    # keras/src/engine/training.py Model.save_weights takes no max_shard_size; keras 3.x's
    # keras/src/models/model.py takes it from a later release (read from the wheels).
    text = _keras_filtered_log(
        'model.save_weights("w.weights.h5", max_shard_size=2)',
        "TypeError: save_weights() got an unexpected keyword argument 'max_shard_size'",
        "tensorflow 2.15.1\n",
    ).replace("python3.11", "python3.9")
    (found,) = [x for x in explained(text).findings if "takes `max_shard_size`" in x.detail]
    assert found.cause == "api-removed" and "`keras.Model.save_weights` takes" in found.detail
    assert "Keras 2.15 is older" in found.detail
