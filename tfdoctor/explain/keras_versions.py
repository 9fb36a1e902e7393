"""Which Keras ran, read from a traceback's frames, and what the frames say when that Keras
and the TensorFlow beside it (or the code that calls it) are of different releases.

The frames name the Keras: ``keras/src/`` is Keras 3 (or 2.13-2.15), ``keras/engine/`` Keras
2, ``keras/backend/tensorflow_backend.py`` multi-backend Keras 2.0-2.3, ``tf_keras/`` tf-keras
and ``tensorflow/python/keras/`` TensorFlow's own copy (:func:`keras_era`). A Keras frame that
asks TensorFlow for a name TensorFlow lacks is a Keras of another release than TensorFlow; an
optimizer argument an older Keras refuses is code written for a newer Keras.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.traceback import Frame, Traceback, keras_importer, origin_of
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import spec_contains

#: The Keras distributions whose frames a Keras era is read from (TensorFlow's own copy of
#: Keras is TensorFlow's: its frames asking TensorFlow for a name are an install's own fault).
_KERAS_DISTS = frozenset({"keras", "tf-keras"})

#: Exceptions that say the program was stopped, not that it failed.
_STOPS = frozenset({"KeyboardInterrupt", "SystemExit"})

#: Frames that only re-raise what the code below them raised: Keras 3's and tf.keras'
#: traceback filter (keras/src/utils/traceback_utils.py, error_handler: ``raise
#: e.with_traceback(filtered_tb) from None``), which stands between Keras and the user's layer.
_RERAISE = re.compile(r"traceback_utils$|\.with_traceback\(")


def keras_era(frame: Frame) -> str:
    """Which Keras a frame's file belongs to, in words (the path it rests on is the frame's);
    empty for a file of no Keras."""
    origin = origin_of(frame.path)
    if origin.dist == "tf-keras":
        return "tf-keras (tf_keras/)"
    if origin.dist != "keras":
        if origin.module.startswith(("tensorflow.python.keras.", "tensorflow_core.python.keras.")):
            return "TensorFlow's own copy of Keras (tensorflow/python/keras/)"
        return ""
    if origin.module == "keras.backend.tensorflow_backend":
        # keras-team/keras 2.0.0 to 2.3.1 keras/backend/tensorflow_backend.py; 2.4.0 dropped the
        # multi-backend tree (https://github.com/keras-team/keras/releases/tag/2.4.0).
        return "multi-backend Keras 2.0-2.3 (keras/backend/tensorflow_backend.py)"
    if origin.generation == "Keras 3":
        return "Keras 3 (keras/src/)"
    if origin.generation == "Keras 2":
        return "Keras 2 (keras/engine/ and its kin)"
    return "the standalone keras package"


def _keras_frame(tb: Traceback) -> Optional[Frame]:
    """The innermost frame that is neither TensorFlow's own nor a re-raising filter, where it
    is a Keras distribution's (the standalone keras package or tf-keras): the Keras code that
    made the failing call. None where that frame is anyone else's."""
    for frame in reversed(tb.frames):
        if frame.path.startswith("<frozen "):
            continue  # importlib between the importer and the imported
        origin = origin_of(frame.path)
        if origin.dist == "tensorflow":
            continue  # the callee
        if _RERAISE.search(origin.module) or _RERAISE.search(frame.code):
            continue
        return frame if origin.dist in _KERAS_DISTS and origin.installed else None
    return None


#: TensorFlow lacking a name, as Python words it: an attribute of a module of TensorFlow's
#: (``tensorflow_core`` in 1.15 and 2.0), a name imported from one, or a submodule (never
#: ``tensorflow`` itself, which is TensorFlow not installed).
_TF_LACKS = re.compile(
    r"module '(?P<m1>(?:tensorflow|tensorflow_core)(?:\.[\w.]+)?)' has no attribute '(?P<n1>\w+)'"
    r"|cannot import name '(?P<n2>\w+)' from '(?P<m2>(?:tensorflow|tensorflow_core)(?:\.[\w.]+)?)'"
    r"|No module named '(?P<m3>(?:tensorflow|tensorflow_core)\.[\w.]+)'"
)
#: A keyword TensorFlow's function does not take, passed by the frame's code (``tf.x(...)``).
_TF_KEYWORD = re.compile(r"(?P<func>\w+)\(\) got an unexpected keyword argument '(?P<arg>\w+)'")


def _tensorflow_lacks(tb: Traceback, frame: Frame) -> str:
    """What ``tb`` says TensorFlow lacks, as ``module.name`` (or ``func(arg=)``), where the
    Keras ``frame`` asked for it; empty where the message is about something else."""
    match = _TF_LACKS.search(tb.message)
    if match is not None:
        module = match.group("m1") or match.group("m2") or match.group("m3")
        name = match.group("n1") or match.group("n2")
        return f"{module}.{name}" if name else module
    keyword = _TF_KEYWORD.search(tb.message)
    if keyword is None or tb.type != "TypeError":
        return ""
    # Python raises the TypeError in the caller's frame: the code shown must call the function
    # through a TensorFlow module (tf.x, tfnp.x, tf.experimental.numpy.x) for it to be
    # TensorFlow's.
    func = re.escape(keyword.group("func"))
    if re.search(rf"\b(?:tf|tf_?\w*|tensorflow)(?:\.\w+)*\.{func}\(", frame.code) is None:
        return ""
    return f"{keyword.group('func')}({keyword.group('arg')}=...)"


def keras_tensorflow_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """A Keras frame (the standalone keras package or tf-keras) asking TensorFlow for a name,
    module or keyword the installed TensorFlow lacks: that Keras was released for another
    TensorFlow. The frame names the Keras (:func:`keras_era`); the fix installs the Keras of
    the TensorFlow's line (tf-keras of its minor for tf-keras)."""
    for tb in tracebacks:
        if tb.ignored or not tb.frames:
            continue
        frame = _keras_frame(tb)
        if frame is None:
            continue
        asked = _tensorflow_lacks(tb, frame)
        if not asked:
            continue
        era = keras_era(frame)
        dist = origin_of(frame.path).dist
        cause = (
            causes.software.TF_KERAS_MISMATCH
            if dist == "tf-keras"
            else causes.software.KERAS_VERSION
        )
        # A library built on the standalone keras, where the frames show one: named in the fix.
        importer = keras_importer(tb)
        library = (importer.module, importer.dist) if importer is not None else ()
        fix = (
            causes.software.tf_keras_fix(m)
            if dist == "tf-keras"
            else causes.software.keras_match_fix(m, *library)
        )
        tf = f"TensorFlow {m.tf.version}" if m.tf is not None else "the installed TensorFlow"
        return [
            causes.finding(
                f"explain.{cause}",
                Severity.ERROR,
                cause,
                f"{dist} asks TensorFlow for {asked}, which {tf} does not have",
                f"{tb.where}: {tb.type}: {tb.message}\nThe call is {era}'s own: {frame.path}, "
                f"line {frame.line}. A Keras release is written against the TensorFlow "
                f"releases of its time, so a Keras that asks {tf} for what it lacks was "
                "released for another TensorFlow: Keras and TensorFlow are of different "
                "releases.",
                fix,
            )
        ]
    return []


#: Standalone Keras' optimizers before 2.3 refuse any keyword but their own and clipnorm and
#: clipvalue (keras-team/keras 2.2.5 keras/optimizers.py, Optimizer.__init__: "Unexpected
#: keyword argument passed to optimizer: "); TensorFlow's copy of those optimizers words it
#: the same (tensorflow/python/keras/optimizers.py, later optimizer_v1.py).
_OPTIMIZER_REFUSAL = re.compile(r"Unexpected keyword argument passed to optimizer: (?P<arg>\w+)")
#: Optimizer keywords by the standalone Keras release that brought them: Keras 2.3.0 renamed
#: ``lr`` to ``learning_rate`` in step with tf.keras
#: (https://github.com/keras-team/keras/releases/tag/2.3.0).
_OPTIMIZER_ARGUMENTS = {"learning_rate": "2.3"}
#: A frame that rebuilds an optimizer from a saved configuration: the keyword came from a
#: file, not the code (a model saved by a newer Keras, another cause).
_FROM_SAVED = re.compile(r"from_config|deserializ|load_model|model_from")


def keras_argument_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """A standalone Keras optimizer refusing a keyword that a later Keras release brought
    (:data:`_OPTIMIZER_ARGUMENTS`), passed by the code: the code was written for a newer Keras
    than the one installed. Not where TensorFlow's own copy raised it (its own releases) or a
    saved configuration supplied the keyword."""
    for tb in tracebacks:
        match = _OPTIMIZER_REFUSAL.search(tb.message)
        if match is None or tb.ignored:
            continue
        release = _OPTIMIZER_ARGUMENTS.get(match.group("arg"))
        if release is None:
            continue
        dists = {origin_of(f.path).dist for f in tb.frames}
        if "tensorflow" in dists and "keras" not in dists:
            continue  # TensorFlow's own Keras: the TensorFlow release is the one to change
        if any(_FROM_SAVED.search(f.function) for f in tb.frames):
            continue
        argument = match.group("arg")
        return [
            causes.finding(
                f"explain.{causes.software.KERAS_VERSION}",
                Severity.ERROR,
                causes.software.KERAS_VERSION,
                f"The code passes `{argument}`, which Keras takes from {release} on: the "
                "installed Keras is older than the code",
                f"{tb.where}: {tb.type}: {tb.message}\nStandalone Keras before {release} "
                f"refuses every optimizer keyword it does not know, and `{argument}` came "
                f"with Keras {release}: the code was written for a newer Keras than the one "
                "installed.",
                causes.software.keras_argument_fix(m, argument, release),
            )
        ]
    return []


def keras_listed_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """The keras release the log shows installed (a listing, pip's words) beside a TensorFlow
    it does not go with, where the log shows a failure: outside the keras range TensorFlow
    declares (its wheel's metadata, else the matrix's pin), or, for a TensorFlow that declares
    none, a standalone Keras whose companion-table row asks for another TensorFlow. A warning:
    the log shows the pair, not that it is what failed."""
    keras = m.facts.package("keras")
    if m.tf is None or keras is None or not keras.version:
        return []
    if not any(not tb.ignored and tb.name not in _STOPS for tb in tracebacks):
        return []  # no failure: the pair alone is for `tfdoctor check` to judge
    declared = m.declared_range("keras")
    table = m.companion_table.standalone_keras
    if declared:
        if spec_contains(keras.version, declared) is not False:
            return []
        needs, basis = declared, f"TensorFlow {m.tf.version} declares keras{declared}"
    else:
        own = table.row_of(keras.version) if table is not None else None
        if own is None or own.admits(m.tf.version):
            return []
        needs = own.tensorflow
        basis = (
            f"keras {own.release} declares no TensorFlow and works with tensorflow"
            f"{own.tensorflow} (the companion table: "
            + ", ".join(m.companion_urls("keras", own) or ("its release notes",))
            + ")"
        )
    return [
        causes.finding(
            f"explain.{causes.software.KERAS_VERSION}",
            Severity.WARNING,
            causes.software.KERAS_VERSION,
            f"keras {keras.version} is shown beside TensorFlow {m.tf.version}, which it does "
            "not go with",
            f"The log shows keras {keras.version} and TensorFlow {m.tf.version} installed "
            f"together: {basis}. A Keras of another release than TensorFlow fails at `import "
            f"keras` or on TensorFlow's internals (needs: {needs}).",
            causes.software.keras_match_fix(m),
        )
    ]
