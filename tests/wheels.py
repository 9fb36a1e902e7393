"""Small wheels built by the tests themselves, and virtual environments to install them in."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def make_wheel(
    directory: Path,
    name: str,
    version: str,
    requires: Sequence[str] = (),
    files: Mapping[str, str] = {},
) -> Path:
    """A pure-Python wheel (PEP 427) of ``name`` ``version`` declaring ``requires``; ``files``
    by their path in the wheel (default: the package's ``__init__.py``, with its version)."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    metadata = "".join(
        [
            "Metadata-Version: 2.1\n",
            f"Name: {name}\n",
            f"Version: {version}\n",
            *(f"Requires-Dist: {r}\n" for r in requires),
        ]
    )
    contents = dict(files) or {f"{dist}/__init__.py": f'__version__ = "{version}"\n'}
    contents[f"{info}/METADATA"] = metadata
    contents[f"{info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    contents[f"{info}/top_level.txt"] = f"{dist}\n"
    record = "".join(
        f"{path},sha256={_digest(text.encode())},{len(text.encode())}\n"
        for path, text in contents.items()
    )
    contents[f"{info}/RECORD"] = record + f"{info}/RECORD,,\n"
    path = directory / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in contents.items():
            archive.writestr(member, text)
    return path


def make_venv(path: Path, python: str = sys.executable) -> Path:
    """A virtual environment with pip at ``path`` (``python -m venv``); its interpreter."""
    subprocess.run([python, "-m", "venv", str(path)], check=True, timeout=300)
    return path / "bin" / "python"


def copy_venv(template: Path, path: Path) -> Path:
    """A copy of the environment ``template`` at ``path`` (its interpreter is a link to the
    base Python, and ``pyvenv.cfg`` makes the copy's prefix its own); its interpreter."""
    shutil.copytree(template, path, symlinks=True)
    return path / "bin" / "python"


def make_system_python(path: Path) -> Path:
    """An externally managed (PEP 668) "system" Python at ``path``, made without root; its
    interpreter.

    A copy of this CPython's executable in ``bin/`` (a shared libpython is found by the
    executable's own RUNPATH), the standard library linked entry by entry into
    ``lib/pythonX.Y/`` with an ``EXTERNALLY-MANAGED`` marker beside it, and a site-packages
    holding only pip (linked from this environment). CPython finds its prefix from the
    executable's place (the ``lib/pythonX.Y/os.py`` landmark), so ``sys.prefix`` is ``path``
    and equals ``sys.base_prefix``: pip refuses to install there.
    """
    xy = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    real = Path(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    (path / "bin").mkdir(parents=True)
    lib = path / "lib" / xy
    site = lib / "site-packages"
    site.mkdir(parents=True)
    shutil.copy2(real, path / "bin" / xy)
    for entry in stdlib.iterdir():
        if entry.name not in ("site-packages", "EXTERNALLY-MANAGED"):
            (lib / entry.name).symlink_to(entry)
    (lib / "EXTERNALLY-MANAGED").write_text(
        "[externally-managed]\nError=this Python belongs to the system: use a venv\n",
        encoding="utf-8",
    )
    pip = importlib.metadata.distribution("pip")
    here = Path(str(pip.locate_file("")))
    for entry in [here / "pip", *here.glob(f"pip-{pip.version}.dist-info")]:
        (site / entry.name).symlink_to(entry)
    (path / "bin" / "python3").symlink_to(xy)
    return path / "bin" / xy


#: The stand-in TensorFlow's declared requirements (TensorFlow 2.21.0's, abridged).
TF_REQUIRES = ("numpy>=1.26.0", "ml_dtypes<1.0.0,>=0.5.1", "h5py<3.15.0,>=3.11.0")
#: What a broken stand-in environment has installed: ml-dtypes below TensorFlow's range.
BROKEN_PINS = ("tensorflow==2.21.0", "numpy==2.3.0", "h5py==3.14.0", "ml-dtypes==0.4.0")


def make_tf_links(directory: Path) -> Path:
    """``directory`` (created) with the stand-in TensorFlow 2.21.0, the numpy and h5py it
    requires, and ml-dtypes below (0.4.0), in (0.5.1) and above (1.0.0) its range."""
    directory.mkdir(parents=True)
    make_wheel(directory, "tensorflow", "2.21.0", TF_REQUIRES)
    make_wheel(directory, "numpy", "2.3.0")
    make_wheel(directory, "h5py", "3.14.0")
    for version in ("0.4.0", "0.5.1", "1.0.0"):
        make_wheel(directory, "ml-dtypes", version)
    return directory


def make_hijacking_links(directory: Path) -> Path:
    """Links where the fix's ml-dtypes 0.5.1 makes things worse: it puts a folder with an
    empty ``tensorflow`` package first on ``sys.path``. The rest as :func:`make_tf_links`."""
    make_tf_links(directory)
    hijack = directory / "hijack"
    (hijack / "tensorflow").mkdir(parents=True)
    (hijack / "tensorflow" / "__init__.py").write_text("", encoding="utf-8")
    hook = f"import sys; sys.path.insert(0, {str(hijack)!r})\n"
    (directory / "ml_dtypes-0.5.1-py3-none-any.whl").unlink()
    make_wheel(
        directory, "ml-dtypes", "0.5.1", files={"ml_dtypes/__init__.py": "", "hook.pth": hook}
    )
    return directory
