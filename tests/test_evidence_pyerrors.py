"""CPython's own exception wordings read once into typed records: each Python release's words
for a module the import system did not find (Python 2's bare tail, Python 3's quoted name,
importlib's ``is not a package`` suffix), and what the records say of the message."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.pyerrors import MissingModule, MissingName, missing_module, missing_name
from tfdoctor.evidence.traceback import Traceback

MODULE_CASES = [
    pytest.param(
        # Python 2.7's Python/import.c: "No module named %.200s", the part that did not import.
        "No module named contrib.slim",
        MissingModule("contrib.slim", False, "", ""),
        id="python-2.7-bare-tail",
    ),
    pytest.param(
        # Python 3.3 to 3.5 raise ImportError with importlib's quoted repr of the whole name.
        "No module named 'tensorflow'",
        MissingModule("tensorflow", True, "", ""),
        id="python-3.5-quoted",
    ),
    pytest.param(
        # Python 3.6 to 3.14: ModuleNotFoundError, the same words, the whole dotted name.
        "No module named 'tensorflow.contrib'",
        MissingModule("tensorflow.contrib", True, "", ""),
        id="python-3.6-dotted",
    ),
    pytest.param(
        # importlib's _find_and_load_unlocked where the parent is a module, not a package.
        "No module named 'keras.engine'; 'keras' is not a package",
        MissingModule("keras.engine", True, "", "; 'keras' is not a package"),
        id="python-3-not-a-package",
    ),
    pytest.param(
        # A wrapper's words before Python's (a lazy importer re-raising the error it caught).
        "Failed to import tensorflow_text: No module named 'tensorflow_text.core'",
        MissingModule("tensorflow_text.core", True, "Failed to import tensorflow_text: ", ""),
        id="wrapped",
    ),
    pytest.param(
        # A writer's full stop after Python 2's bare name: Python's names never end in one.
        "No module named cv2.",
        MissingModule("cv2", False, "", "."),
        id="python-2.7-full-stop",
    ),
    pytest.param("cannot import name 'Merge' from 'keras.layers'", None, id="other-wording"),
    pytest.param("No module named", None, id="no-name"),
]


@pytest.mark.parametrize("message, expected", MODULE_CASES)
def test_missing_module_reads_each_python_wording(
    message: str, expected: Optional[MissingModule]
) -> None:
    assert missing_module(message) == expected


def test_alone_and_top_level_say_what_the_words_alone_name() -> None:
    top = missing_module("No module named 'cv2'")
    assert top is not None and top.alone and top.top_level and top.lone_top_level
    assert not top.python2_alone
    dotted = missing_module("No module named 'google.protobuf'")
    assert dotted is not None and dotted.alone and not dotted.lone_top_level
    suffixed = missing_module("No module named 'keras.engine'; 'keras' is not a package")
    assert suffixed is not None and not suffixed.alone
    tail = missing_module("No module named _impl.keras.layers\n")
    assert tail is not None and tail.python2_alone and not tail.lone_top_level
    # Python 3's quoted name is read before Python 2's bare words elsewhere in the message.
    both = missing_module("No module named x, then: No module named 'numpy'")
    assert both is not None and both.quoted and both.name == "numpy"


def test_a_traceback_record_answers_what_its_message_says() -> None:
    tb = Traceback("line 3", "ModuleNotFoundError", "No module named 'tf_keras'")
    assert tb.missing_module == MissingModule("tf_keras", True, "", "")
    other = Traceback("line 3", "AttributeError", "module 'tensorflow' has no attribute 'Session'")
    assert other.missing_module is None


NAME_CASES = [
    pytest.param(
        # Python 2.7's Python/ceval.c, import_from: "cannot import name %.230s", bare.
        "cannot import name Merge",
        MissingName("Merge", "", "", False, "", ""),
        id="python-2.7-bare",
    ),
    pytest.param(
        # Python 3.3 to 3.6: "cannot import name %R", no module.
        "cannot import name 'Merge'",
        MissingName("Merge", "", "", True, "", ""),
        id="python-3.6-name-alone",
    ),
    pytest.param(
        # Python 3.7 to 3.14: "cannot import name %R from %R (%S)", the module's file.
        "cannot import name 'Merge' from 'keras.layers' "
        "(/usr/lib/python3.8/site-packages/keras/layers/__init__.py)",
        MissingName(
            "Merge",
            "keras.layers",
            "/usr/lib/python3.8/site-packages/keras/layers/__init__.py",
            True,
            "",
            "",
        ),
        id="python-3.7-from-file",
    ),
    pytest.param(
        # A namespace package (no __init__.py): "unknown location".
        "cannot import name 'keras' from 'tensorflow' (unknown location)",
        MissingName("keras", "tensorflow", "unknown location", True, "", ""),
        id="python-3.7-unknown-location",
    ),
    pytest.param(
        # A Windows path with parentheses of its own: the line's last one closes it.
        r"cannot import name 'x' from 'm' (C:\Program Files (x86)\Python37\lib\m.py)",
        MissingName("x", "m", r"C:\Program Files (x86)\Python37\lib\m.py", True, "", ""),
        id="python-3.7-path-with-parentheses",
    ),
    pytest.param(
        # A library's words appended to Python 3.6's (a re-raise with its own advice).
        "cannot import name 'kl_divergence'. Your TensorFlow version is not supported.",
        MissingName(
            "kl_divergence", "", "", True, "", ". Your TensorFlow version is not supported."
        ),
        id="python-3.6-then-a-library's-words",
    ),
    pytest.param(
        # Python 3.8 on, a module still importing: no name a release lacks.
        "cannot import name 'layers' from partially initialized module 'keras' "
        "(most likely due to a circular import) (/src/keras/__init__.py)",
        None,
        id="python-3.8-circular-import",
    ),
    pytest.param("No module named 'keras.layers'", None, id="other-wording"),
]


@pytest.mark.parametrize("message, expected", NAME_CASES)
def test_missing_name_reads_each_python_wording(
    message: str, expected: Optional[MissingName]
) -> None:
    assert missing_name(message) == expected


def test_bare_alone_is_the_name_alone_without_a_module() -> None:
    bare = missing_name("cannot import name 'Merge'\n")
    assert bare is not None and bare.bare_alone
    named = missing_name("cannot import name 'Merge' from 'keras.layers'")
    assert named is not None and named.alone and not named.bare_alone
    tb = Traceback("line 9", "ImportError", "cannot import name 'Merge' from 'keras.layers'")
    assert tb.missing_name == named and tb.missing_module is None
