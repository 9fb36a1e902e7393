"""The interpreter a log's pip ran in, as its own words show it: its tags and its banner.

``pip debug --verbose`` lists the interpreter's compatible tags, most specific first, one a
line (``cp313-cp313-win_amd64``, ``pp310-pypy310_pp73-manylinux_2_17_x86_64``,
``cp313-cp313t-musllinux_1_2_aarch64``): interpreter and version, ABI (``t``: a
free-threaded build), platform (pip's ``commands/debug.py``, ``show_tags``; the tags are
packaging's ``sys_tags``: https://github.com/pypa/pip/blob/24.0/src/pip/_internal/commands/debug.py,
https://packaging.python.org/en/latest/specifications/platform-compatibility-tags/).
The interpreter's banner and ``sys.version`` say the same of the implementation and build:
PyPy's ``[PyPy 7.3.16 with GCC ...]`` (PyPy's ``sys.version``:
https://doc.pypy.org/en/latest/cpython_differences.html) and a free-threaded CPython's
``3.13.1 experimental free-threading build`` (3.14: ``free-threading build``; CPython's
``Py_GetVersion`` with ``Py_GIL_DISABLED``:
https://github.com/python/cpython/blob/3.13/Python/getversion.c), and a Windows on Arm
CPython's ``[MSC v.1937 64 bit (ARM64)]`` (PC/pyconfig.h's COMPILER).

Observed facts only: which TensorFlow release has a wheel for such an interpreter is the
matrix's to say.
"""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor.evidence.pip import read_first_tag
from tfdoctor.records import Record, record

#: The platform tags of 64-bit builds (x86-64, ARM64, POWER, IBM Z).
_WIDE_PLATFORM = re.compile(r"(?:x86_64|amd64|aarch64|arm64(?:_v8a)?|ppc64le|s390x)$")
#: The platform tags of 32-bit builds (x86, 32-bit Arm).
_NARROW_PLATFORM = re.compile(r"(?:win32|i[3-6]86|armv[5-7]l|win_arm32)$")
#: The interpreter's own answer to the queries Python's documentation gives for its width:
#: ``struct.calcsize("P") * 8`` (the size of a pointer: 32 or 64) and ``sys.maxsize >
#: 2**32`` (True on a 64-bit build), each answered on the next line
#: (https://docs.python.org/3/library/platform.html#platform.architecture, its note), at
#: the prompt or as a shell's one-liner (``python -c "...print(...)"``: its quote ends the line).
_WIDTH_ANSWER = re.compile(
    r"calcsize\(\s*[\"']P[\"']\s*\)\s*\*\s*8\s*\)?[\"']?[ \t]*\r?\n[ \t]*(?P<bits>32|64)[ \t]*\r?$"
    r"|sys\.maxsize\s*>\s*2\s*\*\*\s*32\s*\)?[\"']?[ \t]*\r?\n[ \t]*(?P<wide>True|False)[ \t]*\r?$"
    # The check tfdoctor's fixes give (causes.common.INTERPRETER_CHECK): version, system,
    # machine and pointer bits on one line.
    r"|calcsize\('P'\) \* 8\)\"?[ \t]*\r?\n[ \t]*[23]\.\d+\S* (?:Windows|Linux|Darwin) \S+ "
    r"(?P<checked>32|64)[ \t]*\r?$",
    re.MULTILINE,
)
#: CPython's build string for Windows on Arm (PC/pyconfig.h's COMPILER: "64 bit (ARM64)").
_WINDOWS_ARM64_BANNER = re.compile(r"\[MSC v\.\d+ 64 bit \(ARM64\)\]")
_PYPY_BANNER = re.compile(r"\[PyPy \d+\.\d+(?:\.\d+)?")
_FREE_THREADED_BANNER = re.compile(
    r"\b(?P<version>3\.\d{2}(?:\.\d+)?\w*) (?:experimental )?free-threading build\b"
)


#: The free-threaded build's own name, as its executable (``python3.14t -m pip``,
#: ``/usr/bin/python3.13t``) and its library folder (``lib/python3.13t/site-packages``) give it:
#: CPython installs it beside the default build with a ``t`` after the version
#: (https://docs.python.org/3/howto/free-threading-python.html#identifying-free-threaded-python).
_FREE_THREADED_NAME = re.compile(r"python(?<!\wpython)(?P<version>3\.\d{2})t(?![\w.])")


def _free_threaded_name(text: str) -> str:
    """The version of a free-threaded build ``text`` names by its executable or library
    folder (:data:`_FREE_THREADED_NAME`), or "". The pattern opens with its word, and what
    may not come before it is asked behind it: the engine skips to each "python" in C."""
    found = _FREE_THREADED_NAME.search(text)
    return found.group("version") if found is not None else ""


@record
class Interpreter(Record):
    """What the log shows of the interpreter pip ran in (observed); empty fields unknown."""

    #: ``CPython``, ``PyPy`` or ``GraalPy``; empty where nothing shows it.
    implementation: str = ""
    #: Whether the build is free-threaded (``cp313t``).
    free_threaded: bool = False
    #: Its Python version as the tag or banner gives it (``3.13``, ``3.13.1``).
    python: str = ""
    #: pip's platform tag for it (``win_amd64``, ``musllinux_1_2_x86_64``).
    platform: str = ""
    #: Its width as the interpreter itself answered a query for it (32, 64), else None.
    answered_bits: Optional[int] = None

    @property
    def bits(self) -> Optional[int]:
        """64 or 32 where the interpreter's answer or its platform tag says, else None."""
        if self.answered_bits is not None:
            return self.answered_bits
        if _WIDE_PLATFORM.search(self.platform):
            return 64
        return 32 if _NARROW_PLATFORM.search(self.platform) else None


def read_interpreter(text: str) -> Optional[Interpreter]:
    """The interpreter ``text`` shows by pip's first compatible tag
    (:func:`tfdoctor.evidence.pip.read_first_tag`), else by its banner (PyPy's, a
    free-threaded CPython's); None where it shows neither."""
    tag = read_first_tag(text)
    if tag is not None:
        digits = re.sub(r"^[a-z]+", "", tag.interpreter)
        implementation = re.sub(r"\d+$", "", tag.interpreter)
        return Interpreter(
            {"cp": "CPython", "pp": "PyPy", "graalpy": "GraalPy"}.get(implementation, ""),
            # The free-threaded ABI is the version's with a ``t`` (cp313t).
            implementation == "cp" and tag.abi == f"{tag.interpreter}t",
            f"{digits[0]}.{digits[1:]}" if len(digits) > 1 else "",
            tag.platform,
        )
    if "[PyPy " in text and _PYPY_BANNER.search(text):
        return Interpreter("PyPy")
    free = _FREE_THREADED_BANNER.search(text) if "free-threading build" in text else None
    if free is not None:
        return Interpreter("CPython", True, free.group("version"))
    named = _free_threaded_name(text)
    if named:
        return Interpreter("CPython", True, named)
    if "(ARM64)]" in text and _WINDOWS_ARM64_BANNER.search(text):
        # packaging's tag for it (tags.py, _generic_platforms: sysconfig's win-arm64).
        return Interpreter("CPython", platform="win_arm64")
    width = _WIDTH_ANSWER.search(text) if ("calcsize" in text or "maxsize" in text) else None
    if width is not None:
        bits = (
            width.group("bits")
            or width.group("checked")
            or ("64" if width.group("wide") == "True" else "32")
        )
        return Interpreter(answered_bits=int(bits))
    return None
