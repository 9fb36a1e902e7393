"""tfdoctor pin's core: environment closure, target pins, rendering, requirements files, drift."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import pytest
from packaging.requirements import Requirement

from tests import factories as f
from tests.golden import check_golden
from tfdoctor.checks import CHECKS, run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.compat import Target, make_target, newest_fit, tf_keras_requirement
from tfdoctor.facts import Facts, PackageFacts, SmokeDevice, SmokeFacts, SmokeResult, to_json
from tfdoctor.findings import Severity
from tfdoctor.matrix import PLATFORMS, Matrix, load_companions, load_matrix
from tfdoctor.pin import (
    CONFLICT,
    EDITABLE,
    PinEntry,
    PinError,
    Pinset,
    environment_pinset,
    needs_matrix,
    target_pinset,
)
from tfdoctor.pin.atomic import write_atomic
from tfdoctor.pin.hashes import HashError, add_hashes, parse_release_hashes
from tfdoctor.pin.reqfile import RequirementsError, parse_requirements
from tfdoctor.pin.service import PinOptions, make_pins
from tfdoctor.render.requirements import render_requirements

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "pin"


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix(str(ROOT / "compat_matrix.yaml"))


def requirement_lines(text: str) -> Iterator[str]:
    """Logical requirement lines of a requirements file: comments dropped, `\\` joined."""
    logical = text.replace("\\\n", " ")
    for line in logical.splitlines():
        stripped = line.split(" --hash=")[0].strip()
        if stripped and not stripped.startswith("#"):
            yield stripped


def render(pinset: Pinset) -> str:
    return render_requirements(
        pinset, version="0.1.0", date="2026-01-01", command="tfdoctor pin -o requirements.txt"
    )


# --- a GPU environment with the and-cuda wheels -----------------------------------------------

TF_221 = (
    "absl-py>=1.0.0",
    "numpy>=1.26.0",
    "protobuf<8.0.0,>=6.31.1",
    "keras>=3.12.0",
    'typing_extensions>=3.6.6; python_version < "3.12"',
    'nvidia-cublas-cu12<13.0,>=12.5.3.2; extra == "and-cuda"',
    'nvidia-cudnn-cu12<10.0,>=9.3.0.75; extra == "and-cuda"',
    'tensorflow-io-gcs-filesystem>=0.23.1; (sys_platform != "win32" and python_version < '
    '"3.13") and extra == "gcs-filesystem"',
)


def gpu_packages(cudnn: str = "9.3.0.75", *extra: PackageFacts) -> tuple[PackageFacts, ...]:
    return (
        f.pkg("tensorflow", "2.21.0", *TF_221, top_level=("tensorflow",)),
        f.pkg("absl-py", "2.1.0"),
        f.pkg("numpy", "2.1.3"),
        f.pkg("protobuf", "6.31.1"),
        f.pkg(
            "keras",
            "3.12.0",
            "absl-py",
            "numpy",
            "rich",
            'pytest; extra == "test"',
            'h5py ; python_version < "3.10" and extra == "hdf5"',
        ),
        f.pkg("rich", "14.0.0", "pygments<3.0.0,>=2.13.0", 'ipywidgets; extra == "jupyter"'),
        f.pkg("Pygments", "2.19.1"),
        f.pkg("typing_extensions", "4.12.2"),
        f.pkg("nvidia-cublas-cu12", "12.5.3.2"),
        f.pkg("nvidia-cudnn-cu12", cudnn, "nvidia-cublas-cu12"),
        f.pkg("requests", "2.32.3", "idna"),  # installed, not needed by TensorFlow
        f.pkg("idna", "3.10"),
        *extra,
    )


def gpu_facts(cudnn: str = "9.3.0.75", *extra: PackageFacts) -> Facts:
    tf = f.tensorflow(version="2.21.0", cuda_version="12.5.1", cudnn_version="9")
    return f.facts(packages=gpu_packages(cudnn, *extra), packages_complete=True, tensorflow=tf)


def test_environment_mode_golden() -> None:
    pinset = environment_pinset(gpu_facts())
    check_golden(DATA / "environment.txt", render(pinset))


def test_environment_mode_closure_and_via() -> None:
    pinset = environment_pinset(gpu_facts())
    names = [e.name for e in pinset.entries]
    assert names == sorted(names)
    # requests/idna are installed but not TensorFlow's; extras' requirements are not followed.
    assert "requests" not in names and "idna" not in names
    assert "pytest" not in names and "h5py" not in names and "ipywidgets" not in names
    assert pinset.entry("Pygments") == PinEntry("pygments", "==2.19.1", via=("rich",))
    assert pinset.entry("absl-py") is not None
    assert pinset.entry("absl-py").via == ("keras", "tensorflow")  # type: ignore[union-attr]
    tf = pinset.entry("tensorflow")
    assert tf is not None and tf.extras == ("and-cuda",) and tf.via == ()
    cudnn = pinset.entry("nvidia-cudnn-cu12")
    assert cudnn is not None and cudnn.via == ("tensorflow[and-cuda]",)
    assert pinset.entry("nvidia-cublas-cu12").via == (  # type: ignore[union-attr]
        "nvidia-cudnn-cu12",
        "tensorflow[and-cuda]",
    )
    assert pinset.warnings == ()


def test_markers_are_evaluated_for_the_examined_python() -> None:
    on_312 = environment_pinset(f.facts(python=f.python(version="3.12.4"), packages=gpu_packages()))
    assert on_312.entry("typing-extensions") is None
    assert environment_pinset(gpu_facts()).entry("typing-extensions") is not None


def test_cuda_wheels_outside_the_pins_warn_and_drop_the_extra() -> None:
    pinset = environment_pinset(gpu_facts("8.9.7.29"))
    tf = pinset.entry("tensorflow")
    assert tf is not None and tf.extras == ()
    cudnn = pinset.entry("nvidia-cudnn-cu12")
    assert cudnn is not None and cudnn.specifier == "==8.9.7.29" and CONFLICT in cudnn.flags
    assert any(
        "nvidia-cudnn-cu12<10.0,>=9.3.0.75" in w and "8.9.7.29" in w for w in pinset.warnings
    )
    assert any("without [and-cuda]" in w for w in pinset.warnings)
    # Nothing in the file requires tensorflow[and-cuda]: pip has nothing to refuse, and no
    # line may claim the extra pulled a wheel in.
    assert not any("pip will refuse" in w for w in pinset.warnings)
    text = render(pinset)
    assert "tensorflow[and-cuda]" not in "".join(requirement_lines(text))
    via_lines = [line for line in text.splitlines() if line.startswith("    #")]
    assert via_lines and not any(line.endswith(" tensorflow[and-cuda]") for line in via_lines)
    assert cudnn.via == ("tensorflow[and-cuda], not pinned (see the warning)",)


def test_a_conflict_between_pinned_packages_says_pip_will_refuse() -> None:
    old_rich = f.pkg("rich", "12.0.0", "pygments<3.0.0,>=2.13.0")
    packages = (*(p for p in gpu_packages() if p.name != "rich"), old_rich)
    keras = next(p for p in packages if p.name == "keras")
    strict_keras = dataclasses.replace(keras, requires=("rich>=13",))
    packages = tuple(strict_keras if p is keras else p for p in packages)
    pinset = environment_pinset(f.facts(packages=packages))
    assert pinset.warnings == (
        "keras requires rich>=13, but rich 12.0.0 is installed (pip will refuse these pins "
        "until that is fixed)",
    )
    assert pinset.entry("tensorflow").extras == ("and-cuda",)  # type: ignore[union-attr]


def test_cuda_wheels_not_installed_are_not_pinned_and_do_not_warn() -> None:
    cpu = tuple(p for p in gpu_packages() if not p.name.startswith("nvidia"))
    pinset = environment_pinset(f.cpu_only_machine(packages=cpu))
    assert pinset.entry("tensorflow").extras == ()  # type: ignore[union-attr]
    assert not any(e.name.startswith("nvidia") for e in pinset.entries)
    assert pinset.warnings == ()


def test_missing_dependency_is_a_warning() -> None:
    pinset = environment_pinset(f.facts())  # factories: protobuf is required, not installed
    assert any("protobuf" in w and "not installed" in w for w in pinset.warnings)
    assert pinset.entry("protobuf") is None


def test_and_cuda_pins_come_from_the_matrix_when_metadata_lacks_them(matrix: Matrix) -> None:
    bare = tuple(
        dataclasses.replace(p, requires=()) if p.name == "tensorflow" else p
        for p in gpu_packages("8.9.7.29")
    )
    facts = f.facts(packages=bare)
    assert needs_matrix(facts)
    assert not needs_matrix(gpu_facts())
    pinset = environment_pinset(facts, matrix)
    assert any("nvidia-cudnn-cu12<10.0,>=9.3.0.75" in w for w in pinset.warnings)


def test_the_installed_tensorflow_is_the_machine_views() -> None:
    # Any distribution that writes the ``tensorflow`` package counts, by its RECORD's
    # top level, under any spelling of its name; a wrapper pair has one root.
    fork = f.pkg("tensorflow-directml", "1.15.8", "numpy<1.19", top_level=("tensorflow",))
    pinset = environment_pinset(f.facts(packages=(fork, f.pkg("numpy", "1.18.5"))))
    assert [(e.name, e.via) for e in pinset.entries] == [
        ("numpy", ("tensorflow-directml",)),
        ("tensorflow-directml", ()),
    ]
    assert needs_matrix(f.facts(packages=(fork,)))
    wrapper = f.pkg("tensorflow", "2.12.1", "tensorflow-intel==2.12.1", top_level=("tensorflow",))
    intel = f.pkg("Tensorflow_Intel", "2.12.1", top_level=("tensorflow",))
    pinset = environment_pinset(f.facts(packages=(wrapper, intel)))
    assert [(e.name, e.via) for e in pinset.entries] == [
        ("tensorflow", ()),
        ("tensorflow-intel", ("tensorflow",)),
    ]
    assert pinset.warnings == ()


def test_no_tensorflow_is_a_pin_error() -> None:
    with pytest.raises(PinError, match="no TensorFlow") as exc:
        environment_pinset(f.facts(packages=(f.pkg("numpy", "1.26.4"),)))
    assert any("--all" in r for r in exc.value.reasons)


def test_unknown_packages_are_a_pin_error() -> None:
    with pytest.raises(PinError, match="could not be read"):
        environment_pinset(f.facts(packages=None))


def test_all_mode_flags_editables_and_never_writes_paths() -> None:
    editable = dataclasses.replace(f.pkg("mylab", "0.3.0", "numpy"), editable=True)
    pinset = environment_pinset(gpu_facts("9.3.0.75", editable), all_packages=True)
    assert pinset.mode == "all"
    assert {e.name for e in pinset.entries} >= {"requests", "idna", "mylab", "tensorflow"}
    assert EDITABLE in pinset.entry("mylab").flags  # type: ignore[union-attr]
    text = render(pinset)
    assert "file://" not in text and f.SITE not in text
    assert "# mylab==0.3.0  (editable install: not pinned)" in text
    assert "mylab" not in {Requirement(line).name for line in requirement_lines(text)}
    assert any("editable" in w and "mylab" in w for w in pinset.warnings)


def test_header_records_the_provenance() -> None:
    text = render(environment_pinset(gpu_facts()))
    header = [line for line in text.splitlines() if line.startswith("#")]
    for needle in (
        "tfdoctor 0.1.0 on 2026-01-01",
        "#    tfdoctor pin -o requirements.txt",
        "# Python: 3.11.7 CPython (venv)",
        "glibc 2.35",
        "# NVIDIA driver: 550.54.15 (supports CUDA 12.4)",
        "# GPU 0: NVIDIA A100-SXM4-80GB, compute capability 8.0",
        "cudnn 8.9.4 (pip)",
        "# Smoke test: not run",
    ):
        assert any(needle in line for line in header), needle


def smoke_facts(placed_on: str) -> SmokeFacts:
    """A smoke run whose child finished (status ok): one float32 matmul pinned to GPU:0."""
    gpu = "/job:localhost/replica:0/task:0/device:GPU:0"
    result = SmokeResult("matmul", "float32", gpu, placed_on=placed_on, ok=True)
    device = SmokeDevice(gpu, "GPU", "NVIDIA A100-SXM4-80GB", "8.0", results=(result,))
    return SmokeFacts("ok", "quick", "/opt/venv/bin/python", "2.21.0", (device,), seconds=3.0)


@pytest.mark.parametrize(
    ("placed_on", "verdict"),
    [
        pytest.param("/job:localhost/replica:0/task:0/device:GPU:0", "passed", id="passed"),
        pytest.param(
            "/job:localhost/replica:0/task:0/device:CPU:0",
            "failed: matmul/float32 asked for /job:localhost/replica:0/task:0/device:GPU:0 "
            "but ran on /job:localhost/replica:0/task:0/device:CPU:0",
            id="ran-on-the-cpu",
        ),
    ],
)
def test_smoke_verdict_comes_from_the_smoke_checks(
    tmp_path: Path, placed_on: str, verdict: str
) -> None:
    # The child finished in both cases (status "ok"): only the checks tell them apart.
    facts = dataclasses.replace(gpu_facts(), smoke=smoke_facts(placed_on))
    path = tmp_path / "facts.json"
    path.write_text(json.dumps(to_json(facts)), encoding="utf-8")
    pinset = make_pins(PinOptions(facts_file=str(path)))
    assert ("Smoke test", verdict) in pinset.provenance


def test_smoke_not_run_and_not_judged() -> None:
    assert ("Smoke test", "not run") in environment_pinset(gpu_facts()).provenance
    ran = dataclasses.replace(gpu_facts(), smoke=smoke_facts("GPU:0"))
    assert ("Smoke test", "ran (ok), not judged") in environment_pinset(ran).provenance


# --- target mode ------------------------------------------------------------------------------


def pins_for(matrix: Matrix, **kw: str) -> Pinset:
    return target_pinset(matrix, make_target(matrix, **kw))


def test_target_mode_golden(matrix: Matrix) -> None:
    target = make_target(matrix, python="3.10", platform="linux", driver="470.82.01", gpu="8.6")
    origins = {"python": "given", "platform": "given", "driver": "given", "gpu": "given"}
    check_golden(DATA / "target-linux-470.txt", render(target_pinset(matrix, target, origins)))


def pinned_line(matrix: Matrix, python: str, plat: str) -> Optional[str]:
    """The line ``pin --python-version --platform`` pins TensorFlow from (None: it refuses)."""
    try:
        pinset = target_pinset(matrix, Target(python=python, platform=plat))
    except PinError:
        return None
    root = next(e for e in pinset.entries if not e.via)
    line = matrix.line_for(root.specifier.lstrip("="))
    assert line is not None
    return line.line


def pin_faults(matrix: Matrix, python: str, plat: str, pinned: Optional[str]) -> list[str]:
    """What is wrong with pinning ``pinned`` for a target: a line without a wheel for it, a
    refusal though a release has one, an older line than the newest release with one (a
    pre-release line is never pinned unless asked for)."""
    with_wheels = [e.line for e in matrix.releases if python in e.python.get(plat, ())]
    if pinned is None:
        return [f"refused, yet {with_wheels[0]} has wheels"] if with_wheels else []
    if pinned not in with_wheels:
        return [f"{pinned} has no wheel"]
    return [] if pinned == with_wheels[0] else [f"{pinned} is older than {with_wheels[0]}"]


@pytest.mark.parametrize("plat", sorted(PLATFORMS))
@pytest.mark.parametrize("python", ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"])
def test_target_python_always_has_wheels(matrix: Matrix, plat: str, python: str) -> None:
    assert pin_faults(matrix, python, plat, pinned_line(matrix, python, plat)) == []


def test_a_planted_pin_without_wheels_is_caught(matrix: Matrix) -> None:
    newest = pinned_line(matrix, "3.12", "linux-x86_64")
    assert newest is not None
    assert pin_faults(matrix, "3.12", "linux-x86_64", "2.15") == ["2.15 has no wheel"]
    assert pin_faults(matrix, "3.12", "linux-x86_64", None) == [f"refused, yet {newest} has wheels"]
    older = next(e.line for e in matrix.releases[1:] if "3.12" in e.python["linux-x86_64"])
    assert pin_faults(matrix, "3.12", "linux-x86_64", older) == [f"{older} is older than {newest}"]


def test_python_311_never_gets_a_release_without_cp311_wheels(matrix: Matrix) -> None:
    pinned = {plat: pinned_line(matrix, "3.11", plat) for plat in PLATFORMS}
    assert any(pinned.values())  # not every platform refused: something was judged
    assert {p: pin_faults(matrix, "3.11", p, line) for p, line in pinned.items()} == {
        p: [] for p in PLATFORMS
    }


def test_driver_470_gets_a_cuda_11_build(matrix: Matrix) -> None:
    pinset = pins_for(matrix, python="3.10", platform="linux", driver="470.82.01", gpu="8.6")
    root = pinset.entry("tensorflow")
    assert root is not None and root.extras == ("and-cuda",)
    line = matrix.line_for(root.specifier.lstrip("="))
    assert line is not None and line.cuda is not None and line.cuda.startswith("11.")
    cuda_wheels = [e for e in pinset.entries if e.name.startswith("nvidia-")]
    assert cuda_wheels and all(e.name.endswith("-cu11") for e in cuda_wheels)
    assert all(e.marker == 'sys_platform == "linux"' for e in cuda_wheels)


def test_windows_gpu_gets_the_last_native_gpu_release(matrix: Matrix) -> None:
    pinset = pins_for(matrix, python="3.10", platform="windows", gpu="8.6")
    last = next(line for line in matrix.lines if line.windows_native_gpu)
    root = pinset.entry("tensorflow")
    assert root is not None and root.specifier == f"=={last.latest_patch}"
    assert not any(e.name.startswith("nvidia-") for e in pinset.entries)
    notes = [v for k, v in pinset.provenance if k == "Note"]
    assert any("WSL2" in n for n in notes) and any("install CUDA" in n for n in notes)


def test_windows_gpu_without_a_native_release_advises_wsl2(matrix: Matrix) -> None:
    with pytest.raises(PinError, match=r"Python 3\.11 on windows-x86_64") as exc:
        pins_for(matrix, python="3.11", platform="windows", gpu="8.6")
    assert any("WSL2" in r for r in exc.value.reasons)


def test_windows_wrapper_is_pinned_with_a_marker(matrix: Matrix) -> None:
    pinset = pins_for(matrix, python="3.11", platform="windows")
    root = pinset.entry("tensorflow")
    assert root is not None
    line = matrix.line_for(root.specifier.lstrip("="))
    assert line is not None
    if "windows-x86_64" in line.wrappers:  # 2.12-2.16 install tensorflow-intel there
        wrapper = pinset.entry(line.wrappers["windows-x86_64"])
        assert wrapper is not None and wrapper.marker == 'sys_platform == "win32"'


def test_target_pins_carry_the_declared_ranges(matrix: Matrix) -> None:
    pinset = pins_for(matrix, python="3.12", platform="linux")
    line = next(e for e in matrix.releases if "3.12" in e.python["linux-x86_64"])
    assert pinset.entry("numpy") == PinEntry("numpy", line.pins.numpy or "", via=("tensorflow",))
    assert pinset.entry("tensorflow") == PinEntry("tensorflow", f"=={line.latest_patch}")
    assert not any(e.name.startswith("nvidia-") for e in pinset.entries)  # no GPU asked


def test_macos_gpu_fits_nothing(matrix: Matrix) -> None:
    with pytest.raises(PinError) as exc:
        pins_for(matrix, python="3.11", platform="macos", gpu="8.6")
    assert any("macOS" in r for r in exc.value.reasons)


@pytest.mark.parametrize(
    "query",
    [
        pytest.param({"python": "3.10", "driver": "470.82.01", "gpu": "8.6"}, id="470"),
        pytest.param({"python": "3.12", "platform": "linux", "gpu": "9.0"}, id="hopper"),
        pytest.param({"python": "3.10", "platform": "windows", "gpu": "7.5"}, id="windows"),
        pytest.param({"python": "3.9", "platform": "macos"}, id="macos"),
        pytest.param({"python": "3.11", "platform": "linux-aarch64"}, id="aarch64"),
    ],
)
def test_every_emitted_line_parses(matrix: Matrix, query: dict[str, str]) -> None:
    text = render(pins_for(matrix, **query))
    lines = list(requirement_lines(text))
    assert lines
    for line in lines:
        Requirement(line)


# --- rendering --------------------------------------------------------------------------------


def test_hashes_render_as_pip_compile_continuations() -> None:
    entry = PinEntry("six", "==1.17.0", via=("tensorflow",), hashes=("sha256:" + "a" * 64,))
    pinset = Pinset("environment", (entry, PinEntry("tensorflow", "==2.21.0")))
    text = render(pinset)
    assert f"six==1.17.0 \\\n    --hash=sha256:{'a' * 64}\n    # via tensorflow\n" in text
    assert list(requirement_lines(text)) == ["six==1.17.0", "tensorflow==2.21.0"]


def test_long_header_values_wrap_as_comments() -> None:
    pinset = Pinset("target", (), (("Note", "word " * 60),), ("x" * 30 + " y" * 80,))
    for line in render(pinset).splitlines():
        assert line.startswith("#") and len(line) <= 100


# --- hashes (offline part) --------------------------------------------------------------------

# PEP 691 project pages, recorded from https://pypi.org/simple/<name>/ (Accept:
# application/vnd.pypi.simple.v1+json); tensorflow-gpu's is the one tests/test_refresh_matrix.py
# reads, with a dashed sdist name (tensorflow-gpu-2.12.0.tar.gz) beside tensorflow_gpu wheels.
SIX_PAGE = json.loads((DATA / "simple-six.json").read_text(encoding="utf-8"))
TF_GPU_PAGE = json.loads(
    (ROOT / "tests" / "data" / "pypi" / "simple-tensorflow-gpu.json").read_text(encoding="utf-8")
)
SIX_117 = (
    "sha256:4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274",  # the wheel
    "sha256:ff70335d468e7eb6ec65b95b99d3a2836546063f63acc5171de367e834932a81",  # the sdist
)


@pytest.mark.parametrize(
    ("page", "name", "version", "expected"),
    [
        pytest.param(SIX_PAGE, "six", "1.17.0", SIX_117, id="wheel-and-sdist"),
        pytest.param(SIX_PAGE, "six", "1.17", SIX_117, id="version-as-pip-compares"),
        pytest.param(
            SIX_PAGE,
            "six",
            "1.0b1",
            ("sha256:3ef868e4818fc3c7f1cf6827a20766d7596fc0d4ab50a74747538262ebf402d4",),
            id="sdist-only-prerelease",
        ),
        pytest.param(
            TF_GPU_PAGE,
            "tensorflow-gpu",
            "2.12.0",
            ("sha256:51cc56493594840814e55545cf36c006e174a6186f71418cc29aafa62e77b756",),
            id="dashed-sdist-name",
        ),
    ],
)
def test_release_hashes_are_every_file_of_that_release(
    page: dict[str, Any], name: str, version: str, expected: tuple[str, ...]
) -> None:
    assert parse_release_hashes(page, name, version) == expected


def test_release_hashes_take_no_file_of_another_release() -> None:
    hashes = parse_release_hashes(TF_GPU_PAGE, "tensorflow-gpu", "2.11.0")
    files = [f for f in TF_GPU_PAGE["files"] if f["filename"].startswith("tensorflow_gpu-2.11.0-")]
    assert len(files) == 4
    assert hashes == tuple(sorted(f"sha256:{f['hashes']['sha256']}" for f in files))


@pytest.mark.parametrize(
    ("doc", "version"),
    [
        pytest.param({"message": "Not Found"}, "1.17.0", id="no-files"),
        pytest.param({**SIX_PAGE, "meta": {"api-version": "2.0"}}, "1.17.0", id="api-version-2"),
        pytest.param(SIX_PAGE, "9.9.9", id="unknown-release"),
        pytest.param(SIX_PAGE, "not a version", id="bad-version"),
        pytest.param(
            {
                "meta": {"api-version": "1.0"},
                "files": [{"filename": "six-1.17.0.tar.gz", "hashes": {"sha256": "xyz"}}],
            },
            "1.17.0",
            id="bad-digest",
        ),
        pytest.param(
            {
                "meta": {"api-version": "1.0"},
                "files": [{"filename": "other-1.17.0.tar.gz", "hashes": {"sha256": "a" * 64}}],
            },
            "1.17.0",
            id="another-project's-file",
        ),
    ],
)
def test_release_without_hashes_is_an_error(doc: dict[str, Any], version: str) -> None:
    with pytest.raises(HashError, match=rf"six=={re.escape(version)}"):
        parse_release_hashes(doc, "six", version)


def test_add_hashes_asks_once_per_pin_and_skips_editables() -> None:
    asked: list[str] = []

    def fetch(name: str) -> Any:
        asked.append(name)
        if name != "six":
            raise AssertionError(f"unexpected look-up {name}")
        return SIX_PAGE

    pinset = Pinset(
        "all",
        (PinEntry("mylab", "==0.1", flags=(EDITABLE,)), PinEntry("six", "==1.17.0")),
    )
    hashed = add_hashes(pinset, fetch)
    assert asked == ["six"]
    assert hashed.entry("six").hashes == SIX_117  # type: ignore[union-attr]
    assert hashed.entry("mylab").hashes == ()  # type: ignore[union-attr]


def test_hashes_refuse_ranges(matrix: Matrix) -> None:
    def fetch(name: str) -> Any:
        raise AssertionError("no look-up expected")

    with pytest.raises(HashError, match="exact versions"):
        add_hashes(pins_for(matrix, python="3.11"), fetch)


# --- requirements files -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("numpy==1.26.4\n", ("numpy==1.26.4",), id="pin"),
        pytest.param(
            "# header\n\nNumPy == 1.26.4   # trailing\n", ("NumPy==1.26.4",), id="comments"
        ),
        pytest.param(
            "six==1.17.0 \\\n    --hash=sha256:aa \\\n    --hash=sha256:bb\n    # via x\n",
            ("six==1.17.0",),
            id="hashes",
        ),
        pytest.param(
            'nvidia-cudnn-cu12<10,>=9.3 ; sys_platform == "linux"\n',
            ('nvidia-cudnn-cu12<10,>=9.3; sys_platform == "linux"',),
            id="marker",
        ),
        pytest.param(
            "--index-url https://example.org/simple\ntensorflow[and-cuda]==2.21.0\n",
            ("tensorflow[and-cuda]==2.21.0",),
            id="index-option",
        ),
    ],
)
def test_requirements_file_parses(text: str, expected: tuple[str, ...]) -> None:
    assert parse_requirements(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("-r base.txt\n", "requirements.txt:1: -r includes another file", id="include"),
        pytest.param("-rbase.txt\n", "-r includes", id="include-attached"),
        pytest.param(
            "x==1\n-c constraints.txt\n", ":2: -c includes a constraints", id="constraint"
        ),
        pytest.param("-e .\n", "editable", id="editable"),
        pytest.param("pkg @ file:///tmp/pkg.whl\n", "cannot be compared", id="url"),
        pytest.param("./local/dir\n", "1: invalid requirement './local/dir': ", id="path"),
        pytest.param(
            "numpy=1.0\n",
            "requirements.txt:1: invalid requirement 'numpy=1.0': Expected semicolon",
            id="single-equals",
        ),
        pytest.param("numpy==1\nnumpy==2\n", ":2: numpy is already required on line 1", id="dup"),
        pytest.param("--frobnicate\n", "unknown option --frobnicate", id="unknown-option"),
        pytest.param("numpy==1 --frob=x\n", "option --frob is not allowed", id="bad-per-req"),
    ],
)
def test_bad_requirements_files_are_refused(text: str, message: str) -> None:
    with pytest.raises(RequirementsError, match=re.escape(message)) as exc:
        parse_requirements(text, "requirements.txt")
    assert "\n" not in str(exc.value)  # one line: packaging's caret diagram left out


def test_rendered_files_read_back_as_their_pins(matrix: Matrix) -> None:
    for pinset in (environment_pinset(gpu_facts()), pins_for(matrix, python="3.10", gpu="8.6")):
        parsed = parse_requirements(render(pinset))
        assert [Requirement(p).name for p in parsed] == [e.name for e in pinset.entries]


# --- drift ------------------------------------------------------------------------------------


def drift(facts: Facts, against: tuple[str, ...] | None) -> list[tuple[Severity, str]]:
    ctx = CheckContext(facts, against=against, against_file="requirements.txt")
    return [(x.severity, x.summary) for x in run_checks(ctx, select_checks(["packages.drift"]))]


def every_package(**kw: Any) -> Facts:
    """Facts whose packages list every installed distribution (as `check --against` probes)."""
    return f.facts(packages_complete=True, **kw)


@pytest.mark.parametrize(
    ("against", "expected"),
    [
        pytest.param(None, [], id="not-asked"),
        pytest.param(
            ("tensorflow==2.15.1", "numpy==1.26.4"),
            [(Severity.OK, "All 2 pinned packages match the installed versions")],
            id="all-match",
        ),
        pytest.param(
            ("numpy==2.1.0",),
            [(Severity.WARNING, "numpy 1.26.4 is installed; the requirements pin numpy==2.1.0")],
            id="differs",
        ),
        pytest.param(
            ("Six==1.17.0", "numpy<2"),
            [(Severity.WARNING, "six is pinned (six==1.17.0) but not installed")],
            id="missing",
        ),
        pytest.param(
            ('pywin32==306 ; sys_platform == "win32"', "numpy>=1.26"),
            [(Severity.OK, "All 1 pinned packages match the installed versions")],
            id="marker-skips",
        ),
        pytest.param(
            (),
            [(Severity.INFO, "No requirement in requirements.txt applies to this environment")],
            id="empty-file",
        ),
        pytest.param(
            ('pywin32==306 ; sys_platform == "win32"',),
            [(Severity.INFO, "No requirement in requirements.txt applies to this environment")],
            id="no-marker-holds",
        ),
    ],
)
def test_drift_check(against: tuple[str, ...] | None, expected: list[tuple[Severity, str]]) -> None:
    assert drift(every_package(), against) == expected


def test_drift_on_a_report_of_tensorflows_packages_only_is_unknown() -> None:
    # A plain `check --json` lists TensorFlow's family: six would read as "not installed".
    ctx = CheckContext(f.facts(), against=("six==1.17.0",), against_file="pins.txt")
    (finding,) = run_checks(ctx, select_checks(["packages.drift"]))
    assert finding.severity is Severity.UNKNOWN
    assert "lists only TensorFlow's packages" in finding.summary
    assert finding.fix is not None
    assert finding.fix.commands == ("tfdoctor check --json --against pins.txt",)


def test_drift_fix_installs_the_pin_with_the_examined_interpreter() -> None:
    ctx = CheckContext(every_package(), against=("numpy==2.1.0",))
    (finding,) = run_checks(ctx, select_checks(["packages.drift"]))
    assert finding.fix is not None
    assert finding.fix.commands == ('/opt/venv/bin/python -m pip install "numpy==2.1.0"',)


def test_drift_without_packages_is_unknown() -> None:
    assert drift(f.facts(packages=None), ("numpy==1",))[0][0] is Severity.UNKNOWN


def test_drift_is_registered() -> None:
    assert "packages.drift" in [c.id for c in CHECKS]


# --- atomic writes ----------------------------------------------------------------------------


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_atomic_write_replaces_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "requirements.txt"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    write_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_atomic_write_failing_mid_way_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "requirements.txt"
    target.write_text("old\n", encoding="utf-8")

    def pieces() -> Iterator[str]:
        yield "numpy==1.26.4\n"
        raise RuntimeError("renderer failed")

    with pytest.raises(RuntimeError, match="renderer failed"):
        write_atomic(target, pieces())
    assert target.read_text(encoding="utf-8") == "old\n"
    assert leftovers(tmp_path) == []


def test_atomic_write_encoding_error_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "requirements.txt"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, ["ok\n", "bad \udc80\n"])  # a lone surrogate: not encodable
    assert target.read_text(encoding="utf-8") == "old\n"
    assert leftovers(tmp_path) == []


def test_atomic_write_onto_a_directory_fails_cleanly(tmp_path: Path) -> None:
    target = tmp_path / "requirements.txt"
    target.mkdir()
    (target / "keep").write_text("x", encoding="utf-8")
    with pytest.raises(OSError):
        write_atomic(target, "numpy==1.26.4\n")
    assert (target / "keep").read_text(encoding="utf-8") == "x"
    assert leftovers(tmp_path) == []


def test_atomic_write_through_a_symlink_replaces_the_file_it_points_to(tmp_path: Path) -> None:
    real = tmp_path / "locks" / "requirements.txt"
    real.parent.mkdir()
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "requirements.txt"
    link.symlink_to(real)
    write_atomic(link, "new\n")
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert real.read_text(encoding="utf-8") == "new\n"
    assert leftovers(tmp_path) == [] and leftovers(real.parent) == []


def test_atomic_write_through_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "requirements.txt"
    link.symlink_to(tmp_path / "real.txt")
    write_atomic(link, "new\n")
    assert link.is_symlink() and (tmp_path / "real.txt").read_text(encoding="utf-8") == "new\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_atomic_write_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "requirements.txt"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        write_atomic(fifo, "numpy==1.26.4\n")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert leftovers(tmp_path) == []


# --- companions kept in step with a target ------------------------------------------------------


def test_a_targets_pins_move_installed_companions_to_their_release_for_its_line() -> None:
    installed = (
        f.pkg("tensorflow-text", "2.19.0"),
        f.pkg("tf-keras", "2.19.0"),
        f.pkg("tensorflow-io", "0.37.1"),
        f.pkg("tensorflow-addons", "0.23.0"),
        f.pkg("pandas", "2.2.3"),  # not a companion
    )
    target = make_target(f.FIXTURE_MATRIX, python="3.12", platform="linux-x86_64")
    pinset = target_pinset(f.FIXTURE_MATRIX, target, companions=(load_companions(), installed))
    fit = newest_fit(f.FIXTURE_MATRIX, target)
    assert fit is not None
    major_minor = fit.line.line
    text = pinset.entry("tensorflow-text")
    assert text is not None and text.specifier == f"=={major_minor}.*" and not text.via
    assert f"tensorflow-text=={major_minor}.*" in pinset.requested
    tfk = pinset.entry("tf-keras")
    assert tfk is not None and f"tf-keras{tfk.specifier}" == tf_keras_requirement(fit.line)
    assert pinset.entry("pandas") is None
    # No release of tensorflow-io or of Addons declares the line: left out, said why.
    assert pinset.entry("tensorflow-io") is None and pinset.entry("tensorflow-addons") is None
    addons, io = sorted(w for w in pinset.warnings if "is installed, but no release" in w)
    assert addons.startswith("tensorflow-addons 0.23.0") and "end of life" in addons
    assert io.startswith("tensorflow-io 0.37.1")
    # TensorFlow stays the root the resolver's wheel tags are read from.
    assert pinset.requested[0].startswith("tensorflow")
