"""Fixes about "the package whose code failed" name the package the traceback's frames show.

The evidence layer reads the installed package of the innermost frame past the callee's
(:func:`tfdoctor.evidence.traceback.failing_package`); the causes' fix builders name its
distribution where the module table knows the import package, and otherwise say "the package
that provides `x`" without making up a PyPI name. Each property runs over a package the table
knows under another name (cv2 is opencv-python), one it knows under its own, and one it does
not know.
"""

from __future__ import annotations

from typing import Optional

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text
from tfdoctor.evidence.packages import read_shown_packages
from tfdoctor.evidence.traceback import (
    PackageCode,
    failing_package,
    keras_importer,
    numpy_refuser,
    read_tracebacks,
)
from tfdoctor.findings import Finding, Fix, Report

SITE = "/home/u/venv/lib/python3.10/site-packages"

#: Import package -> how a fix names it: its distribution where the module table knows it,
#: else the words that make up no distribution.
PACKAGES = {
    "cv2": "opencv-python",
    "tf2onnx": "tf2onnx",
    "zzdetect": "the package that provides `zzdetect`",
}


def _of(report: Report, cause: str) -> Optional[Finding]:
    return next((x for x in report.findings if x.cause == cause), None)


def _frames(*paths: str) -> str:
    return "".join(f'  File "{p}", line 7, in <module>\n    import x\n' for p in paths)


def _import_of(module: str, message: str, before: str = "") -> str:
    """A log whose script's import of ``module`` failed in the package's own ``__init__``
    with ``message`` (``before``: what was printed above the traceback)."""
    return (
        f"{before}Traceback (most recent call last):\n"
        + _frames("run.py", f"{SITE}/{module}/__init__.py")
        + f"{message}\n"
    )


def _of_cause(log: str, cause: str) -> Finding:
    """The finding of ``cause`` explain gives for ``log``, asserted to be there."""
    found = _of(explained(log), cause)
    assert found is not None, [x.id for x in explained(log).findings]
    return found


def _fix_of(log: str, cause: str) -> Fix:
    """The fix of the finding of ``cause`` explain gives for ``log``."""
    found = _of(explained(log), cause)
    assert found is not None and found.fix is not None
    return found.fix


# --- the evidence: which frame is the package's -------------------------------------------------


def test_the_innermost_installed_frame_past_the_callee_is_the_package() -> None:
    (tb,) = read_tracebacks(
        "Traceback (most recent call last):\n"
        + _frames("train.py", f"{SITE}/cv2/__init__.py", f"{SITE}/numpy/__init__.py")
        + "AttributeError: module 'numpy' has no attribute 'bool'\n"
    )
    assert failing_package(tb, frozenset({"numpy"})) == PackageCode(
        "cv2", "opencv-python", f"{SITE}/cv2/__init__.py"
    )
    # The callee not set apart: its own frame is the innermost package's.
    found = failing_package(tb)
    assert found is not None and found.module == "numpy"


def test_the_users_own_code_is_never_the_package() -> None:
    (tb,) = read_tracebacks(
        "Traceback (most recent call last):\n"
        + _frames(f"{SITE}/cv2/__init__.py", "/home/u/proj/model.py", f"{SITE}/numpy/x.py")
        + "AttributeError: module 'numpy' has no attribute 'bool'\n"
    )
    assert failing_package(tb, frozenset({"numpy"})) is None


def test_standard_library_and_frozen_frames_are_passed_over() -> None:
    (tb,) = read_tracebacks(
        "Traceback (most recent call last):\n"
        + _frames(
            f"{SITE}/zzdetect/ops.py",
            "/usr/lib/python3.10/ctypes/__init__.py",
            "<frozen importlib._bootstrap>",
        )
        + "OSError: libzz.so: cannot open shared object file: No such file or directory\n"
    )
    assert failing_package(tb) == PackageCode("zzdetect", "", f"{SITE}/zzdetect/ops.py")


def test_a_cython_init_frame_names_its_extension() -> None:
    (tb,) = read_tracebacks(
        "Traceback (most recent call last):\n"
        '  File "/srv/eval.py", line 3, in <module>\n    import zzdetect._mask\n'
        '  File "zzdetect/_mask.pyx", line 1, in init zzdetect._mask\n'
        "ValueError: numpy.ndarray size changed, may indicate binary incompatibility. "
        "Expected 96 from C header, got 88 from PyObject\n"
    )
    found = failing_package(tb, frozenset({"numpy"}))
    assert found is not None and (found.module, found.dist) == ("zzdetect", "")


def test_numpys_refusal_is_read_from_the_traceback_that_shows_a_package() -> None:
    # NumPy's first words come alone, then the import's traceback with the package's frames.
    text = (
        "RuntimeError: module compiled against API version 0x10 but this version of numpy "
        "is 0xe\nTraceback (most recent call last):\n"
        + _frames("run.py", f"{SITE}/cv2/__init__.py")
        + "ImportError: numpy.core.multiarray failed to import\n"
    )
    found = numpy_refuser(read_tracebacks(text))
    assert found is not None and found.dist == "opencv-python"
    assert numpy_refuser(read_tracebacks("ImportError: no module named zz\n")) is None


def test_the_library_that_imported_keras_is_read_past_keras_and_tensorflow() -> None:
    (tb,) = read_tracebacks(
        "Traceback (most recent call last):\n"
        + _frames(
            "detect.py",
            f"{SITE}/zzdetect/factory.py",
            f"{SITE}/keras/__init__.py",
            f"{SITE}/keras/backend/tensorflow_backend.py",
            f"{SITE}/tensorflow/__init__.py",
        )
        + "AttributeError: module 'tensorflow.compat.v2' has no attribute '__internal__'\n"
    )
    found = keras_importer(tb)
    assert found is not None and found.module == "zzdetect"
    # The user's own code importing keras: no library to name.
    (own,) = read_tracebacks(
        "Traceback (most recent call last):\n"
        + _frames("detect.py", f"{SITE}/keras/__init__.py")
        + "AttributeError: module 'tensorflow.compat.v2' has no attribute '__internal__'\n"
    )
    assert keras_importer(own) is None


# --- the fixes: the package named is the one in the frames --------------------------------------


@pytest.mark.parametrize("module, named", PACKAGES.items(), ids=PACKAGES.keys())
def test_an_extension_built_for_a_newer_numpy_names_its_package(module: str, named: str) -> None:
    log = (
        "Traceback (most recent call last):\n"
        + _frames("/srv/app/eval.py", f"{SITE}/{module}/__init__.py")
        + f'  File "{module}/_ext.pyx", line 1, in init {module}._ext\n'
        "ValueError: numpy.ndarray size changed, may indicate binary incompatibility. "
        "Expected 96 from C header, got 88 from PyObject\n"
    )
    fix = _fix_of(log, "dependency-out-of-range")
    commands = "\n".join(fix.commands)
    assert named in fix.text
    # A distribution the table knows is rebuilt by name; no name is made up for another: the
    # command asks which distribution installed it.
    known = not named.startswith("the package")
    assert (f"--no-binary {named} {named}" in commands) is known
    assert (f"b'{module}/'" in commands) is not known


#: NumPy's refusal of an extension, printed above the import's traceback: the cause, and the
#: NumPy the command installs.
REFUSALS = {
    "c-api-newer-than-running": (
        "RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xe",
        "dependency-out-of-range",
        "numpy>=1.23",
    ),
    "abi-numpy-1-under-2": (
        "ImportError: module compiled against ABI version 0x1000009 but this version of numpy "
        "is 0x2000000",
        "numpy-abi",
        "numpy<2",
    ),
}
_MULTIARRAY = "ImportError: numpy.core.multiarray failed to import"


@pytest.mark.parametrize("refusal", REFUSALS.keys())
@pytest.mark.parametrize("module, named", PACKAGES.items(), ids=PACKAGES.keys())
def test_numpys_refusal_names_the_package_whose_extension_it_is(
    refusal: str, module: str, named: str
) -> None:
    line, cause, numpy = REFUSALS[refusal]
    fix = _fix_of(_import_of(module, _MULTIARRAY, f"{line}\n"), cause)
    assert named in fix.text
    # NumPy's side is the command that runs; the package's own way (a rebuild, an upgrade that
    # may move NumPy past TensorFlow's range) is in words.
    assert any(numpy in c for c in fix.commands)
    assert not any(named in c for c in fix.commands)


@pytest.mark.parametrize("refusal", REFUSALS.keys())
def test_tensorflows_own_extension_refused_by_numpy_names_no_package(refusal: str) -> None:
    line, cause, _ = REFUSALS[refusal]
    fix = _fix_of(_import_of("tensorflow", _MULTIARRAY, f"{line}\n"), cause)
    assert "belongs to" not in fix.text


@pytest.mark.parametrize("module, named", PACKAGES.items(), ids=PACKAGES.keys())
def test_numpys_import_failure_alone_names_the_package_whose_extension_it_is(
    module: str, named: str
) -> None:
    # No refusal line above the traceback: the direction is unknown, so NumPy's side stays
    # the command, and the package is named with the rebuild that holds either way, in words.
    fix = _fix_of(_import_of(module, _MULTIARRAY), "dependency-out-of-range")
    assert f"belongs to {named}" in fix.text
    known = not named.startswith("the package")
    assert (f"--no-binary {named} {named}" in fix.text) is known
    assert (f"b'{module}/'" in fix.text) is not known
    assert not any(named in c for c in fix.commands)
    assert any("numpy" in c for c in fix.commands)


def test_numpys_import_failure_in_tensorflows_own_frames_names_no_package() -> None:
    fix = _fix_of(_import_of("tensorflow", _MULTIARRAY), "dependency-out-of-range")
    assert "belongs to" not in fix.text
    # The user's own script is no package either.
    own = "Traceback (most recent call last):\n" + _frames("run.py") + _MULTIARRAY + "\n"
    assert "belongs to" not in _fix_of(own, "dependency-out-of-range").text


@pytest.mark.parametrize("module, named", PACKAGES.items(), ids=PACKAGES.keys())
def test_a_removed_numpy_name_used_by_a_package_names_that_package(module: str, named: str) -> None:
    log = (
        "Traceback (most recent call last):\n"
        + _frames("export.py", f"{SITE}/{module}/utils.py", f"{SITE}/numpy/__init__.py")
        + "AttributeError: module 'numpy' has no attribute 'object'.\n"
        "`np.object` was a deprecated alias for the builtin `object`. To avoid this error in "
        "existing code, use `object` by itself. Doing this will not modify any behavior and "
        "is safe.\n"
    )
    text = fix_text(_of_cause(log, "numpy-name-removed"))
    assert named in text
    # The upgrade names the distribution; never the import name taken for one.
    assert f"install --upgrade {module}" not in text or named == module
    assert ("pip install --upgrade" in text) is not named.startswith("the package")


def test_a_removed_numpy_name_quotes_pips_upgrade_under_an_externally_managed_python() -> None:
    log = (
        "Traceback (most recent call last):\n"
        + _frames("export.py", f"{SITE}/cv2/utils.py", f"{SITE}/numpy/__init__.py")
        + "AttributeError: module 'numpy' has no attribute 'object'.\n"
    )
    facts = f.facts(
        python=f.python(
            env_kind="system", executable="/usr/bin/python3", prefix="/usr", externally_managed=True
        ),
    )
    found = _of(explained(log, facts=facts), "numpy-name-removed")
    assert found is not None and found.fix is not None
    assert "`python3 -m venv" not in found.fix.text
    assert "-m pip install --upgrade opencv-python" in found.fix.text


@pytest.mark.parametrize(
    "module, dist",
    [("tensorflow_text", "tensorflow-text"), ("tensorflow_addons", "tensorflow-addons")],
)
@pytest.mark.parametrize("words", ["not found", "undefined symbol: _ZN10tensorflow8OpKernelD2Ev"])
def test_an_op_library_named_alone_is_the_package_that_loaded_it(
    module: str, dist: str, words: str
) -> None:
    # The loader cites the file name the package gave it; the frame above TensorFlow's
    # load_library.py is the package's own, so the library is its, not the project's.
    log = (
        "Traceback (most recent call last):\n"
        + _frames(
            "train.py",
            f"{SITE}/{module}/python/ops/zz_ops.py",
            f"{SITE}/tensorflow/python/framework/load_library.py",
        )
        + f"tensorflow.python.framework.errors_impl.NotFoundError: _zz_ops.so: {words}\n"
    ).replace(": not found", " not found")
    report = explained(log)
    assert _of(report, "custom-op-build-mismatch") is None
    found = _of(report, "companion-mismatch")
    assert found is not None and dist in fix_text(found)


def test_an_op_library_loaded_by_the_projects_own_file_stays_the_projects() -> None:
    log = (
        "Traceback (most recent call last):\n"
        + _frames("/home/u/proj/ops.py", f"{SITE}/tensorflow/python/framework/load_library.py")
        + "tensorflow.python.framework.errors_impl.NotFoundError: _zz_ops.so: undefined "
        "symbol: _ZN10tensorflow8OpKernelD2Ev\n"
    )
    assert _of(explained(log), "custom-op-build-mismatch") is not None


@pytest.mark.parametrize("module, named", PACKAGES.items(), ids=PACKAGES.keys())
def test_a_library_on_standalone_keras_is_named_beside_the_keras_fix(
    module: str, named: str
) -> None:
    log = (
        "Traceback (most recent call last):\n"
        + _frames(
            "detect.py",
            f"{SITE}/{module}/network/factory.py",
            f"{SITE}/keras/__init__.py",
            f"{SITE}/keras/backend/tensorflow_backend.py",
        )
        + "AttributeError: module 'tensorflow.compat.v2' has no attribute '__internal__'\n"
    )
    found = _of(explained(log), "keras-version")
    assert found is not None and named in fix_text(found)


def test_an_op_library_of_a_package_not_known_to_be_built_on_tensorflow_stays_a_build() -> None:
    # A package the module table does not know may have compiled its op at its own install
    # (a source install): the custom-op reading, rebuilt against the installed TensorFlow.
    log = (
        "Traceback (most recent call last):\n"
        + _frames(f"{SITE}/zzdetect/ops.py", f"{SITE}/tensorflow/python/framework/load_library.py")
        + "tensorflow.python.framework.errors_impl.NotFoundError: _zz_ops.so: undefined "
        "symbol: _ZN10tensorflow8OpKernelD2Ev\n"
    )
    assert _of(explained(log), "custom-op-build-mismatch") is not None


#: glibc's loader refusing a library an extension links (dlerror's words).
_UNOPENED = "libzzgl.so.1: cannot open shared object file: No such file or directory"


@pytest.mark.parametrize("module, named", PACKAGES.items(), ids=PACKAGES.keys())
def test_a_library_the_loader_misses_for_a_packages_import_names_that_package(
    module: str, named: str
) -> None:
    fix = _fix_of(_import_of(module, f"ImportError: {_UNOPENED}"), "native-library-unresolved")
    assert named in fix.text
    # The commands import that package and list what its own extensions miss, not TensorFlow.
    commands = "\n".join(fix.commands)
    assert f'python -c "import {module}"' in commands
    assert f"find {SITE}/{module} -name" in commands
    assert "import tensorflow" not in commands


def test_a_library_the_loader_misses_for_tensorflows_import_keeps_tensorflow() -> None:
    fix = _fix_of(
        _import_of("tensorflow", f"ImportError: {_UNOPENED}"), "native-library-unresolved"
    )
    assert any('python -c "import tensorflow"' in c for c in fix.commands)


_NP_OBJECT = (
    "AttributeError: module 'numpy' has no attribute 'object'.\n"
    "`np.object` was a deprecated alias for the builtin `object`. To avoid this error in "
    "existing code, use `object` by itself. Doing this will not modify any behavior and is "
    "safe.\n"
)
_SHOWN = (
    "$ pip show zzexport tensorflow numpy\nName: zzexport\nVersion: 1.8.4\n"
    "Summary: x\n---\nName: tensorflow\nVersion: 2.15.1\n---\nName: numpy\nVersion: 1.26.4\n"
)


def test_pip_show_blocks_are_read_for_every_distribution() -> None:
    assert read_shown_packages(_SHOWN) == {
        "zzexport": "1.8.4",
        "tensorflow": "2.15.1",
        "numpy": "1.26.4",
    }
    assert read_shown_packages("Name: x\nSummary: no version\n") == {}


def test_a_removed_numpy_name_without_frames_names_the_packages_pip_show_printed() -> None:
    fix = fix_text(_of_cause(_NP_OBJECT + _SHOWN, "numpy-name-removed"))
    assert "zzexport 1.8.4" in fix and "`pip install --upgrade zzexport`" in fix
    # NumPy and TensorFlow are not the code that uses the name.
    assert "upgrade numpy" not in fix and "upgrade tensorflow" not in fix


def test_frames_of_the_users_own_code_leave_pip_shows_packages_unnamed() -> None:
    log = "Traceback (most recent call last):\n" + _frames("/home/u/export.py") + _NP_OBJECT
    fix = fix_text(_of_cause(log + _SHOWN, "numpy-name-removed"))
    assert "zzexport" not in fix


@pytest.mark.parametrize("module, named", PACKAGES.items(), ids=PACKAGES.keys())
def test_an_undefined_symbol_in_a_library_named_alone_is_the_importing_packages(
    module: str, named: str
) -> None:
    message = f"ImportError: _{module}_ext.so: undefined symbol: _ZN2zz3fooEv"
    fix = _fix_of(_import_of(module, message), "native-library-unresolved")
    assert f"it belongs to {named}" in fix.text


@pytest.mark.parametrize("refusal", REFUSALS.keys())
def test_numpys_refusal_names_the_package_in_the_summary(refusal: str) -> None:
    line, cause, _ = REFUSALS[refusal]
    found = _of_cause(_import_of("cv2", _MULTIARRAY, f"{line}\n"), cause)
    assert found.summary.startswith("An extension of opencv-python built for NumPy")
