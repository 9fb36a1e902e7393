"""What a log reveals: :class:`Revealed`, :func:`reveal`, :func:`log_facts`, :func:`log_hints`.

The versions, the operating system, the Python, the devices and the notebook a log shows,
read once from its evidence and handed to every builder.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple, Optional

from tfdoctor import causes
from tfdoctor.bounded import size_text
from tfdoctor.compat import of_tf_keras_only
from tfdoctor.evidence import tflog
from tfdoctor.evidence.conda import CONDA_TENSORFLOW, CondaRow, in_environment
from tfdoctor.evidence.devices import (
    ImageCheck,
    container_hostname,
    container_run_tool,
    container_run_with_gpu,
    container_shown,
    host_packager,
    image_check,
    remote_tpu_shown,
    runs_gpu_image,
    sagemaker_instance_type,
    sagemaker_job_instance_type,
    tf_cpu_image,
    tf_image_release,
    tpu_vm_hostname,
)
from tfdoctor.evidence.distro import Distro, alpine_image, read_distro
from tfdoctor.evidence.dpkg import dpkg_installed
from tfdoctor.evidence.frameworks import read_frameworks
from tfdoctor.evidence.gpumemory import read_gpu_memory
from tfdoctor.evidence.imports import imported_before_tensorflow
from tfdoctor.evidence.installer import log_installer
from tfdoctor.evidence.interpreter import Interpreter
from tfdoctor.evidence.macos import (
    dyld_refused,
    dyld_tried,
    mac_shown,
    macos_release,
    python_machine,
    uname_darwin,
)
from tfdoctor.evidence.packages import (
    installed_releases,
    mo_check_outcome,
    pip_spelled,
    tf_installer,
)
from tfdoctor.evidence.pip import (
    AbiTagsFound,
    Collected,
    PipKind,
    PipRefusal,
    PlatformsFound,
    PythonRefusal,
    VersionsSetAside,
    WheelRefusal,
    pip_words,
)
from tfdoctor.evidence.traceback import (
    Frame,
    Inferred,
    PackageCode,
    Traceback,
    failing_package,
    installed_package,
    is_installed,
    keras_importer,
    op_loader_in,
    origin_of,
    path_python,
    python_command,
)
from tfdoctor.explain.cpu_machine import cuda_probe_only, gpu_wanted
from tfdoctor.explain.packages import log_packages, numpy_extension_package
from tfdoctor.explain.scanning import MAX_LOG_ERRORS, Evidence, _os_of
from tfdoctor.facts import (
    TF_DISTRIBUTIONS,
    DriverFacts,
    Facts,
    GpuFacts,
    PackageFacts,
    TensorFlowFacts,
    TFStatus,
    normalize_name,
)
from tfdoctor.machine import LogHints
from tfdoctor.matrix import Matrix, version_key
from tfdoctor.modules import distribution_of, modules
from tfdoctor.records import Record, record
from tfdoctor.signatures import (
    IMAGE_CHECK,
    KFD_NODE,
    LOADER_LINE,
    NOUVEAU_HOLDS_GPU,
    ROCM_WORDS,
)
from tfdoctor.version_codes import cudnn_dotted
from tfdoctor.wheel_index import releases_of
from tfdoctor.wheel_tags import tag_machines, tag_os, tag_system


@record
class Revealed(Record):
    """What the log shows about the machine, each None when it does not show it."""

    tf_version: Optional[str] = None
    tf_dist: Optional[str] = None
    #: The Python version the log states, else the one a path implies (then in ``inferred``).
    python: Optional[str] = None
    #: The operating system library names or path styles imply (always in ``inferred``).
    os: Optional[str] = None
    cudnn_loaded: Optional[str] = None
    cudnn_compiled: Optional[str] = None
    cuda_version: Optional[str] = None
    #: The CUDA release the build runs with, as the toolkit libraries it opened name it
    #: (libcublas.so.9.0: 9.0; libcudart.so.11.0: 11, a major alone).
    build_cuda: Optional[str] = None
    compute_capability: Optional[str] = None
    gpu_name: Optional[str] = None
    #: The memory TensorFlow 1.x found on the GPU when it started, total and free, as it
    #: printed them ("5.80GiB", "312.50MiB").
    gpu_memory: Optional[tuple[str, str]] = None
    #: The CUDA release the issue's form states (the toolkit the user runs), where the log's
    #: libraries do not say the build's.
    stated_cuda: Optional[str] = None
    driver_version: Optional[str] = None
    #: The loaded NVIDIA kernel module's version, as cuda_diagnostics.cc reports it ("kernel
    #: reported version is: 460.91.3"): the module is loaded, whatever libcuda did.
    kernel_module: Optional[str] = None
    #: The driver's libcuda loaded and told its version while TensorFlow found no NVIDIA
    #: kernel driver running (cuda_diagnostics.cc: "libcuda reported version is: 550.54.14",
    #: "kernel driver does not appear to be running on this host"): the driver is installed
    #: and its kernel module is not loaded.
    libcuda_without_module: bool = False
    #: A line of the log says another kernel driver (nouveau) holds the GPU (a signature
    #: tagged nouveau-holds-gpu: the nvidia module's own words, lsmod's or lspci's).
    nouveau_holds_gpu: bool = False
    numpy_version: Optional[str] = None
    #: The NCCL release the process loaded and the CUDA release it was built for, as NCCL
    #: printed them when it started.
    nccl_version: Optional[str] = None
    nccl_cuda: Optional[str] = None
    #: The first allocation the log says failed: the device (``GPU:0``) and the bytes asked,
    #: each where the line gives it.
    oom_device: Optional[str] = None
    oom_bytes: Optional[int] = None
    site_packages: Optional[str] = None
    #: The shared library TensorFlow's own import failed to load (an ImportError raised in a
    #: frame of TensorFlow's that names a ``.so``), where the log shows one.
    tf_import_library: Optional[str] = None
    wsl: bool = False
    #: The one CUDA toolkit major the log shows installed (nvcc's release, the toolkit's
    #: directory, the CUDA compiler wheel), with the words that show it; None for none or
    #: several.
    toolkit_major: Optional[tuple[int, str]] = None
    #: What filled the GPU where an allocation failed, as the log tells it apart
    #: (:func:`_gpu_memory_reading`): ``taken`` (another process held memory before
    #: TensorFlow started), ``never-fits`` (one request at least all TensorFlow has), with
    #: the words that show it, ``shared`` (TensorFlow started on the GPU beside another
    #: framework's GPU work) or ``beside`` (another framework's GPU work, no device of
    #: TensorFlow's shown), with the frameworks; None where the log does not tell.
    memory_reading: Optional[tuple[str, str]] = None
    #: Other GPU frameworks the log shows at work beside TensorFlow (``PyTorch``, ``JAX``;
    #: :mod:`tfdoctor.evidence.frameworks`).
    frameworks: tuple[str, ...] = ()
    #: TensorFlow Serving's own words in the log (:data:`_SERVING_WORDS`): its model server
    #: builds TensorFlow as the Bazel repository org_tensorflow, as jaxlib once did.
    serving: bool = False
    #: The freezer whose bundle the log shows (:attr:`Evidence.freezer`), None where none.
    freezer: Optional[str] = None
    #: XLA's words on the ptxas it runs that name its version, the first of each problem:
    #: the problem, the version, and the other release the line names
    #: (:class:`tflog.PtxasProblem`). One log can hold two (TensorFlow 2.19's clamping note
    #: and its driver older than that ptxas), each its own finding's reading.
    ptxas_shown: tuple[tuple[str, str, str], ...] = ()
    #: The path of the ptxas XLA says it ran (:func:`tflog.ptxas_path_shown`).
    ptxas_path: Optional[str] = None
    #: The directory the log shows XLA_FLAGS' ``--xla_gpu_cuda_data_dir`` set to
    #: (:func:`tflog.xla_data_dir_shown`): where XLA looked first for libdevice.
    xla_data_dir: Optional[str] = None
    #: The TensorFlow.js for Node package the log names (``tfjs-node-gpu``), if any.
    tfjs_node_package: Optional[str] = None
    #: What OpenVINO's Model Optimizer made of its requirements check, where the log shows it
    #: (:func:`tfdoctor.evidence.packages.mo_check_outcome`).
    mo_outcome: Optional[str] = None
    conda: bool = False
    #: Who installed TensorFlow where the log shows another installer than pip
    #: (:func:`tfdoctor.evidence.packages.tf_installer`).
    tf_installer: Optional[str] = None
    #: The installer the log shows where not pip (``uv pip``, ``uv``)
    #: (:func:`tfdoctor.evidence.installer.log_installer`).
    installer: Optional[str] = None
    #: The packages the log shows conda installed (:attr:`Evidence.conda_installed`).
    conda_installed: frozenset[str] = frozenset()
    #: The channel ``conda list`` shows for each of them it lists (empty: the default
    #: channels), by name, sorted.
    conda_channels: tuple[tuple[str, str], ...] = ()
    #: A path the log shows under the Nix store (/nix/store/...-python3-3.6.2-env/...): the
    #: program runs from Nix packages, whose libraries are found through their run paths.
    nix_store: Optional[str] = None
    #: The line showing an active conda environment (its prompt, a path in its directory,
    #: ``conda activate``), with where: ``line 1: (tf) user@host:~$ python x.py``.
    conda_env: Optional[str] = None
    #: The loader's printed path is that of NVIDIA's CUDA container images (their
    #: LD_LIBRARY_PATH names /usr/local/nvidia/lib, where the container runtime mounts the
    #: host's driver libraries): the process runs in such a container.
    cuda_image: bool = False
    #: The log shows the CUDA libraries installed as pip wheels: their CUDA major ("12"), ""
    #: where only the and-cuda extra was asked for (and the shell passed it), None otherwise.
    cuda_wheels: Optional[str] = None
    #: CUDA library files the log shows on the disk by their full paths (a listing, find's
    #: output), in order (:class:`tfdoctor.evidence.tflog.LibraryFileShown`).
    library_files: tuple[str, ...] = ()
    #: A CUDA library of one release that did not load while the loader's printed path held
    #: a toolkit of another major, or the log shows one installed (nvcc, version.txt): (the
    #: toolkit's release, its directory or the line that shows it, the file asked for, the
    #: release the file implies, whether it is the loader's path).
    other_toolkit: Optional[tuple[str, str, str, str, bool]] = None
    #: What pip said it could see for this interpreter and platform.
    pip_refusals: tuple[PipRefusal, ...] = ()
    #: Wheel files pip refused, with their tags (the file its message or command named).
    wheel_refusals: tuple[WheelRefusal, ...] = ()
    #: Platform wheels pip installed from a file the command line named: (file, dist, version).
    wheel_files: tuple[tuple[str, str, str], ...] = ()
    #: The interpreter's platform tag, as `pip debug` lists it first (``win32``).
    tags_platform: Optional[str] = None
    #: The machine's architecture as uname or platform.platform() names it (``aarch64``),
    #: else as the Linux platform wheels pip chose for the interpreter name it.
    machine: Optional[str] = None
    #: Whether the interpreter's banner shows a 64-bit build (a 32-bit one is ruled out).
    python_64bit: bool = False
    #: The interpreter pip's tags or its banner show: its implementation, build, platform.
    interpreter: Optional[Interpreter] = None
    #: The file whose code called ``tf.load_op_library`` in a traceback (the frame before
    #: TensorFlow's load_library.py): whose op library it loaded.
    op_loader: Optional[str] = None
    #: The import package whose compiled extension Windows refused ("DLL load failed"), as a
    #: traceback shows it, where it is not TensorFlow's family (mpi4py, cv2, h5py).
    dll_extension: Optional[str] = None
    #: The package whose compiled extension NumPy refused, as a traceback's frames name it,
    #: where it is not TensorFlow's family (pandas', cv2's built for another NumPy).
    numpy_extension: Optional[PackageCode] = None
    #: The library outside TensorFlow's family whose code imported the standalone keras
    #: package, as the last traceback through Keras' frames shows it.
    keras_importer: Optional[PackageCode] = None
    #: The installed package outside TensorFlow's family whose import the loader failed (a
    #: shared library its extension needs not found, or a symbol of one undefined), as the
    #: last such traceback shows it.
    native_importer: Optional[PackageCode] = None
    #: The paths dyld said it tried for a library it did not load (its "Reason: tried:").
    dyld_tried: tuple[str, ...] = ()
    #: Those of them where dyld found a file and refused it (no "no such file").
    dyld_refused: tuple[str, ...] = ()
    #: TensorFlow found no NVIDIA kernel driver on the host (cuda_diagnostics.cc) and nothing
    #: in the log expects a GPU (no GPU shown, listed, wanted or complained of, no container).
    no_gpu_host: bool = False
    #: The same of NVML's words (:data:`_NVML_NO_DRIVER`): no NVIDIA driver, as a GPU-monitoring
    #: library found, and nothing in the log expects a GPU.
    nvml_no_gpu_host: bool = False
    #: TensorFlow itself reached a GPU: a device created (gpu_device.cc's "Created device", a
    #: pluggable device's), or a device query answering with one or more GPUs (observed, not
    #: inferred: :meth:`Evidence.gpu_reached`, the one reader of a GPU TensorFlow reached).
    gpu_reached: bool = False
    #: The same through CUDA and the NVIDIA driver: not a pluggable device's GPU (Metal's,
    #: DirectML's), which needs no libcuda.
    cuda_gpu_reached: bool = False
    #: The CUDA libraries that did not load are only those a 2.1+ build looks for at every
    #: start, and nothing in the log shows or wants a GPU (:mod:`tfdoctor.explain.cpu_machine`).
    cuda_probe_only: bool = False
    #: pip's "Successfully installed" is in the log and no traceback is: an install that
    #: ended well, with nothing after it failing.
    installed_quietly: bool = False
    #: The log runs an install inside a notebook's kernel (``!pip install``, ``%pip install``:
    #: evidence.packages' read_kernel_installs): what that kernel imported before stays loaded.
    kernel_install: bool = False
    #: nvidia-smi's table header is in the log: it prints one only where it lists a GPU.
    smi_gpu: bool = False
    #: node-gyp's verdict that an addon's build failed is in the log.
    addon_build_failed: bool = False
    #: TensorFlow.js is named in the log (a package path or name).
    tfjs: bool = False
    #: HDFS or Hadoop is named in the log (an hdfs:// path, libhdfs, Hadoop's variables,
    #: TensorFlowOnSpark): a JVM library that does not load is the HDFS file system's.
    hadoop: bool = False
    #: A library other than TensorFlow's HDFS file system that starts a JVM in the process
    #: (JPype, pyjnius, python-javabridge, R's rJava) is named in the log.
    jvm_embedder: bool = False
    #: TensorFlowSharp's types (``TensorFlow.TFGraph``, ``TFTensor``) are in the log: the .NET
    #: binding whose NuGet package carries TensorFlow's C library itself.
    tensorflowsharp: bool = False
    #: The log shows S3_ENDPOINT set to a plain-http URL.
    s3_plain_http: bool = False
    #: The Debian packages (name, version) the log's ``dpkg -l`` rows show installed.
    dpkg_installed: tuple[tuple[str, str], ...] = ()
    #: The version of pip the log shows (its upgrade notice, ``pip X from ...``).
    pip_version: Optional[str] = None
    #: The pip releases the log shows pip installing (``pip install --upgrade pip``), in order:
    #: a pip shown earlier may no longer be the one that ran later.
    pip_installed: tuple[str, ...] = ()
    #: The NumPy releases the log shows pip installing, in order: a NumPy shown before one of
    #: them (``pip show numpy``) may not be the one that ran.
    numpy_installed: tuple[str, ...] = ()
    #: The macOS a library dyld could not bind was built for (its "Referenced from:" line).
    dyld_built_for: Optional[str] = None
    #: The hosted notebook the log shows (``colab``, ``kaggle``): its paths or its name.
    notebook: Optional[str] = None
    #: The versioned interpreter command a shell line ran the code with (``python3``,
    #: ``py -3.10``), where the log shows one: pip's commands name it.
    python_command: Optional[str] = None
    #: The container tool whose command the log shows running the program or reading its
    #: output (``kubectl logs``, ``docker exec``): it ran in a container.
    container_tool: Optional[str] = None
    #: The kind of Mac the log shows (with its words), where it shows one and its system is
    #: macOS or not shown (:func:`tfdoctor.evidence.macos.mac_shown`; also in ``inferred``).
    mac: Optional[Inferred] = None
    #: The machine the log's Python on macOS reports itself built for, in
    #: platform.platform()'s words (``arm64``, ``x86_64``;
    #: :func:`tfdoctor.evidence.macos.python_machine`), where the system is macOS.
    mac_python_machine: Optional[str] = None
    #: The macOS release sw_vers printed (``10.15.5``;
    #: :func:`tfdoctor.evidence.macos.macos_release`), where the system is macOS.
    macos_release: Optional[str] = None
    #: A ``docker run`` or ``podman run`` the log shows without a GPU flag (the tool, the
    #: command as shown).
    docker_run_without_gpu: Optional[tuple[str, str]] = None
    #: The last command the log shows starting a container with the GPU handed over
    #: (``nvidia-docker run``, a GPU flag): the NVIDIA runtime mounts the host driver's
    #: libraries into it.
    gpu_container_run: Optional[str] = None
    #: That command (or Apptainer's without ``--nv``) where its image is one built to use a GPU
    #: (TensorFlow's ``-gpu`` tags, NVIDIA's CUDA and NGC images): the user meant the
    #: container to have the GPU.
    gpu_image_without_gpu: Optional[str] = None
    #: The start-up check of NVIDIA's CUDA and NGC images finding no GPU, with what the log
    #: shows against a container started without one
    #: (:func:`tfdoctor.evidence.devices.image_check`).
    image_check: Optional[ImageCheck] = None
    #: ``macos`` where the log shows a Mac (its platform, the issue's form) and a ``docker
    #: run``/``podman run`` on it: Docker Desktop's (Podman's) Linux VM, which hands its
    #: containers no GPU.
    container_host: Optional[str] = None
    #: The package manager the log shows the host's packages installed with (``apt``,
    #: ``dnf``, ``yum``, ``zypper``).
    packager: Optional[str] = None
    #: The Linux distribution the log names (os-release's lines, ``lsb_release -a``,
    #: ``hostnamectl``, the issue form's answer): :func:`tfdoctor.evidence.distro.read_distro`.
    distro: Optional[Distro] = None
    #: The Alpine-based image (musl) the log builds or runs on, where every image it shows is
    #: one: :func:`tfdoctor.evidence.distro.alpine_image`.
    alpine_image: Optional[str] = None
    #: The log shows AMD's ROCm stack at work: a ROCm library TensorFlow's loader opened or
    #: missed, or another signature in ROCm's words (tensorflow-rocm's build, not a CUDA one);
    #: not rocminfo's device-node lines (``kfd-node``), which show ROCm's tools on the
    #: machine beside any TensorFlow build.
    rocm_shown: bool = False
    #: The tool of the first ``docker run`` or ``podman run`` the log shows, GPU flag or not.
    run_tool: Optional[str] = None
    #: The line that prints a Docker container's default hostname (its ID's first 12 hex
    #: digits: TensorFlow's CUDA diagnostics, a shell's prompt): the process ran in one.
    container_hostname: Optional[str] = None
    #: The line that names a Cloud TPU VM's hostname, where TensorFlow's own frames are in a
    #: ``site-packages`` directory (a virtual environment's, ``~/.local``'s, conda's: one the
    #: user installed it into, not the image's system ``dist-packages``) and the log names no
    #: TPU build of TensorFlow (Cloud TPU's guide installs tensorflow-tpu there too).
    tpu_vm_user_tf: Optional[str] = None
    #: The line that shows TensorFlow using a TPU on another host (its master's grpc address,
    #: a worker job's TPU device: :func:`tfdoctor.evidence.devices.remote_tpu_shown`), whose
    #: own TensorFlow runs the client's graph.
    remote_tpu: Optional[str] = None
    #: The SageMaker instance type the log shows the job on (``ml.m5.xlarge``).
    instance_type: Optional[str] = None
    #: TensorFlow's loader opened a ROCm library (tensorflow-rocm on ROCm's runtime).
    rocm_loaded: bool = False
    #: A kernel look-up found a kernel of the op for a device the process registered, and
    #: none that takes the attributes asked (observed): a dtype refused, not a device missing.
    kernel_refused_attrs: bool = False
    #: Releases pip skipped for their Requires-Python, as it listed them.
    python_refusals: tuple[PythonRefusal, ...] = ()
    #: uv's hints naming the Python tags a release's wheels have, none of them this Python's.
    abi_hints: tuple[AbiTagsFound, ...] = ()
    #: uv's hints naming the platform tags a release's wheels have, none of them this one's.
    platform_hints: tuple[PlatformsFound, ...] = ()
    #: uv's hints that a requirement's releases exist but were set aside.
    set_aside: tuple[VersionsSetAside, ...] = ()
    #: Facts the log does not state but its paths and file names imply, each with its basis.
    inferred: tuple[Inferred, ...] = ()
    #: Where TensorFlow's own lines state a fact (field name, ``line 12``), for those read from
    #: its log lines' events (:mod:`tfdoctor.evidence.tflog`).
    stated_at: tuple[tuple[str, str], ...] = ()
    #: The packages a shown ``python -c`` command imports before TensorFlow
    #: (:func:`tfdoctor.evidence.imports.imported_before_tensorflow`).
    imported_before: tuple[str, ...] = ()
    #: The value the log sets CUDA_VISIBLE_DEVICES to ('' for an empty one), where it shows
    #: it set (:func:`tfdoctor.evidence.devices.visible_devices_set`).
    visible_devices: Optional[str] = None

    def known(self) -> list[str]:
        """What the log states, as phrases (not what it only implies: :attr:`inferred`), with
        the line that states it where TensorFlow's own lines do."""
        out = []
        guessed = {hint.fact for hint in self.inferred}
        at = dict(self.stated_at)
        if self.tf_version:
            out.append(f"TensorFlow {self.tf_version}")
        if self.python and "python" not in guessed:
            out.append(f"Python {self.python}")
        if self.cudnn_compiled:
            out.append(f"a build for cuDNN {self.cudnn_compiled}{_at(at, 'cudnn_compiled')}")
        if self.cudnn_loaded:
            out.append(f"cuDNN {self.cudnn_loaded} loaded{_at(at, 'cudnn_loaded')}")
        if self.gpu_name or self.compute_capability:
            cc = self.compute_capability
            notes = [f"compute capability {cc}"] if cc else []
            notes += [at["compute_capability"]] if "compute_capability" in at else []
            name = f"GPU {self.gpu_name}" if self.gpu_name else "GPU"
            out.append(name + (f" ({', '.join(notes)})" if notes else ""))
        if self.gpu_memory:
            out.append(f"{self.gpu_memory[1]} of the GPU's {self.gpu_memory[0]} free at start")
        if self.driver_version:
            out.append(f"driver {self.driver_version}{_at(at, 'driver_version')}")
        if self.numpy_version:
            out.append(f"NumPy {self.numpy_version}")
        if self.nccl_version and self.nccl_cuda:
            out.append(f"NCCL {self.nccl_version} built for CUDA {self.nccl_cuda}")
        if self.oom_device or self.oom_bytes:
            size = f" of {size_text(self.oom_bytes)}" if self.oom_bytes else ""
            device = f" on {self.oom_device}" if self.oom_device else ""
            out.append(f"an allocation{size} failing{device}{_at(at, 'oom')}")
        return out

    def unknown(self) -> list[str]:
        """What the fix would need and the log does not show."""
        out = []
        if not self.tf_version:
            out.append("the TensorFlow version")
        if not self.os:
            out.append("the operating system")
        if not self.python:
            out.append("the Python version")
        return out


def _at(where: Mapping[str, str], fact: str) -> str:
    """`` (line 12)`` where a fact is stated, else empty."""
    return f" ({where[fact]})" if fact in where else ""


#: The Linux path styles that are a Mac's too (what :data:`_OS_TEXT` cites for them).
_SHARED_WITH_MACOS = frozenset({"/usr/", "/opt/"})


def _text_os(text: str) -> Optional[str]:
    """The operating system the whole of ``text`` implies (:func:`_os_of`), or None."""
    found = _os_of((text,), ())
    return found.value if found is not None else None


_SO_NAMED = re.compile(r"(lib[\w.+-]+?\.so(?:\.\d+)*)\b")


def _tf_import_library(tracebacks: Sequence[Traceback]) -> Optional[str]:
    """The library an ImportError raised in TensorFlow's own frame names (TensorFlow's import
    could not load it), or None."""
    for tb in tracebacks:
        if not tb.frames or not tb.name.endswith("ImportError"):
            continue
        if origin_of(tb.frames[-1].path).dist != "tensorflow":
            continue
        found = _SO_NAMED.search(tb.message)
        if found is not None:
            return found.group(1)
    return None


def _libcuda_without_module(evidence: Evidence) -> bool:
    """Whether TensorFlow's diagnostics show the driver's libcuda with a version and no
    kernel module: the driver's user-space installed, its module not loaded."""
    libcuda = any(e.source == "libcuda" for _, e in evidence.logged(tflog.DriverVersion))
    return libcuda and any(e.kernel_module_absent for _, e in evidence.logged(tflog.DriverNotFound))


#: NVML's own words for a host without the NVIDIA driver (nvmlInit's NVML_ERROR_DRIVER_NOT_LOADED
#: and NVML_ERROR_LIBRARY_NOT_FOUND, as pynvml raises them or a tool prints "Failed to
#: initialize NVML: "): a GPU-monitoring library (pynvml, gpustat, a training framework's
#: GPU logger) says so on a CPU machine as readily as on a broken GPU one.
#: https://docs.nvidia.com/deploy/nvml-api/group__nvmlReturnValues.html
_NVML_NO_DRIVER = ("nvml-driver-not-loaded", "nvml-library-not-found")


def _no_gpu_host(evidence: Evidence, text: str, container: bool, nvml: bool = False) -> bool:
    """TensorFlow's probe (with ``nvml``, NVML's: :data:`_NVML_NO_DRIVER`) found no NVIDIA
    driver on this host, and nothing else in the log says a GPU was expected."""
    if nvml:
        found = any(sid in evidence.hits for sid in _NVML_NO_DRIVER)
    else:
        found = bool(evidence.logged(tflog.DriverNotFound))
    if container or not found:
        return False
    if _libcuda_without_module(evidence):
        return False  # the driver's libcuda is installed: a GPU was meant
    if evidence.devices or evidence.gpu_complaint is not None:
        return False
    head = evidence.first_text
    return not gpu_wanted(text) and not gpu_wanted(head)


#: The CUDA executor's words when it reads an enumerated GPU's NUMA node (TensorFlow's
#: stream_executor/cuda/cuda_gpu_executor.cc, later XLA's cuda_executor.cc).
_CUDA_NUMA_READ = "successful NUMA node read from SysFS"


def _gpu_image_without_gpu(evidence: Evidence) -> Optional[str]:
    """The container command the log shows run without a GPU flag (the evidence's reading)
    where its image is one built to use a GPU; None otherwise."""
    run = evidence.docker_run_without_gpu
    return run[1] if run is not None and runs_gpu_image(run[1]) else None


def _gpu_container_run(evidence: Evidence) -> Optional[str]:
    """The last container start the log shows with the GPU handed over to NVIDIA's runtime
    (:func:`container_run_with_gpu`), where the driver's libraries the log shows missing were
    missed inside it: none of those lines comes before the start (the host's own nvidia-smi
    failing), and the runtime did not refuse the start for them (nvidia-container-cli's
    "load library failed: libnvidia-ml.so.1" is the host's driver libraries missing: the
    container never started, https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/troubleshooting.html)."""
    start = container_run_with_gpu(evidence.first_text)
    if start is None or "container-cli-no-nvml" in evidence.hits:
        return None
    at, command = start
    for hits in evidence.hits.values():
        if hits.signature.cause != causes.gpu.DRIVER_LIBRARIES_MISSING:
            continue
        if any(-1 < evidence.first_text.find(line) < at for _, line in hits.citations):
            return None
    return command


def _cuda_probe_only(evidence: Evidence, lines: Sequence[str], container: bool) -> bool:
    """Whether the log is a machine without a GPU looking for CUDA as it starts: only the
    runtime and libcuda missing, nothing that shows or wants a GPU (devices listed, the user's
    complaint, a container's GPU image, a CUDA device enumerated)."""
    if container or evidence.devices or evidence.gpu_complaint is not None:
        return False
    numa = evidence.hits.get("numa-node")
    if numa is not None and any(_CUDA_NUMA_READ in line for _, line in numa.citations):
        # The CUDA executor reads the NUMA node of each GPU it enumerates (cuda_executor.cc's
        # TryToReadNumaNode, in its device description): libcuda ran and a GPU is there, so
        # the runtime missing beside it is the GPU's failure, not a machine without one.
        return False
    hits = [
        h
        for h in evidence.hits.values()
        if h.signature.cause in (causes.gpu.CUDA_LIBS_MISSING, causes.gpu.DRIVER_NOT_LOADED)
    ]
    if any(LOADER_LINE not in h.signature.tags for h in hits):
        return False  # the toolkit's summary, an import's error, a user's words: not the look
    if "opened-cudart" in evidence.hits or "opened-cuda-toolkit-library" in evidence.hits:
        return False  # the loader opened part of a CUDA toolkit: a GPU setup, wherever the line
    if any(sid in evidence.hits for sid in _TOOLKIT_SHOWN if sid != _LISTING) or (
        _toolkit_listed(evidence)
    ):
        # The machine's own CUDA toolkit, shown by nvcc, its version file or its directory
        # named for its release (CUDA\v10.2\bin on PATH, /usr/local/cuda-11.0): installed to
        # use a GPU, so the runtime the build asks for missing is that setup's failure.
        return False
    if _toolkit_files_shown(evidence):
        # A CUDA toolkit library the log shows on the disk by its path (a listing, find's or
        # where.exe's output: /usr/local/cuda/lib64/libcudart.so.10.2): a toolkit installed
        # to use a GPU, whichever its release, as above. The driver's libcuda is not one of
        # them (tflog's file stems): a CPU-only image may carry NVIDIA's driver libraries.
        return False
    return cuda_probe_only(
        [e for _, e in evidence.logged(tflog.LibraryNotLoaded)],
        [g["library"] for h in hits for g in h.groups if g.get("library")],
        "cudart-dlerror-hint" in evidence.hits,
        evidence.first("tf_version", evidence_only=True) or evidence.stated.tf_version,
        (*lines, evidence.first_text),
    )


def chosen_machines(collected: Iterable[Collected], text: str) -> set[str]:
    """The machines of the Linux platform wheels pip chose from an index (``collected``): pip
    takes only wheels whose tags the interpreter accepts, so each names the interpreter's
    machine. Linux's alone, as uname names it there (:attr:`Revealed.machine`, which Linux's
    readings take for the system's): a Mac's ``macosx_11_0_arm64`` is spelled aarch64 by
    :func:`tfdoctor.wheel_tags.tag_machines` too, and Linux aarch64's wheels are not a Mac's.
    None where ``text`` shows pip asked for another platform's (``--platform``)."""
    if "--platform" in text:
        return set()
    out: set[str] = set()
    for c in collected:
        tag = c.platform.split(".")[0]
        machines = tag_machines(tag) if tag and tag_system(tag) == "linux" else ()
        if len(machines) == 1:
            out.add(machines[0])
    return out


def _chosen_machine(evidence: Evidence) -> Optional[str]:
    """The machine the wheels pip chose show, where they show one."""
    machines = chosen_machines(evidence.collected, evidence.first_text)
    return next(iter(machines)) if len(machines) == 1 else None


def _os_of_installed(evidence: Evidence) -> Optional[Inferred]:
    """macOS, where a package listing shows installed a distribution whose every release the
    wheel index knows is a macOS wheel (tensorflow-macos, tensorflow-metal): pip installs it
    nowhere else. None otherwise (a name alone, in a command or a refusal, installs nothing)."""
    for name, version in (*evidence.listed.items(), *evidence.shown.items()):
        rows = releases_of(normalize_name(name))
        platforms = {p for row in rows for p in row.platforms}
        if platforms and all(p.startswith("macos-") for p in platforms):
            return Inferred(
                "os", "macos", f"{name} {version} installed (its wheels are for macOS only)"
            )
    return None


def _system_of(
    evidence: Evidence, lines: Sequence[str], libraries: Sequence[str], frames: Sequence[str]
) -> tuple[Optional[Inferred], Optional[Inferred]]:
    """The operating system the log implies and the kind of Mac it shows, each with its
    basis: library names and path styles, the devices' lines, a prompt, the issue's form,
    then a Mac's own signs."""
    os_hint = _os_of(lines, libraries, frames)
    if (
        os_hint is not None
        and os_hint.value == "linux"
        and os_hint.because.lstrip("\"'(") in _SHARED_WITH_MACOS
        and evidence.os_of_prompt is not None
        and evidence.os_of_prompt.value == "macos"
        # A container started from the Mac's prompt is Linux whatever its host (as
        # _container_host reads it): its /usr/ paths are the container's own.
        and container_run_tool(evidence.first_text) is None
    ):
        # /usr/ and /opt/ hold programs on a Mac too (Homebrew's /usr/local on Intel, Anaconda
        # under /opt): a Mac's own zsh prompt says more than those two path styles.
        os_hint = evidence.os_of_prompt
    os_hint = (
        os_hint or evidence.os_near_devices or evidence.os_of_prompt or _os_of_installed(evidence)
    )
    said = evidence.stated
    if os_hint is None and said.os is not None:
        # The user's own form states it: what they wrote, cited as written.
        os_hint = Inferred("os", said.os, f"the issue's form: {said.os_said}")
    mac, printed = mac_shown(evidence.first_text)
    darwin = uname_darwin(evidence.first_text)
    if os_hint is None and darwin is not None:
        # The kernel's own name, as uname printed it: macOS's Darwin.
        os_hint = Inferred("os", "macos", darwin)
    if os_hint is None and mac is not None and printed:
        # Only what the machine printed says the system (a user's words may name another
        # machine than the one that failed).
        os_hint = Inferred("os", "macos", mac.because)
    if os_hint is None and evidence.tags_platform:
        # The interpreter's own platform tag, as its installer reports it (pip debug's first
        # tag, uv's example): win_* is Windows', macosx_* macOS', linux_* and
        # manylinux/musllinux Linux's (PEP 425, PEP 600, PEP 656).
        tag = evidence.tags_platform
        system = tag_os(tag)
        if system is not None:
            os_hint = Inferred("os", system, f"the interpreter's platform tag {tag}")
    if os_hint is None and mac is None:
        # TensorFlow's own images are Ubuntu's (https://www.tensorflow.org/install/docker):
        # a program the log shows started from one runs on Linux.
        release = tf_image_release(evidence.first_text) or tf_cpu_image(evidence.first_text)
        if release is not None:
            os_hint = Inferred("os", "linux", "TensorFlow's Docker image (Linux)")
    if os_hint is not None and os_hint.value != "macos":
        mac = None  # a Mac named beside a log of another system is another machine
    return os_hint, mac


def _container_host(evidence: Evidence) -> Optional[str]:
    """``macos`` where the log shows a container started (``docker run``, ``podman run``) on
    a Mac: a Mac's own signs (its platform string, uname, sysctl) or the issue's form naming
    macOS. A container is Linux whatever its host, so a Mac there is the host's."""
    if container_run_tool(evidence.first_text) is None:
        return None
    if evidence.stated.os == "macos" or mac_shown(evidence.first_text)[0] is not None:
        return "macos"
    return None


#: The evidence signatures that show HDFS or Hadoop in a log.
_HADOOP_SHOWN = (
    "hdfs-shown",
    "hadoop-home-shown",
    "tensorflowonspark-shown",
    "tensorflowonspark-module-shown",
)

#: The JVM's library and Hadoop's, which TensorFlow's HDFS file system loads (libhdfs starts
#: a JVM from libjvm.so).
_HDFS_LIBRARIES = ("libjvm.so", "libhdfs.so")
#: Libraries that load libjvm.so into a Python or R process themselves: beside one, a JVM
#: library that does not load may be theirs. (Spark's py4j talks to a JVM in another process
#: and loads none.)
#: TensorFlowSharp's namespace and types (TensorFlow.NET's namespace is ``Tensorflow``).
_TENSORFLOWSHARP = re.compile(r"\bTensorFlowSharp\b|\bTensorFlow\.TF[A-Z]\w{0,40}")
_JVM_EMBEDDERS = re.compile(r"(?i)\b(?:jpype1?|pyjnius|jnius|javabridge|rjava)\b")


#: TensorFlow's TPU builds as pip and a listing name them (``tensorflow-tpu``, the nightly
#: ``tf-nightly-tpu``; a wheel's ``tensorflow_tpu-2.16.1-...``): a log that shows one installed
#: is not of the CPU wheel on a TPU VM.
_TPU_BUILD_NAMED = re.compile(r"(?<![\w.-])(?:tensorflow|tf[-_]nightly)[-_]tpu\b")


def _conda_here(evidence: Evidence, site: Optional[str]) -> tuple[frozenset[str], dict[str, str]]:
    """The packages the log shows conda installed in the environment that runs, and their
    channels (:attr:`Evidence.conda_installed`, :attr:`Evidence.conda_channels`). A ``conda
    list`` of another environment than the one whose site-packages the log shows (a virtual
    environment made from conda's Python; base beside one of its envs) says nothing of who
    installed what runs: a conda command would change the other environment, so its rows
    are left out."""
    listed = evidence.conda_list_prefix
    if listed is None or site is None or in_environment(listed, site):
        return evidence.conda_installed, evidence.conda_channels
    return evidence.conda_installed - frozenset(evidence.conda_channels), {}


def reveal(evidence: Evidence, matrix: Optional[Matrix] = None) -> Revealed:
    """What ``evidence`` shows about the machine (``matrix``: which TensorFlow lines the
    CUDA and cuDNN releases a missing library's file name implies were built for)."""
    lines = evidence.cited_lines()
    libraries = evidence.values("library")
    site = evidence.first("site_packages")
    python = evidence.first("python_version") or evidence.python_shown
    inferred: list[Inferred] = []
    # The interpreter's directory in a path: TensorFlow's site-packages, else a traceback's
    # frame, else the signatures' reading of any line (lib/python3.12/, Python312\Lib\).
    paths = [site] if site is not None else []
    paths += [frame.path for tb in evidence.tracebacks for frame in tb.frames]
    paths += [f"lib/python{v}/" for v in evidence.values("path_python", evidence_only=True)[:1]]
    paths += [f"\\Python{v}\\" for v in evidence.values("path_python_tag", evidence_only=True)[:1]]
    for path in paths if python is None else ():
        python = path_python(path)
        if python is not None:
            inferred.append(Inferred("python", python, path))
            break
    conda = site is not None and bool(re.search(r"conda|[/\\]envs[/\\]", site))
    if conda and site is not None:
        inferred.append(Inferred("environment", "a conda environment", site))
    frames = [f.path for tb in evidence.tracebacks for f in tb.frames]
    conda_installed, conda_channels = _conda_here(evidence, site)
    image_line = next((line for line in lines if _CUDA_IMAGE_PATH.search(line)), None)
    # The training toolkit's word on its own job's instance type shows a SageMaker job where
    # no path of its does; an instance type the code passes the SDK names where the job it
    # launches runs, not where the log's own lines ran.
    notebook = _notebook_of("\n".join((evidence.first_text, *lines)), frames) or (
        "sagemaker" if sagemaker_job_instance_type(evidence.first_text) is not None else None
    )
    if notebook is not None:
        image_line = None  # hosted notebooks (Colab) print the same path: no container shown
    if image_line is not None:
        inferred.append(Inferred("environment", "a container of NVIDIA's CUDA images", image_line))
    os_hint, mac = _system_of(evidence, lines, libraries, frames)
    inferred.extend(x for x in (mac, os_hint) if x is not None)
    said = evidence.stated
    if python is None and said.python is not None:
        python = said.python
        inferred.append(Inferred("python", python, "the issue's form"))
    inferred.extend(_soname_hints(evidence, matrix))
    # TensorFlow's own lines first (tflog's events), then what other lines state (nvidia-smi's
    # header, "Loaded cuDNN version 8600", the devices TensorFlow created).
    stated: dict[str, str] = {}
    mismatch = [
        (where, e) for where, e in evidence.logged(tflog.VersionMismatch) if e.library == "cuDNN"
    ]
    compiled = _stated(stated, "cudnn_compiled", [(w, e.compiled) for w, e in mismatch])
    loaded = _stated(stated, "cudnn_loaded", [(w, e.loaded) for w, e in mismatch])
    compiled = compiled or evidence.first("cudnn_compiled")
    loaded = loaded or evidence.first("cudnn_loaded") or evidence.first("cudnn_version")
    logged_caps = [
        *((w, e.capability) for w, e in evidence.logged(tflog.GpuIgnored)),
        *((w, e.capability) for w, e in evidence.logged(tflog.NoKernelsForGpu)),
    ]
    cap = _stated(stated, "compute_capability", logged_caps)
    caps = [cap] if cap else evidence.values("compute_capability")
    if not caps and evidence.first("cc_major") and evidence.first("cc_minor"):
        # TensorFlow 1.x's device line: "major: 7 minor: 5".
        caps = [f"{evidence.first('cc_major')}.{evidence.first('cc_minor')}"]
    driver = _stated(stated, "driver_version", _driver_versions(evidence))
    oom = next(
        (
            (where, e)
            for where, e in evidence.logged(tflog.OutOfMemory)
            if e.failure and (e.device or e.bytes)
        ),
        None,
    )
    if oom is not None:
        stated["oom"] = oom[0]
    text = "\n".join(lines)
    return Revealed(
        tf_version=pip_spelled(evidence.first("tf_version", evidence_only=True) or "")
        or evidence.echoed.get("tensorflow")
        or _listed_tensorflow(evidence.listed)
        or _conda_tensorflow(evidence.conda_listed)
        or evidence.stated.tf_version
        or tf_image_release(evidence.first_text),
        tf_dist=evidence.first("dist", evidence_only=True),
        python=python,
        os=os_hint.value if os_hint is not None else None,
        cudnn_loaded=cudnn_dotted(loaded),
        cudnn_compiled=cudnn_dotted(compiled),
        cuda_version=evidence.first("cuda_version"),
        build_cuda=next(
            filter(None, map(tflog.cuda_of_soname, evidence.values("toolkit_library"))), None
        ),
        compute_capability=caps[0] if caps else None,
        gpu_name=evidence.first("gpu_name") or evidence.stated.gpu,
        gpu_memory=_gpu_memory(evidence),
        stated_cuda=evidence.stated.cuda,
        driver_version=driver or evidence.first("driver_version"),
        kernel_module=next(
            (e.version for _, e in evidence.logged(tflog.DriverVersion) if e.source == "kernel"),
            None,
        ),
        libcuda_without_module=_libcuda_without_module(evidence),
        nouveau_holds_gpu=any(
            NOUVEAU_HOLDS_GPU in h.signature.tags for h in evidence.hits.values()
        ),
        numpy_version=evidence.first("numpy_version")
        or evidence.echoed.get("numpy")
        or evidence.shown.get("numpy"),
        nccl_version=evidence.first("nccl_version", evidence_only=True),
        nccl_cuda=evidence.first("nccl_cuda", evidence_only=True),
        oom_device=(oom[1].device or None) if oom is not None else None,
        oom_bytes=oom[1].bytes if oom is not None else None,
        site_packages=site,
        tf_import_library=_tf_import_library(evidence.tracebacks),
        other_toolkit=_other_toolkit(evidence),
        wsl=evidence.wsl or "/usr/lib/wsl/" in text or evidence.stated.wsl,
        cuda_image=image_line is not None,
        cuda_wheels=_cuda_wheels(evidence),
        library_files=tuple(
            dict.fromkeys(e.path for _, e in evidence.logged(tflog.LibraryFileShown))
        ),
        conda=conda,
        tf_installer=tf_installer((*(p for p in (site,) if p), *frames), conda_installed),
        installer=evidence.installer or log_installer(text),
        conda_installed=conda_installed,
        conda_channels=tuple(sorted(conda_channels.items())),
        nix_store=next((p for p in (site or "", *frames) if p.startswith(_NIX_STORE)), None),
        conda_env=(
            f"{evidence.conda_env[0]}: {evidence.conda_env[1]}"
            if evidence.conda_env is not None
            else f"the installed path {site}"
            if conda
            else None
        ),
        pip_refusals=tuple(evidence.refusals),
        wheel_refusals=tuple(evidence.wheel_refusals),
        wheel_files=tuple(dict.fromkeys(evidence.wheel_files)),
        tags_platform=evidence.tags_platform,
        machine=evidence.machine or _chosen_machine(evidence),
        python_64bit=evidence.python_64bit,
        interpreter=evidence.interpreter,
        op_loader=op_loader_in(evidence.first_text),
        dll_extension=_dll_extension(evidence.tracebacks),
        numpy_extension=numpy_extension_package(evidence.tracebacks),
        keras_importer=next(filter(None, map(keras_importer, reversed(evidence.tracebacks))), None),
        native_importer=_native_importer(evidence.tracebacks),
        dyld_tried=dyld_tried(evidence.first_text),
        dyld_refused=dyld_refused(evidence.first_text),
        pip_version=evidence.first("pip_version", evidence_only=True),
        pip_installed=tuple(installed_releases(evidence.first_text, "pip")),
        numpy_installed=tuple(installed_releases(evidence.first_text, "numpy")),
        tfjs_node_package=evidence.tfjs_node_package,
        mo_outcome=mo_check_outcome(evidence.first_text)
        if any(h == _MO_CHECK for h in evidence.hits)
        else None,
        toolkit_major=_toolkit_major(evidence, text),
        frameworks=read_frameworks(f"{evidence.first_text}\n{text}"),
        serving=_SERVING_WORDS.search(f"{evidence.first_text}\n{text}") is not None,
        freezer=evidence.freezer,
        memory_reading=_gpu_memory_reading(
            # The log's head holds the GPU's description, which no signature cites.
            f"{evidence.first_text}\n{text}",
            next(
                (
                    e.bytes
                    for _, e in evidence.logged(tflog.OutOfMemory)
                    if e.failure and e.bytes and "trying to allocate" in e.message
                ),
                None,
            ),
        ),
        ptxas_path=tflog.ptxas_path_shown(f"{evidence.first_text}\n{text}"),
        xla_data_dir=tflog.xla_data_dir_shown(f"{evidence.first_text}\n{text}"),
        ptxas_shown=tuple(
            {
                e.problem: (e.problem, e.ptxas, e.other)
                for _, e in reversed(evidence.logged(tflog.PtxasProblem))
                if e.ptxas and e.other
            }.values()
        ),
        dyld_built_for=evidence.first("macos_version", evidence_only=True),
        mac=mac,
        mac_python_machine=python_machine(evidence.first_text)
        if os_hint is not None and os_hint.value == "macos"
        else None,
        macos_release=macos_release(evidence.first_text)
        if os_hint is None or os_hint.value == "macos"
        else None,
        notebook=notebook,
        python_command=python_command(evidence.first_text),
        container_tool=container_shown(evidence.first_text),
        docker_run_without_gpu=evidence.docker_run_without_gpu,
        gpu_container_run=_gpu_container_run(evidence),
        gpu_image_without_gpu=_gpu_image_without_gpu(evidence),
        image_check=image_check(
            evidence.first_text,
            next(
                (
                    said
                    for h in evidence.hits.values()
                    if IMAGE_CHECK in h.signature.tags
                    for _, said in h.citations[:1]
                ),
                "",
            ),
        ),
        container_host=_container_host(evidence),
        packager=host_packager(evidence.first_text),
        distro=read_distro(evidence.first_text, evidence.stated.os_said),
        alpine_image=alpine_image(evidence.first_text),
        rocm_shown=any(
            ROCM_WORDS in h.signature.tags and KFD_NODE not in h.signature.tags
            for h in evidence.hits.values()
        ),
        run_tool=container_run_tool(evidence.first_text),
        container_hostname=container_hostname(evidence.first_text),
        instance_type=sagemaker_instance_type(evidence.first_text),
        remote_tpu=remote_tpu_shown(evidence.first_text),
        tpu_vm_user_tf=(
            tpu_vm_hostname(evidence.first_text)
            if any("/site-packages/tensorflow/" in f for f in frames)
            and not _TPU_BUILD_NAMED.search(evidence.first_text)
            else None
        ),
        no_gpu_host=_no_gpu_host(evidence, text, image_line is not None),
        nvml_no_gpu_host=_no_gpu_host(evidence, text, image_line is not None, nvml=True),
        gpu_reached=evidence.gpu_reached() is not None,
        cuda_gpu_reached=evidence.gpu_reached(cuda=True) is not None,
        cuda_probe_only=_cuda_probe_only(evidence, lines, image_line is not None),
        installed_quietly=not evidence.tracebacks
        and any(_INSTALLED in t for t in (evidence.first_text, *lines)),
        kernel_install=bool(evidence.kernel_installs),
        smi_gpu="nvidia-smi-header" in evidence.hits,
        addon_build_failed="node-gyp-build-failed" in evidence.hits,
        tfjs="tfjs-shown" in evidence.hits or "tfjs-layers-reasons" in evidence.hits,
        rocm_loaded="rocm-library-opened" in evidence.hits,
        kernel_refused_attrs=evidence.kernel_refused_attrs,
        hadoop=any(s in evidence.hits for s in _HADOOP_SHOWN),
        jvm_embedder=_JVM_EMBEDDERS.search(f"{evidence.first_text}\n{text}") is not None,
        tensorflowsharp=_TENSORFLOWSHARP.search(f"{evidence.first_text}\n{text}") is not None,
        s3_plain_http="s3-endpoint-http-shown" in evidence.hits,
        dpkg_installed=dpkg_installed(evidence.first_text),
        python_refusals=tuple(evidence.python_refusals),
        abi_hints=tuple(evidence.abi_hints),
        platform_hints=tuple(evidence.platform_hints),
        set_aside=tuple(evidence.set_aside),
        inferred=tuple(inferred),
        stated_at=tuple(stated.items()),
        imported_before=imported_before_tensorflow(f"{evidence.first_text}\n{text}"),
        visible_devices=evidence.visible_devices,
    )


class _Notebook(NamedTuple):
    """A hosted notebook's marks: its ``name``, the plain ``words`` one of which every match of
    its ``pattern`` holds, and the pattern of its own paths and packages."""

    name: str
    words: tuple[str, ...]
    pattern: re.Pattern[str]

    def shown(self, text: str) -> bool:
        """Whether ``text`` shows this notebook: the words first, the pattern where one is in."""
        return any(word in text for word in self.words) and self.pattern.search(text) is not None


#: A hosted notebook's own paths and packages: Colab's /content working directory, its
#: google.colab package and the local version label of the packages Colab builds for its image
#: (``tensorflow 2.8.2+zzzcolab20220719082949``, as pip prints them installed there), Kaggle's
#: /kaggle/input and /kaggle/working. Not the words "Colab" or "Kaggle", which a user writes of
#: another machine ("it works on Colab"). Each row keeps, beside its pattern, the plain words one
#: of which every match of the pattern holds: a text without them is passed over without a
#: regular-expression search (most logs show no notebook).
_NOTEBOOKS: tuple[_Notebook, ...] = (
    # Colab's pip hook (google.colab's _pip module) prints "WARNING: The following packages
    # were previously imported in this runtime:" after an install in the kernel: only Colab's
    # runtime has it. The google.colab package's own files in a traceback (its import hooks,
    # _import_hooks/_cv2.py: googlecolab/colabtools, google/colab/) are Colab's too, and so is
    # /usr/lib64-nvidia, the directory of the driver's libraries that Colab's runtime puts on
    # LD_LIBRARY_PATH, which TensorFlow's loader prints with each library it could not open
    # (dso_loader.cc; tinygrad/tinygrad#16023, googlecolab/colabtools#4300).
    # pip on Colab's runtime also looks in Colab's own wheel index and says so first
    # ("Looking in indexes: https://pypi.org/simple,
    # https://us-python.pkg.dev/colab-wheels/public/simple/", from the runtime's pip
    # configuration): the repository is Colab's. /content (the runtime's working directory,
    # itself or a path under it: ``%cd /content``) counts where a path starts, also
    # as an option's value (``--model_dir=/content/training``) or in a path list
    # (``PYTHONPATH=$PYTHONPATH:/content/models/research``), not after a drive letter
    # (``C:/content/``, a Windows folder), nor Cloud Datalab's /content/datalab (its
    # container's folder of notebooks, on a VM of the user's project or the user's own machine:
    # googledatalab/datalab, containers/datalab/content/run.sh, "mkdir -p
    # /content/datalab/notebooks"). pip naming Colab's own distribution installed
    # (``google-colab``, colabtools' setup.py) in its resolver's conflicts ("google-colab 1.0.0
    # requires ...", pip's "{name} {version} requires {req}, but you have ...") or as
    # already there shows the package the runtime imports from, as its files in a traceback do.
    # Colab's %tensorflow_version magic (google/colab/_tensorflow_magics.py) prints
    # "TensorFlow 1.x selected." or "TensorFlow is already loaded. Please restart the runtime to
    # change versions."; while the image carried TensorFlow 1 beside 2, the magic put the 1.x
    # release's own folder, /tensorflow-1.15.0/python3.6, on sys.path, and its files show in
    # tracebacks. The magic's line in a cell is no mark: pasted elsewhere, IPython refuses it.
    _Notebook(
        "colab",
        (
            "/content",
            "colab",
            "this runtime",
            "crashed for an unknown",
            "lib64-nvidia",
            ".x selected",
            "/tensorflow-1.",
            "restart the runtime to change",
        ),
        re.compile(
            r"\bgoogle[./]colab\b"
            r"|(?:^|[\s\"'(=]|(?<!\b[A-Za-z]):)/content(?!/datalab\b)(?:/|(?=[\s\"')]|\Z))"
            r"|\d\+zzzcolab\d"
            r"|\bgoogle-colab \d[\w.]{0,20} requires\b"
            r"|Requirement already satisfied: google-colab\b"
            r"|previously imported in this runtime:"
            r"|^TensorFlow [12]\.x selected\.|\nTensorFlow [12]\.x selected\."
            r"|TensorFlow is already loaded\. Please restart the runtime to change versions"
            r"|(?:^|[\s\"'(])/tensorflow-1\.\d{1,3}\.\d{1,3}/python3\.\d{1,3}/"
            r"|(?:^|\n)Your \w+ crashed for an unknown reason"
            r"|(?:^|[\s:=])/usr/lib64-nvidia(?:/|:|\s|$)"
            r"|\bus-python\.pkg\.dev/colab-wheels/"
        ),
    ),
    # Kaggle's notebook directories: the data (/kaggle/input), the output kept with the
    # version (/kaggle/working) and the scratch one (/kaggle/temp), as the first cell of
    # Kaggle's Python notebook template names them (Kaggle/docker-python's image runs it).
    _Notebook("kaggle", ("/kaggle/",), re.compile(r"/kaggle/(?:input|working|temp)\b")),
    # A SageMaker notebook instance's persistent directory and the conda environments its
    # kernels run in (https://docs.aws.amazon.com/sagemaker/latest/dg/nbi-lifecycle-config-install.html,
    # https://docs.aws.amazon.com/sagemaker/latest/dg/nbi-add-external.html), and a training
    # job's /opt/ml/code, /opt/ml/input and /opt/ml/model
    # (https://docs.aws.amazon.com/sagemaker/latest/dg/your-algorithms-training-algo-running-container.html),
    # a processing job's inputs and code under /opt/ml/processing (the SDK's processing.py,
    # ScriptProcessor's _CODE_CONTAINER_BASE_PATH "/opt/ml/processing/input/",
    # https://github.com/aws/sagemaker-python-sdk/blob/v2.200.0/src/sagemaker/processing.py),
    # and a Studio space's volume, mounted at /home/sagemaker-user
    # (https://docs.aws.amazon.com/sagemaker/latest/dg/studio-updated-jl-image-specifications.html).
    _Notebook(
        "sagemaker",
        ("/ec2-user/", "/opt/ml/", "/sagemaker-user/"),
        re.compile(
            r"/home/ec2-user/(?:SageMaker|anaconda3/envs)/|/opt/ml/(?:code|input|model|processing)/"
            r"|/home/sagemaker-user/"
        ),
    ),
    # A Databricks cluster's own Python environment (/databricks/python/bin/pip in Databricks'
    # init-script guide, https://docs.databricks.com/archive/compute/libraries-init-scripts.html,
    # python3 in older runtimes) and the driver's working directory, /databricks/driver.
    _Notebook("databricks", ("/databricks/",), re.compile(r"/databricks/(?:python3?|driver)/")),
    # The Deep Learning VM image Vertex AI Workbench instances run keeps its metadata and
    # scripts under /opt/deeplearning/ (https://cloud.google.com/deep-learning-vm/docs/images;
    # the probe's marker for the image, tfdoctor.probes.hosted).
    _Notebook("vertex", ("/opt/deeplearning/",), re.compile(r"/opt/deeplearning/")),
)


def _notebook_of(head: str, frames: Sequence[str]) -> Optional[str]:
    """The hosted notebook the head of the log or its tracebacks' files show by its own paths,
    or None (two shown: neither)."""
    text = "\n".join((head, *frames))
    found = [row.name for row in _NOTEBOOKS if row.shown(text)]
    return found[0] if len(found) == 1 else None


def _listed_tensorflow(listed: Mapping[str, str]) -> Optional[str]:
    """TensorFlow's version in a pasted listing, where its distributions there agree."""
    versions = {v for name, v in listed.items() if name in TF_DISTRIBUTIONS}
    return versions.pop() if len(versions) == 1 else None


def _conda_tensorflow(rows: Sequence[CondaRow]) -> Optional[str]:
    """TensorFlow's version in a pasted ``conda list`` (its rows under the list's header),
    where its packages there agree (the package holding the files and its metapackages carry
    the release's version)."""
    versions = {row.version for row in rows if row.name in CONDA_TENSORFLOW}
    return versions.pop() if len(versions) == 1 else None


def _listed_distribution(listed: Mapping[str, str], version: Optional[str]) -> Optional[str]:
    """The TensorFlow distribution a pasted listing shows at ``version`` (``tensorflow`` first
    where several are), or None."""
    found = [n for n, v in listed.items() if n in TF_DISTRIBUTIONS and v == version]
    return min(found, key=TF_DISTRIBUTIONS.index) if found else None


def _cuda_wheels(evidence: Evidence) -> Optional[str]:
    """The CUDA major of the nvidia-* wheels pip installed or a listing shows ("" where the
    and-cuda extra was only asked for), or None: none shown, an and-cuda request the shell
    stopped (zsh's glob), or wheels of another CUDA major than the library files TensorFlow
    asked for."""
    ids = {h.signature.id: h for h in evidence.hits.values()}
    installed = ids.get("cuda-wheels-installed") or ids.get("cuda-wheels-listed")
    if installed is not None:
        major: Optional[str] = next(
            (g["cuda_version"] for g in installed.groups if g.get("cuda_version")), ""
        )
    elif "and-cuda-requested" in ids and "zsh-glob-extra" not in ids:
        major = ""
    else:
        return None
    asked = {e.cuda.split(".", 1)[0] for _, e in evidence.logged(tflog.LibraryNotLoaded) if e.cuda}
    if major and asked and major not in asked:
        return None  # cu12 wheels cannot serve a build that asks for CUDA 11's files
    return major


#: The evidence signatures that show the CUDA toolkit installed: nvcc's banner, version.txt,
#: the toolkit's directory named for its release, a listing of its library files (whose
#: release the names alone do not settle: from CUDA 11 the runtime's soname is 11.0 in every
#: 11.x, so it gives no ``toolkit_cuda``).
_TOOLKIT_SHOWN = (
    "nvcc-release-shown",
    "cuda-version-file-shown",
    "cuda-toolkit-dir-shown",
    "cuda-toolkit-linux-dir-shown",
    "cuda-library-listing-shown",
)


def _toolkit_major(evidence: Evidence, text: str) -> Optional[tuple[int, str]]:
    """The one CUDA toolkit major the log shows (the toolkit signatures' releases, then the
    directories and the compiler wheel its head and cited lines show), with the words."""
    shown: dict[int, str] = {}
    for sid in _TOOLKIT_SHOWN:
        if sid in evidence.hits:
            for groups in evidence.hits[sid].groups:
                release = groups.get("toolkit_cuda")
                if release:
                    shown.setdefault(version_key(release)[0], f"CUDA {release}")
    for said in (evidence.first_text, text):
        for major, words in tflog.toolkit_majors_shown(said).items():
            shown.setdefault(major, words)
    return next(iter(shown.items())) if len(shown) == 1 else None


#: The signature of a line of ``ls``'s output naming CUDA toolkit library files.
_LISTING = "cuda-library-listing-shown"
#: ``ls`` run at a prompt (or behind sudo), with what it was given.
_LS_COMMAND = re.compile(r"(?:^|[$#>%][ \t]*)(?:sudo[ \t]+)?ls(?:[ \t][^\n]*)?$", re.MULTILINE)


def _toolkit_listed(evidence: Evidence) -> bool:
    """Whether a listing of CUDA toolkit library files (:data:`_LISTING`) is the output of an
    ``ls`` the log shows run before it on a directory outside an interpreter's site-packages:
    file names on a line of their own may be the user's words (the files wanted), and a
    Python package's own copies (pip's nvidia-* wheels) show no toolkit set up for a GPU."""
    hits = evidence.hits.get(_LISTING)
    for _, line in hits.citations if hits is not None else ():
        at = evidence.first_text.find(line)
        command = list(_LS_COMMAND.finditer(evidence.first_text, 0, max(at, 0)))
        if at > 0 and command and not is_installed(command[-1].group() + "/"):
            return True
    return False


def _toolkit_files_shown(evidence: Evidence) -> list[tflog.LibraryFileShown]:
    """The CUDA toolkit's library files the log shows on the disk by their path, outside an
    interpreter's site-packages: a Python package's own copies there (the nvidia-*-cu11/cu12
    wheels that PyTorch's Linux wheels on PyPI require, whether the machine has a GPU or not)
    show no toolkit set up for a GPU."""
    return [
        shown
        for _, shown in evidence.logged(tflog.LibraryFileShown)
        if tflog.is_toolkit_library(shown.name) and not is_installed(shown.path)
    ]


def _runtimes_shown(evidence: Evidence) -> list[tuple[str, str]]:
    """The CUDA release of each CUDA runtime file the log shows on the disk by its path, with
    the line that shows it (``/usr/local/cuda/lib64/libcudart.so.10.2``: 10.2;
    ``...\\bin\\cudart64_110.dll``: 11): the runtime's file name is the toolkit's release
    (tflog.cuda_of_soname), where neither nvcc nor a directory named for it says."""
    out: list[tuple[str, str]] = []
    for shown in _toolkit_files_shown(evidence):
        release = tflog.cuda_of_soname(shown.name)
        if tflog.library_of(shown.name) == "cudart" and release is not None:
            out.append((release, shown.message))
    return out


def _other_toolkit(evidence: Evidence) -> Optional[tuple[str, str, str, str, bool]]:
    """A CUDA file of one major release that did not load, where the search path TensorFlow
    printed holds a toolkit of another (libcudart.so.11.0 asked, /usr/local/cuda-12.1 there),
    else where the log shows one toolkit release installed, of another major (nvcc's
    "release 12.1"; failing those, a runtime file on the disk, :func:`_runtimes_shown`): the
    toolkit the user has, which a TensorFlow of its own CUDA would use."""
    failed = [event for _, event in evidence.logged(tflog.LibraryNotLoaded)]
    for event in failed:
        found, asked = event.path_cuda, event.cuda
        if (
            found is not None
            and asked is not None
            and version_key(found[0])[:1] != version_key(asked)[:1]
        ):
            return found[0], found[1], event.soname, asked, True
    shown = [
        (groups["toolkit_cuda"], line)
        for sid in _TOOLKIT_SHOWN
        if sid in evidence.hits
        for groups, (_, line) in zip(evidence.hits[sid].groups, evidence.hits[sid].citations)
        if groups.get("toolkit_cuda")
    ] or _runtimes_shown(evidence)
    if len({release for release, _ in shown}) != 1:
        return None  # none shown, or several toolkits: which one serves is not known
    release, line = shown[0]
    for event in failed:
        if event.cuda is not None and not causes.gpu.toolkit_serves(release, event.cuda):
            return release, line.strip(), event.soname, event.cuda, False
    return None


def _stated(
    stated: dict[str, str], fact: str, found: Sequence[tuple[str, Optional[str]]]
) -> Optional[str]:
    """The first value in ``found`` (where, value), its place noted in ``stated``."""
    for where, value in found:
        if value:
            stated[fact] = where
            return value
    return None


def _driver_versions(evidence: Evidence) -> list[tuple[str, Optional[str]]]:
    """The kernel driver's version where TensorFlow's log lines state it (cuda_diagnostics.cc,
    cuda_dnn.cc); libcuda's own version is the library's, not the running driver's."""
    out: list[tuple[str, Optional[str]]] = []
    for where, event in evidence.events:
        if isinstance(event, tflog.DriverMismatch):
            out.append((where, event.kernel))
        elif isinstance(event, tflog.DriverVersion) and event.source != "libcuda":
            out.append((where, event.version))
    return out


def _soname_hints(evidence: Evidence, matrix: Optional[Matrix]) -> list[Inferred]:
    """The CUDA and cuDNN releases the library files that did not load imply, each with the
    line that names the file (``libcudart.so.11.0`` is asked for by a build for CUDA 11), and
    the TensorFlow lines built for all of them (from the matrix)."""
    hints: dict[tuple[str, str], Inferred] = {}
    for where, event in evidence.logged(tflog.LibraryNotLoaded):
        for fact, value in (("cuda", event.cuda), ("cudnn", event.cudnn)):
            if value is not None:
                hints.setdefault((fact, value), Inferred(fact, value, f"{where}: {event.soname}"))
    found = list(hints.values())
    lines = _lines_built_for(matrix, found)
    if lines:
        found.append(Inferred("tensorflow-lines", lines, ", ".join(h.because for h in found)))
    return found


def _lines_built_for(matrix: Optional[Matrix], hints: Sequence[Inferred]) -> Optional[str]:
    """The TensorFlow lines (``2.5 to 2.14``) whose builds use every CUDA and cuDNN release
    ``hints`` name, as the matrix records them; None without a matrix, a hint or a line."""
    if matrix is None or not hints:
        return None
    found = []
    for line in matrix.releases:
        built = {"cuda": line.cuda, "cudnn": line.cudnn}
        if all(_same_release(built[h.fact], h.value) for h in hints):
            found.append(line.line)
    if not found:
        return None
    ordered = sorted(found, key=version_key)
    return ordered[0] if len(ordered) == 1 else f"{ordered[0]} to {ordered[-1]}"


def _same_release(built: Optional[str], implied: str) -> bool:
    """A build's ``11.8`` is the ``11`` (or a ``10.0`` is the ``10.0``) a file name implies."""
    want = version_key(implied)
    return built is not None and version_key(built)[: len(want)] == want


def _settle_echoed_keras(evidence: Evidence, matrix: Optional[Matrix]) -> Evidence:
    """``evidence``, where an echoed keras.__version__ (read as the keras package installed)
    is a release only tf-keras has, with it as tf-keras's: tf_keras imported as keras (tf.keras
    under TF_USE_LEGACY_KERAS=1) echoes its own release."""
    echoed = evidence.echoed.get("keras")
    if matrix is None or echoed is None or evidence.listed.get("keras") != echoed:
        return evidence
    if of_tf_keras_only(matrix, echoed):
        del evidence.listed["keras"]
        evidence.listed.setdefault("tf-keras", echoed)
    return evidence


def log_facts(revealed: Revealed, evidence: Evidence, base: Optional[Facts], version: str) -> Facts:
    """Facts holding only what the log shows, over ``base`` (a machine's facts) when given.

    What the log does not show stays unknown: no interpreter, word size, architecture or
    operating system is made up for it (what the log implies of the Python and the operating
    system reaches the fixes through :func:`log_hints`, marked inferred in the report)."""
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    facts = base or Facts(tfdoctor_version=version, collected_at=now)
    cited = tuple(evidence.cited_lines()[:MAX_LOG_ERRORS])
    tf = facts.tensorflow or TensorFlowFacts(status=TFStatus.SKIPPED, interpreter="")
    tf = dataclasses.replace(
        tf,
        version=tf.version or revealed.tf_version,
        cudnn_version=tf.cudnn_version or revealed.cudnn_compiled,
        log_errors=tuple(dict.fromkeys((*tf.log_errors, *cited))),
        stderr_tail=tf.stderr_tail or "\n".join(cited),
    )
    packages = list(facts.packages or ())
    names = {p.name for p in packages}
    listed_dist = _listed_distribution(evidence.listed, revealed.tf_version)
    # The listing's own name where its version is the one read (tf-nightly, tensorflow-gpu),
    # else the one a version read alone (an echoed __version__, the issue form's) is published
    # as: a reinstall of "tensorflow" at a nightly's version names no release, and removing
    # "tensorflow" leaves tf-nightly in place.
    shown_dist = (
        revealed.tf_dist
        or listed_dist
        or causes.runtime.published_distribution(revealed.tf_version or "")
    )
    if revealed.tf_version and not (names & {"tensorflow", shown_dist}):
        dist = shown_dist
        location = revealed.site_packages or ""
        packages.append(
            PackageFacts(dist, revealed.tf_version, location, top_level=("tensorflow",))
        )
    if revealed.numpy_version and "numpy" not in names:
        packages.append(PackageFacts("numpy", revealed.numpy_version, ""))
    # What pip or a companion said is installed (observed), where nothing else says; then what
    # a pasted listing shows (TensorFlow's own only where nothing else named it).
    tf_names = set(TF_DISTRIBUTIONS)
    names = {p.name for p in packages}
    packages.extend(
        p for p in log_packages(evidence.conflicts, evidence.import_checks) if p.name not in names
    )
    names = {p.name for p in packages}
    packages.extend(
        PackageFacts(
            name, version, "", top_level=("tensorflow",) if name in TF_DISTRIBUTIONS else ()
        )
        for name, version in evidence.listed.items()
        if name not in names and not (name in tf_names and names & tf_names)
    )
    driver = facts.driver
    if driver is None and (revealed.compute_capability or revealed.driver_version):
        gpus: tuple[GpuFacts, ...] = ()
        if revealed.compute_capability:
            name = revealed.gpu_name or "GPU"
            gpus = (GpuFacts(0, name, compute_capability=revealed.compute_capability),)
        driver = DriverFacts(
            source="none",
            driver_version=revealed.driver_version,
            cuda_version=revealed.cuda_version,
            gpus=gpus,
        )
    return dataclasses.replace(
        facts,
        tensorflow=tf,
        packages=tuple(packages) if packages else facts.packages,
        driver=driver,
    )


#: LD_LIBRARY_PATH as the dynamic loader's messages print it, holding the directory NVIDIA's
#: CUDA images name for the driver libraries the runtime mounts (their Dockerfiles: ENV
#: LD_LIBRARY_PATH /usr/local/nvidia/lib:/usr/local/nvidia/lib64).
# The path is one word after the colon: searching only that word keeps a line that repeats
# "LD_LIBRARY_PATH:" linear.
_CUDA_IMAGE_PATH = re.compile(r"LD_LIBRARY_PATH:[ \t]*[^\s]*?/usr/local/nvidia/lib")


def log_hints(revealed: Revealed) -> LogHints:
    """What the log says or implies of the operating system, Python and container, for
    fitting fixes."""
    return LogHints(
        os=revealed.os,
        python=revealed.python,
        conda=revealed.conda,
        wsl=revealed.wsl,
        container=(
            revealed.docker_run_without_gpu[0]
            if revealed.docker_run_without_gpu
            else "container"
            if revealed.cuda_image
            else revealed.container_tool
        ),
        notebook=revealed.notebook,
        instance_type=revealed.instance_type,
        container_host=revealed.container_host,
        pip=revealed.pip_version,
        tf_installer=revealed.tf_installer,
        installer=revealed.installer,
        conda_installed=revealed.conda_installed,
        conda_channels=revealed.conda_channels,
        packager=revealed.packager,
        os_ids=revealed.distro.ids if revealed.distro is not None else (),
        os_name=revealed.distro.name if revealed.distro is not None else None,
        rocm=revealed.rocm_shown,
        mac_python_machine=revealed.mac_python_machine,
        macos_release=revealed.macos_release,
    )


#: Where Nix keeps its packages; a program run from them finds libraries through the run paths
#: written into each (nixpkgs' stdenv), not /usr/lib or the loader's cache.
_NIX_STORE = "/nix/store/"


def _gpu_memory_reading(text: str, request: Optional[int]) -> Optional[tuple[str, str]]:
    """What the log shows filled the GPU (:attr:`Revealed.memory_reading`)."""
    shown = read_gpu_memory(text)
    if shown.frameworks and shown.device_bytes and not shown.capped:
        # TensorFlow started on the GPU and another framework worked in the same log: each
        # maps memory of its own at start, whichever of them then ran out.
        return "shared", ", ".join(shown.frameworks)
    if shown.frameworks and shown.device_bytes is None and not shown.capped:
        # Another framework's GPU work, and no device of TensorFlow's: whichever of them ran
        # out, the log does not show TensorFlow holding the GPU.
        return "beside", ", ".join(shown.frameworks)
    if shown.taken_before and shown.device_bytes and shown.total_bytes:
        return "taken", (
            f"TensorFlow found {size_text(shown.device_bytes)} free of the GPU's "
            f"{size_text(shown.total_bytes)} when it created its device"
        )
    if shown.taken_before and shown.device_bytes:
        return "taken", (
            f"TensorFlow found only {size_text(shown.device_bytes)} free on the GPU when it "
            "created its device, less than any GPU it runs on carries, unless this one is "
            "that small"
        )
    room = shown.limit_bytes or shown.device_bytes
    if request is not None and room is not None and shown.never_fits(request):
        return "never-fits", (
            f"one allocation asked for {size_text(request)}, at least all the "
            f"{size_text(room)} TensorFlow has on the GPU"
        )
    return None


def _gpu_memory(evidence: Evidence) -> Optional[tuple[str, str]]:
    """The first GPU's total and free memory, as TensorFlow 1.x printed them at start (its
    tf1-gpu-memory line), where the log shows both."""
    for hit in sorted(evidence.hits.values(), key=lambda h: h.first):
        for groups in hit.groups:
            total, free = groups.get("gpu_total_memory"), groups.get("gpu_free_memory")
            if total and free:
                return total, free
    return None


#: Python's words as Windows refuses an extension module (Python 3.8 on name it:
#: ``DLL load failed while importing MPI``; Python/dynload_win.c), with the status code where
#: Windows has no message for it (``DLL load failed with error code 3221225781 while
#: importing cygrpc``).
_DLL_REFUSED = re.compile(
    r"DLL load failed(?: with error code -?\d+)?(?: while importing (?P<module>\w+))?"
    r"|Module use of python\d+(?:_d)?\.dll conflicts"
    # ERROR_MOD_NOT_FOUND as ctypes (and Python 3.8+'s os.add_dll_directory loads) raise it
    # for a DLL a package opens itself (LightGBM's lib_lightgbm.dll through ctypes.CDLL):
    # https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-
    r"|\[WinError 126\]"
)
#: A package's own raise of an ImportError whose words follow on lines of their own.
_RERAISED = re.compile(r"^\s*raise ImportError\(\w+\)\s*$")
#: An absolute import statement: its top-level package.
_IMPORTS = re.compile(r"^\s*(?:from|import)\s+(?P<top>[A-Za-z_]\w*)")


#: Cython's name for a compiled module's frame as it is imported (``File "h5py\\h5.pyx",
#: line 1, in init h5py.h5``): the module's dotted name.
_CYTHON_INIT = re.compile(r"^init (?P<top>[A-Za-z_]\w*)\.")


def _frame_package(frame: Frame) -> Optional[str]:
    """The import package a traceback's frame shows at work: the one its import statement
    names, else the installed package its file is in, else the compiled module Cython names
    as it initialises one (a frame of a ``.pyx`` file, outside site-packages)."""
    stated = _IMPORTS.match(frame.code)
    if stated is not None:
        return stated.group("top")
    cython = _CYTHON_INIT.match(frame.function)
    return installed_package(frame.path) or (cython.group("top") if cython else None)


def _dll_extension(tracebacks: Sequence[Traceback]) -> Optional[str]:
    """The import package whose compiled extension Windows refused, where a traceback shows
    it and it is not TensorFlow's own: the package the innermost frame's import statement
    names (``from mpi4py import MPI``, ``from tensorflow_text.core.pybinds import
    tflite_registrar``), else the installed package that frame is in (cv2's ``from .cv2
    import *``), else the module Python names (``while importing cv2``) where the module
    table knows its distribution. None for TensorFlow's own (``_pywrap_tensorflow_internal``
    under ``from tensorflow.python...``) or where nothing says whose. A companion's
    extensions are named ``_pywrap_*`` too (tensorflow-text's), so the frame decides."""
    for tb in tracebacks:
        refused = _DLL_REFUSED.search(tb.message)
        if refused is None or tb.ignored:
            continue
        module = refused.group("module") or ""
        if tb.frames:
            package = next(filter(None, map(_frame_package, reversed(tb.frames))), None)
        else:
            stated = _IMPORTS.match(tb.statement or tb.code)
            package = stated.group("top") if stated is not None else None
        package = package or (module if module and distribution_of(module) else None)
        if package is None or distribution_of(package) in TF_DISTRIBUTIONS:
            return None
        if module.startswith("_pywrap") and package not in modules().family:
            # TensorFlow's own module under a package that imports TensorFlow (a traceback
            # cut above TensorFlow's frames): only a companion names its modules so too.
            return None
        return package
    # A package that re-raises its extension's refusal in words of its own, the loader's
    # below them (NumPy's "Importing the numpy C-extensions failed ... Original error was:
    # DLL load failed ...", numpy/core/__init__.py): its own raise is the innermost frame.
    for tb in tracebacks:
        last = tb.frames[-1] if tb.frames else None
        if last is None or tb.ignored or not _RERAISED.match(last.code):
            continue
        package = installed_package(last.path)
        if package is not None and distribution_of(package) not in TF_DISTRIBUTIONS:
            return package
    return None


#: The dynamic loader's words for a library it could not open or link for an extension being
#: imported (glibc's dlerror: "cannot open shared object file", "undefined symbol"; dyld's
#: "Library not loaded").
_LOADER_REFUSED = re.compile(r"cannot open shared object file|undefined symbol|Library not loaded")


def _native_importer(tracebacks: Sequence[Traceback]) -> Optional[PackageCode]:
    """The installed package whose import the loader refused, where the last traceback with
    the loader's words shows it in its frames and it is not TensorFlow's family (whose own
    readings name TensorFlow and its companions)."""
    for tb in reversed(tracebacks):
        if not _LOADER_REFUSED.search(tb.message):
            continue
        found = failing_package(tb)
        if found is None or found.module in modules().family or found.dist in TF_DISTRIBUTIONS:
            return None
        return found
    return None


#: TensorFlow Serving's own words and paths (its loader's "Loading servable", the
#: tensorflow_serving/ sources it logs from).
_SERVING_WORDS = re.compile(r"tensorflow_serving/|Loading servable|servable version \{")
#: TensorFlow's own source files as a program that builds it as a Bazel dependency logs them
#: (TensorFlow Serving's model server: ``external/org_tensorflow/tensorflow/core/...``): no
#: Python process, whose TensorFlow logs ``tensorflow/core/...``.
_BAZEL_TF = "external/org_tensorflow/tensorflow/core/"


#: pip's last line after an install it completed (``installed_packages_summary``).
_INSTALLED = pip_words(PipKind.INSTALLED)


#: OpenVINO's Model Optimizer's requirements check (signatures.yaml).
_MO_CHECK = "openvino-mo-dependency-unsatisfied"
