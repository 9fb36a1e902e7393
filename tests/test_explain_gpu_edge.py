"""TF-TRT asked of a TensorFlow built without TensorRT (trt_convert.py's refusal, or its module
left out of the CPU-only, Windows and macOS builds): a build with TensorRT, not another
TensorRT."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.matrix import DEFAULT_MATRIX, load_matrix

_CAUSE = "tf-build-without-tensorrt"
#: Which releases have TF-TRT, and where, is the shipped matrix's ``tf_trt`` knowledge (the
#: frozen fixture matrix predates the field).
_SHIPPED = load_matrix(str(DEFAULT_MATRIX), env={})


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: Tensorflow has not been built with TensorRT support.",
        "ERROR:tensorflow:Tensorflow needs to be built with TensorRT support enabled to allow "
        "TF-TRT to operate.",
        "ModuleNotFoundError: No module named 'tensorflow.python.compiler.tensorrt'",
        "ModuleNotFoundError: No module named 'tensorflow.python.compiler.tensorrt.trt_convert'",
    ],
    ids=["refusal", "error-log-line", "module-missing", "trt-convert-missing"],
)
def test_tf_trt_in_a_build_without_tensorrt(line: str) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "convert.py", line 2, in <module>\n'
        "    from tensorflow.python.compiler.tensorrt import trt_convert as trt\n"
        f"{line}\n"
    )
    top = top_error(explained(text))
    assert top.cause == _CAUSE
    fix = fix_text(top)
    assert "tensorflow-gpu" in fix and "nvcr.io/nvidia/tensorflow" in fix
    assert "is_tensorrt_build" in fix


_TRT_IMPORT = (
    "Traceback (most recent call last):\n"
    '  File "{path}", line 2, in <module>\n'
    "    from tensorflow.python.compiler.tensorrt import trt_convert as trt\n"
    "ModuleNotFoundError: No module named 'tensorflow.python.compiler.tensorrt'\n"
)


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (r"C:\Users\user\trt\convert.py", "WSL 2"),
        ("/Users/user/trt/convert.py", "no macOS build has CUDA"),
        ("/home/user/venv313/lib/python3.13/trt/convert.py", "not 3.13"),
    ],
    ids=["windows", "macos", "python-without-wheels"],
)
def test_no_tensorflow_install_is_offered_where_it_cannot_serve(path: str, words: str) -> None:
    top = top_error(explained(_TRT_IMPORT.format(path=path), matrix=_SHIPPED))
    assert top.cause == _CAUSE and words in fix_text(top)
    assert top.fix is not None
    assert not any("pip" in c and "install" in c for c in top.fix.commands)


def test_a_linux_log_gets_the_last_line_built_with_tensorrt() -> None:
    text = "TensorFlow version: 2.19.0\n" + _TRT_IMPORT.format(
        path="/home/user/venv/lib/python3.10/trt/convert.py"
    )
    top = top_error(explained(text, matrix=_SHIPPED))
    assert top.fix is not None
    assert any("tensorflow[and-cuda]==2.17." in c for c in top.fix.commands)


def test_the_module_missing_under_tensorflow_before_114_is_the_release() -> None:
    # TF-TRT was tensorflow.contrib.tensorrt up to 1.13: that build is not "without TensorRT".
    text = "TensorFlow version: 1.13.1\n" + _TRT_IMPORT.format(path="convert.py")
    report = explained(text, matrix=_SHIPPED)
    assert all(f.cause != _CAUSE for f in report.findings)
    top = top_error(report)
    assert top.cause == "api-removed" and "tensorflow.contrib.tensorrt" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # TF-TRT imported and working: its INFO lines about the TensorRT it linked.
        "INFO:tensorflow:Linked TensorRT version: (8, 4, 3)\n"
        "INFO:tensorflow:Loaded TensorRT version: (8, 4, 3)\n",
        # TensorRT's own Python package missing is not TensorFlow's build.
        "ModuleNotFoundError: No module named 'tensorrt'\n",
        # A TensorRT of another release is its own cause.
        "ERROR:tensorflow:Loaded TensorRT 7.1.3 but linked TensorFlow against TensorRT 7.2.2. "
        "TensorRT does not support forward compatibility.\n",
        # Another module under tensorflow.python.compiler.
        "ModuleNotFoundError: No module named 'tensorflow.python.compiler.mlir'\n",
    ],
    ids=["working-tf-trt", "tensorrt-package", "tensorrt-release", "other-compiler-module"],
)
def test_near_misses_are_not_a_build_without_tensorrt(text: str) -> None:
    assert all(f.cause != _CAUSE for f in explained(text).findings)


@pytest.mark.parametrize(
    "line",
    [
        'Training stops at once: Python throws "illegal instruction, core dumped"',
        "ILLEGAL instruction (Core Dumped) right after import tensorflow",
        # The words retyped alone on their line under the command that died.
        "$ python3 -m myapp.worker --port 8500\nillegal instruction",
    ],
    ids=["quoted-with-comma", "mixed-case", "alone-on-its-line"],
)
def test_an_illegal_instruction_retold_in_a_persons_words(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "cpu-lacks-avx"
    assert "AVX" in fix_text(top)


def test_nvidias_container_entrypoint_saying_the_cpu_lacks_avx() -> None:
    # The entrypoint of NVIDIA's containers checks the CPU before the program runs.
    text = (
        "ERROR: This container was built for CPUs supporting at least the AVX instruction "
        "set, but\n       the CPU detected was Example CPU 1000, which does not report\n"
        "       support for AVX.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "cpu-lacks-avx"
    assert "AVX" in fix_text(top)


@pytest.mark.parametrize(
    "line",
    [
        # CUDA's kernel error: the GPU's illegal instruction, not the CPU's.
        "tensorflow.python.framework.errors_impl.InternalError: CUDA_ERROR_ILLEGAL_INSTRUCTION: "
        "an illegal instruction was encountered",
        # The words without the crash: a question, not the process's end.
        "Does TensorFlow 2.4 raise an illegal instruction on CPUs without AVX?",
        # CUDA's words alone on a line, still the GPU's.
        "an illegal instruction was encountered",
    ],
    ids=["cuda-kernel", "question", "cuda-words-alone"],
)
def test_illegal_instruction_words_that_are_not_the_processs_crash(line: str) -> None:
    assert all(f.cause != "cpu-lacks-avx" for f in explained(line + "\n").findings)


def test_a_package_found_without_its_submodule_is_installed_partly() -> None:
    found = [
        f
        for f in explained("ImportError: No module named 'trt_helpers.detection'\n").findings
        if f.cause == "package-not-installed"
    ]
    assert found and found[0].severity.name == "WARNING"
    fix = fix_text(found[0])
    assert "install step" in fix and "trt_helpers.__file__" in fix


@pytest.mark.parametrize(
    "line",
    [
        # The standard library's own package: no install step of a project.
        "ModuleNotFoundError: No module named 'os.missing'",
        # Python 2's unquoted words name the whole dotted path even when the package is absent.
        "ImportError: No module named trt_helpers.detection",
    ],
    ids=["stdlib", "python2-words"],
)
def test_dotted_names_that_say_nothing_of_a_partial_install(line: str) -> None:
    findings = explained(line + "\n").findings
    assert all(f.cause != "package-not-installed" for f in findings)


def test_a_partial_install_names_the_projects_own_step_where_the_table_knows_it() -> None:
    found = [
        f
        for f in explained("ImportError: No module named 'tf_trt_models.detection'\n").findings
        if f.cause == "package-not-installed"
    ]
    assert found
    fix = fix_text(found[0])
    assert "./install.sh" in fix and "git submodule update --init" in fix
