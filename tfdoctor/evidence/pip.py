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


#: Refusals kept per log.
MAX_REFUSALS = 20


def read_refusals(texts: Iterable[str]) -> list[PipRefusal]:
    """Every refusal with a version list in ``texts`` (a terminal may wrap the list over
    several lines: it is read up to its closing parenthesis)."""
    out: list[PipRefusal] = []
    for text in texts:
        if "Could not find a version" not in text:
            continue
        for match in _REFUSAL.finditer(text):
            words = [w.strip() for w in match.group("versions").split(",")]
            versions = tuple(w for w in words if _VERSION.match(w))
            out.append(PipRefusal(match.group("dist").lower(), match.group("spec"), versions))
            if len(out) >= MAX_REFUSALS:
                return out
    return out


def requested_version(spec: str) -> Optional[str]:
    """The version an ``==X`` specifier pins, else None."""
    match = re.fullmatch(r"===?(\d+(?:\.\d+)*\w*)", spec)
    return match.group(1) if match else None


# A wheel's file name carries its tags (PEP 427: name-version-python-abi-platform.whl), which
# say the interpreter and platform it installs on.
_WHEEL = re.compile(
    r"(?P<file>(?P<dist>[A-Za-z0-9_.]+)-(?P<version>\d[\w.+]*)(?:-\d\w*)?-(?P<python>[\w.]+)"
    r"-(?P<abi>[\w.]+)-(?P<platform>[\w.]+)\.whl) is not a supported wheel on this platform"
)


@record
class WheelRefusal(Record):
    """A wheel pip refused for this interpreter or platform, with its tags (observed)."""

    file: str
    dist: str
    version: str
    python: str
    abi: str
    platform: str

    @property
    def python_version(self) -> Optional[str]:
        """The CPython the wheel is for (``cp35`` -> ``3.5``), when its tag names one."""
        match = re.fullmatch(r"cp(\d)(\d+)", self.python.split(".")[0])
        return f"{match.group(1)}.{match.group(2)}" if match else None


def read_wheel_refusal(line: str) -> Optional[WheelRefusal]:
    """The wheel ``line`` says pip refused, or None."""
    match = _WHEEL.search(line)
    if match is None:
        return None
    return WheelRefusal(
        match.group("file"),
        match.group("dist"),
        match.group("version"),
        match.group("python"),
        match.group("abi"),
        match.group("platform"),
    )
