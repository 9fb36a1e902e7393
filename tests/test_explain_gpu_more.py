"""Native libraries that load but miss a symbol a GPU or text stack defines: an extension
compiled against another CUDA release than the runtime it loads (a CUDA runtime function
undefined), and a package's library built without ICU's data (``icudtNN_dat`` undefined).
Both are ``native-library-unresolved``, with the package to rebuild or the release to leave."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error


@pytest.mark.parametrize(
    "line",
    [
        # The message alone, as a user pastes it: Horovod's TensorFlow extension by its name.
        "mpi_lib.cpython-37m-x86_64-linux-gnu.so: undefined symbol: cudaConfigureCall",
        # tf.load_op_library's NotFoundError with the installed path.
        "tensorflow.python.framework.errors_impl.NotFoundError: /usr/lib/python3/dist-packages/"
        "horovod/tensorflow/mpi_lib.cpython-36m-x86_64-linux-gnu.so: undefined symbol: "
        "cudaLaunch",
        "ImportError: /srv/env/lib/python3.9/site-packages/horovod/torch/mpi_lib_v2.cpython-39-"
        "x86_64-linux-gnu.so: undefined symbol: cudaSetupArgument",
    ],
    ids=["bare-file-name", "load-op-library", "torch-extension"],
)
def test_horovods_extension_built_for_another_cuda_is_rebuilt(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "horovod" in fix and "--no-cache-dir" in fix and "HOROVOD_CUDA_HOME" in fix
    # An old launch API: the extension was built for an older CUDA than it runs with.
    assert "deprecated since CUDA 7.0" in fix


def test_another_extension_missing_a_cuda_runtime_function_is_named_by_its_path() -> None:
    line = "ImportError: /home/user/ops/build/roi_pool_op.so: undefined symbol: cudaLaunchKernel"
    top = top_error(explained(line + "\n"))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "ldd /home/user/ops/build/roi_pool_op.so" in fix
    assert "another CUDA release" in fix
    # A current launch call says nothing of the old API, nor of Horovod.
    assert "deprecated" not in fix and "horovod" not in fix


@pytest.mark.parametrize(
    "text",
    [
        # Not a CUDA runtime function: the CUDA driver's (cu*), a C++ symbol, a cuDNN one.
        "ImportError: /opt/app/lib/ext.so: undefined symbol: cuCtxGetCurrent\n",
        "ImportError: /opt/app/lib/ext.so: undefined symbol: cudnnCreate\n",
        "ImportError: /opt/app/lib/ext.so: undefined symbol: _ZN4cuda6detail5thingEv\n",
        # The words without a library, and a function named in prose.
        "undefined symbol: cudaLaunch\n",
        "I read that cudaLaunch is deprecated in CUDA 10\n",
    ],
    ids=["driver-api", "cudnn", "cpp-namespace", "no-library", "prose"],
)
def test_what_is_not_a_cuda_runtime_function_missing_is_not_read_so(text: str) -> None:
    report = explained(text)
    assert all("deprecated since CUDA 7.0" not in fix_text(x) for x in report.findings if x.fix)
    assert all("HOROVOD_CUDA_HOME" not in fix_text(x) for x in report.findings if x.fix)


def test_tensorflows_own_library_missing_a_cuda_function_keeps_its_own_reading() -> None:
    line = (
        "ImportError: /venv/lib/python3.10/site-packages/tensorflow/python/"
        "_pywrap_tensorflow_internal.so: undefined symbol: cudaGetDeviceCount"
    )
    report = explained(line + "\n")
    assert all("another CUDA release than the one it" not in fix_text(x) for x in report.findings)


def test_icus_data_missing_from_a_packages_library_names_the_package() -> None:
    line = (
        "ImportError: /usr/local/lib/python3.12/dist-packages/tensorflow_text/core/pybinds/"
        "tflite_registrar.so: undefined symbol: icudt74_dat"
    )
    top = top_error(explained(line + "\n"))
    assert top.cause == "native-library-unresolved"
    fix = fix_text(top)
    assert "ICU" in fix and "tensorflow-text" in fix and "pip index versions" in fix


def test_icus_data_missing_beside_a_named_release_leaves_that_release() -> None:
    text = (
        "With tensorflow-text==2.30.0 the import stops: undefined symbol: icudt80_dat\n"
        "tensorflow-text 2.29.0 imports fine.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "native-library-unresolved"
    assert 'pip install "tensorflow-text<2.30.0"' in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # ICU's own library present; a symbol of ICU's API, not its data; the data file named.
        "ImportError: /opt/lib/libfoo.so: undefined symbol: u_strlen_74\n",
        "Loading ICU data from /usr/share/icu/74.2/icudt74l.dat\n",
        "icudt74_dat is defined in libicudata.so.74\n",
    ],
    ids=["icu-api-symbol", "data-file", "prose"],
)
def test_icu_without_its_data_symbol_missing_is_not_read_so(text: str) -> None:
    report = explained(text)
    assert all("ICU's data table" not in fix_text(x) for x in report.findings if x.fix)


@pytest.mark.parametrize(
    ("line", "severity", "built", "loaded"),
    [
        (
            "WARNING:tensorflow:TensorRT mismatch. Compiled against version 5.0.2, but loaded "
            "5.1.5. Things may not work",
            "warning",
            "5.0.2",
            "5.1.5",
        ),
        (
            "ERROR:tensorflow:TensorRT version mismatch. Tensorflow was compiled against TensorRT "
            "5.1.5 but library loaded from environment is TensorRT 4.0.1. Please make sure that "
            "correct version of TensorRT is available in the system and added to ldconfig or "
            "LD_LIBRARY_PATH",
            "error",
            "5.1.5",
            "4.0.1",
        ),
        (
            "ERROR:tensorflow:Loaded TensorRT 7.1.3 but linked TensorFlow against TensorRT 7.2.2. "
            "TensorRT does not support forward compatibility.",
            "error",
            "7.2.2",
            "7.1.3",
        ),
        # TF-TRT's own note of both releases as it starts, with no refusal after it: the C++
        # plugin initialiser's dotted versions, the Python check's tuples.
        (
            "2021-11-02 10:00:00.000000: I tensorflow/compiler/tf2tensorrt/common/"
            "utils.cc:106] Linked TensorRT version: 7.2.2\n"
            "2021-11-02 10:00:00.000000: I tensorflow/compiler/tf2tensorrt/common/"
            "utils.cc:108] Loaded TensorRT version: 8.0.1",
            "error",
            "7.2.2",
            "8.0.1",
        ),
        (
            "INFO:tensorflow:Linked TensorRT version: (8, 4, 3)\n"
            "INFO:tensorflow:Loaded TensorRT version: (8, 2, 1)",
            "error",
            "8.4.3",
            "8.2.1",
        ),
    ],
    ids=["tf1-warning", "tf1-older-major", "tf2-refused", "noted-other-major", "noted-older"],
)
def test_tf_trt_loading_another_tensorrt_names_the_one_it_was_built_against(
    line: str, severity: str, built: str, loaded: str
) -> None:
    report = explained(line + "\n")
    found = [x for x in report.findings if x.cause == "tensorrt-version-mismatch"]
    assert found and found[0].severity.value == severity
    fix = fix_text(found[0])
    assert f"built against TensorRT {built}" in fix and f"loaded TensorRT {loaded}" in fix
    assert "LD_LIBRARY_PATH" in fix and "libnvinfer" in fix


@pytest.mark.parametrize(
    "text",
    [
        # TensorFlow 2's note that a newer minor of the same major is supported.
        "INFO:tensorflow:Loaded TensorRT 8.6.1 and linked TensorFlow against TensorRT 8.4.3. "
        "This is supported because TensorRT minor/patch upgrades are backward compatible.\n",
        "INFO:tensorflow:Linked TensorRT version: (7, 2, 2)\n"
        "INFO:tensorflow:Loaded TensorRT version: (7, 2, 2)\n",
        "INFO:tensorflow:Running against TensorRT version 5.0.2\n",
        # A newer release of the same major, noted: TensorFlow 2 takes it.
        "I tensorflow/compiler/tf2tensorrt/convert/convert_nodes.cc:1371] Linked TensorRT "
        "version: 8.4.3\nI tensorflow/compiler/tf2tensorrt/convert/convert_nodes.cc:1373] "
        "Loaded TensorRT version: 8.6.1\n",
        # Another program's words about versions.
        "pip: tensorrt mismatch between the lock file and the environment\n",
    ],
    ids=[
        "tf2-supported-minor",
        "versions-logged",
        "running-against",
        "newer-minor-noted",
        "other-words",
    ],
)
def test_tensorrt_releases_that_agree_are_not_a_mismatch(text: str) -> None:
    assert all(x.cause != "tensorrt-version-mismatch" for x in explained(text).findings)


@pytest.mark.parametrize(
    ("text", "built", "installed"),
    [
        pytest.param(
            "$ apt list --installed 2>/dev/null | grep nvinfer\n"
            "libnvinfer10/unknown,now 10.0.1.6-1+cuda12.4 amd64 [installed]\n"
            "libnvinfer-plugin10/unknown,now 10.0.1.6-1+cuda12.4 amd64 [installed]\n"
            ">>> from tensorflow.python.compiler.tensorrt import trt_convert as trt\n"
            ">>> trt.trt_utils._pywrap_py_utils.get_linked_tensorrt_version()\n"
            "(8, 6, 1)\n",
            "8.6.1",
            "10.0.1.6",
            id="apt-list-and-echo",
        ),
        pytest.param(
            "$ dpkg -l | grep nvinfer\n"
            "ii  libnvinfer7      7.1.3-1+cuda11.0   amd64   TensorRT runtime libraries\n"
            "INFO:tensorflow:Linked TensorRT version: (8, 2, 4)\n",
            "8.2.4",
            "7.1.3",
            id="dpkg-and-note",
        ),
    ],
)
def test_tf_trt_linked_against_a_major_no_installed_package_provides(
    text: str, built: str, installed: str
) -> None:
    found = [x for x in explained(text).findings if x.cause == "tensorrt-version-mismatch"]
    assert found and found[0].severity.value == "error"
    fix = fix_text(found[0])
    assert f"built against TensorRT {built}" in fix
    assert f"the packages listed hold no libnvinfer.so.{built.partition('.')[0]}" in fix
    assert f"(they install TensorRT {installed})" in fix
    assert "only" not in found[0].summary


@pytest.mark.parametrize(
    "text",
    [
        # TensorFlow built without TensorRT returns (0, 0, 0) for both releases
        # (tf2tensorrt/common/utils.cc): no release, no "TensorRT 0.0.0".
        pytest.param(
            "INFO:tensorflow:Linked TensorRT version: (8, 6, 1)\n"
            "INFO:tensorflow:Loaded TensorRT version: (0, 0, 0)\n",
            id="loaded-zero",
        ),
        pytest.param(
            "$ dpkg -l | grep nvinfer\n"
            "ii  libnvinfer8   8.6.1.6-1+cuda12.0   amd64   TensorRT runtime libraries\n"
            ">>> from tensorflow.python.compiler.tensorrt import trt_convert as trt\n"
            ">>> trt._pywrap_py_utils.get_linked_tensorrt_version()\n"
            "(0, 0, 0)\n",
            id="linked-zero-echoed",
        ),
        pytest.param(
            "$ dpkg -l | grep nvinfer\n"
            "ii  libnvinfer8   8.6.1.6-1+cuda12.0   amd64   TensorRT runtime libraries\n"
            "INFO:tensorflow:Linked TensorRT version: (0, 0, 0)\n",
            id="linked-zero-noted",
        ),
        # TensorRT of the linked major installed where dpkg does not look: pip's wheels
        # (TensorFlow 2.15's and-cuda extra), the module's version echoed, the Debian
        # development package of that release.
        pytest.param(
            "$ dpkg -l | grep nvinfer\n"
            "ii  libnvinfer7   7.2.3-1+cuda11.1   amd64   TensorRT runtime libraries\n"
            "$ pip list | grep -i tensorrt\n"
            "tensorrt                      8.6.1.post1\n"
            "tensorrt-libs                 8.6.1\n"
            "I tensorflow/compiler/tf2tensorrt/common/utils.cc:106] Linked TensorRT version: "
            "8.6.1\n",
            id="pip-wheels",
        ),
        pytest.param(
            '$ python -c "import tensorrt; print(tensorrt.__version__)"\n'
            "8.6.1\n"
            "$ dpkg -l | grep nvinfer\n"
            "ii  libnvinfer7   7.2.3-1+cuda11.1   amd64   TensorRT runtime libraries\n"
            ">>> from tensorflow.python.compiler.tensorrt import trt_convert as trt\n"
            ">>> trt.trt_utils._pywrap_py_utils.get_linked_tensorrt_version()\n"
            "(8, 6, 1)\n",
            id="module-version-echoed",
        ),
        pytest.param(
            "$ apt list --installed | grep nvinfer\n"
            "libnvinfer-dev/unknown,now 8.6.1.6-1+cuda12.0 amd64 [installed]\n"
            "libnvinfer7/unknown,now 7.2.3-1+cuda11.1 amd64 [installed,local]\n"
            "INFO:tensorflow:Linked TensorRT version: (8, 6, 1)\n",
            id="dev-package-of-the-release",
        ),
    ],
)
def test_tensorrt_of_no_release_or_installed_elsewhere_is_no_mismatch(text: str) -> None:
    assert all(x.cause != "tensorrt-version-mismatch" for x in explained(text).findings)


def test_tf_trt_linked_against_the_major_installed_is_no_mismatch() -> None:
    text = (
        "libnvinfer8/unknown,now 8.6.1.6-1+cuda12.0 amd64 [installed]\n"
        "INFO:tensorflow:Linked TensorRT version: (8, 4, 3)\n"
    )
    assert all(x.cause != "tensorrt-version-mismatch" for x in explained(text).findings)
