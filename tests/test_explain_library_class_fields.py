"""A library built on TensorFlow whose own code asks TensorFlow for what the installed release
lacks: a class attribute its source line takes from ``tf.`` (the class's words name no module),
a keyword a later release brought, a frame whose path the paste elided or masked. Who asked
decides the cause: the library's release, not the user's code."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.traceback import read_tracebacks

_CLASS_MESSAGE = "AttributeError: type object 'Module' has no attribute '_TF_MODULE_FIELDS'\n"


def _cpython(path: str, code: str, last: str) -> str:
    """A CPython traceback whose innermost frame runs ``path`` at ``code`` and raises ``last``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/run.py", line 3, in <module>\n'
        "    import mylib\n"
        f'  File "{path}", line 563, in Bijector\n'
        f"    {code}\n"
        f"{last}"
    )


_TFP = "/home/user/.venv/lib/python3.7/site-packages/tensorflow_probability/python/bijectors/b.py"


def test_a_companion_asking_a_tf_class_for_a_field_is_its_release() -> None:
    text = _cpython(_TFP, "FIELDS = tf.Module._TF_MODULE_FIELDS.union(('a',))", _CLASS_MESSAGE)
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    assert "tensorflow-probability" in top.summary and "tf.Module._TF_MODULE_FIELDS" in top.summary
    fix = fix_text(top)
    assert "tensorflow-probability release built for the installed TensorFlow" in fix
    assert "pip show tensorflow tensorflow-probability" in fix


def test_a_library_outside_the_family_is_named_by_its_installed_package() -> None:
    path = "/usr/local/lib/python3.8/dist-packages/mylib/layers.py"
    text = _cpython(path, "base = tf.keras.layers.Layer._obj_reference_counts", "")
    text += "AttributeError: type object 'Layer' has no attribute '_obj_reference_counts'\n"
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    assert "mylib" in top.summary
    # No distribution is made up from the import name: a command asks which one it is.
    fix = fix_text(top)
    assert "the package that provides `mylib`" in fix and "b'mylib/'" in fix
    assert "pip show mylib" in fix


def test_an_ipython_frame_with_its_path_masked_still_names_the_companion() -> None:
    # IPython 7's frame header, its path's start masked by the poster; the marked source line.
    text = (
        "***/tensorflow_probability/python/bijectors/bijector.py in Bijector()\n"
        "    562 \n"
        "--> 563   FIELDS = tf.Module._TF_MODULE_FIELDS.union(\n"
        "    564       (\n"
        "\n" + _CLASS_MESSAGE
    )
    (tb,) = read_tracebacks(text)
    assert tb.frames and tb.frames[-1].path.startswith("***/tensorflow_probability/")
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    assert "tensorflow-probability" in top.summary


@pytest.mark.parametrize(
    "header",
    [
        ".../site-packages/sonnet/src/base.py in __init__(self)",
        "C:/Users/me/envs/x/Lib/site-packages/sonnet/src/base.py in __init__(self)",
    ],
    ids=["elided-start", "drive-letter"],
)
def test_ipython_frame_paths_elided_or_whole_are_read(header: str) -> None:
    text = f"{header}\n---> 20     x = 1\n\nValueError: bad\n"
    (tb,) = read_tracebacks(text)
    assert tb.frames and tb.frames[-1].path.endswith("sonnet/src/base.py")


@pytest.mark.parametrize(
    ("path", "code", "message"),
    [
        # The user's own file: the code is theirs to port, not a library's release.
        ("/home/user/proj/model.py", "F = tf.Module._TF_MODULE_FIELDS", _CLASS_MESSAGE),
        # The class is not taken from tf. on the line: PyTorch has a Module too.
        (_TFP, "F = torch.nn.Module._TF_MODULE_FIELDS", _CLASS_MESSAGE),
        # TensorFlow's own file asking its own class: the callee, not a library.
        (
            "/usr/lib/python3.8/site-packages/tensorflow/python/module/module.py",
            "F = tf.Module._TF_MODULE_FIELDS",
            _CLASS_MESSAGE,
        ),
        # Another attribute than the one the message names.
        (_TFP, "F = tf.Module._OTHER", _CLASS_MESSAGE),
        # An instance's missing field is not a class's.
        (_TFP, "F = tf.Module._TF_MODULE_FIELDS", _CLASS_MESSAGE.replace("type object", "")),
    ],
    ids=["users-own-file", "torch-class", "tensorflows-own-file", "other-attribute", "instance"],
)
def test_near_misses_are_not_a_library_release(path: str, code: str, message: str) -> None:
    report = explained(_cpython(path, code, message))
    assert not any(
        x.cause == "companion-mismatch" and "asks TensorFlow's class" in x.detail
        for x in report.findings
    )


def test_a_keyword_a_later_tf1_release_brought_passed_by_a_library_ranks_its_release_first() -> (
    None
):
    text = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    model = build()\n"
        '  File "/usr/local/lib/python3.6/dist-packages/mylib/layers.py", line 20, in build\n'
        "    x = tf.nn.softmax(x, axis=-1)\n"
        '  File "/usr/local/lib/python3.6/dist-packages/tensorflow/python/util/deprecation.py",'
        " line 507, in new_func\n"
        "    return func(*args, **kwargs)\n"
        "TypeError: softmax() got an unexpected keyword argument 'axis'\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "companion-mismatch" and "mylib" in top.summary
    older = [x for x in report.findings if x.cause == "tf-too-old-for-code"]
    assert older and all(x.severity.value == "warning" for x in older)
    # No edit of the library's own line is offered (its release is the way).
    assert not [x for x in report.findings if x.cause == "api-removed"]


def test_the_same_keyword_in_the_users_own_call_stays_the_codes() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 20, in build\n'
        "    x = tf.nn.softmax(x, axis=-1)\n"
        "TypeError: softmax() got an unexpected keyword argument 'axis'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-too-old-for-code"
    assert "1.5 or later" in fix_text(top)


def _keyword(path: str, code: str, message: str) -> str:
    """A traceback whose innermost frame, ``path``, runs ``code`` and Python refuses a keyword."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/convert.py", line 5, in <module>\n'
        "    out = convert(model)\n"
        f'  File "{path}", line 80, in load\n'
        f"    {code}\n"
        f"TypeError: {message}\n"
    )


_CONVERTER = "/home/user/.venv/lib/python3.7/site-packages/someconverter/tf2/load.py"
_NAME_SCOPE = "with tf.name_scope(name, values=[x]):"
_VALUES = "__init__() got an unexpected keyword argument 'values'"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (_NAME_SCOPE, _VALUES),
        (
            "y = tf.compat.v1.layers.dense(x, 3, keep_dims=True)",
            "dense() got an unexpected keyword argument 'keep_dims'",
        ),
    ],
    ids=["class-constructor", "function"],
)
def test_a_library_calling_tensorflow_with_a_keyword_it_lacks_is_its_release(
    code: str, message: str
) -> None:
    # A library no table knows: the line itself says the callee is TensorFlow's.
    top = top_error(explained(_keyword(_CONVERTER, code, message)))
    assert top.cause == "companion-mismatch"
    assert "someconverter" in top.summary
    assert "calls TensorFlow's tf." in top.detail
    assert "pip show someconverter" in fix_text(top)


@pytest.mark.parametrize(
    ("path", "code", "message"),
    [
        # The user's own call: the code's to change, not a library's release.
        ("/home/user/proj/ops.py", _NAME_SCOPE, _VALUES),
        # Another framework's call on the line.
        (_CONVERTER, "with torch.no_grad(values=[x]):", _VALUES),
        # A TensorFlow call on the line, but another function refused.
        (
            _CONVERTER,
            "y = helper(tf.reduce_sum(x), values=[x])",
            "helper() got an unexpected keyword argument 'values'",
        ),
        # The TensorFlow call on the line is not given the refused keyword.
        (_CONVERTER, "with tf.name_scope(name): f(values=[x])", _VALUES),
    ],
    ids=["users-own-file", "torch-call", "other-function", "keyword-elsewhere"],
)
def test_keyword_near_misses_are_not_a_library_release(path: str, code: str, message: str) -> None:
    report = explained(_keyword(path, code, message))
    assert not any(
        x.cause == "companion-mismatch" and "calls TensorFlow's" in x.detail
        for x in report.findings
    )


@pytest.mark.parametrize(
    ("shown", "code", "message"),
    [
        # softmax takes axis from TensorFlow 1.5 on (1.4's took dim).
        (
            "1.15.0",
            "y = tf.nn.softmax(x, axis=-1)",
            "softmax() got an unexpected keyword argument 'axis'",
        ),
        (
            "2.4.0",
            "y = tf.nn.softmax(x, axis=-1)",
            "softmax() got an unexpected keyword argument 'axis'",
        ),
        # keep_dims, which TensorFlow 2.0 removed, is taken by every 1.x.
        (
            "1.15.0",
            "y = tf.reduce_sum(x, keep_dims=True)",
            "reduce_sum() got an unexpected keyword argument 'keep_dims'",
        ),
    ],
    ids=["axis-under-1.15", "axis-under-2.4", "keep-dims-under-1.15"],
)
def test_a_keyword_the_logs_tensorflow_takes_is_not_a_library_release(
    shown: str, code: str, message: str
) -> None:
    # The log's TensorFlow takes the keyword in that function: whatever refused it is not
    # TensorFlow's function, and the library's release is no explanation.
    text = f">>> tf.__version__\n'{shown}'\n" + _keyword(_CONVERTER, code, message)
    report = explained(text)
    assert not any(x.cause == "companion-mismatch" for x in report.findings)


def test_the_same_keyword_under_a_tensorflow_without_it_is_the_librarys_release() -> None:
    code, message = (
        "y = tf.nn.softmax(x, axis=-1)",
        "softmax() got an unexpected keyword argument 'axis'",
    )
    text = ">>> tf.__version__\n'1.4.0'\n" + _keyword(_CONVERTER, code, message)
    assert top_error(explained(text)).cause == "companion-mismatch"


def test_keras_own_frame_asking_a_tf_class_is_a_keras_of_another_release() -> None:
    path = "/usr/local/lib/python3.8/dist-packages/keras/engine/base_layer.py"
    text = _cpython(path, "tf.Module._TF_MODULE_FIELDS,", _CLASS_MESSAGE)
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    assert "Keras release of your TensorFlow line" in fix_text(top)


def test_tensorflows_private_keras_copy_is_tensorflows_own() -> None:
    path = "/usr/local/lib/python3.8/dist-packages/tensorflow/python/keras/engine/base_layer.py"
    report = explained(_cpython(path, "tf.Module._TF_MODULE_FIELDS,", _CLASS_MESSAGE))
    assert not any("asks TensorFlow's class" in x.detail for x in report.findings)


_GRAPPLER = "TypeError: Expected config_proto to be a ConfigProto, saw type <class '{0}'>\n"


def test_a_rewriter_config_given_to_grappler_is_a_caller_of_an_older_tensorflow() -> None:
    text = "tensorflow 1.13.1\n" + _GRAPPLER.format(
        "tensorflow.core.protobuf.rewriter_config_pb2.RewriterConfig"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "older TensorFlow" in fix and "pip check" in fix and "1.13.1" in fix


@pytest.mark.parametrize(
    "given",
    ["NoneType", "tensorflow.core.protobuf.config_pb2.GraphOptions"],
    ids=["none", "another-proto"],
)
def test_other_objects_given_to_grappler_are_not_an_older_api(given: str) -> None:
    report = explained(_GRAPPLER.format(given))
    assert not any("RewriterConfig" in x.summary for x in report.findings)


def _lacks(module: str, attr: str) -> str:
    return f"AttributeError: module '{module}' has no attribute '{attr}'\n"


@pytest.mark.parametrize(
    ("module", "attr", "stop_gap"),
    [
        (
            "tensorflow_core.python.keras.api._v2.keras.losses",
            "softmax_cross_entropy",
            "tf.compat.v1.losses.softmax_cross_entropy",
        ),
        ("tensorflow.python.keras.api._v2.keras.metrics", "auc", "tf.compat.v1.metrics.auc"),
    ],
    ids=["tf20-losses", "tf2x-metrics"],
)
def test_a_tf1_name_asked_of_tf2s_keras_served_alias_is_tf1_api(
    module: str, attr: str, stop_gap: str
) -> None:
    top = top_error(explained(_lacks(module, attr)))
    assert top.cause == "api-moved-to-compat-v1"
    assert "TensorFlow 2 serves tf." in top.detail
    fix = fix_text(top)
    assert stop_gap in fix and "1.15" in fix


def test_the_keras_name_written_on_the_line_stays_a_keras_question() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 9, in <module>\n'
        "    loss = tf.keras.losses.softmax_cross_entropy(y, p)\n"
        + _lacks("tensorflow_core.python.keras.api._v2.keras.losses", "softmax_cross_entropy")
    )
    report = explained(text)
    assert not any(x.cause == "api-moved-to-compat-v1" for x in report.findings)


@pytest.mark.parametrize(
    ("module", "attr"),
    [
        # Not one of the aliased modules: tf.layers is TensorFlow's own in 2.x.
        ("tensorflow_core.python.keras.api._v2.keras.layers", "conv2d"),
        # A name Keras 2 has: the Keras readings judge it.
        ("tensorflow.python.keras.api._v2.keras.losses", "mean_squared_error"),
    ],
    ids=["not-aliased", "a-keras-name"],
)
def test_other_keras_module_misses_are_not_read_as_the_alias(module: str, attr: str) -> None:
    report = explained(_lacks(module, attr))
    assert not any("TensorFlow 2 serves tf." in x.detail for x in report.findings)


_EDWARD = (
    "ImportError: cannot import name 'NOT_REPARAMETERIZED'. "
    "Your TensorFlow version is not supported.\n"
)


@pytest.mark.parametrize(
    ("shown", "words"),
    [
        ("tensorflow 1.0.1\n", ("1.0.1 is older", "1.2 or later")),
        ("tensorflow 2.3.0\n", ("no Edward release runs", "TensorFlow Probability")),
        ("", ("pip show tensorflow", "below 1.2")),
    ],
    ids=["older-tf1", "tf2", "not-shown"],
)
def test_edwards_own_words_are_its_supported_tensorflow(shown: str, words: tuple[str, ...]) -> None:
    top = top_error(explained(shown + _EDWARD))
    assert top.cause == "companion-mismatch" and "Edward" in top.summary
    fix = fix_text(top)
    assert all(w in fix for w in words), fix
    assert "pip show edward tensorflow" in fix


@pytest.mark.parametrize(
    "line",
    [
        "Your TensorFlow version is not supported by this tool: see the docs",
        "WARNING: Your TensorFlow version is not supported yet, trying anyway",
    ],
    ids=["another-tools-words", "a-warning"],
)
def test_other_words_about_an_unsupported_tensorflow_are_not_edwards(line: str) -> None:
    report = explained(line + "\n")
    assert not any("Edward" in x.summary for x in report.findings)


@pytest.mark.parametrize(
    ("line", "statement", "message"),
    [
        (
            "from tensorflow.python.autograph.core import naming ImportError: cannot import "
            "name 'naming'",
            "from tensorflow.python.autograph.core import naming",
            "cannot import name 'naming' from 'tensorflow.python.autograph.core'",
        ),
        (
            "import tensorflow_addons ModuleNotFoundError: No module named 'typeguard'",
            "import tensorflow_addons",
            "No module named 'typeguard'",
        ),
    ],
    ids=["from-import", "import"],
)
def test_an_import_statement_joined_to_its_error_is_the_statement_that_raised(
    line: str, statement: str, message: str
) -> None:
    (tb,) = read_tracebacks(line + "\n")
    assert tb.statement == statement and tb.message == message


@pytest.mark.parametrize(
    "line",
    [
        # Another exception after a statement is not the import's.
        "import numpy ValueError: bad value",
        # Prose before the statement: not a statement alone on its line.
        "I ran from a.b import c ImportError: cannot import name 'c'",
    ],
    ids=["other-exception", "prose"],
)
def test_other_joined_lines_are_not_read_as_a_statement(line: str) -> None:
    assert all(not tb.statement for tb in read_tracebacks(line + "\n"))


def test_a_companions_source_checkout_is_the_checkout_to_move() -> None:
    path = "/home/user/src/probability/tensorflow_probability/python/bijectors/bijector.py"
    text = _cpython(path, "F = tf.Module._TF_MODULE_FIELDS.union(('a',))", _CLASS_MESSAGE)
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "source checkout (/home/user/src/probability)" in fix


@pytest.mark.parametrize(
    ("path", "first"),
    [
        ("/home/user/venv/lib/python3.8/site-packages/mylib/train.py", "python3.7 -m venv"),
        ("C:\\Users\\user\\venv\\lib\\site-packages\\mylib\\train.py", ""),
    ],
    ids=["python-3.8-without-1.15-wheels", "python-not-shown"],
)
def test_the_tf1_release_is_installed_where_this_python_has_no_wheel_of_it(
    path: str, first: str
) -> None:
    # 1.15 publishes wheels for Python 3.5-3.7 only: a later line of another major is not the
    # 1.x API the code needs, so an environment of a Python 1.15 has wheels for is made.
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 20, in build\n'
        "    x = tf.nn.softmax(x, axis=-1)\n"
        "TypeError: softmax() got an unexpected keyword argument 'axis'\n"
    )
    found = [x for x in explained(text).findings if x.fix is not None and "1.15" in x.fix.text]
    assert found
    commands = " ; ".join(found[0].fix.commands if found[0].fix else ())
    assert 'tensorflow==1.15.*"' in commands or "tensorflow==1.15" in commands
    assert "tensorflow==2." not in commands
    if first:
        assert commands.startswith(first)


def test_a_tensor_without_keras_history_names_the_keras_candidates() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 40, in <module>\n'
        "    model = Model(inputs=inp, outputs=crf_out)\n"
        "AttributeError: 'Tensor' object has no attribute '_keras_history'\n"
    )
    found = [x for x in explained(text).findings if x.cause == "keras-version"]
    assert found and found[0].severity.value == "warning"
    fix = fix_text(found[0])
    assert "tf.keras" in fix and "Lambda layer" in fix


def test_another_missing_private_attribute_is_not_keras_history() -> None:
    text = "AttributeError: 'Tensor' object has no attribute '_keras_mask'\n"
    assert all(x.cause != "keras-version" for x in explained(text).findings)


def test_tensorflow_2_of_the_keras_2_era_is_not_a_keras_3_line_on_a_newer_python() -> None:
    # Python 3.12 has no wheel of 2.15, the last line whose tf.keras is Keras 2: an environment
    # of a Python 2.15 has wheels for, never 2.16 (Keras 3) as the text's "Keras 2" line.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.12/runpy.py", line 198, in _run_module_as_main\n'
        "    return _run_code(code, main_globals, None,\n"
        '  File "/home/user/proj/train.py", line 3, in <module>\n'
        "    @tf.function\n"
        "AttributeError: module 'tensorflow' has no attribute 'function'\n"
    )
    found = [x for x in explained(text).findings if x.cause == "tf-too-old-for-code" and x.fix]
    assert found
    commands = " ; ".join(found[0].fix.commands if found[0].fix else ())
    assert 'tensorflow==2.15.*"' in commands and "-m venv" in commands
    assert "tensorflow==2.16" not in commands
