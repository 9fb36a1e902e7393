"""Causes a running program shows: memory, library handles, options set too late."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import (
    Candidate,
    import_after_commands,
    set_env,
    show_env,
    unset_env,
)
from tfdoctor.causes.gpu import CUDA_RELEASE_PREDATES_GPU, CUDNN_VERSION_MISMATCH, DRIVER_TOO_OLD
from tfdoctor.causes.xla import WITHOUT_XLA
from tfdoctor.findings import Fix
from tfdoctor.machine import NIGHTLY_DISTRIBUTIONS, Machine
from tfdoctor.matrix import version_key
from tfdoctor.modules import modules

#: The ids of this area's causes, as checks, explain and scan name them.
GPU_OUT_OF_MEMORY: Final = CauseId("gpu-out-of-memory")
HOST_OUT_OF_MEMORY: Final = CauseId("host-out-of-memory")
DISK_SPACE_EXHAUSTED: Final = CauseId("disk-space-exhausted")
GPU_LIBRARY_INIT_FAILED: Final = CauseId("gpu-library-init-failed")
GPU_CONFIG_TOO_LATE: Final = CauseId("gpu-config-too-late")
GPU_MEMORY_GROWTH_MIXED: Final = CauseId("gpu-memory-growth-mixed")
DISTRIBUTE_CONFIG_TOO_LATE: Final = CauseId("distribute-config-too-late")
STRATEGY_SCOPE_MISSING: Final = CauseId("strategy-scope-missing")
OP_KERNEL_MISSING: Final = CauseId("op-kernel-missing")
GPU_BUSY_OR_UNAVAILABLE: Final = CauseId("gpu-busy-or-unavailable")
GPU_WATCHDOG_TIMEOUT: Final = CauseId("gpu-watchdog-timeout")
THREADS_EXHAUSTED: Final = CauseId("threads-exhausted")
TF_ENV_FLAG_INVALID: Final = CauseId("tf-env-flag-invalid")
FILESYSTEM_ENV_MISCONFIGURED: Final = CauseId("filesystem-env-misconfigured")
OPEN_FILES_LIMIT_REACHED: Final = CauseId("open-files-limit-reached")
SPAWN_MAIN_UNGUARDED: Final = CauseId("spawn-main-unguarded")
TF_INITIALISED_BEFORE_FORK: Final = CauseId("tf-initialised-before-fork")
SERVER_CONCURRENCY_MODEL_MISMATCH: Final = CauseId("server-concurrency-model-mismatch")
TENSOR_FROM_OTHER_GRAPH: Final = CauseId("tensor-from-other-graph")
IMPORT_ORDER_CONFLICT: Final = CauseId("import-order-conflict")
TF_RELEASE_KERNEL_BUG: Final = CauseId("tf-release-kernel-bug")
TF_RELEASE_PLATFORM_BUG: Final = CauseId("tf-release-platform-bug")
TF_PRERELEASE_REGRESSION: Final = CauseId("tf-prerelease-regression")
TF_BUILD_REGRESSION: Final = CauseId("tf-build-regression")
SERVING_MODEL_VERSION_MISSING: Final = CauseId("serving-model-version-missing")
HDF5_FILE_LOCK_FAILED: Final = CauseId("hdf5-file-lock-failed")

#: PEP 440's pre-release and development suffixes as TensorFlow's versions carry them
#: (2.16.0rc0, 2.0.0a0, 2.0.0b1; tf-nightly's 2.13.0.dev20230428), and the rc with a dash that
#: tf.__version__ printed for some candidates (2.16.0-rc0).
_PRE_RELEASE = re.compile(r"^(?P<final>\d+\.\d+\.\d+)-?(?:a|b|rc)\d+$")
#: A nightly's version: TensorFlow's date (YYYYMMDD); keras-nightly's adds the hour
#: (YYYYMMDDHH, keras-team/keras pip_build.py's export_version_string).
_NIGHTLY = re.compile(r"^(?P<final>\d+\.\d+\.\d+)\.dev(?P<date>\d{8})(?:\d{2})?$")
#: The distribution TensorFlow's nightly builds are published as: its nightly pipeline writes
#: the version X.Y.Z-devYYYYMMDD (tensorflow/tools/ci_build/update_version.py, ``--nightly``)
#: into the wheels uploaded as tf-nightly (https://pypi.org/project/tf-nightly/).
NIGHTLY_DISTRIBUTION = "tf-nightly"

#: Where TensorFlow reads its oneDNN switches: TF_ENABLE_ONEDNN_OPTS in the default builds
#: (the matrix's lines with onednn_opts; on by default on Linux x86 from 2.9), TF_DISABLE_MKL in
#: the MKL builds (intel-tensorflow, Anaconda's mkl variants) "for legacy reasons" (IsMklEnabled).
ONEDNN_SWITCHES = (
    "https://github.com/tensorflow/tensorflow/blob/v2.9.0/tensorflow/core/util/util.cc"
)

#: Where HDF5 locks a file and words its failure ("unable to lock file" with the errno and
#: strerror), and where it reads HDF5_USE_FILE_LOCKING each time a file is opened.
_HDF5_SEC2 = "https://github.com/HDFGroup/hdf5/blob/hdf5-1_14_3/src/H5FDsec2.c"
_HDF5_LOCK_ENV = "https://github.com/HDFGroup/hdf5/blob/hdf5-1_14_3/src/H5Fint.c"

#: Causes only a log reveals: they happen while a program runs, not in how it is installed.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            GPU_OUT_OF_MEMORY,
            "The GPU ran out of memory",
            "The model, batch or another process needs more GPU memory than is free "
            "('OOM when allocating tensor', 'CUDA_ERROR_OUT_OF_MEMORY').",
            "https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth",
        ),
        define(
            TF_ENV_FLAG_INVALID,
            "An environment variable of TensorFlow's or XLA's flags holds what they refuse",
            "TF_XLA_FLAGS and XLA_FLAGS are read at start-up as command-line flags (a value "
            "that does not start with '--' as the name of a file of them): a flag the "
            "installed release does not know stops the process ('Unknown flags in "
            "XLA_FLAGS'), and a value the flag's type cannot take is refused ('Couldn't "
            "interpret value ... for flag ...'), as a path glued to a boolean flag is.",
            "https://github.com/tensorflow/tensorflow/blob/v2.12.0/tensorflow/compiler/xla/"
            "parse_flags_from_env.cc",
            "https://github.com/tensorflow/tensorflow/blob/v2.12.0/tensorflow/tsl/util/"
            "command_line_flags.cc",
        ),
        define(
            THREADS_EXHAUSTED,
            "The process reached its limit of threads",
            "TensorFlow sizes its thread pools by the CPUs it sees, as OpenBLAS and OpenMP do "
            "theirs, which in a container or a batch job can be far more than the tasks the "
            "process may start (ulimit -u, the cgroup's pids.max), the more so in many worker "
            "processes each loading them; pthread_create then fails with EAGAIN and the "
            "library aborts.",
            "https://man7.org/linux/man-pages/man3/pthread_create.3.html",
            "https://www.tensorflow.org/api_docs/python/tf/config/threading",
            "https://github.com/OpenMathLib/OpenBLAS/blob/v0.3.21/driver/others/blas_server.c",
            "https://gcc.gnu.org/onlinedocs/libgomp/OMP_005fNUM_005fTHREADS.html",
        ),
        define(
            HOST_OUT_OF_MEMORY,
            "The process ran out of host memory",
            "A tensor placed on the CPU did not fit in the memory the process may use (RAM, "
            "a container's or job's limit); GPU memory settings do not change that ('OOM when "
            "allocating tensor ... on .../device:CPU:0 by allocator cpu').",
            "https://www.tensorflow.org/guide/data_performance",
        ),
        define(
            DISK_SPACE_EXHAUSTED,
            "The disk being written to is full",
            "Installing TensorFlow writes gigabytes (its wheel and, for the GPU, NVIDIA's CUDA "
            "and cuDNN wheels, unpacked once in pip's temporary directory and again in "
            "site-packages, plus pip's cache); a Docker layer, a checkpoint or a dataset can "
            "fill a disk too. The system's own error, ENOSPC (errno 28, 'No space left on "
            "device'), says the filesystem is full, not that a package is wrong.",
            "https://pip.pypa.io/en/stable/topics/caching/",
            "https://man7.org/linux/man-pages/man3/errno.3.html",
        ),
        define(
            OPEN_FILES_LIMIT_REACHED,
            "The process reached its limit of open files",
            "Each process may hold as many file descriptors as its RLIMIT_NOFILE allows (`ulimit "
            "-n`, often 1024; a container or systemd unit sets its own). Files, sockets and "
            "pipes all count: TensorFlow Serving polling many model versions, tf.data reading "
            "many shards in parallel or a data loader's workers reach it, and open() then fails "
            "with EMFILE ('[Errno 24] Too many open files'). The disk is not full: the limit is "
            "the process's.",
            "https://man7.org/linux/man-pages/man2/getrlimit.2.html",
            "https://man7.org/linux/man-pages/man3/errno.3.html",
        ),
        define(
            SPAWN_MAIN_UNGUARDED,
            "A spawned child re-ran the main module, which has no __main__ guard",
            "multiprocessing's spawn start method (the default on Windows, and on macOS since "
            "Python 3.8) starts each child as a new interpreter that imports the parent's main "
            "module again (spawn_main, _fixup_main_from_path). Code at the module's top level "
            "that starts processes, a pool, a server or TensorFlow's work then runs again in "
            "every child, which refuses to start processes while it bootstraps ('An attempt "
            "has been made to start a new process before the current process has finished its "
            "bootstrapping phase'). The top-level work belongs under "
            "`if __name__ == '__main__':`.",
            "https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods",
            "https://github.com/python/cpython/blob/3.8/Lib/multiprocessing/spawn.py",
        ),
        define(
            TF_INITIALISED_BEFORE_FORK,
            "CUDA or TensorFlow was initialised in a process that then forked",
            "CUDA does not survive fork(): a child forked after its parent initialised the CUDA "
            "driver (TensorFlow does so when it first lists or uses the GPU, or loads a model) "
            "cannot use it, and TensorFlow's runtime threads do not exist in the child either. "
            "The forked workers of multiprocessing's fork start method (Linux's default before "
            "Python 3.14, which made forkserver the default), of Keras' "
            "use_multiprocessing, of gunicorn (with --preload or a model loaded at import), "
            "uWSGI and Celery's prefork pool then fail with CUDA_ERROR_NOT_INITIALIZED "
            "('initialization error', 'Failed setting context') or hang when they first run "
            "the model. TensorFlow belongs in the child: a spawn or forkserver start, or the "
            "import after the fork.",
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#initialization",
            "https://docs.python.org/3/library/multiprocessing.html#contexts-and-start-methods",
        ),
        define(
            GPU_LIBRARY_INIT_FAILED,
            "cuDNN, cuBLAS or cuFFT fails to initialise",
            "cuDNN and cuBLAS create their handles when first used; most often the GPU's memory "
            "is already taken then (TensorFlow maps nearly all of it at start unless memory "
            "growth is on, or another process holds it), less often the library is of another "
            "version than the build ('CUDNN_STATUS_INTERNAL_ERROR', 'CUBLAS_STATUS_NOT_"
            "INITIALIZED').",
            "https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth",
        ),
        define(
            GPU_CONFIG_TOO_LATE,
            "GPU options set after the GPU was initialised",
            "Memory growth, memory limits, visible and virtual devices can only be set before "
            "TensorFlow initialises the GPU (the first op, model or device listing of logical "
            "devices does that).",
            "https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_memory_growth",
        ),
        define(
            GPU_MEMORY_GROWTH_MIXED,
            "Memory growth set on some GPUs and not on the others",
            "TensorFlow initialises every visible GPU with one memory-growth setting and "
            "refuses a mix ('Memory growth cannot differ between GPU devices'): code that sets "
            "it on the first GPU only fails on a machine with several.",
            "https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_memory_growth",
        ),
        define(
            DISTRIBUTE_CONFIG_TOO_LATE,
            "A multi-worker strategy created after the runtime started",
            "MultiWorkerMirroredStrategy configures collective ops, which is only possible "
            "before TensorFlow's runtime starts: the strategy must be created first.",
            "https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras",
        ),
        define(
            STRATEGY_SCOPE_MISSING,
            "Variables created outside the distribution strategy's scope",
            "A tf.distribute strategy places and mirrors only the variables created inside "
            "its scope(); Keras refuses to compile or train a model whose weights, optimizer "
            "slots or metrics were made outside it, or under another strategy ('was not "
            "created in the distribution strategy scope', 'Trying to create optimizer slot "
            "variable under the scope for tf.distribute.Strategy'), as a checkpoint restored "
            "outside the scope does.",
            "https://www.tensorflow.org/guide/distributed_training",
        ),
        define(
            OP_KERNEL_MISSING,
            "No kernel for an op on the device it runs on",
            "TensorFlow registers each op's kernels per device, and this build or device plugin "
            "has none for the op where it was placed: a device plugin (tensorflow-metal, "
            "DirectML) lacks many ops on its GPU, and builds without NCCL (Windows, macOS) "
            "have no kernel at all for NcclAllReduce, MirroredStrategy's default all-reduce "
            "('No registered ... OpKernel for 'GPU' devices', 'No OpKernel was registered to "
            "support Op').",
            "https://www.tensorflow.org/guide/gpu#manual_device_placement",
            "https://www.tensorflow.org/api_docs/python/tf/distribute/MirroredStrategy",
        ),
        define(
            GPU_BUSY_OR_UNAVAILABLE,
            "The GPU refuses another process",
            "A GPU in the Exclusive_Process compute mode (as clusters and their schedulers set "
            "it) takes one process at a time: while another holds it, often a second process "
            "of the same job or a notebook kernel still running, CUDA refuses TensorFlow a "
            "context ('all CUDA-capable devices are busy or unavailable', "
            "CUDA_ERROR_DEVICE_UNAVAILABLE, error 46); a Prohibited GPU refuses every process.",
            "https://docs.nvidia.com/deploy/nvidia-smi/index.html",
        ),
        define(
            GPU_WATCHDOG_TIMEOUT,
            "The display's watchdog ended a GPU kernel that ran too long",
            "A GPU that also drives a display runs kernels under a watchdog (the device "
            "property kernelExecTimeoutEnabled): Windows' Timeout Detection and Recovery "
            "(2 seconds by default) or the X server's on Linux ends a kernel that runs longer, "
            "and CUDA reports CUDA_ERROR_LAUNCH_TIMEOUT (702, 'the launch timed out and was "
            "terminated'); TensorFlow then stops at the next event it polls.",
            "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html",
            "https://learn.microsoft.com/windows-hardware/drivers/display/tdr-registry-keys",
        ),
        define(
            SERVER_CONCURRENCY_MODEL_MISMATCH,
            "A server runs TensorFlow code under a concurrency model it does not support",
            "TensorFlow 1's default graph and Keras' session are per thread: a model loaded "
            "in one thread (the server's start) and called in another (each request of a "
            "threaded Flask, the default since Flask 1.0, or of Django) finds its tensors in "
            "another graph ('Tensor ... is not an element of this graph'). gevent's "
            "monkey-patching replaces threading.local with an object TensorFlow cannot hold "
            "a weak reference to ('cannot create weak reference to 'gevent._local.local' "
            "object'), as under gunicorn's gevent workers. The server's configuration, or "
            "code that keeps the graph, is the fix, not another TensorFlow.",
            "https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/python/framework/ops.py",
            "https://flask.palletsprojects.com/en/1.1.x/changelog/#version-1-0",
            "https://docs.gunicorn.org/en/stable/design.html#async-workers",
            "https://www.gevent.org/api/gevent.monkey.html",
        ),
        define(
            TENSOR_FROM_OTHER_GRAPH,
            "A TensorFlow 1 model is used in another graph than the one it was built in",
            "TensorFlow 1 runs each op in the default graph, and a tensor of another graph is "
            "refused ('Tensor ... is not an element of this graph'): keras.backend."
            "clear_session() or tf.reset_default_graph() between building or loading a model "
            "and using it leaves the model in the old graph, and a model loaded under a graph "
            "of its own (with tf.Graph().as_default(), a function that loads it) and called "
            "from code outside that graph (a callback, another function) looks for its "
            "tensors in the wrong one. The program's code is the fix, not another TensorFlow.",
            "https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/python/framework/ops.py",
            "https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/python/keras/backend.py",
            "https://www.tensorflow.org/guide/migrate",
        ),
        define(
            FILESYSTEM_ENV_MISCONFIGURED,
            "A remote file system's environment variables are unset or wrong",
            "TensorFlow's file systems for s3://, hdfs:// and gs:// paths (in TensorFlow up to "
            "2.5, in tensorflow-io after) take their settings from the process's environment: "
            "S3 its region, endpoint and keys (AWS_REGION, S3_ENDPOINT with its scheme, "
            "S3_USE_HTTPS, S3_VERIFY_SSL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY; not "
            "~/.aws/config unless AWS_SDK_LOAD_CONFIG is set), HDFS the JVM and Hadoop "
            "(JAVA_HOME, the JVM's libjvm.so on LD_LIBRARY_PATH, HADOOP_HDFS_HOME, CLASSPATH), "
            "GCS its credentials (GOOGLE_APPLICATION_CREDENTIALS). Unset or wrong, requests go "
            "to the wrong region or endpoint, unsigned, or libhdfs cannot start a JVM. A TPU's "
            "workers read paths themselves, through Cloud Storage only: a local path (TF Hub's "
            "default cache, unless TFHUB_CACHE_DIR says otherwise) is one they cannot open.",
            "https://github.com/tensorflow/io/blob/v0.37.1/tensorflow_io/core/filesystems/s3/s3_filesystem.cc",
            "https://github.com/tensorflow/tensorflow/blob/v2.5.0/tensorflow/core/platform/s3/s3_file_system.cc",
            "https://github.com/tensorflow/docs/blob/master/site/en/r1/deploy/hadoop.md",
            "https://cloud.google.com/docs/authentication/application-default-credentials",
        ),
        define(
            IMPORT_ORDER_CONFLICT,
            "A package imported before TensorFlow breaks TensorFlow's import",
            "Each package imports alone, but one loaded first into the process (a simulator's "
            "client, another framework with native libraries) leaves state TensorFlow's own "
            "import then trips on: TensorFlow 1.x writes the Python wrappers of ops loaded at "
            "run time with a C++ stream, and where that stream fails in the process its float "
            "defaults come out empty ('eye_separation=, mu=,'), so the wrapper does not "
            "compile; and a native library loaded first that exports a symbol TensorFlow's "
            "library also uses (C++ runtime code such as std::call_once's) has TensorFlow's "
            "bound to its copy, which crashes in TensorFlow's static initialisers as its "
            "library loads. Importing TensorFlow first avoids it.",
            "https://github.com/tensorflow/tensorflow/blob/v1.14.0/tensorflow/python/framework/python_op_gen.cc",
            "https://github.com/tensorflow/tensorflow/issues/13615",
            "https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/python/framework/python_op_gen.cc",
        ),
        define(
            TF_PRERELEASE_REGRESSION,
            "A pre-release of TensorFlow, not its final release, ran the code",
            "pip installs a release candidate (rcN) or an alpha or beta only when asked: "
            "`--pre`, or a version pinned to one. Pre-releases are published for testing; "
            "their defects are fixed before or in the final release, which the same pip "
            "command without `--pre` installs.",
            "https://pip.pypa.io/en/stable/cli/pip_install/#cmdoption-pre",
            "https://github.com/tensorflow/tensorflow/releases",
        ),
        define(
            TF_BUILD_REGRESSION,
            "A nightly build of TensorFlow ran the code",
            "tf-nightly publishes TensorFlow's development branch as it is each day, before "
            "release testing: a change that breaks code, or a dependency's, can ship in one "
            "build and be fixed in a later one. An earlier nightly, or the stable release, "
            "does not carry it. The nightlies tf-nightly installs in place of its companions' "
            "releases (keras-nightly for keras) are built the same way.",
            "https://pypi.org/project/tf-nightly/",
            "https://pypi.org/project/keras-nightly/",
        ),
        define(
            TF_RELEASE_PLATFORM_BUG,
            "A TensorFlow or TFLite build does not run on the platform it was built for",
            "A native library of the build asks for code that nothing on the platform defines: "
            "TensorFlow Lite's interpreter wrapper links TFLite's kernels into itself, so a "
            "symbol of TFLite's own namespace it cannot find is code the build left out; and "
            "an Android library built for a later API level than the device's asks for a C "
            "library function (bionic's __register_atfork from API level 23) older Android "
            "does not have. Reinstalling the same file changes nothing: another build of the "
            "release, the release before, or a later one built for the platform does.",
            "https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/lite/python/interpreter_wrapper/BUILD",
            "https://android.googlesource.com/platform/bionic/+/refs/heads/main/libc/libc.map.txt",
            "https://developer.android.com/ndk/guides/sdk-versions#minsdkversion",
        ),
        define(
            TF_RELEASE_KERNEL_BUG,
            "An op kernel of the installed TensorFlow build fails inside TensorFlow",
            "TensorFlow's oneDNN (formerly MKL-DNN) kernels replace its default ones on Intel "
            "CPUs in the MKL builds (intel-tensorflow, Anaconda's mkl variants) and, from 2.5, "
            "wherever TF_ENABLE_ONEDNN_OPTS turns them on (the default on Linux x86 from 2.9). "
            "A oneDNN kernel that cannot build its primitive for the tensors it is given ('could "
            "not create a concat primitive descriptor') or trips one of its own checks "
            "(mkl_util.h's 'Check failed: dims == sizes.size()') is a defect of that release's "
            "kernel, not of the model or the data: the same graph runs on the default kernels, "
            "and later releases fixed many of them.",
            ONEDNN_SWITCHES,
            "https://github.com/tensorflow/tensorflow/releases/tag/v2.5.0",
            "https://github.com/tensorflow/tensorflow/releases/tag/v2.9.0",
        ),
        define(
            SERVING_MODEL_VERSION_MISSING,
            "TensorFlow Serving finds no model version under the model's base path",
            "TensorFlow Serving serves a model from its base path (--model_base_path, "
            "/models/MODEL_NAME in its Docker image), where each version is a subdirectory "
            "named by a number holding one SavedModel (saved_model.pb and variables/). A "
            "SavedModel written straight into the base path, a version directory named "
            "otherwise, or a base path that is empty (a Docker volume mounted from another "
            "directory, or from a Windows path Docker does not share) gives it no version, so "
            "it loads nothing and keeps polling.",
            "https://github.com/tensorflow/serving/blob/2.14.0/tensorflow_serving/sources/storage_path/file_system_storage_path_source.cc",
            "https://www.tensorflow.org/tfx/serving/docker",
        ),
        define(
            HDF5_FILE_LOCK_FAILED,
            "HDF5 could not lock the file it opens (a Keras .h5 model or weights)",
            "HDF5 1.10 and later lock each file they open or create (flock or fcntl, in its "
            "sec2 driver) and refuse the file where the lock fails: on a file system without "
            "locks (NFS without its lock daemon, Lustre, GPFS, some FUSE and container mounts: "
            "errno 37 ENOLCK, 38 ENOSYS, 95 or 524 not supported) every open fails, and where "
            "another process holds the file open for writing (errno 11, 35 on macOS: a second "
            "job, a notebook kernel that still has it) the open fails until it closes it. h5py, "
            "and through it Keras' HDF5 saving and loading, pass the error on. The "
            "environment variable HDF5_USE_FILE_LOCKING=FALSE turns the locking off.",
            _HDF5_SEC2,
            _HDF5_LOCK_ENV,
        ),
    )
)


def serving_version_fix(servable: Optional[str], base_path: Optional[str]) -> Fix:
    """TensorFlow Serving's base path (``base_path``, of the model ``servable``) without a
    numbered version directory: the SavedModel moved into ``BASE/1/``, or the mount fixed."""
    base = (base_path or "/models/MODEL_NAME").rstrip("/")
    name = servable or "the model"
    local = base.startswith("/")
    return Fix(
        f"TensorFlow Serving looks for {name}'s versions in subdirectories of {base} named by "
        f"a number ({base}/1/saved_model.pb with {base}/1/variables/): put the SavedModel "
        "there (export it to a directory named 1, or move its files into one), or, with "
        "Docker, mount the directory that holds the numbered directories at the base path "
        "(docker run -v /path/to/MODEL:/models/MODEL -e MODEL_NAME=MODEL tensorflow/serving) "
        "and check that the container sees them.",
        (f"ls -lR {base}",) if local else (),
    )


def import_order_fix(imported_before: Sequence[str] = (), crashed: bool = False) -> Fix:
    """TensorFlow imported first (``imported_before``: what the log shows imported ahead).
    ``crashed``: the log shows the process crash, not where: the fault handler's frames with
    TensorFlow alone and after those packages tell the clash from a broken install (a release
    of one of them that crashes beside TensorFlow is the other candidate,
    :func:`tfdoctor.causes.software.import_crash_fix`)."""
    ahead = (
        f" (the log shows {', '.join(imported_before)} imported ahead of it)"
        if imported_before
        else ""
    )
    text = (
        "Import TensorFlow first, before the other packages the program imports"
        f"{ahead}: make `import tensorflow` the first import of the script that fails, and "
        "check that TensorFlow alone imports."
    )
    if not crashed or not imported_before:
        return Fix(text, ('python -c "import tensorflow"',))
    names = ", ".join(imported_before)
    return Fix(
        f"{text} The log shows the process crash, not where: run TensorFlow's import alone, "
        f"then after {names}, with the fault handler (the commands below). Where TensorFlow "
        "alone loads and the pair crashes, native libraries of both clash in one process: "
        "import TensorFlow first, or keep them in separate processes.",
        import_after_commands(imported_before),
    )


def gpu_memory_fix(
    m: Machine,
    rocm: bool = False,
    reading: Optional[tuple[str, str]] = None,
    failed: str = "TensorFlow",
    async_suggested: bool = False,
    allocator: bool = True,
    capped: bool = False,
) -> Fix:
    """Less memory per step, memory growth, and a look at what else holds the GPU (with
    ``rocm``, AMD's tool: the log is a ROCm build's), led by what the log shows filled it
    (``reading``: ``taken``, ``never-fits``, ``shared`` or ``beside``, and the words that
    show it;
    ``failed``: the framework whose allocation failed, where another shares the GPU (``""``:
    a CUDA call of a program the log does not name);
    ``async_suggested``: the log shows TensorFlow's own advice of CUDA's stream-ordered
    allocator, which then joins the remedies; ``allocator``: PyTorch's failure is its caching
    allocator's refusal, whose message speaks of fragmentation, not its CUDA check's;
    ``capped``: CuPy's pool refused beyond the limit set for it)."""
    smi = "rocm-smi" if rocm else "nvidia-smi"
    growth = set_env(m, ("TF_FORCE_GPU_ALLOW_GROWTH", "true"))
    if failed != "TensorFlow" and (reading is None or reading[0] == "beside"):
        return _framework_memory_fix(m, failed, allocator, capped)
    if reading is not None and reading[0] in ("shared", "beside"):
        return _shared_gpu_fix(m, reading[1], failed)
    if reading is not None and reading[0] == "taken":
        # TensorFlow maps the memory free when it starts (the allocator's limit comes from
        # cuMemGetInfo): a device far smaller than its GPU is memory held before it began.
        return Fix(
            f"Another process held most of the GPU's memory before TensorFlow started "
            f"({reading[1]}): end it (another notebook's kernel, an earlier run still alive) "
            "or run on a free GPU (CUDA_VISIBLE_DEVICES); where two processes must share the "
            "GPU, let each take only what it uses (memory growth in both).",
            (
                smi,
                *(
                    ()
                    if rocm
                    else (
                        "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv",
                    )
                ),
                *growth,
            ),
        )
    if reading is not None and reading[0] == "never-fits":
        # A request at least the allocator's limit fails whatever else is freed: memory growth
        # and a smaller batch of other tensors change nothing for it.
        return Fix(
            f"One tensor is too large for the GPU ({reading[1]}): shrink what makes it large "
            "(the batch where it is the tensor's first dimension, the input's resolution or "
            "length, a layer's width or vocabulary), or build that part on the CPU; freeing "
            "other memory cannot make it fit.",
            (smi,),
        )
    # The BFC allocator prints its advice with the failure it reports (tsl/framework/
    # bfc_allocator.cc, AllocateRawInternal, where dump_log_on_failure is set: the last try
    # of an allocation that fails the op, not an optional one); it holds where the free memory
    # is in pieces none of which fits the request, which a smaller batch also answers. CUDA's
    # allocator (cudaMallocAsync, CUDA 11.2 and later) replaces the BFC one and its memory
    # growth: the text offers it as the other way, the commands keep the usual remedies.
    also = (
        " Or, as TensorFlow's own message suggests where the free memory is in pieces too "
        "small for the request, set TF_GPU_ALLOCATOR=cuda_malloc_async before TensorFlow "
        "starts: CUDA's stream-ordered allocator (CUDA 11.2 and later) then takes the BFC "
        "allocator's place, memory growth included."
        if async_suggested and not rocm
        else ""
    )
    return Fix(
        "Reduce the batch size (or the model or input size); let TensorFlow grow into the "
        "memory instead of mapping it all at start, and check no other process holds the GPU."
        + also,
        (*growth, smi),
    )


def _shared_gpu_fix(m: Machine, others: str, failed: str) -> Fix:
    """TensorFlow and another framework (``others``: ``PyTorch``, ``JAX``) on one GPU in one
    program, ``failed`` the one whose allocation failed. Each maps memory its own way:
    TensorFlow nearly all that is free when it creates its device (unless memory growth is
    on), JAX 75 % of the GPU as it makes its first array (XLA_PYTHON_CLIENT_PREALLOCATE,
    XLA_PYTHON_CLIENT_MEM_FRACTION), PyTorch's caching allocator keeps what it freed
    (torch.cuda.empty_cache, set_per_process_memory_fraction).
    https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth
    https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html
    https://pytorch.org/docs/stable/notes/cuda.html#memory-management"""
    growth = ("TF_FORCE_GPU_ALLOW_GROWTH", "true")
    if failed != "TensorFlow":
        return Fix(
            f"TensorFlow started on the GPU in the same program as {others}, and maps nearly "
            f"all of the GPU's free memory when it creates its device: {failed} then found "
            "none left. Let TensorFlow take only what it uses: memory growth "
            "(TF_FORCE_GPU_ALLOW_GROWTH=true before TensorFlow starts, or "
            "tf.config.experimental.set_memory_growth(gpu, True) for each GPU before its first "
            "op), or, where TensorFlow only feeds the data (tf.data, TFDS), hide the GPU from "
            "it with tf.config.set_visible_devices([], 'GPU') before its first op."
            + (
                " JAX's own share (XLA_PYTHON_CLIENT_MEM_FRACTION, 0.75 by default) must fit "
                "in what TensorFlow leaves."
                if failed == "JAX"
                else ""
            ),
            set_env(m, growth),
        )
    settings = [growth]
    words = []
    if "JAX" in others:
        settings.insert(0, ("XLA_PYTHON_CLIENT_PREALLOCATE", "false"))
        words.append(_JAX_PREALLOCATES)
    if "PyTorch" in others:
        words.append(
            "PyTorch's caching allocator keeps the memory it freed: call "
            "torch.cuda.empty_cache() once its part is done, or cap it with "
            "torch.cuda.set_per_process_memory_fraction()"
        )
    return Fix(
        f"TensorFlow ran out of the GPU's memory beside {others} in the same program, which "
        f"holds memory of its own. {'; '.join(words)}. Then let TensorFlow grow into what it "
        "uses (memory growth) rather than map what is left at start.",
        set_env(m, *settings),
    )


#: JAX's own way of taking the GPU's memory, and the settings that change it
#: (https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html).
_JAX_PREALLOCATES: Final = (
    "JAX preallocates 75 % of the GPU's memory as it makes its first array: set "
    "XLA_PYTHON_CLIENT_PREALLOCATE=false (or a smaller XLA_PYTHON_CLIENT_MEM_FRACTION) "
    "before JAX is imported"
)


def _framework_memory_fix(
    m: Machine, failed: str, allocator: bool = True, capped: bool = False
) -> Fix:
    """Another framework's allocation on the GPU failed (``failed``: ``JAX``, ``PyTorch`` or
    ``CuPy``) where the log shows no device of TensorFlow's: that framework's own way of
    taking memory comes first, then what else holds the GPU (another process, or TensorFlow in
    the same program, which maps nearly all the free memory as it starts on the GPU).
    ``allocator``: PyTorch's failure is its caching allocator's refusal (its fragmentation
    advice applies), not the CUDA runtime's own error through its CUDA check; ``capped``:
    CuPy's memory pool refused beyond the limit set for it (its message adds "limit set to").
    CuPy's pool frees every block it keeps and tries again (twice, the second time after a
    garbage collection) before it raises (cupy/cuda/memory.pyx, SingleDeviceMemoryPool.
    _try_malloc): what it kept was not what was missing.
    https://docs.cupy.dev/en/stable/user_guide/memory.html
    https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html
    https://pytorch.org/docs/stable/notes/cuda.html#memory-management
    https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth"""
    others = (
        "What else holds the GPU leaves it short: another process (`nvidia-smi` lists them), "
        "or TensorFlow in the same program, which maps nearly all of the GPU's free memory "
        "when it starts on it; where TensorFlow only loads the data there (tf.data, TFDS), "
        "hide the GPU from it with tf.config.set_visible_devices([], 'GPU') before its first "
        "op, or let it grow (TF_FORCE_GPU_ALLOW_GROWTH=true). If it still does not fit, "
        "reduce the batch size (or the model or input size)."
    )
    if not failed:
        # "CUDA error: out of memory" with no program shown: PyTorch's CUDA check and llama.cpp's
        # ggml word it alike; neither's allocator advice applies.
        return Fix(
            "A CUDA call found no room on the GPU (for a CUDA context, a library's workspace or "
            f"a kernel), as where the GPU is already nearly full. {others}",
            ("nvidia-smi",),
        )
    if failed == "JAX":
        return Fix(
            f"JAX could not allocate on the GPU. {_JAX_PREALLOCATES}, so that it takes what "
            f"it uses. {others}",
            (*set_env(m, *JAX_MEMORY_SETTINGS), "nvidia-smi"),
        )
    if failed == "CuPy" and capped:
        return Fix(
            "CuPy's memory pool refused the allocation beyond the limit set for it "
            "(cupy.get_default_memory_pool().set_limit(), or CUPY_GPU_MEMORY_LIMIT before CuPy "
            "starts): raise that limit, or remove it, where the GPU has the room (`nvidia-smi` "
            "shows what is free); otherwise reduce the batch size (or the array sizes).",
            ("nvidia-smi",),
        )
    if failed == "CuPy":
        return Fix(
            "CuPy could not allocate on the GPU, though its memory pool frees the blocks it "
            f"keeps and tries again before it gives up. {others}",
            ("nvidia-smi",),
        )
    if not allocator:
        # The CUDA runtime's own out-of-memory through C10_CUDA_CHECK: a CUDA context, a
        # library's workspace or a kernel found no room, outside what the caching allocator
        # holds, so its fragmentation option does not apply.
        return Fix(
            f"{failed} could not get GPU memory from CUDA itself (for its CUDA context, a "
            "library's workspace or a kernel), outside its caching allocator, as where the GPU "
            f"is already nearly full. {others}",
            ("nvidia-smi",),
        )
    # PyTorch's own out-of-memory message advises an allocator option where much of what it
    # reserved is unallocated (fragmentation): expandable_segments:True in the releases whose
    # message names it, max_split_size_mb in older ones; emptying its cache frees memory for
    # others, not for PyTorch (https://pytorch.org/docs/stable/notes/cuda.html).
    return Fix(
        f"{failed} could not allocate on the GPU. Where its message says much memory is "
        "reserved by PyTorch but unallocated, set PYTORCH_CUDA_ALLOC_CONF to the option that "
        "message names (expandable_segments:True, or max_split_size_mb in older releases) "
        f"before it starts, against fragmentation. {others}",
        ("nvidia-smi",),
    )


def build_memory_fix(m: Machine) -> Fix:
    """A build service's memory (or time) limit hit while it installs or imports TensorFlow."""
    return Fix(
        "The build service killed the build at its limit (its memory, or its time where it "
        "says both): install without pip's cache (unpacking TensorFlow's wheel takes memory), "
        "ask the service for more, or keep TensorFlow out of a documentation build (mock the "
        "import, as Sphinx's autodoc_mock_imports does).",
        m.pip("install --no-cache-dir tensorflow"),
    )


def compiler_memory_fix(m: Machine) -> Fix:
    """A compiler the kernel killed for memory while building TensorFlow or an extension:
    fewer compile jobs at once, or more memory for the machine (or Docker's VM)."""
    return Fix(
        "The kernel killed the compiler for lack of memory: each parallel C++ compile of "
        "TensorFlow takes gigabytes. Run fewer at once (Bazel: --jobs=2 and "
        "--local_ram_resources=HOST_RAM*.5; make and pip builds: MAX_JOBS=2 or -j2), or give "
        "the build more memory (Docker Desktop's VM: Settings > Resources > Memory; a "
        "container's or job's memory limit) or swap.",
        ("free -h", "sudo dmesg -T | grep -iE 'out of memory|killed process'"),
    )


def disk_space_fix(m: Machine, os: Optional[str], docker: bool = False) -> Fix:
    """Room on the filesystem being written: what fills it, pip's cache, a larger disk; the
    commands of the system the log shows, Docker's only where Docker shows."""
    looks = (
        ("Get-PSDrive -PSProvider FileSystem  # PowerShell",)
        if os == "windows"
        else ("df -h", "df -i  # inodes run out with the same error")
    )
    return Fix(
        "Free space on the filesystem the write went to, or write elsewhere: see which one is "
        "full, empty pip's cache (or install with --no-cache-dir), point pip's temporary "
        "directory (TMPDIR, on Windows TEMP) at a disk with room"
        + ("; remove Docker's unused images and build cache" if docker else "")
        + "; on a CI runner remove preinstalled tools it does not need, or use a larger runner.",
        (
            *looks,
            *m.pip("cache purge"),
            *(("docker system prune -a  # removes every unused image",) if docker else ()),
        ),
    )


def gpu_busy_fix(m: Machine) -> Fix:
    """Which process holds the GPU and in which compute mode; another GPU, or the default mode."""
    return Fix(
        "See which process holds the GPU and its compute mode: end that process (a notebook "
        "kernel, a second process of the job), run on a free GPU (CUDA_VISIBLE_DEVICES), or "
        "where the machine is yours set the Default compute mode; on a cluster ask the "
        "scheduler for the GPU in each process that uses it.",
        (
            "nvidia-smi --query-gpu=index,compute_mode --format=csv",
            "nvidia-smi --query-compute-apps=gpu_uuid,pid,process_name --format=csv",
            "sudo nvidia-smi -c DEFAULT",
        ),
    )


def gpu_watchdog_fix(m: Machine) -> Fix:
    """A GPU without a display's watchdog, shorter kernels, or a longer watchdog: Windows'
    TdrDelay (WSL's GPU is the Windows host's), or a Linux host without its graphical desktop;
    both where the log does not show which."""
    # TdrDelay is the seconds Windows waits before it resets the display driver (Microsoft's
    # TDR registry keys); a Linux X server's watchdog ends when no X server runs on that GPU.
    # A container's GPU and display are its host's.
    windows = m.os == "windows" or bool(m.wsl)
    linux = m.os == "linux" and not m.wsl
    tdr = (
        'reg add "HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers" /v TdrDelay '
        "/t REG_DWORD /d 60 /f  # in an administrator's Windows PowerShell"
        f"{' on the Windows host' if m.wsl else ''}; then restart"
    )
    no_desktop = (
        "sudo systemctl isolate multi-user.target  # "
        f"{'on the host' if m.container else 'Linux'}: stops the graphical desktop"
    )
    commands: tuple[str, ...]
    if windows:
        longer, commands = (
            f"on {'the Windows host' if m.wsl else 'Windows'} set TdrDelay (seconds) and restart",
            (tdr,),
        )
    elif linux:
        longer, commands = (
            f"run {'the host' if m.container else 'Linux'} without the graphical desktop on "
            "that GPU",
            (no_desktop,),
        )
    else:
        longer, commands = (
            "on Windows set TdrDelay (seconds) and restart; on Linux run without the graphical "
            "desktop on that GPU",
            (tdr, no_desktop),
        )
    return Fix(
        "The GPU drives a display and its watchdog ended a kernel that ran too long. Run on a "
        "GPU that drives no display (CUDA_VISIBLE_DEVICES), make each step shorter (a smaller "
        f"batch or input), or lengthen the watchdog: {longer}.",
        ("nvidia-smi --query-gpu=index,name,display_active,display_mode --format=csv", *commands),
    )


#: The variable a flag of TensorFlow's or XLA's is read from, by the flag's prefix.
_FLAG_VARIABLES = (("tf_xla_", "TF_XLA_FLAGS"), ("xla_", "XLA_FLAGS"))


def malloc_async_fix(m: Machine) -> Fix:
    """TensorFlow's default GPU allocator in place of CUDA's stream-ordered one, which the
    machine does not offer (the lines of ``m``'s shells: cmd's and PowerShell's on Windows)."""
    # gpu_cudamallocasync_allocator.cc asks the driver for CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_
    # SUPPORTED and aborts without it; its own words name the needs: compute capability 6.0,
    # CUDA 11.2, a driver and system that support memory pools.
    return Fix(
        "TF_GPU_ALLOCATOR=cuda_malloc_async asks for CUDA's stream-ordered allocator, which "
        "this GPU, driver or system does not offer (it needs compute capability 6.0 or newer, "
        "a build of CUDA 11.2 or newer and a driver with memory pools): unset the variable, "
        "wherever it is set (a script, a notebook's os.environ, a container's environment), "
        "to run with TensorFlow's default allocator.",
        (*show_env(m, "TF_GPU_ALLOCATOR"), *unset_env(m, "TF_GPU_ALLOCATOR")),
    )


def env_flag_fix(m: Machine, variable: str, flag: str) -> Fix:
    """Show, then correct or unset, the variable that set a refused flag: ``variable`` as the
    message names it, else the one the flag's prefix says (tf_xla_* in TF_XLA_FLAGS, xla_*
    in XLA_FLAGS); the lines of ``m``'s shells (cmd's and PowerShell's on Windows)."""
    name = flag.lstrip("-")
    if not variable:
        variable = next((v for prefix, v in _FLAG_VARIABLES if name.startswith(prefix)), "")
    where = variable or "the environment variable that set it (TF_XLA_FLAGS or XLA_FLAGS)"
    what = f"the flag {name}" if name else "a flag"
    commands = (
        (*show_env(m, variable), *unset_env(m, variable))
        if variable
        else (
            (*show_env(m, "TF_XLA_FLAGS"), *show_env(m, "XLA_FLAGS"))
            if m.os == "windows"
            else ('env | grep -E "^(TF_XLA_FLAGS|XLA_FLAGS)="',)
        )
    )
    return Fix(
        f"{where} gives {what} what the installed release refuses: a flag it does not know "
        "(XLA renames and drops flags between releases), or a value the flag cannot take (a "
        "boolean flag takes none, or =true/=false; a path glued to it by a shell line that "
        "appends to the variable is the usual way). Show the variable, then remove or correct "
        "that flag, or unset the variable; set it again on its own line"
        + (f" ({variable}=--{name})" if variable and name else "")
        + ", not appended to a value that is not flags.",
        commands,
    )


#: The pool that could not start a thread (explain's signatures name it) -> what caps it, in
#: words, and the variables that do, read as the library starts: OpenBLAS's blas_thread_init
#: suggests a smaller OPENBLAS_NUM_THREADS itself (driver/others/blas_server.c); libgomp's team
#: size is OMP_NUM_THREADS (GCC's libgomp manual); Python's threading has no pool to cap.
_THREAD_POOLS: Final[dict[str, tuple[str, tuple[tuple[str, str], ...]]]] = {
    "tensorflow": (
        "cap TensorFlow's pools (TF_NUM_INTRAOP_THREADS and TF_NUM_INTEROP_THREADS, or "
        "tf.config.threading before any op runs) at the CPUs the job was given",
        (("TF_NUM_INTRAOP_THREADS", "4"), ("TF_NUM_INTEROP_THREADS", "2")),
    ),
    "openblas": (
        "cap OpenBLAS's pool, one thread per CPU it sees in every process that loads it "
        "(NumPy's and SciPy's copies among them), with OPENBLAS_NUM_THREADS set before the "
        "process starts (1 where many worker processes each load it)",
        (("OPENBLAS_NUM_THREADS", "1"),),
    ),
    "openmp": (
        "cap the OpenMP team, one thread per CPU it sees in every process, with "
        "OMP_NUM_THREADS set before the process starts (1 where many worker processes each "
        "start one)",
        (("OMP_NUM_THREADS", "1"),),
    ),
    "python": (
        "start fewer Python threads (the workers a data loader, a thread pool or a server starts)",
        (),
    ),
}


def thread_limit_fix(m: Machine, pools: Sequence[str] = ("tensorflow",)) -> Fix:
    """Fewer threads from each of the ``pools`` that failed (:data:`_THREAD_POOLS`), or higher
    limits: EAGAIN is a limit of tasks (RLIMIT_NPROC, the cgroup's pids.max) or the memory for
    the thread's stack refused (RLIMIT_AS among them), which ``ulimit -a`` shows together."""
    known = [p for p in dict.fromkeys(pools) if p in _THREAD_POOLS] or ["tensorflow"]
    words = "; ".join(_THREAD_POOLS[p][0] for p in known)
    variables = tuple(v for p in known for v in _THREAD_POOLS[p][1])
    # A pool without a variable of its own sets none: set_env with no settings would be a bare
    # `export` (which lists every variable) or an empty command.
    settings = set_env(m, *variables) if variables else ()
    if m.os == "windows":
        # ulimit and the cgroup's pids.max are Linux's; Windows has no such per-user limit.
        return Fix(f"Start fewer threads: {words}.", settings)
    return Fix(
        f"Start fewer threads: {words}; or raise the limit the process met: `ulimit -a` shows "
        "the tasks (max user processes) and the memory (virtual memory) it may use, and a "
        "container's --pids-limit caps its tasks.",
        ("ulimit -a; cat /sys/fs/cgroup/pids.max 2>/dev/null", *settings),
    )


def open_files_fix() -> Fix:
    """A higher limit of open files for the process, where it runs (shell, container, unit)."""
    return Fix(
        "Raise the process's limit of open files (RLIMIT_NOFILE) where it is started: "
        "`ulimit -n` in the shell that starts it (up to the hard limit, `ulimit -Hn`), "
        "Docker's `--ulimit nofile=65536:65536` for a container (check the limit both on the "
        "host and inside the container), LimitNOFILE= in a systemd unit; then start the "
        "process again. Fewer files open at once (fewer parallel readers or model versions "
        "served) lowers the need.",
        (
            "ulimit -n; ulimit -Hn",
            "ulimit -n 65536",
            "docker run --ulimit nofile=65536:65536 ...",
        ),
    )


def hdf5_lock_fix(m: Machine, held: bool) -> Fix:
    """HDF5's file locking off for the process (a file system without locks), or, where
    another process holds the file (``held``: errno 11 or 35), that process closed first."""
    off = set_env(m, ("HDF5_USE_FILE_LOCKING", "FALSE"))
    if held:
        return Fix(
            "Another process has the file open (a second run or job writing it, a notebook "
            "kernel that opened it): close it there, or let each process write a file of its "
            "own, then run again. Where no other process has it, the file system takes no "
            "locks: set HDF5_USE_FILE_LOCKING=FALSE before the program starts (HDF5 reads it "
            "each time it opens a file).",
            off,
        )
    return Fix(
        "The file system the file is on takes no locks: set HDF5_USE_FILE_LOCKING=FALSE in "
        "the environment the program starts in (HDF5 reads it each time it opens a file), or "
        "keep the model or weights on a local disk. With locking off, let one process write a file "
        "at a time.",
        off,
    )


def spawn_guard_fix(module: str = "") -> Fix:
    """The ``__main__`` guard around the main module's top-level work (``module``: its file,
    where the log names it)."""
    where = f"In {module}, put" if module else "In the script that starts the processes, put"
    return Fix(
        f"{where} everything that starts processes, pools, servers or TensorFlow work under "
        "`if __name__ == '__main__':` (imports and definitions may stay at the top level): "
        "spawn (Windows; macOS from Python 3.8) imports that module again in every child, "
        "and the guard keeps the children from running it. On Linux, "
        "multiprocessing.set_start_method('fork') inside the guard is the other way, where "
        "the parent has not initialised TensorFlow's GPU before the children start.",
        ('python -c "import multiprocessing as mp; print(mp.get_start_method())"',),
    )


def server_concurrency_fix(gevent: bool, tf1: bool = False) -> Fix:
    """Code of TensorFlow run under the server's concurrency model it does not support
    (``gevent``: gevent's patched thread-locals; otherwise TensorFlow 1's per-thread default
    graph under a threaded server). ``tf1``: the log shows TensorFlow 1, whose graph is per
    thread, so gevent's way out is the sync worker class, not threads."""
    if gevent:
        worker = (
            "gunicorn --worker-class sync app:app"
            if tf1
            else "gunicorn --worker-class gthread --threads 4 app:app"
        )
        return Fix(
            "gevent's monkey-patching turned threading.local into gevent's, which TensorFlow "
            "cannot hold a weak reference to: serve TensorFlow from workers that use real "
            "threads (gunicorn's gthread or sync worker class instead of gevent or eventlet), "
            "or keep gevent from patching threads (monkey.patch_all(thread=False)) where its "
            "other patches are needed."
            + (
                " Under TensorFlow 1 take the sync class: its default graph is per thread, so "
                "a threaded worker meets the other failure of this cause."
                if tf1
                else ""
            ),
            (worker,),
        )
    return Fix(
        "TensorFlow 1's default graph (and Keras' session) belongs to the thread that built "
        "it: a model loaded at the server's start and called from a request's thread looks "
        "for its tensors in another graph. Keep the graph and session the model was loaded "
        "in and enter them for each call (`graph = tf.get_default_graph()` after loading, "
        "then `with graph.as_default():` around predict; with standalone Keras also its "
        "session, `keras.backend.set_session(session)`), or serve from one thread (Flask's "
        "`app.run(threaded=False)`); TensorFlow 2's eager Keras has no per-thread graph.",
        (),
    )


def other_graph_fix() -> Fix:
    """A TensorFlow 1 model kept in the graph it is used in (not a server's threads: a
    cleared graph, or a model loaded under a graph of its own and called outside it)."""
    return Fix(
        "Keep the model and its use in one graph. Do not call keras.backend.clear_session() "
        "(or tf.reset_default_graph()) between building or loading the model and using it: "
        "clear first, then build or load. Where the model is loaded under a graph of its own "
        "(in a function, a callback's owner), keep that graph (`graph = "
        "tf.compat.v1.get_default_graph()` right after loading) and wrap every later call "
        "in `with graph.as_default():` (standalone Keras: its session too, "
        "`keras.backend.set_session(session)`). Or move the code to TensorFlow 2's eager "
        "execution, where Keras models have no default graph to mix.",
        # The change is in the program's code: the command finds where graphs are cleared
        # or made.
        (
            "grep -rnE 'clear_session|reset_default_graph|Graph\\(\\)|as_default' "
            "--include='*.py' .",
        ),
    )


def fork_after_init_fix(server: str = "") -> Fix:
    """TensorFlow kept out of the parent of forked workers: spawn, the import in the child,
    a server's workers loading the model themselves (``server``: gunicorn or celery)."""
    if server == "gunicorn":
        return Fix(
            "gunicorn forks its workers from the process that imported the app: load the "
            "model (and import TensorFlow) in each worker, not at import time with --preload "
            "(drop --preload, or load it in a post_fork hook or on the first request), or "
            "serve with one worker process and threads.",
            (
                "gunicorn --workers 1 --threads 4 app:app",
                "grep -rn 'preload' gunicorn.conf.py",
            ),
        )
    if server == "celery":
        return Fix(
            "Celery's prefork pool forks its workers from the process that imported the tasks: "
            "import TensorFlow and load the model inside the task (or a worker_process_init "
            "handler), or run a pool that does not fork (--pool=solo or threads).",
            ("celery -A proj worker --pool=solo", "celery -A proj worker --pool=threads"),
        )
    return Fix(
        "The child processes were forked after TensorFlow initialised CUDA in their parent: "
        "start them with the spawn or forkserver start method "
        "(multiprocessing.set_start_method('spawn') under `if __name__ == '__main__':`), "
        "import TensorFlow only inside the child's function, or keep TensorFlow ops out of "
        "the forked workers (Keras: use_multiprocessing=False, or a tf.data pipeline in "
        "place of the Python generator).",
        # The change is in the program's code: the command finds where it forks.
        (
            "grep -rnE 'use_multiprocessing *= *True|set_start_method|Pool\\(|Process\\(' "
            "--include='*.py' .",
        ),
    )


def host_memory_fix(m: Machine) -> Fix:
    """Less host memory per step, and a look at the limit the process runs under."""
    return Fix(
        "Reduce the batch size (or the model, input or shuffle-buffer size) and stream the "
        "data with tf.data instead of loading it whole; check the memory free to the process "
        "(a container's or job's limit counts, not only the machine's RAM).",
        # A SIGKILL ("Killed", exit status 137) from the kernel's OOM killer is logged by the
        # kernel, not by the process (https://docs.kernel.org/admin-guide/mm/concepts.html).
        ("free -h", "sudo dmesg -T | grep -iE 'out of memory|killed process'"),
    )


def _memory_growth_fix(m: Machine) -> Fix:
    """The memory candidate's fix; its switch is the machine's shell's form (set_env)."""
    # The third reading of memory: free before the program starts and still short with
    # growth on, the program's own step (its batch, input or model) needs more than the GPU
    # holds.
    return Fix(
        "stop the other processes and turn on memory growth (TF_FORCE_GPU_ALLOW_GROWTH=true "
        "or tf.config.experimental.set_memory_growth); where the GPU is free before the "
        "program starts and it still fails with growth on, the program itself needs more than "
        "the GPU holds: reduce the batch or input size",
        set_env(m, ("TF_FORCE_GPU_ALLOW_GROWTH", "true")),
    )


#: What makes cuDNN or cuBLAS fail to create its handle, each with the cause it names, what
#: tells it apart and its fix, most common first: memory (TensorFlow maps nearly all GPU memory
#: at start, issue 24496), a library of another version than the build's, a driver older than
#: the build's CUDA, a GPU newer than the build's CUDA (its libraries have no kernels for it:
#: cuda-release-predates-gpu, whose words for what the log shows of the GPU or the CUDA come
#: from causes.gpu). A fix's text is the clause that follows "if so,".
GPU_LIBRARY_INIT_CANDIDATES: Mapping[str, Candidate] = {
    "memory": Candidate(
        GPU_OUT_OF_MEMORY,
        "the GPU's memory was already taken (by another process, or by TensorFlow itself, "
        "which maps nearly all of it at start)",
        "`nvidia-smi` shows the memory in use and the processes holding it",
        _memory_growth_fix,
        ("nvidia-smi",),
        "the GPU's memory already taken",
    ),
    "version": Candidate(
        CUDNN_VERSION_MISMATCH,
        "the cuDNN or cuBLAS loaded is of another version than the build's",
        "`tfdoctor check` compares the libraries the loader picks with the build's",
        lambda m: Fix(
            "install the cuDNN/cuBLAS release the build names (check's fix says which and how)"
        ),
        ("tfdoctor check",),
        "a cuDNN or cuBLAS of another version than the build's",
    ),
    "driver": Candidate(
        DRIVER_TOO_OLD,
        "the NVIDIA driver is older than the build's CUDA needs",
        "`nvidia-smi` prints the driver version; `tfdoctor check` compares it with the build's",
        lambda m: Fix("upgrade the driver"),
        ("nvidia-smi --query-gpu=driver_version --format=csv",),
        "an NVIDIA driver older than the build's CUDA needs",
    ),
    "gpu-newer": Candidate(
        CUDA_RELEASE_PREDATES_GPU,
        "the GPU is of an architecture newer than the CUDA release this TensorFlow was built with",
        "`nvidia-smi -L` names the GPU; `tfdoctor check` compares its compute capability with "
        "the build's CUDA",
        lambda m: Fix(
            "install a TensorFlow built with a CUDA release that knows the GPU (check's fix "
            "names one)"
        ),
        ("nvidia-smi -L",),
        "a GPU newer than the CUDA release the build was made with",
    ),
}


#: The version candidate where XLA's autotuner found no cuDNN engine at all for a fused
#: convolution (what it is, what tells it apart, its fix): the cuDNN loaded is older than the
#: one the build's XLA emits for, which the floor the build names does not ensure: TensorFlow
#: 2.21's XLA finds none with cuDNN 9.3 (the floor of its and-cuda extra) or 9.5.1, and runs
#: with 9.24 (aws/deep-learning-containers#6418; calad0i/HGQ2#14).
XLA_FUSED_CUDNN_CANDIDATE: Final = (
    "the cuDNN loaded is older than the one this build's XLA emits its fused convolutions "
    "for, which the cuDNN the build names does not ensure (TensorFlow 2.21's XLA finds none "
    "with cuDNN 9.3 or 9.5.1, and runs with 9.24)",
    "the log's `Loaded cuDNN version` line, or `pip show nvidia-cudnn-cu12`, says which one loaded",
    'update cuDNN within its major: pip\'s wheel with `pip install -U "nvidia-cudnn-cu12<10"`, '
    "a cuDNN installed otherwise to the newest release of that major",
)


#: The memory candidate where XLA's convolution autotuner found no cuDNN algorithm it could run
#: (what it is, what tells it apart, its fix): the autotuner runs every algorithm with scratch
#: memory of its own, which memory another framework in the process took at start leaves it
#: without (jax-ml/jax#9454: TensorFlow, loaded first for its data sets, then JAX). JAX's page
#: on GPU memory names running GPU TensorFlow beside it as such a cause, and the settings that
#: keep each framework from taking the memory at start.
#: https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html
#: https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth
XLA_CONV_MEMORY_CANDIDATE: Final = (
    "the GPU's memory was already taken when XLA tried the convolution's cuDNN algorithms: by "
    "another process, or by another framework in the same program (TensorFlow maps nearly all "
    "of the free memory when it starts unless memory growth is on; JAX preallocates 75 % of "
    "the GPU when it makes its first array)",
    "`nvidia-smi` shows the memory in use and the processes holding it; the convolution runs "
    "once no framework takes the memory at start (TF_FORCE_GPU_ALLOW_GROWTH=true for "
    "TensorFlow, XLA_PYTHON_CLIENT_PREALLOCATE=false for JAX)",
    "stop the other processes; where TensorFlow and JAX share the program, set "
    "TF_FORCE_GPU_ALLOW_GROWTH=true (or, where TensorFlow only loads the data, hide the GPU "
    "from it with tf.config.set_visible_devices([], 'GPU') before its first op) and "
    "XLA_PYTHON_CLIENT_PREALLOCATE=false before either is imported",
)


#: The memory candidate where the library that failed ran in JAX's runtime (what it is, what
#: tells it apart, its fix): JAX preallocates 75 % of the GPU in each process as it makes its
#: first array, so a second JAX process on the GPU (a notebook's kernel still alive, a run
#: started beside it) leaves the next too little to create a cuDNN or cuBLAS handle; JAX reads
#: XLA_PYTHON_CLIENT_PREALLOCATE and XLA_PYTHON_CLIENT_MEM_FRACTION, not TensorFlow's setting
#: (https://jax.readthedocs.io/en/latest/gpu_memory_allocation.html, "Common causes of OOM
#: failures": running multiple JAX processes concurrently).
JAX_MEMORY_CANDIDATE: Final = (
    "the GPU's memory was already taken: by another process (another JAX process on the same "
    "GPU among them: each preallocates 75 % of the GPU's memory as it makes its first array), "
    "or by another framework in the same program",
    "`nvidia-smi` shows the memory in use and the processes holding it",
    "stop the other processes (a notebook's kernel still alive counts), or let each JAX "
    "process take only what it uses: XLA_PYTHON_CLIENT_PREALLOCATE=false (or a smaller "
    "XLA_PYTHON_CLIENT_MEM_FRACTION) before JAX is imported",
)
#: The same where TensorFlow shows in the log too: each framework's own setting.
JAX_TF_MEMORY_CANDIDATE: Final = (
    "the GPU's memory was already taken: by another process (another JAX process on the same "
    "GPU among them: each preallocates 75 % of the GPU's memory as it makes its first array), "
    "or by TensorFlow in the same program (it maps nearly all of the free memory when it "
    "starts on the GPU unless memory growth is on)",
    "`nvidia-smi` shows the memory in use and the processes holding it",
    "stop the other processes; set XLA_PYTHON_CLIENT_PREALLOCATE=false for JAX and "
    "TF_FORCE_GPU_ALLOW_GROWTH=true for TensorFlow before either is imported (or, where "
    "TensorFlow only loads the data, hide the GPU from it with "
    "tf.config.set_visible_devices([], 'GPU') before its first op)",
)
#: The settings each of those candidates' commands make.
JAX_MEMORY_SETTINGS: Final = (("XLA_PYTHON_CLIENT_PREALLOCATE", "false"),)
JAX_TF_MEMORY_SETTINGS: Final = (*JAX_MEMORY_SETTINGS, ("TF_FORCE_GPU_ALLOW_GROWTH", "true"))


def gpu_library_ranking(
    order: Sequence[str] = ("memory",), without: Sequence[str] = ()
) -> tuple[str, ...]:
    """The candidates for a cuDNN/cuBLAS handle that fails to start, most likely first: those
    in ``order``, then the others of :data:`GPU_LIBRARY_INIT_CANDIDATES` that the evidence
    does not rule out (``without``)."""
    return tuple(
        dict.fromkeys(
            (*order, *(k for k in GPU_LIBRARY_INIT_CANDIDATES if k not in without)),
        )
    )


def _candidate_words(
    m: Machine,
    key: str,
    driver_runs: str = "",
    newer: Optional[tuple[str, str, str]] = None,
    build_libs: str = "",
    version: Optional[tuple[str, str, str]] = None,
    memory: Optional[tuple[str, str, str]] = None,
) -> tuple[str, str, str]:
    """One candidate's (what it is, what tells it apart, its fix), fitted to the evidence."""
    candidate = GPU_LIBRARY_INIT_CANDIDATES[key]
    what, tell, fix = candidate.what, candidate.tell, candidate.fix(m).text
    if key == "driver" and driver_runs:
        tell = f"{driver_runs}; {tell}"
    if key == "version" and version is not None:
        what, tell, fix = version
    elif key == "version" and build_libs:
        tell = f"{build_libs}; {tell}"
    if key == "gpu-newer" and newer is not None:
        what, tell, fix = newer
    if key == "memory" and memory is not None:
        what, tell, fix = memory
    return what, tell, fix


def _candidate_commands(
    m: Machine, key: str, memory_settings: Optional[Sequence[tuple[str, str]]] = None
) -> tuple[str, ...]:
    """One candidate's commands: its test, then its fix's (the memory candidate's settings
    replaced by ``memory_settings`` where the runtime that failed reads others)."""
    candidate = GPU_LIBRARY_INIT_CANDIDATES[key]
    if key == "memory" and memory_settings is not None:
        return (*candidate.shows, *set_env(m, *memory_settings))
    return (*candidate.shows, *candidate.fix(m).commands)


def gpu_library_init_fix(
    m: Machine,
    order: Sequence[str] = ("memory",),
    shown: Sequence[str] = (),
    driver_runs: str = "",
    newer: Optional[tuple[str, str, str]] = None,
    without: Sequence[str] = (),
    build_libs: str = "",
    version: Optional[tuple[str, str, str]] = None,
    memory: Optional[tuple[str, str, str]] = None,
    memory_settings: Optional[Sequence[tuple[str, str]]] = None,
) -> Fix:
    """The candidates for a cuDNN/cuBLAS handle that fails to start, those in ``order`` first
    (the most likely), each with what tells it apart and its fix: the error text alone does
    not say which one it is. ``shown``: the evidence that put a candidate first;
    ``driver_runs``: what the log's driver runs, where the build's CUDA is not known;
    ``newer``: the GPU-newer candidate fitted to what the log shows of the GPU or the build's
    CUDA (causes.gpu.gpu_newer_candidate), else the general one; ``without``: candidates the
    evidence rules out; ``build_libs``: the cuDNN and CUDA the build wants, where known;
    ``version``: the version candidate's own words where the failure says more of it
    (:data:`XLA_FUSED_CUDNN_CANDIDATE`); ``memory``: the memory candidate's, likewise
    (:data:`XLA_CONV_MEMORY_CANDIDATE`, :data:`JAX_MEMORY_CANDIDATE`), with its commands'
    settings (``memory_settings``) where they are not TensorFlow's."""
    ranked = gpu_library_ranking(order, without)
    commands = tuple(
        dict.fromkeys(c for key in ranked for c in _candidate_commands(m, key, memory_settings))
    )
    if len(ranked) == 1:
        # The evidence rules out every other candidate (a library's ALLOC_FAILED status): no
        # ranking to give, the one candidate and its test.
        what, tell, fix = _candidate_words(
            m, ranked[0], driver_runs, newer, build_libs, version, memory
        )
        lead = f"The evidence shows {' and '.join(shown)}, which leaves" if shown else "There is"
        return Fix(f"{lead} one candidate: {what} ({tell}); if so, {fix}.", commands)
    steps = []
    for number, key in enumerate(ranked, 1):
        what, tell, fix = _candidate_words(m, key, driver_runs, newer, build_libs, version, memory)
        steps.append(f"{number}. {what}: {tell}; if so, {fix}.")
    why = (
        f"The evidence shows {' and '.join(shown)}: "
        + ("those candidates come first" if len(shown) > 1 else "that candidate comes first")
        if shown
        else "The error does not say why the library could not start"
    )
    return Fix(f"{why}; the candidates, most likely first: " + " ".join(steps), commands)


def gpu_library_candidate_fix(
    m: Machine,
    key: str,
    driver_runs: str = "",
    newer: Optional[tuple[str, str, str]] = None,
    build_libs: str = "",
    memory: Optional[tuple[str, str, str]] = None,
    memory_settings: Optional[Sequence[tuple[str, str]]] = None,
) -> Fix:
    """One candidate of :func:`gpu_library_init_fix` on its own (``key`` of
    :data:`GPU_LIBRARY_INIT_CANDIDATES`), for the finding that names its cause: the same words,
    its test first, then its fix, with its own commands."""
    what, tell, fix = _candidate_words(m, key, driver_runs, newer, build_libs, memory=memory)
    return Fix(
        f"If {what} ({tell}): {fix[:1].upper()}{fix[1:]}.",
        tuple(dict.fromkeys(_candidate_commands(m, key, memory_settings))),
    )


def config_order_fix(m: Machine) -> Fix:
    """Configure the GPUs first thing, before anything touches them."""
    return Fix(
        "Set memory growth, memory limits and visible devices right after `import tensorflow`, "
        "before any op, model or other import that uses TensorFlow; or use the environment "
        "variable, which applies at start.",
        set_env(m, ("TF_FORCE_GPU_ALLOW_GROWTH", "true")),
    )


def memory_growth_all_fix() -> Fix:
    """The same memory-growth setting on every visible GPU."""
    # The check is Python's (context.py compares the settings the program made, None where
    # it made none): TF_FORCE_GPU_ALLOW_GROWTH does not enter it while the calls remain.
    return Fix(
        "Set memory growth on every GPU TensorFlow lists, not the first alone (a loop over "
        "tf.config.list_physical_devices('GPU') calling "
        "tf.config.experimental.set_memory_growth(gpu, True)); or hide the GPUs the program "
        "should not use (CUDA_VISIBLE_DEVICES) so that the setting covers every visible one; "
        "or remove the set_memory_growth calls and set TF_FORCE_GPU_ALLOW_GROWTH=true instead."
    )


def strategy_scope_fix() -> Fix:
    """The model, its optimizer and metrics built, compiled and restored inside one strategy's
    scope."""
    # Keras' own advice in the error (training.py): "with strategy.scope(): model=_create_model();
    # model.compile(...)"; optimizer_v2 adds restoring a checkpoint outside the scope.
    return Fix(
        "Create the model, its optimizer and its metrics, compile it and restore any "
        "checkpoint inside the scope of the one strategy that trains it (fit may run "
        "outside); do not build or call the model before entering the scope, and create the "
        "strategy once.",
        (
            "with strategy.scope():  model = make_model(); model.compile(optimizer=..., "
            "loss=..., metrics=[...])",
        ),
    )


def strategy_order_fix() -> Fix:
    """Create the multi-worker strategy before anything else runs."""
    return Fix(
        "Create tf.distribute.MultiWorkerMirroredStrategy() at the very start of the program "
        "(after TF_CONFIG is set), before any other TensorFlow call."
    )


#: cuDNN's RNN ops (tensorflow/core/kernels/cudnn_rnn_ops.cc registers CudnnRNN, CudnnRNNV2,
#: CudnnRNNV3, their Backprop ops and the params conversions for DEVICE_GPU only): Keras 2's
#: CuDNNLSTM and CuDNNGRU layers always call them, and TF 2's LSTM and GRU layers
#: (keras/layers/recurrent_v2.py; keras/src/layers/rnn/lstm.py, gru.py in Keras 3 on the
#: TensorFlow backend) pick them where their arguments allow it and a GPU device is present,
#: which a plugin's GPU (DirectML, Metal) is without cuDNN's kernels.
_CUDNN_RNN_OPS = re.compile(r"CudnnRNN\w*$")


def cudnn_rnn_fix(op: str) -> Fix:
    """cuDNN's RNN kernel (``op``) asked for where no NVIDIA GPU with cuDNN serves it: the
    layer built without it (LSTM/GRU for CuDNNLSTM/CuDNNGRU, an RNN of the cell for a plugin's
    GPU), or the program run where TensorFlow sees an NVIDIA GPU."""
    return Fix(
        f"`{op}` is cuDNN's RNN kernel, which exists only for an NVIDIA GPU with cuDNN, and "
        "this process registered none (the error lists its devices). Build the layer without "
        "it: Keras' CuDNNLSTM and CuDNNGRU become LSTM and GRU (the plain layers, which run "
        "anywhere; on TensorFlow 1.x pass reset_after=True and recurrent_activation='sigmoid' "
        "to GRU to load CuDNNGRU's weights); where an LSTM or GRU layer itself picks the cuDNN "
        "kernel on a plugin's GPU (DirectML, Metal), wrap its cell instead: "
        "tf.keras.layers.RNN(tf.keras.layers.LSTMCell(units)) (GRUCell for GRU), which never "
        "calls it. Or run the program where TensorFlow lists an NVIDIA GPU (`tfdoctor check` "
        "says why it lists none).",
        ('python -c "import tensorflow as tf; print(tf.config.list_physical_devices())"',),
    )


def op_kernel_fix(op: Optional[str], kind: str = "") -> Fix:
    """Another all-reduce where NCCL's op has no kernel; the function compiled without XLA
    where XLA has none (``kind`` "xla"); a dtype a kernel takes where none takes the one given
    (``kind`` "attrs": the refusal names the attributes; "refused": the log shows a kernel of
    the op on a device of the process that refused them); cuDNN's RNN kernel built out where
    no device of the process has it; else the op run where it has one."""
    what = f"`{op}`" if op else "the op"
    if op is not None and _CUDNN_RNN_OPS.match(op) and kind in ("", "attrs"):
        # No device of the process has the kernel: cuDNN's RNN kernels are an NVIDIA GPU's
        # alone. One that refused the attributes is on a GPU the process has: the dtype's.
        return cudnn_rnn_fix(op)
    if kind == "xla":
        # tf2xla registers kernels only for ops XLA can lower: no strings, Python callbacks
        # (PyFunc), printing, hash tables or other resources of the host
        # (https://www.tensorflow.org/xla/known_issues).
        return Fix(
            f"XLA has no kernel for {what}: {WITHOUT_XLA} On a TPU, "
            "where every step is compiled, do that work outside the step: in the tf.data "
            "input pipeline on the host, or before the data reaches the model.",
            ('echo "TF_XLA_FLAGS=$TF_XLA_FLAGS"',),
        )
    if kind in ("attrs", "refused"):
        return Fix(
            f"No kernel of {what} takes the attributes it was given on the devices this process "
            "registered: the error lists the devices ('Registered devices') and the op's kernels "
            "by device and dtype ('Registered kernels', 'All kernels registered for op'). Give "
            "it a dtype one of them takes (tf.cast the input, often to float32; a "
            "mixed-precision policy hands float16 to ops whose CPU kernels take float32 only), "
            "or run it on the device that has the kernel for its dtype. Where that device is a "
            "GPU the process did not register, the GPU is what is missing: see why with "
            "`tfdoctor check`.",
            ('python -c "import tensorflow as tf; print(tf.config.list_physical_devices())"',),
        )
    if op is not None and op.startswith("Nccl"):
        # The Windows and macOS builds carry no NCCL (tensorflow/core/nccl is Linux-only), so
        # MirroredStrategy's default, NcclAllReduce, has no kernel there.
        return Fix(
            f"This TensorFlow has no NCCL ({op} has no kernel: the Windows and macOS builds "
            "carry none). Give MirroredStrategy another all-reduce: "
            "tf.distribute.MirroredStrategy(cross_device_ops="
            "tf.distribute.HierarchicalCopyAllReduce()) (or ReductionToOneDevice()); "
            "MultiWorkerMirroredStrategy takes CommunicationImplementation.RING instead."
        )
    return Fix(
        f"Run {what} where it has a kernel: on the CPU, inside `with tf.device('/cpu:0'):`, or "
        "let TensorFlow place what the GPU cannot run with "
        "tf.config.set_soft_device_placement(True). A device plugin (tensorflow-metal, "
        "DirectML) lacks many ops; a newer release of it may have this one."
    )


def s3_region_fix(region: Optional[str], *, redirected: bool = False) -> Fix:
    """The region S3 said the bucket is in (``region``, where its refusal names it), set where
    TensorFlow's S3 file system reads it; ``redirected``: S3 answered PermanentRedirect (the
    request went to another region's endpoint), which names no region."""
    shown = region or "<the bucket's region>"
    # S3's error responses (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html):
    # PermanentRedirect is a 301 to the bucket's own regional endpoint.
    redirect = (
        "S3 answered PermanentRedirect (HTTP 301): the bucket is in another region than the "
        "one the request was sent to (where S3_ENDPOINT is set, it must be the bucket's "
        "region's endpoint too, s3.<region>.amazonaws.com). "
        if redirected
        else ""
    )
    where = (
        f"S3 refused the request for being signed for another region and named the bucket's: "
        f"{region}."
        if region
        else f"{redirect}Find the bucket's region with the AWS CLI."
    )
    return Fix(
        f"{where} TensorFlow's S3 file system signs for the region in AWS_REGION (TensorFlow "
        "2.5 and older's own also S3_REGION, and ~/.aws/config only with AWS_SDK_LOAD_CONFIG=1; "
        "tensorflow-io's leaves it to the AWS SDK), and otherwise for us-east-1: export it in "
        "the environment of the process that opens the s3:// path (every worker's, for a "
        "cluster) before it starts.",
        (
            *(() if region else ("aws s3api get-bucket-location --bucket <bucket>",)),
            f"export AWS_REGION={shown}",
        ),
    )


def s3_credentials_fix(plain_http: bool) -> Fix:
    """Keys and endpoint for TensorFlow's S3 file system, which answers a 403 as credentials
    'not set properly'; with ``plain_http``, the log shows an endpoint served over http."""
    # S3_VERIFY_SSL=0 is no part of it: a plain-http endpoint has no certificate to check,
    # and the setting would outlive a move of the endpoint to https.
    http = (
        " The endpoint shown is plain http: TensorFlow 2.5 and older also need S3_USE_HTTPS=0."
        if plain_http
        else ""
    )
    commands = ["aws configure", "export AWS_REGION=<the bucket's region>"]
    if plain_http:
        commands += ["export S3_USE_HTTPS=0"]
    return Fix(
        "S3 refused the request (403): TensorFlow's S3 file system reports that as AWS "
        "credentials not set properly. Give the process that opens the s3:// path the keys "
        "(AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in its environment, or ~/.aws/credentials, "
        "which `aws configure` writes) and the bucket's region (AWS_REGION); for an "
        "S3-compatible store (MinIO, Ceph) set S3_ENDPOINT to its URL with the scheme "
        f"(https://host or http://host:9000; a bare host name is reached over https).{http} "
        "Check that the same "
        "keys and endpoint reach the bucket with the AWS CLI.",
        (
            *commands,
            f"export S3_ENDPOINT=<{'http' if plain_http else 'https'}://host:port of the "
            "S3-compatible store, if not AWS>",
            "aws s3 ls s3://<bucket>/ --endpoint-url <the same endpoint, if not AWS>",
        ),
    )


def s3_object_missing_fix() -> Fix:
    """An s3:// object reported missing: whether it exists, else the region and endpoint."""
    return Fix(
        "TensorFlow's S3 file system reports an object as missing when neither it nor a "
        "prefix of it can be read, which is also what a request to another region or "
        "endpoint gets. If the AWS CLI lists the object, set the bucket's region and its "
        "endpoint in the environment of the process that opens it (AWS_REGION and "
        "S3_ENDPOINT; on EMR or EC2 too, where ~/.aws/config is not read).",
        (
            "aws s3 ls <the s3:// path shown>",
            "aws s3api get-bucket-location --bucket <bucket>",
            "export AWS_REGION=<the bucket's region>",
            "export S3_ENDPOINT=s3.<the bucket's region>.amazonaws.com",
        ),
    )


def hdfs_env_fix() -> Fix:
    """The JVM and Hadoop libhdfs needs, as TensorFlow's Hadoop guide sets them."""
    return Fix(
        "TensorFlow's HDFS file system loads Hadoop's libhdfs.so, which starts a JVM from "
        "libjvm.so: set JAVA_HOME to a JDK that exists on every node that runs TensorFlow "
        "(the executors of a Spark or YARN job too), put its libjvm.so directory on "
        "LD_LIBRARY_PATH ($JAVA_HOME/jre/lib/amd64/server for Java 8, $JAVA_HOME/lib/server "
        "for Java 9 and later) with libhdfs's ($HADOOP_HDFS_HOME/lib/native), and CLASSPATH "
        "to Hadoop's jars, then start the job again.",
        (
            "ls $JAVA_HOME/jre/lib/amd64/server/libjvm.so $JAVA_HOME/lib/server/libjvm.so",
            "export JAVA_HOME=<the JDK's directory>",
            "export HADOOP_HDFS_HOME=<Hadoop's directory>",
            "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$JAVA_HOME/jre/lib/amd64/server"
            ":$JAVA_HOME/lib/server:$HADOOP_HDFS_HOME/lib/native",
            "export CLASSPATH=$(${HADOOP_HDFS_HOME}/bin/hadoop classpath --glob)",
        ),
    )


def tpu_local_path_fix(hub_cache: bool) -> Fix:
    """Paths a TPU's workers read in Cloud Storage: they read every path themselves and have
    no file system of the client's disk (``[local]``); ``hub_cache``: the path is TF Hub's
    module cache, which defaults to the client's temporary directory."""
    hub = (
        " TF Hub caches its modules under the local temporary directory unless TFHUB_CACHE_DIR "
        "names another: set it to a gs:// folder before the module is loaded."
        if hub_cache
        else ""
    )
    return Fix(
        "A TPU's workers open the program's files themselves, and they have no file system for "
        "this machine's local disk (the `[local]` scheme): put the data, checkpoints, saved "
        "models and modules the TPU reads in a Cloud Storage bucket its service account can "
        f"read, and pass their gs:// paths.{hub}",
        (
            "gsutil -m cp -r LOCAL_DIR gs://BUCKET/DIR",
            *(("export TFHUB_CACHE_DIR=gs://BUCKET/tfhub_modules",) if hub_cache else ()),
        ),
    )


def gcs_credentials_fix() -> Fix:
    """Credentials for TensorFlow's GCS file system, which found none and asked anonymously."""
    return Fix(
        "Google Cloud Storage refused an anonymous request: TensorFlow's GCS file system "
        "found no credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's application-default "
        "credentials, or a Google Cloud machine's metadata server). Point "
        "GOOGLE_APPLICATION_CREDENTIALS at a service account's key file, or log in for "
        "application-default credentials, in the environment of the process that opens the "
        "gs:// path.",
        (
            "export GOOGLE_APPLICATION_CREDENTIALS=<path to the service account's key.json>",
            "gcloud auth application-default login",
        ),
    )


def onednn_kernel_fix(m: Machine) -> Fix:
    """A oneDNN (MKL) kernel failing: its switch for the release the machine shows, else both
    switches with the releases that read them, then a build or release without the defect."""
    tf = m.tf.version if m.tf is not None else None
    opts = set_env(m, ("TF_ENABLE_ONEDNN_OPTS", "0"))
    legacy = set_env(m, ("TF_DISABLE_MKL", "1"))
    # The release that added TF_ENABLE_ONEDNN_OPTS is the matrix's (its lines' onednn_opts).
    since = m.matrix.onednn_opts_since() if m.matrix is not None else None
    if tf is not None and since is not None and version_key(tf) < since.key:
        # Before 2.5 only an MKL build runs these kernels, and the stock pip wheel of the
        # same release is built without them: offered unless the matrix says that release
        # has no wheel for the machine's Python.
        line = m.matrix.line_for(tf) if m.matrix is not None else None
        target = m.target
        if (
            line is not None
            and target.python is not None
            and target.platform is not None
            and target.python not in line.python.get(target.platform, ())
        ):
            return Fix(
                f"TensorFlow {tf} ran one of its MKL (oneDNN) kernels, which only its MKL "
                "builds have (intel-tensorflow, Anaconda's mkl variants), and the kernel "
                "failed. Turn the MKL kernels off where the build reads TF_DISABLE_MKL, or, in "
                "conda, install the eigen variant of the release, or a later release, whose "
                f"kernel may be fixed (PyPI has no tensorflow {tf} wheel for Python "
                f"{target.python} here).",
                legacy,
            )
        if m.conda_tensorflow is not None:
            # conda's own build: pip would see tensorflow at that release installed and keep
            # it (or mix pip's files into conda's package); the text names conda's variant.
            install: tuple[str, ...] = ()
        elif m.tf_name == "tensorflow":
            # An MKL build installed under PyPI's name (a source build, a vendor's wheel): a
            # plain install of the same release is "already satisfied" and changes nothing.
            install = m.pip(f'install --force-reinstall --no-deps "tensorflow=={tf}"')
        else:
            install = (
                *(m.pip(f"uninstall -y {m.tf_name}") if m.tf_name is not None else ()),
                *m.pip_install(f"tensorflow=={tf}"),
            )
        return Fix(
            f"TensorFlow {tf} ran one of its MKL (oneDNN) kernels, which only its MKL builds "
            "have (intel-tensorflow, Anaconda's mkl variants), and the kernel failed. Turn the "
            "MKL kernels off where the build reads TF_DISABLE_MKL, or install the same release "
            "built without MKL (the tensorflow wheel from PyPI; in conda, the eigen variant), "
            "or a later release, whose kernel may be fixed.",
            (*legacy, *install),
        )
    added = f"TensorFlow {since.line} and later" if since is not None else "where the build has it"
    before = f"before {since.line}" if since is not None else "before that switch"
    return Fix(
        "A oneDNN kernel of this TensorFlow build failed inside TensorFlow. Run without the "
        f"oneDNN kernels: set TF_ENABLE_ONEDNN_OPTS=0 before TensorFlow is imported ({added}; "
        "MKL builds such as intel-tensorflow read TF_DISABLE_MKL=1), or install a build "
        f"without them ({before}, PyPI's tensorflow wheel) or a later release whose kernel is "
        "fixed.",
        (*opts, *legacy),
    )


def unreleased_build(version: str) -> Optional[tuple[CauseId, str]]:
    """Whether ``version`` (TensorFlow's) is a pre-release or a nightly, as the cause and the
    final release it leads to (``2.16.0rc0`` -> the pre-release cause and ``2.16.0``), or
    None for a final release."""
    pre = _PRE_RELEASE.match(version)
    if pre is not None:
        return TF_PRERELEASE_REGRESSION, pre.group("final")
    nightly = _NIGHTLY.match(version)
    if nightly is not None:
        return TF_BUILD_REGRESSION, nightly.group("final")
    return None


def unreleased_kind(cause: CauseId) -> str:
    """How a finding names the build of :func:`unreleased_build`'s ``cause``."""
    return "a nightly build" if cause == TF_BUILD_REGRESSION else "a pre-release"


def published_distribution(version: str) -> str:
    """The distribution TensorFlow's ``version`` (pip's spelling) is published as where
    nothing names the one installed: :data:`NIGHTLY_DISTRIBUTION` for a nightly build's
    (``2.15.0.dev20230816``), ``tensorflow`` for a release's or a pre-release's."""
    return NIGHTLY_DISTRIBUTION if _NIGHTLY.match(version) is not None else "tensorflow"


def unreleased_reinstall_fix(m: Machine, fix: Fix) -> Fix:
    """``fix`` (writing TensorFlow's files again) told that a nightly or a pre-release can
    itself ship without a file its final release has, where the log shows no TensorFlow
    build or shows such a build: installing that build again then writes the same files. A
    final release shown keeps ``fix`` as it is."""
    tf = m.tf
    if tf is None:
        which = "The log does not show which build is installed: where it is a nightly build "
        which += "(tf-nightly) or a pre-release,"
    else:
        found = unreleased_build(tf.version)
        if found is None:
            return fix
        which = f"{tf.name} {tf.version} is {unreleased_kind(found[0])}:"
    return Fix(
        f"{fix.text} {which} the build itself may lack the file, and installing it again "
        "writes the same files; where the reinstall does not help, install a final release, "
        "or a nightly of another day, instead.",
        fix.commands,
    )


def nightly_image_fix(image: str, tool: str = "docker") -> Fix:
    """TensorFlow's release image in place of its nightly ``image``
    (``tensorflow/tensorflow:nightly-gpu``): the same tag with ``latest`` for ``nightly``,
    pulled with ``tool`` (``docker``, ``podman``)."""
    # The image's tags pair each nightly with its releases: nightly-gpu with latest-gpu and
    # each release's 2.x.y-gpu, nightly-jupyter with latest-jupyter, and so on
    # (https://www.tensorflow.org/install/docker).
    name, _, tag = image.partition(":")
    suffix = tag.removeprefix("nightly")
    release = f"{name}:latest{suffix}"
    return Fix(
        f"{image} runs a nightly build of TensorFlow's development branch, installed in the "
        "image with the CUDA and cuDNN it was built with: installing CUDA or cuDNN, or setting "
        "LD_LIBRARY_PATH, changes nothing there. Use the release tag: run the same command "
        f"with {release} (or a release's own tag, {name}:<version>{suffix}), which the "
        "nightly's defect does not reach; a later nightly image may carry the fix.",
        (f"{tool} pull {release}",),
    )


def unreleased_build_fix(m: Machine, dist: str, version: str, final: str) -> Fix:
    """The final release instead of a pre-release (``version`` of ``dist``, leading to
    ``final``), or for a nightly an earlier build or the stable release; ``dist`` is
    TensorFlow's distribution, or for a nightly a companion's (keras-nightly)."""
    line = ".".join(final.split(".")[:2])
    if _NIGHTLY.match(version) is not None:
        # A companion's nightly (keras-nightly) is the module table's; TensorFlow's own
        # (tf-nightly and its variants) are published as tf-nightly, installing tensorflow.
        table = modules()
        tf_nightly = m.tf_name if m.tf_name in NIGHTLY_DISTRIBUTIONS else None
        if table.release_of(dist) != dist:
            nightly, release = dist, table.release_of(dist)
            package = table.module_of(release) or release
        else:
            nightly, release, package = NIGHTLY_DISTRIBUTION, "tensorflow", "tensorflow"
            tf_nightly = dist
        if tf_nightly is None:
            stable = (
                f"install the stable release in its place (uninstall {dist} first: both "
                f"write the {package} package)"
            )
            removed: tuple[str, ...] = (dist,)
        else:
            # tf-nightly requires the companions' nightlies in place of their releases (the
            # module table's, from TensorFlow's pip_package/setup.py): the stable TensorFlow
            # brings the releases, which write the same packages, so the nightlies leave too
            # (pip skips, with a warning, those not installed).
            removed = (tf_nightly, *sorted(table.nightlies))
            stable = (
                f"install the stable TensorFlow in place of {tf_nightly} (uninstall it and the "
                f"nightlies it requires first: {', '.join(removed[1:])} write the packages "
                "of the releases TensorFlow brings)"
            )
            release = "tensorflow"
        listing = m.list_releases(nightly, pre=True)
        # Before Python 3.6 no pip has `pip index` (Machine.list_releases): there the listing
        # is pip's refusal of an empty version, oldest first.
        lists = (
            f"`pip index versions --pre {nightly}` lists them, newest first"
            if any("index versions" in c for c in listing)
            else f'`pip install "{nightly}=="` lists them in its refusal, oldest first'
        )
        return Fix(
            f"{dist} {version} is a nightly build of the development branch: pin {nightly} "
            f"to a build from before the failure ({lists}), or {stable}. A later nightly may "
            "carry the fix.",
            (
                *listing,
                *m.pip(f"uninstall -y {' '.join(removed)}"),
                *m.pip(f"install {release}"),
            ),
        )
    # A pin of the line without a pre-release suffix: pip takes no pre-release from the index
    # for it unless asked (--pre), so it installs the line's final release. --upgrade: pip
    # keeps an installed release that meets the pin, pre-releases included
    # (resolution/resolvelib/factory.py, specifier.contains(installed, prereleases=True)).
    name = "tensorflow" if dist.startswith("tf-nightly") else dist
    return Fix(
        f"{dist} {version} is a pre-release (a release candidate, alpha or beta): install "
        f"the final release of {line} in its place, without `--pre` (remove `--pre` and any "
        "pin of the pre-release from the install line or the requirements); --upgrade makes "
        "pip replace the installed pre-release, which the pin alone would keep.",
        m.pip(f'install --upgrade "{name}=={line}.*"'),
    )


#: The distribution a TFLite interpreter wrapper's path lies in: the standalone runtime's
#: folder (tflite_runtime, PyPI's tflite-runtime) or TensorFlow's own (tensorflow/lite).
_WRAPPER_DISTRIBUTIONS: Final = (("tflite_runtime", "tflite-runtime"), ("tensorflow", "tensorflow"))


#: A TensorFlow Lite native library an Android app loads (Android's linker names it): one of
#: TFLite's Android archives, or one a plugin bundles or the app's developer built
#: (tflite_flutter's libtensorflowlite_c.so, a self-built libtensorflowlite.so).
_ANDROID_LIBRARY: Final = re.compile(r"libtensorflowlite\w*\.so$")
#: The native libraries of TensorFlow Lite's Android archives, which the app's Gradle build
#: pulls in: tensorflow-lite's libtensorflowlite_jni.so, its GPU and Flex delegates'
#: libtensorflowlite_gpu_jni.so and libtensorflowlite_flex_jni.so.
_GRADLE_LIBRARY: Final = re.compile(r"libtensorflowlite(?:_gpu|_flex)?_jni\.so$")


def platform_build_fix(library: Optional[str], symbol: Optional[str]) -> Fix:
    """A build's native library asking for code its platform lacks: for an Android library
    of TFLite's archives, the TFLite release before or a minSdkVersion that keeps the app off
    those devices (for another TFLite library of the app, that library's release before or a
    rebuild); for TFLite's Python interpreter wrapper (``symbol`` of TFLite's own namespace),
    another build of the package, since this one left the code out."""
    if library is not None and _ANDROID_LIBRARY.search(library):
        name = symbol or "a system function"
        file = library.rsplit("/", 1)[-1]
        said = (
            f"The app's TensorFlow Lite native library ({file}) calls {name}, which this "
            "device's Android system libraries do not define: that build was made for a later "
            "Android API level than the device runs."
        )
        if _GRADLE_LIBRARY.search(library):
            return Fix(
                f"{said} Keep the org.tensorflow:tensorflow-lite release before it, if it ran on "
                "this device, in the app's build.gradle dependencies (or a later release built "
                "for the device's API level), or raise the app's minSdkVersion to the API level "
                f"that defines {name} so older devices do not install it.",
                (),
            )
        # Not one of TFLite's Gradle archives: a plugin's bundled library (tflite_flutter's
        # libtensorflowlite_c.so) or one built by hand, which build.gradle does not choose.
        return Fix(
            f"{said} Use the release of whatever supplies {file} (the plugin that bundles it, "
            "or your own build) before it, if it ran on this device, rebuild it for the "
            "device's API level (the Android NDK's minimum platform of the build), or raise "
            f"the app's minSdkVersion to the API level that defines {name} so older devices do "
            "not install it.",
            (),
        )
    where = library or "the interpreter wrapper"
    dist = next(
        (d for folder, d in _WRAPPER_DISTRIBUTIONS if re.search(rf"[/\\]{folder}[/\\]", where)),
        "tflite-runtime",
    )
    return Fix(
        f"{where} calls {symbol or 'a function of TFLite'}, which is TensorFlow Lite's own code "
        "and which that build did not compile into it: the build is at fault, not the "
        f"machine, and reinstalling the same {dist} wheel changes nothing. Install another "
        f"build of {dist} for this platform: the release before it, a later release, or a "
        "rebuild of the same release from its builder with the code included.",
        (),
    )
