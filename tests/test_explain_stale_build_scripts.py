"""Source builds in every installer's words, and the releases whose build script the build
tools of today break: pip's progress lines where its output is no terminal (CI, a Dockerfile's
RUN), Poetry's note below a build backend's failure, uv's "Failed to build `X==V`" and the
compiler's failed command alone (its object files under build/temp.*/X/); a
release the module table's ``stale_build_scripts`` names (PyYAML before 6.0.1 under Cython
3.0) is the pin's (``pinned-sdist-unbuildable``), whichever installer built it."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, problem_causes, top_error
from tfdoctor.evidence.pip import read_source_builds
from tfdoctor.findings import Severity
from tfdoctor.modules import modules

# A CI job's pip (no terminal): awscli 1.27 caps PyYAML below 5.5, and 5.4.1's archive fails.
_CI_AWSCLI = (
    "Run python -m pip install -r requirements-ci.txt\n"
    "Collecting awscli==1.27.160 (from -r requirements-ci.txt (line 4))\n"
    "  Downloading awscli-1.27.160-py3-none-any.whl (4.1 MB)\n"
    "Collecting PyYAML<5.5,>=3.10 (from awscli==1.27.160->-r requirements-ci.txt (line 4))\n"
    "  Downloading PyYAML-5.4.1.tar.gz (175 kB)\n"
    "  Installing build dependencies: started\n"
    "  Installing build dependencies: finished with status 'done'\n"
    "  Getting requirements to build wheel: started\n"
    "  Getting requirements to build wheel: finished with status 'error'\n"
    "  error: subprocess-exited-with-error\n"
    "Error: Process completed with exit code 1.\n"
)

# A Docker build on Python 3.12 with its requirements pinning PyYAML 6.0, BuildKit's prefixes kept.
_DOCKER_PY312 = (
    "#9 [4/6] RUN pip install --no-cache-dir -r requirements.txt\n"
    "#9 3.112 Collecting tensorflow-cpu==2.16.1 (from -r requirements.txt (line 1))\n"
    "#9 9.870 Collecting pyyaml==6.0 (from -r requirements.txt (line 7))\n"
    "#9 9.902   Downloading PyYAML-6.0.tar.gz (124 kB)\n"
    "#9 10.11   Installing build dependencies: started\n"
    "#9 14.63   Installing build dependencies: finished with status 'done'\n"
    "#9 14.64   Getting requirements to build wheel: started\n"
    "#9 14.93   Getting requirements to build wheel: finished with status 'error'\n"
    "#9 14.94   error: subprocess-exited-with-error\n"
    '#9 ERROR: process "/bin/sh -c pip install --no-cache-dir -r requirements.txt" '
    "did not complete successfully: exit code: 1\n"
)

# pip 23 on a terminal: its spinner's "... error" and the box below it.
_TERMINAL = (
    "(venv) user@laptop:~/proj$ pip install -r requirements.txt\n"
    "Collecting PyYAML==5.4.1\n"
    "  Using cached PyYAML-5.4.1.tar.gz (175 kB)\n"
    "  Installing build dependencies ... done\n"
    "  Getting requirements to build wheel ... error\n"
    "  error: subprocess-exited-with-error\n"
    "\n"
    "  × Getting requirements to build wheel did not run successfully.\n"  # noqa: RUF001
    "  │ exit code: 1\n"
    "  ╰─> [54 lines of output]\n"
    "      AttributeError: cython_sources\n"
    "      [end of output]\n"
)

# Poetry 1.5's note below ChefBuildError.
_POETRY_15 = (
    "$ poetry install\n"
    "Installing dependencies from lock file\n"
    "\n"
    "Package operations: 58 installs, 0 updates, 0 removals\n"
    "\n"
    "  • Installing pyyaml (5.4.1): Failed\n"
    "\n"
    "  ChefBuildError\n"
    "\n"
    "  Backend subprocess exited when trying to invoke get_requires_for_build_wheel\n"
    "\n"
    "  AttributeError: cython_sources\n"
    "\n"
    "  at ~/.local/share/pypoetry/venv/lib/python3.11/site-packages/poetry/installation/"
    "chef.py:147 in _prepare\n"
    "\n"
    "Note: This error originates from the build backend, and is likely not a problem "
    "with poetry but with pyyaml (5.4.1) not supporting PEP 517 builds. You can "
    "verify this by running 'pip wheel --use-pep517 \"pyyaml (==5.4.1)\"'.\n"
)

# Poetry 1.8's note, the causes listed below it.
_POETRY_18 = (
    "  - Installing pyyaml (6.0): Failed\n"
    "\n"
    "PEP517 build of a dependency failed\n"
    "\n"
    "Backend subprocess exited when trying to invoke get_requires_for_build_wheel\n"
    "\n"
    "    | AttributeError: cython_sources\n"
    "\n"
    "Note: This error originates from the build backend, and is likely not a problem "
    "with poetry but one of the following issues with pyyaml (6.0)\n"
    "\n"
    "  - not supporting PEP 517 builds\n"
    "  - not specifying PEP 517 build requirements correctly\n"
    "  - the build requirements are incompatible with your operating system or Python version\n"
    "  - the build requirements are missing system dependencies (eg: compilers, "
    "libraries, headers).\n"
    "\n"
    'You can verify this by running pip wheel --no-cache-dir --use-pep517 "pyyaml (==6.0)".\n'
)

# uv 0.5 and later.
_UV = (
    "$ uv sync\n"
    "Resolved 112 packages in 3ms\n"
    "  × Failed to build `pyyaml==5.4.1`\n"  # noqa: RUF001
    "  ├─▶ The build backend returned an error\n"
    "  ╰─▶ Call to `setuptools.build_meta:__legacy__.get_requires_for_build_wheel` "
    "failed (exit status: 1)\n"
    "\n"
    "      [stderr]\n"
    "      AttributeError: cython_sources\n"
    "\n"
    "      hint: This usually indicates a problem with the package or the build environment.\n"
)

# uv before 0.5.
_UV_OLD = (
    '$ uv pip install "tf-models-official==2.13.0"\n'
    "error: Failed to download and build `pyyaml==5.4.1`\n"
    "  Caused by: Failed to build: `pyyaml==5.4.1`\n"
    "  Caused by: Build backend failed to determine extra requires with "
    "`build_wheel()` with exit status: 1\n"
)

# pip 20's legacy `setup.py install`, no terminal, on an aarch64 runner.
_H5PY_LEGACY = (
    "Collecting h5py==2.10.0\n"
    "  Downloading h5py-2.10.0.tar.gz (301 kB)\n"
    "Building wheels for collected packages: h5py\n"
    "  Running setup.py install for h5py: started\n"
    "  Running setup.py install for h5py: finished with status 'error'\n"
    "    ERROR: Command errored out with exit status 1:\n"
    "    Loading library to get version: libhdf5.so\n"
    "    OSError: libhdf5.so: cannot open shared object file: No such file or directory\n"
)

# The PEP 517 metadata step failing, no terminal.
_NUMPY_METADATA = (
    "Collecting numpy==1.21.6\n"
    "  Downloading numpy-1.21.6.zip (10.3 MB)\n"
    "  Installing build dependencies: started\n"
    "  Installing build dependencies: finished with status 'done'\n"
    "  Getting requirements to build wheel: started\n"
    "  Getting requirements to build wheel: finished with status 'done'\n"
    "  Preparing metadata (pyproject.toml): started\n"
    "  Preparing metadata (pyproject.toml): finished with status 'error'\n"
)

# Poetry building an h5py without a wheel here, HDF5 missing.
_POETRY_H5PY = (
    "  - Installing h5py (2.10.0): Failed\n"
    "\n"
    "  ChefBuildError\n"
    "\n"
    "  Backend subprocess exited when trying to invoke build_wheel\n"
    "\n"
    "  Loading library to get version: libhdf5.so\n"
    "  OSError: libhdf5.so: cannot open shared object file: No such file or directory\n"
    "\n"
    "Note: This error originates from the build backend, and is likely not a problem "
    "with poetry but with h5py (2.10.0) not supporting PEP 517 builds. You can verify this "
    "by running 'pip wheel --use-pep517 \"h5py (==2.10.0)\"'.\n"
)

# uv's pip interface building a NumPy 1.24 on Python 3.12.
_UV_NUMPY = (
    '$ uv pip install "numpy<1.25" tensorflow==2.13.1\n'
    "Resolved 38 packages in 410ms\n"
    "  × Failed to build `numpy==1.24.4`\n"  # noqa: RUF001
    "  ├─▶ The build backend returned an error\n"
    "  ╰─▶ Call to `setuptools.build_meta:__legacy__.build_wheel` failed (exit status: 1)\n"
    "\n"
    "      [stderr]\n"
    "      ModuleNotFoundError: No module named 'distutils'\n"
)

# A release from 6.0.1 on builds with the tools of today: its failure is another one.
_FIXED_RELEASE = (
    "Collecting PyYAML==6.0.1\n"
    "  Downloading PyYAML-6.0.1.tar.gz (125 kB)\n"
    "  Installing build dependencies: started\n"
    "  Installing build dependencies: finished with status 'done'\n"
    "  Getting requirements to build wheel: started\n"
    "  Getting requirements to build wheel: finished with status 'error'\n"
)

# The same words where the build worked: pip built the old release (before Cython 3).
_BUILT = (
    "Collecting PyYAML<6,>=5.1\n"
    "  Downloading PyYAML-5.4.1.tar.gz (175 kB)\n"
    "  Installing build dependencies: started\n"
    "  Installing build dependencies: finished with status 'done'\n"
    "  Getting requirements to build wheel: started\n"
    "  Getting requirements to build wheel: finished with status 'done'\n"
    "  Preparing metadata (pyproject.toml): started\n"
    "  Preparing metadata (pyproject.toml): finished with status 'done'\n"
    "Building wheels for collected packages: PyYAML\n"
    "  Building wheel for PyYAML (pyproject.toml): started\n"
    "  Building wheel for PyYAML (pyproject.toml): finished with status 'done'\n"
    "Successfully built PyYAML\n"
    "Installing collected packages: PyYAML\n"
    "Successfully installed PyYAML-5.4.1\n"
)

_UV_BUILT = (
    '$ uv pip install "pyyaml==5.4.1"\n'
    "Resolved 1 package in 120ms\n"
    "   Building pyyaml==5.4.1\n"
    "      Built pyyaml==5.4.1\n"
    "Prepared 1 package in 9.81s\n"
    "Installed 1 package in 3ms\n"
    " + pyyaml==5.4.1\n"
)


# A requirer whose range admits the fixed release, a constraint having taken the old one.
_ADMITTING = (
    "$ pip install -c constraints.txt tf-models-official==2.13.0\n"
    "Collecting tf-models-official==2.13.0\n"
    "  Downloading tf_models_official-2.13.0-py2.py3-none-any.whl (2.6 MB)\n"
    "Collecting PyYAML>=5.1 (from tf-models-official==2.13.0)\n"
    "  Downloading PyYAML-5.4.1.tar.gz (175 kB)\n"
    "  Getting requirements to build wheel ... error\n"
    "  error: subprocess-exited-with-error\n"
    "      AttributeError: cython_sources\n"
)

# docker-compose 1.29.2 caps PyYAML below 6, so no PyYAML that builds can sit beside it.
_CAPPED = (
    "$ pip install docker-compose==1.29.2\n"
    "Collecting PyYAML<6,>=3.10 (from docker-compose==1.29.2)\n"
    "  Downloading PyYAML-5.4.1.tar.gz (175 kB)\n"
    "  Getting requirements to build wheel: started\n"
    "  Getting requirements to build wheel: finished with status 'error'\n"
    "  error: subprocess-exited-with-error\n"
    "      AttributeError: cython_sources\n"
)


@pytest.mark.parametrize(
    ("text", "release"),
    [
        pytest.param(_CI_AWSCLI, "5.4.1", id="pip-without-terminal-ci"),
        pytest.param(_DOCKER_PY312, "6.0", id="pip-in-a-docker-build"),
        pytest.param(_TERMINAL, "5.4.1", id="pip-on-a-terminal"),
        pytest.param(_ADMITTING, "5.4.1", id="requirer-admits-the-fix"),
        pytest.param(_CAPPED, "5.4.1", id="requirer-caps-below-the-fix"),
    ],
)
def test_pip_building_a_pyyaml_cython_3_breaks_is_the_pin(text: str, release: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "pinned-sdist-unbuildable"
    assert top.severity == Severity.ERROR
    assert top.fix is not None
    assert any(f'--no-build-isolation "pyyaml=={release}"' in c for c in top.fix.commands)
    # The tool the old release builds with is the row's, below the release that broke it.
    assert any('"cython<3.0" setuptools wheel' in c for c in top.fix.commands)
    assert "Cython below 3.0" in top.fix.text
    assert "Cython 3.0" in top.summary
    assert "https://github.com/yaml/pyyaml/issues/601" in top.links


@pytest.mark.parametrize(
    ("text", "command"),
    [
        # The requirer on the same command line: alone, pyyaml>=6.0.1 would be replaced by the
        # old release the next install of the requirer asks for.
        pytest.param(
            _ADMITTING,
            'install "tf-models-official==2.13.0" "pyyaml>=6.0.1"',
            id="beside-its-requirer",
        ),
        # A range that admits no fixed release, or the install's own pin: no command raises it.
        pytest.param(_CAPPED, "", id="requirer-caps-it"),
        pytest.param(_CI_AWSCLI, "", id="requirer-caps-it-ci"),
        pytest.param(_DOCKER_PY312, "", id="own-pin"),
    ],
)
def test_the_raise_is_a_command_only_where_the_resolver_can_take_it(
    text: str, command: str
) -> None:
    fix = top_error(explained(text)).fix
    assert fix is not None
    raised = [c for c in fix.commands if "pyyaml>=6.0.1" in c]
    assert raised == ([f"pip {command}"] if command else [])


def test_a_requirer_capping_below_the_fix_is_named_as_the_one_to_move() -> None:
    text = fix_text(top_error(explained(_CAPPED)))
    assert "docker-compose requires pyyaml<6,>=3.10" in text
    assert "refuse" in text


@pytest.mark.parametrize(
    "text",
    [
        # PyYAML 5.3.1 and earlier ship no pyproject.toml: their build never takes Cython 3.
        pytest.param(
            "Collecting PyYAML==3.13\n"
            "  Downloading PyYAML-3.13.tar.gz (270kB)\n"
            "  Running setup.py bdist_wheel for PyYAML ... error\n"
            "  ext/_yaml.c:23140:19: error: 'PyThreadState {aka struct _ts}' has no member "
            "named 'exc_type'\n"
            "  Failed building wheel for PyYAML\n",
            id="before-5.4",
        ),
        # A release the row names that failed with another error of its own.
        pytest.param(
            "Collecting PyYAML==5.4.1\n"
            "  Using cached PyYAML-5.4.1.tar.gz (175 kB)\n"
            "  Building wheel for PyYAML (pyproject.toml) ... error\n"
            "      ext/_yaml.c:4:10: fatal error: Python.h: No such file or directory\n"
            "  ERROR: Failed building wheel for PyYAML\n",
            id="another-build-error",
        ),
        # A local project built after PyYAML's archive: its failure is not PyYAML's.
        pytest.param(
            "Collecting pyyaml==5.4.1 (from -r requirements.txt (line 1))\n"
            "  Downloading PyYAML-5.4.1.tar.gz (175 kB)\n"
            "  Getting requirements to build wheel: finished with status 'done'\n"
            "Processing ./vendor/mylib\n"
            "  Getting requirements to build wheel: finished with status 'error'\n"
            "      ModuleNotFoundError: No module named 'setuptools_scm'\n",
            id="local-project-after-it",
        ),
    ],
)
def test_a_build_cython_3_did_not_break_is_not_blamed_on_it(text: str) -> None:
    assert "pinned-sdist-unbuildable" not in problem_causes(explained(text))


def test_a_local_projects_failed_build_names_no_archive_before_it() -> None:
    text = (
        "  Downloading PyYAML-5.4.1.tar.gz (175 kB)\n"
        "Obtaining file:///home/runner/work/proj/proj\n"
        "  Preparing editable metadata (pyproject.toml) ... error\n"
    )
    assert read_source_builds([text]) == []


@pytest.mark.parametrize(
    ("text", "installer", "release", "command"),
    [
        pytest.param(_POETRY_15, "Poetry", "5.4.1", 'poetry add "pyyaml>=6.0.1"', id="poetry-1.5"),
        pytest.param(_POETRY_18, "Poetry", "6.0", 'poetry add "pyyaml>=6.0.1"', id="poetry-1.8"),
        pytest.param(_UV, "uv", "5.4.1", "", id="uv"),
        pytest.param(_UV_OLD, "uv", "5.4.1", "", id="uv-before-0.5"),
    ],
)
def test_other_installers_building_it_are_told_in_their_own_commands(
    text: str, installer: str, release: str, command: str
) -> None:
    top = top_error(explained(text))
    assert top.cause == "pinned-sdist-unbuildable"
    assert top.summary.startswith(f"{installer} built pyyaml {release} from source")
    assert top.fix is not None
    # No pip command for an environment another installer manages.
    assert top.fix.commands == ((command,) if command else ())
    if installer == "uv":
        assert 'uv add "pyyaml>=6.0.1"' in fix_text(top)


@pytest.mark.parametrize(
    ("text", "dist", "version", "installer"),
    [
        pytest.param(_CI_AWSCLI, "pyyaml", "5.4.1", "pip", id="get-requires-no-terminal"),
        pytest.param(_H5PY_LEGACY, "h5py", "2.10.0", "pip", id="setup-py-install-no-terminal"),
        pytest.param(_NUMPY_METADATA, "numpy", "1.21.6", "pip", id="metadata-no-terminal"),
        pytest.param(_POETRY_18, "pyyaml", "6.0", "poetry", id="poetry-note"),
        pytest.param(_UV_OLD, "pyyaml", "5.4.1", "uv", id="uv-words"),
    ],
)
def test_each_installers_words_for_a_failed_build_are_read(
    text: str, dist: str, version: str, installer: str
) -> None:
    (build,) = read_source_builds([text])
    assert (build.dist, build.version, build.installer, build.failed) == (
        dist,
        version,
        installer,
        True,
    )


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(_H5PY_LEGACY, id="h5py-legacy-install"),
        pytest.param(_NUMPY_METADATA, id="numpy-metadata"),
        pytest.param(_FIXED_RELEASE, id="pyyaml-that-builds-with-cython-3"),
    ],
)
def test_a_release_the_table_does_not_name_keeps_the_source_build_reading(text: str) -> None:
    causes = problem_causes(explained(text))
    assert "tf-release-not-for-python" in causes
    assert "pinned-sdist-unbuildable" not in causes


@pytest.mark.parametrize(
    "text",
    [pytest.param(_BUILT, id="pip-built-it"), pytest.param(_UV_BUILT, id="uv-built-it")],
)
def test_an_old_release_that_built_is_nothing(text: str) -> None:
    assert all(f.severity.rank <= Severity.INFO.rank for f in explained(text).findings)


def test_the_table_names_the_releases_it_breaks() -> None:
    row = modules().stale_build_scripts["pyyaml"]
    assert row.breaks("5.4") and row.breaks("5.4.1") and row.breaks("6.0")
    assert not row.breaks("6.0.1") and not row.breaks("6.0.2") and not row.breaks("")
    # Before 5.4 no pyproject.toml: the build compiles the shipped C file, no Cython 3.
    assert not row.breaks("5.3.1") and not row.breaks("3.13")


@pytest.mark.parametrize(
    ("text", "installer", "add"),
    [
        pytest.param(_POETRY_H5PY, "Poetry", "poetry add", id="poetry"),
        pytest.param(_UV_NUMPY, "uv", "uv add", id="uv"),
    ],
)
def test_a_project_managers_source_build_gets_no_pip_install(
    text: str, installer: str, add: str
) -> None:
    found = [f for f in explained(text).findings if f.cause == "tf-release-not-for-python"]
    assert found
    assert found[0].summary.startswith(f"{installer} could not build")
    assert add in fix_text(found[0])
    assert found[0].fix is not None
    # No pip command: an install by pip would leave the project's lock.
    assert not any("pip install" in c for c in found[0].fix.commands)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "$ uname -m\narmv7l\n$ poetry install\n" + _POETRY_H5PY, id="poetry-on-armv7l"
        ),
        pytest.param(
            "$ uname -m\narmv7l\n$ pip install h5py==2.10.0\n" + _H5PY_LEGACY, id="pip-on-armv7l"
        ),
    ],
)
def test_what_the_build_needs_is_named_whichever_installer_built_it(text: str) -> None:
    found = [f for f in explained(text).findings if f.cause == "tf-release-not-for-python"]
    assert found and found[0].fix is not None
    assert (
        "sudo apt-get install build-essential python3-dev libhdf5-dev pkg-config"
        in found[0].fix.commands
    )
    assert "HDF5 headers" in fix_text(found[0])


@pytest.mark.parametrize(
    ("text", "dist", "python"),
    [
        pytest.param(
            '    error: Command "g++ -pthread -fPIC -I/opt/py/include/python3.7m -c '
            'sklearn/svm/_libsvm.cpp -o build/temp.linux-x86_64-3.7/sklearn/svm/_libsvm.o" '
            "failed with exit status 1\n",
            "scikit-learn",
            "3.7",
            id="linux-gxx-object-file",
        ),
        pytest.param(
            "clang -Wno-unused-result -fno-common -dynamic -I/usr/local/include/python3.8 -c "
            "h5py/defs.c -o build/temp.macosx-10.9-x86_64-3.8/h5py/defs.o\n"
            "error: command 'clang' failed with exit status 1\n",
            "h5py",
            "3.8",
            id="macos-clang-object-file",
        ),
    ],
)
def test_only_the_compilers_failed_command_left_names_the_package_built(
    text: str, dist: str, python: str
) -> None:
    (build,) = read_source_builds([text])
    assert (build.dist, build.python, build.failed) == (dist, python, True)
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    assert f"--only-binary={dist}" in fix_text(top)


def test_an_object_file_of_a_project_the_table_does_not_know_is_not_a_dependency() -> None:
    text = (
        "gcc -c src/fast.c -o build/temp.linux-x86_64-3.10/myproj/fast.o\n"
        "error: command 'gcc' failed with exit status 1\n"
    )
    assert read_source_builds([text]) == []
