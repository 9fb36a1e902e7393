"""The shipped import table (tfdoctor/data/tf_imports.yaml): invariants of the data, and a
planted violation answered in one line naming the file, the line and the field."""

from __future__ import annotations

import re

import pytest

from tests.planted import planted_error
from tfdoctor.machine import LAZY_IMPORTS, START_IMPORTS
from tfdoctor.tf_imports import TF_IMPORTS_DATA, TfImportsError, parse_tf_imports, tf_imports

TEXT = TF_IMPORTS_DATA.read_text(encoding="utf-8")


def test_the_machine_view_reads_the_shipped_table() -> None:
    data = tf_imports()
    assert dict(START_IMPORTS) == dict(data.start) and dict(LAZY_IMPORTS) == dict(data.lazy)
    assert set(data.start).isdisjoint(data.lazy)
    assert all(s.url.startswith("https://") for s in data.sources.values())
    # Every start row names the module that imports it.
    assert all(re.match(r"^tensorflow/\S+\.py: ", where) for where in data.start.values())


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            "  - {dist: wrapt, ",
            "  - {dist: wrapt, colour: blue, ",
            "start[",
            id="unknown-key",
        ),
        pytest.param(
            'import wrapt", source: tf-2.21-source}',
            'import wrapt", source: tf-2.22-source}',
            "start[wrapt].source: unknown source 'tf-2.22-source'",
            id="unknown-source",
        ),
        pytest.param(
            "  - {dist: requests, ",
            "  - {dist: numpy, ",
            "lazy: numpy is listed under start too",
            id="start-and-lazy",
        ),
    ],
)
def test_a_planted_violation_is_one_line(old: str, new: str, message: str) -> None:
    _, error = planted_error(parse_tf_imports, TfImportsError, TEXT, old, new, "tf_imports.yaml")
    assert error.startswith(message), error
