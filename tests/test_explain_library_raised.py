"""Exceptions raised in the code of a library built on TensorFlow that say nothing of a
TensorFlow or Keras release (a None the caller passed on, the user's data of another dtype, a
name NumPy 2 removed): no companion-mismatch, the exception left unexplained. A library asking
TensorFlow for a name the installed release lacks is the missing name's reading."""

from __future__ import annotations

import pytest

from tests.explaining import explained
from tfdoctor.findings import Severity

_VENV = "/home/u/.venv/lib/python3.10/site-packages"

_CASES = {
    # cv2.imread returned None for a path that does not exist, and deepface read its shape.
    "none-from-the-input": (
        "Traceback (most recent call last):\n"
        '  File "/home/u/app.py", line 5, in <module>\n'
        "    res = DeepFace.analyze(img_path=img)\n"
        f'  File "{_VENV}/deepface/commons/functions.py", line 140, in extract_faces\n'
        "    if img.shape[0] == 0:\n"
        "AttributeError: 'NoneType' object has no attribute 'shape'\n"
    ),
    # The user's float64 data passed to a float32 distribution.
    "dtype-of-the-data": (
        "Traceback (most recent call last):\n"
        '  File "/home/u/fit.py", line 9, in <module>\n'
        "    lp = dist.log_prob(x)\n"
        f'  File "{_VENV}/tensorflow_probability/python/distributions/distribution.py", '
        "line 1287, in log_prob\n"
        "    return self._call_log_prob(value, name, **kwargs)\n"
        f'  File "{_VENV}/tensorflow/python/framework/op_def_library.py", line 55, in '
        "_SatisfiesTypeConstraint\n"
        "    raise TypeError(\n"
        "TypeError: Value passed to parameter 'x' has DataType float64 not in list of allowed "
        "values: float16, bfloat16, float32\n"
    ),
    # NumPy 2.0 removed np.bool8: NumPy's release, not TensorFlow's.
    "numpy-name-removed": (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/features.py", line 12, in <module>\n'
        "    from tensorflow_probability.python.internal import backend\n"
        f'  File "{_VENV}/tensorflow_probability/python/internal/backend/__init__.py", '
        "line 19, in <module>\n"
        "    from tensorflow_probability.python.internal.backend import numpy as np_backend\n"
        "AttributeError: module 'numpy' has no attribute 'bool8'\n"
    ),
}


@pytest.mark.parametrize("log", list(_CASES.values()), ids=list(_CASES))
def test_an_input_error_in_a_library_is_no_release_question(log: str) -> None:
    report = explained(log)
    assert not [f for f in report.findings if f.cause == "companion-mismatch"]
    assert "explain.unexplained-exception" in {f.id for f in report.findings}


def test_a_library_asking_tensorflow_for_a_missing_name_is_its_release() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/fit.py", line 3, in <module>\n'
        "    import tflearn\n"
        f'  File "{_VENV}/tflearn/helpers/summarizer.py", line 9, in <module>\n'
        "    summary = tf.summary.merge_all\n"
        "AttributeError: module 'tensorflow._api.v2.summary' has no attribute 'merge_all'\n"
    )
    found = [f for f in explained(log).findings if f.cause == "companion-mismatch"]
    assert found and "tflearn" in found[0].summary
    assert found[0].severity.rank >= Severity.WARNING.rank
