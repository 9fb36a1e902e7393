"""A native backtrace as gdb prints it, read into the shared objects on the stack (observed).

gdb's ``backtrace`` prints one frame a line, innermost first (stack.c, ``print_frame``):
``#N  0xADDRESS in FUNCTION (ARGS) from LIBRARY`` for a frame without debugging information
(the shared object that holds its code after ``from``), ``... at FILE:LINE`` for one with it,
the address left out where the frame's pc is at the start of a line. A long frame wraps: its
``from LIBRARY`` or ``at FILE`` goes on an indented line of its own.

What the stack says is which shared objects' code ran, in which order, and whether a library's
static initialisers (GCC names a translation unit's ``_GLOBAL__sub_I_<file>``; its body
``__static_initialization_and_destruction_0``) were running: the loader runs them while it
loads the library, which for a Python extension is while it is imported.

https://sourceware.org/gdb/current/onlinedocs/gdb.html/Backtrace.html
https://gcc.gnu.org/onlinedocs/gccint/Initialization.html

The evidence never says what a finding is worth; explain decides that (:mod:`tfdoctor.explain`).
"""

from __future__ import annotations

import posixpath
import re
from typing import Optional

from tfdoctor.evidence.traceback import installed_package
from tfdoctor.records import Record, record

#: A frame's first line: its number, then the address and ``in`` where gdb prints them.
_FRAME_START = re.compile(r"^#(?P<number>\d{1,5})[ \t]+(?:0x[0-9a-fA-F]{1,16}[ \t]+in[ \t]+)?")
#: The shared object a frame without debugging information names, ending its text: gdb's
#: ``from /path/lib.so``, or the module and offset elfutils' unwinder prints for
#: systemd-coredump and eu-stack (``_ZN6google... (libtensorflow_framework.so.2 + 0x28d350e)``:
#: systemd's src/shared/elf-util.c, frame_callback, ``#%-2u 0x%016" PRIx64 " %s (%s + 0x%"
#: PRIx64 ")``), which names the module by its file name only.
_FROM = re.compile(
    r"\bfrom[ \t]+(?P<library>/\S+)\s*$"
    r"|\((?P<module>[\w.+-]+\.so(?:\.[\w]+)*) \+ 0x[0-9a-fA-F]+\)\s*$"
)
#: The names GCC gives a translation unit's static initialisers.
_INITIALISER = re.compile(r"\b_GLOBAL__sub_I_|\b__static_initialization_and_destruction_\d")
#: How many frames are read of one backtrace.
MAX_NATIVE_FRAMES = 200
#: How many lines one frame's text is read across (gdb wraps a long frame's arguments).
_FRAME_LINES = 6


@record
class NativeFrame(Record):
    """One frame of a native backtrace (observed)."""

    number: int
    #: The frame's text after its address: the function, its arguments, ``from`` or ``at``.
    text: str
    #: The shared object holding the frame's code (``from LIBRARY``); empty where the frame
    #: names a source file instead.
    library: str = ""

    @property
    def package(self) -> Optional[str]:
        """The top-level import package whose installed files hold the library (``torch`` for
        ``.../site-packages/torch/lib/libTHC.so.1``); None outside site-packages or with no
        library."""
        if not self.library:
            return None
        return installed_package(posixpath.normpath(self.library))

    @property
    def initialiser(self) -> bool:
        """Whether the frame is a library's static initialiser, which runs as it is loaded."""
        return _INITIALISER.search(self.text) is not None


#: How many backtraces of one text are read (``thread apply all bt`` prints one a thread).
MAX_BACKTRACES = 64


def read_native_frames(text: str) -> tuple[NativeFrame, ...]:
    """The frames of the first gdb backtrace in ``text``, innermost first; () where none."""
    return next(iter(read_native_backtraces(text)), ())


def read_native_backtraces(text: str) -> tuple[tuple[NativeFrame, ...], ...]:
    """The gdb backtraces in ``text``, each one's frames innermost first, in the order printed:
    ``thread apply all bt`` prints every thread's (the highest-numbered thread first, so the
    thread that crashed is often not the first); () where none."""
    if "#0 " not in text and "#0\t" not in text:
        return ()
    out: list[tuple[NativeFrame, ...]] = []
    lines = text.split("\n")
    at = 0
    while at < len(lines) and len(out) < MAX_BACKTRACES:
        frames, at = _backtrace_from(lines, at)
        if not frames:
            break
        out.append(frames)
    return tuple(out)


def _backtrace_from(lines: list[str], first: int) -> tuple[tuple[NativeFrame, ...], int]:
    """The frames of the first backtrace from line ``first`` of ``lines`` on, and the line after
    its last frame; () and the end where none is there."""
    frames: list[NativeFrame] = []
    started = False
    for i in range(first, len(lines)):
        line = lines[i]
        start = _FRAME_START.match(line)
        if start is None:
            continue
        number = int(start.group("number"))
        if number != len(frames):
            if started:
                return tuple(frames), i  # another backtrace (or numbers a paste left out)
            continue
        started = True
        pieces = [line[start.end() :].strip()]
        for after in lines[i + 1 : i + _FRAME_LINES]:
            # gdb indents what it wraps of a frame.
            if not after[:1].isspace() or not after.strip():
                break
            pieces.append(after.strip())
        body = " ".join(pieces)
        found = _FROM.search(body)
        library = (found.group("library") or found.group("module")) if found else ""
        frames.append(NativeFrame(number, body, library or ""))
        if len(frames) >= MAX_NATIVE_FRAMES:
            return tuple(frames), i + 1
    return tuple(frames), len(lines)
