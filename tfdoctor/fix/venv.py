"""The virtual environment that takes an externally managed Python's fix: where it goes,
creating it (and a scratch one for pip's dry run), whether a path may take it, and removing
it again on a rollback."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Optional

from tfdoctor.fix import snapshot
from tfdoctor.fix.pip import PIP_TIMEOUT, pip_env
from tfdoctor.fix.snapshot import Snapshot

#: The default folder's name below the data directory; the Python's X.Y is appended, as a
#: virtual environment belongs to one interpreter (https://docs.python.org/3/library/venv.html).
DEFAULT_NAME = "tensorflow-py"


class VenvError(Exception):
    """A virtual environment cannot be created, replaced or removed."""


def default_path(python_version: str, env: Optional[Mapping[str, str]] = None) -> Path:
    """Where a new environment goes without ``--venv``: ``tfdoctor/venvs/tensorflow-pyX.Y``
    in the user's data directory (``$XDG_DATA_HOME``, else ``~/.local/share``;
    https://specifications.freedesktop.org/basedir-spec/latest/), as pipx keeps its venvs.

    Not the working directory: the same Python's next fix finds the environment (and the
    journal that lets it be replaced) wherever it runs, and nothing lands in a project's tree.
    VenvError when there is no home to put it in.
    """
    environ = os.environ if env is None else env
    xy = ".".join(python_version.split(".")[:2])
    xdg = environ.get("XDG_DATA_HOME", "")
    # A relative XDG path is invalid by the specification: ignored, as it says.
    if xdg and Path(xdg).is_absolute():
        base = Path(xdg)
    else:
        home = environ.get("HOME", "")
        if not home or not Path(home).is_absolute():
            raise VenvError("no home directory for the new environment: give --venv PATH")
        base = Path(home) / ".local" / "share"
    return base / "tfdoctor" / "venvs" / f"{DEFAULT_NAME}{xy}"


def occupied(path: str) -> bool:
    """Whether ``path`` holds anything (a file, or a folder that is not empty)."""
    folder = Path(path)
    if not folder.is_symlink() and not folder.exists():
        return False
    if folder.is_symlink() or not folder.is_dir():
        return True
    try:
        return any(True for _ in folder.iterdir())
    except OSError:
        return True  # unreadable: not known to be empty


def made_here(path: str) -> bool:
    """Whether ``path`` is the environment an earlier ``tfdoctor fix`` created and verified
    (its newest snapshot says so)."""
    found = snapshot.snapshots(path)
    return bool(found) and bool(found[-1].venv_of) and found[-1].state == "verified"


def create(base: str, path: str, keep_fds: Sequence[int] = ()) -> None:
    """``BASE -m venv PATH`` (with pip, from the interpreter's own ensurepip); VenvError with
    its last words when it fails."""
    try:
        done = subprocess.run(
            [base, "-m", "venv", path],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=PIP_TIMEOUT,
            env=pip_env(),
            pass_fds=tuple(keep_fds),
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise VenvError(f"{base} -m venv {path} did not run: {exc}") from None
    if done.returncode != 0:
        tail = " ".join(done.stderr.strip().splitlines()[-2:])
        # Debian and Ubuntu ship ensurepip (which venv needs for pip) in a separate package.
        hint = " (Debian and Ubuntu: sudo apt install python3-venv)" if "ensurepip" in tail else ""
        raise VenvError(f"{base} -m venv failed (exit {done.returncode}): {tail}{hint}")


@contextlib.contextmanager
def scratch(base: str) -> Iterator[str]:
    """A new environment of ``base`` in a temporary folder, removed after; its interpreter.

    pip's dry run for a new environment runs there: same interpreter, same markers, nothing
    installed, and nothing of the user's touched.
    """
    with tempfile.TemporaryDirectory(prefix="tfdoctor-venv-") as folder:
        path = Path(folder) / "venv"
        create(base, str(path))
        yield str(path / "bin" / "python")


def _remove(path: Path) -> None:
    """``path`` gone, whatever it is."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def set_aside(path: str, aside: str) -> None:
    """The environment at ``path`` moved to ``aside`` (a rename: same folder)."""
    try:
        Path(path).rename(aside)
    except OSError as exc:
        raise VenvError(f"cannot move {path} aside: {exc.strerror}") from None


def discard(aside: str) -> None:
    """The environment set aside, no longer needed (the new one holds)."""
    with contextlib.suppress(OSError):
        _remove(Path(aside))


def remove_created(snap: Snapshot) -> str:
    """Undo a fix that created an environment: remove it, and put back the environment it
    replaced if that is still set aside. Empty when done, else why not.

    Only what the journal says tfdoctor made is removed: a fix killed before ``create``
    created nothing.
    """
    path = Path(snap.prefix)
    created = any(e["event"] == "create" for e in snap.journal())
    aside = Path(snap.replaced) if snap.replaced else None
    try:
        if aside is not None and aside.exists():
            _remove(path)
            aside.rename(path)
        elif created:
            _remove(path)
    except OSError as exc:
        return f"cannot remove {path}: {exc.strerror}"
    return ""
