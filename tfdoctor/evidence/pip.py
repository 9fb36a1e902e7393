"""pip's own words when it finds no distribution: what was asked and what it could see.

``Could not find a version that satisfies the requirement tensorflow==2.12.0 (from versions:
2.5.0, ..., 2.11.0)`` says which releases have a wheel for the Python and platform pip runs on;
``(from versions: none)`` says none has. Read from pip's resolver messages
(https://github.com/pypa/pip/blob/23.0/src/pip/_internal/resolution/resolvelib/factory.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Optional

from tfdoctor.records import Record, record

_REFUSAL = re.compile(
    r"Could not find a version that satisfies the requirement "
    r"(?P<dist>[A-Za-z0-9][A-Za-z0-9._-]*)(?P<spec>[^\s(]*)"
    # pip names where the requirement came from first: "(from -r requirements.txt (line 12))".
    r"(?:\s*\((?!from versions)(?:[^()]|\([^()]*\))*\))*\s*\(from versions: ?(?P<versions>[^)]*)\)"
)
_VERSION = re.compile(r"^\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?$")


@record
class PipRefusal(Record):
    """One refusal as pip printed it (observed)."""

    dist: str
    #: The version specifier asked for (``==2.12.0``, ``>=2.16``); empty for any version.
    spec: str
    #: The versions pip could see for this Python and platform; empty for ``none``.
    versions: tuple[str, ...]

    @property
    def final_versions(self) -> tuple[str, ...]:
        """The listed versions without pre-releases."""
        return tuple(v for v in self.versions if re.fullmatch(r"\d+(?:\.\d+)*", v))


def read_refusals(lines: Iterable[str]) -> list[PipRefusal]:
    """Every refusal with a version list among ``lines``."""
    out: list[PipRefusal] = []
    for line in lines:
        match = _REFUSAL.search(line)
        if match is None:
            continue
        words = [w.strip() for w in match.group("versions").split(",")]
        versions = tuple(w for w in words if _VERSION.match(w))
        out.append(PipRefusal(match.group("dist").lower(), match.group("spec"), versions))
    return out


def requested_version(spec: str) -> Optional[str]:
    """The version an ``==X`` specifier pins, else None."""
    match = re.fullmatch(r"===?(\d+(?:\.\d+)*\w*)", spec)
    return match.group(1) if match else None
