"""pip's refusal of a TensorFlow requirement read with where the requirement came from: an
exact pin another distribution declares is that release's refusal, the user's own request
keeps pip's reading of its list, and a range's Pythons are those of the releases it admits."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.pip import read_platform_hints, read_refusals


def _refusal(requirement: str, origin: str, listing: str) -> str:
    """pip's two lines for a requirement it found no distribution of."""
    origin = f" ({origin})" if origin else ""
    return (
        f"ERROR: Could not find a version that satisfies the requirement {requirement}{origin} "
        f"(from versions: {listing})\n"
        f"ERROR: No matching distribution found for {requirement}\n"
    )


@pytest.mark.parametrize(
    ("line", "required_by"),
    [
        pytest.param(
            "Could not find a version that satisfies the requirement tensorflow==1.9.0 "
            "(from some_app->-r requirements.txt (line 4)) (from versions: )",
            "some-app",
            id="chain-from-a-requirements-file",
        ),
        pytest.param(
            "Could not find a version that satisfies the requirement tensorflow-cpu==2.6.2 "
            "(from toolkit) (from versions: none)",
            "toolkit",
            id="a-distribution",
        ),
        pytest.param(
            "Could not find a version that satisfies the requirement "
            'tensorflow~=2.3.0; extra == "tf" (from suite[tf,onnx]) (from versions: 2.6.0)',
            "suite",
            id="an-extra-with-its-marker",
        ),
        pytest.param(
            "Could not find a version that satisfies the requirement tensorflow==2.1.0 "
            "(from -r requirements.txt (line 7)) (from versions: none)",
            "",
            id="the-users-requirements-file",
        ),
        pytest.param(
            "Could not find a version that satisfies the requirement tensorflow "
            "(from versions: none)",
            "",
            id="the-command-line",
        ),
        pytest.param(
            "Could not find a version that satisfies the requirement tensorflow==2.4.1 "
            "(from C:\\Users\\user\\proj) (from versions: 2.12.0)",
            "",
            id="a-windows-path-is-no-distribution",
        ),
        pytest.param(
            "Could not find a version that satisfies the requirement tensorflow-gpu~=1.12 (from\n"
            "detector==0.3.1) (from versions: )",
            "detector",
            id="a-terminal-wrapping-after-from",
        ),
        pytest.param(
            "Could not find a version that satisfies the requirement keras==2.2.4 (from\r\n"
            "  -r requirements.txt (line 2)) (from versions: none)",
            "",
            id="a-wrapped-requirements-file",
        ),
    ],
)
def test_the_origin_pip_names_is_the_first_of_its_chain(line: str, required_by: str) -> None:
    (refusal,) = read_refusals([line])
    assert refusal.required_by == required_by


@pytest.mark.parametrize(
    "origin",
    [
        pytest.param("from some_app", id="a-dependency"),
        pytest.param("from some_app->-r requirements.txt (line 4)", id="a-dependency-of-a-file"),
    ],
)
def test_a_dependants_pin_with_no_release_listed_is_that_releases_refusal(origin: str) -> None:
    # TensorFlow 1.10.0's files on PyPI: cp27, cp33-cp36 for Linux and macOS, cp35-cp36 for
    # Windows (the matrix's early releases).
    top = top_error(explained(_refusal("tensorflow==1.10.0", origin, "none")))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "some-app requires that release" in fix
    assert "Python 3.6" in fix
    assert "a release of some-app that requires one" in fix


def test_a_dependants_pin_of_a_build_the_matrix_does_not_know_points_to_its_files() -> None:
    top = top_error(explained(_refusal("tensorflow-cpu==2.6.2", "from toolkit", "none")))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "toolkit requires tensorflow-cpu==2.6.2" in fix
    assert "https://pypi.org/project/tensorflow-cpu/2.6.2/#files" in fix
    # The release's own files on PyPI: `pip index versions` filters by this interpreter's tags
    # again (pip's list is already empty) and is missing before pip 21.2.
    assert top.fix is not None
    assert "https://pypi.org/pypi/tensorflow-cpu/2.6.2/json" in top.fix.commands[0]
    assert "pip index versions" not in fix


@pytest.mark.parametrize(
    "origin",
    [
        pytest.param("", id="command-line"),
        pytest.param("from -r requirements.txt (line 3)", id="users-requirements-file"),
    ],
)
def test_the_users_own_pin_with_no_release_listed_keeps_pips_reading(origin: str) -> None:
    top = top_error(explained(_refusal("tensorflow==1.10.0", origin, "none")))
    assert top.cause == "tf-no-wheel-for-python"
    assert "Python 3.6" in fix_text(top)


def test_a_dependants_unpinned_requirement_is_no_release_at_all() -> None:
    # Without a pinned release there is no release to refuse: pip's empty list stands.
    top = top_error(explained(_refusal("tensorflow", "from toolkit", "none")))
    assert top.cause == "tf-no-wheel-for-python"


def test_a_dependants_pin_on_a_python_with_wheels_is_not_the_pins() -> None:
    # A Python that TensorFlow publishes wheels for, shown by the log, and no release listed:
    # the interpreter's bitness or platform stops every release, not this pin.
    shown = "Using pip 21.3.1 from /home/u/venv/lib/python3.6/site-packages/pip (python 3.6)\n"
    log = shown + _refusal("tensorflow-cpu==2.6.2", "from toolkit", "none")
    top = top_error(explained(log))
    assert top.cause == "tf-no-wheel-for-python"
    assert "toolkit requires" not in fix_text(top)


def test_a_users_range_of_old_releases_with_none_listed_is_no_release_at_all() -> None:
    log = _refusal("tensorflow-gpu<=1.14.0,>=1.10.0", "from -r requirements.txt (line 1)", "none")
    top = top_error(explained(log))
    assert top.cause == "tf-no-wheel-for-python"
    # The range's Pythons are still the fix.
    assert "Python 2.7, 3.3 to 3.7" in fix_text(top)


def test_a_compatible_release_clause_from_an_extra_names_its_lines_pythons() -> None:
    listed = "2.5.0rc0, 2.5.0, 2.5.1, 2.6.0, 2.6.1, 2.7.0"
    log = _refusal('tensorflow~=2.4.1; extra == "tf"', "from suite[tf]", listed)
    top = top_error(explained(log))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "tensorflow~=2.4.1" in fix
    assert "3.6 to 3.8" in fix


def test_a_compatible_release_clause_that_pip_lists_a_release_of_is_not_a_range_refusal() -> None:
    # pip lists a release ~=2.4.1 admits: the range's Pythons are not what stopped it.
    log = _refusal("tensorflow~=2.4.1", "", "2.4.1, 2.4.2, 2.5.0")
    top = top_error(explained(log))
    assert "tensorflow~=2.4.1: its releases" not in fix_text(top)


# uv's refusal for the interpreter's platform tags, with its hint naming the wheels' platforms
# on a line below (the terminal wraps it).
UV_PINNED_PLATFORM = """\
  \N{MULTIPLICATION SIGN} No solution found when resolving dependencies:
  ╰─▶ Because tensorflow==2.17.0 has no wheels with a matching platform tag (e.g., \
`macosx_14_0_x86_64`) and you require tensorflow==2.17.0, we can conclude that your \
requirements are unsatisfiable.

      hint: Wheels are available for `tensorflow` (v2.17.0) on the following platforms:
      `manylinux_2_17_aarch64`, `manylinux_2_17_x86_64`, `macosx_12_0_arm64`, `win_amd64`
"""

UV_EVERY_PLATFORM = """\
  \N{MULTIPLICATION SIGN} No solution found when resolving dependencies:
  ╰─▶ Because all versions of tensorflow have no wheels with a matching platform tag (e.g., \
`manylinux_2_35_riscv64`) and you require tensorflow, we can conclude that your requirements \
are unsatisfiable.
"""


def test_uvs_platform_hint_is_read_across_the_terminals_wrap() -> None:
    (hint,) = read_platform_hints([UV_PINNED_PLATFORM])
    assert (hint.dist, hint.version) == ("tensorflow", "2.17.0")
    assert hint.platforms == (
        "manylinux_2_17_aarch64",
        "manylinux_2_17_x86_64",
        "macosx_12_0_arm64",
        "win_amd64",
    )


def test_uvs_pinned_release_without_a_wheel_for_this_platform_names_its_platforms() -> None:
    top = top_error(explained(UV_PINNED_PLATFORM))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert "tensorflow 2.17.0" in fix and "macosx_12_0_arm64, win_amd64 only" in fix
    # uv's words say the platform tag failed: not the Python, not a 32-bit interpreter.
    assert "64-bit CPython" not in fix


def test_uvs_refusal_of_every_release_for_the_platform_is_the_platforms() -> None:
    top = top_error(explained(UV_EVERY_PLATFORM))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "platform tags" in fix and "sysconfig.get_platform()" in fix
    assert "uv venv --python" not in fix


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Because onnxruntime==1.20.1 has no wheels with a matching platform tag (e.g., "
            "`macosx_12_0_x86_64`) and you require onnxruntime==1.20.1, we can conclude that "
            "your requirements are unsatisfiable.",
            id="another-projects-release",
        ),
        pytest.param(
            "Because all versions of mlx have no wheels with a matching platform tag and you "
            "require mlx, we can conclude that your requirements are unsatisfiable.",
            id="another-projects-releases",
        ),
        pytest.param(
            "hint: Wheels are available for `tensorflow` (v2.17.0) on the following platforms: "
            "`manylinux_2_17_x86_64`",
            id="the-hint-alone",
        ),
    ],
)
def test_uvs_platform_words_of_other_projects_are_not_tensorflows(text: str) -> None:
    report = explained(text)
    assert not any(
        f.cause in ("tf-no-wheel-for-python", "tf-release-not-for-python")
        and f.severity.value in ("warning", "error")
        for f in report.findings
    )


def test_tensorflows_own_requirement_of_a_build_keeps_pips_reading() -> None:
    # tensorflow's Windows wheel requires tensorflow-intel: its metadata, not a dependant's pin.
    log = _refusal("tensorflow-intel==2.12.0", "from tensorflow==2.12.0", "none")
    report = explained(log)
    assert not any("tensorflow requires tensorflow-intel" in fix_text(f) for f in report.findings)


def test_uvs_pinned_release_fix_reads_the_releases_files_not_pips_list() -> None:
    text = (
        "Because tensorflow==2.17.0 has no wheels with a matching platform tag (e.g., "
        "`macosx_14_0_x86_64`) and you require tensorflow==2.17.0, we can conclude that your "
        "requirements are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.fix is not None
    # A uv environment has no pip unless seeded; the release's own files name its platforms.
    assert "pip index versions" not in fix_text(top)
    assert "https://pypi.org/pypi/tensorflow/2.17.0/json" in top.fix.commands[0]


def test_a_python_the_log_shows_is_said_not_guessed_from_the_releases_pip_lists() -> None:
    text = (
        "pip 23.0.1 from /home/user/.venv/lib/python3.11/site-packages/pip (python 3.11)\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow~=2.4.1 "
        "(from versions: 2.12.0, 2.13.0, 2.14.0, 2.15.0)\n"
        "ERROR: No matching distribution found for tensorflow~=2.4.1\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "which Python 3.11 is" in fix and "most likely" not in fix


@pytest.mark.parametrize(
    ("listed", "unworded"),
    [("", True), ("none", False), ("1.9.0, 1.10.0", False)],
    ids=["before-19.1", "none", "versions"],
)
def test_an_empty_list_written_as_nothing_is_an_old_pips(listed: str, unworded: bool) -> None:
    # pip before 19.1 printed an empty list as nothing; later ones write "none".
    line = f"Could not find a version that satisfies the requirement x (from versions: {listed})"
    (refusal,) = read_refusals([line])
    assert refusal.unworded is unworded and refusal.shown
    (cut,) = read_refusals(["Could not find a version that satisfies the requirement x"])
    assert not cut.unworded and not cut.shown


@pytest.mark.parametrize(
    ("requirement", "origin", "python", "later"),
    [
        pytest.param("tensorflow~=1.10", "from rasa_core==0.11.3", "3.6", "3.7", id="1.10-on"),
        pytest.param(
            "tensorflow<1.15,>=1.8.0", "from detector==0.3.1", "3.6", "3.7", id="1.8-to-1.14"
        ),
        pytest.param("tensorflow-gpu~=1.13", "", "3.7", "", id="every-release-has-3.7"),
    ],
)
def test_a_range_with_none_listed_names_the_python_every_release_of_it_has(
    requirement: str, origin: str, python: str, later: str
) -> None:
    # pip listing none: the releases it could see had no wheel for this interpreter, so a
    # Python only the range's later releases have may postdate the log; one every release
    # has does not.
    fix = fix_text(top_error(explained(_refusal(requirement, origin, ""))))
    assert f"Run it on Python {python} (a new virtual environment" in fix
    if later:
        assert f"Python {later} only the later ones" in fix
    else:
        assert "only the later ones" not in fix


def test_a_range_beside_a_list_keeps_its_newest_python() -> None:
    # pip lists releases outside the range: the list dates the log, and the range's newest
    # Python is the way.
    log = _refusal("tensorflow~=2.4.1", "from suite", "2.5.0, 2.6.0, 2.7.0")
    assert "only the later ones" not in fix_text(top_error(explained(log)))
