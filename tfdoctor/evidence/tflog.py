"""TensorFlow's and XLA's own log lines, read into typed events.

TensorFlow writes its C++ log lines to stderr with one of these prefixes, all ending in
``file.cc:LINE] ``:

- ``2021-04-09 19:52:41.024315: W tensorflow/.../dso_loader.cc:60] `` (TF's own logger, <= 2.15);
- ``E0000 00:00:1744708234.717753 1370911 cuda_dnn.cc:8579] `` (absl logging, 2.16+; glog-style
  ``E0501 12:00:00.1 ...`` once absl is initialised);
- ``E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] `` (timestamp cut off).

:func:`parse_line` reads the prefix (level, source file and line) and the message;
:func:`read_events` turns the lines that report one of a few families of problems (a library
that does not load, a cuDNN other than the build's, a GPU ignored for its compute capability,
cuInit failing, a driver too old, ptxas and libdevice, running out of memory, cuDNN and cuBLAS
handles, NCCL, GPU registration skipped) into :class:`Event` values that keep the line they
came from and only what the line states. What a value implies without stating it (the CUDA
major a soname names) is a separate property, never a field read from the text.

Pure functions of text: the checks (TensorFlow's stderr, through the machine view), ``explain``
and ``run`` (a pasted log or a command's output) read the same lines the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Callable, Final, Optional, TypeVar, Union

from tfdoctor.records import Record, record
from tfdoctor.version_codes import cudnn_dotted

#: The time TensorFlow up to 2.15 writes before its level letter (``2023-01-05
#: 10:00:01.123456: W ``), and absl's, 2.16 on, after it (``W0105 10:00:01.123456  4242 ``).
_TF_STAMP: Final = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: "
_ABSL_STAMP: Final = r"\d{4} \d\d:\d\d:\d+\.\d+\s+\d+ "
_PREFIX = re.compile(
    rf"^(?:(?:{_TF_STAMP}(?P<tf>[IWEF]) )"
    rf"|(?:(?P<absl>[IWEF]){_ABSL_STAMP})"
    r"|(?:(?P<bare>[IWEF]) ))"
    r"(?P<source>\S+:\d+)\] "
)
#: A fatal line's start (level ``F``: tsl/platform/default/logging.cc aborts the process
#: after it), in either stamp, the absl one also indented (a log pasted in a code block) or
#: after a launcher's own tag (``[worker0] ``).
FATAL_START: Final = rf"^{_TF_STAMP}F |^[ \t]*(?:\S+[ \t]+)?F{_ABSL_STAMP}"


@record
class LogLine(Record):
    """One line with TensorFlow's prefix read; ``level`` and ``source`` empty without one."""

    #: ``I``, ``W``, ``E`` or ``F`` (info, warning, error, fatal); empty without a prefix.
    level: str
    #: The logging source file and line (``tensorflow/.../dso_loader.cc:60``); empty without.
    source: str
    #: The text after the prefix, stripped.
    message: str


def parse_line(line: str) -> LogLine:
    """``line`` with its TensorFlow/XLA/absl log prefix read off (any of the shapes above)."""
    text = line.strip()
    match = _PREFIX.match(text)
    if match is None:
        return LogLine("", "", text)
    level = match.group("tf") or match.group("absl") or match.group("bare") or ""
    return LogLine(level, match.group("source"), text[match.end() :].strip())


# --- events --------------------------------------------------------------------------------
# Every event's first two fields: the number of the line it was read from (counted from the
# ``first_line`` given to the reader) and the message, prefix stripped.


@record
class LibraryNotLoaded(Record):
    """A shared library (a CUDA or TensorRT library, the driver's libcuda) did not load.

    TensorFlow's loader (tsl/platform/default/dso_loader.cc): ``Could not load dynamic
    library 'libcudart.so.11.0'; dlerror: ...`` (``Could not dlopen library`` in 1.14-2.1);
    cuBLAS and cuDNN loading their own parts: ``Could not load library libcudnn_ops_infer.so.8.
    Error: libcublas.so.11: cannot open shared object file``; the import's own ``ImportError:
    libcublas.so.9.0: cannot open shared object file``.
    """

    line: int
    message: str
    #: The file that did not load, as named (``libcudart.so.11.0``, ``cudnn64_8.dll``).
    soname: str
    #: The loader's reason (``... cannot open shared object file: No such file or directory``);
    #: empty when the line gives none.
    error: str = ""
    #: The ``LD_LIBRARY_PATH`` TensorFlow's loader printed with the failure (2.x on Linux);
    #: empty when the line gives none.
    search_path: str = ""

    @property
    def path_cuda(self) -> Optional[tuple[str, str]]:
        """The CUDA toolkit release a directory of :attr:`search_path` is named for, with the
        directory (``/usr/local/cuda-12.1/lib64`` -> ``12.1``): the toolkit installed
        (inferred from the name); None when no directory names one."""
        for directory in self.search_path.split(":"):
            match = _CUDA_DIR.search(directory)
            if match is not None:
                return match.group(1), directory
        return None

    @property
    def library(self) -> str:
        """The library the file belongs to (``libcublasLt.so.12`` -> ``cublasLt``)."""
        return library_of(self.soname)

    @property
    def cuda(self) -> Optional[str]:
        """The CUDA release the file name implies (inferred, not stated); None when it implies
        none (see :func:`cuda_of_soname`)."""
        return cuda_of_soname(self.soname)

    @property
    def cudnn(self) -> Optional[str]:
        """The cuDNN major the file name implies (``libcudnn.so.8`` -> ``8``), else None."""
        return cudnn_of_soname(self.soname)


@record
class GpuRegistrationSkipped(Record):
    """TensorFlow gave up on the GPU after libraries did not load (gpu_device.cc):
    ``Cannot dlopen some GPU libraries. ...`` or ``Skipping registering GPU devices...``."""

    line: int
    message: str


@record
class DriverNotFound(Record):
    """The CUDA driver could not be reached: ``Could not find cuda drivers on your machine``
    (tsl/cuda/cudart_stub.cc) or ``kernel driver does not appear to be running on this host``
    (cuda_diagnostics.cc)."""

    line: int
    message: str
    #: cuda_diagnostics.cc's words: no NVIDIA kernel module loaded (no
    #: /proc/driver/nvidia/version), whatever the driver's libcuda did.
    kernel_module_absent: bool = False


@record
class VersionMismatch(Record):
    """A library loaded at run time is not the version the build was compiled with.

    ``Loaded runtime CuDNN library: 8.7.0 but source was compiled with: 8.9.4`` (cuda_dnn.cc;
    before 2.x the versions are integers, ``7201`` for 7.2.1).
    """

    line: int
    message: str
    #: ``cuDNN``.
    library: str
    #: The version loaded and the one compiled against, dotted; None where the line is cut.
    loaded: Optional[str]
    compiled: Optional[str]


@record
class GpuIgnored(Record):
    """TensorFlow ignores a GPU whose compute capability is below the build's minimum
    (gpu_device.cc: ``Ignoring visible gpu device (...) with Cuda compute capability 3.5. The
    minimum required Cuda capability is 3.7.``)."""

    line: int
    message: str
    #: The GPU's name, its compute capability and the build's minimum; None where not given.
    gpu_name: Optional[str]
    capability: Optional[str]
    minimum: Optional[str]


@record
class NoKernelsForGpu(Record):
    """The build has no machine code for the GPU's compute capability (gpu_device.cc: ``not
    built with CUDA kernel binaries compatible with compute capability 8.6``)."""

    line: int
    message: str
    capability: str


@record
class CudaError(Record):
    """A CUDA driver call failed with a CUresult (stream_executor/cuda/cuda_driver.cc):
    ``failed call to cuInit: CUDA_ERROR_NO_DEVICE: ...``, ``failed call to cuInit: UNKNOWN
    ERROR (303)``, ``... CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ...``."""

    line: int
    message: str
    #: ``cuInit`` for a failed cuInit (CUDA could not start at all), else empty.
    call: str
    #: The CUresult's name (``CUDA_ERROR_UNKNOWN``); empty when only its number is logged.
    code: str
    #: The CUresult's number as logged (``UNKNOWN ERROR (303)``) or as cuda.h defines the
    #: logged name; None when neither.
    number: Optional[int] = None


@record
class DriverTooOld(Record):
    """The driver is older than the CUDA release the build needs: ``CUDA driver version is
    insufficient for CUDA runtime version`` (cudaErrorInsufficientDriver, 35),
    or ``CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE`` (forward compatibility on an unsupported
    GPU)."""

    line: int
    message: str


@record
class DriverMismatch(Record):
    """The kernel module and the driver's libraries are different versions (cuda_diagnostics.cc:
    ``kernel version 352.63.0 does not match DSO version 361.93.2``)."""

    line: int
    message: str
    #: The kernel module's version and the driver library's (libcuda's).
    kernel: str
    library: str


@record
class DriverVersion(Record):
    """A driver version as cuda_diagnostics.cc reports it (``kernel reported version is:
    525.85.12``, ``libcuda reported version is: 361.93.2``) or cuda_dnn.cc after a failed cuDNN
    call (``Possibly insufficient driver version: 396.26.0``: a hint, not a verdict)."""

    line: int
    message: str
    #: ``kernel``, ``libcuda`` or ``cudnn``.
    source: str
    version: str


@record
class PtxasProblem(Record):
    """XLA's GPU compiler and its ptxas (xla/stream_executor/cuda, xla/service/gpu).

    ``problem`` is ``missing`` (no ptxas: ``Couldn't get ptxas version``, ``No PTX compilation
    provider is available``), ``unknown-arch`` (``Value 'sm_86' is not defined for option
    'gpu-name'``: a ptxas older than the GPU), ``too-old`` (``You are using ptxas 10.1.243,
    which is older than 11.1``), ``miscompiles`` (``Invoking ptxas with version 12.5.82, which
    corresponds to a CUDA version <=12.6.2``: a ptxas of a release XLA knows to miscompile),
    ``newer-than-driver`` (``The NVIDIA driver's CUDA version is
    12.4 which is older than the PTX compiler version 12.5.82``) or ``unsupported-toolchain``
    (the driver refuses PTX from a newer compiler: CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222).
    """

    line: int
    message: str
    problem: str
    #: The GPU architecture named (``sm_86``), else empty.
    arch: str = ""
    #: The ptxas version named, else empty.
    ptxas: str = ""
    #: The driver's CUDA version (``newer-than-driver``), the minimum ptxas (``too-old``) or
    #: the newest release that miscompiles (``miscompiles``).
    other: str = ""


@record
class LibdeviceMissing(Record):
    """XLA finds no libdevice: ``libdevice not found at ./libdevice.10.bc``, ``Can't find
    libdevice directory ${CUDA_DIR}/nvvm/libdevice``."""

    line: int
    message: str
    #: Where XLA looked, as logged.
    path: str


@record
class OutOfMemory(Record):
    """An allocation failed: op_kernel.cc's ``OOM when allocating tensor ... on
    /job:localhost/replica:0/task:0/device:GPU:0``, bfc_allocator.cc's ``Allocator (GPU_0_bfc)
    ran out of memory trying to allocate 1.53GiB (rounded to 1638400000)``, cuda_driver.cc's
    ``failed to allocate 10.76G (11552124928 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY``,
    XLA's ``Out of memory while trying to allocate 68852648264 bytes``."""

    line: int
    message: str
    #: ``GPU:0``, ``CPU:0``; empty when the line names no device.
    device: str
    #: The bytes asked for, when the line gives a byte count; else None.
    bytes: Optional[int] = None
    #: False where the allocator says the caller can do without (``The caller indicates that
    #: this is not a failure``): a faster algorithm's scratch space, not an error.
    failure: bool = True


@record
class HandleFailed(Record):
    """cuDNN or cuBLAS failed to initialise or run: ``Could not create cudnn handle:
    CUDNN_STATUS_INTERNAL_ERROR``, ``failed to create cublas handle:
    CUBLAS_STATUS_NOT_INITIALIZED``."""

    line: int
    message: str
    #: ``cuDNN`` or ``cuBLAS``.
    library: str
    #: The status named (``CUDNN_STATUS_INTERNAL_ERROR``); empty where the line names none.
    status: str


@record
class NcclError(Record):
    """NCCL's own warnings (``NCCL WARN ...``) and the errors TensorFlow reports from it
    (``NCCL error ...: unhandled system error``, ``ncclInternalError``)."""

    line: int
    message: str
    #: The ncclResult_t name the line gives (``ncclSystemError``), else empty.
    code: str = ""


@record
class TensorRTMissing(Record):
    """TF-TRT did not find TensorRT (compiler/tf2tensorrt): optional, TensorFlow registers the
    GPU without it."""

    line: int
    message: str


@record
class LibraryFileShown(Record):
    """A CUDA library file the log shows on the disk, by its full path: a listing's line
    (``ls -l``, ``find``, ``locate``, ``ldconfig -p``), or a path the text names. Not a line
    that says the file failed to open or is absent, nor a command that only names it (``ls
    /usr/local/cuda/lib64/libcudnn.so.8`` shows nothing until its output does)."""

    line: int
    message: str
    #: The file's full path, as shown (``/usr/local/cuda-9.0/lib64/libcublas.so.9.0``,
    #: ``C:\\Program Files\\...\\bin\\cudart64_101.dll``).
    path: str

    @property
    def name(self) -> str:
        """The file's name (the path's last part)."""
        return re.split(r"[/\\]", self.path)[-1]

    @property
    def directory(self) -> str:
        """The directory that holds the file, in the path's own separators."""
        return self.path[: len(self.path) - len(self.name)].rstrip("/\\")


Event = Union[
    LibraryNotLoaded,
    LibraryFileShown,
    GpuRegistrationSkipped,
    DriverNotFound,
    VersionMismatch,
    GpuIgnored,
    NoKernelsForGpu,
    CudaError,
    DriverTooOld,
    DriverMismatch,
    DriverVersion,
    PtxasProblem,
    LibdeviceMissing,
    OutOfMemory,
    HandleFailed,
    NcclError,
    TensorRTMissing,
]

# --- what a file name implies --------------------------------------------------------------


def is_toolkit_library(filename: str) -> bool:
    """Whether a library file (``libcudart.so.10.2``, ``cuBLAS64_11.dll``) is one of the CUDA
    toolkit's own (:data:`TOOLKIT_LIBRARIES`), whatever the case of its name."""
    return library_of(filename).lower() in _TOOLKIT_LOWER


def library_of(filename: str) -> str:
    """``libcudnn.so.8`` / ``cudnn64_8.dll`` -> ``cudnn``; ``libcublasLt.so.12`` -> ``cublasLt``."""
    stem = re.sub(r"^lib", "", filename.split(".", 1)[0], flags=re.IGNORECASE)
    return re.sub(r"64_\d+$|64$", "", stem)


# Before CUDA 11 every toolkit library's soname carried CUDA's major.minor (libcublas.so.10.0)
# and the Windows DLLs its digits (cudart64_101.dll is 10.1); from 11 on a library has its own
# soname version, which follows CUDA's major for the runtime and cuBLAS only (libcudart.so.11.0
# and libcublas.so.11 ship with every CUDA 11, libcufft.so.10 and libcurand.so.10 with CUDA 11
# and 12): https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/ (component versions).
#: The CUDA toolkit's own libraries, by the names library_of gives their files (cuDNN, NCCL and
#: TensorRT are NVIDIA's separate downloads); the first eight are those whose soname carried
#: CUDA's version before CUDA 11 (nvJitLink arrived with 12, CUPTI versions its own).
TOOLKIT_LIBRARIES: Final = (
    "cudart", "cublas", "cublasLt", "cufft", "curand", "cusolver", "cusparse", "nvrtc",
    "nvJitLink", "cupti",
)  # fmt: skip
_CUDA_VERSIONED = TOOLKIT_LIBRARIES[:8]
_TOOLKIT_LOWER: Final = frozenset(name.lower() for name in TOOLKIT_LIBRARIES)
_TOOLKIT = "(?:" + "|".join(_CUDA_VERSIONED) + ")"
_OLD_SONAME = re.compile(rf"lib{_TOOLKIT}\.so\.(\d+\.\d+)$")
_MAJOR_SONAME = re.compile(r"lib(?:cudart|cublas|cublasLt)\.so\.(\d+)(?:\.\d+)*$")
_CUDNN = re.compile(r"(?:libcudnn\w*\.so\.(\d+)|cudnn\w*64_(\d+)\.dll)(?:\.[\d.]*)?$", re.I)


#: A size as TensorFlow prints it (strings::HumanReadableNumBytes: "1023B", "5.80GiB",
#: "312.50MiB"; tensorflow/core/lib/strings/numbers.cc).
_READABLE_BYTES = re.compile(r"^(?P<n>\d+(?:\.\d+)?)(?P<unit>[KMGTPE]?)i?B$")


def readable_bytes(text: str) -> Optional[int]:
    """The bytes a size TensorFlow printed stands for (``5.80GiB``), or None if it is not one."""
    match = _READABLE_BYTES.match(text.strip())
    if match is None:
        return None
    power = " KMGTPE".index(match.group("unit") or " ")
    return int(float(match.group("n")) * 1024**power)


#: A CUDA library's Windows DLL: ``cusolver64_10.dll``, ``cudart64_110.dll``, ``cudnn64_8.dll``.
#: Its digits are the Linux soname's version without the dot (cudart64_101.dll is
#: libcudart.so.10.1, cublas64_11.dll libcublas.so.11, cudart64_100.dll libcudart.so.10.0): the
#: toolkit ships each library's DLL under the version its Linux soname carries (NVIDIA's release
#: notes, source cuda-release-notes in data/cuda.yaml), which TensorFlow's Windows loader asks
#: for the same way.
_WINDOWS_DLL = re.compile(r"(?P<library>[A-Za-z]+?)64_(?P<digits>\d+)\.dll", re.IGNORECASE)

#: The libraries whose soname version carries CUDA's (the runtime's and cuBLAS's from CUDA 11 on,
#: every toolkit library's before), by their lower-case names: _TOOLKIT's.
_TOOLKIT_NAMES: Final = frozenset(name.lower() for name in _CUDA_VERSIONED)


@record
class WindowsDll(Record):
    """A CUDA library's Windows DLL name, decoded: ``cudart64_110.dll`` is ``cudart``, the
    soname version ``11.0`` (libcudart.so.11.0) and CUDA ``11``."""

    #: The library as the name spells it (``cudart``, ``cublasLt``, ``cudnn``).
    library: str
    #: The digits after ``64_`` (``110``): the Linux soname's version without its dot.
    digits: str

    @property
    def soname(self) -> str:
        """The Linux soname version the DLL stands for (``110`` -> ``11.0``, ``101`` ->
        ``10.1``, ``92`` -> ``9.2``, ``11`` -> ``11``, ``8`` -> ``8``): a two-digit version from
        10 on is a major alone (no CUDA library ever had a 1.x soname)."""
        digits = self.digits
        if len(digits) == 3 or (len(digits) == 2 and not digits.startswith("1")):
            return f"{digits[:-1]}.{digits[-1]}"
        return digits

    @property
    def cuda(self) -> Optional[str]:
        """The CUDA release the name implies (inferred): ``10.1`` for ``cudart64_101.dll``,
        ``11`` for ``cudart64_110.dll`` or ``cublas64_11.dll``; None for a library whose
        soname version is its own (cuFFT, cuRAND, cuSOLVER and cuSPARSE from CUDA 11 on), a
        library outside the toolkit (cuDNN) or no version of the toolkit's form."""
        digits = self.digits
        if self.library.lower() not in _TOOLKIT_NAMES or not 2 <= len(digits) <= 3:
            return None
        if len(digits) == 2 and digits.startswith("1"):
            # A major alone from 10 on (cublas64_10.dll: 10.1 or 10.2, cudart64_12.dll): no
            # CUDA 1.x ever was. cuFFT's, cuRAND's, cuSOLVER's and cuSPARSE's are their own.
            return digits if self.library.lower().startswith(("cudart", "cublas")) else None
        major = int(digits[:-1])
        # From CUDA 11 every minor ships the same DLL name (cudart64_110.dll): the major only.
        return str(major) if major >= 11 else f"{major}.{digits[-1]}"


def windows_dll(name: str) -> Optional[WindowsDll]:
    """The CUDA library, soname version and CUDA release a Windows DLL's file name says
    (``cudart64_110.dll``, ``cudnn64_8.dll``), or None for a name of another form."""
    match = _WINDOWS_DLL.fullmatch(name.strip())
    if match is None:
        return None
    return WindowsDll(match.group("library"), match.group("digits"))


def cuda_of_soname(soname: str) -> Optional[str]:
    """The CUDA release a library file name implies: ``10.0`` for ``libcublas.so.10.0`` and
    ``cudart64_100.dll``, ``11`` for ``libcudart.so.11.0`` or ``libcublas.so.11``, ``11``
    for ``cudart64_110.dll``; None for a library whose soname version is its own (cuFFT,
    cuRAND, cuSOLVER and cuSPARSE from CUDA 11 on) or no CUDA library."""
    name = soname.strip()
    match = _OLD_SONAME.search(name)
    if match is not None and int(match.group(1).split(".")[0]) < 11:
        return match.group(1)
    dll = windows_dll(name)
    if dll is not None:
        return dll.cuda
    match = _MAJOR_SONAME.search(name)
    if match is not None and int(match.group(1)) >= 11:
        return match.group(1)
    return None


def cudnn_of_soname(soname: str) -> Optional[str]:
    """The cuDNN major a cuDNN file name implies (``libcudnn.so.8``, ``cudnn64_8.dll``,
    ``libcudnn_ops_infer.so.8`` -> ``8``), else None."""
    match = _CUDNN.search(soname.strip())
    if match is None:
        return None
    return match.group(1) or match.group(2)


# --- the families: a literal every such line holds, then what to read from it ----------------

# CUresult values (cuda.h, CUDA driver API): the names TensorFlow logs after "failed call to
# cuInit:", and the numbers it logs as "UNKNOWN ERROR (n)" when it knows no name.
CU_RESULTS = {
    "CUDA_ERROR_INVALID_VALUE": 1,
    "CUDA_ERROR_OUT_OF_MEMORY": 2,
    "CUDA_ERROR_NOT_INITIALIZED": 3,
    "CUDA_ERROR_STUB_LIBRARY": 34,
    "CUDA_ERROR_INSUFFICIENT_DRIVER": 35,
    "CUDA_ERROR_DEVICE_UNAVAILABLE": 46,
    "CUDA_ERROR_NO_DEVICE": 100,
    "CUDA_ERROR_INVALID_DEVICE": 101,
    "CUDA_ERROR_NO_BINARY_FOR_GPU": 209,
    "CUDA_ERROR_UNSUPPORTED_PTX_VERSION": 222,
    "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED": 303,
    "CUDA_ERROR_OPERATING_SYSTEM": 304,
    "CUDA_ERROR_NOT_PERMITTED": 800,
    "CUDA_ERROR_NOT_SUPPORTED": 801,
    "CUDA_ERROR_SYSTEM_NOT_READY": 802,
    "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH": 803,
    "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE": 804,
    "CUDA_ERROR_UNKNOWN": 999,
}

_LOAD_QUOTED = re.compile(
    r"Could not (?:load dynamic|dlopen) library '(?P<soname>[^']+)'(?:; dlerror: (?P<error>.*?))?"
    r"(?:; LD_LIBRARY_PATH: ?(?P<path>.*))?$"
)
#: A CUDA toolkit's directory named for its release (the runfile's and the packages' default,
#: /usr/local/cuda-12.1).
_CUDA_DIR = re.compile(r"/cuda-(\d+\.\d+)(?:/|$)")
_LOAD_PART = re.compile(
    r"Could not load library \S+?\. Error: (?P<soname>[\w.+-]+): (?P<error>.*)$"
)
#: The colon after the soname is optional: a message retyped into a thread or a ticket often
#: loses it ("ImportError: libcudnn.so.6 cannot open shared object file"), and nothing else
#: prints a soname right before the loader's words.
_CANNOT_OPEN = re.compile(
    r"(?P<soname>lib[\w.+-]+\.so[\w.]*?):? (?P<error>cannot open shared object file.*)$"
)
#: TensorFlow 1.3-1.12's import check on Windows (python/platform/self_check.py): "Could not
#: find 'cudart64_80.dll'. TensorFlow requires that this DLL be installed ...".
_SELF_CHECK = re.compile(
    r"Could not find '(?P<soname>\w+\.dll)'\. (?P<error>TensorFlow requires that this DLL be "
    r"installed[^.]*)"
)
_MISMATCH = re.compile(
    r"Loaded runtime (?i:cudnn) library: (?P<loaded>\d+(?:\.\d+)*)"
    r"(?: \(compatibility version \d+\))?"
    r" but source was compiled with:? (?P<compiled>\d+(?:\.\d+)*?)\.?(?= |$)"
)
_IGNORED = re.compile(
    r"Ignoring (?:visible )?gpu device \((?:device: \d+, )?name: (?P<name>[^,]+),.*?with "
    r"(?:Cuda )?compute capability (?P<cc>\d+\.\d+)\. The minimum required Cuda capability is "
    r"(?P<min>\d+\.\d+)"
)
_NO_KERNELS = re.compile(
    r"not built with CUDA kernel binaries compatible with compute capability (?P<cc>\d+\.\d+)"
)
_CUINIT = re.compile(r"failed call to cuInit(?:.*?UNKNOWN ERROR \((?P<number>\d+)\))?", re.I)
_CU_NAME = re.compile(r"CUDA_ERROR_[A-Z_]+")
_DRIVER_OLD = re.compile(
    r"driver version is insufficient|CUDA_ERROR_INSUFFICIENT_DRIVER"
    r"|CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"
)
_CUDNN_DRIVER = re.compile(r"[Pp]ossibly insufficient driver version: (?P<driver>\d+(?:\.\d+)+)")
_DSO = re.compile(r"kernel version (?P<kernel>[\d.]+) does not match DSO version (?P<dso>[\d.]+)")
_REPORTED = re.compile(
    r"(?P<source>kernel|libcuda) reported version is: (?P<version>\d+(?:\.\d+)+)"
)
_GPU_ARCH = re.compile(r"Value '(?P<arch>sm_\d+[a-z]?)' is not defined for option 'gpu-name'")
_PTXAS_OLD = re.compile(
    r"You are using ptxas (?P<version>\d+(?:\.\d+)+), which is older than (?P<min>\d+(?:\.\d+)+)"
)
# XLA's warning since early 2025 (xla/stream_executor/cuda/ptx_compiler_helpers.cc, logged at
# error level): "*** WARNING *** Invoking ptxas with version 12.5.82, which corresponds to a
# CUDA version <=12.6.2. CUDA versions 12.x.y up to and including 12.6.2 miscompile certain
# edge cases around clamping." It compiles; a ptxas newer than the named release does not.
_PTXAS_MISCOMPILES = re.compile(
    r"Invoking ptxas with version (?P<version>\d+(?:\.\d+)+), which corresponds to a CUDA "
    r"version <=(?P<max>\d+(?:\.\d+)+)"
)
# XLA named the compiler "the ptxas CUDA version (12.5.40)" until mid-2024 (logs of May 2024
# still print it), later "the PTX compiler version 12.5.82" (xla/service/gpu/nvptx_compiler.cc).
_PTXAS_NEWER = re.compile(
    r"driver's CUDA version is (?P<driver>\d+(?:\.\d+)+) which is older than the "
    r"(?:PTX compiler version |ptxas CUDA version \()(?P<version>\d+(?:\.\d+)+)"
)
#: XLA's words where it finds no ptxas to run (xla/stream_executor/gpu/asm_compiler.cc; from
#: 2.18 cuda/assemble_compilation_provider.cc and subprocess_compilation.cc's search for its
#: CUDA tools; TensorFlow 2.2-2.3's exit status of `ptxas --version`). The one home of these
#: words: the ``ptxas-not-found`` signature writes them as ``{{ptxas_missing}}``.
PTXAS_MISSING_WORDS: Final = (
    r"Couldn't (?:get|invoke) ptxas|Couldn't find ptxas|Failed to launch ptxas"
    r"|ptxas executable not found|Can't find ptxas binary|ptxas not found"
    r"|No PTX compilation provider is available|Couldn't find a suitable version of ptxas"
    r"|Running ptxas --version returned \d+"
)
_PTXAS_MISSING = re.compile(PTXAS_MISSING_WORDS)
#: The CUDA runtime's messages for cudaErrorNoKernelImageForDevice (209) and
#: cudaErrorInvalidKernelImage (200): the build holds no code (nor PTX) this GPU can run
#: (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html). The one home of
#: these words: the ``no-kernel-image`` signature writes them as ``{{no_kernel_image}}``.
#: cudaErrorInvalidDeviceFunction (98; 8 before CUDA 10.1) says the same of one kernel: "The
#: requested device function does not exist or is not compiled for the proper device
#: architecture".
NO_KERNEL_IMAGE_WORDS: Final = (
    r"no kernel image is available for execution on the device|device kernel image is invalid"
)
#: cudaErrorInvalidDeviceFunction's message, which its own signature (``invalid-device-function``)
#: reads.
INVALID_DEVICE_FUNCTION_WORDS: Final = r"\binvalid device function\b"
# The same refusal in each API that reports it: the runtime's messages and error names, and
# the driver's CUDA_ERROR_NO_BINARY_FOR_GPU
# (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html).
_NO_GPU_CODE = re.compile(
    NO_KERNEL_IMAGE_WORDS
    + r"|CUDA_ERROR_NO_BINARY_FOR_GPU|cudaErrorNoKernelImageForDevice|cudaErrorInvalidKernelImage"
    + r"|cudaErrorInvalidDeviceFunction|"
    + INVALID_DEVICE_FUNCTION_WORDS
)
_PTX_TOOLCHAIN = re.compile(
    r"unsupported toolchain|CUDA_ERROR_UNSUPPORTED_PTX_VERSION", re.IGNORECASE
)
_LIBDEVICE = re.compile(
    r"(?:libdevice not found at|Can't find libdevice directory) (?P<path>\S+)"
    r"|libdevice not found\.?\s*$"
)
_OOM_TENSOR = re.compile(
    r"OOM when allocating tensor.*? on (?:/job:[\w/:]*?)?/?device:(?P<device>[A-Z]+:\d+)"
)
_BFC = re.compile(
    r"Allocator \((?P<device>[A-Z]+)_(?P<index>\d+)_bfc\) ran out of memory trying to allocate "
    r"\S+(?: \(rounded to (?P<bytes>\d+)\))?"
)
_CUDA_OOM = re.compile(r"\((?P<bytes>\d+) bytes\)(?: from device)?")
_XLA_OOM = re.compile(r"Out of memory while trying to allocate (?P<bytes>\d+) bytes")
_STATUS = re.compile(r"(?P<status>(?P<lib>CUDNN|CUBLAS)_STATUS_(?!SUCCESS)[A-Z_]+)")
# ncclResult_t's failures (nccl.h): what NCCL returned, as TensorFlow and NCCL name it.
# NCCL's warnings and TensorFlow's and XLA's reports of a failed NCCL call; not NCCL INFO lines.
_NCCL_FAILED = re.compile(
    r"NCCL (?:WARN|error|failure|operation \S+ failed)"
    r"|Error while creating shared memory segment /dev/shm/nccl-"
)
_NCCL_CODE = re.compile(
    r"\b(?P<code>nccl(?:UnhandledCudaError|SystemError|InternalError|InvalidArgument"
    r"|InvalidUsage|RemoteError))\b"
)


def _library_events(no: int, message: str) -> Iterator[Event]:
    match = _LOAD_QUOTED.search(message) or _LOAD_PART.search(message)
    if match is None:
        match = _CANNOT_OPEN.search(message) or _SELF_CHECK.search(message)
    if match is not None:
        groups = match.groupdict()
        yield LibraryNotLoaded(
            no,
            message,
            match.group("soname"),
            groups.get("error") or "",
            (groups.get("path") or "").strip(),
        )


#: A CUDA library's file at an absolute path: NVIDIA's sonames (libcudart.so.11.0,
#: libcudnn.so.8.9.7, libcublasLt.so.12, libnvinfer.so.8) on a Unix path, their DLLs
#: (cudart64_110.dll, cudnn64_8.dll, cublas64_11.dll) on a Windows one. Each directory part is
#: one bounded run of characters that are not separators: linear.
_LIB_STEMS = (
    r"(?:cudart|cublas(?:Lt)?|cudnn(?:_\w{1,20})?|cufft|curand|cusolver|cusparse|nvrtc|nvinfer"
    r"|nvJitLink|cupti|nccl)"
)
_UNIX_LIB_FILE = re.compile(
    r"(?<![\w.~-])(?P<path>(?:/[\w.+@-]{1,100}){1,24}/lib" + _LIB_STEMS + r"\.so(?:\.\d{1,4}){0,4})"
    r"(?![\w.-])"
)
_WINDOWS_LIB_FILE = re.compile(
    r"(?<![\w])(?P<path>[A-Za-z]:(?:\\{1,2}[^\\\n:*?\"<>|']{1,100}){1,24}\\{1,2}"
    + _LIB_STEMS
    + r"64_\d{1,4}\.dll)\b",
    re.IGNORECASE,
)
#: Words by which a line says the file it names is absent or did not open (the loader's
#: reasons, ls's and find's complaints), or a command that only names it.
_FILE_NOT_THERE = re.compile(
    r"cannot open|No such file|cannot access|not found|Could not (?:load|find|open|dlopen)"
    r"|cannot find|does not exist|doesn't exist|Error loading|undefined symbol|wrong ELF"
    r"|cannot stat|missing"
    # ldconfig -p's cache: a file listed there is on the loader's path, not off it.
    r"|\(libc6",
    re.IGNORECASE,
)
_COMMAND_NAMING = re.compile(
    r"(?:^|[\s$#>;&|(])(?:sudo\s+)?(?:ls|find|locate|stat|cp|mv|rm|ln|wget|curl|tar|chmod"
    r"|cat|export|setx|ldd|readelf|objdump|patchelf|copy|del)\s",
)


#: The most files one line's listing gives (an ``ls`` of a glob prints a toolkit's every file
#: on one line): the events of the log's other lines keep their room.
_FILES_PER_LINE = 8


def _file_shown_events(no: int, message: str) -> Iterator[Event]:
    if _FILE_NOT_THERE.search(message):
        return
    kept = 0
    for pattern in (_UNIX_LIB_FILE, _WINDOWS_LIB_FILE):
        for match in pattern.finditer(message):
            if _COMMAND_NAMING.search(message, 0, match.start()):
                return  # a command naming the file, not output showing it
            yield LibraryFileShown(no, message, match.group("path").replace("\\\\", "\\"))
            kept += 1
            if kept == _FILES_PER_LINE:
                return


def _version_events(no: int, message: str) -> Iterator[Event]:
    match = _MISMATCH.search(message)
    loaded = cudnn_dotted(match.group("loaded")) if match else None
    yield VersionMismatch(
        no, message, "cuDNN", loaded, cudnn_dotted(match.group("compiled")) if match else None
    )


def _gpu_events(no: int, message: str) -> Iterator[Event]:
    match = _IGNORED.search(message)
    if match is None:
        yield GpuIgnored(no, message, None, None, None)
        return
    yield GpuIgnored(no, message, match.group("name").strip(), match.group("cc"), match["min"])


def _no_kernels(no: int, message: str) -> Iterator[Event]:
    match = _NO_KERNELS.search(message)
    if match is not None:
        yield NoKernelsForGpu(no, message, match.group("cc"))


def _cuda_error_events(no: int, message: str) -> Iterator[Event]:
    match = _CUINIT.search(message)
    name = _CU_NAME.search(message)
    if match is None and name is None:
        return
    code = name.group(0).upper() if name is not None else ""
    logged = match.group("number") if match is not None else None
    number = int(logged) if logged else CU_RESULTS.get(code)
    yield CudaError(no, message, "cuInit" if match is not None else "", code, number)


def _driver_old_events(no: int, message: str) -> Iterator[Event]:
    if _DRIVER_OLD.search(message):
        yield DriverTooOld(no, message)


def _dso_events(no: int, message: str) -> Iterator[Event]:
    match = _DSO.search(message)
    if match is not None:
        yield DriverMismatch(no, message, match.group("kernel"), match.group("dso"))


def _reported_events(no: int, message: str) -> Iterator[Event]:
    match = _REPORTED.search(message)
    if match is not None:
        yield DriverVersion(no, message, match.group("source"), match.group("version"))
        return
    cudnn = _CUDNN_DRIVER.search(message)
    if cudnn is not None:
        yield DriverVersion(no, message, "cudnn", cudnn.group("driver"))


def _ptxas_events(no: int, message: str) -> Iterator[Event]:
    arch = _GPU_ARCH.search(message)
    if arch is not None:
        yield PtxasProblem(no, message, "unknown-arch", arch=arch.group("arch"))
        return
    old = _PTXAS_OLD.search(message)
    if old is not None:
        yield PtxasProblem(no, message, "too-old", ptxas=old["version"], other=old["min"])
        return
    bad = _PTXAS_MISCOMPILES.search(message)
    if bad is not None:
        yield PtxasProblem(no, message, "miscompiles", ptxas=bad["version"], other=bad["max"])
        return
    newer = _PTXAS_NEWER.search(message)
    if newer is not None:
        yield PtxasProblem(
            no, message, "newer-than-driver", ptxas=newer["version"], other=newer["driver"]
        )
        return
    if _PTX_TOOLCHAIN.search(message):
        yield PtxasProblem(no, message, "unsupported-toolchain")
        return
    if _PTXAS_MISSING.search(message):
        yield PtxasProblem(no, message, "missing")


def _libdevice_events(no: int, message: str) -> Iterator[Event]:
    match = _LIBDEVICE.search(message)
    if match is None:
        return  # "libdevice not found" inside another sentence (a script's own notice)
    yield LibdeviceMissing(no, message, (match.group("path") or "").rstrip("."))


def _oom_events(no: int, message: str) -> Iterator[Event]:
    # The note's first words (bfc_allocator.cc), which a paste cut inside it still holds.
    optional = "The caller indicates" in message
    tensor = _OOM_TENSOR.search(message)
    if tensor is not None:
        yield OutOfMemory(no, message, tensor.group("device"))
        return
    if "OOM when allocating tensor" in message:
        yield OutOfMemory(no, message, "")
        return
    bfc = _BFC.search(message)
    if bfc is not None:
        size = int(bfc.group("bytes")) if bfc.group("bytes") else None
        device = f"{bfc.group('device')}:{bfc.group('index')}"
        yield OutOfMemory(no, message, device, size, failure=not optional)
        return
    for pattern in (_XLA_OOM, _CUDA_OOM):
        found = pattern.search(message)
        if found is not None:
            yield OutOfMemory(no, message, "", int(found.group("bytes")))
            return
    yield OutOfMemory(no, message, "")


def _handle_events(no: int, message: str) -> Iterator[Event]:
    match = _STATUS.search(message)
    if match is not None:
        library = "cuDNN" if match.group("lib") == "CUDNN" else "cuBLAS"
        yield HandleFailed(no, message, library, match.group("status"))


def _nccl_events(no: int, message: str) -> Iterator[Event]:
    match = _NCCL_CODE.search(message)
    if match is not None or _NCCL_FAILED.search(message):
        yield NcclError(no, message, match.group("code") if match else "")


def _registration_events(no: int, message: str) -> Iterator[Event]:
    yield GpuRegistrationSkipped(no, message)


#: cuda_diagnostics.cc's line when /proc/driver/nvidia/version is missing.
_NO_KERNEL_MODULE = "kernel driver does not appear to be running"


def _driver_missing_events(no: int, message: str) -> Iterator[Event]:
    yield DriverNotFound(no, message, _NO_KERNEL_MODULE in message)


def _tensorrt_events(no: int, message: str) -> Iterator[Event]:
    if "Could not find TensorRT" in message or "Cannot dlopen some TensorRT" in message:
        yield TensorRTMissing(no, message)


Reader = Callable[[int, str], Iterator[Event]]
E = TypeVar("E", bound=Record)

#: A literal every line of a family holds (the fast prefilter: ``str.find`` in C), and the
#: family's reader. Sources: dso_loader.cc, gpu_device.cc, cudart_stub.cc, cuda_diagnostics.cc,
#: cuda_dnn.cc, cuda_blas.cc, cuda_driver.cc, bfc_allocator.cc, op_kernel.cc, asm_compiler.cc,
#: nvptx_compiler.cc, nvptx_backend.cc, py_utils.cc (tf2tensorrt), NCCL's debug.cc.
KEYWORDS: dict[str, tuple[Reader, ...]] = {
    " library '": (_library_events,),
    "Could not load library ": (_library_events,),
    "cannot open shared object file": (_library_events,),
    "TensorFlow requires that this DLL be installed": (_library_events,),
    "Cannot dlopen some GPU libraries": (_registration_events,),
    "Skipping registering GPU devices": (_registration_events,),
    "Could not find cuda drivers on your machine": (_driver_missing_events,),
    _NO_KERNEL_MODULE: (_driver_missing_events,),
    # cuda_dnn.cc writes "CuDNN"; pastes and other builds show "cuDNN" too.
    "Loaded runtime ": (_version_events,),
    "Ignoring visible gpu device": (_gpu_events,),
    # Before 0.12 gpu_device.cc said it without "visible".
    "Ignoring gpu device": (_gpu_events,),
    "not built with CUDA kernel binaries compatible with compute capability": (_no_kernels,),
    "cuInit": (_cuda_error_events,),
    # CUDA_ERROR_INSUFFICIENT_DRIVER, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: a driver too old.
    "CUDA_ERROR_": (_cuda_error_events, _driver_old_events),
    "driver version is insufficient": (_driver_old_events,),
    # cuda_dnn.cc after any failed cuDNN call: the version only, not a verdict on it.
    "insufficient driver version": (_reported_events,),
    "does not match DSO version": (_dso_events,),
    "reported version is:": (_reported_events,),
    "ptxas": (_ptxas_events,),
    # "the provided PTX was compiled with an unsupported toolchain", "No PTX compilation
    # provider", "older than the PTX compiler version".
    "PTX": (_ptxas_events,),
    "libdevice not found": (_libdevice_events,),
    "Can't find libdevice directory": (_libdevice_events,),
    "OOM when allocating tensor": (_oom_events,),
    "ran out of memory trying to allocate": (_oom_events,),
    # 1.x's bfc_allocator.cc began the sentence without the allocator's name.
    "Ran out of memory trying to allocate": (_oom_events,),
    "CUDA_ERROR_OUT_OF_MEMORY": (_oom_events,),
    "Out of memory while trying to allocate": (_oom_events,),
    # "Could not create cudnn handle: CUDNN_STATUS_...", "failed to create cublas handle:
    # CUBLAS_STATUS_..." (cuda_dnn.cc and cuda_blas.cc log the status with the message).
    "CUDNN_STATUS_": (_handle_events,),
    "CUBLAS_STATUS_": (_handle_events,),
    # "NCCL WARN ...", "NCCL error", "NCCL failure", "NCCL operation ncclGroupEnd() failed".
    "NCCL": (_nccl_events,),
    # NCCL's shm transport, also when a console keeps only this line of its warning.
    "Error while creating shared memory segment /dev/shm/nccl-": (_nccl_events,),
    "TF-TRT Warning": (_tensorrt_events,),
    # A CUDA library's file shown at a path: a Unix soname's directory part, a Windows DLL.
    "/libcu": (_file_shown_events,),
    "/libnv": (_file_shown_events,),
    "/libnccl": (_file_shown_events,),
    "64_": (_file_shown_events,),
}


def read_line(line: str, number: int = 1) -> list[Event]:
    """The events one log line reports (none for most lines), numbered ``number``."""
    readers = [r for keyword, rs in KEYWORDS.items() if keyword in line for r in rs]
    return read_with(line, number, readers) if readers else []


#: The most characters of a message an event keeps: a line longer than this (a dumped tensor,
#: a progress bar that never ends its line) keeps its start, where TensorFlow's words are.
MAX_MESSAGE = 4096


def read_with(line: str, number: int, readers: Iterable[Reader]) -> list[Event]:
    """The events ``readers`` (those of the :data:`KEYWORDS` ``line`` holds) find in it, each
    reader run once: for a scanner that has found the keywords itself."""
    message = parse_line(line[: MAX_MESSAGE * 2]).message[:MAX_MESSAGE]
    out: list[Event] = []
    for reader in dict.fromkeys(readers):
        out.extend(reader(number, message))
    return out


#: A line of TensorFlow's own C++ logger whose source is one of TensorFlow's files (the
#: prefixes of :data:`_PREFIX`; absl's 2.16+ prefix names a bare file, which XLA and JAX share,
#: so only the forms with TensorFlow's path count): the process imported TensorFlow. A path
#: under ``external/`` (``external/org_tensorflow/tensorflow/compiler/xla/...``) is TensorFlow's
#: source built into another program, jaxlib's XLA before it left TensorFlow's tree: not this.
_TF_SOURCE_LINE = re.compile(
    r"^[ \t]*(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: )?[IWEF][ \t]"
    r"tensorflow/[\w/.-]{1,200}\.cc:\d+\] ",
    re.MULTILINE,
)


def tensorflow_line_at(text: str) -> Optional[int]:
    """Where (the 0-based line index in ``text``) the first line TensorFlow's own logger wrote
    from one of its source files is; None where there is none."""
    if "tensorflow/" not in text or ".cc:" not in text:
        return None
    match = _TF_SOURCE_LINE.search(text)
    return text.count("\n", 0, match.start()) if match is not None else None


def read_events(text: str, first_line: int = 1) -> list[Event]:
    """Every event in ``text``, in the order of its lines; the first line is ``first_line``.

    Each family's literal is looked for with ``str.find``; only the lines that hold one are
    parsed, so most of a long log is never touched by a regular expression.
    """
    found: dict[int, list[Reader]] = {}
    find = text.find
    for keyword, readers in KEYWORDS.items():
        i = find(keyword)
        while i >= 0:
            found.setdefault(text.rfind("\n", 0, i) + 1, []).extend(readers)
            end = find("\n", i)
            if end < 0:
                break
            i = find(keyword, end)
    out: list[Event] = []
    number, counted = first_line, 0
    for start in sorted(found):
        number += text.count("\n", counted, start)
        counted = start
        end = find("\n", start)
        out.extend(read_with(text[start : end if end >= 0 else len(text)], number, found[start]))
    return out


#: What goes into the facts' ``log_errors``: problems loading libraries or reaching the GPU,
#: the lines a reader of a failed import or an empty device list needs (running out of
#: memory, NCCL and reported versions are events, but not about the GPU's registration).
REGISTRATION_PROBLEMS = (
    LibraryNotLoaded,
    GpuRegistrationSkipped,
    DriverNotFound,
    VersionMismatch,
    GpuIgnored,
    NoKernelsForGpu,
    CudaError,
    DriverTooOld,
    DriverMismatch,
    PtxasProblem,
    LibdeviceMissing,
    HandleFailed,
    TensorRTMissing,
)


def error_lines(text: str) -> tuple[str, ...]:
    """The messages (prefix stripped) of the lines in ``text`` that report a problem loading
    libraries or reaching the GPU (:data:`REGISTRATION_PROBLEMS`), once each, in the order
    first logged (TensorFlow logs some once per shared object that initialises logging)."""
    found: dict[str, None] = {}
    for event in read_events(text):
        if isinstance(event, REGISTRATION_PROBLEMS):
            found.setdefault(event.message, None)
    return tuple(found)


def of_kind(events: Iterable[Event], kind: type[E]) -> tuple[E, ...]:
    """The events of one kind, in order."""
    return tuple(e for e in events if isinstance(e, kind))


def unloaded_files(events: Iterable[Event]) -> tuple[str, ...]:
    """The library files ``events`` say did not load, in order, once each."""
    return tuple(dict.fromkeys(e.soname for e in events if isinstance(e, LibraryNotLoaded)))


def gpu_code_refused(text: str) -> Optional[str]:
    """The first line of ``text`` where CUDA said the build holds no code this GPU can run,
    stripped; None where no line says so."""
    return next((line.strip() for line in text.splitlines() if _NO_GPU_CODE.search(line)), None)


#: A CUDA toolkit's major release in words the toolkit signatures (a release with its minor)
#: leave out: the major-only directory NVIDIA's Linux packages link (/usr/local/cuda-13/, the
#: packages' alternatives), the CUDA compiler wheel (nvidia-cuda-nvcc-cu12 12.x; from CUDA 13
#: unsuffixed, nvidia-cuda-nvcc 13.x) and CUDA 13's grouped wheel directory (nvidia/cu13/).
#: https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html
#: https://pypi.org/project/nvidia-cuda-nvcc/
_TOOLKIT_MAJOR_WORDS = re.compile(
    r"[/\\]cuda-(?P<dir>\d{1,2})(?:\.\d{1,2})?[/\\]"
    r"|\bnvidia-cuda-nvcc(?:-cu(?P<suffix>\d{2}))?(?:==|[- ]{1,40})(?P<wheel>\d{1,2})\.\d"
    r"|\bnvidia[/\\]cu(?P<grouped>\d{2})[/\\]"
)


#: Where XLA says the ptxas it ran lives: asm_compiler.cc's "Used ptxas at PATH" after it fell
#: back to the driver (2.12-2.15), cuda_asm_compiler.cc's "Using ptxas at PATH", and the status
#: "UNIMPLEMENTED: PATH ptxas too old. Falling back to the driver to compile."
#: https://github.com/tensorflow/tensorflow/blob/v2.14.0/tensorflow/compiler/xla/stream_executor/gpu/asm_compiler.cc
_PTXAS_PATH = re.compile(
    r"(?:Used|Using) ptxas at (?P<at>(?:/|[A-Za-z]:\\)[^\s'\"]{0,300}?ptxas(?:\.exe)?)(?![\w.])"
    r"|UNIMPLEMENTED: (?P<old>(?:/|[A-Za-z]:\\)[^\s'\"]{0,300}?ptxas(?:\.exe)?) ptxas too old"
)


def ptxas_path_shown(text: str) -> Optional[str]:
    """The path of the ptxas XLA says it ran, or None where ``text`` names none (a bare
    ``ptxas``, found on PATH, names no file)."""
    found = _PTXAS_PATH.search(text)
    return (found.group("at") or found.group("old")) if found is not None else None


#: XLA's CUDA data directory set by the user: ``--xla_gpu_cuda_data_dir=DIR`` in XLA_FLAGS (an
#: ``echo $XLA_FLAGS``, an ``export``, an environment listing). XLA searches that directory
#: first for nvvm/libdevice (CandidateCudaRoots(preferred_location) puts it before the build's
#: own roots: tsl/platform/cuda_root_path.h). Not XLA's own advice after it found none
#: ("setting the environment variable XLA_FLAGS=--xla_gpu_cuda_data_dir=/path/to/cuda will
#: work": xla/service/gpu/llvm_gpu_backend/nvptx_utils.cc), which names no real directory.
#: A POSIX path only: the fix's commands are a POSIX shell's, and a Windows path's spaces
#: (``C:\\Program Files\\...``) end no value that is not quoted. A value quoted on its own
#: runs to its closing quote.
_XLA_DATA_DIR_SET = re.compile(
    r"(?<!setting the environment variable XLA_FLAGS=)"
    r"--xla_gpu_cuda_data_dir=(?:(?P<quote>[\"'])(?P<quoted>(?:/|\$|~)[^\"'\n]{0,300})(?P=quote)"
    r"|(?P<dir>(?:/|\$|~)[^\s\"']{0,300}))"
)


#: XLA's list of the CUDA roots it searched (nvptx_utils.cc's CantFindCudaMessage; before, the
#: same words from nvptx_compiler.cc, each root on a log line of its own): the first is the
#: ``--xla_gpu_cuda_data_dir`` in effect in the process that failed (its default is
#: ./cuda_sdk_lib, xla/debug_options_flags.cc).
_XLA_SEARCHED_FIRST = re.compile(
    r"Searched for CUDA in the following directories:[ \t]*\n"
    r"(?:[^\n]{0,200}?\.cc:\d+\])?[ \t]*(?P<first>\S{1,300})"
)


def xla_data_dir_shown(text: str) -> Optional[str]:
    """The one directory ``text`` shows XLA_FLAGS' ``--xla_gpu_cuda_data_dir`` set to, without
    a trailing separator; None where it shows none, several (which one was in effect is not
    known), or where XLA's own list of the roots it searched starts elsewhere (the process
    that failed did not have that flag)."""
    if "xla_gpu_cuda_data_dir" not in text:
        return None
    found = {
        (m.group("quoted") or m.group("dir")).rstrip("/\\") or "/"
        for m in _XLA_DATA_DIR_SET.finditer(text)
    }
    if len(found) != 1:
        return None
    shown = found.pop()
    searched = _XLA_SEARCHED_FIRST.search(text) if "Searched for CUDA" in text else None
    if searched is not None and searched.group("first").rstrip("/\\") != shown:
        return None
    return shown


def toolkit_majors_shown(text: str) -> dict[int, str]:
    """Each CUDA toolkit major ``text`` shows by a directory or the compiler wheel, with the
    words that show it (``{13: "/usr/local/cuda-13/"}``)."""
    found: dict[int, str] = {}
    if "cuda" not in text and "nvidia" not in text:
        return found
    for match in _TOOLKIT_MAJOR_WORDS.finditer(text):
        major = next(g for g in match.group("dir", "suffix", "grouped", "wheel") if g)
        found.setdefault(int(major), match.group(0))
    return found
