"""Reading the package's YAML data files (the matrix, log signatures, scan rules) as composed
nodes, with one-line ``FILE:LINE: message`` errors; each file's own reader validates the rest.

This module imports nothing from the package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def read_document(path: str, noun: str, error: type[Exception]) -> str:
    """The text of ``path``, or ``error("PATH: cannot read the NOUN: reason")``."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise error(f"{path}: cannot read the {noun}: {reason}") from None


def compose(text: str, path: str, what: str, error: type[Exception]) -> Any:
    """The root node of YAML ``text`` (positions kept for messages); a syntax error or an
    empty document raises ``error`` with ``PATH:LINE:``."""
    import yaml  # noqa: PLC0415 - the YAML parser is loaded only with a data file

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        root = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise error(f"{path}:{line}: YAML syntax error: {problem}") from None
    except yaml.YAMLError as exc:
        # A reader error (a control character, bad encoding) carries a character offset.
        position = getattr(exc, "position", None)
        line = text.count("\n", 0, position) + 1 if isinstance(position, int) else 1
        first = str(exc).splitlines()[0] if str(exc) else "invalid YAML"
        raise error(f"{path}:{line}: YAML syntax error: {first}") from None
    if root is None:
        raise error(f"{path}:1: the {what} is empty")
    return root
