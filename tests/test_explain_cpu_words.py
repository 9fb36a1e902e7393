"""A program's own words that the CPU lacks AVX (its start script's check, before TensorFlow
loads) are TensorFlow's AVX requirement; AVX2 or AVX-512 missing, and TensorFlow's own
cpu_feature_guard note, are not. The fix names PyPI's last release built without AVX."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity


@pytest.mark.parametrize(
    "words",
    [
        "AVX not detected\n",
        "[entrypoint] WARNING: AVX instructions are not supported on this machine\n",
        "error: this processor does not support AVX\n",
    ],
)
def test_a_programs_words_that_avx_is_missing(words: str) -> None:
    top = top_error(explained(words))
    assert top.cause == "cpu-lacks-avx"
    assert "TensorFlow 1.5" in fix_text(top)


@pytest.mark.parametrize(
    "words",
    [
        "AVX2 not found, falling back to SSE\n",
        "the CPU does not support AVX512, using the AVX2 kernels\n",
        "I tensorflow/core/platform/cpu_feature_guard.cc:142] Your CPU supports instructions that "
        "this TensorFlow binary was not compiled to use: AVX2 FMA\n",
    ],
)
def test_other_instruction_sets_are_not_avx(words: str) -> None:
    assert all(f.cause != "cpu-lacks-avx" for f in explained(words).findings)


def test_an_instruction_other_than_avx_gets_no_avx_release() -> None:
    log = (
        "F tensorflow/core/platform/cpu_feature_guard.cc:35] The TensorFlow library was "
        "compiled to use SSE4.1 instructions, but these aren't available on your machine.\n"
    )
    top = top_error(explained(log))
    assert top.cause == "cpu-lacks-avx" and "TensorFlow 1.5" not in fix_text(top)


def test_qemus_line_makes_the_avx_refusal_the_emulators() -> None:
    log = (
        "The TensorFlow library was compiled to use AVX instructions, but these aren't available "
        "on your machine.\n"
        "qemu: uncaught target signal 6 (Aborted) - core dumped\n"
    )
    report = explained(log)
    assert [f.cause for f in report.findings if f.severity.rank >= Severity.WARNING.rank] == [
        "cpu-emulated"
    ]
    assert top_error(report).summary.startswith("The process ran under CPU emulation (QEMU)")


@pytest.mark.parametrize(
    "line",
    [
        "rosetta error: failed to open elf at /lib64/ld-linux-x86-64.so.2\n",
        "2024-12-13T03:20:21.442029167Z rosetta error: Rosetta is only intended to run on Apple "
        "Silicon with a macOS host using Virtualization.framework with Rosetta mode enabled\n",
        "api-1  | rosetta error: Unimplemented syscall number 282\n",
    ],
)
def test_rosetta_for_linuxs_own_line_makes_the_avx_refusal_the_emulators(line: str) -> None:
    # Rosetta for Linux (Docker Desktop's amd64 images on Apple silicon) in its own words.
    log = (
        "F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was compiled "
        "to use AVX instructions, but these aren't available on your machine.\n" + line
    )
    report = explained(log)
    assert [f.cause for f in report.findings if f.severity.rank >= Severity.WARNING.rank] == [
        "cpu-emulated"
    ]
    assert "an image of the host's platform" in fix_text(top_error(report))


def test_rosetta_named_in_prose_is_no_emulator() -> None:
    log = "I read that a rosetta error: may show on a Mac\n"
    assert all(f.cause != "cpu-emulated" for f in explained(log).findings)


def test_without_qemus_line_the_refusal_is_the_cpus() -> None:
    log = (
        "The TensorFlow library was compiled to use AVX instructions, but these aren't available "
        "on your machine.\nAborted (core dumped)\n"
    )
    assert top_error(explained(log)).cause == "cpu-lacks-avx"


def test_a_retyped_illegal_instruction_in_title_case() -> None:
    top = top_error(explained('Running the image I only get "Illegal Instruction".\n'))
    assert top.cause == "cpu-lacks-avx"
