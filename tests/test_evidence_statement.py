"""The import statement printed above a message with no frames, read once: the package it
imports (every form the traceback reader keeps as the statement: typed at a prompt, alone on
its line, a shell's ``python -c``, joined to its error on one line, cut after ``import``),
and the distribution behind it for the readers that ask which library's code ran."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.traceback import read_tracebacks, statement_package
from tfdoctor.explain.packages import statement_import

_ERROR = "AttributeError: module 'numpy' has no attribute 'object'"


@pytest.mark.parametrize(
    ("text", "top"),
    [
        pytest.param(f">>> import onnx_tf\n{_ERROR}\n", "onnx_tf", id="typed"),
        pytest.param(f"In [3]: import onnx_tf as otf, numpy\n{_ERROR}\n", "onnx_tf", id="ipython"),
        pytest.param(f"from onnx_tf.backend import prepare\n{_ERROR}\n", "onnx_tf", id="from"),
        pytest.param(f"from onnx_tf.backend import\n{_ERROR}\n", "onnx_tf", id="cut-after-import"),
        pytest.param(
            f'$ python3 -c "from onnx_tf.backend import prepare"\n{_ERROR}\n',
            "onnx_tf",
            id="python-c",
        ),
        pytest.param(
            "from onnx_tf.backend import prepare ImportError: cannot import name 'prepare'\n",
            "onnx_tf",
            id="joined-to-its-error",
        ),
        pytest.param(f"from .backend import prepare\n{_ERROR}\n", None, id="relative"),
        pytest.param(f"x = prepare()\n{_ERROR}\n", None, id="not-an-import"),
        pytest.param(
            f'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n'
            f"    import onnx_tf\n{_ERROR}\n",
            None,
            id="frames-shown",
        ),
    ],
)
def test_the_package_the_statement_imports_is_read_in_each_form(
    text: str, top: Optional[str]
) -> None:
    (tb,) = read_tracebacks(text)
    assert statement_package(tb) == top


@pytest.mark.parametrize(
    ("statement", "default", "own"),
    [
        pytest.param("import onnx_tf", ("onnx_tf", "onnx-tf"), ("onnx_tf", "onnx-tf"), id="lib"),
        pytest.param("import tensorflow as tf", None, ("tensorflow", "tensorflow"), id="tf"),
        pytest.param("import my_own_module", None, None, id="unknown"),
    ],
)
def test_tensorflows_own_import_counts_only_where_asked(
    statement: str, default: Optional[tuple[str, str]], own: Optional[tuple[str, str]]
) -> None:
    # Importing TensorFlow runs TensorFlow's code: a NumPy name it asked for is its own.
    (tb,) = read_tracebacks(f">>> {statement}\n{_ERROR}\n")
    assert statement_import(tb) == default
    assert statement_import(tb, own=True) == own
