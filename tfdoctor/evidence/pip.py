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

from tfdoctor.evidence.packages import normalize_name
from tfdoctor.records import Record, record

_REFUSAL = re.compile(
    r"Could not find a version that satisfies the requirement "
    r"(?P<dist>[A-Za-z0-9][A-Za-z0-9._-]*)(?P<spec>[^\s(]*)"
    # pip names where the requirement came from first: "(from -r requirements.txt (line 12))".
    r"(?:\s*\((?!from\s+versions)(?:[^()]|\([^()]*\))*\))*"
    # A paste may stop before the list, or an old pip not print it: then what pip saw is unknown.
    r"(?:\s*\(from\s+versions: ?(?P<versions>[^)]*)\))?"
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
    #: Whether the log shows pip's list (``from versions: ...``); if not, ``versions`` is empty
    #: because it is unknown, not because pip saw none.
    shown: bool = True

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
            listed = match.group("versions")
            words = [w.strip() for w in (listed or "").split(",")]
            versions = tuple(w for w in words if _VERSION.match(w))
            dist, spec = match.group("dist").lower(), match.group("spec")
            out.append(PipRefusal(dist, spec, versions, listed is not None))
            if len(out) >= MAX_REFUSALS:
                return out
    return out


def requested_version(spec: str) -> Optional[str]:
    """The version an ``==X`` specifier pins (``==1.15.*``, a line's releases, kept as
    written), else None."""
    match = re.fullmatch(r"===?(\d+(?:\.\d+)*\w*(?:\.\*)?)", spec)
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


# --- builds from a source archive -------------------------------------------------------------

# pip downloads a source archive only when no wheel of the chosen release fits the interpreter
# and platform (https://pip.pypa.io/en/stable/cli/pip_install/#installation-order): the name
# and version are in the archive's file name, `name-version.tar.gz` (PEP 625).
_ARCHIVE = re.compile(
    r"(?:Downloading|Using cached|Processing)\s+(?:\S*/)?"
    r"(?P<dist>[A-Za-z0-9][A-Za-z0-9_.-]*?)-(?P<version>\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?)"
    r"\.(?:tar\.gz|zip|tar\.bz2)\b"
)
# pip's words when building a wheel failed: legacy and PEP 517 builds
# (https://github.com/pypa/pip/blob/23.0/src/pip/_internal/wheel_builder.py,
# src/pip/_internal/operations/build/metadata.py, src/pip/_internal/exceptions.py).
_BUILD_FAILED = re.compile(
    r"Failed building wheel for (?P<one>[A-Za-z0-9][A-Za-z0-9_.-]*)"
    r"|Could not build wheels for (?P<many>[A-Za-z0-9][A-Za-z0-9_., -]*?)"
    r"(?:, which is required| which use PEP 517|\s*$)"
    r"|Failed to build (?P<listed>[A-Za-z0-9][A-Za-z0-9_. -]*?)\s*$"
    r"|(?P<step>Getting requirements to build wheel|Preparing metadata \(pyproject\.toml\)"
    r"|Building wheel for \S+ \(pyproject\.toml\)|python setup\.py egg_info)"
    r" did not run successfully"
)
#: One of them is in every failure line _BUILD_FAILED reads: a block with none is skipped
#: (long literals: a short one such as "build" is in TensorFlow's own CPU notice).
_BUILD_WORDS = (
    "Failed building wheel",
    "Could not build wheels",
    "Failed to build ",
    "did not run successfully",
)


def _installed_after(text: str, start: int, dist: str) -> bool:
    """pip reports ``dist`` installed after ``start`` (its own "Successfully installed" list,
    which names each as ``name-version``)."""
    for line in text[start:].splitlines():
        if line.lstrip().startswith("Successfully installed "):
            names = [normalize_name(w.rsplit("-", 1)[0]) for w in line.split()[2:]]
            if dist in names:
                return True
    return False


@record
class SourceBuild(Record):
    """pip building a release from its source archive, and the build failing (observed)."""

    dist: str
    #: The release, from the archive's name; empty where the log shows no archive.
    version: str
    #: The line that says the build failed.
    message: str


def read_source_builds(texts: Iterable[str]) -> list[SourceBuild]:
    """Every failed build of a source archive in ``texts``: the distribution the failure
    names (or the last archive downloaded before it, for the PEP 517 steps that name none)."""
    out: list[SourceBuild] = []
    for text in texts:
        if not any(word in text for word in _BUILD_WORDS):
            continue
        archives: list[tuple[int, str, str]] = [
            (m.start(), normalize_name(m.group("dist")), m.group("version"))
            for m in _ARCHIVE.finditer(text)
        ]
        for match in _BUILD_FAILED.finditer(text):
            named = match.group("one") or match.group("many") or match.group("listed") or ""
            dists = [normalize_name(d) for d in re.split(r"[\s,]+", named) if d]
            if not dists:
                before = [a for a in archives if a[0] < match.start()]
                dists = [before[-1][1]] if before else []
            for dist in dists:
                if _installed_after(text, match.end(), dist):
                    continue  # pip before 23.1 fell back to `setup.py install`, which worked
                version = next((v for _, d, v in reversed(archives) if d == dist), "")
                found = SourceBuild(dist, version, match.group(0).strip())
                if all(b.dist != dist for b in out):
                    out.append(found)
            if len(out) >= MAX_REFUSALS:
                return out
    return out


# --- releases refused for their Requires-Python --------------------------------------------------

# pip names the releases it skipped for their Requires-Python (pip 21.2 and later,
# src/pip/_internal/index/package_finder.py: "Ignored the following versions that require a
# different python version: 2.16.1 Requires-Python >=3.9; ..."), and refuses a pinned one with
# "Package 'X' requires a different Python: 3.12.1 not in '<3.12,>=3.7'"
# (src/pip/_internal/resolution/resolvelib/factory.py, _report_requires_python_error; the
# legacy resolver alike).
_IGNORED = re.compile(
    r"Ignored the following versions that require a different python version: (?P<list>.+)"
)
_IGNORED_ONE = re.compile(r"(?P<version>\d[\w.]*) Requires-Python (?P<spec>[^;]+)")
_DIFFERENT = re.compile(
    r"Package '(?P<dist>[A-Za-z0-9][A-Za-z0-9._-]*)' requires a different Python: "
    r"(?P<python>\d+\.\d+(?:\.\d+)?) not in '(?P<spec>[^']+)'"
)


@record
class PythonRefusal(Record):
    """A release pip refused because its Requires-Python excludes this interpreter (observed)."""

    #: The distribution when pip names it (the pinned-package form); empty in the list form,
    #: which follows the refusal of the distribution it lists.
    dist: str
    #: The release; empty where pip names only the package.
    version: str
    #: Its Requires-Python (``>=3.9``, ``<3.12,>=3.7``).
    spec: str
    #: The interpreter's version, where pip printed it.
    python: str = ""


def read_python_refusals(texts: Iterable[str]) -> list[PythonRefusal]:
    """Every release pip says it refused for its Requires-Python, in order."""
    out: list[PythonRefusal] = []
    for text in texts:
        if "a different python version" not in text and "a different Python:" not in text:
            continue
        for match in _IGNORED.finditer(text):
            for one in _IGNORED_ONE.finditer(match.group("list")):
                out.append(PythonRefusal("", one.group("version"), one.group("spec").strip()))
        for match in _DIFFERENT.finditer(text):
            out.append(
                PythonRefusal(
                    normalize_name(match.group("dist")),
                    "",
                    match.group("spec"),
                    match.group("python"),
                )
            )
        if len(out) >= MAX_REFUSALS:
            return out[:MAX_REFUSALS]
    return out
