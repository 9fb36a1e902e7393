"""What explain reads of packages, APIs and companions in forms the other tests do not show:
an op library TensorFlow refuses, a companion reaching into TensorFlow's private modules on an
old Python, TensorFlow 1 graph code under eager execution, a one-line paste of h5py's decode
error, and Keras modules of one generation asked of the other. Every log here is written for
the test, a variant of its family."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained as _explain
from tests.explaining import fix_text as _fix
from tests.explaining import top_error
from tfdoctor.findings import Finding
from tfdoctor.signatures import load_signatures


def _top(text: str) -> Finding:
    """The first finding explain gives for ``text``, which must be an error."""
    return top_error(_explain(text))


def test_an_op_library_whose_names_tensorflow_refuses_is_a_companion_of_another_release() -> None:
    log = (
        '  File "/opt/venv/lib/python3.7/site-packages/tensorflow_io/core/python/ops/'
        '__init__.py", line 60, in _load_library\n'
        "    l = load_fn(f)\n"
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Invalid name: "
        'IO>AudioResample (Did you use CamelCase?); in OpDef: name: "IO>AudioResample"\n'
    )
    top = _top(log)
    assert top.cause == "companion-mismatch"
    assert "tensorflow-io" in _fix(top)


def test_a_private_name_missing_on_an_old_python_is_read_from_the_import_line() -> None:
    # Python 3.6 printed `cannot import name 'X'` without the module it was imported from.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 3, in <module>\n'
        "    import tensorflow_probability as tfp\n"
        '  File "/srv/env/lib/python3.6/site-packages/tensorflow_probability/python/'
        'internal/backend/numpy/ops.py", line 28, in <module>\n'
        "    from tensorflow.python.ops import control_flow_util_v2\n"
        "ImportError: cannot import name 'control_flow_util_v2'\n"
    )
    top = _top(log)
    assert top.cause == "companion-mismatch"
    assert "tensorflow-probability" in top.summary


def test_a_bare_missing_name_of_the_users_own_import_is_not_a_companion() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 3, in <module>\n'
        "    from helpers import control_flow_util_v2\n"
        "ImportError: cannot import name 'control_flow_util_v2'\n"
    )
    assert all(x.cause != "companion-mismatch" for x in _explain(log).findings)


@pytest.mark.parametrize(
    "message",
    [
        "RuntimeError: tf.placeholder() is not compatible with eager execution.",
        "RuntimeError: tf.gradients is not supported when eager execution is enabled. Use "
        "tf.GradientTape instead.",
        "RuntimeError: Merging tf.summary.* ops is not compatible with eager execution. Use "
        "tf.contrib.summary instead.",
        "RuntimeError: Exporting/importing meta graphs is not supported when eager execution is "
        "enabled. No graph exists when eager execution is enabled.",
        "ValueError: Exporting/importing meta graphs is not supported when eager execution is "
        "enabled.",
        "RuntimeError: Input pipelines based on Queues are not supported when eager execution is "
        "enabled. Please use tf.data to ingest data into your model instead.",
        "RuntimeError: Queues are not supported when eager execution is enabled. Instead, please "
        "use tf.data to get data into your model.",
        "RuntimeError: Readers are not supported when eager execution is enabled. Instead, please "
        "use tf.data to get data into your model.",
    ],
)
def test_tensorflow_1_graph_code_under_eager_execution(message: str) -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/old_model/train.py", line 88, in <module>\n'
        "    main()\n" + message + "\n"
    )
    top = _top(log)
    assert top.cause == "api-moved-to-compat-v1"
    assert "tf.compat.v1.disable_eager_execution()" in _fix(top)


@pytest.mark.parametrize(
    "message",
    [
        # Keras' refusal of a model built eagerly and called in a graph: the other direction.
        "ValueError: Calling `Model.fit` in graph mode is not supported when the `Model` "
        "instance was constructed with eager mode enabled.",
        # TensorFlow's own TensorArray, given a handle: no TensorFlow 1 API named.
        "ValueError: TensorArray handles are not supported when eager execution is enabled.",
        # A program's own log note quoting the words, not the exception TensorFlow raises.
        "I1207 12:00:00.1 train.py:12] Note: Queues are not supported when eager execution is "
        "enabled; this script uses tf.data.\nEpoch 1/3 done",
        "Note: Exporting/importing meta graphs is not supported when eager execution is enabled",
    ],
)
def test_other_eager_words_are_not_tensorflow_1_graph_code(message: str) -> None:
    assert all(x.cause != "api-moved-to-compat-v1" for x in _explain(message + "\n").findings)


def test_the_graph_api_pattern_matches_its_examples() -> None:
    # The API's name is matched only where it starts; the unnamed wordings only as the
    # exception, at the line's start or after `raise` on a printed source line.
    sig = load_signatures().by_id("tf1-api-under-eager")
    assert sig.examples
    for example in sig.examples:
        assert sig.pattern.search(example) is not None, example
    named = sig.pattern.search("tf.placeholder() is not compatible with eager execution.")
    assert named is not None and named.group("api") == "tf.placeholder"
    raised = '    raise RuntimeError("Queues are not supported when eager execution is enabled. "'
    assert sig.pattern.search(raised) is not None
    assert sig.pattern.search("x.tf.placeholder() is not compatible with eager execution") is None


def test_h5py_decode_pasted_as_one_line_names_h5py() -> None:
    line = (
        "    model_config = json.loads(f.attrs.get('model_config').decode('utf-8')) "
        "AttributeError: 'str' object has no attribute 'decode'\n"
    )
    top = _top(line)
    assert top.cause == "dependency-out-of-range"
    assert 'h5py<3.0.0"' in _fix(top)


def test_a_decode_error_of_other_code_is_not_h5py() -> None:
    line = (
        "    name = row['name'].decode('utf-8') AttributeError: 'str' object has no "
        "attribute 'decode'\n"
    )
    assert all("h5py" not in x.summary for x in _explain(line).findings)


def test_a_keras3_module_missing_under_keras2_asks_for_keras3() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/seg.py", line 1, in <module>\n'
        "    import segmentation_models_3d\n"
        '  File "/home/dev/.venv/lib/python3.10/site-packages/segmentation_models_3d/'
        'backbones.py", line 4, in <module>\n'
        "    from keras.src.legacy.preprocessing import image\n"
        "ModuleNotFoundError: No module named 'keras.src.legacy'\n"
    )
    top = _top(log)
    assert top.cause == "keras-version"
    assert "Keras 3" in _fix(top)
    assert top.fix is not None
    assert any(c.startswith("pip install") for c in top.fix.commands)


def test_multi_backend_keras_legacy_module_is_gone() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/.venv/lib/python3.8/site-packages/keras_radam/optimizers.py", '
        "line 3, in <module>\n"
        "    from keras.legacy import interfaces\n"
        "ModuleNotFoundError: No module named 'keras.legacy'\n"
    )
    top = _top(log)
    assert top.cause == "api-removed"
    # The import is keras-radam's own line (site-packages): its release, or the Keras it was
    # written for, never a port of its code to tf.keras.
    assert "keras-radam's release made for the installed one" in _fix(top)
    assert "tf.keras" not in _fix(top)


def test_a_package_asking_tensorflow_for_a_newer_name_was_written_for_another_release() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.7/site-packages/sentence_kit/layers.py", line 12, in '
        "<module>\n"
        "    act = tf.keras.activations.gelu\n"
        "AttributeError: module 'tensorflow_core.python.keras.api._v2.keras.activations' has no "
        "attribute 'gelu'\n"
    )
    top = _top(log)
    assert top.cause == "companion-mismatch"
    assert "sentence-kit" in top.summary
    assert "tf.keras.activations.gelu" in top.summary


def test_the_users_own_code_asking_for_a_missing_name_is_not_a_package_mismatch() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/train.py", line 12, in <module>\n'
        "    act = tf.keras.activations.gelu\n"
        "AttributeError: module 'tensorflow_core.python.keras.api._v2.keras.activations' has no "
        "attribute 'gelu'\n"
    )
    assert all(x.cause != "companion-mismatch" for x in _explain(log).findings)


def test_a_pinned_release_of_a_line_for_other_pythons() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow==1.15.5 "
        "(from versions: 2.2.0, 2.3.0, 2.4.0)\n"
        "ERROR: No matching distribution found for tensorflow==1.15.5\n"
    )
    top = _top(log)
    assert top.cause == "tf-release-not-for-python"
    assert "Python 3.6 to 3.7 on Linux x86-64" in _fix(top)


@pytest.mark.parametrize(
    ("origin", "listing", "wheels", "cause"),
    [
        # pip's empty list of the user's own pin: no release at all for this interpreter, in
        # pip's own words.
        pytest.param(
            "-r requirements.txt (line 10)",
            " (from versions: none)",
            "('from versions: none')",
            "tf-no-wheel-for-python",
            id="none-listed",
        ),
        # A pin another distribution declares: that release's refusal, whatever pip lists.
        pytest.param(
            "rasa_core->-r requirements.txt (line 10)",
            " (from versions: none)",
            "('from versions: none')",
            "tf-release-not-for-python",
            id="none-listed-dependants-pin",
        ),
        pytest.param(
            "rasa_core->-r requirements.txt (line 10)",
            "",
            "finds no wheel for this interpreter",
            "tf-release-not-for-python",
            id="list-not-shown",
        ),
    ],
)
def test_a_pinned_early_release_names_the_pythons_its_wheels_are_for(
    origin: str, listing: str, wheels: str, cause: str
) -> None:
    # TensorFlow 1.10.0's files on PyPI: cp27, cp33-cp36 for Linux and macOS; cp35, cp36 for
    # Windows. Older than every line of the matrix: its early_releases row says so.
    log = (
        f"Collecting tensorflow==1.10.0 (from {origin})\n"
        "  Could not find a version that satisfies the requirement tensorflow==1.10.0 (from "
        f"{origin}){listing}\n"
        "No matching distribution found for tensorflow==1.10.0\n"
    )
    top = _top(log)
    assert top.cause == cause
    fix = _fix(top)
    assert wheels in fix
    assert "Python 2.7, 3.3 to 3.6 on Linux x86-64 and macOS x86-64" in fix
    assert "Python 3.5 to 3.6 on Windows x86-64" in fix
    assert "with Python 3.6" in fix and "64-bit CPython" in fix


def test_a_pinned_release_whose_pythons_include_the_logs_is_not_blamed_on_the_python() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/venv/lib/python3.6/site-packages/helper.py", line 9, in <module>\n'
        "subprocess.CalledProcessError: Command 'pip install tensorflow==1.10.0' returned 1.\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow==1.10.0 "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow==1.10.0\n"
    )
    fix = _fix(_top(log))
    assert "Install TensorFlow 1.10.0 with" not in fix
    assert "Python 3.6 has wheels" in fix


def test_none_listed_for_a_python_later_releases_have_is_the_platform_not_the_pin() -> None:
    # pip on Python 3.12 lists nothing at all: 2.16 and later have 3.12 wheels, so this
    # platform (or a 32-bit interpreter) has none, whatever release is pinned.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/Users/user/venv/lib/python3.12/site-packages/helper.py", line 3, in <module>\n'
        "subprocess.CalledProcessError: Command 'pip install tensorflow==2.14.0' returned 1.\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.14.0 "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow==2.14.0\n"
    )
    top = _top(log)
    assert top.cause == "tf-no-wheel-for-python"
    assert "Python 3.12 has wheels" in _fix(top)


def test_a_pinned_wrapper_release_is_not_judged_by_the_tensorflow_wheels() -> None:
    # tensorflow-cpu published no macOS wheels: the matrix's Pythons are tensorflow's.
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-cpu==2.7.1 "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for tensorflow-cpu==2.7.1\n"
    )
    assert "macOS x86-64" not in _fix(_top(log))


def test_a_pinned_companion_release_pip_does_not_list() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tensorflow-text==2.8.2 "
        "(from versions: 2.12.0, 2.13.0)\n"
        "ERROR: No matching distribution found for tensorflow-text==2.8.2\n"
    )
    top = _top(log)
    assert top.cause == "tf-release-not-for-python"
    assert "tensorflow-text" in top.summary
    assert "relax the pin" in _fix(top)


def test_a_companion_missing_a_name_is_a_companion_of_another_release() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/embed.py", line 4, in <module>\n'
        "    layer = hub.KerasLayer(url)\n"
        "AttributeError: module 'tensorflow_hub' has no attribute 'KerasLayer'\n"
    )
    top = _top(log)
    assert top.cause == "companion-mismatch"
    assert "tensorflow-hub" in top.summary


def test_the_system_loader_missing_a_cuda_library_for_a_program() -> None:
    line = (
        "./predict: error while loading shared libraries: libcudart.so.11.0: cannot open "
        "shared object file: No such file or directory\n"
    )
    assert _top(line).cause == "cuda-libs-missing"


@pytest.mark.parametrize(
    ("line", "cause", "word"),
    [
        (
            "ImportError: Could not find the DLL(s) 'msvcp140_1.dll'. TensorFlow requires that "
            "these DLLs be installed in a directory that is named in your %PATH% environment "
            "variable.",
            "msvc-runtime-missing",
            "Visual C++",
        ),
        (
            "ValueError: decay is deprecated in the new Keras optimizer, please check the "
            "docstring for valid arguments, or use the legacy optimizer, e.g., "
            "tf.keras.optimizers.legacy.SGD.",
            "api-removed",
            "schedules",
        ),
        (
            "ValueError: Unable to avoid copy while creating an array as requested.",
            "numpy2-behaviour-change",
            "numpy<2",
        ),
        (
            "TypeError: this __dict__ descriptor does not support '_DictWrapper' objects",
            "dependency-out-of-range",
            "wrapt",
        ),
        (
            "ImportError: `save_weights` requires h5py when saving in HDF5.",
            "dependency-missing",
            "h5py",
        ),
        (
            "TypeError: __init__() got an unexpected keyword argument 'serialized_options'",
            "protobuf-incompatible",
            "protobuf",
        ),
        (
            "AttributeError: 'MessageFactory' object has no attribute 'GetPrototype'",
            "protobuf-incompatible",
            "protobuf",
        ),
        ("ValueError: Unknown layer: Functional", "model-from-newer-keras", "keras_version"),
        (
            "ValueError: Unrecognized keyword arguments passed to Embedding: "
            "{'quantization_config': None}",
            "model-from-newer-keras",
            "quantization_config",
        ),
        (
            "ValueError: A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. "
            "It doesn't have any actual numerical value.",
            "keras3-behaviour-change",
            "tf-keras",
        ),
        (
            "ValueError: `prune_low_magnitude` can only prune an object of the following types: "
            "keras.models.Sequential, keras functional model. You passed an object of type: "
            "Sequential.",
            "tf-keras-missing",
            "tf-keras",
        ),
        (
            "  RuntimeError\n\n  Unable to find installation candidates for tensorflow-intel "
            "(2.15.0)",
            "tf-release-not-for-python",
            "tensorflow",
        ),
        (
            "error: Distribution `tensorflow-text==2.18.1 @ registry+https://pypi.org/simple` "
            "can't be installed because it doesn't have a source distribution or wheel for the "
            "current platform",
            "tf-no-wheel-for-python",
            "tensorflow-text",
        ),
    ],
)
def test_package_and_keras_messages_name_their_cause(line: str, cause: str, word: str) -> None:
    top = _top(line + "\n")
    assert top.cause == cause
    assert word in _fix(top) or word in top.summary or word in top.detail


def test_a_protobuf_with_its_files_gone_is_reinstalled() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: cannot import name 'descriptor' from 'google.protobuf' (unknown "
        "location)\n"
    )
    top = _top(log)
    assert top.cause == "protobuf-incompatible"
    assert "force-reinstall" in _fix(top)


@pytest.mark.parametrize(
    ("head", "spec"),
    [
        # TensorFlow 2.15's range on protobuf (its metadata, the matrix's pin).
        ("TensorFlow version: 2.15.0\n", '<5.0.0dev,>=3.20.3"'),
        # pip's notice names the protobuf installed: that release again.
        (
            "grpcio-status 1.62.1 requires protobuf>=4.21.6, but you have protobuf 4.21.3 "
            "which is incompatible.\n",
            '"protobuf==4.21.3"',
        ),
        # Nothing shows a release: a bare name would pull the newest protobuf.
        ("", None),
    ],
    ids=["tf-shown", "installed-shown", "nothing-shown"],
)
def test_protobufs_upb_backend_found_as_a_bare_directory_is_reinstalled_by_force(
    head: str, spec: Optional[str]
) -> None:
    log = head + (
        "Traceback (most recent call last):\n"
        '  File "/srv/app.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: cannot import name '_message' from 'google._upb' (unknown location)\n"
    )
    top = _top(log)
    assert top.cause == "protobuf-incompatible" and "google._upb" in top.summary
    assert top.fix is not None
    if spec is None:
        assert not any("install" in c for c in top.fix.commands), top.fix.commands
        assert "pip show protobuf" in top.fix.text and "--force-reinstall" in top.fix.text
        return
    # A plain install sees protobuf installed and changes nothing.
    assert any("--force-reinstall" in c and spec in c for c in top.fix.commands), top.fix.commands


def test_a_name_missing_from_the_upb_backend_is_no_runtime_older_than_the_code() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/venv/lib/python3.10/site-packages/tensorflow/core/framework/'
        'types_pb2.py", line 16, in <module>\n'
        "    from google.protobuf import symbol_database as _symbol_database\n"
        '  File "/srv/venv/lib/python3.10/site-packages/google/protobuf/message.py", line 12, '
        "in <module>\n"
        "    from google._upb._message import Message\n"
        "AttributeError: module 'google._upb._message' has no attribute 'Message'\n"
    )
    top = _top(log)
    assert top.cause == "protobuf-incompatible"
    assert "older than the code" not in top.summary


def test_a_keras_name_later_releases_brought_asks_for_that_keras() -> None:
    """keras.layers.MelSpectrogram is in every Keras from 3.1 (the bundled listings of each
    release): a Keras that lacks it is older than the code, and the fix is that release."""
    for message in (
        "ImportError: cannot import name 'MelSpectrogram' from 'keras.layers'",
        # Retyped with blanks inside the quotes: the same name.
        "AttributeError: module 'keras. layers' has no attribute' MelSpectrogram '",
    ):
        top = top_error(_explain(message + "\n"))
        assert top.cause == "api-removed"
        assert "keras>=3.1" in " ".join(top.fix.commands if top.fix else ())
    # A name every listed Keras 3 has (Keras 3.0 too) is no question of a later release.
    plain = _explain("AttributeError: module 'keras.layers' has no attribute 'Dense'\n")
    assert all("keras>=" not in _fix(x) for x in plain.findings)


def test_python_2_import_refusal_takes_its_module_from_the_source_line() -> None:
    """Python 2 and 3.6 say only "cannot import name Merge"; the frame's source line says
    from which module, and the name is judged as Python 3.7 would have named it."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "make_model.py", line 4, in <module>\n'
        "    from keras.layers import Dense, Dropout, Merge\n"
        "ImportError: cannot import name Merge\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "api-removed"
    assert "keras.layers.Merge" in top.summary
    # A source line that imports other names leaves the message as it was.
    other = log.replace("Dense, Dropout, Merge", "Dense, Dropout")
    assert all(x.cause != "api-removed" for x in _explain(other).findings)


def test_a_keras_1_keyword_in_a_notebook_cell_is_judged_from_the_cells_marked_line() -> None:
    """IPython marks the line that ran under each frame (`----> 2 ...`): the cell's call with
    Keras 1's nb_epoch is what TensorFlow 2.2's Model.fit refused."""
    log = (
        "TypeError                                 Traceback (most recent call last)\n"
        "<ipython-input-9-8b0da1fd2846> in <module>\n"
        "      1 # fit\n"
        "----> 2 model.fit(X_train, Y_train, batch_size=32, nb_epoch=10)\n"
        "\n"
        "/opt/conda/lib/python3.7/site-packages/tensorflow/python/keras/engine/training.py in "
        "_method_wrapper(self, *args, **kwargs)\n"
        "     65     if not self._in_multi_worker_mode():\n"
        "---> 66       return method(self, *args, **kwargs)\n"
        "\n"
        "TypeError: fit() got an unexpected keyword argument 'nb_epoch'\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "api-removed"
    assert "epochs=" in _fix(top)


def test_a_private_import_cut_from_its_frames_is_code_built_for_another_tensorflow() -> None:
    # Only the statement that raised is shown: whose code it is, the log cannot say; the
    # private tree it imports from says it was written against another TensorFlow.
    log = (
        "from tensorflow.python.keras.layers.preprocessing import image_preprocessing as ops\n"
        "ImportError: cannot import name 'image_preprocessing'\n"
    )
    # Whose code it is, the log does not show: a warning, with the fix for either.
    found = [x for x in _explain(log).findings if x.cause == "companion-mismatch"]
    assert [x.severity.value for x in found] == ["warning"]
    assert "public name" in _fix(found[0])
    typed = ">>> " + log
    assert all(x.cause != "companion-mismatch" for x in _explain(typed).findings)


def test_the_import_ipython_marked_above_a_private_import_names_the_package() -> None:
    # IPython marks each frame's line that ran (`---> 10 ...`); with the file lines cut, the
    # import that led to the failing statement is the package whose code holds it.
    log = (
        "ImportError                               Traceback (most recent call last)\n"
        "----> 3 import tensorflow_addons as tfa\n"
        "---> 10 from tensorflow.python.keras.engine import keras_tensor\n"
        "ImportError: cannot import name 'keras_tensor'\n"
    )
    top = _top(log)
    assert top.cause == "companion-mismatch"
    assert "tensorflow-addons" in top.summary


def test_a_users_own_frame_importing_a_private_name_is_not_called_a_package() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/train.py", line 3, in <module>\n'
        "    from tensorflow.python.keras.engine import keras_tensor\n"
        "ImportError: cannot import name 'keras_tensor' from 'tensorflow.python.keras.engine'\n"
    )
    assert all(x.cause != "companion-mismatch" for x in _explain(log).findings)


def test_a_programs_own_minimum_compute_capability_is_the_gpus_architecture() -> None:
    top = _top("No CUDA device found with minimum required compute capability 3.5\n")
    assert top.cause == "gpu-arch-unsupported"
    assert "3.5 or newer" in _fix(top)


def test_an_import_that_needs_libcuda_is_the_driver_not_the_toolkit() -> None:
    line = "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n"
    top = _top(line)
    assert top.cause == "driver-libraries-missing"
    assert "CPU build" in _fix(top)
    assert not any("pip install" in c for c in (top.fix.commands if top.fix else ()))
    # The CPU build of the release the log shows (tensorflow-cpu from 2.1).
    shown = _fix(_top(f"Successfully installed tensorflow-2.4.0\n{line}"))
    assert 'install "tensorflow-cpu==2.4.0"' in shown


def test_tensorflows_own_failed_dlopen_of_libcuda_is_not_an_import_failure() -> None:
    line = (
        "2020-06-19 15:23:25.512364: W tensorflow/stream_executor/platform/default/dso_loader.cc:"
        "55] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open "
        "shared object file: No such file or directory\n"
    )
    assert all(x.cause != "driver-libraries-missing" for x in _explain(line).findings)


def test_glibcs_older_static_tls_words_are_the_same_cause() -> None:
    top = _top("ImportError: dlopen: cannot load any more object with static TLS\n")
    assert top.cause == "static-tls-exhausted"


def test_an_edge_tpu_delegate_that_cannot_prepare_is_its_runtime_against_another_tflite() -> None:
    top = _top(
        "RuntimeError: Internal: Unsupported data type in custom op handler: 0Node number 1 "
        "(EdgeTpuDelegateForCustomOp) failed to prepare.\n"
    )
    assert top.cause == "companion-mismatch"
    assert "tflite_runtime" in _fix(top)


def test_two_packages_ranges_that_pip_cannot_meet_name_the_tensorflow_that_meets_the_other() -> (
    None
):
    log = (
        "ERROR: Cannot install app==1.0 because these package versions have conflicting "
        "dependencies.\n\nThe conflict is caused by:\n"
        "    app 1.0 depends on numpy<1.19,>=1.16\n"
        "    tensorflow 2.4.3 depends on numpy~=1.19.2\n"
    )
    top = _top(log)
    assert top.cause == "dependency-out-of-range"
    # TensorFlow 2.3 declares numpy<1.19.0,>=1.16.0 (its wheel's metadata, in the matrix).
    assert "TensorFlow 2.3" in _fix(top)


def test_pipenvs_incompatible_ranges_are_read_as_pips() -> None:
    log = (
        "There are incompatible versions in the resolved dependencies:\n"
        "  numpy<1.19,>=1.16 (from app==1.0->-r /tmp/reqs.txt (line 4))\n"
        "  numpy~=1.19.2 (from tensorflow==2.4.3->-r /tmp/reqs.txt (line 5))\n"
    )
    assert _top(log).cause == "dependency-out-of-range"


def test_ranges_that_meet_are_not_the_conflict() -> None:
    log = (
        "The conflict is caused by:\n"
        "    app 1.0 depends on numpy>=1.11\n"
        "    tensorflow 2.4.3 depends on numpy~=1.19.2\n"
    )
    assert all(x.cause != "dependency-out-of-range" for x in _explain(log).findings)


def test_a_tensorflow_ecosystem_packages_protobuf_range_is_the_protobuf_cause() -> None:
    line = (
        "tensorflow-metadata 1.12.0 requires protobuf<4,>=3.13, but you have protobuf 4.22.1 "
        "which is incompatible.\n"
    )
    top = _top(line)
    assert top.cause == "protobuf-incompatible"
    assert "protobuf<4,>=3.13" in " ".join(top.fix.commands if top.fix else ())


def test_a_keras_2_models_builtin_loss_keras_3_cannot_locate_is_a_keras_2_file() -> None:
    top = _top(
        "TypeError: Could not locate function 'mse'. Make sure custom classes are decorated "
        "with `@keras.saving.register_keras_serializable()`. Full object config: {'module': "
        "'keras.metrics', 'class_name': 'function', 'config': 'mse', 'registered_name': 'mse'}\n"
    )
    assert top.cause == "keras3-behaviour-change"
    assert "TF_USE_LEGACY_KERAS" in _fix(top)


def test_a_paste_cut_before_the_closing_quote_still_misses_tensorflow() -> None:
    assert _top("ModuleNotFoundError: No module named 'tensorflow\n").cause == "tf-not-installed"
    line = "ModuleNotFoundError: No module named 'tensorflow_hub'\n"
    assert all(x.cause != "tf-not-installed" for x in _explain(line).findings)


def test_a_keras_1_argument_keras_refused_is_named_with_its_keras_2_name() -> None:
    top = _top("TypeError: ('Keyword argument not understood:', 'input')\n")
    assert top.cause == "api-removed"
    assert "inputs=" in _fix(top)
    # Keras' frames say whose refusal it is...
    keras = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.10/site-packages/keras/engine/base_layer.py", line 3, in f\n'
        "TypeError: __init__() got an unexpected keyword argument 'border_mode'\n"
    )
    assert "padding=" in _fix(_top(keras))
    # ...other libraries share the names (albumentations' border_mode, scikit-learn's
    # subsample): refused by a class the log does not show to be Keras', they are not Keras 1.
    for line in (
        "TypeError: __init__() got an unexpected keyword argument 'border_mode'\n",
        "TypeError: HistGradientBoostingClassifier.__init__() got an unexpected keyword "
        "argument 'subsample'\n",
    ):
        assert all(x.cause != "api-removed" for x in _explain(line).findings)


def test_python_2s_relative_module_name_of_tf_contrib_is_tf_contrib() -> None:
    assert _top("ImportError: No module named contrib.slim\n").cause == "tf-contrib-removed"
    line = "ImportError: No module named foo.bar\n"
    assert all(x.cause != "tf-contrib-removed" for x in _explain(line).findings)


def test_a_key_error_in_tensorflows_graph_importer_is_an_op_it_does_not_register() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "load.py", line 9, in <module>\n'
        "    tf.import_graph_def(graph_def, name='')\n"
        '  File "/usr/lib/python2.7/dist-packages/tensorflow/python/framework/importer.py", '
        "line 258, in import_graph_def\n"
        "    op_def = op_dict[node.op]\n"
        "KeyError: u'FIFOQueueV2'\n"
    )
    top = _top(log)
    assert top.cause == "op-not-registered"
    assert "FIFOQueueV2" in top.summary


def test_a_keras_name_missing_under_a_python_keras_3_cannot_run_is_keras_2s_release() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.7/site-packages/efficientnet/__init__.py", line 71, in f\n'
        "    keras.utils.generic_utils.get_custom_objects().update(custom_objects)\n"
        "AttributeError: module 'keras.utils' has no attribute 'generic_utils'\n"
    )
    assert _top(log).cause == "keras-version"
    newer = log.replace("python3.7", "python3.11")
    assert _top(newer).cause == "keras3-behaviour-change"


def test_the_r_interfaces_words_for_python_failures_are_read() -> None:
    # R reports SIGILL in its own words; reticulate's condition details print Python's
    # exception after "error: "; the R packages say TensorFlow is missing in theirs.
    assert _top(" *** caught illegal operation ***\n").cause == "cpu-lacks-avx"
    onload = (
        "Error: .onLoad failed in loadNamespace() for 'tfprobability', details:\n"
        "  call: py_module_import(module, convert = convert)\n"
        "  error: ModuleNotFoundError: No module named 'tensorflow_probability'\n"
    )
    assert _top(onload).cause == "package-not-installed"
    assert _top("Error: Valid installation of TensorFlow not found.\n").cause == "tf-not-installed"


def test_a_cuda_library_the_loader_cannot_open_is_read_without_its_prefix() -> None:
    line = "libcublas.so.9.0: cannot open shared object file: No such file or directory\n"
    assert _top(line).cause == "cuda-libs-missing"


def test_code_generated_by_a_newer_protobuf_names_the_package_that_ships_it() -> None:
    log = (
        "google.protobuf.runtime_version.VersionError: Detected incompatible Protobuf\n"
        "Gencode/Runtime versions when loading google/rpc/error_details.proto:\n"
        "gencode 6.33.5 runtime 5.29.6.\n"
    )
    top = _top(log)
    assert top.cause == "protobuf-incompatible"
    assert "googleapis-common-protos" in _fix(top)


def test_keras_own_import_missing_its_own_name_is_two_keras_releases_in_one_folder() -> None:
    # pytest's short traceback (`path.py:20: in <module>`): every frame from Keras' first on
    # is Keras' own.
    log = (
        "tests/test_model.py:6: in <module>\n"
        "    import keras\n"
        "/env/lib/python3.6/site-packages/keras/__init__.py:20: in <module>\n"
        "    from . import initializers\n"
        "/env/lib/python3.6/site-packages/keras/initializers/__init__.py:82: in populate\n"
        "    generic_utils.populate_dict_with_module_objects(\n"
        "E   AttributeError: module 'keras.utils.generic_utils' has no attribute "
        "'populate_dict_with_module_objects'\n"
    )
    top = _top(log)
    assert top.cause == "keras-version"
    assert "keras-nightly" in _fix(top)
    assert all(x.cause != "api-removed" for x in _explain(log).findings)


def test_the_new_optimizer_refusing_a_variable_it_was_not_built_with() -> None:
    line = (
        "KeyError: 'The optimizer cannot recognize variable dense_8/kernel:0. This usually "
        "means you are trying to call the optimizer to update different parts of the model "
        "separately. Please call `optimizer.build(variables)` with the full list of trainable "
        "variables before the training loop or use legacy optimizer "
        "`tf.keras.optimizers.legacy.Adam.'\n"
    )
    top = _top(line)
    assert top.cause == "api-default-changed"
    assert "optimizer.build" in _fix(top) and "legacy" in _fix(top)


def test_an_installed_package_importing_a_keras_internal_the_keras_lacks_predates_it() -> None:
    # Keras 2.13 moved keras.engine under keras.src, and Keras 3 dropped it: either way the
    # package's own import is older than the installed Keras, and the package is what moves.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.11/site-packages/wandb/integration/keras/keras.py", line 86, '
        "in patch_tf_keras\n"
        "    from keras.engine import training\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
    )
    top = _top(log)
    assert top.cause == "companion-mismatch"
    assert "upgrade wandb" in _fix(top)
    found = _explain(log).findings
    assert all(x.cause != "keras3-behaviour-change" for x in found)
    # What the name is stays said, for whoever patches the package: a warning.
    assert [x.severity.value for x in found if x.cause == "api-removed"] == ["warning"]


def test_numpys_c_api_failing_alone_and_beside_numpy_2s_own_words() -> None:
    alone = _top("ImportError: numpy.core.multiarray failed to import\n")
    assert alone.cause == "dependency-out-of-range"
    assert "numpy<2" in _fix(alone)
    beside = (
        "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.0.0 as it may crash.\n"
        "ImportError: numpy.core.multiarray failed to import\n"
    )
    causes_found = [x.cause for x in _explain(beside).findings if x.severity.value == "error"]
    assert causes_found == ["numpy-abi"]


def test_transformers_without_its_tf_classes_is_tensorflow_missing() -> None:
    line = "ImportError: cannot import name 'TFBertForMaskedLM' from 'transformers'\n"
    assert _top(line).cause == "tf-not-installed"
    torch_class = "ImportError: cannot import name 'BertForMaskedLM' from 'transformers'\n"
    assert all(x.cause != "tf-not-installed" for x in _explain(torch_class).findings)


def test_pip_refusing_any_tflite_package_is_read_like_tflite_runtime() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement tflite-micro "
        "(from versions: none)\n"
        "ERROR: No matching distribution found for tflite-micro\n"
    )
    top = _top(log)
    assert top.cause == "tf-no-wheel-for-python"
    assert "tflite-micro" in _fix(top)


def test_a_private_tensorflow_name_missing_with_no_frame_is_code_of_another_release() -> None:
    # (A name standalone Keras's own modules are known to use, such as ops._TensorLike, names
    # that Keras instead: tests/test_explain_keras_ranges.py.)
    line = (
        "AttributeError: module 'tensorflow.python.framework.ops' has no attribute '_USE_C_API'\n"
    )
    found = [(x.cause, x.severity.value) for x in _explain(line).findings]
    assert ("companion-mismatch", "warning") in found


def test_generated_code_newer_than_the_runtime_tensorflow_admits_is_a_protobuf_upgrade() -> None:
    log = (
        "Successfully installed tensorflow-2.18.0\n"
        "google.protobuf.runtime_version.VersionError: Detected incompatible Protobuf\n"
        "Gencode/Runtime versions when loading google/rpc/error_details.proto:\n"
        "gencode 5.28.3 runtime 5.27.2.\n"
    )
    # TensorFlow 2.18 declares protobuf <6.0.0dev,>=3.20.3 (its wheel's metadata): 5.28.3 fits.
    assert "protobuf>=5.28.3" in _fix(_top(log))


def test_a_long_specifier_list_pip_could_not_meet_is_read_in_linear_time() -> None:
    from tfdoctor.evidence.packages import read_conflicts

    # Each operator parses one way; two optional "=" made every failing split a new try.
    line = "There are incompatible versions in the resolved dependencies:\n  protobuf"
    assert read_conflicts([line + ">=1," * 40 + " (from x\n"]) == []


def _package_asks_keras_engine(listing: str) -> str:
    """An installed package's own import of keras.engine, with ``listing`` (pip's) before it."""
    return listing + (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/run.py", line 3, in <module>\n'
        "    import nnlib\n"
        '  File "/srv/venv/lib/python3.11/site-packages/nnlib/graph.py", line 12, in <module>\n'
        "    from keras.engine.functional import Functional\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
    )


def test_a_package_asking_an_observed_keras_3_for_keras_2s_module_is_keras_2_code() -> None:
    # Keras 2.13-2.15 and Keras 3 both lack keras.engine; pip's listing shows which is there.
    log = _package_asks_keras_engine("$ pip list\nkeras          3.3.3\n")
    top = _top(log)
    assert top.cause == "keras3-behaviour-change"
    assert "nnlib" in _fix(top) and "keras 3.3.3 is installed" in top.detail
    # keras.engine is Keras 2's own module: the last Keras with it there is 2.12.
    assert '"keras~=2.12.0"' in _fix(top)


def test_a_tensorflow_that_requires_keras_3_shows_keras_3_for_the_package() -> None:
    log = _package_asks_keras_engine("$ pip list\ntensorflow     2.16.1\n")
    assert _top(log).cause == "keras3-behaviour-change"


def test_a_package_asking_an_observed_keras_2_14_for_keras_engine_stays_its_release() -> None:
    # Keras 2.14 keeps keras.engine under keras.src: not Keras 3, a Keras 2 later than the code.
    log = _package_asks_keras_engine("$ pip list\nkeras          2.14.0\n")
    assert _top(log).cause == "keras-version"
    assert all(x.cause != "keras3-behaviour-change" for x in _explain(log).findings)


def test_a_package_asking_for_keras_engine_with_no_keras_shown_stays_its_release() -> None:
    log = _package_asks_keras_engine("")
    assert _top(log).cause == "companion-mismatch"
    assert all(x.cause != "keras3-behaviour-change" for x in _explain(log).findings)


def _layer_subclassed(path: str, module: str) -> str:
    """A class statement at ``path`` subclassing a layer ``module`` (as Python names it) lacks."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 2, in <module>\n'
        "    import qnets\n"
        f'  File "{path}", line 40, in <module>\n'
        "    class QuantLocal(tf.keras.layers.LocallyConnected1D):\n"
        f"AttributeError: module '{module}' has no attribute 'LocallyConnected1D'\n"
    )


def test_a_library_asking_an_observed_keras_3_for_a_keras_2_layer_is_kept_on_keras_2() -> None:
    # keras._tf_keras is Keras 3's tf.keras: the library's release was written for Keras 2,
    # which its user keeps for it (tf-keras) or leaves (its release for Keras 3); a port is
    # its authors' to write.
    site = "/srv/venv/lib/python3.11/site-packages/qnets/layers.py"
    top = _top(_layer_subclassed(site, "keras._tf_keras.keras.layers"))
    assert top.cause == "keras3-behaviour-change"
    assert "qnets" in _fix(top) and "TF_USE_LEGACY_KERAS=1" in _fix(top)
    assert "Port it" not in _fix(top)


def test_the_users_own_keras_2_layer_under_keras_3_is_still_ported() -> None:
    top = _top(_layer_subclassed("/srv/app/qnets_local.py", "keras._tf_keras.keras.layers"))
    assert top.cause == "keras3-behaviour-change"
    assert "Port it" in _fix(top) and "installed package" not in _fix(top)


def test_a_library_asking_tf_keras_with_no_keras_3_shown_keeps_its_verdicts_fix() -> None:
    # tensorflow.keras.layers names no Keras: the listings' reading stays as it was.
    site = "/srv/venv/lib/python3.11/site-packages/qnets/layers.py"
    findings = _explain(_layer_subclassed(site, "tensorflow.keras.layers")).findings
    assert any(x.cause == "keras3-behaviour-change" for x in findings)
    fixes = " ".join(_fix(x) for x in findings)
    assert "(an installed package) asks tf.keras" not in fixes


def test_a_module_keras_2_dropped_before_2_12_names_its_own_last_line() -> None:
    # keras/layers/merge.py is in keras-team/keras v2.8.0's tree and not in v2.9.0's: Keras 2.8
    # with TensorFlow 2.8, under the plain tensorflow name (its Windows wheel requires no
    # tensorflow-intel: the matrix's wrappers begin at 2.11).
    log = (
        "$ pip list\nkeras                3.1.0\ntensorflow-intel     2.16.1\n"
        "Traceback (most recent call last):\n"
        '  File "C:\\app\\run.py", line 3, in <module>\n'
        "    import nnlib\n"
        '  File "C:\\Python311\\Lib\\site-packages\\nnlib\\blocks.py", line 9, in <module>\n'
        "    from keras.layers import merge\n"
        "ImportError: cannot import name 'merge' from 'keras.layers' "
        "(C:\\Python311\\Lib\\site-packages\\keras\\layers\\__init__.py)\n"
    )
    top = _top(log)
    assert top.cause == "keras3-behaviour-change"
    assert '"tensorflow~=2.8.0" "keras~=2.8.0"' in _fix(top)


def _library_imports_merge(listing: str) -> str:
    """An installed library's import of keras.layers.merge (keras-team/keras v2.8.0's tree
    has keras/layers/merge.py, v2.9.0's not), with pip's ``listing`` before it."""
    return listing + (
        "Traceback (most recent call last):\n"
        '  File "/Users/me/app/run.py", line 3, in <module>\n'
        "    import nnlib\n"
        '  File "/Users/me/venv/lib/python3.11/site-packages/nnlib/blocks.py", line 9, in '
        "<module>\n"
        "    from keras.layers import merge\n"
        "ImportError: cannot import name 'merge' from 'keras.layers' "
        "(/Users/me/venv/lib/python3.11/site-packages/keras/layers/__init__.py)\n"
    )


def test_a_keras_2_line_before_2_13_keeps_apples_tensorflow_macos() -> None:
    # The tensorflow name has no macOS arm64 wheel of 2.8 (those begin at 2.13); Apple's
    # tensorflow-macos published 2.8 (the wheel index): the installed name is the one to pin.
    log = _library_imports_merge(
        "$ pip list\nkeras                3.3.3\ntensorflow-macos     2.16.2\n"
    )
    top = _top(log)
    assert top.cause == "keras3-behaviour-change"
    assert '"tensorflow-macos~=2.8.0" "keras~=2.8.0"' in _fix(top)


def test_a_keras_2_line_before_2_12_keeps_tensorflow_cpu() -> None:
    log = _library_imports_merge(
        "$ pip list\nkeras                3.3.3\ntensorflow-cpu       2.16.1\n"
    )
    assert '"tensorflow-cpu~=2.8.0" "keras~=2.8.0"' in _fix(_top(log))


def test_a_keras_2_line_before_2_13_on_apple_silicon_is_tensorflow_macos() -> None:
    # platform.platform()'s words for an arm64 Python on macOS; the tensorflow name has no
    # wheel of 2.8 there.
    log = "macOS-14.4-arm64-arm-64bit\n" + _library_imports_merge(
        "$ pip list\nkeras                3.3.3\ntensorflow           2.16.1\n"
    )
    assert '"tensorflow-macos~=2.8.0" "keras~=2.8.0"' in _fix(_top(log))


def test_a_package_asking_a_listed_keras_2_14_for_layer_utils_is_no_keras_3() -> None:
    # keras.utils.layer_utils is one of Keras 2's own modules, which 2.14's wheel keeps under
    # keras.src: the log lists that Keras 2, so "Keras 2 code under Keras 3" would contradict it.
    log = (
        "$ pip list\nkeras          2.14.0\ntensorflow     2.14.1\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 2, in <module>\n'
        "    import qnets\n"
        '  File "/srv/venv/lib/python3.11/site-packages/qnets/layers.py", line 40, in <module>\n'
        "    from keras.utils import layer_utils\n"
        "ImportError: cannot import name 'layer_utils' from 'keras.utils' "
        "(/srv/venv/lib/python3.11/site-packages/keras/utils/__init__.py)\n"
    )
    assert all(x.cause != "keras3-behaviour-change" for x in _explain(log).findings)
    assert '"keras~=2.12.0"' in _fix(_top(log))


def test_a_keras_2_line_keeps_tensorflow_intel_where_its_tensorflow_requires_it() -> None:
    # The matrix's wrappers: tensorflow 2.11's Windows wheel requires tensorflow-intel 2.11.
    log = (
        "$ pip list\nkeras                3.1.0\ntensorflow-intel     2.16.1\n"
        "Traceback (most recent call last):\n"
        '  File "C:\\app\\run.py", line 3, in <module>\n'
        "    import nnlib\n"
        '  File "C:\\Python311\\Lib\\site-packages\\nnlib\\opt.py", line 9, in <module>\n'
        "    from keras.initializers import initializers_v2\n"
        "ImportError: cannot import name 'initializers_v2' from 'keras.initializers' "
        "(C:\\Python311\\Lib\\site-packages\\keras\\initializers\\__init__.py)\n"
    )
    assert '"tensorflow-intel~=2.11.0" "keras~=2.11.0"' in _fix(_top(log))


def test_a_librarys_keras_3_fix_says_keep_keras_2_once() -> None:
    # The rule's port (learning_rate= for lr=) ends with its own "keep Keras 2", which the
    # library's fix already leads with.
    log = (
        "$ pip list\nkeras          3.3.3\ntensorflow     2.16.1\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 2, in <module>\n'
        "    import qnets\n"
        '  File "/srv/venv/lib/python3.11/site-packages/qnets/opt.py", line 40, in <module>\n'
        "    opt = tf.keras.optimizers.Adam(lr=0.1)\n"
        "ValueError: Argument(s) not recognized: {'lr': 0.1}\n"
    )
    fix = _fix(_top(log))
    assert "The port, for its authors: Pass learning_rate=" in fix
    assert fix.count("TF_USE_LEGACY_KERAS=1") == 2  # the text once, the command once


def test_a_keras_2_frame_outweighs_the_keras_3_a_tensorflow_requires() -> None:
    site = "/srv/venv/lib/python3.11/site-packages"
    # keras/src/engine/ is Keras 2.13-2.15's wheel: TensorFlow 2.16's requirement of Keras 3
    # is not what the log shows installed.
    log = (
        "$ pip list\ntensorflow     2.16.1\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 2, in <module>\n'
        "    model.fit(x)\n"
        f'  File "{site}/keras/src/engine/training.py", line 1783, in fit\n'
        "    callbacks.on_train_begin()\n"
        f'  File "{site}/qnets/callbacks.py", line 12, in on_train_begin\n'
        "    from keras.engine.functional import Functional\n"
        "ModuleNotFoundError: No module named 'keras.engine'\n"
    )
    assert all(x.cause != "keras3-behaviour-change" for x in _explain(log).findings)
    assert _top(log).cause == "companion-mismatch"
