"""Resolvers other than plain pip (libmamba, uv, Poetry, PDM, Pipenv, pip-tools): their own
words for a failed resolution, each read as the cause it stands for, with the fix in that
resolver's commands.

Sources of the words:

1. https://github.com/mamba-org/mamba/blob/2.0.0/libmamba/src/solver/problems_graph.cpp
   (TreeExplainer::write_diving: "is installable and it requires"; pins as nodes)
2. https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-resolver/src/pubgrub/report.rs
3. https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/failure.py
4. https://github.com/pdm-project/pdm/blob/0acc07a718a35a69e926240f8f47d53404d95a2b/src/pdm/cli/utils.py
5. https://github.com/pypa/pip/blob/24.0/src/pip/_internal/resolution/resolvelib/factory.py
"""

from __future__ import annotations

import time

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.packages import read_conflicts

# --- libmamba's tree as mamba 2 and conda's libmamba solver word it -----------------------


def _mamba2_tree(asked: str, leaves: tuple[str, ...]) -> str:
    """A libmamba tree (mamba 2): the requested Python's node, then TensorFlow's with the
    Python each of its builds requires (``leaves``)."""
    rows = [f"   ├─ tensorflow 2.16.1 would require\n   │  └─ {x}" for x in leaves[:-1]]
    rows.append(f"   └─ tensorflow 2.16.1 would require\n      └─ {leaves[-1]}")
    return (
        "error    libmamba Could not solve for environment specs\n"
        "The following packages are incompatible\n"
        f"{asked}\n"
        "└─ tensorflow 2.16**  is not installable because there are no viable options\n"
        + ",\n".join(
            f"{row}, which conflicts with any installable versions previously reported"
            for row in rows
        )
        + ".\ncritical libmamba Could not solve for environment specs\n"
    )


_ABI = ("python_abi 3.10.* *_cp310", "python_abi 3.11.* *_cp311", "python_abi 3.12.* *_cp312")


@pytest.mark.parametrize(
    "asked",
    [
        "├─ python 3.8**  is installable and it requires\n│  └─ python_abi 3.8.* *_cp38, which "
        "can be installed;",
        "├─ pin on python 3.8.* =* * is installable and it requires\n│  └─ python =3.8 *, which "
        "can be installed;",
        "├─ pin-1 is installable and it requires\n│  └─ python 3.8.* , which can be installed;",
    ],
    ids=["installable-and-requires", "pin-on-python", "pin-label"],
)
def test_libmamba_python_abi_builds_against_the_python_asked(asked: str) -> None:
    top = top_error(explained(_mamba2_tree(asked, _ABI)))
    assert top.cause == "tf-release-not-for-python"
    assert "conda create" in fix_text(top) and "python=3.12" in fix_text(top)
    assert "pip install" not in fix_text(top)


def test_libmamba_python_abi_builds_with_the_python_asked_is_not_the_python() -> None:
    asked = (
        "├─ python 3.11**  is installable and it requires\n│  └─ python_abi 3.11.* *_cp311, "
        "which can be installed;"
    )
    text = _mamba2_tree(asked, _ABI)
    assert "tf-release-not-for-python" not in {x.cause for x in explained(text).findings}


# --- the project's own requirement against TensorFlow's range -----------------------------

_ROOT_AGAINST_RANGE = {
    "uv-pip": (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  ╰─▶ Because tensorflow==2.16.2 depends on numpy>=1.23.5,<2.0.0 and you require "
        "numpy>=2.1, we can conclude that you require tensorflow!=2.16.2.\n"
        "      And because you require tensorflow==2.16.2, we can conclude that your "
        "requirements are unsatisfiable.\n",
        'uv pip install "tensorflow==',
    ),
    "uv-project": (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  ╰─▶ Because tensorflow==2.16.2 depends on numpy>=1.23.5,<2.0.0 and your project "
        "depends on numpy==2.0.2, we can conclude that your project depends on "
        "tensorflow!=2.16.2.\n"
        "      And because your project depends on tensorflow==2.16.2, we can conclude that "
        "your project's requirements are unsatisfiable.\n",
        'uv add "tensorflow==',
    ),
    "uv-wrapped": (
        "  ╰─▶ Because tensorflow==2.16.2 depends on numpy>=1.23.5,<2.0.0 and you require\n"
        "      numpy>=2.1, we can conclude that you require tensorflow!=2.16.2.\n",
        'uv pip install "tensorflow==',
    ),
    "poetry-caret": (
        "Updating dependencies\nResolving dependencies...\n\n"
        "Because tensorflow (2.16.2) depends on numpy (>=1.23.5,<2.0.0)\n"
        " and demo-app depends on numpy (^2.0), tensorflow is forbidden.\n"
        "So, because demo-app depends on tensorflow (2.16.2), version solving failed.\n",
        'poetry add "tensorflow==',
    ),
    "pdm": (
        "[ResolutionImpossible]: Unable to find a resolution for numpy\n"
        "because of the following conflicts:\n"
        "  numpy>=2.0.1 (from project)\n"
        "  numpy<2.0.0,>=1.23.5 (from tensorflow@2.16.2)\n"
        "To fix this, you could loosen the dependency version constraints in pyproject.toml.\n",
        'pdm add "tensorflow==',
    ),
    "pip-range": (
        "ERROR: Cannot install -r requirements.txt (line 2) and numpy>=2.0 because these "
        "package versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
        "    The user requested numpy>=2.0\n"
        '    tensorflow 2.16.2 depends on numpy<2.0.0 and >=1.23.5; python_version <= "3.11"\n',
        'pip install "tensorflow==',
    ),
}


@pytest.mark.parametrize(
    ("text", "command"), _ROOT_AGAINST_RANGE.values(), ids=list(_ROOT_AGAINST_RANGE)
)
def test_the_projects_numpy_outside_tensorflows_range(text: str, command: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    # TensorFlow's next lines declare a NumPy 2 range (the matrix's pins): moving it meets both.
    assert command in fix_text(top)
    if not command.startswith("pip "):
        assert top.fix is not None
        assert not any(x.startswith(("pip ", "python -m pip")) for x in top.fix.commands)


@pytest.mark.parametrize(
    "text",
    [
        "  ╰─▶ Because tensorflow==2.15.1 depends on keras>=2.15.0,<2.16 and your project "
        "depends on keras>=3.0, we can conclude that your project depends on "
        "tensorflow!=2.15.1.\n",
        "Because tensorflow (2.15.1) depends on keras (>=2.15.0,<2.16)\n and no versions of "
        "tensorflow match >2.15.1,<2.16.0, tensorflow (>=2.15.1,<2.16.0) requires keras "
        "(>=2.15.0,<2.16).\nSo, because demo-app depends on both tensorflow (~2.15.1) and keras "
        "(^3.1), version solving failed.\n",
    ],
    ids=["uv", "poetry-both"],
)
def test_keras_3_asked_beside_a_keras_2_tensorflow(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "keras-version"
    assert 'add "tensorflow==2.16' in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        "  ╰─▶ Because tensorflow==2.16.2 depends on numpy>=1.23.5,<2.0.0 and you require "
        "numpy>=1.26, we can conclude that ...\n",
        "Because tensorflow (2.16.2) depends on numpy (>=1.23.5,<2.0.0)\n and demo-app depends "
        "on numpy (~1.26), tensorflow is forbidden.\nSo, version solving failed.\n",
    ],
    ids=["uv", "poetry-tilde"],
)
def test_a_project_range_inside_tensorflows_is_not_the_conflict(text: str) -> None:
    assert "dependency-out-of-range" not in {x.cause for x in explained(text).findings}


# --- uv's platform tag of a 32-bit interpreter --------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "  ╰─▶ Because all versions of tensorflow have no wheels with a matching platform tag "
        "(e.g., `win32`) and you require tensorflow, we can conclude that your requirements are "
        "unsatisfiable.\n",
        "error: Distribution `tensorflow==2.18.0 @ registry+https://pypi.org/simple` can't be "
        "installed because it doesn't have a source distribution or wheel for the current "
        "platform\n\nhint: You're on Windows (`win32`), but `tensorflow` (v2.18.0) only has "
        "wheels for the following platforms: `manylinux_2_17_x86_64`, `win_amd64`\n",
    ],
    ids=["uv-pip-tag", "uv-sync-hint"],
)
def test_uvs_win32_tag_is_a_32bit_python(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "python-32bit"
    # uv installs the 64-bit CPython by its full key; no plain pip command.
    assert "-windows-x86_64-none" in fix_text(top)
    assert top.fix is not None and all(x.startswith("uv ") for x in top.fix.commands)


def test_uvs_win32_hint_of_a_project_keeps_the_project() -> None:
    # The hint "You're on Windows" is printed by a project's install (uv sync, lock/mod.rs):
    # the interpreter is pinned for the project, not a loose .venv filled by uv pip.
    text = (
        "error: Distribution `tensorflow==2.18.0 @ registry+https://pypi.org/simple` can't be "
        "installed because it doesn't have a source distribution or wheel for the current "
        "platform\n\nhint: You're on Windows (`win32`), but `tensorflow` (v2.18.0) only has "
        "wheels for the following platforms: `manylinux_2_17_x86_64`, `win_amd64`\n"
    )
    top = top_error(explained(text))
    assert top.fix is not None
    assert not any(x.startswith("uv pip") for x in top.fix.commands)
    assert top.fix.commands[-1] == "uv sync"


def test_uvs_i686_tag_is_a_32bit_python_not_a_32bit_system() -> None:
    # uv names a 32-bit interpreter on a 64-bit x86 system i686 as well
    # (crates/uv-python/python/get_interpreter_info.py: x86_64 with 4-byte pointers): the tag
    # does not say the system is 32-bit.
    text = (
        "  ╰─▶ Because all versions of tensorflow have no wheels with a matching platform tag "
        "(e.g., `manylinux_2_36_i686`) and you require tensorflow, we can conclude that your "
        "requirements are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-32bit"
    assert "The system itself is 32-bit" not in fix_text(top)
    assert top.fix is not None and top.fix.commands[0] == "uname -m"


def test_uvs_armv7l_tag_is_a_32bit_system() -> None:
    text = (
        "  ╰─▶ Because tensorflow==2.16.1 has no wheels with a matching platform tag (e.g., "
        "`manylinux_2_36_armv7l`) and you require tensorflow==2.16.1, we can conclude that your "
        "requirements are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-32bit"
    assert "64-bit (arm64) edition" in fix_text(top)


def test_uvs_64bit_tag_is_not_a_32bit_python() -> None:
    text = (
        "  ╰─▶ Because all versions of tensorflow have no wheels with a matching platform tag "
        "(e.g., `musllinux_1_2_x86_64`) and you require tensorflow, we can conclude that your "
        "requirements are unsatisfiable.\n"
    )
    assert "python-32bit" not in {x.cause for x in explained(text).findings}


def test_uvs_musl_tag_for_every_tensorflow_release_is_told_a_glibc_system() -> None:
    text = (
        "$ uv pip install tensorflow\n"
        "  ╰─▶ Because all versions of tensorflow have no wheels with a matching platform tag "
        "(e.g., `musllinux_1_2_x86_64`) and you require tensorflow, we can conclude that your "
        "requirements are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "musl" in fix and "glibc" in fix


@pytest.mark.parametrize(
    ("tag", "system", "other"),
    [
        ("win_amd64", "Windows", "Use one of those Pythons"),
        ("win_arm64", "Windows", "Use one of those Pythons"),
    ],
    ids=["windows-x86-64", "windows-arm64"],
)
def test_uvs_example_tag_names_the_system_a_companion_lacks(
    tag: str, system: str, other: str
) -> None:
    # uv's example is the interpreter's own platform tag: the system, not the Python, is what
    # the release has no wheel for.
    text = (
        "> uv pip install tensorflow-text==2.18.0\n"
        "  ╰─▶ Because tensorflow-text==2.18.0 has no wheels with a matching platform tag "
        f"(e.g., `{tag}`) and you require tensorflow-text==2.18.0, we can conclude that your "
        "requirements are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert f"for {system}; the last release with one is" in fix
    assert other not in fix


@pytest.mark.parametrize(
    ("dist", "tag"),
    [
        ("tensorflow-text==2.18.0", "macosx_14_0_x86_64"),
        ("tensorflow-io==0.37.1", "macosx_11_0_arm64"),
    ],
    ids=["intel-mac-no-wheel", "older-macos-than-the-tags"],
)
def test_uvs_platform_words_for_a_companion_offer_no_other_python(dist: str, tag: str) -> None:
    text = (
        f"  ╰─▶ Because {dist} has no wheels with a matching platform tag (e.g., `{tag}`) and "
        f"you require {dist}, we can conclude that your requirements are unsatisfiable.\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "platform tag, not the Python" in fix
    assert "Use one of those Pythons" not in fix and "use Python" not in fix


def test_uvs_platform_words_on_linux_with_wheels_for_its_architecture_name_glibc() -> None:
    # tensorflow-io 0.37.1 has Linux ARM64 wheels: the machine's platform is not what to
    # change, the glibc its manylinux tags name is.
    text = (
        "$ uv pip install tensorflow==2.16.1 tensorflow-io==0.37.1\n"
        "  ╰─▶ Because tensorflow-io==0.37.1 has no wheels with a matching platform tag (e.g., "
        "`manylinux_2_35_aarch64`) and you require tensorflow-io==0.37.1, we can conclude that "
        "your requirements are unsatisfiable.\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "glibc at least as new as the wheels' manylinux_X_Y tags" in fix
    assert "ldd --version" in fix and "run it on a platform those wheels are for" not in fix


# --- uv's hint naming the interpreter: a free-threaded build, PyPy, a project ---------------

_HINT = (
    "      hint: You require {python} (`{tag}`), but we only found wheels for `tensorflow` "
    "(v2.20.0) with the following Python {kind} tags: `cp310`, `cp311`, `cp312`, `cp313`\n"
)


@pytest.mark.parametrize(
    "refusal, python",
    [
        # uv 0.9.26 on: IncompatibleTag::FreethreadedAbi, whose words give no example tag, and
        # abi_tag.rs's pretty name "free-threaded CPython 3.13".
        ("a free-threading compatible ABI tag", "free-threaded CPython 3.13"),
        # Earlier uv: an ABI mismatch like any other, the tag alone says free-threaded.
        ("a matching Python ABI tag (e.g., `cp313t`)", "CPython 3.13"),
    ],
    ids=["uv-0.9.26", "uv-before-0.9.26"],
)
def test_uv_on_a_free_threaded_python_takes_the_default_build(refusal: str, python: str) -> None:
    text = (
        f"  ╰─▶ Because all versions of tensorflow have no wheels with {refusal} and you "
        "require tensorflow, we can conclude that your requirements are unsatisfiable.\n\n"
        + _HINT.format(python=python, tag="cp313t", kind="ABI")
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    assert "free-threaded" in fix_text(top)
    assert top.fix is not None and top.fix.commands[0] == "uv venv --python 3.13"


def test_uv_on_a_free_threaded_314_asks_for_the_gil_build() -> None:
    # From 3.14 uv may pick a free-threaded interpreter for a plain "3.14" (the first on the
    # PATH); "+gil" asks for the default build (docs/concepts/python-versions.md, uv 0.9.11).
    text = (
        "  ╰─▶ Because tensorflow==2.21.0 has no wheels with a free-threading compatible ABI tag "
        "and you require tensorflow==2.21.0, we can conclude that your requirements are "
        "unsatisfiable.\n\n"
        "      hint: You require free-threaded CPython 3.14 (`cp314t`), but we only found wheels "
        "for `tensorflow` (v2.21.0) with the following Python ABI tags: `cp310`, `cp311`, "
        "`cp312`, `cp313`, `cp314`\n"
    )
    top = top_error(explained(text))
    assert top.fix is not None and top.fix.commands[0] == "uv venv --python 3.14+gil"


def test_uv_on_pypy_takes_cpython() -> None:
    text = (
        "  ╰─▶ Because all versions of tensorflow have no wheels with a matching Python "
        "implementation tag (e.g., `pp310`) and you require tensorflow, we can conclude that "
        "your requirements are unsatisfiable.\n\n"
        + _HINT.format(python="PyPy 3.10", tag="pp310", kind="implementation")
    )
    top = top_error(explained(text))
    assert "PyPy 3.10" in fix_text(top)
    assert top.fix is not None and top.fix.commands[0] == "uv venv --python cpython@3.13"


def test_a_uv_project_narrows_requires_python_to_the_wheels() -> None:
    text = (
        "  \N{MULTIPLICATION SIGN} No solution found when resolving dependencies for split "
        "(python_full_version >= '3.14'):\n"
        "  ╰─▶ Because tensorflow==2.20.0 has no wheels with a matching Python ABI tag (e.g., "
        "`cp314`) and your project depends on tensorflow==2.20.0, we can conclude that your "
        "project's requirements are unsatisfiable.\n\n"
        + _HINT.format(python="CPython 3.14", tag="cp314", kind="ABI")
    )
    top = top_error(explained(text))
    assert 'requires-python = ">=3.10,<3.14"' in fix_text(top)
    assert top.fix is not None and top.fix.commands == ("uv python pin 3.13", "uv lock", "uv sync")


# --- a pin no version on the index matches: not published -----------------------------------


@pytest.mark.parametrize(
    ("text", "command"),
    [
        (
            "  ╰─▶ Because there is no version of tensorflow==2.99.1 and you require "
            "tensorflow==2.99.1, we can conclude that your requirements are unsatisfiable.\n",
            'uv pip install "tensorflow==',
        ),
        (
            "  ╰─▶ Because there is no version of tensorflow-io-gcs-filesystem==0.99.0 and your\n"
            "      project depends on tensorflow-io-gcs-filesystem==0.99.0, we can conclude "
            "that your project's requirements are unsatisfiable.\n",
            'uv add "tensorflow-io-gcs-filesystem==0.37.1"',
        ),
        (
            "Because demo-app depends on tensorflow (2.99.1) which doesn't match any versions, "
            "version solving failed.\n",
            'poetry add "tensorflow==',
        ),
    ],
    ids=["uv-pip", "uv-project-wrapped", "poetry"],
)
def test_a_pin_no_version_on_the_index_matches_is_not_published(text: str, command: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "pinned-release-not-published"
    assert command in fix_text(top)


@pytest.mark.parametrize(
    ("python", "pin"),
    [("", "2.21.0"), ("3.9.18", "2.20.0"), ("3.8.10", "2.13.1"), ("3.5.2", None)],
    ids=["python-unshown", "py39", "py38", "py35-none"],
)
def test_the_pin_offered_for_an_unpublished_release_has_wheels_for_the_logs_python(
    python: str, pin: str | None
) -> None:
    # The fixture matrix's newest line (2.21) has no wheel for Python 3.9: its pin could not
    # install there. python --version's answer is the Python the log shows.
    shown = f"$ python --version\nPython {python}\n" if python else ""
    text = (
        f"{shown}$ uv pip install tensorflow==2.99.1\n"
        "  \N{MULTIPLICATION SIGN} No solution found when resolving dependencies:\n"
        "  ╰─▶ Because there is no version of tensorflow==2.99.1 and you require "
        "tensorflow==2.99.1, we can conclude that your requirements are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "pinned-release-not-published"
    assert top.fix is not None
    if pin is None:
        assert "publishes a wheel for Python 3.5" in fix_text(top)
        assert not any("uv pip install" in x for x in top.fix.commands)
    else:
        assert top.fix.commands == (f'uv pip install "tensorflow=={pin}"',)


@pytest.mark.parametrize(
    ("hint", "command"),
    [
        (
            "hint: `tensorflow` was found on https://download.pytorch.org/whl/cpu, but not at "
            "the requested version (tensorflow==2.15.0). A compatible version may be available "
            "on a subsequent index (e.g., https://pypi.org/simple). By default, uv will only "
            "consider versions that are published on the first index that contains a given "
            "package, to avoid dependency confusion attacks. If all indexes are equally "
            "trusted, use `--index-strategy unsafe-best-match` to consider all versions from "
            "all indexes, regardless of the order in which they were defined.",
            'uv pip install --index-strategy unsafe-best-match "tensorflow==2.15.0"',
        ),
        (
            "hint: `tensorflow` was filtered by `exclude-newer` to only include packages "
            "uploaded before 2023-10-01T00:00:00Z. Consider using `exclude-newer-package` to "
            "override the cutoff for this package.",
            None,
        ),
    ],
    ids=["first-index", "exclude-newer"],
)
def test_uvs_hint_that_the_release_was_set_aside_is_not_an_unpublished_one(
    hint: str, command: str | None
) -> None:
    # uv's PubGrubHint::UncheckedIndex and ExcludeNewer (crates/uv-resolver/src/pubgrub/
    # report.rs): the release exists; uv did not consider it.
    text = (
        "  ╰─▶ Because there is no version of tensorflow==2.15.0 and you require "
        "tensorflow==2.15.0, we can conclude that your requirements are unsatisfiable.\n\n"
        f"      {hint}\n"
    )
    top = top_error(explained(text))
    assert "not published" not in fix_text(top)
    assert top.fix is not None
    assert top.fix.commands == ((command,) if command else ())


def test_a_package_unknown_here_lists_its_releases_on_pypi() -> None:
    text = (
        "Because demo-app depends on somelib (3.1.4) which doesn't match any versions, version "
        "solving failed.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "pinned-release-not-published"
    assert "https://pypi.org/pypi/somelib/json" in fix_text(top)


def test_tensorflows_own_requirement_of_a_missing_companion_is_its_metadata() -> None:
    text = (
        "Because tensorflow-cpu (2.19.0) depends on tensorflow-intel (2.19.0) which doesn't "
        "match any versions, tensorflow-cpu is forbidden.\n"
    )
    causes = {x.cause for x in explained(text).findings}
    assert "pinned-release-not-published" not in causes


# --- more of the resolvers' words: PDM wrapped, libsolv's build wildcard, a companion ------


def test_pdms_python_range_refusal_wrapped_by_the_terminal() -> None:
    text = (
        "[ResolutionImpossible]: Unable to find a resolution because the following dependencies "
        "don't work\non all Python versions in the range of the project's `requires-python`: "
        ">=3.8.\n"
        "  python>=3.9 (from <Candidate tensorflow@2.16.2 from https://pypi.org/simple/"
        "tensorflow/>)\n"
        "A possible solution is to change the value of `requires-python` in pyproject.toml to "
        ">=3.9.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    assert "pdm lock" in fix_text(top)


def test_libsolvs_request_with_the_build_wildcard() -> None:
    text = (
        "Encountered problems while solving:\n  - nothing provides requested tensorflow-gpu "
        "2.15**\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    assert "conda search" in fix_text(top)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        (
            "  ╰─▶ Because tensorflow-text==2.16.1 depends on tensorflow>=2.16.0,<2.17 and your "
            "project depends on tensorflow==2.17.1, we can conclude that your project depends "
            "on tensorflow-text!=2.16.1.\n",
            'uv add "tensorflow-text==2.17',
        ),
        (
            "The conflict is caused by:\n    The user requested tensorflow==2.17.1\n"
            "    tensorflow-text 2.16.1 depends on tensorflow<2.17 and >=2.16.0\n",
            'pip install "tensorflow-text==2.17',
        ),
    ],
    ids=["uv-project", "pip"],
)
def test_a_companion_of_another_line_beside_the_tensorflow_asked(text: str, command: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    # The companion table's release for the TensorFlow asked for, in the resolver's command.
    assert command in fix_text(top)


# --- conda list: two of TensorFlow's distributions both from pip ------------------------------

_CONDA_LIST_HEAD = (
    "# packages in environment at /home/me/miniconda3/envs/tf:\n#\n"
    "# Name                    Version                   Build  Channel\n"
)


def test_conda_list_with_two_tensorflow_distributions_from_pip() -> None:
    text = _CONDA_LIST_HEAD + (
        "tensorflow                2.11.0                   pypi_0    pypi\n"
        "tensorflow-gpu            2.10.1                   pypi_0    pypi\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-multiple-distributions"
    assert "uninstall -y tensorflow tensorflow-gpu" in " ".join(top.fix.commands if top.fix else ())


@pytest.mark.parametrize(
    "rows",
    [
        # conda-forge's tensorflow-gpu requires its tensorflow: one installation.
        "tensorflow                2.15.0          cuda120py311h30fb8b2_2    conda-forge\n"
        "tensorflow-gpu            2.15.0          cuda120py311h6d2fd7c_2    conda-forge\n",
        # The Windows wrapper the tensorflow wheel itself requires, at its release.
        "tensorflow                2.15.0                   pypi_0    pypi\n"
        "tensorflow-intel          2.15.0                   pypi_0    pypi\n",
    ],
    ids=["conda-forge-metapackage", "pip-wrapper"],
)
def test_conda_list_of_one_installation_is_not_two(rows: str) -> None:
    causes = {x.cause for x in explained(_CONDA_LIST_HEAD + rows).findings}
    assert "tf-multiple-distributions" not in causes


def test_poetrys_chooser_finding_no_tensorflow_file_names_the_releases_pythons() -> None:
    text = (
        "  - Installing tensorflow (2.15.1): Failed\n\n  RuntimeError\n\n"
        "  Unable to find installation candidates for tensorflow (2.15.1)\n\n"
        "  This is likely not a Poetry issue.\n\n"
        "    - 16 candidate(s) were identified for the package\n"
        "    - 16 wheel(s) were skipped as your project's environment does not support the "
        "identified abi tags\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    # The matrix's Pythons of the 2.15 line, in Poetry's own command.
    assert "CPython 3.9 to 3.11" in fix_text(top)
    assert top.fix is not None and top.fix.commands == ("poetry env use 3.11", "poetry install")


def test_poetrys_chooser_on_a_wrapper_distribution_claims_no_platforms_of_tensorflow() -> None:
    # tensorflow-intel publishes Windows wheels only: the matrix's platforms and Pythons are
    # those of the tensorflow wheels, not the wrapper's.
    text = (
        "  - Installing tensorflow-intel (2.15.1): Failed\n\n  RuntimeError\n\n"
        "  Unable to find installation candidates for tensorflow-intel (2.15.1)\n"
    )
    top = top_error(explained(text))
    assert "Linux" not in fix_text(top) and "macOS" not in fix_text(top)
    assert top.fix is not None and "poetry env use 3.11" not in top.fix.commands


# --- pip's conflict block: constraints and two packages beside the user's request ----------


def test_a_constraint_outside_tensorflows_range_is_the_users_pin() -> None:
    # pip 21.2 on names a constraints file's pin apart: "The user requested (constraint)"
    # (resolution/resolvelib/factory.py, get_installation_error; source 5).
    text = (
        "ERROR: Cannot install tensorflow==2.13.0 because these package versions have "
        "conflicting dependencies.\n\nThe conflict is caused by:\n"
        "    tensorflow 2.13.0 depends on flatbuffers>=23.1.21\n"
        "    The user requested (constraint) flatbuffers==2.0.7\n\n"
        "To fix this you could try to:\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    assert "flatbuffers==2.0.7" in fix_text(top) and "flatbuffers>=23.1.21" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # The user's request is on tensorflow; the clash the block shows is numpy's, between
        # TensorFlow's range and another package's.
        "ERROR: Cannot install -r requirements.txt (line 2) and tensorflow==2.12.0 because "
        "these package versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
        "    The user requested tensorflow==2.12.0\n"
        "    tensorflow 2.12.0 depends on numpy<1.24 and >=1.22\n"
        "    nnabla 1.36.0 depends on numpy~=1.26.0\n\n"
        "To fix this you could try to:\n",
        # A paste that kept only the rows under "The conflict is caused by:" (factory.py,
        # get_installation_error: "{parent.name} {parent.version} depends on {req}").
        "    tensorflow 2.12.1 depends on numpy<=1.24.3 and >=1.22\n"
        "    nnabla 1.36.0 depends on numpy~=1.26.0\n",
    ],
    ids=["beside-a-request", "rows-without-the-head"],
)
def test_two_packages_ranges_in_pips_conflict_rows(text: str) -> None:
    top = top_error(explained(text))
    # TensorFlow's cap (numpy<1.24, <=1.24.3) lies below every numpy nnabla asks for: the
    # bound is TensorFlow's.
    assert top.cause == "tf-pin-conflicts-with-package"
    assert "nnabla" in fix_text(top) and "numpy" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # Ranges that meet (onnx's numpy>=1.16.6 admits TensorFlow's): no clash shown.
        "    tensorflow 2.12.1 depends on numpy<=1.24.3 and >=1.22\n"
        "    onnx 1.13.0 depends on numpy>=1.16.6\n",
        # One row alone says what one package needs, not a clash.
        "    nnabla 1.36.0 depends on numpy~=1.26.0\n",
        # Sentences that say "depends on" inside prose are no rows.
        "Note: nnabla 1.36.0 depends on numpy~=1.26.0 and tensorflow 2.12.1 depends on "
        "numpy<=1.24.3 here.\n",
    ],
    ids=["ranges-meet", "one-row", "prose"],
)
def test_headless_rows_that_show_no_clash_say_nothing(text: str) -> None:
    found = explained(text).findings
    assert not [x for x in found if x.cause == "dependency-out-of-range"]


# --- conda's classic solver: the "direct" conflicts of its UnsatisfiableError --------------


def _conda_direct(target: str, *chains: str) -> str:
    """conda's UnsatisfiableError with one "Package X conflicts for:" group (conda/exceptions.py,
    https://github.com/conda/conda/blob/4.14.0/conda/exceptions.py)."""
    return (
        "Found conflicts! Looking for incompatible packages.\n"
        "failed\n\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n\nOutput in format: Requested package -> Available versions\n\n"
        f"Package {target} conflicts for:\n" + "\n".join(chains) + "\n"
    )


@pytest.mark.parametrize(
    ("target", "chains", "cause", "words"),
    [
        (
            "numpy",
            (
                "tensorflow==2.4.1 -> numpy[version='>=1.19.2,<1.20.0a0']",
                "pandas==2.0.3 -> numpy[version='>=1.21']",
            ),
            # conda's cap <1.20.0a0 is 1.20's (conda-build's pin expressions write the next
            # release's a0): below every numpy pandas asks for, TensorFlow's range holds it.
            "tf-pin-conflicts-with-package",
            ("pandas", "numpy>=1.21", "numpy>=1.19.2,<1.20.0a0"),
        ),
        (
            # An exact pin of a library on TensorFlow: that library's pin.
            "h5py",
            (
                "tensorflow=2.16 -> h5py[version='>=3.10.0']",
                "deepctr==0.9.3 -> h5py[version='3.7.0']",
            ),
            "library-pin-conflicts",
            ("deepctr", "h5py==3.7.0", "h5py>=3.10.0"),
        ),
    ],
    ids=["two-ranges", "library-exact-pin"],
)
def test_condas_ranges_that_do_not_meet_name_the_other_package_and_condas_commands(
    target: str, chains: tuple[str, ...], cause: str, words: tuple[str, ...]
) -> None:
    top = top_error(explained(_conda_direct(target, *chains)))
    assert top.cause == cause
    assert all(w in fix_text(top) for w in words), fix_text(top)
    # conda's builds declare their own ranges: no PyPI release of the matrix is offered.
    other = words[0]
    assert top.fix is not None and f"conda search {other}" in top.fix.commands
    assert not any("pip" in c for c in top.fix.commands)


def test_condas_chain_through_another_package_or_ranges_that_meet_is_no_clash() -> None:
    through = _conda_direct(
        "numpy",
        "tensorflow==2.4.1 -> numpy[version='>=1.19.2,<1.20.0a0']",
        "pandas==2.0.3 -> pyarrow -> numpy[version='>=1.21']",
    )
    meets = _conda_direct(
        "numpy",
        "tensorflow==2.4.1 -> numpy[version='>=1.19.2,<1.20.0a0']",
        "pandas==1.1.5 -> numpy[version='>=1.15.4']",
    )
    # Python's group is the environment's (tf-release-not-for-python reads it), not a range.
    python = _conda_direct(
        "python",
        "tensorflow==2.4.1 -> python[version='>=3.8,<3.9.0a0']",
        "pandas==2.0.3 -> python[version='>=3.9,<3.10.0a0']",
    )
    for text in (through, meets, python):
        assert not [x for x in explained(text).findings if x.cause == "dependency-out-of-range"]


@pytest.mark.parametrize(
    "tf_range",
    ["*", "=1.21", "1.21.5_1"],
    ids=["any-release", "fuzzy-release", "unreadable"],
)
def test_condas_terms_that_admit_the_others_or_cannot_be_read_are_no_clash(tf_range: str) -> None:
    # conda's "*" is any release and "=1.21" its fuzzy 1.21.* (conda/models/version.py),
    # both met by numpy>=1.21; a term no specifier writes is not known to miss it.
    text = _conda_direct(
        "numpy",
        f"tensorflow==2.4.1 -> numpy[version='{tf_range}']",
        "pandas==2.0.3 -> numpy[version='>=1.21']",
    )
    found = explained(text).findings
    assert not [x for x in found if x.severity.value == "error"], [x.summary for x in found]


def test_condas_groups_are_read_in_linear_time() -> None:
    # Each group reads its own lines, not the rest of the log: twenty thousand group heads
    # with no blank line between them took about half a minute before (each copied and split
    # what followed it).
    text = (
        _conda_direct(
            "numpy",
            "tensorflow==2.4.1 -> numpy[version='>=1.19.2,<1.20.0a0']",
            "pandas==2.0.3 -> numpy[version='>=1.21']",
        )
        + "Package numpy conflicts for:\n" * 20_000
    )
    start = time.perf_counter()
    conflicts = read_conflicts((text,))
    assert time.perf_counter() - start < 3
    assert [(c.requirer, c.target, c.other) for c in conflicts] == [
        ("tensorflow", "numpy", "pandas 2.0.3")
    ]


#: NumPy 2 asked for beside a TensorFlow whose range refuses it, where an older line's
#: floor-only pin (2.7-2.11) admits NumPy 2: (log, the line the fix may move to, or None).
_NUMPY2_BESIDE_A_NUMPY1_LINE = {
    "other-package": (
        "ERROR: Cannot install tensorflow==2.13.1 and opencv-python==4.11.0.86 because these "
        "package versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
        "    tensorflow 2.13.1 depends on numpy<=1.24.3 and >=1.22\n"
        '    opencv-python 4.11.0.86 depends on numpy>=2; python_version >= "3.9"\n',
        "2.18",
    ),
    "pip-pin": (
        "ERROR: Cannot install -r requirements.txt (line 2) and numpy==2.0.2 because these "
        "package versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
        "    The user requested numpy==2.0.2\n"
        "    tensorflow 2.6.5 depends on numpy~=1.19.2\n",
        "2.18",
    ),
    "uv-range": (
        "  ╰─▶ Because tensorflow==2.6.5 depends on numpy>=1.19.2,<1.20 and you require\n"
        "      numpy>=2.0, we can conclude that you require tensorflow!=2.6.5.\n",
        "2.18",
    ),
}


@pytest.mark.parametrize(
    ("text", "line"),
    _NUMPY2_BESIDE_A_NUMPY1_LINE.values(),
    ids=list(_NUMPY2_BESIDE_A_NUMPY1_LINE),
)
def test_numpy2_is_never_met_by_a_line_compiled_against_numpy1(text: str, line: str) -> None:
    # 2.7-2.11 declare a numpy floor only, yet were compiled against NumPy 1.x (the matrix's
    # numpy_abi): moving TensorFlow to one of them with NumPy 2 fails its import.
    said = fix_text(top_error(explained(text)))
    for old in ("2.7", "2.8", "2.9", "2.10", "2.11"):
        assert f"tensorflow=={old}." not in said, said
    assert f"tensorflow=={line}." in said, said
