"""Where ``import tensorflow`` resolves for the user's command, and PEP 668, from env_info."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import venv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.facts import PythonFacts
from tfdoctor.probes._run import CommandResult
from tfdoctor.probes.child.env_info import command_path, externally_managed, path_kind
from tfdoctor.probes.pyenv import probe_pyenv


@pytest.fixture(scope="module")
def bare_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A fresh venv's interpreter and its site-packages (no TensorFlow, no pip)."""
    root = tmp_path_factory.mktemp("venv")
    venv.create(root, with_pip=False, symlinks=os.name != "nt")
    site = next(root.glob("lib*/python*/site-packages"), None)
    if os.name == "nt" or site is None:
        pytest.skip("POSIX venv layout needed")
    return str(root / "bin" / "python"), site


class RunIn:
    """Runs commands for real in a given working directory, as the user's shell would."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd

    def __call__(
        self, argv: Sequence[str], env: Optional[Mapping[str, str]], timeout: float
    ) -> CommandResult:
        start = time.monotonic()
        proc = subprocess.run(
            list(argv),
            env=None if env is None else dict(env),
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        return CommandResult(
            tuple(argv), proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start
        )


def _env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return {**base, **extra}


def _probe(python: str, cwd: Path, env: Mapping[str, str]) -> PythonFacts:
    result = probe_pyenv(python, env, RunIn(cwd))
    assert result.error is None and result.python is not None, result.error
    return result.python


def _package(directory: Path) -> Path:
    package = directory / "tensorflow"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    return package


def test_a_module_in_the_working_directory_shadows(
    bare_venv: tuple[str, Path], tmp_path: Path
) -> None:
    python, _ = bare_venv
    work = tmp_path / "project"
    work.mkdir()
    (work / "tensorflow.py").write_text("raise SystemExit('imported!')\n")
    elsewhere = tmp_path / "pp"
    _package(elsewhere)

    facts = _probe(python, work, _env(PYTHONPATH=str(elsewhere)))

    assert facts.tensorflow_origin == str(work / "tensorflow.py")
    assert facts.tensorflow_path_entry == str(work)
    assert facts.tensorflow_path_kind == "working-directory"


def test_a_package_on_pythonpath(bare_venv: tuple[str, Path], tmp_path: Path) -> None:
    python, _ = bare_venv
    work = tmp_path / "empty"
    work.mkdir()
    package = _package(tmp_path / "pp")

    facts = _probe(python, work, _env(PYTHONPATH=str(tmp_path / "pp")))

    assert facts.tensorflow_origin == str(package)
    assert facts.tensorflow_path_entry == str(tmp_path / "pp")
    assert facts.tensorflow_path_kind == "PYTHONPATH"


def test_nothing_resolves(bare_venv: tuple[str, Path], tmp_path: Path) -> None:
    python, _ = bare_venv
    facts = _probe(python, tmp_path, _env())
    assert facts.tensorflow_origin is None
    assert facts.tensorflow_path_entry is None and facts.tensorflow_path_kind is None
    assert facts.externally_managed is False  # a venv never is


@pytest.mark.skipif(sys.version_info < (3, 11), reason="PYTHONSAFEPATH is Python 3.11+")
def test_pythonsafepath_leaves_the_working_directory_out(
    bare_venv: tuple[str, Path], tmp_path: Path
) -> None:
    python, _ = bare_venv
    (tmp_path / "tensorflow.py").write_text("")
    facts = _probe(python, tmp_path, _env(PYTHONSAFEPATH="1"))
    assert facts.tensorflow_origin is None


def test_site_packages_and_pth(tmp_path: Path) -> None:
    # A venv of its own: the package and the .pth file go into its site-packages.
    root = tmp_path / "env"
    venv.create(root, with_pip=False, symlinks=os.name != "nt")
    site = next(root.glob("lib*/python*/site-packages"), None)
    if os.name == "nt" or site is None:
        pytest.skip("POSIX venv layout needed")
    python = str(root / "bin" / "python")
    work = tmp_path / "work"
    work.mkdir()
    extra = tmp_path / "checkout"
    _package(extra)
    (site / "tf_checkout.pth").write_text(f"# a source checkout\n{extra}\n")

    via_pth = _probe(python, work, _env())
    assert (via_pth.tensorflow_origin, via_pth.tensorflow_path_kind) == (
        str(extra / "tensorflow"),
        "pth",
    )
    assert via_pth.tensorflow_path_entry == str(extra)

    installed = _package(site)
    in_site = _probe(python, work, _env())
    assert in_site.tensorflow_origin == str(installed)
    assert (in_site.tensorflow_path_entry, in_site.tensorflow_path_kind) == (
        str(site),
        "site-packages",
    )


def test_the_doctor_s_own_interpreter_in_process() -> None:
    result = probe_pyenv(sys.executable)
    assert result.error is None and result.python is not None
    facts = result.python
    try:
        import importlib.util

        spec = importlib.util.find_spec("tensorflow")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        assert facts.tensorflow_origin is None
        return
    assert facts.tensorflow_origin == next(iter(spec.submodule_search_locations))
    assert facts.tensorflow_path_kind == "site-packages"


@pytest.mark.parametrize(
    ("marker", "prefix", "base_prefix", "expected"),
    [
        (True, "/usr", "/usr", True),
        (True, "/home/u/venv", "/usr", False),
        (False, "/usr", "/usr", False),
        (False, "/opt/conda", "/opt/conda", False),
    ],
    ids=["debian-system-python", "venv-of-it", "unmarked", "conda-base"],
)
def test_externally_managed(marker: bool, prefix: str, base_prefix: str, expected: bool) -> None:
    assert externally_managed(marker, prefix, base_prefix) is expected


@pytest.mark.parametrize(
    ("path", "prepended", "safe", "expected"),
    [
        (["/x/child", "/lib/py", "/site"], True, False, ["", "/lib/py", "/site"]),
        (["/x/child", "/lib/py"], True, True, ["/lib/py"]),
        (["/lib/py", "/site"], False, False, ["", "/lib/py", "/site"]),
        ([], True, False, [""]),
    ],
    ids=["script-dir-replaced", "safe-path", "isolated-run", "empty"],
)
def test_command_path(path: list[str], prepended: bool, safe: bool, expected: list[str]) -> None:
    assert command_path(path, prepended, safe) == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("", "working-directory"),
        ("/pp", "PYTHONPATH"),
        ("/env/lib/python3.11/site-packages", "site-packages"),
        ("/home/u/.local/lib/python3.11/site-packages", "user-site"),
        ("/src/checkout", "pth"),
        ("/somewhere/else", "other"),
    ],
    ids=["cwd", "pythonpath", "site", "user-site", "pth", "other"],
)
def test_path_kind(entry: str, expected: str) -> None:
    kind = path_kind(
        entry,
        pythonpath=["/pp", ""],
        site_dirs=["/env/lib/python3.11/site-packages"],
        user_site="/home/u/.local/lib/python3.11/site-packages",
        pth_dirs=["/src/checkout/"],
    )
    assert kind == expected
