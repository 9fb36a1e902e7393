"""What a built tfdoctor carries: the root compat_matrix.yaml and the data files, in the wheel."""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from packaging.version import Version

from tfdoctor.matrix import DEFAULT_MATRIX, MATRIX_FILE, bundled_matrix, load_matrix

ROOT = Path(__file__).resolve().parent.parent
#: What building the package reads (MANIFEST.in names the same for an sdist).
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", MATRIX_FILE)


def test_the_matrix_is_a_regular_file_at_the_root_and_nowhere_else() -> None:
    assert (ROOT / MATRIX_FILE).is_file() and not (ROOT / MATRIX_FILE).is_symlink()
    # A copy inside the source tree would go stale: only a build puts one there.
    assert not (ROOT / "tfdoctor" / MATRIX_FILE).exists()


def test_a_source_checkout_loads_the_root_matrix() -> None:
    assert DEFAULT_MATRIX == ROOT / MATRIX_FILE
    assert load_matrix(env={}).path == str(ROOT / MATRIX_FILE)


def test_the_copy_beside_the_package_wins(tmp_path: Path) -> None:
    package = tmp_path / "site" / "tfdoctor"
    package.mkdir(parents=True)
    (tmp_path / "site" / MATRIX_FILE).write_text("root\n", encoding="utf-8")
    assert bundled_matrix(package) == tmp_path / "site" / MATRIX_FILE
    (package / MATRIX_FILE).write_text("built\n", encoding="utf-8")
    assert bundled_matrix(package) == package / MATRIX_FILE


def _setuptools_version() -> Version:
    return Version(importlib.metadata.version("setuptools"))


def test_a_built_wheel_carries_the_matrix_and_the_data(tmp_path: Path) -> None:
    # pyproject.toml's build-system asks for setuptools>=77 (PEP 639 license); without build
    # isolation (no index in tests) the one installed here builds.
    if _setuptools_version() < Version("77"):
        pytest.skip("building needs setuptools>=77 in this environment (the test extra)")
    source = tmp_path / "src"
    source.mkdir()
    for name in BUILD_INPUTS:
        shutil.copyfile(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "tfdoctor",
        source / "tfdoctor",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    out = tmp_path / "dist"
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", str(source), "--no-deps"),
            *("--no-build-isolation", "--no-index", "--quiet", "--wheel-dir", str(out)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = out.glob("tfdoctor-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert archive.read(f"tfdoctor/{MATRIX_FILE}") == (ROOT / MATRIX_FILE).read_bytes()
        record = archive.read(next(n for n in names if n.endswith(".dist-info/RECORD")))
        archive_bytes = {n: archive.read(n) for n in names if not n.endswith("/")}
    assert f"tfdoctor/{MATRIX_FILE}," in record.decode()
    # The knowledge files beside the code, each as in the tree (what the installed doctor reads).
    for data in (
        "signatures.yaml",
        "companions.yaml",
        "scan_rules.yaml",
        "scan/api_lines.txt",
        "scan/keras_lines.txt",
        "scan/tf_keras_lines.txt",
        "scan/tf1_lines.txt",
        "scan/signature_lines.txt",
        "scan/keras_signature_lines.txt",
        "scan/tf_keras_signature_lines.txt",
        "scan/tf_early.txt",
    ):
        assert archive_bytes[f"tfdoctor/{data}"] == (ROOT / "tfdoctor" / data).read_bytes(), data
    assert "tfdoctor/explain/reader.py" in names and "tfdoctor/probes/child/tf_info.py" in names
    shipped_data = {n for n in names if n.startswith("tfdoctor/data/")}
    assert shipped_data == {
        f"tfdoctor/data/{p.name}"
        for p in (ROOT / "tfdoctor" / "data").iterdir()
        if p.suffix in (".yaml", ".txt")
    }
    assert shipped_data


def unshipped_data(globs: Sequence[str], package: Path) -> list[str]:
    """The files of the package's data directory that no package-data glob names."""
    shipped = {p for pattern in globs for p in package.glob(pattern)}
    return sorted(p.name for p in (package / "data").iterdir() if p not in shipped)


def test_package_data_names_every_data_file() -> None:
    # Checked without building, where the wheel test above cannot run.
    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11+")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["tfdoctor"]
    package = ROOT / "tfdoctor"
    assert any((package / "data").iterdir()) and unshipped_data(globs, package) == []
    assert MATRIX_FILE not in globs  # setup.py copies it from the root
    # Planted: the globs that name the data files left out.
    kept = [g for g in globs if not g.startswith("data/")]
    assert unshipped_data(kept, package) == sorted(p.name for p in (package / "data").iterdir())
