"""Functions of TensorFlow's C library that a release added or removed, read from
``data/c_api.yaml``: which releases have a function a binding found missing.

Each row names its sources (the C API headers of the releases either side of the change).
Imports nothing from the package but the YAML reader and the record base.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from tfdoctor.records import Record, record
from tfdoctor.yamldoc import SOURCE_ID, DataSource, NodeReader, compose, load_cached

if TYPE_CHECKING:
    from yaml import Node

#: The C API table shipped inside the package.
C_API_DATA = Path(__file__).parent / "data" / "c_api.yaml"
C_API_VERSION = 1

_NAME = re.compile(r"^TF_\w+$")
_HEADER = re.compile(r"^tensorflow/c/[\w/]+\.h$")
_LINE = re.compile(r"^\d+\.\d+$")


class CApiError(ValueError):
    """A C API table that cannot be used: ``FILE:LINE: FIELD: what is wrong``."""


@record
class CFunction(Record):
    """One C API function: its header, the release line that added it, or the one that
    removed it with the last line that still has it (None where the table does not say)."""

    name: str
    header: str
    added: Optional[str]
    last: Optional[str]
    removed: Optional[str]
    sources: tuple[str, ...]


@record
class CApi(Record):
    """Function name -> its row, with the table's sources."""

    path: str
    sources: Mapping[str, DataSource]
    functions: Mapping[str, CFunction]


def parse_c_api(text: str, path: str = "<c api>") -> CApi:
    """Validate C API table YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "C API table", CApiError)
    reader = NodeReader(path, CApiError)
    top = reader.mapping(root, "c_api", ("schema_version", "sources", "functions"))
    reader.schema_version(top["schema_version"], C_API_VERSION)
    sources = reader.sources(top["sources"], SOURCE_ID, DataSource)
    functions: dict[str, CFunction] = {}
    for where, name, fields, ids in reader.sourced_rows(
        top["functions"],
        "functions",
        "name",
        ("header",),
        ("added", "last", "removed"),
        reader.matching(_NAME, "C function name (TF_...)"),
        sources,
    ):
        added, last, removed = (
            _line(reader, fields, where, f) for f in ("added", "last", "removed")
        )
        if (last is None) != (removed is None):
            raise reader.error(fields["name"], where, "last and removed go together")
        if added is None and removed is None:
            raise reader.error(fields["name"], where, "needs added, or removed with last")
        header = reader.required_string(fields["header"], f"{where}.header", _HEADER, "header")
        functions[name] = CFunction(name, header, added, last, removed, ids)
    return CApi(path, sources, functions)


def _line(reader: NodeReader, fields: Mapping[str, Node], where: str, field: str) -> Optional[str]:
    """A row's optional release line field (``X.Y``); None where the row leaves it out."""
    node = fields.get(field)
    return (
        None
        if node is None
        else reader.required_string(node, f"{where}.{field}", _LINE, "release line (X.Y)")
    )


@functools.cache
def c_api(path: Optional[str] = None) -> CApi:
    """The C API table (the shipped file unless ``path``), read once per process."""
    return load_cached(path or str(C_API_DATA), "c-api", CApiError, parse_c_api, CApi)


def c_function(name: str) -> Optional[CFunction]:
    """The shipped table's row for C function ``name``; None where it has none."""
    return c_api().functions.get(name)
