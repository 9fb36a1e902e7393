"""Load and validate ``scan_rules.yaml`` into typed rules (errors: ``FILE:LINE: FIELD: what``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional

from tfdoctor.causes import CAUSES, CauseId
from tfdoctor.matrix import version_key
from tfdoctor.records import Record, record
from tfdoctor.yamldoc import SEVERITIES, NodeReader, compose, read_document

DEFAULT_RULES = Path(__file__).resolve().parent.parent / "scan_rules.yaml"
RULES_SCHEMA_VERSION = 1

EFFECTS = (
    "attribute-error",
    "import-error",
    "module-removed",
    "value-error",
    "type-error",
    "runtime-error",
    "private-copy",
    "keras3-behaviour",
    "changed-default",
    "needs-package",
)

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
    "attribute",
    "kwarg_value",
    "arg",
    "arg_pattern",
    "until",
    "except_api",
    "tf1_code",
    "keras_tensor_arg",
    "methods",
    "classes",
    "renamed_to",
    "renamed_in",
    "renamed_api",
}

#: What each entry of a rule's ``methods`` gives: the rule's id and method, and the words put
#: into its ``what`` and ``replacement`` where they say ``{method}``, ``{does}``, ``{port}``.
_METHOD_ENTRY = ("id", "method", "does", "port")
_PLACEHOLDER = re.compile(r"\{(?:method|does|port)\}")

#: What ``kwarg_value`` can ask of the keyword argument ``kwarg`` (walker.Use.kwarg_values):
#: a literal True, anything but a literal True (absent included), a literal int.
KWARG_VALUES = ("true", "not-true", "int")


class RulesError(ValueError):
    """A rules file that cannot be used: ``FILE:LINE: FIELD: what is wrong`` in one line."""


@record
class RuleSource(Record):
    """A citable source of rules."""

    id: str
    title: str
    url: str


@record
class Rule(Record):
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
    cause: CauseId
    sources: tuple[RuleSource, ...]
    #: A read of this attribute on any object (``optimizer.lr``), instead of ``api``.
    attribute: Optional[str] = None
    #: With ``kwarg``: what its value must be (:data:`KWARG_VALUES`).
    kwarg_value: Optional[str] = None
    #: The positional argument (0-based) whose source text must match ``arg_pattern``.
    arg: Optional[int] = None
    arg_pattern: Optional[re.Pattern[str]] = None
    #: The release line from which the rule no longer holds (another rule takes over).
    until: str = ""
    #: Names under ``api`` the rule does not cover.
    except_api: tuple[str, ...] = ()
    #: The rule holds only in a file written for TensorFlow 1 (another of its uses is
    #: TensorFlow 1 API): there an argument still means what TensorFlow 1 meant by it.
    tf1_code: bool = False
    #: The rule holds only for a call with a Keras symbolic tensor among its arguments.
    keras_tensor_arg: bool = False
    #: With ``method`` or ``attribute``: the public modules (``tf.distribute``) whose classes'
    #: objects have the member: an error naming an object of a class exported there (Python's
    #: ``'MirroredStrategy' object has no attribute``) is judged by the rule.
    classes: tuple[str, ...] = ()
    #: With ``kwarg``: the newer name of the argument, which the functions took from the
    #: release ``renamed_in`` on (the older one ``kwarg`` kept beside it until ``release``);
    #: ``renamed_api``: the names under ``api`` the rename covers (all where empty). A release
    #: before ``renamed_in`` refuses the newer name (``got an unexpected keyword argument``).
    renamed_to: Optional[str] = None
    renamed_in: str = ""
    renamed_api: tuple[str, ...] = ()

    @property
    def release_key(self) -> tuple[int, ...]:
        """The release line as a comparable tuple."""
        return version_key(self.release)

    @property
    def needs_path(self) -> bool:
        """Whether the rule looks at the path argument of the call."""
        return bool(self.path_suffix or self.path_not_suffix)


@record
class Rules(Record):
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
            elif rule.attribute is not None:
                # The walker takes a leading dot as an attribute read, not a call.
                out.setdefault("." + rule.attribute, []).append(rule)
        return {name: tuple(rules) for name, rules in out.items()}


def load_rules(path: Optional[str] = None) -> Rules:
    """Load and validate the rules at ``path`` (default: the bundled ``scan_rules.yaml``)."""
    chosen = path or str(DEFAULT_RULES)
    return parse_rules(read_document(chosen, "rules", RulesError), chosen)


def parse_rules(text: str, path: str = "<rules>") -> Rules:
    """Validate rules YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "rules file", RulesError)
    reader = _Reader(path)
    top = reader.mapping(root, "rules file", ("schema_version", "sources", "rules"))
    reader.schema_version(top["schema_version"], RULES_SCHEMA_VERSION)
    sources = reader.sources(top["sources"], _ID_RE, RuleSource)
    rules: list[Rule] = []
    seen: set[str] = set()
    for i, node in enumerate(reader.sequence(top["rules"], "rules")):
        for rule in _read_rules(reader, node, f"rules[{i}]", sources):
            if rule.id in seen:
                raise reader.error(node, f"rules[{rule.id}].id", "duplicate rule id")
            seen.add(rule.id)
            rules.append(rule)
    return Rules(path, sources, tuple(rules))


def _read_rules(
    reader: _Reader, node: Any, where: str, sources: Mapping[str, RuleSource]
) -> list[Rule]:
    """The rule at ``node``; with ``methods``, one rule per entry, of the entry's id and
    method, the entry's words put into the rule's ``what`` and ``replacement``."""
    required = ("effect", "what", "replacement", "cause", "sources")
    fields = reader.mapping(node, where, required, _RULE_FIELDS - set(required))
    if "methods" not in fields:
        if "id" not in fields:
            raise reader.error(node, f"{where}.id", "missing field")
        rid = reader.required_string(fields["id"], f"{where}.id", _ID_RE, "a kebab-case id")
        method = reader.optional(fields, "method", f"rules[{rid}].method", _NAME_RE)
        return [_read_rule(reader, node, fields, rid, method, sources, {})]
    for name in ("id", "method"):
        if name in fields:
            raise reader.error(fields[name], f"{where}.{name}", "each entry of methods gives it")
    rules = []
    for i, item in enumerate(reader.sequence(fields["methods"], f"{where}.methods")):
        at = f"{where}.methods[{i}]"
        entry = reader.mapping(item, at, _METHOD_ENTRY)
        rid = reader.required_string(entry["id"], f"{at}.id", _ID_RE, "a kebab-case id")
        words = {
            key: reader.required_string(
                entry[key], f"rules[{rid}].{key}", _NAME_RE if key == "method" else None
            )
            for key in _METHOD_ENTRY[1:]
        }
        rules.append(_read_rule(reader, node, fields, rid, words["method"], sources, words))
    if not rules:
        raise reader.error(fields["methods"], f"{where}.methods", "name at least one method")
    return rules


def _read_rule(
    reader: _Reader,
    node: Any,
    fields: Mapping[str, Any],
    rid: str,
    method: Optional[str],
    sources: Mapping[str, RuleSource],
    words: Mapping[str, str],
) -> Rule:
    """The rule of id ``rid`` (on ``method``, where it names one) from its ``fields``; ``words``
    (``{does}`` -> what the method does) put into its ``what`` and ``replacement``."""
    where = f"rules[{rid}]"
    api = (
        reader.strings(fields["api"], f"{where}.api", _API_RE, "fully qualified name")
        if "api" in fields
        else ()
    )
    attribute = reader.optional(fields, "attribute", f"{where}.attribute", _NAME_RE)
    if [bool(api), method is not None, attribute is not None].count(True) != 1:
        raise reader.error(node, f"{where}.api", "give one of api, method, attribute")
    receiver = _pattern(reader, fields, "receiver", where)
    if receiver is not None and method is None and attribute is None:
        raise reader.error(fields["receiver"], f"{where}.receiver", "only with method or attribute")
    classes = (
        reader.strings(fields["classes"], f"{where}.classes", _API_RE, "fully qualified name")
        if "classes" in fields
        else ()
    )
    if classes and method is None and attribute is None:
        raise reader.error(fields["classes"], f"{where}.classes", "only with method or attribute")
    kwarg_value = reader.optional(fields, "kwarg_value", f"{where}.kwarg_value")
    if kwarg_value is not None and (kwarg_value not in KWARG_VALUES or "kwarg" not in fields):
        raise reader.error(
            fields["kwarg_value"], f"{where}.kwarg_value", f"one of {KWARG_VALUES}, with kwarg"
        )
    arg_text = reader.optional(fields, "arg", f"{where}.arg", re.compile(r"^\d$"), "0 to 9")
    arg_pattern = _pattern(reader, fields, "arg_pattern", where)
    if (arg_text is None) != (arg_pattern is None):
        raise reader.error(node, f"{where}.arg", "give arg and arg_pattern together")
    removed = reader.optional(fields, "removed_in", f"{where}.removed_in", _LINE_RE, "X.Y")
    changed = reader.optional(fields, "changed_in", f"{where}.changed_in", _LINE_RE, "X.Y")
    if (removed is None) == (changed is None):
        raise reader.error(
            node, f"{where}.removed_in", "give exactly one of removed_in, changed_in"
        )
    effect = reader.choice(fields["effect"], f"{where}.effect", EFFECTS)
    severity = (
        reader.choice(fields["severity"], f"{where}.severity", SEVERITIES)
        if "severity" in fields
        else "error"
    )
    cause = reader.required_string(fields["cause"], f"{where}.cause")
    if cause not in CAUSES:
        raise reader.error(fields["cause"], f"{where}.cause", f"unknown cause {cause!r}")
    source_ids = reader.strings(fields["sources"], f"{where}.sources")
    if not source_ids:
        raise reader.error(fields["sources"], f"{where}.sources", "name at least one source")
    for sid in source_ids:
        if sid not in sources:
            raise reader.error(fields["sources"], f"{where}.sources", f"unknown source {sid!r}")
    install = (
        reader.strings(fields["install"], f"{where}.install", _PACKAGE_RE, "package name")
        if "install" in fields
        else ()
    )
    renamed_to, renamed_in, renamed_api = _renamed(reader, node, fields, where, api)
    return Rule(
        id=rid,
        api=api,
        method=method,
        receiver=receiver,
        classes=classes,
        kwarg=reader.optional(fields, "kwarg", f"{where}.kwarg", _NAME_RE),
        path_suffix=_suffixes(reader, fields, "path_suffix", where),
        path_not_suffix=_suffixes(reader, fields, "path_not_suffix", where),
        kind="removed" if removed is not None else "changed",
        release=removed or changed or "",
        effect=effect,
        severity=severity,
        what=_worded(reader, fields["what"], f"{where}.what", words),
        replacement=_worded(reader, fields["replacement"], f"{where}.replacement", words),
        compat=reader.flag(fields, "compat", f"{where}.compat"),
        legacy_keras=reader.flag(fields, "legacy_keras", f"{where}.legacy_keras"),
        install=install,
        unless_installed=reader.optional(
            fields, "unless_installed", f"{where}.unless_installed", _PACKAGE_RE
        ),
        cause=CauseId(cause),
        sources=tuple(sources[sid] for sid in source_ids),
        attribute=attribute,
        kwarg_value=kwarg_value,
        tf1_code=reader.flag(fields, "tf1_code", f"{where}.tf1_code"),
        keras_tensor_arg=reader.flag(fields, "keras_tensor_arg", f"{where}.keras_tensor_arg"),
        arg=int(arg_text) if arg_text is not None else None,
        arg_pattern=arg_pattern,
        until=reader.optional(fields, "until", f"{where}.until", _LINE_RE, "X.Y") or "",
        except_api=(
            reader.strings(fields["except_api"], f"{where}.except_api", _API_RE, "name")
            if "except_api" in fields
            else ()
        ),
        renamed_to=renamed_to,
        renamed_in=renamed_in,
        renamed_api=renamed_api,
    )


def _renamed(
    reader: _Reader, node: Any, fields: Mapping[str, Any], where: str, api: tuple[str, ...]
) -> tuple[Optional[str], str, tuple[str, ...]]:
    """A keyword rule's ``renamed_to``, ``renamed_in`` and ``renamed_api`` (None, "", () where
    the rule gives none): the first two together, only with ``kwarg``, and ``renamed_api`` only
    names the rule's ``api`` lists."""
    renamed_to = reader.optional(fields, "renamed_to", f"{where}.renamed_to", _NAME_RE)
    renamed_in = reader.optional(fields, "renamed_in", f"{where}.renamed_in", _LINE_RE, "X.Y")
    if (renamed_to is None) != (renamed_in is None):
        raise reader.error(node, f"{where}.renamed_to", "give renamed_to and renamed_in together")
    if renamed_to is not None and "kwarg" not in fields:
        raise reader.error(node, f"{where}.renamed_to", "only with kwarg")
    renamed_api = (
        reader.strings(fields["renamed_api"], f"{where}.renamed_api", _API_RE, "name")
        if "renamed_api" in fields
        else ()
    )
    if renamed_api and (renamed_to is None or not set(renamed_api) <= set(api)):
        raise reader.error(
            fields["renamed_api"], f"{where}.renamed_api", "names of api, with renamed_to"
        )
    return renamed_to, renamed_in or "", renamed_api


def _worded(reader: _Reader, node: Any, where: str, words: Mapping[str, str]) -> str:
    """The text at ``node``, each ``{word}`` of ``words`` (a ``methods`` entry's) put in; a
    placeholder in a rule without ``methods`` is an error."""
    text = reader.required_string(node, where)
    if not words:
        left = _PLACEHOLDER.search(text)
        if left is not None:
            raise reader.error(node, where, f"{left.group(0)} only in a rule with methods")
        return text
    return _PLACEHOLDER.sub(lambda found: words[found.group(0)[1:-1]], text)


def _pattern(
    reader: _Reader, fields: Mapping[str, Any], name: str, where: str
) -> Optional[re.Pattern[str]]:
    """The regular expression ``fields[name]``, or None when absent."""
    text = reader.optional(fields, name, f"{where}.{name}")
    if text is None:
        return None
    try:
        return re.compile(text)
    except re.error as exc:
        raise reader.error(fields[name], f"{where}.{name}", str(exc)) from None


def _suffixes(reader: _Reader, fields: Mapping[str, Any], name: str, where: str) -> tuple[str, ...]:
    if name not in fields:
        return ()
    values = reader.strings(fields[name], f"{where}.{name}")
    for value in values:
        if not value.startswith("."):
            raise reader.error(fields[name], f"{where}.{name}", f"{value!r} must start with '.'")
    return values


class _Reader(NodeReader):
    """The shared node reader, with the rules' optional fields (absent: None or False)."""

    def __init__(self, path: str) -> None:
        super().__init__(path, RulesError)

    def optional(
        self,
        fields: Mapping[str, Any],
        name: str,
        where: str,
        pattern: Optional[re.Pattern[str]] = None,
        what: str = "",
    ) -> Optional[str]:
        """The string ``fields[name]``, or None when the field is absent."""
        if name not in fields:
            return None
        return self.required_string(fields[name], where, pattern, what)
