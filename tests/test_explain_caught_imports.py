"""Readings of what a traceback's own structure says: an exception Python says was caught
("During handling of the above exception") is a fallback's start, not the failure; Keras 2's
own modules where 2.13 to 2.15 keep them (keras.src.engine) asked of a Keras 3 the log shows
or its Python implies. Each log here is written for the test from the form Python and IPython
print."""

from __future__ import annotations

from tests.explaining import explained, fix_text
from tfdoctor.evidence.traceback import read_tracebacks

_SITE = "/home/user/venv/lib/python3.8/site-packages"

#: IPython's report of a package's optional import of its generated op wrapper, caught, and
#: the fallback's tf.load_op_library raising; ``{then}`` is what follows the second header.
_CAUGHT = (
    "---------------------------------------------------------------------------\n"
    "ImportError                               Traceback (most recent call last)\n"
    f"{_SITE}/fancyops/kernels/backend.py in <module>\n"
    "     32 try:\n"
    "---> 33   from fancyops.kernels import gen_blur_op as ops\n"
    "     34 except ImportError:\n"
    "\n"
    "ImportError: cannot import name 'gen_blur_op' from 'fancyops.kernels' "
    f"({_SITE}/fancyops/kernels/__init__.py)\n"
    "\n"
    "During handling of the above exception, another exception occurred:\n"
    "\n"
    "NotFoundError                             Traceback (most recent call last)\n"
    "{then}"
)


def test_an_exception_python_says_was_caught_is_marked_handled() -> None:
    caught, then = read_tracebacks(_CAUGHT.format(then=""))
    assert caught.handled and caught.type == "ImportError"
    # The paste stops after the second header: its type is all it shows.
    assert (then.type, then.message, then.handled) == ("NotFoundError", "", False)


def test_a_header_cut_alone_after_no_caught_exception_is_not_read() -> None:
    text = "NotFoundError                             Traceback (most recent call last)\n"
    assert read_tracebacks(text) == []


def test_a_caught_op_wrapper_import_then_notfounderror_is_the_package_for_this_tensorflow() -> None:
    report = explained(_CAUGHT.format(then=""))
    [found] = [x for x in report.findings if x.severity.value == "error"]
    assert found.cause == "companion-mismatch"
    assert "fancyops" in found.summary and "fancyops" in fix_text(found)
    # Not a kernel holding two releases: the package's own code caught the import.
    assert all(x.cause != "kernel-restart-needed" for x in report.findings)


def test_the_same_import_uncaught_in_a_notebook_still_reads_as_a_kernel_restart() -> None:
    text = _CAUGHT.split("\nDuring handling", maxsplit=1)[0] + "\n"
    causes = [x.cause for x in explained(text).findings]
    assert "kernel-restart-needed" in causes


_KERAS2_SRC = (
    "Traceback (most recent call last):\n"
    '  File "/app/convert.py", line 5, in <module>\n'
    "    import fancyconv\n"
    '  File "/app/.venv/lib/python{py}/site-packages/fancyconv/commons.py", line 3, in '
    "<module>\n"
    "    from keras.src.engine.keras_tensor import KerasTensor\n"
    "ModuleNotFoundError: No module named 'keras.src.engine'\n"
)


def test_keras2s_module_under_keras_src_with_a_python_only_keras_3_serves_names_2_15() -> None:
    report = explained(_KERAS2_SRC.format(py="3.12"))
    top = report.findings[0]
    assert top.cause == "keras3-behaviour-change"
    fix = fix_text(top)
    assert "2.15" in fix and "fancyconv" in fix
    assert "inferred: Python 3.12" in top.detail
    # TensorFlow 2.15 has no wheel for Python 3.12: pip there would install nothing, so the
    # environment is made with the newest Python 2.15 has wheels for.
    assert (
        "python3.11 -m venv .venv" in fix
        and '.venv/bin/python -m pip install "tensorflow~=2.15.0"' in fix
    )


def test_keras2s_module_under_keras_src_with_a_python_keras_2_served_stays_the_package() -> None:
    # Python 3.10 has wheels of 2.13 to 2.15 too: the log does not tell the Keras.
    report = explained(_KERAS2_SRC.format(py="3.10"))
    assert all(x.cause != "keras3-behaviour-change" for x in report.findings)
    assert any(x.cause == "companion-mismatch" for x in report.findings)
