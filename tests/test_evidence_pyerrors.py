"""CPython's own exception wordings read once into typed records: each Python release's words
for a module the import system did not find (Python 2's bare tail, Python 3's quoted name,
importlib's ``is not a package`` suffix), and what the records say of the message."""

from __future__ import annotations

from typing import Optional

import pytest

from tfdoctor.evidence.pyerrors import (
    CircularImport,
    MissingAttribute,
    MissingModule,
    MissingName,
    NameAsked,
    RInterface,
    circular_import,
    imported_from,
    missing_attribute,
    missing_module,
    missing_name,
    name_asked,
    r_interface,
    suggestion,
)
from tfdoctor.evidence.traceback import Frame, Traceback, read_tracebacks

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
    assert suffixed.not_a_package == "keras" and top.not_a_package == ""
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


ATTRIBUTE_CASES = [
    pytest.param(
        # Python 3.5 to 3.14, Objects/moduleobject.c module_getattro: "module '%U' has no
        # attribute '%U'".
        "module 'keras.backend' has no attribute 'get_session'",
        MissingAttribute("get_session", "keras.backend", "module"),
        id="python-3.5-module",
    ),
    pytest.param(
        # Python 2 and 3.0 to 3.4: the module's type, not its name (Objects/object.c).
        "'module' object has no attribute 'rnn_cell'",
        MissingAttribute("rnn_cell", "", "module", False, True),
        id="python-2-module-object",
    ),
    pytest.param(
        # Objects/object.c for an instance, with 3.10's suggestion (Lib/traceback.py).
        "'Cell' object has no attribute '_flag'. Did you mean: 'flag'?",
        MissingAttribute(
            "_flag", "Cell", "object", False, False, "flag", "", ". Did you mean: 'flag'?"
        ),
        id="python-3.10-object-suggestion",
    ),
    pytest.param(
        # Objects/typeobject.c type_getattro: the class itself.
        "type object 'ConverterV2' has no attribute 'from_file'",
        MissingAttribute("from_file", "ConverterV2", "type"),
        id="python-3-class",
    ),
    pytest.param(
        # Python 2's classic classes (Objects/classobject.c).
        "Model instance has no attribute 'run'",
        MissingAttribute("run", "Model", "object"),
        id="python-2-classic-instance",
    ),
    pytest.param(
        # 3.8 on, a module still importing.
        "partially initialized module 'pkg' has no attribute 'layers' "
        "(most likely due to a circular import)",
        MissingAttribute(
            "layers",
            "pkg",
            "module",
            True,
            False,
            "",
            "",
            " (most likely due to a circular import)",
        ),
        id="python-3.8-partially-initialized",
    ),
    pytest.param(
        # 3.13 on, a module still importing from the script's directory: its file named, in
        # place of "partially initialized" (Objects/moduleobject.c, python/cpython#113769).
        "module 'pkg' has no attribute 'layers' (consider renaming '/w/pkg.py' if it has the "
        "same name as a library you intended to import)",
        MissingAttribute(
            "layers",
            "pkg",
            "module",
            partial=True,
            after=" (consider renaming '/w/pkg.py' if it has the same name as a library you "
            "intended to import)",
            path="/w/pkg.py",
            shadowing=True,
        ),
        id="python-3.13-shadowing-library",
    ),
    pytest.param(
        # 3.13's note for a standard library module's name: printed whether or not the module
        # is still importing.
        "module 'json' has no attribute 'loads' (consider renaming '/w/json.py' since it has "
        "the same name as the standard library module named 'json' and prevents importing "
        "that standard library module)",
        MissingAttribute(
            "loads",
            "json",
            "module",
            after=" (consider renaming '/w/json.py' since it has the same name as the standard "
            "library module named 'json' and prevents importing that standard library module)",
            path="/w/json.py",
            shadowing=True,
        ),
        id="python-3.13-shadowing-stdlib",
    ),
    pytest.param(
        # 3.13 on, a module still importing, its file named.
        "partially initialized module 'pkg' from '/w/pkg/__init__.py' has no attribute 'x' "
        "(most likely due to a circular import)",
        MissingAttribute(
            "x",
            "pkg",
            "module",
            partial=True,
            after=" (most likely due to a circular import)",
            path="/w/pkg/__init__.py",
        ),
        id="python-3.13-partially-initialized-from",
    ),
    pytest.param(
        # A blank a retyping dropped before the quote is read through.
        "module 'keras.utils' has no attribute'Seq'",
        MissingAttribute("Seq", "keras.utils", "module"),
        id="retyped",
    ),
    pytest.param("the submodule has no attribute 'x'", None, id="not-python's-words"),
    pytest.param("No module named 'keras'", None, id="other-wording"),
]


@pytest.mark.parametrize("message, expected", ATTRIBUTE_CASES)
def test_missing_attribute_reads_each_python_wording(
    message: str, expected: Optional[MissingAttribute]
) -> None:
    assert missing_attribute(message) == expected


def test_a_module_object_is_a_module_the_words_do_not_name() -> None:
    unnamed = missing_attribute("'module' object has no attribute 'learn'")
    assert unnamed is not None and unnamed.module and unnamed.unnamed_module
    assert unnamed.module_object
    named = missing_attribute("module 'numpy' has no attribute 'bool'")
    assert named is not None and named.module and not named.unnamed_module
    # A module without a name (3.5 on): unnamed, but not Python 2's words.
    nameless = missing_attribute("module has no attribute 'x'")
    assert nameless is not None and nameless.unnamed_module and not nameless.module_object
    instance = missing_attribute("'Adam' object has no attribute 'build'")
    assert instance is not None and not instance.module


CIRCULAR_CASES = [
    pytest.param(
        # Python/ceval.c import_from, 3.8 to 3.14.
        "cannot import name 'layers' from partially initialized module 'pkg' "
        "(most likely due to a circular import) (/src/pkg/__init__.py)",
        CircularImport("layers", "pkg", "/src/pkg/__init__.py"),
        id="python-3.8-import-from",
    ),
    pytest.param(
        # Objects/moduleobject.c, 3.12 to 3.14.
        "cannot access submodule 'ops' of module 'pkg' (most likely due to a circular import)",
        CircularImport("ops", "pkg"),
        id="python-3.12-submodule",
    ),
    pytest.param(
        "partially initialized module 'pkg' has no attribute 'x' "
        "(most likely due to a circular import)",
        CircularImport("x", "pkg"),
        id="python-3.8-attribute",
    ),
    pytest.param("cannot import name 'layers' from 'pkg' (/src/pkg.py)", None, id="missing"),
]


@pytest.mark.parametrize("message, expected", CIRCULAR_CASES)
def test_circular_import_is_its_own_record(
    message: str, expected: Optional[CircularImport]
) -> None:
    assert circular_import(message) == expected


def test_imported_from_reads_the_from_statement_that_names_the_name() -> None:
    assert imported_from("from pkg import sub", "sub") == "pkg"
    assert imported_from("    from a.b import (c, d as e)", "d") == "a.b"
    assert imported_from("from . import sub", "sub") == "."
    assert imported_from("from pkg import other", "sub") == ""
    assert imported_from("import pkg.sub", "sub") == ""


def test_a_traceback_reads_python_2s_attribute_words_without_a_module() -> None:
    line = Frame("x.py", 3, "<module>", "c = tf.nn.rnn_cell.GRUCell(2)")
    py2 = Traceback(
        "line 4", "AttributeError", "'module' object has no attribute 'rnn_cell'", (line,)
    )
    assert py2.missing_attribute == MissingAttribute("rnn_cell", "", "module", False, True)
    assert Traceback("line 1", "ValueError", "bad").missing_attribute is None


R_CASES = [
    pytest.param(
        "Error in py_get_attr_impl(x, name, silent) : \n  AttributeError: x",
        RInterface("py_get_attr_impl"),
        id="attribute-call",
    ),
    pytest.param(
        "Error in py_module_import(module, convert = convert) : \n  ImportError: y",
        RInterface("py_module_import"),
        id="import-call",
    ),
    pytest.param(
        # reticulate's R/python.R, py_resolve_module_proxy.
        "Error in : Python module pkg.sub was not found.\n",
        RInterface("", "pkg.sub"),
        id="module-proxy",
    ),
    pytest.param("Error in f(x) : object 'y' not found", None, id="other-r-error"),
]


@pytest.mark.parametrize("text, expected", R_CASES)
def test_r_interface_reads_reticulate_wrappers(text: str, expected: Optional[RInterface]) -> None:
    assert r_interface(text) == expected


def test_r_module_not_found_is_a_missing_module() -> None:
    found = r_interface("Error: Python module pkg.sub was not found.")
    assert found is not None and found.missing == MissingModule("pkg.sub", True, by="reticulate")
    call = r_interface("Error in py_call_impl(callable, dots$args, dots$keywords) :")
    assert call is not None and call.missing is None


def test_reticulate_words_are_not_python_s_module_not_found() -> None:
    # R/python.R prints them for any error the import raised: no observed missing module.
    assert missing_module("Python module pkg.sub was not found.") is None
    assert name_asked("Python module pkg.sub was not found.") is None
    # Python's own words are Python's.
    own = missing_module("No module named 'pkg'")
    assert own is not None and own.by == ""


def test_tracebacks_note_the_r_front_end_around_python_s_error() -> None:
    wrapped = read_tracebacks(
        "Error in py_get_attr_impl(x, name, silent) : \n"
        "  AttributeError: 'module' object has no attribute 'learn'\n"
    )
    assert [(t.type, t.front_end) for t in wrapped] == [("AttributeError", "reticulate")]
    proxy = read_tracebacks("Error in : Python module pkg.sub was not found.\n")
    assert [(t.type, t.front_end) for t in proxy] == [("Error", "reticulate")]
    assert proxy[0].missing_module is None
    detail = read_tracebacks("  error: ModuleNotFoundError: No module named 'pkg'\n")
    assert [t.front_end for t in detail] == ["reticulate"]
    own = read_tracebacks("AttributeError: module 'pkg' has no attribute 'x'\n")
    assert [t.front_end for t in own] == [""]


def test_suggestion_is_python_3_10_s_did_you_mean_after_any_of_its_messages() -> None:
    assert suggestion("module 'pkg' has no attribute 'lyers'. Did you mean: 'layers'?") == (
        "layers"
    )
    # 3.12 on suggest after an ImportError too.
    assert suggestion("cannot import name 'Lyr' from 'pkg' (/p/pkg.py). Did you mean: 'Lay'?")
    assert suggestion("module 'pkg' has no attribute 'x'") == ""


NAME_ASKED_CASES = [
    pytest.param(
        "module 'keras.utils' has no attribute 'Seq'",
        NameAsked("keras.utils", "Seq", "attribute"),
        id="attribute",
    ),
    pytest.param(
        "cannot import name 'Merge' from 'keras.layers' (/p/keras/layers/__init__.py)",
        NameAsked("keras.layers", "Merge", "import"),
        id="import-from",
    ),
    pytest.param(
        "No module named 'tensorflow.compat.v2'",
        NameAsked("tensorflow.compat", "v2", "submodule"),
        id="submodule",
    ),
    pytest.param("No module named 'cv2'", None, id="top-level-module"),
    pytest.param("'module' object has no attribute 'x'", None, id="module-unnamed"),
    pytest.param(
        "partially initialized module 'pkg' has no attribute 'x' "
        "(most likely due to a circular import)",
        None,
        id="circular",
    ),
]


@pytest.mark.parametrize("message, expected", NAME_ASKED_CASES)
def test_name_asked_is_a_named_module_lacking_a_name_in_any_wording(
    message: str, expected: Optional[NameAsked]
) -> None:
    assert name_asked(message) == expected
