"""Which Keras is running, read from what the log shows (module paths, Keras' own files and
words): a Keras 2 shown at work is never told to port to Keras 3, and a Keras or TensorFlow
of another release than the code is told the release that has what it asks for."""

from __future__ import annotations

import pytest

from tests.explaining import all_causes, explained, fix_text, top_error
from tfdoctor.findings import Severity


def test_a_name_missing_from_the_keras_package_serving_tf_keras_is_a_keras2_release() -> None:
    # keras.api._v2.keras is tf.keras served by the keras 2.x package (TensorFlow 2.6-2.15).
    text = (
        "AttributeError: module 'keras.api._v2.keras.optimizers' has no attribute 'experimental'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    # The release that brought it, within Keras 2; no port to Keras 3, no tf-keras.
    assert "2.9" in fix and "2.15" in fix
    assert "TF_USE_LEGACY_KERAS" not in fix and "Keras 3" not in fix


def test_a_name_every_keras2_of_that_path_has_names_no_release() -> None:
    text = "ImportError: cannot import name 'DenseFeatures' from 'keras.api._v2.keras.layers'\n"
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "mixes two releases" in fix and "TF_USE_LEGACY_KERAS" not in fix


def test_the_same_name_under_keras3s_tf_keras_stays_a_keras3_port() -> None:
    # keras._tf_keras.keras is Keras 3's tf.keras: there the Keras 2 code does meet Keras 3.
    text = (
        "AttributeError: module 'keras._tf_keras.keras.layers' has no attribute 'DenseFeatures'\n"
    )
    assert top_error(explained(text)).cause == "keras3-behaviour-change"


def test_tensorflows_own_keras_copy_missing_is_a_tensorflow_older_than_the_code() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/car/manage.py", line 4, in <module>\n'
        "    from tensorflow.python import keras\n"
        "ModuleNotFoundError: No module named 'tensorflow.python.keras'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "1.4" in fix and "pip show tensorflow" in fix and "Keras 3" not in fix


def test_tensorflows_keras_copy_missing_from_a_release_that_ships_it() -> None:
    text = "tensorflow==2.10.0\nModuleNotFoundError: No module named 'tensorflow.python.keras'\n"
    top = top_error(explained(text))
    assert top.cause == "tf-install-incomplete"
    assert "pip uninstall -y tensorflow" in fix_text(top)


def test_a_submodule_missing_under_tensorflows_keras_copy_is_not_its_absence() -> None:
    text = "ModuleNotFoundError: No module named 'tensorflow.python.keras.engine.base_layer_v1'\n"
    top = explained(text).findings
    assert all("1.4 (tf.keras joined" not in f.detail for f in top)


def test_the_legacy_optimizers_refusal_that_names_tf_keras() -> None:
    text = (
        "ImportError: `keras.optimizers.legacy` is not supported in Keras 3. When using "
        "`tf.keras`, to continue using a `tf.keras.optimizers.legacy` optimizer, you can install "
        "the `tf_keras` package (Keras 2) and set the environment variable "
        "`TF_USE_LEGACY_KERAS=True` to configure TensorFlow to use `tf_keras` when accessing "
        "`tf.keras`.\n"
    )
    report = explained(text)
    # The refusal is Keras 2 code under Keras 3; what it names as missing is tf-keras.
    assert top_error(report).cause == "keras3-behaviour-change"
    missing = next(f for f in report.findings if f.cause == "tf-keras-missing")
    assert missing.severity == Severity.WARNING
    assert "TF_USE_LEGACY_KERAS" in fix_text(missing) and "tf-keras" in fix_text(missing)


def test_keras30s_shorter_legacy_refusal_is_the_port_alone() -> None:
    text = (
        "ImportError: `keras.optimizers.legacy` is not supported in Keras 3. To use a "
        "`keras.optimizers.legacy` optimizer, for example with `tf.estimator`, please set "
        "`TF_USE_LEGACY_KERAS=1` as an environment variable\n"
    )
    assert top_error(explained(text)).cause == "keras3-behaviour-change"
    assert "tf-keras-missing" not in all_causes(text)


def test_multi_gpu_model_missing_the_gpus_under_their_newer_names() -> None:
    text = (
        "ValueError: To call `multi_gpu_model` with `gpus=2`, we expect the following devices "
        "to be available: ['/cpu:0', '/gpu:0', '/gpu:1']. However this machine only has: "
        "['/device:CPU:0', '/device:GPU:0', '/device:GPU:1']. Try reducing `gpus`.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    assert "keras>=2.0.9,<2.2" in fix_text(top)


def test_multi_gpu_model_on_a_machine_with_fewer_gpus_is_not_a_keras_release() -> None:
    text = (
        "ValueError: To call `multi_gpu_model` with `gpus=4`, we expect the following devices "
        "to be available: ['/cpu:0', '/gpu:0', '/gpu:1', '/gpu:2', '/gpu:3']. However this "
        "machine only has: ['/cpu:0', '/gpu:0', '/gpu:1']. Try reducing `gpus`.\n"
    )
    assert "keras-version" not in all_causes(text)


def test_a_tensorflow_keyword_keras_backend_passes_under_an_older_tensorflow() -> None:
    text = (
        "TypeError: softmax() got an unexpected keyword argument 'axis'\n"
        "\n"
        "The call is `tf.nn.softmax(x, axis=axis)` in keras/backend/tensorflow_backend.py\n"
    )
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    fix = fix_text(top)
    assert "tensorflow>=1.5,<2" in fix and "tf-keras" not in fix


def test_the_same_keyword_with_no_keras_named_is_the_codes_tensorflow() -> None:
    text = "TypeError: softmax() got an unexpected keyword argument 'axis'\n"
    assert top_error(explained(text)).cause == "tf-too-old-for-code"


def test_another_projects_tensorflow_backend_file_is_not_keras() -> None:
    text = (
        "TypeError: softmax() got an unexpected keyword argument 'axis'\n"
        "see keras_contrib/backend/tensorflow_backend.py\n"
    )
    assert top_error(explained(text)).cause == "tf-too-old-for-code"


def test_a_keras3_shown_is_not_told_its_tensorflow_predates_keras3() -> None:
    # keras._tf_keras.keras is the tf.keras Keras 3 serves: no TensorFlow older than 2.16 raised.
    text = "AttributeError: module 'keras._tf_keras.keras.utils' has no attribute 'PyDataset'\n"
    fixes = " ".join(fix_text(f) for f in explained(text).findings if f.fix is not None)
    assert "tensorflow==2.16" not in fixes and "is older" not in fixes


def test_keras2s_tf_keras_lacking_a_keras3_name_is_told_the_keras3_line() -> None:
    text = "AttributeError: module 'keras.api._v2.keras.utils' has no attribute 'PyDataset'\n"
    top = top_error(explained(text))
    assert top.cause == "tf-too-old-for-code" and "2.16" in fix_text(top)


@pytest.mark.parametrize(
    "module",
    [
        "tensorflow.python.keras.api._v2.keras.layers",
        "tensorflow_core.python.keras.api._v2.keras.layers",
    ],
    ids=["tf-2.2-to-2.5-copy", "tf-2.0-2.1-core-copy"],
)
def test_tensorflows_own_tf2_keras_tree_printed_rules_out_tensorflow_1(module: str) -> None:
    # The copy's `api._v2` tree is what TensorFlow 2.0 to 2.5 served as tf.keras: a name every
    # TensorFlow 2 line up to 2.15 lists is no release matter, and no 1.x line is the fix.
    text = f"AttributeError: module '{module}' has no attribute 'DenseFeatures'\n"
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "mixes two releases" in fix
    assert "tensorflow==1." not in fix and "1.14" not in fix


@pytest.mark.parametrize(
    "module",
    [
        "tensorflow.python.keras.api._v1.keras.layers",
        "tensorflow_core.python.keras.api._v1.keras.layers",
    ],
    ids=["tf-1.14-copy", "tf-1.15-core-copy"],
)
def test_tensorflows_own_v1_keras_tree_is_public_api_not_a_keras_of_another_release(
    module: str,
) -> None:
    # The copy's `api._v1` tree is what TensorFlow 1.14 and 1.15 served as tf.keras (and 2.0
    # to 2.5 as tf.compat.v1.keras): a name it lacks that a later line brought dates the
    # TensorFlow, not a standalone Keras reaching into private modules.
    text = f"AttributeError: module '{module}' has no attribute 'MultiHeadAttention'\n"
    found = explained(text).findings
    assert "keras-version" not in {f.cause for f in found}
    top = top_error(explained(text))
    assert top.cause == "tf-too-old-for-code"
    assert "`tf.keras.layers.MultiHeadAttention` is in TensorFlow's API from 2.4 on" in fix_text(
        top
    )


def test_the_keras2_release_named_is_installed_within_keras2_where_python_is_newer() -> None:
    # Python 3.12 has no wheel of 2.9 to 2.15: the first later line with one (2.16) is Keras 3,
    # which lacks the name too; an environment of a Python 2.9 has wheels for is the way.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/venv/lib/python3.12/site-packages/tensorflow/__init__.py", line 3, in f\n'
        "    x = 1\n"
        "AttributeError: module 'keras.api._v2.keras.optimizers' has no attribute 'experimental'\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "up to 2.15" in fix
    assert "tensorflow==2.16" not in fix and "tensorflow==2.9" in fix
