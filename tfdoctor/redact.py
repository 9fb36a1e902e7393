"""Redaction of secrets (always) and of identifying details (private mode) in rendered output.

Facts keep what the probes saw; redaction happens only when a report is rendered, so a
replayed facts file still holds the truth. Every format removes tokens and passwords, and
every format but JSON (which escapes them its own way) writes control characters as visible
escapes (:func:`visible`); private mode (the paste-ready markdown) also removes home
directories, the hostname and GPU UUIDs. Redaction only rewrites string values (never
finding or check ids), so a redacted tree keeps its structure, its keys and its types.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import socket
from collections.abc import Mapping
from pathlib import Path
from re import Pattern
from typing import Any, Callable, TypeVar, Union

from tfdoctor.findings import Finding
from tfdoctor.records import Record, record

T = TypeVar("T")

#: What a redacted value reads as: fixed, so the length of the secret does not leak.
MASK = "***"

# Environment variable and parameter names that hold secrets (HF_TOKEN, AWS_SECRET_ACCESS_KEY,
# WANDB_API_KEY, GITHUB_TOKEN, PGPASSWORD ...). A substring match over-redacts a little
# (KEYBOARD_LAYOUT) and that is the cheap side to err on.
_SECRET_NAME = re.compile(
    r"TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|KEY|CREDENTIAL|AUTH|PRIVATE", re.IGNORECASE
)

_Replacement = Union[str, Callable[["re.Match[str]"], str]]

# scheme://user:password@host (pip index URLs, proxies): the password is group 3.
# A scheme is at most 32 characters (every registered one is shorter): each start, at any
# word boundary (pip's "-ihttps://..." included), reads a bounded run, not a whole dotted word.
_URL_CREDENTIALS = re.compile(r"\b([A-Za-z][A-Za-z0-9+.-]{0,31}://)([^\s:/@?#]*):([^\s@/?#]+)@")
#: Secret values shorter than this are not searched for in the text (too many false hits).
_MIN_SECRET = 6

# Credentials whose shape gives them away wherever they appear. Prefixes are kept so a
# reader still sees which kind of credential was there.
_ALWAYS: tuple[tuple[Pattern[str], _Replacement], ...] = (
    # PEM private keys pasted into a variable or a log.
    (
        re.compile(
            # The body stops at the next BEGIN: a text of many unclosed keys stays linear.
            r"-----BEGIN ([A-Z ]*)PRIVATE KEY-----(?:(?!-----BEGIN ).)*?"
            r"-----END [A-Z ]*PRIVATE KEY-----",
            re.DOTALL,
        ),
        r"-----BEGIN \1PRIVATE KEY-----***-----END \1PRIVATE KEY-----",
    ),
    # scheme://user:password@host -> scheme://user:***@host.
    (_URL_CREDENTIALS, r"\1\2:" + MASK + "@"),
    # HTTP authorization headers and bearer tokens.
    (
        re.compile(r"(?i)\b(authorization\s*[:=]\s*)(?:(?:bearer|basic|token)\s+)?\S+"),
        r"\1" + MASK,
    ),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/-]{8,}=*"), r"\1" + MASK),
    # GitHub personal access, OAuth, user-to-server, server-to-server and refresh tokens.
    (re.compile(r"\b(gh[pousr]_)[A-Za-z0-9]{20,}\b"), r"\1" + MASK),
    (re.compile(r"\b(github_pat_)[A-Za-z0-9_]{20,}\b"), r"\1" + MASK),
    # GitLab personal access tokens.
    (re.compile(r"\b(glpat-)[A-Za-z0-9_-]{20,}"), r"\1" + MASK),
    # Hugging Face user access tokens: "hf_" and 34 letters.
    (re.compile(r"\b(hf_)[A-Za-z0-9]{30,}\b"), r"\1" + MASK),
    # AWS access key ids (long-term AKIA, temporary ASIA).
    (re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"), r"\1" + MASK),
    # OpenAI-style and Anthropic API keys.
    (re.compile(r"\b(sk-)[A-Za-z0-9_-]{20,}"), r"\1" + MASK),
    # Google API keys.
    (re.compile(r"\b(AIza)[0-9A-Za-z_-]{35}"), r"\1" + MASK),
    # Slack tokens.
    (re.compile(r"\b(xox[abprs]-)[A-Za-z0-9-]{10,}"), r"\1" + MASK),
    # NAME=value where the name says secret: HF_TOKEN=..., ?password=..., --api-key=...
    # The name is a whole run of name characters (options' dashes, a leading digit or dot
    # included; _SECRET_NAME decides), starting only where no such character precedes it, so a
    # long run ("a-a-a-...") is scanned once, not once from each of its letters.
    (
        re.compile(r"(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)(=)([^\s&\"',;]+)"),
        lambda m: f"{m.group(1)}={MASK}" if _SECRET_NAME.search(m.group(1)) else m.group(0),
    ),
)


def _scoped(pattern: Pattern[str]) -> str:
    """``pattern``'s source with its flags scoped to it, to join it in one alternation."""
    source = pattern.pattern.removeprefix("(?i)")
    flags = ("i" if pattern.flags & re.IGNORECASE else "") + (
        "s" if pattern.flags & re.DOTALL else ""
    )
    return f"(?{flags}:{source})" if flags else f"(?:{source})"


# Control characters: what a terminal or a CI runner acts on instead of showing. The C0 set
# but tab and line end (a BEL, a backspace that hides what precedes it, a carriage return
# that redraws the line, ESC that starts a sequence), DEL, and the C1 set (U+0080-U+009F),
# which terminals such as xterm take as escapes too: U+009B is CSI, U+009D OSC (ECMA-48
# 5.3, 8.3.16). A log line, a file name or a package's metadata can hold any of them.
# Windows' line end is a line end. Lone surrogates (U+D800-U+DFFF) are no characters at all:
# Python makes them of bytes that are not UTF-8 in a file name (PEP 383) and json reads them
# from "\udcff", and no UTF-8 file or stream can be written with one.
_CONTROL = re.compile("\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    if char == "\r\n":
        return "\n"
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with each control character and lone surrogate written as its escape
    (``\\x1b``, ``\\udcff``) and Windows' line ends as ``\\n``, so that printing a report can
    neither move the cursor nor change the terminal, and any UTF-8 output can hold it."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(_escaped, text)


# Any of _ALWAYS, in one pass: most strings of a report (versions, names, paths) hold no
# credential, and one search tells them from the rest faster than a substitution per rule.
_ANY_ALWAYS = re.compile("|".join(_scoped(pattern) for pattern, _ in _ALWAYS))

# GPU and MIG instance UUIDs as NVML and nvidia-smi print them (GPU-<uuid>, MIG-<uuid>,
# and the older MIG-GPU-<uuid>/<gi>/<ci>, whose GPU part the first alternative covers).
_GPU_UUID = re.compile(r"\b(GPU|MIG)-[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}\b")
# Characters that end a path component in the text we render.
_PATH_END = r"(?=[/\\\s:;,'\"()\[\]<>|=]|$)"
_HOME_PATTERNS: tuple[tuple[Pattern[str], str], ...] = (
    (re.compile(r"(?<![\w.~-])/home/[^/\\\s:;,'\"()\[\]<>|=]+" + _PATH_END), "~"),
    (re.compile(r"(?<![\w.~-])/Users/[^/\\\s:;,'\"()\[\]<>|=]+" + _PATH_END), "~"),
    (re.compile(r"\b[A-Za-z]:[\\/]+Users[\\/]+[^/\\\s:;,'\"()\[\]<>|=]+" + _PATH_END), "~"),
)


def is_secret_name(name: str) -> bool:
    """Whether an environment variable or parameter called ``name`` holds a secret."""
    return _SECRET_NAME.search(name) is not None


def environment_secrets(environ: Mapping[str, str]) -> tuple[str, ...]:
    """Values this environment holds secret: of variables named so, and passwords in URLs,
    longest first.

    Masked wherever they appear, in any shape: a log may print a token the patterns miss.
    """
    found = set()
    for name, value in environ.items():
        if is_secret_name(name):
            found.add(value)
        found.update(m.group(3) for m in _URL_CREDENTIALS.finditer(value))
    return tuple(sorted((s for s in found if len(s) >= _MIN_SECRET), key=len, reverse=True))


# Fields that name things rather than describe the machine: finding and check ids are stable
# identifiers scripts match on, and a hostname such as "gpu" must not turn ``gpu.visible``
# into ``<hostname>.visible``.
_NEVER_REDACTED: dict[type, frozenset[str]] = {Finding: frozenset({"id", "check"})}


@record
class Redactor(Record):
    """Redaction rules bound to one machine's home directory and hostname."""

    private: bool
    home: str = ""
    hostname: str = ""
    #: Whether control characters are made :func:`visible`: for every format but JSON, which
    #: escapes them itself (``\u001b``) and whose values a script or a replay reads back.
    controls: bool = True
    # The private rules for this home and hostname, compiled once rather than per string.
    _private_rules: tuple[tuple[Pattern[str], _Replacement], ...] = dataclasses.field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        """Compile the rules that depend on this machine's home directory and hostname."""
        rules: list[tuple[Pattern[str], _Replacement]] = [
            (_GPU_UUID, lambda m: f"{m.group(1)}-{MASK}")
        ]
        # The real home first: it covers homes outside /home (/root, /var/lib/jenkins).
        if len(self.home) > 1:
            rules.append((re.compile(r"(?<![\w.~-])" + re.escape(self.home) + _PATH_END), "~"))
        rules += _HOME_PATTERNS
        forms = _hostname_forms(self.hostname)
        if forms:
            # Longest form first, so the full name wins over its first label.
            names = "|".join(re.escape(name) for name in forms)
            rules.append(
                (re.compile(r"(?<![A-Za-z0-9-])(?:" + names + r")(?![A-Za-z0-9-])"), "<hostname>")
            )
        # Frozen: the cache is set the way dataclasses itself sets fields of frozen instances.
        object.__setattr__(self, "_private_rules", tuple(rules))

    @classmethod
    def for_this_machine(cls, *, private: bool) -> Redactor:
        """A redactor that knows the current user's home directory and this hostname."""
        if not private:
            return cls(private=False)
        return cls(private=True, home=_current_home(), hostname=_current_hostname())

    def text(self, text: str) -> str:
        """``text`` with secrets (and, when private, identifying details) replaced, and its
        control characters made :func:`visible` (unless ``controls`` is off)."""
        if self.controls:
            text = visible(text)
        if _ANY_ALWAYS.search(text):
            for pattern, repl in _ALWAYS:
                text = pattern.sub(repl, text)
        if self.private:
            for pattern, repl in self._private_rules:
                text = pattern.sub(repl, text)
        return text

    def tree(self, obj: T) -> T:
        """``obj`` (JSON values or frozen dataclasses) with every string redacted.

        Dictionary keys stay as they are; a string value under a secret-looking key
        (``HF_TOKEN``) is masked whole. Numbers, booleans, None and enums pass through, so
        the structure and the types survive. Finding and check ids are kept verbatim.
        """
        return self._tree(obj)  # type: ignore[no-any-return]

    def _tree(self, obj: Any) -> Any:
        if isinstance(obj, enum.Enum):
            return obj
        if isinstance(obj, str):
            return self.text(obj)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            keep = _NEVER_REDACTED.get(type(obj), frozenset())
            changes = {
                f.name: self._tree(getattr(obj, f.name))
                for f in dataclasses.fields(obj)
                if f.init and f.name not in keep
            }
            return dataclasses.replace(obj, **changes)
        if isinstance(obj, dict):
            return {
                key: MASK
                if isinstance(key, str) and isinstance(value, str) and is_secret_name(key)
                else self._tree(value)
                for key, value in obj.items()
            }
        if isinstance(obj, tuple):
            return tuple(self._tree(v) for v in obj)
        if isinstance(obj, list):
            return [self._tree(v) for v in obj]
        return obj


def _hostname_forms(hostname: str) -> tuple[str, ...]:
    # Short names are ordinary words too often ("pc", "vm"); below three characters a
    # replacement would do more harm than the name does.
    forms = {hostname, hostname.split(".", 1)[0]}
    return tuple(sorted((f for f in forms if len(f) >= 3), key=len, reverse=True))


def _current_home() -> str:
    try:
        return str(Path.home())
    except (RuntimeError, KeyError):  # no HOME and no passwd entry (bare containers)
        return ""


def _current_hostname() -> str:
    try:
        return socket.gethostname()
    except OSError:
        return ""
