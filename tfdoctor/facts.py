"""Typed facts about the examined machine: frozen dataclasses with a versioned JSON form.

Facts are what the probes observed, never a judgement. A probe that could not observe
something records a :class:`ProbeError` instead of a guess, so the checks can say
"could not determine" rather than pass silently.

This module imports nothing from the package. Annotations use ``typing.Optional`` and
friends because :func:`from_json` resolves them at run time on Python 3.9.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import typing
from typing import Any, Final, Optional, TypeVar

from tfdoctor.records import Record, record

#: Version of the facts document. Bump on any change to the dataclasses below.
SCHEMA_VERSION = 7
#: Older versions this tfdoctor still reads: every field added since has a default.
READABLE_SCHEMA_VERSIONS = (1, 2, 3, 4, 5, 6, 7)


class FactsError(ValueError):
    """A facts document that cannot be read: wrong version, wrong shape or wrong types."""


@record
class ProbeError(Record):
    """Why a probe could not observe something.

    ``reason`` is a short stable code (``library-not-found``, ``timeout`` ...) the checks
    branch on; ``message`` is one human line; ``detail`` holds the stderr tail or traceback.
    """

    probe: str
    reason: str
    message: str
    detail: str = ""


@record
class PythonFacts(Record):
    """The examined Python interpreter."""

    version: str
    implementation: str
    executable: str
    bits: int
    #: ``venv``, ``virtualenv``, ``conda``, ``user`` (pyenv and similar) or ``system``.
    env_kind: str
    prefix: str
    base_prefix: str
    pip_version: Optional[str]
    site_packages: tuple[str, ...] = ()
    #: PEP 668: the interpreter's stdlib directory holds ``EXTERNALLY-MANAGED`` and this is
    #: not a virtual environment, so ``pip install`` refuses (Debian's and Ubuntu's Python).
    externally_managed: bool = False
    #: Where ``import tensorflow`` resolves in this interpreter, its own ``sys.path``,
    #: ``PYTHONPATH`` and working directory applied (``importlib.util.find_spec``), without
    #: importing it: the package directory or module file; None when nothing resolves or unknown.
    tensorflow_origin: Optional[str] = None
    #: The ``sys.path`` entry ``tensorflow_origin`` was found under, and why it is on the path:
    #: ``site-packages``, ``user-site``, ``PYTHONPATH``, ``working-directory``, ``pth`` or
    #: ``other``.
    tensorflow_path_entry: Optional[str] = None
    tensorflow_path_kind: Optional[str] = None
    #: The uv project this environment is the environment of: the directory beside it that
    #: holds ``uv.lock``, where the environment's ``pyvenv.cfg`` says uv made it (``uv =
    #: X.Y.Z``). uv keeps a project's environment in ``.venv`` next to its pyproject.toml and
    #: restores it from the lock on ``uv sync`` and ``uv run``; None otherwise (schema 6).
    uv_project: Optional[str] = None
    #: Whether pip's package can be imported here, so that ``python -m pip`` runs; None
    #: where not recorded (facts of schema 6 and older): a None ``pip_version`` alone does
    #: not say pip is absent (schema 7).
    pip_installed: Optional[bool] = None
    #: The uv release that made this virtual environment (its pyvenv.cfg's ``uv = X.Y.Z``),
    #: project or not: uv makes environments without pip; None otherwise (schema 7).
    uv_venv: Optional[str] = None
    #: Whether the standard library's ensurepip can be imported here (Debian's and Ubuntu's
    #: system Python leave it to python3-venv); None where not recorded (schema 7).
    ensurepip: Optional[bool] = None


@record
class PlatformFacts(Record):
    """Operating system, architecture and the runtime surroundings."""

    system: str
    release: str
    os_name: str
    machine: str
    libc: str
    libc_version: Optional[str]
    #: ``WSL1`` or ``WSL2`` when running under the Windows Subsystem for Linux.
    wsl: Optional[str]
    #: ``docker``, ``podman``, ``kubernetes``, ``containerd``, ``lxc`` ... or None.
    container: Optional[str]
    #: An x86-64 process translated by Rosetta 2 on Apple silicon.
    rosetta: bool
    #: ``/dev/nvidia*`` device nodes present (containers started without GPU access lack them).
    nvidia_device_nodes: tuple[str, ...] = ()
    #: CPU emulation of the interpreter: ``qemu`` (user-mode, e.g. an amd64 image on an arm64
    #: host) or ``rosetta``; None when native or unknown.
    emulation: Optional[str] = None
    #: The host's architecture where the emulation reveals it (``aarch64``, ``arm64``).
    host_machine: Optional[str] = None
    #: os-release's ``ID`` then its ``ID_LIKE`` words, lower case (``("linuxmint", "ubuntu",
    #: "debian")``): the distribution and those it derives from (os-release(5)); empty where
    #: no os-release was read (another OS, or facts of schema 5 and older).
    os_ids: tuple[str, ...] = ()


@record
class PciDevice(Record):
    """An NVIDIA device on the PCI bus (``/sys/bus/pci/devices``, or ``lspci``)."""

    slot: str
    #: PCI device id, ``0x2330``.
    device_id: str
    #: PCI class, ``0x030200`` (3D controller) or ``0x030000`` (VGA).
    class_code: str
    #: The kernel driver bound to it (``nvidia``, ``nouveau``, ``vfio-pci``), None when unbound.
    driver: Optional[str] = None


@record
class DeviceNode(Record):
    """A ``/dev/nvidia*`` node and whether this user can open it for reading and writing."""

    path: str
    accessible: bool


@record
class NvidiaKernelFacts(Record):
    """The NVIDIA hardware and kernel side, read without the driver's libraries."""

    #: NVIDIA display/3D controllers on the PCI bus; ``pci_source`` says how they were read.
    pci_devices: tuple[PciDevice, ...] = ()
    #: ``sysfs``, ``lspci`` or None (the bus could not be read: another OS, a sandbox).
    pci_source: Optional[str] = None
    #: The kernel module's version line (``/proc/driver/nvidia/version``), when loaded.
    kernel_module_version: Optional[str] = None
    #: Loaded modules among ``nvidia``, ``nvidia_uvm``, ``nvidia_drm``, ``nvidia_modeset``,
    #: ``nouveau`` (``/proc/modules``); None when unreadable.
    modules: Optional[tuple[str, ...]] = None
    device_nodes: tuple[DeviceNode, ...] = ()
    #: UEFI Secure Boot enabled (an unsigned DKMS module then does not load); None unknown.
    secure_boot: Optional[bool] = None
    #: ``nvidia`` modules built by DKMS for kernels (``dkms status`` lines); empty when unknown.
    dkms: tuple[str, ...] = ()
    error: Optional[ProbeError] = None


@record
class CuInitFacts(Record):
    """``cuInit(0)`` called through ``libcuda`` in a child process (no TensorFlow)."""

    #: ``ok``, ``error`` (cuInit returned a code), ``no-library`` (libcuda not found),
    #: ``crashed``, ``timeout``, ``skipped``, ``child-error`` (no usable report).
    status: str
    #: CUresult: 0 success, 100 no device, 35 driver too old, 999 unknown (often after
    #: suspend/resume), 304 OS call failed, 303 shared object init failed.
    code: Optional[int] = None
    #: ``CUDA_ERROR_NO_DEVICE`` as ``cuGetErrorName`` gives it.
    name: Optional[str] = None
    library: Optional[str] = None
    #: ``cuDriverGetVersion``: the CUDA version the driver supports (``12.4``).
    driver_cuda: Optional[str] = None
    #: ``cuDeviceGetCount`` after a successful cuInit.
    device_count: Optional[int] = None
    message: Optional[str] = None


@record
class FoundLibrary(Record):
    """A CUDA, cuDNN or NCCL library found off the loader's search path."""

    #: Library name as in :class:`LibraryFacts` (``cudart``, ``cudnn`` ...).
    name: str
    path: str
    version: Optional[str] = None
    #: Where: ``cuda-home`` ($CUDA_HOME/$CUDA_PATH), ``usr-local-cuda``, ``opt``,
    #: ``conda-env`` (another environment), ``conda-pkgs``, ``module`` ($MODULEPATH tree),
    #: ``site-packages`` (another environment's ``nvidia/*/lib``).
    place: str = "other"
    #: For ``module``: the module that adds this directory (``cuda/11.8``).
    module: Optional[str] = None


@record
class CondaPackage(Record):
    """One package in a conda environment's ``conda-meta``."""

    name: str
    version: str
    build: str = ""
    #: ``conda-forge``, ``nvidia``, ``pkgs/main``, ``pypi`` (installed by pip, seen by conda).
    channel: str = ""


@record
class CondaFacts(Record):
    """The conda environment the interpreter lives in."""

    prefix: str
    packages: tuple[CondaPackage, ...] = ()
    error: Optional[ProbeError] = None

    def package(self, name: str) -> Optional[CondaPackage]:
        """The conda package called ``name``, if installed."""
        for pkg in self.packages:
            if pkg.name == name:
                return pkg
        return None


@record
class CpuFacts(Record):
    """CPU model, cores, vector features and memory."""

    model: str
    physical_cores: Optional[int]
    logical_cores: Optional[int]
    #: Vector features TensorFlow wheels care about, lower-case as Linux names them
    #: (``avx``, ``avx2``, ``fma``, ``avx512f`` ...). Empty when unknown; see ``flags_known``.
    flags: tuple[str, ...]
    flags_known: bool
    memory_total: Optional[int]
    memory_available: Optional[int]
    swap_total: Optional[int]


@record
class PackageFacts(Record):
    """One installed distribution, read from its metadata."""

    name: str
    version: str
    location: str
    requires: tuple[str, ...] = ()
    #: True for ``pip install -e`` (a ``direct_url.json`` with ``editable: true``).
    editable: bool = False
    #: Top-level import packages the distribution's RECORD writes (``tensorflow``).
    top_level: tuple[str, ...] = ()
    #: The ``Tag`` lines of its ``WHEEL`` file (``cp311-cp311-manylinux_2_27_x86_64``): the
    #: Pythons and platforms the installed wheel was built for; empty when it was not installed
    #: from a wheel (schema 3).
    wheel_tags: tuple[str, ...] = ()
    #: Its requirements without an environment marker whose distribution is not installed on
    #: the interpreter's path, as declared (``protobuf``); read for TensorFlow's distributions
    #: only, empty elsewhere (schema 3).
    requires_missing: tuple[str, ...] = ()


#: Distributions (PEP 503 names) that install the ``tensorflow`` import package, the one
#: ``import tensorflow`` loads; the wrappers tensorflow-intel/-macos/-cpu-aws are recognised
#: through their metadata too.
TF_DISTRIBUTIONS = (
    "tensorflow",
    "tensorflow-cpu",
    "tensorflow-gpu",
    "tf-nightly",
    "tf-nightly-cpu",
    "tf-nightly-gpu",
    # TensorFlow 2.0's preview nightlies (2019), published under names of their own.
    "tf-nightly-2-0-preview",
    "tf-nightly-gpu-2-0-preview",
    "tensorflow-intel",
    "tensorflow-macos",
    "tensorflow-cpu-aws",
    "tensorflow-aarch64",
    "intel-tensorflow",
    "tensorflow-rocm",
    "tensorflow-tpu",
)


#: Every distribution that installs the ``tensorboard`` package: the current name, the
#: nightly, and the name TensorFlow 1.3-1.5 required (tensorflow-tensorboard).
TENSORBOARD_DISTRIBUTIONS = ("tensorboard", "tb-nightly", "tensorflow-tensorboard")


#: Environment variables that mark a hosted notebook VM, and its name: the probe records them,
#: the machine view reads them. Colab sets COLAB_RELEASE_TAG / COLAB_GPU, Kaggle
#: KAGGLE_KERNEL_RUN_TYPE, SageMaker SAGEMAKER_INTERNAL_IMAGE_URI, Paperspace
#: PAPERSPACE_NOTEBOOK_REPO_ID.
NOTEBOOK_ENV_MARKERS = (
    ("COLAB_RELEASE_TAG", "colab"),
    ("COLAB_GPU", "colab"),
    ("KAGGLE_KERNEL_RUN_TYPE", "kaggle"),
    ("SAGEMAKER_INTERNAL_IMAGE_URI", "sagemaker"),
    ("PAPERSPACE_NOTEBOOK_REPO_ID", "paperspace"),
)


@record
class GpuFacts(Record):
    """One GPU as the driver reports it."""

    index: int
    name: str
    uuid: Optional[str] = None
    pci_bus_id: Optional[str] = None
    compute_capability: Optional[str] = None
    memory_total: Optional[int] = None
    memory_used: Optional[int] = None
    mig_mode: Optional[bool] = None
    ecc_corrected: Optional[int] = None
    ecc_uncorrected: Optional[int] = None


@record
class DriverFacts(Record):
    """The NVIDIA driver and its GPUs."""

    #: ``nvml``, ``nvidia-smi`` or ``none`` (neither worked; see ``error``).
    source: str
    driver_version: Optional[str] = None
    #: Highest CUDA version the driver supports, ``"12.4"``.
    cuda_version: Optional[str] = None
    nvml_version: Optional[str] = None
    gpus: tuple[GpuFacts, ...] = ()
    #: Why NVML failed, when it did (even if nvidia-smi then worked).
    nvml_error: Optional[ProbeError] = None
    #: Why nothing worked: ``library-not-found``, ``driver-not-loaded``, ``no-permission``,
    #: ``version-mismatch``, ``no-gpu``, ``unknown``.
    error: Optional[ProbeError] = None


@record
class LibraryCandidate(Record):
    """A file that could satisfy a library request, in the loader's search order."""

    path: str
    #: Where it was found: ``LD_LIBRARY_PATH``, ``pip``, ``ldconfig``, ``system``, ``PATH`` ...
    origin: str
    version: Optional[str] = None
    #: ``call`` (the library's own version function), ``filename`` or ``none``.
    version_source: str = "none"
    loadable: Optional[bool] = None
    load_error: Optional[str] = None


@record
class LibraryFacts(Record):
    """Every candidate for one library, and the one the loader would pick."""

    name: str
    sonames: tuple[str, ...]
    candidates: tuple[LibraryCandidate, ...] = ()
    #: Index into ``candidates`` of the one that wins, or None when none would load.
    selected: Optional[int] = None


@record
class GpuCodeFacts(Record):
    """The GPU code TensorFlow's shared objects carry, read from their ``.nv_fatbin`` sections."""

    #: Machine code (SASS) architectures, ``sm_60`` ..., oldest first.
    sass: tuple[str, ...] = ()
    #: PTX architectures, ``compute_90`` ..., oldest first.
    ptx: tuple[str, ...] = ()
    #: The files read that carry GPU code.
    objects: tuple[str, ...] = ()
    #: Why a file could not be read (the architectures then come from the others, if any).
    error: Optional[ProbeError] = None


@record
class CudaLibsFacts(Record):
    """The CUDA libraries TensorFlow would load, and XLA's compiler pieces."""

    #: The CUDA and cuDNN major versions searched for (from the TF build, else the newest).
    cuda_major: Optional[int]
    cudnn_major: Optional[int]
    libraries: tuple[LibraryFacts, ...] = ()
    ptxas: Optional[str] = None
    ptxas_version: Optional[str] = None
    libdevice: Optional[str] = None
    error: Optional[ProbeError] = None
    #: Copies the loader would not find (bounded search of the usual places).
    elsewhere: tuple[FoundLibrary, ...] = ()
    #: RUNPATH (or RPATH) of TensorFlow's framework library, ``$ORIGIN`` expanded;
    #: ``runpath_object`` names the file read. Empty when not read.
    runpath: tuple[str, ...] = ()
    runpath_object: Optional[str] = None
    #: The libraries (names as in ``libraries``) TensorFlow's own shared objects name, read
    #: from their read-only data: what the build can load. None: not read (schema 4).
    named_libraries: Optional[tuple[str, ...]] = None
    #: The GPU code TensorFlow's shared objects carry; None: not read (schema 4).
    gpu_code: Optional[GpuCodeFacts] = None


@record
class DeviceFacts(Record):
    """A device TensorFlow lists."""

    name: str
    device_type: str
    details: dict[str, str] = dataclasses.field(default_factory=dict)


class TFStatus:
    """The values of :attr:`TensorFlowFacts.status`: how the child's ``import tensorflow`` went."""

    OK: Final = "ok"
    NOT_INSTALLED: Final = "not-installed"
    IMPORT_ERROR: Final = "import-error"
    #: The child died of a signal (a crash in native code).
    SIGNAL: Final = "signal"
    TIMEOUT: Final = "timeout"
    #: The child could not start or printed no result.
    CHILD_ERROR: Final = "child-error"
    #: Not run: ``--static``.
    SKIPPED: Final = "skipped"


@record
class TensorFlowFacts(Record):
    """TensorFlow as a child interpreter saw it."""

    #: ``ok``, ``not-installed``, ``import-error``, ``signal``, ``timeout``, ``child-error``
    #: or ``skipped`` (``--static``).
    status: str
    interpreter: str
    version: Optional[str] = None
    git_version: Optional[str] = None
    #: ``tf.sysconfig.get_build_info()``, or the wheel's ``build_info.py`` read as a file.
    build_info: dict[str, str] = dataclasses.field(default_factory=dict)
    build_info_source: Optional[str] = None
    is_cuda_build: Optional[bool] = None
    is_rocm_build: Optional[bool] = None
    cuda_version: Optional[str] = None
    cudnn_version: Optional[str] = None
    compute_capabilities: tuple[str, ...] = ()
    devices: tuple[DeviceFacts, ...] = ()
    #: Library-loading and GPU-related error lines TensorFlow logged.
    log_errors: tuple[str, ...] = ()
    error_type: Optional[str] = None
    error_message: Optional[str] = None
    #: ``SIGILL``, ``SIGSEGV`` ... when a signal killed the child.
    signal: Optional[str] = None
    returncode: Optional[int] = None
    seconds: Optional[float] = None
    timeout: Optional[float] = None
    stderr_tail: str = ""


@record
class SmokeResult(Record):
    """One kernel run on one device: where it ran, whether it was right, how fast."""

    #: ``first-op``, ``matmul``, ``conv2d-forward``, ``conv2d-backward``, ``xla-dense``,
    #: ``train-step``, ``mixed-precision-step``.
    kernel: str
    #: ``float32``, ``float16``, ``bfloat16``; ``eager``/``graph`` for ``train-step``;
    #: ``float32``/``mixed_float16`` for ``mixed-precision-step``.
    dtype: str
    #: The device asked for (``/device:GPU:0``).
    device: str
    #: The device the output tensor lives on: where the op ran (None when it did not run).
    placed_on: Optional[str] = None
    #: The result matched the float64 NumPy reference within ``tolerance``.
    ok: Optional[bool] = None
    max_abs_error: Optional[float] = None
    tolerance: Optional[float] = None
    #: Seconds per call (per step for the training steps; the first call for ``first-op``).
    seconds: Optional[float] = None
    #: Floating-point operations per call, and per second.
    flops: Optional[float] = None
    throughput: Optional[float] = None
    #: The device's peak FLOP/s for this precision (see ``SmokeDevice.peak_source``).
    peak: Optional[float] = None
    fraction_of_peak: Optional[float] = None
    #: ``ok`` (ran), ``error`` (raised; see ``error``), ``timeout`` or ``crashed`` (the child
    #: was killed or died in this kernel), ``interrupted`` (Ctrl-C came during it),
    #: ``not-run`` (an earlier kernel ended the child).
    status: str = "ok"
    error: Optional[str] = None
    #: Problem size, and remarks such as TF32 or XLA compile time.
    size: str = ""
    note: str = ""


@record
class CpuPeakFacts(Record):
    """How a CPU's float32 peak was found: derived for its microarchitecture, and measured."""

    #: The microarchitecture the CPU matched in tfdoctor's table (``AMD Zen 4``); None: not in
    #: the table, and the FLOP per cycle come from the instruction-set flags alone.
    microarchitecture: Optional[str] = None
    #: float32 FLOP per cycle per core (an FMA counts two), the vector units behind it, and
    #: the documents it comes from (the table row's sources).
    flops_per_cycle: Optional[int] = None
    vector_units: str = ""
    sources: tuple[str, ...] = ()
    #: Why the FLOP per cycle are only a lower bound (hybrid cores, SKUs the name does not tell
    #: apart, flags alone); empty when the figure is exact.
    lower_bound: str = ""
    #: Cores counted: physical cores this process may use, capped at the cgroup CPU quota.
    cores: Optional[float] = None
    #: The clock the derivation uses (Hz) and where it came from: ``measured`` (a dependent-add
    #: chain on every usable CPU at once), ``cpufreq`` (cpuinfo_max_freq), ``model-name`` (the
    #: base clock an Intel model name carries) or ``cpuinfo`` (the MHz /proc/cpuinfo shows,
    #: often the base clock in a virtual machine).
    clock_hz: Optional[float] = None
    clock_source: Optional[str] = None
    #: The clock /proc/cpuinfo shows (Hz), for comparison with the one used.
    listed_clock_hz: Optional[float] = None
    #: cores x clock x FLOP per cycle (FLOP/s); None when one of them is unknown.
    derived_flops: Optional[float] = None
    #: What an FMA loop reached on every usable CPU at once (FLOP/s per CPU second: the cores'
    #: own speed), with which kernel (``fma512``, ``fma256``) and threads, and the FLOP/s the
    #: same run reached in wall time beside whatever else ran; None: not measured
    #: (``measure_error`` says why).
    measured_flops: Optional[float] = None
    measured_kernel: Optional[str] = None
    measured_threads: Optional[int] = None
    measured_wall_flops: Optional[float] = None
    measure_error: Optional[str] = None


@record
class SmokeDevice(Record):
    """One device the smoke test ran on, its peak, and what the memory cap achieved."""

    name: str
    device_type: str
    #: GPU model as TensorFlow names it, or the CPU model.
    model: Optional[str] = None
    compute_capability: Optional[str] = None
    #: TensorFlow runs float32 matmuls and convolutions as TF32 on this GPU.
    tf32: bool = False
    #: Peak FLOP/s per precision (``float32``, ``tf32``, ``float16``, ``bfloat16``).
    peaks: dict[str, float] = dataclasses.field(default_factory=dict)
    #: How the peaks were found: the data sheet (URL); for a CPU the measured FMA loop or cores
    #: x clock x FLOP/cycle for its microarchitecture, whichever is higher, naming the other;
    #: SMs x FP32 results per clock per SM x 2 x clock (GPU not in the table); else why none.
    peak_source: Optional[str] = None
    #: ``data-sheet`` (GPU table), ``derived`` (CPU; GPU: non-tensor float32 only),
    #: ``measured`` (CPU: the FMA loop beat the derived peak, which is then wrong), None.
    peak_basis: Optional[str] = None
    #: CPU only: the derivation and the measurement the CPU peak was chosen from.
    cpu_peak: Optional[CpuPeakFacts] = None
    #: GPU only, from the CUDA driver: multiprocessors, and the maximum SM clock (MHz).
    sm_count: Optional[int] = None
    max_clock_mhz: Optional[float] = None
    #: GPU only: the cap asked for (bytes), whether the allocator grows into it instead of
    #: reserving it, why the cap could not be set, and the peak TensorFlow allocated
    #: (``tf.config.experimental.get_memory_info(device)['peak']``).
    memory_limit: Optional[int] = None
    memory_growth: Optional[bool] = None
    memory_setup_error: Optional[str] = None
    memory_peak: Optional[int] = None
    #: CPU only: CPUs the child could run on (its affinity mask), the cgroup CPU quota in CPUs
    #: (None: no quota or unknown), and the CPUs other processes kept busy on average on those
    #: CPUs while the kernels ran (/proc/stat busy time less the child's own CPU time).
    cpu_affinity: Optional[int] = None
    cpu_quota: Optional[float] = None
    cpu_busy_others: Optional[float] = None
    results: tuple[SmokeResult, ...] = ()


@record
class HeldGpu(Record):
    """One GPU in the memory-held test: what a fresh TensorFlow process held after a small op."""

    #: The TensorFlow device (``/device:GPU:0``).
    device: str
    #: PCI bus id NVML reports for it (``00000000:07:00.0``), when it could be matched.
    pci_bus_id: Optional[str] = None
    #: The GPU's memory (bytes, NVML).
    memory_total: Optional[int] = None
    #: Bytes the process held on the GPU after the op, read through NVML.
    memory_held: Optional[int] = None
    #: ``process`` (NVML's per-process figure for the child's pid) or ``device-delta`` (the
    #: device's used memory after the op minus before the import: counts other processes' changes).
    memory_held_method: Optional[str] = None
    #: Bytes TensorFlow's allocator needed at most (``get_memory_info(device)['peak']``).
    memory_needed: Optional[int] = None
    #: Bytes free on the GPU before TensorFlow was imported (NVML total minus used): what
    #: TensorFlow's allocator maps without memory growth.
    memory_free_before: Optional[int] = None
    #: Why something was not measured.
    error: Optional[str] = None


@record
class HeldMemory(Record):
    """GPU memory a fresh process held after one small op, run with the user's environment."""

    #: ``ok``, ``no-gpu`` (TensorFlow sees none), ``import-error``, ``timeout``, ``signal``,
    #: ``child-error`` (no usable output).
    status: str
    #: The environment asks for memory growth: ``TF_FORCE_GPU_ALLOW_GROWTH=true`` or
    #: ``TF_GPU_ALLOCATOR=cuda_malloc_async``.
    growth_configured: Optional[bool] = None
    gpus: tuple[HeldGpu, ...] = ()
    #: NVML could not be read at all (the per-GPU figures are then unknown).
    nvml_error: Optional[str] = None
    error_message: Optional[str] = None
    seconds: Optional[float] = None
    stderr_tail: str = ""


@record
class SmokeFacts(Record):
    """What ``tfdoctor smoke`` measured, and how its child process ended."""

    #: ``ok``, ``timeout`` (a kernel or the import ran past its budget and was killed),
    #: ``signal`` (the child died), ``import-error``, ``child-error`` (no usable output),
    #: ``interrupted`` (Ctrl-C: what finished before it is kept, the rest unknown).
    status: str
    #: ``quick`` or ``full``.
    level: str
    interpreter: str
    tf_version: Optional[str] = None
    devices: tuple[SmokeDevice, ...] = ()
    #: Seconds for ``import tensorflow`` and for creating the devices (runtime start).
    import_seconds: Optional[float] = None
    runtime_seconds: Optional[float] = None
    #: The kernel and device running when the child was killed or died.
    failed_kernel: Optional[str] = None
    failed_device: Optional[str] = None
    signal: Optional[str] = None
    returncode: Optional[int] = None
    error_message: Optional[str] = None
    #: Seconds allowed per kernel, the whole run's seconds, the memory cap per GPU (bytes).
    kernel_timeout: Optional[float] = None
    seconds: Optional[float] = None
    max_memory: Optional[int] = None
    stderr_tail: str = ""
    #: GPUs only: memory a second, fresh process held with the user's environment unchanged.
    memory_held: Optional[HeldMemory] = None
    #: Device names asked for (``--device``; empty: every device), those that matched no
    #: device TensorFlow lists, and the devices it lists (``CPU:0``, ``GPU:0``).
    requested_devices: tuple[str, ...] = ()
    unmatched_devices: tuple[str, ...] = ()
    listed_devices: tuple[str, ...] = ()
    #: The child's process id (from its first event).
    pid: Optional[int] = None


@record
class NotebookFacts(Record):
    """The Jupyter kernel the doctor ran in, and the environment Jupyter was started from.

    A kernel inherits the environment of the Jupyter server that started it, not of the
    user's shell; the server was started from a terminal, so its environment (read from
    the process that started the kernel) stands for the terminal's.
    """

    #: The kernel's own interpreter: ``sys.executable``, ``sys.prefix`` and its site-packages.
    kernel_executable: str
    kernel_prefix: str
    kernel_site_packages: tuple[str, ...] = ()
    #: The kernel's name (its connection file's ``kernel_name``), the kernelspec's ``argv``
    #: and ``env``, and why the kernelspec could not be read.
    kernel_name: Optional[str] = None
    kernelspec_argv: tuple[str, ...] = ()
    kernelspec_env: dict[str, str] = dataclasses.field(default_factory=dict)
    kernelspec_error: Optional[str] = None
    #: The process that started the kernel (``JPY_PARENT_PID``, else the parent process):
    #: its pid and command line.
    server_pid: Optional[int] = None
    server_command: tuple[str, ...] = ()
    #: The compared variables (``VIRTUAL_ENV``, ``CONDA_PREFIX``, ``PATH``,
    #: ``LD_LIBRARY_PATH``, ``CUDA_VISIBLE_DEVICES``) in the kernel, and in the server's
    #: environment (None: it could not be read).
    kernel_environment: dict[str, str] = dataclasses.field(default_factory=dict)
    server_environment: Optional[dict[str, str]] = None
    #: The ``python`` first on the server's ``PATH``, and its ``sys.prefix`` and
    #: site-packages as it reported them when run; None when none was found or it failed.
    terminal_python: Optional[str] = None
    terminal_prefix: Optional[str] = None
    terminal_site_packages: tuple[str, ...] = ()
    #: Why the terminal's interpreter could not be asked.
    terminal_error: Optional[str] = None
    #: The TensorFlow this kernel had already imported (``tensorflow.__version__`` read from
    #: ``sys.modules``, never imported by the doctor); None when not imported.
    kernel_tensorflow: Optional[str] = None


@record
class HostedFacts(Record):
    """A hosted notebook image or a Cloud TPU VM, from the markers it leaves."""

    #: ``colab``, ``kaggle``, ``sagemaker``, ``vertex``, ``databricks``, ``paperspace``,
    #: ``tpu-vm``; None when no marker was found.
    name: Optional[str] = None
    #: The markers seen: ``env:COLAB_RELEASE_TAG``, ``path:/opt/ml/metadata``, ``dev:/dev/accel0``.
    markers: tuple[str, ...] = ()
    #: The image's own version where a marker carries it (``COLAB_RELEASE_TAG``,
    #: ``DATABRICKS_RUNTIME_VERSION``, the Deep Learning VM's ``images_version``).
    image_version: Optional[str] = None
    #: The TPU accelerator type (``v5litepod-8``, ``v6e-8``) where the VM names it
    #: (``TPU_ACCELERATOR_TYPE``), else the generation of the TPU chips on its PCI bus
    #: (``v5litepod``, ``v6e``); and the TPU device nodes.
    tpu_type: Optional[str] = None
    tpu_devices: tuple[str, ...] = ()

    def tpu_on_vm(self) -> bool:
        """The TPU is this machine's own: its TPU type named, its device nodes present, or a
        Cloud TPU VM. TensorFlow runs on it through libtpu, which the ``tensorflow-tpu`` wheel
        brings."""
        return bool(self.tpu_type or self.tpu_devices) or self.name == "tpu-vm"

    def on_tpu(self) -> bool:
        """The machine is a TPU runtime: a TPU of its own (:meth:`tpu_on_vm`), or Colab's TPU
        runtime of TPU nodes (``COLAB_TPU_ADDR``, the address of the TPU the notebook's VM
        connects to, tfdoctor/probes/hosted.py). A TPU node runs TensorFlow on its own host
        and the VM's client reaches it over gRPC with the ordinary ``tensorflow`` wheel
        (Cloud TPU's system architecture, "TPU Node architecture":
        https://cloud.google.com/tpu/docs/system-architecture-tpu-vm): no libtpu is loaded
        on the VM."""
        return self.tpu_on_vm() or "env:COLAB_TPU_ADDR" in self.markers


@record
class Facts(Record):
    """Everything probed on one machine, for one interpreter."""

    tfdoctor_version: str
    collected_at: str
    python: Optional[PythonFacts] = None
    platform: Optional[PlatformFacts] = None
    cpu: Optional[CpuFacts] = None
    packages: Optional[tuple[PackageFacts, ...]] = None
    #: ``packages`` lists every installed distribution, not only TensorFlow's family
    #: (``tfdoctor pin``, ``check --against``); what pins and drift compare need.
    packages_complete: bool = False
    driver: Optional[DriverFacts] = None
    cuda_libs: Optional[CudaLibsFacts] = None
    tensorflow: Optional[TensorFlowFacts] = None
    #: Relevant environment variables as found (redaction happens when rendering).
    environment: Optional[dict[str, str]] = None
    #: ``tfdoctor smoke`` / ``check --smoke``: kernels run on each device (None: not run).
    smoke: Optional[SmokeFacts] = None
    #: Probes that produced nothing, and why.
    errors: tuple[ProbeError, ...] = ()
    schema_version: int = SCHEMA_VERSION
    #: PCI bus, kernel module and device nodes (schema 2).
    nvidia_kernel: Optional[NvidiaKernelFacts] = None
    #: ``cuInit`` through libcuda, without TensorFlow (schema 2).
    cuinit: Optional[CuInitFacts] = None
    #: The conda environment, when the interpreter is in one (schema 2).
    conda: Optional[CondaFacts] = None
    #: The Jupyter kernel and the terminal it was started from, when the doctor ran inside a
    #: kernel (``tfdoctor.check()``, ``%tfdoctor``) (schema 5).
    notebook: Optional[NotebookFacts] = None
    #: The hosted notebook image or Cloud TPU VM this runs on (schema 5).
    hosted: Optional[HostedFacts] = None

    def package(self, name: str) -> Optional[PackageFacts]:
        """The installed distribution called ``name`` (normalised as in PEP 503), if any."""
        wanted = normalize_name(name)
        for pkg in self.packages or ():
            if normalize_name(pkg.name) == wanted:
                return pkg
        return None

    def error_for(self, probe: str) -> Optional[ProbeError]:
        """The error a probe recorded instead of its facts, if any."""
        for err in self.errors:
            if err.probe == probe:
                return err
        return None


def normalize_name(name: str) -> str:
    """A distribution name in PEP 503 normal form (``Tensorflow_CPU`` -> ``tensorflow-cpu``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str:
    """The distribution a requirement specifier names (``"numpy<2"`` -> ``numpy``)."""
    name = spec.strip()
    for i, char in enumerate(name):
        if not (char.isalnum() or char in "-_."):
            return name[:i]
    return name


# --- JSON ----------------------------------------------------------------------------------

T = TypeVar("T")


def to_json(obj: Any) -> Any:
    """A dataclass tree as plain JSON values (dicts, lists, str, int, float, bool, None)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_json(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in sorted(obj.items())}
    return obj


def facts_from_json(data: Any) -> Facts:
    """Facts from their JSON form; raises :class:`FactsError` naming the offending field."""
    if not isinstance(data, dict):
        raise FactsError("facts: expected a JSON object")
    version = data.get("schema_version")
    if version not in READABLE_SCHEMA_VERSIONS:
        readable = ", ".join(str(v) for v in READABLE_SCHEMA_VERSIONS)
        raise FactsError(
            f"facts: schema_version {version!r} is not supported (this tfdoctor reads {readable})"
        )
    # An older document lacks only fields that have defaults; it reads as the current one.
    return dataclasses.replace(from_json(Facts, data, "facts"), schema_version=SCHEMA_VERSION)


def from_json(cls: type[T], data: Any, where: str) -> T:
    """Build dataclass ``cls`` from JSON ``data``, strictly: unknown or missing keys fail."""
    if not isinstance(data, dict):
        raise FactsError(f"{where}: expected an object, got {type(data).__name__}")
    hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise FactsError(f"{where}: unknown field {unknown[0]!r}")
    kwargs: dict[str, Any] = {}
    for name, field in fields.items():
        if name not in data:
            no_default = (
                field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            )
            if no_default:
                raise FactsError(f"{where}: missing field {name!r}")
            continue
        kwargs[name] = _convert(hints[name], data[name], f"{where}.{name}")
    return cls(**kwargs)


def _convert(tp: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union:
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _convert(inner[0], value, where)
    if origin is tuple:
        if not isinstance(value, list):
            raise FactsError(f"{where}: expected a list, got {type(value).__name__}")
        return tuple(_convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise FactsError(f"{where}: expected an object, got {type(value).__name__}")
        return {str(k): _convert(args[1], v, f"{where}.{k}") for k, v in value.items()}
    if dataclasses.is_dataclass(tp):
        return from_json(tp, value, where)  # type: ignore[arg-type]
    if tp is Any:
        return value
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if tp is int and isinstance(value, bool):
        raise FactsError(f"{where}: expected int, got bool")
    if not isinstance(value, tp):
        raise FactsError(f"{where}: expected {tp.__name__}, got {type(value).__name__}")
    return value
