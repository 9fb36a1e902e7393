"""A program frozen by PyInstaller, as a log shows it.

A frozen program imports from the bundle PyInstaller built, not from an installed
site-packages: a module missing there is the freezer's (its hooks did not collect it), not an
incomplete install. The log shows the bundle three ways, each enough alone:

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

#: Any of the three: the loader's package in a path, a one-file bundle's directory, the
#: bootloader's line. One pattern for a whole log and for one frame's path.
FROZEN = re.compile(
    r"PyInstaller[/\\]loader[/\\]|[/\\]_MEI\d+[/\\]|\[\d+\] Failed to execute script\b"
)

#: Literals one of which every match holds: the cheap test before the pattern runs (a pattern
#: with no literal prefix costs a pass over the text).
_WORDS = ("PyInstaller", "_MEI", "Failed to execute script")


def frozen_shown(text: str) -> bool:
    """Whether ``text`` (a log, or one frame's path) shows a program frozen by PyInstaller."""
    return any(word in text for word in _WORDS) and FROZEN.search(text) is not None
