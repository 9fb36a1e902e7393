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
