"""What explain reads of the process and its loader: a process the kernel killed, a library
without room in the static TLS block, TensorFlow's Windows extensions that do not load, CUDA
libraries of two releases mixed, a source build pip fell back to, and the source line a
traceback printed. Every log here is written for the test, a variant of its family."""

from __future__ import annotations

import pytest

from tests.explaining import explained as _explain
from tests.explaining import fix_text as _fix
from tests.explaining import top_error
from tfdoctor.evidence.pip import read_source_builds
from tfdoctor.findings import Severity

TRAINING = (
    "Epoch 1/20\n"
    "2024-02-10 10:10:12.000000: I external/local_xla/xla/stream_executor/cuda/"
    "cuda_dnn.cc:454] Loaded cuDNN version 8906\n"
    " 412/1875 [=====>........................] - ETA: 1:02 - loss: 0.4521\n"
)


@pytest.mark.parametrize(
    "ending",
    [
        "Killed\n",
        "bash: line 1:  3117 Killed                  python3 fit.py --epochs 20\n",
        "zsh: killed     python fit.py\n",
        "Killed: 9\n",
        "\nProcess finished with exit code 137 (interrupted by signal 9: SIGKILL)\n",
        "fit-worker-0 exited with code 137\n",
        "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n",
        "[  881.204551] Out of memory: Killed process 3117 (python3) total-vm:41236580kB\n",
        "Your session crashed after using all available RAM.\n",
    ],
)
def test_a_killed_process_is_host_memory(ending: str) -> None:
    top = top_error(_explain(TRAINING + ending))
    assert top.cause == "host-out-of-memory"
    assert "dmesg" in _fix(top)


@pytest.mark.parametrize(
    "line",
    [
        "Process finished with exit code 0\n",
        "2024-02-10 10:10:12.000000: I tensorflow/core/util/port.cc:113] oneDNN custom "
        "operations are on. You may see slightly different numerical results.\n",
        "The job was killed by the user at 10:12.\n",
        "skilled annotators labelled 2,000 images\n",
    ],
)
def test_words_like_killed_are_not_a_kill(line: str) -> None:
    report = _explain(TRAINING + line)
    assert all(x.cause != "host-out-of-memory" for x in report.findings)


def test_static_tls_names_the_library_to_preload() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/nano/infer.py", line 2, in <module>\n'
        "    import tensorflow as tf\n"
        "ImportError: /usr/lib/aarch64-linux-gnu/libGLdispatch.so.0: cannot allocate memory "
        "in static TLS block\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "static-tls-exhausted"
    assert top.fix is not None
    assert top.fix.commands[0].startswith(
        "export LD_PRELOAD=/usr/lib/aarch64-linux-gnu/libGLdispatch.so.0"
    )
    assert any("optional_static_tls" in c for c in top.fix.commands)


@pytest.mark.parametrize(
    ("message", "cause"),
    [
        (
            "ImportError: DLL load failed while importing _pywrap_tfe: The specified module "
            "could not be found.",
            "msvc-runtime-missing",
        ),
        (
            "ImportError: DLL load failed while importing _pywrap_cpu_feature_guard: A dynamic "
            "link library (DLL) initialization routine failed.",
            "cpu-lacks-avx",
        ),
        ("ImportError: DLL load failed with error code -1073741795", "cpu-lacks-avx"),
    ],
)
def test_tensorflow_windows_extensions_that_do_not_load(message: str, cause: str) -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\dev\\app\\main.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        f"{message}\n"
    )
    assert top_error(_explain(log)).cause == cause


def test_a_windows_dll_of_another_package_is_not_tensorflows() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\dev\\app\\main.py", line 1, in <module>\n'
        "    import cv2\n"
        "ImportError: DLL load failed while importing cv2: The specified module could not "
        "be found.\n"
    )
    report = _explain(log)
    assert all(x.cause != "msvc-runtime-missing" for x in report.findings)


def test_cuda_libraries_of_two_releases_are_a_shadowed_copy() -> None:
    log = (
        "2022-11-04 09:12:40.118213: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcusolver.so.11'; dlerror: "
        "/opt/cuda-11.2/lib64/libcusolver.so.11: undefined symbol: "
        "cublasLtMatmulAlgoGetHeuristic, version libcublasLt.so.11\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "cuda-lib-shadowed"
    assert top.fix is not None
    assert "ldd /opt/cuda-11.2/lib64/libcusolver.so.11" in top.fix.commands
    assert "libcublasLt.so.11" in top.fix.text


def test_a_missing_cuda_file_stays_a_missing_library() -> None:
    log = (
        "2022-11-04 09:12:40.118213: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcusolver.so.11'; dlerror: "
        "libcusolver.so.11: cannot open shared object file: No such file or directory\n"
    )
    assert top_error(_explain(log)).cause == "cuda-libs-missing"


PIP_BUILD = """\
Collecting h5py==2.10.0
  Downloading h5py-2.10.0.tar.gz (301 kB)
Building wheels for collected packages: h5py
  Building wheel for h5py (setup.py) ... error
  error: subprocess-exited-with-error
  ERROR: Failed building wheel for h5py
  Running setup.py clean for h5py
Failed to build h5py
ERROR: Could not build wheels for h5py, which is required to install pyproject.toml-based projects
"""

PEP517_BUILD = """\
Collecting numpy==1.24.3
  Using cached numpy-1.24.3.tar.gz (10.9 MB)
  Installing build dependencies ... done
  Getting requirements to build wheel ... error
  error: subprocess-exited-with-error

  x Getting requirements to build wheel did not run successfully.
  | exit code: 1
  +-> [20 lines of output]
      Traceback (most recent call last):
        File "/srv/env/lib/python3.13/site-packages/hooks/_in_process.py", line 35, in <module>
          main()
      ModuleNotFoundError: No module named 'distutils'
      [end of output]
"""


def test_source_builds_are_read_with_their_release() -> None:
    (h5py,) = read_source_builds([PIP_BUILD])
    assert (h5py.dist, h5py.version) == ("h5py", "2.10.0")
    (numpy,) = read_source_builds([PEP517_BUILD])
    assert (numpy.dist, numpy.version) == ("numpy", "1.24.3")
    assert read_source_builds(["Building wheel for h5py (setup.py) ... done\n"]) == []


@pytest.mark.parametrize(("log", "dist"), [(PIP_BUILD, "h5py"), (PEP517_BUILD, "numpy")])
def test_a_failed_source_build_asks_for_a_release_with_a_wheel(log: str, dist: str) -> None:
    top = top_error(_explain(log))
    assert top.cause == "tf-release-not-for-python"
    assert dist in top.summary
    assert top.fix is not None
    assert any(f"--only-binary={dist}" in c for c in top.fix.commands)
    # The build's own traceback is pip's, not the failure to explain.
    assert all(x.id != "explain.unexplained-exception" for x in _explain(log).findings)


def test_a_failed_source_build_keeps_the_major_asked_where_tensorflow_is_not_shown() -> None:
    # No TensorFlow range to keep within: a newer major (NumPy 2) could be one an older
    # TensorFlow does not run, so the fix stays in the major the requirement asked for.
    top = top_error(_explain(PEP517_BUILD))
    assert top.fix is not None
    assert any('--only-binary=numpy "numpy<2"' in c for c in top.fix.commands)


def test_a_missing_module_is_judged_by_the_source_line_that_imported_it() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/grid.py", line 6, in <module>\n'
        "    from keras.wrappers.scikit_learn import KerasRegressor\n"
        "ModuleNotFoundError: No module named 'keras.wrappers'\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "api-removed"
    assert "scikeras" in _fix(top)


def test_a_source_line_that_does_not_name_the_missing_module_is_not_asked() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/grid.py", line 6, in <module>\n'
        "    model = build()\n"
        '  File "/home/dev/models.py", line 2, in build\n'
        "    import keras_tuner\n"
        "ModuleNotFoundError: No module named 'keras.wrappers'\n"
    )
    report = _explain(log)
    assert all(x.cause != "api-removed" for x in report.findings)


def test_cuda_wheels_asked_for_and_not_loaded_are_put_on_the_path() -> None:
    log = (
        "$ uv add 'tensorflow[and-cuda]==2.19.0'\n"
        "$ uv run python -c 'import tensorflow as tf; print(tf.config.list_physical_devices())'\n"
        "W0000 00:00:1750000000.000000    4242 gpu_device.cc:2344] Cannot dlopen some GPU "
        "libraries. Please make sure the missing libraries mentioned above are installed "
        "properly if you would like to use GPU.\n"
        "Skipping registering GPU devices...\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "cuda-wheels-unfound"
    assert top.fix is not None
    assert "LD_LIBRARY_PATH" in top.fix.commands[0]
    assert "nvidia.__path__" in top.fix.commands[0]


def test_a_dlopen_failure_without_the_wheels_stays_a_missing_library() -> None:
    log = (
        "W0000 00:00:1750000000.000000    4242 gpu_device.cc:2344] Cannot dlopen some GPU "
        "libraries. Please make sure the missing libraries mentioned above are installed "
        "properly if you would like to use GPU.\n"
    )
    top = _explain(log).findings[0]
    assert top.cause == "cuda-libs-missing" and top.severity is Severity.WARNING


def test_tf_trt_aborting_without_tensorrt_is_an_error_not_noise() -> None:
    log = (
        "2021-03-02 08:00:01.000000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:60] Could not load dynamic library 'libnvinfer.so.7'; dlerror: "
        "libnvinfer.so.7: cannot open shared object file: No such file or directory\n"
        "2021-03-02 08:00:09.000000: F tensorflow/compiler/tf2tensorrt/stub/"
        "nvinfer_stub.cc:49] getInferLibVersion symbol not found.\n"
        "Aborted (core dumped)\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "native-library-unresolved"
    assert "TensorRT" in _fix(top)
    # Without the abort, the missing TensorRT is TensorFlow's usual harmless note.
    quiet = _explain(log.split("\n", maxsplit=1)[0] + "\n")
    assert all(x.severity is Severity.INFO for x in quiet.findings)


def test_a_users_own_tensorflow_py_is_named() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\dev\\lab\\tensorflow.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "C:\\Users\\dev\\lab\\tensorflow.py", line 3, in <module>\n'
        "    x = tf.constant([1, 2])\n"
        "AttributeError: partially initialized module 'tensorflow' has no attribute "
        "'constant' (most likely due to a circular import)\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "tf-shadowed-module"
    assert top.fix is not None
    # cmd has no mv and no # comment: ren runs there and in PowerShell (Rename-Item).
    assert top.fix.commands == ('ren "C:\\Users\\dev\\lab\\tensorflow.py" "tensorflow.py.bak"',)


def test_the_installed_tensorflow_in_a_traceback_is_not_a_shadow() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/dev/train.py", line 1, in <module>\n'
        "    import tensorflow as tf\n"
        '  File "/home/dev/.venv/lib/python3.11/site-packages/tensorflow/__init__.py", '
        "line 40, in <module>\n"
        "    from tensorflow.python import pywrap_tensorflow\n"
        "AttributeError: module 'tensorflow' has no attribute 'python'\n"
    )
    assert all(x.cause != "tf-shadowed-module" for x in _explain(log).findings)


@pytest.mark.parametrize("wsl", [True, False])
def test_cudnn_without_the_unversioned_libcuda(wsl: bool) -> None:
    log = (
        "I0000 00:00:1700000000.000000  101 gpu_device.cc:2022] Created device "
        "/job:localhost/replica:0/task:0/device:GPU:0 with 9000 MB memory\n"
        + ("LD_LIBRARY_PATH=/usr/lib/wsl/lib/../lib\n" if wsl else "")
        + "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open "
        "shared object file: No such file or directory\nAborted (core dumped)\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "driver-libraries-missing"
    assert top.fix is not None
    if wsl:
        assert "/usr/lib/wsl/lib" in top.fix.commands[0]
    else:
        assert any("ln -s libcuda.so.1" in c for c in top.fix.commands)


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("$ uname -r\n5.15.153.1-microsoft-standard-WSL2\n", id="wsl2-kernel"),
        pytest.param(
            "$ ls /usr/lib/wsl/lib\nlibcuda.so  libcuda.so.1  libcuda.so.1.1  libd3d12.so  "
            "libdxcore.so  nvidia-smi\n",
            id="wsl-libraries-listed",
        ),
    ],
)
def test_cudnn_without_the_unversioned_libcuda_under_wsl_needs_no_device_line(shown: str) -> None:
    # cuDNN's parts load as the first convolution runs, on a GPU the process already opened
    # through libcuda.so.1: the Windows driver answered, whether or not the log kept the
    # device line, so the fix is the loader's path, not WSL's GPU support.
    log = (
        "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open "
        "shared object file: No such file or directory\nAborted\n" + shown
    )
    top = top_error(_explain(log))
    assert top.cause == "driver-libraries-missing"
    assert top.fix is not None and "/usr/lib/wsl/lib" in top.fix.commands[0]


def test_a_gpu_below_the_multiprocessor_minimum_beside_a_bigger_one_is_a_note() -> None:
    # Unless TF_MIN_GPU_MULTIPROCESSOR_COUNT is set, the minimum is the smaller of 8 and the
    # largest GPU's count: a small GPU is left out only beside a bigger one, which is used.
    log = (
        "2021-05-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1725] "
        "Ignoring visible gpu device (device: 1, name: Quadro K420, pci bus id: 0000:03:00.0, "
        "compute capability: 3.0) with core count: 2. The minimum required count is 8. You can "
        "adjust this requirement with the env var TF_MIN_GPU_MULTIPROCESSOR_COUNT.\n"
    )
    report = _explain(log)
    (note,) = report.findings
    assert (note.cause, note.severity) == ("gpu-too-few-cores", Severity.INFO)
    assert note.fix is not None
    assert note.fix.commands == ("export TF_MIN_GPU_MULTIPROCESSOR_COUNT=2",)
    assert "uses that one" in note.fix.text


@pytest.mark.parametrize(
    ("line", "cause"),
    [
        (
            "tensorflow.python.framework.errors_impl.InternalError: Attempting to perform BLAS "
            "operation using StreamExecutor without BLAS support [Op:MatMul]",
            "gpu-library-init-failed",
        ),
        (
            "tensorflow.python.framework.errors_impl.ResourceExhaustedError: failed to allocate "
            "memory [Op:Conv2D]",
            "gpu-out-of-memory",
        ),
        (
            "Could not load library libcudnn_ops_train.so.8. Error: /opt/cudnn/lib/"
            "libcudnn_ops_train.so.8: undefined symbol: _ZN5cudnn3ops18cudnnOpsTrainVersionEv, "
            "version libcudnn_ops_infer.so.8",
            "cuda-lib-shadowed",
        ),
        (
            "2022-02-02 02:02:02.000000: F tensorflow/core/platform/default/env.cc:73] Check "
            "failed: ret == 0 (11 vs. 0)Thread creation via pthread_create() failed.",
            "threads-exhausted",
        ),
    ],
)
def test_runtime_failures_of_the_gpu_libraries_and_the_process(line: str, cause: str) -> None:
    top = top_error(_explain(line + "\n"))
    assert top.cause == cause
    assert top.fix is not None and top.fix.text


def test_hadoop_filesystem_without_libhdfs_is_noise() -> None:
    line = (
        "2021-01-01 10:00:00.000000: E tensorflow/core/platform/hadoop/hadoop_file_system.cc:"
        "132] HadoopFileSystem load error: libhdfs.so: cannot open shared object file: No such "
        "file or directory\n"
    )
    report = _explain(line)
    assert [x.severity for x in report.findings] == [Severity.INFO]


@pytest.mark.parametrize(
    ("log", "cause", "command"),
    [
        (
            "$ pip3 install tensorflow-cpu\nerror: externally-managed-environment\n\n"
            "x This environment is externally managed\n",
            "externally-managed-python",
            "python3 -m venv ~/.venvs/tf",
        ),
        (
            "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or "
            "directory: 'C:\\\\Users\\\\dev\\\\venv\\\\Lib\\\\site-packages"
            "\\\\tensorflow\\\\include"
            "\\\\x.h'\nHINT: This error might have occurred since this system does not have "
            "Windows Long Path support enabled. You can find information on how to enable this "
            "at https://pip.pypa.io/warnings/enable-long-paths\n",
            "windows-long-paths",
            "LongPathsEnabled",
        ),
        (
            "% pip install tensorflow[and-cuda]==2.19.0\n"
            "zsh: no matches found: tensorflow[and-cuda]==2.19.0\n",
            "shell-glob-extra",
            "pip install 'tensorflow[and-cuda]==2.19.0'",
        ),
    ],
)
def test_installs_that_never_reach_tensorflow(log: str, cause: str, command: str) -> None:
    top = top_error(_explain(log))
    assert top.cause == cause
    assert command in _fix(top)


def test_a_pinned_package_outside_its_requires_python() -> None:
    log = "ERROR: Package 'tensorflow-text' requires a different Python: 3.8.10 not in '>=3.9'\n"
    top = top_error(_explain(log))
    assert top.cause == "tf-release-not-for-python"
    assert "tensorflow-text" in top.summary
    assert "older than it allows" in _fix(top)


def test_releases_pip_skipped_for_their_python_decide_the_refusal() -> None:
    log = (
        "ERROR: Ignored the following versions that require a different python version: "
        "2.17.0 Requires-Python >=3.9; 2.17.1 Requires-Python >=3.9\n"
        "ERROR: Could not find a version that satisfies the requirement tensorflow==2.17.1 "
        "(from versions: 2.10.0, 2.11.0, 2.12.0, 2.13.0)\n"
        "ERROR: No matching distribution found for tensorflow==2.17.1\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "tf-release-not-for-python"
    fix = _fix(top)
    assert "Requires-Python >=3.9" in fix
    assert 'pip install "tensorflow==2.13.0"' in fix
    assert "platform" not in fix.split("\n")[0]  # pip said it was the Python


def _native_environment(fix: str, dist: str) -> bool:
    """Whether the fix's commands make a new environment with the arm64 interpreter and
    install ``dist`` there, never by the current Python."""
    lines = fix.splitlines()
    made = "arch -arm64 python3 -m venv .venv"
    install = f"arch -arm64 .venv/bin/python -m pip install {dist}"
    return (
        made in lines
        and install in lines
        and lines.index(made) < lines.index(install)
        and "--force-reinstall" not in fix
    )


def test_a_library_of_another_architecture_names_its_package() -> None:
    log = (
        "ImportError: dlopen(/Users/dev/env/lib/python3.10/site-packages/numpy/core/"
        "_multiarray_umath.cpython-310-darwin.so, 0x0002): tried: '/Users/dev/x.so' (mach-o "
        "file, but is an incompatible architecture (have 'arm64', need 'x86_64'))\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "wheel-mismatch"
    fix = _fix(top)
    assert "built for arm64" in fix
    # The environment is made by the native interpreter and the package installed there, not
    # reinstalled by the Python that runs as the other architecture.
    assert _native_environment(fix, "numpy")


def test_macos_12_dyld_words_for_another_architecture_name_the_package() -> None:
    # dyld of macOS 11 and 12 puts the architectures in parentheses, not quotes.
    log = (
        "ImportError: dlopen(/Users/kim/py39/lib/python3.9/site-packages/h5py/"
        "_errors.cpython-39-darwin.so, 0x0002): tried: '/Users/kim/py39/lib/python3.9/"
        "site-packages/h5py/_errors.cpython-39-darwin.so' (mach-o file, but is an "
        "incompatible architecture (have (x86_64), need (arm64e)))\n"
    )
    top = top_error(_explain(log))
    assert top.cause == "wheel-mismatch"
    fix = _fix(top)
    assert "built for x86_64" in fix
    assert _native_environment(fix, "h5py")


def test_dyld2_words_for_another_architecture_name_the_file_it_found() -> None:
    # dyld 2 names the refused file on its own line, after "no suitable image found".
    site = "/Users/kim/env/lib/python3.7/site-packages"
    for reason in (
        "mach-o, but wrong architecture",
        "no matching architecture in universal wrapper",
    ):
        log = (
            "Traceback (most recent call last):\n"
            f'  File "{site}/grpc/__init__.py", line 22, in <module>\n'
            "    from grpc._cython import cygrpc as _cygrpc\n"
            "ImportError: no suitable image found.  Did find:\n"
            f"\t{site}/grpc/_cython/cygrpc.cpython-37m-darwin.so: {reason}\n"
        )
        top = top_error(_explain(log))
        assert top.cause == "wheel-mismatch", reason
        fix = _fix(top)
        assert "built for another architecture" in fix
        # No Apple silicon shown: the versioned interpreter of a native install makes it.
        assert "--force-reinstall" not in fix and "arch -arm64" not in fix, fix
        lines = fix.splitlines()
        venv = next(x for x in lines if x.endswith(" -m venv .venv"))
        assert venv.startswith("python3.") and ".venv/bin/python -m pip install grpcio" in lines


def test_tpu_ops_missing_from_the_build_ask_for_the_tpu_build() -> None:
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered "
        "'TPUExecute' in binary running on t1v-n-1234-w-0.\n"
    )
    top = top_error(_explain(line))
    assert top.cause == "tpu-tf-without-libtpu"
    assert "tensorflow-tpu" in _fix(top)


def test_the_bash_job_line_of_a_killed_job_is_host_memory() -> None:
    assert top_error(_explain("[1]+  Killed    python train.py\n")).cause == "host-out-of-memory"


def test_the_thread_pool_name_in_newer_pthread_failures() -> None:
    line = (
        "F0000 00:00:1700000000.000000 4242 env.cc:154] Check failed: ret == 0 (11 vs. 0)Thread "
        "tf_data_private_threadpool creation via pthread_create() failed.\n"
    )
    assert top_error(_explain(line)).cause == "threads-exhausted"


def test_a_static_tls_library_named_without_its_directory_is_found_first() -> None:
    line = "OSError: libgomp-d22c30c5.so.1.0.0: cannot allocate memory in static TLS block\n"
    top = top_error(_explain(line))
    assert top.fix is not None
    assert not any(c.startswith("export LD_PRELOAD") for c in top.fix.commands)
    assert top.fix.commands[0] == "find / -name libgomp-d22c30c5.so.1.0.0 2>/dev/null"
    assert top.fix.commands[1].endswith("${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}")


def test_a_source_build_that_pip_then_installed_is_no_failure() -> None:
    log = (
        "Collecting pycocotools==2.0.2\n  Downloading pycocotools-2.0.2.tar.gz (23 kB)\n"
        "  ERROR: Failed building wheel for pycocotools\n"
        "    Running setup.py install for pycocotools ... done\n"
        "Successfully installed pycocotools-2.0.2\n"
    )
    assert read_source_builds([log]) == []


def test_a_pure_python_package_pip_refuses_is_about_the_python_not_the_platform() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement keras==3.5.0 (from "
        "versions: 2.10.0, 2.11.0, 2.12.0, 2.13.1)\n"
        "ERROR: No matching distribution found for keras==3.5.0\n"
    )
    fix = _fix(top_error(_explain(log)))
    assert "pure Python" in fix
    assert "WSL2" not in fix


def test_the_successor_is_not_offered_where_it_has_no_wheel() -> None:
    log = (
        "C:\\Users\\dev> pip install tflite-runtime\n"
        "ERROR: Could not find a version that satisfies the requirement tflite-runtime (from "
        "versions: none)\nERROR: No matching distribution found for tflite-runtime\n"
    )
    fix = _fix(top_error(_explain(log)))
    # The prompt says Windows, where ai-edge-litert has no wheel either.
    assert "ai-edge-litert" not in fix
    assert "WSL2" in fix


def test_cu12_wheels_do_not_serve_a_build_that_asks_for_cuda_11() -> None:
    log = (
        "Successfully installed nvidia-cublas-cu12-12.4.5.8 nvidia-cudnn-cu12-9.1.0.70 "
        "torch-2.4.0\n"
        "2023-01-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
        "libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
    )
    assert top_error(_explain(log)).cause != "cuda-wheels-unfound"


def test_an_and_cuda_request_the_shell_stopped_installed_no_wheels() -> None:
    log = (
        "% pip install tensorflow[and-cuda]\nzsh: no matches found: tensorflow[and-cuda]\n"
        "% pip install tensorflow\n"
        "W0000 00:00:1750000000.000000    4242 gpu_device.cc:2344] Cannot dlopen some GPU "
        "libraries. Please make sure the missing libraries mentioned above are installed "
        "properly if you would like to use GPU.\n"
    )
    causes_found = [x.cause for x in _explain(log).findings]
    assert "cuda-wheels-unfound" not in causes_found
    assert "shell-glob-extra" in causes_found


def test_every_signature_example_is_found_through_the_folded_keywords() -> None:
    # The scan searches fewer literals than there are keywords (a keyword is folded into a
    # shorter literal it holds): every example must still reach its own signature.
    from tfdoctor.explain import scan
    from tfdoctor.explain.reader import split_text
    from tfdoctor.signatures import load_signatures

    signatures = load_signatures()
    lost = []
    for sig in signatures.signatures:
        for example in sig.examples:
            evidence = scan([split_text(example + "\n")], signatures)
            if sig.id not in evidence.hits:
                lost.append((sig.id, example[:60]))
    assert lost == []


def test_lines_that_differ_only_in_numbers_are_each_matched_counted_and_numbered() -> None:
    # The literals are searched for once per shape of line (digits read as 0): every line of
    # a shape must still be matched on its own, with its own number and its own versions.
    from tfdoctor.explain import scan
    from tfdoctor.explain.reader import split_text
    from tfdoctor.signatures import load_signatures

    line = (
        "2021-01-02 20:12:{0:02d}.425425: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:60] Could not load dynamic library 'libcudart.so.{1}'; dlerror: "
        "libcudart.so.{1}: cannot open shared object file: No such file or directory"
    )
    noise = "Epoch {0}/50 - loss: 0.{0:04d}"
    lines = []
    for n in range(1, 41):
        lines.append(noise.format(n))
        if n in (5, 17, 30, 38):
            lines.append(line.format(n, "11.0" if n < 30 else "10.1"))
    evidence = scan([split_text("\n".join(lines), first_line=1)], load_signatures())
    hit = evidence.hits["dlopen-cuda-library"]
    assert hit.count == 4
    assert [where for where, _ in hit.citations] == ["line 6", "line 19", "line 33"]
    assert evidence.values("library") == ["libcudart.so.11.0", "libcudart.so.10.1"]


def test_a_literal_with_digits_is_not_found_in_a_line_of_the_same_shape_without_it() -> None:
    # "code 137" (a process the kernel killed) and "code 128" have one shape: only the line
    # that holds the literal itself may be matched.
    from tfdoctor.explain import scan
    from tfdoctor.explain.reader import split_text
    from tfdoctor.signatures import load_signatures

    signatures = load_signatures()
    killed = [s for s in signatures.signatures if s.keyword == "code 137"]
    assert killed, "the signature of exit code 137 is gone"
    example = killed[0].examples[0]
    other = example.replace("137", "128")
    evidence = scan([split_text(f"{other}\n{other}\n{example}\n")], signatures)
    hit = evidence.hits[killed[0].id]
    assert hit.count == 1
    assert hit.citations[0][0] == "line 3"


def test_counting_past_the_citations_agrees_with_matching_every_line() -> None:
    # Past its citations a signature only counts; one that cannot tell a digit from another
    # is searched once per shape, one that can (exit code 137, not 128) on every line.
    from tfdoctor.explain.reader import split_text
    from tfdoctor.explain.scanning import _shape_blind, scan
    from tfdoctor.signatures import load_signatures

    signatures = load_signatures()
    trt = signatures.by_id("tf-trt-missing")
    killed = next(s for s in signatures.signatures if s.keyword == "code 137")
    assert _shape_blind(trt) and not _shape_blind(killed)
    lines = []
    for n in range(1, 13):
        lines.append(
            f"2023-12-05 09:29:{n:02d}.002737: W tensorflow/compiler/tf2tensorrt/utils/"
            "py_utils.cc:38] TF-TRT Warning: Could not find TensorRT"
        )
        code = "137" if n % 3 else "128"
        lines.append(killed.examples[0].replace("137", code))
    evidence = scan([split_text("\n".join(lines))], signatures)
    assert evidence.hits[trt.id].count == 12
    assert evidence.hits[killed.id].count == 8


def _matched_line_by_line(text: str, signatures: object) -> dict[str, tuple[int, list[str]]]:
    """What matching every line against every signature finds: each signature's count and
    its first cited lines (the reference the scan's shortcuts must agree with)."""
    out: dict[str, tuple[int, list[str]]] = {}
    for sig in signatures.signatures:  # type: ignore[attr-defined]
        if sig.keyword not in text:
            continue
        lines = [
            (n, line)
            for n, line in enumerate(text.split("\n"), start=1)
            if sig.keyword in line and sig.pattern.search(line)
        ]
        if lines:
            out[sig.id] = (len(lines), [f"line {n}" for n, _ in lines[:3]])
    return out


@pytest.mark.parametrize("chunk", [1 << 20, 4096])
def test_the_scan_counts_and_cites_as_matching_every_line_would(chunk: int) -> None:
    # The scan visits few lines of a long log: a shape whose signatures cannot tell one digit
    # from another has its first lines visited and the rest counted; the lines that hold a
    # literal with digits ("code 137", not "code 128") are found in the text. Over blocks,
    # whatever the block size, every signature's count and citations are those of matching
    # every line (except the version lines, no longer looked for once cited).
    import io

    from tfdoctor.explain import scan
    from tfdoctor.explain.reader import read_log
    from tfdoctor.signatures import EVIDENCE, load_signatures

    signatures = load_signatures()
    killed = next(s for s in signatures.signatures if s.keyword == "code 137")
    lines = []
    for n in range(1, 601):
        lines.append(f"Epoch {n}/600 - loss: 0.{n:04d} - accuracy: 0.9{n % 10}")
        lines.append(
            f"2023-12-05 09:{n % 60:02d}:{n % 59:02d}.002737: W tensorflow/compiler/tf2tensorrt/"
            "utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT"
        )
        if n % 7 == 0:
            lines.append(killed.examples[0].replace("137", "137" if n % 21 else "128"))
        if n % 5 == 0:
            # a line whose only literal has digits: found in the text, not the shape
            lines.append(f"worker {n}: subprocess returned exit status {130 + 2 * (n % 3 > 0)}")
        if n % 50 == 0:
            lines.append(
                f"2021-01-02 20:12:{n % 60:02d}.425425: W tensorflow/stream_executor/platform/"
                "default/dso_loader.cc:60] Could not load dynamic library 'libcudart.so.11.0'; "
                "dlerror: libcudart.so.11.0: cannot open shared object file: No such file or "
                "directory"
            )
        if n % 100 == 0:
            lines.append(
                f"2024-03-10 18:42:{n % 60:02d}.339121: I tensorflow/core/framework/"
                "local_rendezvous.cc:404] Local rendezvous is aborting with status: "
                "OUT_OF_RANGE: End of sequence"
            )
    text = "\n".join(lines)
    evidence = scan(read_log(io.BytesIO(text.encode()), "-", chunk=chunk), signatures)
    got = {
        sid: (hit.count, [where for where, _ in hit.citations])
        for sid, hit in evidence.hits.items()
        if hit.signature.cause != EVIDENCE
    }
    expected = {
        sid: found
        for sid, found in _matched_line_by_line(text, signatures).items()
        if signatures.by_id(sid).cause != EVIDENCE
    }
    assert {"tf-trt-missing", killed.id, "dlopen-cuda-library", "sigill-exit-status"} <= set(got)
    assert got == expected


def test_a_block_answers_in_from_its_shapes_exactly_as_its_text_does() -> None:
    # The readers' gates ask the block's distinct line shapes first: a word must be found
    # there exactly when the text holds it (digits, a line's end and words of no line alike).
    import random
    from pathlib import Path

    from tfdoctor.explain.scanning import _Shaped, _shapes

    rng = random.Random(7)
    logs = sorted(Path(__file__).parent.joinpath("data", "logs").glob("*.log"))
    assert logs
    for path in logs[::5]:
        raw = path.read_text(encoding="utf-8", errors="replace")
        text = _Shaped(raw)
        text.shapes = _shapes(raw)[1]
        words = ["Traceback", "No module named", "libcudart.so.11.0", "0.9", "\n2", "\nEpoch"]
        for _ in range(40):
            start = rng.randrange(max(1, len(raw) - 12))
            word = raw[start : start + rng.randint(1, 12)]
            # the word itself, and the same word with its digits changed, mostly absent
            words += [word, word.translate(str.maketrans("0123456789", "1234567890"))]
        for _ in range(40):
            # words of several lines: a line's end, whole lines, a line's start
            start = rng.randrange(max(1, len(raw) - 400))
            word = raw[start : start + rng.randint(2, 400)]
            words += [word, word.translate(str.maketrans("0123456789", "1234567890"))]
        for word in words:
            assert (word in text) == (word in raw), (path.name, word)


@pytest.mark.parametrize(
    "word, found",
    [
        ("\ntensorflow", True),
        ("\ntensorflow-gpu", False),
        ("ok\n", True),
        ("ok\nnext", False),
        ("step 2\nstep 3\n", True),
        ("step 3\nstep 2", False),
        ("\nstep 4", False),
        ("first\n", True),
        ("\nfirst", False),
        ("last\n", False),
    ],
)
def test_a_word_of_several_lines_is_answered_exactly(word: str, found: bool) -> None:
    # The shapes know each line, not which follows which: a word of several lines is found in
    # them only as a gate, and the text decides.
    from tfdoctor.explain.scanning import _Shaped, _shapes

    raw = "first\nstep 1\nstep 2\nstep 3\ntensorflow 2.15.0\nok\nlast"
    text = _Shaped(raw)
    text.shapes = _shapes(raw)[1]
    assert (word in text) is found
    assert (word in raw) is found


@pytest.mark.parametrize(
    "words, found",
    [
        ("Every time I load the full dataset the process gets killed.\n", True),
        ("Training was killed by the OOM killer after epoch 3.\n", True),
        ("The training job was killed by the scheduler at the time limit.\n", False),
    ],
)
def test_a_kill_in_a_users_words_is_a_memory_warning(words: str, found: bool) -> None:
    report = _explain(words)
    hits = [x for x in report.findings if x.cause == "host-out-of-memory"]
    assert bool(hits) is found
    assert all(x.severity.value == "warning" for x in hits)
