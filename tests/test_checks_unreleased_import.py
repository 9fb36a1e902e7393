"""check on an unreleased TensorFlow whose own import fails inside its own modules."""

from __future__ import annotations

import pytest

from tests import factories as f
from tests.explaining import explained, finding_of
from tfdoctor import causes
from tfdoctor.checks import run_checks
from tfdoctor.checks._context import CheckContext
from tfdoctor.facts import Facts, PackageFacts
from tfdoctor.findings import Finding, Severity

NIGHTLY = f.pkg("tf-nightly", "2.17.0.dev20240301", top_level=("tensorflow",))
RELEASE = f.pkg("tensorflow", "2.15.1", top_level=("tensorflow",))
TF = f"{f.SITE}/tensorflow"


def _traceback(innermost: str) -> str:
    """A failed ``python -c "import tensorflow"`` whose innermost frame is ``innermost``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        f'  File "{TF}/__init__.py", line 45, in <module>\n'
        "    from tensorflow._api.v2 import __internal__\n"
        f'  File "{TF}/_api/v2/__internal__/__init__.py", line 12, in <module>\n'
        "    from tensorflow._api.v2.__internal__ import dispatch\n"
        f'  File "{innermost}", line 88, in <module>\n'
        "    registry = Registry('ops', 'dispatch', 3)\n"
        "TypeError: Registry.__init__() takes 3 positional arguments but 4 were given\n"
    )


def _import_of(packages: tuple[PackageFacts, ...], innermost: str) -> Finding:
    facts: Facts = f.facts(
        packages=(*packages, f.pkg("numpy", "1.26.4")),
        tensorflow=f.tensorflow(
            status="import-error",
            version=None,
            error_type="TypeError",
            error_message="Registry.__init__() takes 3 positional arguments but 4 were given",
            stderr_tail=_traceback(innermost),
        ),
    )
    found = run_checks(CheckContext(facts, f.FIXTURE_MATRIX))
    return next(x for x in found if x.id == "tensorflow.import")


OWN = f"{TF}/python/util/dispatch.py"


def test_a_nightly_failing_in_its_own_modules_is_that_builds_defect() -> None:
    found = _import_of((NIGHTLY,), OWN)
    assert (found.cause, found.severity) == (causes.runtime.TF_BUILD_REGRESSION, Severity.ERROR)
    assert found.summary.startswith("tf-nightly 2.17.0.dev20240301, a nightly build")
    assert found.fix is not None and "pin tf-nightly to a build from before" in found.fix.text


def test_beside_another_distribution_it_is_a_warning() -> None:
    found = _import_of((NIGHTLY, RELEASE), OWN)
    assert (found.cause, found.severity) == (causes.runtime.TF_BUILD_REGRESSION, Severity.WARNING)
    assert "tensorflow 2.15.1 is installed beside it" in found.detail


@pytest.mark.parametrize(
    ("packages", "innermost"),
    [
        pytest.param((RELEASE,), OWN, id="final-release"),
        pytest.param((NIGHTLY,), f"{f.SITE}/somelib/registry.py", id="other-code-innermost"),
    ],
)
def test_not_where_the_build_is_released_or_other_code_ran(
    packages: tuple[PackageFacts, ...], innermost: str
) -> None:
    found = _import_of(packages, innermost)
    assert found.cause != causes.runtime.TF_BUILD_REGRESSION
    assert found.severity is Severity.ERROR


def test_check_and_explain_give_one_finding_of_the_build() -> None:
    """One builder (causes.unreleased_build_finding) gives check's and explain's finding of
    an unreleased build: the same title form, the same reading and the same fix."""
    checked = _import_of((NIGHTLY,), OWN)
    report = explained(
        "Successfully installed tf-nightly-2.17.0.dev20240301\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 12, in <module>\n'
        "    main()\n"
        "ValueError: Shapes (None, 4) and (None, 5) are incompatible\n"
    )
    told = finding_of(report, causes.runtime.TF_BUILD_REGRESSION)
    assert told is not None
    name = "tf-nightly 2.17.0.dev20240301, a nightly build: "
    reading = (
        "tf-nightly 2.17.0.dev20240301 is a nightly build of 2.17.0: unreleased builds carry "
        "defects that their final release, or a build of another day, does not."
    )
    for found in (checked, told):
        assert found.summary.startswith(name), found.summary
        assert reading in found.detail, found.detail
        assert found.fix is not None and "pin tf-nightly to a build from before" in found.fix.text
