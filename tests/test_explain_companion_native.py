"""Native libraries of companions and of other packages: a companion's own library missing a
symbol of the TensorFlow build it was made for (abseil's LTS namespace dates it), Windows
refusing another package's extension module, and pip's notice of any two packages out of
range."""

from __future__ import annotations

import re

import pytest

from tests import factories as f
from tests.explaining import SIGNATURES, explained, fix_text, top_error
from tfdoctor.causes.software import absl_lts_lines, tf_build_symbol
from tfdoctor.evidence.packages import PLUGINS
from tfdoctor.findings import Severity
from tfdoctor.modules import modules

# --- a companion's library built for another TensorFlow ----------------------------------------


def _reverb_import(symbol: str) -> str:
    site = "/opt/venv/lib/python3.8/site-packages"
    return (
        "Traceback (most recent call last):\n"
        '  File "learner.py", line 2, in <module>\n'
        "    import reverb\n"
        f'  File "{site}/reverb/pybind.py", line 1, in <module>\n'
        "    import tensorflow as _tf; from .libpybind import *; del _tf\n"
        f"ImportError: {site}/reverb/libpybind.so: undefined symbol: {symbol}\n"
    )


def test_an_abseil_lts_symbol_dates_the_tensorflow_the_companion_was_built_for() -> None:
    report = explained(_reverb_import("_ZN4absl14lts_2020_02_2513base_internal8SpinLock4LockEv"))
    top = top_error(report)
    assert top.cause == "companion-mismatch"
    text = fix_text(top)
    assert "dm-reverb" in text and "2.4" in text and "lts_2020_02_25" in text
    assert 'pip install "tensorflow>=2.3,<2.5"' in text
    assert all(f.cause != "native-library-unresolved" for f in report.findings)


def test_a_protobuf_symbol_in_a_companion_is_the_companion_too() -> None:
    top = top_error(explained(_reverb_import("_ZN6google8protobuf7Message8CopyFromERKS1_")))
    assert top.cause == "companion-mismatch" and "dm-reverb" in fix_text(top)


def test_a_tensorflow_symbol_names_the_companion_by_its_package() -> None:
    top = top_error(explained(_reverb_import("_ZN10tensorflow6Tensor12CheckTypeEv")))
    assert top.cause == "companion-mismatch" and "dm-reverb" in fix_text(top)


def test_an_abseil_symbol_of_a_package_not_built_on_tensorflow_is_not_a_companion() -> None:
    text = (
        "ImportError: /opt/venv/lib/python3.10/site-packages/grpc/_cython/cygrpc.so: "
        "undefined symbol: _ZN4absl12lts_2023080212log_internal10LogMessageD1Ev\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"


def test_a_c_symbol_in_a_companion_is_left_to_the_loader_reading() -> None:
    text = (
        "ImportError: /opt/venv/lib/python3.8/site-packages/reverb/libpybind.so: "
        "undefined symbol: PyUnicode_AsUTF8\n"
    )
    assert top_error(explained(text)).cause == "native-library-unresolved"


@pytest.mark.parametrize(
    ("line", "tool"),
    [
        (
            "ImportError: /opt/venv/lib/python3.8/site-packages/reverb/libpybind.so: "
            "undefined symbol: PyUnicode_AsUTF8",
            "ldd",
        ),
        (
            "ImportError: dlopen(/Users/u/venv/lib/python3.8/site-packages/grpc/_cython/"
            "cygrpc.cpython-38-darwin.so, 2): Symbol not found: _PyCMethod_New",
            "otool -L",
        ),
    ],
    ids=["glibc", "dyld"],
)
def test_a_python_c_api_symbol_missing_is_an_extension_for_another_python(
    line: str, tool: str
) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "Python's C API" in fix and "another Python release" in fix and tool in fix


def test_dylds_missing_symbol_of_another_library_names_otool() -> None:
    line = (
        "ImportError: dlopen(/Users/u/venv/lib/python3.9/site-packages/h5py/defs.cpython-39-"
        "darwin.so, 0x0002): symbol not found in flat namespace '_H5Pset_fapl_ros3'"
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == "native-library-unresolved"
    assert "_H5Pset_fapl_ros3" in fix_text(top) and "Python's C API" not in fix_text(top)


def _op_library_refusal(library: str, symbol: str) -> str:
    """tf.load_op_library refusing ``library`` for want of ``symbol``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 2, in <module>\n'
        "    ops = tf.load_op_library(path)\n"
        '  File "/opt/venv/lib/python3.10/site-packages/tensorflow/python/framework/'
        'load_library.py", line 54, in load_op_library\n'
        "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: "
        f"{library}: undefined symbol: {symbol}\n"
    )


@pytest.mark.parametrize(
    ("library", "symbol", "cause", "says"),
    [
        pytest.param(
            "/opt/venv/lib/python3.10/site-packages/horovod/tensorflow/"
            "mpi_lib.cpython-310-x86_64-linux-gnu.so",
            "_ZN4absl12lts_2023012512log_internal9LogMessagelsEi",
            "companion-mismatch",
            "HOROVOD_WITH_TENSORFLOW=1",
            id="package-abseil",
        ),
        pytest.param(
            "/home/u/ops/build/_sampling_ops.so",
            "_ZN6google8protobuf8internal26fixed_address_empty_stringB5cxx11E",
            "custom-op-build-mismatch",
            "get_compile_flags",
            id="own-op-protobuf",
        ),
    ],
)
def test_an_op_library_missing_tensorflows_bundled_abseil_or_protobuf(
    library: str, symbol: str, cause: str, says: str
) -> None:
    # TensorFlow links abseil and protobuf into itself: an op library compiled against another
    # TensorFlow's headers asks for their symbols of that release.
    top = top_error(explained(_op_library_refusal(library, symbol)))
    assert top.cause == cause
    assert says in fix_text(top)


def test_an_abseil_symbol_outside_tensorflows_loader_is_not_read_as_an_op_library() -> None:
    text = (
        "ImportError: /opt/venv/lib/python3.10/site-packages/grpc/_cython/cygrpc.so: "
        "undefined symbol: _ZN4absl12lts_2023012512log_internal9LogMessagelsEi\n"
    )
    # Only tf.load_op_library raises NotFoundError: grpc's extension is not an op library.
    assert SIGNATURES.by_id("op-library-undefined-bundled-symbol").pattern.search(text) is None
    assert "companion-mismatch" not in {x.cause for x in explained(text).findings}


def _deepmd_refusal(message: str) -> str:
    """DeePMD-kit's loader (deepmd/tf/env.py get_module) raising its own words over the
    NotFoundError of tf.load_op_library."""
    site = "/opt/conda/lib/python3.10/site-packages"
    return (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/bin/dp", line 10, in <module>\n'
        "    sys.exit(main())\n"
        f'  File "{site}/deepmd/tf/env.py", line 401, in get_module\n'
        "    raise RuntimeError(\n"
        f"RuntimeError: {message}\n"
    )


@pytest.mark.parametrize(
    ("message", "says"),
    [
        pytest.param(
            "The version of TensorFlow used to compile this deepmd-kit package is 2.9.0, but "
            "the version of TensorFlow runtime you are using is 2.15.0. These two versions are "
            "incompatible and thus an error is raised when loading deepmd_op. You need to "
            "install TensorFlow 2.9.0, or rebuild deepmd-kit against TensorFlow 2.15.0.",
            ("compiled against TensorFlow 2.9.0", "TensorFlow 2.15.0 runs here"),
            id="release",
        ),
        pytest.param(
            "This deepmd-kit package was compiled with CXX11_ABI_FLAG=1, but TensorFlow "
            "runtime was compiled with CXX11_ABI_FLAG=0. These two library ABIs are "
            "incompatible and thus an error is raised when loading deepmd_op. You need to "
            "rebuild deepmd-kit against this TensorFlow runtime.",
            ("_GLIBCXX_USE_CXX11_ABI=1",),
            id="abi",
        ),
        pytest.param(
            "This deepmd-kit package is inconsitent with TensorFlow Runtime, thus an error is "
            "raised when loading op_grads. You need to rebuild deepmd-kit against this "
            "TensorFlow runtime.",
            ("another TensorFlow build",),
            id="inconsistent",
        ),
    ],
)
def test_deepmds_own_words_on_its_ops_rebuild_it_against_this_tensorflow(
    message: str, says: tuple[str, ...]
) -> None:
    top = top_error(explained(_deepmd_refusal(message)))
    assert top.cause == "companion-mismatch"
    assert top.fix is not None
    text = fix_text(top)
    assert all(s in text for s in says), text
    # Built from source against the TensorFlow in place, never replacing it.
    assert any("--no-binary deepmd-kit" in c and "--no-deps" in c for c in top.fix.commands)


def test_deepmds_rebuild_keeps_the_installed_release() -> None:
    text = _deepmd_refusal(
        "This deepmd-kit package is inconsitent with TensorFlow Runtime, thus an error is "
        "raised when loading deepmd_op."
    )
    facts = f.facts(packages=f.packages(f.pkg("deepmd-kit", "2.2.10")))
    top = top_error(explained(text, facts))
    assert top.fix is not None
    assert any("deepmd-kit==2.2.10" in c for c in top.fix.commands), top.fix.commands


def test_abseil_namespaces_and_the_lines_they_date() -> None:
    assert absl_lts_lines("_ZN4absl14lts_2020_09_234Cord7PrependEv") == ("2020_09_23", ("2.5",))
    assert absl_lts_lines("_ZN4absl12lts_202308024CordD1Ev") == ("20230802", ())
    assert absl_lts_lines("_ZN10tensorflow6TensorD1Ev") == ("", ())
    assert tf_build_symbol("_ZNK6google8protobuf7Message11GetTypeNameEv")
    assert not tf_build_symbol("_ZN4cv2x3MatD1Ev")


# --- Windows refusing another package's extension ----------------------------------------------


def test_mpi4py_refused_on_windows_needs_microsoft_mpi_not_tensorflows_runtime() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\work\\agents\\run_ppo.py", line 7, in <module>\n'
        "    from mpi4py import MPI\n"
        "ImportError: DLL load failed: The specified module could not be found.\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "native-library-unresolved"
    assert "Microsoft MPI" in fix_text(top) and "where.exe msmpi.dll" in fix_text(top)
    assert all(f.cause != "msvc-runtime-missing" for f in report.findings)


def test_python_names_the_extension_and_the_procedure_is_missing() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\me\\lab\\viz.py", line 2, in <module>\n'
        "    import cv2\n"
        '  File "C:\\Python39\\lib\\site-packages\\cv2\\__init__.py", line 8, in <module>\n'
        "    from .cv2 import *\n"
        "ImportError: DLL load failed while importing cv2: The specified procedure could not "
        "be found.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    assert "pip uninstall -y opencv-python" in fix_text(top)
    assert "Visual C++" not in fix_text(top)


def test_a_package_opening_its_own_dll_through_ctypes_is_that_packages() -> None:
    site = "C:\\Users\\me\\Anaconda3\\lib"
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\work\\train.py", line 3, in <module>\n'
        "    import lightgbm\n"
        f'  File "{site}\\site-packages\\lightgbm\\basic.py", line 33, in <module>\n'
        "    _LIB = _load_lib()\n"
        f'  File "{site}\\ctypes\\__init__.py", line 348, in __init__\n'
        "    self._handle = _dlopen(self._name, mode)\n"
        "OSError: [WinError 126] The specified module could not be found\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "native-library-unresolved" and "lightgbm" in fix_text(top)
    assert all(f.cause != "msvc-runtime-missing" for f in report.findings)


def test_tensorflows_own_module_unfound_keeps_its_runtime_fix() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\env\\lib\\site-packages\\tensorflow\\python\\platform\\'
        'self_check.py", line 50, in preload_check\n'
        "    ctypes.WinDLL(build_info.msvcp_dll_name)\n"
        '  File "C:\\Python38\\lib\\ctypes\\__init__.py", line 373, in __init__\n'
        "    self._handle = _dlopen(self._name, mode)\n"
        "OSError: [WinError 126] The specified module could not be found\n"
    )
    assert top_error(explained(text)).cause == "msvc-runtime-missing"


def test_tensorflows_own_dll_keeps_its_runtime_fix() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\work\\train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: DLL load failed: The specified module could not be found.\n"
    )
    assert top_error(explained(text)).cause == "msvc-runtime-missing"
    named = (
        "ImportError: DLL load failed while importing _pywrap_tensorflow_internal: "
        "The specified module could not be found.\n"
    )
    top = top_error(explained(named))
    assert top.cause == "msvc-runtime-missing"
    # Microsoft's permalink to the newest runtime, whose msvcp140_1.dll 2.1 and later need.
    assert "https://aka.ms/vs/17/release/vc_redist.x64.exe" in fix_text(top)


def test_a_procedure_missing_with_no_package_shown_gives_no_package() -> None:
    text = "ImportError: DLL load failed: The specified procedure could not be found.\n"
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    assert "MPI" not in fix_text(top)


def test_tensorflows_own_procedure_missing_is_its_runtime_not_another_extension() -> None:
    # TensorFlow's own _pywrap module refused (ERROR_PROC_NOT_FOUND): its runtime's reading,
    # never "another package's extension".
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\user\\Anaconda3\\lib\\site-packages\\tensorflow\\python\\'
        'pywrap_tensorflow.py", line 58, in <module>\n'
        "    from tensorflow.python.pywrap_tensorflow_internal import *\n"
        "ImportError: DLL load failed: The specified procedure could not be found.\n"
        "\nFailed to load the native TensorFlow runtime.\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "msvc-runtime-missing" and "Visual C++" in fix_text(top)
    assert all("not TensorFlow's" not in fix_text(f) for f in report.findings if f.fix)
    assert all("LD_DEBUG" not in fix_text(f) for f in report.findings if f.fix)


def test_tensorflows_runtime_failing_on_windows_gets_windows_tools() -> None:
    # A reason none of the Windows readings names: Windows has neither LD_DEBUG nor ldd.
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Python37\\lib\\site-packages\\tensorflow\\python\\'
        'pywrap_tensorflow.py", line 58, in <module>\n'
        "    from tensorflow.python.pywrap_tensorflow_internal import *\n"
        "ImportError: DLL load failed: The operating system cannot run %1.\n"
        "\nFailed to load the native TensorFlow runtime.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "where.exe msvcp140.dll" in fix and "LD_DEBUG" not in fix and "ldd " not in fix


def _text_import(message: str) -> str:
    """tensorflow-text's import refused by Windows after TensorFlow itself loaded."""
    return (
        "Traceback (most recent call last):\n"
        '  File "C:\\work\\nlp\\tokenize.py", line 3, in <module>\n'
        "    import tensorflow_text as tf_text\n"
        '  File "C:\\Users\\user\\venv\\lib\\site-packages\\tensorflow_text\\python\\ops\\'
        'fast_wordpiece_tokenizer.py", line 24, in <module>\n'
        "    from tensorflow_text.core.pybinds import "
        "pywrap_fast_wordpiece_tokenizer_model_builder\n"
        f"ImportError: DLL load failed while importing {message}\n"
    )


def test_a_companions_own_pywrap_extension_refused_is_the_companion_not_the_runtime() -> None:
    # tensorflow-text names its extensions _pywrap_* as TensorFlow does: the frame decides.
    report = explained(
        _text_import(
            "_pywrap_fast_wordpiece_tokenizer_model_builder: The specified module could not "
            "be found."
        )
    )
    top = top_error(report)
    assert top.cause == "companion-mismatch"
    assert "tensorflow-text" in fix_text(top) and "Visual C++" not in fix_text(top)
    # Not TensorFlow's own module: no CUDA DLL of a GPU build up to 2.0 either.
    serious = [f.cause for f in report.findings if f.severity.rank >= Severity.WARNING.rank]
    assert serious == ["companion-mismatch"]


def test_a_companions_extension_with_the_reason_cut_is_the_companion_too() -> None:
    text = (
        "ImportError                               Traceback (most recent call last)\n"
        "~\\AppData\\Local\\Temp\\ipykernel_5120\\2871.py in <module>\n"
        "----> 1 import tensorflow_text\n\n"
        "C:\\ProgramData\\Anaconda3\\lib\\site-packages\\tensorflow_text\\__init__.py in <module>\n"
        "     19 # pylint: disable=wildcard-import\n"
        "---> 20 from tensorflow_text.core.pybinds import tflite_registrar\n\n"
        "ImportError: DLL load failed while importing tflite_registrar: \n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch" and "tensorflow-text" in fix_text(top)


@pytest.mark.parametrize(
    ("text", "dist"),
    [
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "C:\\Python310\\lib\\site-packages\\cv2\\__init__.py", line 8, in <module>\n'
            "    from .cv2 import *\n"
            "ImportError: DLL load failed while importing cv2:\n",
            "opencv-python",
            id="reason-cut",
        ),
        # Cython's frame of a module being initialised lies outside site-packages; it names it.
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "C:\\Users\\user\\miniconda3\\envs\\tf\\lib\\site-packages\\h5py\\'
            '__init__.py", line 25, in <module>\n'
            "    from . import _errors\n"
            '  File "h5py\\_errors.pyx", line 1, in init h5py._errors\n'
            "ImportError: DLL load failed while importing defs: The specified procedure could "
            "not be found.\n",
            "h5py",
            id="cython-frame",
        ),
        # NumPy raises its own ImportError and puts Windows' refusal below its words.
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "D:\\tools\\py38\\lib\\site-packages\\numpy\\core\\__init__.py", '
            "line 50, in <module>\n"
            "    raise ImportError(msg)\n"
            "ImportError:\n\n"
            "IMPORTANT: PLEASE READ THIS FOR ADVICE ON HOW TO SOLVE THIS ISSUE!\n\n"
            "Importing the numpy C-extensions failed. This error can happen for\n"
            "many reasons, often due to issues with your setup or how NumPy was\n"
            "installed.\n\n"
            "Original error was: DLL load failed while importing _multiarray_umath: The "
            "specified module could not be found.\n",
            "numpy",
            id="reworded",
        ),
    ],
)
def test_another_packages_refused_extension_names_the_package(text: str, dist: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    assert f"pip uninstall -y {dist}" in fix_text(top) and "Visual C++" not in fix_text(top)


def test_a_dll_of_another_word_size_is_not_a_missing_runtime() -> None:
    # ERROR_BAD_EXE_FORMAT (193): a file of another machine type, in any language.
    for reason in (
        "%1 is not a valid Win32 application.",
        "%1 ist keine zulässige Win32-Anwendung.",
    ):
        text = (
            "Traceback (most recent call last):\n"
            '  File "C:\\Python38\\lib\\site-packages\\tensorflow\\python\\'
            'pywrap_tensorflow.py", line 64, in <module>\n'
            "    from tensorflow.python._pywrap_tensorflow_internal import *\n"
            f"ImportError: DLL load failed while importing _pywrap_tensorflow_internal: {reason}\n"
            "\nFailed to load the native TensorFlow runtime.\n"
        )
        report = explained(text)
        top = top_error(report)
        assert top.cause == "native-library-unresolved", reason
        fix = fix_text(top)
        assert "struct.calcsize('P')" in fix and "where.exe msvcp140.dll" in fix
        assert "tensorflow" in fix and "LD_DEBUG" not in fix
        assert all(f.cause != "cpu-lacks-avx" for f in report.findings)


def test_a_companions_extension_of_another_word_size_reinstalls_the_companion() -> None:
    top = top_error(
        explained(_text_import("tflite_registrar: %1 is not a valid Win32 application."))
    )
    assert top.cause == "native-library-unresolved"
    assert "--no-deps tensorflow-text" in fix_text(top)


def test_pythons_named_refusal_rules_out_a_gpu_build_up_to_2_0() -> None:
    # Python 3.8 names the module it refused; no TensorFlow up to 2.0 (whose GPU builds link
    # the CUDA DLLs at import) has a Windows wheel for it.
    named = (
        "ImportError: DLL load failed while importing _pywrap_tensorflow_internal: The "
        "specified module could not be found.\n"
    )
    report = explained(named)
    assert top_error(report).cause == "msvc-runtime-missing"
    assert all(f.cause != "cuda-libs-missing" for f in report.findings)
    # Python 3.7's words name no module: a GPU build of 1.x stays the other candidate.
    old = explained("ImportError: DLL load failed: The specified module could not be found.\n")
    assert any(f.cause == "cuda-libs-missing" for f in old.findings)
    # So does a Python 3.9 path beside the older words.
    shown = explained(
        "Traceback (most recent call last):\n"
        '  File "C:\\Python39\\lib\\site-packages\\tensorflow\\python\\'
        'pywrap_tensorflow.py", line 64, in <module>\n'
        "    from tensorflow.python.pywrap_tensorflow_internal import *\n"
        "ImportError: DLL load failed: The specified module could not be found.\n"
    )
    assert all(f.cause != "cuda-libs-missing" for f in shown.findings)


# --- pip's notice of any pair out of range ----------------------------------------------------


def test_the_legacy_resolvers_notice_of_two_packages_out_of_range() -> None:
    text = (
        "ERROR: pandas 1.3.0 has requirement numpy>=1.17.3, but you'll have "
        "numpy 1.16.6 which is incompatible.\n"
    )
    report = explained(text)
    found = [f for f in report.findings if f.cause == "dependency-out-of-range"]
    # pip prints the notice after installs that then run: alone, it is a note with its fix.
    assert found and found[0].severity.name == "INFO"
    assert 'pip install "numpy>=1.17.3"' in fix_text(found[0])


def test_the_legacy_resolvers_notice_of_numbas_llvmlite_is_numbas_pair() -> None:
    # numba refuses an llvmlite outside its range as it imports: not a note (numba's
    # __init__.py, _ensure_llvm).
    text = (
        "ERROR: numba 0.54.1 has requirement llvmlite<0.38,>=0.37.0rc1, but you'll have "
        "llvmlite 0.35.0 which is incompatible.\n"
    )
    found = [f for f in explained(text).findings if f.cause == "numba-llvmlite-mismatch"]
    assert found and found[0].severity.name == "WARNING"
    assert 'pip install "llvmlite<0.38,>=0.37.0rc1"' in fix_text(found[0])


def test_the_new_resolvers_notice_with_the_pairs_traceback() -> None:
    text = (
        "ERROR: pip's dependency resolver does not currently take into account all the "
        "packages that are installed.\n"
        "pandas 2.1.0 requires numpy>=1.22.4, but you have numpy 1.21.6 which is incompatible.\n"
        "Traceback (most recent call last):\n"
        '  File "prep.py", line 1, in <module>\n'
        "    import pandas\n"
        '  File "/srv/env/lib/python3.10/site-packages/pandas/__init__.py", line 22, in <module>\n'
        "    from pandas.compat import is_numpy_dev\n"
        "ImportError: Unable to import required dependencies\n"
    )
    found = [f for f in explained(text).findings if f.cause == "dependency-out-of-range"]
    assert found and 'pip install "numpy>=1.22.4"' in fix_text(found[0])
    assert found[0].severity.name == "WARNING"


def test_a_pairs_notice_beside_another_packages_failure_is_not_blamed() -> None:
    text = (
        "pandas 2.1.0 requires numpy>=1.22.4, but you have numpy 1.21.6 which is incompatible.\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.10/site-packages/requests/api.py", line 59, in request\n'
        "    return session.request(method=method, url=url, **kwargs)\n"
        "ConnectionError: HTTPSConnectionPool(host='example.org', port=443)\n"
    )
    assert all(f.cause != "dependency-out-of-range" for f in explained(text).findings)


def test_a_requirement_that_is_met_is_no_finding() -> None:
    text = (
        "numba 0.56.4 requires llvmlite<0.40,>=0.39.0dev0, but you have llvmlite 0.39.1 "
        "which is incompatible.\n"
    )
    assert all(f.cause != "dependency-out-of-range" for f in explained(text).findings)


def test_a_module_linking_another_pythons_dll_is_reinstalled_for_this_python() -> None:
    # Python on Windows reads the pythonXY.dll a module links (Python/dynload_win.c).
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Python37\\lib\\site-packages\\tensorflow\\python\\'
        'pywrap_tensorflow_internal.py", line 18, in swig_import_helper\n'
        "    return importlib.import_module(mname)\n"
        "ImportError: Module use of python36.dll conflicts with this version of Python.\n"
        ">>> tf.__version__\n"
        "'1.14.0'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "wheel-mismatch"
    fix = fix_text(top)
    assert "Python 3.6" in fix and "(3.7)" in fix
    assert "--no-deps --no-cache-dir tensorflow==1.14.0" in fix
    other = (
        "Traceback (most recent call last):\n"
        '  File "C:\\work\\app.py", line 2, in <module>\n'
        "    import cv2\n"
        "ImportError: Module use of python27.dll conflicts with this version of Python.\n"
    )
    assert "opencv-python" in fix_text(top_error(explained(other)))


def test_a_windows_refusal_of_an_unknown_packages_module_guesses_no_distribution() -> None:
    # zzdetect is in no module table: its import name is never taken for a PyPI name.
    frames = (
        "Traceback (most recent call last):\n"
        '  File "C:\\work\\app.py", line 2, in <module>\n'
        "    import zzdetect\n"
        '  File "C:\\Python37\\lib\\site-packages\\zzdetect\\__init__.py", line 3, in '
        "<module>\n"
        "    from zzdetect._core import run\n"
    )
    for message in (
        "ImportError: Module use of python36.dll conflicts with this version of Python.\n",
        "ImportError: DLL load failed while importing _core: %1 is not a valid Win32 "
        "application.\n",
        "ImportError: DLL load failed while importing _core: The specified module could not "
        "be found.\n",
    ):
        fix = top_error(explained(frames + message)).fix
        assert fix is not None
        # An installer's command naming it, not the owner look-up (which reads RECORD and
        # installed-files.txt lists for the folder).
        assert not any(re.search(r"\binstall\b", c) and "zzdetect" in c for c in fix.commands), (
            fix.commands
        )
        assert "the package that provides `zzdetect`" in fix.text
        assert any("zzdetect/" in c for c in fix.commands)


def test_a_companions_own_library_refused_on_windows_is_not_tensorflows_runtime() -> None:
    # tensorflow-io's loader lists Windows' reason for its own library in a "caused by" list.
    text = (
        '  File "C:\\Users\\user\\venv\\lib\\site-packages\\tensorflow_io\\python\\ops\\'
        '__init__.py", line 88, in _load_library\n'
        "NotImplementedError: unable to open file: libtensorflow_io.so, from paths: "
        "['C:\\\\Users\\\\user\\\\venv\\\\lib\\\\site-packages\\\\tensorflow_io\\\\python\\\\ops"
        "\\\\libtensorflow_io.so']\n"
        "caused by: [\"[WinError 126] The specified module could not be found: 'C:\\\\Users\\\\"
        "user\\\\venv\\\\lib\\\\site-packages\\\\tensorflow_io\\\\python\\\\ops\\\\"
        "libtensorflow_io.so'\"]\n"
    )
    report = explained(text)
    assert top_error(report).cause == "companion-mismatch"
    assert all(x.cause != "msvc-runtime-missing" for x in report.findings)


def test_tensorflows_own_module_under_a_package_that_imports_it_stays_tensorflows() -> None:
    # The traceback is cut to the user's import of a library built on TensorFlow.
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\work\\pose\\track.py", line 1, in <module>\n'
        "    import deeplabcut\n"
        "ImportError: DLL load failed while importing _pywrap_tensorflow_internal: The "
        "specified module could not be found.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "msvc-runtime-missing" and "deeplabcut" not in fix_text(top)


@pytest.mark.parametrize(
    "library",
    ["_text_similarity_metric_ops.so", "_regex_split_ops.so", "_mst_ops.so"],
)
def test_an_op_library_named_alone_names_the_add_on_that_ships_it(library: str) -> None:
    # Windows' loader cites the file name the add-on asked for: tensorflow-text's own names.
    log = f"tensorflow.python.framework.errors_impl.NotFoundError: {library} not found\n"
    top = top_error(explained(log))
    assert top.cause == "companion-mismatch"
    assert "tensorflow-text" in fix_text(top)


def test_an_op_library_no_add_on_lists_names_no_add_on() -> None:
    log = "tensorflow.python.framework.errors_impl.NotFoundError: _my_project_ops.so not found\n"
    assert "tensorflow-text" not in fix_text(top_error(explained(log)))


def test_an_op_library_at_a_path_of_its_own_is_not_the_add_ons() -> None:
    # A project's own build whose file is named like one of tensorflow-text's: the path,
    # outside any installed add-on, says it is the project's.
    log = (
        "tensorflow.python.framework.errors_impl.NotFoundError: "
        "/home/u/proj/build/_normalize_ops.so: undefined symbol: "
        "_ZN10tensorflow8OpKernel11TraceStringB5cxx11ERKNS_15OpKernelContextEb\n"
    )
    top = top_error(explained(log))
    assert top.cause == "custom-op-build-mismatch"
    assert "tensorflow-text" not in fix_text(top)


# --- a companion named from the path of its library ---------------------------------------------


def _companions_but_plugins() -> list[str]:
    """The companion table's distributions but the PluggableDevice plug-ins, whose library
    lies in tensorflow-plugins/ rather than in an import package of theirs."""
    plugins = {dist for _, dist, _ in PLUGINS}
    return sorted(f.companion_table_names() - plugins)


@pytest.mark.parametrize("dist", _companions_but_plugins())
def test_a_library_too_new_for_the_glibc_names_its_companion_by_distribution(dist: str) -> None:
    module = modules().module_of(dist)
    assert module is not None, f"the module table has no import package of {dist}"
    library = f"/srv/py/lib/python3.9/site-packages/{module}/lib/_{module}_kernels.so"
    text = (
        "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found "
        f"(required by {library})\n"
    )
    top = top_error(explained(text))
    assert top.cause == "glibc-too-old"
    assert f"a release of {dist} built for this glibc" in fix_text(top)
    assert "the package that provides" not in fix_text(top)
