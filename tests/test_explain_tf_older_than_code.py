"""A TensorFlow older than the code: a name every release the API listings hold has (1.9 to
1.15, and for a log that shows no release every 2.x line too) is missing, so the TensorFlow
that raised it is older than the listings' oldest line; the fix upgrades to that line or later,
never to an invented earlier release. (A name TensorFlow's release notes place before 1.9,
tf_early.txt, says more: tests/test_explain_tf_early_api.py.)"""

from __future__ import annotations

import pytest

from tests.explaining import all_causes, explained, fix_text, one_frame_log, top_error
from tfdoctor.findings import Severity


def _log(message: str, code: str = "inverse = tf.linalg.inv(matrix)", head: str = "") -> str:
    return one_frame_log(message, code, head)


@pytest.mark.parametrize(
    "head",
    [
        pytest.param("$ pip freeze | grep tensorflow\ntensorflow==1.3.0\n", id="pip-freeze-1.3"),
        pytest.param("tensorflow version: 1.1.0\n", id="stated-1.1"),
    ],
)
def test_a_release_older_than_the_listings_is_told_to_upgrade_to_their_oldest(head: str) -> None:
    top = top_error(
        explained(_log("AttributeError: module 'tensorflow' has no attribute 'linalg'", head=head))
    )
    assert top.cause == "tf-too-old-for-code"
    fix = fix_text(top)
    assert "Upgrade TensorFlow to 1.9 or later" in fix
    assert "oldest release tfdoctor's listings hold" in fix
    assert "tensorflow==1.15" in fix


def test_the_other_candidate_does_not_date_the_name_to_the_listings_oldest_line() -> None:
    # The listings start at 1.9: tf.linalg may have come earlier, so keeping the installed
    # release is said of what 1.9 has, not of when the name came.
    text = _log("AttributeError: module 'tensorflow' has no attribute 'linalg'", head="")
    report = explained("tensorflow version: 1.2.1\n" + text)
    other = next(x for x in report.findings if x.cause == "api-removed")
    assert "which TensorFlow 1.9 has" in other.detail
    assert not any("from 1.9 on" in x.detail for x in report.findings)


def test_no_release_shown_and_a_name_every_line_has_says_older_than_the_listings() -> None:
    top = top_error(
        explained(_log("AttributeError: module 'tensorflow' has no attribute 'linalg'"))
    )
    assert top.cause == "tf-too-old-for-code"
    fix = fix_text(top)
    assert "older than 1.9" in fix and "the log does not show which" in fix
    assert "Upgrade TensorFlow to 1.9 or later" in fix


def test_python2_words_take_the_module_from_the_source_line() -> None:
    text = _log(
        "AttributeError: 'module' object has no attribute 'linalg'",
        code="inverse = tf.linalg.inv(x)",
    )
    top = top_error(explained(text))
    assert top.cause == "tf-too-old-for-code"
    assert "`tf.linalg`" in fix_text(top) and "1.9 or later" in fix_text(top)


def test_a_name_from_import_of_the_top_module_is_read_the_same_way() -> None:
    text = _log(
        "ImportError: cannot import name 'linalg' from 'tensorflow' "
        "(/usr/lib/python3.6/site-packages/tensorflow/__init__.py)",
        code="from tensorflow import linalg",
        head="$ pip freeze | grep tensorflow\ntensorflow==1.2.1\n",
    )
    top = top_error(explained(text))
    assert top.cause == "tf-too-old-for-code"
    assert "this TensorFlow (1.2.1) is older than 1.9" in fix_text(top)


@pytest.mark.parametrize(
    ("message", "code", "head"),
    [
        # A listed release has the name: missing for another reason, not its age.
        pytest.param(
            "AttributeError: module 'tensorflow' has no attribute 'data'",
            "dataset = tf.data.TFRecordDataset(files)",
            "$ pip freeze | grep tensorflow\ntensorflow==1.12.0\n",
            id="listed-release-has-it",
        ),
        # An empty folder an uninstall left imports as a namespace package.
        pytest.param(
            "ImportError: cannot import name 'keras' from 'tensorflow' (unknown location)",
            "from tensorflow import keras",
            "",
            id="unknown-location",
        ),
        # A circular import: the module is half initialised, whatever its release.
        pytest.param(
            "AttributeError: partially initialized module 'tensorflow' has no attribute "
            "'data' (most likely due to a circular import)",
            "dataset = tf.data.TFRecordDataset(files)",
            "",
            id="circular-import",
        ),
        # Python 2's words about another module's name on a line that writes tf.data.
        pytest.param(
            "AttributeError: 'module' object has no attribute 'loads'",
            "cfg = json.loads(tf.data.experimental)",
            "",
            id="py2-other-module",
        ),
    ],
)
def test_near_misses_are_not_an_older_tensorflow(message: str, code: str, head: str) -> None:
    text = _log(message, code=code, head=head)
    for finding in explained(text).findings:
        assert "oldest release tfdoctor's listings hold" not in fix_text(finding)


def test_a_tf1_only_name_with_no_release_shown_is_not_called_older() -> None:
    # tf.placeholder is in every 1.x listing but no 2.x one: a TensorFlow 2 raising it is
    # the likelier reading (api-moved-to-compat-v1), not an install older than 1.9.
    text = _log(
        "AttributeError: module 'tensorflow' has no attribute 'placeholder'",
        code="x = tf.placeholder(tf.float32)",
    )
    causes = all_causes(text)
    assert "api-moved-to-compat-v1" in causes
    for finding in explained(text).findings:
        assert "oldest release tfdoctor's listings hold" not in fix_text(finding)


def test_the_users_own_tensorflow_py_is_not_an_older_release() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/home/user/proj/tensorflow.py", line 3, in <module>\n'
        "    ds = tf.data.Dataset.range(3)\n"
        "AttributeError: module 'tensorflow' has no attribute 'data'\n"
    )
    for finding in explained(text).findings:
        assert "oldest release tfdoctor's listings hold" not in fix_text(finding)


def test_tensorflow_installed_inside_the_kernel_keeps_the_restart_reading() -> None:
    # The kernel holds the release it imported before the install: a name every release has
    # missing is that mix, not an install older than the listings.
    log = (
        "!pip install tensorflow==1.6.0\n"
        "import keras\n"
        "AttributeError: module 'tensorflow' has no attribute 'data'\n"
    )
    findings = explained(log).findings
    top = top_error(explained(log))
    assert top.cause == "kernel-restart-needed"
    for finding in findings:
        assert "oldest release tfdoctor's listings hold" not in fix_text(finding)
    # tf.data came with 1.4 (its release notes): not a name "every release" has.
    assert "from 1.4 on" in top.summary and "which every release has" not in top.summary


def test_a_name_no_release_lacks_is_said_to_be_in_every_release() -> None:
    log = (
        "!pip install tensorflow==1.6.0\n"
        "import keras\n"
        "AttributeError: module 'tensorflow' has no attribute 'name_scope'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "kernel-restart-needed"
    assert "which every TensorFlow release has" in top.summary


def test_a_tf1_name_tensorflow_2_moved_names_the_last_1x_line_too() -> None:
    # tf.Dimension: no rule of scan's names it; the listings say TensorFlow 2 keeps it only in
    # tf.compat.v1, so the code is TensorFlow 1's and 1.15 runs it unchanged.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/content/proj/shapes.py", line 30, in <module>\n'
        "    def dims(shape: Iterable[tf.Dimension]) -> list:\n"
        "AttributeError: module 'tensorflow' has no attribute 'Dimension'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "api-moved-to-compat-v1"
    fix = fix_text(top)
    assert "tf.compat.v1.Dimension" in fix
    assert "TensorFlow 1.15, the last 1.x line" in fix and "tensorflow==1.15" in fix


def test_python2_words_for_a_name_a_later_1x_release_brought() -> None:
    # tf.py_function: in the 1.x listings from 1.13 on; Python 2 names no module, the source
    # line does.
    text = _log(
        "AttributeError: 'module' object has no attribute 'py_function'",
        code="y = tf.py_function(func, [x], tf.float32)",
        head="$ pip freeze | grep tensorflow\ntensorflow==1.10.0\n",
    )
    top = top_error(explained(text))
    assert top.cause == "tf-too-old-for-code"
    fix = fix_text(top)
    assert "from 1.13 on" in fix and "(1.10.0) is older" in fix


def test_python2_words_under_a_release_that_has_the_name_are_not_its_age() -> None:
    text = _log(
        "AttributeError: 'module' object has no attribute 'py_function'",
        code="y = tf.py_function(func, [x], tf.float32)",
        head="$ pip freeze | grep tensorflow\ntensorflow==1.14.0\n",
    )
    for finding in explained(text).findings:
        assert "is older" not in fix_text(finding)


def _bare_py2(attr: str, head: str) -> str:
    """Python 2's words for a missing attribute pasted alone: no frame, no source line."""
    return f"{head}AttributeError: 'module' object has no attribute '{attr}'\n"


def test_python2_words_alone_with_the_release_shown_read_as_a_warning() -> None:
    # No module, source line or frame: tf's name is the likely one, and the release shown
    # decides the direction (1.8 lacks tf.py_function, which 1.13 brought).
    found = [
        f
        for f in explained(_bare_py2("py_function", "tensorflow version: 1.8.0\n")).findings
        if f.cause == "tf-too-old-for-code"
    ]
    assert found and found[0].severity.value == "warning"
    assert "from 1.13 on" in fix_text(found[0]) and "(1.8.0) is older" in fix_text(found[0])
    assert "names no module" in found[0].detail


def test_python2_words_alone_with_no_release_shown_are_a_1x_older_than_the_name() -> None:
    # Python 2 ran no TensorFlow after 2.1, and TensorFlow 2 has tf.py_function: a 1.x older
    # than 1.13 lacked it. The fix installs a 1.x release with Python 2 wheels.
    found = [
        f
        for f in explained(_bare_py2("py_function", "")).findings
        if f.cause == "tf-too-old-for-code"
    ]
    assert found and found[0].severity.value == "warning"
    fix = fix_text(found[0])
    assert "from 1.13 on" in fix and 'pip install "tensorflow==1.1' in fix
    assert "tensorflow==2." not in fix


def test_python2_words_alone_read_the_one_name_of_the_api_that_ends_so() -> None:
    # No tf.CheckpointManager: the 1.x listings' one name ending so is tf.train's, a module
    # 1.10 has (without that name, which 1.13 brought).
    text = _bare_py2("CheckpointManager", "tensorflow version: 1.10.0\n")
    found = [f for f in explained(text).findings if f.cause == "tf-too-old-for-code"]
    assert found and "`tf.train.CheckpointManager` is in TensorFlow from" in fix_text(found[0])
    assert "(1.10.0) is older" in fix_text(found[0])


def test_python2_words_alone_read_no_deeper_name_the_message_cannot_be() -> None:
    # 1.10 has no tf.data.experimental: code asking tf.data.experimental.X there is told
    # `experimental` is missing, not X. With no release shown, TensorFlow 2.0 and 2.1, which
    # Python 2 ran, lack tf.data.AUTOTUNE as much as a 1.x lacks tf.data.experimental's.
    for attr, head in (("prefetch_to_device", "tensorflow version: 1.10.0\n"), ("AUTOTUNE", "")):
        for finding in explained(_bare_py2(attr, head)).findings:
            assert "tf.data.experimental" not in fix_text(finding), (attr, finding)


def test_python2_words_alone_without_a_deciding_release_or_name_say_no_age() -> None:
    # A release shown that has the name, and a common word (any module's): neither dates the
    # code.
    for attr, head in (
        ("py_function", "tensorflow version: 1.14.0\n"),
        ("size", "tensorflow version: 1.8.0\n"),
    ):
        for finding in explained(_bare_py2(attr, head)).findings:
            assert "is older" not in fix_text(finding), (attr, head, finding)


@pytest.mark.parametrize(
    ("member", "since", "head", "said"),
    [
        pytest.param(
            "v2",
            "1.14",
            "$ pip freeze | grep tensorflow\ntensorflow==1.12.0\n",
            "this TensorFlow (1.12.0) is older",
            id="v2-under-1.12",
        ),
        pytest.param("v1", "1.13", "", "the log does not show which", id="v1-no-release-shown"),
    ],
)
def test_a_member_tf_compat_gained_later_is_an_older_tensorflow(
    member: str, since: str, head: str, said: str
) -> None:
    # tf.compat itself is in every listed line; its versioned trees came with 1.13 (v1) and
    # 1.14 (v2) and never left: missing, the TensorFlow is older than the code.
    text = _log(
        f"AttributeError: module 'tensorflow.compat' has no attribute '{member}'",
        code=f"import tensorflow.compat.{member} as tf",
        head=head,
    )
    top = top_error(explained(text))
    assert top.cause == "tf-too-old-for-code"
    fix = fix_text(top)
    assert f"`tf.compat.{member}` is in TensorFlow from {since} on" in fix and said in fix


def test_a_name_inside_tf_compat_v1_is_not_dated_by_the_1x_listings() -> None:
    # The 1.x listings hold tf.compat.v1 as a member only, not the names inside it: a name
    # missing from it is no release's addition.
    text = _log(
        "AttributeError: module 'tensorflow.compat.v1' has no attribute 'contrib'",
        code="net = tf.compat.v1.contrib.layers.flatten(x)",
        head="$ pip freeze | grep tensorflow\ntensorflow==1.12.0\n",
    )
    assert "tf-too-old-for-code" not in all_causes(text)


def _import_v1(path: str, head: str) -> str:
    """Python 2's refusal of ``import tensorflow.compat.v1``, raised in ``path``."""
    return (
        head + "Traceback (most recent call last):\n"
        f'  File "{path}", line 3, in <module>\n'
        "    import tensorflow.compat.v1 as tf\n"
        "ImportError: No module named v1\n"
    )


_TF112 = "$ pip freeze | grep tensorflow\ntensorflow==1.12.0\n"


def test_a_name_only_releases_after_the_shown_one_have_is_an_older_tensorflow() -> None:
    # Python 2's words name the submodule alone; the import line printed names it whole.
    report = explained(_import_v1("/home/ana/proj/train.py", _TF112))
    top = top_error(report)
    assert top.cause == "tf-too-old-for-code"
    fix = fix_text(top)
    assert "`tf.compat.v1` from 1.13 on" in fix and "tensorflow>=1.13,<2" in fix
    other = next(x for x in report.findings if x.cause == "api-removed")
    assert other.severity == Severity.WARNING
    assert "To keep the installed TensorFlow instead of an upgrade to 1.13" in fix_text(other)


def test_a_name_of_later_releases_an_installed_library_asks_is_that_librarys_release() -> None:
    # An installed library asked: its release for this TensorFlow leads, not an upgrade.
    path = "/usr/lib/python2.7/site-packages/vizlib/summary.py"
    found = all_causes(_import_v1(path, _TF112))
    assert "companion-mismatch" in found and "tf-too-old-for-code" not in found


@pytest.mark.parametrize(
    ("module", "older"),
    [
        # tf.compat.v2 came with 1.14, after tf.experimental (1.13): the TensorFlow that
        # printed the module has the name.
        pytest.param("tensorflow.compat.v2", False, id="module-of-1.14"),
        # tf.data came with 1.4, before tf.data.experimental (1.12): a release between them.
        pytest.param("tensorflow.data", True, id="module-of-1.4"),
    ],
)
def test_the_module_printed_bounds_the_release_that_raised(module: str, older: bool) -> None:
    text = _log(
        f"AttributeError: module '{module}' has no attribute 'experimental'",
        code=f"tuner = {module.replace('tensorflow', 'tf', 1)}.experimental.AUTOTUNE",
    )
    assert ("tf-too-old-for-code" in all_causes(text)) is older


def test_a_name_no_source_dates_is_newer_only_in_the_releases_known_to_have_it() -> None:
    # No release notes' row dates tf.manip and the listings start at 1.9, which has it: a
    # release before 1.9 may have had it too, so only the releases known to have it are newer.
    text = _log(
        "AttributeError: module 'tensorflow' has no attribute 'manip'",
        code="shifted = tf.manip.roll(x, 1, 0)",
        head="$ pip freeze | grep tensorflow\ntensorflow==1.5.0\n",
    )
    top = top_error(explained(text))
    assert top.cause == "tf-too-old-for-code"
    assert "from 1.9 (or earlier) on" in fix_text(top)
    assert "Every release known to have it is newer than the installed one (1.5.0)" in top.detail
    assert "Every release that has it" not in top.detail
