"""Causes in XLA's compiler: its GPU toolchain (ptxas, libdevice) and code it cannot compile."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import install_fix, set_env
from tfdoctor.causes.gpu import toolkit_drop_words as drop_words
from tfdoctor.cuda_layout import first_cuda_for, nvcc_wheel_dir, wheel_first_release, wheel_name
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine
from tfdoctor.matrix import TFLine, ranges_meet, version_key
from tfdoctor.shellword import shell_word

#: The ids of this area's causes, as checks, explain and scan name them.
PTXAS_TOO_NEW: Final = CauseId("ptxas-too-new")
LIBDEVICE_MISSING: Final = CauseId("libdevice-missing")
PTXAS_MISSING: Final = CauseId("ptxas-missing")
PTXAS_TOO_OLD: Final = CauseId("ptxas-too-old")
XLA_CODE_UNCOMPILABLE: Final = CauseId("xla-code-uncompilable")

#: XLA's page of the TensorFlow constructs it cannot compile, each with its error message.
XLA_KNOWN_ISSUES = "https://www.tensorflow.org/xla/known_issues"

#: NVIDIA's list of the GPU architectures each CUDA release's compilers know.
NVCC_GPU_FEATURES = (
    "https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#gpu-feature-list"
)


#: Causes in XLA's GPU compiler.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            PTXAS_TOO_NEW,
            "ptxas newer than the driver",
            "XLA compiles with the ptxas it finds; PTX from a ptxas newer than the driver "
            "supports fails to load ('the provided PTX was compiled with an unsupported "
            "toolchain').",
            "https://docs.nvidia.com/deploy/cuda-compatibility/index.html",
        ),
        define(
            LIBDEVICE_MISSING,
            "XLA cannot find libdevice",
            "XLA's GPU compiler needs libdevice.10.bc from a CUDA toolkit or the nvidia-cuda-nvcc"
            " wheel ('libdevice not found at ./libdevice.10.bc').",
            "https://www.tensorflow.org/xla",
        ),
        define(
            PTXAS_MISSING,
            "XLA cannot find ptxas",
            "XLA compiles GPU code with ptxas from a CUDA toolkit or the nvidia-cuda-nvcc wheel; "
            "without it, it falls back to the driver's slower compiler or fails.",
            "https://www.tensorflow.org/xla",
        ),
        define(
            PTXAS_TOO_OLD,
            "The ptxas XLA ran is too old for this GPU",
            "XLA compiles GPU kernels for the GPU's own architecture (sm_86 for compute "
            "capability 8.6) with the first ptxas it finds: on PATH first, then in its CUDA "
            "roots (/usr/local/cuda; the nvidia-cuda-nvcc wheel beside TensorFlow in the "
            "releases whose and-cuda extra ships it, 2.14 on), never by $CUDA_HOME. A ptxas "
            "from a CUDA release older than the GPU refuses the architecture ('Value 'sm_86' "
            "is not defined for option 'gpu-name''); "
            "TensorFlow then falls back to the driver's slower compiler, or the step fails.",
            NVCC_GPU_FEATURES,
            "https://github.com/tensorflow/serving/issues/1821",
        ),
        define(
            XLA_CODE_UNCOMPILABLE,
            "Code XLA cannot compile",
            "A function compiled with XLA (jit_compile=True, Keras' jit_compile, "
            "auto-clustering, every TPU step) holds something XLA's known limitations exclude: "
            "a while loop or TensorArray without a fixed bound, a shape or axis computed at run "
            "time, a TensorArray that crosses the compiled function's edge, a variable on "
            "another device than the compiled function (or, read from a function tf.data "
            "ran, a model called inside dataset.map, on the host, with its variables on the "
            "GPU). The installation is fine; the code, or where XLA compiles it, has to "
            "change.",
            XLA_KNOWN_ISSUES,
        ),
    )
)


def ptxas_fix(m: Machine, logged_driver: Optional[str] = None, ptxas: Optional[str] = None) -> Fix:
    """A driver new enough for the PTX, or a ptxas of the driver's CUDA first on PATH.

    ``logged_driver`` and ``ptxas``: the driver's CUDA version and the ptxas version XLA's
    line states ("The NVIDIA driver's CUDA version is 12.4 which is older than the PTX
    compiler version 12.5.82"), where the machine's facts do not show the driver.
    """
    drv = m.facts.driver
    driver_cuda = (drv.cuda_version if drv is not None else None) or logged_driver
    uses = f"ptxas {ptxas}" if ptxas else "the ptxas XLA uses"
    key = version_key(driver_cuda) if driver_cuda else ()
    if len(key) < 2:
        return Fix(
            "Upgrade the NVIDIA driver to one that supports the CUDA version of the ptxas XLA "
            "uses, or put a ptxas of the driver's CUDA version (or older) first on PATH.",
            ("nvidia-smi", "ptxas --version"),
        )
    upgrade = (
        f"Upgrade the NVIDIA driver to one that supports the CUDA version of {uses} (the "
        f"driver runs CUDA {driver_cuda})"
    )
    spec, refused, _ = _nvcc_wheel(m, f"{key[0]}.{key[1]}")
    looks = ("nvidia-smi", "which -a ptxas", "ptxas --version")
    finds, said = _wheel_lookup(m)
    if spec is None or finds is False:
        # No wheel pip would install here, or a TensorFlow that does not look for one: a
        # toolkit of the driver's release instead.
        why = refused or f"the CUDA compiler wheel: {said}"
        return Fix(
            f"{upgrade}, or put a ptxas of CUDA {driver_cuda} or older (a CUDA toolkit's bin "
            f"directory) first on PATH ({why}).",
            looks,
        )
    text = (
        f"{upgrade}, or use a ptxas of CUDA {driver_cuda} or older: the CUDA compiler wheel of "
        f"that version, which XLA runs only when no ptxas on PATH comes first ({PATH_FIRST}"
        + (f"; {said})." if said else ").")
    )
    return Fix(text, (*looks, *m.pip_install(spec)))


def _nvcc_wheel(m: Machine, release: str, newer: bool = False) -> tuple[Optional[str], str, bool]:
    """The CUDA compiler wheel of CUDA ``release`` (X.Y: ``==X.Y.*``; with ``newer``, that
    release or newer), where pip can install it here: a release NVIDIA published as that wheel
    (data/cuda.yaml) which the installed TensorFlow's and-cuda extra admits (its matrix line:
    2.18 and 2.19 pin nvidia-cuda-nvcc-cu12==12.5.82). Else None, with why, and whether
    TensorFlow's pin is why."""
    major = version_key(release)[0]
    name = wheel_name("nvidia-cuda-nvcc", major)
    first = wheel_first_release("nvidia-cuda-nvcc", major)
    below = first is not None and version_key(release)[:2] < version_key(first)[:2]
    if first is None or (below and not newer):
        return None, f"NVIDIA publishes no CUDA compiler wheel of CUDA {release}", False
    spec = f">={first if below else release}" if newer else f"=={release}.*"
    pin = _nvcc_pin(m, name)
    if m.line is not None and pin and not ranges_meet(pin, spec):
        return None, f"TensorFlow {m.line.line}'s and-cuda extra pins {name}{pin}", True
    return f"{name}{spec}", "", False


def _nvcc_pin(m: Machine, name: str) -> str:
    """The range the installed line's and-cuda extra declares on the CUDA compiler wheel
    ``name`` (2.15: ``==12.2.140``; 2.18 and 2.19: ``==12.5.82``), empty where it declares
    none or no line is known."""
    return (m.line.declared(name) if m.line is not None else None) or ""


#: Names ``$CUDA_HOME`` as XLA's CUDA root, keeping the user's other XLA flags.
XLA_AT_CUDA_HOME = 'export XLA_FLAGS="${XLA_FLAGS:+$XLA_FLAGS }--xla_gpu_cuda_data_dir=$CUDA_HOME"'


#: TensorFlow's guide for conda (2.11-2.14): libdevice where XLA's data dir layout expects it
#: (nvvm/libdevice under the directory the flag names), and the flag naming that directory.
_CONDA_LIBDEVICE = (
    "mkdir -p $CONDA_PREFIX/lib/nvvm/libdevice",
    "cp $CONDA_PREFIX/lib/libdevice.10.bc $CONDA_PREFIX/lib/nvvm/libdevice/",
)


def libdevice_fix(m: Machine, data_dir: Optional[str] = None) -> Fix:
    """libdevice where XLA looks: the one found here, conda's, or the CUDA compiler wheel's;
    ``data_dir``: the directory the log shows XLA_FLAGS' ``--xla_gpu_cuda_data_dir`` set to,
    which XLA searched first and found no libdevice in.

    Never a directory XLA searches already (it would change nothing), and the user's other
    ``XLA_FLAGS`` are kept.
    """
    flags = m.xla_flags_for_libdevice
    if flags is not None:
        return Fix(
            f"Point XLA at the libdevice found under {m.libdevice_root}, where it does not "
            "look by itself.",
            set_env(m, ("XLA_FLAGS", flags)),
        )
    if data_dir is not None:
        return _data_dir_without_libdevice_fix(m, data_dir)
    if m.in_conda:
        return Fix(
            "Point XLA at the conda environment's CUDA files (TensorFlow's guide for conda).",
            (
                *_CONDA_LIBDEVICE,
                'export XLA_FLAGS="${XLA_FLAGS:+$XLA_FLAGS }'
                '--xla_gpu_cuda_data_dir=$CONDA_PREFIX/lib"',
            ),
        )
    major = version_key(m.build_cuda)[0] if m.build_cuda else None
    if major is None:
        return Fix(
            "Install libdevice with the CUDA compiler wheel of TensorFlow's CUDA major "
            "(nvidia-cuda-nvcc-cu12 for CUDA 12, -cu11 for CUDA 11): XLA finds it in "
            "site-packages by itself. Or, where $CUDA_HOME is a CUDA toolkit that has "
            "nvvm/libdevice (XLA does not look there by itself), point XLA at it:",
            (XLA_AT_CUDA_HOME,),
        )
    return install_fix(
        m,
        "Install libdevice with the CUDA compiler wheel (XLA finds it in site-packages).",
        wheel_name("nvidia-cuda-nvcc", major),
    )


def _data_dir_without_libdevice_fix(m: Machine, data_dir: str) -> Fix:
    """XLA_FLAGS' ``--xla_gpu_cuda_data_dir`` names ``data_dir``, which XLA searched first
    (CandidateCudaRoots(preferred_location), tsl/platform/cuda_root_path.h) and found no
    nvvm/libdevice in: a flag exported for another environment or toolkit stays set in the
    shell (~/.bashrc, another conda environment's activate script) until it is changed."""
    text = (
        f"XLA_FLAGS sets --xla_gpu_cuda_data_dir={data_dir}, the directory XLA searches first "
        "for nvvm/libdevice/libdevice.10.bc, and XLA found none there: the flag names another "
        "environment's or toolkit's directory, or one without that layout. Point it at the "
        "directory above the nvvm/libdevice that holds libdevice.10.bc"
    )
    if m.in_conda:
        return Fix(
            text + " (in this conda environment, its own lib directory after copying "
            "libdevice.10.bc into lib/nvvm/libdevice, TensorFlow's guide for conda; set the "
            "flag in the environment's activate script so it changes with the environment).",
            (
                *_CONDA_LIBDEVICE,
                'export XLA_FLAGS="$(echo "$XLA_FLAGS" | sed -E '
                "'s/--xla_gpu_cuda_data_dir=[^ ]*//') "
                '--xla_gpu_cuda_data_dir=$CONDA_PREFIX/lib"',
            ),
        )
    return Fix(
        text + ", or remove the flag from XLA_FLAGS where libdevice is where XLA looks by "
        "itself (the CUDA compiler wheel beside TensorFlow, /usr/local/cuda).",
        (
            'echo "$XLA_FLAGS"',
            f"ls {shell_word(data_dir)}/nvvm/libdevice",
            "find / -name 'libdevice*.bc' -not -path '/proc/*' 2>/dev/null",
        ),
    )


def ptxas_install_fix(m: Machine) -> Fix:
    """ptxas from the CUDA compiler wheel of the build's CUDA major."""
    major = version_key(m.build_cuda)[0] if m.build_cuda else None
    # NVIDIA's CUDA images come as base, runtime and devel: only devel carries the compiler
    # tools (nvcc, ptxas) (the nvidia/cuda image's description on Docker Hub).
    image = (
        " In this container, an image built FROM a CUDA -devel tag (the base and runtime tags "
        "carry no ptxas) has it on PATH already."
        if m.container
        else " Where this runs in a container, build its image FROM a CUDA -devel tag: the "
        "base and runtime tags carry no ptxas."
    )
    if major is None:
        return Fix(
            "Install ptxas with the CUDA compiler wheel of TensorFlow's CUDA major "
            "(nvidia-cuda-nvcc-cu12 or -cu11), or put a CUDA toolkit's bin directory on PATH."
            + image,
            ("which -a ptxas",),
        )
    return install_fix(
        m,
        "Install ptxas with the CUDA compiler wheel of TensorFlow's CUDA version." + image,
        wheel_name("nvidia-cuda-nvcc", major),
    )


def ptxas_old_fix(
    m: Machine,
    architecture: Optional[str],
    tool: str = "ptxas",
    shown: Optional[tuple[str, str, str]] = None,
    path: Optional[str] = None,
    dropped: Optional[tuple[int, str]] = None,
) -> Fix:
    """A ``tool`` (ptxas, or nvcc compiling a project's CUDA code) from a CUDA release that
    knows ``architecture`` (``sm_86``), first in line; ``shown``: what XLA's line says of the
    ptxas it runs (``too-old`` or ``miscompiles``, its version, the release it names);
    ``path``: where XLA says that ptxas is; ``dropped``: the CUDA major that no longer
    compiles for the architecture and the oldest it does (``(13, "7.5")``), where the log does
    not show the toolkit's release: then the compiler may be too new as well as too old."""
    if shown is not None and tool == "ptxas" and architecture is None:
        return _ptxas_version_fix(m, *shown)
    first = _first_cuda_of(architecture) if architecture else None
    # Where a later major dropped the architecture, the toolkits that know it end before it.
    upto = f" to {dropped[0] - 1}.x" if dropped is not None else " or newer"
    knows = (
        f"that knows {architecture} (CUDA {first}{upto}: NVIDIA's GPU feature list)"
        if first
        else f"that knows {architecture} (NVIDIA's GPU feature list)"
        if architecture
        else "at least as new as the one TensorFlow was built with (its tested configurations)"
    )
    if tool == "nvcc" and dropped is not None and architecture:
        major, oldest = dropped
        # Between the first CUDA that knew the architecture and the last before the drop:
        # the toolkits that compile for it.
        between = f"CUDA {first} to {major - 1}.x" if first else f"CUDA {major - 1}.x or older"
        return Fix(
            f"The CUDA compiler (nvcc) building this code does not know {architecture}, and the "
            "log does not show its release, which tells the two candidates apart (`nvcc "
            "--version`; `nvcc --list-gpu-arch` lists what it knows): an nvcc older than the "
            f"architecture, or one of CUDA {major} or newer, which compiles for no GPU older "
            f"than compute capability {oldest} ({drop_words(major)}). Either way, use an nvcc "
            f"from a toolkit of {between}, which knows {architecture} (its bin first on PATH, or "
            "CUDA_HOME pointing at it; in a container, an image of that CUDA), then build "
            f"again; or build for a GPU of compute capability {oldest} or newer.",
            ("nvcc --version", "which -a nvcc", "nvcc --list-gpu-arch"),
        )
    if tool == "nvcc":
        return Fix(
            f"The CUDA compiler building this code is older than the GPU: use an nvcc from a "
            f"CUDA toolkit {knows} (a newer toolkit first on PATH, or CUDA_HOME pointing at it; "
            "in a container, an image of a newer CUDA), then build again.",
            ("which -a nvcc", "nvcc --version", "nvcc --list-gpu-arch"),
        )
    if path and _in_packages(path) and nvcc_wheel_dir() in path and architecture:
        return _nvcc_wheel_old_fix(m, architecture, path)
    old = f"the old one XLA ran, {path}," if path else "the old one"
    fix = _clear_path_fix(
        m,
        f"Use a ptxas from a CUDA release {knows}: find {old} (an old CUDA toolkit's bin on "
        "PATH) and take its directory off PATH, or put a newer toolkit's bin ahead of it",
        first,
    )
    if dropped is None or not architecture:
        return fix
    major, oldest = dropped
    return Fix(
        f"{fix.text} Or, where that ptxas is of CUDA {major} or later (`ptxas --version` "
        f"tells), which compiles for no GPU older than compute capability {oldest} "
        f"({drop_words(major)}), {architecture} is too old for it "
        f"and a newer ptxas cannot help: put a CUDA {major - 1} toolkit's bin first on PATH "
        "instead.",
        fix.commands,
    )


#: Why a ptxas on PATH wins over the CUDA compiler wheel whatever the release: XLA's
#: FindCudaExecutable first tried the bare name on PATH, before any CUDA root, where
#: PreferPtxasFromPath() is true, as it is outside Google (TensorFlow's
#: compiler/xla/stream_executor/gpu/asm_compiler.cc); later XLA lists --xla_gpu_cuda_data_dir's
#: bin, then PATH, then the CUDA roots, and skips only a ptxas older than 11.8 or the buggy
#: 12.3.103 (xla/stream_executor/cuda/subprocess_compilation.cc). The wheel is one of those
#: roots, ../nvidia/cuda_nvcc beside TensorFlow's library (CandidateCudaRoots,
#: tsl/platform/default/cuda_libdevice_path.cc, beside TF_CUDA_TOOLKIT_PATH, /usr/local/cuda
#: and, later, /opt/cuda and a conda prefix; no environment variable such as CUDA_HOME).
PATH_FIRST = "XLA takes a ptxas on PATH before the wheel"


def _ships_nvcc(line: TFLine) -> bool:
    """Whether ``line``'s and-cuda extra ships the CUDA compiler wheel (2.14 on, the matrix)."""
    return any(name.startswith("nvidia-cuda-nvcc") for name in (line.and_cuda or {}))


def _wheel_lookup(m: Machine) -> tuple[Optional[bool], str]:
    """Whether the installed TensorFlow looks for the CUDA compiler wheel beside itself (a
    line whose and-cuda extra ships it, built with the CandidateCudaRoots that name
    ``nvidia/cuda_nvcc``), None where no line is known; with the words that say so from the
    matrix (the oldest line that looks), empty where the matrix names none."""
    lines = [line.line for line in (m.matrix.lines if m.matrix else ()) if _ships_nvcc(line)]
    first = min(lines, key=version_key) if lines else None
    if m.line is None:
        said = f"TensorFlow {first} and newer look for it" if first else ""
        return None, said
    if _ships_nvcc(m.line):
        return True, f"TensorFlow {m.line.line} looks for it"
    said = f"TensorFlow {m.line.line} does not look for it" + (
        f"; {first} and newer do" if first else ""
    )
    return False, said


def _clear_path_fix(m: Machine, text: str, floor: Optional[str] = None) -> Fix:
    """``text`` (a ptxas to take off PATH), then the CUDA compiler wheel of the build's CUDA
    major unless the installed TensorFlow does not look for it, or pins it below ``floor``
    (the CUDA release the ptxas must be at least)."""
    looks = ("which -a ptxas", "ptxas --version")
    major = version_key(m.build_cuda)[0] if m.build_cuda else None
    finds, said = _wheel_lookup(m)
    if major is None or finds is False:
        return Fix(f"{text}" + (f" (the CUDA compiler wheel: {said})." if said else "."), looks)
    name = wheel_name("nvidia-cuda-nvcc", major)
    pin = _nvcc_pin(m, name)
    if pin and floor and not ranges_meet(pin, f">={floor}"):
        return Fix(
            f"{text} (TensorFlow's and-cuda extra pins {name}{pin}, older than CUDA {floor}: "
            "no wheel it allows serves).",
            looks,
        )
    return Fix(
        f"{text}; or, with it off PATH, install the CUDA compiler wheel, which XLA finds "
        f"beside TensorFlow ({PATH_FIRST}" + (f"; {said})." if said else ")."),
        (*looks, *m.pip_install(f"{name}{pin}")),
    )


def _in_packages(path: str) -> bool:
    """Whether ``path`` lies in a Python's packages: site-packages, or dist-packages where
    Debian's Python (and TensorFlow's own images) install pip's packages."""
    return "site-packages" in path or "dist-packages" in path


def _first_cuda_of(architecture: str) -> Optional[str]:
    """The first CUDA release that knows ``architecture`` (``sm_89``: 11.8), from the CUDA
    table (data/cuda.yaml), or None where the table does not state it.

    The table states plain targets only: an architecture-specific one (``sm_90a``: CUDA 12.0,
    where 11.8 knows sm_90) or a family one (``sm_120f``: CUDA 12.9) came later than its base,
    so a suffix gets no release named."""
    digits = architecture.removeprefix("sm_")
    if len(digits) < 2 or not digits.isdigit():
        return None
    return first_cuda_for(f"{digits[:-1]}.{digits[-1]}")


def _nvcc_wheel_old_fix(m: Machine, architecture: str, path: str) -> Fix:
    """The CUDA compiler wheel XLA ran (``path`` under site-packages) is older than the GPU:
    a release of it that knows ``architecture``, the first CUDA of that architecture from the
    CUDA table, where TensorFlow's requirements allow it."""
    first = _first_cuda_of(architecture)
    release = f"CUDA {first} or newer" if first else f"a CUDA release that knows {architecture}"
    looks = ("ptxas --version", *m.pip("show tensorflow"))
    spec, refused, pinned = _nvcc_wheel(m, first, newer=True) if first else (None, "", False)
    ran = (
        f"XLA ran the ptxas of the CUDA compiler wheel ({path}), which does not know {architecture}"
    )
    if pinned and first:
        # The installed TensorFlow's pin keeps the wheel where it is: a toolkit's ptxas.
        admits = _first_line_admitting(
            m, wheel_name("nvidia-cuda-nvcc", version_key(first)[0]), f">={first}"
        )
        return Fix(
            f"{ran}, and {refused}: put the bin directory of a {release} toolkit (NVIDIA's GPU "
            "feature list) first on PATH, or move to a TensorFlow whose and-cuda extra allows "
            "that wheel" + (f" (TensorFlow {admits} or newer)." if admits else "."),
            ("which -a ptxas", *looks),
        )
    text = (
        f"{ran}: install that wheel of {release} (NVIDIA's GPU feature list), where "
        "TensorFlow's requirements allow it (`pip show tensorflow` names its pin), or put a "
        "CUDA toolkit of that release's bin directory first on PATH."
    )
    if spec is None:
        return Fix(text, looks)
    return Fix(text, (*looks, *m.pip_install(spec)))


def _first_line_admitting(m: Machine, name: str, spec: str) -> Optional[str]:
    """The oldest TensorFlow line of the matrix whose and-cuda extra admits ``name`` at
    ``spec``, newer than the installed one (``2.20``); None where none does."""
    if m.matrix is None or m.line is None:
        return None
    installed = version_key(m.line.line)
    fits = [
        line.line
        for line in m.matrix.lines_pinning(name, lambda pin: ranges_meet(pin, spec))
        if version_key(line.line) > installed
    ]
    return min(fits, key=version_key) if fits else None


def _ptxas_version_fix(m: Machine, problem: str, ptxas: str, other: str) -> Fix:
    """A ptxas newer than the ``ptxas`` XLA's line names: past ``other``, the newest release
    XLA knows to miscompile (``miscompiles``), or at least ``other``, XLA's floor."""
    looks = ("which -a ptxas", "ptxas --version")
    if problem == "miscompiles":
        # XLA compiles and runs with it (ptx_compiler_helpers.cc warns only); TensorFlow 2.18
        # and 2.19 pin nvidia-cuda-nvcc-cu12==12.5.82 in their and-cuda extra (setup.py), so
        # the wheel can move only where TensorFlow's requirements let it.
        return Fix(
            f"XLA runs ptxas {ptxas}, of a CUDA release up to {other}, which XLA knows to "
            "miscompile some edge cases around clamping; it compiles and runs. For exact "
            f"results, put a ptxas of a CUDA release newer than {other} first: a newer CUDA "
            "toolkit's bin directory on PATH, or the CUDA compiler wheel of a newer release "
            "where TensorFlow's requirements allow it (`pip show tensorflow` names its pin).",
            looks,
        )
    return _clear_path_fix(
        m,
        f"XLA runs ptxas {ptxas}, older than {other}, the release XLA needs: put a ptxas of "
        f"CUDA {other} or newer first (take the old CUDA toolkit's bin off PATH, or put a "
        "newer one's ahead of it)",
        other,
    )


def pluggable_xla_fix() -> Fix:
    """The optimizer step without XLA, which a pluggable device does not have."""
    # Keras 2.11's optimizers (keras/optimizers/optimizer.py) default to jit_compile=True
    # where a GPU is present; a PluggableDevice (tensorflow-metal, DirectML) registers no XLA
    # platform, so the compiled update step fails (TensorFlow issue 58988).
    return Fix(
        "The Keras optimizers of TensorFlow 2.11 and later compile their update step with XLA "
        "when a GPU is present, and a pluggable device (tensorflow-metal, DirectML) has no XLA "
        "platform: use tf.keras.optimizers.legacy.<Name> (TensorFlow 2.11 to 2.15), or create "
        "the optimizer with jit_compile=False (and compile the model with jit_compile=False)."
    )


#: How to compile a function without XLA, wherever XLA was asked for.
WITHOUT_XLA = (
    "compile that function without XLA. Remove jit_compile=True from its @tf.function, or pass "
    "jit_compile=False to Keras' model.compile() (Keras 3 compiles with XLA by default where it "
    "can), and unset TF_XLA_FLAGS where it turns on auto-clustering (--tf_xla_auto_jit)."
)

_CONSTANT_NEEDED = (
    "Make the shape, axis or size the error names a value known when the function "
    "compiles: a Python number, or a tensor computed from constants only, not from an "
    "input, a variable or a random op; an index of a tf.range loop that feeds one needs "
    "the loop unrolled (a Python range)."
)

#: XLA's known limitations, by the name of the message that reports each, with the change
#: to the code XLA's page gives for it (https://www.tensorflow.org/xla/known_issues).
XLA_LIMITS: Mapping[str, str] = {
    # tf2xla/kernels/tensor_list_ops.cc: "XLA compilation requires a fixed tensor list size".
    "xla-tensor-list-unbounded": (
        "Bound every loop in the compiled function: give tf.while_loop a maximum_iterations "
        "known when it compiles (for a `for i in tf.range(n)` loop under AutoGraph, "
        "tf.autograph.experimental.set_loop_options(maximum_iterations=N) as its first "
        "statement) and each tf.TensorArray a fixed size (not dynamic_size=True), or build "
        "the loop with back_prop=False where no gradient flows through it."
    ),
    # tf2xla/xla_op_kernel.cc: "Input N to node `X` with op Y must be a compile-time constant.
    # XLA compilation requires that operator arguments that represent shapes or dimensions be
    # evaluated to concrete values at compile time" (either sentence may come alone).
    "xla-input-not-constant": _CONSTANT_NEEDED,
    "xla-shape-not-constant": _CONSTANT_NEEDED,
    # compiler/jit/xla_launch_util.cc: "Trying to access resource X located in device CPU:0
    # from device GPU:0\n Cf. https://www.tensorflow.org/xla/known_issues#tfvariable_on_a_
    # different_device": a compiled cluster runs on one device and reads its variables there.
    "xla-variable-on-other-device": (
        "Create the variable the error names on the device the compiled function runs on "
        "(under tf.device('/GPU:0')): a compiled function reads variables of its own device "
        "only. An int32 tf.Variable is always placed on the host: make it int64."
    ),
    # "Support for TensorList crossing the XLA/TF boundary is not implemented".
    "xla-tensorlist-crosses-boundary": (
        "Compile the outermost function, the one that takes the gradient (jit_compile=True "
        "on the function holding the tf.GradientTape, not on a function it calls), so the "
        "TensorArray stays inside one compiled function."
    ),
}


#: The refusal read from a function tf.data ran (``Error in user-defined function passed to
#: ParallelMapDatasetV2``, framework/dataset.h): a model called in the input pipeline.
IN_DATASET_MAP: Final = "xla-variable-in-dataset-map"


def dataset_map_model_fix() -> Fix:
    """A model or layer called inside ``dataset.map``, whose variables live on the GPU."""
    # tf.data runs its functions on the host (the iterator's CPU device, the message's "from
    # device CPU:0"); a model built where a GPU is visible has its variables on the GPU, and a
    # Keras 3 random layer's seed state is one. Creating the variables on the host, or calling
    # the model on the batches outside the pipeline, keeps a function reading its own device.
    return Fix(
        "A model or layer is called inside dataset.map: tf.data runs that function on the "
        "host CPU, and the variables of the model (its weights, a random layer's seed state) "
        "were created on the GPU. Call it on the batches outside the pipeline instead (put "
        "the layers in the model, or call them in the training step), or build the model or "
        "layers the pipeline uses under `with tf.device('/CPU:0'):` so that their variables "
        "live on the host."
    )


def xla_code_fix(limits: Collection[str]) -> Fix:
    """The change to the code for each of XLA's ``limits`` the log shows (names of
    :data:`XLA_LIMITS`), or, off a TPU, compiling the function without XLA; a variable read
    from a function tf.data ran (:data:`IN_DATASET_MAP`) is a model in the input pipeline."""
    if IN_DATASET_MAP in limits:
        return dataset_map_model_fix()
    steps = dict.fromkeys(text for name, text in XLA_LIMITS.items() if name in limits)
    # A TPU runs only what XLA compiled (TPUStrategy compiles every step): there is no
    # uncompiled way, so the change to the code is the only one there (as op_kernel_fix says
    # for an op XLA has no kernel for).
    return Fix(
        " ".join(
            (
                *steps,
                f"Or, on a CPU or GPU, {WITHOUT_XLA} On a TPU, where every step is compiled, "
                "change the code as above instead.",
            )
        ),
        ('echo "TF_XLA_FLAGS=$TF_XLA_FLAGS"',),
    )
