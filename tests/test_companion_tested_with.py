"""A companion release whose declared range is open to later lines (``tensorflow<3``) is the
release for a TensorFlow only where its project's table pairs it with that line
(``tested_with``); pip's view, the range, is kept apart."""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tfdoctor import causes
from tfdoctor.compat import companion_answer
from tfdoctor.machine import Machine
from tfdoctor.matrix import (
    CompanionRelease,
    MatrixError,
    load_companions,
    parse_companions,
)

_TABLE = """\
schema_version: 1
sources:
  - {id: setup, title: "the releases' setup.py", url: "https://example.org/setup.py"}
  - {id: table, title: "the project's table", url: "https://example.org/README.md"}
companions:
  - name: shared-lib
    releases:
      - {release: "3.1", tensorflow: ">=2.11,<3", tested_with: ["2.11"], source: [setup, table]}
      - {release: "3.2", tensorflow: ">=2.12,<3", tested_with: ["2.12"], source: [setup, table]}
      - {release: "3.4", tensorflow: ">=2.14,<2.15", source: setup}
      - {release: "3.5", tensorflow: ">=1.15,<3", tested_with: ["1.15", "2.15"], source: setup}
    source: setup
"""


def _lib() -> tuple[CompanionRelease, ...]:
    return parse_companions(_TABLE).companions["shared-lib"].releases


def test_the_pairing_is_read_with_the_row() -> None:
    rows = _lib()
    assert [r.tested_with for r in rows] == [("2.11",), ("2.12",), (), ("1.15", "2.15")]


@pytest.mark.parametrize(
    ("tf", "release"),
    [
        pytest.param("2.12.1", "3.2", id="its-own-line"),
        pytest.param("2.11.0", "3.1", id="an-older-line"),
        pytest.param("2.14.1", "3.4", id="a-narrow-range-alone"),
        pytest.param("1.15.5", "3.5", id="both-lines-named"),
        # 3.2's range admits 2.13, but its project made it for 2.12: none for 2.13.
        pytest.param("2.13.0", None, id="admitted-not-made-for"),
        pytest.param("2.18.0", None, id="a-later-line"),
    ],
)
def test_the_release_for_a_tensorflow_is_the_one_made_for_its_line(
    tf: str, release: Optional[str]
) -> None:
    comp = parse_companions(_TABLE).companions["shared-lib"]
    found = comp.release_for(tf)
    assert (found.release if found is not None else None) == release
    # pip's view is unchanged: the wide range still admits it.
    assert all(r.admits("2.13.0") for r in comp.releases if r.release in ("3.1", "3.2"))


def test_a_pairing_that_is_no_line_is_refused() -> None:
    bad = _TABLE.replace('tested_with: ["2.11"]', 'tested_with: ["2"]')
    with pytest.raises(MatrixError, match="tested_with"):
        parse_companions(bad)


def test_the_matrix_answer_lists_the_lines_the_table_pairs() -> None:
    answer = companion_answer(
        f.FIXTURE_MATRIX, parse_companions(_TABLE), "shared-lib", release="3.2"
    )
    assert [m.tensorflow_lines for m in answer.matches] == [("2.12",)]


def test_every_shipped_pairing_is_a_line_its_own_range_admits() -> None:
    for comp in load_companions().companions.values():
        for row in comp.releases:
            for line in row.tested_with:
                assert row.admits(f"{line}.99") or row.admits(f"{line}.5"), (comp.name, row)


@pytest.mark.parametrize(
    "name",
    ["tfx-bsl", "tensorflow-transform", "tensorflow-data-validation", "tensorflow-model-analysis"],
)
def test_a_tfx_library_is_looked_up_in_its_own_compatibility_table(name: str) -> None:
    # The fix that sends the user to "its compatibility table" names the README's table, the
    # one that pairs each release with a TensorFlow, before the setup.py the ranges come from.
    table = load_companions()
    urls = [table.sources[s].url for s in table.companions[name].sources]
    assert urls[0].endswith("README.md#compatible-versions"), urls


def test_a_release_admitted_but_tested_with_other_lines_is_named_not_denied() -> None:
    # tensorflow-data-validation 1.14 declares tensorflow>=2.13,<3 and its table tests it with
    # 2.13 only: beside TensorFlow 2.14 it is known, untested, not "no release".
    installed = f.pkg("tensorflow-data-validation", "1.15.1")
    m = Machine(
        f.facts(
            packages=(f.pkg("tensorflow", "2.14.1", top_level=("tensorflow",)), installed),
            tensorflow=f.tensorflow(version="2.14.1"),
            python=f.python(version="3.10.12"),
        ),
        f.FIXTURE_MATRIX,
    )
    fix = causes.software.companion_fix(
        m, "tensorflow-data-validation", installed, "tensorflow", ">=2.15,<2.16"
    )
    assert "tensorflow-data-validation 1.14 declares tensorflow>=2.13,<3" in fix.text
    assert "tests it with TensorFlow 2.13 only" in fix.text
    assert fix.commands[-1].endswith('install "tensorflow>=2.15,<2.16"')
