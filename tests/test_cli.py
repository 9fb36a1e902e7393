"""The command line end to end, in real subprocesses: exit codes, formats, replay, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import factories as f
from tests.commandline import ROOT, tfdoctor, write_facts
from tests.processes import start
from tfdoctor import __version__
from tfdoctor.checks import CHECKS
from tfdoctor.facts import ProbeError, to_json
from tfdoctor.findings import REPORT_SCHEMA_VERSION


def test_version() -> None:
    out = tfdoctor("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"tfdoctor {__version__}"


def test_bare_command_prints_help_and_succeeds() -> None:
    out = tfdoctor()
    assert out.returncode == 0, out.stderr
    assert "check" in out.stdout
    assert out.stderr == ""


def test_list_shows_every_check_id() -> None:
    out = tfdoctor("check", "--list")
    assert out.returncode == 0
    listed = [line.split()[0] for line in out.stdout.splitlines()]
    assert listed == [c.id for c in CHECKS]


@pytest.mark.parametrize(
    ("facts", "extra", "code"),
    [
        pytest.param(f.facts(), (), 0, id="healthy"),
        pytest.param(f.cpu_only_machine(), (), 0, id="cpu-only-machine"),
        pytest.param(
            f.facts(packages=f.packages(f.pkg("protobuf", "3.19.0"))), (), 0, id="warning"
        ),
        pytest.param(
            f.facts(packages=f.packages(f.pkg("protobuf", "3.19.0"))),
            ("--strict",),
            1,
            id="warning-strict",
        ),
        pytest.param(f.python32_machine(), (), 2, id="error"),
        pytest.param(
            f.facts(tensorflow=None, errors=(ProbeError("tensorflow", "crashed", "boom"),)),
            ("--strict",),
            1,
            id="unknown-strict",
        ),
    ],
)
def test_exit_codes_from_replayed_facts(
    tmp_path: Path, facts: object, extra: tuple[str, ...], code: int
) -> None:
    path = write_facts(tmp_path, facts)
    out = tfdoctor("check", "--facts", str(path), *extra)
    assert out.returncode == code, out.stdout + out.stderr
    assert "Traceback" not in out.stderr


def test_json_report_replays_to_the_same_findings(tmp_path: Path) -> None:
    facts = f.facts(python=f.python(env_kind="system"))
    first = tfdoctor("check", "--facts", str(write_facts(tmp_path, facts)), "--json")
    report = json.loads(first.stdout)
    assert report["schema_version"] == REPORT_SCHEMA_VERSION
    assert report["tfdoctor_version"] == __version__
    assert report["summary"]["exit_code"] == first.returncode == 0
    saved = tmp_path / "report.json"
    saved.write_text(first.stdout, encoding="utf-8")
    second = tfdoctor("check", "--facts", str(saved), "--json")
    assert json.loads(second.stdout)["findings"] == report["findings"]
    assert json.loads(second.stdout)["facts"] == report["facts"]


def test_facts_from_stdin_and_selected_checks(tmp_path: Path) -> None:
    text = json.dumps(to_json(f.python32_machine()))
    out = tfdoctor("check", "python.bits", "cpu.avx", "--facts", "-", "--json", stdin=text)
    ids = [x["id"] for x in json.loads(out.stdout)["findings"]]
    assert ids == ["python.bits", "cpu.avx"]
    assert out.returncode == 2


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        pytest.param(("--facts", "{missing}"), None, "cannot read facts file", id="no-file"),
        pytest.param(("--facts", "{file}"), "{not json", "not valid JSON", id="bad-json"),
        pytest.param(
            ("--facts", "{file}"), '{"schema_version": 99}', "schema_version 99", id="future-schema"
        ),
        pytest.param(
            ("--facts", "{file}"),
            '{"schema_version": 1, "tfdoctor_version": "x", '
            '"collected_at": "y", "python": {"bits": "64"}}',
            "facts.python",
            id="wrong-shape",
        ),
        pytest.param(("nonexistent.check",), None, "unknown check", id="unknown-check"),
        pytest.param(("--timeout", "abc"), None, "--timeout", id="bad-timeout"),
        pytest.param(("--timeout", "0"), None, "--timeout must be positive", id="zero-timeout"),
        pytest.param(("--bogus",), None, "--bogus", id="unknown-option"),
        pytest.param(("--python", "{missing}"), None, "no such interpreter", id="no-interpreter"),
        pytest.param(("--format", "xml"), None, "xml", id="bad-format"),
        pytest.param(
            ("--json", "--format", "markdown"), None, "different outputs", id="json-and-markdown"
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_3(
    tmp_path: Path, args: tuple[str, ...], content: str | None, message: str
) -> None:
    file = tmp_path / "facts.json"
    if content is not None:
        file.write_text(content, encoding="utf-8")
    argv = [a.format(file=file, missing=tmp_path / "missing") for a in args]
    out = tfdoctor("check", *argv)
    assert out.returncode == 3, out.stdout + out.stderr
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tfdoctor: error:"), out.stderr
    assert message in lines[0]


def test_markdown_and_text_formats(tmp_path: Path) -> None:
    path = write_facts(tmp_path, f.python32_machine())
    md = tfdoctor("check", "--facts", str(path), "--format", "markdown")
    text = tfdoctor("check", "--facts", str(path), "--no-color")
    assert md.returncode == text.returncode == 2
    assert "python.bits" in md.stdout and "64-bit" in md.stdout
    assert "64-bit wheels" in text.stdout and "\x1b[" not in text.stdout


def test_static_check_never_imports_tensorflow(tmp_path: Path) -> None:
    # A TensorFlow whose import kills the process: --static must not notice it at all.
    fake = _fake_tf(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    out = tfdoctor("check", "--static", "--json", env={"PYTHONPATH": str(fake)})
    assert out.returncode in (0, 2), out.stderr
    report = json.loads(out.stdout)
    assert report["facts"]["tensorflow"]["status"] == "skipped"
    ids = {x["id"] for x in report["findings"]}
    assert {"python.bits", "packages.tensorflow", "driver.nvidia"} <= ids


def _fake_tf(tmp_path: Path, body: str) -> Path:
    pkg = tmp_path / "fake" / "tensorflow"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(body, encoding="utf-8")
    return pkg.parent


def test_hanging_tensorflow_is_killed_at_the_timeout(tmp_path: Path) -> None:
    fake = _fake_tf(tmp_path, "import time\ntime.sleep(3600)\n")
    start = time.monotonic()
    out = tfdoctor("check", "--timeout", "3", "--json", env={"PYTHONPATH": str(fake)})
    elapsed = time.monotonic() - start
    report = json.loads(out.stdout)
    tf = next(x for x in report["findings"] if x["id"] == "tensorflow.import")
    assert tf["severity"] == "error" and "within 3 s" in tf["summary"]
    assert out.returncode == 2
    # The child's 3 s budget, not the default 60 s: the rest is the doctor's own start-up
    # and probes (about 1.5 s here), with room for a machine busy with other tests.
    assert elapsed < 3 + 12, elapsed


def test_sigill_in_tensorflow_becomes_a_finding(tmp_path: Path) -> None:
    fake = _fake_tf(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGILL)\n")
    out = tfdoctor("check", "tensorflow.import", "--json", env={"PYTHONPATH": str(fake)})
    report = json.loads(out.stdout)
    assert report["facts"]["tensorflow"]["signal"] == "SIGILL"
    assert report["findings"][0]["severity"] == "error"
    assert "SIGILL" in report["findings"][0]["summary"]
    assert out.returncode == 2


@pytest.mark.slow
def test_full_check_with_real_tensorflow_on_a_machine_without_gpu() -> None:
    out = tfdoctor("check", "--json", timeout=300)
    report = json.loads(out.stdout)
    facts = report["facts"]
    tf = facts["tensorflow"]
    assert tf["status"] == "ok", tf
    from importlib.metadata import version

    assert tf["version"] == version("tensorflow")
    findings = {x["id"]: x for x in report["findings"]}
    assert findings["tensorflow.import"]["severity"] == "ok"
    if not facts["driver"]["gpus"]:
        # The CUDA wheel on a machine without a GPU: an info, never an error.
        assert findings["gpu.visible"]["severity"] in ("info", "ok")
        assert findings["driver.nvidia"]["severity"] == "info"
        assert not [d for d in tf["devices"] if d["device_type"] == "GPU"]


def test_console_script_matches_python_m() -> None:
    script = Path(sys.executable).parent / (
        "tfdoctor.exe" if sys.platform == "win32" else "tfdoctor"
    )
    if not script.exists():
        pytest.skip("the package is not installed in this environment (only importable)")
    out = subprocess.run(
        [str(script), "check", "--list"], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0
    assert out.stdout == tfdoctor("check", "--list").stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_progress_shows_on_a_terminal_only() -> None:
    import pty

    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = subprocess.run(
        [sys.executable, "-m", "tfdoctor", "check", "--static"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=follower,
        timeout=120,
        check=False,
    )
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert b"tfdoctor: " in seen  # the status line went to the terminal
    assert b"tfdoctor: " not in proc.stdout.split(b"\n", 1)[1]  # not into the report
    piped = tfdoctor("check", "--static")
    assert piped.stderr == ""  # no terminal, no progress


def test_require_gpu_runs_its_check_even_when_the_ids_leave_it_out(tmp_path: Path) -> None:
    path = write_facts(tmp_path, f.cpu_only_machine())
    out = tfdoctor("check", "python.environment", "--require-gpu", "--facts", str(path), "--json")
    found = [(x["id"], x["severity"]) for x in json.loads(out.stdout)["findings"]]
    assert found == [("python.environment", "ok"), ("gpu.required", "error")]
    assert out.returncode == 2


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX pipes")
@pytest.mark.parametrize("command", [("matrix",), ("check", "--list"), ("--version",)])
def test_output_to_a_closed_pipe_is_one_line_and_exit_3(command: tuple[str, ...]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # whoever read the output has gone: every write fails with EPIPE
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tfdoctor", *command],
            cwd=ROOT,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(writer)
    assert proc.returncode == 3
    assert proc.stderr == "tfdoctor: error: cannot write output: Broken pipe\n"


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX sh")
@pytest.mark.parametrize(
    ("command", "message"),
    [
        pytest.param("explain -", "cannot read stdin: standard input is closed", id="explain"),
        pytest.param("check --facts -", "standard input is closed", id="check-facts"),
    ],
)
def test_reading_a_closed_stdin_is_one_line_and_exit_3(command: str, message: str) -> None:
    # Started with `<&-`, Python sets sys.stdin to None.
    proc = subprocess.run(
        ["sh", "-c", f'exec "$0" -m tfdoctor {command} <&-', sys.executable],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 3
    assert proc.stderr.startswith("tfdoctor: error: ") and message in proc.stderr
    assert proc.stderr.count("\n") == 1


@pytest.mark.parametrize("fmt", ["text", "markdown", "github"])
def test_characters_the_output_encoding_lacks_are_escaped(tmp_path: Path, fmt: str) -> None:
    # Windows writes redirected output in its ANSI code page (cp1252 in the West): a log in
    # another script must not end the report in UnicodeEncodeError.
    log = tmp_path / "zh.log"
    log.write_text("ImportError: \u627e\u4e0d\u5230\u6307\u5b9a\u7684\u6a21\u5757\n", "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "tfdoctor", "explain", str(log), "--format", fmt],
        cwd=ROOT,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    assert b"\\u627e" in proc.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals and sh")
def _interrupting_python(tmp_path: Path, answers_version: bool) -> Path:
    """An "interpreter" that interrupts the doctor while the doctor waits for it, as Ctrl-C
    in a terminal would: the doctor is surely inside a command when the signal lands.

    With ``answers_version`` it is this Python for everything but the environment probe
    (the version question, the cuInit child a command may start before it has even parsed
    its options), and interrupts only there, inside the probes; without, at once.
    """
    python = tmp_path / "python"
    passthrough = (
        f'case "$*" in *env_info*) ;; *) exec "{sys.executable}" "$@";; esac\n'
        if answers_version
        else ""
    )
    python.write_text(f"#!/bin/sh\n{passthrough}kill -INT $PPID\nsleep 5\n", encoding="utf-8")
    python.chmod(0o755)
    return python


def _interrupted_check(python: Path) -> tuple[int, bytes, bytes]:
    command = ["check", "python.bits", "--static", "--json", "--python", str(python)]
    doctor = start(
        [sys.executable, "-m", "tfdoctor", *command],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = doctor.communicate(timeout=60)
    return doctor.returncode, out, err


def test_interrupt_reports_what_was_found_and_exits_130(tmp_path: Path) -> None:
    code, out, err = _interrupted_check(_interrupting_python(tmp_path, answers_version=True))
    assert code == 130, err
    assert err == b"tfdoctor: interrupted\n"
    # The interpreter's probe was cut short: unknown, and said to be interrupted.
    report = json.loads(out)
    assert report["summary"]["exit_code"] == 130
    errors = {e["probe"]: e["reason"] for e in report["facts"]["errors"]}
    assert errors["python"] == "interrupted"
    assert [f["severity"] for f in report["findings"]] == ["unknown"]


def test_interrupt_before_any_probe_exits_130_without_a_report(tmp_path: Path) -> None:
    # Ctrl-C while --python is still being asked its version: nothing was found yet.
    code, out, err = _interrupted_check(_interrupting_python(tmp_path, answers_version=False))
    assert (code, out, err) == (130, b"", b"tfdoctor: interrupted\n")
