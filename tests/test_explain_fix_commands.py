"""Fixes as a user runs them: the Pythons a release of TensorFlow serves, and the range a
dependency fix installs under several TensorFlow distributions."""

from __future__ import annotations

from tests.explaining import explained, fix_text
from tfdoctor.findings import Finding, Report
from tfdoctor.inputs import open_matrix

#: The shipped matrix: its newest line has a release candidate only.
SHIPPED = open_matrix(None)


def _of(report: Report, cause: str) -> Finding:
    found = [f for f in report.findings if f.cause == cause]
    assert found, [f.id for f in report.findings]
    return found[0]


_NO_RELEASE = (
    "$ pip install tensorflow\n"
    "ERROR: Could not find a version that satisfies the requirement tensorflow "
    "(from versions: none)\n"
    "ERROR: No matching distribution found for tensorflow\n"
)


def test_the_pythons_named_are_those_of_final_releases() -> None:
    # The shipped matrix's newest line has a release candidate only, the first for Python
    # 3.14: `pip install tensorflow` does not take it, so the fix names no 3.14.
    assert SHIPPED.lines[0].pre_release and "3.14" in SHIPPED.lines[0].python["linux-x86_64"]
    fix = fix_text(_of(explained(_NO_RELEASE, matrix=SHIPPED), "tf-no-wheel-for-python"))
    assert "(Python 3.6 to 3.13)" in fix
    assert "3.14" not in fix
