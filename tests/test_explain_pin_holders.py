"""Resolver conflicts read by who holds the bound: TensorFlow's own range on a shared
dependency against another package's need, a library's cap below what TensorFlow requires, and
a package's range on TensorFlow itself with no wheel here. Each fix is checked for the holder
it names and for a release whose range admits the other side."""

from __future__ import annotations

import re

import pytest

from tests import factories as f
from tests.explaining import explained, finding_of, fix_text
from tfdoctor.evidence.packages import Conflict, read_conflicts
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import spec_contains

#: pip's ResolutionImpossible block: TensorFlow caps numpy below every release the other
#: package asks for.
PIP_TF_CAP = (
    "ERROR: Cannot install examplelib==3.1.0 and tensorflow==2.15.1 because these package "
    "versions have conflicting dependencies.\n\n"
    "The conflict is caused by:\n"
    "    tensorflow 2.15.1 depends on numpy<2.0.0 and >=1.23.5\n"
    "    examplelib 3.1.0 depends on numpy>=2.0.1\n"
)

#: Poetry's (mixology's) report of the same clash, both ranges shown.
POETRY_TF_CAP = (
    "Because tensorflow (2.15.1) depends on numpy (>=1.23.5,<2.0.0)\n"
    " and examplelib (3.1.0) depends on numpy (>=2.0.1), tensorflow (2.15.1) is incompatible "
    "with examplelib (3.1.0).\n"
    "So, because my-project depends on both tensorflow (2.15.1) and examplelib (3.1.0), "
    "version solving failed.\n"
)

#: Poetry's conclusion from TensorFlow's range alone, the other package's range cut off.
POETRY_ONE_SIDE = (
    "Because no versions of tensorflow match >2.14.0,<3.0.0\n"
    " and tensorflow (2.14.0) depends on wrapt (>=1.11.0,<1.15), tensorflow (>=2.14.0,<3.0.0) "
    "requires wrapt (>=1.11.0,<1.15).\n"
    "Thus, tensorflow (>=2.14.0,<3.0.0) is incompatible with otherlib (>=1.0.0,<2.0.0).\n"
    "So, because my-project depends on both otherlib (^1.0.0) and tensorflow (^2.14.0), "
    "version solving failed.\n"
)


def _of(text: str, cause: str) -> Finding:
    found = finding_of(explained(text), cause)
    assert found is not None and found.fix is not None, [
        (x.id, x.severity.value) for x in explained(text).findings
    ]
    return found


def _admitting_release(found: Finding) -> str:
    """The TensorFlow release the fix's command installs."""
    assert found.fix is not None
    wanted = [
        m.group(1)
        for command in found.fix.commands
        for m in re.finditer(r"tensorflow(?:\[[\w-]+\])?==([\w.]+)", command)
    ]
    assert len(wanted) == 1, found.fix.commands
    return wanted[0]


@pytest.mark.parametrize("text", [PIP_TF_CAP, POETRY_TF_CAP], ids=["pip", "poetry"])
def test_tensorflows_cap_below_another_packages_need_is_tensorflows_pin(text: str) -> None:
    found = _of(text, "tf-pin-conflicts-with-package")
    assert found.severity is Severity.ERROR
    fix = fix_text(found)
    # The holder of the bound moves: a TensorFlow whose declared numpy range (the matrix's)
    # admits what the other package asks for, or the other package's release.
    release = _admitting_release(found)
    line = f.FIXTURE_MATRIX.line_for(release)
    assert line is not None and line.declared("numpy") is not None
    assert spec_contains("2.0.1", line.declared("numpy") or "") is True
    assert "examplelib" in fix
    # Never the dependency pinned to TensorFlow's side, which the other package cannot take.
    assert "numpy<2" not in fix


def test_poetrys_conclusion_from_tensorflows_range_alone() -> None:
    conflicts = read_conflicts([POETRY_ONE_SIDE])
    assert (
        Conflict(
            "tensorflow",
            "2.14.0",
            "wrapt",
            ">=1.11.0,<1.15",
            "between",
            "",
            "otherlib (>=1.0.0,<2.0.0)",
            installer="poetry",
        )
        in conflicts
    )
    found = _of(POETRY_ONE_SIDE, "tf-pin-conflicts-with-package")
    assert found.severity is Severity.ERROR
    fix = fix_text(found)
    # Which way the two miss is not shown: both holders are named, with their releases.
    assert "otherlib" in fix and "TensorFlow release whose wrapt range" in fix
    assert any("otherlib" in x for x in (found.fix.commands if found.fix else ()))


def test_poetrys_numbered_conclusion_from_tensorflows_range_alone() -> None:
    # A conclusion used twice is numbered; the lines around it are padded to the number.
    numbered = POETRY_ONE_SIDE.replace("Thus,", "(1) Thus,").replace("\n and", "\n     and")
    assert [c.other for c in read_conflicts([numbered]) if c.kind == "between"] == [
        "otherlib (>=1.0.0,<2.0.0)"
    ]


def test_poetrys_report_with_both_ranges_is_not_read_one_sided() -> None:
    both = POETRY_ONE_SIDE.replace(
        "Thus,", "And otherlib (1.0.0) depends on wrapt (>=1.15).\nThus,"
    )
    assert all(c.have for c in read_conflicts([both]) if c.kind == "between")


def test_a_packages_range_on_tensorflow_alone_is_no_one_sided_conclusion() -> None:
    other = POETRY_ONE_SIDE.replace("tensorflow (2.14.0) depends", "x (1.0) depends")
    assert not [c for c in read_conflicts([other]) if c.kind == "between"]


#: pip's legacy notice (20.2 and before) of a library's cap below a dependency TensorFlow
#: requires, made by the install it is about to run.
LEGACY_CAP = (
    "ERROR: somelib 1.2.0 has requirement wrapt<1.11.0,>=1.10.0, but you'll have wrapt 1.12.1 "
    "which is incompatible.\n"
)
#: The same notice of a numpy cap, beside the TensorFlow the install brings (2.18.1, whose
#: declared numpy range, >=1.26.0,<2.1.0, misses the cap).
NUMPY_CAP = (
    "ERROR: somelib 1.2.0 has requirement numpy<1.24,>=1.20, but you'll have numpy 2.0.2 "
    "which is incompatible.\n"
)
WITH_TF_218 = "Successfully installed numpy-2.0.2 tensorflow-2.18.1\n"


def test_a_librarys_cap_below_what_tensorflow_requires_is_the_librarys_pin() -> None:
    found = _of(WITH_TF_218 + NUMPY_CAP, "library-pin-conflicts")
    fix = fix_text(found)
    assert "somelib" in fix
    # Upgrade the library; never the dependency moved back below its cap.
    assert "numpy<1.24" not in fix
    commands = found.fix.commands if found.fix else ()
    assert not any("install" in x and "numpy" in x for x in commands)


def test_a_librarys_cap_beside_an_unknown_tensorflow_range_is_no_librarys_pin() -> None:
    # No TensorFlow shown: whether its range admits numpy<1.24 is not known (2.13's declares
    # numpy<=1.24.3), so the dependency moved back is not ruled out.
    assert finding_of(explained(NUMPY_CAP), "library-pin-conflicts") is None
    found = finding_of(explained(NUMPY_CAP), "dependency-out-of-range")
    assert found is not None and "Keep numpy" not in fix_text(found)


def test_a_librarys_cap_on_a_name_tensorflow_does_not_require_stays_a_range() -> None:
    text = LEGACY_CAP.replace("wrapt", "regex")
    assert finding_of(explained(text), "library-pin-conflicts") is None
    assert finding_of(explained(text), "dependency-out-of-range") is not None


def test_a_library_whose_cap_tensorflows_range_meets_moves_the_dependency() -> None:
    # The installed TensorFlow's range admits the library's: moving wrapt back suits both.
    text = (
        "ERROR: tensorflow 2.4.0 has requirement wrapt~=1.12.1, but you'll have wrapt 1.13.3 "
        "which is incompatible.\n" + LEGACY_CAP.replace("<1.11.0,>=1.10.0", "<1.13,>=1.10.0")
    )
    assert finding_of(explained(text), "library-pin-conflicts") is None


def test_a_packages_old_tensorflow_range_names_that_package() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow<2.10,>=2.4.1 "
        "(from audiotool) (from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow<2.10,>=2.4.1\n"
    )
    found = _of(text, "tf-release-not-for-python")
    fix = fix_text(found)
    # The range is audiotool's to widen: its newer release (or its source) is named.
    assert "audiotool's requirement asks for tensorflow<2.10,>=2.4.1" in fix
    assert "pip index versions audiotool" in fix


#: One pip run installing TensorFlow that takes numpy back below another package's need, then
#: pip's notice after the install.
TAKEN_BACK = """\
$ pip install tensorflow==2.15.1
Installing collected packages: numpy, tensorflow
  Attempting uninstall: numpy
    Found existing installation: numpy 2.0.2
    Uninstalling numpy-2.0.2:
      Successfully uninstalled numpy-2.0.2
ERROR: pip's dependency resolver does not currently take into account all the packages that \
are installed. This behaviour is the source of the following dependency conflicts.
examplelib 3.1.0 requires numpy>=2.0.1, but you have numpy 1.26.4 which is incompatible.
Successfully installed numpy-1.26.4 tensorflow-2.15.1
"""


def test_a_dependency_the_tensorflow_install_took_back_names_the_line_that_admits_it() -> None:
    found = _of(TAKEN_BACK, "tf-pin-conflicts-with-package")
    release = _admitting_release(found)
    line = f.FIXTURE_MATRIX.line_for(release)
    assert line is not None and spec_contains("2.0.1", line.declared("numpy") or "") is True
    assert found.fix is not None
    assert any('"examplelib"' in x for x in found.fix.commands)
    assert "numpy<2" not in fix_text(found)


def _resolving_on(python: str) -> str:
    """pip's ResolutionImpossible block under Python ``python`` (its own frame's path): TensorFlow
    2.13.1 caps numpy below what the other package asks for."""
    return (
        f'  File "/home/me/venv/lib/python{python}/site-packages/pip/_internal/cli/main.py", '
        "line 1\n"
        "ERROR: Cannot install examplelib==3.1.0 and tensorflow==2.13.1 because these package "
        "versions have conflicting dependencies.\n\n"
        "The conflict is caused by:\n"
        "    tensorflow 2.13.1 depends on numpy<=1.24.3 and >=1.22\n"
        "    examplelib 3.1.0 depends on numpy>=1.26.0\n"
    )


@pytest.mark.parametrize("python", ["3.10", "3.8"])
def test_the_line_whose_range_admits_the_other_has_wheels_for_the_logs_python(
    python: str,
) -> None:
    # TensorFlow 2.14's numpy range is the nearest that admits numpy>=1.26.0, but it has no
    # wheel for Python 3.8: there the nearest line with one is named.
    found = _of(_resolving_on(python), "tf-pin-conflicts-with-package")
    line = f.FIXTURE_MATRIX.line_for(_admitting_release(found))
    assert line is not None and line.has_wheels_for(python), line
    assert spec_contains("1.26.0", line.declared("numpy") or "") is True


def test_poetrys_one_sided_conclusion_names_the_release_it_resolved_not_the_installed() -> None:
    # An environment holding TensorFlow 2.12.0 (pip list's row) while Poetry resolves 2.14.0:
    # the fix states the range Poetry stated, of the release it stated it for.
    text = "tensorflow                   2.12.0\n" + POETRY_ONE_SIDE
    fix = fix_text(_of(text, "tf-pin-conflicts-with-package"))
    assert "TensorFlow 2.14.0's wrapt range (>=1.11.0,<1.15)" in fix
    assert "2.12.0" not in fix


def test_no_line_with_wheels_for_the_logs_python_admits_the_other_package() -> None:
    # Only TensorFlow 2.15's keras range admits keras>=2.15.0, and it has no wheel for
    # Python 3.8: no TensorFlow is installed by the fix, and the line is named as such.
    text = (
        _resolving_on("3.8")
        .replace("numpy<=1.24.3 and >=1.22", "keras<2.14 and >=2.13.1")
        .replace("numpy>=1.26.0", "keras>=2.15.0")
    )
    found = next(x for x in explained(text).findings if "ranges that do not meet" in x.summary)
    assert found.fix is not None
    assert not [x for x in found.fix.commands if "tensorflow==" in x], found.fix.commands
    assert "has wheels for this Python and platform (TensorFlow 2.15's range does" in fix_text(
        found
    )
