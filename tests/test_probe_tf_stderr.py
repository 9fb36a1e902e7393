"""The TensorFlow child's stderr, kept bounded at both ends."""

from __future__ import annotations

from tfdoctor.probes._run import CommandResult
from tfdoctor.probes.tensorflow import bounded_stderr, facts_from_result


def _numbered(count: int) -> str:
    return "\n".join(f"line {i}" for i in range(count)) + "\n"


def test_a_short_stderr_is_kept_whole() -> None:
    text = _numbered(600)
    assert bounded_stderr(text) == text.strip()


def test_a_long_stderr_keeps_its_start_and_end() -> None:
    lines = bounded_stderr(_numbered(5000)).splitlines()
    assert len(lines) == 200 + 1 + 400
    assert lines[:2] == ["line 0", "line 1"] and lines[199] == "line 199"
    left_out = sum(len(f"line {i}") + 1 for i in range(200, 4600))
    assert lines[200] == (
        f"[... tfdoctor left out 4400 lines ({left_out} characters) of stderr here ...]"
    )
    assert lines[201] == "line 4600" and lines[-1] == "line 4999"


def test_long_lines_are_bounded_by_characters() -> None:
    text = "\n".join(f"{i:05d} " + "x" * 994 for i in range(300))  # 300 lines of 1000
    out = bounded_stderr(text, max_chars=64 * 1024)
    assert len(out) <= 64 * 1024 + 200
    lines = out.splitlines()
    assert lines[0].startswith("00000 ") and lines[-1].startswith("00299 ")
    assert any(line.startswith("[... tfdoctor left out ") for line in lines)


def test_one_huge_line_is_cut_not_dropped() -> None:
    out = bounded_stderr("S" + "E" * 200_000 + "F", max_chars=3000)
    assert out == "S" + "E" * 374 + " [... 199252 characters left out ...] " + "E" * 374 + "F"


def test_the_facts_keep_the_first_error_of_a_long_log() -> None:
    stderr = (
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        "ImportError: libcudnn.so.9: cannot open shared object file\n"
        + "W noisy.cc:1] a warning repeated\n" * 3000
        + "Fatal Python error: Aborted\n"
    )
    result = CommandResult(("python",), 1, "", stderr, 1.0)
    facts = facts_from_result(result, "=== marker ===", "python", 30.0)
    assert "ImportError: libcudnn.so.9" in facts.stderr_tail
    assert facts.stderr_tail.endswith("Fatal Python error: Aborted")
    assert "tfdoctor left out" in facts.stderr_tail
