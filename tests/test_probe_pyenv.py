"""The interpreter and packages probe, in-process and in another interpreter."""

from __future__ import annotations

import importlib.metadata
import sys
import venv
from pathlib import Path

import pytest

from tfdoctor.facts import normalize_name
from tfdoctor.probes._run import CommandResult
from tfdoctor.probes.pyenv import parse_env_info, probe_pyenv


def test_current_interpreter_agrees_with_importlib_metadata() -> None:
    result = probe_pyenv(sys.executable)
    assert result.error is None and result.python is not None and result.packages is not None
    assert result.python.executable == sys.executable
    assert result.python.bits == (64 if sys.maxsize > 2**32 else 32)
    found = {normalize_name(p.name): p.version for p in result.packages}
    for dist in ("tensorflow", "numpy", "keras", "protobuf"):
        try:
            expected = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            assert dist not in found
            continue
        assert found[dist] == expected
    assert "pytest" not in found  # only the TensorFlow family is reported


def test_another_interpreter_is_probed_in_its_own_process(tmp_path: Path) -> None:
    venv.create(tmp_path / "env", with_pip=False)
    python = tmp_path / "env" / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    result = probe_pyenv(str(python))
    assert result.error is None and result.python is not None
    assert result.python.env_kind == "venv"
    assert result.python.prefix == str(tmp_path / "env")
    assert result.packages == ()
    assert result.python.pip_version is None
    site = next((tmp_path / "env").glob("lib*/python*/site-packages"), None)
    if site is not None:  # POSIX layout; only directories on sys.path, nothing else
        assert result.python.site_packages == (str(site),)


def test_a_broken_dist_info_costs_only_itself(tmp_path: Path) -> None:
    venv.create(tmp_path / "env", with_pip=False)
    site = next((tmp_path / "env").glob("lib*/python*/site-packages"), None)
    if site is None:
        pytest.skip("POSIX venv layout needed")
    good = site / "numpy-1.26.4.dist-info"
    good.mkdir()
    (good / "METADATA").write_text("Metadata-Version: 2.1\nName: numpy\nVersion: 1.26.4\n")
    broken = site / "tensorflow-2.15.1.dist-info"
    broken.mkdir()
    (broken / "METADATA").write_text("Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.15.1\n")
    (broken / "direct_url.json").write_text("[]")  # valid JSON of the wrong shape
    result = probe_pyenv(str(tmp_path / "env" / "bin" / "python"))
    assert result.error is None and result.packages is not None
    found = {p.name: (p.version, p.editable) for p in result.packages}
    assert found == {"numpy": ("1.26.4", False), "tensorflow": ("2.15.1", False)}


@pytest.mark.parametrize(
    "name", ["Tensorflow_CPU", "tf.nightly", "ml-dtypes", "nvidia--cudnn__cu12", "A_._b"]
)
def test_child_and_package_normalise_names_alike(name: str) -> None:
    from tfdoctor.probes.child import env_info

    assert env_info._normalize(name) == normalize_name(name)


def test_missing_interpreter_is_an_error_not_a_crash(tmp_path: Path) -> None:
    result = probe_pyenv(str(tmp_path / "nope" / "python"))
    assert result.python is None and result.error is not None
    assert result.error.reason == "not-found"


@pytest.mark.parametrize(
    ("stdout", "returncode", "reason"),
    [
        pytest.param("not json", 0, "bad-output", id="garbage"),
        pytest.param("", -11, "child-failed", id="segfault"),
        pytest.param('{"python": {"version": "3.9"}}', 0, "bad-output", id="wrong-shape"),
    ],
)
def test_bad_child_output_is_recorded(stdout: str, returncode: int, reason: str) -> None:
    def runner(argv: object, env: object, timeout: float) -> CommandResult:
        return CommandResult(("python",), returncode, stdout, "boom", 0.1)

    result = probe_pyenv("/definitely/another/python", runner=runner)
    assert result.error is not None and result.error.reason == reason
    assert result.python is None


def test_parse_env_info_rejects_unknown_fields() -> None:
    doc = {"python": {"version": "3.9.18", "surprise": 1}, "packages": []}
    assert parse_env_info(doc).error is not None
