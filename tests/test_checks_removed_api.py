"""packages.removed-api: an installed release whose code uses what the installed release of
another distribution removed (the module table's removed_api_users rows), judged from the
installed versions alone, on machines written for the test; applying its fix clears it.
explain's reading of the same removal (setuptools 82's pkg_resources) gives the same fix: the
user's row where a frame shows the importer, the module's row where none does."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from tests.explaining import SIGNATURES, explained
from tests.facts_cases import read_case
from tests.planted import planted_error
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import load_matrix
from tfdoctor.modules import (
    MODULES_DATA,
    ModulesError,
    RemovedApiUser,
    modules,
    parse_modules,
)

CHECK = "packages.removed-api"
#: A machine of the companion set-ups' (no TensorFlow there), its packages replaced per test.
BASE: dict[str, Any] = read_case(
    Path(__file__).parent / "data" / "companion_setups" / "addons-0230-without-tf.json"
)["facts"]


def _facts(python: str, packages: dict[str, str]) -> dict[str, Any]:
    """The base machine with this Python and only these packages installed."""
    doc = copy.deepcopy(BASE)
    doc["python"]["version"] = python
    location = doc["python"]["site_packages"][0]
    doc["packages"] = [
        {"name": n, "version": v, "location": location, "requires": [], "editable": False}
        for n, v in packages.items()
    ]
    return doc


def _found(doc: dict[str, Any]) -> list[Finding]:
    """The check's findings at warning or above on ``doc``."""
    found = run_checks(CheckContext(facts_from_json(doc), load_matrix()), select_checks([CHECK]))
    return [f for f in found if f.id == CHECK and f.severity.rank >= Severity.WARNING.rank]


#: Machines a removal breaks: Python, packages, and what the fix must name.
BROKEN = [
    pytest.param(
        "3.12.3",
        {"tensorboard": "2.19.0", "setuptools": "82.0.1"},
        ("setuptools<82.0.0", "2.21.0"),
        id="tensorboard-pkg-resources",
    ),
    pytest.param(
        "3.9.7",
        {"torch": "1.9.1+cpu", "setuptools": "60.2.0", "tensorboard": "2.8.0"},
        ("setuptools<59.6.0", "1.11.0"),
        id="torch-distutils-version",
    ),
]


@pytest.mark.parametrize(("python", "packages", "needles"), BROKEN)
def test_a_user_beside_the_removing_release_is_an_error_whose_fix_clears_it(
    python: str, packages: dict[str, str], needles: tuple[str, ...]
) -> None:
    doc = _facts(python, packages)
    (found,) = _found(doc)
    assert found.severity is Severity.ERROR and found.cause == "dependency-api-removed"
    assert found.fix is not None
    text = found.fix.text + "\n" + "\n".join(found.fix.commands)
    for needle in needles:
        assert needle in text, (needle, text)
    # The property: the fix's pin applied (the release below the one it names), judged
    # again, the cause is gone; so is it with the user's release the fix names instead.
    (command,) = found.fix.commands
    dist, bound = re.findall(r'"([a-z-]+)<([\d.]+)"', command)[0]
    below = dict(packages, **{dist: f"{int(bound.split('.')[0]) - 1}.0.0"})
    assert _found(_facts(python, below)) == []
    user = next(n for n in packages if n != dist)
    fixed = re.findall(rf"upgrade {user} to ([\d.]+)", found.fix.text)[0]
    assert _found(_facts(python, dict(packages, **{user: fixed}))) == []


@pytest.mark.parametrize(
    ("python", "packages"),
    [
        pytest.param("3.12.3", {"tensorboard": "2.21.0", "setuptools": "82.0.0"}, id="tb-fixed"),
        pytest.param("3.12.3", {"tensorboard": "2.20.0", "setuptools": "81.0.0"}, id="tb-old-st"),
        pytest.param("3.10.12", {"tensorboard": "1.13.1", "setuptools": "82.0.0"}, id="tb-before"),
        pytest.param("3.12.3", {"tensorboard": "2.20.0"}, id="no-setuptools"),
        pytest.param("3.8.10", {"torch": "1.11.0", "setuptools": "65.3.0"}, id="torch-fixed"),
        pytest.param("3.8.10", {"torch": "1.8.0", "setuptools": "65.3.0"}, id="torch-before"),
        pytest.param("3.8.10", {"torch": "1.10.0", "setuptools": "59.5.0"}, id="torch-old-st"),
        # torch.utils.tensorboard imports tensorboard before it reads distutils.version: without
        # TensorBoard it fails on that import, whatever setuptools is installed.
        pytest.param("3.8.10", {"torch": "1.10.0", "setuptools": "65.3.0"}, id="torch-no-tb"),
    ],
)
def test_no_finding_where_no_installed_release_uses_a_removed_name(
    python: str, packages: dict[str, str]
) -> None:
    assert _found(_facts(python, packages)) == []


def test_no_pin_to_a_setuptools_that_cannot_import_on_the_python() -> None:
    # setuptools before 59.6 cannot import on Python 3.12 (its distutils row's python_below):
    # the fix's command is the user's release without the use, not the pin.
    (found,) = _found(
        _facts("3.12.3", {"torch": "1.10.0", "setuptools": "70.0.0", "tensorboard": "2.16.2"})
    )
    assert found.fix is not None
    assert "setuptools<" not in " ".join(found.fix.commands)
    assert any('"torch>=1.11.0"' in c for c in found.fix.commands)


@pytest.mark.parametrize(
    ("python", "version", "found"),
    [
        pytest.param("3.10.1", "2.7.0", True, id="vendored-html5lib-on-3.10"),
        pytest.param("3.9.7", "2.7.0", False, id="a-python-that-has-it"),
        pytest.param("3.10.1", "2.8.0", False, id="the-release-without-it"),
        pytest.param("3.10.1", "1.14.0", False, id="a-release-the-row-does-not-read"),
    ],
)
def test_a_release_using_what_the_python_removed_is_told_its_release_without_it(
    python: str, version: str, found: bool
) -> None:
    # A row on a Python removal (removed_from_python's collections.Mapping): judged from the
    # Python's version, not from another installed distribution.
    results = _found(_facts(python, {"tensorboard": version}))
    if not found:
        assert results == []
        return
    (finding,) = results
    assert finding.severity is Severity.ERROR and finding.cause == "python-removed-module"
    assert finding.fix is not None
    (row,) = [u for u in modules().removed_api_users if u.python]
    assert any(f'"tensorboard>={row.fixed_in}"' in c for c in finding.fix.commands)
    # The property: the release the fix names, judged again, clears it.
    assert _found(_facts(python, {"tensorboard": row.fixed_in})) == []


@pytest.mark.parametrize(
    ("planted", "said"),
    [
        # One distribution may use two removals, but not one twice.
        (("uses: collections.Mapping,", "uses: pkg_resources,"), "duplicate use"),
        (("uses: pkg_resources,", "uses: pkg_resources.nothing,"), "not a module or name"),
    ],
    ids=["a-use-twice", "no-such-removal"],
)
def test_a_malformed_user_row_is_refused_at_its_field(planted: tuple[str, str], said: str) -> None:
    text = MODULES_DATA.read_text(encoding="utf-8")
    line, message = planted_error(parse_modules, ModulesError, text, *planted, "modules.yaml")
    assert line > 1 and said in message


#: TensorBoard 2.20's console script failing at start (tensorboard/default.py's import).
TB_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/srv/venv/bin/tensorboard", line 5, in <module>\n'
    "    from tensorboard.main import run_main\n"
    '  File "/srv/venv/lib/python3.12/site-packages/tensorboard/main.py", line 27, in <module>\n'
    "    from tensorboard import default\n"
    '  File "/srv/venv/lib/python3.12/site-packages/tensorboard/default.py", line 30, '
    "in <module>\n"
    "    import pkg_resources\n"
    "ModuleNotFoundError: No module named 'pkg_resources'\n"
)
#: The exception line alone, and the words quoted in prose: no importer shown.
BARE = "ModuleNotFoundError: No module named 'pkg_resources'\n"
PROSE = "Since yesterday tensorboard says No module named 'pkg_resources' and stops.\n"


def _removal(text: str, doc: dict[str, Any] | None = None) -> Finding:
    """explain's one dependency-api-removed finding for ``text`` (on ``doc``'s machine, with
    check's matrix, where given), asserted to be the only one."""
    facts = facts_from_json(doc) if doc is not None else None
    report = explained(text, facts, load_matrix() if doc is not None else None)
    (found,) = [f for f in report.findings if f.cause == "dependency-api-removed"]
    assert found.severity is Severity.ERROR and found.fix is not None
    return found


def _tensorboard_row() -> RemovedApiUser:
    (row,) = [u for u in modules().removed_api_users if u.module == "pkg_resources"]
    return row


@pytest.mark.parametrize(
    "text", [TB_TRACEBACK, PROSE + TB_TRACEBACK], ids=["traceback", "quoted-then-traceback"]
)
def test_explain_on_tensorboards_traceback_gives_the_tensorboard_rows_fix(text: str) -> None:
    # One finding (_removal), the traceback's: the words quoted beside it add no second one.
    row = _tensorboard_row()
    removed = modules().removed_from_dist["pkg_resources"].removed_in
    found = _removal(text)
    assert found.fix is not None
    assert found.fix.text.startswith("tensorboard's code uses pkg_resources")
    assert f"upgrade tensorboard to {row.fixed_in} or later" in found.fix.text
    assert found.fix.commands == (f'pip install "setuptools<{removed}"',)
    # The log shows no setuptools: the pin also installs one where the environment has none.
    assert "where the environment has none" in found.fix.text
    assert set(row.links) <= set(found.links)


@pytest.mark.parametrize("text", [BARE, PROSE], ids=["exception-line", "prose"])
def test_explain_without_the_importer_gives_the_modules_rows_fix(text: str) -> None:
    row = _tensorboard_row()
    removed = modules().removed_from_dist["pkg_resources"]
    found = _removal(text)
    assert found.fix is not None
    assert found.fix.text.startswith("The code uses pkg_resources")
    assert f"use {removed.use} in the code" in found.fix.text
    # The libraries the table knows to use it are named, as a possibility.
    assert f"where the code is a package's, upgrade it (tensorboard to {row.fixed_in}" in (
        found.fix.text
    )
    assert found.fix.commands == (f'pip install "setuptools<{removed.removed_in}"',)


def test_explain_on_the_users_own_import_names_no_package() -> None:
    # The frame that imported it is the user's own script: no package to upgrade.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 3, in <module>\n'
        "    import pkg_resources\n"
        "ModuleNotFoundError: No module named 'pkg_resources'\n"
    )
    found = _removal(text)
    assert found.fix is not None
    assert found.fix.text.startswith("The code uses pkg_resources")
    assert "tensorboard" not in found.fix.text


@pytest.mark.parametrize("with_tf", [False, True], ids=["tensorboard-alone", "tf-requires-it"])
def test_check_and_explain_give_one_fix_for_one_machine(with_tf: bool) -> None:
    packages = {"tensorboard": "2.20.0", "setuptools": "82.0.1"}
    doc = _facts("3.12.3", dict(packages, tensorflow="2.20.0") if with_tf else packages)
    for pkg in doc["packages"]:
        if pkg["name"] == "tensorflow":
            # TensorFlow X.Y requires tensorboard~=X.Y.0: the upgrade names it in both.
            pkg["requires"] = ["tensorboard~=2.20.0"]
    (checked,) = _found(doc)
    explained_ = _removal(TB_TRACEBACK, doc)
    assert checked.fix is not None and explained_.fix is not None
    assert explained_.fix == checked.fix
    assert ("tensorflow 2.20.0 requires tensorboard~=2.20.0" in checked.fix.text) is with_tf
    # setuptools shown installed: nothing said of an environment without one.
    assert "where the environment has none" not in checked.fix.text


def test_explains_fix_applied_clears_checks_finding() -> None:
    # The property, from explain's side: the pin it gives applied, or the release of
    # TensorBoard it names, and check judges the machine again: the cause is gone.
    packages = {"tensorboard": "2.20.0", "setuptools": "82.0.0"}
    assert len(_found(_facts("3.12.3", packages))) == 1
    found = _removal(TB_TRACEBACK)
    assert found.fix is not None
    (command,) = found.fix.commands
    bound = re.findall(r'"setuptools<([\d.]+)"', command)[0]
    below = dict(packages, setuptools=f"{int(bound.split('.')[0]) - 1}.0.0")
    assert _found(_facts("3.12.3", below)) == []
    fixed = re.findall(r"upgrade tensorboard to ([\d.]+)", found.fix.text)[0]
    assert _found(_facts("3.12.3", dict(packages, tensorboard=fixed))) == []


def test_every_removal_signature_names_a_whole_module_of_the_table() -> None:
    # The signature's fix reads its `module` group: a row of the module table, whole.
    table = modules().removed_from_dist
    removals = [s for s in SIGNATURES.signatures if s.cause == "dependency-api-removed"]
    assert removals
    for sig in removals:
        assert "module" in sig.pattern.groupindex, sig.id
        for example in sig.examples:
            match = sig.pattern.search(example)
            assert match is not None, (sig.id, example)
            row = table[match.group("module")]
            assert not row.names, sig.id


def test_a_submodule_no_longer_imported_is_not_called_removed() -> None:
    # setuptools 59.6.0 stopped importing distutils.version; it still ships the file (the
    # row's `unimported`): the words say so, in the finding and in its fix.
    (found,) = _found(
        _facts("3.9.7", {"torch": "1.10.0", "setuptools": "65.3.0", "tensorboard": "2.8.0"})
    )
    assert "no longer imports" in found.detail and "removed distutils" not in found.detail
    assert found.fix is not None and "do not import it" in found.fix.text


def test_an_upgrade_another_installed_release_excludes_names_that_requirement() -> None:
    # TensorFlow X.Y requires tensorboard~=X.Y.0: TensorBoard's fixed release alone would break
    # it, so the fix names the requirement; the pin below the removal stays the command.
    doc = _facts(
        "3.11.4", {"tensorflow": "2.20.0", "tensorboard": "2.20.0", "setuptools": "82.0.0"}
    )
    (tf,) = [p for p in doc["packages"] if p["name"] == "tensorflow"]
    tf["requires"] = ["tensorboard~=2.20.0", "numpy>=1.26.0"]
    (found,) = _found(doc)
    assert found.fix is not None
    assert "tensorflow 2.20.0 requires tensorboard~=2.20.0" in found.fix.text
    assert all("setuptools<82.0.0" in c for c in found.fix.commands)
    tf["requires"] = ["tensorboard>=2.20", "numpy>=1.26.0"]
    (found,) = _found(doc)
    assert found.fix is not None and "requires tensorboard" not in found.fix.text


def test_a_librarys_own_words_before_the_missing_module_keep_the_signatures_reading() -> None:
    # The traceback's reading declines a message with words before importlib's; the
    # signature of the same words then answers it, rather than nothing.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/venv/lib/python3.12/site-packages/mytool/cli.py", line 3, in <module>\n'
        "    import pkg_resources\n"
        "ImportError: mytool needs setuptools: No module named 'pkg_resources'\n"
    )
    report = explained(text, matrix=load_matrix())
    assert [x.cause for x in report.findings if x.cause == "dependency-api-removed"] == [
        "dependency-api-removed"
    ]
