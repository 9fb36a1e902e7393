"""A dependency of TensorFlow at a release its code does not run with, read from what it
causes: pip's notice of a pair whose projects say it works (Keras 3 over TensorFlow 2.15,
h5py 2 under TensorFlow 2.5 and later) is a note; AutoGraph's warning naming gast's refusal is
gast outside TensorFlow's pin; a NumPy function called with a keyword NumPy removed is the
name NumPy removed. Near misses keep their own reading."""

from __future__ import annotations

import pytest

from tests import factories
from tests.explaining import explained, fix_text
from tfdoctor.facts import Facts
from tfdoctor.findings import Finding, Report, Severity


def _only(report: Report, cause: str) -> Finding:
    (found,) = [x for x in report.findings if x.cause == cause]
    return found


def _weighty(report: Report, cause: str) -> list[Finding]:
    return [
        x for x in report.findings if x.cause == cause and x.severity.rank >= Severity.WARNING.rank
    ]


# --- pip's notice of a pair its projects say works ---------------------------------------------

_HEADER = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.\n"
)
_KERAS3_OVER_215 = (
    "tensorflow 2.15.1 requires keras<2.16,>=2.15.0, but you have keras 3.1.0 which is "
    "incompatible.\n"
)
_H5PY2_UNDER_26 = (
    "tensorflow-cpu 2.6.0 requires h5py~=3.1.0, but you have h5py 2.10.0 which is incompatible.\n"
)
_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/app/train.py", line 4, in <module>\n'
    "    model = build()\n"
    "ValueError: the model could not be built\n"
)


@pytest.mark.parametrize("notice", [_KERAS3_OVER_215, _H5PY2_UNDER_26], ids=["keras3", "h5py2"])
@pytest.mark.parametrize("header", ["", _HEADER], ids=["alone", "after-header"])
def test_a_notice_of_a_pair_its_projects_say_works_is_a_note(notice: str, header: str) -> None:
    report = explained(header + notice + "Successfully installed mylib-0.4.1\n")
    assert report.findings
    assert all(x.severity.rank <= Severity.INFO.rank for x in report.findings)
    assert "nothing in the log failed" in " ".join(x.detail for x in report.findings)


@pytest.mark.parametrize(
    "notice, cited",
    [(_KERAS3_OVER_215, "Keras 3's getting-started instructions"), (_H5PY2_UNDER_26, "HDF5")],
    ids=["keras3", "h5py2"],
)
def test_a_tolerated_pair_cites_the_matrixs_source(notice: str, cited: str) -> None:
    # The matrix's tolerated_ranges, with the line's source for that package.
    detail = " ".join(x.detail for x in explained(notice).findings)
    assert cited in detail


def test_h5py_2_under_a_keras_3_line_is_not_tolerated() -> None:
    # TensorFlow 2.16 and later hand HDF5 files to Keras 3: the matrix states no tolerance.
    notice = (
        "tensorflow 2.16.1 requires h5py>=3.10.0, but you have h5py 2.10.0 which is incompatible.\n"
    )
    report = explained(notice)
    assert any(x.severity.rank >= Severity.WARNING.rank for x in report.findings if x.cause)


@pytest.mark.parametrize("notice", [_KERAS3_OVER_215, _H5PY2_UNDER_26], ids=["keras3", "h5py2"])
def test_the_same_notice_before_an_exception_keeps_its_weight(notice: str) -> None:
    report = explained(_HEADER + notice + _TRACEBACK)
    assert any(x.severity.rank >= Severity.WARNING.rank for x in report.findings if x.cause)


@pytest.mark.parametrize(
    "notice, cause",
    [
        # Keras 3 over TensorFlow 2.14: Keras' instructions pair Keras 3 with 2.15 and later.
        (
            "tensorflow 2.14.0 requires keras<2.15,>=2.14.0, but you have keras 3.0.2 which is "
            "incompatible.\n",
            "keras-version",
        ),
        # h5py 3 under TensorFlow 2.4 (its loader calls .decode): above, not below.
        (
            "tensorflow 2.4.1 requires h5py~=2.10.0, but you have h5py 3.1.0 which is "
            "incompatible.\n",
            "dependency-out-of-range",
        ),
        # h5py 2 under TensorFlow 2.4, whose range is h5py 2: none of the pairs above.
        (
            "tensorflow 2.3.0 requires h5py<2.11.0,>=2.10.0, but you have h5py 2.9.0 which is "
            "incompatible.\n",
            "dependency-out-of-range",
        ),
        # NumPy outside the range: the notice most often stands for what fails next.
        (
            "tensorflow 2.4.0 requires numpy~=1.19.2, but you have numpy 1.21.6 which is "
            "incompatible.\n",
            "dependency-out-of-range",
        ),
    ],
    ids=["keras3-over-214", "h5py3-under-24", "h5py-below-23", "numpy"],
)
def test_other_notices_keep_their_warning(notice: str, cause: str) -> None:
    assert _weighty(explained(notice), cause)


# --- AutoGraph's warning naming gast's refusal ---------------------------------------------------

_AUTOGRAPH = (
    "WARNING:tensorflow:Entity <bound method {obj}.call of <{module}.{obj} object at "
    "0x7f3a2c1d5e80>> could not be transformed and will be executed as-is. Please report this to "
    "the AutoGraph team. When filing the bug, set the verbosity to 10 (on Linux, `export "
    "AUTOGRAPH_VERBOSITY=10`) and attach the full output. Cause: converting <bound method "
    "{obj}.call of <{module}.{obj} object at 0x7f3a2c1d5e80>>: {error}\n"
)


@pytest.mark.parametrize(
    "error",
    [
        "AssertionError: Bad argument number for Name: 3, expecting 4",
        "AttributeError: module 'gast' has no attribute 'Num'",
        "AttributeError: module 'gast' has no attribute 'Index'",
    ],
    ids=["node-fields", "num-gone", "index-gone"],
)
def test_autograph_naming_gasts_refusal_is_gast_outside_tensorflows_pin(error: str) -> None:
    log = _AUTOGRAPH.format(obj="VariationalConv", module="bayeslayers.conv", error=error)
    finding = _only(explained(log), "dependency-out-of-range")
    assert finding.severity is Severity.WARNING
    assert "gast" in fix_text(finding)


def test_autograph_naming_gasts_node_check_names_each_lines_pin() -> None:
    log = _AUTOGRAPH.format(
        obj="VariationalConv",
        module="bayeslayers.conv",
        error="AssertionError: Bad argument number for Name: 3, expecting 4",
    )
    fix = fix_text(_only(explained(log), "dependency-out-of-range"))
    assert "gast==0.2.2" in fix and "pip show tensorflow gast" in fix


@pytest.mark.parametrize(
    "log",
    [
        # A method of TensorFlow's own layers, run as-is, builds the same graph.
        _AUTOGRAPH.format(
            obj="Dense",
            module="tensorflow.python.layers.core",
            error="AssertionError: Bad argument number for Name: 3, expecting 4",
        ),
        # AutoGraph's warning for another reason than gast.
        _AUTOGRAPH.format(
            obj="Block",
            module="mynet.blocks",
            error="ValueError: Unable to locate the source code of <function <lambda>>",
        ),
        # Another module without the attribute.
        _AUTOGRAPH.format(
            obj="Block",
            module="mynet.blocks",
            error="AttributeError: module 'astor' has no attribute 'Num'",
        ),
    ],
    ids=["tensorflows-own-layer", "another-cause", "another-module"],
)
def test_autograph_warnings_without_gasts_refusal_are_not_gast(log: str) -> None:
    assert not _weighty(explained(log), "dependency-out-of-range")


# --- a keyword NumPy removed ---------------------------------------------------------------------


def _reshape_traceback(code: str, message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/tests/test_video.py", line 12, in test_video\n'
        "    writer.add_clip(frames)\n"
        '  File "/srv/.venv/lib/python3.12/site-packages/tensorboardX/utils.py", line 63, in '
        "_prepare_video\n"
        f"    {code}\n"
        f"TypeError: {message}\n"
    )


def test_a_numpy_function_called_with_a_removed_keyword_is_that_name_removed() -> None:
    log = _reshape_traceback(
        "V = np.reshape(V, newshape=(rows, cols, t, c, h, w))",
        "reshape() got an unexpected keyword argument 'newshape'",
    )
    finding = _only(explained(log), "numpy-name-removed")
    assert finding.severity is Severity.ERROR
    assert finding.summary.startswith("tensorboardX calls np.reshape with newshape=")
    assert 'numpy<2.4"' in fix_text(finding)


@pytest.mark.parametrize(
    "code, message",
    [
        # torch's reshape says the same words: not NumPy's.
        (
            "x = torch.reshape(x, newshape=(2, 3))",
            "reshape() got an unexpected keyword argument 'newshape'",
        ),
        # Another keyword NumPy never removed.
        (
            "V = np.reshape(V, shape_out=(2, 3))",
            "reshape() got an unexpected keyword argument 'shape_out'",
        ),
    ],
    ids=["torch", "another-keyword"],
)
def test_other_unexpected_keywords_are_not_numpys_removal(code: str, message: str) -> None:
    report = explained(_reshape_traceback(code, message))
    assert not [x for x in report.findings if x.cause == "numpy-name-removed"]


def test_the_users_own_call_with_a_removed_keyword_is_told_to_drop_it() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/prep.py", line 9, in <module>\n'
        "    grid = np.reshape(values, newshape=(4, 4))\n"
        "TypeError: reshape() got an unexpected keyword argument 'newshape'\n"
    )
    finding = _only(explained(log), "numpy-name-removed")
    fix = fix_text(finding)
    assert "In the code" in fix and "newshape=" in fix and 'numpy<2.4"' in fix


# --- TensorFlow's cap on typing-extensions under another package ---------------------------------


def _typing_import(path: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 1, in <module>\n'
        "    import service\n"
        f'  File "{path}", line 6, in <module>\n'
        "    from typing_extensions import Annotated, Doc\n"
        "ImportError: cannot import name 'Doc' from 'typing_extensions' "
        "(/srv/.venv/lib/python3.10/site-packages/typing_extensions.py)\n"
    )


def test_another_package_missing_a_typing_extensions_name_is_tensorflows_cap() -> None:
    log = _typing_import("/srv/.venv/lib/python3.10/site-packages/fastapi/exceptions.py")
    finding = _only(explained(log), "tf-pin-conflicts-with-package")
    assert finding.severity is Severity.ERROR
    assert finding.summary.startswith("fastapi needs a newer typing-extensions")
    # Not every release before 2.14 caps it (2.11.1 declares typing-extensions>=3.6.6).
    assert "TensorFlow before 2.14 caps" not in finding.summary
    assert "some releases before 2.14" in finding.detail
    fix = fix_text(finding)
    assert 'install --upgrade "tensorflow>=2.14" "typing-extensions"' in fix
    assert "pip check" in fix


@pytest.mark.parametrize(
    "path",
    [
        # The user's own code: not another package's need.
        "/srv/app/service.py",
        # TensorFlow's own file: its range is what it runs with.
        "/srv/.venv/lib/python3.10/site-packages/tensorflow/python/types/trace.py",
    ],
    ids=["own-code", "tensorflow"],
)
def test_a_typing_extensions_name_missing_elsewhere_is_not_tensorflows_cap(path: str) -> None:
    report = explained(_typing_import(path))
    assert not [x for x in report.findings if x.cause == "tf-pin-conflicts-with-package"]


def test_another_dependency_missing_a_name_is_not_tensorflows_cap() -> None:
    log = _typing_import("/srv/.venv/lib/python3.10/site-packages/fastapi/exceptions.py").replace(
        "typing_extensions", "ml_dtypes"
    )
    report = explained(log)
    assert not [x for x in report.findings if x.cause == "tf-pin-conflicts-with-package"]


def _with_tensorflow_requiring(spec: str) -> Facts:
    tf = factories.pkg("tensorflow", "2.15.1", f"typing-extensions{spec}")
    return factories.facts(packages=(tf, factories.pkg("typing-extensions", "4.5.0")))


def test_the_installed_tensorflows_cap_is_named_in_the_fix() -> None:
    log = _typing_import("/srv/.venv/lib/python3.10/site-packages/fastapi/exceptions.py")
    report = explained(log, _with_tensorflow_requiring("<4.6.0,>=3.6.6"))
    assert "typing-extensions<4.6.0,>=3.6.6" in fix_text(
        _only(report, "tf-pin-conflicts-with-package")
    )


def test_an_installed_tensorflow_without_a_cap_is_not_what_holds_it_back() -> None:
    log = _typing_import("/srv/.venv/lib/python3.10/site-packages/fastapi/exceptions.py")
    report = explained(log, _with_tensorflow_requiring(">=3.6.6"))
    assert not [x for x in report.findings if x.cause == "tf-pin-conflicts-with-package"]


def test_a_tensorflow_of_a_line_without_the_cap_is_not_what_holds_it_back() -> None:
    # The log shows a TensorFlow of 2.14 or later, whose metadata is not at hand: no cap.
    log = _typing_import("/srv/.venv/lib/python3.10/site-packages/fastapi/exceptions.py")
    report = explained(f"{log}Successfully installed tensorflow-2.16.1\n")
    assert not [x for x in report.findings if x.cause == "tf-pin-conflicts-with-package"]


# --- numba and the llvmlite it was made for -------------------------------------------------------

_NUMBA_NOTICE = (
    "ERROR: numba 0.56.4 has requirement llvmlite<0.40,>=0.39.0dev0, but you'll have llvmlite "
    "0.36.0 which is incompatible.\n"
)


def test_pips_notice_of_numbas_llvmlite_is_the_pair_apart() -> None:
    finding = _only(explained(_NUMBA_NOTICE), "numba-llvmlite-mismatch")
    assert finding.severity is Severity.WARNING
    assert 'pip install "llvmlite<0.40,>=0.39.0dev0"' in fix_text(finding)


def test_numbas_own_refusal_at_import_is_the_pair_apart() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/sep.py", line 1, in <module>\n'
        "    import librosa\n"
        "ImportError: Numba requires at least version 0.39.0 of llvmlite.\n"
        "Installed version is 0.36.0.\n"
    )
    finding = _only(explained(log), "numba-llvmlite-mismatch")
    assert finding.severity is Severity.ERROR
    assert 'install --upgrade "numba" "llvmlite"' in fix_text(finding)


@pytest.mark.parametrize(
    "log",
    [
        # Another package's range on llvmlite: a pair that may well work, a note.
        "ERROR: pynndescent 0.5.8 has requirement llvmlite>=0.30, but you'll have llvmlite "
        "0.29.0 which is incompatible.\n",
        # numba's range on NumPy: numba's pin on NumPy, not on llvmlite.
        "numba 0.56.4 requires numpy<1.24,>=1.18, but you have numpy 1.24.3 which is "
        "incompatible.\n",
        # numba's own LLVM check names LLVM, not llvmlite.
        "ImportError: Numba requires at least version 11.0.0 of LLVM.\n",
    ],
    ids=["another-requirer", "numbas-numpy", "llvm"],
)
def test_other_numba_and_llvmlite_words_are_not_the_pair(log: str) -> None:
    assert not [x for x in explained(log).findings if x.cause == "numba-llvmlite-mismatch"]
