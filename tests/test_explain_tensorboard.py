"""TensorBoard and the profiler's environment: two TensorBoards in one environment (their
duplicate plugins, pip's half-removed copy, the script importing the other copy, a listing of
both, a nightly pip-installed beside a stable one), a TensorBoard of another line than the
TensorFlow, pkg_resources gone with setuptools 82, and CUPTI off the loader's path."""

from __future__ import annotations

import pytest

from tests import factories as f
from tests.explaining import explained, fix_text, top_error
from tfdoctor.findings import Finding, Report, Severity


def _named(report: Report, cause: str) -> Finding:
    """The report's finding naming ``cause``, asserted to be at warning or above."""
    found = [x for x in report.findings if x.cause == cause]
    assert found, [(x.id, x.severity.value) for x in report.findings]
    assert found[0].severity.rank >= Severity.WARNING.rank
    return found[0]


def _causes(text: str) -> set[str]:
    return {x.cause for x in explained(text).findings if x.cause}


# --- two TensorBoards ---------------------------------------------------------------------


def test_duplicate_plugins_is_two_tensorboards() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.8/site-packages/tensorboard/backend/application.py", '
        "line 180, in __init__\n"
        "    raise ValueError(\n"
        "ValueError: Duplicate plugins for name projector\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tensorboard-duplicate-install"
    fix = fix_text(top)
    assert "pip uninstall -y tensorboard tb-nightly tensorflow-tensorboard" in fix
    assert "~ensorboard" in fix


def test_tensorboards_code_asking_another_releases_util() -> None:
    # The helpers of tensorboard/util.py (Retrier, PersistentOpEvaluator) are gone from the
    # tensorboard/util package of later releases: old code asking for them found a newer
    # TensorBoard's folder.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.6/site-packages/tensorboard/backend/event_processing/'
        'db_import_multiplexer.py", line 60, in __init__\n'
        "    self._retrier = util.Retrier(_is_transient_sqlite_error)\n"
        "AttributeError: module 'tensorboard.util' has no attribute 'Retrier'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tensorboard-duplicate-install"
    assert "pip uninstall -y tensorboard tb-nightly tensorflow-tensorboard" in fix_text(top)
    # A name no release of that module had is no sign of two releases.
    other = "AttributeError: module 'tensorboard.util' has no attribute 'tb_logging'\n"
    assert "tensorboard-duplicate-install" not in _causes(other)


def test_a_callers_use_of_a_helper_tensorboard_dropped_is_no_second_tensorboard() -> None:
    # The failing frame is the user's code (or another package's), not TensorBoard's own: the
    # installed TensorBoard (1.13 and later) no longer exports the 1.12 helper it asks for.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/project/train.py", line 12, in <module>\n'
        "    retrier = util.Retrier(is_transient)\n"
        "AttributeError: module 'tensorboard.util' has no attribute 'Retrier'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "dependency-api-removed"
    assert "tensorboard.util.util" in fix_text(top)
    assert "tensorboard-duplicate-install" not in _causes(text)


def test_another_programs_duplicate_plugins_is_not_tensorboards() -> None:
    text = "Exception: Duplicate plugins for name logger, one was: <class 'x.Logger'>\n"
    assert "tensorboard-duplicate-install" not in _causes(text)


def test_pips_half_removed_copy_names_its_directory() -> None:
    text = (
        "WARNING: Ignoring invalid distribution -ensorboard "
        "(/home/dev/venv/lib/python3.9/site-packages)\n"
    )
    found = _named(explained(text), "tensorboard-duplicate-install")
    fix = fix_text(found)
    assert "rm -rf /home/dev/venv/lib/python3.9/site-packages/~ensorboard*" in fix


def test_a_windows_leftover_is_removed_with_windows_commands() -> None:
    text = (
        "WARNING: Could not generate requirement for distribution -ensorboard 2.3.0 "
        "(c:\\users\\dev\\miniconda3\\envs\\tb\\lib\\site-packages): Parse error at "
        "\"'-ensorbo'\": Expected W:(abcd...)\n"
    )
    fix = fix_text(_named(explained(text), "tensorboard-duplicate-install"))
    assert "Remove-Item" in fix and "envs\\tb\\lib\\site-packages\\~ensorboard*" in fix


def test_another_packages_leftover_is_not_tensorboards() -> None:
    text = (
        "WARNING: Ignoring invalid distribution -rpcio "
        "(/home/dev/venv/lib/python3.9/site-packages)\n"
    )
    assert "tensorboard-duplicate-install" not in _causes(text)


def test_the_tensorboard_script_importing_the_other_copy() -> None:
    text = (
        "$ tensorboard --logdir runs\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/bin/tensorboard", line 7, in <module>\n'
        "    from tensorboard.main import run_main\n"
        "ImportError: cannot import name 'run_main'\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tensorboard-duplicate-install"
    assert "tensorflow-tensorboard" in fix_text(top)


def test_run_main_missing_from_the_users_own_module_is_not_tensorboard() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/proj/train.py", line 3, in <module>\n'
        "    from launcher import run_main\n"
        "ImportError: cannot import name 'run_main'\n"
    )
    assert "tensorboard-duplicate-install" not in _causes(text)


def test_a_listing_of_two_tensorboards() -> None:
    text = (
        "$ pip list\n"
        "tb-nightly                 2.4.0a20200910\n"
        "tensorboard                2.3.0\n"
        "tensorflow                 2.3.0\n"
    )
    top = top_error(explained(text))
    assert top.cause == "tensorboard-duplicate-install" and "uninstall" in fix_text(top)


def test_one_tensorboard_of_the_tensorflows_line_is_fine() -> None:
    text = "INFO: installed: tensorboard==2.3.0\nINFO: installed: tensorflow==2.3.1\n"
    assert not {"tensorboard-duplicate-install", "companion-mismatch"} & _causes(text)


def test_a_tensorboard_of_another_major_than_the_tensorflow() -> None:
    text = "INFO: installed: tb-nightly==1.15.0a20190806\nINFO: installed: tensorflow==2.0.0\n"
    found = _named(explained(text), "companion-mismatch")
    fix = fix_text(found)
    assert "tb-nightly" in fix and 'pip install "tensorboard~=2.0.0"' in fix


def test_a_nightly_installed_then_tensorboard_failing_to_start() -> None:
    text = (
        "!pip install -q tf-nightly\n"
        "%tensorboard --logdir logs\n"
        "ERROR: Failed to launch TensorBoard (exited with 1).\n"
    )
    found = _named(explained(text), "tensorboard-duplicate-install")
    assert found.severity is Severity.WARNING
    assert 'pip install "tb-nightly"' in fix_text(found)


def test_tensorboard_failing_without_a_nightly_installed_is_not_this() -> None:
    text = "%tensorboard --logdir logs\nERROR: Failed to launch TensorBoard (exited with 1).\n"
    assert "tensorboard-duplicate-install" not in _causes(text)


# --- pkg_resources --------------------------------------------------------------------------


def test_pkg_resources_missing_is_setuptools_82() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/venv/bin/tensorboard", line 5, in <module>\n'
        "    from tensorboard.main import run_main\n"
        '  File "/srv/venv/lib/python3.12/site-packages/tensorboard/default.py", line 30, '
        "in <module>\n"
        "    import pkg_resources\n"
        "ModuleNotFoundError: No module named 'pkg_resources'\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "dependency-api-removed"
    fix = fix_text(top)
    assert 'pip install "setuptools<82.0.0"' in fix
    # Not read as a distribution to install under the module's name.
    assert all(x.cause != "package-not-installed" for x in report.findings)


def test_the_deprecation_warning_is_not_the_removal() -> None:
    text = (
        "/srv/venv/lib/python3.12/site-packages/tensorboard/default.py:30: UserWarning: "
        "pkg_resources is deprecated as an API.\n"
        "  import pkg_resources\n"
    )
    assert "dependency-api-removed" not in _causes(text)


# --- CUPTI ------------------------------------------------------------------------------------


def test_cupti_off_the_printed_path() -> None:
    text = (
        "2021-04-01 09:00:00.000000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:60] Could not load dynamic library 'libcupti.so.11.2'; dlerror: "
        "libcupti.so.11.2: cannot open shared object file: No such file or directory; "
        "LD_LIBRARY_PATH: /usr/local/nvidia/lib:/usr/local/nvidia/lib64\n"
    )
    found = _named(explained(text), "cuda-libs-off-path")
    assert found.severity is Severity.WARNING
    fix = fix_text(found)
    assert "/usr/local/cuda-11.2/extras/CUPTI/lib64" in fix
    assert "lacks it" in fix and "LD_LIBRARY_PATH" in fix


def test_cupti_missing_where_the_path_holds_another_cudas_cupti() -> None:
    text = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
        "dynamic library 'libcupti.so.10.1'; dlerror: libcupti.so.10.1: cannot open shared "
        "object file: No such file or directory; LD_LIBRARY_PATH: "
        "/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib64\n"
    )
    fix = fix_text(_named(explained(text), "cuda-libs-off-path"))
    assert "cuda-10.1" in fix and "readlink -f /usr/local/cuda" in fix


def test_cupti_on_windows() -> None:
    text = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
        "dynamic library 'cupti64_101.dll'; dlerror: cupti64_101.dll not found\n"
    )
    fix = fix_text(_named(explained(text), "cuda-libs-off-path"))
    assert "v10.1\\extras\\CUPTI\\lib64" in fix and "setx PATH" in fix


def test_cupti_is_not_the_cuda_libraries_tensorflow_needs() -> None:
    text = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load "
        "dynamic library 'libcupti.so.11.0'; dlerror: libcupti.so.11.0: cannot open shared "
        "object file: No such file or directory\n"
    )
    report = explained(text)
    assert all(x.severity.rank < Severity.ERROR.rank for x in report.findings)
    assert "cuda-libs-missing" not in {x.cause for x in report.findings}


# --- after review -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["-ensorboard-data-server", "-ensorboard-plugin-wit", "~ensorboard-plugin-profile"],
    ids=["data-server", "plugin-wit", "plugin-profile-tilde"],
)
def test_another_tensorboard_distributions_leftover_is_not_a_second_tensorboard(name: str) -> None:
    # pip's leftover of a distribution whose name only starts like TensorBoard's.
    text = (
        f"WARNING: Ignoring invalid distribution {name} (/srv/venv/lib/python3.9/site-packages)\n"
    )
    assert "tensorboard-duplicate-install" not in _causes(text)


def test_pips_tilde_spelling_of_the_half_removed_copy() -> None:
    # pip's importlib backend (Python 3.11 on) names the leftover with its '~'.
    text = (
        "WARNING: Ignoring invalid distribution ~ensorboard (C:\\Python312\\Lib\\site-packages)\n"
    )
    fix = fix_text(_named(explained(text), "tensorboard-duplicate-install"))
    assert "C:\\Python312\\Lib\\site-packages\\~ensorboard*" in fix


def test_without_the_tensorflow_no_unpinned_tensorboard_is_installed() -> None:
    # An unpinned install brings the newest TensorBoard, of another line than the TensorFlow.
    text = (
        "WARNING: Ignoring invalid distribution -ensorboard "
        "(/home/dev/venv/lib/python3.9/site-packages)\n"
    )
    fix = _named(explained(text), "tensorboard-duplicate-install").fix
    assert fix is not None
    assert not any(c.startswith("pip install") for c in fix.commands), fix.commands
    assert "pip show tensorflow" in fix.commands and "tensorboard==X.Y.*" in fix.text


def test_the_line_fix_uses_the_machines_pip() -> None:
    text = "INFO: installed: tensorboard==1.15.0\nINFO: installed: tensorflow==2.12.0\n"
    fix = _named(explained(text, f.facts()), "companion-mismatch").fix
    assert fix is not None and all(
        c.startswith("/opt/venv/bin/python -m pip") for c in fix.commands
    )


_CUPTI_12 = (
    "2024-03-01 10:00:00.000000: W external/local_tsl/tsl/platform/default/dso_loader.cc:76] "
    "Could not load dynamic library 'libcupti.so.12'; dlerror: libcupti.so.12: cannot open "
    "shared object file: No such file or directory; LD_LIBRARY_PATH: {path}\n"
)


@pytest.mark.parametrize(
    "head",
    [
        "Successfully installed nvidia-cublas-cu12-12.3.4.1 nvidia-cuda-cupti-cu12-12.3.101\n",
        "$ pip list\ntensorflow 2.17.0\n",
    ],
    ids=["wheels-installed", "and-cuda-release"],
)
def test_cupti_of_pips_cuda_is_its_wheel_not_a_toolkit_path(head: str) -> None:
    text = head + _CUPTI_12.format(path="/usr/local/nvidia/lib64")
    found = _named(explained(text), "cuda-libs-off-path")
    fix = fix_text(found)
    assert "/usr/local/cuda" not in fix, fix
    assert "nvidia/cuda_cupti/lib" in fix
    assert "nvidia-cuda-cupti-cu12" in fix or 'tensorflow[and-cuda]==2.17.0"' in fix


def test_cupti_with_a_wheel_directory_on_the_printed_path() -> None:
    path = "/home/u/venv/lib/python3.11/site-packages/nvidia/cublas/lib"
    fix = fix_text(_named(explained(_CUPTI_12.format(path=path)), "cuda-libs-off-path"))
    assert "/usr/local/cuda" not in fix and 'pip install "nvidia-cuda-cupti-cu12"' in fix


def test_cupti_of_a_cuda_major_alone_names_no_invented_toolkit_directory() -> None:
    # The container runtime's /usr/local/nvidia/lib64 is not a wheel's; libcupti.so.12 names
    # no toolkit directory (NVIDIA's are /usr/local/cuda-12.4 and the like).
    text = _CUPTI_12.format(path="/usr/local/nvidia/lib:/usr/local/nvidia/lib64")
    fix = fix_text(_named(explained(text), "cuda-libs-off-path"))
    assert "/usr/local/cuda-12/" not in fix
    assert "ls -d /usr/local/cuda-12*/extras/CUPTI/lib64" in fix
    assert "nvidia-cuda-cupti" in fix


def test_run_main_under_a_users_directory_named_after_tensorboard_is_not_tensorboard() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/tensorboard-demo/train.py", line 3, in <module>\n'
        "    from launcher import run_main\n"
        "ImportError: cannot import name 'run_main'\n"
    )
    assert "tensorboard-duplicate-install" not in _causes(text)


def test_run_main_under_the_windows_script_is_tensorboard() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Python36\\Scripts\\tensorboard.exe\\__main__.py", line 5, in <module>\n'
        "ImportError: cannot import name 'run_main'\n"
    )
    assert top_error(explained(text)).cause == "tensorboard-duplicate-install"


_NIGHTLY_MAGIC = (
    "!pip install -q tf-nightly\n"
    "%tensorboard --logdir logs\n"
    "ERROR: Failed to launch TensorBoard (exited with 1).\n"
)


@pytest.mark.parametrize(
    "stderr",
    [
        "Contents of stderr:\nTensorBoard could not bind to port 6006, it was already in use\n",
        "Contents of stderr:\nTraceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.12/dist-packages/tensorboard/default.py", line 30, '
        "in <module>\n    import pkg_resources\n"
        "ModuleNotFoundError: No module named 'pkg_resources'\n",
    ],
    ids=["port-in-use", "pkg-resources"],
)
def test_a_nightly_beside_a_failure_whose_reason_the_log_shows_is_not_a_guess(stderr: str) -> None:
    assert "tensorboard-duplicate-install" not in _causes(_NIGHTLY_MAGIC + stderr)


def test_cupti_of_cuda_11_on_windows_is_copied_to_the_name_tensorflow_asks_for() -> None:
    # CUDA 11's folder holds cupti64_2020.1.0.dll (tensorflow#44697): PATH alone finds nothing.
    text = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load "
        "dynamic library 'cupti64_110.dll'; dlerror: cupti64_110.dll not found\n"
    )
    fix = fix_text(_named(explained(text), "cuda-libs-off-path"))
    assert 'do copy /y "%f" "' in fix and "v11.0\\extras\\CUPTI\\lib64\\cupti64_110.dll" in fix
    assert "cupti64_20*.dll" in fix


def test_cupti_of_cuda_10_on_windows_needs_no_copy() -> None:
    text = (
        "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
        "dynamic library 'cupti64_101.dll'; dlerror: cupti64_101.dll not found\n"
    )
    assert "copy" not in fix_text(_named(explained(text), "cuda-libs-off-path"))


def test_a_tensorboard_a_minor_apart_is_not_called_a_mismatch() -> None:
    """TensorFlow 2.7 declares tensorboard~=2.6: the ranges within a major differ by release,
    and the matrix does not carry them."""
    text = "tensorflow 2.7.0\ntensorboard 2.6.0\n"
    assert not any(f.cause == "companion-mismatch" for f in explained(text).findings)


def test_tensorboard_missing_in_an_exception_the_run_went_on_after_is_a_note() -> None:
    # TensorFlow 2.21's tf.summary without TensorBoard raises its own error
    # (tensorflow/python/summary/tb_summary.py); a callback that logged it and carried on
    # trained its epochs: no problem of this run. Ending the log, it is an error.
    raised = (
        "Traceback (most recent call last):\n"
        '  File "/home/ana/proj/train.py", line 31, in on_epoch_end\n'
        '    tf.summary.scalar("loss", logs["loss"], step=epoch)\n'
        '  File "/home/ana/venv/lib/python3.12/site-packages/tensorflow/python/summary/'
        'tb_summary.py", line 50, in scalar\n'
        '    raise TBNotInstalledError("tf.summary.scalar")\n'
        "tensorflow.python.summary.tb_summary.TBNotInstalledError: TensorBoard is not "
        "installed, missing implementation for tf.summary.scalar\n"
    )
    epochs = (
        "Epoch 2/3\n"
        "10/10 [==============================] - 0s 4ms/step - loss: 0.4011\n"
        "Epoch 3/3\n"
        "10/10 [==============================] - 0s 4ms/step - loss: 0.3310\n"
    )
    logged = explained(f"ERROR:root:summary failed\n{raised}{epochs}")
    assert all(x.severity.rank < Severity.WARNING.rank for x in logged.findings)
    assert any(x.cause == "tensorboard-not-installed" for x in logged.findings)
    assert top_error(explained(f"{epochs}{raised}")).cause == "tensorboard-not-installed"


_CONDA_HEAD = (
    "# packages in environment at /home/u/miniconda3/envs/tf:\n"
    "#\n"
    "# Name                    Version                   Build  Channel\n"
)


def _conda_listing_fix(rows: str) -> tuple[str, ...]:
    """The commands of the duplicate TensorBoard finding of a conda list of ``rows``."""
    found = _named(explained(_CONDA_HEAD + rows), "tensorboard-duplicate-install")
    assert found.fix is not None
    return found.fix.commands


def test_tensorboard_from_conda_and_from_pip_in_one_environment() -> None:
    commands = _conda_listing_fix(
        "tensorboard               2.10.0             pyhd8ed1ab_0    conda-forge\n"
        "tensorboard               2.11.2                   pypi_0    pypi\n"
        "tensorflow                2.11.0                   pypi_0    pypi\n"
    )
    # conda's copy goes with conda's remover, pip's with pip.
    assert commands[0] == "conda remove -y --force tensorboard"
    assert any(
        "pip uninstall -y tensorboard tb-nightly tensorflow-tensorboard" in c for c in commands
    )


def test_two_tensorboards_conda_installed_go_with_condas_remover() -> None:
    # No pip row: pip's uninstall would leave conda's records; conda removes both and
    # installs the TensorBoard of the listed TensorFlow's line from the rows' channel.
    assert _conda_listing_fix(
        "tensorboard               2.10.0             pyhd8ed1ab_0    conda-forge\n"
        "tensorflow-tensorboard    1.5.1            py36hf484d3e_1    conda-forge\n"
        "tensorflow                2.10.0         cpu_py39h_0    conda-forge\n"
    ) == (
        "conda remove -y --force tensorboard tensorflow-tensorboard",
        "conda install -y -c conda-forge tensorboard=2.10",
    )


def test_one_tensorboard_and_its_plugins_in_conda_list_are_quiet() -> None:
    text = _CONDA_HEAD + (
        "tensorboard               2.11.2                   pypi_0    pypi\n"
        "tensorboard-data-server   0.6.1                    pypi_0    pypi\n"
        "tensorboard-plugin-wit    1.8.1                    pypi_0    pypi\n"
        "tensorflow                2.11.0                   pypi_0    pypi\n"
    )
    assert "tensorboard-duplicate-install" not in _causes(text)


def test_one_tensorboard_in_conda_list_shown_twice_is_quiet() -> None:
    # The same listing pasted twice (or before and after a change) names one TensorBoard.
    listing = _CONDA_HEAD + (
        "tensorboard               2.11.2                   pypi_0    pypi\n"
        "tensorflow                2.11.0                   pypi_0    pypi\n"
    )
    assert "tensorboard-duplicate-install" not in _causes(listing + "$ conda list\n" + listing)
    conda = _CONDA_HEAD + (
        "tensorboard               2.10.0             pyhd8ed1ab_0    conda-forge\n"
        "tensorflow                2.10.0             cpu_py39h_0    conda-forge\n"
    )
    assert "tensorboard-duplicate-install" not in _causes(conda + "$ conda list\n" + conda)
