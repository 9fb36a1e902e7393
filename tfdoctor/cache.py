"""tfdoctor's cache: results that are pure functions of files, kept between runs.

Each entry is a file named by its kind and a digest of everything it depends on (file bytes,
the code that made it, this Python's version), so a changed input never meets an old entry.
An entry is read only if it is this user's own regular file and writable by no one else;
writes are atomic and best effort (a read-only or missing home costs only the work the
entry would have saved). This module imports nothing from the package.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import types
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Optional

#: Where entries are kept (default: the platform's user cache directory).
CACHE_ENV = "TFDOCTOR_CACHE_DIR"
#: Set (to anything but empty or ``0``) to neither read nor write the cache.
NO_CACHE_ENV = "TFDOCTOR_NO_CACHE"
#: Entries kept per kind; older ones (another matrix, an earlier release) go.
CACHE_KEEP = 8


def cache_dir(env: Optional[Mapping[str, str]] = None) -> Optional[Path]:
    """The cache directory; None when caching is off or has no home.

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


def code_of(module_name: str) -> Optional[tuple[bytes, ...]]:
    """The source of ``module_name`` and of every module of its package it reaches.

    A cached value is a function of the code that made it: the reader, and whatever the reader
    calls or builds its values from (a validating base class, the record types). This follows
    the module's globals -- modules, classes and functions -- to every module of the same
    top-level package, transitively, so a change in any of them is a changed key. None when a
    module's source cannot be read (nothing is cached then).
    """
    package = module_name.partition(".")[0]
    todo, seen = [module_name], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        module = sys.modules.get(name)
        if module is None:
            return None
        for value in vars(module).values():
            owner = value.__name__ if isinstance(value, types.ModuleType) else None
            owner = owner or getattr(value, "__module__", None)
            if isinstance(owner, str) and owner.partition(".")[0] == package:
                todo.append(owner)
    parts = []
    for name in sorted(seen):
        source = getattr(sys.modules[name], "__file__", None)
        try:
            parts.append(name.encode() + b"\0" + Path(source).read_bytes() if source else b"")
        except OSError:
            return None
    return tuple(parts)


def entry_path(
    kind: str, parts: Iterable[bytes], suffix: str, env: Optional[Mapping[str, str]] = None
) -> Optional[Path]:
    """The entry of ``kind`` for these ``parts`` (each hashed with its length, so no two
    different lists give the same digest); None when caching is off."""
    directory = cache_dir(env)
    if directory is None:
        return None
    digest = hashlib.sha256()
    for part in (*parts, sys.version.encode()):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return directory / f"{kind}-{digest.hexdigest()[:40]}{suffix}"


def _trusted(stats: os.stat_result) -> bool:
    """This user's own regular file, writable by no one else (POSIX; Windows has no modes)."""
    if not stat.S_ISREG(stats.st_mode):
        return False
    if sys.platform == "win32":
        return True
    return stats.st_uid == os.getuid() and not stats.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read_entry(entry: Path) -> Optional[bytes]:
    """The entry's bytes if it exists and can be trusted; None for anything else."""
    try:
        with entry.open("rb") as handle:
            if not _trusted(os.fstat(handle.fileno())):
                return None
            return handle.read()
    except OSError:
        return None


def write_entry(entry: Path, data: bytes) -> None:
    """Write ``entry`` atomically (a reader sees all of it or nothing); prune old ones of
    its kind. Best effort: nothing is raised."""
    with contextlib.suppress(Exception):
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        import tempfile  # noqa: PLC0415 - only a miss writes

        fd, name = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-", suffix=entry.suffix)
        temp = Path(name)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            temp.replace(entry)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        kind = entry.name.rsplit("-", 1)[0]
        kept = sorted(
            entry.parent.glob(f"{kind}-*{entry.suffix}"),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
        for old in kept[CACHE_KEEP:]:
            old.unlink()
