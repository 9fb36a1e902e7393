"""Model files across releases: what Keras, h5py and HDF5 print when a model or weights file
cannot be read or written, and the cause explain reads in it.

- Keras asking for h5py, in the words of each release (Keras 2.x Model's "`load_weights`
  requires h5py", 2.7-2.15's "Filepath looks like a hdf5 file but h5py is not available",
  2.15 and 3.x "`load_model()` using h5 format requires h5py", 3.14's "Loading HDF5 files
  requires the h5py package"): dependency-missing, h5py installed.
- HDF5's "unable to lock file, errno = N" (HDF5 1.10 and later, src/H5FDsec2.c): the errno
  tells a file system without locks (37, 38, 95, 524) from a file another process holds (11,
  35); hdf5-file-lock-failed, with HDF5_USE_FILE_LOCKING=FALSE.
- TensorFlow 2.0-2.7's tf.keras reading a `.keras` path as a SavedModel directory ("SavedModel
  file does not exist at: X.keras/{saved_model.pbtxt|saved_model.pb}"), and Keras 2.8-2.11's
  HDF5 loader finding no HDF5 signature in a `.keras` file the code names: the zip of Keras
  2.13 and later, or no file; model-from-newer-keras, a warning.
- h5py's frames under Keras 3's HDF5 loader are Keras' own callee: no sign of code written for
  Keras 2.
- tensorflow_hub's "'DIR' contains neither 'saved_model.pb' nor 'saved_model.pbtxt'" for a
  directory of its cache (named by the SHA-1 of the handle, resolver.py takes any non-empty one
  as downloaded): hub-cache-incomplete, the directory removed.
- Keras' func_load refused by marshal ("bad marshal data", "marshal data too short"), or a
  Lambda layer's call running into "unknown opcode": the bytecode of another Python minor;
  model-bytecode-other-python (an error, a warning from the call).
- HDF5's "***HDF5 library version mismatched error***" and "Headers are X, library is Y"
  (src/H5.c, then abort): hdf5-library-mismatch, a warning where the banner says the check
  is disabled and the program goes on; h5py's own "h5py is running against HDF5"
  note stays below warning.
- A TypeError under tf.keras' SavedModel loader (keras/saving/saved_model/load.py), its message
  a refused keyword argument or cut from the paste: model-from-newer-keras, a warning.
- TensorFlow Lite's "Model provided has model identifier 'ion ', should be 'TFL3'" (bytes 4-7 of
  "version https://git-lfs.github.com/spec/v1") and the pointer's line shown:
  model-file-lfs-pointer (an error; a warning for the line alone).
- Notes printed while saving and loading work (Keras 3 skipping an optimizer's variables, the
  HDF5 legacy note, metrics not built, no training configuration, untraced functions, unsaved
  custom gradients, a checkpoint value not restored): below warning.
"""

from __future__ import annotations

import pytest

from tests.explaining import all_causes, explained, fix_text, top_error
from tfdoctor.findings import Severity

_SITE = "/srv/app/.venv/lib/python3.12/site-packages"


def _warning_of(text: str, cause: str) -> str:
    """The fix of the finding of ``cause`` explain gives ``text``, which must be a warning."""
    found = next(f for f in explained(text).findings if f.cause == cause)
    assert found.severity is Severity.WARNING
    return fix_text(found)


def _h5py_open(message: str, loader: str) -> str:
    """A traceback of ``loader`` (Keras frames, as lines) opening a file with h5py, ending in
    HDF5's ``message``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/predict.py", line 8, in <module>\n'
        '    net = keras.models.load_model("weights/net.h5")\n'
        f"{loader}"
        f'  File "{_SITE}/h5py/_hl/files.py", line 564, in __init__\n'
        "    fid = make_fid(name, mode, userblock_size, fapl, fcpl, swmr=swmr)\n"
        f'  File "{_SITE}/h5py/_hl/files.py", line 238, in make_fid\n'
        "    fid = h5f.open(name, flags, fapl=fapl)\n"
        '  File "h5py/h5f.pyx", line 102, in h5py.h5f.open\n'
        f"{message}\n"
    )


_KERAS3_H5 = (
    f'  File "{_SITE}/keras/src/saving/saving_api.py", line 183, in load_model\n'
    "    return legacy_h5_format.load_model_from_hdf5(\n"
    f'  File "{_SITE}/keras/src/legacy/saving/legacy_h5_format.py", line 116, in '
    "load_model_from_hdf5\n"
    '    f = h5py.File(filepath, mode="r")\n'
)


# --- Keras asking for h5py ------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(
            "ImportError: `load_model()` using h5 format requires h5py. Could not import h5py.",
            id="keras3-load-model",
        ),
        pytest.param(
            "ImportError: `save_model()` using h5 format requires h5py. Could not import h5py.",
            id="keras3-save-model",
        ),
        pytest.param(
            "ImportError: Filepath looks like a hdf5 file but h5py is not available. "
            "filepath=checkpoints/best.hdf5",
            id="keras2-legacy-load",
        ),
        pytest.param(
            # Keras 2.12-2.15 and tf-keras join two literals without a space between them.
            "ImportError: Filepath looks like a hdf5 file but h5pyis not available. "
            "filepath=checkpoints/best.h5",
            id="keras2.12-legacy-load",
        ),
        pytest.param(
            "ImportError: Loading HDF5 files requires the h5py package. You can install it via "
            "`pip install h5py`",
            id="keras3-load-weights",
        ),
    ],
)
def test_keras_asking_for_h5py_installs_it(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "dependency-missing" and 'pip install "h5py"' in fix_text(top)


# --- HDF5 file locking ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(
            "OSError: Unable to open file (unable to lock file, errno = 37, error message = "
            "'No locks available')",
            id="enolck",
        ),
        pytest.param(
            "OSError: [Errno 524] Unable to synchronously create file (unable to lock file, "
            "errno = 524, error message = 'Unknown error 524')",
            id="enotsupp-hdf5-1.14",
        ),
        pytest.param(
            "OSError: Unable to create file (unable to lock file, errno = 38, error message = "
            "'Function not implemented')",
            id="enosys",
        ),
        # Darwin's <sys/errno.h> numbers: ENOTSUP 45, ENOLCK 77, ENOSYS 78.
        pytest.param(
            "BlockingIOError: [Errno 45] Unable to synchronously create file (unable to lock "
            "file, errno = 45, error message = 'Operation not supported')",
            id="macos-enotsup",
        ),
        pytest.param(
            "OSError: Unable to open file (unable to lock file, errno = 77, error message = "
            "'No locks available')",
            id="macos-enolck",
        ),
        pytest.param(
            "OSError: Unable to open file (unable to lock file, errno = 78, error message = "
            "'Function not implemented')",
            id="macos-enosys",
        ),
    ],
)
def test_a_file_system_without_locks_turns_hdf5_locking_off(message: str) -> None:
    top = top_error(explained(_h5py_open(message, _KERAS3_H5)))
    assert top.cause == "hdf5-file-lock-failed" and top.severity is Severity.ERROR
    fix = fix_text(top)
    assert "export HDF5_USE_FILE_LOCKING=FALSE" in fix and "takes no locks" in fix


def test_a_file_another_process_holds_names_that_process_first() -> None:
    message = (
        "BlockingIOError: [Errno 11] Unable to synchronously open file (unable to lock file, "
        "errno = 11, error message = 'Resource temporarily unavailable')"
    )
    top = top_error(explained(_h5py_open(message, _KERAS3_H5)))
    assert top.cause == "hdf5-file-lock-failed"
    fix = fix_text(top)
    assert fix.startswith("Another process has the file open")
    assert "HDF5_USE_FILE_LOCKING=FALSE" in fix


def test_errno_35_of_linux_is_no_file_another_process_holds() -> None:
    # 35 is EAGAIN on macOS, EDEADLK on Linux: only macOS's words make it a held file.
    linux = (
        "OSError: Unable to open file (unable to lock file, errno = 35, error message = "
        "'Resource deadlock avoided')"
    )
    text = _h5py_open(linux, _KERAS3_H5)
    assert "hdf5-file-lock-failed" not in all_causes(text)
    macos = linux.replace("Resource deadlock avoided", "Resource temporarily unavailable")
    assert top_error(explained(_h5py_open(macos, _KERAS3_H5))).cause == "hdf5-file-lock-failed"


@pytest.mark.parametrize(
    ("errno", "words"),
    [
        pytest.param(45, "Level 2 not synchronized", id="el2nsync"),
        pytest.param(77, "File descriptor in bad state", id="ebadfd"),
        pytest.param(78, "Remote address changed", id="eremchg"),
    ],
)
def test_linux_errnos_of_macos_lock_numbers_are_not_unsupported_locks(
    errno: int, words: str
) -> None:
    # 45, 77 and 78 are macOS's ENOTSUP, ENOLCK and ENOSYS only: Linux's words are others.
    message = (
        f"OSError: Unable to open file (unable to lock file, errno = {errno}, error message = "
        f"'{words}')"
    )
    assert "hdf5-file-lock-failed" not in all_causes(_h5py_open(message, _KERAS3_H5))


def test_other_hdf5_open_failures_are_not_locking() -> None:
    message = (
        "OSError: Unable to open file (unable to open file: name = 'weights/net.h5', errno = 2, "
        "error message = 'No such file or directory', flags = 0, o_flags = 0)"
    )
    assert "hdf5-file-lock-failed" not in all_causes(_h5py_open(message, _KERAS3_H5))


# --- A `.keras` zip under an older tf.keras -------------------------------------------------


def _tf24_load(path: str) -> str:
    """TensorFlow 2.4's tf.keras load_model handing ``path`` to the SavedModel loader."""
    site = "/home/ana/miniconda3/envs/tf24/lib/python3.8/site-packages"
    return (
        "Traceback (most recent call last):\n"
        '  File "serve.py", line 14, in <module>\n'
        f'    model = tf.keras.models.load_model("{path}")\n'
        f'  File "{site}/tensorflow/python/keras/saving/save.py", line 211, in load_model\n'
        "    loader_impl.parse_saved_model(filepath)\n"
        f'  File "{site}/tensorflow/python/saved_model/loader_impl.py", line 111, in '
        "parse_saved_model\n"
        '    raise IOError("SavedModel file does not exist at: %s/{%s|%s}" %\n'
        f"OSError: SavedModel file does not exist at: {path}/{{saved_model.pbtxt|saved_model.pb}}\n"
    )


def test_a_keras_path_read_as_savedmodel_is_a_newer_keras_zip() -> None:
    fix = _warning_of(_tf24_load("models/ranker.keras"), "model-from-newer-keras")
    assert "metadata.json" in fix and "ls -l MODEL.keras" in fix


def test_a_keras_path_on_windows_is_listed_with_dir() -> None:
    # A Windows interpreter's site-packages: cmd has no ls.
    site = "/home/ana/miniconda3/envs/tf24/lib/python3.8/site-packages/"
    lines = _tf24_load("models/ranker.keras").splitlines(keepends=True)
    text = "".join(
        line.replace(site, "C:\\Users\\ana\\miniconda3\\envs\\tf24\\lib\\site-packages\\").replace(
            "/", "\\"
        )
        if site in line
        else line
        for line in lines
    )
    fix = _warning_of(text, "model-from-newer-keras")
    assert "dir MODEL.keras" in fix and "ls -l" not in fix


def test_an_h5_path_read_as_savedmodel_is_not_a_newer_keras() -> None:
    assert "model-from-newer-keras" not in all_causes(_tf24_load("models/ranker.h5"))


# --- Keras' own callees are no Keras 2 code -------------------------------------------------


def test_h5py_under_keras3_loader_is_no_sign_of_keras2_code() -> None:
    text = _h5py_open(
        "OSError: Unable to synchronously open file (file signature not found)", _KERAS3_H5
    )
    assert "keras3-behaviour-change" not in all_causes(text)


def test_dm_tree_under_keras_3_0_is_no_sign_of_keras2_code() -> None:
    # Keras 3.0 and 3.1 map structures with dm-tree (imported as tree), 3.2 on with optree.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/train.py", line 20, in <module>\n'
        "    model.fit(ds, epochs=3)\n"
        f'  File "{_SITE}/keras/src/trainers/data_adapters/__init__.py", line 113, in '
        "get_data_adapter\n"
        "    return GeneratorDataAdapter(x)\n"
        f'  File "{_SITE}/tree/__init__.py", line 435, in map_structure\n'
        "    [func(*args) for args in zip(*map(flatten, structures))])\n"
        f'  File "{_SITE}/keras/src/trainers/data_adapters/generator_data_adapter.py", '
        "line 54, in get_tensor_spec\n"
        "    raise ValueError(\n"
        "ValueError: When passing a Python generator to a Keras model, the arrays returned by "
        "the generator must be at least rank 1.\n"
    )
    assert "keras3-behaviour-change" not in all_causes(text)


# --- TF Hub's cache -------------------------------------------------------------------------


def _hub_load(module_path: str) -> str:
    """tensorflow_hub's load refusing ``module_path`` for having no saved_model.pb(txt)."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/embed.py", line 5, in <module>\n'
        '    layer = hub.KerasLayer("https://tfhub.dev/google/nnlm-en-dim50/2")\n'
        f'  File "{_SITE}/tensorflow_hub/module_v2.py", line 113, in load\n'
        '    raise ValueError("Trying to load a model of incompatible/unknown type. "\n'
        "ValueError: Trying to load a model of incompatible/unknown type. "
        f"'{module_path}' contains neither 'saved_model.pb' nor 'saved_model.pbtxt'.\n"
    )


def test_a_hub_cache_entry_without_its_savedmodel_is_removed() -> None:
    entry = "/tmp/tfhub_modules/5f8a3b2c4d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a"
    top = top_error(explained(_hub_load(entry)))
    assert top.cause == "hub-cache-incomplete"
    assert top.fix is not None and top.fix.commands == (f"rm -rf -- {entry}",)
    assert "TFHUB_CACHE_DIR" in top.fix.text


def test_a_hub_cache_entry_on_windows_is_removed_with_powershell() -> None:
    entry = "C:\\Users\\ana\\AppData\\Local\\Temp\\tfhub_modules\\" + "0a" * 20
    top = top_error(explained(_hub_load(entry)))
    assert top.cause == "hub-cache-incomplete"
    assert top.fix is not None and top.fix.commands == (
        f"Remove-Item -LiteralPath '{entry}' -Recurse -Force",
    )


def test_a_windows_hub_cache_entry_is_removed_by_its_literal_path_alone() -> None:
    # In a double-quoted -Path, PowerShell expands $ana (to nothing) and reads [1] as a
    # wildcard: the command would remove another directory, or several.
    entry = "C:\\Users\\$ana\\cache[1]\\tfhub_modules\\" + "0a" * 20
    top = top_error(explained(_hub_load(entry)))
    assert top.fix is not None and top.fix.commands == (
        f"Remove-Item -LiteralPath '{entry}' -Recurse -Force",
    )


def test_a_directory_of_the_users_own_is_no_hub_cache_entry() -> None:
    assert "hub-cache-incomplete" not in all_causes(_hub_load("models/sentence_encoder"))


def test_a_hugging_face_snapshot_is_no_hub_cache_entry() -> None:
    # Its commit is 40 hex digits too; removing it is no fix for a SavedModel in a subfolder.
    snapshot = "/home/ana/.cache/huggingface/hub/models--org--encoder/snapshots/" + "3c" * 20
    assert "hub-cache-incomplete" not in all_causes(_hub_load(snapshot))


# --- A Lambda layer's bytecode of another Python --------------------------------------------


def _func_load(loader: str, message: str) -> str:
    """Keras deserialising a Lambda layer through ``loader``'s func_load, ending in
    ``message``."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/predict.py", line 8, in <module>\n'
        '    net = keras.models.load_model("weights/net.h5", compile=False)\n'
        f'  File "{_SITE}/keras/src/layers/core/lambda_layer.py", line 200, in from_config\n'
        "    fn = python_utils.func_load(\n"
        f'  File "{_SITE}/{loader}", line 101, in func_load\n'
        "    code = marshal.loads(raw_code)\n"
        f"{message}\n"
    )


@pytest.mark.parametrize(
    ("loader", "message"),
    [
        pytest.param(
            "keras/src/utils/python_utils.py",
            "ValueError: bad marshal data (unknown type code)",
            id="keras3",
        ),
        pytest.param(
            "tensorflow/python/keras/utils/generic_utils.py",
            "EOFError: marshal data too short",
            id="tf-keras-copy",
        ),
    ],
)
def test_a_lambdas_bytecode_refused_by_marshal_is_another_python(loader: str, message: str) -> None:
    top = top_error(explained(_func_load(loader, message)))
    assert top.cause == "model-bytecode-other-python" and top.severity is Severity.ERROR
    assert "load only its weights" in fix_text(top)


def test_a_marshal_refusal_under_keras2s_traceback_filter_is_another_python() -> None:
    # Keras 2.7 on drop their own frames (func_load's among them) and raise from error_handler.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/predict.py", line 8, in <module>\n'
        '    net = tf.keras.models.load_model("weights/net.h5", compile=False)\n'
        f'  File "{_SITE}/keras/utils/traceback_utils.py", line 70, in error_handler\n'
        "    raise e.with_traceback(filtered_tb) from None\n"
        "ValueError: bad marshal data (unknown type code)\n"
    )
    assert "load only its weights" in _warning_of(text, "model-bytecode-other-python")
    opcode = text.replace(
        "ValueError: bad marshal data (unknown type code)",
        '  File "/home/trainer/train.py", line 41, in <lambda>\nSystemError: unknown opcode',
    )
    assert "load only its weights" in _warning_of(opcode, "model-bytecode-other-python")


def test_an_unknown_opcode_in_a_lambdas_call_is_a_warning() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/predict.py", line 9, in <module>\n'
        "    net.predict(batch)\n"
        f'  File "{_SITE}/keras/layers/core/lambda_layer.py", line 211, in call\n'
        "    result = self.function(inputs, **kwargs)\n"
        '  File "/home/trainer/notebooks/train.py", line 41, in <lambda>\n'
        "SystemError: unknown opcode\n"
    )
    assert "load only its weights" in _warning_of(text, "model-bytecode-other-python")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("SystemError: unknown opcode\n", id="python-3.11-alone"),
        pytest.param(
            "Traceback (most recent call last):\n"
            '  File "/srv/jobs/worker.py", line 22, in <module>\n'
            "    out = task(batch)\n"
            '  File "/srv/jobs/notebooks/prep.py", line 8, in task\n'
            "SystemError: /srv/jobs/notebooks/prep.py:8: unknown opcode 0\n",
            id="python-3.12-no-keras-frame",
        ),
        pytest.param(
            "SystemError: <string>:-1: unknown opcode 255\n", id="python-3.12-no-line-known"
        ),
    ],
)
def test_an_unknown_opcode_without_keras_frames_covers_a_lambda_and_a_pickled_function(
    text: str,
) -> None:
    fix = _warning_of(text, "model-bytecode-other-python")
    assert "load only its weights" in fix and "pickle it again" in fix
    # No Keras frame shows a model: the title names the Lambda layer as a candidate only.
    (found,) = [x for x in explained(text).findings if x.cause == "model-bytecode-other-python"]
    assert found.summary.startswith("Bytecode of another Python minor")


def test_cpythons_opcode_note_above_a_cut_keras_traceback_is_a_lambda() -> None:
    # ceval.c (2.x-3.11) prints the note, then raises SystemError('unknown opcode'); the
    # paste stops in Keras' model rebuilding, before the exception line.
    text = (
        "XXX lineno: 3, opcode: 0\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/serve.py", line 5, in <module>\n'
        '    net = tf.keras.models.load_model("net.h5")\n'
        f'  File "{_SITE}/tensorflow/python/keras/saving/save.py", line 182, in load_model\n'
        "    return hdf5_format.load_model_from_hdf5(filepath, custom_objects, compile)\n"
        f'  File "{_SITE}/tensorflow/python/keras/saving/hdf5_format.py", line 178, in '
        "load_model_from_hdf5\n"
        "    custom_objects=custom_objects)\n"
    )
    fix = _warning_of(text, "model-bytecode-other-python")
    assert "load only its weights" in fix and "pickle it again" not in fix


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("ValueError: unknown opcode 'NOP'\n", id="another-type"),
        pytest.param(
            "XXX lineno: 3, opcode: 0\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/app/serve.py", line 5, in <module>\n'
            "    main()\n"
            "KeyError: 'net'\n",
            id="note-then-another-exception",
        ),
    ],
)
def test_other_words_of_an_opcode_are_no_bytecode(text: str) -> None:
    assert "model-bytecode-other-python" not in all_causes(text)


def test_bad_marshal_data_of_a_pyc_import_is_no_lambda() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/predict.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "<frozen importlib._bootstrap_external>", line 1130, in get_code\n'
        "ValueError: bad marshal data (unknown type code)\n"
    )
    assert "model-bytecode-other-python" not in all_causes(text)


# --- h5py built against another HDF5 --------------------------------------------------------

_HDF5_BANNER = (
    "Warning! ***HDF5 library version mismatched error***\n"
    "The HDF5 header files used to compile this application do not match\n"
    "the version used by the HDF5 library to which this application is linked.\n"
    "Data corruption or segmentation faults may occur if the application continues.\n"
    "Headers are 1.12.1, library is 1.14.2\n"
)


#: h5py's own note of the same difference, which it runs on (h5py/__init__.py).
_H5PY_RUNNING_AGAINST = (
    "/home/ana/miniconda3/envs/tf/lib/python3.10/site-packages/h5py/__init__.py:36: "
    "UserWarning: h5py is running against HDF5 1.14.2 when it was built against 1.12.1, this "
    "may cause problems\n"
    '  _warn(("h5py is running against HDF5 {0} when it was built against {1}, "\n'
)


def test_h5pys_own_note_of_another_hdf5_stays_below_warning() -> None:
    report = explained(_H5PY_RUNNING_AGAINST + "Epoch 1/5\n")
    assert all(f.severity.rank < Severity.WARNING.rank for f in report.findings)


def test_hdf5_headers_of_another_release_reinstall_h5pys_wheel() -> None:
    top = top_error(explained(_HDF5_BANNER + "Aborted (core dumped)\n"))
    assert top.cause == "hdf5-library-mismatch"
    assert top.fix is not None and top.fix.commands == (
        "pip install --force-reinstall --no-deps --no-cache-dir --only-binary h5py h5py",
    )
    assert "headers 1.12.1, library 1.14.2" in top.fix.text


#: ``conda list``'s header and rows (conda/cli/main_list.py) for h5py and hdf5, their channel
#: column ``{channel}`` (empty for the default channels).
_CONDA_LIST = (
    "$ conda list hdf\n"
    "# packages in environment at /home/ana/miniconda3/envs/tf:\n"
    "#\n"
    "# Name                    Version                   Build  Channel\n"
    "h5py                      3.9.0           py310he06866b_0    {channel}\n"
    "hdf5                      1.12.1               h2b7332f_3    {channel}\n"
)


@pytest.mark.parametrize(
    ("listed", "command"),
    [
        ("", "conda install --force-reinstall h5py hdf5"),
        (
            _CONDA_LIST.format(channel="conda-forge"),
            "conda install -c conda-forge --force-reinstall h5py hdf5",
        ),
        (_CONDA_LIST.format(channel=""), "conda install --force-reinstall h5py hdf5"),
    ],
    ids=["no-list", "conda-forge", "defaults"],
)
def test_hdf5_headers_of_another_release_in_conda_take_both_from_one_channel(
    listed: str, command: str
) -> None:
    # The channel `conda list` shows, where the log shows it; else none named, so conda-forge
    # is not pulled into an environment of the default channels.
    text = (
        listed + "/home/ana/miniconda3/envs/tf/lib/python3.10/site-packages/tensorflow/python/"
        "util/deprecation.py:576: UserWarning: layer.add_variable is deprecated\n"
        f"{_HDF5_BANNER}"
        "Aborted (core dumped)\n"
    )
    top = top_error(explained(text))
    assert top.cause == "hdf5-library-mismatch"
    assert top.fix is not None and command in top.fix.commands


def test_hdf5_mismatch_with_the_check_disabled_is_a_warning() -> None:
    # H5check_version's second branch (src/H5.c): HDF5_DISABLE_VERSION_CHECK=1 ends the
    # banner with these two lines instead of the hint and "Bye...", and the program goes on.
    text = (
        "Warning! ***HDF5 library version mismatched error***\n"
        "The HDF5 header files used to compile this application do not match\n"
        "the version used by the HDF5 library to which this application is linked.\n"
        "Data corruption or segmentation faults may occur if the application continues.\n"
        "'HDF5_DISABLE_VERSION_CHECK' environment variable is set to 1, application will\n"
        "continue at your own risk.\n"
        "Headers are 1.12.1, library is 1.14.2\n"
    )
    found = next(f for f in explained(text).findings if f.cause == "hdf5-library-mismatch")
    assert found.severity is Severity.WARNING
    assert found.fix is not None and found.fix.commands
    # Without it HDF5 aborts: the same banner is an error.
    assert top_error(explained(_HDF5_BANNER + "Bye...\n")).cause == "hdf5-library-mismatch"


# --- A SavedModel of a newer TensorFlow under tf.keras' loader ------------------------------


def _keras_savedmodel_load(tail: str) -> str:
    """TensorFlow 2.3's tf.keras loading a SavedModel directory, IPython's format, ending in
    ``tail`` (the exception's line, or the last frame where the paste ends)."""
    site = "~/anaconda3/envs/seg/lib/python3.7/site-packages"
    return (
        "---------------------------------------------------------------------------\n"
        "TypeError                                 Traceback (most recent call last)\n"
        "<ipython-input-4-1b2c> in <module>\n"
        '----> 1 model = tf.keras.models.load_model("export/unet")\n'
        "\n"
        f"{site}/tensorflow/python/keras/saving/save.py in load_model(filepath, "
        "custom_objects, compile, options)\n"
        "    186     if isinstance(filepath, six.string_types):\n"
        "    187       loader_impl.parse_saved_model(filepath)\n"
        "--> 188       return saved_model_load.load(filepath, compile, options)\n"
        "\n"
        f"{site}/tensorflow/python/keras/saving/saved_model/load.py in load(path, compile, "
        "options)\n"
        "    119   model = tf_load.load_internal(\n"
        "--> 120       path, options=options, loader_cls=KerasObjectLoader)\n"
        "\n"
        f"{site}/tensorflow/python/saved_model/load.py in load_internal(export_dir, tags, "
        "options, loader_cls)\n"
        "    632       loader = loader_cls(object_graph_proto, saved_model_proto, export_dir,\n"
        f"{tail}"
    )


def test_a_typeerror_cut_from_the_keras_savedmodel_loader_is_a_newer_model() -> None:
    text = _keras_savedmodel_load("--> 633                           ckpt_options)\n")
    assert "tensorflow_version" in _warning_of(text, "model-from-newer-keras")


def test_another_typeerror_shown_under_the_loader_is_not_read_so() -> None:
    text = _keras_savedmodel_load(
        "--> 633                           ckpt_options)\n\n"
        "TypeError: 'NoneType' object is not callable\n"
    )
    assert "model-from-newer-keras" not in all_causes(text)


def test_a_typeerror_of_the_codes_own_layer_under_the_loader_is_not_a_newer_model() -> None:
    # A custom layer whose constructor refuses a key its own get_config wrote: same release.
    site = "/home/ana/venv/lib/python3.8/site-packages/tensorflow/python/keras"
    text = (
        "Traceback (most recent call last):\n"
        '  File "serve.py", line 9, in <module>\n'
        '    model = tf.keras.models.load_model("export/unet", custom_objects={"Attn": Attn})\n'
        f'  File "{site}/saving/saved_model/load.py", line 409, in _revive_layer_from_config\n'
        "    generic_utils.serialize_keras_class_and_config(class_name, config))\n"
        f'  File "{site}/engine/base_layer.py", line 720, in from_config\n'
        "    return cls(**config)\n"
        '  File "/srv/app/layers.py", line 12, in __init__\n'
        "    super().__init__(**kwargs)\n"
        f'  File "{site}/engine/base_layer.py", line 340, in __init__\n'
        "    generic_utils.validate_kwargs(kwargs, allowed_kwargs)\n"
        "TypeError: __init__() got an unexpected keyword argument 'heads'\n"
    )
    assert "model-from-newer-keras" not in all_causes(text)
    # The same refusal from tf.keras' own layer is read so.
    own = text.replace('  File "/srv/app/layers.py", line 12, in __init__\n', "").replace(
        "    super().__init__(**kwargs)\n", ""
    )
    assert "model-from-newer-keras" in all_causes(own)


# --- A Git LFS pointer where the model should be --------------------------------------------


def test_tflite_reading_ion_as_identifier_is_an_lfs_pointer() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/pi/detect.py", line 21, in <module>\n'
        '    interpreter = Interpreter(model_path="models/detect.tflite")\n'
        '  File "/home/pi/.local/lib/python3.9/site-packages/tflite_runtime/interpreter.py", '
        "line 464, in __init__\n"
        "    self._interpreter = _interpreter_wrapper.CreateWrapperFromFile(\n"
        "ValueError: Model provided has model identifier 'ion ', should be 'TFL3'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "model-file-lfs-pointer"
    assert top.fix is not None and top.fix.commands == ("git lfs install", "git lfs pull")


def test_another_identifier_is_no_lfs_pointer() -> None:
    text = "ValueError: Model provided has model identifier 'Mobi', should be 'TFL3'\n"
    assert "model-file-lfs-pointer" not in all_causes(text)


def test_a_pointer_shown_is_a_warning() -> None:
    text = (
        "$ head -3 weights/model.h5\n"
        "version https://git-lfs.github.com/spec/v1\n"
        "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
        "size 94582040\n"
    )
    assert "git lfs pull" in _warning_of(text, "model-file-lfs-pointer")


def _keras211_load(path: str) -> str:
    """Keras 2.11's load_model handing the file ``path`` to its HDF5 loader, which h5py
    refuses."""
    site = "/opt/conda/lib/python3.9/site-packages"
    return (
        "Traceback (most recent call last):\n"
        '  File "/workspace/infer.py", line 10, in <module>\n'
        f'    model = tf.keras.models.load_model("{path}")\n'
        f'  File "{site}/keras/utils/traceback_utils.py", line 70, in error_handler\n'
        "    raise e.with_traceback(filtered_tb) from None\n"
        f'  File "{site}/keras/saving/legacy/hdf5_format.py", line 178, in '
        "load_model_from_hdf5\n"
        '    f = h5py.File(filepath, mode="r")\n'
        f'  File "{site}/h5py/_hl/files.py", line 533, in __init__\n'
        "    fid = make_fid(name, mode, userblock_size, fapl, fcpl, swmr=swmr)\n"
        f'  File "{site}/h5py/_hl/files.py", line 226, in make_fid\n'
        "    fid = h5f.open(name, flags, fapl=fapl)\n"
        '  File "h5py/h5f.pyx", line 106, in h5py.h5f.open\n'
        "OSError: Unable to open file (file signature not found)\n"
    )


def test_a_keras_path_refused_by_keras2s_hdf5_loader_is_a_newer_keras_zip() -> None:
    fix = _warning_of(_keras211_load("exports/ranker.keras"), "model-from-newer-keras")
    assert "metadata.json" in fix


def test_a_keras_path_refused_under_keras2s_traceback_filter_is_a_newer_keras_zip() -> None:
    # As Keras 2.11 prints it by default: its filter drops every frame under keras/, the HDF5
    # loader's too, and raises again from error_handler.
    text = "".join(
        line
        for line in _keras211_load("exports/ranker.keras").splitlines(keepends=True)
        if "hdf5_format.py" not in line and "h5py.File(filepath" not in line
    )
    assert "metadata.json" in _warning_of(text, "model-from-newer-keras")
    assert "model-from-newer-keras" not in all_causes(text.replace("ranker.keras", "ranker.h5"))
    # Keras 2.13 on (keras/src/) read the zip: a .keras file their HDF5 loader refuses is none.
    newer = text.replace("/keras/utils/", "/keras/src/utils/")
    assert "model-from-newer-keras" not in all_causes(newer)


def test_an_h5_path_refused_by_keras2s_hdf5_loader_is_not_a_newer_keras() -> None:
    assert "model-from-newer-keras" not in all_causes(_keras211_load("exports/ranker.h5"))


# --- What Keras and TensorFlow print while saving and loading works -------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "/srv/app/.venv/lib/python3.12/site-packages/keras/src/saving/saving_lib.py:757: "
            "UserWarning: Skipping variable loading for optimizer 'adam', because it has 2 "
            "variables whereas the saved optimizer has 10 variables. \n"
            "  saveable.load_own_variables(weights_store.get(inner_path))\n",
            id="keras3-optimizer-skipped",
        ),
        pytest.param(
            "WARNING:absl:You are saving your model as an HDF5 file via `model.save()` or "
            "`keras.saving.save_model(model)`. This file format is considered legacy. We "
            "recommend using instead the native Keras format, e.g. "
            "`model.save('my_model.keras')` or `keras.saving.save_model(model, "
            "'my_model.keras')`. \n",
            id="keras-hdf5-legacy",
        ),
        pytest.param(
            "WARNING:absl:Compiled the loaded model, but the compiled metrics have yet to be "
            "built. `model.compile_metrics` will be empty until you train or evaluate the "
            "model.\n",
            id="keras3-compiled-metrics",
        ),
        pytest.param(
            "WARNING:tensorflow:No training configuration found in the save file, so the model "
            "was *not* compiled. Compile it manually.\n",
            id="keras2-not-compiled",
        ),
        pytest.param(
            "WARNING:absl:Found untraced functions such as _jit_compiled_convolution_op, "
            "_update_step_xla while saving (showing 2 of 2). These functions will not be "
            "directly callable after loading.\n",
            id="savedmodel-untraced",
        ),
        pytest.param(
            "WARNING:tensorflow:Importing a function (__inference_block1_conv1_layer_call_and_"
            "return_conditional_losses_1234) with ops with unsaved custom gradients. Will "
            "likely fail if a gradient is requested.\n",
            id="savedmodel-custom-gradients",
        ),
        pytest.param(
            "WARNING:tensorflow:Value in checkpoint could not be found in the restored object: "
            "(root).optimizer.iter\n",
            id="checkpoint-partial",
        ),
    ],
)
def test_notes_while_saving_and_loading_stay_below_warning(text: str) -> None:
    assert all(f.severity.rank < Severity.WARNING.rank for f in explained(text).findings)


@pytest.mark.parametrize(
    ("site", "listing", "copy"),
    [
        (
            "C:\\Users\\ana\\venv\\Lib\\site-packages\\keras\\src\\saving\\saving_api.py",
            "dir MODEL.keras",
            "copy MODEL.keras MODEL.h5",
        ),
        (
            "/home/ana/venv/lib/python3.11/site-packages/keras/src/saving/saving_api.py",
            "ls -l MODEL.keras",
            "cp MODEL.keras MODEL.h5",
        ),
    ],
)
def test_keras_3s_refused_keras_path_is_listed_and_copied_in_the_systems_commands(
    site: str, listing: str, copy: str
) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 4, in <module>\n'
        '    model = keras.models.load_model("models/classifier.keras")\n'
        f'  File "{site}", line 187, in load_model\n'
        "    raise ValueError(\n"
        "ValueError: File not found: filepath=models/classifier.keras. Please ensure the file "
        "is an accessible `.keras` zip file.\n"
    )
    found = next(f for f in explained(text).findings if f.cause == "keras3-behaviour-change")
    assert found.fix is not None
    assert listing in found.fix.commands and copy in found.fix.commands


@pytest.mark.parametrize(
    "line",
    [
        # dyld, for h5py's extension built against another libhdf5 release.
        "ImportError: dlopen(/Users/ana/env/lib/python3.8/site-packages/h5py/_errors.cpython-38-"
        "darwin.so, 2): Library not loaded: @rpath/libhdf5.200.dylib",
        # glibc, naming the soname the extension was linked with.
        "ImportError: libhdf5_serial.so.103: cannot open shared object file: No such file or "
        "directory",
    ],
    ids=["dyld", "glibc"],
)
def test_a_libhdf5_release_gone_from_under_h5py_is_hdf5_of_another_build(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "hdf5-library-mismatch"
    assert top.fix is not None and any("h5py" in c for c in top.fix.commands)


def test_a_libhdf5_that_loaded_is_not_missing() -> None:
    # The loader's trace of the library found is no failure.
    text = (
        "      trying file=/opt/env/lib/libhdf5.so.103\n"
        "      calling init: /opt/env/lib/libhdf5.so.103\n"
    )
    assert "hdf5-library-mismatch" not in all_causes(text)
