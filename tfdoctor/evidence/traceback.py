"""Python tracebacks in a log, read into exceptions, frames and what their paths reveal.

What a traceback *observes* is kept as text: the exception's type and message, each frame's
file, line, function and source line. What its paths let one *infer* (which distribution a
frame belongs to, the Python version in ``.../python3.9/...``, a conda environment, Colab or
Kaggle) is a separate :class:`Inferred` value that names the path it rests on, so a report
can show both and never passes an inference off as an observation.

The formats read are CPython's (``File "x.py", line 3, in f``), IPython 8's
(``File /x.py:3, in f(a)``) and older IPython's (``/x.py in f(a)``); an exception line
without a traceback above it (``AttributeError: module ...`` pasted alone) counts too.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import heapq
import re
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Final, NamedTuple, Optional

from tfdoctor.evidence.conda import spec_line
from tfdoctor.evidence.packages import MAX_CONFLICTS, ImportCheck, library_verdict, plugin_dist
from tfdoctor.evidence.pip import build_folder_dist, read_pip_line
from tfdoctor.evidence.pyerrors import (
    CircularImport,
    MissingAttribute,
    MissingModule,
    MissingName,
    circular_import,
    imported_from,
    missing_attribute,
    missing_module,
    missing_name,
    r_interface,
)
from tfdoctor.facts import TF_DISTRIBUTIONS, normalize_name
from tfdoctor.modules import distribution_of, modules
from tfdoctor.records import Record, record

#: Tracebacks kept per log, and frames per traceback (the innermost, which name the failure).
MAX_TRACEBACKS = 50
MAX_FRAMES = 64
#: Exceptions that end a program on purpose (Ctrl-C, sys.exit), not a failure.
ON_PURPOSE = frozenset({"KeyboardInterrupt", "SystemExit"})

# Prefilter: a block without any of these words holds no traceback (str's `in` runs in C).
_WORDS = ("Error", "Exception", "Traceback")

_HEADER = re.compile(r"Traceback \(most recent call last\)")
#: CPython 2.x-3.11's note on stderr as its evaluation loop meets an opcode it does not have,
#: printed right before it raises ``SystemError: unknown opcode`` (Python/ceval.c, the
#: ``default:`` case of the opcode switch: ``fprintf(stderr, "XXX lineno: %d, opcode: %d\n",
#: ...)`` then ``PyErr_SetString(PyExc_SystemError, "unknown opcode")``; 3.12 dropped the
#: note and puts the place in the message, ``"%U:%d: unknown opcode %d"``). A traceback whose
#: header follows it (blank lines at most between) and is cut before its last line raised that
#: exception; one after other words did not (the exception was caught, the program went on).
#: https://github.com/python/cpython/blob/v3.10.0/Python/ceval.c
_OPCODE_NOTE = re.compile(r"^[ \t]*XXX lineno: -?\d+, opcode: \d+[ \t]*$", re.MULTILINE)
_NOTE_WORDS = "XXX lineno: "
# IPython names the exception on its header line (`ValueError    Traceback (most recent call
# last)`), so a pasted traceback cut before its last line still says what was raised.
_NAMED_HEADER = re.compile(
    r"[ \t]*(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))[ \t]+Traceback \("
)
# The files IPython compiles a cell to: `<ipython-input-3-...>` (IPython 7), and ipykernel's
# `/tmp/ipykernel_1234/56.py` (ipykernel 6's cell file names).
_IPYTHON_FILE = re.compile(r"<ipython-input-|[/\\]ipykernel_\d+[/\\]")
# IPython's source context under a frame: `---> 97     raise ValueError(` then `     98 "..."`.
_CONTEXT = re.compile(r"^(?:-*>)?[ \t]*\d+[ \t](?P<code>.*)$")
_LITERAL = re.compile(r"""[rbfu]*"((?:[^"\\\n]|\\.)*)"|[rbfu]*'((?:[^'\\\n]|\\.)*)'""")
_FRAME = re.compile(
    # CPython: the path in quotes. A paste that cut the line's start (a long path wrapped or
    # elided: `...` then `lib/python2.7/site-packages/x.py", line 98, in f`; ``File "`` and the
    # path's head) keeps the rest of CPython's words, which nothing else prints.
    r'^[ \t]*(?:File "|(?=[^"\n]*\.py", line \d+, in ))'
    r'(?P<path>[^"\n]+)", line (?P<line>\d+)(?:, in (?P<func>[^\n]*))?$'
    # IPython 8: `File /site-packages/keras/src/x.py:122, in error_handler(*args)`.
    # (its ", in f(...)" left out for a module's own code in some releases). A script without
    # the suffix (a console script, `File /usr/bin/tensorboard:7, in <module>`: ultratb's
    # `_format_filename` prints any file's name so) is read where its path is absolute or
    # under the home folder, holds no blank, and its function follows.
    r"|^[ \t]*File (?P<ipath>[^\s\"][^\n]*?\.py|(?:[A-Za-z]:)?[/\\~][^\s\":]*(?=:\d+, in ))"
    r":(?P<iline>\d+)(?:, in (?P<ifunc>[\w.<>]+))?"
    # IPython 7 and older: `/usr/lib/python3.6/x.py in f(a)`; a module's own code is
    # `x.py in <module>()` in older releases, `x.py in <module>` (no parentheses) in IPython 7.
    # A paste may elide or mask the path's start (`.../site-packages/x.py`, `***/pkg/x.py`, a
    # home directory hidden): the rest still names the file and its package.
    r"|^(?P<opath>(?:[A-Za-z]:|\.{3}|\*{3})?[/\\~][^\n]*?\.py) in (?P<ofunc>[\w.<>]+)(?:\(|[ \t]*$)"
    # The same frame copied from Colab, which prints the file as a link: pasted as Markdown,
    # `[/usr/lib/python3.10/x.py](https://localhost:8080/#) in f(a)` (or `in <module>`).
    r"|^\[(?P<lpath>(?:[A-Za-z]:)?[/\\~][^\]\n]*?\.py)\]\([^)\s]*\) in (?P<lfunc>[\w.<>]+)"
    # A notebook cell's own frame: `<ipython-input-3-1f2e> in <module>` (IPython 7) or
    # `Cell In[3], line 2` (IPython 8).
    r"|^(?P<cpath><ipython-input-[\w-]+>|Cell In ?\[\d*\])(?:, line (?P<cline>\d+)| in "
    r"(?P<cfunc>[\w.<>]+))"
    # pytest's short tracebacks (--tb=short, its collection errors): `path.py:20: in f`, the
    # source line indented below.
    r"|^(?P<ppath>(?:[A-Za-z]:)?[^\s:\"'][^:\n\"]*?\.py):(?P<pline>\d+): "
    r"in (?P<pfunc>[\w.<>]+)[ \t]*$"
    # AutoGraph's "in user code:" frames before TensorFlow 2.7 (tensorflow/python/autograph/
    # pyct/error_utils.py, ErrorMetadataBase.get_message: '    {}:{} {}' with the file, line
    # and function, then "  *" for a function it converted, "  **" for one it left as it
    # was), indented, the source line indented below; 2.7 on prints CPython's form. A paste
    # that lost a frame's indentation keeps it as a frame only with AutoGraph's mark.
    r"|^(?:[ \t]+|(?=[^\n]*\.py:\d+ [\w.<>]+[ \t]+\*{1,2}[ \t]*$))"
    r"(?P<apath>(?:[A-Za-z]:)?[^\s:\"'][^:\n\"]*?\.py):(?P<aline>\d+) "
    r"(?P<afunc>[\w.<>]+)(?P<amark>[ \t]+\*{1,2})?[ \t]*$",
    re.MULTILINE,
)
#: The line IPython marks in a frame's source context: the one that ran (`----> 2 fit(x)`).
_IPYTHON_MARKED = re.compile(r"^-*> ?(?P<line>\d+)[ \t]+(?P<code>\S[^\n]*)$", re.MULTILINE)
_EXCEPTION = re.compile(
    # pytest prints the exception of a failed test after "E   " in its report, and after
    # "FAILED path::test - " (a test) or "ERROR path - " (a module it could not collect) in its
    # summary (https://docs.pytest.org/en/stable/how-to/output.html).
    # R's condition details (the R interfaces load Python through reticulate) print it after
    # "error: " ("  error: ModuleNotFoundError: No module named 'x'").
    # A paste (an issue's title most often) may join the import statement and its error on
    # one line ("from a.b import c ImportError: cannot import name 'c'"): the statement is
    # then the one that raised.
    r"^[ \t]*(?:E[ \t]+|(?:FAILED|ERROR) [^:\n].*? - |error:[ \t]+"
    r"|(?P<glued>(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+[\w.]+(?:[ \t]*,[ \t]*[\w.]+){0,20})"
    r"[ \t]+(?=(?:ImportError|ModuleNotFoundError):))?"
    r"(?P<type>(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt)|Exception))"
    r"(?::[ \t]*(?P<message>[^\n]*))?[ \t]*$",
    re.MULTILINE,
)


@record
class Frame(Record):
    """One frame as the traceback shows it (observed)."""

    path: str
    line: int
    function: str
    #: The source line printed under the frame; empty when none was shown.
    code: str = ""
    #: AutoGraph marked the frame as a function it converted (``  *`` in its "in user code:"
    #: frames): tf.function's or a Keras layer's machinery ran it.
    converted: bool = False


@record
class Traceback(Record):
    """An exception and the frames that led to it, as the log shows them."""

    #: Where the exception line is in the log (``line 12``, ``cell 3, line 4``).
    where: str
    #: As printed: ``AttributeError``, ``tensorflow.python.framework.errors_impl.NotFoundError``.
    type: str
    message: str
    frames: tuple[Frame, ...] = ()
    #: Printed by IPython (a notebook or IPython shell): its header, or its kernel's file names.
    ipython: bool = False
    #: Printed under Python's ``Exception ignored in: ...`` (an exception in ``__del__`` or at
    #: interpreter exit, which Python reports and goes on from): not what stopped the run.
    ignored: bool = False
    #: For an exception printed with no frames: the import statement on the line above it,
    #: as an interactive session or a pasted snippet shows what raised it (``import tf_keras``).
    statement: str = ""
    #: For an exception printed with no frames, whose statement IPython marked (``---> 10
    #: from x import y``): the import statements IPython marked above it, outermost first,
    #: the imports that led there (``----> 3 import deepchem as dc``) when the frames' file
    #: lines were cut from the paste.
    importers: tuple[str, ...] = ()
    #: The statement, or the source line (:attr:`code`), was typed at an interactive prompt
    #: (``>>>``, ``In [3]:``): the user's own.
    typed: bool = False
    #: Read from a warning the program went on after (AutoGraph's ``Cause: ...`` of a function
    #: it ran unconverted): what it says is at most a warning.
    warned: bool = False
    #: For an exception printed with no frames: the source line printed right above it, as
    #: Python prints a frame's line (indented), where a paste kept only that of the traceback
    #: (``    self.x = tf.placeholder(...)``), or the line calling TensorFlow a paste or a
    #: prompt shows there (``>>> config = tf.ConfigProto()``): what the innermost frame ran.
    code: str = ""
    #: The module a lazy-import wrapper says failed to import with this error (Transformers'
    #: ``Failed to import transformers.modeling_tf_utils because of the following error (look
    #: up to see its traceback):`` on the line above, or before the message on its own line):
    #: the innermost one named, whose import raised it. Empty where none is shown.
    wrapper: str = ""
    #: The front-end whose words wrap the exception: ``reticulate`` where R code asked Python
    #: (the R interfaces' ``Error in py_get_attr_impl(...) :`` above it, R's ``error: `` before
    #: it, or reticulate's own ``Python module X was not found.``); empty for Python's own.
    front_end: str = ""
    #: For an exception printed with no frames: its :attr:`code` or :attr:`statement` is a
    #: frame's line as a traceback prints it (Python's, indented under the frame's file line;
    #: IPython's, marked ``---> 43``), the frame's file line cut from the paste: it says what
    #: ran, not whose code it is (no path says so).
    printed: bool = False
    #: The interpreter's own line right above a traceback cut before its exception line that
    #: names the exception (CPython's ``XXX lineno: 7, opcode: 0``, :data:`_OPCODE_NOTE`);
    #: empty where the exception line was read.
    note: str = ""
    #: Python's "During handling of the above exception, another exception occurred" follows
    #: it: an ``except`` clause caught it and raised another while handling it (a fallback
    #: that failed too), so the one below is what stopped the run.
    handled: bool = False

    @property
    def name(self) -> str:
        """The exception class without its module (``NotFoundError``)."""
        return self.type.rsplit(".", 1)[-1]

    @property
    def missing_module(self) -> Optional[MissingModule]:
        """The module the message says the import system did not find (CPython's ``No module
        named 'x'``), or None where it says no such thing."""
        return missing_module(self.message)

    @property
    def missing_name(self) -> Optional[MissingName]:
        """The name the message says a ``from M import X`` did not find (CPython's ``cannot
        import name 'X' from 'M'``), or None where it says no such thing."""
        return missing_name(self.message)

    @property
    def missing_attribute(self) -> Optional[MissingAttribute]:
        """The attribute the message says a lookup did not find (CPython's ``module 'x' has
        no attribute 'y'``, ``'X' object has no attribute 'y'``), or None."""
        return missing_attribute(self.message)

    @property
    def circular_import(self) -> Optional[CircularImport]:
        """The name the message says was asked of a module still importing (3.8's ``from
        partially initialized module``), or None."""
        return circular_import(self.message)

    @property
    def innermost_code(self) -> str:
        """The source line printed for the innermost frame (or, with no frames, the one a
        paste kept above the exception); empty where none was printed."""
        return self.frames[-1].code if self.frames else self.code


@record
class Inferred(Record):
    """A fact the text does not state but implies, with the text it rests on."""

    fact: str
    value: str
    because: str


@record
class Origin(Record):
    """Which distribution a file belongs to, as its path implies (inferred, never observed)."""

    #: The distribution (``keras``, ``tf-keras``, ``tensorflow``, ``tensorflow-text``); empty
    #: for the user's own code.
    dist: str
    #: ``Keras 3`` or ``Keras 2`` where the path says which; else empty.
    generation: str
    #: Under site-packages or dist-packages (installed), else a source checkout or own code.
    installed: bool
    #: The file's dotted module name from its package root (``keras.src.optimizers.adam``).
    module: str


#: A traceback's lines pasted behind a quote mark: Markdown's `>` or a comment's `#` before
#: `File "..."`, `Traceback (most recent call last)` or the exception line.
_QUOTED = re.compile(
    r"^[ \t]*[>#][ \t]?"
    r"(?=[ \t]*(?:File \"|Traceback \(most recent|[A-Za-z_][\w.]*(?:Error|Exception)\b))",
    re.MULTILINE,
)
_QUOTE_WORDS = (
    '#File "',
    '# File "',
    '> File "',
    '>File "',
    "#Traceback",
    "# Traceback",
    "> Traceback",
)


#: A quoted traceback's header, or a quoted frame with its line number.
_QUOTED_TRACE = re.compile(
    r"^[ \t]*[>#][ \t]?[ \t]*"
    r"(?:Traceback \(most recent call last\)|File \"[^\"\n]+\", line \d+)",
    re.MULTILINE,
)


def failures(tracebacks: Iterable[Traceback]) -> list[Traceback]:
    """The tracebacks that show a failure: neither ignored nor ending the program on purpose
    (:data:`ON_PURPOSE`)."""
    return [tb for tb in tracebacks if not tb.ignored and tb.name not in ON_PURPOSE]


def _unquoted(text: str) -> str:
    """``text`` with the quote marks taken off the traceback lines a user quoted (each line
    keeps its place: line numbers do not move). Only where a header or a frame with its line
    number is quoted: a script's comments (`# File "x.yaml" is read below`) stay."""
    if not any(word in text for word in _QUOTE_WORDS) or not _QUOTED_TRACE.search(text):
        return text
    return _QUOTED.sub("", text)


def read_tracebacks(text: str, where: Optional[object] = None) -> list[Traceback]:
    """Every exception in ``text`` with the frames printed above it.

    ``where`` is a :class:`tfdoctor.explain.reader.LogText`-like object with a
    ``where(offset)`` method naming a line for the user; without it, ``line N`` from 1.
    """
    if not any(word in text for word in _WORDS):
        return _bare_messages(text, where, [])
    text = _unquoted(text)
    # The three scans run lazily, merged by position: a log with a million frame lines holds
    # one traceback's frames at a time, and reading stops at MAX_TRACEBACKS.
    events: Iterator[tuple[int, str, re.Match[str]]] = heapq.merge(
        ((m.start(), "header", m) for m in _HEADER.finditer(text)),
        ((m.start(), "frame", m) for m in _FRAME.finditer(text)),
        ((m.start(), "exception", m) for m in _EXCEPTION.finditer(text)),
        ((m.start(), "note", m) for m in _notes(text)),
        key=lambda e: e[0],
    )
    out: list[Traceback] = []
    # Matches, not frames: a frame is built only when an exception keeps it.
    frames: deque[re.Match[str]] = deque(maxlen=MAX_FRAMES)
    line_no, counted = 0, 0
    named = ""  # the exception an IPython header names, until its exception line is read
    ipython = False  # whether the traceback being read has IPython's header
    ignored = False  # whether Python said it ignored the exception being read
    noted: Optional[re.Match[str]] = None  # the interpreter's note since the last header
    above: Optional[re.Match[str]] = None  # the note right above the header being read
    header_at = 0  # where the last header's line starts
    for pos, kind, match in events:
        if kind == "header":
            frames.clear()
            start = header_at = text.rfind("\n", 0, pos) + 1
            header = _NAMED_HEADER.match(text, start, match.end())
            named = header.group("type") if header is not None else ""
            ipython = header is not None
            ignored = _after_ignored(text, start)
            above, noted = _note_above(text, noted, start), None
        elif kind == "frame":
            frames.append(match)
        elif kind == "note":
            noted = match
        else:
            line_no += text.count("\n", counted, pos)
            counted = pos
            place = where.where(line_no) if hasattr(where, "where") else f"line {line_no + 1}"
            built = _typed_frame(tuple(_frame(m, text) for m in frames), text, header_at)
            line_start = text.rfind("\n", 0, pos) + 1
            message = _message_of(match, text)
            statement, importers, typed, printed = (
                ("", (), False, False)
                if built
                else (match.group("glued"), (), False, False)
                if match.group("glued")
                else _statement_above(text, line_start)
            )
            marked_at, marked = (0, "") if built or statement else _marked_above(text, line_start)
            if _STATEMENT.match(marked):
                # An import IPython marked, with its source context below it.
                statement, importers, printed = marked, _marked_imports_above(text, marked_at), True
            code, typed_code, printed_code = (
                ("", False, False)
                if built or statement
                else (marked, False, True)
                if marked
                else _code_above(text, line_start)
            )
            if built and _PYTEST_E.match(match.group(0)):
                built = (*built, *_pytest_location(text, match.end(), match.group("type")))
            source = built[-1].code if built else statement
            message = _import_source(_closed(in_python_quotes(message)), source)
            out.append(
                Traceback(
                    str(place),
                    match.group("type"),
                    message,
                    built,
                    ipython or any(_IPYTHON_FILE.search(f.path) for f in built),
                    ignored or (not built and _after_ignored(text, line_start)),
                    statement,
                    importers,
                    typed or typed_code,
                    code=code,
                    wrapper=_wrapper_in(message)
                    or ("" if built else _wrapper_of(text, line_start, match.start())),
                    front_end=_front_end(text, line_start, match.group(0)),
                    printed=printed or printed_code,
                    handled=_handled_below(text, match.end()),
                )
            )
            frames.clear()
            named, ipython, ignored, noted, above = "", False, False, None, None
            if len(out) >= MAX_TRACEBACKS:
                break
    else:
        after_handled = bool(out) and out[-1].handled
        cut = _cut_traceback(text, where, tuple(frames), named, above, (header_at, after_handled))
        if cut is not None:
            out.append(cut)
    return _bare_messages(text, where, out)


#: Python's words between an exception an ``except`` clause caught and the one raised while
#: handling it (Lib/traceback.py, ``_context_message``).
_DURING_HANDLING = re.compile(r"\s*During handling of the above exception, another exception")


def _handled_below(text: str, end: int) -> bool:
    """Whether Python's "During handling of the above exception" opens the first line with
    words after ``end`` (an exception line's end): the exception there was caught."""
    return _DURING_HANDLING.match(text, end, end + 300) is not None


def _message_of(match: re.Match[str], text: str) -> str:
    """The message of the exception line ``match`` of ``text``, with what the lines below hold
    of it: the rest of a sentence a paste wrapped, the exception a Keras layer's words wrap."""
    message = (match.group("message") or "").strip()
    if message and _CUT_MESSAGE.match(match.group(0)) is not None:
        message = _joined(message, _message_rest(text, match.end()))
    if _KERAS_WRAPPED.search(message):
        message = f"{message} {_wrapped_cause(text, match.end())}".rstrip()
    return message


def _cut_traceback(
    text: str,
    where: Optional[object],
    frames: tuple[re.Match[str], ...],
    named: str,
    noted: Optional[re.Match[str]],
    header: tuple[int, bool] = (0, False),
) -> Optional[Traceback]:
    """The exception of a traceback the paste stops inside (``frames`` read after its header,
    no exception line after them), where the log still names it: IPython's header
    (``named``), whose innermost frame's source shows what its raise statement says; else
    CPython's opcode note right above its header, only blank lines between (``noted``).
    ``header``: where the header's line starts, and whether the exception before it was
    caught (:attr:`Traceback.handled`): IPython's header of the one raised while handling it,
    cut right after, names what stopped the run, its type all the log shows. None where
    nothing names it."""
    if not frames:
        at, after_handled = header
        return (
            Traceback(_place(text, where, at), named, "", (), True)
            if named and after_handled
            else None
        )
    found = tuple(_frame(m, text) for m in frames)
    if named:
        place = _place(text, where, frames[-1].start())
        return Traceback(place, named, _raised_words(text, frames[-1].end()), found, True)
    if noted is None:
        return None
    return Traceback(
        _place(text, where, noted.start()),
        "SystemError",
        "unknown opcode",
        found,
        any(_IPYTHON_FILE.search(f.path) for f in found),
        note=noted.group(0).strip(),
    )


def _note_above(text: str, noted: Optional[re.Match[str]], start: int) -> Optional[re.Match[str]]:
    """CPython's opcode note ``noted`` where only blank lines part it from the header line at
    ``start``: CPython prints it as it raises, and that exception's traceback right after;
    a note with other words (or another header) between names another exception."""
    return noted if noted is not None and not text[noted.end() : start].strip() else None


def _place(text: str, where: Optional[object], at: int) -> str:
    """The line of ``text`` holding offset ``at`` as ``where`` names it, else ``line N``."""
    line_no = text.count("\n", 0, at)
    return str(where.where(line_no) if hasattr(where, "where") else f"line {line_no + 1}")


def _notes(text: str) -> Iterator[re.Match[str]]:
    """CPython's opcode notes in ``text`` (:data:`_OPCODE_NOTE`); none scanned for where its
    words are absent (str's ``in`` runs in C)."""
    return _OPCODE_NOTE.finditer(text) if _NOTE_WORDS in text else iter(())


#: pytest's long report ends an entry with the innermost frame's place after the exception's
#: "E   " lines: ``keras/src/backend/torch/numpy.py:60: AttributeError`` (ReprFileLocation,
#: the exception's type name as the message of the last entry, "in f" of the others).
#: https://github.com/pytest-dev/pytest/blob/8.3.0/src/_pytest/_code/code.py
_PYTEST_PLACE = re.compile(
    r"\A(?:[ \t]*\n|E[^\n]*\n){0,40}?(?P<path>[^\s:\"'][^:\n\"]*?\.py):(?P<line>\d+): "
    r"(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*)[ \t]*$",
    re.MULTILINE,
)


#: pytest's "E   " before an exception line of its report.
_PYTEST_E = re.compile(r"[ \t]*E[ \t]")


def _pytest_location(text: str, end: int, name: str) -> tuple[Frame, ...]:
    """The innermost frame pytest's long report prints after the exception that ends at
    ``end`` (of type ``name``), where it does; none otherwise."""
    start = text.find("\n", end)
    if start < 0:
        return ()
    found = _PYTEST_PLACE.match(text[start + 1 : start + 1 + 4000])
    if found is None or found.group("type").rsplit(".", 1)[-1] != name.rsplit(".", 1)[-1]:
        return ()
    return (Frame(found.group("path"), int(found.group("line")), ""),)


#: Quotes a paste puts where Python printed ' (Markdown's backticks, double quotes, the curly
#: quotes forums and word processors make of either).
_Q = "[\"`'\u2018\u2019\u201c\u201d]"
#: The messages of Python's import system and attribute lookup that quote a module or name
#: (Python/import.c, Lib/importlib/_bootstrap.py, Objects/moduleobject.c), in any quotes.
_OTHER_QUOTES = (
    (re.compile(rf"No module named {_Q}(?P<m>[\w.]+){_Q}"), "No module named '{m}'"),
    (
        re.compile(rf"cannot import name {_Q}(?P<n>\w+){_Q} from {_Q}(?P<m>[\w.]+){_Q}"),
        "cannot import name '{n}' from '{m}'",
    ),
    (re.compile(rf"cannot import name {_Q}(?P<n>\w+){_Q}"), "cannot import name '{n}'"),
    (
        re.compile(rf"\bmodule {_Q}(?P<m>[\w.]+){_Q} has no attribute {_Q}(?P<n>\w+){_Q}"),
        "module '{m}' has no attribute '{n}'",
    ),
)
_NOT_PYTHONS = re.compile('["`\u2018\u2019\u201c\u201d]')
#: Python's attribute message with the space after ``module`` lost in a paste
#: (``module'keras.utils' has no attribute 'x'``): Objects/moduleobject.c always prints
#: ``module '%U' has no attribute '%U'``, so the space is put back before any reader looks.
_GLUED_MODULE = re.compile(r"\bmodule(?=['\u2018\u2019][\w.]+['\u2018\u2019] has no attribute )")


def in_python_quotes(message: str) -> str:
    """``message`` with the modules and names Python's import system and attribute lookup
    quote in single quotes quoted that way, however the paste quoted them: every reader of
    these messages then reads one form. Other words of the message are left as they are."""
    message = _GLUED_MODULE.sub("module ", message)
    if _NOT_PYTHONS.search(message) is None:
        return message
    for pattern, form in _OTHER_QUOTES:
        message = pattern.sub(_in_form(form), message)
    return message


def _in_form(form: str) -> Callable[[re.Match[str]], str]:
    """A replacement that writes a match's groups into ``form``."""
    return lambda match: form.format(**match.groupdict())


def _closed(message: str) -> str:
    """``message`` with the closing quote a paste cut off restored, where it ends inside a
    quoted name (``No module named 'tensorflow``): Python always closes the quotes it opens."""
    if message.count("'") % 2 and re.search(r"'[\w.]+$", message):
        return message + "'"
    return message


def _import_source(message: str, code: str) -> str:
    """``message`` in Python 3.7's words where an older Python left out the module and the
    statement that raised shows it (``code``: the innermost frame's source line, or the
    statement printed above a message without frames: ``from keras.layers import Dense,
    Merge``)."""
    # Python 2's and 3.6's refusal of a ``from M import X`` names no module ("cannot import
    # name Merge", "cannot import name 'Merge'"); 3.7 adds "from 'M'".
    missing = missing_name(message)
    if missing is None or not missing.bare_alone or not code:
        return message
    module = imported_from(code, missing.name)
    if not module or module.startswith("."):
        return message  # no such statement, or a relative import: no full name on the line
    return f"cannot import name '{missing.name}' from '{module}'"


#: Keras' wrapper of an exception raised inside a layer's call: the first line of the message
#: says where, the paragraph after it what (keras/src/utils/traceback_utils.py in Keras 3,
#: keras/utils/traceback_utils.py in Keras 2.8 to 2.15).
_KERAS_WRAPPED = re.compile(r"Exception encountered when calling (?:\w+\.call\(\)|layer .*)\.?$")
#: The line after that paragraph: the arguments the call received.
_RECEIVED = re.compile(r"[ \t]*(?:Call a|A)rguments received by ")
#: How much of the wrapped paragraph is kept.
WRAPPED_READ = 1000


def _wrapped_cause(text: str, end: int) -> str:
    """The paragraph after Keras' "Exception encountered when calling ..." line (past blank
    lines), joined on one line: the exception the layer raised; empty when none follows."""
    out: list[str] = []
    pos = end + 1 if text.startswith("\n", end) else end
    for _ in range(30):
        stop = text.find("\n", pos)
        line = text[pos : stop if stop >= 0 else len(text)].strip()
        if line:
            if _RECEIVED.match(line) or _FRAME.match(line) or len(" ".join(out)) > WRAPPED_READ:
                break
            out.append(line)
        elif out:
            break
        if stop < 0:
            break
        pos = stop + 1
    return " ".join(out)[:WRAPPED_READ]


#: An exception's line (``ValueError: ...``) whose message stops inside a sentence: not after a
#: sentence's end, a colon (a block follows: XLA's HLO, a list), a quote or a bracket (Python's
#: reprs end so: ``No module named 'x'``). Python prints a message on one line unless it holds
#: line breaks; a paste that wrapped it (a narrow box, an editor's soft wrap copied) leaves the
#: rest on the lines below.
_CUT_MESSAGE = re.compile(
    r"^[ \t]*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): [^\n]*[^\s.!?:'\"`)\]}>]$",
    re.MULTILINE,
)
#: A line that can be the rest of a wrapped sentence: words at the line's start (no indent, as
#: a frame's or code's; no digit, as a log line's time), not Python's own lines around a
#: traceback, another exception's line, a TensorFlow log line (``W0612 ...``), a path, code (a
#: call, an assignment) or a shell prompt.
_SENTENCE_REST = re.compile(
    r"(?!(?:Traceback|During handling|The above exception)\b)"
    r"(?!(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning)\b)"
    r"(?![IWEF]\d{4}\b)(?![\w.]*\()(?!\w+ = )(?!\S*[/\\])"
    r"[A-Za-z`'\"][^\n=]*$"
)
#: A line another program printed, which no wrapped sentence's rest is, whatever the word above
#: it: a line that opens with a capitalised label and a colon (apt's ``E: ``, ``W: ``, Python
#: logging's ``WARNING:tensorflow:``, a hint's ``Hint: ``), apt's ``%s is already the newest
#: version`` (apt-private/private-install.cc), a step's count (Keras' ``Epoch 1/10``,
#: callbacks.ProgbarLogger) or a step in progress (apt's ``Reading package lists... Done``).
#: pip's own lines are pip's reader's (:func:`tfdoctor.evidence.pip.read_pip_line`).
_OTHER_PROGRAM = re.compile(
    r"[A-Z][\w.-]*(?: [\w.-]+){0,3}:(?:\s|\w|$)"
    r"|\S+ is already the newest version\b"
    r"|[A-Z]\w* \d+/\d+\b"
    r"|[A-Z]\w*ing\b[^\n]*\.\.\."
)
#: Words that never end an English sentence: a line ending in one goes on in the next.
_GOES_ON_WORDS = frozenset(
    {"a", "an", "the", "of", "in", "to", "for", "with", "and", "or", "but", "is", "are", "was"}
    | {"were", "be", "not", "that", "than", "by", "on", "at", "from", "as", "this", "these"}
    | {"your", "its", "their"}
)
#: How many lines a wrapped message is read across, and how much of it.
WRAPPED_LINES = 6


def _goes_on(line: str, after: str) -> bool:
    """Whether ``after`` is the rest of the sentence ``line`` (a message cut mid-sentence)
    stopped in: a line of words after a comma, a hyphen or a word no sentence ends on. (A line
    in lower case after any other word may be another program's: apt's ``libc6 is already the
    newest version`` below a loader's error; a line pip, apt or Keras printed is refused after
    any word: :data:`_OTHER_PROGRAM`.)"""
    if (
        _SENTENCE_REST.match(after) is None
        or _OTHER_PROGRAM.match(after) is not None
        or read_pip_line(after) is not None
    ):
        return False
    last = line.rstrip()
    words = last.rsplit(None, 1)
    return last.endswith((",", ";", "-")) or (bool(words) and words[-1] in _GOES_ON_WORDS)


def _message_rest(text: str, end: int) -> list[str]:
    """The lines after the exception line ending at ``end`` that go on its message, which the
    line left inside a sentence (:data:`_CUT_MESSAGE`); [] where none does."""
    out: list[str] = []
    # Only the line's end is asked (its last word): read back a little way, not to its start.
    tail = text[max(0, end - 200) : end]
    line = tail[tail.rfind("\n") + 1 :]
    pos = end + 1
    while len(out) < WRAPPED_LINES and pos < len(text):
        stop = text.find("\n", pos)
        after = text[pos : stop if stop >= 0 else len(text)].rstrip()
        if not _goes_on(line, after):
            break
        out.append(after)
        if _CUT_MESSAGE.match(after) is None and after[-1:] in ".!?:'\")]}>`":
            break  # the sentence ended
        line, pos = after, (stop + 1 if stop >= 0 else len(text))
        if stop < 0:
            break
    return out


def _joined(line: str, rest: Sequence[str]) -> str:
    """``line`` with the pieces of its message a wrap put below (``rest``) joined on, a word cut
    at a hyphen joined without a blank."""
    out = line.rstrip()
    for piece in rest:
        out = f"{out}{piece}" if out.endswith("-") else f"{out} {piece}"
    return out[: len(line) + WRAPPED_READ]


#: The words every exception line :data:`_CUT_MESSAGE` reads holds.
_EXCEPTION_WORDS = ("Error: ", "Exception: ")


def _cut_messages(text: str) -> list[re.Match[str]]:
    """The exception lines of ``text`` whose message stops inside a sentence
    (:data:`_CUT_MESSAGE`), in order. Only the lines that hold an exception's words are asked,
    found with ``str.find``: the pattern anchored at every line's start of a long log costs
    several times more (``benchmarks/bench_explain.py``'s logs, which hold none)."""
    starts: set[int] = set()
    for words in _EXCEPTION_WORDS:
        at = text.find(words)
        while at >= 0:
            starts.add(text.rfind("\n", 0, at) + 1)
            end = text.find("\n", at)
            at = text.find(words, end) if end >= 0 else -1
    out = []
    for start in sorted(starts):
        end = text.find("\n", start)
        match = _CUT_MESSAGE.match(text, start, end if end >= 0 else len(text))
        if match is not None:
            out.append(match)
    return out


def rejoin_wrapped_messages(text: str) -> str:
    """``text`` with each exception line whose message a paste wrapped mid-sentence joined
    with the rest of that sentence, from the lines below (which stay: the lines stay as
    many); ``text`` itself where none was wrapped."""
    lines: Optional[list[str]] = None
    line_no, counted = 0, 0  # lines counted from the last join on: one pass over the text
    for match in _cut_messages(text):
        rest = _message_rest(text, match.end())
        if not rest:
            continue
        if lines is None:
            lines = text.split("\n")
        line_no += text.count("\n", counted, match.start())
        counted = match.start()
        lines[line_no] = _joined(match.group(0), rest)
    return text if lines is None else "\n".join(lines)


#: The messages Python's import system and attribute lookup print, alone on a line: what a user
#: quotes of an error without its type ("I get: module 'x' has no attribute 'y'"). Each form is
#: one exception's own (Objects/moduleobject.c, Python/import.c, Lib/importlib/_bootstrap.py).
_BARE = re.compile(
    # AutoGraph's warning ends with the exception that stopped its conversion ("... will be
    # executed as-is. ... Cause: converting <function f>: AttributeError: module 'gast' has
    # no attribute 'Num'"): that message, read as if quoted alone. A bound method's repr
    # nests its object's ("<bound method Flatten.call of <...Flatten object at 0x9f>>").
    r"^[ \t]*(?:[^\n]*?\bCause: (?:converting <[^<>\n]*(?:<[^<>\n]*>)?>: )?(?:\w+Error: )?)?(?:"
    # A module's name alone before "has no attribute" (a paste that dropped "module"): dotted,
    # its last part in lower case as modules' are (a class's is capitalised).
    # A user who retyped the message may leave blanks inside the quotes and none before the
    # second ("'keras. utils' has no attribute' PyDataset '"): Python prints neither, and
    # explain.api reads the names without them.
    r"(?P<attribute>(?:module "
    r"|(?=[`'\"\u2018\u201c]\w+(?:\.\w+)*\.[a-z_][a-z0-9_]*[`'\"\u2019\u201d]))"
    r"([`'\"\u2018\u201c])[ \t]?\w+(?:[ \t]?\.[ \t]?\w+)*[ \t]?"
    r"[`'\"\u2019\u201d] has no attribute ?"
    r"([`'\"\u2018\u201c])[ \t]?\w+[ \t]?[`'\"\u2019\u201d]"
    r"(?:\. Did you mean: '\w+'\?)?)"
    # Python 2's words for a module's missing attribute (Objects/object.c's generic
    # "'%.50s' object has no attribute '%.400s'", a module's type being 'module').
    r"|(?P<py2attribute>'module' object has no attribute ([`'\"\u2018\u201c])\w+"
    r"[`'\"\u2019\u201d])"
    r"|(?P<module>No module named ([`'\"\u2018\u201c])[\w.]+[`'\"\u2019\u201d])"
    r"|(?P<name>cannot import name ([`'\"\u2018\u201c])\w+[`'\"\u2019\u201d] from "
    r"([`'\"\u2018\u201c])[\w.]+[`'\"\u2019\u201d](?: \([^\n)]*\))?)"
    # reticulate's words for a module the R interfaces import lazily whose import raised
    # (R/python.R, py_resolve_module_proxy), after R's "Error in ...: " or "Error: ".
    r"|(?:Error(?: in [^:\n]{0,200})?: )(?P<reticulate>Python module [\w.]+ was not found\.)"
    # Keras 3's refusal of a layer that is not its own (models/sequential.py), quoted alone.
    r"|(?P<refusal>Only instances of `?keras\.(?:Layer|Model)`? can be added to a \w+ model)"
    r")[ \t.]*$",
    re.MULTILINE,
)
_BARE_TYPES = {
    "attribute": "AttributeError",
    "py2attribute": "AttributeError",
    "module": "ModuleNotFoundError",
    "name": "ImportError",
    "refusal": "ValueError",
    # R's condition: reticulate does not say what the import raised.
    "reticulate": "Error",
}
_BARE_WORDS = (
    "has no attribute",
    "No module named",
    "cannot import name",
    "Only instances of",
    "was not found.",
)


#: A lazy module's words for a submodule that failed to import, the error's own message after
#: them (on the next line, or the same line where a paste joined them): Transformers'
#: ``_LazyModule._get_module`` (src/transformers/utils/import_utils.py; file_utils.py before
#: 4.11), which Diffusers, optimum and other libraries copy.
_LAZY_WRAPPER = re.compile(
    r"Failed to import (?P<module>[A-Za-z_][\w.]{0,200}) because of the following error "
    r"\(look up to see its traceback\):"
)


def _wrapper_of(text: str, line_start: int, message_start: int) -> str:
    """The module the innermost lazy-import wrapper names before an error's message: on the
    message's own line before it, else ending the line above; empty where none does."""
    inline = text[line_start:message_start][-1000:]
    found = list(_LAZY_WRAPPER.finditer(inline))
    if not found and line_start > 0:
        begin = text.rfind("\n", 0, line_start - 1) + 1
        above = text[begin : line_start - 1][-1000:].rstrip()
        found = [m for m in _LAZY_WRAPPER.finditer(above) if m.end() == len(above)]
    return found[-1].group("module") if found else ""


#: R's condition details before an exception reticulate passes on (``  error: ImportError:``).
_R_ERROR = re.compile(r"[ \t]*error:[ \t]")


def _front_end(text: str, line_start: int, line: str) -> str:
    """``reticulate`` where R's words wrap the exception line ``line`` (starting at
    ``line_start``): R's ``error: `` before it, or R's ``Error in py_...(...) :`` of the
    reticulate call that asked Python on the line above; else empty."""
    if _R_ERROR.match(line):
        return "reticulate"
    if line_start <= 0 or "Error in py_" not in text[max(0, line_start - 400) : line_start]:
        return ""
    above = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
    return "reticulate" if r_interface(above) is not None else ""


def _wrapper_in(message: str) -> str:
    """The module the innermost lazy-import wrapper in ``message`` names, where the paste
    joined the wrapped error to its line; empty where none does."""
    found = list(_LAZY_WRAPPER.finditer(message)) if "Failed to import" in message else []
    return found[-1].group("module") if found and message[found[-1].end() :].strip() else ""


def _bare_messages(text: str, where: Optional[object], out: list[Traceback]) -> list[Traceback]:
    """``out`` and, after them, the exceptions quoted by their message alone (typed as that
    message's own exception), where no exception in ``out`` has the same message."""
    if len(out) >= MAX_TRACEBACKS or not any(word in text for word in _BARE_WORDS):
        return out
    said = {tb.message for tb in out}
    line_no, counted = 0, 0
    for match in _BARE.finditer(text):
        kind = next(k for k in _BARE_TYPES if match.group(k) is not None)
        message = in_python_quotes(match.group(kind))
        if kind == "attribute" and not message.startswith("module "):
            message = f"module {message}"  # Python's own words, for one reading of them
        if message in said:
            continue
        said.add(message)
        line_no += text.count("\n", counted, match.start())
        counted = match.start()
        place = where.where(line_no) if hasattr(where, "where") else f"line {line_no + 1}"
        warned = "Cause: " in match.group(0)
        line_start = text.rfind("\n", 0, match.start()) + 1
        wrapper = _wrapper_of(text, line_start, match.start(kind))
        out.append(
            Traceback(
                str(place),
                _BARE_TYPES[kind],
                message,
                warned=warned,
                wrapper=wrapper,
                front_end="reticulate" if kind == "reticulate" else "",
            )
        )
        if len(out) >= MAX_TRACEBACKS:
            break
    return out


#: An import statement as a session shows it: after Python's ``>>>`` or IPython's ``In [3]:``
#: prompt, or alone on its line.
_STATEMENT = re.compile(
    r"^[ \t]*(?:>>>[ \t]*|In \[\d*\]:[ \t]*)?(?P<code>"
    # `import a.b as c, d` or `from a.b import (c, d as e)`: nothing after but a comment.
    r"import[ \t]+[\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*"
    # One run of blanks between names, so that no run is split two ways (backtracking). The
    # names may be cut from a paste (`from a.b import` at a line's end): the module remains.
    r"|from[ \t]+[\w.]+[ \t]+import(?:[ \t]+[\w.*(),]+(?:[ \t]+[\w.*(),]+)*)?"
    r")[ \t]*(?:#[^\n]*)?$"
)

#: A shell line running Python on a program of one import statement (``$ python3 -c "from
#: onnx_tf.backend import prepare"``, ``C:\\work>python -c "import hub"``): the code that ran
#: is that import, as a statement typed at a prompt is. CPython runs ``-c``'s string as
#: ``__main__``'s code (Modules/main.c, ``pymain_run_command``), so nothing else of the
#: user's ran. Its prompt (``$``, ``#``, ``%``, a Windows ``path>``) is passed over.
_COMMAND_IMPORT = re.compile(
    r"^(?:[^\n]{0,200}?[$#%>][ \t]*)?"
    r"(?:python(?:3(?:\.\d{1,2})?)?(?:\.exe)?|py(?: -3(?:\.\d{1,2})?)?)[ \t]+-c[ \t]+"
    r"(?P<quote>[\"'])(?P<program>[^\"'\n]{1,300})(?P=quote)[ \t]*\r?$"
)


def _command_statement(line: str) -> Optional[re.Match[str]]:
    """The import statement a shell line's ``python -c`` program is (:data:`_COMMAND_IMPORT`,
    one statement, a trailing ``;`` allowed), as :data:`_STATEMENT` reads it; None for any
    other line or a program that is more than that import."""
    command = _COMMAND_IMPORT.match(line)
    if command is None:
        return None
    return _STATEMENT.match(command.group("program").strip().rstrip(";").rstrip())


def import_statements(text: str, limit: int) -> list[tuple[int, str]]:
    """The import statements ``text`` shows on lines of their own, outside tracebacks (a
    session's input, a pasted snippet), each with its line's offset in ``text``; at most
    ``limit``. The source lines Python prints under a traceback's frames are not included."""
    out: list[tuple[int, str]] = []
    find = text.find
    i = find("import ")
    while i >= 0 and len(out) < limit:
        start = text.rfind("\n", 0, i) + 1
        end = find("\n", i)
        end = len(text) if end < 0 else end
        found = _STATEMENT.match(text[start:end][:500])
        above = text.rfind("\n", 0, max(start - 1, 0)) + 1 if start else start
        if found is not None and not (start and _FRAME.match(text[above : start - 1])):
            out.append((text.count("\n", 0, start), found.group("code").strip()))
        i = find("import ", end)
    return out


#: Python's repr of a module object: ``<module 'keras' from '/usr/lib/python3/dist-packages/keras/
#: __init__.py'>`` (pytest prints fixtures so, and sessions echo them): where it was imported from.
_MODULE_REPR = re.compile(r"<module '(?P<name>[\w.]+)' from '(?P<path>[^'\n]{1,400})'>")
#: Module origins kept per log.
MAX_MODULE_ORIGINS = 20


def module_origins(text: str, limit: int = MAX_MODULE_ORIGINS) -> list[tuple[str, str]]:
    """(module, file) of every module object ``text`` prints, observed: the package that was
    imported and the file it came from (the repr's doubled backslashes of a Windows path
    undone: ``C:\\\\x`` prints for ``C:\\x``); at most ``limit``."""
    if "<module '" not in text:
        return []
    out: list[tuple[str, str]] = []
    for match in _MODULE_REPR.finditer(text):
        found = (match.group("name"), match.group("path").replace("\\\\", "\\"))
        if found not in out:
            out.append(found)
            if len(out) >= limit:
                break
    return out


#: What ends an interpreter's path, and what may not follow its name.
_PATH_STOP = " \t\n\r'\"`()[]{}<>,;|="
_VERSION_TAIL = re.compile(r"\d(?:\.\d+)?")
#: Interpreters kept per log.
MAX_INTERPRETERS = 8


_INTERPRETER_NAME = re.compile(r"(?:/bin/|\\)python")


def interpreters(text: str, limit: int = MAX_INTERPRETERS) -> list[str]:
    """The distinct Python executables ``text`` names (``sys.executable``, ``which python``,
    ``where python``): a POSIX ``.../bin/python3.9``, or a Windows ``C:\\...\\python.exe``
    (a repr's doubled backslashes undone); observed paths, in order of appearance, at most
    ``limit``. Found from each ``python`` after ``/bin/`` or a backslash the text holds (one
    search), so that a long log costs one pass."""
    out: list[str] = []
    # Only a "python" after "/bin/" or a backslash can end a path found below: those are
    # looked for, longer words than "python" (which every site-packages path holds).
    starts = sorted(m.end() - len("python") for m in _INTERPRETER_NAME.finditer(text))
    for i in starts:
        if len(out) >= limit:
            break
        end = i + len("python")
        tail = _VERSION_TAIL.match(text, end)
        end = tail.end() if tail is not None else end
        windows = text[end : end + 4].lower() == ".exe"
        end += 4 if windows else 0
        after = text[end : end + 1]
        found = None
        if not after or after in _PATH_STOP or (after in ".\\" and windows):
            head = max(text.rfind(c, max(0, i - 400), i) for c in _PATH_STOP) + 1
            path = text[head:end]
            if windows and text[i - 1 : i] == "\\" and re.match(r"[A-Za-z]:\\", path):
                found = path.replace("\\\\", "\\")
            elif not windows and text[i - 5 : i] == "/bin/" and path[:1] in "/~":
                found = path
        if found is not None and found not in out:
            out.append(found)
    return out


#: A shell line running an interpreter on code (``$ python3 train.py``, ``python3.11 -c
#: "..."``, Windows' launcher ``py -3.10 -m pip``, a plain ``python``): the command the user's
#: shell resolves, which may be another Python than the plain ``python`` or ``pip`` on PATH.
_PYTHON_COMMAND = re.compile(
    r"(?m)(?:^|[$#%>][ \t]*)(?P<cmd>python(?:3(?:\.\d{1,2})?)?|py -3(?:\.\d{1,2})?)"
    r"[ \t]+(?:-c\b|-m[ \t]|(?P<script>[^\s-][^\s]{0,200}\.py)\b)"
)


def python_command(text: str) -> Optional[str]:
    """The versioned interpreter command (``python3``, ``python3.11``, ``py -3.10``) of the
    last shell line of ``text`` that runs Python before its first missing module (the line
    that ran the code that failed, not an earlier ``python3 -m pip`` or ``python3 -m venv``);
    None where none does or where that line ran a plain ``python``."""
    if "py" not in text:
        return None
    failed = text.find("No module named")
    end = failed if failed >= 0 else len(text)
    ran = [m.group("cmd") for m in _PYTHON_COMMAND.finditer(text, 0, end)]
    return ran[-1] if ran and ran[-1] != "python" else None


def python_scripts(text: str, limit: int = MAX_INTERPRETERS) -> list[str]:
    """The program files the shell lines of ``text`` run Python on (``python
    tensorflow/models/x.py`` gives ``tensorflow/models/x.py``), as typed, in order, at most
    ``limit``: where the program lies, which a relative path gives from the directory the
    command ran in."""
    if ".py" not in text:
        return []
    out: list[str] = []
    for m in _PYTHON_COMMAND.finditer(text):
        if m.group("script") and m.group("script") not in out:
            out.append(m.group("script"))
            if len(out) >= limit:
                break
    return out


#: The interpreter a Jupyter server could not start a kernel with: jupyter_client's launcher
#: logs the kernelspec's argv ("Failed to run command:", with ``-m ipykernel_launcher``), then
#: Popen's FileNotFoundError names the interpreter that is not there
#: (https://github.com/jupyter/jupyter_client/blob/v8.6.0/jupyter_client/launcher.py).
_KERNEL_EXE_MISSING = re.compile(
    r"FileNotFoundError: \[(?:Errno|WinError) 2\] [^\n]{0,80}?: '"
    r"(?P<path>/[^'\n]{0,400}/bin/python[\d.]*|[A-Za-z]:\\[^'\n]{0,400}?python(?:w)?\.exe)'"
)


def missing_kernel_interpreter(text: str) -> Optional[str]:
    """The interpreter a kernelspec names that ``text`` shows missing as a Jupyter server
    launched the kernel (``-m ipykernel_launcher`` in the command it logged); None elsewhere."""
    if "ipykernel_launcher" not in text or "FileNotFoundError" not in text:
        return None
    m = _KERNEL_EXE_MISSING.search(text)
    return m.group("path").replace("\\\\", "\\") if m is not None else None


#: A frame calling tf.load_op_library: the caller's frame line, its code line, then TensorFlow's
#: load_library.py's frame (a paste may end without the exception's type).
_OP_LOADER = re.compile(
    r'^[ \t]*File "(?P<caller>[^"\n]{1,400})", line \d+[^\n]*\n(?:[^\n]*\n){0,2}?'
    r'[ \t]*File "[^"\n]{0,400}[/\\]framework[/\\]load_library\.py"',
    re.MULTILINE,
)


def op_loader_in(text: str) -> Optional[str]:
    """The file whose frame called ``tf.load_op_library`` in ``text`` (the frame printed
    before TensorFlow's ``framework/load_library.py``), where a traceback shows one."""
    if "load_library.py" not in text:
        return None
    found = _OP_LOADER.search(text)
    return found.group("caller") if found is not None else None


#: CPython's frame line and the source line it prints under it (traceback.py's
#: ``'  File "{}", line {}, in {}\n'`` then the line, indented).
_FRAME_AND_LINE = re.compile(
    r'^[ \t]*File "(?P<path>[^"\n]{1,400})", line \d+, in [^\n]{1,200}\n'
    r"[ \t]*(?P<code>[^\n]{1,400}?)[ \t]*\r?$",
    re.MULTILINE,
)
#: An import statement as a frame's source line prints it: the top-level package it imports
#: (``import deepxde as dde``, ``from lucid.optvis import render``); a relative import (the
#: user's own package) names none.
_IMPORTS = re.compile(
    r"^(?:from\s+(?P<source>[A-Za-z_]\w*)[\w.]*\s+import\b|import\s+(?P<module>[A-Za-z_]\w*))"
)
#: A line that may be an exception's message (``ImportError: ...``, ``SystemExit``).
_MESSAGE_LIKE = re.compile(r"^[ \t]*[\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b", re.M)


@record
class CutImport(Record):
    """A traceback the text ends in without its message (the paste cut it), whose last frame
    runs an import statement: the import that raised, not what it raised."""

    #: The frame's file, as printed.
    path: str
    #: The import statement, as printed.
    code: str
    #: The top-level package it imports (``tensorflow_probability``).
    module: str


def cut_import(text: str) -> Optional[CutImport]:
    """The last frame of the text's last traceback, where it is an import statement and no
    line after it can be the exception's message; None otherwise."""
    start = text.rfind("Traceback (most recent call last):")
    if start < 0:
        return None
    tail = text[start:]
    # The last frame printed: the one that raised.
    last = next(iter(reversed(list(_FRAME_AND_LINE.finditer(tail)))), None)
    if last is None or _MESSAGE_LIKE.search(tail, last.end()):
        return None
    module = imported_package(last.group("code"))
    if module is None:
        return None
    return CutImport(last.group("path"), last.group("code"), module)


def imported_package(code: str) -> Optional[str]:
    """The top-level package an import statement (a frame's source line) imports: ``deepxde``
    for ``import deepxde as dde``, ``lucid`` for ``from lucid.optvis import render``; None for
    another line or a relative import (the user's own package)."""
    found = _IMPORTS.match(code)
    return (found.group("source") or found.group("module")) if found is not None else None


def statement_package(tb: Traceback) -> Optional[str]:
    """The top-level package the import statement printed above ``tb``'s message imports
    (:attr:`Traceback.statement`, read as :func:`imported_package` reads a frame's line):
    ``onnx_tf`` for ``from onnx_tf.backend import prepare``; None where no statement is
    printed, or it is a relative import."""
    return imported_package(tb.statement) if tb.statement else None


#: A command asking an interpreter its version (after any prompt), and the answer CPython
#: prints on the next line.
_VERSION_SHOWN = re.compile(
    # The command may close a quote that wraps it (`docker run IMAGE -c "python --version"`).
    r"(?:^|[\s$#>%\"'])(?P<command>python|py)(?P<suffix>[\d.]{0,5})(?:\.exe)?[ \t]+"
    r"(?:--version|-V)[\"']?[ \t]*\r?\n"
    r"[ \t]*Python (?P<version>[23]\.\d{1,2}(?:\.\d{1,2})?)[ \t]*\r?$",
    re.MULTILINE,
)
#: An interpreter or pip named for a major Python (python3, pip2, python3.8 -m pip).
_OTHER_MAJOR = {
    "2": re.compile(r"\b(?:python|pip)3(?:\.\d+)?\b"),
    "3": re.compile(r"\b(?:python|pip)2(?:\.\d+)?\b"),
}


def read_python_shown(text: str) -> Optional[str]:
    """The Python version ``python --version`` (or ``-V``) printed in ``text``: the answer on
    the line after the command, not a "Python 3.x" line elsewhere (a README's, a banner
    quoted in prose); None where the log also runs an interpreter or pip of the other major
    (``python`` answering 2.7 beside ``python3 -m pip``: that pip is another Python's)."""
    if "Python " not in text or ("--version" not in text and "-V" not in text):
        return None
    found = _VERSION_SHOWN.search(text)
    if found is None:
        return None
    version = found.group("version")
    if _OTHER_MAJOR[version[0]].search(text):
        return None
    return version


#: A bare ``pip --version`` (or ``-V``, pip3's alike) as a shell runs it: the ``pip`` command
#: PATH finds first, not ``python -m pip``; then pip's answer, naming the Python it runs in
#: ("pip 22.0.2 from /usr/lib/python3/dist-packages/pip (python 3.10)").
_BARE_PIP_SHOWN = re.compile(
    r"(?:^|[\s$#>%\"'])(?<!-m )pip3?(?:\.exe)?[ \t]+(?:--version|-V)[\"']?[ \t]*\r?\n"
    r"[ \t]*pip \d+(?:\.\d+)+ from \S[^\n]* \(python (?P<python>\d\.\d+)\)",
    re.MULTILINE,
)
#: What switches a shell to another environment between two commands: an activation (conda's,
#: a venv's script, virtualenvwrapper's workon, pyenv's shell or local).
_ENV_SWITCH = re.compile(r"\bactivate\b|\bworkon\b|\bpyenv (?:shell|local|global)\b")


def bare_python_and_pip(text: str) -> Optional[tuple[str, str]]:
    """(``python --version``'s answer, the Python a bare ``pip --version`` names) where
    ``text`` shows both commands typed bare in one shell (``python``, not ``python3.10``;
    ``pip``, not ``python -m pip``) with no environment switched between them; else None."""
    if "--version" not in text and "-V" not in text:
        return None
    python = next(
        (m for m in _VERSION_SHOWN.finditer(text) if m["command"] == "python" and not m["suffix"]),
        None,
    )
    pip = _BARE_PIP_SHOWN.search(text)
    if python is None or pip is None:
        return None
    low, high = sorted((python.start(), pip.start()))
    if _ENV_SWITCH.search(text, low, high):
        return None
    return python["version"], pip["python"]


def interpreter_prefix(path: str) -> str:
    """The environment an interpreter belongs to: the folder above ``bin/`` on POSIX; on
    Windows the executable's folder (conda's and python.org's root), or the one above a
    venv's ``Scripts\\``."""
    if path.lower().endswith(".exe"):
        folder = path.rsplit("\\", 1)[0]
        # A venv keeps its python.exe in Scripts\ (conda and python.org at the root).
        return folder[: -len("\\Scripts")] if folder.lower().endswith("\\scripts") else folder
    head = path.rsplit("/", 1)[0]
    return head[: -len("/bin")] if head.endswith("/bin") else head


#: A line a user wrote in place of what they cut (``...``, ``…``, ``[...]``).
_ELISION = re.compile(r"[ \t]*(?:\.{3,}|\u2026|\[\.{3}\]|\(\.{3}\)|<snip>|\[snip\])[ \t]*\r?")


#: IPython's mark of the line that ran in a frame's source (``---> 10 ``), before a statement.
_ARROW = re.compile(r"[ \t]*-+> ?\d+[ \t]+")


#: A frame's source line as Python prints it under ``File ...``: indented, not a frame line
#: (read as code only where it is Python: :func:`_indented_code`).
_CODE_LINE = re.compile(r"[ \t]{2,}(?!File \")(?P<code>\S[^\n]{0,498})")


#: A source line a paste kept without its indentation: a Python statement (an assignment, or
#: a call at its start; not a logger's ``WARNING:...`` line) that calls TensorFlow's public API
#: (``output = tf.mul(a, b)``), so what it ran is still read.
_TF_CODE_UNINDENTED = re.compile(
    r"(?P<code>(?:[A-Za-z_][\w.]{0,100} ?[-+*/]?= ?[^\n]{0,300}?)?"
    r"\b(?:tf|tensorflow)\.[A-Za-z_][\w.]{0,100}\([^\n]{0,300}"
    # Or one that binds a TensorFlow name itself (``map_fn = tf.python.functional_ops.map_fn``):
    # the lookup that raised is the whole right side.
    r"|[A-Za-z_][\w.]{0,100} ?= ?(?:tf|tensorflow)\.[A-Za-z_][\w.]{0,100})"
)
#: The prompt before a line typed into Python's interactive interpreter (``>>> ``) or
#: IPython's (``In [3]: ``): what follows is the user's own statement.
_PROMPT = re.compile(r"[ \t]*(?:>>>|In \[\d*\]:)[ \t]*")
#: The marks Python 3.11 on prints under a frame's source line, at the expression that
#: raised (PEP 657's fine-grained error locations: ``^`` and ``~``): the line is above them.
_MARKS = re.compile(r"[ \t]*[\^~][\^~ \t]*")


#: The interactive interpreter's continuation prompt (a statement's second and later lines;
#: ``...`` alone where a paste lost the space after it on the block's closing empty line).
_CONTINUED = re.compile(r"[ \t]*\.\.\.(?:[ \t]|$)")


def _typed_frame(frames: tuple[Frame, ...], text: str, header: int) -> tuple[Frame, ...]:
    """``frames`` with the innermost one's source line read from the prompt above the
    traceback's header, where that frame is the interactive interpreter's (``<stdin>``), which
    prints no line for it: the statement typed at ``>>>`` (its ``...`` lines after it) is the
    code that ran, the frame's line number counting from the prompt's line. A function's frame
    (one defined at an earlier prompt) counts from its own ``def``, not from this statement."""
    if (
        not frames
        or frames[-1].path != "<stdin>"
        or frames[-1].function != "<module>"
        or frames[-1].code
        or header <= 0
    ):
        return frames
    typed: list[str] = []
    begin = header
    for _ in range(50):
        if begin <= 0:
            return frames
        begin, line = _line_before(text, begin)
        continued = _CONTINUED.match(line)
        if continued is not None:
            typed.append(line[continued.end() :])
            continue
        prompt = _PROMPT.match(line)
        if prompt is None or not line.lstrip().startswith(">>>"):
            return frames
        typed.append(line[prompt.end() :])
        break
    else:
        return frames
    typed.reverse()
    inner = frames[-1]
    if not 1 <= inner.line <= len(typed) or not typed[inner.line - 1].strip():
        return frames
    return (*frames[:-1], dataclasses.replace(inner, code=typed[inner.line - 1].strip()))


def _line_before(text: str, start: int) -> tuple[int, str]:
    """The start and the text (at most 500 characters, no ``\\r``) of the line before the one
    starting at ``start`` (> 0)."""
    begin = text.rfind("\n", 0, start - 1) + 1
    return begin, text[begin : start - 1].rstrip("\r")[:500]


def _is_statement(code: str) -> bool:
    """Whether ``code`` (one line, at most 500 characters) is whole Python: it parses."""
    try:
        with warnings.catch_warnings():
            # An invalid escape in a string literal warns (SyntaxWarning): still a statement.
            warnings.simplefilter("ignore")
            ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _closers(code: str) -> str:
    """The brackets that close those ``code`` (one source line) leaves open, innermost
    first, outside its string literals and comment; "" where it closes all or cannot be
    read so (a bracket closed that was not opened)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opened: list[str] = []
    quote = ""
    escaped = False
    for char in code:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#":
            break
        elif char in pairs:
            opened.append(pairs[char])
        elif char in ")]}" and (not opened or opened.pop() != char):
            return ""
    return "".join(reversed(opened))


def _is_python_line(code: str) -> bool:
    """Whether ``code`` (one source line: an indented one, or one that
    :data:`_TF_CODE_UNINDENTED` matched) is Python a paste or a prompt shows as it ran: a
    whole statement, or the first line of one its brackets carry on (``model.fit(x,``);
    never prose that names a call (``tf.Session() fails with:``)."""
    closers = _closers(code)
    return _is_statement(code) or (bool(closers) and _is_statement(code + closers))


def _indented_code(line: str, code: str) -> bool:
    """Whether ``code``, what an indented ``line`` holds, is a frame's source line: Python
    (:func:`_is_python_line`), not an installer's indented step that a message follows
    (pip's ``  Attempting uninstall: numpy``, ``  Downloading x.whl (475.2 MB)``, conda's
    ``  Total: 29.7 MB`` or its ``  - SPEC`` lists; some of them parse, ``- numpy``)."""
    python = _is_python_line(code) or _is_clause_head(code)
    return python and read_pip_line(line) is None and not spec_line(line)


#: What makes a compound statement's header whole, by the word it opens with: the header's
#: body, after the statement it continues (``elif``, ``else``, ``except``, ``finally``); a
#: decorator's function. Python prints any of them as a frame's line (``for batch in ds:``,
#: ``with tf.Session() as sess:``, the line a generator's or context manager's error runs).
_CLAUSE_WHOLE: Final = (
    (("elif ", "else:", "else :"), "if 1:\n pass\n{}\n pass"),
    (("except", "finally:", "finally :"), "try:\n pass\n{}\n pass"),
    (("@",), "{}\ndef f(): pass"),
    (("",), "{}\n pass"),
)


def _is_clause_head(code: str) -> bool:
    """Whether ``code`` (one source line) is a compound statement's header or clause
    (``for x in data:``, ``else:``) or a decorator: Python, though no statement alone."""
    if not code.endswith(":") and not code.startswith("@"):
        return False
    whole = next(form for opens, form in _CLAUSE_WHOLE if code.startswith(opens))
    return _is_statement(whole.format(code))


def _code_above(text: str, start: int) -> tuple[str, bool, bool]:
    """The source line before the line starting at ``start`` (an exception printed with no
    frames), where Python prints the innermost frame's line, whether a prompt shows it typed
    (:attr:`Traceback.typed`) and whether it is indented as Python prints a frame's line
    (:attr:`Traceback.printed`); ``("", False, False)`` where there is none.

    The line is an indented one (as Python prints a frame's line), or one that calls or binds
    TensorFlow's API, unindented as a paste left it or after an interactive prompt
    (``>>> config = tf.ConfigProto()``). Python prints no blank line between a frame's line
    and the message, but a paste often adds one: past one blank line, and nothing else, the
    line above counts where it calls or binds TensorFlow's API and is whole Python (an
    indented line of a listing, or prose naming a call, is not).
    """
    if start <= 0:
        return "", False, False
    begin, line = _line_before(text, start)
    blank = not line.strip()
    if blank:
        if begin <= 0:
            return "", False, False
        begin, line = _line_before(text, begin)
    if _MARKS.fullmatch(line):
        # Python 3.11 on marks the expression under the line it ran: that line is above.
        if begin <= 0:
            return "", False, False
        begin, line = _line_before(text, begin)
    prompt = _PROMPT.match(line)
    unindented = False
    if prompt is not None or blank:
        found = _TF_CODE_UNINDENTED.fullmatch(line[prompt.end() if prompt else 0 :].strip())
    else:
        found = _CODE_LINE.fullmatch(line)
        if found is not None and not _indented_code(line, found.group("code").rstrip()):
            found = None
        if found is None:
            found = _TF_CODE_UNINDENTED.fullmatch(line.rstrip())
            unindented = True
    code = found.group("code").rstrip() if found is not None else ""
    if blank and not _is_statement(code):
        return "", False, False
    if (prompt is not None or unindented) and code and not _is_python_line(code):
        return "", False, False  # prose naming a call, not the line that ran
    printed = prompt is None and _indented_under(line, text, start)
    return code, bool(code) and prompt is not None, bool(code) and printed


def _statement_above(text: str, start: int) -> tuple[str, tuple[str, ...], bool, bool]:
    """The import statement on the line before the one starting at ``start`` (past up to two
    lines that only mark a cut, ``...``), or ``""``; where IPython marked it as a frame's
    line that ran, the import statements it marked above (:attr:`Traceback.importers`);
    whether a prompt shows it typed (:attr:`Traceback.typed`); and whether it is a frame's
    line as a traceback prints it, marked or indented (:attr:`Traceback.printed`)."""
    exception = start  # the exception's line, which a frame's line is indented deeper than
    for _ in range(3):
        if start <= 0:
            return "", (), False, False
        begin = text.rfind("\n", 0, start - 1) + 1
        line = text[begin : start - 1][:500]
        arrow = _ARROW.match(line)
        found = _STATEMENT.match(line[arrow.end() :] if arrow else line)
        if found is not None:
            statement = found.group("code").strip()
            typed = line.lstrip().startswith((">>>", "In ["))
            printed = arrow is not None or (not typed and _indented_under(line, text, exception))
            importers = _marked_imports_above(text, begin) if arrow else ()
            return statement, importers, typed, printed
        command = _command_statement(line)
        if command is not None:
            # Typed at a shell's prompt: the import is all the user's program did.
            return command.group("code").strip(), (), True, False
        if not _ELISION.fullmatch(line):
            return "", (), False, False
        start = begin
    return "", (), False, False


def _indented_under(line: str, text: str, start: int) -> bool:
    """Whether ``line`` is indented deeper than the exception line starting at ``start``, as
    Python prints a frame's source line (four spaces, under the frame's two) above its
    message at the margin: a whole paste indented alike (a Markdown code block) is not."""
    below = text[start : start + 200]
    return len(line) - len(line.lstrip(" \t")) > len(below) - len(below.lstrip(" \t"))


#: A line of IPython's source context under a frame (VerboseTB's ``_format_traceback_lines``,
#: IPython 5 to 8): the line's number right-aligned in seven columns, a space, the line (an
#: empty line's trailing space may be lost in a paste), or IPython 8's ``(...)`` where
#: stack_data leaves lines out.
#: https://github.com/ipython/ipython/blob/7.0.0/IPython/core/ultratb.py
#: https://github.com/ipython/ipython/blob/8.0.0/IPython/core/ultratb.py
_CONTEXT_LINE = re.compile(r"[ \t]*(?:\d+(?:[ \t][^\n]*)?|\(\.\.\.\)[ \t]*)\r?")
#: The context line that ran, which IPython marks with an arrow in place of the number's
#: padding (debugger.make_arrow: ``---> 43``, ``--> 303``, ``> 12345``, ``>123456``).
_MARKED_LINE = re.compile(r"[ \t]*-*> ?\d+[ \t]+(?P<code>\S[^\n]*?)[ \t]*\r?")
#: Context lines looked past, above the exception, for the marked one (IPython prints five by
#: default, and stack_data's pieces of a multi-line statement more).
_CONTEXT_MAX = 40


def _marked_above(text: str, start: int) -> tuple[int, str]:
    """The start and the statement of the line IPython marked as run (``---> 43 x = f(y)``)
    in the source context that ends right above the line starting at ``start`` (past the
    blank line IPython prints after a frame): the innermost frame's, where a paste cut its
    header (``~/x.py in f(a)``) away. ``(0, "")`` where no such context is there."""
    begin = start
    for index in range(_CONTEXT_MAX + 2):
        if begin <= 0:
            break
        begin, line = _line_before(text, begin)
        if index < 2 and not line.strip():
            continue  # the blank line IPython prints between frames, or one a paste added
        marked = _MARKED_LINE.fullmatch(line)
        if marked is not None:
            return begin, marked.group("code")
        if not _CONTEXT_LINE.fullmatch(line):
            break
    return 0, ""


def _marked_imports_above(text: str, start: int) -> tuple[str, ...]:
    """The import statements IPython marked as run on the lines above the one starting at
    ``start``, outermost first: its unmarked source context and cut marks are passed over,
    anything else ends them (at most a few frames' worth of lines)."""
    found: list[str] = []
    for _ in range(12):
        if start <= 0:
            break
        begin = text.rfind("\n", 0, start - 1) + 1
        line = text[begin : start - 1][:500]
        arrow = _ARROW.match(line)
        statement = _STATEMENT.match(line[arrow.end() :]) if arrow else None
        if statement is not None:
            found.append(statement.group("code").strip())
        elif arrow is not None or not (_CONTEXT.match(line) or _ELISION.fullmatch(line)):
            break
        start = begin
    return tuple(reversed(found))


def _after_ignored(text: str, start: int) -> bool:
    """The line before the one starting at ``start`` is Python's ``Exception ignored in``."""
    if start <= 0:
        return False
    begin = text.rfind("\n", 0, start - 1) + 1
    return text.startswith("Exception ignored", begin)


def _raised_words(text: str, start: int) -> str:
    """The string literals of the raise statement in IPython's source context after
    ``start`` (a frame line), joined; empty when the context shows none."""
    words: list[str] = []
    raising = False
    for line in text[start:].split("\n")[1:12]:
        context = _CONTEXT.match(line)
        if context is None:
            if words or raising:
                break
            continue
        code = context.group("code")
        raising = raising or bool(re.search(r"\braise\b", code))
        if raising:
            words += [a or b for a, b in _LITERAL.findall(code)]
    return "".join(words).strip()


def loose_frames(text: str, limit: int = MAX_FRAMES) -> list[Frame]:
    """The frames ``text`` shows, in order, whether or not a traceback's header is above them
    (a paste that starts inside a traceback and stops before its exception), at most
    ``limit``."""
    out = []
    for match in _FRAME.finditer(text):
        out.append(_frame(match, text))
        if len(out) >= limit:
            break
    return out


def _frame(match: re.Match[str], text: str) -> Frame:
    path = match.group("path") or match.group("ipath") or match.group("opath") or ""
    path = path or match.group("lpath") or match.group("cpath") or match.group("ppath") or ""
    path = path or match.group("apath") or ""
    number = match.group("line") or match.group("iline") or match.group("cline") or "0"
    number = match.group("pline") or match.group("aline") or number
    function = match.group("func") or match.group("ifunc") or match.group("ofunc") or ""
    function = function or match.group("lfunc") or match.group("cfunc") or ""
    function = function or match.group("pfunc") or match.group("afunc") or ""
    code = ""
    if not match.group("path") and not match.group("ppath") and not match.group("apath"):
        # IPython prints the frame's source context below it and marks the line that ran
        # (`----> 2 model.fit(x)`), up to the blank line before the next frame.
        end = text.find("\n\n", match.end())
        context = text[match.end() : end if end >= 0 else match.end() + 2000][:2000]
        marked = _IPYTHON_MARKED.search(context)
        if marked is not None:
            code = marked.group("code").strip()
            number = number if number != "0" else marked.group("line")
    else:
        # CPython (and pytest) print the source line, indented, under the frame when they
        # can read the file.
        start = match.end() + 1
        end = text.find("\n", start)
        candidate = text[start : end if end >= 0 else len(text)]
        # A traceback whose indentation a copy lost (a CI page's log view) has its frame lines
        # flush left too: the line under one is its source unless it is a frame or the error.
        flush = match.group("path") is not None and text[match.start()] not in (" ", "\t")
        if (
            candidate.startswith((" ", "\t"))
            or (flush and candidate and not _EXCEPTION_START.match(candidate))
        ) and not _FRAME.match(candidate):
            code = candidate.strip()
            if set(code) <= set("^~ "):
                code = ""  # the carets of Python 3.11's error locations, not code
    mark = match.group("amark") or ""
    cpython_mark = _AUTOGRAPH_MARK.search(function) if match.group("func") else None
    if cpython_mark is not None:
        # AutoGraph's frames from TensorFlow 2.7 on: CPython's form with its mark after the
        # function's name (`File "x.py", line 17, in call  *`).
        function, mark = function[: cpython_mark.start()], cpython_mark.group(0)
    return Frame(path, int(number), function.strip(), code, mark.strip() == "*")


#: AutoGraph's mark after a frame's function: ``  *`` converted, ``  **`` left as it was.
_AUTOGRAPH_MARK = re.compile(r"[ \t]+\*{1,2}[ \t]*$")


# --- what paths imply ---------------------------------------------------------------------------

#: The folder setuptools' bdist_egg compiles a project in (``build/bdist.<platform>/egg/``,
#: setuptools/command/bdist_egg.py: bdist_dir = build_base/"bdist.<plat_name>/egg"): a zipped
#: egg's modules keep it as their code's file name, so a frame of an installed zipped egg shows
#: ``build/bdist.macosx-10.12-x86_64/egg/<package>/x.py`` (its source, inside the zip, not
#: printed).
_EGG_BUILD = r"(?:^|[/\\])build[/\\]bdist\.[^/\\\s]+[/\\]egg[/\\]"
_INSTALLED = re.compile(r"[/\\](?:site|dist)-packages[/\\]|" + _EGG_BUILD)
#: A line that starts an exception or a traceback rather than a source line.
_EXCEPTION_START = re.compile(
    r"^(?:[\w.]+(?:Error|Exception|Exit|Interrupt|Warning)\b|Traceback \(|During handling"
    # pytest's error lines, a log line's timestamp or glog prefix, CPython's repeat note.
    r"|E\s|\d{4}-\d\d-\d\d[ T]|[IWEF]\d{4} |\[Previous line repeated)"
)


@functools.cache
def _packages() -> Mapping[str, str]:
    """TensorFlow's family: package directory -> the distribution that installs it."""
    table = modules()
    return {module: table.dists[module] for module in table.family}


# Keras 3 keeps its code under keras/src/ in trainers/, backend/ (a package), ops/, legacy/ and
# models/{model,functional,sequential}.py (keras-team/keras v3.0.0). Keras 2.13 to 2.15 build
# keras/src/ from keras/ too, with a backend.py module, a models/ package of other files,
# legacy_tf_layers/ and no legacy/; Keras 2 had keras/engine/ (up to 2.12) and
# keras/src/engine/ (2.13 to 2.15). Under keras/src/, preprocessing/, premade_models/,
# feature_column/ and dtensor/ are 2.13-2.15's only: no Keras 3 has them (v3.0.0 to v3.12,
# whose preprocessing layers live in layers/preprocessing/ and image utilities in utils/ and
# legacy/preprocessing/).
_KERAS3 = re.compile(
    r"^keras/src/(?:trainers|backend/|ops|legacy/|models/(?:model|functional|sequential)\.py"
    r"|optimizers/base_optimizer|layers/layer\.py)"
)
_KERAS2 = re.compile(
    r"^keras/(?:src/)?(?:engine|optimizers/optimizer_v2|optimizer_v2|legacy_tf_layers)/"
    r"|^keras/src/(?:preprocessing|premade_models|feature_column|dtensor)/"
)


def is_installed(path: str) -> bool:
    """Whether ``path`` lies under an interpreter's site-packages or dist-packages (an
    installed copy), rather than a source tree or the user's own code."""
    return _INSTALLED.search(path) is not None


#: An egg's folder (or zip) under site-packages, as setuptools names it: Distribution.egg_name
#: writes ``{project}-{version}-py{X.Y}[-{platform}].egg``, each part through to_filename
#: (dashes in a name become underscores), and pkg_resources' EGG_NAME reads it back
#: (pypa/setuptools, pkg_resources/__init__.py). The import packages lie inside it
#: (``site-packages/DeepXDE-0.6.1-py3.7.egg/deepxde/model.py``).
_EGG = re.compile(
    r"^(?P<project>[^-/\\]+)-(?P<version>\d[^-/\\]*)(?:-py\d[\d.]*(?:-[^/\\]+)?)?\.egg$", re.I
)


def _past_site(path: str) -> list[str]:
    """The parts of an installed file's path after site-packages (or dist-packages), an
    egg's folder left out: ``["deepxde", "model.py"]`` for both ``site-packages/deepxde/
    model.py`` and ``site-packages/DeepXDE-0.6.1-py3.7.egg/deepxde/model.py``."""
    rest = _INSTALLED.split(path)[-1]
    parts = rest.replace("\\", "/").split("/")
    return parts[1:] if len(parts) > 1 and _EGG.match(parts[0]) else parts


#: An import error a library caught and raised again inside its own exception, as Python's
#: repr prints it among the new exception's arguments (pyhf's ImportBackendError: ``('There was
#: a problem importing TensorFlow. ...', ImportError("cannot import name 'X' from 'p.q'
#: (/.../p/q.py)"))``): repr quotes with double quotes a message that holds single ones.
_WRAPPED_IMPORT_ERROR = re.compile(
    r"\b(?:ImportError|ModuleNotFoundError)\(\"(?P<message>(?:[^\"\\\n]|\\.){1,1000})\"\)"
)


def wrapped_import_error(message: str) -> Optional[str]:
    """The message of an ImportError (or ModuleNotFoundError) whose repr another exception's
    message holds, with repr's escapes undone (a Windows path's doubled backslashes); None
    where the message holds none."""
    if "Error(" not in message:
        return None
    found = _WRAPPED_IMPORT_ERROR.search(message)
    if found is None:
        return None
    return re.sub(r"\\(.)", r"\1", found.group("message"))


#: A module or folder name below a library's top-level package that says the module is the
#: library's TensorFlow front end or bridge: ``tensorflow2/`` (coremltools' converters),
#: ``jax2tf/`` (JAX's converter), ``tf_ops.py`` (RLlib's), ``onnx_tf``-style ``_tf`` endings.
_TF_FACING = re.compile(r"^(?:tensorflow\d*|tf\d*|\w*2tf|tf_\w+|\w+_tf\d*)(?:\.py)?$")


def tensorflow_facing(path: str) -> bool:
    """Whether an installed file lies in a module of its library that its name marks as
    written against TensorFlow (a folder or file below the top-level package named
    ``tensorflow``, ``tensorflow2``, ``tf``, ``jax2tf``, ``tf_ops.py``, ``keras_tf``): the
    library calls TensorFlow from there, whatever the library is."""
    if not is_installed(path):
        return False
    return any(_TF_FACING.match(part) for part in _past_site(path)[1:])


def egg_release(path: str) -> Optional[tuple[str, str]]:
    """The project and version an installed egg's folder names, where ``path`` is a file in
    one (``("DeepXDE", "0.6.1")``); None elsewhere. setuptools writes both from the project's
    own metadata, so the path shows which release is installed."""
    if not is_installed(path):
        return None
    rest = re.split(r"[/\\](?:site|dist)-packages[/\\]", path)[-1].replace("\\", "/")
    found = _EGG.match(rest.split("/", 1)[0]) if "/" in rest else None
    if found is None:
        return None
    # to_filename wrote a dash of the name or version as an underscore: PyPI's names read
    # either way (PEP 503), and a version's underscore was its local part's separator.
    return found.group("project"), found.group("version").replace("_", "-")


def egg_releases(tracebacks: Iterable[Traceback]) -> dict[str, str]:
    """The releases the frames' egg folders show installed, by project as pip normalises
    its name (``{"deepxde": "0.6.1"}``), the first of each."""
    out: dict[str, str] = {}
    for tb in tracebacks:
        for frame in tb.frames:
            egg = egg_release(frame.path)
            if egg is not None:
                out.setdefault(normalize_name(egg[0]), egg[1])
    return out


def built_egg(path: str) -> bool:
    """Whether ``path`` is a file of a zipped egg built on the machine that ran it
    (``build/bdist.<platform>/egg/``: setuptools' bdist_egg, which ``setup.py install`` runs on
    a project's source; pip installs wheels, never this)."""
    return re.search(_EGG_BUILD, path) is not None


def installed_package(path: str) -> Optional[str]:
    """The top-level import package of an installed file (``.../site-packages/transformers/
    x.py`` -> ``transformers``, ``.../dist-packages/six.py`` -> ``six``, an egg's
    ``.../site-packages/X-1.0-py3.7.egg/x/y.py`` -> ``x``), whatever its distribution; None
    for a file outside site-packages."""
    if not is_installed(path):
        return None
    first = _past_site(path)[0]
    return first[:-3] if first.endswith(".py") else first


def installed_namespaced(path: str) -> Optional[str]:
    """:func:`installed_package` of an installed file, with the folder below it where that is
    a namespace root several distributions share (the module table's ``namespaces``:
    ``.../site-packages/nvidia/dali_tf_plugin/libdali_tf_2_9.so`` -> ``nvidia.dali_tf_plugin``,
    ``.../google/cloud/storage/x.py`` -> ``google.cloud.storage``); None outside
    site-packages."""
    top = installed_package(path)
    roots = modules().namespaces
    if top is None or top not in roots:
        return top
    parts = _past_site(path)
    depth = 1
    # A namespace may hold another (google.cloud under google): each level names one more.
    while top in roots and depth < len(parts) - 1 and parts[depth].isidentifier():
        top, depth = f"{top}.{parts[depth]}", depth + 1
    return top


def library_dist(top: str, path: str = "") -> str:
    """The distribution that installs the import package ``top``: the project an egg's folder
    names where ``path`` (the frame's file) lies in one (setuptools names the folder after the
    project), else the module table's row, else the name pip normalises ``top`` to
    (``intel_extension_for_tensorflow``), which is only a name to look up
    (:func:`tfdoctor.explain.packages.known_distribution`)."""
    egg = egg_release(path) if path else None
    if egg is not None:
        return normalize_name(egg[0])
    return distribution_of(top) or normalize_name(top)


#: A line Python's warnings module printed from an installed file (Lib/warnings.py,
#: formatwarning: ``{filename}:{lineno}: {category}: {message}``).
_INSTALLED_WARNING = re.compile(
    r"[ \t]*(?P<path>(?:[A-Za-z]:)?[^\n:]{0,300}?[/\\](?:site|dist)-packages[/\\]"
    r"[^\n:]{0,300}?\.py):\d+: "
    r"(?P<category>[A-Z]\w*Warning): (?P<message>[^\n]{1,600})$"
)


#: Where such a line may be: an installed file's folder, then a warning category's word on the
#: same line (found in C, each "-packages" of a log's frames passed over there).
_WARNED_AFTER_PACKAGES = re.compile(r"-packages[^\n]*Warning: ")


def _warning_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` that hold an installed file's folder and, after it, a warning
    category's word (``Warning: ``), at most :data:`MAX_CONFLICTS` of them: only those are
    matched, so a long log costs one search."""
    at, seen = 0, 0
    while seen < MAX_CONFLICTS:
        found = _WARNED_AFTER_PACKAGES.search(text, at)
        if found is None:
            return
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        end = len(text) if end < 0 else end
        seen += 1
        yield text[start:end]
        at = end


def read_warned_verdicts(text: str) -> list[ImportCheck]:
    """The refusals of TensorFlow (:func:`tfdoctor.evidence.packages.library_verdict`) that
    installed libraries printed as Python warnings, each named after the package its file lies
    in (:func:`installed_package`, :func:`library_dist`); TensorFlow's own files are none."""
    out: list[ImportCheck] = []
    for line in _warning_lines(text):
        m = _INSTALLED_WARNING.match(line)
        top = installed_package(m.group("path")) if m is not None else None
        if m is None or not top or top in ("tensorflow", "tensorflow_core"):
            continue
        dist = library_dist(top, m.group("path"))
        if dist in TF_DISTRIBUTIONS:
            continue
        verdict = library_verdict(m.group("message"), dist, m.group("path"), warned=True)
        if verdict is not None and verdict not in out:
            out.append(verdict)
    return out


class FileOwner(NamedTuple):
    """Whose a traceback's file is, as far as its path says: the distribution (its origin,
    else the one pip's build folder is named for), whether pip was building it from source,
    and the top-level package of an installed file the distribution table does not know."""

    dist: str
    building: bool
    package: str

    @property
    def tensorflow(self) -> bool:
        """The file is TensorFlow's own (one of its distributions)."""
        return normalize_name(self.dist) in TF_DISTRIBUTIONS

    @property
    def who(self) -> str:
        """The name to give the owner in words: its distribution, else its package; empty for
        the project's own code."""
        return self.dist or self.package


def file_owner(path: str) -> FileOwner:
    """:class:`FileOwner` of the file at ``path`` (empty for none: the project's code)."""
    if not path:
        return FileOwner("", False, "")
    origin = origin_of(path)
    building = build_folder_dist(path)
    dist = (origin.dist if origin is not None else "") or building or ""
    return FileOwner(dist, building is not None, installed_package(path) or "")


def origin_of(path: str) -> Origin:
    """The distribution a traceback's file belongs to, as far as its path says."""
    unix = path.replace("\\", "/")
    installed = is_installed(path)
    # A PluggableDevice (tensorflow-metal, Intel's) lies in the tensorflow-plugins/ directory
    # the plug-ins share: its file name says whose it is.
    plugin = plugin_dist(unix)
    if plugin:
        return Origin(plugin, "", installed, "")
    parts = _past_site(unix) if installed else unix.split("/")
    rest = "/".join(parts)
    if not installed:
        # A source checkout: the last directory named like a package starts the module.
        starts = [i for i, part in enumerate(parts[:-1]) if part in _packages()]
        if not starts:
            return Origin("", "", False, "")
        parts = parts[starts[-1] :]
        rest = "/".join(parts)
    top = parts[0]
    dist = _packages().get(top, "")
    if not dist:
        return Origin("", "", installed, "")
    generation = ""
    if top == "keras":
        if _KERAS3.match(rest):
            generation = "Keras 3"
        elif _KERAS2.match(rest):
            generation = "Keras 2"
    elif top == "tf_keras":
        generation = "Keras 2"
    module = rest[:-3] if rest.endswith(".py") else rest
    return Origin(dist, generation, installed, module.replace("/", "."))


#: The interpreter's folder in a path: POSIX's ``lib/python3.12/``, read first where a path
#: holds both (``envs/py37/lib/python3.6/``); else a Windows install's ``Python312\``
#: (``Python37-32\`` for a 32-bit one, as python.org's installer names it, PCbuild's
#: PyArchExt). A folder right under ``envs`` (conda's ``envs\NAME``, virtualenvwrapper-win's
#: ``Envs\NAME``) is a name the user chose, not an install's: ``envs\python37\Lib`` names
#: no Python. The Microsoft Store's Python lies in its package's folder, named for the package
#: (``WindowsApps\PythonSoftwareFoundation.Python.3.8_3.8.2800.0_x64__...\``, its data under
#: ``Packages\PythonSoftwareFoundation.Python.3.8_...\``; CPython's PC/layout/support/
#: appxmanifest.py names the package ``PythonSoftwareFoundation.Python.3.X``). Python 2's
#: folders have the same forms (``lib/python2.7/``, python.org's 2.7 installer's
#: ``C:\Python27\``); its minor releases never reached two digits.
_PYTHON_DIR = re.compile(r"[/\\](?:lib[/\\])?python([23]\.\d+)[/\\]", re.I)
_PYTHON_DIR_WINDOWS = re.compile(
    r"(?<!envs)(?<!envs\\)[/\\]Python(3\d+|2\d)(?:-32|-arm64)?[/\\]", re.I
)
_PYTHON_DIR_STORE = re.compile(r"[/\\]PythonSoftwareFoundation\.Python\.(3\.\d+)_", re.I)


def path_python(path: str) -> Optional[str]:
    """The Python version (``3.12``, ``2.7``) the interpreter's folder in ``path`` names, if
    any."""
    match = _PYTHON_DIR.search(path)
    if match is not None:
        return match.group(1)
    match = _PYTHON_DIR_WINDOWS.search(path)
    if match is not None:
        tag = match.group(1)
        return f"{tag[0]}.{tag[1:]}"
    match = _PYTHON_DIR_STORE.search(path)
    return None if match is None else match.group(1)


_ENVIRONMENTS = (
    (re.compile(r"(?:^|/)content/"), "a Google Colab runtime (paths under /content/)"),
    (re.compile(r"(?:^|/)kaggle/"), "a Kaggle notebook (paths under /kaggle/)"),
    (
        re.compile(
            r"/(?:opt/conda|(?:mini|ana)conda\d*|miniforge\d*|mambaforge)/|/envs/[^/]+/lib/"
        ),
        "a conda environment",
    ),
)


def path_hints(paths: list[str]) -> list[Inferred]:
    """What file paths imply about the interpreter and where it runs, each with its path."""
    out: list[Inferred] = []
    seen: set[str] = set()
    for path in paths:
        unix = path.replace("\\", "/")
        version = path_python(path)
        if version is not None and "python" not in seen:
            seen.add("python")
            out.append(Inferred("python", version, path))
        for pattern, what in _ENVIRONMENTS:
            if what not in seen and pattern.search(unix):
                seen.add(what)
                out.append(Inferred("environment", what, path))
    return out


#: A module of TensorFlow's own package (the name an import's message gives).
_OWN_MODULE = re.compile(r"(?:tensorflow|tensorflow_core)\.[\w.]+")


#: Packages of TensorFlow's own tree that every release installs, from 0.12 to 2.21 (each is a
#: directory of https://github.com/tensorflow/tensorflow/tree/v0.12.0/tensorflow and of
#: .../tree/v2.21.0/tensorflow): one of them missing, while ``tensorflow`` itself imports as a
#: package, is an install without TensorFlow's files, never an API a release moved. The
#: modules releases did drop (tensorflow.python.keras, tensorflow.contrib) are not here.
EVERY_RELEASE_MODULES = frozenset(
    {
        "tensorflow.python",
        "tensorflow.python.client",
        "tensorflow.python.framework",
        "tensorflow.python.lib",
        "tensorflow.python.lib.io",
        "tensorflow.python.ops",
        "tensorflow.python.platform",
        "tensorflow.python.training",
        "tensorflow.python.util",
        "tensorflow.core",
        "tensorflow.core.framework",
        "tensorflow.core.protobuf",
        # Two modules of the framework package every release has had since the first public
        # tree (tensorflow/python/framework/ops.py, dtypes.py, at the same two tags): the
        # import of tensorflow itself needs them, so they go missing only with the files.
        "tensorflow.python.framework.ops",
        "tensorflow.python.framework.dtypes",
    }
)


def own_module_missing(tb: Traceback) -> Optional[str]:
    """The module of TensorFlow's package that TensorFlow's own code failed to import, where
    the innermost frame is TensorFlow's installed code (not a lazy loader, which imports on
    the user's behalf), or a module every release installs, whoever imported it: its files
    on disk are incomplete. None otherwise."""
    # A module of TensorFlow's own package missing, or one without a name asked of it.
    gone, asked = tb.missing_module, tb.missing_name
    missing = gone.name if gone is not None and gone.quoted else ""
    missing = missing if _OWN_MODULE.fullmatch(missing) else ""
    lacking = asked.module if asked is not None else ""
    lacking = lacking if _OWN_MODULE.fullmatch(lacking) else ""
    if not missing and not lacking:
        return None
    if (
        missing in EVERY_RELEASE_MODULES
        and "is not a package" not in tb.message  # a file named tensorflow.py: shadowed
    ):
        return missing
    if not tb.frames:
        return None
    inner = tb.frames[-1].path
    origin = origin_of(inner)
    if origin.dist != "tensorflow" or not origin.installed or "lazy_loader" in inner:
        return None
    return missing or lacking


def raised_in_own_code(tb: Traceback) -> bool:
    """Whether every frame of ``tb`` with a file (not ``<string>``, an interpreter's ``-c``) is
    TensorFlow's installed code: its own modules failed, nobody else's code running."""
    files = [frame.path for frame in tb.frames if not frame.path.startswith("<")]
    return bool(files) and all(
        (origin := origin_of(path)).dist == "tensorflow" and origin.installed for path in files
    )


_KERAS_NAME_MISSING = re.compile(
    r"module '(?P<m1>keras\.[\w.]+)' has no attribute '\w+'"
    r"|cannot import name '\w+' from '(?P<m2>keras\.[\w.]+)'"
)


def keras_own_missing(tb: Traceback) -> Optional[str]:
    """The module of the keras package that Keras' own installed code found without a name it
    imports from it, where every frame from the first of Keras' own on is Keras': one keras
    folder holding the files of two releases (two distributions installing into it, or an
    upgrade stopped halfway). None otherwise."""
    match = _KERAS_NAME_MISSING.search(tb.message)
    if match is None or not tb.frames:
        return None
    origins = [origin_of(f.path) for f in tb.frames]
    first = next((i for i, o in enumerate(origins) if o.dist == "keras" and o.installed), None)
    if first is None or not all(o.dist == "keras" for o in origins[first:]):
        return None
    return match.group("m1") or match.group("m2")


def library_origins(tb: Traceback) -> list[Origin]:
    """The distinct library distributions of a traceback's frames, innermost first."""
    out: list[Origin] = []
    for frame in reversed(tb.frames):
        found = origin_of(frame.path)
        if found.dist and all(o.dist != found.dist for o in out):
            out.append(found)
    return out


def checkout_package(path: str, frames: Sequence[Frame]) -> Optional[tuple[str, str]]:
    """The import package whose source tree (a checkout, a workspace: not an installed copy)
    holds the file at ``path``, and the directory holding that tree: ``("tensorflow_ranking",
    "/work/ranking")`` for ``/work/ranking/tensorflow_ranking/python/model.py``. The tree is a
    directory named exactly as the import package of TensorFlow's family or of a library
    written against TensorFlow (the module table's rows), and ``frames`` (the traceback's)
    show Python importing it as that package: a frame runs its ``__init__.py``, or a frame's
    statement imports the package by name and the next frame lies inside that directory; or,
    whatever the frames show, the folders' names say so (:func:`_named_checkout`: a branch's
    archive or a clone named for the package's distribution). None otherwise: an installed
    file is :func:`installed_package`'s, and a folder of the user's own that only bears a
    package's name holds none of its modules."""
    if is_installed(path):
        return None
    table = modules()
    unix = path.replace("\\", "/")
    parts = unix.split("/")
    for end in range(len(parts) - 2, -1, -1):
        top = parts[end]
        if top not in table.family and top not in table.on_tensorflow:
            continue
        tree = "/".join(parts[: end + 1]) + "/"
        if _imported_as_package(top, tree, frames):
            # The same length as the path's own spelling: its separators kept.
            return top, path[: len("/".join(parts[:end]))] or "."
    return _named_checkout(path)


#: The folder GitHub's archive of a branch unpacks into, ``<repository>-<branch>``
#: (``keras-retinanet-master``) for the default branches' names: a download, no git clone.
BRANCH_ARCHIVE: Final = r"-(?:master|main)"


def is_branch_archive(folder: str) -> bool:
    """Whether ``folder`` is named as GitHub's archive of a branch unpacks
    (:data:`BRANCH_ARCHIVE`): a download, which git refuses to update."""
    return re.search(rf"{BRANCH_ARCHIVE}$", folder.rstrip("/\\")) is not None


#: A package directory inside a project's source checkout: a branch's archive
#: (:data:`BRANCH_ARCHIVE`, ``keras-retinanet-master/keras_retinanet/``), whose package
#: directory is named as its distribution is (PEP 503's normalised name decides, so
#: ``keras-retinanet`` holds ``keras_retinanet``).
_ARCHIVE_CHECKOUT = re.compile(
    rf"(?:^|[/\\])(?P<repo>[A-Za-z0-9][\w.-]{{0,100}}?){BRANCH_ARCHIVE}[/\\]"
    r"(?P<package>[A-Za-z_]\w{0,100})(?=[/\\])"
)
#: A clone's folder and the package directory inside it: ``keras-retinanet/keras_retinanet/``.
_CLONE_CHECKOUT = re.compile(
    r"(?:^|[/\\])(?P<repo>[A-Za-z0-9][\w.-]{0,100})[/\\](?=(?P<package>[A-Za-z_]\w{0,100})[/\\])"
)


def _named_checkout(path: str) -> Optional[tuple[str, str]]:
    """The import package and its checkout's directory where the folders' names say the file
    is a project's source checkout, whatever the frames show: a package directory inside a
    folder named for its distribution, where the folder is a branch's archive
    (``<repository>-master``, ``-main``), or a clone whose package the module table knows as
    that distribution's (a user's own project laid out alike is not read as one)."""
    for found in _ARCHIVE_CHECKOUT.finditer(path):
        if normalize_name(found["repo"]) == normalize_name(found["package"]):
            return found["package"], path[: found.start("package") - 1] or "."
    for found in _CLONE_CHECKOUT.finditer(path):
        dist = modules().distribution(found["package"])
        if dist is not None and normalize_name(found["repo"]) == normalize_name(dist):
            return found["package"], path[: found.start("package") - 1] or "."
    return None


def _imported_as_package(top: str, tree: str, frames: Sequence[Frame]) -> bool:
    """Whether ``frames`` show the directory ``tree`` (ending in ``/``) imported as the package
    ``top``: a frame runs ``tree``'s ``__init__.py`` (Python runs it as it imports the
    package), or a frame's import statement of ``top`` leads to a frame inside ``tree``."""
    paths = [frame.path.replace("\\", "/") for frame in frames]
    if tree + "__init__.py" in paths:
        return True
    return any(
        imported_package(outer.code) == top and inner.startswith(tree)
        for outer, inner in zip(frames, paths[1:])
    )


def code_package(path: str, frames: Sequence[Frame]) -> Optional[str]:
    """The import package whose code the file at ``path`` is: an installed copy's
    (:func:`installed_package`), else a source tree's that ``frames`` (the traceback's) show
    imported as that package or whose folders' names say so (:func:`checkout_package`); None
    for the user's own code."""
    top = installed_package(path)
    if top is not None:
        return top
    tree = checkout_package(path, frames)
    return tree[0] if tree is not None else None


#: A runner's frame before the program's own first file: ``python -m``'s runpy, frozen or not.
_RUNNER = re.compile(r"^<frozen |(?:^|[/\\])runpy\.py$")


def entered_package(path: str, frames: Sequence[Frame]) -> Optional[str]:
    """The package named by the innermost directory of ``path`` that the module table marks as
    written against TensorFlow, where the program's own first file (installed runners, an
    IDE's or ``python -m``'s, left out) lies outside that directory: a script calling into the
    library's tree from elsewhere. None otherwise: a program started inside the tree is the
    user's own, whatever the folder is named."""
    unix = path.replace("\\", "/")
    start = next(
        (
            f.path.replace("\\", "/")
            for f in frames
            if not is_installed(f.path) and _RUNNER.search(f.path) is None
        ),
        unix,
    )
    directories = unix.split("/")[:-1]
    for end in range(len(directories) - 1, -1, -1):
        if directories[end] in modules().on_tensorflow:
            tree = "/".join(directories[: end + 1]) + "/"
            return None if start.startswith(tree) else directories[end]
    return None


#: The start of a path a paste elided or masked (`.../x.py`, `***/x.py`): what comes before
#: the package directory is not shown, so whether it is a checkout is not known.
_MASKED_START = re.compile(r"^(?:\.{3}|\*{3})[/\\]")


def checkout_of(path: str, frames: Sequence[Frame] = ()) -> Optional[tuple[str, str]]:
    """The import package and the directory holding it, where ``path`` is a file of a
    package's source checkout (outside site-packages, its start shown): ``("sonnet",
    "/home/u/src/sonnet-repo")``; a family member's by its directory's name, another library
    written against TensorFlow where the traceback's ``frames`` show its directory imported as
    that package (:func:`checkout_package`). None for an installed file, a masked path, or a
    path that names no such package's directory."""
    if is_installed(path) or _MASKED_START.match(path):
        return None
    tree = checkout_package(path, frames)
    if tree is not None:
        return tree
    top = origin_of(path).module.split(".", 1)[0]
    held = tree_holding(path, top) if top else None
    return (top, held) if held is not None else None


def tree_holding(path: str, top: str) -> Optional[str]:
    """The directory holding the innermost directory named ``top`` on ``path`` (``.`` where
    the path starts with it: the current directory's), or None where no directory is named
    so."""
    packaged = list(re.finditer(rf"(?:^|[/\\]){re.escape(top)}(?=[/\\])", path))
    return (path[: packaged[-1].start()] or ".") if packaged else None


@record
class PackageCode(Record):
    """The installed package whose code a traceback ran when it failed (inferred from a
    frame's path, never observed): the package a fix about "the package whose code failed"
    names."""

    #: Its top-level import package, as the path names it (``pycocotools``, ``tf2onnx``).
    module: str
    #: Its distribution (PEP 503 name) where the module table knows the import package
    #: (``cv2`` is ``opencv-python``); empty where it does not: no name is guessed.
    dist: str
    #: The frame's file the reading rests on.
    path: str

    @property
    def folder(self) -> str:
        """The package's installed folder (``.../site-packages/cv2``), from the frame's path;
        the path itself where it is not an installed file (a Cython frame's)."""
        found = re.search(
            rf"^.*?[/\\](?:site|dist)-packages[/\\]{re.escape(self.module)}", self.path
        )
        return found.group(0) if found is not None else self.path


#: Cython's frame of an extension module's init (``File "pycocotools/_mask.pyx", line 1, in
#: init pycocotools._mask``; Cython/Compiler/ModuleNode.py names the module's init function
#: after the module's dotted name): the extension being imported, whatever its file's path.
CYTHON_INIT = re.compile(r"^init (?P<module>[A-Za-z_]\w*(?:\.\w+)*)$")


#: A file of Python's standard library: under the interpreter's ``lib/python3.X/`` (POSIX) or
#: its ``Lib\\`` folder (Windows: ``Python38\\Lib``, and a conda root's or environment's
#: ``Lib``, which on Windows holds the standard library itself: ``anaconda3\\Lib``,
#: ``envs\\NAME\\Lib``), outside site-packages.
_STDLIB_FILE = re.compile(
    r"[/\\]lib[/\\]python\d\.\d+[/\\]|[/\\]Python\d+[/\\]Lib[/\\]"
    # Windows paths only: a POSIX project's envs/NAME/lib/ is anyone's code.
    r"|\\(?:envs\\[^\\]+|(?:ana|mini)conda\d*|miniforge\d*|mambaforge)\\Lib\\",
    re.I,
)


def standard_library(path: str) -> bool:
    """Whether ``path`` is a file of Python's standard library (ctypes, importlib)."""
    return not is_installed(path) and _STDLIB_FILE.search(path) is not None


#: A file tf.function's AutoGraph wrote for a function it converted (``/tmp/__autograph_
#: generated_file1a2b.py``; in older releases, a temporary file ``/tmp/tmpab12cd34.py``):
#: the converted function may be anyone's (tempfile names its files tmp and eight characters).
_AUTOGRAPH_FILE = re.compile(r"__autograph_generated_file|[/\\]tmp[a-z0-9_]{8}\.py$")


def users_own(path: str) -> bool:
    """Whether a frame's file is the user's own code: outside site-packages, and neither
    Python's standard library, nor code without a file (``<frozen ...>``, ``<string>``; a
    notebook cell's ``<ipython-input-...>`` is the user's), nor a function AutoGraph
    converted."""
    if path.startswith("<"):
        return path.startswith("<ipython-input")
    return (
        not is_installed(path)
        and not standard_library(path)
        and _AUTOGRAPH_FILE.search(path) is None
    )


def failing_package(tb: Traceback, callees: frozenset[str] = frozenset()) -> Optional[PackageCode]:
    """The installed package whose code the traceback's innermost frame runs, past the frames
    of ``callees`` (import packages that raised on a caller's behalf: NumPy refusing a name,
    TensorFlow's ``load_op_library``) and Python's own frozen import machinery. A Cython
    extension's init frame names its module. None where that frame is the user's own code
    (outside site-packages and dist-packages) or no frame is shown."""
    table = modules()
    for frame in reversed(tb.frames):
        if frame.path.startswith("<frozen ") or standard_library(frame.path):
            continue
        init = CYTHON_INIT.match(frame.function)
        top = (
            init.group("module").split(".", 1)[0]
            if init is not None
            else installed_package(frame.path)
        )
        if top is not None and top in callees:
            continue
        if top is None:
            return None  # the user's own code called what failed
        return PackageCode(top, table.distribution(top) or "", frame.path)
    return None


#: NumPy's words as it refuses to hand its C API to an extension module being imported
#: (numpy/core/code_generators/generate_numpy_api.py, ``_import_array``: "_ARRAY_API not
#: found", "module compiled against ABI version 0x%x but this version of numpy is 0x%x", the
#: same for the API version; then the ``import_array()`` macro's ImportError
#: "numpy.core.multiarray failed to import", NumPy 2's "numpy._core.multiarray", and
#: Cython's NumpyImportArray.c, whose message starts the same).
_NUMPY_REFUSAL = re.compile(
    r"but this version of numpy is|_ARRAY_API not found"
    r"|numpy\.(?:_?core)\.(?:multiarray|_multiarray_umath) failed to import"
)


def numpy_refuser(tracebacks: Iterable[Traceback]) -> Optional[PackageCode]:
    """The installed package whose compiled extension NumPy refused, as the first such
    traceback whose frames name one shows it (past NumPy's own; NumPy's first words, printed
    alone before the import's traceback, name none); None where no traceback shows the
    refusal in a package's frames."""
    for tb in tracebacks:
        found = (
            failing_package(tb, frozenset({"numpy"})) if _NUMPY_REFUSAL.search(tb.message) else None
        )
        if found is not None:
            return found
    return None


def keras_importer(tb: Traceback) -> Optional[PackageCode]:
    """The installed library outside TensorFlow's family whose code ran last before the
    standalone keras package's (or asked it for a name): a library built on Keras, such as a
    detector importing ``keras.layers``. None where the traceback shows no frame of keras and
    names no ``keras.`` module, or the code past them is the user's own."""
    keras_frames = any(installed_package(f.path) == "keras" for f in tb.frames)
    if not keras_frames and not re.search(r"'keras(?:\.\w+)*'", tb.message):
        return None
    return failing_package(tb, modules().family)
