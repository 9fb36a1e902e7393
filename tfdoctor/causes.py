"""The catalogue of causes: each cause once, with its explanation, its fix builder and sources.

Checks decide which causes the evidence shows and attach them to findings; the words and the
fix come from here, fitted to the examined machine (:class:`tfdoctor.machine.Machine`): the
package actually installed, the environment kind (conda commands only inside conda, a virtual
environment where the system Python is externally managed), the release's own way of getting
its CUDA libraries (from the matrix), and copies of a library the loader cannot see. ``explain``
and ``scan`` name the same causes, so one cause has one fix.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Optional

from tfdoctor.compat import DriverFloor, first_keras3_line
from tfdoctor.cuda_layout import wheel_name
from tfdoctor.facts import (
    FoundLibrary,
    LibraryCandidate,
    LibraryFacts,
    PackageFacts,
    normalize_name,
)
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import TFLine, version_key
from tfdoctor.records import Record, record

TF_PIP_GUIDE = "https://www.tensorflow.org/install/pip"
CUDA_ARCHIVE = "https://developer.nvidia.com/cuda-toolkit-archive"
CUDNN_ARCHIVE = "https://developer.nvidia.com/rdp/cudnn-archive"
NVIDIA_CONTAINER_TOOLKIT = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)


@record
class Cause(Record):
    """One root cause: what it is, why it breaks TensorFlow, where that is documented."""

    id: str
    title: str
    explanation: str
    links: tuple[str, ...] = ()
    #: Kinds of observation (:data:`tfdoctor.machine.OBSERVATION_KINDS`) that show the opposite
    #: of what this cause claims: where TensorFlow showed one, a finding resting on the cause is
    #: at most a note (:mod:`tfdoctor.checks.observed`). Filled from :data:`CONTRADICTED_BY`.
    contradicted_by: tuple[str, ...] = ()


#: Observed beats inferred, the one relation: each kind of observation, and the causes whose
#: claim it refutes. "TensorFlow cannot import" falls to an import that ran; "TensorFlow cannot
#: use the GPU" to a GPU in its device list; "this GPU is ignored" to a list with every GPU;
#: "GPU kernels (convolutions, XLA's) cannot run" to the smoke test running them there.
CONTRADICTED_BY: Mapping[str, tuple[str, ...]] = {
    "tf-imports": (
        "tf-not-installed",
        "tf-no-wheel-for-python",
        "tf-shadowed-module",
        "numpy-abi",
        "protobuf-incompatible",
        # Not dependency-missing: it also names requirements TensorFlow imports only when a
        # feature is used, which an import that ran does not refute (its check already weighs
        # the import for the ones imported at start).
        "cpu-lacks-avx",
        "cpu-emulated",
        "glibc-too-old",
        "msvc-runtime-missing",
        "python-32bit",
        "import-failed-unknown",
        "import-crash",
        "import-hang",
    ),
    "tf-lists-gpu": (
        "tf-cpu-only-build",
        "windows-native-gpu-ended",
        "wsl1",
        "driver-not-loaded",
        "driver-libraries-missing",
        "driver-version-mismatch",
        "driver-no-permission",
        "driver-too-old",
        "cuinit-unknown-error",
        "container-no-gpu",
        "cuda-libs-missing",
        "cuda-libs-off-path",
        "cuda-wheels-unfound",
        "conda-cuda-mismatch",
        "gpu-unseen-no-reason",
        "cuda-visible-devices-hidden",
    ),
    "tf-lists-every-gpu": ("gpu-arch-unsupported",),
    "gpu-kernels-ran": ("gpu-known-failure", "gpu-arch-unsupported", "gpu-ptx-driver-too-old"),
    "gpu-conv-ran": ("cudnn-version-mismatch", "cudnn-shadowed", "gpu-library-init-failed"),
    "gpu-xla-ran": ("ptxas-too-new", "ptxas-too-old", "ptxas-missing", "libdevice-missing"),
}


def _c(cid: str, title: str, explanation: str, *links: str) -> tuple[str, Cause]:
    refuted_by = tuple(kind for kind, ids in CONTRADICTED_BY.items() if cid in ids)
    return cid, Cause(cid, title, explanation, links, refuted_by)


#: Every cause, by id. Ids are stable: reports, ``explain`` and ``scan`` name them.
CAUSES: Mapping[str, Cause] = dict(
    (
        _c(
            "tf-not-installed",
            "TensorFlow is not installed",
            "No distribution that provides `import tensorflow` is installed in this environment.",
            TF_PIP_GUIDE,
        ),
        _c(
            "tf-multiple-distributions",
            "Several TensorFlow distributions installed",
            "Each writes the same `tensorflow/` package; the last one installed won file by file,"
            " so the import may mix releases. Uninstalling one also deletes files the other "
            "needs: remove all, then install one.",
        ),
        _c(
            "tf-gpu-package-removed",
            "The removed tensorflow-gpu package",
            "tensorflow-gpu ended with 2.11; GPU support on Linux comes with the plain "
            "`tensorflow` wheel.",
            "https://pypi.org/project/tensorflow-gpu/",
        ),
        _c(
            "tf-no-wheel-for-python",
            "No TensorFlow wheel for this Python or platform",
            "pip finds no TensorFlow release built for this interpreter ('No matching "
            "distribution found for tensorflow').",
            "https://www.tensorflow.org/install/source#tested_build_configurations",
        ),
        _c(
            "tf-cpu-only-build",
            "A CPU-only TensorFlow on a machine with an NVIDIA GPU",
            "CPU builds (tensorflow-cpu; plain tensorflow 1.15 and 2.0, whose GPU build is "
            "tensorflow-gpu; the Linux aarch64, native Windows 2.11+ and macOS wheels) never use "
            "CUDA GPUs.",
            TF_PIP_GUIDE,
        ),
        _c(
            "tf-shadowed-module",
            "`import tensorflow` loads another module",
            "A `tensorflow` folder or `tensorflow.py` earlier on sys.path (the working directory,"
            " PYTHONPATH, a .pth entry or the user site) is imported instead of the installed "
            "distribution.",
            "https://docs.python.org/3/library/sys_path_init.html",
        ),
        _c(
            "wheel-mismatch",
            "A wheel built for another Python or platform",
            "The installed wheel's tags (its WHEEL file) name another Python version or machine "
            "than the examined interpreter's, so its compiled modules do not load there. pip "
            "never picks such a wheel itself: a site-packages copied between images or "
            "interpreters, or `pip install --target` with `--python-version` or `--platform`, "
            "leaves one behind.",
            "https://packaging.python.org/en/latest/specifications/platform-compatibility-tags/",
        ),
        _c(
            "windows-native-gpu-ended",
            "No GPU support on native Windows after TensorFlow 2.10",
            "GPU support on native Windows ended with TensorFlow 2.10; later releases run on the "
            "CPU there. WSL2 runs the Linux wheels with the GPU.",
            "https://www.tensorflow.org/install/pip#windows-native",
        ),
        _c(
            "numpy-abi",
            "NumPy 2 under a TensorFlow built for NumPy 1",
            "NumPy 2 changed its C ABI: TensorFlow releases whose declared range excludes NumPy 2"
            " were compiled against NumPy 1.x and fail to import ('compiled using NumPy 1.x "
            "cannot be run in NumPy 2').",
            "https://numpy.org/devdocs/numpy_2_0_migration_guide.html",
        ),
        _c(
            "dependency-out-of-range",
            "A dependency outside TensorFlow's declared range",
            "The installed version is outside the range TensorFlow's wheel declares (`pip check` "
            "reports it too).",
        ),
        _c(
            "dependency-missing",
            "A package TensorFlow requires is not installed",
            "TensorFlow's metadata requires it; one that `import tensorflow` imports before "
            "anything else runs fails the import with ModuleNotFoundError, another fails the "
            "feature that uses it. `pip install --no-deps`, a partial copy of site-packages or "
            "an uninstall leaves it out (`pip check` reports it too).",
        ),
        _c(
            "protobuf-incompatible",
            "protobuf incompatible with TensorFlow",
            "TensorFlow's generated code needs the protobuf runtime range it declares; a newer "
            "protobuf fails with 'Descriptors cannot be created directly'.",
            "https://protobuf.dev/news/2022-05-06/#python-updates",
        ),
        _c(
            "keras-version",
            "Keras does not match TensorFlow",
            "Keras 3 serves tf.keras only from TensorFlow 2.16 on; older TensorFlow needs Keras 2"
            " of its own line, and Keras 2 code under 2.16+ needs tf-keras.",
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
        ),
        _c(
            "tf-keras-missing",
            "Keras 2 (tf-keras) is needed but not installed",
            "From TensorFlow 2.16 tf.keras is Keras 3; Keras 2 is the separate tf-keras "
            "package. With TF_USE_LEGACY_KERAS=1 tf.keras is served by tf-keras, and libraries "
            "written for Keras 2 (transformers' TensorFlow models, among others) import it or "
            "refuse Keras 3: without tf-keras both fail.",
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
        ),
        _c(
            "tf-keras-mismatch",
            "tf-keras of another TensorFlow line",
            "tf-keras is released in step with TensorFlow; another line's tf-keras may not import.",
            "https://pypi.org/project/tf-keras/",
        ),
        _c(
            "companion-mismatch",
            "A companion package built for another TensorFlow",
            "Packages released with TensorFlow (tensorflow-text, tensorflow-io, "
            "tensorflow-decision-forests, TensorFlow Addons) declare the TensorFlow they were "
            "built against; with another, their compiled ops fail to load ('undefined symbol: "
            "_ZN10tensorflow...' in their .so: TensorFlow's C++ symbols change between minor "
            "releases) or their Python code calls what is not there.",
            "https://github.com/tensorflow/text#compatibility",
            "https://github.com/tensorflow/io#tensorflow-version-compatibility",
        ),
        _c(
            "cpu-lacks-avx",
            "The CPU lacks instructions the wheel needs",
            "TensorFlow's wheels are compiled for AVX (and newer lines for more); a CPU or VM "
            "without them dies with 'Illegal instruction'.",
            "https://www.tensorflow.org/install/pip#hardware_requirements",
        ),
        _c(
            "cpu-emulated",
            "The interpreter runs under CPU emulation",
            "An x86-64 Python under QEMU user-mode or Rosetta lacks AVX and runs TensorFlow "
            "slowly or not at all; a native interpreter or image for the host's architecture is "
            "the fix.",
            TF_PIP_GUIDE,
        ),
        _c(
            "glibc-too-old",
            "The C library is older than the wheel needs",
            "TensorFlow's Linux wheels declare a manylinux glibc floor; an older system cannot "
            "load them.",
        ),
        _c(
            "msvc-runtime-missing",
            "A native DLL does not load on Windows",
            "TensorFlow's Windows wheels need the Microsoft Visual C++ 2015-2022 runtime "
            "(msvcp140_1.dll), 64-bit Python and a CPU with AVX.",
            "https://www.tensorflow.org/install/pip#windows-native",
        ),
        _c(
            "python-32bit",
            "32-bit Python",
            "TensorFlow publishes 64-bit wheels only.",
        ),
        _c(
            "wsl1",
            "WSL 1 has no GPU access",
            "CUDA in WSL needs WSL 2.",
            "https://learn.microsoft.com/windows/wsl/install",
        ),
        _c(
            "driver-not-loaded",
            "The NVIDIA kernel driver is not loaded",
            "A GPU is on the PCI bus but the nvidia kernel module is not loaded (not installed "
            "for this kernel, blocked by Secure Boot, or nouveau holds the device).",
            "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/",
        ),
        _c(
            "driver-libraries-missing",
            "The NVIDIA driver's user-space libraries are missing",
            "The GPU's device nodes exist but libnvidia-ml.so.1 and libcuda.so.1 are not "
            "installed: a broken or partial driver installation.",
            "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/",
        ),
        _c(
            "driver-version-mismatch",
            "NVIDIA kernel module and libraries differ",
            "The loaded kernel module and the user-space driver libraries are different versions,"
            " typically after a driver upgrade without a reboot.",
        ),
        _c(
            "driver-no-permission",
            "No permission to open the NVIDIA devices",
            "This user cannot open /dev/nvidia*; CUDA then reports no device.",
        ),
        _c(
            "driver-too-old",
            "The NVIDIA driver is too old for the build's CUDA",
            "Each CUDA version needs a minimum driver; an older one makes TensorFlow report "
            "'driver version is insufficient' and use no GPU.",
            "https://docs.nvidia.com/deploy/cuda-compatibility/index.html",
        ),
        _c(
            "cuinit-unknown-error",
            "cuInit fails with CUDA_ERROR_UNKNOWN",
            "cuInit returns 999 most often after a suspend/resume cycle, when the nvidia_uvm "
            "module lost its state; reloading it restores CUDA.",
            "https://forums.developer.nvidia.com/t/cuda-fails-after-suspend/",
        ),
        _c(
            "container-no-gpu",
            "The container was started without GPU access",
            "Containers see a GPU only when started through the NVIDIA Container Toolkit (`docker"
            " run --gpus all`, a Kubernetes `nvidia.com/gpu` resource limit).",
            NVIDIA_CONTAINER_TOOLKIT,
        ),
        _c(
            "cuda-libs-missing",
            "CUDA libraries TensorFlow needs are not installed",
            "TensorFlow's GPU build loads the CUDA runtime, cuBLAS, cuFFT, cuSPARSE, cuSOLVER, "
            "cuRAND and cuDNN of its CUDA version at start; without them it skips the GPU "
            "('Cannot dlopen some GPU libraries').",
            TF_PIP_GUIDE,
        ),
        _c(
            "cuda-libs-off-path",
            "CUDA libraries installed where the loader does not look",
            "The libraries exist on this machine, but not on the dynamic loader's path "
            "(LD_LIBRARY_PATH, TensorFlow's RUNPATH, the ldconfig cache).",
            "https://man7.org/linux/man-pages/man8/ld.so.8.html",
        ),
        _c(
            "cuda-wheels-unfound",
            "This release does not find its own CUDA wheels",
            "The nvidia-* wheels its and-cuda extra installs are there, but this release's "
            "libraries do not search their directories.",
            "https://github.com/tensorflow/tensorflow/issues/63362",
        ),
        _c(
            "cudnn-shadowed",
            "Another cuDNN comes first on the loader's path",
            "The dynamic loader searches LD_LIBRARY_PATH before TensorFlow's RUNPATH and the "
            "ldconfig cache: a stray copy there wins over the right one.",
        ),
        _c(
            "cuda-lib-shadowed",
            "Another copy of a CUDA library comes first on the loader's path",
            "The dynamic loader searches LD_LIBRARY_PATH before TensorFlow's RUNPATH and the "
            "ldconfig cache: a copy of another version there wins over the pip wheel's.",
        ),
        _c(
            "cudnn-version-mismatch",
            "cuDNN of the wrong version",
            "TensorFlow refuses a cuDNN of another major, or an older minor than its build "
            "('Loaded runtime CuDNN library: X but source was compiled with: Y').",
            "https://www.tensorflow.org/install/source#gpu",
        ),
        _c(
            "conda-cuda-mismatch",
            "conda's CUDA is not the CUDA TensorFlow was built for",
            "The conda environment's CUDA packages are of another major version than "
            "TensorFlow's build; their libraries come first once the environment is active "
            "and do not serve it.",
            TF_PIP_GUIDE,
        ),
        _c(
            "cuda-wheel-pins",
            "NVIDIA wheels outside TensorFlow's pins",
            "The nvidia-* wheels differ from the versions TensorFlow's and-cuda extra pins, often"
            " because another framework in the environment pulled its own.",
            TF_PIP_GUIDE,
        ),
        _c(
            "gpu-arch-unsupported",
            "The wheel carries no code for this GPU",
            "TensorFlow ignores a GPU whose compute capability has neither machine code nor PTX "
            "in the wheel ('Ignoring visible gpu device ... with Cuda compute capability').",
            "https://developer.nvidia.com/cuda-gpus",
        ),
        _c(
            "gpu-ptx-jit",
            "The wheel has only PTX for this GPU",
            "Without machine code for the GPU the driver compiles every kernel from PTX at "
            "first use, which takes minutes; a release with machine code for it starts at once.",
            "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#just-in-time-compilation",
        ),
        _c(
            "gpu-ptx-driver-too-old",
            "The driver is too old for the wheel's PTX for this GPU",
            "Without machine code for the GPU every kernel is compiled from the wheel's PTX by "
            "the driver, which accepts PTX only from CUDA releases it supports: TensorFlow "
            "lists the GPU, then its kernels fail ('CUDA_ERROR_UNSUPPORTED_PTX_VERSION', 'the "
            "provided PTX was compiled with an unsupported toolchain').",
            "https://docs.nvidia.com/deploy/cuda-compatibility/index.html",
        ),
        _c(
            "gpu-known-failure",
            "This release is known to fail on this GPU",
            "Reported failures of the release's wheels on this GPU generation.",
            "https://github.com/tensorflow/tensorflow/issues/101746",
        ),
        _c(
            "gpu-memory-errors",
            "The GPU reports uncorrected memory errors",
            "Uncorrectable ECC errors mean the GPU returned corrupted memory: results are wrong "
            "and kernels crash until the pages are retired (at the next driver reload) or the "
            "card is replaced.",
            "https://docs.nvidia.com/deploy/dynamic-page-retirement/index.html",
        ),
        _c(
            "gpu-unseen-no-reason",
            "TensorFlow lists no GPU and the evidence does not say why",
            "The driver lists the GPUs and the libraries load, yet TensorFlow registers none; "
            "nothing collected names the cause, so its own log while it lists devices is the "
            "next evidence to read (tfdoctor explain reads it).",
        ),
        _c(
            "cuda-visible-devices-hidden",
            "CUDA_VISIBLE_DEVICES hides the GPUs",
            "CUDA numbers devices from 0 and stops at the first invalid entry: an empty, negative"
            " or out-of-range value hides every GPU.",
        ),
        _c(
            "ptxas-too-new",
            "ptxas newer than the driver",
            "XLA compiles with the ptxas it finds; PTX from a ptxas newer than the driver "
            "supports fails to load ('the provided PTX was compiled with an unsupported "
            "toolchain').",
            "https://docs.nvidia.com/deploy/cuda-compatibility/index.html",
        ),
        _c(
            "libdevice-missing",
            "XLA cannot find libdevice",
            "XLA's GPU compiler needs libdevice.10.bc from a CUDA toolkit or the nvidia-cuda-nvcc"
            " wheel ('libdevice not found at ./libdevice.10.bc').",
            "https://www.tensorflow.org/xla",
        ),
        _c(
            "import-failed-unknown",
            "TensorFlow fails to import",
            "The import failed with an error this tfdoctor does not recognise; the log shows "
            "where.",
        ),
        _c(
            "import-crash",
            "Importing TensorFlow crashed the interpreter",
            "Native code crashed during import; the evidence below says what is known.",
        ),
        _c(
            "import-hang",
            "Importing TensorFlow hangs",
            "The import did not finish in time; the evidence below says what is known.",
        ),
    )
)


def finding(
    check: str,
    severity: Severity,
    cause: str,
    summary: str,
    detail: str = "",
    fix: Optional[Fix] = None,
    links: tuple[str, ...] = (),
) -> Finding:
    """A finding resting on ``cause``: its id is the check's, its links start with the cause's."""
    known = CAUSES[cause]
    merged = tuple(dict.fromkeys((*links, *known.links)))
    return Finding(check, severity, summary, detail or known.explanation, fix, merged, cause=cause)


# --- fix builders -------------------------------------------------------------------------------


def install_fix(m: Machine, text: str, *specs: str) -> Fix:
    """``text`` and ``pip install "spec" ...`` for this environment."""
    return Fix(text, m.pip_install(*specs))


def range_fix(m: Machine, dist: str) -> Optional[Fix]:
    """Install TensorFlow's declared range of ``dist`` (the one rule for every pin fix)."""
    spec = m.declared_range(dist)
    installed = m.facts.package(dist)
    if spec is None or (installed is not None and _satisfies(installed.version, spec)):
        return None  # installing what is already installed changes nothing
    return install_fix(m, f"Install the {dist} range TensorFlow declares.", f"{dist}{spec}")


def _satisfies(version: str, spec: str) -> bool:
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415

    try:
        return version in SpecifierSet(spec)
    except InvalidSpecifier:
        return False


def _above_range(version: str, spec: str) -> bool:
    """``version`` is past an upper bound of ``spec`` (``<X``, ``<=X``, ``==X``)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    try:
        have = Version(version)
        for item in SpecifierSet(spec):
            if item.operator in ("<", "<=") and not item.contains(have, prereleases=True):
                return True
            if item.operator == "==" and "*" not in item.version and have > Version(item.version):
                return True
    except (InvalidSpecifier, InvalidVersion):
        return False
    return False


def numpy_abi_fix(m: Machine) -> Fix:
    """NumPy inside TensorFlow's range, or a TensorFlow built for NumPy 2."""
    fix = range_fix(m, "numpy")
    spec = ("numpy<2",) if fix is None else ()
    text = (
        "Install the NumPy range TensorFlow declares (or upgrade TensorFlow to a release "
        "built for NumPy 2)."
    )
    return Fix(text, fix.commands if fix is not None else m.pip_install(*spec))


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


def ld_remove_fix(m: Machine, directory: str, what: str) -> Fix:
    """Take ``directory`` off ``LD_LIBRARY_PATH`` so ``what`` loads from the right place."""
    return Fix(
        f"Take {directory} off the loader's path so {what} loads (and remove it where "
        "LD_LIBRARY_PATH is set: ~/.bashrc, the job script, the module).",
        (m.ld_path_without(directory),),
    )


def _major(version: Optional[str]) -> Optional[int]:
    parts = version_key(version) if version else ()
    return parts[0] if parts else None


def _usable_elsewhere(m: Machine, missing: tuple[str, ...]) -> list[FoundLibrary]:
    """Copies off the loader's path of the missing libraries, of the build's major."""
    libs = m.facts.cuda_libs
    if libs is None:
        return []
    cuda_major = _major(m.build_cuda) or libs.cuda_major
    cudnn_major = _major(m.build_cudnn) or libs.cudnn_major
    out = []
    for found in libs.elsewhere:
        if found.name not in missing:
            continue
        want = cudnn_major if found.name == "cudnn" else cuda_major
        have = _major(found.version)
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
        out.append(found)
    return out


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
        text += (
            " (for this conda environment: add the line to "
            "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh)"
        )
    else:
        text += (
            " (add the line to ~/.bashrc or the job script; or list the directories in "
            "/etc/ld.so.conf.d/ and run `sudo ldconfig`)"
        )
    return Fix(text + ".", (m.ld_path_with(dirs),))


def _newest_and_cuda(m: Machine) -> Optional[TFLine]:
    """The newest line with a working ``and-cuda`` extra that fits this machine."""
    from tfdoctor.compat import newest_fit  # noqa: PLC0415 - avoids a cycle at import

    if m.matrix is None:
        return None
    verdict = newest_fit(m.matrix, m.target)
    if verdict is None:
        return None
    line, inst = verdict.line, verdict.line.cuda_install
    if line.and_cuda and (inst is None or line.latest_patch not in inst.wheels_unfound):
        return line
    return None


def cuda_libraries_fix(m: Machine, missing: tuple[str, ...]) -> tuple[str, Fix]:
    """The cause and the fix for CUDA libraries TensorFlow cannot load, fitted to this machine.

    In order: copies found off the path get the one path line; native Windows after 2.10 has
    no GPU build; a release whose own wheels are not found gets the path line to them (or a
    newer release); the release's install method from the matrix (``and-cuda``, the cuDNN
    wheel of 2.12-2.13, or a system/conda toolkit) decides the rest.
    """
    line = m.line
    if m.os == "windows" and line is not None and not line.windows_native_gpu:
        return "windows-native-gpu-ended", windows_gpu_fix(m)
    wheels = m.cuda_wheels_installed
    conda_line = conda_toolkit_line(m)
    own_route = m.cuda_install_method == "and-cuda" and not m.wheels_unfound()
    if conda_line is not None and not wheels and not own_route:
        # The environment already holds a CUDA toolkit: the release built for it runs on it.
        return "cuda-libs-missing", install_fix(
            m,
            f"This conda environment's CUDA {conda_line.cuda} is not the CUDA {m.build_cuda} "
            f"this TensorFlow was built for: install TensorFlow {conda_line.latest_patch}, "
            "the newest built for it (or replace conda's CUDA with this release's).",
            f"tensorflow=={conda_line.latest_patch}",
        )
    if m.tf is not None and wheels and m.wheel_library_dirs and m.runpath_misses_wheels:
        # TensorFlow's own RUNPATH, read from its library, names no nvidia/*/lib directory.
        return "cuda-wheels-unfound", Fix(
            f"TensorFlow {m.tf.version}'s libraries do not search the nvidia-* wheels' "
            "directories (their RUNPATH names none): put them on the loader's path.",
            (m.ld_path_with(m.wheel_library_dirs),),
        )
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
            return "cuda-wheels-unfound", Fix(text + ".", commands)
        newer = _newest_and_cuda(m)
        if newer is not None and (line is None or newer.key > line.key):
            return "cuda-libs-missing", install_fix(
                m,
                f"Install TensorFlow {newer.latest_patch} with its CUDA libraries "
                f"({m.tf.version}'s own wheels are not found by it).",
                f"tensorflow[and-cuda]=={newer.latest_patch}",
            )
    found = _usable_elsewhere(m, missing)
    covered = {f.name for f in found}
    if found and {n for n in missing if n != "nccl"} <= covered:
        return "cuda-libs-off-path", off_path_fix(m, found)
    if "cudart" in covered:
        # The toolkit is here but off the path; what it lacks (cuDNN, usually) is installed
        # beside it the release's own way.
        rest = tuple(n for n in missing if n not in covered)
        path = off_path_fix(m, found)
        conda = m.facts.conda
        if conda is not None and all(conda.package(n) is not None for n in rest):
            return "cuda-libs-off-path", path
        _, more = cuda_libraries_fix(m, rest)
        return "cuda-libs-off-path", Fix(
            f"{path.text} Then, for {', '.join(rest)}: {more.text}",
            (*path.commands, *more.commands),
        )
    if m.os == "windows":
        return "cuda-libs-missing", _system_toolkit_fix(m)
    if m.is_nightly:
        return "cuda-libs-missing", install_fix(
            m,
            "Install the CUDA libraries the nightly build pins, as pip wheels.",
            "tf-nightly[and-cuda]",
        )
    spec = m.and_cuda_spec()
    method = m.cuda_install_method
    if method == "and-cuda" and spec is not None:
        if m.conda_tensorflow:
            return "cuda-libs-missing", _conda_fix(m, line)
        return "cuda-libs-missing", install_fix(
            m,
            "Install the CUDA and cuDNN libraries this TensorFlow was built for, as pip "
            "wheels (its and-cuda extra).",
            spec,
        )
    if method == "cudnn-wheel" and line is not None:
        return "cuda-libs-missing", _cudnn_wheel_fix(m, line, missing)
    return "cuda-libs-missing", _system_toolkit_fix(m)


def _conda_fix(m: Machine, line: Optional[TFLine], replace: bool = False) -> Fix:
    """conda's CUDA and cuDNN of the build's versions (``replace``: other versions are there)."""
    cuda = m.build_cuda or (line.cuda if line else None)
    cudnn = m.build_cudnn or (line.cudnn if line else None)
    conda = m.facts.conda
    have = {p.name for p in conda.packages} if conda is not None else set()
    if not replace and ({"cudatoolkit", "cudnn"} <= have or {"cuda-runtime", "cudnn"} <= have):
        # Installed, yet not loaded: the environment's lib directory is off the path.
        return Fix(
            "conda's CUDA and cuDNN are installed in this environment but not on the loader's "
            "path: activate the environment, or add its lib directory (for good: in "
            "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh).",
            (m.ld_path_with(("$CONDA_PREFIX/lib",)),),
        )
    if cuda is not None and version_key(cuda) >= (12,):
        pkgs = f"cuda-version={cuda} cuda-runtime cudnn" + (f"={cudnn}" if cudnn else "")
    else:
        pkgs = f"cudatoolkit={cuda} cudnn={cudnn}" if cuda and cudnn else "cudatoolkit cudnn"
    return Fix(
        f"Install CUDA {cuda} and cuDNN {cudnn or '(of its build)'} into this conda environment "
        "(conda puts them on TensorFlow's path when the environment is active).",
        (f"conda install -c conda-forge {pkgs}",),
    )


def _cudnn_wheel_fix(m: Machine, line: TFLine, missing: tuple[str, ...]) -> Fix:
    """TensorFlow's guide for 2.12-2.13 (CUDA 11.8): cuDNN as a pip wheel on LD_LIBRARY_PATH,
    the CUDA 11.8 libraries from conda or as cu11 wheels."""
    cudnn = m.build_cudnn or line.cudnn or "8.6"
    if m.in_conda:
        return Fix(
            f"Install CUDA {line.cuda} from conda-forge and cuDNN {cudnn} as a pip wheel, then "
            "put the wheel's lib directory on LD_LIBRARY_PATH (TensorFlow's guide for this line).",
            (
                f"conda install -c conda-forge cudatoolkit={line.cuda}",
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


def _system_toolkit_fix(m: Machine) -> Fix:
    """CUDA X and cuDNN Y beside TensorFlow: conda inside conda, else NVIDIA's installers."""
    line = m.line
    cuda = m.build_cuda or (line.cuda if line else None)
    cudnn = m.build_cudnn or (line.cudnn if line else None)
    if m.in_conda and cuda is not None:
        return _conda_fix(m, line)
    # Without the build's CUDA X.Y, the runtime's or cuBLAS's name in the log still says its
    # major (cudart64_110.dll is every 11.x): name that, and where the minor is found.
    major = m.build_cuda_major if cuda is None else None
    toolkit = (
        f"a CUDA {major} toolkit (any {major}.x provides the libraries it asked for; `tfdoctor "
        "matrix` names the one this TensorFlow was built with) and the cuDNN of its build"
        if major
        else "the CUDA toolkit and cuDNN versions this TensorFlow was built with (`tfdoctor "
        "matrix` lists them)"
    )
    if cuda is None and m.os == "windows":
        # Windows finds DLLs through PATH (its loader has no LD_LIBRARY_PATH).
        return Fix(
            f"Install {toolkit}, and make sure the toolkit's bin directory, which holds "
            "cudart64_*.dll (and cuDNN's DLLs beside them), is on PATH.",
            ("where cudart64_*.dll cudnn64_*.dll",),
        )
    if cuda is None:
        return Fix(f"Install {toolkit}, and put their lib directory on the loader's path.")
    if m.os == "windows":
        return Fix(
            f"Install CUDA {cuda} and cuDNN {cudnn or '(of its build)'} from NVIDIA's archives "
            f"({CUDA_ARCHIVE}, {CUDNN_ARCHIVE}); copy cuDNN's bin, include and lib into the CUDA "
            "folder, and "
            "make sure its bin directory is on PATH.",
            ("where cudart64_*.dll cudnn64_*.dll",),
        )
    lib_dir = f"/usr/local/cuda-{cuda}/lib64"
    cudnn_text = f"cuDNN {cudnn}" if cudnn else "the cuDNN of its build"
    return Fix(
        f"Install CUDA {cuda} and {cudnn_text} from NVIDIA's archives ({CUDA_ARCHIVE}, "
        f"{CUDNN_ARCHIVE}; the runfile or the distribution packages), then put the toolkit's "
        "lib64 directory on the loader's path.",
        (m.ld_path_with((lib_dir,)),),
    )


def windows_gpu_fix(m: Machine) -> Fix:
    """WSL2 with the Linux wheels, or TensorFlow 2.10, the last native Windows GPU release."""
    from tfdoctor.compat import newest_fit  # noqa: PLC0415 - avoids a cycle at import

    commands = ["wsl --install"]
    text = "Run TensorFlow under WSL2 (the Linux wheels use the GPU there)"
    native = newest_fit(m.matrix, m.target) if m.matrix is not None else None
    if native is not None and native.line.windows_native_gpu:
        nl = native.line
        text += (
            f", or use TensorFlow {nl.latest_patch}, the newest native Windows GPU release for "
            f"this Python, with CUDA {nl.cuda} and cuDNN {nl.cudnn} installed"
        )
        commands.extend(m.pip_install(f"tensorflow=={nl.latest_patch}"))
        if m.in_conda:
            commands.append(f"conda install -c conda-forge cudatoolkit={nl.cuda} cudnn={nl.cudnn}")
    else:
        text += (
            ", or, for native Windows GPU support, a Python 3.7-3.10 environment with "
            "TensorFlow 2.10 (`tfdoctor matrix --platform windows --gpu CC`)"
        )
    return Fix(text + ".", tuple(commands))


def gpu_build_fix(m: Machine) -> Fix:
    """Replace a CPU-only distribution with this platform's GPU build of the same release."""
    assert m.tf is not None
    name = m.tf.name
    line = m.line
    if m.os == "windows" and line is not None and not line.windows_native_gpu:
        return windows_gpu_fix(m)
    if m.os == "macos":
        return Fix(
            "CUDA GPUs are not supported on macOS; on Apple silicon install tensorflow-metal "
            "for the Apple GPU.",
            m.pip_install("tensorflow-metal"),
        )
    if m.platform == "linux-aarch64":
        return Fix(
            "The Linux aarch64 wheels on PyPI are CPU builds; use NVIDIA's TensorFlow container "
            "for this architecture (NGC), which is built with CUDA.",
            ("docker run --gpus all -it --rm nvcr.io/nvidia/tensorflow:24.12-tf2-py3",),
        )
    if m.conda_tensorflow:
        # conda-forge publishes CUDA builds of tensorflow under build strings cuda*.
        return Fix(
            "Install conda-forge's CUDA build of TensorFlow into this conda environment.",
            ('conda install -c conda-forge "tensorflow=*=cuda*"',),
        )
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
    from tfdoctor.compat import NONE, PTX, gpu_code  # noqa: PLC0415 - avoids a cycle at import

    if m.matrix is None:
        return None
    for candidate in reversed(m.matrix.lines):
        if m.line is not None and candidate.key <= m.line.key:
            continue
        caps = candidate.compute_capabilities
        if caps is not None and gpu_code(caps, capability) not in (NONE, PTX):
            return candidate
    return None


def gpu_fit_install(m: Machine, capability: str) -> tuple[Optional[TFLine], tuple[str, ...]]:
    """The newest line that fits this machine with a GPU of ``capability``, and its install."""
    from tfdoctor.compat import Target, install_requirement, newest_fit  # noqa: PLC0415

    if m.matrix is None:
        return None, ()
    here = m.target
    target = Target(here.python, here.platform, None, here.driver, capability)
    best = newest_fit(m.matrix, target)
    if best is None:
        return None, ()
    return best.line, m.pip_install(install_requirement(best.line, target))


def ptx_jit_fix(m: Machine, capability: str) -> Fix:
    """Keep the JIT cache (4 GiB: TensorFlow's PTX fills the 256 MiB default), or move to a
    release with machine code for the GPU."""
    first = first_line_with_code(m, capability)
    text = "Let the JIT cache persist and grow, or use a TensorFlow with machine code for this GPU."
    commands: tuple[str, ...] = ("export CUDA_CACHE_MAXSIZE=4294967296",)
    if first is not None:
        text += f" TensorFlow {first.line} and later carry machine code for it."
        _, install = gpu_fit_install(m, capability)
        commands += install
    return Fix(text, commands)


def conda_toolkit_line(m: Machine) -> Optional[TFLine]:
    """The newest line that fits this machine and was built for the CUDA toolkit conda holds,
    when that is not the installed build's CUDA."""
    from tfdoctor.compat import evaluate  # noqa: PLC0415 - avoids a cycle at import

    conda = m.facts.conda
    if conda is None or m.matrix is None or m.build_cuda is None:
        return None
    toolkit = conda.package("cudatoolkit") or conda.package("cuda-version")
    if toolkit is None:
        return None
    have = version_key(toolkit.version)[:2]
    if have == version_key(m.build_cuda)[:2]:
        return None
    for line in m.matrix.lines:
        if (
            line.cuda
            and version_key(line.cuda)[:2] == have
            and evaluate(m.matrix, line, m.target).fits
        ):
            return line
    return None


def conda_cuda_fix(m: Machine, toolkit: str) -> Fix:
    """conda's CUDA of the build's version, or none beside the and-cuda wheels."""
    spec = m.and_cuda_spec()
    built_for_conda = conda_toolkit_line(m)
    if m.wheels_unfound() and built_for_conda is not None:
        return install_fix(
            m,
            f"Install TensorFlow {built_for_conda.latest_patch}, the newest built for conda's "
            f"CUDA {built_for_conda.cuda} ({m.tf.version if m.tf else 'this release'} does not "
            "find the CUDA wheels of its extra).",
            f"tensorflow=={built_for_conda.latest_patch}",
        )
    if spec is not None and m.cuda_install_method == "and-cuda":
        return Fix(
            f"Remove conda's {toolkit} and install the CUDA libraries this TensorFlow pins as "
            "pip wheels (its and-cuda extra).",
            (f"conda remove -y {toolkit}", *m.pip_install(spec)),
        )
    return _conda_fix(m, m.line, replace=True)


def tensorflow_install_fix(m: Machine) -> Fix:
    """Install the newest TensorFlow that fits this machine (with its CUDA libraries where a
    GPU is here and the release has the extra), the rule ``tensorflow.python`` also uses."""
    from tfdoctor.compat import install_requirement, newest_fit  # noqa: PLC0415

    verdict = newest_fit(m.matrix, m.target) if m.matrix is not None else None
    if verdict is None:
        return install_fix(m, "Install TensorFlow into this environment.", "tensorflow")
    return install_fix(
        m,
        f"Install TensorFlow {verdict.line.latest_patch}, the newest that fits this machine.",
        install_requirement(verdict.line, m.target),
    )


def container_gpu_fix(m: Machine) -> Fix:
    """Hand the GPU to the container: the pod's resource limit, podman's CDI device, or
    docker's ``--gpus`` (with the NVIDIA runtime registered once on the host)."""
    if m.container == "kubernetes":
        return Fix(
            "Request the GPU in the pod spec (the NVIDIA device plugin hands it over only to "
            "containers that ask): resources.limits nvidia.com/gpu: 1.",
            ("kubectl describe node | grep -i nvidia.com/gpu",),
        )
    if m.container == "podman":
        return Fix(
            "Podman takes the GPU through CDI: generate the specification on the host, then "
            "pass the device.",
            (
                "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
                "podman run --device nvidia.com/gpu=all IMAGE",
            ),
        )
    return Fix(
        "Start the container with GPU access through the NVIDIA Container Toolkit; if `--gpus` "
        "is refused, register the NVIDIA runtime with Docker on the host once.",
        (
            "docker run --gpus all IMAGE",
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
        ),
    )


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
    best = newest_fit(m.matrix, m.target) if m.matrix is not None else None
    if best is not None:
        commands.extend(m.pip_install(install_requirement(best.line, m.target)))
        text += (
            f"; or keep this driver and install TensorFlow {best.line.latest_patch} "
            f"(CUDA {best.line.cuda}), the newest this driver runs"
        )
    return Fix(text + ".", tuple(commands))


def cpu_avx_fix() -> Fix:
    """A CPU (or VM CPU model) with the instructions the wheels need, or a source build."""
    return Fix(
        "Run on a CPU with AVX (and the other instructions the wheel needs; in a VM, pass the "
        "host's CPU flags through), or build TensorFlow from source for this CPU.",
        ("grep -o -w -E 'avx|avx2|fma|avx512f' /proc/cpuinfo | sort -u",),
    )


def gpu_memory_errors_fix(index: int) -> Fix:
    """Read the ECC and page-retirement counters, reset the idle GPU, watch the count."""
    return Fix(
        "Read the details, reset the GPU when it is idle, and have the card checked if the "
        "count grows.",
        (f"nvidia-smi -q -d ECC,PAGE_RETIREMENT -i {index}", f"sudo nvidia-smi -r -i {index}"),
    )


def read_device_log_fix() -> Fix:
    """TensorFlow's own log while it lists devices, to read (or to pass to explain)."""
    return Fix(
        "Read TensorFlow's log while it lists devices (or pipe it to `tfdoctor explain -`).",
        (
            'TF_CPP_MIN_LOG_LEVEL=0 python -c "import tensorflow as tf; '
            "print(tf.config.list_physical_devices('GPU'))\"",
        ),
    )


def cuinit_unknown_fix() -> Fix:
    """Reload the unified-memory module that lost its state (after suspend/resume)."""
    return Fix(
        "Reload the nvidia_uvm kernel module (or reboot); it loses its state across a "
        "suspend/resume.",
        ("sudo rmmod nvidia_uvm", "sudo modprobe nvidia_uvm"),
    )


def wheel_reinstall_fix(m: Machine, packages: Sequence[PackageFacts]) -> Fix:
    """Reinstall the same versions with the examined interpreter's pip, which picks the wheels
    built for it (``--force-reinstall``: pip otherwise keeps what it sees installed)."""
    specs = " ".join(f'"{p.name}=={p.version}"' for p in packages)
    return Fix(
        "Reinstall them with this interpreter's pip, which picks the wheels built for this "
        "Python and machine.",
        m.pip(f"install --force-reinstall --no-deps {specs}"),
    )


def reinstall_tf_fix(m: Machine, text: str) -> Fix:
    """Remove every TensorFlow distribution, then install the one wanted."""
    keep = m.tf
    names = " ".join(p.name for p in m.tf_providers) or (keep.name if keep else "tensorflow")
    spec = f"{keep.name}=={keep.version}" if keep else "tensorflow"
    return Fix(text, (*m.pip(f"uninstall -y {names}"), *m.pip_install(spec)))


# --- causes a log shows (``tfdoctor explain``) ---------------------------------------------------

#: Causes only a log reveals: they happen while a program runs, not in how it is installed.
LOG_CAUSES: Mapping[str, Cause] = dict(
    (
        _c(
            "gpu-out-of-memory",
            "The GPU ran out of memory",
            "The model, batch or another process needs more GPU memory than is free "
            "('OOM when allocating tensor', 'CUDA_ERROR_OUT_OF_MEMORY').",
            "https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth",
        ),
        _c(
            "host-out-of-memory",
            "The process ran out of host memory",
            "A tensor placed on the CPU did not fit in the memory the process may use (RAM, "
            "a container's or job's limit); GPU memory settings do not change that ('OOM when "
            "allocating tensor ... on .../device:CPU:0 by allocator cpu').",
            "https://www.tensorflow.org/guide/data_performance",
        ),
        _c(
            "gpu-library-init-failed",
            "cuDNN or cuBLAS fails to initialise",
            "cuDNN and cuBLAS create their handles when first used; most often the GPU's memory "
            "is already taken then (TensorFlow maps nearly all of it at start unless memory "
            "growth is on, or another process holds it), less often the library is of another "
            "version than the build ('CUDNN_STATUS_INTERNAL_ERROR', 'CUBLAS_STATUS_NOT_"
            "INITIALIZED').",
            "https://www.tensorflow.org/guide/gpu#limiting_gpu_memory_growth",
        ),
        _c(
            "gpu-config-too-late",
            "GPU options set after the GPU was initialised",
            "Memory growth, memory limits, visible and virtual devices can only be set before "
            "TensorFlow initialises the GPU (the first op, model or device listing of logical "
            "devices does that).",
            "https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_memory_growth",
        ),
        _c(
            "distribute-config-too-late",
            "A multi-worker strategy created after the runtime started",
            "MultiWorkerMirroredStrategy configures collective ops, which is only possible "
            "before TensorFlow's runtime starts: the strategy must be created first.",
            "https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras",
        ),
        _c(
            "op-kernel-missing",
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
        _c(
            "ptxas-missing",
            "XLA cannot find ptxas",
            "XLA compiles GPU code with ptxas from a CUDA toolkit or the nvidia-cuda-nvcc wheel; "
            "without it, it falls back to the driver's slower compiler or fails.",
            "https://www.tensorflow.org/xla",
        ),
        _c(
            "keras3-model-under-keras2",
            "A model saved by Keras 3 loaded by Keras 2",
            "Keras 3 (tf.keras from TensorFlow 2.16) writes configs that name its own modules "
            "(keras.src.models.functional) and arguments (batch_shape); Keras 2 (TensorFlow 2.15 "
            "or older, or tf-keras with TF_USE_LEGACY_KERAS=1) cannot rebuild the model from "
            "them.",
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
            "https://github.com/tensorflow/tensorflow/issues/70866",
        ),
    )
)
CAUSES = {**CAUSES, **LOG_CAUSES}


def gpu_memory_fix(m: Machine) -> Fix:
    """Less memory per step, memory growth, and a look at what else holds the GPU."""
    return Fix(
        "Reduce the batch size (or the model or input size); let TensorFlow grow into the "
        "memory instead of mapping it all at start, and check no other process holds the GPU.",
        ("export TF_FORCE_GPU_ALLOW_GROWTH=true", "nvidia-smi"),
    )


def op_kernel_fix(op: Optional[str]) -> Fix:
    """Another all-reduce where NCCL's op has no kernel; else the op run where it has one."""
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
    what = f"`{op}`" if op else "the op"
    return Fix(
        f"Run {what} where it has a kernel: on the CPU, inside `with tf.device('/cpu:0'):`, or "
        "let TensorFlow place what the GPU cannot run with "
        "tf.config.set_soft_device_placement(True). A device plugin (tensorflow-metal, "
        "DirectML) lacks many ops; a newer release of it may have this one."
    )


def import_crash_fix(m: Machine) -> Fix:
    """Where the crash is, from Python's fault handler; then the usual reasons, in order."""
    return Fix(
        "Find where it crashes: Python's fault handler prints the frames of the crash (run the "
        "import, or the program, with -X faulthandler). If another framework with native "
        "libraries (torch, cv2, ...) is imported first, import TensorFlow first or run them "
        "in separate processes; otherwise install TensorFlow afresh in a new environment, "
        "with one installer (pip or conda, not both), built for this Python and CUDA.",
        ('python -X faulthandler -c "import tensorflow"',),
    )


def host_memory_fix(m: Machine) -> Fix:
    """Less host memory per step, and a look at the limit the process runs under."""
    return Fix(
        "Reduce the batch size (or the model, input or shuffle-buffer size) and stream the "
        "data with tf.data instead of loading it whole; check the memory free to the process "
        "(a container's or job's limit counts, not only the machine's RAM).",
        ("free -h",),
    )


#: What makes cuDNN or cuBLAS fail to create its handle, each with what tells it apart and its
#: fix, most common first: memory (TensorFlow maps nearly all GPU memory at start, issue 24496),
#: a library of another version than the build's, a driver older than the build's CUDA.
GPU_LIBRARY_INIT_CANDIDATES: Mapping[str, tuple[str, str, str]] = {
    "memory": (
        "the GPU's memory was already taken (by another process, or by TensorFlow itself, "
        "which maps nearly all of it at start)",
        "`nvidia-smi` shows the memory in use and the processes holding it",
        "stop the other processes and turn on memory growth (TF_FORCE_GPU_ALLOW_GROWTH=true "
        "or tf.config.experimental.set_memory_growth)",
    ),
    "version": (
        "the cuDNN or cuBLAS loaded is of another version than the build's",
        "`tfdoctor check` compares the libraries the loader picks with the build's",
        "install the cuDNN/cuBLAS release the build names (check's fix says which and how)",
    ),
    "driver": (
        "the NVIDIA driver is older than the build's CUDA needs",
        "`nvidia-smi` prints the driver version; `tfdoctor check` compares it with the build's",
        "upgrade the driver",
    ),
}
_CANDIDATE_COMMANDS = {
    "memory": ("nvidia-smi", "export TF_FORCE_GPU_ALLOW_GROWTH=true"),
    "version": ("tfdoctor check",),
    "driver": ("nvidia-smi --query-gpu=driver_version --format=csv",),
}


def gpu_library_init_fix(
    m: Machine, order: Sequence[str] = ("memory",), shown: Sequence[str] = ()
) -> Fix:
    """The candidates for a cuDNN/cuBLAS handle that fails to start, those in ``order`` first
    (the most likely), each with what tells it apart and its fix: the error text alone does
    not say which one it is. ``shown``: the evidence that put a candidate first."""
    ranked = [*order, *(k for k in GPU_LIBRARY_INIT_CANDIDATES if k not in order)]
    steps = []
    for number, key in enumerate(ranked, 1):
        what, tell, fix = GPU_LIBRARY_INIT_CANDIDATES[key]
        steps.append(f"{number}. {what}: {tell}; if so, {fix}.")
    commands = tuple(dict.fromkeys(c for key in ranked for c in _CANDIDATE_COMMANDS[key]))
    why = (
        f"The evidence shows {' and '.join(shown)}: "
        + ("those candidates come first" if len(shown) > 1 else "that candidate comes first")
        if shown
        else "The error does not say why the library could not start"
    )
    return Fix(f"{why}; the candidates, most likely first: " + " ".join(steps), commands)


def config_order_fix() -> Fix:
    """Configure the GPUs first thing, before anything touches them."""
    return Fix(
        "Set memory growth, memory limits and visible devices right after `import tensorflow`, "
        "before any op, model or other import that uses TensorFlow; or use the environment "
        "variable, which applies at start.",
        ("export TF_FORCE_GPU_ALLOW_GROWTH=true",),
    )


def strategy_order_fix() -> Fix:
    """Create the multi-worker strategy before anything else runs."""
    return Fix(
        "Create tf.distribute.MultiWorkerMirroredStrategy() at the very start of the program "
        "(after TF_CONFIG is set), before any other TensorFlow call."
    )


def declared_range_fix(m: Machine, dist: str, fallback: str, text: str) -> Fix:
    """TensorFlow's declared range of ``dist``, else ``fallback`` with ``text``."""
    return range_fix(m, dist) or install_fix(m, text, fallback)


def protobuf_fix(m: Machine, too_old: bool = False) -> Fix:
    """TensorFlow's declared protobuf range; without it, away from the side that failed.

    ``too_old``: the runtime lacks ``google.protobuf.internal.builder``, which code generated
    by protoc 3.20 and later imports (https://github.com/protocolbuffers/protobuf/issues/9778);
    an upper bound would leave such a protobuf in place.
    """
    if too_old:
        return range_fix(m, "protobuf") or install_fix(
            m,
            "Upgrade protobuf to 3.20 or newer: TensorFlow's generated code needs its "
            "`builder` module.",
            "protobuf>=3.20",
        )
    return declared_range_fix(
        m,
        "protobuf",
        "protobuf<3.21",
        "Install a protobuf older than 3.21 (the pure-Python fallback also works).",
    )


def cluster_unreachable_fix() -> Fix:
    """Every task started, listening on its own address, reachable through the firewall."""
    return Fix(
        "Start every task of the cluster (one process per address in TF_CONFIG), with the "
        "same cluster and its own task; check each listens on its address and that the "
        "hosts can reach each other's ports (`tfdoctor cluster check` reads TF_CONFIG).",
        ('echo "TF_CONFIG=$TF_CONFIG"',),
    )


def peer_failed_fix(lost: Sequence[str] = ()) -> Fix:
    """The collective only reports that a peer went away: its own log says why."""
    whose = ", ".join(lost) if lost else "the other workers"
    return Fix(
        f"Read the log of {whose} for why it ended (a crash, the kernel's out-of-memory "
        "killer, preemption or eviction by the scheduler); restart the job from a checkpoint "
        "once it is fixed.",
        ("dmesg | grep -i -E 'killed process|out of memory'",),
    )


def port_in_use_fix(port: Optional[str] = None) -> Fix:
    """Free the task's port, or give the task another one in every TF_CONFIG."""
    return Fix(
        "Stop the process that holds the task's port (an earlier run still alive), or give "
        "the task a free port in every worker's TF_CONFIG.",
        (f"ss -ltnp 'sport = :{port}'" if port else "ss -ltnp",),
    )


def keras_match_fix(m: Machine) -> Fix:
    """The Keras of the installed TensorFlow's line (Keras 2 before 2.16)."""
    fix = range_fix(m, "keras")
    if fix is not None:
        return fix
    if m.tf is not None and m.line is not None and m.line.keras_in_step:
        return install_fix(
            m, f"Install the Keras of TensorFlow {m.line.line}.", f"keras=={m.line.line}.*"
        )
    return Fix(
        "Install the Keras release of your TensorFlow line (keras==2.X.* for TensorFlow 2.X "
        "before 2.16; Keras 3 from 2.16), or upgrade TensorFlow.",
        ("pip show tensorflow keras",),
    )


def _legacy_switch(m: Machine) -> tuple[str, ...]:
    """The command that makes tf.keras tf-keras, unless the machine already sets it."""
    return () if m.legacy_keras else ("export TF_USE_LEGACY_KERAS=1",)


def keras3_fix(m: Machine) -> Fix:
    """Keras 2 code under Keras 3: tf-keras with TF_USE_LEGACY_KERAS, or migrate."""
    spec = m.tf_keras_spec or "tf-keras"
    return Fix(
        "This code is written for Keras 2: install tf-keras and set TF_USE_LEGACY_KERAS=1 "
        "(before TensorFlow is imported), or migrate it to Keras 3 (save models as `.keras`).",
        (*m.pip_install(spec), *_legacy_switch(m)),
    )


def keras3_model_fix(m: Machine) -> Fix:
    """Load a Keras 3 model with Keras 3: a TensorFlow whose tf.keras is Keras 3 (the
    matrix's first such line on), without legacy Keras."""
    first = first_keras3_line(m.matrix) if m.matrix is not None else None
    since = f"TensorFlow {first.line} or newer" if first else "a TensorFlow served by Keras 3"
    text = (
        f"The model was saved by Keras 3, which Keras 2 cannot read: load it with Keras 3 "
        f"({since}, TF_USE_LEGACY_KERAS unset), or save it again with the Keras that will "
        "load it."
    )
    if first is None or m.keras3_is_tf_keras:
        # The installed line already serves Keras 3: only the legacy switch stands between.
        return Fix(text, ("unset TF_USE_LEGACY_KERAS",))
    # The installed distribution's own name (tensorflow-cpu stays tensorflow-cpu).
    dist = m.tf_name if m.tf is not None and not m.is_nightly else "tensorflow"
    return Fix(text, (*m.pip_install(f"{dist}>={first.line}"), "unset TF_USE_LEGACY_KERAS"))


def _is_prerelease(version: str) -> bool:
    """``2.22.0rc0`` and the like (PEP 440), which pip installs only when asked by name."""
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415 - 40 ms import

    try:
        return Version(version).is_prerelease
    except InvalidVersion:
        return False


def companion_fix(
    m: Machine,
    name: Optional[str],
    comp: Optional[PackageFacts] = None,
    target: str = "tensorflow",
    spec: str = "",
) -> Fix:
    """Align a companion (``name``; ``comp`` where its facts are known, declaring ``spec`` on
    ``target``) with the installed TensorFlow, the side that changes least: its release for
    this TensorFlow (the companion table), else the ``target`` range it declares, and only
    where no release fits, TensorFlow moved to the companion's range, said so. Known by name
    alone (a log's library path), without a table row or TensorFlow's version: how to find it.
    """
    tf = m.tf
    row = m.companion(name) if name else None
    fit = row.release_for(tf.version) if row is not None and tf is not None else None
    installed = version_key(comp.version)[:2] if comp is not None else None
    if fit is not None and tf is not None and installed != version_key(fit.release)[:2]:
        # A pre-release TensorFlow is served by the companion's pre-releases, which pip picks
        # only for a specifier that names one (PEP 440; `==X.Y.*` never matches X.Y.0rc0).
        upper = fit.tensorflow.split(",")[0] if fit.tensorflow.startswith("<") else ""
        wanted = (
            f"{name}>={fit.release}.0rc0{',' + upper if upper else ''}"
            if _is_prerelease(tf.version)
            else f"{name}=={fit.release}.*"
        )
        return install_fix(
            m,
            f"Install {name} {fit.release}, the release for the installed TensorFlow "
            f"(it declares tensorflow{fit.tensorflow}).",
            wanted,
        )
    if comp is None or not spec:
        # Known from a log's library path alone: say where the pairing is published.
        shown = name or "the add-on"
        running = f"TensorFlow {tf.version}" if tf is not None else "the installed TensorFlow"
        urls = m.companion_urls(name) if name else ()
        table = (
            f"its compatibility table ({', '.join(urls)})" if urls else "its compatibility table"
        )
        return Fix(
            f"Install the {shown} release built for {running}: look it up in {table}. If no "
            f"release is built for {running} yet, install the TensorFlow the installed "
            f"{shown} was built for (the same table) instead; a custom op library must be "
            "rebuilt against the installed TensorFlow.",
            (f"pip show tensorflow {name}", f"pip index versions {name}")
            if name
            else ("pip show tensorflow",),
        )
    if target != "tensorflow" or tf is None:
        # TensorFlow constrains Keras too: ask pip for one both accept (it refuses, changing
        # nothing, where none exists) rather than a Keras that breaks TensorFlow.
        tf_keras = m.tf_keras_spec
        own = (
            tf_keras.removeprefix("tf-keras")
            if target == "tf-keras" and tf_keras is not None
            else m.declared_range(target)
        )
        if not own:
            return install_fix(
                m,
                f"Install the {target} that {comp.name} {comp.version} declares.",
                f"{target}{spec}",
            )
        return install_fix(
            m,
            f"Install a {target} that both {comp.name} {comp.version} ({spec}) and TensorFlow "
            f"({own}) accept; where pip finds none, install the {comp.name} release made for "
            "the installed TensorFlow.",
            f"{target}{spec},{own}",
        )
    dist = m.tf_name if m.tf_name is not None and not m.is_nightly else "tensorflow"
    way = "downgrades" if _above_range(tf.version, spec) else "upgrades"
    if row is not None and row.end_of_life:
        text = (
            f"{row.end_of_life} Installing the TensorFlow its release declares ({dist}{spec}) "
            f"{way} TensorFlow from {tf.version}: a stopgap; moving the code off {comp.name} "
            "is the lasting fix."
        )
    else:
        text = (
            f"No {comp.name} release for TensorFlow {tf.version} is known to this tfdoctor: if "
            f"one exists, install it (`pip index versions {comp.name}` lists them; pick the "
            f"one whose requirement admits tensorflow {tf.version}). Otherwise install the "
            f"TensorFlow {comp.name} {comp.version} declares, which {way} TensorFlow from "
            f"{tf.version}."
        )
    return install_fix(m, text, f"{dist}{spec}")


def tf_keras_fix(m: Machine) -> Fix:
    """Install tf-keras of the installed TensorFlow's line (its pin from the matrix)."""
    spec = m.tf_keras_spec or "tf-keras"
    return install_fix(m, "Install tf-keras (Keras 2), released with TensorFlow.", spec)


def tf_keras_missing_fix(m: Machine) -> Fix:
    """tf-keras of the installed TensorFlow's line, and TF_USE_LEGACY_KERAS so that tf.keras
    is tf-keras too (one Keras in the process, as the library that asked for it expects),
    unless the machine's environment already sets it."""
    legacy = _legacy_switch(m)
    also = (
        ""
        if m.legacy_keras
        else " and set TF_USE_LEGACY_KERAS=1 before TensorFlow is imported, so that tf.keras "
        "is Keras 2 as well"
    )
    spec = m.tf_keras_spec
    if spec is not None:
        return Fix(
            f"Install tf-keras of this TensorFlow's line{also}.", (*m.pip_install(spec), *legacy)
        )
    # tf-keras is released with TensorFlow and numbered like it: 2.X serves TensorFlow 2.X.
    return Fix(
        "Install the tf-keras of the installed TensorFlow's minor (tf-keras 2.X for TensorFlow "
        f'2.X: `pip install "tf-keras~=2.X.0"`; `pip show tensorflow` gives X){also}.',
        ("pip show tensorflow", *legacy),
    )


def no_wheel_fix(m: Machine) -> Fix:
    """A Python and platform TensorFlow publishes wheels for (the newest release that fits)."""
    from tfdoctor.compat import install_requirement, newest_fit  # noqa: PLC0415

    verdict = newest_fit(m.matrix, m.target) if m.matrix is not None else None
    if verdict is not None and m.facts.python is not None:
        return install_fix(
            m,
            f"Install TensorFlow {verdict.line.latest_patch}, the newest with a wheel for this "
            "Python and platform.",
            install_requirement(verdict.line, m.target),
        )
    return Fix(
        "Use a 64-bit CPython that TensorFlow publishes wheels for (`tfdoctor matrix "
        "--python-version X.Y` lists the releases for a Python), e.g. in a new virtual "
        "environment.",
        (
            "python -c 'import platform, struct; print(platform.python_version(), "
            'struct.calcsize("P") * 8)\'',
        ),
    )


def tensorflow_gpu_removed_fix(m: Machine) -> Fix:
    """Install ``tensorflow`` instead of the removed ``tensorflow-gpu`` (removing the stub)."""
    if m.facts.package("tensorflow-gpu") is not None:
        keep = [p for p in m.tf_providers if normalize_name(p.name) != "tensorflow-gpu"]
        if keep:
            # Uninstalling tensorflow-gpu deletes files of the tensorflow/ package both
            # write: the kept release's files are put back, its CUDA extra added where the
            # release has a working one.
            extra = m.and_cuda_spec(keep[0].version)
            return Fix(
                "Remove tensorflow-gpu, then restore the files of the TensorFlow kept"
                + (" and install its CUDA libraries." if extra else "."),
                (
                    *m.pip("uninstall -y tensorflow-gpu"),
                    *m.pip(
                        f'install --force-reinstall --no-deps "{keep[0].name}=={keep[0].version}"'
                    ),
                    *(m.pip_install(extra) if extra else ()),
                ),
            )
        spec = "tensorflow[and-cuda]" if m.os == "linux" else "tensorflow"
        return Fix(
            "Replace tensorflow-gpu with tensorflow (and its CUDA extra on Linux).",
            (*m.pip("uninstall -y tensorflow-gpu"), *m.pip_install(spec)),
        )
    extra = m.and_cuda_spec() if m.tf is not None else None
    if extra is not None:
        return install_fix(
            m, "Install tensorflow with its CUDA libraries instead of tensorflow-gpu.", extra
        )
    return Fix(
        "Install `tensorflow` instead of `tensorflow-gpu` (change it in requirements files "
        "too): it carries the same GPU support.",
        m.pip_install("tensorflow"),
    )


def glibc_fix(glibc: str) -> Fix:
    """A system (or base image) with the glibc the wheel needs."""
    version = glibc.split("_", 1)[-1]
    return Fix(
        f"Use a Linux distribution (or container base image) with glibc {version} or newer, "
        "or an older TensorFlow built for this glibc.",
        ("ldd --version",),
    )


def msvc_fix() -> Fix:
    """The Visual C++ runtime TensorFlow's Windows wheels need."""
    return Fix(
        "Install the Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 "
        "(x64); check the CPU has AVX; use 64-bit Python.",
        ("winget install Microsoft.VCRedist.2015+.x64",),
    )


def native_interpreter_fix(m: Machine) -> Fix:
    """A native interpreter or image instead of an emulated one (QEMU user-mode, Rosetta)."""
    plat = m.facts.platform
    if plat is not None and plat.emulation == "qemu":
        host = plat.host_machine or "the host's architecture"
        flag = "linux/arm64" if host in ("aarch64", "arm64") else f"linux/{host}"
        return Fix(
            "Use the image or interpreter built for the host's architecture.",
            (f"docker run --platform {flag} ...",),
        )
    if plat is not None and plat.rosetta:
        return Fix(
            "Use a native arm64 Python (python.org universal2 installer, or Homebrew in "
            "/opt/homebrew), recreate the environment and reinstall.",
            (
                "arch -arm64 /usr/bin/python3 -m venv .venv",
                ".venv/bin/python -m pip install tensorflow",
            ),
        )
    return Fix(
        "Use a Python built for this machine's own architecture (on Apple silicon an arm64 "
        "Python with the macOS wheels; in Docker an image of the host's platform), not one "
        "translated by Rosetta or QEMU.",
        ("python -c 'import platform; print(platform.machine())'",),
    )


def no_device_fix(m: Machine) -> Fix:
    """CUDA sees no device: CUDA_VISIBLE_DEVICES, the container's GPU access, the driver."""
    if m.container:
        return container_gpu_fix(m)
    return Fix(
        "Check that CUDA_VISIBLE_DEVICES lists valid GPU indices (or unset it), that nvidia-smi "
        "lists a GPU, and, in a container, that it was started with GPU access.",
        ('echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"', "nvidia-smi -L"),
    )


def driver_mismatch_fix() -> Fix:
    """Reload the kernel module of the installed driver: a reboot after an upgrade."""
    return Fix(
        "The driver was upgraded while the old kernel module stayed loaded: reboot (or unload "
        "and reload the nvidia modules) so both are the same version.",
        ("sudo reboot",),
    )


def driver_load_fix(m: Machine) -> Fix:
    """Load (or install) the NVIDIA kernel driver, as far as the kernel facts tell why it is
    not loaded: nouveau holding the GPU, Secure Boot refusing the module, DKMS without a build
    for the running kernel. A container's host hands the driver over."""
    if m.container:
        return container_gpu_fix(m)
    if m.wsl:
        return Fix(
            "Install the NVIDIA driver on the Windows host (WSL uses it; do not install a Linux "
            "driver inside WSL)."
        )
    kernel = m.facts.nvidia_kernel
    modules = kernel.modules if kernel is not None and kernel.modules is not None else ()
    bound = {d.driver for d in kernel.pci_devices} if kernel is not None else set()
    release = m.facts.platform.release if m.facts.platform is not None else ""
    if "nouveau" in modules or "nouveau" in bound:
        return Fix(
            "The open-source nouveau driver holds the GPU: blacklist it, rebuild the initramfs "
            "and reboot, then load nvidia.",
            (
                'echo "blacklist nouveau" | sudo tee /etc/modprobe.d/blacklist-nouveau.conf',
                "sudo update-initramfs -u && sudo reboot",
            ),
        )
    if kernel is not None and kernel.secure_boot:
        return Fix(
            "Secure Boot is on and refuses the unsigned nvidia module: enroll the DKMS signing "
            "key (MOK) and reboot, or disable Secure Boot.",
            ("sudo mokutil --import /var/lib/dkms/mok.pub", "sudo reboot"),
        )
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


def gpu_arch_fix(m: Machine, capability: Optional[str]) -> Fix:
    """The newest TensorFlow with code for a GPU of ``capability``; where that is unknown (a
    log's "no kernel image" names no GPU), reading it first."""
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
    return Fix(
        f"Use a TensorFlow release built for compute capability {capability} "
        f"(`tfdoctor matrix --gpu {capability}`), a newer GPU, or a source build with "
        f"TF_CUDA_COMPUTE_CAPABILITIES={capability}."
    )


def ptxas_fix(m: Machine) -> Fix:
    """A driver new enough for the PTX, or a ptxas of the driver's CUDA first on PATH."""
    drv = m.facts.driver
    driver_cuda = drv.cuda_version if drv is not None else None
    if driver_cuda:
        major, minor = version_key(driver_cuda)[:2]
        return install_fix(
            m,
            "Upgrade the NVIDIA driver to one that supports the CUDA version of the ptxas XLA "
            f"uses, or use a ptxas of CUDA {driver_cuda} or older (the CUDA compiler wheel of "
            "that version).",
            f"{wheel_name('nvidia-cuda-nvcc', major)}=={major}.{minor}.*",
        )
    return Fix(
        "Upgrade the NVIDIA driver to one that supports the CUDA version of the ptxas XLA "
        "uses, or put a ptxas of the driver's CUDA version (or older) first on PATH.",
        ("nvidia-smi", "ptxas --version"),
    )


#: Names ``$CUDA_HOME`` as XLA's CUDA root, keeping the user's other XLA flags.
XLA_AT_CUDA_HOME = 'export XLA_FLAGS="${XLA_FLAGS:+$XLA_FLAGS }--xla_gpu_cuda_data_dir=$CUDA_HOME"'


def libdevice_fix(m: Machine) -> Fix:
    """libdevice where XLA looks: the one found here, conda's, or the CUDA compiler wheel's.

    Never a directory XLA searches already (it would change nothing), and the user's other
    ``XLA_FLAGS`` are kept.
    """
    flags = m.xla_flags_for_libdevice
    if flags is not None:
        return Fix(
            f"Point XLA at the libdevice found under {m.libdevice_root}, where it does not "
            "look by itself.",
            (f"export XLA_FLAGS={shlex.quote(flags)}",),
        )
    if m.in_conda:
        # TensorFlow's guide for conda (2.11-2.14): libdevice where XLA's data dir layout
        # expects it, and the flag naming that dir.
        return Fix(
            "Point XLA at the conda environment's CUDA files (TensorFlow's guide for conda).",
            (
                "mkdir -p $CONDA_PREFIX/lib/nvvm/libdevice",
                "cp $CONDA_PREFIX/lib/libdevice.10.bc $CONDA_PREFIX/lib/nvvm/libdevice/",
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


def ptxas_install_fix(m: Machine) -> Fix:
    """ptxas from the CUDA compiler wheel of the build's CUDA major."""
    major = version_key(m.build_cuda)[0] if m.build_cuda else None
    if major is None:
        return Fix(
            "Install ptxas with the CUDA compiler wheel of TensorFlow's CUDA major "
            "(nvidia-cuda-nvcc-cu12 or -cu11), or put a CUDA toolkit's bin directory on PATH."
        )
    return install_fix(
        m,
        "Install ptxas with the CUDA compiler wheel of TensorFlow's CUDA version.",
        wheel_name("nvidia-cuda-nvcc", major),
    )


# --- causes code shows (``tfdoctor scan``) -------------------------------------------------------

TF2_MIGRATE = "https://www.tensorflow.org/guide/migrate"
KERAS3_MIGRATE = "https://keras.io/guides/migrating_to_keras_3/"

#: Causes the source code reveals: a use of an API that the target release removed or changed.
CODE_CAUSES: Mapping[str, Cause] = dict(
    (
        _c(
            "api-removed",
            "The code uses an API the target TensorFlow does not have",
            "The name is not in the target release's public API: using it raises AttributeError "
            "(or ImportError), at import when it is used at module level.",
            "https://www.tensorflow.org/api_docs/python/tf",
        ),
        _c(
            "api-moved-to-compat-v1",
            "A TensorFlow 1 API used under TensorFlow 2",
            "TensorFlow 2 removed the graph-and-session API from its top-level namespace; the "
            "name lives on only under tf.compat.v1 (a stop-gap that also needs "
            "tf.compat.v1.disable_eager_execution() for graph code). The TensorFlow 2 idiom is "
            "eager code with tf.function.",
            TF2_MIGRATE,
        ),
        _c(
            "tf-contrib-removed",
            "tf.contrib was removed in TensorFlow 2.0",
            "tf.contrib is not in any TensorFlow 2 release (not even under tf.compat.v1); each "
            "part moved to core TensorFlow, to a separate package (TensorFlow Addons, "
            "tf-slim, TensorFlow Probability) or was dropped.",
            "https://github.com/tensorflow/community/blob/master/rfcs/20180907-contrib-sunset.md",
        ),
        _c(
            "tf-estimator-removed",
            "tf.estimator was removed in TensorFlow 2.16",
            "TensorFlow 2.16 no longer ships tf.estimator (and tf.compat.v1.estimator); "
            "Estimator code must move to Keras models and custom training loops, or stay on "
            "TensorFlow 2.15 or older.",
            "https://github.com/tensorflow/tensorflow/releases/tag/v2.16.1",
        ),
        _c(
            "keras3-behaviour-change",
            "Keras 2 code under Keras 3",
            "From TensorFlow 2.16, tf.keras is Keras 3, which removed or changed Keras 2 APIs "
            "(legacy optimizers, the SavedModel save format, most keras.backend functions, "
            "layers.experimental). Keras 2 stays available as the tf-keras package with "
            "TF_USE_LEGACY_KERAS=1 set before TensorFlow is imported.",
            KERAS3_MIGRATE,
            "https://keras.io/getting_started/#tensorflow--keras-2-backwards-compatibility",
        ),
        _c(
            "tensorboard-not-installed",
            "TensorBoard summaries without the tensorboard package",
            "TensorFlow 2.21 no longer installs tensorboard; tf.summary's scalar, histogram, "
            "image, audio and text ops and the Keras TensorBoard callback import it when used "
            "and fail without it.",
            "https://github.com/tensorflow/tensorflow/releases/tag/v2.21.0",
        ),
        _c(
            "api-default-changed",
            "An API whose default behaviour changed",
            "The call keeps working but its default changed between the releases compared, so "
            "the result can differ silently.",
            TF2_MIGRATE,
        ),
    )
)
CAUSES = {**CAUSES, **CODE_CAUSES}


# --- causes in a cluster's description and its collectives (``tfdoctor cluster``) ---------------

_TF_CONFIG_GUIDE = "https://www.tensorflow.org/guide/distributed_training#setting_up_tf_config_environment_variable"
_MULTI_WORKER = "https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras"
_SLURM_RESOLVER = (
    "https://www.tensorflow.org/api_docs/python/tf/distribute/cluster_resolver/SlurmClusterResolver"
)

#: Causes ``tfdoctor cluster`` and ``diff``/``fleet`` name; the rules are TensorFlow's own
#: (multi_worker_util._validate_cluster_spec, TFConfigClusterResolver, SlurmClusterResolver).
CLUSTER_CAUSES: Mapping[str, Cause] = dict(
    (
        _c(
            "tf-config-invalid-json",
            "TF_CONFIG is not a JSON object",
            "TFConfigClusterResolver reads TF_CONFIG with json.loads; anything else fails when "
            "the strategy is created.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-no-cluster",
            "No cluster description: training runs as one worker",
            "Without TF_CONFIG, or without its `cluster` key, TFConfigClusterResolver returns an "
            "empty ClusterSpec and MultiWorkerMirroredStrategy silently trains on this worker "
            "alone.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-sparse-cluster",
            "TF_CONFIG with `sparseCluster` only",
            "TFConfigClusterResolver reads only the `cluster` key; a dynamic-worker "
            "`sparseCluster` alone leaves an empty ClusterSpec, and training runs as one worker.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-bad-cluster",
            "TF_CONFIG `cluster` has the wrong shape",
            "`cluster` maps each job name to a list of `host:port` strings (ClusterSpec).",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-master-task",
            "A `master` task in TensorFlow 2",
            "TensorFlow 1's `master` task type is rejected by TensorFlow 2's "
            "multi_worker_util._validate_cluster_spec ('Disallowed task type'); the role is "
            "`chief`.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-unknown-job",
            "A job name TensorFlow does not allow",
            "multi_worker_util._validate_cluster_spec allows the jobs chief, worker, evaluator "
            "and ps only.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-multiple-chiefs",
            "More than one chief or evaluator",
            "multi_worker_util._validate_cluster_spec allows at most one `chief` and one "
            "`evaluator` task.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-task-invalid",
            "TF_CONFIG `task` missing or not in the cluster",
            "Each process names its own task (`type` a job of `cluster`, `index` an integer); "
            "TensorFlow rejects a task type the cluster lacks.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-task-out-of-range",
            "TF_CONFIG task index out of range",
            "The task index must be below the number of addresses of its job "
            "(multi_worker_util._validate_cluster_spec).",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-bad-address",
            "A task address is not host:port",
            "Each task's gRPC server listens on the port of its address; an address without a "
            "valid port (1-65535) cannot be served or reached.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-duplicate-address",
            "Two tasks share one address",
            "Two gRPC servers cannot listen on one host:port; the second fails to start or the "
            "collectives wait for a task that never answers.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-localhost-multi-host",
            "localhost in a cluster that spans hosts",
            "A loopback address means each machine itself: other hosts cannot reach a task "
            "listed as localhost or 127.x, and the collectives wait for it.",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-unresolvable",
            "A task's host name does not resolve",
            "gRPC cannot connect to a task whose name does not resolve; the collectives wait "
            "for it until they time out ('failed to connect to all addresses').",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "tf-config-single-worker",
            "A cluster of one task",
            "A valid TF_CONFIG with a single task: MultiWorkerMirroredStrategy runs on this "
            "worker alone.",
            _MULTI_WORKER,
        ),
        _c(
            "slurm-outside-srun",
            "In a Slurm job but outside a job step",
            "SlurmClusterResolver reads SLURM_PROCID and the SLURM_STEP_* variables, which only "
            "`srun` sets ('Not running inside a SLURM step?').",
            _SLURM_RESOLVER,
        ),
        _c(
            "slurm-inconsistent",
            "The Slurm step variables do not add up",
            "SlurmClusterResolver builds the cluster from SLURM_STEP_NODELIST, "
            "SLURM_STEP_TASKS_PER_NODE and SLURM_STEP_NUM_TASKS; they must agree.",
            _SLURM_RESOLVER,
        ),
        _c(
            "slurm-resolver-not-default",
            "MultiWorkerMirroredStrategy does not read Slurm by itself",
            "The strategy reads TF_CONFIG unless given a resolver: in a Slurm step without "
            "TF_CONFIG, pass SlurmClusterResolver() (it uses ports 8888 and up on each node).",
            _SLURM_RESOLVER,
        ),
        _c(
            "k8s-no-tf-config",
            "A Kubernetes pod without TF_CONFIG",
            "Kubeflow's v1 TFJob operator writes TF_CONFIG into each pod; Kubeflow Trainer v2 "
            "has no TensorFlow runtime, so a Job or JobSet must set TF_CONFIG itself.",
            "https://www.kubeflow.org/docs/components/trainer/legacy-v1/user-guides/tensorflow/",
        ),
        _c(
            "cluster-port-in-use",
            "A task's port is already in use",
            "The task's gRPC server cannot listen on a port another process holds; TensorFlow "
            "fails to start the server ('Address already in use').",
            _TF_CONFIG_GUIDE,
        ),
        _c(
            "cluster-task-unreachable",
            "A task did not arrive",
            "A task's server never answered within the time allowed: the process was not "
            "started, died, listens elsewhere, or a firewall blocks its port (a worker stuck "
            "after 'Started server with target', or 'failed to connect to all addresses').",
            _MULTI_WORKER,
        ),
        _c(
            "cluster-collective-failed",
            "The collective all-reduce failed or gave wrong values",
            "A sum all-reduce over every worker through MultiWorkerMirroredStrategy did not "
            "return the known total: a task contributed nothing or the collective broke.",
            _MULTI_WORKER,
        ),
        _c(
            "cluster-worker-failed",
            "A worker process failed",
            "A worker ended before the collective test finished; its own output says why.",
            _MULTI_WORKER,
        ),
        _c(
            "fleet-fact-differs",
            "Nodes of one cluster differ",
            "Workers of one job should run the same TensorFlow, CUDA, cuDNN, driver and Python, "
            "with the same GPUs and settings; a node that differs fails or slows the whole job.",
            _MULTI_WORKER,
        ),
    )
)
CAUSES = {**CAUSES, **CLUSTER_CAUSES}


# --- causes read from failures explain had no words for (tracebacks, loaders, NCCL, pip) -------
# Each is evidence a log holds and no probe sees: the assembler XLA ran, NCCL's shared memory,
# an add-on's compiled ops, a library the loader could not find.

#: NVIDIA's list of the GPU architectures each CUDA release's compilers know.
NVCC_GPU_FEATURES = (
    "https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html#gpu-feature-list"
)
_NCCL_ENV = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-shm-disable"
_DOCKER_RUN = "https://docs.docker.com/reference/cli/docker/container/run/"

FAILURE_CAUSES: Mapping[str, Cause] = dict(
    (
        _c(
            "ptxas-too-old",
            "The ptxas XLA ran is too old for this GPU",
            "XLA compiles GPU kernels for the GPU's own architecture (sm_86 for compute "
            "capability 8.6) with the first ptxas it finds: on PATH, under CUDA_HOME, or from "
            "the nvidia-cuda-nvcc wheel. A ptxas from a CUDA release older than the GPU "
            "refuses the architecture ('Value 'sm_86' is not defined for option 'gpu-name''); "
            "TensorFlow then falls back to the driver's slower compiler, or the step fails.",
            NVCC_GPU_FEATURES,
            "https://github.com/tensorflow/serving/issues/1821",
        ),
        _c(
            "nccl-shm-too-small",
            "NCCL cannot create its shared memory (/dev/shm too small)",
            "NCCL moves data between the GPUs of one machine through shared memory in /dev/shm. "
            "Docker gives a container a 64 MiB /dev/shm unless told otherwise, and NCCL's "
            "segments do not fit ('No space left on device', 'Error while creating shared "
            "memory segment'): the collective, and the multi-GPU step, fails.",
            _DOCKER_RUN,
            _NCCL_ENV,
            "https://github.com/NVIDIA/nccl/issues/290",
        ),
        _c(
            "native-library-unresolved",
            "A native library could not be loaded",
            "The dynamic loader could not find or load a shared library that a Python "
            "extension (TensorFlow's own, or another package's) needs. The message names the "
            "library the loader looked for, not always the file that needed it; the loader's "
            "own trace and ldd say both.",
            "https://man7.org/linux/man-pages/man8/ld.so.8.html",
            "https://man7.org/linux/man-pages/man1/ldd.1.html",
        ),
        _c(
            "tf-release-not-for-python",
            "The requested TensorFlow release has no wheel for this Python and platform",
            "pip lists the TensorFlow releases that publish a wheel for the Python and platform "
            "it runs on; the requested one is not among them. Each release supports a range of "
            "Python versions, so a pin written for another Python (older or newer) cannot "
            "install here.",
            TF_PIP_GUIDE,
            "https://pypi.org/project/tensorflow/#files",
        ),
    )
)
CAUSES = {**CAUSES, **FAILURE_CAUSES}


def ptxas_old_fix(m: Machine, architecture: Optional[str]) -> Fix:
    """A ptxas from a CUDA release that knows ``architecture`` (``sm_86``), first in line."""
    arch = architecture or "this GPU's architecture"
    text = (
        f"Use a ptxas from a CUDA release that knows {arch} (NVIDIA's GPU feature list): find "
        "the old one (an old CUDA toolkit's bin first on PATH, or CUDA_HOME) and take it out of "
        "the way, or install the CUDA compiler wheel, which XLA finds in site-packages."
    )
    major = version_key(m.build_cuda)[0] if m.build_cuda else None
    looks = ("which -a ptxas", "ptxas --version")
    if major is None:
        return Fix(text, looks)
    return Fix(text, (*looks, *m.pip_install(wheel_name("nvidia-cuda-nvcc", major))))


def nccl_shm_fix() -> Fix:
    """A /dev/shm big enough for NCCL: the container's shm size or the host's IPC namespace."""
    return Fix(
        "Give the container a larger /dev/shm: `docker run --shm-size=1g` (or `--ipc=host`); "
        "on Kubernetes mount an emptyDir with medium: Memory at /dev/shm. Check the size with "
        "`df -h /dev/shm`. As a last resort NCCL_SHM_DISABLE=1 makes NCCL avoid shared memory, "
        "at a cost in speed.",
        ("df -h /dev/shm",),
    )


def native_library_fix(library: Optional[str], macos: bool = False) -> Fix:
    """How to find which library failed to load, and which file needed it (``macos``: dyld's
    tools, https://developer.apple.com/library/archive/documentation/DeveloperTools/Conceptual/
    DynamicLibraries/100-Articles/LoggingDynamicLoaderEvents.html)."""
    if macos:
        return Fix(
            "Find which library dyld misses and which file needs it: the error names both "
            "('Library not loaded' and 'Referenced from'); otool -L on that file lists what it "
            "links and from where. Then install that library, or reinstall the package that "
            "should have brought it.",
            (
                "otool -L PATH/TO/THE/EXTENSION.so",
                'DYLD_PRINT_LIBRARIES=1 python -c "import tensorflow" 2>&1 | tail -n 20',
            ),
        )
    commands = [
        'LD_DEBUG=libs python -c "import tensorflow" 2>&1 | grep -iE "error|not found|cannot"',
        "ldd PATH/TO/THE/EXTENSION.so | grep 'not found'",
    ]
    if library:
        commands.insert(0, f"ldconfig -p | grep -F {shlex.quote(library.split('.so')[0])}")
    return Fix(
        "Find which library the loader misses and which file needs it: the loader's trace "
        "(LD_DEBUG=libs) names each library it searches for; ldd on the extension named in "
        "the traceback lists what it needs and cannot find. Then install that library or add "
        "its directory to LD_LIBRARY_PATH.",
        tuple(commands),
    )


def tensorboard_fix(m: Machine) -> Fix:
    """Install tensorboard next to TensorFlow (2.21 no longer requires it)."""
    return install_fix(
        m, "Install tensorboard next to TensorFlow and add it to the requirements.", "tensorboard"
    )


def _pythons(line: TFLine) -> set[str]:
    return {py for versions in line.python.values() for py in versions}


def pip_refusal_fix(
    m: Machine, listed: Sequence[str], requested: Optional[str], python: Optional[str]
) -> tuple[str, Fix, str]:
    """Cause, fix and reasoning for pip's "no matching distribution", from what pip listed.

    ``listed``: the final releases pip could see (empty: none at all); ``requested``: the
    version pinned; ``python``: the version the log shows, if any. The reasoning names what is
    read from pip's words and what is inferred from the matrix.
    """
    lines = m.matrix.lines if m.matrix is not None else ()
    check = (
        "python -c 'import platform, struct, sys; print(sys.version.split()[0], "
        'platform.machine(), struct.calcsize("P") * 8)\''
    )
    if listed:
        newest = max(listed, key=version_key)
        newest_line = ".".join(newest.split(".")[:2])
        why = f"pip lists releases up to {newest} for this Python and platform"
        later = [x for x in lines if version_key(x.line) > version_key(newest_line)]
        here = next((x for x in lines if x.line == newest_line), None)
        if later and here is not None:
            after = min(later, key=lambda x: version_key(x.line))
            only = sorted(_pythons(here) - _pythons(after), key=version_key)
            if only:
                why += (
                    f"; TensorFlow {after.line} dropped Python {', '.join(only)}, so this "
                    f"is most likely Python {' or '.join(only)} (inferred from the matrix)"
                )
            else:
                why += (
                    f"; TensorFlow {after.line} supports the same Pythons, so the platform "
                    "(operating system, CPU) or the package index is what stops the list "
                    f"at {newest}"
                )
        want = f"TensorFlow {requested}" if requested else "the requested release"
        return (
            "tf-release-not-for-python",
            Fix(
                f'{why}. Install one it lists (`pip install "tensorflow=={newest}"`), or use '
                f"a Python that {want} publishes wheels for (`tfdoctor matrix` lists each "
                "release's Pythons).",
                (check,),
            ),
            why,
        )
    supported = sorted({py for x in lines for py in _pythons(x)}, key=version_key)
    if python and supported:
        key = version_key(python)[:2]
        if key > version_key(supported[-1]):
            why = (
                f"pip sees no TensorFlow release at all for Python {python}: newer than any "
                f"release supports (the newest supports up to {supported[-1]})"
            )
            return (
                "tf-no-wheel-for-python",
                Fix(
                    f"{why}. Use Python {supported[-1]} or older, e.g. in a new virtual "
                    "environment.",
                    (check,),
                ),
                why,
            )
        if key < version_key(supported[0]):
            why = f"pip sees no TensorFlow release at all for Python {python}: too old"
            return (
                "tf-no-wheel-for-python",
                Fix(f"{why}. Use Python {supported[0]} or newer.", (check,)),
                why,
            )
        why = (
            f"pip sees no TensorFlow release at all, though Python {python} has wheels: the "
            "interpreter is 32-bit, or the platform (operating system, CPU) has none"
        )
        return (
            "tf-no-wheel-for-python",
            Fix(
                f"{why}. Use a 64-bit CPython on a platform TensorFlow publishes wheels for.",
                (check,),
            ),
            why,
        )
    why = (
        "pip sees no TensorFlow release at all for this interpreter ('from versions: none'): "
        "its Python is newer or older than every release supports, or it is 32-bit, or the "
        "platform has no wheels"
    )
    span = f" (Python {supported[0]} to {supported[-1]})" if supported else ""
    return (
        "tf-no-wheel-for-python",
        Fix(
            f"{why}. Check which with the command below, then use a 64-bit CPython that "
            f"TensorFlow publishes wheels for{span}.",
            (check,),
        ),
        why,
    )


def wheel_tags_fix(m: Machine, file: str, python: Optional[str], platform: str) -> Fix:
    """What a refused wheel's tags say it needs, and how to let pip pick the right one."""
    needs = f"CPython {python}" if python else "another interpreter"
    return Fix(
        f"{file} is built for {needs} on {platform} (its file name's tags); pip refuses it "
        "for an interpreter or platform that differ. Install by name and version "
        "(`pip install tensorflow==X.Y.Z`) so pip picks the wheel for this interpreter, or "
        f"run it with {needs} on {platform}.",
        (
            "python -c 'import platform, struct, sys; print(sys.version.split()[0], "
            'platform.machine(), struct.calcsize("P") * 8)\'',
        ),
    )
