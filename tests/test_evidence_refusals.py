"""The words of a call refused at an interface, read as what was refused and whose words they
are: Python's across its releases (a bare name up to 3.9, a qualified one from 3.10, 3.13's
suggestion after the keyword, Python 2's counts), TensorFlow's op library's and Keras'."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.refusals import (
    ATTRIBUTE,
    KERAS,
    KEYWORD,
    MISSING,
    MULTIPLE,
    OP_ARGUMENT,
    POSITIONAL,
    PYTHON,
    TENSORFLOW,
    keras_layer_refusal,
    read_refusal,
    tf_object_class,
)

CASES = [
    pytest.param(
        # Python 3.10+'s qualified name of a nested function: no class qualifies it.
        "make_step.<locals>.step() got an unexpected keyword argument 'training'",
        (KEYWORD, "make_step.<locals>.step", "training", "", PYTHON),
        id="python-3.10-nested-function",
    ),
    pytest.param(
        "conv() got an unexpected keyword argument 'batch_group_count'",
        (KEYWORD, "conv", "batch_group_count", "", PYTHON),
        id="python-3.9-keyword",
    ),
    pytest.param(
        "Optimizer.apply_gradients() got an unexpected keyword argument 'global_step'",
        (KEYWORD, "Optimizer.apply_gradients", "global_step", "Optimizer", PYTHON),
        id="python-3.10-qualified-keyword",
    ),
    pytest.param(
        "Dense.__init__() got an unexpected keyword argument 'unitz'. Did you mean 'units'?",
        (KEYWORD, "Dense.__init__", "unitz", "Dense", PYTHON),
        id="python-3.13-suggestion",
    ),
    pytest.param(
        "ctc_loss_v2() takes from 4 to 7 positional arguments but 8 were given",
        (POSITIONAL, "ctc_loss_v2", "", "", PYTHON),
        id="python-3-positional-range",
    ),
    pytest.param(
        "Iterator.get_next() takes 1 positional argument but 2 were given",
        (POSITIONAL, "Iterator.get_next", "", "Iterator", PYTHON),
        id="python-3.10-positional",
    ),
    pytest.param(
        "concat() takes exactly 3 arguments (2 given)",
        (POSITIONAL, "concat", "", "", PYTHON),
        id="python-2-exactly",
    ),
    pytest.param(
        "_resource_apply_dense() missing 1 required positional argument: 'apply_state'",
        (MISSING, "_resource_apply_dense", "apply_state", "", PYTHON),
        id="python-3-missing",
    ),
    pytest.param(
        "__init__() got multiple values for keyword argument 'units'",
        (MULTIPLE, "__init__", "units", "", PYTHON),
        id="python-2-multiple",
    ),
    pytest.param(
        "layerkit.keras_layers.norm.FrozenNorm.call() got multiple values for keyword argument "
        "'training'",
        (MULTIPLE, "layerkit.keras_layers.norm.FrozenNorm.call", "training", "FrozenNorm", PYTHON),
        id="python-3.9-multiple-with-its-module",
    ),
    pytest.param(
        "type object got multiple values for keyword argument 'mask'",
        (MULTIPLE, "", "mask", "", PYTHON),
        id="python-3.7-multiple-of-a-class",
    ),
    pytest.param(
        "Expected list for 'inputs' argument to 'TPUReplicatedInput' Op, not shared/embedding.",
        (OP_ARGUMENT, "TPUReplicatedInput", "inputs", "", TENSORFLOW),
        id="op-def-library-list",
    ),
    pytest.param(
        "Expected DataType for argument 'T' not None.",
        (OP_ARGUMENT, "", "T", "", TENSORFLOW),
        id="op-def-library-type",
    ),
    pytest.param(
        "('Keyword argument not understood:', 'input_dim')",
        (KEYWORD, "", "input_dim", "", KERAS),
        id="keras-2-validate-kwargs",
    ),
    pytest.param(
        "Unrecognized keyword arguments passed to Conv2D: {'input_dim': 3}",
        (KEYWORD, "Conv2D", "input_dim", "Conv2D", KERAS),
        id="keras-3-layer",
    ),
    pytest.param(
        "Argument(s) not recognized: {'lr': 0.001}",
        (KEYWORD, "", "lr", "", KERAS),
        id="keras-3-optimizer",
    ),
    pytest.param(
        "decay is not a valid argument, kwargs should be empty  for "
        "`optimizer_experimental.Optimizer`.",
        (KEYWORD, "", "decay", "", KERAS),
        id="keras-2.11-new-optimizer",
    ),
    pytest.param(
        "Unrecognized keyword arguments: {'shuffle_buffer': 10}",
        (KEYWORD, "", "shuffle_buffer", "", KERAS),
        id="keras-2-fit",
    ),
    pytest.param(
        "Invalid keyword argument(s) in `compile`: {'jit_compile'}",
        (KEYWORD, "", "jit_compile", "", KERAS),
        id="tf-keras-compile",
    ),
    pytest.param(
        "'Iterator' object has no attribute '_output_classes'",
        (ATTRIBUTE, "", "_output_classes", "Iterator", PYTHON),
        id="object-attribute",
    ),
    pytest.param(
        "'tensorflow.python.framework.ops.EagerTensor' object has no attribute 'graph'",
        (ATTRIBUTE, "", "graph", "EagerTensor", PYTHON),
        id="object-attribute-dotted-class",
    ),
]


@pytest.mark.parametrize(("message", "expected"), CASES)
def test_a_refusal_is_read_with_its_shape_and_speaker(
    message: str, expected: tuple[str, str, str, str, str]
) -> None:
    found = read_refusal(message)
    assert found is not None
    assert (found.shape, found.callee, found.argument, found.owner, found.speaker) == expected


@pytest.mark.parametrize(
    "message",
    [
        pytest.param("module 'tensorflow' has no attribute 'Session'", id="module-attribute"),
        pytest.param("No module named 'tensorflow.contrib'", id="module-missing"),
        pytest.param("unsupported operand type(s) for +: 'int' and 'str'", id="other-typeerror"),
        pytest.param("Expected float32, got 'a' of type 'str' instead.", id="conversion"),
    ],
)
def test_other_words_are_no_refusal(message: str) -> None:
    found: Optional[object] = read_refusal(message)
    assert found is None


@pytest.mark.parametrize(
    ("name", "alone"),
    [
        pytest.param("EagerTensor", True, id="eager-tensor"),
        pytest.param("TensorShape", True, id="tensor-shape"),
        pytest.param("OptimizerV2", True, id="keras-optimizer-v2"),
        # detectron2 has a MapDataset of its own, PyTorch a Tensor and a Sequential.
        pytest.param("MapDataset", False, id="shared-dataset-name"),
        pytest.param("Tensor", False, id="public-tensor"),
        pytest.param("Sequential", False, id="public-sequential"),
    ],
)
def test_a_class_name_alone_says_the_object_is_tensorflows(name: str, alone: bool) -> None:
    assert tf_object_class(name) is alone


@pytest.mark.parametrize(
    ("message", "takes", "given"),
    [
        pytest.param(
            "__init__() takes 2 positional arguments but 3 were given", "2", "3", id="python-3.9"
        ),
        pytest.param(
            "name_scope_v2.__init__() takes from 2 to 3 positional arguments but 4 were given",
            "from 2 to 3",
            "4",
            id="python-3.10-qualified-range",
        ),
        pytest.param(
            "conv2d() takes at most 4 arguments (5 given)", "at most 4", "5", id="python-2"
        ),
        pytest.param(
            "f() takes 1 positional argument but 2 positional arguments (and 1 keyword-only "
            "argument) were given",
            "1",
            "2",
            id="python-3-keyword-only-note",
        ),
    ],
)
def test_a_count_of_positional_arguments_keeps_the_counts_printed(
    message: str, takes: str, given: str
) -> None:
    refusal = read_refusal(message)
    assert refusal is not None and refusal.shape == POSITIONAL
    assert (refusal.takes, refusal.given) == (takes, given)


def test_other_shapes_carry_no_counts() -> None:
    refusal = read_refusal("reduce_sum() got multiple values for argument 'axis'")
    assert refusal is not None and (refusal.takes, refusal.given) == ("", "")


@pytest.mark.parametrize(
    ("message", "missing"),
    [
        pytest.param("f() missing 1 required positional argument: 'a'", "'a'", id="one"),
        pytest.param(
            "Layer.call() missing 2 required positional arguments: 'a' and 'b'",
            "'a' and 'b'",
            id="two",
        ),
        pytest.param(
            "f() missing 3 required keyword-only arguments: 'a', 'b', and 'c'",
            "'a', 'b', and 'c'",
            id="three",
        ),
    ],
)
def test_arguments_missing_are_kept_as_python_named_them(message: str, missing: str) -> None:
    refusal = read_refusal(message)
    assert refusal is not None and refusal.shape == MISSING
    assert (refusal.argument, refusal.missing) == ("a", missing)


@pytest.mark.parametrize(
    ("message", "given", "takes"),
    [
        pytest.param(
            "f() takes 1 positional argument but 2 were given",
            "2 positional arguments",
            "1",
            id="python-3",
        ),
        pytest.param(
            "f() takes 0 positional arguments but 1 was given",
            "1 positional argument",
            "0",
            id="python-3-one-given",
        ),
        pytest.param(
            "f() takes exactly 2 arguments (3 given)", "3 arguments", "exactly 2", id="python-2"
        ),
        pytest.param("f() takes no arguments (1 given)", "1 argument", "none", id="none-taken"),
    ],
)
def test_a_count_is_worded_as_python_counted(message: str, given: str, takes: str) -> None:
    refusal = read_refusal(message)
    assert refusal is not None
    assert (refusal.given_words, refusal.takes_words) == (given, takes)


def test_a_keras_layers_refusal_says_its_class_and_major() -> None:
    # keras 3.0.5 keras/src/layers/layer.py, Layer.__init__: "Unrecognized keyword arguments
    # passed to {self.__class__.__name__}: {kwargs}"; keras 2.15.0 keras/src/utils/
    # generic_utils.py, validate_kwargs: TypeError("Keyword argument not understood:", kwarg).
    words3 = "Unrecognized keyword arguments passed to LSTM: {'time_major': False}"
    assert keras_layer_refusal(words3) == ("LSTM", "time_major", 3)
    words2 = "('Keyword argument not understood:', 'use_cudnn')"
    assert keras_layer_refusal(words2) == ("", "use_cudnn", 2)
    # Keras 2's fit and Keras 3's optimizers refuse keywords in words of their own: no layer's.
    assert keras_layer_refusal("Unrecognized keyword arguments: {'epoch': 3}") is None
    assert keras_layer_refusal("Argument(s) not recognized: {'lr': 0.1}") is None
