"""The Debian packages a log shows installed, read from ``dpkg -l``'s rows.

dpkg-query's list format (``dpkg -l``) prints one row a package: the desired and current
state letters (``ii``: install wanted, installed), the name (with ``:arch`` for a package of
a multi-arch system), the version, the architecture and the description.
https://manpages.debian.org/bookworm/dpkg/dpkg-query.1.en.html

A shared library's package is named after its soname (``libfoo.so.1`` in ``libfoo1``, a
variant's suffix after it): Debian Policy 8.1,
https://www.debian.org/doc/debian-policy/ch-sharedlibs.html#run-time-shared-libraries
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

#: One row of ``dpkg -l``: an installed package (``ii``), its name and version.
_ROW = re.compile(
    r"^[ \t]*ii[ \t]+(?P<name>[a-z0-9][a-z0-9+.-]{0,100})(?::[a-z0-9_-]{1,20})?[ \t]+"
    r"(?P<version>[0-9][\w.+~:-]{0,100})[ \t]+\S+",
    re.MULTILINE,
)


def dpkg_installed(text: str) -> tuple[tuple[str, str], ...]:
    """The (name, version) of each package ``dpkg -l``'s rows in ``text`` show installed, in
    the log's order, each once."""
    return tuple(dict.fromkeys((m.group("name"), m.group("version")) for m in _ROW.finditer(text)))


def library_packages(library: str, installed: Sequence[tuple[str, str]]) -> list[str]:
    """The installed packages (``name version``) named after the shared library at ``library``
    as Debian names a library's package: its name before ``.so``, then the soname's version
    and any variant's suffix (``libedgetpu.so.1.0``: ``libedgetpu1-std``, ``libedgetpu1-max``)."""
    stem = PurePosixPath(library).name.partition(".so")[0]
    if not stem.startswith("lib") or len(stem) < 4:
        return []
    named = re.compile(re.escape(stem.lower()) + r"(?:\d[a-z0-9+.-]*)?")
    return [f"{name} {version}" for name, version in installed if named.fullmatch(name)]


#: One row of ``apt list --installed``: ``name/suites version arch [installed...]`` (apt's
#: list command, apt-private/private-list.cc: the package, its archives after a slash, the
#: version, the architecture, then its state in brackets).
#: https://manpages.debian.org/bookworm/apt/apt.8.en.html
_APT_ROW = re.compile(
    r"^[ \t]*(?P<name>[a-z0-9][a-z0-9+.-]{0,100})/[\w.,/-]{1,200}[ \t]+"
    r"(?P<version>[0-9][\w.+~:-]{0,100})[ \t]+\S+[ \t]+\[installed",
    re.MULTILINE,
)


def apt_installed(text: str) -> tuple[tuple[str, str], ...]:
    """The (name, version) of each package ``apt list --installed``'s rows in ``text`` show
    installed, in the log's order, each once."""
    if "[installed" not in text:
        return ()
    return tuple(
        dict.fromkeys((m.group("name"), m.group("version")) for m in _APT_ROW.finditer(text))
    )
