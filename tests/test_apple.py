"""Apple silicon: tensorflow-metal against TensorFlow and Python (the companion table's rows,
read from the metal wheels on PyPI), and an x86-64 Python under Rosetta; each machine a facts
file in tests/data/apple giving its verdict and fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.facts_cases import assert_verdict
from tfdoctor.matrix import load_companions

CASES = sorted((Path(__file__).parent / "data" / "apple").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_mac_gets_its_verdict_and_fix(path: Path) -> None:
    assert_verdict(path)


@pytest.mark.parametrize(
    ("metal", "tensorflow", "python", "fits"),
    [
        pytest.param("1.1.0", "2.14.0", "3.11", True, id="1.1-with-2.14"),
        pytest.param("1.1.0", "2.16.1", "3.11", False, id="1.1-with-2.16"),
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
