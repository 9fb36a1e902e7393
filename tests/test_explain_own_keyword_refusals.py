"""A keyword the user's own code passes, refused by TensorFlow's own code under a TensorFlow
1.x the log shows: the code was written for a later TensorFlow (a warning, with what tells it
from a keyword of the code's own making). A function of the code's own that tf.function called
back, a TensorFlow 2 release shown, or none shown, stay outside this reading."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Severity

_SITE = "/opt/py/lib/python3.6/site-packages"
_ECHO_113 = (
    '$ python -c "import tensorflow as tf; print(tf.GIT_VERSION, tf.VERSION)"\n'
    "v1.13.1-0-g6612da8951 1.13.1\n"
)


def _trace(frames: list[tuple[str, str, str]], error: str) -> str:
    """A traceback of ``frames`` (path, function, source line), outermost first."""
    body = "".join(
        f'  File "{path}", line {20 + i}, in {func}\n    {code}\n'
        for i, (path, func, code) in enumerate(frames)
    )
    return f"Traceback (most recent call last):\n{body}{error}\n"


_LAYER_CALL = _trace(
    [
        ("/work/net/run.py", "evaluate", "out = net(batch, training=False)"),
        (
            f"{_SITE}/tensorflow/python/keras/engine/base_layer.py",
            "__call__",
            "outputs = self.call(inputs, *args, **kwargs)",
        ),
    ],
    "TypeError: call() got an unexpected keyword argument 'training'",
)
_KERAS_WORDS = _trace(
    [
        ("/work/net/model.py", "build", "head = Dense(8, kernel_quantizer='int8')"),
        (
            f"{_SITE}/tensorflow/python/keras/engine/base_layer.py",
            "__init__",
            "raise TypeError('Keyword argument not understood:', kwarg)",
        ),
    ],
    "TypeError: ('Keyword argument not understood:', 'kernel_quantizer')",
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_ECHO_113 + _LAYER_CALL, id="handed-on-by-keras-call"),
        pytest.param(">>> tf.__version__\n'1.12.0'\n" + _KERAS_WORDS, id="keras-words"),
    ],
)
def test_a_keyword_the_code_passes_refused_by_tensorflow_1_is_code_for_a_later_release(
    text: str,
) -> None:
    report = explained(text)
    found = [x for x in report.findings if x.cause == "tf-too-old-for-code"]
    assert len(found) == 1 and found[0].severity is Severity.WARNING
    assert "pip show tensorflow" in found[0].detail
    assert "requirements" in fix_text(found[0])


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(">>> tf.__version__\n'2.4.1'\n" + _LAYER_CALL, id="tensorflow-2-shown"),
        pytest.param(_LAYER_CALL, id="no-release-shown"),
        pytest.param(
            _ECHO_113
            + _trace(
                [
                    ("/work/net/run.py", "main", "loss = step(batch, training=True)"),
                    (
                        f"{_SITE}/tensorflow/python/eager/def_function.py",
                        "__call__",
                        "return self._python_function(*args, **kwargs)",
                    ),
                ],
                "TypeError: step() got an unexpected keyword argument 'training'",
            ),
            id="own-function-called-back",
        ),
        pytest.param(
            _ECHO_113
            + _trace(
                [
                    ("/work/net/run.py", "main", "out = net(batch)"),
                    (
                        f"{_SITE}/tensorflow/python/keras/engine/base_layer.py",
                        "__call__",
                        "outputs = self.call(inputs, *args, **kwargs)",
                    ),
                ],
                "TypeError: call() got an unexpected keyword argument 'training'",
            ),
            id="keyword-not-on-the-codes-line",
        ),
    ],
)
def test_other_refusals_are_not_read_as_code_for_a_later_release(text: str) -> None:
    assert all(x.cause != "tf-too-old-for-code" for x in explained(text).findings)


def test_keras_words_raised_by_tensorflow_under_python_2_bound_the_release() -> None:
    # No release shown: Python 2.7's folder bounds TensorFlow to the last release with its
    # wheels (the matrix); the library frames between are cut from the paste.
    text = (
        '  File "train.py", line 12, in <module>\n'
        "    launch(config)\n"
        "...\n"
        'venv/lib/python2.7/site-packages/tensorflow/python/layers/base.py", line 98, '
        "in __init__\n"
        "    raise TypeError('Keyword argument not understood:', kwarg)\n"
        "TypeError: ('Keyword argument not understood:', 'axis_name')\n"
    )
    found = [x for x in explained(text).findings if x.cause == "tf-too-old-for-code"]
    assert len(found) == 1 and found[0].severity is Severity.WARNING
    assert "Python 2.7" in found[0].detail and "or older" in found[0].detail
    assert "does not show the line" in found[0].detail
    # An upgrade past the last release with Python 2.7's wheels takes a Python 3.
    assert "new environment of a Python 3" in fix_text(found[0])


def test_keras_words_raised_by_tensorflow_under_python_3_alone_are_not_read() -> None:
    text = _KERAS_WORDS.replace("python3.6", "python3.11")
    assert all(x.cause != "tf-too-old-for-code" for x in explained(text).findings)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_KERAS_WORDS.replace("tensorflow/python/keras/", "keras/"), id="keras-words"),
        pytest.param(_LAYER_CALL.replace("tensorflow/python/keras/", "keras/"), id="handed-on"),
    ],
)
def test_the_standalone_keras_refusing_a_keyword_is_no_tensorflow_release(text: str) -> None:
    """Beside a TensorFlow 1.x, the keras package's own frame is that Keras' release: an
    upgrade of TensorFlow does not change what it takes."""
    assert all(x.cause != "tf-too-old-for-code" for x in explained(_ECHO_113 + text).findings)


@pytest.mark.parametrize(
    ("code", "frames", "error"),
    [
        (
            "x = tf.layers.conv2d(x, 64, 3, padding='same', foo_rate=2)",
            [(f"{_SITE}/tensorflow/python/layers/convolutional.py", "conv2d", "pass")],
            "TypeError: conv2d() got an unexpected keyword argument 'foo_rate'",
        ),
        (
            "tf.logging.set_verbosity(tf.logging.INFO, foo=1)",
            [],
            "TypeError: set_verbosity() got an unexpected keyword argument 'foo'",
        ),
        (
            # A keyword of the user's own making (sample_weight misspelt) after workers=, which
            # a Keras 3 rule is about: Python names the first keyword it refused, so this fit
            # took workers.
            "model.fit(x, y, epochs=3, workers=4, sample_weights=w)",
            [],
            "TypeError: fit() got an unexpected keyword argument 'sample_weights'",
        ),
    ],
    ids=["tf-layers-frame", "tf-logging-no-frame", "another-keyword-of-the-line"],
)
def test_a_keyword_refused_is_not_read_as_another_use_of_its_line(
    code: str, frames: list[tuple[str, str, str]], error: str
) -> None:
    # Under TensorFlow 2 a name it removed raises AttributeError before any call: a call of it
    # that got as far as refusing a keyword ran on a release that has the name. A rule about
    # another keyword of the line is not the one Python refused.
    report = explained(_trace([("/work/net/model.py", "build", code), *frames], error))
    assert not [
        x
        for x in report.findings
        if x.cause in ("api-moved-to-compat-v1", "keras3-behaviour-change")
    ], [(x.id, x.summary) for x in report.findings]
