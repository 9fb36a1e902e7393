"""A call a library made that TensorFlow's or Keras' interface refused, read from the frames:
the innermost frame that is not TensorFlow's or Keras' lies in the library and the refusal
is theirs (their frames after it, their own words, or the class the words name), so the
library's release was written for another release (companion-mismatch, api-removed the other
candidate). The user's own code, an argument the user's line passed on, a library's own
function and a class of the library's own stay unexplained; AutoGraph's warning stays a note."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text
from tfdoctor import causes
from tfdoctor.findings import UNEXPLAINED_EXCEPTION, Finding, Report, Severity
from tfdoctor.keras_api import KERAS_API_DATA, parse_keras_api

_SITE = "/home/ana/venv/lib/python3.8/site-packages"


def _trace(frames: list[tuple[str, str, str]], error: str) -> str:
    """A traceback of ``frames`` (path, function, source line), outermost first."""
    body = "".join(
        f'  File "{path}", line {10 + i}, in {func}\n    {code}\n'
        for i, (path, func, code) in enumerate(frames)
    )
    return f"Traceback (most recent call last):\n{body}{error}\n"


def _named(report: Report, cause: str) -> Optional[Finding]:
    return next((x for x in report.findings if x.cause == cause), None)


def _unexplained(report: Report) -> bool:
    """No cause read: the exception stays unexplained (or a note)."""
    return all(
        x.id == UNEXPLAINED_EXCEPTION or x.severity.rank <= Severity.INFO.rank
        for x in report.findings
    )


_USER = ("/home/ana/proj/run.py", "<module>", "model = build_model()")
_KERAS2_REFUSAL = [
    (
        f"{_SITE}/keras/engine/base_layer.py",
        "__init__",
        "generic_utils.validate_kwargs(kwargs, allowed_kwargs)",
    ),
    (
        f"{_SITE}/keras/utils/generic_utils.py",
        "validate_kwargs",
        "raise TypeError(error_message, kwarg)",
    ),
]


def test_keras_2_refusing_a_librarys_keyword_is_the_librarys_release() -> None:
    report = explained(
        _trace(
            [
                _USER,
                (f"{_SITE}/mesh_tensorflow/layers.py", "__init__", "super().__init__(**kwargs)"),
                *_KERAS2_REFUSAL,
            ],
            "TypeError: ('Keyword argument not understood:', 'input_dim')",
        )
    )
    lead = _named(report, "companion-mismatch")
    assert lead is not None and lead.severity is Severity.ERROR
    assert "mesh-tensorflow" in lead.summary and "Keras" in lead.summary
    assert "mesh-tensorflow" in fix_text(lead)
    other = _named(report, "api-removed")
    assert other is not None and other.severity is Severity.WARNING


def test_keras_refusing_the_users_own_keyword_stays_unexplained() -> None:
    report = explained(
        _trace(
            [
                ("/home/ana/proj/model.py", "<module>", "x = Dense(10, activaton='relu')(x)"),
                *_KERAS2_REFUSAL,
            ],
            "TypeError: ('Keyword argument not understood:', 'activaton')",
        )
    )
    assert _named(report, "companion-mismatch") is None and _unexplained(report)


def test_a_keyword_the_users_line_passed_through_the_library_is_the_users() -> None:
    report = explained(
        _trace(
            [
                ("/home/ana/proj/model.py", "<module>", "y = mtf_layer(x, activaton='relu')"),
                (f"{_SITE}/mesh_tensorflow/layers.py", "__init__", "super().__init__(**kwargs)"),
                *_KERAS2_REFUSAL,
            ],
            "TypeError: ('Keyword argument not understood:', 'activaton')",
        )
    )
    assert _named(report, "companion-mismatch") is None


_OP_FRAMES = [
    (
        f"{_SITE}/tensorflow/python/tpu/ops/gen_tpu_ops.py",
        "tpu_replicated_input",
        "is_packed=is_packed, name=name)",
    ),
    (
        f"{_SITE}/tensorflow/python/framework/op_def_library.py",
        "_apply_op_helper",
        "(input_name, op_type_name, values))",
    ),
]
_OP_ERROR = (
    "TypeError: Expected list for 'inputs' argument to 'TPUReplicatedInput' Op, not "
    "shared/embedding."
)


def test_tensorflows_op_refusing_a_librarys_argument_is_the_librarys_release() -> None:
    report = explained(
        _trace(
            [
                _USER,
                (
                    f"{_SITE}/mesh_tensorflow/simd_mesh_impl.py",
                    "make_slices",
                    "return tpu_ops.tpu_replicated_input(inputs, name=name)",
                ),
                *_OP_FRAMES,
            ],
            _OP_ERROR,
        )
    )
    lead = _named(report, "companion-mismatch")
    # The op's words say TensorFlow refused; an argument of another kind may also be the
    # library's own slip: a warning.
    assert lead is not None and lead.severity is Severity.WARNING
    assert "mesh-tensorflow" in fix_text(lead) and "TPUReplicatedInput" in lead.summary


@pytest.mark.parametrize(
    "stdlib",
    [
        "/usr/lib/python3.8/contextlib.py",
        "C:\\Users\\ana\\anaconda3\\envs\\tf\\lib\\contextlib.py",
        "C:\\Users\\ana\\AppData\\Local\\Programs\\Python\\Python38\\lib\\contextlib.py",
    ],
)
def test_a_standard_library_frame_between_library_and_tensorflow_is_not_the_caller(
    stdlib: str,
) -> None:
    """A library's ``with`` block enters TensorFlow's context manager through contextlib:
    the standard library's frame passes the call on, and the library made it."""
    report = explained(
        _trace(
            [
                _USER,
                (
                    f"{_SITE}/mesh_tensorflow/simd_mesh_impl.py",
                    "make_slices",
                    "with tpu_ops.replicated_scope(inputs):",
                ),
                (stdlib, "__enter__", "return next(self.gen)"),
                *_OP_FRAMES,
            ],
            _OP_ERROR,
        )
    )
    lead = _named(report, "companion-mismatch")
    assert lead is not None and "mesh-tensorflow" in fix_text(lead)


def test_tensorflows_op_refusing_the_users_argument_stays_unexplained() -> None:
    report = explained(
        _trace(
            [
                ("/home/ana/proj/tpu.py", "<module>", "x = tpu_ops.tpu_replicated_input(t)"),
                *_OP_FRAMES,
            ],
            _OP_ERROR,
        )
    )
    assert _named(report, "companion-mismatch") is None and _unexplained(report)


def test_a_tensorflow_objects_attribute_a_librarys_line_reads_is_its_release() -> None:
    report = explained(
        _trace(
            [
                _USER,
                (f"{_SITE}/recsys/model.py", "_build_tf_graph", "self._record_hooks()"),
                (f"{_SITE}/recsys/model.py", "_record_hooks", "classes = hook._output_classes"),
            ],
            "AttributeError: 'Iterator' object has no attribute '_output_classes'",
        )
    )
    lead = _named(report, "companion-mismatch")
    # Only the class's name says the object is TensorFlow's: a warning.
    assert lead is not None and lead.severity is Severity.WARNING
    assert "Iterator objects have no _output_classes" in lead.summary
    other = _named(report, "api-removed")
    assert other is not None and "tensorflow" in fix_text(other)


def test_an_internal_tensorflow_class_needs_no_other_sign_of_tensorflow() -> None:
    report = explained(
        _trace(
            [_USER, (f"{_SITE}/embedlib/core.py", "embed", "shapes = it.output_shapes")],
            "AttributeError: 'OwnedIterator' object has no attribute 'output_shapes'",
        )
    )
    lead = _named(report, "companion-mismatch")
    assert lead is not None and lead.severity is Severity.WARNING


def test_python_3_10s_qualified_name_of_a_tensorflow_class_names_the_callee() -> None:
    report = explained(
        _trace(
            [
                _USER,
                (
                    f"{_SITE}/recsys/input.py",
                    "next_batch",
                    "return self.it.get_next(self.tf_session)",
                ),
            ],
            "TypeError: Iterator.get_next() takes 1 positional argument but 2 were given",
        )
    )
    lead = _named(report, "companion-mismatch")
    assert lead is not None and lead.severity is Severity.WARNING


def test_a_class_named_like_tensorflows_in_a_library_not_on_it_stays_unexplained() -> None:
    report = explained(
        _trace(
            [_USER, (f"{_SITE}/netlib/blocks.py", "forward", "y = self.seq.proj(x)")],
            "AttributeError: 'Sequential' object has no attribute 'proj'",
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_a_dataset_class_name_other_libraries_share_needs_a_sign_of_tensorflow() -> None:
    # detectron2's data/common.py has a MapDataset of its own (a PyTorch dataset): the name
    # alone is not TensorFlow's.
    report = explained(
        _trace(
            [_USER, (f"{_SITE}/detectron2/data/build.py", "build", "n = loader.dataset.sizes")],
            "AttributeError: 'MapDataset' object has no attribute 'sizes'",
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_an_attribute_of_the_users_own_class_stays_unexplained() -> None:
    report = explained(
        _trace(
            [_USER, ("/home/ana/proj/model.py", "run", "self.encoderr(x)")],
            "AttributeError: 'Model' object has no attribute 'encoderr'",
        )
    )
    assert _named(report, "companion-mismatch") is None and _unexplained(report)


def test_a_librarys_own_function_refusing_its_keyword_is_no_release_question() -> None:
    report = explained(
        _trace(
            [_USER, (f"{_SITE}/netlib/core.py", "run", "return self._helper(x, mode=1)")],
            "TypeError: _helper() got an unexpected keyword argument 'mode'",
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_autographs_warning_about_an_attribute_stays_a_note() -> None:
    report = explained(
        "WARNING:tensorflow:AutoGraph could not transform <function step at 0x7f2a> and will "
        "run it as-is.\n"
        "Cause: 'Iterator' object has no attribute '_output_classes'\n"
        "To silence this warning, decorate the function with "
        "@tf.autograph.experimental.do_not_convert\n"
        "Epoch 1/2\n"
    )
    assert all(x.severity.rank <= Severity.INFO.rank for x in report.findings)


def test_keras_calling_its_own_function_with_the_library_outside_is_not_the_librarys() -> None:
    report = explained(
        _trace(
            [
                _USER,
                (f"{_SITE}/mesh_tensorflow/layers.py", "call", "y = self.dense(x)"),
                (
                    f"{_SITE}/keras/engine/base_layer.py",
                    "__call__",
                    "self._set_mask_metadata(inputs, outputs, input_masks, build_graph=True)",
                ),
            ],
            "TypeError: _set_mask_metadata() got an unexpected keyword argument 'build_graph'",
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_keras_words_a_library_raises_in_its_own_frame_are_its_own_functions() -> None:
    # A copy of Keras' validate_kwargs in the library's code: its own function refused.
    report = explained(
        _trace(
            [_USER, (f"{_SITE}/mesh_tensorflow/utils.py", "check", "raise TypeError(msg, kwarg)")],
            "TypeError: ('Keyword argument not understood:', 'input_dim')",
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_tf_keras_compile_refusing_a_librarys_keyword_is_the_librarys_release() -> None:
    report = explained(
        _trace(
            [
                _USER,
                (
                    f"{_SITE}/mesh_tensorflow/train.py",
                    "setup",
                    "model.compile(opt, jit_compile=True)",
                ),
                (
                    f"{_SITE}/tensorflow/python/keras/engine/training.py",
                    "compile",
                    "raise TypeError('Invalid keyword argument(s) in `compile`: %s' %",
                ),
            ],
            "TypeError: Invalid keyword argument(s) in `compile`: {'jit_compile'}",
        )
    )
    lead = _named(report, "companion-mismatch")
    assert lead is not None and "mesh-tensorflow" in fix_text(lead)


def test_a_refusal_a_library_logged_before_the_run_went_on_stays_a_note() -> None:
    # A callback's exception that Python's logging printed (``logger.exception``), then the
    # epochs trained to their end: the exception did not end the run, so neither candidate
    # is a problem (the same words ending the log are, as the tests above show).
    refused = _trace(
        [_USER, (f"{_SITE}/embedlib/core.py", "embed", "shapes = it.output_shapes")],
        "AttributeError: 'OwnedIterator' object has no attribute 'output_shapes'",
    )
    epochs = (
        "Epoch 1/2\n"
        "10/10 [==============================] - 2s 5ms/step - loss: 0.5012\n"
        "Epoch 2/2\n"
        "10/10 [==============================] - 0s 4ms/step - loss: 0.4011\n"
    )
    went_on = explained(f"ERROR:embedlib:embedding failed\n{refused}{epochs}")
    assert _named(went_on, "companion-mismatch") is not None
    assert all(x.severity.rank <= Severity.INFO.rank for x in went_on.findings)
    # Work shown before the exception does not say the run went on after it.
    ended = explained(f"{epochs}{refused}")
    lead = _named(ended, "companion-mismatch")
    assert lead is not None and lead.severity is Severity.WARNING


def test_a_keyword_a_library_logged_before_the_run_went_on_stays_a_note() -> None:
    # TensorFlow's dispatch wrapper took the library's call and Python refused the keyword
    # (the callee shown): an error where it ends the log, a note where epochs trained after.
    refused = _trace(
        [
            _USER,
            (f"{_SITE}/embedlib/core.py", "embed", "probs = tf.nn.softmax(logits, dim=-1)"),
            (
                f"{_SITE}/tensorflow/python/util/dispatch.py",
                "op_dispatch_handler",
                "return dispatch_target(*args, **kwargs)",
            ),
        ],
        "TypeError: softmax_v2() got an unexpected keyword argument 'dim'",
    )
    epochs = (
        "Epoch 1/2\n"
        "10/10 [==============================] - 2s 5ms/step - loss: 0.5012\n"
        "Epoch 2/2\n"
        "10/10 [==============================] - 0s 4ms/step - loss: 0.4011\n"
    )
    went_on = _named(
        explained(f"ERROR:embedlib:embedding failed\n{refused}{epochs}"), "companion-mismatch"
    )
    assert went_on is not None and went_on.severity.rank <= Severity.INFO.rank
    assert "went on" in went_on.detail
    ended = _named(explained(f"{epochs}{refused}"), "companion-mismatch")
    assert ended is not None and ended.severity is Severity.ERROR


def test_numpy_read_on_a_graph_tensor_is_no_release_question() -> None:
    # Only an eager tensor has numpy() (tensorflow/python/framework/ops.py, _EagerTensorBase),
    # in every TensorFlow 2 release: a graph tensor meets the call in a tf.function or under
    # TensorFlow 1's behaviour, whatever the releases.
    for cls in ("Tensor", "SymbolicTensor", "KerasTensor"):
        report = explained(
            _trace(
                [
                    _USER,
                    (
                        f"{_SITE}/tensorflow_addons/metrics/f_scores.py",
                        "update_state",
                        "y = y_true.numpy()",
                    ),
                ],
                f"AttributeError: '{cls}' object has no attribute 'numpy'",
            )
        )
        assert _named(report, "companion-mismatch") is None, cls


def test_the_other_candidates_summary_keeps_the_refusing_functions_name() -> None:
    # Python's name of the function is an identifier: capitalised it would name another
    # (``Conv2d()``, neither TensorFlow's conv2d nor Keras' Conv2D).
    report = explained(
        _trace(
            [
                _USER,
                (
                    f"{_SITE}/tensorflow_addons/layers/wrappers.py",
                    "call",
                    "y = tf.nn.conv2d(x, w, 1)",
                ),
                (
                    f"{_SITE}/tensorflow/python/util/dispatch.py",
                    "wrapper",
                    "return target(*args, **kwargs)",
                ),
            ],
            "TypeError: conv2d() got multiple values for argument 'strides'",
        )
    )
    other = _named(report, "api-removed")
    assert other is not None and other.summary.startswith("conv2d() got strides twice")


# Python's words for a keyword TensorFlow's XLA conv wrapper (tensorflow/compiler/tf2xla/
# python/xla.py) takes only from 2.8 on; the rest of each log is written for the test.
_CONV_REFUSAL = "TypeError: conv() got an unexpected keyword argument 'batch_group_count'"


# Python's words for a keyword of TensorFlow's Keras input-signature helper (tensorflow/python/
# keras/saving/saving_utils.py), which it takes only from 2.1 on.
_SIGNATURE_REFUSAL = (
    "TypeError: model_input_signature() got an unexpected keyword argument "
    "'keep_original_batch_size'"
)
#: Each refusal of a keyword of TensorFlow's own modules the API table dates: the keyword, the
#: line that brought it, the function's path and a TensorFlow shown that takes it.
_OWN_MODULE_REFUSALS = [
    pytest.param(
        _CONV_REFUSAL,
        "batch_group_count",
        "2.8",
        "tensorflow.compiler.tf2xla.python.xla.conv",
        "2.9.1",
        id="xla-conv",
    ),
    pytest.param(
        _SIGNATURE_REFUSAL,
        "keep_original_batch_size",
        "2.1",
        "tensorflow.python.keras.saving.saving_utils.model_input_signature",
        "2.3.1",
        id="keras-input-signature",
    ),
]


@pytest.mark.parametrize(("refusal", "keyword", "line", "api", "takes"), _OWN_MODULE_REFUSALS)
def test_a_keyword_of_tensorflows_own_module_refused_without_frames_is_a_librarys(
    refusal: str, keyword: str, line: str, api: str, takes: str
) -> None:
    # Only the last line was pasted: the function is one of TensorFlow's own modules, which
    # libraries built on it call, and the API table knows the line that brought the keyword.
    report = explained(f"converting the model\n{refusal}\n")
    found = _named(report, "companion-mismatch")
    assert found is not None and found.severity is Severity.WARNING
    assert line in found.summary and keyword in found.summary
    text = fix_text(found)
    assert f"TensorFlow {line}" in text and api in text
    assert "inferred" in found.detail  # the caller is not shown


@pytest.mark.parametrize(("refusal", "keyword", "line", "api", "takes"), _OWN_MODULE_REFUSALS)
def test_a_tensorflow_shown_that_takes_the_keyword_is_no_release_question(
    refusal: str, keyword: str, line: str, api: str, takes: str
) -> None:
    # The TensorFlow shown takes the keyword: the function that refused it is not its own.
    report = explained(f"$ pip freeze\ntensorflow=={takes}\n{refusal}\n")
    assert _named(report, "companion-mismatch") is None
    assert _unexplained(report)


def test_a_method_of_that_name_is_not_the_modules_function() -> None:
    # Python 3.10+ names a method by its class: not the XLA module's function.
    refusal = "TypeError: Helper.conv() got an unexpected keyword argument 'batch_group_count'"
    assert _named(explained(f"{refusal}\n"), "companion-mismatch") is None


def test_a_librarys_frame_and_a_tensorflow_that_takes_the_keyword_is_no_release() -> None:
    # The table says TensorFlow 2.9 takes it: whatever conv() refused, it is not that one.
    frame = (f"{_SITE}/jax/experimental/jax2tf/jax2tf.py", "gen_conv", "out = tfxla.conv(")
    report = explained(f"$ pip freeze\ntensorflow==2.9.1\n{_trace([_USER, frame], _CONV_REFUSAL)}")
    assert _named(report, "companion-mismatch") is None


def test_a_source_line_calling_another_function_is_not_the_tables_call() -> None:
    report = explained(f"    y = torch_conv(x, batch_group_count=2)\n{_CONV_REFUSAL}\n")
    assert _named(report, "companion-mismatch") is None


def test_a_public_functions_keyword_without_frames_is_not_read_as_a_librarys() -> None:
    # tf.function's jit_compile: user code calls the public API too (explain.api's reading).
    report = explained("TypeError: function() got an unexpected keyword argument 'jit_compile'\n")
    lead = report.findings[0]
    assert lead.cause == "tf-too-old-for-code" and lead.severity is Severity.ERROR
    # The library's release stays the other candidate only.
    assert all(
        x.summary.startswith("Or:") for x in report.findings if x.cause == "companion-mismatch"
    )


def test_a_librarys_refused_keyword_the_table_knows_names_its_release() -> None:
    report = explained(
        "$ pip freeze\ntensorflow==2.6.0\n"
        + _trace(
            [
                _USER,
                (
                    f"{_SITE}/jax/experimental/jax2tf/jax2tf.py",
                    "_conv_general_dilated",
                    "out = tfxla.conv(lhs, rhs, batch_group_count=batch_group_count)",
                ),
            ],
            _CONV_REFUSAL,
        )
    )
    found = _named(report, "companion-mismatch")
    assert found is not None
    text = fix_text(found)
    assert "from TensorFlow 2.8 on, and TensorFlow 2.6.0 is older" in text
    assert "release of jax" in text


def test_a_librarys_refused_keyword_the_table_lacks_says_so_and_how_to_find_it() -> None:
    report = explained(
        _trace(
            [
                _USER,
                (
                    f"{_SITE}/jax/experimental/jax2tf/jax2tf.py",
                    "_reduce_window",
                    "out = tfxla.reduce_window(x, init, window_shape=shape)",
                ),
            ],
            "TypeError: reduce_window() got an unexpected keyword argument 'window_shape'",
        )
    )
    found = _named(report, "companion-mismatch")
    assert found is not None and found.fix is not None
    assert "not in tfdoctor's API tables" in found.fix.text
    assert "2.8" not in found.fix.text  # no release is made up
    assert causes.common.declared_requirements_command("jax") in found.fix.commands


# Python's words for TensorFlow 2's tf.name_scope (a class taking only name) called with
# TensorFlow 1's (name, default_name, values); the frames are written for the test.
_SCOPE_LINE = 'with tf.name_scope(name, "Bernoulli", [logits, probs]) as name:'
_POSITIONAL = "TypeError: __init__() takes 2 positional arguments but 4 were given"


def test_a_librarys_line_calling_tensorflow_names_the_callee_python_does_not_show() -> None:
    # Python raises the refused call in the caller's frame: no TensorFlow frame follows it.
    report = explained(
        _trace(
            [
                _USER,
                (
                    f"{_SITE}/tensorflow_probability/python/distributions/bernoulli.py",
                    "__init__",
                    _SCOPE_LINE,
                ),
            ],
            _POSITIONAL,
        )
    )
    found = _named(report, "companion-mismatch")
    assert found is not None and found.severity is Severity.WARNING
    assert "tensorflow-probability" in found.summary and "tf.name_scope()" in found.summary
    assert "the line calls TensorFlow's tf.name_scope" in found.detail
    assert " is a class of" not in found.detail  # Python 3.8's words name no class
    # A companion: its compatibility table pairs it with TensorFlow (no release made up).
    assert "compatibility table" in fix_text(found) and "2.8" not in fix_text(found)


def test_a_library_line_calling_tensorflow_names_it_whatever_the_python() -> None:
    # Python 3.10+ names the constructor by its class (TensorFlow 2's name_scope_v2).
    frame = (f"{_SITE}/somelib/layers.py", "__init__", _SCOPE_LINE)
    refusal = "TypeError: name_scope_v2.__init__() takes 2 positional arguments but 4 were given"
    found = _named(explained(_trace([_USER, frame], refusal)), "companion-mismatch")
    assert found is not None and "tf.name_scope()" in found.summary
    assert "not in tfdoctor's API tables" in fix_text(found)


def test_a_constructor_on_a_line_of_other_calls_is_not_tensorflows() -> None:
    # The line's one call of TensorFlow's is an argument of the library's own class.
    line = "self.b = Bijector(tf.constant(1.0), scale, shift)"
    report = explained(
        _trace(
            [_USER, (f"{_SITE}/tensorflow_probability/python/bijectors/b.py", "f", line)],
            _POSITIONAL,
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_the_users_line_calling_tensorflow_so_stays_unexplained() -> None:
    report = explained(_trace([("/home/ana/proj/model.py", "build", _SCOPE_LINE)], _POSITIONAL))
    assert _named(report, "companion-mismatch") is None


def test_a_constructor_on_a_line_of_two_tensorflow_calls_is_not_placed() -> None:
    # Which of the two calls' constructors refused is not shown.
    line = "with tf.name_scope(name, 'a', [x]), tf.variable_scope(scope, 'b', [x]):"
    report = explained(
        _trace(
            [
                _USER,
                (f"{_SITE}/tensorflow_probability/python/distributions/bernoulli.py", "f", line),
            ],
            _POSITIONAL,
        )
    )
    assert _named(report, "companion-mismatch") is None


def test_a_public_keyword_the_table_gives_no_older_name_is_not_told_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A row of a public function's new argument (no older spelling): the fix upgrades or drops
    # it, and names no argument of the line before.
    text = KERAS_API_DATA.read_text(encoding="utf-8").replace(
        "tensorflow2_arguments:\n",
        "tensorflow2_arguments:\n"
        "  - argument: planted_option\n"
        "    function: function\n"
        "    api: tf.function\n"
        '    added_in: "2.9"\n'
        "    source: tf-2.5-function\n",
    )
    table = parse_keras_api(text)
    monkeypatch.setattr("tfdoctor.explain.api.keras_api", lambda: table)
    report = explained(
        "TypeError: function() got an unexpected keyword argument 'planted_option'\n"
    )
    lead, edit = report.findings[0], _named(report, "api-removed")
    assert lead.cause == "tf-too-old-for-code" and "upgrade TensorFlow to 2.9" in fix_text(lead)
    assert edit is not None and "drop `planted_option=`." in fix_text(edit)
    assert "called it" not in lead.detail and "2.8 write" not in fix_text(edit)


# --- whose code made the call decides the fix: a library's release, or the user's edit -------

_TF241 = "tensorflow 2.4.1\n"
_JIT_REFUSED = "TypeError: function() got an unexpected keyword argument 'jit_compile'"
_LIBRARY_JIT = (f"{_SITE}/augmentlib/layers.py", "<module>", "@tf.function(jit_compile=True)")


def test_a_librarys_keyword_a_later_line_brought_gets_no_edit_of_its_code() -> None:
    # tf.function took jit_compile from 2.5 (experimental_compile before): the library's own
    # line asked, so its release or the TensorFlow it was written for is the fix, never the
    # older spelling written into site-packages.
    report = explained(
        _TF241
        + _trace(
            [("/home/ana/proj/run.py", "<module>", "import augmentlib"), _LIBRARY_JIT], _JIT_REFUSED
        )
    )
    lead, older = report.findings[0], _named(report, "tf-too-old-for-code")
    assert lead.cause == "companion-mismatch" and lead.severity is Severity.ERROR
    assert older is not None and older.severity is Severity.WARNING
    assert _named(report, "api-removed") is None  # no edit of the library's code
    for found in (lead, older):
        text = fix_text(found)
        assert "experimental_compile" not in text, text
        assert "augmentlib" in text and "2.5" in text


def test_the_users_own_line_asking_a_later_lines_keyword_keeps_the_edit() -> None:
    report = explained(
        _TF241
        + _trace(
            [("/home/ana/proj/run.py", "<module>", "@tf.function(jit_compile=True)")], _JIT_REFUSED
        )
    )
    older, removed = _named(report, "tf-too-old-for-code"), _named(report, "api-removed")
    assert older is not None and older.severity is Severity.ERROR and "2.5" in fix_text(older)
    assert removed is not None and removed.severity is Severity.WARNING
    assert "write `experimental_compile=`" in fix_text(removed)
    assert _named(report, "companion-mismatch") is None


_CONTRIB = "AttributeError: module 'tensorflow' has no attribute 'contrib'"


@pytest.mark.parametrize(
    ("path", "library"),
    [
        pytest.param(f"{_SITE}/detectlib/eval_util.py", True, id="installed-library"),
        pytest.param("/home/ana/detectlib/detectlib/eval_util.py", False, id="project-checkout"),
    ],
)
def test_tf_contribs_successors_are_for_the_users_code_alone(path: str, library: bool) -> None:
    report = explained(
        "tensorflow 2.1.0\n"
        + _trace(
            [
                ("/home/ana/run.py", "<module>", "import detectlib"),
                (path, "<module>", "slim = tf.contrib.slim"),
            ],
            _CONTRIB,
        )
    )
    found = _named(report, "tf-contrib-removed")
    assert found is not None
    text = fix_text(found)
    # The edit (tf-slim, the successor) for code the user keeps; for a library's, its release
    # or the last line that has tf.contrib, with the lines the listings date.
    assert ("tf-slim" in text) is not library, text
    assert "1.15" in text


_NAME_SCOPE = "with tf.name_scope(name, 'block', [x]):"


def _blocklib(code: str, message: str) -> Report:
    """The report of an installed library's line ``code`` (blocklib, imported by the user's
    script) that ended in ``message`` under TensorFlow 2.4.1."""
    return explained(
        _TF241
        + _trace(
            [
                ("/home/ana/proj/run.py", "<module>", "import blocklib"),
                (f"{_SITE}/blocklib/ops.py", "block", code),
            ],
            message,
        )
    )


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(
            "TypeError: __init__() takes from 2 to 3 positional arguments but 4 were given",
            id="python-3.9",
        ),
        pytest.param(
            "TypeError: name_scope_v2.__init__() takes from 2 to 3 positional arguments but 4 "
            "were given",
            id="python-3.10",
        ),
    ],
)
def test_a_count_tensorflow_refused_in_a_librarys_call_is_read_once(message: str) -> None:
    report = _blocklib(_NAME_SCOPE, message)
    lead, removed = _named(report, "companion-mismatch"), _named(report, "api-removed")
    assert lead is not None and removed is not None
    assert "4 positional arguments" in lead.summary and "tf.name_scope" in lead.summary
    assert "blocklib" in fix_text(removed) and "release" in fix_text(removed)


def test_a_named_function_tensorflow_refused_has_the_same_two_readings() -> None:
    # A function Python names (not a constructor): once read by its own words with one fix
    # for the companion alone; now the one reading of refused calls, with the other candidate.
    report = _blocklib(
        "y = tf.nn.conv2d(x, w, s, 'SAME', True)",
        "TypeError: conv2d() takes from 4 to 6 positional arguments but 7 were given",
    )
    assert [x.cause for x in report.findings[:2]] == ["companion-mismatch", "api-removed"]
    assert "7 positional arguments" in report.findings[0].summary


def test_the_same_count_refused_in_the_users_own_call_is_no_librarys() -> None:
    report = explained(
        _TF241
        + _trace(
            [("/home/ana/proj/run.py", "<module>", "y = tf.nn.conv2d(x, w, s, 'SAME', True)")],
            "TypeError: conv2d() takes from 4 to 6 positional arguments but 7 were given",
        )
    )
    assert _named(report, "companion-mismatch") is None


_PLACES = [
    pytest.param(f"{_SITE}/blocklib/ops.py", True, id="installed-library"),
    pytest.param("/home/ana/proj/ops.py", False, id="users-own"),
]
_ASKS = [
    # A name the API listings do not know: the user's own line is told to find what replaced
    # it; a library's line, its release or the TensorFlow it was written for.
    pytest.param(
        "op = tf.planted_op(3)",
        "AttributeError: module 'tensorflow' has no attribute 'planted_op'",
        "Find its replacement",
        "",
        id="unlisted-name",
    ),
    # tf.nn.softmax took axis from 1.5 (dim before): the line the rule dates is installed
    # either way; only the user's own code is told to write the older spelling.
    pytest.param(
        "x = tf.nn.softmax(x, axis=-1)",
        "TypeError: softmax() got an unexpected keyword argument 'axis'",
        "write `dim=`",
        "1.15",
        id="tf1-keyword-added-later",
    ),
]


@pytest.mark.parametrize(("code", "error", "edit", "line"), _ASKS)
@pytest.mark.parametrize(("path", "library"), _PLACES)
def test_only_the_users_own_code_is_told_to_edit_what_the_api_lacks(
    code: str, error: str, edit: str, line: str, path: str, library: bool
) -> None:
    report = explained(
        _trace([("/home/ana/proj/run.py", "<module>", "import blocklib"), (path, "f", code)], error)
    )
    # The API's reading (api-removed), or the keyword's (tf-too-old-for-code, its edit the
    # api-removed candidate beside it): their fixes together.
    judged = [x for x in report.findings if x.cause in ("api-removed", "tf-too-old-for-code")]
    assert judged
    text = " ".join(fix_text(x) for x in judged)
    assert (edit in text) is not library, text
    assert ("blocklib" in text) is library
    assert line in text


def test_a_family_members_own_line_is_a_librarys_too() -> None:
    # tensorflow-addons is installed code like any library: its release for the installed
    # TensorFlow leads, and the removal stays known as a warning with a release fix.
    report = explained(
        "tensorflow 2.3.0\n"
        + _trace(
            [
                ("/home/ana/run.py", "<module>", "import tensorflow_addons"),
                (f"{_SITE}/tensorflow_addons/layers/cells.py", "<module>", "rnn = tf.contrib.rnn"),
            ],
            _CONTRIB,
        )
    )
    lead, removed = report.findings[0], _named(report, "tf-contrib-removed")
    assert lead.cause == "companion-mismatch" and "tensorflow-addons" in fix_text(lead)
    assert removed is not None and removed.severity is Severity.WARNING
    assert "tf-slim" not in fix_text(removed)


@pytest.mark.parametrize(
    ("code", "message", "said"),
    [
        # Python 3's format_missing names every argument missing ('a' and 'b'; 'a', 'b', and
        # 'c'): the reading names them all, not the first alone.
        pytest.param(
            "y = tf.gather(x)",
            "TypeError: gather() missing 2 required positional arguments: 'indices' and 'axis'",
            "requires 'indices' and 'axis',",
            id="two-missing",
        ),
        # Python 2's count of arguments includes the keyword arguments (ceval.c prints
        # argcount + kwcount): not told as positional ones.
        pytest.param(
            "y = tf.split(x, 2, 1)",
            "TypeError: split() takes exactly 2 arguments (3 given)",
            "was given 3 arguments and takes exactly 2",
            id="python-2-count",
        ),
        pytest.param(
            "y = tf.ones(x)",
            "TypeError: ones() takes no arguments (1 given)",
            "was given 1 argument and takes none",
            id="no-arguments",
        ),
    ],
)
def test_a_librarys_refused_count_is_told_in_pythons_terms(
    code: str, message: str, said: str
) -> None:
    lead = _named(_blocklib(code, message), "companion-mismatch")
    assert lead is not None and said in lead.summary


@pytest.mark.parametrize(("path", "library"), _PLACES)
def test_a_ports_install_is_still_an_edit_of_the_code(path: str, library: bool) -> None:
    # tf.app's idiom (absl's app and flags) comes with absl-py's install: a port, for the
    # user's own code alone; an installed library's line gets its release instead.
    report = explained(
        _TF241
        + _trace(
            [("/home/ana/proj/run.py", "<module>", "import blocklib"), (path, "f", "tf.app.run()")],
            "AttributeError: module 'tensorflow' has no attribute 'app'",
        )
    )
    moved = _named(report, "api-moved-to-compat-v1")
    assert moved is not None
    text = fix_text(moved)
    assert ("from absl import app" in text) is not library, text
    assert ("blocklib" in text) is library


def test_a_keyword_the_users_line_passed_through_a_library_is_the_users_to_drop() -> None:
    # The library's line passes **kwargs on: the user's call named the keyword, so the user's
    # code is told to drop it, as the reading of refused calls has it (_passed_by_user).
    report = explained(
        _TF241
        + _trace(
            [
                ("/home/ana/proj/run.py", "<module>", "net = blocklib.make(jit_compile=True)"),
                (f"{_SITE}/blocklib/ops.py", "make", "return tf.function(f, **kw)"),
            ],
            "TypeError: function() got an unexpected keyword argument 'jit_compile'",
        )
    )
    older, removed = _named(report, "tf-too-old-for-code"), _named(report, "api-removed")
    assert older is not None and older.severity is Severity.ERROR
    assert removed is not None and "drop `jit_compile=`" in fix_text(removed)
    assert "blocklib" not in fix_text(removed)


#: A layer library's ``call`` that passes ``training`` itself and hands on the ``**kwargs`` it
#: was given (a frozen normalisation layer, written for a Keras that passed no ``training``).
_FROZEN_CALL = "return super(FrozenNorm, self).call(training=False, *args, **kwargs)"


def _autograph_block(frame: str, error: str) -> str:
    """TensorFlow 2.2 to 2.6's AutoGraph error: its "in user code:" frames, then the error."""
    return f"TypeError: in user code:\n\n{frame}\n\n    {error}\n"


def test_a_keyword_keras_passes_and_a_librarys_layer_passes_again_is_the_librarys_release() -> None:
    # Python 3.7's words name the class AutoGraph's converted call built the keywords with.
    report = explained(
        _autograph_block(
            f"    {_SITE}/layerkit/keras_layers/norm.py:17 call  *\n        {_FROZEN_CALL}",
            "TypeError: type object got multiple values for keyword argument 'training'",
        )
    )
    lead = _named(report, causes.software.COMPANION_MISMATCH)
    assert lead is not None and lead.severity is Severity.WARNING
    assert "layerkit was written for another Keras release" in lead.summary
    assert "Layer.__call__" in lead.detail
    assert "keras" in fix_text(lead)


def test_autographs_frames_of_tf_2_7_on_with_python_3_9s_words_are_read_the_same() -> None:
    report = explained(
        _autograph_block(
            f'    File "{_SITE}/layerkit/keras_layers/norm.py", line 17, in call  *\n'
            f"        {_FROZEN_CALL}",
            "TypeError: keras.layers.normalization.BatchNormalization.call() got multiple "
            "values for keyword argument 'training'",
        )
    )
    lead = _named(report, causes.software.COMPANION_MISMATCH)
    assert lead is not None and "layerkit was written for another Keras release" in lead.summary


def test_the_same_keyword_from_keras_frame_before_the_librarys_line_is_read_so_too() -> None:
    report = explained(
        _trace(
            [
                _USER,
                (f"{_SITE}/keras/engine/base_layer.py", "__call__", "outputs = call_fn(inputs)"),
                (f"{_SITE}/layerkit/keras_layers/norm.py", "call", _FROZEN_CALL),
            ],
            "TypeError: call() got multiple values for keyword argument 'training'",
        )
    )
    lead = _named(report, causes.software.COMPANION_MISMATCH)
    assert lead is not None
    assert "as the frame before that line shows" in lead.detail


@pytest.mark.parametrize(
    "trace",
    [
        pytest.param(
            _trace(
                [
                    ("/home/ana/proj/run.py", "<module>", "y = norm.call(x, training=True)"),
                    (f"{_SITE}/layerkit/keras_layers/norm.py", "call", _FROZEN_CALL),
                ],
                "TypeError: call() got multiple values for keyword argument 'training'",
            ),
            id="the-users-call-gave-it",
        ),
        pytest.param(
            _autograph_block(
                f"    {_SITE}/layerkit/keras_layers/norm.py:17 step  *\n        {_FROZEN_CALL}",
                "TypeError: type object got multiple values for keyword argument 'training'",
            ),
            id="a-converted-function-not-a-layers-call",
        ),
        pytest.param(
            _autograph_block(
                f"    {_SITE}/layerkit/keras_layers/norm.py:17 call\n        {_FROZEN_CALL}",
                "TypeError: type object got multiple values for keyword argument 'training'",
            ),
            id="not-converted",
        ),
        pytest.param(
            _autograph_block(
                f"    {_SITE}/layerkit/keras_layers/norm.py:17 call  *\n"
                "        return super(FrozenNorm, self).call(*args, **kwargs)",
                "TypeError: type object got multiple values for keyword argument 'training'",
            ),
            id="the-line-does-not-pass-it",
        ),
    ],
)
def test_a_keyword_given_twice_with_no_sign_of_kerass_caller_stays_unexplained(
    trace: str,
) -> None:
    assert _named(explained(trace), causes.software.COMPANION_MISMATCH) is None
