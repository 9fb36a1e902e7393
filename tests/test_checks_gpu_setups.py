"""GPU set-ups the driver's own view does not explain: WSL 2 (the GPU comes from the Windows
driver through /dev/dxg and the libraries WSL mounts in /usr/lib/wsl/lib), a GPU in MIG mode,
and another framework's nvidia-* pins beside TensorFlow's; each machine a facts file in
tests/data/gpu_setups giving its verdict and fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.facts_cases import assert_verdict, read_case
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Severity
from tfdoctor.matrix import load_matrix

CASES = sorted((Path(__file__).parent / "data" / "gpu_setups").glob("*.json"))
WSL = [p for p in CASES if p.stem.startswith("wsl2-")]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_machine_gets_its_verdict_and_fix(path: Path) -> None:
    assert_verdict(path)


@pytest.mark.parametrize("path", WSL, ids=lambda p: p.stem)
def test_no_finding_sends_a_wsl_machine_to_a_linux_driver_or_a_container(path: Path) -> None:
    # Outside a container, WSL 2 has no Linux driver or container runtime to mend: no finding
    # of any check may ask for one.
    facts = facts_from_json(read_case(path)["facts"])
    for found in run_checks(CheckContext(facts, load_matrix())):
        if found.fix is None or found.severity.rank < Severity.WARNING.rank:
            continue
        fix = found.fix.text + "\n" + "\n".join(found.fix.commands)
        assert "--gpus" not in fix and "modprobe" not in fix, found
        assert found.cause not in ("container-no-gpu", "driver-libraries-missing"), found
