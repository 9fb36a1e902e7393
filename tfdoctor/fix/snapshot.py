"""Snapshots of an environment before a fix, the journal of its steps, and the lock.

Under the user's cache directory (:func:`tfdoctor.cache.cache_dir`), ``fix/<KEY>/`` per
environment, ``KEY`` a digest of its prefix: ``lock`` (an ``fcntl`` lock, held while a fix runs)
and one folder per snapshot with ``freeze.txt`` (``pip freeze --all``), ``inspect.json``
(``pip inspect``), ``meta.json`` (interpreter, prefix, the plan's operations) and
``journal.jsonl``, one event a line, each written and synced before the step it announces.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import secrets
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.cache import CACHE_ENV, NO_CACHE_ENV, cache_dir
from tfdoctor.records import Record, record

#: The journal's events that end a fix: after one of them the snapshot needs no recovery.
FINAL_EVENTS = frozenset({"verified", "rolled-back", "restored"})


class SnapshotError(Exception):
    """A snapshot cannot be written, read or found; or another fix holds the lock."""


@record
class Snapshot(Record):
    """One snapshot: where it is, what it was taken of, and how its fix ended."""

    id: str
    path: Path
    interpreter: str
    prefix: str
    created: str
    #: The journal's last event (``begin``, ``step``, ``done``, ``verified``, ...).
    state: str
    #: The distributions the plan's dry runs said it would change (names, normalised).
    touched: tuple[str, ...] = ()
    #: The fix created the environment at ``prefix`` with this (externally managed)
    #: interpreter; restoring it removes the environment. Empty: the fix changed it in place.
    venv_of: str = ""
    #: Where an environment the fix replaced was set aside until the new one held.
    replaced: str = ""

    @property
    def complete(self) -> bool:
        """Whether its fix ended (verified, rolled back, restored): nothing to recover."""
        return self.state in FINAL_EVENTS

    def freeze(self) -> str:
        """The ``pip freeze --all`` taken before the fix."""
        return (self.path / "freeze.txt").read_text(encoding="utf-8")

    def journal(self) -> list[dict[str, Any]]:
        """The journal's events, in order (a line cut short by a kill is left out)."""
        return read_journal(self.path / "journal.jsonl")


def fix_root(env: Optional[Mapping[str, str]] = None) -> Path:
    """Where snapshots live: ``fix/`` in the cache directory, even when caching is off
    (snapshots are not cache entries); SnapshotError when there is no home for them."""
    environ = dict(os.environ if env is None else env)
    environ.pop(NO_CACHE_ENV, None)
    root = cache_dir(environ)
    if root is None:
        raise SnapshotError(f"no directory for snapshots: set ${CACHE_ENV} or $XDG_CACHE_HOME")
    return root / "fix"


def env_dir(prefix: str, env: Optional[Mapping[str, str]] = None) -> Path:
    """The folder of the environment at ``prefix`` (keyed by its real path)."""
    key = hashlib.sha256(os.path.realpath(prefix).encode()).hexdigest()[:16]
    return fix_root(env) / key


@contextlib.contextmanager
def locked(prefix: str, env: Optional[Mapping[str, str]] = None) -> Iterator[int]:
    """Hold the environment's lock, or SnapshotError at once when another fix holds it.

    Yields the lock's descriptor: pip children keep it open, so a pip left running by a killed
    fix still holds the lock (``flock`` locks belong to the open file, man 2 flock).
    """
    try:
        import fcntl  # noqa: PLC0415 - POSIX only
    except ImportError:  # pragma: no cover - Windows
        raise SnapshotError("tfdoctor fix needs POSIX file locks (fcntl)") from None
    directory = env_dir(prefix, env)
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(directory / "lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise SnapshotError(f"cannot create the lock in {directory}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SnapshotError(
                f"another tfdoctor fix (or a pip it started) is changing {prefix} now; "
                "try again when it has finished"
            ) from None
        yield fd
    finally:
        os.close(fd)


def _sync_write(path: Path, text: str) -> None:
    """Write ``path`` whole and durably (a reader after a crash sees all of it or none)."""
    temp = path.with_name(f".{path.name}.tmp")
    with temp.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    temp.replace(path)


def create(
    prefix: str,
    interpreter: str,
    freeze: str,
    inspect: str,
    operations: Sequence[Mapping[str, Any]],
    touched: Sequence[str],
    env: Optional[Mapping[str, str]] = None,
    venv_of: str = "",
    replaced: str = "",
) -> Snapshot:
    """A new snapshot of the environment, its journal opened with ``begin``; ``venv_of``: of
    an environment the fix is about to create (see :class:`Snapshot`)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    sid = now.strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(2)
    path = env_dir(prefix, env) / sid
    created = now.isoformat(timespec="seconds")
    meta = {
        "id": sid,
        "interpreter": interpreter,
        "prefix": prefix,
        "created": created,
        "operations": list(operations),
        "touched": sorted(touched),
        "venv_of": venv_of,
        "replaced": replaced,
    }
    try:
        path.mkdir(mode=0o700, parents=True)
        _sync_write(path / "freeze.txt", freeze)
        _sync_write(path / "inspect.json", inspect)
        _sync_write(path / "meta.json", json.dumps(meta, indent=1) + "\n")
        # The journal last: a snapshot without one never began, and nothing was changed.
        _sync_write(path / "journal.jsonl", "")
    except OSError as exc:
        raise SnapshotError(f"cannot write the snapshot in {path}: {exc.strerror}") from None
    snap = Snapshot(
        sid, path, interpreter, prefix, created, "begin", tuple(touched), venv_of, replaced
    )
    append(snap, "begin")
    return snap


def append(snap: Snapshot, event: str, **fields: Any) -> None:
    """One event at the end of the journal, synced before the caller goes on."""
    line = json.dumps({"event": event, **fields}, sort_keys=True) + "\n"
    try:
        with (snap.path / "journal.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise SnapshotError(f"cannot write the journal of {snap.id}: {exc.strerror}") from None


def read_journal(path: Path) -> list[dict[str, Any]]:
    """The events of a journal file; a line that is not a whole JSON object is left out."""
    events = []
    with contextlib.suppress(OSError):
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError):
                event = json.loads(line)
                if isinstance(event, dict) and isinstance(event.get("event"), str):
                    events.append(event)
    return events


def load(path: Path) -> Optional[Snapshot]:
    """The snapshot in ``path``; None when it never began (no journal) or is unreadable."""
    events = read_journal(path / "journal.jsonl")
    try:
        meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
        if not events or not (path / "freeze.txt").is_file():
            return None
        return Snapshot(
            str(meta["id"]),
            path,
            str(meta["interpreter"]),
            str(meta["prefix"]),
            str(meta["created"]),
            str(events[-1]["event"]),
            tuple(str(n) for n in meta.get("touched", ())),
            str(meta.get("venv_of", "")),
            str(meta.get("replaced", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def snapshots(
    prefix: Optional[str] = None, env: Optional[Mapping[str, str]] = None
) -> list[Snapshot]:
    """Every snapshot (of the environment at ``prefix``, when given), oldest first."""
    root = fix_root(env)
    dirs = [env_dir(prefix, env)] if prefix is not None else sorted(root.glob("*"))
    found = [
        s
        for d in dirs
        if d.is_dir()
        for p in sorted(d.iterdir())
        if p.is_dir()
        for s in (load(p),)
        if s is not None
    ]
    return sorted(found, key=lambda s: s.id)


def find(sid: str, env: Optional[Mapping[str, str]] = None) -> Snapshot:
    """The snapshot called ``sid`` (or the one starting with it); SnapshotError when none."""
    matches = [s for s in snapshots(env=env) if s.id == sid] or [
        s for s in snapshots(env=env) if s.id.startswith(sid)
    ]
    if len(matches) != 1:
        how = "no snapshot" if not matches else "more than one snapshot"
        raise SnapshotError(f"{how} called {sid} (tfdoctor fix --list shows them)")
    return matches[0]
