"""Causes in the GPU stack: the NVIDIA driver, the CUDA libraries, the devices TensorFlow sees."""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import (
    TF_PIP_GUIDE,
    Candidate,
    install_fix,
    major_of,
    set_env,
    show_env,
    unset_env,
)
from tfdoctor.causes.conda import (
    CONDA_ACTIVATE_SCRIPT,
    CONDA_LIB_ON_PATH,
    conda_env_install_fix,
    conda_libraries_fix,
    conda_toolkit_line,
)
from tfdoctor.causes.container import CONTAINER_NO_GPU, container_gpu_fix
from tfdoctor.causes.hosted import (
    HOSTED_RUNTIME_WITHOUT_GPU,
    hosted_gpu_runtime_fix,
    sagemaker_without_gpu,
)
from tfdoctor.causes.platform import (
    WINDOWS_NATIVE_GPU_ENDED,
    metal_missing_fix,
    windows_gpu_fix,
)
from tfdoctor.causes.software import PACKAGE_NOT_INSTALLED
from tfdoctor.compat import PTX, SASS, DriverFloor, build_capabilities, gpu_code
from tfdoctor.cuda_layout import (
    cuda_data,
    cuda_knows,
    first_cuda_for,
    lowest_admitted,
    soname_versions,
    wheel_cuda_major,
    wheel_dir,
    wheel_name,
    wheels_share_files,
)
from tfdoctor.evidence import tflog
from tfdoctor.facts import (
    FoundLibrary,
    LibraryCandidate,
    LibraryFacts,
    normalize_name,
    requirement_name,
)
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine, applicable_requirements, venv_pip
from tfdoctor.matrix import TFLine, ranges_meet, spec_contains, version_key
from tfdoctor.version_codes import cuda_dotted, cudnn_dotted

#: The ids of this area's causes, as checks, explain and scan name them.
TF_CPU_ONLY_BUILD: Final = CauseId("tf-cpu-only-build")
DRIVER_NOT_LOADED: Final = CauseId("driver-not-loaded")
GPU_NOT_BOUND: Final = CauseId("gpu-not-bound")
DRIVER_LIBRARIES_MISSING: Final = CauseId("driver-libraries-missing")
DRIVER_VERSION_MISMATCH: Final = CauseId("driver-version-mismatch")
DRIVER_NO_PERMISSION: Final = CauseId("driver-no-permission")
DRIVER_TOO_OLD: Final = CauseId("driver-too-old")
CUINIT_UNKNOWN_ERROR: Final = CauseId("cuinit-unknown-error")
FABRIC_MANAGER_NOT_RUNNING: Final = CauseId("fabric-manager-not-running")
CUDA_LIBS_MISSING: Final = CauseId("cuda-libs-missing")
CUDA_LIBS_OFF_PATH: Final = CauseId("cuda-libs-off-path")
CUDA_WHEELS_UNFOUND: Final = CauseId("cuda-wheels-unfound")
GPU_TOO_FEW_CORES: Final = CauseId("gpu-too-few-cores")
CUDNN_SHADOWED: Final = CauseId("cudnn-shadowed")
CUDA_LIB_SHADOWED: Final = CauseId("cuda-lib-shadowed")
CUDNN_VERSION_MISMATCH: Final = CauseId("cudnn-version-mismatch")
CUDA_WHEEL_PINS: Final = CauseId("cuda-wheel-pins")
GPU_ARCH_UNSUPPORTED: Final = CauseId("gpu-arch-unsupported")
GPU_PTX_JIT: Final = CauseId("gpu-ptx-jit")
CUDA_RELEASE_PREDATES_GPU: Final = CauseId("cuda-release-predates-gpu")
GPU_PTX_DRIVER_TOO_OLD: Final = CauseId("gpu-ptx-driver-too-old")
GPU_KNOWN_FAILURE: Final = CauseId("gpu-known-failure")
GPU_MEMORY_ERRORS: Final = CauseId("gpu-memory-errors")
GPU_UNSEEN_NO_REASON: Final = CauseId("gpu-unseen-no-reason")
CUDA_VISIBLE_DEVICES_HIDDEN: Final = CauseId("cuda-visible-devices-hidden")
MIG_NO_INSTANCES: Final = CauseId("mig-no-instances")
LIBCUDA_STUB: Final = CauseId("libcuda-stub")
ROCM_VERSION_MISMATCH: Final = CauseId("rocm-version-mismatch")
ROCM_LIBS_OFF_PATH: Final = CauseId("rocm-libs-off-path")
NCCL_CUDA_MISMATCH: Final = CauseId("nccl-cuda-mismatch")
NCCL_RELEASE_BUG: Final = CauseId("nccl-release-bug")
TENSORRT_VERSION_MISMATCH: Final = CauseId("tensorrt-version-mismatch")
TF_BUILD_WITHOUT_TENSORRT: Final = CauseId("tf-build-without-tensorrt")
TENSORRT_ENGINE_STALE: Final = CauseId("tensorrt-engine-stale")

#: AMD's table of the TensorFlow releases each ROCm release supports; tensorflow-rocm's
#: version is ``<TensorFlow version>.<ROCm version without dots>`` (2.14.0.600: ROCm 6.0.0).
ROCM_TF_MATRIX = (
    "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.3.0/reference/"
    "3rd-party-support-matrix.html"
)

#: AMD's page for TensorFlow on ROCm: the ROCm release each tensorflow-rocm release is built
#: for, its wheels on PyPI before ROCm 6.1 and on repo.radeon.com from 6.1.
ROCM_TF_INSTALL = (
    "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.2/install/3rd-party/"
    "tensorflow-install.html"
)
#: AMD's installer script for ROCm's packages on the distributions it supports
#: (``amdgpu-install --usecase=rocm``).
ROCM_AMDGPU_INSTALL = (
    "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.0.2/how-to/amdgpu-install.html"
)

#: TensorFlow's Bazel rule that finds ROCm for a source build: ROCM_PATH (default /opt/rocm),
#: TF_ROCM_AMDGPU_TARGETS, and its "Cannot find rocm library NAME" when a library is not found.
ROCM_CONFIGURE = (
    "https://github.com/tensorflow/tensorflow/blob/v2.2.0/third_party/gpus/rocm_configure.bzl"
)

#: NVIDIA's NCCL packages, one build per CUDA release (libnccl2=2.x.y-1+cudaX.Y), and what
#: ncclUnhandledCudaError means: a CUDA call inside NCCL failed.
NCCL_INSTALL_GUIDE = "https://docs.nvidia.com/deeplearning/nccl/install-guide/index.html"
NCCL_RESULT_TYPES = (
    "https://docs.nvidia.com/deeplearning/nccl/archives/nccl_2143/user-guide/docs/api/types.html"
)

#: Causes in the driver, the CUDA libraries and the devices.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            TF_CPU_ONLY_BUILD,
            "A CPU-only TensorFlow on a machine with an NVIDIA GPU",
            "CPU builds (tensorflow-cpu; plain tensorflow 1.15 and 2.0, whose GPU build is "
            "tensorflow-gpu; the Linux aarch64, native Windows 2.11+ and macOS wheels) never use "
            "CUDA GPUs.",
            TF_PIP_GUIDE,
        ),
        define(
            DRIVER_NOT_LOADED,
            "The NVIDIA kernel driver is not loaded",
            "A GPU is on the PCI bus but the nvidia kernel module is not loaded (not installed "
            "for this kernel, blocked by Secure Boot, or nouveau holds the device).",
            "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/",
        ),
        define(
            GPU_NOT_BOUND,
            "The nvidia module is loaded, but no GPU is bound to it",
            "nvidia-smi prints 'No devices were found': NVML starts (the kernel module runs) and "
            "counts no GPU. The GPU is held by another driver (vfio-pci, kept for a virtual "
            "machine; nouveau), the nvidia module's probe refused it (a GPU this driver release "
            "does not support, or an initialisation failure the kernel log shows), it fell off "
            "the bus (Xid 79), or, in a container, none was handed in with the driver.",
            "https://docs.nvidia.com/deploy/xid-errors/index.html",
            "https://docs.kernel.org/driver-api/vfio.html",
        ),
        define(
            DRIVER_LIBRARIES_MISSING,
            "The NVIDIA driver's user-space libraries are missing",
            "The GPU's device nodes exist but libnvidia-ml.so.1 and libcuda.so.1 are not "
            "installed: a broken or partial driver installation.",
            "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/",
        ),
        define(
            DRIVER_VERSION_MISMATCH,
            "NVIDIA kernel module and libraries differ",
            "The loaded kernel module and the user-space driver libraries are different versions,"
            " typically after a driver upgrade without a reboot.",
        ),
        define(
            DRIVER_NO_PERMISSION,
            "No permission to open the GPU's device nodes",
            "This user cannot open the GPU's device nodes (/dev/nvidia* for NVIDIA's driver; "
            "/dev/kfd and /dev/dri/renderD* for ROCm's, which belong to the render or video "
            "group); CUDA or HIP then reports no device. NVIDIA's driver also keeps the GPU's "
            "performance counters, which profilers read, to administrators by default.",
            "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.3.0/install/prerequisites.html",
        ),
        define(
            DRIVER_TOO_OLD,
            "The NVIDIA driver is too old for the build's CUDA",
            "Each CUDA version needs a minimum driver; an older one makes TensorFlow report "
            "'driver version is insufficient' and use no GPU.",
            "https://docs.nvidia.com/deploy/cuda-compatibility/index.html",
        ),
        define(
            CUINIT_UNKNOWN_ERROR,
            "cuInit fails with CUDA_ERROR_UNKNOWN",
            "cuInit returns 999 most often after a suspend/resume cycle, when the nvidia_uvm "
            "module lost its state; reloading it restores CUDA.",
            "https://forums.developer.nvidia.com/t/cuda-fails-after-suspend/",
        ),
        define(
            FABRIC_MANAGER_NOT_RUNNING,
            "CUDA will not start until the system is ready (NVIDIA Fabric Manager)",
            "CUDA refuses to start with CUDA_ERROR_SYSTEM_NOT_READY (802, 'system not yet "
            "initialized') until the driver's daemons run. On machines whose GPUs are joined by "
            "NVSwitch (HGX and DGX A100, H100, B200) that is NVIDIA Fabric Manager: while it is "
            "stopped, still setting up the fabric, or of another version than the driver, "
            "nvidia-smi lists the GPUs but no CUDA program can use them.",
            "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html",
            "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html",
        ),
        define(
            CUDA_LIBS_MISSING,
            "CUDA libraries TensorFlow needs are not installed",
            "TensorFlow's GPU build loads the CUDA runtime, cuBLAS, cuFFT, cuSPARSE, cuSOLVER, "
            "cuRAND and cuDNN of its CUDA version at start; without them it skips the GPU "
            "('Cannot dlopen some GPU libraries').",
            TF_PIP_GUIDE,
        ),
        define(
            CUDA_LIBS_OFF_PATH,
            "CUDA libraries installed where the loader does not look",
            "The libraries exist on this machine, but not on the dynamic loader's path "
            "(LD_LIBRARY_PATH, TensorFlow's RUNPATH, the ldconfig cache).",
            "https://man7.org/linux/man-pages/man8/ld.so.8.html",
        ),
        define(
            CUDA_WHEELS_UNFOUND,
            "This release does not find its own CUDA wheels",
            "The nvidia-* wheels its and-cuda extra installs are there, but this release's "
            "libraries do not search their directories.",
            "https://github.com/tensorflow/tensorflow/issues/63362",
        ),
        define(
            CUDNN_SHADOWED,
            "Another cuDNN comes first on the loader's path",
            "The dynamic loader searches LD_LIBRARY_PATH before TensorFlow's RUNPATH and the "
            "ldconfig cache: a stray copy there wins over the right one.",
        ),
        define(
            CUDA_LIB_SHADOWED,
            "Another copy of a CUDA library comes first on the loader's path",
            "The dynamic loader searches LD_LIBRARY_PATH before TensorFlow's RUNPATH and the "
            "ldconfig cache: a copy of another version there wins over the pip wheel's.",
        ),
        define(
            CUDNN_VERSION_MISMATCH,
            "cuDNN of the wrong version",
            "TensorFlow refuses a cuDNN of another major, or an older minor than its build "
            "('Loaded runtime CuDNN library: X but source was compiled with: Y').",
            "https://www.tensorflow.org/install/source#gpu",
        ),
        define(
            CUDA_WHEEL_PINS,
            "NVIDIA wheels outside TensorFlow's pins",
            "The nvidia-* wheels differ from the versions TensorFlow's and-cuda extra pins, often"
            " because another framework in the environment pulled its own.",
            TF_PIP_GUIDE,
        ),
        define(
            GPU_ARCH_UNSUPPORTED,
            "The wheel carries no code for this GPU",
            "No TensorFlow kernel runs on a GPU for which the wheel has neither machine code "
            "it runs (of its major version, at its minor or a lower one) nor PTX of its "
            "capability or an older one: below the lowest capability its release lists "
            "TensorFlow ignores it ('Ignoring visible gpu device ... with Cuda compute "
            "capability'); at or above it TensorFlow lists it, and its operations fail ('no "
            "kernel image is available for execution on the device').",
            "https://developer.nvidia.com/cuda-gpus",
        ),
        define(
            GPU_TOO_FEW_CORES,
            "TensorFlow ignores a GPU with few multiprocessors",
            "TensorFlow skips a GPU with fewer streaming multiprocessors than "
            "TF_MIN_GPU_MULTIPROCESSOR_COUNT, which unless set is the smaller of 8 and the "
            "largest count among the visible GPUs: a small display GPU beside a bigger one is "
            "left out, and the bigger one is used. Lowering the variable lets it in.",
            "https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/core/common_runtime/gpu/gpu_device.cc",
        ),
        define(
            CUDA_RELEASE_PREDATES_GPU,
            "The build's CUDA release is older than the GPU's architecture",
            "Each GPU architecture is first known to one CUDA release (Turing, compute "
            "capability 7.5, to CUDA 10.0; Ampere's 8.6 to CUDA 11.1). A TensorFlow built with "
            "an older CUDA, and the cuBLAS, cuDNN and cuFFT of that release, have no code for "
            "the GPU: at best the driver compiles PTX for it at first use, and the libraries' "
            "handles and plans fail ('failed to create cublas handle', 'Could not create cudnn "
            "handle', 'failed to make cuFFT batched plan') although memory is free. Unlike a "
            "wheel built without one architecture its CUDA could target, no build of that CUDA "
            "release fixes it: a TensorFlow built with a newer CUDA does.",
            "https://docs.nvidia.com/cuda/turing-compatibility-guide/index.html",
            "https://docs.nvidia.com/cuda/ampere-compatibility-guide/index.html",
            "https://www.tensorflow.org/install/source#gpu",
        ),
        define(
            GPU_PTX_JIT,
            "The wheel has only PTX for this GPU",
            "Without machine code for the GPU the driver compiles every kernel from PTX at "
            "first use, which takes minutes; a release with machine code for it starts at once.",
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#just-in-time-compilation",
        ),
        define(
            GPU_PTX_DRIVER_TOO_OLD,
            "The driver is too old for the wheel's PTX for this GPU",
            "Without machine code for the GPU every kernel is compiled from the wheel's PTX by "
            "the driver, which accepts PTX only from CUDA releases it supports: TensorFlow "
            "lists the GPU, then its kernels fail ('CUDA_ERROR_UNSUPPORTED_PTX_VERSION', 'the "
            "provided PTX was compiled with an unsupported toolchain').",
            "https://docs.nvidia.com/deploy/cuda-compatibility/index.html",
        ),
        define(
            ROCM_VERSION_MISMATCH,
            "tensorflow-rocm was built for another ROCm release than the one installed",
            "tensorflow-rocm links the ROCm runtime libraries of the release it was built for "
            "by their versioned names (libamdhip64.so.4, librocblas.so.0); another ROCm "
            "release installs other names, or other binaries: the import fails to load them, "
            "or the process aborts once they are loaded. ROCm 3.5 replaced the HCC runtime "
            "(libmcwamp, libhc_am) with HIP-Clang's: wheels built before it need libraries "
            "later ROCm releases do not have (some keep a compatibility link, libhip_hcc, "
            "under /opt/rocm/hip/lib, off the loader's default path).",
            ROCM_TF_MATRIX,
        ),
        define(
            ROCM_LIBS_OFF_PATH,
            "ROCm's libraries are installed where TensorFlow does not look",
            "TensorFlow's build configuration (third_party/gpus/rocm_configure.bzl) looks for "
            "each ROCm library under ROCM_PATH, /opt/rocm unless set, in the directories its "
            "release knows (lib, and the per-component hip/lib, rocblas/lib, miopen/lib of older "
            "layouts), and the built wheel's loader looks where its RUNPATH and the loader's "
            "path say. ROCm installed under another prefix (/opt/rocm-X.Y.Z without the "
            "/opt/rocm link, a distribution's packages) or a library in a directory of another "
            "layout is reported missing although it is on the disk. Where the ROCm release the "
            "wheel was built for is not installed at all, tensorflow-rocm skips the GPU with "
            "the CUDA build's words ('Cannot dlopen some GPU libraries'): the libraries it "
            "wants are still ROCm's, never CUDA's or cuDNN's.",
            ROCM_CONFIGURE,
            "https://rocm.docs.amd.com/en/docs-5.7.0/understand/file_reorg.html",
            ROCM_TF_INSTALL,
            ROCM_AMDGPU_INSTALL,
        ),
        define(
            GPU_KNOWN_FAILURE,
            "This release is known to fail on this GPU",
            "Reported failures of the release's wheels on this GPU generation.",
            "https://github.com/tensorflow/tensorflow/issues/101746",
        ),
        define(
            GPU_MEMORY_ERRORS,
            "The GPU reports uncorrected memory errors",
            "Uncorrectable ECC errors mean the GPU returned corrupted memory: results are wrong "
            "and kernels crash until the pages are retired (at the next driver reload) or the "
            "card is replaced.",
            "https://docs.nvidia.com/deploy/dynamic-page-retirement/index.html",
        ),
        define(
            GPU_UNSEEN_NO_REASON,
            "TensorFlow lists no GPU and the evidence does not say why",
            "The driver lists the GPUs and the libraries load, yet TensorFlow registers none; "
            "nothing collected names the cause, so its own log while it lists devices is the "
            "next evidence to read (tfdoctor explain reads it).",
        ),
        define(
            CUDA_VISIBLE_DEVICES_HIDDEN,
            "CUDA_VISIBLE_DEVICES hides the GPUs",
            "CUDA numbers devices from 0 and stops at the first invalid entry: an empty, negative"
            " or out-of-range value hides every GPU.",
        ),
        define(
            MIG_NO_INSTANCES,
            "MIG mode is on, but no MIG device is there for CUDA to use",
            "A GPU in Multi-Instance GPU mode runs CUDA only inside its MIG devices (a GPU "
            "instance with a compute instance): until they are created, CUDA finds no device on "
            "it although nvidia-smi lists the GPU. Creating them, or turning MIG mode off, "
            "takes root on the machine that owns the GPU.",
            "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/getting-started-with-mig.html",
        ),
        define(
            LIBCUDA_STUB,
            "The CUDA toolkit's stub libcuda loads instead of the driver's",
            "The toolkit's lib64/stubs/libcuda.so is for linking only: every call returns "
            "CUDA_ERROR_STUB_LIBRARY (34). It loads where its directory comes before the "
            "driver's library on the loader's path, or stands in where the driver's is absent: "
            "images built from TensorFlow's GPU Dockerfiles register it (z-cuda-stubs.conf) "
            "and answer with it in a container started without GPU access.",
            "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html",
        ),
        define(
            NCCL_CUDA_MISMATCH,
            "NCCL was built for another CUDA release than the one in use",
            "NCCL is built for one CUDA release (NVIDIA ships a libnccl2 package per CUDA "
            "release, pip an nvidia-nccl-cuXX wheel per major) and makes its own CUDA calls "
            "as it sets up a communicator: an NCCL of another release than the framework's "
            "CUDA and the driver (one installed separately, or one that loads ahead of the "
            "framework's own) fails them, and the collective stops with NCCL's 'unhandled "
            "cuda error' (ncclUnhandledCudaError).",
            NCCL_INSTALL_GUIDE,
            NCCL_RESULT_TYPES,
        ),
        define(
            NCCL_RELEASE_BUG,
            "An NCCL release with a known bug in the path the collective took",
            "NCCL 2.4 before 2.4.6 gave the shared-memory segments of two ranks on one host "
            "the same name once its trees connect them in both directions: registering the "
            "segment with CUDA (cudaHostRegister, include/shm.h) fails with 'invalid "
            "argument', the communicator never forms and the job hangs. NCCL 2.4.6 names each "
            "segment by both ranks.",
            "https://github.com/NVIDIA/nccl/commit/14e0cf644b9ba2214f2b6d2e299e8218f6145d32",
            "https://github.com/NVIDIA/nccl/issues/185",
            "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-shm-disable",
        ),
        define(
            TENSORRT_VERSION_MISMATCH,
            "TF-TRT loaded another TensorRT release than TensorFlow was built against",
            "TensorFlow's TensorRT converter (TF-TRT) is linked against one TensorRT release "
            "and loads libnvinfer from the loader's path: TensorFlow 2 refuses one of another "
            "major or older than the linked one, TensorFlow 1.x warns of any other release "
            "('Things may not work') and refuses an older major.",
            "https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/python/compiler/"
            "tensorrt/trt_convert.py",
            "https://docs.nvidia.com/deeplearning/frameworks/tf-trt-user-guide/index.html",
        ),
        define(
            TENSORRT_ENGINE_STALE,
            "A serialized TensorRT engine was built by another TensorRT release or for another GPU",
            "A TensorRT engine (a plan file, or the engines a TF-TRT SavedModel was saved with) "
            "runs only with the TensorRT release and the GPU architecture that built it; "
            "another release or GPU refuses to deserialize it ('Version tag does not match', "
            "'please rebuild').",
            "https://docs.nvidia.com/deeplearning/tensorrt/developer-guide/index.html",
            "https://docs.nvidia.com/deeplearning/frameworks/tf-trt-user-guide/index.html",
        ),
        define(
            TF_BUILD_WITHOUT_TENSORRT,
            "The installed TensorFlow was built without TensorRT",
            "TF-TRT (tensorflow.python.compiler.tensorrt, tf.experimental.tensorrt) exists only "
            "in TensorFlow builds made with TensorRT support: the Linux GPU packages up to 2.17 "
            "and NVIDIA's TensorFlow containers. The CPU-only package and the Windows and macOS "
            "builds leave the module out or answer is_tensorrt_enabled() with False, and "
            "trt_convert.py then raises 'Tensorflow has not been built with TensorRT support'; "
            "TensorFlow 2.18 disabled TensorRT in its CUDA builds. Installing TensorRT does not "
            "add TF-TRT to such a build.",
            "https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/python/compiler/"
            "tensorrt/trt_convert.py",
            "https://github.com/tensorflow/tensorflow/releases/tag/v2.18.0",
            "https://docs.nvidia.com/deeplearning/frameworks/tf-trt-user-guide/index.html",
        ),
    )
)


CUDA_ARCHIVE = "https://developer.nvidia.com/cuda-toolkit-archive"


CUDNN_ARCHIVE = "https://developer.nvidia.com/rdp/cudnn-archive"


def shadow_fix(m: Machine, lib: LibraryFacts, good: LibraryCandidate) -> Fix:
    """The right copy of ``lib`` loses to the selected one earlier on the path.

    The stray directory comes off ``LD_LIBRARY_PATH``; where it also serves other libraries
    TensorFlow loads (a toolkit's lib64), the right copy's directory goes first instead.
    """
    assert lib.selected is not None
    chosen = lib.candidates[lib.selected]
    stray = str(PurePosixPath(chosen.path).parent)
    right = str(PurePosixPath(good.path).parent)
    libs = m.facts.cuda_libs
    serves_others = any(
        other.name != lib.name
        and other.selected is not None
        and str(PurePosixPath(other.candidates[other.selected].path).parent) == stray
        for other in (libs.libraries if libs is not None else ())
    )
    if chosen.origin != "LD_LIBRARY_PATH" or serves_others:
        return Fix(
            f"Put {right} (its {lib.name} {good.version or ''}".rstrip()
            + f") ahead of {stray} on the loader's path.",
            (m.ld_path_with((right,)),),
        )
    return ld_remove_fix(m, stray, f"the right {lib.name}")


def few_cores_fix(m: Machine, cores: Optional[str]) -> Fix:
    """TF_MIN_GPU_MULTIPROCESSOR_COUNT at or below the GPU's multiprocessors."""
    count = cores or "1"
    return Fix(
        "TensorFlow left this GPU out because a GPU with more multiprocessors is present (or "
        "TF_MIN_GPU_MULTIPROCESSOR_COUNT asks for more), and it uses that one. Only if this "
        f"one should run work too, set TF_MIN_GPU_MULTIPROCESSOR_COUNT to {count} or less "
        "before TensorFlow starts; a GPU this small often slows the bigger one down.",
        set_env(m, ("TF_MIN_GPU_MULTIPROCESSOR_COUNT", count)),
    )


def libcuda_link_fix(wsl: bool) -> Fix:
    """The driver's library under its unversioned name: WSL2's directory on the loader's path,
    else the link beside libcuda.so.1."""
    if wsl:
        return Fix(
            "WSL2 keeps the driver's libcuda.so in /usr/lib/wsl/lib, which the loader does not "
            "search by default: put it on the loader's path (in ~/.bashrc too).",
            (Machine.ld_path_with(("/usr/lib/wsl/lib",)),),
        )
    return Fix(
        "cuDNN opens the driver's library as libcuda.so, a link only the driver's development "
        "files provide: on WSL2 put /usr/lib/wsl/lib on the loader's path; elsewhere create "
        "the link beside libcuda.so.1 (the directory ldconfig lists it in).",
        (
            "ldconfig -p | grep libcuda.so",
            'sudo ln -s libcuda.so.1 "$(dirname "$(ldconfig -p | awk \'/libcuda.so.1 /'
            ' {print $NF; exit}\')")/libcuda.so" && sudo ldconfig',
        ),
    )


def wheel_dirs_fix(python: str = "python") -> Fix:
    """The nvidia-* wheels' lib directories on the loader's path, listed by the environment's
    own Python (``python``) from every directory of the ``nvidia`` namespace package; the line
    stops, instead of setting an empty entry, where it finds none."""
    find = (
        f"{python} -c 'import glob, os, sys, nvidia; d = [p for r in nvidia.__path__ for p in "
        'sorted(glob.glob(os.path.join(r, "*", "lib")))]; '
        'print(":".join(d)) if d else sys.exit("no nvidia-* wheel directories")\''
    )
    return Fix(
        "The CUDA libraries were installed as pip wheels (the and-cuda extra, or NVIDIA's "
        "nvidia-* wheels by hand), but this "
        "TensorFlow did not find them in the environment: put the wheels' lib directories "
        "on the loader's path, using the environment's own Python (`poetry run python`, "
        "`uv run python`, the venv's bin/python), and in the job script or the venv's "
        "activate script so it lasts.",
        (f'D="$({find})" && export LD_LIBRARY_PATH="$D${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"',),
    )


def mixed_release_fix(path: str, symbol: str, partner: str) -> Fix:
    """A CUDA library that loaded but misses a symbol of the library it links (``undefined
    symbol: X, version libcublasLt.so.11``): the two files on the loader's path come from
    different releases, and the older one wins the search."""
    needs = partner or "the libraries it links"
    return Fix(
        f"{path} is found but needs {symbol} from {needs}, and the copy of {needs} the loader "
        "found first is of another release: two CUDA installs are mixed on the loader's "
        "path (a toolkit, a conda cudatoolkit, pip's nvidia-* wheels). ldd shows which copy "
        "each name resolves to; put the directory that holds both files of one release first "
        "on LD_LIBRARY_PATH, or take the other one off it.",
        (f"ldd {shlex.quote(path)}", "echo $LD_LIBRARY_PATH"),
    )


def mixed_cudnn_fix(m: Machine) -> Fix:
    """cuDNN's own check that its parts are of one release failed: the copies the loader and
    pip can find, so that one release stays on the loader's path (PATH's DLLs on Windows)."""
    # cuDNN 8 split the library into parts (libcudnn_ops_infer, libcudnn_cnn_infer, ...; 9:
    # libcudnn_graph, libcudnn_engines_*) that check each other's version as they load and
    # answer CUDNN_STATUS_VERSION_MISMATCH (9: SUBLIBRARY_VERSION_MISMATCH) when they differ.
    # Windows finds the DLLs (cudnn64_8.dll, cudnn_ops_infer64_8.dll) on PATH, not ldconfig's.
    windows = m.os == "windows"
    return Fix(
        "cuDNN found its own parts of different releases: two cuDNN installs are mixed on the "
        "loader's path (a system or toolkit cuDNN, a conda cudnn, pip's nvidia-cudnn wheel, "
        "another framework's in the same environment). List the copies, keep the one of the "
        "release TensorFlow was built for, and take the others' directories off "
        f"{'PATH' if windows else 'LD_LIBRARY_PATH'} or uninstall them.",
        (
            "where.exe cudnn*.dll",
            *m.pip_look("list", " | findstr /i cudnn"),
            "echo %PATH%",
        )
        if windows
        else (
            *_library_search(("cudnn",)),
            *m.pip_look("list", " 2>/dev/null | grep -i cudnn"),
            "echo $LD_LIBRARY_PATH",
        ),
    )


def ld_remove_fix(m: Machine, directory: str, what: str) -> Fix:
    """Take ``directory`` off ``LD_LIBRARY_PATH`` so ``what`` loads from the right place."""
    return Fix(
        f"Take {directory} off the loader's path so {what} loads (and remove it where "
        "LD_LIBRARY_PATH is set: ~/.bashrc, the job script, the module).",
        (m.ld_path_without(directory),),
    )


def _usable_elsewhere(m: Machine, missing: tuple[str, ...]) -> list[FoundLibrary]:
    """Copies off the loader's path of the missing libraries, of the build's major."""
    libs = m.facts.cuda_libs
    if libs is None:
        return []
    cuda_major = major_of(m.build_cuda) or libs.cuda_major
    cudnn_major = major_of(m.build_cudnn) or libs.cudnn_major
    out = []
    for found in libs.elsewhere:
        if found.name not in missing:
            continue
        want = cudnn_major if found.name == "cudnn" else cuda_major
        have = major_of(found.version)
        # Before CUDA 11 the sonames and DLL names carry the minor (libcudart.so.10.1,
        # cudart64_101.dll): a 10.2 toolkit does not serve a 10.1 build.
        old_cuda = m.build_cuda is not None and version_key(m.build_cuda)[:1] < (11,)
        if (
            found.name == "cudart"
            and old_cuda
            and found.version
            and version_key(found.version)[:2] != version_key(m.build_cuda or "")[:2]
        ):
            continue
        if found.name != "nccl" and have is not None and want is not None and have != want:
            continue
        # cuDNN refuses an older minor than the build's, whatever the file's major.
        build_cudnn = m.build_cudnn
        if (
            found.name == "cudnn"
            and found.version
            and build_cudnn
            and not cudnn_serves(found.version, build_cudnn)
        ):
            continue
        out.append(found)
    return out


def cudnn_serves(loaded: str, build: str) -> bool:
    """cuDNN refuses a runtime of another major, or an older minor than the build ("Loaded
    runtime CuDNN library: X but source was compiled with: Y. CuDNN library needs to have
    matching major version and equal or higher minor version", cuda_dnn.cc). A version read
    from a file name has the major only: compare what both have; the patch level is not
    asked (the check compares major and minor alone)."""
    have, need = version_key(loaded)[:2], version_key(build)[:2]
    n = min(len(have), len(need))
    return have[:1] == need[:1] and have[:n] >= need[:n]


def off_path_fix(m: Machine, found: list[FoundLibrary]) -> Fix:
    """The one path line that makes libraries found off the path visible."""
    modules = sorted({f.module for f in found if f.module})
    if modules:
        return Fix(
            "Load the environment module that puts these libraries on the loader's path "
            "(in the job script too).",
            tuple(f"module load {name}" for name in modules),
        )
    dirs = tuple(dict.fromkeys(str(PurePosixPath(f.path).parent) for f in found))
    if m.os == "windows":
        win = tuple(dict.fromkeys(str(PureWindowsPath(f.path).parent) for f in found))
        return Fix(
            "Add the directories holding these DLLs to PATH (System Properties > Environment "
            "Variables), then open a new terminal.",
            tuple(f'setx PATH "%PATH%;{d}"' for d in win),
        )
    text = "Put the directories holding these libraries on the loader's path"
    if m.in_conda:
        text += f" (for this conda environment: add the line to {CONDA_ACTIVATE_SCRIPT})"
    else:
        text += (
            " (add the line to ~/.bashrc or the job script; or list the directories in "
            "/etc/ld.so.conf.d/ and run `sudo ldconfig`)"
        )
    return Fix(text + ".", (m.ld_path_with(dirs),))


def shown_copy_fix(m: Machine, copies: Sequence[tuple[str, str]], rest: Sequence[str] = ()) -> Fix:
    """The path line for CUDA libraries the loader did not find though the log shows them on
    the disk (``copies``: each file's path and its directory, as shown); ``rest``: libraries
    (``cusolver``) that did not load and that the log does not show anywhere."""
    files = ", ".join(dict.fromkeys(path for path, _ in copies))
    dirs = tuple(dict.fromkeys(directory for _, directory in copies))
    text = (
        f"The log shows {files} on the disk, yet the loader did not find it: its directory is "
        "not on the loader's search path in the process that failed (a program started from an "
        "IDE, a desktop launcher, sudo, a service or a notebook server does not get the "
        "shell's environment). "
    )
    if any(PureWindowsPath(d).drive for d in dirs):
        # Windows finds a DLL TensorFlow loads by name through PATH; setx would cut a PATH
        # longer than 1024 characters, so the user's Path is extended through .NET instead.
        text += (
            "Put that directory first on PATH: for this window (the first command, then start "
            "the program from it), or for good in the user's Path (the second, in PowerShell; "
            "then open a new window)."
        )
        commands: tuple[str, ...] = (
            *(f'set "PATH={d};%PATH%"' for d in dirs),
            "[Environment]::SetEnvironmentVariable('Path', '"
            + ";".join(dirs)
            + ";' + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')",
        )
    else:
        text += _loader_path_line(m)
        commands = (m.ld_path_with(dirs),)
    if rest:
        # Shown missing and not shown anywhere: the search decides whether it is installed.
        text += (
            f" The log does not show {', '.join(rest)} on the disk: if the commands below find "
            "no copy, install it beside the others."
        )
        commands = (*commands, *_library_search(rest))
    return Fix(text, commands)


def _loader_path_line(m: Machine) -> str:
    """Where a directory goes on the loader's path so the process that failed gets it (the
    shell's own environment does not reach an IDE's, a service's or sudo's)."""
    return (
        "Put that directory first on LD_LIBRARY_PATH where the program starts (~/.bashrc, the "
        "job script, the IDE's run configuration, `sudo env "
        'LD_LIBRARY_PATH="$LD_LIBRARY_PATH" ...` through sudo), or for every process list it '
        "in a file under /etc/ld.so.conf.d/ and run `sudo ldconfig`."
        + (
            f" For this conda environment, the line goes into {CONDA_ACTIVATE_SCRIPT}."
            if m.in_conda
            else ""
        )
    )


def cudnn_majors_in_words(m: Machine) -> str:
    """The TensorFlow lines by the cuDNN major their builds load, from the matrix (``cuDNN 9:
    2.18 to 2.20; cuDNN 8: 2.4 to 2.17``), newest first; the installed line's alone where it
    is known; empty without a matrix."""
    if m.matrix is None:
        return ""
    if m.line is not None and m.line.cudnn:
        major = m.line.cudnn.split(".", 1)[0]
        return f"TensorFlow {m.line.line} loads cuDNN {major}, from the matrix"
    spans: list[tuple[str, list[str]]] = []
    for line in sorted(m.matrix.lines, key=lambda x: version_key(x.line)):
        if not line.cudnn or not line.cuda or "rc" in line.latest_patch:
            continue
        major = line.cudnn.split(".", 1)[0]
        if spans and spans[-1][0] == major:
            spans[-1][1].append(line.line)
        else:
            spans.append((major, [line.line]))
    words = [
        f"cuDNN {major}: {names[0]}" + (f" to {names[-1]}" if len(names) > 1 else "")
        for major, names in reversed(spans)
    ]
    return "the TensorFlow lines by the cuDNN major their builds load: " + "; ".join(words)


def cudnn_major_candidate_fix(m: Machine) -> Fix:
    """The candidate where TensorFlow skipped the GPU for libraries the log does not name: a
    cuDNN installed of another major than the build loads (TensorFlow asks for cuDNN by its
    major, libcudnn.so.N: a cuDNN 8 does not serve a build that loads 9), how to tell and the
    fix."""
    majors = cudnn_majors_in_words(m)
    listing = (
        ("where.exe cudnn64_*.dll",)
        if m.os == "windows"
        else (
            "ldconfig -p | grep -E 'libcudnn\\.so'",
            *m.pip_look("list", " 2>/dev/null | grep -i cudnn"),
        )
    )
    # The cuDNN of the build, got the release's own way (the one home of that fix: a pip
    # wheel only where the release searches or is pointed at it, conda inside conda).
    own = cuda_libraries_fix(m, ("cudnn",))[1]
    return Fix(
        "If the cuDNN installed is of another major than this TensorFlow's build loads "
        "(TensorFlow asks for cuDNN by its major: a build that loads cuDNN 9 is not served by "
        "a cuDNN 8)"
        + (f" ({majors})" if majors else "")
        + ": install the TensorFlow whose build loads the cuDNN you have, or the cuDNN major "
        f"of the build: {own.text[:1].lower()}{own.text[1:]}",
        tuple(dict.fromkeys((*listing, *own.commands))),
    )


def off_path_candidate_fix(m: Machine, names: Sequence[str]) -> Fix:
    """The second candidate where the log cannot tell whether CUDA libraries the loader did
    not find (``names``: ``cudart``, ``cublas``) are absent or installed off its path: how to
    find a copy, and the path line for the directory that holds it, where the program starts
    (an IDE, a service, sudo or a notebook server does not get the shell's environment)."""
    shown = ", ".join(names) or "the CUDA libraries"
    started = (
        "A program started from an IDE or a desktop launcher, by a service, through sudo or by "
        "a notebook server does not get the environment of the shell that set it."
    )
    if m.os == "windows":
        # CUDA's and cuDNN's DLLs are named lib-less with the bitness: cudart64_110.dll;
        # zlib's, which cuDNN 8.3-8.9 loads, has neither (zlibwapi.dll).
        dlls = " ".join(
            f"{n}.dll" if n == "zlibwapi" else f"{n}64_*.dll"
            for n in (names or ("cudart", "cudnn"))[:6]
        )
        return Fix(
            f"If a copy of {shown} is on the disk (the command searches the CUDA toolkits' "
            "folders), the folder that holds it is not on PATH in the process that failed: put "
            "it first on PATH (System Properties > Environment Variables, then a new window). "
            + started,
            (f'where.exe /R "C:\\Program Files\\NVIDIA GPU Computing Toolkit" {dlls}',),
        )
    return Fix(
        f"If the commands find a copy of {shown}, its directory is not on the loader's search "
        "path in the process that failed (export LD_LIBRARY_PATH=<that directory>:"
        f"$LD_LIBRARY_PATH). {_loader_path_line(m)} {started}",
        _library_search(names or ("cudart", "cudnn")),
    )


def shown_cudnn_shadow_fix(
    m: Machine, loaded: str, need: str, version: str, path: str, directory: str
) -> Fix:
    """An older cuDNN (``loaded``) loaded ahead of one the log shows on the disk (``version``
    at ``path``) that meets the build's ``need``: the right one's directory first, the older
    one found to be taken off the path."""
    return Fix(
        f"The log shows cuDNN {version} at {path}, which meets this build's cuDNN {need}, yet "
        f"the process loaded cuDNN {loaded}: an older copy comes first on the loader's path "
        "(another toolkit's lib64, a system package, a second framework's libraries in the "
        f"same environment). Put {directory} first on the loader's path, and take the older "
        "copy off it (the last commands list every cuDNN the loader's cache and the disk "
        "hold).",
        (m.ld_path_with((directory,)), *_library_search(("cudnn",))),
    )


def cudnn_copies_fix(m: Machine, loaded: str, need: str, copies: Sequence[str]) -> Fix:
    """One cuDNN file the log shows in several directories (``copies``, in the order shown)
    while the process loaded cuDNN ``loaded``, older than the build's ``need``: the loader took
    the copy first in its order, and the one to keep is a cuDNN ``need`` or newer."""
    windows = any("\\" in c or re.match(r"[A-Za-z]:", c) for c in copies)
    # Windows' standard search order for a DLL loaded by name: the application's directory,
    # then System32 and the Windows directory, and PATH's directories last, in order
    # (https://learn.microsoft.com/windows/win32/dlls/dynamic-link-library-search-order);
    # NVIDIA's installers put cuDNN in the CUDA toolkit's bin or cuDNN's own, never System32.
    # Linux: LD_LIBRARY_PATH's directories, then the library's RUNPATH, then the ld.so cache
    # (ld.so(8)).
    order = (
        "a copy in the Windows directory or System32 comes before every PATH directory, then "
        "PATH's directories in order"
        if windows
        else "LD_LIBRARY_PATH's directories first, then the library's run path, then the "
        "ld.so cache"
    )
    # The file bears the major only; on Linux it links to the file named with the full version
    # (libcudnn.so.8 -> libcudnn.so.8.1.0), which readlink -f prints.
    listing = (
        "where.exe cudnn64_*.dll"
        if windows
        else "readlink -f " + " ".join(shlex.quote(c) for c in copies)
    )
    return Fix(
        f"The log shows the same cuDNN file in {len(copies)} places ({', '.join(copies)}) "
        f"and the process loaded cuDNN {loaded}, older than the cuDNN {need} this build needs: "
        f"the loader took the copy that comes first in its order ({order}). Keep one cuDNN "
        f"{need} or newer of the same major (where no copy is, install it) and remove (or "
        "rename) the older copy, most often one copied by hand into a system directory, so "
        "that the loader finds the right one.",
        (listing,),
    )


def _jax_version(library: str, number: str) -> str:
    """A version JAX's check prints as one integer, in dotted form where its encoding is
    known: CUDA's runtime as :func:`cuda_dotted` reads it (12020: 12.2), cuDNN's as
    :func:`cudnn_dotted` reads it (8904: 8.9.4, 90100: 9.1.0); the integer itself otherwise."""
    if library == "cuDNN":
        return cudnn_dotted(number) or number
    if number.isdigit() and int(number) >= 1000 and library == "CUDA":
        return cuda_dotted(int(number))
    return number


def jax_library_older_fix(m: Machine, library: str, loaded: str, required: str) -> Fix:
    """JAX's check found ``library`` older (``loaded``) than its build (``required``), both as
    JAX prints them, and runs on the CPU: an older copy comes first on the loader's path (a
    toolkit's, or one set there for TensorFlow), or another framework pinned an older NVIDIA
    wheel. JAX's pip CUDA wheels bring their own, which JAX's install guide asks to find
    without LD_LIBRARY_PATH overriding them."""
    have, need = _jax_version(library, loaded), _jax_version(library, required)
    return Fix(
        f"JAX was built against {library} {need} and found {library} {have}, older, so it runs "
        "on the CPU: an older copy comes first (a CUDA toolkit's, or one put on "
        "LD_LIBRARY_PATH for TensorFlow), or another framework in the environment pinned an "
        "older NVIDIA wheel. JAX's pip CUDA wheels (jax[cuda12]) bring their own libraries: "
        "take the older directory off LD_LIBRARY_PATH for JAX's process (JAX's install guide "
        f"asks for it unset), or install {library} {need} or newer where it is found.",
        (
            "echo $LD_LIBRARY_PATH",
            "env -u LD_LIBRARY_PATH python -c 'import jax; print(jax.devices())'",
        ),
    )


def jax_cudnn_shadowed_fix(m: Machine, loaded: str, need: str) -> Fix:
    """jaxlib's XLA refused the cuDNN the process loaded (``loaded``, not ``need``): jaxlib
    finds cuDNN by the loader's search like any library, so a GPU TensorFlow (its CUDA
    libraries, or the toolkit put on the path for it) or PyTorch's nvidia-cudnn wheel
    in the same environment can come first. One framework's GPU build per environment: a
    TensorFlow kept beside JAX for its data input or jax2tf runs as well on the CPU."""
    if m.tf is not None and m.tf.version and m.tf_name and m.tf_name != "tensorflow-cpu":
        # The log shows which TensorFlow: its CPU build of the same release.
        commands: tuple[str, ...] = (
            *m.pip(f"uninstall -y {m.tf_name}"),
            *m.pip_install(f"tensorflow-cpu=={m.tf.version}"),
        )
    else:
        # Which framework brought the other cuDNN is not in the log: the listing says.
        commands = (
            *m.pip_look("list", " 2>/dev/null | grep -i -E '^(tensorflow|torch|jax|nvidia-cudnn)'"),
            *_library_search(("cudnn",)),
        )
    return Fix(
        f"JAX's XLA (jaxlib) was built with cuDNN {need} and found cuDNN {loaded} in the "
        "process: another framework's cuDNN comes first (a GPU TensorFlow's CUDA libraries or "
        "the toolkit installed for it, PyTorch's nvidia-cudnn wheel, a copy on "
        "LD_LIBRARY_PATH). Keep one framework's GPU build per environment: where TensorFlow "
        "is there for data input (tf.data, TFDS) or jax2tf, replace it with tensorflow-cpu, "
        "which loads no cuDNN; otherwise give JAX a virtual environment of its own with the "
        "cuDNN its wheel asks for.",
        commands,
    )


def onnxruntime_cuda_fix(m: Machine, cudnn: Optional[str], cuda: Optional[str]) -> Fix:
    """ONNX Runtime's CUDA provider (onnxruntime-gpu) did not load the CUDA and cuDNN majors
    it names (``cudnn``, ``cuda``, where its message states them: 1.19 and later) and ran on
    the CPU: those libraries where the loader finds them, or the onnxruntime-gpu release
    built for the ones installed. Its requirements table pairs each release with them.
    https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements"""
    named = (
        f"cuDNN {cudnn}.x and CUDA {cuda}.x (its own words)"
        if cudnn and cuda
        else "the CUDA and cuDNN releases its requirements table names for it"
    )
    dist, wanted = f"nvidia-cudnn-cu{cuda}", f"=={cudnn}.*"
    tf_pin = m.line.declared(dist) if m.line is not None and cudnn and cuda else None
    if m.line is not None and tf_pin is not None and not ranges_meet(tf_pin, wanted):
        # TensorFlow's and-cuda extra pins a cuDNN of another major: ONNX Runtime's would
        # replace it in this environment, and TensorFlow refuses a cuDNN of another major.
        return Fix(
            f"ONNX Runtime's CUDA provider (onnxruntime-gpu) needs {named}; it did not load "
            "them and ran the model on the CPU. TensorFlow "
            f"{m.line.line}'s and-cuda extra pins {dist}{tf_pin}, of another cuDNN major, "
            "and one environment holds one release of it: installing ONNX Runtime's would "
            "break TensorFlow's GPU use. Give onnxruntime-gpu a virtual environment of its "
            "own, or install the onnxruntime-gpu release built for TensorFlow's cuDNN major "
            "(its requirements table pairs them).",
            venv_pip('install "onnxruntime-gpu"', m.python_exe),
        )
    wheels = (
        m.pip_install(f"{dist}{wanted}", wheel_name("nvidia-cuda-runtime", int(cuda)))
        if cudnn and cuda and cuda.isdigit()
        else m.pip("show onnxruntime-gpu")
    )
    return Fix(
        f"ONNX Runtime's CUDA provider (onnxruntime-gpu) needs {named}, found by the loader "
        "like any library; it did not load them and ran the model on the CPU. Install those "
        "releases where the loader finds them (NVIDIA's wheels for this Python, with their "
        "lib directories on LD_LIBRARY_PATH, or onnxruntime.preload_dlls() before the model "
        "is loaded in onnxruntime-gpu 1.21 and later), or install the onnxruntime-gpu release "
        "built for the CUDA and cuDNN already installed (its requirements table pairs them). "
        "TensorFlow's own GPU use is not affected.",
        wheels,
    )


def framework_pin_replaced_fix(
    m: Machine, dist: str, have: str, framework: str, spec: str, meeting: Optional[TFLine]
) -> Fix:
    """Another framework (``framework``: ``torch 2.5.1``) pins ``dist`` to ``spec``, and
    TensorFlow's and-cuda extra installed ``have`` in its place: the framework now loads a
    cuDNN or CUDA library of another release than its build. The TensorFlow line whose and-cuda
    pin meets the framework's (``meeting``, from the matrix) serves both; else each gets an
    environment of its own."""
    head = (
        f"{framework} pins {dist}{spec}, and {dist} {have} is installed in its place "
        "(TensorFlow's and-cuda extra pins its own, and one environment holds one release)."
    )
    version = f"=={m.tf.version}" if m.tf is not None and m.tf.version else ""
    if meeting is not None:
        tf = m.tf_name or "tensorflow"
        return Fix(
            f"{head} TensorFlow {meeting.line}'s pin ({dist}{meeting.declared(dist)}, from the "
            f"matrix) meets {framework}'s: install that TensorFlow with its and-cuda extra "
            f"together with {framework.split(' ', 1)[0]}, so pip resolves both.",
            m.pip_install(f"{tf}[and-cuda]=={meeting.latest_patch}", framework.replace(" ", "==")),
        )
    return Fix(
        f"{head} No TensorFlow release in the matrix pins a {dist} range that meets "
        f"{dist}{spec}: give TensorFlow a virtual environment of its own, and put "
        f"{framework.split(' ', 1)[0]}'s pin back in this one.",
        (
            *venv_pip(f'install "tensorflow[and-cuda]{version}"'),
            *m.pip_install(f"{dist}{spec}"),
        ),
    )


def framework_cudnn_first_fix(m: Machine, loaded: str, need: str, frameworks: Sequence[str]) -> Fix:
    """TensorFlow's cuDNN refusal (``loaded``, built with ``need``) in a program where another
    framework works too: PyTorch's wheels pin their own nvidia-cudnn-cu12 release (its
    Requires-Dist) and older ones bundle a libcudnn in torch/lib; jaxlib finds one the same
    way. One environment holds one nvidia-cudnn wheel, so TensorFlow gets the other's. cuDNN
    is compatible within a major from an older minor up (cuda_dnn.cc's own check), so a cuDNN
    of ``need``'s major at ``need`` or newer serves both where the other framework's check
    allows a newer minor; else the frameworks need environments of their own."""
    who = " and ".join(frameworks)
    major = need.split(".", 1)[0]
    # The cuDNN wheel of the line's own and-cuda extra (nvidia-cudnn-cu11 for 2.14's CUDA 11.8
    # build); a line before the extra finds no wheel's cuDNN. Unknown line: CUDA 12's.
    extra = (m.line.and_cuda or {}) if m.line is not None else {"nvidia-cudnn-cu12": ""}
    dist = next((d for d in sorted(extra) if d.startswith("nvidia-cudnn-cu")), None)
    pin = extra.get(dist or "")
    wanted = f"{dist}{pin}" if pin else f"{dist}>={need},<{int(major) + 1}"
    beside = (
        f"with {who} at work in the same program, whose wheels pin their own nvidia-cudnn "
        "release (one environment holds one): the likeliest source of the copy that loaded"
    )
    version = f"=={m.tf.version}" if m.tf is not None and m.tf.version else ""
    tf = f"tensorflow{'[and-cuda]' if dist else ''}{version}"
    if loaded.split(".", 1)[0] != major:
        return Fix(
            f"TensorFlow was built with cuDNN {need} and the process loaded cuDNN {loaded}, "
            f"of another major, {beside}. One cuDNN major cannot serve both: keep TensorFlow "
            f"and {who} in separate virtual environments, or install releases of the two "
            "built for the same cuDNN major.",
            venv_pip(f'install "{tf}"'),
        )
    if dist is None:
        # TensorFlow before its and-cuda extra loads the cuDNN the loader's path gives it.
        return Fix(
            f"TensorFlow was built with cuDNN {need} and the process loaded cuDNN {loaded}, "
            f"{beside}. TensorFlow {m.line.line if m.line else ''} finds cuDNN on the "
            "loader's path (it has no and-cuda extra and searches no NVIDIA wheel's directory): "
            f"put a cuDNN {major}.x at {need} or newer (its CUDA release's) first on that path "
            f"for TensorFlow, or keep the two frameworks in separate virtual environments. "
            "The listing shows every copy the loader can find.",
            _library_search(("cudnn",)),
        )
    return Fix(
        f"TensorFlow was built with cuDNN {need} and the process loaded cuDNN {loaded}, "
        f"{beside}. A cuDNN of the same major at "
        f"{need} or newer serves TensorFlow, and {who} too where its own check takes a newer "
        f"minor: install it ({wanted}; pip then notes {who}'s pin), or keep the two "
        "frameworks in separate virtual environments.",
        m.pip_install(wanted),
    )


def framework_cuda_pins_fix(
    m: Machine,
    off: Sequence[tuple[str, str, str]],
    tf_version: str,
    admitting: Optional[TFLine] = None,
    listed: bool = False,
) -> Fix:
    """NVIDIA wheels installed outside the pins of TensorFlow's and-cuda extra: ``off`` holds
    (distribution, installed version, TensorFlow's range) for each. The one builder for
    ``cuda-wheel-pins`` on TensorFlow's side, for the check (every package listed:
    ``listed``) and for explain (a log's pip notice). Where another framework's wheels pin
    their own (torch's Requires-Dist ``nvidia-cudnn-cu12==9.1.0.70``, jax's cuda12 plugin's
    ranges), one environment holds one release of each: the TensorFlow line whose pin admits
    the installed one (``admitting``, from the matrix; one distribution only) serves both,
    else each framework gets an environment of its own: reinstalling TensorFlow's pins in
    place would break the other framework the same way. Where the environment is listed and
    no framework pins them, TensorFlow's pins back serve; where a log shows no framework that
    pins them, none is named: ``pip show`` lists what requires each."""
    dists = tuple(d for d, _, _ in off)
    pins = tuple(f"{d}{spec}" for d, _, spec in off)
    have = ", ".join(f"{d} {v}" for d, v, _ in off)
    verb = "is" if len(off) == 1 else "are"
    one = off[0][0] if len(off) == 1 else "each"
    shown = m.frameworks_pinning(dists)
    tf = m.tf_name or "tensorflow"
    lead = (
        f"TensorFlow {tf_version}'s and-cuda extra pins {', '.join(pins)}, "
        f"and {have} {verb} installed"
    )
    if shown:
        head = (
            f"{lead}: {', '.join(shown)} in this environment "
            f"pin{'s' if len(shown) == 1 else ''} NVIDIA wheels of its own, and one "
            f"environment holds one release of {one}."
        )
        listing: tuple[str, ...] = ()
        apart = "keep TensorFlow and the other framework in separate virtual environments"
    elif listed:
        # Every installed package was read and none pins these wheels: TensorFlow's pins
        # back break nothing.
        return Fix(
            f"{lead}; no other framework in this environment pins them: install the NVIDIA "
            "wheels TensorFlow pins.",
            m.pip_install(*pins),
        )
    else:
        # No framework the log shows pins it: which package requires the other release is
        # pip's to list (Required-by), not this reading's to guess.
        head = (
            f"{lead}; one environment holds one release of {one}. "
            + " ".join(f"`pip show {d}`" for d in dists)
            + " lists what requires it (Required-by): where TensorFlow alone does, its own pin "
            f"({', '.join(pins)}) back serves; where another framework does (PyTorch's torch, "
            "JAX's jax-cuda12-plugin pin their own NVIDIA wheels), TensorFlow's pin back "
            "would break that framework."
        )
        listing = tuple(c for d in dists for c in m.pip(f"show {d}"))
        apart = (
            "where another framework requires it, keep TensorFlow and that framework in "
            "separate virtual environments"
        )
    if admitting is not None and len(off) == 1:
        dist, installed, _ = off[0]
        return Fix(
            f"{head} TensorFlow {admitting.line}'s pin ({dist}{admitting.declared(dist)}, "
            f"from the matrix) admits {installed}: install that TensorFlow with its and-cuda "
            f"extra, which leaves {dist} {installed} in place.",
            (*listing, *m.pip_install(f"{tf}[and-cuda]=={admitting.latest_patch}")),
        )
    return Fix(
        f"{head} No TensorFlow release in the matrix pins a range that admits {have}: {apart}.",
        (*listing, *venv_pip(f'install "{tf}[and-cuda]=={tf_version}"')),
    )


def older_cudnn_first_fix(m: Machine, need: str, os_name: Optional[str], conda: bool) -> Fix:
    """An older cuDNN of the build's major loaded while a cuDNN ``need`` or newer may be
    installed too: the listing of every copy the loader finds (``os_name``'s way), the newer
    one's directory first; with ``conda`` (or the machine in conda), conda's own package."""
    listing = {
        "linux": ("ldconfig -p | grep -E 'libcudnn'",),
        # Windows loads a DLL from the first PATH directory that holds it (an older
        # cudnn64_N.dll copied into System32 or another toolkit's bin comes first).
        # where.exe, named in full: in PowerShell `where` is the alias of Where-Object
        # (about_Aliases), which prints nothing of the path; cmd runs where.exe either way
        # (https://learn.microsoft.com/windows-server/administration/windows-commands/where).
        "windows": ("where.exe cudnn64_*.dll",),
    }
    listed = listing.get(os_name or "", (*listing["linux"], *listing["windows"]))
    conda_text = ""
    if conda or m.in_conda:
        # A conda environment's own lib holds the cudnn package conda installed: TensorFlow's
        # pip guide of 2.5-2.11 (https://www.tensorflow.org/install/pip) put cudnn=8.1.0
        # there and $CONDA_PREFIX/lib on LD_LIBRARY_PATH, which the loader searches before
        # a wheel's RUNPATH (ld.so(8)).
        conda_text = (
            " In a conda environment the older copy is often conda's own cudnn "
            "package in $CONDA_PREFIX/lib: `conda list cudnn` shows its version; upgrade it "
            f"to {need} or later, or take $CONDA_PREFIX/lib off LD_LIBRARY_PATH where the "
            "build's cuDNN comes from pip's nvidia-cudnn wheel."
        )
        listed = (*listed, "conda list cudnn")
    return Fix(
        f"If a cuDNN {need} or newer is already installed, an older copy comes "
        "first on the loader's path (another toolkit's lib64, a DLL copied into a directory "
        "early on PATH, a second framework's own cuDNN loaded first in the same process): the "
        "listing of every cuDNN the loader finds shows which; put the newer one's directory "
        f"first.{conda_text}",
        listed,
    )


#: Where NixOS links the NVIDIA driver's user-space libraries (libcuda) for every package: the
#: run path nixpkgs' addDriverRunpath adds ("/run/opengl-driver" + lib, named so "for legacy
#: reasons", pkgs/build-support/add-driver-runpath/default.nix).
NIX_DRIVER_LIB = "/run/opengl-driver/lib"


def nix_cuda_fix(store_path: str, names: Sequence[str]) -> Fix:
    """CUDA libraries ``names`` not found by a program run from the Nix store (the log shows
    ``store_path``): the driver's from NixOS's driver directory, the toolkit's from nixpkgs'
    CUDA packages, on the package's run path or LD_LIBRARY_PATH."""
    driver = [n for n in names if n == "cuda"]
    toolkit = [n for n in names if n != "cuda"]
    parts = [
        f"This program runs from the Nix store ({store_path}): Nix packages find libraries "
        "through the run paths written into them, not /usr/lib, /usr/local/cuda or the "
        "loader's cache, so a library outside those paths is not found even where it is "
        "installed."
    ]
    commands: list[str] = []
    if driver:
        parts.append(
            f"The driver's libcuda is linked into {NIX_DRIVER_LIB} on NixOS when the NVIDIA "
            "driver is enabled (hardware.graphics.enable, hardware.opengl.enable before 24.11, "
            'with services.xserver.videoDrivers = [ "nvidia" ]); a package built without '
            f"that run path (nixpkgs' addDriverRunpath) needs {NIX_DRIVER_LIB} on "
            "LD_LIBRARY_PATH. Nix on another distribution has no such directory: put the "
            "host driver's libcuda directory on LD_LIBRARY_PATH (or run through nixGL)."
        )
        commands += [f"ls {NIX_DRIVER_LIB} | grep libcuda", Machine.ld_path_with((NIX_DRIVER_LIB,))]
    if toolkit:
        libs = ", ".join(toolkit)
        # Only plain names go into the shell's patterns; none left, no listing to run.
        plain = [n for n in toolkit[:6] if re.fullmatch(r"\w+", n)]
        listing = (
            "the listing shows the store paths that hold them"
            if plain
            else "`find /nix/store -maxdepth 3 -name` with each library's file name lists "
            "the store paths that hold them"
        )
        # The directory is the user's to pick among the listed store paths (the store can hold
        # several releases): no export with a made-up directory, the text says what to put.
        parts.append(
            f"The toolkit's libraries ({libs}) come from nixpkgs' cudatoolkit (or "
            "cudaPackages): its lib output must be on the package's run path or on "
            "LD_LIBRARY_PATH (nixpkgs splits cudatoolkit into outputs, the libraries in "
            f"`cudatoolkit.lib`); {listing}. Put the directory that holds the release the "
            "build wants first on LD_LIBRARY_PATH (export LD_LIBRARY_PATH=that directory, "
            "then a colon and the old value), or add that output to the package's run path."
        )
        if plain:
            found = " -o ".join(f"-name 'lib{n}.so*'" for n in plain)
            commands.append(f"find /nix/store -maxdepth 3 \\( {found} \\) 2>/dev/null")
    return Fix(" ".join(parts), tuple(commands))


def windows_gpu_dlls_fix() -> Fix:
    """The CUDA and cuDNN DLLs a GPU build of TensorFlow up to 2.0 links at import: the
    release's own on PATH (2.1 and later load them when the GPU is first used)."""
    # The pairs are the tested build configurations of tensorflow_gpu on Windows
    # (https://www.tensorflow.org/install/source_windows#gpu): 1.0-1.2 CUDA 8 and cuDNN 5.1,
    # 1.3-1.4 CUDA 8 and cuDNN 6, 1.5-1.12 CUDA 9 and cuDNN 7, 1.13-2.0 CUDA 10 and cuDNN 7.
    return Fix(
        "A GPU build of TensorFlow 2.0 or older (tensorflow-gpu) links the CUDA runtime and "
        "cuDNN DLLs of the release it was built with (1.13 to 2.0: cudart64_100.dll and "
        "cudnn64_7.dll; 1.5 to 1.12: cudart64_90.dll and cudnn64_7.dll; 1.3 and 1.4: "
        "cudart64_80.dll and cudnn64_6.dll; 1.0 to 1.2: cudart64_80.dll and cudnn64_5.dll), "
        "and Windows refuses TensorFlow's own module when one is not on PATH: a CUDA or cuDNN "
        "of another release has other file names. `where` lists those on PATH; install the "
        "CUDA and cuDNN of the release's tested configuration (`tfdoctor matrix`, TensorFlow's "
        "tested build configurations for Windows) and put their bin directories on PATH, or "
        "install the CPU build (tensorflow) of the same release.",
        ("where.exe cudart64_*.dll cudnn64_*.dll",),
    )


def unfound_library_fix(
    m: Machine, missing: tuple[str, ...], shown: str, conda: bool, major: Optional[str] = None
) -> Fix:
    """The candidates for CUDA libraries the loader did not find, where the log cannot tell
    which it is, most likely first: installed off the loader's path (a conda environment's lib
    directory, where the log shows one active), then not installed. ``shown``: the evidence
    that put the first one first; ``major``: the CUDA major the files named imply, where the
    machine's build is not known."""
    names = missing or ("cudart",)
    if conda:
        lister = "ls " + " ".join(f"$CONDA_PREFIX/lib/lib{n}.so*" for n in names[:4])
        first = (
            "the conda environment holds them in $CONDA_PREFIX/lib, which the loader does not "
            f"search (`{lister}` lists them): put that directory on LD_LIBRARY_PATH each time the "
            "environment is activated, with the lines TensorFlow's pip install guide (2.9-2.14) "
            "writes into the environment's activate.d script"
        )
        install = conda_env_install_fix(m, major)
        second = f"the environment holds none: {install.text}"
        commands = (*CONDA_LIB_ON_PATH, lister, *install.commands)
    else:
        first = (
            "a copy is installed where the loader does not look (a Python environment's lib "
            "directory, site-packages/nvidia/*/lib, a toolkit's lib64; the commands below find "
            "it): put that directory first on LD_LIBRARY_PATH (export LD_LIBRARY_PATH=<that "
            "directory>:$LD_LIBRARY_PATH, in ~/.bashrc or the job script to keep it)"
        )
        if m.build_cuda is None:
            # Not known which build: its CUDA major, where the file named says it.
            major = m.build_cuda_major or major
            which = f"a CUDA {major} toolkit" if major else "the CUDA toolkit"
            install = Fix(
                f"install {which} and the cuDNN of this TensorFlow's build (`tfdoctor matrix` "
                "names them), and put their lib directory on LD_LIBRARY_PATH."
            )
        else:
            _, install = cuda_libraries_fix(m, names)
        second = f"none is installed: {install.text}"
        commands = (*_library_search(names), *install.commands)
    return Fix(
        f"{shown}, which does not say whether the library is on the disk: the candidates, most "
        f"likely first: 1. {first}. 2. {second}",
        tuple(dict.fromkeys(commands)),
    )


def _newest_and_cuda(m: Machine) -> Optional[TFLine]:
    """The newest line with a working ``and-cuda`` extra that fits this machine."""
    from tfdoctor.compat import newest_fit  # noqa: PLC0415 - avoids a cycle at import

    if m.matrix is None:
        return None
    verdict = newest_fit(m.matrix, m.target)
    if verdict is None:
        return None
    # The machine view's one rule for where the extra works (and finds its own wheels).
    return verdict.line if m.and_cuda_spec(verdict.line.latest_patch) else None


#: The names of CUDA's own libraries (and TensorRT's), as the loader or a fix names them:
#: none is ever a ROCm build's.
CUDA_LIBRARY = re.compile(
    r"(?i)cuda|cudnn|cublas|cufft|curand|cusolver|cusparse|nvrtc|nvinfer|nvjitlink|nccl"
)


def cuda_libraries_fix(m: Machine, missing: tuple[str, ...]) -> tuple[CauseId, Fix]:
    """The cause and the fix for CUDA libraries TensorFlow cannot load, fitted to this machine.

    In order: copies found off the path get the one path line; native Windows after 2.10 has
    no GPU build; a release whose own wheels are not found gets the path line to them (or a
    newer release); the release's install method from the matrix (``and-cuda``, the cuDNN
    wheel of 2.12-2.13, or a system/conda toolkit) decides the rest.
    """
    if m.rocm_build and not any(CUDA_LIBRARY.search(name) for name in missing):
        # tensorflow-rocm prints the same words on ROCm: its libraries are ROCm's. A CUDA
        # library named is a CUDA build at work whatever the installed name says.
        return ROCM_LIBS_OFF_PATH, rocm_libraries_fix(m, missing)
    line = m.line
    if "zlibwapi" in missing:
        # Not a CUDA library: what cuDNN 8.3+ loads on Windows, installed apart.
        return CUDA_LIBS_MISSING, zlib_fix()
    if m.os == "windows" and line is not None and not line.windows_native_gpu:
        return WINDOWS_NATIVE_GPU_ENDED, windows_gpu_fix(m)
    wheels = m.cuda_wheels_installed
    conda_line = conda_toolkit_line(m)
    own_route = m.cuda_install_method == "and-cuda" and not m.wheels_unfound()
    if conda_line is not None and not wheels and not own_route:
        # The environment already holds a CUDA toolkit: the release built for it runs on it.
        return CUDA_LIBS_MISSING, install_fix(
            m,
            f"This conda environment's CUDA {conda_line.cuda} is not the CUDA {m.build_cuda} "
            f"this TensorFlow was built for: install TensorFlow {conda_line.latest_patch}, "
            "the newest built for it (or replace conda's CUDA with this release's).",
            f"tensorflow=={conda_line.latest_patch}",
        )
    if m.tf is not None and wheels and m.wheel_library_dirs and m.runpath_misses_wheels:
        # TensorFlow's own RUNPATH, read from its library, names no nvidia/*/lib directory.
        return CUDA_WHEELS_UNFOUND, Fix(
            f"TensorFlow {m.tf.version}'s libraries do not search the nvidia-* wheels' "
            "directories (their RUNPATH names none): put them on the loader's path.",
            (m.ld_path_with(m.wheel_library_dirs),),
        )
    # Copies off the path that serve the build come before installing anything beside the
    # toolkit: the one path line makes them visible (a cuDNN of the build's release under
    # /opt needs no second copy).
    found = _usable_elsewhere(m, missing)
    covered = {f.name for f in found}
    if found and {n for n in missing if n != "nccl"} <= covered:
        return CUDA_LIBS_OFF_PATH, off_path_fix(m, found)
    toolkit = _system_toolkit_serving(m, missing)
    if toolkit is not None and missing == ("cudnn",):
        return CUDA_LIBS_MISSING, cudnn_beside_toolkit_fix(m, *toolkit)
    other = None if wheels else other_release_wheels_fix(m)
    if other is not None:
        return CUDA_LIBS_MISSING, other
    if m.tf is not None and m.wheels_unfound():
        if wheels and m.wheel_library_dirs:
            newer = _newest_and_cuda(m)
            text = (
                f"TensorFlow {m.tf.version} does not search its nvidia-* wheels' directories: "
                "put them on the loader's path"
            )
            commands: tuple[str, ...] = (m.ld_path_with(m.wheel_library_dirs),)
            if newer is not None and line is not None and newer.key > line.key:
                text += f", or upgrade to TensorFlow {newer.latest_patch}, which finds them"
            return CUDA_WHEELS_UNFOUND, Fix(text + ".", commands)
        newer = _newest_and_cuda(m)
        if newer is not None and (line is None or newer.key > line.key):
            return CUDA_LIBS_MISSING, install_fix(
                m,
                f"Install TensorFlow {newer.latest_patch} with its CUDA libraries "
                f"({m.tf.version}'s own wheels are not found by it).",
                m.and_cuda_spec(newer.latest_patch) or f"tensorflow=={newer.latest_patch}",
            )
    if "cudart" in covered:
        # The toolkit is here but off the path; what it lacks (cuDNN, usually) is installed
        # beside it the release's own way.
        rest = tuple(n for n in missing if n not in covered)
        path = off_path_fix(m, found)
        conda = m.facts.conda
        if conda is not None and all(conda.package(n) is not None for n in rest):
            return CUDA_LIBS_OFF_PATH, path
        _, more = cuda_libraries_fix(m, rest)
        return CUDA_LIBS_OFF_PATH, Fix(
            f"{path.text} Then, for {', '.join(rest)}: {more.text}",
            (*path.commands, *more.commands),
        )
    if m.os == "windows":
        return CUDA_LIBS_MISSING, _system_toolkit_fix(m, missing)
    if m.is_nightly and _nightly_has_and_cuda(m):
        return CUDA_LIBS_MISSING, install_fix(
            m,
            "Install the CUDA libraries the nightly build pins, as pip wheels.",
            "tf-nightly[and-cuda]",
        )
    # The libraries failed to load: the release's CUDA build ran, which says Linux where the
    # log names no system and the release has CUDA builds there alone.
    spec = m.and_cuda_spec(cuda_build_ran=True)
    method = m.cuda_install_method
    if method == "and-cuda" and spec is not None:
        if m.conda_tensorflow:
            return CUDA_LIBS_MISSING, conda_libraries_fix(m, line)
        pins = (line.and_cuda or {}) if line is not None else {}
        others = m.frameworks_pinning(pins, pins)
        if others:
            # pip would move the other framework's nvidia-* wheels to TensorFlow's pins (and
            # report it broken): each gets the wheels it pins in an environment of its own.
            return CUDA_LIBS_MISSING, Fix(
                f"{', '.join(others)} in this environment pins other versions of the NVIDIA "
                "wheels TensorFlow's and-cuda extra pins, and one environment holds one version "
                "of each: install TensorFlow with its CUDA libraries in an environment of its own.",
                venv_pip(f'install "{spec}"', m.python_exe),
            )
        return CUDA_LIBS_MISSING, install_fix(
            m,
            "Install the CUDA and cuDNN libraries this TensorFlow was built for, as pip "
            "wheels (its and-cuda extra).",
            spec,
        )
    if method == "cudnn-wheel" and line is not None:
        return CUDA_LIBS_MISSING, _cudnn_wheel_fix(m, line, missing)
    return CUDA_LIBS_MISSING, _system_toolkit_fix(m, missing)


def other_release_wheels_fix(m: Machine) -> Optional[Fix]:
    """The build's own NVIDIA wheels, where every ``nvidia-*`` wheel installed is of another
    CUDA or cuDNN major than the build's (:attr:`Machine.other_release_wheels`): the
    requirements its ``and-cuda`` extra declares (its wheel's Requires-Dist), installed the
    release's way. A patch that does not search its own wheels' directories
    (``cuda_install.wheels_unfound``) also needs them on LD_LIBRARY_PATH, unless it names them
    already. None where no other-release wheel is installed or the wheel declares no extra."""
    tf = m.tf
    other = m.other_release_wheels
    site = m.site_packages
    if tf is None or not other or site is None:
        return None
    env = {**m.marker_env, "extra": "and-cuda"}
    declared = [
        (dist, spec)
        for dist, spec in applicable_requirements(tf.requires, env)
        if dist.startswith("nvidia-") and wheel_dir(dist, lowest_admitted(spec)) is not None
    ]
    if not declared:
        return None
    # What each wheel is by what sets it apart: its CUDA major where that is not the build's,
    # else (a cuDNN wheel of the build's CUDA) its cuDNN major.
    build_major = major_of(m.build_cuda_major)
    kinds = sorted(
        {
            f"CUDA {n}'s"
            if (n := wheel_cuda_major(normalize_name(p.name), sub)) not in (None, build_major)
            else f"cuDNN {major_of(p.version)}'s"
            for p, sub in m.cuda_wheels
            if p in other
        }
    )
    build = f"CUDA {m.build_cuda or m.build_cuda_major}"
    if m.build_cudnn:
        build += f" and cuDNN {m.build_cudnn}"
    text = (
        f"The NVIDIA wheels installed here are {' and '.join(kinds)}, and TensorFlow "
        f"{tf.version} was built for {build}: it loads that release's libraries by sonames "
        "that carry each library's major, and those wheels do not hold them all."
    )
    # The other release's wheels that write files the build's wheels write too (cuDNN 8's
    # libcudnn.so.8 from -cu11 and -cu12 alike) go first: installed over them, the build's
    # files stay in their RECORDs, and uninstalling them later deletes the build's files.
    shared = sorted(
        {
            name
            for p in other
            if (name := normalize_name(p.name)) not in dict(declared)
            and any(
                wheels_share_files((name, p.version), (dist, lowest_admitted(spec)))
                for dist, spec in declared
            )
        }
    )
    remove: tuple[str, ...] = ()
    if shared:
        text += (
            " Uninstall first those of them that write the same files in nvidia/ as the "
            "build's wheels (installed over them, the build's files would be deleted with them "
            "later), then install"
        )
        remove = m.pip(f"uninstall -y {' '.join(shared)}")
    else:
        text += " Install"
    text += " the wheels its and-cuda extra declares"
    spec = m.and_cuda_spec()
    if spec is not None:
        install = install_fix(m, text + ".", spec)
        return Fix(install.text, (*remove, *install.commands))
    pins = tuple(f"{dist}{spec}" for dist, spec in declared)
    dirs = tuple(
        sorted(
            {
                str(PurePosixPath(site) / "nvidia" / sub / "lib")
                for dist, spec in declared
                if (sub := wheel_dir(dist, lowest_admitted(spec))) is not None
            }
        )
    )
    current = {
        p.rstrip("/")
        for p in (m.facts.environment or {}).get("LD_LIBRARY_PATH", "").split(":")
        if p
    }
    path: tuple[str, ...] = ()
    if m.wheels_unfound():
        # The patch's libraries search none of its wheels' directories (tensorflow#63362).
        if set(dirs) <= current:
            text += (
                f": TensorFlow {tf.version} does not search their directories, and "
                "LD_LIBRARY_PATH names them already"
            )
        else:
            text += (
                f": TensorFlow {tf.version} does not search their directories, so put them "
                "on LD_LIBRARY_PATH too"
            )
            path = (m.ld_path_with(tuple(d for d in dirs if d not in current)),)
        newer = _newest_and_cuda(m)
        line = m.line
        if newer is not None and line is not None and newer.key > line.key:
            text += f", or upgrade to TensorFlow {newer.latest_patch}, which finds them"
    install = install_fix(m, text + ".", *pins)
    return Fix(install.text, (*remove, *install.commands, *path))


def _system_toolkit_serving(m: Machine, missing: tuple[str, ...]) -> Optional[tuple[str, str]]:
    """The CUDA toolkit outside pip's wheels that serves the build's CUDA runtime here (its
    release and directory), where only ``missing`` lacks: the loader picked a libcudart of the
    build's major from the system (ldconfig, LD_LIBRARY_PATH), not from an nvidia-* wheel."""
    libs = m.facts.cuda_libs
    major = m.build_cuda_major
    if libs is None or major is None or "cudart" in missing:
        return None
    cudart = next((lib for lib in libs.libraries if lib.name == "cudart"), None)
    if cudart is None or cudart.selected is None:
        return None
    chosen = cudart.candidates[cudart.selected]
    if "/nvidia/" in chosen.path.replace("\\", "/") or major_of(chosen.version) != int(major):
        return None
    return chosen.version or major, str(PurePosixPath(chosen.path).parent)


def cudnn_beside_toolkit_fix(m: Machine, toolkit: str, directory: str) -> Fix:
    """cuDNN of the build's major added to a system CUDA toolkit that serves the rest: NVIDIA's
    package for that CUDA major, or the nvidia-cudnn wheel of the build's cuDNN release with
    its lib directory on the loader's path (a cuDNN of another major does not serve)."""
    major = m.build_cuda_major or toolkit.split(".", 1)[0]
    cudnn = m.build_cudnn or (m.asked_cudnn[0] if m.asked_cudnn else None)
    which = f"cuDNN {cudnn}" if cudnn else "the cuDNN of this build"
    text = (
        f"The CUDA {toolkit} toolkit here ({directory}) serves every other library this "
        f"TensorFlow loads; {which} for CUDA {major} is missing beside it (a cuDNN of another "
        f"major does not serve). Install {which} for CUDA {major}: NVIDIA's package from the "
        f"cuDNN archive ({CUDNN_ARCHIVE})"
    )
    wheel = _cudnn_wheel_spec(m, major, cudnn)
    if wheel is None:
        return Fix(text + ", with its lib directory on the loader's path.")
    # TensorFlow's own install guide (2.12-2.13) finds the wheel's directory this way.
    find = (
        f"$(dirname $({m.python_exe} -c 'import nvidia.cudnn; print(nvidia.cudnn.__file__)'))/lib"
    )
    return Fix(
        text + f", or its pip wheel ({wheel}) with the wheel's lib directory on the loader's path.",
        (
            *m.pip_install(wheel),
            f'export LD_LIBRARY_PATH="{find}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"',
        ),
    )


def _cudnn_wheel_spec(m: Machine, major: str, cudnn: Optional[str]) -> Optional[str]:
    """The nvidia-cudnn wheel of ``cudnn``'s series for CUDA ``major`` that a TensorFlow line
    of the matrix pins (its and-cuda extra): a series NVIDIA published as a wheel, at a
    release TensorFlow was tested with; None where no line pins one."""
    if m.matrix is None or cudnn is None:
        return None
    name = f"nvidia-cudnn-cu{major}"
    series = version_key(cudnn)[:2]

    def in_series(pin: str) -> bool:
        exact = re.fullmatch(r"==(\d[\w.]*)", pin)
        return exact is not None and version_key(exact.group(1))[: len(series)] == series

    line = next(iter(m.matrix.lines_pinning(name, in_series)), None)
    return f"{name}{line.declared(name)}" if line is not None else None


def _cudnn_wheel_fix(m: Machine, line: TFLine, missing: tuple[str, ...]) -> Fix:
    """TensorFlow's guide for 2.12-2.13 (CUDA 11.8): cuDNN as a pip wheel on LD_LIBRARY_PATH,
    the CUDA 11.8 libraries from conda or as cu11 wheels."""
    cudnn = m.build_cudnn or line.cudnn or "8.6"
    if m.in_conda:
        return Fix(
            f"Install CUDA {line.cuda} from conda-forge and cuDNN {cudnn} as a pip wheel, then "
            "put the wheel's lib directory on LD_LIBRARY_PATH (TensorFlow's guide for this line).",
            (
                *m.conda_install(f"cudatoolkit={line.cuda}", channel="conda-forge"),
                *m.pip_install(f"nvidia-cudnn-cu11=={cudnn}.*"),
                "export LD_LIBRARY_PATH=\"$CONDA_PREFIX/lib/:$(dirname $(python -c 'import "
                "nvidia.cudnn; "
                "print(nvidia.cudnn.__file__)'))/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"",
            ),
        )
    wheels = [f"nvidia-cudnn-cu11=={cudnn}.*"]
    if any(name != "cudnn" for name in missing):
        wheels = [
            "nvidia-cuda-runtime-cu11",
            "nvidia-cublas-cu11",
            "nvidia-cufft-cu11",
            "nvidia-curand-cu11",
            "nvidia-cusolver-cu11",
            "nvidia-cusparse-cu11",
            *wheels,
        ]
    site = m.site_packages or "$(python -c 'import site; print(site.getsitepackages()[0])')"
    dirs = tuple(
        str(PurePosixPath(site) / "nvidia" / d / "lib")
        for d in (
            ["cudnn"]
            if len(wheels) == 1
            else ["cuda_runtime", "cublas", "cufft", "curand", "cusolver", "cusparse", "cudnn"]
        )
    )
    return Fix(
        f"Install the CUDA {line.cuda} libraries and cuDNN {cudnn} as pip wheels and put their "
        "lib directories on LD_LIBRARY_PATH (this release does not search them itself).",
        (*m.pip_install(*wheels), m.ld_path_with(dirs)),
    )


#: cuDNN 8.3 to 8.9 on Windows load zlib's DLL, which is not in cuDNN's archive: NVIDIA's
#: installation guide has it installed beside cuDNN ("Installing Zlib").
CUDNN_ZLIB_GUIDE = (
    "https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-890/install-guide/index.html"
)


def toolkit_serves(installed: str, release: str) -> bool:
    """Whether a CUDA ``installed`` toolkit provides every library a build for CUDA ``release``
    asks for by soname, from the CUDA table (data/cuda.yaml's sonames: 11.8 serves 11.2, both
    libcusolver.so.11; 11.0's is libcusolver.so.10; 10.1's runtime is libcudart.so.10.1). A
    major alone (``11``, what cudart64_110.dll says) is served by any toolkit of that major."""
    have, want = version_key(installed), version_key(release)
    if want[:1] != have[:1]:
        return False
    if len(want) < 2 or len(have) < 2:
        return True
    return soname_versions(have[0], have[1]) == soname_versions(want[0], want[1])


def other_toolkit_fix(
    m: Machine, installed: str, directory: str, asked: str, wants: str, on_path: bool = True
) -> Fix:
    """TensorFlow asked for the CUDA ``wants`` file ``asked`` and the loader's path holds the
    CUDA ``installed`` toolkit at ``directory`` (``on_path``), or the log shows that toolkit
    installed (``directory``: the line that shows it, nvcc's banner): a TensorFlow built for
    that toolkit, or the toolkit of the build beside it."""
    major = version_key(installed)[0]
    windows = m.os == "windows" or asked.lower().endswith(".dll")
    built = [
        line
        for line in (m.matrix.releases if m.matrix is not None else ())
        if line.cuda
        and toolkit_serves(installed, line.cuda)
        and (line.windows_native_gpu or not windows)
    ]
    newest = max(built, key=lambda line: line.key) if built else None
    # The major where the toolkit serves every line built with it, else the builds' span.
    same = {
        line.cuda
        for line in (m.matrix.releases if m.matrix is not None else ())
        if line.cuda and version_key(line.cuda)[0] == major
    }
    served = sorted({line.cuda for line in built if line.cuda}, key=version_key)
    label = (
        str(major)
        if all(toolkit_serves(installed, cuda) for cuda in same)
        else " to ".join(dict.fromkeys((served[0], served[-1])))
        if served
        else installed
    )
    text = (
        f"TensorFlow asked for {asked} (CUDA {wants}) and the loader's path holds the CUDA "
        f"{installed} toolkit ({directory}): "
        if on_path
        else f"TensorFlow asked for {asked} (CUDA {wants}) and the CUDA toolkit installed is "
        f"{installed} (the log shows: {directory}): "
    )
    commands: tuple[str, ...] = ()
    if newest is not None:
        text += (
            f"install a TensorFlow built for CUDA {label} (up to TensorFlow "
            f"{newest.latest_patch}; `tfdoctor matrix` lists those that fit this Python), or "
        )
        # The command only where the Python is known and the release that fits it is one
        # built for this toolkit: a release without a wheel for the Python changes nothing.
        from tfdoctor.compat import newest_fit  # noqa: PLC0415 - avoids a cycle at import

        fit = newest_fit(m.matrix, m.target) if m.matrix and m.python_version else None
        if fit is not None and fit.line in built:
            commands = m.pip_install(f"tensorflow=={fit.line.latest_patch}")
    where = (
        "its bin directory on PATH" if windows else "its lib64 directory first on LD_LIBRARY_PATH"
    )
    # The build's cuDNN where it is known, else the one every line built with that CUDA X.Y
    # was built with (10.1: 7.6), from the matrix.
    cudnn = m.build_cudnn or (m.line.cudnn if m.line else None) or _cudnn_of_every(m, wants)
    text += (
        f"install a CUDA {wants} toolkit and "
        + (f"cuDNN {cudnn}" if cudnn else "the cuDNN of the build")
        + f" beside it ({CUDA_ARCHIVE}) and put {where}."
    )
    return Fix(text, commands)


def cudnn_part_fix(part: str, code: str) -> Fix:
    """cuDNN 8 and later loaded, then could not load one of its own parts on Windows
    (``part``: cudnn_cnn_infer64_8.dll) with Windows' error ``code``: 193 a copy of another
    word size; otherwise a DLL it needs not found, the part itself (its main DLL copied alone)
    or zlib's zlibwapi.dll (cuDNN 8.3-8.9)."""
    if code == "193":
        return Fix(
            f"Windows found a copy of {part} (or of a DLL it loads) of another word size than "
            "the 64-bit process: take the folder of the 32-bit copy off PATH, or replace it "
            "with the x64 cuDNN archive's file.",
            (f"where.exe {part} zlibwapi.dll",),
        )
    main = re.sub(r"^cudnn_\w+?(64_\d+\.dll)$", r"cudnn\1", part)
    return Fix(
        f"cuDNN's {main} loaded, then could not load {part}, its own part, or a DLL that part "
        f"needs: copy every DLL of the cuDNN archive's bin folder (not {main} alone) into the "
        "folder that holds it, and for cuDNN 8.3 to 8.9 install zlib's zlibwapi.dll, which "
        f"cuDNN does not ship, as NVIDIA's cuDNN guide says ({CUDNN_ZLIB_GUIDE}, Installing "
        "Zlib), on PATH.",
        (f"where.exe {main} {part} zlibwapi.dll",),
    )


def zlib_fix() -> Fix:
    """zlibwapi.dll, which cuDNN 8.3 and later load on Windows, on the DLL search path."""
    return Fix(
        "cuDNN 8.3 and later on Windows load zlib's zlibwapi.dll, which cuDNN does not ship: "
        f"install it as NVIDIA's cuDNN guide says ({CUDNN_ZLIB_GUIDE}, Installing Zlib) and "
        "put its folder on PATH (or use the cuDNN release the TensorFlow build names, which "
        "for the native Windows GPU builds, up to 2.10, is cuDNN 8.1 and needs no zlib).",
        ("where.exe zlibwapi.dll",),
    )


def _library_search(names: Sequence[str]) -> tuple[str, ...]:
    """Commands that look for the CUDA libraries ``names`` (``cudart``, ``cusolver``) in the
    loader's cache and on disk (not under /proc)."""
    libs = [f"lib{n}" for n in dict.fromkeys(names) if re.fullmatch(r"\w+", n)][:6]
    found = " -o ".join(f"-name '{lib}.so*'" for lib in libs)
    return (
        f"ldconfig -p | grep -E '{'|'.join(libs)}'",
        f"find / -path /proc -prune -o \\( {found} \\) -print 2>/dev/null",
    )


#: A library's Linux soname as TensorFlow's loader asks for it: ``libcusolver.so.10``.
_LINUX_SONAME = re.compile(r"lib(?P<library>[A-Za-z]+)\.so\.(?P<version>\d+(?:\.\d+)?)")


def _asked_versions(files: Sequence[str], known: set[str]) -> dict[str, tuple[str, str]]:
    """Library -> (the soname version its file asks for, the file) for each CUDA library in
    ``files`` whose version the CUDA table decides; a DLL's as its Linux soname's (``11.0`` for
    cudart64_110.dll, decoded by :func:`tflog.windows_dll`)."""
    asked: dict[str, tuple[str, str]] = {}
    for file in (f.strip() for f in files):
        match = _LINUX_SONAME.fullmatch(file)
        dll = tflog.windows_dll(file)
        if match is not None:
            library, version = match.group("library"), match.group("version")
        elif dll is not None:
            library, version = dll.library, dll.soname
        else:
            continue
        if library in known:
            asked.setdefault(library, (version, file))
    return asked


def lines_asking(m: Machine) -> str:
    """The TensorFlow lines whose builds ask for every Linux soname the log shows TensorFlow
    not loading, with the CUDA and cuDNN each was built with, in words (``The TensorFlow
    builds that ask for libcusolver.so.10 are 2.1 to 2.3 (CUDA 10.1, cuDNN 7.6) and 2.4
    (CUDA 11.0, cuDNN 8.0), from the matrix``); empty where the log shows no such soname, or
    no line of the matrix asks for them all. A soname names a library's own version, which
    several toolkits share (libcudart.so.11.0 is every CUDA 11's, libcusolver.so.10 CUDA
    10.1's to 11.0's): the lines that ask for it are what narrows the toolkit."""
    if m.matrix is None:
        return ""
    # Only the libraries whose soname the CUDA table (or cuDNN's major) decides: TensorRT's,
    # cuDNN's sub-libraries and the driver's say nothing of the line.
    known = {*soname_versions(11, 0), "cudnn"}
    asked = _asked_versions(m.unloaded_files, known)
    if not asked:
        return ""
    # A DLL is asked for only by the lines with a native Windows GPU build (up to 2.10).
    dll = any(file.lower().endswith(".dll") for _, file in asked.values())
    fitting: list[TFLine] = []
    for line in sorted(m.matrix.lines, key=lambda x: version_key(x.line)):
        if line.cuda is None or "rc" in line.latest_patch or (dll and not line.windows_native_gpu):
            continue
        major, minor = (*version_key(line.cuda), 0)[:2]
        table = soname_versions(major, minor)
        if line.cudnn is not None:
            # TensorFlow asks for cuDNN by its major (libcudnn.so.8), every release of it.
            table["cudnn"] = line.cudnn.split(".", 1)[0]
        if all(table.get(lib, "") == version for lib, (version, _) in asked.items()):
            fitting.append(line)
    if not fitting:
        return ""
    # Consecutive lines built with the same CUDA and cuDNN, as one span.
    spans: list[list[TFLine]] = []
    for line in fitting:
        last = spans[-1][-1] if spans else None
        if last is not None and (last.cuda, last.cudnn) == (line.cuda, line.cudnn):
            spans[-1].append(line)
        else:
            spans.append([line])
    words = [
        (span[0].line if len(span) == 1 else f"{span[0].line} to {span[-1].line}")
        + f" (CUDA {span[0].cuda}"
        + (f", cuDNN {span[0].cudnn})" if span[0].cudnn else ")")
        for span in spans
    ]
    files = ", ".join(file for _, file in asked.values())
    joined = ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1]
    return f"The TensorFlow builds that ask for {files} are {joined} (from the matrix)"


def _cudnn_of_every(m: Machine, cuda: Optional[str]) -> Optional[str]:
    """The cuDNN every TensorFlow line built with CUDA ``cuda`` (X.Y) was built with, from the
    matrix (CUDA 10.1: 7.6 for 2.1 to 2.3); None where the lines differ or none is known."""
    if cuda is None or m.matrix is None or len(version_key(cuda)) < 2:
        return None
    found = {
        line.cudnn
        for line in m.matrix.lines
        if line.cuda and line.cudnn and version_key(line.cuda)[:2] == version_key(cuda)[:2]
    }
    return found.pop() if len(found) == 1 else None


def _early_build(m: Machine) -> tuple[Optional[str], Optional[str]]:
    """The CUDA and cuDNN the GPU build of the TensorFlow the log shows was built with, where
    it is older than the matrix's lines and the early releases' rows state them (TensorFlow's
    tested build configurations: 1.12 is CUDA 9.0, cuDNN 7). (None, None) where the release
    is not shown, or where the libraries TensorFlow asked for name another major than those:
    the release shown is then not the one that ran (another environment's)."""
    if m.tf is None or m.matrix is None:
        return None, None
    cuda, cudnn = m.matrix.early_cuda(m.tf.version), m.matrix.early_cudnn(m.tf.version)
    asked_cuda, asked_cudnn = m.build_cuda_major, m.asked_cudnn
    if (cuda and asked_cuda and cuda.split(".", 1)[0] != asked_cuda) or (
        cudnn and asked_cudnn and cudnn.split(".", 1)[0] != asked_cudnn[0]
    ):
        return None, None
    return cuda, cudnn


def _system_toolkit_fix(m: Machine, missing: tuple[str, ...] = ()) -> Fix:
    """CUDA X and cuDNN Y beside TensorFlow: conda inside conda, else NVIDIA's installers."""
    line = m.line
    early_cuda, early_cudnn = _early_build(m) if line is None else (None, None)
    cuda = m.build_cuda or (line.cuda if line else None) or early_cuda
    cudnn = (
        m.build_cudnn or (line.cudnn if line else None) or early_cudnn or _cudnn_of_every(m, cuda)
    )
    if m.in_conda and cuda is not None:
        return conda_libraries_fix(m, line)
    # Without the build's CUDA X.Y, the runtime's or cuBLAS's name in the log still says its
    # major (cudart64_110.dll is every 11.x): name that, and where the minor is found.
    major = m.build_cuda_major if cuda is None else None
    asked = m.asked_cudnn if cudnn is None else None
    of_build = (
        f"cuDNN {asked[0]} (the {asked[1]} it asked for; any {asked[0]}.x of its CUDA)"
        if asked
        else "the cuDNN of its build"
    )
    toolkit = (
        f"a CUDA {major} toolkit (any {major}.x provides the libraries it asked for; `tfdoctor "
        f"matrix` names the one this TensorFlow was built with) and {of_build}"
        if major
        else "the CUDA toolkit this TensorFlow was built with (`tfdoctor matrix` lists it) and "
        + of_build
        if asked
        else "the CUDA toolkit and cuDNN versions this TensorFlow was built with (`tfdoctor "
        "matrix` lists them)"
    )
    asking = lines_asking(m) if cuda is None else ""
    if cuda is None and m.os == "windows":
        # Windows finds DLLs through PATH (its loader has no LD_LIBRARY_PATH).
        return Fix(
            f"Install {toolkit}, and make sure the toolkit's bin directory, which holds "
            "cudart64_*.dll (and cuDNN's DLLs beside them), is on PATH."
            + (
                f" {asking}: install the CUDA and cuDNN of the installed TensorFlow's line "
                "(`pip show tensorflow` prints its version)."
                if asking
                else ""
            ),
            ("where.exe cudart64_*.dll cudnn64_*.dll",),
        )
    if cuda is None:
        # Not known which build, nor whether a copy is on disk off the loader's path (an
        # environment's lib, pip's nvidia wheels, another toolkit): look first, install second.
        return Fix(
            "The loader did not find it, which is not yet that it is absent: if the commands "
            "below show a copy (a Python environment's own lib directory, "
            "site-packages/nvidia/*/lib of pip's CUDA wheels, another toolkit's lib64), put "
            "that directory first on LD_LIBRARY_PATH (export LD_LIBRARY_PATH=<that "
            f"directory>:$LD_LIBRARY_PATH). Otherwise install {toolkit}, and put their lib "
            "directory on LD_LIBRARY_PATH."
            + (
                f" {asking}: install the CUDA and cuDNN of the installed TensorFlow's line "
                "(`pip show tensorflow` prints its version)."
                if asking
                else ""
            ),
            _library_search(missing or ("cudart", "cudnn")),
        )
    if m.os == "windows":
        return Fix(
            f"Install CUDA {cuda} and cuDNN {cudnn or '(of its build)'} from NVIDIA's archives "
            f"({CUDA_ARCHIVE}, {CUDNN_ARCHIVE}); copy cuDNN's bin, include and lib into the CUDA "
            "folder, and "
            "make sure its bin directory is on PATH.",
            ("where.exe cudart64_*.dll cudnn64_*.dll",),
        )
    lib_dir = f"/usr/local/cuda-{cuda}/lib64"
    cudnn_text = f"cuDNN {cudnn}" if cudnn else "the cuDNN of its build"
    return Fix(
        f"Install CUDA {cuda} and {cudnn_text} from NVIDIA's archives ({CUDA_ARCHIVE}, "
        f"{CUDNN_ARCHIVE}; the runfile or the distribution packages), then put the toolkit's "
        "lib64 directory on the loader's path.",
        (m.ld_path_with((lib_dir,)),),
    )


def conda_gpu_build_fix(m: Machine, version: str, build: str, channel: str) -> Fix:
    """The GPU build of the same TensorFlow from the conda channel the CPU build came from:
    conda-forge builds CUDA variants under build strings ``cuda*`` (its CPU ones ``cpu_*``),
    the default channels under ``gpu_*`` (their CPU ones ``eigen_*`` and ``mkl_*``);
    installed with ``m``'s installer (:meth:`Machine.conda_install`)."""
    release = version or "*"
    # pixi solves for the CUDA its manifest declares, not the host's: "To utilize CUDA in your
    # workspace, you must specify the desired CUDA version in the system-requirements table"
    # (docs/workspace/system_requirements.md of pixi 0.43.0; from 0.71 a platform's cuda).
    pixi = (
        " In a pixi workspace, declare the CUDA the driver runs first (`pixi workspace "
        "system-requirements add cuda 12`, or from pixi 0.71 the platform's `cuda`): pixi "
        "solves for none otherwise."
        if m.installer == "pixi"
        else ""
    )
    if "conda-forge" in channel or build.startswith("cpu_"):
        return Fix(
            "Install conda-forge's CUDA build of the same TensorFlow into this conda "
            f"environment (its CPU builds are cpu_*, its GPU builds cuda*).{pixi}",
            m.conda_install(f'"tensorflow={release}=cuda*"', channel="conda-forge"),
        )
    return Fix(
        "Install the GPU build of the same TensorFlow from the default channels into this conda "
        "environment (their CPU builds are eigen_* and mkl_*, their GPU builds gpu_*); conda "
        f"installs the CUDA toolkit and cuDNN it needs beside it.{pixi}",
        m.conda_install(f'"tensorflow={release}=gpu_*"'),
    )


def gpu_build_fix(m: Machine) -> Fix:
    """Replace a CPU-only distribution with this platform's GPU build of the same release."""
    assert m.tf is not None
    name = m.tf.name
    line = m.line
    if m.os == "windows" and line is not None and not line.windows_native_gpu:
        return windows_gpu_fix(m)
    if m.os == "macos":
        # No CUDA build exists for macOS: Apple's plugin, the release paired with this
        # TensorFlow (an unpinned one is the newest, built for another TensorFlow line).
        return metal_missing_fix(m)
    if m.platform == "linux-aarch64":
        return Fix(
            "The Linux aarch64 wheels on PyPI are CPU builds; use NVIDIA's TensorFlow container "
            "for this architecture (NGC), which is built with CUDA.",
            ("docker run --gpus all -it --rm nvcr.io/nvidia/tensorflow:24.12-tf2-py3",),
        )
    conda = m.conda_tensorflow
    if conda is not None:
        return conda_gpu_build_fix(m, conda.version, conda.build, conda.channel)
    gpu_dist = line.gpu_package.get("linux") if line is not None else None
    spec = m.and_cuda_spec() or f"{gpu_dist or 'tensorflow'}=={m.tf.version}"
    uninstall = m.pip(f"uninstall -y {name}")
    return Fix(
        f"Replace {name} with the GPU build of the same release ({spec.split('=')[0]}); "
        "remove the CPU build first, as both write the same files.",
        (*uninstall, *m.pip_install(spec)),
    )


def first_line_with_code(m: Machine, capability: str) -> Optional[TFLine]:
    """The oldest line newer than the installed one with machine code for ``capability``."""
    from tfdoctor.compat import carries_machine_code  # noqa: PLC0415 - avoids a cycle at import

    if m.matrix is None:
        return None
    for candidate in reversed(m.matrix.lines):
        if m.line is not None and candidate.key <= m.line.key:
            continue
        if carries_machine_code(candidate, capability):
            return candidate
    return None


def gpu_fit_install(
    m: Machine, capability: str, native: bool = False, oldest: bool = False
) -> tuple[Optional[TFLine], tuple[str, ...]]:
    """The newest (``oldest``: the oldest) final line that fits this machine with a GPU of
    ``capability``, and its install; with ``native``, only a line whose wheels carry machine
    code for that GPU (not PTX alone, which the driver compiles at run time). Never a line
    whose GPU code the matrix does not record: nothing says it runs on that GPU."""
    from tfdoctor.compat import (  # noqa: PLC0415 - avoids a cycle at import
        UNRECORDED,
        Target,
        carries_machine_code,
        install_requirement,
        verdicts,
    )

    if m.matrix is None:
        return None, ()
    here = m.target
    target = Target(here.python, here.platform, None, here.driver, capability)
    found = verdicts(m.matrix, target)  # newest first
    for verdict in reversed(found) if oldest else found:
        line = verdict.line
        if verdict.fits and not line.pre_release:
            if native and not carries_machine_code(line, capability):
                continue
            # A fix installs the line for the GPU's sake: an unrecorded build list (2.2's)
            # would name a release that may carry no code for it either.
            if verdict.gpu_code == UNRECORDED:
                continue
            return line, m.pip_install(install_requirement(line, target))
    return None, ()


def ptx_jit_fix(m: Machine, capability: str) -> Fix:
    """A build with machine code for the GPU's compute capability (a source build whose list
    names it, or the first release that carries it); the JIT cache (4 GiB: TensorFlow's PTX
    fills the 256 MiB default) only spares later starts the compile."""
    first = first_line_with_code(m, capability)
    # gpu_device.cc warns where the build's compute capabilities (TF_CUDA_COMPUTE_CAPABILITIES
    # at ./configure, the wheel's build_info) lack the GPU's: a source build is fixed by its
    # list, a release by one whose list carries it (the matrix's compute_capabilities).
    # A capability not read (explain's "X.Y", a smoke test's "unknown") is named as such.
    named = capability if re.fullmatch(r"\d+\.\d+", capability) else None
    text = (
        f"The build has no machine code for compute capability {named}, so the driver "
        "compiles its PTX for the GPU before the first kernel runs. Use a build that carries "
        f"it: a source build with {named} in TF_CUDA_COMPUTE_CAPABILITIES"
        if named is not None
        else "The build has no machine code for the GPU's compute capability "
        "(`nvidia-smi --query-gpu=compute_cap --format=csv` prints it), so the driver "
        "compiles its PTX for the GPU before the first kernel runs. Use a build that carries "
        "it: a source build with it in TF_CUDA_COMPUTE_CAPABILITIES"
    )
    install: tuple[str, ...] = ()
    if first is not None:
        text += f", or a release with machine code for it (TensorFlow {first.line} and later)."
        # The newest that fits and carries it: a PTX-only release would change nothing.
        _, install = gpu_fit_install(m, capability, native=True)
        # TensorFlow ships no CUDA build for native Windows after 2.10: there the pip line
        # installs a CPU-only TensorFlow (tensorflow.org/install/pip#windows-native).
        if m.os == "windows":
            text += " On Windows that means under WSL 2 (native Windows has no GPU build)."
            install = ()
        elif install and m.os != "linux":
            # An unknown system: the requirement is the Linux one (install_requirement's default).
            text += " The pip line is for Linux or WSL 2 (native Windows has no GPU build)."
    else:
        text += "."
    text += (
        " Until then, let the driver's JIT cache persist and grow so later starts skip the compile."
    )
    # The shell's own way to set it: ``export`` is no command in cmd or PowerShell.
    return Fix(text, set_env(m, ("CUDA_CACHE_MAXSIZE", "4294967296")) + install)


#: The last driver branch that supports Kepler (compute capability 3.x) GPUs.
# https://nvidia.custhelp.com/app/answers/detail/a_id/5202 (Kepler support ends with R470)
KEPLER_LAST_BRANCH = 470


def build_driver_floor(m: Machine) -> Optional[DriverFloor]:
    """The driver the installed build's CUDA needs here (None: no CUDA build or unknown)."""
    from tfdoctor.compat import driver_floor  # noqa: PLC0415 - avoids a cycle at import

    line, cuda = m.line, m.build_cuda
    if m.matrix is None or line is None or cuda is None or m.os not in ("linux", "windows"):
        return None
    if line.cuda != cuda:
        line = dataclasses.replace(line, cuda=cuda)
    # Under WSL the driver is the Windows host's, and reports Windows version numbers.
    return driver_floor(m.matrix, line, "windows" if m.wsl else m.os)


def driver_upgrade(m: Machine, floor: str) -> tuple[str, list[str]]:
    """How to get a driver ``>= floor`` here: the host's under WSL or in a container."""
    branch = floor.split(".", 1)[0]
    caps = m.gpu_capabilities
    if caps and version_key(caps[0]) < (5, 0) and int(branch) > KEPLER_LAST_BRANCH:
        return (
            f"No driver >= {floor} supports this Kepler GPU (R{KEPLER_LAST_BRANCH} is the last "
            "branch for compute capability 3.x)",
            [],
        )
    if m.wsl:
        return (
            f"Update the NVIDIA driver on the Windows host to {floor} or newer (WSL uses the "
            "Windows driver; do not install a Linux driver inside WSL)",
            [],
        )
    if m.container:
        return (
            f"Update the NVIDIA driver on the host to {floor} or newer (a container uses the "
            "host's driver)",
            [],
        )
    if m.os == "windows":
        return f"Install NVIDIA driver {floor} or newer", []
    if m.ubuntu is False:
        # ubuntu-drivers is Ubuntu's own tool: another distribution names its driver packages
        # itself (and NVIDIA's installer serves any).
        return (
            f"Install NVIDIA driver {floor} or newer (the distribution's NVIDIA driver "
            "packages, or NVIDIA's installer)",
            [],
        )
    return (
        f"Install NVIDIA driver {floor} or newer",
        [f"sudo ubuntu-drivers install nvidia:{branch}  # Ubuntu; elsewhere any driver >= {floor}"],
    )


def driver_too_old_fix(m: Machine, floor: Optional[str]) -> Fix:
    """A driver ``>= floor``, or the newest TensorFlow this driver runs."""
    from tfdoctor.compat import install_requirement, newest_fit  # noqa: PLC0415

    if floor is None:
        return Fix(
            "Upgrade the NVIDIA driver to one that supports the CUDA version TensorFlow was "
            "built with (`tfdoctor matrix` lists it).",
            ("nvidia-smi",),
        )
    text, commands = driver_upgrade(m, floor)
    # The newest TensorFlow "this driver runs" only where the driver is known: without it
    # the matrix would name its newest line whatever the driver.
    target = m.target
    best = newest_fit(m.matrix, target) if m.matrix is not None and target.driver else None
    if best is not None:
        commands.extend(m.pip_install(install_requirement(best.line, m.target)))
        text += (
            f"; or keep this driver and install TensorFlow {best.line.latest_patch} "
            f"(CUDA {best.line.cuda}), the newest this driver runs"
        )
    return Fix(text + ".", tuple(commands))


def driver_init_error_fix(m: Machine, floor: Optional[str]) -> Fix:
    """CUDA's bare "initialization error" where no fork is shown: the candidates in order,
    each with what tells it apart (the message is the same for all of them)."""
    # cudaErrorInitializationError / CUDA_ERROR_NOT_INITIALIZED: "the CUDA driver and runtime
    # could not be initialized" (CUDA runtime and driver API references). A driver older than
    # the CUDA a build bundles or links is the commonest reason where nothing else is shown; a
    # child forked after its parent initialised CUDA, and a kernel module that does not match
    # the driver's libraries (an update without a reboot), print the same words.
    older = (
        f"the NVIDIA driver is older than the {floor} the build needs"
        if floor
        else "the NVIDIA driver is too old for the CUDA the build was made with (compare "
        "nvidia-smi's 'CUDA Version' with the CUDA of the TensorFlow release, or of the CUDA "
        "libraries an application bundles)"
    )
    commands = ["nvidia-smi"]
    if floor:
        text, upgrade = driver_upgrade(m, floor)
        commands.extend(upgrade)
        older += f" ({text})"
    return Fix(
        "CUDA could not start. Most likely "
        + older
        + ": update the driver, or use a TensorFlow (or an application build) made with an "
        "older CUDA. Otherwise: a process forked after its parent initialised CUDA (start "
        "workers with the 'spawn' method, or initialise TensorFlow in each worker), or a driver "
        "updated without a reboot (reboot so the kernel module matches its libraries).",
        tuple(commands),
    )


def gpu_memory_errors_fix(index: int) -> Fix:
    """Read the ECC and page-retirement counters, reset the idle GPU, watch the count."""
    return Fix(
        "Read the details, reset the GPU when it is idle, and have the card checked if the "
        "count grows.",
        (f"nvidia-smi -q -d ECC,PAGE_RETIREMENT -i {index}", f"sudo nvidia-smi -r -i {index}"),
    )


#: The command that prints TensorFlow's own log while it lists the GPUs: the level is set
#: from Python before the import, where TensorFlow's C++ logging reads it (TF_CPP_MIN_LOG_LEVEL,
#: tensorflow/tsl/platform/default/logging.cc), so one line runs in sh, cmd and PowerShell
#: alike (sh's ``NAME=value command`` prefix is no syntax in either Windows shell); double
#: quotes outside, single inside, as both Windows shells pass them.
DEVICE_LOG_COMMAND: Final = (
    "python -c \"import os; os.environ['TF_CPP_MIN_LOG_LEVEL'] = '0'; import tensorflow as tf; "
    "print(tf.config.list_physical_devices('GPU'))\""
)


def read_device_log_fix() -> Fix:
    """TensorFlow's own log while it lists devices, to read (or to pass to explain)."""
    return Fix(
        "Read TensorFlow's log while it lists devices (or pipe it to `tfdoctor explain -`).",
        (DEVICE_LOG_COMMAND,),
    )


def cuinit_unknown_fix(m: Machine) -> Fix:
    """Reload the unified-memory module that lost its state (after suspend/resume); in a
    container, on its host, whose kernel the container shares."""
    if m.container:
        return Fix(
            "Reload the nvidia_uvm kernel module on the host (or reboot it): it loses its state "
            "across a suspend/resume, and a container shares the host's kernel modules, so it "
            "cannot reload them itself.",
            ("sudo rmmod nvidia_uvm  # on the host", "sudo modprobe nvidia_uvm  # on the host"),
        )
    return Fix(
        "Reload the nvidia_uvm kernel module (or reboot); it loses its state across a "
        "suspend/resume.",
        ("sudo rmmod nvidia_uvm", "sudo modprobe nvidia_uvm"),
    )


def libcuda_stub_fix(m: Machine, library: Optional[str] = None, has_gpus: bool = False) -> Fix:
    """The driver's libcuda.so.1 instead of the toolkit's stub at ``library`` (where known):
    the stub's directory comes off LD_LIBRARY_PATH, or out of the loader's configuration
    where ldconfig serves it; a container the driver lists no GPU in (``has_gpus`` false) gets
    its GPU handed over, as the stub then stands in for the driver's copy."""
    stubs = str(PurePosixPath(library).parent) if library else None
    if stubs is not None and stubs in m.ld_library_path:
        return ld_remove_fix(m, stubs, "the driver's libcuda.so.1")
    if m.container and not has_gpus:
        return container_gpu_fix(m)
    where = stubs or "the CUDA toolkit's lib64/stubs"
    return Fix(
        f"Take {where} off the loader's path (LD_LIBRARY_PATH, and the /etc/ld.so.conf.d "
        "file that names it, then run ldconfig) so the driver's libcuda.so.1 loads. In a "
        "container the stub stands in for the copy the NVIDIA runtime mounts: start it with "
        "GPU access (docker run --gpus all).",
        (
            'echo "$LD_LIBRARY_PATH"',
            "grep -rl stubs /etc/ld.so.conf.d/",
            "ldconfig -p | grep libcuda.so.1",
        ),
    )


def mig_instances_fix(indices: tuple[int, ...]) -> Fix:
    """MIG devices created on the GPUs at ``indices`` (listed by profile first), or MIG mode
    turned off there; nvidia-smi's commands from NVIDIA's MIG user guide."""
    # Getting Started with MIG: `nvidia-smi mig -lgip` lists the GPU instance profiles,
    # `nvidia-smi mig -cgi <profiles> -C` creates GPU instances with their default compute
    # instances, `nvidia-smi -i <gpus> -mig 0` disables MIG mode. A mode change takes effect
    # as the GPU resets: only with no process or service (nvsm, dcgm) holding it, else it
    # stays pending until a reboot (a VM given the GPU by pass-through: the VM's); NVML's
    # nvmlDeviceSetMigMode, and the DGX A100 user guide's "Using MIG".
    gpus = ",".join(str(i) for i in indices)
    return Fix(
        "Create MIG devices on the GPU (as root: list the profiles, then create GPU instances "
        f"with their compute instances: `sudo nvidia-smi mig -i {gpus} -cgi PROFILE -C`), or "
        "turn MIG mode off to use the whole GPU; then CUDA lists them. Turning MIG mode off "
        "takes effect as the GPU resets, which needs no process or GPU service (nvsm, dcgm) "
        "holding it; while the mode still reads pending, reboot the machine (a VM given the "
        "GPU by pass-through: the VM).",
        (
            f"nvidia-smi mig -i {gpus} -lgip",
            f"sudo nvidia-smi -i {gpus} -mig 0",
            f"nvidia-smi -i {gpus} --query-gpu=index,mig.mode.current,mig.mode.pending "
            "--format=csv",
        ),
    )


def visible_devices_fix(m: Machine) -> Fix:
    """CUDA_VISIBLE_DEVICES that hides every GPU: unset, or set to the GPUs to use, in the
    machine's shells."""
    return Fix(
        "Unset it, or list the GPUs to use.",
        (
            *unset_env(m, "CUDA_VISIBLE_DEVICES"),
            *set_env(m, ("CUDA_VISIBLE_DEVICES", "0")),
        ),
    )


def no_device_fix(m: Machine) -> Fix:
    """CUDA sees no device: CUDA_VISIBLE_DEVICES, the container's GPU access, the driver."""
    if m.container:
        return container_gpu_fix(m)
    return Fix(
        "Check that CUDA_VISIBLE_DEVICES lists valid GPU indices (or unset it), that nvidia-smi "
        "lists a GPU, and, in a container, that it was started with GPU access.",
        (*show_env(m, "CUDA_VISIBLE_DEVICES"), "nvidia-smi -L"),
    )


#: The PCI drivers that hold a GPU for a virtual machine (the kernel's VFIO: vfio-pci; the
#: older pci-stub placeholder): the nvidia module does not drive a device another driver has.
_PASSTHROUGH_DRIVERS = ("vfio-pci", "pci-stub")

#: Why the nvidia module, loaded, drives no GPU (nvidia-smi's "No devices were found": NVML
#: started and counted none), each with what tells it apart; ranked by the evidence in
#: :func:`unbound_gpu_order`.
UNBOUND_GPU_CANDIDATES: Mapping[str, tuple[str, str]] = {
    # NVIDIA's container toolkit: NVIDIA_VISIBLE_DEVICES=none mounts the driver's libraries
    # with no GPU ("no GPU will be accessible, but driver capabilities will be enabled").
    "container": (
        "the container was started with the driver but no GPU",
        "nvidia-smi lists the GPU on the host",
    ),
    # The kernel's VFIO (Documentation/driver-api/vfio.rst): a device bound to vfio-pci is
    # kept for user space, a virtual machine's passthrough.
    "passthrough": (
        "the GPU is bound to vfio-pci, kept for a virtual machine",
        "lspci -nnk -d 10de: says 'Kernel driver in use: vfio-pci'",
    ),
    # kernel-open/nvidia/nv.c: "The NVIDIA probe routine was not called for N device(s) ...
    # nouveau ... obtained ownership of the NVIDIA device(s)".
    "nouveau": (
        "the open-source nouveau driver holds the GPU",
        "lspci -nnk -d 10de: says 'Kernel driver in use: nouveau'",
    ),
    # nv.c's probe logs its refusal with NVRM: a GPU this release does not support ("NVRM:
    # The NVIDIA GPU ... is not supported by the NVIDIA ... driver release"), or its
    # initialisation failing ("RmInitAdapter failed").
    "refused": (
        "the nvidia module's probe refused the GPU: a GPU this driver release does not "
        "support, or its initialisation failed",
        "lspci -nnk -d 10de: shows no 'Kernel driver in use', and dmesg's NVRM lines say why",
    ),
    # NVIDIA's Xid guide: Xid 79, "GPU has fallen off the bus" (hardware, power, thermal).
    "lost": (
        "the GPU fell off the bus after the driver took it",
        "dmesg shows 'Xid 79' or 'GPU has fallen off the bus'",
    ),
}


def unbound_gpu_order(m: Machine) -> tuple[str, ...]:
    """The candidates of :data:`UNBOUND_GPU_CANDIDATES`, most likely first: what the facts
    show (the container, the driver each NVIDIA device on the PCI bus is bound to, a bus read
    with none left on it) and nothing else; without them each host candidate, the one a
    command settles soonest (lspci's "Kernel driver in use") first."""
    if m.container:
        return ("container",)
    kernel = m.facts.nvidia_kernel
    # sysfs's driver link shows each device's binding; lspci read without -k shows none, so a
    # device it lists is bound to nothing known (not to no driver).
    bindings = kernel is not None and kernel.pci_source != "lspci"
    bound = {d.driver for d in kernel.pci_devices} if kernel is not None and bindings else set()
    shown: list[str] = []
    if bound & set(_PASSTHROUGH_DRIVERS):
        shown.append("passthrough")
    if "nouveau" in bound:
        shown.append("nouveau")
    if None in bound:
        shown.append("refused")
    # Bound to nvidia and uncounted, or gone from a bus that was read: what Xid 79 leaves.
    gone = kernel is not None and kernel.pci_source is not None and not kernel.pci_devices
    if "nvidia" in bound or gone:
        shown.append("lost")
    if shown:
        # The bus was read: the binding it shows rules the other bindings out.
        return tuple(shown)
    return ("passthrough", "nouveau", "refused", "lost")


def _passthrough_fix(m: Machine) -> Fix:
    """GPUs bound to vfio-pci handed back to the host: unbound from it and bound to nvidia
    through sysfs (the kernel's Documentation/ABI/testing/sysfs-bus-pci: a driver's bind and
    unbind files take the device's slot; a device's driver_override, which driverctl and
    libvirt set to give vfio-pci the device, lets no other driver bind it until an empty
    write clears it)."""
    kernel = m.facts.nvidia_kernel
    held = [
        (d.slot, d.driver)
        for d in (kernel.pci_devices if kernel is not None else ())
        if d.driver in _PASSTHROUGH_DRIVERS
    ]
    commands = tuple(
        c
        for slot, driver in held
        for c in (
            f"echo {slot} | sudo tee /sys/bus/pci/drivers/{driver}/unbind",
            f"echo | sudo tee /sys/bus/pci/devices/{slot}/driver_override",
            f"echo {slot} | sudo tee /sys/bus/pci/drivers/nvidia/bind",
        )
    )
    # driverctl takes one device a call (driverctl(8): "unset-override <device>").
    unset = " and ".join(
        f"`sudo driverctl unset-override {slot}`" for slot in dict.fromkeys(s for s, _ in held)
    )
    return Fix(
        "Run TensorFlow inside the virtual machine the GPU is kept for, or give the GPU back "
        "to the host. First see whether a virtual machine holds it (lsof lists the QEMU "
        "process that has /dev/vfio open; `virsh list --all` where libvirt runs it) and shut "
        "that VM down: vfio-pci's unbind waits until the device is released. Then unbind it "
        "from vfio-pci and bind it to nvidia, and keep it off vfio-pci at the next boot: take "
        "its id out of vfio-pci's ids= on the kernel command line or in /etc/modprobe.d, and "
        "where driverctl set the override (`driverctl list-overrides` lists it), clear it with "
        f"{unset or '`sudo driverctl unset-override SLOT`'}, since driverctl keeps its "
        "overrides across reboots.",
        # The look comes first: a device a VM still uses blocks the unbind (the kernel's
        # drivers/vfio/vfio_main.c, vfio_unregister_group_dev: "Device is currently in use,
        # task ... blocked until device is released"). driverctl(8)
        # (https://manpages.ubuntu.com/manpages/noble/man8/driverctl.8.html): "The driver
        # overrides created by driverctl are persistent across system reboots by default".
        ("sudo lsof /dev/vfio/*", *commands, "nvidia-smi")
        if commands
        else ("lspci -nnk -d 10de:", "nvidia-smi"),
    )


#: The kernel's own account of the nvidia module's probe and of the GPU's faults.
_NVRM_LOG = "sudo dmesg | grep -E 'NVRM|Xid' | tail -20"


def unbound_gpu(m: Machine) -> tuple[CauseId, Fix]:
    """NVML starts and counts no GPU (nvidia-smi: "No devices were found"): in a container,
    one started with the driver's libraries and no GPU; elsewhere the nvidia module drives
    none (:func:`unbound_gpu_fix`). The one answer check's driver finding and a log's share."""
    if m.container:
        return CONTAINER_NO_GPU, container_gpu_fix(m)
    return GPU_NOT_BOUND, unbound_gpu_fix(m)


def unbound_gpu_fix(m: Machine) -> Fix:
    """The nvidia module runs and drives no GPU: the fix of the candidate the evidence ranks
    first (:func:`unbound_gpu_order`), then the others, each with what tells it apart."""
    order = unbound_gpu_order(m)
    first = order[0]
    if first == "container":
        return container_gpu_fix(m)
    if first == "passthrough":
        fix = _passthrough_fix(m)
    elif first == "nouveau":
        fix = nouveau_fix(m)
    elif first == "refused":
        fix = Fix(
            "The kernel log says why the nvidia module did not take the GPU: a GPU this driver "
            "release does not support needs a driver that does (NVIDIA's driver downloads "
            "list the GPUs each release supports); a failed initialisation, a reboot and, "
            "where it repeats, the GPU's power and seating.",
            (_NVRM_LOG, "lspci -nnk -d 10de:"),
        )
    else:
        fix = Fix(
            "Xid 79 (NVIDIA's Xid guide: the GPU fell off the bus, from power, thermal or "
            "hardware faults) needs the machine rebooted or power-cycled; where it repeats, "
            "the GPU's power, cooling and seating checked.",
            (_NVRM_LOG, "nvidia-smi"),
        )
    what, tell = UNBOUND_GPU_CANDIDATES[first]
    if len(order) == 1:
        return Fix(
            f"The nvidia module is loaded but drives no GPU: {what} ({tell}). {fix.text}",
            tuple(dict.fromkeys((*fix.commands, "lspci -nnk -d 10de:"))),
        )
    steps = [f"1. {what} ({tell}): {fix.text}"]
    for number, key in enumerate(order[1:], 2):
        other, other_tell = UNBOUND_GPU_CANDIDATES[key]
        steps.append(f"{number}. {other} ({other_tell}).")
    return Fix(
        "The nvidia module is loaded but drives no GPU; the reasons, most likely first: "
        + " ".join(steps),
        tuple(dict.fromkeys((*fix.commands, "lspci -nnk -d 10de:", _NVRM_LOG))),
    )


def fabric_manager_fix(m: Machine) -> Fix:
    """NVIDIA Fabric Manager started, of the driver's own version, and the fabric's state; in a
    container, on its host, where the driver and the daemon run."""
    # The Fabric Manager user guide: its package must be the driver's exact version (the
    # driver branch names the package), and the GPUs take CUDA work once the fabric's state
    # is Completed; `nvidia-smi -q` shows it under "Fabric". A container shares the host's
    # driver and has no systemd of its own: the daemon is the host's to run.
    on_host = "  # on the host" if m.container else ""
    where = (
        "Fabric Manager runs on the host, beside the driver, not in the container: on the host "
        "(the node), start it"
        if m.container
        else "Start NVIDIA Fabric Manager"
    )
    return Fix(
        f"{where} and make it start at boot; its version must be the driver's own (its package "
        "is named for the driver's branch). Wait until nvidia-smi shows the fabric's state as "
        "Completed, then run again. On a cluster node or cloud instance you cannot administer, "
        "ask for one whose fabric is up.",
        (
            f"systemctl status nvidia-fabricmanager{on_host}",
            "nvidia-smi -q | grep -i -A 3 fabric",
            "sudo apt-get install nvidia-fabricmanager-$(nvidia-smi "
            "--query-gpu=driver_version --format=csv,noheader | head -n 1 | cut -d. -f1)"
            f"  # {'on the host: ' if m.container else ''}Ubuntu, from NVIDIA's CUDA repository",
            f"sudo systemctl enable --now nvidia-fabricmanager{on_host}",
        ),
    )


def no_permission_fix(container: bool = False) -> Fix:
    """Access for this user to the GPU's device nodes (usually the video group); in a
    ``container``, whose groups the runtime sets at its start, the way it is started."""
    if container:
        # A group added inside the container (usermod there) is not the host's and is lost
        # with it: the runtime's flags decide what the process may open.
        return Fix(
            "The process in the container cannot open /dev/nvidia*: adding a user to a group "
            "inside the container does not change that. Start the container with the GPUs "
            "through NVIDIA's container runtime (--gpus all), which passes the device nodes "
            "it can open, or, where the nodes are passed with --device, add the group that "
            "owns them on the host (--group-add).",
            ("ls -l /dev/nvidia*", "id"),
        )
    return Fix(
        "Give this user access to /dev/nvidia* (usually the video group), then log in again.",
        ("ls -l /dev/nvidia*", 'sudo usermod -aG video "$USER"'),
    )


def profiling_counters_fix() -> Fix:
    """The GPU's performance counters, which the profiler's CUPTI reads, opened to the
    profiled process: root or a container's SYS_ADMIN, or the driver's restriction lifted on
    the host (NVIDIA's ERR_NVGPUCTRPERM page)."""
    return Fix(
        "NVIDIA's driver lets only administrators read the GPU's performance counters, which "
        "TensorFlow's profiler reads through CUPTI: run the profiled program as root, or start "
        "its container with `--cap-add SYS_ADMIN` (or `--privileged`); or lift the restriction "
        "on the host for every user with the nvidia module's option "
        "NVreg_RestrictProfilingToAdminUsers=0, then reboot (on Windows: NVIDIA Control Panel, "
        "Developer, Manage GPU Performance Counters, allow all users). Training runs either "
        "way; only the GPU's side of the profile is missing.",
        (
            "grep RmProfilingAdminOnly /proc/driver/nvidia/params  # 1: administrators only",
            "echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' | sudo tee "
            "/etc/modprobe.d/nvidia-profiling.conf",
        ),
    )


def rocm_no_permission_fix(container: bool) -> Fix:
    """Access for this user to ROCm's device nodes (/dev/kfd, /dev/dri/renderD*), which AMD's
    prerequisites give through the render and video groups; a container's nodes are the
    host's, passed with --device and their group added."""
    if container:
        return Fix(
            "The process in the container cannot open /dev/kfd: the device nodes are not "
            "passed through with their group (the container sees them owned by another group, "
            "often nogroup under rootless Docker or Podman). Start the container with ROCm's "
            "devices and the group that owns them on the host, as AMD's Docker instructions do "
            "(--device=/dev/kfd --device=/dev/dri --group-add video, and render where the host "
            "gives /dev/kfd to render); rootless runtimes also need the host user in that group "
            "(Podman: --group-add keep-groups).",
            ("ls -l /dev/kfd /dev/dri", "getent group render video"),
        )
    return Fix(
        "This user cannot open ROCm's device nodes (/dev/kfd, /dev/dri/renderD*): add the user "
        "to the groups that own them (render and video, as AMD's prerequisites say), then log "
        "in again so the new groups apply.",
        ("ls -l /dev/kfd /dev/dri", 'sudo usermod -a -G render,video "$LOGNAME"', "id"),
    )


def collective_failed_fix(transport: Optional[str] = None) -> Fix:
    """NCCL's own account of a failed collective, and the settings most often at fault; where
    NCCL's warning names the ``transport`` that failed ("socket": no network interface,
    "ib": InfiniBand or RoCE, "p2p": direct access between GPUs), that transport's."""
    # NCCL's environment variables (NCCL user guide, env.html): NCCL_SOCKET_IFNAME picks the
    # interfaces for sockets and bootstrap, NCCL_IB_DISABLE and NCCL_P2P_DISABLE turn a
    # transport off so that the collective falls back to the next one. Left to itself NCCL
    # takes docker* and then lo where nothing else is up (misc/socket.cc, ncclFindInterfaces),
    # so only the variables that narrow its choice leave it none.
    if transport == "socket":
        return Fix(
            "NCCL found no network interface to use: NCCL_SOCKET_IFNAME names none this host "
            "has (or NCCL_SOCKET_FAMILY asks for an address family none of them has). "
            "Set NCCL_SOCKET_IFNAME to the interface that joins the hosts (one `ip -brief "
            "address` lists with the address the other hosts reach), on every worker, or "
            "unset it.",
            (
                "ip -brief address",
                "env | grep ^NCCL_SOCKET_",
                "export NCCL_SOCKET_IFNAME=eth0  # the interface ip listed",
            ),
        )
    if transport == "ib":
        return Fix(
            "NCCL's InfiniBand (or RoCE) transport failed: check the links and the adapters "
            "NCCL picked (their state, NCCL_IB_HCA), the locked-memory limit RDMA needs "
            "(ulimit -l unlimited; a container needs --ulimit memlock=-1 and the RDMA "
            "devices), and rule the fabric out by running once with NCCL_IB_DISABLE=1 (NCCL "
            "then uses its sockets).",
            ("ibstat", "ulimit -l", "export NCCL_DEBUG=INFO NCCL_IB_DISABLE=1"),
        )
    if transport == "p2p":
        return Fix(
            "Direct access between two GPUs failed (a virtual machine, or PCIe ACS or the "
            "IOMMU between them): run with NCCL_P2P_DISABLE=1 so that NCCL copies through "
            "host memory, and look at how the GPUs connect.",
            ("nvidia-smi topo -m", "export NCCL_P2P_DISABLE=1"),
        )
    return Fix(
        "Run again with NCCL's own log to see which step failed; most often it is the network "
        "interface NCCL picked (name the right one with NCCL_SOCKET_IFNAME), shared memory in "
        "a container (--shm-size or --ipc=host), or peer-to-peer access between the GPUs "
        "(NCCL_P2P_DISABLE=1 to rule it out).",
        ("export NCCL_DEBUG=INFO", "ip -brief address"),
    )


#: The NCCL releases with the shared-memory naming bug, from the first up to the fixed one
#: (excluded): NVIDIA/nccl commit 14e0cf6 ("Fix crash during shared memory creation (#185)"),
#: first released in v2.4.6-1.
NCCL_SHM_BUG: Final = ((2, 4, 0), (2, 4, 6))


def nccl_shm_bug(nccl_version: str) -> bool:
    """Whether the NCCL release ``nccl_version`` (as NCCL prints it) has the shared-memory
    naming bug of :data:`NCCL_SHM_BUG`."""
    first, fixed = NCCL_SHM_BUG
    return first <= version_key(nccl_version)[:3] < fixed


def nccl_shm_release_fix(nccl_version: Optional[str], nccl_cuda: Optional[str]) -> Fix:
    """NCCL 2.4's shared-memory naming bug (:data:`NCCL_SHM_BUG`): a fixed release,
    NCCL_SHM_DISABLE until then; ``nccl_version``/``nccl_cuda`` as NCCL's own start line says
    (``nccl_version`` None: the log does not show it, so the release is checked first)."""
    fixed = ".".join(map(str, NCCL_SHM_BUG[1]))
    first = ".".join(map(str, NCCL_SHM_BUG[0]))
    grep = f" | grep cuda{nccl_cuda}" if nccl_cuda else "  # the builds for your CUDA: +cudaX.Y"
    here = (
        f"The NCCL here is {nccl_version}."
        if nccl_version
        else "The log does not show NCCL's release (with NCCL_DEBUG=INFO its first line "
        f"says 'NCCL version X'); this is the reading where it is {first} or later and "
        f"before {fixed}."
    )
    return Fix(
        f"{here} NCCL failed to register its shared memory with CUDA "
        f"('invalid argument' in include/shm.h), which NCCL 2.4 before {fixed} does when two ranks "
        f"on one host share a segment name (NVIDIA/nccl#185). Install NCCL {fixed} or later built "
        "for the same CUDA release, and "
        "build again what links NCCL statically (Horovod built with HOROVOD_NCCL_HOME, "
        "HOROVOD_GPU_ALLREDUCE=NCCL: pip install --no-cache-dir horovod with the same flags); "
        "until then NCCL_SHM_DISABLE=1 keeps NCCL off shared memory (ranks on one host then "
        "use peer-to-peer or the network).",
        (
            "ldconfig -p | grep libnccl",
            "apt-cache madison libnccl2" + grep,
            f"sudo apt-get install libnccl2=VERSION libnccl-dev=VERSION  # {fixed}-1 or later",
            "export NCCL_SHM_DISABLE=1  # until then",
        ),
    )


def nccl_cuda_fix(m: Machine, nccl_cuda: Optional[str] = None) -> Fix:
    """The NCCL build for the CUDA the framework uses, from where this environment gets its
    libraries (conda, the release's pinned wheel, NVIDIA's packages), and no second NCCL
    ahead of it; ``nccl_cuda`` is the CUDA release the loaded NCCL says it was built for."""
    cuda = m.build_cuda
    built = ""
    if nccl_cuda is not None:
        other = cuda is not None and version_key(cuda)[:2] != version_key(nccl_cuda)[:2]
        built = f"The NCCL that ran was built for CUDA {nccl_cuda}" + (
            f", and this TensorFlow uses CUDA {cuda}. " if other else ". "
        )
    want = f"CUDA {cuda}" if cuda else "the CUDA release TensorFlow uses"
    rebuild = (
        " Where Horovod is installed, reinstall it afterwards: pip builds it against the NCCL "
        "it finds."
    )
    shadow = (
        "or remove the separately installed NCCL that loads ahead of the framework's own (a "
        "system libnccl2, a directory on LD_LIBRARY_PATH)."
    )
    # NCCL says which CUDA call failed only with NCCL_DEBUG set (its WARN "Cuda failure
    # '<reason>'"): out of memory or a driver too old read differently from a build mismatch.
    built += (
        "Run again with NCCL_DEBUG=INFO first: NCCL's WARN line then names the CUDA failure "
        "(out of memory, peer access, a driver too old are other causes). For a build of "
        "another CUDA: "
    )
    find = "ldconfig -p | grep libnccl"
    debug = "export NCCL_DEBUG=INFO"
    wheel = _nccl_wheel(m)
    if m.in_conda and (wheel is None or m.conda_tensorflow is not None):
        pin = ""
        if cuda:
            pin = f" cuda-version={cuda}" if version_key(cuda) >= (12,) else f" cudatoolkit={cuda}"
        return Fix(
            f"{built}Install conda's NCCL built for {want} into this environment, {shadow}"
            f"{rebuild}",
            (debug, "conda list nccl", find, *m.conda_install(f"nccl{pin}", channel="conda-forge")),
        )
    if wheel is not None and not _installed_within(m, wheel):
        return Fix(
            f"{built}Install the NCCL wheel this TensorFlow pins for {want} ({wheel}), "
            f"{shadow}{rebuild}",
            (debug, find, *m.pip_install(wheel)),
        )
    if wheel is not None:
        return Fix(
            f"{built}The NCCL wheel this TensorFlow pins for {want} is installed: remove the "
            "separately installed NCCL that loads ahead of it (a system libnccl2, a "
            f"directory on LD_LIBRARY_PATH, another framework's nvidia-nccl wheel).{rebuild}",
            (debug, find, *m.pip("list"), 'echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"'),
        )
    package = f"+cuda{cuda}" if cuda else "+cudaX.Y"
    listing = (
        f"apt-cache madison libnccl2 | grep -F '{package}'"
        if cuda
        else "apt-cache madison libnccl2"
    )
    return Fix(
        f"{built}Install the NCCL build for {want}: NVIDIA's libnccl2 and libnccl-dev whose "
        f"version ends in {package} (`apt-cache madison libnccl2` lists them; install both at "
        "the version it shows: sudo apt-get install libnccl2=<version> libnccl-dev=<version>; "
        "in a conda environment conda's nccl, with pip wheels the nvidia-nccl-cuXX of the CUDA "
        f"major), {shadow}{rebuild}",
        (debug, find, listing),
    )


def _nccl_wheel(m: Machine) -> Optional[str]:
    """The nvidia-nccl-cuXX requirement the installed line's and-cuda extra pins, where its
    CUDA libraries come as those wheels."""
    line = m.line
    if line is None or not line.and_cuda or m.cuda_install_method != "and-cuda":
        return None
    for name, spec in sorted(line.and_cuda.items()):
        if name.startswith("nvidia-nccl-cu"):
            return f"{name}{spec}"
    return None


def _installed_within(m: Machine, requirement: str) -> bool:
    """The requirement's distribution is installed at a version it admits."""
    name = requirement_name(requirement)
    installed = m.facts.package(name)
    return installed is not None and bool(
        spec_contains(installed.version, requirement[len(name) :])
    )


def driver_mismatch_fix() -> Fix:
    """Reload the kernel module of the installed driver: a reboot after an upgrade."""
    return Fix(
        "The driver was upgraded while the old kernel module stayed loaded: reboot (or unload "
        "and reload the nvidia modules) so both are the same version.",
        ("sudo reboot",),
    )


def container_libcuda_newer_fix(kernel: str, dso: str) -> Fix:
    """A container's own libcuda (the image's CUDA forward-compatibility package, or a driver
    library installed into the image) newer than the host's kernel module: the host's driver
    runs the image's CUDA only from a newer branch, so an image of a CUDA it runs, or a host
    driver of the library's branch."""
    return Fix(
        f"The libcuda the process loaded is {dso}, newer than the host's kernel module "
        f"{kernel}: inside a container that is the image's own copy (CUDA's forward-"
        "compatibility package under /usr/local/cuda/compat, or a driver library installed into "
        "the image), which runs only on data-center GPUs and a supported host branch. Use an "
        f"image whose CUDA the host's driver {kernel} runs (the minimum driver of each CUDA "
        f"release is in NVIDIA's table), or upgrade the host's driver to {dso} or newer; do "
        "not install driver libraries into the image (the NVIDIA runtime mounts the host's).",
        (
            "cat /proc/driver/nvidia/version",
            "ls -l /usr/local/cuda/compat 2>/dev/null",
            "ldconfig -p | grep libcuda",
        ),
    )


def compat_libcuda_fix(library: Optional[str]) -> Fix:
    """CUDA's forward-compatibility libcuda (the cuda-compat package, /usr/local/cuda/compat)
    loaded on a GPU that refuses it (cuInit's CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, 804)
    while the driver itself runs the build: that directory off the loader's path, so the
    driver's own libcuda loads. NVIDIA's CUDA Compatibility guide: forward compatibility is
    for data-center GPUs only (https://docs.nvidia.com/deploy/cuda-compatibility/). Without
    ``library`` (a log that names no path), the compat/ directory the guide installs under
    the toolkit's (/usr/local/cuda/compat) is the one to look for."""
    if library is None:
        shown, directory = "a compat/ directory, /usr/local/cuda/compat by default", ""
    else:
        shown = library
        directory = library.rsplit("/", 1)[0] if "/" in library else library
    where = directory or "that directory"
    return Fix(
        f"The libcuda that loads is CUDA's forward-compatibility copy ({shown}), a newer "
        "driver library than the kernel module, which only data-center GPUs accept; this "
        f"driver runs the build without it. Take {where} off the loader's path "
        "(LD_LIBRARY_PATH, or the /etc/ld.so.conf.d file that names it, then ldconfig), or "
        "remove the cuda-compat package, so the driver's own libcuda.so.1 loads.",
        (
            'echo "$LD_LIBRARY_PATH"',
            f"grep -rl {directory or 'compat'} /etc/ld.so.conf.d/",
            "ldconfig -p | grep libcuda.so.1",
        ),
    )


def container_libcuda_older_fix(kernel: str, dso: str) -> Fix:
    """A container's own libcuda (a driver library installed into the image) older than the
    host's kernel module: it shadows the host's that the NVIDIA runtime mounts, so the image
    without driver libraries; a reboot changes neither."""
    # The NVIDIA container runtime mounts the host's driver libraries, which match the host's
    # module (nvidia-container-cli asks NVML first, and a mismatch stops the container's
    # start): https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/arch-overview.html
    return Fix(
        f"The libcuda the process loaded is {dso}, older than the host's kernel module "
        f"{kernel}: inside a container that is a driver library installed into the image "
        "(a driver package, or the cuda meta-package that pulls one in), found before the "
        "host's that the NVIDIA runtime mounts; rebooting does not change it. Rebuild the "
        "image without driver libraries (install cuda-toolkit-X-Y rather than cuda, or start "
        "FROM a CUDA image) and run it with the GPU (docker run --gpus all).",
        (
            "cat /proc/driver/nvidia/version",
            "ldconfig -p | grep libcuda",
        ),
    )


def libcuda_beside_module_fix(version: str) -> Fix:
    """The NVIDIA kernel module ``version`` is loaded, and libcuda is not where the loader
    looks: the driver's user-space libraries of that version, or their directory made known."""
    return Fix(
        f"The NVIDIA kernel module {version} is loaded, but the driver's user-space library "
        "(libcuda.so.1) is not where the loader looks: install the driver's libraries of the "
        f"same version {version} (the distribution's libnvidia-compute / nvidia-utils package "
        "of that driver, or the driver installer again), or add the directory that holds "
        "libcuda.so.1 to the loader's path (ldconfig). A conda environment's own driver stub "
        "does not replace it. In a container (which sees the host's module), the GPU was not "
        "handed over: start it with --gpus all (the NVIDIA Container Toolkit mounts libcuda).",
        (
            "cat /proc/driver/nvidia/version",
            "ldconfig -p | grep libcuda",
        ),
    )


#: Hosted notebooks whose VM gets a GPU, and its driver, only from the runtime's accelerator
#: setting: the user installs no driver there (a Deep Learning VM or SageMaker instance with a
#: GPU attached may need its driver installed, the driver's own fix). A Databricks cluster is
#: one: its GPU comes with a GPU instance type and a GPU ML runtime, which installs the driver
#: and the CUDA and cuDNN its TensorFlow pairs with (https://docs.databricks.com/aws/en/compute/gpu,
#: https://docs.databricks.com/aws/en/machine-learning/databricks-runtime-ml).
_RUNTIME_GPU_NOTEBOOKS = ("colab", "kaggle", "databricks")


def runtime_chooses_gpu(m: Machine) -> bool:
    """The machine is a notebook whose runtime setting gives it a GPU, on Linux (or a system
    not known), and no container the user started is shown (a probe's hosted facts outrank a
    container the VM runs the notebook in: the user cannot pass that one a GPU)."""
    if (m.notebook not in _RUNTIME_GPU_NOTEBOOKS and not sagemaker_without_gpu(m)) or m.os not in (
        None,
        "linux",
    ):
        return False
    return m.facts.hosted is not None or not m.container


def driver_not_loaded(m: Machine) -> tuple[CauseId, Fix]:
    """TensorFlow could not load the driver's libcuda: inside a container, the GPU was not
    handed over (the host's driver comes with it); elsewhere, the driver is not loaded. The one
    answer check's import failure and explain's log line share. On a hosted notebook's VM the
    driver comes with a GPU runtime: the runtime's accelerator is what to change."""
    if runtime_chooses_gpu(m):
        return HOSTED_RUNTIME_WITHOUT_GPU, hosted_gpu_runtime_fix(m)
    return (CONTAINER_NO_GPU if m.container else DRIVER_NOT_LOADED), driver_load_fix(m)


def _initramfs_rebuild(m: Machine) -> str:
    """The command that rebuilds the initramfs on this distribution, then reboots only where
    the rebuild succeeded (a reboot with nouveau still in the old initramfs changes nothing):
    update-initramfs on Debian and Ubuntu, ``dracut --force`` on Fedora and RHEL (NVIDIA's
    CUDA installation guide for Linux, "Disabling Nouveau") and on SUSE, whose mkinitrd (the
    guide's word for openSUSE) is a dracut wrapper SUSE retired
    (https://bugzilla.suse.com/show_bug.cgi?id=1202353); both, marked, where the distribution
    is unknown."""
    if m.packager == "apt":
        return "sudo update-initramfs -u && sudo reboot"
    if m.packager in ("dnf", "yum", "zypper"):
        return "sudo dracut --force && sudo reboot"
    return (
        "sudo update-initramfs -u && sudo reboot  # Debian, Ubuntu (Fedora, RHEL, SUSE: "
        "sudo dracut --force && sudo reboot)"
    )


def nouveau_fix(m: Machine) -> Fix:
    """The open-source nouveau driver holds the GPU, so the nvidia module finds no device to
    probe (the module's own words, kernel-open/nvidia/nv.c: "The NVIDIA probe routine was not
    called for N device(s) ... nouveau, rivafb, nvidiafb or rivatv was loaded and obtained
    ownership"): nouveau blacklisted, the initramfs rebuilt (NVIDIA's CUDA installation guide
    for Linux, "Disabling Nouveau")."""
    return Fix(
        "The open-source nouveau driver holds the GPU: blacklist it, rebuild the initramfs "
        "and reboot, then load nvidia.",
        (
            'echo "blacklist nouveau" | sudo tee /etc/modprobe.d/blacklist-nouveau.conf',
            _initramfs_rebuild(m),
        ),
    )


#: Where each module builder keeps the public half of the key it signs the nvidia module with.
#: DKMS generates its own on first use (dkms's README, "Module signing":
#: https://github.com/dell/dkms/blob/master/README.md: "placed in /var/lib/dkms"), Debian's DKMS
#: too (https://wiki.debian.org/SecureBoot, "DKMS"). Ubuntu's DKMS signs with the MOK that
#: shim-signed's update-secureboot-policy creates and enrolls
#: (https://wiki.ubuntu.com/UEFI/SecureBoot/DKMS: /var/lib/shim-signed/mok/MOK.der). RPM
#: Fusion's akmods (Fedora and its rebuilds) with the key kmodgenca creates
#: (https://rpmfusion.org/Howto/Secure%20Boot; akmods' README.secureboot).
DKMS_MOK = "/var/lib/dkms/mok.pub"
UBUNTU_MOK = "/var/lib/shim-signed/mok/MOK.der"
AKMODS_MOK = "/etc/pki/akmods/certs/public_key.der"


def secure_boot_fix(m: Optional[Machine] = None) -> Fix:
    """The kernel refuses the nvidia module's signature: UEFI Secure Boot (through the
    kernel's lockdown, security/lockdown/lockdown.c "unsigned module loading") admits only
    modules signed by a key it trusts, and a module built on the machine is signed by the
    machine's own key (MOK), which must be enrolled once through shim's MokManager at the next
    boot. Which key that is depends on the builder, so on the distribution os-release names:
    Ubuntu and its derivatives, DKMS elsewhere, akmods on Fedora and its family; where the
    distribution is unknown, the builders' key files are listed to enroll the one present."""
    if m is not None and m.ubuntu:
        return Fix(
            "Secure Boot is on and refuses the nvidia module: enroll the machine's module "
            f"signing key (MOK, {UBUNTU_MOK}, which Ubuntu's DKMS signs with) and reboot; "
            "MokManager asks for the password at the next boot. Or disable Secure Boot.",
            ("sudo update-secureboot-policy --enroll-key", "sudo reboot"),
        )
    dkms_built = m is not None and m.facts.nvidia_kernel is not None and m.facts.nvidia_kernel.dkms
    if m is not None and not dkms_built and m.os_like("fedora", "rhel", "centos"):
        return Fix(
            "Secure Boot is on and refuses the nvidia module: enroll the akmods signing key "
            "(kmodgenca creates it where none exists) and reboot; MokManager asks for the "
            "password at the next boot. Or disable Secure Boot.",
            ("sudo kmodgenca -a", f"sudo mokutil --import {AKMODS_MOK}", "sudo reboot"),
        )
    if m is not None and (dkms_built or m.os_like("debian")):
        return Fix(
            "Secure Boot is on and refuses the unsigned nvidia module: enroll the DKMS signing "
            "key (MOK) and reboot, or disable Secure Boot.",
            (f"sudo mokutil --import {DKMS_MOK}", "sudo reboot"),
        )
    return Fix(
        "Secure Boot is on and refuses the nvidia module: enroll the key that signed it (MOK) "
        "and reboot, or disable Secure Boot. The key depends on what built the module: "
        f"DKMS's {DKMS_MOK}, Ubuntu's {UBUNTU_MOK} (sudo update-secureboot-policy "
        f"--enroll-key), akmods' {AKMODS_MOK}: ls shows which of them this machine has, "
        "modinfo names the key that signed the module. The commands enroll the first of "
        "them present; where ls lists more than one, enroll the one modinfo names instead "
        "(`sudo mokutil --import FILE`), then reboot.",
        (
            f"ls {DKMS_MOK} {UBUNTU_MOK} {AKMODS_MOK} 2>/dev/null",
            "modinfo -F signer nvidia",
            # The first key file present, never one this machine lacks (mokutil would fail
            # on a missing file and enroll nothing).
            f"for k in {DKMS_MOK} {UBUNTU_MOK} {AKMODS_MOK}; do "
            '[ -e "$k" ] && { sudo mokutil --import "$k"; break; }; done',
            "sudo reboot",
        ),
    )


def driver_load_fix(m: Machine) -> Fix:
    """Load (or install) the NVIDIA kernel driver, as far as the kernel facts tell why it is
    not loaded: nouveau holding the GPU, Secure Boot refusing the module, DKMS without a build
    for the running kernel. A container's host hands the driver over."""
    if runtime_chooses_gpu(m):
        return hosted_gpu_runtime_fix(m)
    if m.container:
        return container_gpu_fix(m)
    if m.wsl:
        return Fix(
            "Install the NVIDIA driver on the Windows host (WSL uses it; do not install a Linux "
            "driver inside WSL)."
        )
    if m.os == "macos":
        # No CUDA build exists for macOS: no NVIDIA driver to load or install there (what asks
        # for one, nvidia-smi or NVML's bindings, finds none); Apple's plugin is the GPU's way.
        metal = metal_missing_fix(m)
        return Fix(
            "macOS has no NVIDIA driver to load: nothing here answers nvidia-smi or NVML, and "
            "TensorFlow has no CUDA build for macOS. " + metal.text,
            metal.commands,
        )
    if m.os == "windows":
        # Windows has no kernel module to load: the driver's installer puts nvcuda.dll in
        # System32.
        return Fix(
            "Install the NVIDIA driver for this GPU (NVIDIA's driver download page, or the "
            "GPU's vendor); its installer puts nvcuda.dll in C:\\Windows\\System32. Then "
            "nvidia-smi lists the GPU.",
            ("nvidia-smi", "where.exe nvcuda.dll"),
        )
    kernel = m.facts.nvidia_kernel
    modules = kernel.modules if kernel is not None and kernel.modules is not None else ()
    bound = {d.driver for d in kernel.pci_devices} if kernel is not None else set()
    release = m.facts.platform.release if m.facts.platform is not None else ""
    if "nouveau" in modules or "nouveau" in bound:
        if kernel is not None and kernel.secure_boot:
            # Without nouveau the unsigned module meets Secure Boot next: the key enrolled in
            # the same reboot (MokManager asks for it at boot).
            held, refused = nouveau_fix(m), secure_boot_fix(m)
            enroll = tuple(c for c in refused.commands if c != "sudo reboot")
            return Fix(
                f"{held.text} Secure Boot is on as well, and refuses the unsigned module "
                "next: enroll its signing key (MOK) before that reboot.",
                (held.commands[0], *enroll, *held.commands[1:]),
            )
        return nouveau_fix(m)
    if kernel is not None and kernel.secure_boot:
        return secure_boot_fix(m)
    if kernel is not None and kernel.dkms and not any(release in d for d in kernel.dkms):
        return Fix(
            "The nvidia module was built for another kernel (DKMS has none for this one): build "
            "it for the running kernel, then load it.",
            ("sudo dkms autoinstall", "sudo modprobe nvidia", "nvidia-smi"),
        )
    return Fix(
        "Load the nvidia kernel module; if that fails (dmesg says why), reinstall the NVIDIA "
        "driver for the running kernel.",
        ("sudo modprobe nvidia", "sudo dmesg | grep -i nvidia | tail", "nvidia-smi"),
    )


def driver_userspace_fix(m: Machine) -> Fix:
    """The nvidia kernel module is loaded (its device nodes exist) but the driver's user-space
    libraries (libnvidia-ml.so.1, libcuda.so.1) are not found: those of the loaded module's
    version reinstalled. A container, WSL or Windows gets the driver where it lives."""
    if m.container or m.wsl or m.os == "windows":
        return driver_load_fix(m)
    kernel = m.facts.nvidia_kernel
    line = kernel.kernel_module_version if kernel is not None else None
    # /proc/driver/nvidia/version: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03 ...",
    # the open modules' "NVIDIA UNIX Open Kernel Module for x86_64  560.35.03 ..."
    found = re.search(r"Kernel Module(?: for \S+)?\s+(\d+)\.\d+", line or "")
    branch = found.group(1) if found else None
    text = (
        "The nvidia kernel module is loaded, but the driver's user-space libraries "
        "(libnvidia-ml.so.1, libcuda.so.1) are not where the loader finds them: a partial or "
        "broken driver install (the libraries removed, or of another package than the module). "
        "Reinstall the user-space libraries of the driver the loaded module belongs to"
        + (f" (branch {branch})" if branch else "")
        + "; then nvidia-smi lists the GPU."
    )
    commands: tuple[str, ...] = (
        "cat /proc/driver/nvidia/version",
        "ldconfig -p | grep -E 'libnvidia-ml.so.1|libcuda.so.1'",
    )
    if branch and m.ubuntu:
        # Ubuntu's driver packages put libcuda.so.1 and libnvidia-ml.so.1 in
        # libnvidia-compute-<branch> (packages.ubuntu.com, nvidia-graphics-drivers-<branch>);
        # the server flavour's source (nvidia-graphics-drivers-<branch>-server) in
        # libnvidia-compute-<branch>-server, and a .run install in no package at all. The
        # query shows which one this machine has before anything is reinstalled.
        text += (
            f" dpkg-query lists the libnvidia-compute-{branch} package the machine has: "
            "reinstall the one it lists with a version (the apt-get line is for the desktop "
            f"flavour; the server one is libnvidia-compute-{branch}-server); where it lists none, "
            "the driver came from NVIDIA's .run installer: run the installer of the loaded "
            "module's version again."
        )
        commands += (
            f"dpkg-query -W 'libnvidia-compute-{branch}*'",
            f"sudo apt-get install --reinstall libnvidia-compute-{branch}",
        )
    else:
        text += (
            " Reinstall the driver package (or the .run installer) of that same version: "
            "the module and its libraries must be of one release."
        )
    return Fix(text, (*commands, "nvidia-smi"))


def _cpu_build_swap(m: Machine) -> tuple[str, tuple[str, ...]]:
    """The CPU build of the installed release, as the text names it, and the commands that
    put it in place of the GPU build (none where it is not known or already installed)."""
    tf = m.tf
    # The CPU build of the same release: tensorflow itself where the matrix's GPU build is
    # another distribution (tensorflow-gpu: up to 2.0 but 1.15.0), tensorflow-cpu where the
    # GPU build is tensorflow itself (1.15.0, and 2.1 on: each one's release notes say
    # CPU-only packages are at tensorflow-cpu). Unknown: named, not run.
    gpu_dist = m.matrix.gpu_distribution(tf.version) if tf and m.matrix else None
    cpu = (
        None
        if tf is None or gpu_dist is None
        else f"tensorflow-cpu=={tf.version}"
        if gpu_dist == "tensorflow"
        else f"tensorflow=={tf.version}"
    )
    swap: tuple[str, ...] = ()
    if cpu is not None and m.tf_name != "tensorflow-cpu":
        swap = m.pip(f"uninstall -y {m.tf_name or 'tensorflow'}") + m.pip_install(cpu)
    return (f"`{cpu}`" if cpu else "tensorflow for 1.x, tensorflow-cpu for 2.x"), swap


def no_nvidia_gpu_fix(m: Machine, lead: str = "") -> Fix:
    """The fix where the facts show no NVIDIA GPU at all (:attr:`Machine.no_nvidia_gpu_seen`):
    TensorFlow's CPU build, or a machine with a GPU; never a driver or a container's GPU flag,
    which hand over a GPU only where there is one. ``lead``: what needs the GPU, said first."""
    named, swap = _cpu_build_swap(m)
    # Observed, not inferred: no NVIDIA device on the PCI bus and no nvidia module (a
    # container reads its host's), so no driver install or container flag can give it one.
    where = "its host has" if m.container else "it has"
    return Fix(
        f"{lead}This machine has no NVIDIA GPU ({where} no NVIDIA device on the PCI bus and no "
        f"nvidia kernel module loaded): install the CPU build of the same release ({named})"
        + (", or use the CPU variant of the image" if m.container else "")
        + ", or run this build on a machine with an NVIDIA GPU and its driver.",
        swap,
    )


def libcuda_import_fix(m: Machine) -> Fix:
    """A GPU build whose import needs libcuda.so.1 (TensorFlow 1.x's GPU wheels linked it):
    the driver where there is a GPU, the CPU build where there is none."""
    if m.no_nvidia_gpu_seen:
        return no_nvidia_gpu_fix(
            m,
            "libcuda.so.1 is the NVIDIA driver's library, and a GPU build that links it "
            "(TensorFlow 1.x's GPU wheels did) cannot import without it. ",
        )
    named, swap = _cpu_build_swap(m)
    commands: tuple[str, ...] = ("nvidia-smi", "ldconfig -p | grep -F libcuda.so.1", *swap)
    return Fix(
        "libcuda.so.1 is the NVIDIA driver's library (installed with the driver, not with the "
        "CUDA toolkit or a wheel), and a GPU build that links it (TensorFlow 1.x's GPU wheels "
        "did) cannot import without it. On a machine with an NVIDIA GPU, install the driver "
        "(nvidia-smi then lists the GPU); on machines without one (a cluster's CPU nodes), "
        f"install the CPU build of the same release instead ({named}). In a container, the "
        "host's driver library is mounted only into a container started with the GPU "
        "(`docker run --gpus all`, with the NVIDIA Container Toolkit on the host). Where the "
        "driver is installed and the loader still misses it (a container's CUDA compat "
        "directory, a driver in a non-standard place), add the directory holding libcuda.so.1 "
        "to LD_LIBRARY_PATH.",
        commands,
    )


def _nightly_has_and_cuda(m: Machine) -> bool:
    """Whether a tf-nightly build has the and-cuda extra: the line its version precedes has
    one (the matrix's), or is newer than every line the matrix knows (2.14's nightlies were
    the first with it)."""
    if m.tf is None or m.matrix is None:
        return True
    line = m.matrix.line_for(m.tf.version)
    if line is None:
        return all(version_key(m.tf.version) > version_key(x.line) for x in m.matrix.lines)
    return line.and_cuda is not None


def rocm_match_fix(m: Machine, library: Optional[str]) -> Fix:
    """The tensorflow-rocm release built for the installed ROCm, or the ROCm release the
    installed wheel was built for (``library``: the ROCm library that did not load)."""
    asked = f" (it asks for {library})" if library else ""
    return Fix(
        f"The installed tensorflow-rocm was built for another ROCm release{asked}. Install the "
        "tensorflow-rocm built for the installed ROCm (its version ends in the ROCm release: "
        "2.14.0.600 is for ROCm 6.0.0; AMD's support matrix lists the TensorFlow releases of "
        "each ROCm, and from ROCm 6.1 the wheels are on repo.radeon.com), or install the ROCm "
        "release the wheel was built for. Where ROCm is not installed at all, install the "
        "release the wheel was built for; where the library exists under /opt/rocm but off "
        "the loader's path (/opt/rocm/hip/lib, /opt/rocm/lib), put that directory on "
        "LD_LIBRARY_PATH first.",
        (
            "cat /opt/rocm/.info/version",
            "ls /opt/rocm/lib /opt/rocm/hip/lib 2>/dev/null | grep -E 'amdhip|hip_hcc|mcwamp'",
            *m.pip("show tensorflow-rocm"),
            *m.list_releases("tensorflow-rocm"),
        ),
    )


def rocm_arch_fix(
    m: Machine,
    target: Optional[str] = None,
    supported: Optional[str] = None,
    minimum: Optional[str] = None,
) -> Fix:
    """A ROCm build without code for the GPU's architecture (``target``, gfxNNNN), with the
    list of targets the build printed (``supported``), or the oldest of them (``minimum``:
    gpu_device.cc's first words), where the log shows it."""
    which = f" ({target})" if target else " (its gfx name)"
    listed = f" This build lists {supported}." if supported else ""
    if minimum and not supported:
        listed = (
            f" The oldest target this build carries is {minimum}, and TensorFlow ignores a GPU "
            "whose ISA is below it."
        )
    build = f"TF_ROCM_AMDGPU_TARGETS={target}" if target else "TF_ROCM_AMDGPU_TARGETS"
    return Fix(
        f"The ROCm build has no code object for this GPU's architecture{which}.{listed} Use a "
        "ROCm and tensorflow-rocm release that lists this GPU as supported (AMD's GPU support "
        "list for the ROCm release), another GPU the build lists, or a build made for its gfx "
        f"target (a source build configured with {build}).",
        (
            "rocminfo | grep -m1 -o 'gfx[0-9a-f]*'",
            "cat /opt/rocm/.info/version",
            *m.pip("show tensorflow-rocm"),
        ),
    )


#: One target of the list gpu_device.cc prints ("The supported AMDGPU versions are gfx1030,
#: gfx900, ..."): a gfx name, with ROCm's feature suffixes (gfx90a:sramecc+:xnack-) left off.
_GFX_ITEM = re.compile(r"gfx[0-9a-f]{2,5}")


def rocm_target_listed(target: str, supported: str) -> Optional[str]:
    """The item of the printed list ``supported`` that holds ``target`` (a gfx name) where the
    build's list has it, as an item of its own or run together with another (a list missing
    a comma prints "gfx1030gfx1100"); None where the list lacks it: no code for the GPU."""
    base = _GFX_ITEM.match(target)
    name = base.group(0) if base else target
    for item in (x.strip() for x in supported.split(",")):
        if name in _GFX_ITEM.findall(item):
            return item
    return None


def rocm_arch_list_fix(m: Machine, target: str, item: str) -> Fix:
    """A tensorflow-rocm that refuses a GPU its own printed list holds: the list it checks
    against is malformed (``item``, two targets without a comma), not the GPU unsupported."""
    joined = item != target
    why = (
        f"its list of supported targets runs two together ('{item}': a comma missing in the "
        "list the build was compiled with, stream_executor's device_description.h), so no "
        f"GPU matches either of them although the build has code for {target}"
        if joined
        else f"it lists {target} yet its check refuses the GPU"
    )
    return Fix(
        f"TensorFlow ignored the GPU ({target}) although the build supports it: {why}. This is "
        "a defect of that tensorflow-rocm build, not of the machine: install a tensorflow-rocm "
        "release for the installed ROCm that was built after the list was corrected (AMD's "
        "table names the releases for each ROCm; from ROCm 6.1 the wheels are on "
        "repo.radeon.com), or build tensorflow-rocm from a source tree with the corrected "
        "list. Upgrading ROCm or the driver does not change the list inside the wheel.",
        (
            *m.pip("show tensorflow-rocm"),
            "cat /opt/rocm/.info/version",
            *m.list_releases("tensorflow-rocm"),
        ),
    )


def rocm_libs_off_path_fix(
    library: Optional[str], build: bool, release: Optional[str] = None
) -> Fix:
    """ROCm's libraries on the disk outside the prefix TensorFlow's build configuration
    (``build``) or the installed wheel's loader searches (``library``: the one it named,
    rocm_configure's name or a file name); ``release``: the ROCm release the installed
    tensorflow-rocm's version names (:attr:`Machine.rocm_release`)."""
    name = library or "the ROCm library"
    stem = re.sub(r"^lib|\.so.*$", "", library) if library else "amdhip64"
    find = f"find / -path /proc -prune -o -name 'lib{stem}*.so*' -print 2>/dev/null"
    missing = (
        " Where the search finds no such file, that ROCm component is not installed: install "
        "it from the ROCm release "
    )
    if build:
        return Fix(
            f"TensorFlow's ROCm configuration did not find {name} where it looks: under "
            "ROCM_PATH (/opt/rocm unless set) in the lib directories its release knows. Find "
            "where the library is installed; set ROCM_PATH to the prefix ROCm is installed "
            "under (/opt/rocm-X.Y.Z where no /opt/rocm link exists); where a distribution's "
            "packages keep a component in a directory of its own (HIP's libraries under "
            "/opt/rocm/hip/lib), link the library into $ROCM_PATH/lib or add that directory "
            "to the search paths in third_party/gpus/rocm_configure.bzl, then configure "
            "again." + missing + "the source tree supports.",
            ("ls -d /opt/rocm*", find, 'echo "$ROCM_PATH"'),
        )
    return Fix(
        f"tensorflow-rocm could not open {name} from the loader's path. Find where it is "
        "installed and put that directory on the path: an /etc/ld.so.conf.d entry and "
        "ldconfig (ROCm under /opt/rocm-X.Y.Z without the /opt/rocm link, a distribution's "
        "own prefix), or LD_LIBRARY_PATH."
        + missing
        + (
            f"{release}, the one this tensorflow-rocm's version names."
            if release
            else "the wheel was built for (its version ends in the ROCm release; AMD's table)."
        ),
        ("ls -d /opt/rocm*", find, f"ldconfig -p | grep -F lib{stem}", "sudo ldconfig"),
    )


def rocm_libraries_fix(m: Machine, missing: tuple[str, ...]) -> Fix:
    """A ROCm build of TensorFlow that skipped the GPU because ROCm libraries did not load.

    gpu_device.cc prints "Cannot dlopen some GPU libraries" under ``GOOGLE_CUDA ||
    TENSORFLOW_USE_ROCM`` alike; on tensorflow-rocm the libraries are ROCm's (HIP's
    libamdhip64, rocBLAS, MIOpen, rocFFT, ...), which CUDA, cuDNN or ``tensorflow[and-cuda]``
    never provide. The ROCm release is the one the wheel's version names where it does
    (:attr:`Machine.rocm_release`), else the one AMD's table pairs with it."""
    release = m.rocm_release
    version = m.tf.version if m.tf is not None else None
    built = (
        f"ROCm {release}, the release tensorflow-rocm {version} was built for (its version's "
        "fourth part)"
        if release
        else "the ROCm release this tensorflow-rocm was built for (AMD's table pairs each "
        "tensorflow-rocm release with its ROCm)"
    )
    names = ", ".join(missing) if missing else "ROCm libraries"
    # amdgpu-install is a package of its own, one per ROCm release, whose every use case
    # installs the kernel driver too (ROCM_AMDGPU_INSTALL): named, never run blindly.
    dkms = (
        ", with --no-dkms in this container, whose kernel driver is the host's"
        if m.container is not None
        else ""
    )
    return Fix(
        f"This TensorFlow is AMD's ROCm build, which loads ROCm's libraries, not CUDA's: "
        f"{names} did not load, so it skipped the GPU. Install {built} with AMD's installer "
        "of that release (its amdgpu-install package from repo.radeon.com/amdgpu-install/, "
        f"then amdgpu-install --usecase=rocm{dkms}) or its packages, and put its lib "
        "directory (/opt/rocm/lib, or /opt/rocm-X.Y.Z/lib without the /opt/rocm link) on the "
        "loader's path. CUDA, cuDNN and NVIDIA's library wheels do not serve this build.",
        (
            "cat /opt/rocm/.info/version",
            "ls /opt/rocm/lib | grep -E 'amdhip64|rocblas|MIOpen'",
            *m.pip("show tensorflow-rocm"),
        ),
    )


def torch_gpu_code(capability: Optional[str], archs: Sequence[str]) -> Optional[str]:
    """How a GPU of ``capability`` (``8.6``) runs what PyTorch's build carries (``archs`` as
    it prints them: ``sm_80``, PTX's ``compute_90``): :data:`~tfdoctor.compat.SASS`,
    :data:`~tfdoctor.compat.PTX` or :data:`~tfdoctor.compat.NONE`, by CUDA's own rules
    (:func:`tfdoctor.compat.gpu_code`: machine code of the same major and an older minor runs,
    PTX of an older architecture compiles); None where the log shows either not."""
    if not capability or not archs:
        return None
    return gpu_code(build_capabilities(tuple(archs)), capability)


def torch_arch_fix(capability: Optional[str], archs: Sequence[str], failed: bool = True) -> Fix:
    """PyTorch's build and a GPU it warned of (``capability``: ``8.6``, where shown;
    ``archs``: what the build carries, as PyTorch prints them, ``sm_70`` and PTX's
    ``compute_90``; ``failed``: the log shows a kernel failing, not the warning alone): where
    the build's machine code runs on the GPU, nothing to change; where its PTX compiles for
    it, the program runs after the driver compiles it; else a wheel built with a CUDA that
    knows the GPU where it is newer than the build's newest architecture (the first CUDA that
    knows it, from the CUDA table), an older release where it is older than the oldest.
    PyTorch's wheels are chosen by the CUDA they were built with
    (https://pytorch.org/get-started/locally/ gives each one's index URL);
    ``torch.cuda.get_arch_list()`` prints what the build carries (torch/cuda/__init__.py)."""
    commands = (
        'python -c "import torch; print(torch.__version__, torch.version.cuda, '
        'torch.cuda.get_arch_list())"',
        "nvidia-smi --query-gpu=name,compute_cap --format=csv",
    )
    levels = sorted(int(a[3:]) for a in archs if a.startswith("sm_") and a[3:].isdigit())
    cc = int(capability.replace(".", "")) if capability else None
    carries = f" (it carries {' '.join(archs)})" if archs else ""
    code = torch_gpu_code(capability, archs)
    if code == SASS and not failed:
        return Fix(
            f"This PyTorch build carries machine code of the GPU's major{carries}, which CUDA "
            f"runs on a GPU of compute capability {capability}: its warning does not stop the "
            "program, and nothing needs to change for it.",
            commands,
        )
    if code != SASS and cc is not None and levels and cc > levels[-1]:
        first = first_cuda_for(capability or "")
        cuda = f"CUDA {first} or newer" if first else "a CUDA release that knows the GPU"
        # PTX of an older architecture is compiled for a newer GPU by the driver as the
        # program starts (CUDA's JIT): the build runs there, slowly at first.
        ptx = [a for a in archs if a.startswith("compute_")]
        jit = (
            f" Its PTX ({ptx[-1]}) lets the driver compile its kernels for this GPU as the "
            "program starts, slowly the first time; where the program fails, or for machine "
            "code built for the GPU:"
            if code == PTX and ptx
            else ""
        )
        return Fix(
            f"The GPU (compute capability {capability}) is newer than every architecture this "
            f"PyTorch build carries{carries}: this is PyTorch's wheel, not TensorFlow's.{jit} "
            f"{'i' if jit else 'I'}nstall a PyTorch wheel built with {cuda}, from the index URL "
            "https://pytorch.org/get-started/locally/ gives for that CUDA (a wheel from PyPI "
            "alone may be of another CUDA), in the environment that runs the program.",
            commands,
        )
    if cc is not None and levels and cc < levels[0]:
        return Fix(
            f"The GPU (compute capability {capability}) is older than every architecture this "
            f"PyTorch build carries{carries}: its wheels dropped the GPU. Install an older "
            "PyTorch release whose wheels still carry it (its release notes say which dropped "
            "it), or run on a newer GPU.",
            commands,
        )
    return Fix(
        "PyTorch's build has no code for this GPU's architecture: compare the GPU's compute "
        "capability (`nvidia-smi`) with the architectures the build carries "
        "(`torch.cuda.get_arch_list()`), then install a PyTorch wheel built for a CUDA that "
        "knows the GPU (https://pytorch.org/get-started/locally/ gives each CUDA's index URL), "
        "or, for a GPU older than the list, an older PyTorch release that still carries it.",
        commands,
    )


def directml_adapter_fix() -> Fix:
    """DirectML keeping no adapter: the candidates, most likely first, with what tells them
    apart (tensorflow-directml-plugin's dml_device_cache.cc and its system requirements)."""
    return Fix(
        "DirectML keeps only a GPU that creates a Direct3D 12 device at feature level 11_0 and "
        "runs every data type its kernels use; it kept none. The candidates, most likely "
        "first: 1. the GPU is older than DirectML supports (it needs an AMD Radeon R5/R7/R9 "
        "2xx or newer, an Intel HD Graphics 5xx or newer, an NVIDIA GeForce GTX 9xx or "
        "newer; dxdiag's Display tab shows the GPU and its feature levels): use a supported "
        "GPU, or tensorflow-cpu without the plugin. 2. the GPU is supported but runs without "
        "its vendor's DirectX 12 driver (dxdiag shows 'Microsoft Basic Display Adapter', or "
        "a Remote Desktop session or a VM hides it): install the vendor's current driver and "
        "run on the machine's own console. 3. a 'Could not load DirectML.' line before it: "
        "the DirectML library did not load (reinstall tensorflow-directml-plugin, unset a "
        "stale TF_DIRECTML_PATH).",
        (
            "dxdiag /t %TEMP%\\dxdiag.txt",
            'findstr /C:"Card name" /C:"Feature Levels" /C:"Driver Version" %TEMP%\\dxdiag.txt',
        ),
    )


#: The oldest compute capability a CUDA toolkit major's compiler (nvcc, ptxas) still compiles
#: for, from the major that dropped the older ones: CUDA 13.0 removed offline compilation for
#: Maxwell, Pascal and Volta (5.x to 7.2), Turing (7.5) the oldest kept. Kepler's earlier drops
#: (CUDA 11, 12) are read with the GPU's generation in explain.
#: https://docs.nvidia.com/cuda/archive/12.9.0/cuda-toolkit-release-notes/index.html#deprecated-architectures
#: https://developer.nvidia.com/blog/navigating-gpu-architecture-support-a-guide-for-nvidia-cuda-developers/
#: https://docs.nvidia.com/cuda/cufft/deprecated-functionality.html (from CUDA 13.0: Turing)
_TOOLKIT_OLDEST_ARCH: Final = {13: (7, 5)}
#: The generations each major of :data:`_TOOLKIT_OLDEST_ARCH` dropped, in NVIDIA's words.
_TOOLKIT_DROPPED_GENERATIONS: Final = {13: "Maxwell, Pascal and Volta"}


def toolkit_drop_words(major: int) -> str:
    """NVIDIA's drop of the generations that CUDA ``major``'s compilers no longer target, as
    the latest major of :data:`_TOOLKIT_OLDEST_ARCH` up to ``major`` made it ("NVIDIA dropped
    Maxwell, Pascal and Volta in CUDA 13.0"); "" where no major up to it dropped any."""
    since = max((x for x in _TOOLKIT_OLDEST_ARCH if x <= major), default=None)
    if since is None:
        return ""
    return f"NVIDIA dropped {_TOOLKIT_DROPPED_GENERATIONS[since]} in CUDA {since}.0"


def toolkit_dropped_arch(major: int, cc_major: int, cc_minor: int) -> Optional[str]:
    """The oldest compute capability CUDA ``major``'s compiler still targets (``7.5``), where
    the GPU's ``cc_major.cc_minor`` is below it; None where that compiler knows the GPU."""
    floors = [floor for since, floor in _TOOLKIT_OLDEST_ARCH.items() if major >= since]
    if not floors or (cc_major, cc_minor) >= max(floors):
        return None
    oldest = max(floors)
    return f"{oldest[0]}.{oldest[1]}"


def dropping_toolkit(cc_major: int, cc_minor: int) -> Optional[tuple[int, str]]:
    """The first CUDA major whose compiler no longer targets compute capability
    ``cc_major.cc_minor``, with the oldest it still targets (``(13, "7.5")``); None where
    every major of :data:`_TOOLKIT_OLDEST_ARCH` still does."""
    return next(
        (
            (since, f"{floor[0]}.{floor[1]}")
            for since, floor in sorted(_TOOLKIT_OLDEST_ARCH.items())
            if (cc_major, cc_minor) < floor
        ),
        None,
    )


def toolkit_dropped_arch_fix(
    m: Machine, capability: str, major: int, shown: str, oldest: str, tool: str = "ptxas"
) -> Fix:
    """A GPU of ``capability`` below the ``oldest`` CUDA ``major``'s compiler targets (the
    toolkit ``shown``): a compiler of the major before, which still targets it, for XLA, or
    for nvcc (``tool``) building a project's own CUDA code."""
    before = major - 1
    if tool == "nvcc":
        return Fix(
            f"The CUDA {major} toolkit's nvcc ({shown}) compiles for no GPU older than compute "
            f"capability {oldest} ({toolkit_drop_words(major)}), and "
            f"this build asks for {capability}: a newer nvcc cannot help. Build with a CUDA "
            f"{before} toolkit's nvcc (its bin first on PATH, or CUDA_HOME pointing at it; in a "
            f"container, an image of CUDA {before}), or for a GPU of compute capability "
            f"{oldest} or newer.",
            ("which -a nvcc", "nvcc --version", "nvcc --list-gpu-arch"),
        )
    return Fix(
        f"The CUDA {major} toolkit's compilers (ptxas, nvcc) compile for no GPU older than "
        f"compute capability {oldest} ({toolkit_drop_words(major)}), "
        f"and this GPU is {capability}: a newer ptxas cannot help. Let XLA use a CUDA {before} "
        f"ptxas: a CUDA {before} toolkit's bin first on PATH in place of the CUDA {major} one "
        f"({shown}), or, with that one off PATH, the CUDA {before} compiler wheel (XLA runs a "
        "ptxas on PATH before it looks among its CUDA roots, the wheel's directory one of them); "
        f"or run on a GPU of compute capability {oldest} or newer.",
        (
            "which -a ptxas",
            "ptxas --version",
            *m.pip_install(wheel_name("nvidia-cuda-nvcc", before)),
        ),
    )


def legacy_gpu_fix() -> Fix:
    """Telling a GPU NVIDIA left on its 340.xx legacy branch (compute capability 1.x: its
    newest driver predates CUDA 7.0) from a driver not updated: its name on NVIDIA's legacy
    list. No command: nvidia-smi's compute_cap field came with driver 510, and such a GPU
    never gets one (https://developer.nvidia.com/cuda-legacy-gpus,
    https://www.nvidia.com/en-us/drivers/unix/legacy-gpu/)."""
    return Fix(
        "Read the GPU's name (`nvidia-smi -L`, or Device Manager's display adapters on "
        "Windows) and find it on NVIDIA's legacy GPU list "
        "(https://developer.nvidia.com/cuda-legacy-gpus): a GPU of compute capability 1.x "
        "gets no driver newer than 340.xx and no TensorFlow release has code for it, so run "
        "TensorFlow on the CPU or use a newer GPU; a GPU not on it takes the newer driver."
    )


def gpu_arch_fix(m: Machine, capability: Optional[str], minimum: Optional[str] = None) -> Fix:
    """The newest TensorFlow with code for a GPU of ``capability``; where that is unknown (a
    log's "no kernel image" names no GPU), reading it first (``minimum``: the oldest
    capability the build said it has code for)."""
    if capability is None and minimum is not None:
        return Fix(
            f"The build needs a GPU of compute capability {minimum} or newer. Read the GPU's "
            f"capability: below {minimum}, use a newer GPU, or a TensorFlow release (or a build "
            "of the program) made for the GPU's capability (`tfdoctor matrix --gpu X.Y`), or "
            "the CPU.",
            ("nvidia-smi --query-gpu=name,compute_cap --format=csv",),
        )
    if capability is None:
        # nvidia-smi's compute_cap field: driver 510 and later.
        return Fix(
            "Read the GPU's compute capability, then use a TensorFlow release built for it "
            "(`tfdoctor matrix --gpu X.Y`), a newer GPU, or a source build with "
            "TF_CUDA_COMPUTE_CAPABILITIES set to it.",
            ("nvidia-smi --query-gpu=name,compute_cap --format=csv",),
        )
    line, install = gpu_fit_install(m, capability)
    if line is not None and install and m.platform is not None and m.facts.python is not None:
        return Fix(
            f"Install TensorFlow {line.latest_patch}, the newest release with code for "
            f"compute capability {capability} that fits this machine.",
            install,
        )
    first = first_line_with_code(m, capability) if m.tf is not None else None
    if first is not None and m.tf is not None:
        # The release installed is known, the machine is not: the nearest release that has
        # the GPU's code, which changes the least.
        return Fix(
            f"TensorFlow {m.tf.version} has no code for compute capability {capability}; "
            f"TensorFlow {first.line} is the first later release with machine code for it: "
            f"use {first.latest_patch} (`tfdoctor matrix --gpu {capability}` lists every "
            "release that has it), a newer GPU, or a source build with "
            f"TF_CUDA_COMPUTE_CAPABILITIES={capability}."
        )
    # Neither the release nor the machine known: the matrix's newest release whose wheels
    # carry machine code for the GPU (each line's build list of compute capabilities), or
    # that none does.
    from tfdoctor.compat import (  # noqa: PLC0415 - avoids a cycle at import
        PTX,
        carries_machine_code,
        fixed_floor_above,
        gpu_code,
    )

    releases = m.matrix.releases if m.matrix is not None else ()
    # Native Windows runs only the lines with a native Windows GPU build (up to 2.10).
    known = [
        line
        for line in releases
        if line.compute_capabilities is not None and (m.os != "windows" or line.windows_native_gpu)
    ]
    newest = next((line for line in known if carries_machine_code(line, capability)), None)
    ptx = next(
        (
            line
            for line in known
            if line.compute_capabilities is not None
            and gpu_code(line.compute_capabilities, capability) == PTX
        ),
        None,
    )
    if newest is None and ptx is not None:
        # A GPU newer than every build's machine code (Blackwell's 12.0 beside compute_90):
        # the driver compiles the wheel's PTX for it, so a newer GPU is no fix.
        return Fix(
            f"No TensorFlow release in the matrix has machine code for compute capability "
            f"{capability} (the build lists of {known[-1].line} to {known[0].line}): a GPU of "
            f"it runs TensorFlow only from the PTX its wheels carry, compiled by the "
            f"driver (TensorFlow {ptx.latest_patch} is the newest release with PTX for it, from "
            f"the matrix; `tfdoctor matrix --gpu {capability}`), which needs a driver that "
            "knows the GPU; or a source build with "
            f"TF_CUDA_COMPUTE_CAPABILITIES={capability} and a CUDA release that targets it."
        )
    if known and newest is None:
        fixed = fixed_floor_above(capability)
        # gpu_device.cc's device floor from 2.3 on is a fixed 3.5 that only the macro
        # TF_EXTRA_CUDA_CAPABILITIES lowers (compat.LISTED_CAPABILITY_FLOORS): a source build
        # for an older GPU that sets TF_CUDA_COMPUTE_CAPABILITIES alone still ignores it
        # (tensorflow/tensorflow#46653).
        extra = (
            f" (from TensorFlow {fixed[0]} on, a GPU below {fixed[1]} also needs "
            f"`--copt=-DTF_EXTRA_CUDA_CAPABILITIES={capability}` on bazel's build command: "
            "without it TensorFlow ignores the GPU whatever the build carries)"
            if fixed is not None
            else ""
        )
        return Fix(
            f"No TensorFlow release in the matrix has machine code for compute capability "
            f"{capability} (the build lists of {known[-1].line} to {known[0].line}): use a "
            "newer GPU, the CPU, or a source build with "
            f"TF_CUDA_COMPUTE_CAPABILITIES={capability} where a CUDA release TensorFlow builds "
            f"with still targets it{extra}."
        )
    named = (
        f" (TensorFlow {newest.latest_patch} is the newest release with machine code for it, "
        "from the matrix)"
        if newest is not None
        else ""
    )
    return Fix(
        f"Use a TensorFlow release built for compute capability {capability}{named} "
        f"(`tfdoctor matrix --gpu {capability}`), a newer GPU, or a source build with "
        f"TF_CUDA_COMPUTE_CAPABILITIES={capability}."
    )


def _cpu_build_fix(m: Machine) -> Fix:
    """The GPU build in place of a CPU-only one: the installed release's where known; where
    not, the system's own way to its GPU (no CUDA build exists for macOS, nor for native
    Windows after 2.10)."""
    if m.tf is not None:
        return gpu_build_fix(m)
    if m.os == "macos":
        return metal_missing_fix(m)
    if m.os == "windows":
        return windows_gpu_fix(m)
    return Fix(
        "Install the GPU build for the platform: on Linux x86-64 the and-cuda extra "
        "(TensorFlow 2.15 and later), on Apple silicon tensorflow-metal.",
        m.pip('install "tensorflow[and-cuda]"'),
    )


#: Why TensorFlow lists no GPU, each with its cause, what tells it apart, its own fix fitted
#: to what is known of the machine, and the command that shows it (none: the text says).
#: Which comes first is the evidence's to decide (:func:`unlisted_gpu_fix`): the answer ``[]``
#: is the same for all.
UNLISTED_GPU_CANDIDATES: Mapping[str, Candidate] = {
    "windows-native": Candidate(
        WINDOWS_NATIVE_GPU_ENDED,
        "TensorFlow runs on native Windows, where 2.11 and later have no GPU build",
        "Windows' own paths and prompt (C:\\..., PS C:\\>) where it ran, not WSL2's Linux ones; "
        '`python -c "import platform; print(platform.system())"` prints Windows there',
        windows_gpu_fix,
    ),
    "metal": Candidate(
        PACKAGE_NOT_INSTALLED,
        "TensorFlow runs on macOS, where the GPU is reached only through Apple's "
        "tensorflow-metal plugin, and the plugin is not installed",
        "`pip show tensorflow-metal` finds nothing",
        metal_missing_fix,  # shown by pip's listing: unlisted_candidate_commands
    ),
    "cpu-build": Candidate(
        TF_CPU_ONLY_BUILD,
        "the TensorFlow installed is a CPU-only build (tensorflow-cpu; the macOS and Linux "
        "aarch64 wheels)",
        "tf.test.is_built_with_cuda() prints False",
        _cpu_build_fix,
        ('python -c "import tensorflow as tf; print(tf.test.is_built_with_cuda())"',),
    ),
    "libraries": Candidate(
        CUDA_LIBS_MISSING,
        "the CUDA or cuDNN libraries the build was made for are not found",
        "TensorFlow's log at import says `Could not load dynamic library` or `Cannot dlopen "
        "some GPU libraries` (run with TF_CPP_MIN_LOG_LEVEL=0 to see it)",
        lambda m: cuda_libraries_fix(m, ("cudart", "cudnn"))[1],
        read_device_log_fix().commands[:1],
    ),
    "driver": Candidate(
        DRIVER_NOT_LOADED,
        "no NVIDIA driver answers (none installed or loaded, or a container started without "
        "the GPU)",
        "`nvidia-smi` fails or lists no GPU",
        driver_load_fix,
        ("nvidia-smi",),
    ),
    "hosted-runtime": Candidate(
        HOSTED_RUNTIME_WITHOUT_GPU,
        "the hosted notebook runs on a runtime without a GPU accelerator (none chosen, or the "
        "session still on the VM it had before the change)",
        "`nvidia-smi` fails there",
        hosted_gpu_runtime_fix,
        ("nvidia-smi",),
    ),
    "hidden": Candidate(
        CUDA_VISIBLE_DEVICES_HIDDEN,
        "CUDA_VISIBLE_DEVICES hides every GPU (empty, -1 or an index that does not exist)",
        "printing the variable in the shell that starts the program shows it",
        # The printing is the machine's shell's (show_env, through unlisted_candidate_commands).
        no_device_fix,
    ),
}


def unlisted_gpu_cause(order: tuple[str, ...]) -> CauseId:
    """The cause of the candidate ranked first."""
    return UNLISTED_GPU_CANDIDATES[order[0]].cause


def unlisted_gpu_fix(m: Machine, order: tuple[str, ...], shown: str) -> Fix:
    """The fix of the most likely reason TensorFlow lists no GPU (``order[0]``), then the other
    candidates, each with what tells it apart. ``shown``: the evidence behind the order."""
    first = UNLISTED_GPU_CANDIDATES[order[0]]
    fix = first.fix(m)
    steps = [f"1. {first.what} ({first.tell}): {fix.text}"]
    for number, key in enumerate(order[1:], 2):
        other = UNLISTED_GPU_CANDIDATES[key]
        steps.append(f"{number}. {other.what} ({other.tell}).")
    others = tuple(c for k in order[1:] for c in unlisted_candidate_commands(m, k))
    return Fix(
        f"{shown}; the candidates, most likely first: " + " ".join(steps),
        tuple(dict.fromkeys((*fix.commands, *others))),
    )


def unlisted_candidate_commands(m: Machine, key: str) -> tuple[str, ...]:
    """The command that shows candidate ``key`` of :data:`UNLISTED_GPU_CANDIDATES`, in the
    machine's shells (the variable's printing is cmd's and PowerShell's on Windows)."""
    if key == "hidden":
        return show_env(m, "CUDA_VISIBLE_DEVICES")
    if key == "metal":
        return m.pip("show tensorflow-metal")
    return UNLISTED_GPU_CANDIDATES[key].shows


#: CUPTI's file names: the soname carries the CUDA release (libcupti.so.10.1, libcupti.so.12),
#: the Windows DLL its digits before CUDA 11's year-numbered names (cupti64_101.dll is 10.1).
_CUPTI_SONAME = re.compile(r"libcupti\.so\.(\d+(?:\.\d+)?)")
_CUPTI_DLL = re.compile(r"cupti64_(\d{1,2})(\d)\.dll$", re.IGNORECASE)
#: The first CUDA whose Windows CUPTI DLL is named by CUPTI's year-numbered version
#: (cupti64_2020.1.0.dll) instead of the name TensorFlow asks for (cupti64_110.dll):
#: tensorflow#44697.
_CUPTI_DLL_BY_YEAR: Final = 11


def cupti_cuda(library: str) -> Optional[str]:
    """The CUDA release a CUPTI file name says (``libcupti.so.10.1``: 10.1), if it says one."""
    soname = _CUPTI_SONAME.fullmatch(library)
    if soname is not None:
        return soname.group(1)
    dll = _CUPTI_DLL.fullmatch(library)
    return f"{dll.group(1)}.{dll.group(2)}" if dll is not None else None


def cupti_fix(
    m: Machine, library: str, printed_path: Optional[str], wheels: Optional[str] = None
) -> Fix:
    """CUPTI (the profiler's library) off the loader's path: the CUDA toolkit installs it in
    extras/CUPTI/lib64 (NVIDIA's CUPTI guide), which neither ld.so's default directories nor the
    toolkit's lib64 cover; pip's CUDA (``wheels``: the CUDA major of the NVIDIA wheels the log
    shows, empty where it names none; or the machine has them or gets its CUDA from the and-cuda
    extra) has it in the nvidia-cuda-cupti wheel.
    ``printed_path``: the LD_LIBRARY_PATH the loader printed, if any."""
    cuda = cupti_cuda(library)
    windows = library.lower().endswith(".dll") or m.os == "windows"
    note = (
        " Only TensorFlow's profiler (the TensorBoard Profile tab, tf.profiler) loads CUPTI: "
        "training runs without it."
    )
    if windows:
        root = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA"
        folder = (
            rf"{root}\v{cuda}\extras\CUPTI\lib64" if cuda else rf"{root}\vX.Y\extras\CUPTI\lib64"
        )
        text = (
            f"{library} is CUDA {cuda or 'toolkit'}'s CUPTI, installed in the toolkit's "
            rf"extras\CUPTI\lib64 folder, which is not on PATH: add that folder to PATH, then "
            "open a new terminal."
        )
        commands: tuple[str, ...] = (f'dir "{folder}"',)
        if (major_of(cuda) or 0) >= _CUPTI_DLL_BY_YEAR:
            # The toolkit's file carries CUPTI's own year-numbered version
            # (cupti64_2020.1.0.dll in CUDA 11.0), not the name TensorFlow asks for
            # (tensorflow#44697): on PATH alone it is still not found.
            text += (
                f" From CUDA {_CUPTI_DLL_BY_YEAR} that folder holds cupti64_<year>.<n>.<n>.dll, "
                f"not {library}: copy it to {library} there (from an administrator's "
                "Command Prompt)."
            )
            # One file at a time: cmd's copy of a wildcard onto one file concatenates.
            commands += (
                f'for %f in ("{folder}\\cupti64_20*.dll") do copy /y "%f" "{folder}\\{library}"',
            )
        return Fix(text + note, (*commands, f'setx PATH "%PATH%;{folder}"'))
    if wheels is not None or m.cuda_wheels_installed or m.cuda_install_method == "and-cuda":
        return _cupti_wheel_fix(m, library, cuda or wheels, note)
    if cuda is not None and "." in cuda:
        directory = f"/usr/local/cuda-{cuda}/extras/CUPTI/lib64"
        find: tuple[str, ...] = (f"ls {directory}",)
        put = m.ld_path_with((directory,))
    else:
        # A soname of the major alone (libcupti.so.12) names no toolkit directory: NVIDIA's
        # installers name theirs by release (/usr/local/cuda-12.4), so any 12.x found serves.
        glob = f"/usr/local/cuda-{cuda}*" if cuda else "/usr/local/cuda*"
        directory = f"{glob}/extras/CUPTI/lib64"
        find = (f"ls -d {directory}",)
        put = (
            f'D="$(ls -d {directory} | tail -n 1)" && '
            'export LD_LIBRARY_PATH="$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"'
        )
    text = (
        f"{library} is CUDA {cuda or 'toolkit'}'s CUPTI, which the toolkit installs in "
        f"extras/CUPTI/lib64, off the loader's default path: put {directory} on LD_LIBRARY_PATH "
        "(in ~/.bashrc, the job script or the image's ENV)."
    )
    if cuda is not None and "." not in cuda:
        text += (
            f" Where TensorFlow's CUDA {cuda} came from pip's nvidia-* wheels instead, CUPTI is "
            "the nvidia-cuda-cupti wheel of that CUDA (the and-cuda extra installs it)."
        )
    if printed_path is not None:
        dirs = [d for d in printed_path.split(":") if d]
        if any("CUPTI" in d for d in dirs):
            text += (
                f" The loader's path ({printed_path}) holds a CUPTI directory without this "
                f"file: the CUDA there is another release than {cuda or 'the build'}'s "
                "(`readlink -f /usr/local/cuda` shows which /usr/local/cuda points to)."
            )
        else:
            text += f" The LD_LIBRARY_PATH the loader printed ({printed_path or 'empty'}) lacks it."
    return Fix(text + note, (*find, "readlink -f /usr/local/cuda", put))


def _cupti_wheel_fix(m: Machine, library: str, cuda: Optional[str], note: str) -> Fix:
    """CUPTI of pip's CUDA: the nvidia-cuda-cupti wheel of the CUDA major, in
    ``nvidia/cuda_cupti/lib``, which TensorFlow's RUNPATH searches (``data/cuda.yaml``); the
    and-cuda extra of the installed release brings the one it pins."""
    major = major_of(cuda) or major_of(m.build_cuda_major)
    base = next(w.dist for w in cuda_data().wheels if w.directory == "cuda_cupti")
    dist = wheel_name(base, major) if major is not None else None
    sub = (wheel_dir(normalize_name(dist), str(major)) if dist else None) or "cuda_cupti"
    site = m.site_packages
    lib_dir = f"{site}/nvidia/{sub}/lib" if site else f"site-packages/nvidia/{sub}/lib"
    spec = m.and_cuda_spec()
    # Without the CUDA major no wheel can be named: the other nvidia-* wheels' suffix says it.
    named = dist or f"the {base} wheel of the CUDA the other nvidia-* wheels name (-cu12: 12)"
    how = f"the release's and-cuda extra ({spec}), which pins it" if spec else named
    text = (
        f"{library} is the CUPTI of pip's CUDA{f' {major}' if major else ''}: NVIDIA's "
        f"{dist or base} wheel installs it in {lib_dir}, which TensorFlow's own library path "
        f"searches, and this environment lacks it there. Install {how}; if the profiler still "
        f"does not find it, put {lib_dir} on LD_LIBRARY_PATH."
    )
    install = spec or dist
    commands = m.pip_install(install) if install else m.pip("list")
    if site:
        commands = (*commands, m.ld_path_with((lib_dir,)))
    return Fix(text + note, commands)


#: TF-TRT's module from 1.14 on (tensorflow.contrib.tensorrt before): the name code imports,
#: which the matrix's ``tf_trt`` rows place in the releases.
TF_TRT_MODULE: Final = "tensorflow.python.compiler.tensorrt"


def tf_without_tensorrt_fix(m: Machine) -> Fix:
    """TF-TRT asked of a TensorFlow built without TensorRT: a build that has it, installed only
    where the log's system and Python can take TensorFlow's last line built with TensorRT (the
    matrix's ``tf_trt``)."""
    last = m.matrix.last_tensorrt_line() if m.matrix is not None else None
    dropped = m.matrix.first_without_tensorrt() if m.matrix is not None else None
    upto = f" of a release up to {last.line}" if last is not None else " of a release built with it"
    text = (
        "This TensorFlow was built without TensorRT, so TF-TRT is not in it; installing "
        "TensorRT does not add it. Run TF-TRT under a TensorFlow built with TensorRT, on Linux "
        "with an NVIDIA GPU: NVIDIA's NGC TensorFlow container (nvcr.io/nvidia/tensorflow, "
        "which pairs each release with its TensorRT), or the Linux GPU pip package "
        f"(tensorflow-gpu up to 2.0, tensorflow from 2.1){upto} with NVIDIA's TensorRT "
        "installed beside it"
        + (f" (TensorFlow {dropped.line} dropped TensorRT from its builds)" if dropped else "")
        + ". The CPU-only package and the Windows and macOS builds have no TF-TRT; the first "
        "command says whether the installed build has it (TensorFlow 2.3 and later)."
    )
    check = (
        'python -c "import tensorflow as tf; '
        "print(tf.sysconfig.get_build_info().get('is_tensorrt_build'))\""
    )
    if m.os == "windows":
        text += " On Windows, that is WSL 2 with the Linux package, or the container."
        return Fix(text, (check,))
    if m.os == "macos":
        text += " On a Mac, that is another machine: no macOS build has CUDA."
        return Fix(text, (check,))
    if last is None:
        return Fix(text, (check,))
    # An unknown Python is offered the install: the Linux wheels span the Pythons of the time.
    # TensorRT came only with the x86-64 CUDA builds (the matrix's cuda_builds).
    if not m.line_fits(last, "linux-x86_64"):
        pythons = last.pythons_on("linux-x86_64")
        text += (
            f" TensorFlow {last.line}'s Linux wheels are for Python "
            f"{pythons[0]} to {pythons[-1]}, not {m.python_version}: install it in an "
            "environment of one of those."
            if pythons
            else f" TensorFlow {last.line} has no Linux wheel for Python {m.python_version}."
        )
        return Fix(text, (check,))
    from tfdoctor.compat import Target, install_requirement  # noqa: PLC0415 - avoids a cycle

    # The line's own GPU distribution and extra (tensorflow-gpu up to 2.0, [and-cuda] where
    # the line has it), for Linux x86-64 with a GPU.
    wanted = Target(m.target.python, "linux-x86_64", None, m.target.driver, m.target.gpu or "")
    return Fix(text, (check, *m.pip_install(install_requirement(last, wanted))))


def tf_trt_module_predates_fix(m: Machine, tf_version: str, since: str) -> Fix:
    """Code importing TF-TRT's module of ``since`` (1.14) and later under an older TensorFlow
    (``tf_version``), whose TF-TRT lived in tensorflow.contrib.tensorrt."""
    last = m.matrix.last_tensorrt_line() if m.matrix is not None else None
    upto = f"the Linux GPU package up to {last.line}" if last is not None else "a Linux GPU package"
    return Fix(
        f"TensorFlow {tf_version} is older than {TF_TRT_MODULE}, which "
        f"TensorFlow {since} introduced (TF-TRT was tensorflow.contrib.tensorrt "
        "before, in the Linux GPU builds): run the code under TensorFlow "
        f"{since} or later built with TensorRT ({upto}, or NVIDIA's container "
        "nvcr.io/nvidia/tensorflow), or use the code's release written for "
        "tensorflow.contrib.tensorrt.",
        (),
    )


def tensorrt_engine_fix(
    expected: Optional[str] = None,
    found: Optional[str] = None,
    compute: bool = False,
    os_name: Optional[str] = None,
) -> Fix:
    """The engine built again where it runs, or run where it was built (``expected`` and
    ``found``: the releases, or with ``compute`` the compute capabilities, TensorRT's refusal
    names, in its order; ``os_name``: the machine's, for the listing of libnvinfer)."""
    said = ""
    # TensorRT's runtime (closed source) refuses a plan in these words: "The engine plan
    # file is not compatible with this version of TensorRT, expecting library version X got
    # Y" and "... generated on an incompatible device, expecting compute X got compute Y"
    # (https://docs.nvidia.com/deeplearning/tensorrt/developer-guide/index.html, engines are
    # specific to the release and the GPU they were built with).
    if expected and found:
        what = "compute capability" if compute else "TensorRT release"
        said = (
            f" TensorRT expected {what} {expected} and found {found}: the engine and this "
            f"machine differ in {what}."
        )
    # The library's own files, not its Python package: TF-TRT loads libnvinfer and needs no
    # tensorrt module (TensorRT's Windows zip ships nvinfer*.dll, found on PATH; where.exe
    # named in full, as for cuDNN above); nvidia-smi reports each GPU's compute capability
    # (driver 510 and on).
    if compute:
        listing = "nvidia-smi --query-gpu=name,compute_cap --format=csv"
    elif os_name == "windows":
        listing = "where.exe nvinfer*.dll"
    else:
        listing = "ldconfig -p | grep -E 'libnvinfer\\.so'"
    # TF-TRT builds the engines at the first inference when the SavedModel was saved without
    # converter.build() (NVIDIA's TF-TRT user guide).
    return Fix(
        "Build the engine again on this machine, with the TensorRT release it runs: convert "
        "the model again here (for TF-TRT, save the converted SavedModel without calling "
        "converter.build(), so the engines are built at the first inference where it runs), "
        f"or run it with the TensorRT release and on the GPU it was built for.{said}",
        (listing,),
    )


def tensorrt_version_fix(
    linked: Optional[str], loaded: Optional[str], installed: bool = False
) -> Fix:
    """TF-TRT's linked TensorRT (``linked``) and the one it loaded (``loaded``; with
    ``installed``, the one the packages listed install, none of them of ``linked``'s major)
    differ: that release on the loader's path first, or a TensorFlow built against the loaded
    one."""
    want = f"TensorRT {linked}" if linked else "the TensorRT release TensorFlow was built against"
    got = f"TensorRT {loaded}" if loaded else "another release"
    major = linked.split(".", 1)[0] if linked else "N"
    found = (
        f"the packages listed hold no libnvinfer.so.{major} (they install {got})"
        if installed
        else f"loaded {got}"
    )
    return Fix(
        f"TensorFlow's TF-TRT was built against {want} and {found}. Install {want} "
        "(TensorFlow 2 also takes a newer release of the same major) from NVIDIA's packages or "
        "archive of that release for the build's CUDA, and put its lib "
        "directory first on LD_LIBRARY_PATH, so libnvinfer and libnvinfer_plugin load from "
        "it; or keep the installed TensorRT and use a TensorFlow built against it (NVIDIA's "
        "TensorFlow containers pair each with its TensorRT). The listing shows every libnvinfer "
        "the loader finds.",
        (
            "ldconfig -p | grep -E 'libnvinfer(_plugin)?\\.so'",
            'echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"',
        ),
    )


def first_line_with_cuda(m: Machine, cuda: str) -> Optional[TFLine]:
    """The oldest final TensorFlow line the matrix knows built with CUDA ``cuda`` or later."""
    if m.matrix is None:
        return None
    for line in reversed(m.matrix.lines):  # the matrix lists the newest first
        if not line.pre_release and line.cuda and version_key(line.cuda) >= version_key(cuda):
            return line
    return None


def cuda_predates_gpu(
    m: Machine, capability: Optional[str], gpu: Optional[str], build_cuda: Optional[str]
) -> Optional[Fix]:
    """The fix where a GPU of ``capability`` (else of the model ``gpu`` names) is newer than
    CUDA ``build_cuda``, the release the build runs with; None where either is unknown, that
    CUDA knows the GPU, or no TensorFlow line the matrix knows is built with a CUDA that does
    (then no install helps, and the other readings of the failure stand)."""
    if capability is None and gpu and m.matrix is not None:
        model = m.matrix.gpu_model(gpu)
        capability = model.compute_capability if model is not None else None
    first = first_cuda_for(capability) if capability else None
    if capability is None or first is None or not build_cuda:
        return None
    if cuda_knows(build_cuda, first):
        return None
    if first_line_with_cuda(m, first) is None:
        return None
    return cuda_predates_gpu_fix(m, capability, gpu, build_cuda, first)


def gpu_newer_candidate(
    m: Machine,
    capability: Optional[str],
    gpu: Optional[str],
    build_cuda: Optional[str],
    build_cudnn: Optional[str] = None,
) -> Optional[tuple[str, str, str]]:
    """gpu-library-init-failed's candidate that the build's CUDA predates the GPU, as (what it
    is, what tells it apart, its fix), fitted to the side of the question the log shows: the
    GPU (``capability``, else the model ``gpu`` names) and the first TensorFlow built with a
    CUDA that knows it, or the CUDA the build runs with and the GPUs it does not know. None
    where the log shows both (cuda_predates_gpu decides then), or the side it shows rules the
    candidate out: every line the matrix knows is built with a CUDA that knows the GPU, or
    none is (no install helps), or the CUDA knows every architecture. ``build_cudnn``: the
    cuDNN the build was compiled with, as TensorFlow stated it: the oldest CUDA of the lines
    built with that cuDNN bounds the build's from below."""
    if capability is None and gpu and m.matrix is not None:
        model = m.matrix.gpu_model(gpu)
        capability = model.compute_capability if model is not None else None
    if capability is not None and build_cuda:
        return None
    # The first CUDA release of each architecture: NVIDIA's compatibility guides and clang's
    # table of CUDA releases (tfdoctor/data/cuda.yaml's architectures, with their sources).
    table = cuda_data().architectures
    oldest = _oldest_build_cuda(m)
    if capability is not None:
        first = first_cuda_for(capability)
        release = _first_release_with_cuda(m, first) if first else None
        if first is None or release is None or oldest is None or cuda_knows(oldest, first):
            return None
        floor = _cuda_of_cudnn(m, build_cudnn) if build_cudnn else None
        if floor is not None and cuda_knows(floor, first):
            return None  # every line built with that cuDNN knows the GPU
        named = (
            f"the GPU, {gpu} (compute capability {capability}),"
            if gpu
            else f"the GPU (compute capability {capability})"
        )
        return (
            f"{named} is newer than the CUDA release of a TensorFlow older than "
            f"{release[0]}: CUDA {first} is the first to know it and TensorFlow {release[0]} "
            f"the first whose CUDA runs on it (CUDA {release[1]}), so the cuBLAS, cuDNN and "
            "cuFFT of an older build cannot start on it",
            "the TensorFlow release (`pip list`) says whether the build is that old",
            f"install TensorFlow {release[0]} or later with its CUDA and cuDNN",
        )
    newer = [
        (cap, first) for cap, first in table if build_cuda and not cuda_knows(build_cuda, first)
    ]
    if build_cuda and newer:
        cap, first = newer[0]
        release = _first_release_with_cuda(m, first)
        if release is None:
            return None
        return (
            f"the GPU is newer than CUDA {build_cuda}, the release this TensorFlow runs with: "
            f"it knows no GPU of compute capability {cap} or later (CUDA {first} is the first "
            f"to know {cap})",
            "`nvidia-smi -L` names the GPU, whose compute capability NVIDIA's list gives",
            f"install a TensorFlow built with a CUDA that knows it (TensorFlow {release[0]} is "
            f"the first, with CUDA {release[1]})",
        )
    if build_cuda or oldest is None:
        return None
    # Neither side shown: the table itself, the architectures some TensorFlow predates.
    firsts: dict[str, list[str]] = {}
    for cap, first in table:
        if not cuda_knows(oldest, first) and _first_release_with_cuda(m, first) is not None:
            firsts.setdefault(first, []).append(cap)
    if not firsts:
        return None
    listed = "; ".join(f"{' and '.join(caps)}: CUDA {first}" for first, caps in firsts.items())
    return (
        "the GPU is of an architecture newer than the CUDA release this TensorFlow was built "
        f"with (the first CUDA to know each compute capability: {listed})",
        "`nvidia-smi -L` names the GPU; `tfdoctor check` compares its compute capability with "
        "the build's CUDA",
        "install a TensorFlow built with a CUDA release that knows the GPU (check's fix names one)",
    )


def _oldest_build_cuda(m: Machine) -> Optional[str]:
    """The oldest CUDA release a final TensorFlow the matrix knows is built with (its early
    releases' rows included)."""
    if m.matrix is None:
        return None
    cudas = [cuda for _, cuda in m.matrix.builds_with_cuda()]
    return min(cudas, key=version_key) if cudas else None


def _cuda_of_cudnn(m: Machine, cudnn: str) -> Optional[str]:
    """The oldest CUDA of the final lines the matrix states are built with cuDNN ``cudnn``
    (its major.minor); None where no line is."""
    want = version_key(cudnn)[:2]
    cudas = [
        line.cuda
        for line in (m.matrix.releases if m.matrix is not None else ())
        if line.cuda and line.cudnn and version_key(line.cudnn)[:2] == want
    ]
    return min(cudas, key=version_key) if cudas else None


def _first_release_with_cuda(m: Machine, cuda: str) -> Optional[tuple[str, str]]:
    """The oldest final TensorFlow (an early release or a line) the matrix states is built
    with a CUDA that knows what CUDA ``cuda`` first knew (that release or later, or from 11.1
    on one of its major), and that CUDA."""
    if m.matrix is None:
        return None
    return next(((r, c) for r, c in m.matrix.builds_with_cuda() if cuda_knows(c, cuda)), None)


def cuda_predates_gpu_fix(
    m: Machine, capability: str, gpu: Optional[str], build_cuda: str, first_cuda: str
) -> Fix:
    """A TensorFlow built with a CUDA release that knows the GPU's architecture, with its CUDA
    and cuDNN: the oldest line that fits this machine and carries machine code for the GPU
    (gpu_fit_install), the smallest move from the code's release."""
    named = (
        f"{gpu} (compute capability {capability})" if gpu else f"compute capability {capability}"
    )
    text = (
        f"The GPU, {named}, is newer than CUDA {build_cuda}, the release this TensorFlow runs "
        f"with: CUDA {first_cuda} is the first to know it, so the cuBLAS, cuDNN and cuFFT of "
        f"CUDA {build_cuda} cannot start on it, and no setting of memory helps. Install a "
        f"TensorFlow built with CUDA {first_cuda} or later, with its CUDA and cuDNN"
    )
    line, commands = gpu_fit_install(m, capability, native=True, oldest=True)
    if line is None:
        # The oldest such release, its early releases' rows included (1.13.1: CUDA 10.0).
        first = _first_release_with_cuda(m, first_cuda)
        where = (
            f" (the first built so is TensorFlow {first[0]}, with CUDA {first[1]})" if first else ""
        )
        return Fix(
            f"{text}{where}. No line that fits this machine's Python, platform and driver as "
            "shown has machine code for this GPU recorded: `tfdoctor matrix` lists each "
            "line's Pythons, CUDA and driver floor.",
            (),
        )
    text += "."
    return Fix(
        f"{text} TensorFlow {line.line} is the oldest line that fits this machine and carries "
        f"machine code for the GPU (CUDA {line.cuda}, cuDNN {line.cudnn}); a newer one fits too.",
        commands,
    )
