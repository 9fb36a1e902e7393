"""pip's list of TensorFlow's releases on a 32-bit Arm machine, where another index (piwheels)
offers old 1.x builds for it: the machine decides (no TensorFlow wheel of PyPI's is for it),
not the list's end, which a pip too old for manylinux2010 would also explain; the machine read
from uname, or from the wheels pip chose for the interpreter."""

from __future__ import annotations

import pytest

from tests.explaining import explained, top_error
from tfdoctor.evidence.pip import Collected, read_collected
from tfdoctor.explain.revealed import chosen_machines

#: pip's refusal of a TensorFlow 2 pin where the indexes list only old 1.x releases.
_LISTED_OLD = (
    "Looking in indexes: https://pypi.org/simple, https://www.piwheels.org/simple\n"
    "ERROR: Could not find a version that satisfies the requirement tensorflow==2.5.0 "
    "(from versions: 1.13.1, 1.14.0)\n"
    "ERROR: No matching distribution found for tensorflow==2.5.0\n"
)
_ARMV7L_WHEEL = (
    "Collecting h5py\n"
    "  Downloading https://www.piwheels.org/simple/h5py/h5py-3.1.0-cp39-cp39-linux_armv7l.whl "
    "(5.2 MB)\n"
)


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("$ uname -m\narmv7l\n", id="uname-m"),
        pytest.param(
            "Linux-5.15.61-v7l+-armv7l-with-glibc2.31\n$ pip --version\n"
            "pip 18.1 from /usr/lib/python3/dist-packages/pip (python 3.9)\n",
            id="platform-and-old-pip",
        ),
        pytest.param(_ARMV7L_WHEEL, id="wheel-pip-chose"),
    ],
)
def test_a_32bit_arm_machine_reads_before_the_lists_end(shown: str) -> None:
    report = explained(f"{shown}$ pip install tensorflow==2.5.0\n{_LISTED_OLD}")
    top = top_error(report)
    assert top.cause == "python-32bit" and top.fix is not None
    assert (
        "32-bit Arm (armv7l)" in top.fix.text and "aarch64 (from TensorFlow 2.10)" in top.fix.text
    )
    # A newer pip lists no TensorFlow 2 there either: not a pip too old for its tags.
    assert all(x.cause != "pip-too-old" for x in report.findings)


def test_an_x86_64_wheel_pip_chose_keeps_the_list_read_as_an_old_pips() -> None:
    chose = (
        "Collecting h5py\n"
        "  Downloading h5py-3.1.0-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl "
        "(4.1 MB)\n"
    )
    report = explained(f"{chose}$ pip install tensorflow==2.5.0\n{_LISTED_OLD}")
    assert top_error(report).cause == "pip-too-old"


def test_the_wheel_pip_chose_keeps_its_platform_tag() -> None:
    text = _ARMV7L_WHEEL + "Collecting six\n  Using cached six-1.16.0-py2.py3-none-any.whl\n"
    assert read_collected(text) == [
        Collected("h5py", "", "", "3.1.0", "linux_armv7l"),
        Collected("six", "", "", "1.16.0", "any"),
    ]
    archive = "Collecting absl-py\n  Downloading absl-py-0.15.0.tar.gz (113 kB)\n"
    assert read_collected(archive) == [Collected("absl-py", "", "", "0.15.0", "")]


@pytest.mark.parametrize(
    ("platforms", "text", "machines"),
    [
        pytest.param(("linux_armv7l", "any"), "", {"armv7l"}, id="arm32"),
        pytest.param(
            ("manylinux_2_17_aarch64.manylinux2014_aarch64",), "", {"aarch64"}, id="compressed"
        ),
        pytest.param(("macosx_11_0_universal2",), "", set(), id="universal2-names-two"),
        # A Mac's or Windows' arm64 wheel is no Linux aarch64 machine's.
        pytest.param(("macosx_11_0_arm64",), "", set(), id="mac-arm64"),
        pytest.param(("win_arm64",), "", set(), id="windows-arm64"),
        pytest.param(("", "any"), "", set(), id="archives-and-pure"),
        pytest.param(
            ("linux_armv7l",), "pip download --platform linux_armv7l h5py", set(), id="platform"
        ),
    ],
)
def test_the_machines_of_the_wheels_pip_chose(
    platforms: tuple[str, ...], text: str, machines: set[str]
) -> None:
    collected = [Collected("x", "", "", "1.0", p) for p in platforms]
    assert chosen_machines(collected, text) == machines


def test_a_macs_arm64_wheel_is_not_read_as_linux_aarch64() -> None:
    # pip chose a Mac's wheel: TensorFlow's Linux aarch64 lines say nothing of this machine.
    chose = (
        "Collecting numpy\n"
        "  Downloading numpy-1.24.4-cp38-cp38-macosx_11_0_arm64.whl (13.8 MB)\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.4.0 "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow==2.4.0\n"
    )
    report = explained(chose)
    assert all(
        "Linux aarch64 wheel" not in (x.fix.text if x.fix is not None else "")
        for x in report.findings
    )
