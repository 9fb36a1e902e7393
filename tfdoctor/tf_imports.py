"""When ``import tensorflow`` imports each of its requirements, read from
``data/tf_imports.yaml``: as it starts (a bad one fails the import) or only when a feature is
used (a bad one fails that feature).

The rows were measured on one release and name their sources; a release that imports
differently is a data change. Imports nothing from the package but the YAML reader and the
record base.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from tfdoctor.records import Record, record
from tfdoctor.yamldoc import SOURCE_ID, DataSource, NodeReader, compose, load_cached

if TYPE_CHECKING:
    from yaml import Node

#: The import table shipped inside the package.
TF_IMPORTS_DATA = Path(__file__).parent / "data" / "tf_imports.yaml"
TF_IMPORTS_VERSION = 1

_DIST = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_RELEASE = re.compile(r"^\d+\.\d+\.\d+$")


class TfImportsError(ValueError):
    """An import table that cannot be used: ``FILE:LINE: FIELD: what is wrong``."""


@record
class TfImports(Record):
    """Distribution (PEP 503 name) -> where TensorFlow imports it, at start and when used."""

    path: str
    measured_on: str
    sources: Mapping[str, DataSource]
    start: Mapping[str, str]
    lazy: Mapping[str, str]


def parse_tf_imports(text: str, path: str = "<tf imports>") -> TfImports:
    """Validate import table YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "import table", TfImportsError)
    reader = NodeReader(path, TfImportsError)
    top = reader.mapping(
        root, "tf_imports", ("schema_version", "measured_on", "sources", "start", "lazy")
    )
    reader.schema_version(top["schema_version"], TF_IMPORTS_VERSION)
    measured = reader.required_string(
        top["measured_on"], "measured_on", _RELEASE, "TensorFlow release (X.Y.Z)"
    )
    sources = reader.sources(top["sources"], SOURCE_ID, DataSource)
    start = _rows(reader, top["start"], "start", sources)
    lazy = _rows(reader, top["lazy"], "lazy", sources)
    both = sorted(set(start) & set(lazy))
    if both:
        raise reader.error(top["lazy"], "lazy", f"{both[0]} is listed under start too")
    return TfImports(path, measured, sources, start, lazy)


def _rows(
    reader: NodeReader, node: Node, field: str, sources: Mapping[str, DataSource]
) -> dict[str, str]:
    def dist(item: Node, where: str) -> str:
        return reader.required_string(item, where, _DIST, "distribution (PEP 503 name)")

    out: dict[str, str] = {}
    for where, name, fields in reader.keyed_rows(
        node, field, "dist", ("where", "source"), (), dist
    ):
        reader.source_ids(fields["source"], f"{where}.source", sources)
        out[name] = reader.required_string(fields["where"], f"{where}.where")
    return out


@functools.cache
def tf_imports(path: Optional[str] = None) -> TfImports:
    """The import table (the shipped file unless ``path``), read once per process."""
    return load_cached(
        path or str(TF_IMPORTS_DATA), "tf-imports", TfImportsError, parse_tf_imports, TfImports
    )


class ImportTable(Mapping[str, str]):
    """One column of the shipped import table, read on first use (not when imported)."""

    def __init__(self, column: str) -> None:
        self._column = column

    def _table(self) -> Mapping[str, str]:
        table: Mapping[str, str] = getattr(tf_imports(), self._column)
        return table

    def __getitem__(self, key: str) -> str:
        return self._table()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())
