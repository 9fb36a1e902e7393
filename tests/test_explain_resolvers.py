"""Resolver and index refusals read further: a range of old TensorFlow releases none of which
has a wheel for the interpreter, a pin of a distribution TensorFlow's wheel requires on one
platform only, and pip's conflict lines whose requirer carries extras."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error


def test_a_range_of_tf1_releases_names_their_newest_python() -> None:
    text = "Could not find a version that satisfies the requirement tensorflow<2.0.0,>=1.12.0\n"
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    # The matrix's Pythons of the releases in the range, not a generic "supported Python".
    assert "Python 3.7" in fix_text(top)


def test_a_range_that_reaches_the_newest_line_is_not_read_as_old_releases() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow<3,>=2.0 "
        "(from versions: none)\n"
    )
    top = top_error(explained(text))
    assert "The requirement asks for" not in fix_text(top)


def test_a_range_whose_releases_have_the_logs_python_is_not_the_pythons_fault() -> None:
    text = (
        "$ python --version\nPython 3.7.9\n"
        "Could not find a version that satisfies the requirement tensorflow<2.0.0,>=1.12.0\n"
    )
    assert "Run it on Python 3.7" not in fix_text(top_error(explained(text)))


def test_a_frozen_pin_of_the_windows_only_distribution_elsewhere() -> None:
    text = (
        "pip install -r requirements.txt\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow_intel==2.14.1 "
        "(from versions: 0.0.1)\n"
        "ERROR: No matching distribution found for tensorflow_intel==2.14.1\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "tensorflow-intel" in fix and 'sys_platform == "win32"' in fix
    assert "tensorflow-intel==2.14.1 ;" in fix


def test_on_its_own_platform_the_wrappers_refusal_is_not_a_frozen_pin() -> None:
    text = (
        r"C:\Users\user> pip install tensorflow_intel==2.14.1" + "\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow_intel==2.14.1 "
        "(from versions: 0.0.1)\n"
    )
    assert "pip freeze" not in fix_text(top_error(explained(text)))


def test_a_requirer_with_extras_in_pips_conflict_block() -> None:
    text = (
        "ERROR: Cannot install python-doctr[tf-cpu]==0.5.1a0 and tensorflow-cpu==2.8.0 because "
        "these package versions have conflicting dependencies.\n"
        "The conflict is caused by:\n"
        "    python-doctr[tf-cpu] 0.5.1a0 depends on keras<2.7.0\n"
        "    tensorflow-cpu 2.8.0 depends on keras<2.9 and >=2.8.0rc0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    assert "keras" in fix_text(top)


def test_the_nightlys_wheel_is_tensorflows_own_in_the_patterns() -> None:
    from tfdoctor.signatures import load_signatures

    line = (
        "ERROR: tf_nightly-2.20.0.dev20250101-cp312-cp312-manylinux_2_17_x86_64.whl is not a "
        "supported wheel on this platform."
    )
    by_id = {s.id: s for s in load_signatures().signatures}
    assert by_id["pip-unsupported-wheel"].pattern.search(line)
    assert not by_id["pip-unsupported-wheel-other"].pattern.search(line)


def test_a_range_of_old_releases_on_a_mac_names_rosetta() -> None:
    text = (
        "(venv) user@Users-MacBook-Air ~ % pip install -r requirements.txt\n"
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorflow<2.0.0,>=1.12.0 (from versions: none)\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "Python 3.7" in fix and "Rosetta 2" in fix


def test_a_wrapper_refused_where_no_system_shows_says_both_readings() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-intel==2.15.0 "
        "(from versions: none)\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "pip freeze" in fix and "the pin is right and pip refuses the Python" in fix


def test_tensorflow_macos_asked_for_by_name_is_no_frozen_pin() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-macos "
        "(from versions: none)\n"
    )
    assert "pip freeze" not in fix_text(top_error(explained(text)))


# --- one package's candidates, all requiring a name pip finds no release of ------------------


def _unmet(requirer: str, target: str, versions: tuple[str, ...] = ("0.7.3", "0.7.2")) -> str:
    """pip's ResolutionImpossible report where every candidate of ``requirer`` requires
    ``target`` (a name and specifier) and nothing else is in conflict."""
    asked = " and ".join(f"{requirer}=={v}" for v in reversed(versions))
    causes = "".join(f"    {requirer} {v} depends on {target}\n" for v in versions)
    return (
        f"ERROR: Cannot install {asked} because these package versions have conflicting "
        "dependencies.\n\nThe conflict is caused by:\n" + causes + "\n"
        "To fix this you could try to:\n"
        "1. loosen the range of package versions you've specified\n"
        "2. remove package versions to allow pip attempt to solve the dependency conflict\n\n"
        "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/"
        "dependency-resolution/#dealing-with-dependency-conflicts\n"
    )


def test_every_candidate_requiring_a_companion_without_a_wheel_names_its_wheels() -> None:
    from tfdoctor.wheel_index import releases_of

    top = top_error(explained(_unmet("mediapipe-model-maker", "tensorflow-text")))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    newest = releases_of("tensorflow-text")[-1]
    assert f"tensorflow-text's newest release ({newest.version})" in fix
    assert "mediapipe-model-maker" in top.summary


def test_every_candidate_requiring_tensorflow_is_no_tensorflow_wheel_here() -> None:
    top = top_error(explained(_unmet("tensorflow-recommenders", "tensorflow>=2.9.0")))
    assert top.cause == "tf-no-wheel-for-python"
    assert "64-bit CPython" in fix_text(top)


def test_a_user_request_in_the_conflict_is_not_a_missing_release() -> None:
    text = _unmet("mylib", "tensorflow-text>=2.15").replace(
        "The conflict is caused by:\n",
        "The conflict is caused by:\n    The user requested tensorflow-text==2.10.0\n",
    )
    assert not any(
        f.summary.startswith("pip found no tensorflow-text release")
        for f in explained(text).findings
    )


def test_two_packages_ranges_on_one_name_are_not_a_missing_release() -> None:
    from tfdoctor.evidence.packages import Unavailable, read_unavailable

    text = _unmet("mylib", "numpy>=2")
    assert read_unavailable([text]) == [Unavailable("numpy", (">=2",), "mylib", ("0.7.3", "0.7.2"))]
    other = text.replace("mylib 0.7.2 depends on numpy>=2", "otherlib 1.0 depends on numpy<2")
    assert read_unavailable([other]) == []
    one = _unmet("mylib", "numpy>=2", ("0.7.3",))
    assert read_unavailable([one]) == []


@pytest.mark.parametrize(
    "causes",
    [
        # Two extras of one package asked for together, their ranges on one name disjoint.
        "    mylib[cpu] 0.7.3 depends on numpy<2\n    mylib[gpu] 0.7.3 depends on numpy>=2\n",
        # One release's own requirements on one name (oldest-supported-numpy 0.13 on s390x,
        # https://github.com/pypa/pip/issues/10719).
        "    oldest-supported-numpy 0.13 depends on numpy==1.17.5\n"
        "    oldest-supported-numpy 0.13 depends on numpy==1.17.3\n",
    ],
    ids=["two-extras", "one-release"],
)
def test_one_release_with_two_ranges_on_a_name_is_not_a_missing_release(causes: str) -> None:
    from tfdoctor.evidence.packages import read_unavailable

    text = (
        "ERROR: Cannot install mylib because these package versions have conflicting "
        "dependencies.\n\nThe conflict is caused by:\n" + causes + "\n"
        "To fix this you could try to:\n"
    )
    assert read_unavailable([text]) == []
    assert not any(
        f.summary.startswith("pip found no numpy release") for f in explained(text).findings
    )
