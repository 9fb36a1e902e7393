"""Installers' own messages around TensorFlow (pip, conda and libmamba, uv, Poetry, Pipenv),
each read from the words the installer prints, with the fix in that installer's commands.

The messages (their distinctive words), the releases that print them, the cause each is read
as (new: read since this file; the others are checked here in lines of their own) and where
the words are printed (the sources below the table):

| Message | Releases | Cause | Src |
| --- | --- | --- | --- |
| pip `X.whl is not a supported wheel on this platform.` | pip 8+ | wheel-mismatch | 1 |
| pip `Package 'X' requires a different Python: A not in 'B'` | pip 9+ | not-for | 1 |
| pip `X requires Python 'B' but the running Python is A` | pip 9 | not-for (new) | 15 |
| pip `Ignored the following versions that require a different python` | 21.3+ | not-for | 1 |
| pip `Cannot install A and B ...`: a library's `==` pin | 20.3+ | lib-pin (new) | 1 |
| the same where pip's `Cannot install` names only that library | 20.3+ | out-of-range | 1 |
| pip `error: externally-managed-environment` | 23.0+ | externally-managed-python | 2 |
| pip `THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE` | 8+ | hash | 2 |
| Pipenv `THESE PACKAGES DO NOT MATCH THE HASHES FROM Pipfile.lock!` | 2018 | hash | 3 |
| pip `Could not install packages due to an OSError: [Errno 28] No space` | 21+ | disk | 4 |
| pip `... due to an OSError: [WinError 206] The filename ... too long` | 20+ | long (new) | 4, 5 |
| pip `... [Errno 2] No such file or directory: 'C:...'`, 240 chars+ | 20+ | long (new) | 4 |
| pip `HINT: ... does not have Windows Long Path support enabled` | 21.2+ | long | 4 |
| conda `incompatible with your system:`, `version is: not available` | 4.7+ | virtual (new) | 6 |
| conda `incompatible with your CUDA driver:`, `driver is: not available` | 4.8-4.9 | virtual | 16 |
| the same, a version below the chains' floor | 4.7+ | virtual (new) | 6 |
| conda `Package python conflicts for:`, `tensorflow=X -> python` | 4.7+ | not-for (new) | 6 |
| libmamba `tensorflow X is not installable because it requires` | 1.0+ | not-for (new) | 7, 8 |
| libsolv `nothing provides __cuda needed by X` | mamba | virtual | 9 |
| conda `PackagesNotFoundError: ... not available from current channels` | 4.6+ | not-for | 6 |
| uv `hint: The requires-python value (A) includes Python versions` | 0.3+ | not-for (new) | 10 |
| uv `X==V has no wheels with a matching Python ABI tag` | 0.4+ | not-for | 10 |
| Poetry `supported Python range (A) is not compatible with ...` | 1.2+ | not-for (new) | 11, 12 |
| Poetry `Unable to find installation candidates for X (V)` | 1.1+ | no-wheel | 13 |
| uv `the current Python version (A) does not satisfy Python..` | 0.2+ | not-for (new) | 10 |
| uv `requested Python version (A)`, `all versions of X depend on` | 0.2+ | no-wheel (new) | 10 |
| Poetry `X (V) requires Python A`, `- X requires Python A` | 1.0+ | not-for (new) | 11 |
| uv `A==V depends on X.. and B==W depends on X.., we can conclude` | 0.4+ | range (new) | 10 |
| Poetry `A (V) depends on X (>=..)` ... `version solving failed` | 1.2+ | range (new) | 11 |
| PDM `Unable to find a resolution for X`, `because of the following` | 2.x | range (new) | 14 |
| PDM `don't work on all Python versions in the range of the project's` | 2.x | not-for (new) | 14 |

Causes: not-for is `tf-release-not-for-python` (uv's and Poetry's with the installer's own
fix), no-wheel `tf-no-wheel-for-python` (a companion's looked up without pip for uv and
Poetry), virtual `conda-virtual-package-mismatch` (`glibc-too-old` for a glibc below the
floor, `driver-too-old` for a CUDA below it), long `windows-long-paths`, disk
`disk-space-exhausted`, lib-pin `library-pin-conflicts`, out-of-range and range
`dependency-out-of-range` (range: new for uv, Poetry and PDM, with that resolver's commands),
hash `download-hash-mismatch` (a new cause).

1. https://github.com/pypa/pip/blob/23.0/src/pip/_internal/resolution/resolvelib/factory.py
2. https://github.com/pypa/pip/blob/23.0/src/pip/_internal/exceptions.py
3. https://github.com/pypa/pipenv/blob/003713fee5d1ead89e086095e021409dd52dfced/pipenv/cli.py
4. https://github.com/pypa/pip/blob/23.0/src/pip/_internal/commands/install.py
5. https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-
6. https://github.com/conda/conda/blob/4.14.0/conda/exceptions.py
7. https://github.com/mamba-org/mamba/blob/1.5.0/libmamba/src/core/problems_graph.cpp
8. https://github.com/mamba-org/mamba/blob/2.0.0/libmamba/src/solver/problems_graph.cpp
9. https://github.com/openSUSE/libsolv/blob/0.7.24/src/problems.c
10. https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-resolver/src/pubgrub/report.rs
11. https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/failure.py
12. https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/solutions/solutions/python_requirement_solution.py
13. https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/installation/chooser.py
14. https://github.com/pdm-project/pdm/blob/0acc07a718a35a69e926240f8f47d53404d95a2b/src/pdm/cli/utils.py
15. https://github.com/pypa/pip/blob/9.0.3/pip/utils/packaging.py
16. https://github.com/conda/conda/blob/4.9.2/conda/exceptions.py
"""

from __future__ import annotations

import time

import pytest

from tests.explaining import SIGNATURES, all_causes, explained, fix_text, readings, top_error
from tfdoctor.findings import Severity

# --- messages read before, checked here in lines of their own -----------------------------

READ = {
    "pip-wheel-not-supported": (
        "ERROR: tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl "
        "is not a supported wheel on this platform.\n",
        "wheel-mismatch",
    ),
    "pip-requires-a-different-python": (
        "ERROR: Package 'tensorflow-io' requires a different Python: 3.12.1 not in '<3.12,>=3.7'\n",
        "tf-release-not-for-python",
    ),
    "pip-ignored-versions": (
        "ERROR: Ignored the following versions that require a different python version: "
        "2.14.0 Requires-Python >=3.9\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.14.0 "
        "(from versions: 2.10.0, 2.11.0, 2.12.0)\n"
        "ERROR: No matching distribution found for tensorflow==2.14.0\n",
        "tf-release-not-for-python",
    ),
    "pip-externally-managed": (
        "$ pip install tensorflow\nerror: externally-managed-environment\n\n"
        "\u00d7 This environment is externally managed\n"
        "╰─> To install Python packages system-wide, try apt install\n"
        "    python3-xyz, where xyz is the package you are trying to\n    install.\n",
        "externally-managed-python",
    ),
    "pip-no-space": (
        "Collecting tensorflow\n"
        "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on "
        "device\n",
        "disk-space-exhausted",
    ),
    "pip-long-path-hint": (
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or "
        "directory: 'C:\\\\venv\\\\Lib\\\\site-packages\\\\tensorflow\\\\x.h'\n"
        "HINT: This error might have occurred since this system does not have Windows Long "
        "Path support enabled. You can find information on how to enable this at "
        "https://pip.pypa.io/warnings/enable-long-paths\n",
        "windows-long-paths",
    ),
    "mamba-nothing-provides-cuda": (
        "Encountered problems while solving:\n"
        "  - nothing provides __cuda needed by tensorflow-2.15.0-cuda120py311h1234567_0\n",
        "conda-virtual-package-mismatch",
    ),
    "conda-packages-not-found": (
        "PackagesNotFoundError: The following packages are not available from current "
        "channels:\n\n  - tensorflow=2.1.0\n\nCurrent channels:\n\n"
        "  - https://repo.anaconda.com/pkgs/main/linux-64\n",
        "tf-release-not-for-python",
    ),
    "uv-no-abi-tag": (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  ╰─▶ Because tensorflow==2.16.1 has no wheels with a matching Python ABI tag (e.g., "
        "`cp313`) and you require tensorflow==2.16.1, we can conclude that your requirements "
        "are unsatisfiable.\n",
        "tf-release-not-for-python",
    ),
}


@pytest.mark.parametrize("text, cause", READ.values(), ids=READ.keys())
def test_an_installers_message_is_read_as_its_cause(text: str, cause: str) -> None:
    assert top_error(explained(text)).cause == cause


HARMLESS = {
    "a-successful-install": (
        "Collecting tensorflow\n"
        "  Downloading tensorflow-2.15.0-cp310-cp310-manylinux_2_17_x86_64.whl (475.2 MB)\n"
        "Requirement already satisfied: numpy<2.0.0,>=1.23.5 in ./venv/lib/python3.10/"
        "site-packages (from tensorflow) (1.26.4)\n"
        "Installing collected packages: tensorflow\n"
        "Successfully installed tensorflow-2.15.0\n\n"
        "[notice] A new release of pip is available: 23.0.1 -> 24.0\n"
        "[notice] To update, run: pip install --upgrade pip\n"
    ),
    "uv-resolves": (
        "Resolved 42 packages in 1.02s\nPrepared 3 packages in 2.1s\n"
        "Installed 3 packages in 40ms\n + tensorflow==2.16.1\n"
    ),
    "conda-solves": (
        "Collecting package metadata (repodata.json): done\nSolving environment: done\n\n"
        "## Package Plan ##\n\n  added / updated specs:\n    - tensorflow=2.15\n"
    ),
}


@pytest.mark.parametrize("text", HARMLESS.values(), ids=HARMLESS.keys())
def test_an_installer_that_succeeded_is_harmless(text: str) -> None:
    assert readings(explained(text)) == []


# --- conda's classic solver: the system's virtual packages ---------------------------------


def _system_block(chains: str, installed: str) -> str:
    return (
        "Solving environment: failed\n\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        f"your system:\n\n{chains}\nYour installed version is: {installed}\n\n"
    )


def test_a_cuda_the_system_lacks_is_a_virtual_package_to_declare() -> None:
    text = _system_block("  - tensorflow-gpu=2.6 -> __cuda[version='>=11.2']\n", "not available")
    top = top_error(explained(text))
    assert top.cause == "conda-virtual-package-mismatch"
    assert "CONDA_OVERRIDE_CUDA" in fix_text(top) and "11.2" in fix_text(top)


def test_a_cuda_below_the_builds_floor_is_named_with_the_floor() -> None:
    text = _system_block(
        "  - feature:/linux-64::__cuda==10.2=0\n"
        "  - feature:|@/linux-64::__cuda==10.2=0\n"
        "  - tensorflow-gpu=2.6 -> __cuda[version='>=11.2']\n",
        "10.2",
    )
    top = top_error(explained(text))
    # conda read 10.2 from this machine's driver: declaring this machine's value changes
    # nothing; the driver (one that reports CUDA 11.2 itself) or the builds must change.
    assert top.cause == "driver-too-old"
    assert "__cuda 10.2" in top.summary and "11.2" in top.summary
    assert "460.27.03" in fix_text(top)
    assert top.fix is not None and not any("export" in c for c in top.fix.commands)


def test_a_glibc_below_the_builds_floor_is_the_system_too_old() -> None:
    text = _system_block(
        "  - feature:/linux-64::__glibc==2.17=0\n"
        "  - tensorflow=2.15 -> libgcc-ng[version='>=12'] -> __glibc[version='>=2.28']\n",
        "2.17",
    )
    top = top_error(explained(text))
    assert top.cause == "glibc-too-old"


def test_a_macos_below_the_builds_floor_is_the_system_too_old() -> None:
    text = _system_block(
        "  - feature:/osx-64::__osx==10.13=0\n  - tensorflow=2.13 -> __osx[version='>=10.15']\n",
        "10.13",
    )
    top = top_error(explained(text))
    # conda read 10.13 from this Mac: declaring the same value changes nothing.
    assert top.cause == "macos-too-old"
    assert "10.15" in fix_text(top) and "CONDA_OVERRIDE_OSX" not in fix_text(top)


def test_a_system_that_meets_every_chain_says_nothing_of_the_system() -> None:
    # conda prints the block beside the real conflict even where the version satisfies it.
    text = _system_block(
        "  - feature:/linux-64::__glibc==2.35=0\n"
        "  - python=3.7 -> libgcc-ng[version='>=11.2.0'] -> __glibc[version='>=2.17']\n",
        "2.35",
    )
    causes = {x.cause for x in explained(text).findings}
    assert not causes & {"conda-virtual-package-mismatch", "glibc-too-old"}


def test_two_virtual_packages_under_one_installed_version_are_not_guessed() -> None:
    text = _system_block(
        "  - tensorflow-gpu=2.6 -> __cuda[version='>=11.2']\n"
        "  - tensorflow-gpu=2.6 -> __glibc[version='>=2.28']\n",
        "2.17",
    )
    causes = {x.cause for x in explained(text).findings}
    assert not causes & {"conda-virtual-package-mismatch", "glibc-too-old"}


def _cuda_driver_block(chains: str, records: str, installed: str) -> str:
    """conda 4.8's and 4.9's words for the same block of __cuda alone ("cuda" message of
    conda/exceptions.py, https://github.com/conda/conda/blob/4.9.2/conda/exceptions.py),
    after the chains that meet in __cuda where there are any."""
    head = (
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n\nOutput in format: Requested package -> Available versions\n\n"
        f"Package __cuda conflicts for:\n{chains}"
        if chains
        else "UnsatisfiableError: "
    )
    return (
        f"{head}The following specifications were found to be incompatible with your CUDA "
        f"driver:\n\n{records}\nYour installed CUDA driver is: {installed}\n\n"
    )


_CUDA_CHAINS = (
    "tensorflow-gpu=2.4 -> tensorflow==2.4.1=gpu_py38h8a7d6ce_0 -> __cuda[version='>=11.0']\n"
    "cudatoolkit=11.0 -> __cuda[version='>=11.0']\n"
)


def test_conda_49s_cuda_driver_not_available_is_a_virtual_package_to_declare() -> None:
    text = _cuda_driver_block(_CUDA_CHAINS, "", "not available")
    top = top_error(explained(text))
    assert top.cause == "conda-virtual-package-mismatch"
    assert "CONDA_OVERRIDE_CUDA" in fix_text(top) and "11.0" in fix_text(top)


def test_conda_49s_cuda_driver_below_the_chains_floor_is_the_driver() -> None:
    text = _cuda_driver_block(_CUDA_CHAINS, "  - feature:/linux-64::__cuda==10.2=0\n", "10.2")
    top = top_error(explained(text))
    assert top.cause == "driver-too-old"
    assert "__cuda 10.2" in top.summary and "11.0" in top.summary


def test_conda_49s_cuda_chains_one_of_which_the_driver_meets_say_nothing() -> None:
    # conda 4.9 lists every chain meeting in __cuda: a build the driver admits remains.
    chains = _CUDA_CHAINS + "tensorflow-gpu=2.4 -> cudatoolkit=10.1 -> __cuda[version='>=10.1']\n"
    text = _cuda_driver_block(chains, "  - feature:/linux-64::__cuda==10.2=0\n", "10.2")
    causes = {x.cause for x in explained(text).findings}
    assert "driver-too-old" not in causes


def test_conda_49s_cuda_driver_block_beside_another_conflict_says_nothing() -> None:
    # conda 4.9 prints the block of the system's own record beside any conflict.
    text = (
        "Package libstdcxx-ng conflicts for:\n"
        "python=3.10.6 -> libffi[version='>=3.3,<3.4.0a0'] -> libstdcxx-ng[version='>=7.3.0']"
        + _cuda_driver_block("", "  - feature:/linux-64::__cuda==11.4=0\n", "11.4")
    )
    causes = {x.cause for x in explained(text).findings}
    assert not causes & {"conda-virtual-package-mismatch", "driver-too-old"}


# --- conda's classic solver and libmamba: TensorFlow's Python ------------------------------


def test_condas_python_group_names_the_release_and_its_pythons() -> None:
    text = (
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n\nOutput in format: Requested package -> Available versions\n\n"
        "Package python conflicts for:\n"
        "tensorflow=1.2 -> python[version='>=2.7,<2.8.0a0|>=3.5,<3.6.0a0|>=3.6,<3.7.0a0']\n"
        "python=3.8\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    assert "python=3.6 tensorflow=1.2" in fix_text(top)


def test_condas_python_group_with_the_python_among_the_builds_is_not_the_python() -> None:
    text = (
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n\nPackage python conflicts for:\n"
        "tensorflow=2.4 -> python[version='>=3.8,<3.9.0a0']\n"
        "keras-gpu -> python[version='>=2.7,<2.8.0a0']\npython=3.8\n"
    )
    assert "tf-release-not-for-python" not in {x.cause for x in explained(text).findings}


def _mamba_tree(leaf: str) -> str:
    return (
        "error    libmamba Could not solve for environment specs\n"
        "    The following packages are incompatible\n"
        "    ├─ python 3.12**  is requested and can be installed;\n"
        "    └─ tensorflow 2.11**  is not installable because it requires\n"
        f"       └─ {leaf}, which conflicts with any installable versions previously "
        "reported.\n"
        "critical libmamba Could not solve for environment specs\n"
    )


def test_libmambas_tree_says_the_release_has_no_build_for_the_python() -> None:
    top = top_error(explained(_mamba_tree("python >=3.10,<3.11.0a0 *")))
    assert top.cause == "tf-release-not-for-python"
    assert "conda create" in fix_text(top) and "python=3.10" in fix_text(top)
    assert "pip " not in fix_text(top)


def test_libmambas_tree_over_another_package_is_not_the_python() -> None:
    text = _mamba_tree("numpy >=1.26,<2.0a0 *")
    assert "tf-release-not-for-python" not in {x.cause for x in explained(text).findings}


# --- pip on Windows: a path past MAX_PATH ---------------------------------------------------

_LONG = "C:\\\\Users\\\\someone\\\\AppData\\\\Local\\\\Packages\\\\" + "\\\\".join(
    (
        *("PythonSoftwareFoundation.Python.3.10_qbz5n2kfra8p0", "LocalCache", "local-packages"),
        *("Python310", "site-packages", "tensorflow", "include", "external", "grpc"),
        *("src", "core", "ext", "filters", "client_channel", "lb_policy", "grpclb", "x_filter.h"),
    )
)


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: Could not install packages due to an OSError: [WinError 206] The filename or "
        "extension is too long: 'C:\\\\venv\\\\Lib\\\\site-packages\\\\tensorflow\\\\x.h'",
        f"ERROR: Could not install packages due to an EnvironmentError: [Errno 2] No such file "
        f"or directory: '{_LONG}'",
    ],
    ids=["winerror-206", "old-pip-missing-file-past-max-path"],
)
def test_pips_refused_long_path_is_windows_long_paths(line: str) -> None:
    top = top_error(explained(f"Installing collected packages: tensorflow\n{line}\n"))
    assert top.cause == "windows-long-paths"
    assert "LongPathsEnabled" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or "
        "directory: 'C:\\\\venv\\\\Lib\\\\site-packages\\\\tensorflow\\\\x.h'\n",
        "Traceback (most recent call last):\n"
        '  File "C:\\run.py", line 3, in <module>\n'
        "    subprocess.run(cmd)\n"
        "FileNotFoundError: [WinError 206] The filename or extension is too long\n",
    ],
    ids=["a-short-missing-path", "a-long-command-line-outside-pip"],
)
def test_a_missing_file_or_error_206_outside_pips_install_is_not_long_paths(text: str) -> None:
    assert "windows-long-paths" not in {x.cause for x in explained(text).findings}


# --- uv and Poetry: the project's declared Python range ------------------------------------


def test_uvs_requires_python_hint_narrows_the_projects_range_with_uv() -> None:
    # uv wraps the hint at the terminal's width.
    text = (
        "  \u00d7 No solution found when resolving dependencies for split (python_full_version == "
        "'3.8.*'):\n"
        "  ╰─▶ Because the requested Python version (>=3.8) does not satisfy Python>=3.9 and "
        "tensorflow==2.16.1 depends on Python>=3.9, we can conclude that tensorflow==2.16.1 "
        "cannot be used.\n\n"
        "      hint: The `requires-python` value (>=3.8) includes Python versions that are not "
        "supported by your dependencies (e.g.,\n"
        "      tensorflow==2.16.1 only supports >=3.9). Consider using a more restrictive "
        "`requires-python` value (like\n      >=3.9).\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert 'requires-python = ">=3.9"' in fix and "uv lock" in fix
    assert "pip " not in fix


def test_uvs_requires_python_hint_for_another_projects_package_is_not_tensorflows() -> None:
    text = (
        "      hint: The `requires-python` value (>=3.8) includes Python versions that are not "
        "supported by your dependencies (e.g., numpy==2.1.0 only supports >=3.10). Consider "
        "using a more restrictive `requires-python` value (like >=3.10).\n"
    )
    assert "tf-release-not-for-python" not in {x.cause for x in explained(text).findings}


_POETRY = (
    "Updating dependencies\nResolving dependencies... (1.2s)\n\n"
    "The current project's supported Python range (>=3.9,<4.0) is not compatible with some of "
    "the required packages Python requirement:\n"
    "  - {dist} requires Python >=3.9,<3.12, so it will not be satisfied for Python "
    ">=3.12,<4.0\n\n"
    "  • Check your dependencies Python requirement: The Python requirement can be specified "
    "via the `python` or `markers` properties\n\n"
    '    For {dist}, a possible solution would be to set the `python` property to ">=3.9,<3.12"\n'
)


def test_poetrys_python_range_is_narrowed_with_poetry() -> None:
    top = top_error(explained(_POETRY.format(dist="tensorflow")))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert '">=3.9,<3.12"' in fix and "poetry lock" in fix
    assert "pip " not in fix


def test_poetrys_python_range_of_another_projects_package_is_not_tensorflows() -> None:
    text = _POETRY.format(dist="pyinstaller")
    assert "tf-release-not-for-python" not in {x.cause for x in explained(text).findings}


# uv's PubGrub report without its hint: the interpreter uv pip install runs for ("current"),
# or the project's range uv lock resolves for ("requested"), wrapped as uv wraps it.
_UV_CURRENT = (
    "  \u00d7 No solution found when resolving dependencies:\n"
    "  ╰─▶ Because the current Python version (3.8.18) does not satisfy Python>=3.9 and\n"
    "      tensorflow==2.16.1 depends on Python>=3.9, we can conclude that\n"
    "      tensorflow==2.16.1 cannot be used.\n"
)
_UV_REQUESTED_EVERY = (
    "  \u00d7 No solution found when resolving dependencies for split (python_full_version >= "
    "'3.13'):\n"
    "  ╰─▶ Because the requested Python version (>=3.13) does not satisfy Python>=3.9 and all\n"
    "      versions of {dist} depend on Python>=3.9,<3.13, we can conclude that all versions\n"
    "      of {dist} cannot be used.\n"
)


def test_pip_9s_requires_python_refusal_names_a_python_inside_the_range() -> None:
    top = top_error(
        explained("tensorflow-addons requires Python '>=3.7' but the running Python is 3.6.9\n")
    )
    assert top.cause == "tf-release-not-for-python"
    assert ">=3.7" in fix_text(top) and "3.6.9" in fix_text(top)


def test_uvs_current_python_outside_a_releases_range_is_the_interpreters() -> None:
    top = top_error(explained(_UV_CURRENT))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert ">=3.9" in fix and "3.8.18" in fix
    assert "uv lock" not in fix


def test_uvs_requested_python_outside_every_release_narrows_the_projects_range() -> None:
    top = top_error(explained(_UV_REQUESTED_EVERY.format(dist="tensorflow")))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert ">=3.9,<3.13" in fix and "requires-python" in fix and "uv lock" in fix


def test_uvs_python_range_of_another_projects_package_is_not_tensorflows() -> None:
    text = _UV_REQUESTED_EVERY.format(dist="pandas-ta")
    found = {x.cause for x in explained(text).findings}
    assert not found & {"tf-release-not-for-python", "tf-no-wheel-for-python"}


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "  Because no versions of tensorflow match >2.16.1,<3.0.0\n"
            "   and tensorflow (2.16.1) requires Python >=3.9, tensorflow is forbidden.\n"
            "  So, because demo depends on tensorflow (^2.16.1), version solving failed.\n",
            id="incompatibility-alone",
        ),
        pytest.param(
            "[SolverProblemError]\n"
            "The current project's Python requirement (^3.8) is not compatible with some of the "
            "required packages Python requirement:\n"
            "  - tensorflow requires Python >=3.9, <3.12\n",
            id="poetry-1.0-item",
        ),
        pytest.param(
            "The current project's supported Python range (>=3.8,<4.0) is not compatible with "
            "some of the required packages Python requirement:\n"
            "  - tensorflow requires Python >=3.9, so it will not be installable for Python "
            ">=3.8,<3.9\n",
            id="poetry-1.8-installable",
        ),
    ],
)
def test_poetrys_python_requirement_in_each_wording_narrows_the_projects_range(
    text: str,
) -> None:
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert ">=3.9" in fix and "poetry lock" in fix
    assert "pip " not in fix


def test_a_companion_poetry_finds_no_file_of_is_looked_up_without_pip() -> None:
    text = (
        "  RuntimeError\n\n  Unable to find installation candidates for "
        "tensorflow-io-gcs-filesystem (0.34.0)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    assert top.fix is not None
    assert not any(c.startswith("pip ") for c in top.fix.commands)


# --- downloads whose hash does not match ---------------------------------------------------


def test_a_file_that_fails_pips_hash_check_is_downloaded_again() -> None:
    text = (
        "Collecting tensorflow==2.15.0\n"
        "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have "
        "updated the package versions, please update the hashes. Otherwise, examine the "
        "package contents carefully; someone may have tampered with them.\n"
        "    tensorflow==2.15.0 from https://files.pythonhosted.org/packages/aa/bb/"
        "tensorflow-2.15.0-cp310-cp310-manylinux_2_17_x86_64.whl:\n"
        "        Expected sha256 0123\n             Got        4567\n"
    )
    top = top_error(explained(text))
    assert top.cause == "download-hash-mismatch"
    assert "pip cache purge" in fix_text(top) and "--no-cache-dir" in fix_text(top)


def test_pipenvs_hash_check_makes_its_lock_again() -> None:
    text = (
        "[pipenv.exceptions.InstallError]: THESE PACKAGES DO NOT MATCH THE HASHES FROM "
        "Pipfile.lock!\n"
    )
    top = top_error(explained(text))
    assert top.cause == "download-hash-mismatch"
    assert "pipenv lock --clear" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n"
        "        Expected sha256 0123\n             Got        4567\n",
        "[pipenv.exceptions.InstallError]: THESE PACKAGES DO NOT MATCH THE HASHES FROM "
        "Pipfile.lock!\n",
    ],
    ids=["pip", "pipenv"],
)
def test_a_hash_mismatch_says_how_to_tell_a_stale_hash_from_an_altered_file(text: str) -> None:
    fix = fix_text(top_error(explained(text)))
    assert "`Got` hash" in fix and "PyPI lists" in fix and "proxy or mirror" in fix


def test_pipenv_passing_pips_hash_words_through_makes_its_lock_again() -> None:
    # Later Pipenv releases print pip's own words under their exception's name.
    text = (
        "[pipenv.exceptions.InstallError]: ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM "
        "THE REQUIREMENTS FILE. If you have updated the package versions, please update the "
        "hashes.\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "pipenv lock --clear" in fix and "pip-compile" not in fix


def test_hashes_missing_in_require_hashes_mode_are_not_a_mismatch() -> None:
    text = (
        "ERROR: Hashes are required in --require-hashes mode, but they are missing from some "
        "requirements. Here is a list of those requirements along with the hashes their "
        "downloaded archives actually had.\n"
    )
    assert "download-hash-mismatch" not in {x.cause for x in explained(text).findings}


# --- pip's resolver: a library's exact pin against TensorFlow's range ----------------------


def test_a_librarys_exact_pin_that_no_tensorflow_meets_is_the_librarys() -> None:
    text = (
        "The conflict is caused by:\n"
        "    somelib 1.2.0 depends on wrapt==1.11.1\n"
        "    tensorflow 2.4.1 depends on wrapt~=1.12.1\n"
    )
    top = top_error(explained(text))
    assert top.cause == "library-pin-conflicts"
    assert "somelib" in fix_text(top)
    # The matrix records no wrapt range (TensorFlow 2.3 declares wrapt>=1.11.1, which meets):
    # it cannot say that no release meets.
    assert "No TensorFlow release" not in fix_text(top)
    assert "does not record TensorFlow's wrapt ranges" in fix_text(top)


def test_a_pin_past_tensorflows_cap_is_tensorflows_range_holding_it_back() -> None:
    # TensorFlow 2.5's wheel declares tensorflow-estimator<2.6.0,>=2.5.0: a library asking for
    # 2.7 meets a cap, not an old pin of its own.
    text = (
        "The conflict is caused by:\n"
        "    somelib 1.2.0 depends on tensorflow-estimator==2.7.0\n"
        "    tensorflow 2.5.0 depends on tensorflow-estimator<2.6.0 and >=2.5.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-pin-conflicts-with-package"
    fix = fix_text(top)
    assert "somelib" in fix and "a later tensorflow whose range admits" in fix
    # Below TensorFlow's floor, the library's pin is the old one.
    older = text.replace("==2.7.0", "==2.4.0")
    assert top_error(explained(older)).cause == "library-pin-conflicts"


def test_a_library_that_brought_its_own_tensorflow_clashes_within_its_pins() -> None:
    text = (
        "ERROR: Cannot install somelib==1.0.4 because these package versions have conflicting "
        "dependencies.\n\nThe conflict is caused by:\n"
        "    somelib 1.0.4 depends on numpy==1.12.0\n"
        "    tensorflow 1.5.0 depends on numpy>=1.12.1\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"


# --- uv, Poetry and PDM: TensorFlow's range against another package's ----------------------

_RANGES = {
    "uv": (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  \u2570\u2500\u25b6 Because tensorflow==2.12.0 depends on numpy>=1.22,<1.24 and "
        "pandas==2.2.2 depends on numpy>=1.26.0, we can conclude that pandas==2.2.2 and "
        "tensorflow==2.12.0 are incompatible.\n",
        'uv add "tensorflow==',
    ),
    "poetry": (
        "Because pandas (2.2.2) depends on numpy (>=1.26.0)\n"
        " and tensorflow (2.12.0) depends on numpy (>=1.22,<1.24), pandas (2.2.2) is "
        "incompatible with tensorflow (2.12.0).\n"
        "So, because myproj depends on both tensorflow (2.12.0) and pandas (2.2.2), version "
        "solving failed.\n",
        'poetry add "tensorflow==',
    ),
    "pdm": (
        "Unable to find a resolution for numpy\nbecause of the following conflicts:\n"
        "  numpy<1.24,>=1.22 (from tensorflow@2.12.0)\n"
        "  numpy>=1.26.0 (from pandas@2.2.2)\n"
        "To fix this, you could loosen the dependency version constraints in pyproject.toml.\n",
        'pdm add "tensorflow==',
    ),
}


@pytest.mark.parametrize("text, command", _RANGES.values(), ids=_RANGES.keys())
def test_a_resolvers_ranges_that_do_not_meet_are_fixed_with_that_resolver(
    text: str, command: str
) -> None:
    top = top_error(explained(text))
    # TensorFlow 2.12's cap (numpy<1.24) lies below every numpy pandas asks for: TensorFlow's
    # range holds it back, and the fix is the TensorFlow line whose range admits pandas'.
    assert top.cause == "tf-pin-conflicts-with-package"
    assert top.fix is not None
    assert any(c.startswith(command) for c in top.fix.commands)
    assert not any(c.startswith("pip ") for c in top.fix.commands)


@pytest.mark.parametrize(
    "root",
    [
        "And because you require pandas==2.2.2 and tensorflow==2.12.0, we can conclude that "
        "your requirements are unsatisfiable.",
        # uv wraps at the terminal's width.
        "And because you\n      require pandas==2.2.2 and tensorflow==2.12.0, we can conclude "
        "that your requirements are\n      unsatisfiable.",
    ],
    ids=["one-line", "wrapped"],
)
def test_uvs_pip_interface_is_fixed_with_uv_pip_not_a_projects_add(root: str) -> None:
    # `uv pip install` resolves no project: `uv add` there finds no pyproject.toml.
    text = f"$ uv pip install tensorflow==2.12.0 pandas==2.2.2\n{_RANGES['uv'][0]}      {root}\n"
    top = top_error(explained(text))
    assert top.fix is not None
    assert any(c.startswith('uv pip install "tensorflow==') for c in top.fix.commands)
    assert any(c.endswith('"pandas"') for c in top.fix.commands)
    assert not any(c.startswith("uv add") for c in top.fix.commands)


def test_ranges_without_tensorflows_pep_440_side_are_left_alone() -> None:
    # Poetry's caret is not a PEP 440 range: no meeting is judged from it.
    text = (
        "Because pandas (2.2.2) depends on numpy (^1.26.0)\n and tensorflow (2.12.0) depends "
        "on numpy (>=1.22,<1.24), pandas (2.2.2) is incompatible with tensorflow (2.12.0).\n"
        "So, because myproj depends on both, version solving failed.\n"
    )
    assert "dependency-out-of-range" not in {x.cause for x in explained(text).findings}


def test_two_other_packages_ranges_uv_could_not_meet_name_the_pair_with_uvs_commands() -> None:
    # uv installed nothing: the two ranges are the failure, and one of the two must move.
    text = (
        "  \u2570\u2500\u25b6 Because pandas==2.2.2 depends on numpy>=1.26.0 and numba==0.56.0 "
        "depends on numpy<1.24, we can conclude that numba==0.56.0 and pandas==2.2.2 are "
        "incompatible.\n"
    )
    (top,) = readings(explained(text))
    assert top.cause == "dependency-out-of-range" and top.severity == Severity.WARNING
    assert top.fix is not None and "pandas" in top.fix.text and "numba" in top.fix.text
    assert not any(c.startswith("pip ") for c in top.fix.commands)


def test_pdms_requires_python_refusal_narrows_the_range_with_pdm() -> None:
    text = (
        "Unable to find a resolution because the following dependencies don't work on all "
        "Python versions in the range of the project's `requires-python`: >=3.8.\n"
        "  python>=3.9 (from <Candidate tensorflow@2.16.1 from https://pypi.org/simple/"
        "tensorflow/>)\n"
        "A possible solution is to change the value of `requires-python` in pyproject.toml to "
        ">=3.9.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert 'requires-python = ">=3.9"' in fix and "pdm lock" in fix


def test_uvs_project_range_against_another_librarys_range_names_both_ways() -> None:
    # No TensorFlow on either side: the project's own range on a package against the only
    # releases of a library uv found, whose range on it misses the project's.
    text = (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  ╰─▶ Because fitlib==0.9.1 depends on numpy<2.0.0 and only fitlib<=0.9.1 is "
        "available, we can conclude that fitlib>=0.9.1 depends on numpy<2.0.0.\n"
        "      And because your project depends on numpy>=2.1.1 and your project depends on "
        "fitlib>=0.9.1, we can conclude that your project's requirements are unsatisfiable.\n"
    )
    found = [f for f in explained(text).findings if f.cause == "dependency-out-of-range"]
    assert found and found[0].severity is Severity.WARNING
    fix = fix_text(found[0])
    assert "fitlib" in fix and "numpy>=2.1.1" in fix and "uv installs nothing" in found[0].detail


# --- uv's words for a wheel tag that fails, across its releases -----------------------------

#: The tag's kind as uv words it (0.5 on: the Python version's tag; the implementation's), and
#: uv 0.1's wordings without "tag".
UV_PYTHON_TAGS = {
    "python-version-tag": "has no wheels with a matching Python version tag (e.g., `cp313`)",
    "implementation-tag": "has no wheels with a matching Python implementation tag",
    "uv-0.1.45": "has no wheels are available with a matching Python ABI",
    "uv-0.1.20": "is unusable because no wheels are available with a matching Python ABI",
}


@pytest.mark.parametrize("words", UV_PYTHON_TAGS.values(), ids=UV_PYTHON_TAGS.keys())
def test_uvs_refusal_of_a_releases_python_tags_is_read_in_every_wording(words: str) -> None:
    text = (
        "$ uv pip install tensorflow==2.16.1\n"
        "  \u00d7 No solution found when resolving dependencies:\n"
        f"  ╰─▶ Because tensorflow==2.16.1 {words} and you require tensorflow==2.16.1, we "
        "can conclude that the requirements are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    assert "tensorflow 2.16.1" in fix_text(top)


def test_uvs_python_version_tag_over_every_release_is_no_wheel_for_the_python() -> None:
    text = (
        "$ uv sync\n"
        "  \u00d7 No solution found when resolving dependencies for split "
        "(python_full_version >= '3.13'):\n"
        "  ╰─▶ Because all versions of tensorflow have no wheels with a matching Python version "
        "tag (e.g., `cp313`) and your project depends on tensorflow>=2.16, we can conclude "
        "that your project's requirements are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    assert "Python" in fix_text(top)


def test_uv_01s_platform_words_without_a_tag_are_the_platforms() -> None:
    text = (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  ╰─▶ Because tensorflow==2.13.0 has no wheels are available with a matching platform "
        "and you require tensorflow==2.13.0, we can conclude that the requirements are "
        "unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    assert "platform" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        "Because mylib==1.0 has no wheels with a matching Python ABI tag (e.g., `cp313`) and "
        "you require mylib==1.0, we can conclude that your requirements are unsatisfiable.",
        "Because mylib>=1.0 has no wheels with a matching Python ABI tag (e.g., `cp313`) and "
        "you require mylib>=1.0, we can conclude that your requirements are unsatisfiable.",
    ],
    ids=["one-release", "range"],
)
def test_uvs_tag_words_about_another_package_are_not_tensorflows_release(line: str) -> None:
    # The same words of a package of no TensorFlow line: no release of TensorFlow is named,
    # and no fix names TensorFlow's Pythons or releases.
    report = explained("  \u00d7 No solution found when resolving dependencies:\n  ╰─▶ " + line)
    assert "tf-release-not-for-python" not in {x.cause for x in report.findings}
    assert all("TensorFlow 2." not in fix_text(x) for x in report.findings if x.fix)


def test_uvs_implementation_tag_is_cpython_not_another_release() -> None:
    # No TensorFlow release publishes a wheel for PyPy: the fix is CPython, not a release.
    text = (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  ╰─▶ Because tensorflow==2.16.1 has no wheels with a matching Python implementation "
        "tag (e.g., `pp310`) and you require tensorflow==2.16.1, we can conclude that your "
        "requirements are unsatisfiable.\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "CPython" in fix and "cpython@" in fix
    assert "release that publishes" not in fix


# --- conda and libmamba: the user's own request against TensorFlow's range -----------------


def test_condas_group_with_the_request_against_tensorflows_range_is_out_of_range() -> None:
    text = (
        "$ conda install tensorflow==2.15 numpy=2.0\n"
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n\nOutput in format: Requested package -> Available versions\n\n"
        "Package numpy conflicts for:\n"
        "tensorflow==2.15 -> numpy[version='>=1.22.4,<2.0a0']\n"
        "numpy=2.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-out-of-range"
    fix = fix_text(top)
    assert "numpy==2.0.*" in fix and "numpy>=1.22.4,<2.0a0" in fix and "conda installs" in fix
    # conda's builds declare their own ranges: no PyPI release from the matrix is offered,
    # the package is pinned inside the range the solver printed and both sides searched.
    assert top.fix is not None
    assert top.fix.commands == (
        'conda install "numpy>=1.22.4,<2.0a0" "tensorflow=2.15"',
        "conda search numpy",
        'conda search --info "tensorflow"',
    )
    assert "2.18" not in fix and "pip install" not in fix


def test_condas_group_whose_request_meets_tensorflows_range_is_no_clash() -> None:
    text = (
        "UnsatisfiableError: The following specifications were found to be incompatible with "
        "each other:\n\nPackage numpy conflicts for:\n"
        "tensorflow==2.15 -> numpy[version='>=1.22.4,<2.0a0']\n"
        "numpy=1.26\n"
    )
    assert "dependency-out-of-range" not in all_causes(text)


def _mamba_request(requested: str, leaf: str) -> str:
    return (
        "$ micromamba install tensorflow=2.15 -c conda-forge\n"
        "error    libmamba Could not solve for environment specs\n"
        "    The following packages are incompatible\n"
        f"    ├─ {requested}  is requested and can be installed;\n"
        "    └─ tensorflow 2.15**  is not installable because it requires\n"
        f"       └─ {leaf} , which conflicts with any installable versions previously "
        "reported.\n"
        "critical libmamba Could not solve for environment specs\n"
    )


@pytest.mark.parametrize(
    "requested, asked",
    [("numpy 2.0**", "numpy==2.0.*"), ("numpy >=2", "numpy>=2")],
    ids=["fuzzy", "range"],
)
def test_libmambas_request_against_tensorflows_range_is_out_of_range(
    requested: str, asked: str
) -> None:
    top = top_error(explained(_mamba_request(requested, "numpy >=1.22.4,<2.0a0")))
    assert top.cause == "dependency-out-of-range"
    fix = fix_text(top)
    assert asked in fix and "TensorFlow 2.15" in fix
    assert top.fix is not None
    assert top.fix.commands[0] == 'conda install "numpy>=1.22.4,<2.0a0" "tensorflow=2.15"'
    assert "conda search numpy" in top.fix.commands


@pytest.mark.parametrize(
    "requested, leaf",
    [("numpy 1.26**", "numpy >=1.22.4,<2.0a0"), ("scipy 1.11**", "numpy >=1.22.4,<2.0a0")],
    ids=["request-inside-the-range", "request-of-another-name"],
)
def test_libmambas_tree_whose_request_is_not_the_clash_is_not_out_of_range(
    requested: str, leaf: str
) -> None:
    assert "dependency-out-of-range" not in all_causes(_mamba_request(requested, leaf))


#: uv's report of a range of releases refused for their tags (PubGrub's PackageRange).
UV_RANGES = {
    "python-tag-upper": (
        "      and tensorflow<=2.17.1 has no wheels with a matching Python version tag (e.g., "
        "`cp313`), we can conclude that all versions of tensorflow cannot be used.\n"
        "      And because you require tensorflow, we can conclude that your requirements are "
        "unsatisfiable.\n"
    ),
    "python-tag-between": (
        "  ╰─▶ Because tensorflow>=2.16.0,<=2.17.1 has no wheels with a matching Python ABI tag "
        "(e.g., `cp313`) and you require tensorflow>=2.16.0,<=2.17.1, we can conclude that your "
        "requirements are unsatisfiable.\n"
    ),
    "platform-tag-companion": (
        "  ╰─▶ Because only tensorflow-io-gcs-filesystem<=0.37.1 is available and "
        "tensorflow-io-gcs-filesystem>=0.32.0 has no wheels with a matching platform tag (e.g., "
        "`win_amd64`), we can conclude that tensorflow-io-gcs-filesystem>=0.32.0 cannot be "
        "used.\n"
        "      And because tensorflow==2.16.1 depends on tensorflow-io-gcs-filesystem>=0.23.1, "
        "we can conclude that tensorflow==2.16.1 cannot be used.\n"
    ),
}


@pytest.mark.parametrize("text", UV_RANGES.values(), ids=UV_RANGES.keys())
def test_uvs_range_of_releases_refused_for_their_tags_is_no_wheel(text: str) -> None:
    top = top_error(explained("  \u00d7 No solution found when resolving dependencies:\n" + text))
    assert top.cause == "tf-no-wheel-for-python"


def test_uvs_range_of_releases_refused_names_the_newest_release_inside_it() -> None:
    # tensorflow<=2.17.1 excludes the newest release: its Pythons change nothing, the newest
    # release inside the range (2.17.1, CPython 3.9 to 3.12) does.
    text = (
        "  \u00d7 No solution found when resolving dependencies:\n"
        "  ╰─▶ Because tensorflow<=2.17.1 has no wheels with a matching Python version tag (e.g., "
        "`cp313`) and you require tensorflow<=2.17.1, we can conclude that your requirements "
        "are unsatisfiable.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    assert "TensorFlow 2.17.1, the newest release inside that range" in fix
    assert "Python 3.9, 3.10, 3.11 or 3.12 (from the matrix)" in fix
    assert "widen the requirement" in fix


def test_a_printed_range_refusal_is_not_uvs_report() -> None:
    # uv's sentence starts "Because" or "and": a program printing the words is not uv.
    text = (
        "# My CI script\n"
        'print("tensorflow>=2.16 has no wheels with a matching Python version tag")\n'
        "$ python train.py\n"
    )
    assert "tf-no-wheel-for-python" not in all_causes(text)


@pytest.mark.parametrize(
    "signature, words",
    [
        ("uv-no-abi-tag", " has no wheels with a matching Python ABI tag"),
        ("uv-no-free-threaded-tag", " has no wheels with a free-threading compatible ABI tag"),
        ("uv-no-abi-tag-range", " has no wheels with a matching Python ABI tag"),
        ("uv-no-platform-tag-range", " has no wheels with a matching platform tag"),
    ],
)
@pytest.mark.parametrize("filler", ["a", "a==1", "and a<1,", "Because tensorflow<1"])
def test_uvs_tag_refusals_are_read_in_linear_time(signature: str, words: str, filler: str) -> None:
    # About 200 KB of name characters (or specifiers) before the words: a near miss each
    # pattern gives up on without trying every place a name could start.
    line = filler * (200_000 // len(filler)) + words
    pattern = SIGNATURES.by_id(signature).pattern
    start = time.perf_counter()
    pattern.search(line)
    assert time.perf_counter() - start < 0.5


def test_uvs_range_of_a_package_that_is_available_is_not_refused() -> None:
    text = (
        "  ╰─▶ Because only tensorflow<=2.17.1 is available and you require tensorflow>=2.18, "
        "we can conclude that your requirements are unsatisfiable.\n"
    )
    assert "tf-no-wheel-for-python" not in all_causes(text)
