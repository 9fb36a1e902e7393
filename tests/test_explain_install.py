"""Installation failures explain reads from pip's and the machine's own words: a dependency of
TensorFlow built from source for want of a wheel (every pip generation's wording), a 32-bit
system or interpreter, and a pip too old for the manylinux tag of TensorFlow's Linux wheels."""

from __future__ import annotations

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, readings, top_error
from tfdoctor import causes
from tfdoctor.evidence.pip import read_source_builds
from tfdoctor.findings import Severity
from tfdoctor.machine import LogHints, Machine
from tfdoctor.matrix import load_matrix, version_key
from tfdoctor.modules import MODULES_DATA, ModulesError, parse_modules

# --- a dependency built from source -------------------------------------------------------------

#: pip 19-23's progress line, then its legacy fallback failing too.
LEGACY_PROGRESS = """\
Collecting grpcio>=1.8.6
  Downloading grpcio-1.24.3.tar.gz (15.6 MB)
Building wheels for collected packages: grpcio
  Building wheel for grpcio (setup.py) ... error
    Running setup.py install for grpcio ... error
"""
#: pip 9-19's failed command in its build folder (the folder names the distribution).
COMPLETE_OUTPUT = """\
Installing collected packages: numpy, tensorflow
  Running setup.py install for numpy ... \\
  Complete output from command /opt/venv/bin/python3 -u -c "import setuptools, tokenize;\
__file__='/tmp/pip-install-k2j4x9/numpy/setup.py';exec(compile(f.read(), __file__))" install:
    RuntimeError: Broken toolchain: cannot link a simple C program
"""
#: pip 21+'s PEP 517 wording.
PEP517 = """\
Collecting scipy==1.2.3
  Using cached scipy-1.2.3.tar.gz (23.3 MB)
Building wheels for collected packages: scipy
  Building wheel for scipy (pyproject.toml) ... error
  error: subprocess-exited-with-error
  ERROR: Could not build wheels for scipy, which is required to install \
pyproject.toml-based projects
"""
#: Only setup.py's own output: a paste that stops inside the build.
SETUP_OUTPUT = """\
  running build_py
  creating build/lib.linux-armv7l-3.7/h5py
  copying h5py/version.py -> build/lib.linux-armv7l-3.7/h5py
  running build_ext
  building 'h5py.defs' extension
"""
#: The same build, stopped by the compiler's words.
SETUP_FAILED = (
    SETUP_OUTPUT + "  error: command 'arm-linux-gnueabihf-gcc' failed with exit status 1\n"
)
#: The compiler on pip 20.3+'s build folder (its name ends in a hash).
COMPILER = """\
  arm-linux-gnueabihf-gcc -pthread -DNDEBUG -g -fwrapv -O2 -Wall -fPIC \
-I/usr/include/python3.7m \
-c /tmp/pip-install-7a8b/h5py_0f3c2d1e9a8b7c6d5e4f3a2b1c0d9e8f/h5py/defs.c \
-o build/temp.linux-armv7l-3.7/h5py/defs.o
  h5py/api_compat.h:27:10: fatal error: hdf5.h: No such file or directory
"""

#: pip 20-21's failed command: its "command:" and "cwd:" lines (the build folder names the
#: distribution), then the one-line summary.
ERRORED_OUT = """\
Collecting h5py==2.10.0
  Downloading h5py-2.10.0.tar.gz (301 kB)
    ERROR: Command errored out with exit status 1:
     command: /usr/bin/python3 -c 'import sys, setuptools, tokenize; sys.argv[0] = \
'"'"'/tmp/pip-install-q1w2e3/h5py/setup.py'"'"';' egg_info --egg-base /tmp/pip-pip-egg-info-r4
         cwd: /tmp/pip-install-q1w2e3/h5py/
    Complete output (3 lines):
    ----------------------------------------
ERROR: Command errored out with exit status 1: python setup.py egg_info Check the logs for \
full command output.
"""
#: The summary alone, after the archive pip downloaded.
ERRORED_SUMMARY = """\
Collecting pandas==0.25.3
  Downloading pandas-0.25.3.tar.gz (12.6 MB)
ERROR: Command errored out with exit status 1: python setup.py egg_info Check the logs for \
full command output.
"""
#: pip 19-21's PEP 517 metadata step.
WHEEL_METADATA = """\
Collecting scikit-learn==0.22.2
  Downloading scikit-learn-0.22.2.tar.gz (6.9 MB)
  Installing build dependencies ... done
  Getting requirements to build wheel ... done
    Preparing wheel metadata ... error
"""
#: pip 21.3+'s build hooks' progress lines, kept without the box below them: the hook that
#: asks the build backend for its requirements, and the metadata step of setup.py.
GET_REQUIRES = """\
Collecting tensorflow-io==0.31.0
  Downloading tensorflow-io-0.31.0.tar.gz (1.2 MB)
  Getting requirements to build wheel ... error
error: subprocess-exited-with-error
"""
SETUP_METADATA = """\
Collecting tflite-support>=0.4.2
  Using cached tflite-support-0.1.0a1.tar.gz (390 kB)
  Preparing metadata (setup.py) ... error
"""
#: pip 24.1+'s summary of the builds that failed, its names in parentheses, and pip 25's box of
#: it, the names after its arrow (a light arc up and right, a line, then ">").
INSTALLABLE = """\
Collecting tensorflow-io==0.37.0
  Downloading tensorflow_io-0.37.0.tar.gz (1.2 MB)
ERROR: Failed to build installable wheels for some pyproject.toml based projects (tensorflow-io)
"""
INSTALLABLE_BOX = """\
error: failed-wheel-build-for-install

\u00d7 Failed to build installable wheels for some pyproject.toml based projects
\u2570\u2500> h5py
"""
#: pip 22's boxes where its `setup.py install` fallback failed: the step, then the package.
LEGACY_INSTALL = """\
  \u00d7 Running setup.py install for tflite-model-maker did not run successfully.
"""
LEGACY_INSTALL_FAILURE = """\
error: legacy-install-failure

\u00d7 Encountered error while trying to install package.
\u2570\u2500> tflite-model-maker
"""
#: pip 22+'s box for a legacy wheel build (its first line opens with a multiplication sign).
BDIST_WHEEL = """\
Collecting grpcio==1.24.3
  Downloading grpcio-1.24.3.tar.gz (15.6 MB)
  \u00d7 python setup.py bdist_wheel did not run successfully.
"""


@pytest.mark.parametrize(
    ("log", "dist"),
    [
        pytest.param(GET_REQUIRES, "tensorflow-io", id="get-requires-progress"),
        pytest.param(SETUP_METADATA, "tflite-support", id="setup-metadata-progress"),
        pytest.param(BDIST_WHEEL, "grpcio", id="bdist-wheel-box"),
        pytest.param(INSTALLABLE, "tensorflow-io", id="installable-wheels-summary"),
        pytest.param(LEGACY_INSTALL, "tflite-model-maker", id="legacy-install-box"),
        pytest.param(LEGACY_INSTALL_FAILURE, "tflite-model-maker", id="legacy-install-failure"),
        pytest.param(INSTALLABLE_BOX, "h5py", id="installable-wheels-box"),
        pytest.param(ERRORED_OUT, "h5py", id="errored-out-cwd"),
        pytest.param(ERRORED_SUMMARY, "pandas", id="errored-out-summary"),
        pytest.param(WHEEL_METADATA, "scikit-learn", id="preparing-wheel-metadata"),
        pytest.param(LEGACY_PROGRESS, "grpcio", id="progress-error"),
        pytest.param(COMPLETE_OUTPUT, "numpy", id="complete-output"),
        pytest.param(PEP517, "scipy", id="pep517"),
        pytest.param(SETUP_FAILED, "h5py", id="setup-output"),
        pytest.param(COMPILER, "h5py", id="compiler-in-build-folder"),
    ],
)
def test_a_dependency_built_from_source_is_named_in_each_pip_generations_words(
    log: str, dist: str
) -> None:
    (build,) = read_source_builds([log])
    assert build.dist == dist
    top = top_error(explained(log))
    assert top.cause == "tf-release-not-for-python"
    assert dist in top.summary
    assert any(f"--only-binary={dist}" in c for c in fix_text(top).splitlines())


def test_setup_output_without_its_end_is_a_warning() -> None:
    # A paste cut inside the build shows pip compiling h5py, not how the build ended.
    (build,) = read_source_builds([SETUP_OUTPUT])
    assert not build.failed and build.system == "linux"
    (found,) = [
        x for x in explained(SETUP_OUTPUT).findings if x.cause == "tf-release-not-for-python"
    ]
    assert found.severity is Severity.WARNING
    # pip's non-interactive progress ("finished with status 'done'") is a build that worked.
    done = SETUP_OUTPUT + "  Building wheel for h5py (setup.py): finished with status 'done'\n"
    assert read_source_builds([done]) == []


def test_a_build_for_macos_gets_no_debian_packages() -> None:
    log = SETUP_FAILED.replace("linux-armv7l", "macosx-11.0-arm64")
    assert "apt-get" not in fix_text(top_error(explained(log)))


def test_the_fix_names_what_the_build_compiles_against() -> None:
    text = fix_text(top_error(explained(COMPILER)))
    assert "sudo apt-get install build-essential python3-dev libhdf5-dev pkg-config" in text
    assert "python3-h5py" in text
    # Debian's packages where the build's folder says Linux.
    scipy = fix_text(top_error(explained(PEP517 + "  creating build/temp.linux-x86_64-3.7\n")))
    assert "gfortran" in scipy
    assert "libhdf5-dev" not in scipy


def test_a_build_for_python_2_names_debians_python_2_packages() -> None:
    log = SETUP_FAILED.replace("-3.7", "-2.7")
    (build,) = read_source_builds([log])
    assert build.python == "2.7"
    text = fix_text(top_error(explained(log)))
    assert "Python 2.7" in text
    assert "python-h5py" in text
    assert "python3-h5py" not in text


def test_a_distribution_the_table_does_not_know_gets_no_invented_headers() -> None:
    log = "  Building wheel for pyfoo (setup.py) ... error\n"
    top = top_error(explained(log))
    assert "pyfoo" in top.summary
    assert "apt-get" not in fix_text(top)


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            "Building wheels for collected packages: h5py\n"
            "  Building wheel for h5py (setup.py) ... done\n"
            "Successfully built h5py\n",
            id="wheel-built",
        ),
        pytest.param(
            "  Building wheel for grpcio (setup.py) ... error\n"
            "  Running setup.py install for grpcio ... done\n",
            id="legacy-install-worked",
        ),
        pytest.param(
            SETUP_OUTPUT + "Successfully installed h5py-2.10.0\n",
            id="output-then-installed",
        ),
        pytest.param(
            "  creating build/lib.linux-x86_64-3.8/mytool\n"
            "  copying mytool/cli.py -> build/lib.linux-x86_64-3.8/mytool\n",
            id="own-project",
        ),
    ],
)
def test_a_build_that_worked_or_a_projects_own_is_no_failure(log: str) -> None:
    assert read_source_builds([log]) == []
    assert all(x.cause != "tf-release-not-for-python" for x in explained(log).findings)


# --- a 32-bit system or interpreter -------------------------------------------------------------

REFUSAL = (
    "ERROR: Could not find a version that satisfies the requirement tensorflow "
    "(from versions: none)\n"
    "ERROR: No matching distribution found for tensorflow\n"
)


@pytest.mark.parametrize(
    ("machine", "words"),
    [
        pytest.param(
            "$ uname -a\nLinux lab 4.19.0-6-686-pae #1 SMP Debian 4.19.67-2 (2019-08-28) "
            "i686 GNU/Linux\n",
            ("i686", "x86-64"),
            id="uname-i686",
        ),
        pytest.param(
            "Linux-5.10.17-v7+-armv7l-with-glibc2.28\n",
            ("armv7l", "aarch64"),
            id="platform-armv7l",
        ),
        pytest.param("Compatible tags: 30\n  cp38-cp38-win32\n", ("64-bit",), id="pip-tag-win32"),
        pytest.param(">>> platform.architecture()\n('32bit', 'ELF')\n", ("64-bit",), id="arch"),
        pytest.param(
            "> conda info\n\n          conda version : 4.8.3\n               platform : win-32\n",
            ("64-bit",),
            id="conda-info-win-32",
        ),
        pytest.param(
            "$ conda info\n               platform : linux-armv7l\n",
            ("armv7l", "aarch64"),
            id="conda-info-armv7l",
        ),
    ],
)
def test_the_machines_own_32_bit_word_explains_pips_refusal(
    machine: str, words: tuple[str, ...]
) -> None:
    report = explained(REFUSAL + machine)
    top = top_error(report)
    assert top.cause == "python-32bit"
    text = fix_text(top)
    assert all(w in text for w in words)
    # One cause: the refusal is the 32-bit system's, not reported apart.
    assert all(x.cause != "tf-no-wheel-for-python" for x in report.findings)


@pytest.mark.parametrize(
    "machine",
    [
        pytest.param("Compatible tags: 30\n  cp38-cp38-win32\n", id="pip-tag-win32"),
        pytest.param("> conda info\n               platform : win-32\n", id="conda-info-win-32"),
    ],
)
def test_a_32bit_windows_python_gets_windows_commands(machine: str) -> None:
    """The 32-bit word that names Windows (pip's win32 tag, conda's win-32) makes the fix's
    commands Windows' (the launcher, Scripts), not a Linux interpreter's name and bin/."""
    top = top_error(explained(REFUSAL + machine))
    assert top.cause == "python-32bit"
    assert top.fix is not None
    assert top.fix.commands[0].startswith("py -"), top.fix.commands
    assert not any("/bin/" in c or c.startswith("python3") for c in top.fix.commands)


_GPU_110_CP35 = (
    "ERROR: tensorflow_gpu-1.1.0-cp35-cp35m-win_amd64.whl is not a supported wheel on this "
    "platform.\n"
)


def test_a_refused_windows_wheel_of_a_one_python_release_leads_with_the_version() -> None:
    """TensorFlow 1.1.0's Windows wheels are for Python 3.5 alone (the shipped matrix): its
    cp35 file refused, no release listed and no Python shown, another version and 32 bits
    both fit; the version leads, 32 bits stays a candidate, and the fix covers both."""
    report = explained(_GPU_110_CP35 + REFUSAL, matrix=load_matrix())
    top = top_error(report)
    assert top.cause == "tf-no-wheel-for-python"
    text = fix_text(top)
    assert "64-bit Python 3.5" in text and "tensorflow-gpu==1.1.0" in text
    # pip listed no release for the Python in use: a later TensorFlow moves the Python too.
    assert "keep the Python in use" not in text and "needs a 64-bit Python" in text
    assert top.fix is not None and "struct.calcsize('P')" in top.fix.commands[0]
    # The launcher's -X.Y-64 is 3.7's (bpo-30291): an older Python's launcher refuses it, so
    # the environment's own interpreter shows its bits instead.
    assert top.fix.commands[1:3] == (
        "py -3.5 -m venv .venv",
        ".venv\\Scripts\\python -c \"import struct; print(struct.calcsize('P') * 8)\"",
    )
    other = [x for x in report.findings if x.cause == "python-32bit"]
    assert [x.severity for x in other] == [Severity.WARNING]


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(
            "C:\\> py -3.5 -m pip install tensorflow_gpu-1.1.0-cp35-cp35m-win_amd64.whl\n"
            + _GPU_110_CP35
            + REFUSAL
            + "C:\\> python --version\nPython 3.5.4\n",
            id="version-shown",
        ),
        pytest.param(
            "ERROR: tensorflow-1.3.0-cp36-cp36m-win_amd64.whl is not a supported wheel on this "
            "platform.\n" + REFUSAL,
            id="release-of-two-pythons",
        ),
    ],
)
def test_a_refused_windows_wheel_stays_a_32bit_python(log: str) -> None:
    """The Python the log shows is the wheel's, or the release had Windows wheels for other
    Pythons too (the file picked says which Python it is for): 32 bits is the reading."""
    top = top_error(explained(log, matrix=load_matrix()))
    assert top.cause == "python-32bit" and "64-bit" in fix_text(top)


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("Compatible tags: 30\n  cp313-cp313-win_amd64\n", id="pip-tags"),
        pytest.param(
            "Python 3.11.9 (tags/v3.11.9:de54cf5, Apr  2 2024, 10:12:12) [MSC v.1938 64 bit "
            "(AMD64)] on win32\n",
            id="banner",
        ),
    ],
)
def test_a_refused_windows_wheel_is_not_a_32bit_python_where_it_shows_64bit(shown: str) -> None:
    """pip refuses TensorFlow's 64-bit Windows wheel and lists no release, but the
    interpreter's own words say it is 64-bit: the fix never asks for a 64-bit Python."""
    log = (
        shown
        + "ERROR: tensorflow-2.18.0-cp311-cp311-win_amd64.whl is not a supported wheel on this "
        "platform.\n" + REFUSAL
    )
    report = explained(log)
    assert all(x.cause != "python-32bit" for x in report.findings)
    assert "64-bit" not in fix_text(top_error(report))


def test_pips_verbose_refusal_of_another_packages_file_is_not_tensorflows() -> None:
    """pip's verbose lines name every package's files: scipy's refused releases are not
    read as TensorFlow's (no "tensorflow 1.15.3 declares Requires-Python")."""
    files = "https://files.pythonhosted.org/packages/aa/bb"
    log = (
        "  Link requires a different Python (3.14.0 not in: '<3.14,>=3.10'): "
        f"{files}/scipy-1.15.3-cp313-cp313-manylinux_2_17_x86_64.whl "
        "(from https://pypi.org/simple/scipy/) (requires-python:<3.14,>=3.10)\n" + REFUSAL
    )
    text = fix_text(top_error(explained(log)))
    assert "1.15.3" not in text
    assert "<3.14,>=3.10" not in text


def test_the_aarch64_wheels_start_where_the_matrix_says() -> None:
    matrix = load_matrix()
    first = min(
        (x.line for x in matrix.lines if x.python.get("linux-aarch64") and not x.pre_release),
        key=version_key,
    )
    top = top_error(explained(REFUSAL + "Linux-4.19.66-v7+-armv7l-with-debian-10.0\n"))
    assert f"from TensorFlow {first}" in fix_text(top)


def test_a_pin_past_a_platforms_last_wheels_names_the_platform() -> None:
    """pip lists releases up to the last line with wheels for a platform the next line drops
    (the same Pythons on both): the platform, read from the matrix, is why the list ends."""
    matrix = load_matrix()
    finals = sorted(
        (x for x in matrix.lines if not x.pre_release), key=lambda x: version_key(x.line)
    )
    pairs = [
        (last, after, key)
        for last, after in zip(finals, finals[1:])
        for key, pythons in last.python.items()
        if pythons
        and not after.python.get(key)
        and set(last.pythons_on()) <= set(after.pythons_on())
    ]
    if not pairs:
        pytest.skip("the matrix has no platform whose wheels end at a line")
    last, after, _ = pairs[-1]
    # A range: no pin whose own Pythons and platforms the matrix would name instead.
    log = (
        f"ERROR: Could not find a version that satisfies the requirement tensorflow>="
        f"{after.line} (from versions: {last.latest_patch})\n"
        f"ERROR: No matching distribution found for tensorflow>={after.line}\n"
    )
    text = fix_text(top_error(explained(log, matrix=matrix)))
    assert f"TensorFlow {after.line} publishes no wheel for" in text
    assert f"where {last.line} was the last with one" in text
    assert "on a platform it has wheels for" in text


@pytest.mark.parametrize(
    "log",
    [
        pytest.param("Does TensorFlow run on i686 GNU/Linux at all?\n" + REFUSAL, id="prose"),
        pytest.param(
            "Processing ./tensorflow-1.13.1-cp35-none-linux_armv7l.whl\n"
            "Successfully installed tensorflow-1.13.1\n",
            id="wheel-file-name",
        ),
        pytest.param(
            "Linux gpu 5.15.0-86-generic #96-Ubuntu SMP Wed Sep 20 08:23:49 UTC 2023 "
            "x86_64 x86_64 x86_64 GNU/Linux\n" + REFUSAL,
            id="uname-x86-64",
        ),
    ],
)
def test_no_32_bit_verdict_without_the_machines_own_word(log: str) -> None:
    # A bare refusal may rank a 32-bit Python as the other candidate (a warning), never as the
    # reading (tests/test_explain_refusal_candidates.py).
    assert all(x.cause != "python-32bit" for x in readings(explained(log)))


def test_a_dependency_build_on_a_32_bit_board_is_the_build() -> None:
    # pip found a (community) TensorFlow wheel for this armv7l board and went on to build
    # h5py: the build is what failed, not the board's lack of wheels.
    log = (
        "Linux pi 4.19.66-v7+ #1253 SMP Thu Aug 15 11:49:46 BST 2019 armv7l GNU/Linux\n"
        "Processing ./tensorflow-1.13.1-cp37-none-linux_armv7l.whl\n" + SETUP_FAILED
    )
    report = explained(log)
    assert top_error(report).cause == "tf-release-not-for-python"
    assert all(x.cause != "python-32bit" for x in report.findings)


# --- a pip blind to manylinux2010 ---------------------------------------------------------------


def _listed(*versions: str, asked: str = "==1.15.0") -> str:
    return (
        f"Could not find a version that satisfies the requirement tensorflow{asked} "
        f"(from versions: {', '.join(versions)})\n"
        f"No matching distribution found for tensorflow{asked}\n"
    )


#: What an old pip lists on Linux for a Python 1.x had wheels for, up to the last releases
#: tagged manylinux1.
OLD_PIP_LIST = _listed(
    "1.12.0", "1.12.2", "1.12.3", "1.13.1", "1.13.2", "1.14.0rc0", "1.14.0", "2.0.0a0", "2.0.0b1"
)


@pytest.mark.parametrize(
    "log",
    [
        pytest.param(OLD_PIP_LIST, id="list-alone"),
        pytest.param("$ python3 -V\nPython 3.6.9\n" + OLD_PIP_LIST, id="python-shown"),
        pytest.param(_listed("1.13.1", "1.14.0", asked=">=2.2"), id="lower-bound-past-the-list"),
    ],
)
def test_a_list_that_stops_at_the_last_manylinux1_release_is_an_old_pip(log: str) -> None:
    top = top_error(explained(log))
    assert top.cause == "pip-too-old"
    text = fix_text(top)
    assert "pip install --upgrade pip" in text
    assert "manylinux2010" in text


@pytest.mark.parametrize(
    "log",
    [
        # Python 3.4: no release after 1.14 has a wheel for it; the Python is the cause.
        pytest.param(
            '  File "/usr/local/lib/python3.4/dist-packages/pip/basecommand.py", line 215, '
            "in main\n" + OLD_PIP_LIST,
            id="python-no-later-release-supports",
        ),
        # 1.13 (manylinux1, wheels for every Python 1.12 had) is missing: not the tags.
        pytest.param(_listed("1.11.0", "1.12.0", "1.12.3"), id="gap-before-the-cut"),
        # A pip that reads manylinux2010 listed it: the list is about something else.
        pytest.param(
            "pip 20.2.4 from /usr/lib/python3/dist-packages/pip (python 3.7)\n" + OLD_PIP_LIST,
            id="new-pip-shown",
        ),
        # pip reads a manylinux2010 wheel: it is not blind to the tag.
        pytest.param(_listed("1.14.0", "1.15.0", "2.0.0", asked="==2.5.0"), id="past-the-cut"),
        pytest.param(_listed("1.13.1", "1.14.0", asked="==1.9.0"), id="asked-older"),
    ],
)
def test_a_list_anything_else_explains_is_not_an_old_pip(log: str) -> None:
    assert all(x.cause != "pip-too-old" for x in explained(log).findings)


def test_the_module_tables_build_needs_are_validated() -> None:
    text = MODULES_DATA.read_text(encoding="utf-8")
    assert parse_modules(text).source_builds["h5py"].apt == (
        "build-essential",
        "python3-dev",
        "libhdf5-dev",
        "pkg-config",
    )
    with pytest.raises(ModulesError, match="apt"):
        parse_modules(
            text.replace("apt: [build-essential, python3-dev, libhdf5-dev,", "apt: [HDF5 headers,")
        )


def test_a_failed_command_that_is_no_build_is_not_read_as_one() -> None:
    log = (
        "ERROR: Command errored out with exit status 128: git clone -q "
        "git://github.com/x/y.git /tmp/pip-req-build-5GQWeh Check the logs for full command "
        "output.\n"
    )
    assert read_source_builds([log]) == []


@pytest.mark.parametrize(
    ("listing", "dist", "version"),
    [
        ("tf-nightly              1.14.1.dev20190416", "tf-nightly", "1.14.1.dev20190416"),
        ("tensorflow-gpu          1.15.0", "tensorflow-gpu", "1.15.0"),
        ("tensorflow              2.4.0", "tensorflow", "2.4.0"),
    ],
    ids=["nightly", "gpu", "tensorflow"],
)
def test_a_reinstall_names_the_distribution_a_listing_shows(
    listing: str, dist: str, version: str
) -> None:
    # A nightly's version under the name "tensorflow" is no release pip can install.
    text = (
        f"$ pip list\n{listing}\n"
        "ModuleNotFoundError: No module named 'tensorflow.python.platform'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-install-incomplete"
    assert f'pip install "{dist}=={version}"' in fix_text(top)


_PLATFORM_MISSING = "ModuleNotFoundError: No module named 'tensorflow.python.platform'\n"


@pytest.mark.parametrize(
    ("listing", "said"),
    [
        ("", "where it is a nightly build"),
        ("$ pip list\ntf-nightly              2.17.0.dev20240301\n", "is a nightly build"),
        ("$ pip list\ntensorflow              2.17.0rc1\n", "is a pre-release"),
    ],
    ids=["unshown", "nightly", "pre-release"],
)
def test_a_module_every_release_has_missing_may_be_the_builds_own(listing: str, said: str) -> None:
    # A nightly or a pre-release can ship without a module its final release has: installing
    # the same build again writes the same files, so the fix says where to go instead.
    top = top_error(explained(listing + _PLATFORM_MISSING))
    assert top.cause == "tf-install-incomplete"
    text = fix_text(top)
    assert said in text and "final release" in text and "nightly of another day" in text


def test_a_final_release_missing_its_module_is_only_reinstalled() -> None:
    listing = "$ pip list\ntensorflow              2.15.0\n"
    top = top_error(explained(listing + _PLATFORM_MISSING))
    assert top.cause == "tf-install-incomplete"
    assert "nightly" not in fix_text(top)


def _own_module_missing(site: str) -> str:
    """TensorFlow's __init__ failing to import its own module, from ``site``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        f'  File "{site}/tensorflow/__init__.py", line 41, in <module>\n'
        "    from tensorflow.python.framework import ops\n"
        "ModuleNotFoundError: No module named 'tensorflow.python.framework.ops'\n"
    )


@pytest.mark.parametrize(
    ("site", "listing", "command"),
    [
        pytest.param(
            "/opt/conda/pkgs/tensorflow-base-2.3.0-mkl_py38h5059a2d_0/lib/python3.8/site-packages",
            "",
            "conda install --force-reinstall",
            id="conda-package-cache",
        ),
        pytest.param(
            "/opt/conda/envs/tf/lib/python3.8/site-packages",
            "$ conda list tensorflow\n"
            "# packages in environment at /opt/conda/envs/tf:\n"
            "#\n"
            "# Name                    Version                   Build  Channel\n"
            "tensorflow                2.3.0           mkl_py38h37f7ee5_0\n"
            "tensorflow-base           2.3.0           mkl_py38h5059a2d_0\n",
            # The release the list shows is the one reinstalled.
            'conda install --force-reinstall "tensorflow=2.3.0" "tensorflow-base=2.3.0"',
            id="conda-list",
        ),
        pytest.param(
            "/usr/lib/python3/dist-packages", "", "apt-get install --reinstall", id="distro"
        ),
        pytest.param(
            "/home/u/src/tensorflow/bazel-bin/tensorflow/tools/pip_package/"
            "build_pip_package.runfiles/org_tensorflow",
            "",
            "build_pip_package /tmp/tensorflow_pkg",
            id="source-build",
        ),
    ],
)
def test_an_incomplete_install_is_reinstalled_by_its_own_installer(
    site: str, listing: str, command: str
) -> None:
    top = top_error(explained(listing + _own_module_missing(site)))
    assert top.cause == "tf-install-incomplete"
    assert command in fix_text(top)
    assert "pip uninstall" not in fix_text(top)


def test_an_incomplete_pip_install_in_a_conda_environment_stays_pips() -> None:
    # pip's TensorFlow inside a conda environment: conda's directory, pip's files.
    listing = (
        "$ conda list tensorflow\n"
        "tensorflow                2.3.0                    pypi_0    pypi\n"
    )
    site = "/opt/conda/envs/tf/lib/python3.8/site-packages"
    text = fix_text(top_error(explained(listing + _own_module_missing(site))))
    assert "conda install" not in text and "pip" in text


@pytest.mark.parametrize(
    "module",
    ["tensorflow.python.framework.ops", "tensorflow.python.framework.dtypes"],
)
def test_a_framework_module_every_release_has_missing_is_an_incomplete_install(
    module: str,
) -> None:
    text = f"ModuleNotFoundError: No module named '{module}'\n"
    top = top_error(explained(text))
    assert top.cause == "tf-install-incomplete" and module in top.summary


def test_a_framework_module_only_some_releases_have_is_not_read_so() -> None:
    # A module not every release has (tensorflow/python/framework/tensor.py is newer than the
    # first public tree): its absence may be an older release, not lost files.
    text = "ModuleNotFoundError: No module named 'tensorflow.python.framework.tensor'\n"
    assert "tf-install-incomplete" not in {x.cause for x in explained(text).findings}


def test_files_of_two_releases_in_conda_s_tensorflow_are_deleted_before_conda_writes_them() -> None:
    # A forced reinstall writes the files its package lists; a file of another release that
    # no package lists stays unless the folder is deleted first.
    log = (
        "$ conda list tensorflow\n"
        "# packages in environment at /opt/conda/envs/tf:\n"
        "#\n"
        "# Name                    Version                   Build  Channel\n"
        "tensorflow-base           2.3.0           mkl_py38h5059a2d_0\n"
        "ImportError: cannot import name 'abs'\n"
    )
    top = top_error(explained(log))
    assert top.cause == "tf-install-incomplete"
    fix = fix_text(top)
    assert "conda install --force-reinstall" in fix and "find_spec" in fix and "delete" in fix
    assert "pip uninstall" not in fix


@pytest.mark.parametrize(
    ("installer", "reinstall"),
    [
        ("conda", "conda install --force-reinstall"),
        ("distro", "apt-get install --reinstall"),
        ("source", "install --force-reinstall --no-deps /tmp/tensorflow_pkg"),
    ],
)
def test_stale_files_are_deleted_before_their_installer_writes_them_again(
    installer: str, reinstall: str
) -> None:
    m = Machine(f.facts(), f.FIXTURE_MATRIX, LogHints(os="linux", tf_installer=installer))
    fix = causes.software.stale_files_fix(m)
    text = f"{fix.text}\n" + "\n".join(fix.commands)
    assert reinstall in text and "find_spec" in text and "delete" in fix.text
    # The folder is found before the reinstall that writes it again.
    where = next(i for i, c in enumerate(fix.commands) if "find_spec" in c)
    assert where < next(i for i, c in enumerate(fix.commands) if reinstall in c)
    # The text names the command that names the package by its words, not its place.
    assert "the first command" not in fix.text


@pytest.mark.parametrize(
    "site",
    [
        # rules_python's pip dependencies inside a Bazel-built program's runfiles.
        "/home/u/.cache/bazel/_bazel_u/5e1f/execroot/_main/bazel-out/k8-fastbuild/bin/app/"
        "train.runfiles/rules_python~~pip~pypi_311_tensorflow/site-packages",
        "/home/u/proj/bazel-bin/app/train.runfiles/pypi__tensorflow",
        # TensorFlow Serving's own tree names tensorflow_serving, not TensorFlow's source.
        "/home/u/serving/bazel-bin/tensorflow_serving/example/venv/lib/python3.8/site-packages",
    ],
)
def test_a_program_bazel_runs_with_pip_s_tensorflow_is_no_tensorflow_source_build(
    site: str,
) -> None:
    top = top_error(explained(_own_module_missing(site)))
    assert top.cause == "tf-install-incomplete"
    assert "build_pip_package" not in fix_text(top)


def test_conda_search_s_rows_are_no_conda_install_of_tensorflow() -> None:
    # `conda search` prints what a channel offers in conda list's columns, under no
    # "# packages in environment at" header: TensorFlow here is pip's.
    search = (
        "$ conda search tensorflow\n"
        "Loading channels: done\n"
        "# Name                       Version           Build  Channel\n"
        "tensorflow                     2.3.0 mkl_py38h37f7ee5_0  pkgs/main\n"
        "tensorflow-base                2.3.0 mkl_py38h5059a2d_0  pkgs/main\n"
    )
    site = "/home/me/venv/lib/python3.8/site-packages"
    text = fix_text(top_error(explained(search + _own_module_missing(site))))
    assert "conda install" not in text and "pip" in text


def test_conda_s_reinstall_pins_a_release() -> None:
    # Unpinned, a forced reinstall is a solve that may take a newer release or build
    # (conda/conda issue 14372): the version is named, or asked of conda list.
    known = Machine(f.facts(), f.FIXTURE_MATRIX, LogHints(os="linux", tf_installer="conda"))
    assert known.tf is not None
    v = known.tf.version
    pinned = causes.software.incomplete_install_fix(known)
    assert pinned.commands == (
        f'conda install --force-reinstall "tensorflow={v}" "tensorflow-base={v}"',
    )
    unknown = Machine(f.facts(packages=()), f.FIXTURE_MATRIX, LogHints(tf_installer="conda"))
    fix = causes.software.incomplete_install_fix(unknown)
    install = next(c for c in fix.commands if c.startswith("conda install"))
    assert '"tensorflow-base=VERSION"' in install
    assert fix.commands[0] == "conda list tensorflow" and "VERSION" in fix.text
