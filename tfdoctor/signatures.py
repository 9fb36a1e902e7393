"""Log signatures: ``signatures.yaml`` loaded into typed, compiled patterns.

A signature is a line TensorFlow, CUDA, pip or Python prints, as data: the regular
expression that recognises it, the cause in the catalogue (:mod:`tfdoctor.causes`) it is
evidence for (or ``benign`` for noise that is harmless, or ``evidence`` for a line that only
reveals versions), where the text is printed (``sources``) and real lines it must match
(``examples``). The file is validated strictly at load: any problem raises
:class:`SignatureError` as ``FILE:LINE: FIELD: message``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from tfdoctor.evidence.frameworks import CUPY_OUT_OF_MEMORY_WORDS
from tfdoctor.evidence.installer import PIP_WORDS, PIPTOOLS_WORDS, POETRY_WORDS, UV_WORDS
from tfdoctor.evidence.packages import TF_PRINTED_SUFFIX
from tfdoctor.evidence.tflog import (
    INVALID_DEVICE_FUNCTION_WORDS,
    NO_KERNEL_IMAGE_WORDS,
    PTXAS_MISSING_WORDS,
)
from tfdoctor.records import Record, record
from tfdoctor.yamldoc import SEVERITIES, NodeReader, compose, read_document

if TYPE_CHECKING:
    from yaml import Node

#: The signatures document version this tfdoctor reads.
SIGNATURES_SCHEMA_VERSION = 1

#: The signatures shipped inside the package.
DEFAULT_SIGNATURES = Path(__file__).with_name("signatures.yaml")

#: Pseudo-causes: harmless noise (an info finding saying why), and lines that only reveal
#: versions (no finding of their own).
BENIGN = "benign"
EVIDENCE = "evidence"

#: The file-name prefixes of TensorFlow's own wheels (every tensorflow* distribution, the
#: nightly, the Lite runtimes, tf_keras, pycoral): one list for the patterns (as
#: ``{{tf_wheel}}``) and for the code that reads a refused wheel's name.
TF_WHEEL_PREFIXES = ("tensorflow", "tf_nightly", "tflite", "ai_edge_litert", "tf_keras", "pycoral")
#: The distribution names of TensorFlow's family as installers print them (``{{tf_dist}}``),
#: in the patterns and in the code that reads uv's, Poetry's and PDM's refusals: a range
#: another project's package declares is that project's affair.
TF_DISTRIBUTION = (
    r"(?:tensorflow(?:[-_][a-z]+)*|tf[-_][a-z]+(?:[-_][a-z]+)*|tflite[-_][a-z]+(?:[-_][a-z]+)*"
    r"|ai[-_]edge[-_]litert|keras(?:[-_][a-z]+)*|pycoral)"
)
#: A line of a failed download from the internet, up to the system's error: Keras' get_file,
#: urllib's URLError, urllib3 under requests and pip; not where the line names a proxy, this
#: machine's own address or a host on its local network (signatures.yaml's download-* rows).
_INTERNET_DOWNLOAD = (
    r"^(?![^\n]*(?:[Pp]roxy|localhost|host='[\w-]{1,63}'|Failed to resolve '[\w-]{1,63}'"
    r"|://[\w-]{1,63}[:/]|host\.docker\.internal"
    r"|(?:host='|://)(?:10|192\.168|172\.(?:1[6-9]|2\d|3[01]))\.|127\.0\.0\.1|0\.0\.0\.0))"
    r"[^\n]*?(?:URL fetch failure on|urlopen error|Errno socket error|Max retries exceeded"
    r"|NewConnectionError|NameResolutionError|Retrying \(Retry\()[^\n]{0,400}?"
)
#: Named parts a pattern writes as ``{{name}}``, expanded at load.
PATTERN_PARTS: Mapping[str, str] = {
    "{{tf_wheel}}": "(?:" + "|".join(TF_WHEEL_PREFIXES) + ")",
    "{{tf_dist}}": TF_DISTRIBUTION,
    # XLA's words for a ptxas it cannot find: the evidence layer reads the same ones.
    "{{ptxas_missing}}": "(?:" + PTXAS_MISSING_WORDS + ")",
    # The CUDA runtime's words for a build without code for the GPU: the machine view reads
    # the same ones in TensorFlow's stderr.
    "{{no_kernel_image}}": "(?:" + NO_KERNEL_IMAGE_WORDS + ")",
    "{{invalid_device_function}}": "(?:" + INVALID_DEVICE_FUNCTION_WORDS + ")",
    # CuPy's out-of-memory words: the evidence layer reads the same ones as its GPU work.
    "{{cupy_out_of_memory}}": "(?:" + CUPY_OUT_OF_MEMORY_WORDS + ")",
    # TensorFlow's pre-release suffixes a printed version carries: the evidence layer reads
    # the same kinds in an interpreter's echo.
    "{{tf_suffix}}": TF_PRINTED_SUFFIX,
    "{{internet_download}}": _INTERNET_DOWNLOAD,
}


def expand_parts(pattern: str) -> str:
    """``pattern`` with each named part (:data:`PATTERN_PARTS`) written out."""
    for name, part in PATTERN_PARTS.items():
        pattern = pattern.replace(name, part)
    return pattern


#: Named groups a pattern may use to extract what the log reveals.
GROUPS = frozenset(
    {
        "tf_version",
        "cuda_version",
        "cudnn_loaded",
        "cudnn_compiled",
        # The Bazel repository a refusing XLA source file was built in where the log prints
        # its path (jaxlib's external/xla/xla/...): which framework's XLA said it.
        "xla_build",
        # The process that holds a TPU and the TPU's device node (vfio/0, accel0), where
        # libtpu's or the node's refusal names them.
        "pid",
        "tpu_device",
        "cudnn_version",
        "library",
        "compute_capability",
        "min_capability",
        "dist",
        "numpy_version",
        # The version of pip the log shows, and the directory of a source build it failed.
        "pip_version",
        "build_dir",
        "python_version",
        "driver_version",
        # The loaded libcuda's version, beside the kernel module's (driver_version).
        "dso_version",
        "gpu_name",
        # The memory TensorFlow 1.x found on a GPU at start, total and free ("5.80GiB").
        "gpu_total_memory",
        "gpu_free_memory",
        "glibc",
        # The macOS release a binary was built for (dyld: "which was built for Mac OS X 10.15").
        "macos_version",
        # A symbol version missing (GLIBCXX_3.4.30) and the file that needed it.
        "symbol",
        "requirer",
        "site_packages",
        # The name pip lists a half-removed distribution under (-ensorboard: '~ensorboard').
        "leftover",
        # The build a TensorFlow C library archive's name says it is (gpu-windows-x86_64).
        "archive",
        # The interpreter's version an installed path names (lib/python3.12/site-packages/).
        "path_python",
        # The same on Windows, as its folder writes it (312 of Python312\Lib\).
        "path_python_tag",
        "gpu_arch",
        # The gfx targets a ROCm build prints as the ones it accepts ("gfx1030, gfx900, ...").
        "supported_archs",
        # The oldest gfx target a ROCm build carries, where it prints only that ("The minimum
        # required AMDGPU ISA is gfx803").
        "min_gpu_arch",
        "op",
        # The rank of a tensor a kernel refused (Tile's "Unhandled input dimensions, ...,
        # dims : 8").
        "rank",
        # A TensorFlow API a message names (tf.placeholder), for scan's knowledge of it.
        "api",
        # The multiprocessors of a GPU TensorFlow ignored for having too few.
        "cores",
        # The CPU architecture a native library was built for (x86_64, arm64).
        "architecture",
        # The instruction set a build needs and the CPU lacks (AVX, SSE4.1).
        "instruction",
        # A library's runtime version code was built for, and the one the process loaded.
        "required",
        "loaded",
        # The releases a library's own version check refuses besides its floor (its list).
        "excluded",
        # A directory of a download cache a message names (TF Hub's tfhub_modules/<sha1>).
        "cache_dir",
        # The .proto file whose generated code a protobuf runtime refused.
        "proto",
        # The NCCL release a process loaded and the CUDA release it was built for, as NCCL
        # prints them when it starts (NCCL version 2.18.3+cuda12.2).
        "nccl_version",
        "nccl_cuda",
        # The CUDA toolkit release the machine has, as nvcc or the toolkit's version file
        # states it (Cuda compilation tools, release 11.8).
        "toolkit_cuda",
        # Which way configure asks Bazel to move (upgrade, downgrade).
        "direction",
        # A language binding's module path (github.com/wamuir/graft).
        "binding",
        # An environment variable of flags (XLA_FLAGS) and a flag it refused.
        "variable",
        "flag",
        # The C compiler setuptools could not run to build an extension (gcc, clang++).
        "compiler",
        # The region S3 said a bucket is in, and the scheme of a path no file system serves.
        "region",
        "scheme",
        # A module a message says is missing (No module named 'tensorflow.python.platform').
        "module",
        # The Python release a CI workflow asked its runner for (setup-python's "Version 3.8.5
        # with arch x64 not found"): what the job wanted, not the Python of any machine.
        "ci_python",
        # A container image a registry has no manifest for (Docker's "manifest for IMAGE not
        # found").
        "image",
        # The host's platform Docker detected beside an image of another (linux/arm64/v8).
        "host_platform",
        # A header file a compiler did not find (nsync_cv.h, tensorflow/core/framework/op.h).
        "header",
        # A requirement a resolver could not meet: the distribution required, its specifier,
        # the environment marker uv forks it under ({sys_platform == 'win32'}), and the
        # release whose metadata declares it.
        "companion",
        "spec",
        "marker",
        "required_by",
        # TensorFlow 1.x's device line gives a GPU's compute capability in two numbers ("major:
        # 7 minor: 5"); a CUDA toolkit library a process opened (libcublas.so.9.0), whose file
        # name tells the CUDA release the build uses.
        "cc_major",
        "cc_minor",
        "toolkit_library",
        # The attribute of a graph's node a message names (index_type), and the Keras class a
        # loader did not know (GlorotUniform).
        "attr",
        "keras_class",
        # The distributions and releases a message lists as installed together ("tensorflow
        # 2.20.0, tensorflow-intel 2.19.0", TensorFlow's own check on Windows).
        "installed",
        # The tool pip says installed a package it cannot uninstall (debian).
        "installer",
        # A TensorFlow Serving model's name and the directory it serves it from.
        "servable",
        "base_path",
        # The interpreter a message names as the one that ran (runpy's "PYTHON: No module
        # named M", a kernel's interpreter).
        "interpreter",
        # CuPy's pool's refusal in bytes: the request, what it had allocated, the limit set
        # for it ("Out of memory allocating N bytes (allocated so far: M bytes, limit set to:
        # L bytes)", cupy/cuda/memory.pyx).
        "request_bytes",
        "allocated_bytes",
        "limit_bytes",
        # The program a message names as the one refused or not found (conda, micromamba; a
        # pyenv shim's pip), and the version pyenv selects with what set it.
        "command",
        "pyenv_version",
        "pyenv_origin",
        # The conda environment a command names (conda's EnvironmentNameNotFound).
        "conda_env",
        # A conda platform a tool names (linux-64, osx-arm64).
        "conda_platform",
        # The job of a cluster a message names (chief, evaluator), and a host name it could
        # not resolve.
        "job",
        "host",
        # What a library's own check expected and what it found, in its words' order, where
        # the words do not say which side is the machine's (TensorRT's "expecting compute 7.5
        # got compute 8.6" of an engine and a GPU).
        "expected",
        "found",
        # What a managed platform's SDK refused to turn into an image (the setting, "Python
        # version" or "tensorflow version", and its value) and the values its table lists.
        "sdk_setting",
        "sdk_value",
        "sdk_supported",
    }
)

#: What a signature may need beside its line (its ``needs``), where its words are a cause's only
#: in a context: ``tensorflow-frame``, a traceback frame in TensorFlow's own files (other
#: programs print the same words: gast's node check for pythran and beniget);
#: ``tensorboard-frame``, a frame of TensorBoard's or a line naming it (a name as common as
#: ``run_main`` is TensorBoard's only there); ``tensorboard-code-failing``, a traceback whose
#: failing (innermost) frame is TensorBoard's own installed code: a name its package lacks is
#: then its own old code meeting another release's folder, not a caller's use of an API the
#: installed release dropped;
#: ``alone``, no other cause's line and no frame of an installed package (a notice TensorFlow
#: appends to every error of a kind, the cause only where nothing else explains it);
#: ``fork-shown``, a process the log shows forked (a gunicorn, uWSGI or Celery worker, Keras'
#: multiprocessing workers, multiprocessing's fork): CUDA's "initialization error" is the fork's
#: only there; ``fork-not-shown``, the converse: no such process, where the same words are
#: another cause's (a driver too old for the build's CUDA); ``tf-runtime-not-failed``, the log
#: does not show TensorFlow's own native runtime failing to load (its "Failed to load the
#: native TensorFlow runtime", a frame of its _pywrap_tensorflow module), where the same
#: Windows words are that failure's and not another package's extension;
#: ``frozen-family-module``, a program the log shows frozen (by PyInstaller, Nuitka, py2app or
#: cx_Freeze: :mod:`tfdoctor.evidence.frozen`) and a missing module (the pattern's ``module`` group)
#: inside a package of TensorFlow's family (the module table's ``family``): the freezer's hooks left
#: it out; ``server-possible``, a server, task queue or thread the log shows running the code
#: (:mod:`tfdoctor.evidence.servers`, or a server's forked workers), or nothing of the program
#: around the line at all (no frames, no notebook); ``server-not-shown``, no such server: where
#: TensorFlow 1's per-thread graph is a server's threads only in the first; ``tfjs-shown``,
#: TensorFlow.js named in the log (its ``tfjs-shown`` evidence), where Node's words for any native
#: addon are its addon's; ``tfjs-possible``, TensorFlow.js named in the log, or no Python traceback
#: and no other cause's line, where words other programs share are TensorFlow.js' only in its
#: context; ``not-imported-elsewhere``, no traceback whose failing statement (``from math import
#: abs``) imports the name from a module outside TensorFlow's package, where Python 3.6 and older
#: print the bare name alone; ``wsl-shown``, WSL named in the log (its paths or kernel,
#: /usr/lib/wsl/, -microsoft-standard, /dev/dxg, or the issue form's answer), where CUDA's
#: CUDA_ERROR_OPERATING_SYSTEM is WSL's GPU support and not a cause tfdoctor can name elsewhere;
#: ``windows-tf-install``, a traceback frame in an installed TensorFlow under a Windows drive's path
#: (``C:\\...\\site-packages\\tensorflow\\``), where TensorFlow 1's SWIG loader words Windows'
#: refusal of its module as the module missing, and no line in Windows' own words (the refusal
#: shown: its line reads the reason); ``outside-traceback``, a line that is no traceback's exception
#: line (words quoted in prose), where a traceback's reading answers its own, its frames showing
#: whose code raised it; ``loader-reason-not-python``, no traceback of TensorFlow's loader
#: failing on a standard module a Python release removed (``No module named 'imp'``, on a
#: Python not shown older than the removal): TensorFlow's loader printed its words over that
#: reason, which the removed module's reading names; ``jax-not-shown``, no sign of JAX in the
#: log (its runtime error type, its frames or import, jaxlib's sources), where words TensorFlow's
#: CUDA runtime stub shares with jaxlib's (which print the same "cudaGetErrorString symbol not
#: found", "Error loading CUDA libraries") are TensorFlow's only without JAX;
#: ``keras3-backend-frame``, a traceback frame in one of Keras 3's backend packages
#: (``keras/src/backend/torch/``), where a framework's own module missing is what that Keras
#: backend imports, not any other code's import; ``exception-line``, a traceback whose exception
#: line is the hit's line: the words raised, not quoted (a logger's line, a reply's ``>`` quote
#: of one line).
NEEDS = frozenset(
    {
        "exception-line",
        "jax-not-shown",
        "keras3-backend-frame",
        "loader-reason-not-python",
        "outside-traceback",
        "windows-tf-install",
        "not-imported-elsewhere",
        "tfjs-shown",
        "tfjs-possible",
        "tensorflow-frame",
        "tensorboard-frame",
        "tensorboard-code-failing",
        "alone",
        "fork-shown",
        "fork-not-shown",
        "tf-runtime-not-failed",
        "frozen-family-module",
        "server-possible",
        "server-not-shown",
        "wsl-shown",
    }
)

#: What a signature's line shows of the machine or the failure beside its cause (its ``tags``):
#: a property the code that weighs a family of lines reads from the tag, so a new line of the
#: family needs only its tag, no code. Tag -> what it says.
WINDOWS_WORDS = "windows-words"
MACOS_WORDS = "macos-words"
REMOVED_API = "removed-api"
KFD_NODE = "kfd-node"
PROFILING_COUNTERS = "profiling-counters"
EMULATOR = "emulator"
LOADER_LINE = "loader-line"
REASON_CUT = "reason-cut"
ROCM_WORDS = "rocm-words"
DIRECTML_WORDS = "directml-words"
PROTO3_OPTIONAL = "proto3-optional"
BARE_INIT_ERROR = "bare-init-error"
FORKED = "forked"
BAZEL_WORDS = "bazel-words"
SETUPTOOLS_WORDS = "setuptools-words"
NUITKA_WORDS = "nuitka-words"
TFLITE_WORDS = "tflite-words"
TFJS_WORDS = "tfjs-words"
GENCODE_CHECK = "gencode-check"
DESCRIPTOR_CLASH = "descriptor-clash"
DEEPMD_BUILD = "deepmd-build"
ONE_RELEASE = "one-release"
INDEX_UNREAD = "index-unread"
INDEX_NOT_PYPI = "index-not-pypi"
ABI_TAG = "abi-tag"
PROCESS_ENDED = "process-ended"
GOES_ON = "goes-on"
MODULE_KEY_REFUSED = "module-key-refused"
NOUVEAU_HOLDS_GPU = "nouveau-holds-gpu"
IMAGE_CHECK = "image-check"
TAGS: Mapping[str, str] = {
    IMAGE_CHECK: (
        "the start-up check of NVIDIA's CUDA and NGC images, printed as the container starts: "
        "a container run without a GPU where the log shows the command that started it without "
        "a GPU flag, unless the log shows one it had"
    ),
    MODULE_KEY_REFUSED: (
        "the kernel refused a module's signature (Secure Boot's lockdown, or signature "
        "enforcement, turning away a module no trusted key signed): the fix enrols the key"
    ),
    NOUVEAU_HOLDS_GPU: (
        "the nvidia module found its GPU taken by another kernel driver (nouveau, a frame "
        "buffer driver): the fix blacklists nouveau"
    ),
    WINDOWS_WORDS: (
        "words only Windows' tools print (Visual C++'s build tools, Bazel's Windows toolchain, "
        "Windows' loader): the log is of Windows whatever else it shows"
    ),
    MACOS_WORDS: (
        "words of macOS's tools and shells (xcrun; the shells' report of an illegal "
        "instruction, zsh's, macOS's shell since 10.15, which zsh prints elsewhere too): a Mac "
        "where the log shows no other system"
    ),
    REMOVED_API: (
        "the running Bazel no longer has an API the source's build files use (a Starlark name "
        "or rule, a flipped incompatible change): the Bazel is newer than the source"
    ),
    KFD_NODE: (
        "ROCm's runtime could not open its device node /dev/kfd (the user's groups, a "
        "container's unmapped group): ROCm's access fix, not NVIDIA's"
    ),
    PROFILING_COUNTERS: (
        "the GPU's performance counters refused to the profiler (NVIDIA keeps them to "
        "administrators): the profiler's access fix, not the device nodes'"
    ),
    EMULATOR: (
        "the emulator's own line (QEMU's report of the signal its guest died of): the process "
        "ran emulated"
    ),
    LOADER_LINE: (
        "TensorFlow's loader's own line for a CUDA library or libcuda it could not open, which "
        "a machine without a GPU prints as it starts: such lines alone are that look"
    ),
    REASON_CUT: (
        "words that leave out why TensorFlow's native library did not load or start "
        "(Windows' reason cut from 'DLL load failed', TensorFlow's own line without the "
        "loader's error): a CPU without AVX stays one of the candidates"
    ),
    PIP_WORDS: "pip's own words: a refusal in them is pip's (its commands, its options)",
    UV_WORDS: "uv's own words: a refusal in them is uv's, named so in the finding",
    POETRY_WORDS: "Poetry's own words: a refusal in them is Poetry's, named so in the finding",
    PIPTOOLS_WORDS: (
        "pip-tools' own words: a refusal in them is pip-compile's, its resolver named in the fix"
    ),
    ROCM_WORDS: (
        "words of AMD's ROCm stack (its runtime, tools and TensorFlow build): a GPU these "
        "refuse gets ROCm's fix, not CUDA's"
    ),
    DIRECTML_WORDS: (
        "words of DirectML's TensorFlow builds: a GPU these refuse gets DirectML's fix "
        "(a Direct3D 12 adapter and its driver)"
    ),
    PROTO3_OPTIONAL: (
        "protoc refusing proto3's optional fields (before 3.12 it cannot parse them, before "
        "3.15 it asks for a flag): the protoc the fix names is 3.15 or later"
    ),
    BARE_INIT_ERROR: (
        "CUDA's bare 'initialization error', no reason named: where no fork is shown a driver "
        "older than the build's CUDA leads, the other candidates named in the fix"
    ),
    FORKED: (
        "a process the log shows forked from another (a server's or pool's workers, Keras' "
        "multiprocessing workers, multiprocessing's fork start method): the context of the "
        "needs fork-shown and fork-not-shown"
    ),
    BAZEL_WORDS: (
        "Bazel's own words (its toolchain configuration, its errors): build tools missing in "
        "them are Bazel's toolchain's"
    ),
    SETUPTOOLS_WORDS: (
        "setuptools' (distutils') words building an extension: build tools missing in them "
        "are its compiler's"
    ),
    NUITKA_WORDS: "Nuitka's own words: a frozen program's failure in them is Nuitka's to fix",
    TFLITE_WORDS: (
        "TensorFlow Lite's words (its interpreter, converter, delegates): an op it lacks is "
        "the Lite runtime's, not TensorFlow's"
    ),
    TFJS_WORDS: (
        "TensorFlow.js' words (its graph executor): an op it lacks is TensorFlow.js' release's, "
        "whose fix is a TensorFlow.js release, not TensorFlow's"
    ),
    GENCODE_CHECK: (
        "protobuf's runtime checking the protobuf release that generated a module "
        "(runtime_version.py, 5.27 on): the fix is the runtime's or the generated code's"
    ),
    DEEPMD_BUILD: (
        "DeePMD-kit's loader naming why its op library does not load into this TensorFlow (the "
        "ABI flag, the release it was compiled against): the fix builds it against this one"
    ),
    DESCRIPTOR_CLASH: (
        "protobuf's C++ runtime refusing a generated file it holds already, or data of another "
        "protobuf release: two native libraries in the process carry generated code of one "
        ".proto (the fix is the releases built together, not a protobuf from pip)"
    ),
    ONE_RELEASE: (
        "a resolver naming the one release it chose and found no file of for this interpreter "
        "or platform (uv, Poetry): that release, not every release, has no wheel here"
    ),
    INDEX_UNREAD: (
        "pip could not read the index (it retried a broken connection, a page did not "
        "fetch): a refusal after it says nothing of the wheels, unless it lists releases"
    ),
    INDEX_NOT_PYPI: (
        "pip read an index of the user's own, or none (--no-index): a refusal after it says "
        "nothing of PyPI's files"
    ),
    ABI_TAG: (
        "a resolver saying the wheels' Python ABI tags are what does not match (uv's words, "
        "pixi's with uv's resolver): the interpreter's Python version, not its platform"
    ),
    PROCESS_ENDED: (
        "a shell's, IDE's, container runtime's or emulator's report (or a person's words) of a "
        "process ended by a signal or an access violation, which prints no traceback: what "
        "the log shows done before it does not say the run went on"
    ),
    GOES_ON: (
        "the program's own words that it goes on past what the cause names (a check the user "
        "disabled): the cause is a warning there, not what ended the run"
    ),
}

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_URL_RE = re.compile(r"^https://\S+$")


class SignatureError(ValueError):
    """A signatures file that cannot be used: ``FILE:LINE: FIELD: what is wrong``."""


@record
class Signature(Record):
    """One recognisable log line and what it is evidence for."""

    id: str
    #: A cause id in the catalogue, ``benign`` or ``evidence``.
    cause: str
    #: ``error``, ``warning`` or ``info`` (benign and evidence signatures are ``info``).
    severity: str
    pattern: re.Pattern[str]
    #: A literal every matching line contains: the cheap prefilter before the pattern runs.
    keyword: str
    #: One line that says what the signature means (the finding's summary).
    summary: str
    #: Why a benign line is harmless; for a cause, an optional note added to the detail.
    explanation: str
    sources: tuple[str, ...]
    examples: tuple[str, ...]
    #: The severity when the evidence shows an NVIDIA GPU on the machine (None: unchanged).
    severity_with_gpu: Optional[str] = None
    #: The context the line counts in, one of :data:`NEEDS` (empty: anywhere).
    needs: str = ""
    #: What the line shows beside its cause, each one of :data:`TAGS`, sorted.
    tags: tuple[str, ...] = ()
    #: The change of an API the line shows a call meeting, as the sources date it: the
    #: distribution whose API changed and its release (``("numpy", "1.16.3")``); None where
    #: the line dates none. Its fix is fitted to whose code made the call.
    changed: Optional[tuple[str, str]] = None
    #: Where the entry starts in the file (1-based), for messages.
    lineno: int = 0


@record
class Signatures(Record):
    """Every signature, in file order, and the prefilter that finds candidate lines fast."""

    path: str
    signatures: tuple[Signature, ...]

    def by_id(self, sid: str) -> Signature:
        """The signature called ``sid`` (KeyError when there is none)."""
        for sig in self.signatures:
            if sig.id == sid:
                return sig
        raise KeyError(sid)

    @property
    def keywords(self) -> Mapping[str, tuple[Signature, ...]]:
        """Keyword -> the signatures that need it, longest keyword first."""
        out: dict[str, list[Signature]] = {}
        for sig in self.signatures:
            out.setdefault(sig.keyword, []).append(sig)
        return {k: tuple(out[k]) for k in sorted(out, key=lambda k: (-len(k), k))}


def load_signatures(
    path: Optional[str] = None, causes: Optional[Iterable[str]] = None
) -> Signatures:
    """Load and validate the signatures at ``path`` (default: the bundled file).

    ``causes`` are the cause ids a signature may name (default: the catalogue's).
    """
    chosen = path or str(DEFAULT_SIGNATURES)
    return parse_signatures(read_document(chosen, "signatures", SignatureError), chosen, causes)


def parse_signatures(
    text: str, path: str = "<signatures>", causes: Optional[Iterable[str]] = None
) -> Signatures:
    """Validate signatures YAML ``text`` (``path`` names it in errors)."""
    if causes is None:
        from tfdoctor.causes import CAUSES  # noqa: PLC0415 - the catalogue loads with rich deps

        causes = CAUSES
    known = set(causes)
    root = compose(text, path, "signatures file", SignatureError)
    reader = NodeReader(path, SignatureError)
    top = reader.mapping(root, "signatures-file", ("schema_version", "signatures"))
    reader.schema_version(top["schema_version"], SIGNATURES_SCHEMA_VERSION)
    out: list[Signature] = []
    seen: set[str] = set()
    for i, node in enumerate(reader.sequence(top["signatures"], "signatures")):
        sig = _read_signature(reader, node, i, known)
        if sig.id in seen:
            raise reader.error(node, f"signatures[{i}].id", f"duplicate id {sig.id!r}")
        seen.add(sig.id)
        out.append(sig)
    if not out:
        raise reader.error(top["signatures"], "signatures", "needs at least one signature")
    return Signatures(path, tuple(out))


_REQUIRED = ("id", "cause", "severity", "keyword", "pattern", "summary", "sources", "examples")


def optional_backticks(pattern: str) -> str:
    """``pattern`` with each literal backtick outside a character class made optional."""
    out: list[str] = []
    in_class = escaped = False
    for char in pattern:
        out.append(char)
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif char == "`" and not in_class:
            out.append("?")
    return "".join(out)


def _without_backticks(keyword: str) -> str:
    """The longest part of ``keyword`` between backticks: what a log without them still has."""
    return max(keyword.split("`"), key=len) if "`" in keyword else keyword


_OPTIONAL = ("explanation", "severity_with_gpu", "needs", "tags", "changed")

#: A ``changed`` row's distribution (a PyPI name, as pip normalises it) and release.
_CHANGED_DIST = re.compile(r"^[a-z0-9]+(?:[-_.][a-z0-9]+)*$")
_CHANGED_RELEASE = re.compile(r"^\d+(?:\.\d+)*$")


def _read_signature(reader: NodeReader, node: Node, index: int, known: set[str]) -> Signature:
    fields = reader.mapping(node, f"signatures[{index}]", _REQUIRED, _OPTIONAL)
    sid = reader.required_string(fields["id"], f"signatures[{index}].id")
    if not _ID_RE.match(sid):
        raise reader.error(fields["id"], f"signatures[{index}].id", f"{sid!r} is not a valid id")
    where = f"signatures[{sid}]"
    cause = reader.required_string(fields["cause"], f"{where}.cause")
    if cause not in known and cause not in (BENIGN, EVIDENCE):
        raise reader.error(
            fields["cause"],
            f"{where}.cause",
            f"unknown cause {cause!r} (a catalogue id, {BENIGN!r} or {EVIDENCE!r})",
        )
    severity = reader.choice(fields["severity"], f"{where}.severity", SEVERITIES)
    if cause in (BENIGN, EVIDENCE) and severity != "info":
        raise reader.error(
            fields["severity"], f"{where}.severity", f"a {cause} signature is info, never worse"
        )
    gpu_severity = None
    if "severity_with_gpu" in fields:
        gpu_severity = reader.choice(
            fields["severity_with_gpu"], f"{where}.severity_with_gpu", SEVERITIES
        )
        if cause in (BENIGN, EVIDENCE):
            raise reader.error(
                fields["severity_with_gpu"],
                f"{where}.severity_with_gpu",
                f"a {cause} signature stays info",
            )
    needs = ""
    if "needs" in fields:
        needs = reader.choice(fields["needs"], f"{where}.needs", tuple(sorted(NEEDS)))
        if cause in (BENIGN, EVIDENCE):
            raise reader.error(
                fields["needs"], f"{where}.needs", f"a {cause} signature needs no context"
            )
    explanation = (
        reader.required_string(fields["explanation"], f"{where}.explanation")
        if "explanation" in fields
        else ""
    )
    if cause == BENIGN and not explanation:
        raise reader.error(
            node, f"{where}.explanation", "a benign signature says why it is harmless"
        )
    # A log pasted into a Markdown page loses the backticks of a message (`save_format`
    # renders as code): a backtick the pattern or keyword quotes is not required.
    keyword = _without_backticks(reader.required_string(fields["keyword"], f"{where}.keyword"))
    text = reader.required_string(fields["pattern"], f"{where}.pattern")
    try:
        pattern = re.compile(optional_backticks(expand_parts(text)))
    except re.error as exc:
        raise reader.error(fields["pattern"], f"{where}.pattern", f"invalid regex: {exc}") from None
    unknown = sorted(set(pattern.groupindex) - GROUPS)
    if unknown:
        raise reader.error(
            fields["pattern"],
            f"{where}.pattern",
            f"unknown group {unknown[0]!r} (expected one of: {', '.join(sorted(GROUPS))})",
        )
    sources = tuple(
        reader.required_string(item, f"{where}.sources")
        for item in reader.sequence(fields["sources"], f"{where}.sources")
    )
    if not sources:
        raise reader.error(fields["sources"], f"{where}.sources", "needs at least one source")
    for item, url in zip(reader.sequence(fields["sources"], f"{where}.sources"), sources):
        if not _URL_RE.match(url):
            raise reader.error(item, f"{where}.sources", f"{url!r} is not an https URL")
    example_nodes = reader.sequence(fields["examples"], f"{where}.examples")
    if not example_nodes:
        raise reader.error(fields["examples"], f"{where}.examples", "needs at least one example")
    examples = []
    for item in example_nodes:
        line = reader.required_string(item, f"{where}.examples")
        if "\n" in line.rstrip("\n"):
            raise reader.error(item, f"{where}.examples", "an example is one log line")
        if keyword not in line:
            raise reader.error(
                item, f"{where}.keyword", f"{keyword!r} does not occur in example {line[:60]!r}"
            )
        if pattern.search(line) is None:
            raise reader.error(item, f"{where}.pattern", f"does not match example {line[:60]!r}")
        examples.append(line.rstrip("\n"))
    return Signature(
        id=sid,
        cause=cause,
        severity=severity,
        pattern=pattern,
        keyword=keyword,
        summary=reader.required_string(fields["summary"], f"{where}.summary"),
        explanation=explanation,
        sources=sources,
        examples=tuple(examples),
        severity_with_gpu=gpu_severity,
        needs=needs,
        tags=_tags(reader, fields["tags"], f"{where}.tags") if "tags" in fields else (),
        changed=_changed(reader, fields["changed"], f"{where}.changed", cause)
        if "changed" in fields
        else None,
        lineno=node.start_mark.line + 1,
    )


def _changed(reader: NodeReader, node: Node, field: str, cause: str) -> tuple[str, str]:
    """A signature's ``changed``: ``{dist: numpy, release: "1.16.3"}``, the distribution whose
    API the line shows changed and the release that changed it; a cause's line only."""
    if cause in (BENIGN, EVIDENCE):
        raise reader.error(node, field, f"a {cause} signature shows no change met")
    fields = reader.mapping(node, field, ("dist", "release"))
    return (
        reader.required_string(fields["dist"], f"{field}.dist", _CHANGED_DIST, "distribution"),
        reader.required_string(
            fields["release"], f"{field}.release", _CHANGED_RELEASE, "release (1.16.3)"
        ),
    )


def _tags(reader: NodeReader, node: Node, field: str) -> tuple[str, ...]:
    """A signature's ``tags``: a non-empty list of distinct :data:`TAGS`, sorted."""
    items = reader.sequence(node, field)
    if not items:
        raise reader.error(node, field, "needs at least one tag (or no tags field)")
    seen: list[str] = []
    for item in items:
        tag = reader.choice(item, field, tuple(sorted(TAGS)))
        if tag in seen:
            raise reader.error(item, field, f"{tag!r} is given twice")
        seen.append(tag)
    return tuple(sorted(seen))
