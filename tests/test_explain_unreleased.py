"""An exception nothing else explains, in a log whose TensorFlow is a pre-release (an rc, an
alpha or a beta) or a nightly build: the build's own defect is a candidate, a warning, with
the final release (or an earlier nightly) as its fix."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, finding_of, fix_text
from tfdoctor.causes.runtime import (
    TF_BUILD_REGRESSION,
    TF_PRERELEASE_REGRESSION,
    unreleased_build,
)
from tfdoctor.findings import Severity

_FAILURE = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 12, in <module>\n'
    "    main()\n"
    "ValueError: Shapes (None, 4) and (None, 5) are incompatible\n"
)


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("2.16.0rc0", (TF_PRERELEASE_REGRESSION, "2.16.0")),
        ("2.0.0a0", (TF_PRERELEASE_REGRESSION, "2.0.0")),
        ("2.0.0b1", (TF_PRERELEASE_REGRESSION, "2.0.0")),
        ("2.16.0-rc0", (TF_PRERELEASE_REGRESSION, "2.16.0")),
        ("2.13.0.dev20230428", (TF_BUILD_REGRESSION, "2.13.0")),
        ("2.16.1", None),
        ("1.15.5", None),
    ],
)
def test_unreleased_builds_are_read_from_the_version(
    version: str, expected: Optional[tuple[str, str]]
) -> None:
    assert unreleased_build(version) == expected


def test_a_release_candidate_beside_an_unexplained_exception_is_a_candidate() -> None:
    report = explained("Successfully installed tensorboard-1.8.0 tensorflow-1.8.0rc0\n" + _FAILURE)
    found = finding_of(report, "tf-prerelease-regression")
    assert found is not None and found.severity is Severity.WARNING
    fix = fix_text(found)
    assert "--pre" in fix and 'tensorflow==1.8.*"' in fix
    # pip keeps an installed pre-release that meets the pin: only --upgrade replaces it.
    assert 'pip install --upgrade "tensorflow==1.8.*"' in fix


def test_a_nightly_beside_an_unexplained_exception_is_a_candidate() -> None:
    report = explained("Successfully installed tf-nightly-2.13.0.dev20230428\n" + _FAILURE)
    found = finding_of(report, "tf-build-regression")
    assert found is not None and found.severity is Severity.WARNING
    assert "pip index versions --pre tf-nightly" in fix_text(found)


@pytest.mark.parametrize(
    "text",
    [
        # A final release: nothing unreleased to blame.
        "Successfully installed tensorflow-2.16.1\n" + _FAILURE,
        # A pre-release asked for, then a final release installed: the final one ran.
        "$ pip install tensorflow==2.16.0rc0\n^C\n"
        "$ pip install tensorflow\nSuccessfully installed tensorflow-2.16.1\n" + _FAILURE,
        # The release candidate replaced by the final release before the run.
        "Successfully installed tensorflow-2.17.0rc0\n"
        "Successfully uninstalled tensorflow-2.17.0rc0\n"
        "Successfully installed tensorflow-2.17.0\n" + _FAILURE,
        # A failure another cause explains keeps that cause alone.
        "Successfully installed tensorflow-2.16.0rc0\n"
        "ImportError: libcudart.so.12: cannot open shared object file: No such file or "
        "directory\n",
    ],
)
def test_no_unreleased_candidate_where_none_ran_or_another_cause_explains(text: str) -> None:
    report = explained(text)
    assert finding_of(report, "tf-prerelease-regression") is None
    assert finding_of(report, "tf-build-regression") is None
