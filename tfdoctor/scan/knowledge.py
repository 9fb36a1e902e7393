"""What scan knows about one API name, asked by evidence that is not source code.

A traceback names an API in its own words: ``module 'tensorflow' has no attribute
'estimator'``, ``cannot import name 'X' from 'keras.layers'``, a keyword argument an optimizer
refused, or the source line it printed. :class:`ApiKnowledge` answers with the same rules and
API listings, hence the same cause, words and fix, that ``tfdoctor scan`` gives for that use in
a file: the knowledge has one home.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor.matrix import Matrix, version_key
from tfdoctor.scan import Judge, ScanOptions, Verdict
from tfdoctor.scan.api import MOST_HOMES, bundled_lines, load_api, load_early
from tfdoctor.scan.rules import Rules, load_rules
from tfdoctor.scan.walker import MethodUse, Use, normalize, scan_source

# Module names as Python prints them for the objects that serve an API: TensorFlow's generated
# `_api.v2` tree, Keras 2 serving tf.keras (`keras.api._v2.keras`), Keras 3 serving tf.keras
# (`keras._tf_keras.keras`), Keras 3's own generated `keras.api` tree and tf-keras' own tree
# (`tf_keras.api._v2.keras`, which TF_USE_LEGACY_KERAS serves as tf.keras: its listing is
# tf-keras', not Keras 3's).
_SERVED = (
    # TensorFlow 2.0 to 2.5 served tf.keras from their own copy's generated tree
    # (tensorflow_core in 2.0 and 2.1).
    ("tensorflow_core.python.keras.api._v2.keras", "tensorflow.keras"),
    ("tensorflow.python.keras.api._v2.keras", "tensorflow.keras"),
    # TensorFlow 1.14 and 1.15 served tf.keras from the _v1 tree of the same copy (2.0 to 2.5
    # serve tf.compat.v1.keras from it, whose names are tf.keras' v1 exports).
    ("tensorflow_core.python.keras.api._v1.keras", "tensorflow.keras"),
    ("tensorflow.python.keras.api._v1.keras", "tensorflow.keras"),
    ("tensorflow_core._api.v2", "tensorflow"),
    ("tensorflow._api.v2", "tensorflow"),
    # TensorFlow 1.13 to 1.15 generate tf.X as `tensorflow._api.v1.X` (`tensorflow_core` in
    # 1.15); TensorFlow 2 keeps the same v1 names under `_api.v2.compat.v1`.
    ("tensorflow_core._api.v1", "tensorflow"),
    ("tensorflow._api.v1", "tensorflow"),
    # tf.estimator is tensorflow_estimator's own generated tree, which TensorFlow's
    # `__init__` hooks in: `api._v2.estimator` in TensorFlow 2 (tensorflow/api_template.
    # __init__.py), `api._v1.estimator` in 1.x, where it is tf.estimator (api_template_v1.
    # __init__.py), and in 2.x as tf.compat.v1.estimator (compat_template_v1.__init__.py).
    # The module's name does not say which TensorFlow loaded it: read as 1.x's tf.estimator,
    # whose v1 names are those of 2.x's tf.compat.v1.estimator.
    ("tensorflow_estimator.python.estimator.api._v2.estimator", "tensorflow.estimator"),
    ("tensorflow_estimator.python.estimator.api._v1.estimator", "tensorflow.estimator"),
    ("keras.api._v2.keras", "tensorflow.keras"),
    # Keras 2.6 to 2.15 serve tf.compat.v1.keras from their `_v1` tree (TensorFlow 2.6 to
    # 2.15's compat v1 template loads `keras.api._v1.keras`); no TensorFlow 1 release loads it.
    ("keras.api._v1.keras", "tensorflow.compat.v1.keras"),
    ("keras._tf_keras.keras", "tensorflow.keras"),
    ("keras.api", "keras"),
    ("tf_keras.api._v2.keras", "tf_keras"),
    # 2.0 and 2.1 (and 1.15) print the package by its tensorflow_core name.
    ("tensorflow_core", "tensorflow"),
)
_PRIVATE = re.compile(r"^(?:keras|tf_keras)\.src(?:\.|$)")
#: The roots of the names scan judges.
_ROOTS = ("tf", "keras", "tf_keras")


def public_name(module: str) -> Optional[str]:
    """The API name (``tf.X``, ``tf.keras.X``, ``keras.X``) of a module name an error printed;
    None for a module that is no TensorFlow or Keras API (or Keras' private tree)."""
    for prefix, public in _SERVED:
        if module == prefix or module.startswith(prefix + "."):
            module = public + module[len(prefix) :]
            break
    else:
        # Before the generated API (0.x to 1.8) a public namespace was the module of TensorFlow's
        # own tree that tensorflow/python/__init__.py imported (tf.train was
        # tensorflow.python.training.training): the early table names them.
        early = load_early().modules.get(module)
        if early is not None:
            return early
    if _PRIVATE.match(module):
        return None
    name = normalize(module)
    if name.split(".")[0] in _ROOTS:
        return name
    return None


def tf_public_name(module: str) -> Optional[str]:
    """:func:`public_name` of a module of TensorFlow's public API (``tf.X``, ``tf.keras.X``);
    None for Keras' own, TensorFlow's private tree (``tensorflow.python``, which no listing
    holds) or no API at all."""
    api = public_name(module)
    if api is None or not api.startswith("tf") or ".python." in f".{api}.":
        return None
    return api


def module_api(module: str) -> Optional[str]:
    """The public name of a library file's module (``keras.src.optimizers.adam`` ->
    ``keras.optimizers.adam``): what a call into that file was a use of."""
    if module.startswith("keras.src."):
        return "keras." + module[len("keras.src.") :]
    if module.startswith("tensorflow.") and ".python." not in f".{module}.":
        return normalize(module)
    return None


@functools.cache
def tf_class_homes(cls: str) -> tuple[str, ...]:
    """The public names under ``tf`` of a class named ``cls`` (``MirroredStrategy`` ->
    ``tf.compat.v1.distribute.MirroredStrategy``, ``tf.distribute.MirroredStrategy``), from
    the newest bundled listing that has one; empty for a name no listing holds as a symbol
    (or one of more homes than one name that moved has: a common word, not one class)."""
    if not cls[:1].isupper():
        return ()
    for line in bundled_lines():
        index = load_api(line)
        homes = index.homes(cls, "tf") if index is not None else []
        if homes:
            return tuple(homes) if len(homes) <= MOST_HOMES else ()
    return ()


#: The Keras modules whose classes make up each family scan's method rules know.
_KERAS_FAMILIES = (
    ("optimizer", ("tf.keras.optimizers", "tf.keras.optimizers.legacy", "tf_keras.optimizers")),
    ("layer", ("tf.keras.layers", "tf_keras.layers")),
)


class ApiKnowledge:
    """scan's judge of API uses, for one release line (the newest final release the matrix
    knows)."""

    def __init__(
        self,
        matrix: Matrix,
        rules: Optional[Rules] = None,
        target: Optional[str] = None,
        python: Optional[str] = None,
        platform: str = "",
    ) -> None:
        newest = matrix.newest_release or (matrix.lines[0] if matrix.lines else None)
        target = target or (newest.line if newest is not None else "2.0")
        self.matrix = matrix
        self.rules = rules if rules is not None else load_rules()
        self.target = target
        #: The Python the code runs under (the log's or the probe's), None where unknown.
        self.python = python
        #: The platform key prefix where it runs (the matrix's keys), empty where unknown.
        self.platform = platform
        self._judge = Judge(
            self.rules, ScanOptions((), target, python=python, platform=platform), matrix
        )

    def at(self, line: str) -> ApiKnowledge:
        """The same knowledge, judging for the release line ``line`` (``2.5``)."""
        return ApiKnowledge(self.matrix, self.rules, line, self.python, self.platform)

    def first_line_with(self, api: str, since: str) -> Optional[str]:
        """The oldest release line after ``since`` from which every bundled line has ``api``
        (a public name) in its public API; None when the newest does not have it. (Whether
        ``since`` itself lacks it is the caller's question.)"""
        later = sorted(
            (x for x in bundled_lines() if version_key(x) > version_key(since)),
            key=version_key,
            reverse=True,
        )
        first: Optional[str] = None
        for line in later:
            if self.at(line).name(api) is not None:
                break
            first = line
        return first

    def oldest_line_with(self, api: str) -> Optional[str]:
        """The oldest bundled release line whose public API has ``api``; None when none has."""
        for line in sorted(bundled_lines(), key=version_key):
            if self.at(line).name(api) is None:
                return line
        return None

    def name(self, api: str, kwargs: Sequence[str] = ()) -> Optional[Verdict]:
        """The verdict on a use of ``api`` (a public name), as a call with ``kwargs``."""
        kind = "call" if kwargs else "attribute"
        return self._judge.judge_use(Use(api, api, 0, 0, kind, kwargs=tuple(kwargs)))

    def listed(self, api: str) -> Optional[Verdict]:
        """The verdict of the API listing alone on ``api`` (a public name): where the target
        lacks it, what became of it; None where the target has it."""
        return self._judge.listed(api)

    def keyword(self, api: str, kwarg: str) -> Optional[Verdict]:
        """The verdict of a rule about passing ``kwarg`` to ``api``, or None."""
        verdict = self.name(api, (kwarg,))
        if verdict is None:
            return None
        rule = next((r for r in self.rules.rules if r.id == verdict.key), None)
        return verdict if rule is not None and rule.kwarg == kwarg else None

    def rule(self, rule_id: str) -> Optional[Verdict]:
        """The verdict of the rule ``rule_id`` (evidence that names the rule), or None."""
        rule = next((r for r in self.rules.rules if r.id == rule_id), None)
        return self._judge.rule_verdict(rule) if rule is not None else None

    def method(self, method: str, receiver: str) -> Optional[Verdict]:
        """The verdict on ``receiver.method(...)`` (``receiver``: the object's name or class)."""
        return self._judge.judge_method(MethodUse(method, receiver, 0, 0))

    def model_keyword(self, method: str, kwarg: str) -> Optional[Verdict]:
        """The verdict of a rule about passing ``kwarg`` to a Keras model's ``method``
        (``model.fit(..., workers=4)``), or None."""
        use = MethodUse(method, "model", 0, 0, kwargs=(kwarg,), receiver_kind="model")
        verdict = self._judge.judge_method(use)
        rule = next((r for r in self.rules.rules if verdict and r.id == verdict.key), None)
        return verdict if rule is not None and rule.kwarg == kwarg else None

    def member(self, cls: str, attr: str) -> Optional[Verdict]:
        """The verdict on the member ``attr`` of an object of the Keras class ``cls``
        (``'Adam' object has no attribute 'lr'``), asked as a call and as a read: the class's
        family (a model, an optimizer, a layer) is where the Keras API lists it."""
        kind = self.keras_kind(cls)
        if kind is None:
            return self._tf_class_member(cls, attr)
        for attribute in (False, True):
            use = MethodUse(attr, kind, 0, 0, attribute=attribute, receiver_kind=kind)
            verdict = self._judge.judge_method(use)
            if verdict is not None:
                return verdict
        return None

    def _tf_class_member(self, cls: str, attr: str) -> Optional[Verdict]:
        """The verdict on the member ``attr`` of an object of TensorFlow's public class
        ``cls`` (``'MirroredStrategy' object has no attribute 'experimental_run_v2'``): Python
        names the object's class, not where the API exports it, so the class is read as its
        public names in the listings (``tf.distribute.MirroredStrategy``), and only a rule
        whose ``classes`` hold one of them judges it (its receiver pattern matching the name
        too), as scan judges ``strategy.experimental_run_v2(...)`` by the receiver's name."""
        homes = tf_class_homes(cls)
        for public in homes:
            for attribute in (False, True):
                use = MethodUse(attr, public, 0, 0, attribute=attribute)
                verdict = self._judge.judge_method(use, homes)
                if verdict is not None:
                    return verdict
        return None

    def keras_kind(self, cls: str) -> Optional[str]:
        """``model``, ``optimizer``, ``layer``, ``variable`` or ``keras-tensor``: the family a
        Keras class belongs to, from the modules the target's or Keras 2's API lists it in
        (None for any other class)."""
        if cls in ("Model", "Sequential", "Functional"):
            return "model"
        if cls == "KerasTensor":
            # Keras' symbolic tensor (keras.Input, a layer's output in a functional model):
            # Keras 3's keras/src/backend/common/keras_tensor.py, tf.keras' engine/keras_tensor.py.
            # A kind no receiver written in code can be, so only a message naming the class
            # reaches its rules.
            return "keras-tensor"
        if cls in ("Variable", "KerasVariable"):
            # Keras 3's variable class (keras.Variable, keras/src/backend/common/variables.py),
            # which model.weights and a layer's kernel are where tf.keras is Keras 3.
            return "variable"
        listings = [x for x in (self._judge.api, self._judge.keras2) if x is not None]
        for kind, modules in _KERAS_FAMILIES:
            for listing in listings:
                if any(listing.has(f"{module}.{cls}") for module in modules):
                    return kind
        return None

    def code(self, line: str) -> Optional[tuple[str, Verdict]]:
        """The first use in one source line that breaks, with the name as written; the usual
        aliases (``tf``, ``keras``) are assumed bound as their packages."""
        aliases = []
        if re.search(r"\btf\.", line):
            aliases.append("import tensorflow as tf")
        if re.search(r"(?<![\w.])keras\.", line):
            aliases.append("import keras")
        # An import statement binds its own names (`from keras.wrappers.scikit_learn import
        # KerasClassifier`): what it imports is the use.
        statement = re.match(r"\s*(?:from|import)\s+(?:tensorflow|keras|tf_keras)\b", line)
        # A method a rule knows (`model.fit(..., nb_epoch=10)`) needs no alias: the rule
        # applies to the call on any object.
        called = any(f".{method}(" in line for method in self.rules.by_method())
        if not aliases and statement is None and not called:
            return None
        if not aliases and statement is None:
            # The line comes from a traceback through Keras: the receiver is Keras'.
            aliases.append("import keras")
        source = "\n".join((*aliases, line.strip()))
        found = scan_source(source, "<traceback>", frozenset(self.rules.by_method()))
        if found.errors:
            return None
        for use in found.uses:
            if use.line <= len(aliases):
                continue  # the assumed aliases themselves
            verdict = self._judge.judge_use(use)
            if verdict is not None:
                return use.written, verdict
        for call in found.methods:
            verdict = self._judge.judge_method(call)
            if verdict is not None:
                return f"{call.receiver}.{call.method}", verdict
        return None
