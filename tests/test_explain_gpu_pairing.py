"""GPU failures whose words several causes print, read by what the log shows around them:
"DNN library is not found" as the stream executor's cuDNN support that did not start (a
cuDNN that loaded, refused or failed), and a hosted notebook's GPU failing after the log
installs another TensorFlow over the image's own."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, readings, top_error
from tfdoctor.findings import Severity
from tfdoctor.matrix import load_matrix

_DNN = (
    "W tensorflow/core/framework/op_kernel.cc:1733] OP_REQUIRES failed at conv_ops.cc:1120 : "
    "UNIMPLEMENTED: DNN library is not found.\n"
)
_REFUSED = (
    "E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Loaded runtime CuDNN library: 8.1.0 but "
    "source was compiled with: 8.6.0.  CuDNN library needs to have matching major version and "
    "equal or higher minor version.\n"
)
_HANDLE = (
    "E tensorflow/stream_executor/cuda/cuda_dnn.cc:389] Could not create cudnn handle: "
    "CUDNN_STATUS_NOT_INITIALIZED\n"
)
_NOT_LOADED = (
    "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
    "library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such "
    "file or directory\n"
)


def _causes(text: str) -> dict[str, str]:
    return {f.cause or "": f.severity.value for f in explained(text).findings}


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(_DNN, id="op-kernel-line"),
        pytest.param(
            "tensorflow.python.framework.errors_impl.UnimplementedError: "
            "DNN library is not found.\n",
            id="exception",
        ),
        pytest.param("DNN library is not found for Convolution operation\n", id="words-only"),
    ],
)
def test_dnn_library_not_found_alone_is_a_cudnn_that_did_not_start(line: str) -> None:
    report = explained(line)
    top = top_error(report)
    assert top.cause == "cudnn-version-mismatch"
    fix = fix_text(top)
    # The candidates in order, each with what tells it apart.
    assert fix.index("another version") < fix.index("memory was already taken")
    assert "GPU from being registered" in fix and "tfdoctor check" in fix
    # The library not found stays the second reading, a warning.
    assert _causes(line)["cuda-libs-missing"] == "warning"


def test_dnn_library_not_found_after_the_refused_cudnn_is_the_mismatch_alone() -> None:
    found = _causes(_REFUSED + _DNN)
    assert found["cudnn-version-mismatch"] == "error"
    assert "cuda-libs-missing" not in found and "gpu-library-init-failed" not in found


def test_dnn_library_not_found_after_a_failed_handle_keeps_the_handles_candidates() -> None:
    report = explained(_HANDLE + _DNN)
    top = top_error(report)
    assert top.cause == "gpu-library-init-failed"
    assert "memory" in fix_text(top)
    assert "cuda-libs-missing" not in _causes(_HANDLE + _DNN)


def test_dnn_library_not_found_after_cudnn_did_not_load_is_the_missing_library() -> None:
    found = _causes(_NOT_LOADED + _DNN)
    assert found["cuda-libs-missing"] == "error"
    assert "gpu-library-init-failed" not in found and "cudnn-version-mismatch" not in found


def test_other_dnn_words_are_not_read_so() -> None:
    for text in (
        "The DNN library is loaded from /usr/lib/x86_64-linux-gnu\n",
        "opencv: DNN module not found, skipping the face detector\n",
    ):
        found = _causes(text)
        assert "cudnn-version-mismatch" not in found and "gpu-library-init-failed" not in found


# --- a hosted image's TensorFlow replaced ---------------------------------------------------

_COLAB_FRAME = (
    "Traceback (most recent call last):\n"
    '  File "/content/models/research/object_detection/model_main_tf2.py", line 113, in '
    "<module>\n"
)


@pytest.mark.parametrize(
    ("install", "what"),
    [
        pytest.param(
            "Successfully installed keras-2.6.0 tensorflow-2.6.0 tensorflow-estimator-2.6.0\n",
            "tensorflow==2.6.0",
            id="pip-list",
        ),
        pytest.param("!pip install tf-nightly\n", "tf-nightly", id="kernel-install"),
        # TensorFlow 2.0's preview nightly, whose name holds a release of its own, and a
        # nightly of another 2.x whose release starts like it.
        pytest.param(
            "Successfully installed tf-nightly-2.0-preview-2.0.0.dev20190801\n",
            "tf-nightly-2.0-preview==2.0.0.dev20190801",
            id="preview-nightly",
        ),
        pytest.param(
            "Successfully installed tf-nightly-2.10.0.dev20220601\n",
            "tf-nightly==2.10.0.dev20220601",
            id="nightly",
        ),
    ],
)
def test_a_gpu_failure_after_installing_tensorflow_on_colab_is_the_replaced_image(
    install: str, what: str
) -> None:
    text = install + _COLAB_FRAME + _REFUSED
    report = explained(text)
    top = top_error(report)
    assert top.cause == "hosted-tf-replaced"
    fix = fix_text(top)
    assert what in fix and "Disconnect and delete runtime" in fix
    assert "tf.sysconfig.get_build_info()" in fix
    # What failed stays, second: its fix would install cuDNN on the image.
    assert _causes(text)["cudnn-version-mismatch"] == "warning"


#: pip installing a library that brought TensorFlow with it, in one run.
_PULLED = "Successfully installed sleap-1.1.5 tensorflow-2.7.1\n"


@pytest.mark.parametrize(
    ("install", "named"),
    [
        # The one package the kernel's install asks for, in pip's list beside TensorFlow.
        pytest.param("!pip install sleap==1.1.5\n" + _PULLED, True, id="kernel-install"),
        # pip's own progress: TensorFlow collected for the library (no kernel's line shown).
        pytest.param(
            "Collecting sleap\n"
            "  Downloading sleap-1.1.5-py3-none-any.whl (12.1 MB)\n"
            "Collecting tensorflow<2.8,>=2.6.3 (from sleap)\n"
            "  Downloading tensorflow-2.7.1-cp37-cp37m-manylinux2010_x86_64.whl (495.1 MB)\n"
            + _PULLED,
            True,
            id="pip-collected-for",
        ),
        # pip's chain names the package nearest TensorFlow, a dependency of what was asked
        # for: it was installed in the notebook, not asked for there.
        pytest.param(
            "Collecting sleap==1.1.5 (from othertool==2.0)\n"
            "  Downloading sleap-1.1.5-py3-none-any.whl (12.1 MB)\n"
            "Collecting tensorflow<2.8,>=2.6.3 (from sleap==1.1.5->othertool==2.0)\n"
            "  Downloading tensorflow-2.7.1-cp37-cp37m-manylinux2010_x86_64.whl (495.1 MB)\n"
            + _PULLED,
            True,
            id="pip-chain",
        ),
        # A requirements file beside it: what brought TensorFlow is not on the line.
        pytest.param(
            "!pip install -r requirements.txt sleap\n" + _PULLED, False, id="requirements"
        ),
        # A URL's or a local project's install beside it: either may have brought it.
        pytest.param(
            "!pip install git+https://github.com/example/othertool sleap==1.1.5\n" + _PULLED,
            False,
            id="url",
        ),
        pytest.param("!pip install -e ./othertool sleap==1.1.5\n" + _PULLED, False, id="editable"),
        pytest.param("!pip install ./othertool.whl sleap==1.1.5\n" + _PULLED, False, id="archive"),
        # An index's address is no package.
        pytest.param(
            "!pip install -i https://pypi.org/simple sleap==1.1.5\n" + _PULLED, True, id="index"
        ),
        # TensorFlow installed by another pip run than the library's.
        pytest.param(
            "!pip install tensorflow-addons\nSuccessfully installed tensorflow-addons-0.19.0\n"
            "Successfully installed tensorflow-2.7.1\n",
            False,
            id="another-run",
        ),
        # Two packages asked for: either may have brought it.
        pytest.param("!pip install sleap==1.1.5 opencv-python\n" + _PULLED, False, id="two-asked"),
    ],
)
def test_the_library_that_brought_tensorflow_over_the_image_is_named_where_shown(
    install: str, named: bool
) -> None:
    top = top_error(explained(install + _COLAB_FRAME + _REFUSED))
    assert top.cause == "hosted-tf-replaced"
    fix = fix_text(top)
    assert ("Installing sleap 1.1.5 in the notebook brought tensorflow==2.7.1" in fix) is named
    assert ("Install the sleap release that supports the image's TensorFlow" in fix) is named
    assert ("Remove the line that installs tensorflow" in fix) is not named


def test_a_library_that_brought_tensorflow_on_the_users_own_machine_is_no_hosted_image() -> None:
    text = (
        "$ pip install sleap==1.1.5\n" + _PULLED + '  File "/home/me/train.py", line 3\n' + _REFUSED
    )
    assert "hosted-tf-replaced" not in _causes(text)


def test_kaggle_paths_name_kaggles_session() -> None:
    text = (
        "Successfully installed tensorflow-2.12.0\n"
        '  File "/kaggle/working/train.py", line 40, in <module>\n'
        "tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution "
        "algorithm. This is probably because cuDNN failed to initialize\n"
    )
    top = top_error(explained(text))
    assert top.cause == "hosted-tf-replaced"
    assert "Kaggle" in top.summary and "start a new one" in fix_text(top)


# Colab's pip hook after an install in the kernel that replaced the tensorflow it had imported.
_COLAB_HOOK = (
    "WARNING: The following packages were previously imported in this runtime:\n"
    "  [keras,tensorflow]\n"
    "You must restart the runtime in order to use newly installed versions.\n"
)
_NOT_FOUND_DNN = (
    "tensorflow.python.framework.errors_impl.UnimplementedError: Graph execution error:\n"
    "DNN library is not found.\n"
)


@pytest.mark.parametrize(
    ("text", "title", "what"),
    [
        # The image's own cuDNN refused, the notebook shown only by Colab's pip hook.
        pytest.param(
            "!pip install tensorflow==2.6.0\n" + _COLAB_HOOK + _REFUSED,
            "Colab",
            "tensorflow==2.6.0",
            id="colab-hook-kernel-pin",
        ),
        # "DNN library is not found", read as the refused cuDNN's, after pip's own list.
        pytest.param(
            "Successfully installed keras-2.10.0 tensorflow-2.10.0\n"
            + _COLAB_FRAME
            + _NOT_FOUND_DNN,
            "Colab",
            "tensorflow==2.10.0",
            id="dnn-library-not-found",
        ),
        # A companion of the image's release loaded by the TensorFlow installed over it.
        pytest.param(
            "Successfully installed tensorflow-2.12.0\n"
            + _COLAB_FRAME
            + "ImportError: /usr/local/lib/python3.9/dist-packages/tensorflow_text/python/ops/"
            "_regex_split_ops.so: undefined symbol: _ZN10tensorflow6StatusC1ENS_5error4CodeE\n",
            "Colab",
            "tensorflow==2.12.0",
            id="companion-undefined-symbol",
        ),
        # A log cut after pip removed the image's TensorFlow for the release it collected.
        pytest.param(
            "Collecting tensorflow==2.7.0\n"
            "  Attempting uninstall: tensorflow\n"
            "    Found existing installation: tensorflow 2.8.0\n" + _COLAB_FRAME + _REFUSED,
            "Colab",
            "tensorflow==2.7.0",
            id="pip-replacing-cut-short",
        ),
        # Colab's notice of a kernel that died without an exception, after a nightly went in.
        pytest.param(
            "!pip install tf-nightly\n"
            "Successfully installed tb-nightly-2.10.0a20220601 tf-nightly-2.10.0.dev20220601\n"
            "Your session crashed for an unknown reason.\n",
            "Colab",
            "tf-nightly==2.10.0.dev20220601",
            id="colab-kernel-died",
        ),
        # A SageMaker notebook instance's conda environment.
        pytest.param(
            "!pip install -q tensorflow-gpu==2.3.0\n"
            '  File "/home/ec2-user/anaconda3/envs/tensorflow2_p36/lib/python3.6/site-packages/'
            'tensorflow/python/eager/execute.py", line 60, in quick_execute\n' + _REFUSED,
            "SageMaker",
            "tensorflow-gpu==2.3.0",
            id="sagemaker-instance",
        ),
        # A SageMaker Studio space's own volume.
        pytest.param(
            "%pip install tensorflow==2.12.0\n"
            '  File "/home/sagemaker-user/train.py", line 12, in <module>\n' + _REFUSED,
            "SageMaker",
            "tensorflow==2.12.0",
            id="sagemaker-studio-space",
        ),
        # The Deep Learning VM image of a Vertex AI Workbench instance.
        pytest.param(
            "Successfully installed tensorflow-2.12.0\n"
            "$ cat /opt/deeplearning/metadata/images_version\n" + _REFUSED,
            "Vertex AI Workbench",
            "tensorflow==2.12.0",
            id="vertex-workbench",
        ),
        # A Databricks ML runtime's cluster Python.
        pytest.param(
            "Successfully installed tensorflow-2.13.0\n"
            '  File "/databricks/python/lib/python3.10/site-packages/tensorflow/python/eager/'
            'execute.py", line 53, in quick_execute\n' + _REFUSED,
            "Databricks",
            "tensorflow==2.13.0",
            id="databricks-cluster",
        ),
    ],
)
def test_the_failure_after_an_install_over_a_hosted_image_is_the_replaced_image(
    text: str, title: str, what: str
) -> None:
    top = top_error(explained(text))
    assert top.cause == "hosted-tf-replaced"
    assert title in top.summary and what in fix_text(top)


# TensorFlow 2's loader names the LD_LIBRARY_PATH with a library it could not open; Colab's
# runtime puts its driver's directory there.
_COLAB_SEARCH_PATH = (
    "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
    "library 'libcusolver.so.11'; dlerror: libcusolver.so.11: cannot open shared object file: "
    "No such file or directory; LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/lib64-nvidia\n"
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Successfully installed autokeras-1.0.16 tensorflow-2.6.0\n"
            + _COLAB_SEARCH_PATH
            + _REFUSED,
            id="loader-search-path",
        ),
        pytest.param(
            "Successfully installed tensorflow-2.6.0\n"
            '  File "/usr/local/lib/python3.7/dist-packages/google/colab/_import_hooks/_cv2.py", '
            "line 98, in load_module\n" + _REFUSED,
            id="colab-package-frame",
        ),
    ],
)
def test_colabs_own_library_directory_or_package_names_the_notebook(text: str) -> None:
    top = top_error(explained(text))
    assert top.cause == "hosted-tf-replaced"
    assert "Colab" in top.summary and "tensorflow==2.6.0" in fix_text(top)


def test_colabs_search_path_far_down_a_long_log_still_names_the_notebook() -> None:
    # The loader's line is cited wherever it is, not only in the log's head.
    progress = "".join(f"{i}/5000 [=====>....] - ETA: 1s - loss: 0.6931\n" for i in range(2500))
    text = (
        "Successfully installed tensorflow-2.6.0\n"
        + progress
        + _COLAB_SEARCH_PATH.replace("libcusolver.so.11", "libnvinfer.so.7")
        + _REFUSED
    )
    assert len(progress) > 64 << 10
    top = top_error(explained(text))
    assert top.cause == "hosted-tf-replaced" and "Colab" in top.summary


def test_tensorrt_missing_on_colab_stays_a_note() -> None:
    text = (
        _COLAB_SEARCH_PATH.replace("libcusolver.so.11", "libnvinfer.so.7")
        + "W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Cannot "
        "dlopen some TensorRT libraries. If you would like to use Nvidia GPU with TensorRT, "
        "please make sure the missing libraries mentioned above are installed properly.\n"
    )
    assert all(f.severity.rank < Severity.WARNING.rank for f in explained(text).findings)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        pytest.param(_COLAB_FRAME + _REFUSED, "Colab", id="cudnn-refused"),
        pytest.param(
            '  File "/kaggle/working/train.py", line 3, in <module>\n'
            "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or "
            "directory\n",
            "Kaggle",
            id="toolkit-library-missing",
        ),
    ],
)
def test_a_hosted_image_whose_libraries_tensorflow_refuses_was_replaced(
    text: str, title: str
) -> None:
    # No install in the log: the image's own TensorFlow is built for its CUDA and cuDNN, so
    # one that refuses them, or asks for a CUDA library of another release, is not the image's
    # (or the libraries are not).
    top = top_error(explained(text))
    assert top.cause == "hosted-tf-replaced"
    assert title in top.summary and "fresh runtime" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # The install on a machine of the user's own: no hosted image to replace.
        pytest.param(
            "Successfully installed tensorflow-2.6.0\n"
            '  File "/home/me/train.py", line 3, in <module>\n' + _REFUSED,
            id="own-machine",
        ),
        # Kaggle's paths and the driver's libcuda missing: a runtime without a GPU, whatever
        # TensorFlow runs there.
        pytest.param(
            '  File "/kaggle/working/train.py", line 3, in <module>\n'
            "ImportError: libcuda.so.1: cannot open shared object file: No such file or "
            "directory\n",
            id="driver-library-only",
        ),
        # Colab's crash notice with no TensorFlow installed, and after a companion only.
        pytest.param("Your session crashed for an unknown reason.\n", id="crash-alone"),
        pytest.param(
            "Your session crashed for an unknown reason.\n"
            "Successfully installed tf-nightly-2.10.0.dev20220601\n",
            id="crash-before-the-install",
        ),
        pytest.param(
            "Successfully installed tensorflow-addons-0.19.0\n"
            "Your session crashed for an unknown reason.\n",
            id="crash-after-companion",
        ),
        # A companion installed, not TensorFlow.
        pytest.param(
            "Successfully installed tensorflow-addons-0.19.0 tensorflow-hub-0.12.0\n"
            + _COLAB_FRAME
            + _REFUSED,
            id="companion-only",
        ),
        # Colab's pip hook naming other packages than tensorflow.
        pytest.param(
            _COLAB_HOOK.replace("keras,tensorflow", "PIL") + _REFUSED,
            id="hook-without-tensorflow",
        ),
        # An undefined symbol on Colab with no TensorFlow installed in the log.
        pytest.param(
            _COLAB_FRAME + "ImportError: /usr/local/lib/python3.9/dist-packages/tensorflow_text/"
            "python/ops/_regex_split_ops.so: undefined symbol: _ZN10tensorflow6StatusC1Ev\n",
            id="symbol-nothing-installed",
        ),
        # A library of a build from a checkout: no installed package's extension.
        pytest.param(
            "Successfully installed tensorflow-2.12.0\n"
            + _COLAB_FRAME
            + "ImportError: /content/build/libfoo.so: undefined symbol: _ZN3foo3barEv\n",
            id="symbol-outside-site-packages",
        ),
        # A conda prefix under /opt/conda is any conda image's, not a hosted notebook's.
        pytest.param(
            "!pip install tensorflow==2.6.0\n"
            '  File "/opt/conda/lib/python3.7/site-packages/tensorflow/python/eager/execute.py", '
            "line 59, in quick_execute\n" + _REFUSED,
            id="conda-prefix-only",
        ),
        # Another machine's search path, and Colab's directory named only as a word in prose.
        pytest.param(
            "Successfully installed tensorflow-2.6.0\n"
            + _COLAB_SEARCH_PATH.replace("/usr/lib64-nvidia", "/usr/local/cuda-11.2/lib64")
            + _REFUSED,
            id="own-search-path",
        ),
        pytest.param(
            "Successfully installed tensorflow-2.6.0\n"
            "the driver here is not in lib64-nvidia\n" + _REFUSED,
            id="search-path-word-only",
        ),
        # TensorFlow installed on Colab and nothing of the GPU failing.
        pytest.param(
            "Successfully installed tensorflow-2.6.0\n" + _COLAB_FRAME + "ValueError: bad shape\n",
            id="no-gpu-failure",
        ),
    ],
)
def test_near_misses_are_not_a_replaced_image(text: str) -> None:
    assert "hosted-tf-replaced" not in _causes(text)


# --- libcuda.so.1 missing: the driver, or a container started without the GPU -------------

_LIBCUDA = "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"


def test_libcuda_missing_alone_names_the_container_as_the_other_candidate() -> None:
    report = explained(_LIBCUDA)
    found = {f.cause: f for f in report.findings}
    assert found["driver-libraries-missing"].severity.value == "error"
    other = found["container-no-gpu"]
    assert other.severity.value == "warning" and other.summary.startswith("Or:")
    fix = fix_text(other)
    assert "ls /.dockerenv" in fix and "--gpus all" in fix


def test_libcuda_missing_in_a_container_shown_is_the_container_alone() -> None:
    text = "$ docker run -it tensorflow/tensorflow:1.15.5-gpu python train.py\n" + _LIBCUDA
    found = _causes(text)
    assert found.get("container-no-gpu") == "error" and "driver-libraries-missing" not in found


@pytest.mark.parametrize(
    "shown",
    [
        # TensorFlow read the running kernel module's version: a driver half installed.
        pytest.param(
            "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:200] kernel reported "
            "version is: 470.82.1\n",
            id="kernel-module",
        ),
        pytest.param("export LD_LIBRARY_PATH=/usr/lib/wsl/lib\n", id="wsl"),
        # A hosted notebook: its runtime type gives the GPU, not a `docker run` of the user's.
        pytest.param(_COLAB_FRAME, id="colab"),
    ],
)
def test_libcuda_missing_where_the_log_shows_the_host_is_not_the_container(shown: str) -> None:
    assert "container-no-gpu" not in _causes(shown + _LIBCUDA)


def test_another_library_not_found_is_not_the_container() -> None:
    text = "ImportError: libcudart.so.10.0: cannot open shared object file: No such file\n"
    assert "container-no-gpu" not in _causes(text)


# --- the issue form's GPU model and CUDA release --------------------------------------------


def _form(tf: str, cuda: str, gpu: str) -> str:
    return (
        "**System information**\n"
        f"- TensorFlow version (use command below): {tf}\n"
        "- Python version: 3.6.8\n"
        f"- CUDA/cuDNN version: {cuda}\n"
        f"- GPU model and memory: {gpu}\n"
        "tensorflow.python.framework.errors_impl.InternalError: Blas GEMM launch failed : "
        "a.shape=(2, 2), b.shape=(2, 2), m=2, n=2, k=2\n"
    )


def test_a_gpu_newer_than_the_cuda_the_form_states_is_the_cuda_release() -> None:
    top = top_error(explained(_form("1.12.0", "CUDA 9.0, cudnn 7.4.2", "GeForce RTX 2080 Ti 11GB")))
    assert top.cause == "cuda-release-predates-gpu"
    fix = fix_text(top)
    assert "The issue's form states CUDA 9.0" in fix and "CUDA 10.0 is the first" in fix


@pytest.mark.parametrize(
    ("tf", "cuda", "gpu"),
    [
        # A CUDA that knows the GPU.
        pytest.param("1.12.0", "CUDA 10.0, cudnn 7.4", "GeForce RTX 2080 Ti", id="cuda-knows-it"),
        # The build's own CUDA is known (the matrix's, for 2.15): the toolkit stated is not
        # what the wheel runs with.
        pytest.param("2.15.0", "11.2 / 8.1", "NVIDIA GeForce RTX 4090", id="build-known"),
        # cuDNN's and CUDA's versions in an order the words do not settle.
        pytest.param("1.12.0", "7.4 / 9.0", "GeForce RTX 2080 Ti", id="order-unsettled"),
        pytest.param("1.12.0", "CUDA 9.0", "N/A", id="no-gpu-named"),
    ],
)
def test_a_form_that_does_not_show_an_older_cuda_than_the_gpu(tf: str, cuda: str, gpu: str) -> None:
    # Not the reading; a ranked candidate of the library's failure it may be.
    assert "cuda-release-predates-gpu" not in {
        x.cause for x in readings(explained(_form(tf, cuda, gpu)))
    }


# --- a GPU-only layout refused by a CPU kernel: the op ran on the CPU ------------------------

_FRAME = '  File "/home/me/venv/lib/python3.6/site-packages/tensorflow/python/client/session.py"\n'


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "tensorflow.python.framework.errors_impl.InvalidArgumentError: Default "
            "MaxPoolingOp only supports NHWC on device type CPU\n",
            id="max-pool",
        ),
        pytest.param(
            "UnimplementedError: The Conv2D op currently only supports the NHWC tensor format "
            "on the CPU. The op was given the format: NCHW [Op:Conv2D]\n",
            id="conv2d",
        ),
    ],
)
def test_a_channels_first_op_on_the_cpu_asks_why_no_gpu_was_used(line: str) -> None:
    report = explained(_FRAME + line)
    found = [f for f in report.findings if f.summary.startswith("An op in the GPU-only")]
    assert found and found[0].cause == "cuda-libs-missing"
    assert found[0].severity.value == "warning"
    fix = fix_text(found[0])
    assert "channels_last" in fix and "Could not load dynamic library" in fix


def test_a_channels_first_op_with_a_cpu_build_shown_stays_a_warning() -> None:
    # Code meant for the CPU is as likely as a GPU not used, whatever the build installed.
    text = (
        "Successfully installed tensorflow-cpu-2.4.0\n"
        "InvalidArgumentError: Default MaxPoolingOp only supports NHWC on device type CPU\n"
    )
    found = [f for f in explained(text).findings if f.summary.startswith("An op in the GPU-only")]
    assert found and found[0].severity.value == "warning"


def test_a_channels_first_op_beside_a_created_gpu_device_is_not_read_so() -> None:
    created = (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1532] Created device "
        "/job:localhost/replica:0/task:0/device:GPU:0 with 9620 MB memory:  -> device: 0, "
        "name: NVIDIA GeForce RTX 3080, pci bus id: 0000:01:00.0, compute capability: 8.6\n"
    )
    text = (
        created
        + "InvalidArgumentError: Default MaxPoolingOp only supports NHWC on device type CPU\n"
    )
    assert all(not f.summary.startswith("An op in the GPU-only") for f in explained(text).findings)


def test_the_layouts_name_elsewhere_is_not_read_so() -> None:
    text = "Converting the model to NHWC layout for the CPU backend\n"
    assert all(not f.summary.startswith("An op in the GPU-only") for f in explained(text).findings)


# --- Windows' "DLL load failed": the Visual C++ runtime, or a GPU build's CUDA DLLs -----------

_DLL = (
    '  File "C:\\\\Users\\\\me\\\\Anaconda3\\\\lib\\\\site-packages\\\\tensorflow\\\\python\\\\'
    'pywrap_tensorflow_internal.py", line 18, in swig_import_helper\n'
    "ImportError: DLL load failed: The specified module could not be found.\n"
)


def test_dll_load_failed_names_a_gpu_builds_cuda_dlls_as_the_other_candidate() -> None:
    found = {f.cause: f for f in explained(_DLL).findings}
    assert found["msvc-runtime-missing"].severity.value == "error"
    other = found["cuda-libs-missing"]
    assert other.severity.value == "warning" and other.summary.startswith("Or:")
    fix = fix_text(other)
    assert "where.exe cudart64_*.dll cudnn64_*.dll" in fix and "cudnn64_6.dll" in fix


def test_dll_load_failed_with_its_reason_cut_names_the_cuda_dlls_too() -> None:
    # Windows' reason is cut from the paste: a DLL not found is one of the two readings.
    cut = _DLL.replace(": The specified module could not be found.", "")
    other = {f.cause: f for f in explained(cut).findings}["cuda-libs-missing"]
    assert other.severity.value == "warning" and other.summary.startswith("Or:")
    assert "cudnn64_7.dll" in fix_text(other)


@pytest.mark.parametrize(
    "shown",
    [
        # 2.1 and later load CUDA's DLLs when the GPU is first used, not at import.
        pytest.param("tensorflow 2.10.0\n", id="tf-2.10"),
        pytest.param("Successfully installed tensorflow-cpu-2.0.0\n", id="cpu-build"),
    ],
)
def test_dll_load_failed_where_no_gpu_build_of_20_or_older_is_possible(shown: str) -> None:
    assert "cuda-libs-missing" not in _causes(shown + _DLL)


def test_dll_initialisation_failure_is_not_a_missing_dll() -> None:
    text = (
        "ImportError: DLL load failed: A dynamic link library (DLL) initialization routine "
        "failed.\n"
    )
    assert "cuda-libs-missing" not in _causes(text)


# --- the kernel module and libcuda of different branches ------------------------------------


def _dso(kernel: str, dso: str) -> str:
    return (
        "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:313] kernel version "
        f"{kernel} does not match DSO version {dso} -- cannot find working devices in this "
        "configuration\n"
    )


def test_a_newer_libcuda_in_a_container_is_a_host_driver_too_old_for_the_image() -> None:
    # TensorFlow's CUDA diagnostics print the host name: a container's default one.
    text = "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:163] hostname: 6b9e3874a772\n"
    text += _dso("470.161.3", "515.65.1")
    top = top_error(explained(text))
    assert top.cause == "driver-too-old"
    fix = fix_text(top)
    assert "/usr/local/cuda/compat" in fix and "515 or newer" in fix
    assert "driver-version-mismatch" not in _causes(text)


def test_a_newer_libcuda_without_a_container_shown_names_both_readings() -> None:
    found = _causes(_dso("470.161.3", "515.65.1"))
    assert found["driver-version-mismatch"] == "error"
    assert found["driver-too-old"] == "warning"


def test_an_older_libcuda_in_a_container_is_the_images_copy_not_a_reboot() -> None:
    # The NVIDIA runtime mounts the host's libcuda, which matches the host's module: an older
    # one is a driver library installed into the image, which a reboot does not change.
    text = "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:163] hostname: 6b9e3874a772\n"
    text += _dso("525.60.13", "470.161.3")
    top = top_error(explained(text))
    assert top.cause == "driver-version-mismatch"
    fix = fix_text(top)
    assert "older than the host's kernel module 525" in fix and "sudo reboot" not in fix


@pytest.mark.parametrize(
    "text",
    [
        # The module newer than the library, no container shown: a downgrade not reloaded.
        pytest.param(_dso("525.60.13", "470.161.3"), id="module-newer"),
        # NVML names no versions.
        pytest.param("Failed to initialize NVML: Driver/library version mismatch\n", id="nvml"),
    ],
)
def test_other_mismatches_keep_the_reload(text: str) -> None:
    found = _causes(text)
    assert found["driver-version-mismatch"] == "error" and "driver-too-old" not in found


# --- a cuDNN handle's failure with the driver's version: what that driver runs --------------

_HANDLE_DRIVER = (
    "E tensorflow/stream_executor/cuda/cuda_dnn.cc:353] Could not create cudnn handle: "
    "CUDNN_STATUS_NOT_INITIALIZED\n"
    "E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Possibly insufficient driver version: "
    "390.87.0\n"
)


def test_the_drivers_version_says_which_cuda_it_runs_where_the_builds_is_unknown() -> None:
    top = top_error(explained(_HANDLE_DRIVER, matrix=load_matrix()))
    assert top.cause == "gpu-library-init-failed"
    fix = fix_text(top)
    assert "runs CUDA 9.1 and older (CUDA 9.2 needs 396.26 or newer" in fix


@pytest.mark.parametrize(
    ("driver", "runs"),
    [
        # CUDA 11.1 to 11.8 run on 450.80.02 or newer (minor version compatibility), though
        # CUDA 11.2's own toolkit shipped 460.27.03.
        pytest.param("455.32.0", "runs CUDA 11.8 and older (CUDA 12.0 needs 525.60.13", id="11x"),
        pytest.param("530.30.2", "runs CUDA 12.9 and older (CUDA 13.0 needs 580.65.06", id="12x"),
    ],
)
def test_what_the_driver_runs_counts_minor_version_compatibility(driver: str, runs: str) -> None:
    text = _HANDLE_DRIVER.replace("390.87.0", driver)
    assert runs in fix_text(top_error(explained(text, matrix=load_matrix())))


def test_a_known_builds_floor_ranks_the_driver_instead() -> None:
    text = (
        "tensorflow 2.3.0\n"
        '  File "/usr/lib/python3/dist-packages/tensorflow/python/eager/execute.py", line 59\n'
        + _HANDLE_DRIVER
    )
    fix = fix_text(top_error(explained(text, matrix=load_matrix())))
    assert "runs CUDA" not in fix
    assert fix.index("NVIDIA driver is older") < fix.index("memory was already taken")


def test_cudas_start_up_probe_on_a_runtime_without_a_gpu_is_no_replaced_image() -> None:
    # TensorFlow installed on Colab's CPU runtime: its look for CUDA at start is a note there.
    text = (
        "Successfully installed tensorflow-2.12.0\n"
        + _COLAB_FRAME
        + "W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could "
        "not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open "
        "shared object file: No such file or directory\n"
        "I tensorflow/compiler/xla/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart "
        "dlerror if you do not have a GPU set up on your machine.\n"
    )
    found = _causes(text)
    assert "hosted-tf-replaced" not in found


# --- a library handle that failed: each candidate a finding of its own cause -----------------

_BLAS = (
    "2019-03-02 10:11:12.123456: E tensorflow/stream_executor/cuda/cuda_blas.cc:510] failed to "
    "create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n"
)


def _candidates(text: str) -> list[tuple[str, str]]:
    """The candidate findings ("Or: ..."), as (cause, fix text), in the report's order."""
    return [
        (f.cause or "", fix_text(f))
        for f in explained(text, matrix=load_matrix()).findings
        if f.summary.startswith("Or: ") and "for the library that failed" in f.summary
    ]


def test_a_bare_handle_failure_ranks_each_candidate_as_a_warning_of_its_cause() -> None:
    report = explained(_BLAS, matrix=load_matrix())
    assert top_error(report).cause == "gpu-library-init-failed"
    found = _candidates(_BLAS)
    # Memory leads where the log shows nothing else (the main finding's order): the main
    # finding gives its test and fix first, so the warnings are the others, numbered as there.
    assert "memory was already taken" in fix_text(top_error(report)).split("2. ")[0]
    assert [c for c, _ in found] == [
        "cudnn-version-mismatch",
        "driver-too-old",
        "cuda-release-predates-gpu",
    ]
    summaries = [f.summary for f in report.findings if f.summary.startswith("Or: ")]
    assert [s.split("candidate ")[1].split(" for")[0] for s in summaries] == [
        "2 of 4",
        "3 of 4",
        "4 of 4",
    ]
    assert all(
        f.severity.value == "warning"
        for f in report.findings
        if f.summary.startswith("Or: ") and "library that failed" in f.summary
    )
    # The GPU-newer candidate, with neither side shown, lists each architecture's first CUDA.
    newer = dict(found)["cuda-release-predates-gpu"]
    assert "7.5: CUDA 10.0" in newer and "TensorFlow" in newer


def test_a_candidate_the_log_shows_first_keeps_its_warning() -> None:
    # Less than half the GPU free at start: memory is shown, a cause of its own, so its warning
    # stays as candidate 1; a lead the log does not show has none (above).
    text = (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1405] Found device 0 with "
        "properties: \nname: GeForce GTX 1080 Ti major: 6 minor: 1 memoryClockRate(GHz): "
        "1.582\npciBusID: 0000:01:00.0\ntotalMemory: 10.92GiB freeMemory: 318.06MiB\n" + _BLAS
    )
    report = explained(text, matrix=load_matrix())
    found = _candidates(text)
    assert found[0][0] == "gpu-out-of-memory"
    first = next(f.summary for f in report.findings if f.summary.startswith("Or: "))
    assert "candidate 1 of" in first


def test_the_candidates_follow_what_the_log_shows() -> None:
    # A GPU shown (a Turing card) and no CUDA: its candidate right after memory, fitted to it.
    text = (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1433] Found device 0 with "
        "properties: \nname: GeForce RTX 2070 major: 7 minor: 5 memoryClockRate(GHz): 1.62\n"
        + _BLAS
    )
    found = _candidates(text)
    # Memory first (the main finding's own), then the GPU's candidate, a warning of its own.
    assert "gpu-out-of-memory" not in dict(found)
    assert found[0][0] == "cuda-release-predates-gpu"
    assert "CUDA 10.0 is the first to know it" in dict(found)["cuda-release-predates-gpu"]


def test_a_driver_that_meets_the_builds_floor_is_no_candidate() -> None:
    # TensorFlow 2.3 (CUDA 10.1) under driver 450.80.02, which runs it: the driver is ruled out.
    text = (
        "tensorflow 2.3.0\n"
        '  File "/usr/lib/python3/dist-packages/tensorflow/python/eager/execute.py", line 59\n'
        + _HANDLE_DRIVER.replace("390.87.0", "450.80.2")
    )
    causes = [c for c, _ in _candidates(text)]
    assert "driver-too-old" not in causes
    assert "NVIDIA driver is older" not in fix_text(
        top_error(explained(text, matrix=load_matrix()))
    )


def test_the_drivers_candidate_says_what_the_drivers_shown_runs() -> None:
    fix = dict(_candidates(_HANDLE_DRIVER))["driver-too-old"]
    assert "runs CUDA 9.1 and older" in fix and "driver" in fix


def test_a_reading_the_log_decides_leaves_no_candidates() -> None:
    # The GPU and the build's CUDA both shown (CUDA 9.0's cuBLAS, a Turing card): one reading.
    text = (
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1433] Found device 0 with "
        "properties: \nname: GeForce RTX 2070 major: 7 minor: 5 memoryClockRate(GHz): 1.62\n"
        "I tensorflow/stream_executor/dso_loader.cc:152] successfully opened CUDA library "
        "libcublas.so.9.0 locally\n" + _BLAS
    )
    assert top_error(explained(text, matrix=load_matrix())).cause == "cuda-release-predates-gpu"
    assert _candidates(text) == []


# --- cuDNN refusing an older release of its major: an older copy first is the other candidate


def _refused(loaded: str, built: str) -> str:
    return (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Loaded runtime CuDNN library: "
        f"{loaded} but source was compiled with: {built}.  CuDNN library needs to have matching "
        "major version and equal or higher minor version.\n"
    )


def test_an_older_cudnn_of_the_builds_major_names_a_copy_first_on_the_path_as_a_candidate() -> None:
    report = explained(_refused("8.1.0", "8.6.0"))
    assert top_error(report).cause == "cudnn-version-mismatch"
    (other,) = [x for x in report.findings if x.cause == "cudnn-shadowed"]
    assert other.severity.value == "warning" and other.summary.endswith("(the other candidate)")
    assert "8.6.0 or newer is already installed" in fix_text(other)


@pytest.mark.parametrize(
    ("loaded", "built"),
    [pytest.param("7.6.5", "8.6.0", id="older-major"), pytest.param("9.1.0", "8.6.0", id="newer")],
)
def test_a_cudnn_of_another_major_names_no_copy_first(loaded: str, built: str) -> None:
    assert "cudnn-shadowed" not in _causes(_refused(loaded, built))


@pytest.mark.parametrize(
    ("listing", "first", "order"),
    [
        pytest.param(
            "C:\\> where.exe cudnn64_8.dll\nC:\\Windows\\System32\\cudnn64_8.dll\n"
            "D:\\tools\\cudnn-8.6\\bin\\cudnn64_8.dll\n",
            "C:\\Windows\\System32\\cudnn64_8.dll",
            "System32 comes before every PATH directory",
            id="windows",
        ),
        pytest.param(
            "$ find / -name 'libcudnn.so.8'\n/usr/lib/x86_64-linux-gnu/libcudnn.so.8\n"
            "/opt/cudnn-8.6/lib/libcudnn.so.8\n",
            "/usr/lib/x86_64-linux-gnu/libcudnn.so.8",
            "LD_LIBRARY_PATH's directories first",
            id="linux",
        ),
    ],
)
def test_one_cudnn_file_shown_in_two_places_is_a_copy_first(
    listing: str, first: str, order: str
) -> None:
    top = top_error(explained(listing + _refused("8.1.0", "8.6.0")))
    assert top.cause == "cudnn-shadowed"
    fix = fix_text(top)
    assert first in fix and order in fix and "8.6.0 or newer" in fix
    # The copies' versions: on Linux each file links to the one named with its full version.
    assert ("where.exe" in fix) is ("System32" in order)
    assert ("readlink -f /usr/lib/x86_64-linux-gnu/libcudnn.so.8 " in fix) is (
        "System32" not in order
    )


def test_one_copy_shown_or_a_cudnn_of_another_major_is_no_copy_first() -> None:
    one = "$ find / -name 'libcudnn.so.8'\n/usr/lib/x86_64-linux-gnu/libcudnn.so.8\n"
    assert top_error(explained(one + _refused("8.1.0", "8.6.0"))).cause != "cudnn-shadowed"
    two = one + "/opt/cudnn/lib/libcudnn.so.8\n"
    assert "cudnn-shadowed" not in _causes(two + _refused("9.1.0", "8.6.0"))


@pytest.mark.parametrize(
    "listing",
    [
        # The names give the version: both copies are the older cuDNN that loaded.
        pytest.param(
            "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.1.0\n/opt/cudnn/lib/libcudnn.so.8.1.0\n",
            id="full-version-both-old",
        ),
        # Another major's file in two places says nothing of the build's.
        pytest.param(
            "/usr/lib/x86_64-linux-gnu/libcudnn.so.7\n/opt/cudnn/lib/libcudnn.so.7\n",
            id="another-major",
        ),
        # The toolkit's link and its release's directory, /lib and /usr/lib: maybe one file.
        pytest.param(
            "/usr/local/cuda/lib64/libcudnn.so.8\n/usr/local/cuda-11.2/lib64/libcudnn.so.8\n",
            id="cuda-link",
        ),
        pytest.param(
            "/lib/x86_64-linux-gnu/libcudnn.so.8\n/usr/lib/x86_64-linux-gnu/libcudnn.so.8\n",
            id="merged-usr",
        ),
    ],
)
def test_no_copy_first_where_the_log_shows_no_second_copy_of_the_builds_file(
    listing: str,
) -> None:
    text = "$ find / -name 'libcudnn.so*'\n" + listing + _refused("8.1.0", "8.6.0")
    assert top_error(explained(text)).cause == "cudnn-version-mismatch"


def test_cublas_not_supported_alone_rules_out_memory_and_puts_the_gpu_first() -> None:
    text = (
        "2020-11-02 10:11:12.123456: E tensorflow/stream_executor/cuda/cuda_blas.cc:428] failed "
        "to run cuBLAS routine: CUBLAS_STATUS_NOT_SUPPORTED\n"
    )
    found = [c for c, _ in _candidates(text)]
    # The status puts the GPU first: the cause the log shows, kept as a warning of its own.
    assert found[0] == "cuda-release-predates-gpu" and "gpu-out-of-memory" not in found
    fix = fix_text(top_error(explained(text, matrix=load_matrix())))
    assert "CUDA" in fix.split("2. ")[0]
    assert "memory was already taken" not in fix_text(top_error(explained(text)))


def test_another_cublas_status_beside_it_keeps_memory() -> None:
    text = (
        "E tensorflow/stream_executor/cuda/cuda_blas.cc:428] failed to run cuBLAS routine: "
        "CUBLAS_STATUS_NOT_SUPPORTED\n" + _BLAS
    )
    assert "memory was already taken" in fix_text(top_error(explained(text))).split("2. ")[0]
    assert "gpu-out-of-memory" not in dict(_candidates(text))
