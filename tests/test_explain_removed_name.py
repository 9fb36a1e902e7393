"""A name a Python release removed from a standard module that stays (collections' ABC aliases
in 3.10, inspect.getargspec and asyncio.coroutine in 3.11): whose frame asked for it decides
the fix, the user's own code being told the replacement, an installed package its release
made for that Python (or a Python before the removal)."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.modules import ModulesError, modules, parse_modules


def _asked_in(path: str, statement: str, error: str) -> str:
    """A traceback whose innermost frame, ``path``, runs ``statement`` and raises ``error``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 3, in <module>\n'
        "    import helpers\n"
        f'  File "{path}", line 21, in <module>\n'
        f"    {statement}\n"
        f"{error}\n"
    )


_ATTRIBUTE = "AttributeError: module 'collections' has no attribute 'Mapping'"


def test_the_users_own_code_is_told_collections_abc() -> None:
    text = _asked_in("/home/user/proj/helpers.py", "collections.Mapping", _ATTRIBUTE)
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    fix = fix_text(top)
    assert "collections.abc.Mapping" in fix and "3.9 or older" in fix
    assert "pip install" not in fix


def test_an_installed_packages_frame_is_told_its_release_not_an_edit() -> None:
    text = _asked_in(
        "/home/user/.venv/lib/python3.10/site-packages/tensorflow_addons/utils/types.py",
        "if isinstance(x, collections.Mapping):",
        _ATTRIBUTE,
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    fix = fix_text(top)
    # The module table's distribution of the frame's package, upgraded, or an older Python.
    assert 'pip install --upgrade "tensorflow-addons"' in fix and "3.9 or older" in fix
    assert "replace it with" not in fix


def test_a_windows_package_frame_names_no_guessed_distribution() -> None:
    text = _asked_in(
        r"C:\Users\user\AppData\Local\Programs\Python\Python310\lib\site-packages"
        r"\oldreadline\compat.py",
        "return isinstance(x, collections.Callable)",
        "AttributeError: module 'collections' has no attribute 'Callable'",
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module" and "Python 3.10" in top.summary
    fix = fix_text(top)
    assert "b'oldreadline/'" in fix and "pip install --upgrade" not in fix


_CUT_IMPORT = (
    "ImportError: cannot import name 'Mapping' from 'collections' "
    "(/usr/lib/python3.10/collections/__init__.py)"
)


def test_a_frame_importing_a_package_before_a_cut_names_that_package() -> None:
    # The console script's import of the package, then frames cut from the paste: the code
    # that asked is that package's or one it imports, so its release is what to change.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/.venv/bin/tensorboard", line 5, in <module>\n'
        "    from tensorboard.main import run_main\n"
        "[...]\n"
        "    from collections import Mapping\n"
        f"{_CUT_IMPORT}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    fix = fix_text(top)
    # The module table's row of TensorBoard's use names its first release without it.
    assert 'pip install "tensorboard>=2.8.0"' in fix and "3.9 or older" in fix
    assert "replace it with" not in fix


@pytest.mark.parametrize(
    "statement",
    [
        pytest.param("import helpers", id="a-package-the-table-does-not-know"),
        pytest.param("from collections import Mapping", id="the-module-itself"),
    ],
)
def test_a_frame_importing_no_known_package_keeps_the_codes_reading(statement: str) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/train.py", line 3, in <module>\n'
        f"    {statement}\n"
        f"{_CUT_IMPORT}\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    assert "replace it with collections.abc.Mapping" in fix_text(top)


def test_the_from_import_form_reads_the_same() -> None:
    text = _asked_in(
        "/home/user/proj/helpers.py",
        "from collections import Iterable",
        "ImportError: cannot import name 'Iterable' from 'collections' "
        "(/usr/lib/python3.10/collections/__init__.py)",
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"
    assert "collections.abc.Iterable" in fix_text(top)


def test_each_name_is_told_its_own_replacement() -> None:
    # What's New In Python 3.11: formatargspec's replacement is inspect.signature() or the
    # Signature object; getfullargspec formats nothing.
    text = _asked_in(
        "/home/user/proj/helpers.py",
        "return inspect.formatargspec(*spec)",
        "AttributeError: module 'inspect' has no attribute 'formatargspec'",
    )
    fix = fix_text(top_error(explained(text)))
    assert "inspect.Signature" in fix and "getfullargspec" not in fix
    text = _asked_in(
        "/home/user/proj/helpers.py",
        "spec = inspect.getargspec(fn)",
        "AttributeError: module 'inspect' has no attribute 'getargspec'",
    )
    assert "inspect.getfullargspec()" in fix_text(top_error(explained(text)))


@pytest.mark.parametrize(
    "error",
    [
        "AttributeError: module 'collections' has no attribute 'abc'",
        "ImportError: cannot import name 'OrderedDict' from 'collections' "
        "(/usr/lib/python3.10/collections/__init__.py)",
        "AttributeError: module 'inspect' has no attribute 'getfullargspec'",
    ],
    ids=["abc-itself", "ordered-dict", "inspect-kept-name"],
)
def test_a_name_no_release_removed_is_not_this(error: str) -> None:
    text = _asked_in("/home/user/proj/helpers.py", "x = 1", error)
    assert all(f.cause != "python-removed-module" for f in explained(text).findings)


def test_a_python_that_still_has_the_name_is_not_this() -> None:
    text = _asked_in(
        "/home/user/.venv/lib/python3.9/site-packages/oldlib/types.py",
        "collections.Mapping",
        _ATTRIBUTE,
    )
    assert all(f.cause != "python-removed-module" for f in explained(text).findings)


def test_a_later_release_removal_names_its_own_release() -> None:
    text = _asked_in(
        "/usr/lib/python3/dist-packages/oldlib/template.py",
        "spec = inspect.getargspec(fn)",
        "AttributeError: module 'inspect' has no attribute 'getargspec'. Did you mean: 'getargs'?",
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module" and "Python 3.11 removed" in top.summary
    assert "3.10 or older" in fix_text(top)


def test_tensorflows_own_frame_is_a_release_not_built_for_this_python() -> None:
    text = _asked_in(
        "/opt/conda/lib/python3.10/site-packages/tensorflow/python/util/nest.py",
        "collections.Mapping",
        _ATTRIBUTE,
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    assert top.summary.startswith("TensorFlow's own files use collections.Mapping, which")


def test_the_table_keeps_names_apart_from_whole_modules() -> None:
    table = modules()
    assert "collections" not in table.removed
    row = table.removed_names["collections.MutableMapping"]
    assert row.removed_in == "3.10" and "MutableMapping" in row.names
    assert row.replacement("Sequence") == "collections.abc.Sequence"
    # Buffer came to collections.abc in 3.12: never an alias in collections.
    assert "Buffer" not in row.names


def test_a_row_with_names_is_read_apart() -> None:
    text = (
        "schema_version: 1\nsources:\n  - {id: s, title: t, url: 'https://x.org/'}\n"
        "modules: []\nops: []\n"
        "removed_from_python:\n"
        "  - {module: imp, removed_in: '3.12', use: importlib, source: s}\n"
        "  - {module: fractions, names: [gcd], removed_in: '3.9', use: 'math.gcd()', source: s}\n"
    )
    table = parse_modules(text, "m.yaml")
    assert set(table.removed) == {"imp"} and set(table.removed_names) == {"fractions.gcd"}
    assert table.removed_names["fractions.gcd"].names == frozenset({"gcd"})


_NAMED = (
    "schema_version: 1\nsources:\n  - {id: s, title: t, url: 'https://x.org/'}\n"
    "modules: []\nops: []\n"
    "removed_from_python:\n"
    "  - {module: inspect, names: [getargspec, formatargspec], removed_in: '3.11', "
)


def test_a_names_own_replacement_is_read_for_it_alone() -> None:
    table = parse_modules(_NAMED + "use: a, uses: {formatargspec: b}, source: s}\n", "m.yaml")
    assert table.removed_names["inspect.getargspec"].use == "a"
    assert table.removed_names["inspect.formatargspec"].use == "b"


def test_a_replacement_for_a_name_the_row_lacks_is_refused() -> None:
    with pytest.raises(ModulesError, match="not one of the row's names"):
        parse_modules(_NAMED + "use: a, uses: {signature: b}, source: s}\n", "m.yaml")
