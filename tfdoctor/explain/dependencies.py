"""One installed package's code meeting another package's release that lacks what it uses.

The shape of the exception says what was asked and of whom; the frames say who asked. Python
words each shape the same way for every package (CPython's Objects/moduleobject.c,
module_getattro: "module '%U' has no attribute '%U'"; Python/ceval.c, import_from: "cannot
import name %R from %R (%S)"; Lib/importlib/_bootstrap.py, _ERR_MSG_PREFIX: "No module named
"; Python/ceval.c: "%U() got an unexpected keyword argument '%S'" and too_many_positional's
"%U() takes %zd positional argument%s but %zd%U %s given" and missing_arguments' "%U() missing
%i required %s argument%s: %U"; Objects/object.c: "'%.100s' object has no attribute '%U'"),
so the reading rests on the words and the paths, never on one library's name:

- the package that lacks the name (P): the module the message names (not a file outside
  site-packages that Python found under its name), the package whose wrapper frame raised the
  call's refusal, or the package the caller's source line calls (or takes the object's class
  from) by its import name;
- the caller (Q): the innermost frame, past P's own, under site-packages or dist-packages.

A third-party P (not TensorFlow or Keras, not Python's standard library, nor a package
another reading answers: NumPy, the module table's removals, TensorFlow's, Keras' and
TensorBoard's own requirements) and an installed Q of another distribution is
``dependency-api-removed``: P's installed release lacks what Q's release uses. A public name
asked of ``tf.`` in Python 2's words is ``companion-mismatch``; TensorFlow refusing a call's
positional arguments (too many, or too few) is :func:`tfdoctor.explain.interface.
interface_candidates`' one reading of refused calls, which decides whose call it was (the
other TensorFlow shapes are :func:`tfdoctor.explain.packages.foreign_caller_findings`'). The
user's own code importing
from a P the module table knows a module or name P's installed release lacks is
``dependency-api-removed`` too, a warning (its attributes, which may be typos, are not read).
A caller that is a project's source checkout (:func:`tfdoctor.evidence.traceback.
checkout_package`: a package directory inside a branch's archive named for its distribution,
``keras-retinanet-master/keras_retinanet/``, a clone of a listed distribution, or a tree the
frames show imported as the package) asking a P the module table knows (a module it does
not know may be the checkout's own) is that project's newest code, most
likely ahead of P's installed release: ``dependency-too-old-for-code``, a warning whose fix
names the removal as the other way (`pip show P` against the checkout's requirements tells
them apart).
A file of the user's that Python found for P, an object whose owner no line shows, or frames
that name no installed package are left to the other readings (or unexplained).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.refusals import (
    FORWARDS,
    KEYWORD,
    MISSING,
    POSITIONAL,
    PYTHON,
    TF_WRAPPER,
    Refusal,
    read_refusal,
)
from tfdoctor.evidence.traceback import (
    Frame,
    Traceback,
    built_egg,
    checkout_package,
    installed_package,
    wrapped_import_error,
)
from tfdoctor.explain.modules import TF_OWN, TF_PACKAGES, namespace_roots, stdlib_modules
from tfdoctor.facts import TF_DISTRIBUTIONS, normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.modules import distribution_of, modules

#: A dotted module name as Python prints it (a bounded number of parts).
_DOTTED = r"[A-Za-z_]\w*(?:\.\w+){0,8}"
#: The shapes, each at the message's start (read with ``match``). A call Python refused is read
#: by :func:`tfdoctor.evidence.refusals.read_refusal` (:data:`_CALL_SHAPES`).
_SHAPES = re.compile(
    rf"^module '(?P<module>{_DOTTED})' has no attribute '(?P<attr>\w+)'"
    # The file Python found the module in follows in parentheses (Python/ceval.c,
    # import_from's "(%S)").
    rf"|^cannot import name '(?P<name>\w+)' from '(?P<source>{_DOTTED})'"
    r"(?: \((?P<found>[^()\n]{1,1000})\))?"
    rf"|^No module named '(?P<sub>[A-Za-z_]\w*(?:\.\w+){{1,8}})'"
    # Python 2's words (its Objects/moduleobject.c): the module is not named (read before an
    # object's field: 'module' is the class there).
    r"|^'module' object has no attribute '(?P<py2attr>\w+)'"
    r"|^'(?P<cls>\w+)' object has no attribute '(?P<oattr>\w+)'"
)
#: Notes Python adds where the module is not the installed package at all: 3.13's on a module
#: shadowed by a file of the same name ("module 'P' has no attribute 'A' (consider renaming
#: '/home/u/P.py' since it has the same name as ...)", Objects/moduleobject.c), import's
#: "(unknown location)" for a namespace package, a directory without __init__.py
#: (Python/ceval.c, import_from): a folder of the user's or an install that left no files,
#: and "'P' is not a package" (Lib/importlib/_bootstrap.py, _find_and_load_unlocked): a plain
#: P.py was found, most often a file of the user's named like the package.
_NOT_THE_PACKAGE = ("consider renaming", "(unknown location)", "is not a package")
#: Import packages whose missing names other readings answer: TensorFlow's own and Keras'
#: (the API knowledge, the companion readings), NumPy's removed names
#: (numpy_removed_findings), protobuf's; so do the namespace roots several distributions
#: share (google.protobuf beside google.api: the name's owner is not the root's),
#: :func:`namespace_roots`.
_ELSEWHERE = frozenset({*TF_OWN, "numpy", "setuptools", "pkg_resources"})
#: The shapes of a call Python refused read here: a keyword, a count of positional arguments,
#: one missing (Python/ceval.c's words, :mod:`tfdoctor.evidence.refusals`).
_CALL_SHAPES = frozenset({KEYWORD, POSITIONAL, MISSING})


def dependency_caller_findings(
    tracebacks: Sequence[Traceback], m: Machine, signed: Collection[str] = ()
) -> list[Finding]:
    """The finding where the exception that stopped the run (the log's last one Python did
    not go on from) is one of the shapes above, raised where an installed package's code asks
    another package for what its installed release lacks. An earlier one is not read: a
    package's fallback import (``try: from scipy.misc import imread`` then another's) shows
    the first refusal above the failure that counts. A message a signature reads as a cause
    (one of ``signed``, the lines signatures cited) is left to it: its reading is the
    specific one (keras_applications' set_keras_submodules is a Keras release)."""
    stopped = [tb for tb in tracebacks if not tb.ignored and not tb.warned]
    if not stopped:
        return []
    tb = stopped[-1]
    message = tb.message
    match = _SHAPES.match(message)
    refusal = _call_refused(message) if match is None else None
    wrapped = None if match is not None or refusal is not None else wrapped_import_error(message)
    if wrapped is not None:
        # A library re-raised the import error inside its own exception: the frames shown
        # are its handler's, not the import's, so only the message is read.
        message, match = wrapped, _SHAPES.match(wrapped)
    if (match is None and refusal is None) or any(note in message for note in _NOT_THE_PACKAGE):
        return []
    if any(message in line for line in signed):
        return []
    if match is not None and match["found"] and installed_package(match["found"]) is None:
        return []  # the module Python found is a file outside site-packages: the user's own
    if wrapped is not None and match is not None:
        found = _own_code_reading(tb, match, m, wrapped)
    else:
        read = _reading(tb, match, refusal, m) if tb.frames else []
        if read:
            return read
        found = _own_code_reading(tb, match, m) if match is not None else None
    return [found] if found is not None else []


def _call_refused(message: str) -> Optional[Refusal]:
    """The call Python refused that ``message`` states (:data:`_CALL_SHAPES`), or None."""
    refusal = read_refusal(message)
    if refusal is None or refusal.speaker != PYTHON or refusal.shape not in _CALL_SHAPES:
        return None
    return refusal


def _call_asked(refusal: Refusal) -> str:
    """What a refused call asked, in words (``the keyword mode of take()``)."""
    func = refusal.callee
    if refusal.shape == KEYWORD:
        return f"the keyword {refusal.argument} of {func}()"
    if refusal.shape == MISSING:
        return f"{func}() without {refusal.missing}, which it requires"
    return f"{func}() with {refusal.given_words} (it takes {refusal.takes_words})"


def _own_code_reading(
    tb: Traceback, match: re.Match[str], m: Machine, wrapped: Optional[str] = None
) -> Optional[Finding]:
    """The user's own code (the innermost frame shown lies outside site-packages, or no frame
    is shown) importing from a library the module table knows, outside TensorFlow's family, a
    module or name the installed release lacks: the code was written for another release of
    that library (``sklearn.externals.joblib``, gone from scikit-learn 0.23). A warning: the
    message says what is missing, not which release the code was written for. Python imports
    a dotted name's parents first and names the first part that failed, so ``No module named
    'P.a.b'`` says P.a imported: P is installed, without that module. ``wrapped``: the import
    error's message where another exception's message holds it (its frames are the
    handler's, not the importer's: whose code imported is not shown)."""
    # Only an import's words: an attribute the user's line asks may be a typo of its own
    # (``pd.read_cvs``), where an import line is most often copied from the code's docs.
    module = match["source"] or match["sub"]
    if module is None:
        return None
    owner = module.split(".", 1)[0]
    dist = distribution_of(owner)
    if (
        dist is None
        or owner in _ELSEWHERE
        or owner in namespace_roots()
        or owner in stdlib_modules()
        or owner in modules().family
        or dist in TF_DISTRIBUTIONS
        or _table_removal(match, module)
    ):
        return None
    if any(part.startswith("_") for part in (*module.split("."), match["name"] or "")):
        # A private name or module, or a compiled extension below a private package
        # (pandas._libs.tslibs.base): an install's, not a release's the user's code asked for.
        return None
    frames = [] if wrapped else [f for f in tb.frames if not f.path.startswith("<frozen ")]
    if frames and installed_package(frames[-1].path) is not None:
        return None  # an installed package's own frame: _reading's, or another reading's
    named = re.compile(rf"(?:^|[/\\]){re.escape(owner)}(?:\.py|[/\\]__init__\.py)$")
    inside = re.compile(rf"(?:^|[/\\]){re.escape(owner)}[/\\]")
    if any(
        named.search(f.path) or (inside.search(f.path) and installed_package(f.path) is None)
        for f in frames
    ):
        # A file of the user's named like the package took its place, or the code is a copy
        # of the package outside site-packages (a clone of its repository on the path, as
        # TensorFlow's model garden is run): Python imported that, not the installed release.
        return None
    asked = f"{match['name']} from {module}" if match["name"] else f"the module {module}"
    version = _shown_version(m, dist)
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_API_REMOVED}",
        Severity.WARNING,
        causes.software.DEPENDENCY_API_REMOVED,
        f"The code was written for another {dist} release (it asks for {asked})",
        f"{tb.where}: {tb.type}: {tb.message}\n"
        + (f"It wraps an import error: {wrapped}\n" if wrapped else "")
        + f"The code asks {dist} for {asked}, which the "
        f"installed {dist} does not have: {dist} removed it in a later release, or brought "
        "it after the installed one.",
        causes.software.own_code_dependency_fix(m, dist, asked, version),
    )


def _reading(
    tb: Traceback, match: Optional[re.Match[str]], refusal: Optional[Refusal], m: Machine
) -> list[Finding]:
    """The findings for one traceback whose message ``match`` read, or whose message states
    the refused call ``refusal`` (none, or one; a call TensorFlow refused: explain.interface's
    reading of it)."""
    frames = [f for f in tb.frames if not f.path.startswith("<frozen ")]
    if not frames:
        return []
    shown: dict[str, Optional[str]] = match.groupdict() if match is not None else {}
    module = shown.get("module") or shown.get("source") or shown.get("sub")
    if module is not None:
        owner: Optional[str] = module.split(".", 1)[0]
        # A module's own lazy __getattr__ (PEP 562) raising for it is the callee's frame.
        callee = _lazy_getattr_frames(frames, owner or "")
        asked = (
            f"{module}.{shown.get('attr')}"
            if shown.get("attr")
            else f"{shown.get('name')} from {module}"
            if shown.get("name")
            else f"the module {module}"
        )
    elif match is not None and match["py2attr"]:
        # Python 2 names no module: the caller's line says which it asks (``tf.nn.rnn_cell.
        # BasicLSTMCell(...)`` for 'rnn_cell').
        owner = _module_on_line(frames[-1], match["py2attr"])
        callee = 0
        asked = f"{owner}'s {match['py2attr']}" if owner else ""
    elif match is not None and match["cls"]:
        # An object's missing field: the class's owner is the package the caller's line takes
        # the class from. A package's __getattr__ frame does not say it: that is where a name
        # is looked up in data (torch's Module its submodules, pandas' NDFrame its columns, a
        # config object its keys), on classes of any package derived from it.
        inner = installed_package(frames[-1].path)
        callee = _lazy_getattr_frames(frames, inner) if inner is not None else 0
        owner = _class_on_line(frames[-1 - callee], match["cls"]) if callee < len(frames) else None
        asked = f"{match['oattr']} of a {match['cls']} object"
    elif refusal is not None:
        owner, callee = _callee_of_call(frames, refusal.callee)
        asked = _call_asked(refusal)
    else:
        return []
    if owner is None and match is not None and match["py2attr"]:
        found = _source_build_asked(tb, frames[-1], match["py2attr"], m)
        return [found] if found is not None else []
    if (
        owner is None
        or owner in _ELSEWHERE - TF_PACKAGES
        or owner in namespace_roots()
        or owner in stdlib_modules()
    ):
        return []  # Python's own modules change with Python, not with a package's release
    caller_frame = frames[-1 - callee] if callee < len(frames) else None
    caller = installed_package(caller_frame.path) if caller_frame is not None else None
    checkout = None
    if caller is None and caller_frame is not None:
        tree = checkout_package(caller_frame.path, frames)
        checkout = tree[0] if tree is not None else None
        if checkout is not None and owner in TF_OWN:
            return []  # TensorFlow's and Keras' own names: the API readings date them
        if checkout is not None and distribution_of(owner) is None:
            # A module the table does not know is as likely the checkout's own (config.py or
            # utils.py beside its package, run from the repository's folder) as installed.
            return []
        caller = checkout
    if (
        caller_frame is None
        or caller is None
        or caller == owner
        or _one_distribution(caller, owner)
    ):
        return []  # the user's own code, or the package's own: not a release pairing
    if owner in TF_PACKAGES and match is not None and match["py2attr"]:
        found = _tensorflow_asked(tb, match["py2attr"], caller, caller_frame, m)
        return [found] if found is not None else []
    if owner in TF_PACKAGES:
        # A call TensorFlow refused (a count of arguments, one missing): whose call it was
        # and which fix applies are explain.interface's one reading of refused calls.
        from tfdoctor.explain.interface import interface_candidates  # noqa: PLC0415 - cycle

        called = refusal is not None and refusal.shape != KEYWORD
        return interface_candidates([tb], m) if called else []
    if caller in TF_OWN or (match is not None and _table_removal(match, module or "")):
        # TensorFlow's, Keras' and TensorBoard's own requirements (keras 2.2's
        # keras_applications: keras-version) and the module table's removals: elsewhere.
        return []
    if shown.get("sub") and not _installed_shown(owner, tb, m):
        return []  # the package itself may be missing or the user's own
    if (shown.get("sub") or "").rsplit(".", 1)[-1].startswith("_"):
        # A private submodule is most often a compiled extension (torch._C, a _pywrap_
        # module): missing, it is an install or build of the package's own, not a release.
        return []
    # A module or name the message names is certain; a call's or an object's owner is read
    # from a wrapper frame or the caller's line: most likely, not certain.
    named = bool(shown.get("module") or shown.get("source"))
    if checkout is not None:
        return [_checkout_lacks(tb, owner, checkout, caller_frame, asked, m)]
    return [_dependency_lacks(tb, owner, caller, caller_frame, asked, named, m)]


def _newer_code(tb: Traceback, summary: str, said: str, fix: Fix) -> Finding:
    """``dependency-too-old-for-code`` for code from a source tree (a checkout, an egg built
    from one) asking a dependency for what it lacks: a warning, since the message says what
    is missing, not which way the dependency's release moved."""
    return causes.finding(
        f"explain.{causes.code.DEPENDENCY_TOO_OLD_FOR_CODE}",
        Severity.WARNING,
        causes.code.DEPENDENCY_TOO_OLD_FOR_CODE,
        summary,
        f"{tb.where}: {tb.type}: {tb.message}\n{said}",
        fix,
    )


def _source_build_asked(tb: Traceback, frame: Frame, attr: str, m: Machine) -> Optional[Finding]:
    """Python 2's words, which name no module, raised in a package built from its source into
    a zipped egg on the machine (:func:`built_egg`), whose line the egg does not print: the
    package's code asks a module for ``attr``, which that module's installed release lacks.
    Code built from its source is most often newer than the releases of what it imports
    (``dependency-too-old-for-code``, a warning: which module it asks is not shown)."""
    package = installed_package(frame.path)
    if frame.code or not built_egg(frame.path) or package is None or package in TF_OWN:
        return None
    if attr.startswith("_"):
        return None  # a private name: the module's own internals, no release's API
    user = distribution_of(package) or normalize_name(package)
    return _newer_code(
        tb,
        f"{user}, built from its source, asks a module for {attr}, which the installed "
        "release lacks",
        f"{user} runs from an egg built from its source on this machine ({frame.path}, line "
        f"{frame.line}): code from a source tree, most likely written for newer releases of "
        f"what it imports than the installed ones. Python 2 does not name the module asked for "
        f"{attr}, and the egg does not print the line.",
        causes.code.checkout_dependency_fix(m, None, user, None),
    )


def _checkout_lacks(
    tb: Traceback, owner: str, package: str, frame: Frame, asked: str, m: Machine
) -> Finding:
    """``dependency-too-old-for-code``: a source checkout of ``package`` asks the installed
    ``owner`` for what it lacks. A checkout is its project's newest code, most often ahead of
    the releases of what it uses (a name its dependency added after its last release); a
    release of the dependency that removed the name is the other reading. A warning: the
    message says what is missing, not which way the release moved."""
    dist = distribution_of(owner) or normalize_name(owner)
    user = distribution_of(package) or normalize_name(package)
    return _newer_code(
        tb,
        f"The installed {dist} is most likely older than {user}'s source checkout (it asks "
        f"for {asked})",
        f"{user}'s code runs from a source checkout ({frame.path}), not a release, and asks "
        f"{dist} for {asked}, which the installed {dist} does not have: the checkout is "
        f"{user}'s newest code, most likely written for a {dist} newer than the installed "
        f"one; a {dist} release that removed it is the other reading.",
        causes.code.checkout_dependency_fix(m, dist, user, _shown_version(m, dist)),
    )


def _table_removal(match: re.Match[str], module: str) -> bool:
    """Whether the module table's ``removed_from_distribution`` answers the message about
    ``module`` (the one it names; empty where it names none): a row for the whole module, or
    one listing the name asked (an object's as Class.method). Other names of a listed module
    are this reading's."""
    table = modules().removed_from_dist
    name = match["attr"] or match["name"]
    if match["cls"]:
        asked = f"{match['cls']}.{match['oattr']}"
        return any(asked in row.names for row in table.values())
    rows = [table[m] for m in (module, module.split(".", 1)[0]) if m in table]
    return any(not row.names or (name is not None and name in row.names) for row in rows)


def _one_distribution(caller: str, owner: str) -> bool:
    """Whether the module table knows the import packages ``caller`` and ``owner`` as one
    distribution's (attrs installs attr and attrs): a package raising about itself."""
    dist = distribution_of(caller)
    return dist is not None and dist == distribution_of(owner)


def _module_on_line(frame: Frame, attr: str) -> Optional[str]:
    """The package whose module the caller's source line asks for ``attr`` by its import name
    (``tf.nn.rnn_cell``: TensorFlow; a known distribution's import name), or None."""
    named = re.search(
        rf"\b(?P<top>[A-Za-z_]\w*)\.(?:\w+\.){{0,5}}{re.escape(attr)}\b", frame.code or ""
    )
    if named is None:
        return None
    top = named["top"]
    if top in ("tf", "tensorflow"):
        return "tensorflow"
    return top if distribution_of(top) is not None else None


def _lazy_getattr_frames(frames: Sequence[Frame], owner: str) -> int:
    """How many innermost frames are ``owner``'s own ``__getattr__`` (a module's lazy or
    deprecation getattr raising for the name, an object's looking the name up): the
    callee's, not the caller's."""
    count = 0
    for frame in reversed(frames):
        if installed_package(frame.path) != owner or frame.function != "__getattr__":
            break
        count += 1
    return count


def _class_on_line(frame: Frame, cls: str) -> Optional[str]:
    """The package the caller's source line takes the class ``cls`` from by its import name
    (``sentencepiece.SentencePieceProcessor(...).Init(...)``, a known distribution's); None
    where the line names no such package."""
    named = re.search(
        rf"\b(?P<top>[A-Za-z_]\w*)\.(?:\w+\.){{0,4}}{re.escape(cls)}\b", frame.code or ""
    )
    if named is None or distribution_of(named["top"]) is None:
        return None
    return named["top"]


def _callee_of_call(frames: Sequence[Frame], func: str) -> tuple[Optional[str], int]:
    """The package whose function refused a call's arguments, and how many innermost frames
    are its own: TensorFlow, where its wrapper frame hands the arguments on (Python raises the
    refusal in the caller's frame, so only a wrapper's frame shows the callee; TensorFlow's
    dispatch and deprecation wrappers wrap its own functions), else the package the caller's
    source line calls ``func`` from by its import name (``jax.numpy.take(..., mode=...)``, a
    known distribution's). (None, 0) otherwise. Another package's wrapper is not read: a
    decorator of its (functools.wraps, wrapt) may wrap the caller's own function."""
    inner = frames[-1]
    owner = installed_package(inner.path)
    if owner is not None and TF_WRAPPER.search(inner.path) and FORWARDS.search(inner.code or ""):
        count = 0
        for frame in reversed(frames):
            if installed_package(frame.path) != owner:
                break
            count += 1
        return owner, count
    name = re.escape(func.rsplit(".", 1)[-1])
    called = re.search(rf"\b(?P<top>[A-Za-z_]\w*)\.(?:\w+\.){{0,5}}{name}\(", inner.code or "")
    if called is None:
        return None, 0
    top = called["top"]
    if top not in ("tf", "tensorflow") and distribution_of(top) is None:
        return None, 0  # an alias or a variable (self.x): whose function it is is not shown
    return ("tensorflow" if top == "tf" else top), 0


def _installed_shown(owner: str, tb: Traceback, m: Machine) -> bool:
    """Whether the log shows ``owner`` installed: a frame of its installed files, the packages
    the log lists, or the module table knowing it (Python imports a dotted name's parents
    first and names the first part that failed, so ``No module named 'jax.experimental.maps'``
    says jax.experimental imported; a package the table does not know may be the user's own
    directory of that name)."""
    known = distribution_of(owner)
    if known is not None or any(installed_package(f.path) == owner for f in tb.frames):
        return True
    dist = normalize_name(owner)
    return any(normalize_name(p.name) == dist for p in m.facts.packages or ())


def _shown_version(m: Machine, dist: str) -> Optional[str]:
    """The release of ``dist`` the log shows installed, or None."""
    wanted = normalize_name(dist)
    return next(
        (p.version for p in m.facts.packages or () if normalize_name(p.name) == wanted), None
    )


def _dependency_lacks(
    tb: Traceback,
    owner: str,
    caller: str,
    frame: Frame,
    asked: str,
    named: bool,
    m: Machine,
) -> Finding:
    """``dependency-api-removed``: the installed ``owner`` lacks what ``caller`` uses."""
    known = distribution_of(owner)
    dist = known or normalize_name(owner)
    user = distribution_of(caller) or normalize_name(caller)
    said = (
        f"{user} ({frame.path}) asks {dist} for {asked}, which the installed {dist} does not "
        f"have: the {user} release was written for another {dist} release."
    )
    # ``named``: the message names the module (certain), not a call's or an object's owner.
    severity = Severity.ERROR if named else Severity.WARNING
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_API_REMOVED}",
        severity,
        causes.software.DEPENDENCY_API_REMOVED,
        f"{user} was written for another {dist} release (it asks for {asked})",
        f"{tb.where}: {tb.type}: {tb.message}\n{said}",
        causes.software.dependency_release_fix(m, known, user, _shown_version(m, dist), owner),
    )


def _tensorflow_asked(
    tb: Traceback, attr: str, caller: str, frame: Frame, m: Machine
) -> Optional[Finding]:
    """An installed package's code (not TensorFlow's or Keras' own) asking ``tf.`` for a public
    name ``attr`` the installed TensorFlow lacks, in Python 2's words that name no module: the
    package's release was written for another TensorFlow (companion-mismatch). A call
    TensorFlow refused is explain.interface's reading; the other names asked of TensorFlow
    are the companion readings' in explain.packages (foreign_caller_findings)."""
    from tfdoctor.evidence.traceback import library_dist  # noqa: PLC0415 - beside the next
    from tfdoctor.explain.packages import library_fix  # noqa: PLC0415 - cycle

    if caller in TF_OWN or attr.startswith("_"):
        # TensorFlow's and Keras' own code, or a private name TensorFlow never published
        # (tf.logging._logger): no release of the package is made for it; the API reading
        # says what became of it.
        return None
    dist = library_dist(caller, frame.path)
    return causes.finding(
        f"explain.{causes.software.COMPANION_MISMATCH}",
        # The line names TensorFlow's module and the name.
        Severity.ERROR,
        causes.software.COMPANION_MISMATCH,
        f"{dist} was written for another TensorFlow release (it asks tf. for {attr})",
        f"{tb.where}: {tb.type}: {tb.message}\n"
        f"{dist} ({frame.path}) asks TensorFlow for {attr} on the line `{frame.code}`, which "
        f"the installed TensorFlow does not have: the {dist} release and the TensorFlow release "
        "do not go together.",
        library_fix(m, dist),
    )
