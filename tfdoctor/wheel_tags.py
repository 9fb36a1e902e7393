"""Whether an installed wheel's tags fit the examined interpreter and machine.

A wheel's ``WHEEL`` file names the Pythons, ABIs and platforms it was built for
(https://packaging.python.org/en/latest/specifications/platform-compatibility-tags/). pip
installs a wheel only where one of its tags fits, but a site-packages copied between images or
interpreters, ``pip install --target --python-version/--platform``, or an environment shared
by two machines can hold one built for another Python or machine; its compiled modules then
fail to load. Only what the tags say for certain is judged: the Python version and
implementation, the operating system and architecture, and the manylinux glibc floor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor.facts import PlatformFacts, PythonFacts
from tfdoctor.records import Record, record

#: Interpreter tag prefixes (the spec's abbreviation codes) and the implementation they name.
_IMPLEMENTATIONS = {"cp": "CPython", "pp": "PyPy"}
#: The legacy manylinux names and the glibc they stand for (PEP 600's aliases).
_LEGACY_MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}
_MANYLINUX = re.compile(r"^manylinux_(\d+)_(\d+)_(.+)$")


def manylinux_name(glibc: tuple[int, ...]) -> str:
    """The manylinux tag a glibc floor is named by: its legacy alias where it has one
    (``(2, 12)`` -> ``manylinux2010``), else PEP 600's ``manylinux_2_28``."""
    alias = next((n for n, g in _LEGACY_MANYLINUX.items() if g == tuple(glibc[:2])), None)
    return alias or "manylinux_" + "_".join(str(x) for x in glibc[:2])


#: The glibc of the first manylinux tag (PEP 513), which every pip since 8.1 reads.
MANYLINUX1_GLIBC = _LEGACY_MANYLINUX["manylinux1"]
_MUSLLINUX = re.compile(r"^musllinux_\d+_\d+_(.+)$")
_MACOS = re.compile(r"^macosx_\d+_\d+_(.+)$")
_INTERPRETER = re.compile(r"^([a-z]+)(\d)(\d*)$")
#: Architecture spellings that name one machine (``platform.machine()`` differs by OS).
_ARCH_ALIASES = {"amd64": "x86_64", "arm64": "aarch64", "x64": "x86_64"}
_MACOS_FAT = {"universal2": ("x86_64", "aarch64"), "intel": ("x86_64",)}


@record
class Misfit(Record):
    """Why a wheel's tags do not fit: ``part`` is ``python``, ``platform`` or ``glibc``."""

    part: str
    #: The tag judged, what it was built for, and what is here (plain words).
    tag: str
    built_for: str
    here: str
    #: ``part == "glibc"``: the glibc the wheel needs (``2.27``).
    glibc: Optional[str] = None


def misfit(
    tags: Sequence[str], python: PythonFacts, platform: Optional[PlatformFacts]
) -> Optional[Misfit]:
    """None when one of ``tags`` fits (or none can be judged); else why the first does not."""
    from packaging.tags import parse_tag  # noqa: PLC0415 - 40 ms: only where tags are judged

    first: Optional[Misfit] = None
    for text in tags:
        try:
            expanded = sorted(parse_tag(text), key=str)
        except ValueError:
            continue  # a malformed line judges nothing
        for tag in expanded:
            why = _python_misfit(tag.interpreter, tag.abi, python) or _platform_misfit(
                tag.platform, platform
            )
            if why is None:
                return None
            first = first or Misfit(why.part, text, why.built_for, why.here, why.glibc)
    return first


def _version(python: PythonFacts) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", python.version)[:2])


def _python_misfit(interpreter: str, abi: str, python: PythonFacts) -> Optional[Misfit]:
    match = _INTERPRETER.match(interpreter)
    here_version = _version(python)
    if match is None or len(here_version) < 2:
        return None
    code, major, minor = match.group(1), int(match.group(2)), match.group(3)
    impl = _IMPLEMENTATIONS.get(code)
    if code != "py" and impl is None:
        return None  # an implementation the facts cannot compare
    here = f"{python.implementation} {here_version[0]}.{here_version[1]}"
    built = f"{impl or 'Python'} {major}{'.' + minor if minor else ''} ({interpreter}-{abi})"
    if impl is not None and impl != python.implementation:
        return Misfit("python", interpreter, built, here)
    if major != here_version[0]:
        return Misfit("python", interpreter, built, here)
    if not minor:
        return None
    # abi3 and pyXY wheels run on their minor and later ones; others on their minor only.
    later_ok = abi == "abi3" or code == "py"
    fits = int(minor) <= here_version[1] if later_ok else int(minor) == here_version[1]
    return None if fits else Misfit("python", interpreter, built, here)


def _arch(name: str) -> str:
    lowered = name.lower()
    return _ARCH_ALIASES.get(lowered, lowered)


_MACOS_TARGET = re.compile(r"^macosx_(\d+)_(\d+)_")
_MACOS_RELEASE = re.compile(r"^macOS (\d+)\.(\d+)")


def _macos_misfit(tag: str, platform: PlatformFacts) -> Optional[Misfit]:
    """A macosx_X_Y tag above the macOS release the facts name (``macOS 10.13.6``)."""
    target, have = _MACOS_TARGET.match(tag), _MACOS_RELEASE.match(platform.os_name or "")
    if target is None or have is None:
        return None
    need = (int(target.group(1)), int(target.group(2)))
    here = (int(have.group(1)), int(have.group(2)))
    if here == (10, 16):
        here = (11, 0)  # macOS 11 as a Python built with an older SDK reports it
    if here >= need:
        return None
    return Misfit(
        "macos", tag, f"macOS {need[0]}.{need[1]} or newer ({tag})", f"macOS {here[0]}.{here[1]}"
    )


#: A wheel file's platform tag, the last part of its name before ``.whl`` (PEP 427:
#: ``{name}-{version}-{python}-{abi}-{platform}.whl``).
_WHEEL_FILE_PLATFORM = re.compile(r"-(?P<tag>[a-z][a-z0-9_.]{2,60}?)\.whl\b")


def wheel_platform_tags(text: str) -> list[str]:
    """The platform tags of the wheel files ``text`` names, in order (a compressed tag set,
    ``manylinux_2_17_x86_64.manylinux2014_x86_64``, gives each of its tags)."""
    if ".whl" not in text:
        return []
    return [tag for m in _WHEEL_FILE_PLATFORM.finditer(text) for tag in m.group("tag").split(".")]


def manylinux_glibc(tag: str) -> Optional[tuple[int, int]]:
    """The glibc floor a manylinux platform tag stands for (``manylinux2014_x86_64``: 2.17,
    PEP 600's ``manylinux_2_28_aarch64``: 2.28), or None for a tag of another kind."""
    if m := _MANYLINUX.match(tag):
        return int(m.group(1)), int(m.group(2))
    legacy = _LEGACY_MANYLINUX.get(tag.split("_", 1)[0])
    return (legacy[0], legacy[1]) if legacy is not None else None


def pep600_spelled(tag: str) -> bool:
    """Whether ``tag`` is spelled as PEP 600 spells manylinux (``manylinux_2_17_x86_64``): a
    pip reads that spelling from 20.3 only, whatever glibc it names (its legacy alias
    ``manylinux2014_x86_64`` from 19.3)."""
    return _MANYLINUX.match(tag) is not None


def tag_machines(tag: str) -> tuple[str, ...]:
    """The machines a platform tag's wheel runs on, spelled as :func:`machine_name` spells
    them (``macosx_11_0_universal2``: x86_64 and aarch64), or () where the tag does not say."""
    if tag in {"win32", "win_amd64", "win_arm64"}:
        return {"win32": ("x86", "x86_64"), "win_amd64": ("x86_64",)}.get(tag, ("aarch64",))
    if m := _MANYLINUX.match(tag) or _MUSLLINUX.match(tag) or _MACOS.match(tag):
        return _MACOS_FAT.get(m.group(m.lastindex or 0), (_arch(m.group(m.lastindex or 0)),))
    if tag.split("_", 1)[0] in _LEGACY_MANYLINUX or tag.startswith("linux_"):
        return (_arch(tag.split("_", 1)[1]),)
    return ()


def machine_name(name: str) -> str:
    """One spelling of a machine's architecture (macOS' ``arm64`` is ``aarch64``, Windows'
    ``AMD64`` is ``x86_64``)."""
    return _arch(name)


def macos_target(tag: str) -> Optional[tuple[int, int]]:
    """The oldest macOS a macOS platform tag's wheel installs on (``macosx_11_0_arm64``:
    11.0), or None for a tag of another system."""
    m = _MACOS_TARGET.match(tag)
    return (int(m.group(1)), int(m.group(2))) if m is not None else None


def tag_system(tag: str) -> Optional[str]:
    """The operating system a wheel's platform tag is built for, as ``platform.system()``
    lower-cased says it (``linux``, ``darwin``, ``windows``), or None (``any``, or a tag of
    another system)."""
    if tag in ("win32", "win_amd64", "win_arm64"):
        return "windows"
    if (
        _MANYLINUX.match(tag)
        or tag.split("_", 1)[0] in _LEGACY_MANYLINUX
        or _MUSLLINUX.match(tag)
        or tag.startswith("linux_")
    ):
        return "linux"
    if _MACOS.match(tag):
        return "darwin"
    return None


#: ``platform.system()``'s names, lower-cased (tag_system's), as tfdoctor names operating
#: systems (Machine.os: ``macos``).
OS_OF_SYSTEM = {"linux": "linux", "darwin": "macos", "windows": "windows"}


def tag_os(tag: str) -> Optional[str]:
    """The operating system a wheel's platform tag is built for, as tfdoctor names it
    (``linux``, ``macos``, ``windows``), or None."""
    system = tag_system(tag)
    return OS_OF_SYSTEM[system] if system is not None else None


def _platform_misfit(tag: str, platform: Optional[PlatformFacts]) -> Optional[Misfit]:
    if tag == "any" or platform is None:
        return None
    system = platform.system.lower()
    machine = _arch(platform.machine)
    here = f"{platform.system} {platform.machine}"
    glibc: Optional[tuple[int, int]] = None
    musl = False
    os_name = tag_system(tag)
    if os_name is None:
        return None  # a platform the facts cannot compare
    if os_name == "windows":
        # platform.machine() says AMD64 in a 32-bit Python too: win32 is not judged by it.
        archs = {"win32": ("x86", "x86_64"), "win_amd64": ("x86_64",)}.get(tag, ("aarch64",))
    elif m := _MANYLINUX.match(tag):
        archs, glibc = (_arch(m.group(3)),), (int(m.group(1)), int(m.group(2)))
    elif tag.split("_", 1)[0] in _LEGACY_MANYLINUX:
        legacy, arch = tag.split("_", 1)
        archs, glibc = (_arch(arch),), _LEGACY_MANYLINUX[legacy]
    elif m := _MUSLLINUX.match(tag):
        archs, musl = (_arch(m.group(1)),), True
    elif tag.startswith("linux_"):
        archs = (_arch(tag[len("linux_") :]),)
    else:
        m = _MACOS.match(tag)
        assert m is not None  # tag_system read it as macOS's
        archs = _MACOS_FAT.get(m.group(1), (_arch(m.group(1)),))
        macos = _macos_misfit(tag, platform)
        if macos is not None and system == "darwin" and machine in archs:
            return macos
    if os_name != system or machine not in archs:
        return Misfit("platform", tag, f"{os_name.capitalize()} {'/'.join(archs)} ({tag})", here)
    if musl and platform.libc == "glibc":
        return Misfit("platform", tag, f"musl libc ({tag})", f"{here} with glibc")
    if glibc is not None:
        if platform.libc == "musl":
            return Misfit("platform", tag, f"glibc ({tag})", f"{here} with musl libc")
        have = tuple(int(p) for p in re.findall(r"\d+", platform.libc_version or "")[:2])
        if platform.libc == "glibc" and len(have) == 2 and have < glibc:
            need = f"{glibc[0]}.{glibc[1]}"
            return Misfit(
                "glibc",
                tag,
                f"glibc {need} or newer ({tag})",
                f"glibc {platform.libc_version}",
                glibc=need,
            )
    return None
