"""``tfdoctor matrix`` end to end, in real subprocesses: JSON, queries, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import factories as f
from tests.commandline import tfdoctor, write_facts
from tests.test_matrix import VALID_MATRIX
from tfdoctor.compat import Target, describe_target, newest_fit
from tfdoctor.matrix import DEFAULT_MATRIX, MATRIX_ENV, load_matrix

#: The bundled matrix, read without $TFDOCTOR_MATRIX (the subprocesses run without it too).
MATRIX = load_matrix(env={})
CLEAN_ENV = {MATRIX_ENV: ""}


#: The keys of every object ``tfdoctor matrix --json`` prints (documented in
#: docs/compatibility.md).
JSON_KEYS = {
    "tensorflow", "latest_patch", "requires_python", "python", "python_by_platform",
    "glibc_min", "cuda", "cudnn", "min_driver_linux", "min_driver_windows",
    "min_driver_ptx_linux", "compute_capabilities", "numpy", "protobuf", "keras", "tf_keras",
    "ml_dtypes", "and_cuda", "gpu_package", "cuda_builds", "windows_native_gpu", "wrappers",
    "fits", "reasons", "caveats", "install", "known_gpu_failures", "notes", "sources",
    "pre_release",
}  # fmt: skip

#: Values read off the wheels and NVIDIA's driver tables, for a few lines.
SPOT_VALUES: dict[str, dict[str, Any]] = {
    "2.16": {
        "latest_patch": "2.16.2",
        "cuda": "12.3",
        "cudnn": "8.9",
        "min_driver_linux": "525.60.13",
        "min_driver_windows": None,
        "min_driver_ptx_linux": "545.23.06",
        "windows_native_gpu": False,
        "python": ["3.9", "3.10", "3.11", "3.12"],
        "install": "tensorflow==2.16.2",
    },
    "2.10": {
        "cuda": "11.2",
        "min_driver_linux": "450.80.02",
        "min_driver_windows": "452.39",
        "windows_native_gpu": True,
        "cuda_builds": ["linux-x86_64", "windows-x86_64"],
    },
    "1.15": {
        "cuda": "10.0",
        "cudnn": "7.6",
        "min_driver_linux": "410.48",
        "min_driver_windows": "411.31",
        "gpu_package": {"linux": "tensorflow-gpu", "windows": "tensorflow-gpu", "macos": None},
        "install": "tensorflow==1.15.5",
    },
}


def json_line_faults(obj: dict[str, Any]) -> list[str]:
    """What is wrong with one line of ``matrix --json`` asked nothing: its keys, a line that
    does not fit as plain tensorflow (every line has a Linux x86-64 wheel), Python versions,
    driver floors that disagree with its CUDA builds, value types, sources."""
    caps = obj.get("compute_capabilities")
    urls = [url for urls in obj.get("sources", {}).values() for url in urls]
    checks = {
        "keys": set(obj) == JSON_KEYS,
        "fits": (obj["fits"], obj["reasons"]) == (True, []),
        "install": obj["install"] == f"tensorflow=={obj['latest_patch']}",
        "python": bool(obj["python"])
        and all(p.startswith("3.") for p in obj["python"])
        and obj["python"] == obj["python_by_platform"]["linux-x86_64"],
        "windows_native_gpu": isinstance(obj["windows_native_gpu"], bool)
        and obj["windows_native_gpu"] == ("windows-x86_64" in obj["cuda_builds"]),
        # A Windows driver floor only where native Windows gets a CUDA build.
        "min_driver_windows": (obj["min_driver_windows"] is not None)
        == (obj["windows_native_gpu"] and obj["cuda"] is not None),
        "min_driver_linux": (obj["cuda"] is None) == (obj["min_driver_linux"] is None),
        "types": all(
            obj[key] is None or isinstance(obj[key], str)
            for key in ("cuda", "cudnn", "min_driver_linux", "min_driver_ptx_linux", "numpy")
        )
        and (obj["and_cuda"] is None or isinstance(obj["and_cuda"], dict)),
        "compute_capabilities": caps is None or (set(caps) == {"sass", "ptx"} and caps["sass"]),
        "sources": bool(urls) and all(u.startswith("https://") and "{" not in u for u in urls),
    }
    return [f"{obj['tensorflow']}: {what}" for what, ok in checks.items() if not ok]


def test_json_lists_every_line_as_the_matrix_says() -> None:
    out = tfdoctor("matrix", "--json", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    data = json.loads(out.stdout)
    assert isinstance(data, list)
    assert [d["tensorflow"] for d in data] == [e.line for e in MATRIX.lines]
    assert [fault for obj in data for fault in json_line_faults(obj)] == []
    by_line = {d["tensorflow"]: d for d in data}
    for name, values in SPOT_VALUES.items():
        assert {k: by_line[name][k] for k in values} == values, name
    # Planted: a Windows floor on a line without a native Windows build, an unfilled source.
    obj = next(d for d in data if not d["windows_native_gpu"] and d["cuda"])
    name = obj["tensorflow"]
    floor = {**obj, "min_driver_windows": "527.41"}
    assert json_line_faults(floor) == [f"{name}: min_driver_windows"]
    unfilled = {**obj, "sources": {"cuda": ["https://pypi.org/project/{name}"]}}
    assert json_line_faults(unfilled) == [f"{name}: sources"]
    assert json_line_faults({**obj, "colour": "blue"}) == [f"{name}: keys"]


def test_python_query_json_fits_only_lines_with_wheels() -> None:
    out = tfdoctor(
        "matrix", "--python-version", "3.12", "--platform", "linux", "--json", env=CLEAN_ENV
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    fits = {d["tensorflow"]: d["fits"] for d in data}
    assert fits == {e.line: "3.12" in e.python["linux-x86_64"] for e in MATRIX.lines}
    assert fits["2.21"] and not fits["2.15"]
    for obj in data:
        if not obj["fits"]:
            assert obj["install"] is None
            assert obj["reasons"] and "Python 3.12" in obj["reasons"][0]
    best = newest_fit(MATRIX, Target(python="3.12", platform="linux-x86_64"))
    assert best is not None
    first_release = next(d for d in data if d["fits"] and not d["pre_release"])
    assert first_release["install"] == f"tensorflow=={best.line.latest_patch}"


def test_python_query_text_lists_the_excluded_lines() -> None:
    out = tfdoctor("matrix", "--python-version", "3.12", "--platform", "linux", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("TensorFlow for Python 3.12 on linux-x86_64\n")
    best = newest_fit(MATRIX, Target(python="3.12", platform="linux-x86_64"))
    assert best is not None
    assert f'Newest fit: pip install "tensorflow=={best.line.latest_patch}"' in text
    excluded = text.split("\nExcluded:\n", 1)[1]
    assert "no wheel for Python 3.12 on linux-x86_64 (Python 3.9-3.11)" in excluded
    assert "2.15" in excluded and f"{best.line.line}:" not in excluded
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
    # A Python newer than every wheel of every line.
    newest = max(int(p.split(".")[1]) for e in MATRIX.lines for p in e.python["linux-x86_64"])
    python = f"3.{newest + 1}"
    out = tfdoctor("matrix", "--python-version", python, "--platform", "linux", env=CLEAN_ENV)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stdout.startswith(f"TensorFlow for Python {python} on linux-x86_64: no release fits")
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
            ("--python-version", "abc"),
            False,
            "--python-version abc: expected a CPython 3 version such as 3.11",
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


def _with_pre_release(tmp_path: Path) -> tuple[str, Path]:
    """The shipped matrix with a pre-release of the next line on top: (its line, the file)."""
    major, minor = MATRIX.lines[0].key
    name = f"{major}.{minor + 1}"
    grown = tmp_path / "pre.yaml"
    text = f.with_release(DEFAULT_MATRIX.read_text(encoding="utf-8"), f"{name}.0rc0")
    grown.write_text(text, encoding="utf-8")
    return name, grown


def test_a_pre_release_line_is_marked_and_never_the_newest_fit(tmp_path: Path) -> None:
    name, grown = _with_pre_release(tmp_path)
    newest = load_matrix(str(grown), env={}).newest_release
    assert newest is not None
    out = tfdoctor("matrix", "--matrix", str(grown), "--python-version", "3.11", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    assert f"Pre-release: {name} ({name}.0rc0); not recommended" in out.stdout
    assert f'Newest fit: pip install "tensorflow=={newest.latest_patch}"' in out.stdout
    data = json.loads(tfdoctor("matrix", "--matrix", str(grown), "--json", env=CLEAN_ENV).stdout)
    assert [d["tensorflow"] for d in data if d["pre_release"]] == [name]


# --- companions -----------------------------------------------------------------------------------


def test_which_companion_release_for_a_tensorflow_line_names_it_its_spec_and_sources() -> None:
    out = tfdoctor(
        "matrix", "--companion", "tensorflow-text", "--tensorflow", "2.21", env=CLEAN_ENV
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "tensorflow-text for TensorFlow 2.21"
    assert "tensorflow-text 2.21: tensorflow<2.22,>=2.21.0 (TensorFlow lines: 2.21)" in out.stdout
    assert '  pip install "tensorflow-text==2.21.*"' in out.stdout
    assert "https://github.com/tensorflow/text" in out.stdout


def test_which_tensorflow_for_a_companion_release_is_the_reverse_question() -> None:
    out = tfdoctor("matrix", "--companion", "tensorflow-text==2.20", "--json", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["companion"], data["release"], data["tensorflow"]) == (
        "tensorflow-text",
        "2.20",
        None,
    )
    (match,) = data["matches"]
    assert match["tensorflow"] == "<2.21,>=2.20.0"
    assert match["tensorflow_lines"] == ["2.20"]
    assert match["install"] == "tensorflow-text==2.20.*"
    assert match["sources"] and all(u.startswith("https://") for u in match["sources"])
    assert set(match["sources"]) <= set(data["sources"])


def test_a_companion_whose_patches_pin_different_tensorflow_releases_lists_each() -> None:
    out = tfdoctor(
        "matrix",
        "--companion",
        "tensorflow-decision-forests",
        "--tensorflow",
        "2.17",
        "--json",
        env=CLEAN_ENV,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [(m["release"], m["tensorflow"], m["install"]) for m in data["matches"]] == [
        ("1.10.1", "==2.17.1", "tensorflow-decision-forests==1.10.1"),
        ("1.10.0", "==2.17.0", "tensorflow-decision-forests==1.10.0"),
    ]


def test_an_end_of_life_companion_with_no_release_for_the_tensorflow_exits_2() -> None:
    out = tfdoctor(
        "matrix", "--companion", "tensorflow-addons", "--tensorflow", "2.21", env=CLEAN_ENV
    )
    assert out.returncode == 2, out.stderr
    assert "no release known" in out.stdout.splitlines()[0]
    assert "End of life: TensorFlow Addons reached its end of life" in out.stdout
    assert "https://github.com/tensorflow/addons" in out.stdout  # where to look further


def test_a_pre_release_line_asked_for_by_name_gets_the_companions_pre_release(
    tmp_path: Path,
) -> None:
    # tensorflow-text X.Y is released for TensorFlow X.Y (its README): before either is final,
    # only a specifier naming a pre-release installs it (PEP 440).
    name, grown = _with_pre_release(tmp_path)
    major, minor = name.split(".")
    asked = ("matrix", "--matrix", str(grown), "--companion", "tensorflow-text")
    out = tfdoctor(*asked, "--tensorflow", name, "--json", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    (match,) = json.loads(out.stdout)["matches"]
    assert match["install"] == f"tensorflow-text>={name}.0rc0,<{major}.{int(minor) + 1}"
    assert match["tensorflow_lines"] == [name]
    listed = json.loads(tfdoctor(*asked, "--json", env=CLEAN_ENV).stdout)["matches"]
    assert name not in [x for m in listed for x in m["tensorflow_lines"]]


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("--companion", "tensorflow-nothing"), id="unknown-companion"),
        pytest.param(("--companion", "tensorflow-text==two"), id="malformed-release"),
        pytest.param(
            ("--companion", "tensorflow-text", "--tensorflow", "latest"), id="malformed-tf"
        ),
        pytest.param(("--tensorflow", "2.21"), id="tensorflow-without-companion"),
        pytest.param(
            ("--companion", "tensorflow-text", "--python-version", "3.11"), id="with-a-target"
        ),
    ],
)
def test_a_bad_companion_query_is_exit_3_with_one_line(args: tuple[str, ...]) -> None:
    out = tfdoctor("matrix", *args, env=CLEAN_ENV)
    assert out.returncode == 3
    assert out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith("tfdoctor: error: ")


def test_pre_lets_a_pre_release_line_be_the_newest_fit(tmp_path: Path) -> None:
    name, grown = _with_pre_release(tmp_path)
    asked = ("matrix", "--matrix", str(grown), "--python-version", "3.11")
    out = tfdoctor(*asked, "--pre", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    assert f'Newest fit: pip install "tensorflow=={name}.0rc0"' in out.stdout
    assert f"Pre-release: {name} ({name}.0rc0); for testing." in out.stdout
    assert f"{name}.0rc0" not in tfdoctor(*asked, env=CLEAN_ENV).stdout.split("Newest fit")[1]


def test_a_package_the_wheel_pins_is_answered_from_the_matrix_both_ways() -> None:
    # tf-keras is paired with each line by the matrix (pins.tf_keras), not the companion table.
    line = next(x for x in MATRIX.releases if x.pins.tf_keras)
    out = tfdoctor(
        "matrix", "--companion", "tf_keras", "--tensorflow", line.line, "--json", env=CLEAN_ENV
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["pinned"] is True
    (match,) = data["matches"]
    assert match["release"] == line.pins.tf_keras
    assert match["install"] == f"tf-keras{line.pins.tf_keras}"
    assert match["tensorflow_lines"] == [line.line] and match["sources"]
    back = tfdoctor("matrix", "--companion", f"tf-keras=={line.line}", "--json", env=CLEAN_ENV)
    assert back.returncode == 0, back.stderr
    assert [m["tensorflow_lines"] for m in json.loads(back.stdout)["matches"]] == [[line.line]]


def test_lines_pinning_one_range_are_answered_as_one_run() -> None:
    out = tfdoctor("matrix", "--companion", "numpy", "--json", env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    matches = json.loads(out.stdout)["matches"]
    served = [line for m in matches for line in m["tensorflow_lines"]]
    pinning = [x.line for x in MATRIX.releases if x.pins.numpy]
    assert served == pinning  # each line once, newest first
    for m in matches:
        specs = {MATRIX.line_for(line).pins.numpy for line in m["tensorflow_lines"]}  # type: ignore[union-attr]
        assert specs == {m["release"]}
