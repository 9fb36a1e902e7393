"""Real virtual environments holding hand-written distributions, and the real command on them.

A venv (without pip) whose site-packages holds ``*.dist-info`` directories with real
``METADATA`` lines (TensorFlow 2.21.0's from ``tests/data/pypi/metadata``): the probes read
them as they would an installed environment, and ``pip check`` judges them too.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any, Optional

import pytest
from packaging.tags import sys_tags

from tests import factories as f

ROOT = Path(__file__).resolve().parent.parent
TF_METADATA = ROOT / "tests" / "data" / "pypi" / "metadata" / "tensorflow-2.21.0-linux.METADATA"
#: A tag of this interpreter and machine (what pip would have installed here).
HOST_TAG = str(next(iter(sys_tags())))
HOST_PLATFORM = HOST_TAG.rsplit("-", maxsplit=1)[-1]


@dataclasses.dataclass
class FakeEnv:
    """A venv whose site-packages holds hand-written distributions."""

    python: str
    site: Path

    def install(
        self,
        name: str,
        version: str,
        tag: Optional[str] = "py3-none-any",
        module: str = "",
        requires: tuple[str, ...] = (),
    ) -> None:
        """A dist-info with METADATA (declaring ``requires``), WHEEL (unless ``tag`` is None)
        and a RECORD, in place of any other version of ``name``."""
        self.remove(name)
        info = self.site / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        if name == "tensorflow":
            meta = TF_METADATA.read_text(encoding="utf-8").replace("2.21.0", version)
        else:
            meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
            meta += "".join(f"Requires-Dist: {line}\n" for line in requires)
        (info / "METADATA").write_text(meta, encoding="utf-8")
        if tag is not None:
            wheel = f"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: {tag}\n"
            (info / "WHEEL").write_text(wheel, encoding="utf-8")
        if module:
            (self.site / module).mkdir(exist_ok=True)
            (self.site / module / "__init__.py").write_text("", encoding="utf-8")
            (info / "RECORD").write_text(f"{module}/__init__.py,,\n", encoding="utf-8")

    def remove(self, name: str) -> None:
        """Uninstall ``name`` (its dist-info; the module files may stay, as they do for pip)."""
        for info in self.site.glob(f"{name.replace('-', '_')}-*.dist-info"):
            for item in info.iterdir():
                item.unlink()
            info.rmdir()


def tf_requires() -> tuple[str, ...]:
    """The ``Requires-Dist`` lines of TensorFlow 2.21.0's METADATA."""
    lines = TF_METADATA.read_text(encoding="utf-8").splitlines()
    return tuple(
        line.split(":", 1)[1].strip() for line in lines if line.startswith("Requires-Dist:")
    )


def requirements() -> dict[str, str]:
    """TensorFlow 2.21.0's requirements without a marker, by name: their declared ranges."""
    from packaging.requirements import Requirement

    found = {}
    for line in tf_requires():
        req = Requirement(line)
        if req.marker is None:
            found[req.name.lower().replace("_", "-")] = str(req.specifier)
    return found


def make_env(tmp_path: Path) -> FakeEnv:
    """A venv with TensorFlow 2.21.0 and every requirement it declares, in range."""
    venv.create(tmp_path / "env", with_pip=False)
    site = next((tmp_path / "env").glob("lib*/python*/site-packages"), None)
    if site is None:
        pytest.skip("POSIX venv layout needed")
    made = FakeEnv(str(tmp_path / "env" / "bin" / "python"), site)
    made.install("tensorflow", "2.21.0", HOST_TAG, module="tensorflow")
    # Every requirement, at the lowest version its range allows (what `pip check` accepts).
    for name, spec in requirements().items():
        made.install(name, f.satisfying(spec) or "1.0")
    # Not required since 2.21, but present where summaries are written (its absence is a
    # note of its own, tested in test_requirements.py).
    made.install("tensorboard", "2.20.0")
    # pip, as every venv made with it has (a pip-less one gets a bootstrap in each fix).
    made.install("pip", "24.0", module="pip")
    return made


def check(
    env: FakeEnv, *args: str, cwd: Path = ROOT, extra_env: Optional[dict[str, str]] = None
) -> tuple[int, dict[str, Any]]:
    """``tfdoctor check --json --python ENV ARGS`` on the frozen test matrix: exit code, report."""
    child_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NO_COLOR")}
    child_env["PYTHONPATH"] = str(ROOT)
    child_env.update(extra_env or {})
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tfdoctor",
            "check",
            "--json",
            "--python",
            env.python,
            "--matrix",
            str(f.FIXTURE_MATRIX_PATH),
            *args,
        ],
        cwd=cwd,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


def found(report: dict[str, Any], fid: str) -> list[dict[str, Any]]:
    """The report's findings of check ``fid``."""
    return [x for x in report["findings"] if x["id"] == fid]
