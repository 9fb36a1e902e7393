"""Reading what a user hands the doctor within limits: size, nesting, and the shape of code.

Every file the commands read (saved reports, notebooks, logs, TF_CONFIG, requirements, a
``--matrix``, source code) can be anything: a JSON array nested a hundred thousand deep makes
Python's ``json`` raise RecursionError; a 5 MB line of chained calls makes ``ast.parse`` take
a gigabyte and then raise RecursionError (Python 3.11) or crash outright (Python 3.9). The
readers here take at most a known number of bytes, refuse nesting past a known depth, and
say so in one :class:`InputError` that names the file, so that each command reports it as
bad input (or, in ``scan``, as a file it skipped) instead of a traceback.

This module imports nothing from the package.
"""

from __future__ import annotations

import codecs
import errno
import json
import re
import sys
from pathlib import Path
from typing import IO, Any, Optional

KIB = 1 << 10
MIB = 1 << 20

#: Largest saved report or facts document (``check --facts``, ``diff``, ``fleet``). A real
#: ``check --json`` report is well under 1 MiB (hundreds of packages, a log tail); sixteen
#: times that is room for any machine and keeps the parsed document to a few hundred MiB.
MAX_REPORT_BYTES = 16 * MIB
#: Deepest JSON nesting accepted. A saved report nests 7 levels, a notebook 4 (widget state
#: and JSON outputs a few more); Python's ``json`` fails with RecursionError near the
#: recursion limit (1000), and whatever walks the document after it recurses too.
MAX_JSON_NESTING = 100
#: Largest TF_CONFIG read from a file: Linux caps one environment string at 32 pages,
#: 128 KiB (MAX_ARG_STRLEN, execve(2) "Limits on size of arguments and environment"), so
#: a larger document could never reach TensorFlow as TF_CONFIG.
MAX_TF_CONFIG_BYTES = 128 * KIB
#: Largest notebook read (``explain``, ``scan``): a notebook is JSON, parsed whole; plots
#: and images in the outputs make real ones reach tens of MiB.
MAX_NOTEBOOK_BYTES = 256 * MIB
#: Largest text file read whole (a requirements file, a ``--matrix`` YAML): the bundled
#: matrix is 64 KiB, a requirements file a few KiB.
MAX_TEXT_BYTES = 16 * MIB
#: Largest package index page read (``pin --hashes``): PyPI's JSON page of a project with
#: thousands of files (numpy, tensorflow) is a few MiB.
MAX_INDEX_PAGE_BYTES = 64 * MIB
#: Largest Python source file parsed by ``scan``; larger ones are generated code or data.
MAX_SOURCE_BYTES = 8 * MIB
#: Most tokens (about: words and punctuation) parsed from one file. ``ast.parse`` holds
#: about 400 bytes per token while it parses (measured on CPython 3.11: 5 MB of ordinary
#: code, 360 MB; a 2 MB one-line list of numbers, 950 MB), so this bounds the
#: parser to about 200 MiB. Ordinary code has about 5 bytes a token: 2.5 MB of it.
MAX_SOURCE_TOKENS = 500_000
#: Deepest expression parsed where the parser does not guard itself (:data:`DEPTH_UNGUARDED`),
#: counted as the operators chained in one expression plus its brackets; written code stays
#: under 60 (TensorFlow's and Keras' own sources), 3.11 stops near 3,000.
MAX_EXPRESSION_DEPTH = 500
#: Most of a log ``explain`` reads: about half a minute of matching. Of a longer file, the
#: first and the last half of this are read; of a longer pipe, the start. The report says so.
MAX_LOG_BYTES = 256 * MIB


class InputError(ValueError):
    """An input over a limit, or not readable as what it should be; the message names it."""


def size_text(count: int) -> str:
    """``16 MiB``, ``128 KiB``, ``300 bytes``: a byte count as the limits are written."""
    for unit, size in (("GiB", 1 << 30), ("MiB", MIB), ("KiB", KIB)):
        if count >= size:
            return f"{count / size:.1f}".removesuffix(".0") + f" {unit}"
    return f"{count} bytes"


def read_stream(stream: IO[bytes], name: str, limit: int, what: str) -> bytes:
    """At most ``limit`` bytes of ``stream``; InputError when it holds more."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{name}: larger than {size_text(limit)}, the most {what} may be")
    return data


def stdin_bytes() -> IO[bytes]:
    """Standard input as bytes; OSError when it is closed (started with ``<&-``, Python sets
    ``sys.stdin`` to None: https://docs.python.org/3/library/sys.html#sys.__stdin__)."""
    if sys.stdin is None:
        raise OSError(errno.EBADF, "standard input is closed")
    return sys.stdin.buffer


def stdin_is_terminal() -> bool:
    """Whether standard input is open and a terminal (a person types or pastes into it)."""
    isatty = getattr(sys.stdin, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # ValueError: closed
        return False


def read_bytes(path: str, limit: int, what: str) -> bytes:
    """At most ``limit`` bytes of the file at ``path`` (``-``: stdin); InputError when it
    holds more. OSError as opening or reading raises it."""
    if path == "-":
        return read_stream(stdin_bytes(), "stdin", limit, what)
    with Path(path).open("rb") as stream:
        return read_stream(stream, path, limit, what)


def decode_text(data: bytes) -> str:
    """``data`` as UTF-8, or as UTF-16 where its byte-order mark says so; a UTF-8 mark is
    dropped. UnicodeDecodeError when it is neither.

    Windows PowerShell 5.1 writes what ``>`` redirects as UTF-16-LE with a mark (``tfdoctor
    check --json > report.json``, ``pip freeze > requirements.txt``), Notepad's "UTF-8 with
    BOM" keeps a mark, and Python's ``json`` refuses one: pip reads requirements files by
    their mark the same way (``pip/_internal/utils/encoding.py``, ``auto_decode``).
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    return data.decode("utf-8-sig")


def read_text(path: str, limit: int, what: str) -> str:
    """The text of ``path`` (``-``: stdin; UTF-8, or UTF-16 with a byte-order mark: see
    :func:`decode_text`), at most ``limit`` bytes; InputError when larger, OSError or
    UnicodeDecodeError when unreadable."""
    return decode_text(read_bytes(path, limit, what))


def parse_json(text: str, name: str, what: str, max_depth: int = MAX_JSON_NESTING) -> Any:
    """JSON ``text`` parsed, nested at most ``max_depth`` deep.

    InputError when nested deeper; ValueError (``json.JSONDecodeError``) when not JSON.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        # Python's json recurses once per level and gives up near the recursion limit.
        raise InputError(_too_deep(name, what, max_depth)) from None
    except MemoryError:
        raise InputError(f"{name}: too large to parse as JSON in memory") from None
    if json_depth(value, max_depth) > max_depth:
        raise InputError(_too_deep(name, what, max_depth))
    return value


def _too_deep(name: str, what: str, max_depth: int) -> str:
    return f"{name}: nested deeper than {max_depth} levels, the most {what} may be"


def read_json(path: str, limit: int, what: str, max_depth: int = MAX_JSON_NESTING) -> Any:
    """The JSON document in ``path`` (``-``: stdin) within ``limit`` bytes and ``max_depth``
    levels: InputError over a limit, ValueError when not JSON, OSError when unreadable."""
    return parse_json(read_text(path, limit, what), path, what, max_depth)


def json_depth(value: Any, stop: int) -> int:
    """How deep ``value`` nests (a scalar is 0, ``[]`` is 1), counted up to ``stop + 1``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > stop:
            return deepest
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


# --- source code -------------------------------------------------------------------------------

# What the code pre-scan steps over: string literals (a prefix such as ``rb`` is left as a
# word), comments and backslash continuations, whose brackets and operators are not code's.
_NOT_CODE = re.compile(
    r"""\"\"\"[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:\"\"\"|\Z)
      | '''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*(?:'''|\Z)
      | "[^"\\\n]*(?:\\.[^"\\\n]*)*"?
      | '[^'\\\n]*(?:\\.[^'\\\n]*)*'?
      | \#[^\n]*
      | \\\n""",
    re.VERBOSE | re.DOTALL,
)
# A token, about: a word (name, keyword, number) or one punctuation character.
_TOKEN = re.compile(r"\w+|[^\w\s]")
# The marks that shape an expression: brackets, separators, line ends, operator runs.
_MARKS = re.compile(r"[(\[{]|[)\]}]|[,;\n]|[^\w\s(\[{)\]},;]+")

#: Whether the parser itself must be kept from deep expressions: before 3.11 CPython builds
#: the tree without a depth check and overflows the C stack (3.9 and 3.10 crash with SIGSEGV
#: on ``x = a`` followed by 250,000 ``.b``); 3.11 raises RecursionError instead (gh-95185).
DEPTH_UNGUARDED = sys.version_info < (3, 11)


def code_problem(text: str, check_depth: bool = DEPTH_UNGUARDED) -> Optional[str]:
    """Why Python source ``text`` is not to be parsed, or None.

    Over :data:`MAX_SOURCE_TOKENS` tokens (counted only in a text long enough to hold that
    many), or, with ``check_depth``, an expression over :data:`MAX_EXPRESSION_DEPTH`. Cheap
    next to parsing: regular expressions, and a loop over the operators for the depth.
    """
    if len(text) <= MAX_SOURCE_TOKENS and not check_depth:
        return None
    code = _NOT_CODE.sub(" 0 ", text)
    if len(code) > MAX_SOURCE_TOKENS:
        tokens = _TOKEN.subn("", code)[1]
        if tokens > MAX_SOURCE_TOKENS:
            return f"too large to parse: about {tokens:,} tokens, over {MAX_SOURCE_TOKENS:,}"
    if check_depth and expression_depth(code, MAX_EXPRESSION_DEPTH) > MAX_EXPRESSION_DEPTH:
        return f"nested too deeply: an expression over {MAX_EXPRESSION_DEPTH} levels deep"
    return None


def expression_depth(code: str, stop: int) -> int:
    """About how deep the deepest expression of ``code`` nests, counted up to ``stop + 1``.

    ``code`` is source with strings and comments blanked. Each bracket level counts the
    operator runs and opening brackets since its last comma (``a.b(c)[d] + e`` is a chain of
    four), the levels add up, a line end outside brackets starts afresh: about the depth the
    syntax tree takes along chains, which a long flat literal (``[1, 2, ...]``) keeps low.
    What it does not count (``- - x``, ``not not x``, ``a if b else ...``) nests to the
    right, and the parser limits that itself on every version (a MemoryError).
    """
    counts = [0]
    total = 0
    deepest = 0
    for match in _MARKS.finditer(code):
        mark = match.group()
        first = mark[0]
        if first in "([{":
            counts[-1] += 1
            counts.append(0)
            total += 1
        elif first in ")]}":
            if len(counts) > 1:
                total -= counts.pop()
            continue
        elif first == ",":
            total -= counts[-1]
            counts[-1] = 0
            continue
        elif first in "\n;":
            if len(counts) == 1:
                total, counts[0] = 0, 0
            continue
        else:
            counts[-1] += 1
            total += 1
        if total > deepest:
            deepest = total
            if deepest > stop:
                break
    return deepest
