"""``tfdoctor upgrade``: recorded machines and small projects, planned to another TensorFlow."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the test extras
import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from tests.commandline import ROOT, in_process, tfdoctor, write_facts
from tests.factories import FIXTURE_MATRIX, FIXTURE_MATRIX_PATH, pkg
from tests.golden import check_golden
from tfdoctor import __version__
from tfdoctor.compat import DRIVER, PLATFORM, SASS, UNRECORDED, evaluate
from tfdoctor.facts import Facts, facts_from_json, normalize_name
from tfdoctor.findings import Finding, Severity
from tfdoctor.inputs import load_facts
from tfdoctor.machine import Machine
from tfdoctor.matrix import TFLine, load_companions
from tfdoctor.upgrade import UpgradeError, plan_upgrade, read_release
from tfdoctor.upgrade.service import UpgradeOptions, make_plan

DATA = ROOT / "tests" / "data"
UPGRADE = DATA / "upgrade"
KERAS2 = "tests/data/upgrade/keras2_project"
TF115 = "tests/data/upgrade/tf115_project"
MATRIX = str(FIXTURE_MATRIX_PATH)
REPORT_SCHEMA = ROOT / "docs" / "report.schema.json"

#: Recorded machines (tests/data/healthy, tests/data/real_failures).
TF215 = DATA / "healthy" / "tf215-and-cuda-venv-t4.json"
TF221 = DATA / "healthy" / "tf221-and-cuda-venv-l4.json"
PYTHON38 = DATA / "real_failures" / "a18-healthy-tf211-colab-t4-tensorrt-warnings.json"
H100_PTX = DATA / "real_failures" / "b23-tf215rc0-h100-jit-from-ptx.json"
TF115_PY36 = DATA / "real_failures" / "a01-tf115-plain-wheel-cpu-only.json"
WSL2 = DATA / "real_failures" / "b02-tf216-wsl2-conda-wheels-not-found.json"


def facts_file(tmp_path: Path, recorded: Path) -> str:
    """A recorded machine as a facts file (the real-failure cases wrap theirs in ``facts``)."""
    data = json.loads(recorded.read_text(encoding="utf-8"))
    facts = facts_from_json(data.get("facts", data))
    return str(write_facts(tmp_path, facts, recorded.name))


def plan_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code, out, err = in_process(capsys, "upgrade", "--matrix", MATRIX, "--format", "json", *args)
    assert err == ""
    data: dict[str, Any] = json.loads(out)
    jsonschema.validate(data, json.loads(REPORT_SCHEMA.read_text(encoding="utf-8")))
    return code, data


def ids(data: dict[str, Any]) -> list[str]:
    return [f["id"] for f in data["findings"]]


def by_id(data: dict[str, Any], finding_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(f for f in data["findings"] if f["id"] == finding_id)
    return found


# --- golden plans ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("recorded", "to", "paths", "golden", "exit_code"),
    [
        pytest.param(TF215, "2.21", (KERAS2,), "tf215-to-2.21-keras2.json", 1, id="2.15-keras2"),
        pytest.param(TF221, "2.21", (KERAS2 + "/util.py",), "tf221-to-2.21.json", 0, id="none"),
        pytest.param(PYTHON38, "2.21", (TF115,), "python38-to-2.21.json", 2, id="python-3.8"),
    ],
)
def test_plan_json_is_golden(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    recorded: Path,
    to: str,
    paths: tuple[str, ...],
    golden: str,
    exit_code: int,
) -> None:
    monkeypatch.chdir(ROOT)  # the paths in the plan are as given, relative to the project
    code, data = plan_json(capsys, "--to", to, "--facts", facts_file(tmp_path, recorded), *paths)
    assert code == exit_code
    summary = data["summary"]
    assert isinstance(summary, dict) and summary["exit_code"] == exit_code
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    check_golden(UPGRADE / "golden" / golden, text.replace(__version__, "VERSION"))


# --- the plan, step by step --------------------------------------------------------------------


def test_keras2_project_from_215_orders_blockers_changes_code_install(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, data = plan_json(capsys, "--to", "2.21", "--facts", facts_file(tmp_path, TF215), KERAS2)
    assert code == 1
    order = ids(data)
    # Release-wide changes first, then the code file by file, the install, what is fine.
    assert order[:2] == ["upgrade.keras3", "upgrade.estimator"]
    code_at = [i for i, finding_id in enumerate(order) if finding_id.startswith("scan.")]
    assert code_at, "the Keras 2 code was not scanned"
    assert order.index("upgrade.tensorboard") < code_at[0]
    assert code_at[-1] < order.index("upgrade.install")
    assert by_id(data, "upgrade.keras3")["severity"] == "warning"
    assert by_id(data, "upgrade.tensorboard")["severity"] == "warning"  # the code logs with it
    # Code that breaks on 2.21 is a change to make (exit 1), not a blocker (exit 2).
    severities = {f["severity"] for f in data["findings"] if f["id"].startswith("scan.")}
    assert "error" not in severities
    plan = data["plan"]
    assert isinstance(plan, dict)
    assert plan["from"] == "2.15.1" and plan["to"] == "2.21.0"
    assert "tensorflow[and-cuda]==2.21.0" in plan["pins"]
    assert "6 code changes in 2 files" in plan["summary"]


@pytest.mark.parametrize(
    ("recorded", "to", "step"),
    [
        # 2.7-2.11 declare a numpy floor only, yet were compiled against NumPy 1.x: crossing
        # them is no NumPy 2 step (the matrix's numpy_abi, not the pin's admitting 2.0).
        pytest.param(TF115_PY36, "2.10", None, id="1.15-to-2.10-none"),
        pytest.param(TF115_PY36, "2.21", "NumPy 2: TensorFlow 2.18 and later", id="1.15-to-2.21"),
        pytest.param(PYTHON38, "2.21", "NumPy 2: TensorFlow 2.18 and later", id="2.11-to-2.21"),
        pytest.param(PYTHON38, "2.17", None, id="2.11-to-2.17-none"),
    ],
)
def test_the_numpy2_step_is_the_first_line_compiled_with_numpy2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    recorded: Path,
    to: str,
    step: str | None,
) -> None:
    _, data = plan_json(capsys, "--to", to, "--facts", facts_file(tmp_path, recorded))
    found = [f["summary"] for f in data["findings"] if f["id"] == "upgrade.numpy2"]
    if step is None:
        assert not found
    else:
        assert len(found) == 1 and found[0].startswith(step), found


def test_code_is_grouped_by_file_most_breaking_file_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # From 1.15 every TensorFlow 1 name breaks: train.py holds the estimator, the summary op
    # and tf.logging; graph.py the session graph.
    _, data = plan_json(capsys, "--to", "2.21", "--facts", facts_file(tmp_path, TF115_PY36), TF115)
    paths = [f["location"]["path"] for f in data["findings"] if "location" in f]
    assert paths, "the TensorFlow 1 code was not scanned"
    files = list(dict.fromkeys(paths))
    assert sorted(files) == [f"{TF115}/graph.py", f"{TF115}/train.py"]
    assert paths == sorted(paths, key=files.index), "a file's changes are not together"
    causes = {f["cause"] for f in data["findings"]}
    assert {"tf-contrib-removed", "tf-estimator-removed", "api-moved-to-compat-v1"} <= causes


def test_python_outside_the_range_blocks_the_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, data = plan_json(capsys, "--to", "2.21", "--facts", facts_file(tmp_path, PYTHON38))
    assert code == 2
    first = data["findings"][0]
    assert first["id"] == "upgrade.python" and first["severity"] == "error"
    assert "Python 3.8 is outside TensorFlow 2.21's range (Python 3.10-3.13" in first["summary"]
    # The driver (510) is below CUDA 12's floor: a change, after the blocker.
    driver = by_id(data, "upgrade.driver")
    assert driver["severity"] == "warning" and "525.60.13" in str(driver["summary"])
    assert data["plan"]["pins"] is None
    assert str(data["plan"]["summary"]).startswith(
        "TensorFlow 2.11.0 -> 2.21.0: cannot be done on this machine: Python 3.8"
    )


def test_the_same_python_on_an_older_line_is_fine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, data = plan_json(capsys, "--to", "2.13", "--facts", facts_file(tmp_path, PYTHON38))
    assert code == 1
    assert by_id(data, "upgrade.python")["severity"] == "ok"


def test_a_gpu_that_runs_the_target_only_from_ptx(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # An H100 (9.0) on 2.15: the wheels carry sm_80 machine code and compute_80 PTX.
    code, data = plan_json(capsys, "--to", "2.15", "--facts", facts_file(tmp_path, H100_PTX))
    assert code == 1
    gpu = by_id(data, "upgrade.gpu")
    assert gpu["severity"] == "warning"
    assert "runs TensorFlow 2.15 only by JIT from PTX" in str(gpu["summary"])
    commands = gpu["fix"]["commands"]
    assert "export CUDA_CACHE_MAXSIZE=4294967296" in commands
    # The way out installs a line with machine code for it, not another PTX-only one.
    assert any("tensorflow[and-cuda]==2.21.0" in c for c in commands)


def test_the_same_gpu_on_a_line_with_its_machine_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, data = plan_json(capsys, "--to", "2.16", "--facts", facts_file(tmp_path, H100_PTX))
    gpu = by_id(data, "upgrade.gpu")
    assert gpu["severity"] == "ok" and "machine code" in str(gpu["summary"])


def test_a_line_without_recorded_gpu_code_is_not_said_to_run_its_machine_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The matrix records no GPU architectures for 2.2: the checks' verdict notes the gap, and
    # so does the plan (a T4 on Python 3.8, which 2.2 has wheels for).
    line, _ = read_release(FIXTURE_MATRIX, "2.2")
    facts = load_facts(facts_file(tmp_path, PYTHON38))
    assert evaluate(FIXTURE_MATRIX, line, Machine(facts, FIXTURE_MATRIX).target).gpu_code == (
        UNRECORDED
    )
    _, data = plan_json(capsys, "--to", "2.2", "--facts", facts_file(tmp_path, PYTHON38))
    gpu = by_id(data, "upgrade.gpu")
    assert gpu["severity"] == "unknown"
    assert "machine code" not in str(gpu["summary"])
    assert "do not record their GPU architectures" in str(gpu["summary"])


#: The steps worded from the platform verdict.
_VERDICT_STEPS = ("upgrade.platform", "upgrade.python", "upgrade.gpu", "upgrade.driver")


@pytest.mark.parametrize(
    "recorded", [TF215, PYTHON38, H100_PTX, TF115_PY36, WSL2], ids=lambda p: p.name[:3]
)
def test_the_plan_and_the_checks_verdict_agree_on_every_line(
    tmp_path: Path, recorded: Path
) -> None:
    facts = load_facts(facts_file(tmp_path, recorded))
    target = Machine(facts, FIXTURE_MATRIX).target
    companions = load_companions()
    for line in FIXTURE_MATRIX.lines:
        verdict = evaluate(FIXTURE_MATRIX, line, target)
        plan = plan_upgrade(facts, FIXTURE_MATRIX, companions, line, line.latest_patch)
        steps = [f for f in plan.report.findings if f.id in _VERDICT_STEPS]
        blocked = {f.id for f in steps if f.severity is Severity.ERROR}
        # The driver is a change to make, not a blocker; everything else excludes the line.
        excluded = [j for j in verdict.judgements if j.excludes and j.floor is None]
        assert bool(blocked) == bool(excluded), (blocked, verdict.reasons)
        if not verdict.about(PLATFORM):  # a platform without wheels stops the plan there
            floors = {j.floor.version for j in verdict.judgements if j.floor is not None}
            assert {_floor_of(f) for f in steps if f.id == "upgrade.driver"} == floors
        machine_code = any("machine code (" in f.summary for f in steps)
        assert machine_code == (verdict.gpu_code == SASS and not verdict.about(PLATFORM))


def _floor_of(step: Finding) -> str:
    """The driver a driver step asks for (``... >= 525.60.13; this one is 510.47.03``)."""
    return step.summary.split(">= ")[1].split(";")[0]


def test_under_wsl_the_plan_and_the_checks_read_the_windows_driver_floor(
    tmp_path: Path,
) -> None:
    # WSL's driver is the Windows host's, numbered as Windows drivers: 527.00 is above CUDA
    # 12's Linux floor (525.60.13) and below its Windows one (528.33).
    facts = load_facts(facts_file(tmp_path, WSL2))
    assert facts.driver is not None
    facts = dataclasses.replace(
        facts, driver=dataclasses.replace(facts.driver, driver_version="527.00")
    )
    line, _ = read_release(FIXTURE_MATRIX, "2.21")
    verdict = evaluate(FIXTURE_MATRIX, line, Machine(facts, FIXTURE_MATRIX).target)
    assert [j.floor.version for j in verdict.about(DRIVER) if j.floor is not None] == ["528.33"]
    plan = plan_upgrade(facts, FIXTURE_MATRIX, load_companions(), line, "2.21.0")
    driver = next(f for f in plan.report.findings if f.id == "upgrade.driver")
    assert ">= 528.33; this one is 527.00" in driver.summary
    assert driver.fix is not None and "Windows host" in driver.fix.text


def test_an_end_of_life_add_on_blocks_the_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    facts = load_facts(str(TF215))
    addons = pkg("tensorflow-addons", "0.23.0", "typeguard<3.0.0,>=2.7")
    facts = dataclasses.replace(facts, packages=(*(facts.packages or ()), addons))
    path = str(write_facts(tmp_path, facts))
    code, data = plan_json(capsys, "--to", "2.21", "--facts", path)
    assert code == 2
    first = data["findings"][0]
    assert first["id"] == "upgrade.companion" and first["severity"] == "error"
    assert "tensorflow-addons 0.23.0 has no release for TensorFlow 2.21" in first["summary"]
    assert "end of life" in first["detail"] and "serves TensorFlow 2.15" in first["detail"]
    # Before the end of its life the same add-on moves with TensorFlow.
    code, data = plan_json(capsys, "--to", "2.15", "--facts", path)
    assert "upgrade.companion" not in ids(data)


def test_a_companion_only_the_installed_tensorflow_required_does_not_block(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # TensorFlow 2.15 requires tensorflow-io-gcs-filesystem (installed with it); 2.21 does not,
    # and no release of it declares 2.21: a note to uninstall it, not a blocker.
    facts = load_facts(str(TF215))
    gcs = pkg("tensorflow-io-gcs-filesystem", "0.37.1")
    facts = dataclasses.replace(facts, packages=(*(facts.packages or ()), gcs))
    code, data = plan_json(capsys, "--to", "2.21", "--facts", str(write_facts(tmp_path, facts)))
    assert code == 1
    note = by_id(data, "upgrade.companion")
    assert note["severity"] == "info"
    assert "came with TensorFlow 2.15.1, which requires it" in note["summary"]
    assert ids(data).index("upgrade.install") < ids(data).index("upgrade.companion")


def test_without_tensorflow_the_plan_is_a_first_install_judging_every_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Ubuntu 24.04's system Python 3.12 (externally managed), a T4, no TensorFlow yet.
    recorded = DATA / "real_failures" / "b10-ubuntu2404-externally-managed-pip.json"
    code, data = plan_json(capsys, "--to", "2.21", "--facts", facts_file(tmp_path, recorded), TF115)
    assert code == 1
    assert data["plan"]["from"] is None
    assert data["plan"]["summary"].startswith("TensorFlow 2.21.0: needs ")
    # No line to compare from: every TensorFlow 1 use is judged against 2.21.
    assert "api-moved-to-compat-v1" in {f["cause"] for f in data["findings"]}
    # pip refuses to install into an externally managed Python (PEP 668): a venv first.
    install = by_id(data, "upgrade.install")["fix"]["commands"]
    assert install[0] == "python3 -m venv ~/.venvs/tf"


def test_the_installed_release_needs_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = in_process(
        capsys,
        "upgrade",
        "--to",
        "2.21.0",
        "--matrix",
        MATRIX,
        "--facts",
        facts_file(tmp_path, TF221),
    )
    assert code == 0
    assert out.splitlines()[0] == "TensorFlow 2.21.0 -> 2.21.0: nothing to change; no code scanned"
    assert out.endswith("exit code 0: nothing to change\n")


def test_a_patch_release_is_the_one_installed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # 2.16.1 is a release of the 2.16 line; the matrix's row describes 2.16.2.
    code, data = plan_json(capsys, "--to", "2.16.1", "--facts", facts_file(tmp_path, TF215))
    assert code == 1
    assert data["plan"]["to"] == "2.16.1"
    assert "install 2.16.1 in its place" in str(by_id(data, "upgrade.install")["summary"])


# --- formats -------------------------------------------------------------------------------------


def test_text_markdown_and_sarif(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = facts_file(tmp_path, TF215)
    base = ("upgrade", "--to", "2.21", "--matrix", MATRIX, "--facts", path, KERAS2)
    code, text, _ = in_process(capsys, *base)
    assert code == 1
    assert text.startswith("TensorFlow 2.15.1 -> 2.21.0: needs ")
    assert f"Code: {KERAS2}/model.py" in text and "exit code 1: changes to make" in text
    _, markdown, _ = in_process(capsys, *base, "--format", "markdown")
    assert markdown.startswith("### tfdoctor upgrade plan\n")
    assert f"#### Code: `{KERAS2}/model.py`" in markdown
    _, sarif, _ = in_process(capsys, *base, "--format", "sarif")
    results = json.loads(sarif)["runs"][0]["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {f"{KERAS2}/model.py", f"{KERAS2}/train.py"}


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("--to", "2.30"), "--to 2.30: not a TensorFlow release", id="unknown-line"),
        pytest.param(("--to", "2.21.9"), "--to 2.21.9: not a TensorFlow release", id="no-patch"),
        pytest.param(("--to", "latest"), "--to latest: not a TensorFlow release", id="word"),
        pytest.param(("--to", "2.21", "missing_dir"), "missing_dir: no such file", id="path"),
        pytest.param(("--to", "2.21", "--index-url", "https://x"), "--index-url", id="index"),
        pytest.param(("--to", "2.21", "--format", "junit"), "'junit' is not one of", id="format"),
    ],
)
def test_bad_input_is_one_line_and_exit_3(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = tfdoctor("upgrade", "--matrix", MATRIX, "--facts", facts_file(tmp_path, TF215), *args)
    assert result.returncode == 3
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("tfdoctor: error: ") and message in result.stderr


def test_an_unknown_release_names_the_known_ones() -> None:
    with pytest.raises(UpgradeError) as raised:
        read_release(FIXTURE_MATRIX, "3.0")
    assert "2.21, 2.20, 2.19" in str(raised.value) and str(raised.value).endswith("1.15)")
    assert read_release(FIXTURE_MATRIX, "2.21") == (FIXTURE_MATRIX.lines[0], "2.21.0")
    assert read_release(FIXTURE_MATRIX, "2.16.1")[1] == "2.16.1"


def test_this_interpreter_is_planned_without_importing_tensorflow() -> None:
    # --python probes the environment as `check --static` does: metadata, no import.
    result = tfdoctor(
        "upgrade", "--to", "2.21", "--matrix", MATRIX, "--python", sys.executable, "--json"
    )
    assert result.returncode in (0, 1, 2), result.stderr
    plan = json.loads(result.stdout)["plan"]
    assert plan["to"] == "2.21.0" and plan["paths"] == []
    assert json.loads(result.stdout)["facts"]["tensorflow"]["status"] == "skipped"


# --- the pins satisfy the target's row ---------------------------------------------------------


def _facts_for(line: TFLine) -> Facts:
    """The 2.15 machine with the newest Python the line has Linux wheels for."""
    facts = load_facts(str(TF215))
    python = line.python["linux-x86_64"][-1]
    assert facts.python is not None
    return dataclasses.replace(
        facts, python=dataclasses.replace(facts.python, version=f"{python}.4")
    )


@pytest.mark.parametrize(
    "line",
    [line for line in FIXTURE_MATRIX.lines if line.python.get("linux-x86_64")],
    ids=lambda line: line.line,
)
def test_pins_satisfy_the_targets_matrix_row(tmp_path: Path, line: TFLine) -> None:
    path = str(write_facts(tmp_path, _facts_for(line)))
    plan = make_plan(UpgradeOptions(line.line, facts_file=path, matrix=MATRIX), "1")
    if plan.pins is None:
        # Only a line whose wheels have no code for the T4 (7.5) may leave the pins out.
        assert plan.exit_code() == 2, plan.summary
        assert any(
            f.id == "upgrade.gpu" and f.severity.value == "error" for f in plan.report.findings
        )
        return
    pins = {normalize_name(Requirement(e.requirement()).name): e for e in plan.pins.entries}
    root = next(e for e in plan.pins.entries if e.name.startswith("tensorflow"))
    assert root.specifier == f"=={line.latest_patch}"
    for field, dist in (("numpy", "numpy"), ("protobuf", "protobuf"), ("keras", "keras")):
        declared = getattr(line.pins, field)
        if declared:
            assert SpecifierSet(pins[dist].specifier) == SpecifierSet(declared)
    if "and-cuda" in root.extras:
        assert line.and_cuda is not None
        for dist, spec in line.and_cuda.items():
            assert SpecifierSet(pins[normalize_name(dist)].specifier) == SpecifierSet(spec)


# --- exact pins from pip's resolver ------------------------------------------------------------


def test_resolve_pins_exactly_from_the_index(tmp_path: Path) -> None:
    # The 2.18 machine (Python 3.12, a T4) against the loopback index `pin --resolve` is
    # tested on, which serves TensorFlow 2.21.0 and what it requires.
    from tests.pin_index import Index, serve
    from tests.test_pin_resolve import served_wheels

    facts = load_facts(str(DATA / "healthy" / "tf218-and-cuda-venv-t4.json"))
    # Only TensorFlow and what it needs: the index serves no companion.
    kept = tuple(p for p in facts.packages or () if normalize_name(p.name) == "tensorflow")
    path = str(write_facts(tmp_path, dataclasses.replace(facts, packages=kept)))
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "NO_COLOR": "1"}
    with serve(Index(served_wheels())) as url:
        result = tfdoctor(
            "upgrade", "--to", "2.21", "--matrix", MATRIX, "--facts", path, "--json",
            "--resolve", "--index-url", url, env=env, timeout=300,
        )  # fmt: skip
    assert result.returncode == 1, result.stderr
    plan = json.loads(result.stdout)["plan"]
    assert plan["pins_mode"] == "resolved"
    assert "tensorflow[and-cuda]==2.21.0" in plan["pins"]
    assert "numpy==2.1.0" in plan["pins"]
    install = next(f for f in json.loads(result.stdout)["findings"] if f["id"] == "upgrade.install")
    # The command installs what the resolver chose, not ranges pip would resolve again.
    assert '"numpy==2.1.0"' in install["fix"]["commands"][0]


@pytest.mark.parametrize(
    ("transformers", "named"),
    [
        pytest.param("4.45.2", True, id="tf-side-needs-keras-2"),
        pytest.param("5.0.0", False, id="no-tensorflow-side"),
    ],
)
def test_the_keras_3_step_names_only_the_releases_that_need_keras_2(
    transformers: str, named: bool
) -> None:
    # The Keras 2 users' table narrows the releases that need tf-keras: the move names a
    # package as one to watch only where its installed release is one of them.
    facts = load_facts(str(TF215))
    extra = pkg("transformers", transformers)
    facts = dataclasses.replace(facts, packages=(*(facts.packages or ()), extra))
    line, _ = read_release(FIXTURE_MATRIX, "2.21")
    plan = plan_upgrade(facts, FIXTURE_MATRIX, load_companions(), line, "2.21.0")
    step = next(f for f in plan.report.findings if f.id == "upgrade.keras3")
    assert ("transformers" in step.detail) is named, step.detail
