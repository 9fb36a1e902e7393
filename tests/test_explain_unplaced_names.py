"""A name a TensorFlow or Keras module lacks that no reading of scan's knowledge placed: the
code that asked was written for another release (api-removed, a warning), and where an
installed library's frame asked, that library's release comes first (companion-mismatch).
A name every Keras 3 has and no Keras 2 does is code written for Keras 3 (an error)."""

from __future__ import annotations

import dataclasses
from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, top_error
from tfdoctor.explain.api import _listed_direction
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.scan.api import NameReleases, name_releases


def _traceback(path: str, code: str, last: str, head: str = "") -> str:
    return (
        head + "Traceback (most recent call last):\n"
        '  File "/home/user/app/run.py", line 3, in <module>\n'
        "    import model\n"
        f'  File "{path}", line 41, in build\n'
        f"    {code}\n"
        f"{last}\n"
    )


def _of(report: Report, cause: str) -> Optional[Finding]:
    return next((f for f in report.findings if f.cause == cause), None)


def test_a_keras3_name_missing_is_code_written_for_keras3() -> None:
    report = explained(
        _traceback(
            "/home/user/app/data.py",
            "class Frames(keras.utils.PyDataset):",
            "AttributeError: module 'keras.utils' has no attribute 'PyDataset'",
        )
    )
    found = _of(report, "api-removed")
    assert found is not None and found.severity is Severity.ERROR
    fix = fix_text(found)
    assert "Keras 3" in fix and '"tensorflow>=2.16"' in fix and '"keras>=3"' in fix


@pytest.mark.parametrize(
    "line",
    [
        # Retyped: blanks inside the quotes, none before the second, no exception type.
        "module 'keras. utils' has no attribute' PyDataset '",
        "'keras.utils' has no attribute 'PyDataset'",
    ],
    ids=["blanks-in-quotes", "module-word-dropped"],
)
def test_a_keras3_name_quoted_alone_is_read_as_python_printed_it(line: str) -> None:
    found = _of(explained(line + "\n"), "api-removed")
    assert found is not None and found.severity is Severity.ERROR
    assert '"keras>=3"' in fix_text(found)


def test_a_keras2_name_missing_from_keras2_is_not_read_as_keras3s() -> None:
    # keras.utils.Sequence is in Keras 2 and 3 alike: no Keras 3 reading.
    report = explained(
        _traceback(
            "/home/user/app/data.py",
            "class Frames(keras.utils.Sequence):",
            "AttributeError: module 'keras.utils' has no attribute 'Sequence'",
        )
    )
    assert all("in every Keras 3" not in fix_text(f) for f in report.findings)


def test_a_private_name_asked_by_a_library_is_that_librarys_release() -> None:
    report = explained(
        _traceback(
            "/usr/lib/python2.7/dist-packages/segkit/io/log.py",
            "tf.logging._logger.handlers = []",
            "AttributeError: 'module' object has no attribute '_logger'",
        )
    )
    library = _of(report, "companion-mismatch")
    assert library is not None and library.severity is Severity.WARNING
    assert "segkit" in library.summary and "tf.logging._logger" in library.summary
    assert "segkit" in fix_text(library)
    removed = _of(report, "api-removed")
    assert removed is not None and removed.severity is Severity.WARNING
    assert "private name" in removed.detail
    assert not any(f.id == "explain.unexplained-exception" for f in report.findings)


def test_a_module_of_the_users_code_is_a_release_question_both_ways() -> None:
    report = explained(
        _traceback(
            "/home/user/app/model.py",
            "from tensorflow.keras import layers",
            "ModuleNotFoundError: No module named 'tensorflow.keras'",
        )
    )
    assert _of(report, "companion-mismatch") is None
    removed = _of(report, "api-removed")
    assert removed is not None and removed.severity is Severity.WARNING
    fix = fix_text(removed)
    # The release notes' table (1.4) and the listings have tf.keras from 1.4 on; no TensorFlow
    # is shown: both ways, and the command that tells which.
    assert "TensorFlow 1.4 to 2.21" in fix and "upgrade it" in fix
    assert "pip show tensorflow" in fix


def test_python2s_partial_module_path_is_read_from_the_import_line() -> None:
    report = explained(
        _traceback(
            "/opt/conda/lib/python2.7/site-packages/recokit/layers.py",
            "from tensorflow.python.keras._impl.keras.layers import Lambda",
            "ImportError: No module named _impl.keras.layers",
        )
    )
    library = _of(report, "companion-mismatch")
    assert library is not None and "recokit" in library.summary
    assert _of(report, "api-removed") is not None


def test_the_way_to_move_follows_the_tensorflow_shown() -> None:
    known = ("1.8", "1.9", "1.10", "1.15", "2.0")
    lines = NameReleases("tf.x", known, ("1.9", "1.10", "1.15"), ("1.8", "2.0"))
    assert "upgrade TensorFlow" in _listed_direction("tf.x", lines, "1.4.1")
    assert "an older TensorFlow" in _listed_direction("tf.x", lines, "2.12.0")
    unknown = _listed_direction("tf.x", lines, None)
    assert "TensorFlow 1.9 to 1.15" in unknown and "pip show tensorflow" in unknown


def test_the_release_notes_are_named_only_where_they_date_the_first_release() -> None:
    # tf.data: the release notes bring it in 1.4, before the listings (1.9 on).
    data = _listed_direction("tf.data", name_releases("tf.data"), "1.2.1")
    assert data.startswith(" TensorFlow's release notes and the bundled listings place")
    # tf.linalg: no row of the release notes; the listings alone place it.
    linalg = _listed_direction("tf.linalg", name_releases("tf.linalg"), "1.2.1")
    assert linalg.startswith(" The bundled listings place") and "release notes" not in linalg


@pytest.mark.parametrize(
    "last",
    [
        # A circular import, or the user's own file named like the package.
        "AttributeError: partially initialized module 'tensorflow' has no attribute 'zeros' "
        "(most likely due to a circular import)",
        # Another library's module: not TensorFlow's or Keras' release.
        "AttributeError: module 'numpy' has no attribute 'float_'",
        # A function's result, not a module.
        "AttributeError: 'NoneType' object has no attribute 'as_graph_def'",
    ],
)
def test_other_missing_names_are_not_a_release_question(last: str) -> None:
    report = explained(_traceback("/home/user/app/model.py", "y = build(x)", last))
    assert all(f.summary.find("asks for") < 0 for f in report.findings)
    assert not any(
        f.cause == "api-removed" and "written for another release" in fix_text(f)
        for f in report.findings
    )


def test_a_name_the_standalone_keras_lacks_names_its_release_too() -> None:
    report = explained(
        _traceback(
            "/home/user/app/gan.py",
            "from keras.optimizers import Adam",
            "ImportError: cannot import name 'Adam' from 'keras.optimizers' "
            "(/usr/local/lib/python3.8/dist-packages/keras/optimizers.py)",
        )
    )
    other = _of(report, "keras-version")
    assert other is not None and other.severity is Severity.WARNING
    assert "standalone keras" in other.summary
    assert _of(report, "api-removed") is not None


def test_tensorflows_own_keras_names_are_not_the_standalone_packages() -> None:
    report = explained(
        _traceback(
            "/home/user/app/model.py",
            "opt = tf.keras.optimizers.Adam(lr=0.1)",
            "AttributeError: module 'tensorflow' has no attribute 'estimator'",
        )
    )
    assert _of(report, "keras-version") is None


def test_a_keras_3_name_added_later_asks_for_the_matrixs_first_keras_3_line() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 3, in <module>\n'
        "    y = keras.ops.histogram(x)\n"
        "AttributeError: module 'keras.ops' has no attribute 'histogram'\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert '"keras>=3.6" "tensorflow>=2.16"' in fix and "TensorFlow of 2.16 or later" in fix
    # A matrix whose 2.16 wheel still asked for Keras 2: Keras 3 comes with 2.17.
    line = f.FIXTURE_MATRIX.line_for("2.16")
    assert line is not None
    later = f.with_line(
        f.FIXTURE_MATRIX, "2.16", pins=dataclasses.replace(line.pins, keras=">=2.16,<2.17")
    )
    moved = fix_text(top_error(explained(text, matrix=later)))
    assert '"tensorflow>=2.17"' in moved and "TensorFlow of 2.17 or later" in moved
