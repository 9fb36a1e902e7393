"""Which releases have TF-TRT, and where it is imported from, are the matrix's ``tf_trt`` facts
(each line's Linux GPU build; the early releases where the module moved), and whether the
log's Python fits a line is one Machine question: the TF-TRT fixes answer from them, and a
matrix without that knowledge names no release."""

from __future__ import annotations

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, top_error
from tfdoctor.facts import Facts
from tfdoctor.findings import Severity
from tfdoctor.machine import LogHints, Machine
from tfdoctor.matrix import DEFAULT_MATRIX, MatrixError, TFLine, load_matrix, parse_matrix

_SHIPPED = load_matrix(str(DEFAULT_MATRIX), env={})
_TEXT = DEFAULT_MATRIX.read_text(encoding="utf-8")
_CAUSE = "tf-build-without-tensorrt"

_TRT_IMPORT = (
    "TensorFlow version: {version}\n"
    "Traceback (most recent call last):\n"
    '  File "{path}", line 4, in <module>\n'
    "    from tensorflow.python.compiler.tensorrt import trt_convert\n"
    "ModuleNotFoundError: No module named 'tensorflow.python.compiler.tensorrt'\n"
)


def _log(version: str, path: str = "/srv/app/optimize.py") -> str:
    """TF-TRT's module missing under TensorFlow ``version``, imported from ``path``."""
    return _TRT_IMPORT.format(version=version, path=path)


def _line(version: str) -> TFLine:
    """The shipped matrix's line of ``version``."""
    line = _SHIPPED.line_for(version)
    assert line is not None
    return line


def test_the_matrix_places_tensorrt_in_the_lines() -> None:
    last = _SHIPPED.last_tensorrt_line()
    dropped = _SHIPPED.first_without_tensorrt()
    assert last is not None and dropped is not None
    assert (last.line, dropped.line) == ("2.17", "2.18")
    assert _line("2.17").tensorrt_built is True
    assert _line("2.17").tf_trt_module == "tensorflow.python.compiler.tensorrt"
    assert _line("2.19").tensorrt_built is False and _line("2.19").tf_trt_module is None
    # Every line up to the last with TensorRT states it, with a source.
    for line in _SHIPPED.lines:
        assert line.tensorrt_built is (line.key <= last.key)
        assert line.sources_of("tf_trt")


def test_the_module_began_where_an_older_release_shows_another() -> None:
    assert _SHIPPED.tf_trt_module_since("tensorflow.python.compiler.tensorrt") == "1.14"
    # contrib's module is the oldest stated: where it began is not known.
    assert _SHIPPED.tf_trt_module_since("tensorflow.contrib.tensorrt") is None


def test_a_matrix_without_the_facts_knows_no_release() -> None:
    fixture = f.FIXTURE_MATRIX
    assert fixture.last_tensorrt_line() is None
    assert fixture.first_without_tensorrt() is None
    assert fixture.tf_trt_module_since("tensorflow.python.compiler.tensorrt") is None
    assert all(line.tensorrt_built is None for line in fixture.lines)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            '      built: true\n      module: "tensorflow.python.compiler.tensorrt"\n',
            "      built: true\n      module: null\n",
            "tf_trt.module: needs a module where built is true",
        ),
        (
            "      built: false\n      module: null\n",
            '      built: false\n      module: "tensorflow.python.compiler.tensorrt"\n',
            "tf_trt.module: must be null where built is false",
        ),
        (
            "      built: false\n",
            '      built: "no"\n',
            "tf_trt.built: expected true or false",
        ),
        (
            '      module: "tensorflow.contrib.tensorrt"\n',
            '      module: "tensorflow..contrib"\n',
            "tf_trt.module",
        ),
    ],
    ids=["built-without-module", "module-without-build", "built-not-boolean", "bad-module"],
)
def test_a_wrong_tf_trt_row_is_named(old: str, new: str, words: str) -> None:
    assert old in _TEXT
    with pytest.raises(MatrixError) as info:
        parse_matrix(_TEXT.replace(old, new, 1), "m.yaml")
    assert words in str(info.value)


def test_a_build_without_tensorrt_is_sent_to_the_matrix_last_line() -> None:
    top = top_error(explained(_log("2.19.0"), matrix=_SHIPPED))
    assert top.cause == _CAUSE
    fix = fix_text(top)
    assert "up to 2.17" in fix and "TensorFlow 2.18 dropped TensorRT" in fix
    # A Linux Python that 2.17's wheels serve: the install is offered.
    linux = _log("2.19.0", "/home/user/venv/lib/python3.11/trt/optimize.py")
    assert "tensorflow[and-cuda]==2.17." in fix_text(top_error(explained(linux, matrix=_SHIPPED)))


def test_without_the_facts_no_release_is_named_or_installed() -> None:
    top = top_error(explained(_log("2.19.0")))
    assert top.cause == _CAUSE
    fix = fix_text(top)
    assert "of a release built with it" in fix and "2.17" not in fix
    assert top.fix is not None and not any("install" in c for c in top.fix.commands)


def test_code_for_the_module_under_an_older_release_names_where_it_began() -> None:
    top = top_error(explained(_log("1.13.1"), matrix=_SHIPPED))
    assert top.cause == "api-removed"
    fix = fix_text(top)
    assert "which TensorFlow 1.14 introduced" in fix and "up to 2.17" in fix


@pytest.mark.parametrize("version", ["1.14.0", "1.15.5", "2.12.0"])
def test_releases_with_the_module_are_not_told_it_predates_them(version: str) -> None:
    report = explained(_log(version), matrix=_SHIPPED)
    # (A private import's own api-removed warning may stand beside it.)
    assert top_error(report).cause == _CAUSE
    assert all(
        x.cause != "api-removed" or x.severity is not Severity.ERROR for x in report.findings
    )


# --- the log's Python against a line: one Machine question ------------------------------------

_BARE = Facts(tfdoctor_version="0", collected_at="2026-01-01T00:00:00+00:00")


def test_an_unknown_python_answers_the_callers_default() -> None:
    m = Machine(_BARE, _SHIPPED, LogHints(os="linux"))
    assert m.line_fits(_line("2.17"), "linux-")
    assert not m.line_fits(_line("2.17"), "linux-", unknown=False)


def test_a_shown_python_is_judged_by_the_lines_wheels() -> None:
    m = Machine(_BARE, _SHIPPED, LogHints(os="linux", python="3.13"))
    assert not m.line_fits(_line("2.17"), "linux-")
    assert m.line_fits(_line("2.21"), "linux-")
    m = Machine(_BARE, _SHIPPED, LogHints(python="3.11.4"))
    assert m.line_fits(_line("2.17"))


def test_the_platform_is_the_machines_unless_one_is_named() -> None:
    # An Intel Mac: TensorFlow 2.17 has no macOS x86-64 wheel, though Linux has Python 3.11's.
    intel_mac = f.facts(platform=f.platform(system="Darwin", machine="x86_64"))
    m = Machine(intel_mac, _SHIPPED)
    assert not m.line_fits(_line("2.17"))
    assert m.line_fits(_line("2.17"), "")
    assert m.line_fits(_line("2.17"), "linux-")
    assert m.line_fits(_line("2.15"))
