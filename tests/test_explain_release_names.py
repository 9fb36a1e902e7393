"""Names, defaults and behaviours a release of TensorFlow or NumPy changed: NumPy 1.16.3's
allow_pickle default, NumPy 2's copy=False, a graph written by another TensorFlow whose op
gained an attribute. Each reads as its own cause with the change's fix; the same words in
another context do not."""

from __future__ import annotations

from tests.explaining import all_causes, explained, fix_text, top_error


def test_numpy_refusing_pickled_object_arrays_is_its_changed_default() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/detector/load_weights.py", line 12, in <module>\n'
        "    weights = np.load('pnet.npy').item()\n"
        '  File "/usr/lib/python3/dist-packages/numpy/lib/npyio.py", line 447, in load\n'
        "    pickle_kwargs=pickle_kwargs)\n"
        '  File "/usr/lib/python3/dist-packages/numpy/lib/format.py", line 692, in read_array\n'
        '    raise ValueError("Object arrays cannot be loaded when "\n'
        "ValueError: Object arrays cannot be loaded when allow_pickle=False\n"
    )
    top = top_error(explained(text))
    assert top.cause == "api-default-changed"
    fix = fix_text(top)
    # Neither TensorFlow nor Python shown: no pin NumPy 1.16's wheels may not fit.
    assert "allow_pickle=True" in fix and "numpy<1.16.3" not in fix
    older = "tensorflow                   1.14.0\n" + text.replace("python3/", "python3.6/")
    assert "numpy<1.16.3" in fix_text(top_error(explained(older)))


def test_numpys_words_about_pickling_elsewhere_are_not_that_default() -> None:
    # np.save's own refusal to write object arrays: another message, not a changed default.
    text = "ValueError: Object arrays cannot be saved when allow_pickle=False\n"
    assert "api-default-changed" not in all_causes(text)


def test_numpy2_refusing_copy_false_is_a_numpy2_behaviour_change() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/.venv/lib/python3.11/site-packages/viewer/layers/text.py", '
        "line 40, in encode\n"
        "    values = np.array(strings, copy=False)\n"
        "ValueError: Unable to avoid copy while creating an array as requested.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "numpy2-behaviour-change"
    fix = fix_text(top)
    assert "numpy<2" in fix and "np.asarray" in fix


def test_numpy2_copy_refusal_wrapped_by_a_validator_is_read() -> None:
    text = (
        "pydantic.error_wrappers.ValidationError: 1 validation error for LabelEncoding\n"
        "constant\n"
        "  Unable to avoid copy while creating an array as requested. (type=value_error)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "numpy2-behaviour-change"
    assert "numpy<2" in fix_text(top)


def test_copy_false_named_without_numpys_refusal_is_not_that_change() -> None:
    text = "DeprecationWarning: pass copy=False to avoid a copy while creating an array\n"
    assert "numpy2-behaviour-change" not in all_causes(text)


def test_a_graph_node_with_an_attr_its_op_lacks_is_a_graph_from_another_tensorflow() -> None:
    text = (
        "2019-03-02 10:11:12.000001: E tensorflow/core/common_runtime/executor.cc:623] "
        "Executor failed to create kernel. Invalid argument: NodeDef mentions attr 'T' not "
        "in Op<name=Where; signature=input:bool -> index:int64>; NodeDef: "
        "Postprocess/Where = Where[T=DT_BOOL](Postprocess/Greater)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "op-not-registered"
    fix = fix_text(top)
    assert "Where" in fix and "Export the graph again" in fix
    assert "exported it" in fix


def test_a_tpu_internal_op_with_an_unknown_attr_stays_a_tpu_mismatch() -> None:
    text = (
        "InvalidArgumentError: NodeDef mentions attr 'client_terminated' not in "
        "Op<name=_Send; signature=tensor:T -> ; attr=T:type; attr=tensor_name:string>\n"
    )
    causes = all_causes(text)
    assert "op-not-registered" not in causes
    assert "tpu-version-mismatch" in causes


def test_numbas_import_check_is_its_pin_on_numpy_with_its_range() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/miniconda3/envs/lab/lib/python3.8/site-packages/numba/__init__.py",'
        " line 200, in <module>\n"
        "    _ensure_critical_deps()\n"
        '  File "/home/user/miniconda3/envs/lab/lib/python3.8/site-packages/numba/__init__.py",'
        " line 140, in _ensure_critical_deps\n"
        '    raise ImportError("Numba needs NumPy 1.21 or less")\n'
        "ImportError: Numba needs NumPy 1.21 or less\n"
    )
    top = top_error(explained(text))
    assert top.cause == "library-pin-conflicts"
    fix = fix_text(top)
    assert "NumPy 1.21 or less" in fix and '"numpy<1.22"' in fix and "numba" in fix


def test_numbas_lower_bound_asks_for_a_newer_numpy() -> None:
    top = top_error(explained("ImportError: Numba needs NumPy 1.18 or greater\n"))
    assert top.cause == "library-pin-conflicts"
    assert '"numpy>=1.18"' in fix_text(top)


def test_numba_and_numpy_named_in_passing_are_not_its_pin() -> None:
    text = "INFO: Numba needs NumPy arrays of a fixed dtype for nopython mode\n"
    assert "library-pin-conflicts" not in all_causes(text)


def test_keras_older_than_its_keras_applications_is_told_the_keras_that_passes_submodules() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/app/predict.py", line 4, in <module>\n'
        "    from keras.applications.mobilenet import MobileNet\n"
        '  File "/usr/local/lib/python3.6/site-packages/keras/applications/__init__.py", '
        "line 13, in <module>\n"
        "    keras_applications.set_keras_submodules(\n"
        "AttributeError: module 'keras_applications' has no attribute 'set_keras_submodules'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    fix = fix_text(top)
    assert '"keras==2.2.4"' in fix and "keras_applications" in fix


def test_another_modules_missing_set_keras_submodules_is_not_that_keras() -> None:
    text = "AttributeError: module 'efficientnet' has no attribute 'set_keras_submodules'\n"
    assert "keras-version" not in all_causes(text)


def test_python2s_words_under_a_pasted_tf_call_are_tensorflow_1_0s_renamed_op() -> None:
    # Python 2 does not name the module; the source line kept above (without its indentation)
    # shows the name is TensorFlow's.
    text = (
        "loss = tf.reduce_mean(tf.mul(weights, tf.square(labels - logits)))\n"
        "AttributeError: 'module' object has no attribute 'mul'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    assert "Write `tf.multiply` for `tf.mul`" in fix_text(top)


def test_tensorflow_1_0s_renamed_op_in_a_python2_traceback() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "model.py", line 31, in build\n'
        "    steps = tf.unpack(inputs, axis=1)\n"
        "AttributeError: 'module' object has no attribute 'unpack'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "api-removed"
    assert "Write `tf.unstack` for `tf.unpack`" in fix_text(top)


def test_python2s_words_under_another_modules_call_or_a_log_line_are_not_tensorflows() -> None:
    for above in ("ratio = np.mul(a, b)", "WARNING:tensorflow:calling tf.mul(a, b)"):
        text = f"{above}\nAttributeError: 'module' object has no attribute 'mul'\n"
        assert "api-removed" not in all_causes(text), above


def test_colabs_refusal_of_tensorflow_1_is_a_dropped_hosted_line() -> None:
    text = (
        "ValueError                                Traceback (most recent call last)\n"
        "<ipython-input-2-5c1a8e0e1f2b> in <module>()\n"
        "----> 1 get_ipython().magic('tensorflow_version 1.x')\n"
        "\n"
        "ValueError: Tensorflow 1 is unsupported in Colab.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "hosted-tf-line-dropped"
    fix = fix_text(top)
    assert "%tensorflow_version 1.x" in fix and "compat.v1" in fix
    assert "local runtime" in fix and "tensorflow==1.15.5" in fix


def test_colabs_own_tensorflow_2_is_not_a_dropped_line() -> None:
    text = "TensorFlow 2.x selected.\nTensorflow 1 is supported in this notebook's runtime\n"
    assert "hosted-tf-line-dropped" not in all_causes(text)
