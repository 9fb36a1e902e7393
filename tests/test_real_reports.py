"""Reports of real installs, replayed: what the doctor reads from a build whose build info is
silent (TensorFlow 2.22 records no CUDA version and no GPU architectures)."""

from __future__ import annotations

import json
from pathlib import Path

from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Severity
from tfdoctor.machine import view
from tfdoctor.matrix import load_matrix

REPORTS = Path(__file__).resolve().parent / "data" / "reports"


def test_a_real_2_22_rc0_install_reports_its_cuda_line_and_gpu_code() -> None:
    facts = facts_from_json(json.loads((REPORTS / "tf222rc0-cpu-venv.json").read_text()))
    assert facts.tensorflow is not None
    # What the build info no longer says ...
    assert facts.tensorflow.cuda_version is None
    assert facts.tensorflow.compute_capabilities == ()
    matrix = load_matrix()
    machine = view(facts, matrix)
    # ... is read from the wheel's and-cuda pins and from its objects' fat binaries.
    assert machine.build_cuda == "12.5"
    code = machine.build_gpu_code
    assert code is not None
    assert code.sass == ("sm_60", "sm_70", "sm_80", "sm_89", "sm_90")
    assert code.ptx == ("compute_90",)
    findings = run_checks(CheckContext(facts, matrix))
    (imported,) = [x for x in findings if x.id == "tensorflow.import"]
    assert "CUDA 12.5 build with code for sm_60, sm_70, sm_80, sm_89, sm_90, compute_90 PTX" in (
        imported.summary
    )
    # A healthy CPU machine: nothing above a note.
    assert [x.summary for x in findings if x.severity.rank >= Severity.WARNING.rank] == []
