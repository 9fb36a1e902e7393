"""The set-up the README gives is the one CI runs, on the Pythons pyproject.toml admits."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _shell_blocks(markdown: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", markdown, flags=re.DOTALL)


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    install, test = (block.strip() for block in _shell_blocks(setup)[:2])
    assert "tfdoctor check" in install
    assert test.endswith("python -m pytest")
    # A fresh machine's Python may be externally managed (PEP 668): both make a venv first.
    assert install.startswith("python3 -m venv") and test.startswith("python3 -m venv")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci.splitlines()


def test_ci_lints_formats_and_type_checks_after_the_suite() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line.strip() for line in ci if line.strip() and not line.lstrip().startswith("#")]
    suite = next(i for i, line in enumerate(commands) if line.endswith("python -m pytest"))
    after = commands[suite + 1 :]
    # set -e stops at the first that fails; each is its own step, not a test inside the suite.
    assert "set -euo pipefail" in commands
    assert "python -m ruff check tfdoctor tests scripts benchmarks" in after
    assert "python -m ruff format --check tfdoctor tests scripts benchmarks" in after
    assert "python -m mypy" in after
    assert not (ROOT / "tests" / "test_quality.py").exists()


def test_ci_tries_the_oldest_python_pyproject_admits() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    admitted = re.search(r'^requires-python = ">=(\d+\.\d+)"$', pyproject, flags=re.MULTILINE)
    assert admitted is not None
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    oldest = re.search(r"^OLDEST=(\S+)$", ci, flags=re.MULTILINE)
    assert oldest is not None and oldest.group(1) == admitted.group(1)
    ruff = re.search(r'^target-version = "py(\d)(\d+)"$', pyproject, flags=re.MULTILINE)
    assert ruff is not None and f"{ruff.group(1)}.{ruff.group(2)}" == admitted.group(1)


def _every_command_names() -> set[str]:
    """The first word of each command line scripts/every_command.py runs."""
    tree = ast.parse((ROOT / "scripts" / "every_command.py").read_text(encoding="utf-8"))
    (commands,) = (
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        if node.name == "_commands"
    )
    names = set()
    for node in ast.walk(commands):
        if isinstance(node, ast.List) and node.elts and isinstance(node.elts[0], ast.Constant):
            first = node.elts[0].value
            if isinstance(first, str) and not first.startswith("-"):
                names.add(first)
    return names


def commands_not_run(registered: Iterable[str], run: Iterable[str]) -> set[str]:
    """Registered commands and groups that scripts/every_command.py never runs."""
    return set(registered) - set(run)


def test_every_command_runs_on_the_oldest_python() -> None:
    from tfdoctor.cli.app import app

    commands = {
        c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands
    }
    groups = {g.name or "" for g in app.registered_groups}
    run = _every_command_names()
    assert commands and groups and commands_not_run(commands | groups, run) == set()
    # Planted: a command the script does not run.
    assert commands_not_run({*commands, "ghost"}, run) == {"ghost"}
    assert commands_not_run(commands, run - {"check"}) == {"check"}


def contributing_paths_missing(text: str, root: Path) -> list[str]:
    """The repository paths CONTRIBUTING.md names in backquotes that do not exist (paths with
    a placeholder, ``<area>`` or ``*``, name a family and are skipped)."""
    named = re.findall(r"`((?:tfdoctor|tests|scripts|docs|benchmarks)/[^`\s]+)`", text)
    names = [n for n in named if not re.search(r"[<*]", n)]
    return sorted({n for n in names if not (root / n.split()[0].rstrip(",")).exists()})


def test_contributing_names_files_that_exist() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert contributing_paths_missing(text, ROOT) == []
    # Planted: a moved file the guide still names.
    assert contributing_paths_missing(text + "\n`tfdoctor/causes.py`\n", ROOT) == [
        "tfdoctor/causes.py"
    ]
