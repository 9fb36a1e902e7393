"""Reading the package's YAML data files (the matrix, log signatures, scan rules) as composed
nodes, with one-line ``FILE:LINE: message`` errors; each file's own reader validates the rest.

:func:`load_cached` keeps what a reader validated, keyed by the file's bytes and the reader's
own code, so that a command that starts often (``check --static`` in a container's start, CI)
does not parse and validate the same YAML on every start.

This module imports nothing from the package.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Optional, TypeVar

T = TypeVar("T")

#: Where validated data files are kept (default: the platform's user cache directory).
CACHE_ENV = "TFDOCTOR_CACHE_DIR"
#: Set (to anything but empty or ``0``) to neither read nor write the cache.
NO_CACHE_ENV = "TFDOCTOR_NO_CACHE"
#: Cached documents kept per kind; older ones (another matrix, an earlier release) go.
CACHE_KEEP = 8


def read_document(path: str, noun: str, error: type[Exception]) -> str:
    """The text of ``path``, or ``error("PATH: cannot read the NOUN: reason")``."""
    return _decode(_read_bytes(path, noun, error), path, noun, error)


def _read_bytes(path: str, noun: str, error: type[Exception]) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise error(f"{path}: cannot read the {noun}: {exc.strerror or exc}") from None


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


def cache_dir(env: Optional[Mapping[str, str]] = None) -> Optional[Path]:
    """The directory of validated documents; None when caching is off or has no home.

    ``$TFDOCTOR_CACHE_DIR``, else the XDG cache directory (``$XDG_CACHE_HOME``, else
    ``~/.cache``; https://specifications.freedesktop.org/basedir-spec/latest/), else on
    Windows ``%LOCALAPPDATA%``, each with ``tfdoctor`` below it.
    """
    environ = os.environ if env is None else env
    if environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    if environ.get(CACHE_ENV):
        return Path(environ[CACHE_ENV])
    if sys.platform == "win32" and environ.get("LOCALAPPDATA"):
        return Path(environ["LOCALAPPDATA"]) / "tfdoctor" / "cache"
    xdg = environ.get("XDG_CACHE_HOME", "")
    # A relative XDG path is invalid by the specification: ignored, as it says.
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "tfdoctor"
    home = environ.get("HOME", "")
    return Path(home) / ".cache" / "tfdoctor" if home and Path(home).is_absolute() else None


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
    of ``parse``'s module (where its types are defined too) and this Python's version: a
    changed file or reader never meets an old entry. An entry is used only if it is this
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
    directory = cache_dir(env)
    module = sys.modules.get(getattr(parse, "__module__", ""), None)
    source = getattr(module, "__file__", None)
    if directory is None or not source:
        return None
    try:
        code = Path(source).read_bytes()
    except OSError:
        return None
    digest = hashlib.sha256()
    for part in (raw, path.encode(), code, sys.version.encode()):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return directory / f"{noun}-{digest.hexdigest()[:40]}.pickle"


def _trusted(stats: os.stat_result) -> bool:
    """This user's own regular file, writable by no one else (POSIX; Windows has no modes)."""
    if not stat.S_ISREG(stats.st_mode):
        return False
    if sys.platform == "win32":
        return True
    return stats.st_uid == os.getuid() and not stats.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read_entry(entry: Path, kind: type[T]) -> Optional[T]:
    try:
        with entry.open("rb") as handle:
            if not _trusted(os.fstat(handle.fileno())):
                return None
            # Safe to unpickle: the file is this user's own and no one else can write it.
            value = pickle.load(handle)
    except Exception:  # a torn, foreign or stale entry is a miss, never an error
        return None
    return value if isinstance(value, kind) else None


def _write_entry(entry: Path, value: object) -> None:
    """Write ``entry`` atomically (a reader sees all of it or nothing); prune old ones."""
    with contextlib.suppress(Exception):  # best effort: an unwritable cache costs a parse
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        import tempfile  # noqa: PLC0415 - only a miss writes

        fd, name = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-", suffix=".pickle")
        temp = Path(name)
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            temp.replace(entry)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        noun = entry.name.rsplit("-", 1)[0]
        kept = sorted(
            entry.parent.glob(f"{noun}-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True
        )
        for old in kept[CACHE_KEEP:]:
            old.unlink()
