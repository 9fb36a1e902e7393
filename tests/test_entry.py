"""The executable's entry point: ``--version`` and ``run`` start before the CLI framework loads,
and everything else (or anything unusual) reaches the full command line unchanged."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest
import typer.main

from tests.commandline import tfdoctor
from tfdoctor import __version__
from tfdoctor.cli.app import app
from tfdoctor.cli.fast import PROBING_COMMANDS, RUN_OPTIONS, RunRequest, parse_run

ROOT = Path(__file__).resolve().parent.parent


def _declared_flags(name: str) -> set[str]:
    command = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    flags: set[str] = set()
    for param in command.params:
        if param.param_type_name == "option":
            flags.update(param.opts)
            flags.update(param.secondary_opts)
    return flags - {"--help"}


def test_the_fast_parser_knows_exactly_the_run_commands_options() -> None:
    assert set(RUN_OPTIONS) == _declared_flags("run")


@pytest.mark.parametrize("name", sorted(PROBING_COMMANDS))
def test_the_options_that_probe_elsewhere_are_the_commands_own(name: str) -> None:
    # A renamed option (pin's --interpreter became --python) must not leave the early
    # probes starting for this interpreter while the command examines another.
    assert set(PROBING_COMMANDS[name]) - {"--help"} <= _declared_flags(name)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["python", "train.py"], RunRequest(("python", "train.py"))),
        (["--", "python", "-c", "pass"], RunRequest(("python", "-c", "pass"))),
        # The command's own options stay the command's, after its first word.
        (["python", "--report", "x"], RunRequest(("python", "--report", "x"))),
        (
            ["--explain-on-success", "--report", "r.json", "--no-color", "--", "make", "-j2"],
            RunRequest(("make", "-j2"), explain_on_success=True, report_file="r.json", color=False),
        ),
        (
            ["--matrix=m.yaml", "--color", "sh", "-c", "exit 3"],
            RunRequest(("sh", "-c", "exit 3"), matrix="m.yaml", color=True),
        ),
        # A lone '-' is a word, not an option.
        (["-", "x"], RunRequest(("-", "x"))),
    ],
)
def test_parse_run_reads_what_the_command_line_would(args: list[str], expected: RunRequest) -> None:
    assert parse_run(args) == expected


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--"],
        ["--help"],
        ["--bogus", "python"],
        ["-x", "python"],
        ["--report"],
        ["--report=", "python"],
        ["--color=yes", "python"],
        ["--explain-on-success"],
    ],
)
def test_anything_unusual_goes_to_the_full_command_line(args: list[str]) -> None:
    assert parse_run(args) is None


def _run_entry(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_version_answers_without_loading_the_cli_framework() -> None:
    done = _run_entry(
        "import sys\n"
        "from tfdoctor.entry import main\n"
        "code = main(['--version'])\n"
        "print('loaded' if 'typer' in sys.modules or 'click' in sys.modules else 'light')\n"
        "sys.exit(code)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"tfdoctor {__version__}", "light"]


def test_a_successful_run_never_loads_the_cli_framework() -> None:
    done = _run_entry(
        "import sys\n"
        "from tfdoctor.entry import main\n"
        "code = main(['run', '--', sys.executable, '-c', 'print(42)'])\n"
        "loaded = 'typer' in sys.modules or 'tfdoctor.cli.app' in sys.modules\n"
        "print('loaded' if loaded else 'light')\n"
        "sys.exit(code)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["42", "light"]


def test_a_failed_fast_run_is_explained_by_the_cli_and_keeps_its_exit_code() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tfdoctor",
            "run",
            "--no-color",
            "--",
            sys.executable,
            "-c",
            "import sys; print('Illegal instruction (core dumped)', file=sys.stderr); sys.exit(4)",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 4
    assert done.stderr.startswith("Illegal instruction (core dumped)\n")
    assert "tfdoctor run:" in done.stderr.splitlines()[-1]
    assert "exiting 4" in done.stderr.splitlines()[-1]


def test_an_unknown_run_option_reaches_the_full_command_line() -> None:
    # `run` declares ignore_unknown_options: an unknown word starts COMMAND there, which
    # cannot be found here: 127 with one line, as a shell says it.
    done = tfdoctor("run", "--bogus", "--", "true")
    assert done.returncode == 127
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("tfdoctor run: cannot start --bogus:")


def test_run_help_is_the_full_command_lines() -> None:
    done = tfdoctor("run", "--help")
    assert done.returncode == 0
    assert "--explain-on-success" in done.stdout


def _help_run(
    args: list[str], env: dict[str, str], probe: bool = False, cwd: Optional[Path] = None
) -> tuple[str, bool]:
    """The help ``args`` print, and (with ``probe``) whether the CLI framework loaded."""
    code = (
        "import sys\n"
        "from tfdoctor.entry import main\n"
        f"code = main({args!r})\n"
        "sys.stderr.write('loaded' if 'typer' in sys.modules else 'light')\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.endswith("loaded")


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["cluster", "local", "--help"]])
def test_help_is_kept_and_served_without_the_cli_framework(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "TFDOCTOR_CACHE_DIR": str(tmp_path), "COLUMNS": "90"}
    fresh, _ = _help_run(args, {**env, "TFDOCTOR_NO_CACHE": "1"})
    first, loaded_first = _help_run(args, env)
    again, loaded_again = _help_run(args, env)
    assert fresh == first == again
    assert "Usage: tfdoctor" in again
    assert (loaded_first, loaded_again) == (True, False)


def test_kept_help_follows_the_terminal_width(tmp_path: Path) -> None:
    env = {**os.environ, "TFDOCTOR_CACHE_DIR": str(tmp_path)}
    narrow, _ = _help_run(["check", "--help"], {**env, "COLUMNS": "60"})
    wide, _ = _help_run(["check", "--help"], {**env, "COLUMNS": "120"})
    assert narrow != wide
    assert max(len(line) for line in narrow.splitlines()) <= 60
    assert len(list(tmp_path.glob("help-*.txt"))) == 2


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_a_kept_help_others_can_write_is_made_anew(tmp_path: Path) -> None:
    env = {**os.environ, "TFDOCTOR_CACHE_DIR": str(tmp_path), "COLUMNS": "90"}
    first, _ = _help_run(["--help"], env)
    (entry,) = tmp_path.glob("help-*.txt")
    entry.write_text("forged\n", encoding="utf-8")
    entry.chmod(0o666)
    again, loaded = _help_run(["--help"], env)
    assert again == first
    assert loaded


@pytest.mark.parametrize(
    ("module", "old", "new", "args"),
    [
        pytest.param(
            "env.py",
            "The environment variables TensorFlow should start with here.",
            "Variables for TensorFlow, changed.",
            ["--help"],
            id="a-command-module",
        ),
        pytest.param(
            "options.py",
            "Use this compatibility matrix",
            "Use that changed matrix",
            ["check", "--help"],
            id="the-shared-options",
        ),
    ],
)
def test_a_changed_command_module_is_never_served_stale_help(
    module: str, old: str, new: str, args: list[str], tmp_path: Path
) -> None:
    # A copy of the package, so that one of its command modules can change between two runs.
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "tfdoctor", copy / "tfdoctor", ignore=shutil.ignore_patterns("*.pyc"))
    env = {
        **os.environ,
        "TFDOCTOR_CACHE_DIR": str(tmp_path / "cache"),
        "COLUMNS": "100",
        "PYTHONPATH": str(copy),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    before, _ = _help_run(args, env, cwd=copy)
    kept, loaded = _help_run(args, env, cwd=copy)
    assert old in before and kept == before and not loaded
    path = copy / "tfdoctor" / "cli" / module
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    after, loaded = _help_run(args, env, cwd=copy)
    assert loaded
    assert new in after and old not in after
