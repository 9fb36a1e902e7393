"""TensorFlow's API before 1.9, from its release notes (tfdoctor/scan/tf_early.txt): a name 1.0
removed (tf.select), one a release before 1.9 brought (tf.data in 1.4) and one away for a while
(tf.nn.rnn_cell in 1.0 and 1.1) are read as the releases the log allows say, with the release
numbers; a name whose direction the log does not decide keeps the other readings."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, one_frame_log, top_error
from tfdoctor.scan.api import (
    EARLY_STORE,
    load_early,
    load_tf1,
    name_releases,
    parse_early,
    release_gap,
    tf1_lines,
)
from tfdoctor.scan.knowledge import public_name


def _removed(text: str) -> tuple[str, str]:
    """The detail and fix of the top error, which must be api-removed."""
    top = top_error(explained(text))
    assert top.cause == "api-removed", top
    return top.detail, fix_text(top)


def _older(text: str) -> tuple[str, str]:
    """The detail and fix of the top error, which must be tf-too-old-for-code (a name a later
    release brought), with the other candidate, keeping the release, beside it."""
    report = explained(text)
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code", top
    assert any(f.cause == "api-removed" for f in report.findings)
    return top.detail, fix_text(top)


def _early(text: str) -> list[str]:
    """The fixes of the findings the early table made (their words name the release notes)."""
    return [
        fix_text(f)
        for f in explained(text).findings
        if "release notes" in f.detail or "release notes" in fix_text(f)
    ]


# --- explain ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "code", "new"),
    [
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'select'",
            "y = tf.select(mask, a, b)",
            "tf.where",
            id="select",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.python.training.training' has no attribute "
            "'SummaryWriter'",
            "writer = tf.train.SummaryWriter(logdir, sess.graph)",
            "tf.summary.FileWriter",
            id="summary-writer-module-of-1x",
        ),
        pytest.param(
            "AttributeError: 'module' object has no attribute 'scalar_summary'",
            "tf.scalar_summary('loss', loss)",
            "tf.summary.scalar",
            id="python2-words",
        ),
    ],
)
def test_a_name_1_0_removed_names_its_replacement_and_the_last_release(
    message: str, code: str, new: str
) -> None:
    detail, fix = _removed(one_frame_log(message, code))
    assert f"Write `{new}`" in fix
    assert 'pip install "tensorflow==0.12.*"' in fix
    assert "TensorFlow 1.0 removed" in detail


@pytest.mark.parametrize(
    ("message", "code", "shown"),
    [
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'select'",
            "y = tf.select(mask, a, b)",
            "1.3.0",
            id="select-on-1.3",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'mul'",
            "y = tf.mul(a, b)",
            "1.1.0",
            id="mul-on-1.1",
        ),
    ],
)
def test_a_later_release_shown_is_not_called_the_one_that_removed_the_name(
    message: str, code: str, shown: str
) -> None:
    # The release shown lacks the name; the release notes say 1.0 removed it, not that one.
    detail, fix = _removed(one_frame_log(message, code, f"tensorflow version: {shown}\n"))
    assert "TensorFlow 1.0 removed" in detail
    assert f"TensorFlow {shown[:3]} removed" not in detail
    assert f"this TensorFlow ({shown})" in detail
    assert 'pip install "tensorflow==0.12.*"' in fix


def test_a_name_away_in_the_release_shown_names_the_release_that_moved_it() -> None:
    text = (
        "tensorflow version: 1.1.0\n"
        "AttributeError: module 'tensorflow.python.ops.nn' has no attribute 'rnn_cell'\n"
    )
    detail = _removed(text)[0]
    assert "1.0 moved it to `tf.contrib.rnn`" in detail
    assert "1.1 moved it" not in detail


@pytest.mark.parametrize(
    "head",
    [
        pytest.param("$ pip freeze | grep tensorflow\ntensorflow==1.3.0\n", id="pip-freeze-1.3"),
        pytest.param("tensorflow version: 1.1.0\n", id="stated-1.1"),
        pytest.param("", id="not-shown"),
    ],
)
def test_a_name_a_release_before_1_9_brought_names_that_release(head: str) -> None:
    text = one_frame_log(
        "AttributeError: module 'tensorflow' has no attribute 'data'",
        "dataset = tf.data.TFRecordDataset(files)",
        head,
    )
    fix = _older(text)[1]
    assert "upgrade TensorFlow to 1.4 or later" in fix
    assert "tensorflow==1.15" in fix
    assert "1.9" not in fix


def test_a_release_that_has_the_name_is_not_called_older() -> None:
    text = one_frame_log(
        "AttributeError: module 'tensorflow' has no attribute 'data'",
        "dataset = tf.data.TFRecordDataset(files)",
        "tensorflow version: 1.6.0\n",
    )
    assert _early(text) == []


def test_a_name_away_for_two_releases_names_its_home_then_and_the_release_back() -> None:
    text = "AttributeError: module 'tensorflow.python.ops.nn' has no attribute 'rnn_cell'\n"
    fix = _removed(text)[1]
    assert "write `tf.contrib.rnn` for `tf.nn.rnn_cell`" in fix
    assert "TensorFlow 1.0 and 1.1" in fix and "upgrade TensorFlow to 1.2 or later" in fix


def test_a_release_after_the_name_came_back_is_not_read_so() -> None:
    text = (
        "tensorflow version: 1.2.1\n"
        "AttributeError: module 'tensorflow.python.ops.nn' has no attribute 'rnn_cell'\n"
    )
    assert _early(text) == []


def test_a_name_missing_both_before_and_after_its_releases_needs_the_release_shown() -> None:
    message = "AttributeError: module 'tensorflow' has no attribute 'global_variables_initializer'"
    code = "sess.run(tf.global_variables_initializer())"
    # Not shown: a release before 0.12 and TensorFlow 2 both lack it; no one direction.
    assert top_error(explained(one_frame_log(message, code))).cause == "api-moved-to-compat-v1"
    fix = _older(one_frame_log(message, code, "tensorflow version: 0.11.0\n"))[1]
    assert "upgrade TensorFlow to 0.12 or later" in fix


def test_a_tensorflow_2_release_shown_leaves_the_early_table_out() -> None:
    text = one_frame_log(
        "AttributeError: module 'tensorflow' has no attribute 'select'",
        "y = tf.select(mask, a, b)",
        "tensorflow version: 2.4.1\n",
    )
    assert all("0.12" not in fix for fix in _early(text))


# --- the table -------------------------------------------------------------------------------


def test_every_row_cites_its_release_notes_and_speaks_of_known_releases() -> None:
    early = load_early()
    assert early.releases[0] == "0.10" and early.releases[-1] == "1.8"
    assert early.spans
    for span in early.spans:
        assert "Release " in span.source, span
        for release in (span.since, span.until):
            assert not release or release in early.releases, span


def test_the_table_agrees_with_the_oldest_listing() -> None:
    # What a span says of 1.8 holds in 1.9, the oldest listed line, where that lists the name:
    # a name the table calls removed is not listed, one it calls there is.
    early = load_early()
    oldest = load_tf1(min(tf1_lines(), key=lambda x: tuple(int(p) for p in x.split("."))))
    assert oldest is not None
    for name in {s.name for s in early.spans}:
        status = oldest.lookup(name).status
        if status != "unknown":
            assert (status == "ok") == early.has(name, "1.8"), name
    for span in early.spans:
        if span.now and not span.now.startswith("tf.contrib."):
            assert oldest.has(span.now), span


def test_a_bad_row_is_refused_with_its_line() -> None:
    with pytest.raises(ValueError, match=rf"{EARLY_STORE}:3:"):
        parse_early("@releases\t1.0 1.1\n# a comment\ntf.x\t1.0\n")
    with pytest.raises(ValueError, match="@releases row lacks"):
        parse_early("@releases\t1.0 1.1\ntf.x\t0.9\t-\t-\tRelease 0.9.0\n")


def test_gaps_and_their_directions() -> None:
    removed = release_gap("tf.select")
    assert removed is not None and removed.kind == "removed"
    assert (removed.last_before, removed.missing[0], removed.now) == ("0.12", "1.0", "tf.where")
    assert removed.gone_in == "1.0"
    # A later release allowed alone: the release that removed the name stays 1.0.
    later = release_gap("tf.select", ["1.3"])
    assert later is not None and (later.missing, later.gone_in) == (("1.3",), "1.0")
    away = release_gap("tf.nn.rnn_cell", ["1.1"])
    assert away is not None and (away.kind, away.gone_in) == ("away", "1.0")
    added = release_gap("tf.keras", ["1.3"])
    assert added is not None and (added.kind, added.first_after) == ("added", "1.4")
    assert release_gap("tf.keras", ["1.4"]) is None
    assert release_gap("tf.global_variables_initializer") is None
    assert release_gap("tf.not_a_name_of_the_table") is None


def test_modules_of_tensorflow_1s_own_tree_read_as_their_public_names() -> None:
    assert public_name("tensorflow.python.training.training") == "tf.train"
    assert public_name("tensorflow.python.ops.nn") == "tf.nn"
    assert public_name("tensorflow.python.ops.math_ops") == "tf.python.ops.math_ops"


def test_a_release_before_the_removal_is_not_told_the_name_was_removed() -> None:
    # 0.11 has tf.select: missing there for another reason, which no reading of its age is.
    text = one_frame_log(
        "AttributeError: module 'tensorflow' has no attribute 'select'",
        "y = tf.select(mask, a, b)",
        "tensorflow version: 0.11.0\n",
    )
    for finding in explained(text).findings:
        assert finding.cause != "api-removed", finding


def test_python2s_words_alone_name_the_early_api_only_for_a_name_of_its_own() -> None:
    # No module and no source line: the table's only name ending so, as a warning.
    text = "'module' object has no attribute 'SummaryWriter'\n"
    found = [f for f in explained(text).findings if f.cause == "api-removed"]
    assert [f.severity.value for f in found] == ["warning"]
    assert "Write `tf.summary.FileWriter`" in fix_text(found[0])
    # A common word (any module's `select`) or a name no row holds says nothing.
    for attr in ("select", "TFRecordDataset"):
        text = f"'module' object has no attribute '{attr}'\n"
        assert all(f.cause != "api-removed" for f in explained(text).findings), attr


def test_a_tensorflow_1_name_tensorflow_2_dropped_says_the_release_that_brought_it() -> None:
    # No release shown: TensorFlow 2 (tf.compat.v1) is one reading; the table says a release
    # before 0.12 raises the same, which the fix names as the other way out.
    text = one_frame_log(
        "AttributeError: module 'tensorflow' has no attribute 'global_variables_initializer'",
        "sess.run(tf.global_variables_initializer())",
    )
    top = top_error(explained(text))
    assert top.cause == "api-moved-to-compat-v1"
    assert "older than 0.12" in fix_text(top) and "from 0.12 until 2.0" in top.detail


def test_tensorflow_2s_eager_switch_under_a_release_before_it_names_that_release() -> None:
    # tf.enable_eager_execution: 1.7 on, gone from TensorFlow 2's namespace; under 1.5 the
    # release shown decides.
    text = one_frame_log(
        "AttributeError: module 'tensorflow' has no attribute 'enable_eager_execution'",
        "tf.enable_eager_execution()",
        "tensorflow version: 1.5.0\n",
    )
    assert "upgrade TensorFlow to 1.7 or later" in _older(text)[1]


def test_python_2_ranks_the_release_before_the_name_first() -> None:
    # Python 2's words: every 1.x release ran on it, of TensorFlow 2 only 2.0 and 2.1, so a
    # release before 0.12 comes first and TensorFlow 2's tf.compat.v1 is the other candidate.
    text = one_frame_log(
        "AttributeError: 'module' object has no attribute 'global_variables_initializer'",
        "sess.run(tf.global_variables_initializer())",
    )
    found = [(f.cause, f.severity.value) for f in explained(text).findings]
    assert found[:2] == [("api-removed", "error"), ("api-moved-to-compat-v1", "warning")]
    top = top_error(explained(text))
    assert "upgrade TensorFlow to 0.12 or later of 1.x" in fix_text(top)
    assert "Python 2" in top.detail
    # 1.15's later patches have no Python 2 wheels: the command pins a release that has.
    assert top.fix is not None
    assert "wheels for Python 2" in fix_text(top)
    assert not any("1.15.5" in c for c in top.fix.commands)


@pytest.mark.parametrize(
    ("message", "head"),
    [
        # Python 3's words: no sign of an older release.
        (
            "AttributeError: module 'tensorflow' has no attribute 'global_variables_initializer'",
            "",
        ),
        # The release shown is TensorFlow 2: the removal alone.
        (
            "AttributeError: 'module' object has no attribute 'global_variables_initializer'",
            "tensorflow version: 2.1.0\n",
        ),
    ],
    ids=["python-3", "tf2-shown"],
)
def test_without_python_2_or_with_tf2_shown_the_removal_leads(message: str, head: str) -> None:
    text = one_frame_log(message, "sess.run(tf.global_variables_initializer())", head)
    assert top_error(explained(text)).cause == "api-moved-to-compat-v1"


def test_a_python_no_early_release_ran_on_drops_the_older_release_reading() -> None:
    # Python 3.10's paths: no release before 0.12 has wheels for it, so the fix does not send
    # the user to look for one.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/.venv/lib/python3.10/site-packages/mylib/train.py", line 12, in fit\n'
        "    sess.run(tf.global_variables_initializer())\n"
        "AttributeError: module 'tensorflow' has no attribute 'global_variables_initializer'\n"
    )
    found = [f for f in explained(text).findings if f.cause == "api-moved-to-compat-v1"]
    assert found and all("older than 0.12" not in fix_text(f) for f in found)


@pytest.mark.parametrize(
    ("message", "code", "head", "since"),
    [
        pytest.param(
            "AttributeError: module 'tensorflow.python.estimator.estimator_lib' has no "
            "attribute 'train_and_evaluate'",
            "tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)",
            "tensorflow version: 1.3.0\n",
            "1.4",
            id="estimator-module-of-1x",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.contrib' has no attribute 'timeseries'",
            "reader = tf.contrib.timeseries.NumpyReader(data)",
            "tensorflow version: 1.2.1\n",
            "1.3",
            id="contrib-module-brought-in-1-3",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.python.estimator.estimator_lib' has no "
            "attribute 'DNNClassifier'",
            "clf = tf.estimator.DNNClassifier(hidden_units=[10, 20], feature_columns=cols)",
            "tensorflow version: 1.2.1\n",
            "1.3",
            id="canned-estimator-1-3",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.python.ops.nn' has no attribute "
            "'static_bidirectional_rnn'",
            "out, fw, bw = tf.nn.static_bidirectional_rnn(fw_cell, bw_cell, inputs)",
            "tensorflow version: 1.1.0\n",
            "1.2",
            id="static-bidirectional-rnn-1-2",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.contrib.data' has no attribute "
            "'shuffle_and_repeat'",
            "ds = ds.apply(tf.contrib.data.shuffle_and_repeat(1000))",
            "tensorflow version: 1.4.1\n",
            "1.5",
            id="contrib-data-function-1-5",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.python.estimator.estimator_lib' has no "
            "attribute 'BoostedTreesClassifier'",
            "clf = tf.estimator.BoostedTreesClassifier(cols, n_batches_per_layer=1)",
            "tensorflow version: 1.7.0\n",
            "1.8",
            id="boosted-trees-1-8",
        ),
    ],
)
def test_names_release_notes_place_in_1x_name_the_release(
    message: str, code: str, head: str, since: str
) -> None:
    fix = _older(one_frame_log(message, code, head))[1]
    assert f"upgrade TensorFlow to {since} or later" in fix


def test_a_contrib_module_the_table_keeps_is_listed_through_the_last_1x_line() -> None:
    # The 1.x listings hold tf.contrib whole ("*"): the table's open row runs on through them.
    text = one_frame_log(
        "AttributeError: 'module' object has no attribute 'timeseries'",
        "reader = tf.contrib.timeseries.NumpyReader(data)",
    )
    found = [f for f in explained(text).findings if f.cause == "api-removed"]
    assert found and "1.3 to 1.15" in found[0].detail


# --- more of the release notes' names -------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "code", "shown", "new", "last"),
    [
        pytest.param(
            "AttributeError: module 'tensorflow.python.ops.nn' has no attribute 'rnn'",
            "outputs, state = tf.nn.rnn(cell, inputs, dtype=tf.float32)",
            "1.0.1",
            "tf.contrib.rnn.static_rnn",
            "0.12",
            id="rnn-function-1.0",
        ),
        pytest.param(
            "AttributeError: 'module' object has no attribute 'per_image_whitening'",
            "image = tf.image.per_image_whitening(image)",
            "0.12.1",
            "tf.image.per_image_standardization",
            "0.11",
            id="per-image-whitening-0.12-python2",
        ),
        pytest.param(
            "AttributeError: module 'tensorflow.contrib.distributions' has no attribute "
            "'MultivariateNormalCholesky'",
            "mvn = tf.contrib.distributions.MultivariateNormalCholesky(mu, chol)",
            "1.1.0",
            "tf.contrib.distributions.MultivariateNormalTriL",
            "1.0",
            id="contrib-class-replaced-1.1",
        ),
    ],
)
def test_a_name_a_release_renamed_names_the_new_one_and_the_last_release_with_the_old(
    message: str, code: str, shown: str, new: str, last: str
) -> None:
    fix = _removed(one_frame_log(message, code, f"tensorflow version: {shown}\n"))[1]
    assert f"Write `{new}`" in fix
    assert f'pip install "tensorflow=={last}.*"' in fix


def test_a_release_with_the_canned_estimators_is_not_called_older() -> None:
    text = one_frame_log(
        "AttributeError: module 'tensorflow.python.estimator.estimator_lib' has no attribute "
        "'DNNClassifier'",
        "clf = tf.estimator.DNNClassifier(hidden_units=[10, 20], feature_columns=cols)",
        "tensorflow version: 1.4.0\n",
    )
    assert all("1.3 or later" not in fix for fix in _early(text))


def test_a_name_is_dated_by_the_release_notes_before_the_listings() -> None:
    # tf.data: the release notes bring it in 1.4, before the oldest listing (1.9).
    data = name_releases("tf.data")
    assert data.first == "1.4" and data.dated
    assert data.span().startswith("1.4 to ") and data.since() == "from 1.4 on"
    # A module asked as a module reads the same.
    assert name_releases("tf.data", module=True).first == "1.4"


def test_a_name_the_oldest_listing_has_and_no_row_dates_is_not_said_to_start_there() -> None:
    # tf.linalg: no row of the release notes' table, in the oldest listing (1.9): an earlier
    # release may have had it, so 1.9 is never called the first.
    linalg = name_releases("tf.linalg")
    assert linalg.first == min(tf1_lines(), key=lambda x: tuple(map(int, x.split("."))))
    assert not linalg.dated and not linalg.lacking
    assert linalg.span().startswith(f"{linalg.first} (or earlier) to ")
    assert linalg.since() == f"from {linalg.first} (or earlier) on"


def test_a_name_a_listed_line_brought_is_dated_by_the_line_before_it() -> None:
    # tf.function: missing from the 1.x listings before 1.14, which bring it.
    function = name_releases("tf.function")
    assert function.dated and function.first == "1.14"
    assert "1.13" in function.lacking


def test_a_name_typed_at_an_early_releases_prompt_is_a_release_older_than_the_code() -> None:
    # Python 2's words name no module, and <stdin> prints no line: the statement typed at the
    # prompt above says what was asked (tf.global_variables_initializer, from 0.12 on).
    top = top_error(
        explained(
            ">>> import tensorflow as tf\n>>> print(tf.__version__)\n0.11.0\n"
            ">>> init = tf.global_variables_initializer()\n"
            "Traceback (most recent call last):\n"
            '  File "<stdin>", line 1, in <module>\n'
            "AttributeError: 'module' object has no attribute 'global_variables_initializer'\n"
        )
    )
    assert top.cause == "tf-too-old-for-code"
    assert "0.12" in fix_text(top)
