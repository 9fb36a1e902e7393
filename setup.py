"""Build step that puts the repository's ``compat_matrix.yaml`` inside the built package.

The matrix lives at the repository root, where people edit and review it; the installed
package must carry it beside ``tfdoctor/matrix.py``. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
MATRIX = "compat_matrix.yaml"


class BuildWithMatrix(build_py):
    """``build_py`` that also copies the root ``compat_matrix.yaml`` into the package."""

    def run(self) -> None:
        super().run()
        if not self.dry_run:
            target = Path(self.build_lib) / "tfdoctor" / MATRIX
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / MATRIX, target)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        # Listed so that the wheel's RECORD and `pip uninstall` know the file.
        return [
            *super().get_outputs(include_bytecode),
            str(Path(self.build_lib) / "tfdoctor" / MATRIX),
        ]


setup(cmdclass={"build_py": BuildWithMatrix})
