"""CPython's own exception wordings, each read once into a typed record (observed).

The explain modules ask these records what a message says instead of matching the words
themselves, so each wording has one reader. Read so far:

- A module the import system did not find (:class:`MissingModule`). Python 3.3 to 3.14 word
  it in Lib/importlib/_bootstrap.py: ``_ERR_MSG_PREFIX = 'No module named '`` and
  ``_ERR_MSG = _ERR_MSG_PREFIX + '{!r}'``, the whole dotted name in ``repr``'s single quotes
  (``No module named 'tensorflow.contrib'``); ``_find_and_load_unlocked`` adds ``; {!r} is
  not a package`` where the parent imported as a plain module (``No module named 'a.b';
  'a' is not a package``), and Python/import.c's C fallbacks (``No module named %R``) print
  the same. Python 2 (Python/import.c, ``import_submodule``/``load_next``: ``"No module
  named %.200s"``) prints the name bare, and only the part that did not import, relative to
  the last package that did (``import tensorflow.contrib.slim`` under a TensorFlow without
  contrib: ``No module named contrib.slim``).
- A name a ``from M import X`` did not find in M (:class:`MissingName`). Python/ceval.c's
  ``import_from`` words it ``cannot import name %R from %R (%S)`` from 3.7 to 3.14, the
  module's file or ``unknown location`` (a namespace package, no ``__init__.py``) in the
  parentheses (``cannot import name 'Merge' from 'keras.layers' (/usr/lib/python3.8/site-
  packages/keras/layers/__init__.py)``); 3.8 on say ``from partially initialized module %R
  (most likely due to a circular import) (%S)`` where M is still importing (not read here:
  no name is missing from a release). Python 3.3 to 3.6 print ``cannot import name %R``, the
  name alone, and Python 2 (``cannot import name %.230s``) the same bare.

- An attribute lookup that failed (:class:`MissingAttribute`): a module's (3.5 on: ``module
  'tensorflow' has no attribute 'contrib'``; Python 2 and 3.0 to 3.4 print the module's type,
  ``'module' object has no attribute 'rnn_cell'``, and the source line above the message says
  which module), an object's (``'Adam' object has no attribute
  'build'``), a class's (``type object 'X' has no attribute 'y'``), with 3.10's ``Did you
  mean: 'z'?``; 3.8's partly imported module marked as such.
- A name asked of a module still importing (:class:`CircularImport`): 3.8's circular import,
  not a name a release lacks. :func:`imported_from` reads the ``from M import X`` line that
  Python 2's and 3.6's ``cannot import name 'X'`` leave the module to.
- The R interfaces' wrappers (:class:`RInterface`): reticulate's ``Error in py_...(...) :``
  before the Python message, and its ``Python module X was not found.`` (printed whatever the
  import raised: :func:`missing_module` does not read it as Python's ``No module named``).

The messages read are the evidence layer's (:attr:`tfdoctor.evidence.traceback.Traceback.
message`): other quotes a paste made are already Python's single quotes there
(:func:`tfdoctor.evidence.traceback.in_python_quotes`), a quote a paste cut off restored.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from tfdoctor.records import Record, record

#: Python 3's words: the dotted name in single quotes. The first one in the message is read
#: (a wrapper's text may come before it: ``Failed to import x: No module named 'y'``).
_QUOTED_MODULE = re.compile(r"No module named '(?P<name>[\w.]+)'")
#: Python 2's words: a bare dotted name (a trailing full stop a writer added is not part of
#: it: Python's names never end in one).
_BARE_MODULE = re.compile(r"No module named (?P<name>[A-Za-z_]\w*(?:\.\w+)*)")
#: Python 3.7's to 3.14's words: the name and the module quoted, then the module's file or
#: ``unknown location`` in parentheses (a path may hold parentheses: ``Program Files (x86)``,
#: so the last one of the line closes it).
_NAME_FROM = re.compile(
    r"cannot import name '(?P<name>\w+)' from '(?P<module>[\w.]+)'(?: \((?P<path>[^\n]*)\))?"
)
#: Python 2's (bare) and 3.3's to 3.6's (quoted) words: the name alone. Not the start of 3.8's
#: ``from partially initialized module``, nor of a module's name left unread.
_NAME_ALONE = re.compile(r"cannot import name (?P<quote>'?)(?P<name>\w+)\b(?:'|(?!'))(?! from)")
#: importlib's suffix where the parent of the module asked imported as a plain module.
_NOT_A_PACKAGE = re.compile(r"; '(?P<name>[\w.]+)' is not a package")
#: A top-level module's name (no package above it), as Python's identifiers are written.
_TOP_LEVEL = re.compile(r"[A-Za-z_]\w*")


class _InMessage:
    """Where Python's words sit in the message that holds them: the text before them and
    after them (a record's fields of these names)."""

    before: str
    after: str

    @property
    def alone(self) -> bool:
        """Whether the message is these words alone: nothing but white space before them or
        after them."""
        return not self.before.strip() and not self.after.strip()


@record
class MissingModule(Record, _InMessage):
    """``No module named 'x'``: a module the import system did not find."""

    #: The name as printed: the whole dotted name in Python 3 (``tensorflow.contrib``), the
    #: part that did not import in Python 2 (``contrib.slim``).
    name: str
    #: Printed in Python 3's quotes (``'x'``); False for Python 2's bare name.
    quoted: bool
    #: The message's text before the words (empty where the message is Python's alone).
    before: str = ""
    #: The message's text after the name (``; 'a' is not a package``, a writer's comment).
    after: str = ""
    #: Who said it: empty for Python's own words (observed); ``reticulate`` for the record
    #: :attr:`RInterface.missing` infers from reticulate's ``Python module X was not found.``,
    #: which reticulate prints whatever X's import raised: never what :func:`missing_module`
    #: reads.
    by: str = ""

    @property
    def top_level(self) -> bool:
        """Whether the name is of a top-level module (``cv2``, not ``google.protobuf``)."""
        return _TOP_LEVEL.fullmatch(self.name) is not None

    @property
    def python2_alone(self) -> bool:
        """Whether the message is Python 2's words alone (``No module named contrib.slim``):
        the name bare, only the part of the dotted path that did not import."""
        return not self.quoted and self.alone

    @property
    def python2_failed(self) -> str:
        """The part Python 2's bare words say did not import: the name's first part, as
        Python/import.c's ``load_next`` prints the dotted rest from the part
        ``import_submodule`` did not find (``No module named pandas.api.types``: pandas did
        not import; an installed pandas without ``api`` prints ``No module named
        api.types``). Empty for Python 3's quoted name, which is the whole dotted name and
        does not say which part failed."""
        return "" if self.quoted else self.name.split(".", 1)[0]

    @property
    def not_a_package(self) -> str:
        """The module importlib's suffix says was found as a plain module, not a package (``;
        'keras' is not a package``: a ``keras.py`` for ``import keras.engine``); empty where
        the words have no such suffix."""
        found = _NOT_A_PACKAGE.match(self.after)
        return found.group("name") if found is not None else ""

    @property
    def lone_top_level(self) -> bool:
        """Whether the message is Python 3's words alone for a top-level module (``No module
        named 'cv2'``): the module named is the one imported, no package above it."""
        return self.quoted and self.alone and self.top_level


@lru_cache(maxsize=2048)
def missing_module(message: str) -> Optional[MissingModule]:
    """What ``message`` says of a module the import system did not find, or None where it
    does not say it in Python's words: Python 3's quoted name first, anywhere in the message,
    else Python 2's bare name."""
    found = _QUOTED_MODULE.search(message)
    quoted = found is not None
    if found is None:
        found = _BARE_MODULE.search(message)
    if found is None:
        return None
    return MissingModule(
        found.group("name"), quoted, message[: found.start()], message[found.end() :]
    )


@record
class MissingName(Record, _InMessage):
    """``cannot import name 'X' from 'M'``: a name a ``from M import X`` did not find."""

    #: The name asked for (``Merge``).
    name: str
    #: The module it was asked of (``keras.layers``); empty where the Python (2, or 3.3 to
    #: 3.6) did not name it.
    module: str
    #: In the parentheses after the module (3.7 on): the module's file, or ``unknown
    #: location`` for a namespace package; empty where not printed.
    path: str
    #: The name printed in quotes (Python 3), not bare (Python 2).
    quoted: bool
    #: The message's text before the words (empty where the message is Python's alone).
    before: str = ""
    #: The message's text after them.
    after: str = ""

    @property
    def bare_alone(self) -> bool:
        """Whether the message is Python 2's or 3.6's words alone, naming no module
        (``cannot import name 'Merge'``)."""
        return not self.module and self.alone


@lru_cache(maxsize=2048)
def missing_name(message: str) -> Optional[MissingName]:
    """What ``message`` says of a name a ``from M import X`` did not find, or None where it
    does not say it in Python's words: 3.7's with the module first, anywhere in the message,
    else the name alone."""
    found = _NAME_FROM.search(message)
    if found is not None:
        return MissingName(
            found.group("name"),
            found.group("module"),
            found.group("path") or "",
            True,
            message[: found.start()],
            message[found.end() :],
        )
    found = _NAME_ALONE.search(message)
    if found is None:
        return None
    return MissingName(
        found.group("name"),
        "",
        "",
        bool(found.group("quote")),
        message[: found.start()],
        message[found.end() :],
    )


# --- AttributeError, circular imports, the import statement a bare name came from, and the R
# --- interfaces' wrappers around these messages.

#: Python 3.5's to 3.14's words for a module's missing attribute (Objects/moduleobject.c,
#: ``module_getattro``, https://github.com/python/cpython/blob/v3.12.0/Objects/
#: moduleobject.c): ``module '%U' has no attribute '%U'``, or ``module has no attribute '%U'``
#: where the module has no name; 3.8 on ``partially initialized module '%U' has no attribute
#: '%U' (most likely due to a circular import)``, and 3.13 on ``partially initialized module
#: '%U' from '%U' has ...`` (the module's file; python/cpython#113769, gh-95754). Blanks a
#: retyping left before the quote (``has no attribute'x'``) are read through.
_MODULE_ATTRIBUTE = re.compile(
    r"(?P<partial>partially initialized )?(?<![\w'])module(?: '(?P<module>[\w.]+)')?"
    r"(?: from '(?P<path>[^'\n]*)')? has no attribute\s*'(?P<name>\w+)'"
)
#: 3.13's note after ``module '%U' has no attribute '%U'`` where the module's file is in the
#: script's directory (python/cpython#113769, gh-95754; Objects/moduleobject.c,
#: ``_Py_module_getattro_impl``): ``(consider renaming '%U' since it has the same name as the
#: standard library module named '%U' and prevents importing that standard library
#: module)``, and, printed only in place of ``partially initialized module`` (the module
#: still importing), ``(consider renaming '%U' if it has the same name as a library you
#: intended to import)``. The quoted name is the module's file.
_SHADOW_NOTE = re.compile(
    r"\s*\(consider renaming '(?P<path>[^'\n]+)' (?:since it has the same name as the "
    r"standard library module named '[\w.]+'|(?P<library>if it has the same name as a library "
    r"you intended to import))"
)
#: Objects/object.c's words for any other object (``PyObject_GenericGetAttr``: ``'%.100s'
#: object has no attribute '%U'``; Python 2's ``'%.50s' object has no attribute '%.400s'``),
#: which Python 2 and 3.0 to 3.4 print for a module too (``'module' object``, its type's
#: name), and Objects/typeobject.c's for a class itself (``type_getattro``: ``type object
#: '%.100s' has no attribute '%U'``). Python 2's classic classes word it in
#: Objects/classobject.c: ``%.50s instance has no attribute '%.400s'`` and ``class %.50s has
#: no attribute '%.400s'``.
_OBJECT_ATTRIBUTE = re.compile(
    r"(?:(?P<type>type object )'(?P<cls>[\w.]+)'|'(?P<obj>[\w.]+)' object"
    r"|(?P<classic>class )(?P<ccls>\w+)|(?<![\w'])(?P<inst>\w+) instance)"
    r" has no attribute\s*'(?P<name>\w+)'"
)
#: Python 3.10's to 3.14's suggestion after an AttributeError or a NameError, and 3.12's on
#: after an ImportError's ``cannot import name``: 3.10 and 3.11 print it in C
#: (Python/pythonrun.c, ``print_exception``: ``". Did you mean: '"``, the name, ``"'?"``),
#: 3.12 on in Lib/traceback.py (``TracebackException``: ``". Did you mean: '" + suggestion +
#: "'?"``). Only the printed traceback has it, not ``str(exception)``.
_SUGGESTION = re.compile(r"\. Did you mean: '(?P<name>[\w.]+)'\?")


def suggestion(message: str) -> str:
    """The name Python 3.10 on suggest after ``message`` (``Did you mean: 'z'?``); empty
    where none: its presence alone says the Python is 3.10 or newer."""
    found = _SUGGESTION.search(message)
    return found.group("name") if found is not None else ""


#: Python/ceval.c's ``import_from`` (3.8 to 3.14) where the module is still importing:
#: ``cannot import name %R from partially initialized module %R (most likely due to a
#: circular import) (%S)``; and 3.12's to 3.14's ``cannot access submodule '%U' of module
#: '%U' (most likely due to a circular import)`` (moduleobject.c).
_CIRCULAR_NAME = re.compile(
    r"cannot import name '(?P<name>\w+)' from partially initialized module '(?P<module>[\w.]+)'"
    r" \(most likely due to a circular import\)(?: \((?P<path>[^\n]*)\))?"
    r"|cannot access submodule '(?P<sub>\w+)' of module '(?P<parent>[\w.]+)'"
    r" \(most likely due to a circular import\)"
)
#: A ``from M import a, b as c`` statement as Python prints a frame's source line (the names
#: may be in parentheses; a relative import's leading dots kept).
_FROM_IMPORT = re.compile(r"^\s*from\s+(?P<module>\.*[\w.]*)\s+import\s+\(?(?P<names>[^)#\n]*)")


@record
class MissingAttribute(Record, _InMessage):
    """``module 'x' has no attribute 'y'``, ``'X' object has no attribute 'y'``: an
    attribute lookup that failed (AttributeError), in every wording CPython prints."""

    #: The attribute asked for (``contrib``).
    name: str
    #: What it was asked of: the module's dotted name (``keras.backend``) for a module, the
    #: type's name (``Sequential``) for an object or a class; empty where the words name no
    #: module (Python 2's and 3.0's to 3.4's ``'module' object``, an unnamed module).
    owner: str
    #: ``module``, ``object`` (an instance) or ``type`` (the class itself).
    kind: str
    #: 3.8's ``partially initialized module``: the module was still importing (a circular
    #: import), not a release without the name.
    partial: bool = False
    #: Printed with the module's type, not its name (``'module' object``): Python 2's and
    #: 3.0's to 3.4's words.
    module_object: bool = False
    #: The name 3.10 on suggest (``Did you mean: 'dynamic'?``); empty where none.
    suggestion: str = ""
    #: The message's text before the words (empty where the message is Python's alone).
    before: str = ""
    #: The message's text after them (the suggestion included).
    after: str = ""
    #: The module's file where Python names it: 3.13's ``partially initialized module 'x'
    #: from '%U'`` and its ``(consider renaming '%U' ...)`` note; empty elsewhere.
    path: str = ""
    #: 3.13's ``consider renaming`` note: the module's file is in the script's directory and
    #: named like the module asked (a file of the user's own shadowing a package).
    shadowing: bool = False

    @property
    def module(self) -> bool:
        """Whether the object is a module, named or not."""
        return self.kind == "module"

    @property
    def unnamed_module(self) -> bool:
        """Whether the words are of a module they do not name (``'module' object has no
        attribute 'rnn_cell'``): Python 2 or 3.0 to 3.4, where a source line says which."""
        return self.kind == "module" and not self.owner


@lru_cache(maxsize=2048)
def missing_attribute(message: str) -> Optional[MissingAttribute]:
    """What ``message`` says of an attribute lookup that failed, or None where it does not
    say it in Python's words: a module's words first (``'module' object`` read as a module
    without a name), else an object's or a class's, the first such words in the message."""
    suggested = suggestion(message)
    found = _MODULE_ATTRIBUTE.search(message)
    if found is not None:
        note = _SHADOW_NOTE.match(message, found.end())
        return MissingAttribute(
            found.group("name"),
            found.group("module") or "",
            "module",
            # 3.13 prints the library note only for a module still importing.
            bool(found.group("partial")) or (note is not None and bool(note.group("library"))),
            False,
            suggested,
            message[: found.start()],
            message[found.end() :],
            (note.group("path") if note is not None else found.group("path")) or "",
            note is not None,
        )
    found = _OBJECT_ATTRIBUTE.search(message)
    if found is None:
        return None
    owner = found.group("cls") or found.group("obj") or found.group("ccls") or found.group("inst")
    kind = "type" if found.group("type") or found.group("classic") else "object"
    typed = owner == "module" and kind == "object"
    if typed:
        owner, kind = "", "module"
    return MissingAttribute(
        found.group("name"),
        owner,
        kind,
        False,
        typed,
        suggested,
        message[: found.start()],
        message[found.end() :],
    )


@record
class NameAsked(Record):
    """A name a module the message names lacks, in whichever of Python's wordings says so:
    an attribute (``module 'M' has no attribute 'X'``), a ``from M import X`` (``cannot
    import name 'X' from 'M'``), or a submodule (``No module named 'M.X'``: M imported and
    lacks X). A module still importing (a circular import) is not one."""

    #: The module that lacks the name (``keras.layers``).
    module: str
    #: The name (``Merge``).
    name: str
    #: ``attribute``, ``import`` or ``submodule``: which wording said it.
    wording: str


@lru_cache(maxsize=2048)
def name_asked(message: str) -> Optional[NameAsked]:
    """The name ``message`` says a module it names lacks, or None: a module's missing
    attribute first, else a missing name of a ``from`` import, else a missing submodule (the
    whole dotted name, as Python 3 and reticulate print it)."""
    attribute = missing_attribute(message)
    if attribute is not None and attribute.module and attribute.owner and not attribute.partial:
        return NameAsked(attribute.owner, attribute.name, "attribute")
    asked = missing_name(message)
    if asked is not None and asked.module:
        return NameAsked(asked.module, asked.name, "import")
    gone = missing_module(message)
    if gone is not None and gone.quoted and "." in gone.name:
        module, _, name = gone.name.rpartition(".")
        return NameAsked(module, name, "submodule")
    return None


@record
class CircularImport(Record):
    """3.8's ``cannot import name 'X' from partially initialized module 'M' (most likely due
    to a circular import)``: M was still importing when X was asked of it, so X may well be
    in M; no release lacks it. ``module 'M' has no attribute`` words of a partly imported
    module are :class:`MissingAttribute` records with ``partial`` set."""

    #: The name asked for (``X``), or the submodule 3.12's ``cannot access submodule`` names.
    name: str
    #: The module still importing (``M``).
    module: str
    #: In the parentheses after it: the module's file; empty where not printed.
    path: str = ""


@lru_cache(maxsize=2048)
def circular_import(message: str) -> Optional[CircularImport]:
    """What ``message`` says of a name asked of a module still importing, or None where it
    does not say it in Python's words (3.8's ``import_from``, 3.12's submodule access)."""
    found = _CIRCULAR_NAME.search(message)
    if found is None:
        attribute = missing_attribute(message)
        if attribute is not None and attribute.partial:
            return CircularImport(attribute.name, attribute.owner, attribute.path)
        return None
    if found.group("sub"):
        return CircularImport(found.group("sub"), found.group("parent"))
    return CircularImport(found.group("name"), found.group("module"), found.group("path") or "")


def imported_from(code: str, name: str) -> str:
    """The module a ``from M import ...`` source line asks for ``name`` (``M``), or "" where
    ``code`` is no such statement naming it: what Python 2's and 3.3's to 3.6's ``cannot
    import name 'X'`` leave out, the statement the traceback printed above it says."""
    found = _FROM_IMPORT.match(code)
    if found is None:
        return ""
    names = {part.split()[0] for part in found.group("names").split(",") if part.split()}
    return found.group("module") if name in names else ""


#: The R interfaces' (tensorflow, keras: https://tensorflow.rstudio.com) words around an error
#: Python raised, as reticulate passes it on: R's ``Error in CALL :`` of the reticulate
#: function that asked Python (``py_get_attr_impl(x, name, silent)`` for ``tf$contrib``,
#: ``py_module_import(module, convert = convert)`` for ``import("x")``; reticulate's
#: src/RcppExports.cpp), the Python message on the next line; and reticulate's own words for
#: a delay-loaded module whose import raised (R/python.R, ``py_resolve_module_proxy``:
#: ``paste("Python module", module, "was not found.")``, whatever the import raised,
#: https://github.com/rstudio/reticulate/blob/main/R/python.R).
_R_CALL = re.compile(r"^Error in (?P<call>py_\w+)\((?P<args>[^)\n]*)\) ?:", re.MULTILINE)
_R_MODULE = re.compile(r"Python module (?P<module>[\w.]+) was not found\.")
_R_NOT_FOUND = re.compile(rf"^Error(?: in [^:\n]*)?: {_R_MODULE.pattern}", re.MULTILINE)


@record
class RInterface(Record):
    """The R interfaces' front-end, seen around a Python error (reticulate's words): the
    program was R code, whose Python is the one reticulate chose."""

    #: The reticulate function R names (``py_get_attr_impl``, ``py_module_import``); empty
    #: for reticulate's own words.
    call: str
    #: The module reticulate says was not found (a delay-loaded module whose import raised,
    #: for whatever reason the R words leave out); empty for a call's error.
    module: str = ""

    @property
    def missing(self) -> Optional[MissingModule]:
        """The module reticulate's ``was not found`` names, as a missing module marked
        ``by="reticulate"``: an inference, not an observation (R/python.R prints the words for
        any error the import raised: the module not installed, or installed and failing to
        import, as a TensorFlow whose DLLs do not load), so a reader must say so; None where
        the words are a call's."""
        return MissingModule(self.module, True, by="reticulate") if self.module else None


def r_interface(text: str) -> Optional[RInterface]:
    """The R interfaces' wrapper around a Python error in ``text``: reticulate's ``Python
    module X was not found.`` first, else R's ``Error in py_...(...) :`` of the call that
    asked Python; None where neither is shown."""
    found = _R_NOT_FOUND.search(text)
    if found is not None:
        return RInterface("", found.group("module"))
    found = _R_CALL.search(text)
    return RInterface(found.group("call")) if found is not None else None
