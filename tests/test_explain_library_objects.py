"""Libraries built on TensorFlow, and their companions, that were made for another TensorFlow,
Keras or runtime than the installed one, read from what names the library: its own frame asking
a TensorFlow or Keras object for a field, its own version check, the Edge TPU runtime refusing a
model its compiler wrote."""

from __future__ import annotations

from typing import Optional

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.evidence.traceback import read_tracebacks, tree_holding
from tfdoctor.explain.packages import library_caller
from tfdoctor.findings import Finding, Severity

# --- an object of TensorFlow's or Keras' own, asked for a field in a library's frame ---------


def _object_traceback(path: str, cls: str = "KerasTensor", attr: str = "graph") -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "export_model.py", line 14, in <module>\n'
        "    onnx_model = convert(model)\n"
        f'  File "{path}", line 212, in parse_outputs\n'
        "    g = model.outputs[0].graph\n"
        f"AttributeError: '{cls}' object has no attribute '{attr}'\n"
    )


def _companion(text: str) -> list[Finding]:
    return [x for x in explained(text).findings if x.cause == "companion-mismatch"]


def test_an_installed_librarys_frame_names_the_library_and_its_release() -> None:
    text = _object_traceback("/home/ana/.venv/lib/python3.9/site-packages/keras2onnx/parser.py")
    found = _companion(text)
    assert found and found[0].severity == Severity.WARNING
    fix = fix_text(found[0])
    assert "keras2onnx" in fix and "pip install --upgrade keras2onnx" in fix


def test_a_source_checkout_of_a_library_is_told_to_update_the_checkout() -> None:
    text = _object_traceback("/home/ana/src/onnx-converter/keras2onnx/_parse.py")
    found = _companion(text)
    assert found and found[0].severity == Severity.WARNING
    fix = fix_text(found[0])
    assert "source checkout (/home/ana/src/onnx-converter)" in fix
    # pip's release would not replace the code that runs.
    assert "pip install --upgrade keras2onnx" not in fix


def test_a_variable_asked_in_another_librarys_frame_is_read_alike() -> None:
    text = _object_traceback(
        "/usr/lib/python3/dist-packages/rlkit/policies.py", "ResourceVariable", "initializer"
    )
    found = _companion(text)
    assert found and "rlkit" in found[0].summary


def test_the_users_own_frame_is_not_a_librarys() -> None:
    text = _object_traceback("/home/ana/project/convert_utils.py")
    assert not _companion(text)


def test_a_field_tensorflow_asks_of_its_own_object_is_not_a_librarys() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.10/site-packages/keras2onnx/main.py", line 80, in run\n'
        "    tf.function(fn)(x)\n"
        '  File "/opt/venv/lib/python3.10/site-packages/tensorflow/python/eager/def_function.py",'
        " line 580, in __call__\n"
        "    result = self._call(*args)\n"
        "AttributeError: 'EagerTensor' object has no attribute 'op'\n"
    )
    assert not _companion(text)


_EPOCHS = (
    "Epoch 1/2\n"
    "10/10 [==============================] - 2s 5ms/step - loss: 0.5012\n"
    "Epoch 2/2\n"
    "10/10 [==============================] - 0s 4ms/step - loss: 0.4011\n"
)


def _generic_read(cls: str) -> str:
    """A library's frame reading a field by name (its line does not name the field), on an
    object whose class the words name as Python prints it."""
    return (
        "Traceback (most recent call last):\n"
        '  File "export_model.py", line 14, in <module>\n'
        "    onnx_model = convert(model)\n"
        '  File "/home/ana/.venv/lib/python3.9/site-packages/tf2graph/walk.py", line 88, in get\n'
        "    return getattr(obj, name)\n"
        f"AttributeError: '{cls}' object has no attribute '_keras_mask'\n"
    )


@pytest.mark.parametrize(
    "cls",
    [
        # Python prints an eager tensor's dotted type name (pywrap_tfe's EagerTensor).
        pytest.param("tensorflow.python.framework.ops.EagerTensor", id="dotted-eager-tensor"),
        pytest.param("OptimizerV2", id="keras-optimizer-v2"),
        pytest.param("OwnedIterator", id="dataset-iterator"),
    ],
)
def test_every_class_of_tensorflows_own_objects_is_read_alike(cls: str) -> None:
    found = _companion(_generic_read(cls))
    assert found and found[0].severity == Severity.WARNING
    assert "tf2graph" in found[0].summary


def test_a_field_asked_in_a_logged_exception_the_run_went_on_after_is_a_note() -> None:
    logged = _companion(f"ERROR:tf2graph:walk failed\n{_generic_read('EagerTensor')}{_EPOCHS}")
    assert logged and logged[0].severity.rank <= Severity.INFO.rank
    # Work shown before the exception does not say the run went on after it.
    ended = _companion(f"{_EPOCHS}{_generic_read('EagerTensor')}")
    assert ended and ended[0].severity == Severity.WARNING


def test_a_class_name_other_libraries_share_is_not_read_so() -> None:
    # PyTorch has a Tensor too: the words name no TensorFlow object.
    text = _object_traceback(
        "/home/ana/.venv/lib/python3.9/site-packages/keras2onnx/parser.py", "Tensor", "numpy"
    )
    assert not _companion(text)


# --- the Edge TPU runtime refusing a model compiled for a newer one -------------------------


def test_a_model_compiled_for_a_newer_edge_tpu_runtime_is_compiled_for_the_installed_one() -> None:
    text = (
        '  File "detect.py", line 40, in main\n'
        "    interpreter.allocate_tensors()\n"
        "RuntimeError: Failed to prepare for TPU. Failed precondition: Package requires runtime "
        "version (14), which is newer than this runtime version (12).Node number 0 "
        "(edgetpu-custom-op) failed to prepare.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert "edgetpu_compiler --min_runtime_version 12" in fix
    assert "libedgetpu1-std" in fix and "runtime 14" in fix


# --- OpenVINO's Model Optimizer checking the framework it converts from -------------------


_MO_CHECK = (
    "[ WARNING ]  \n"
    "Detected not satisfied dependencies:\n"
    "\t{line}\n"
    "\n"
    "Please install required versions of components or run pip installation\n"
    "pip install openvino-dev[tensorflow2]\n"
)


def test_a_framework_newer_than_the_model_optimizers_range_moves_mo_not_the_framework() -> None:
    # mo's range is its own release's: a newer TensorFlow wants the newer openvino-dev, not
    # TensorFlow moved back under the program that trains with it.
    for line in (
        "tensorflow: installed: 2.16.1, required: < 2.15.0",
        "tensorflow: installed: 2.16.1, required: ~= 2.5.0",
        "numpy: installed: 1.26.4, required: == 1.19.5",
    ):
        report = explained(_MO_CHECK.format(line=line))
        found = [f for f in report.findings if f.cause == "dependency-out-of-range"]
        assert found and found[0].severity == Severity.WARNING, line
        assert found[0].fix is not None
        commands = " ".join(found[0].fix.commands)
        assert "install --upgrade openvino-dev" in commands, line
        assert "tensorflow<" not in commands and "numpy==" not in commands, line
        assert line.split(":")[0] + " " in fix_text(found[0]), line


def test_a_framework_older_than_the_model_optimizers_range_gets_the_range() -> None:
    report = explained(_MO_CHECK.format(line="tensorflow: installed: 2.4.1, required: >= 2.5.0"))
    found = [f for f in report.findings if f.cause == "dependency-out-of-range"]
    assert found and found[0].fix is not None
    assert 'install "tensorflow>=2.5.0"' in " ".join(found[0].fix.commands)
    assert "openvino-dev" not in " ".join(found[0].fix.commands)


def test_the_model_optimizers_check_of_a_package_that_does_not_import() -> None:
    report = explained(_MO_CHECK.format(line="defusedxml: not installed, required: >= 0.7.1"))
    found = [f for f in report.findings if f.cause == "dependency-out-of-range"]
    assert found and 'pip install "defusedxml>=0.7.1"' in fix_text(found[0])


@pytest.mark.parametrize(
    ("check", "after", "weight"),
    [
        pytest.param(
            _MO_CHECK.format(line="tensorflow: installed: 2.16.1, required: < 2.15.0"),
            "[ SUCCESS ] Generated IR version 11 model.\n"
            "[ SUCCESS ] XML file: /home/me/model/saved_model.xml\n",
            Severity.INFO,
            id="warned-then-converted",
        ),
        pytest.param(
            _MO_CHECK.replace("[ WARNING ]", "[ ERROR ]").format(
                line="networkx: not installed, required: >= 2.5"
            ),
            "",
            Severity.ERROR,
            id="logged-as-an-error",
        ),
        pytest.param(
            _MO_CHECK.format(line="tensorflow: installed: 2.16.1, required: < 2.15.0"),
            "",
            Severity.WARNING,
            id="warned",
        ),
    ],
)
def test_the_model_optimizers_check_weighs_what_mo_said_of_it(
    check: str, after: str, weight: Severity
) -> None:
    # mo logs its check at the level it decided (versions_checker.py: an error only for a
    # module it cannot work without), and a model it converted shows the warning was harmless.
    report = explained(check + after)
    [found] = [f for f in report.findings if f.cause == "dependency-out-of-range"]
    assert found.severity is weight


def test_a_version_table_that_is_not_the_model_optimizers_is_not_read() -> None:
    text = "pip 24.0: installed with Python 3.11, required for builds\n"
    assert all(f.cause != "dependency-out-of-range" for f in explained(text).findings)


# --- TensorFlow Serving polling a base path without a version directory ---------------------


def test_serving_without_a_numbered_version_directory_names_the_layout() -> None:
    text = (
        "2024-02-11 09:30:12.004411: W tensorflow_serving/sources/storage_path/"
        "file_system_storage_path_source.cc:267] No versions of servable clf found under base "
        "path /models/clf. Did you forget to name your leaf directory as a number (eg. '/1/')?\n"
    )
    found = [f for f in explained(text).findings if f.cause == "serving-model-version-missing"]
    assert found and found[0].severity == Severity.WARNING
    fix = fix_text(found[0])
    assert "/models/clf/1/saved_model.pb" in fix and "ls -lR /models/clf" in fix


def test_a_served_model_is_not_blamed_on_its_layout() -> None:
    text = (
        "2024-02-11 09:30:12.004411: I tensorflow_serving/core/loader_harness.cc:95] "
        "Successfully loaded servable version {name: clf version: 3}\n"
    )
    assert all(f.cause != "serving-model-version-missing" for f in explained(text).findings)


_NO_DELEGATE = (
    '  File "/usr/lib/python3/dist-packages/tflite_runtime/interpreter.py", line 120, in __init__\n'
    "    raise ValueError(capture.message)\n"
    "ValueError\n"
    "\n"
    "During handling of the above exception, another exception occurred:\n"
    "\n"
    '  File "/usr/lib/python3/dist-packages/tflite_runtime/interpreter.py", line 164, in '
    "load_delegate\n"
    "    library, str(e)))\n"
    "ValueError: Failed to load delegate from {library}\n"
)


def test_an_edge_tpu_runtime_that_gave_no_delegate_points_at_the_device() -> None:
    top = top_error(explained(_NO_DELEGATE.format(library="libedgetpu.so.1")))
    assert top.cause == "edgetpu-device-unavailable"
    fix = fix_text(top)
    assert "lsusb" in fix and "/dev/apex_0" in fix and "udev" in fix


def test_the_edge_tpu_runtime_of_each_system_gets_that_systems_words() -> None:
    mac = fix_text(top_error(explained(_NO_DELEGATE.format(library="libedgetpu.1.dylib"))))
    assert "system_profiler SPUSBDataType" in mac and "lsusb" not in mac
    win = fix_text(top_error(explained(_NO_DELEGATE.format(library="edgetpu.dll"))))
    assert "install.bat" in win and "udev" not in win


_LOAD_LIBRARY = (
    '  File "/opt/venv/lib/python3.9/site-packages/tflite_runtime/interpreter.py", line 91, '
    "in __init__\n"
    "    self._library = ctypes.pydll.LoadLibrary(library)\n"
    "{error}\n"
)


def test_an_edge_tpu_runtime_not_installed_on_linux_installs_coral_package() -> None:
    error = "OSError: libedgetpu.so.1: cannot open shared object file: No such file or directory"
    top = top_error(explained(_LOAD_LIBRARY.format(error=error)))
    assert top.cause == "native-library-unresolved"
    assert "apt-get install libedgetpu1-std" in fix_text(top)
    # The repository's key in a keyring of its own that its line names: apt-key, which
    # trusted a key for every repository, is deprecated and gone from apt 2.9.
    assert top.fix is not None
    assert not any("apt-key add" in c for c in top.fix.commands)
    # --yes: a keyring an earlier try left is written over, where gpg would ask and fail
    # (its input is the key curl pipes to it).
    assert any(
        "gpg --dearmor --yes -o /usr/share/keyrings/coral-edgetpu.gpg" in c
        for c in top.fix.commands
    )
    assert any("[signed-by=/usr/share/keyrings/coral-edgetpu.gpg]" in c for c in top.fix.commands)


def test_an_edge_tpu_runtime_not_installed_on_macos_or_windows_names_the_runtime_archive() -> None:
    mac = "OSError: dlopen(libedgetpu.1.dylib, 6): image not found"
    win = "FileNotFoundError: Could not find module 'edgetpu.dll' (or one of its dependencies)."
    for error, script in ((mac, "install.sh"), (win, "install.bat")):
        top = top_error(explained(_LOAD_LIBRARY.format(error=error)))
        assert top.cause == "native-library-unresolved"
        assert script in fix_text(top) and "apt-get" not in fix_text(top)


def test_another_delegate_that_did_not_load_is_not_the_edge_tpu() -> None:
    text = _NO_DELEGATE.format(library="libvx_delegate.so")
    assert all(f.cause != "edgetpu-device-unavailable" for f in explained(text).findings)


def test_the_edge_tpu_runtime_version_printed_alone_is_not_a_mismatch() -> None:
    text = (
        ">>> from pycoral.utils.edgetpu import get_runtime_version\n"
        ">>> get_runtime_version()\n"
        "'BuildLabel(COMPILER=6.3.0 20170516,DATE=redacted,TIME=redacted), RuntimeVersion(14)'\n"
    )
    assert not _companion(text)


def test_the_delegate_and_interpreter_mismatch_keeps_its_own_fix() -> None:
    text = (
        "RuntimeError: Internal: Unsupported data type in custom op handler: 0Node number 1 "
        "(EdgeTpuDelegateForCustomOp) failed to prepare.\n"
    )
    fix = fix_text(top_error(explained(text)))
    assert "tflite_runtime" in fix and "--min_runtime_version" not in fix


# --- keras-retinanet's own check of the TensorFlow it runs under ----------------------------


def test_a_refused_release_gets_the_range_the_library_states() -> None:
    text = (
        "Using TensorFlow backend.\n"
        "You are using tensorflow version 2.0.1. The minimum required version is 1.14.0 "
        "(blacklisted: [(2, 0, 0), (2, 0, 1)]).\n"
    )
    top = top_error(explained(text))
    assert top.cause == "companion-mismatch"
    fix = fix_text(top)
    assert 'pip install "tensorflow>=1.14.0,!=2.0.0,!=2.0.1"' in fix
    assert "keras-retinanet" in fix and "TensorFlow 2.0.1" in fix


def test_the_older_check_states_only_a_floor() -> None:
    text = "You are using tensorflow version 1.10.0. The minimum required version is 1.12.0.\n"
    fix = fix_text(top_error(explained(text)))
    assert 'pip install "tensorflow>=1.12.0"' in fix and "!=" not in fix


def test_the_same_check_of_keras_is_not_tensorflows() -> None:
    text = "You are using keras version 2.1.2. The minimum required version is 2.1.3.\n"
    report = explained(text)
    assert not any("tensorflow>=" in fix_text(x) for x in report.findings if x.fix)


def test_a_checkout_named_as_its_package_is_the_outer_directory() -> None:
    text = _object_traceback("/home/ana/src/keras2onnx/keras2onnx/proto/parse.py")
    assert "source checkout (/home/ana/src/keras2onnx)" in fix_text(_companion(text)[0])


def test_a_relative_checkout_is_the_current_directory() -> None:
    text = _object_traceback("keras2onnx/_parse.py")
    assert "source checkout (.)" in fix_text(_companion(text)[0])


def test_under_keras_3_the_fix_adds_keras_2_through_tf_keras() -> None:
    text = "tensorflow==2.16.1\n" + _object_traceback(
        "/home/ana/.venv/lib/python3.11/site-packages/keras2onnx/parser.py"
    )
    fix = fix_text(_companion(text)[0])
    assert "keras2onnx" in fix and "TF_USE_LEGACY_KERAS=1" in fix and "tf-keras" in fix


# --- what converters and deployment runtimes print while working ----------------------------


_WORKING = (
    # The TFLite interpreter choosing its CPU delegate.
    "INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\n",
    # The TFLite converter writing a model that needs the Flex delegate (a note, not a failure).
    "2024-06-03 11:02:41.518203: W tensorflow/compiler/mlir/lite/flatbuffer_export.cc:3082] "
    "TFLite interpreter needs to link Flex delegate in order to run the model since it "
    "contains the following Select TFop(s):\nFlex ops: FlexErf\n",
    # coremltools naming the newest TensorFlow it was tested with, then converting.
    "TensorFlow version 2.15.0 has not been tested with coremltools. You may run into "
    "unexpected errors. TensorFlow 2.12.0 is the most recent version that has been tested.\n"
    "Converting TF Frontend ==> MIL Ops: 100%|##########| 88/88 [00:00<00:00, 1201.3 ops/s]\n",
    # TensorFlow Serving loading a model and listening.
    "2024-06-03 11:02:41.518203: I tensorflow_serving/core/loader_harness.cc:95] Successfully "
    "loaded servable version {name: clf version: 2}\n"
    "2024-06-03 11:02:41.520011: I tensorflow_serving/model_servers/server.cc:430] Exporting "
    "HTTP/REST API at:localhost:8501 ...\n",
    # TensorFlow.js's advice to install its Node backend.
    "============================\nHi, looks like you are running TensorFlow.js in Node.js. "
    "To speed things up dramatically, install our node backend, visit "
    "https://github.com/tensorflow/tfjs-node for more details.\n",
)


def test_what_converters_and_runtimes_print_while_working_stays_below_warning() -> None:
    for text in _WORKING:
        report = explained(text)
        assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings), text


def test_an_edge_tpu_a_container_was_not_given_is_passed_in() -> None:
    # The container sees the accelerator only where its run passes it in; the host's udev
    # rules and groups are the ones that apply (google-coral/tflite#3).
    log = "root@3f2a1b4c5d6e:/app# python3 detect.py\n" + _NO_DELEGATE.format(
        library="libedgetpu.so.1"
    )
    fix = fix_text(top_error(explained(log)))
    assert "-v /dev/bus/usb:/dev/bus/usb" in fix and "--device /dev/apex_0" in fix
    bare = fix_text(top_error(explained(_NO_DELEGATE.format(library="libedgetpu.so.1"))))
    assert "/dev/bus/usb" not in bare


def test_a_base_path_polled_before_its_version_was_written_then_served_is_no_warning() -> None:
    # The server polls; a version written after the first poll loads: nothing is wrong.
    polled = (
        "2024-02-11 09:30:12.004411: W tensorflow_serving/sources/storage_path/"
        "file_system_storage_path_source.cc:267] No versions of servable clf found under base "
        "path /models/clf. Did you forget to name your leaf directory as a number (eg. '/1/')?\n"
    )
    loaded = (
        "2024-02-11 09:30:14.118020: I tensorflow_serving/core/loader_harness.cc:95] "
        "Successfully loaded servable version {name: clf version: 1}\n"
    )
    report = explained(polled + loaded)
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings)
    other = loaded.replace("name: clf", "name: other")
    found = explained(polled + other).findings
    assert [f for f in found if f.cause == "serving-model-version-missing"]


@pytest.mark.parametrize("runner", ["", '  File "<frozen runpy>", line 88, in _run_code\n'])
def test_a_script_in_a_folder_named_as_a_library_is_the_users(runner: str) -> None:
    # The user's own script, run from a folder that bears deepface's name: no frame enters
    # that folder from outside, so its line is the user's, which the API readings judge.
    text = (
        "Traceback (most recent call last):\n"
        + runner
        + '  File "/home/ana/deepface/app.py", line 14, in <module>\n'
        "    g = model.outputs[0].graph\n"
        "AttributeError: 'KerasTensor' object has no attribute 'graph'\n"
    )
    assert not _companion(text)


@pytest.mark.parametrize(
    ("path", "held"),
    [
        ("/home/ana/src/keras2onnx/keras2onnx/proto/parse.py", "/home/ana/src/keras2onnx"),
        ("C:\\src\\onnx\\keras2onnx\\_parse.py", "C:\\src\\onnx"),
        ("keras2onnx/_parse.py", "."),
        ("/home/ana/keras2onnx_tools/parse.py", None),
    ],
)
def test_a_checkouts_directory_is_the_one_holding_the_innermost_package(
    path: str, held: Optional[str]
) -> None:
    # One reading for the object-field and the class-field checks.
    assert tree_holding(path, "keras2onnx") == held


def test_a_tensorflow_source_tree_on_the_path_is_no_librarys_failure() -> None:
    # Python imports the checkout's tensorflow package, which fails inside its own tree: the
    # tree on the path is the answer, not the installed library whose import reached it.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/app/run.py", line 3, in <module>\n    import transformers\n'
        '  File "/usr/lib/python3.8/site-packages/transformers/modeling_tf_utils.py", line 10, '
        "in <module>\n    import tensorflow as tf\n"
        '  File "/home/u/src/tensorflow/tensorflow/__init__.py", line 24, in <module>\n'
        "    from tensorflow.python import pywrap_tensorflow\n"
        "ImportError: cannot import name 'pywrap_tensorflow'\n"
    )
    (tb,) = read_tracebacks(log)
    assert library_caller(tb) is None
    # The installed TensorFlow's frame is the callee: the library above it raised.
    installed = log.replace("/home/u/src/tensorflow/", "/usr/lib/python3.8/site-packages/")
    (tb,) = read_tracebacks(installed)
    assert library_caller(tb) == (
        "transformers",
        "/usr/lib/python3.8/site-packages/transformers/modeling_tf_utils.py",
    )
