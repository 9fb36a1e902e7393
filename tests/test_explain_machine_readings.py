"""The machine under TensorFlow, read from what a log shows of it: CUDA's bare "initialization
error" (a driver too old for the build, unless a fork is shown), a Docker container's hostname
beside a libcuda the kernel module has and the container lacks, a native crash once ROCm's
libraries are loaded, and a traceback cut inside TensorFlow's loader of its native library
(on Windows; in a container started without a GPU)."""

from __future__ import annotations

import pytest

from tests import factories
from tests.explaining import explained, fix_text, renamed, tag_readings, top_error
from tfdoctor.evidence.devices import container_hostname, wsl1_shown
from tfdoctor.facts import DeviceFacts
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.signatures import BARE_INIT_ERROR, FORKED

#: The signature of a forked pool worker's line (Celery's and multiprocessing's ForkPoolWorker).
_POOL = "forked-celery-worker"


def _named(report: Report, cause: str) -> Finding:
    """The report's finding of ``cause``, asserted to be a warning or an error."""
    hits = [f for f in report.findings if f.cause == cause]
    assert hits, [(f.id, f.severity.value) for f in report.findings]
    assert hits[0].severity.rank >= Severity.WARNING.rank
    return hits[0]


# --- CUDA's "initialization error" ------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "tensorflow.python.framework.errors_impl.InternalError: cudaGetDevice() failed. "
        "Status: initialization error",
        "InternalError: CUDA runtime implicit initialization on GPU:0 failed. "
        "Status: initialization error",
        "2020-06-01 10:00:00.000000: E tensorflow/stream_executor/cuda/cuda_driver.cc:313] "
        "failed call to cuInit: CUDA_ERROR_NOT_INITIALIZED: initialization error",
    ],
    ids=["cudaGetDevice", "implicit-init", "cuInit"],
)
def test_an_initialization_error_without_a_fork_ranks_the_driver_first(line: str) -> None:
    found = _named(explained(line + "\n"), "driver-too-old")
    assert found.severity is Severity.WARNING  # the words alone do not decide it
    fix = fix_text(found)
    assert "nvidia-smi" in fix and "driver" in fix
    # The other candidates are named, each with its way out.
    assert "spawn" in fix and "reboot" in fix


def test_an_initialization_error_in_a_forked_worker_is_the_forks() -> None:
    text = (
        'Process ForkPoolWorker-1:\n  File "/usr/lib/python3.8/multiprocessing/pool.py", '
        "line 125, in worker\n"
        "InternalError: cudaGetDevice() failed. Status: initialization error\n"
    )
    causes = {f.cause for f in explained(text).findings}
    assert "driver-too-old" not in causes and "tf-initialised-before-fork" in causes


def test_the_bare_initialization_error_and_the_fork_are_read_from_tags() -> None:
    line = "InternalError: cudaGetDevice() failed. Status: initialization error\n"
    bare, worded = tag_readings(line, "cuda-runtime-init-error", BARE_INIT_ERROR, "driver-too-old")
    assert "spawn" in bare and "spawn" not in worded
    # The worker's line shows the fork by its tag, whatever its id.
    text = (
        'Process ForkPoolWorker-1:\n  File "/usr/lib/python3.8/multiprocessing/pool.py", '
        "line 125, in worker\n" + line
    )
    for tags, fork in (((FORKED,), True), ((), False)):
        found = {f.cause for f in explained(text, signatures=renamed(_POOL, tags)).findings}
        assert ("tf-initialised-before-fork" in found) is fork
        assert ("driver-too-old" in found) is not fork


def test_a_driver_too_old_in_words_keeps_its_own_fix() -> None:
    text = (
        "InternalError: cudaGetDevice() failed. Status: CUDA driver version is insufficient "
        "for CUDA runtime version\n"
    )
    top = top_error(explained(text))
    assert top.cause == "driver-too-old" and "spawn" not in fix_text(top)


def test_other_initialization_errors_are_not_the_drivers() -> None:
    for line in (
        "nvidia-container-cli: initialization error: nvml error: driver not loaded",
        "Failed to initialize NVML: Unknown Error",
        "cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected",
    ):
        assert all(f.cause != "driver-too-old" for f in explained(line + "\n").findings)


# --- a container's hostname ---------------------------------------------------------------------

_DIAGNOSTICS = (
    "I tensorflow/stream_executor/dso_loader.cc:102] Couldn't open CUDA library libcuda.so.1. "
    "LD_LIBRARY_PATH: /usr/local/cuda/lib64\n"
    "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:160] hostname: {host}\n"
    "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:185] libcuda reported version is: "
    "Not found: was unable to find libcuda.so DSO loaded into this program\n"
    'I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:356] driver version file contents: """'
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  375.66  Mon May  1 15:29:16 PDT 2017\n"
    '"""\n'
    "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:189] kernel reported version is: "
    "375.66.0\n"
)


def test_the_hosts_module_without_libcuda_in_a_container_is_the_container() -> None:
    found = _named(explained(_DIAGNOSTICS.format(host="3f9a1c07be42")), "container-no-gpu")
    fix = fix_text(found)
    assert "--gpus all" in fix and "nvidia-docker" in fix


def test_a_machines_own_hostname_keeps_the_drivers_libraries() -> None:
    report = explained(_DIAGNOSTICS.format(host="gpu-node-07"))
    assert all(f.cause != "container-no-gpu" for f in report.findings)
    assert any(f.cause == "driver-libraries-missing" for f in report.findings)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("root@6b9e3874a772:/workspace# python train.py\n", True),
        ("I cuda_diagnostics.cc:160] hostname: 0a1b2c3d4e5f\n", True),
        ("user@deadbeefcafe:~$ ls\n", False),  # a word in hex letters, no digit
        ("user@201912310101:~$ ls\n", False),  # a number
        ("mail me at admin@6b9e3874a772.example.com\n", False),
        ("commit 6b9e3874a772 by someone\n", False),
    ],
    ids=["prompt", "diagnostics", "hex-word", "number", "mail", "commit"],
)
def test_a_containers_default_hostname(text: str, shown: bool) -> None:
    assert (container_hostname(text) is not None) is shown


# --- ROCm ---------------------------------------------------------------------------------------

_ROCM = (
    "2021-01-10 10:00:00.000000: I tensorflow/stream_executor/platform/default/dso_loader.cc:48] "
    "Successfully opened dynamic library libamdhip64.so\n"
)


@pytest.mark.parametrize(
    "crash",
    ["*** stack smashing detected ***: <unknown> terminated", "Segmentation fault (core dumped)"],
    ids=["stack-smashing", "segfault"],
)
def test_a_native_crash_once_rocm_is_loaded_is_the_rocm_release(crash: str) -> None:
    top = top_error(explained(_ROCM + crash + "\nAborted (core dumped)\n"))
    assert top.cause == "rocm-version-mismatch"
    assert "ROCm" in fix_text(top) and "/opt/rocm/.info/version" in fix_text(top)


def test_the_same_crash_without_rocm_is_an_import_crash() -> None:
    text = (
        "2021-01-10 10:00:00.000000: I tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:49] Successfully opened dynamic library libcudart.so.11.0\n"
        "*** stack smashing detected ***: terminated\n"
    )
    top = top_error(explained(text))
    assert top.cause == "import-crash"


def test_rocm_loaded_without_a_crash_is_no_finding() -> None:
    report = explained(_ROCM)
    assert all(f.severity.rank < Severity.WARNING.rank for f in report.findings)


# --- a traceback cut inside TensorFlow's native loader -------------------------------------------


def _cut(site: str, sep: str = "/") -> str:
    tf = sep.join((site, "tensorflow", "python"))
    return (
        "Traceback (most recent call last):\n"
        f'  File "{tf}{sep}pywrap_tensorflow.py", line 58, in <module>\n'
        "    from tensorflow.python.pywrap_tensorflow_internal import *\n"
        f'  File "{tf}{sep}pywrap_tensorflow_internal.py", line 28, in <module>\n'
        "    _pywrap_tensorflow_internal = swig_import_helper()\n"
    )


def test_a_cut_native_import_on_windows_ranks_the_runtime_then_avx() -> None:
    text = _cut("C:\\Users\\me\\venv\\lib\\site-packages", "\\")
    found = _named(explained(text), "msvc-runtime-missing")
    assert found.severity is Severity.WARNING
    fix = fix_text(found)
    assert "Visual C++" in fix and "AVX" in fix


def test_a_cut_native_import_on_windows_names_a_gpu_builds_dlls_second() -> None:
    text = _cut("C:\\Users\\me\\venv\\lib\\site-packages", "\\")
    report = explained(text)
    found = _named(report, "cuda-libs-missing")
    assert found.severity is Severity.WARNING and found.summary.startswith("Or:")
    fix = fix_text(found)
    assert "cuDNN" in fix and "cudnn64_7.dll" in fix
    # A release that loads CUDA only when the GPU is first used rules it out.
    later = explained("tensorflow 2.4.0\n" + text)
    assert all(f.cause != "cuda-libs-missing" for f in later.findings)


def test_a_cut_native_import_whose_path_the_paste_wrapped() -> None:
    # The paste broke the frame's line before its line number.
    text = (
        "Traceback (most recent call last):\n"
        'File "D:\\envs\\gpu\\lib\\site-packages\\tensorflow\\python\\'
        'pywrap_tensorflow_internal.py",\n'
        "line 18, in swig_import_helper\n"
        "return importlib.import_module(mname)\n"
    )
    report = explained(text)
    found = _named(report, "msvc-runtime-missing")
    assert 'pywrap_tensorflow_internal.py", line 18' in found.detail
    assert _named(report, "cuda-libs-missing").severity is Severity.WARNING


def test_tensorflows_re_raised_import_error_cut_before_its_reason() -> None:
    # pywrap_tensorflow.py raises ImportError with the inner traceback as its message: a
    # message that is only that traceback's header says nothing yet.
    site = "C:\\Python36\\lib\\site-packages\\tensorflow\\python"
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\app\\run.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        f'  File "{site}\\pywrap_tensorflow.py", line 74, in <module>\n'
        "    raise ImportError(msg)\n"
        "ImportError: Traceback (most recent call last):\n"
        f'  File "{site}\\pywrap_tensorflow.py", line 58, in <module>\n'
        "    from tensorflow.python.pywrap_tensorflow_internal import *\n"
    )
    assert _named(explained(text), "msvc-runtime-missing").severity is Severity.WARNING


def test_a_cut_native_import_in_a_container_without_a_gpu() -> None:
    text = "$ docker run --rm -it -p 8080:8080 example/tf-gpu-app\n" + _cut(
        "/usr/local/lib/python3.6/dist-packages"
    )
    found = _named(explained(text), "container-no-gpu")
    assert "--gpus all" in fix_text(found)


def test_a_cut_native_import_in_apptainer_without_nv() -> None:
    text = "$ apptainer exec tf-gpu.sif python app.py\n" + _cut(
        "/usr/local/lib/python3.10/dist-packages"
    )
    found = _named(explained(text), "container-no-gpu")
    # Apptainer binds the driver's libraries itself with --nv, not through the toolkit.
    assert "apptainer exec --nv" in fix_text(found)
    assert "--nv" in found.detail


def test_a_cut_native_import_elsewhere_decides_nothing() -> None:
    for text in (
        _cut("/usr/local/lib/python3.6/dist-packages"),
        "$ docker run --gpus all --rm example/tf-gpu-app\n"
        + _cut("/usr/local/lib/python3.6/dist-packages"),
    ):
        causes = {f.cause for f in explained(text).findings}
        assert not causes & {"container-no-gpu", "msvc-runtime-missing"}


def test_the_message_shown_decides_not_the_cut_reading() -> None:
    text = (
        _cut("C:\\Python37\\lib\\site-packages", "\\")
        + "ImportError: DLL load failed: A dynamic link library (DLL) initialization routine "
        "failed.\n"
    )
    report = explained(text)
    assert top_error(report).cause == "cpu-lacks-avx"
    assert all(f.cause != "msvc-runtime-missing" for f in report.findings)


# --- WSL 1: Linux on Windows without a GPU -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "Linux PC 4.4.0-22621-Microsoft #2506-Microsoft Fri Jan 01 08:00:00 PST 2016 x86_64",
            True,
        ),
        ("Linux-4.4.0-19041-Microsoft-x86_64-with-glibc2.31", True),
        ("  NAME            STATE           VERSION\n* Ubuntu-20.04    Running         1", True),
        # WSL 2's kernel, and a WSL 2 default distribution.
        ("Linux PC 5.15.153.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux", False),
        ("  NAME            STATE           VERSION\n* Ubuntu-22.04    Running         2", False),
        # A default distribution at version 1 beside one at version 2: either may have run.
        (
            "  NAME            STATE           VERSION\n* Ubuntu          Stopped         1\n"
            "  Ubuntu-22.04    Running         2",
            False,
        ),
    ],
)
def test_wsl1_is_read_from_its_kernel_or_wsls_list(text: str, shown: bool) -> None:
    assert (wsl1_shown(text + "\n") is not None) == shown


def test_wsl1_beside_a_gpu_not_reached_is_wsls_version() -> None:
    text = (
        "$ uname -r\n4.4.0-19041-Microsoft\n"
        "$ nvidia-smi\n"
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
        "sure that the latest NVIDIA driver is installed and running.\n"
    )
    report = explained(text)
    top = top_error(report)
    assert top.cause == "wsl1"
    assert "wsl --set-version" in " ".join(top.fix.commands if top.fix else ())
    # The driver's own fix (install or load a driver) changes nothing under WSL 1.
    assert all(x.cause != "driver-not-loaded" for x in report.findings)


_NO_DRIVER = (
    "$ nvidia-smi\n"
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
    "sure that the latest NVIDIA driver is installed and running.\n"
)


@pytest.mark.parametrize(
    "text, cause",
    [
        # Converted to WSL 2 in the log: its kernel follows WSL 1's, and WSL 2's own reading
        # of a driver not reached (the Windows driver, WSL's libraries) replaces the Linux
        # driver's.
        (
            "$ uname -r\n4.4.0-19041-Microsoft\nPS> wsl --set-version Ubuntu 2\n"
            "$ uname -r\n5.15.153.1-microsoft-standard-WSL2\n" + _NO_DRIVER,
            "wsl-driver-broken",
        ),
        # The default distribution is WSL 1, another one at WSL 2 ran (which one failed, the
        # log does not say).
        (
            "PS> wsl -l -v\n  NAME            STATE           VERSION\n"
            "* Ubuntu          Stopped         1\n  Ubuntu-22.04    Running         2\n"
            + _NO_DRIVER,
            "driver-not-loaded",
        ),
    ],
)
def test_wsl2_shown_keeps_the_drivers_finding(text: str, cause: str) -> None:
    report = explained(text)
    assert all(x.cause != "wsl1" for x in report.findings)
    assert any(x.cause == cause for x in report.findings)


def test_wsl1_in_the_machines_facts_is_no_wsl2_reading() -> None:
    # The machine's own facts say WSL 1: no reading may say WSL 2 (nor give its fix).
    cpu_only = factories.tensorflow(devices=(DeviceFacts("/physical_device:CPU:0", "CPU"),))
    for wsl, want in (("WSL1", False), ("WSL2", True)):
        facts = factories.facts(platform=factories.platform(wsl=wsl), tensorflow=cpu_only)
        report = explained(_NO_DRIVER, facts=facts)
        assert any(x.cause == "wsl-driver-broken" for x in report.findings) is want, wsl


#: The CUDA runtime missing under TensorFlow's note (cudart_stub.cc), as 2.4 prints it.
_RUNTIME_NOTE = (
    "2021-01-02 20:12:26.425471: W tensorflow/stream_executor/platform/default/dso_loader.cc:60]"
    " Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot "
    "open shared object file: No such file or directory\n"
    "2021-01-02 20:12:26.425500: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore "
    "above cudart dlerror if you do not have a GPU set up on your machine.\n"
)


def test_wsl1_beside_cuda_libraries_a_gpu_setup_lacks_is_wsls_version() -> None:
    wsl1 = "$ uname -r\n4.4.0-19041-Microsoft\n"
    # nvcc shows a CUDA toolkit installed: a GPU was meant, and under WSL 1 none is reached,
    # so installing CUDA's libraries cannot help.
    nvcc = "$ nvcc --version\nCuda compilation tools, release 11.0, V11.0.194\n"
    report = explained(wsl1 + nvcc + _RUNTIME_NOTE)
    assert top_error(report).cause == "wsl1"
    assert all(x.cause != "cuda-libs-missing" for x in report.findings)
    # The same lines without a GPU meant: a CPU machine's start-up note, WSL 1 no fault.
    quiet = explained(wsl1 + _RUNTIME_NOTE)
    assert all(x.cause != "wsl1" for x in quiet.findings)
    assert all(x.severity.rank < Severity.WARNING.rank for x in quiet.findings)


def test_wsl1_with_nothing_of_a_gpu_is_no_fault() -> None:
    text = "$ uname -r\n4.4.0-19041-Microsoft\n$ python train.py\nEpoch 1/3\n"
    assert all(x.cause != "wsl1" for x in explained(text).findings)


# --- a container's Python importing the host's packages ---------------------------------------

_HOST_NUMPY = (
    "Traceback (most recent call last):\n"
    '  File "/opt/app/make_examples.py", line 38, in <module>\n'
    "    import numpy as np\n"
    '  File "/home/ana/.local/lib/python3.8/site-packages/numpy/__init__.py", line 140, in '
    "<module>\n"
    "    from . import core\n"
    "ImportError: Unable to import required dependencies: numpy.core._multiarray_umath failed "
    "to import\n"
)


@pytest.mark.parametrize(
    "head",
    [
        "$ apptainer exec tool_1.5.sif python /opt/app/make_examples.py\n",
        "$ singularity run tool_1.5.sif\n",
        "INFO:    Converting SIF file to temporary sandbox...\n",
    ],
)
def test_an_apptainer_image_importing_from_the_home_directory_is_the_hosts(head: str) -> None:
    top = top_error(explained(head + _HOST_NUMPY))
    assert top.cause == "container-host-python-leak"
    fix = fix_text(top)
    assert "--cleanenv" in fix and "/home/ana/.local/lib/python3.8/site-packages/numpy" in fix


@pytest.mark.parametrize(
    "text",
    [
        # No container shown: a home directory's packages are the machine's own.
        _HOST_NUMPY,
        # A container whose traceback stays in the image.
        "$ apptainer exec tool.sif python t.py\n"
        + _HOST_NUMPY.replace("/home/ana/.local/lib", "/usr/local/lib"),
    ],
)
def test_no_host_leak_without_the_container_or_the_home_directory(text: str) -> None:
    assert all(x.cause != "container-host-python-leak" for x in explained(text).findings)
