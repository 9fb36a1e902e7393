"""Whose code asked, where the traceback does not show it.

A TensorFlow or Keras name the installed release lacks (``module 'tensorflow' has no attribute
'function'``, ``No module named 'keras.engine'``) is read as the code's API use
(:mod:`tfdoctor.explain.api`). Where the log shows the exception's frames, they say whose code
asked: the user's file, or an installed library's (:mod:`tfdoctor.explain.packages` reads
those as ``companion-mismatch``). Where the log keeps the last line alone, the words do not
say: a library built on TensorFlow (TensorFlow Federated, RLlib, DeepXDE, TF-Agents, Keras
Tuner, KerasCV) asks TensorFlow for its names as the user's code does, in the same words,
since Python's message names the module asked, never the asker. The second reading is then
given as the other candidate, after the first.

A traceback cut before its message at the import of a library built on TensorFlow, beside a
listing of that library and TensorFlow, is read here too: what failed is the import of that
release beside that TensorFlow, which the message would have said more of.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.pyerrors import missing_attribute, missing_module, missing_name
from tfdoctor.evidence.traceback import CutImport, Traceback
from tfdoctor.explain.exceptions import last_failure
from tfdoctor.explain.modules import TF_OWN
from tfdoctor.explain.packages import library_fix
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine
from tfdoctor.modules import distribution_of, modules

#: The readings of a name the installed TensorFlow or Keras lacks (tf-too-old-for-code: a name
#: or a keyword a later release brought, whichever reader dated it), each with whether the
#: name is TensorFlow 1's (the library's release of that era runs on the last 1.x line).
_NAME_CAUSES: dict[str, bool] = {
    causes.code.API_REMOVED: False,
    causes.code.TF_TOO_OLD_FOR_CODE: False,
    causes.code.API_MOVED_TO_COMPAT_V1: True,
    causes.code.TF_CONTRIB_REMOVED: True,
    causes.code.KERAS3_BEHAVIOUR_CHANGE: False,
}
#: The name an API finding is about, as its summary begins (``explain.api``'s
#: ``_verdict_finding``: "`tf.function`: ...").
_NAMED = re.compile(r"^`(?P<name>[^`\n]{1,200})`")
#: Python's words for a module that lacks a name, the family a library's release meets in
#: TensorFlow's and Keras' modules alike: CPython's Objects/moduleobject.c, module_getattro
#: ("module '%U' has no attribute '%U'"; Python 2: "'module' object has no attribute '%.400s'"),
#: importlib._bootstrap's ``_ERR_MSG`` ("No module named {!r}") and Python/ceval.c,
#: import_from ("cannot import name %R from %R (%S)"; before 3.7 "cannot import name %R"),
#: and a function refusing a keyword the caller passed (Python/ceval.c: "%U() got an
#: unexpected keyword argument '%S'"), which names the function, not its caller. A member
#: missing from an object is the object's holder's, not read so.
_KEYWORD_REFUSED = re.compile(r"^[\w.]+\(\) got an unexpected keyword argument\b")


def _module_lacks(message: str) -> bool:
    """Whether ``message`` opens with Python's words for a module or a name a module lacks
    (the evidence layer's records: a module's attribute, named or not, a module not found, a
    ``from`` import's name; a module still importing is none) or a keyword refused."""
    lacks = missing_attribute(message)
    gone = missing_module(message)
    asked = missing_name(message)
    return (
        (lacks is not None and lacks.module and not lacks.before and not lacks.partial)
        or (gone is not None and not gone.before)
        or (asked is not None and not asked.before)
        or _KEYWORD_REFUSED.match(message) is not None
    )


#: A command that installs a TensorFlow release: the release the name's reading found has it.
_TF_INSTALL = re.compile(r"\binstall\b[^\n]*?\btensorflow==")


def _unshown(tb: Traceback) -> bool:
    """Whether the log shows nothing of whose code raised ``tb``: no frame (whose path says:
    an installed library's under site-packages, :func:`tfdoctor.explain.interface.
    installed_caller`, else the user's, a notebook cell and ``<stdin>`` included), no line
    typed at a prompt, no code of the user's pasted above the message (their script's line
    or import, at the margin), no lazy import's wrapper naming a module.

    A frame's line as a traceback prints it, its file line cut from the paste (Python's
    indented line, IPython's marked ``---> 43`` line: :attr:`Traceback.printed`), says what
    ran, not whose code it is: a library's line reads as the user's would."""
    return not (
        tb.frames
        or tb.typed
        or tb.wrapper
        or ((tb.code or tb.statement or tb.importers) and not tb.printed)
    )


def unshown_caller_candidate(
    findings: Sequence[Finding], tracebacks: Sequence[Traceback], m: Machine
) -> Optional[Finding]:
    """The other candidate for a name the installed TensorFlow or Keras lacks, read as the
    code's use (``findings``: the report so far), where the last exception shows no frame: an
    installed library's release written for another TensorFlow asked for it (a warning, after
    the first reading). None where a finding already names a library, the frames show whose
    code asked, or no finding reads the last exception's name."""
    if any(f.cause == causes.software.COMPANION_MISMATCH for f in findings):
        return None
    tb = last_failure(tracebacks)
    if tb is None or not _unshown(tb) or not _module_lacks(tb.message):
        return None
    if any(t.message == tb.message and not _unshown(t) for t in tracebacks):
        return None  # the same exception's frames are shown elsewhere in the log (a repeat)
    for found in findings:
        if found.cause not in _NAME_CAUSES or found.severity.rank < Severity.WARNING.rank:
            continue
        named = _NAMED.match(found.summary)
        words = re.findall(r"\w+", named.group("name")) if named is not None else []
        # The finding reads this exception (its name's last part is in the message), not an
        # earlier one of the log.
        if not words or not re.search(rf"\b{re.escape(words[-1])}\b", tb.message):
            continue
        name = named.group("name") if named is not None else ""
        pairing = [c for c in (found.fix.commands if found.fix else ()) if _TF_INSTALL.search(c)]
        return causes.other_candidate(
            causes.software.COMPANION_MISMATCH,
            f"an installed library's release, written for another TensorFlow, asks for `{name}`",
            f"{tb.where}: {tb.type}: {tb.message}\nPython's message names the module asked, "
            "not the code that asked, and the log shows no frame: the code may be your own "
            "(the reading above) or an installed library's, built on TensorFlow, whose release "
            "does not go with the installed TensorFlow.",
            causes.software.unshown_caller_fix(
                m, name, tf1=_NAME_CAUSES[found.cause], pairing=pairing
            ),
        )
    return None


def cut_import_finding(
    cut: Optional[CutImport],
    tracebacks: Sequence[Traceback],
    m: Machine,
    found: Iterable[Finding],
) -> Optional[Finding]:
    """A traceback cut before its message (``cut``) at the import of a library built on
    TensorFlow (the module table's family or ``on_tensorflow``), where the log lists that
    library's release and TensorFlow's and nothing else explains it: that release beside that
    TensorFlow is what failed to import (a warning: the message that would say why is cut).
    None where an exception is read (its own readings decide), the log lists no release, or
    the companion table pairs the listed release with the listed TensorFlow (the cut message
    is then another fault, and the release's fix would install what is there)."""
    if cut is None or tracebacks or m.tf is None:
        return None
    if any(x.severity.rank >= Severity.WARNING.rank for x in found):
        return None
    table = modules()
    if cut.module in TF_OWN or (
        cut.module not in table.family and cut.module not in table.on_tensorflow
    ):
        return None
    dist = distribution_of(cut.module)
    installed = m.facts.package(dist) if dist is not None else None
    if dist is None or installed is None or not installed.version:
        return None
    companion = m.companion(dist)
    row = companion.row_of(installed.version) if companion is not None else None
    if row is not None and row.admits(m.tf.version):
        return None  # the companion table pairs this release with this TensorFlow
    return causes.finding(
        f"explain.{causes.software.COMPANION_MISMATCH}",
        Severity.WARNING,
        causes.software.COMPANION_MISMATCH,
        f"{dist} {installed.version} failed to import beside TensorFlow {m.tf.version} (the "
        "message is cut off)",
        f'File "{cut.path}": {cut.code}\nThe traceback ends at the import of {cut.module} '
        f"before its message; the log lists {dist} {installed.version} and TensorFlow "
        f"{m.tf.version}. A library built on TensorFlow imports only beside the TensorFlow its "
        "release was made for: its compiled ops miss symbols, its code asks for names that are "
        "not there. The message, where the full traceback shows it, says which.",
        library_fix(m, dist),
    )
