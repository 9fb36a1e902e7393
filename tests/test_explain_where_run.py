"""Where and how TensorFlow is run, read further: a CI runner's Python setup that offers no
Python of the version pinned, a managed platform's image that was never published, files of
two TensorFlow releases in one tree, a package imported first breaking TensorFlow's generated
op wrappers, an import the user says never returns, Colab's GPU check raised in a cell, a
TensorBoard launch cut off after a nightly install, and a module another library needs."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Severity


def _causes(text: str) -> list[str]:
    """The causes of the findings at warning or above."""
    return [
        f.cause or "" for f in explained(text).findings if f.severity.rank >= Severity.WARNING.rank
    ]


def test_setup_python_without_the_pinned_patch_names_the_minor() -> None:
    text = (
        "Run actions/setup-python@v2\n"
        "2021-05-04T08:00:01.0000000Z ##[error]Version 3.7.4 with arch x64 not found\n"
        "Available versions:\n"
        "3.7.10 (x64)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "ci-python-version-unavailable"
    assert "'3.7'" in fix_text(top) and "python-version" in fix_text(top)
    # A minor the image dropped entirely (3.7 on ubuntu-24.04) is refused as a minor too.
    assert "runs-on" in fix_text(top)


def test_setup_python_without_the_minor_names_an_image_or_a_newer_python() -> None:
    top = top_error(explained("Error: Version 3.5 with arch x64 not found\n"))
    assert top.cause == "ci-python-version-unavailable"
    assert "runner image" in fix_text(top) and "'3.5'" not in fix_text(top)


def test_pypys_refusal_and_other_versions_not_found_are_not_the_runner() -> None:
    for line in (
        "Error: PyPy version 3.7 (v7.5.x) with arch x64 not found\n",
        "Version 2.13 not found in the index\n",
    ):
        assert "ci-python-version-unavailable" not in _causes(line)


def test_a_platforms_legacy_py3_image_that_was_never_published() -> None:
    text = (
        "Error response from daemon: manifest for "
        "520713654638.dkr.ecr.eu-west-1.amazonaws.com/sagemaker-tensorflow:1.10-gpu-py3 "
        "not found\n"
    )
    top = top_error(explained(text))
    assert top.cause == "platform-image-unavailable"
    assert "py_version='py2'" in fix_text(top)


def test_a_legacy_image_of_a_release_after_the_legacy_lines_is_not_sent_to_py2() -> None:
    # The legacy images end with TensorFlow 1.12: a 1.13 one exists for no Python.
    text = (
        "Error response from daemon: manifest for "
        "520713654638.dkr.ecr.eu-west-1.amazonaws.com/sagemaker-tensorflow:1.13-cpu-py3 "
        "not found\n"
    )
    top = top_error(explained(text))
    assert top.cause == "platform-image-unavailable"
    assert "py2" not in fix_text(top)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Error response from daemon: manifest for 520713654638.dkr.ecr.us-east-1.amazonaws"
            ".com/sagemaker-tensorflow:1.15-gpu-py2 not found\n",
            id="docker-pull-py2",
        ),
        pytest.param(
            "ValueError: Error hosting endpoint tf-legacy-endpoint: Failed. Reason: The image "
            "'520713654638.dkr.ecr.ap-northeast-1.amazonaws.com/sagemaker-tensorflow:1.14-cpu-py3'"
            " does not exist.\n",
            id="endpoint-py3",
        ),
    ],
)
def test_a_legacy_image_after_the_legacy_lines_is_sent_to_the_serving_model(text: str) -> None:
    # The SDK's using_tf.rst (v1.51.1): "The last supported version of Legacy Mode will be
    # TensorFlow 1.12"; the TensorFlow Serving images carry 1.11 and later.
    top = top_error(explained(text))
    assert top.cause == "platform-image-unavailable"
    words = fix_text(top)
    assert "end at TensorFlow 1.12" in words and "sagemaker.tensorflow.serving.Model" in words
    assert "py_version='py2'" not in words


def test_a_platforms_serving_image_of_a_release_it_lacks() -> None:
    text = (
        "Error response from daemon: manifest for "
        "us-docker.pkg.dev/vertex-ai/prediction/tf2-gpu.2-99:latest not found: manifest unknown\n"
    )
    top = top_error(explained(text))
    assert top.cause == "platform-image-unavailable"
    assert "custom image" in fix_text(top) and "py2" not in fix_text(top)


def test_any_other_missing_image_tag_is_not_a_platforms() -> None:
    for line in (
        "Error response from daemon: manifest for tensorflow/tensorflow:2.99.0-gpu not found\n",
        "Error response from daemon: manifest for myteam/trainer:latest not found\n",
        # Vertex AI's image of another framework.
        "Error response from daemon: manifest for "
        "us-docker.pkg.dev/vertex-ai/training/pytorch-gpu.1-99:latest not found\n",
    ):
        assert "platform-image-unavailable" not in _causes(line)


def test_cannot_import_abs_is_a_tree_of_two_releases() -> None:
    for line in (
        "ImportError: cannot import name 'abs'\n",
        "ImportError: cannot import name abs\n",
    ):
        top = top_error(explained(line))
        assert top.cause == "tf-install-incomplete"
        fix = fix_text(top)
        assert "uninstall -y" in fix and "find_spec" in fix and "delete" in fix


def test_abs_from_tensorflows_own_module_is_read_as_the_tree_too() -> None:
    text = (
        "ImportError: cannot import name 'abs' from "
        "'tensorflow.python.keras._impl.keras.backend' (/opt/venv/lib/python3.7/site-packages/"
        "tensorflow/python/keras/_impl/keras/backend.py)\n"
    )
    found = [f for f in explained(text).findings if f.cause == "tf-install-incomplete"]
    assert found and found[0].severity is Severity.ERROR


def test_a_bare_abs_whose_statement_imports_from_another_module_is_not_tensorflows() -> None:
    # Python 3.6 and older print the bare name; the statement above names the module.
    text = (
        "Traceback (most recent call last):\n"
        '  File "calc.py", line 1, in <module>\n'
        "    from math import abs\n"
        "ImportError: cannot import name 'abs'\n"
    )
    assert "tf-install-incomplete" not in _causes(text)


def test_abs_from_another_package_is_not_tensorflows_tree() -> None:
    text = "ImportError: cannot import name 'abs' from 'mathlib.ops' (/srv/mathlib/ops.py)\n"
    assert "tf-install-incomplete" not in _causes(text)


def test_an_op_wrapper_without_its_float_defaults_is_the_import_order() -> None:
    text = (
        '  File "<string>", line 12\n'
        '    def adjust_hue_custom(images, delta, scale=, offset=, mode="fast", name=None):\n'
        "                                                                   ^\n"
        "SyntaxError: invalid syntax\n"
    )
    top = top_error(explained(text))
    assert top.cause == "import-order-conflict"
    assert "Import TensorFlow first" in fix_text(top)


def test_a_users_own_syntax_error_is_not_the_import_order() -> None:
    text = (
        '  File "train.py", line 4\n'
        "    def loss(y_true, y_pred, weight=, name='loss'):\n"
        "SyntaxError: invalid syntax\n"
    )
    assert "import-order-conflict" not in _causes(text)


def test_the_users_words_that_an_import_hangs() -> None:
    for text in (
        "Importing tensorflow hangs after the upgrade.\n",
        "If I import tensorflow first, the jax import line hangs forever.\n",
        "import tensorflow as tf never returns in this container\n",
    ):
        found = [f for f in explained(text).findings if f.cause == "import-hang"]
        assert found and found[0].severity is Severity.WARNING
        assert "faulthandler" in fix_text(found[0]) and "torch" in fix_text(found[0])


def test_a_hang_after_the_import_is_not_the_import() -> None:
    for text in (
        "After the import, training hangs at epoch 3.\n",
        "The import works; model.fit hangs on the second worker.\n",
        "Importing the dataset from S3 hangs for an hour.\n",
        # The import named, then another subject: what hangs is not the import.
        "After I import tensorflow the training hangs at epoch 1.\n",
        "from tensorflow import keras then my data loader freezes\n",
    ):
        assert "import-hang" not in _causes(text)


def test_an_import_that_hangs_where_it_runs() -> None:
    assert "import-hang" in _causes("Importing tensorflow in a Jupyter notebook hangs.\n")


_COLAB_CHECK = (
    "---------------------------------------------------------------------------\n"
    "SystemError                               Traceback (most recent call last)\n"
    "<ipython-input-2-0f1c2e3d4b5a> in <module>()\n"
    "      1 import tensorflow as tf\n"
    "      2 device_name = tf.test.gpu_device_name()\n"
    "      3 if device_name != '/device:GPU:0':\n"
    "----> 4   raise SystemError('GPU device not found')\n"
    "\n"
    "SystemError: GPU device not found\n"
)


def test_colabs_gpu_check_raised_in_a_cell_ranks_the_runtime_first() -> None:
    report = explained(_COLAB_CHECK)
    top = report.findings[0]
    assert top.cause == "hosted-runtime-without-gpu" and top.severity is Severity.WARNING
    fix = fix_text(top)
    assert fix.index("accelerator") < fix.index("native Windows")


def test_the_same_check_on_a_shown_windows_machine_keeps_windows() -> None:
    text = _COLAB_CHECK.replace(
        "<ipython-input-2-0f1c2e3d4b5a>", "C:\\Users\\me\\AppData\\Local\\Temp\\ipykernel_8\\1.py"
    )
    causes = [f.cause for f in explained(text).findings]
    assert "hosted-runtime-without-gpu" not in causes


_TB_LAUNCH = (
    "!pip install -q tf-nightly\n"
    "%load_ext tensorboard\n"
    "%tensorboard --logdir logs\n"
    "ERROR: Failed to launch TensorBoard (exited with 1).\n"
    "Contents of stderr:\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.7/dist-packages/tensorboard/program.py", line 260, '
    "in main\n"
    "    server = self._make_server()\n"
)


def test_a_tensorboard_launch_cut_off_after_a_nightly_install() -> None:
    causes = [f.cause for f in explained(_TB_LAUNCH).findings]
    assert "tensorboard-duplicate-install" in causes


def test_a_tensorboard_launch_whose_stderr_shows_its_reason() -> None:
    text = _TB_LAUNCH + "OSError: [Errno 98] Address already in use\n"
    causes = [f.cause for f in explained(text).findings]
    assert "tensorboard-duplicate-install" not in causes


def test_a_module_another_library_imports_is_that_librarys_missing_package() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app/detect.py", line 2, in <module>\n'
        "    from ai_edge_litert.interpreter import Interpreter\n"
        "ModuleNotFoundError: No module named 'ml_dtypes'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "package-not-installed" and "ml-dtypes" in fix_text(top)


def test_the_same_module_under_tensorflows_import_stays_tensorflows() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app/train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/opt/venv/lib/python3.11/site-packages/tensorflow/__init__.py", line 40, in '
        "<module>\n"
        "    from tensorflow.python import pywrap_tensorflow\n"
        "ModuleNotFoundError: No module named 'ml_dtypes'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-missing"
