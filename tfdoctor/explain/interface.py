"""A library's call refused at TensorFlow's or Keras' interface, read from the frames.

An interface that changes between releases refuses a call written for another release in a
few families of words (:mod:`tfdoctor.evidence.refusals`): a keyword, a count of positional
arguments, a required argument or one given twice, an op argument of another kind, an
attribute the object does not have. Words alone do not say whose release is the question:
the frames do. Where the innermost frame that is not TensorFlow's or Keras' own lies in an
installed library, and what refused is TensorFlow's or Keras' (their frames after it, their
own words, the class the words name, or for a count of arguments the library's line calling
TensorFlow's function of that name), the library's release was written for another
TensorFlow or Keras than the installed one (companion-mismatch, the library named by its
distribution), and the code that asks is of another release (api-removed, the other
candidate, as :func:`tfdoctor.explain.api.release_name_candidates` has it for a missing
name). The user's own code calling so is left to scan's rules: a keyword or attribute of the
user's may be a typo, and an argument the user's line passed on through the library is the
user's. Read where no other reading explained the log, and for a count of arguments or one
missing in a call whose callee is TensorFlow's (its wrapper's frame, or a ``tf.`` call on the
caller's line) as soon as explain.dependencies meets it: this is the one reading of such
calls, and :func:`installed_caller` the one answer to whose code made the call, which decides
the fix (:func:`library_code_fix` for an installed library's code).

Where the API table knows the line that brought the refused keyword to the function
(``tensorflow2_arguments`` in ``data/keras_api.yaml``), the fix names it; elsewhere it says
the table does not know and how to read the library's own requirements (a companion's fix
is its compatibility table's). A keyword of a
function of TensorFlow's own modules (not its public ``tf.`` API: what libraries built on it
call, such as the XLA ops' wrappers) refused with no frame shown is read the same way: such a
call is a library's, whose release was written for that line or later.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.causes.common import package_named, package_upgrade
from tfdoctor.evidence.refusals import (
    ATTRIBUTE,
    FORWARDS,
    KERAS,
    KEYWORD,
    MISSING,
    MULTIPLE,
    OP_ARGUMENT,
    POSITIONAL,
    PYTHON,
    TENSORFLOW,
    TF_OBJECT_CLASSES,
    UNHASHABLE,
    Refusal,
    call_passed_through,
    read_refusal,
    tf_object_class,
)
from tfdoctor.evidence.traceback import (
    Frame,
    Traceback,
    installed_package,
    library_dist,
    path_hints,
    path_python,
    standard_library,
    tensorflow_facing,
    users_own,
)
from tfdoctor.explain.exceptions import TF_WORDS, inferred_note, last_failure
from tfdoctor.explain.modules import TF_OWN, TF_PACKAGES
from tfdoctor.explain.packages import (
    asked_fix,
    keyword_added_row,
    known_distribution,
    library_fix,
    paired_with_tensorflow,
    refused_call_fix,
    tensorflow_calls,
    tf_call_refused,
    tf_function_named,
)
from tfdoctor.facts import TF_DISTRIBUTIONS
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import release_line, version_key
from tfdoctor.modules import distribution_of, modules
from tfdoctor.scan.api import keyword_releases

#: Graph tensors and Keras' symbolic ones, and what only an eager tensor has in every
#: release: ``numpy()`` is _EagerTensorBase's (tensorflow/python/framework/ops.py), never
#: the graph ``Tensor``'s (``SymbolicTensor`` from 2.14) nor ``KerasTensor``'s
#: (keras/engine/keras_tensor.py; Keras 3's keras/src/backend/common/keras_tensor.py). Code
#: reading it on one ran eager code in a graph (a tf.function, a model's trainer, TensorFlow
#: 1's behaviour): no release question.
_GRAPH_TENSORS = frozenset({"Tensor", "SymbolicTensor", "KerasTensor"})
_EAGER_ONLY = frozenset({"numpy"})
#: Refusals of a call's arguments by their count or order (Python's words): what a changed
#: signature refuses whatever the keywords.
_COUNTED = frozenset({POSITIONAL, MISSING, MULTIPLE})
#: A call on a source line: a name followed by its opening parenthesis.
_ANY_CALL = re.compile(r"\w\s*\(")


@functools.lru_cache(maxsize=1)
def api_classes() -> frozenset[str]:
    """The class names TensorFlow's and Keras' public API has in any release the bundled
    listings cover (``Iterator``, ``Graph``, ``Sequential``, ``Adam``), with their own
    objects' classes (:data:`TF_OBJECT_CLASSES`): the objects a library gets back from them."""
    from tfdoctor.scan.api import bundled_lines, load_api, load_tf1, tf1_lines  # noqa: PLC0415

    names: set[str] = set(TF_OBJECT_CLASSES)
    indexes = [*(load_api(line) for line in bundled_lines()), *map(load_tf1, tf1_lines())]
    for index in indexes:
        for module, members in (index.modules if index is not None else {}).items():
            if members is None or module.split(".")[0] not in ("tf", "keras"):
                continue
            # A class is CamelCase: a constant (COMPILER_VERSION) is all capitals.
            names.update(m for m in members if m[:1].isupper() and not m.isupper() and "/" not in m)
    return frozenset(names)


def _caller(tb: Traceback, callees: frozenset[str] = TF_OWN) -> tuple[Optional[int], bool]:
    """The index of the innermost frame that is not of ``callees`` (the import packages whose
    API was called: TensorFlow's and Keras' own by default), nor Python's import machinery or
    standard library (contextlib's ``__enter__`` running TensorFlow's context manager passes
    on a call another frame made), and whether frames of theirs follow it (the callee
    shown)."""
    callee = False
    for index in range(len(tb.frames) - 1, -1, -1):
        frame = tb.frames[index]
        if frame.path.startswith("<frozen ") or standard_library(frame.path):
            continue
        if installed_package(frame.path) in callees:
            callee = True
            continue
        return index, callee
    return None, callee


def installed_caller(
    tb: Traceback, callees: frozenset[str] = TF_OWN
) -> Optional[tuple[str, Frame]]:
    """The installed distribution whose code holds the failing line, with its frame: the
    innermost frame that is not TensorFlow's or Keras' own (:func:`_caller`) lies under
    site-packages or dist-packages (its egg's project or the module table's distribution,
    :func:`library_dist`). None where that frame is the user's own code (a script, a notebook
    cell, a project checkout) or no frame is shown. Whose code it is decides the fix of a call
    TensorFlow refuses or a name it lacks: the user's code is edited, an installed library's
    is replaced by its release for the installed TensorFlow (or that TensorFlow by the one the
    library was written for). A keyword the message says was refused that a frame of the
    user's own code before it names (:func:`_passed_by_user`: ``blocklib.make(jit_compile=
    True)`` passed on through ``**kwargs``) makes the call the user's. ``callees``: the import
    packages whose API was called (NumPy's, for a NumPy default), whose frames are passed."""
    index, _ = _caller(tb, callees)
    if index is None:
        return None
    frame = tb.frames[index]
    top = installed_package(frame.path)
    if top is None:
        return None
    refusal = read_refusal(tb.message)
    keyword = refusal.argument if refusal is not None and refusal.shape == KEYWORD else ""
    if _passed_by_user(tb, index, keyword):
        return None
    return library_dist(top, frame.path), frame


def library_code_fix(
    m: Machine,
    tb: Traceback,
    product: str,
    asked: str,
    dist: str,
    name: str = "",
    module: Optional[str] = None,
) -> Fix:
    """The fix of an API cause (api-removed and its kin) where the code that asked is the
    installed library ``dist``'s (:func:`installed_caller`): its release made for the installed
    ``product``, or the TensorFlow its code was written for (:func:`tfdoctor.causes.code.
    library_call_fix`), with the lines the API table dates for what ``tb``'s message refused
    or the name asked (``name``, of ``module``; :func:`tfdoctor.explain.packages.asked_fix`).
    Never an edit of the library's code: pip's next install of it would undo the edit."""
    base = causes.code.library_call_fix(m, product, asked, dist)
    return asked_fix(m, dist, tb.message, name, module, base)


def caller_fitted_fix(
    m: Machine,
    tb: Traceback,
    edit: Fix,
    product: str,
    since: Optional[str],
    callees: frozenset[str] = TF_OWN,
) -> Fix:
    """The one rule for a fix that edits the call a changed API met (api-default-changed):
    ``edit`` where the user's own code made the call (or no frame shows whose code did);
    where an installed package's frame made it (:func:`installed_caller`, past ``callees``,
    the packages of ``product``, the distribution whose API changed in ``since``), that
    package's release made for the installed ``product`` (for TensorFlow and Keras the
    companion table's where it pairs them, else its upgrade: :func:`tfdoctor.explain.
    packages.library_fix`) or ``product`` before ``since``, never an edit inside
    site-packages, which pip's next install of the package undoes. A package whose releases
    go with TensorFlow's (Keras meeting NumPy's change) is told its release for the installed
    TensorFlow too: its newest may need a later TensorFlow."""
    caller = installed_caller(tb, callees)
    if caller is None or not caller[0]:
        return edit
    dist, frame = caller
    if since and _installed_before(m, product, since):
        # The installed release predates the change, so the code met something else than it
        # (TensorFlow 1.15 running eagerly where the program enabled it): no release before
        # the change is the fix, the package's release for the installed one is.
        since = None
    if product in ("tensorflow", "keras") or (
        dist not in TF_DISTRIBUTIONS and paired_with_tensorflow(m, dist)
    ):
        release = library_fix(m, dist)
    else:
        # The distribution the module table (or an egg's folder) names, else the import
        # package's owner looked up: no PyPI name is made up from a directory.
        known = known_distribution(dist) or m.facts.package(dist) is not None
        top = installed_package(frame.path) or dist
        made_for = f"{product} {since} and later" if since else f"the installed {product}"
        release = Fix(
            f"Upgrade {package_named(top, dist if known else '')} to a release made for "
            f"{made_for}.",
            package_upgrade(m, top, dist if known else ""),
        )
    return causes.code.changed_in_library_fix(
        dist, frame.path, product, since, edit, release, _line_before(m, product, since)
    )


def _installed_before(m: Machine, product: str, since: str) -> bool:
    """Whether the log (or the machine's facts) shows ``product`` installed at a release older
    than ``since``: TensorFlow's own, else the distribution of that name."""
    installed = m.tf if product == "tensorflow" else m.facts.package(product)
    if installed is None or not installed.version:
        return False
    return version_key(installed.version) < version_key(since)


def _line_before(m: Machine, product: str, since: Optional[str]) -> Optional[tuple[str, str, str]]:
    """TensorFlow's last line before ``since`` where the running Python (the probe's or the
    log's) has no wheel of it, with that Python and the newest Python the line serves (the
    matrix's): ``tensorflow<2.11`` installs nothing on Python 3.12. None where the Python
    is unknown, the line serves it, or the matrix has no such line."""
    python = m.python_version
    key = release_line(since or "")
    if product != "tensorflow" or m.matrix is None or not python or key is None:
        return None
    # The matrix lists its lines newest first: the first one older than the change.
    line = next((x for x in m.matrix.lines if x.key < key), None)
    if line is None or m.line_fits(line, ""):
        return None
    served = line.pythons_on()
    return (line.line, ".".join(python.split(".")[:2]), served[-1]) if served else None


def _passed_by_user(tb: Traceback, caller: int, argument: str) -> bool:
    """Whether a frame of the user's own code outside the library names ``argument`` on its
    source line (``spektral.GCNConv(32, activaton='relu')``): the library passed on what the
    user's call gave it, so the user's line asked."""
    if not argument:
        return False
    named = re.compile(rf"\b{re.escape(argument)}\b")
    return any(users_own(f.path) and named.search(f.code) for f in tb.frames[:caller])


def _about_tensorflow(tb: Traceback, frame: Frame, top: str, m: Machine) -> bool:
    """Whether the library ``top`` works with TensorFlow's objects: the module table marks it
    as TensorFlow's family or built on it, a companion row names it, its file is its
    TensorFlow front end, or its frames' paths, functions or lines say TensorFlow's or Keras'
    words (``_build_tf_graph``, ``tf.data``)."""
    table = modules()
    dist = distribution_of(top)
    if top in table.family or top in table.on_tensorflow or tensorflow_facing(frame.path):
        return True
    if dist is not None and m.companion(dist) is not None:
        return True
    own = [f for f in tb.frames if installed_package(f.path) == top]
    return any(TF_WORDS.search(f"{f.path} {f.function} {f.code}") for f in own)


def _tensorflow_callee(
    refusal: Refusal, tb: Traceback, index: int, shown: bool
) -> Optional[tuple[str, bool]]:
    """Whose interface refused, TensorFlow's or Keras' (with whether the log shows it: their
    frames after the caller at ``index``, or their own words), or None where nothing says it
    is theirs."""
    frame = tb.frames[index]
    if refusal.speaker in (TENSORFLOW, KERAS):
        # Their words, raised in their frames; the same words raised in the library's own
        # frame are a copy of them in its code (a validate_kwargs of its own): its function.
        return (("Keras" if refusal.speaker == KERAS else "TensorFlow"), True) if shown else None
    if shown:
        if refusal.shape == ATTRIBUTE or not call_passed_through(tb, frame, refusal.function):
            # Their code reading an attribute of what it was handed, or calling a function
            # itself (Keras calling TensorFlow's: a pairing of theirs, read elsewhere).
            return None
        after = {installed_package(f.path) for f in tb.frames[index + 1 :]}
        return ("Keras" if after & {"keras", "tf_keras"} else "TensorFlow"), True
    given_by = _keyword_given_by(tb, index, refusal)
    if given_by is not None:
        return given_by, False
    if refusal.speaker == PYTHON and refusal.shape in _COUNTED and _tf_call_of(frame, refusal):
        # The caller's line calls TensorFlow's function by the name Python gives (a class's
        # constructor: its one call of TensorFlow's), whose frames the traceback does not
        # show: Python raises a refused call in the caller's frame. (A keyword so refused is
        # explain.packages' reading, which weighs the TensorFlow the log shows.)
        return "TensorFlow", False
    if refusal.owner and refusal.owner in api_classes():
        read = re.search(rf"\.{re.escape(refusal.argument)}\b", frame.code)
        if refusal.shape == ATTRIBUTE and read is None:
            return None  # the line printed does not read it: not this frame's object
        return "TensorFlow", False
    return None


#: The name of a Keras layer's method that Keras' ``Layer.__call__`` calls, passing the
#: keywords its release passes (``training``, ``mask``) in the ``**kwargs`` of a ``call`` that
#: takes them: tf.keras' base_layer.py (tensorflow/python/keras/engine/, which Keras 2.4 on
#: fronts) sets ``_expects_training_arg`` and ``_expects_mask_arg`` for a ``call`` with
#: ``**kwargs``; multi-backend Keras 2.3.1's keras/engine/base_layer.py passes no ``training``
#: and ``mask`` only to a ``call`` that names it (``has_arg(self.call, 'mask')``).
_LAYER_CALL = "call"


def _keyword_given_by(tb: Traceback, index: int, refusal: Refusal) -> Optional[str]:
    """Whose release gave the keyword Python says the library's call got twice, ``Keras`` or
    ``TensorFlow``: the library's line passes it by name and hands on the ``**kwargs`` its
    function received, so its function's caller gave it too, and that caller is theirs (their
    frame right before it, or, where AutoGraph's frames start with it, a layer's ``call`` it
    converted, which Keras' ``Layer.__call__`` runs). None for any other refusal or caller."""
    frame = tb.frames[index]
    argument = refusal.argument
    if refusal.shape != MULTIPLE or refusal.speaker != PYTHON or not argument:
        return None
    passed = re.search(rf"[(,]\s*{re.escape(argument)}\s*=(?!=)", frame.code)
    if passed is None or re.search(r"\*\*\s*\w+", frame.code) is None:
        return None
    if index > 0:
        before = installed_package(tb.frames[index - 1].path)
        if before not in TF_OWN:
            return None
        return "Keras" if before in ("keras", "tf_keras") else "TensorFlow"
    return "Keras" if frame.converted and frame.function == _LAYER_CALL else None


def _tf_call_of(frame: Frame, refusal: Refusal) -> Optional[str]:
    """The call of TensorFlow's that the frame's source line makes by the refusing function's
    name (``tf.name_scope`` for ``name_scope()``, ``tf.nn.conv2d`` for TensorFlow 2's
    ``conv2d_v2()``: :func:`tf_function_named`, or for ``__init__()`` the line's one call of
    TensorFlow's: TensorFlow 2's ``tf.name_scope`` is a class), or None."""
    calls = tensorflow_calls(frame.code)
    named = [c for c in calls if tf_function_named(refusal.function, c)]
    if named:
        return named[0]
    # A constructor is any class's: the line's TensorFlow call is the refused one only where it
    # is the line's one call of any kind (``Bijector(tf.constant(1.), a, b)`` refuses in
    # Bijector's, ``super().__init__(...)`` in the base class').
    alone = len(calls) == 1 and len(_ANY_CALL.findall(frame.code)) == 1
    return calls[0] if refusal.function == "__init__" and alone else None


def interface_candidates(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """The last exception, where its words are a refused call (:func:`read_refusal`) that an
    installed library made of TensorFlow's or Keras' interface: the library's release was
    written for another release (companion-mismatch, an error where the callee's frames or
    words are shown, else a warning), and the code's release for another TensorFlow
    (api-removed, a warning: the other candidate). Empty where the caller is the user's own
    code, the library's own (its own function refused), or nothing shows the callee."""
    tb = last_failure(tracebacks)
    if tb is None or tb.warned:
        return []
    refusal = read_refusal(tb.message)
    if refusal is None or refusal.argument.startswith("__"):
        return []
    if not tb.frames:
        return _unshown_private_call(tb, refusal, m)
    if (
        refusal.shape == ATTRIBUTE
        and refusal.owner in _GRAPH_TENSORS
        and refusal.argument in _EAGER_ONLY
    ):
        return []  # eager code run in a graph, whatever the releases
    index, shown = _caller(tb)
    if index is None:
        return []
    frame = tb.frames[index]
    top = installed_package(frame.path)
    if top is None:
        # The user's own code: a keyword or attribute of its own may be a typo, and scan's
        # rules judge its uses of TensorFlow's API. (TensorFlow's and Keras' own frames are
        # the callee; the rest of their family, tensorflow-addons and the like, call as any
        # library does.)
        return []
    if _passed_by_user(tb, index, refusal.argument):
        return []
    callee = _tensorflow_callee(refusal, tb, index, shown)
    if callee is None:
        return []
    product, sure = callee
    if not sure and not tf_object_class(refusal.owner) and not _about_tensorflow(tb, frame, top, m):
        # A public class's name alone does not say the object is TensorFlow's: a library that
        # works with TensorFlow's objects, not one with a class of its own of that name
        # (torch's Sequential). The names of TensorFlow's own objects' classes, but for the
        # shared ones, are TensorFlow's alone.
        return []
    dist = library_dist(top, frame.path)
    # The call of TensorFlow's the line makes, where Python names only a constructor.
    called = _tf_call_of(frame, refusal) if refusal.function == "__init__" else None
    asked = _asked(refusal, product, called or "")
    # The line's call of TensorFlow's that :func:`_tensorflow_callee` read as the callee.
    line_call = (
        _tf_call_of(frame, refusal)
        if not sure and refusal.speaker == PYTHON and refusal.shape in _COUNTED
        else None
    )
    given_by = None if sure else _keyword_given_by(tb, index, refusal)
    whose = "Keras'" if product == "Keras" else "TensorFlow's"
    if given_by is not None:
        asked = f"{frame.function}() got {refusal.argument} from {product} and passes it again"
    detail = (
        f"{tb.where}: {tb.type}: {tb.message}\n"
        f"{dist}'s code ({frame.path}, line {frame.line}) made the call: {asked}; "
        + (
            f"{product} refused it, as its frames after that line show."
            if sure
            else f"the line passes {refusal.argument} by name and hands on the **kwargs its "
            f"{frame.function}() received, which held it too: {whose} code called "
            + (
                "it, as the frame before that line shows."
                if index
                else "it (AutoGraph converted it as a layer's call, which Keras' "
                "Layer.__call__ runs with the keywords its release passes)."
            )
            if given_by is not None
            else f"the line calls TensorFlow's {line_call}, and Python raises a call it refuses "
            "in the caller's frame (TensorFlow's frames are not shown)."
            if line_call
            else f"{refusal.owner} is a class of {product}'s (its public API or its own)."
        )
        + f" The {dist} release was written for another {product} release than the installed "
        "one."
    )
    hints = path_hints([f.path for f in tb.frames])
    if hints:
        # What the frames' paths imply of the releases (tensorflow_core/ is 1.15 to 2.1,
        # keras/src/ Keras 3): which side of the boundary the installed one is.
        detail += "\n" + inferred_note(hints)
    row = keyword_added_row(refusal, m)
    # The public name the innermost line calls with the keyword (Python raises the refusal
    # in the calling frame), which the signature listings may date.
    listed = tf_call_refused(tb.message, frame.code) if index == len(tb.frames) - 1 else None
    if row is not None:
        detail += (
            f"\n`{row.api}` takes `{refusal.argument}` from TensorFlow {row.added_in} on (the "
            "API table): the installed TensorFlow is older than the code."
        )
    elif listed is not None and (dated := keyword_releases(listed, refusal.argument)).taking:
        detail += (
            f"\n`{listed}` takes `{refusal.argument}` in TensorFlow "
            f"{dated.span()} (the parameters read from "
            "each line's wheel)."
        )
    behaviour = refusal.shape == UNHASHABLE
    lead = causes.finding(
        f"explain.{causes.software.COMPANION_MISMATCH}",
        Severity.ERROR if sure and refusal.shape == KEYWORD else Severity.WARNING,
        causes.software.COMPANION_MISMATCH,
        f"{dist} was written for another {product} release ({asked})",
        detail,
        # A behaviour, not a signature: no table dates a keyword or a signature for it.
        library_fix(m, dist)
        if behaviour
        else refused_call_fix(
            m, dist, refusal, library_fix(m, dist), product, called or "", listed or ""
        ),
    )
    if behaviour:
        # What the code does with TensorFlow's objects changed meaning, not a name: the other
        # candidate is that changed behaviour (api-default-changed), the same fix.
        changed = causes.CAUSES[causes.code.API_DEFAULT_CHANGED]
        return [
            lead,
            causes.finding(
                f"explain.{causes.code.API_DEFAULT_CHANGED}",
                Severity.WARNING,
                causes.code.API_DEFAULT_CHANGED,
                f"{asked[:1].upper()}{asked[1:]}: {changed.title}",
                detail,
                library_code_fix(m, tb, product, asked, dist),
                changed.links,
            ),
        ]
    removed = causes.CAUSES[causes.code.API_REMOVED]
    # A sentence's capital, but never on the refusing function's name (an identifier).
    named = (
        bool(called)
        or given_by is not None
        or (bool(refusal.callee) and asked.startswith(refusal.callee))
    )
    opening = asked if named else asked[:1].upper() + asked[1:]
    other = causes.finding(
        f"explain.{causes.code.API_REMOVED}",
        Severity.WARNING,
        causes.code.API_REMOVED,
        f"{opening}: {removed.title}",
        detail,
        library_code_fix(m, tb, product, asked, dist),
        removed.links,
    )
    return [lead, other]


def _asked(refusal: Refusal, product: str, called: str = "") -> str:
    """What was refused, in words (``conv() refused its keyword batch_group_count``)."""
    own = "Keras'" if product == "Keras" else "TensorFlow's"
    callee = (
        f"{called}() (its {refusal.callee}())"
        if called
        else f"{refusal.callee}()"
        if refusal.callee
        else f"{own} function"
    )
    if refusal.shape == KEYWORD:
        return f"{callee} refused its keyword {refusal.argument}"
    if refusal.shape == POSITIONAL and refusal.given:
        # The counts as Python printed them (``from 2 to 3``, Python 2's ``at most 4``, which
        # counts keyword arguments too).
        return f"{callee} was given {refusal.given_words} and takes {refusal.takes_words}"
    if refusal.shape == POSITIONAL:
        return f"{callee} refused its count of positional arguments"
    if refusal.shape == MISSING:
        # Every argument Python named missing, as it printed them.
        return f"{callee} requires {refusal.missing}, which the call does not pass"
    if refusal.shape == MULTIPLE:
        return f"{callee} got {refusal.argument} twice: its arguments moved"
    if refusal.shape == OP_ARGUMENT:
        op = f"the op {refusal.callee}" if refusal.callee else "an op"
        return f"{op} refused the form of its argument {refusal.argument}"
    if refusal.shape == UNHASHABLE:
        return (
            f"the code hashes {own} {refusal.owner} (a set's member or a dict's key), which "
            "Tensor equality, TensorFlow 2's default, makes unhashable"
        )
    return f"{own} {refusal.owner} objects have no {refusal.argument}"


def _unshown_private_call(tb: Traceback, refusal: Refusal, m: Machine) -> list[Finding]:
    """A keyword refused with no frame shown, where the refusing function is one of
    TensorFlow's own modules' that the API table knows took the keyword only from a later line
    (``tensorflow.compiler.tf2xla.python.xla.conv`` and ``batch_group_count``, 2.8): code that
    calls TensorFlow's own modules rather than its public ``tf.`` API is a library built on
    it, whose release was written for that line or later (companion-mismatch, a warning: the
    caller is not shown). Empty for a public function (explain.api reads those as the code's
    use), another keyword, a method of that name (a class's), or a source line shown that does
    not call the function."""
    row = keyword_added_row(refusal, m)
    # A function of a module: Python 3.10+ names a method by its class (``Helper.conv()``), a
    # module's function by its name alone, in every release.
    if row is None or row.public or refusal.callee != row.function:
        return []
    if tb.code and re.search(rf"\b{re.escape(row.function)}\s*\(", tb.code) is None:
        return []  # the line printed above the message calls something else
    asked = _asked(refusal, "TensorFlow")
    return [
        causes.finding(
            f"explain.{causes.software.COMPANION_MISMATCH}",
            Severity.WARNING,
            causes.software.COMPANION_MISMATCH,
            f"A library built on TensorFlow was written for TensorFlow {row.added_in} or later "
            f"({asked})",
            f"{tb.where}: {tb.type}: {tb.message}\n`{row.api}` is a function of TensorFlow's "
            "own modules, not of its public API: libraries built on TensorFlow call it, and it "
            f"takes `{refusal.argument}` from TensorFlow {row.added_in} on (the API table). The "
            "log shows no frame of the code that called it: that a library's release made the "
            "call is inferred from whose function it is, not shown.",
            causes.software.keyword_release_fix(m, "", row.api, refusal.argument, row.added_in),
        )
    ]


#: The prefix AutoGraph gives the function it converts (``call`` runs as ``tf__call``:
#: tensorflow/python/autograph/pyct/transpiler.py names the converted function ``tf__`` and
#: the original's name), which Python's words then name.
_CONVERTED_PREFIX = "tf__"


def _old_tensorflow(tb: Traceback, m: Machine) -> str:
    """The TensorFlow the log shows ran, in words, where it is a TensorFlow 1 release (its
    version shown) or, none shown, the Python the log shows is Python 2, whose last wheels
    are of TensorFlow 2.1 and before (the matrix: :meth:`tfdoctor.matrix.Matrix.
    newest_release_with_wheels`); "" elsewhere."""
    tf = m.tf
    if tf is not None and tf.version:
        if version_key(tf.version)[:1] != (1,):
            return ""
        return f"TensorFlow {tf.version}, a TensorFlow 1 release"
    python, last = _python2_last_release(tb, m)
    if not last:
        return ""
    return (
        f"Python {python} running TensorFlow, which no release after {last} has wheels for "
        f"(the matrix): TensorFlow {last} or older"
    )


def _python2_last_release(tb: Traceback, m: Machine) -> tuple[str, str]:
    """The Python 2 the log shows (the machine's, else a frame's folder: ``lib/python2.7/``)
    and the newest TensorFlow the matrix has its wheels for on the machine's platform; two
    empty strings for another Python, or none shown."""
    python = m.python_version or next(
        (p for f in tb.frames if (p := path_python(f.path)) is not None), ""
    )
    if not python.startswith("2.") or m.matrix is None:
        return "", ""
    last = m.matrix.newest_release_with_wheels(python, m.wheel_platform)
    return (python, last) if last is not None else ("", "")


def own_keyword_candidates(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """The last exception, where TensorFlow's own code refused a keyword the code passed to
    its interface: Keras' words raised in TensorFlow's own frame, or the user's own line
    passing the keyword by name into a frame of TensorFlow's that hands on what it was given
    (``call_fn(inputs, *args, **kwargs)``) to a function that did not take it. Under a
    TensorFlow 1.x the log shows (or, none shown, a Python 2 only TensorFlow 2.1 and before
    had wheels for), code that passes what that release refuses was written for a later
    TensorFlow (tf-too-old-for-code, a warning: a keyword of the code's own making is refused
    in the same words). The signature listings read no function refused here (the code's own
    ``call``, or a tf.keras class: they leave tf.keras out), so the fix is the release the
    code's requirements name, and ``pip show tensorflow`` tells the two apart. Empty where an
    installed library's frame made the call (:func:`interface_candidates`), the function
    refused is the one the user's line calls by name (its own function that tf.function called
    back), the frame that refused it or handed it on is the standalone keras package's (that
    Keras' release took the keyword, not TensorFlow's), or no such release is shown."""
    tb = last_failure(tracebacks)
    if tb is None or tb.warned or not tb.frames:
        return []
    refusal = read_refusal(tb.message)
    if refusal is None or refusal.shape != KEYWORD or not refusal.argument:
        return []
    index, shown = _caller(tb)
    if index is None or not shown:
        return []
    frame, inner = tb.frames[index], tb.frames[-1]
    if installed_package(frame.path) is not None:
        return []  # a library's call: interface_candidates' reading
    argument = refusal.argument
    passed = re.search(rf"\b{re.escape(argument)}\s*=(?!=)", frame.code) is not None
    refused = refusal.function.removeprefix(_CONVERTED_PREFIX)
    if refusal.speaker == PYTHON and (
        not passed
        or re.search(rf"\b{re.escape(refused)}\s*\(", frame.code) is not None
        or not FORWARDS.search(inner.code)
    ):
        # Python's words: the user's line must pass the keyword into TensorFlow's frame that
        # hands it on; the function the line calls by name refusing it is the code's own,
        # called back through TensorFlow's wrapper.
        return []
    if installed_package(inner.path) not in TF_PACKAGES:
        # Raised or handed on outside TensorFlow's own code: the standalone keras package
        # (keras/engine/base_layer.py beside a TensorFlow 1.x) refusing it is that Keras'
        # release, not TensorFlow's; elsewhere the words are a copy of Keras'.
        return []
    ran = _old_tensorflow(tb, m)
    if not ran:
        return []
    converted = any(f.converted for f in tb.frames)
    said = (
        f"The code's own line ({frame.path}, line {frame.line}) passes `{argument}`: "
        f"`{frame.code}`; TensorFlow's code after it"
        if passed
        else f"The log does not show the line that passed `{argument}`; TensorFlow's own code"
    )
    handed = (
        f"handed it on to {refusal.callee}()"
        + (
            f" (the code's {refused}, as AutoGraph converted it)"
            if refused != refusal.function
            else ""
        )
        + ", which does not take it."
    )
    detail = (
        f"{tb.where}: {tb.type}: {tb.message}\n"
        f"{said} ({inner.path}, line {inner.line}, in {inner.function}) "
        + (handed if refusal.speaker == PYTHON else "refused it in Keras' words.")
        + f" The log shows {ran}"
        + (
            ", running the code's functions under tf.function (AutoGraph converted them)"
            if converted
            else ""
        )
        + ": code that passes what that release refuses was written for a later TensorFlow. "
        "What tells it from a keyword of the code's own making: `pip show tensorflow` says "
        "which release runs, the code's requirements (requirements.txt, setup.py, its README) "
        "which release it was written for."
    )
    return [
        causes.finding(
            f"explain.{causes.code.TF_TOO_OLD_FOR_CODE}",
            Severity.WARNING,
            causes.code.TF_TOO_OLD_FOR_CODE,
            f"TensorFlow refused the keyword {argument} the code passes: the code was written "
            "for a later TensorFlow",
            detail,
            _on_python2(
                causes.code.tf_too_old_fix(
                    m, f"the keyword `{argument}` as the code passes it", None
                ),
                *_python2_last_release(tb, m),
            ),
        )
    ]


def _on_python2(fix: Fix, python: str, last: str) -> Fix:
    """``fix``, an upgrade of TensorFlow, where the log's Python is ``python``, a Python 2
    whose newest TensorFlow with wheels is ``last`` (else ``fix`` as it is): a release after
    it does not install on that Python, so the fix says the environment it takes."""
    if not last:
        return fix
    return Fix(
        f"{fix.text} TensorFlow {last} is the newest release with wheels for Python {python}: "
        "a later release the code names installs only in a new environment of a Python 3 "
        "that release has wheels for.",
        fix.commands,
    )
