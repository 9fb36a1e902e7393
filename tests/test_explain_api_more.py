"""TensorFlow and Keras names and arguments of another era, read with scan's knowledge: Keras
1's Merge layer (in code and in a saved model), Keras names that moved (keras.applications'
helpers, Keras 1's names, multi-backend Keras' backend modules and tf.Session functions), the
arguments TensorFlow 1.0 and 1.5 renamed to NumPy's names (``axis``, ``keepdims``) refused
by an older TensorFlow, and TensorFlow 0.x's argument order of tf.split and tf.concat."""

from __future__ import annotations

import pytest

from tests.explaining import all_causes, explained, fix_text, top_error
from tfdoctor.findings import Severity


def _traceback(message: str, code: str, path: str = "/home/user/proj/train.py") -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 42, in build\n'
        f"    {code}\n"
        f"{message}\n"
    )


# --- Keras 1's Merge ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "ImportError: cannot import name 'Merge' from 'keras.layers' "
            "(/usr/lib/python3.7/site-packages/keras/layers/__init__.py)",
            id="import-from-keras-layers",
        ),
        pytest.param(
            _traceback("ImportError: cannot import name Merge", "from keras.layers import Merge"),
            id="python2-words-with-the-statement",
        ),
        pytest.param(
            _traceback(
                "AttributeError: module 'keras.layers' has no attribute 'Merge'",
                "merged = keras.layers.Merge([left, right], mode='concat')",
            ),
            id="attribute",
        ),
    ],
)
def test_keras1_merge_in_code_is_removed_with_the_merge_layers_as_fix(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "Concatenate" in fix and "functional API" in fix
    assert 'pip install "keras==2.1.6"' in fix


def test_a_saved_model_naming_merge_was_saved_by_an_older_keras() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "predict.py", line 8, in <module>\n'
        "    model = load_model('emotions.h5')\n"
        '  File "/usr/lib/python3.6/site-packages/keras/utils/generic_utils.py", line 138, '
        "in deserialize_keras_object\n"
        "    ': ' + class_name)\n"
        "ValueError: Unknown layer: Merge\n"
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    assert "saved by an older Keras" in top.detail
    assert "keras==2.1.6" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # The code's own layer class, which custom_objects supplies: no release lacks it.
        pytest.param("ValueError: Unknown layer: AttentionWithContext", id="custom-layer"),
        # Keras 3's Functional, read by its own signature (model-from-newer-keras).
        pytest.param("ValueError: Unknown layer: Functional", id="functional"),
        # Keras 2's merge layers are there: the name is not Merge.
        pytest.param(
            "ImportError: cannot import name 'Merging' from 'keras.layers' "
            "(/usr/lib/python3.7/site-packages/keras/layers/__init__.py)",
            id="another-name",
        ),
    ],
)
def test_near_misses_are_not_the_merge_rule(text: str) -> None:
    for finding in explained(text).findings:
        assert "keras==2.1.6" not in fix_text(finding)


@pytest.mark.parametrize("quote", ["'", ""], ids=["python36-quoted", "python2-bare"])
def test_a_bare_import_refusal_of_merge_alone_is_the_merge_rule_as_a_warning(quote: str) -> None:
    # Python 2's and 3.6's words name no module: the only rule whose import of the name fails.
    text = f"ImportError: cannot import name {quote}Merge{quote}\n"
    (found,) = [f for f in explained(text).findings if f.cause == "api-removed"]
    assert found.severity.value == "warning"
    assert "Concatenate" in fix_text(found) and "names no module" in found.detail


@pytest.mark.parametrize(
    "text",
    [
        # A common word (any package's `merge`), or a name no import-error rule holds.
        pytest.param("ImportError: cannot import name 'merge'\n", id="lower-case-word"),
        pytest.param("ImportError: cannot import name 'MergeLayer'\n", id="no-rule"),
        # A frame shows whose import it was: the bare name is not read alone.
        pytest.param(
            _traceback("ImportError: cannot import name Merge", "from mylib.ops import Merge"),
            id="another-package-shown",
        ),
    ],
)
def test_other_bare_import_refusals_are_not_the_merge_rule(text: str) -> None:
    for finding in explained(text).findings:
        assert "keras==2.1.6" not in fix_text(finding)


# --- Keras names that moved: keras.applications' helpers (keras_applications), Keras 1's ---

_OBTAIN = "from keras_applications.imagenet_utils import _obtain_input_shape"
_MOBILENET = ("from keras.layers import DepthwiseConv2D", "ReLU(6.)", "keras==2.1.6")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        pytest.param(
            "ImportError: cannot import name '_obtain_input_shape' from "
            "'keras.applications.imagenet_utils' "
            "(/usr/lib/python3.7/site-packages/keras/applications/imagenet_utils.py)",
            (_OBTAIN, "keras==2.2.0"),
            id="obtain-input-shape-python37-words",
        ),
        pytest.param(
            _traceback(
                "ImportError: cannot import name _obtain_input_shape",
                "from keras.applications.imagenet_utils import _obtain_input_shape",
            ),
            (_OBTAIN, "keras==2.2.0"),
            id="obtain-input-shape-python2-words",
        ),
        pytest.param(
            "ImportError: cannot import name 'relu6' from 'keras.applications.mobilenet' "
            "(/usr/lib/python3.6/site-packages/keras/applications/mobilenet.py)",
            _MOBILENET,
            id="mobilenet-relu6",
        ),
        pytest.param(
            _traceback(
                "AttributeError: module 'keras.applications.mobilenet' has no attribute 'relu6'",
                "model = load_model('net.h5', custom_objects={'relu6': mobilenet.relu6})",
            ),
            _MOBILENET,
            id="mobilenet-custom-objects",
        ),
        pytest.param(
            _traceback(
                "ImportError: cannot import name DepthwiseConv2D",
                "from keras.applications.mobilenet import DepthwiseConv2D",
            ),
            _MOBILENET,
            id="mobilenet-depthwise-python2-words",
        ),
        # Keras 1's names that Keras 2 renamed.
        pytest.param(
            "ModuleNotFoundError: No module named 'keras.utils.visualize_util'\n",
            ("from keras.utils import plot_model",),
            id="keras1-visualize-util",
        ),
        pytest.param(
            "ModuleNotFoundError: No module named 'keras.objectives'\n",
            ("from keras.losses import",),
            id="keras1-objectives",
        ),
        pytest.param(
            "ImportError: cannot import name 'Deconvolution2D' from 'keras.layers' "
            "(/usr/lib/python3.8/site-packages/keras/layers/__init__.py)\n",
            ("keras.layers.Conv2DTranspose",),
            id="deconvolution2d",
        ),
    ],
)
def test_keras_names_that_moved_name_their_new_homes(text: str, words: tuple[str, ...]) -> None:
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert all(word in fix for word in words), fix


def test_a_bare_refusal_of_obtain_input_shape_is_its_rule_as_a_warning() -> None:
    # A private name with an underscore, pasted alone: only one rule's import fails for it.
    text = "ImportError: cannot import name '_obtain_input_shape'\n"
    (found,) = [f for f in explained(text).findings if f.cause == "api-removed"]
    assert found.severity.value == "warning"
    assert _OBTAIN in fix_text(found)


@pytest.mark.parametrize(
    ("statement", "word"),
    [
        # A model zoo's own helpers of the same names: no Keras release is in question.
        pytest.param(
            "from zoo.utils import _obtain_input_shape", "keras_applications", id="obtain"
        ),
        pytest.param("from mynet.layers import relu6", "keras==2.1.6", id="relu6"),
    ],
)
def test_helpers_asked_of_another_module_are_not_the_keras_rules(statement: str, word: str) -> None:
    name = statement.rsplit(" ", 1)[-1]
    text = _traceback(f"ImportError: cannot import name {name}", statement)
    for finding in explained(text).findings:
        assert word not in fix_text(finding)


# --- multi-backend Keras' tf.Session functions, gone from Keras 2.4 on ---------------------


@pytest.mark.parametrize(
    "text",
    [
        "AttributeError: module 'keras.backend' has no attribute 'tensorflow_backend'\n",
        _traceback(
            "ModuleNotFoundError: No module named 'keras.backend.tensorflow_backend'",
            "from keras.backend.tensorflow_backend import set_session",
        ),
    ],
    ids=["attribute", "import-in-own-code"],
)
def test_multi_backend_keras_backend_modules_in_own_code_get_their_successors(text: str) -> None:
    # The code's own import (no installed package's frame): port it, or pin multi-backend Keras.
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "tf.config.list_logical_devices('GPU')" in fix and "keras<2.4" in fix


@pytest.mark.parametrize("func", ["get_session", "set_session"])
def test_keras_backend_tf1_functions_are_tensorflow_1_api_with_the_compat_name(
    func: str,
) -> None:
    text = _traceback(
        f"AttributeError: module 'keras.backend' has no attribute '{func}'",
        f"sess = K.{func}()" if func == "get_session" else "K.set_session(sess)",
    )
    top = top_error(explained(text))
    assert top.cause == "api-moved-to-compat-v1"
    fix = fix_text(top)
    assert "tf.compat.v1.keras.backend.get_session()" in fix
    assert "Keras 2.3.1" in fix


# --- arguments TensorFlow 1.0 and 1.5 renamed ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "older", "release"),
    [
        pytest.param(
            "TypeError: reduce_max() got an unexpected keyword argument 'keepdims'",
            "tf.reduce_max",
            "keep_dims",
            "1.5",
            id="keepdims-message-alone",
        ),
        pytest.param(
            _traceback(
                "TypeError: reduce_sum() got an unexpected keyword argument 'keepdims'",
                "s = tf.reduce_sum(x * w, axis=1, keepdims=True)",
            ),
            "tf.reduce_sum",
            "keep_dims",
            "1.5",
            id="keepdims-source-line",
        ),
        pytest.param(
            _traceback(
                "TypeError: softmax() got an unexpected keyword argument 'axis'",
                "probs = tf.nn.softmax(scores, axis=1)",
            ),
            "tf.nn.softmax",
            "dim",
            "1.5",
            id="softmax-axis",
        ),
        # TensorFlow 1.0.0's release notes: these arguments became `axis` in 1.0.
        pytest.param(
            _traceback(
                "TypeError: reduce_mean() got an unexpected keyword argument 'axis'",
                "loss = tf.reduce_mean(tf.square(y - p), axis=1)",
            ),
            "tf.reduce_mean",
            "reduction_indices",
            "1.0",
            id="reduction-axis",
        ),
        pytest.param(
            _traceback(
                "TypeError: argmax() got an unexpected keyword argument 'axis'",
                "pred = tf.argmax(logits, axis=1)",
            ),
            "tf.argmax",
            "dimension",
            "1.0",
            id="argmax-axis",
        ),
        # No line of the call, but TensorFlow's own frame raised it.
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "prep.py", line 4, in <module>\n'
            "    x = add_batch(img)\n"
            '  File "/opt/venv/lib/python3.6/site-packages/tensorflow/python/util/deprecation.py",'
            " line 316, in new_func\n"
            "TypeError: expand_dims() got an unexpected keyword argument 'axis'\n",
            "tf.expand_dims",
            "dim",
            "1.0",
            id="expand-dims-tensorflow-frame",
        ),
    ],
)
def test_a_renamed_argument_refused_says_the_tensorflow_is_older(
    text: str, name: str, older: str, release: str
) -> None:
    # The keyword's history (renamed in 1.0 or 1.5) says the TensorFlow is older than the
    # code: an upgrade leads; writing the older spelling is the other candidate, with its fix.
    report = explained(text)
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code"
    fix = fix_text(top)
    assert f"`{name}`" in fix and f"Upgrade TensorFlow to {release} or later" in fix
    assert top.fix is not None
    assert any("tensorflow==1.15" in c for c in top.fix.commands)
    edit = next(x for x in report.findings if x.cause == "api-removed")
    assert edit.severity is Severity.WARNING
    assert f"write `{older}=`" in fix_text(edit) and "Upgrade" not in fix_text(edit)


@pytest.mark.parametrize(
    "text",
    [
        # 1.0's names are NumPy's: its argmax and expand_dims refuse them in the same words
        # where another library's function of that name does not take them.
        pytest.param(
            "TypeError: argmax() got an unexpected keyword argument 'axis'\n", id="message-alone"
        ),
        pytest.param(
            "Error in py_call_impl(callable, dots$args, dots$keywords) : \n"
            "  TypeError: expand_dims() got an unexpected keyword argument 'axis'\n",
            id="r-reticulate",
        ),
        # Another library's frame, printed without its line.
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3/site-packages/mylib/ops.py", line 10, in <module>\n'
            "TypeError: argmax() got an unexpected keyword argument 'axis'\n",
            id="other-library-frame",
        ),
    ],
)
def test_near_misses_of_a_tf10_keyword_without_tensorflow_shown(text: str) -> None:
    assert "tf-too-old-for-code" not in all_causes(text)


def test_the_release_the_log_shows_is_named() -> None:
    text = (
        "$ pip freeze | grep tensorflow\ntensorflow==1.4.0\n"
        "TypeError: reduce_mean() got an unexpected keyword argument 'keepdims'\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "this TensorFlow (1.4.0) is older" in fix


def test_keras_own_call_is_a_keras_newer_than_the_tensorflow() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 30, in <module>\n'
        "    model.add(Dense(10, activation='softmax'))\n"
        '  File "/opt/venv/lib/python3.6/site-packages/keras/activations.py", line 29, '
        "in softmax\n"
        "    return K.softmax(x)\n"
        '  File "/opt/venv/lib/python3.6/site-packages/keras/backend/tensorflow_backend.py", '
        "line 2963, in softmax\n"
        "    return tf.nn.softmax(x, axis=axis)\n"
        "TypeError: softmax() got an unexpected keyword argument 'axis'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    fix = fix_text(top)
    assert "The installed Keras calls `tf.nn.softmax`" in fix
    assert "tensorflow>=1.5,<2" in fix


@pytest.mark.parametrize(
    "text",
    [
        # PyTorch's F.softmax names the argument dim.
        pytest.param(
            _traceback(
                "TypeError: softmax() got an unexpected keyword argument 'axis'",
                "p = F.softmax(logits, axis=1)",
            ),
            id="torch-softmax",
        ),
        # A frame of PyTorch's own.
        pytest.param(
            _traceback(
                "TypeError: softmax() got an unexpected keyword argument 'axis'",
                "return softmax(x, axis=1)",
                path="/usr/lib/python3.10/site-packages/torch/nn/functional.py",
            ),
            id="torch-frame",
        ),
        # A release that takes the argument: refused for another reason.
        pytest.param(
            "$ pip freeze | grep tensorflow\ntensorflow==1.12.0\n"
            "TypeError: reduce_max() got an unexpected keyword argument 'keepdims'\n",
            id="release-has-it",
        ),
        # NumPy's own function, not a TensorFlow reduction.
        pytest.param(
            "TypeError: amax() got an unexpected keyword argument 'keepdims'",
            id="numpy-amax",
        ),
        # Another argument of the same function.
        pytest.param(
            "TypeError: reduce_max() got an unexpected keyword argument 'keepdim'",
            id="another-argument",
        ),
    ],
)
def test_near_misses_are_not_an_older_tensorflow(text: str) -> None:
    for finding in explained(text).findings:
        assert "Upgrade TensorFlow to 1.5" not in fix_text(finding)


# --- arguments TensorFlow 1.0 renamed to `axis`, near misses -----------------------------


@pytest.mark.parametrize(
    "text",
    [
        # A 1.x release takes `axis`: refused for another reason.
        pytest.param(
            "$ pip freeze | grep tensorflow\ntensorflow==1.3.0\n"
            "TypeError: argmax() got an unexpected keyword argument 'axis'\n",
            id="release-has-it",
        ),
        # tf.norm is not among the functions 1.0's notes renamed.
        pytest.param(
            "TypeError: norm() got an unexpected keyword argument 'axis'",
            id="not-renamed-function",
        ),
        # PyTorch's argmax takes dim.
        pytest.param(
            _traceback(
                "TypeError: argmax() got an unexpected keyword argument 'axis'",
                "pred = torch.argmax(logits, axis=1)",
            ),
            id="torch-argmax",
        ),
    ],
)
def test_near_misses_are_not_a_tensorflow_before_1_0(text: str) -> None:
    for finding in explained(text).findings:
        assert "Upgrade TensorFlow to 1.0" not in fix_text(finding)


def test_tf2_refuses_the_names_1_0_kept_as_aliases() -> None:
    # TensorFlow 2 dropped argmax's `dimension` (tf.compat.v1.argmax keeps it).
    text = _traceback(
        "TypeError: argmax() got an unexpected keyword argument 'dimension'",
        "pred = tf.argmax(logits, dimension=1)",
    )
    top = top_error(explained(text))
    assert top.cause == "api-moved-to-compat-v1"
    assert "axis=... instead of dimension=..." in fix_text(top)


@pytest.mark.parametrize(
    ("text", "name", "words"),
    [
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "train.py", line 12, in <module>\n'
            "    s = reduce(x)\n"
            '  File "/opt/venv/lib/python3.8/site-packages/tensorflow/python/util/dispatch.py",'
            " line 201, in wrapper\n"
            "TypeError: reduce_sum() got an unexpected keyword argument 'keep_dims'\n",
            "tf.reduce_sum(keep_dims=...)",
            "keepdims=... instead of keep_dims=...",
            id="tensorflow-frame",
        ),
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "<stdin>", line 1, in <module>\n'
            '  File "/usr/lib/python3/dist-packages/tensorflow/python/util/dispatch.py",'
            " line 201, in wrapper\n"
            "TypeError: argmax() got an unexpected keyword argument 'dimension'\n",
            "tf.argmax(dimension=...)",
            "axis=... instead of dimension=...",
            id="frame-without-line",
        ),
    ],
)
def test_a_removed_keyword_read_from_the_message_alone(text: str, name: str, words: str) -> None:
    # No source line shows the call: the function and keyword Python names are a removal
    # rule's own, a frame of TensorFlow's shows it at work, and the verdict is the one scan
    # gives the call.
    top = top_error(explained(text))
    assert top.cause == "api-moved-to-compat-v1"
    assert name in top.summary
    assert words in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # A 1.x release shown takes keep_dims: refused for another reason.
        pytest.param(
            "$ pip freeze | grep tensorflow\ntensorflow==1.14.0\n"
            "TypeError: reduce_sum() got an unexpected keyword argument 'keep_dims'\n",
            id="release-takes-it",
        ),
        # The line calls PyTorch's argmax.
        pytest.param(
            _traceback(
                "TypeError: argmax() got an unexpected keyword argument 'dimension'",
                "i = torch.argmax(x, dimension=1)",
            ),
            id="torch-call",
        ),
        # A keyword no rule of the function names.
        pytest.param(
            "TypeError: reduce_sum() got an unexpected keyword argument 'keepdim'",
            id="another-keyword",
        ),
        # Python's words alone: NumPy's functions refuse the same keywords in the same words.
        pytest.param(
            "TypeError: reduce_sum() got an unexpected keyword argument 'keep_dims'",
            id="message-alone",
        ),
        pytest.param(
            "TypeError: expand_dims() got an unexpected keyword argument 'dim'",
            id="numpy-words-alone",
        ),
        pytest.param(
            "Error in py_call_impl(callable, call_args$unnamed, call_args$named) : \n"
            "  TypeError: dropout() got an unexpected keyword argument 'keep_prob'\n",
            id="r-reticulate",
        ),
        pytest.param(
            "Error in py_call_impl(callable, dots$args, dots$keywords) :\n"
            "  TypeError: expand_dims() got an unexpected keyword argument 'dim'\n",
            id="r-reticulate-numpy-words",
        ),
        # NumPy's dispatcher frame, which prints no line.
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "<stdin>", line 1, in <module>\n'
            '  File "<__array_function__ internals>", line 200, in expand_dims\n'
            "TypeError: expand_dims() got an unexpected keyword argument 'dim'\n",
            id="numpy-frame",
        ),
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "<stdin>", line 1, in <module>\n'
            "TypeError: argmax() got an unexpected keyword argument 'dimension'\n",
            id="frame-without-line",
        ),
        # A TensorFlow release shown elsewhere in the log is not TensorFlow at work here.
        pytest.param(
            "Successfully installed tensorflow-2.15.0\n"
            "TypeError: argmax() got an unexpected keyword argument 'dimension'\n",
            id="release-shown-message-alone",
        ),
    ],
)
def test_near_misses_of_a_removed_keyword_alone(text: str) -> None:
    assert "api-moved-to-compat-v1" not in all_causes(text)


@pytest.mark.parametrize(
    ("message", "code", "name", "older"),
    [
        pytest.param(
            "TypeError: concat() got an unexpected keyword argument 'axis'",
            "h = tf.concat([a, b], axis=1)",
            "tf.concat",
            "concat_dim",
            id="concat-axis",
        ),
        pytest.param(
            "TypeError: split() got an unexpected keyword argument 'num_or_size_splits'",
            "parts = tf.split(x, num_or_size_splits=2, axis=1)",
            "tf.split",
            "num_split",
            id="split-pieces",
        ),
    ],
)
def test_a_tf10_keyword_of_a_reordered_call_is_an_upgrade_only(
    message: str, code: str, name: str, older: str
) -> None:
    # 1.0 renamed these keywords and reversed the arguments' order: the older keyword on the
    # same call is no way to keep the release, so no edit is offered beside the upgrade.
    report = explained(_traceback(message, code))
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code"
    assert f"`{name}`" in fix_text(top) and "Upgrade TensorFlow to 1.0 or later" in fix_text(top)
    assert f"`{older}`" in fix_text(top)
    assert all(f"write `{older}=`" not in fix_text(x) for x in report.findings)


def test_a_tf0_keyword_under_tf1_is_the_api_removed() -> None:
    text = _traceback(
        "TypeError: concat() got an unexpected keyword argument 'concat_dim'",
        "h = tf.concat(concat_dim=1, values=[a, b])",
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    assert "tf.concat(values, axis=...)" in fix_text(top)


# --- TensorFlow 0.x's argument order --------------------------------------------------------


def test_split_in_the_old_order_is_rewritten_in_numpy_order() -> None:
    text = _traceback(
        "TypeError: Input 'split_dim' of 'Split' Op has type float32 that does not match "
        "expected type of int32.",
        "parts = tf.split(3, 4, images)",
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    assert "tf.split(value, num_or_size_splits, axis)" in fix_text(top)


def test_concat_in_the_old_order_is_a_warning_with_the_new_order() -> None:
    text = "TypeError: Expected int32, got list containing Tensors of type '_Message' instead."
    findings = [f for f in explained(text).findings if f.cause == "api-removed"]
    assert findings and findings[0].severity.value == "warning"
    assert "tf.concat(values, axis)" in fix_text(findings[0])


@pytest.mark.parametrize(
    "text",
    [
        # split_dim given an int32 tensor: the order is right; something else is wrong.
        "TypeError: Input 'split_dim' of 'Split' Op has type int32 that does not match "
        "expected type of int32.",
        # Another op's input of another type.
        "TypeError: Input 'y' of 'Mul' Op has type float32 that does not match type int32 of "
        "argument 'x'.",
        # A list of Python ints where a float goes: not the tensors of the old order.
        "TypeError: Expected float32, got 'auto' of type 'str' instead.",
    ],
)
def test_other_type_errors_are_not_the_old_argument_order(text: str) -> None:
    for finding in explained(text).findings:
        assert "num_or_size_splits" not in fix_text(finding)


# --- TensorFlow 2's SavedModel loader called under TensorFlow 1 -------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            _traceback(
                "TypeError: load() missing 2 required positional arguments: 'tags' and "
                "'export_dir'",
                "model = tf.saved_model.load(export_path)",
            ),
            id="two-missing",
        ),
        pytest.param(
            "TensorFlow version: 1.12.0\n"
            "TypeError: load() missing 1 required positional argument: 'export_dir'\n",
            id="one-missing-under-a-1x-release",
        ),
    ],
)
def test_tf2_saved_model_load_under_tf1_is_the_tf2_api(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "tf.compat.v2.saved_model.load(path)" in fix and "TensorFlow 2" in fix


@pytest.mark.parametrize(
    "text",
    [
        # TensorFlow 2's own loader called without a path says the same of export_dir.
        pytest.param(
            "TypeError: load() missing 1 required positional argument: 'export_dir'",
            id="one-missing-no-release",
        ),
        pytest.param(
            "TensorFlow version: 2.9.1\n"
            "TypeError: load() missing 2 required positional arguments: 'tags' and "
            "'export_dir'\n",
            id="a-2x-release",
        ),
        # json.load and friends name other arguments.
        pytest.param(
            "TypeError: load() missing 1 required positional argument: 'fp'", id="json-load"
        ),
    ],
)
def test_other_load_refusals_are_not_the_tf1_loader(text: str) -> None:
    for finding in explained(text).findings:
        assert "tf.compat.v2.saved_model.load" not in fix_text(finding)


# --- a member of a name a rule knows -------------------------------------------------------


def test_a_private_member_missing_under_python2_is_not_the_rule_of_its_module() -> None:
    # tf.logging resolved (Python 2 names the member it lacks): its removal in TensorFlow 2
    # is not what raised, so tf.compat.v1 is no answer.
    text = _traceback(
        "AttributeError: 'module' object has no attribute '_logger'",
        "tf.logging._logger.handlers = []",
        path="/usr/local/lib/python2.7/dist-packages/somepkg/io/misc_io.py",
    )
    for finding in explained(text).findings:
        assert "tf.compat.v1.logging" not in fix_text(finding)


def test_python2_words_for_the_module_a_rule_knows_keep_the_rule() -> None:
    text = _traceback(
        "AttributeError: 'module' object has no attribute 'logging'",
        "tf.logging.set_verbosity(tf.logging.INFO)",
    )
    assert "api-moved-to-compat-v1" in all_causes(text)


# --- a name missing from a module the TensorFlow still has ----------------------------------


def test_an_example_of_a_source_checkout_needs_the_release_of_the_checkout() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/src/tf/tensorflow/examples/audio/train.py", line 12, in <module>\n'
        "    import features\n"
        '  File "/home/user/src/tf/tensorflow/examples/audio/features.py", line 30, '
        "in <module>\n"
        "    from tensorflow.contrib.framework.python.ops import audio_ops\n"
        "ImportError: cannot import name audio_ops\n"
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "checkout of TensorFlow's source tree (/home/user/src/tf)" in fix
    assert "nightly" in fix and 'git -C "/home/user/src/tf" describe --tags' in fix
    # contrib is there: its successors are not the way out of a missing name.
    assert "tf-slim" not in fix


def test_contrib_there_without_the_name_names_the_release_and_the_port() -> None:
    text = _traceback(
        "ImportError: cannot import name 'seq2seq' from 'tensorflow.contrib' "
        "(/usr/lib/python3.6/site-packages/tensorflow/contrib/__init__.py)",
        "from tensorflow.contrib import seq2seq",
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "install the TensorFlow release the code was written for" in fix
    assert "Or port the code off it" in fix
    assert "source tree" not in fix


def test_an_installed_packages_examples_folder_is_not_a_source_checkout() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.6/site-packages/tensorflow/examples/audio/features.py", '
        "line 30, in <module>\n"
        "    from tensorflow.contrib.framework.python.ops import audio_ops\n"
        "ImportError: cannot import name audio_ops\n"
    )
    for finding in explained(text).findings:
        assert "source tree" not in fix_text(finding)


# --- A member missing from the class itself ("type object 'X' has no attribute 'y'") --------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            _traceback(
                "AttributeError: type object 'TFLiteConverterV2' has no attribute "
                "'from_keras_model_file'",
                "converter = tf.lite.TFLiteConverter.from_keras_model_file('model.h5')",
            ),
            id="with-the-source-line",
        ),
        pytest.param(
            "AttributeError: type object 'TFLiteConverterV2' has no attribute "
            "'from_frozen_graph'\n",
            id="the-class-printed-with-its-release-suffix",
        ),
    ],
)
def test_tensorflow_1_class_methods_missing_from_tf2s_class_are_compat_v1(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "api-moved-to-compat-v1"
    assert "tf.compat.v1.lite.TFLiteConverter" in fix_text(top)


def test_a_class_member_a_rule_knows_is_read_from_the_class_words() -> None:
    top = top_error(
        explained("AttributeError: type object 'Sequential' has no attribute 'predict_classes'\n")
    )
    assert top.cause == "api-removed" and "np.argmax" in fix_text(top)


def test_a_member_of_an_unknown_class_is_no_api_finding() -> None:
    causes = all_causes("AttributeError: type object 'Converter' has no attribute 'from_file'\n")
    assert not causes & {"api-removed", "api-moved-to-compat-v1"}


# --- Python 2's words alone for a TensorFlow 1 name TensorFlow 2 moved ------------------------


@pytest.mark.parametrize("attr", ["set_random_seed", "GraphKeys", "Session"])
def test_python2_words_alone_for_a_tf1_name_are_compat_v1_as_a_warning(attr: str) -> None:
    report = explained(f"AttributeError: 'module' object has no attribute '{attr}'\n")
    (found,) = [f for f in report.findings if f.cause == "api-moved-to-compat-v1"]
    assert found.severity.value == "warning"
    assert f"tf.compat.v1.{attr}" in fix_text(found)


@pytest.mark.parametrize(
    "text",
    [
        # A name the early releases brought (0.12): an older TensorFlow lacks it too.
        pytest.param(
            "AttributeError: 'module' object has no attribute 'global_variables_initializer'\n",
            id="brought-during-0x",
        ),
        # A common word could be any module's.
        pytest.param("AttributeError: 'module' object has no attribute 'placeholder'\n", id="word"),
        # A TensorFlow 1 shown has the name: another module lacks it.
        pytest.param(
            "TensorFlow version: 1.14.0\n"
            "AttributeError: 'module' object has no attribute 'GraphKeys'\n",
            id="tf1-shown",
        ),
        # A name TensorFlow 2 keeps.
        pytest.param("AttributeError: 'module' object has no attribute 'py_function'\n", id="kept"),
    ],
)
def test_other_python2_bare_names_are_not_read_as_compat_v1(text: str) -> None:
    assert "api-moved-to-compat-v1" not in all_causes(text)


# --- tf.keras' compile refusing an argument a later TensorFlow's compile takes ---------------

_COMPILE_REFUSED = "TypeError: Invalid keyword argument(s) in `compile`: {'steps_per_execution'}\n"


@pytest.mark.parametrize("shown", ["", "TensorFlow version: 2.2.0\n"])
def test_compile_refusing_steps_per_execution_is_a_tensorflow_before_24(shown: str) -> None:
    report = explained(shown + _COMPILE_REFUSED)
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code" and "2.4" in fix_text(top)
    edit = next(x for x in report.findings if x.cause == "api-removed")
    assert "experimental_steps_per_execution" in fix_text(edit)


@pytest.mark.parametrize(
    "text",
    [
        # A TensorFlow that takes it refused it for another reason.
        pytest.param("TensorFlow version: 2.5.0\n" + _COMPILE_REFUSED, id="tf-takes-it"),
        # An argument no later compile took.
        pytest.param(
            "TypeError: Invalid keyword argument(s) in `compile`: {'learning_rate'}\n",
            id="never-compile-s",
        ),
    ],
)
def test_other_compile_refusals_are_no_release_reading(text: str) -> None:
    assert "api-removed" not in all_causes(text)


@pytest.mark.parametrize(
    "message, code, shown, since, edit, taking",
    [
        pytest.param(
            "TypeError: function() got an unexpected keyword argument 'jit_compile'",
            "@tf.function(jit_compile=True)",
            "2.4.1",
            "2.5",
            "experimental_compile",
            "2.6.0",
            id="jit-compile",
        ),
        # A new argument of a public function: no older name, the older arguments instead.
        pytest.param(
            "TypeError: from_generator() got an unexpected keyword argument 'output_signature'",
            "ds = tf.data.Dataset.from_generator(gen, output_signature=spec)",
            "2.3.1",
            "2.4",
            "output_types=",
            "2.4.0",
            id="output-signature",
        ),
    ],
)
def test_tf2_function_refusing_a_later_keyword_is_an_older_tensorflow(
    message: str, code: str, shown: str, since: str, edit: str, taking: str
) -> None:
    text = _traceback(message, code)
    report = explained(f"TensorFlow version: {shown}\n" + text)
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code" and since in fix_text(top)
    other = next(x for x in report.findings if x.cause == "api-removed")
    assert edit in fix_text(other)
    # A TensorFlow that takes it refused it for another reason.
    taken = all_causes(f"TensorFlow version: {taking}\n" + text)
    assert "api-removed" not in taken and "tf-too-old-for-code" not in taken


def test_another_librarys_function_refusing_jit_compile_is_no_release_reading() -> None:
    other = _traceback(
        "TypeError: function() got an unexpected keyword argument 'jit_compile'",
        "@numba_like.function(jit_compile=True)",
    )
    assert not {"api-removed", "tf-too-old-for-code"} & all_causes(other)


def test_compile_refused_by_the_tensorflow_1_model_is_no_release_reading() -> None:
    # TensorFlow 2's graph-mode Model (training_v1.py, under disable_eager_execution or
    # disable_v2_behavior) lets only the Session's arguments through, in every 2.x release:
    # a newer TensorFlow refuses steps_per_execution there the same way.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 9, in <module>\n'
        "    model.compile(optimizer='adam', loss='mse', steps_per_execution=8)\n"
        '  File "/usr/lib/python3/dist-packages/tensorflow/python/keras/engine/'
        'training_v1.py", line 333, in compile\n'
        "    'Invalid keyword argument(s) in `compile`: %s' % (unknown_kwargs,))\n"
        + _COMPILE_REFUSED
    )
    assert "api-removed" not in all_causes(text)


# --- A member missing from an object of TensorFlow's public class ----------------------------


@pytest.mark.parametrize("cls", ["OneDeviceStrategy", "TPUStrategy", "Strategy"])
def test_a_tf_public_classs_member_a_rule_knows_reads_like_a_missing_public_name(cls: str) -> None:
    top = top_error(
        explained(f"AttributeError: '{cls}' object has no attribute 'experimental_run_v2'\n")
    )
    assert top.cause == "api-removed"
    assert "2.4" in top.detail and "strategy.run(" in fix_text(top)


def test_the_member_of_a_class_tensorflow_does_not_export_is_no_api_finding() -> None:
    causes = all_causes("AttributeError: 'Runner' object has no attribute 'experimental_run_v2'\n")
    assert "api-removed" not in causes


def test_a_rule_of_any_objects_method_does_not_judge_a_tensorflow_class() -> None:
    # keras3-get-scaled-loss names no receiver: Keras' loss-scale optimizer's method, not a
    # tensor's.
    causes = all_causes("AttributeError: 'Tensor' object has no attribute 'get_scaled_loss'\n")
    assert "keras3-behaviour-change" not in causes
