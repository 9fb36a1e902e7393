"""GPU and native-library messages explain reads in every form they take: each release's
wording, with or without the library's own prefix, and wrapped over lines as consoles and
pastes leave them. The lines here are written for the tests (the corpus in tests/data/logs
holds the real ones)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import factories as f
from tests.explaining import readings
from tfdoctor.explain import cpu_machine, explain
from tfdoctor.explain.reader import split_text
from tfdoctor.findings import Finding, Fix, Report, Severity
from tfdoctor.signatures import load_signatures

SIGNATURES = load_signatures()


def _explain(text: str) -> Report:
    return explain([split_text(text)], SIGNATURES, f.FIXTURE_MATRIX)


def _problems(report: Report) -> list[Finding]:
    """The findings at warning or above (what a user must act on), without a ranked
    candidate that follows one."""
    return readings(report)


ARCH, OOM, SHM = "gpu-arch-unsupported", "gpu-out-of-memory", "nccl-shm-too-small"
KERNEL, LIBS = "op-kernel-missing", "cuda-libs-missing"
BUSY, STUB = "gpu-busy-or-unavailable", "libcuda-stub"

#: A log, the cause it must get (at warning or above, exactly once) and a word its fix holds.
RECOGNISED = [
    # A GPU below the build's minimum compute capability: the fix names the GPU's capability.
    pytest.param(
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1120] Ignoring visible gpu device "
        "(device: 0, name: Quadro K1100M, pci bus id: 0000:02:00.0, compute capability: 3.0) "
        "with Cuda compute capability 3.0. The minimum required Cuda capability is 3.5.",
        ARCH,
        "3.0",
        id="minimum-one-line",
    ),
    pytest.param(  # before 0.12: no "visible"
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:611] Ignoring gpu device (device: 1, "
        "name: GeForce GTX 680, pci bus id: 0000:03:00.0) with Cuda compute capability 3.0. The "
        "minimum required Cuda capability is 3.5.",
        ARCH,
        "3.0",
        id="minimum-before-0.12",
    ),
    pytest.param(  # broken before "with", as a console or a paste leaves it
        "gpu_device.cc:611] Ignoring gpu device (device: 0, name: GeForce GT 640, pci bus id: "
        "0000:01:00.0)\nwith Cuda compute capability 3.0. The minimum required Cuda capability "
        "is 3.5.",
        ARCH,
        "3.0",
        id="minimum-wrapped",
    ),
    pytest.param(  # broken inside "compute" by a console's fixed width
        "gpu_device.cc:948] Ignoring visible gpu device (device: 0, name: GeForce GTX 670, pci "
        "bus id: 0000:01:00.0) with Cuda c\nompute capability 3.0. The minimum required Cuda "
        "capability is 3.5.",
        ARCH,
        "3.0",
        id="minimum-wrapped-mid-word",
    ),
    pytest.param(
        "I c:\\tf\\core\\common_runtime\\gpu\\gpu_device.cc:1641] Ignoring visible gpu device "
        "(device: 0, name: GeForce GTX 760, pci bus id: 0000:01:00.0, compute capability: 3.0) "
        "with Cuda compute capability 3.0. The minimum required Cuda capability is 3.7.",
        ARCH,
        "3.0",
        id="minimum-3.7-windows",
    ),
    # No code in the build the GPU can run, whichever CUDA API says it.
    pytest.param(
        "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
        "initialization on GPU:0 failed. Status: device kernel image is invalid",
        ARCH,
        "compute",
        id="runtime-invalid-image",
    ),
    pytest.param(
        "F tensorflow/core/kernels/conv_ops.cc:1044] Non-OK-status: status: Internal: no kernel "
        "image is available for execution on the device",
        ARCH,
        "compute",
        id="runtime-no-image",
    ),
    pytest.param(
        "W tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] "
        "'cuModuleLoadData(&module, data)' failed with 'CUDA_ERROR_NO_BINARY_FOR_GPU'",
        ARCH,
        "compute",
        id="driver-no-binary",
    ),
    # The GPU's allocator ran out: what else holds the GPU is half the answer.
    pytest.param(  # 1.x and before: the message names no allocator
        "W tensorflow/core/common_runtime/bfc_allocator.cc:271] Ran out of memory trying to "
        "allocate 1.17GiB.  See logs for memory state.",
        OOM,
        "process",
        id="allocator-1.x",
    ),
    pytest.param(  # 1.3 and later: the GPU's allocator by name
        "W tensorflow/core/common_runtime/bfc_allocator.cc:419] Allocator (GPU_0_bfc) ran out of "
        "memory trying to allocate 3.06GiB (rounded to 3288334336).  Current allocation summary "
        "follows.",
        OOM,
        "process",
        id="allocator-2.x",
    ),
    pytest.param(  # later releases add who asked for it
        "W tensorflow/tsl/framework/bfc_allocator.cc:479] Allocator (GPU_1_bfc) ran out of memory "
        "trying to allocate 512.00MiB (rounded to 536870912)requested by op Conv2D",
        OOM,
        "process",
        id="allocator-requested-by",
    ),
    pytest.param(  # a copy to the GPU that found no room, before and after TF said so
        "tensorflow.python.framework.errors_impl.InternalError: Dst tensor is not initialized.\n"
        "\t [[{{node _arg_Placeholder_0_0/_1}}]]",
        OOM,
        "batch size",
        id="dst-tensor",
    ),
    pytest.param(
        "InternalError: Dst tensor is not initialized (are you out of memory?).",
        OOM,
        "batch size",
        id="dst-tensor-asks",
    ),
    # NCCL without room in /dev/shm, with or without NCCL's own prefix.
    pytest.param(  # relayed bare, as a framework's "Last error:"
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
        "device error.\nLast error:\nError while creating shared memory segment "
        "/dev/shm/nccl-Qx81Lm (size 9637888)",
        SHM,
        "shm",
        id="nccl-last-error",
    ),
    pytest.param(
        "RuntimeError: Error while creating shared memory segment /dev/shm/nccl-a1B2c3 "
        "(size 7340384)",
        SHM,
        "shm",
        id="nccl-bare",
    ),
    pytest.param(  # NCCL 2.7-2.11 named the segment without the path
        "host:301:318 [2] include/shm.h:48 NCCL WARN Error while creating shared memory segment "
        "nccl-shm-recv-0f1e2d3c4b5a6978-0-2-1 (size 9637888)",
        SHM,
        "shm",
        id="nccl-warn-old-name",
    ),
    # An op without a kernel where it was placed: run it where it has one.
    pytest.param(  # a device plugin's GPU lacks it
        "tensorflow.python.framework.errors_impl.NotFoundError: No registered 'StatelessRandom"
        "UniformV2' OpKernel for 'GPU' devices compatible with node {{node StatelessRandom"
        "UniformV2}}\n\t.  Registered:  device='CPU'",
        KERNEL,
        "tf.device('/cpu:0')",
        id="op-no-gpu-kernel",
    ),
    pytest.param(  # the placer, for an op pinned to the GPU
        "InvalidArgumentError: Cannot assign a device for operation model/augment/RandomFlip: "
        "Could not satisfy explicit device specification '/job:localhost/replica:0/task:0/"
        "device:GPU:0' because no supported kernel for GPU devices is available.",
        KERNEL,
        "set_soft_device_placement",
        id="placer-no-gpu-kernel",
    ),
    # No NCCL in the build: MirroredStrategy's default all-reduce has no kernel anywhere.
    pytest.param(
        "InvalidArgumentError: No OpKernel was registered to support Op 'NcclAllReduce' used by "
        '{{node NcclAllReduce}} with these attrs: [reduction="sum", shared_name="c0", '
        "T=DT_FLOAT, num_devices=2]\nRegistered devices: [CPU, GPU]\nRegistered kernels:\n  "
        "<no registered kernels>",
        KERNEL,
        "HierarchicalCopyAllReduce",
        id="nccl-all-reduce",
    ),
    pytest.param(
        "No OpKernel was registered to support Op 'NcclBroadcast' used by {{node NcclBroadcast}}",
        KERNEL,
        "HierarchicalCopyAllReduce",
        id="nccl-broadcast",
    ),
    # A CUDA runtime or cuBLAS name says the build's CUDA major when nothing else does.
    pytest.param(
        "W dso_loader.cc:64] Could not load dynamic library 'cudart64_110.dll'; dlerror: "
        "cudart64_110.dll not found",
        LIBS,
        "a CUDA 11 toolkit",
        id="major-cudart-dll",
    ),
    pytest.param(
        "W dso_loader.cc:64] Could not load dynamic library 'cublas64_12.dll'; dlerror: "
        "cublas64_12.dll not found",
        LIBS,
        "a CUDA 12 toolkit",
        id="major-cublas-dll",
    ),
    pytest.param(
        "W tsl/platform/default/dso_loader.cc:66] Could not load dynamic library "
        "'libcudart.so.12'; dlerror: libcudart.so.12: cannot open shared object file",
        LIBS,
        "a CUDA 12 toolkit",
        id="major-cudart-soname",
    ),
    # The context TensorFlow creates first needs GPU memory too: another process holding it
    # all leaves none, and the fix looks at who holds it.
    pytest.param(
        "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
        "initialization on GPU:0 failed. Status: out of memory",
        OOM,
        "nvidia-smi",
        id="context-out-of-memory",
    ),
    pytest.param(
        "InternalError: CUDA runtime implicit initialization on GPU:3 failed. Status: out of "
        "memory.",
        OOM,
        "nvidia-smi",
        id="context-out-of-memory-gpu3",
    ),
    # A GPU that refuses another process: the fix shows its compute mode and who holds it.
    pytest.param(
        "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
        "initialization on GPU:0 failed. Status: all CUDA-capable devices are busy or "
        "unavailable",
        BUSY,
        "compute_mode",
        id="busy-runtime",
    ),
    pytest.param(  # CUDA's own words with its error number, as other programs print them
        "Check failed: error == cudaSuccess (46 vs. 0)  all CUDA-capable devices are busy or "
        "unavailable",
        BUSY,
        "compute_mode",
        id="busy-error-46",
    ),
    # The toolkit's stub libcuda: TensorFlow prints its bare number, other tools its name.
    pytest.param(
        "E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to "
        "cuInit: UNKNOWN ERROR (34)",
        STUB,
        "ld.so.conf.d",
        id="stub-number",
    ),
    pytest.param(
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: "
        "CUDA_ERROR_STUB_LIBRARY: CUDA driver is a stub library",
        STUB,
        "--gpus all",
        id="stub-name",
    ),
    pytest.param(  # newer releases repeat the call inside the absl status
        "E0000 00:00:1795971381.226757    3751 cuda_platform.cc:52] failed call to cuInit: "
        "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (34)",
        STUB,
        "ld.so.conf.d",
        id="stub-absl",
    ),
    pytest.param(
        "E0000 00:00:1795971381.226757    3751 cuda_platform.cc:52] failed call to cuInit: "
        "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (999)",
        "cuinit-unknown-error",
        "nvidia_uvm",
        id="unknown-absl",
    ),
]


@pytest.mark.parametrize(("log", "cause", "fix_word"), RECOGNISED)
def test_a_message_of_the_family_gets_its_cause_and_fix(
    log: str, cause: str, fix_word: str
) -> None:
    found = [x for x in _problems(_explain(log)) if x.cause == cause]
    assert len(found) == 1, [(x.id, x.severity) for x in _explain(log).findings]
    assert found[0].fix is not None
    assert fix_word in "\n".join((found[0].fix.text, *found[0].fix.commands))


#: A log like the family's that must not get the cause (nor, for the first, any problem).
NOT_RECOGNISED = [
    pytest.param(  # a GPU's capability without the build's minimum is no verdict
        "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1561] Found device 0 with "
        "properties:\nname: GeForce GTX 1080 major: 6 minor: 1 memoryClockRate(GHz): 1.73\n"
        "Created TensorFlow device (/device:GPU:0 with 7000 MB memory) -> physical GPU (device: "
        "0, name: GeForce GTX 1080, pci bus id: 0000:01:00.0, compute capability: 6.1)",
        None,
        id="capability-alone",
    ),
    pytest.param(  # no device is not missing code
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:328] failed call to cuInit: "
        "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected",
        ARCH,
        id="no-device",
    ),
    pytest.param(  # TensorFlow retries with less: its own words say this is no failure
        "W tensorflow/core/common_runtime/bfc_allocator.cc:245] Allocator (GPU_0_bfc) ran out of "
        "memory trying to allocate 2.26GiB with freed_by_count=0. The caller indicates that this "
        "is not a failure, but may mean that there could be performance gains if more memory "
        "were available.",
        OOM,
        id="allocator-not-a-failure",
    ),
    pytest.param(  # the pinned host allocator is host memory, not the GPU's
        "W tensorflow/core/common_runtime/bfc_allocator.cc:273] Allocator (cuda_host_bfc) ran out "
        "of memory trying to allocate 3.72GiB.  Current allocation summary follows.",
        OOM,
        id="allocator-pinned-host",
    ),
    pytest.param(  # an add-on's op that was never loaded is not a device's missing kernel
        "NotFoundError: No OpKernel was registered to support Op 'SentencepieceOp' used by "
        "{{node SentencepieceOp}}",
        KERNEL,
        id="add-on-op-unloaded",
    ),
    pytest.param(  # another program's segment is not NCCL's
        "Error while creating shared memory segment /dev/shm/psm_0a1b2c (size 4096)",
        SHM,
        id="shm-not-nccl",
    ),
    pytest.param(  # the context failing for another reason is not memory
        "InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: unknown "
        "error",
        OOM,
        id="context-unknown-error",
    ),
    pytest.param(  # nor a GPU the build has no code for
        "InternalError: CUDA runtime implicit initialization on GPU:0 failed. Status: device "
        "kernel image is invalid",
        BUSY,
        id="context-no-code",
    ),
    pytest.param(  # a GPU found busy by a monitor is not CUDA refusing a context
        "nvidia-smi: GPU 0 is busy (utilization 98%), waiting for it to become available",
        BUSY,
        id="monitor-busy",
    ),
    pytest.param(  # 303: no libcuda at all, on a machine without the driver
        "E tensorflow/stream_executor/cuda/cuda_driver.cc:318] failed call to cuInit: UNKNOWN "
        "ERROR (303)",
        STUB,
        id="cuinit-303",
    ),
    pytest.param(  # another number that begins with 34
        "E cuda_driver.cc:318] failed call to cuInit: UNKNOWN ERROR (340)",
        STUB,
        id="cuinit-340",
    ),
]


@pytest.mark.parametrize(("log", "cause"), NOT_RECOGNISED)
def test_a_message_like_the_family_does_not_get_its_cause(log: str, cause: str | None) -> None:
    problems = _problems(_explain(log))
    if cause is None:
        assert problems == []
    assert all(x.cause != cause for x in problems)


# --- the interpreter crashing in native code --------------------------------------------------


@pytest.mark.parametrize(
    "log",
    [
        ">>> import torch\n>>> import tensorflow as tf\nSegmentation fault (core dumped)",
        "./train.sh: line 4: 21873 Segmentation fault      (core dumped) python train.py",
        "zsh: segmentation fault  python -c 'import tensorflow'",
        "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f1f (most recent call "
        'first):\n  File "<frozen importlib._bootstrap>", line 228 in _call_with_frames_removed',
        "C:\\Users\\me\\venv\\Scripts\\python.exe C:/work/train.py\n\nProcess finished with exit "
        "code -1073741819 (0xC0000005)",
    ],
    ids=["bash-repl", "bash-script", "zsh", "faulthandler", "windows-access-violation"],
)
def test_a_native_crash_is_the_interpreter_crashing(log: str) -> None:
    found = [x for x in _problems(_explain(log)) if x.cause == "import-crash"]
    assert len(found) == 1 and found[0].severity is Severity.ERROR
    assert found[0].fix is not None and "faulthandler" in found[0].fix.text


def test_a_library_whose_major_is_its_own_names_no_cuda_major() -> None:
    """cuFFT 10 ships with CUDA 10.1, 10.2 and 11.x: its name says nothing of CUDA's major."""
    log = "W dso_loader.cc:64] Could not load dynamic library 'cufft64_10.dll'; dlerror: x"
    (finding,) = [x for x in _problems(_explain(log)) if x.cause == LIBS]
    assert finding.fix is not None
    text = finding.fix.text
    assert "a CUDA 1" not in text and "Install CUDA 1" not in text
    assert "`tfdoctor matrix`" in text
    # The lines whose builds ask for it span CUDA 10.1 to 11.2: each named with its own.
    assert "2.1 to 2.3 (CUDA 10.1" in text and "2.5 to 2.10 (CUDA 11.2" in text


@pytest.mark.parametrize(
    "log",
    [
        "I0101 faulthandler enabled: segmentation faults print a traceback",
        "Process finished with exit code 0",
    ],
    ids=["prose", "clean-exit"],
)
def test_words_about_crashes_are_no_crash(log: str) -> None:
    assert all(x.cause != "import-crash" for x in _explain(log).findings)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "InvalidArgumentError: Cannot assign a device for operation MatMul: Could not "
            "satisfy explicit device specification '/device:GPU:1' because no devices matching "
            "that specification are registered in this process; available devices: "
            "/job:localhost/replica:0/task:0/device:CPU:0",
            id="registered",
        ),
        pytest.param(  # 1.x's placer
            "InvalidArgumentError: Cannot assign a device for operation 'tower_0/Conv2D': "
            "Operation was explicitly assigned to /device:GPU:0 but available devices are "
            "[ /job:localhost/replica:0/task:0/cpu:0 ]. Make sure the device specification "
            "refers to a valid device.",
            id="assigned-1x",
        ),
        pytest.param(  # XLA's device alone is not a GPU TensorFlow registered
            "InvalidArgumentError: Cannot assign a device for operation add: {{node add}} was "
            "explicitly assigned to /job:worker/replica:0/task:0/device:GPU:0 but available "
            "devices are [ /job:localhost/replica:0/task:0/device:CPU:0, "
            "/job:localhost/replica:0/task:0/device:XLA_CPU:0, "
            "/job:localhost/replica:0/task:0/device:XLA_GPU:0 ]. Make sure the device "
            "specification refers to a valid device.",
            id="assigned-xla-gpu-only",
        ),
    ],
)
def test_a_gpu_placement_in_a_process_without_one_reads_the_device_log(text: str) -> None:
    found = [x for x in _explain(text).findings if x.cause == "gpu-unseen-no-reason"]
    assert len(found) == 1 and found[0].fix is not None
    assert "list_physical_devices" in " ".join(found[0].fix.commands)


def test_a_gpu_index_beside_another_gpu_is_not_a_process_without_one() -> None:
    text = (
        "InvalidArgumentError: Cannot assign a device for operation MatMul: Operation was "
        "explicitly assigned to /device:GPU:1 but available devices are [ "
        "/job:localhost/replica:0/task:0/device:CPU:0, "
        "/job:localhost/replica:0/task:0/device:GPU:0 ]. Make sure the device specification "
        "refers to a valid device."
    )
    assert all(x.cause != "gpu-unseen-no-reason" for x in _explain(text).findings)


def test_a_missing_cudnn_file_names_the_cudnn_major_it_asks_for() -> None:
    report = _explain(
        "2020-02-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/"
        "dso_loader.cc:55] Could not load dynamic library 'libcudnn.so.7'; dlerror: "
        "libcudnn.so.7: cannot open shared object file: No such file or directory"
    )
    (found,) = readings(report)
    assert found.cause == "cuda-libs-missing"
    assert found.fix is not None and "cuDNN 7 (the libcudnn.so.7 it asked for" in found.fix.text


def test_a_bare_oom_is_the_allocators() -> None:
    report = _explain("tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM")
    (found,) = [x for x in report.findings if x.severity.rank >= Severity.WARNING.rank]
    assert found.cause == "gpu-out-of-memory"
    assert found.fix is not None and "batch size" in found.fix.text


@pytest.mark.parametrize(
    ("path", "cause"),
    [
        pytest.param("/usr/local/cuda/lib64", "driver-not-loaded", id="host"),
        # NVIDIA's CUDA images name the directory the runtime mounts the driver into.
        pytest.param(
            "/usr/local/nvidia/lib:/usr/local/nvidia/lib64", "container-no-gpu", id="image"
        ),
    ],
)
def test_the_old_loader_wording_for_libcuda_and_the_image_its_path_shows(
    path: str, cause: str
) -> None:
    line = (
        "I tensorflow/stream_executor/dso_loader.cc:105] Couldn't open CUDA library "
        f"libcuda.so.1. LD_LIBRARY_PATH: {path}\n"
    )
    (problem,) = _problems(_explain(line))
    assert problem.cause == cause
    inferred = "a container of NVIDIA's CUDA images" in problem.detail
    assert inferred is (cause == "container-no-gpu")


def test_the_old_loader_wording_for_a_cuda_library() -> None:
    line = (
        "I tensorflow/stream_executor/dso_loader.cc:99] Couldn't open CUDA library libcudnn.so. "
        "LD_LIBRARY_PATH: \n"
    )
    (problem,) = _problems(_explain(line))
    assert problem.cause == LIBS
    # The profiler's library is not one TensorFlow needs to run.
    cupti = (
        "I tensorflow/stream_executor/dso_loader.cc:142] Couldn't open CUDA library "
        "libcupti.so.9.0. LD_LIBRARY_PATH: /usr/local/cuda-9.0/lib64\n"
    )
    assert _problems(_explain(cupti)) == []


def _fix_of(log: str, cause: str) -> Fix:
    """The fix of the one finding of ``cause`` the log gets."""
    (found,) = [x for x in _explain(log).findings if x.cause == cause]
    assert found.fix is not None
    return found.fix


def test_dockers_daemon_refusing_gpus_asks_for_the_container_toolkit_on_the_host() -> None:
    log = (
        "$ docker run --gpus all tensorflow/tensorflow:latest-gpu python -c 'import tensorflow'\n"
        'docker: Error response from daemon: could not select device driver "" with '
        "capabilities: [[gpu]].\n"
    )
    commands = " ".join(_fix_of(log, "container-no-gpu").commands)
    assert "nvidia-container-toolkit" in commands and "nvidia-ctk runtime configure" in commands
    # The daemon's refusal is the host's side: no advice about loading a kernel module.
    assert "modprobe" not in commands


def test_tensorflow_1s_windows_self_check_names_the_cuda_release_its_dll_is_of() -> None:
    log = (
        "ImportError: Could not find 'cudart64_80.dll'. TensorFlow requires that this DLL be "
        "installed in a directory that is named in your %PATH% environment variable. Download "
        "and install CUDA 8.0 from this URL: https://developer.nvidia.com/cuda-toolkit\n"
    )
    assert "CUDA 8.0" in _fix_of(log, "cuda-libs-missing").text


def test_the_drivers_dll_missing_on_windows_is_a_driver_to_install_not_a_module_to_load() -> None:
    log = (
        "ImportError: Could not find 'nvcuda.dll'. TensorFlow requires that this DLL be "
        "installed in a directory that is named in your %PATH% environment variable.\n"
    )
    fix = _fix_of(log, "driver-not-loaded")
    assert "where.exe nvcuda.dll" in fix.commands
    assert not any("modprobe" in c for c in fix.commands)


_NO_DRIVER_HOST = (
    "2021-03-02 10:00:00.000001: W tensorflow/stream_executor/platform/default/dso_loader.cc:60]"
    " Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared "
    "object file: No such file or directory\n"
    "2021-03-02 10:00:00.000002: E tensorflow/stream_executor/cuda/cuda_driver.cc:313] failed "
    "call to cuInit: UNKNOWN ERROR (303)\n"
    "2021-03-02 10:00:00.000003: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:156] "
    "kernel driver does not appear to be running on this host (box): /proc/driver/nvidia/version "
    "does not exist\n"
)


def test_the_driver_probe_on_a_host_without_one_and_no_gpu_wanted_is_a_note() -> None:
    report = _explain(_NO_DRIVER_HOST + "Epoch 1/3\n")
    assert all(x.severity.rank < Severity.WARNING.rank for x in report.findings), [
        (x.id, x.severity.value) for x in report.findings
    ]


_RUNTIME_PROBED = (
    "2021-03-02 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:60]"
    " Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot "
    "open shared object file: No such file or directory\n"
    "2021-03-02 10:00:00.000001: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore "
    "above cudart dlerror if you do not have a GPU set up on your machine.\n"
)
_OPENED = (
    "2021-03-02 10:00:01.000000: I tensorflow/stream_executor/platform/default/"
    "dso_loader.cc:53] Successfully opened dynamic library {}\n"
)


@pytest.mark.parametrize(
    ("library", "weight"),
    [
        pytest.param("libcuda.so.1", Severity.INFO, id="driver-probe"),
        pytest.param("libcublas.so.11", Severity.ERROR, id="toolkit-library"),
    ],
)
def test_the_driver_library_opened_shows_no_gpu_wanted(library: str, weight: Severity) -> None:
    # A CPU-only VM whose image holds NVIDIA's driver libraries: every start opens libcuda to
    # list devices (its start-up look), which says nothing of a GPU wanted; a toolkit library
    # opened does (it is looked for only once a GPU is visible).
    report = _explain(_RUNTIME_PROBED + _OPENED.format(library))
    [missing] = [x for x in report.findings if x.cause == "cuda-libs-missing"]
    assert missing.severity is weight


@pytest.mark.parametrize(
    "wanted",
    [
        "My RTX 3060 is not detected by TensorFlow.\n",
        "$ nvidia-smi\nNVIDIA-SMI has failed\n",
        # The GPU query a user runs: the same words that keep a missing CUDA runtime from
        # reading as a CPU machine (cpu_machine.gpu_wanted, one list for both readings).
        ">>> tf.config.list_physical_devices('GPU')\n[]\n",
        "pip install tensorflow[and-cuda]\n",
    ],
    ids=["complaint", "nvidia-smi", "gpu-query", "cuda-extra"],
)
def test_the_driver_probe_where_a_gpu_is_wanted_is_no_note(wanted: str) -> None:
    report = _explain(wanted + _NO_DRIVER_HOST)
    assert any(x.severity.rank >= Severity.WARNING.rank for x in report.findings)


@pytest.mark.parametrize(
    "line",
    [
        "ImportError: libhc_am.so: cannot open shared object file: No such file or directory",
        "ImportError: libamdhip64.so.5: cannot open shared object file: No such file or directory",
    ],
)
def test_rocm_runtime_libraries_of_another_release_are_the_rocm_mismatch(line: str) -> None:
    (found,) = _problems(_explain(line + "\n"))
    assert found.cause == "rocm-version-mismatch"
    assert found.fix is not None and "pip show tensorflow-rocm" in found.fix.commands


def test_a_rocm_library_missing_from_the_path_is_not_a_release_mismatch() -> None:
    line = "ImportError: librccl.so.1: cannot open shared object file: No such file or directory\n"
    assert all(x.cause != "rocm-version-mismatch" for x in _explain(line).findings)


def test_rocm_without_a_code_object_for_the_gpu_is_an_unsupported_architecture() -> None:
    line = '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"\n'
    (found,) = _problems(_explain(line))
    assert found.cause == "gpu-arch-unsupported"
    assert found.fix is not None and "gfx" in found.fix.text


def _alternatives(pattern: str) -> list[str]:
    """``pattern``'s alternatives at its outer level (a rough split that serves these
    patterns: no ``|`` is escaped or inside a class)."""
    out, depth, start = [], 0, 0
    for i, char in enumerate(pattern):
        if char == "(" and pattern[i - 1 : i] != "\\":
            depth += 1
        elif char == ")" and pattern[i - 1 : i] != "\\":
            depth -= 1
        elif char == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return out


def _anchored(alternative: str, anchors: tuple[str, ...]) -> bool:
    """Whether each text ``alternative`` matches holds one of ``anchors``: one is among its
    literal words outside its group, or else in each alternative of its group."""
    words = alternative.lower().replace("\\", "")
    if "(?:" not in alternative:
        return any(a in words for a in anchors)
    group = alternative[alternative.index("(?:") + 3 : alternative.rindex(")")]
    outside = alternative.replace(group, "").lower().replace("\\", "")
    return any(a in outside for a in anchors) or all(
        _anchored(inner, anchors) for inner in _alternatives(group)
    )


def test_every_way_a_gpu_is_wanted_holds_an_anchor() -> None:
    # The search tries the pattern only on lines holding an anchor: an alternative without
    # one would never be tried.
    anchors = cpu_machine.GPU_WANTED_ANCHORS
    alternatives = _alternatives(cpu_machine._GPU_WANTED.pattern)
    assert len(alternatives) > 30
    assert [a for a in alternatives if not _anchored(a, anchors)] == []
    # Planted: a way without one is caught.
    assert not _anchored("Found the \\bRadeon\\b", anchors)
    assert not _anchored("(?:use|want)[-_]accelerator", anchors)


def test_gpu_wanted_answers_as_the_pattern_does_over_the_logs() -> None:
    # Each log's head, as explain reads it (evidence.first_text): the anchored search and the
    # pattern over the whole text agree, on logs that show a GPU and logs that do not.
    answers = []
    for log in sorted((Path(__file__).parent / "data" / "logs").glob("*.log")):
        text = log.read_text("utf-8", "replace")[: 16 << 10]
        want = cpu_machine._GPU_WANTED.search(text) is not None
        assert cpu_machine.gpu_wanted(text) is want, log.name
        answers.append(want)
    assert len(set(answers)) == 2
    # Planted: the words on the last line, after lines of other anchors only.
    assert cpu_machine.gpu_wanted("cuda 100\n" * 50 + "x = 1\nfound devices\nA100\n")
    assert not cpu_machine.gpu_wanted("cuda? 1000 times\n" * 50)
    assert cpu_machine.gpu_wanted("NVIDIA H200 here")
    assert not cpu_machine.gpu_wanted("")
