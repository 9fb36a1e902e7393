"""TensorFlow's look for CUDA on a machine without a GPU: start-up lines, not a failure.

From 2.1 the ``tensorflow`` package is one build for machines with and without an NVIDIA GPU
(its release notes: "This runs on machines with and without NVIDIA GPUs"), built against
CUDA 10.1 and later. Every start looks for the CUDA runtime (``cudart``) and, to list devices,
the driver's libcuda; on a machine with neither, the loader logs that each did not load and
TensorFlow adds "Ignore above cudart dlerror if you do not have a GPU set up on your machine"
(``cudart_stub.cc``, at INFO, so a log at TF_CPP_MIN_LOG_LEVEL=1 keeps the loader's WARNING
without it), then runs on the CPU. The toolkit's other libraries (cuBLAS, cuDNN, ...)
are looked for only once a GPU is visible (``BaseGPUDeviceFactory::CreateDevices``: "If there
are no GPUs visible, do nothing", before ``MaybeTryDlopenGPULibraries``), so their absence,
like any sign that a GPU was there or wanted, keeps the reading of a GPU setup that lacks its
libraries.

Sources: https://github.com/tensorflow/tensorflow/blob/v2.1.0/RELEASE.md,
https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/stream_executor/cuda/cudart_stub.cc,
https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/core/common_runtime/gpu/gpu_device.cc.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import Optional

from tfdoctor.evidence import tflog
from tfdoctor.matrix import version_key

#: The libraries every start of a 2.1+ build looks for, GPU or not: the CUDA runtime (its
#: stub, ``cudart_stub.cc``) and the driver's libcuda (Linux) or nvcuda.dll (Windows), as
#: :func:`tflog.library_of` names them.
_PROBED = frozenset({"cudart", "cuda", "nvcuda"})

#: The loader's own line for a library it could not open (``dso_loader.cc``), as opposed to an
#: ImportError or a user's words: only the loader's is the start-up look.
_LOADER_LINE = re.compile(r"Could not (?:load dynamic|dlopen) library '")

#: The first release whose one package serves machines with and without a GPU: before it
#: the GPU build was the separate tensorflow-gpu, installed to use a GPU.
_FIRST_TF = (2, 1)

#: NVIDIA's GPU product names: the consumer and workstation brands (GeForce, Quadro, TITAN,
#: RTX, GTX), Tesla, and the data-center and embedded parts named without a brand since Ampere
#: (``NVIDIA A100-SXM4-80GB``, ``NVIDIA H100 80GB HBM3``, ``NVIDIA L4``, ``NVIDIA A10G``, as the
#: driver reports them: https://docs.nvidia.com/datacenter/tesla/index.html), whose best-known
#: model numbers are distinctive alone (V100, A100, H100, P100, K80). RTX and GTX also run
#: into the number (``RTX3090``). Read case-blind.
GPU_MODEL_WORDS = (
    r"GeForce|Quadro|Tesla|\bTITAN\b|\bRTX|\bGTX"
    r"|\bNVIDIA[ -](?:[ABHKLMPTV]\d{1,4}[A-Z]?|GH\d{3}|GB\d{3}|Jetson|DGX)\b"
    r"|\b(?:[AHPV]100|H200|K80|L40S?)\b"
)

#: Words of a log that shows or wants a GPU: nvidia-smi, a container's GPU flags, NVIDIA's
#: product names, the device a session asks for or lists (``/device:GPU:0``, ``/gpu:0``,
#: ``list_physical_devices``, ``list_logical_devices``, ``gpu_device_name``,
#: ``is_gpu_available``, ``Num GPUs Available``), a GPU's memory configured
#: (``set_memory_growth``: tf.config's call for a physical GPU), a GPU package or extra
#: (tensorflow-gpu, ``tensorflow[and-cuda]``), a CUDA toolkit installed (nvcc, cudatoolkit, the
#: toolkit's version.txt: ``CUDA Version 10.1.243``),
#: TensorFlow having found a device (``Found device 0``, ``Adding visible gpu devices``,
#: ``Cannot dlopen some GPU libraries`` and the ``Skipping registering GPU devices`` that
#: follows it in gpu_device.cc: looked for only with a GPU found), the loader opening a CUDA
#: library other than the driver's (``Successfully opened dynamic library libcublas.so.11``:
#: dso_loader.cc's line for a library it loaded; a toolkit is there; not libcuda.so.1 or
#: nvcuda.dll, which every start opens to list devices, :data:`_PROBED`, and which a CPU-only
#: VM's image with NVIDIA's libraries installed loads too: it shows no wish for a GPU), a program
#: asked to use or require one (``use_gpu``, ``--require-gpu``), WSL2's directory of the
#: Windows driver's libraries (``/usr/lib/wsl/lib``, where libcuda.so lives) named on the
#: loader's path: the
#: loader does not search it by default, so it is there because the user set up CUDA under
#: WSL2 (NVIDIA's CUDA on WSL guide, https://docs.nvidia.com/cuda/wsl-user-guide/index.html),
#: the NVIDIA kernel module's version file (``/proc/driver/nvidia/version``: ``NVRM version:
#: NVIDIA UNIX x86_64 Kernel Module 450.80.02``, a driver installed and loaded), cuDNN's header
#: read as NVIDIA's cuDNN guide has it checked (``#define CUDNN_MAJOR 8``: cuDNN installed,
#: https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-890/install-guide/index.html).
#: Each alternative is a literal or one bounded class: linear.
_GPU_WANTED = re.compile(
    r"NVIDIA-SMI|nvidia-smi|--gpus\b|nvidia-docker|NVIDIA_VISIBLE_DEVICES|CUDA_VISIBLE_DEVICES"
    r"|"
    + GPU_MODEL_WORDS
    + r"|device:GPU|/gpu:\d|list_physical_devices|list_logical_devices|list_local_devices"
    r"|gpu_device_name|is_gpu_available|set_memory_growth"
    r"|is_built_with_cuda|Num GPUs|tensorflow[-_]gpu|and-cuda|\bnvcc\b|Cuda compilation tools"
    r"|cudatoolkit|cuda-toolkit|CUDA Version \d|Found device \d|Adding visible gpu devices"
    r"|Cannot dlopen some GPU|Skipping registering GPU devices"
    r"|[Ss]uccessfully opened (?:CUDA|dynamic) library (?!'?(?:libcuda\.so|nvcuda\.dll))"
    r"|(?:use|require|enable)[-_]gpu|--gpu\b|gpu=True|/usr/lib/wsl/lib"
    r"|NVRM version: NVIDIA|define CUDNN_MAJOR",
    re.IGNORECASE,
)


#: Lower-case words of which every alternative of :data:`_GPU_WANTED` holds one (the model
#: numbers' among them: ``100`` for A100, H100, P100 and V100): only a line holding one can
#: match it. Python's engine tries each of that pattern's alternatives, case-blind, at every
#: place of a text (about 1 MB/s); a case-sensitive search for these finds the few lines to
#: try it on at memory speed.
GPU_WANTED_ANCHORS = (
    "nvidia",
    "gpu",
    "cuda",
    "cudnn",
    "nvcc",
    "geforce",
    "quadro",
    "tesla",
    "titan",
    "rtx",
    "gtx",
    "100",
    "h200",
    "k80",
    "l40",
    "list_",
    "set_memory_growth",
    "found device",
    "uccessfully opened",
    "/usr/lib/wsl/lib",
)
_ANCHORS = re.compile("|".join(re.escape(a) for a in GPU_WANTED_ANCHORS))
#: ASCII's capitals to small letters, one character for one, so that places in the lowered
#: text are places in the text (str.lower may change a text's length).
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def gpu_wanted(text: str) -> bool:
    """Whether ``text`` shows or wants a GPU (:data:`_GPU_WANTED`): searched on the lines that
    hold one of its :data:`GPU_WANTED_ANCHORS` (each alternative lies within a line)."""
    lowered = text.translate(_ASCII_LOWER)
    at = 0
    while (anchor := _ANCHORS.search(lowered, at)) is not None:
        start = text.rfind("\n", 0, anchor.start()) + 1
        end = text.find("\n", anchor.end())
        end = len(text) if end < 0 else end
        if _GPU_WANTED.search(text, start, end) is not None:
            return True
        at = end + 1
    return False


#: The driver's library as :func:`tflog.library_of` names it: libcuda.so.1 (Linux),
#: nvcuda.dll (Windows).
_DRIVER = frozenset({"cuda", "nvcuda"})

#: The first CUDA runtime of the one package for machines with and without a GPU: 2.1-2.3
#: were built against CUDA 10.1, 2.4 and later against 11 and 12; 1.13-2.0's tensorflow-gpu
#: against 10.0 (https://www.tensorflow.org/install/source#gpu, the tested build configurations).
_FIRST_UNIFIED_CUDA = (10, 1)


def _unified_runtime(soname: str) -> bool:
    """Whether ``soname`` is a CUDA runtime (``libcudart.so.11.0``, ``cudart64_101.dll``) of a
    CUDA release that only 2.1 and later builds of TensorFlow look for."""
    if tflog.library_of(soname) != "cudart":
        return False
    cuda = tflog.cuda_of_soname(soname)
    return cuda is not None and version_key(cuda)[:2] >= _FIRST_UNIFIED_CUDA


#: jaxlib's copy of TensorFlow's loader (``external/org_tensorflow/``): only jaxlib's CUDA
#: builds look for CUDA, and they are installed to use a GPU.
_JAXLIB = "org_tensorflow/"


def cuda_probe_only(
    failed: Sequence[tflog.LibraryNotLoaded],
    loader_lines: Sequence[str],
    hint: bool,
    tf_version: Optional[str],
    texts: Sequence[str],
) -> bool:
    """Whether the CUDA libraries the log shows not loading are only those a 2.1+ build looks
    for at every start (the runtime, the driver's libcuda), and nothing in the log shows or
    wants a GPU: what a machine without one prints. ``failed``: the libraries TensorFlow's log
    reader found not loaded; ``loader_lines``: the files the loader's own lines name, where a
    signature read them (a line cut before its prefix is not an event of the reader);
    ``hint``: TensorFlow's "Ignore above cudart dlerror" line is in the log (without it, the
    runtime's CUDA release and the driver's library missing beside it read the same);
    ``texts``: the lines cited and the head of the log, where the user's words are."""
    if any(not _LOADER_LINE.search(e.message) for e in failed):
        return False  # an ImportError, cuDNN's own loading: not the start-up look
    sonames = [*(e.soname for e in failed), *loader_lines]
    if not any(tflog.library_of(name) == "cudart" for name in sonames):
        return False
    if any(tflog.library_of(name) not in _PROBED for name in sonames):
        return False
    if tf_version is not None and version_key(tf_version)[:2] < _FIRST_TF:
        return False  # the separate GPU build's era: installed to use a GPU
    if not hint:
        # TensorFlow's own note is logged at INFO under the loader's WARNING (cudart_stub.cc),
        # so TF_CPP_MIN_LOG_LEVEL=1 or a trimmed paste drops it alone. Without it the same
        # reading needs the build dated by the runtime it asks for (CUDA 10.0 and older are
        # tensorflow-gpu 1.13-2.0's, a package installed to use a GPU) and the machine shown
        # without a driver: libcuda (nvcuda.dll) not loading beside the runtime, which a
        # machine with a working NVIDIA driver never prints. A runtime's line alone is also
        # all that a GPU setup lacking the toolkit prints.
        if not any(_unified_runtime(name) for name in sonames):
            return False
        if not any(tflog.library_of(name) in _DRIVER for name in sonames):
            return False
    if any(_JAXLIB in text for text in texts):
        return False
    return not any(gpu_wanted(text) for text in texts)
