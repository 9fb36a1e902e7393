"""``tfdoctor fix --yes`` of an externally managed (PEP 668) Python with a real TensorFlow from
the package index: the new environment checks clean and runs a kernel, the system Python's
``pip freeze`` is byte-identical, and ``--rollback`` removes the environment.

Opt-in (``-m network``): it downloads TensorFlow (about 300 MB with its dependencies) and takes
minutes. docs/fix.md ("Measured on a real TensorFlow") records the same run by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.commandline import tfdoctor
from tests.wheels import make_system_python

#: A TensorFlow with a protobuf below the range it declares (protobuf<8.0.0,>=6.31.1): it
#: fails to import ("cannot import name 'runtime_version' from 'google.protobuf'").
BROKEN = ("tensorflow-cpu==2.21.*", "protobuf==4.25.*")
#: No user site-packages: the "system" Python sees only its own.
_ENV = {"PYTHONNOUSERSITE": "1"}
#: pip downloading TensorFlow; the fix's pip runs under tfdoctor's own timeout.
_SLOW = 1200

pytestmark = [
    pytest.mark.network,
    pytest.mark.slow,
    pytest.mark.skipif(
        not (3, 10) <= sys.version_info[:2] <= (3, 13), reason="TensorFlow 2.21 wheels"
    ),
]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(argv), capture_output=True, text=True, timeout=_SLOW, check=False,
        env={**os.environ, **_ENV, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )  # fmt: skip


def _freeze(python: Path) -> str:
    done = _run(str(python), "-m", "pip", "freeze", "--all")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_fix_yes_on_a_system_python_leaves_a_venv_where_tensorflow_runs(tmp_path: Path) -> None:
    system = make_system_python(tmp_path / "system")
    # Only the set-up forces its way in, in two steps: pip would not resolve both at once.
    for spec in BROKEN:
        forced = _run(str(system), "-m", "pip", "install", "-q", "--break-system-packages", spec)
        assert forced.returncode == 0, forced.stderr
    before = tfdoctor("check", "--json", "--python", str(system), env=_ENV, timeout=_SLOW)
    assert before.returncode == 2, before.stderr
    causes = {f.get("cause") for f in json.loads(before.stdout)["findings"]}
    assert "protobuf-incompatible" in causes
    frozen = _freeze(system)

    venv = tmp_path / "venv"
    cache = {**_ENV, "TFDOCTOR_CACHE_DIR": str(tmp_path / "cache")}
    done = tfdoctor(
        "fix", "--yes", "--python", str(system), "--venv", str(venv), "--format", "json",
        env=cache, timeout=_SLOW,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    applied = json.loads(done.stdout)["applied"]
    assert applied["verified"] and not applied["failure"]
    assert _freeze(system) == frozen  # byte-identical: nothing ran with the system's pip

    python = venv / "bin" / "python"
    after = tfdoctor("check", "--python", str(python), env=_ENV, timeout=_SLOW)
    assert after.returncode == 0, after.stdout
    kernel = _run(
        str(python), "-c", "import tensorflow as tf; print(tf.reduce_sum(tf.ones([2, 2])))"
    )
    assert kernel.returncode == 0, kernel.stderr
    assert "tf.Tensor(4.0, shape=(), dtype=float32)" in kernel.stdout

    back = tfdoctor("fix", "--rollback", applied["snapshot"], env=cache, timeout=_SLOW)
    assert back.returncode == 0, back.stderr
    assert not venv.exists()
    assert _freeze(system) == frozen
