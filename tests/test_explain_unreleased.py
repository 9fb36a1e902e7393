"""An exception nothing else explains, in a log whose TensorFlow is a pre-release (an rc, an
alpha or a beta) or a nightly build: the build's own defect is a candidate, a warning, with
the final release (or an earlier nightly) as its fix."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, finding_of, fix_text
from tfdoctor.causes.runtime import (
    TF_BUILD_REGRESSION,
    TF_PRERELEASE_REGRESSION,
    unreleased_build,
)
from tfdoctor.findings import Severity

_FAILURE = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 12, in <module>\n'
    "    main()\n"
    "ValueError: Shapes (None, 4) and (None, 5) are incompatible\n"
)


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("2.16.0rc0", (TF_PRERELEASE_REGRESSION, "2.16.0")),
        ("2.0.0a0", (TF_PRERELEASE_REGRESSION, "2.0.0")),
        ("2.0.0b1", (TF_PRERELEASE_REGRESSION, "2.0.0")),
        ("2.16.0-rc0", (TF_PRERELEASE_REGRESSION, "2.16.0")),
        ("2.13.0.dev20230428", (TF_BUILD_REGRESSION, "2.13.0")),
        ("2.16.1", None),
        ("1.15.5", None),
    ],
)
def test_unreleased_builds_are_read_from_the_version(
    version: str, expected: Optional[tuple[str, str]]
) -> None:
    assert unreleased_build(version) == expected


def test_a_release_candidate_beside_an_unexplained_exception_is_a_candidate() -> None:
    report = explained("Successfully installed tensorboard-1.8.0 tensorflow-1.8.0rc0\n" + _FAILURE)
    found = finding_of(report, "tf-prerelease-regression")
    assert found is not None and found.severity is Severity.WARNING
    fix = fix_text(found)
    assert "--pre" in fix and 'tensorflow==1.8.*"' in fix
    # pip keeps an installed pre-release that meets the pin: only --upgrade replaces it.
    assert 'pip install --upgrade "tensorflow==1.8.*"' in fix


def test_a_nightly_beside_an_unexplained_exception_is_a_candidate() -> None:
    report = explained("Successfully installed tf-nightly-2.13.0.dev20230428\n" + _FAILURE)
    found = finding_of(report, "tf-build-regression")
    assert found is not None and found.severity is Severity.WARNING
    assert "pip index versions --pre tf-nightly" in fix_text(found)


@pytest.mark.parametrize(
    "text",
    [
        # A final release: nothing unreleased to blame.
        "Successfully installed tensorflow-2.16.1\n" + _FAILURE,
        # A pre-release asked for, then a final release installed: the final one ran.
        "$ pip install tensorflow==2.16.0rc0\n^C\n"
        "$ pip install tensorflow\nSuccessfully installed tensorflow-2.16.1\n" + _FAILURE,
        # The release candidate replaced by the final release before the run.
        "Successfully installed tensorflow-2.17.0rc0\n"
        "Successfully uninstalled tensorflow-2.17.0rc0\n"
        "Successfully installed tensorflow-2.17.0\n" + _FAILURE,
        # A failure another cause explains keeps that cause alone.
        "Successfully installed tensorflow-2.16.0rc0\n"
        "ImportError: libcudart.so.12: cannot open shared object file: No such file or "
        "directory\n",
    ],
)
def test_no_unreleased_candidate_where_none_ran_or_another_cause_explains(text: str) -> None:
    report = explained(text)
    assert finding_of(report, "tf-prerelease-regression") is None
    assert finding_of(report, "tf-build-regression") is None


# --- a CUDA library or cuDNN failing under a nightly build ----------------------------------------

#: "DNN library is not found" as TensorFlow raises it for a convolution.
_NO_DNN = (
    "Node: 'sequential/conv1d/Conv1D'\n"
    "DNN library is not found.\n"
    "\t [[{{node sequential/conv1d/Conv1D}}]] [Op:__inference_train_function_1234]\n"
)
_NIGHTLY_IMAGE_RUN = (
    "$ docker run --gpus all -it --rm tensorflow/tensorflow:nightly-gpu python x.py\n"
)


@pytest.mark.parametrize(
    ("run", "failure", "release"),
    [
        pytest.param(_NIGHTLY_IMAGE_RUN, _NO_DNN, "tensorflow/tensorflow:latest-gpu", id="no-dnn"),
        pytest.param(
            "$ podman run --device nvidia.com/gpu=all -it "
            "tensorflow/tensorflow:nightly-gpu-jupyter\n",
            "W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could "
            "not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open "
            "shared object file: No such file or directory\n",
            "tensorflow/tensorflow:latest-gpu-jupyter",
            id="cudnn-not-loaded",
        ),
    ],
)
def test_tensorflows_nightly_image_failing_its_gpu_libraries_is_the_builds(
    run: str, failure: str, release: str
) -> None:
    report = explained(run + failure)
    top = report.findings[0]
    assert top.cause == "tf-build-regression" and top.severity is Severity.ERROR
    assert release in fix_text(top)
    # The machine's libraries play no part in the image: their findings come second.
    assert all(x.severity is not Severity.ERROR for x in report.findings if x.cause != top.cause)


@pytest.mark.parametrize(
    "run",
    [
        pytest.param(
            "$ docker run --gpus all -it --rm tensorflow/tensorflow:latest-gpu python x.py\n",
            id="release-image",
        ),
        pytest.param(
            "$ docker run --gpus all -it --rm tensorflow/tensorflow:2.15.0-gpu python x.py\n",
            id="release-tag",
        ),
        pytest.param(
            _NIGHTLY_IMAGE_RUN + "$ pip install tensorflow==2.13.0\n"
            "Successfully installed tensorflow-2.13.0\n",
            id="release-installed-over-the-nightly",
        ),
        pytest.param(
            "$ docker run -it --rm tensorflow/tensorflow:nightly-gpu python x.py\n",
            id="run-without-gpu-flags",
        ),
        # The CPU image has no CUDA libraries whatever its tag: not a nightly's defect.
        pytest.param(
            "$ docker run --gpus all -it --rm tensorflow/tensorflow:nightly python x.py\n",
            id="cpu-nightly-image",
        ),
    ],
)
def test_no_nightly_reading_where_the_image_or_its_tensorflow_is_a_release(run: str) -> None:
    assert finding_of(explained(run + _NO_DNN), "tf-build-regression") is None


def test_a_nightly_shown_beside_a_gpu_library_failure_is_the_other_candidate() -> None:
    report = explained(">>> tf.__version__\n'2.15.0-dev20230816'\n" + _NO_DNN)
    assert report.findings[0].cause != "tf-build-regression"
    assert report.findings[0].severity is Severity.ERROR
    found = finding_of(report, "tf-build-regression")
    assert found is not None and found.severity is Severity.WARNING
    assert "pip index versions --pre tf-nightly" in fix_text(found)


def test_a_release_shown_beside_a_gpu_library_failure_gives_no_nightly_candidate() -> None:
    report = explained(">>> tf.__version__\n'2.13.0'\n" + _NO_DNN)
    assert finding_of(report, "tf-build-regression") is None


def test_a_cudnn_handle_refused_in_the_nightly_image_keeps_the_hosts_candidates() -> None:
    # cuDNN loaded and its handle failed with the GPU's memory taken: memory, the driver and
    # the GPU come first, which no image tag changes.
    report = explained(
        _NIGHTLY_IMAGE_RUN
        + "E tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:433] Could not create "
        "cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n"
        "E tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:442] Memory usage: 1245184 "
        "bytes free, 8366784512 bytes total.\n"
        "tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution "
        "algorithm. This is probably because cuDNN failed to initialize, so try looking to see "
        "if a warning log message was printed above.\n"
    )
    assert report.findings[0].cause == "gpu-library-init-failed"
    assert report.findings[0].severity is Severity.ERROR
    assert finding_of(report, "tf-build-regression") is None


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param(">>> tf.__version__\n'2.15.0-dev20230816'\n", id="echoed"),
        pytest.param(
            "### TensorFlow version\n\n2.15.0-dev20230816\n\n### Current behavior?\n\n",
            id="issue-form",
        ),
    ],
)
def test_a_nightly_read_from_its_version_alone_is_fixed_as_tf_nightly(shown: str) -> None:
    # Nightly builds are published as tf-nightly: removing "tensorflow" would leave the
    # nightly in place, and no "tensorflow" release carries a nightly's version.
    report = explained(shown + _NO_DNN)
    found = finding_of(report, "tf-build-regression")
    assert found is not None and "pip uninstall -y tf-nightly" in fix_text(found)
    assert not any("tensorflow==2.15.0.dev" in fix_text(x) for x in report.findings)
    assert not any("tensorflow[and-cuda]==2.15.0.dev" in fix_text(x) for x in report.findings)


# --- a nightly build lacking a name of its own package ------------------------------------------


def test_a_companions_nightly_version_with_its_hour_is_a_nightly() -> None:
    # keras-nightly writes YYYYMMDDHH after .dev (keras-team/keras pip_build.py).
    assert unreleased_build("3.3.3.dev2024061903") == (TF_BUILD_REGRESSION, "3.3.3")


#: A listing as `pip list` prints it: TensorFlow's nightly beside Keras' own.
_NIGHTLIES = (
    "tf-nightly                   2.17.0.dev20240501\n"
    "keras-nightly                3.5.0.dev2024080102\n"
)


def test_a_keras_nightly_lacking_a_module_its_releases_have_is_the_builds() -> None:
    report = explained(
        "Traceback (most recent call last):\n"
        '  File "fit.py", line 2, in <module>\n'
        "    import keras.callbacks\n"
        "ModuleNotFoundError: No module named 'keras.callbacks'\n\n" + _NIGHTLIES
    )
    top = report.findings[0]
    assert top.cause == "tf-build-regression" and top.severity is Severity.ERROR
    assert "keras-nightly 3.5.0.dev2024080102" in top.summary
    fix = fix_text(top)
    assert "pip index versions --pre keras-nightly" in fix
    # tf-nightly requires keras-nightly: the stable path replaces both, never keras beside it.
    assert "pip uninstall -y tf-nightly keras-nightly" in fix and "pip install tensorflow" in fix
    assert "pip install keras" not in fix
    assert "tf-keras" not in fix and "TF_USE_LEGACY_KERAS" not in fix
    # The API readings of the name are second, never a lead.
    assert all(x.severity is not Severity.ERROR for x in report.findings[1:])


def test_a_tf_nightly_lacking_a_name_of_its_line_is_the_builds() -> None:
    report = explained(
        "AttributeError: module 'tensorflow' has no attribute 'function'\n" + _NIGHTLIES
    )
    top = report.findings[0]
    assert top.cause == "tf-build-regression" and top.severity is Severity.ERROR
    assert "pip index versions --pre tf-nightly" in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        # The line's release lacks the name too (2.16 removed tf.estimator): the code's.
        "AttributeError: module 'tensorflow' has no attribute 'estimator'\n"
        "tf-nightly                   2.16.0.dev20231201\n",
        # A release of Keras, no nightly: the API readings judge it.
        "ModuleNotFoundError: No module named 'keras.callbacks'\n"
        "keras                        3.5.0\n",
        # The nightly is Keras', the name TensorFlow's: no build of Keras lacks it.
        "AttributeError: module 'tensorflow' has no attribute 'function'\n"
        "tensorflow                   2.17.0\nkeras-nightly                3.5.0.dev2024080102\n",
        # No release of the line has the name: the code's, whatever the build.
        "ImportError: cannot import name 'NoSuchLayer' from 'keras.layers'\n" + _NIGHTLIES,
        # The release installed beside the nightly writes the same package: whose files the
        # import read is not known, and the two side by side are a cause of their own.
        "ModuleNotFoundError: No module named 'keras.callbacks'\n"
        "keras                        3.5.0\n" + _NIGHTLIES,
        "AttributeError: module 'tensorflow' has no attribute 'function'\n"
        "tensorflow                   2.17.0\n"
        "tf-nightly                   2.17.0.dev20240501\n",
        # A release TensorFlow's import ranks after the nightly (tensorflow-intel) writes the
        # same package too.
        "AttributeError: module 'tensorflow' has no attribute 'function'\n"
        "tensorflow-intel             2.17.0\n"
        "tf-nightly                   2.17.0.dev20240501\n",
    ],
)
def test_no_build_defect_where_the_lines_release_lacks_the_name_or_no_nightly_has_it(
    text: str,
) -> None:
    found = finding_of(explained(text), "tf-build-regression")
    assert found is None or found.severity is not Severity.ERROR


@pytest.mark.parametrize(
    "text",
    [
        # 2.17 added tf.sparse.sampled_addmm: a nightly built early in 2.17's cycle lacks it
        # before anyone added it, no defect of that build.
        "AttributeError: module 'tensorflow.sparse' has no attribute 'sampled_addmm'\n"
        "tf-nightly                   2.17.0.dev20240101\n",
        # Keras' nightlies carried the last release's version (keras/src/version.py): a build
        # past the newest listed line is on the way to a release no listing shows, which may
        # have dropped the name.
        "ModuleNotFoundError: No module named 'keras.callbacks'\n"
        "keras-nightly                3.15.1.dev2026070103\n",
    ],
)
def test_no_build_defect_for_a_name_the_build_may_rightly_lack(text: str) -> None:
    found = finding_of(explained(text), "tf-build-regression")
    assert found is None or found.severity is not Severity.ERROR


def test_a_keras_nightly_alone_is_replaced_by_the_keras_release() -> None:
    report = explained(
        "ModuleNotFoundError: No module named 'keras.callbacks'\n"
        "tensorflow                   2.17.0\n"
        "keras-nightly                3.5.0.dev2024080102\n"
    )
    found = finding_of(report, "tf-build-regression")
    assert found is not None
    fix = fix_text(found)
    assert "pip uninstall -y keras-nightly" in fix and "pip install keras" in fix


def test_a_tf_nightlys_stable_path_removes_the_nightlies_it_requires() -> None:
    report = explained(
        "AttributeError: module 'tensorflow' has no attribute 'function'\n"
        "tf-nightly                   2.17.0.dev20240501\n"
    )
    found = finding_of(report, "tf-build-regression")
    assert found is not None
    # Left behind, keras-nightly and the keras release TensorFlow brings write one package.
    assert "uninstall -y tf-nightly keras-nightly tb-nightly" in fix_text(found)
