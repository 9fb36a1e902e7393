"""Companions of TensorFlow on machines written for the check: a companion of another
TensorFlow line, one that needs Keras 2 (tf-keras) where tf.keras is Keras 3, one that needs
Keras 3 under a TensorFlow whose Keras is 2, one installed where TensorFlow is not, and the
healthy pairings beside them; each a facts file in tests/data/companion_setups giving the
verdict of one check and its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.facts_cases import read_case
from tfdoctor.checks import run_checks, select_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import load_matrix

CASES = sorted((Path(__file__).parent / "data" / "companion_setups").glob("*.json"))


def _findings(path: Path) -> tuple[dict[str, str], list[Finding]]:
    """The case's expectation and its check's findings on the case's facts."""
    case = read_case(path)
    expect = case["expect"]
    assert case["source"].startswith("https://")
    facts = facts_from_json(case["facts"])
    found = run_checks(CheckContext(facts, load_matrix()), select_checks([expect["check"]]))
    return expect, [f for f in found if f.id == expect["check"]]


def _fix(found: Finding) -> str:
    return "" if found.fix is None else found.fix.text + "\n" + "\n".join(found.fix.commands)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_companion_set_up_gets_its_verdict_and_fix(path: Path) -> None:
    expect, found = _findings(path)
    if not expect["cause"]:
        # A pairing that matches: nothing from the check at warning or above.
        assert all(f.severity.rank < Severity.WARNING.rank for f in found), found
        return
    # The one finding of the expected cause (a check such as packages.pins may name other
    # packages beside it).
    (named,) = [f for f in found if f.cause == expect["cause"]]
    assert named.severity.value == expect["severity"], named
    fix = _fix(named)
    for needle in expect["fix_includes"]:
        assert needle in fix, (needle, fix)
    for needle in expect["fix_excludes"]:
        assert needle not in fix, (needle, fix)


def test_a_companions_missing_tf_keras_is_one_finding() -> None:
    # tensorflow-hub 0.16.1 requires tf-keras>=2.14.1 and needs it where tf.keras is Keras 3:
    # one finding, whose fix installs the tf-keras of TensorFlow's line, not two.
    _, found = _findings(CASES[0].with_name("hub-0161-no-tf-keras-tf217.json"))
    assert [f.cause for f in found if f.severity.rank >= Severity.WARNING.rank] == [
        "tf-keras-missing"
    ]


def test_a_keras_no_release_meets_is_not_asked_of_pip() -> None:
    # keras>=3.5 beside TensorFlow 2.15's keras<2.16: a requirement joining both is one pip
    # cannot meet; the fix moves TensorFlow to a line whose Keras range meets the companion's.
    _, found = _findings(CASES[0].with_name("kerashub-keras3-needs-tf216.json"))
    (named,) = [f for f in found if f.cause == "companion-mismatch"]
    assert named.fix is not None
    assert not any("<2.16" in c and ">=3.5" in c for c in named.fix.commands), named.fix
    assert "no keras release meets both" in named.fix.text


def test_tfmot_s_failure_quotes_python_s_message() -> None:
    # tensorflow-model-optimization 0.8's keras compat module runs `import tf_keras`: Python's
    # message is ModuleNotFoundError: No module named 'tf_keras', what a user searches for.
    _, found = _findings(CASES[0].with_name("tfmot-080-no-tf-keras-tf216.json"))
    (named,) = [f for f in found if f.cause == "tf-keras-missing"]
    assert "No module named 'tf_keras'" in named.detail, named.detail
