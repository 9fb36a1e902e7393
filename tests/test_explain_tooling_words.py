# ruff: noqa: E501 -- log lines are written whole, as the programs print them
"""The words of the tools around TensorFlow, each read for what it says of the machine: an NGC
image's start-up check of the host's driver, CUPTI refused the GPU's performance counters,
a notebook's kernel that cannot find a program by name, NumPy 2's own words for a name it
removed, the loader's glibc versions for a binary inside a package, and an old pip's words
for a source build. Each log is written in the program's own format (sources beside each
reading in tfdoctor/signatures.yaml and the modules that read them)."""

from __future__ import annotations

import pytest

from tests.explaining import explained, fix_text
from tfdoctor.findings import Report


def _of(report: Report, cause: str) -> list[str]:
    """The severities of the report's findings of ``cause``."""
    return [x.severity.value for x in report.findings if x.cause == cause]


def _fix_of(report: Report, cause: str) -> str:
    found = [x for x in report.findings if x.cause == cause]
    assert found, [(x.id, x.severity.value) for x in report.findings]
    return fix_text(found[0])


# -- NGC images: the entrypoint's driver check ------------------------------------------------


@pytest.mark.parametrize(
    "log",
    [
        "ERROR: This container was built for NVIDIA Driver Release 450.51 or later, but\n"
        "       version 440.33.01 was detected and compatibility mode is UNAVAILABLE.\n\n"
        "       [[CUDA Driver UNAVAILABLE (cuInit(0) returned 804)]]\n",
        # A paste that joined the two lines and lost the space.
        "This container was built for NVIDIA Driver Release 450.51 or later, butversion "
        "440.33.01 was detected and compatibility mode is UNAVAILABLE\n",
    ],
)
def test_an_ngc_image_refusing_the_host_driver_names_the_release_it_needs(log: str) -> None:
    report = explained(log)
    assert _of(report, "driver-too-old") == ["error"]
    fix = _fix_of(report, "driver-too-old")
    assert "450.51 or later" in fix and "host" in fix
    assert "nvidia-smi" in fix


def test_the_host_driver_an_ngc_image_shows_is_named_where_the_log_joins_it() -> None:
    log = (
        "This container was built for NVIDIA Driver Release 545.23 or later, but version "
        "535.104.05 was detected and compatibility mode is UNAVAILABLE\n"
    )
    assert "the host has 535.104.05" in _fix_of(explained(log), "driver-too-old")


def test_an_ngc_image_running_in_compatibility_mode_is_no_refusal() -> None:
    # The same first words without "ERROR:" and with compatibility available: the image runs.
    log = (
        "NOTE: This container was built for NVIDIA Driver Release 535.86 or later, but\n"
        "      version 525.85.12 was detected and compatibility mode is in use.\n"
    )
    assert _of(explained(log), "driver-too-old") == []


# -- CUPTI and the GPU's performance counters -------------------------------------------------

_CUPTI = (
    "2020-06-25 20:30:05.895658: I tensorflow/core/profiler/lib/profiler_session.cc:225] Profiler session started.\n"
    "2020-06-25 20:30:05.997330: E tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:1307] function "
    "cupti_interface_->Subscribe( &subscriber_, (CUpti_CallbackFunc)ApiCallback, this)failed with error "
    "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n"
    "Epoch 1/10\n"
)


def test_cupti_refused_the_counters_is_the_profilers_permission_not_the_device_nodes() -> None:
    report = explained(_CUPTI)
    # Training goes on: a warning, and the fix opens the counters, not /dev/nvidia*.
    assert _of(report, "driver-no-permission") == ["warning"]
    fix = _fix_of(report, "driver-no-permission")
    assert "NVreg_RestrictProfilingToAdminUsers=0" in fix
    assert "--privileged" in fix and "SYS_ADMIN" in fix
    assert "usermod" not in fix and "/dev/nvidia" not in fix


def test_nvml_refusing_the_device_nodes_keeps_its_own_fix() -> None:
    fix = _fix_of(
        explained("Failed to initialize NVML: Insufficient Permissions\n"), "driver-no-permission"
    )
    assert "/dev/nvidia" in fix and "NVreg_RestrictProfilingToAdminUsers" not in fix


# -- A program a notebook's kernel runs by name ------------------------------------------------


def _ipython(statement: str, message: str) -> str:
    return (
        "---------------------------------------------------------------------------\n"
        "FileNotFoundError                         Traceback (most recent call last)\n"
        "<ipython-input-4-d46782f9619b> in <module>\n"
        f"----> 1 {statement}\n\n"
        f"FileNotFoundError: {message}\n"
    )


@pytest.mark.parametrize(
    ("statement", "message", "program"),
    [
        (
            "get_ipython().run_line_magic('tensorboard', '--logdir logs')",
            "[Errno 2] No such file or directory: 'tensorboard': 'tensorboard'",
            "tensorboard",
        ),
        (
            "subprocess.check_output(['saved_model_cli', 'show', '--dir', 'm'])",
            "[Errno 2] No such file or directory: 'saved_model_cli'",
            "saved_model_cli",
        ),
    ],
)
def test_a_program_the_kernel_cannot_find_is_its_path(
    statement: str, message: str, program: str
) -> None:
    report = explained(_ipython(statement, message))
    assert _of(report, "kernel-variables-differ") == ["error"]
    fix = _fix_of(report, "kernel-variables-differ")
    assert "PATH" in fix and program in fix and "restart the kernel" in fix


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        # A data file the code opens: a name with a dot, and nothing ran a program.
        ("open('train.csv')", "[Errno 2] No such file or directory: 'train.csv'"),
        # A bare name opened as a file, no program run.
        ("open('labels')", "[Errno 2] No such file or directory: 'labels'"),
        # The driver's own tool: the GPU stack's matter, not the kernel's PATH.
        (
            "subprocess.check_output(['nvidia-smi'])",
            "[Errno 2] No such file or directory: 'nvidia-smi': 'nvidia-smi'",
        ),
    ],
)
def test_a_file_or_the_drivers_tool_is_not_the_kernels_path(statement: str, message: str) -> None:
    assert _of(explained(_ipython(statement, message)), "kernel-variables-differ") == []


def test_a_program_missing_outside_a_notebook_is_not_the_kernels_path() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "run.py", line 3, in <module>\n'
        "    subprocess.run(['tensorboard', '--logdir', 'logs'])\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'tensorboard'\n"
    )
    assert _of(explained(log), "kernel-variables-differ") == []


# -- NumPy 2's words for a name it removed -----------------------------------------------------


def test_numpys_own_words_are_the_installed_numpys_with_its_path_cut() -> None:
    # A paste that cut site-packages off NumPy's own frame: the words are NumPy 2's
    # (__expired_attributes__), so the installed NumPy is the one, and the code is the caller.
    log = (
        '  File "h5md_module.py", line 255, in create_box\n'
        "    self.box.attrs['boundary'] = np.string_(boundary)\n"
        '  File "numpy/__init__.py", line 400, in __getattr__\n'
        "    raise AttributeError(\n"
        "AttributeError: `np.string_` was removed in the NumPy 2.0 release. Use `np.bytes_` instead.\n"
    )
    report = explained(log)
    assert _of(report, "numpy-name-removed") == ["error"]
    found = next(x for x in report.findings if x.cause == "numpy-name-removed")
    assert "h5md_module.py, line 255" in found.detail
    assert "np.bytes_" in fix_text(found)


def test_a_numpy_module_of_the_users_own_stays_shadowing() -> None:
    # Python's own words for a missing attribute of the user's numpy/ folder: no release.
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/proj/main.py", line 2, in <module>\n'
        "    x = numpy.float(3)\n"
        '  File "/home/user/proj/numpy/__init__.py", line 1, in <module>\n'
        "    pass\n"
        "AttributeError: module 'numpy' has no attribute 'float'\n"
    )
    assert _of(explained(log), "numpy-name-removed") == []


# -- The loader's glibc versions for a binary inside a package --------------------------------

_SERVER = "/usr/local/lib/python3.8/dist-packages/tensorboard_data_server/bin/server"


def test_a_binary_of_a_package_needing_newer_glibc_names_its_distribution_and_the_newest() -> None:
    log = "TensorFlow installation not found - running with reduced feature set.\n" + "".join(
        f"{_SERVER}: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_{v}' not found (required by {_SERVER})\n"
        for v in ("2.33", "2.34", "2.32")
    )
    report = explained(log)
    assert _of(report, "glibc-too-old") == ["error"]
    fix = _fix_of(report, "glibc-too-old")
    # The newest version any line asks for, not the first line's; the package by its PyPI name.
    assert "glibc 2.34 or newer" in fix
    assert "tensorboard-data-server" in fix


# -- An old pip's words for a source build -----------------------------------------------------


def test_an_old_pips_source_build_is_the_pip() -> None:
    report = explained(
        "Collecting opencv-python\n  Downloading opencv-python-4.1.0.25.tar.gz (88.3MB)\n"
        "Building wheels for collected packages: opencv-python\n"
        "  Running setup.py bdist_wheel for opencv-python ... -\n"
    )
    assert _of(report, "pip-too-old") == ["warning"]
    fix = _fix_of(report, "pip-too-old")
    assert "opencv-python" in fix and "install --upgrade pip" in fix


def test_a_current_pips_source_build_says_nothing_of_pip() -> None:
    report = explained(
        "Building wheels for collected packages: opencv-python\n"
        "  Building wheel for opencv-python (setup.py) ... -\n"
    )
    assert _of(report, "pip-too-old") == []


# -- Programs frozen by other freezers than PyInstaller ----------------------------------------


@pytest.mark.parametrize(
    ("log", "tool"),
    [
        # Nuitka's standalone folder, in Windows' short names, and its own start line.
        (
            "Nuitka:INFO: Starting Python compilation with Nuitka '1.4.8' on Python '3.9'.\n"
            "Traceback (most recent call last):\n"
            '  File "c:\\Users\\user\\APP~1\\MAIN~1.DIS\\tensorflow\\python\\ops\\gen_math_ops.py", line 5985, in mat_mul\n'
            "SystemError: unknown opcode\n",
            "Nuitka",
        ),
        # cx_Freeze's library.zip.
        (
            "Traceback (most recent call last):\n"
            '  File "C:\\app\\build\\exe.win-amd64-3.7\\lib\\library.zip\\tensorflow\\__init__.py", line 28, in <module>\n'
            "ImportError: cannot import name 'pywrap_tensorflow'\n",
            "cx_Freeze",
        ),
    ],
)
def test_tensorflow_failing_inside_a_frozen_bundle_is_the_freezers(log: str, tool: str) -> None:
    report = explained(log)
    assert _of(report, "freezer-tf-support-outdated") == ["error"]
    fix = _fix_of(report, "freezer-tf-support-outdated")
    assert tool in fix and "upgrade" in fix.lower()


def test_frames_cut_before_the_exception_inside_a_py2app_bundle_are_a_warning() -> None:
    app = "/Users/user/dist/shoot.app/Contents/Resources/lib/python3.7/tensorflow_core"
    log = (
        f'File "{app}/__init__.py", line 36, in <module>\n'
        "    from tensorflow._api.v1 import compat\n"
        f'  File "{app}/python/ops/control_flow_v2_toggles.py", line 24, in <module>\n'
        "    from tensorflow.python.ops import control_flow_util_v2\n"
    )
    report = explained(log)
    assert _of(report, "freezer-tf-support-outdated") == ["warning"]
    assert "py2app" in _fix_of(report, "freezer-tf-support-outdated")


@pytest.mark.parametrize(
    ("frame", "exception"),
    [
        # The program's own module in the bundle raising its own error: not TensorFlow's code.
        (
            '  File "C:\\app\\main.dist\\main.py", line 3, in <module>\n',
            "ValueError: could not convert string to float: 'x'",
        ),
        # A GPU library the program cannot load: the machine's CUDA, with its own readings.
        (
            '  File "C:\\app\\main.dist\\tensorflow\\python\\platform\\self_check.py", line 50, '
            "in preload_check\n",
            "OSError: Could not find 'cudart64_110.dll'. TensorFlow requires that this DLL be "
            "installed",
        ),
    ],
    ids=["own-code", "gpu-library"],
)
def test_a_frozen_program_failing_for_another_reason_is_not_the_freezers(
    frame: str, exception: str
) -> None:
    log = f"Traceback (most recent call last):\n{frame}{exception}\n"
    assert _of(explained(log), "freezer-tf-support-outdated") == []


def test_nuitkas_plugin_refusing_tensorflows_init_names_tensorflow_2() -> None:
    report = explained(
        "sudo python3.7 -m nuitka --standalone --enable-plugin=tensorflow webcam.py\n"
        "FATAL: tensorflow: Did not find path magic code.\n"
    )
    assert _of(report, "freezer-tf-support-outdated") == ["error"]
    fix = _fix_of(report, "freezer-tf-support-outdated")
    assert "TensorFlow 2" in fix and "_running_from_pip_package" in fix


# -- A TPU asked to read a local path ----------------------------------------------------------


def test_a_tpu_reading_a_local_path_is_sent_to_cloud_storage() -> None:
    report = explained(
        "tensorflow.python.framework.errors_impl.UnimplementedError: File system scheme "
        "'[local]' not implemented (file: '/content/data/train-00000.tfrecord')\n"
    )
    assert _of(report, "filesystem-env-misconfigured") == ["error"]
    fix = _fix_of(report, "filesystem-env-misconfigured")
    assert "gs://" in fix and "TFHUB_CACHE_DIR" not in fix


def test_tf_hubs_cache_on_a_tpu_names_its_variable() -> None:
    report = explained(
        "tf hub Failed to get matching files on /tmp/tfhub_modules/0123abcd/variables/variables: "
        "Unimplemented: File system scheme '[local]' not implemented\n"
    )
    assert "TFHUB_CACHE_DIR=gs://" in _fix_of(report, "filesystem-env-misconfigured")


def test_an_old_pips_finished_source_build_is_harmless() -> None:
    # Such a pip built every pure-Python source archive so: only a build that failed or
    # hangs says something.
    report = explained(
        "Building wheels for collected packages: termcolor, absl-py\n"
        "  Running setup.py bdist_wheel for termcolor ... done\n"
        "  Stored in directory: /root/.cache/pip/wheels/7c/06/54\n"
        "  Running setup.py bdist_wheel for absl-py ... done\n"
        "Successfully built termcolor absl-py\n"
    )
    assert _of(report, "pip-too-old") == []
