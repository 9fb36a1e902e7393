"""A value as one word of the shell a printed command is for (a fix's commands, a file header).

This module imports nothing from the package.
"""

from __future__ import annotations

import re
import shlex

#: What a POSIX shell expands at the start of a word, kept outside the quotes: a tilde-prefix
#: (``~``, ``~user``) with the slash that ends it, since the prefix runs to the first unquoted
#: slash (POSIX Shell Command Language, 2.6.1 Tilde Expansion), or a parameter (``$HOME``,
#: ``${HOME}``).
_EXPANDED = re.compile(r"~[\w.-]*/?|\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\})")


def shell_word(value: str, *, windows: bool = False) -> str:
    """``value`` as one shell word: single-quoted where it holds a space, a quote or another
    character the shell reads, with a leading ``~/``, ``~user/`` or ``$VAR`` left outside the
    quotes so that the shell still expands it. With ``windows`` (a command cmd.exe or
    PowerShell runs as well), a Windows path, one with a backslash, goes in double quotes,
    the only quotes cmd.exe reads."""
    if windows and "\\" in value:
        return f'"{value}"'
    head = _EXPANDED.match(value)
    if head is None:
        return shlex.quote(value)
    rest = value[head.end() :]
    return head.group(0) + (shlex.quote(rest) if rest else "")
