"""The interpreter and packages probe, in-process and in another interpreter."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import subprocess
import sys
import venv
from pathlib import Path
from typing import Optional

import pytest

from tfdoctor.facts import PackageFacts, normalize_name
from tfdoctor.probes._run import CommandResult, child_script
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
    # `venv --without-pip`: pip absent, recorded as absent (not unknown); no uv made it.
    assert result.python.pip_installed is False and result.python.uv_venv is None
    assert result.python.ensurepip is (importlib.util.find_spec("ensurepip") is not None)
    site = next((tmp_path / "env").glob("lib*/python*/site-packages"), None)
    if site is not None:  # POSIX layout; only directories on sys.path, nothing else
        assert result.python.site_packages == (str(site),)


def test_a_symlinked_venv_of_the_same_base_python_is_probed_as_itself(tmp_path: Path) -> None:
    # `python -m venv` links bin/python to the base executable this test's venv links to too:
    # the same file, another environment.
    venv.create(tmp_path / "env", symlinks=True, with_pip=False)
    python = tmp_path / "env" / "bin" / "python"
    site = next((tmp_path / "env").glob("lib*/python*/site-packages"), None)
    if site is None or not python.is_symlink():
        pytest.skip("POSIX venv layout with symlinks needed")
    info = site / "fakepkg_for_tfdoctor-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fakepkg-for-tfdoctor\nVersion: 0.0.1\n"
    )
    result = probe_pyenv(str(python), all_packages=True)
    assert result.error is None and result.python is not None
    assert result.python.prefix == str(tmp_path / "env")
    found = {normalize_name(p.name) for p in result.packages or ()}
    assert found == {"fakepkg-for-tfdoctor"}  # nothing of the venv running this test


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


def test_all_packages_lists_every_distribution_with_top_level_only_for_tensorflow(
    tmp_path: Path,
) -> None:
    venv.create(tmp_path / "env", with_pip=False)
    site = next((tmp_path / "env").glob("lib*/python*/site-packages"), None)
    if site is None:
        pytest.skip("POSIX venv layout needed")
    dists = {
        "rich-13.7.1": ("rich", "13.7.1", ""),
        "numpy-1.26.4": ("numpy", "1.26.4", ""),
        "tensorflow-2.15.1": ("tensorflow", "2.15.1", "Requires-Dist: numpy<2.0.0,>=1.23.5\n"),
    }
    for stem, (name, version, requires) in dists.items():
        info = site / f"{stem}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n{requires}"
        )
    (site / "tensorflow-2.15.1.dist-info" / "RECORD").write_text(
        "tensorflow/__init__.py,,\ntensorflow-2.15.1.dist-info/METADATA,,\n"
    )
    (site / "rich-13.7.1.dist-info" / "RECORD").write_text("rich/__init__.py,,\n")
    python = str(tmp_path / "env" / "bin" / "python")
    family = probe_pyenv(python)
    every = probe_pyenv(python, all_packages=True)
    assert family.error is None and every.error is None
    assert [p.name for p in family.packages or ()] == ["numpy", "tensorflow"]
    found = {p.name: (p.version, p.requires, p.top_level) for p in every.packages or ()}
    assert found == {
        "numpy": ("1.26.4", (), ()),
        "rich": ("13.7.1", (), ()),  # RECORD is read for TensorFlow's distributions only
        "tensorflow": ("2.15.1", ("numpy<2.0.0,>=1.23.5",), ("tensorflow",)),
    }
    assert every.python == family.python


def test_all_packages_in_a_child_agrees_with_the_listing_in_process() -> None:
    here = probe_pyenv(sys.executable, all_packages=True)
    child = subprocess.run(
        [sys.executable, child_script("env_info.py"), "--all"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    there = parse_env_info(json.loads(child.stdout))
    assert here.error is None and there.error is None
    # The test run's own path entries (the checkout) are not the child's: compare site dirs,
    # leaving out what the checkout shadows (an installed tfdoctor under its egg-info).
    site = {p for p in sys.path if p.endswith(("site-packages", "dist-packages"))}
    shadowed = {normalize_name(p.name) for p in here.packages or () if p.location not in site}

    def in_site(found: Optional[tuple[PackageFacts, ...]]) -> list[PackageFacts]:
        return [
            p for p in found or () if p.location in site and normalize_name(p.name) not in shadowed
        ]

    assert in_site(here.packages) == in_site(there.packages)
    assert {"pytest", "pip"} <= {normalize_name(p.name) for p in here.packages or ()}


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


def test_metadata_headers_read_as_the_email_parser_reads_them() -> None:
    # Every installed distribution's METADATA, read by the fast reader and by the stdlib's
    # parser (what importlib.metadata uses): the same name, version and requirements.
    import email.parser
    import importlib.metadata

    from tfdoctor.probes.child.env_info import Headers, read_metadata

    compared = 0
    for dist in importlib.metadata.distributions():
        text = dist.read_text("METADATA") or dist.read_text("PKG-INFO")
        if not text:
            continue
        slow = email.parser.Parser().parsestr(text, headersonly=True)
        fast = read_metadata(dist)
        for field in ("Name", "Version", "Requires-Python"):
            assert fast[field] == slow[field], (dist, field)
        assert fast.get_all("Requires-Dist") == slow.get_all("Requires-Dist"), dist
        compared += 1
    assert compared > 20
    folded = Headers("Name: x\nSummary: a\n  b\nrequires-dist: y\nRequires-Dist: z\n\nBody: no\n")
    assert (folded["name"], folded["Summary"], folded["Body"]) == ("x", "a\n  b", None)
    assert folded.get_all("Requires-Dist") == ["y", "z"]


def test_a_field_folded_over_lines_of_only_spaces_does_not_end_the_headers() -> None:
    # hatchling writes a whole licence text into License, its blank lines as lines of spaces;
    # the headers go on after it (email's parser reads it the same way).
    from tfdoctor.probes.child.env_info import Headers

    text = (
        "Metadata-Version: 2.4\nName: traitlets\nVersion: 5.16.1\n"
        "License: BSD 3-Clause License\n        \n        All rights reserved.\n        \n"
        "Requires-Python: >=3.10\nRequires-Dist: pytest; extra == 'test'\n\nThe long text.\n"
    )
    headers = Headers(text)
    assert headers["Requires-Python"] == ">=3.10"
    assert headers.get_all("Requires-Dist") == ["pytest; extra == 'test'"]


@pytest.mark.parametrize(
    ("cfg", "lock", "project"),
    [
        # uv's pyvenv.cfg (crates/uv-virtualenv/src/virtualenv.rs writes a `uv = ` line).
        pytest.param(
            "home = /usr/bin\nimplementation = CPython\nuv = 0.9.5\n", True, True, id="uv"
        ),
        pytest.param("home = /usr/bin\nuv = 0.9.5\n", False, False, id="uv-venv-no-lock"),
        # venv's own (no uv line) beside a lock: not an environment uv made.
        pytest.param("home = /usr/bin\nversion = 3.12.3\n", True, False, id="venv-beside-lock"),
        pytest.param(None, True, False, id="no-pyvenv-cfg"),
    ],
)
def test_a_uv_projects_environment_is_read_from_its_pyvenv_cfg_and_lock(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cfg: Optional[str],
    lock: bool,
    project: bool,
) -> None:
    env = tmp_path / ".venv"
    env.mkdir()
    if cfg is not None:
        (env / "pyvenv.cfg").write_text(cfg, encoding="utf-8")
    if lock:
        (tmp_path / "uv.lock").write_text("version = 1\n", encoding="utf-8")
    from tfdoctor.probes.child import env_info

    monkeypatch.delenv("UV_PROJECT_ENVIRONMENT", raising=False)
    monkeypatch.setattr(sys, "prefix", str(env))
    assert env_info._uv_project() == (str(tmp_path) if project else None)


def test_a_uv_projects_environment_named_by_uv_project_environment_is_the_projects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = tmp_path / "venv"
    env.mkdir()
    (env / "pyvenv.cfg").write_text("home = /usr/bin\nuv = 0.9.5\n", encoding="utf-8")
    (tmp_path / "uv.lock").write_text("version = 1\n", encoding="utf-8")
    from tfdoctor.probes.child import env_info

    monkeypatch.setenv("UV_PROJECT_ENVIRONMENT", "venv")
    monkeypatch.setattr(sys, "prefix", str(env))
    assert env_info._uv_project() == str(tmp_path)


@pytest.mark.parametrize("name", ["venv", "env", ".venv-old"])
def test_an_environment_uv_made_beside_a_lock_under_another_name_is_not_the_projects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # uv's project environment is .venv beside pyproject.toml (or UV_PROJECT_ENVIRONMENT,
    # https://docs.astral.sh/uv/concepts/projects/config/#project-environment-path): uv add
    # and uv sync install there, so another environment uv made beside the lock (uv venv
    # venv) would not be changed by them.
    env = tmp_path / name
    env.mkdir()
    (env / "pyvenv.cfg").write_text("home = /usr/bin\nuv = 0.9.5\n", encoding="utf-8")
    (tmp_path / "uv.lock").write_text("version = 1\n", encoding="utf-8")
    from tfdoctor.probes.child import env_info

    monkeypatch.delenv("UV_PROJECT_ENVIRONMENT", raising=False)
    monkeypatch.setattr(sys, "prefix", str(env))
    assert env_info._uv_project() is None


@pytest.mark.parametrize(
    ("cfg", "maker"),
    [
        # `uv venv` writes its release into pyvenv.cfg, project or not.
        pytest.param("home = /usr/bin\nimplementation = CPython\nuv = 0.5.11\n", "0.5.11", id="uv"),
        pytest.param("home = /usr/bin\nversion = 3.12.3\n", None, id="venv"),
        pytest.param(None, None, id="no-pyvenv-cfg"),
    ],
)
def test_the_uv_release_that_made_an_environment_is_read_from_its_pyvenv_cfg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cfg: Optional[str], maker: Optional[str]
) -> None:
    if cfg is not None:
        (tmp_path / "pyvenv.cfg").write_text(cfg, encoding="utf-8")
    from tfdoctor.probes.child import env_info

    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    assert env_info._uv_maker() == maker


def test_pip_and_ensurepip_are_recorded_as_importable_or_not() -> None:
    """Found without importing: this interpreter has ensurepip; no module has that name."""
    from tfdoctor.probes.child import env_info

    assert env_info._importable("ensurepip") is True
    assert env_info._importable("no_such_module_for_tfdoctor") is False
    python = env_info.collect()["python"]
    assert python["pip_installed"] is env_info._importable("pip")
    assert "uv_venv" in python and "ensurepip" in python


def test_an_environment_uv_made_without_pip_is_recorded_as_uvs(tmp_path: Path) -> None:
    """`uv venv` writes its release into pyvenv.cfg and installs no pip: both reach the facts,
    probed in the environment's own interpreter."""
    venv.create(tmp_path / "env", with_pip=False)
    cfg = tmp_path / "env" / "pyvenv.cfg"
    cfg.write_text(cfg.read_text(encoding="utf-8") + "uv = 0.5.11\n", encoding="utf-8")
    python = tmp_path / "env" / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    result = probe_pyenv(str(python))
    assert result.python is not None
    assert result.python.pip_installed is False and result.python.uv_venv == "0.5.11"
