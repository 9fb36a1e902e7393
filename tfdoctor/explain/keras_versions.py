"""Which Keras ran, read from a traceback's frames, and what the frames say when that Keras
and the TensorFlow beside it (or the code that calls it) are of different releases.

The frames name the Keras: ``keras/src/`` is Keras 3 (or 2.13-2.15), ``keras/engine/`` Keras
2, ``keras/backend/tensorflow_backend.py`` multi-backend Keras 2.0-2.3, ``tf_keras/`` tf-keras
and ``tensorflow/python/keras/`` TensorFlow's own copy (:func:`keras_era`). A Keras frame that
asks TensorFlow for a name TensorFlow lacks is a Keras of another release than TensorFlow; an
optimizer argument an older Keras refuses is code written for a newer Keras.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.pip import PipKind, read_pip_line
from tfdoctor.evidence.pyerrors import name_asked
from tfdoctor.evidence.traceback import Frame, Traceback, failures, keras_importer, origin_of
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.keras_api import keras_api
from tfdoctor.machine import Machine
from tfdoctor.matrix import spec_contains, version_key
from tfdoctor.scan.api import release_has

#: The Keras distributions whose frames a Keras era is read from (TensorFlow's own copy of
#: Keras is TensorFlow's: its frames asking TensorFlow for a name are an install's own fault).
_KERAS_DISTS = frozenset({"keras", "tf-keras"})

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
_TF_TREE = re.compile(r"^(?:tensorflow|tensorflow_core)(?:\.|$)")
#: A keyword TensorFlow's function does not take, passed by the frame's code (``tf.x(...)``).
_TF_KEYWORD = re.compile(r"(?P<func>\w+)\(\) got an unexpected keyword argument '(?P<arg>\w+)'")


def _tensorflow_lacks(tb: Traceback, frame: Frame) -> str:
    """What ``tb`` says TensorFlow lacks, as ``module.name`` (or ``func(arg=)``), where the
    Keras ``frame`` asked for it; empty where the message is about something else."""
    asked = name_asked(tb.message)
    if asked is not None and _TF_TREE.match(asked.module) is not None:
        # The evidence layer's reading of Python's words (an attribute, an import's name, a
        # submodule: its whole dotted name, as Python printed it).
        return f"{asked.module}.{asked.name}"
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


def keras_asks_tensorflow(tb: Traceback) -> Optional[tuple[Frame, str]]:
    """The Keras frame (the standalone keras package or tf-keras) that asked TensorFlow for
    what ``tb`` says it lacks, with what it asked (``module.name``, or ``func(arg=...)``);
    None where the asking code is anyone else's or the message is about something else."""
    if not tb.frames:
        return None
    frame = _keras_frame(tb)
    if frame is None:
        return None
    asked = _tensorflow_lacks(tb, frame)
    return (frame, asked) if asked else None


def keras_tensorflow_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """A Keras frame (the standalone keras package or tf-keras) asking TensorFlow for a name,
    module or keyword the installed TensorFlow lacks: that Keras was released for another
    TensorFlow. The frame names the Keras (:func:`keras_era`); the fix installs the Keras of
    the TensorFlow's line (tf-keras of its minor for tf-keras)."""
    for tb in tracebacks:
        if tb.ignored:
            continue
        found = keras_asks_tensorflow(tb)
        if found is None:
            continue
        frame, asked = found
        if _shown_tf_lists(m, asked):
            continue  # the log's TensorFlow has the name: no release pairing explains it
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


def _shown_tf_lists(m: Machine, asked: str) -> bool:
    """Whether the listing of the TensorFlow line the log shows has what a Keras frame asked
    for (``module.name``, by its public name: ``tensorflow.compat.v2.__internal__.tf2`` is
    ``tf.__internal__.tf2``); False for a keyword, a private module, or no release shown."""
    from tfdoctor.scan.knowledge import tf_public_name  # noqa: PLC0415 - scan loads on demand

    module, _, name = asked.rpartition(".")
    api = tf_public_name(module) if module and "(" not in asked else None
    if api is None:
        return False  # TensorFlow's private tree is in no listing
    return release_has(m.tf.version if m.tf is not None else None, f"{api}.{name}")


#: Standalone Keras' optimizers before 2.3 refuse any keyword but their own and clipnorm and
#: clipvalue (keras-team/keras 2.2.5 keras/optimizers.py, Optimizer.__init__: "Unexpected
#: keyword argument passed to optimizer: "); TensorFlow's copy of those optimizers words it
#: the same (tensorflow/python/keras/optimizers.py, later optimizer_v1.py).
_OPTIMIZER_REFUSAL = re.compile(r"Unexpected keyword argument passed to optimizer: (?P<arg>\w+)")
#: A frame that rebuilds an optimizer from a saved configuration: the keyword came from a
#: file, not the code (a model saved by a newer Keras, another cause).
_FROM_SAVED = re.compile(r"from_config|deserializ|load_model|model_from")


def keras_argument_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """A standalone Keras optimizer refusing a keyword that a later Keras release brought
    (data/keras_api.yaml's optimizer_arguments), passed by the code: the code was written for
    a newer Keras than the one installed. Not where TensorFlow's own copy raised it (its own
    releases) or a saved configuration supplied the keyword."""
    for tb in tracebacks:
        match = _OPTIMIZER_REFUSAL.search(tb.message)
        if match is None or tb.ignored:
            continue
        release = keras_api().optimizer_arguments.get(match.group("arg"))
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
                causes.software.keras_release_fix(m, release, f"it takes `{argument}`"),
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
    if not failures(tracebacks):
        return []  # no failure: the pair alone is for `tfdoctor check` to judge
    off = _keras_off(m, keras.version)
    if off is None:
        return []
    return [
        causes.finding(
            f"explain.{causes.software.KERAS_VERSION}",
            Severity.WARNING,
            causes.software.KERAS_VERSION,
            f"keras {keras.version} is shown beside TensorFlow {m.tf.version}, which it does "
            "not go with",
            f"The log shows keras {keras.version} installed beside {off}. A Keras of another "
            "release than TensorFlow fails at `import keras` or on TensorFlow's internals.",
            causes.software.keras_match_fix(m),
        )
    ]


def keras_tensor_attribute_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """A tensor asked for an attribute only multi-backend Keras set on its tensors
    (data/keras_api.yaml's multi_backend_tensor_attributes, with their sources): the code (or
    a library's) was written for standalone Keras 2.0-2.3 and runs under tf.keras or a Keras
    from 2.4 on."""
    for tb in tracebacks:
        lacks = tb.missing_attribute
        if lacks is None or lacks.kind != "object" or "Tensor" not in lacks.owner or tb.ignored:
            continue  # no tensor's words ('Tensor' object has no attribute ...)
        attribute = lacks.name
        release = keras_api().tensor_attributes.get(attribute)
        if release is None:
            continue
        return [
            causes.finding(
                f"explain.{causes.software.KERAS_VERSION}",
                Severity.ERROR,
                causes.software.KERAS_VERSION,
                f"The code reads `{attribute}`, which only multi-backend Keras (2.0 to "
                f"{release}) sets on tensors",
                f"{tb.where}: {tb.type}: {tb.message}\nMulti-backend Keras (keras 2.0 to "
                f"{release}) set `{attribute}` on every tensor it made; tf.keras and keras 2.4 "
                "on, a layer over tf.keras, never do. The code was written for that older "
                "Keras and runs under another.",
                causes.software.keras_release_fix(
                    m,
                    release,
                    f"its tensors carry `{attribute}`; `K.int_shape(x)` reads the "
                    "shape under every Keras",
                ),
            )
        ]
    return []


#: A keras release named in a user's words (``keras 2.1.5``, ``Keras==2.2.4``, ``keras
#: version 2.3.1``, ``keras v2.4``, ``keras to 2.1.5``).
_KERAS_NAMED = re.compile(
    r"(?i)(?<![\w.-])keras(?![\w-])"
    r"(?:[ \t]+(?:to|version)[ \t:]*v?|[ \t]*(?:==|=|:)[ \t]*|[ \t]+v?|v(?=\d))"
    r"(?P<version>\d+\.\d+(?:\.\d+)?)\b"
)
#: Words that make the named release a remedy: moving Keras to it.
_MOVED_TO = re.compile(r"(?i)\b(?:downgrad|upgrad|revert|roll\w*\s+back|pin|install)\w*\b")
#: Words that say something failed (a user's account, without the program's own lines).
_FAILED_WORDS = re.compile(
    r"(?i)\berror\b|\bfail|\bcomplain|\bcould ?n[o']t\b|\bcannot\b|\bcan't\b|\bbroke|"
    r"\bdoes ?n[o']t work|\bnot work"
)


#: pip's own lines, which name releases as pip reads them, not as the user tells them: what it
#: collected, found or installed, and its conflict notices (its refusals quote the request).
_PIP_OWN = frozenset(
    {
        PipKind.RESOLVER_NOTE,
        PipKind.CANNOT_INSTALL,
        PipKind.RESOLUTION_IMPOSSIBLE,
        PipKind.SATISFIED,
        PipKind.UP_TO_DATE,
        PipKind.INSTALLED,
        PipKind.COLLECTING,
        PipKind.DOWNLOADING,
        PipKind.INSTALLING,
        PipKind.ATTEMPTING_UNINSTALL,
        PipKind.FOUND_EXISTING,
        PipKind.CONFLICT,
    }
)


def _pip_own(line: str) -> bool:
    """Whether pip printed ``line`` as one of :data:`_PIP_OWN`."""
    said = read_pip_line(line)
    return said is not None and said.kind in _PIP_OWN


def keras_release_in_words(text: str, m: Machine) -> Optional[Finding]:
    """A Keras release in the user's words where nothing the program printed explains the
    failure the text tells of: named as the release to move Keras to (``downgrade it to keras
    2.1.5``), or named beside a TensorFlow release it does not go with (TensorFlow's declared
    keras range, else the companion table's standalone_keras row). A warning: the words say
    which Keras, not that it is what failed."""
    # The user's words only: pip's own lines (its conflict notices name the pair and have
    # their own reading, a note where the projects say the pair works).
    text = "\n".join(line for line in text.splitlines() if not _pip_own(line))
    if not text or _FAILED_WORDS.search(text) is None:
        return None
    for match in _KERAS_NAMED.finditer(text):
        version = match.group("version")
        start = text.rfind("\n", 0, match.start()) + 1
        before = text[max(start, match.start() - 80) : match.start()]
        said = text[start : text.find("\n", match.end()) % (len(text) + 1)].strip()
        if _MOVED_TO.search(before) is not None:
            why = (
                f"The text names keras {version} as the release to move Keras to (`{said}`): "
                "the Keras installed is of another release than the code or TensorFlow needs."
            )
        else:
            off = _keras_off(m, version)
            if off is None:
                continue
            why = f"The text names keras {version} (`{said}`) beside {off}."
        matched = causes.software.keras_match_fix(m)
        return causes.finding(
            f"explain.{causes.software.KERAS_VERSION}",
            Severity.WARNING,
            causes.software.KERAS_VERSION,
            f"A Keras of another release than the code or TensorFlow (keras {version}, the "
            "user's words)",
            why + " No line the program printed says more; `pip show tensorflow keras` "
            "shows the pair installed.",
            Fix(
                f"Check which Keras the code and TensorFlow need (the text names keras "
                f"{version}). {matched.text}",
                matched.commands,
            ),
        )
    return None


def _keras_off(m: Machine, version: str) -> Optional[str]:
    """How keras ``version`` does not go with the TensorFlow the log shows, in words: outside
    TensorFlow's declared keras range, or a standalone Keras whose companion-table row asks
    for another TensorFlow; None where it goes with it or nothing says."""
    if m.tf is None:
        return None
    declared = m.declared_range("keras")
    if declared:
        if spec_contains(version, declared) is not False:
            return None
        return f"TensorFlow {m.tf.version}, which declares keras{declared}"
    table = m.companion_table.standalone_keras
    own = table.row_of(version) if table is not None else None
    if own is None:
        return _keras_of_other_lines(m, version)
    if own.admits(m.tf.version):
        return None
    return (
        f"TensorFlow {m.tf.version}, and keras {own.release} works with tensorflow{own.tensorflow}"
    )


def _keras_of_other_lines(m: Machine, version: str) -> Optional[str]:
    """How keras ``version`` is of other TensorFlow lines than the installed one, which pins
    no keras (TensorFlow 2.5 and older): the matrix's lines whose keras pin holds it (each
    TensorFlow from 2.6 on requires the keras of its own line, and the matrix records that
    requirement). None where no line's pin holds it, or the installed line's does."""
    if m.tf is None or m.matrix is None:
        return None
    lines = [
        line.line
        for line in m.matrix.lines
        if line.pins.keras and spec_contains(version, line.pins.keras)
    ]
    if not lines or (m.line is not None and m.line.line in lines):
        return None
    lines.sort(key=version_key)
    if len(lines) == 1:
        return (
            f"TensorFlow {m.tf.version}, and keras {version} is the keras of TensorFlow "
            f"{lines[0]} (the release its wheel requires)"
        )
    return (
        f"TensorFlow {m.tf.version}, and keras {version} is the keras of TensorFlow "
        f"{lines[0]} to {lines[-1]} (a release their wheels require)"
    )


#: Multi-backend Keras' import banner (keras/backend/__init__.py to 2.2, load_backend.py in
#: 2.3: ``sys.stderr.write('Using TensorFlow backend.\n')``), alone on its line.
_BANNER = re.compile(r"^Using TensorFlow backend\.?[ \t]*\r?$", re.MULTILINE)
#: Multi-backend Keras' own backend files, as a frame's module names them.
_MULTI_BACKEND_MODULES = ("keras.backend.tensorflow_backend", "keras.backend.load_backend")


def multi_backend_keras_finding(
    text: str, tracebacks: Sequence[Traceback], m: Machine
) -> Optional[Finding]:
    """Multi-backend Keras (2.0 to 2.3: a frame of its backend files, or its import banner)
    beside a TensorFlow that no multi-backend release works with (the companion table's
    standalone_keras rows), where the log shows a failure: that Keras is of another release
    than the TensorFlow, whatever the exception says. An error where the failing traceback
    runs through its backend, else a warning."""
    table = m.companion_table.standalone_keras
    if m.tf is None or table is None:
        return None
    failed = failures(tracebacks)
    if not failed:
        return None
    # The last standalone Keras with its own backends: data/keras_api.yaml, with its source.
    last = version_key(keras_api().multi_backend_last)[:2]
    rows = [r for r in table.releases if version_key(r.release)[:2] <= last]
    if not rows or any(r.admits(m.tf.version) for r in rows):
        return None
    framed = next(
        (
            f
            for tb in failed
            for f in tb.frames
            if origin_of(f.path).module in _MULTI_BACKEND_MODULES and origin_of(f.path).installed
        ),
        None,
    )
    if framed is None and _BANNER.search(text) is None:
        return None
    shown = (
        f"its frame {framed.path}"
        if framed is not None
        else "its banner 'Using TensorFlow backend.'"
    )
    ranges = ", ".join(f"keras {r.release}: tensorflow{r.tensorflow}" for r in rows)
    return causes.finding(
        f"explain.{causes.software.KERAS_VERSION}",
        Severity.ERROR if framed is not None else Severity.WARNING,
        causes.software.KERAS_VERSION,
        f"Multi-backend Keras (2.0 to 2.3) runs beside TensorFlow {m.tf.version}, which no "
        "release of it works with",
        f"The log shows multi-backend Keras ({shown}) and TensorFlow {m.tf.version}. Its "
        f"releases work with these TensorFlow releases only ({ranges}; the companion table), "
        "so the failure comes from a Keras of another release than the TensorFlow.",
        causes.software.keras_match_fix(m),
    )


#: Python refusing the arguments Keras passes an optimizer's get_updates: multi-backend Keras
#: before the release data/keras_api.yaml's get_updates_changed_in names (2.0.7, with its
#: source) calls ``get_updates(params, constraints, loss)``, that release on
#: ``get_updates(loss, params)``. One argument too many: an older Keras calling code written
#: for the newer call; one too few: the reverse.
_GET_UPDATES = re.compile(
    r"get_updates\(\) (?:takes (?:exactly )?(?P<takes>\d) (?:positional )?arguments? "
    r"(?:\((?P<given>\d) given\)|but (?P<given3>\d) were given)"
    r"|missing (?P<missing>\d) required positional arguments?)"
)


def keras_get_updates_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """A custom optimizer whose get_updates takes the other multi-backend Keras signature
    than the installed Keras calls it with (:data:`_GET_UPDATES`): the code and the Keras are
    of releases on either side of the change (data/keras_api.yaml's get_updates_changed_in).
    Keras' own frames or none; not a frame of TensorFlow's own copy."""
    for tb in tracebacks:
        match = _GET_UPDATES.search(tb.message)
        if match is None or tb.ignored or tb.type != "TypeError":
            continue
        if any(origin_of(f.path).dist == "tensorflow" for f in tb.frames):
            continue
        given = match.group("given") or match.group("given3")
        newer_code = given is not None and int(given) > int(match.group("takes"))
        matched = causes.software.keras_match_fix(m)
        changed = keras_api().get_updates_changed_in
        if newer_code:
            said = (
                f"The code's optimizer defines get_updates(loss, params), the signature Keras "
                f"{changed} brought, and the installed Keras is older: it calls "
                "get_updates(params, constraints, loss)."
            )
            fix = Fix(
                f"Install keras {changed} or later, in step with the TensorFlow "
                f"beside it. {matched.text}",
                matched.commands,
            )
        else:
            said = (
                "The code's optimizer defines get_updates(params, constraints, loss), the "
                f"signature of Keras before {changed}, and the installed Keras "
                "calls get_updates(loss, params)."
            )
            fix = Fix(
                "Define the optimizer's method as get_updates(self, loss, params) (the "
                f"signature of Keras {changed} on), or run the code with the Keras "
                "release it was written for (its requirements name it).",
                m.pip("show keras"),
            )
        return [
            causes.finding(
                f"explain.{causes.software.KERAS_VERSION}",
                Severity.ERROR,
                causes.software.KERAS_VERSION,
                "An optimizer's get_updates written for another Keras release than the one "
                "installed",
                f"{tb.where}: {tb.type}: {tb.message}\n{said}",
                fix,
            )
        ]
    return []


#: A method Python names with its class (Python 3.10 on: ``RandomForestClassifier.fit()``).
_TRAINING_KEYWORD = re.compile(
    r"(?:\b(?P<owner>\w+)\.)?"
    r"\b(?P<func>fit|fit_generator|evaluate_generator|predict_generator|evaluate|predict)\(\) "
    r"got an unexpected keyword argument '(?P<arg>\w+)'"
)


def _keras_1_shown(tb: Traceback, m: Machine) -> bool:
    """Whether the log shows Keras 1 ran: keras 1.x listed, or a frame of the standalone keras
    package in ``tb`` where no listing names a Keras 2 or later."""
    keras = m.facts.package("keras")
    if keras is not None and keras.version:
        return version_key(keras.version)[:1] == (1,)
    return any(origin_of(f.path).dist == "keras" and origin_of(f.path).installed for f in tb.frames)


def keras_training_argument_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """A model's training method refusing an argument of the other side of Keras 2.0's
    renames (data/keras_api.yaml's keras2_renamed, with their sources): a Keras 1 name
    refused is Keras 1 code under a later Keras; a Keras 2 name refused is Keras 2 code under
    Keras 1."""
    renamed = keras_api().keras2_renamed
    old_of = {new.renamed_to: old for old, new in renamed.items()}
    for tb in tracebacks:
        match = _TRAINING_KEYWORD.search(tb.message)
        if match is None or tb.ignored or tb.type != "TypeError":
            continue
        func, argument = match.group("func"), match.group("arg")
        if argument in renamed:
            newer = renamed[argument].renamed_to
            said = (
                f"`{argument}` is Keras 1's name, which Keras 2.0 renamed `{newer}`: the code "
                "was written for Keras 1 and runs under a later Keras."
            )
            counted = (
                f" `{newer}` counts batches where `{argument}` counted samples: pass the old "
                "value divided by the batch size (the generator's batches per epoch), not the "
                "same number."
                if renamed[argument].counts_batches
                else ""
            )
            fix = Fix(
                f"Pass `{newer}=` where the code passes `{argument}=` to {func}() (Keras 2.0's "
                f"rename; the Keras that raised this takes only the new name).{counted}",
                (f'grep -rn "{argument}" --include=*.py .',),
            )
        elif argument in old_of:
            # Keras 1 runs on no Python that names a method with its class (3.10 on), and
            # `epochs` or `steps` refused is as often another library's fit (scikit-learn's,
            # XGBoost's): the Keras 1 reading needs the log to show Keras 1.
            if match.group("owner") or not _keras_1_shown(tb, m):
                continue
            said = (
                f"`{argument}` is Keras 2's name for Keras 1's `{old_of[argument]}`: the code "
                "was written for Keras 2 and the installed Keras is 1.x."
            )
            matched = causes.software.keras_match_fix(m)
            fix = Fix(
                f"Install Keras 2, in step with the TensorFlow beside it. {matched.text}",
                matched.commands,
            )
        else:
            continue
        return [
            causes.finding(
                f"explain.{causes.software.KERAS_VERSION}",
                Severity.ERROR,
                causes.software.KERAS_VERSION,
                f"{func}() refuses `{argument}`: code and Keras on either side of Keras 2.0's "
                "renames",
                f"{tb.where}: {tb.type}: {tb.message}\n{said}",
                fix,
            )
        ]
    return []


#: A line of Keras' progress bar (Progbar.update, verbose=1: ``1875/1875 [====] - 3s ...``,
#: Keras 3's ``469/469 ━━━━ 2s ...``; verbose=2: ``1875/1875 - 3s - ...``, multi-backend
#: Keras' `` - 4s - ...``), with a loss logged on it: `` - name: value`` for each value.
_PROGRESS_LINE = re.compile(
    r"^[ \t]*(?:\d+/\d+ (?:\[[=>.]*\]|━+| - \d+m?s)| - \d+s - )(?=[^\n]*\bloss: [-\d.])[^\n]*",
    re.MULTILINE,
)
#: The accuracy among a progress bar line's values: the name Keras logs it under (``acc``,
#: ``val_acc``; or ``accuracy``, ``val_accuracy``).
_LOGGED = re.compile(r" - (?P<val>val_)?(?P<name>acc|accuracy): [-\d.na]")
#: Keras' callbacks naming a monitored value the logs lack, with the names they hold:
#: EarlyStopping's get_monitor_value ("Early stopping conditioned on metric `%s` which is not
#: available. Available metrics are: %s") and ReduceLROnPlateau's on_epoch_end ("Learning rate
#: reduction is conditioned on metric `%s` which is not available. ..."), keras/callbacks.py
#: of multi-backend Keras, tf.keras and Keras 3 alike.
_UNAVAILABLE = re.compile(
    r"conditioned on metric `(?P<val>val_)?(?P<asked>acc|accuracy)` which is not available\. "
    r"Available metrics are: (?P<names>[\w,]+)"
)
#: Other words for the code asking the accuracy by a name the logs lack: ModelCheckpoint's
#: ("Can save best model only with %s available, skipping.") and a value the code read as
#: None printed alone on its line or right after a progress bar's value (``logs.get('accuracy')``
#: printed after the bar's carriage return).
_ASKED = re.compile(
    r"Can save best model only with (?P<sval>val_)?(?P<saved>acc|accuracy) available"
    r"|(?:^|(?<=\d))(?P<nval>val_)?(?P<none>acc|accuracy)(?:'\])?: None[ \t]*\r?$",
    re.MULTILINE,
)
#: A KeyError's message naming the accuracy (``history.history['val_acc']``).
_KEY = re.compile(r"^'(?P<val>val_)?(?P<key>acc|accuracy)'$")


@dataclasses.dataclass(frozen=True)
class _Mismatch:
    """The accuracy asked by one name where Keras logs it under the other."""

    #: The name the code asks and the one Keras logs: ``acc`` or ``accuracy``, never the same.
    asked: str
    logged: str
    #: What the log shows of it, in words.
    shown: str


def _mismatch(text: str, tracebacks: Sequence[Traceback]) -> Optional[_Mismatch]:
    """The code asking the accuracy by the other name than Keras logs it under, where the log
    shows one name of each; None where a validation value is asked and the log shows none
    logged (no validation data: neither name would be there)."""
    # The asking words first, each behind a plain substring test: the progress bar's pattern
    # runs over the whole log only where the code asked a name at all (explain's hot path).
    unavailable = _UNAVAILABLE.search(text) if "conditioned on metric" in text else None
    if unavailable is not None:
        listed = unavailable["names"].split(",")
        logged = {n.removeprefix("val_") for n in listed} & {"acc", "accuracy"}
        has_val = any(n.startswith("val_") for n in listed)
        asked = {(bool(unavailable["val"]), unavailable["asked"])}
    else:
        asked = (
            {(bool(x["sval"] or x["nval"]), x["saved"] or x["none"]) for x in _ASKED.finditer(text)}
            if "Can save best model only with" in text or ": None" in text
            else set()
        )
        asked |= {
            (bool(key["val"]), key["key"])
            for tb in tracebacks
            if tb.type == "KeyError" and (key := _KEY.match(tb.message)) is not None
        }
        if not asked:
            return None
        found = [x for line in _PROGRESS_LINE.finditer(text) for x in _LOGGED.finditer(line[0])]
        logged = {x["name"] for x in found}
        has_val = any(x["val"] for x in found)
    names = {name for _, name in asked}
    if len(logged) != 1 or len(names) != 1 or logged == names:
        return None
    if any(val for val, _ in asked) and not has_val:
        return None
    (name,) = names
    (kept,) = logged
    shown = (
        f"Keras' callback says the logs have no `{unavailable['val'] or ''}{name}`: they hold "
        f"{unavailable['names']}."
        if unavailable is not None
        else f"Keras' progress bar logs the accuracy as {kept} (val_{kept}), and the code asks "
        f"for {name}."
    )
    return _Mismatch(name, kept, shown)


def _before_tf2_served(m: Machine, tf_line: str) -> bool:
    """Whether a TensorFlow of the major before ``tf_line``'s (1.x before 2.0) can have run:
    the log shows no Python, or one such a release published wheels for, as the matrix says
    (:meth:`tfdoctor.matrix.Matrix.newest_release_with_wheels`: TensorFlow 1.x had none for
    3.8 on, and Python 2.7's up to 1.15.0)."""
    python = m.python_version
    if python is None or m.matrix is None:
        return True
    major = str(version_key(tf_line)[0] - 1)
    return m.matrix.newest_release_with_wheels(python, within=major) is not None


def _metric_finding(cause: causes.CauseId, summary: str, detail: str, fix: str) -> Finding:
    """A warning of :func:`metric_name_finding`'s: its cause, its words and its fix's, with
    the sources of data/keras_api.yaml's metric-name releases."""
    return causes.finding(
        f"explain.{cause}",
        Severity.WARNING,
        cause,
        summary,
        detail,
        Fix(fix, ()),
        keras_api().metric_names_links,
    )


def metric_name_finding(
    text: str, tracebacks: Sequence[Traceback], m: Machine
) -> Optional[Finding]:
    """The code reading the accuracy under the other name than the one this run logs it
    under. Keras before the releases data/keras_api.yaml's metric_names_kept_in names
    (standalone Keras 2.3, tf.keras of TensorFlow 2, with TensorFlow 2 behaviour on) logs
    metrics=['accuracy'] as ``acc``; those releases log the name given to compile, so
    metrics=['acc'] is ``acc`` on every release. Code asking ``acc`` of a run logging
    ``accuracy`` was written for the earlier releases (api-default-changed). Code asking
    ``accuracy`` of a run logging ``acc``: an older release only where the log shows one; the
    candidates by name otherwise (the older release where one can have run, metrics=['acc'],
    TensorFlow 2 behaviour switched off); nothing where only metrics=['acc'] is left."""
    found = _mismatch(text, tracebacks)
    if found is None:
        return None
    table = keras_api()
    keras, tf_line = table.metric_names_kept_in, table.tf_metric_names_kept_in
    if found.logged == "accuracy":
        return _metric_finding(
            causes.code.API_DEFAULT_CHANGED,
            "The code reads the accuracy as 'acc': the installed Keras logs it as 'accuracy', "
            "the name given to compile",
            f"{found.shown} tf.keras before TensorFlow {tf_line} (or with its TensorFlow 1 "
            f"behaviour) and Keras before {keras} logged metrics=['accuracy'] as acc and "
            f"val_acc; tf.keras from TensorFlow {tf_line} and Keras {keras} on log the name "
            "given to compile: the code was written for the earlier releases.",
            "Read the accuracy as the installed Keras logs it (logs.get('accuracy'), "
            "history.history['val_accuracy'], monitor='val_accuracy'), or compile with "
            "metrics=['acc'] so that it is logged as acc and val_acc.",
        )
    read = (
        "Read the name this run logs in the code (logs.get('acc'), history.history['val_acc'], "
        "monitor='val_acc')"
    )
    as_given = "compile with metrics=['accuracy'] where the code passes metrics=['acc']"
    v2_off = "remove a tf.compat.v1.disable_v2_behavior() call where the code makes one"
    if _BANNER.search(text) is not None:
        # Multi-backend Keras' banner: the standalone keras package logged it, not tf.keras.
        listed = m.facts.package("keras")
        version = listed.version if listed is not None and listed.version else None
        if version is not None and version_key(version) >= version_key(keras):
            return None  # it logs the name given to compile: metrics=['acc'] is all that is left
        older = f"multi-backend keras before {keras} logs metrics=['accuracy'] as acc"
        upgrade = (
            f"or, where the code compiles with metrics=['accuracy'], upgrade keras to {keras}.0 "
            "or later"
        )
        if version is not None:
            return _metric_finding(
                causes.code.DEPENDENCY_TOO_OLD_FOR_CODE,
                f"keras {version} logs the accuracy as 'acc': the code reads 'accuracy', the "
                f"name keras {keras} and later log it under",
                f"{found.shown} The log shows multi-backend Keras ('Using TensorFlow "
                f"backend.') {version}: {older} and val_acc; {keras} logs the name given to "
                "compile: the code was written for that release or tf.keras.",
                f"{read}, {upgrade}.",
            )
        return _metric_finding(
            causes.code.DEPENDENCY_TOO_OLD_FOR_CODE,
            "This run logs the accuracy as 'acc', the code reads 'accuracy': a keras older than "
            "the code, or the code's compile",
            f"{found.shown} The log shows multi-backend Keras ('Using TensorFlow backend.'), "
            f"not which release: {older}, and every release logs metrics=['acc'] as acc.",
            f"{read}, {upgrade}, or {as_given}.",
        )
    older = f"tf.keras before TensorFlow {tf_line} logs metrics=['accuracy'] as acc"
    upgrade = (
        f"or, where the code compiles with metrics=['accuracy'], run it under TensorFlow "
        f"{tf_line} or later"
    )
    behaviour = (
        f"tf.keras of TensorFlow {tf_line} on logs it so too where TensorFlow 2 behaviour is "
        "off (tf.compat.v1.disable_v2_behavior()), and every release logs metrics=['acc'] as "
        "acc"
    )
    shown_tf = m.tf.version if m.tf is not None else None
    if shown_tf is not None and version_key(shown_tf) < version_key(tf_line):
        return _metric_finding(
            causes.code.TF_TOO_OLD_FOR_CODE,
            f"TensorFlow {shown_tf} logs the accuracy as 'acc': the code reads 'accuracy', the "
            f"name TensorFlow {tf_line} and later log it under",
            f"{found.shown} {older} and val_acc; tf.keras from TensorFlow {tf_line} (and Keras "
            f"{keras}) logs the name given to compile: the code was written for those.",
            f"{read}, {upgrade}.",
        )
    if shown_tf is not None or not _before_tf2_served(m, tf_line):
        ran = (
            f"TensorFlow {shown_tf}"
            if shown_tf is not None
            else f"a TensorFlow {tf_line} or later (the log's Python {m.python_version} has no "
            "earlier wheels)"
        )
        return _metric_finding(
            causes.code.API_DEFAULT_CHANGED,
            "This run logs the accuracy as 'acc', the code reads 'accuracy': the code turns "
            "TensorFlow 2 behaviour off or compiles with metrics=['acc']",
            f"{found.shown} The log shows {ran}, which logs the name given to compile: "
            f"{behaviour}.",
            f"{read}, or {v2_off}, or {as_given}.",
        )
    return _metric_finding(
        causes.code.TF_TOO_OLD_FOR_CODE,
        "This run logs the accuracy as 'acc', the code reads 'accuracy': a TensorFlow older "
        "than the code, or the code's compile or TensorFlow 1 behaviour",
        f"{found.shown} The log does not show which TensorFlow ran: {older}; {behaviour}.",
        f"{read}, {upgrade}, or {v2_off}, or {as_given}.",
    )
