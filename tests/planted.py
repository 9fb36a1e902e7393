"""Plant one violation in a data file's text and read the one-line error its reader gives."""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest


def planted_error(
    parse: Callable[[str, str], Any],
    error: type[Exception],
    text: str,
    old: str,
    new: str,
    path: str,
) -> tuple[int, str]:
    """(line, ``FIELD: message``) of the error ``parse`` raises once ``old`` (which must occur
    once) becomes ``new``; the error must be one line starting with ``path:LINE:``."""
    assert text.count(old) == 1, old
    with pytest.raises(error) as info:
        parse(text.replace(old, new), path)
    message = str(info.value)
    assert "\n" not in message, message
    match = re.match(rf"^{re.escape(path)}:(\d+): (.*)$", message)
    assert match is not None, message
    return int(match.group(1)), match.group(2)


def line_of(text: str, needle: str) -> int:
    """The 1-based line where ``needle`` first occurs in ``text``."""
    return text[: text.index(needle)].count("\n") + 1
