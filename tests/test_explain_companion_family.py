"""Logs of one family, written for these tests (no thread's text): a package beside TensorFlow
at the wrong release, across packages, platforms and the words each prints, read to the cause
and to a fix that names the distribution as pip installs it."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Severity

_VENV = "/home/u/.venv/lib/python3.10/site-packages"
_TFDF = f"{_VENV}/tensorflow_decision_forests/tensorflow/ops/inference"
_TFIO = "/opt/conda/lib/python3.9/site-packages/tensorflow_io/python/ops"
_SYMBOL = (
    "_ZN10tensorflow20OpKernelConstructionC1EPNS_10DeviceTypeEPNS_10DeviceBaseEPNS_9Allocator"
    "EPKNS_7NodeDefEPKNS_5OpDefENS_4core4SpanIKNS_8DataTypeEEESG_PKNS_20MemoryTypeVectorESI_"
    "iPN3tsl6StatusE"
)

_CASES = {
    # tflearn's import of tf.contrib under TensorFlow 2.
    "tflearn-contrib": (
        "Traceback (most recent call last):\n"
        '  File "/home/ana/proj/train.py", line 3, in <module>\n'
        "    import tflearn\n"
        f'  File "{_VENV}/tflearn/variables.py", line 7, in <module>\n'
        "    from tensorflow.contrib.framework.python.ops import add_arg_scope\n"
        "ModuleNotFoundError: No module named 'tensorflow.contrib'\n",
        "companion-mismatch",
        "tflearn",
    ),
    # TensorFlow Decision Forests' op library missing a symbol of the TensorFlow it was built for.
    "tfdf-undefined-symbol": (
        "$ pip list | grep tensorflow\n"
        "tensorflow                    2.16.1\n"
        "tensorflow-decision-forests   1.8.1\n"
        "Traceback (most recent call last):\n"
        f'  File "{_TFDF}/op_dynamic.py", line 21, in <module>\n'
        '    ops = tf.load_op_library(resource_loader.get_path_to_datafile("inference.so"))\n'
        f'  File "{_VENV}/tensorflow/python/framework/load_library.py", line 54, '
        "in load_op_library\n"
        "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: "
        f"{_TFDF}/inference.so: undefined symbol: {_SYMBOL}\n",
        "companion-mismatch",
        "tensorflow-decision-forests 1.9",
    ),
    # tensorflow-io's loader relaying the linker's refusal of its own library.
    "tfio-own-library": (
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        f'  File "{_TFIO}/__init__.py", line 69, in _load_library\n'
        "    raise NotImplementedError(\n"
        "NotImplementedError: unable to open file: libtensorflow_io.so, from paths: "
        f"['{_TFIO}/libtensorflow_io.so']\n"
        f"caused by: ['{_TFIO}/libtensorflow_io.so: undefined symbol: "
        "_ZN3tsl8internal21CheckOpMessageBuilder9NewStringEv']\n",
        "companion-mismatch",
        "tensorflow-io",
    ),
    # tf2onnx importing a private Keras module that TensorFlow moved.
    "tf2onnx-private-module": (
        "Traceback (most recent call last):\n"
        f'  File "{_VENV}/tf2onnx/tf_loader.py", line 31, in <module>\n'
        "    from tensorflow.python.keras.saving import saving_utils as _saving_utils\n"
        "ModuleNotFoundError: No module named 'tensorflow.python.keras.saving'\n",
        "companion-mismatch",
        "tf2onnx",
    ),
    # pip refusing a tensorflow-text of another TensorFlow line than the one asked for.
    "pip-tensorflow-text-line": (
        "$ pip install tensorflow==2.14.0 tensorflow-text==2.13.0\n"
        "ERROR: Cannot install tensorflow-text==2.13.0 and tensorflow==2.14.0 because these "
        "package versions have conflicting dependencies.\n"
        "\n"
        "The conflict is caused by:\n"
        "    The user requested tensorflow==2.14.0\n"
        "    tensorflow-text 2.13.0 depends on tensorflow<2.14 and >=2.13.0\n"
        "\n"
        "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/"
        "dependency-resolution/#dealing-with-dependency-conflicts\n",
        "companion-mismatch",
        "tensorflow-text==2.14",
    ),
    # protobuf 4's runtime refusing TensorFlow 2.9's generated code.
    "protobuf-4-under-tf29": (
        "$ pip list | grep -E 'tensorflow|protobuf'\n"
        "protobuf                     4.25.3\n"
        "tensorflow                   2.9.3\n"
        "Traceback (most recent call last):\n"
        f'  File "{_VENV}/tensorflow/core/framework/tensor_shape_pb2.py", line 36, in <module>\n'
        "    _descriptor.FieldDescriptor(\n"
        f'  File "{_VENV}/google/protobuf/descriptor.py", line 561, in __new__\n'
        "    _message.Message._CheckCalledFromGeneratedFile()\n"
        "TypeError: Descriptors cannot be created directly.\n",
        "protobuf-incompatible",
        "protobuf<3.20",
    ),
    # NumPy 2 under a TensorFlow built against NumPy 1.
    "numpy-2-under-numpy-1-build": (
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.0.1 as it may crash. To support both 1.x and 2.x\n"
        "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
        "AttributeError: _ARRAY_API not found\n"
        "ImportError: numpy.core._multiarray_umath failed to import\n",
        "numpy-abi",
        "numpy<2",
    ),
    # ml-dtypes older than what TensorFlow's dtypes ask of it.
    "ml-dtypes-older": (
        "Traceback (most recent call last):\n"
        f'  File "{_VENV}/tensorflow/python/framework/dtypes.py", line 37, in <module>\n'
        "    _np_float8_e4m3b11fnuz = ml_dtypes.float8_e4m3b11fnuz\n"
        "AttributeError: module 'ml_dtypes' has no attribute 'float8_e4m3b11fnuz'\n",
        "dependency-out-of-range",
        "ml-dtypes",
    ),
}


@pytest.mark.parametrize(("log", "cause", "word"), list(_CASES.values()), ids=list(_CASES))
def test_a_package_at_the_wrong_release_is_named_in_the_fix(
    log: str, cause: str, word: str
) -> None:
    report = explained(log)
    found = [x for x in report.findings if x.cause == cause]
    assert found and max(x.severity.rank for x in found) >= Severity.WARNING.rank
    assert any(word in fix_text(x) for x in found)
    # NumPy 2's own words say which way: no finding calls the NumPy older than a build's.
    assert not any("older than the one the extension" in x.summary for x in report.findings)
