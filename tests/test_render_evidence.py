"""How findings read: the fix before the evidence, repeats shown once, long evidence folded,
and nothing a reader may copy cut inside when the output is wrapped.

The NumPy 2 report is rendered from a facts file whose TensorFlow stderr is whole, with the
traceback repeated as the import prints it (tests/data/reports/README.md); the README's
example is that report, and a test keeps it so.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.commandline import tfdoctor
from tests.test_render import full_facts
from tfdoctor.facts import facts_from_json
from tfdoctor.findings import Finding, Fix, Report, Severity
from tfdoctor.matrix import MATRIX_ENV
from tfdoctor.query import query_matrix
from tfdoctor.render._common import FOLD_LINES, FOLD_SLACK, EvidenceFolder, wrap_at_spaces
from tfdoctor.render.jsonout import render_json
from tfdoctor.render.markdown import render_markdown
from tfdoctor.render.matrixout import _bounds, render_matrix_text
from tfdoctor.render.text import render_text

ROOT = Path(__file__).resolve().parent.parent
NUMPY2 = ROOT / "tests" / "data" / "reports" / "numpy2-abi-tf215.json"
CLEAN_ENV = {MATRIX_ENV: ""}
PIP = '/home/me/proj/.venv/bin/python -m pip install "numpy<2.0.0,>=1.23.5"'
#: What TensorFlow 2.15's session module prints once per compiled unit importing NumPy's API.
SESSION_FRAME = "    from tensorflow.python.client._pywrap_tf_session import *"


def finding_lines(text: str, finding_id: str) -> list[str]:
    """The lines of one finding in the text report: its head line and everything indented
    under it, up to the next finding, area or blank line after the body."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if f"({finding_id}" in line)
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines):
        line = lines[end]
        body = len(line) - len(line.lstrip()) > indent
        # A blank line inside the evidence is followed by more evidence.
        inside = not line.strip() and end + 1 < len(lines) and lines[end + 1].startswith(" " * 8)
        if not (body or inside):
            break
        end += 1
    return lines[start:end]


# --- the NumPy 2 report ---------------------------------------------------------------------


def test_numpy2_facts_hold_the_repeated_traceback_as_tensorflow_prints_it() -> None:
    """The input is realistic: the whole stderr, NumPy's message and stack three times for
    the session module, then the failing import's own traceback."""
    stderr = json.loads(NUMPY2.read_text(encoding="utf-8"))["tensorflow"]["stderr_tail"]
    assert stderr.count(SESSION_FRAME) == 3
    assert stderr.count("A module that was compiled using NumPy 1.x cannot be run in") == 4
    assert stderr.count("Traceback (most recent call last):") == 5
    assert len(stderr.splitlines()) > 100
    assert "[... tfdoctor left out" not in stderr


def test_numpy2_finding_fits_one_screen_with_the_fix_before_the_evidence() -> None:
    out = tfdoctor("check", "--facts", str(NUMPY2), env=CLEAN_ENV)
    assert out.returncode == 2, out.stderr
    lines = finding_lines(out.stdout, "tensorflow.import")
    assert len(lines) <= 24, "\n".join(lines)
    stripped = [line.strip() for line in lines]
    assert PIP in stripped
    fix = next(i for i, line in enumerate(stripped) if line.startswith("Fix: "))
    evidence = stripped.index("A module that was compiled using NumPy 1.x cannot be run in")
    assert 0 < fix < stripped.index(PIP) < evidence
    assert "(the same traceback appeared 3 times; 51 repeated lines left out)" in stripped
    assert any(re.fullmatch(r"\.\.\. \d+ more lines; -v shows them all", s) for s in stripped)
    assert SESSION_FRAME not in lines


def test_numpy2_verbose_shows_every_line_of_the_evidence() -> None:
    out = tfdoctor("check", "--facts", str(NUMPY2), "--verbose", "tensorflow.import", env=CLEAN_ENV)
    assert out.returncode == 2, out.stderr
    stderr = json.loads(NUMPY2.read_text(encoding="utf-8"))["tensorflow"]["stderr_tail"]
    body = finding_lines(out.stdout, "tensorflow.import")
    assert sum(SESSION_FRAME in line for line in body) == 3
    assert "more lines; -v shows them all" not in out.stdout
    # Wrapped at spaces only: the words, in order, are the recorded stderr's.
    assert " ".join(stderr.split()) in " ".join(" ".join(body).split())


@pytest.mark.parametrize(("verbose", "frames"), [(False, 0), (True, 3)])
def test_markdown_folds_unless_verbose(verbose: bool, frames: int) -> None:
    args = ("--facts", str(NUMPY2), "--format", "markdown", "tensorflow.import")
    out = tfdoctor("check", *args, *(["-v"] if verbose else []), env=CLEAN_ENV)
    assert out.returncode == 2, out.stderr
    findings = out.stdout.split("#### Details and fixes", 1)[1].split("<details>", 1)[0]
    assert findings.count(SESSION_FRAME) == frames
    assert ("more lines; -v shows them all" in findings) is not verbose


def test_readme_example_is_what_the_program_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    marker = "`tfdoctor check --facts FILE tensorflow.import`):\n\n```text\n"
    assert "tests/data/reports/numpy2-abi-tf215.json" in readme
    example = readme.split(marker, 1)[1].split("```\n", 1)[0]
    out = tfdoctor("check", "--facts", str(NUMPY2), "tensorflow.import", env=CLEAN_ENV)
    assert out.stdout == example


def test_json_keeps_the_whole_evidence() -> None:
    facts = facts_from_json(json.loads(NUMPY2.read_text(encoding="utf-8")))
    assert facts.tensorflow is not None
    stderr = facts.tensorflow.stderr_tail
    finding = Finding("tensorflow.import", Severity.ERROR, "s", "TypeError: x\n\n" + stderr)
    data = json.loads(render_json(Report(facts=facts, findings=(finding,)), "0.1.0"))
    assert data["findings"][0]["detail"] == finding.detail


# --- repeats and folding --------------------------------------------------------------------

TRACEBACK = (
    "Traceback (most recent call last):",
    '  File "/srv/app/train.py", line 3, in <module>',
    "    import tensorflow as tf",
    "ImportError: libcudnn.so.8: cannot open shared object file",
)


def error(finding_id: str, detail: str) -> Finding:
    return Finding(finding_id, Severity.ERROR, "s", detail)


def test_a_block_repeated_in_one_detail_is_shown_once_with_a_count() -> None:
    detail = "\n\n".join(["intro", *["\n".join(TRACEBACK)] * 3])
    lines = EvidenceFolder(verbose=False).lines(error("env.x", detail))
    assert lines == [
        "intro",
        "",
        *TRACEBACK,
        "(the same traceback appeared 3 times; 8 repeated lines left out)",
    ]


def test_a_repeated_block_that_is_not_a_traceback_is_counted_in_lines() -> None:
    detail = "a\nb\n\nc\n\na\nb"
    lines = EvidenceFolder(verbose=False).lines(error("env.x", detail))
    assert lines == ["a", "b", "", "c", "(2 repeated lines left out)"]


def test_two_repeated_tracebacks_are_counted_together() -> None:
    other = ("Traceback (most recent call last):", '  File "x.py", line 1', "KeyError: 1")
    detail = "\n\n".join(["\n".join(TRACEBACK), "\n".join(other)] * 2)
    lines = EvidenceFolder(verbose=False).lines(error("env.x", detail))
    assert lines == [
        *TRACEBACK,
        "",
        *other,
        "(2 tracebacks appeared more than once; 7 repeated lines left out)",
    ]


def test_a_block_shown_under_an_earlier_finding_is_not_shown_again() -> None:
    folder = EvidenceFolder(verbose=False)
    block = "\n".join(TRACEBACK)
    assert folder.lines(error("tensorflow.import", block)) == list(TRACEBACK)
    assert folder.lines(error("gpu.visible", f"TensorFlow did not import.\n\n{block}")) == [
        "TensorFlow did not import.",
        "(4 lines left out: the same as under tensorflow.import above)",
    ]


def test_a_short_block_may_recur_across_findings() -> None:
    folder = EvidenceFolder(verbose=False)
    assert folder.lines(error("a.x", "See packages.tensorflow.")) == ["See packages.tensorflow."]
    assert folder.lines(error("b.x", "See packages.tensorflow.")) == ["See packages.tensorflow."]


def test_long_evidence_is_folded_with_a_count_of_the_rest() -> None:
    detail = "\n".join(f"line {i}" for i in range(50))
    lines = EvidenceFolder(verbose=False).lines(error("env.x", detail))
    assert lines == [
        *(f"line {i}" for i in range(FOLD_LINES)),
        "... 42 more lines; -v shows them all",
    ]


def test_evidence_a_little_over_the_fold_is_shown_whole() -> None:
    detail = "\n".join(f"line {i}" for i in range(FOLD_LINES + FOLD_SLACK))
    assert EvidenceFolder(verbose=False).lines(error("env.x", detail)) == detail.splitlines()


def test_a_block_folded_away_counts_as_not_shown() -> None:
    folder = EvidenceFolder(verbose=False)
    hidden = "\n".join(f"deep {i}" for i in range(5))
    filler = "\n".join(f"line {i}" for i in range(20))
    folder.lines(error("a.x", f"{filler}\n\n{hidden}"))
    assert folder.lines(error("b.x", hidden)) == hidden.splitlines()


def test_verbose_shows_the_detail_as_recorded() -> None:
    detail = "\n\n".join(["\n".join(TRACEBACK)] * 3 + ["\n".join(map(str, range(40)))])
    assert EvidenceFolder(verbose=True).lines(error("env.x", detail)) == detail.splitlines()


def repeated_report() -> Report:
    """Two findings whose evidence holds the same traceback, three times in the first."""
    block = "\n".join(TRACEBACK)
    first = Finding(
        "tensorflow.import",
        Severity.ERROR,
        "TensorFlow cannot load libcudnn.so.8",
        "\n\n".join([block] * 3),
        Fix("Install cuDNN 8:", ("pip install 'nvidia-cudnn-cu11==8.6.0.163'",)),
    )
    second = Finding("gpu.visible", Severity.WARNING, "No GPU visible", block)
    return Report(facts=full_facts(), findings=(first, second))


def test_text_report_orders_fix_then_evidence_and_shows_repeats_once() -> None:
    out = render_text(repeated_report())
    assert out.count(TRACEBACK[1]) == 1
    assert out.index("pip install 'nvidia-cudnn-cu11==8.6.0.163'") < out.index(TRACEBACK[0])
    assert "(the same traceback appeared 3 times; 8 repeated lines left out)" in out
    assert "(4 lines left out: the same as under tensorflow.import above)" in out
    assert render_text(repeated_report(), verbose=True).count(TRACEBACK[1]) == 4


def test_markdown_orders_fix_then_evidence_in_a_code_block() -> None:
    out = render_markdown(repeated_report(), "0.1.0")
    item = out.split("- **error** `tensorflow.import`", 1)[1].split("\n- ", 1)[0]
    assert item.index("```sh") < item.index("```text") < item.index(TRACEBACK[1])
    assert item.count(TRACEBACK[1]) == 1
    assert "  (the same traceback appeared 3 times; 8 repeated lines left out)\n" in item
    assert render_markdown(repeated_report(), "0.1.0", verbose=True).count(TRACEBACK[1]) == 4


# --- wrapping never cuts a token ------------------------------------------------------------

TOKENS = (
    "/home/me/proj/.venv/lib/python3.11/site-packages/nvidia/cudnn/lib/libcudnn_cnn_infer.so.8",
    "numpy<2.0.0,>=1.23.5",
    "https://www.tensorflow.org/install/source#gpu",
    "tensorflow[and-cuda]==2.15.1",
)


@pytest.mark.parametrize("width", [20, 33, 60, 80, 100])
def test_wrap_at_spaces_breaks_only_between_words(width: int) -> None:
    line = "    pip wants " + " and ".join(TOKENS) + " installed, in that order, please."
    parts = wrap_at_spaces(line, width)
    assert " ".join(p.strip() for p in parts) == " ".join(line.split())
    assert all(p.startswith("    ") for p in parts)
    for part in parts:
        assert len(part) <= width or " " not in part.strip(), part


@pytest.mark.parametrize("width", [40, 60, 80, 100])
def test_text_detail_never_cuts_a_path_or_a_range(width: int) -> None:
    detail = "The loader picks " + " then ".join(TOKENS) + " before the wheel's own copy."
    report = Report(facts=full_facts(), findings=(error("cuda.x", detail),))
    words = {w for line in render_text(report, width=width).splitlines() for w in line.split()}
    assert set(TOKENS) <= words


# --- tfdoctor matrix ------------------------------------------------------------------------


def test_piped_matrix_keeps_every_version_range_whole() -> None:
    """Piped (as in ``tfdoctor matrix | less``): the width the CLI picks for a pipe."""
    query = (
        "--python-version",
        "3.10",
        "--platform",
        "linux",
        "--driver",
        "470.82.01",
        "--gpu",
        "K80",
    )
    out = tfdoctor("matrix", *query, env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    words = set(out.stdout.split())
    assert ">=2.9.0rc0,<2.10.0" in words
    assert all(line == line.rstrip() for line in out.stdout.splitlines())


@pytest.mark.parametrize("width", [60, 80, 100, 140])
@pytest.mark.parametrize(
    "query",
    [
        pytest.param({}, id="whole-matrix"),
        pytest.param(
            {"python_version": "3.10", "platform": "linux", "driver": "470.82.01", "gpu": "3.7"},
            id="k80",
        ),
    ],
)
def test_matrix_table_cells_are_never_cut(width: int, query: dict[str, str]) -> None:
    table, target, verdicts, asked = query_matrix(None, env={}, **query)
    text = render_matrix_text(table, verdicts, target, asked=asked, width=width)
    words = set(text.split())
    for verdict in verdicts:
        if verdict.fits:
            pins = verdict.line.pins
            assert {_bounds(pins.numpy), _bounds(pins.keras), verdict.line.latest_patch} <= words
    for line in text.splitlines():
        assert line == line.rstrip()


def test_matrix_prose_wraps_at_spaces_with_a_hanging_indent() -> None:
    table, target, verdicts, asked = query_matrix(
        None, python_version="3.10", platform="linux", driver="470.82.01", gpu="3.7", env={}
    )
    text = render_matrix_text(table, verdicts, target, asked=asked, width=60)
    excluded = text.split("\nExcluded:\n", 1)[1].splitlines()
    assert excluded[0].startswith("  2.")
    assert all(line.startswith(("  2.", "  1.", "    ")) for line in excluded)
    assert all(len(line) <= 60 for line in excluded)


def test_readme_matrix_example_is_what_the_program_prints() -> None:
    """Each run of lines between the README's ``...`` elisions is in the output as it is."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command, example = (
        readme.split("```text\n$ tfdoctor matrix ", 1)[1].split("```\n", 1)[0].split("\n", 1)
    )
    out = tfdoctor("matrix", *shlex.split(command), env=CLEAN_ENV)
    assert out.returncode == 0, out.stderr
    for run in example.split("...\n"):
        assert run in out.stdout
