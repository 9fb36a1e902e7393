"""The field specification is what the matrix loader enforces: each case is planted once per
field the schema names, on the frozen fixture matrix, and answered in one line."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import yaml

from tests.factories import FIXTURE_MATRIX, FIXTURE_MATRIX_PATH
from tfdoctor import matrix_schema as schema
from tfdoctor.matrix import DEFAULT_MATRIX, PIN_FIELDS, MatrixError, TFLine, parse_matrix

_FIXTURE_TEXT = FIXTURE_MATRIX_PATH.read_text(encoding="utf-8")
FIXTURE = yaml.safe_load(_FIXTURE_TEXT)
#: The shipped matrix: the values of fields newer than the frozen fixture.
SHIPPED = yaml.safe_load(DEFAULT_MATRIX.read_text(encoding="utf-8"))
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _text(doc: dict[str, Any]) -> str:
    return yaml.dump(doc, Dumper=_DUMPER, sort_keys=False)


def _error(doc: dict[str, Any]) -> str:
    with pytest.raises(MatrixError) as info:
        parse_matrix(_text(doc), "m.yaml")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("m.yaml:")
    return message


def _copy(row: int = 0) -> dict[str, Any]:
    """The fixture with one of its lines (it stays valid: every line has its toolkit row)."""
    doc = yaml.load(_FIXTURE_TEXT, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    doc["tensorflow"] = [doc["tensorflow"][row]]
    return dict(doc)


def test_the_fixture_follows_the_schema() -> None:
    parse_matrix(_text(FIXTURE), "m.yaml")


def test_the_line_record_has_a_field_for_each_key_of_the_schema() -> None:
    record = {f.name for f in dataclasses.fields(TFLine)} - {"lineno"}
    assert record == {f.name for f in schema.LINE_FIELDS}
    assert schema.field("pins").part_names() == PIN_FIELDS


@pytest.mark.parametrize("name", schema.required(schema.LINE_FIELDS))
def test_a_missing_required_key_is_named(name: str) -> None:
    doc = _copy()
    del doc["tensorflow"][0][name]
    assert _error(doc).endswith(f"tensorflow[0].{name}: missing field")


@pytest.mark.parametrize(
    ("where", "rows"),
    [
        pytest.param(("tensorflow", 0), schema.LINE_FIELDS, id="line"),
        pytest.param(("cuda_toolkits", 0), schema.TOOLKIT_FIELDS, id="toolkit"),
        pytest.param(("cuda_families", 0), schema.FAMILY_FIELDS, id="family"),
        pytest.param((), schema.TOP_FIELDS, id="top"),
    ],
)
def test_an_unknown_key_is_refused_with_the_known_ones(
    where: tuple[Any, ...], rows: tuple[schema.Field, ...]
) -> None:
    doc = _copy()
    target: Any = doc
    for step in where:
        target = target[step]
    target["shoe_size"] = "44"
    message = _error(doc)
    assert ".shoe_size: unknown field (expected one of: " in message
    assert all(f.name in message for f in rows)


def _stated(row: dict[str, Any], field: schema.Field) -> bool:
    value = row.get(field.name)
    return bool(value) if field.stated == schema.NON_EMPTY else value is not None


@pytest.mark.parametrize("field", schema.sourced(schema.LINE_FIELDS), ids=lambda f: f.name)
def test_a_stated_fact_without_a_source_is_named(field: schema.Field) -> None:
    index = next((i for i, row in enumerate(FIXTURE["tensorflow"]) if _stated(row, field)), None)
    doc = _copy(index or 0)
    row = doc["tensorflow"][0]
    if index is None:
        # A field newer than the frozen fixture: the shipped matrix's first stated value.
        row[field.name] = next(x for x in SHIPPED["tensorflow"] if _stated(x, field))[field.name]
    sources = row["sources"]
    for key in [k for k in sources if k == field.name or k.startswith(f"{field.name}.")]:
        del sources[key]
    message = _error(doc)
    assert f"tensorflow[{row['line']}].{field.name}" in message
    assert "no source" in message


def test_an_unknown_source_key_and_an_unknown_source_id_are_named() -> None:
    doc = _copy()
    doc["tensorflow"][0]["sources"]["pins.h5py"] = doc["tensorflow"][0]["sources"]["pins"]
    assert "sources.pins.h5py: not a fact of this entry" in _error(doc)
    doc = _copy()
    doc["tensorflow"][0]["sources"]["python"] = "no-such-source"
    assert "unknown source 'no-such-source'" in _error(doc)


def field_faults(field: schema.Field, documented: bool = False) -> list[str]:
    """A field (or one of its parts) whose refresh state or stated rule is none of the
    schema's, or, where ``documented``, without the words docs/compatibility.md shows."""
    states = (schema.CHECKED, schema.DRAFTED, schema.HAND, schema.KEY)
    faults = [] if field.refreshed in states else [f"{field.name}: refreshed"]
    faults += (
        [] if field.stated in (schema.NOT_NULL, schema.NON_EMPTY) else [f"{field.name}: stated"]
    )
    faults += [
        f"{field.name}.{p.name}: refreshed" for p in field.parts if p.refreshed not in states
    ]
    return faults + ([f"{field.name}: doc"] if documented and not field.doc else [])


def test_every_field_says_how_it_is_kept() -> None:
    fields = [*schema.TOP_FIELDS, *schema.LINE_FIELDS, *schema.TOOLKIT_FIELDS]
    assert [x for field in fields for x in field_faults(field)] == []
    # docs/compatibility.md's field table is rendered from these.
    assert [x for field in schema.LINE_FIELDS for x in field_faults(field, documented=True)] == []
    assert set(schema.checked_fields()).isdisjoint(schema.unchecked_fields())
    # Planted: a field kept no known way, one stated no known way, one without its words.
    field = schema.LINE_FIELDS[0]
    name = field.name
    assert field_faults(dataclasses.replace(field, refreshed="sometimes")) == [f"{name}: refreshed"]
    assert field_faults(dataclasses.replace(field, stated="maybe")) == [f"{name}: stated"]
    assert field_faults(dataclasses.replace(field, doc=""), documented=True) == [f"{name}: doc"]


def test_every_source_the_draft_cites_is_a_source_of_the_matrix() -> None:
    cited = schema.draft_sources()
    ids = {i for v in cited.values() for i in ([v] if isinstance(v, str) else v)}
    assert ids <= set(FIXTURE_MATRIX.sources)
    assert set(cited) <= set(schema.source_keys())
