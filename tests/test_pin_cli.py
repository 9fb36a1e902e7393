"""`tfdoctor pin` and `check --against` end to end, in real subprocesses on this environment."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement

from tests import factories as f
from tests.commandline import ROOT, tfdoctor, write_facts
from tests.fakeenv import make_env
from tests.test_pin import gpu_facts, requirement_lines
from tfdoctor.facts import normalize_name


def installed_closure(root: str, site: Path) -> dict[str, str]:
    """``root``'s installed dependency closure in ``site``, read with importlib.metadata."""
    env = {str(k): str(v) for k, v in default_environment().items()}
    dists = {
        normalize_name(d.metadata["Name"]): d
        for d in importlib.metadata.distributions(path=[str(site)])
    }
    seen: dict[str, str] = {}
    todo = [root]
    while todo:
        name = normalize_name(todo.pop())
        if name in seen or name not in dists:
            continue
        seen[name] = dists[name].version
        for text in dists[name].requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
                todo.append(req.name)
    return seen


_LIST_DISTRIBUTIONS = (
    "import importlib.metadata as m, json\n"
    "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))\n"
)


def pins_of(text: str) -> dict[str, str]:
    out = {}
    for line in requirement_lines(text):
        req = Requirement(line)
        (spec,) = req.specifier
        assert spec.operator == "==", line
        out[normalize_name(req.name)] = spec.version
    return out


def test_environment_mode_pins_tensorflows_installed_closure(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    # Not in TensorFlow's closure: an unrelated distribution and TensorBoard (not required
    # since 2.21) stay out.
    env.install("colorama", "0.4.6")
    out = tfdoctor("pin", "--python", env.python)
    assert out.returncode == 0, out.stderr
    pinned = pins_of(out.stdout)
    assert pinned == installed_closure("tensorflow", env.site)
    assert pinned["tensorflow"] == "2.21.0" and "six" in pinned
    assert "colorama" not in pinned and "tensorboard" not in pinned


def test_all_mode_pins_every_distribution_and_comments_out_an_editable_one(
    tmp_path: Path,
) -> None:
    env = make_env(tmp_path)
    env.install("colorama", "0.4.6")
    env.install("mylib", "0.1.0")
    (info,) = env.site.glob("mylib-0.1.0.dist-info")
    source = (tmp_path / "src" / "mylib").as_uri()
    direct = {"url": source, "dir_info": {"editable": True}}
    (info / "direct_url.json").write_text(json.dumps(direct), encoding="utf-8")
    out = tfdoctor("pin", "--all", "--python", env.python)
    assert out.returncode == 0, out.stderr
    assert "file://" not in out.stdout and " @ " not in out.stdout
    pinned = pins_of(out.stdout)
    # Every distribution the examined interpreter sees, as it sees them: the same environment,
    # and a script run by path as the doctor's probe is (``-c`` would put the working
    # directory, and a checkout's egg-info, on the path).
    lister = tmp_path / "list_distributions.py"
    lister.write_text(_LIST_DISTRIBUTIONS, encoding="utf-8")
    seen = subprocess.run(
        [env.python, str(lister)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    every = {normalize_name(k): v for k, v in json.loads(seen.stdout).items()}
    assert every.pop("mylib") == "0.1.0" and "colorama" in every
    assert pinned == every
    # An editable install cannot be reproduced from an index: it is named, commented out.
    assert "# mylib==0.1.0" in out.stdout


def test_output_file_is_written_and_replaces_the_old_one(tmp_path: Path) -> None:
    target = tmp_path / "requirements.txt"
    target.write_text("old\n", encoding="utf-8")
    facts = write_facts(tmp_path, gpu_facts())
    out = tfdoctor("pin", "--facts", str(facts), "-o", str(target))
    assert out.returncode == 0, out.stderr
    assert out.stdout == ""
    text = target.read_text(encoding="utf-8")
    assert f"#    tfdoctor pin --facts {facts} -o {target}" in text
    assert "tensorflow[and-cuda]==2.21.0" in text.splitlines()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["facts.json", "requirements.txt"]


def test_header_shows_paths_relative_to_the_directory_and_home(tmp_path: Path) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    (work / "reports").mkdir(parents=True)
    (home / "locks").mkdir(parents=True)
    facts = write_facts(work / "reports", gpu_facts())
    env = {"HOME": str(home), "PYTHONPATH": str(ROOT)}
    out = tfdoctor(
        "pin", "--facts", str(facts), "-o", str(home / "locks" / "my pins.txt"), cwd=work, env=env
    )
    assert out.returncode == 0, out.stderr
    text = (home / "locks" / "my pins.txt").read_text(encoding="utf-8")
    assert "#    tfdoctor pin --facts reports/facts.json -o ~/'locks/my pins.txt'\n" in text
    assert str(tmp_path) not in text


def test_unwritable_output_fails_with_one_line_and_leaves_the_file(tmp_path: Path) -> None:
    target = tmp_path / "requirements.txt"
    target.mkdir()  # a directory where the file should go: the final rename fails
    out = tfdoctor("pin", "--facts", str(write_facts(tmp_path, gpu_facts())), "-o", str(target))
    assert out.returncode == 3
    assert out.stdout == ""
    assert out.stderr.startswith("tfdoctor: error: cannot write") and out.stderr.count("\n") == 1
    assert target.is_dir() and not any(p.name.endswith(".tmp") for p in tmp_path.iterdir())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_output_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "requirements.txt"
    os.mkfifo(fifo)
    out = tfdoctor("pin", "--facts", str(write_facts(tmp_path, gpu_facts())), "-o", str(fifo))
    assert out.returncode == 3
    assert out.stderr == f"tfdoctor: error: cannot write {fifo}: not a regular file\n"
    assert fifo.is_fifo()


def test_output_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "requirements.txt"
    link.symlink_to(real)
    out = tfdoctor("pin", "--facts", str(write_facts(tmp_path, gpu_facts())), "-o", str(link))
    assert out.returncode == 0, out.stderr
    assert link.is_symlink()
    assert "tensorflow[and-cuda]==2.21.0" in real.read_text(encoding="utf-8").splitlines()


def test_nothing_fits_exits_2_and_says_why() -> None:
    out = tfdoctor("pin", "--python-version", "3.11", "--platform", "windows", "--gpu", "8.6")
    assert out.returncode == 2
    assert out.stdout == ""
    assert "no TensorFlow release fits Python 3.11 on windows-x86_64" in out.stderr
    assert "WSL2" in out.stderr


def test_target_mode_prints_parseable_pins() -> None:
    out = tfdoctor(
        "pin", "--python-version", "3.10", "--platform", "linux", "--driver", "470.82.01"
    )
    assert out.returncode == 0, out.stderr
    assert "# Target driver: 470.82.01 (given)" in out.stdout
    for line in requirement_lines(out.stdout):
        Requirement(line)


@pytest.mark.parametrize(
    ("python", "tensorflow", "tensorrt"),
    [
        pytest.param("3.10", "tensorflow[and-cuda]==2.14.1", True, id="py3.10-keeps-the-extra"),
        # TensorRT 8.5 has no Python 3.11 wheel (tensorflow/tensorflow#61986).
        pytest.param("3.11", "tensorflow==2.14.1", False, id="py3.11-pins-the-extra-by-hand"),
    ],
)
def test_tensorflow_2_14_for_driver_470(python: str, tensorflow: str, tensorrt: bool) -> None:
    out = tfdoctor(
        "pin", "--python-version", python, "--platform", "linux", "--driver", "470.82.01"
    )
    assert out.returncode == 0, out.stderr
    reqs = {normalize_name(r.name): r for r in map(Requirement, requirement_lines(out.stdout))}
    assert tensorflow in out.stdout.splitlines()
    assert str(reqs["nvidia-cudnn-cu11"]) == 'nvidia-cudnn-cu11==8.7.0.84; sys_platform == "linux"'
    assert ("tensorrt" in reqs) is tensorrt
    assert ("# WARNING: tensorrt==8.5.3.1" in out.stdout) is not tensorrt
    assert ("tensorflow/tensorflow/issues/61986" in out.stderr) is not tensorrt


def test_no_tensorflow_exits_2(tmp_path: Path) -> None:
    only_numpy = f.facts(packages=(f.pkg("numpy", "1.26.4"),), packages_complete=True)
    out = tfdoctor("pin", "--facts", str(write_facts(tmp_path, only_numpy)))
    assert out.returncode == 2
    assert out.stdout == ""
    assert "no TensorFlow distribution is installed" in out.stderr


def test_cuda_mismatch_warns_on_stderr_and_in_the_file(tmp_path: Path) -> None:
    out = tfdoctor("pin", "--facts", str(write_facts(tmp_path, gpu_facts("8.9.7.29"))))
    assert out.returncode == 0
    assert "tfdoctor: warning:" in out.stderr and "nvidia-cudnn-cu12" in out.stderr
    assert "# WARNING:" in out.stdout
    assert "tensorflow==2.21.0" in out.stdout.splitlines()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ("--all", "--python-version", "3.10"), "cannot be combined", id="all-and-target"
        ),
        pytest.param(("--python-version", "two"), "--python-version two", id="bad-python"),
        pytest.param(("--gpu", "Voodoo 3"), "unknown GPU model", id="bad-gpu"),
        pytest.param(("--python", "/nonexistent/python"), "no such interpreter", id="no-py"),
        pytest.param(
            ("--facts", "r.json", "--python", "python3"),
            "--facts and --python both say which environment to read",
            id="facts-and-python",
        ),
        pytest.param(("--facts", "/nonexistent.json"), "cannot read facts file", id="no-facts"),
    ],
)
def test_bad_input_exits_3_with_one_line(args: tuple[str, ...], message: str) -> None:
    out = tfdoctor("pin", *args)
    assert out.returncode == 3, out.stderr
    assert out.stdout == ""
    assert message in out.stderr and out.stderr.count("\n") == 1


def test_hashes_for_a_target_are_refused_without_the_network() -> None:
    out = tfdoctor("pin", "--python-version", "3.11", "--hashes")
    assert out.returncode == 3
    assert "exact versions" in out.stderr


# --- check --against --------------------------------------------------------------------------


def test_check_against_reports_drift_as_findings(tmp_path: Path) -> None:
    pins = tmp_path / "requirements.txt"
    pins.write_text("tensorflow==2.15.1\nnumpy==2.1.0\nsix==1.17.0\n", encoding="utf-8")
    facts = write_facts(tmp_path, f.facts(packages_complete=True))
    out = tfdoctor(
        "check", "packages.drift", "--facts", str(facts), "--against", str(pins), "--json"
    )
    assert out.returncode == 0, out.stderr
    found = [(x["severity"], x["summary"]) for x in json.loads(out.stdout)["findings"]]
    assert found == [
        ("warning", "numpy 1.26.4 is installed; the requirements pin numpy==2.1.0"),
        ("warning", "six is pinned (six==1.17.0) but not installed"),
    ]


def test_check_against_a_report_of_tensorflows_packages_is_unknown(tmp_path: Path) -> None:
    # A plain `check --json` lists TensorFlow's family only: it cannot say six is missing.
    pins = tmp_path / "requirements.txt"
    pins.write_text("numpy==1.26.4\nsix==1.17.0\n", encoding="utf-8")
    facts = write_facts(tmp_path, f.facts())
    out = tfdoctor(
        "check", "packages.drift", "--facts", str(facts), "--against", str(pins), "--json"
    )
    (finding,) = json.loads(out.stdout)["findings"]
    assert finding["severity"] == "unknown", finding
    assert "lists only TensorFlow's packages" in finding["summary"]


def test_a_saved_check_against_report_replays_through_pin(tmp_path: Path) -> None:
    pins = tmp_path / "requirements.txt"
    pins.write_text("six\n", encoding="utf-8")
    report = tfdoctor("check", "packages.drift", "--static", "--against", str(pins), "--json")
    saved = tmp_path / "report.json"
    saved.write_text(report.stdout, encoding="utf-8")
    assert json.loads(report.stdout)["facts"]["packages_complete"] is True
    plain = tfdoctor("check", "python.bits", "--static", "--json")
    assert json.loads(plain.stdout)["facts"]["packages_complete"] is False
    out = tfdoctor("pin", "--facts", str(saved))
    site = next(Path(p) for p in sys.path if p.endswith("-packages") and Path(p).is_dir())
    if not any(importlib.metadata.distributions(name="tensorflow", path=[str(site)])):
        assert out.returncode == 2, out.stderr  # nothing of TensorFlow's to pin
        return
    assert out.returncode == 0, out.stderr
    assert pins_of(out.stdout) == installed_closure("tensorflow", site)


def test_pin_refuses_a_report_of_tensorflows_packages_only(tmp_path: Path) -> None:
    facts = dataclasses.replace(gpu_facts(), packages_complete=False)
    out = tfdoctor("pin", "--facts", str(write_facts(tmp_path, facts)))
    assert out.returncode == 3
    assert out.stdout == ""
    assert "this report lists only TensorFlow's packages" in out.stderr
    assert "tfdoctor check --json --against" in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        pytest.param("", "No requirement in {} applies to this environment", id="empty"),
        pytest.param(
            'pywin32==306 ; sys_platform == "win32"\n',
            "No requirement in {} applies to this environment",
            id="markers-false",
        ),
    ],
)
def test_check_against_a_file_that_compares_nothing_says_so(
    tmp_path: Path, text: str, summary: str
) -> None:
    pins = tmp_path / "requirements.txt"
    pins.write_text(text, encoding="utf-8")
    facts = write_facts(tmp_path, f.facts(packages_complete=True))
    out = tfdoctor("check", "--facts", str(facts), "--against", str(pins), "--json")
    found = [
        (x["severity"], x["summary"])
        for x in json.loads(out.stdout)["findings"]
        if x["id"] == "packages.drift"
    ]
    assert found == [("info", summary.format(pins))]


def test_against_runs_the_drift_check_even_when_the_ids_leave_it_out(tmp_path: Path) -> None:
    pins = tmp_path / "requirements.txt"
    pins.write_text("numpy==2.1.0\n", encoding="utf-8")
    facts = write_facts(tmp_path, f.facts(packages_complete=True))
    out = tfdoctor("check", "python.bits", "--facts", str(facts), "--against", str(pins), "--json")
    ids = [x["id"] for x in json.loads(out.stdout)["findings"]]
    assert ids == ["python.bits", "packages.drift"]


def test_check_against_its_own_pins_is_clean(tmp_path: Path) -> None:
    pins = tmp_path / "requirements.txt"
    out = tfdoctor("pin", "--all", "-o", str(pins))
    assert out.returncode == 0, out.stderr
    out = tfdoctor("check", "packages.drift", "--static", "--against", str(pins), "--json")
    (finding,) = json.loads(out.stdout)["findings"]
    assert finding["severity"] == "ok", finding


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param("-r base.txt", "-r includes another file", id="include"),
        pytest.param("numpy=1.0", "invalid requirement 'numpy=1.0': Expected", id="malformed"),
    ],
)
def test_check_against_a_bad_file_exits_3_with_one_line(
    tmp_path: Path, line: str, message: str
) -> None:
    pins = tmp_path / "requirements.txt"
    pins.write_text(f"numpy==1.26.4\n{line}\n", encoding="utf-8")
    out = tfdoctor("check", "--static", "--against", str(pins))
    assert out.returncode == 3
    assert out.stdout == ""
    assert f"{pins}:2: {message}" in out.stderr and out.stderr.count("\n") == 1


# --- the network (opt-in: -m network) ---------------------------------------------------------


@pytest.mark.network
def test_pinned_file_resolves_with_pip_in_a_fresh_venv(tmp_path: Path) -> None:
    pins = tmp_path / "requirements.txt"
    out = tfdoctor("pin", "-o", str(pins))
    assert out.returncode == 0, out.stderr
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    resolved = subprocess.run(
        [str(python), "-m", "pip", "install", "--dry-run", "--quiet", "-r", str(pins)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert resolved.returncode == 0, resolved.stdout + resolved.stderr


@pytest.mark.network
def test_hashes_come_from_the_package_index(tmp_path: Path) -> None:
    from tfdoctor.pin import PinEntry, Pinset
    from tfdoctor.pin.hashes import add_hashes

    hashed = add_hashes(Pinset("environment", (PinEntry("six", "==1.17.0"),)))
    (entry,) = hashed.entries
    # The wheel's and the sdist's digests, as PyPI published them (files never change).
    assert entry.hashes == (
        "sha256:4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274",
        "sha256:ff70335d468e7eb6ec65b95b99d3a2836546063f63acc5171de367e834932a81",
    )
