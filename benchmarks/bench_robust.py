"""How much of ``tfdoctor explain``'s rightness survives another user's paste of the same log.

Usage: python benchmarks/bench_robust.py [--batch DIR ...] [--only NAME ...] [--sample N]
                                          [--seed N] [--json FILE] [--jobs N]

The next user's log of a failure differs from the one a rule was written from in ways that do
not change the cause: where Python lives, how the paste was made (a terminal's or an issue
box's width, a container runtime's prefix on every line, a notebook's traceback with colours,
only the last part of a long log), and the harmless numbers (timestamps, addresses, line
numbers in frames). For every case of ``tests/data/logs_unseen/`` that is not held out and
that explain gets right as the log is (``bench_accuracy.judge``), this applies each
perturbation below to the log and judges the answer again; a benign case must stay benign
(nothing above ``info``). Held-out cases (``.log.gz``) are never read.

Each perturbation is a function ``(text, rng) -> text`` in :data:`PERTURBATIONS`,
deterministic for a seed (``--seed``, and the case's name), written from what real pastes
look like:

- ``crlf``: Windows line ends (a log saved by Notepad, copied from cmd.exe).
- ``ansi``: colour codes as a terminal prints them: errors and tracebacks in red, file names
  in green, TensorFlow's ``W``/``E`` lines in yellow/red (ECMA-48 SGR, as rich and IPython
  write them).
- ``compose``: Docker Compose's service prefix on every line (``app-1  | `` in Compose v2,
  ``app_1  | `` in v1; docker/compose ``pkg/compose/printer.go``, the name padded to the
  longest service's).
- ``kubernetes``: the CRI log format kubelet writes and ``cat`` of a pod's log file shows
  (``2024-03-02T10:00:00.123456789Z stderr F ``; kubernetes
  ``pkg/kubelet/kuberuntime/logs/logs.go``: time in RFC 3339 with nanoseconds, stream, tag
  ``F`` for a full line, ``P`` for a partial one).
- ``journald``: ``journalctl``'s short format for a service's output (``Mar 02 10:00:00
  gpu-node python3[12345]: ``; systemd ``src/shared/logs-show.c``, ``output_short``).
- ``wrap``: hard-wrapped at 80, 100 or 120 columns (a console that breaks long lines, an issue
  box's width): a long line becomes pieces of exactly that width and a shorter rest.
- ``tail``: only the last part of the log: the lines before the traceback (its header, the
  nearest above) or else the paragraph (from an empty line) that holds the first line a
  finding cites are dropped, but for any that holds a version-like number (``2.15.0``,
  ``3.10``, ``12.2``). Those are facts a fix may be fitted to, as a traceback's frames and a
  cell's code say which code called: a paste that lacks them rightly gets another answer,
  and is no test of the reading.
  A cut that leaves nothing out is no perturbation: such a case counts as kept.
- ``notebook``: each CPython traceback as IPython 8 prints it in a notebook (a rule of dashes,
  ``ValueError    Traceback (most recent call last)``, ``File /x.py:12, in f()``, the frame's
  line marked ``---> 12``; IPython ``core/ultratb.py``), in colour.
- ``paths``: another user's names in paths: ``/home/user/`` as ``/home/jane.doe/``,
  ``C:\\Users\\user\\`` as ``C:\\Users\\Jane Doe\\``, a conda environment's name as another,
  a drive letter as another. The part that can decide a cause is never changed: the
  ``python3.X`` of a path, ``.local``, ``site-packages``/``dist-packages``, ``conda``/``envs``.
- ``windows``: the same log on Windows: its Python paths as the same install's there,
  backslashes throughout (a python.org install's ``...\\Programs\\Python\\Python38\\Lib\\
  site-packages\\``, the user site's ``AppData\\Roaming\\Python\\Python38\\site-packages\\``, a
  venv's ``venv\\Lib\\site-packages\\``, conda's ``envs\\NAME\\Lib\\site-packages\\``, a home
  folder's file as ``C:\\Users\\NAME\\proj\\x.py``; repr's doubled backslashes in an
  exception's repr). A log Windows has no twin of is left as it is: a cause POSIX's own (a
  shared object, the loader's words, ``/usr/local/cuda``), a container's, macOS's, or one
  whose Python version only paths named that Windows' layout does not (a venv's ``Lib``).
- ``numbers``: timestamps moved by hours, hexadecimal addresses and process ids changed,
  line numbers in traceback frames moved: numbers no cause depends on.
- ``quote``: quoted in a reply, Markdown's ``> `` before every line (CommonMark's block
  quote; an empty line's ``>`` alone as GitHub's "Quote reply" writes it).
- ``codeblock``: pasted as Markdown's indented code block, four spaces or a tab before every
  line that is not empty (CommonMark's indented code block).
- ``html``: copied from a web page's source, ``<``, ``>``, ``&`` and the quotes escaped as
  HTML's entities (``&lt;``, ``&quot;``, ``&#x27;`` or ``&#39;``).
- ``timestamps``: a time before every line, as Jenkins' Timestamper shows it in the console
  (``10:00:00  ``) or writes it in a Pipeline's plain-text log
  (``[2024-03-02T10:00:00.123Z] ``), or as moreutils' ``ts`` does (``Mar 02 10:00:00 ``).
- ``buildkit``: run in a ``docker build`` step, BuildKit's plain progress before every line
  (``#8 0.512 ``: the step and the seconds since it started).
- ``jsonlog``: kept as JSON records, a line each, as Docker's json-file logging driver writes
  them (``{"log":"...\\n","stream":"stderr","time":"..."}``) or as Kaggle's notebook log
  holds them (a JSON array of ``{"stream_name": ..., "time": ..., "data": ...}``).
- ``rich``: each CPython traceback as the ``rich`` library prints it (``rich.traceback.install()``,
  typer's pretty exceptions): a rounded box titled ``Traceback (most recent call last)``, each
  frame as ``path:12 in f`` (a path longer than the box folded onto the next line), the
  frame's line marked ``❱`` among numbered lines, a library's frame shown without its code,
  a ``locals`` panel beside the code, the exception's line plain after the box (wrapped at the
  console's width); at 80, 100 or 120 columns (the box at most 100 wide, ``Traceback.width``,
  but typer's, as wide as the console, its code wrapped: typer ``rich_utils.py``), in UTF-8 or
  the ASCII box (``+--+``, ``|``) rich draws where the console is not UTF-8 (rich
  ``traceback.py``, ``Traceback._render_stack``; ``syntax.py``, the line pointer; ``box.py``,
  ``ROUNDED``, ``ASCII`` and ``Box.substitute``).

Output: per perturbation, kept/total for failures and for benign cases, and the cases lost by
name (all are non-held cases). Exit 0; 3 on bad arguments.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import random
import re
import sys
import zlib
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

import bench_accuracy  # noqa: E402

from tfdoctor import __version__  # noqa: E402
from tfdoctor.explain import explain  # noqa: E402
from tfdoctor.explain.reader import read_log  # noqa: E402
from tfdoctor.inputs import open_matrix  # noqa: E402
from tfdoctor.render.jsonout import render_json  # noqa: E402
from tfdoctor.signatures import load_signatures  # noqa: E402

Perturbation = Callable[[str, random.Random], str]
#: The batches of logs cases are drawn from.
UNSEEN = bench_accuracy.UNSEEN

#: A line of the log (its end kept apart).
_LINE_END = "\n"


def _lines(text: str) -> list[str]:
    return text.split(_LINE_END)


def crlf(text: str, rng: random.Random) -> str:
    """Windows line ends."""
    return text.replace("\n", "\r\n")


_RED, _GREEN, _YELLOW, _RESET = "\x1b[0;31m", "\x1b[0;32m", "\x1b[0;33m", "\x1b[0m"
_FRAME = re.compile(r'^(\s*File ")([^"]+)(".*)$')
_TFLOG = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: )?([WE])( )")


def ansi(text: str, rng: random.Random) -> str:
    """Colour codes as a terminal shows them: red errors, green file names, yellow warnings."""
    out = []
    for line in _lines(text):
        frame = _FRAME.match(line)
        tflog = _TFLOG.match(line)
        if frame:
            out.append(f"{frame.group(1)}{_GREEN}{frame.group(2)}{_RESET}{frame.group(3)}")
        elif re.search(r"Traceback|Error\b|Exception\b", line):
            out.append(f"{_RED}{line}{_RESET}")
        elif tflog:
            colour = _YELLOW if tflog.group(2) == "W" else _RED
            out.append(f"{colour}{line}{_RESET}")
        else:
            out.append(line)
    return _LINE_END.join(out)


def _prefixed(text: str, prefix: Callable[[int], str]) -> str:
    return _LINE_END.join(prefix(i) + line for i, line in enumerate(_lines(text)))


def compose(text: str, rng: random.Random) -> str:
    """Docker Compose's ``service-1  | `` before every line (v2's dash or v1's underscore)."""
    name = rng.choice(["app", "trainer", "tf-worker", "jupyter"])
    sep = rng.choice(["-", "_"])
    label = f"{name}{sep}1".ljust(len(name) + 4)
    return _prefixed(text, lambda i: f"{label}| ")


def kubernetes(text: str, rng: random.Random) -> str:
    """The CRI log format: an RFC 3339 time in nanoseconds, the stream, ``F``."""
    start = rng.randrange(0, 50_000)
    stream = rng.choice(["stderr", "stdout"])

    def prefix(i: int) -> str:
        t = start + i
        ns = (t * 7919 * 104729) % 1_000_000_000
        return (
            f"2024-03-02T{10 + t // 3600 % 12:02d}:{t // 60 % 60:02d}:{t % 60:02d}."
            f"{ns:09d}Z {stream} F "
        )

    return _prefixed(text, prefix)


def journald(text: str, rng: random.Random) -> str:
    """``journalctl``'s short output: month, day, time, host, ``python3[PID]: ``."""
    pid = rng.randrange(1000, 99999)
    host = rng.choice(["gpu-node", "ml-box", "ip-10-0-3-17"])
    start = rng.randrange(0, 40_000)

    def prefix(i: int) -> str:
        t = start + i
        return (
            f"Mar 02 {t // 3600 % 24:02d}:{t // 60 % 60:02d}:{t % 60:02d} {host} python3[{pid}]: "
        )

    return _prefixed(text, prefix)


def wrap(text: str, rng: random.Random) -> str:
    """Every line longer than the width cut into pieces of exactly that width."""
    width = rng.choice([80, 100, 120])
    out: list[str] = []
    for line in _lines(text):
        out.extend(
            line[i : i + width] for i in range(0, max(len(line) - 1, 0) // width * width, width)
        )
        out.append(line[max(len(line) - 1, 0) // width * width :])
    return _LINE_END.join(out)


#: A number like a release's: ``2.15.0``, ``3.10``, ``12.2``, ``cp310``, ``python3.9``.
_VERSIONISH = re.compile(r"(?<![\d:.])\d{1,4}\.\d{1,4}(?:\.\d+)?(?![\d:])|\bcp3\d{1,2}\b")
#: Where a finding's detail cites a line (``line 12: ...``).
_CITED = re.compile(r"^(?:cell \d+, )?line (\d+): ", re.MULTILINE)


#: A traceback's header, CPython's or IPython's (``ValueError    Traceback (most recent call
#: last)`` under a rule of dashes).
_TB_HEADER = re.compile(r"Traceback \(most recent call last\)")
_RULE = re.compile(r"^-{20,}\s*$")


def tail_from(text: str, first_cited: Optional[int]) -> str:
    """The log from the traceback that holds line ``first_cited`` (1-based) on, or, where no
    traceback's header is above it, from its paragraph (after an empty line); and the earlier
    lines that hold a version."""
    if not first_cited or first_cited <= 1:
        return text
    lines = _lines(text)
    cited = first_cited - 1
    headers = [i for i in range(cited + 1) if _TB_HEADER.search(lines[i])]
    if headers:
        # The nearest header above (a traceback's frames and a cell's code say who called).
        start = headers[-1]
        if start > 0 and _RULE.match(lines[start - 1]):
            start -= 1
    else:
        start = cited
        while start > 0 and lines[start].strip():
            start -= 1
    head = [line for line in lines[:start] if _VERSIONISH.search(line)]
    return _LINE_END.join(head + lines[start:])


def tail(text: str, rng: random.Random) -> str:
    """The text as it is: the cut needs the lines a finding cites, so :func:`run_case` makes
    it with :func:`tail_from` from the report on the whole log."""
    return text


#: A CPython frame and the source line under it.
_PY_FRAME = re.compile(r'^(\s*)File "([^"]+)", line (\d+), in (\S+)\s*$')
_EXC_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning))(?::|$)")


def notebook(text: str, rng: random.Random) -> str:
    """Each CPython traceback as IPython 8 prints it, coloured."""
    lines = _lines(text)
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() != "Traceback (most recent call last):":
            out.append(line)
            i += 1
            continue
        # The exception that ends this traceback: IPython names it on its header. A traceback
        # pasted without it stays as it is (no name is made up).
        name = ""
        for later in lines[i + 1 : i + 400]:
            m = _EXC_LINE.match(later.strip())
            if m:
                name = m.group(1).rsplit(".", 1)[-1]
                break
        if not name:
            out.append(line)
            i += 1
            continue
        out.append(f"{_RED}" + "-" * 75 + f"{_RESET}")
        out.append(f"{_RED}{name.ljust(41)} Traceback (most recent call last){_RESET}")
        i += 1
        while i < len(lines):
            frame = _PY_FRAME.match(lines[i])
            if not frame:
                break
            path, number, func = frame.group(2), frame.group(3), frame.group(4)
            if path.startswith("<ipython-input") or path == "<stdin>":
                out.append(f"Cell {_GREEN}In[{rng.randrange(1, 40)}], line {number}{_RESET}")
            else:
                called = func if func.startswith("<") else f"{func}()"
                out.append(f"File {_GREEN}{path}:{number}{_RESET}, in {called}")
            i += 1
            nxt = lines[i] if i < len(lines) else ""
            if nxt.startswith("    ") and not _PY_FRAME.match(nxt):
                arrow = f"--> {number}".rjust(len(number) + 5, "-")
                out.append(f"{_GREEN}{arrow}{_RESET} {nxt.strip()}")
                i += 1
            out.append("")
    return _LINE_END.join(out)


_HOME = re.compile(r"(/home/|/Users/)(?!Shared/)([\w.-]+)/")
_WIN_HOME = re.compile(r"(?i)\b([A-Z]):\\Users\\([^\\\s\"']+)\\")
_ENV_NAME = re.compile(r"([/\\]envs[/\\])([\w.-]+)(?=[/\\])")
_DRIVE = re.compile(r"(?<![\w/])([D-H]):\\")


def paths(text: str, rng: random.Random) -> str:
    """Another user's names in paths; never a Python version or a kind of install."""
    env = rng.choice(["tf", "ml-gpu", "py310tf", "keras3"])
    text = _HOME.sub(lambda m: f"{m.group(1)}jane.doe/", text)
    text = _WIN_HOME.sub(lambda m: f"{m.group(1)}:\\Users\\Jane Doe\\", text)
    text = _ENV_NAME.sub(lambda m: f"{m.group(1)}{env}", text)
    return _DRIVE.sub("E:\\\\", text)


_STAMP = re.compile(r"\b(20\d\d-\d\d-\d\d)([ T])(\d\d):(\d\d):(\d\d)")
_HEX = re.compile(r"\b0x[0-9a-fA-F]{6,16}\b")
_FRAME_LINE = re.compile(r'(File "[^"]+", line )(\d+)')
_PID = re.compile(r"(\bpid[ =:]+|\bprocess )(\d{2,7})\b")


def numbers(text: str, rng: random.Random) -> str:
    """Timestamps moved, addresses and process ids changed, frame line numbers moved."""
    hours = rng.randrange(1, 9)
    shift = rng.randrange(3, 40)

    def stamp(m: re.Match[str]) -> str:
        hour = (int(m.group(3)) + hours) % 24
        return f"{m.group(1)}{m.group(2)}{hour:02d}:{m.group(4)}:{m.group(5)}"

    def address(m: re.Match[str]) -> str:
        width = len(m.group(0)) - 2
        return "0x" + f"{rng.getrandbits(4 * width):0{width}x}"

    text = _STAMP.sub(stamp, text)
    text = _HEX.sub(address, text)
    text = _FRAME_LINE.sub(lambda m: f"{m.group(1)}{int(m.group(2)) + shift}", text)
    return _PID.sub(lambda m: f"{m.group(1)}{rng.randrange(100, 99999)}", text)


def quote(text: str, rng: random.Random) -> str:
    """Quoted in a reply: Markdown's ``> `` before every line (an empty line's ``>`` alone, as
    GitHub's "Quote reply" writes it, or with its blank, as a mail client's quote)."""
    bare = rng.choice([">", "> "])
    return _LINE_END.join(f"> {line}" if line else bare for line in _lines(text))


def codeblock(text: str, rng: random.Random) -> str:
    """Pasted as Markdown's indented code block: four spaces (or a tab) before every line
    that is not empty."""
    indent = rng.choice(["    ", "\t"])
    return _LINE_END.join(f"{indent}{line}" if line.strip() else line for line in _lines(text))


def html(text: str, rng: random.Random) -> str:
    """Copied from a web page's source: ``<``, ``>``, ``&`` and the quotes as the entities
    HTML escaping writes (Python's html.escape writes ``&#x27;`` for the apostrophe, Jinja's
    and MarkupSafe's ``&#39;``)."""
    apostrophe = rng.choice(["&#x27;", "&#39;"])
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return escaped.replace('"', "&quot;").replace("'", apostrophe)


def timestamps(text: str, rng: random.Random) -> str:
    """A time before every line: Jenkins' Timestamper in the console (``10:00:00  ``) or in a
    Pipeline's plain-text log (``[2024-03-02T10:00:00.123Z] ``), or moreutils' ``ts``
    (``Mar 02 10:00:00 ``)."""
    start = rng.randrange(0, 30_000)
    form = rng.choice(["console", "pipeline", "ts"])

    def prefix(i: int) -> str:
        t = start + i
        clock = f"{10 + t // 3600 % 12:02d}:{t // 60 % 60:02d}:{t % 60:02d}"
        if form == "console":
            return f"{clock}  "
        if form == "pipeline":
            return f"[2024-03-02T{clock}.{t % 1000:03d}Z] "
        return f"Mar 02 {clock} "

    return _prefixed(text, prefix)


#: What makes a log's cause POSIX's own: a shared object, the dynamic loader's words, the CUDA
#: toolkit's POSIX home, the loader's search path, Debian's own Python packages; a container
#: (Linux's, whatever the host); macOS as the machine or a package names it (a wheel's
#: ``macosx_`` tag, ``Darwin``, ``arm64``, tensorflow-macos). Such a log has no Windows twin
#: with the same cause: ``windows`` leaves it as it is.
_POSIX_ONLY = re.compile(
    r"\.so\b|undefined symbol|ldconfig|/usr/local/cuda|LD_LIBRARY_PATH|/usr/lib/python3/"
    r"|\bdocker\b|\blibcuda\b|macos|darwin|\barm64\b",
    re.I,
)
#: A path: absolute, under ``~``, or relative with a Python's folder of modules in it
#: (``.tox/py38/lib/python3.8/site-packages/x.py``); no spaces, and a URL's ``//`` is none.
_POSIX_PATH = re.compile(
    r"(?<![\w.:/\\~-])(?:~?/[\w.@+~-]+(?:/[\w.@+~-]+)*/?"
    r"|[\w.@+-]+(?:/[\w.@+~-]+)*/lib/python3\.\d+/[\w.@+~/-]*)"
)
#: A Python's folder of modules: ``ROOT/lib/python3.X/`` and what follows.
_PY_LIB = re.compile(r"^(?P<root>.*?)/lib/python(?P<version>3\.\d+)(?P<rest>/.*|$)")
#: A home directory: the user's name and what follows.
_POSIX_HOME = re.compile(
    r"^(?:~|/root|/home/(?P<user>[\w.-]+)|/Users/(?P<mac>[\w.-]+))(?P<rest>/.*|$)"
)
#: A conda installation's root folder (the base environment).
_CONDA_ROOT = re.compile(r"^(?:(?:ana|mini)conda\d*|miniforge\d*|mambaforge|conda)$", re.I)
#: A Python's version a path names (``python3.10/``, Windows' ``Python310\``).
_PATH_VERSION = re.compile(r"python(3)\.(\d+)(?=[/\\])|Python(3)(\d+)(?=[-\\])", re.I)
#: A line that holds an exception's repr (``ImportError("...")``), whose backslashes repr doubles.
_REPR = re.compile(r"\w(?:Error|Exception)\([\"']")


def _windows_path(path: str, user: str, lib: str) -> str:
    """The same file in the same kind of install on Windows: a conda environment's or root's
    ``Lib``, a venv's ``Lib`` (``venv\\Lib\\site-packages``), the user site's
    ``AppData\\Roaming\\Python\\Python3X``, a python.org install's
    ``AppData\\Local\\Programs\\Python\\Python3X\\Lib``, a file in a home folder under
    ``C:\\Users\\NAME``; any other path as it is."""
    owner = _POSIX_HOME.match(path)
    name = (owner.group("user") or owner.group("mac")) if owner else None
    home = f"C:\\Users\\{name or user}"
    found = _PY_LIB.match(path)
    if found is None:
        return f"{home}{owner.group('rest')}".replace("/", "\\") if owner else path
    root = found.group("root")
    rest = found.group("rest").replace("/dist-packages", "/site-packages", 1)
    tag = "Python" + found.group("version").replace(".", "")
    parts = root.split("/")
    below = owner.group("rest")[: -len(found.group(0)) + len(root)] if owner else ""
    if len(parts) >= 3 and parts[-2] == "envs":
        # conda's environment: envs\NAME\Lib (a Windows environment's own standard library).
        base = parts[-3] if _CONDA_ROOT.match(parts[-3]) else "miniconda3"
        win = f"{home}\\{base}\\envs\\{parts[-1]}\\{lib}{rest}"
    elif _CONDA_ROOT.match(parts[-1]):
        win = f"{home}\\{parts[-1]}\\{lib}{rest}"
    elif root.endswith("/.local"):
        # The user site (site.USER_SITE): %APPDATA%\Python\Python3X\site-packages.
        win = f"{home}\\AppData\\Roaming\\Python\\{tag}{rest}"
    elif (
        rest.startswith("/site-packages")
        and "/.pyenv/" not in root
        and (owner or not root.startswith("/"))
    ):
        # A virtual environment's packages, where it lies (venv writes Lib\site-packages).
        win = f"{home}{below}\\{lib}{rest}" if owner else f"{root}\\{lib}{rest}"
    else:
        # A system Python, pyenv's, or a venv's standard library (its base install's).
        win = f"{home}\\AppData\\Local\\Programs\\Python\\{tag}\\{lib}{rest}"
    return win.replace("/", "\\")


def windows(text: str, rng: random.Random) -> str:
    """The same log on Windows: its Python paths as the same install's there, backslashes
    throughout; a log Windows has no twin of (:data:`_POSIX_ONLY`), or whose Python version
    only its paths named, as it is."""
    if _POSIX_ONLY.search(text):
        return text
    user = rng.choice(["user", "jdoe", "ml"])
    lib = rng.choice(["Lib", "lib"])
    out = []
    for line in _lines(text):
        changed = _POSIX_PATH.sub(lambda m: _windows_path(m.group(0), user, lib), line)
        if changed != line and _REPR.search(line):
            # An exception's repr doubles each backslash of the path in its message.
            changed = _POSIX_PATH.sub(
                lambda m: _windows_path(m.group(0), user, lib).replace("\\", "\\\\"), line
            )
        out.append(changed)
    result = _LINE_END.join(out)
    # A venv's or conda's Lib on Windows names no Python version: where the paths were the
    # only words that did, the paste lost a fact a fix may be fitted to, and is no test.
    if any(not _still_named(version, result) for version in _path_versions(text)):
        return text
    return result


def _path_versions(text: str) -> set[tuple[str, str]]:
    """The Python versions the paths of ``text`` name, as (major, minor)."""
    return {
        (m.group(1) or m.group(3), m.group(2) or m.group(4)) for m in _PATH_VERSION.finditer(text)
    }


def _still_named(version: tuple[str, str], text: str) -> bool:
    """Whether ``text`` names a Python version anywhere: ``3.8``, ``Python38``, ``cp38``."""
    major, minor = version
    return (
        re.search(rf"(?<![\d.]){major}\.{minor}(?!\d)|(?i:python|cp|py){major}{minor}(?!\d)", text)
        is not None
    )


def jsonlog(text: str, rng: random.Random) -> str:
    """Kept as JSON records, a line each: Docker's json-file driver (``{"log": "...\\n",
    "stream": "stderr", "time": "..."}``) or Kaggle's notebook log (a JSON array of
    ``{"stream_name": "stderr", "time": 1.2, "data": "...\\n"}``, a record a line)."""
    lines = _lines(text)
    if lines and not lines[-1]:
        lines.pop()
    start = rng.randrange(0, 30_000)
    if rng.random() < 0.5:
        return "".join(
            json.dumps(
                {
                    "log": line + "\n",
                    "stream": "stderr",
                    "time": f"2024-03-02T10:{(start + i) // 60 % 60:02d}:{(start + i) % 60:02d}"
                    f".{(start + i) * 7919 % 1_000_000_000:09d}Z",
                },
                separators=(",", ":"),
            )
            + "\n"
            for i, line in enumerate(lines)
        )
    records = [
        json.dumps({"stream_name": "stderr", "time": round(2.5 + i * 0.01, 3), "data": line + "\n"})
        for i, line in enumerate(lines)
    ]
    return "[" + "\n,".join(records) + "]\n"


#: The columns of code rich shows of a line (``Traceback.code_width``, 88 by default).
_RICH_CODE_WIDTH = 88
#: The names rich shows beside a frame's code when asked for locals (``show_locals=True``).
_RICH_LOCALS = ("args = ()", "kwargs = {}")


def _rich_wrapped(text: str, width: int) -> list[str]:
    """``text`` wrapped as rich's ``Text.wrap`` does: at blanks, the blank kept at a line's end
    where it fits (``divide_line`` measures a word without it), a word longer than the width
    folded into pieces of exactly the width."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) <= width:
            line += " " + word
            continue
        if line:
            lines.append(line + " " if len(line) < width else line)
        rest = word
        while len(rest) > width:
            lines.append(rest[:width])
            rest = rest[width:]
        line = rest
    lines.append(line)
    return lines


def _rich_frame(
    path: str,
    number: str,
    func: str,
    source: str,
    inner: int,
    show_code: bool,
    locals_: bool,
    wrap_code: bool,
) -> list[str]:
    """One frame's lines inside the box (without its sides): ``path:N in f``, and where the
    code is shown, the lines around the frame's with line numbers, its own marked ``❱``.
    An empty ``path``: a file rich could not find (13.4 on print ``in f:N`` for it)."""
    header = f"{path}:{number} in {func}" if path else f"in {func}:{number}"
    out = _rich_wrapped(header, inner)
    if not show_code or not source:
        return out
    n = int(number)
    digits = len(str(n + 1))
    code = [
        (f"  {str(n - 1).rjust(digits)} ", ""),
        (f"❱ {str(n).rjust(digits)} ", source.strip()),
        (f"  {str(n + 1).rjust(digits)} ", ""),
    ]
    # rich crops a line of code at the width (``Syntax`` without word wrap); a locals panel
    # stands one column to the right of the code where both fit, else below it (``Columns``,
    # padding 1).
    if wrap_code:
        # typer's: the code wrapped at blanks (``word_wrap=True``, no ``code_width``), each
        # further row under the gutter's blanks.
        rows = []
        for gutter, line in code:
            pieces = _rich_wrapped(line, inner - len(gutter)) if line else [""]
            rows.append(gutter + pieces[0])
            rows.extend(" " * len(gutter) + piece for piece in pieces[1:])
    else:
        rows = [(gutter + line[:_RICH_CODE_WIDTH])[:inner] for gutter, line in code]
    if locals_:
        panel_width = max(len(x) for x in _RICH_LOCALS) + 4
        title = " locals "
        dashes = panel_width - 2 - len(title)
        panel = [
            "╭" + "─" * (dashes // 2) + title + "─" * (dashes - dashes // 2) + "╮",
            *(f"│ {x.ljust(panel_width - 4)} │" for x in _RICH_LOCALS),
            "╰" + "─" * (panel_width - 2) + "╯",
        ]
        widest = max(len(r) for r in rows)
        if widest + 1 + panel_width > inner:
            rows += panel
        else:
            rows += [""] * (len(panel) - len(rows))
            rows = [f"{r.ljust(widest)} {p}".rstrip() for r, p in zip(rows, panel)]
    return [*out, "", *rows]


def _rich_panel(body: list[str], width: int, ascii_box: bool) -> list[str]:
    """rich's panel around ``body``: its rounded box (``box.ROUNDED``), or the ASCII one it
    draws instead on a console that is not UTF-8 (``box.ASCII``, chosen by
    ``Box.substitute`` where ``ascii_only``), titled in its top side."""
    title = " Traceback (most recent call last) "
    dashes = width - 2 - len(title)
    left = dashes // 2
    rows = [
        "╭" + "─" * left + title + "─" * (dashes - left) + "╮",
        *(f"│ {b.ljust(width - 4)} │" for b in body),
        "╰" + "─" * (width - 2) + "╯",
    ]
    if ascii_box:
        return [row.replace("❱", ">").translate(_TO_ASCII) for row in rows]
    return rows


#: CPython's line of the file a syntax error is in (no function: the code never ran).
_PY_SYNTAX_FILE = re.compile(r'^\s*File "([^"]+)", line (\d+)\s*$')


def _rich_syntax_panel(lines: list[str], width: int) -> list[str]:
    """rich's untitled panel for a syntax error (``_render_syntax_error``: `` path:N``, the
    line, ``▲`` under the offset) from CPython's ``File "p", line N``, the line and its
    caret; ``[]`` where ``lines`` are not those three."""
    if len(lines) < 3:
        return []
    named = _PY_SYNTAX_FILE.match(lines[0])
    if not named or not lines[1].strip() or lines[2].strip() != "^":
        return []
    offset = max(lines[2].index("^") - (len(lines[1]) - len(lines[1].lstrip())), 0)
    path, number = named.groups()
    inner = width - 4
    shown = f" {path}:{number}"
    # The path's row folded at the width (a word longer than the line), the line cropped.
    rows = [] if path == "<stdin>" else [shown[k : k + inner] for k in range(0, len(shown), inner)]
    rows += [lines[1].strip()[:inner], " " * min(offset, inner - 1) + "▲"]
    return [
        "╭" + "─" * (width - 2) + "╮",
        *(f"│ {row.ljust(inner)} │" for row in rows),
        "╰" + "─" * (width - 2) + "╯",
    ]


def rich(text: str, rng: random.Random) -> str:
    """Each CPython traceback as rich prints it: a box titled ``Traceback (most recent call
    last)``, frames as ``path:N in f`` over numbered code, the exception's line after."""
    # The console's width; the box is at most ``Traceback.width`` (100 by default) wide, the
    # exception's line after it wrapped at the console's.
    console = rng.choice([80, 100, 120])
    # typer's pretty exceptions draw the box at the console's width and wrap the code
    # (typer ``rich_utils.py``, ``get_traceback``: ``width=MAX_WIDTH``, ``word_wrap=True``).
    typer = rng.random() < 0.5
    width = console if typer else min(console, 100)
    locals_ = rng.random() < 0.5
    # rich 13.4 on names a frame whose file is not there (``<stdin>``, ``<string>``) by its
    # function and line only (``in f:N``), without a path or code; rich 10 to 13.0 by its
    # name (13.1 to 13.3 by its function alone, ``in f``).
    nameless = rng.random() < 0.5
    ascii_box = rng.random() < 0.5
    inner = width - 4
    lines = _lines(text)
    out: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "Traceback (most recent call last):":
            out.append(lines[i])
            i += 1
            continue
        body: list[str] = []
        i += 1
        first = True
        while i < len(lines):
            frame = _PY_FRAME.match(lines[i])
            if not frame:
                break
            path, number, func = frame.group(2), frame.group(3), frame.group(4)
            i += 1
            source = ""
            nxt = lines[i] if i < len(lines) else ""
            if nxt.startswith("    ") and not _PY_FRAME.match(nxt):
                source = nxt
                i += 1
                # Python 3.11's carets under the frame's line: rich marks the range instead.
                while i < len(lines) and lines[i].strip() and not lines[i].strip("^~ "):
                    i += 1
            # A library's frames between the caller's and the failing one are suppressed, as
            # typer suppresses click's and its own (``suppress``): shown without their code.
            inner_frame = not first and i < len(lines) and _PY_FRAME.match(lines[i]) is not None
            library = inner_frame and "-packages" in path and rng.random() < 0.5
            if not first:
                body.append("")
            first = False
            if path.startswith("<"):
                path, source = ("" if nameless else path), ""
            body.extend(
                _rich_frame(
                    path, number, func, source, inner, not library, locals_ and not library, typer
                )
            )
        out.extend(_rich_panel(body, width, ascii_box))
        syntax = _rich_syntax_panel(lines[i : i + 3], width)
        if syntax:
            out.extend([row.translate(_TO_ASCII) for row in syntax] if ascii_box else syntax)
            i += 3
        if i < len(lines) and _EXC_LINE.match(lines[i]):
            out.extend(_rich_wrapped(lines[i], console))
            i += 1
    return _LINE_END.join(out)


#: rich's panel drawn in ASCII (``box.ASCII``): the locals panel's corners and sides too.
_TO_ASCII = str.maketrans({"╭": "+", "╮": "+", "╰": "+", "╯": "+", "─": "-", "│": "|"})


def buildkit(text: str, rng: random.Random) -> str:
    """Run in a ``docker build`` step, as BuildKit's plain progress prints its output: ``#N``
    and the seconds since the step started, three decimals under ten seconds, two under a
    hundred, one beyond."""
    step = rng.randrange(3, 20)
    start = rng.uniform(0.2, 150.0)

    def prefix(i: int) -> str:
        sec = start + i * 0.013
        places = 3 if sec < 10 else 2 if sec < 100 else 1
        return f"#{step} {sec:.{places}f} "

    return _prefixed(text, prefix)


#: Every perturbation by name, in the order printed.
PERTURBATIONS: dict[str, Perturbation] = {
    "crlf": crlf,
    "ansi": ansi,
    "compose": compose,
    "kubernetes": kubernetes,
    "journald": journald,
    "wrap": wrap,
    "tail": tail,
    "notebook": notebook,
    "paths": paths,
    "windows": windows,
    "numbers": numbers,
    "quote": quote,
    "codeblock": codeblock,
    "html": html,
    "timestamps": timestamps,
    "jsonlog": jsonlog,
    "buildkit": buildkit,
    "rich": rich,
}


class Explainer:
    """explain in this process, as ``python -m tfdoctor explain --json -`` runs it."""

    def __init__(self) -> None:
        self.version = __version__
        self.signatures = load_signatures()
        self.matrix = open_matrix(None)

    def report(self, text: str) -> dict[str, Any]:
        """The JSON report for a log's text."""
        data = text.encode("utf-8")
        rep = explain(
            read_log(io.BytesIO(data), "-"), self.signatures, self.matrix, None, self.version
        )
        doc: dict[str, Any] = json.loads(render_json(rep, self.version))
        return doc


def first_cited(report: dict[str, Any]) -> Optional[int]:
    """The first log line a finding at ``warning`` or above cites, if any."""
    numbers_seen = [
        int(m.group(1))
        for f in report.get("findings", [])
        if f.get("severity") in ("warning", "error")
        for m in _CITED.finditer(str(f.get("detail", "")))
    ]
    return min(numbers_seen) if numbers_seen else None


class Outcome(NamedTuple):
    """One case under every perturbation: whether it was right first, and each kept."""

    name: str
    benign: bool
    right: bool
    kept: dict[str, bool]
    got: dict[str, list[str]]


@functools.lru_cache(maxsize=1)
def _explainer() -> Explainer:
    """One explainer a process: the signatures and the matrix are loaded once."""
    return Explainer()


def run_case(
    name: str, meta: dict[str, Any], text: str, seed: int, only: Sequence[str] = ()
) -> Outcome:
    """Judge one case as it is and under each perturbation (``only``: those named)."""
    ex = _explainer()
    base = ex.report(text)
    right, _ = bench_accuracy.judge(meta, base)
    benign = meta["cause"] == "benign"
    kept: dict[str, bool] = {}
    got: dict[str, list[str]] = {}
    if not right:
        return Outcome(name, benign, False, kept, got)
    for label, perturb in PERTURBATIONS.items():
        if only and label not in only:
            continue
        rng = random.Random(seed * 1_000_003 + zlib.crc32(f"{name}/{label}".encode()))
        changed = tail_from(text, first_cited(base)) if perturb is tail else perturb(text, rng)
        if changed == text:
            kept[label], got[label] = True, []
            continue
        try:
            kept[label], got[label] = bench_accuracy.judge(meta, ex.report(changed))
        except Exception as exc:  # a crash is a lost case, named
            kept[label], got[label] = False, [f"crash: {type(exc).__name__}: {exc}"]
    return Outcome(name, benign, right, kept, got)


def _job(args: tuple[str, dict[str, Any], str, int, tuple[str, ...]]) -> Outcome:
    return run_case(*args)


def cases(batches: Iterable[Path]) -> list[tuple[str, dict[str, Any], str]]:
    """Every non-held case with a plain log: (batch/name, its expectation, its text)."""
    out = []
    for directory in batches:
        for case in bench_accuracy.load_batch(directory):
            # Held-out cases are stored gzipped and are never read here.
            if case.meta.get("held_out") is True or not case.evidence.name.endswith(".log"):
                continue
            text = case.evidence.read_bytes().decode("utf-8", "replace")
            out.append((f"{directory.name}/{case.name}", case.meta, text))
    return out


def table(outcomes: Sequence[Outcome]) -> str:
    """Per perturbation: failures kept/total, benign kept/total, the cases lost."""
    rows = [f"{'perturbation':<12} {'failures kept':>16} {'benign kept':>14}"]
    for label in PERTURBATIONS:
        parts = []
        for benign in (False, True):
            mine = [o for o in outcomes if o.right and o.benign is benign and label in o.kept]
            kept = sum(o.kept[label] for o in mine)
            parts.append(f"{kept}/{len(mine)}" if mine else "-")
        rows.append(f"{label:<12} {parts[0]:>16} {parts[1]:>14}")
        for o in outcomes:
            if o.right and label in o.kept and not o.kept[label]:
                rows.append(f"    lost {o.name}: {', '.join(o.got[label][:4]) or '(no findings)'}")
    return "\n".join(rows)


def main(argv: Optional[list[str]] = None) -> int:
    """Run the perturbations over the cases and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--batch", action="append", type=Path, metavar="DIR")
    parser.add_argument("--only", action="append", default=[], metavar="NAME")
    parser.add_argument("--sample", type=int, metavar="N", help="N cases drawn with the seed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, metavar="FILE")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    unknown = [n for n in args.only if n not in PERTURBATIONS]
    if unknown:
        print(f"bench_robust: unknown perturbation {', '.join(unknown)}", file=sys.stderr)
        return 3
    dirs = args.batch or sorted(p for p in UNSEEN.iterdir() if p.is_dir())
    todo = cases(dirs)
    if args.sample is not None and args.sample < len(todo):
        todo = sorted(random.Random(args.seed).sample(todo, args.sample), key=lambda c: c[0])
    jobs = [(name, meta, text, args.seed, tuple(args.only)) for name, meta, text in todo]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(_job, jobs, chunksize=4))
    else:
        outcomes = [_job(j) for j in jobs]
    right = [o for o in outcomes if o.right]
    print(f"{len(right)} of {len(outcomes)} non-held cases right as pasted; each perturbed:")
    print(table(outcomes))
    if args.json:
        doc = [o._asdict() for o in outcomes]
        args.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
