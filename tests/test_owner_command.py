"""The printed commands that read installs' metadata by hand (the distribution owning an
import package, the requirements a distribution declares) run, as printed, on every Python a
log can show: TensorFlow 1 ran on Python 2.7 and 3.5 to 3.7, where importlib.metadata
(Python 3.8+) does not exist."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tfdoctor.causes.common import declared_requirements_command, owner_of_package_command


def _runs(python: str) -> bool:
    """Whether ``python`` starts (a pyenv shim of a version not selected does not)."""
    try:
        done = subprocess.run([python, "-c", "pass"], check=False, capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _other_pythons() -> list[str]:
    """The interpreters found here besides this one: on PATH by release name, and pyenv's."""
    names = ["python2.7", *(f"python3.{minor}" for minor in range(5, 15))]
    found = [p for p in map(shutil.which, names) if p]
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    found += [str(p) for p in sorted(pyenv.glob("*/bin/python")) if p.is_file()]
    return sorted({p for p in found if _runs(p)})


def _installs(root: Path, folders: dict[str, dict[str, str]]) -> Path:
    """A site-packages folder holding each metadata folder of ``folders`` with its files."""
    site = root / "site"
    for folder, files in folders.items():
        (site / folder).mkdir(parents=True)
        for name, text in files.items():
            (site / folder / name).write_text(text)
    return site


def _site(root: Path) -> Path:
    """A site-packages folder of three installs: a wheel of ``GraphKit/`` and one of the
    module ``sixish.py`` (RECORD), and a setup.py install of ``oldlib/`` (installed-files)."""
    record = "GraphKit/__init__.py,sha256=x,1\nGraphKit/nodes.py,sha256=y,2\n"
    return _installs(
        root,
        {
            "graph_kit_dist-1.2.dist-info": {
                "RECORD": f"{record}graph_kit_dist-1.2.dist-info/RECORD,,\n"
            },
            "sixish_dist-0.1.dist-info": {
                "RECORD": "sixish.py,sha256=z,3\nsixish_dist-0.1.dist-info/RECORD,,\n"
            },
            "oldlib_dist-0.9-py3.6.egg-info": {
                "installed-files.txt": "../oldlib/__init__.py\n../oldlib/net.py\nPKG-INFO\n"
            },
        },
    )


def _blocker(root: Path) -> Path:
    """A folder whose sitecustomize makes importlib.metadata and pkg_resources unimportable,
    as Python 3.7 and older have no importlib.metadata."""
    blocker = root / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\nsys.modules['importlib.metadata'] = None\n"
        "sys.modules['pkg_resources'] = None\n"
    )
    return blocker


def _printed(python: str, command: str, site: Path, blocker: Path | None = None) -> str:
    """What ``command`` prints, run as printed but by ``python``, its site on sys.path."""
    argv = shlex.split(command)
    assert argv[0] == "python"
    paths = [str(site), *([str(blocker)] if blocker else [])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    env.pop("PYTHONHOME", None)
    done = subprocess.run(
        [python, *argv[1:]], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    return done.stdout


_CASES = [
    pytest.param("GraphKit", False, "graph_kit_dist-1.2.dist-info", id="package-folder"),
    pytest.param("graphkit", True, "graph_kit_dist-1.2.dist-info", id="folded-case"),
    pytest.param("sixish", False, "sixish_dist-0.1.dist-info", id="single-file-module"),
    pytest.param("oldlib", False, "oldlib_dist-0.9-py3.6.egg-info", id="egg-info"),
]


@pytest.mark.parametrize(("top", "folded", "owner"), _CASES)
def test_the_owner_command_runs_without_importlib_metadata(
    tmp_path: Path, top: str, folded: bool, owner: str
) -> None:
    out = _printed(
        sys.executable, owner_of_package_command(top, folded), _site(tmp_path), _blocker(tmp_path)
    )
    assert out.strip() == repr([owner])


@pytest.mark.parametrize("python", _other_pythons() or [pytest.param("", marks=pytest.mark.skip)])
@pytest.mark.parametrize(("top", "folded", "owner"), _CASES)
def test_the_owner_command_runs_on_every_python_here(
    tmp_path: Path, python: str, top: str, folded: bool, owner: str
) -> None:
    out = _printed(python, owner_of_package_command(top, folded), _site(tmp_path))
    # Python 2 prints a str's repr the same way for these names.
    assert out.strip() == repr([owner])


def test_a_folder_named_otherwise_is_not_its_owner(tmp_path: Path) -> None:
    out = _printed(sys.executable, owner_of_package_command("Graph"), _site(tmp_path))
    assert out.strip() == "[]"


def _requiring_site(root: Path) -> Path:
    """A site-packages folder of installs that declare requirements: a wheel whose folder
    names its project in another spelling, a setup.py install (requires.txt with an extra),
    an editable one, and a wheel of another project whose name starts the same."""
    metadata = (
        "Metadata-Version: 2.1\nName: graph-kit-dist\nVersion: 1.2\n"
        "Requires-Dist: tensorflow (>=2.4,<2.6)\nRequires-Dist: numpy ; extra == 'fast'\n"
        "\nA description that says Requires-Dist: nothing.\n"
    )
    return _installs(
        root,
        {
            "Graph.Kit_Dist-1.2.dist-info": {"METADATA": metadata, "RECORD": "graph_kit/a.py,,\n"},
            "graph_kit_dist_extras-0.1.dist-info": {"METADATA": "Requires-Dist: keras\n"},
            "oldlib_dist-0.9-py3.6.egg-info": {
                "requires.txt": "tensorflow<2\n\n[gpu]\ntensorflow-gpu<2\n",
                "PKG-INFO": "Name: oldlib-dist\nRequires-Dist: tensorflow<2\n",
            },
            "devlib.egg-info": {"requires.txt": "tf-keras\n"},
        },
    )


_REQUIRING = [
    pytest.param(
        "graph-kit-dist",
        ["Requires-Dist: tensorflow (>=2.4,<2.6)", "Requires-Dist: numpy ; extra == 'fast'"],
        id="wheel-named-otherwise",
    ),
    pytest.param(
        "oldlib_dist", ["tensorflow<2", "[gpu]", "tensorflow-gpu<2"], id="egg-info-with-an-extra"
    ),
    pytest.param("devlib", ["tf-keras"], id="editable-egg-info"),
    pytest.param("graph", [], id="a-name-that-starts-anothers"),
]


@pytest.mark.parametrize(("dist", "lines"), _REQUIRING)
def test_the_requirements_command_runs_without_importlib_metadata(
    tmp_path: Path, dist: str, lines: list[str]
) -> None:
    command = declared_requirements_command(dist)
    out = _printed(sys.executable, command, _requiring_site(tmp_path), _blocker(tmp_path))
    assert out.splitlines() == (lines or [""])


@pytest.mark.parametrize("python", _other_pythons() or [pytest.param("", marks=pytest.mark.skip)])
@pytest.mark.parametrize(("dist", "lines"), _REQUIRING)
def test_the_requirements_command_runs_on_every_python_here(
    tmp_path: Path, python: str, dist: str, lines: list[str]
) -> None:
    out = _printed(python, declared_requirements_command(dist), _requiring_site(tmp_path))
    assert out.splitlines() == (lines or [""])
