"""Processes and distribution-packaged Pythons: a spawned child re-running an unguarded main
module, CUDA used in a child forked after its parent initialised it, the limit of open files,
and the parts of the standard library Debian and Ubuntu package apart from their Python."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Report, Severity


def _causes(report: Report) -> set[str]:
    """The causes of the report's findings at warning or above."""
    return {f.cause for f in report.findings if f.severity.rank >= Severity.WARNING.rank}


# --- spawn re-running the main module -------------------------------------------------------


def test_the_bootstrapping_refusal_is_the_missing_main_guard() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        '  File "C:\\Python39\\lib\\multiprocessing\\spawn.py", line 116, in spawn_main\n'
        "    exitcode = _main(fd, parent_sentinel)\n"
        '  File "C:\\Python39\\lib\\multiprocessing\\spawn.py", line 125, in _main\n'
        "    prepare(preparation_data)\n"
        '  File "C:\\Python39\\lib\\multiprocessing\\spawn.py", line 236, in prepare\n'
        "    _fixup_main_from_path(data['init_main_from_path'])\n"
        '  File "C:\\Python39\\lib\\multiprocessing\\spawn.py", line 287, in '
        "_fixup_main_from_path\n"
        "    main_content = runpy.run_path(main_path,\n"
        '  File "C:\\Python39\\lib\\runpy.py", line 268, in run_path\n'
        "    return _run_module_code(code, init_globals, run_name,\n"
        '  File "C:\\Python39\\lib\\runpy.py", line 97, in _run_module_code\n'
        "    _run_code(code, mod_globals, init_globals,\n"
        '  File "C:\\Python39\\lib\\runpy.py", line 87, in _run_code\n'
        "    exec(code, run_globals)\n"
        '  File "C:\\work\\train_ocr.py", line 40, in <module>\n'
        "    model.fit(gen, workers=4, use_multiprocessing=True)\n"
        "RuntimeError: \n"
        "        An attempt has been made to start a new process before the\n"
        "        current process has finished its bootstrapping phase.\n"
    )
    top = top_error(explained(text))
    assert top.cause == "spawn-main-unguarded"
    fix = fix_text(top)
    # The module the child re-ran is named in the fix.
    assert "if __name__ == '__main__':" in fix and "C:\\work\\train_ocr.py" in fix


def test_a_child_failing_while_it_re_runs_the_main_module() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        '  File "/usr/lib/python3.8/multiprocessing/spawn.py", line 116, in spawn_main\n'
        '  File "/usr/lib/python3.8/multiprocessing/spawn.py", line 236, in prepare\n'
        '  File "/usr/lib/python3.8/multiprocessing/spawn.py", line 287, in '
        "_fixup_main_from_path\n"
    )
    top = top_error(explained(text))
    assert top.cause == "spawn-main-unguarded"
    assert "__main__" in fix_text(top) and "fork" in fix_text(top)


def test_a_child_failing_on_a_top_level_import_is_the_imports_error() -> None:
    # Imports stay at the top level under the guard: the child's failed import is its own.
    text = (
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        '  File "C:\\Python38\\lib\\multiprocessing\\spawn.py", line 287, in '
        "_fixup_main_from_path\n"
        "    main_content = runpy.run_path(main_path,\n"
        '  File "C:\\app\\train.py", line 3, in <module>\n'
        "    import cv2\n"
        "ModuleNotFoundError: No module named 'cv2'\n"
    )
    found = _causes(explained(text))
    assert "spawn-main-unguarded" not in found and "package-not-installed" in found


def test_a_childs_own_error_under_spawn_main_is_not_the_guard() -> None:
    # A child that started and raised in its target: spawn_main, but no re-run of the module.
    text = (
        "Process SpawnProcess-1:\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.8/multiprocessing/process.py", line 315, in _bootstrap\n'
        "    self.run()\n"
        '  File "/home/user/work.py", line 8, in job\n'
        "    raise ValueError('bad input')\n"
        "ValueError: bad input\n"
    )
    assert "spawn-main-unguarded" not in _causes(explained(text))


# --- CUDA initialised before a fork ----------------------------------------------------------


def test_a_context_that_cannot_be_set_in_a_forked_child() -> None:
    line = (
        "2022-05-01 08:00:00.000001: F tensorflow/stream_executor/cuda/cuda_driver.cc:219] "
        "Failed setting context: CUDA_ERROR_NOT_INITIALIZED: initialization error\n"
    )
    top = top_error(explained(line))
    assert top.cause == "tf-initialised-before-fork"
    fix = fix_text(top)
    assert "spawn" in fix and "use_multiprocessing" in fix
    # The change is in the program: no command that sets a start method in a throwaway
    # interpreter (it changes nothing) or that is Python, not shell.
    assert top.fix is not None
    assert not any("set_start_method(" in c or "model.fit" in c for c in top.fix.commands)
    assert any(c.startswith("grep ") for c in top.fix.commands)


@pytest.mark.parametrize(
    "fork",
    [
        "WARNING:tensorflow:multiprocessing can interact badly with TensorFlow, causing "
        "nondeterministic deadlocks. For high performance data pipelines tf.data is recommended.",
        "[2023-02-02 12:00:00,000: ERROR/ForkPoolWorker-2] Task predict[ab12] raised unexpected",
        "spawned uWSGI worker 2 (pid: 40, cores: 1)",
    ],
)
def test_cudas_initialization_error_where_the_log_shows_a_fork(fork: str) -> None:
    text = fork + "\nInternalError: cudaGetDevice() failed. Status: initialization error\n"
    top = top_error(explained(text))
    assert top.cause == "tf-initialised-before-fork"
    if "ForkPoolWorker" in fork:
        assert "--pool=solo" in fix_text(top)


def test_cudas_initialization_error_without_a_fork_is_not_this() -> None:
    for line in (
        "InternalError: cudaGetDevice() failed. Status: initialization error",
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:328] failed call to cuInit: "
        "CUDA_ERROR_NOT_INITIALIZED: initialization error",
    ):
        assert "tf-initialised-before-fork" not in _causes(explained(line + "\n"))


_GUNICORN_START = (
    "[2021-06-01 09:00:00 +0000] [1] [INFO] Starting gunicorn 20.1.0\n"
    "[2021-06-01 09:00:00 +0000] [1] [INFO] Listening at: http://0.0.0.0:8000 (1)\n"
    "[2021-06-01 09:00:00 +0000] [7] [INFO] Booting worker with pid: 7\n"
)


def test_gunicorns_start_alone_is_harmless() -> None:
    # Every healthy start prints these lines: no failure, no hang, nothing to warn of.
    assert not _causes(explained(_GUNICORN_START))


def test_a_gunicorn_worker_that_hung_is_a_warning_with_gunicorns_fix() -> None:
    text = _GUNICORN_START + "[2021-06-01 09:00:31 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:7)\n"
    top = explained(text).findings[0]
    assert top.cause == "tf-initialised-before-fork" and top.severity is Severity.WARNING
    assert "--preload" in fix_text(top) and "gunicorn" in fix_text(top)


def test_cudas_initialization_error_in_gunicorns_workers_has_gunicorns_fix() -> None:
    text = _GUNICORN_START + "InternalError: cudaGetDevice() failed. Status: initialization error\n"
    top = top_error(explained(text))
    assert top.cause == "tf-initialised-before-fork"
    assert "--preload" in fix_text(top)


def test_gunicorn_workers_beside_another_failure_are_not_this() -> None:
    text = (
        "[2021-06-01 09:00:31 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:7)\n"
        "OSError: [Errno 28] No space left on device\n"
    )
    assert "tf-initialised-before-fork" not in _causes(explained(text))


def test_keras_multiprocessing_warning_alone_stays_harmless() -> None:
    text = (
        "WARNING:tensorflow:multiprocessing can interact badly with TensorFlow, causing "
        "nondeterministic deadlocks. For high performance data pipelines tf.data is "
        "recommended.\n"
    )
    assert not _causes(explained(text))


# --- open files --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "OSError: [Errno 24] Too many open files: '/data/shards/part-00017.tfrecord'",
        "E tensorflow_serving/sources/storage_path/file_system_storage_path_source.cc:369] "
        "FileSystemStoragePathSource encountered a file-system access error: /models/m; "
        "Too many open files",
    ],
)
def test_the_limit_of_open_files(line: str) -> None:
    top = top_error(explained(line + "\n"))
    assert top.cause == "open-files-limit-reached"
    assert "ulimit -n" in fix_text(top)


def test_inotifys_own_limit_and_the_other_limits_are_not_open_files() -> None:
    for line, other in (
        ("failed to create fsnotify watcher: too many open files", ""),
        # A reader's prose, after the fact: the words without the call they describe.
        ("I raised ulimit -n because of Too many open files earlier, now it works", ""),
        ("OSError: [Errno 28] No space left on device", "disk-space-exhausted"),
        (
            "F tensorflow/core/platform/default/env.cc:73] Check failed: ret == 0 (11 vs. 0)"
            "Thread tf_Compute creation via pthread_create() failed.",
            "threads-exhausted",
        ),
    ):
        found = _causes(explained(line + "\n"))
        assert "open-files-limit-reached" not in found
        assert not other or other in found


# --- the distribution's Python --------------------------------------------------------------


def test_venv_without_ensurepip_names_the_release_package() -> None:
    text = (
        "The virtual environment was not created successfully because ensurepip is not\n"
        "available.  On Debian/Ubuntu systems, you need to install the python3-venv\n"
        "package using the following command.\n"
        "\n"
        "    apt install python3.10-venv\n"
    )
    top = top_error(explained(text))
    assert top.cause == "distro-python-part-missing"
    assert "sudo apt-get install python3.10-venv" in fix_text(top)


def test_venv_without_a_release_named_asks_for_the_python() -> None:
    text = "The virtual environment was not created successfully because ensurepip is not\n"
    top = top_error(explained(text))
    assert top.cause == "distro-python-part-missing"
    fix = fix_text(top)
    assert "python3 --version" in fix and "python3-venv" in fix
    assert "python3.X-venv" in fix and "{" not in fix


def test_debians_ensurepip_refusing_the_system_python_is_not_a_missing_package() -> None:
    # Debian's patch refuses the system Python with python3-venv installed too.
    top = top_error(explained("ensurepip is disabled in Debian/Ubuntu for the system python.\n"))
    assert top.cause == "distro-python-part-missing" and top.fix is not None
    assert "python3 -m venv .venv" in top.fix.commands
    assert "python3-pip" in top.fix.text


def test_a_distutils_submodule_missing_is_debians_split() -> None:
    top = top_error(explained("ModuleNotFoundError: No module named 'distutils.util'\n"))
    assert top.cause == "distro-python-part-missing"
    fix = fix_text(top)
    # Nothing shows the Python: the package, and the other reading told apart.
    assert "python3-distutils" in fix and "3.12 or later" in fix
    assert "split" in top.detail


def test_distutils_missing_on_a_python_that_still_has_it() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/app/setup_env.py", line 2, in <module>\n'
        "    import distutils\n"
        "ModuleNotFoundError: No module named 'distutils'\n"
        "$ python3 --version\n"
        "Python 3.9.2\n"
    )
    top = top_error(explained(text))
    assert top.cause == "distro-python-part-missing"
    assert "python3.9-distutils" in fix_text(top)


def test_distutils_on_python_312_stays_the_removed_module() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/.venv/lib/python3.12/site-packages/oldpkg/build.py", line 1, in '
        "<module>\n"
        "    from distutils.util import strtobool\n"
        "ModuleNotFoundError: No module named 'distutils'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "python-removed-module"


def test_a_name_setuptools_distutils_lacks_is_not_debians_split() -> None:
    # pip's build environment imports setuptools' copy of distutils, which dropped
    # msvccompiler (setuptools 74): python3-distutils changes nothing there.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/tmp/pip-build-env-ab12/overlay/lib/python3.10/site-packages/numpy/distutils/'
        'mingw32ccompiler.py", line 27, in <module>\n'
        "    from distutils.msvccompiler import get_build_version as get_build_msvc_version\n"
        "ModuleNotFoundError: No module named 'distutils.msvccompiler'\n"
    )
    assert "distro-python-part-missing" not in _causes(explained(text))


def test_debians_distutils_stub_refusing_a_name() -> None:
    line = (
        "ImportError: cannot import name 'sysconfig' from 'distutils' "
        "(/usr/lib/python3.8/distutils/__init__.py)\n"
    )
    top = top_error(explained(line))
    assert top.cause == "distro-python-part-missing"
    # The distribution's own Python 3.8 (Ubuntu 20.04's) has only python3-distutils; a
    # python3.8-distutils exists where deadsnakes built that Python: either must install.
    assert top.fix is not None
    assert top.fix.commands == (
        "sudo apt-get install python3.8-distutils || sudo apt-get install python3-distutils",
    )


def test_tkinter_on_a_python_the_log_shows_is_the_unversioned_package() -> None:
    # Debian and Ubuntu build python3-tk alone (python3-stdlib-extensions); python3.9-tk is
    # deadsnakes' only.
    text = "$ python3 --version\nPython 3.9.2\nModuleNotFoundError: No module named '_tkinter'\n"
    top = top_error(explained(text))
    assert top.cause == "distro-python-part-missing" and top.fix is not None
    assert top.fix.commands == (
        "sudo apt-get install python3.9-tk || sudo apt-get install python3-tk",
    )


def test_tkinter_missing_is_the_distributions_tk_package() -> None:
    top = top_error(explained("ModuleNotFoundError: No module named '_tkinter'\n"))
    assert top.cause == "distro-python-part-missing"
    assert "python3-tk" in fix_text(top)
    # The same words from a Python built without Tk's headers (pyenv): apt's package is not it.
    assert "tk-dev" in fix_text(top) and "pyenv" in fix_text(top)


def test_the_words_in_other_contexts_are_not_this() -> None:
    for line in (
        "ModuleNotFoundError: No module named 'tkinter_helpers'",
        "Successfully installed python3-venv-tools-1.0",
        "ensurepip is available; creating the virtual environment",
    ):
        assert "distro-python-part-missing" not in _causes(explained(line + "\n"))


# --- TensorFlow's and XLA's flags from the environment ----------------------------------------


@pytest.mark.parametrize(
    ("line", "variable"),
    [
        (
            "F external/local_xla/xla/parse_flags_from_env.cc:227] Unknown flags in XLA_FLAGS: "
            "--xla_gpu_enable_triton_softmax_fusion=false",
            "XLA_FLAGS",
        ),
        (
            "E tensorflow/core/util/command_line_flags.cc:112] Couldn't interpret value "
            "=/srv/venv/lib/python3.9/site-packages/tensorflow for flag tf_xla_cpu_global_jit.",
            "TF_XLA_FLAGS",
        ),
        (
            'F xla/parse_flags_from_env.cc:157] Could not open file "1" to read flags for '
            'environment variable "TF_XLA_FLAGS". (We assumed "1" was a file name because it '
            'did not start with a "--".)',
            "TF_XLA_FLAGS",
        ),
    ],
)
def test_a_flags_variable_tensorflow_refuses_is_shown_and_unset(line: str, variable: str) -> None:
    found = top_error(explained(line + "\n"))
    assert found.cause == "tf-env-flag-invalid"
    assert found.fix is not None and f"unset {variable}" in found.fix.commands


def test_another_programs_uninterpretable_flag_is_not_tensorflows() -> None:
    report = explained("Couldn't interpret value abc for flag verbosity.\n")
    assert not any(f.cause == "tf-env-flag-invalid" for f in report.findings)
