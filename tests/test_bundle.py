"""``tfdoctor bundle`` and ``tfdoctor run --bundle``: one redacted, bounded archive, written
all at once or not at all."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

from tests.commandline import ROOT, tfdoctor
from tests.wheels import make_venv, make_wheel
from tfdoctor.bundle import MEMBER_LIMIT, Member, read_pip_inspect, write_bundle
from tfdoctor.redact import Redactor, environment_secrets

#: Planted secrets: shaped tokens, one without a shape, URL passwords, a home path.
HF = "hf_" + "Z" * 34
PLAIN = "plain-secret-without-shape-42"
INDEX_PASSWORD = "indexpass987"
CONF_PASSWORD = "confpass654"
HOME_PATH = "/home/alice/projects"


def _members(path: Path) -> dict[str, str]:
    """Every member of a bundle by name (without the top folder), as text."""
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path) as archive:
            return {n.split("/", 1)[1]: archive.read(n).decode("utf-8") for n in archive.namelist()}
    with tarfile.open(path) as archive:
        out = {}
        for info in archive.getmembers():
            handle = archive.extractfile(info)
            assert handle is not None
            out[info.name.split("/", 1)[1]] = handle.read().decode("utf-8")
        return out


def _planted_env(tmp_path: Path) -> dict[str, str]:
    """An environment with secrets where a bug report could pick them up."""
    conf = tmp_path / "pip.conf"
    conf.write_text(
        f"[global]\nindex-url = https://builder:{CONF_PASSWORD}@pypi.example.org/simple\n",
        encoding="utf-8",
    )
    return {
        "HF_TOKEN": HF,
        "MY_SERVICE_PASSWORD": PLAIN,
        "PIP_EXTRA_INDEX_URL": f"https://ci:{INDEX_PASSWORD}@mirror.example.org/simple",
        "PIP_CONFIG_FILE": str(conf),
        "TF_DUMP_GRAPH_PREFIX": HOME_PATH,
        "TFDOCTOR_NO_CACHE": "1",
    }


#: The command ``run --bundle`` watches: prints every planted secret, then fails.
LEAKY = textwrap.dedent(
    """
    import os, subprocess, sys
    print("token", os.environ["HF_TOKEN"])
    print("service password is", os.environ["MY_SERVICE_PASSWORD"])
    print("extra index", os.environ["PIP_EXTRA_INDEX_URL"])
    print("dumps under", os.environ["TF_DUMP_GRAPH_PREFIX"])
    subprocess.run([sys.executable, "-m", "pip", "config", "list"], check=False)
    print("Traceback (most recent call last):", file=sys.stderr)
    print("ImportError: libcudnn.so.9: cannot open shared object file", file=sys.stderr)
    sys.exit(3)
    """
)


@pytest.fixture(scope="module")
def run_bundle(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, dict[str, str]]:
    """``tfdoctor run --bundle`` around a failing command that prints the planted secrets."""
    tmp = tmp_path_factory.mktemp("run")
    out = tmp / "bug.tar.gz"
    done = tfdoctor(
        "run",
        "--bundle",
        str(out),
        "--",
        sys.executable,
        "-c",
        LEAKY,
        env=_planted_env(tmp),
        timeout=300,
    )
    return done.returncode, done.stderr, _members(out)


def test_run_keeps_the_commands_exit_code_and_bundles_its_log(
    run_bundle: tuple[int, str, dict[str, str]],
) -> None:
    code, stderr, members = run_bundle
    assert code == 3
    assert "tfdoctor run: wrote the bundle" in stderr
    assert "libcudnn.so.9: cannot open shared object file" in members["run.log"]
    assert members["run.log"].rstrip().endswith("[exited, exit code 3]")
    assert "run.log" in members["README.txt"]


def test_nothing_secret_in_any_member(run_bundle: tuple[int, str, dict[str, str]]) -> None:
    _, _, members = run_bundle
    assert {"README.txt", "report.json", "libraries.txt", "run.log"} <= set(members)
    for name, text in members.items():
        for secret in (HF, PLAIN, INDEX_PASSWORD, CONF_PASSWORD, "/home/alice"):
            assert secret not in text, f"{secret} in {name}"
    log = members["run.log"]
    assert "service password is ***" in log
    assert "https://ci:***@mirror.example.org/simple" in log
    assert "https://builder:***@pypi.example.org/simple" in log
    assert "dumps under ~/projects" in log


def test_bundle_writes_every_member_and_a_readme(tmp_path: Path) -> None:
    out = tmp_path / "report.zip"
    done = tfdoctor("bundle", "-o", str(out), "--static", env=_planted_env(tmp_path), timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"tfdoctor: wrote {out}: README.txt, report.json")
    members = _members(out)
    readme = members["README.txt"]
    for name in members:
        if name != "README.txt":
            assert f"  {name} (" in readme
    assert '"schema_version": 2' in members["report.json"]
    assert "run.log" not in members
    for text in members.values():
        assert HF not in text and PLAIN not in text and INDEX_PASSWORD not in text


def test_the_environment_is_listed_once_and_pinned_from_that_listing(tmp_path: Path) -> None:
    # A venv with a metadata-only TensorFlow, examined through a wrapper that logs each start
    # of the interpreter: the package listing (env_info.py) must run once, pip inspect once.
    links = tmp_path / "links"
    links.mkdir()
    make_wheel(links, "tensorflow", "2.21.0", ("numpy>=1.26.0",))
    make_wheel(links, "numpy", "2.3.0")
    venv = make_venv(tmp_path / "venv", sys.executable)
    offline = ["--no-deps", "--no-index", "--find-links", str(links)]
    subprocess.run(
        [str(venv), "-m", "pip", "install", "-q", *offline, "tensorflow==2.21.0", "numpy==2.3.0"],
        check=True,
        timeout=300,
    )
    calls = tmp_path / "calls.log"
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\necho "$*" >> "{calls}"\nexec "{venv}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    out = tmp_path / "b.tar.gz"
    done = tfdoctor("bundle", "-o", str(out), "--static", "--python", str(python), timeout=300)
    assert done.returncode == 0, done.stderr
    started = calls.read_text(encoding="utf-8").splitlines()
    assert len([c for c in started if "env_info.py" in c]) == 1, started
    assert len([c for c in started if c.startswith("-m pip inspect")]) == 1, started
    members = _members(out)
    assert '"packages_complete": true' in members["report.json"]
    assert "tensorflow==2.21.0" in members["pins.txt"]
    assert "numpy==2.3.0" in members["pins.txt"]


def test_pip_inspect_that_cannot_run_is_a_reason_not_a_crash(tmp_path: Path) -> None:
    assert read_pip_inspect(str(tmp_path / "no-python")) == (
        None,
        f"cannot run {tmp_path / 'no-python'}: No such file or directory",
    )


@pytest.mark.parametrize(
    ("where", "message"),
    [
        pytest.param("missing/dir/b.tar.gz", "no directory", id="missing-directory"),
        pytest.param("folder.tar.gz", "is a directory", id="a-directory"),
        pytest.param("b.txt", "must end in", id="unknown-kind"),
    ],
)
def test_a_bad_output_is_one_line_and_exit_3(tmp_path: Path, where: str, message: str) -> None:
    (tmp_path / "folder.tar.gz").mkdir()
    done = tfdoctor("bundle", "-o", str(tmp_path / where), "--static")
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr.startswith("tfdoctor: error: ")
    assert message in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["folder.tar.gz"]


def test_run_refuses_a_bad_bundle_path_before_running(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    done = tfdoctor(
        "run",
        "--bundle",
        str(tmp_path / "no" / "b.tgz"),
        "--",
        sys.executable,
        "-c",
        f"open({str(marker)!r}, 'w').close()",
    )
    assert done.returncode == 3
    assert len(done.stderr.splitlines()) == 1
    assert not marker.exists()


def test_a_member_over_the_limit_is_cut_and_the_readme_says_so(tmp_path: Path) -> None:
    out = tmp_path / "b.tar.gz"
    line = "x" * 99 + "\n"
    big = line * (MEMBER_LIMIT // 100 + 50)
    write_bundle(
        str(out),
        [Member("run.log", big, "a long log")],
        [],
        "header",
        redactor=Redactor(private=True),
        environ={},
    )
    members = _members(out)
    assert len(members["run.log"]) <= MEMBER_LIMIT
    assert members["run.log"].endswith("\n")
    assert (
        f"TRUNCATED to the first {len(members['run.log'])} of {len(big)} bytes"
        in (members["README.txt"])
    )


def test_secret_values_of_the_environment_are_masked_in_any_shape() -> None:
    secrets = environment_secrets(
        {"DB_PASSWORD": PLAIN, "PATH": "/usr/bin", "URL": f"https://u:{INDEX_PASSWORD}@h/"}
    )
    assert set(secrets) == {PLAIN, INDEX_PASSWORD}


#: A child that writes a bundle under a file-size limit below the archive's size: the write
#: fails the way a full disk does (EFBIG; SIGXFSZ ignored, see setrlimit(2)).
_LIMITED = textwrap.dedent(
    """
    import os, resource, signal, sys
    from tfdoctor.bundle import BundleError, Member, write_bundle
    from tfdoctor.redact import Redactor
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    text = os.urandom(300000).hex()
    try:
        write_bundle(sys.argv[1], [Member("a.txt", text, "noise")], [], "h",
                     redactor=Redactor(private=False), environ={})
    except BundleError as exc:
        print(exc)
        sys.exit(3)
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="setrlimit is POSIX")
def test_a_failed_write_leaves_no_file_and_the_old_one_intact(tmp_path: Path) -> None:
    target = tmp_path / "b.tar.gz"
    target.write_bytes(b"old bundle")
    done = subprocess.run(
        [sys.executable, "-c", _LIMITED, str(target)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout.startswith(f"cannot write {target}: ")
    assert target.read_bytes() == b"old bundle"
    assert [p.name for p in tmp_path.iterdir()] == ["b.tar.gz"]


def test_bad_input_to_the_check_is_one_line_and_no_file(tmp_path: Path) -> None:
    out = tmp_path / "b.tar.gz"
    done = tfdoctor("bundle", "-o", str(out), "--smoke", "--static")
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr == (
        "tfdoctor: error: --smoke imports TensorFlow; it cannot run with --static\n"
    )
    assert not out.exists()


@pytest.mark.slow
def test_smoke_adds_the_smoke_report(tmp_path: Path) -> None:
    out = tmp_path / "b.tgz"
    done = tfdoctor("bundle", "-o", str(out), "--smoke", timeout=600)
    assert done.returncode == 0, done.stderr
    members = _members(out)
    assert '"kernel": "matmul"' in members["smoke.json"]
    assert "  smoke.json (" in members["README.txt"]
