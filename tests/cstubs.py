"""Build small real shared libraries from C source, so the real loader and bindings run.

gcc is on every machine the tests run on; a test that needs it is skipped with the reason
where it is missing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def require_gcc() -> str:
    """The gcc executable, or skip the calling test."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        pytest.skip("gcc is needed to build the stub libraries")
    return gcc


def build_shared_lib(
    directory: Path, filename: str, source: str, soname: str | None = None
) -> Path:
    """Compile ``source`` into ``directory/filename`` with the given soname (default: filename)."""
    gcc = require_gcc()
    directory.mkdir(parents=True, exist_ok=True)
    src = directory / (filename.replace("/", "_") + ".c")
    src.write_text(source, encoding="utf-8")
    out = directory / filename
    subprocess.run(
        [gcc, "-shared", "-fPIC", "-o", str(out), str(src), f"-Wl,-soname,{soname or filename}"],
        check=True,
        capture_output=True,
    )
    src.unlink()
    return out
