"""pip's refusal of a wheel file whose platform tags the pip shown cannot read: manylinux2010
from pip 19.0, manylinux2014 from 19.3, PEP 600's manylinux_x_y and macOS 11's tags from 20.3.
Such a pip refuses the wheel on any machine, so the cause is the pip (pip-too-old), not the
wheel; where the pip reads the tags, or the log shows the wheel is for another Python, system
or machine, the wheel's own misfit stays (wheel-mismatch)."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.packages import read_conflicts
from tfdoctor.explain.platform import matrix_platform_of_tags, pip_reading_glibc
from tfdoctor.findings import Severity
from tfdoctor.wheel_tags import macos_target, manylinux_glibc, tag_machines


def _refused(pip: str, wheel: str, python: str = "3.7", head: str = "") -> str:
    """A pip session: its version (as `pip --version` prints it), then its refusal of
    ``wheel`` (pip's words: https://github.com/pypa/pip/blob/19.0/src/pip/_internal/commands/
    install.py, "%s is not a supported wheel on this platform.")."""
    # Where pip lives says the system too: a macOS framework build's, else a Linux one's.
    site = (
        f"/Library/Frameworks/Python.framework/Versions/{python}/lib/python{python}/site-packages"
        if "macosx" in wheel
        else "/usr/lib/python3/dist-packages"
    )
    return (
        f"{head}$ pip --version\n"
        f"pip {pip} from {site}/pip (python {python})\n"
        f"$ pip install {wheel}\n"
        f"{wheel} is not a supported wheel on this platform.\n"
    )


@pytest.mark.parametrize(
    ("pip", "wheel", "python", "needs"),
    [
        pytest.param(
            "18.1",
            "tensorflow-2.0.0-cp37-cp37m-manylinux2010_x86_64.whl",
            "3.7",
            "19.0",
            id="manylinux2010-under-pip-18",
        ),
        pytest.param(
            "19.2.3",
            "tensorflow-2.3.0-cp38-cp38-manylinux2014_x86_64.whl",
            "3.8",
            "19.3",
            id="manylinux2014-under-pip-19.2",
        ),
        pytest.param(
            "20.2.4",
            "tensorflow-2.16.1-cp39-cp39-manylinux_2_28_x86_64.whl",
            "3.9",
            "20.3",
            id="pep600-under-pip-20.2",
        ),
        pytest.param(
            "20.2.3",
            "tensorflow_macos-2.9.0-cp38-cp38-macosx_11_0_arm64.whl",
            "3.8",
            "20.3",
            id="macos11-under-pip-20.2",
        ),
        pytest.param(
            "20.0.2",
            "foo-1.0-cp38-cp38-manylinux_2_17_x86_64.whl",
            "3.8",
            "20.3",
            # PEP 600's spelling of manylinux2014's floor: pip 19.3 reads only the alias.
            id="pep600-spelling-of-2.17-under-pip-20.0",
        ),
    ],
)
@pytest.mark.parametrize(
    "head",
    [
        pytest.param("", id="machine-not-shown"),
        # The machine in the interpreter's own words (platform.platform() on macOS, uname -m
        # on Linux), which the wheel's tags fit.
        pytest.param("{machine}\n", id="machine-shown"),
    ],
)
def test_a_wheel_whose_tags_the_shown_pip_cannot_read_is_that_pip_too_old(
    pip: str, wheel: str, python: str, needs: str, head: str
) -> None:
    machine = (
        "$ python -c 'import platform; print(platform.platform())'\nmacOS-11.2.3-arm64-arm-64bit"
        if "macosx" in wheel
        else "$ uname -m\nx86_64"
    )
    top = top_error(explained(_refused(pip, wheel, python, head.format(machine=machine))))
    assert top.cause == "pip-too-old"
    fix = fix_text(top)
    assert f"pip {pip}" in fix and "the first pip that reads its platform tag" in fix
    assert f"is {needs}, so this pip" in fix
    assert "install --upgrade pip" in fix


@pytest.mark.parametrize(
    ("pip", "wheel", "python", "head"),
    [
        pytest.param(
            "20.2.4",
            "tensorflow-2.12.0-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
            "3.9",
            "",
            # pip 20.2 reads the manylinux2014 alias of the compound tag: not the pip.
            id="one-tag-of-the-set-read",
        ),
        pytest.param(
            "18.1",
            "tensorflow-2.0.0-cp36-cp36m-manylinux2010_x86_64.whl",
            "3.7",
            "",
            id="wheel-for-another-python",
        ),
        pytest.param(
            "18.1",
            "tensorflow-2.0.0-cp37-cp37m-manylinux2010_x86_64.whl",
            "3.7",
            "$ uname -m\naarch64\n",
            id="wheel-for-another-machine",
        ),
        pytest.param(
            "20.2.3",
            "tensorflow-2.6.0-cp38-cp38-win_amd64.whl",
            "3.8",
            "",
            id="a-tag-every-pip-reads",
        ),
    ],
)
def test_a_wheel_the_pip_could_read_stays_the_wheels_misfit(
    pip: str, wheel: str, python: str, head: str
) -> None:
    top = top_error(explained(_refused(pip, wheel, python, head)))
    assert top.cause != "pip-too-old"


def test_without_the_pip_shown_the_refusal_is_not_blamed_on_it() -> None:
    text = (
        "ERROR: tensorflow-2.0.0-cp37-cp37m-manylinux2010_x86_64.whl is not a supported wheel "
        "on this platform.\n"
    )
    assert top_error(explained(text)).cause == "wheel-mismatch"


@pytest.mark.parametrize(
    ("tag", "glibc"),
    [
        ("manylinux1_x86_64", (2, 5)),
        ("manylinux2010_x86_64", (2, 12)),
        ("manylinux2014_aarch64", (2, 17)),
        ("manylinux_2_28_x86_64", (2, 28)),
        ("musllinux_1_1_x86_64", None),
        ("macosx_11_0_arm64", None),
    ],
)
def test_manylinux_glibc(tag: str, glibc: Optional[tuple[int, int]]) -> None:
    assert manylinux_glibc(tag) == glibc


@pytest.mark.parametrize(
    ("tag", "target"),
    [("macosx_11_0_arm64", (11, 0)), ("macosx_10_15_x86_64", (10, 15)), ("win_amd64", None)],
)
def test_macos_target(tag: str, target: Optional[tuple[int, int]]) -> None:
    assert macos_target(tag) == target


@pytest.mark.parametrize(
    ("tag", "machines"),
    [
        ("macosx_11_0_arm64", ("aarch64",)),
        ("macosx_10_9_universal2", ("x86_64", "aarch64")),
        ("manylinux_2_17_aarch64", ("aarch64",)),
        ("manylinux2014_x86_64", ("x86_64",)),
        ("win_amd64", ("x86_64",)),
        ("any", ()),
    ],
)
def test_tag_machines(tag: str, machines: tuple[str, ...]) -> None:
    assert tag_machines(tag) == machines


@pytest.mark.parametrize(
    ("glibc", "pip"),
    [((2, 5), (8, 1)), ((2, 12), (19, 0)), ((2, 17), (19, 3)), ((2, 28), (20, 3))],
)
def test_the_first_pip_reading_each_manylinux_tag(
    glibc: tuple[int, int], pip: tuple[int, int]
) -> None:
    assert pip_reading_glibc(glibc) == pip


# --- the TensorFlow another package requires is not the one installed ------------------------


@pytest.mark.parametrize(
    ("notice", "installed"),
    [
        pytest.param(
            # pip 20.2 and before (commands/install.py, _warn_about_conflicts).
            "ERROR: foolib 1.0.0 has requirement tensorflow==2.1.0, but you'll have tensorflow "
            "2.2.0 which is incompatible.",
            "2.2.0",
            id="legacy-resolver",
        ),
        pytest.param(
            "foolib 0.4.0 requires tensorflow==2.1.0, but you have tensorflow 2.12.0 which is "
            "incompatible.",
            "2.12.0",
            id="resolver-after-install",
        ),
    ],
)
def test_a_package_s_tensorflow_pin_is_not_read_as_the_installed_tensorflow(
    notice: str, installed: str
) -> None:
    report = explained(notice + "\n")
    top = top_error(report)
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    # The installed release is the one after "you have"; the pin moves TensorFlow down to it.
    assert f"TensorFlow {installed}" in fix and "downgrades TensorFlow" in fix
    assert "TensorFlow 2.1.0 is known" not in fix


# --- Apple silicon shown by uname's machine --------------------------------------------------


#: What a Mac printed of itself: platform.platform()'s arm64 (Apple silicon).
_ARM64_PLATFORM = (
    "$ python3 -c 'import platform; print(platform.platform())'\nmacOS-13.4-arm64-arm-64bit\n"
)
#: An Apple M1 whose python3 is CPython 3.12.
_M1_PYTHON_312 = (
    "$ sysctl -n machdep.cpu.brand_string\nApple M1 Pro\n$ python3 --version\nPython 3.12.4\n"
)


def _mac_pin(pin: str, listed: str, shown: str = _ARM64_PLATFORM) -> str:
    """pip's refusal of ``tensorflow==pin`` with ``listed`` releases after ``shown``."""
    return (
        shown + f"$ pip install tensorflow=={pin}\n"
        f"ERROR: Could not find a version that satisfies the requirement tensorflow=={pin} "
        f"(from versions: {listed})\n"
        f"ERROR: No matching distribution found for tensorflow=={pin}\n"
    )


def test_no_tensorflow_listed_on_a_mac_uname_calls_arm64_is_told_apples_package() -> None:
    text = _mac_pin("2.11.0", "none", "$ uname -s\nDarwin\n$ uname -m\narm64\n")
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    # The tensorflow distribution has macOS arm64 wheels only from 2.13 (the matrix).
    assert "tensorflow-macos==2.11.0" in fix


@pytest.mark.parametrize("pin", ["2.11.0", "2.9.2"], ids=["apples-2.11", "apples-2.9"])
def test_a_pin_before_the_arm64_wheels_beside_only_their_releases_is_apples_package(
    pin: str,
) -> None:
    # pip lists only releases with macOS arm64 wheels: the Python is arm64 (an Intel one would
    # list the pin's Intel wheels too), so no Python makes the pin install here.
    text = _mac_pin(pin, "2.13.0rc0, 2.13.0, 2.13.1, 2.14.0, 2.15.0, 2.16.1")
    top = top_error(explained(text))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    assert f"tensorflow-macos=={pin}" in fix and "2.13 or later" in fix
    assert "with Python 3.10" not in fix


def test_a_pin_for_other_pythons_than_the_one_shown_is_told_one_of_its_pythons() -> None:
    # 2.12.0's wheels are for Python 3.8 to 3.11: Python 3.12's list is that Python's refusal.
    text = _mac_pin("2.12.0", "2.16.0rc0, 2.16.1, 2.16.2", _M1_PYTHON_312)
    fix = fix_text(top_error(explained(text)))
    assert "with Python 3.11" in fix and "tensorflow-macos==2.12.0" not in fix


def test_apples_package_for_other_pythons_than_the_one_shown_is_told_in_one_of_its_own() -> None:
    # Apple's tensorflow-macos 2.12.0 has wheels for Python 3.8 to 3.11 only.
    text = _mac_pin("2.12.0", "none", _M1_PYTHON_312)
    top = top_error(explained(text))
    fix = fix_text(top)
    assert "tensorflow-macos==2.12.0 with Python 3.11" in fix
    assert top.fix is not None and top.fix.commands[0] == "python3.11 -m venv .venv"


def test_a_list_with_intel_era_releases_is_not_read_as_arm64() -> None:
    # Releases before 2.13 listed on a Mac: an Intel Python (Rosetta 2) sees their wheels.
    text = _mac_pin("2.12.5", "2.9.0, 2.10.0, 2.11.0, 2.12.0, 2.13.0, 2.14.0")
    assert "tensorflow-macos" not in fix_text(top_error(explained(text)))


# --- a dependency the TensorFlow install took back below another package's range -------------

#: One pip run installing TensorFlow, which moves typing-extensions back, then pip's notice
#: after the install (commands/install.py, _warn_about_conflicts) and its list.
_TAKEN_BACK = """\
$ pip install tensorflow==2.13.0
Installing collected packages: typing-extensions, tensorflow
  Attempting uninstall: typing-extensions
    Found existing installation: typing_extensions 4.9.0
    Uninstalling typing_extensions-4.9.0:
      Successfully uninstalled typing_extensions-4.9.0
ERROR: pip's dependency resolver does not currently take into account all the packages that \
are installed. This behaviour is the source of the following dependency conflicts.
webapp 1.2.0 requires typing-extensions>=4.8.0, but you have typing-extensions 4.5.0 which is \
incompatible.
Successfully installed tensorflow-2.13.0 typing-extensions-4.5.0
"""


def test_read_conflicts_keeps_the_release_replaced_and_the_tensorflow_installed_with() -> None:
    (conflict,) = read_conflicts([_TAKEN_BACK])
    assert (conflict.replaced, conflict.installed_with_tf) == ("4.9.0", "tensorflow 2.13.0")


def test_a_dependency_the_tensorflow_install_took_back_is_tensorflows_pin() -> None:
    top = next(
        x for x in explained(_TAKEN_BACK).findings if x.cause == "tf-pin-conflicts-with-package"
    )
    assert top.severity is Severity.WARNING
    assert "4.9.0" in top.summary and "4.5.0" in top.summary
    # The release of TensorFlow whose range no longer caps it (causes.software.UNCAPPED_FROM).
    assert '"tensorflow>=2.14"' in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            _TAKEN_BACK.replace("    Found existing installation: typing_extensions 4.9.0\n", ""),
            id="no-release-removed",
        ),
        pytest.param(
            _TAKEN_BACK.replace("typing_extensions 4.9.0", "typing_extensions 4.4.0"),
            id="the-removed-release-was-outside-the-range-too",
        ),
        pytest.param(
            _TAKEN_BACK.replace("tensorflow-2.13.0 typing", "keras-2.13.1 typing"),
            id="no-tensorflow-in-the-run",
        ),
    ],
)
def test_without_the_run_taking_it_back_the_notice_is_not_tensorflows_pin(text: str) -> None:
    assert "tf-pin-conflicts-with-package" not in {x.cause for x in explained(text).findings}


# --- a companion's wheels read against the architecture the Mac's Python reports -------------


def test_a_companion_refused_on_a_mac_is_read_against_its_pythons_machine() -> None:
    text = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-text==2.15.0 "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow-text==2.15.0\n"
        "macOS-14.1-arm64-arm-64bit\n"
        "Python 3.11.6\n"
    )
    fix = fix_text(top_error(explained(text)))
    # tensorflow-text 2.15.0 publishes macOS wheels for x86-64 only (the bundled index): an
    # arm64 Python's Python version is not what pip refused.
    assert "has a wheel for Python 3.11 here" not in fix
    assert "No release ==2.15.0 has a wheel for macOS" in fix


def test_a_pip_the_log_shows_upgraded_is_not_blamed_for_the_refusal() -> None:
    """pip 19.2.3 shown, then upgraded (pip's "Successfully installed pip-24.0"), then the
    manylinux2014 wheel refused: the pip that refused reads the tag, so the cause is the
    wheel's own misfit, not an old pip."""
    text = (
        "$ pip --version\n"
        "pip 19.2.3 from /usr/lib/python3/dist-packages/pip (python 3.8)\n"
        "$ pip install --upgrade pip\n"
        "Successfully installed pip-24.0\n"
        "$ pip install tensorflow_cpu-2.13.0-cp38-cp38-manylinux2014_x86_64.whl\n"
        "ERROR: tensorflow_cpu-2.13.0-cp38-cp38-manylinux2014_x86_64.whl is not a supported "
        "wheel on this platform.\n"
    )
    assert top_error(explained(text)).cause != "pip-too-old"


#: Platform tags and the matrix key they name: one system and one machine the matrix knows,
#: else none (a universal2 wheel holds two machines; 32-bit Arm has no TensorFlow wheel).
_TAG_KEYS = {
    "win_amd64": "windows-x86_64",
    "manylinux_2_17_x86_64.manylinux2014_x86_64": "linux-x86_64",
    "macosx_12_0_arm64": "macos-arm64",
    "macosx_10_15_universal2": "",
    "linux_armv7l": "",
}


@pytest.mark.parametrize("tags", sorted(_TAG_KEYS))
def test_matrix_platform_of_tags_names_one_key_or_none(tags: str) -> None:
    assert matrix_platform_of_tags(tags) == _TAG_KEYS[tags]


@pytest.mark.parametrize(
    ("log", "words", "absent"),
    [
        # TensorFlow 2.10 was the last native Windows GPU build, for Python 3.7 to 3.10: no
        # file of it exists for 3.11, whatever its tag.
        pytest.param(
            "PS C:\\Users\\me> python --version\nPython 3.11.4\n"
            "PS C:\\Users\\me> pip install tensorflow_gpu-2.10.0-cp310-cp310-win_amd64.whl\n"
            "ERROR: tensorflow_gpu-2.10.0-cp310-cp310-win_amd64.whl is not a supported wheel "
            "on this platform.\n",
            ("no wheel for Python 3.11 on Windows x86-64", "Python 3.10 on Windows x86-64"),
            ("cp311", "tensorflow-gpu=="),
            id="windows-gpu-2.10-on-3.11",
        ),
        pytest.param(
            "$ python --version\nPython 3.12.1\n"
            "$ pip install tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64."
            "manylinux2014_x86_64.whl\n"
            "ERROR: tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64."
            "whl is not a supported wheel on this platform.\n",
            ("no wheel for Python 3.12 on Linux x86-64", "Python 3.11", "from 2.16"),
            ("cp312",),
            id="linux-2.15-on-3.12",
        ),
        # An older Python than the release's: the lines that still had it end before it, so
        # the last of them, not the first line that ever had it.
        pytest.param(
            "$ python --version\nPython 3.7.9\n"
            "$ pip install tensorflow-2.14.0-cp311-cp311-manylinux_2_17_x86_64."
            "manylinux2014_x86_64.whl\n"
            "ERROR: tensorflow-2.14.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64."
            "whl is not a supported wheel on this platform.\n",
            ("no wheel for Python 3.7 on Linux x86-64", "up to 2.10", "tensorflow==2.10.*"),
            ("cp37", "from 1.", "tensorflow==1."),
            id="linux-2.14-on-3.7",
        ),
        # The refused file installs under its own Python (3.9), not the release's newest.
        pytest.param(
            "$ python --version\nPython 3.12.1\n"
            "$ pip install tensorflow-2.15.0-cp39-cp39-manylinux_2_17_x86_64."
            "manylinux2014_x86_64.whl\n"
            "ERROR: tensorflow-2.15.0-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64."
            "whl is not a supported wheel on this platform.\n",
            ("Create an environment with Python 3.9 on Linux x86-64",),
            ("Python 3.11 on Linux x86-64",),
            id="linux-2.15-cp39-on-3.12",
        ),
        # A tag the release never published (a build of one's own): the release by name.
        pytest.param(
            "$ python --version\nPython 3.12.1\n"
            "$ pip install tensorflow-2.15.0-cp38-cp38-manylinux_2_17_x86_64."
            "manylinux2014_x86_64.whl\n"
            "ERROR: tensorflow-2.15.0-cp38-cp38-manylinux_2_17_x86_64.manylinux2014_x86_64."
            "whl is not a supported wheel on this platform.\n",
            ("Python 3.11 on Linux x86-64", "install `tensorflow==2.15.0` there"),
            ("Python 3.8 on Linux x86-64", "install the wheel there"),
            id="linux-2.15-cp38-on-3.12",
        ),
    ],
)
def test_a_refused_wheel_of_a_release_without_the_pythons_file_names_the_python(
    log: str, words: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    """The release's Pythons on the wheel's platform (the matrix) decide: a file "for this
    interpreter" that the release never published is not offered."""
    top = top_error(explained(log))
    assert top.cause == "wheel-mismatch"
    text = fix_text(top)
    assert all(w in text for w in words), text
    assert not any(w in text for w in absent), text


def test_a_refused_wheel_whose_release_has_the_pythons_file_keeps_the_tag_advice() -> None:
    log = (
        "$ python --version\nPython 3.10.12\n"
        "$ pip install tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64"
        ".whl\nERROR: tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64"
        ".whl is not a supported wheel on this platform.\n"
    )
    assert "the cp310 tag for this Python 3.10" in fix_text(top_error(explained(log)))
