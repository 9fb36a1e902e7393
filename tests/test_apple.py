"""Apple silicon: tensorflow-metal against TensorFlow and Python (the companion table's rows,
read from the metal wheels on PyPI), and an x86-64 Python under Rosetta; each machine a facts
file in tests/data/apple giving its verdict and fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.facts_cases import assert_verdict, read_case
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import facts_from_json
from tfdoctor.matrix import load_companions, load_matrix

CASES = sorted((Path(__file__).parent / "data" / "apple").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_mac_gets_its_verdict_and_fix(path: Path) -> None:
    assert_verdict(path)


@pytest.mark.parametrize(
    ("metal", "tensorflow", "python", "fits"),
    [
        pytest.param("1.1.0", "2.14.0", "3.11", True, id="1.1-with-2.14"),
        # tensorflow-metal's own table: "v2.14-v2.18 | v1.1.0", and 2.18 fixed by 1.2.0.
        pytest.param("1.1.0", "2.16.1", "3.11", True, id="1.1-with-2.16"),
        pytest.param("1.1.0", "2.18.0", "3.11", False, id="1.1-with-2.18"),
        pytest.param("1.2.0", "2.19.0", "3.12", False, id="no-table-row-for-2.19"),
        pytest.param("0.5.0", "2.9.2", "3.10", True, id="0.5-with-2.9"),
        pytest.param("1.2.0", "2.18.0", "3.12", True, id="1.2-with-2.18"),
        pytest.param("1.2.0", "2.18.0", "3.13", False, id="1.2-on-3.13"),
        pytest.param("0.1.2", "2.5.0", "3.9", True, id="0.1-with-2.5"),
    ],
)
def test_metal_rows_pair_each_release_with_its_tensorflow_and_pythons(
    metal: str, tensorflow: str, python: str, fits: bool
) -> None:
    row = load_companions().companions["tensorflow-metal"].row_of(metal)

    assert row is not None
    assert (row.admits(tensorflow) and row.runs_on(python)) is fits


@pytest.mark.parametrize(
    ("name", "fix_has"),
    [
        pytest.param("tf-2.18-without-metal-no-gpu", "tensorflow-metal==1.2.*", id="a-pair-exists"),
        pytest.param("tf-2.21-without-metal-no-pair", "tensorflow-metal", id="no-pair"),
    ],
)
def test_requiring_the_gpu_on_a_mac_names_the_metal_plugin(name: str, fix_has: str) -> None:
    # A Mac has no NVIDIA driver to blame: the gate names what platform.metal found, a CPU
    # Mac's note raised to the error --require-gpu asks for, with its fix.
    facts = facts_from_json(
        read_case(Path(__file__).parent / "data" / "apple" / f"{name}.json")["facts"]
    )
    ctx = CheckContext(facts, load_matrix(), require_gpu=True)
    (gate,) = run_checks(ctx, select_checks(["gpu.required"]))
    assert (gate.severity.value, gate.cause) == ("error", "package-not-installed"), gate
    assert "platform.metal" in gate.summary
    assert gate.fix is not None
    fix = gate.fix.text + "\n" + "\n".join(gate.fix.commands)
    assert fix_has in fix and "nvidia-smi" not in fix
