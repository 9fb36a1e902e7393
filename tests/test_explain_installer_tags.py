"""pip's refusal of a wheel file whose platform tags the pip shown cannot read: manylinux2010
from pip 19.0, manylinux2014 from 19.3, PEP 600's manylinux_x_y and macOS 11's tags from 20.3.
Such a pip refuses the wheel on any machine, so the cause is the pip (pip-too-old), not the
wheel; where the pip reads the tags, or the log shows the wheel is for another Python, system
or machine, the wheel's own misfit stays (wheel-mismatch)."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.explain.platform import pip_reading_glibc
from tfdoctor.wheel_tags import macos_target, manylinux_glibc


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
    ],
)
def test_a_wheel_whose_tags_the_shown_pip_cannot_read_is_that_pip_too_old(
    pip: str, wheel: str, python: str, needs: str
) -> None:
    top = top_error(explained(_refused(pip, wheel, python)))
    assert top.cause == "pip-too-old"
    fix = fix_text(top)
    assert f"pip {pip}" in fix and f"pip {needs} and later" in fix
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


def test_no_tensorflow_listed_on_a_mac_uname_calls_arm64_is_told_apples_package() -> None:
    text = (
        "$ pip install tensorflow==2.11.0\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.11.0 "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow==2.11.0\n"
        "$ uname -s\nDarwin\n$ uname -m\narm64\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tf-no-wheel-for-python"
    fix = fix_text(top)
    # The tensorflow distribution has macOS arm64 wheels only from 2.13 (the matrix).
    assert "tensorflow-macos==2.11.0" in fix
