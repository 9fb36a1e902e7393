"""The driver stack below TensorFlow as ``check --facts`` reads it: the kernel module (Secure
Boot, nouveau, DKMS), NVML and libcuda of two versions, the toolkit's stub and CUDA's
forward-compatibility libcuda, a GPU another process holds, CUDA_VISIBLE_DEVICES; each machine a
facts file in tests/data/driver_stack (the healthy T4 with its driver sections changed), whose
verdict and fix tests/test_checks_gpu_setups.py asserts; here, the healthy variants give none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.facts_cases import read_case
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Severity
from tfdoctor.matrix import load_matrix

CASES = sorted((Path(__file__).parent / "data" / "driver_stack").glob("*.json"))
HEALTHY = [p for p in CASES if p.stem.startswith("healthy-")]


def test_the_set_ups_are_there() -> None:
    assert len(CASES) >= 15
    assert HEALTHY


@pytest.mark.parametrize("path", HEALTHY, ids=lambda p: p.stem)
def test_a_healthy_machine_gets_no_warning(path: Path) -> None:
    # The executor's NUMA notes and a second GPU are no fault: nothing above info.
    facts = facts_from_json(read_case(path)["facts"])
    worst = [
        (f.id, f.severity.value)
        for f in run_checks(CheckContext(facts, load_matrix()))
        if f.severity.rank >= Severity.WARNING.rank
    ]
    assert worst == []
