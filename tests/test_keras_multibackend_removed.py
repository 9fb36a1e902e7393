"""The table of functions and classes multi-backend Keras (2.0.0 to 2.3.1) removed from its
modules, the script that reads it from Keras' release tags, and explain's reading of a name
the table holds: asked of its module (Python 3 names it), or alone in Python 2's words."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.explaining import explained
from tests.test_keras2_modules import _load_script
from tfdoctor import causes
from tfdoctor.findings import Report, Severity
from tfdoctor.scan.api import DATA_DIR, KERAS_MULTIBACKEND_REMOVED, keras_multibackend_removed

gen = _load_script("gen_keras_multibackend_removed")


def _commit(repo: Path, tag: str, files: dict[str, str]) -> None:
    """Write ``files`` under ``repo`` (removing the other files of keras/), commit, tag."""
    for old in (repo / "keras").rglob("*.py") if (repo / "keras").exists() else ():
        old.unlink()
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for args in (("add", "-A"), ("commit", "-q", "--allow-empty", "-m", tag), ("tag", tag)):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def test_a_function_a_module_defined_and_the_next_release_dropped_is_a_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    subprocess.run(["git", "-C", str(tmp_path), "init", "-q"], check=True)
    for key, value in (("user.email", "t@example.invalid"), ("user.name", "t")):
        subprocess.run(["git", "-C", str(tmp_path), "config", key, value], check=True)
    first = {
        "keras/__init__.py": "",
        "keras/utils/__init__.py": "from .shapes import *\n",
        "keras/utils/shapes.py": "import os\ndef pad(x): ...\ndef crop(x): ...\nclass Box: ...\n",
        "keras/common.py": "def other(): ...\n",
    }
    second = {
        "keras/__init__.py": "",
        "keras/utils/__init__.py": "from .shapes import *\n",
        # crop moved to keras/common.py; Box is imported back (still bound); os dropped.
        "keras/utils/shapes.py": "from ..common import Box\ndef pad(x): ...\n",
        "keras/common.py": "def other(): ...\ndef crop(x): ...\nclass Box: ...\n",
    }
    _commit(tmp_path, "r1", first)
    _commit(tmp_path, "r2", second)
    _commit(tmp_path, "r3", second)
    monkeypatch.setattr(gen, "TAGS", ["r1", "r2", "r3"])
    head, rows = gen.rows(tmp_path)
    assert [line.split()[2] for line in head] == ["r1", "r2", "r3"]
    # The package's star import re-exported crop too: it went from both, to keras.common.
    assert rows == [
        "keras.utils.shapes\tcrop\tr1\tr2\tkeras.common",
    ]


def test_the_bundled_table_dates_a_helper_keras_moved() -> None:
    (row,) = keras_multibackend_removed("normalize_data_format")
    assert (row.module, row.last, row.removed_in) == ("keras.utils.conv_utils", "2.2.0", "2.2.1")
    assert row.defined_in == ("keras.backend.common",)
    assert keras_multibackend_removed("normalize_data_format", "keras.backend") == ()
    head = (DATA_DIR / KERAS_MULTIBACKEND_REMOVED).read_text(encoding="utf-8")
    for tag in gen.TAGS:
        assert f"keras-team/keras {tag} " in head


def _removed(report: Report) -> list[tuple[Severity, str, str]]:
    return [
        (x.severity, x.detail, x.fix.text if x.fix else "")
        for x in report.findings
        if x.cause == causes.code.API_REMOVED
    ]


def test_a_name_keras_removed_asked_of_its_module_is_the_code_written_for_older_keras() -> None:
    report = explained(
        "AttributeError: module 'keras.engine.topology' has no attribute "
        "'load_weights_from_hdf5_group_by_name'\n"
    )
    (severity, detail, fix), *_ = _removed(report)
    assert severity is Severity.ERROR
    assert "Keras 2.2.0 removed it from `keras.engine.topology`" in detail
    assert "`keras==2.1.6`" in fix and "keras.engine.saving" in fix


def test_python_2s_words_alone_name_the_module_by_the_table_as_a_warning() -> None:
    report = explained("AttributeError: 'module' object has no attribute 'normalize_data_format'\n")
    (severity, detail, fix), *_ = _removed(report)
    assert severity is Severity.WARNING
    assert "does not name the module" in detail
    assert "keras==2.2.0" in fix


def test_a_class_name_alone_beside_a_listed_multi_backend_keras_is_read() -> None:
    report = explained(
        "keras                2.3.1\nAttributeError: 'module' object has no attribute 'Function'\n"
    )
    (severity, detail, _), *_ = _removed(report)
    assert severity is Severity.WARNING
    assert "Keras 2.3.0 removed it from `keras.backend.tensorflow_backend`" in detail


def test_the_dated_removal_is_not_told_again_as_another_keras_release() -> None:
    # The table names the release the code was written for: the Keras of a TensorFlow line
    # (keras-version's fix) has no such name either.
    report = explained(
        "AttributeError: module 'keras.utils.conv_utils' has no attribute 'normalize_data_format'\n"
    )
    assert _removed(report)
    assert not any(x.cause == causes.software.KERAS_VERSION for x in report.findings)


@pytest.mark.parametrize(("python", "installs"), [("3.6", True), ("3.10", False)])
def test_the_older_keras_is_installed_only_where_tensorflow_1_has_a_wheel(
    python: str, installs: bool
) -> None:
    # Keras 2.2.0 runs on TensorFlow 1, whose last line (1.15) has wheels up to Python 3.7.
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "/home/ana/seg/model.py", line 4, in <module>\n'
        "    from keras.utils.conv_utils import normalize_data_format\n"
        "ImportError: cannot import name 'normalize_data_format' from 'keras.utils.conv_utils' "
        f"(/home/ana/venv/lib/python{python}/site-packages/keras/utils/conv_utils.py)\n"
    )
    [removed] = [x for x in report.findings if x.cause == causes.code.API_REMOVED]
    assert removed.fix is not None
    assert bool(removed.fix.commands) is installs
    assert ("keras.backend.common" in removed.fix.text) and (
        ("no wheel for Python 3.10" in removed.fix.text) is not installs
    )


def test_a_name_no_module_of_the_release_defines_is_not_sent_elsewhere() -> None:
    report = explained(
        "AttributeError: module 'keras.preprocessing.image' has no attribute 'apply_transform'\n"
    )
    (_, _, fix), *_ = _removed(report)
    assert "no module of Keras 2.2.0 defines `apply_transform`" in fix


def _py2_frame(code: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/ana/seg/model.py", line 40, in __init__\n'
        f"    {code}\n"
        "AttributeError: 'module' object has no attribute 'normalize_data_format'\n"
    )


def test_python_2s_words_under_a_line_reading_the_modules_name_are_read_as_a_warning() -> None:
    report = explained(_py2_frame("self.data_format = conv_utils.normalize_data_format(fmt)"))
    (severity, detail, fix), *_ = _removed(report)
    assert severity is Severity.WARNING
    assert "reads it of `conv_utils`" in detail
    assert "keras==2.2.0" in fix


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            _py2_frame("self.data_format = helpers.normalize_data_format(fmt)"),
            id="a-line-reading-it-of-another-module",
        ),
        pytest.param(
            "keras                2.6.0\n"
            "AttributeError: module 'keras.utils.conv_utils' has no attribute "
            "'normalize_data_format'\n",
            id="a-keras-after-multi-backend-shown",
        ),
        pytest.param(
            "AttributeError: 'module' object has no attribute 'merge'\n",
            id="a-common-word-alone",
        ),
        pytest.param(
            "AttributeError: 'module' object has no attribute 'frobnicate_tensor'\n",
            id="a-name-the-table-lacks",
        ),
        pytest.param(
            "AttributeError: 'module' object has no attribute 'Function'\n",
            id="a-class-name-alone-with-no-keras-shown",
        ),
        pytest.param(
            "AttributeError: 'module' object has no attribute 'Container'\n",
            id="another-class-name-alone",
        ),
    ],
)
def test_other_logs_get_no_reading_of_the_table(log: str) -> None:
    assert not any("multi-backend Keras up to" in d for _, d, _ in _removed(explained(log)))


def _moved_helper(listed: str) -> str:
    return (
        listed + "Traceback (most recent call last):\n"
        '  File "/home/ana/seg/model.py", line 4, in <module>\n'
        "    from keras.utils.conv_utils import normalize_data_format\n"
        "ImportError: cannot import name 'normalize_data_format' from 'keras.utils.conv_utils' "
        "(/home/ana/venv/lib/python3.9/site-packages/keras/utils/conv_utils.py)\n"
    )


@pytest.mark.parametrize(
    ("listed", "conditional"),
    [("", True), ("keras                2.2.4\n", False)],
    ids=["no-keras-shown", "multi-backend-keras-shown"],
)
def test_the_new_home_is_told_plainly_only_of_a_shown_multi_backend_keras(
    listed: str, conditional: bool
) -> None:
    # keras.backend.common is a module of Keras 2.2.1 to 2.3.x only (2.4.0's tag has
    # keras/backend.py): with no Keras shown, the installed one may be a later Keras.
    [removed] = [
        x for x in explained(_moved_helper(listed)).findings if x.cause == causes.code.API_REMOVED
    ]
    assert removed.fix is not None and "keras.backend.common" in removed.fix.text
    assert ("if the installed Keras is 2.2.1 to 2.3.x" in removed.fix.text) is conditional
