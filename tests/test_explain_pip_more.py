"""pip's words about TensorFlow's packages and their dependencies: a requirement's environment
marker beside a refusal, a yanked placeholder pip fell back to, and the user's pin outside the
range another requested package declares (ResolutionImpossible)."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.pip import read_refusals, read_unmatched

# --- an environment marker after the requirement ------------------------------------------------


_EXTRA_MARKER = (
    "ERROR: Could not find a version that satisfies the requirement dm-reverb==0.2.0; "
    'extra == "reverb" (from dm-acme[reverb]) (from versions: none)'
)
#: Parentheses inside the marker group its clauses; pip's own "(from ...)" ends it.
_GROUPED_MARKER = (
    "ERROR: Could not find a version that satisfies the requirement tensorflow-macos>=2.7.0; "
    '(sys_platform == "darwin" and python_version < "3.11") and extra == "full" '
    "(from mytool[full]) (from versions: none)"
)


@pytest.mark.parametrize(
    ("line", "dist", "spec", "versions"),
    [
        pytest.param(_EXTRA_MARKER, "dm-reverb", "==0.2.0", (), id="extra"),
        pytest.param(
            "Could not find a version that satisfies the requirement tensorflow-io-gcs-filesystem"
            '>=0.23.1; platform_machine != "arm64" (from tensorflow) (from versions: 0.20.0)',
            "tensorflow-io-gcs-filesystem",
            ">=0.23.1",
            ("0.20.0",),
            id="platform",
        ),
        pytest.param(_GROUPED_MARKER, "tensorflow-macos", ">=2.7.0", (), id="grouped-clauses"),
    ],
)
def test_a_marker_after_the_requirement_keeps_its_list_and_specifier(
    line: str, dist: str, spec: str, versions: tuple[str, ...]
) -> None:
    (refusal,) = read_refusals([line])
    assert (refusal.dist, refusal.spec, refusal.versions, refusal.shown) == (
        dist,
        spec,
        versions,
        True,
    )


def test_the_unmatched_line_drops_its_marker() -> None:
    last = 'ERROR: No matching distribution found for dm-reverb==0.2.0; extra == "reverb"'
    assert read_unmatched(last) == ("dm-reverb", "==0.2.0")


def test_a_companion_refused_under_an_extra_is_read_as_the_release_it_names() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement dm-reverb==0.2.0; "
        'extra == "reverb" (from dm-acme[reverb]) (from versions: none)\n'
        'ERROR: No matching distribution found for dm-reverb==0.2.0; extra == "reverb"\n'
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    # The release exists: what it publishes, not "no release matches".
    assert "dm-reverb 0.2.0 publishes wheels" in fix and "Linux" in fix
    assert "No release of dm-reverb" not in fix


def test_a_grouped_marker_with_no_release_is_no_wheel_for_this_system() -> None:
    # pip saw no release at all: no wheel for this system, not a pip too old to read one.
    line = _GROUPED_MARKER.removeprefix("ERROR: ")
    assert top_error(explained(line)).cause == "tf-no-wheel-for-python"


# --- a yanked placeholder pip fell back to ------------------------------------------------------

_YANKED = (
    "WARNING: The candidate selected for download or install is a yanked version: '{dist}' "
    "candidate (version {version} at https://files.pythonhosted.org/packages/1a/2b/"
    "{wheel}-{version}-{tags}.whl#sha256=0f0f (from https://pypi.org/simple/{dist}/))\n"
    "Reason for being yanked: <none given>\n"
)


def test_a_yanked_pure_wheel_of_a_native_companion_is_no_wheel_for_this_machine() -> None:
    text = (
        _YANKED.format(
            dist="tensorflow-decision-forests",
            wheel="tensorflow_decision_forests",
            version="0.0.0",
            tags="py3-none-any",
        )
        + "Traceback (most recent call last):\n"
        '  File "C:\\Users\\me\\proj\\train.py", line 2, in <module>\n'
        "    import tensorflow_decision_forests as tfdf\n"
        "ModuleNotFoundError: No module named 'tensorflow_decision_forests'\n"
    )
    report = explained(text)
    found = [f for f in report.findings if f.cause == "tf-no-wheel-for-python"]
    # The missing module is the placeholder's: the error, and no "install it" beside it.
    assert found and found[0].severity.value == "error"
    assert all(f.cause != "package-not-installed" for f in report.findings)
    fix = fix_text(found[0])
    assert "tensorflow-decision-forests 0.0.0" in fix and "yanked" in fix
    # What its releases publish, from the bundled index, and the system the paths show.
    assert "publishes wheels for" in fix and "Windows" in fix
    assert "pip uninstall -y tensorflow-decision-forests" in found[0].fix.commands  # type: ignore[union-attr]


def test_a_yanked_placeholder_alone_or_beside_another_missing_module_is_a_warning() -> None:
    text = _YANKED.format(
        dist="tensorflow-decision-forests",
        wheel="tensorflow_decision_forests",
        version="0.0.0",
        tags="py3-none-any",
    ) + (
        "Traceback (most recent call last):\n"
        '  File "/home/me/proj/train.py", line 2, in <module>\n'
        "    import pandas\n"
        "ModuleNotFoundError: No module named 'pandas'\n"
    )
    found = [f for f in explained(text).findings if f.cause == "tf-no-wheel-for-python"]
    assert found and found[0].severity.value == "warning"


@pytest.mark.parametrize(
    ("dist", "wheel", "version", "tags"),
    [
        # A pure distribution of the family: its yanked release is one a requirement pinned.
        pytest.param(
            "tensorflow-probability",
            "tensorflow_probability",
            "0.8.0",
            "py2.py3-none-any",
            id="pure-family-release",
        ),
        # A platform wheel: pip found a real build, yanked or not.
        pytest.param(
            "tensorflow-decision-forests",
            "tensorflow_decision_forests",
            "1.0.0",
            "cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64",
            id="platform-wheel",
        ),
        # Any other package's yanked release.
        pytest.param("email-validator", "email_validator", "2.1.0", "py3-none-any", id="other"),
    ],
)
def test_other_yanked_releases_are_not_read_as_a_missing_wheel(
    dist: str, wheel: str, version: str, tags: str
) -> None:
    text = _YANKED.format(dist=dist, wheel=wheel, version=version, tags=tags)
    assert all(f.cause != "tf-no-wheel-for-python" for f in explained(text).findings)


def test_pips_own_refusal_beside_a_yanked_placeholder_says_more() -> None:
    text = _YANKED.format(
        dist="tensorflow-decision-forests",
        wheel="tensorflow_decision_forests",
        version="0.0.0",
        tags="py3-none-any",
    ) + (
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorflow-decision-forests==1.9.0 (from versions: 0.0.0)\n"
    )
    found = [f for f in explained(text).findings if f.cause == "tf-no-wheel-for-python"]
    assert all("a yanked release whose wheel" not in fix_text(f) for f in found)


# --- the user's pin outside another requested package's range -----------------------------------

_RESOLUTION = (
    "ERROR: Cannot install black==22.1.0 and typing-extensions==3.7.4.3 because these package "
    "versions have conflicting dependencies.\n"
    "\n"
    "The conflict is caused by:\n"
    "    The user requested typing-extensions==3.7.4.3\n"
    "    black 22.1.0 depends on typing-extensions>=3.10.0.0\n"
    "\n"
    "To fix this you could try to:\n"
    "1. loosen the range of package versions you've specified\n"
    "2. remove package versions to allow pip attempt to solve the dependency conflict\n"
    "\n"
    "ERROR: ResolutionImpossible: for help visit "
    "https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts\n"
)


def test_a_pin_outside_another_packages_range_stops_the_install() -> None:
    top = explained(_RESOLUTION).findings[0]
    assert top.cause == "dependency-out-of-range"
    assert top.severity.value == "warning"
    fix = fix_text(top)
    assert "typing-extensions==3.7.4.3" in fix and "typing-extensions>=3.10.0.0" in fix
    assert 'pip install "black==22.1.0" "typing-extensions>=3.10.0.0"' in (
        top.fix.commands  # type: ignore[union-attr]
    )


def test_a_pin_inside_every_range_is_not_the_conflict() -> None:
    # The ranges listed meet each other (3.7 to 4) and the user's request names no release of
    # them: neither the request nor the two ranges are a clash (two ranges that do not meet
    # would be one: test_explain_resolver_words.py).
    text = _RESOLUTION.replace(
        "    black 22.1.0 depends on typing-extensions>=3.10.0.0\n",
        "    black 22.1.0 depends on typing-extensions>=3.7\n"
        "    other 1.0 depends on typing-extensions<4\n",
    ).replace("The user requested typing-extensions==3.7.4.3", "The user requested black")
    assert all(f.cause != "dependency-out-of-range" for f in explained(text).findings)


def test_a_pin_conflict_beside_another_packages_exception_is_left_to_it() -> None:
    text = _RESOLUTION + (
        "Traceback (most recent call last):\n"
        '  File "/home/user/app/run.py", line 1, in <module>\n'
        "    import yaml\n"
        "ModuleNotFoundError: No module named 'yaml'\n"
    )
    found = [f for f in explained(text).findings if f.cause == "dependency-out-of-range"]
    assert not found


# --- a project's nightly distribution -----------------------------------------------------------


def test_a_nightly_of_an_indexed_companion_gets_its_releases_platforms() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement "
        'dm-reverb-nightly==0.2.0.dev20210101; extra == "reverb" (from dm-acme[reverb]) '
        "(from versions: none)\n"
        "ERROR: No matching distribution found for dm-reverb-nightly==0.2.0.dev20210101; "
        'extra == "reverb" (from dm-acme[reverb])\n'
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "nightly build of dm-reverb" in fix and "Linux x86-64 only" in fix


def test_a_nightly_the_index_does_not_know_the_base_of_gets_no_platforms() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement "
        "tensorflow-unknownthing-nightly (from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow-unknownthing-nightly\n"
    )
    fixes = " ".join(fix_text(f) for f in explained(text).findings if f.fix is not None)
    assert "nightly build of" not in fixes
