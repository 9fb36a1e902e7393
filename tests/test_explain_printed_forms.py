"""Readings mended where they answered the wrong text: Windows' DLL failure of another
package's extension without TensorFlow's loader, and two messages (NumPy 2's copy refusal,
Colab's TensorFlow 1 refusal) read only in the form their programs print, never quoted."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error


def test_another_packages_dll_failure_stays_that_packages() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\me\\app\\main.py", line 1, in <module>\n'
        "    import cv2\n"
        '  File "C:\\Users\\me\\Anaconda3\\lib\\site-packages\\cv2\\__init__.py", line 3, '
        "in <module>\n"
        "    from .cv2 import *\n"
        "ImportError: DLL load failed: The specified procedure could not be found.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "cv2" in fix and "not TensorFlow's" in fix


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: Unable to avoid copy while creating an array as requested.\n",
        "  Value error, Unable to avoid copy while creating an array as requested. "
        "[type=value_error, input_value=['a'], input_type=list]\n",
        "  Unable to avoid copy while creating an array as requested. (type=value_error)\n",
        # NumPy's message goes on over lines of its own; pydantic 1 indents its first.
        "pydantic.error_wrappers.ValidationError: 1 validation error for Encoding\n"
        "constant\n"
        "  Unable to avoid copy while creating an array as requested.\n"
        "If using `np.array(obj, copy=False)` replace it with `np.asarray(obj)`.\n",
    ],
    ids=["numpy", "pydantic-2", "pydantic-1", "pydantic-1-over-lines"],
)
def test_numpy2_copy_refusal_in_its_printed_forms(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "numpy2-behaviour-change"
    assert "numpy<2" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        "# NumPy 2 raises: Unable to avoid copy while creating an array as requested.\n",
        'print("Unable to avoid copy while creating an array as requested.")\n',
        "    raise ValueError('Unable to avoid copy while creating an array as requested.')\n",
        "Unable to avoid copy while creating an array as requested, the docs say\n",
    ],
    ids=["comment", "print", "raise-statement", "prose"],
)
def test_numpy2_copy_words_quoted_are_not_the_error(text: str) -> None:
    assert all(f.cause != "numpy2-behaviour-change" for f in explained(text).findings)


def test_colabs_refusal_as_the_magic_raises_it() -> None:
    top = top_error(explained("ValueError: Tensorflow 1 is unsupported in Colab.\n"))
    assert top.cause == "hosted-tf-line-dropped"


@pytest.mark.parametrize(
    "text",
    [
        "# Tensorflow 1 is unsupported in Colab, so this notebook uses TF 2\n",
        'print("Tensorflow 1 is unsupported in Colab.")\n',
        "    raise ValueError('Tensorflow 1 is unsupported in Colab.')\n",
    ],
    ids=["comment", "print", "raise-statement"],
)
def test_colabs_words_quoted_are_not_the_refusal(text: str) -> None:
    assert all(f.cause != "hosted-tf-line-dropped" for f in explained(text).findings)
