"""Exceptions about a TensorFlow or Keras name, judged with scan's knowledge of that name.

``AttributeError: module 'tensorflow' has no attribute 'estimator'``, ``No module named
'tensorflow.contrib'``, ``cannot import name 'X' from 'keras.layers'``, ``got an unexpected
keyword argument 'lr'`` and Keras 3's ``Argument(s) not recognized: {'lr': ...}`` name an API
use; :class:`tfdoctor.scan.knowledge.ApiKnowledge` says what scan would say of that use in a
file: the same cause, words and fix.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Optional

from tfdoctor import causes
from tfdoctor.compat import first_keras3_line, keras3_serves_tf_keras
from tfdoctor.evidence.pyerrors import (
    MissingAttribute,
    NameAsked,
    imported_from,
    missing_attribute,
    missing_module,
    missing_name,
    name_asked,
    suggestion,
)
from tfdoctor.evidence.refusals import KEYWORD, MISSING, PYTHON, keras_layer_refusal, read_refusal
from tfdoctor.evidence.traceback import (
    Inferred,
    Traceback,
    imported_package,
    installed_package,
    keras_importer,
    keras_own_missing,
    library_dist,
    library_origins,
    origin_of,
    own_module_missing,
    path_hints,
    path_python,
    statement_package,
)
from tfdoctor.explain.exceptions import inferred_note, last_failure
from tfdoctor.explain.interface import caller_fitted_fix, installed_caller, library_code_fix
from tfdoctor.explain.keras_versions import keras_asks_tensorflow
from tfdoctor.explain.modules import TF_OWN
from tfdoctor.explain.packages import (
    distributions_finding,
    keras2_moved_under_src,
    keras_private_caller,
    keyword_added,
    keyword_change,
    known_distribution,
    library_caller,
    library_fix,
    listed_keyword_removed_fix,
    own_module_file,
    own_module_path,
    package_behind,
    statement_library,
    tf_call_refused,
    two_distributions_candidate,
)
from tfdoctor.facts import TF_DISTRIBUTIONS
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.keras_api import keras_api
from tfdoctor.machine import LogHints, Machine
from tfdoctor.matrix import version_key
from tfdoctor.scan import KEEP_KERAS2, Verdict
from tfdoctor.scan.api import (
    KWARGS_MARK,
    LAST_KERAS2,
    MOST_HOMES,
    ApiIndex,
    NameReleases,
    bundled_lines,
    keras2_homes,
    keras2_listing_describes,
    keras2_module_exports,
    keras2_module_last,
    keras_keyword_releases,
    keras_listed,
    keras_multibackend_removed,
    keras_parameters_of,
    keras_releases,
    load_api,
    load_early,
    load_keras,
    load_tf1,
    name_releases,
    release_gap,
    tf1_lines,
)
from tfdoctor.scan.knowledge import ApiKnowledge, module_api, public_name, tf_class_homes
from tfdoctor.scan.rules import Rule
from tfdoctor.wheel_index import releases_of


def _module_attribute(message: str) -> Optional[MissingAttribute]:
    """The attribute a module the message names lacks (CPython 3.5's ``module 'x' has no
    attribute 'y'``, :mod:`tfdoctor.evidence.pyerrors`' reading), or None; None too for a
    module still importing (an import cycle: 3.8's ``partially initialized module``, 3.13's
    ``consider renaming ... a library you intended to import``), whose name no release
    lacks."""
    found = missing_attribute(message)
    if found is None or not found.module or not found.owner or found.partial:
        return None
    return found


#: A quoted dotted name as a user retyped it, with blanks inside the quotes (``'keras. utils'``,
#: ``' PyDataset '``): Python never prints a name so, and reading it without them is safe.
_RETYPED_NAME = re.compile(r"'[ \t]*(\w+(?:[ \t]*\.[ \t]*\w+)*)[ \t]*'")


def _quoted_missing(tb: Traceback, name: str = "") -> bool:
    """Whether ``tb``'s message, as printed, says in Python 3's words that the import system
    found no module (of the dotted ``name``, where given)."""
    gone = missing_module(_as_printed(tb.message))
    return gone is not None and gone.quoted and (not name or gone.name == name)


def _as_printed(message: str) -> str:
    """``message`` with the blanks a retyping put inside quoted names taken out."""
    if "' " not in message and " '" not in message:
        return message
    return _RETYPED_NAME.sub(lambda m: "'" + re.sub(r"[ \t]+", "", m.group(1)) + "'", message)


#: The suffixes TensorFlow gives a class of one release's API where the public name has none
#: (lite.py's TFLiteConverterV2 is tf.lite.TFLiteConverter in TensorFlow 2).
_RELEASE_SUFFIX = re.compile(r"V[12]$")
_KEYWORD = re.compile(
    r"got an unexpected keyword argument '(?P<kw>\w+)'"
    r"|Argument\(s\) not recognized: \{'(?P<kw2>\w+)'"
    r"|Unrecognized keyword arguments passed to \w+: \{'(?P<kw3>\w+)'"
    # Keras 2's layers (base_layer.py, generic_utils.validate_kwargs) word it as a tuple.
    r"|\('Keyword argument not understood:', '(?P<kw4>\w+)'\)"
)
#: Keras' deserializer's words for a class a saved model (or configuration) names and this
#: Keras has no class for: "Unknown layer: Merge" (Keras 2.x keras/utils/generic_utils.py,
#: deserialize_keras_object: 'Unknown ' + printable_module_name + ': ' + class_name; tf.keras
#: goes on ". Please ensure this object is passed to the `custom_objects` argument").
_UNKNOWN_LAYER = re.compile(r"\bUnknown layer:[ \t]*'?(?P<cls>[A-Za-z_]\w*)'?")
#: The rule effects that say a name is gone from the API (not a keyword or a behaviour).
_NAME_GONE = ("import-error", "attribute-error", "module-removed")
#: Import packages of other frameworks whose functions share TensorFlow's names (softmax).
_OTHER_FRAMEWORKS = frozenset({"torch", "jax", "mxnet", "paddle", "cupy", "scipy"})
#: Python's refusal of a keyword, with the function's own name (``reduce_max() got ...``).
_FUNCTION_KEYWORD = re.compile(
    r"\b(?P<func>[A-Za-z_]\w*)\(\) got an unexpected keyword argument '(?P<kw>\w+)'"
)
#: The verdict of :func:`_tf1_keyword_added_later` for the code's own call.
_TF1_KEYWORD_KEY = "tf1-keyword-added-later"
#: Python's own refusal of a keyword by a constructor that takes no **kwargs.
_INIT_REFUSAL = re.compile(r"__init__\(\) got an unexpected keyword argument '\w+'")
#: Keys tf.keras (TensorFlow 2) writes into a saved InputLayer's configuration that the
#: InputLayer of multi-backend Keras (2.2.4, 2.3.1: keras/engine/input_layer.py), whose
#: constructor takes no **kwargs, refuses in Python's words as from_config passes them on
#: (tensorflow v2.0.0, tensorflow/python/keras/engine/input_layer.py, get_config), and the
#: `batch_shape` Keras 3 writes there in place of batch_input_shape (keras-team/keras v3.0.0,
#: keras/layers/core/input_layer.py, get_config).
_NEWER_INPUT_KEYS = frozenset({"ragged", "batch_shape"})
#: Keras 3's own refusals of keyword arguments, by the class family that words them: its
#: optimizers' base class (keras/src/optimizers/base_optimizer.py: "Argument(s) not
#: recognized: {kwargs}") and its layers' (keras/src/layers/layer.py: "Unrecognized keyword
#: arguments passed to {cls}: {kwargs}"). The wording says whose API the keywords were passed
#: to when no frame of the traceback does (the message pasted alone).
_KERAS3_REFUSALS = (
    (re.compile(r"Argument\(s\) not recognized: \{(?P<kwargs>[^}]*)"), "keras.optimizers"),
    (
        re.compile(r"Unrecognized keyword arguments passed to \w+: \{(?P<kwargs>[^}]*)"),
        "keras.layers",
    ),
)
#: Keras 3's trainers refusing a keyword of the model's training methods, in the two ways
#: they do (keras/src/backend/{tensorflow,jax,torch,numpy,openvino}/trainer.py): fit and
#: predict take no **kwargs, so Python names the method by its class's qualified name
#: ("TensorFlowTrainer.fit() got an unexpected keyword argument 'workers'", Python 3.10+;
#: compile is the base class's, keras/src/trainers/trainer.py: "Trainer.compile() ..."), and
#: evaluate refuses what its **kwargs hold ("Arguments not recognized: {'workers': 4}").
#: Keras 2 (tf.keras' Model) words neither; a bare ``Trainer`` is asked of compile only
#: (other libraries have a Trainer class, none with Keras' compile).
_TRAINER_REFUSAL = re.compile(
    r"\b(?:(?:TensorFlow|JAX|Torch|Numpy|OpenVINO)Trainer\.(?P<method>\w+)|"
    r"(?<![\w.])Trainer\.(?P<base>compile))\(\) got an unexpected keyword argument '(?P<kw>\w+)'"
)
_EVALUATE_REFUSAL = re.compile(r"(?:^|:\s)Arguments not recognized: \{(?P<kwargs>[^}]*)")
#: The keys of a kwargs dict as Python prints it (`{'lr': 0.001, 'decay': 0.0}`).
_KWARG_KEY = re.compile(r"(?:^|,\s*)'(?P<key>\w+)':")


def api_use(
    tb: Traceback, knowledge: ApiKnowledge, tf_version: Optional[str] = None
) -> Optional[tuple[str, Verdict]]:
    """The API use an exception is about and scan's verdict on it, or None; ``tf_version``:
    the TensorFlow the log shows, where it does."""
    message = _as_printed(tb.message)
    if own_module_missing(tb) or keras_own_missing(tb):
        return None  # TensorFlow's or Keras' own import of its own module: no use of an API
    lacks = _module_attribute(message)
    if lacks is not None and _V1_API_MODULE.match(lacks.owner):
        return None  # TensorFlow 1's own module, printed: a 1.x release (_tf2_name_under_tf1)
    if lacks is not None:
        served = public_name(lacks.owner) or ".python."
        if ".python." in lacks.owner and ".python." in f".{served}.":
            # The private module itself imported: no rule about its removal applies, and
            # what it lacks is no API (explain.packages' private_api_findings judges it).
            return None
        aliased = _keras_alias(knowledge, lacks.owner, lacks.name, tb)
        if aliased is not None:
            return aliased
        found = _named(knowledge, lacks.owner, lacks.name, tf_version)
        if found is not None:
            found = _module_imported(knowledge, lacks.owner, *found, tb=tb)
        return found or _written(tb, knowledge, lacks.name)
    asked = missing_name(message)
    if asked is not None and not asked.module:
        asked = None  # Python 2's and 3.6's words name no module: read below
    if asked is not None and ".python." in asked.module and package_behind(tb)[0]:
        # A package's import (IPython marked it above) reached into the private tree: the
        # package is of another release (explain.packages' private_api_findings), not an API
        # the user's code used.
        return None
    if asked is not None:
        found = _named(knowledge, asked.module, asked.name, tf_version)
        # "(unknown location)": an empty namespace directory left by another release, not
        # the module itself.
        if found is not None and asked.path != "unknown location":
            found = _module_imported(knowledge, asked.module, *found, tb=tb)
        return found or _written(tb, knowledge, asked.name)
    gone = missing_module(message)
    if gone is not None and gone.quoted:
        module = gone.name
        head, _, last = module.rpartition(".")
        found = _named(knowledge, head, last, tf_version) if head else None
        if found is not None and _still_shipped(knowledge, found[1]):
            # The module above is one the wheels still ship (a rule says it no longer works,
            # not that it is gone): what is missing is the submodule. Not for a removed
            # module: TensorFlow 2.0's forwarding package names the deeper module
            # ("No module named 'tensorflow.contrib.seq2seq'") when contrib itself is gone.
            found = _module_imported(knowledge, head, *found, tb=tb)
        return found or _written(tb, knowledge, module)
    if gone is not None and gone.python2_alone and _tensorflow_tail(tb, gone.name):
        head, _, last = f"tensorflow.{gone.name}".rpartition(".")
        return _named(knowledge, head, last, tf_version)
    attr = _py2_attribute(message)
    if attr is not None:
        found = _written(tb, knowledge, f".{attr}")
        # The line's first broken use must be the missing attribute itself, not another name
        # of the same line (tf.random_uniform beside the missing tf.Variable).
        if found is None or f".{attr}" not in f".{found[0]}.":
            return None
        # Nor a member of the name a rule is about (`tf.logging._logger` missing): the name
        # itself resolved, so its removal is not what raised.
        return None if _beyond_rule(knowledge, found, attr) else found
    if (shape_value := _tf2_shape_value(tb, message, tf_version)) is not None:
        return shape_value
    trainer = _trainer_refusal(message, knowledge)
    if trainer is not None:
        return trainer
    match = _KEYWORD.search(message)
    if match is not None:
        kwarg = match.group("kw") or match.group("kw2") or match.group("kw3") or match.group("kw4")
        if match.group("kw4") or (_INIT_REFUSAL.search(message) and kwarg in _NEWER_INPUT_KEYS):
            saved = _saved_argument(tb, knowledge, kwarg)
            if saved is not None:
                return saved
        found = (
            _keyword(tb, knowledge, kwarg)
            or _refused_keywords(message, knowledge)
            or _tf_keyword_named(tb, knowledge, message, tf_version)
        )
        if found is None and (match.group("kw3") or match.group("kw4") or _keras_frames(tb)):
            # Keras' own words, or Keras' frames: other libraries share these names
            # (scikit-learn's subsample, albumentations' border_mode).
            found = _keras1_keyword(knowledge, kwarg)
        if found is not None and found[1].severity.rank < Severity.ERROR.rank:
            # The call raised: whatever a rule says of the releases where the keyword is only
            # ignored with a warning (Keras 3.2+'s Embedding input_length), this one refused it.
            found = found[0], dataclasses.replace(found[1], severity=Severity.ERROR)
        return found
    layer = _unknown_layer(message, knowledge)
    if layer is not None:
        return layer
    return _member_use(tb, message, knowledge)


#: A static size read in TensorFlow 1's way, ``.value`` of a TensorShape's element as the
#: source line writes it (``x.shape[1].value``, ``x.get_shape()[-1].value``,
#: ``x.shape.dims[0].value``); ``shorthand`` where it is a bare ``shape[i]``, which pandas'
#: and NumPy's shapes (tuples) and PyTorch's Size are indexed by too. Bounded: a long line
#: of ``shape[`` tried at each one must not cost its square.
_SHAPE_VALUE = re.compile(
    r"(?:get_shape\(\)|shape(?P<dims>\.dims)?)\s{0,8}\[[^\]\n]{0,200}\]\s{0,8}\.value\b"
)
#: A TensorFlow module's name used on the source line (``tf.shape``, ``tensorflow.keras``).
_TF_ON_LINE = re.compile(r"(?<![\w.])(?:tf|tensorflow)\.\w")


def _tensorflow_at_work(tb: Traceback, code: str, tf_version: Optional[str]) -> bool:
    """Whether the log shows TensorFlow running the code: a TensorFlow release shown, a
    frame of TensorFlow's (or Keras') installed files (:data:`_RELEASE_ROOTS`), or a
    TensorFlow name on the line."""
    return (
        tf_version is not None
        or any(installed_package(f.path) in _RELEASE_ROOTS for f in tb.frames)
        or _TF_ON_LINE.search(code) is not None
    )


def _tensorflow_in_traceback(tb: Traceback) -> bool:
    """Whether the traceback itself shows TensorFlow at work: a frame of TensorFlow's (or
    Keras') installed files (:data:`_RELEASE_ROOTS`), or a TensorFlow name on a source line it
    printed. A release shown elsewhere in the log is not enough: NumPy's functions refuse the
    same keywords in the same words (``expand_dims() got an unexpected keyword argument
    'dim'``, ``argmax() ... 'dimension'``), and so may any other library's."""
    codes = (tb.code, tb.statement, *(f.code for f in tb.frames))
    return any(installed_package(f.path) in _RELEASE_ROOTS for f in tb.frames) or any(
        _TF_ON_LINE.search(c) is not None for c in codes if c
    )


def _tf2_shape_value(
    tb: Traceback, message: str, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """TensorFlow 1's ``x.shape[i].value`` refused as an int's (or None's) missing ``value``,
    where the source line printed reads a TensorShape's element so: TensorFlow 2's TensorShape
    gives ints, TensorFlow 1's gave Dimension objects. None where the log shows a 1.x release
    (its shapes have Dimension objects unless the program asked otherwise), the line does
    not read a shape's element, or reads a bare ``shape[i]`` with no sign of TensorFlow."""
    lacks = missing_attribute(message)
    if lacks is None or lacks.name != "value" or lacks.owner not in ("int", "NoneType"):
        return None
    if tf_version is not None and version_key(tf_version) < (2, 0):
        return None
    code = tb.frames[-1].code if tb.frames else tb.code
    read = _SHAPE_VALUE.search(code) if code else None
    if read is None:
        return None
    # A bare ``shape[i].value`` is TensorShape's only where TensorFlow is at work:
    # ``df.shape[0].value`` of pandas, or a PyTorch traceback's, is another mistake.
    bare = not read.group(0).startswith("get_shape") and not read["dims"]
    if bare and not _tensorflow_at_work(tb, code, tf_version):
        return None
    what = (
        "The code reads a static size TensorFlow 1's way, `.value` of a TensorShape's element: "
        "TensorFlow 2's TensorShape gives the size itself, an int (None where unknown), which "
        f"has no `value` ({tb.type}: {tb.message})."
    )
    links = (
        causes.code.SHAPE_VALUE_SOURCES + causes.CAUSES[causes.code.API_MOVED_TO_COMPAT_V1].links
    )
    verdict = Verdict(
        "tf2-shape-element-int",
        causes.code.API_MOVED_TO_COMPAT_V1,
        Severity.ERROR,
        what,
        causes.code.shape_value_fix(),
        links,
        release="2.0",
    )
    return "TensorShape[i].value", verdict


def _member_use(
    tb: Traceback, message: str, knowledge: ApiKnowledge
) -> Optional[tuple[str, Verdict]]:
    """Scan's verdict on a member missing from a class (``type object 'X' has no attribute``)
    or from an object of one (``'X' object has no attribute``), or None."""
    lacks = missing_attribute(message)
    if lacks is None:
        return None
    if lacks.kind == "type":
        return _class_member(tb, knowledge, lacks.owner, lacks.name)
    if lacks.kind == "module" and not lacks.module_object:
        return None  # a module's words: api_use read them
    # Python 2's 'module' object is an object of the type named ``module`` to these rules.
    cls, attr = lacks.owner or "module", lacks.name
    verdict = knowledge.member(cls, attr) or _own_optimizer_member(knowledge, cls, attr)
    if verdict is not None:
        return f"{cls}.{attr}", verdict
    return _misspelt_member(knowledge, cls, attr)


#: A class named as an optimizer (``GradientAccumulateOptimizer``, ``AccumOptimiser``): Python
#: prints the object's own class, which for a custom optimizer or an optimizer wrapper is the
#: program's or a library's subclass, not the Keras class it extends.
_OPTIMIZER_NAMED = re.compile(r"[a-z0-9]Optimi[sz]er$")


def _own_optimizer_member(knowledge: ApiKnowledge, cls: str, attr: str) -> Optional[Verdict]:
    """The verdict on ``attr`` of Keras' Optimizer base class, for an object of a class no
    listing has whose name says it is an optimizer (``'AccumOptimizer' object has no
    attribute '_set_hyper'``): a subclass or wrapper written for another Keras optimizer API,
    as a warning (the class is inferred from its name). TensorFlow's own classes (1.x's
    ``AdamOptimizer``, which never had Keras' members) and Keras' are read by their listings."""
    if not _OPTIMIZER_NAMED.search(cls) or knowledge.keras_kind(cls) or tf_class_homes(cls):
        return None
    verdict = knowledge.member("Optimizer", attr)
    if verdict is None:
        return None
    return dataclasses.replace(
        verdict,
        severity=min(verdict.severity, Severity.WARNING, key=lambda x: x.rank),
        what=f"`{cls}` is no class of TensorFlow's or Keras' API; its name makes it an "
        "optimizer, read as a subclass or wrapper of Keras' Optimizer. " + verdict.what,
    )


def _class_member(
    tb: Traceback, knowledge: ApiKnowledge, cls: str, attr: str
) -> Optional[tuple[str, Verdict]]:
    """Scan's verdict on ``cls.attr`` missing from the class itself: a member of a Keras class
    a rule knows, the source line where it names the member, or a rule about a public name
    ending in the class and the member (the class printed without its release suffix)."""
    verdict = knowledge.member(cls, attr)
    if verdict is not None:
        return f"{cls}.{attr}", verdict
    found = _written(tb, knowledge, f".{attr}")
    if found is not None and f".{attr}" in f".{found[0]}.":
        return found
    tails = {f".{cls}.{attr}", f".{_RELEASE_SUFFIX.sub('', cls)}.{attr}"}
    for rule in knowledge.rules.rules:
        for api in rule.api:
            if any(api.endswith(tail) for tail in tails):
                verdict = knowledge.name(api)
                if verdict is not None:
                    return api, verdict
    return None


def _misspelt_member(knowledge: ApiKnowledge, cls: str, attr: str) -> Optional[tuple[str, Verdict]]:
    """A member no Keras had, a letter or two from one a rule knows removed
    (``predict_class`` for ``predict_classes``): the code was written with that name in mind,
    and what replaced it is the fix (said as a likeness, not as the name written)."""
    known = sorted(
        {r.method or r.attribute or "" for r in knowledge.rules.rules if r.method or r.attribute}
    )
    close = difflib.get_close_matches(attr, known, n=1, cutoff=0.9)
    if not close or close[0] == attr:
        return None
    verdict = knowledge.member(cls, close[0])
    if verdict is None:
        return None
    return f"{cls}.{attr}", dataclasses.replace(
        verdict,
        what=f"`{attr}` is no member any Keras had; `{close[0]}` is the one it resembles. "
        + verdict.what,
    )


def _unknown_layer(message: str, knowledge: ApiKnowledge) -> Optional[tuple[str, Verdict]]:
    """Keras' ``Unknown layer: X`` for a layer class a rule of scan's knows Keras removed (Keras
    1's Merge): the model file was saved by the older Keras that had it, and the rule's way out
    is the fix. A class no such rule knows (the code's own layer, which ``custom_objects``
    supplies; ``Functional``, a newer Keras's, which a signature reads) is None."""
    match = _UNKNOWN_LAYER.search(message)
    if match is None:
        return None
    cls = match.group("cls")
    name = f"keras.layers.{cls}"
    verdict = knowledge.name(name)
    rule = _rule_of(knowledge, verdict) if verdict is not None else None
    if verdict is None or rule is None or rule.effect not in _NAME_GONE:
        return None
    return name, dataclasses.replace(
        verdict,
        what=f"The model being loaded names the layer class {cls}, which this Keras does not "
        "have: the file was saved by an older Keras. " + verdict.what,
    )


def _beyond_rule(knowledge: ApiKnowledge, found: tuple[str, Verdict], attr: str) -> bool:
    """Whether ``attr``, missing from the use ``found`` names (``tf.logging._logger.handlers``),
    comes after every name of the verdict's rule that the use starts with (``tf.logging``):
    what the rule says is gone was there, and only its member is missing."""
    rule = _rule_of(knowledge, found[1])
    if rule is None:
        return False
    parts = found[0].split(".")
    if attr not in parts[1:]:
        return False
    at = parts.index(attr, 1)
    apis = [a for a in rule.api if found[0] == a or found[0].startswith(a + ".")]
    return bool(apis) and all(at >= len(a.split(".")) for a in apis)


def _written(tb: Traceback, knowledge: ApiKnowledge, word: str) -> Optional[tuple[str, Verdict]]:
    """scan's verdict on the source line the traceback printed where it names ``word`` (the
    missing module or name): the name as the user wrote it can be one a rule knows under a
    longer path (`from keras.wrappers.scikit_learn import ...` for `No module named
    'keras.wrappers'`). The innermost such line is the use that raised."""
    for frame in reversed(tb.frames):
        if frame.code and word in frame.code:
            return knowledge.code(frame.code)
    # A paste that kept only the innermost frame's line above the exception.
    if tb.code and word in tb.code:
        return knowledge.code(tb.code)
    return None


#: The modules TensorFlow 2 serves tf.losses, tf.metrics, tf.optimizers and tf.initializers
#: from: Keras' own of those names (tensorflow/api_template.py, "Add module aliases": `losses
#: = keras.losses` and so on, https://github.com/tensorflow/tensorflow/blob/v2.0.0/tensorflow/
#: api_template.py; TensorFlow 2.0 and 2.1 print them under tensorflow_core, 2.6 on under
#: Keras' package, keras.api._v2.keras). A name asked of tf.losses is printed as missing
#: from Keras' module.
_KERAS_ALIASED = re.compile(
    r"^(?:tensorflow(?:_core)?\.python\.)?keras\.api\._v2\.keras\."
    r"(?P<alias>losses|metrics|optimizers|initializers)$"
)


def _keras_alias(
    knowledge: ApiKnowledge, module: str, attr: str, tb: Traceback
) -> Optional[tuple[str, Verdict]]:
    """A TensorFlow 1 name of tf.losses, tf.metrics, tf.optimizers or tf.initializers
    (``tf.losses.softmax_cross_entropy``) asked under TensorFlow 2, whose modules of those
    names are Keras' (:data:`_KERAS_ALIASED`): the name is TensorFlow 1's, not a Keras name
    no release had, so scan's verdict on the tf.X name (its tf.compat.v1 home). Not where
    the code wrote Keras' name itself (the source line printed says ``keras.losses.X``), nor
    where a Keras release has the name (the Keras verdict stands)."""
    aliased = _KERAS_ALIASED.match(module)
    if aliased is None:
        return None
    alias = aliased.group("alias")
    keras = knowledge.name(f"tf.keras.{alias}.{attr}")
    if keras is not None and keras.key != causes.code.API_REMOVED:
        return None  # a Keras name that some release has: the Keras readings judge it
    shown = [f.code for f in tb.frames if f.code] or ([tb.code] if tb.code else [])
    if any(f"keras.{alias}.{attr}" in code for code in shown):
        return None  # the code wrote Keras' name itself
    name = f"tf.{alias}.{attr}"
    verdict = knowledge.name(name)
    if verdict is None or verdict.cause != causes.code.API_MOVED_TO_COMPAT_V1:
        return None
    served = (
        f" TensorFlow 2 serves tf.{alias} from Keras' module of that name ({module}), which "
        f"lacks {attr}: the code asked tf.{alias} for TensorFlow 1's {attr}."
    )
    return name, dataclasses.replace(verdict, what=verdict.what + served)


def _named(
    knowledge: ApiKnowledge, module: str, attr: str, tf_version: Optional[str] = None
) -> Optional[tuple[str, Verdict]]:
    private = attr.startswith("_") and not attr.startswith("__")
    base = public_name(module)
    if base is None:
        return None
    name = f"{base}.{attr}"
    if (
        private
        and (module == "keras" or module.startswith("keras."))
        and not any(name in r.api for r in knowledge.rules.rules)
    ):
        # Keras' private trees (keras.api._v2, the one TensorFlow 2.6-2.15 load tf.keras
        # from; keras._tf_keras) are no API a listing holds: which Keras is installed says
        # why one is missing (the signatures' keras-api-v2-missing), not a rule. A private
        # helper a rule names itself (keras.applications.imagenet_utils._obtain_input_shape)
        # is that rule's.
        return None
    # scan's verdict, a TensorFlow 1 name's tf.compat.v1 home included (scan's _tf1_name).
    verdict = knowledge.name(name)
    rule = _rule_of(knowledge, verdict) if verdict is not None else None
    if rule is not None and rule.effect == "keras3-behaviour":
        # The rule is about names that fail when used under Keras 3 (TensorFlow 1's RNN
        # cells); Python's words say the name itself is missing, as tf.nn.rnn_cell is from
        # every TensorFlow 2 release: the listing says what became of it, where it lacks it.
        # The stop-gap it names meets the rule from the rule's release on: its words follow.
        listed = knowledge.listed(name)
        shown = tf_version is not None and version_key(tf_version) >= version_key(rule.release)
        lead = (
            f"The stop-gap fails on the log's TensorFlow {tf_version} (Keras 3):"
            if shown
            else f"From TensorFlow {rule.release} on (Keras 3):"
        )
        if listed is not None:
            verdict = dataclasses.replace(
                listed,
                fix=Fix(
                    f"{listed.fix.text} {lead} {rule.what} {rule.replacement}",
                    listed.fix.commands,
                ),
            )
    return (name, verdict) if verdict is not None else None


def _rule_of(knowledge: ApiKnowledge, verdict: Verdict) -> Optional[Rule]:
    """The scan rule a verdict comes from, or None (a verdict of the API listing)."""
    return next((r for r in knowledge.rules.rules if r.id == verdict.key), None)


def _still_shipped(knowledge: ApiKnowledge, verdict: Verdict) -> bool:
    """Whether the verdict's rule is about a module that is still installed as a stale private
    copy (effect private-copy), not one that was removed."""
    rule = _rule_of(knowledge, verdict)
    return rule is not None and rule.effect == "private-copy"


#: Rule effects that say the module as a whole is gone or unusable (removed, or a private copy
#: that no longer works beside the public API, such as tensorflow.python.keras): a name
#: missing from the module, which imported, is that name's absence, not the rule's case.
_MODULE_GONE = ("import-error", "module-removed", "private-copy")


def _module_imported(
    knowledge: ApiKnowledge,
    module: str,
    name: str,
    verdict: Verdict,
    tb: Optional[Traceback] = None,
) -> tuple[str, Verdict]:
    """``cannot import name X from M`` says M imported: a rule that M itself was removed
    (tf.estimator in 2.16) describes a later release than this one, where M is there without
    X. The name is what is missing, fixed the rule's way."""
    rule = _rule_of(knowledge, verdict)
    base = public_name(module) or module
    if rule is None and verdict.cause == causes.code.KERAS3_BEHAVIOUR_CHANGE:
        # A module of Keras 2's layout (keras.engine) that Keras 3 does not have: it is there,
        # so this Keras is a Keras 2, which lacks only the name.
        if knowledge.name(base) is None:
            return name, verdict  # Keras 3 has the module too: the verdict on the name stands
        attr = name.rsplit(".", 1)[-1]
        homes = sorted({n for names in keras2_homes(attr).values() for n in names})
        where = (
            f"Keras 2's public API exports it as {' or '.join(homes)}: import it from there"
            if 0 < len(homes) <= MOST_HOMES
            else "import it from the public module that exports it in this release "
            "(keras.layers for layers, keras.models for models, keras.utils for utilities)"
        )
        return name, dataclasses.replace(
            verdict,
            cause=causes.code.API_REMOVED,
            what=f"{module} imports in this Keras 2 but has no {attr}",
            fix=Fix(
                f"The installed Keras 2 has {module} without {attr}: {where}, or install the "
                "Keras release the code was written for.",
                ('python -c "import keras; print(keras.__version__)"',),
            ),
            release="",
        )
    if rule is None or rule.effect not in _MODULE_GONE:
        return name, verdict
    if not any(base == api or base.startswith(api + ".") for api in rule.api):
        return name, verdict
    attr = name.rsplit(".", 1)[-1]
    what = f"{module} imports in this TensorFlow but has no {attr}"
    fix = Fix(rule.replacement, ())
    if rule.effect == "module-removed" and rule.release:
        # The module is there, so this TensorFlow predates the release that removed it: what
        # that removal's successors are is no answer; the release the code needs is.
        what = (
            f"{module} imports in this TensorFlow, a release before {rule.release} (which "
            f"removed {rule.api[0]}), and has no {attr}: the code was written for another "
            "release of it."
        )
        fix = _release_for_code_fix(module, attr, tb, rule.replacement)
    return name, dataclasses.replace(
        verdict, cause=causes.code.API_REMOVED, what=what, fix=fix, release=""
    )


#: A file of a checkout of TensorFlow's own source tree (its examples), not an installed one.
_SOURCE_TREE = re.compile(r"^(?P<tree>.*?)[/\\]tensorflow[/\\]examples[/\\]")


def _release_for_code_fix(module: str, attr: str, tb: Optional[Traceback], port: str) -> Fix:
    """The fix for a name missing from a module this TensorFlow has: the release the code was
    written for, or ``port`` (the way off the module, a rule's replacement); for an example
    run from a checkout of TensorFlow's source tree, the release that checkout is (a checkout
    of master is ahead of every release)."""
    frames = tb.frames if tb is not None else ()
    tree = next(
        (
            match.group("tree")
            for f in reversed(frames)
            if installed_package(f.path) is None and (match := _SOURCE_TREE.match(f.path))
        ),
        None,
    )
    check = 'python -c "import tensorflow as tf; print(tf.__version__)"'
    if tree:
        return Fix(
            f"The code is an example of a checkout of TensorFlow's source tree ({tree}), and "
            f"the installed TensorFlow's {module} has no {attr}: the checkout is of another "
            "release than the one installed (a checkout of master is ahead of every release). "
            "Check out the tag of the installed release in the tree (git checkout vX.Y.Z) for "
            "the example as that release had it, or install the release the checkout is (its "
            "tensorflow/tools/pip_package/setup.py names it; a development version is only in "
            "a nightly build of that date, or a build of the tree itself).",
            (
                check,
                # The tree's path double-quoted, as a folder's name may hold a space.
                f'git -C "{tree}" describe --tags',
                f'grep -m1 "_VERSION = " "{tree}/tensorflow/tools/pip_package/setup.py"',
            ),
        )
    return Fix(
        f"The installed TensorFlow's {module} has no {attr}: install the TensorFlow release "
        "the code was written for (its requirements or README name it), or the code's own "
        f"release written for the installed TensorFlow. Or port the code off it: {port}",
        (check,),
    )


def _keyword(tb: Traceback, knowledge: ApiKnowledge, kwarg: str) -> Optional[tuple[str, Verdict]]:
    # The library frame that refused the argument says whose API it was (keras/src/optimizers/
    # -> keras.optimizers); the user's source line, when printed, says it as written.
    for origin in library_origins(tb):
        api = module_api(origin.module)
        verdict = knowledge.keyword(api, kwarg) if api else None
        if api is not None and verdict is not None:
            return ".".join(api.split(".")[:2]) + f"({kwarg}=...)", verdict
    for frame in reversed(tb.frames):
        if frame.code and f"{kwarg}=" in frame.code:
            found = knowledge.code(frame.code)
            rule = _rule_of(knowledge, found[1]) if found is not None else None
            if rule is not None and rule.kwarg is None and rule.effect in _NAME_GONE:
                # The line's first broken use is a name whose removal raises AttributeError or
                # ImportError (tf.layers under TensorFlow 2): a call of it that got as far as
                # refusing a keyword found the name, so the release is one that has it.
                return None
            if rule is not None and rule.kwarg is not None and rule.kwarg != kwarg:
                # A rule about another keyword of the line (workers= beside the refused
                # steps_per_execution=): Python names the one it refused.
                return None
            if found is not None:
                return found
    return None


def _tf_keyword_named(
    tb: Traceback, knowledge: ApiKnowledge, message: str, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """Scan's verdict on a keyword a later TensorFlow removed, read from Python's words alone
    (``reduce_sum() got an unexpected keyword argument 'keep_dims'``, where the line that made
    the call is not printed): the function and the keyword must be a removal rule's own
    (``tf1-keep-dims``: the reductions' ``keep_dims``, which 2.0 dropped), and the traceback must
    show TensorFlow at work (:func:`_tensorflow_in_traceback`): NumPy's ``expand_dims`` and
    ``argmax`` refuse ``dim`` and ``dimension`` in the same words. A source line that calls the
    function on another library, a frame of another framework, or a TensorFlow shown from
    before the removal (which takes the argument) rules it out (None)."""
    match = _FUNCTION_KEYWORD.search(message)
    if (
        match is None
        or not _tensorflow_in_traceback(tb)
        or _called_elsewhere(tb, match.group("func"))
    ):
        return None
    func, kwarg = match.group("func"), match.group("kw")
    for rule in knowledge.rules.rules:
        if rule.kind != "removed" or rule.kwarg != kwarg:
            continue
        if tf_version is not None and version_key(tf_version)[:2] < rule.release_key[:2]:
            continue  # this TensorFlow still takes it: refused for another reason
        for api in rule.api:
            verdict = (
                knowledge.keyword(api, kwarg)
                if api.startswith("tf.") and api.rsplit(".", 1)[-1] == func
                else None
            )
            if verdict is not None:
                return f"{api}({kwarg}=...)", verdict
    return None


#: Rule effects that say the name itself is gone: using it raises before any call is made.
_NAME_GONE = ("attribute-error", "import-error", "module-removed")


#: The functions Keras 2 reads a saved model through, from the file to the layer's class:
#: load_model -> model_from_config -> deserialize -> deserialize_keras_object -> from_config
#: (Network's process_layer) -> cls(**config), whose base Layer refuses an argument it does not
#: know (keras 2.2.4 keras/engine/saving.py, network.py, base_layer.py; TensorFlow 2.x
#: tensorflow/python/keras/saving/hdf5_format.py, utils/generic_utils.py validate_kwargs).
#: TFLite's TocoConverter.from_keras_model_file calls load_model too.
_LOADERS = frozenset(
    {
        "load_model",
        "load_model_from_hdf5",
        "_deserialize_model",
        "model_from_config",
        "model_from_json",
        "model_from_yaml",
        "deserialize",
        "deserialize_keras_object",
        "from_config",
        "process_layer",
        "from_keras_model_file",
    }
)


def _saved_argument(
    tb: Traceback, knowledge: ApiKnowledge, kwarg: str
) -> Optional[tuple[str, Verdict]]:
    """Keras 2's ``('Keyword argument not understood:', 'x')``, or Python's ``__init__() got
    an unexpected keyword argument`` for a key TensorFlow 2 writes into an InputLayer's
    configuration (:data:`_NEWER_INPUT_KEYS`), raised while a model is read (a frame of its
    loaders): the file's layer configuration carries an argument the reading Keras lacks, so
    a newer Keras wrote it. With no frame shown, the likely reading, as a
    warning, unless the argument is a Keras 1 name (scan's keras1-* rules say what it is).
    Frames that build the layer in the code itself are the code's argument: None."""
    if tb.frames and not any(f.function in _LOADERS for f in tb.frames):
        return None
    if not tb.frames and _keras1_keyword(knowledge, kwarg) is not None:
        return None
    cause = causes.software.MODEL_FROM_NEWER_KERAS
    newer = "a newer Keras (or TensorFlow) wrote the file."
    if tb.frames:
        what = (
            f"Keras refused `{kwarg}` while reading a saved model (the frames go through its "
            "loader): the file's layer configuration carries an argument the Keras reading it "
            f"does not have: {newer}"
        )
    else:
        what = (
            "Keras 2 refuses an argument its layer lacks in these words (Python's, where the "
            "layer's constructor takes no other arguments). While it reads a saved "
            "model (load_model, model_from_json and from_config hand the file's configuration "
            f"to the layer), that is an argument the file carries: {newer} The log shows no "
            "frames to confirm it: if the traceback shows the code's own layer call instead, "
            f"the code passes `{kwarg}`, which this Keras lacks."
        )
    return f"{kwarg}=...", Verdict(
        "keras2-saved-argument",
        cause,
        Severity.ERROR if tb.frames else Severity.WARNING,
        what,
        causes.software.newer_keras_model_fix("h5", kwarg),
        causes.CAUSES[cause].links,
    )


def _tensorflow_tail(tb: Traceback, tail: str) -> bool:
    """Whether Python 2's relative ``tail`` is of TensorFlow's tree: the statement or a frame's
    code imports it from tensorflow, or it is tf.contrib (no other package of that name is
    imported so)."""
    first = tail.split(".", 1)[0]
    code = " ".join((tb.statement, *(f.code for f in tb.frames)))
    return first == "contrib" or f"tensorflow.{first}" in code or f"tf.{first}" in code


def _keras_frames(tb: Traceback) -> bool:
    """Whether a frame of the traceback is Keras' own (standalone, tf.keras or tf-keras)."""
    return any(o.dist in ("keras", "tf-keras") or o.generation for o in library_origins(tb))


def _keras1_keyword(knowledge: ApiKnowledge, kwarg: str) -> Optional[tuple[str, Verdict]]:
    """scan's verdict on a Keras 1 argument name (``border_mode``, ``nb_filter``) that Keras
    refused where the log does not show which class: those names are Keras 1's alone, and
    their rules (``keras1-*``) say what Keras 2 calls each."""
    for rule in knowledge.rules.rules:
        if rule.id.startswith("keras1-") and rule.kwarg == kwarg:
            verdict = knowledge.rule(rule.id)
            if verdict is not None:
                return f"{kwarg}=...", verdict
    return None


def _refused_keywords(message: str, knowledge: ApiKnowledge) -> Optional[tuple[str, Verdict]]:
    """Scan's verdict on the first keyword a Keras 3 refusal names that a rule knows, the API
    read from the refusal's wording; every key of the printed dict is asked, in order."""
    for pattern, api in _KERAS3_REFUSALS:
        match = pattern.search(message)
        if match is None:
            continue
        for key in _KWARG_KEY.finditer(match.group("kwargs")):
            verdict = knowledge.keyword(api, key.group("key"))
            if verdict is not None:
                return f"{api}({key.group('key')}=...)", verdict
    return None


def _trainer_refusal(message: str, knowledge: ApiKnowledge) -> Optional[tuple[str, Verdict]]:
    """Scan's verdict on the keyword a Keras 3 trainer refused (:data:`_TRAINER_REFUSAL`,
    :data:`_EVALUATE_REFUSAL`): the words say the method, so no source line is needed."""
    match = _TRAINER_REFUSAL.search(message)
    if match is not None:
        asked = [(match.group("method") or match.group("base"), match.group("kw"))]
    else:
        refused = _EVALUATE_REFUSAL.search(message)
        if refused is None:
            return None
        asked = [("evaluate", k.group("key")) for k in _KWARG_KEY.finditer(refused.group("kwargs"))]
    for method, kwarg in asked:
        verdict = knowledge.model_keyword(method, kwarg)
        if verdict is not None:
            return f"model.{method}({kwarg}=...)", verdict
    return None


def _python_before_keras3(hints: Sequence[Inferred], m: Machine) -> Optional[tuple[str, str]]:
    """The Python the paths show and the oldest Python of TensorFlow's first Keras 3 line
    (the matrix's), where the first is older: no Keras 3 runs there."""
    python = next((h.value for h in hints if h.fact == "python"), None)
    line = first_keras3_line(m.matrix) if m.matrix is not None else None
    if python is None or line is None:
        return None
    pythons = sorted({p for ps in line.python.values() for p in ps}, key=version_key)
    if pythons and version_key(python)[:2] < version_key(pythons[0])[:2]:
        return python, pythons[0]
    return None


def _fitted(verdict: Verdict, m: Machine) -> Fix:
    """The verdict's fix, its commands for this machine where they depend on its TensorFlow:
    scan judges against the newest line, whose tf-keras pin is not this TensorFlow's. A
    verdict with no commands (a use tf-keras does not keep running either, such as
    tensorflow.python.keras) gets none."""
    if (
        verdict.cause == causes.code.KERAS3_BEHAVIOUR_CHANGE
        and verdict.key not in _OWN_FIX_KEYS
        and verdict.fix.commands
    ):
        return Fix(verdict.fix.text, causes.code.keras3_fix(m).commands)
    return verdict.fix


def api_findings(
    tracebacks: Sequence[Traceback],
    knowledge: ApiKnowledge,
    m: Machine,
    kernel_installs: Sequence[str] = (),
    keras_backend_shown: bool = False,
) -> list[Finding]:
    """One finding per API cause the exceptions show, in order of appearance;
    ``kernel_installs``: the distributions the log installs inside a running kernel;
    ``keras_backend_shown``: the log names multi-backend Keras' TensorFlow backend file."""
    tf_version = m.tf.version if m.tf is not None else None
    # TensorFlow installed inside the running kernel: a name missing that every listed release
    # has is the kernel's mix of two releases (explain.modules' _reinstalled_in_kernel), not
    # an install older than the listings.
    reinstalled = any(d in TF_DISTRIBUTIONS for d in kernel_installs)
    out: dict[str, Finding] = {}
    for tb in tracebacks:
        if any(own_module_file(f, x) for f in tb.frames for x in ("tensorflow", "keras")):
            # The traceback runs through the user's own tensorflow.py (or keras.py): `import
            # tensorflow` loaded it, so any name it lacks says nothing of a release
            # (explain.packages' shadowed_module_findings names the file). Python 2's bare
            # "'module' object has no attribute" reads the same.
            continue
        if tb.circular_import is not None:
            # A name asked of a module still importing (an import cycle: 3.8's "partially
            # initialized module", 3.13's "consider renaming ... a library you intended to
            # import"): the module may well have it, so no release lacks it.
            continue
        found = _early_release(tb, m, tf_version, reinstalled) or api_use(
            tb, _python2_bound(tb, knowledge, m, tf_version), tf_version
        )
        if found is None or found[1].key in _LISTING_KEYS:
            # A listing says only that no listed release has the name (the listings start at
            # Keras 2.6), a rule of scan's says more: the multi-backend table dates the name
            # where no rule does.
            found = _multi_backend_removed(tb, m) or found
        if found is None:
            found = (
                _added_later(tb, knowledge, m, tf_version)
                or _tf2_name_under_tf1(tb, m, tf_version)
                or _tf1_added_later(tb, m, tf_version)
                or _tf1_keyword_added_later(tb, knowledge, m, tf_version, keras_backend_shown)
                or _tf1_loader_given_tf2_call(tb, m, tf_version)
                or (None if reinstalled else _older_than_listings(tb, m, tf_version))
                or _keras_added_later(tb, m)
                or _keras2_moved(tb)
                or _bare_import_rule(tb, knowledge)
                or _py2_bare_tf1_name(tb, knowledge, tf_version)
                or _tf2_keyword_added_later(tb, m, tf_version)
                or _keyword_by_listing(tb, m, tf_version)
                or _keras_keyword_by_listing(tb, m)
            )
        if found is None or _package_reaches_private(tb, found[0]):
            continue
        name, verdict = found
        asker = keras_asks_tensorflow(tb)
        if (
            verdict.cause == causes.code.KERAS3_BEHAVIOUR_CHANGE
            and asker is not None
            and origin_of(asker[0].path).generation != "Keras 3"
        ):
            # A file of the standalone keras package (or tf-keras) other than Keras 3's asked
            # TensorFlow for the name: that Keras and the TensorFlow are of different releases
            # (explain.keras_versions says so, naming the frame), not Keras 2 code under 3.
            continue
        alternatives: list[Finding] = []
        if verdict.key == _UNSHOWN_KEY:
            verdict, alternatives = _ranked_unshown(tb, name, verdict, m)
        verdict = _keras2_package(tb, name, verdict, m)
        verdict = _keras2_shown(tb, name, verdict, m, tf_version)
        verdict = _multi_backend_keras(tb, name, verdict, m, keras_backend_shown)
        verdict = _keras212_layout(tb, name, verdict, m)
        primary = _package_before_keras(tb, name, verdict, m)
        if (
            primary is verdict
            and (
                (verdict.key in _LISTING_KEYS and verdict.cause == causes.code.API_REMOVED)
                # tf.contrib's successors (tf-slim, tf.keras, TensorFlow Probability) are for
                # the library's authors to port to, as tf.compat.v1 is.
                or verdict.cause
                in (causes.code.API_MOVED_TO_COMPAT_V1, causes.code.TF_CONTRIB_REMOVED)
                # A keyword a later release brought, passed by a library's own frame: its
                # older spelling is for the library's authors to write.
                or verdict.key in _KEYWORD_KEYS
            )
            and (
                installed_caller(tb) is not None
                # A keyword is the call's: the user's line that passed it on through the
                # library's (installed_caller) makes it the user's, whatever module it names.
                or (verdict.key not in _KEYWORD_KEYS and library_caller(tb) is not None)
            )
        ):
            # The name, which no rule gives an idiom for (or whose idiom, tf.compat.v1, is for
            # the library's authors to write), was asked by an installed library's code (its
            # frame, or the module its lazy import names), not the user's: what to do is that
            # library's release (explain.packages' companion-mismatch); the removal stays
            # known, as a warning.
            primary = dataclasses.replace(verdict, severity=Severity.WARNING)
        # An installed package's use of a name the Keras lacks: what to do is the package's
        # (primary); what the name is stays known to whoever patches the package (a warning).
        secondary = (
            [dataclasses.replace(verdict, severity=Severity.WARNING)]
            if primary is not verdict
            else []
        )
        if primary is verdict and verdict.key in _KEYWORD_KEYS:
            # The keyword's history says the TensorFlow is older than the code; the user's own
            # call could instead be written in this TensorFlow's spelling: the other candidate.
            edit = _older_keyword_edit(name, verdict, knowledge)
            secondary += [edit] if edit is not None else []
        if primary is verdict and verdict.since:
            # The name came in a later release than the installed one: that TensorFlow is
            # older than the code (the lead, or information where the log makes an older
            # release unlikely); keeping it and writing the code in its API is the other
            # candidate (api-removed, a warning), as for a keyword a later release brought.
            primary = _older_than_code(verdict)
            if verdict.severity != Severity.INFO:
                secondary += [_written_for_older(name, verdict)]
        since = _came_later(name, primary, knowledge, tf_version)
        older = _py2_older_first(tb, name, primary, since, m)
        if older is not None:
            # Python 2 ran the code: the older release is the likelier reading, the removal
            # the other candidate.
            primary, secondary = older, [dataclasses.replace(primary, severity=Severity.WARNING)]
        for judged in (primary, *secondary):
            fitted = _in_library(tb, name, judged, m)
            found_finding = _api_finding(tb, name, fitted, knowledge, m, tf_version)
            if found_finding is not None and found_finding.id not in out:
                out[found_finding.id] = found_finding
        # The multi-backend table already dates the keras release the code was written for:
        # the vaguer "another keras release" reading (the Keras of the TensorFlow's line,
        # which has no such name either) would be a second fix of the same cause. A keyword
        # the Keras listings date is no name missing: they name the Keras it needs.
        other = (
            None
            if verdict.key in (_MULTI_BACKEND_REMOVED, _KERAS_LISTED_KEYWORD_KEY)
            else _standalone_keras(name, verdict.cause, tb, m)
        )
        if other is not None and other.id not in out and out:
            out[other.id] = other
        for alternative in alternatives:
            out.setdefault(alternative.id, alternative)
    return list(out.values())


def _older_than_code(verdict: Verdict) -> Verdict:
    """A name a later release brought (``verdict.since``), missing from the installed
    TensorFlow, as that TensorFlow older than the code (tf-too-old-for-code): the verdict's
    words and fix, the upgrade to the release that brought the name."""
    links = causes.CAUSES[causes.code.TF_TOO_OLD_FOR_CODE].links
    return dataclasses.replace(verdict, cause=causes.code.TF_TOO_OLD_FOR_CODE, links=links)


def _written_for_older(name: str, verdict: Verdict) -> Verdict:
    """The other candidate beside :func:`_older_than_code`: the installed TensorFlow kept and
    the code written in its API instead of ``name`` (api-removed, a warning)."""
    # Only that TensorFlow ``since`` has the name is said: where the listings' oldest line
    # dates it (_older_than_listings), an earlier release may have brought it.
    what = (
        f"The installed TensorFlow lacks `{name}`, which TensorFlow {verdict.since} has: code "
        "written for the installed release's API runs without it."
    )
    fix = Fix(
        f"To keep the installed TensorFlow instead of an upgrade to {verdict.since} or later, "
        f"write the code without `{name}`, in what the installed release has (its API docs).",
        (),
    )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    return Verdict(verdict.key, causes.code.API_REMOVED, Severity.WARNING, what, fix, links)


#: The causes whose verdicts' fixes edit the code that asked (write the new name, the older
#: spelling, tf.compat.v1's, a successor of tf.contrib): an edit for the user's own code,
#: never for an installed library's. A changed behaviour (api-default-changed) edits the call
#: too; its rule dates the change, and :func:`tfdoctor.explain.interface.caller_fitted_fix`
#: fits its fix to whose code made the call.
_CODE_EDITS = frozenset(
    {
        causes.code.API_REMOVED,
        causes.code.API_MOVED_TO_COMPAT_V1,
        causes.code.TF_CONTRIB_REMOVED,
    }
)


def _in_library(tb: Traceback, name: str, verdict: Verdict, m: Machine) -> Verdict:
    """``verdict`` with a fix about releases where the failing line is an installed library's
    (:func:`tfdoctor.explain.interface.installed_caller`) and the verdict's fix edits code
    (:data:`_CODE_EDITS`, with no install of a dated line): the library's release made for the
    installed TensorFlow, or the TensorFlow its code was written for, with the lines the API
    table dates (:func:`tfdoctor.explain.interface.library_code_fix`, the fix
    explain.interface gives the same cause), never an edit inside site-packages. The user's
    own code keeps the verdict's edit. A changed behaviour's (api-default-changed) fix is
    fitted the same way, with the release its rule dates the change to."""
    if verdict.cause == causes.code.API_DEFAULT_CHANGED:
        # A rule dates its change by TensorFlow's line (``removed_in``, ``changed_in``), the
        # keras.* names' too: TensorFlow's requirement brings the Keras of its line.
        fitted = caller_fitted_fix(m, tb, verdict.fix, "tensorflow", verdict.release or None)
        return verdict if fitted is verdict.fix else dataclasses.replace(verdict, fix=fitted)
    if verdict.cause == causes.code.KERAS3_BEHAVIOUR_CHANGE and verdict.key not in _OWN_FIX_KEYS:
        # A port to Keras 3 is an edit of the code that asked: an installed library's is its
        # authors' to write; its user keeps Keras 2 for it or takes its release for Keras 3.
        # Only where the log shows Keras 3 (observed, not the listings' assumption) and the
        # name says which Keras the library imports (tf.keras, or the keras package itself).
        caller = installed_caller(tb)
        if caller is None or not name.startswith(("tf.keras.", "keras.")):
            return verdict
        if not _keras3_observed(tb, m):
            return verdict
        return dataclasses.replace(verdict, fix=_keras3_library_fix(m, caller[0], name, verdict))
    if verdict.cause not in _CODE_EDITS or (
        verdict.cause == causes.code.API_REMOVED and verdict.fix.commands
    ):
        # A fix that installs the line its rule dates (a name a later 1.x release brought, a
        # TensorFlow 2 name under 1.x) stays its builder's: an install, no edit of code. A
        # port's commands (tf.app's ``pip install absl-py``, tf.contrib.slim's tf-slim) install
        # what the edit then imports: still an edit of the code.
        return verdict
    caller = installed_caller(tb)
    if caller is None:
        return verdict
    product = "Keras" if name.startswith("keras.") else "TensorFlow"
    module = name.rpartition(".")[0] or name
    fix = library_code_fix(m, tb, product, f"`{name}`", caller[0], name, module)
    return dataclasses.replace(verdict, fix=fix)


def _keras3_library_fix(m: Machine, dist: str, name: str, verdict: Verdict) -> Fix:
    """An installed library ``dist`` written for Keras 2 asking Keras 3 for ``name``: Keras 2
    kept for it (tf-keras behind tf.keras where it asks tf.keras, else the Keras 2 release
    that has the name), or its release written for Keras 3; the verdict's port is what its
    authors would write."""
    # A rule's idiom is what the port writes; the listings' verdicts say only "port it".
    # The rule's own "keep Keras 2" is the first way here, said once.
    port = (
        ""
        if verdict.key in _LISTING_KEYS
        else f" The port, for its authors: {verdict.fix.text.removesuffix(KEEP_KERAS2)}"
    )
    if name.startswith("keras."):
        # `import keras` finds Keras 3 whatever TF_USE_LEGACY_KERAS says.
        kept = _keras2_release_fix(m, dist, name)
        return Fix(kept.text + port, kept.commands)
    legacy = causes.code.keras3_fix(m)
    return Fix(
        f"{dist} (an installed package) asks tf.keras for `{name}`, which Keras 3 changed or "
        f"dropped: this {dist} release was written for Keras 2. Keep Keras 2 for it: install "
        "tf-keras and set TF_USE_LEGACY_KERAS=1 before TensorFlow is imported (tf.keras is "
        f"then Keras 2, for {dist} too), or install a release of {dist} written for Keras 3, "
        f"where there is one.{port}",
        legacy.commands,
    )


def _standalone_keras(name: str, cause: str, tb: Traceback, m: Machine) -> Optional[Finding]:
    """The other reading of a name the standalone ``keras`` package lacks (``keras.utils.
    generic_utils``, ``keras.optimizers.Adam``), where the verdict is that the API is gone:
    the keras installed is another release than the code, or the TensorFlow beside it, goes
    with (keras 2.4 under TensorFlow 2.5, a multi-backend Keras 2.2 beside tf.keras 2.6) — a
    warning, with the Keras that matches the installed TensorFlow. Not for Keras 3's own
    tree (keras.src) or TensorFlow's (tf.keras), whose readings are their own."""
    if (
        cause != causes.code.API_REMOVED
        or not name.startswith("keras.")
        or name.startswith("keras.src.")
    ):
        return None
    # A library built on the standalone keras (its frame asked for the name): named in the fix.
    library = keras_importer(tb)
    return causes.finding(
        f"explain.{causes.software.KERAS_VERSION}",
        Severity.WARNING,
        causes.software.KERAS_VERSION,
        f"`{name}` is asked of the standalone keras package: its release may not be the one "
        "the code or the installed TensorFlow goes with",
        "\n".join(
            (
                f"{tb.where}: {tb.type}: {tb.message}",
                "A name of the standalone keras package missing is as often a keras release "
                "other than the code (or the TensorFlow beside it) was written for as an API "
                "the code must port: `pip show keras tensorflow` tells which releases are "
                "installed.",
            )
        ),
        causes.software.keras_match_fix(
            m, *((library.module, library.dist) if library is not None else ())
        ),
    )


def _package_reaches_private(tb: Traceback, name: str) -> bool:
    """A name of TensorFlow's private tree (``tf.python.keras.utils.tf_utils``) that an
    installed package's own frame asked for (standalone Keras' backend importing
    tensorflow.python.keras): scan's advice to import the public API is for that package's
    authors; its user needs the package's release for this TensorFlow, which
    explain.packages' private_api_findings gives (keras-version for Keras). Likewise any name
    under tf.__internal__."""
    if name == "tf.__internal__" or name.startswith("tf.__internal__."):
        # TensorFlow's API for Keras (2.x): who asks is a Keras (standalone, tf-keras) of
        # another release, which the signatures' keras-internal-api-missing and
        # explain.packages read; no TensorFlow release the listings name fixes it alone.
        return True
    if name.startswith("tf.python.") and not tb.frames and keras_private_caller(tb.message):
        # No frame, and a name standalone Keras's own backend imports: Keras of another
        # release than this TensorFlow leads (explain.packages' private_api_findings).
        return True
    return name.startswith("tf.python.") and package_behind(tb)[0] is not None


def _api_finding(
    tb: Traceback,
    name: str,
    verdict: Verdict,
    knowledge: ApiKnowledge,
    m: Machine,
    tf_version: Optional[str],
) -> Optional[Finding]:
    """The finding of one verdict on the API use ``tb`` shows; None where the log's
    TensorFlow predates the change (the name is missing for another reason)."""
    origins = library_origins(tb)
    keras3 = any(o.generation == "Keras 3" for o in origins)
    if (
        tf_version
        and verdict.release
        and version_key(tf_version) < version_key(verdict.release)
        and not keras3
        and not name.startswith("keras.")
    ):
        # The log's TensorFlow predates the change: the name is missing for another reason.
        return None
    hints = path_hints([f.path for f in tb.frames])
    older = _python_before_keras3(hints, m)
    if older and verdict.cause == causes.code.KERAS3_BEHAVIOUR_CHANGE and name.startswith("keras."):
        # The paths show a Python no Keras 3 installs on: the Keras that lacks the name
        # is a Keras 2 of another release than the code's.
        verdict = Verdict(
            verdict.key,
            causes.software.KERAS_VERSION,
            Severity.ERROR,
            f"`{name}` is missing from the installed Keras, and that Keras is not Keras 3: "
            f"the paths show Python {older[0]}, and Keras 3 installs on Python "
            f"{older[1]} or newer (the Python of TensorFlow's first Keras 3 line). It is a "
            "Keras 2 of another release than the code was written for.",
            causes.software.keras_match_fix(m),
            verdict.links,
        )
    since = _came_later(name, verdict, knowledge, tf_version)
    if (
        older
        and since is not None
        and verdict.cause == causes.code.KERAS3_BEHAVIOUR_CHANGE
        and name.startswith("tf.keras.")
    ):
        # tf.keras is Keras 3 only from a line no TensorFlow on this Python reaches: the
        # TensorFlow that lacks the name is one older than the line that brought it, and
        # tf-keras (Keras 2 under Keras 3) is not a way out here.
        fitting = sorted(
            (
                x.line
                for x in (m.matrix.releases if m.matrix is not None else ())
                if version_key(since)[:2] <= x.key < version_key(verdict.release)[:2]
                and any(
                    version_key(p)[:2] == version_key(older[0])[:2]
                    for ps in x.python.values()
                    for p in ps
                )
            ),
            key=version_key,
        )
        these = (
            f" ({fitting[0]} to {fitting[-1]}: the newest patch of each has them, from the matrix)"
            if len(fitting) > 1
            else f" ({fitting[0]}: its newest patch has them, from the matrix)"
            if fitting
            else " (`tfdoctor matrix` lists each line's Pythons)"
        )
        verdict = Verdict(
            verdict.key,
            causes.code.TF_TOO_OLD_FOR_CODE,
            Severity.ERROR,
            f"`{name}` is in TensorFlow's public API from {since} until {verdict.release}, and "
            f"this tf.keras is not Keras 3: the paths show Python {older[0]}, and TensorFlow's "
            f"first Keras 3 line installs on Python {older[1]} or newer. The installed "
            f"TensorFlow is likely older than {since}; the log shows only the Python and the "
            "name missing, so a standalone `keras` of another release than the TensorFlow "
            "(tf.keras loads the `keras` package from TensorFlow 2.6 on) would raise the same "
            "error (`pip show tensorflow keras` tells which).",
            Fix(
                f"The code needs TensorFlow {since} to the line before {verdict.release}: "
                f"upgrade TensorFlow to one of those with wheels for Python {older[0]}"
                f"{these}, or run a release of the code "
                "written for the installed TensorFlow (`pip show tensorflow` prints it).",
                ("pip show tensorflow",),
            ),
            causes.CAUSES[causes.code.TF_TOO_OLD_FOR_CODE].links,
        )
        since = None
    detail = [f"{tb.where}: {tb.type}: {tb.message}", verdict.what]
    shown = [f"{o.dist} ({o.generation})" if o.generation else o.dist for o in origins]
    if shown:
        detail.append("The frames are in: " + ", ".join(shown) + " (from their paths).")
    if hints:
        detail.append(inferred_note(hints))
    fix = _fitted(verdict, m)
    if since is not None and not _older_release_unlikely(tb, m):
        # Removed in a later line, and also not yet there in the oldest ones: an old
        # TensorFlow raises the same error, and needs the other way out (not where the log's
        # Python is one no release that old ran on).
        detail.append(
            f"`{name}` is in TensorFlow's public API only from {since} until "
            f"{verdict.release}: a TensorFlow before {since} raises the same error."
        )
        fix = Fix(
            f"{fix.text} If the installed TensorFlow is older than {since} (`pip show "
            f"tensorflow`), the code needs a newer one instead: TensorFlow {since} to "
            f"the line before {verdict.release}.",
            fix.commands,
        )
    return _verdict_finding(name, verdict, "\n".join(detail), _front_end_fix(tb, fix))


def _front_end_fix(tb: Traceback, fix: Fix) -> Fix:
    """``fix``, said for R where R code asked Python (the R interfaces' words wrap the error:
    the TensorFlow that raised it is in the Python reticulate loaded, which R's own calls show
    and install into); ``fix`` itself for Python's own."""
    return causes.notebook.r_interface_fix(fix) if tb.front_end == "reticulate" else fix


#: TensorFlow distributions with a release of the last Keras 2 line under their own name.
_KERAS2_LINE_DISTS = frozenset(
    {"tensorflow", "tensorflow-cpu", "tensorflow-macos", "tensorflow-intel"}
)
#: The key of a verdict about an installed package written for Keras 2 (its fix is its own).
_KERAS2_PACKAGE = "keras2-package-under-keras3"
#: The key of a verdict about an installed package importing Keras 2's layout where the log
#: shows Keras 3 (:func:`_package_before_keras`; its fix is its own too).
_KERAS3_SHOWN_PACKAGE = "package-before-keras3"
#: The keys of Keras 3 verdicts whose commands install what their text says.
_OWN_FIX_KEYS = frozenset({_KERAS2_PACKAGE, _KERAS3_SHOWN_PACKAGE})


def _keras2_package(tb: Traceback, name: str, verdict: Verdict, m: Machine) -> Verdict:
    """One of Keras 2's own modules (keras.utils.layer_utils), missing where an installed
    package other than Keras asks for it: that package was written for Keras 2 and meets
    Keras 3; its user cannot port its code, so the fix is Keras 2 for it (or its release
    written for Keras 3), not scan's advice to the code's author."""
    if verdict.cause != causes.code.API_REMOVED or not keras2_module_exports(name):
        return verdict
    package = next(
        (
            top
            for top in (installed_package(f.path) for f in reversed(tb.frames))
            if top is not None and top not in TF_OWN
        ),
        None,
    )
    if package is None:
        return verdict
    keras = m.facts.package("keras")
    if keras is not None and keras.version and version_key(keras.version)[0] == 2:
        # The log lists a Keras 2 (2.13 to 2.15 lack the module as much): not Keras 3, a
        # Keras 2 later than the package (:func:`_package_before_keras` reads it).
        return verdict
    shown = _keras3_observed(tb, m)
    installed = (
        f"the installed Keras is Keras 3 ({shown})."
        if shown
        # Keras 2.13 to 2.15 lack Keras 2's own modules as much (keras-team/keras v2.13.1
        # pip_build.py): the log does not say which of them is installed.
        else "the installed Keras is Keras 3 or a Keras 2 of 2.13 to 2.15, which lack it as "
        "much (`pip show keras` tells)."
    )
    return dataclasses.replace(
        verdict,
        key=_KERAS2_PACKAGE,
        cause=causes.code.KERAS3_BEHAVIOUR_CHANGE,
        what=f"{verdict.what} {package} (an installed package) imports it: it was written for "
        f"Keras 2; {installed}",
        fix=_keras2_release_fix(m, package, name),
        links=causes.CAUSES[causes.code.KERAS3_BEHAVIOUR_CHANGE].links,
    )


def _last_keras2_line(name: str) -> str:
    """The last Keras 2 line (the TensorFlow line beside it) where code finds ``name``, a
    Keras module or a name in one (``keras.X`` or ``tf.keras.X``): the last Keras 2 line where
    the public API of 2.13 to 2.15 has it (TensorFlow's tf.keras listings); else, for one of
    Keras 2's own modules, the last line whose tree has it at its place (2.13 moved them under
    keras/src/: scan's keras2_module_last); empty where neither says (a name inside such a
    module, whose members the table does not follow, or a module of multi-backend Keras)."""
    module = name[3:] if name.startswith("tf.keras.") else name
    if module.startswith("keras.src.") and keras2_module_last("keras." + module[10:]):
        # One of Keras 2's own modules where 2.13 to 2.15 keep them (keras.src.engine):
        # Keras 3 has a keras/src/ of its own without them, so 2.15 is the last with it.
        return ".".join(str(x) for x in LAST_KERAS2)
    own_layout_last = (2, 12)  # keras-team/keras v2.13.1 pip_build.py: keras/src/ from 2.13
    public = any(
        own_layout_last < version_key(line)[:2] <= LAST_KERAS2
        for line in name_releases("tf." + module).having
    )
    return ".".join(str(x) for x in LAST_KERAS2) if public else keras2_module_last(module)


def _keras2_release_fix(m: Machine, package: str, name: str) -> Fix:
    """An installed ``package`` written for Keras 2 asking Keras 3 for ``name``: the Keras 2
    that has it (:func:`_last_keras2_line`) with its TensorFlow, or the package's release
    written for Keras 3."""
    line = _last_keras2_line(name)
    last = ".".join(str(x) for x in LAST_KERAS2)
    if line != last:
        reach = (
            f"{package} asks for `{name}`, which no Keras since 2.13 has at that place (2.13 "
            "to 2.15 keep Keras 2's own modules under keras.src, tf-keras under tf_keras.src, "
            "so TF_USE_LEGACY_KERAS does not bring it back): "
        )
    elif name.startswith("tf."):
        reach = (
            f"{package} asks tf.keras for `{name}`: install tf-keras and set "
            "TF_USE_LEGACY_KERAS=1 before TensorFlow is imported, or "
        )
    else:
        reach = (
            f"{package} imports the keras package itself, which TF_USE_LEGACY_KERAS does not "
            "change: "
        )
    other = f"or install a release of {package} written for Keras 3, where there is one."
    if not line:
        return Fix(
            f"{reach}run it with the Keras 2 release and TensorFlow it was written for (its "
            f"requirements name them) in a new virtual environment, {other}",
            m.pip(f"show {package} keras tensorflow"),
        )
    pythons = _line_pythons(m, line) or " (in a new virtual environment of a Python they support)"
    wanted = f'"{_keras2_line_dist(m, line)}~={line}.0" "keras~={line}.0"'
    row = m.matrix.line_for(line) if m.matrix is not None else None
    python = m.python_version
    served = row.pythons_on() if row is not None else ()
    commands = (
        # This Python has no wheel of that line: pip here would find none; the environment
        # is made with the newest Python the line has wheels for.
        causes.common.python_venv_commands(m, served[-1], f"install {wanted}")
        if row is not None and python and served and not row.has_wheels_for(python)
        else m.pip_install(f"{_keras2_line_dist(m, line)}~={line}.0", f"keras~={line}.0")
    )
    return Fix(
        f"{reach}run it with Keras 2, that is TensorFlow {line} and Keras {line}{pythons}, {other}",
        commands,
    )


#: The module paths only a Keras 2 prints (observed, not inferred): tf.keras served by the
#: keras 2.x package (``keras.api._v2.keras``, keras-team/keras v2.6.0 to v2.15.0:
#: keras/api/_v2/keras/), TensorFlow's own copy before it (``tensorflow.python.keras``,
#: ``tensorflow_core.python.keras`` of 2.0 and 2.1) and the tf-keras package (``tf_keras``).
#: Keras 3 prints ``keras.src.`` or, for tf.keras, ``keras._tf_keras.keras``
#: (keras-team/keras v3.0.0: keras/api/_tf_keras/).
_KERAS2_PRINTED = re.compile(
    r"^(?:keras\.api\._v[12]\.keras|tensorflow(?:_core)?\.python\.keras|tf_keras)(?:\.|$)"
)
#: The module an exception's message names as the one that lacks a name or a submodule.
#: The module path only a Keras 3 prints: the tf.keras it serves from TensorFlow 2.16
#: (keras-team/keras v3.0.0: keras/api/_tf_keras/keras/). Not its own tree, ``keras.src``,
#: which Keras 2.13 to 2.15 print too (their sources moved under keras/src/ in 2.13).
_KERAS3_PRINTED = re.compile(r"^keras\._tf_keras\.keras(?:\.|$)")


def _printed_module(tb: Traceback) -> str:
    """The module the exception's message names as the one at work: the module lacking a
    name, or the package above a submodule not found (``No module named 'a.b.c'``: a.b
    imported, and lacks c); empty where it names none."""
    asked = name_asked(_as_printed(tb.message))
    return asked.module if asked is not None else ""


def _first_keras3(m: Machine) -> tuple[int, ...]:
    """The first TensorFlow line whose tf.keras is Keras 3 (the matrix's; 2.16 without one)."""
    line = first_keras3_line(m.matrix) if m.matrix is not None else None
    return version_key(line.line if line is not None else "2.16")[:2]


#: The key of a verdict re-read because the exception shows a Keras 2 raised it.
_KERAS2_SHOWN = "keras2-shown-lacks-name"


#: The first line of the tf-keras package (its bundled listings begin there; PyPI's tf-keras).
_FIRST_TF_KERAS = (2, 14)
#: The first TensorFlow line whose tf.keras the keras 2.x package served under
#: ``keras.api._v2.keras`` (and tf.compat.v1.keras under ``keras.api._v1.keras``; TensorFlow
#: 2.6 moved Keras out of its own tree: its release notes).
_KERAS_PACKAGE_SERVES = (2, 6)
#: The first TensorFlow line that served tf.keras from its own copy's generated TensorFlow 2
#: API tree (``tensorflow_core.python.keras.api._v2.keras`` in 2.0 and 2.1,
#: ``tensorflow.python.keras.api._v2.keras`` from 2.2 to 2.5); TensorFlow 1's tf.keras is
#: its ``api._v1`` tree, so the ``_v2`` tree printed rules out every 1.x line.
_TF2_COPY_SERVES = (2, 0)
_TF2_COPY_PRINTED = re.compile(r"^tensorflow(?:_core)?\.python\.keras\.api\._v2(?:\.|$)")


def _keras2_printed(tb: Traceback) -> Optional[tuple[int, int]]:
    """The oldest TensorFlow line a Keras 2 the exception shows at work can belong to, where
    it shows one: the module its message names (``module 'keras.api._v2.keras.layers' has no
    attribute ...``: 2.6) or a frame of Keras 2's own tree (keras/engine/); None where it shows
    none, or a frame of Keras 3's."""
    origins = library_origins(tb)
    if any(o.generation == "Keras 3" for o in origins):
        return None
    module = _printed_module(tb)
    if module.startswith(("keras.api._v2.", "keras.api._v1.")):
        return _KERAS_PACKAGE_SERVES
    if _TF2_COPY_PRINTED.match(module):
        return _TF2_COPY_SERVES
    if module == "tf_keras" or module.startswith("tf_keras."):
        return _FIRST_TF_KERAS
    if (module and _KERAS2_PRINTED.match(module)) or any(
        o.generation == "Keras 2" for o in origins
    ):
        return (0, 0)
    return None


#: Multi-backend Keras' TensorFlow backend (keras-team/keras 2.3.1 and before:
#: keras/backend/tensorflow_backend.py), as a frame's path prints it.
_KERAS_TF_BACKEND = re.compile(r"(?:^|[/\\])keras[/\\]backend[/\\]tensorflow_backend\.py$")


def _generation(module: str) -> str:
    """Which Keras a module of the keras package belongs to, by its path (Keras 2, Keras 3,
    or empty)."""
    return origin_of("/site-packages/" + module.replace(".", "/") + "/__init__.py").generation


def _keras212_layout(tb: Traceback, name: str, verdict: Verdict, m: Machine) -> Verdict:
    """A module of Keras 2.12's layout (``keras.engine``) not found, under a package that
    every Keras has, where the log shows a Keras 2.13-2.15: that Keras keeps it under
    keras.src, so the code was written for an older Keras (observed, not Keras 3)."""
    if (
        verdict.cause != causes.code.API_REMOVED
        or not name.startswith("keras.")
        or name.startswith("keras.src.")
        or not _quoted_missing(tb, name)
        or _generation(name) != "Keras 2"
        or _generation(name.rpartition(".")[0]) == "Keras 2"
    ):
        return verdict
    moved = keras2_moved_under_src(m, (tb,))
    if not moved:
        return verdict
    return Verdict(
        "keras212-layout-under-keras213",
        causes.software.KERAS_VERSION,
        Severity.ERROR,
        f"`{name}` is the layout of Keras 2.12 and older; {moved} keeps it under keras.src "
        "(Keras 2.13 to 2.15 moved Keras 2's modules there): the code was written for an "
        "older Keras.",
        causes.code.keras212_layout_fix(m, name),
        causes.CAUSES[causes.software.KERAS_VERSION].links,
    )


def _multi_backend_keras(
    tb: Traceback, name: str, verdict: Verdict, m: Machine, keras_backend_shown: bool
) -> Verdict:
    """A TensorFlow 1 name that TensorFlow 2 lacks (``tf.placeholder``,
    ``tf.get_default_graph``), asked by multi-backend Keras' own TensorFlow backend: its frame
    raised it, or, with no frame shown, the log names that file. That Keras predates
    TensorFlow 2 (2.2.4's calls tf.get_default_graph itself; 2.3 goes through TensorFlow's
    own Keras backend): a Keras of another release than the TensorFlow, not the user's code
    to port."""
    if not name.startswith("tf.") or verdict.cause not in (
        causes.code.API_MOVED_TO_COMPAT_V1,
        causes.code.API_REMOVED,
    ):
        return verdict
    framed = bool(tb.frames) and _KERAS_TF_BACKEND.search(tb.frames[-1].path) is not None
    if not framed and not (keras_backend_shown and not tb.frames):
        return verdict
    matched = causes.software.keras_match_fix(m)
    return Verdict(
        "multi-backend-keras-tf1-name",
        causes.software.KERAS_VERSION,
        Severity.ERROR,
        f"`{name}` is TensorFlow 1's, asked by multi-backend Keras' TensorFlow backend "
        "(keras/backend/tensorflow_backend.py"
        + (", its frame)" if framed else ", which the log names)")
        + ": that Keras was written for TensorFlow 1 and the installed TensorFlow is 2.",
        Fix(
            "The standalone Keras installed is older than the TensorFlow beside it. Import "
            "Keras from TensorFlow in the code (`from tensorflow import keras`; a library "
            "built on standalone Keras may offer a switch to tf.keras, which its README "
            "names), or install the standalone Keras that goes with this TensorFlow. "
            + matched.text,
            matched.commands,
        ),
        causes.CAUSES[causes.software.KERAS_VERSION].links,
    )


def _keras2_shown(
    tb: Traceback, name: str, verdict: Verdict, m: Machine, tf_version: Optional[str]
) -> Verdict:
    """A verdict that Keras 2 code meets Keras 3, re-read where the exception itself shows a
    Keras 2 raised it (observed beats inferred): that Keras 2 is of another release than the
    code. The TensorFlow lines whose listings have the name say which to install; a port to
    Keras 3 would not help."""
    if verdict.cause != causes.code.KERAS3_BEHAVIOUR_CHANGE:
        return verdict
    if _quoted_missing(tb) and name == "tf.python.keras":
        return _tf_keras_copy_missing(verdict, m, tf_version)
    floor = _keras2_printed(tb)
    if floor is None:
        return verdict
    last = ".".join(str(x) for x in LAST_KERAS2)
    releases = name_releases(name)
    everywhere = releases.having
    # TensorFlow's own listings stand for its Keras 2 up to the last line that served one.
    listed = [line for line in everywhere if floor <= version_key(line)[:2] <= LAST_KERAS2]
    what = (
        f"`{name}` is missing from a Keras 2: what the exception shows (the module it names, "
        "or its frames) is Keras 2's (tf.keras served by the keras 2.x package or "
        "TensorFlow's own copy, or tf-keras), not Keras 3's, so the code is not meeting "
        "Keras 3."
    )
    read = (
        "Read which TensorFlow and Keras the code was written for (its requirements, its "
        "README) and install those in a new virtual environment, or port the code to the "
        "installed release."
    )
    if not everywhere:
        fix = Fix(
            f"`{name}` is in no listed release's public API: the code was written for another "
            f"Keras than the installed Keras 2. {read}",
            m.pip("show tensorflow keras tf-keras"),
        )
    elif (
        listed
        and version_key(listed[0])[:2] <= floor
        and version_key(listed[-1])[:2] == LAST_KERAS2
    ):
        # Every Keras 2 that prints this module has it: no release of it explains the error.
        fix = Fix(
            f"The listings place `{name}` in every Keras 2 that prints this module (TensorFlow "
            f"up to {last}), so no release of it explains the error: the code was written for "
            f"another Keras than the installed Keras 2, or the install mixes two releases. {read}",
            m.pip("show tensorflow keras tf-keras"),
        )
    elif listed and tf_version is None and version_key(listed[-1])[:2] == LAST_KERAS2:
        # Every Keras 2 line from the first listed one has it: the one that raised is older.
        # From when is dated by the one reading of it (name_releases), never by the
        # listings' oldest line alone.
        since = releases.since() if listed[0] == releases.first else f"from {listed[0]} on"
        fix = Fix(
            f"`{name}` is in tf.keras of TensorFlow {since} (Keras 2 to {last}), and "
            f"the Keras 2 that raised this lacks it: it is older than the code. Install "
            f"TensorFlow {listed[0]} or newer, up to {last} to keep Keras 2 (`pip show "
            "tensorflow` shows the installed one).",
            # Not past the last Keras 2 line: a later one is Keras 3, which lacks the name.
            causes.software.line_install(m, listed[0], last),
        )
    else:
        fix = Fix(
            "The installed Keras 2 is of another release than the code was written for."
            + _listed_direction(name, releases, tf_version),
            m.pip("show tensorflow keras tf-keras"),
        )
    return dataclasses.replace(
        verdict,
        key=_KERAS2_SHOWN,
        cause=causes.code.API_REMOVED,
        what=what,
        fix=fix,
        release="",
        links=causes.CAUSES[causes.code.API_REMOVED].links,
    )


#: The first TensorFlow whose wheels ship tensorflow/python/keras: 1.4.0, whose release notes
#: say "`tf.keras` is now part of the core TensorFlow API".
_TF_KERAS_IN_CORE = (1, 4)


def _tf_keras_copy_missing(verdict: Verdict, m: Machine, tf_version: Optional[str]) -> Verdict:
    """``No module named 'tensorflow.python.keras'``: TensorFlow's own copy of Keras 2 is not
    there. Keras 3 does not remove it (the 2.6 to 2.21 wheels all ship it, scan's rule
    tf-python-keras says); a TensorFlow from before tf.keras joined the core API lacks it, and
    one the log shows as newer is an install without its files."""
    if tf_version is not None and version_key(tf_version)[:2] >= _TF_KERAS_IN_CORE:
        return dataclasses.replace(
            verdict,
            key="tf-keras-copy-missing",
            cause=causes.software.TF_INSTALL_INCOMPLETE,
            what=(
                f"tensorflow.python.keras is missing, and TensorFlow {tf_version} ships it "
                "(every wheel from 1.4 does): the install lacks files of its own."
            ),
            fix=causes.software.incomplete_install_fix(m),
            release="",
            links=causes.CAUSES[causes.software.TF_INSTALL_INCOMPLETE].links,
        )
    return dataclasses.replace(
        verdict,
        key="tf-keras-copy-missing",
        cause=causes.code.API_REMOVED,
        what=(
            "tensorflow.python.keras, TensorFlow's own copy of Keras 2, is missing: every "
            "TensorFlow wheel from 1.4 (tf.keras joined the core API; its release notes) to "
            "2.21 ships it, so the TensorFlow that raised this is older than the code that "
            "imports it (or its install is incomplete)."
        ),
        fix=Fix(
            "The installed TensorFlow is older than the code: `pip show tensorflow` shows it. "
            "Install the TensorFlow the code's requirements or environment file name (1.4 or "
            "newer), in place of the older one an install step or a pin put there.",
            m.pip("show tensorflow"),
        ),
        release="",
        links=causes.CAUSES[causes.code.API_REMOVED].links,
    )


#: The keys of verdicts the API listings give (no rule of scan's names the use).
_LISTING_KEYS = frozenset({causes.code.API_REMOVED, causes.code.KERAS3_BEHAVIOUR_CHANGE})


#: scan's rule of the modules only multi-backend Keras had (2.3.1 and before: its per-backend
#: modules, which Keras 2.4, a wrapper of tf.keras, dropped): asked by an installed package,
#: that package needs that Keras.
_MULTI_BACKEND_RULE = "keras-multi-backend-modules"


def _keras2_line_dist(m: Machine, line: str) -> str:
    """The TensorFlow distribution to install TensorFlow ``line`` under. On a Mac with Apple
    silicon (or where tensorflow-macos is installed), Apple's tensorflow-macos where the
    wheel index lists a release of that line and the matrix gives the ``tensorflow`` name no
    macOS arm64 wheels of it (those begin at 2.13: Apple's "install tensorflow-macos up to
    2.12, tensorflow from 2.13"); elsewhere the installed one of
    :data:`_KERAS2_LINE_DISTS`, tensorflow-intel only for a line whose ``tensorflow``
    requires it (the matrix's wrappers: 2.11 on); else ``tensorflow``."""
    dist = m.tf_name if m.tf_name in _KERAS2_LINE_DISTS else "tensorflow"
    row = m.matrix.line_for(line) if m.matrix is not None else None
    if dist == "tensorflow-macos" or (m.os == "macos" and m.arch == "arm64"):
        if dist != "tensorflow-macos" and row is not None and row.python.get("macos-arm64"):
            return dist
        key = version_key(line)[:2]
        apple = any(version_key(r.version)[:2] == key for r in releases_of("tensorflow-macos"))
        return "tensorflow-macos" if apple else "tensorflow"
    if dist == "tensorflow-intel" and (row is None or dist not in row.wrappers.values()):
        return "tensorflow"
    return dist


def _line_pythons(m: Machine, line: str) -> str:
    """`` (in a new virtual environment of a Python it supports, 3.8 to 3.11)``: the Pythons the
    matrix lists for a TensorFlow line's wheels, any platform; empty where it does not know."""
    row = m.matrix.line_for(line) if m.matrix is not None else None
    pythons = sorted(
        {py for pys in (row.python.values() if row else ()) for py in pys}, key=version_key
    )
    if not pythons:
        return ""
    return f" (in a new virtual environment of a Python it supports, {pythons[0]} to {pythons[-1]})"


def _standalone_keras2(path: str) -> bool:
    """Whether ``path`` is a file of the standalone keras package that only Keras 2 has
    (``keras/src/engine/``: evidence.traceback's reading), not tf-keras's."""
    origin = origin_of(path)
    return origin.dist == "keras" and origin.generation == "Keras 2"


def _keras3_observed(tb: Traceback, m: Machine) -> str:
    """What the log shows of a Keras 3 installed, in words: keras 3.x listed, a frame of a
    file only Keras 3 has, the exception naming Keras 3's tf.keras module
    (``keras._tf_keras.keras``), or a TensorFlow of a line whose wheel requires Keras 3 (the
    matrix's keras pins: 2.16 on) where no keras is listed; else, inferred and said so, a
    Python that only such lines have wheels for (:func:`_keras3_by_python`); empty where none
    does, or where a frame is a file of the keras package only Keras 2 has."""
    keras = m.facts.package("keras")
    if keras is not None and keras.version:
        return f"keras {keras.version} is installed" if version_key(keras.version)[0] == 3 else ""
    frame = next((f for f in tb.frames if origin_of(f.path).generation == "Keras 3"), None)
    if frame is not None:
        return f"the frame {frame.path} is Keras 3's"
    if any(_standalone_keras2(f.path) for f in tb.frames):
        return ""  # a file of the keras package only Keras 2 has: the log shows a Keras 2
    if _KERAS3_PRINTED.match(_printed_module(tb)) is not None:
        return "the exception names keras._tf_keras, Keras 3's tf.keras"
    if m.tf is not None and m.line is not None and m.keras3_is_tf_keras:
        return f"TensorFlow {m.tf.version} requires Keras 3"
    return _keras3_by_python(m)


def _keras3_by_python(m: Machine) -> str:
    """Where the log shows no TensorFlow but the interpreter's version: Keras 3, in words, if
    every line with a wheel for that Python requires it (Python 3.12 has none before 2.16);
    empty otherwise. Inferred, and said so: the matrix's wheels and keras pins decide."""
    python = m.python_version
    if m.tf is not None or m.matrix is None or not python:
        return ""
    lines = [x for x in m.matrix.lines if not x.pre_release and x.has_wheels_for(python)]
    if not lines or not all(keras3_serves_tf_keras(x) for x in lines):
        return ""
    first = min((x.line for x in lines), key=version_key)
    minor = ".".join(python.split(".")[:2])
    return (
        f"inferred: Python {minor} has no TensorFlow wheel before {first}, whose tf.keras is "
        "Keras 3"
    )


def _package_before_keras(tb: Traceback, name: str, verdict: Verdict, m: Machine) -> Verdict:
    """A Keras module or name an installed package's own import asks for (its frame raised)
    and the installed Keras lacks, where no rule gives it a Keras 3 idiom: Keras moved its
    internals under keras.src in 2.13 and Keras 3 dropped Keras 2's, so that package's
    release predates the installed Keras. Its user fixes the package, not the code."""
    multi_backend = verdict.key == _MULTI_BACKEND_RULE
    if (verdict.key not in _LISTING_KEYS and not multi_backend) or not name.startswith("keras."):
        return verdict  # a rule's own idiom for the name, or not Keras
    if verdict.cause not in (causes.code.API_REMOVED, causes.code.KERAS3_BEHAVIOUR_CHANGE):
        return verdict
    package = installed_package(tb.frames[-1].path) if tb.frames else None
    library = library_caller(tb)
    if library is not None and (package is None or package in TF_OWN):
        package = library[0]  # a lazy-import wrapper names it, or TensorFlow's frames follow
    imported = statement_library(tb, m) if package is None and library is None else None
    # No frame shown: the import statement above the message ran a library's code alone.
    package = package or imported
    if package is None or package in TF_OWN:
        return verdict
    dist = library_dist(package)
    # Only a distribution the module table names is upgraded by command: an import name's
    # PyPI namesake may be another project, or the user's own package (explain.packages).
    upgrade = causes.software.library_upgrade(m, dist) if known_distribution(dist) else ()
    find = (
        ""
        if upgrade
        else f" (pip show {dist} says whether a distribution of that name installed it)"
    )
    raised = (
        f"`{tb.statement}`, the statement above the message, imported it"
        if imported
        else "its lazy import failed with this error"
        if tb.wrapper and not tb.frames
        else "its own frame raised"
    )
    said = f"{dist} (an installed package; {raised}) imports {name}, which "
    shown = "" if multi_backend else _keras3_observed(tb, m)
    if shown:
        # Keras 2.13-2.15 and Keras 3 both lack Keras 2's own modules; the log shows which is
        # installed, Keras 3 (observed beats inferred): the package is Keras 2 code under it.
        return dataclasses.replace(
            verdict,
            key=_KERAS3_SHOWN_PACKAGE,
            cause=causes.code.KERAS3_BEHAVIOUR_CHANGE,
            severity=Severity.ERROR,
            what=said + f"Keras 3 does not have ({shown}): this {dist} release was written "
            "for Keras 2.",
            fix=_keras2_release_fix(m, dist, name),
            links=causes.CAUSES[causes.code.KERAS3_BEHAVIOUR_CHANGE].links,
        )
    if multi_backend:
        # A module only multi-backend Keras had (2.3.1 and before): the package needs that
        # Keras, which its own release cannot change; Keras is what to pin.
        key, cause = "package-needs-multi-backend-keras", causes.software.KERAS_VERSION
        what = said + (
            "only multi-backend Keras (2.3.1 and before) has: it needs that Keras, and the "
            "installed one is later."
        )
        fix = Fix(
            f"Install the multi-backend Keras {dist} was written for (keras 2.3.1 or before, "
            f"with the TensorFlow 1.x or 2.0-2.1 it supports), or a {dist} release written "
            "for tf.keras.",
            (*m.pip(f"show {dist} keras tensorflow"), *m.install("keras<2.4")),
        )
    else:
        key, cause = "package-before-keras", causes.software.COMPANION_MISMATCH
        what = said + (
            # Keras' internal modules moved in several releases, not only in 2.13
            # (keras-team/keras: keras/preprocessing/dataset_utils.py is at v2.8.0,
            # keras/utils/dataset_utils.py at v2.9.0).
            "the installed Keras does not have: Keras moves its internal modules between "
            "releases (2.13 put them all under keras.src, and Keras 3 dropped Keras 2's), so "
            f"this {dist} release predates the installed Keras."
        )
        fix = Fix(
            f"Upgrade {dist}{find} to a release made for the installed Keras, or install the "
            f"Keras (with its TensorFlow) this {dist} release was written for.",
            (*upgrade, *m.pip(f"show {dist} keras tensorflow")),
        )
        line = _last_keras2_line(name)
        if line and version_key(line)[:2] < LAST_KERAS2:
            # One of Keras 2's own modules (keras/engine/, keras/utils/layer_utils.py), which
            # 2.13 moved under keras.src: the last release whose tree has it at its place
            # (:func:`_last_keras2_line`), installed with the TensorFlow of its line. The
            # commands are the first way only: run in order, the second would take the
            # environment back below the release just upgraded.
            fix = Fix(
                f"Upgrade {dist}{find} to a release made for the installed Keras, or keep this "
                f"{dist} release and install the last Keras with {name}, {line}, with its "
                f"TensorFlow {line}{_line_pythons(m, line)}: pip install "
                f'"{_keras2_line_dist(m, line)}~={line}.0" "keras~={line}.0".',
                (*upgrade, *m.pip(f"show {dist} keras tensorflow")),
            )
    return dataclasses.replace(
        verdict,
        key=key,
        cause=cause,
        severity=Severity.ERROR,
        what=what,
        fix=fix,
        links=causes.CAUSES[cause].links,
    )


#: The verdict key of :func:`_py2_older_first`.
_PY2_OLDER_KEY = "tf-older-python2"


def _py2_older_first(
    tb: Traceback, name: str, verdict: Verdict, since: Optional[str], m: Machine
) -> Optional[Verdict]:
    """The older-release reading first, for a name TensorFlow 2.0 (or later) removed and an
    early release ``since`` brought (``tf.global_variables_initializer``: 0.12 to 1.15, by
    :func:`_came_later`, which asks only where the log shows no TensorFlow release), missing
    where the log shows Python 2 (its words, a python2.x folder): of TensorFlow 2 only 2.0 and
    2.1 had Python 2 wheels (RELEASE.md, "Release 2.1.0": "TensorFlow 2.1 will be the last TF
    release supporting Python 2"), every 0.x and 1.x release had them, so code run by a Python
    2 that lacks a name of TensorFlow 1's API is likelier on a release older than the name
    than on a newer one. None where the log says otherwise (Python 3, a file of TensorFlow 2's
    own tree in the frames, an installed library's call)."""
    if verdict.cause not in (causes.code.API_MOVED_TO_COMPAT_V1, causes.code.API_REMOVED):
        return None
    if verdict.severity != Severity.ERROR or not verdict.release:
        return None  # a library's call (warning), or no release that removed it
    if version_key(verdict.release)[:1] < (2,) or not _python2_shown(tb, m):
        return None
    if any(_TF2_TREE.search(f.path) for f in tb.frames):
        return None  # TensorFlow 2's own files in the frames: a 2.x release raised it
    if since is None:
        return None
    listed_1x = sorted(tf1_lines(), key=version_key)
    commands, installs = _tf1_install(tb, m, listed_1x[-1] if listed_1x else "1.15")
    what = (
        f"`{name}` is in TensorFlow's public API from {since} until {verdict.release}, and "
        "the log shows Python 2, which every 1.x release "
        "and only 2.0 and 2.1 of TensorFlow 2 ran on: the TensorFlow that raised this is "
        f"likelier one older than {since} (the log does not show which)."
    )
    fix = Fix(
        f"The code was written for TensorFlow {since} or newer (TensorFlow 1's API): upgrade "
        f"TensorFlow to {since} or later of 1.x ({installs}). `pip show tensorflow` tells "
        f"which release is installed; if it is 2.x, the other reading below applies.",
        commands,
    )
    links = (*causes.CAUSES[causes.code.API_REMOVED].links, _RELEASE_NOTES)
    return Verdict(_PY2_OLDER_KEY, causes.code.API_REMOVED, Severity.ERROR, what, fix, links)


def _verdict_finding(name: str, verdict: Verdict, detail: str, fix: Fix) -> Finding:
    """scan's verdict on ``name`` as explain's finding: its cause, severity and links."""
    return causes.finding(
        f"explain.{verdict.cause}",
        verdict.severity,
        verdict.cause,
        f"`{name}`: {causes.CAUSES[verdict.cause].title}",
        detail,
        fix,
        verdict.links,
    )


def _came_later(
    name: str, verdict: Verdict, knowledge: ApiKnowledge, tf_version: Optional[str]
) -> Optional[str]:
    """For a name a later line removed, where the log does not show the TensorFlow: the line
    that brought it, when the oldest lines (the listings', else the release notes' table's)
    lack it too; else None."""
    if tf_version or not verdict.release or not name.startswith("tf."):
        return None
    oldest = min(bundled_lines(), key=version_key)
    since = knowledge.oldest_line_with(name)
    if since is None:
        # No 2.x line has it: the release notes' table may say which early release brought
        # it (tf.global_variables_initializer, 0.12), the oldest releases lacking it.
        early = load_early().releases
        gap = release_gap(name, early[:1]) if early else None
        if gap is not None and gap.kind == "added":
            since = gap.first_after
    if since is None or since == oldest or version_key(since) >= version_key(verdict.release):
        return None
    return since


def _added_later(
    tb: Traceback, knowledge: ApiKnowledge, m: Machine, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """A name the log's TensorFlow lacks that a later line has (``tf.keras.layers.RandomFlip``
    under 2.5; 2.6 has it), judged with that TensorFlow's own API listing: the code was
    written for a newer release. Where the log does not show the TensorFlow, the oldest line
    is asked: a name the lines before some release lack, and every line since has, says the
    TensorFlow that raised it is older than that release. Its fix: that release."""
    if tb.frames and installed_package(tb.frames[-1].path) is not None:
        return None  # an installed package asked: a caller of another release (packages.py)
    top = statement_package(tb)
    if not tb.frames and top is not None and top not in TF_OWN:
        return None  # so did the package an `import X` above the error imported
    oldest = min(bundled_lines(), key=version_key)
    line = ".".join(tf_version.split(".")[:2]) if tf_version else oldest
    if line not in bundled_lines() or version_key(line) >= version_key(knowledge.target):
        return None
    if tf_version is None and api_use(tb, knowledge) is not None:
        return None  # the newest line lacks it too: not a name a newer release brings
    found = api_use(tb, knowledge.at(line))
    if found is None or found[1].cause != causes.code.API_REMOVED or found[1].release:
        return None
    name, verdict = found
    since = knowledge.first_line_with(name, line)
    if since is None:
        return None  # no release has it: not a matter of versions
    if _KERAS3_PRINTED.match(_printed_module(tb)) and version_key(since)[:2] <= _first_keras3(m):
        return None  # a Keras 3 raised (its module printed): no older TensorFlow did
    this = (
        f"this TensorFlow ({tf_version}) does not have it"
        if tf_version
        else "the TensorFlow that raised this is older (the log does not show which)"
    )
    fix = Fix(
        f"`{name}` is in TensorFlow's API from {since} on, and {this}: the code was written "
        f"for a newer release. Install TensorFlow {since} (or newer).",
        causes.software.line_install(m, since),
    )
    what = (
        f"{verdict.what} TensorFlow {since} is the first line that has it."
        if tf_version
        else f"`{name}` is not in TensorFlow's public API before {since}, and is in every "
        "line since (AttributeError or ImportError before)."
    )
    return name, Verdict(
        verdict.key, verdict.cause, verdict.severity, what, fix, verdict.links, since=since
    )


def _keras2_moved(tb: Traceback) -> Optional[tuple[str, Verdict]]:
    """A name missing from one of standalone Keras 2's own modules (``keras.preprocessing.
    sequence`` has no ``pad_sequences``) that a later Keras 2 keeps in another module and
    exports under public names (keras.utils.pad_sequences): ``import keras`` of 2.6 to 2.12 is
    Keras' implementation, whose modules moved between releases; the public name stays."""
    asked = _keras_name(tb)
    if asked is None or not keras2_listing_describes(asked.module):
        return None
    module, attr = asked.module, asked.name
    # Two of Keras 2's modules exporting one public name: it moved between the releases the
    # listing was read from (keras.preprocessing.sequence's pad_sequences is
    # keras.utils.data_utils' from 2.9).
    homes = keras2_homes(attr)
    public = sorted(
        {n for home, names in homes.items() if home != module for n in names}
        - {f"{module}.{attr}"},
        key=lambda n: (not n.startswith("keras.utils."), n.count("."), n),
    )
    if not public or not any(home != module for home in homes):
        return None  # no other module keeps it: missing for another reason
    where, _, _ = public[0].rpartition(".")
    what = (
        f"`{module}` is one of Keras 2's own modules (what `import keras` gives from 2.6 to "
        f"2.12), and the installed Keras keeps `{attr}` elsewhere: it moved between releases. "
        f"Its public names stay: {', '.join(public[:3])}."
    )
    fix = Fix(
        f"Import `{attr}` by its public name (`from {where} import {attr}`), which every Keras "
        f"release that has it keeps; or `from tensorflow.keras{where[len('keras') :]} import "
        f"{attr}` for the Keras of the installed TensorFlow.",
        (),
    )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    return f"{module}.{attr}", Verdict(
        "keras2-name-moved", causes.code.API_REMOVED, Severity.ERROR, what, fix, links
    )


#: A module of TensorFlow 1.x's generated API as an error prints it: ``tensorflow._api.v1.random``
#: (1.13 to 1.15; ``tensorflow_core._api.v1`` in 1.15) is that release's ``tf.random``. In
#: TensorFlow 2 the same tree is ``tensorflow._api.v2.compat.v1``: the name shows a 1.x release.
_V1_API_MODULE = re.compile(r"^tensorflow(?:_core)?\._api\.v1(?P<rest>(?:\.\w+)*)$")
#: TensorFlow's own module trees: ``tensorflow``, and 2.0's and 2.1's ``tensorflow_core``.
_TF_TREE = re.compile(r"^tensorflow(?:_core)?(?:\.|$)")
#: The ``tensorflow`` package and its modules.
_TOP_TF = re.compile(r"^tensorflow(?:\.|$)")


def _tf_name(message: str) -> Optional[NameAsked]:
    """A name missing from a module of TensorFlow, or a module of TensorFlow's missing
    (Python's ModuleNotFoundError: "No module named 'tensorflow.compat.v2'"), as the evidence
    layer reads Python's words; None otherwise."""
    asked = name_asked(message)
    if asked is None or _TF_TREE.match(asked.module) is None:
        return None
    if asked.wording == "submodule" and _TOP_TF.match(asked.module) is None:
        return None  # a submodule of 2.0's tensorflow_core: not the public API's name
    return asked


def _tf_name_asked(message: str) -> bool:
    """Whether ``message`` says a module of TensorFlow that imported lacks a name
    (AttributeError, ImportError's "cannot import name"), not that a module of TensorFlow's
    is missing."""
    asked = name_asked(message)
    if asked is None or asked.wording == "submodule":
        return False
    if asked.wording == "import":
        return asked.module.startswith("tensorflow")
    return _TOP_TF.match(asked.module) is not None


#: A tensorflow.py or tensorflow/__init__.py a frame runs: a module of that name, which shadows
#: TensorFlow unless it is the installed one.
_OWN_TENSORFLOW = re.compile(r"(?:^|[/\\])tensorflow(?:\.py|[/\\]__init__\.py)$")


def _tf2_name_under_tf1(
    tb: Traceback, m: Machine, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """A name of TensorFlow 2's API that TensorFlow 1's lacks (``tf.optimizers``,
    ``tf.random.set_seed``) missing where the log's TensorFlow is not 2.x: the code was written
    for TensorFlow 2. TensorFlow 1's API is what 2.0 keeps whole as ``tf.compat.v1`` (both
    generated from the same ``tf_export(v1=...)`` table), so a name the oldest bundled line (2.0)
    has as ``tf.X`` and lacks as ``tf.compat.v1.X`` is no 1.x name; a module printed as
    ``tensorflow._api.v1...`` shows the 1.x release itself."""
    missing = _tf_name_missing(tb, tf_version)
    gone = tb.missing_module
    if missing is None or (
        gone is not None and gone.quoted and gone.name.startswith("tensorflow.")
    ):
        # A whole module missing is asked only where every 2.x line has it too
        # (_tf1_added_later): one a later 2.x line dropped says nothing of 1.x.
        return None
    name, module, v1 = missing
    lines = sorted(bundled_lines(), key=version_key)
    oldest = load_api(lines[0]) if lines else None
    v1_name = "tf.compat.v1" + name[len("tf") :]
    if oldest is None or not oldest.has(name) or oldest.lookup(v1_name).status != "missing":
        return None
    last_tf1 = load_tf1(tf1_lines()[0]) if tf1_lines() else None
    if last_tf1 is not None and last_tf1.has(name):
        return None  # TensorFlow 1.15 has it too: a release older than that lacks it
    seen = (
        f"the module it names ({module}) is TensorFlow 1's generated API"
        if v1 is not None
        else f"this TensorFlow ({tf_version}) is a 1.x release"
        if tf_version
        else "the TensorFlow that raised this is a 1.x release (the log does not show which)"
    )
    what = (
        f"`{name}` is TensorFlow 2's: TensorFlow {lines[0]} has it, and its `tf.compat.v1`, "
        f"which keeps TensorFlow 1's API whole, has no `{v1_name}`; {seen}."
    )
    fix = Fix(
        "The code was written for TensorFlow 2 and runs on TensorFlow 1: install TensorFlow "
        "2 (the command installs the newest line for this Python whose tf.keras is still "
        "Keras 2, as code of that era expects), or rewrite the code in TensorFlow 1's API "
        "(its API docs).",
        _tf2_install(m),
    )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    return name, Verdict(
        "tf2-name-under-tf1", causes.code.API_REMOVED, Severity.ERROR, what, fix, links
    )


def _tf_name_missing(
    tb: Traceback, tf_version: Optional[str]
) -> Optional[tuple[str, str, Optional[re.Match[str]]]]:
    """(public name, module as printed, its match as 1.x's generated API) of a name an
    exception says TensorFlow's public API lacks, where the TensorFlow may be a 1.x release and
    the caller is not an installed package; None otherwise."""
    asked = _tf_name(_as_printed(tb.message))
    if asked is None:
        return None
    if tf_version is not None and version_key(tf_version) >= (2, 0):
        return None  # a 2.x release lacks it: _added_later's question
    if tb.frames and installed_package(tb.frames[-1].path) is not None:
        return None  # an installed package asked: a caller of another release (packages.py)
    if asked.wording == "submodule":
        # A module of the public API missing (tf.compat.v2 before 1.14): itself the name; a
        # module every listed 1.x line has (tensorflow.contrib) is missing for another reason.
        # (Spelled as imported: public_name folds tf.compat.v2 into tf, the API it serves.)
        module = f"{asked.module}.{asked.name}"
        whole = "tf" + module[len("tensorflow") :]
        if ".python." in f"{whole}." or whole.startswith("tf._"):
            return None  # the private tree: no public API's release
        return whole, module, None
    module, attr = asked.module, asked.name
    v1 = _V1_API_MODULE.match(module)
    if v1 is not None:
        public: Optional[str] = "tf" + v1.group("rest")
    else:
        public = public_name(module)
    # The names under tf.compat's versioned trees (tf.compat.v1.X) are no release's additions:
    # the 1.x listings hold those trees as members of tf.compat only. tf.compat's own members
    # (v1 from 1.13, v2 from 1.14) are, as any other module's.
    if public is None or public.startswith(("tf.compat.", "tf._")) or not public.startswith("tf"):
        return None
    return f"{public}.{attr}", module, v1


def _printed_module_since(name: str, module: str) -> Optional[str]:
    """The release that brought the public module an error printed as lacking ``name``,
    spelled as printed (``tensorflow.compat.v2``: 1.14, as :func:`name_releases` dates it):
    the TensorFlow that raised the error is that release or a later one. None where no
    source dates it, or the module printed is the one missing ("No module named")."""
    printed = "tf" + module[len("tensorflow") :] if module.startswith("tensorflow.") else name
    if printed == name:
        return None
    releases = name_releases(printed, module=True)
    return releases.first if releases.dated else None


def _tf1_added_later(
    tb: Traceback, m: Machine, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """A name TensorFlow 1.x gained in some release and kept through 1.15 (``tf.py_function``
    from 1.13, ``tf.function`` from 1.14), missing where the TensorFlow is a 1.x release older
    than that, read from the 1.x lines' own API listings (1.9 to 1.15): the code was written for
    a newer TensorFlow. Where the log does not show the release, only a name every TensorFlow 2
    line keeps too says so (a TensorFlow 2 raising it is otherwise as likely), as one candidate
    of several (:func:`_ranked_unshown`: a Python no 1.x release ran on makes it the least
    likely) unless a 1.x module printed shows the release is one of 1.13 to 1.15. Python 2's words
    alone, with no module, source line or frame, are read only with the release shown, and as
    a warning (:func:`_py2_bare_tf_name`)."""
    missing = (
        _tf_name_missing(tb, tf_version)
        or _py2_tf_name_missing(tb, tf_version)
        or _py2_bare_tf_name(tb, tf_version)
    )
    if missing is None:
        return None
    name, module, v1 = missing
    lines = sorted(tf1_lines(), key=version_key)  # oldest first
    since: Optional[str] = None
    for line in reversed(lines):
        index = load_tf1(line)
        if index is None or not index.has(name):
            break
        since = line
    if since is None or since == lines[0]:
        return None  # 1.15 lacks it, or the oldest listed line has it: no release brought it
    floor = _printed_module_since(name, module) if v1 is None else None
    if floor is not None and version_key(floor) >= version_key(since):
        # The module the error printed came with a release that has the name
        # (tensorflow.compat.v2, 1.14, lacking tf.experimental of 1.13): no release too old.
        return None
    tf2 = sorted(bundled_lines(), key=version_key)
    in_tf2 = bool(tf2) and all(
        (index := load_api(line)) is not None and index.has(name) for line in (tf2[0], tf2[-1])
    )
    if tf_version is not None:
        if version_key(tf_version)[:2] >= version_key(since):
            return None  # this TensorFlow has it: missing for another reason
        this = f"this TensorFlow ({tf_version}) is older"
    elif v1 is not None or in_tf2:
        this = "the TensorFlow that raised this is older (the log does not show which)"
    else:
        return None
    # The last 1.x release's install; where the log shows Python 2, its words name the
    # release whose wheels that Python has (the fix's text names 1.15 already otherwise).
    commands, installs = _tf1_install(tb, m, "1.15")
    installs_note = f" ({installs})." if _python2_shown(tb, m) else "."
    if in_tf2 and (tf_version is not None or _python2_shown(tb, m)):
        # The log shows a 1.x release, and the code around it is of that era: the last 1.x
        # has the name and keeps TensorFlow 1's API; TensorFlow 2 is the other way. (Or it
        # shows Python 2, which no TensorFlow 2 line's wheels after 2.1 run.)
        fix = Fix(
            f"`{name}` is in TensorFlow from {since} on, and {this}: the code was written for "
            f"a newer TensorFlow. Install TensorFlow 1.15, the last 1.x release (it has the "
            "name and keeps TensorFlow 1's API), or TensorFlow 2 if the code is TensorFlow 2's"
            + installs_note,
            commands,
        )
    elif in_tf2:
        fix = Fix(
            f"`{name}` is in TensorFlow from {since} on, and {this}: the code was written for "
            f"a newer TensorFlow. Install TensorFlow 2 (the command installs the newest line "
            f"for this Python whose tf.keras is still Keras 2), or {since} or later of 1.x if "
            "the rest of the code is TensorFlow 1's.",
            _tf2_install(m),
        )
    else:
        fix = Fix(
            f"`{name}` is in TensorFlow 1.x from {since} on, and {this}: install TensorFlow "
            "1.15, the last 1.x release, which has it" + installs_note,
            commands,
        )
    what = (
        f"`{name}` is not in TensorFlow's public API before {since}, and is in every 1.x "
        f"release since" + (" and in TensorFlow 2." if in_tf2 else ".")
    )
    severity = Severity.ERROR
    if not module:
        # Python 2's words alone name no module: tf's is the likely one, not shown (a warning).
        severity = Severity.WARNING
        what += (
            f" (The message names no module and shows no source line: TensorFlow's `{name}`, "
            "which this release lacks, is the likely one.)"
        )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    # No release shown and no 1.x module printed: an older release is one candidate of
    # several, ranked by the log's Python (_ranked_unshown), as for the other unshown names.
    key = _UNSHOWN_KEY if tf_version is None and v1 is None else "tf1-name-added-later"
    return name, Verdict(key, causes.code.API_REMOVED, severity, what, fix, links, since=since)


def _not_the_release(tb: Traceback) -> bool:
    """Whether ``tb``'s message says the module asked is not a release's whole API: a module
    still importing (an import cycle, :attr:`Traceback.circular_import`: 3.8's and 3.13's
    words), or ImportError's ``(unknown location)`` of an empty namespace folder an uninstall
    left (:attr:`Traceback.missing_name`'s path)."""
    asked = tb.missing_name
    return tb.circular_import is not None or (
        asked is not None and asked.path.startswith("unknown location")
    )


#: Files only TensorFlow 2 has (its generated API tree, 1.15 to 2.0's tensorflow_core, the
#: lazy loader of its keras): a frame in them shows a release newer than the listings' oldest.
_TF2_TREE = re.compile(r"_api[/\\]v2[/\\]|tensorflow_core[/\\]|keras_lazy_loader")
#: A name of TensorFlow's public API as a source line writes it (``tf.data.Dataset``): the
#: module Python 2's "'module' object has no attribute" leaves unnamed.
_TF_WRITTEN = re.compile(r"\b(?:tf|tensorflow)((?:\.[A-Za-z_]\w*){1,6})")


def _py2_tf_name_missing(
    tb: Traceback, tf_version: Optional[str]
) -> Optional[tuple[str, str, Optional[re.Match[str]]]]:
    """(public name, module, None) of a name Python 2's words say a module lacks
    (``'module' object has no attribute 'data'``), where the source line the traceback
    printed for the innermost frame writes it on TensorFlow's public API (``tf.data.Dataset``);
    None otherwise, as _tf_name_missing."""
    attr = _py2_attribute(_as_printed(tb.message))
    if attr is None:
        return None
    if tf_version is not None and version_key(tf_version) >= (2, 0):
        return None
    if tb.frames and installed_package(tb.frames[-1].path) is not None:
        return None  # an installed package asked: a caller of another release (packages.py)
    code = tb.frames[-1].code if tb.frames else tb.code
    for written in _TF_WRITTEN.finditer(code or ""):
        parts = written.group(1).split(".")[1:]
        if attr in parts and not parts[0].startswith("_"):
            # The written path up to the missing attribute: the first use of it on the line.
            path = parts[: parts.index(attr) + 1]
            return "tf." + ".".join(path), "tf." + ".".join(path[:-1]), None
    return None


def _tf1_keyword_added_later(
    tb: Traceback,
    knowledge: ApiKnowledge,
    m: Machine,
    tf_version: Optional[str],
    keras_backend_shown: bool = False,
) -> Optional[tuple[str, Verdict]]:
    """A TensorFlow function refusing a keyword argument a later 1.x release brought (the scan
    rules :func:`~tfdoctor.explain.packages.keyword_added` reads: ``reduce_max() got an
    unexpected keyword argument 'keepdims'``, ``argmax() ... 'axis'``): every TensorFlow from
    that release on takes it, so the one that raised this is older than the code that called
    it. The function is read from Python's words and must
    be one the rule names; a log showing a release that has the argument is missing it for
    another reason (None). Where Keras' own frame made the call, or the log names the file
    that makes it (multi-backend Keras' keras/backend/tensorflow_backend.py, which
    ``keras_backend_shown`` says), that Keras is newer than the TensorFlow (keras-version)."""
    match = _FUNCTION_KEYWORD.search(_as_printed(tb.message))
    if match is None:
        return None
    func, kwarg = match.group("func"), match.group("kw")
    added = keyword_added(knowledge.rules, func, kwarg)
    if added is None:
        return None  # another argument, or a function of that name that is not TensorFlow's
    names, since, older = added
    if _called_elsewhere(tb, func):
        return None  # the source line shows another library's function (torch's F.softmax)
    caller = next((o for o in library_origins(tb)), None)
    keras_frame = caller is not None and caller.dist == "keras" and bool(tb.frames)
    if version_key(since) < (1, 5) and not (
        _tensorflow_in_traceback(tb) or keras_frame or (keras_backend_shown and not tb.frames)
    ):
        # 1.0's renames gave TensorFlow NumPy's own words (argmax's, expand_dims' and split's
        # axis), which NumPy's and other libraries' functions of those names refuse or take
        # in the same words: Python's words alone, or a frame of another library's printed
        # without its line, say nothing of TensorFlow. 1.5's keepdims of the reductions and
        # axis of softmax are read from the words, as before.
        return None
    if tf_version is not None and version_key(tf_version)[:2] >= version_key(since):
        return None  # this TensorFlow takes it: refused for another reason
    this = (
        f"this TensorFlow ({tf_version}) is older"
        if tf_version is not None
        else "the TensorFlow that raised this is older (the log does not show which)"
    )
    last = max(tf1_lines(), key=version_key, default="1.15")
    what = (
        f"`{names[0]}` has taken `{kwarg}` since TensorFlow {since} (it replaced `{older}`), "
        f"and {this}."
    )
    if keras_frame or (keras_backend_shown and not tb.frames):
        # Keras' own frame made the call (its TensorFlow backend), or, where no frame is
        # shown, the log names that backend's file: the installed Keras was written for a
        # newer TensorFlow than this one.
        matched = causes.software.keras_match_fix(m)
        fix = Fix(
            f"The installed Keras calls `{names[0]}` with `{kwarg}`, which TensorFlow takes "
            f"from {since} on, and {this}: this Keras needs a newer TensorFlow. Upgrade "
            f'TensorFlow to {since} or later (`pip install "tensorflow>={since},<2"` keeps '
            "TensorFlow 1's API), or install the Keras release made for this TensorFlow. "
            + matched.text,
            matched.commands,
        )
        links = causes.CAUSES[causes.software.KERAS_VERSION].links
        return f"{names[0]}({kwarg}=...)", Verdict(
            "keras-calls-newer-tf1-keyword",
            causes.software.KERAS_VERSION,
            Severity.ERROR,
            what
            + (
                " The call is the installed Keras' own (its frame)."
                if keras_frame
                else " The log names Keras' TensorFlow backend (tensorflow_backend.py), whose "
                "call it is."
            ),
            fix,
            links,
        )
    commands, installs = _tf1_install(tb, m, last)
    fix = Fix(
        f"`{names[0]}` takes `{kwarg}` from TensorFlow {since} on (before it, the argument was "
        f"`{older}`), and {this}: the code was written for a newer TensorFlow. Upgrade "
        f"TensorFlow to {since} or later: {installs} (it keeps TensorFlow 1's API; install "
        "TensorFlow 2 instead if the code is TensorFlow 2's)." + _library_release_kept(tb),
        commands,
    )
    links = causes.CAUSES[causes.code.TF_TOO_OLD_FOR_CODE].links
    return f"{names[0]}({kwarg}=...)", Verdict(
        _TF1_KEYWORD_KEY, causes.code.TF_TOO_OLD_FOR_CODE, Severity.ERROR, what, fix, links
    )


def _library_release_kept(tb: Traceback) -> str:
    """The way to keep the installed TensorFlow, as a sentence, where an installed library's
    code passed a keyword a later release brought (:func:`tfdoctor.explain.interface.
    installed_caller`): that library's release made for it, never an edit inside
    site-packages; "" where the user's own code did: its edit is the other candidate's fix
    (:func:`_older_keyword_edit`)."""
    caller = installed_caller(tb)
    if caller is None:
        return ""
    return f" To keep this TensorFlow, install the release of {caller[0]} made for it."


def _older_keyword_edit(name: str, verdict: Verdict, knowledge: ApiKnowledge) -> Optional[Verdict]:
    """The other candidate beside a keyword a later release brought (:data:`_KEYWORD_KEYS`),
    where the user's own code passed it: the code kept and this TensorFlow's own spelling
    written in the call (api-removed, a warning), from the same tables that dated the keyword
    (the scan rules :func:`~tfdoctor.explain.packages.keyword_added` reads, the Keras API
    table's ``tensorflow2_arguments``).
    Asked only of a verdict :func:`api_findings` kept as the lead, which it does not where an
    installed library's code passed the keyword (its release is the way, not an edit inside
    site-packages). None where no table knows the function."""
    call = re.fullmatch(r"(?P<api>[\w.]+)\((?P<kw>\w+)=\.\.\.\)", name)
    if call is None:
        return None
    api, kwarg = call.group("api"), call.group("kw")
    if verdict.key == _LISTED_KEYWORD_KEY:
        if verdict.cause != causes.code.TF_TOO_OLD_FOR_CODE:
            return None  # a keyword that left: the verdict's own fix is the edit
        edit = (
            f"write the call without `{kwarg}=`, in the arguments the installed release's "
            f"`{api}` takes (its API docs)"
        )
    elif verdict.key == _TF1_KEYWORD_KEY:
        added = keyword_added(knowledge.rules, api.rsplit(".", 1)[-1], kwarg)
        if added is None or _order_changed(knowledge, api, added[1]):
            return None
        edit = (
            f"write `{added[2]}=` for `{kwarg}=` in the call (the spelling before TensorFlow "
            f"{added[1]})"
        )
    else:
        row = keras_api().tensorflow2_arguments.get(kwarg)
        if row is None or row.api != api:
            return None
        # A new argument (no older name) has no spelling to write on the line before, and the
        # table may not say what dropping it costs.
        dropped = f" ({row.dropped})" if row.dropped else ""
        older = (
            f", or on TensorFlow {row.before} write `{row.older_name}=`" if row.older_name else ""
        )
        edit = f"drop `{kwarg}=`{dropped}{older}"
    what = (
        f"`{api}` of the installed TensorFlow refuses `{kwarg}` (TypeError): the call can be "
        "written in this release's terms instead of installing a newer one."
    )
    fix = Fix(f"To keep the installed TensorFlow, {edit}.", ())
    links = causes.CAUSES[causes.code.API_REMOVED].links
    return Verdict(verdict.key, causes.code.API_REMOVED, Severity.WARNING, what, fix, links)


def _order_changed(knowledge: ApiKnowledge, api: str, release: str) -> bool:
    """Whether the release that renamed ``api``'s keyword also reordered its arguments (a scan
    rule on a positional argument of ``api`` from that release: tf.concat's and tf.split's at
    1.0), so writing the older keyword on the same call is no way to keep the release."""
    return any(
        rule.arg is not None and api in rule.api and rule.release == release
        for rule in knowledge.rules.rules
    )


#: Python's refusal of a call to TensorFlow 1's SavedModel loader, load(sess, tags, export_dir)
#: (tensorflow/python/saved_model/loader_impl.py, tf.saved_model.load in 1.x), made as
#: TensorFlow 2's tf.saved_model.load(export_dir) (tensorflow/python/saved_model/load.py).
#: The arguments Python says are missing there (evidence.refusals' reading), by how many.
_V1_LOADER_MISSING = {"'tags' and 'export_dir'": 2, "'export_dir'": 1}


def _tf1_loader_given_tf2_call(
    tb: Traceback, m: Machine, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """TensorFlow 1's tf.saved_model.load(sess, tags, export_dir) called as TensorFlow 2's
    tf.saved_model.load(path): the code is TensorFlow 2's and the TensorFlow is a 1.x. Two
    arguments missing ('tags' and 'export_dir') say so alone; one ('export_dir') only where the
    log shows a 1.x release (TensorFlow 2's own loader, called with no path, says the same)."""
    refusal = read_refusal(_as_printed(tb.message))
    if (
        refusal is None
        or refusal.shape != MISSING
        or refusal.callee.rsplit(".", 1)[-1] != "load"
        or refusal.missing not in _V1_LOADER_MISSING
    ):
        return None
    tf1 = tf_version is not None and version_key(tf_version)[0] == 1
    if tf_version is not None and not tf1:
        return None  # a TensorFlow 2, whose loader takes the path: another call's mistake
    if _V1_LOADER_MISSING[refusal.missing] == 1 and not tf1:
        return None
    this = f"TensorFlow {tf_version}" if tf_version else "this TensorFlow 1.x"
    what = (
        f"tf.saved_model.load in {this} is TensorFlow 1's loader, load(sess, tags, "
        "export_dir); the call gives it TensorFlow 2's arguments, load(export_dir): the code "
        "was written for TensorFlow 2."
    )
    fix = Fix(
        "The code calls TensorFlow 2's tf.saved_model.load(path), which TensorFlow 1.x does "
        "not have under that name: run it on TensorFlow 2 (the command installs the newest "
        "TensorFlow 2 line before Keras 3 with a wheel for this Python). To stay on 1.x, "
        "TensorFlow 1.14 and 1.15 have TensorFlow 2's loader as "
        "tf.compat.v2.saved_model.load(path); or load TensorFlow 1's way, "
        "tf.compat.v1.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], "
        "path), inside a session.",
        _tf2_install(m),
    )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    return "tf.saved_model.load", Verdict(
        "tf2-saved-model-load-under-tf1", causes.code.API_REMOVED, Severity.ERROR, what, fix, links
    )


def _called_elsewhere(tb: Traceback, func: str) -> bool:
    """Whether the source line the traceback printed for the innermost call of ``func`` calls
    it on something other than TensorFlow (``F.softmax(x, axis=1)``: PyTorch's, which names
    the argument dim), or a frame is of a framework that has its own function of that name."""
    if any(installed_package(f.path) in _OTHER_FRAMEWORKS for f in tb.frames):
        return True
    codes = [f.code for f in reversed(tb.frames) if f.code] + ([tb.code] if tb.code else [])
    call = next((c for c in codes if re.search(rf"\b{re.escape(func)}\(", c)), None)
    if call is None:
        return False  # the line is not shown: the function's name is the evidence
    return re.search(rf"\b(?:tf|tensorflow)(?:\.\w+)*\.{re.escape(func)}\(", call) is None


def _older_than_listings(
    tb: Traceback, m: Machine, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """A name every 1.x line the listings hold has (``tf.data``: 1.9 to 1.15), missing where the
    log shows a TensorFlow older than the oldest of them (1.1.0), or, where it shows none, a
    name every listed line of 1.x and 2.x has: the TensorFlow that raised it is older than the
    listings, and the code was written for a newer one. The listings do not say which earlier
    release brought the name, so the fix names their oldest line, never an earlier one."""
    if _not_the_release(tb):
        return None  # a module half imported, or an empty folder: not the release's API
    missing = _tf_name_missing(tb, tf_version) or _py2_tf_name_missing(tb, tf_version)
    if missing is None:
        return None
    name, _module, v1 = missing
    if v1 is not None:
        return None  # 1.13 to 1.15's generated API printed: a listed release lacks it
    # The 1.x listings (tfdoctor/scan/tf1_lines.txt, read by scripts/gen_scan_api.py --tf1
    # from the Linux wheels' generated API files of 1.9.0 to 1.15.5) start at 1.9: what an
    # earlier release had they cannot say, so 1.9 is the release the fix names.
    lines = sorted(tf1_lines(), key=version_key)  # oldest first
    if not lines or not all(
        (index := load_tf1(line)) is not None and index.has(name) for line in lines
    ):
        return None  # a listed 1.x line lacks it: _tf1_added_later's or another question
    oldest = lines[0]
    if name.count(".") == 1 and name[len("tf.") :] in _SINCE_FIRST_RELEASE:
        return None  # in every release since the first: no whole TensorFlow (hollow)
    if tf_version is not None:
        if version_key(tf_version)[:2] >= version_key(oldest):
            return None  # a listed release, which has it: missing for another reason
        this = f"this TensorFlow ({tf_version}) is older than {oldest}"
    else:
        message = _as_printed(tb.message)
        if not (_tf_name_asked(message) or _py2_attribute(message)):
            return None  # a module missing (No module named ...) says less of the release
        if any(
            _OWN_TENSORFLOW.search(f.path) and installed_package(f.path) is None for f in tb.frames
        ):
            return None  # the user's own tensorflow.py in the frames: shadowing, said elsewhere
        if any(_TF2_TREE.search(f.path) for f in tb.frames):
            return None  # TensorFlow 2's own files in the frames: a 2.x release raised it
        tf2 = bundled_lines()
        if not tf2 or not all(
            (index := load_api(line)) is not None and index.has(name) for line in tf2
        ):
            return None  # a 2.x line lacks it: a TensorFlow 2 raising it is as likely
        this = (
            f"the TensorFlow that raised this must be older than {oldest} (the log does not "
            "show which)"
        )
    commands, installs = _tf1_install(tb, m, lines[-1])
    fix = Fix(
        f"`{name}` is in every TensorFlow release from {oldest} (the oldest release tfdoctor's "
        f"listings hold) on, and {this}: the code was written for a newer TensorFlow. Upgrade "
        f"TensorFlow to {oldest} or later: {installs} (it has the name and keeps TensorFlow "
        "1's API); install TensorFlow 2 instead if the code is TensorFlow 2's.",
        commands,
    )
    what = (
        f"`{name}` is in TensorFlow's public API in every release from {oldest} (the oldest "
        f"line the API listings hold) on, and {this}."
    )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    key = "tf-older-than-listings" if tf_version is not None else _UNSHOWN_KEY
    return name, Verdict(
        key, causes.code.API_REMOVED, Severity.ERROR, what, fix, links, since=oldest
    )


#: Where TensorFlow's release notes live: the source of the early table's rows.
_RELEASE_NOTES = "https://github.com/tensorflow/tensorflow/blob/master/RELEASE.md"
#: The verdict key of :func:`_early_release`.
_EARLY_KEY = "tf-early-release"
#: The verdict key of a name every release since some early one has, missing where the log
#: shows no TensorFlow release (:func:`_early_release`'s added names, :func:`_older_than_listings`
#: without a version): an older release is one candidate of several (:func:`_ranked_unshown`).
_UNSHOWN_KEY = "tf-older-unshown"


def _releases_words(releases: Sequence[str]) -> str:
    """``1.0 and 1.1``, ``1.0 to 1.3``: a run of releases in words."""
    if len(releases) == 1:
        return releases[0]
    joint = " and " if len(releases) == 2 else " to "
    return f"{releases[0]}{joint}{releases[-1]}"


def _early_release(
    tb: Traceback, m: Machine, tf_version: Optional[str], reinstalled: bool = False
) -> Optional[tuple[str, Verdict]]:
    """A name TensorFlow's release notes place before the listings (tfdoctor/scan/tf_early.txt:
    ``tf.select``, which 1.0 removed for ``tf.where``; ``tf.data``, which 1.4 brought;
    ``tf.nn.rnn_cell``, in ``tf.contrib.rnn`` for 1.0 and 1.1), missing where the releases the
    log allows say which way: the TensorFlow it shows (older than the listings), else a module
    of TensorFlow 1's own tree printed (``tensorflow.python.ops.nn``: a release before 2.0),
    else Python 2 shown (the releases up to 2.1, :func:`_python2_releases`), else any release.
    Removed: the code is older than the TensorFlow (its new name, or the last
    release with it); added: the TensorFlow is older than the code (the first release with it);
    away for a while: the name of those releases, or the release that brought it back."""
    if _not_the_release(tb):
        return None
    early = load_early()
    missing = (
        _tf_name_missing(tb, tf_version)
        or _py2_tf_name_missing(tb, tf_version)
        or _py2_bare_early_name(tb, tf_version)
    )
    if missing is None or missing[2] is not None:
        return None  # 1.13 to 1.15's generated API printed: the listings answer
    name, module, _v1 = missing
    listed_1x = sorted(tf1_lines(), key=version_key)
    allowed: Optional[list[str]] = None
    if tf_version is not None:
        line = ".".join(tf_version.split(".")[:2])
        if listed_1x and version_key(line) >= version_key(listed_1x[0]):
            return None  # a listed line: its own listing answers (_tf1_added_later)
        allowed = [line]
    elif module in early.modules:
        # TensorFlow 1's own module for a public namespace: no TensorFlow 2 printed it.
        allowed = [*early.releases, *listed_1x]
    else:
        allowed = _python2_releases(tb, m)
    gap = release_gap(name, allowed)
    if gap is None:
        return None
    if gap.kind == "added" and tf_version is None and not _older_release_raised(tb, name):
        return None
    if gap.kind == "added" and reinstalled:
        return None  # TensorFlow installed inside the running kernel: a mix of two releases
    last_1x = listed_1x[-1] if listed_1x else "1.15"
    source = f"TensorFlow's release notes, {gap.source}"
    if gap.kind == "removed":
        until = gap.gone_in
        this = (
            f"this TensorFlow ({tf_version}) is {until} or newer"
            if tf_version
            else f"no release since has it, so the TensorFlow that raised this is {until} or newer"
        )
        what = (
            f"TensorFlow {until} removed `{name}`"
            + (f" for `{gap.now}`" if gap.now else "")
            + f" ({source}); {this}."
        )
        way = (
            f"Write `{gap.now}` for `{name}` (the name the release notes give)"
            if gap.now
            else "Port the call to the installed release's API (its API docs)"
        )
        fix = Fix(
            f"The code was written for TensorFlow {gap.last_before} or older. {way}, or run the "
            f"code as written on TensorFlow {gap.last_before}, the last release with it "
            f'(`pip install "tensorflow=={gap.last_before}.*"`, in an environment of a Python '
            "that release has wheels for).",
            (),
        )
    elif gap.kind == "added":
        this = (
            f"this TensorFlow ({tf_version}) is older"
            if tf_version
            else "the TensorFlow that raised this is older (the log does not show which)"
        )
        what = (
            f"`{name}` is in TensorFlow's public API from {gap.first_after} on ({source}), and "
            f"{this}."
        )
        commands, installs = _tf1_install(tb, m, last_1x)
        fix = Fix(
            f"The code was written for TensorFlow {gap.first_after} or newer: upgrade TensorFlow "
            f"to {gap.first_after} or later ({installs}, which keeps TensorFlow 1's API; "
            "install TensorFlow 2 instead if the code is TensorFlow 2's).",
            commands,
        )
    else:
        away = _releases_words(gap.missing)
        this = (
            f"this TensorFlow ({tf_version}) is one of them"
            if tf_version
            else f"the module printed ({module}) is TensorFlow 1's own, so the TensorFlow that "
            "raised this is one of them"
        )
        moved = f" moved it to `{gap.now}`" if gap.now else " removed it"
        what = (
            f"`{name}` is not in TensorFlow {away}: {gap.gone_in}{moved} ({source}), and "
            f"{gap.first_after} brought it back; {this}."
        )
        instead = (
            f"write `{gap.now}` for `{name}` to run on TensorFlow {away}, or " if gap.now else ""
        )
        commands, installs = _tf1_install(tb, m, last_1x)
        fix = Fix(
            f"The code was written for another release: {instead}upgrade TensorFlow to "
            f"{gap.first_after} or later, which has `{name}` ({installs}).",
            commands,
        )
    links = (*causes.CAUSES[causes.code.API_REMOVED].links, _RELEASE_NOTES)
    severity = Severity.ERROR
    if not module:
        # Python 2's words alone name no module: the name is the table's only one of that
        # attribute, likely, not shown (a warning).
        severity = Severity.WARNING
        what += (
            f" (The message names no module and shows no source line: `{name}` is the only "
            f"name of TensorFlow's early API ending in `{name.rsplit('.', 1)[-1]}`.)"
        )
    key = _UNSHOWN_KEY if gap.kind == "added" and tf_version is None else _EARLY_KEY
    since = gap.first_after if gap.kind == "added" else ""
    return name, Verdict(key, causes.code.API_REMOVED, severity, what, fix, links, since=since)


def _python2_shown(tb: Traceback, m: Machine) -> bool:
    """Whether the log shows a Python 2 ran the code: Python 2's words for a name missing
    (``'module' object has no attribute``, ``No module named x`` unquoted: Python 3.5 on
    name the module, Python 3 quotes it), a frame under a Python 2 interpreter's folder
    (``lib/python2.7/``, ``C:\\Python27\\``: the evidence layer's one reader of a path's
    Python), or the Python the log's paths show."""
    message = _as_printed(tb.message)
    return (
        _py2_attribute(message) is not None
        or ((gone := missing_module(message)) is not None and gone.python2_alone)
        or (m.python_version or "").startswith("2.")
        or any((path_python(f.path) or "").startswith("2.") for f in tb.frames)
    )


def _python2_releases(tb: Traceback, m: Machine) -> Optional[list[str]]:
    """Every release line the early table and the listings know up to the newest TensorFlow
    with wheels for Python 2 (2.1, from the matrix), where the log shows Python 2 ran the
    code: no later release ran there. None where it does not, or the matrix does not say."""
    if not _python2_shown(tb, m):
        return None
    last = _last_release_for(m, "2.7", 2)
    if last is None:
        return None
    bound = version_key(last)[:2]
    known = [*load_early().releases, *tf1_lines(), *bundled_lines()]
    return sorted({r for r in known if version_key(r)[:2] <= bound}, key=version_key)


def _python2_bound(
    tb: Traceback, knowledge: ApiKnowledge, m: Machine, tf_version: Optional[str]
) -> ApiKnowledge:
    """``knowledge`` judging for the newest TensorFlow line with wheels for Python 2 (2.1, from
    the matrix), where the log shows Python 2 ran the code and no TensorFlow: no later release
    ran there, so a verdict about a later one (Keras 3's, under 2.16 on) cannot be what raised
    (``tf.nn.rnn_cell`` under Python 2 is TensorFlow 2.0's or 2.1's move to tf.compat.v1, not
    Keras 3). Where Python 2 is shown and the Python is not known, it judges for Python 2.7,
    the one Python 2 TensorFlow published wheels for: a fix that installs a release names
    one with wheels for it (1.15.0, never 1.15.5). ``knowledge`` itself otherwise, or where
    the matrix does not say."""
    if not _python2_shown(tb, m):
        return knowledge
    if knowledge.python is None:
        knowledge = ApiKnowledge(
            knowledge.matrix, knowledge.rules, knowledge.target, "2.7", knowledge.platform
        )
    if tf_version is not None:
        return knowledge
    last = _last_release_for(m, "2.7", 2)
    return knowledge if last is None else knowledge.at(".".join(last.split(".")[:2]))


def _release_pythons(m: Machine, major: int) -> list[tuple[str, Mapping[str, tuple[str, ...]]]]:
    """The releases of TensorFlow ``major`` the matrix knows, each with the Pythons of its
    wheels by platform key: the early releases' rows and each line's latest patch (a line's
    Pythons are that patch's); empty without a matrix."""
    if m.matrix is None:
        return []
    rows = [(row.release, row.python) for row in m.matrix.early_releases]
    rows += [(x.latest_patch, x.python) for x in m.matrix.lines if not x.pre_release]
    return [(release, pythons) for release, pythons in rows if version_key(release)[:1] == (major,)]


def _newest_tf1_python(m: Machine) -> Optional[str]:
    """The newest Python any TensorFlow 1 release has wheels for (the matrix's 1.x lines and
    early releases: 3.7); None without a matrix."""
    found = {p for _, pythons in _release_pythons(m, 1) for ps in pythons.values() for p in ps}
    return max(found, key=version_key, default=None)


def _last_release_for(m: Machine, python: str, major: int) -> Optional[str]:
    """The newest release of TensorFlow ``major`` with a wheel for ``python`` on this
    machine's platform (any, where unknown), as the matrix says
    (:meth:`tfdoctor.matrix.Matrix.newest_release_with_wheels`): for Python 2.7 and 1.x,
    1.15.0 on Linux and macOS, none on Windows."""
    if m.matrix is None:
        return None
    return m.matrix.newest_release_with_wheels(python, m.wheel_platform, str(major))


def _tf1_install(tb: Traceback, m: Machine, line: str) -> tuple[tuple[str, ...], str]:
    """The commands installing TensorFlow 1's last line ``line`` for the code of ``tb``, and
    their words. Where the log shows Python 2, whose wheels 1.15's later patches lack
    (1.15.5's are for 3.6 and 3.7, the matrix), the last 1.x release with Python 2 wheels for
    the platform, else (Windows: TensorFlow never had them) an environment of a Python 3
    that ``line`` has wheels for."""
    words = f"the command installs {line}, the last 1.x release"
    if not _python2_shown(tb, m):
        return causes.software.line_install(m, line), words
    release = _last_release_for(m, "2.7", 1)
    if release is not None:
        return m.pip(f'install "tensorflow=={release}"'), (
            f"the command installs {release}, the last 1.x release with wheels for Python 2, "
            f"which this is and the latest {line} releases have none for; or run the code with "
            f"a Python 3 that {line} has wheels for"
        )
    py2 = m
    if not (m.python_version or "").startswith("2."):
        hints = m.hints if m.hints is not None else LogHints()
        py2 = dataclasses.replace(m, hints=dataclasses.replace(hints, python="2.7"))
    return causes.software.line_install(py2, line), (
        f"this is Python 2, which no TensorFlow release has wheels for here: the commands "
        f"make an environment of a Python 3 that {line} has wheels for and install it there"
    )


def _older_release_unlikely(tb: Traceback, m: Machine) -> str:
    """Why the log makes a TensorFlow older than the name unlikely, in words ("" where it
    does not): a Python newer than any TensorFlow 1 release has wheels for (the log's paths),
    or Python 3.10's suggestion after the error; never where it shows Python 2."""
    if _python2_shown(tb, m):
        return ""
    python = m.python_version
    newest = _newest_tf1_python(m)
    if python and newest and version_key(python)[:2] > version_key(newest)[:2]:
        return (
            f"the log's Python is {python}, and no TensorFlow 1 release has wheels for a Python "
            f"newer than {newest}"
        )
    if suggestion(tb.message):
        # Python's suggestion, which Python 3.10 brought (What's New in Python 3.10,
        # "AttributeErrors"), read by the evidence layer.
        return (
            "Python's 'Did you mean' is Python 3.10's or later, and no TensorFlow 1 release "
            f"has wheels for a Python newer than {newest or '3.7'}"
        )
    return ""


def _ranked_unshown(
    tb: Traceback, name: str, verdict: Verdict, m: Machine
) -> tuple[Verdict, list[Finding]]:
    """The candidates for a name every release since some early one has, missing where the
    log shows no TensorFlow release, ranked by what the log shows: a TensorFlow older than
    the name (the verdict), a module named tensorflow that is not TensorFlow (a tensorflow.py
    or tensorflow/ of the user's own: no frame shows it, else shadowed_module_findings says so
    for certain; not where a frame is the installed TensorFlow's own), and an install whose
    files are incomplete, each with its own fix. Python 2
    (or no sign either way) keeps the older release first; a Python no TensorFlow 1 runs on
    puts it last, as information."""
    said = f"{tb.where}: {tb.type}: {tb.message}"
    unlikely = _older_release_unlikely(tb, m)
    shadowed = "`import tensorflow` may load a module of the user's own, not TensorFlow"
    shadow_detail = (
        f"{said}\nA tensorflow.py or a tensorflow/ folder in the directory the code ran in (or "
        f"on PYTHONPATH) is imported as `tensorflow` and lacks `{name}` whatever TensorFlow is "
        "installed; the traceback shows no TensorFlow file, so it does not tell this from "
        "the other readings."
    )
    shadow_fix = causes.software.unshown_shadow_fix()
    # An unlikely older release leaves the user's own module the leading reading, a warning
    # of its own; otherwise it is the other candidate, as information like the older release.
    shadow = (
        causes.finding(
            f"explain.{causes.software.TF_SHADOWED_MODULE}",
            Severity.WARNING,
            causes.software.TF_SHADOWED_MODULE,
            shadowed,
            shadow_detail,
            shadow_fix,
        )
        if unlikely
        else causes.other_candidate(
            causes.software.TF_SHADOWED_MODULE,
            shadowed,
            shadow_detail,
            shadow_fix,
            Severity.INFO,
        )
    )
    broken = causes.other_candidate(
        causes.software.TF_INSTALL_INCOMPLETE,
        "the installed TensorFlow's files may be incomplete",
        f"{said}\nA TensorFlow whose package folder is partial (an install that ended part "
        "way, or the uninstall of another distribution that shared its files: a folder "
        f"without its __init__.py imports as an empty module) lacks `{name}` too.",
        causes.software.incomplete_install_fix(m),
        Severity.INFO,
    )
    # A frame of the installed TensorFlow's own files (tf.app.run's platform/app.py) shows
    # `import tensorflow` loaded TensorFlow: no module of the user's own stands in for it.
    framed = any(installed_package(f.path) in ("tensorflow", "tensorflow_core") for f in tb.frames)
    others = [broken] if framed else [shadow, broken]
    if not unlikely:
        return verdict, others
    older = dataclasses.replace(
        verdict,
        severity=Severity.INFO,
        what=f"Or (unlikely: {unlikely}): {verdict.what}",
    )
    return older, others


#: A use of a module of TensorFlow's generated op wrappers by its own name (``gen_nn_ops.X``):
#: tf_gen_op_wrapper_py writes each op library's wrappers as a gen_*_ops.py module
#: (tensorflow/tensorflow.bzl): TensorFlow's own in tensorflow/python/ops, and 1.x's contrib
#: packages' in their own ops folders (tensorflow/contrib/image/ops/gen_image_ops.py, contrib
#: rnn's gen_lstm_ops.py), so the name alone does not say which package's module it is.
#: Which wrappers a module has, and which are hidden behind a leading underscore, changes
#: between releases (python_op_gen.cc: the hidden ops' list).
_GENERATED_OPS = re.compile(r"(?<![\w.])(?P<module>gen_[a-z0-9_]+_ops)\.(?P<attr>[A-Za-z_]\w*)\b")
#: The folder of TensorFlow's tree a frame's file lies in whose generated op wrappers it
#: uses: TensorFlow's own python/ tree (tensorflow/python/ops), or a 1.x contrib package's
#: (tensorflow/contrib/image/ops).
_GENERATED_HOME = re.compile(
    r"[/\\]tensorflow[/\\](?:(?P<python>python)|contrib[/\\](?P<contrib>\w+))[/\\]"
)


def _generated_ops_module(tb: Traceback, module: str) -> str:
    """The whole name of the generated op wrappers' module ``module`` (``gen_image_ops``) a
    traceback uses, where a printed import (``from tensorflow.contrib.image.ops import
    gen_image_ops``) or the path of the frame using it names its package; ``module`` alone
    where neither does."""
    codes = [c for c in (tb.code, *(f.code for f in tb.frames)) if c]
    for code in codes:
        imported = re.search(
            rf"\bfrom\s+(?P<package>[\w.]+)\s+import\s+(?:[\w\s,]*,\s*)?{module}\b|"
            rf"\bimport\s+(?P<dotted>[\w.]+)\.{module}\b",
            code,
        )
        if imported is not None:
            return f"{imported['package'] or imported['dotted']}.{module}"
    user = next((f for f in reversed(tb.frames) if f.code and f"{module}." in f.code), None)
    home = _GENERATED_HOME.search(user.path) if user is not None else None
    if home is None:
        return module
    if home["python"]:
        return f"tensorflow.python.ops.{module}"
    return f"tensorflow.contrib.{home['contrib']}.ops.{module}"


def _py2_attribute(message: str) -> Optional[str]:
    """The attribute Python 2's ``'module' object has no attribute 'X'`` names, the message
    starting with those words, or None."""
    lacks = missing_attribute(message)
    if lacks is None or not lacks.module_object or lacks.before:
        return None
    return lacks.name


def _bare_import_name(message: str) -> Optional[str]:
    """The name Python 2's or 3.6's ``cannot import name 'X'`` (alone, no module) names, or
    None."""
    missing = missing_name(message)
    return missing.name if missing is not None and missing.bare_alone else None


def _bare_distinct_name(tb: Traceback, words: Callable[[str], Optional[str]]) -> Optional[str]:
    """The name Python's ``words`` (their reader) say is missing, where the exception was
    pasted with no source line and no frame, and the name is no common word (it has an
    underscore or a capital: ``select`` or ``merge`` could be any module's); else None."""
    if tb.frames or tb.code:
        return None
    attr = words(_as_printed(tb.message))
    if attr is None:
        return None
    return None if "_" not in attr.strip("_") and attr[:1].islower() else attr


def _py2_bare_tf_name(
    tb: Traceback, tf_version: Optional[str]
) -> Optional[tuple[str, str, Optional[re.Match[str]]]]:
    """("tf.X", "", None) for Python 2's ``'module' object has no attribute 'X'`` pasted with
    no source line and no frame, where X is no common word (it has an underscore or a capital:
    ``py_function``) and the log shows the TensorFlow 1.x release that raised it or none
    (Python 2 ran no TensorFlow after 2.1, so a name TensorFlow 2 has too, which
    _tf1_added_later asks of it then, was missing from an older 1.x); where the newest 1.x
    listing has no ``tf.X``, the one name of its API that ends in X, where the release shown
    has that name's module (``tf.train.Checkpoint`` under 1.10); None otherwise."""
    if tf_version is not None and version_key(tf_version) >= (2, 0):
        return None
    attr = _bare_distinct_name(tb, _py2_attribute)
    if attr is None:
        return None
    newest = load_tf1(max(tf1_lines(), key=version_key, default="1.15"))
    homes = newest.homes(attr, "tf") if newest is not None else []
    name = f"tf.{attr}"
    # Python names the attribute its module lacked, the module having imported: a deeper home
    # is read only where the release shown has that home's module (TensorFlow 1.10 has no
    # tf.data.experimental, so there tf.data.experimental.prefetch_to_device would have
    # raised for `experimental`), and not at all with no release shown (TensorFlow 2.0 and
    # 2.1, which Python 2 ran, lack tf.data.AUTOTUNE as well as 1.x lacks
    # tf.data.experimental.AUTOTUNE).
    shown = load_tf1(".".join(tf_version.split(".")[:2])) if tf_version is not None else None
    if len(homes) == 1 and shown is not None and homes[0].rpartition(".")[0] in shown.modules:
        name = homes[0]
    return name, "", None


def _py2_bare_early_name(
    tb: Traceback, tf_version: Optional[str]
) -> Optional[tuple[str, str, Optional[re.Match[str]]]]:
    """(public name, "", None) for Python 2's ``'module' object has no attribute 'X'`` pasted
    with no source line and no frame, where X is the last part of exactly one name the release
    notes' table holds (``SummaryWriter``: ``tf.train.SummaryWriter``) and is no common word
    (it has an underscore or a capital: ``select`` or ``mul`` could be any module's); None
    otherwise. A TensorFlow 2 shown, or one from the listings on, leaves it out."""
    # The oldest release the wheels' listings hold (1.9): from it on, the listings answer.
    listed = min(tf1_lines(), key=version_key, default="1.9")
    if tf_version is not None and version_key(tf_version) >= version_key(listed):
        return None
    attr = _bare_distinct_name(tb, _py2_attribute)
    if attr is None:
        return None
    names = {s.name for s in load_early().spans if s.name.rsplit(".", 1)[-1] == attr}
    return (names.pop(), "", None) if len(names) == 1 else None


#: Keras 2's Model.compile refusing what its **kwargs hold, in tf.keras' words from TensorFlow
#: 1.x to 2.15 (tensorflow/python/keras/engine/training.py _validate_compile and training_v1.py:
#: "Invalid keyword argument(s) in `compile`: %s" % (invalid_kwargs,), a set of the names).
_COMPILE_REFUSAL = re.compile(r"Invalid keyword argument\(s\) in `compile`: \{(?P<names>[^}]*)\}")
#: The file of TensorFlow 2's graph-mode Model (tf.compat.v1.disable_eager_execution or
#: disable_v2_behavior; keras/engine/training_v1.py, in tensorflow/python/ or the keras
#: package): its compile lets only the Session's arguments through (feed_dict, fetches,
#: options, run_metadata) in every 2.x release, in the same words.
_V1_MODEL = re.compile(r"[/\\]engine[/\\]training_v1\.py$")
_TF2_KEYWORD_KEY = "tf2-keyword-added-later"
#: The verdict of :func:`_keyword_by_listing`: a keyword the signature listings date.
_LISTED_KEYWORD_KEY = "tf-keyword-by-listing"
#: The verdicts of a keyword a later release brought (1.x's, 2.x's): their builders ask whose
#: code passed it (:func:`_library_release_kept`, :func:`_older_keyword_edit`).
_KEYWORD_KEYS = frozenset({_TF1_KEYWORD_KEY, _TF2_KEYWORD_KEY, _LISTED_KEYWORD_KEY})


def _tf2_keyword_added_later(
    tb: Traceback, m: Machine, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """A TensorFlow 2 function refusing a keyword argument a later line brought (the Keras
    API table's ``tensorflow2_arguments``, with their sources), in tf.keras' compile's words or
    Python's: the TensorFlow is older than the code. A TensorFlow shown that already takes it,
    a source line calling another library's function of that name, or the graph-mode Model's
    compile (which refuses it in every release), is refused for another reason (None)."""
    message = _as_printed(tb.message)
    refused = _COMPILE_REFUSAL.search(message)
    if refused is not None and any(_V1_MODEL.search(f.path) for f in tb.frames):
        return None  # the graph-mode Model refuses it in every 2.x release: no upgrade helps
    if refused is not None:
        asked = [("compile", k.group(1)) for k in re.finditer(r"'(\w+)'", refused.group("names"))]
    else:
        match = _FUNCTION_KEYWORD.search(message)
        if match is None or _called_elsewhere(tb, match.group("func")):
            return None
        asked = [(match.group("func"), match.group("kw"))]
    table = keras_api().tensorflow2_arguments
    found = next(((k, table[k]) for f, k in asked if k in table and table[k].function == f), None)
    if found is None:
        return None
    kwarg, added = found
    if not added.public:
        # A function of TensorFlow's own modules: libraries built on TensorFlow call it, and
        # whose release asks is explain.interface's and explain.packages' reading
        # (companion-mismatch).
        return None
    if tf_version is not None and version_key(tf_version)[:2] >= version_key(added.added_in):
        return None
    this = (
        f"this TensorFlow ({tf_version}) is older"
        if tf_version
        else "the TensorFlow that raised this is older (the log does not show which)"
    )
    renamed = (
        f" (TensorFlow {added.before} called it `{added.older_name}`)" if added.older_name else ""
    )
    what = (
        f"`{added.api}` takes `{kwarg}` from TensorFlow {added.added_in} on{renamed}, and "
        f"{this}: it refuses the argument."
    )
    fix = Fix(
        f"The code was written for TensorFlow {added.added_in} or newer: upgrade TensorFlow to "
        f"{added.added_in} or later." + _library_release_kept(tb),
        causes.software.line_install(m, added.added_in),
    )
    links = (*causes.CAUSES[causes.code.TF_TOO_OLD_FOR_CODE].links, _RELEASE_NOTES)
    verdict = Verdict(
        _TF2_KEYWORD_KEY, causes.code.TF_TOO_OLD_FOR_CODE, Severity.ERROR, what, fix, links
    )
    return f"{added.api}({kwarg}=...)", verdict


def _refused_tf_call(tb: Traceback) -> Optional[str]:
    """The TensorFlow public name (``tf.function``) the innermost printed source line calls
    with the keyword Python refused: Python raises the refusal in the calling frame, so that
    line is the call (an outer line that passes the keyword may reach another function of the
    name). None where that line is not printed or makes no such call."""
    code = tb.frames[-1].code if tb.frames else tb.code
    return tf_call_refused(_as_printed(tb.message), code) if code else None


def _keyword_by_listing(
    tb: Traceback, m: Machine, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """A TensorFlow public function or class, called on the innermost printed source line with
    a keyword Python refused, where the parameters read from each line's wheel date the
    keyword (:func:`keyword_change`): first taken by a later line than the TensorFlow shown
    (that TensorFlow is older than the code: tf-too-old-for-code, the first later line that
    takes it), or taken only by earlier lines (the keyword left: api-removed, the line that
    dropped it). With no TensorFlow shown, a warning: the release is inferred."""
    match = _FUNCTION_KEYWORD.search(_as_printed(tb.message))
    api = _refused_tf_call(tb) if match is not None else None
    change = keyword_change(api, match.group("kw"), tf_version) if match and api else None
    if change is None or api is None:
        return None
    kwarg = change.dated.keyword
    this = (
        f"this TensorFlow ({tf_version})"
        if tf_version
        else "the TensorFlow that raised this (the log does not show which)"
    )
    severity = Severity.ERROR if tf_version else Severity.WARNING
    said = f"`{api}` takes `{kwarg}` in TensorFlow {change.dated.span()}"
    if change.added:
        what = f"{said}, and {this} is older: it refuses the argument."
        upto = (
            f" (up to {change.until}: the lines after it do not take it)"
            if change.until
            else " or later"
        )
        fix = Fix(
            f"The code was written for TensorFlow {change.line} or newer: upgrade TensorFlow to "
            f"{change.line}{upto}." + _library_release_kept(tb),
            causes.software.line_install(m, change.line, change.until),
        )
        links = (*causes.CAUSES[causes.code.TF_TOO_OLD_FOR_CODE].links, _RELEASE_NOTES)
        return f"{api}({kwarg}=...)", Verdict(
            _LISTED_KEYWORD_KEY, causes.code.TF_TOO_OLD_FOR_CODE, severity, what, fix, links
        )
    what = f"{said}, and {this} is newer: its `{api}` no longer takes the argument."
    links = (*causes.CAUSES[causes.code.API_REMOVED].links, _RELEASE_NOTES)
    caller = installed_caller(tb)
    fix = listed_keyword_removed_fix(m, api, change, caller[0] if caller else "")
    return f"{api}({kwarg}=...)", Verdict(
        _LISTED_KEYWORD_KEY, causes.code.API_REMOVED, severity, what, fix, links
    )


#: A class called on a source line, with the Keras module it is written under, if any.
_CALLED_CLASS = re.compile(
    r"(?<![\w.])(?P<module>(?:tf\.keras|keras|tf_keras)\.(?:layers\.)?|layers\.)?"
    r"(?P<cls>[A-Z]\w*)\("
)
#: The verdict of :func:`_keras_keyword_by_listing`.
_KERAS_LISTED_KEYWORD_KEY = "keras-keyword-by-listing"
#: A base class's ``__init__`` called from a subclass's (``super().__init__(**kwargs)``,
#: ``Layer.__init__(self, **kwargs)``).
_BASE_INIT_CALL = re.compile(r"\.__init__\(")


def _subclass_outside_keras(tb: Traceback) -> bool:
    """Whether the innermost frame outside TensorFlow and Keras is an ``__init__`` handing on
    to its base's: the class Keras refused the keyword of is a subclass written outside Keras
    (the user's ``class LSTM(keras.layers.Layer)``, a library's), whatever Keras' words name
    it (Keras 3 prints ``self.__class__.__name__``)."""
    inner = next((f for f in reversed(tb.frames) if installed_package(f.path) not in TF_OWN), None)
    return (
        inner is not None
        and inner.function == "__init__"
        and _BASE_INIT_CALL.search(inner.code) is not None
    )


def _enclosing_class_call(code: str, at: int) -> Optional[re.Match[str]]:
    """The call of a class (:data:`_CALLED_CLASS`) whose parentheses hold position ``at`` of
    ``code`` innermost (``Bidirectional(LSTM(64), merge_mode=...)``: ``Bidirectional``); None
    where the innermost call holding it is no class's, or none holds it."""
    depth = 0
    for index in range(at - 1, -1, -1):
        char = code[index]
        if char == ")":
            depth += 1
        elif char == "(" and depth:
            depth -= 1
        elif char == "(":
            found = [c for c in _CALLED_CLASS.finditer(code[: index + 1]) if c.end() == index + 1]
            return found[0] if found else None
    return None


def _keras_refused_layer(tb: Traceback) -> Optional[tuple[str, str, int]]:
    """(The public name of the Keras layer, the keyword, the Keras major that words the
    refusal) of a Keras refusal of a layer's keyword: the class Keras 3's words name, or for
    Keras 2's words the class whose call's parentheses hold the keyword on the innermost
    printed line passing it (:func:`_enclosing_class_call`). None where neither is read, or
    where the class is a subclass written outside Keras (:func:`_subclass_outside_keras`)."""
    refused = keras_layer_refusal(_as_printed(tb.message))
    if refused is None or _subclass_outside_keras(tb):
        return None
    named, kwarg, major = refused
    if named:
        return f"keras.layers.{named}", kwarg, major
    lines = [f.code for f in reversed(tb.frames) if f.code] + ([tb.code] if tb.code else [])
    code = next((c for c in lines if re.search(rf"\b{kwarg}\s*=", c)), "")
    at = re.search(rf"\b{kwarg}\s*=", code)
    call = _enclosing_class_call(code, at.start()) if at else None
    if call is None:
        return None
    written = call.group("module") or ""
    root = "tf_keras" if written.startswith("tf_keras") else "keras"
    return f"{root}.layers.{call.group('cls')}", kwarg, major


#: The classes whose methods a Keras model's call runs, as Python 3.10+ prints a method's
#: qualified name: Keras 2's model classes (keras 2.6.0 keras/engine/training.py Model,
#: functional.py Functional, sequential.py Sequential) and Keras 3's trainers, where fit,
#: evaluate, predict and the *_on_batch methods are defined (keras 3.0.5
#: keras/src/backend/{tensorflow,jax,torch}/trainer.py; compile in
#: keras/src/trainers/trainer.py). The trainers are Keras 3's alone (a bare ``Trainer`` is
#: asked of compile only, as :data:`_TRAINER_REFUSAL`); the model classes' names are common,
#: so they are read as Keras' only where the log shows Keras (:func:`_keras_shown`).
_KERAS3_TRAINERS = frozenset({"TensorFlowTrainer", "JAXTrainer", "TorchTrainer"})
_KERAS_MODELS = frozenset({"Model", "Functional", "Sequential"})
#: The model methods Keras 3 defines on its trainers, not on Model (keras 3.0.5
#: keras/src/trainers/trainer.py, keras/src/backend/tensorflow/trainer.py): a model class's
#: name printed before one of them (``Model.fit()``) is Keras 2's qualified name.
_KERAS3_TRAINER_METHODS = frozenset(
    {"compile", "fit", "evaluate", "predict", "train_on_batch", "test_on_batch", "predict_on_batch"}
)
#: A source line calling a method on an object: ``model.fit(``, ``self.model.compile(``.
_METHOD_CALL = r"\.{method}\s*\("
#: A source line that names Keras: an import of it, or a use of ``tf.keras``/``tf_keras``.
_KERAS_WRITTEN = re.compile(r"\b(?:tf_keras|keras)\b")


def _keras_generation(tb: Traceback, m: Machine) -> int:
    """The Keras major a traceback's frames show (a Keras 3 or Keras 2 file, or TensorFlow's
    own tf.keras before 2.6: tensorflow/python/keras/), else the Keras the log shows running
    (:func:`_keras_release_shown`, :func:`_keras3_shown`); 0 where neither does."""
    for origin in library_origins(tb):
        if origin.generation:
            return 3 if origin.generation == "Keras 3" else 2
        if origin.module.startswith("tensorflow.python.keras."):
            return 2
    if _keras3_shown(m):
        return 3
    return 2 if _keras_release_shown(m, 2) else 0


def _keras_shown(tb: Traceback) -> bool:
    """Whether a traceback shows Keras: a frame of Keras' own (:func:`_keras_frames`, or
    TensorFlow's tf.keras before 2.6), or a source line or import statement it prints that
    names Keras (``import keras``, ``tf.keras.Sequential(``)."""
    if _keras_frames(tb) or any(
        o.module.startswith("tensorflow.python.keras.") for o in library_origins(tb)
    ):
        return True
    lines = [f.code for f in tb.frames] + [tb.code, tb.statement, *tb.importers]
    return any(_KERAS_WRITTEN.search(line) for line in lines if line)


def _keras_refused_method(tb: Traceback, m: Machine) -> Optional[tuple[str, str, int]]:
    """(The public name of a Keras model's method, ``keras.Model.compile``; the keyword; the
    Keras major that ran it) of Python's refusal of a keyword by a method the Keras listings
    read on the model class (``TensorFlowTrainer.fit() got an unexpected keyword argument
    'workers'``, Python 3.10+; ``fit() got ...`` before): the class printed one of Keras 3's
    trainers (Keras 3), or one of the model classes (:data:`_KERAS_MODELS`) where the log
    shows Keras (:func:`_keras_shown`, or a Keras or TensorFlow release listed), or none where
    the traceback shows Keras (:func:`_keras_shown`) and a printed line calls the method on
    an object (``model.fit(``), never a bare ``fit()`` (scikit-learn's estimators have fit
    too). The major is the trainers' 3, Keras 2's for a model class printed before a method
    Keras 3 defines on its trainers, else the one the frames or the log show
    (:func:`_keras_generation`); None where none is shown. tf-keras' frames name its
    ``tf_keras.Model``."""
    refused = read_refusal(_as_printed(tb.message))
    if refused is None or refused.shape != KEYWORD or refused.speaker != PYTHON:
        return None
    owner, method, kwarg = refused.owner, refused.function, refused.argument
    if not keras_parameters_of(f"keras.Model.{method}"):
        return None  # no method the listings read on a model
    if owner in _KERAS3_TRAINERS or (owner == "Trainer" and method == "compile"):
        return f"keras.Model.{method}", kwarg, 3
    if owner and owner not in _KERAS_MODELS:
        return None
    # A model class's name printed: Keras shown anywhere in the log will do, its release listed
    # too; a bare method's name: the traceback itself must show Keras.
    listed = m.facts.package("keras") is not None or m.tf is not None
    if not (_keras_shown(tb) or (owner and listed)):
        return None
    if not owner:
        call = re.compile(_METHOD_CALL.format(method=re.escape(method)))
        lines = [f.code for f in tb.frames] + [tb.code]
        if not any(call.search(line) for line in lines if line):
            return None
    words = 2 if owner and method in _KERAS3_TRAINER_METHODS else 0
    major = words or _keras_generation(tb, m)
    # tf-keras' own frames: its Model (tf_keras/src/engine/training.py), a Keras 2.
    tf_keras = any(o.dist == "tf-keras" for o in library_origins(tb))
    root = "tf_keras" if tf_keras else "keras"
    return (f"{root}.Model.{method}", kwarg, 2 if tf_keras else major) if major else None


def _keras_release_shown(m: Machine, major: int) -> str:
    """The Keras release (``2.15``) the log shows running, of the major the refusal's words
    say: the keras listed, else a TensorFlow of 2.6 to 2.15, whose keras is of its own line
    (the matrix's keras_in_step); "" where neither shows one."""
    keras = m.facts.package("keras")
    if keras is not None and keras.version and version_key(keras.version)[:1] == (major,):
        return ".".join(keras.version.split(".")[:2])
    if major == 2 and m.line is not None and m.line.keras_in_step:
        return m.line.line
    return ""


def _keras3_shown(m: Machine) -> bool:
    """Whether the log shows a Keras 3 (the keras listed) or a TensorFlow whose tf.keras is
    Keras 3 (:func:`_first_keras3` on)."""
    keras = m.facts.package("keras")
    if keras is not None and keras.version and version_key(keras.version)[:1] >= (3,):
        return True
    return m.tf is not None and version_key(m.tf.version)[:2] >= _first_keras3(m)


def _keras_keyword_by_listing(tb: Traceback, m: Machine) -> Optional[tuple[str, Verdict]]:
    """A keyword Keras refused of a layer (:func:`_keras_refused_layer`), or Python of a Keras
    model's method (:func:`_keras_refused_method`), dated by the parameters read from each
    Keras release's wheel (:func:`keras_keyword_releases`) against the Keras the log shows
    (or, where it shows none, every release of the major whose words refused it): taken only
    by earlier releases, the keyword left (across Keras 2 and 3, the Keras 3 change; within a
    major, the release that dropped it); taken only by later ones, the code needs a later
    Keras. None where the listings do not read the class in the releases that decide, where
    one of them takes the keyword or keeps ``**kwargs`` open, or where releases on both sides
    take it."""
    refused = _keras_refused_layer(tb) or _keras_refused_method(tb, m)
    if refused is None:
        return None
    name, kwarg, major = refused
    if major == 2 and name.startswith("keras.") and _keras3_shown(m):
        # Keras 2's words beside a Keras 3 or a TensorFlow whose tf.keras is Keras 3: the
        # Keras 2 that raised them is tf-keras (TF_USE_LEGACY_KERAS), not the keras package.
        name = "tf_keras." + name.removeprefix("keras.")
    dated = keras_keyword_releases(name, kwarg)
    listed = keras_listed(name)
    if dated is None or listed is None or not dated.taking:
        return None
    read = keras_parameters_of(name)
    shown = _keras_release_shown(m, major) if listed[0] == "keras" else ""
    of_major = [r for r in dated.having if version_key(r)[:1] == (major,)]
    deciding = [shown] if shown else of_major
    if not deciding or any(
        r not in read or kwarg in read[r] or KWARGS_MARK in read[r] for r in deciding
    ):
        return None
    low, high = version_key(deciding[0]), version_key(deciding[-1])
    earlier = [r for r in dated.taking if version_key(r) < low]
    later = [r for r in dated.taking if version_key(r) > high]
    if bool(earlier) == bool(later):
        return None
    this = f"Keras {shown}" if shown else f"the Keras {major} that raised this"
    call = f"{name}({kwarg}=...)"
    said = f"`{name}` takes `{kwarg}` in Keras {dated.span()}"
    if later:
        since = later[0]
        if dated.takes(dated.known[-1]) is not True:
            return None  # taken for a while only: no one release to ask for
        what = f"{said}, and {this} is older: it refuses the argument."
        verdict = _later_keras_verdict(m, _KERAS_LISTED_KEYWORD_KEY, what, since)
        if major == 2 and not shown and version_key(since)[:1] >= (3,):
            # Keras 2's words with no release shown: under a TensorFlow whose tf.keras is
            # Keras 3 they are tf-keras' (TF_USE_LEGACY_KERAS), which a Keras 3 installed
            # beside it does not replace.
            unset = (
                " Where TF_USE_LEGACY_KERAS is set, unset it: with it, tf.keras is tf-keras, "
                "a Keras 2."
            )
            told = Fix(verdict.fix.text + unset, verdict.fix.commands)
            verdict = dataclasses.replace(verdict, fix=told)
        return call, verdict
    removed_in, dropped = dated.after(earlier[-1])
    if dropped is not False:
        return None  # the release after its last is not read
    what = f"{said}, and {this} is newer: its `{name.rsplit('.', 1)[-1]}` no longer takes it."
    links = (*causes.CAUSES[causes.code.API_REMOVED].links,)
    if version_key(removed_in)[:1] == (3,) and version_key(earlier[-1])[:1] == (2,):
        legacy = causes.code.keras3_fix(m)
        text = (
            f"Write the call without `{kwarg}=`, in the arguments Keras 3's "
            f"`{name.rsplit('.', 1)[-1]}` takes (its API docs). " + legacy.text
        )
        cause = causes.code.KERAS3_BEHAVIOUR_CHANGE
        links = causes.CAUSES[cause].links
        return call, Verdict(
            _KERAS_LISTED_KEYWORD_KEY,
            cause,
            Severity.ERROR,
            what,
            Fix(text, legacy.commands),
            links,
        )
    use = f"the arguments `{name}` takes from Keras {removed_in} on (its API docs)"
    caller = installed_caller(tb)
    # Keras 2 (keras 2.6 to 2.15, tf-keras) is released with the TensorFlow line of its number
    # and serves that line only: the release before the removal is TensorFlow's to pin.
    dist = "keras" if major == 3 else "tensorflow"
    fix = causes.software.release_removed_fix(
        m, dist, removed_in, f"`{kwarg}=` of `{name}`", use, caller[0] if caller else ""
    )
    return call, Verdict(
        _KERAS_LISTED_KEYWORD_KEY, causes.code.API_REMOVED, Severity.ERROR, what, fix, links
    )


def _py2_bare_tf1_name(
    tb: Traceback, knowledge: ApiKnowledge, tf_version: Optional[str]
) -> Optional[tuple[str, Verdict]]:
    """The verdict on ``tf.X`` for Python 2's ``'module' object has no attribute 'X'`` pasted
    with no source line and no frame, where X is no common word, every listed 1.x release has
    ``tf.X``, the release notes' early table records no change of it (it was there from 0.x
    on), and TensorFlow 2.0 serves it only in ``tf.compat.v1`` (``tf.placeholder``,
    ``tf.Session``). Python 2 ran TensorFlow up to 2.1 (2.1.0's release notes: the last
    release to support Python 2), so a TensorFlow 1 that lacked the name does not exist and
    2.0 or 2.1 is the likely one; a warning, as the module is not named. A TensorFlow 1 shown,
    or a name that came or went in 1.x, is left to the other readings (None)."""
    if tf_version is not None and version_key(tf_version) < (2, 0):
        return None
    attr = _bare_distinct_name(tb, _py2_attribute)
    if attr is None:
        return None
    name = f"tf.{attr}"
    if any(s.name == name for s in load_early().spans):
        return None  # brought or removed during 0.x to 1.8: either side can lack it
    if any(knowledge.at(line).name(name) is not None for line in tf1_lines()):
        return None  # a listed 1.x release lacks it
    verdict = knowledge.at("2.0").name(name)
    if verdict is None or verdict.cause != causes.code.API_MOVED_TO_COMPAT_V1:
        return None
    note = (
        f" (The message names no module and shows no source line: every TensorFlow 1 release "
        f"has `{name}`, and Python 2's words say a TensorFlow 2.0 or 2.1 is the likely one.)"
    )
    return name, dataclasses.replace(verdict, severity=Severity.WARNING, what=verdict.what + note)


def _bare_import_rule(tb: Traceback, knowledge: ApiKnowledge) -> Optional[tuple[str, Verdict]]:
    """scan's verdict for Python 2's and 3.6's ``cannot import name 'X'`` pasted with no
    source line and no frame, where X is the last part of the names of exactly one rule whose
    effect is an import refusal (``Merge``: keras1-merge-layer) and is no common word (it has
    an underscore or a capital); None otherwise. A warning: the message names no module, so
    the rule's is the likely one, not the one shown (as :func:`_py2_bare_early_name`)."""
    attr = _bare_distinct_name(tb, _bare_import_name)
    if attr is None:
        return None
    rules = [
        r
        for r in knowledge.rules.rules
        if r.effect == "import-error" and any(a.rsplit(".", 1)[-1] == attr for a in r.api)
    ]
    if len(rules) != 1:
        return None
    name = next(a for a in rules[0].api if a.rsplit(".", 1)[-1] == attr)
    verdict = knowledge.name(name)
    if verdict is None:
        return None
    note = (
        f" (The message names no module and shows no source line: `{name}` is the only name "
        f"tfdoctor's rules know an import of `{attr}` to fail for.)"
    )
    return name, dataclasses.replace(verdict, severity=Severity.WARNING, what=verdict.what + note)


def _older_release_raised(tb: Traceback, name: str) -> bool:
    """Whether an exception that shows no TensorFlow release can be read as an older release
    lacking ``name``: TensorFlow's own words for a name asked of it, not a whole TensorFlow
    missing (a name every release has), no tensorflow.py of the user's own in the frames and
    no TensorFlow 2 file (as _older_than_listings reads the same)."""
    message = _as_printed(tb.message)
    if not (_tf_name_asked(message) or _py2_attribute(message)):
        return False
    if name.count(".") == 1 and name[len("tf.") :] in _SINCE_FIRST_RELEASE:
        return False
    if any(_OWN_TENSORFLOW.search(f.path) and installed_package(f.path) is None for f in tb.frames):
        return False
    return not any(_TF2_TREE.search(f.path) for f in tb.frames)


def _tf2_install(m: Machine) -> tuple[str, ...]:
    """The command installing the newest TensorFlow 2 line before Keras 3 with a wheel for
    this Python (else the first later one): TensorFlow 2 code of the Keras 2 era."""
    keras3 = first_keras3_line(m.matrix) if m.matrix else None
    lines = sorted(m.matrix.lines, key=lambda x: version_key(x.line)) if m.matrix else []
    fits = [x.line for x in lines if not x.pre_release and m.line_fits(x, "")]
    before = [
        line for line in fits if keras3 is None or version_key(line) < version_key(keras3.line)
    ]
    if before:
        return causes.software.line_install(m, before[-1])
    keras2 = [
        x.line
        for x in lines
        if not x.pre_release
        and version_key(x.line)[:1] == (2,)
        and (keras3 is None or version_key(x.line) < version_key(keras3.line))
    ]
    if keras2:
        # No Keras 2 line has a wheel for this Python: an environment of a Python the last
        # one has wheels for, never a later line (its tf.keras is Keras 3).
        return causes.software.line_install(m, keras2[-1], last=keras2[-1])
    return causes.software.line_install(m, fits[0] if fits else "2.15")


def _keras_name(tb: Traceback) -> Optional[NameAsked]:
    """A name missing from one of standalone Keras' modules (an attribute, or a ``from``
    import's name), as the evidence layer reads Python's words; None otherwise."""
    asked = name_asked(_as_printed(tb.message))
    if asked is None or asked.wording == "submodule":
        return None
    return asked if asked.module == "keras" or asked.module.startswith("keras.") else None


#: The key of :func:`_multi_backend_removed`'s verdicts.
_MULTI_BACKEND_REMOVED = "keras-multibackend-removed"


def _multi_backend_removed(tb: Traceback, m: Machine) -> Optional[tuple[str, Verdict]]:
    """A function or class multi-backend Keras removed from one of its modules (the table
    ``scripts/gen_keras_multibackend_removed.py`` reads from keras-team/keras's release tags:
    ``keras.utils.conv_utils.normalize_data_format``, gone from 2.2.1), asked of that module
    (an error), or by Python 2's ``'module' object has no attribute 'X'``, which names no
    module (a warning): where the innermost source line reads X of the row's module by its
    own name (``conv_utils.normalize_data_format(...)``), or, pasted with no frame nor source
    line, where X has an underscore (a class's name alone is any library's) or the log lists
    a keras, and the table has it once. None where the log shows a Keras that is not one of
    the multi-backend releases without it."""
    asked = _keras_name(tb)
    code = tb.innermost_code
    attr = None if asked is not None else _py2_attribute(_as_printed(tb.message))
    if asked is not None:
        rows = keras_multibackend_removed(asked.name, asked.module)
    elif attr is not None and code:
        rows = tuple(
            r
            for r in keras_multibackend_removed(attr)
            if re.search(rf"\b{re.escape(r.module.rsplit('.', 1)[-1])}\.{re.escape(attr)}\b", code)
        )
    else:
        attr = _bare_distinct_name(tb, _py2_attribute)
        # A class's name alone (`Function`, `Container`, `Merge`) is as much any other
        # library's: with nothing of Keras in the log, only a name of the table's own shape
        # (an underscore: `normalize_data_format`) is read as Keras'.
        shown = m.facts.package("keras") is not None or "_" in (attr or "").strip("_")
        rows = keras_multibackend_removed(attr) if attr is not None and shown else ()
    if len(rows) != 1:
        return None
    row = rows[0]
    keras = m.facts.package("keras")
    last_multi = version_key(keras_api().multi_backend_last)[:2]
    if keras is not None and (
        version_key(keras.version) < version_key(row.removed_in)
        or version_key(keras.version)[:2] > last_multi
    ):
        return None  # the log's Keras is not one of the releases the row says lack it
    name = f"{row.module}.{row.name}"
    homes = ", ".join(f"`{d}`" for d in row.defined_in)
    what = (
        f"`{name}` is in multi-backend Keras up to {row.last}, and Keras {row.removed_in} "
        f"removed it from `{row.module}`"
        + (
            f" (from then on {homes} define{'' if len(row.defined_in) > 1 else 's'} it)"
            if homes
            else ""
        )
        + " (keras-team/keras's release tags)."
        + (
            ""
            if asked is not None
            else " Python 2's message does not name the module: that it is Keras' is read from "
            f"the source line, which reads it of `{row.module.rsplit('.', 1)[-1]}`."
            if code
            else " Python 2's message does not name the module: that it is Keras' is read from "
            "the name, which of Keras' modules only that one had."
        )
    )
    # The homes are those of the release that moved the name (the table reads the release
    # tags up to the last multi-backend line): where the log shows no Keras, the installed
    # one may be a later Keras (tf.keras's own code, from 2.4 on: keras-team/keras's 2.4.0
    # tag has no keras/backend/common.py), so the condition is named.
    where = (
        ""
        if keras is not None
        else f", if the installed Keras is {row.removed_in} to {keras_api().multi_backend_last}.x "
        "(`pip show keras` tells; a later Keras may not have "
        f"{'those modules' if len(row.defined_in) > 1 else 'that module'})"
    )
    change = (
        f" to take `{row.name}` from where Keras {row.removed_in} keeps it ({homes}){where}."
        if homes
        else f": no module of Keras {row.removed_in} defines `{row.name}`."
    )
    # Multi-backend Keras runs on TensorFlow 1: its release is installed only where the log's
    # Python has the last TensorFlow 1 line's wheels (or the log does not show the Python).
    tf1 = causes.software.last_tf1_line(m)
    if tf1 is not None and not m.line_fits(tf1):
        fix = Fix(
            f"The code was written for Keras {row.last} or older, a multi-backend Keras that "
            f"runs on TensorFlow 1, which has no wheel for Python {m.python_version} here "
            f"(TensorFlow {tf1.line} is the last 1.x line): change the code{change}"
        )
    else:
        fix = Fix(
            f"The code was written for Keras {row.last} or older: install that Keras "
            f"(`keras=={row.last}`, beside a TensorFlow 1.x it supports), or change the code"
            + change,
            m.install(f"keras=={row.last}"),
        )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    severity = Severity.ERROR if asked is not None else Severity.WARNING
    return name, Verdict(
        _MULTI_BACKEND_REMOVED, causes.code.API_REMOVED, severity, what, fix, links
    )


def _keras_added_later(tb: Traceback, m: Machine) -> Optional[tuple[str, Verdict]]:
    """A public name of standalone Keras that the Keras which raised lacks and every Keras
    release since some 3.x has (``keras.layers.MelSpectrogram``: from 3.1), read from the bundled
    listings of Keras' releases: the installed Keras is older than the code needs. A name
    Keras 3.0 already has is a Keras 2 / Keras 3 question, answered elsewhere."""
    asked = _keras_name(tb)
    if asked is None:
        return None
    name = f"{asked.module}.{asked.name}"
    releases = keras_releases("keras")  # newest first
    since: Optional[str] = None
    for release in releases:
        index = load_keras("keras", release)
        if index is None or not index.has(name):
            break
        since = release
    if since is None or since == releases[-1] or version_key(since) < (3, 0):
        return None  # no release has it, every listed one does, or a Keras 2 added it
    keras = m.facts.package("keras")
    if keras is not None and version_key(keras.version) >= version_key(since):
        return None  # the log's Keras has it: missing for another reason
    if since == min((r for r in releases if version_key(r) >= (3, 0)), key=version_key):
        return _keras3_name(name, tb, m)
    this = (
        f"the installed Keras ({keras.version}) does not have it"
        if keras is not None
        else "the Keras that raised this is older (the log does not show which)"
    )
    what = f"`{name}` is not in Keras' public API before {since}, and is in every release since."
    lead = f"`{name}` is in Keras from {since} on, and {this}"
    return name, _later_keras_verdict(m, "keras-name-added-later", what, since, lead)


def _later_keras_verdict(m: Machine, key: str, what: str, since: str, lead: str = "") -> Verdict:
    """The verdict on code written for Keras ``since`` or later that an older Keras ran
    (``lead``: the fix's words on what that Keras lacks, else "The Keras that raised this is
    older"): Keras ``since`` or newer, with TensorFlow's first Keras 3 line where ``since`` is
    a Keras 3 and the log shows no TensorFlow of that line or later; a Keras 2, which comes
    with the TensorFlow line of its number, by that line."""
    # Keras 3 over a TensorFlow before its first Keras 3 line replaces the Keras 2 that
    # TensorFlow's tf.keras is: the TensorFlow that ships Keras 3 comes with it unless the log
    # shows one.
    first_key = _first_keras3(m)
    first = ".".join(str(part) for part in first_key)
    lead = (
        f"{lead or 'The Keras that raised this is older'}: the code was written for a newer Keras."
    )
    if version_key(since)[:1] < (3,):
        # Keras 2 comes with the TensorFlow line of its number (keras 2.6 to 2.15, tf-keras).
        fix = Fix(
            f"{lead} Keras {since} comes with TensorFlow {since}: upgrade TensorFlow to {since} "
            "or later.",
            causes.software.line_install(m, since),
        )
    else:
        tf_ok = m.tf is not None and version_key(m.tf.version) >= first_key
        fix = Fix(
            f"{lead} Install Keras {since} or newer, with a TensorFlow of {first} or later (the "
            "first whose tf.keras is Keras 3).",
            m.install(f"keras>={since}", *(() if tf_ok else (f"tensorflow>={first}",))),
        )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    return Verdict(key, causes.code.API_REMOVED, Severity.ERROR, what, fix, links)


def _keras3_name(name: str, tb: Traceback, m: Machine) -> tuple[str, Verdict]:
    """A public name every Keras 3 has and no Keras 2 listing does (``keras.utils.PyDataset``),
    missing from the Keras that raised: that Keras is a Keras 2 (TensorFlow 2.15 or older
    brings one), and the code was written for Keras 3, which comes with TensorFlow's first
    Keras 3 line (the matrix's) on the Pythons that line has wheels for."""
    line = first_keras3_line(m.matrix) if m.matrix is not None else None
    first = line.line if line is not None else "2.16"
    older = _python_before_keras3(path_hints([f.path for f in tb.frames]), m)
    keras = m.facts.package("keras")
    this = f"the installed Keras ({keras.version})" if keras else "the Keras that raised"
    text = (
        f"`{name}` is in every Keras 3 and in no Keras 2, and {this} lacks it: the code was "
        f"written for Keras 3, and this Keras is a Keras 2 (TensorFlow {first} is the first "
        f"line whose Keras is Keras 3; older lines bring Keras 2). Install TensorFlow {first} or "
        "later with Keras 3, or keep this TensorFlow and run a release of the code written for "
        "Keras 2."
    )
    if older is not None:
        text += (
            f" The paths show Python {older[0]}; Keras 3 needs Python {older[1]} or newer: "
            "make a virtual environment of a newer Python first."
        )
    fix = Fix(text, m.install(f"tensorflow>={first}", "keras>=3"))
    what = f"`{name}` is in Keras' public API from 3.0 on, and in no Keras 2 release."
    links = causes.CAUSES[causes.code.API_REMOVED].links
    return name, Verdict(
        "keras-name-added-later", causes.code.API_REMOVED, Severity.ERROR, what, fix, links
    )


#: Python's ImportError for a name from a package imported as a namespace package: a
#: ``tensorflow`` directory without its ``__init__.py`` (Python 3.8 on print "(unknown
#: location)" for a module without a file, Python/ceval.c's import_from):
#: what an uninstall that stopped half way, or one distribution removed from under another,
#: leaves.
_EMPTY_PACKAGE = re.compile(
    r"cannot import name '(?P<attr>\w+)' from 'tensorflow' \(unknown location\)"
)


def _empty_package_finding(tb: Traceback, attr: str, m: Machine) -> Finding:
    """``tensorflow`` imported as a folder without its ``__init__.py``: no whole TensorFlow."""
    fix = causes.software.incomplete_install_fix(m)
    return causes.finding(
        f"explain.{causes.software.TF_INSTALL_INCOMPLETE}",
        Severity.ERROR,
        causes.software.TF_INSTALL_INCOMPLETE,
        "What imported as tensorflow is a folder without TensorFlow's files",
        f"{tb.where}: {tb.type}: {tb.message}\n'(unknown location)' means Python found "
        f"tensorflow as a bare directory with no __init__.py, so it has no {attr}: the files "
        "of an uninstall that stopped half way, or of a second TensorFlow distribution "
        "uninstalled from under the first, not a TensorFlow release without the name.",
        Fix(
            fix.text,
            (
                'python -c "import tensorflow as tf; print(tf.__path__)"',
                *fix.commands,
            ),
        ),
    )


#: Top-level names of TensorFlow's first public release (0.5.0, tensorflow/python/__init__.py
#: and the API docs of November 2015) that every release since has kept: the bundled listings
#: begin at 2.0, and a name only 2.x has (tf.function) would call a 1.x install hollow. The
#: modules 0.5.0's __init__.py imports ("Make some application and test modules available":
#: app, flags, logging, test; image_ops as image) and client_lib's Session are among them;
#: TensorFlow 2 dropped Session, app, flags and logging from the top level, so those say so
#: only of a 1.x release (:func:`_hollow_since`). Each name maps to the release that brought
#: it: ``__version__`` came with 0.6.0's tensorflow/python/framework/versions.py, after the
#: first release ("This already works since 0.6", tensorflow/tensorflow#1137).
_FIRST_RELEASE: Final = "0.5.0"
_SINCE_FIRST_RELEASE: Mapping[str, str] = {
    **dict.fromkeys(
        (
            "Variable", "constant", "float32", "int32", "zeros", "ones", "matmul", "reshape",
            "cast", "concat", "shape", "add", "nn", "train", "Graph", "Tensor", "reduce_sum",
            "reduce_mean", "test", "image", "Session", "app", "flags", "logging",
        ),
        _FIRST_RELEASE,
    ),
    "__version__": "0.6.0",
}  # fmt: skip


def _since_words(attr: str) -> str:
    """The release a name of :data:`_SINCE_FIRST_RELEASE` came with, in words: "the first",
    else its number."""
    since = _SINCE_FIRST_RELEASE[attr]
    return "the first" if since == _FIRST_RELEASE else since


#: tf.flags (tf.app.flags) up to 1.4 is TensorFlow's own argparse wrapper, whose
#: _FlagValues.__getattr__ (tensorflow/python/platform/flags.py) raises AttributeError(name) for
#: any name that is no flag; 1.5 rebuilt it on absl's FlagValues (tensorflow/tensorflow#17132:
#: "up to version 1.4.1 ... since 1.5.0"; #20214: "since TensorFlow 1.5, absl-py is used"), whose
#: methods code written since calls. The public methods of absl/flags/_flagvalues.py's
#: FlagValues that such code calls on FLAGS:
FLAGS_ON_ABSL_SINCE = "1.5"
_ABSL_FLAGVALUES_METHODS = frozenset(
    (
        "flag_values_dict", "mark_as_parsed", "is_parsed", "unparse_flags", "get_flag_value",
        "set_default", "read_flags_from_files", "flags_by_module_dict",
        "key_flags_by_module_dict", "find_module_defining_flag", "get_key_flags_for_module",
        "append_flag_values", "remove_flag_values", "get_help", "flags_into_string",
        "append_flags_into_file", "validate_all_flags", "register_flag_by_module",
        "main_module_help", "module_help", "write_help_in_xml_format",
    )
)  # fmt: skip
_TF_OWN_FLAGS = re.compile(r"(?:^|[/\\])tensorflow[/\\]python[/\\]platform[/\\]flags\.py$")


def flags_before_absl_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """``FLAGS.flag_values_dict()`` and the other methods of absl's FlagValues refused by
    TensorFlow's own flags wrapper of 1.4 and older (its ``__getattr__`` is the last frame, no
    absl frame below it): the code was written for tf.flags on absl, from 1.5 on."""
    for tb in tracebacks:
        attr = tb.message.strip().strip("'\"")
        if tb.type != "AttributeError" or attr not in _ABSL_FLAGVALUES_METHODS:
            continue
        if not tb.frames or tb.frames[-1].function != "__getattr__":
            continue
        if not _TF_OWN_FLAGS.search(tb.frames[-1].path):
            continue
        return [
            causes.finding(
                f"explain.{causes.code.TF_TOO_OLD_FOR_CODE}",
                Severity.ERROR,
                causes.code.TF_TOO_OLD_FOR_CODE,
                f"FLAGS.{attr} is absl's: tf.flags of this TensorFlow is older than the code",
                f"{tb.where}: {tb.type}: {tb.message}\nTensorFlow's own flags wrapper "
                f"({tb.frames[-1].path}) raised it: tf.flags of 1.4 and older is TensorFlow's "
                "argparse wrapper, without absl's FlagValues methods, which tf.flags has from "
                f"{FLAGS_ON_ABSL_SINCE} on.",
                causes.code.tf_too_old_fix(
                    m, f"FLAGS.{attr}() (tf.flags on absl's FlagValues)", FLAGS_ON_ABSL_SINCE
                ),
            )
        ]
    return []


#: Top-level names TensorFlow 2.x resolves from another distribution when first asked
#: (api_template.__init__.py: tf.keras from keras or tf-keras, tf.estimator from
#: tensorflow-estimator, tf.summary from tensorboard): missing, they say that package failed,
#: not that the tensorflow imported is hollow.
_FROM_OTHER_DISTRIBUTIONS = frozenset(("keras", "estimator", "summary"))


def _hollow_since(
    attr: str, name: str, oldest: ApiIndex, newest: ApiIndex, last: str, m: Machine
) -> Optional[str]:
    """Where ``name`` missing from the top-level ``tensorflow`` says it is no whole
    TensorFlow, in words: a name of every release, or one the release the log shows
    installed has in its bundled listing (``tf.compat`` under a 2.x: a folder of the user's
    or an uninstall's leftover imported instead); None where neither holds."""
    shown = m.tf.version if m.tf is not None else None
    if (
        attr in _SINCE_FIRST_RELEASE
        and shown is not None
        and version_key(shown) < version_key(_SINCE_FIRST_RELEASE[attr])
    ):
        return None  # a release the log shows that is older than the name itself
    if attr in _SINCE_FIRST_RELEASE and oldest.has(name) and newest.has(name):
        return f"every TensorFlow release (from {_since_words(attr)} to {last})"
    tf1 = sorted(tf1_lines(), key=version_key)
    if (
        attr in _SINCE_FIRST_RELEASE
        and m.tf is not None
        and version_key(m.tf.version) < (2,)
        and tf1
        and all((index := load_tf1(line)) is not None and index.has(name) for line in tf1)
    ):
        # A 1.x release shown, and a name every 1.x release has (Session, tf.app): TensorFlow
        # 2 dropping it says nothing of this install.
        return (
            f"every TensorFlow 1 release (from {_since_words(attr)} to {tf1[-1]}), and the "
            f"log shows TensorFlow {m.tf.version}"
        )
    line = m.line.line if m.line is not None else None
    if line is None or attr in _FROM_OTHER_DISTRIBUTIONS or line not in bundled_lines():
        return None
    installed = load_api(line)
    if installed is None or not installed.has(name):
        return None
    return f"TensorFlow {line}, the release the log shows installed"


def hollow_tensorflow_findings(
    tracebacks: Sequence[Traceback],
    m: Machine,
    side_by_side: Optional[Finding] = None,
    origins: Sequence[tuple[str, str]] = (),
) -> list[Finding]:
    """``module 'tensorflow' has no attribute 'Variable'``: a name every TensorFlow release
    has (the oldest and the newest bundled listings both do) is missing, so what imported as
    ``tensorflow`` is no whole TensorFlow: an install without its files, an empty folder an
    uninstall left (a namespace package), two distributions sharing the ``tensorflow/``
    folder, or a module of the user's own that the frames do not show. Ranked by what the
    log shows: a ``tensorflow`` it prints imported from outside site-packages leads
    (``origins``: the modules the log prints, with their files); then two distributions
    listed (``side_by_side``: the finding of a listing that shows them); otherwise the
    incomplete install does, with two distributions as the other candidate
    (:func:`_hollow_ranked`)."""
    lines = sorted(bundled_lines(), key=version_key)
    oldest, newest = (load_api(lines[0]), load_api(lines[-1])) if lines else (None, None)
    if oldest is None or newest is None:
        return []
    for tb in tracebacks:
        empty = _EMPTY_PACKAGE.search(tb.message)
        if empty is not None:
            return [_empty_package_finding(tb, empty.group("attr"), m)]
        # A name asked of the top-level ``tensorflow`` module itself.
        lacks = _module_attribute(_as_printed(tb.message))
        if lacks is None or lacks.owner != "tensorflow" or tb.circular_import is not None:
            # Python's words for a module asked while its import still runs (an import cycle,
            # Objects/moduleobject.c): not a TensorFlow whose files are missing.
            continue
        name = f"tf.{lacks.name}"
        since = _hollow_since(lacks.name, name, oldest, newest, lines[-1], m)
        if since is None:
            continue
        if any(
            re.search(r"(?:^|[/\\])tensorflow(?:\.py|[/\\]__init__\.py)$", f.path)
            and installed_package(f.path) is None
            for f in tb.frames
        ):
            continue  # the user's own tensorflow.py in the frames: shadowing, said elsewhere
        said = f"{tb.where}: {tb.type}: {tb.message}\n`{name}` is in {since}"
        own = _own_tensorflow(origins)
        if own is not None:
            return [
                causes.finding(
                    f"explain.{causes.software.TF_SHADOWED_MODULE}",
                    Severity.ERROR,
                    causes.software.TF_SHADOWED_MODULE,
                    f"`import tensorflow` loaded {own}, not the installed TensorFlow",
                    f"{said}, and the log prints the module tensorflow as imported from {own}, "
                    "outside site-packages: a module of that name earlier on the path than the "
                    "installed TensorFlow, without its names.",
                    causes.software.own_module_fix(own),
                )
            ]
        return _hollow_ranked(lacks.name, said, m, side_by_side)
    return []


def _own_tensorflow(origins: Sequence[tuple[str, str]]) -> Optional[str]:
    """The ``tensorflow.py`` or ``tensorflow/`` folder the log prints the module tensorflow
    imported from, where that is outside site-packages (Python's ``<module 'tensorflow' from
    'PATH'>``); None where it prints none, or the installed one."""
    return next(
        (
            own
            for name, path in origins
            if name == "tensorflow" and (own := own_module_path(path, name)) is not None
        ),
        None,
    )


def _hollow_ranked(
    attr: str, said: str, m: Machine, side_by_side: Optional[Finding]
) -> list[Finding]:
    """The readings of a ``tensorflow`` without ``attr``, a name every release has (``said``:
    the exception and where the name is), in the order the log supports them: the
    distributions it shows, where it shows two or more that write the ``tensorflow/`` folder
    (``side_by_side``, a listing's finding, or the machine's own providers); else an install
    whose files are missing, then two distributions (the log shows none, so it cannot tell
    them apart)."""
    shown = {p.name: p.version for p in m.tf_providers}
    incomplete_fix = causes.software.incomplete_install_fix(m)
    print_file = 'python -c "import tensorflow as tf; print(tf.__file__, tf.__path__)"'
    why = (
        f"{said}, so the module that imported as tensorflow is no whole TensorFlow: the "
        "log shows these distributions, which all write the same `tensorflow/` folder, so "
        "installing or removing one left the other's files mixed with or missing from it."
    )
    leading = (
        dataclasses.replace(side_by_side, detail=f"{side_by_side.detail}\n{why}")
        if side_by_side is not None
        else distributions_finding(shown, m, why)
        if len(shown) > 1
        else None
    )
    if leading is not None:
        return [
            leading,
            causes.other_candidate(
                causes.software.TF_INSTALL_INCOMPLETE,
                "the installed TensorFlow's files may be incomplete",
                f"{said}: an install that stopped part way lacks it too.",
                incomplete_fix,
                Severity.INFO,
            ),
        ]
    return [
        causes.finding(
            f"explain.{causes.software.TF_INSTALL_INCOMPLETE}",
            Severity.ERROR,
            causes.software.TF_INSTALL_INCOMPLETE,
            f"What imported as tensorflow has no {attr}: it is no whole TensorFlow",
            f"{said}, so the module that imported as tensorflow is not TensorFlow's: most "
            "often an install whose files are missing, or a tensorflow folder an uninstall "
            "left empty; else a tensorflow.py or tensorflow/ of your own in the working "
            "directory or on PYTHONPATH. Its __file__ tells which (None for an empty folder).",
            Fix(incomplete_fix.text, (print_file, *incomplete_fix.commands)),
        ),
        *two_distributions_candidate(m),
    ]


def statement_findings(
    statements: Sequence[tuple[str, str]], knowledge: ApiKnowledge, m: Machine
) -> list[Finding]:
    """Scan's errors on the import statements a log shows (with where), for the changes the
    log's TensorFlow already has: code that cannot run there."""
    if m.tf is None:
        return []
    tf_version = m.tf.version
    out: dict[str, Finding] = {}
    for where, code in statements:
        found = knowledge.code(code)
        if found is None:
            continue
        name, verdict = found
        if verdict.severity != Severity.ERROR or not verdict.release:
            continue
        if version_key(tf_version) < version_key(verdict.release):
            continue  # the change came later than this TensorFlow
        detail = (
            f"{where}: {code}\n{verdict.what}\nThe log shows TensorFlow {tf_version}, which has "
            f"this change (from {verdict.release})."
        )
        out.setdefault(
            f"explain.{verdict.cause}", _verdict_finding(name, verdict, detail, _fitted(verdict, m))
        )
    return list(out.values())


#: The import packages whose missing names this module reads as a release question: the
#: TensorFlow and Keras packages a name's home can be (companions' own modules are theirs).
_RELEASE_ROOTS = TF_OWN - {"tensorboard"}


def _missing_release_name(tb: Traceback) -> Optional[str]:
    """The dotted name (``tf.logging._logger``, ``keras.utils.get_file``) an exception says a
    TensorFlow or Keras module lacks, where the message, or the source line the traceback
    printed, names the module (a generated op wrappers' module whose package the traceback
    does not show by its own name: ``gen_image_ops.X``); None for any other exception, a
    module of the package's own import (an incomplete install, read elsewhere), or the
    package itself missing."""
    message = _as_printed(tb.message)
    if _not_the_release(tb) or own_module_missing(tb) or keras_own_missing(tb):
        return None
    module, attr = "", ""
    gone = missing_module(message)
    asked = missing_name(message)
    lacks = _module_attribute(message)
    if lacks is not None:
        module, attr = lacks.owner, lacks.name
    elif asked is not None and asked.module:
        module, attr = asked.module, asked.name
    elif gone is not None and gone.quoted:
        module, _, attr = gone.name.rpartition(".")
    lines = [c for c in (tb.code, *(f.code for f in tb.frames[-1:])) if c]
    code = " ".join(lines)
    if not module and gone is not None and gone.python2_alone and code:
        # Python 2 names only the part that did not import (``No module named
        # _impl.keras.layers``): the import line printed above it has the whole path.
        whole = re.search(
            rf"\b((?:tensorflow|keras|tf_keras)[\w.]*\.{re.escape(gone.name)})\b", code
        )
        if whole is not None:
            module, _, attr = whole.group(1).rpartition(".")
    if not module:
        # Python 2's words and Python 3.6's bare import refusal name no module: the source
        # line does (``tf.logging._logger.handlers = []``, ``from keras.layers import Merge``).
        bare = _py2_attribute(message) or _bare_import_name(message)
        if bare is None or not code:
            return None
        attr = bare
        used = re.search(rf"\b((?:tf|tensorflow|keras)(?:\.\w+)*)\.{attr}\b", code)
        if used is None:
            # TensorFlow's generated op wrappers, by the name TensorFlow gives their module
            # (gen_nn_ops._relu_grad): TensorFlow's own or a contrib package's, named whole
            # where the traceback shows which, else by the module's name alone.
            generated = next(
                (g.group("module") for g in _GENERATED_OPS.finditer(code) if g["attr"] == attr),
                None,
            )
            if generated is not None:
                module = _generated_ops_module(tb, generated)
                if module == generated:
                    return f"{module}.{attr}"
        # A ``from M import X`` statement printed names the module that lacks X; a line may
        # hold several statements, each ended by ``;`` (Python's simple_stmts).
        imported = (imported_from(part, attr) for line in lines for part in line.split(";"))
        module = (
            used.group(1)
            if used is not None
            else module or next((i for i in imported if i.split(".")[0] in _RELEASE_ROOTS), "")
        )
        if not module:
            return None
    if not attr or module.split(".")[0] not in _RELEASE_ROOTS | {"tf"}:
        return None
    base = "tf" if module == "tf" else public_name(module) or module
    return f"{base}.{attr}"


def release_name_candidates(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """The last exception, where no cause explains it and it says a TensorFlow or Keras
    module lacks a name that no reading of scan's knowledge placed: the code that asked was
    written for another release of TensorFlow or Keras than the one installed. A warning
    (the listings cannot say which release); where an installed library's frame asked, that
    library's release for the installed TensorFlow comes first (companion-mismatch)."""
    tb = last_failure(tracebacks)
    if tb is None:
        return []
    name = _missing_release_name(tb)
    if name is None:
        return []
    # A generated op wrappers' module named alone (gen_image_ops.X) is TensorFlow's too.
    keras = not name.startswith("tf.") and _GENERATED_OPS.match(name) is None
    product = "Keras" if keras else "TensorFlow"
    dists = "tensorflow keras" if keras else "tensorflow"
    releases = name_releases(name)
    listed = releases.having
    tf = m.tf.version if m.tf is not None else None
    if tf and not keras and ".".join(tf.split(".")[:2]) in listed:
        return []  # the log's TensorFlow has the name: missing for another reason
    shown = tb.frames[-1].code if tb.frames else tb.code
    if shown and name.rsplit(".", 1)[-1] not in shown:
        # The line printed did not ask for the name: what it imported did, in frames the
        # paste does not show. That package's release is the question, not the user's code.
        imported = imported_package(shown.lstrip())
        if imported is None or imported in _RELEASE_ROOTS:
            return []
        return [_library_asked(imported, name, product, tb, m)]
    running = f"the installed {product}" + (f" ({tf})" if tf and not keras else "")
    if listed:
        known = (
            f"{_said_by(releases, True)} have `{name}` in TensorFlow "
            f"{releases.span()} only, so {running} is of another line."
        )
    else:
        known = (
            f"No bundled listing ({_listings_span()}) has `{name}`: a private name, or one of "
            "a release outside them."
        )
    detail = [f"{tb.where}: {tb.type}: {tb.message}", known]
    hints = path_hints([f.path for f in tb.frames])
    if hints:
        detail.append(inferred_note(hints))
    raised = library_caller(tb)
    moved = _keras2_src_module(name, tb, m, raised, detail)
    if moved is not None:
        return [moved]
    out: list[Finding] = []
    if (
        raised is not None
        and raised[0] not in _RELEASE_ROOTS
        and any(f.path == raised[1] for f in tb.frames)
    ):
        # The innermost frame that is not TensorFlow's or Keras' own lies in an installed
        # library (the frames after it, if any, are the callee): its code asked, whatever
        # family member's frames (keras' training loop) lie between it and the user's code.
        # That library's release is the lead; the name stays known, as a warning. A private
        # name (tf.logging._logger) TensorFlow never published: no release of the library may
        # be made for it, so the library's reading stays a warning too.
        private = any(part.startswith("_") for part in name.split("."))
        how = f"its own frame raised: {raised[1]}"
        severity = Severity.WARNING if private else Severity.ERROR
        out.append(
            _library_asked(library_dist(*raised), name, product, tb, m, how, detail, severity)
        )
    else:
        behind, how, _ = package_behind(tb)
        if behind is not None and behind.replace("-", "_").lower() not in _RELEASE_ROOTS:
            out.append(_library_asked(behind, name, product, tb, m, how, detail))
    if not out and not keras and tf and listed and version_key(tf)[:2] < version_key(listed[0])[:2]:
        # Every release whose API has the name is newer than the log's TensorFlow: the code
        # was written for a later release (the lead), as for a name the 1.x listings date
        # (_tf1_added_later); keeping this TensorFlow and writing the code without the name
        # is the other candidate.
        return _newer_only(tb, name, releases, tf, detail, m)
    # An installed library's code asked (the lead above): it is replaced by its release for
    # the installed TensorFlow, never edited where pip put it.
    instead = (
        "or install that library's release made for the installed one (the finding above)"
        if out
        else "or port the code to the installed release's API"
    )
    text = (
        f"`{name}` is not in {running}: the code that asks for it was written for another "
        f"release of {product}. Read which release the code was written for (its requirements "
        "or setup file, its README, the date of its last change) and install that TensorFlow "
        f"{'and Keras ' if keras else ''}in a fresh virtual environment (with a Python that "
        f"release has wheels for), {instead}."
    )
    if listed:
        text += _listed_direction(name, releases, tf)
    out.append(
        causes.finding(
            f"explain.{causes.code.API_REMOVED}",
            Severity.WARNING,
            causes.code.API_REMOVED,
            f"`{name}`: {causes.CAUSES[causes.code.API_REMOVED].title}",
            "\n".join(detail),
            _front_end_fix(tb, Fix(text, m.pip(f"show {dists}"))),
            causes.CAUSES[causes.code.API_REMOVED].links,
        )
    )
    other = _standalone_keras(name, causes.code.API_REMOVED, tb, m)
    if other is not None:
        out.append(other)
    return out


def _newer_only(
    tb: Traceback, name: str, releases: NameReleases, tf: str, detail: Sequence[str], m: Machine
) -> list[Finding]:
    """A TensorFlow name that only releases newer than the log's TensorFlow have, the user's
    own code asking: that TensorFlow is older than the code (tf-too-old-for-code, the upgrade
    to the first release with the name, where the sources date it), and the code written
    without the name the other candidate (api-removed, a warning)."""
    first = releases.first
    # Where the oldest listing has a name no earlier source dates, an earlier release may
    # have brought it: the upgrade is then to the releases the code's requirements name.
    since = first if releases.dated else None
    used = f"`{name}`" if since else f"`{name}` ({releases.since()})"
    # (Undated, an earlier release than the oldest listing may have it: only those known.)
    having = "Every release that has it" if since else "Every release known to have it"
    older = causes.finding(
        f"explain.{causes.code.TF_TOO_OLD_FOR_CODE}",
        Severity.ERROR,
        causes.code.TF_TOO_OLD_FOR_CODE,
        f"`{name}`: {causes.CAUSES[causes.code.TF_TOO_OLD_FOR_CODE].title}",
        "\n".join([*detail, f"{having} is newer than the installed one ({tf})."]),
        _front_end_fix(tb, causes.code.tf_too_old_fix(m, used, since)),
        causes.CAUSES[causes.code.TF_TOO_OLD_FOR_CODE].links,
    )
    links = causes.CAUSES[causes.code.API_REMOVED].links
    kept = _written_for_older(
        name,
        Verdict(
            "tf-newer-only",
            causes.code.API_REMOVED,
            Severity.WARNING,
            "",
            Fix(""),
            links,
            since=first,
        ),
    )
    return [
        older,
        _verdict_finding(name, kept, f"{detail[0]}\n{kept.what}", _front_end_fix(tb, kept.fix)),
    ]


def _said_by(releases: NameReleases, start: bool = False) -> str:
    """The sources that place a name in ``releases``, in words (``start``: opening a
    sentence): the bundled listings, and TensorFlow's release notes only where they date a
    release older than the listings' (tf.data's 1.4)."""
    listed = {*tf1_lines(), *bundled_lines()}
    if releases.first and releases.first not in listed:
        return "TensorFlow's release notes and the bundled listings"
    return "The bundled listings" if start else "the bundled listings"


def _listed_direction(name: str, releases: NameReleases, tf: Optional[str]) -> str:
    """Which way to move, from the releases whose API has ``name`` and the TensorFlow the
    log shows: older than them, the code needs a newer TensorFlow; newer, an older one; not
    shown, both ways said, with how to tell."""
    listed = releases.having
    span = f"TensorFlow {releases.span()}"
    place = f" {_said_by(releases, True)} place"
    if tf and version_key(tf)[:2] < version_key(listed[0])[:2]:
        return f"{place} `{name}` in {span}: upgrade TensorFlow to one of those lines."
    if tf and version_key(tf)[:2] > version_key(listed[-1])[:2]:
        return (
            f"{place} `{name}` in {span}: the code needs one of those lines (an older "
            "TensorFlow), or porting."
        )
    return (
        f"{place} `{name}` in {span}: if `pip show tensorflow` shows an older "
        "TensorFlow, upgrade it to one of those lines; if a newer one, the code needs one of "
        "those lines, or porting."
    )


def _keras2_src_module(
    name: str,
    tb: Traceback,
    m: Machine,
    raised: Optional[tuple[str, str]],
    detail: Sequence[str],
) -> Optional[Finding]:
    """One of Keras 2's own modules where Keras 2.13 to 2.15 keep it (``keras.src.engine``:
    2.12's keras.engine, moved under keras/src/ by 2.13), asked where the log shows Keras 3
    (:func:`_keras3_observed`), whose keras/src/ holds no such module: the code (an installed
    library's, where its own frame raised) was written for Keras 2, whose last release with it
    is 2.15. None elsewhere."""
    if not name.startswith("keras.src.") or _last_keras2_line(name) != ".".join(
        str(x) for x in LAST_KERAS2
    ):
        return None
    shown = _keras3_observed(tb, m)
    if not shown:
        return None
    library = (
        library_dist(*raised)
        if raised is not None
        and raised[0] not in _RELEASE_ROOTS
        and any(f.path == raised[1] for f in tb.frames)
        else None
    )
    who = library or "the code"
    return causes.finding(
        f"explain.{causes.code.KERAS3_BEHAVIOUR_CHANGE}",
        Severity.ERROR,
        causes.code.KERAS3_BEHAVIOUR_CHANGE,
        f"`{name}` is Keras 2's own module (2.13 to 2.15), which Keras 3 does not have",
        "\n".join(
            [
                *detail,
                f"Keras 2.13 to 2.15 keep Keras 2's own modules under keras/src/; Keras 3 has a "
                f"keras/src/ of its own without {name} ({shown}): {who} was written for "
                "Keras 2.",
            ]
        ),
        _keras2_release_fix(m, who, name),
    )


def _library_asked(
    library: str,
    name: str,
    product: str,
    tb: Traceback,
    m: Machine,
    how: str = "",
    detail: Sequence[str] = (),
    severity: Severity = Severity.WARNING,
) -> Finding:
    """An installed library's code asking TensorFlow or Keras for ``name``, which the
    installed release lacks: that library's release for it (companion-mismatch; a warning
    unless the library's own frame is shown raising, ``severity``)."""
    shown = how or "the import the log shows last"
    return causes.finding(
        f"explain.{causes.software.COMPANION_MISMATCH}",
        severity,
        causes.software.COMPANION_MISMATCH,
        f"{library} was written for another {product} release (it asks for {name})",
        "\n".join(
            [
                *(detail or [f"{tb.where}: {tb.type}: {tb.message}"]),
                f"The code that asked is {library}'s ({shown}): that release of {library} was "
                f"written for another {product} than the installed one.",
            ]
        ),
        library_fix(m, library),
    )


def _listings_span() -> str:
    """The releases the bundled API listings cover, in words (``TensorFlow 1.9 to 2.21, Keras
    2.6 to 3.15``)."""
    lines = sorted((*tf1_lines(), *bundled_lines()), key=version_key)
    keras = sorted(keras_releases("keras"), key=version_key)
    return f"TensorFlow {lines[0]} to {lines[-1]}, Keras {keras[0]} to {keras[-1]}"
