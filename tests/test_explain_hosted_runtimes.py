"""Hosted runtimes and managed platforms whose TensorFlow, Python or GPU is theirs to give:
the SageMaker SDK refusing a framework version or Python its image table lacks, a hosted
notebook's VM without a GPU behind its own container, Colab's %tensorflow_version magic, and a
kernel that keeps the TensorFlow it imported before a %pip install."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import SIGNATURES, explained, finding_of, fix_text, top_error
from tfdoctor.causes.hosted import instance_without_gpu
from tfdoctor.evidence.devices import sagemaker_instance_type, sagemaker_job_instance_type
from tfdoctor.evidence.packages import read_stale_import
from tfdoctor.explain.hosted import tf1_replaced_by_tf2
from tfdoctor.explain.reader import split_text
from tfdoctor.explain.scanning import scan
from tfdoctor.findings import Finding, Severity
from tfdoctor.hosted import hosted_data

#: The SDK's frames above its refusal, as a notebook instance's conda environment shows them.
_SDK = "/home/ec2-user/anaconda3/envs/tensorflow2_p310/lib/python3.10/site-packages/sagemaker"


def _sdk_refusal(message: str) -> str:
    """A traceback of the SageMaker SDK's image look-up ending in ``message``."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "{_SDK}/tensorflow/estimator.py", line 187, in __init__\n'
        "    image_uri = image_uris.retrieve(\n"
        f'  File "{_SDK}/image_uris.py", line 634, in _validate_arg\n'
        "    raise ValueError(\n"
        f"ValueError: {message}\n"
    )


def _warned(text: str) -> list[Finding]:
    """The findings at warning or above."""
    return [f for f in explained(text).findings if f.severity.rank >= Severity.WARNING.rank]


# --- the SageMaker SDK's image table ----------------------------------------------------------


_SDK_WORDS = "You may need to upgrade your SDK version (pip install -U sagemaker) for newer"


@pytest.mark.parametrize(
    ("message", "named", "upgrade"),
    [
        # The newest Python listed, by number (py310 after py39), without the sentence's full
        # stop; an older Python comes back with no SDK.
        (
            f"Unsupported Python version: py38. {_SDK_WORDS} Python versions. Supported Python "
            "version(s): py39, py310.",
            "py_version='py310'",
            False,
        ),
        # A release newer than the table: a newer SDK first, else the newest listed.
        (
            f"Unsupported tensorflow version: 2.19. {_SDK_WORDS} tensorflow versions. Supported "
            "tensorflow version(s): 2.13.0, 2.14.1, 2.16.2, 2.13, 2.14, 2.16.",
            "framework_version='2.16.2'",
            True,
        ),
        # Between listed releases (the SDK's earlier words): no image to upgrade to.
        (
            f"Unsupported tensorflow version: 2.15. {_SDK_WORDS} versions. Supported "
            "version(s): 2.14.1, 2.16.2.",
            "framework_version='2.14.1'",
            False,
        ),
        # SDK 2 given neither (SDK 1 defaulted both): name both, or keep SDK 1.
        (
            "framework_version or py_version was None, yet image_uri was also None. Either "
            "specify both framework_version and py_version, or specify image_uri.",
            "sagemaker<2",
            False,
        ),
    ],
    ids=["python", "newer-release", "missing-release", "none-given"],
)
def test_the_sdks_refusal_is_fixed_from_its_own_list(
    message: str, named: str, upgrade: bool
) -> None:
    top = top_error(explained(_sdk_refusal(message)))
    assert top.cause == "platform-image-unavailable"
    fix = fix_text(top)
    assert named in fix and "py310." not in fix
    assert ("install -U sagemaker" in fix) is upgrade


def test_the_sdks_other_refusals_are_not_a_missing_image() -> None:
    text = _sdk_refusal(
        "Unsupported region: il-central-1. You may need to upgrade your SDK version (pip "
        "install -U sagemaker) for newer regions. Supported region(s): us-east-1, us-west-2."
    )
    assert all(f.cause != "platform-image-unavailable" for f in _warned(text))


# --- a hosted notebook without a GPU ----------------------------------------------------------

#: CUDA finding no device, and its diagnostics naming the host: a 12-hex name, as a Docker
#: container's default hostname is (Colab's runtime runs the kernel in one).
_NO_DEVICE = (
    "2024-06-01 10:00:00.000000: E external/local_xla/xla/stream_executor/cuda/"
    "cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device "
    "is detected\n"
    "2024-06-01 10:00:00.000000: I external/local_xla/xla/stream_executor/cuda/"
    "cuda_diagnostics.cc:134] retrieving CUDA diagnostic information for host: 3f9a1c2d4e5b\n"
    "2024-06-01 10:00:00.000000: I external/local_xla/xla/stream_executor/cuda/"
    "cuda_diagnostics.cc:141] hostname: 3f9a1c2d4e5b\n"
)


def test_colabs_own_container_is_not_one_the_user_started_without_a_gpu() -> None:
    text = "!ls /content/drive/MyDrive/proj\ntrain.py\n" + _NO_DEVICE
    top = next(iter(_warned(text)))
    assert top.cause == "hosted-runtime-without-gpu"
    assert "Hardware accelerator" in fix_text(top) and "--gpus" not in fix_text(top)


def test_the_same_lines_without_a_notebook_are_not_a_hosted_runtime() -> None:
    assert all(f.cause != "hosted-runtime-without-gpu" for f in _warned(_NO_DEVICE))


def test_a_databricks_cluster_without_a_gpu_is_told_its_compute_settings() -> None:
    text = (
        ">>> tf.config.list_physical_devices('GPU')\n[]\n"
        "File /databricks/python/lib/python3.11/site-packages/tensorflow/python/framework/"
        "config.py:471\n"
    )
    top = next(iter(_warned(text)))
    fix = fix_text(top)
    # Ranked first among the candidates: a GPU instance type with a GPU ML runtime.
    assert fix.index("GPU instance type") < fix.index("CPU-only build")
    assert "Windows" not in fix.split("2.")[0]


# --- Colab's %tensorflow_version magic --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cause", "fix"),
    [
        # The kernel imported TensorFlow before the magic: it keeps that release.
        (
            "%tensorflow_version 1.x\n"
            "TensorFlow is already loaded. Please restart the runtime to change versions.\n",
            "kernel-restart-needed",
            "Restart",
        ),
        # The TPU host refused the switch: it runs its own release against the client's.
        (
            "%tensorflow_version 2.x\nFailed to switch the TPU to TF 2.2.0\n"
            "TensorFlow 2.x selected.\n",
            "tpu-version-mismatch",
            "same TensorFlow",
        ),
    ],
    ids=["already-loaded", "tpu-not-switched"],
)
def test_the_magics_refusals_are_warnings_with_their_fix(text: str, cause: str, fix: str) -> None:
    found = finding_of(explained(text), cause)
    assert found is not None and found.severity is Severity.WARNING
    assert fix in fix_text(found)


def test_a_tpu_version_mismatch_on_colab_is_told_what_its_tpu_runtime_ships() -> None:
    """Colab's TPU runtimes ship no TensorFlow now (backend-info's pip-freeze.tpu.txt): the
    fix cannot tell the notebook to keep one; it names the TPU build to install instead."""
    text = "%tensorflow_version 2.x\nFailed to switch the TPU to TF 2.2.0\n"
    found = finding_of(explained(text), "tpu-version-mismatch")
    assert found is not None
    colab = hosted_data().image("colab")
    assert colab is not None and colab.releases[0].tpu_tensorflow is None
    fix = fix_text(found)
    assert "keep the TensorFlow the TPU runtime ships" not in fix
    assert "ship no TensorFlow" in fix and "tensorflow-tpu" in fix


def test_the_magic_with_nothing_to_switch_stays_a_note() -> None:
    text = (
        "%tensorflow_version 2.x\n"
        "Colab only includes TensorFlow 2.x; %tensorflow_version has no effect.\n"
        "Epoch 1/2\n"
    )
    assert _warned(text) == []


# --- a %pip install the running kernel has not loaded ------------------------------------------

_PIP_IN_KERNEL = (
    "%pip install tensorflow==2.15.0\n"
    "Successfully installed tensorflow-2.15.0\n"
    "Note: you may need to restart the kernel to use updated packages.\n"
)

#: pip's words for TensorFlow 2.0's preview nightly of 2019 installed in the kernel.
_PREVIEW_IN_KERNEL = (
    "%pip install tf-nightly-2.0-preview\n"
    "Successfully installed tb-nightly-1.15.0a20190801 tf-nightly-2.0-preview-2.0.0.dev20190801\n"
    "Note: you may need to restart the kernel to use updated packages.\n"
)


@pytest.mark.parametrize(
    ("text", "stale"),
    [
        # IPython's echo of another release after %pip's note: the kernel's own import.
        (_PIP_IN_KERNEL + "In [3]: tf.__version__\nOut[3]: '2.11.0'\n", ("2.11.0", "2.15.0")),
        # Databricks' words of the note.
        (
            _PIP_IN_KERNEL.replace(
                "restart the kernel", "restart the kernel using dbutils.library.restartPython()"
            )
            + "print(tf.__version__)\n2.14.0\n",
            ("2.14.0", "2.15.0"),
        ),
        # The installed release echoed: restarted already.
        (_PIP_IN_KERNEL + "print(tf.__version__)\n2.15.0\n", None),
        # No note: pip may have been another interpreter's (a shell's `!pip`).
        (
            _PIP_IN_KERNEL.replace(
                "Note: you may need to restart the kernel to use updated packages.\n", ""
            )
            + "print(tf.__version__)\n2.11.0\n",
            None,
        ),
        # The echo before the install says nothing of it.
        ("In [1]: tf.__version__\nOut[1]: '2.11.0'\n" + _PIP_IN_KERNEL, None),
        # The installed pre-release in TensorFlow's own words (its __version__ says
        # "2.16.0-rc0" and "2.16.0-dev20231103" where pip says 2.16.0rc0 and
        # 2.16.0.dev20231103): the release installed, not another.
        (
            _PIP_IN_KERNEL.replace("2.15.0", "2.16.0rc0") + "print(tf.__version__)\n2.16.0-rc0\n",
            None,
        ),
        (
            _PIP_IN_KERNEL.replace("tensorflow==2.15.0", "tf-nightly").replace(
                "tensorflow-2.15.0", "tf-nightly-2.16.0.dev20231103"
            )
            + "print(tf.__version__)\n2.16.0-dev20231103\n",
            None,
        ),
        # TensorFlow 2.0's preview nightly, whose name holds a release of its own: the kernel
        # kept its 1.14.0; the preview's own release echoed is the one installed.
        (_PREVIEW_IN_KERNEL + "print(tf.__version__)\n1.14.0\n", ("1.14.0", "2.0.0.dev20190801")),
        (_PREVIEW_IN_KERNEL + "print(tf.__version__)\n2.0.0-dev20190801\n", None),
    ],
    ids=[
        "ipython",
        "databricks",
        "restarted",
        "no-note",
        "echo-first",
        "rc",
        "nightly",
        "preview-kept",
        "preview-loaded",
    ],
)
def test_a_release_echoed_after_a_pip_run_in_the_kernel(
    text: str, stale: Optional[tuple[str, str]]
) -> None:
    found = read_stale_import(text)
    assert ((found.removed, found.installed) if found else None) == stale
    assert found is None or not found.removal_shown


def test_the_kernel_holding_its_old_import_after_pip_is_an_error_with_the_platforms_restart() -> (
    None
):
    text = (
        "/databricks/python/lib/python3.11/site-packages/tensorflow/__init__.py\n"
        + _PIP_IN_KERNEL.replace(
            "restart the kernel", "restart the kernel using dbutils.library.restartPython()"
        )
        + "print(tf.__version__)\n2.14.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "kernel-restart-needed"
    assert "2.15.0" in top.summary and "2.14.0" in top.summary
    assert "pip removed" not in top.detail  # its removal is not shown
    assert "dbutils.library.restartPython()" in fix_text(top)


# --- the image's TensorFlow replaced, with nothing failing yet --------------------------------


def _replaced(installed: str, head: str = "/content/drive/MyDrive/proj\n") -> str:
    """pip replacing Colab's TensorFlow 2.15.0 with ``installed``, in its own words."""
    return (
        f"{head}!pip install tensorflow=={installed}\n"
        "  Attempting uninstall: tensorflow\n"
        "    Found existing installation: tensorflow 2.15.0\n"
        "    Uninstalling tensorflow-2.15.0:\n"
        "      Successfully uninstalled tensorflow-2.15.0\n"
        f"Successfully installed tensorflow-{installed}\n"
    )


def test_pip_replacing_the_images_tensorflow_is_a_warning_with_the_images_fix() -> None:
    found = finding_of(explained(_replaced("2.16.1")), "hosted-tf-replaced")
    assert found is not None and found.severity is Severity.WARNING
    assert "2.15.0" in found.detail and "2.16.1" in found.detail
    assert "Disconnect and delete runtime" in fix_text(found)


@pytest.mark.parametrize(
    "text",
    [
        # The same release put back.
        _replaced("2.15.0"),
        # The user's own machine: no notebook's paths.
        _replaced("2.16.1", head="/home/user/proj\n"),
        # The user's own tf-nightly replaced: no image ships one.
        _replaced("2.16.1")
        .replace("tensorflow 2.15.0", "tf-nightly 2.17.0.dev20240301")
        .replace("tensorflow-2.15.0", "tf-nightly-2.17.0.dev20240301"),
        # The image's own build put back, its local label on both sides.
        _replaced("2.15.0+zzzcolab20240101")
        .replace("tensorflow 2.15.0\n", "tensorflow 2.15.0+zzzcolab20240101\n")
        .replace("tensorflow-2.15.0:", "tensorflow-2.15.0+zzzcolab20240101:")
        .replace(
            "uninstalled tensorflow-2.15.0\n", "uninstalled tensorflow-2.15.0+zzzcolab20240101\n"
        ),
    ],
    ids=["same-release", "no-notebook", "own-nightly", "same-build-put-back"],
)
def test_a_replacement_that_is_not_the_images_is_not_read_so(text: str) -> None:
    assert finding_of(explained(text), "hosted-tf-replaced") is None


# --- the image's TensorFlow replaced, and what fails after it ----------------------------------

#: A notebook's own frame on Colab, above the failure.
_NOTEBOOK_FRAME = (
    "Traceback (most recent call last):\n"
    '  File "/content/drive/MyDrive/proj/train.py", line 7, in <module>\n'
)
#: A companion of the image's release refusing the older TensorFlow installed over it, in
#: TensorFlow Probability's own words.
_COMPANION_REFUSES = (
    "ImportError: This version of TensorFlow Probability requires TensorFlow version >= 2.15; "
    "Detected an installation of version 2.13.1. Please upgrade TensorFlow to proceed.\n"
)
_NO_SESSION = "AttributeError: module 'tensorflow' has no attribute 'Session'\n"
#: A kernel's install whose pinned TensorFlow pip found installed, in pip's own words.
_KEPT = (
    "!pip install tensorflow==2.13.1\n"
    "Requirement already satisfied: tensorflow==2.13.1 in /usr/local/lib/python3.10/"
    "dist-packages (2.13.1)\n"
)


def _tf1_replaced(removed: str = "1.15.2", installed: str = "2.1.0") -> str:
    """pip replacing the image's TensorFlow ``removed`` with ``installed`` on Colab."""
    return _replaced(installed).replace("2.15.0", removed)


@pytest.mark.parametrize(
    ("text", "symptom", "replacement_explains"),
    [
        pytest.param(
            _replaced("2.13.1") + _NOTEBOOK_FRAME + _COMPANION_REFUSES,
            "companion-mismatch",
            True,
            id="companion-refuses",
        ),
        pytest.param(
            _tf1_replaced() + _NOTEBOOK_FRAME + _NO_SESSION,
            "api-moved-to-compat-v1",
            True,
            id="tf1-session-gone",
        ),
        pytest.param(
            _tf1_replaced() + _NOTEBOOK_FRAME + "ModuleNotFoundError: No module named "
            "'tensorflow.contrib'\n",
            "tf-contrib-removed",
            True,
            id="tf1-contrib-gone",
        ),
        # Colab's own build of TensorFlow 1 removed (its +zzzcolab label), a log cut at pip's
        # removal with the release it collected.
        pytest.param(
            "Collecting tensorflow==2.0.0\n"
            "  Attempting uninstall: tensorflow\n"
            "    Found existing installation: tensorflow 1.15.2+zzzcolab20200309\n"
            "    Uninstalling tensorflow-1.15.2+zzzcolab20200309:\n"
            "Successfully installed tensorflow-2.0.0\n" + _NOTEBOOK_FRAME + _NO_SESSION,
            "api-moved-to-compat-v1",
            True,
            id="colab-build-of-tf1-removed",
        ),
        # The image's TensorFlow was 2 already: TensorFlow 1's API was missing before the
        # install, so the code, not the install, is why.
        pytest.param(
            _replaced("2.16.1") + _NOTEBOOK_FRAME + _NO_SESSION,
            "api-moved-to-compat-v1",
            False,
            id="tf2-over-tf2",
        ),
        # The companion refused before the install, which came after as the user's try at a
        # fix: the companion's reading keeps its rank.
        pytest.param(
            _NOTEBOOK_FRAME + _COMPANION_REFUSES + _replaced("2.15.1", head="/content/proj\n"),
            "companion-mismatch",
            False,
            id="companion-before-install",
        ),
        # pip found the TensorFlow the kernel's install pins already there: nothing replaced.
        pytest.param(
            _KEPT + _NOTEBOOK_FRAME + _COMPANION_REFUSES,
            "companion-mismatch",
            False,
            id="pin-already-satisfied",
        ),
        pytest.param(
            _KEPT + _NOTEBOOK_FRAME + "tensorflow.python.framework.errors_impl.UnknownError: "
            "Failed to get convolution algorithm. This is probably because cuDNN failed to "
            "initialize, so try looking to see if a warning log message was printed above.\n",
            "gpu-library-init-failed",
            False,
            id="pin-already-satisfied-gpu",
        ),
        # The same lines on the user's own machine: no hosted image.
        pytest.param(
            _tf1_replaced().replace("/content/drive/MyDrive/proj", "/home/me/proj")
            + _NOTEBOOK_FRAME.replace("/content/drive/MyDrive/proj", "/home/me/proj")
            + _NO_SESSION,
            "api-moved-to-compat-v1",
            False,
            id="own-machine",
        ),
    ],
)
def test_a_failure_after_the_images_tensorflow_is_replaced_is_read_by_what_explains_it(
    text: str, symptom: str, replacement_explains: bool
) -> None:
    report = explained(text)
    found = finding_of(report, symptom)
    replaced = finding_of(report, "hosted-tf-replaced")
    assert found is not None
    if not replacement_explains:
        assert found.severity is Severity.ERROR
        assert replaced is None or replaced.severity is Severity.WARNING
        return
    top = top_error(report)
    assert top.cause == "hosted-tf-replaced" and "Colab" in top.summary
    assert "Disconnect and delete runtime" in fix_text(top)
    # What failed stays, second: its own fix would fit the code or the companion to the
    # TensorFlow the notebook should not keep.
    assert found.severity is Severity.WARNING


#: A kernel's pin, then a script run with Colab's working directory as an option's value and
#: cuDNN refusing the library the image carries, in cuda_dnn.cc's words.
_PIN_THEN_CUDNN_REFUSED = (
    "!pip install tensorflow==2.6.0\n"
    "Successfully installed tensorflow-2.6.0\n"
    "!python train.py --model_dir=/content/training\n"
    "2021-12-01 10:00:00.000000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:359] Loaded "
    "runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs to "
    "have matching major version and equal or higher minor version.\n"
)


@pytest.mark.parametrize(
    ("text", "hosted"),
    [
        (_PIN_THEN_CUDNN_REFUSED, True),
        (
            _PIN_THEN_CUDNN_REFUSED.replace("=/content/training", "=training").replace(
                "Successfully installed",
                "google-colab 1.0.0 requires pandas~=1.1.0, but you have pandas 1.3.5 which is "
                "incompatible.\nSuccessfully installed",
            ),
            True,
        ),
        (_PIN_THEN_CUDNN_REFUSED.replace("=/content/", "=/home/me/"), False),
    ],
    ids=["option-value", "pip-names-google-colab", "own-machine"],
)
def test_a_notebook_shown_by_an_options_path_or_pips_words_reads_the_replacement_first(
    text: str, hosted: bool
) -> None:
    report = explained(text)
    top = top_error(report)
    refused = finding_of(report, "cudnn-version-mismatch")
    assert refused is not None
    if not hosted:
        assert top.cause == "cudnn-version-mismatch"
        return
    assert top.cause == "hosted-tf-replaced" and "Colab" in top.summary
    assert "Disconnect and delete runtime" in fix_text(top)
    assert refused.severity is Severity.WARNING


#: The image's Keras asking an older TensorFlow installed over the image's for a module it
#: lacks, in CPython's words, with the Keras frame that asked.
_KERAS_ASKS = (
    '  File "/usr/local/lib/python3.10/dist-packages/keras/dtensor/__init__.py", line 22, in '
    "<module>\n"
    "    from tensorflow.compat.v2.experimental import dtensor as dtensor_api\n"
    "ImportError: cannot import name 'dtensor' from 'tensorflow.compat.v2.experimental' "
    "(/usr/local/lib/python3.10/dist-packages/tensorflow/_api/v2/compat/v2/experimental/"
    "__init__.py)\n"
)


@pytest.mark.parametrize(
    ("text", "replacement_explains"),
    [
        pytest.param(
            _replaced("2.8.0") + _NOTEBOOK_FRAME + _KERAS_ASKS, True, id="images-keras-left"
        ),
        # pip installed a Keras of its own with the TensorFlow: not the image's Keras.
        pytest.param(
            _replaced("2.8.0").replace(
                "Successfully installed tensorflow-2.8.0",
                "Successfully installed keras-2.9.0 tensorflow-2.8.0",
            )
            + _NOTEBOOK_FRAME
            + _KERAS_ASKS,
            False,
            id="keras-installed-too",
        ),
        pytest.param(
            _replaced("2.8.0", head="/home/me/proj\n")
            + _NOTEBOOK_FRAME.replace("/content/drive/MyDrive/proj", "/home/me/proj")
            + _KERAS_ASKS,
            False,
            id="own-machine",
        ),
        # The image's own build put back, its local label on both sides: nothing replaced.
        pytest.param(
            _replaced("2.15.0+zzzcolab20240101").replace(
                "tensorflow 2.15.0\n", "tensorflow 2.15.0+zzzcolab20240101\n"
            )
            + _NOTEBOOK_FRAME
            + _KERAS_ASKS,
            False,
            id="same-build-put-back",
        ),
    ],
)
def test_the_images_keras_refusing_the_tensorflow_put_over_it_is_the_replacement(
    text: str, replacement_explains: bool
) -> None:
    report = explained(text)
    keras = finding_of(report, "keras-version")
    assert keras is not None
    if not replacement_explains:
        assert top_error(report).cause == "keras-version"
        return
    top = top_error(report)
    assert top.cause == "hosted-tf-replaced" and "Colab" in top.summary
    assert "pip removed TensorFlow 2.15.0 and installed 2.8.0" in top.detail
    assert "Disconnect and delete runtime" in fix_text(top)
    assert keras.severity is Severity.WARNING


def test_a_line_two_gpu_readings_share_is_cited_once_under_the_replacement() -> None:
    # "DNN library is not found" is read for a cuDNN not loaded and for one of another release.
    failed = "  (0) UNIMPLEMENTED:  DNN library is not found.\n"
    top = top_error(explained(_replaced("2.16.1") + failed))
    assert top.cause == "hosted-tf-replaced"
    assert top.detail.count("DNN library is not found") == 1


def test_tensorflow_1s_api_gone_is_read_from_pips_removal_of_the_images_release() -> None:
    found = finding_of(
        explained(_tf1_replaced() + _NOTEBOOK_FRAME + _NO_SESSION), "hosted-tf-replaced"
    )
    assert found is not None
    assert "pip removed TensorFlow 1.15.2 and installed 2.1.0" in found.detail


def test_pips_found_existing_line_alone_reads_the_replacement_as_its_uninstall_does() -> None:
    # One reader of pip removing the image's TensorFlow: a log that keeps only pip's "Found
    # existing installation" line (its uninstall lines cut) reads as the whole run does.
    cut = _replaced("2.16.1").replace("    Uninstalling tensorflow-2.15.0:\n", "")
    cut = cut.replace("      Successfully uninstalled tensorflow-2.15.0\n", "")
    found = finding_of(explained(cut), "hosted-tf-replaced")
    assert found is not None and found.severity is Severity.WARNING
    assert "Found existing installation: tensorflow 2.15.0" in found.detail


@pytest.mark.parametrize(
    ("text", "read"),
    [
        pytest.param(_tf1_replaced(), ("1.15.2", "2.1.0"), id="tf1-to-tf2"),
        pytest.param(_tf1_replaced(installed="1.15.5"), None, id="tf1-to-tf1"),
        pytest.param(_replaced("2.16.1"), None, id="tf2-to-tf2"),
        # The release installed is not shown: nothing says TensorFlow 2 came in.
        pytest.param(
            "!pip install tf-nightly\n"
            "    Found existing installation: tensorflow 1.15.2\n"
            "      Successfully uninstalled tensorflow-1.15.2\n",
            None,
            id="installed-release-unshown",
        ),
        # A nightly of the user's own removed: no image ships one.
        pytest.param(
            _tf1_replaced()
            .replace("tensorflow 1.15.2", "tf-nightly 1.15.0.dev20190801")
            .replace("tensorflow-1.15.2", "tf-nightly-1.15.0.dev20190801"),
            None,
            id="nightly-removed",
        ),
    ],
)
def test_tensorflow_1_replaced_by_2_is_read_from_pips_own_lines(
    text: str, read: Optional[tuple[str, str]]
) -> None:
    assert tf1_replaced_by_tf2(scan([split_text(text)], SIGNATURES)) == read


# --- TensorFlow on a Cloud TPU VM --------------------------------------------------------------


def _tpu_vm_init(site: str) -> str:
    """initialize_tpu_system finding no TPU device on a TPU VM, TensorFlow under ``site``."""
    return (
        "me@t1v-n-0a1b2c3d-w-0:~$ python3 train.py\n"
        "Traceback (most recent call last):\n"
        '  File "/home/me/train.py", line 4, in <module>\n'
        "    tf.tpu.experimental.initialize_tpu_system(resolver)\n"
        f'  File "{site}/tensorflow/python/tpu/tpu_strategy_util.py", line 111, in '
        "initialize_tpu_system\n"
        "    raise errors.NotFoundError(\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: TPUs not found in the cluster. "
        "Failed in initialization: No matching devices found for '/device:TPU_SYSTEM:0'\n"
    )


def test_a_tpu_vm_whose_user_installed_tensorflow_sees_no_tpu_needs_the_tpu_build() -> None:
    top = top_error(explained(_tpu_vm_init("/home/me/venv/lib/python3.10/site-packages")))
    assert top.cause == "tpu-tf-without-libtpu"
    assert "tensorflow-tpu" in fix_text(top) and "libtpu-tf-releases" in fix_text(top)


def test_a_tpu_vm_whose_log_installs_the_tpu_build_is_not_told_to_install_it() -> None:
    # Cloud TPU's guide installs tensorflow-tpu with pip as the VM's user: into a
    # site-packages directory too. The log shows it there: its build is not what is missing.
    text = (
        "me@t1v-n-0a1b2c3d-w-0:~$ pip install tensorflow-tpu==2.16.1 -f "
        "https://storage.googleapis.com/libtpu-tf-releases/index.html\n"
        "Successfully installed libtpu-2.16.1 tensorflow-tpu-2.16.1\n"
    ) + _tpu_vm_init("/home/me/.local/lib/python3.10/site-packages")
    assert top_error(explained(text)).cause == "tpu-not-found"


@pytest.mark.parametrize(
    "text",
    [
        # The image's own TensorFlow (system dist-packages): the resolver, not the build.
        _tpu_vm_init("/usr/local/lib/python3.10/dist-packages"),
        # No TPU VM shown: a runtime without a TPU is as likely.
        _tpu_vm_init("/home/me/venv/lib/python3.10/site-packages").replace(
            "me@t1v-n-0a1b2c3d-w-0:~$ ", "$ "
        ),
    ],
    ids=["image-tensorflow", "no-tpu-vm"],
)
def test_a_tpu_not_found_elsewhere_stays_not_found(text: str) -> None:
    assert top_error(explained(text)).cause == "tpu-not-found"


# --- a pin Colab's Python has no wheel of ----------------------------------------------------

#: pip on Colab's runtime naming Colab's own wheel index first, then refusing a pin whose
#: wheels end before the runtime's Python.
_COLAB_PIN = (
    "!pip install tensorflow==2.12.0\n"
    "Looking in indexes: https://pypi.org/simple, "
    "https://us-python.pkg.dev/colab-wheels/public/simple/\n"
    "ERROR: Could not find a version that satisfies the requirement tensorflow==2.12.0 (from "
    "versions: 2.16.0rc0, 2.16.1, 2.16.2, 2.17.0, 2.17.1, 2.18.0, 2.19.0)\n"
    "ERROR: No matching distribution found for tensorflow==2.12.0\n"
)


def test_a_pin_colabs_python_cannot_install_names_the_runtime_version_of_its_python() -> None:
    top = top_error(explained(_COLAB_PIN))
    assert top.cause == "tf-release-not-for-python"
    fix = fix_text(top)
    # The fixture matrix's 2.12 serves Python 3.8-3.11: Colab's newest runtime on 3.11.
    assert "runtime version 2025.07" in fix and "Runtime version" in fix


#: TensorFlow creating its GPU device, as a notebook on a GPU runtime logs it before the pin
#: (gpu_device.cc's "Created device ... compute capability" line).
_GPU_CREATED = (
    "2025-07-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:2021] "
    "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 13942 MB memory:  -> "
    "device: 0, name: Tesla T4, pci bus id: 0000:00:04.0, compute capability: 7.5\n"
)


@pytest.mark.parametrize(
    ("version", "said", "wheels"),
    [
        # 2.12 loads CUDA 11 and cuDNN 8, the runtime's TensorFlow 2.18 CUDA 12 and cuDNN 9;
        # 2.12 has no and-cuda extra: no wheel to bring them.
        pytest.param("2.12.0", "CUDA 11.8 and cuDNN 8.6", False, id="no-cuda-wheels"),
        # 2.15: CUDA 12 too, but cuDNN 8; its and-cuda extra brings its own.
        pytest.param("2.15.0", "CUDA 12.2 and cuDNN 8.9", True, id="and-cuda"),
    ],
)
def test_a_pin_on_a_gpu_runtime_says_the_runtime_version_leaves_no_gpu(
    version: str, said: str, wheels: bool
) -> None:
    text = _GPU_CREATED + _COLAB_PIN.replace("2.12.0", version)
    fix = fix_text(top_error(explained(text)))
    assert "runtime version 2025.07" in fix
    assert f"loads {said}" in fix and "finds no GPU there" in fix
    assert ('"tensorflow[and-cuda]==' + version + '"' in fix) is wheels
    assert "keep the GPU" in fix


def test_a_pin_without_a_gpu_shown_gets_no_gpu_words() -> None:
    assert "finds no GPU" not in fix_text(top_error(explained(_COLAB_PIN)))


def test_a_pin_no_kaggle_runtime_serves_is_sent_off_kaggle_not_to_a_local_runtime() -> None:
    text = (
        _COLAB_PIN.replace(", https://us-python.pkg.dev/colab-wheels/public/simple/", "")
        + 'File "/kaggle/working/train.py", line 1\n'
    )
    fix = fix_text(top_error(explained(text)))
    assert "no runtime version Kaggle Notebooks offers" in fix
    assert "local runtime" not in fix and "off Kaggle Notebooks" in fix


def test_the_same_pin_off_a_hosted_notebook_gets_no_runtime_version() -> None:
    text = _COLAB_PIN.replace(", https://us-python.pkg.dev/colab-wheels/public/simple/", "")
    assert "runtime version" not in fix_text(top_error(explained(text)))


# --- a SageMaker job on an instance type without a GPU -----------------------------------------


def _sagemaker_job(instance: str) -> str:
    """The training toolkit's environment of a job on ``instance``, TensorFlow listing no GPU."""
    return (
        "2024-02-01 10:00:00,000 sagemaker-training-toolkit INFO     Invoking user script\n"
        "Training Env:\n{\n"
        '    "current_host": "algo-1",\n'
        f'    "current_instance_type": "{instance}",\n'
        '    "num_gpus": 0\n}\n'
        "Traceback (most recent call last):\n"
        '  File "/opt/ml/code/train.py", line 8, in <module>\n'
        "    gpus = tf.config.list_physical_devices('GPU')\n"
        ">>> tf.config.list_physical_devices('GPU')\n[]\n"
    )


def test_a_job_on_an_instance_type_without_a_gpu_is_told_one_with_a_gpu() -> None:
    top = top_error(explained(_sagemaker_job("ml.m5.xlarge")))
    assert top.cause == "hosted-runtime-without-gpu"
    fix = fix_text(top)
    assert "ml.m5.xlarge" in fix and "ml.g* or ml.p*" in fix


@pytest.mark.parametrize("instance", ["ml.g5.xlarge", "ml.p3.2xlarge"])
def test_a_job_on_a_gpu_instance_type_is_not_sent_to_another(instance: str) -> None:
    found = _warned(_sagemaker_job(instance))
    assert found and "ml.g* or ml.p*" not in fix_text(found[0])


@pytest.mark.parametrize(
    ("line", "instance"),
    [
        ('        "current_instance_type": "ml.c5.xlarge",', "ml.c5.xlarge"),
        ("export SM_CURRENT_INSTANCE_TYPE='ml.t3.xlarge'", "ml.t3.xlarge"),
        ('    instance_type="ml.g4dn.xlarge",', "ml.g4dn.xlarge"),
        # The toolkit's own word on the job outranks the code around it (an endpoint's
        # instance_type quoted before the job's log).
        (
            "predictor = estimator.deploy(instance_type='ml.m5.xlarge')\n"
            '    "current_instance_type": "ml.p3.2xlarge",',
            "ml.p3.2xlarge",
        ),
        # Code naming two instance types (a job's and an endpoint's) does not say which ran.
        (
            "estimator = TensorFlow(instance_type='ml.p3.2xlarge')\n"
            "predictor = estimator.deploy(instance_type='ml.m5.xlarge')",
            None,
        ),
        # A size alone, or another cloud's machine type, is no SageMaker instance.
        ("instance_type: xlarge", None),
        ("machine_type='n1-standard-8'", None),
    ],
)
def test_the_sagemaker_instance_type_is_read_where_the_toolkit_or_the_sdk_names_it(
    line: str, instance: Optional[str]
) -> None:
    assert sagemaker_instance_type(line) == instance


@pytest.mark.parametrize(
    ("instance", "without"),
    [
        ("ml.m5.xlarge", True),
        ("ml.inf1.xlarge", True),  # Inferentia: AWS's own chip, no NVIDIA GPU
        ("ml.trn1.2xlarge", True),
        ("ml.g4dn.xlarge", False),
        ("ml.p4d.24xlarge", False),
        ("m5.xlarge", False),  # not SageMaker's name
        ("ml.zz9.large", False),  # a family the table does not list is not judged
    ],
)
def test_sagemakers_gpu_families_are_p_and_g(instance: str, without: bool) -> None:
    assert instance_without_gpu(instance) is without


def _sagemaker_deploy(instance: str, script: str = "/opt/ml/processing/input/code/") -> str:
    """A processing job's code on ``instance`` as the log quotes it, and the GPU build's
    import failing for want of the driver's libcuda in the script at ``script`` (the job's
    code directory, where ScriptProcessor puts it)."""
    return (
        f'>>> processor = ScriptProcessor(instance_count=1, instance_type="{instance}")\n'
        "Traceback (most recent call last):\n"
        f'  File "{script}preprocess.py", line 2, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"
    )


def test_a_gpu_build_on_an_instance_type_without_a_gpu_is_the_instance_or_the_cpu_build() -> None:
    top = top_error(explained(_sagemaker_deploy("ml.c5.2xlarge")))
    assert top.cause == "hosted-runtime-without-gpu"
    fix = fix_text(top)
    assert "ml.g* or ml.p*" in fix and "keep ml.c5.2xlarge" in fix and "CPU build" in fix
    assert "run the notebook" not in fix


def test_the_same_import_failure_on_a_gpu_instance_type_is_not_the_instance() -> None:
    report = explained(_sagemaker_deploy("ml.g5.xlarge"))
    assert finding_of(report, "hosted-runtime-without-gpu") is None


def test_an_instance_type_the_code_passes_the_sdk_does_not_put_the_log_on_sagemaker() -> None:
    # The code that launches a job runs wherever its user is: a script of the user's own
    # failing beside it is that machine's, not the instance type's.
    report = explained(_sagemaker_deploy("ml.c5.2xlarge", "/home/me/proj/"))
    assert finding_of(report, "hosted-runtime-without-gpu") is None
    local = (
        'estimator = TensorFlow(entry_point="train.py", instance_type="ml.m5.xlarge")\n'
        "$ python launch.py\n"
        "ImportError: libcudart.so.10.0: cannot open shared object file: No such file or "
        "directory\n"
    )
    assert "SageMaker" not in top_error(explained(local)).summary


@pytest.mark.parametrize(
    "failed",
    [
        # The SDK's UnexpectedStatusException for an endpoint, and the service's reason.
        "UnexpectedStatusException: Error hosting endpoint tf-ep: Failed. Reason: The primary "
        "container for production variant AllTraffic did not pass the ping health check.",
        # The same exception for a job (session.py's _check_job_status).
        "UnexpectedStatusException: Error for Training job tf-job: Failed. Reason: "
        "AlgorithmError: ExecuteUserScriptError:",
    ],
)
def test_sagemakers_word_that_the_job_failed_puts_the_sdks_instance_type_under_it(
    failed: str,
) -> None:
    log = (
        "predictor = estimator.deploy(initial_instance_count=1, instance_type='ml.c5.large')\n"
        f"{failed}\n"
        "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"
    )
    assert sagemaker_job_instance_type(log) == "ml.c5.large"
    top = top_error(explained(log))
    assert top.cause == "hosted-runtime-without-gpu" and "keep ml.c5.large" in fix_text(top)


@pytest.mark.parametrize(
    ("host", "mismatch"),
    # A TPU node's worker runs the TPU's own TensorFlow; a TPU VM's host runs the client's.
    [("n-0a1b2c3d-w-0", True), ("t1v-n-0a1b2c3d-w-0", False)],
)
def test_an_op_the_tpu_workers_binary_lacks_is_another_release(host: str, mismatch: bool) -> None:
    text = (
        "tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered "
        f"'XlaSetDynamicDimensionSize' in binary running on {host}. Make sure the Op and "
        "Kernel are registered in the binary running in this process.\n"
    )
    found = finding_of(explained(text), "tpu-version-mismatch")
    assert (found is not None and found.severity is Severity.ERROR) is mismatch


#: TensorFlow's own lines as it connects to a TPU on another host (tpu_strategy_util.py,
#: tpu_system_metadata.py).
_REMOTE_TPU = (
    "INFO:tensorflow:Initializing the TPU system: grpc://10.2.3.4:8470\n"
    "INFO:tensorflow:Found TPU system:\n"
    "INFO:tensorflow:*** Num TPU Cores: 8\n"
)
_WORKER_DEVICE = (
    "INFO:tensorflow:*** Available Device: _DeviceAttributes(/job:worker/replica:0/task:0/"
    "device:TPU:0, TPU, 0, 0)\n"
)
_LOCAL_DEVICE = _WORKER_DEVICE.replace("/job:worker/", "/job:localhost/")
#: The node check's refusals, one cut before the op it names.
_INPUTS_CUT = (
    "InvalidArgumentError: NodeDef expected inputs 'int32, float' do not match 3 inputs "
    "specified;\n"
)
_ATTR = (
    "InvalidArgumentError: NodeDef mentions attr 'half_pixel_centers' not in "
    "Op<name=ResizeBilinear; signature=images:T, size:int32 -> resized_images:float; "
    "attr=T:type>; NodeDef: {{node resize/ResizeBilinear}}\n"
)


@pytest.mark.parametrize("shown", [_REMOTE_TPU, _WORKER_DEVICE], ids=["grpc-master", "worker-tpu"])
@pytest.mark.parametrize("refusal", [_INPUTS_CUT, _ATTR], ids=["inputs-cut", "attr"])
def test_a_node_a_remote_tpus_tensorflow_refuses_is_another_release(
    shown: str, refusal: str
) -> None:
    top = top_error(explained(shown + refusal))
    assert top.cause == "tpu-version-mismatch"
    assert "same TensorFlow on the client as on the TPU" in fix_text(top)


@pytest.mark.parametrize("shown", ["", _LOCAL_DEVICE], ids=["no-tpu", "tpu-in-process"])
def test_the_same_refusal_without_a_remote_tpu_is_a_graph_of_another_release(shown: str) -> None:
    assert top_error(explained(shown + _INPUTS_CUT)).cause == "op-not-registered"


@pytest.mark.parametrize("shown", [_REMOTE_TPU, _WORKER_DEVICE], ids=["grpc-master", "worker-tpu"])
def test_the_clients_own_import_refusing_a_node_is_a_graph_of_another_release(shown: str) -> None:
    # importer.py raises the client's refusal as a ValueError: the client's release refused.
    refusal = (
        "Traceback (most recent call last):\n"
        '  File "/content/run.py", line 9, in <module>\n'
        "    tf.import_graph_def(graph_def, name='')\n"
        "ValueError: NodeDef mentions attr 'explicit_paddings' not in Op<name=Conv2D; "
        "signature=input:T, filter:T -> output:T; attr=T:type>; NodeDef: {{node c/Conv2D}}.\n"
    )
    assert top_error(explained(shown + refusal)).cause == "op-not-registered"


#: An earlier cell's install that found the image's TensorFlow there, in pip's own words.
_EARLIER_CELL_KEPT = (
    "!pip install tensorflow-datasets\n"
    "Requirement already satisfied: tensorflow in /usr/local/lib/python3.10/dist-packages "
    "(2.15.0)\n"
)
_UPGRADE = "!pip install --upgrade tensorflow\n"
_SATISFIED = (
    "Requirement already satisfied: tensorflow in /usr/local/lib/python3.10/dist-packages "
    "(2.15.0)\n"
)


@pytest.mark.parametrize(
    ("text", "replacement_explains"),
    [
        pytest.param(
            "/content/proj\n"
            + _EARLIER_CELL_KEPT
            + _UPGRADE
            + _NOTEBOOK_FRAME
            + _COMPANION_REFUSES,
            True,
            id="satisfied-in-an-earlier-cell",
        ),
        pytest.param(
            "/content/proj\n" + _UPGRADE + _SATISFIED + _NOTEBOOK_FRAME + _COMPANION_REFUSES,
            False,
            id="satisfied-by-this-install",
        ),
    ],
)
def test_only_pips_lines_after_the_kernels_install_say_it_kept_tensorflow(
    text: str, replacement_explains: bool
) -> None:
    # pip's "Requirement already satisfied" of an earlier cell's install says nothing of
    # what a later install of TensorFlow itself did.
    report = explained(text)
    replaced = finding_of(report, "hosted-tf-replaced")
    assert (replaced is not None and replaced.severity is Severity.ERROR) is replacement_explains
