"""Read a pasted log as the user sees it: streamed, cleaned, numbered.

A log arrives as a file or on stdin, often copied from a terminal, a CI job or a notebook:
ANSI colour codes, Windows line ends, progress bars redrawn with ``\\r``, invalid UTF-8,
PowerShell's UTF-16 (with a byte-order mark or without), a traceback the ``rich`` library
drew in a box, or a whole Jupyter notebook.
:func:`read_log` turns any of these into :class:`LogText` blocks of whole lines, in order,
with the number of their first line, holding at most one block (about a mebibyte) in memory
at a time. A notebook is the exception: JSON has to be parsed whole, so it is read whole
(within :mod:`tfdoctor.bounded`'s limits on size and nesting, else InputError). Of a plain
log at most :data:`MAX_LOG_BYTES` are read (its start and its end); :attr:`LogReader.unread`
then says what was left. Binary data inside a log is read as empty lines; a log that is
binary data from its start, or compressed, is an InputError.
"""

from __future__ import annotations

import codecs
import functools
import io
import json
import re
import shlex
from collections.abc import Iterable, Iterator
from typing import IO, Any, Optional

from tfdoctor.bounded import (
    MAX_LOG_BYTES,
    MAX_NOTEBOOK_BYTES,
    InputError,
    parse_json,
    size_text,
)
from tfdoctor.evidence.progress import crash_shown
from tfdoctor.records import Record, record

#: Bytes read at a time; a block ends at the last line end inside it.
CHUNK = 1 << 20
#: A line longer than this is cut into pieces (a progress bar that never ends its line).
MAX_LINE = 4 << 20

# ECMA-48 control sequences (colours, cursor moves), OSC strings (titles, hyperlinks) and
# the other escapes: ESC, any intermediate bytes (0x20-0x2F), one final byte (0x30-0x7E), as
# ECMA-35 13.2 and ECMA-48 5.3 define them (``ESC ( 0`` selects the line-drawing character
# set, ``ESC c`` resets the terminal): what terminals interpret and a pasted log should not
# contain.
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)"
    r"|\x1b[ -/]*[0-~]"
)


#: Typographic quotes, as the straight ones a program printed.
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
#: Looked for first: a translate over a long non-ASCII log (Keras 3's progress bars are) is slow.
_QUOTE_CHARS = ("\u2018", "\u2019", "\u201c", "\u201d")


#: Characters no text holds, as file(1)'s test for text has them (libmagic, src/encoding.c,
#: ``text_chars``, the ``F`` entries): the C0 controls but BEL, BS, TAB, LF, VT, FF, CR and
#: ESC, and DEL. Also left out: SO and SI, which terminals print to switch character sets
#: (``tput sgr0`` under TERM=screen ends in SI, so a coloured log holds one a line), and
#: zero bytes, which :func:`clean` drops (a run of them is a hole in a log, not binary data).
_NOT_TEXT = dict.fromkeys([*range(0x01, 0x07), *range(0x10, 0x1B), *range(0x1C, 0x20), 0x7F])
#: How much of a block's start tells text from binary data.
_SAMPLE = 4096
#: The share of :data:`_NOT_TEXT` characters past which a block is binary data: random bytes
#: read as UTF-8 hold about a tenth, text in any encoding (a locale's, UTF-8 read as Latin-1)
#: next to none.
_BINARY_SHARE = 0.02

#: The magic numbers of compressed files a log is kept in (gzip: RFC 1952 2.3.1; zstd: RFC
#: 8878 3.1.1, 0xFD2FB528 little-endian; xz: the .xz file format 2.1.1.1), and the command
#: that reads each.
_COMPRESSED = (
    (b"\x1f\x8b", "gzip -dc"),
    (b"\x28\xb5\x2f\xfd", "zstd -dc"),
    (b"\xfd7zXZ\x00", "xz -dc"),
)


#: A line holding one of those characters, from its start to its end (the first is found
#: without backtracking): in a block of binary data, a line of it, not of text. A byte that
#: was not UTF-8 (U+FFFD) alone is not one: a Windows log's line in its locale's code page
#: (cp1252, GBK) holds them, the failure's own line among them; the few short lines of
#: binary data without a control character stay as lines of U+FFFD that nothing matches.
_NOT_TEXT_CLASS = "".join(map(chr, _NOT_TEXT))
_BINARY_LINE = re.compile(
    f"^[^\n{_NOT_TEXT_CLASS}]*[{_NOT_TEXT_CLASS}][^\n]*",
    re.MULTILINE,
)


def is_binary(text: str) -> bool:
    """Whether ``text`` (a block as read) starts with binary data rather than lines of a log."""
    sample = text[:_SAMPLE]
    return len(sample) - len(sample.translate(_NOT_TEXT)) > len(sample) * _BINARY_SHARE


class LogError(Exception):
    """A log that cannot be read at all (the file is missing or unreadable)."""


@record
class LogText(Record):
    """Consecutive lines of a log: where they come from, the first line's number, the text.

    ``label`` is empty for a plain log and ``cell 3`` for a notebook cell's output; ``text``
    holds whole lines separated by ``\\n``.
    """

    label: str
    first_line: int
    text: str

    def where(self, offset: int) -> str:
        """The position of the line ``offset`` lines into this block, as the user sees it."""
        line = self.first_line + offset
        return f"{self.label}, line {line}" if self.label else f"line {line}"


#: GitHub Actions' timestamp before every line of a job's log (``2023-01-05T10:00:01.1234567Z``).
_ACTIONS_STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ", re.MULTILINE)
#: A CI page's line number before a line, as copied from its log view (``1439 File ...``;
#: a bare number for an empty line).
_LINE_NUMBER = re.compile(r"^(\d{1,7})(?: |$)", re.MULTILINE)
_NUMBERED_RUN = re.compile(
    r"^\d{1,7}(?: [^\n]*)?\n\d{1,7}(?: [^\n]*)?\n\d{1,7}(?: |$)", re.MULTILINE
)
#: The same run after a line break: a pattern that starts with a literal is looked for with a
#: fast search for it, where one that starts with ``^`` is tried at every character.
_NUMBERED_RUN_AFTER = re.compile(
    r"\n\d{1,7}(?: [^\n]*)?\n\d{1,7}(?: [^\n]*)?\n\d{1,7}(?: |$)", re.MULTILINE
)
#: How much of a block's start is searched for a CI service's prefixes.
_CI_HEAD = 64 * 1024
#: The fewest lines in a row a log view's numbering is read from.
_NUMBERED_LINES = 4


#: What a log view's numbered lines hold somewhere in a run: a traceback, an error, a log line.
_LOG_CONTENT = re.compile(
    r"Traceback \(|^(?:\d{1,7} )?\s*File \"|^(?:\d{1,7} )?[\w.]+(?:Error|Exception)\b|ERROR"
    r"|\d{4}-\d\d-\d\d[ T]\d",
    re.MULTILINE,
)


def _log_view(text: str, run: list[re.Match[str]]) -> bool:
    """Whether a run of numbered lines is a log view's: long enough, and holding log content
    (a numbered list or a table of numbers keeps its numbers)."""
    if len(run) < _NUMBERED_LINES:
        return False
    end = text.find("\n", run[-1].end())
    return _LOG_CONTENT.search(text, run[0].start(), end if end >= 0 else len(text)) is not None


#: A container runtime's record before every line, as ``cat`` of a pod's log file shows it: the
#: CRI log format kubelet writes (kubernetes ``pkg/kubelet/kuberuntime/logs/logs.go``: an RFC
#: 3339 time with nanoseconds, the stream, ``F`` for a full line or ``P`` for a part of one
#: that the runtime cut and the next record goes on with).
_CRI_START = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) (?:stdout|stderr) "
_CRI_RECORD = re.compile(f"^{_CRI_START}([FP])(?: |$)", re.MULTILINE)
#: A CRI record that holds a part of a line: its text and the line end after it are one line
#: with the next record's.
_CRI_PART = re.compile(f"^({_CRI_START})P ([^\n]*)\n{_CRI_START}([FP]) ?", re.MULTILINE)
#: Docker Compose's service label before every line of ``docker compose up`` or ``logs``:
#: the container's name (``app-1`` in Compose v2, ``app_1`` in v1), padded with blanks to the
#: longest one's, then ``| `` (docker/compose ``cmd/formatter/logs.go``, ``LogConsumer``;
#: v1 ``compose/cli/log_printer.py``); a line that was empty keeps ``app-1  |``.
_COMPOSE_LABEL = re.compile(r"^[A-Za-z0-9][\w.-]{0,62}[-_]\d{1,4} *\|(?: |$)", re.MULTILINE)
#: journalctl's short output of a unit's lines and syslog's files (systemd
#: ``src/shared/logs-show.c``, ``output_short``; RFC 3164 4.1.2): month, day, time, host,
#: the program and its process id, ``: ``.
_JOURNAL_PREFIX = re.compile(
    r"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]{1,253} [\w.@/-]{1,64}(?:\[\d{1,10}\])?: ?",
    re.MULTILINE,
)
#: A time a console or a tool puts before every line it shows: Jenkins' Timestamper in the
#: console (``21:51:15  Started by user``, the system clock's time or the elapsed time, with
#: milliseconds where so formatted: plugins.jenkins.io/timestamper) and in a Pipeline's
#: plain-text log (``[2024-03-02T10:00:00.123Z] ``), and moreutils' ``ts`` (its default format
#: ``%b %d %H:%M:%S``: ``Mar 02 10:00:00 ``, ts(1)).
_TIME_PREFIX = re.compile(
    r"^(?:\d\d:\d\d:\d\d(?:\.\d{1,3})?  |\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\] "
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d )",
    re.MULTILINE,
)
#: BuildKit's plain progress (``docker build --progress=plain``, Docker's default where the
#: output is no terminal): a step's output lines after ``#N`` and the seconds since the step
#: started, three decimals under ten seconds, two under a hundred, one beyond (moby/buildkit
#: ``util/progress/progressui``, the trace's logs: ``%.[2]*[1]f``); its summary of a failed
#: step repeats them with the seconds only, under `` > [2/4] RUN ...:`` between rules of
#: dashes.
_BUILDKIT_LOG = re.compile(r"^#\d{1,4} \d{1,7}\.\d{1,3} ", re.MULTILINE)
#: A failed step's summary: its header (`` > [3/4] RUN ...:``, a stage's name before the
#: numbers where it has one; a heredoc's lines after it) and its lines up to the rule of
#: dashes that closes it.
_BUILDKIT_SUMMARY = re.compile(
    r"^ > \[(?:[\w.-]+ )?\d{1,4}/\d{1,4}\] [^\n]*\n(?:(?!-{6}$)[^\n]*\n)*?(?=-{6}$)",
    re.MULTILINE,
)
_BUILDKIT_SECONDS = re.compile(r"^\d{1,7}\.\d{1,3} ", re.MULTILINE)
#: The characters a summary's header starts with.
_SUMMARY_START = " > ["
#: The fewest lines of a log's head a line prefix must start before it is read as one.
_PREFIXED_LINES = 3
#: The lines of a block's start looked at for a prefix.
_HEAD_LINES = 12


def _head_lines(text: str) -> int:
    """Where the first :data:`_HEAD_LINES` lines of ``text`` end."""
    end = -1
    for _ in range(_HEAD_LINES):
        end = text.find("\n", end + 1)
        if end < 0:
            return len(text)
    return end


def _prefixed(text: str, prefix: re.Pattern[str]) -> bool:
    """Whether :data:`_PREFIXED_LINES` or more of the first :data:`_HEAD_LINES` lines of
    ``text`` start with ``prefix``, or every line of a shorter paste does (the one line that
    failed). A prefix of every line is on the first lines; looking no further keeps a log
    without one from being searched whole, line start by line start."""
    end = _head_lines(text)
    found = sum(1 for _ in prefix.finditer(text, 0, end))
    if found >= _PREFIXED_LINES:
        return True
    return end == len(text) and found > 0 and found == sum(1 for x in text.split("\n") if x.strip())


#: A log kept as one JSON record per line, the line's text in a field of its own: Docker's
#: json-file logging driver (``{"log":"...\\n","stream":"stderr","time":"..."}``, what ``cat`` of
#: a container's ``-json.log`` shows: docs.docker.com/engine/logging/drivers/json-file/) and
#: Kaggle's notebook log (a JSON array, a record a line: ``{"stream_name":"stderr",
#: "time":1.2,"data":"..."}``, after ``[`` or ``,``), the first key's name marking it.
_JSON_RECORD = re.compile(r'^[\[,]?[ \t]*\{"(?:log|stream|stream_name|time)"[ \t]*:', re.MULTILINE)
#: One such record alone on its line (a JSON array's bracket or comma around it; the ``\r``
#: of a CRLF line end, which is read after the records, after it).
_JSON_LINE = re.compile(r"[\[,]?[ \t]*(\{.*\})[ \t]*[,\]]?[ \t\r]*")
#: The fields that hold a record's line: Docker's ``log``, Kaggle's ``data``.
_JSON_TEXT_FIELDS = ("log", "data")


def _json_records(text: str) -> str:
    """``text`` with each JSON log record (:data:`_JSON_RECORD`) replaced by the line it holds
    (its own line end included, as the program wrote it; where no record's text ends a line,
    as a collector that keeps the line without its end writes them, a record is a line); a
    line that is no such record stays as it is."""
    lines = text.split("\n")
    values: list[Optional[str]] = []
    for line in lines:
        found = _JSON_LINE.fullmatch(line)
        record: object = None
        if found is not None:
            try:
                record = json.loads(found.group(1))
            except ValueError:
                record = None
        value = None
        if isinstance(record, dict):
            value = next(
                (v for k in _JSON_TEXT_FIELDS if isinstance(v := record.get(k), str)), None
            )
        values.append(value)
    # Docker's and Kaggle's records keep the line end the program wrote (a record without
    # one is part of a line, joined to the next); records that never hold one are a line each.
    ended = any(v is not None and v.endswith("\n") for v in values)
    out: list[str] = []
    for number, (line, value) in enumerate(zip(lines, values), start=1):
        end = "\n" if number < len(lines) else ""
        if value is None:
            out.append(line + end)
        else:
            out.append(value if ended else value + "\n")
    return "".join(out)


#: The prefixes taken off as they are, in order, each with a character its lines must show
#: in the head before its pattern is searched for: Compose's label, journalctl's, a time,
#: BuildKit's step.
_PLAIN_PREFIXES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("|", _COMPOSE_LABEL),
    ("]: ", _JOURNAL_PREFIX),
    (":", _TIME_PREFIX),
    ("#", _BUILDKIT_LOG),
)


def _without_line_prefixes(text: str) -> str:
    """``text`` without the prefix a container runtime or a system log puts before every
    line: the CRI record kubelet writes (its parts of a line joined), Docker Compose's
    service label, journalctl's and syslog's time, host and process. A family is read only
    where three or more lines of the head carry it, or every line of a shorter paste: one such
    line among others is the log's own."""
    # Each family's mark is looked for in the head its lines must be in: searched for in the
    # whole text, each of them cost a log without a prefix as much as the rest of clean().
    head = text[: _head_lines(text)]
    if " std" in head and _prefixed(text, _CRI_RECORD):
        while True:
            joined = _CRI_PART.sub(r"\1\3 \2", text)
            if joined == text:
                break
            text = joined
        text = _CRI_RECORD.sub("", text)
    for mark, prefix in _PLAIN_PREFIXES:
        if mark in head and _prefixed(text, prefix):
            text = prefix.sub("", text)
    if _SUMMARY_START in text:
        text = _without_summary_seconds(text)
    return text


def _without_summary_seconds(text: str) -> str:
    """``text`` with the seconds off the lines of each failed step's summary BuildKit printed
    (:data:`_BUILDKIT_SUMMARY`; the lines before its header and after its closing rule are the
    log's own). Only the lines that start with the header's characters (found with
    ``str.find``) are matched: the pattern tried at every line start reads a text several
    times slower."""
    out: list[str] = []
    copied = 0
    at = text.find(_SUMMARY_START)
    while at >= 0:
        found = _BUILDKIT_SUMMARY.match(text, at) if at == 0 or text[at - 1] == "\n" else None
        if found is None:
            at = text.find(_SUMMARY_START, at + 1)
            continue
        out.append(text[copied:at])
        out.append(_BUILDKIT_SECONDS.sub("", found[0]))
        copied = found.end()
        at = text.find(_SUMMARY_START, copied)
    if not out:
        return text
    out.append(text[copied:])
    return "".join(out)


#: The narrowest width a hard-wrapped log is read at: terminals open at 80 columns, and a
#: narrower one cuts TensorFlow's lines into too many pieces for a paste to be read.
_WRAP_LEAST = 60
#: The widest: beyond it a line of exactly the longest length is a long line, not a cut.
_WRAP_MOST = 400
#: The fewest lines cut at the same width that make a wrap certain (a line
#: twice the width, cut twice, as a console shows the longest of TensorFlow's lines).
_WRAP_CUTS = 2
#: How a line starts that is a line of its own, not the rest of one cut at the width before
#: it: indentation (a frame, a block; a single blank is where a console cut a line at a
#: blank, as it cuts anywhere), a date or a time, TensorFlow's and absl's ``W``,
#: ``E``, ``I`` and ``F`` lines, Python's ``Traceback`` and ``File``, an exception's name, a
#: level's word (pip's ``ERROR: ``, ``WARNING: ``: pip/_internal/utils/logging.py,
#: ``IndentingFormatter.get_message_start``), a Keras epoch or progress line, a bracket or a
#: rule, BuildKit's step number (``#8 ``), a shell's report of a process's end (its name
#: first, as bash's, zsh's and fish's ``bash: line 1: 4242 Killed``, ``zsh: illegal
#: hardware instruction``; glibc's strsignal words a shell prints alone, ``Illegal
#: instruction``, ``Bus error``; the others are
#: :func:`tfdoctor.evidence.progress.crash_shown`'s), a shell's or Python's prompt, a line
#: of Python code, a path that starts a Python warning. A capital letter starts a line of
#: its own too (pip's ``Collecting``, ``Requirement already satisfied``, ``Successfully
#: installed``: pip/_internal/operations/prepare.py's ``Collecting %s`` and
#: ``Requirement %s: %s (%s)``, commands/install.py's), read in :func:`_capital_start`.
#: The widths consoles open at, where one cut is enough: 80 columns (the VT100's, xterm's and
#: most terminals' default) and 120 (the Windows console's default buffer width since
#: Windows 10). A log's longest line is seldom exactly as wide and followed by one that does
#: not start as a line of its own.
_CONSOLE_WIDTHS = frozenset((80, 120))
#: How many characters two lines share at their start that makes the second a line of its own.
_SHARED_START = 6
#: What ends a sentence, and so a line a program printed, more often than a console's cut.
_SENTENCE_END = frozenset(".:!?")
#: A number, decimal or hexadecimal (an address, a hash, with or without a digit: ``dcaad``),
#: each run of such characters read as one 0: lines that differ only in numbers (times,
#: counts, addresses) read as one; the pieces of a line a console cut differ in other letters.
_NUMBER = re.compile(r"[0-9A-Fa-f]+")
_OWN_LINE = re.compile(
    r"\s\s|\t|$|\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|[WEIF]\d{4} |[WEIF] \S+\.(?:cc|h|py):\d"
    r"|Traceback \(|File \"|During handling|The above exception"
    r"|[A-Z]\w*(?:Error|Exception|Warning)\b|[A-Z]{3,}:"
    r"|Epoch \d|\d+/\d+ |\[|[-=_*#~]{3}|#\d{1,4} "
    r"|[a-z]{0,3}sh: |Illegal instruction\b|Bus error\b"
    # A shell's prompt: bash's default PS1 (``user@host:~/dir$ ``) after a virtual
    # environment's ``(venv) `` (venv's activate script puts it before PS1), a bare ``$ `` or
    # ``# ``, CPython's interactive ``>>> `` and ``... `` (sys.ps1, sys.ps2), PowerShell's
    # ``PS C:\>`` and cmd's ``C:\>`` (IPython's ``In [3]:`` is a capitalised word).
    r"|\([\w.-]+\) |[\w.-]+@[\w.-]+:\S*[$#] |[$#] |>>> |\.\.\. |(?:PS )?[A-Z]:\\"
    # Python code a user pasted: an import, an assignment, a call alone on its line.
    r"|import \w|from [\w.]+ import |[A-Za-z_]\w*(?:\[[^\]]*\])? = |[A-Za-z_][\w.]*\(.*\)$"
    # A path that starts a warning of Python's own (warnings.formatwarning:
    # ``{filename}:{lineno}: {category}: {message}``); a path alone may be the rest of a
    # path a console cut (``/usr`` then ``/local/nvidia/lib64``), and goes on.
    r"|(?:~|\.{1,2})?/\S*\.py:\d+: "
)


def _wrap_width(text: str) -> Optional[int]:
    """The width the text's head was hard-wrapped at (a console that breaks long lines, a copy
    from a fixed-width box), where that is certain; else None.

    Certain when no line of the text is longer than a width, and two or more lines of
    exactly that width in the head (one, at a console's width (:data:`_CONSOLE_WIDTHS`)),
    that differ in more than their digits and do not end a sentence (a dot inside a number
    ends none: :func:`_number_cut`), come before a line
    that may go on them (:func:`_goes_on`, the rule :func:`_unwrapped` joins by). A log's
    own lines of one length end a line and the next starts one (Keras' progress lines), or
    are one message printed again and again (pip's resolver note before each conflict, a
    warning of TensorFlow's with only its time changed), ending its sentence or differing
    only in numbers; the pieces a console cut differ."""
    head = text[:_CI_HEAD]
    # A head cut from a longer text ends inside a line: that line's length says nothing.
    cut = head.rfind("\n") if len(text) > len(head) else -1
    end = cut if cut > 0 else len(head)
    lines = head[:end].split("\n")
    # A line redrawn with "\r" shows its last state only: its length is not what was shown.
    width = max((len(line) for line in lines if "\r" not in line), default=0)
    if not _WRAP_LEAST <= width <= _WRAP_MOST:
        return None
    cuts: set[str] = set()
    for line, after in zip(lines, lines[1:]):
        if (
            len(line) == width
            and (line[-1] not in _SENTENCE_END or _number_cut(line, after))
            and _goes_on(line, line, after)
        ):
            cuts.add(_NUMBER.sub("0", line))
            if len(cuts) >= _WRAP_CUTS or (width in _CONSOLE_WIDTHS and len(cuts) == 1):
                # The width is read from the head, and joins are made over the whole text:
                # a longer line past the head says the text was not cut at that width.
                rest = text[end + 1 :].split("\n") if end < len(text) else []
                if any(len(line) > width and "\r" not in line for line in rest):
                    return None
                return width
    return None


def _unwrapped(text: str) -> str:
    """``text`` with the lines a hard wrap cut joined again: each line of exactly the wrap's
    width goes on in the next (a line of twice the width was cut twice), unless the next
    may start a line of its own (:func:`_goes_on`): a line that was exactly as wide stays
    whole, and a line left apart is read as before, where one joined wrongly could read as
    another. Where no width is certain, a Python frame cut once at the text's width is
    joined (:func:`_frames_joined`)."""
    width = _wrap_width(text)
    if width is None:
        return _frames_joined(text) if _FRAME_HEAD in text else text
    lines = text.split("\n")
    out: list[str] = []
    # The pieces of the line being joined, joined once when it ends: a piece added to the
    # joined line each time would copy it whole, quadratic in a long line's pieces.
    pieces = [lines[0]]
    for before, line in zip(lines, lines[1:]):
        if len(before) == width and _goes_on(pieces[0], before, line):
            pieces.append(line)
        else:
            out.append("".join(pieces))
            pieces = [line]
    out.append("".join(pieces))
    return "\n".join(out)


#: How CPython starts a traceback's frame line (Lib/traceback.py, ``StackSummary.format``:
#: ``'  File "{}", line {}, in {}\n'``), searched before any line is split.
_FRAME_HEAD = 'File "'
#: A frame line from its ``File`` and the line break after it, where the next line starts
#: with no blank (no ``^`` anchor: the engine looks for the literal, line starts are many).
_FRAME_BEFORE_UNINDENTED = re.compile(r'File "[^\n]*\n(?=[^ \t\n])')
#: A frame line whole: its function a name, a dotted qualified name, or one in angle
#: brackets (``<module>``, ``<lambda>``, ``<listcomp>``), nothing after it.
_FRAME_WHOLE = re.compile(
    r'[ \t]*File "[^"\n]+", line \d+, in (?:<\w+>|\w+)(?:\.(?:<\w+>|\w+))*[ \t]*'
)
#: An exception's line, which may follow a frame without its source (``python -c``, a frozen
#: program): never the rest of a frame.
_EXCEPTION_START = re.compile(r"[\w.]*(?:Error|Exception|Warning|Exit|Interrupt)\b")


def _frames_joined(text: str) -> str:
    """``text`` with each Python frame line that a console cut once joined to its rest.

    CPython prints a frame on one line and under it the frame's source indented, another
    frame, or the exception. A frame line as long as the text's longest line, followed by a
    line that is none of those (:data:`_FRAME_BEFORE_UNINDENTED`) and completes it
    (:data:`_FRAME_WHOLE`: ``, line 258, i`` then ``n import_graph_def``, ``in <module``
    then ``>``), was cut at the console's width: one such cut is a wrap as certain as two of
    any other line (:func:`_wrap_width`), the frame's form being known."""
    # The frame lines followed by a line that starts with no blank, found by a pattern:
    # a long log's lines are not visited one by one.
    cuts: list[int] = []
    # Whether a line of each length is the text's widest, asked once a length.
    widest: dict[int, bool] = {}
    for found in _FRAME_BEFORE_UNINDENTED.finditer(text):
        line_start = text.rfind("\n", 0, found.start()) + 1
        length = found.end() - 1 - line_start
        if length not in widest:
            widest[length] = _widest(text, length)
        if not widest[length]:
            continue  # narrower than the text's widest line: a frame line printed whole
        rest_end = text.find("\n", found.end())
        after = text[found.end() : rest_end if rest_end >= 0 else len(text)]
        before = text[line_start : found.end() - 1]
        if (
            _FRAME_WHOLE.fullmatch(before + after) is not None
            and _EXCEPTION_START.match(after) is None
            # A capitalised word starts a line of its own (a bare exception that names no
            # kind by its suffix, ``StopIteration``), as does a shell's report of the
            # process's end (``Killed``), whatever the frame line before it.
            and not _capital_start(before, after)
            and not crash_shown(after)
        ):
            cuts.append(found.end() - 1)
    if not cuts:
        return text
    out: list[str] = []
    copied = 0
    for at in cuts:
        # The line break at ``at`` is the console's: dropped.
        out.append(text[copied:at])
        copied = at + 1
    out.append(text[copied:])
    return "".join(out)


@functools.lru_cache(maxsize=64)
def _longer_line(length: int) -> re.Pattern[str]:
    """A whole line longer than ``length`` with no carriage return in it (a line redrawn with
    "\r" shows its last state only: its length is not what was shown)."""
    return re.compile(rf"(?m)^[^\r\n]{{{length + 1},}}$")


def _widest(text: str, length: int) -> bool:
    """Whether a line of ``length`` is as long as the text's longest line (those redrawn with
    "\r" aside) and at least the narrowest width a console wraps at: found by one pattern,
    not by measuring every line of a long log."""
    return length >= _WRAP_LEAST and _longer_line(length).search(text) is None


def _goes_on(line: str, before: str, after: str) -> bool:
    """Whether ``after`` may be the rest of ``line`` (whose last piece so far is ``before``)
    cut by a console: it starts no capitalised word (:func:`_capital_start`) and as no line
    of its own does (:data:`_OWN_LINE`), nor as ``line``
    itself does (a prefix every line carries: a runtime's, a service's label, a time), nor
    is a shell's report of the process's end (``Killed``, ``Segmentation fault (core
    dumped)``), which the shell writes on a line of its own whatever the length of the line
    before it."""
    return (
        bool(after)
        and not _capital_start(before, after)
        and _OWN_LINE.match(after) is None
        and after[:_SHARED_START] != line[:_SHARED_START]
        and not crash_shown(after)
    )


def _number_cut(before: str, after: str) -> bool:
    """Whether a line that ends in a dot ends inside a number the next line goes on
    (``tensorflow==1.15.`` then ``2``): a digit on both sides of the dot and no blank
    between. A dot between two digits is a number's (a release's, a size's), where one
    that ends a sentence is followed by a blank."""
    return before[-2:-1].isdigit() and before[-1:] == "." and after[:1].isdigit()


def _capital_start(before: str, after: str) -> bool:
    """Whether ``after`` starts with a capital letter that may start a line of its own: a
    capitalised word (a sentence, a message, a command's report: pip's ``Collecting``,
    ``Successfully installed``; IPython's ``In [3]:``), or any capital after a line that
    does not end inside a word. A capital after a letter or a digit, followed by no
    lowercase letter, goes on the word a console cut (``2.39Gi`` then ``B with``,
    ``lib`` then ``CUDA``); so does a capitalised word inside a path, after a line whose
    last word is a path cut in a name (``C:\\Users\\me\\App`` then ``Data\\Local\\``):
    a word of a line of its own holds no path separator before its first blank."""
    if not after[0].isupper():
        return False
    if not before[-1:].isalnum():
        return True
    return after[1:2].islower() and not _path_cut(before, after)


#: A path's separators, POSIX's and Windows'.
_PATH_SEPARATORS = ("/", "\\")


def _path_cut(before: str, after: str) -> bool:
    """Whether ``before`` ends inside a path (its last word holds a separator) and
    ``after``'s first word goes on it (holds one too)."""
    last = before.rsplit(None, 1)[-1] if before.strip() else ""
    first = after.split(None, 1)[0] if after.strip() else ""
    return any(sep in last for sep in _PATH_SEPARATORS) and any(
        sep in first for sep in _PATH_SEPARATORS
    )


def _without_ci_prefixes(text: str) -> str:
    """``text`` without the prefixes a CI service's log view puts before every line: GitHub
    Actions' timestamps, and line numbers where four or more lines in a row (next to each
    other) carry numbers that count up by one (a copy of Travis' or GitLab's log view)."""
    # A stamp in the head ends in "Z ": the head is searched for it, not the whole block.
    if text.find("Z ", 0, _CI_HEAD) >= 0 and _ACTIONS_STAMP.search(text, 0, _CI_HEAD):
        text = _ACTIONS_STAMP.sub("", text)
    # A log view numbers every line: numbered lines in a row near the start, or none.
    if (
        _NUMBERED_RUN.match(text, 0, _CI_HEAD) is None
        and _NUMBERED_RUN_AFTER.search(text, 0, _CI_HEAD) is None
    ):
        return text
    keep: set[int] = set()
    run: list[re.Match[str]] = []
    for match in _LINE_NUMBER.finditer(text):
        last = run[-1] if run else None
        if (
            last is not None
            and int(match.group(1)) == int(last.group(1)) + 1
            # The next line: only its line break between the two.
            and text.find("\n", last.end()) + 1 == match.start()
        ):
            run.append(match)
            continue
        if _log_view(text, run):
            keep.update(m.start() for m in run)
        run = [match]
    if _log_view(text, run):
        keep.update(m.start() for m in run)
    if not keep:
        return text
    return _LINE_NUMBER.sub(lambda m: "" if m.start() in keep else m.group(0), text)


#: A quoted paste: Markdown's block-quote marker (CommonMark 0.31, 5.1 Block quotes: ``>``
#: and an optional space, alone on an empty line of the quote) and an e-mail reply's quote,
#: before the lines of a log pasted into a reply. Python's interactive prompt ``>>> `` is not
#: one: the marker is ``>`` followed by a blank or the line's end. A shell's or R's ``> ``
#: prompt on a line or two is the log's own: the marker is read only where the head's lines
#: carry it (:func:`_prefixed`).
_QUOTE_MARK = re.compile(r"^>(?:[ \t]|$)", re.MULTILINE)
#: The most levels of quote taken off (``> > > ``: a reply to a reply to the paste).
_QUOTE_DEPTH = 4
#: Markdown's indented code block (CommonMark 0.31, 4.4 Indented code blocks: four spaces, or
#: a tab, before each line), as a log pasted into an issue or a forum post as code keeps it;
#: and a line that lacks that indent (blank lines aside), which makes the text no such block.
_CODE_INDENT = re.compile(r"^(?: {4}|\t)", re.MULTILINE)
_CODE_START = re.compile(r"\n*(?: {4}|\t)")
_NOT_CODE_INDENTED = re.compile(r"^(?! {4}|\t)[ \t]*\S", re.MULTILINE)
#: The entities a web page's source writes for the characters HTML reserves (HTML's named
#: character references ``&lt;`` ``&gt;`` ``&amp;`` ``&quot;`` ``&apos;`` and the numeric forms
#: of the apostrophe that Python's html.escape and Jinja's autoescape write, ``&#39;``
#: ``&#x27;``): a log copied from the source of an issue page or a CI report, which the page
#: showed as the program printed it. Other entities are left alone: a program prints none.
_HTML_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|apos|#39|#x27|#X27);")
#: How far into a block entities are looked for.
_ENTITY_HEAD = 1 << 16
_HTML_CHARS = {
    "&lt;": "<",
    "&gt;": ">",
    "&amp;": "&",
    "&quot;": '"',
    "&apos;": "'",
    "&#39;": "'",
    "&#x27;": "'",
    "&#X27;": "'",
}

#: A line that is one Markdown inline code span and nothing else (bounded: linear per line).
_WHOLE_SPAN = re.compile(r"^([ \t]{0,40})`([^`\n]{1,4000})`[ \t]*$", re.MULTILINE)


#: The title line of a traceback as the ``rich`` library prints it (``rich.traceback``,
#: ``Traceback.__rich_console__``: a ``Panel`` titled ``Traceback (most recent call last)``,
#: drawn with ``box.ROUNDED``, or ``box.ASCII`` where the console is not UTF-8, as
#: ``Box.substitute`` chooses; typer's pretty exceptions print the same panel, typer
#: ``main.py``, ``except_hook``), after whatever a runtime put before the line.
_RICH_TITLE = re.compile(
    r"^(.*?)(?:╭─+ Traceback \(most recent call last\) ─+╮"
    r"|\+-+ Traceback \(most recent call last\) -+\+)$",
    re.MULTILINE,
)
#: The title as the top side holds it, a rule after it (CPython's header ends in a colon):
#: looked for before the pattern.
_RICH_TITLE_TEXT = "Traceback (most recent call last) "
#: A frame's line as rich prints it (``_render_stack``): ``path:12 in f``, or where the file
#: is not there (``os.path.exists``), ``in f`` (rich 13.1 to 13.3) or ``in f:12`` (13.4 on);
#: no path is made up for those.
_RICH_FRAME = re.compile(r"^(?P<path>\S.*?):(?P<line>\d+) in (?P<func>\S+)$")
#: A frame's whole line in any of those forms. rich puts no blank row before the line of a
#: frame whose file's name starts with ``<`` (``<stdin>``, ``<string>``, an older IPython
#: cell's ``<ipython-input-1-...>``), so such a line can follow another's directly.
_RICH_FRAME_WHOLE = re.compile(r"^(?:\S.*?:\d+ in \S+|in \S+(?::\d+)?)$")
#: A line of a frame's code (``Syntax`` with line numbers, ``syntax.py``): the pointer
#: (``❱ ``, ``> `` on a legacy Windows console) or two blanks, the number right-aligned, the
#: code after a blank, its indentation drawn as guides (``│``, ``|``).
_RICH_CODE = re.compile(r"^(?P<mark>❱ |> |  ) *\d+(?: (?P<code>.*))?$")
_RICH_GUIDES = re.compile(r"^[│|\s]+")
#: The panel of a frame's locals (``render_scope``, titled ``locals``) beside its code.
_RICH_LOCALS = re.compile(r"(?:╭─+ locals ─+╮|\+-+ locals -+\+)")
#: rich's note of the frames it left out (``max_frames``): Python's form has no such line.
_RICH_HIDDEN = re.compile(r"^\.\.\. \d+ frames hidden \.\.\.$")


def _rich_frame_text(pieces: list[str], inner: int) -> str:
    """A frame's line that rich wrapped onto several lines of a box ``inner`` columns wide,
    whole again. rich wraps at blanks and drops the blank at a break; a word longer than the
    line (a path) it folds onto lines of their own, each as wide as the line (rich
    ``_wrap.py``, ``divide_line``), whose pieces join without one. A path that fills the
    line to its end before `` in f`` is one word cut at a blank."""
    joined = pieces[0]
    last = joined
    for piece in pieces[1:]:
        folded = len(last) == inner and " " not in last.lstrip()
        before_in = piece.startswith("in ") and _FRAME_END.search(joined) is not None
        joined += piece if folded and not before_in else " " + piece
        last = piece
    return joined


#: The end of ``path:12`` before rich's `` in f``.
_FRAME_END = re.compile(r":\d+$")


def _without_locals(inner: str, locals_at: int) -> tuple[str, int]:
    """A line inside rich's box without the locals panel that stands beside the code from its
    title down to its bottom side, and the panel's column for the next line (-1: none)."""
    found = _RICH_LOCALS.search(inner)
    if found is not None:
        locals_at = found.start()
    if locals_at < 0:
        return inner, locals_at
    bottom = inner[locals_at : locals_at + 1] in ("╰", "+") and found is None
    return inner[:locals_at], -1 if bottom else locals_at


class _RichRows:
    """The rows inside a rich traceback's box, read one at a time into CPython's lines."""

    def __init__(self, prefix: str, inner: int) -> None:
        self.inner = inner
        self.out = [f"{prefix}Traceback (most recent call last):"]
        #: The pieces of a frame's line being read, and what a runtime put before the first.
        self.pieces: list[str] = []
        self.piece_prefix = prefix
        #: Whether the rows read last are a frame's (its code may follow).
        self.frame = False
        #: Where the code starts on the row of code just read (0: none), and whether that row
        #: holds the frame's own line (the one marked).
        self.gutter = 0
        self.marked = False

    def flush(self) -> None:
        """The frame's line whose pieces were read, as CPython's ``File`` line."""
        if self.pieces:
            frame = _RICH_FRAME.match(_rich_frame_text(self.pieces, self.inner))
            if frame is not None:
                path, number, func = frame.group("path", "line", "func")
                self.out.append(f'{self.piece_prefix}  File "{path}", line {number}, in {func}')
                self.frame = True
            self.pieces.clear()

    def row(self, content: str, here: str) -> None:
        """One row's ``content`` (the box's sides and the locals taken off), after ``here``."""
        gutter, self.gutter = self.gutter, 0
        marked, self.marked = self.marked, False
        code = _RICH_CODE.match(content) if self.frame else None
        if gutter and content[:gutter].isspace() and content[gutter:].strip():
            # The rest of a line of code, wrapped under the gutter's blanks (typer's
            # ``word_wrap=True``; rich ``Syntax``, ``wrapped_line_left_pad``): a numbered line
            # holds its number there. Only the frame's own line is kept.
            if marked:
                self.out[-1] += " " + content[gutter:].strip()
            self.gutter, self.marked = gutter, marked
        elif not content or _RICH_HIDDEN.match(content.strip()):
            self.flush()
        elif code is not None:
            self.flush()
            source = _RICH_GUIDES.sub("", code.group("code") or "")
            self.gutter = code.start("code") if code.group("code") is not None else 0
            if code.group("mark") != "  " and source:
                self.out.append(f"{here}    {source}")
                self.marked = True
        else:
            if self.pieces and _RICH_FRAME_WHOLE.match(_rich_frame_text(self.pieces, self.inner)):
                # The line read is whole: this row is the next frame's, not more of it.
                self.flush()
            if not self.pieces:
                self.piece_prefix = here
                self.frame = False
            self.pieces.append(content)


def _rich_box(lines: list[str], start: int, prefix: str) -> tuple[list[str], int]:
    """The lines of a rich traceback whose title is ``lines[start]`` (after ``prefix``), as
    CPython prints them, and the index after its bottom side; ``([], start)`` where the
    lines below the title are not the box's (a box is as wide as its title line)."""
    width = len(lines[start]) - len(prefix)
    ascii_box = lines[start][-1] == "+"
    side = "|" if ascii_box else "│"
    bottom = ("+", "+") if ascii_box else ("╰", "╯")
    rows = _RichRows(prefix, width - 4)
    locals_at = -1
    for i in range(start + 1, len(lines)):
        line = lines[i]
        box = line[-width:] if len(line) >= width else ""
        if box[:1] == bottom[0] and box[-1:] == bottom[1] and box[1:-1].strip("─-") == "":
            rows.flush()
            return rows.out, i + 1
        if not (box[:1] == side and box[-1:] == side):
            break
        inner, locals_at = _without_locals(box[2:-2], locals_at)
        rows.row(inner.rstrip(), line[: len(line) - width])
    return [], start


#: The row of rich's panel for a syntax error that names the file (``_render_syntax_error``:
#: `` path:3``, not printed for ``<stdin>``), and the row of the mark under the offset.
_RICH_SYNTAX_FILE = re.compile(r"^ (?P<path>\S.*):(?P<line>\d+)$")
_RICH_SYNTAX_MARK = re.compile(r"^ *▲$")
#: The most lines such a panel spans (a path folded over a few rows, the line, the mark).
_RICH_SYNTAX_ROWS = 10


def _rich_syntax_error(lines: list[str], start: int, prefix: str) -> tuple[list[str], int]:
    """The lines of rich's untitled panel for a syntax error at ``lines[start]``, as CPython
    prints them after the frames (``File "p", line N``, the line, a caret under the offset),
    and the index after the panel; ``([], start)`` where it is not one: a box of a path's row
    (or none, for ``<stdin>``), the line and the row of ``▲``, its sides down to its bottom;
    the rounded box or, on a console that is not UTF-8, the ASCII one (as the frames').
    """
    top = lines[start]
    width = len(top) - len(prefix)
    ascii_box = top[len(prefix) : len(prefix) + 1] == "+"
    rule, side = ("-", "|") if ascii_box else ("─", "│")
    corners = ("+", "+", "+", "+") if ascii_box else ("╭", "╮", "╰", "╯")
    if width < 4 or top[len(prefix) :] != corners[0] + rule * (width - 2) + corners[1]:
        return [], start
    rows: list[str] = []
    for i in range(start + 1, min(start + _RICH_SYNTAX_ROWS, len(lines))):
        box = lines[i][-width:] if len(lines[i]) >= width else ""
        if box == corners[2] + rule * (width - 2) + corners[3]:
            break
        if box[:2] != side + " " or box[-2:] != " " + side:
            return [], start
        rows.append(box[2:-2].rstrip())
    else:
        return [], start
    # The path's row is folded where it is longer than the box; the line is cropped.
    code = rows[-2:]
    named = _RICH_SYNTAX_FILE.match(_rich_frame_text(rows[:-2], width - 4)) if rows[:-2] else None
    if len(code) != 2 or not code[0].strip() or _RICH_SYNTAX_MARK.match(code[1]) is None:
        return [], start
    if named is None and rows[:-2]:
        return [], start
    out = [f'{prefix}  File "{named.group("path")}", line {named.group("line")}'] if named else []
    indent = len(code[0]) - len(code[0].lstrip())
    caret = max(len(code[1]) - 1 - indent, 0)
    out += [f"{prefix}    {code[0].strip()}", f"{prefix}    {' ' * caret}^"]
    return out, i + 1


#: The first characters of the rows of a box rich draws, rounded or ASCII.
_BOX_EDGES = frozenset("╭│╰+|")


def _rich_exception(lines: list[str], start: int, prefix: str, width: int) -> tuple[str, int]:
    """The exception's line after a rich box (``lines[start]``), whole where the console
    wrapped it at blanks (rich prints it as ``Text``, wrapped at the console's width, which
    is the box's or wider: the box is at most ``Traceback.width``), and the index after it.
    A break at a blank keeps the blank at the line's end where it fits (rich ``_wrap.py``,
    ``divide_line``, measures a word without its blank; ``Text.wrap`` crops only past the
    width), drops it where it does not or where a copy took it off; a word longer than the
    console is folded.

    A line goes on in the next where the next's first word would not have fitted beside it
    even at the box's width, and the next starts no line of its own (:data:`_OWN_LINE`).
    Where a runtime put ``prefix`` before the title, each piece carries one of its shape (a
    time differs in its digits) and as long, which is not part of the line."""
    whole = lines[start]
    line = whole[len(prefix) :]
    i = start + 1
    if not line or line[0].isspace() or line[0] in _BOX_EDGES:
        # A box's side or corner (a panel the reader left as it was) is no exception's line.
        return whole, i
    shape = _NUMBER.sub("0", prefix)
    pieces = [whole]
    while i < len(lines):
        head, after = lines[i][: len(prefix)], lines[i][len(prefix) :]
        word = after.split(" ", 1)[0]
        if (
            not word
            or _NUMBER.sub("0", head) != shape
            or len(line.rstrip(" ")) + 1 + len(word) <= width
            or _OWN_LINE.match(after) is not None
            or crash_shown(after)
        ):
            break
        # A word longer than the line is folded onto lines of its own, each as wide as the
        # console (rich ``_wrap.py``, ``divide_line``): its pieces join without a blank.
        folded = " " not in line and len(line) >= width
        pieces.append(after if folded or line.endswith(" ") else " " + after)
        line = after
        i += 1
    return "".join(pieces), i


def _rich_titles(text: str) -> Iterator[re.Match[str]]:
    """The title lines of rich's boxes in ``text`` (:data:`_RICH_TITLE`), in order. Only the
    lines that hold the title's words are matched (found with ``str.find``): the pattern's
    lazy prefix, tried at every line start, reads a text several times slower."""
    at = text.find(_RICH_TITLE_TEXT)
    while at >= 0:
        begin = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        if end < 0:
            end = len(text)
        title = _RICH_TITLE.fullmatch(text, begin, end)
        if title is not None:
            yield title
        at = text.find(_RICH_TITLE_TEXT, end)


def _rich_tracebacks(text: str) -> str:
    """``text`` with each traceback that ``rich`` drew in a box as CPython prints it: the
    header, ``File "p", line N, in f`` and the frame's line of code (the one rich marks
    ``❱``); the lines of code around it, the locals and rich's notes left out. The exception's
    line follows the box as it follows CPython's frames. A box drawn by another program, or
    one whose sides do not run down to its bottom, stays as it is."""
    lines = text.split("\n")
    out: list[str] = []
    done = 0
    # Line numbers counted on from the last title: each count over the text from its start
    # would cost a log of many boxes its length once a box.
    start, counted = 0, 0
    for title in _rich_titles(text):
        start += text.count("\n", counted, title.start())
        counted = title.start()
        if start < done:
            continue
        prefix = title.group(1)
        read, end = _rich_box(lines, start, prefix)
        if read:
            out.extend(lines[done:start])
            out.extend(read)
            done = end
            # A syntax error's panel follows the frames' (``__rich_console__``).
            syntax, done = (
                _rich_syntax_error(lines, done, prefix) if done < len(lines) else ([], done)
            )
            out.extend(syntax)
            end = done
            if end < len(lines):
                exception, done = _rich_exception(
                    lines, end, prefix, len(lines[start]) - len(prefix)
                )
                out.append(exception)
    if not done:
        return text
    out.extend(lines[done:])
    return "\n".join(out)


#: Windows' line end, looked for as a pattern: the regular expression engine finds it where
#: it is absent 3.1-3.7x as fast as ``str.find`` (``benchmarks/bench_explain.py --literals``,
#: a 50 MB log), and a log with carriage returns only in its progress bars holds none.
_CRLF = re.compile("\r\n")
#: A line that starts with a 1 or a 2 (a CI view's line number or stamp): one pass by a
#: pattern, where ``"\n1" in text`` and ``"\n2" in text`` were two, each about five times as
#: slow over a text of many short lines (``str.find`` tries each line end it meets).
_LINE_DIGIT = re.compile("\n[12]")


def clean(text: str) -> str:
    """``text`` as a terminal showed it: no escape sequences, ``\\n`` line ends, and of a
    line redrawn with ``\\r`` only its last state."""
    if '{"' in text[: _head_lines(text)] and _prefixed(text, _JSON_RECORD):
        # A record's text is the log, escapes and all (colours as \u001b, \r of a progress
        # bar): read out first, for every later step to see as a terminal would have.
        text = _json_records(text)
    if "\x00" in text:
        # A terminal shows nothing for a zero byte; a log truncated while written (logrotate's
        # copytruncate) keeps a run of them where its start was.
        text = text.replace("\x00", "")
    if "\r" in text:
        # Windows' line ends first: the readings below end a line at "\n" (a line that is one
        # Markdown span, a line prefix with nothing after it). A block's last line comes
        # without its "\n": a "\r" that ends the block ends that line (a trailing one redraws
        # nothing, as :func:`_last_states` has it).
        if _CRLF.search(text) is not None:
            text = text.replace("\r\n", "\n")
        text = text.rstrip("\r")
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "&" in text and _HTML_ENTITY.search(text, 0, _ENTITY_HEAD) is not None:
        # A page's source escapes every such character: its block's head shows entities
        # where the rest does (searched whole, a log of many ``&`` costs twice its reading).
        # One pass: ``&amp;lt;`` is the page's way of showing ``&lt;``, which stays.
        text = _HTML_ENTITY.sub(lambda m: _HTML_CHARS[m.group(0)], text)
    for _ in range(_QUOTE_DEPTH):
        if ">" not in text[: _head_lines(text)] or not _prefixed(text, _QUOTE_MARK):
            break
        # The quote was put around the log as pasted, wraps and runtime prefixes included:
        # taken off first, a level at a time (a reply quoting a reply that quoted the log).
        text = _QUOTE_MARK.sub("", text)
    if _CODE_START.match(text) is not None and _NOT_CODE_INDENTED.search(text) is None:
        # Every line carries the block's indent: the paste's, above the log's own (a frame's
        # two spaces, its code's four stay as the program printed them).
        text = _CODE_INDENT.sub("", text)
    if _RICH_TITLE_TEXT in text:
        # rich's box (``Traceback (most recent call last)`` in its top side, where CPython's
        # header ends in a colon): read before the lines are joined, as each of its lines is
        # as wide as the box and would read as a wrap.
        text = _rich_tracebacks(text)
    # A console wraps a line as shown, a prefix put before it by a runtime or a CI service
    # included: the lines are joined before any prefix is taken off.
    text = _unwrapped(text)
    text = _without_line_prefixes(text)
    if text[:1].isdigit() or _LINE_DIGIT.search(text) is not None:
        text = _without_ci_prefixes(text)
    if not text.isascii() and any(quote in text for quote in _QUOTE_CHARS):
        # A log pasted through a web page or a word processor gets typographic quotes
        # (U+2018 and U+2019 for '): the program printed straight ones.
        text = text.translate(_QUOTES)
    if "`" in text:
        # A line pasted as Markdown's inline code whole (`AttributeError: ...`): the program
        # printed it without the backticks. Only a line that is one span, nothing around it.
        text = _WHOLE_SPAN.sub(r"\1\2", text)
    if "\r" in text:
        # A line redrawn with "\r" (Keras' and tqdm's progress bars): the terminal showed only
        # its last state. Lines without one are left alone, so the common case stays in C.
        text = _last_states(text)
    return text


def _last_states(text: str) -> str:
    """``text`` with each line redrawn with carriage returns cut to its last non-empty state.

    Only the lines that hold a ``\r`` are visited (found with ``str.find``, in C); the text
    between them is copied whole, so a long log of plain lines costs a few slices.
    """
    out: list[str] = []
    find, rfind = text.find, text.rfind
    copied = 0
    i = find("\r")
    while i >= 0:
        start = rfind("\n", 0, i) + 1
        end = find("\n", i)
        if end < 0:
            end = len(text)
        # Trailing returns redraw nothing: the state before them is the last one shown.
        line = text[start:end].rstrip("\r")
        out.append(text[copied:start])
        out.append(line[line.rfind("\r") + 1 :])
        copied = end
        i = find("\r", end)
    out.append(text[copied:])
    return "".join(out)


def split_text(text: str, label: str = "", first_line: int = 1) -> LogText:
    """One block from an in-memory text (tests, notebooks)."""
    return LogText(label, first_line, clean(text))


class LogReader:
    """The blocks of a log, read as they are iterated (:func:`read_log`).

    A plain log is read up to ``limit`` bytes. Of a longer file (a stream that can seek) the
    first half of that and the last half are read, since a log's start (versions, libraries
    loaded) and its end (the failure) are what explain most; of a longer pipe, the start.
    :attr:`unread` then says what was left.
    """

    def __init__(self, stream: IO[bytes], name: str, chunk: int, max_line: int, limit: int) -> None:
        self.stream = stream
        self.name = name if name not in ("", "-") else "stdin"
        self.chunk = chunk
        self.max_line = max_line
        self.limit = limit
        #: The size of a log that can seek, once it is found longer than the limit.
        self.size: Optional[int] = None
        #: The byte range left unread, ``(start, end)``; ``end`` is None for a stream whose
        #: length is unknown (a pipe). None when the whole log was read.
        self.unread: Optional[tuple[int, Optional[int]]] = None
        self._read = 0
        #: Lines of binary data in the log (a file's bytes printed into it), read as empty.
        self.binary_lines = 0

    def __iter__(self) -> Iterator[LogText]:
        head = self.stream.read(self.chunk)
        for magic, command in _COMPRESSED:
            if head.startswith(magic):
                # Quoted, so that the command runs as printed (a name with a blank).
                shown = "FILE" if self.name == "stdin" else shlex.quote(self.name)
                raise InputError(
                    f"{self.name}: compressed, not a text log: read it decompressed "
                    f"({command} {shown} | tfdoctor explain -)"
                )
        decoder = _decoder_for(head)
        looks_like = head.lstrip()[:1] == b"{" and (b'"cells"' in head or b'"nbformat"' in head)
        if self.name.endswith(".ipynb") or looks_like:
            rest = self.stream.read(MAX_NOTEBOOK_BYTES + 1 - len(head))
            whole = len(head) + len(rest) <= MAX_NOTEBOOK_BYTES
            if not whole and self.name.endswith(".ipynb"):
                raise InputError(
                    f"{self.name}: larger than {size_text(MAX_NOTEBOOK_BYTES)}, the most a "
                    "notebook may be"
                )
            blocks = _notebook(head + rest, self.name) if whole else None
            if blocks is not None:
                yield from blocks
                return
            head += rest
        size = _size_of(self.stream)
        if size is None or size <= self.limit:
            yield from self._blocks(head, self.limit, decoder, "", to_end=size is not None)
            if self._read >= self.limit and (len(head) > self.limit or self.stream.read(1)):
                self.unread = (self._read, None)
            return
        first = self.limit // 2
        yield from self._blocks(head, first, decoder, "")
        # The end: from a line start in the last half of the limit (an even offset keeps a
        # UTF-16 log on its code units), its lines numbered from there.
        start = size - (self.limit - first)
        start += start % 2
        self.size, self.unread = size, (self._read, start)
        self.stream.seek(start)
        label = f"last {size_text(size - start)}"
        yield from self._blocks(
            b"", size - start, _tail_decoder(head), label, partial=True, to_end=True
        )

    def _block(self, label: str, line: int, text: str, cleaned: bool = False) -> LogText:
        """A block of ``text`` :func:`clean`-ed (unless ``cleaned``), its lines of binary data
        read as empty (counted in :attr:`binary_lines`); InputError where the log starts with
        binary data: it is not a log."""
        if is_binary(text):
            # Binary from the first line on: not a log at all. After a line of text: a log
            # that a file's bytes were printed into, whose lines of text (its failure) count.
            if line == 1 and not label and is_binary(text[: text.find("\n") + 1 or _SAMPLE]):
                raise InputError(f"{self.name}: binary data, not a text log")
            # Before cleaning: the binary lines' escapes and returns would cost most of it.
            text, count = _BINARY_LINE.subn("", text)
            self.binary_lines += count
        return LogText(label, line, text if cleaned else clean(text))

    def _blocks(
        self,
        first: bytes,
        budget: int,
        decoder: codecs.IncrementalDecoder,
        label: str,
        partial: bool = False,
        to_end: bool = False,
    ) -> Iterator[LogText]:
        """Blocks of whole lines from ``first`` and the stream, ``budget`` bytes in all;
        ``partial``: the text starts inside a line, which is left out; ``to_end``: the budget
        runs to the log's end (the whole of a file within the limit, or its last part)."""
        line = 1
        pending = ""
        data = first[:budget] if first else self.stream.read(min(self.chunk, budget))
        read = len(data)
        while data:
            text = pending + decoder.decode(data)
            if partial:
                cut = text.find("\n")
                text, partial = ("", True) if cut < 0 else (text[cut + 1 :], False)
            more = self.stream.read(min(self.chunk, budget - read)) if read < budget else b""
            read += len(more)
            if not more and (read < budget or to_end) and not partial:
                # The log's end: a last line without a line end (a paste often ends so)
                # stays in the block of the lines above it, as the traceback it ends.
                pending = text[:-1] if text.endswith("\n") else text
                break
            cut = text.rfind("\n")
            if cut >= 0:
                piece, pending = text[:cut], text[cut + 1 :]
                yield self._block(label, line, piece)
                line += piece.count("\n") + 1
            else:
                pending = text
            if len(pending) >= self.max_line:
                # A line that never ends (a progress bar without line ends): what its redraws
                # leave, or pieces of it under the same line number; memory stays bounded.
                pending = clean(pending)
                if len(pending) >= self.max_line:
                    yield self._block(label, line, pending, cleaned=True)
                    pending = ""
            data = more
        self._read = read
        rest = pending + decoder.decode(b"", final=True)
        if rest and not partial:
            yield self._block(label, line, rest)


def _size_of(stream: IO[bytes]) -> Optional[int]:
    """The length of a stream that can seek (a file, stdin redirected from one); else None."""
    try:
        if not stream.seekable():
            return None
        here = stream.tell()
        end = stream.seek(0, io.SEEK_END)
        stream.seek(here)
    except (OSError, ValueError, AttributeError):
        return None
    return end


def read_log(
    stream: IO[bytes],
    name: str = "",
    chunk: int = CHUNK,
    max_line: int = MAX_LINE,
    limit: int = MAX_LOG_BYTES,
) -> LogReader:
    """Blocks of ``stream``'s lines; a notebook's outputs when it is one.

    ``name`` (the file name) marks a notebook by its ``.ipynb`` suffix; otherwise a JSON
    document that starts with ``{``, names ``cells`` or ``nbformat`` early and parses as a
    notebook is read as one. ``chunk`` and ``max_line`` bound the memory held, ``limit`` the
    bytes of a plain log read. Iterating raises InputError for a notebook over a limit.
    """
    return LogReader(stream, name, chunk, max_line, limit)


#: Bytes of a log's start looked at for UTF-16 without a byte-order mark.
_SNIFF = 4096
#: The least share of a UTF-16 text's code units that are zero in their high byte (ASCII and
#: Latin-1 characters): timestamps, paths and TensorFlow's words keep a log above it even in
#: a locale whose own words are not Latin (a quarter of a line's characters).
_UTF16_ZEROS = 0.25


def _utf16_order(head: bytes) -> Optional[str]:
    """``utf-16-le`` or ``utf-16-be`` when ``head`` reads as UTF-16 without a byte-order mark
    (.NET's ``UnicodeEncoding(false, ...)``, a log whose start, and its mark, was cut); else
    None.

    As Python's ``json.detect_encoding`` tells UTF-16 (CPython ``Lib/json/__init__.py``),
    from where its zero bytes fall: in UTF-16-LE the high byte of an ASCII character is the
    second of its two, in UTF-16-BE the first, and UTF-8 text holds no zero byte at all. A
    log of zero bytes only (a file truncated while written) has them at both places and
    stays UTF-8.
    """
    sample = head[:_SNIFF]
    units = len(sample) // 2
    if units < 2 or b"\x00" not in sample:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    if odd >= units * _UTF16_ZEROS and even * 10 <= odd:
        return "utf-16-le"
    if even >= units * _UTF16_ZEROS and odd * 10 <= even:
        return "utf-16-be"
    return None


def _decoder_for(head: bytes) -> codecs.IncrementalDecoder:
    """UTF-16 when a byte-order mark says so (PowerShell's ``>``) or its zero bytes do, else
    UTF-8; bad bytes become U+FFFD, never an error."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return codecs.getincrementaldecoder("utf-16")(errors="replace")
    order = _utf16_order(head)
    if order is not None:
        return codecs.getincrementaldecoder(order)(errors="replace")
    return codecs.getincrementaldecoder("utf-8-sig")(errors="replace")


def _tail_decoder(head: bytes) -> codecs.IncrementalDecoder:
    """A decoder for text read from the middle of a log whose start is ``head``."""
    if head.startswith(codecs.BOM_UTF16_LE):
        return codecs.getincrementaldecoder("utf-16-le")(errors="replace")
    if head.startswith(codecs.BOM_UTF16_BE):
        return codecs.getincrementaldecoder("utf-16-be")(errors="replace")
    order = _utf16_order(head)
    if order is not None:
        return codecs.getincrementaldecoder(order)(errors="replace")
    return codecs.getincrementaldecoder("utf-8")(errors="replace")


def _notebook(data: bytes, name: str) -> Optional[list[LogText]]:
    """A Jupyter notebook's outputs as blocks labelled ``cell N``; None when not one.

    InputError when it nests deeper than ``tfdoctor.bounded.MAX_JSON_NESTING``.
    """
    try:
        doc = parse_json(data.decode("utf-8", errors="replace"), name, "a notebook")
    except InputError:
        raise
    except ValueError:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("cells"), list):
        return None
    out: list[LogText] = []
    for number, cell in enumerate(doc["cells"], start=1):
        if not isinstance(cell, dict):
            continue
        first = 1
        for text in _outputs(cell.get("outputs")):
            block = split_text(text.rstrip("\n"), f"cell {number}", first)
            out.append(block)
            first += block.text.count("\n") + 1
    return out


def _outputs(outputs: Any) -> Iterable[str]:
    """The text of a cell's outputs: streams, tracebacks, error values and plain results."""
    if not isinstance(outputs, list):
        return
    for output in outputs:
        if not isinstance(output, dict):
            continue
        kind = output.get("output_type")
        if kind == "stream":
            yield _joined(output.get("text"))
        elif kind == "error":
            trace = output.get("traceback")
            if isinstance(trace, list) and trace:
                yield "\n".join(str(t) for t in trace)
            else:
                yield f"{output.get('ename', '')}: {output.get('evalue', '')}"
        elif kind in ("execute_result", "display_data"):
            data = output.get("data")
            if isinstance(data, dict) and "text/plain" in data:
                yield _joined(data["text/plain"])


def _joined(value: Any) -> str:
    """nbformat stores multi-line strings as a list of lines (with their ends) or a string."""
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return value if isinstance(value, str) else ""


def lines_of(blocks: Iterable[LogText]) -> Iterator[tuple[str, str]]:
    """(where, line) for every line of ``blocks``: for tests and small inputs."""
    for block in blocks:
        for offset, line in enumerate(block.text.split("\n")):
            yield block.where(offset), line
