"""``tfdoctor matrix`` end to end, in real subprocesses: JSON, queries, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import factories as f
from tests.test_cli import tfdoctor, write_facts
from tests.test_matrix import VALID_MATRIX
from tfdoctor.compat import Target, describe_target, driver_floor, evaluate, ptx_driver_floor
from tfdoctor.matrix import MATRIX_ENV, Matrix, TFLine, load_matrix

#: The bundled matrix, read without $TFDOCTOR_MATRIX (the subprocesses run without it too).
MATRIX = load_matrix(env={})
CLEAN_ENV = {MATRIX_ENV: ""}


def expected_json(matrix: Matrix, line: TFLine) -> dict[str, Any]:
    """What ``tfdoctor matrix --json`` must say about ``line`` when nothing is asked."""
    linux = driver_floor(matrix, line, "linux")
    windows = driver_floor(matrix, line, "windows")
    ptx = ptx_driver_floor(matrix, line, "linux")
    caps = line.compute_capabilities
    return {
        "tensorflow": line.line,
        "latest_patch": line.latest_patch,
        "requires_python": line.requires_python,
        "python": list(line.python["linux-x86_64"]),
        "python_by_platform": {k: list(v) for k, v in line.python.items()},
        "glibc_min": line.glibc_min,
        "cuda": line.cuda,
        "cudnn": line.cudnn,
        "min_driver_linux": linux.version if linux else None,
        "min_driver_windows": windows.version if windows and line.windows_native_gpu else None,
        "min_driver_ptx_linux": ptx.version if ptx else None,
        "compute_capabilities": None
        if caps is None
        else {"sass": [*caps.sass], "ptx": [*caps.ptx]},
        "numpy": line.pins.numpy,
        "protobuf": line.pins.protobuf,
        "keras": line.pins.keras,
        "tf_keras": line.pins.tf_keras,
        "ml_dtypes": line.pins.ml_dtypes,
        "and_cuda": None if line.and_cuda is None else dict(line.and_cuda),
        "gpu_package": dict(line.gpu_package),
        "cuda_builds": list(line.cuda_builds),
        "known_gpu_failures": dict(line.known_gpu_failures),
        "windows_native_gpu": line.windows_native_gpu,
        "wrappers": dict(line.wrappers),
        # Nothing asked: every line with a Linux x86-64 wheel fits, as plain tensorflow.
        "fits": True,
        "reasons": [],
        "caveats": list(evaluate(matrix, line, Target()).notes),
        "install": f"tensorflow=={line.latest_patch}",
        "notes": list(line.notes),
        "sources": {
            fact: [matrix.sources[s].url_for(line) for s in ids]
            for fact, ids in sorted(line.sources.items())
        },
    }


def test_json_lists_every_line_as_the_matrix_says() -> None:
    out = tfdoctor("matrix", "--json", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    data = json.loads(out.stdout)
    assert isinstance(data, list)
    assert [d["tensorflow"] for d in data] == [e.line for e in MATRIX.lines]
    for obj in data:
        assert isinstance(obj["windows_native_gpu"], bool)
        assert all(p.startswith("3.") for p in obj["python"])
        assert obj["compute_capabilities"] is None or set(obj["compute_capabilities"]) == {
            "sass",
            "ptx",
        }
    by_line = {d["tensorflow"]: d for d in data}
    tf216 = by_line["2.16"]
    assert (tf216["latest_patch"], tf216["cuda"], tf216["cudnn"]) == ("2.16.2", "12.3", "8.9")
    assert tf216["min_driver_linux"] == "525.60.13"
    assert tf216["python"] == ["3.9", "3.10", "3.11", "3.12"]
    for line in MATRIX.lines:
        assert by_line[line.line] == expected_json(MATRIX, line), line.line


def test_python_query_json_fits_only_lines_with_wheels() -> None:
    out = tfdoctor("matrix", "--python", "3.12", "--platform", "linux", "--json", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    fits = {d["tensorflow"]: d["fits"] for d in data}
    assert fits == {e.line: "3.12" in e.python["linux-x86_64"] for e in MATRIX.lines}
    assert fits["2.21"] and not fits["2.15"]
    for obj in data:
        if not obj["fits"]:
            assert obj["install"] is None
            assert obj["reasons"] and "Python 3.12" in obj["reasons"][0]
    assert data[0]["install"] == "tensorflow==2.21.0"


def test_python_query_text_lists_the_excluded_lines() -> None:
    out = tfdoctor("matrix", "--python", "3.12", "--platform", "linux", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("TensorFlow for Python 3.12 on linux-x86_64\n")
    assert 'Newest fit: pip install "tensorflow==2.21.0"' in text
    excluded = text.split("\nExcluded:\n", 1)[1]
    assert "no wheel for Python 3.12 on linux-x86_64 (Python 3.9-3.11)" in excluded
    assert "2.15" in excluded and "2.21" not in excluded
    assert "\x1b[" not in text


@pytest.mark.parametrize(
    ("target", "text"),
    [
        pytest.param(Target(), "", id="nothing-asked"),
        pytest.param(Target(platform="macos-arm64"), "macos-arm64", id="platform-only"),
        pytest.param(
            Target("3.10", "linux-x86_64", "12.3", "470.82.01", "8.6"),
            "Python 3.10 on linux-x86_64, CUDA 12.3, driver 470.82.01, GPU compute capability 8.6",
            id="everything",
        ),
        pytest.param(Target(python="3.9", driver="535.54"), "Python 3.9, driver 535.54", id="gap"),
    ],
)
def test_describe_target(target: Target, text: str) -> None:
    assert describe_target(target) == text


def test_query_nothing_fits_exits_2() -> None:
    out = tfdoctor("matrix", "--python", "3.14", "--platform", "linux", env=CLEAN_ENV)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stdout.startswith("TensorFlow for Python 3.14 on linux-x86_64: no release fits")
    assert "Newest fit" not in out.stdout
    assert out.stderr == ""


def test_gpu_model_name() -> None:
    out = tfdoctor("matrix", "--gpu", "Tesla K80", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("TensorFlow for GPU compute capability 3.7\n")
    # Kepler machine code (sm_35) ended with 2.14, a CUDA 11.8 build.
    assert 'Newest fit: pip install "tensorflow[and-cuda]==2.14.1"' in out.stdout
    assert "no GPU code for compute capability 3.7" in out.stdout


def _broken_matrix(tmp_path: Path) -> Path:
    bad = tmp_path / "broken.yaml"
    bad.write_text(VALID_MATRIX.replace("schema_version: 1", "schema_version: 2"), "utf-8")
    return bad


@pytest.mark.parametrize(
    ("args", "use_env", "message"),
    [
        pytest.param(
            ("--python", "abc"),
            False,
            "--python abc: expected a CPython 3 version such as 3.11",
            id="python",
        ),
        pytest.param(
            ("--platform", "beos"),
            False,
            "--platform beos: expected one of linux, macos, windows, linux-x86_64, "
            "linux-aarch64, macos-x86_64, macos-arm64, windows-x86_64",
            id="platform",
        ),
        pytest.param(("--gpu", "Voodoo 5"), False, "--gpu Voodoo 5: unknown GPU model", id="gpu"),
        pytest.param(
            ("--driver", "x"),
            False,
            "--driver x: expected a driver version such as 470.82.01",
            id="driver",
        ),
        pytest.param(
            ("--matrix", "{missing}"),
            False,
            "{missing}: cannot read the matrix: No such file or directory",
            id="missing-matrix",
        ),
        pytest.param(
            (),
            True,
            "{broken}:1: schema_version: 2 is not supported (this tfdoctor reads 1)",
            id="malformed-matrix-from-env",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_3(
    tmp_path: Path, args: tuple[str, ...], use_env: bool, message: str
) -> None:
    names = {"missing": str(tmp_path / "missing.yaml"), "broken": str(_broken_matrix(tmp_path))}
    env = {MATRIX_ENV: names["broken"] if use_env else ""}
    out = tfdoctor("matrix", *(a.format(**names) for a in args), env=env)
    assert out.returncode == 3, out.stdout + out.stderr
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"tfdoctor: error: {message.format(**names)}"), lines[0]


def test_check_with_a_malformed_matrix_exits_3(tmp_path: Path) -> None:
    facts = write_facts(tmp_path, f.facts())
    bad = _broken_matrix(tmp_path)
    out = tfdoctor("check", "--matrix", str(bad), "--facts", str(facts), env=CLEAN_ENV)
    assert out.returncode == 3, out.stdout + out.stderr
    assert out.stdout == ""
    assert out.stderr == (
        f"tfdoctor: error: {bad}:1: schema_version: 2 is not supported (this tfdoctor reads 1)\n"
    )


def test_matrix_option_wins_over_the_environment(tmp_path: Path) -> None:
    alternative = tmp_path / "alternative.yaml"
    alternative.write_text(
        VALID_MATRIX.replace('line: "2.15"', 'line: "9.9"').replace('"2.15.1"', '"9.9.0"'),
        encoding="utf-8",
    )
    env = {MATRIX_ENV: str(_broken_matrix(tmp_path))}
    out = tfdoctor("matrix", "--matrix", str(alternative), "--json", env=env)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [d["tensorflow"] for d in data] == ["9.9", "2.0"]
    assert data[0]["latest_patch"] == "9.9.0"
    assert data[0]["sources"]["cuda"] == ["https://pypi.org/project/tensorflow/9.9.0/"]
