"""What explain says of exceptions without asking scan: the paths' inferences, and an
exception no cause explains."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.traceback import (
    Frame,
    Inferred,
    Traceback,
    failures,
    installed_package,
    is_installed,
    origin_of,
    path_hints,
)
from tfdoctor.explain.keras_versions import keras_era
from tfdoctor.explain.modules import TF_OWN, keras3_backend_of
from tfdoctor.explain.packages import tf_keras_generation
from tfdoctor.findings import UNEXPLAINED_EXCEPTION, Finding, Fix, Severity
from tfdoctor.machine import Machine


def inferred_note(hints: Sequence[Inferred]) -> str:
    """The facts paths imply, each with the path it rests on, marked as inferred."""
    words = []
    for hint in hints:
        what = _SHOWN.get(hint.fact, "{}").format(_OS_NAMES.get(hint.value, hint.value))
        words.append(f"{what} ({hint.because})")
    return "Inferred from paths and file names, not stated: " + "; ".join(words) + "."


#: How an inferred fact reads, by kind (the value fills the braces).
_SHOWN = {
    "python": "Python {}",
    "os": "{}",
    "cuda": "a build for CUDA {}",
    "cudnn": "a build for cuDNN {}",
    "tensorflow-lines": "so TensorFlow {}",
}
_OS_NAMES = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}


def last_failure(tracebacks: Sequence[Traceback]) -> Optional[Traceback]:
    """The log's last exception that failed the run (:func:`failures`: not an end on purpose
    such as Ctrl-C or sys.exit, and not one Python reported and went on from, ``Exception
    ignored in``); None where there is none."""
    failed = failures(tracebacks)
    return failed[-1] if failed else None


def unexplained_finding(tracebacks: Sequence[Traceback]) -> Optional[Finding]:
    """The last exception of the log when no cause explains it: what it observes, never OK."""
    tb = last_failure(tracebacks)
    if tb is None:
        return None
    detail = [f"{tb.where}: {tb.type}: {tb.message}".rstrip(": ")]
    library = next((fr for fr in reversed(tb.frames) if origin_of(fr.path).dist), None)
    if library is not None:
        origin = origin_of(library.path)
        label = f"{origin.dist} ({origin.generation})" if origin.generation else origin.dist
        detail.append(
            f"Raised in {label} (from its path): {library.path}, line {library.line}, "
            f"in {library.function}."
        )
    own = next((fr for fr in reversed(tb.frames) if not origin_of(fr.path).dist), None)
    if own is not None and not is_installed(own.path):
        code = f": {own.code}" if own.code else ""
        detail.append(f"The last frame outside the libraries: {own.path}, line {own.line}{code}")
    hints = path_hints([f.path for f in tb.frames])
    if hints:
        detail.append(inferred_note(hints))
    elsewhere = raised_outside_tensorflow(tb)
    if elsewhere is not None:
        detail.append(
            f"No frame, code line or word of it is TensorFlow's or Keras': {elsewhere} raised "
            "it, so TensorFlow's own notices beside it are not its cause."
        )
    return Finding(
        UNEXPLAINED_EXCEPTION,
        Severity.UNKNOWN if elsewhere is None else Severity.INFO,
        f"The log ends in an exception tfdoctor has no cause for: {tb.name}"
        + ("" if elsewhere is None else f", raised in {elsewhere}, outside TensorFlow"),
        "\n".join(detail),
        Fix(
            "Search the message in the issues of the package that raised it; run `tfdoctor "
            "check` where it failed to rule out the environment.",
            ("tfdoctor check",),
        ),
        check="explain",
    )


#: What TensorFlow's and Keras' code shows of itself in a frame's path, source line, or an
#: exception's type or message: their names, and ``tf`` or a companion's short name (``tfa``,
#: ``tfp``, ``tfds``, ``tflite``) standing alone or between underscores, as imports name them
#: (``import tensorflow as tf``) and libraries their TensorFlow code (``modeling_tf_utils.py``).
TF_WORDS = re.compile(r"(?i)tensorflow|keras|(?<![a-z0-9])tf[a-z]{0,4}(?![a-z0-9])")


def raised_outside_tensorflow(tb: Traceback) -> Optional[str]:
    """The installed package that raised ``tb`` where nothing of the traceback is TensorFlow's:
    its innermost frame lies in another library (``torch``), and no frame is of a package of
    the module table (TensorFlow, Keras, their companions) or shows TensorFlow's words in its
    path or code, nor does the exception. Such a failure is the other library's (a PyTorch
    project that imports TensorFlow only beside it); None otherwise, or where the frames
    were cut."""
    if not tb.frames:
        return None
    raiser = installed_package(tb.frames[-1].path)
    if raiser is None or TF_WORDS.search(f"{tb.type} {tb.message}"):
        return None
    for frame in tb.frames:
        if origin_of(frame.path).dist or TF_WORDS.search(f"{frame.path} {frame.code}"):
            return None
    return raiser


#: Keras 3's own words for a failure inside a layer (keras/src/utils/traceback_utils.py:
#: "Exception encountered when calling Flatten.call()"; Keras 2 says "... calling layer
#: 'flatten' (type Flatten)"). Its deserializer's words are Keras 2.13's too: not a sign.
_KERAS3_WORDS = re.compile(r"Exception encountered when calling \w+\.call\(\)")


def keras3_raised(tb: Traceback) -> Optional[str]:
    """What shows that Keras 3 raised ``tb`` (a frame under ``keras/src/``, or Keras 3's own
    wording), in words; None where nothing does."""
    frame = next((f for f in tb.frames if origin_of(f.path).generation == "Keras 3"), None)
    if frame is not None:
        return f"the frame {frame.path} is Keras 3's (keras/src/)"
    if _KERAS3_WORDS.search(tb.message):
        return "the message is worded as Keras 3 words it"
    return None


#: The modules of Keras 3's own requirements (its pyproject.toml's dependencies, 3.4 to 3.15:
#: absl-py, numpy, rich, namex, h5py, optree, ml-dtypes, packaging; 3.0 and 3.1 took dm-tree,
#: imported as tree, where 3.2 took optree): Keras calls them, so their frames under a Keras 3
#: frame show nothing about the code that called Keras.
#: https://github.com/keras-team/keras/blob/v3.12.0/pyproject.toml
#: https://github.com/keras-team/keras/blob/v3.0.0/setup.py
_KERAS3_REQUIREMENTS = frozenset(
    {"absl", "numpy", "rich", "namex", "h5py", "optree", "tree", "ml_dtypes", "packaging"}
)

#: What Keras 2 code does that Keras 3 refuses, as the refusal words it: TensorFlow 1's
#: Dimension objects in a shape; a weight Keras 3 makes a read-only property (kernel, bias) set
#: by a subclass ("can't set attribute", Python 3.11: "property ... has no setter"); a name
#: passed where Keras 3's add_weight takes the shape (read one letter at a time). (Keras 3's
#: "Could not locate function" is its own word for any unregistered object: no sign.)
_KERAS2_HABITS = re.compile(
    r"\bDimension\((?:None|\d+)\)"
    r"|can't set attribute|property '\w+' of '\w+' object has no setter"
    r"|Cannot convert '\('\w', '\w'(?:, '\w')*\)' to a shape"
)


def keras3_candidate(tracebacks: Sequence[Traceback], m: Machine) -> Optional[Finding]:
    """The last exception, raised inside Keras 3, that no cause explains: code written for
    Keras 2 (tf.keras up to TensorFlow 2.15, or a package built on it) meeting Keras 3 is the
    likeliest environment cause, and running it under tf-keras tells. A warning, with the
    other candidate (a fault in the code under Keras 3 itself) named."""
    tb = last_failure(tracebacks)
    if tb is None:
        return None
    shown = keras3_raised(tb)
    if shown is None:
        return None
    # An installed package other than TensorFlow's and Keras' own (whose frames are the callee),
    # nor one Keras 3 itself calls (h5py under its HDF5 loader is no code written for Keras 2).
    package = next(
        (
            top
            for top in (installed_package(f.path) for f in tb.frames)
            if top is not None and top not in TF_OWN and top not in _KERAS3_REQUIREMENTS
        ),
        None,
    )
    habit = _KERAS2_HABITS.search(tb.message)
    if package is None and habit is None:
        return None  # nothing says the code is Keras 2's: a fault of its own under Keras 3
    why = (
        f"the message shows a Keras 2 habit ({habit.group()})"
        if habit is not None
        else f"{package}, in the frames, may be written for Keras 2"
    )
    return causes.finding(
        f"explain.{causes.code.KERAS3_BEHAVIOUR_CHANGE}",
        Severity.WARNING,
        causes.code.KERAS3_BEHAVIOUR_CHANGE,
        "Raised inside Keras 3: most likely code written for Keras 2 meeting Keras 3",
        f"{tb.where}: {tb.type}: {tb.message}".rstrip(": ")
        + f"\nKeras 3 raised it: {shown}; {why}. TensorFlow 2.16 and later bring Keras 3 as "
        "tf.keras, "
        "and code or a package written for Keras 2 (attributes set on layers, TensorFlow 1 "
        "shapes, names passed where Keras 3 takes other arguments, models saved by Keras 2) "
        "fails inside it so. If the same code fails under tf-keras with "
        "TF_USE_LEGACY_KERAS=1 too, the fault is in the code itself, not the Keras.",
        causes.code.keras3_fix(m),
    )


#: What a Keras 3 backend's own code meets where the framework under it is another release
#: than Keras was made for: a module of the framework without a name Keras calls (``module
#: 'jax.nn' has no attribute 'dot_product_attention'``), an object of the framework without
#: an attribute (torch 2.3's Parameter under the torch backend's variables, keras#19602), a
#: keyword the framework's function does not take.
_KEYWORD_REFUSED = re.compile(r"^(?P<function>[\w.]+)\(\) got an unexpected keyword argument '\w+'")
#: Objects of Python's own or NumPy's, or Keras' own: passed in by the code that called
#: Keras, their missing attribute is that code's matter, not the framework's release.
_NOT_THE_FRAMEWORKS = re.compile(
    r"^(?:NoneType|str|bytes|int|float|bool|list|dict|tuple|set|function|module|method"
    r"|(?:numpy\.)?ndarray|Keras\w*|Functional|Sequential|Model)$"
)


def keras_backend_candidate(tracebacks: Sequence[Traceback], m: Machine) -> Optional[Finding]:
    """The last exception raised in Keras 3's torch or jax backend by an API of that
    framework that is not there or not so (a name, an attribute, a keyword): the installed
    framework is another release than the Keras release was made for. A warning: which
    release fits is in Keras' requirements of its day, not in the log."""
    tb = last_failure(tracebacks)
    if tb is None or not tb.frames or tb.name not in ("AttributeError", "TypeError"):
        return None
    backend = keras3_backend_of(tb.frames[-1].path)
    dist = causes.software.KERAS3_BACKENDS.get(backend or "")
    # Python's words opening the message, as the evidence layer reads them: a named module's
    # attribute, an object's (its type named), or a keyword refused.
    lacks = tb.missing_attribute
    if lacks is not None and (
        lacks.before or lacks.partial or lacks.kind == "type" or not lacks.owner
    ):
        lacks = None
    refused = _KEYWORD_REFUSED.match(tb.message) if lacks is None else None
    if backend is None or dist is None or dist == "tensorflow" or (lacks or refused) is None:
        return None
    if lacks is not None and lacks.module and lacks.owner.split(".", 1)[0] not in (dist, "jaxlib"):
        return None  # another module's name: not the backend framework's
    if lacks is not None and not lacks.module and _NOT_THE_FRAMEWORKS.match(lacks.owner):
        return None
    if refused is not None and not re.search(rf"\b(?:{dist}|jnp|lax|jaxlib)\.", tb.frames[-1].code):
        return None  # a keyword refused by something other than the framework's call
    return causes.finding(
        f"explain.{causes.software.KERAS_BACKEND_VERSION_UNSUPPORTED}",
        Severity.WARNING,
        causes.software.KERAS_BACKEND_VERSION_UNSUPPORTED,
        f"Keras 3's {backend} backend met a {dist} API that is not as it expects",
        f"{tb.where}: {tb.type}: {tb.message}\nThe innermost frame, {tb.frames[-1].path}, is "
        f"Keras 3's {backend} backend calling {dist}: the installed {dist} lacks or changed "
        "what this Keras release calls.",
        causes.software.keras_backend_release_fix(m, dist),
    )


#: Keras' loader of a Lambda layer's function, func_load, which un-marshals the bytecode the
#: saving Python wrote: keras/utils/generic_utils.py (Keras 2, TensorFlow's copy under
#: tensorflow/python/keras/, tf_keras/src/), keras/src/utils/python_utils.py (Keras 3).
#: https://github.com/keras-team/keras/blob/v3.12.0/keras/src/utils/python_utils.py
_FUNC_LOAD = re.compile(
    r"(?:keras|tf_keras)[/\\](?:src[/\\])?utils[/\\](?:generic|python)_utils\.py$"
)
#: CPython's marshal refusing data of another minor (Python/marshal.c: "bad marshal data
#: (unknown type code)", "marshal data too short", "EOF read where object expected").
_MARSHAL_REFUSED = re.compile(
    r"bad marshal data|marshal data too short|EOF read where object expected"
)
#: The Lambda layer's call, where a function of another minor's bytecode meets an opcode this
#: Python lacks (ceval.c: "unknown opcode"): keras/layers/core.py (Keras 2.0-2.8 and
#: TensorFlow's copy), keras/layers/core/lambda_layer.py (2.9 on, Keras 3 under src/).
_LAMBDA_CALL = re.compile(r"[/\\]layers[/\\](?:core\.py|core[/\\]lambda_layer\.py)$")


#: Keras' traceback filter (keras/utils/traceback_utils.py from Keras 2.7; keras/src/ from
#: 2.13, Keras 3 and tf_keras/src/), on unless the code turns it off: it drops every frame under
#: keras/ (func_load's, the Lambda layer's call, the HDF5 loader's) and raises the error again
#: from its error_handler, the one Keras frame left.
#: https://github.com/keras-team/keras/blob/v2.11.0/keras/utils/traceback_utils.py
_KERAS_TRACEBACK_FILTER = re.compile(r"keras[/\\](?P<src>src[/\\])?utils[/\\]traceback_utils\.py$")


def _keras_filtered(frame: Frame, src: bool = True) -> bool:
    """Whether ``frame`` is Keras' traceback filter raising again (its error_handler); with
    ``src`` False, only Keras 2.7-2.12's, whose files are not under keras/src/."""
    found = _KERAS_TRACEBACK_FILTER.search(frame.path)
    if found is None or not frame.function.endswith("error_handler"):
        return False
    return src or found.group("src") is None


#: CPython's evaluation loop meeting an opcode its table lacks (Python/ceval.c): ``unknown
#: opcode`` (2.x-3.11), ``FILE:LINE: unknown opcode N`` (3.12 on, the code object's file and
#: line in front; the line is -1 where the code's line table gives none, PyCode_Addr2Line's
#: answer then). CPython's compiler emits only opcodes of its own table, so the code object
#: was made elsewhere: marshalled by another Python minor, whose opcodes differ.
#: https://github.com/python/cpython/blob/v3.10.0/Python/ceval.c
#: https://github.com/python/cpython/blob/v3.12.0/Python/ceval.c
_UNKNOWN_OPCODE = re.compile(r"(?:\A|:-?\d+: )unknown opcode(?: \d+)?\Z")


def _bytecode_reading(tb: Traceback) -> Optional[tuple[Severity, str, bool]]:
    """How the last exception reads as bytecode of another Python minor: its severity, where
    it was raised in words, and whether a Keras model's Lambda layer is shown as its author
    (else a function saved as bytecode some other way is a candidate beside it). None where
    it is no such refusal."""
    inner = tb.frames[-1] if tb.frames else None
    if inner is not None and _MARSHAL_REFUSED.search(tb.message):
        if inner.function == "func_load" and _FUNC_LOAD.search(inner.path):
            return Severity.ERROR, "Keras un-marshalling a Lambda layer's function", True
        if _keras_filtered(inner):
            # Keras' frames filtered out: func_load, its one reader of marshal data, is likely.
            return Severity.WARNING, "Keras (its frames filtered), likely func_load", True
        return None
    if "unknown opcode" in tb.message and any(
        (_LAMBDA_CALL.search(f.path) and f.function == "call") or _keras_filtered(f)
        for f in tb.frames
    ):
        return Severity.WARNING, "a Lambda layer's function, run by its call", True
    if tb.name != "SystemError" or not _UNKNOWN_OPCODE.search(tb.message):
        return None
    # The opcode alone says a code object of another Python ran; the frames tell whose. A
    # Keras frame (rebuilding or running a model) makes a Lambda layer's function the likely
    # one; without, a function pickled by value (cloudpickle, dill) or marshalled is as
    # likely as a model's Lambda layer.
    era = next((keras_era(f) for f in reversed(tb.frames) if keras_era(f)), "")
    if era:
        return Severity.WARNING, f"Keras ({era}), likely a Lambda layer's function", True
    shown = "code whose frames name no Keras" if tb.frames else "code the log shows no frame of"
    return Severity.WARNING, shown, False


def lambda_bytecode_candidate(tracebacks: Sequence[Traceback], m: Machine) -> Optional[Finding]:
    """The last exception: Keras un-marshalling a Lambda layer's function refused as another
    Python minor's data (an error), or a function run into an opcode this Python lacks (a
    warning: another minor's bytecode is the likely author, not shown), a Lambda layer's
    where Keras' frames show one, a Lambda layer's or another function saved as bytecode
    where they do not."""
    tb = last_failure(tracebacks)
    reading = _bytecode_reading(tb) if tb is not None else None
    if tb is None or reading is None:
        return None
    severity, where, keras = reading
    inner = f" ({tb.frames[-1].path})" if tb.frames else ""
    shown = f"{tb.where}: {tb.type}: {tb.message}"
    if tb.note:
        shown += (
            f"\nThe paste stops before the exception line; CPython's note above the traceback, "
            f"'{tb.note}', is printed as it raises SystemError('unknown opcode')."
        )
    author = (
        "Keras stores that function as the saving Python's bytecode, which another Python "
        "minor refuses or misreads."
        if keras
        else "This Python ran a code object it did not compile, holding an opcode its own "
        "table lacks: the bytecode of another Python minor. Keras stores a Lambda layer's "
        "function so in a model file, and cloudpickle and dill so pickle a function by "
        "value; what the code loaded (a model file, a pickle) tells which."
    )
    cause = causes.software.MODEL_BYTECODE_OTHER_PYTHON
    return causes.finding(
        f"explain.{cause}",
        severity,
        cause,
        causes.CAUSES[cause].title
        if keras
        # No Keras frame shows a model: the Lambda layer is one candidate author, not seen.
        else "Bytecode of another Python minor ran here: a model's Lambda layer's function, "
        "or a function pickled by value (candidates)",
        f"{shown}\nRaised in {where}{inner}: {author}",
        causes.software.bytecode_python_fix(m, keras),
    )


#: tf.keras' SavedModel loader (keras/saving/saved_model/load.py; TensorFlow's own copy under
#: tensorflow/python/keras/, 2.13-2.15 under keras/src/saving/legacy/) revives each layer from
#: the configuration the saving Keras wrote, and a layer's constructor refuses an argument a
#: newer Keras added with TypeError: Python's "unexpected keyword argument", Keras'
#: "Keyword argument not understood" (generic_utils.validate_kwargs).
#: https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/python/keras/saving/saved_model/load.py
_KERAS_SAVEDMODEL_LOAD = re.compile(
    r"keras[/\\](?:src[/\\])?saving[/\\](?:legacy[/\\])?saved_model[/\\]load\.py$"
)
_CONFIG_ARGUMENT = re.compile(
    r"unexpected keyword argument '(?P<arg>\w+)'|Keyword argument not understood:'?,? '(?P<kw>\w+)'"
)


def savedmodel_config_candidate(tracebacks: Sequence[Traceback], m: Machine) -> Optional[Finding]:
    """The last exception: a TypeError raised under tf.keras' SavedModel loader whose message
    refuses a configuration argument, or is cut from the log: a SavedModel of a newer
    TensorFlow. A warning: the constructor's refusal is the likely message, not always shown."""
    tb = last_failure(tracebacks)
    if tb is None or tb.type.rsplit(".", 1)[-1] != "TypeError":
        return None
    argument = _CONFIG_ARGUMENT.search(tb.message)
    if tb.message.strip() and argument is None:
        return None  # another TypeError, shown: not a configuration's argument
    loader = next(
        (i for i, f in enumerate(tb.frames) if _KERAS_SAVEDMODEL_LOAD.search(f.path)), None
    )
    if loader is None:
        return None
    if any(not origin_of(f.path).dist for f in tb.frames[loader + 1 :]):
        # The code's own class (a custom layer whose constructor refuses what its get_config
        # wrote) raised it under the loader: the code's matter, not the release that saved.
        return None
    name = (argument.group("arg") or argument.group("kw")) if argument is not None else None
    cause = causes.software.MODEL_FROM_NEWER_KERAS
    shown = f": {tb.message}" if tb.message.strip() else " (its message is not in the log)"
    return causes.finding(
        f"explain.{cause}",
        Severity.WARNING,
        cause,
        "A TypeError as tf.keras revived a SavedModel's layers: likely a model of a newer "
        "TensorFlow",
        f"{tb.where}: {tb.type}{shown}\nRaised under tf.keras' SavedModel loader, which "
        "calls each saved layer's constructor with the configuration the saving Keras wrote; "
        "a newer Keras's argument is refused with TypeError.",
        causes.software.newer_keras_model_fix("savedmodel", name),
    )


#: Keras 2's HDF5 loader, which Keras 2.8-2.11 hand every file that is no directory
#: (keras/saving/save.py, legacy/save.py from 2.11; up to 2.7 only a file h5py.is_hdf5 takes
#: for HDF5, the rest going to the SavedModel loader: keras-zip-read-as-savedmodel), and
#: TensorFlow's own copy: keras/saving/hdf5_format.py, keras/saving/legacy/hdf5_format.py,
#: tensorflow/python/keras/saving/hdf5_format.py.
#: https://github.com/keras-team/keras/blob/v2.11.0/keras/saving/legacy/save.py
_KERAS2_HDF5_LOADER = re.compile(r"keras[/\\]saving[/\\](?:legacy[/\\])?hdf5_format\.py$")
#: A `.keras` path in quotes, as the calling code or the message names it.
_KERAS_PATH = re.compile(r"""['"][^'"\n]{0,300}\.keras['"]""")


def keras_zip_candidate(tracebacks: Sequence[Traceback], m: Machine) -> Optional[Finding]:
    """The last exception: h5py finding no HDF5 signature in a `.keras` path that Keras 2's
    HDF5 loader opened: the zip archive Keras 2.13 and later write, loaded by a Keras before
    2.12 (a warning: the path is read from the code, which may name another file)."""
    tb = last_failure(tracebacks)
    if tb is None or "file signature not found" not in tb.message:
        return None
    # Keras 2.13 on read the zip: a .keras file their HDF5 loader refuses is none.
    if not any(
        _KERAS2_HDF5_LOADER.search(f.path) or _keras_filtered(f, src=False) for f in tb.frames
    ):
        return None
    if not any(_KERAS_PATH.search(f.code) for f in tb.frames) and not _KERAS_PATH.search(
        tb.message
    ):
        return None
    cause = causes.software.MODEL_FROM_NEWER_KERAS
    return causes.finding(
        f"explain.{cause}",
        Severity.WARNING,
        cause,
        "Keras 2's HDF5 loader found no HDF5 file at a `.keras` path: likely the zip of a "
        "newer Keras",
        f"{tb.where}: {tb.type}: {tb.message}\nKeras before 2.12 reads a `.keras` file as "
        "HDF5; Keras 2.13 and later, and Keras 3, write it as a zip archive, which h5py finds "
        "no HDF5 signature in.",
        causes.software.newer_keras_model_fix("keras-zip", os_name=m.os),
    )


#: A Keras object's attribute missing as TensorFlow's private copy of Keras 2 reads it. The two
#: Keras generations share class names, not fields: Keras 2's KerasHistory is (layer,
#: node_index, tensor_index) (tensorflow/python/keras/engine/node.py), Keras 3's is (operation,
#: node_index, tensor_index) (keras-team/keras, keras/src/ops/node.py).
#: TensorFlow's private Keras 2 copy, still in its wheels after tf.keras became Keras 3.
_LEGACY_COPY = re.compile(r"tensorflow[/\\]python[/\\]keras[/\\]")


def legacy_copy_candidate(tracebacks: Sequence[Traceback], m: Machine) -> Optional[Finding]:
    """The last exception, raised in TensorFlow's private copy of Keras 2
    (``tensorflow/python/keras/``) about a Keras object's missing attribute, where tf.keras is
    Keras 3 (:func:`tf_keras_generation`: the Keras, TensorFlow or Python the log shows): code
    that builds with ``tensorflow.python.keras`` was handed Keras 3's objects. A warning: the
    log shows where the objects met, not which import made them."""
    tb = last_failure(tracebacks)
    if tb is None:
        return None
    lacks = tb.missing_attribute
    if lacks is None or lacks.kind != "object" or not re.match(r"Keras\w", lacks.owner):
        return None  # no Keras object's words ('KerasTensor' object has no attribute ...)
    if not tb.frames or _LEGACY_COPY.search(tb.frames[-1].path) is None:
        return None
    major, basis = tf_keras_generation(m)
    if major != 3:
        return None  # tf.keras may be Keras 2 here: the two copies are of one generation
    return causes.finding(
        f"explain.{causes.code.KERAS3_BEHAVIOUR_CHANGE}",
        Severity.WARNING,
        causes.code.KERAS3_BEHAVIOUR_CHANGE,
        f"Keras 3's {lacks.owner} reached TensorFlow's private copy of Keras 2",
        f"{tb.where}: {tb.type}: {tb.message}\nRaised in {tb.frames[-1].path}, TensorFlow's "
        f"private copy of Keras 2 (tensorflow.python.keras), and tf.keras is Keras 3 here "
        f"({basis}): the Keras 2 copy reads {lacks.name} from a "
        f"{lacks.owner} that Keras 3 made, which Keras 3's {lacks.owner} does "
        "not have. Code that imports tensorflow.python.keras (its own or a package's) and "
        "mixes it with tf.keras or keras breaks so from TensorFlow 2.16 on.",
        Fix(
            "Build the model with one Keras: replace the imports of tensorflow.python.keras "
            "(the command lists them in the project) with tf.keras or keras; where a package "
            "in the frames imports it, install its release written for Keras 3.",
            ('grep -rn "tensorflow.python.keras" --include=*.py .',),
        ),
    )
