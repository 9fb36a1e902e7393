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
from tfdoctor.checks.gpu import check_cuda_libraries
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Severity
from tfdoctor.matrix import load_matrix

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


def test_the_healthy_set_covers_the_and_cuda_lines_whose_build_names_no_curand() -> None:
    versions = {}
    for path in AND_CUDA:
        facts = facts_from_json(_facts_document(path))
        assert facts.cuda_libs is not None and facts.cuda_libs.runpath
        assert facts.cuda_libs.named_libraries is not None
        assert "curand" not in facts.cuda_libs.named_libraries
        (curand,) = [lib for lib in facts.cuda_libs.libraries if lib.name == "curand"]
        assert curand.selected is None  # as on the real machines: nothing searches for it
        assert facts.tensorflow is not None
        versions[facts.tensorflow.version] = path.stem
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
    assert lines <= set(versions)


def test_the_system_cuda_lines_name_curand_and_find_it_through_the_ldconfig_cache() -> None:
    """2.12 and 2.13 name cuRAND and their RUNPATH reaches no wheel: the toolkit is found."""
    versions = set()
    for path in SYSTEM_CUDA:
        facts = facts_from_json(_facts_document(path))
        assert facts.cuda_libs is not None and facts.cuda_libs.named_libraries is not None
        assert "curand" in facts.cuda_libs.named_libraries
        assert not any("nvidia" in d for d in facts.cuda_libs.runpath)
        (curand,) = [lib for lib in facts.cuda_libs.libraries if lib.name == "curand"]
        assert curand.selected is not None
        assert curand.candidates[curand.selected].origin == "ldconfig"
        assert facts.tensorflow is not None
        versions.add(facts.tensorflow.version)
    assert versions == {"2.12.1", "2.13.1"}


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


def test_no_healthy_and_cuda_release_is_one_the_matrix_says_misses_its_wheels() -> None:
    """A release whose wheel's RUNPATH (read here) reaches its ``and-cuda`` wheels is not in the
    bundled matrix's ``wheels_unfound``: 2.16.2's framework library lists them, 2.16.1's not."""
    matrix = load_matrix()
    for path in AND_CUDA:
        facts = facts_from_json(_facts_document(path))
        assert facts.cuda_libs is not None and facts.tensorflow is not None
        version = facts.tensorflow.version
        assert version is not None, path.stem
        assert any("/nvidia/cudnn/lib" in d for d in facts.cuda_libs.runpath), path.stem
        line = matrix.line_for(version)
        assert line is not None and line.cuda_install is not None
        assert version not in line.cuda_install.wheels_unfound, path.stem
    line = matrix.line_for("2.16.1")
    assert line is not None and line.cuda_install is not None
    assert line.cuda_install.wheels_unfound == ("2.16.1",)
