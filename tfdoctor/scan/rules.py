"""Load and validate ``scan_rules.yaml`` into typed rules (errors: ``FILE:LINE: FIELD: what``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.causes import CAUSES
from tfdoctor.matrix import version_key
from tfdoctor.yamldoc import compose, read_document

DEFAULT_RULES = Path(__file__).resolve().parent.parent / "scan_rules.yaml"
RULES_SCHEMA_VERSION = 1

EFFECTS = (
    "attribute-error",
    "import-error",
    "module-removed",
    "value-error",
    "keras3-behaviour",
    "changed-default",
    "needs-package",
)
SEVERITIES = ("error", "warning", "info")

_ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_LINE_RE = re.compile(r"^\d+\.\d+$")
_API_RE = re.compile(r"^(tf|keras)(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PACKAGE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")

_RULE_FIELDS = {
    "id",
    "api",
    "method",
    "receiver",
    "kwarg",
    "path_suffix",
    "path_not_suffix",
    "removed_in",
    "changed_in",
    "effect",
    "severity",
    "what",
    "replacement",
    "compat",
    "legacy_keras",
    "install",
    "unless_installed",
    "cause",
    "sources",
}


class RulesError(ValueError):
    """A rules file that cannot be used: ``FILE:LINE: FIELD: what is wrong`` in one line."""


@dataclasses.dataclass(frozen=True)
class RuleSource:
    """A citable source of rules."""

    id: str
    title: str
    url: str


@dataclasses.dataclass(frozen=True)
class Rule:
    """One use that breaks or changes meaning from a release on, and what replaces it."""

    id: str
    #: Fully qualified names (``tf.Session``); a use matches a name or anything under it.
    api: tuple[str, ...]
    #: A method called on any object (``fit_generator``), instead of ``api``.
    method: Optional[str]
    receiver: Optional[re.Pattern[str]]
    kwarg: Optional[str]
    path_suffix: tuple[str, ...]
    path_not_suffix: tuple[str, ...]
    #: ``removed`` or ``changed``, and the release line from which it holds.
    kind: str
    release: str
    effect: str
    severity: str
    what: str
    replacement: str
    compat: bool
    legacy_keras: bool
    install: tuple[str, ...]
    unless_installed: Optional[str]
    cause: str
    sources: tuple[RuleSource, ...]

    @property
    def release_key(self) -> tuple[int, ...]:
        """The release line as a comparable tuple."""
        return version_key(self.release)

    @property
    def needs_path(self) -> bool:
        """Whether the rule looks at the path argument of the call."""
        return bool(self.path_suffix or self.path_not_suffix)


@dataclasses.dataclass(frozen=True)
class Rules:
    """Every rule of a rules file, and the file it came from."""

    path: str
    sources: Mapping[str, RuleSource]
    rules: tuple[Rule, ...]

    def by_method(self) -> dict[str, tuple[Rule, ...]]:
        """The method rules, by method name."""
        out: dict[str, list[Rule]] = {}
        for rule in self.rules:
            if rule.method is not None:
                out.setdefault(rule.method, []).append(rule)
        return {name: tuple(rules) for name, rules in out.items()}


def load_rules(path: Optional[str] = None) -> Rules:
    """Load and validate the rules at ``path`` (default: the bundled ``scan_rules.yaml``)."""
    chosen = path or str(DEFAULT_RULES)
    return parse_rules(read_document(chosen, "rules", RulesError), chosen)


def parse_rules(text: str, path: str = "<rules>") -> Rules:
    """Validate rules YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "rules file", RulesError)
    reader = _Reader(path)
    top = reader.mapping(root, "rules file", {"schema_version", "sources", "rules"}, required=3)
    version = reader.scalar(top["schema_version"], "schema_version")
    if version != str(RULES_SCHEMA_VERSION):
        raise reader.error(
            top["schema_version"],
            "schema_version",
            f"{version} is not supported (this tfdoctor reads {RULES_SCHEMA_VERSION})",
        )
    sources: dict[str, RuleSource] = {}
    for i, node in enumerate(reader.sequence(top["sources"], "sources")):
        where = f"sources[{i}]"
        fields = reader.mapping(node, where, {"id", "title", "url"}, required=3)
        sid = reader.string(fields["id"], f"{where}.id", _ID_RE, "a kebab-case id")
        if sid in sources:
            raise reader.error(fields["id"], f"{where}.id", f"duplicate source {sid!r}")
        url = reader.string(fields["url"], f"sources[{sid}].url")
        if not url.startswith("https://"):
            raise reader.error(fields["url"], f"sources[{sid}].url", "must be an https:// URL")
        sources[sid] = RuleSource(sid, reader.string(fields["title"], f"{where}.title"), url)
    rules: list[Rule] = []
    seen: set[str] = set()
    for i, node in enumerate(reader.sequence(top["rules"], "rules")):
        rule = _read_rule(reader, node, f"rules[{i}]", sources)
        if rule.id in seen:
            raise reader.error(node, f"rules[{rule.id}].id", "duplicate rule id")
        seen.add(rule.id)
        rules.append(rule)
    return Rules(path, sources, tuple(rules))


def _read_rule(reader: _Reader, node: Any, where: str, sources: Mapping[str, RuleSource]) -> Rule:
    fields = reader.mapping(node, where, _RULE_FIELDS, required=0)
    for name in ("id", "effect", "what", "replacement", "cause", "sources"):
        if name not in fields:
            raise reader.error(node, f"{where}.{name}", "is required")
    rid = reader.string(fields["id"], f"{where}.id", _ID_RE, "a kebab-case id")
    where = f"rules[{rid}]"
    api = reader.strings(fields["api"], f"{where}.api", _API_RE) if "api" in fields else ()
    method = reader.optional(fields, "method", f"{where}.method", _NAME_RE)
    if bool(api) == (method is not None):
        raise reader.error(node, f"{where}.api", "give either api or method")
    receiver_text = reader.optional(fields, "receiver", f"{where}.receiver")
    receiver = None
    if receiver_text is not None:
        if method is None:
            raise reader.error(fields["receiver"], f"{where}.receiver", "only with method")
        try:
            receiver = re.compile(receiver_text)
        except re.error as exc:
            raise reader.error(fields["receiver"], f"{where}.receiver", str(exc)) from None
    removed = reader.optional(fields, "removed_in", f"{where}.removed_in", _LINE_RE, "X.Y")
    changed = reader.optional(fields, "changed_in", f"{where}.changed_in", _LINE_RE, "X.Y")
    if (removed is None) == (changed is None):
        raise reader.error(
            node, f"{where}.removed_in", "give exactly one of removed_in, changed_in"
        )
    effect = reader.string(fields["effect"], f"{where}.effect")
    if effect not in EFFECTS:
        raise reader.error(fields["effect"], f"{where}.effect", f"must be one of {EFFECTS}")
    severity = reader.optional(fields, "severity", f"{where}.severity") or "error"
    if severity not in SEVERITIES:
        raise reader.error(fields["severity"], f"{where}.severity", f"must be one of {SEVERITIES}")
    cause = reader.string(fields["cause"], f"{where}.cause")
    if cause not in CAUSES:
        raise reader.error(fields["cause"], f"{where}.cause", f"unknown cause {cause!r}")
    source_ids = reader.strings(fields["sources"], f"{where}.sources")
    if not source_ids:
        raise reader.error(fields["sources"], f"{where}.sources", "name at least one source")
    for sid in source_ids:
        if sid not in sources:
            raise reader.error(fields["sources"], f"{where}.sources", f"unknown source {sid!r}")
    install = (
        reader.strings(fields["install"], f"{where}.install", _PACKAGE_RE)
        if "install" in fields
        else ()
    )
    return Rule(
        id=rid,
        api=api,
        method=method,
        receiver=receiver,
        kwarg=reader.optional(fields, "kwarg", f"{where}.kwarg", _NAME_RE),
        path_suffix=_suffixes(reader, fields, "path_suffix", where),
        path_not_suffix=_suffixes(reader, fields, "path_not_suffix", where),
        kind="removed" if removed is not None else "changed",
        release=removed or changed or "",
        effect=effect,
        severity=severity,
        what=reader.string(fields["what"], f"{where}.what"),
        replacement=reader.string(fields["replacement"], f"{where}.replacement"),
        compat=reader.boolean(fields, "compat", f"{where}.compat"),
        legacy_keras=reader.boolean(fields, "legacy_keras", f"{where}.legacy_keras"),
        install=install,
        unless_installed=reader.optional(
            fields, "unless_installed", f"{where}.unless_installed", _PACKAGE_RE
        ),
        cause=cause,
        sources=tuple(sources[sid] for sid in source_ids),
    )


def _suffixes(reader: _Reader, fields: Mapping[str, Any], name: str, where: str) -> tuple[str, ...]:
    if name not in fields:
        return ()
    values = reader.strings(fields[name], f"{where}.{name}")
    for value in values:
        if not value.startswith("."):
            raise reader.error(fields[name], f"{where}.{name}", f"{value!r} must start with '.'")
    return values


class _Reader:
    """Typed access to YAML nodes; every error names the file, the line and the field."""

    def __init__(self, path: str) -> None:
        self.path = path

    def error(self, node: Any, field: str, message: str) -> RulesError:
        line = node.start_mark.line + 1 if node is not None else 1
        return RulesError(f"{self.path}:{line}: {field}: {message}")

    def mapping(self, node: Any, where: str, allowed: set[str], required: int) -> dict[str, Any]:
        if node.tag != "tag:yaml.org,2002:map":
            raise self.error(node, where, "must be a mapping")
        out: dict[str, Any] = {}
        for key, value in node.value:
            name = str(key.value)
            if name not in allowed:
                raise self.error(key, f"{where}.{name}", "unknown field")
            if name in out:
                raise self.error(key, f"{where}.{name}", "given twice")
            out[name] = value
        if required and len(out) < required:
            missing = sorted(allowed - set(out))
            raise self.error(node, f"{where}.{missing[0]}", "is required")
        return out

    def sequence(self, node: Any, where: str) -> Sequence[Any]:
        if node.tag != "tag:yaml.org,2002:seq":
            raise self.error(node, where, "must be a list")
        return list(node.value)

    def scalar(self, node: Any, where: str) -> str:
        if node.tag in ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"):
            raise self.error(node, where, "must be a single value")
        return str(node.value)

    def string(
        self, node: Any, where: str, pattern: Optional[re.Pattern[str]] = None, what: str = ""
    ) -> str:
        if node.tag != "tag:yaml.org,2002:str" or not str(node.value).strip():
            raise self.error(node, where, "must be a non-empty string")
        value = str(node.value)
        if pattern is not None and not pattern.match(value):
            raise self.error(node, where, f"{value!r} is not {what or 'valid'}")
        return value

    def strings(
        self, node: Any, where: str, pattern: Optional[re.Pattern[str]] = None
    ) -> tuple[str, ...]:
        return tuple(
            self.string(item, f"{where}[{i}]", pattern, "a fully qualified name")
            for i, item in enumerate(self.sequence(node, where))
        )

    def optional(
        self,
        fields: Mapping[str, Any],
        name: str,
        where: str,
        pattern: Optional[re.Pattern[str]] = None,
        what: str = "",
    ) -> Optional[str]:
        if name not in fields:
            return None
        return self.string(fields[name], where, pattern, what)

    def boolean(self, fields: Mapping[str, Any], name: str, where: str) -> bool:
        if name not in fields:
            return False
        node = fields[name]
        if node.tag != "tag:yaml.org,2002:bool":
            raise self.error(node, where, "must be true or false")
        return str(node.value).lower() in ("true", "yes", "on")
