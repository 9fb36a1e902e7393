"""Reading the package's YAML data files (the matrix, log signatures, scan rules) as composed
nodes, with one-line ``FILE:LINE: message`` errors; :class:`NodeReader` reads typed values from
the nodes (``FILE:LINE: FIELD: message``), and each file's own reader validates the rest.

:func:`load_cached` keeps what a reader validated, keyed by the file's bytes and the reader's
own code, so that a command that starts often (``check --static`` in a container's start, CI)
does not parse and validate the same YAML on every start.

This module imports nothing from the package but :mod:`tfdoctor.cache`,
:mod:`tfdoctor.bounded` and :mod:`tfdoctor.records`.
"""

from __future__ import annotations

import contextlib
import pickle
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

from tfdoctor.bounded import MAX_TEXT_BYTES, InputError, read_bytes
from tfdoctor.cache import code_of, entry_path, read_entry, write_entry
from tfdoctor.records import Record, record

if TYPE_CHECKING:
    from yaml import Node

T = TypeVar("T")
S = TypeVar("S")

#: What a data file's source ids look like (``cuda-release-notes``).
SOURCE_ID = re.compile(r"^[a-z0-9][a-z0-9.-]*$")

#: The severities a data file may give (the values of :class:`tfdoctor.findings.Severity`).
SEVERITIES = ("info", "warning", "error")


def read_document(path: str, noun: str, error: type[Exception]) -> str:
    """The text of ``path``, or ``error("PATH: cannot read the NOUN: reason")``."""
    return _decode(_read_bytes(path, noun, error), path, noun, error)


def _read_bytes(path: str, noun: str, error: type[Exception]) -> bytes:
    try:
        return read_bytes(path, MAX_TEXT_BYTES, f"the {noun}")
    except OSError as exc:
        raise error(f"{path}: cannot read the {noun}: {exc.strerror or exc}") from None
    except InputError as exc:
        raise error(str(exc)) from None


def _decode(raw: bytes, path: str, noun: str, error: type[Exception]) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: cannot read the {noun}: {exc}") from None


def compose(text: str, path: str, what: str, error: type[Exception]) -> Any:
    """The root node of YAML ``text`` (positions kept for messages); a syntax error or an
    empty document raises ``error`` with ``PATH:LINE:``."""
    import yaml  # noqa: PLC0415 - the YAML parser is loaded only with a data file

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        root = yaml.compose(text, Loader=loader)
    except RecursionError:
        # libyaml stops at 1000 levels itself; PyYAML's own composer recurses once per level.
        raise error(f"{path}:1: YAML nested too deeply") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise error(f"{path}:{line}: YAML syntax error: {problem}") from None
    except yaml.YAMLError as exc:
        # A reader error (a control character, bad encoding) carries a character offset.
        position = getattr(exc, "position", None)
        line = text.count("\n", 0, position) + 1 if isinstance(position, int) else 1
        first = str(exc).splitlines()[0] if str(exc) else "invalid YAML"
        raise error(f"{path}:{line}: YAML syntax error: {first}") from None
    if root is None:
        raise error(f"{path}:1: the {what} is empty")
    return root


@record
class DataSource(Record):
    """A data file's citable source: its id, what it is, and where to read it."""

    id: str
    title: str
    url: str


class NodeReader:
    """Typed access to composed YAML nodes: each problem is one ``error_type`` with the file,
    the line and the field (``FILE:LINE: FIELD: message``)."""

    def __init__(self, path: str, error_type: type[Exception]) -> None:
        self.path = path
        self.error_type = error_type

    def error(self, node: Optional[Node], field: str, message: str) -> Exception:
        line = node.start_mark.line + 1 if node is not None else 1
        return self.error_type(f"{self.path}:{line}: {field}: {message}")

    def mapping(
        self,
        node: Node,
        field: str,
        required: Iterable[str] = (),
        optional: Iterable[str] = (),
    ) -> dict[str, Node]:
        """A mapping with exactly the known keys (all of ``required``), keys in order; any
        plain string keys where neither ``required`` nor ``optional`` names one."""
        from yaml import MappingNode, ScalarNode  # noqa: PLC0415 - yaml loads with a data file

        if not isinstance(node, MappingNode):
            raise self.error(node, field, f"expected a mapping, got {kind(node)}")
        out: dict[str, Node] = {}
        allowed = set(required) | set(optional)
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
                raise self.error(key_node, field, "keys must be plain strings")
            key = str(key_node.value)
            if not key.isprintable():
                raise self.error(key_node, field, f"key {key!r} has unprintable characters")
            if key in out:
                raise self.error(key_node, f"{field}.{key}", "duplicate key")
            if allowed and key not in allowed:
                raise self.error(
                    key_node,
                    f"{field}.{key}",
                    f"unknown field (expected one of: {', '.join(sorted(allowed))})",
                )
            out[key] = value_node
        for key in required:
            if key not in out:
                raise self.error(node, f"{field}.{key}", "missing field")
        return out

    def sequence(self, node: Node, field: str) -> list[Node]:
        """A list's items."""
        from yaml import SequenceNode  # noqa: PLC0415

        if not isinstance(node, SequenceNode):
            raise self.error(node, field, f"expected a list, got {kind(node)}")
        return list(node.value)

    def string(
        self,
        node: Node,
        field: str,
        pattern: Optional[re.Pattern[str]] = None,
        what: str = "",
        nullable: bool = False,
    ) -> Optional[str]:
        """A non-empty string scalar (None for null where ``nullable``); versions must be
        quoted, as YAML reads ``2.10`` as the float 2.1."""
        from yaml import ScalarNode  # noqa: PLC0415

        if nullable and is_null(node):
            return None
        if not isinstance(node, ScalarNode):
            raise self.error(node, field, f"expected a string, got {kind(node)}")
        if node.tag != "tag:yaml.org,2002:str":
            hint = " (quote versions: YAML reads 2.10 as 2.1)" if pattern is not None else ""
            raise self.error(node, field, f"expected a string, got {node.value!r}{hint}")
        value = str(node.value)
        if not value.strip():
            raise self.error(node, field, "must not be empty")
        if pattern is not None and not pattern.match(value):
            raise self.error(node, field, f"{value!r} is not a valid {what or 'value'}")
        return value

    def required_string(
        self, node: Node, field: str, pattern: Optional[re.Pattern[str]] = None, what: str = ""
    ) -> str:
        """A non-empty string scalar; null is an error."""
        value = self.string(node, field, pattern, what)
        assert value is not None  # not nullable
        return value

    def matching(self, pattern: re.Pattern[str], what: str) -> Callable[[Node, str], str]:
        """The reader of a row's key (``keyed_rows``' ``read_key``) or field: a required string
        that ``pattern`` matches, ``what`` naming the form in errors."""

        def read(node: Node, field: str) -> str:
            return self.required_string(node, field, pattern, what)

        return read

    def strings(
        self, node: Node, field: str, pattern: Optional[re.Pattern[str]] = None, what: str = ""
    ) -> tuple[str, ...]:
        """A list of non-empty strings (``FIELD[i]`` in errors)."""
        return tuple(
            self.required_string(item, f"{field}[{i}]", pattern, what)
            for i, item in enumerate(self.sequence(node, field))
        )

    def sources(
        self, node: Node, pattern: re.Pattern[str], make: Callable[[str, str, str], S]
    ) -> dict[str, S]:
        """A data file's ``sources`` list: each ``{id, title, url}`` (ids unique and matching
        ``pattern``, URLs https), as ``make(id, title, url)`` by id, in order."""
        out: dict[str, S] = {}
        for i, item in enumerate(self.sequence(node, "sources")):
            where = f"sources[{i}]"
            fields = self.mapping(item, where, ("id", "title", "url"))
            sid = self.required_string(fields["id"], f"{where}.id", pattern, "source id")
            if sid in out:
                raise self.error(fields["id"], f"{where}.id", f"duplicate source {sid!r}")
            url = self.required_string(fields["url"], f"sources[{sid}].url")
            if not url.startswith("https://"):
                raise self.error(fields["url"], f"sources[{sid}].url", "must be an https:// URL")
            title = self.required_string(fields["title"], f"sources[{sid}].title")
            out[sid] = make(sid, title, url)
        return out

    def source_ids(self, node: Node, field: str, known: Mapping[str, object]) -> tuple[str, ...]:
        """One source id or a list of them, each defined under ``sources``."""
        from yaml import SequenceNode  # noqa: PLC0415

        items = self.sequence(node, field) if isinstance(node, SequenceNode) else [node]
        if not items:
            raise self.error(node, field, "needs at least one source")
        out = []
        for item in items:
            sid = self.required_string(item, field)
            if sid not in known:
                raise self.error(item, field, f"unknown source {sid!r} (define it under sources)")
            out.append(sid)
        return tuple(out)

    def keyed_rows(
        self,
        node: Node,
        field: str,
        key: str,
        required: Iterable[str],
        optional: Iterable[str] = (),
        read_key: Optional[Callable[[Node, str], Any]] = None,
        ascending: bool = False,
        unique: bool = True,
    ) -> list[tuple[str, Any, dict[str, Node]]]:
        """A list of mappings, each named by its ``key`` field: ``(where, key value, fields)``
        per row, ``where`` being ``FIELD[KEY]`` for messages. A repeated key is an error
        (unless not ``unique``: a table whose rows the caller tells apart by more fields), and
        with ``ascending`` so is a key not greater than the row's before it."""
        read = read_key or self.required_string
        out: list[tuple[str, Any, dict[str, Node]]] = []
        for i, item in enumerate(self.sequence(node, field)):
            fields = self.mapping(item, f"{field}[{i}]", (key, *required), optional)
            value = read(fields[key], f"{field}[{i}].{key}")
            where = f"{field}[{value}]"
            if unique and any(value == seen for _, seen, _ in out):
                raise self.error(fields[key], f"{where}.{key}", f"duplicate {key}")
            if ascending and out and value < out[-1][1]:
                raise self.error(fields[key], f"{where}.{key}", "rows must be sorted oldest first")
            out.append((where, value, fields))
        return out

    def sourced_rows(
        self,
        node: Node,
        field: str,
        key: str,
        required: Iterable[str],
        optional: Iterable[str],
        read_key: Optional[Callable[[Node, str], Any]],
        sources: Mapping[str, object],
        unique: bool = True,
    ) -> Iterator[tuple[str, Any, dict[str, Node], tuple[str, ...]]]:
        """``keyed_rows`` of a table whose rows each name their sources: ``(where, key value,
        fields, source ids)`` per row, each row's ``source`` field checked against ``sources``
        as the row is reached."""
        for where, value, fields in self.keyed_rows(
            node, field, key, (*required, "source"), optional, read_key, unique=unique
        ):
            yield (
                where,
                value,
                fields,
                self.source_ids(fields["source"], f"{where}.source", sources),
            )

    def choice(self, node: Node, field: str, choices: Sequence[str]) -> str:
        """One of ``choices``."""
        value = self.required_string(node, field)
        if value not in choices:
            raise self.error(node, field, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def boolean(self, node: Node, field: str) -> bool:
        """``true`` or ``false``."""
        from yaml import ScalarNode  # noqa: PLC0415

        if not isinstance(node, ScalarNode) or node.tag != "tag:yaml.org,2002:bool":
            raise self.error(node, field, f"expected true or false, got {describe(node)}")
        return str(node.value).lower() in ("true", "yes", "on")

    def flag(self, fields: Mapping[str, Any], name: str, where: str) -> bool:
        """The boolean ``fields[name]``, False when the field is absent."""
        return name in fields and self.boolean(fields[name], where)

    def schema_version(self, node: Node, supported: int) -> int:
        """The file's ``schema_version``, which must be the one this reader ``supported``."""
        version = self.integer(node, "schema_version")
        if version != supported:
            raise self.error(
                node,
                "schema_version",
                f"{version} is not supported (this tfdoctor reads {supported})",
            )
        return version

    def integer(self, node: Node, field: str) -> int:
        """A plain decimal integer."""
        from yaml import ScalarNode  # noqa: PLC0415

        if not isinstance(node, ScalarNode) or node.tag != "tag:yaml.org,2002:int":
            raise self.error(node, field, f"expected an integer, got {describe(node)}")
        value = str(node.value)
        # YAML 1.1 also reads 0x1, 0b1 and 1:30 as integers; the data files use plain decimals.
        if not re.fullmatch(r"[-+]?(0|[1-9][0-9]*)", value):
            raise self.error(node, field, f"expected a decimal integer, got {value!r}")
        return int(value)


def version_key(text: str) -> tuple[int, ...]:
    """A dotted numeric version (driver, CUDA, Python, a package's release) as a comparable
    tuple: ``"525.60.13"`` -> ``(525, 60, 13)``; a part's digits count up to its first other
    character, and a part without leading digits ends the tuple (``"2.16.0rc1"`` ->
    ``(2, 16, 0)``). The data files' releases and the ones read from machines alike, so every
    module orders them the same way."""
    out = []
    for part in text.split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        out.append(int(digits.group()))
    return tuple(out)


def is_null(node: Node) -> bool:
    """A YAML null (``~``, ``null`` or nothing)."""
    return getattr(node, "tag", "") == "tag:yaml.org,2002:null"


def kind(node: Node) -> str:
    """What a node is, for a message: a mapping, a list, or its value."""
    from yaml import MappingNode, SequenceNode  # noqa: PLC0415

    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    return describe(node)


def describe(node: Node) -> str:
    """A scalar node's value for a message (``null``, ``'2.1'``)."""
    if is_null(node):
        return "null"
    value = getattr(node, "value", None)
    return repr(value) if isinstance(value, str) else type(node).__name__


def load_cached(
    path: str,
    noun: str,
    error: type[Exception],
    parse: Callable[[str, str], T],
    kind: type[T],
    env: Optional[Mapping[str, str]] = None,
) -> T:
    """``parse(text, path)`` of the file at ``path``, from the cache when it holds the same.

    The key is a digest of the file's bytes, ``path`` (parsed data names its file), the code
    of ``parse``'s module and of every package module it reaches (the validating reader, the
    record types; :func:`tfdoctor.cache.code_of`) and this Python's version: a changed file
    or reader never meets an old entry. An entry is used only if it is this
    user's own file, writable by no one else, and unpickles to a ``kind``; anything else is
    parsed afresh. Errors are the reader's own (nothing is cached for a file that does not
    validate). The cache is best effort: a read-only or missing home only costs the parse.
    """
    raw = _read_bytes(path, noun, error)
    text = _decode(raw, path, noun, error)
    entry = _cache_entry(raw, path, noun, parse, env)
    if entry is not None:
        hit = _read_entry(entry, kind)
        if hit is not None:
            return hit
    value = parse(text, path)
    if entry is not None:
        _write_entry(entry, value)
    return value


def _cache_entry(
    raw: bytes,
    path: str,
    noun: str,
    parse: Callable[..., Any],
    env: Optional[Mapping[str, str]],
) -> Optional[Path]:
    code = code_of(getattr(parse, "__module__", ""))
    if code is None:
        return None
    return entry_path(noun, (raw, path.encode(), *code), ".pickle", env)


def _read_entry(entry: Path, kind: type[T]) -> Optional[T]:
    data = read_entry(entry)
    if data is None:
        return None
    try:
        # Safe to unpickle: read_entry reads only this user's own file, writable by no one else.
        value = pickle.loads(data)
    except Exception:  # a torn or stale entry is a miss, never an error
        return None
    return value if isinstance(value, kind) else None


def _write_entry(entry: Path, value: object) -> None:
    with contextlib.suppress(Exception):  # a value that does not pickle is simply not kept
        write_entry(entry, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
