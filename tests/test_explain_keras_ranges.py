"""Keras and TensorFlow's dependencies of another release than the TensorFlow: a private
TensorFlow name that standalone Keras uses, quoted without frames; KerasTensors refusing code
written before TensorFlow 2.4; an old six's with_metaclass base; gast's missing node named at
the end of AutoGraph's warning about a bound method; a saved InputLayer's `ragged` key refused
by multi-backend Keras in Python's words."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "AttributeError: module 'tensorflow.python.framework.ops' has no attribute "
            "'_TensorLike'\n",
            id="multi-backend-keras-tensorlike",
        ),
        pytest.param(
            "ImportError: cannot import name 'get_config' from "
            "'tensorflow.python.eager.context' (/env/lib/python3.8/site-packages/tensorflow/"
            "python/eager/context.py)\n",
            id="keras-backend-get-config",
        ),
        pytest.param(
            "cannot import name 'get_config' from 'tensorflow.python.eager.context'\n",
            id="quoted-alone",
        ),
        pytest.param(
            "ImportError: cannot import name 'tf_utils' from 'tensorflow.python.keras.utils' "
            "(/env/lib/python3.7/site-packages/tensorflow/python/keras/utils/__init__.py)\n",
            id="keras23-backend-tf-utils",
        ),
    ],
)
def test_a_private_name_standalone_keras_uses_is_keras_of_another_release(line: str) -> None:
    top = top_error(explained(line))
    assert top.cause == "keras-version"
    assert "keras" in fix_text(top).lower()
    assert "keras" in top.detail


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "ImportError: cannot import name '_TensorLike' from "
            "'tensorflow.python.framework.ops' (/env/lib/python3.8/site-packages/tensorflow/"
            "python/framework/ops.py)\n",
            id="keras-reads-tensorlike-as-an-attribute",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.python.eager.context' has no attribute "
            "'get_config'\n",
            id="keras-imports-get-config-by-name",
        ),
    ],
)
def test_a_private_name_missing_in_words_keras_use_would_not_print_is_not_keras(
    line: str,
) -> None:
    # Keras 2.2 and 2.3 read ops._TensorLike as an attribute, Keras 2.6 to 2.15 import
    # context.get_config with `from ... import`: the other wording comes from other code.
    assert all(x.cause != "keras-version" for x in explained(line).findings)


def test_a_name_python36_printed_alone_is_keras_where_tensorflow_lacks_it() -> None:
    # Python 3.6 names no module; multi-backend Keras 2.3's backend imports tf_utils from
    # TensorFlow's Keras copy, which TensorFlow 1.8 lacks (added in 1.9).
    text = "ImportError: cannot import name 'tf_utils'\n\npip freeze\ntensorflow-gpu==1.8.0\n"
    report = explained(text)
    top = top_error(report)
    assert top.cause == "keras-version"
    assert "inferred" in top.detail
    assert "lacks tensorflow.python.keras.utils.tf_utils (added in 1.9)" in top.detail
    assert "keras==2.2.*" in fix_text(top)
    assert all(x.cause != "api-removed" for x in report.findings)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "ImportError: cannot import name 'tf_utils'\n\npip freeze\ntensorflow==1.14.0\n",
            id="tensorflow-keras-runs-on",
        ),
        pytest.param(
            "ImportError: cannot import name 'tf_utils'\n\npip freeze\ntensorflow-gpu==1.10.1\n",
            id="below-keras-range-but-tensorflow-has-the-name",
        ),
        pytest.param(
            "ImportError: cannot import name 'tf_utils'\n\npip freeze\ntensorflow==2.4.0\n",
            id="above-keras-range-but-tensorflow-has-the-name",
        ),
        pytest.param(
            "ImportError: cannot import name '_TensorLike'\n\npip freeze\ntensorflow==2.4.0\n",
            id="a-name-keras-reads-as-an-attribute",
        ),
        pytest.param("ImportError: cannot import name 'tf_utils'\n", id="no-tensorflow-shown"),
        pytest.param(
            "ImportError: cannot import name 'get_config'\n\ntensorflow==1.10.1\n",
            id="row-without-a-release-that-added-it",
        ),
    ],
)
def test_a_name_printed_alone_is_not_blamed_on_keras_where_tensorflow_has_it(text: str) -> None:
    assert all(x.cause != "keras-version" for x in explained(text).findings)


def test_a_package_frame_still_names_the_package_not_keras() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.8/site-packages/tensorlayer/models/core.py", line 40, in f\n'
        "    if isinstance(x, tf_ops._TensorLike):\n"
        "AttributeError: module 'tensorflow.python.framework.ops' has no attribute "
        "'_TensorLike'\n"
    )
    assert all(x.cause != "keras-version" for x in explained(text).findings)


def test_another_private_name_without_frames_is_not_blamed_on_keras() -> None:
    line = "AttributeError: module 'tensorflow.python.framework.ops' has no attribute '_Foo'\n"
    assert all(x.cause != "keras-version" for x in explained(line).findings)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "TypeError: Keras symbolic inputs/outputs do not implement `__len__`. You may be "
            "trying to pass Keras symbolic inputs/outputs to a TF API that does not register "
            "dispatching, preventing Keras from automatically converting the API call to a "
            "lambda layer in the Functional Model.\n",
            id="len",
        ),
        pytest.param(
            "TypeError: Keras symbolic inputs/outputs do not implement `op`. You may be trying "
            "to pass Keras symbolic inputs/outputs to a TF API.\n",
            id="op",
        ),
    ],
)
def test_keras_tensors_refusing_code_written_before_tf24_is_a_changed_default(
    line: str,
) -> None:
    top = top_error(explained(line))
    assert top.cause == "api-default-changed"
    fix = fix_text(top)
    # No Python shown: the release is named, no install that may find no wheel.
    assert "Lambda" in fix and "before 2.4" in fix and "tensorflow<2.4" not in fix
    # TensorFlow 2.3's wheels stop at Python 3.8: the install only where the Python fits.
    on_38 = fix_text(top_error(explained("$ python --version\nPython 3.8.10\n" + line)))
    assert "tensorflow<2.4" in on_38
    on_311 = fix_text(top_error(explained("$ python --version\nPython 3.11.4\n" + line)))
    assert "tensorflow<2.4" not in on_311


def test_keras_3s_kerastensor_refusal_stays_keras_3() -> None:
    line = (
        "ValueError: A KerasTensor cannot be used as input to a TensorFlow function. A "
        "KerasTensor is a symbolic placeholder for a shape and dtype.\n"
    )
    assert top_error(explained(line)).cause == "keras3-behaviour-change"


def test_an_old_sixs_newbase_is_six_out_of_range() -> None:
    line = "AttributeError: type object 'NewBase' has no attribute 'is_abstract'\n"
    found = [x for x in explained(line).findings if x.cause == "dependency-out-of-range"]
    assert [x.severity for x in found] == [Severity.WARNING]
    fix = fix_text(found[0])
    assert "six>=1.12.0" in fix and "six.__file__" in fix


@pytest.mark.parametrize(
    "line",
    [
        # Another class of the same words: not six's base.
        "AttributeError: type object 'NewBaseModel' has no attribute 'is_abstract'\n",
        # The words in prose about six, with no error.
        "six 1.4.1 named its temporary base class NewBase.\n",
    ],
)
def test_other_newbase_words_are_not_six(line: str) -> None:
    assert all(x.cause != "dependency-out-of-range" for x in explained(line).findings)


def test_autographs_cause_after_a_bound_methods_nested_repr_is_read() -> None:
    text = (
        "[2019-10-18 17:32:36,087] [WARNING] Entity <bound method Dense.call of "
        "<tensorflow.python.layers.core.Dense object at 0x7f00>> could not be transformed and "
        "will be executed as-is. Please report this to the AutoGraph team. Cause: converting "
        "<bound method Dense.call of <tensorflow.python.layers.core.Dense object at 0x7f00>>: "
        "AttributeError: module 'gast' has no attribute 'Num'\n"
    )
    found = [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]
    assert found and "gast" in found[0].summary
    assert all(x.severity is not Severity.ERROR for x in explained(text).findings)


def test_autographs_cause_naming_another_module_is_not_gast() -> None:
    text = (
        "WARNING: Entity <bound method M.call of <m.M object at 0x1>> could not be transformed "
        "and will be executed as-is. Cause: converting <bound method M.call of <m.M object at "
        "0x1>>: AttributeError: module 'mylib' has no attribute 'helper'\n"
    )
    assert all(x.cause != "dependency-out-of-range" for x in explained(text).findings)


_LOADED = (
    "Traceback (most recent call last):\n"
    '  File "vis.py", line 12, in <module>\n'
    "    model = load_model('model.h5')\n"
    '  File "/env/lib/python3.6/site-packages/keras/engine/saving.py", line 419, in load_model\n'
    "    model = _deserialize_model(f, custom_objects, compile)\n"
    '  File "/env/lib/python3.6/site-packages/keras/engine/network.py", line 1022, in '
    "from_config\n"
    "    process_layer(layer_data)\n"
    '  File "/env/lib/python3.6/site-packages/keras/engine/base_layer.py", line 1109, in '
    "from_config\n"
    "    return cls(**config)\n"
    "TypeError: __init__() got an unexpected keyword argument 'ragged'\n"
)


def test_an_input_layers_ragged_key_read_by_multi_backend_keras_is_a_newer_model() -> None:
    top = top_error(explained(_LOADED))
    assert top.cause == "model-from-newer-keras"
    assert "ragged" in fix_text(top) and "keras_version" in fix_text(top)
    # Quoted alone: the likely reading, as a warning.
    alone = "TypeError: __init__() got an unexpected keyword argument 'ragged'\n"
    found = [x for x in explained(alone).findings if x.cause == "model-from-newer-keras"]
    assert [x.severity for x in found] == [Severity.WARNING]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "/home/user/net.py", line 8, in build\n'
            "    x = InputLayer(input_shape=(None,), ragged=True)\n"
            "TypeError: __init__() got an unexpected keyword argument 'ragged'\n",
            id="the-codes-own-layer",
        ),
        pytest.param(
            "TypeError: Input() got an unexpected keyword argument 'ragged'\n",
            id="the-input-function",
        ),
        pytest.param(
            "TypeError: __init__() got an unexpected keyword argument 'foo'\n",
            id="another-keyword",
        ),
    ],
)
def test_other_refusals_of_ragged_are_not_a_saved_model(text: str) -> None:
    assert all(x.cause != "model-from-newer-keras" for x in explained(text).findings)
