"""An illegal instruction in every form a program reports it, and which of two causes it is:
the CPU's own missing AVX or an emulator's (Rosetta 2, QEMU), decided by the machine the log
shows (the kind of Mac from :mod:`tfdoctor.evidence.macos`)."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.macos import APPLE, INTEL, read_mac
from tfdoctor.findings import Severity


@pytest.mark.parametrize(
    "text",
    [
        "macOS-10.13.6-x86_64-i386-64bit",
        "Darwin-17.7.0-x86_64-i386-64bit",
        "Darwin Kernel Version 17.5.0: Mon Mar  5 PST 2018; root:xnu-4570.51.1~1/RELEASE_X86_64",
        "machdep.cpu.brand_string: Intel(R) Core(TM)2 Duo CPU P8600 @ 2.40GHz",
        "I am on Mac OS X 10.13.4 with Python 3.6",
        "OS: macOS High Sierra",
        "MacBook Pro (13-inch, Mid 2010)",
        "my old iMac from 2009",
        "It's an Intel Mac",
    ],
)
def test_an_intel_mac_is_read_from_what_only_an_intel_mac_shows(text: str) -> None:
    found = read_mac(f"some log line\n{text}\nmore\n")
    assert found is not None and found.value == INTEL, text
    assert found.because == text.strip()[:100]


@pytest.mark.parametrize(
    "text",
    [
        "macOS-14.1-arm64-arm-64bit",
        "Darwin Kernel Version 22.1.0: root:xnu-8792.41.9~2/RELEASE_ARM64_T8103 x86_64",
        "sysctl.proc_translated: 1",
        # Apple's check for a process under Rosetta, its answer on the next line.
        "$ sysctl -in sysctl.proc_translated\n1",
        "% sysctl -n sysctl.proc_translated\n1",
        # uname's machine on a Mac: XNU names Apple silicon run natively arm64.
        "$ sw_vers -productName\nmacOS\n$ uname -m\narm64",
        "machdep.cpu.brand_string: Apple M1 Pro",
        "MacBook Air M2, macOS Ventura",
        "running on Apple silicon",
        "Hardware: MacBook M1 and Intel Xeon server 2018",
        "the terminal was opened with Rosetta",
    ],
)
def test_apple_silicon_is_read_from_what_only_apple_silicon_shows(text: str) -> None:
    found = read_mac(f"{text}\n")
    assert found is not None and found.value == APPLE, text


@pytest.mark.parametrize(
    "text",
    [
        # x86_64 on macOS 11 or later is also what a process under Rosetta reports; 10.16 is
        # what macOS 11 tells programs built with an older SDK.
        "macOS-12.6-x86_64-i386-64bit",
        "macOS-10.16-x86_64-i386-64bit",
        "Mac OS X 10.16",
        # A wheel's tag and a build folder name the deployment target, not the running system.
        "numpy-1.26.0-cp311-cp311-macosx_10_9_x86_64.whl",
        "build/temp.macosx-10.9-x86_64-3.8/src",
        "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz",  # any PC
        "MacBook Pro 2021",
        # Not a Mac: a place, the protein software, a network card's address.
        "python train.py --data /data/landscapes/yosemite",
        "export ROSETTA3_DB=/opt/rosetta/main/database",
        "mac address 00:11:22 changed in 2015",
        # Both kinds in the user's words decide nothing.
        "It worked on my Intel Mac but not on the M1 Mac",
        # A native process (0), and the command with no answer after it.
        "$ sysctl -in sysctl.proc_translated\n0",
        "$ sysctl -n sysctl.proc_translated\nsysctl: unknown oid",
        # uname's machine: Linux on Arm's, a Mac's shell under Rosetta, and arm64 in a text
        # that shows no Mac at all (FreeBSD names its Arm machines arm64 too).
        "macOS guest?\n$ uname -m\naarch64",
        "macOS\n$ uname -m\nx86_64",
        "$ uname -m\narm64",
        "",
    ],
)
def test_what_does_not_decide_the_kind_of_mac(text: str) -> None:
    assert read_mac(text) is None


@pytest.mark.parametrize(
    "line",
    [
        "INFO: container failed with non-zero exit code: 132 (exit code 132)",
        "trainer-1 exited with code 132",
        "Exited (132) 5 seconds ago",
        "    Last State:     Terminated\n      Exit Code:    132",
        "subprocess.CalledProcessError: Command '['python', 'train.py']' returned non-zero "
        "exit status 132.",
        "subprocess.CalledProcessError: Command '['python']' died with <Signals.SIGILL: 4>.",
        "worker exited, exitcode: -4",
        "Error: signal: illegal instruction (core dumped)",
    ],
)
def test_every_report_of_sigill_is_an_illegal_instruction(line: str) -> None:
    text = f"$ python -c 'import tensorflow'\n{line}\n"
    top = top_error(explained(text))
    assert top.cause == "cpu-lacks-avx", line
    assert "/proc/cpuinfo" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    ["exit code 1320", "exited with code 13", "took 132 seconds", "status: -40", "code -4.5"],
)
def test_other_numbers_are_not_sigill(line: str) -> None:
    report = explained(f"{line}\n")
    assert all(x.cause not in ("cpu-lacks-avx", "cpu-emulated") for x in report.findings)


def test_qemu_names_its_own_missing_instruction() -> None:
    text = (
        "WARNING: The requested image's platform (linux/amd64) does not match the detected host "
        "platform (linux/arm64/v8)\n"
        "qemu: uncaught target signal 4 (Illegal instruction) - core dumped\n"
    )
    assert top_error(explained(text)).cause == "cpu-emulated"


def test_an_intel_mac_without_avx_is_not_told_of_rosetta() -> None:
    text = (
        "MacBook Pro (15-inch, Mid 2010), Mac OS X 10.13.4\n"
        "$ python3 -c 'import tensorflow'\n"
        "Illegal instruction: 4\n"
    )
    top = top_error(explained(text))
    assert top.cause == "cpu-lacks-avx"
    fix = fix_text(top)
    assert "machdep.cpu.features" in fix and "/proc/cpuinfo" not in fix
    assert "Rosetta" not in fix and "arm64" not in fix


def test_apple_silicon_shown_is_rosetta_whatever_the_shell() -> None:
    text = "machdep.cpu.brand_string: Apple M1\n$ python train.py\nIllegal instruction\n"
    top = top_error(explained(text))
    assert top.cause == "cpu-emulated"
    assert "Intel Mac" not in fix_text(top)


def test_a_mac_that_shows_neither_kind_is_taken_for_rosetta() -> None:
    top = top_error(explained("$ python -c 'import tensorflow'\nIllegal instruction: 4\n"))
    assert top.cause == "cpu-emulated"
    assert "AVX" not in fix_text(top)


def test_zsh_on_linux_is_the_cpus_own() -> None:
    text = (
        "user@server:~$ python -c 'import tensorflow'\n"
        '  File "/home/user/.local/lib/python3.10/site-packages/tensorflow/__init__.py"\n'
        "zsh: illegal hardware instruction  python\n"
    )
    assert top_error(explained(text)).cause == "cpu-lacks-avx"


def test_a_mac_a_user_names_does_not_make_a_linux_log_a_macs() -> None:
    text = (
        "The same code works fine on my MacBook Pro 2019.\n"
        "user@box:~$ python x.py\n"
        "Illegal instruction (core dumped)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "cpu-lacks-avx"
    assert "/proc/cpuinfo" in fix_text(top)


def test_windows_is_told_of_coreinfo() -> None:
    text = "C:\\Users\\user> python train.py\nProcess finished with exit code 132\n"
    top = top_error(explained(text))
    assert top.cause == "cpu-lacks-avx"
    assert "coreinfo" in fix_text(top)


def test_a_handler_that_catches_sigill_is_no_death() -> None:
    text = "[debugger] set handler: caught SIGILL and SIGSEGV will be reported\nEpoch 1/10\n"
    assert all(x.cause != "cpu-lacks-avx" for x in explained(text).findings)


def test_apple_silicon_fix_names_the_arm64_builds() -> None:
    # Rosetta 2 does not translate AVX: the fix is an arm64 Python with an arm64 TensorFlow,
    # tensorflow itself from the first line with macOS arm64 wheels, Apple's build before it.
    text = "MacBook Air (M2, 2022)\nzsh: illegal hardware instruction  python3 main.py\n"
    top = top_error(explained(text))
    assert top.cause == "cpu-emulated"
    fix = fix_text(top)
    assert "tensorflow-macos" in fix and "arm64" in fix and "or later" in fix


def test_qemu_fix_names_no_apple_build() -> None:
    text = "qemu: uncaught target signal 4 (Illegal instruction) - core dumped\n"
    top = top_error(explained(text))
    assert top.cause == "cpu-emulated"
    assert "tensorflow-macos" not in fix_text(top)


_DOCKER_PLATFORM = (
    "WARNING: The requested image's platform (linux/amd64) does not match the detected host "
    "platform (linux/arm64/v8) and no specific platform was requested\n"
)


def test_an_image_of_another_platform_makes_the_avx_refusal_the_emulators() -> None:
    # Docker's own warning shows the amd64 image runs emulated on the arm64 host: TensorFlow's
    # AVX refusal is the emulator's, whatever the host's CPU has.
    text = (
        _DOCKER_PLATFORM + "2023-05-01 10:00:00.000000: F tensorflow/core/platform/"
        "cpu_feature_guard.cc:37] The TensorFlow library was compiled to use AVX instructions, "
        "but these aren't available on your machine.\nAborted (core dumped)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "cpu-emulated"
    fix = fix_text(top)
    assert "--platform linux/arm64" in fix and "/proc/cpuinfo" not in fix


def test_an_image_of_another_platform_alone_is_a_note() -> None:
    report = explained(_DOCKER_PLATFORM + "Epoch 1/5\n100/100 - 3s - loss: 0.31\n")
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings)
