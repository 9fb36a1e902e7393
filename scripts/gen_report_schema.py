"""Regenerate docs/report.schema.json from the dataclasses, and the causes list in docs/findings.md.

Usage: python scripts/gen_report_schema.py [--check]

The schema is derived from the type hints of :class:`tfdoctor.facts.Facts` (and every dataclass
it reaches) and of the report shapes in :mod:`tfdoctor.findings`; descriptions come from the
class docstrings and the ``#:`` comment above a field. The list of causes in docs/findings.md
comes from :data:`tfdoctor.causes.CAUSES`.

``--check`` writes nothing and exits 1 when either document is stale.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import enum
import json
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tfdoctor.causes import CAUSES  # noqa: E402 - needs the path above
from tfdoctor.defaults import ExitCode  # noqa: E402
from tfdoctor.facts import SCHEMA_VERSION, Facts, HeldGpu, HeldMemory  # noqa: E402
from tfdoctor.findings import (  # noqa: E402
    REPORT_SCHEMA_VERSION,
    BandwidthPoint,
    CollectiveImplementation,
    Finding,
    Fix,
    LinkPoint,
    Severity,
    Summary,
)

SCHEMA = ROOT / "docs" / "report.schema.json"
FINDINGS_DOC = ROOT / "docs" / "findings.md"
DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: Report shapes ``report_to_json`` writes whole: every field is required, defaults or not.
#: A facts dataclass requires only its fields without a default, as ``facts_from_json`` does.
WRITTEN_WHOLE = (Finding, Fix, Summary)
#: Fields of those shapes written only when set (a finding's location, from ``tfdoctor scan``).
WRITTEN_WHEN_SET = {(Finding, "location")}

# ``X | None`` written in an annotation (Python 3.10+); facts.py spells it Optional[X].
_UNION_TYPE = getattr(types, "UnionType", typing.Union)
_JSON_TYPES: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}

#: What the type hints cannot say, merged over the generated property: (class, field) -> keywords.
REFINEMENTS: dict[tuple[type, str], dict[str, Any]] = {
    (Facts, "schema_version"): {
        "const": SCHEMA_VERSION,
        "description": "Facts schema version (tfdoctor.facts.SCHEMA_VERSION); bumped when the "
        "document changes shape.",
    },
    (Finding, "id"): {
        "description": "Stable id; the part before the first dot is the area.",
        "minLength": 1,
    },
    (Summary, "counts"): {
        "additionalProperties": False,
        "properties": {s.value: {"type": "integer", "minimum": 0} for s in Severity},
        "required": [s.value for s in Severity],
    },
    (Summary, "exit_code"): {
        # A report never carries DOCTOR_FAILED: that code means no report was made.
        "enum": [int(c) for c in ExitCode if c is not ExitCode.DOCTOR_FAILED],
        "description": "0 ok (or warnings without --strict), 1 warnings or unknowns with "
        "--strict, 2 errors, 130 interrupted (Ctrl-C) before the probes finished.",
    },
    # The codes the memory-held child and its reader write (tfdoctor/smoke/memory.py); other
    # string fields stay open to new codes.
    (HeldMemory, "status"): {
        "enum": ["ok", "no-gpu", "import-error", "timeout", "signal", "child-error"]
    },
    (HeldGpu, "memory_held_method"): {"enum": ["process", "device-delta", None]},
}


def _refinements() -> dict[tuple[str, str], dict[str, Any]]:
    """REFINEMENTS keyed by class name; a field that no longer exists stops the generator."""
    for cls, name in REFINEMENTS:
        if name not in {f.name for f in dataclasses.fields(cls)}:
            raise SystemExit(f"gen_report_schema: {cls.__name__} has no field {name!r}")
    return {(cls.__name__, name): value for (cls, name), value in REFINEMENTS.items()}


# --- descriptions from the source ---------------------------------------------------------


def _plain(text: str) -> str:
    """Docstring or comment text as one line of markdown: ``x`` and :role:`x` become `x`."""
    text = " ".join(text.split())
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def _class_node(cls: type) -> ast.ClassDef:
    """The class statement of ``cls`` in its module's source."""
    path = Path(sys.modules[cls.__module__].__file__ or "")
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return node
    raise SystemExit(f"gen_report_schema: no class {cls.__name__} in {path.name}")


def _class_description(cls: type) -> str:
    """The first paragraph of the class docstring."""
    doc = ast.get_docstring(_class_node(cls)) or ""
    return _plain(doc.split("\n\n")[0])


def _field_comments(cls: type) -> dict[str, str]:
    """Each field's ``#:`` comment: the lines right above it (Sphinx's attribute comments)."""
    path = Path(sys.modules[cls.__module__].__file__ or "")
    lines = path.read_text(encoding="utf-8").splitlines()
    comments: dict[str, str] = {}
    for stmt in _class_node(cls).body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        above: list[str] = []
        row = stmt.lineno - 2
        while row >= 0 and lines[row].strip().startswith("#:"):
            above.insert(0, lines[row].strip()[2:])
            row -= 1
        if above:
            comments[stmt.target.id] = _plain(" ".join(above))
    return comments


# --- types to schema -------------------------------------------------------------------------


def _type_schema(hint: Any, seen: list[type]) -> dict[str, Any]:
    """The schema for one type hint; the dataclasses and enums it names are added to ``seen``."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is _UNION_TYPE:
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1 or len(args) != 2:
            raise SystemExit(f"gen_report_schema: only Optional[X] unions are mapped: {hint}")
        schema = _type_schema(inner[0], seen)
        if "$ref" in schema:
            return {"anyOf": [schema, {"type": "null"}]}
        return {**schema, "type": [schema["type"], "null"]}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": _type_schema(args[0], seen)}
    if origin is dict and args and args[0] is str:
        return {"type": "object", "additionalProperties": _type_schema(args[1], seen)}
    is_enum = isinstance(hint, type) and issubclass(hint, enum.Enum)
    if is_enum or dataclasses.is_dataclass(hint):
        if hint not in seen:
            seen.append(hint)
        return {"$ref": f"#/$defs/{hint.__name__}"}
    if hint in _JSON_TYPES:
        return {"type": _JSON_TYPES[hint]}
    raise SystemExit(f"gen_report_schema: no JSON type for {hint!r}")


def _definition(cls: type, seen: list[type], refine: dict[tuple[str, str], dict[str, Any]]) -> Any:
    """The ``$defs`` entry of one dataclass or enum."""
    if issubclass(cls, enum.Enum):
        values = [m.value for m in cls]
        return {"description": _class_description(cls), "type": "string", "enum": values}
    if not dataclasses.is_dataclass(cls):
        raise SystemExit(f"gen_report_schema: {cls.__name__} is neither a dataclass nor an enum")
    hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    comments = _field_comments(cls)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field in dataclasses.fields(cls):
        prop = _type_schema(hints[field.name], seen)
        if field.name in comments:
            prop["description"] = comments[field.name]
        prop.update(refine.get((cls.__name__, field.name), {}))
        properties[field.name] = prop
        no_default = (
            field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        )
        # facts_from_json refuses a document without its schema_version, default or not.
        whole = cls in WRITTEN_WHOLE and (cls, field.name) not in WRITTEN_WHEN_SET
        if whole or no_default or (cls is Facts and field.name == "schema_version"):
            required.append(field.name)
    return {
        "description": _class_description(cls),
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _nullable(kind: str, description: str, items: bool = False) -> dict[str, Any]:
    node: dict[str, Any] = {"type": [kind, "null"], "description": description}
    if items:
        node["items"] = {"type": "string"}
    return node


#: The ``plan`` object of ``tfdoctor upgrade --format json``.
PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "tfdoctor upgrade only: the move the findings plan, in the order to do them.",
    "properties": {
        "from": _nullable("string", "The installed TensorFlow's version; null: none installed."),
        "to": {"type": "string", "description": "The release moved to (X.Y.Z)."},
        "summary": {"type": "string", "description": "One line: what the move takes."},
        "paths": {
            "type": "array",
            "items": {"type": "string"},
            "description": "The code scanned.",
        },
        "pins": _nullable(
            "array", "The target's pins (PEP 508); null when none could be made.", items=True
        ),
        "requested": _nullable(
            "array", "What to install; pip resolves the other pins from it.", items=True
        ),
        "pins_mode": _nullable(
            "string", "target (ranges, offline) or resolved (exact, from pip's resolver)."
        ),
    },
    "required": ["from", "to", "summary", "paths", "pins", "requested", "pins_mode"],
    "additionalProperties": False,
}


def build_schema() -> dict[str, Any]:
    """The report schema: the top level written here, ``$defs`` generated from the classes."""
    seen: list[type] = []
    properties = {
        "schema_version": {
            "const": REPORT_SCHEMA_VERSION,
            "description": "Report schema version (tfdoctor.findings.REPORT_SCHEMA_VERSION); "
            "bumped when the report changes shape.",
        },
        "tfdoctor_version": {"type": "string"},
        "facts": _type_schema(Facts, seen),
        "findings": _type_schema(tuple[Finding, ...], seen),
        "summary": _type_schema(Summary, seen),
    }
    required = list(properties)
    # Only `tfdoctor upgrade` writes it (tfdoctor/render/upgrade.py).
    properties["plan"] = PLAN_SCHEMA
    # Only the cluster commands write it (tfdoctor.findings.collective_to_json).
    properties["collective"] = {
        "type": "object",
        "description": "tfdoctor cluster smoke/local only: the collective implementation, the "
        "all-reduce sweep and the ring neighbours' transfers.",
        "properties": {
            "implementation": _type_schema(Optional[CollectiveImplementation], seen),
            "bandwidth": _type_schema(tuple[BandwidthPoint, ...], seen),
            "links": _type_schema(tuple[LinkPoint, ...], seen),
        },
        "required": ["implementation", "bandwidth", "links"],
        "additionalProperties": False,
    }
    refine = _refinements()
    defs: dict[str, Any] = {}

    def visit(cls: type) -> None:
        # Depth first, each class before those it refers to, so a section's parts follow it.
        if cls.__name__ in defs:
            return
        defs[cls.__name__] = None
        refs: list[type] = []
        defs[cls.__name__] = _definition(cls, refs, refine)
        for ref in refs:
            visit(ref)

    for cls in seen:
        visit(cls)
    return {
        "$schema": DRAFT,
        "title": "tfdoctor report",
        "description": "The JSON report of `tfdoctor check --format json`: facts, findings and "
        "summary. See docs/report.md.",
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
        "$defs": defs,
    }


def render_schema() -> str:
    """docs/report.schema.json as it should read."""
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


# --- the causes list in docs/findings.md --------------------------------------------------

CAUSES_BEGIN = "<!-- causes: generated by scripts/gen_report_schema.py from tfdoctor/causes/ -->"
CAUSES_END = "<!-- end of causes -->"


def render_causes() -> str:
    """The generated block: one table row per cause, in the catalogue's order."""
    rows = [CAUSES_BEGIN, "| Cause | Title |", "| --- | --- |"]
    for cause in CAUSES.values():
        title = cause.title.replace("|", "\\|")
        rows.append(f"| `{cause.id}` | {title} |")
    rows.append(CAUSES_END)
    return "\n".join(rows)


def render_findings_doc(current: str) -> str:
    """docs/findings.md with its causes block replaced (appended when missing)."""
    block = render_causes()
    begin, end = current.find(CAUSES_BEGIN), current.find(CAUSES_END)
    if begin < 0 or end < begin:
        return current.rstrip("\n") + "\n\n" + block + "\n"
    return current[:begin] + block + current[end + len(CAUSES_END) :]


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) both documents; 0 when up to date, 1 stale."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report a stale document")
    args = parser.parse_args(argv)
    findings_doc = FINDINGS_DOC.read_text(encoding="utf-8")
    stale = 0
    for path, text in (
        (SCHEMA, render_schema()),
        (FINDINGS_DOC, render_findings_doc(findings_doc)),
    ):
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current == text:
            continue
        if args.check:
            print(f"{path.relative_to(ROOT)} is stale: run {Path(__file__).name}", file=sys.stderr)
            stale = 1
            continue
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return stale


if __name__ == "__main__":
    sys.exit(main())
