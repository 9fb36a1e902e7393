"""An exception raised in an installed library's own frame about a TensorFlow name: who raised
it decides the cause. A library asking TensorFlow for a name only TensorFlow 1 had is that
library's release (companion-mismatch, with the last 1.x line as the way to run it as it is);
the user's own code asking for it is an API use; a companion refusing a keyword where the log
shows no TensorFlow release names the oldest TensorFlow its releases need."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories
from tests.explaining import explained, fix_text
from tests.explaining import library_frame_log as _frames
from tfdoctor.evidence.traceback import read_tracebacks
from tfdoctor.explain.api import _missing_release_name, release_name_candidates
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import load_matrix


def _named(report: Report, cause: str) -> Optional[Finding]:
    return next((x for x in report.findings if x.cause == cause), None)


_RESET = "AttributeError: module 'tensorflow' has no attribute 'reset_default_graph'"


def test_a_library_asking_for_a_tensorflow_1_name_is_its_release() -> None:
    report = explained(
        _frames(
            "/opt/venv/lib/python3.7/site-packages/graphconv/parser.py",
            "tensorflow.reset_default_graph()",
            _RESET,
        )
    )
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.ERROR
    fix = fix_text(companion)
    # The API listings of the 1.x lines have it and no 2.x line does: TensorFlow 1 code.
    assert "1.15" in fix and "No TensorFlow 2 line has it" in fix
    assert companion.fix is not None
    assert any("tensorflow==1.15" in c for c in companion.fix.commands)
    # The name's own rule stays known, as a warning: its idiom is for the library's authors.
    api = _named(report, "api-moved-to-compat-v1")
    assert api is not None and api.severity is Severity.WARNING


def test_no_tensorflow_1_install_for_a_python_its_last_line_lacks() -> None:
    report = explained(
        _frames(
            "/opt/venv/lib/python3.11/site-packages/graphconv/parser.py",
            "tensorflow.reset_default_graph()",
            _RESET,
        )
    )
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.fix is not None
    assert "no wheel for Python 3.11" in companion.fix.text
    assert not any("1.15" in c for c in companion.fix.commands)


def test_the_users_own_code_asking_for_it_is_an_api_use() -> None:
    report = explained(
        _frames("/home/user/proj/model.py", "tensorflow.reset_default_graph()", _RESET)
    )
    api = _named(report, "api-moved-to-compat-v1")
    assert api is not None and api.severity is Severity.ERROR
    assert _named(report, "companion-mismatch") is None


def test_a_name_tensorflow_2_keeps_is_not_called_tensorflow_1_code() -> None:
    report = explained(
        _frames(
            "/opt/venv/lib/python3.7/site-packages/graphconv/parser.py",
            "fn = tf.function(step)",
            "AttributeError: module 'tensorflow' has no attribute 'function'",
        )
    )
    companion = _named(report, "companion-mismatch")
    assert companion is not None
    fix = fix_text(companion)
    # 1.x lines before 1.14 lack it: an older TensorFlow than the library's raised this.
    assert "TensorFlow 1.14 to " in fix and "No TensorFlow 2 line has it" not in fix
    assert companion.fix is not None
    assert not any("1.15" in c for c in companion.fix.commands)


_HUB = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/proj/embed.py", line 8, in <module>\n'
    '    embed = hub.Module("https://tfhub.dev/google/nnlm-en-dim128/1")\n'
    '  File "/srv/env/lib/python3.6/site-packages/tensorflow_hub/module.py", line 105, '
    "in __init__\n"
    "    self._state = _try_get_state_scope(name)\n"
    '  File "/srv/env/lib/python3.6/site-packages/tensorflow_hub/module.py", line 300, '
    "in _try_get_state_scope\n"
    "    with tf.variable_scope(None, default_name=name, auxiliary_name_scope=False):\n"
    "TypeError: __init__() got an unexpected keyword argument 'auxiliary_name_scope'\n"
)


def test_a_companion_refusing_a_keyword_names_the_oldest_tensorflow_it_needs() -> None:
    report = explained(_HUB)
    companion = _named(report, "companion-mismatch")
    assert companion is not None
    assert companion.severity in (Severity.WARNING, Severity.ERROR)
    fix = fix_text(companion)
    # The companion table's oldest tensorflow-hub row declares tensorflow>=1.7.0.
    assert "TensorFlow 1.7 or later" in fix and "pip show tensorflow" in fix


def test_the_oldest_floor_is_left_out_where_the_tensorflow_shown_is_above_it() -> None:
    report = explained("tensorflow==2.4.1\ntensorflow-hub==0.12.0\n" + _HUB)
    companion = _named(report, "companion-mismatch")
    assert companion is not None
    fix = fix_text(companion)
    assert "TensorFlow 1.7 or later" not in fix and "tensorflow-hub==0.16" in fix


def test_a_keyword_refused_in_the_users_own_frame_is_no_companions() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/embed.py", line 8, in <module>\n'
        "    build(auxiliary_name_scope=False)\n"
        "TypeError: build() got an unexpected keyword argument 'auxiliary_name_scope'\n"
    )
    assert _named(explained(text), "companion-mismatch") is None


def _v2_refusal(line: str, error: str) -> str:
    """A library's innermost frame (TensorFlow 2.9 on hides the dispatch wrapper's frame)
    calling TensorFlow with ``line``, which Python refused with ``error``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/seg.py", line 4, in <module>\n'
        "    net = unetlib.build(224)\n"
        '  File "/home/user/venv/lib/python3.10/site-packages/unetlib/blocks.py", line 51, '
        "in down\n"
        f"    {line}\n"
        f"{error}\n"
    )


@pytest.mark.parametrize(
    ("line", "error", "severity"),
    [
        # TensorFlow 2 runs tf.nn.conv2d as conv2d_v2, which takes filters, not 1.x's filter.
        pytest.param(
            "y = tf.nn.conv2d(x, filter=w, strides=1, padding='SAME')",
            "TypeError: conv2d_v2() got an unexpected keyword argument 'filter'",
            Severity.ERROR,
            id="keyword",
        ),
        # Python raises a refused call in the caller's frame: TensorFlow's is not shown.
        pytest.param(
            "y = tf.nn.max_pool(x, k, k, 'SAME', 'NHWC', None, 'pool')",
            "TypeError: max_pool_v2() takes from 4 to 6 positional arguments but 7 were given",
            Severity.WARNING,
            id="count",
        ),
    ],
)
def test_a_call_refused_by_the_v2_function_of_the_call_is_the_librarys(
    line: str, error: str, severity: Severity
) -> None:
    companion = _named(explained(_v2_refusal(line, error)), "companion-mismatch")
    assert companion is not None and companion.severity is severity
    assert "unetlib" in companion.summary and "tf.nn." in companion.detail


def test_a_v2_name_of_another_function_than_the_call_is_not_the_librarys() -> None:
    # The line calls tf.nn.conv2d; Python names another function's _v2: not that call.
    text = _v2_refusal(
        "y = tf.nn.conv2d(x, filter=w, strides=1, padding='SAME')",
        "TypeError: pool_v2() got an unexpected keyword argument 'filter'",
    )
    assert _named(explained(text), "companion-mismatch") is None


def _legacy_copy(python: str, raised_in: str) -> str:
    """A model built where the frame that raised is ``raised_in`` (under ``python``'s
    site-packages), reading a field Keras 3's KerasHistory lacks."""
    site = f"/home/user/venv/lib/python{python}/site-packages"
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/faces.py", line 30, in <module>\n'
        "    model = build_encoder()\n"
        f'  File "{site}/tensorflow/python/trackable/base.py", line 204, in _method_wrapper\n'
        "    result = method(self, *args, **kwargs)\n"
        f'  File "{site}/{raised_in}", line 700, in _validate_graph_inputs_and_outputs\n'
        "    layer = x._keras_history.layer\n"
        "AttributeError: 'KerasHistory' object has no attribute 'layer'\n"
    )


_COPY = "tensorflow/python/keras/engine/functional.py"


def test_keras_3_objects_in_tensorflows_private_keras_2_copy() -> None:
    report = explained(_legacy_copy("3.12", _COPY))
    found = _named(report, "keras3-behaviour-change")
    assert found is not None and found.severity is Severity.WARNING
    assert "tensorflow.python.keras" in fix_text(found)
    # Python 3.12 runs only TensorFlow lines whose tf.keras is Keras 3: said as the basis.
    assert "Python 3.12" in found.detail


def test_the_private_copy_where_tf_keras_may_be_keras_2_is_not_called_keras_3() -> None:
    report = explained(_legacy_copy("3.9", _COPY))
    assert _named(report, "keras3-behaviour-change") is None


def test_the_same_words_raised_elsewhere_are_not_the_private_copy() -> None:
    report = explained(_legacy_copy("3.12", "mylib/graph.py"))
    assert not any("private copy" in x.summary for x in report.findings)


def _imports(path: str, module: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 5, in <module>\n'
        "    import helpers\n"
        f'  File "{path}", line 26, in <module>\n'
        f"    import {module} as tf2\n"
        f"ModuleNotFoundError: No module named '{module}'\n"
    )


def test_the_users_code_importing_a_module_a_later_tensorflow_brought() -> None:
    report = explained(_imports("/home/user/proj/helpers.py", "tensorflow.compat.v2"))
    found = _named(report, "tf-too-old-for-code")
    assert found is not None and found.severity is Severity.ERROR
    # The 1.x listings: tf.compat.v2 from 1.14 on, and in every 2.x line.
    assert "from 1.14 on" in fix_text(found)


def test_a_module_every_listed_line_has_or_the_private_tree_is_not_a_later_release() -> None:
    for module in ("tensorflow.contrib", "tensorflow.python.keras.engine.keras_tensor"):
        report = explained(_imports("/home/user/proj/helpers.py", module))
        assert not any("from 1.14 on" in fix_text(x) for x in report.findings)
        assert not any(
            "is not in TensorFlow's public API before" in x.detail for x in report.findings
        )


def test_a_module_only_later_2x_lines_have_says_nothing_of_tensorflow_1() -> None:
    report = explained(_imports("/home/user/proj/helpers.py", "tensorflow.experimental.numpy"))
    for finding in report.findings:
        # (The 2.x listings' own verdict, before 2.4, is another rule's and may stand.)
        assert "is TensorFlow 2's" not in finding.detail and "1.x" not in finding.detail


def test_a_library_installed_as_an_egg_is_named_by_the_eggs_project() -> None:
    # setuptools names the egg's folder after the project: the distribution to upgrade,
    # whatever its import package is called (Tensor_Rec installs tensorrec).
    path = "/opt/venv/lib/python3.7/site-packages/Tensor_Rec-0.26-py3.7.egg/tensorrec/graph.py"
    report = explained(_frames(path, "tensorflow.reset_default_graph()", _RESET))
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.ERROR
    assert companion.summary.startswith("tensor-rec was written for another TensorFlow")
    assert companion.fix is not None
    # The egg shows the distribution installed by that name: it is upgraded by command.
    assert "pip install --upgrade tensor-rec" in companion.fix.commands
    assert "egg" not in companion.summary
    # The release the egg's folder names is the one installed.
    assert "this tensor-rec release (0.26)" in companion.fix.text


def test_a_library_outside_any_egg_keeps_its_import_name_to_look_up() -> None:
    path = "/opt/venv/lib/python3.7/site-packages/tensorrec/graph.py"
    report = explained(_frames(path, "tensorflow.reset_default_graph()", _RESET))
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.fix is not None
    # No name the log shows installed: what installed it is found first.
    assert "pip install --upgrade tensorrec" not in companion.fix.commands
    assert "Find the distribution that installed it" in companion.fix.text


def _undefined(path: str, name: str) -> str:
    """A library's import failing on a class statement whose base ``name`` is undefined."""
    return _frames(path, f"class OurLayer({name}):", f"NameError: name '{name}' is not defined")


_LIBRARY_LAYERS = "/home/u/conda/envs/w/lib/python3.7/site-packages/textkit/layers.py"


def test_a_keras_name_undefined_in_a_librarys_own_code_is_its_release() -> None:
    report = explained(_undefined(_LIBRARY_LAYERS, "Layer"))
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.WARNING
    assert "textkit" in companion.summary and "keras.layers.Layer" in companion.detail
    assert "textkit" in fix_text(companion)


def test_an_undefined_name_keras_does_not_export_or_the_users_own_is_no_release() -> None:
    # Python 2's unicode, a module alias (the import of TensorFlow failed), the user's file.
    for report in (
        explained(_undefined(_LIBRARY_LAYERS, "unicode")),
        explained(_undefined(_LIBRARY_LAYERS, "tf")),
        explained(_undefined("/home/user/proj/layers.py", "Layer")),
    ):
        assert _named(report, "companion-mismatch") is None


def _cell_importing(statement: str, error: str) -> str:
    """A notebook's traceback cut after the cell's own frame, whose marked line imports."""
    return (
        "---------------------------------------------------------------------------\n"
        "AttributeError                            Traceback (most recent call last)\n"
        "<ipython-input-2-9f0> in <module>\n"
        "      1 import numpy as np\n"
        f"----> 2 {statement}\n"
        "\n"
        f"{error}\n"
    )


_INITIALIZER = "AttributeError: module 'tensorflow' has no attribute 'variance_scaling_initializer'"


def test_a_cells_import_of_a_library_whose_frames_were_cut_is_that_librarys_release() -> None:
    report = explained(_cell_importing("import deepxde as dde", _INITIALIZER))
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.ERROR
    assert companion.summary.startswith("deepxde was written for another TensorFlow")
    assert "import deepxde as dde" in companion.detail
    # What the name is stays known, as a warning: the cell did not write it.
    api = _named(report, "api-moved-to-compat-v1")
    assert api is not None and api.severity is Severity.WARNING


def test_a_cells_import_of_a_module_no_distribution_is_known_for_stays_the_users() -> None:
    # A module of the user's own (model.py beside the notebook) is imported by the same words.
    report = explained(_cell_importing("from model import Net", _INITIALIZER))
    assert _named(report, "companion-mismatch") is None
    api = _named(report, "api-moved-to-compat-v1")
    assert api is not None and api.severity is Severity.ERROR


_TPU = "AttributeError: module 'tensorflow._api.v2.distribute' has no attribute 'TPUStrategy'"
_TUNER = "/opt/venv/lib/python3.7/site-packages/kerastuner/engine/tuner.py"


def test_a_library_asking_for_a_name_only_later_lines_have_is_newer_than_the_tensorflow() -> None:
    report = explained(
        "$ pip freeze\ntensorflow==2.2.0\n"
        + _frames(_TUNER, "if isinstance(s, tf.distribute.TPUStrategy):", _TPU)
    )
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.fix is not None
    fix = companion.fix
    # The listings have the name from 2.3 on: TensorFlow moves, not keras-tuner.
    assert "keras-tuner is newer than TensorFlow 2.2.0" in fix.text and "from 2.3 on" in fix.text
    assert any(c.startswith('pip install "tensorflow==2.3.') for c in fix.commands)
    assert not any("--upgrade" in c for c in fix.commands)


_READER = "/opt/venv/lib/python3.6/site-packages/seqkit/input.py"


@pytest.mark.parametrize(
    ("code", "attr", "says", "never"),
    [
        # tf.data came in 1.4 (its release notes), before the oldest listing (1.9).
        pytest.param(
            "ds = tf.data.Dataset.from_tensor_slices(x)",
            "data",
            ("in TensorFlow 1.4 to ", "from 1.4 on"),
            "1.9",
            id="dated-by-release-notes",
        ),
        # No source dates tf.linalg before the listings (1.9): 1.9 is never said to be first.
        pytest.param(
            "y = tf.linalg.inv(x)",
            "linalg",
            ("in TensorFlow 1.9 (or earlier) to ", "from 1.9 (or earlier) on"),
            "from 1.9 on",
            id="undated-before-listings",
        ),
    ],
)
def test_a_library_newer_than_an_early_tensorflow_is_dated_by_the_earliest_source(
    code: str, attr: str, says: tuple[str, ...], never: str
) -> None:
    error = f"AttributeError: module 'tensorflow' has no attribute '{attr}'"
    report = explained("$ pip freeze\ntensorflow==1.2.1\n" + _frames(_READER, code, error))
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.fix is not None
    text = companion.fix.text
    assert "newer than TensorFlow 1.2.1" in text
    assert all(x in text for x in says) and never not in text


def test_without_a_tensorflow_shown_the_library_is_not_called_newer() -> None:
    report = explained(_frames(_TUNER, "if isinstance(s, tf.distribute.TPUStrategy):", _TPU))
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.fix is not None
    assert "newer than TensorFlow" not in companion.fix.text
    assert "TensorFlow 2.3 to" in companion.fix.text


def test_a_newer_library_no_distribution_is_known_for_is_named_by_what_provides_it() -> None:
    path = "/opt/venv/lib/python3.7/site-packages/tunekit/engine/tuner.py"
    report = explained(
        "$ pip freeze\ntensorflow==2.2.0\n"
        + _frames(path, "if isinstance(s, tf.distribute.TPUStrategy):", _TPU)
    )
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.fix is not None
    assert "the package that provides `tunekit` is newer than" in companion.fix.text


# --- a library's own frame past Keras' training loop, and its TensorFlow front end -------------

_UNPACK = "AttributeError: module 'keras.utils' has no attribute 'unpack_x_y_sample_weight'"


def _through_keras(path: str, code: str, error: str) -> str:
    """The user's fit call into Keras' training loop, which calls ``path``'s code (raising)."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/fit.py", line 40, in <module>\n'
        "    model.fit(ds, epochs=1)\n"
        '  File "/opt/venv/lib/python3.9/site-packages/keras/engine/training.py", line 1160, '
        "in train_function\n"
        "    return step_function(self, iterator)\n"
        f'  File "{path}", line 1393, in train_step\n'
        f"    {code}\n"
        f"{error}\n"
    )


def test_a_librarys_frame_inside_keras_loop_leads_with_its_release() -> None:
    report = explained(
        _through_keras(
            "/opt/venv/lib/python3.9/site-packages/transformers/modeling_tf_utils.py",
            "x, y, w = tf.keras.utils.unpack_x_y_sample_weight(data)",
            _UNPACK,
        )
    )
    lead = report.findings[0]
    assert (lead.cause, lead.severity) == ("companion-mismatch", Severity.ERROR)
    assert "transformers" in lead.summary and "upgrade transformers" in fix_text(lead)
    # The name stays known, second, as a warning.
    removed = _named(report, "api-removed")
    assert removed is not None and removed.severity is Severity.WARNING


def test_the_users_own_frame_inside_keras_loop_is_no_librarys() -> None:
    report = explained(
        _through_keras("/home/user/proj/model.py", "x, y, w = unpack(data)", _UNPACK)
    )
    companion = _named(report, "companion-mismatch")
    assert companion is None or companion.severity is not Severity.ERROR


def test_tf_contrib_asked_by_a_library_leads_with_its_release() -> None:
    report = explained(
        _frames(
            "/usr/local/lib/python3.6/site-packages/tensorlayer/layers/convolution.py",
            "W_init=tf.contrib.layers.xavier_initializer(),",
            "AttributeError: module 'tensorflow' has no attribute 'contrib'",
        )
    )
    lead = report.findings[0]
    assert (lead.cause, lead.severity) == ("companion-mismatch", Severity.ERROR)
    contrib = _named(report, "tf-contrib-removed")
    assert contrib is not None and contrib.severity is Severity.WARNING


_CONV = "TypeError: conv() got an unexpected keyword argument 'batch_group_count'"


def test_a_keyword_refused_in_a_librarys_tensorflow_front_end_is_its_release() -> None:
    # JAX's jax2tf module calls TensorFlow's XLA ops through an alias the line does not spell.
    report = explained(
        _frames(
            "/opt/venv/lib/python3.9/site-packages/jax/experimental/jax2tf/impl_no_xla.py",
            "out = tfxla.conv(lhs, rhs, batch_group_count=batch_group_count)",
            _CONV,
        )
    )
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.WARNING
    assert "jax" in companion.summary and "batch_group_count" in companion.summary


def test_a_keyword_refused_in_a_librarys_other_module_is_not_called_tensorflows() -> None:
    report = explained(
        _frames(
            "/opt/venv/lib/python3.9/site-packages/jax/_src/lax/convolution.py",
            "out = impl.conv(lhs, rhs, batch_group_count=batch_group_count)",
            _CONV,
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_the_users_own_code_a_library_called_back_is_no_release_of_the_library() -> None:
    # A trainer of an installed library runs the user's model function, whose line asks.
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/run.py", line 3, in <module>\n'
        "    trainer.fit(model_fn)\n"
        '  File "/opt/venv/lib/python3.8/site-packages/gpflow/models/training.py", line 70, '
        "in fit\n"
        "    model_fn(features)\n"
        '  File "/home/user/proj/model.py", line 9, in model_fn\n'
        "    x = tf.placeholderx(tf.float32)\n"
        "AttributeError: module 'tensorflow' has no attribute 'placeholderx'\n"
    )
    assert _named(report, "companion-mismatch") is None
    assert _named(report, "api-removed") is not None


def _release_name_readings(path: str) -> list[Finding]:
    """The last resort's readings of a name TensorFlow lacks, asked at ``path``'s line."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/ana/proj/run.py", line 3, in <module>\n    import vizlib\n'
        f'  File "{path}", line 12, in <module>\n    g = tf.frobnicate_graph()\n'
        "AttributeError: module 'tensorflow' has no attribute 'frobnicate_graph'\n"
    )
    return release_name_candidates(
        read_tracebacks(log), Machine(Facts("", ""), factories.FIXTURE_MATRIX)
    )


def test_a_name_an_installed_librarys_line_asks_is_never_ported_where_pip_put_it() -> None:
    found = _release_name_readings("/home/ana/venv/lib/python3.10/site-packages/vizlib/core.py")
    assert [x.cause for x in found] == ["companion-mismatch", "api-removed"]
    text = fix_text(found[1])
    assert "port the code" not in text and "library's release" in text
    # The user's own file: porting it stays the other way.
    own = _release_name_readings("/home/ana/proj/vizlib/core.py")
    assert [x.cause for x in own] == ["api-removed"]
    assert "port the code" in fix_text(own[0])


def test_a_tensorflow_1_library_under_python_3_5_is_given_the_1_15_patch_with_its_wheels() -> None:
    # 1.15.5's wheels are for Python 3.6 and 3.7; 1.15.4's for 3.5 too (the shipped matrix's
    # row for that patch): the last 1.x line, installed as the release this Python can run.
    report = explained(
        _frames(
            "/usr/local/lib/python3.5/dist-packages/graphconv/parser.py",
            "tensorflow.reset_default_graph()",
            _RESET,
        ),
        matrix=load_matrix(),
    )
    for cause in ("companion-mismatch", "api-moved-to-compat-v1"):
        found = _named(report, cause)
        assert found is not None and found.fix is not None, cause
        assert any('tensorflow==1.15.4"' in c for c in found.fix.commands), cause
        assert not any("1.15.5" in c for c in found.fix.commands), cause


@pytest.mark.parametrize(
    ("site", "present", "absent"),
    [
        # 1.15.5 has no Python 3.5 wheels, 1.15.4 does (the shipped matrix's row for it).
        pytest.param("/opt/venv/lib/python3.5", ('tensorflow==1.15.4"',), "==1.4.", id="py3.5"),
        # No 1.x release has Python 3.8 wheels: an environment of the last 1.x line's Python.
        pytest.param(
            "/opt/venv/lib/python3.8",
            ("python3.7 -m venv", 'tensorflow==1.15.*"'),
            "==1.4.",
            id="py3.8",
        ),
    ],
)
def test_a_line_the_release_notes_date_is_installed_as_a_release_with_wheels_for_the_python(
    site: str, present: tuple[str, ...], absent: str
) -> None:
    # tf.data came in 1.4 (its release notes), a line the matrix has no row of: the command
    # installs a 1.x release the matrix says has this Python's wheels, or an environment for one.
    error = "AttributeError: module 'tensorflow' has no attribute 'data'"
    code = "ds = tf.data.Dataset.from_tensor_slices(x)"
    log = "$ pip freeze\ntensorflow==1.2.1\n" + _frames(
        f"{site}/site-packages/seqkit/in.py", code, error
    )
    companion = _named(explained(log, matrix=load_matrix()), "companion-mismatch")
    assert companion is not None and companion.fix is not None
    commands = companion.fix.commands
    assert all(any(x in c for c in commands) for x in present), commands
    assert not any(absent in c for c in commands), commands


@pytest.mark.parametrize(
    ("statement", "name"),
    [
        pytest.param("from keras.layers import Merge, Dense", "keras.layers.Merge", id="listed"),
        pytest.param(
            "from keras.layers import (Dense, Merge)", "keras.layers.Merge", id="parenthesised"
        ),
        pytest.param("from tensorflow.contrib import Merge as M", "tf.contrib.Merge", id="renamed"),
        pytest.param(
            "import numpy as np; from keras.layers import Merge",
            "keras.layers.Merge",
            id="second-statement-of-the-line",
        ),
        pytest.param("from keras.layers import Dense  # Merge", None, id="only-a-comment"),
        pytest.param("from vizlib.layers import Merge", None, id="another-package"),
    ],
)
def test_python_2s_bare_refusal_is_placed_by_the_from_import_printed(
    statement: str, name: Optional[str]
) -> None:
    # Python 2 says "cannot import name Merge" without the module: the statement says it.
    log = _frames("/home/ana/proj/train.py", statement, "ImportError: cannot import name Merge")
    assert _missing_release_name(read_tracebacks(log)[-1]) == name


@pytest.mark.parametrize(
    ("line", "causes"),
    [
        pytest.param("import vizlib as vz", ["companion-mismatch"], id="import-as"),
        pytest.param("from vizlib.core import render", ["companion-mismatch"], id="from-import"),
        pytest.param("from .core import render", [], id="relative-own-package"),
        pytest.param("from keras.models import load", [], id="tensorflows-own-family"),
    ],
)
def test_an_import_line_not_naming_the_missing_name_is_the_imported_packages_release(
    line: str, causes: list[str]
) -> None:
    # The line printed imports a package whose own frames, cut from the paste, asked.
    error = "AttributeError: module 'tensorflow' has no attribute 'frobnicate_graph'"
    log = _frames("/home/ana/proj/run.py", line, error)
    found = release_name_candidates(
        read_tracebacks(log), Machine(Facts("", ""), factories.FIXTURE_MATRIX)
    )
    assert [x.cause for x in found] == causes


def test_a_librarys_import_of_a_keras_module_that_moved_names_no_single_release_as_why() -> None:
    # keras/preprocessing/dataset_utils.py is at keras-team/keras v2.8.0 and moved to
    # keras/utils/ at v2.9.0: not 2.13's move under keras/src/.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.8/site-packages/imgkit/folders.py", line 8, in <module>\n'
        "    from keras.preprocessing import dataset_utils\n"
        "ImportError: cannot import name 'dataset_utils' from 'keras.preprocessing' "
        "(/srv/env/lib/python3.8/site-packages/keras/preprocessing/__init__.py)\n"
    )
    (lead,) = [x for x in explained(log).findings if x.cause == "companion-mismatch"]
    assert "Keras moves its internal modules between releases" in lead.detail
    assert "Keras 2.13 moved its internal modules" not in lead.detail


@pytest.mark.parametrize(
    ("shown", "pairing"),
    [
        # TensorFlow 2.3's own listing has tf.experimental: the library's release is no cause.
        pytest.param("tensorflow==2.3.0", False, id="release-with-the-name"),
        # 1.12 lacks it (the 1.x listings date it from 1.13): the library asks too new a name.
        pytest.param("tensorflow==1.12.0", True, id="release-without-the-name"),
    ],
)
def test_a_library_asking_for_a_name_the_shown_tensorflow_has_is_no_pairing(
    shown: str, pairing: bool
) -> None:
    text = (
        f"$ pip freeze | grep tensorflow\n{shown}\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.8/site-packages/vizlib/core.py", line 3, in <module>\n'
        "    tuner = tf.experimental\n"
        "AttributeError: module 'tensorflow' has no attribute 'experimental'\n"
    )
    assert (_named(explained(text), "companion-mismatch") is not None) is pairing


# --- a library's source tree outside site-packages -------------------------------------------


def _tree_import(package_dir: str, user_dir: str = "") -> str:
    """A library's source tree, imported from the directory above it, asking TensorFlow for a
    private module the installed TensorFlow lacks (``user_dir``: a frame of the user's own
    script there, importing the library first)."""
    head = (
        f'  File "{user_dir}/fit.py", line 3, in <module>\n    import tf_agents\n'
        if user_dir
        else ""
    )
    return (
        "Traceback (most recent call last):\n"
        + head
        + f'  File "{package_dir}/tf_agents/__init__.py", line 4, in <module>\n'
        "    from tf_agents import networks\n"
        f'  File "{package_dir}/tf_agents/networks/encoding.py", line 9, in <module>\n'
        "    from tensorflow.python.framework import composite_tensor_gradient\n"
        "ImportError: cannot import name 'composite_tensor_gradient' from "
        "'tensorflow.python.framework'\n"
    )


def test_a_librarys_source_tree_asking_for_a_private_module_is_its_release() -> None:
    report = explained(_tree_import("/home/ana/src/agents", "/home/ana/run"))
    found = [f for f in report.findings if f.cause == "companion-mismatch"]
    assert found and found[0].severity is Severity.ERROR
    text = fix_text(found[0])
    # The checkout is what runs: it moves, or TensorFlow does; nobody edits the library.
    assert "source checkout (/home/ana/src/agents)" in text and "TensorFlow" in text
    assert all(f.cause != "api-removed" for f in report.findings)
    assert "Import the public name" not in text


def test_the_users_folder_named_like_a_library_is_the_users_code() -> None:
    # The same private import in the user's own script, in a folder that only bears the
    # library's name: the user's code, whose import explain.api reads.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/ana/tf_agents/fit.py", line 9, in <module>\n'
        "    from tensorflow.python.framework import composite_tensor_gradient\n"
        "ImportError: cannot import name 'composite_tensor_gradient' from "
        "'tensorflow.python.framework'\n"
    )
    assert all(f.cause != "companion-mismatch" for f in explained(text).findings)


def test_a_checkouts_fix_updates_the_checkout() -> None:
    # Showing the installed releases alone changes nothing: the fix moves the checkout.
    report = explained(_tree_import("/home/ana/src/agents", "/home/ana/run"))
    found = [f for f in report.findings if f.cause == "companion-mismatch"]
    assert found and found[0].fix is not None
    assert 'git -C "/home/ana/src/agents" pull' in found[0].fix.commands


def test_a_branch_archives_fix_runs_no_git_command() -> None:
    # GitHub's archive of a branch unpacks into <repository>-<branch>: no clone, so `git pull`
    # there fails; the fix's words say a newer archive replaces it.
    report = explained(_tree_import("/home/ana/src/agents-master", "/home/ana/run"))
    found = [f for f in report.findings if f.cause == "companion-mismatch"]
    assert found and found[0].fix is not None
    assert "source checkout (/home/ana/src/agents-master)" in found[0].fix.text
    assert not any(c.startswith("git ") for c in found[0].fix.commands)


@pytest.mark.parametrize(
    ("error", "asked", "found"),
    [
        pytest.param(
            "ImportError: foo requires TensorFlow version >= 2.8; detected an installation of "
            "version 2.4.1",
            ">=2.8",
            "2.4.1",
            id="range-and-found",
        ),
        pytest.param(
            "RuntimeError: TensorFlow 2.17.0 is not supported by this release; use 2.12 or "
            "higher but below 2.16",
            ">=2.12",
            "2.17.0",
            id="found-first",
        ),
        pytest.param(
            "Exception: No matching plugin found for installed TensorFlow version",
            "",
            "",
            id="bare-exception-no-versions",
        ),
    ],
)
def test_a_library_refusing_the_tensorflow_it_found_in_its_own_words_is_its_release(
    error: str, asked: str, found: str
) -> None:
    # No sentence of the companions' table: the words and the frame that raised them decide.
    report = explained(
        _frames(
            "/opt/venv/lib/python3.10/site-packages/foo_plugin/_check.py",
            "raise _refusal()",
            error,
        )
    )
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.ERROR, report.findings
    assert "foo_plugin" in companion.summary
    fix = fix_text(companion)
    assert "foo-plugin" in fix
    assert (f"asks for TensorFlow {asked}" in fix) is bool(asked)
    assert (f"TensorFlow {found} is installed" in fix) is bool(found)


@pytest.mark.parametrize(
    ("path", "error"),
    [
        # TensorFlow's own check is no library's verdict on it.
        pytest.param(
            "/opt/venv/lib/python3.10/site-packages/tensorflow/python/framework/load_library.py",
            "RuntimeError: TensorFlow 2.17.0 is not supported on this platform",
            id="tensorflow-own-frame",
        ),
        # TensorFlow named without a requirement it fails.
        pytest.param(
            "/opt/venv/lib/python3.10/site-packages/foo_plugin/_check.py",
            "ValueError: Expected a TensorFlow tensor of rank 2, got version 3 of the input",
            id="no-refusal",
        ),
        # A requirement without TensorFlow's name.
        pytest.param(
            "/opt/venv/lib/python3.10/site-packages/foo_plugin/_check.py",
            "ImportError: foo requires numpy >= 1.22; detected version 1.19.5",
            id="other-package",
        ),
    ],
)
def test_words_that_are_no_library_verdict_on_tensorflow_are_not_read_as_one(
    path: str, error: str
) -> None:
    report = explained(_frames(path, "raise _refusal()", error))
    assert all(
        "foo_plugin` is built for another" not in x.summary
        and "asks for TensorFlow" not in (x.fix.text if x.fix else "")
        for x in report.findings
    ), [x.id for x in report.findings]


def test_a_library_warning_that_it_does_not_fit_the_tensorflow_it_found_is_a_warning() -> None:
    # Python's warnings module names the file that warned: the package is read from its path.
    report = explained(
        "/home/user/.venv/lib/python3.10/site-packages/baz_tools/__init__.py:14: UserWarning: "
        "You are using TensorFlow 2.16.1, which is not compatible with baz-tools. Please install "
        "tensorflow<2.16\n"
        "  warnings.warn(\n"
    )
    companion = _named(report, "companion-mismatch")
    assert companion is not None and companion.severity is Severity.WARNING, report.findings
    fix = fix_text(companion)
    assert "asks for TensorFlow <2.16" in fix and "TensorFlow 2.16.1 is installed" in fix
    # The same words warned by TensorFlow's own file are no library's verdict.
    own = explained(
        "/home/user/.venv/lib/python3.10/site-packages/tensorflow/python/util/x.py:14: "
        "UserWarning: TensorFlow 2.16.1 is not compatible with this platform\n"
    )
    assert _named(own, "companion-mismatch") is None, own.findings
