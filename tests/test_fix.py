"""``tfdoctor fix``: plans from findings, pip's dry run judged, and the transaction (snapshot,
apply, verify, roll back, recover after a kill, the lock) on real virtual environments with
small wheels built here. The package under diagnosis is judged from its metadata only (the
declared-range check with ``--static``), so a metadata-only ``tensorflow`` wheel stands in."""

from __future__ import annotations

import contextlib
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

from tests import factories
from tests.commandline import ROOT, tfdoctor
from tests.processes import start
from tests.wheels import (
    BROKEN_PINS,
    copy_venv,
    make_hijacking_links,
    make_tf_links,
    make_venv,
    make_wheel,
)
from tfdoctor.facts import CondaFacts, CondaPackage
from tfdoctor.findings import Finding, Fix, Report, Severity
from tfdoctor.fix.apply import follows_plan
from tfdoctor.fix.dryrun import refusal
from tfdoctor.fix.pip import Change, IndexOptions, Installed, Inventory, PipError, dry_run
from tfdoctor.fix.plan import Operation, build_plan
from tfdoctor.fix.snapshot import env_dir

EXE = "/opt/venv/bin/python"

# --- the plan, from findings --------------------------------------------------------------


def _finding(fid: str, *commands: str, severity: Severity = Severity.ERROR) -> Finding:
    return Finding(fid, severity, f"{fid} summary", fix=Fix("fix it", commands), cause=f"c-{fid}")


def _plan(*findings: Finding, externally_managed: bool = False, env_kind: str = "venv") -> object:
    py = factories.python(externally_managed=externally_managed, env_kind=env_kind)
    report = Report(factories.facts(python=py), findings)
    return build_plan(report, EXE, "/opt/venv")


def test_pip_of_the_examined_interpreter_is_an_operation_tied_to_its_finding() -> None:
    plan = _plan(_finding("a", f'{EXE} -m pip install "numpy<2" --force-reinstall'))
    assert plan.operations == (  # type: ignore[attr-defined]
        Operation("install", ("numpy<2",), ("--force-reinstall",), ("a",), ("c-a",)),
    )
    assert plan.manual == ()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("command", "why"),
    [
        pytest.param("sudo apt-get install nvidia-driver-550", "root", id="sudo"),
        pytest.param("export TF_USE_LEGACY_KERAS=1", "start-up", id="export"),
        pytest.param("conda remove -y cudatoolkit", "conda", id="conda"),
        pytest.param(
            '/usr/bin/python3 -m pip install "numpy<2"', "another interpreter", id="other"
        ),
        pytest.param(f'{EXE} -m pip install --index-url https://x "a"', "options", id="index"),
        pytest.param(f"{EXE} -m pip install ./a.whl", "file or URL", id="file"),
    ],
)
def test_commands_outside_the_examined_environment_are_manual(command: str, why: str) -> None:
    plan = _plan(_finding("a", command))
    assert plan.operations == ()  # type: ignore[attr-defined]
    (step,) = plan.manual  # type: ignore[attr-defined]
    assert step.command == command and why in step.reason


def test_a_fix_with_a_manual_step_is_not_half_applied() -> None:
    plan = _plan(_finding("a", f'{EXE} -m pip install "x"', "export LD_LIBRARY_PATH=/y"))
    assert plan.operations == () and plan.fixable == ()  # type: ignore[attr-defined]
    assert [m.command for m in plan.manual] == [  # type: ignore[attr-defined]
        f'{EXE} -m pip install "x"',
        "export LD_LIBRARY_PATH=/y",
    ]


def test_a_command_two_findings_share_runs_once_and_notes_are_left_alone() -> None:
    same = f'{EXE} -m pip install "protobuf<5"'
    plan = _plan(
        _finding("a", same),
        _finding("b", same, severity=Severity.WARNING),
        _finding("c", f'{EXE} -m pip install "tensorboard"', severity=Severity.INFO),
    )
    (op,) = plan.operations  # type: ignore[attr-defined]
    assert op.findings == ("a", "b") and op.causes == ("c-a", "c-b")


def test_a_pip_step_on_a_conda_package_is_left_to_conda() -> None:
    conda = CondaFacts("/opt/venv", (CondaPackage("numpy", "1.26.4", channel="conda-forge"),))
    report = Report(
        factories.facts(conda=conda), (_finding("a", f'{EXE} -m pip install "numpy<2"'),)
    )
    plan = build_plan(report, EXE, "/opt/venv")
    assert plan.operations == ()
    assert "numpy is conda's (channel conda-forge)" in plan.manual[0].reason


def test_a_conda_package_is_named_as_conda_names_it_and_default_channels_unnamed() -> None:
    # conda-forge's typing_extensions is PyPI's typing-extensions; pkgs/main needs no -c.
    conda = CondaFacts(
        "/opt/venv",
        (
            CondaPackage("typing_extensions", "4.9.0", channel="conda-forge"),
            CondaPackage("numpy", "1.26.4", channel="pkgs/main"),
        ),
    )
    report = Report(
        factories.facts(conda=conda),
        (
            _finding("a", f'{EXE} -m pip install "typing-extensions>=4.10"'),
            _finding("b", f'{EXE} -m pip install "numpy<2"'),
        ),
    )
    plan = build_plan(report, EXE, "/opt/venv")
    reasons = [step.reason for step in plan.manual]
    assert plan.operations == ()
    assert reasons == [
        "typing_extensions is conda's (channel conda-forge): change it with conda",
        "numpy is conda's: change it with conda",
    ]


@pytest.mark.parametrize("env_kind", ["system", "user"])  # user: Homebrew's, pyenv-like
def test_an_externally_managed_python_gets_no_operation_in_place(env_kind: str) -> None:
    # Its fix goes into a new environment (tests/test_fix_venv.py), never into it.
    plan = _plan(
        _finding("a", f'{EXE} -m pip install "numpy<2"'), externally_managed=True, env_kind=env_kind
    )
    assert plan.operations == ()  # type: ignore[attr-defined]
    assert "externally managed (PEP 668)" in plan.refusal  # type: ignore[attr-defined]


# --- what pip's dry run may not do --------------------------------------------------------

_INVENTORY = Inventory(
    (
        Installed("tensorflow", "2.21.0", ("numpy>=1.26.0", "h5py<3.15.0,>=3.11.0")),
        Installed("numpy", "2.3.0"),
        Installed("h5py", "3.14.0"),
    ),
    (("python_version", "3.11"), ("sys_platform", "linux")),
)


def test_a_second_tensorflow_is_refused() -> None:
    op = Operation("install", ("tf-keras",))
    why = refusal(op, [Change("tensorflow-cpu", None, "2.21.0")], {}, _INVENTORY)
    assert why is not None and "second TensorFlow" in why


@pytest.mark.parametrize(
    ("wrapper", "body"),
    [
        ("tensorflow", "tensorflow-intel"),
        ("tensorflow", "tensorflow-cpu-aws"),
        ("tensorflow-macos", "tensorflow"),
    ],
)
def test_a_wrapper_and_its_body_are_one_tensorflow(wrapper: str, body: str) -> None:
    # Reinstalling after every TensorFlow distribution was removed: the wrapper brings its
    # platform's body (the matrix's `wrappers`), one installation under two names.
    empty = Inventory(())
    changes = [Change(wrapper, None, "2.15.0"), Change(body, None, "2.15.0")]
    requires = {wrapper: (f"{body}==2.15.0",), body: ("numpy<2",)}
    assert refusal(Operation("install", (f"{wrapper}==2.15.0",)), changes, requires, empty) is None
    apart = {wrapper: ("numpy<2",), body: ("numpy<2",)}
    why = refusal(Operation("install", (f"{wrapper}==2.15.0",)), changes, apart, empty)
    assert why is not None and "second TensorFlow" in why


def test_a_tensorflow_downgrade_is_refused_unless_asked_for() -> None:
    down = [Change("tensorflow", "2.21.0", "2.20.0")]
    assert "downgrade" in str(refusal(Operation("install", ("keras<3",)), down, {}, _INVENTORY))
    assert refusal(Operation("install", ("tensorflow==2.20.0",)), down, {}, _INVENTORY) is None


def test_breaking_an_installed_packages_declared_range_is_refused() -> None:
    why = refusal(
        Operation("install", ("x",)), [Change("h5py", "3.14.0", "3.15.0")], {}, _INVENTORY
    )
    assert why is not None and "tensorflow requires h5py<3.15.0,>=3.11.0" in why


@pytest.mark.parametrize(
    "printed",
    [
        pytest.param("Collecting numpy\n", id="not-json"),
        pytest.param('{"install": {}}', id="install-not-a-list"),
        pytest.param('{"install": [{"metadata": {"name": "numpy"}}]}', id="no-version"),
        pytest.param('{"install": [{"metadata": {"name": "numpy", "version": null}}]}', id="null"),
        pytest.param('{"install": ["numpy"]}', id="item-not-an-object"),
    ],
)
def test_a_malformed_dry_run_report_is_a_pip_error(tmp_path: Path, printed: str) -> None:
    # An interpreter whose `-m pip install --dry-run --report -` prints ``printed``.
    answer = tmp_path / "report.json"
    answer.write_text(printed, encoding="utf-8")
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\ncat '{answer}'\n", encoding="utf-8")
    python.chmod(0o755)
    with pytest.raises(PipError, match=r"^pip's dry-run report is unreadable: pip's installation"):
        dry_run(str(python), ["numpy"], IndexOptions(no_index=True))


# --- the transaction, on real environments ------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wheels in ``links/``, a template venv with ml-dtypes below TensorFlow's range, and
    its saved ``check --static --json`` report in ``facts.json``."""
    root = tmp_path_factory.mktemp("fixworld")
    links = make_tf_links(root / "links")
    python = make_venv(root / "template", sys.executable)
    offline = ["--no-deps", "--no-index", "--find-links", str(links)]
    subprocess.run([str(python), "-m", "pip", "install", "-q", *offline, *BROKEN_PINS], check=True)
    done = tfdoctor("check", "--static", "--json", "--python", str(python))
    assert done.returncode == 2, done.stderr
    (root / "facts.json").write_text(done.stdout, encoding="utf-8")
    return root


class Env:
    """A copy of the template venv, its facts and its own snapshot directory."""

    def __init__(self, world: Path, path: Path) -> None:
        self.python = copy_venv(world / "template", path / "venv")
        self.prefix = str(path / "venv")
        self.links = world / "links"
        self.cache = path / "cache"
        self.facts = path / "facts.json"
        template = str(world / "template")
        self.facts.write_text(
            (world / "facts.json").read_text(encoding="utf-8").replace(template, self.prefix),
            encoding="utf-8",
        )
        self.freeze = self.pip_freeze()

    def pip_freeze(self) -> str:
        done = subprocess.run(
            [str(self.python), "-m", "pip", "freeze", "--all", "--local"],
            capture_output=True, text=True, check=True, timeout=120,
        )  # fmt: skip
        return done.stdout

    def args(self, *extra: str, links: Path | None = None) -> list[str]:
        """``fix`` planned from the facts, offline from ``links``."""
        return [
            "fix", "--facts", str(self.facts), "--python", str(self.python),
            "--no-index", "--find-links", str(links or self.links), *extra,
        ]  # fmt: skip

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return tfdoctor(*args, env={"TFDOCTOR_CACHE_DIR": str(self.cache)}, timeout=300)

    def journal(self) -> list[str]:
        found = sorted(
            env_dir(self.prefix, {"TFDOCTOR_CACHE_DIR": str(self.cache)}).glob("*/journal.jsonl")
        )
        if not found:
            return []
        lines = found[-1].read_text(encoding="utf-8").splitlines()
        return [json.loads(line)["event"] for line in lines if line.endswith("}")]


@pytest.fixture
def env(world: Path, tmp_path: Path) -> Env:
    return Env(world, tmp_path)


def test_plan_only_changes_nothing_and_names_the_step_and_the_source(env: Env) -> None:
    done = env.run(*env.args())
    assert done.returncode == 2, done.stderr
    assert "pip install 'ml-dtypes<1.0.0,>=0.5.1'" in done.stdout
    assert "replace ml-dtypes 0.4.0 -> 0.5.1" in done.stdout
    assert "--no-index: no network" in done.stdout
    assert env.pip_freeze() == env.freeze and env.journal() == []


def test_a_package_fix_is_applied_verified_and_undone_by_rollback(env: Env) -> None:
    done = env.run(*env.args("--yes", "--format", "json"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["applied"]["verified"] is True
    assert "ml-dtypes==0.5.1" in env.pip_freeze()
    assert env.journal() == ["begin", "step", "done", "verify", "verified"]
    again = env.run("fix", "--static", "--python", str(env.python))
    assert again.returncode == 0, again.stderr
    assert "Nothing to do" in again.stdout
    listed = env.run("fix", "--list")
    assert result["applied"]["snapshot"] in listed.stdout and "verified" in listed.stdout
    back = env.run("fix", "--rollback", result["applied"]["snapshot"], "--no-index",
                   "--find-links", str(env.links))  # fmt: skip
    assert back.returncode == 0, back.stderr
    assert env.pip_freeze() == env.freeze


def test_a_fix_that_makes_things_worse_is_rolled_back_byte_for_byte(
    env: Env, tmp_path: Path
) -> None:
    done = env.run(*env.args("--yes", links=make_hijacking_links(tmp_path / "bad")))
    assert done.returncode == 2, done.stderr
    assert "new errors" in done.stdout and "Rolled back" in done.stdout
    assert env.pip_freeze() == env.freeze
    assert env.journal()[-1] == "rolled-back"


def test_a_step_that_would_break_a_declared_range_is_refused_before_anything_changes(
    env: Env, tmp_path: Path
) -> None:
    links = tmp_path / "links"
    links.mkdir()
    make_wheel(links, "ml-dtypes", "0.5.1", ("h5py>=3.15",))
    make_wheel(links, "h5py", "3.15.0")
    done = env.run(*env.args("--yes", links=links))
    assert done.returncode == 2, done.stderr
    assert "tensorflow requires h5py<3.15.0,>=3.11.0" in done.stdout
    assert env.pip_freeze() == env.freeze and env.journal() == []


def _run_until(env: Env, event: str) -> subprocess.Popen[bytes]:
    """``fix --yes`` started in its own process group, once its journal shows ``event``."""
    child = start(
        [sys.executable, "-m", "tfdoctor", *env.args("--yes")],
        cwd=ROOT,
        env={**os.environ, "TFDOCTOR_CACHE_DIR": str(env.cache)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 240
    while event not in env.journal() and child.poll() is None:
        assert time.monotonic() < deadline, env.journal()
        time.sleep(0.005)
    return child


@pytest.mark.parametrize("event", ["begin", "step", "done", "verify"])
def test_a_fix_killed_at_any_step_is_restored_by_the_next_run(env: Env, event: str) -> None:
    child = _run_until(env, event)
    os.killpg(child.pid, signal.SIGKILL)  # tfdoctor and the pip it runs
    child.wait()
    journal = env.journal()
    assert journal[-1] not in ("verified", "rolled-back"), journal
    done = env.run(*env.args())
    assert "left by an interrupted fix (pip freeze identical)" in done.stdout, done.stderr
    assert env.pip_freeze() == env.freeze
    assert env.journal()[-1] == "rolled-back"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_during_a_step_rolls_back_and_exits_130(env: Env, sig: int) -> None:
    child = _run_until(env, "step")
    os.kill(child.pid, sig)
    assert child.wait(timeout=240) == 130
    assert env.pip_freeze() == env.freeze
    assert env.journal()[-1] == "rolled-back"


@pytest.fixture
def lock_held(env: Env) -> Iterator[None]:
    directory = env_dir(env.prefix, {"TFDOCTOR_CACHE_DIR": str(env.cache)})
    directory.mkdir(parents=True)
    with (directory / "lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


@pytest.mark.usefixtures("lock_held")
def test_a_second_fix_of_one_environment_is_refused(env: Env) -> None:
    done = env.run(*env.args("--yes"))
    assert done.returncode == 3 and done.stdout == ""
    assert done.stderr.startswith("tfdoctor: error: another tfdoctor fix")
    assert done.stderr.count("\n") == 1
    assert env.pip_freeze() == env.freeze


def test_a_venv_folder_for_a_python_that_is_not_externally_managed_is_bad_input(
    env: Env, tmp_path: Path
) -> None:
    done = env.run(*env.args("--venv", str(tmp_path / "elsewhere")))
    assert done.returncode == 3 and done.stdout == "", done.stderr
    assert "--venv is for an externally managed Python" in done.stderr
    assert done.stderr.count("\n") == 1 and not (tmp_path / "elsewhere").exists()


def test_facts_of_another_environment_are_refused(env: Env, world: Path) -> None:
    done = env.run("fix", "--facts", str(world / "facts.json"), "--python", str(env.python))
    assert done.returncode == 3 and done.stdout == ""
    assert "tfdoctor fix changes only the one examined" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["fix", "--rollback", "no-such-snapshot"], id="unknown-snapshot"),
        pytest.param(["fix", "20260101T000000Z-abcd"], id="id-without-rollback"),
        pytest.param(["fix", "--format", "sarif"], id="format"),
    ],
)
def test_bad_input_is_one_line_and_exit_3(args: list[str], tmp_path: Path) -> None:
    done = tfdoctor(*args, env={"TFDOCTOR_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 3 and done.stdout == ""
    assert done.stderr.startswith("tfdoctor: error: ") and done.stderr.count("\n") == 1


def test_on_a_terminal_it_asks_and_a_no_changes_nothing(env: Env) -> None:
    import pty

    leader, follower = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "tfdoctor", *env.args()],
        cwd=ROOT,
        env={**os.environ, "TFDOCTOR_CACHE_DIR": str(env.cache)},
        stdin=follower,
        stdout=follower,
        stderr=subprocess.DEVNULL,
    )
    os.close(follower)
    seen = b""
    while b"Apply these steps?" not in seen:
        chunk = os.read(leader, 4096)
        assert chunk, seen
        seen += chunk
    os.write(leader, b"n\n")
    assert child.wait(timeout=120) == 2
    with contextlib.suppress(OSError):  # the terminal closes with its last process
        seen += os.read(leader, 4096)
    os.close(leader)
    assert b"Not applied." in seen and seen.count(b"Fix plan for") == 1
    assert env.pip_freeze() == env.freeze and env.journal() == []


# --- a step's dry run against the plan's ------------------------------------------------------


def _inventory(*installed: tuple[str, str]) -> Inventory:
    return Inventory(tuple(Installed(name, version, ()) for name, version in installed))


@pytest.mark.parametrize(
    ("planned", "now", "removed", "installed", "follows"),
    [
        pytest.param(
            [Change("tensorboard", None, "2.20.0")],
            [Change("tensorboard", None, "2.20.0")],
            (),
            (),
            True,
            id="as-planned",
        ),
        pytest.param(
            [Change("werkzeug", None, "3.1.9")],
            [Change("tensorflow", None, "2.20.0"), Change("werkzeug", None, "3.1.9")],
            ("tensorflow",),
            (),
            True,
            id="installs-again-what-an-earlier-step-removed",
        ),
        pytest.param(
            [Change("tensorboard", None, "2.20.0")],
            [],
            (),
            (("tensorboard", "2.20.0"),),
            True,
            id="an-earlier-step-already-installed-it",
        ),
        pytest.param(
            [Change("tensorboard", None, "2.20.0")],
            [Change("tensorboard", None, "2.20.0"), Change("numpy", "1.26.4", "2.3.0")],
            (),
            (),
            False,
            id="moves-something-the-plan-did-not-say",
        ),
        pytest.param(
            [Change("tensorboard", None, "2.20.0")],
            [],
            (),
            (("tensorboard", "2.19.0"),),
            False,
            id="another-release-is-not-in-place",
        ),
        pytest.param(
            [Change("protobuf", "6.31.1", "6.31.1")],
            [Change("protobuf", "6.31.1", "6.31.1")],
            (),
            (("protobuf", "6.31.1"),),
            True,
            id="a-reinstall-stays-a-change",
        ),
    ],
)
def test_a_steps_dry_run_is_held_to_the_plan(
    planned: list[Change],
    now: list[Change],
    removed: tuple[str, ...],
    installed: tuple[tuple[str, str], ...],
    follows: bool,
) -> None:
    assert follows_plan(planned, now, removed, _inventory(*installed)) is follows
