"""A tool that freezes or compiles the program stopping on its own configuration for a
module: a release of the tool, not another TensorFlow."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.frozen import freezer_of
from tfdoctor.findings import Severity

_CAUSE = "freezer-tf-support-outdated"


@pytest.mark.parametrize(
    "line",
    [
        "FATAL: anti-bloat: Error, condition 'standalone' for module 'tensorflow' did not "
        "evaluate to boolean result.",
        "FATAL: anti-bloat: Error, condition 'not use_setuptools' for module 'keras.src.utils' "
        "did not evaluate to boolean result.",
        'FATAL: anti-bloat: Error, failed to evaluate condition \'version("tensorflow") >= '
        "(2, 16)' in this context, exception was 'TypeError'.",
    ],
    ids=["tensorflow", "keras-submodule", "evaluation-failed"],
)
def test_nuitkas_own_configuration_stopping_the_build(line: str) -> None:
    text = "Nuitka: Starting Python compilation with Nuitka '2.3' on Python '3.11'.\n" + line + "\n"
    top = top_error(explained(text))
    assert top.cause == _CAUSE
    fix = fix_text(top)
    assert "pip install --upgrade nuitka" in fix and "tensorflow==" not in fix


@pytest.mark.parametrize(
    "text",
    [
        # Another plugin's message is not anti-bloat's evaluation.
        "FATAL: implicit-imports: Error, module 'tensorflow' not found.\n",
        # The words in prose.
        "the anti-bloat plugin removes tests from the build\n",
    ],
    ids=["other-plugin", "prose"],
)
def test_near_misses_are_not_the_freezer(text: str) -> None:
    assert all(f.cause != _CAUSE for f in explained(text).findings)


_FROZEN = (
    "Traceback (most recent call last):\n"
    '  File "app.py", line 3, in <module>\n'
    '  File "PyInstaller/loader/pyimod02_importers.py", line 419, in exec_module\n'
    '  File "tensorflow/__init__.py", line 37, in <module>\n'
    "ModuleNotFoundError: No module named 'tensorflow.python.platform'\n"
)


def test_a_tensorflow_module_missing_from_a_frozen_program_is_the_freezers() -> None:
    report = explained(_FROZEN)
    top = top_error(report)
    assert top.cause == _CAUSE
    assert "pyinstaller-hooks-contrib" in fix_text(top)
    # Not a reinstall of TensorFlow: plain Python imports it.
    assert all(f.cause != "tf-install-incomplete" for f in report.findings)


def test_the_bootloaders_line_alone_shows_the_program_frozen() -> None:
    text = (
        _FROZEN.replace("PyInstaller/loader/pyimod02_importers.py", "x.py")
        + "[20412] Failed to execute script 'app' due to unhandled exception!\n"
    )
    assert _CAUSE in {f.cause for f in explained(text).findings}


def test_the_same_module_missing_outside_a_frozen_program_is_not_the_freezers() -> None:
    text = _FROZEN.replace("PyInstaller/loader/pyimod02_importers.py", "x.py")
    assert all(f.cause != _CAUSE for f in explained(text).findings)


def _frozen_missing(module: str, loader: str = "PyInstaller/loader/pyimod02_importers.py") -> str:
    return _FROZEN.replace("PyInstaller/loader/pyimod02_importers.py", loader).replace(
        "tensorflow.python.platform", module
    )


@pytest.mark.parametrize(
    "module",
    ["tensorflow_probability.python.internal", "tf_keras.src.engine", "tensorboard.compat.proto"],
)
def test_any_module_inside_the_family_missing_from_a_frozen_program_is_the_freezers(
    module: str,
) -> None:
    report = explained(_frozen_missing(module))
    found = next(f for f in report.findings if f.cause == _CAUSE)
    assert found.severity is Severity.ERROR
    assert module in found.detail
    assert "pyinstaller-hooks-contrib" in fix_text(found)


@pytest.mark.parametrize(
    "module",
    [
        # Packages outside TensorFlow's family (the module table's): not its hooks.
        "requests",
        "requests.adapters",
        "keras_cv.layers",
        # A package of the family missing whole: the building environment lacked it.
        "tensorflow_hub",
    ],
)
def test_other_modules_missing_from_a_frozen_program_are_not_the_freezers(module: str) -> None:
    assert all(f.cause != _CAUSE for f in explained(_frozen_missing(module)).findings)


def test_only_the_family_lines_are_cited() -> None:
    text = "ModuleNotFoundError: No module named 'requests.adapters'\n" + _frozen_missing(
        "tensorflow_text.core"
    )
    top = top_error(explained(text))
    assert top.cause == _CAUSE
    assert "tensorflow_text.core" in top.detail and "requests" not in top.detail


_BOOTLOADER = "[20412] Failed to execute script 'app' due to unhandled exception!\n"
_MEI_PATH = (
    '  File "C:\\Users\\ana\\AppData\\Local\\Temp\\_MEI84122\\tensorflow\\__init__.py", '
    "line 37, in <module>\n"
)
_LOADER = '  File "PyInstaller\\loader\\pyimod03_importers.py", line 540, in exec_module\n'
_MISSING = "ModuleNotFoundError: No module named 'tensorflow.python.platform'\n"


@pytest.mark.parametrize(
    "text",
    [
        'Traceback (most recent call last):\n  File "app.py", line 3\n' + _MISSING + _BOOTLOADER,
        "Traceback (most recent call last):\n" + _MEI_PATH + _MISSING,
        "Traceback (most recent call last):\n" + _LOADER + _MISSING,
    ],
    ids=["bootloader-line", "mei-path", "loader-frame"],
)
def test_each_sign_alone_shows_the_program_frozen(text: str) -> None:
    assert freezer_of(text) == "pyinstaller"
    report = explained(text)
    assert top_error(report).cause == _CAUSE
    assert all(f.cause != "tf-install-incomplete" for f in report.findings)


@pytest.mark.parametrize(
    "text",
    [
        "I built it with PyInstaller and it fails\n",
        '  File "/home/ana/_MEIdata/run.py", line 3, in <module>\n',
        "Failed to execute script on the remote host\n",
    ],
    ids=["prose", "mei-without-digits", "other-script-failure"],
)
def test_near_misses_do_not_show_a_frozen_program(text: str) -> None:
    assert freezer_of(text) is None


@pytest.mark.parametrize(
    ("frame", "tool"),
    [
        ('  File "C:\\app\\main.dist\\tensorflow\\__init__.py", line 37, in <module>\n', "Nuitka"),
        (
            '  File "/Users/user/dist/app.app/Contents/Resources/lib/python3.9/tensorflow/'
            '__init__.py", line 37, in <module>\n',
            "py2app",
        ),
    ],
    ids=["nuitka", "py2app"],
)
def test_a_family_module_missing_from_another_freezers_bundle_gets_that_freezers_fix(
    frame: str, tool: str
) -> None:
    # One reading of a frozen program, whichever freezer: the bundle the log shows names the
    # freezer whose fix it gets, never PyInstaller's for another's bundle.
    text = (
        "Traceback (most recent call last):\n"
        + frame
        + "ModuleNotFoundError: No module named 'tensorflow.python.platform'\n"
    )
    report = explained(text)
    found = next(f for f in report.findings if f.cause == _CAUSE)
    assert found.severity is Severity.ERROR
    assert tool in fix_text(found) and "pyinstaller" not in fix_text(found).lower()
    assert all(f.cause != "tf-install-incomplete" for f in report.findings)
