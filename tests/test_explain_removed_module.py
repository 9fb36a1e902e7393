"""A standard module a Python release removed (distutils and imp in 3.12, PEP 594's modules in
3.13, Python 2's names in 3.0), imported by a package release or code older than the
interpreter: who imports it decides the cause and the fix."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.causes.common import owner_of_package_command
from tfdoctor.evidence.traceback import file_owner
from tfdoctor.modules import ModulesError, modules, parse_modules


def _traceback(path: str, statement: str, module: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/app/train.py", line 3, in <module>\n'
        "    import something\n"
        f'  File "{path}", line 20, in <module>\n'
        f"    {statement}\n"
        f"ModuleNotFoundError: No module named '{module}'\n"
    )


def test_a_companion_older_than_the_python_is_named_with_its_upgrade() -> None:
    text = _traceback(
        "/home/user/.venv/lib/python3.12/site-packages/tensorflow_addons/utils/x.py",
        "from distutils.version import LooseVersion",
        "distutils",
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    fix = fix_text(top)
    assert "tensorflow-addons" in fix and "Python 3.12" in fix and "3.11 or older" in fix
    # distutils alone has a drop-in: setuptools' own copy.
    assert "pip install setuptools" in fix


def test_tensorflows_own_import_is_a_release_not_built_for_this_python() -> None:
    text = _traceback(
        "/opt/conda/lib/python3.12/site-packages/tensorflow/python/__init__.py",
        "from distutils.version import LooseVersion",
        "distutils",
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    # The matrix's first line with Python 3.12 wheels, not a constant.
    assert "tensorflow>=2.16" in fix_text(top)


def test_the_projects_own_code_is_told_the_replacement() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/run.py", line 2, in <module>\n'
        "    import imp\n"
        "ModuleNotFoundError: No module named 'imp'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    fix = fix_text(top)
    assert "importlib" in fix and "3.12 or later" in fix
    assert "pip install" not in fix


def test_an_unknown_package_is_not_given_a_guessed_distribution() -> None:
    text = _traceback(
        "/usr/local/lib/python3.13/site-packages/oldaudio/io.py", "import sndhdr", "sndhdr"
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    fix = fix_text(top)
    assert "b'oldaudio/'" in fix
    assert "pip install --upgrade" not in fix


def test_a_python_that_still_has_the_module_is_not_this_cause() -> None:
    text = _traceback(
        "/home/user/.venv/lib/python3.11/site-packages/tensorflow_addons/x.py",
        "import imp",
        "imp",
    )
    assert all(f.cause != "python-removed-module" for f in explained(text).findings)


@pytest.mark.parametrize("shown", ["", "$ python3 --version\nPython 3.8.10\n"])
def test_debians_system_python_without_its_distutils_package(shown: str) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/dist-packages/pip/_internal/utils/misc.py", line 3, in <module>\n'
        "    from distutils.util import strtobool\n"
        "ModuleNotFoundError: No module named 'distutils.util'\n" + shown
    )
    top = top_error(explained(text))
    assert top.cause == "distro-python-part-missing"
    fix = fix_text(top)
    # The release's own package where the log shows the Python (python3.8-distutils).
    assert "apt-get install python3-distutils" in fix or "python3.8-distutils" in fix
    # Without the version shown, the other reading (3.12 has none) is in the fix too.
    assert ("pip install setuptools" in fix) is (not shown)


def test_python_2_names_are_code_for_another_python() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/fetch.py", line 1, in <module>\n'
        "    import urllib2\n"
        "ModuleNotFoundError: No module named 'urllib2'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    assert "urllib.request" in fix_text(top)


def test_the_table_names_each_release_and_source() -> None:
    removed = modules().removed
    assert removed["distutils"].removed_in == "3.12"
    assert removed["telnetlib"].removed_in == "3.13"
    assert removed["cPickle"].removed_in == "3.0"


def test_a_malformed_row_is_refused_with_its_place() -> None:
    text = (
        "schema_version: 1\nsources:\n  - {id: s, title: t, url: 'https://x.org/'}\n"
        "modules: []\nops: []\n"
        "removed_from_python:\n  - {module: imp, removed_in: twelve, use: importlib, source: s}\n"
    )
    with pytest.raises(ModulesError, match="removed_in"):
        parse_modules(text, "m.yaml")


def test_the_title_names_the_release_that_removed_it_not_the_logs_python() -> None:
    text = _traceback("/usr/lib/python3.8/site-packages/oldlib/net.py", "import urllib2", "urllib2")
    top = top_error(explained(text))
    assert "Python 3.0 removed" in top.summary and "this is Python 3.8" in top.summary
    # The owner's file list names it on any system and any Python.
    assert top.fix is not None
    assert owner_of_package_command("oldlib") in top.fix.commands


def test_a_submodule_of_a_single_file_module_is_the_projects_own() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/run.py", line 2, in <module>\n'
        "    import exceptions.custom\n"
        "ModuleNotFoundError: No module named 'exceptions.custom'\n"
    )
    assert all(f.cause != "python-removed-module" for f in explained(text).findings)


def test_an_unknown_python_is_not_named_in_tensorflows_fix() -> None:
    text = _traceback(
        r"C:\Users\user\env\Lib\site-packages\tensorflow\python\framework\load_library.py",
        "import imp",
        "imp",
    )
    fix = fix_text(top_error(explained(text)))
    assert "2.16" not in fix and "3.12 or later" in fix


def test_whose_file_is_one_reading_for_removed_modules_and_removed_syntax() -> None:
    # A module Python removed, imported by a source release pip is building: the same owner
    # the removed-syntax reading names (evidence.traceback.file_owner), so its fix is that
    # release, never `pip show` of a package that is not installed.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/tmp/pip-install-k2j4/oldpkg_3f9a1c2b7d/setup.py", line 4, in <module>\n'
        "    import imp\n"
        "ModuleNotFoundError: No module named 'imp'\n"
        "/usr/lib/python3.12/site-packages\n"
    )
    top = top_error(explained(log))
    assert top.cause == "python-removed-module"
    assert top.fix is not None
    assert "oldpkg" in fix_text(top)
    assert not any(c.endswith("show oldpkg") for c in top.fix.commands)


def test_file_owner_names_tensorflow_an_installed_package_a_build_and_the_project() -> None:
    assert file_owner(
        "/v/lib/python3.9/site-packages/tensorflow/python/pywrap_tensorflow.py"
    ).tensorflow
    assert file_owner("/v/lib/python3.9/site-packages/oddpkg/x.py").who == "oddpkg"
    building = file_owner("/tmp/pip-install-a/foo_1f2e3d4c5b/setup.py")
    assert building.building and building.who == "foo" and not building.tensorflow
    assert file_owner("/home/u/project/train.py").who == ""
    assert file_owner("").who == ""
