"""Every healthy machine on file passes ``check --facts`` with no warning and no error, even
with ``--strict --require-gpu`` (the container start gate) where TensorFlow lists a GPU."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from tests import factories as f
from tests.commandline import tfdoctor
from tfdoctor.checks._context import CheckContext
from tfdoctor.checks.cuda import check_cuda_libraries
from tfdoctor.facts import Facts, facts_from_json
from tfdoctor.findings import Severity
from tfdoctor.matrix import Matrix, load_matrix

DATA = Path(__file__).parent / "data"
#: Machines made healthy on purpose (README there), with what their wheels' objects say.
HEALTHY = sorted((DATA / "healthy").glob("*.json"))
#: Those whose CUDA comes from TensorFlow's ``and-cuda`` wheels (2.14 on), and those with
#: NVIDIA's toolkit and cuDNN installed system-wide (2.12 and 2.13 have no such extra).
AND_CUDA = [p for p in HEALTHY if "-and-cuda-" in p.stem]
SYSTEM_CUDA = [p for p in HEALTHY if "-system-cuda-" in p.stem]
#: The real-failure corpus's healthy machines (``expect.cause: none``).
CORPUS = sorted(
    p
    for p in (DATA / "real_failures").glob("*.json")
    if json.loads(p.read_text(encoding="utf-8"))["expect"]["cause"] == "none"
)


def _facts_document(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc["facts"] if "expect" in doc else doc


def _lists_a_gpu(doc: dict[str, Any]) -> bool:
    tf = doc.get("tensorflow") or {}
    return tf.get("status") == "ok" and any(d["device_type"] == "GPU" for d in tf["devices"])


@pytest.mark.parametrize("path", [*HEALTHY, *CORPUS], ids=lambda p: p.stem)
def test_a_healthy_machine_gets_no_warning_and_no_error(path: Path, tmp_path: Path) -> None:
    doc = _facts_document(path)
    facts_file = tmp_path / "facts.json"
    facts_file.write_text(json.dumps(doc), encoding="utf-8")
    gate = ["--require-gpu"] if _lists_a_gpu(doc) else []

    out = tfdoctor("check", "--facts", str(facts_file), "--strict", "--json", *gate)

    assert out.returncode == 0, out.stdout[-3000:] + out.stderr
    report = json.loads(out.stdout)
    problems = [
        (x["id"], x["summary"]) for x in report["findings"] if x["severity"] in ("warning", "error")
    ]
    assert problems == []


def and_cuda_faults(facts: Facts) -> list[str]:
    """What keeps an ``and-cuda`` fixture from showing a build that names no cuRAND: no RUNPATH
    or names read from the build, cuRAND among the names, or a cuRAND something searched for."""
    libs = facts.cuda_libs
    if libs is None or not libs.runpath or libs.named_libraries is None:
        return ["the build was not read"]
    faults = ["the build names curand"] if "curand" in libs.named_libraries else []
    curand = [lib for lib in libs.libraries if lib.name == "curand"]
    # As on the real machines: nothing searches for it.
    if len(curand) != 1 or curand[0].selected is not None:
        faults.append("curand was searched for")
    return faults


def test_the_healthy_set_covers_the_and_cuda_lines_whose_build_names_no_curand() -> None:
    machines = {path.stem: facts_from_json(_facts_document(path)) for path in AND_CUDA}
    assert [(name, x) for name, m in machines.items() for x in and_cuda_faults(m)] == []
    versions = {m.tensorflow.version for m in machines.values() if m.tensorflow}
    lines = {
        "2.14.1",
        "2.15.1",
        "2.16.2",
        "2.17.1",
        "2.18.0",
        "2.19.1",
        "2.20.0",
        "2.21.0",
        "2.22.0rc0",
    }
    assert lines <= versions
    # Planted: a build that names cuRAND, and one whose names were never read.
    healthy = next(iter(machines.values()))
    assert healthy.cuda_libs is not None and healthy.cuda_libs.named_libraries is not None
    named = (*healthy.cuda_libs.named_libraries, "curand")
    libs = dataclasses.replace(healthy.cuda_libs, named_libraries=named)
    assert and_cuda_faults(dataclasses.replace(healthy, cuda_libs=libs)) == [
        "the build names curand"
    ]
    unread = dataclasses.replace(healthy.cuda_libs, named_libraries=None)
    assert and_cuda_faults(dataclasses.replace(healthy, cuda_libs=unread)) == [
        "the build was not read"
    ]


def system_cuda_faults(facts: Facts) -> list[str]:
    """What keeps a system-CUDA fixture from showing a build that names cuRAND, whose RUNPATH
    reaches no wheel, and whose cuRAND the ldconfig cache finds."""
    libs = facts.cuda_libs
    if libs is None or libs.named_libraries is None:
        return ["the build was not read"]
    faults = [] if "curand" in libs.named_libraries else ["the build names no curand"]
    faults += ["the RUNPATH reaches a wheel"] if any("nvidia" in d for d in libs.runpath) else []
    curand = [lib for lib in libs.libraries if lib.name == "curand"]
    selected = curand[0].selected if len(curand) == 1 else None
    if selected is None or curand[0].candidates[selected].origin != "ldconfig":
        faults.append("curand not found through the ldconfig cache")
    return faults


def test_the_system_cuda_lines_name_curand_and_find_it_through_the_ldconfig_cache() -> None:
    """2.12 and 2.13 name cuRAND and their RUNPATH reaches no wheel: the toolkit is found."""
    machines = [facts_from_json(_facts_document(path)) for path in SYSTEM_CUDA]
    assert [x for m in machines for x in system_cuda_faults(m)] == []
    assert {m.tensorflow.version for m in machines if m.tensorflow} == {"2.12.1", "2.13.1"}
    # Planted: a build whose RUNPATH reaches the wheels, one whose cuRAND was not found.
    healthy = machines[0]
    assert healthy.cuda_libs is not None
    wheel = f"{f.SITE}/nvidia/curand/lib"
    reach = dataclasses.replace(healthy.cuda_libs, runpath=(*healthy.cuda_libs.runpath, wheel))
    assert system_cuda_faults(dataclasses.replace(healthy, cuda_libs=reach)) == [
        "the RUNPATH reaches a wheel"
    ]
    libs = tuple(
        dataclasses.replace(lib, selected=None) if lib.name == "curand" else lib
        for lib in healthy.cuda_libs.libraries
    )
    lost = dataclasses.replace(healthy.cuda_libs, libraries=libs)
    assert system_cuda_faults(dataclasses.replace(healthy, cuda_libs=lost)) == [
        "curand not found through the ldconfig cache"
    ]


@pytest.mark.parametrize("path", AND_CUDA, ids=lambda p: p.stem)
def test_without_what_the_build_says_the_search_would_require_curand(path: Path) -> None:
    """The fixtures are healthy because the build is read: with neither its names nor its
    RUNPATH, and TensorFlow not imported, the constant list asks for cuRAND."""
    facts = facts_from_json(_facts_document(path))
    assert facts.cuda_libs is not None
    static = f.tensorflow(status="skipped", devices=())
    blind = dataclasses.replace(
        facts,
        tensorflow=static,
        cuda_libs=dataclasses.replace(facts.cuda_libs, named_libraries=None, runpath=()),
    )
    seen = dataclasses.replace(facts, tensorflow=static)
    matrix = f.FIXTURE_MATRIX
    (error,) = check_cuda_libraries(CheckContext(blind, matrix))
    assert error.severity is Severity.ERROR and error.summary.endswith(": curand")
    (ok,) = check_cuda_libraries(CheckContext(seen, matrix))
    assert ok.severity is Severity.OK, ok


def test_the_full_report_shows_what_the_build_says() -> None:
    out = tfdoctor("check", "--facts", str(DATA / "healthy" / "tf221-and-cuda-venv-l4.json"), "-v")
    assert out.returncode == 0, out.stderr
    assert (
        "the build opens: cudart, cublas, cublasLt, cufft, cusparse, cusolver, cudnn, nccl, cuda"
    ) in out.stdout
    assert "GPU code in the build's libraries: sm_60, sm_70, sm_80, sm_89, sm_90, compute_90" in (
        out.stdout
    )


def unfound_but_reached(facts: Facts, matrix: Matrix) -> list[str]:
    """The release, where a machine's build reaches its ``and-cuda`` wheels through its RUNPATH
    yet the matrix says that release's wheels go unfound."""
    if facts.cuda_libs is None or facts.tensorflow is None or facts.tensorflow.version is None:
        return ["no release or libraries recorded"]
    version = facts.tensorflow.version
    if not any("/nvidia/cudnn/lib" in d for d in facts.cuda_libs.runpath):
        return [f"{version}: the RUNPATH reaches no wheel"]
    line = matrix.line_for(version)
    if line is None or line.cuda_install is None:
        return [f"{version}: no CUDA install in the matrix"]
    return [version] if version in line.cuda_install.wheels_unfound else []


def test_no_healthy_and_cuda_release_is_one_the_matrix_says_misses_its_wheels() -> None:
    """A release whose wheel's RUNPATH (read here) reaches its ``and-cuda`` wheels is not in the
    bundled matrix's ``wheels_unfound``: 2.16.2's framework library lists them, 2.16.1's not."""
    matrix = load_matrix()
    machines = [facts_from_json(_facts_document(path)) for path in AND_CUDA]
    assert [x for facts in machines for x in unfound_but_reached(facts, matrix)] == []
    line = matrix.line_for("2.16.1")
    assert line is not None and line.cuda_install is not None
    assert line.cuda_install.wheels_unfound == ("2.16.1",)
    # Planted: a healthy 2.16.1 machine, whose release the matrix says misses its wheels.
    (healthy,) = [m for m in machines if m.tensorflow and m.tensorflow.version == "2.16.2"]
    assert healthy.tensorflow is not None
    older = dataclasses.replace(healthy.tensorflow, version="2.16.1")
    assert unfound_but_reached(dataclasses.replace(healthy, tensorflow=older), matrix) == ["2.16.1"]
