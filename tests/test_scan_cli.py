"""``tfdoctor scan`` on the command line: exit codes, JSON with locations, SARIF 2.1.0."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # no stubs in the test extras
import pytest

from tests.commandline import in_process
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Location, Report, Severity
from tfdoctor.render.sarif import render_sarif

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "scan"
SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json"
REPORT_SCHEMA = ROOT / "docs" / "report.schema.json"


def test_breaking_code_exits_2_and_json_carries_locations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = in_process(
        capsys, "scan", str(DATA / "keras2_train.py"), "--target", "2.21", "--json"
    )
    assert code == 2
    report = json.loads(out)
    jsonschema.validate(report, json.loads(REPORT_SCHEMA.read_text(encoding="utf-8")))
    first = report["findings"][0]
    assert first["location"] == {"path": str(DATA / "keras2_train.py"), "line": 7, "column": 46}
    assert first["id"] == "scan.tensorboard-callback"


def test_clean_code_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(capsys, "scan", str(DATA / "clean_tf2_keras3.py"), "--target", "2.21")
    assert code == 0
    assert "Summary:" in out


def test_notebook_location_names_the_cell(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "keras2_transfer_learning.ipynb"
    _, out, _ = in_process(capsys, "scan", str(path), "--target", "2.21", "--format", "json")
    locations = [f["location"] for f in json.loads(out)["findings"]]
    assert {"path": str(path), "line": 2, "column": 5, "cell": 4} in locations


def test_bad_input_exits_3(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = in_process(capsys, "scan", str(tmp_path / "missing.py"), "--target", "2.21")
    assert code == 3 and "no such file" in err
    code, _, err = in_process(capsys, "scan", str(DATA), "--target", "latest")
    assert code == 3 and "--target" in err
    code, _, err = in_process(capsys, "scan", str(DATA), "--json", "--format", "sarif")
    assert code == 3


def _give_up(signum: int, frame: object) -> None:
    raise TimeoutError("scan waited on a file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_or_a_symlink_loop_is_reported_not_waited_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Opening a FIFO for reading waits for a writer: found in the walk, or named, it must be
    # a finding, not a scan that never ends (the alarm ends the test where it would wait).
    previous = signal.signal(signal.SIGALRM, _give_up)
    signal.alarm(60)
    try:
        _scan_odd_files(capsys, tmp_path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _scan_odd_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    (tmp_path / "binary.py").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "broken.ipynb").write_text('{"cells": [{"source": "import tensorflow', "utf-8")
    code, out, _ = in_process(capsys, "scan", str(tmp_path), "--target", "2.21", "--json")
    assert code == 0
    summaries = sorted(f["summary"] for f in json.loads(out)["findings"])
    assert any("pipe.py" in s and "not a regular file" in s for s in summaries), summaries
    assert any("loop.py" in s and "cannot read" in s for s in summaries), summaries
    assert any("binary.py" in s and "not UTF-8" in s for s in summaries), summaries
    code, out, _ = in_process(capsys, "scan", str(tmp_path / "pipe.py"), "--target", "2.21")
    assert code == 0 and "not a regular file" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ("--target", "9.99"),
            "--target 9.99: not a TensorFlow release line the matrix knows (1.15 to ",
            id="unknown-target",
        ),
        pytest.param(
            ("--from", "0.5", "--target", "2.21"),
            "--from 0.5: not a TensorFlow release line the matrix knows (1.15 to ",
            id="unknown-from",
        ),
        pytest.param(
            ("--from", "2.21", "--target", "2.15"),
            "--from 2.21 is newer than --target 2.15",
            id="from-after-target",
        ),
    ],
)
def test_a_release_line_the_matrix_does_not_know_is_bad_input(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = in_process(capsys, "scan", str(DATA / "clean_tf2_keras3.py"), *args)
    assert code == 3 and out == ""
    assert err.startswith(f"tfdoctor: error: {message}") and err.count("\n") == 1, err


def test_sarif_output_validates_against_the_sarif_2_1_0_schema(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    code, out, _ = in_process(
        capsys, "scan", "tests/data/scan", "--target", "2.21", "--format", "sarif"
    )
    assert code == 2
    log = json.loads(out)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)
    (run_,) = log["runs"]
    result = run_["results"][0]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "tests/data/scan/aliases_and_classes.py",
        "uriBaseId": "%SRCROOT%",
    }
    rules = run_["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert {r["level"] for r in run_["results"]} <= {"error", "warning", "note"}


def test_sarif_of_a_fixed_report_is_golden(tmp_path: Path) -> None:
    finding = Finding(
        "scan.tf1-session",
        Severity.ERROR,
        "a.py:3:8: tf.Session",
        "Sessions are gone.",
        links=("https://www.tensorflow.org/guide/migrate",),
        check="scan",
        cause="api-moved-to-compat-v1",
        location=Location(str(tmp_path / "a.py"), 3, 8),
    )
    report = Report(Facts(tfdoctor_version="1", collected_at="now"), (finding,))
    log = json.loads(render_sarif(report, "1.0", base=str(tmp_path)))
    assert log["runs"][0]["results"] == [
        {
            "level": "error",
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": "a.py", "uriBaseId": "%SRCROOT%"},
                        "region": {"startColumn": 8, "startLine": 3},
                    }
                }
            ],
            "message": {"text": "Sessions are gone."},
            "ruleId": "scan.tf1-session",
            "ruleIndex": 0,
        }
    ]


def test_findings_without_a_location_keep_their_json_shape() -> None:
    from tfdoctor.findings import finding_to_json

    plain = Finding("python.version", Severity.OK, "Python 3.11")
    assert "location" not in finding_to_json(plain)


OLD_NAMES = (
    "import tensorflow as tf\n"
    "import keras\n"
    "x = tf.random_normal([2])\n"  # 3: renamed tf.random.normal
    "y = tf.log(x)\n"  # 4: renamed tf.math.log
    "f = tf.div_no_nan(x, y)\n"  # 5: renamed tf.math.divide_no_nan
    "m = tf.keras.utils.multi_gpu_model\n"  # 6: removed in 2.4
    "w = tf.io.decode_webp\n"  # 7: added in 2.20
    "from keras.wrappers.scikit_learn import KerasClassifier\n"  # 8: gone from Keras 2.13
    "layer = keras.layers.NoSuchLayer\n"  # 9: in no Keras 2 (2.12's from its own wheel)
)


@pytest.mark.parametrize(
    ("target", "removed"),
    [pytest.param("2.15", {7, 9}, id="2.15"), pytest.param("2.12", {7, 9}, id="2.12")],
)
def test_scan_on_a_keras_2_line_finds_renamed_and_removed_names_from_the_listing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, target: str, removed: set[int]
) -> None:
    code = tmp_path / "old.py"
    code.write_text(OLD_NAMES)
    status, out, _ = in_process(capsys, "scan", str(code), "--target", target, "--json")
    assert status == 2
    findings = json.loads(out)["findings"]
    by_line = {x["location"]["line"]: x for x in findings}
    renamed = {3: "tf.random.normal", 4: "tf.math.log", 5: "tf.math.divide_no_nan"}
    for line, idiom in renamed.items():
        assert by_line[line]["id"] == "scan.api-moved-to-compat-v1"
        assert f"Use {idiom}" in by_line[line]["fix"]["text"]
    gone = {x["location"]["line"] for x in findings if x["id"] == "scan.api-removed"}
    assert gone == removed
    assert f"TensorFlow {target}" in by_line[7]["detail"]
    # Names with a rule of their own get its replacement, from the release it names.
    assert by_line[6]["id"] == "scan.keras-multi-gpu-model"
    assert "MirroredStrategy" in by_line[6]["fix"]["text"]
    assert (by_line.get(8) or {}).get("id") == (
        "scan.keras-scikit-learn-wrappers" if target == "2.15" else None
    )
    assert f"the Keras {target}.0 of TensorFlow {target}" in by_line[9]["detail"]
