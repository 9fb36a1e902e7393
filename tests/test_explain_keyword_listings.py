"""A keyword Python refused in a call of TensorFlow's public API, dated by the parameters read
from each line's wheel (tfdoctor/scan/signature_lines.txt): the TensorFlow older than the code,
or newer than it, by which lines take the keyword."""

from __future__ import annotations

from tests.explaining import all_causes, explained, fix_text, top_error
from tfdoctor.explain.packages import keyword_change
from tfdoctor.findings import Severity
from tfdoctor.scan.api import load_parameters


def _traceback(message: str, code: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/model.py", line 12, in build\n'
        f"    {code}\n"
        f"TypeError: {message}\n"
    )


#: tensorflow/python/eager/def_function.py: 2.8.4's function() takes experimental_relax_shapes,
#: 2.9.3's adds reduce_retracing (read from both wheels).
_RETRACING = _traceback(
    "function() got an unexpected keyword argument 'reduce_retracing'",
    "step = tf.function(train_step, reduce_retracing=True)",
)
#: tensorflow/python/ops/stateful_random_ops.py: 2.1.4's create_rng_state(seed, algorithm),
#: 2.2.3's create_rng_state(seed, alg) (read from both wheels).
_ALGORITHM = _traceback(
    "create_rng_state() got an unexpected keyword argument 'algorithm'",
    "state = tf.random.experimental.create_rng_state(seed, algorithm=1)",
)


def test_a_keyword_a_later_line_brought_is_an_older_tensorflow() -> None:
    report = explained("TensorFlow version: 2.8.4\n" + _RETRACING)
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code" and top.severity == Severity.ERROR
    assert "2.9" in fix_text(top) and "2.9 to 2.21" in top.detail
    # The user's own call: keeping the TensorFlow and writing the call without it is the
    # other candidate.
    other = next(x for x in report.findings if x.cause == "api-removed")
    assert "reduce_retracing" in fix_text(other) and other.severity == Severity.WARNING


def test_a_keyword_the_shown_tensorflow_takes_is_no_release_reading() -> None:
    taken = all_causes("TensorFlow version: 2.10.1\n" + _RETRACING)
    assert not {"api-removed", "tf-too-old-for-code"} & taken


def test_a_keyword_a_later_line_dropped_is_a_newer_tensorflow() -> None:
    top = top_error(explained("TensorFlow version: 2.4.4\n" + _ALGORITHM))
    assert top.cause == "api-removed" and top.severity == Severity.ERROR
    assert "tensorflow<2.2" in fix_text(top)
    # The one argument 2.2 brought is named: what the listings observe.
    assert "`alg=`" in fix_text(top)


def test_the_argument_a_dropping_line_brought_is_not_claimed_as_the_replacement() -> None:
    # tensorflow/python/autograph/lang/directives.py: set_loop_options: 2.1.4's
    # takes back_prop, 2.2.3's drops it and brings shape_invariants, an unrelated argument
    # (read from both wheels): the fix names it only as what the listings observe.
    log = "TensorFlow version: 2.4.4\n" + _traceback(
        "set_loop_options() got an unexpected keyword argument 'back_prop'",
        "tf.autograph.experimental.set_loop_options(back_prop=False)",
    )
    top = top_error(explained(log))
    assert top.cause == "api-removed" and "tensorflow<2.2" in fix_text(top)
    assert "use `shape_invariants=`" not in fix_text(top)
    assert "API docs" in fix_text(top) and "`shape_invariants=`" in fix_text(top)


def test_a_refused_call_outside_tf_leaves_the_signatures_unread() -> None:
    load_parameters.cache_clear()
    # A keyword refused in a call outside ``tf.``: no public name for the listings to date.
    explained(
        "TensorFlow version: 2.8.4\n"
        + _traceback(
            "function() got an unexpected keyword argument 'reduce_retracing'",
            "step = jitlib.function(train_step, reduce_retracing=True)",
        )
    )
    assert load_parameters.cache_info().currsize == 0


def test_with_no_tensorflow_shown_the_lines_that_take_it_decide_as_a_warning() -> None:
    added = next(x for x in explained(_RETRACING).findings if x.cause == "tf-too-old-for-code")
    assert added.severity == Severity.WARNING and "2.9" in fix_text(added)
    removed = next(x for x in explained(_ALGORITHM).findings if x.cause == "api-removed")
    assert removed.severity == Severity.WARNING and "2.2" in fix_text(removed)


def test_another_librarys_function_of_that_name_is_no_release_reading() -> None:
    other = _traceback(
        "function() got an unexpected keyword argument 'reduce_retracing'",
        "step = jitlib.function(train_step, reduce_retracing=True)",
    )
    assert not {"api-removed", "tf-too-old-for-code"} & all_causes(
        "TensorFlow version: 2.8.4\n" + other
    )


def _library_call(code: str, message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/run.py", line 3, in <module>\n'
        "    somelib.build()\n"
        '  File "/usr/local/lib/python3.8/site-packages/somelib/core.py", line 20, in build\n'
        f"    {code}\n"
        f"TypeError: {message}\n"
    )


def test_a_librarys_call_of_a_keyword_a_later_line_dropped_names_that_line() -> None:
    log = "TensorFlow version: 2.4.4\n" + _library_call(
        "state = tf.random.experimental.create_rng_state(seed, algorithm=1)",
        "create_rng_state() got an unexpected keyword argument 'algorithm'",
    )
    top = top_error(explained(log))
    assert top.cause == "companion-mismatch"
    assert "tensorflow<2.2" in fix_text(top) and "not in tfdoctor's API tables" not in fix_text(top)


def test_a_librarys_call_the_shown_tensorflow_takes_is_not_its_function() -> None:
    log = "TensorFlow version: 2.10.1\n" + _library_call(
        "step = tf.function(fn, reduce_retracing=True)",
        "function() got an unexpected keyword argument 'reduce_retracing'",
    )
    assert "companion-mismatch" not in all_causes(log)


def test_a_keyword_a_later_1x_line_brought_is_an_older_tensorflow_1() -> None:
    # tensorflow/python/ops/array_ops.py: 1.13.2's gather(params, indices,
    # validate_indices=None, name=None, axis=0), 1.14.0's adds batch_dims (read from the wheels).
    log = "TensorFlow version: 1.12.3\n" + _traceback(
        "gather() got an unexpected keyword argument 'batch_dims'",
        "rows = tf.gather(params, indices, batch_dims=1)",
    )
    top = top_error(explained(log))
    assert top.cause == "tf-too-old-for-code" and "1.14" in fix_text(top)


def test_a_change_between_tensorflow_1_and_2_is_not_one_function_changing() -> None:
    # 1.x's tf.reduce_max takes keep_dims, 2.x's is another function (1.x's is
    # tf.compat.v1.reduce_max): no line of one function dropped it.
    assert keyword_change("tf.reduce_max", "keep_dims", "2.4.0") is None
    assert keyword_change("tf.reduce_max", "keep_dims", None) is None


#: tensorflow/python/data/experimental/service/server_lib.py: 2.3.4's DispatchServer and
#: WorkerServer take port, 2.4.4's take config (read from both wheels).
_SERVER = "server = tf.data.experimental.service.{}(port=5050)"


def test_a_constructor_python_names_dates_its_own_class_only() -> None:
    # Python 3.10 and later name the class of a refused __init__ (its __qualname__).
    own = "TensorFlow version: 2.4.4\n" + _traceback(
        "DispatchServer.__init__() got an unexpected keyword argument 'port'",
        _SERVER.format("DispatchServer"),
    )
    assert top_error(explained(own)).cause == "api-removed"
    other = "TensorFlow version: 2.4.4\n" + _traceback(
        "DispatchServer.__init__() got an unexpected keyword argument 'port'",
        _SERVER.format("WorkerServer"),
    )
    assert not {"api-removed", "tf-too-old-for-code"} & all_causes(other)
