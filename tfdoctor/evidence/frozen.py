"""A frozen program, as a log shows it, and the freezer that built it.

A frozen program imports from the bundle its freezer built, not from an installed
site-packages: a module missing there is the freezer's (its hooks did not collect it), not an
incomplete install. PyInstaller's bundle shows three ways, each enough alone:

- its loader's frames, ``PyInstaller/loader/pyimod02_importers.py`` (pyimod01_ to pyimod04_,
  named by release; https://github.com/pyinstaller/pyinstaller/tree/v6.3.0/PyInstaller/loader);
- the directory a one-file program unpacks into, ``_MEI`` and digits under the temporary
  directory (its ``sys._MEIPASS``; https://pyinstaller.org/en/stable/operating-mode.html);
- the bootloader's last line for an unhandled exception, the process id in brackets
  (``[1234] Failed to execute script 'main' due to unhandled exception!``; older
  releases ``Failed to execute script main``; bootloader/src/pyi_launch.c:
  https://github.com/pyinstaller/pyinstaller/blob/v6.3.0/bootloader/src/pyi_launch.c).
"""

from __future__ import annotations

import re
from typing import Optional

#: Any of the three: the loader's package in a path, a one-file bundle's directory, the
#: bootloader's line. One pattern for a whole log and for one frame's path.
FROZEN = re.compile(
    r"PyInstaller[/\\]loader[/\\]|[/\\]_MEI\d+[/\\]|\[\d+\] Failed to execute script\b"
)

#: The bundles of the other freezers, as their programs' frames show them: Nuitka's standalone
#: ``NAME.dist`` folder (``NAME~1.DIS`` in Windows' short names) and its own log lines
#: (``Nuitka:INFO:``, ``Nuitka-Plugins:``; its plugins' ``FATAL: tensorflow: ...``;
#: https://nuitka.net/doc/user-manual.html), py2app's ``NAME.app/Contents/Resources/lib/
#: pythonX.Y/`` (https://py2app.readthedocs.io/en/latest/tutorial.html), cx_Freeze's
#: ``lib/library.zip`` (https://cx-freeze.readthedocs.io/en/stable/faq.html). PyInstaller's are
#: :data:`FROZEN`'s.
_FREEZERS = (
    ("pyinstaller", FROZEN),
    (
        "nuitka",
        re.compile(r"[\w~-]\.dist[/\\]|~\d\.DIS[/\\]|^Nuitka(?:-\w+)?:[A-Z]*:?", re.MULTILINE),
    ),
    ("py2app", re.compile(r"\.app[/\\]Contents[/\\]Resources[/\\]lib[/\\]python\d")),
    ("cx_freeze", re.compile(r"[/\\]lib[/\\]library\.zip[/\\]")),
)
#: Literals one of which every match holds: the cheap test before the patterns run (a
#: pattern with no literal prefix costs a pass over the text).
_FREEZER_WORDS = (
    "PyInstaller",
    "_MEI",
    "Failed to execute script",
    ".dist",
    ".DIS",
    "Nuitka",
    ".app",
    "library.zip",
)


def freezer_of(text: str) -> Optional[str]:
    """The freezer whose bundle ``text`` (a log, or one frame's path) shows: ``pyinstaller``,
    ``nuitka``, ``py2app`` or ``cx_freeze``; None where it shows none."""
    if not any(word in text for word in _FREEZER_WORDS):
        return None
    return next((name for name, pattern in _FREEZERS if pattern.search(text)), None)
