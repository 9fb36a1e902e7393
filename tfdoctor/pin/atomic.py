"""Write a file all at once or not at all: a temporary file beside it, then a rename.

A rename (``os.replace``) within one directory is atomic on POSIX and Windows
(https://docs.python.org/3/library/os.html#os.replace), so a reader sees the old file or the
new one, never half of either; on any failure the old file is left as it was.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Union


def write_atomic(path: Union[str, Path], chunks: Union[str, Iterable[str]]) -> None:
    """Write ``chunks`` (text, or pieces produced while writing) to ``path`` atomically.

    Any exception (from producing a chunk, encoding it, the disk, or the final rename)
    propagates after the temporary file is removed; an existing ``path`` is untouched.

    A symlink is followed: the file it points to is replaced, and the link stays. A path
    that is something else than a regular file (a FIFO, a device, a directory) is refused
    with :class:`OSError`, since a rename would put a regular file in its place.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise OSError("not a regular file")
    pieces = [chunks] if isinstance(chunks, str) else chunks
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            for piece in pieces:
                handle.write(piece)
            handle.flush()
            os.fsync(handle.fileno())
        _keep_mode(target, tmp)
        Path(tmp).replace(target)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise


def _keep_mode(target: Path, tmp: str) -> None:
    """Give the new file the old one's permissions (mkstemp creates it 0600), else 0644."""
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    Path(tmp).chmod(mode)
