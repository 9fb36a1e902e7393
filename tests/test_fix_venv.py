"""``tfdoctor fix`` of an externally managed (PEP 668) Python: the plan goes into a new virtual
environment, the system Python is never changed. Real processes on a "system" Python built
here without root (:func:`tests.wheels.make_system_python`) and small wheels; the stand-in
``tensorflow`` is judged from its metadata (``--static``), as in ``test_fix.py``."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.commandline import ROOT, tfdoctor
from tests.processes import start
from tests.wheels import BROKEN_PINS, make_hijacking_links, make_system_python, make_tf_links
from tfdoctor.facts import PackageFacts
from tfdoctor.fix.plan import NewVenv, Operation, Plan, carried, into_venv
from tfdoctor.fix.snapshot import env_dir
from tfdoctor.fix.venv import VenvError, default_path

# --- the plan for a new environment, from the in-place plan ------------------------------

_NEW = NewVenv("/home/u/tf", "/usr/bin/python3.12")
_INSTALLED = (
    PackageFacts("tensorflow", "2.21.0", "/usr/lib", ("numpy>=1.26.0", "keras>=3.10.0")),
    PackageFacts("keras", "3.12.0", "/usr/lib", ("numpy",)),
    PackageFacts("tensorflow-text", "2.21.0", "/usr/lib", ("tensorflow<2.22,>=2.21.0",)),
    PackageFacts("tf_keras", "2.21.0", "/usr/lib"),
    PackageFacts("numpy", "2.3.0", "/usr/lib"),
)


def _in_place(*ops: Operation) -> Plan:
    return Plan("/usr/bin/python3.12", "/usr", ops)


def test_the_family_installed_for_its_own_sake_is_carried_and_dependencies_are_not() -> None:
    # keras and numpy come with TensorFlow's own requirements; tensorflow-text's range does
    # not choose the TensorFlow release, so TensorFlow stays at its own.
    assert carried(_INSTALLED) == (
        ("tensorflow", "2.21.0"), ("tensorflow-text", "2.21.0"), ("tf-keras", "2.21.0")
    )  # fmt: skip
    # A wrapper's body comes with the wrapper (tensorflow-intel under tensorflow on Windows).
    wrapper = (
        PackageFacts("tensorflow", "2.15.0", "/usr/lib", ("tensorflow-intel==2.15.0",)),
        PackageFacts("tensorflow-intel", "2.15.0", "/usr/lib", ("numpy",)),
    )
    assert carried(wrapper) == (("tensorflow", "2.15.0"),)


def test_a_new_environment_gets_the_fixes_and_the_family_at_its_versions() -> None:
    fix = Operation("install", ("ml-dtypes>=0.5.1",), ("--force-reinstall",), ("a",), ("c-a",))
    drop = Operation("uninstall", ("tensorflow-text",), (), ("b",), ("c-b",))
    plan = into_venv(_in_place(fix, drop), _INSTALLED, _NEW)
    (op,) = plan.operations
    # Nothing to uninstall or force in a new environment; what a fix removes is not carried.
    assert op == Operation(
        "install",
        ("ml-dtypes>=0.5.1", "tensorflow==2.21.0", "tf-keras==2.21.0"),
        (),
        ("a", "b"),
        ("c-a", "c-b"),
    )
    assert plan.venv == _NEW and plan.target == "/home/u/tf/bin/python"


def test_a_fix_that_chooses_the_tensorflow_leaves_the_companions_unpinned() -> None:
    installed = (*_INSTALLED, PackageFacts("tensorflow-cpu", "2.21.0", "/usr/lib"))
    fix = Operation("install", ("tensorflow==2.20.0",), (), ("a",))
    (op,) = into_venv(_in_place(fix), installed, _NEW).operations
    # tensorflow-cpu would be a second TensorFlow beside the one the fix chooses.
    assert op.specs == ("tensorflow==2.20.0", "tensorflow-text", "tf-keras")


def test_nothing_to_fix_creates_nothing() -> None:
    plan = into_venv(_in_place(), _INSTALLED, _NEW)
    assert plan.operations == () and plan.venv == _NEW


def test_the_default_folder_is_in_the_users_data_directory() -> None:
    assert default_path("3.12.3", {"HOME": "/home/u"}) == Path(
        "/home/u/.local/share/tfdoctor/venvs/tensorflow-py3.12"
    )
    xdg = {"HOME": "/home/u", "XDG_DATA_HOME": "/data"}
    assert default_path("3.11.0", xdg) == Path("/data/tfdoctor/venvs/tensorflow-py3.11")
    with pytest.raises(VenvError, match="--venv"):
        default_path("3.12.3", {"XDG_DATA_HOME": "relative"})


# --- on a real externally managed Python -------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wheels in ``links/``, a "system" Python in ``system/`` with ml-dtypes below its
    TensorFlow's range, and its ``check --static --json`` report in ``facts.json``."""
    root = tmp_path_factory.mktemp("pep668")
    links = make_tf_links(root / "links")
    python = make_system_python(root / "system")
    pins = BROKEN_PINS
    offline = ["--no-deps", "--no-index", "--find-links", str(links)]
    refused = _pip(python, "install", *offline, *pins)
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr
    # Only the test's own set-up forces its way in, to give the system a broken TensorFlow.
    forced = _pip(python, "install", "-q", "--break-system-packages", *offline, *pins)
    assert forced.returncode == 0, forced.stderr
    done = tfdoctor("check", "--static", "--json", "--python", str(python), env=_ENV)
    assert done.returncode == 2, done.stderr
    report = json.loads(done.stdout)
    py = report["facts"]["python"]
    assert py["externally_managed"] and py["prefix"] == py["base_prefix"]
    (root / "facts.json").write_text(done.stdout, encoding="utf-8")
    return root


#: No user site-packages: the "system" Python sees only its own.
_ENV = {"PYTHONNOUSERSITE": "1"}


def _pip(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), "-m", "pip", *args],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, **_ENV, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )  # fmt: skip


class System:
    """The world's "system" Python, a folder for the new environment, a snapshot directory."""

    def __init__(self, world: Path, tmp_path: Path) -> None:
        # The interpreter the saved facts name (bin/pythonX.Y), so that plans compare.
        self.python = next((world / "system" / "bin").glob("python3.*"))
        self.links = world / "links"
        self.facts = world / "facts.json"
        self.venv = tmp_path / "tf"
        self.cache = tmp_path / "cache"
        self.freeze = self.pip_freeze(self.python)

    @staticmethod
    def pip_freeze(python: Path) -> str:
        done = _pip(python, "freeze", "--all", "--local")
        assert done.returncode == 0, done.stderr
        return done.stdout

    def run(self, *args: str, links: Path | None = None) -> subprocess.CompletedProcess[str]:
        """``tfdoctor fix ARGS --python SYSTEM --venv VENV``, offline from ``links``."""
        where = ["--no-index", "--find-links", str(links or self.links)]
        return tfdoctor(
            "fix", *args, "--python", str(self.python), "--venv", str(self.venv), *where,
            env={**_ENV, "TFDOCTOR_CACHE_DIR": str(self.cache)}, timeout=300,
        )  # fmt: skip

    def journal(self) -> list[str]:
        found = sorted(env_dir(str(self.venv), self.env).glob("*/journal.jsonl"))
        if not found:
            return []
        lines = found[-1].read_text(encoding="utf-8").splitlines()
        return [json.loads(line)["event"] for line in lines if line.endswith("}")]

    @property
    def env(self) -> dict[str, str]:
        return {"TFDOCTOR_CACHE_DIR": str(self.cache)}


@pytest.fixture
def system(world: Path, tmp_path: Path) -> System:
    return System(world, tmp_path)


def test_fix_yes_fills_a_new_environment_that_checks_clean_and_rollback_removes_it(
    system: System,
) -> None:
    planned = system.run("--facts", str(system.facts))
    assert planned.returncode == 2, planned.stderr
    assert "externally managed (PEP 668): nothing is installed into it" in planned.stdout
    assert f"-m venv {system.venv}" in planned.stdout
    assert f"Steps (run with {system.venv}/bin/python -m pip)" in planned.stdout
    assert "pip install 'ml-dtypes<1.0.0,>=0.5.1' tensorflow==2.21.0" in planned.stdout
    assert "install ml-dtypes 0.5.1" in planned.stdout
    assert "break-system-packages" not in planned.stdout
    assert not system.venv.exists() and system.journal() == []
    assert system.pip_freeze(system.python) == system.freeze

    done = system.run("--yes", "--static")
    assert done.returncode == 0, done.stdout + done.stderr
    # The plan from the saved facts is the plan the live check makes.
    assert done.stdout.startswith(
        planned.stdout.replace("Not applied: run again with --yes to apply.\n", "")
    )
    new = system.venv / "bin" / "python"
    assert f". {system.venv}/bin/activate" in done.stdout
    assert f"{new} -m ipykernel install --user --name tf" in done.stdout
    assert system.journal() == ["begin", "create", "step", "done", "verify", "verified"]
    inside = system.pip_freeze(new)
    assert "ml-dtypes==0.5.1" in inside and "tensorflow==2.21.0" in inside
    assert system.pip_freeze(system.python) == system.freeze  # the system is untouched
    check = tfdoctor("check", "--static", "--python", str(new), env=_ENV)
    assert check.returncode == 0, check.stdout
    imported = subprocess.run([str(new), "-c", "import tensorflow"], check=False, timeout=60)
    assert imported.returncode == 0

    # The environment tfdoctor created may take the next fix (anything else may not): it is
    # set aside until the new one holds, then deleted.
    again = system.run("--yes", "--facts", str(system.facts), "--format", "json")
    assert again.returncode == 0, again.stdout + again.stderr
    result = json.loads(again.stdout)
    assert result["plan"]["venv"]["replaces"] is True and result["applied"]["verified"]
    assert system.journal() == [
        "begin", "replace", "create", "step", "done", "verify", "verified"
    ]  # fmt: skip
    assert sorted(p.name for p in system.venv.parent.iterdir()) == ["cache", "tf"]

    # Only the newest snapshot of the folder rolls back: the older one's environment is gone.
    first = done.stdout.split("tfdoctor fix --rollback ")[1].split()[0]
    older = tfdoctor("fix", "--rollback", first, env=system.env)
    assert older.returncode == 3 and "is not the newest" in older.stderr
    assert system.venv.exists()
    back = tfdoctor("fix", "--rollback", result["applied"]["snapshot"], env=system.env)
    assert back.returncode == 0, back.stderr
    assert f"the environment {system.venv} it created is removed" in back.stdout
    assert not system.venv.exists()
    assert system.pip_freeze(system.python) == system.freeze


def test_a_new_environment_that_does_not_verify_is_removed(system: System, tmp_path: Path) -> None:
    done = system.run("--yes", "--static", links=make_hijacking_links(tmp_path / "bad"))
    assert done.returncode == 2, done.stderr
    assert "new errors" in done.stdout and f"{system.venv} is removed" in done.stdout
    assert not system.venv.exists() and system.journal()[-1] == "rolled-back"
    assert system.pip_freeze(system.python) == system.freeze


def test_a_folder_that_is_not_empty_is_refused(system: System) -> None:
    system.venv.mkdir()
    (system.venv / "notes.txt").write_text("mine", encoding="utf-8")
    done = system.run("--yes", "--facts", str(system.facts))
    assert done.returncode == 2, done.stderr
    assert "is not empty and no tfdoctor fix created it" in done.stdout
    assert sorted(p.name for p in system.venv.iterdir()) == ["notes.txt"]
    assert system.journal() == []


@pytest.fixture
def venv_locked(system: System) -> Iterator[None]:
    directory = env_dir(str(system.venv), system.env)
    directory.mkdir(parents=True)
    with (directory / "lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


@pytest.mark.usefixtures("venv_locked")
def test_a_fix_while_another_holds_the_new_environment_is_refused(system: System) -> None:
    done = system.run("--yes", "--facts", str(system.facts))
    assert done.returncode == 3 and done.stdout == ""
    assert done.stderr.startswith("tfdoctor: error: another tfdoctor fix")
    assert not system.venv.exists()


def test_a_fix_killed_while_filling_the_environment_is_undone_by_the_next_run(
    system: System,
) -> None:
    argv = [sys.executable, "-m", "tfdoctor", "fix", "--yes", "--static"]
    child = start(
        [*argv, "--python", str(system.python), "--venv", str(system.venv), "--no-index",
         "--find-links", str(system.links)],
        cwd=ROOT, env={**os.environ, **_ENV, **system.env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 240
    while "step" not in system.journal() and child.poll() is None:
        assert time.monotonic() < deadline, system.journal()
        time.sleep(0.01)
    os.killpg(child.pid, signal.SIGKILL)  # tfdoctor and the pip it runs
    child.wait()
    assert system.journal()[-1] in ("step", "done"), system.journal()
    assert (system.venv / "pyvenv.cfg").exists()
    done = system.run("--facts", str(system.facts))
    assert "left by an interrupted fix (the environment it created removed)" in done.stdout
    assert not system.venv.exists() and system.journal()[-1] == "rolled-back"
    assert system.pip_freeze(system.python) == system.freeze
