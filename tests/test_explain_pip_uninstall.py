"""pip stopping because it cannot uninstall the copy of a dependency that another tool put in
place (distutils, Anaconda's base environment, the system's package manager): the cause names
the package from pip's own words, and the fix installs over it or lets that tool replace it."""

from __future__ import annotations

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, top_error
from tfdoctor.causes.software import unremovable_dependency_fix
from tfdoctor.facts import CondaFacts, CondaPackage
from tfdoctor.machine import Machine

_PIP_22 = (
    "Installing collected packages: wrapt, tensorflow\n"
    "  Found existing installation: wrapt 1.10.11\n"
    "ERROR: Cannot uninstall 'wrapt'. It is a distutils installed project and thus we cannot "
    "accurately determine which files belong to it which would lead to only a partial "
    "uninstall.\n"
)
_PIP_23 = (
    "  Attempting uninstall: PyYAML\n"
    "    Found existing installation: PyYAML 5.3.1\n"
    "error: uninstall-distutils-installed-package\n"
    "\n"
    "\u00d7 Cannot uninstall PyYAML 5.3.1\n"
    "\u2570\u2500> It is a distutils installed project and thus we cannot accurately determine "
    "which files belong to it which would lead to only a partial uninstall.\n"
)
_NO_RECORD = (
    "  Attempting uninstall: blinker\n"
    "    Found existing installation: blinker 1.4\n"
    "error: uninstall-no-record-file\n"
    "\n"
    "\u00d7 Cannot uninstall blinker 1.4\n"
    "\u2570\u2500> The package's contents are unknown: no RECORD file was found for blinker.\n"
    "\n"
    "hint: The package was installed by debian. You should check if it can uninstall the "
    "package.\n"
)


@pytest.mark.parametrize(
    ("log", "dist"),
    [
        pytest.param(_PIP_22, "wrapt", id="pip-10-to-22"),
        pytest.param(_PIP_23, "PyYAML", id="pip-23"),
        pytest.param(_NO_RECORD, "blinker", id="no-record"),
    ],
)
def test_the_package_pip_cannot_uninstall_is_installed_over(log: str, dist: str) -> None:
    top = top_error(explained(log))
    assert top.cause == "distutils-package-unremovable"
    fix = fix_text(top)
    assert f"install --ignore-installed {dist}" in fix
    # Not another interpreter or TensorFlow: the refusal is about the copy in place.
    assert "64-bit" not in fix and "tensorflow==" not in fix


def test_the_installer_pip_names_is_said_without_its_full_stop() -> None:
    fix = fix_text(top_error(explained(_NO_RECORD)))
    assert "pip says debian installed it" in fix and "venv" in fix


def test_inside_conda_conda_replaces_it_first() -> None:
    prefix = "/home/u/anaconda3"
    facts = f.facts(
        python=f.python(env_kind="conda", prefix=prefix, executable=f"{prefix}/bin/python"),
        conda=CondaFacts(prefix, (CondaPackage("wrapt", "1.10.11", "py37_0", "defaults"),)),
    )
    fix = unremovable_dependency_fix(Machine(facts, f.FIXTURE_MATRIX), "wrapt", None)
    assert fix.commands[0] == "conda update wrapt"
    assert any("--ignore-installed wrapt" in c for c in fix.commands[1:])


def test_in_a_pixi_workspace_pixi_updates_it() -> None:
    """A pixi workspace's environment follows its lock: `conda update` there would be undone
    by the next `pixi install`."""
    prefix = "/home/u/proj/.pixi/envs/default"
    python = f.python(env_kind="conda", prefix=prefix, executable=f"{prefix}/bin/python")
    fix = unremovable_dependency_fix(
        Machine(f.facts(python=python), f.FIXTURE_MATRIX), "wrapt", None
    )
    assert fix.commands[0] == "pixi update wrapt"


def test_a_copy_pip_says_conda_installed_is_replaced_by_conda() -> None:
    # Not the system's packages: conda writes "conda" in the INSTALLER file pip reads.
    log = _NO_RECORD.replace("installed by debian", "installed by conda")
    fix = top_error(explained(log)).fix
    assert fix is not None and fix.commands[0] == "conda update blinker"
    assert "system's packages" not in fix.text


def test_uninstalling_what_is_not_installed_is_not_this_cause() -> None:
    log = (
        "WARNING: Skipping wrapt as it is not installed.\n"
        "Cannot uninstall requirement wrapt, not installed\n"
    )
    assert all(f.cause != "distutils-package-unremovable" for f in explained(log).findings)
