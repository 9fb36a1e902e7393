"""``tfdoctor bundle``: one archive for a bug report, redacted, bounded, written atomically.

The command gathers the members (the report and the pins, from one collection of facts; the
smoke test, the libraries, ``pip inspect``, a run's log); this module redacts every one of
them, caps each, writes a README that lists them, and puts them in a ``.tar.gz`` or ``.zip``
all at once or not at all. ``pip inspect`` runs as ``tfdoctor fix`` runs pip
(:func:`tfdoctor.fix.pip.run_pip`).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from tfdoctor.facts import Facts
from tfdoctor.fix.pip import PipError, run_pip
from tfdoctor.records import Record, record
from tfdoctor.redact import MASK, Redactor, environment_secrets

#: Bytes kept of one member: a bug report needs the beginning of a long log or listing, and
#: an archive that mail and issue trackers accept (GitHub takes attachments up to 25 MB).
MEMBER_LIMIT = 1 << 20
#: Seconds ``pip inspect`` may take.
PIP_TIMEOUT = 60.0
#: The folder every member sits in inside the archive.
TOP = "tfdoctor-bundle"
#: Archive kinds by the output file's ending.
SUFFIXES = (".tar.gz", ".tgz", ".zip")


class BundleError(Exception):
    """The bundle cannot be written where asked; the message says why, in one line."""


@record
class Member(Record):
    """One file of the bundle: its name, its text, and one line for the README."""

    name: str
    text: str
    about: str


def check_output(path: str) -> None:
    """Refuse, before anything runs, an output the archive cannot be written to."""
    if not path.endswith(SUFFIXES):
        raise BundleError(f"{path}: the bundle's name must end in {', '.join(SUFFIXES)}")
    target = Path(path)
    if target.is_dir():
        raise BundleError(f"{path}: is a directory")
    folder = target.parent
    if not folder.is_dir():
        raise BundleError(f"cannot write {path}: no directory {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BundleError(f"cannot write {path}: {folder} is not writable")


def read_pip_inspect(python: str) -> tuple[Optional[Any], str]:
    """``pip inspect --local`` of ``python`` as JSON (pip 22.2 or newer); else None and why.

    ``--local``: a virtual environment's own packages, not those of the interpreter it was
    made from (https://pip.pypa.io/en/stable/cli/pip_inspect/).
    """
    try:
        text = run_pip(python, ["inspect", "--local"], PIP_TIMEOUT)
    except PipError as exc:
        return None, str(exc)
    try:
        return json.loads(text), ""
    except ValueError as exc:
        return None, f"pip inspect printed no JSON: {exc}"


def library_lines(facts: Facts) -> str:
    """The CUDA libraries TensorFlow loads (the loader's pick for each) and what its build names."""
    libs = facts.cuda_libs
    if libs is None:
        return "The CUDA libraries were not probed.\n"
    lines = [f"CUDA {libs.cuda_major or 'unknown'}, cuDNN {libs.cudnn_major or 'unknown'}", ""]
    for lib in libs.libraries:
        if lib.selected is None:
            lines.append(f"{lib.name}: not found ({', '.join(lib.sonames)})")
            continue
        chosen = lib.candidates[lib.selected]
        version = f" {chosen.version}" if chosen.version else ""
        lines.append(f"{lib.name}{version}: {chosen.path} (from {chosen.origin})")
    if libs.named_libraries is not None:
        lines += ["", "named by TensorFlow's shared objects: " + ", ".join(libs.named_libraries)]
    if libs.runpath:
        lines += [f"RUNPATH of {libs.runpath_object or 'TensorFlow'}:", *libs.runpath]
    return "\n".join(lines) + "\n"


def _redacted(text: str, redactor: Redactor, secrets: Sequence[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, MASK)
    return redactor.text(text)


def _capped(text: str) -> tuple[bytes, Optional[int]]:
    """The member's bytes, at most :data:`MEMBER_LIMIT`, cut after a whole line; and its
    full size when it was cut."""
    data = text.encode("utf-8")
    if len(data) <= MEMBER_LIMIT:
        return data, None
    cut = data.rfind(b"\n", 0, MEMBER_LIMIT)
    return data[: cut + 1 if cut > 0 else MEMBER_LIMIT], len(data)


def _readme(
    entries: Sequence[tuple[Member, int, Optional[int]]], notes: Sequence[str], header: str
) -> str:
    lines = [header, "", "Contents:"]
    for member, size, full in entries:
        cut = f"; TRUNCATED to the first {size} of {full} bytes" if full is not None else ""
        lines.append(f"  {member.name} ({size} bytes{cut}): {member.about}")
    if notes:
        lines += ["", "Not included:", *(f"  {note}" for note in notes)]
    lines += [
        "",
        "Every file was redacted: tokens, passwords (also in URLs), values of variables named",
        "like *_TOKEN or *_KEY, home directories, the host name and GPU UUIDs are replaced",
        f"(by {MASK}, ~ or <hostname>). Each file is cut at {MEMBER_LIMIT} bytes.",
    ]
    return "\n".join(lines) + "\n"


def write_bundle(
    path: str,
    members: Sequence[Member],
    notes: Sequence[str],
    header: str,
    *,
    redactor: Redactor,
    environ: Mapping[str, str],
) -> tuple[str, ...]:
    """Write the archive at ``path`` atomically: README.txt, then ``members``, redacted and
    capped; ``notes`` say what was left out and why. The names written, README first."""
    secrets = environment_secrets(environ)
    entries = []
    for member in members:
        data, full = _capped(_redacted(member.text, redactor, secrets))
        entries.append((member, data, full))
    readme = _readme(
        [(m, len(d), full) for m, d, full in entries],
        [_redacted(n, redactor, secrets) for n in notes],
        _redacted(header, redactor, secrets),
    )
    files = [("README.txt", readme.encode("utf-8"))] + [(m.name, d) for m, d, _ in entries]
    _write_atomically(path, files)
    return tuple(name for name, _ in files)


def _write_atomically(path: str, files: Sequence[tuple[str, bytes]]) -> None:
    """The archive to a temporary file beside ``path``, then renamed over it
    (https://docs.python.org/3/library/os.html#os.replace); nothing is left on failure."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise BundleError(f"cannot write {path}: {exc.strerror or exc}") from None
    now = time.time()
    try:
        with os.fdopen(fd, "wb") as handle:
            if path.endswith(".zip"):
                with zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as archive:
                    for name, data in files:
                        entry = zipfile.ZipInfo(f"{TOP}/{name}", time.localtime(now)[:6])
                        entry.compress_type = zipfile.ZIP_DEFLATED
                        entry.external_attr = 0o644 << 16
                        archive.writestr(entry, data)
            else:
                with tarfile.open(fileobj=handle, mode="w:gz") as archive:
                    for name, data in files:
                        info = tarfile.TarInfo(f"{TOP}/{name}")
                        info.size, info.mtime, info.mode = len(data), int(now), 0o644
                        archive.addfile(info, io.BytesIO(data))
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).replace(target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise BundleError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise
