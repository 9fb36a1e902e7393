"""A call refused at an interface, as the exception's words state it (observed).

Each wording is one program's, the same for every caller, so the words say what was refused
and, for some, who refused it; the frames (not read here) say who called:

- Python's own (Python/ceval.c and, from 3.13, Python/getargs.c's shared helpers):
  ``%U() got an unexpected keyword argument '%S'`` (3.13 adds ``. Did you mean '%S'?``),
  ``%U() takes %zd positional argument%s but %zd%U %s given``, ``%U() missing %i required
  %s argument%s: %U``, ``%U() got multiple values for argument '%S'`` (for a keyword also
  in ``**kwargs``, 3.5 to 3.8 name a callable that is no function by its type: ``type object
  got multiple values for keyword argument``); the name printed is the code object's
  ``co_name`` up to 3.9 (``conv()``, ``__init__()``) and its ``co_qualname`` from 3.10
  (``Optimizer.apply_gradients()``, ``Dense.__init__()``).
  Python 2's: ``f() takes exactly N arguments (M given)`` (``at least``, ``at most``) and
  ``got multiple values for keyword argument``;
- TensorFlow's graph-building op library (tensorflow/python/framework/op_def_library.py,
  ``_apply_op_helper``: ``Expected list for '%s' argument to '%s' Op, not %s.``; its
  ``_MakeInt``, ``_MakeFloat``, ``_MakeBool``, ``_MakeStr`` and ``_MakeType``, and from 2.x
  op_def_library_pybind.cc's same words: ``Expected int for argument '%s' not %s.``,
  ``Expected DataType for argument ...``): an argument of an op's generated wrapper of
  another kind than the op's definition takes;
- Keras': Keras 2's ``generic_utils.validate_kwargs`` raises ``TypeError(error_message,
  kwarg)`` with ``'Keyword argument not understood:'`` (printed as a tuple); Keras 3's
  layers (keras/src/layers/layer.py: ``Unrecognized keyword arguments passed to
  {ClassName}: {kwargs}``) and optimizers (keras/src/optimizers/base_optimizer.py:
  ``Argument(s) not recognized: {kwargs}``); Keras 2.9 to 2.15's new optimizers
  (keras/optimizers/optimizer_experimental/optimizer.py, later optimizer.py,
  ``_process_kwargs``: ``{k} is not a valid argument, kwargs should be empty  for
  `optimizer_experimental.Optimizer`.``, and from 2.11 ``{k} is deprecated in the new Keras
  optimizer, please check the docstring ...``); Keras 2's and tf.keras' trainers (keras/
  engine/training.py, ``fit``: ``'Unrecognized keyword arguments: ' + str(kwargs)``;
  ``compile``: ``'Invalid keyword argument(s) in `compile`: %s' % (invalid_kwargs,)``, a
  set). Other libraries copy some of these words into their own code, so they are Keras' only
  where Keras' frames raised them (the reader of the frames decides);
- Python's attribute lookup (Objects/object.c): ``'%.100s' object has no attribute '%U'``,
  the class of the object it was read on;
- TensorFlow's ``__hash__`` of its tensors and variables where Tensor equality is enabled,
  TensorFlow 2's default (tensorflow/python/framework/ops.py, ``enable_tensor_equality``
  and ``Tensor.__hash__``; ops/variables.py, ``Variable.__hash__``): 2.0's ``Tensor is
  unhashable if Tensor equality is enabled. Instead, use tensor.experimental_ref() as the
  key.`` (``Variable is ...`` the same), later ``Tensor is unhashable. Instead, use
  tensor.ref() as the key.`` and ``Variable is unhashable. Instead, use variable.ref() as
  the key.``: code that keeps TensorFlow's objects in a set or as a dict's keys, as
  TensorFlow 1 allowed (``Tensor.ref``'s docstring: "tensor.__hash__() is no longer
  available starting Tensorflow 2.0").
"""

from __future__ import annotations

import re
from typing import Final, Optional

from tfdoctor.evidence.traceback import Frame, Traceback
from tfdoctor.records import Record, record

#: Shapes of a refusal.
KEYWORD: Final = "keyword"
POSITIONAL: Final = "positional"
MISSING: Final = "missing"
MULTIPLE: Final = "multiple"
OP_ARGUMENT: Final = "op-argument"
ATTRIBUTE: Final = "attribute"
UNHASHABLE: Final = "unhashable"

#: Who words a refusal so: Python for any function, or TensorFlow's and Keras' own code.
PYTHON: Final = "python"
TENSORFLOW: Final = "tensorflow"
KERAS: Final = "keras"


@record
class Refusal(Record):
    """What an exception says a call was refused (observed: its words only)."""

    #: One of the shapes above.
    shape: str
    #: The refusing function as printed: ``conv``, ``Optimizer.apply_gradients`` (Python
    #: 3.10+), an op's name (``TPUReplicatedInput``), a Keras class (``Dense``); empty where
    #: the words name none (Keras 2's tuple, Keras 3's optimizers).
    callee: str
    #: The argument or attribute refused (``batch_group_count``, ``_output_classes``); for
    #: a count of positional arguments, empty.
    argument: str
    #: The class the words name: an object's (``Iterator``), or the qualifier of a Python
    #: 3.10+ name (``Optimizer``); empty where none.
    owner: str
    #: Whose words: :data:`PYTHON`, :data:`TENSORFLOW` or :data:`KERAS`.
    speaker: str
    #: For a count of positional arguments, as Python printed them: how many the function
    #: takes (``2``, ``from 2 to 3``, Python 2's ``exactly 2``) and how many the call gave
    #: (``3``); empty for the other shapes.
    takes: str = ""
    given: str = ""
    #: For arguments missing, every one Python named, as it printed them (``'params' and
    #: 'indices'``; :attr:`argument` holds the first); empty for the other shapes.
    missing: str = ""

    @property
    def given_words(self) -> str:
        """How many arguments the call gave, in words that keep what Python counted: Python
        3's first wording counts the positional ones (``3 positional arguments``); Python 2's
        (and a C function's ``takes exactly one argument (2 given)``) counts keyword arguments
        too (Python 2's ceval.c prints ``argcount + kwcount``), so it says ``3 arguments``.
        Empty for the other shapes."""
        if not self.given:
            return ""
        kind = "positional " if self.takes[:1].isdigit() or self.takes.startswith("from") else ""
        return f"{self.given} {kind}argument{'' if self.given == '1' else 's'}"

    @property
    def takes_words(self) -> str:
        """How many the function takes, as Python printed it (``from 2 to 3``, ``exactly 2``),
        ``none`` for Python's ``takes no arguments``; empty for the other shapes."""
        return "none" if self.takes == "no" else self.takes

    @property
    def function(self) -> str:
        """The refusing function's own name, without its class (``apply_gradients``)."""
        return self.callee.rsplit(".", 1)[-1]


#: A function's name as Python prints it: 3.10+'s qualified name (``A.B.f``, ``f.<locals>.g``)
#: or the bare name; for a keyword also in ``**kwargs``, 3.9+'s module and qualified name
#: (Python/ceval.c, format_kwargs_error with _PyObject_FunctionStr: ``pkg.mod.A.f()``).
_FUNC = r"(?P<func>(?:[A-Za-z_<][\w<>]*\.){0,8}[A-Za-z_]\w*)"
_PYTHON_SHAPES = (
    (KEYWORD, re.compile(_FUNC + r"\(\) got an unexpected keyword argument '(?P<arg>\w+)'")),
    (
        POSITIONAL,
        re.compile(
            _FUNC + r"\(\) takes (?P<takes>(?:from \d+ to )?\d+) positional arguments? but "
            r"(?P<given>\d+) "
            r"(?:positional arguments? (?:\([^)\n]{0,80}\) )?)?(?:was|were) given"
        ),
    ),
    (
        POSITIONAL,
        re.compile(
            _FUNC + r"\(\) takes (?P<takes>(?:exactly|at least|at most|no) ?\w*) ?"
            r"arguments? \((?P<given>\d+) given\)"
        ),
    ),
    (
        MISSING,
        re.compile(
            _FUNC + r"\(\) missing \d+ required (?:positional|keyword-only) arguments?: "
            # format_missing joins the names: ``'a'``, ``'a' and 'b'``, ``'a', 'b', and 'c'``.
            r"(?P<missing>'(?P<arg>\w+)'(?:,? (?:and )?'\w+'){0,9})"
        ),
    ),
    (
        MULTIPLE,
        re.compile(
            _FUNC + r"\(\) got multiple values for (?:keyword )?argument "
            r"'(?P<arg>\w+)'"
        ),
    ),
)
#: Python 3.5 to 3.8's words for a keyword given both by name and in ``**kwargs`` to a callable
#: that is not a function (Python/ceval.c, BUILD_MAP_UNPACK_WITH_CALL: ``%.200s%.200s got
#: multiple values for keyword argument '%U'`` with PyEval_GetFuncName and PyEval_GetFuncDesc,
#: which give the name of the object's type and `` object``: ``type object`` for a class,
#: AutoGraph's ``dict(training=..., **kwargs)`` among them). The callee is not named.
_MULTIPLE_OBJECT = re.compile(
    r"[A-Za-z_][\w.]* object got multiple values for keyword argument '(?P<arg>\w+)'"
)
#: op_def_library.py's words for an op argument of another kind than its definition's.
_OP_LIST = re.compile(r"Expected list for '(?P<arg>\w+)' argument to '(?P<op>\w+)' Op, not ")
_OP_ATTR = re.compile(
    r"Expected (?:int|float|bool|string|DataType) for argument '(?P<arg>\w+)' not "
)
#: Keras 2's validate_kwargs (a tuple as printed; the key quoted), Keras 3's layers' and
#: optimizers' refusals of what their ``**kwargs`` held (a dict as printed).
_KERAS2_LAYER_WORDS = r"\(?'?Keyword argument not understood:'?,? '?(?P<arg>\w+)'?"
_KERAS_TUPLE = re.compile(
    _KERAS2_LAYER_WORDS + r"|Unrecognized keyword arguments: \{'(?P<arg2>\w+)'"
    r"|Invalid keyword argument\(s\) in `\w+`: \(?\{'(?P<arg3>\w+)'"
)
_KERAS_LAYER = re.compile(
    r"Unrecognized keyword arguments passed to (?P<cls>\w+): \{'(?P<arg>\w+)'"
)
_KERAS_OPTIMIZER = re.compile(
    r"Argument\(s\) not recognized: \{'(?P<arg>\w+)'"
    r"|^(?P<arg2>\w+) is (?:not a valid argument, kwargs should be empty"
    r"|deprecated in the new Keras optimizer)"
)
#: Objects/object.c: an object's class and the attribute looked up on it. Python 2 and 3
#: alike; a module's own missing name (``module 'x' has no attribute``) is not an object's.
_ATTRIBUTE = re.compile(r"^'(?P<cls>[A-Za-z_][\w.]*)' object has no attribute '(?P<arg>\w+)'")
#: TensorFlow's ``__hash__`` refusing to hash its Tensor or Variable (2.0's words and later).
_UNHASHABLE = re.compile(
    r"^(?P<cls>Tensor|Variable) is unhashable(?: if Tensor equality is enabled)?\. "
    r"Instead, use \w+\.(?:experimental_)?ref\(\) as the key"
)


#: Keras 2's layers' words alone (validate_kwargs' default ``error_message``), apart from the
#: trainers' and optimizers' that share :data:`_KERAS_TUPLE`.
_KERAS2_LAYER = re.compile(_KERAS2_LAYER_WORDS)


def keras_layer_refusal(message: str) -> Optional[tuple[str, str, int]]:
    """(The class the words name, empty for Keras 2's; the keyword; the Keras major whose
    layers word it) of a Keras layer's refusal of a keyword argument: Keras 3's
    ``Layer.__init__`` names the class (:data:`_KERAS_LAYER`), Keras 2's
    ``generic_utils.validate_kwargs`` none. None for any other words."""
    text = message.strip()
    found = _KERAS_LAYER.search(text)
    if found is not None:
        return found["cls"], found["arg"], 3
    found = _KERAS2_LAYER.search(text)
    return ("", found["arg"], 2) if found is not None else None


def read_refusal(message: str) -> Optional[Refusal]:
    """The refusal an exception's message states, or None where its words are none of the
    families above."""
    text = message.strip()
    for shape, pattern in _PYTHON_SHAPES:
        found = pattern.match(text)
        if found is not None:
            func = found["func"]
            owner = func.rsplit(".", 1)[0] if "." in func else ""
            # A nested function's qualifier (``f.<locals>``) names no class.
            owner = "" if owner.endswith(">") else owner
            named = found.groupdict()
            argument = named.get("arg") or ""
            takes, given = named.get("takes") or "", named.get("given") or ""
            return Refusal(
                shape,
                func,
                argument,
                owner.rsplit(".", 1)[-1],
                PYTHON,
                takes.strip(),
                given,
                named.get("missing") or "",
            )
    found = _MULTIPLE_OBJECT.match(text)
    if found is not None:
        return Refusal(MULTIPLE, "", found["arg"], "", PYTHON)
    found = _OP_LIST.search(text)
    if found is not None:
        return Refusal(OP_ARGUMENT, found["op"], found["arg"], "", TENSORFLOW)
    found = _OP_ATTR.match(text)
    if found is not None:
        return Refusal(OP_ARGUMENT, "", found["arg"], "", TENSORFLOW)
    found = _KERAS_TUPLE.search(text) or _KERAS_OPTIMIZER.search(text)
    if found is not None:
        named = found.groupdict()
        argument = named.get("arg") or named.get("arg2") or named.get("arg3") or ""
        return Refusal(KEYWORD, "", argument, "", KERAS)
    found = _KERAS_LAYER.search(text)
    if found is not None:
        return Refusal(KEYWORD, found["cls"], found["arg"], found["cls"], KERAS)
    found = _ATTRIBUTE.match(text)
    if found is not None:
        return Refusal(ATTRIBUTE, "", found["arg"], found["cls"].rsplit(".", 1)[-1], PYTHON)
    found = _UNHASHABLE.match(text)
    if found is not None:
        return Refusal(UNHASHABLE, "", "", found["cls"], TENSORFLOW)
    return None


#: Classes of TensorFlow's and Keras' own objects, as a library meets them (what the class an
#: attribute refusal names says of whose object it is): ``EagerTensor`` (tensorflow/python/
#: framework/ops.py, made by pywrap_tfe; Python prints its dotted type name,
#: ``tensorflow.python.framework.ops.EagerTensor``, which nanobind's ndarray importers match
#: too), ``SymbolicTensor`` (ops.py, the graph tensor's class from 2.14), ``ResourceVariable``
#: and ``RefVariable`` (ops/resource_variable_ops.py, ops/variables.py, later
#: ops/ref_variable.py), ``TensorShape`` (framework/tensor_shape.py), ``OwnedIterator`` and
#: ``IteratorV2`` (data/ops/iterator_ops.py), ``DatasetV1Adapter`` and the datasets
#: ``BatchDataset``/``MapDataset``/``PrefetchDataset`` (data/ops/dataset_ops.py; 2.13 on
#: ``_BatchDataset``...), ``KerasTensor`` and ``Functional`` (keras/engine/keras_tensor.py,
#: functional.py, from 2.4; tensorflow/python/keras/ before 2.6), ``OptimizerV2``
#: (keras/optimizer_v2/optimizer_v2.py), ``ListWrapper`` and ``_DictWrapper`` (trackable
#: data_structures.py). Their fields change between releases: a functional model's outputs had
#: a ``graph`` until KerasTensor took their place in 2.4.
TF_OBJECT_CLASSES: Final = frozenset(
    {
        "EagerTensor",
        "SymbolicTensor",
        "ResourceVariable",
        "RefVariable",
        "TensorShape",
        "OwnedIterator",
        "IteratorV2",
        "DatasetV1Adapter",
        "BatchDataset",
        "MapDataset",
        "PrefetchDataset",
        "KerasTensor",
        "Functional",
        "OptimizerV2",
        "ListWrapper",
        "_DictWrapper",
    }
)
#: Those of them whose names other libraries give classes of their own (detectron2's
#: data/common.py ``MapDataset``, a PyTorch dataset; datasets and list wrappers are common
#: names): alone, they do not say the object is TensorFlow's.
SHARED_CLASS_NAMES: Final = frozenset(
    {"BatchDataset", "MapDataset", "PrefetchDataset", "ListWrapper"}
)


def tf_object_class(name: str) -> bool:
    """Whether the class name ``name`` alone says an object is TensorFlow's or Keras' own
    (:data:`TF_OBJECT_CLASSES` but the shared names)."""
    return name in TF_OBJECT_CLASSES and name not in SHARED_CLASS_NAMES


#: A source line handing its arguments on unchanged (``return f(*args, **kwargs)``): a frame of
#: a wrapper, which takes any arguments and passes them to the function that refused them.
FORWARDS = re.compile(r"\*args\b[^\n]{0,120}\*\*kwargs\b|\*\*kwargs\)")


#: The files of TensorFlow's wrappers around its own functions: the dispatch decorator
#: (tensorflow/python/util/dispatch.py, add_dispatch_support's op_dispatch_handler) and the
#: deprecation decorators (tensorflow/python/util/deprecation.py, new_func). tf.function's and
#: the traceback filter's wrappers are not here: they call the user's own functions.
TF_WRAPPER = re.compile(
    r"[/\\]tensorflow(?:_core)?[/\\]python[/\\]util[/\\](?:dispatch|deprecation)\.py$"
)


def call_passed_through(tb: Traceback, caller: Frame, function: str) -> bool:
    """Whether the call Python refused (of ``function``, its own name) is ``caller``'s, passed
    on to the frames after it (the callee's, shown): the innermost frame is a dispatch or
    deprecation wrapper of TensorFlow's handing its arguments on unchanged (``return
    target(*args, **kwargs)``), or the caller's line calls that function as a member of a
    module or object (``tfxla.conv(``, ``self.opt.apply_gradients(``; TensorFlow's traceback
    filter, 2.9 on, hides the wrapper's frame). A function of the caller's own that
    tf.function or the filter called back (``step(x, y)``), or a later frame's call of its
    own, is not."""
    inner = tb.frames[-1] if tb.frames else None
    if inner is None or inner is caller:
        return False
    if TF_WRAPPER.search(inner.path) and FORWARDS.search(inner.code):
        return True
    return re.search(rf"\.{re.escape(function)}\s*\(", caller.code) is not None
