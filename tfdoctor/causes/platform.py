"""Causes in the platform: the interpreter, the OS, the CPU, the C library, the wheels."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import (
    INTERPRETER_CHECK,
    MACHINE_CHECK,
    RESOLVER_NAMES,
    TF_PIP_GUIDE,
    add_command,
    import_after_commands,
    install_fix,
    owner_of_package_command,
    package_named,
    pypi_files_command,
    python_venv_commands,
    venv_commands,
)
from tfdoctor.compat import platform_key
from tfdoctor.facts import TF_DISTRIBUTIONS, PackageFacts, normalize_name
from tfdoctor.findings import Fix
from tfdoctor.machine import MATRIX_DISTRIBUTIONS, NIGHTLY_DISTRIBUTIONS, Machine, venv_pip
from tfdoctor.matrix import (
    DEFAULT_PLATFORM_OF_OS,
    PLATFORM_MARKERS,
    PLATFORMS,
    CompanionRelease,
    TFLine,
    next_minor,
    spec_contains,
    version_key,
)
from tfdoctor.wheel_index import ReleaseWheels, platform_words, python_span, releases_of

#: The ids of this area's causes, as checks, explain and scan name them.
TF_NO_WHEEL_FOR_PYTHON: Final = CauseId("tf-no-wheel-for-python")
WHEEL_MISMATCH: Final = CauseId("wheel-mismatch")
WINDOWS_NATIVE_GPU_ENDED: Final = CauseId("windows-native-gpu-ended")
CPU_LACKS_AVX: Final = CauseId("cpu-lacks-avx")
CPU_EMULATED: Final = CauseId("cpu-emulated")
GLIBC_TOO_OLD: Final = CauseId("glibc-too-old")
LIBSTDCXX_TOO_OLD: Final = CauseId("libstdcxx-too-old")
MACOS_TOO_OLD: Final = CauseId("macos-too-old")
MSVC_RUNTIME_MISSING: Final = CauseId("msvc-runtime-missing")
PYTHON_32BIT: Final = CauseId("python-32bit")
WSL1: Final = CauseId("wsl1")
WSL_DRIVER_BROKEN: Final = CauseId("wsl-driver-broken")
GPU_ACCESS_BLOCKED: Final = CauseId("gpu-access-blocked")
NATIVE_LIBRARY_UNRESOLVED: Final = CauseId("native-library-unresolved")
TF_EXPORTED_SYMBOL_CLASH: Final = CauseId("tf-exported-symbol-clash")
BINDING_PROCESS_NOT_64BIT: Final = CauseId("binding-process-not-64bit")
TF_RELEASE_NOT_FOR_PYTHON: Final = CauseId("tf-release-not-for-python")
METAL_NO_WHEEL_FOR_PYTHON: Final = CauseId("metal-no-wheel-for-python")
STATIC_TLS_EXHAUSTED: Final = CauseId("static-tls-exhausted")
EXTERNALLY_MANAGED: Final = CauseId("externally-managed-python")
WINDOWS_LONG_PATHS: Final = CauseId("windows-long-paths")
SHELL_GLOB_EXTRA: Final = CauseId("shell-glob-extra")
PIP_TOO_OLD: Final = CauseId("pip-too-old")
BAZEL_VERSION_MISMATCH: Final = CauseId("bazel-version-mismatch")
BUILD_PYTHON_HEADERS_MISSING: Final = CauseId("build-python-headers-missing")
BUILD_CUDA_CONFIG_NOT_FOUND: Final = CauseId("build-cuda-config-not-found")
BUILD_HOST_COMPILER_UNSUPPORTED: Final = CauseId("build-host-compiler-unsupported")
PYTHON_REMOVED_MODULE: Final = CauseId("python-removed-module")
PYTHON_TOO_OLD_FOR_PACKAGE: Final = CauseId("python-too-old-for-package")
DISTRO_PYTHON_PART_MISSING: Final = CauseId("distro-python-part-missing")
NATIVE_ADDON_BUILD_TOOLS_MISSING: Final = CauseId("native-addon-build-tools-missing")
PINNED_SDIST_UNBUILDABLE: Final = CauseId("pinned-sdist-unbuildable")
DEPENDENCY_SDIST_BUILD_FAILS: Final = CauseId("dependency-sdist-build-fails")
CI_PYTHON_VERSION_UNAVAILABLE: Final = CauseId("ci-python-version-unavailable")
PYENV_VERSION_UNAVAILABLE: Final = CauseId("pyenv-version-unavailable")
VENV_BASE_PYTHON_MISSING: Final = CauseId("venv-base-python-missing")
PYTHON_COMMAND_MISSING: Final = CauseId("python-command-missing")

METAL_FILES = "https://pypi.org/project/tensorflow-metal/#files"

#: The distributions whose Pythons the matrix holds: its Pythons are those of the
#: ``tensorflow`` wheels, and tensorflow-gpu published the same Pythons on its platforms
#: (Linux, and Windows up to 2.10); tensorflow-cpu's and vendors' builds are left out.
_MATRIX_DISTS: Final = frozenset({"tensorflow", "tensorflow-gpu"})


#: Python's documentation of virtual environments: pyvenv.cfg's home, and that an
#: environment is not movable (recreate it).
VENV_GUIDE = "https://docs.python.org/3/library/venv.html#how-venvs-work"

#: pyenv's guide to how it selects a version and to its commands.
PYENV_COMMANDS = "https://github.com/pyenv/pyenv/blob/master/COMMANDS.md"

#: Causes in the interpreter, the operating system, the CPU and the wheels.
#: The interpreter's version, CPU and word size in one line: what decides which wheels fit.


def release_not_for_python_title(dist: str) -> str:
    """The title of :data:`TF_RELEASE_NOT_FOR_PYTHON` for a release of ``dist`` (TensorFlow's
    own distributions, or a companion such as tensorflow-text)."""
    what = "TensorFlow" if normalize_name(dist) in TF_DISTRIBUTIONS else dist
    return f"The requested {what} release has no wheel for this Python and platform"


def project_python_range_fix(installer: str, dist: str, supports: str, narrowed: str) -> Fix:
    """A project whose declared Python range (uv's and PDM's ``requires-python``, Poetry's
    ``python``) reaches Pythons ``dist`` does not support (``supports``: its Requires-Python
    as the resolver prints it): the range narrowed to ``narrowed`` (the resolver's own
    suggestion, empty where it made none), then the lock made again with the same
    installer."""
    to = f'"{narrowed}"' if narrowed else f"a range inside what {dist} supports ({supports})"
    # The resolver locks for every Python the range admits, not only the interpreter at
    # hand, so the interpreter need not change: the declaration must.
    if installer == "poetry":
        return Fix(
            f"{dist} supports Python {supports} only, and Poetry locks for every Python the "
            f"project declares: set the project's Python range to {to} (`python` under "
            "[tool.poetry.dependencies], or `requires-python` under [project] with Poetry 2), "
            "then lock and install again.",
            ("poetry lock", "poetry install"),
        )
    tool, commands = (
        ("PDM", ("pdm lock", "pdm install"))
        if installer == "pdm"
        else (
            "uv",
            ("uv lock", "uv sync"),
        )
    )
    return Fix(
        f"{dist} supports Python {supports} only, and {tool} resolves for every Python the "
        f"project's requires-python admits: set `requires-python = {to}` under [project] in "
        "pyproject.toml, then lock and install again.",
        commands,
    )


#: What each pip release added that installing TensorFlow's wheels needs: Requires-Python
#: (pip 9.0: older pips install releases that dropped the Python and fail building them),
#: manylinux2010 (PEP 571, pip 19.0), manylinux2014 (PEP 599, pip 19.3), manylinux_x_y
#: (PEP 600) and macOS 11's tags (pip 20.3). TensorFlow's install page asks for pip 19.0 or
#: later (20.3 on macOS).
PIP_RELEASE_NOTES = "https://pip.pypa.io/en/stable/news/"
PIP_REQUIRES_PYTHON = (9, 0)
#: The first pip that reads manylinux1 (PEP 513: pip 8.1.0's release notes).
PIP_MANYLINUX1 = (8, 1)
PIP_MANYLINUX2010 = (19, 0)
PIP_MANYLINUX2014 = (19, 3)
#: The first pip that reads PEP 600's manylinux_x_y tags (pip 20.3's release notes).
PIP_PEP600 = (20, 3)
#: The first pip whose tags fit macOS 11 and later as it reports itself (11.x, not 10.x): older
#: ones find no macOS wheel there (pip 20.3's release notes: macOS Big Sur support, through
#: packaging 20.5's tags).
PIP_MACOS11 = (20, 3)

#: Bazel's launcher for a pinned release, and TensorFlow's build guide.
BAZELISK = "https://github.com/bazelbuild/bazelisk"
TF_BUILD_GUIDE = "https://www.tensorflow.org/install/source"
#: NVIDIA's host compiler support policy and table (each toolkit's installation guide has
#: its own), and nvcc's options (-ccbin, -allow-unsupported-compiler).
NVIDIA_HOST_COMPILERS = "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html#host-compiler-support-policy"
NVCC_GUIDE = "https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/index.html"
#: Bazel's page on building C++ on Windows: BAZEL_VC, BAZEL_VS, BAZEL_VC_FULL_VERSION.
BAZEL_WINDOWS = "https://bazel.build/configure/windows#build_cpp"

CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            BAZEL_VERSION_MISMATCH,
            "The Bazel building TensorFlow is not a release its source accepts",
            "A TensorFlow source tree builds with the Bazel releases its ./configure checks "
            "(a lowest and a highest) or its .bazelversion names; an older Bazel lacks rules "
            "and attributes its build files use, a newer one has dropped some, and configure "
            "stops where it finds none named `bazel` on the PATH. Bazelisk, installed as "
            "`bazel`, fetches the release .bazelversion names.",
            TF_BUILD_GUIDE,
            BAZELISK,
        ),
        define(
            BUILD_PYTHON_HEADERS_MISSING,
            "A source build finds no headers of the Python it builds for",
            "Building TensorFlow, a companion or a custom op compiles C++ against the Python "
            "it is configured for (Python.h, pyconfig.h): a distribution's Python ships them "
            "in a separate development package, which the build machine lacks.",
            TF_BUILD_GUIDE,
        ),
        define(
            BUILD_CUDA_CONFIG_NOT_FOUND,
            "A source build's configuration does not find the CUDA libraries it asks for",
            "Configuring a CUDA build of TensorFlow (./configure, then Bazel's "
            "third_party/gpus/find_cuda_config.py) looks for each library's header or file of "
            "the version asked (TF_CUDA_VERSION, TF_CUDNN_VERSION, ...) under a fixed set of "
            "base directories (TF_CUDA_PATHS, else /usr/local/cuda, /usr and the loader's "
            "cache): a library installed elsewhere, of another version, or without its "
            "development headers fails the build.",
            TF_BUILD_GUIDE,
        ),
        define(
            BUILD_HOST_COMPILER_UNSUPPORTED,
            "The CUDA compiler does not support the host compiler the build gives it",
            "nvcc compiles a CUDA source's host code with a C++ compiler of the system (GCC, "
            "clang, MSVC) and accepts only the releases its CUDA toolkit supports: its "
            "crt/host_config.h stops the build with `unsupported GNU version! gcc versions "
            "later than N are not supported` (clang's and Visual Studio's likewise) when the "
            "host compiler is newer. A source build of TensorFlow, or a project's CUDA op, on a "
            "system whose default compiler outgrew the toolkit hits it; a supported compiler "
            "named to the build, or a CUDA release that supports the compiler, mends it.",
            NVIDIA_HOST_COMPILERS,
            NVCC_GUIDE,
        ),
        define(
            NATIVE_ADDON_BUILD_TOOLS_MISSING,
            "A native addon has to be compiled and the build finds no toolchain",
            "A native extension is compiled at install time where no prebuilt binary fits the "
            "platform or the interpreter: a Node.js addon (TensorFlow.js for Node's "
            "tfjs_binding.node) by node-gyp, which also needs a Python it supports, or a Python "
            "package's C/C++ extension by pip through setuptools, where no wheel fits. Either "
            "needs a toolchain: Xcode or its Command Line Tools on macOS (with xcode-select "
            "pointing at them), the Visual Studio Build Tools' C++ workload on Windows, make and "
            "a C/C++ compiler (and Python's headers) on Linux.",
            "https://github.com/nodejs/node-gyp#installation",
            "https://github.com/pypa/setuptools/blob/v73.0.1/setuptools/msvc.py",
        ),
        define(
            PYTHON_REMOVED_MODULE,
            "Code written for an older Python uses a standard module, or a name of one, this "
            "Python removed",
            "Python releases remove standard modules after a deprecation (distutils, imp, "
            "asyncore in 3.12; PEP 594's cgi, imghdr, pipes, telnetlib and others in 3.13; "
            "Python 2's urllib2, cPickle, ConfigParser in 3.0), and names from modules that "
            "stay (collections' aliases of the collections.abc classes in 3.10, "
            "inspect.getargspec and asyncio.coroutine in 3.11): a package release older than "
            "the interpreter, or the project's own code, that uses one fails with `No module "
            "named ...`, `module 'collections' has no attribute 'Mapping'` or `cannot import "
            "name`. A release of the package made for the newer Python, an older Python, or "
            "the replacement in the code mends it.",
            "https://peps.python.org/pep-0594/",
            "https://peps.python.org/pep-0632/",
            "https://docs.python.org/3/whatsnew/3.10.html#removed",
            "https://docs.python.org/3/whatsnew/3.11.html#removed",
        ),
        define(
            PYTHON_TOO_OLD_FOR_PACKAGE,
            "A package's code needs a newer Python than the one running it",
            "A package release can use syntax or typing that a newer Python brought while its "
            "Requires-Python still admits older ones: pip installs it, and importing it fails "
            "in the older interpreter. typing's Callable with an ellipsis among its argument "
            "types (Callable[[int, ...], str]) is refused by the typing module of Python 3.8 "
            "and older ('Callable[[arg, ...], result]: each arg must be a type. Got "
            "Ellipsis.'), which the releases of 3.9 from 3.9.2 and every 3.10 accept. Where the "
            "release's Requires-Python does exclude the older interpreter, pip refuses to "
            "install it instead (pip: \"Package 'X' requires a different Python: 3.10.13 not "
            "in '>=3.11'\"). A newer Python, or a release of the package made for this one, "
            "mends it.",
            "https://github.com/python/cpython/blob/3.8/Lib/typing.py",
            "https://github.com/python/cpython/blob/3.10/Lib/typing.py",
            "https://github.com/python/typing_extensions/pull/481",
            "https://bugs.python.org/issue42195",
        ),
        define(
            DISTRO_PYTHON_PART_MISSING,
            "A part of the distribution's Python is packaged apart and not installed",
            "Debian and Ubuntu split their Python's standard library into packages: venv's "
            "ensurepip (python3.X-venv), distutils beyond its __init__ and version modules "
            "(python3-distutils, until 3.12 removed distutils), lib2to3 (python3-lib2to3) and "
            "tkinter (python3-tk). The interpreter still has the module in its release; the "
            "distribution's package that holds it is missing, so `python3 -m venv` cannot seed "
            "pip ('ensurepip is not available') and imports fail with `No module named "
            "'distutils.util'` or `'_tkinter'`. A Python built from source (pyenv, asdf, "
            "`make install` into /usr/local) lacks a part the same way where the library a "
            "compiled module links was not there when it was built: `No module named '_lzma'`, "
            "`'_bz2'`, `'_sqlite3'`, `'_ctypes'`.",
            "https://packages.debian.org/bookworm/python3-venv",
            "https://packages.debian.org/bullseye/python3-distutils",
            "https://devguide.python.org/getting-started/setup-building/#install-dependencies",
        ),
        define(
            PIP_TOO_OLD,
            "pip is too old for the wheels it has to install",
            "Wheels name the platforms and Pythons they are for with tags that later pip "
            "releases introduced (manylinux2010: pip 19.0, manylinux2014: 19.3, manylinux_2_17 "
            "and macOS 11: 20.3); an older pip skips those wheels, so it lists only older "
            "releases, or none. pip before 9.0 also ignores a release's Requires-Python and "
            "installs releases that no longer support the Python, and PyPI refuses clients "
            "without TLS 1.2 (since 2018).",
            TF_PIP_GUIDE,
            PIP_RELEASE_NOTES,
            "https://peps.python.org/pep-0600/",
        ),
        define(
            METAL_NO_WHEEL_FOR_PYTHON,
            "No tensorflow-metal wheel for this Python",
            "tensorflow-metal publishes wheels for macOS on Apple silicon and a few Python "
            "versions only (its newest release, 1.2.0, for CPython 3.9 to 3.12): on another "
            "Python `pip install tensorflow-metal` finds no distribution, and TensorFlow runs on "
            "the CPU.",
            METAL_FILES,
        ),
        define(
            TF_NO_WHEEL_FOR_PYTHON,
            "No TensorFlow wheel for this Python or platform",
            "pip finds no TensorFlow release built for this interpreter ('No matching "
            "distribution found for tensorflow').",
            "https://www.tensorflow.org/install/source#tested_build_configurations",
        ),
        define(
            WHEEL_MISMATCH,
            "A wheel built for another Python or platform",
            "The wheel's tags (its file name, or the WHEEL file of an installed one) name another "
            "Python version or machine than the examined interpreter's, so its compiled modules "
            "do not load there. pip never picks such a wheel itself: handed one by file or URL "
            "it refuses it ('is not a supported wheel on this platform'); a site-packages copied "
            "between images or interpreters, or `pip install --target` with `--python-version` "
            "or `--platform`, leaves one installed.",
            "https://packaging.python.org/en/latest/specifications/platform-compatibility-tags/",
        ),
        define(
            WINDOWS_NATIVE_GPU_ENDED,
            "No GPU support on native Windows after TensorFlow 2.10",
            "GPU support on native Windows ended with TensorFlow 2.10; later releases run on the "
            "CPU there. WSL2 runs the Linux wheels with the GPU.",
            "https://www.tensorflow.org/install/pip#windows-native",
        ),
        define(
            CPU_LACKS_AVX,
            "The CPU lacks instructions the wheel needs",
            "TensorFlow's wheels are compiled for AVX (and newer lines for more); a CPU or VM "
            "without them dies with 'Illegal instruction'.",
            "https://www.tensorflow.org/install/pip#hardware_requirements",
        ),
        define(
            CPU_EMULATED,
            "The interpreter runs under CPU emulation",
            "An x86-64 Python under QEMU user-mode or Rosetta lacks AVX and runs TensorFlow "
            "slowly or not at all; a native interpreter or image for the host's architecture is "
            "the fix.",
            TF_PIP_GUIDE,
        ),
        define(
            GLIBC_TOO_OLD,
            "The C library is older than the wheel needs",
            "TensorFlow's Linux wheels declare a manylinux glibc floor; an older system cannot "
            "load them.",
        ),
        define(
            MACOS_TOO_OLD,
            "macOS is older than the release the binary was built for",
            "A macOS binary is built for a minimum macOS (its deployment target; a wheel's "
            "macosx_X_Y tag): on an older release the loader finds system symbols missing "
            "(dyld's 'Symbol not found ... Expected in: /usr/lib/libSystem.B.dylib') and the "
            "import fails.",
            "https://www.tensorflow.org/install/pip#system-requirements",
        ),
        define(
            LIBSTDCXX_TOO_OLD,
            "The C++ runtime loaded is older than a native library needs",
            "A native extension was built with a newer GCC than the libstdc++ the loader found: "
            "the symbol versions it needs (GLIBCXX_3.4.N, CXXABI_1.3.N) are missing there. In "
            "a conda environment the system's older copy is often loaded instead of the "
            "environment's own.",
            "https://gcc.gnu.org/onlinedocs/libstdc++/manual/abi.html",
        ),
        define(
            MSVC_RUNTIME_MISSING,
            "A native DLL does not load on Windows",
            "TensorFlow's Windows wheels need the Microsoft Visual C++ 2015-2022 runtime "
            "(msvcp140_1.dll), 64-bit Python and a CPU with AVX.",
            "https://www.tensorflow.org/install/pip#windows-native",
        ),
        define(
            PYTHON_32BIT,
            "32-bit Python",
            "TensorFlow publishes 64-bit wheels only.",
        ),
        define(
            WSL1,
            "WSL 1 has no GPU access",
            "CUDA in WSL needs WSL 2.",
            "https://learn.microsoft.com/windows/wsl/install",
        ),
        define(
            WSL_DRIVER_BROKEN,
            "The GPU libraries WSL 2 brings from Windows are missing or broken",
            "WSL 2 gives a distribution the GPU through the Windows driver: WSL mounts its "
            "libraries (libcuda.so.1, libd3d12.so, libdxcore.so) into /usr/lib/wsl/lib, and "
            "nothing installed inside the distribution replaces them. One of them missing or "
            "failing to load is a WSL or Windows driver that predates GPU support, or files "
            "installed over them (a Linux NVIDIA driver inside WSL).",
            "https://learn.microsoft.com/windows/wsl/tutorials/gpu-compute",
            "https://docs.nvidia.com/cuda/wsl-user-guide/index.html",
        ),
        define(
            GPU_ACCESS_BLOCKED,
            "The operating system blocks access to the GPU",
            "NVML reaches the GPU through the device the system gives the process: a "
            "paravirtualised GPU (/dev/dxg) under WSL 2 or in a Hyper-V guest given a GPU "
            "partition, the /dev/nvidia* nodes in a container. Where the system gives it none, "
            "NVML says the operating system blocks its access, whatever driver is installed.",
            "https://docs.nvidia.com/cuda/wsl-user-guide/index.html",
            "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/"
            "docker-specialized.html",
        ),
        define(
            NATIVE_LIBRARY_UNRESOLVED,
            "A native library could not be loaded",
            "The dynamic loader could not find or load a shared library that a Python "
            "extension (TensorFlow's own, or another package's) needs. The message names the "
            "library the loader looked for, not always the file that needed it; the loader's "
            "own trace and ldd say both.",
            "https://man7.org/linux/man-pages/man8/ld.so.8.html",
            "https://man7.org/linux/man-pages/man1/ldd.1.html",
        ),
        define(
            TF_EXPORTED_SYMBOL_CLASH,
            "Another library binds to a copy of its own code that TensorFlow exports",
            "TensorFlow 1.14 exports the symbols of the hwloc it bundles from "
            "libtensorflow_framework (1.15 hides them again; the hwloc bundled again from 2.20 "
            "is exported again); Open MPI (loaded into the same process by Horovod or mpi4py) "
            "then resolves its own hwloc calls to TensorFlow's copy, of another hwloc release, "
            "and crashes in them. Loading the system's hwloc first (LD_PRELOAD) makes Open MPI "
            "bind to its own.",
            "https://github.com/horovod/horovod/blob/v0.28.1/docs/troubleshooting.rst",
            "https://github.com/horovod/horovod/issues/1123",
            "https://github.com/tensorflow/tensorflow/pull/29807",
            "https://github.com/tensorflow/tensorflow/issues/40830",
            "https://github.com/tensorflow/tensorflow/issues/125854",
        ),
        define(
            BINDING_PROCESS_NOT_64BIT,
            "A program using TensorFlow through another language runs as a 32-bit process",
            "TensorFlow's C library, which the bindings of other languages load (Java's "
            "libtensorflow_jni, .NET's TensorFlow.NET and TensorFlowSharp), is built for 64-bit "
            "systems only. A 32-bit JVM, or a .NET program built for x86 (or AnyCPU with "
            "'Prefer 32-bit', a .NET Framework console project's default) runs as a 32-bit "
            "process that cannot load it: Java's loader finds no library for its architecture "
            "(x86), .NET reports the library as not found although it lies beside the program. "
            "A 64-bit process loads it; reinstalling TensorFlow changes nothing.",
            "https://github.com/tensorflow/tensorflow/blob/v1.15.0/tensorflow/java/src/main/java/org/tensorflow/NativeLibrary.java",
            "https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-options/output#platformtarget",
            "https://github.com/SciSharp/TensorFlow.NET#installation",
        ),
        define(
            EXTERNALLY_MANAGED,
            "pip refuses to install into a Python the system manages",
            "A Python its distribution manages (Debian 12, Ubuntu 23.04 and later, Arch Linux, "
            "Homebrew) marks itself externally managed (PEP 668): pip refuses to install into "
            "it. TensorFlow goes into a virtual environment of that Python instead.",
            "https://peps.python.org/pep-0668/",
            "https://packaging.python.org/en/latest/specifications/externally-managed-environments/",
        ),
        define(
            WINDOWS_LONG_PATHS,
            "Windows refused a path longer than 260 characters",
            "TensorFlow's wheel holds files whose paths, under a deep site-packages (the "
            "Microsoft Store Python's above all), pass Windows' 260-character limit: without "
            "long path support pip cannot write them and the install is left partial.",
            "https://pip.pypa.io/warnings/enable-long-paths",
            "https://learn.microsoft.com/en-us/windows/win32/fileio/maximum-file-path-limitation",
        ),
        define(
            SHELL_GLOB_EXTRA,
            "The shell read the extra's brackets as a file pattern",
            "zsh (macOS' default shell, and many Linux setups) treats `tensorflow[and-cuda]` as "
            "a file-name pattern and stops when no file matches; quoted, it reaches pip.",
            "https://zsh.sourceforge.io/Doc/Release/Expansion.html#Filename-Generation",
            "https://pip.pypa.io/en/stable/cli/pip_install/#examples",
        ),
        define(
            STATIC_TLS_EXHAUSTED,
            "A library loaded late found no room in the static TLS block",
            "glibc keeps a small fixed surplus of static thread-local storage for libraries "
            "loaded after the program started; a library built with initial-exec TLS (libgomp, "
            "libGLdispatch) that an import loads late can find it used up, most often on "
            "aarch64 (Jetson). It loads when it is loaded at start (LD_PRELOAD), or with a "
            "larger surplus (glibc 2.32 and later).",
            "https://www.gnu.org/software/libc/manual/html_node/Dynamic-Linking-Tunables.html",
        ),
        define(
            TF_RELEASE_NOT_FOR_PYTHON,
            release_not_for_python_title("tensorflow"),
            "pip lists the TensorFlow releases that publish a wheel for the Python and platform "
            "it runs on; the requested one is not among them. Each release supports a range of "
            "Python versions, so a pin written for another Python (older or newer) cannot "
            "install here.",
            TF_PIP_GUIDE,
            "https://pypi.org/project/tensorflow/#files",
        ),
        define(
            PINNED_SDIST_UNBUILDABLE,
            "An old release a requirement chose fails to build from source",
            "A requirement's range (a library's pin) makes pip's resolver go back to an older "
            "release of a dependency that publishes no wheel for this Python, so pip builds its "
            "source archive; its isolated build environment installs the newest build tools "
            "(Cython 3, setuptools), which the old release's build script predates, and the "
            "build fails before any wheel exists.",
            "https://pip.pypa.io/en/stable/topics/dependency-resolution/",
            "https://pip.pypa.io/en/stable/reference/build-system/pyproject-toml/",
        ),
        define(
            DEPENDENCY_SDIST_BUILD_FAILS,
            "pip replaced an installed dependency with a source build that fails",
            "Resolving the requested packages made pip remove a dependency installed from a "
            "wheel and build another release of it from its source archive; that build fails on "
            "this machine (a compiler, a native library such as LLVM missing), so the install "
            "stops with the dependency gone or half-installed.",
            "https://pip.pypa.io/en/stable/user_guide/#constraints-files",
        ),
        define(
            CI_PYTHON_VERSION_UNAVAILABLE,
            "The CI runner offers no Python of the version the workflow asks for",
            "GitHub's actions/setup-python takes the Python a workflow names from the runner "
            "image's tool cache or from its list of builds for that image; a hosted runner "
            "image keeps one patch release of each minor and drops old minors, so an exact "
            "patch pinned in the workflow (3.8.5) or a minor the image no longer has stops the "
            "job before pip or TensorFlow run. The pin, not TensorFlow, is what to change.",
            "https://github.com/actions/setup-python/blob/main/docs/advanced-usage.md",
            "https://github.com/actions/python-versions/blob/main/versions-manifest.json",
        ),
        define(
            PYENV_VERSION_UNAVAILABLE,
            "The Python version pyenv selects is not installed, or lacks the command",
            "pyenv's shims run `python`, `pip` and the other commands from the version it "
            "selects: PYENV_VERSION, else the nearest .python-version file, else its global "
            "version file. Where that version is not installed, or has no such command, the "
            "shim refuses and nothing runs: the install or the script never reached a Python.",
            PYENV_COMMANDS,
        ),
        define(
            VENV_BASE_PYTHON_MISSING,
            "The virtual environment's Python points to an interpreter that is gone",
            "A virtual environment does not copy its Python: pyvenv.cfg's `home` names the "
            "interpreter it was made from (Windows' Scripts\\python.exe is a launcher that "
            "runs it), bin/python is a link to it, and the scripts in bin/ (pip) name the "
            "environment's python by its absolute path. Where that interpreter was removed or "
            "upgraded, or the environment was moved, renamed or copied from another machine "
            "or user, nothing in it runs: pip installs nothing and the program never starts.",
            VENV_GUIDE,
        ),
        define(
            PYTHON_COMMAND_MISSING,
            "The shell finds no Python (or pip) under the name typed",
            "Ubuntu and Debian install Python 3 as `python3` and its pip as the separate "
            "python3-pip package: `python` and `pip` exist only where a package adds them "
            "(python-is-python3), and a `python3.X` only where that release is installed. "
            "Windows without Python runs its Microsoft Store shortcut for `python`. The command "
            "never reached a Python: nothing was installed or run.",
            "https://docs.python.org/3/using/unix.html",
            "https://docs.python.org/3/using/windows.html",
        ),
    )
)


def pyenv_fix(version: Optional[str], origin: Optional[str], command: Optional[str]) -> Fix:
    """pyenv's selected ``version`` is not installed (``origin``: what set it, as pyenv says),
    or the selected version has no ``command``: install that version, or select one that is
    installed (and has the command)."""
    if version:
        release = re.fullmatch(
            r"\d+(?:\.\d+){1,2}(?:[a-z]+\d*)?|(?:pypy|miniconda|anaconda)\S*", version
        )
        install: tuple[str, ...] = (f"pyenv install {version}",) if release else ()
        if origin and "PYENV_VERSION" in origin:
            where = "unset PYENV_VERSION (or set it to an installed version)"
        elif origin and ("/" in origin or "\\" in origin):
            where = f"name an installed version in {origin}"
        else:
            where = "select an installed version (pyenv local VERSION or pyenv global VERSION)"
        made = (
            f"install it (pyenv install {version})"
            if install
            else "create it (pyenv virtualenv PYTHON_VERSION " + version + ") with pyenv-virtualenv"
        )
        return Fix(
            f"pyenv selects {version}{' (set by ' + origin + ')' if origin else ''}, which is not "
            f"installed: {made}, or {where}; `pyenv versions` lists the installed ones.",
            (*install, "pyenv versions"),
        )
    what = f"`{command}`" if command else "that command"
    return Fix(
        f"The Python version pyenv selects has no {what}: `pyenv whence {command or 'COMMAND'}` "
        "lists the installed versions that have it; select one (pyenv local VERSION, or pyenv "
        "shell VERSION for this shell), or install the command into the selected version"
        + (" (python -m ensurepip --upgrade)" if command and command.startswith("pip") else "")
        + ".",
        (f"pyenv whence {command or 'COMMAND'}", "pyenv version"),
    )


def venv_base_fix(missing: Optional[str], windows: bool = False) -> Fix:
    """Recreate the virtual environment with an interpreter that exists (``missing``: the one
    it points to, where the log names it; ``windows``: the machine is Windows, as a path of
    ``missing`` with a drive also says), or put that interpreter back."""
    release = re.search(r"[Pp]ython(\d)(\d{1,2})\b|python(\d\.\d{1,2})\b", missing or "")
    version = (
        (f"{release.group(1)}.{release.group(2)}" if release.group(1) else release.group(3))
        if release
        else None
    )
    named = f" ({missing})" if missing else ""
    back = f"install Python {version} again" if version else "install that Python again"
    # `python` may be the broken environment's own link (its bin or Scripts first on PATH):
    # the command names the system's, python3 on Linux and macOS, Windows' py launcher's
    # newest Python 3 (https://docs.python.org/3/using/windows.html#python-launcher-for-windows).
    windows = windows or bool(missing and re.match(r"[A-Za-z]:\\", missing))
    python = "py -3" if windows else "python3"
    return Fix(
        f"The environment's Python points to an interpreter that is not there{named}: "
        "recreate the environment with a Python that is installed (delete the environment's "
        "folder, make it again, then install the requirements into it), or "
        f"{back} where the environment expects it. A virtual environment cannot be moved or "
        "copied to another machine or user: make it anew there.",
        (f"{python} -m venv --clear VENV_DIR  # the environment's folder",),
    )


def python_command_fix(command: Optional[str]) -> Fix:
    """The shell found no ``command`` (``python``, ``pip``, ``python3.12``; None: Windows' Store
    shortcut ran in place of a Python): the name that exists, or the package that adds it."""
    if command is None:
        return Fix(
            "No Python is installed on this Windows PATH: the `python` that ran is the "
            "Microsoft Store's shortcut. Install Python (python.org's installer, with \"Add "
            'python.exe to PATH"), or use the `py` launcher where a Python is installed, and '
            "turn the shortcut off in Settings > Apps > Advanced app settings > App execution "
            "aliases.",
            ("py -0p",),
        )
    if command.startswith("pip"):
        return Fix(
            "No pip command is on PATH: run pip through the Python that runs the code "
            "(`python3 -m pip`), or install the distribution's pip (python3-pip); where the "
            "system Python is externally managed, install into a virtual environment.",
            ("sudo apt install python3-pip", "python3 -m pip --version"),
        )
    if command == "python":
        return Fix(
            "This system names Python 3 `python3`: type `python3` (and `python3 -m pip`), or "
            "install python-is-python3, which makes `python` run it.",
            ("sudo apt install python-is-python3",),
        )
    return Fix(
        f"{command} is not installed: run the code with a Python that is (`ls /usr/bin/python3*` "
        f"lists them) inside TensorFlow's supported range, or install that release (from the "
        "distribution's packages where the shell offers it, else pyenv or the deadsnakes PPA).",
        ("ls /usr/bin/python3*",),
    )


def ci_python_fix(requested: Optional[str]) -> Fix:
    """A python-version the runner offers: the minor alone where an exact patch was pinned
    (setup-python then takes the newest patch it has), else an image or a Python that has it."""
    find = ("grep -rn 'python-version' .github/workflows",)
    parts = (requested or "").split(".")
    if len(parts) >= 3 and all(p.isdigit() for p in parts[:2]):
        minor = ".".join(parts[:2])
        return Fix(
            f"The workflow pins Python {requested}, a patch release the runner no longer "
            f"offers: set python-version to '{minor}' (setup-python then takes the newest "
            f"{minor} patch the runner has), or to a {minor} patch the step lists as available; "
            f"where the runner image has no {minor} at all (the step then refuses '{minor}' "
            "too), run the job on an older image that has it (runs-on) or move to a newer "
            "Python.",
            find,
        )
    what = f"Python {requested}" if requested else "that Python"
    return Fix(
        f"The runner image no longer offers {what}: run the job on an older runner image that "
        "still has it (runs-on), or move the workflow to a newer Python that the project and "
        "its TensorFlow release support.",
        find,
    )


def windows_gpu_fix(m: Machine, archive: bool = False) -> Fix:
    """WSL2 with the Linux wheels, or the last TensorFlow line with native Windows GPU wheels
    in the matrix (``archive``: TensorFlow's C library, whose archives follow the same builds)."""
    from tfdoctor.compat import newest_fit  # noqa: PLC0415 - avoids a cycle at import

    commands = ["wsl --install"]
    if archive:
        last = last_windows_gpu_line(m)
        release = f"TensorFlow {last.line}" if last is not None else "the last release with one"
        return Fix(
            "Use the Windows GPU archive of TensorFlow's C library (libtensorflow-gpu-windows-"
            f"x86_64) of {release}, the last native Windows GPU release "
            "(https://www.tensorflow.org/install/lang_c lists it), or build and run under "
            "WSL2 with the Linux GPU archive.",
            tuple(commands),
        )
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
            commands.extend(
                m.conda_install(
                    f"cudatoolkit={nl.cuda}", f"cudnn={nl.cudnn}", channel="conda-forge"
                )
            )
    else:
        text += ", or, for native Windows GPU support, " + _last_windows_gpu_env(m)
    return Fix(text + ".", tuple(commands))


def last_windows_gpu_line(m: Machine) -> Optional[TFLine]:
    """The last TensorFlow line with native Windows GPU wheels in the matrix (its lines run
    newest first); None without a matrix."""
    lines = m.matrix.lines if m.matrix is not None else ()
    return next((x for x in lines if x.windows_native_gpu), None)


def _last_windows_gpu_env(m: Machine) -> str:
    """The Pythons and line of the last TensorFlow line with native Windows GPU wheels, as the
    matrix states them, in words for a fix."""
    last = last_windows_gpu_line(m)
    pythons = last.pythons_on(DEFAULT_PLATFORM_OF_OS["windows"]) if last is not None else ()
    if last is None or not pythons:
        what = "an environment with the last TensorFlow release that has it"
    else:
        span = python_span(pythons)[len("CPython ") :]
        what = f"a Python {span} environment with TensorFlow {last.line}"
    return f"{what} (`tfdoctor matrix --platform windows --gpu CC`)"


#: The last TensorFlow release whose PyPI wheels run without AVX: TensorFlow 1.6's release
#: notes say its prebuilt binaries use AVX instructions.
LAST_WITHOUT_AVX: Final = "1.5"


def _cpu_flags_command(needed: str, system: Optional[str]) -> str:
    """The command that lists the CPU's instruction sets on ``system`` (``windows``,
    ``macos``; None or another: Linux's /proc/cpuinfo), ``needed`` among them."""
    if system == "windows":
        # Windows has no /proc/cpuinfo: Sysinternals' Coreinfo lists the instruction sets
        # (https://learn.microsoft.com/en-us/sysinternals/downloads/coreinfo); findstr matches
        # any of the space-separated words.
        return f'coreinfo64 -accepteula -f | findstr /i "{needed}"'
    if system == "macos":
        # macOS lists the CPU's features in sysctl: AVX as AVX1.0, AVX2 among leaf 7's.
        return (
            "sysctl -n machdep.cpu.brand_string machdep.cpu.features "
            "machdep.cpu.leaf7_features | grep -o -w -E 'AVX1.0|AVX2|FMA|SSE4.1|SSE4.2' | sort -u"
        )
    # /proc/cpuinfo spells the flags in lower case with "_" for "." (sse4_1, avx512f).
    asked = needed.lower().replace(".", "_").split()
    flags = "|".join(dict.fromkeys((*asked, "avx", "avx2", "fma", "avx512f")))
    return f"grep -o -w -E '{flags}' /proc/cpuinfo | sort -u"


def cpu_avx_fix(
    instruction: Optional[str] = None, system: Optional[str] = None, binding: Optional[str] = None
) -> Fix:
    """A CPU (or VM CPU model) with the instructions the wheels need, or a source build;
    ``instruction``: the set TensorFlow said it lacks (``SSE4.1``), else AVX; ``system``:
    ``windows``, ``macos`` or ``linux`` (None: Linux's command); ``binding``: TensorFlow.js
    for Node's addon that failed."""
    needed = instruction or "AVX"
    check = _cpu_flags_command(needed, "windows" if binding else system)
    found = tfjs_binding(binding) if binding else None
    if found is not None:
        # TensorFlow.js runs without TensorFlow's C library on its JavaScript and WebAssembly
        # backends (https://www.tensorflow.org/js/guide/platform_environment).
        package = found[1]
        return Fix(
            f"TensorFlow's library that @tensorflow/{package} loads (tensorflow.dll) is "
            f"compiled for {needed}, which this CPU lacks: run on a CPU with {needed}, or drop "
            "the native addon for TensorFlow.js's own backends (@tensorflow/tfjs with "
            "@tensorflow/tfjs-backend-wasm), which need no TensorFlow library.",
            (
                check,
                f"npm uninstall @tensorflow/{package}",
                "npm install @tensorflow/tfjs @tensorflow/tfjs-backend-wasm",
            ),
        )
    if system == "macos":
        # TensorFlow 1.6's release notes: "Prebuilt binaries will use AVX instructions".
        return Fix(
            f"This Mac's CPU lacks {needed} (as Intel Macs made up to 2010, and 2012's Mac Pro, "
            "do), which every "
            f"TensorFlow macOS wheel after {LAST_WITHOUT_AVX} is compiled for: run on a Mac (or "
            "any machine) "
            f"with {needed}, or build TensorFlow from source for this CPU.",
            (check,),
        )
    # TensorFlow 1.6's release notes: "Prebuilt binaries will use AVX instructions. This may
    # break TF on older CPUs." (https://github.com/tensorflow/tensorflow/releases/tag/v1.6.0)
    last = (
        f" (PyPI's last is TensorFlow {LAST_WITHOUT_AVX}, for Python up to 3.6 and TensorFlow 1 "
        "code: 1.6 and later are built for AVX)"
        if needed == "AVX"
        else ""
    )
    # A virtual machine's CPU model decides what its guests see: QEMU's and Proxmox's generic
    # models (kvm64, qemu64, x86-64-v2-AES) stop below x86-64-v3, the psABI level that adds
    # AVX, AVX2 and FMA; VirtualBox on a Windows host where Hyper-V runs uses Hyper-V's
    # platform, whose guests are then run without AVX (polio-nanopore/piranha#106: the guest
    # got AVX once Hyper-V was off).
    # https://pve.proxmox.com/pve-docs/chapter-qm.html#qm_cpu
    # https://gitlab.com/x86-psABIs/x86-64-ABI
    # https://www.virtualbox.org/manual/ch10.html#hyperv-support
    return Fix(
        f"Run on a CPU with {needed} (and the other instructions the wheel needs). In a "
        "virtual machine, give the guest the host's CPU flags: QEMU's and Proxmox's generic "
        "CPU models (kvm64, qemu64, x86-64-v2-AES) hide AVX, so choose `host` (or x86-64-v3); "
        "VirtualBox on a Windows host where Hyper-V is on may run its guests without AVX: "
        "turning Hyper-V off there (Hyper-V, the Virtual Machine Platform and memory "
        "integrity) gives them the CPU's flags, and stops WSL 2 and Docker Desktop's WSL "
        "backend until it is on again. Else "
        f"install a TensorFlow build made without it{last}, or build TensorFlow from source "
        "for this CPU.",
        (check,),
    )


def beyond_avx_build(dist: str) -> bool:
    """Whether ``dist`` is a TensorFlow build of another project than the TensorFlow
    project's own PyPI wheels (releases, nightlies, the wrappers that install them: the
    matrix's and the nightly distributions), which are built for AVX alone: their start-up
    notice names AVX2 and FMA among the instructions a rebuild would add
    (tensorflow/core/platform/cpu_feature_guard.cc). tensorflow-directml, a vendor's or a
    community's build may be compiled for more."""
    name = normalize_name(dist)
    return name not in MATRIX_DISTRIBUTIONS and name not in NIGHTLY_DISTRIBUTIONS


def cpu_beyond_avx_fix(m: Machine, missing: Sequence[str], tf: PackageFacts) -> Fix:
    """A CPU with AVX that lacks ``missing`` (``AVX2``, ``FMA``), where the TensorFlow build
    installed (``tf``, not one of PyPI's AVX-only wheels) died on an instruction: that build
    was compiled for them. A release of it built for AVX alone, PyPI's TensorFlow, or a CPU
    with them."""
    lacks = " and ".join(missing)
    return Fix(
        f"This CPU has AVX but not {lacks}, and the TensorFlow build installed, {tf.name} "
        f"{tf.version}, was compiled for more than AVX (PyPI's TensorFlow wheels need AVX "
        f"alone; other projects' builds may need more). Install a release of {tf.name} built "
        f"for CPUs without {lacks} (its project's release notes say which; the newest first), "
        f"or PyPI's tensorflow of the line the code needs, or run on a CPU with {lacks}.",
        (
            _cpu_flags_command(" ".join(missing), m.os),
            *m.list_releases(tf.name),
            *m.pip(f"install --upgrade {tf.name}"),
        ),
    )


#: TensorFlow.js for Node's addon in its package: node_modules\@tensorflow\tfjs-node(-gpu)\
#: lib\napi-vN\tfjs_binding.node (package.json's binary.module_path), as Node prints it on
#: Windows (``\\?\`` before it) or elsewhere. A cache that keeps each release in a folder of
#: its version (Deno's npm cache: registry.npmjs.org\@tensorflow\tfjs-node\4.22.0\lib\...)
#: holds the package one folder deeper: that folder is the package's.
_TFJS_BINDING = re.compile(
    r"^(?:\\\\\?\\)?(?P<root>.*?[\\/](?P<package>tfjs-node(?:-gpu)?)"
    r"(?:[\\/](?P<release>\d{1,4}\.\d{1,4}\.\d{1,4}[\w.+-]{0,40}))?)[\\/]lib[\\/]"
    r"(?P<napi>napi-v\d+)[\\/]tfjs_binding\.node\.?$"
)


def tfjs_binding(path: str) -> Optional[tuple[str, str, str, str]]:
    """TensorFlow.js for Node's addon ``path`` as its package's directory, the package
    (``tfjs-node-gpu``), the N-API directory (``napi-v8``) and the separator, or None."""
    found = _TFJS_BINDING.match(path.strip())
    if found is None:
        return None
    sep = "\\" if "\\" in found.group("root") else "/"
    return found.group("root"), found.group("package"), found.group("napi"), sep


def tfjs_binding_fix(binding: str, built: bool = True) -> Fix:
    """TensorFlow.js for Node's addon that does not load: ``built``, it exists and a DLL it
    links does not load (tensorflow.dll, which the install copies from deps\\lib beside the
    addon on Windows: scripts/install.js, deps-stage.js), else the install left no addon."""
    found = tfjs_binding(binding)
    root, package, napi, sep = found or ("node_modules/@tensorflow/tfjs-node", "tfjs-node", "", "/")
    rebuild = f"npm rebuild @tensorflow/{package} --build-addon-from-source"
    target = f"{root}{sep}lib{sep}{napi or 'napi-vN'}"
    if not built:
        return _tfjs_binding_unbuilt_fix(binding, root, package, target, sep, rebuild)
    text = (
        f"tfjs_binding.node is there, but a DLL it links did not load: most often "
        f"tensorflow.dll, which the install leaves in {root}{sep}deps{sep}lib and copies into "
        f"{target}, where the addon looks for it. Copy it there, or rebuild the addon (which "
        "stages it again)."
    )
    if package.endswith("-gpu"):
        text += (
            " For the GPU package the CUDA and cuDNN DLLs that tensorflow.dll was built for "
            "must be on PATH too."
        )
    copy = f'copy "{root}{sep}deps{sep}lib{sep}tensorflow.dll" "{target}"'
    return Fix(text, (copy, rebuild) if sep != "/" else (rebuild,))


def _tfjs_binding_unbuilt_fix(
    binding: str, root: str, package: str, target: str, sep: str, rebuild: str
) -> Fix:
    """TensorFlow.js for Node's addon missing from ``target``, the N-API folder the runtime
    loading it reads: in Deno's npm cache (a folder of the release), the install script Deno
    did not run; in node_modules, an install that fetched or built none for that folder."""
    cached = _TFJS_BINDING.match(binding.strip())
    release = cached.group("release") if cached is not None else None
    if release:
        # Deno runs no npm package's lifecycle script unless it is approved, so the install
        # script that downloads libtensorflow and fetches or builds the addon
        # (tfjs-node's scripts/install.js, package.json's "install") never ran
        # (https://docs.deno.com/runtime/reference/cli/approve_scripts/).
        return Fix(
            f"@tensorflow/{package} {release} in Deno's npm cache has no addon "
            f"(tfjs_binding.node) in {target}: Deno does not run an npm package's install "
            "script unless it is approved, and tfjs-node's install script is what downloads "
            "libtensorflow and fetches or builds the addon. Approve it in the project's "
            "folder, which runs the script into the project's node_modules (the build, where "
            "no prebuilt addon fits, needs Python and a C++ compiler).",
            (f"deno approve-scripts npm:@tensorflow/{package}",),
        )
    # node-pre-gyp's install fetches or builds the addon for one N-API version only, the
    # highest of package.json's binary.napi_versions that the installing runtime supports,
    # and its find() looks under the one of the runtime loading it (lib/util/napi.js:
    # expand_commands, get_best_napi_build_version; lib/pre-binding.js: find). Node-API is
    # forward compatible: an addon built for version N loads in a runtime of any later
    # version (https://nodejs.org/api/n-api.html#node-api-version-matrix). On Windows the
    # install stages tensorflow.dll in that folder beside the addon (scripts/install.js,
    # deps-stage.js symlink).
    listing = (
        f'dir /s /b "{root}\\lib\\tfjs_binding.node"'
        if sep == "\\"
        else f"ls {shlex.quote(root)}/lib/napi-v*/tfjs_binding.node"
    )
    files = "tfjs_binding.node and tensorflow.dll" if sep == "\\" else "tfjs_binding.node"
    return Fix(
        f"@tensorflow/{package} has no addon (tfjs_binding.node) in {target}, the folder of "
        "the highest N-API version in its package.json's napi_versions that the runtime "
        "loading it supports: its install did not fetch or build the addon, or ran under a "
        "runtime of a lower N-API version, which fills that version's napi-v folder only. "
        f"Where a napi-v folder of a lower version holds it, copy that folder's {files} into "
        f"{target}; otherwise rebuild it, as tfjs-node's own message says (the build needs "
        "Python and a C++ compiler: on Windows the Visual Studio Build Tools).",
        (listing, rebuild),
    )


def binding_64bit_fix(binding: str) -> Fix:
    """A 64-bit process for a binding's program: ``binding`` ``java`` (a 64-bit JVM: its
    ``sun.arch.data.model`` property says 64) or ``dotnet`` (the x64 platform target, without
    Prefer32Bit; ``Environment.Is64BitProcess`` says which it runs as)."""
    if binding == "java":
        return Fix(
            "The JVM is a 32-bit one (its os.arch is x86), and TensorFlow's Java library ships "
            "its native library for 64-bit systems only: run the program with a 64-bit JDK or "
            "JRE (x64), which `java -XshowSettings:properties -version` shows as "
            "sun.arch.data.model = 64.",
            (
                "java -XshowSettings:properties -version 2>&1 "
                "| grep -E 'os.arch|sun.arch.data.model'",
            ),
        )
    return Fix(
        "TensorFlow's C library is 64-bit only: build the .NET program for x64 (the project's "
        "platform target, not x86 or AnyCPU with 'Prefer 32-bit'), so that it runs as a 64-bit "
        "process that can load it; Environment.Is64BitProcess tells which it runs as.",
        (
            "dotnet build -p:PlatformTarget=x64 -p:Prefer32Bit=false",
            "msbuild /p:PlatformTarget=x64 /p:Prefer32Bit=false",
        ),
    )


def dotnet_library_unfound_fix(sharp: bool) -> Fix:
    """A .NET binding of TensorFlow that did not find its C library: the native package that
    brings it, copied beside the program (``sharp``: the log shows TensorFlowSharp, whose own
    NuGet package carries the library; else TensorFlow.NET's SciSharp.TensorFlow.Redist)."""
    check = (
        "find bin -iname '*tensorflow*' \\( -name '*.dll' -o -name '*.so' -o -name '*.dylib' \\)"
    )
    if sharp:
        return Fix(
            "The .NET binding (TensorFlowSharp) did not find TensorFlow's C library beside the "
            "program or on the loader's path: its NuGet package carries the library for 64-bit "
            "Windows, Linux and macOS and the build copies it into the output directory; "
            "check it is there.",
            (check,),
        )
    return Fix(
        "The .NET binding did not find TensorFlow's C library beside the program or on the "
        "loader's path: install the package that carries it for this system (for "
        "TensorFlow.NET, SciSharp.TensorFlow.Redist) so the build copies it into the output "
        "directory, and check it is there.",
        ("dotnet add package SciSharp.TensorFlow.Redist", "dotnet build", check),
    )


def own_library_unopened_fix(m: Machine, path: str, dist: str) -> Fix:
    """A package's own compiled library, named by its installed path, that the loader reports
    as not there: glibc's loader says "No such file or directory" (ENOENT) for a file missing
    and for an ELF file of another machine alike (elf/dl-load.c, open_verify: a machine that
    does not match closes the file and sets ENOENT), so ``file`` and ``uname -m`` tell a build
    for another platform from a partial install."""
    quoted = shlex.quote(path)
    return Fix(
        f"The loader reports {dist}'s own library as not there: glibc says so both for a file "
        "that is missing and for one built for another machine (an x86-64 library on an "
        f"aarch64 system). `file` on it beside `uname -m` tells which: a library for another "
        f"machine means the installed {dist} is a build for another platform, whose wheels do "
        f"not cover this machine: install a release of {dist} that publishes a wheel for it "
        "(pip download below fetches one only if it exists), or run on a machine its wheels "
        f"cover; no such file is a partial install: reinstall {dist}.",
        (
            "uname -m",
            f"file {quoted}",
            *m.pip(
                f"download --no-deps --only-binary=:all: -d /tmp/wheel-check {shlex.quote(dist)}"
            ),
            *m.pip(f"install --force-reinstall --no-deps {shlex.quote(dist)}"),
        ),
    )


def tfjs_dlopen_fix(os: Optional[str], package: str = "tfjs-node") -> Fix:
    """TensorFlow.js for Node's addon that Node could not load (ERR_DLOPEN_FAILED), the
    message with the file and the reason not shown: on Windows tensorflow.dll not beside the
    addon (the install copies it from deps\\lib into lib\\napi-vN: scripts/deps-stage.js);
    elsewhere the addon's run path finds libtensorflow in deps/lib, and ldd names what fails.
    ``os``: the system the log shows, None where it shows none; ``package``: the one the log
    shows (tfjs-node-gpu has the same layout)."""
    root = f"node_modules\\@tensorflow\\{package}"
    copy = f'copy "{root}\\deps\\lib\\tensorflow.dll" "{root}\\lib\\napi-vN\\"'
    find = f"dir /s /b {root}\\lib\\tfjs_binding.node"
    rebuild = f"npm rebuild @tensorflow/{package} --build-addon-from-source"
    windows = (
        f"Node could not load {package}'s addon (tfjs_binding.node). On Windows that is most "
        "often tensorflow.dll, the TensorFlow library the addon links, left in the package's "
        "deps\\lib instead of beside the addon in lib\\napi-vN (N: the directory that holds "
        "tfjs_binding.node; with pnpm the package is under node_modules\\.pnpm): copy it there, "
        "or rebuild the addon, which stages it again."
    )
    if os == "windows":
        return Fix(windows, (find, copy, rebuild))
    ldd = f"ldd node_modules/@tensorflow/{package}/lib/napi-v*/tfjs_binding.node | grep 'not found'"
    return Fix(
        f"{windows} On Linux and macOS the addon finds libtensorflow in deps/lib through its "
        "run path: ldd (otool -L on macOS) on tfjs_binding.node names the library that does "
        "not load.",
        (find, copy, ldd, rebuild),
    )


def tfjs_word_size_fix(binding: str) -> Fix:
    """TensorFlow.js for Node's addon and TensorFlow library are 64-bit builds only
    (scripts/deps-constants.js lists x86_64 alone for Windows): a 32-bit Node.js cannot
    load them."""
    found = tfjs_binding(binding)
    package = found[1] if found is not None else "tfjs-node"
    return Fix(
        f"@tensorflow/{package} is built for 64-bit (x64) Node.js only, and this Node.js is "
        "of another word size (`node -p process.arch` prints ia32 for a 32-bit one): install "
        f"the 64-bit Node.js and install @tensorflow/{package} again with it.",
        ('node -p "process.arch"', f"npm install @tensorflow/{package}"),
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


def backend_module_missing_fix(m: Machine, backend: str, dist: str, module: str) -> Fix:
    """Keras 3's ``backend`` imported ``dist`` and then found no ``module`` inside it (its
    compiled extension, torch._C): Python's import system says ``No module named 'a.b'`` only
    once the package ``a`` imported (importlib's _find_and_load_unlocked), so ``dist`` is
    there and its own part is not: a wheel built for another Python (an extension module's
    file name carries its interpreter's tag, importlib.machinery.EXTENSION_SUFFIXES), an
    install cut short, or a source checkout of it on the path before the installed one.
    Reinstalling it with this interpreter's pip brings the wheel built for it."""
    installed = m.facts.package(dist)
    spec = f"{dist}=={installed.version}" if installed is not None and installed.version else dist
    return Fix(
        f"Keras 3's {backend} backend imported {dist}, and {dist} lacks its own module "
        f"{module}: the installed {dist} is broken or built for another Python, not missing. "
        f"Reinstall it with this interpreter's pip (a GPU build the way its own install guide "
        f"gives), which picks the wheel built for this Python; where a directory named {dist} "
        "(a source checkout) sits in the working directory, run from elsewhere.",
        (*m.pip(f"show {dist}"), *m.pip(f'install --force-reinstall --no-deps "{spec}"')),
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
            'python -c "import platform, struct; print(platform.python_version(), '
            "struct.calcsize('P') * 8)\"",
        ),
    )


def _pythons_listed(pythons: Sequence[str]) -> str:
    """``3.10, 3.11 or 3.12``."""
    return ", ".join(pythons[:-1]) + f" or {pythons[-1]}" if len(pythons) > 1 else pythons[0]


def abi_tag_python_fix(m: Machine, dist: str = "tensorflow", within: str = "") -> Fix:
    """A resolver (uv, pixi) found no TensorFlow wheel for the interpreter's Python ABI tag,
    without naming the tags the wheels have: the Pythons the newest release publishes wheels
    for (the matrix's), and how to make the environment with one. ``within``: the range of
    releases the resolver refused (``<=2.17.1``, uv's report of the requirement's range): the
    newest release inside it is the one whose Pythons help, else the range must widen."""
    newest = m.matrix.newest_release if m.matrix is not None else None
    if within and m.matrix is not None:
        inside = [x for x in m.matrix.releases if spec_contains(x.latest_patch, within) is True]
        if not inside or not inside[0].pythons_on():
            return Fix(
                f"The resolver found no wheel for this interpreter's Python version (its ABI "
                f"tag, as `cp312` is CPython 3.12) among the {dist} releases the requirement "
                f"admits ({dist}{within}), and the matrix holds no final release inside that "
                f"range: widen the requirement to a release that publishes wheels for this "
                "Python (`tfdoctor matrix` lists each line's).",
                ("python --version",),
            )
        if newest is None or inside[0] is not newest:
            pythons = inside[0].pythons_on()
            later = newest.pythons_on() if newest is not None else ()
            wider = (
                f"; or widen the requirement: {newest.latest_patch}, the newest release, "
                f"publishes wheels for Python {_pythons_listed(later)}"
                if newest is not None and later
                else ""
            )
            return Fix(
                f"The resolver found no wheel for this interpreter's Python version (its ABI "
                f"tag, as `cp312` is CPython 3.12) among the {dist} releases the requirement "
                f"admits ({dist}{within}). TensorFlow {inside[0].latest_patch}, the newest "
                f"release inside that range, publishes wheels for Python "
                f"{_pythons_listed(pythons)} (from the matrix): make the environment with one "
                f"of them (`uv venv --python {pythons[-1]}`, `uv run --python {pythons[-1]}`; "
                f"a project's requires-python, or pixi's python dependency, narrowed to them, "
                f'e.g. ">={pythons[0]},<{next_minor(pythons[-1])}"){wider}.',
                ("python --version",),
            )
    pythons = newest.pythons_on() if newest is not None else ()
    if newest is None or not pythons:
        return Fix(
            "The resolver found no TensorFlow wheel for this interpreter's Python version (its "
            "ABI tag, as `cp312` is CPython 3.12): use a Python TensorFlow publishes wheels for "
            "(`tfdoctor matrix` lists each line's).",
            ("python --version",),
        )
    return Fix(
        "The resolver found no TensorFlow wheel for this interpreter's Python version (its ABI "
        "tag, as `cp312` is CPython 3.12; not its bitness or platform). TensorFlow "
        f"{newest.latest_patch}, the newest release, publishes wheels for Python "
        f"{_pythons_listed(pythons)} (from the matrix): make the environment with one of them "
        f"(`uv venv --python {pythons[-1]}`, `uv run --python {pythons[-1]}`; a project's "
        f"requires-python, or pixi's python dependency, narrowed to them, e.g. \">={pythons[0]},<"
        f'{next_minor(pythons[-1])}"). A release newer than this tfdoctor may add Pythons.',
        ("python --version",),
    )


def implementation_tag_fix(m: Machine, dist: str, version: str = "") -> Fix:
    """uv found no wheel of ``dist`` (``version``, one release; empty: any) for the
    interpreter's implementation tag (``pp310``: PyPy 3.10): TensorFlow publishes wheels for
    CPython alone (its files' cp tags), so no release of it helps, CPython does."""
    line = m.matrix.line_for(version) if m.matrix is not None and version else None
    line = line or (m.matrix.newest_release if m.matrix is not None else None)
    pythons = line.pythons_on() if line is not None else ()
    release = f"{dist} {version}" if version else dist
    python = pythons[-1] if pythons else "3.12"
    which = (
        f" ({version or line.latest_patch}'s: CPython {_pythons_listed(pythons)}, from the matrix)"
        if line is not None and pythons
        else ""
    )
    return Fix(
        f"uv found no wheel of {release} for this interpreter's implementation (its tag, as "
        f"`pp310` is PyPy 3.10): TensorFlow publishes wheels for CPython only{which}, so no "
        f"release of it installs on another Python. Create the environment with CPython "
        f"(`uv venv --python cpython@{python}`) and install there.",
        ('python -c "import sys; print(sys.implementation.name, sys.version)"',),
    )


def older_glibc_lines(
    lines: Sequence[TFLine], glibc: str, installed: Optional[str] = None
) -> list[tuple[str, str, str]]:
    """The final lines built for a glibc older than ``glibc`` (``2.27``), as (oldest line,
    newest line, floor) per run of lines with one floor, newest first: the matrix's glibc_min,
    read from the manylinux tags of the wheels on PyPI. None where the ``installed`` release,
    which asked for ``glibc``, is of a line whose tags claim an older one: the tags did not
    hold for the build that failed, so they name no release that would run."""
    own = next(
        (x for x in lines if installed and version_key(x.line) == version_key(installed)[:2]),
        None,
    )
    if own is not None and own.glibc_min and version_key(own.glibc_min) < version_key(glibc):
        return []
    finals = sorted(
        (x for x in lines if not x.pre_release and x.glibc_min),
        key=lambda x: version_key(x.line),
        reverse=True,
    )
    runs: list[tuple[str, str, str]] = []
    for x in finals:
        floor = x.glibc_min or ""
        if version_key(floor) >= version_key(glibc):
            continue
        if runs and runs[-1][2] == floor:
            runs[-1] = (x.line, runs[-1][1], floor)
        else:
            runs.append((x.line, x.line, floor))
    return runs


def glibc_fix(
    glibc: str,
    package: Optional[str] = None,
    lines: Sequence[TFLine] = (),
    installed: Optional[str] = None,
    arm32: bool = False,
    requirer: str = "",
    packages: Sequence[str] = (),
) -> Fix:
    """A system (or base image) with the glibc a binary needs, or a build of it for this
    glibc; ``requirer``: the file the loader names as needing it, where no installed package
    owns it, with ``packages``, the distribution packages (``name version``) the log shows it
    installed from; ``package``: the installed package the binary belongs to, where the log names it
    (its import name, ``tensorflow``, ``pycoral``); ``lines``: the matrix's TensorFlow lines,
    whose glibc floors name the releases built for an older glibc; ``installed``: the
    TensorFlow release that failed, where known; ``arm32``: the system is a 32-bit ARM one,
    for which PyPI has no TensorFlow wheel (the build came from elsewhere)."""
    version = glibc.split("_", 1)[-1]
    # glibc is the system's: an upgrade within the release keeps its version (a distribution
    # never moves a release to a new glibc), so the binary or the system has to change.
    older = older_glibc_lines(lines, version, installed) if package == "tensorflow" else []
    if older:
        built = (
            "an older TensorFlow built for an older glibc (TensorFlow "
            + ", ".join(
                f"{first} to {last} for glibc {floor}"
                if first != last
                else f"{first} for glibc {floor}"
                for first, last, floor in older
            )
            + "; `ldd --version` shows this system's)"
        )
    elif package == "tensorflow" and arm32:
        built = (
            "a TensorFlow built for this system's glibc: PyPI publishes no TensorFlow wheel "
            "for 32-bit ARM, so the installed one came from another builder (piwheels, a "
            "community wheel), whose build for this OS release, or one built from source here, "
            "is the one to install"
        )
    elif package == "tensorflow":
        built = "an older TensorFlow built for this glibc"
    elif package:
        built = (
            f"a release of {package} built for this glibc (or {package} built from source on "
            "this system)"
        )
    elif requirer:
        came = (
            f", installed from the distribution package {', '.join(packages)} as the log shows"
            if packages
            else ""
        )
        built = (
            f"a release of {PurePosixPath(requirer).name} built for this glibc (the loader "
            f"names {requirer} as the file that needs it{came})"
        )
    else:
        built = (
            "a release of the package whose binary needs it built for this glibc (for "
            "TensorFlow an older one; or the package built from source on this system)"
        )
    ask = tuple(f"apt-cache policy {shlex.quote(x.split(' ', 1)[0])}" for x in packages)
    return Fix(
        f"Use a Linux distribution (or container base image) with glibc {version} or newer "
        f"(upgrading this release's packages keeps its glibc), or {built}.",
        ("ldd --version", *ask),
    )


def macos_fix(built_for: Optional[str]) -> Fix:
    """A macOS at least as new as the binary's target (``built_for``, where the log names it),
    or a build for this macOS."""
    target = f"macOS {built_for}" if built_for else "the macOS the binary was built for"
    return Fix(
        f"Upgrade macOS to {target} or newer, or install a TensorFlow built for this macOS "
        "(pip installs only wheels whose macosx_X_Y tag this macOS meets; a conda package or a "
        "downloaded binary may need a newer macOS than this one).",
        ("sw_vers -productVersion",),
    )


def check_symbol(library: str, symbol: str) -> str:
    """The command that shows whether ``library`` defines ``symbol``."""
    return f"strings {library} | grep -F {symbol}"


#: The first GCC release whose libstdc++ defines each GLIBCXX symbol version, from GCC's
#: table of symbol versions (https://gcc.gnu.org/onlinedocs/libstdc++/manual/abi.html, "GCC
#: 9.3.0: GLIBCXX_3.4.28"): a point release where it came with one (7.2.0, 9.2.0, 9.3.0,
#: 13.2.0), since the .0 release before it lacks the symbol. conda-forge numbers its
#: libstdcxx-ng builds by the GCC release they come from.
GLIBCXX_FIRST_GCC: Mapping[str, str] = {
    "GLIBCXX_3.4.21": "5.1.0",
    "GLIBCXX_3.4.22": "6.1.0",
    "GLIBCXX_3.4.23": "7.1.0",
    "GLIBCXX_3.4.24": "7.2.0",
    "GLIBCXX_3.4.25": "8.1.0",
    "GLIBCXX_3.4.26": "9.1.0",
    "GLIBCXX_3.4.27": "9.2.0",
    "GLIBCXX_3.4.28": "9.3.0",
    "GLIBCXX_3.4.29": "11.1.0",
    "GLIBCXX_3.4.30": "12.1.0",
    "GLIBCXX_3.4.31": "13.1.0",
    "GLIBCXX_3.4.32": "13.2.0",
    "GLIBCXX_3.4.33": "14.1.0",
}

#: A conda installation's root folder in a path (the installers' default names, and
#: micromamba's root prefix).
_CONDA_ROOT = r"/(?:opt/conda|(?:mini|ana)conda\d*|miniforge\d*|mambaforge|micromamba)/"
#: A libstdc++ in a conda installation's own lib directory (an environment's, the base's; the
#: interpreter's ``bin/../lib`` as the loader prints it).
_CONDA_LIBSTDCXX = re.compile(_CONDA_ROOT + r"(?:envs/[^/]+/)?(?:bin/\.\./)?lib/libstdc\+\+\.so")


def libstdcxx_fix(
    symbol: str,
    library: str,
    requirer: str,
    packages: Sequence[str] = (),
    owner: Optional[str] = None,
) -> Fix:
    """A libstdc++ that has ``symbol``: the conda environment's own where the one loaded is
    that environment's (conda's libstdcxx-ng, updated there) or the requirer lies in one
    (conda-forge's libstdcxx-ng, first on the path), else a newer system runtime or a build of
    the requirer for this system (``packages``: the distribution packages, ``name version``,
    the log shows it installed from; ``owner``: the installed Python package it lies in, in
    words)."""
    where = library or "libstdc++.so.6"
    gcc = GLIBCXX_FIRST_GCC.get(symbol)
    if _CONDA_LIBSTDCXX.search(library) and not re.search(r"/(?:envs|conda)/", requirer):
        # The environment's own runtime, older than what a library from outside the
        # environment (the system's, a wheel's) was built against: conda's lib comes first
        # for every program while it is on LD_LIBRARY_PATH (an activate.d script).
        floor = f'"libstdcxx-ng>={gcc}"' if gcc else "libstdcxx-ng"
        return Fix(
            f"The libstdc++ loaded is the conda environment's own ({where}), older than "
            f"{requirer or 'the library that needs it'} needs ({symbol}): update it in that "
            f"environment (conda-forge's libstdcxx-ng{' ' + gcc + ' or newer' if gcc else ''}, "
            "with the environment active). Where $CONDA_PREFIX/lib is on LD_LIBRARY_PATH (an "
            "activate.d script of the TensorFlow install guide), every program loads the "
            "environment's copy first: take it off there.",
            (check_symbol(where, symbol), f"conda install -c conda-forge {floor}"),
        )
    # Without the loaded libstdc++'s path, the loader says which one the requirer gets.
    check = (
        check_symbol(where, symbol)
        if library.startswith("/")
        else f"ldd {shlex.quote(requirer)} | grep libstdc++"
        if requirer
        else "ldconfig -p | grep libstdc++"
    )
    if re.search(_CONDA_ROOT, requirer):
        return Fix(
            f"{requirer} lies in a conda environment: install a libstdc++ with {symbol} there "
            "(conda-forge's libstdcxx-ng) and let the loader find the environment's copy before "
            f"the system's {where}.",
            (
                check,
                "conda install -c conda-forge libstdcxx-ng",
                'export LD_LIBRARY_PATH="$CONDA_PREFIX/lib:$LD_LIBRARY_PATH"',
            ),
        )
    if requirer:
        return _requirer_newer_than_libstdcxx(symbol, where, requirer, check, packages, owner)
    return Fix(
        f"The libstdc++ found ({where}) lacks {symbol}: install a newer GCC runtime (a newer "
        "distribution or base image), or a release of the package built with an older "
        "compiler.",
        (check,),
    )


#: A library folder of a Debian-style multiarch system (/usr/lib/x86_64-linux-gnu/), where
#: the distribution's packages put their libraries: dpkg -S names the package of a file there.
_MULTIARCH_LIBRARY = re.compile(r"^/(?:usr/)?lib/[a-z0-9_]+-linux-gnu\w*/[^/\s]+$")


def _requirer_newer_than_libstdcxx(
    symbol: str,
    where: str,
    requirer: str,
    check: str,
    packages: Sequence[str],
    owner: Optional[str],
) -> Fix:
    """The library the loader names as needing ``symbol``: it was built with a newer GCC than
    the system's libstdc++ (``where``) comes from, so either changes; the distribution
    package it came from where the log shows it (``packages``), or the Python package it lies
    in (``owner``)."""
    gcc = GLIBCXX_FIRST_GCC.get(symbol)
    runtime = f"GCC {gcc} or newer's, " if gcc else ""
    names = [x.split(" ", 1)[0] for x in packages]
    if packages:
        came = (
            f" The log shows it installed from the distribution package {', '.join(packages)}: "
            "a version of that package built for this release of the operating system (an "
            "older one, or one its publisher rebuilt for it) is the other way."
        )
        ask = tuple(f"apt-cache policy {shlex.quote(x)}" for x in names)
    elif _MULTIARCH_LIBRARY.match(requirer):
        came = " dpkg -S names the distribution package it came from."
        ask = (f"dpkg -S {shlex.quote(requirer)}",)
    else:
        came = ""
        ask = ()
    return Fix(
        f"The libstdc++ found ({where}) lacks {symbol}, which {requirer} needs: that library "
        "was built with a newer GCC than this system's libstdc++ comes from. Either give the "
        f"system a newer libstdc++ ({runtime}from a newer distribution or base image), or install "
        f"a release of {owner or PurePosixPath(requirer).name} built for this system.{came}",
        (check, *ask),
    )


def msvc_fix() -> Fix:
    """The Visual C++ runtime TensorFlow's Windows wheels need."""
    # TensorFlow 2.1 and later check for msvcp140.dll and msvcp140_1.dll before they load
    # (self_check.py; msvcp140_1.dll first came with the 2019 runtime); Microsoft's permalink
    # serves the newest 2015-2022 runtime
    # (https://learn.microsoft.com/en-us/cpp/windows/latest-supported-vc-redist).
    return Fix(
        "Install the Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 "
        "(x64; https://aka.ms/vs/17/release/vc_redist.x64.exe, the newest; TensorFlow 2.1 "
        "and later need its msvcp140_1.dll); check the CPU has AVX; use 64-bit Python.",
        ("winget install Microsoft.VCRedist.2015+.x64",),
    )


def apple_silicon_builds(m: Machine) -> str:
    """Which distributions are TensorFlow's arm64 macOS builds, in words: ``tensorflow`` from
    the first line the matrix lists with macos-arm64 wheels, Apple's ``tensorflow-macos``
    (its releases from the wheel index) before it."""
    lines = m.matrix.releases if m.matrix is not None else ()
    having = wheel_lines(lines, "macos-arm64")
    first = having[0] if having else None
    from tfdoctor.wheel_index import releases_of  # noqa: PLC0415 - the index loads lazily

    # Apple's own build (https://developer.apple.com/metal/tensorflow-plugin/) was the only
    # arm64 TensorFlow until the tensorflow wheels gained macOS arm64 tags.
    apple = [r.version for r in releases_of("tensorflow-macos") if "macos-arm64" in r.platforms]
    older = [v for v in apple if version_key(v)[:2] < version_key(first)[:2]] if first else apple
    words = [f"tensorflow {first} or later"] if first else []
    if older:
        words.append(f"Apple's tensorflow-macos ({older[0]} to {older[-1]}) for older releases")
    return "; ".join(words) if words else "TensorFlow's arm64 build"


def native_interpreter_fix(
    m: Machine, apple_silicon: bool = False, host_platform: Optional[str] = None
) -> Fix:
    """A native interpreter or image instead of an emulated one (QEMU user-mode, Rosetta):
    on Apple silicon (the facts' Rosetta, or ``apple_silicon`` where a log shows the Mac), an
    arm64 Python and TensorFlow's arm64 build; for a container image of another platform
    than the host's (``host_platform``, Docker's ``linux/arm64/v8``), an image of the
    host's."""
    plat = m.facts.platform
    if plat is None and host_platform:
        # Docker's platform names an OS, an architecture and a variant: --platform takes the
        # first two (https://docs.docker.com/build/building/multi-platform/).
        flag = "/".join(host_platform.split("/")[:2])
        arch = flag.split("/")[-1]
        key = {"arm64": "linux-aarch64", "amd64": "linux-x86_64"}.get(arch)
        lines = m.matrix.releases if m.matrix is not None else ()
        having = wheel_lines(lines, key) if key else []
        wheels = (
            f" (TensorFlow publishes {_PLATFORM_WORDS[key]} wheels from {having[0]})"
            if key and having
            else ""
        )
        return Fix(
            f"The image is built for another platform than this {flag} host and runs "
            "emulated, without the CPU instructions TensorFlow's build uses: run an image "
            f"built for {flag}, or build this one for it{wheels}.",
            (
                f"docker run --platform {flag} ...",
                f"docker build --platform {flag} .",
            ),
        )
    if plat is not None and plat.emulation == "qemu":
        host = plat.host_machine or "the host's architecture"
        flag = "linux/arm64" if host in ("aarch64", "arm64") else f"linux/{host}"
        return Fix(
            "Use the image or interpreter built for the host's architecture.",
            (f"docker run --platform {flag} ...",),
        )
    if (plat is not None and plat.rosetta) or (plat is None and apple_silicon):
        # Rosetta 2 translates x86-64 code but not its AVX instructions, which TensorFlow's
        # x86-64 wheels use: only an arm64 interpreter with an arm64 build runs natively
        # (https://developer.apple.com/documentation/apple-silicon/about-the-rosetta-translation-environment).
        return Fix(
            "On Apple silicon, use a native arm64 Python (python.org universal2 installer, "
            "Homebrew in /opt/homebrew, or Miniforge's arm64 conda), recreate the environment "
            "and install TensorFlow's arm64 build there: "
            f"{apple_silicon_builds(m)}. `platform.machine()` then says arm64.",
            (
                "python -c 'import platform; print(platform.machine())'",
                "arch -arm64 /usr/bin/python3 -m venv .venv",
                ".venv/bin/python -m pip install tensorflow",
            ),
        )
    return Fix(
        "Use a Python built for this machine's own architecture (on Apple silicon an arm64 "
        "Python with the macOS wheels; in Docker an image of the host's platform), not one "
        "translated by Rosetta or QEMU.",
        (MACHINE_CHECK,),
    )


def exported_symbol_fix(bundled: str, other: str, module: str = "") -> Fix:
    """``other`` (a package, or its library's file name) bound its own calls of ``bundled``
    (``protobuf``, ``abseil``, ``hwloc``) to the copy TensorFlow's library exports: the other
    library loaded first, so that its own copy wins, or the two apart; for hwloc, Horovod's
    guide's preload of the system's (:func:`hwloc_preload_fix`). ``module``: the other's
    import package where its path names one: the command then runs that order once."""
    if bundled == "hwloc":
        return hwloc_preload_fix()
    check = import_after_commands((module,))[1:] if module else ("pip list",)
    return Fix(
        f"{other[:1].upper()}{other[1:]} called {bundled} code in its native library and ran "
        f"the copy TensorFlow's library exports, of another {bundled} release than its own. "
        f"Import {other} before TensorFlow, so that the loader binds its calls to its own "
        f"copy{' (the command runs that order once)' if module else ''}, or run the two in "
        "separate processes; or "
        f"install releases of the two built against the same {bundled} (a build of {other} "
        f"made with the {bundled} of TensorFlow's release, where its project or distribution "
        "offers one).",
        check,
    )


def hwloc_preload_fix() -> Fix:
    """Open MPI bound to the hwloc TensorFlow exports: the system's hwloc loaded first."""
    # Horovod's troubleshooting guide ("segmentation fault with tensorflow 1.14 or higher
    # mentioning hwloc"): locate libhwloc with ldconfig, then LD_PRELOAD it. The guide's
    # /usr/lib/x86_64-linux-gnu/libhwloc.so is an example (Debian's development symlink, on
    # x86_64): the path is the one this machine's loader cache lists.
    return Fix(
        "The crash is in hwloc code that Open MPI (libopen-pal) reached through TensorFlow's "
        "libtensorflow_framework, which exports the symbols of its own bundled hwloc "
        "(TensorFlow 1.14, and 2.20 on): Open MPI runs another hwloc release's functions on its "
        "own data. Load the system's hwloc before anything else, so that its symbols win: "
        "find it with ldconfig and set LD_PRELOAD to it for the training processes "
        "(mpirun -x LD_PRELOAD passes it on to every rank).",
        (
            "ldconfig -p | grep libhwloc.so",
            "export LD_PRELOAD=\"$(ldconfig -p | awk '/libhwloc\\.so/ {print $NF; exit}')\"",
            "python -c 'import horovod.tensorflow as hvd; hvd.init()'",
        ),
    )


def venv_fix(dist: str = "tensorflow") -> Fix:
    """A virtual environment of the managed Python, with TensorFlow installed into it: the
    one :meth:`Machine.pip` gives for an externally managed interpreter."""
    return Fix(
        "Install into a virtual environment of that Python instead of the system's (or let "
        "`tfdoctor fix` create, fill and verify one); never --break-system-packages. On Debian "
        "and Ubuntu the venv module is its own package, python3-venv.",
        venv_pip(f'install "{dist}"'),
    )


#: Windows' MAX_PATH is 260 characters with the terminating NUL
#: (https://learn.microsoft.com/en-us/windows/win32/fileio/maximum-file-path-limitation);
#: a file within 20 of it is read as past it, as a pasted log often shortens the user's own
#: folder name (C:\\Users\\user).
NEAR_MAX_PATH: Final = 240

#: Windows' long path support turned on, in an administrator's PowerShell
#: (https://learn.microsoft.com/en-us/windows/win32/fileio/maximum-file-path-limitation).
LONG_PATHS_COMMAND: Final = (
    'New-ItemProperty -Path "HKLM:\\SYSTEM\\CurrentControlSet\\Control\\FileSystem" '
    '-Name "LongPathsEnabled" -Value 1 -PropertyType DWORD -Force'
)


def long_paths_fix() -> Fix:
    """Windows' long path support on (an administrator's PowerShell), then the same install."""
    return Fix(
        "Turn on long path support (in an administrator's PowerShell; or put the environment "
        "in a short folder such as C:\\venvs\\tf, with a python.org Python rather than the "
        "Microsoft Store's), open a new terminal, and run the same pip command again: it "
        "writes the files it could not.",
        (LONG_PATHS_COMMAND,),
    )


def long_file_path_fix() -> Fix:
    """A program's file past Windows' MAX_PATH: long path support on (an administrator's
    PowerShell), or the folder it writes in moved to a short path; then the same run."""
    return Fix(
        "Turn on long path support (in an administrator's PowerShell), open a new terminal and "
        "run the program again; or give it a short folder to write in (a dataset's or cache's "
        "data directory such as C:\\data, a project moved nearer the drive's root), so the "
        "path stays under 260 characters.",
        (LONG_PATHS_COMMAND,),
    )


def conda_long_paths_fix() -> Fix:
    """Windows' long path support on, the half-extracted package out of conda's cache, then
    the same conda command: conda extracts again only a package its cache does not hold."""
    return Fix(
        "conda could not write a file of this package into its cache (the path reaches Windows' "
        "260-character limit), so its check finds the file missing. Turn on long path support (in "
        "an administrator's PowerShell; or keep conda in a short folder such as C:\\conda), "
        "open a new terminal, remove the half-extracted package from the cache, and run the "
        "same conda command again.",
        (
            LONG_PATHS_COMMAND,
            "conda clean --packages --tarballs --yes",
        ),
    )


def rosetta_conda_fix(intel_possible: bool = False) -> Fix:
    """A conda for Apple silicon (osx-arm64) in place of the x86-64 one, whose packages and
    wheels Apple publishes for arm64 only (``intel_possible``: the log does not show which
    Mac runs it, so the text says what an Intel Mac does instead)."""
    return Fix(
        "This conda is an x86-64 (osx-64) one: on Apple silicon it runs under Rosetta, and "
        "Apple's channel (tensorflow-deps) and the arm64 TensorFlow wheels are not for it. "
        "Install a conda built for Apple silicon (Miniforge's arm64 installer), create the "
        "environment with it and install TensorFlow there; `conda info` then shows platform "
        "osx-arm64."
        + (
            " (`sysctl -n machdep.cpu.brand_string` says which Mac this is, under Rosetta "
            "too, where `uname -m` says x86_64: on an Intel Mac, leave tensorflow-deps out "
            "and install TensorFlow with pip instead.)"
            if intel_possible
            else ""
        ),
        (
            "curl -LO https://github.com/conda-forge/miniforge/releases/latest/download/"
            "Miniforge3-MacOSX-arm64.sh",
            "bash Miniforge3-MacOSX-arm64.sh",
            "~/miniforge3/bin/conda create -n tf python=3.11",
            "~/miniforge3/envs/tf/bin/python -m pip install tensorflow",
        ),
    )


def intel_mac_conda_fix(m: Machine) -> Fix:
    """On an Intel Mac, Apple's channel has nothing (tensorflow-deps is built for osx-arm64
    only): TensorFlow from PyPI into the conda environment, up to the last line the matrix
    lists with Intel macOS wheels."""
    matrix = m.matrix
    last = next(
        (
            line
            for line in (matrix.releases if matrix is not None else ())
            if line.has_wheels_for(None, "macos-x86_64")
        ),
        None,
    )
    if last is None:
        return Fix(
            "Apple's channel (tensorflow-deps) serves Apple silicon (osx-arm64) only: on an "
            "Intel Mac leave tensorflow-deps out and install TensorFlow with pip in the "
            "environment (a release with macOS x86-64 wheels).",
            (),
        )
    pythons = last.pythons_on("macos-x86_64")
    python = pythons[-1] if pythons else None
    return Fix(
        "Apple's channel (tensorflow-deps) serves Apple silicon (osx-arm64) only, and this Mac "
        "runs an x86-64 conda: leave tensorflow-deps and the apple channel out and install "
        f"TensorFlow from PyPI in the environment. TensorFlow {last.line} is the last line "
        "with macOS x86-64 wheels"
        + (f" (Python up to {python})" if python else "")
        + "; tensorflow-metal needs Apple silicon or an AMD GPU on macOS 12 or later.",
        (
            *((f"conda create -n tf python={python}",) if python else ()),
            *(("conda activate tf",) if python else ()),
            # The new environment's own interpreter, once activated: not the examined one.
            f'python -m pip install "tensorflow=={last.line}.*"',
        ),
    )


def quoted_extra_fix(m: Machine, requirement: Optional[str]) -> Fix:
    """The requirement in quotes, so that the shell passes the brackets to pip."""
    req = requirement or "tensorflow[and-cuda]"
    return Fix(
        "Quote the requirement so the shell passes the brackets to pip.",
        m.pip(f"install '{req}'"),
    )


def architecture_fix(
    built: Optional[str], dist: str = "tensorflow", m: Optional[Machine] = None, dyld: bool = False
) -> Fix:
    """A new environment made by an interpreter of the machine's own architecture, ``dist``
    installed there, so that pip picks the wheel built for it (the loader refused a library
    built for ``built``). ``dyld``: macOS's loader refused it (a Mach-O file), ``m`` the
    derived machine where known."""
    what = f"for {built}" if built else "for another architecture"
    text = (
        f"The installed {dist} was built {what}, and the Python loading it runs as another: "
        "recreate the environment with a Python of the machine's own architecture (on Apple "
        f"silicon an arm64 Python, not one run under Rosetta) and install {dist} again from it"
    )
    plat = m.facts.platform if m is not None else None
    apple = dyld and (
        built in ("arm64", "arm64e", "x86_64")
        or (m is not None and m.platform == "macos-arm64")
        or (plat is not None and plat.rosetta)
    )
    if apple:
        # dyld's "have 'x86_64', need 'arm64'" pairs the two architectures only Apple silicon
        # runs both of (an Intel Mac runs no arm64 code). A universal2 Python run from a
        # Rosetta terminal, or an x86_64-only one, loads x86_64 code: arch(1)'s -arm64 runs
        # the arm64 slice of a universal binary and refuses an x86_64-only one ("Bad CPU type
        # in executable"), so every step runs native, and the venv's python (the same
        # universal binary) is run by arch again.
        return Fix(
            text + ": the commands make it with arch -arm64 and install there. Where arch "
            'says "Bad CPU type in executable", that python3 is x86_64-only (Homebrew\'s in '
            "/usr/local): install an arm64 or universal2 one (python.org's installer, Homebrew "
            "in /opt/homebrew) and use it.",
            (
                "arch -arm64 python3 -m venv .venv",
                f"arch -arm64 .venv/bin/python -m pip install {dist}",
                'arch -arm64 .venv/bin/python -c "import platform; print(platform.machine())"',
            ),
        )
    newest = _newest_python_here(m) if m is not None and m.os != "windows" else None
    if newest is None:
        return Fix(
            text + ": the first command prints the machine's architecture, the second the "
            "Python's; make the environment with one whose answer matches the machine's.",
            ("uname -m", MACHINE_CHECK),
        )
    interpreter = f"python{newest}"
    return Fix(
        text + f": the first command prints the machine's architecture, the second the "
        f"Python's; make the environment with {interpreter} of a native install (its "
        "-c check prints the machine's architecture) and install there.",
        (
            "uname -m",
            MACHINE_CHECK,
            f"{interpreter} -c 'import platform; print(platform.machine())'",
            f"{interpreter} -m venv .venv",
            f".venv/bin/python -m pip install {dist}",
        ),
    )


#: NVIDIA's index of TensorFlow builds for Jetson, one directory per JetPack release.
JETSON_INDEX = "https://developer.download.nvidia.com/compute/redist/jp/"
JETSON_GUIDE = (
    "https://docs.nvidia.com/deeplearning/frameworks/install-tf-jetson-platform/index.html"
)


def jetson_index_fix(dist: str, spec: str) -> Fix:
    """A pinned +nvYY.MM release: NVIDIA's Jetson build, published only on NVIDIA's index of
    one JetPack release (which drops old builds); a build that index still lists."""
    return Fix(
        f"{dist}{spec} is NVIDIA's build for Jetson, published only on NVIDIA's index for one "
        f"JetPack release ({JETSON_INDEX}v<JetPack>/, {JETSON_GUIDE}), never on PyPI, and "
        "NVIDIA removes older builds from it: find the JetPack the board runs, then pin a "
        f"+nv build that JetPack's index still lists (pip install --extra-index-url "
        f"{JETSON_INDEX}v<JetPack> {dist}==<a listed release>).",
        ("cat /etc/nv_tegra_release", f"curl -s {JETSON_INDEX}"),
    )


def musl_fix(os_name: str = "") -> Fix:
    """A TensorFlow build (for glibc) under musl's loader, or a Python built on musl: a
    glibc-based system. ``os_name``: the system's own name where the facts give it (musl is
    Alpine's C library, and other distributions' too: Void's musl edition, postmarketOS), so
    the words name Alpine only as an example."""
    system = f"This system ({os_name}) uses" if os_name else "The system uses"
    return Fix(
        f"{system} musl libc (Alpine's C library, and other musl-based distributions'), and "
        "TensorFlow's builds, its pip wheels (manylinux) and its C library alike, are for glibc: "
        "musl's loader cannot run them, and no musllinux wheel of TensorFlow exists. Run it on "
        "a glibc-based system: in a Dockerfile, a Debian- or Ubuntu-based image (python:X.Y-slim "
        "of a Python the TensorFlow release has wheels for) in place of the musl-based one "
        "(Alpine's). The first command prints which C library the system has.",
        ("ldd --version 2>&1 | head -1", "tfdoctor matrix"),
    )


#: Android's 32-bit ABIs as PEP 738's tags name them (``armeabi_v7a``, ``x86``) and its kernel
#: and Termux print them (``armv7l``, ``armv8l``: 32-bit code on a 64-bit ARM CPU, ``i686``):
#: no glibc distribution under proot-distro has a TensorFlow wheel there either (TensorFlow's
#: Linux wheels are x86-64 and aarch64 only).
_ANDROID_32BIT: Final = frozenset({"armeabi_v7a", "x86", "armv7l", "armv8l", "i686"})


def android_fix(machine: str = "") -> Fix:
    """Python on Android (Termux's, or an app's: PEP 738's ``android_*`` tags), whose C
    library is Bionic: TensorFlow publishes no wheel for it, and its Linux wheels (manylinux)
    need glibc (PEP 600); a glibc distribution run under Termux's proot-distro is a system
    they install on, where ``machine`` (the tags' ABI or the system's machine) is 64-bit; on
    a 32-bit one (:data:`_ANDROID_32BIT`) another machine is."""
    if machine in _ANDROID_32BIT:
        return Fix(
            f"This Python runs on 32-bit Android ({machine}), whose C library is Bionic, not "
            "glibc: TensorFlow publishes no wheel for Android, and none for 32-bit ARM or x86 "
            "Linux either, so no Linux distribution run under Termux's proot-distro has one. "
            "Run it on another machine (a PC, a hosted notebook)."
        )
    return Fix(
        "This Python runs on Android, whose C library is Bionic, not glibc: TensorFlow "
        "publishes no wheel for Android, and its Linux wheels (manylinux) need glibc, so pip "
        "finds none to install whatever the Python. On the phone, run a glibc-based Linux "
        "distribution (Debian, Ubuntu) with Termux's proot-distro (the first three commands "
        "below, in Termux) and install TensorFlow there with a Python it has wheels for "
        "(aarch64 wheels from 2.10; `tfdoctor matrix` lists them), in a virtual environment "
        "(Debian's own Python refuses pip outside one, PEP 668: the last three, in its "
        "shell); or run it on another machine (a PC, a hosted notebook).",
        (
            "pkg install proot-distro",
            "proot-distro install debian",
            "proot-distro login debian",
            "apt update && apt install -y python3-venv",
            "python3 -m venv ~/tf",
            "~/tf/bin/python -m pip install tensorflow",
        ),
    )


def library_architecture_fix(library: str) -> Fix:
    """A library file (not a wheel's) built for another CPU architecture or word size than this
    machine: its build for this one."""
    return Fix(
        f"{library} is built for another CPU architecture (or word size) than this machine: "
        "`file` shows which it is, `uname -m` which this machine is. Get the build of it for "
        "this machine's architecture (for TensorFlow's C library, the archive for this "
        "platform, or one built from source here), and link against that.",
        (f"file {library}", "uname -m"),
    )


def static_tls_fix(library: Optional[str]) -> Fix:
    """Load ``library`` (the path the loader named) at start, before the import fills the
    static TLS surplus; or, with glibc 2.32 or later, raise the surplus (tunables are
    colon-separated: the line keeps any already set)."""
    tunable = (
        "export GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384"
        "${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}"
    )
    text = (
        "Load the library the message names when the process starts, so it gets its static "
        "TLS before the import uses the surplus up (add the line to ~/.bashrc or the job "
        "script); with glibc 2.32 or later, raising the surplus with the tunable works too."
    )
    if library and library.startswith("/"):
        preload = f"export LD_PRELOAD={shlex.quote(library)}${{LD_PRELOAD:+:$LD_PRELOAD}}"
        return Fix(text, (preload, tunable))
    # A bare file name: find where it is first; a preload of a path that does not exist makes
    # every later process print an error.
    name = library or "THE-LIBRARY.so"
    return Fix(
        text + f" The message names {name} without its directory: find it, then preload that "
        "path (export LD_PRELOAD=/full/path/to/it).",
        (f"find / -name {shlex.quote(name)} 2>/dev/null", tunable),
    )


def tensorrt_fix() -> Fix:
    """TensorRT for TF-TRT, of the major the build loads, or the model without TF-TRT."""
    return Fix(
        "TF-TRT (TensorFlow's TensorRT converter) loads TensorRT's libnvinfer and "
        "libnvinfer_plugin of the major this build was made with (the 'Could not load dynamic "
        "library libnvinfer.so.N' line names it) and aborts the process without them. Install "
        "that TensorRT release for the build's CUDA (NVIDIA's packages or its tensorrt wheels) "
        "and put its lib directory on the loader's path, or run the model without TF-TRT "
        "conversion.",
        ("ldconfig -p | grep -E 'libnvinfer(_plugin)?\\.so'",),
    )


def conda_channel_fix(m: Machine, library: str) -> Fix:
    """One channel for a conda TensorFlow and the libraries it links (``library`` came from
    another): strict channel priority, and the same TensorFlow release from conda-forge with
    its own libraries (https://conda-forge.org/docs/user/tipsandtricks/#using-multiple-channels).
    """
    tf = m.tf
    commands = ["conda list tensorflow", "conda config --env --set channel_priority strict"]
    if tf is not None:
        # conda reads "=2.15" as any 2.15 release: the same line, whichever patches
        # conda-forge built (not necessarily every one pip has).
        line = ".".join(tf.version.split(".")[:2])
        commands.extend(
            m.conda_install(
                f'"tensorflow={line}"', channel="conda-forge", options=("--override-channels",)
            )
        )
        again = f"TensorFlow {line}"
    else:
        again = "the TensorFlow line `conda list tensorflow` shows (`tensorflow=X.Y`)"
    return Fix(
        f"This TensorFlow is a conda build, which links {library} from the environment, and "
        f"the {library} there comes from another channel or release than the one it was built "
        "against (conda-forge's builds beside packages of the default channel). Install the "
        "environment from one channel: conda-forge, with strict channel priority so that no "
        f"other channel's library replaces its own, and install {again} again from it "
        "(`conda install --override-channels -c conda-forge`).",
        tuple(commands),
    )


#: The file names of Intel's oneAPI GPU runtime: oneMKL's SYCL library, the DPC++/SYCL runtime,
#: Level Zero's loader (MKL's other libraries, TBB and OpenMP also come in conda and pip
#: packages, so they are not told this)
#: (https://intel.github.io/intel-extension-for-tensorflow/latest/docs/install/install_for_xpu.html).
_ONEAPI_PREFIXES = ("libmkl_sycl", "libsycl", "libze_loader")


#: Libraries of the operating system that Linux wheels link and never carry: manylinux's policy
#: lets a wheel expect them of every system (PEP 513's list, kept by PEP 599 and PEP 600: the X11
#: and OpenGL libraries, GLib), and OpenMP's runtime, which wheels built with GCC may link.
#: A minimal image (python:*-slim, a server install, distroless) lacks them. Each with its
#: package on Debian and Ubuntu, and on RHEL, Fedora and their kin
#: (https://packages.debian.org/bookworm/libgl1, https://packages.fedoraproject.org/pkgs/mesa/mesa-libGL/,
#: https://packages.debian.org/bookworm/libglib2.0-0, https://packages.debian.org/bookworm/libgomp1).
SYSTEM_LIBRARY_PACKAGES: Final[Mapping[str, tuple[str, str]]] = {
    "libGL": ("libgl1", "mesa-libGL"),
    "libSM": ("libsm6", "libSM"),
    "libICE": ("libice6", "libICE"),
    "libX11": ("libx11-6", "libX11"),
    "libXext": ("libxext6", "libXext"),
    "libXrender": ("libxrender1", "libXrender"),
    "libglib-2.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0": ("libglib2.0-0", "glib2"),
    "libgobject-2.0": ("libglib2.0-0", "glib2"),
    "libgomp": ("libgomp1", "libgomp"),
}
#: Of those, the ones OpenCV's wheels (opencv-python, opencv-contrib-python) link for their
#: windows; the -headless wheels are the same OpenCV without them
#: (https://github.com/opencv/opencv-python#installation-and-usage).
_OPENCV_GUI = frozenset(
    {"libGL", "libSM", "libICE", "libX11", "libXext", "libXrender", "libgthread-2.0"}
)


def system_library_fix(name: str) -> Optional[Fix]:
    """The package of the operating system that installs ``name`` (a library's file name
    without ``.so``: ``libGL``), where :data:`SYSTEM_LIBRARY_PACKAGES` knows it; else None."""
    packages = SYSTEM_LIBRARY_PACKAGES.get(name)
    if packages is None:
        return None
    deb, rpm = packages
    opencv = (
        " Where it is OpenCV (cv2) that needs it, its -headless wheel "
        "(opencv-python-headless) is the same library without the windowing parts that link it."
        if name in _OPENCV_GUI
        else ""
    )
    return Fix(
        f"{name} is a library of the operating system, which Linux wheels expect the system to "
        "have and never carry (manylinux's policy); a minimal image or server install lacks "
        f"it. Install it with the system's packages: {deb} on Debian and Ubuntu, {rpm} on "
        "RHEL and Fedora; in a Dockerfile, add it to the apt-get (or dnf) install line." + opencv,
        (
            f"apt-get update && apt-get install -y {deb}  # Debian, Ubuntu (root)",
            f"dnf install -y {rpm}  # RHEL, Fedora (root)",
        ),
    )


def extension_dll_fix(m: Machine, package: Optional[str], dist: Optional[str]) -> Fix:
    """Windows refused a compiled extension module ("DLL load failed") that is not
    TensorFlow's: a DLL it links is missing, or of another release than the one it was built
    against (ERROR_MOD_NOT_FOUND, 126; ERROR_PROC_NOT_FOUND, 127:
    https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-).
    ``package``: the import package whose extension it is, where the log shows it; ``dist``:
    its distribution. A runtime the module table knows it loads (``windows_runtimes``: MPI's
    for mpi4py) is installed apart; otherwise the package's own wheel is reinstalled."""
    if package is None:
        return Fix(
            "Windows could not load an extension module (a .pyd): a DLL it links is missing, "
            "or of another release than the one it was built against. The traceback's last "
            "frames name the package whose import failed: reinstall that package's wheel for "
            "this Python, and install the runtime its documentation names for Windows "
            "(`python -v` then the failing import shows which extension it was).",
        )
    from tfdoctor.modules import modules  # noqa: PLC0415 - the module table, on demand

    if not dist:
        # A package the module table does not know: its import name is no PyPI name.
        return Fix(
            f"Windows could not load {package}'s compiled extension, not TensorFlow's: a DLL it "
            "links is missing, or of another release than the one it was built against. "
            f"Reinstall the wheel of {package_named(package)} for this Python (the command "
            "names its distribution; not a build from source), and install the runtime its "
            "documentation names for Windows, if any.",
            (owner_of_package_command(package),),
        )
    name = dist
    reinstall = (*m.pip(f"uninstall -y {name}"), *m.pip(f"install --no-cache-dir {name}"))
    runtime = modules().windows_runtimes.get(name)
    if runtime is not None:
        return Fix(
            f"Windows could not load {package}'s compiled extension, not TensorFlow's: it "
            f"needs {runtime.runtime}, which {name}'s wheels do not carry. Install it with "
            f"{runtime.get} ({runtime.url}), check that `where.exe {runtime.dll}` finds it, then "
            f"reinstall {name} so that its build matches the runtime.",
            (f"where.exe {runtime.dll}", *reinstall),
        )
    return Fix(
        f"Windows could not load {package}'s compiled extension, not TensorFlow's: a DLL it "
        f"links is missing, or of another release than the one it was built against. "
        f"Reinstall {name}'s wheel for this Python (not a build from source), and install the "
        f"runtime its documentation names for Windows, if any.",
        reinstall,
    )


def dll_word_size_fix(m: Machine, package: Optional[str], dist: Optional[str]) -> Fix:
    """Windows refused an extension module as a file of another machine type
    (ERROR_BAD_EXE_FORMAT, 193: "%1 is not a valid Win32 application",
    https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-): the
    module or a DLL it links is 32-bit in a 64-bit Python, or the converse. ``package``: the
    import package whose extension it was, where the log shows one other than TensorFlow."""
    whose = f"{package}'s compiled extension" if package else "TensorFlow's native library"
    # A package the module table does not know is named in words, never by its import name
    # taken for a distribution: the last command prints which distribution installed it.
    unknown = package is not None and not dist
    name = package_named(package) if unknown and package else dist or m.tf_name or "tensorflow"
    reinstall = (
        (owner_of_package_command(package),)
        if unknown and package
        else m.pip(f"install --force-reinstall --no-deps {name}")
    )
    # The loader takes the first file of a DLL's name along its search order, PATH last
    # (https://learn.microsoft.com/en-us/windows/win32/dlls/dynamic-link-library-search-order):
    # a 32-bit copy there (a 32-bit program's folder) shadows the 64-bit one in System32.
    return Fix(
        f"Windows found a file of another word size for {whose} or a DLL it links: a 32-bit "
        "copy of a DLL it needs (the Visual C++ runtime's, a CUDA DLL) in a folder on PATH "
        "ahead of the 64-bit one, or a 32-bit Python (TensorFlow's wheels are 64-bit only); a "
        "damaged file reads the same. The first command prints 64 for a 64-bit Python (else "
        "install a 64-bit Python); `where` lists each copy in search order: take the folder "
        "of a 32-bit copy off PATH (or move it after the 64-bit one), then reinstall "
        f"{name} in a new window"
        + (" (the last command names its distribution)." if unknown else "."),
        (
            "python -c \"import struct; print(struct.calcsize('P') * 8)\"",
            "where.exe msvcp140.dll vcruntime140.dll vcruntime140_1.dll",
            *reinstall,
        ),
    )


def other_python_dll_fix(
    m: Machine, dll: str, dist: Optional[str], package: Optional[str] = None
) -> Fix:
    """Python on Windows refused an extension module that links another Python's DLL
    (``dll``: python36.dll): a build for that Python left in this one's site-packages.
    ``dist``: the distribution whose module it was, where the log shows one other than
    TensorFlow and the module table knows its import package ``package``; a package it does
    not know is named in words, with the command that prints its distribution."""
    digits = re.sub(r"\D", "", dll)
    built = f"Python {digits[0]}.{digits[1:]}" if len(digits) > 1 else "another Python"
    unknown = package is not None and not dist
    name = package_named(package) if unknown and package else dist or m.tf_name or "tensorflow"
    # TensorFlow's own release where the log shows it: the reinstall keeps it.
    pinned = f"{name}=={m.tf.version}" if package is None and not dist and m.tf else name
    running = f" ({m.python_version})" if m.python_version else ""
    return Fix(
        f"The compiled module of {name} was built for {built} (it links {dll}), not for "
        f"this Python{running}: a site-packages copied from another interpreter, or a wheel "
        f"for another Python installed by hand. Reinstall {name} with this interpreter's pip, "
        "which picks the wheel built for it (in a new virtual environment where the copied "
        "files are many)" + ("; the command names its distribution." if unknown else "."),
        (owner_of_package_command(package),)
        if unknown and package
        else m.pip(f"install --force-reinstall --no-deps --no-cache-dir {pinned}"),
    )


#: A library in a Homebrew formula's opt link (/usr/local on Intel Macs, /opt/homebrew on
#: Apple silicon): the formula and the file.
_HOMEBREW_OPT = re.compile(
    r"^(?P<opt>(?:/usr/local|/opt/homebrew)/opt/(?P<formula>[\w@.+-]{1,80}))/lib/"
    r"(?:[^\s/]{1,200}/){0,3}(?P<file>[^\s/]{1,200}\.dylib)$"
)


def in_keg(path: str) -> bool:
    """``path`` is a library in a Homebrew formula's keg, by its opt link."""
    return _HOMEBREW_OPT.match(path) is not None


def native_library_fix(
    library: Optional[str],
    macos: bool = False,
    windows: bool = False,
    importer: Optional[tuple[str, str, str]] = None,
) -> Fix:
    """How to find which library failed to load, and which file needed it (``macos``: dyld's
    tools, https://developer.apple.com/library/archive/documentation/DeveloperTools/Conceptual/
    DynamicLibraries/100-Articles/LoggingDynamicLoaderEvents.html; ``windows``: the log is of
    Windows, whose loader has neither LD_DEBUG nor ldd). ``importer``: the installed package
    whose import failed, as the traceback's frames show it (its import name, its distribution
    where known, the folder it is installed in): the commands import and inspect it rather
    than TensorFlow."""
    if windows:
        # Windows' own tools: `where` searches PATH as the loader does for a DLL a module
        # names (https://learn.microsoft.com/windows/win32/dlls/dynamic-link-library-search-order),
        # named where.exe since PowerShell's `where` is Where-Object's alias (about_Aliases);
        # dumpbin /dependents lists what a .pyd links.
        return Fix(
            "Windows could not load a native library: a DLL it links is missing, or of "
            "another release than it was built against. TensorFlow's Windows wheels need the "
            "Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 (x64) and, for "
            "a GPU build, the CUDA and cuDNN DLLs of the build's release on PATH; `dumpbin "
            "/dependents` (from Visual Studio's command prompt) on the .pyd the traceback names "
            "lists the DLLs it links, and `where` says which of them PATH finds.",
            (
                "where.exe msvcp140.dll msvcp140_1.dll vcruntime140_1.dll",
                "dumpbin /dependents PATH\\TO\\THE\\EXTENSION.pyd",
                *msvc_fix().commands,
            ),
        )
    brewed = _HOMEBREW_OPT.match(library or "")
    if macos and brewed is not None:
        # Homebrew links each installed formula's keg at <prefix>/opt/<formula>
        # (https://docs.brew.sh/Formula-Cookbook#variables-for-directory-locations): a file
        # built against it names the formula in the path it asks dyld for.
        formula, file = brewed.group("formula"), brewed.group("file")
        # Homebrew disables formulae whose upstream ended (`brew info` prints "Disabled because
        # ..."; `brew install` refuses them): openssl@1.1 was disabled on 2024-10-24
        # (homebrew-core's Formula/o/openssl@1.1.rb, `disable! date: "2024-10-24"`;
        # https://formulae.brew.sh/formula/openssl@1.1). A library no formula installs any
        # more is fixed on the package's side: a release built against a current one.
        ended = (
            " (Homebrew disabled openssl@1.1 on 2024-10-24: OpenSSL 1.1 is no longer maintained)"
            if formula == "openssl@1.1"
            else ""
        )
        return Fix(
            f"{file} is Homebrew's {formula} (the path names its opt/{formula} link), which "
            "the file that needs it was built against: the formula is not installed, or is "
            "installed at another release than the library's name says (a versioned name, "
            f"{file}, changes with the formula's major). First `brew info {formula}`: where "
            f"it says the formula is disabled{ended}, Homebrew no longer installs it, and the "
            "fix is a newer wheel of the package that needs it (the file dyld names as "
            "'Referenced from'), one built against a current library: upgrade that package. "
            f"Otherwise install it (`brew install {formula}`), or reinstall the package that "
            "needs it in a build made against the release installed.",
            (f"brew info {formula}", f"brew install {formula}", f"ls {brewed.group('opt')}/lib"),
        )
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
    name = (library or "").replace("\\", "/").rsplit("/", 1)[-1].split(".so")[0]
    if name.startswith(_ONEAPI_PREFIXES):
        # Intel's oneAPI runtime (oneMKL's SYCL library, the DPC++ runtime, Level Zero's
        # loader), which Intel Extension for TensorFlow's GPU plugin links: no pip package of
        # the environment brings it; the toolkit's environment script puts it on the path.
        return Fix(
            f"{name} is a library of Intel's oneAPI runtime (Intel Extension for TensorFlow's "
            "GPU plugin links it), not of a Python package: install the oneAPI Base Toolkit "
            "release the plugin's documentation names, and load its environment in the shell "
            "that runs Python.",
            ("source /opt/intel/oneapi/setvars.sh", f"ldconfig -p | grep -F {shlex.quote(name)}"),
        )
    system = system_library_fix(name)
    if system is not None:
        return system
    module = importer[0] if importer is not None else "tensorflow"
    commands = [
        f'LD_DEBUG=libs python -c "import {module}" 2>&1 | grep -iE "error|not found|cannot"',
        # ldd on every extension of the package, each file's name kept above what it misses.
        f"find {shlex.quote(importer[2])} -name '*.so*' -exec ldd {{}} + 2>/dev/null | "
        "grep -E ':$|not found'"
        if importer is not None
        else "ldd PATH/TO/THE/EXTENSION.so | grep 'not found'",
    ]
    if name and not name.startswith(("libtensorflow", "_pywrap_tensorflow")):
        # ldconfig lists file names: the library's own name, not the path a message gave;
        # TensorFlow's own libraries are never in its cache.
        commands.insert(0, f"ldconfig -p | grep -F {shlex.quote(name)}")
    whose = (
        f" The import that failed is that of {package_named(importer[0], importer[1])} "
        f"(installed in {importer[2]}): the commands import it and list what its extensions "
        "miss; where the missing library is one its wheel should carry, reinstall it."
        if importer is not None
        else ""
    )
    return Fix(
        "Find which library the loader misses and which file needs it: the loader's trace "
        "(LD_DEBUG=libs) names each library it searches for; ldd on the extension named in "
        "the traceback lists what it needs and cannot find. Then install that library or add "
        f"its directory to LD_LIBRARY_PATH.{whose}",
        tuple(commands),
    )


#: A function or object of Python's C API (PyUnicode_AsUTF8, PyCMethod_New; dyld prefixes C
#: names with an underscore): https://docs.python.org/3/c-api/stable.html
_PYTHON_C_API = re.compile(r"^_?_?Py[A-Z]\w*$")


def undefined_symbol_fix(
    library: str,
    symbol: str,
    package: Optional[str],
    required: Optional[str] = None,
    wheel: Optional[tuple[str, str, str]] = None,
) -> Fix:
    """``library`` loaded but needs ``symbol``, which no loaded library defines: the library
    that should define it (``required``: the symbol version the message names, LIBFFI_BASE_7.0
    or libcublasLt.so.12) is another build, often one earlier on the loader's path (a conda
    environment's, LD_LIBRARY_PATH's), or ``library`` itself is (``package``: the distribution
    that ships it, where its path says); ``wheel`` (file, distribution, version): the one wheel
    the log shows pip installing from a file, built elsewhere, whose native code loaded it."""
    provider = (
        f"The symbol's version ({required}) names the library that should define it: the one "
        "loaded is another build, often a copy earlier on the loader's path (a conda "
        "environment's lib, a directory in LD_LIBRARY_PATH) than the system's. "
        if required
        else ""
    )
    owner = (
        f"{library} is of another build: it belongs to {package}, so reinstall {package} at "
        "a release built for this system"
        if package
        else f"{library} is of another build: reinstall what provides it (a file copied or "
        "built on another system links other versions)"
    )
    if required:
        owner = f"Or {owner}"
    if wheel is not None:
        file, dist, version = wheel
        # A pre-release (PEP 440: a, b, rc, dev) is the build most likely superseded.
        pre = " (a pre-release)" if re.search(r"\d(?:a|b|rc|\.dev)\d*$", version) else ""
        owner += (
            f"; or the wheel installed from a file, {file}{pre}, was built against other "
            f"libraries than this system's: install {dist}'s current release for this platform "
            f"(pip install --upgrade {dist}, or the wheel its project lists for this system)"
        )
    if _PYTHON_C_API.match(symbol):
        # A symbol of Python's C API that the running interpreter lacks: the extension was
        # compiled against another Python release's headers.
        provider = (
            f"{symbol} is of Python's C API, which the Python running it does not define: "
            f"{library} was built for another Python release (the cpython-XY tag of an "
            "extension's file name says which). "
        )
    if library.endswith(".dylib") or "-darwin" in library:
        # dyld's tools: otool -L lists what a Mach-O file links.
        return Fix(
            f"{library} needs {symbol or 'a symbol'}, which no library loaded with it defines. "
            f"{provider}{owner}; otool -L shows which libraries it links, and from where.",
            (f"otool -L {shlex.quote(library)}", "python3 --version"),
        )
    return Fix(
        f"{library} needs {symbol or 'a symbol'}, which no library loaded with it defines. "
        f"{provider}{owner}; ldd shows which libraries it links, and from where.",
        (f"ldd {shlex.quote(library)}", 'echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"'),
    )


#: Horovod's extension modules, by the file name a log may print alone (its setup.py builds
#: horovod.common.mpi_lib, horovod.tensorflow.mpi_lib and horovod.torch.mpi_lib, and later
#: horovod.torch.mpi_lib_v2).
_HOROVOD_EXTENSION = re.compile(r"(?:^|[/\\])(?:horovod[/\\]|mpi_lib(?:_v2|_impl)?\.)")

#: The CUDA runtime's execution-control calls deprecated since CUDA 7.0 (the runtime API's
#: "Execution Control [DEPRECATED]"): an extension that calls them was built for an old CUDA.
_DEPRECATED_LAUNCH = frozenset({"cudaLaunch", "cudaSetupArgument", "cudaConfigureCall"})
_REMOVED_LAUNCH = (
    " (cudaLaunch, cudaSetupArgument and cudaConfigureCall, deprecated since CUDA 7.0, are "
    "gone from later runtimes: it was built for an older CUDA)"
)


def cuda_runtime_symbol_fix(m: Machine, library: str, symbol: str, package: Optional[str]) -> Fix:
    """``library`` (a compiled extension) needs ``symbol``, a CUDA runtime function the runtime
    it loads lacks: rebuilt against the CUDA TensorFlow runs with, not from a cached wheel.
    ``package`` is the distribution that ships it where its path says."""
    name = library.replace("\\", "/").rsplit("/", 1)[-1]
    if package is None and _HOROVOD_EXTENSION.search(library):
        package = "horovod"
    why = (
        f"{name} needs {symbol}, a function of the CUDA runtime API that the CUDA runtime it "
        "loads does not define: it was compiled against another CUDA release than the one it "
        f"runs with{_REMOVED_LAUNCH if symbol in _DEPRECATED_LAUNCH else ''}. "
    )
    if package == "horovod":
        # Horovod compiles its extensions when pip installs it, against the CUDA toolkit it
        # finds (HOROVOD_CUDA_HOME, else /usr/local/cuda); pip reuses a wheel it built before.
        return Fix(
            why + "Horovod builds its extensions when installed: reinstall horovod without pip's "
            "cache, with HOROVOD_CUDA_HOME set to the CUDA toolkit of the release TensorFlow "
            "uses where that toolkit is not /usr/local/cuda, and with the same HOROVOD_GPU_* "
            "options as before.",
            (
                *m.pip("uninstall -y horovod"),
                *m.pip("install --no-cache-dir horovod"),
            ),
        )
    if package is not None:
        return Fix(
            why + f"Reinstall {package} built for the CUDA release TensorFlow uses (a release "
            "built for it, or a build from source on this machine), without pip's cache.",
            (
                *m.pip(f"uninstall -y {shlex.quote(package)}"),
                *m.pip(f"install --no-cache-dir {shlex.quote(package)}"),
            ),
        )
    return Fix(
        why + "Rebuild the extension against the CUDA toolkit of the release TensorFlow uses; "
        "ldd shows which CUDA runtime it links now.",
        (f"ldd {shlex.quote(library)}",),
    )


def icu_data_fix(
    m: Machine, symbol: str, package: Optional[str], release: Optional[str], library: Optional[str]
) -> Fix:
    """A package's native library references ICU's data table ``symbol`` that its build left
    out: another release of ``package`` (``release`` the one that fails, where shown)."""
    why = (
        f"{symbol} is ICU's data table, which ICU's data library (or its stub) defines; "
        f"{library or 'the native library'} references it, so its build left ICU's data out. "
        "That is the build's own defect: nothing installed on this machine provides the "
        "symbol. "
    )
    if package is not None and release is not None:
        return Fix(
            why + f"Install the release of {package} before {release} (with the TensorFlow it "
            "requires), or a later release built with ICU's data.",
            m.pip(f'install "{package}<{release}"'),
        )
    if package is not None:
        return Fix(
            why + f"Install another release of {package}: the one before the installed one, or "
            "a later release built with ICU's data.",
            (
                *m.pip(f"show {shlex.quote(package)}"),
                *m.list_releases(shlex.quote(package)),
            ),
        )
    return Fix(
        why + "Install another release of the package whose import failed: the one before, or a "
        "later release built with ICU's data.",
        m.pip("list"),
    )


def _newer_than_earlier_lines(lines: Sequence[TFLine], python: str) -> Optional[tuple[str, str]]:
    """The first line with wheels for ``python`` (its minor) and the newest Python of the
    lines before it, where ``python`` is newer than that one (it came out after every earlier
    release's Pythons); None where it is not, or no line or no earlier line has wheels."""
    minor = version_key(python)[:2]
    ordered = sorted(lines, key=lambda x: version_key(x.line))
    first = next((x for x in ordered if minor in {version_key(p)[:2] for p in _pythons(x)}), None)
    if first is None:
        return None
    earlier = [
        py for x in ordered if version_key(x.line) < version_key(first.line) for py in _pythons(x)
    ]
    if not earlier:
        return None
    previous = max(earlier, key=version_key)
    return (first.line, previous) if minor > version_key(previous)[:2] else None


def _pythons(line: TFLine) -> set[str]:
    return {py for versions in line.python.values() for py in versions}


def same_line_release(requested: Optional[str], listed: Sequence[str]) -> Optional[str]:
    """The newest listed release of the line (major.minor) of a pinned ``requested`` release
    that pip does not list, or None: the release line publishes a wheel here, the pin not."""
    if requested is None or requested in listed:
        return None
    line = version_key(requested)[:2]
    if len(line) < 2:
        return None
    same = [v for v in listed if version_key(v)[:2] == line]
    return max(same, key=version_key) if same else None


def old_sdist_build_fix(m: Machine, dist: str = "", version: str = "") -> Fix:
    """A release of ``dist`` with a wheel here, or the old ``version`` built with the build
    tools of its time (Cython below 3) without pip's isolated build environment."""
    name = dist or "<package>"
    release = f"{name}=={version}" if version else name
    return Fix(
        f"pip went back to an older {name} (a requirement's range asked for it) that has no "
        "wheel for this Python, and building its source archive failed: pip's isolated build "
        "environment brings the newest build tools, and an old release's build script predates "
        "them (Cython 3.0 of July 2023 broke many). Install a release of "
        f"{name} that publishes a wheel here first, so the resolver keeps it (--only-binary "
        "lets pip choose only among those), or upgrade the package whose pin asked for the old "
        "release to one with a newer range; else build the old release with the tools it was "
        "written for: Cython below 3 and setuptools installed (and what else its build "
        "imports, NumPy for most scientific packages, at the release TensorFlow takes), then "
        "pip's --no-build-isolation.",
        (
            *m.list_releases(name),
            *m.pip(f"install --only-binary={name} {name}"),
            *m.pip('install "cython<3" setuptools wheel'),
            *m.pip(f'install --no-build-isolation "{release}"'),
        ),
    )


def requires_python_fallback_fix(
    m: Machine,
    dist: str,
    chosen: str,
    newest: str,
    newest_wheels: str,
    failed: str,
    built: bool = True,
    fits: Optional[ReleaseWheels] = None,
) -> Fix:
    """``dist`` asked for by name alone, and pip choosing the old ``chosen``: its newer releases
    declare a Requires-Python, and pip passes over each one that excludes the interpreter, so
    it fell back to ``chosen``, whose requirement ``failed`` (``absl-py 0.8.1``) has no wheel
    here and failed to build (``built``), or has no release pip can install here.
    ``newest``: the newest release the wheel index lists; ``newest_wheels``: its wheels in
    words (:meth:`ReleaseWheels.describe`). ``fits``: a release newer than ``chosen`` that
    the index lists for this interpreter (:func:`newest_release_for`), where there is one:
    that release, not another Python, is what installs."""
    outcome = (
        "that has no wheel here and fails to build"
        if built
        else "pip finds no release of that for this Python"
    )
    interpreter = f"Python {m.python_version}" if m.python_version else "this Python"
    if fits is not None:
        return Fix(
            f"pip chose {dist} {chosen} for `{dist}` asked for without a version, which "
            f"requires {failed}: {outcome}. {dist} {fits.version}, a newer release whose "
            f"Requires-Python admits {interpreter}, publishes {fits.describe()}: pip did not "
            "take it in this log; install it by its version.",
            (*m.pip(f'install "{dist}=={fits.version}"'),),
        )
    return Fix(
        f"pip chose {dist} {chosen} for `{dist}` asked for without a version: every newer "
        f"{dist} release declares the Pythons it supports (Requires-Python), and pip passes "
        f"over those that exclude {interpreter}, down to {chosen}, which requires {failed}: "
        f"{outcome}. Install {dist} with a Python its current "
        f"releases support, in a new virtual environment: {dist} {newest} publishes "
        f"{newest_wheels}. The command below makes pip print which releases it skipped and "
        "the Python each one requires.",
        (
            "python --version",
            *m.pip(f'install "{dist}>{chosen}"'),
        ),
    )


def replaced_dependency_fix(m: Machine, dist: str = "", installed: str = "") -> Fix:
    """Keep the release of ``dist`` that was installed from a wheel: pin it in the same
    install (or a constraints file) so pip does not build another."""
    name = dist or "<package>"
    pin = f"{name}=={installed}" if installed else name
    was = f"{name} {installed}" if installed else name
    return Fix(
        f"pip removed {was}, installed from a wheel, to build another {name} from source, "
        f"and that build failed. Keep {was}: name {pin} in the same pip command as the "
        "packages being installed (or in a constraints file, pip -c), so the resolver keeps "
        f"the wheel; where a package refuses that {name}, install the release of that package "
        f"whose range admits it (pip's output names the requirement that made it move), or "
        "install it without its dependencies (--no-deps) and add the rest by hand "
        "(requirements.txt below stands for the packages being installed).",
        (
            f'echo "{pin}" > constraints.txt',
            *m.pip("install -c constraints.txt -r requirements.txt"),
        ),
    )


def source_build_fix(
    m: Machine,
    dist: str,
    version: str,
    built_for: str = "",
    built_on: str = "",
    installer: str = "pip",
) -> Fix:
    """A release of ``dist`` with a wheel for this interpreter, instead of building one that
    has none (pip chose the source archive of ``version`` and its build failed); where the
    module table knows what the build needs, those headers, or the system's own build of it.
    ``built_for``: the Python the build's folder names, where the machine's is not known;
    ``built_on``: the system it names (Debian's packages only for Linux); ``installer``: the
    one that built it (``poetry``, ``uv``: its environment takes no pip command, the release
    is required in the project instead)."""
    from tfdoctor.modules import modules  # noqa: PLC0415 - the module table, on demand

    release = f"{dist} {version}" if version else dist
    interpreter = m.python_version or built_for
    python = f"Python {interpreter}" if interpreter else "this Python"
    if installer != "pip":
        return _project_source_build_fix(m, dist, release, interpreter, built_on, installer)
    # TensorFlow's declared range keeps the choice inside what the installed TensorFlow runs
    # with (a newest NumPy can be a major TensorFlow does not support).
    spec = m.declared_range(dist) or ""
    major = version_key(version)[0] if version and version_key(version) else None
    if not spec and major is not None:
        # Without TensorFlow's range, the major the requirement asked for: a newer major (a
        # NumPy 2) can be one an older TensorFlow does not run.
        spec = f"<{major + 1}"
    text = (
        f"pip found no wheel of {release} it could use for {python} and this platform, so "
        f"it built the source archive, and the build failed: {_SOURCE_BUILDS_FAIL} "
        f"Install a {dist} release that publishes a wheel here: --only-binary lets pip choose "
        f"only among those (then change any pin of {dist} in the requirements to the release "
        f"it installs); or use a Python that {release} has wheels for."
    )
    commands = [
        *m.list_releases(dist),
        *m.pip(f'install --only-binary={dist} "{dist}{spec}"'),
    ]
    if m.in_conda and dist in modules().source_builds:
        # conda's packages are built for the environment: no headers, no compiler.
        text += f" In this conda environment, conda's own build of {dist} needs no compiler."
        commands.extend(m.conda_install(dist, channel="conda-forge"))
        return Fix(text, tuple(commands))
    needs, apt = _build_needs(m, dist, release, interpreter, built_on)
    if apt:
        text += needs
        commands.append(apt)
        commands.extend(m.pip(f'install "{dist}{spec}"'))
    return Fix(text, tuple(commands))


#: Why a source build fails where no wheel fits, in the words of every installer's fix.
_SOURCE_BUILDS_FAIL: Final = (
    "a release older than the interpreter seldom builds on it (Python 3.12 removed distutils "
    "and pkgutil.ImpImporter, which old build scripts use), and on a platform its wheels do not "
    "cover (32-bit Arm, an old Python on a board) it needs what its extension compiles against."
)


def _build_needs(
    m: Machine, dist: str, release: str, interpreter: str, built_on: str, project: bool = False
) -> tuple[str, str]:
    """What the module table says building ``dist`` needs on Linux, in words (a sentence to
    append) and as the apt command that installs it; empty where it knows nothing or the
    system is not Linux. ``project``: a project manager's environment, which the system's
    own build of ``dist`` does not reach."""
    from tfdoctor.modules import modules  # noqa: PLC0415 - the module table, on demand

    needs = modules().source_builds.get(dist)
    if needs is None or (m.os or built_on) != "linux":
        return "", ""
    system, apt = needs.system_package, needs.apt
    if interpreter.startswith("2."):
        # Debian names its Python 2 packages python-X where Python 3's are python3-X.
        system = re.sub(r"^python3-", "python-", system)
        apt = tuple(re.sub(r"^python3-", "python-", x) for x in apt)
    words = (
        f" Where no release has one, give the build {needs.what} (Debian and Ubuntu: "
        f"{' '.join(apt)}) and install {release} again"
        + (
            f", or, where this is the system's own Python (not a virtual environment), "
            f"install the system's build of {dist}, {system}"
            if system and not project and m.env_kind in ("system", "unknown")
            else ""
        )
        + "."
    )
    return words, f"sudo apt-get install {' '.join(apt)}"


def _project_source_build_fix(
    m: Machine, dist: str, release: str, interpreter: str, built_on: str, installer: str
) -> Fix:
    """:func:`source_build_fix` where Poetry or uv built the archive: the release required in
    the project is what changes (its ``add``, with a release, writes the requirement and locks
    again), so the listing of releases and what the build needs are the commands."""
    name = RESOLVER_NAMES.get(installer, installer)
    python = f"Python {interpreter}" if interpreter else "this Python"
    add = add_command(installer, f"{dist}==<release>")
    how = f"`{add}`, " if add else ""
    if installer == "uv":
        # uv's build error does not say which of its interfaces ran.
        how = f"{how}or `uv pip install` outside a project, "
    needs, apt = _build_needs(m, dist, release, interpreter, built_on, project=True)
    return Fix(
        f"{name} found no wheel of {release} it could use for {python} and this platform, so it "
        f"built the source archive, and the build failed: {_SOURCE_BUILDS_FAIL} Require a "
        f"{dist} release that publishes a wheel for {python} and this platform ({how}then "
        f"install again; the listing below names the releases), or use a Python that {release} "
        "has wheels for." + needs,
        (*m.list_releases(dist), *((apt,) if apt else ())),
    )


def python_range_fix(
    m: Machine,
    dist: str,
    version: str,
    spec: str,
    python: Optional[str],
    listed: Sequence[str] = (),
) -> Fix:
    """A release whose Requires-Python excludes this interpreter (pip's own words): a Python
    inside its range, or a release of ``dist`` pip does list for this one."""
    release = f"{dist} {version}" if version else dist
    py = f"Python {python}" if python else "this Python"
    direction = _outside(python, spec) if python else _one_sided(spec)
    text = (
        f"{release} declares Requires-Python {spec}, which {py} is outside{direction}: create "
        "the environment with a Python inside that range"
    )
    commands = [*m.list_releases(dist, python)]
    found = newest_release_for(m, dist, python) if python else None
    newest = max(listed, key=version_key) if listed else None
    if newest is not None and version and version_key(newest)[:1] != version_key(version)[:1]:
        # pip's list for this Python stops at another major release (on Python 3.8, keras
        # 2.15.0 beside a pin of 3.0.0: keras 3.x declares Requires-Python >=3.9): a release
        # of another major is not what the code pinned for.
        newest = None
    if newest is not None:
        text += f", or install {dist} {newest}, the newest release pip lists for {py}"
        commands.extend(m.pip(f'install "{dist}=={newest}"'))
    elif found is not None:
        # The wheel index (PyPI's files) names the newest release whose Requires-Python and
        # wheels take this interpreter: a release that installs, not a search.
        text += (
            f", or install {dist} {found.version}, the newest release that supports {py}: it "
            f"publishes {found.describe()}"
        )
        commands.extend(m.pip(f'install "{dist}=={found.version}"'))
    elif python and (line := _newest_line_for(m, dist, python)) is not None:
        # TensorFlow's own wheels are the matrix's (its ``python`` per platform): its newest
        # final release with a wheel for this Python on this platform.
        text += (
            f", or install TensorFlow {line.latest_patch}, the newest release with wheels for "
            f"Python {'.'.join(python.split('.')[:2])}{_system_words(m)} (from the matrix)"
        )
        commands.extend(m.pip(f'install "tensorflow=={line.latest_patch}"'))
    else:
        text += f", or a {dist} release that supports {py} (the commands list them)"
    return Fix(text + ".", tuple(commands))


def _newest_line_for(m: Machine, dist: str, python: str) -> Optional[TFLine]:
    """The matrix's newest TensorFlow line with a final release and a wheel for Python
    ``python`` on the machine's platform (its system's, any CPU, where the architecture is
    unknown; any platform where both are); None for another distribution or where no line
    has one."""
    if dist != "tensorflow" or m.matrix is None:
        return None
    # The platform, not the system: macOS x86-64's wheels end at 2.16 where Apple silicon's go
    # on, and Linux aarch64's start at 2.10.
    where = m.platform or (f"{m.os}-" if m.os else "")
    return m.matrix.newest_with_wheels(python, where)


def _system_words(m: Machine) -> str:
    """`` on Linux x86-64`` (the machine's platform) where known, else `` on Linux``
    (Windows, macOS: its system) where that is, else empty."""
    if m.platform:
        return f" on {platform_words((m.platform,))}"
    return {"linux": " on Linux", "windows": " on Windows", "macos": " on macOS"}.get(
        m.os or "", ""
    )


def newest_release_for(m: Machine, dist: str, python: str) -> Optional[ReleaseWheels]:
    """The newest release of ``dist`` the wheel index lists with a wheel for Python
    ``python`` (and for the machine's system and architecture, where known), or None."""
    arch = m.platform.split("-", 1)[1] if m.platform else None
    return next(
        (
            r
            for r in reversed(releases_of(normalize_name(dist)))
            if r.python_fits(python) and r.platform_fits(m.os, arch)
        ),
        None,
    )


def _one_sided(spec: str) -> str:
    """The side an interpreter of unknown version is on, where ``spec`` bounds only one."""
    lower = any(op in spec for op in (">=", ">"))
    upper = "<" in spec
    if lower and not upper:
        return " (older than it allows)"
    if upper and not lower:
        return " (newer than it allows)"
    return ""


def python_below_range(python: str, spec: str) -> bool:
    """Whether ``python`` is older than the Requires-Python ``spec`` allows."""
    return _side(python, spec) == "older"


def _side(python: str, spec: str) -> str:
    """``older`` or ``newer``: the side of ``spec``'s bounds ``python`` falls on; empty where
    it is inside, or either cannot be read."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    try:
        have, bounds = Version(python), SpecifierSet(spec)
    except (InvalidSpecifier, InvalidVersion):
        return ""
    for bound in bounds:
        if bound.operator in (">=", ">") and not bound.contains(have):
            return "older"
        if bound.operator in ("<", "<=") and not bound.contains(have):
            return "newer"
    return ""


def _outside(python: str, spec: str) -> str:
    """`` (older than it allows)`` or `` (newer than it allows)``, as ``spec`` bounds it."""
    side = _side(python, spec)
    return f" ({side} than it allows)" if side else ""


def pip_upgrade_fix(m: Machine, reason: str, tls: bool = False, pip: Optional[str] = None) -> Fix:
    """Upgrade pip in the environment that installs, then install again. ``tls``: PyPI refused
    this pip's connection, so it cannot fetch its own upgrade: get-pip.py installs one (an
    older Python needs its own copy, bootstrap.pypa.io/pip/X.Y/get-pip.py). ``pip``: the
    version the log shows; one before 9.0 ignores Requires-Python, so upgrading it in one
    step would install a pip that no longer runs on an old Python: first the last pip for
    Python 2.7 and 3.5 (20.3.4), which reads Requires-Python, then the newest this Python
    admits."""
    if tls:
        return Fix(
            f"{reason} Install a current pip with get-pip.py (for Python 3.7 or older, the "
            "copy for that Python: https://bootstrap.pypa.io/pip/3.7/get-pip.py, .../2.7/...), "
            "then run the install again.",
            (
                "python --version",
                "curl -sSLO https://bootstrap.pypa.io/get-pip.py  # Python 3.7 or older: "
                "https://bootstrap.pypa.io/pip/X.Y/get-pip.py",
                "python get-pip.py",
                "python -m pip --version",
            ),
        )
    first = (
        m.pip('install --upgrade "pip<21"')
        if pip and version_key(pip) < PIP_REQUIRES_PYTHON
        else ()
    )
    return Fix(
        f"{reason} Upgrade pip in the environment that installs (TensorFlow asks for pip 19.0 "
        "or later, 20.3 on macOS), then run the install again."
        + (
            " This pip ignores Requires-Python: upgrade it first to a pip before 21 (which "
            "reads it and still runs on Python 2.7 and 3.5), then to the newest this Python "
            "admits."
            if first
            else ""
        ),
        (*first, *m.pip("install --upgrade pip"), *m.pip_after_install("--version")),
    )


def macos11_pip_fix(m: Machine, pip: Optional[str], python: Optional[str]) -> Fix:
    """pip older than 20.3 listing no TensorFlow for a Python that has macOS wheels: on macOS
    11 and later (which it does not recognise) that pip finds no macOS wheel of anything."""
    shown = f"pip {pip}" if pip else "This pip"
    which = f"Python {python}, which" if python else "a Python"
    return pip_upgrade_fix(
        m,
        f"{shown} lists no TensorFlow for {which} TensorFlow publishes macOS wheels for: a pip "
        "older than 20.3 does not recognise macOS 11 and later (Big Sur reports 11.x), so it "
        "finds no macOS wheel there. Upgrade pip first.",
        pip=pip,
    )


def aarch64_python_fix(python: str, first: str, pythons: Sequence[str]) -> Fix:
    """No TensorFlow wheel for Python ``python`` on Linux aarch64, whose wheels start at the
    line ``first`` for ``pythons`` (the matrix's Pythons of its aarch64 wheels)."""
    return Fix(
        f"On Linux aarch64 TensorFlow publishes wheels from {first} on, for Python "
        f"{_python_span(pythons)} (from the matrix): Python {python} has none there. Create a "
        f"virtual environment with one of those Pythons (Python {pythons[-1]} at the newest) "
        "and install TensorFlow in it; a board vendor's own build (NVIDIA's for Jetson) is the "
        "other way for this Python.",
        ("uname -m", INTERPRETER_CHECK),
    )


def aarch64_release_fix(release: str, first: str, pythons: Sequence[str]) -> Fix:
    """A pinned TensorFlow ``release`` of a line with no Linux aarch64 wheel, asked for on an
    aarch64 machine, whose wheels start at the line ``first`` for ``pythons`` (the matrix)."""
    return Fix(
        f"TensorFlow {release} publishes no Linux aarch64 wheel: TensorFlow's aarch64 wheels "
        f"start at {first}, for Python {_python_span(pythons)} (from the matrix). Move the "
        f"requirement to {first} or later (with one of those Pythons), or run {release} on "
        "Linux x86-64 (another machine, or a container of one).",
        ("uname -m", INTERPRETER_CHECK),
    )


def arch_without_wheels_fix(machine: str) -> Fix:
    """A Linux machine of an architecture TensorFlow publishes no wheel for (``ppc64le``,
    ``s390x``): build it from source, or run where its wheels install."""
    return Fix(
        f"TensorFlow publishes no wheel for Linux {machine} (its Linux wheels are for x86-64 "
        "and aarch64), so pip lists none whatever the Python. Build TensorFlow from source for "
        "this machine, or run it on an x86-64 or aarch64 machine (or a container of one).",
        ("uname -m",),
    )


def interpreter_without_wheels_fix(
    m: Machine, implementation: str, free_threaded: bool, python: str
) -> Optional[Fix]:
    """pip lists no TensorFlow for an interpreter its wheels are not built for, as pip's tags
    or the banner show it: PyPy, GraalPy or any other implementation (the wheels' tags are
    CPython's, ``cpXY``), or a free-threaded CPython (``cp313t``: the wheels are for the
    default build's ABI; PyPI's files have no ``t`` tag). The fix is a CPython default build
    the matrix has wheels for here, made into a virtual environment by its versioned name;
    None for a plain CPython."""
    minor = ".".join(python.split(".")[:2])
    # The platform where known: a Python with wheels on its system may have none on its CPU.
    system = m.platform or (f"{m.os}-" if m.os else "")
    newest = _newest_python_here(m)
    if free_threaded and implementation in ("", "CPython"):
        served = bool(minor) and any(x.has_wheels_for(minor, system) for x in _finals(m))
        use = minor if served else newest
        if use is None:
            return None
        built = f"of {minor} " if minor else ""
        text = (
            f"This Python is the free-threaded build {built}({minor or '3.X'}t), and "
            "TensorFlow's wheels are for CPython's default build only (their ABI tags have no "
            f"t): create the environment with the default build of Python {use} (its "
            f"`python{use}`, not `python{use}t`) and install TensorFlow there"
            + ("" if served else f" ({use} is the newest Python TensorFlow has wheels for here)")
            + "."
        )
        return Fix(text, python_venv_commands(m, use))
    if implementation not in ("", "CPython") and newest is not None:
        # Any other implementation: GraalPy's platform.python_implementation() is "GraalVM".
        shown = f"{'GraalPy' if implementation == 'GraalVM' else implementation} {python}".rstrip()
        return Fix(
            f"This Python is {shown}, and TensorFlow publishes wheels for CPython only (their "
            "tags are cpXY), so pip lists none for it whatever the release: create the "
            f"environment with CPython {newest} (the newest Python the newest TensorFlow has "
            "wheels for here, from the matrix) and install TensorFlow there.",
            python_venv_commands(m, newest),
        )
    return None


def windows_arm64_fix(m: Machine) -> Fix:
    """A Windows on Arm (ARM64) Python: TensorFlow's Windows wheels are x86-64 only, and its
    Linux aarch64 wheels (the matrix's linux-aarch64, from their first line) install in WSL2,
    which runs Arm64 Linux on the same machine
    (https://learn.microsoft.com/en-us/windows/wsl/install)."""
    first = next(
        (
            x.line
            for x in sorted(_finals(m), key=lambda x: version_key(x.line))
            if x.pythons_on("linux-aarch64")
        ),
        None,
    )
    since = f" (from TensorFlow {first}, from the matrix)" if first else ""
    return Fix(
        "This Python is Windows on Arm's (ARM64): TensorFlow publishes Windows wheels for "
        "x86-64 only, so pip lists none for it whatever the release. Its Linux Arm64 "
        f"(aarch64) wheels{since} install in WSL2 on this machine: install WSL with Ubuntu, "
        "then in its shell create a virtual environment (`python3 -m venv ~/tf`, with the "
        "python3-venv package) and install TensorFlow there (`~/tf/bin/python -m pip install "
        "tensorflow`).",
        ("wsl --install -d Ubuntu",),
    )


def no_release_here_fix(m: Machine) -> Optional[Fix]:
    """The fix where TensorFlow is not installed and no final release has a wheel for this
    64-bit interpreter on this platform (the matrix's wheel table): an interpreter of another
    kind (PyPy, :func:`interpreter_without_wheels_fix`), else a virtual environment of the
    newest Python the newest release with wheels here publishes one for, installed by its own
    versioned command; on Windows on Arm and Linux ppc64le and s390x, which have no wheel of
    any release, their own fixes. None where a release fits, or the Python, its bits or the
    platform are unknown (a 32-bit Python's fix is :func:`python_64bit_fix`). First, on a
    system whose C library is not glibc (:attr:`Machine.non_glibc_libc`), no wheel of any
    release installs whatever the Python: musl's fix, or Android's."""
    libc = m.non_glibc_libc
    if libc == "musl":
        return musl_fix(m.facts.platform.os_name if m.facts.platform is not None else "")
    if libc == "bionic":
        return android_fix(m.facts.platform.machine if m.facts.platform is not None else "")
    python = m.facts.python
    if m.matrix is None or python is None or python.bits != 64:
        return None
    if m.platform is None:
        # A system and CPU the matrix has no wheels for at all: its own fix, where known.
        plat = m.facts.platform
        if plat is not None and plat.system == "Windows" and plat.machine.upper() == "ARM64":
            return windows_arm64_fix(m)
        if plat is not None and plat.system == "Linux" and plat.machine in ("ppc64le", "s390x"):
            return arch_without_wheels_fix(plat.machine)
        return None
    if python.implementation not in ("", "CPython"):
        return interpreter_without_wheels_fix(m, python.implementation, False, python.version)
    return _no_release_for(m, ".".join(python.version.split(".")[:2]), m.platform)


def no_release_in_log_fix(m: Machine) -> Optional[Fix]:
    """:func:`no_release_here_fix` for an interpreter a log shows by its paths only (its
    Python and system, not its CPU nor bits): where no release, of the lines or the
    ``early_releases`` before them, has a wheel for that Python on any platform of that
    system (Python 2.7 on Windows, whose wheels are for Python 3.5 and later). Only a Python
    older than every one with wheels there: a newer one may have wheels of a release newer
    than the matrix. None where the interpreter was probed (that function's) or a release
    fits."""
    python = m.python_version
    if m.facts.python is not None or m.matrix is None or not python or m.os is None:
        return None
    minor = ".".join(python.split(".")[:2])
    where = f"{m.os}-"
    listed = {p for x in m.matrix.releases for p in x.pythons_on(where)} | {
        p
        for row in m.matrix.early_releases
        for k, ps in row.python.items()
        if k.startswith(where)
        for p in ps
    }
    if not listed or version_key(minor) >= min(map(version_key, listed)):
        return None
    return _no_release_for(m, minor, where)


def _no_release_for(m: Machine, minor: str, platform: str) -> Optional[Fix]:
    """The fix where no final release has a wheel for Python ``minor`` on the platforms whose
    matrix key starts with ``platform``: the lines' latest patches and the ``early_releases``
    rows (each release before the lines, with the Pythons of its wheel files on PyPI); None
    where one has, or the matrix lists no wheel there."""
    if m.matrix is None or m.matrix.newest_release_with_wheels(minor, platform) is not None:
        return None
    line = next((x for x in m.matrix.releases if x.pythons_on(platform)), None)
    if line is None:
        return None  # a platform the matrix lists without a wheel: tensorflow.python says so
    pythons = line.pythons_on(platform)
    where = platform_words(tuple(sorted({k for k in line.python if k.startswith(platform)})))
    return Fix(
        f"No TensorFlow release publishes a wheel for Python {minor} on {where} (from the "
        f"matrix), so pip finds none to install: TensorFlow {line.latest_patch}, the newest "
        f"with wheels here, is for {python_span(pythons)}. Create a virtual environment with "
        f"Python {pythons[-1]} and install TensorFlow there.",
        python_venv_commands(m, pythons[-1]),
    )


def missing_without_release_fix(m: Machine) -> Optional[Fix]:
    """The fix where TensorFlow is not installed and no release has a wheel for this
    interpreter here (:func:`no_release_here_fix`); None where one is installed or a release
    may fit. Both of ``check``'s findings that could say it ask this one question: the
    missing TensorFlow (``packages.tensorflow``) reports it, the wheels for this Python
    (``tensorflow.python``) then only note it, so the machine gets one finding, not two."""
    return None if m.tf_providers else no_release_here_fix(m)


def tf_no_wheel_fix(m: Machine, span: str = "") -> Fix:
    """The one fix of ``tf-no-wheel-for-python`` in ``check``, whichever check finds it.

    ``span``: the Pythons the installed TensorFlow's line has wheels for (``3.9-3.11``) where
    one is installed without a wheel for this Python: then the newest release that fits
    this machine (Python, platform, driver, GPUs) where one does. Else
    :func:`no_release_here_fix` where it speaks (another interpreter, a platform without
    wheels, a Python no release serves); else, on a platform the matrix has no wheels for,
    another platform or a source build; else a virtual environment of the newest Python the
    newest final release has wheels for here, made by its versioned command (``py -3.X`` on
    Windows: python.org's installer puts no ``python3.X`` on the PATH,
    https://docs.python.org/3/using/windows.html#python-launcher-for-windows)."""
    from tfdoctor.compat import install_requirement, newest_fit  # noqa: PLC0415 - avoids a cycle at import

    if span and m.matrix is not None:
        verdict = newest_fit(m.matrix, m.target)
        if verdict is not None:
            return Fix(
                f"Install TensorFlow {verdict.line.latest_patch}, the newest that fits this "
                f"Python, platform, driver and GPUs; or use a Python the installed line "
                f"supports ({span}).",
                m.pip_install(install_requirement(verdict.line, m.target)),
            )
    here = no_release_here_fix(m)
    if here is not None:
        return here
    if m.platform is None:
        return Fix(
            "Use Linux (x86-64 or aarch64), macOS or Windows x86-64, or build TensorFlow "
            "from source for this platform."
        )
    newest = _newest_python_here(m) or "3"
    return Fix(
        "Create a virtual environment with a CPython 3 that TensorFlow publishes wheels for "
        f"(Python {newest}, from the matrix) and install TensorFlow there.",
        python_venv_commands(m, newest),
    )


def _finals(m: Machine) -> tuple[TFLine, ...]:
    """The matrix's lines with a final release, newest first (none without a matrix)."""
    return m.matrix.releases if m.matrix is not None else ()


#: Where tensorflow-macos's wheels are listed: each is tagged for macOS 11 or later
#: (``macosx_11_0``, from 2.9 ``macosx_12_0``), never 10.x.
MACOS_WRAPPER_FILES = "https://pypi.org/project/tensorflow-macos/#files"
#: A command that prints the interpreter's version, the macOS it reports and its CPU: 10.16
#: is a Python built against an SDK older than macOS 11, which macOS answers in compatibility
#: mode (packaging's tags.mac_platforms asks again with SYSTEM_VERSION_COMPAT=0 for that
#: reason: https://github.com/pypa/packaging/blob/main/src/packaging/tags.py).
MACOS_VERSION_CHECK: Final = (
    "python -c 'import platform, sys; print(sys.version.split()[0], platform.mac_ver()[0], "
    "platform.machine())'"
)


def macos_wrapper_fix(
    m: Machine, python: Optional[str], pip: Optional[str], pythons: Sequence[str]
) -> Fix:
    """pip lists no tensorflow-macos release at all: its wheels carry macOS 11 or later tags
    only (:data:`MACOS_WRAPPER_FILES`) for ``pythons`` (the wheel index's), so a Python
    outside those, a macOS before 11, a pip before 20.3, or a Python that reports macOS
    10.16 (built against an older SDK; macOS then answers in its compatibility mode) sees
    none. ``python``, ``pip``: what the log shows."""
    span = f"CPython {_python_span(pythons)}" if pythons else "the Pythons its files list"
    outside = (
        bool(python) and bool(pythons) and ".".join((python or "").split(".")[:2]) not in (pythons)
    )
    if outside:
        return Fix(
            f"pip lists no tensorflow-macos release for Python {python}: its wheels are for "
            f"{span} only (its files on PyPI: {MACOS_WRAPPER_FILES}). Create the environment "
            f"with one of those Pythons (Python {pythons[-1]} at the newest) and install it "
            "there.",
            (MACOS_VERSION_CHECK,),
        )
    old_pip = bool(pip) and version_key(pip or "") < PIP_MACOS11
    return Fix(
        "pip lists no tensorflow-macos release for this interpreter. Its wheels are for "
        f"{span} and tagged for macOS 11 or later only (its files on PyPI: "
        f"{MACOS_WRAPPER_FILES}), so pip finds none where the Python is another, the macOS is "
        "older than 11, pip is older than 20.3 (the first that reads macOS 11's tags"
        + (f"; the log shows pip {pip}" if old_pip else "")
        + "), or the Python reports macOS 10.16: one built against an SDK older than macOS 11 "
        "(conda's, older python.org installers) is answered in macOS's compatibility mode, and "
        "a pip that does not ask again reads only 10.x tags. The command below shows which: "
        "10.16 is the last; then upgrade pip and run the install with SYSTEM_VERSION_COMPAT=0, "
        "which makes macOS report its real version.",
        (
            MACOS_VERSION_CHECK,
            *m.pip("install --upgrade pip"),
            "SYSTEM_VERSION_COMPAT=0 python -m pip install tensorflow-macos",
        ),
    )


def macos_only_dist_fix(
    m: Machine, dist: str, system: str, pinned: Optional[str], machine: Optional[str] = None
) -> Fix:
    """pip lists no release of ``dist``, a distribution whose every release publishes macOS
    wheels only (Apple's tensorflow-macos, tensorflow-metal; the wheel index's files), on
    ``system`` (``linux``, ``windows``: what the log shows): no Python there has one. For a
    build of TensorFlow (tensorflow-macos) the fix installs TensorFlow's own distribution, of
    the ``pinned`` release where the matrix has its line; a plugin (tensorflow-metal, whose
    releases are not TensorFlow's) is left out there. Either is kept to macOS with an
    environment marker (PEP 508's sys_platform). ``machine``: the architecture the log shows
    (``aarch64``: a Linux container on an Apple silicon Mac), whose wheels a pinned line may
    not have (the matrix's Pythons of ``{system}-{machine}``): the pin is dropped there."""
    name = {"linux": "Linux", "windows": "Windows"}.get(system, system)
    key = f"{system}-{machine}"
    only = (
        f"{dist} publishes wheels for macOS only (every release's files: "
        f"https://pypi.org/project/{dist}/#files), so pip on {name} lists none whatever the "
        "Python"
    )
    if machine and system == "linux" and key not in PLATFORMS:
        # A machine TensorFlow's own distribution has no wheel for either (ppc64le, a 32-bit
        # system): its way, not an install that finds nothing there.
        bits32 = re.fullmatch(r"i[3-6]86|armv\d+l?", machine) is not None
        other = python_64bit_fix(m, machine) if bits32 else arch_without_wheels_fix(machine)
        return Fix(
            f"{only}, and `tensorflow` has no wheel for Linux {machine} either. {other.text}",
            other.commands,
        )
    build = normalize_name(dist) in TF_DISTRIBUTIONS
    line = m.matrix.line_for(pinned) if build and m.matrix is not None and pinned else None
    if line is not None and key in PLATFORMS and not line.python.get(key):
        line = None
    spec = f"tensorflow=={pinned}" if line is not None else "tensorflow"
    instead = (
        f"Install `{spec}` there instead"
        if build
        else f"It is a plugin of macOS's alone: leave it out there and install `{spec}`"
    )
    return Fix(
        f"{only}. {instead}; where a requirements file or a project's dependencies name "
        f'{dist}, give it the marker `; sys_platform == "darwin"`'
        + (' and add `tensorflow; sys_platform != "darwin"`' if build else "")
        + ", so each system installs its own build.",
        m.pip(f'install "{spec}"'),
    )


def apple_silicon_fix(
    m: Machine,
    requested: Optional[str],
    first_line: str,
    pythons: Sequence[str],
    python: Optional[str],
) -> Optional[Fix]:
    """pip found no TensorFlow for an arm64 Python on a Mac (Apple silicon): the ``tensorflow``
    distribution publishes macOS arm64 wheels from ``first_line`` on (the matrix's, for
    ``pythons``); before it, TensorFlow for Apple silicon was Apple's tensorflow-macos, whose
    releases the wheel index lists (TensorFlow's own install page pointed there,
    https://developer.apple.com/metal/tensorflow-plugin/). ``requested``: the release pinned;
    ``python``: the one the log shows; the commands are ``m``'s pip (the interpreter the log
    names, or a new environment where that one is externally managed). None where the
    Python shown has wheels of neither.
    The tensorflow distribution's arm64 wheels are tagged macosx_12_0 from the first
    (tensorflow-2.13.0-cp311-cp311-macosx_12_0_arm64.whl to 2.16.2's:
    https://pypi.org/project/tensorflow/2.13.0/#files): macOS 11 takes none."""
    wrapper = releases_of("tensorflow-macos")
    minor = ".".join((python or "").split(".")[:2])
    if minor and minor not in pythons and not any(r.python_fits(minor) for r in wrapper):
        return None  # the Python's version, not the Mac, is what no wheel fits
    span = f"CPython {_python_span(pythons)}"
    before = requested is not None and version_key(requested)[:2] < version_key(first_line)[:2]
    if before:
        asked = version_key(requested or "")[:2]
        # Apple's build of the same line (2.11.0 for tensorflow==2.11.0, 2.9.2 for 2.9.*).
        same = [r for r in wrapper if version_key(r.version)[:2] == asked]
        if same:
            build = same[-1]
            # A Python the build has no wheel for: name the newest it has (a new environment).
            fitting = sorted((p for p in build.pythons if not p.startswith("py")), key=version_key)
            install = f'install "tensorflow-macos=={build.version}"'
            commands = m.pip(install)
            other = ""
            if minor and fitting and not build.python_fits(minor):
                other = (
                    f" with Python {fitting[-1]} (a new virtual environment of it: "
                    f"{build.version} has no wheel for Python {minor})"
                )
                commands = python_venv_commands(m, fitting[-1], install)
            return Fix(
                f"TensorFlow {requested} publishes no wheel for macOS on Apple silicon (arm64): "
                f"the tensorflow distribution has them from {first_line} on, for {span}. Before "
                f"that, TensorFlow for Apple silicon is Apple's tensorflow-macos, whose "
                f"{build.version} has wheels for CPython {_python_span(build.pythons)}: require "
                f"tensorflow-macos=={build.version}{other} in place of the tensorflow pin (a "
                "requirements "
                "file shared with other systems can say so with a marker: "
                f'`tensorflow-macos=={build.version}; sys_platform == "darwin" and '
                'platform_machine == "arm64"`), or move the pin to tensorflow '
                f"{first_line} or later.",
                commands,
            )
        return Fix(
            f"TensorFlow {requested} publishes no wheel for macOS on Apple silicon (arm64): the "
            f"tensorflow distribution has them from {first_line} on, for {span}, and Apple's "
            f"tensorflow-macos none of that line. Move the pin to tensorflow {first_line} or "
            "later, or run that release on another platform it has wheels for.",
            m.pip(f'install "tensorflow>={first_line}"'),
        )
    return Fix(
        "pip lists no TensorFlow for this arm64 Python on a Mac with Apple silicon. The "
        f"tensorflow distribution publishes macOS arm64 wheels from {first_line} on, for "
        f"{span}, tagged for macOS 12 or later; before {first_line}, TensorFlow for Apple "
        "silicon was Apple's tensorflow-macos. So pip sees none where the index it reads "
        f"predates {first_line}, the Mac runs macOS 11, the Python is another, pip is older "
        "than 20.3 (the first that "
        "reads macOS 11's tags), or the Python reports macOS 10.16 (built against an older "
        "SDK: run the install with SYSTEM_VERSION_COMPAT=0). Upgrade pip and install "
        f"tensorflow {first_line} or later with one of those Pythons; for an older release, "
        "install tensorflow-macos of that release instead.",
        (
            MACOS_VERSION_CHECK,
            *m.pip("install --upgrade pip"),
            *m.pip(f'install "tensorflow>={first_line}"'),
        ),
    )


def resolver_release_fix(
    dist: str,
    version: str,
    python: Optional[str],
    abi_tags: Sequence[str],
    platforms: Sequence[str],
    installer: str = "",
    implementation: str = "CPython",
    variant: str = "",
) -> Fix:
    """A resolver (uv, Poetry) chose ``dist`` ``version`` and found no file of it for this
    interpreter or platform: a Python the release's wheels are built for (``abi_tags``, as the
    resolver's hint lists them: ``cp311`` is CPython 3.11), or a platform they are built for,
    or a release of ``dist`` that has a wheel here (a pin or a Python range of the project).
    ``installer``: ``uv pip`` (uv's pip interface), ``uv`` (a project) or ``pixi`` (a pixi
    workspace, whose PyPI resolver is uv's) where the log says which, whose commands make the
    environment; ``implementation`` and ``variant``: the
    interpreter as uv's hint names it (``PyPy``; ``t``, a free-threaded build)."""
    # cp37m: CPython 3.7's tag with pymalloc's ABI flag (Pythons before 3.8 carry it).
    pythons = [f"{t[2]}.{t[3:].rstrip('m')}" for t in abi_tags if re.fullmatch(r"cp\d\d+m?", t)]
    release = f"{dist} {version}"
    used = f" (this is {python})" if python else ""
    if pythons and "t" in variant and python in pythons:
        # A free-threaded build (3.13t) of a version the wheels are for: the default build of
        # the same version takes them. uv picks a free-threaded 3.13 only when asked; from 3.14
        # a plain request may find one first on the PATH, and `3.14+gil` asks for the default
        # build (docs/concepts/python-versions.md, "Free-threaded Python"; uv 0.9.11, older
        # than the words that name a free-threaded interpreter).
        request = python if version_key(python) < version_key("3.14") else f"{python}+gil"
        return Fix(
            f"This Python is the free-threaded build of {python} ({python}t), and {release}'s "
            f"wheels are for the default build only (CPython {', '.join(pythons)}): create the "
            f"environment with the default build of Python {python}.",
            _uv_environment(installer, request, dist, version),
        )
    if pythons and implementation != "CPython":
        # uv's request by implementation and version (docs/concepts/python-versions.md:
        # `cpython@3.12`): the wheels' cp tags are CPython's alone.
        return Fix(
            f"This Python is {implementation} {python}, and {release}'s wheels are for CPython "
            f"{', '.join(pythons)} only: create the environment with CPython {pythons[-1]}.",
            _uv_environment(installer, f"cpython@{pythons[-1]}", dist, version),
        )
    if pythons:
        text = (
            f"The resolver chose {release}, whose wheels are for CPython "
            f"{', '.join(pythons)} only{used}: create the environment with Python {pythons[-1]} "
            + (
                f'(`pixi add "python={pythons[-1]}.*"`), '
                if installer == "pixi"
                else f"(`uv venv --python {pythons[-1]}`, or the project's requires-python "
                "narrowed to it), "
            )
            + f"or require a {dist} release that publishes wheels for this Python."
        )
    elif platforms:
        text = (
            f"The resolver chose {release}, whose wheels are for {', '.join(platforms)} only: "
            f"this platform has none. Require a {dist} release that publishes a wheel for this "
            "platform (its files on PyPI list them), or run where those wheels install."
        )
    else:
        text = (
            f"The resolver chose {release} and found no wheel of it for this Python and "
            f"platform: require a {dist} release that publishes one for them (its files on PyPI "
            "list each wheel's Python and platform), or use a Python and platform it is built "
            "for."
        )
    if pythons and installer == "uv":
        # A project's lock covers every Python its requires-python admits (uv splits the
        # resolution by Python version): the range must end where the wheels do.
        low, high = pythons[0], pythons[-1]
        upper = f"{high.split('.')[0]}.{int(high.split('.')[1]) + 1}"
        text = (
            f"The resolver chose {release}, whose wheels are for CPython {', '.join(pythons)} "
            f"only{used}, and uv locks the project for every Python its requires-python admits: "
            f'set `requires-python = ">={low},<{upper}"` under [project] in pyproject.toml and '
            f"pin the interpreter to Python {high}, then lock and sync; or require a {dist} "
            "release that publishes wheels for the Pythons the project needs."
        )
        return Fix(text, (f"uv python pin {high}", "uv lock", "uv sync"))
    if pythons and installer:
        return Fix(text, _uv_environment(installer, pythons[-1], dist, version))
    # The release's files say its Pythons and platforms; a uv environment has no pip unless
    # seeded, and pip index versions (pip 21.2+) lists only what fits pip's own interpreter.
    return Fix(text, (pypi_files_command(dist, version), INTERPRETER_CHECK))


def poetry_release_fix(dist: str, version: str, line: TFLine) -> Fix:
    """Poetry chose ``dist`` ``version`` and found no file of it for the environment (its
    chooser's "Unable to find installation candidates", which names neither the Python nor
    the platform): the Pythons and platforms the release's wheels are for (the matrix's
    ``line``), and Poetry's environment made with the newest of those Pythons."""
    pythons = line.pythons_on()
    if not pythons:
        return resolver_release_fix(dist, version, None, (), ())
    newest = pythons[-1]
    # The matrix's platform keys (linux-x86_64) in words, for those that have any wheel.
    where = platform_words(tuple(sorted(key for key, ps in line.python.items() if ps)))
    return Fix(
        f"Poetry chose {dist} {version} and found no file of it for this environment. Its "
        f"wheels are for {python_span(pythons)} on {where} (from the matrix): where the "
        f"environment's Python is another, make Poetry's environment with Python {newest} and "
        "install again (the project's `python` range must admit it); on another platform no "
        f"Python helps: run it where those wheels install, or require a {dist} release with "
        "wheels here.",
        (f"poetry env use {newest}", "poetry install"),
    )


def _uv_environment(installer: str, python: str, dist: str, version: str = "") -> tuple[str, ...]:
    """uv's commands that remake the environment with ``python`` (a version or a request such
    as ``cpython@3.12``): a project pins it in .python-version and syncs (uv python pin, uv
    sync); uv's pip interface makes a new .venv and installs ``dist`` (at ``version``, where
    given) into it. A pixi workspace (``pixi``: uv's words there are pixi's PyPI resolver's)
    takes its Python from conda-forge: its ``python`` dependency (the default build, CPython)
    changed, then installed (https://pixi.sh/latest/reference/cli/pixi/add/)."""
    if installer == "uv":
        return (f"uv python pin {python}", "uv sync")
    version_number = re.search(r"\d+\.\d+", python)
    if installer == "pixi" and version_number is not None:
        return (f'pixi add "python={version_number.group()}.*"', "pixi install")
    wanted = f'"{dist}=={version}"' if version else dist
    return (f"uv venv --python {python}", f"uv pip install {wanted}")


def platform_tag_fix(dist: str, version: Optional[str], platforms: Sequence[str]) -> Fix:
    """A resolver (uv) found no release of ``dist`` with a wheel for the interpreter's platform
    tags: the platforms the newest release's wheels are for, where its hint names them
    (``version``, ``platforms``), and the interpreter's own platform to compare."""
    listed = (
        f" (uv's hint: {dist} {version} has wheels for {', '.join(platforms)} only)"
        if version and platforms
        else ""
    )
    return Fix(
        f"uv found no release of {dist} with a wheel for this interpreter's platform tags"
        f"{listed}: another Python version does not change that, the platform does. Run it "
        + ("where those wheels install" if listed else f"on a platform {dist} publishes wheels for")
        + " (another machine, or a container or VM of that platform; its files on PyPI list "
        "them); where the interpreter is built for another architecture than the machine "
        "(an x86-64 Python under emulation), use one built for the machine's own. The command "
        "below prints the interpreter's platform.",
        (
            'python -c "import platform, sysconfig; print(sysconfig.get_platform(), '
            'platform.machine())"',
        ),
    )


def release_line_fix(m: Machine, dist: str, requested: str, release: str) -> Fix:
    """Install the release of the pinned one's line that pip lists for this Python."""
    line = ".".join(requested.split(".")[:2])
    return install_fix(
        m,
        f"pip lists {dist} {release} for this Python and platform but not {requested}: that "
        f"release published no wheel for them, {release} (the same {line} line) did. Install "
        f"{release}.",
        f"{dist}=={release}",
    )


def pip_refusal_fix(
    m: Machine,
    listed: Sequence[str],
    requested: Optional[str],
    python: Optional[str],
    dist: str = "tensorflow",
    shown: bool = True,
    required_by: str = "",
    python_64bit: bool = False,
) -> tuple[CauseId, Fix, str]:
    """Cause, fix and reasoning for pip's "no matching distribution", from what pip listed.

    ``listed``: the final releases pip could see (empty: none at all); ``requested``: the
    version pinned; ``python``: the version the log shows, if any; ``dist``: the distribution
    refused; ``shown``: whether the log shows pip's list at all; ``required_by``: the
    distribution whose requirement it is (pip's "(from X)"), empty for the user's own;
    ``python_64bit``: whether the log shows the interpreter's build to be 64-bit (its banner),
    which rules a 32-bit interpreter out. The reasoning names what is read from pip's words
    and what is inferred from the matrix.
    """
    lines = m.matrix.lines if m.matrix is not None else ()
    asked_line = (
        m.matrix.line_for(requested.removesuffix(".*"))
        if m.matrix is not None and requested
        else None
    )
    if (
        dist == "tensorflow-gpu"
        and m.os == "windows"
        and asked_line is not None
        and not asked_line.windows_native_gpu
    ):
        # The GPU build asked for on native Windows, of a line that has none there: no
        # Python or pip would find it.
        why = (
            f"tensorflow-gpu {requested} is asked for on native Windows, where TensorFlow "
            f"{asked_line.line} has no GPU build (from the matrix)"
        )
        return WINDOWS_NATIVE_GPU_ENDED, windows_gpu_fix(m), why
    # How the fix's words name the distribution (its commands use `dist` itself).
    shown_name = "TensorFlow" if dist == "tensorflow" else dist
    check = INTERPRETER_CHECK
    # The matrix's Pythons are those of the `tensorflow` wheels; tensorflow-gpu published the
    # same Pythons for Linux and Windows (never macOS after 1.1), tensorflow-cpu fewer
    # platforms: only tensorflow's and tensorflow-gpu's are read from it.
    release = (
        _release_wheels(m, requested, listed, python, gpu=dist == "tensorflow-gpu")
        if dist in _MATRIX_DISTS
        else None
    )
    # A line with a release candidate only is not what `pip install tensorflow` takes (pip
    # leaves pre-releases out unless asked): its Pythons are not ones TensorFlow serves yet.
    supported = sorted(
        {py for x in lines if not x.pre_release for py in _pythons(x)}, key=version_key
    )
    # A Python some release has wheels for, and pip lists none: the platform or the
    # interpreter's bitness is what stops every release, not the pin (below).
    python_has_wheels = bool(python) and version_key(python or "")[:2] in {
        version_key(py)[:2] for py in supported
    }
    if release is not None and not listed and not (shown and python_has_wheels):
        # pip sees no TensorFlow here, and the requirement pins one release: whatever else this
        # interpreter lacks, that release needs one of its own Pythons.
        seen = (
            "pip sees no TensorFlow release for this interpreter ('from versions: none'), and "
            "the requirement pins"
            if shown
            else "pip finds no wheel for this interpreter of TensorFlow"
        )
        why = f"{seen} {requested}, whose wheels are for {release[0]} (from the matrix)"
        return (
            # pip's own words decide the cause: a list it printed empty says no release at all
            # has a wheel here; without the list, only the pinned release is known refused. A
            # pin another distribution declares is that release's refusal whatever pip lists:
            # the dependant's requirement, not the user's request, is what names it.
            TF_NO_WHEEL_FOR_PYTHON if shown and not required_by else TF_RELEASE_NOT_FOR_PYTHON,
            Fix(
                f"{why}"
                + (f"; {required_by} requires that release" if required_by else "")
                + f". Install {shown_name} {requested} with Python {release[1]} (a new virtual "
                "environment of it) on a platform it has wheels for, or move the requirement to "
                "a TensorFlow release that publishes wheels for this Python and platform "
                + (f"(a release of {required_by} that requires one; " if required_by else "(")
                + "`tfdoctor matrix` lists each line's Pythons). If the command below prints one "
                "of those Pythons and platforms, the interpreter is 32-bit (use a 64-bit CPython) "
                "or pip is too old to read the wheels' platform tags (upgrade pip).",
                (check, "python -m pip --version"),
            ),
            why,
        )
    exact = bool(requested) and "*" not in (requested or "")
    if exact and required_by and shown and not listed and not python_has_wheels:
        # A distribution's exact pin of a build the matrix has no Pythons of (tensorflow-cpu,
        # tensorflow-rocm): that release has no wheel here, and the dependant's requirement
        # is what asks for it.
        why = (
            f"{required_by} requires {dist}=={requested}, and pip sees no release of it for "
            "this interpreter ('from versions: none')"
        )
        return (
            TF_RELEASE_NOT_FOR_PYTHON,
            Fix(
                f"{why}: that release publishes no wheel for this Python and platform (its files "
                f"on PyPI list the Pythons and platforms it has: https://pypi.org/project/{dist}/"
                f"{requested}/#files). Use a Python and platform it has wheels for (a new virtual "
                f"environment), or a release of {required_by} whose TensorFlow requirement has "
                "a wheel for this Python and platform.",
                # pip's own list is already empty here: the release's files, not a list pip
                # filters by this interpreter's tags again (pip index versions, pip 21.2+).
                (pypi_files_command(dist, requested), check),
            ),
            why,
        )
    vendor = _vendor_line_pythons(m, dist, requested)
    vendor_pys = _vendor_pythons(m, dist, requested)
    if (
        vendor
        and not shown
        and not listed
        and not (python and version_key(python)[:2] in {version_key(p)[:2] for p in vendor_pys})
    ):
        # Another build's pin, pip's list not in the log: only the pinned release is known
        # refused, and its TensorFlow line's Pythons (the most it can have) bound where it
        # installs, as the matrix's own distributions' pins above.
        why = f"pip finds no wheel for this interpreter of {dist} {requested}" + (
            f", which {required_by} requires" if required_by else ""
        )
        other = (
            f" Else use a release of {required_by} that requires a {dist} built for this Python."
            if required_by
            else ""
        )
        return (
            TF_RELEASE_NOT_FOR_PYTHON,
            Fix(f"{why}.{vendor}{other}", (pypi_files_command(dist, requested), check)),
            why,
        )
    if listed:
        newest = max(listed, key=version_key)
        # tensorflow-gpu of a line without a real release of it (the matrix's
        # tensorflow_gpu_release: 2.12 on) is a placeholder that refuses to install: its users
        # install tensorflow.
        real = m.matrix.nearest_line(newest) if m.matrix is not None else None
        suggest = (
            "tensorflow"
            if dist == "tensorflow-gpu" and real is not None and not real.tensorflow_gpu_release
            else dist
        )
        if release is not None and not _line_listed(requested, listed):
            why = (
                f"pip lists releases up to {newest} but not {requested}, whose wheels are for "
                f"{release[0]}, so this Python or platform is another (from the matrix)"
            )
            return (
                TF_RELEASE_NOT_FOR_PYTHON,
                Fix(
                    f"{why}. Install {shown_name} {requested} with Python {release[1]} (a new "
                    f"virtual environment of it), or install one pip lists (`pip install "
                    f'"{suggest}=={newest}"`) and port the code to it.',
                    (check,),
                ),
                why,
            )
        reason, platform_ends = _list_end(m, lines, newest)
        why = f"pip lists releases up to {newest} for this Python and platform{reason}"
        want = f"{shown_name} {requested}" if requested else "the requested release"
        other = (
            f"run {want} on a platform it has wheels for (`tfdoctor matrix` lists each "
            "release's platforms)"
            if platform_ends
            else f"use a Python that {want} publishes wheels for (`tfdoctor matrix` lists each "
            "release's Pythons)"
        )
        return (
            TF_RELEASE_NOT_FOR_PYTHON,
            Fix(
                f'{why}. Install one it lists (`pip install "{suggest}=={newest}"`), or {other}.',
                (check,),
            ),
            why,
        )
    if python and supported:
        key = version_key(python)[:2]
        if key > version_key(supported[-1]):
            why = (
                f"pip sees no TensorFlow release at all for Python {python}: newer than any "
                f"release supports (the newest supports up to {supported[-1]})"
            )
            return (
                TF_NO_WHEEL_FOR_PYTHON,
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
                TF_NO_WHEEL_FOR_PYTHON,
                Fix(f"{why}. Use Python {supported[0]} or newer.", (check,)),
                why,
            )
        newer = _newer_than_earlier_lines(lines, python)
        if newer is not None and not requested:
            # The Python was newer than every release before the first line built for it:
            # an index read before that line came out lists nothing for it (a Python out
            # before TensorFlow's support of it is the commonest such refusal).
            first, previous = newer
            # A banner showing a 64-bit build leaves the platform as the other reading.
            others = (
                "the platform (operating system, CPU) has none"
                if python_64bit
                else "the interpreter is 32-bit, or the platform (operating system, CPU) has none"
            )
            why = (
                f"pip sees no TensorFlow release at all for Python {python}: TensorFlow "
                f"publishes wheels for it from {first} on, and every release before {first} "
                f"goes up to Python {previous} (from the matrix), so pip finds none where its "
                f"index predates {first}; else {others}"
            )
            return (
                TF_NO_WHEEL_FOR_PYTHON,
                Fix(
                    f"{why}. Install TensorFlow {first} or later with this Python (upgrade pip "
                    f"first), or use Python {previous} (a new virtual environment of it) for "
                    "an older release"
                    + (
                        "."
                        if python_64bit
                        else "; if the command below prints 32 bits, use a 64-bit CPython."
                    ),
                    (
                        *(() if python_64bit else (check,)),
                        *m.pip(f'install "tensorflow>={first}"'),
                    ),
                ),
                why,
            )
        why = (
            f"pip sees no TensorFlow release at all, though Python {python} has wheels: the "
            "interpreter is 32-bit, or the platform (operating system, CPU) has none"
        )
        return (
            TF_NO_WHEEL_FOR_PYTHON,
            Fix(
                f"{why}. Use a 64-bit CPython on a platform TensorFlow publishes wheels for.",
                (check,),
            ),
            why,
        )
    seen = (
        "pip sees no TensorFlow release at all for this interpreter ('from versions: none')"
        if shown
        else "pip finds no TensorFlow release that matches the requirement for this interpreter"
    )
    why = (
        f"{seen}: its Python is newer or older than every release supports, or it is 32-bit, or "
        "the platform has no wheels"
    )
    span = f" (Python {supported[0]} to {supported[-1]})" if supported else ""
    # The matrix's platforms are the tensorflow distribution's (its wrappers had fewer).
    platforms = _platform_spans(lines, m.os) if dist == "tensorflow" else ""
    return (
        TF_NO_WHEEL_FOR_PYTHON,
        Fix(
            f"{why}. Check which with the command below, then use a 64-bit CPython that "
            f"TensorFlow publishes wheels for{span}"
            + (
                f". Not every platform has wheels of every release: {platforms}"
                if platforms
                else ""
            )
            + "."
            + _vendor_line_pythons(m, dist, requested),
            (check,),
        ),
        why,
    )


def _vendor_built(m: Machine, dist: str, requested: Optional[str]) -> tuple[str, list[str]]:
    """For a pinned release of another build of TensorFlow (tensorflow-rocm 2.12.1.570,
    intel-tensorflow, tensorflow-aarch64: their versions start with the TensorFlow release
    they build), that TensorFlow release as the matrix knows it and the Pythons of its own
    wheels, oldest first: the release's own row where its wheels differ from its line's
    latest patch's (TensorFlow 1.15.0 had cp27 and cp35, 1.15.5 not), else the line's.
    Empty where nothing is pinned, the matrix does not know the line, or the vendor's patch
    is past TensorFlow's last one of the line. A vendor's build of a TensorFlow release
    publishes those Pythons or fewer."""
    if not requested or dist in _MATRIX_DISTS or m.matrix is None:
        return "", []
    version = requested.removesuffix(".*")
    line = m.matrix.line_for(version)
    if line is None:
        return "", []
    release = ".".join(version.split(".")[:3])
    if version_key(release) > version_key(line.latest_patch):
        # A patch of the vendor's own past TensorFlow's last (tensorflow-rocm 1.15.9 to
        # 1.15.12, with cp38 wheels TensorFlow 1.15 never had: PyPI's files,
        # https://pypi.org/project/tensorflow-rocm/1.15.12/#files): no TensorFlow release's
        # Pythons bound it.
        return "", []
    own = any(row.release == release for row in m.matrix.early_releases)
    built = m.matrix.release_pythons(release) or {}
    pys = sorted({py for pys in built.values() for py in pys}, key=version_key)
    return (release if own else line.line), pys


def _vendor_pythons(m: Machine, dist: str, requested: Optional[str]) -> list[str]:
    """The Pythons of :func:`_vendor_built`."""
    return _vendor_built(m, dist, requested)[1]


def _vendor_line_pythons(m: Machine, dist: str, requested: Optional[str]) -> str:
    """:func:`_vendor_built` in words, with where to install the release; empty where
    they are unknown."""
    built, pys = _vendor_built(m, dist, requested)
    if not pys:
        return ""
    return (
        f" {dist} {requested} is a build of TensorFlow {built}, whose own wheels are for "
        f"Python {_python_span(pys)} (from the matrix); {dist}'s files on PyPI list which of "
        f"those it has: use one of them (Python {pys[-1]} at the newest) in a new virtual "
        "environment, or pin a release of it built for this Python."
    )


def platform_ended_fix(m: Machine, release: str, platform: str, last: Optional[TFLine]) -> Fix:
    """A TensorFlow release with no wheel for ``platform``: the last line's newest patch that
    has one, or another platform."""
    where = _PLATFORM_WORDS.get(platform, platform)
    if last is None:
        return Fix(
            f"TensorFlow {release} publishes no wheel for {where}, and no release the matrix "
            "knows does: run it on a platform it has wheels for (Linux x86-64, or a container "
            "of it).",
            m.list_releases("tensorflow"),
        )
    pythons = last.python.get(platform) or ()
    span = f" (with Python {_python_span(list(pythons))})" if pythons else ""
    return install_fix(
        m,
        f"TensorFlow {release} publishes no wheel for {where}; {last.latest_patch} is the last "
        f"release that does{span}. Install it, or run {release} on a platform it has wheels "
        "for (Linux x86-64, or a container of it).",
        f"tensorflow=={last.latest_patch}",
    )


def wheel_lines(lines: Sequence[TFLine], platform: str) -> list[str]:
    """The final lines, oldest first, whose ``tensorflow`` wheels include ``platform``
    (``macos-arm64``), read from each line's Pythons per platform in the matrix."""
    finals = sorted((x for x in lines if not x.pre_release), key=lambda x: version_key(x.line))
    return [x.line for x in finals if x.python.get(platform)]


def _platform_spans(lines: Sequence[TFLine], os: Optional[str] = None) -> str:
    """The platforms whose ``tensorflow`` wheels begin or end inside the lines the matrix
    knows, in words ("macOS arm64 from 2.13 (tensorflow-macos before that), macOS x86-64 up
    to 2.16"), read from each line's Pythons per platform; of ``os`` alone where known."""
    ordered = sorted(lines, key=lambda x: version_key(x.line))
    finals = [x for x in ordered if not x.pre_release]
    words = []
    for key, name in _PLATFORM_WORDS.items():
        if os is not None and not key.startswith(os):
            continue
        having = wheel_lines(finals, key)
        if not having or len(having) == len(finals):
            continue
        first, last = having[0], having[-1]
        part = name
        if first != finals[0].line:
            part += f" from {first}"
            if key == "macos-arm64":
                part += " (tensorflow-macos before that)"
        if last != finals[-1].line:
            part += f" up to {last}"
        words.append(part)
    return ", ".join(words)


_PLATFORM_WORDS: Mapping[str, str] = {
    "linux-x86_64": "Linux x86-64",
    "linux-aarch64": "Linux aarch64",
    "macos-x86_64": "macOS x86-64",
    "macos-arm64": "macOS arm64",
    "windows-x86_64": "Windows x86-64",
}


def _release_wheels(
    m: Machine,
    requested: Optional[str],
    listed: Sequence[str],
    python: Optional[str],
    gpu: bool = False,
) -> Optional[tuple[str, str]]:
    """What the wheels of a pinned release are for, in words ("Python 2.7, 3.3-3.6 on Linux
    x86-64 ..."), and the newest of their Pythons, where the matrix knows the release and the
    log's Python (if it shows one) is not among them; else None. ``gpu``: of tensorflow-gpu,
    which had no macOS wheels."""
    if not requested or m.matrix is None:
        return None
    # pip reads ==1.4 as 1.4.0: the release is that one; ==1.15.* is the line, whose Pythons
    # are its latest patch's (the line's own).
    release = requested.removesuffix(".*")
    release = release if release.count(".") >= 2 else f"{release}.0"
    if release in listed or requested in listed:
        return None
    line = m.matrix.line_for(release) if requested.endswith(".*") else None
    by_platform = line.python if line is not None else m.matrix.release_pythons(release)
    if by_platform and gpu:
        # tensorflow-gpu: Linux x86-64, and Windows while the line had a native Windows GPU
        # build (up to 2.10).
        own = line or m.matrix.line_for(release)
        windows = own is not None and own.windows_native_gpu
        by_platform = {
            k: v
            for k, v in by_platform.items()
            if k == "linux-x86_64" or (k == "windows-x86_64" and windows)
        }
    if not by_platform:
        return None
    every = sorted({py for pys in by_platform.values() for py in pys}, key=version_key)
    if not every or (python and version_key(python)[:2] in {version_key(p) for p in every}):
        return None
    groups: dict[tuple[str, ...], list[str]] = {}
    for plat, pys in by_platform.items():
        if pys:
            groups.setdefault(tuple(pys), []).append(_PLATFORM_WORDS.get(plat, plat))
    parts = [
        f"Python {_python_span(pys)} on {' and '.join(plats)}" for pys, plats in groups.items()
    ]
    bare = [_PLATFORM_WORDS.get(p, p) for p, pys in by_platform.items() if not pys]
    if bare:
        parts.append(f"none on {' or '.join(bare)}")
    return "; ".join(parts), every[-1]


def _python_span(pys: Sequence[str]) -> str:
    """``("2.7", "3.3", "3.4", "3.5")`` -> ``"2.7, 3.3 to 3.5"``: runs of consecutive minors
    (worded as the matrix's other fixes word a range)."""
    runs: list[list[str]] = []
    for py in pys:
        major, minor = version_key(py)[:2]
        if runs and version_key(runs[-1][-1])[:2] == (major, minor - 1):
            runs[-1].append(py)
        else:
            runs.append([py])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]} to {run[-1]}" for run in runs)


def _list_end(m: Machine, lines: Sequence[TFLine], newest: str) -> tuple[str, bool]:
    """Why pip's list ends at ``newest``, from what the next line changes (the matrix's
    ``lines``): a Python it dropped, a platform it has no wheel for (then True), else the
    same Pythons, where the platform, the index or the log's date end it; empty without a
    next line."""
    newest_line = ".".join(newest.split(".")[:2])
    later = [x for x in lines if version_key(x.line) > version_key(newest_line)]
    here = next((x for x in lines if x.line == newest_line), None)
    if not later or here is None:
        return "", False
    after = min(later, key=lambda x: version_key(x.line))
    only = sorted(_pythons(here) - _pythons(after), key=version_key)
    if only:
        return (
            f"; TensorFlow {after.line} dropped Python {', '.join(only)}, so this is most "
            f"likely Python {' or '.join(only)} (inferred from the matrix)",
            False,
        )
    ended = _platform_ended(m, here, after)
    if ended:
        return ended, True
    return (
        f"; TensorFlow {after.line} supports the same Pythons, so the platform (operating "
        "system, CPU), the package index, or the log's date (before "
        f"{after.line} came out) is what ends the list at {newest}",
        False,
    )


def _platform_ended(m: Machine, here: TFLine, after: TFLine) -> str:
    """Where the line pip lists last (``here``) has wheels on a platform the next line
    (``after``) has none for (macOS x86-64 after 2.16), and this machine is on it or its
    platform is unknown: the clause that says so, else empty."""
    gone = tuple(sorted(k for k, ps in here.python.items() if ps and not after.python.get(k)))
    if not gone or (m.platform is not None and m.platform not in gone):
        return ""
    words = platform_words((m.platform,) if m.platform in gone else gone)
    return (
        f"; TensorFlow {after.line} publishes no wheel for {words}, where {here.line} was the "
        "last with one, so "
        + (
            f"on this {words} machine the list ends there (from the matrix)"
            if m.platform in gone
            else f"the machine is most likely {' or '.join(words.split(', '))} (inferred from "
            "the matrix)"
        )
    )


def _line_listed(requested: Optional[str], listed: Sequence[str]) -> bool:
    """Whether pip lists a release of the pinned release's line (then that line has wheels
    here, and the pin alone is what is missing)."""
    if not requested:
        return False
    line_of = ".".join(requested.split(".")[:2])
    return any(v.startswith(line_of + ".") or v == line_of for v in listed)


def wheel_tags_fix(
    m: Machine,
    file: str,
    python: Optional[str],
    platform: str,
    abi: str = "",
    target: str = "",
) -> Fix:
    """What a refused wheel's tags say it needs, and how to let pip pick the right one.
    ``target``: the matrix's platform key the tags name (``windows-x86_64``), where known:
    a TensorFlow release with no wheel there for the log's Python gets that Python's way
    (:func:`_release_lacks_python`) instead of a file that does not exist."""
    lacking = _release_lacks_python(m, file, python, target)
    if lacking is not None:
        return lacking
    needs = f"CPython {python}" if python else "another interpreter"
    # CPython before 3.3 was built with narrow (cpXYm) or wide (cpXYmu) Unicode, an ABI of
    # its own (PEP 3149); Linux distributions build 2.7 wide, so a cp27m Linux wheel fits none.
    unicode = (
        f" Its ABI tag {abi} is a narrow-Unicode CPython {python}; the Pythons of Linux "
        f"distributions are built wide ({abi}u): take the {abi}u file of the same release."
        if abi.endswith("m") and python and python.startswith("2.") and "linux" in platform
        else ""
    )
    # A wheel's file name is {distribution}-{version}(-{build})?-{python}-{abi}-{platform}.whl
    # (the binary distribution format): the release it holds, to ask pip for by name.
    parts = file.replace("\\", "/").rsplit("/", 1)[-1].split("-")
    release = f"{normalize_name(parts[0])}=={parts[1]}" if len(parts) >= 5 else "tensorflow==X.Y.Z"
    shown = m.python_version
    mine = ".".join(shown.split(".")[:2]) if shown else None
    tag = (
        f"the cp{mine.replace('.', '')} tag for this Python {mine}"
        if mine and mine != python
        else "the cpXY tag of its version"
    )
    macos = (
        _macos_tag_words(platform, m.macos_release, mine == python)
        if not mine or mine == python
        else ""
    )
    return Fix(
        f"{file} is built for {needs} on {platform} (its file name's tags); pip refuses it "
        f"for an interpreter or platform that differ.{unicode}{macos} Take the file of the same "
        f"release built for this interpreter ({tag}, from the same "
        f"place: a vendor's build, such as ROCm's, stays that vendor's); or install by name "
        f"and version (`pip install {release}`) where PyPI's build of it will do, so pip picks "
        f"the wheel for this interpreter; or run it with {needs} on {platform}.",
        (INTERPRETER_CHECK, MACOS_VERSION_CHECK) if macos else (INTERPRETER_CHECK,),
    )


def _release_lacks_python(
    m: Machine, file: str, python: Optional[str], target: str
) -> Optional[Fix]:
    """The fix where a refused wheel of ``tensorflow`` or ``tensorflow-gpu`` (``file``, built
    for CPython ``python`` on the matrix's platform ``target``) is of a release that has no
    wheel on that platform for the Python the log shows: no file of it exists for this
    interpreter, so the Python that release's wheels are for, or the release line nearest
    it with wheels for this Python. None where the Python, the log's system (it must be the
    wheel's) or the release's Pythons there are not known, or it has one."""
    parts = file.replace("\\", "/").rsplit("/", 1)[-1].split("-")
    shown = m.python_version
    mine = ".".join(shown.split(".")[:2]) if shown else ""
    # The log's system must be the wheel's: elsewhere the platform, not the Python, misfits.
    if (
        len(parts) < 5
        or not target
        or not mine
        or mine == python
        or m.matrix is None
        or m.os is None
        or not target.startswith(f"{m.os}-")
    ):
        return None
    dist, version = normalize_name(parts[0]), parts[1]
    if dist not in _MATRIX_DISTS:
        return None
    pythons = (m.matrix.release_pythons(version) or {}).get(target, ())
    if not pythons or mine in pythons:
        return None
    where = _PLATFORM_WORDS.get(target, target)
    having = [
        x.line
        for x in sorted(m.matrix.lines, key=lambda x: version_key(x.line))
        if not x.pre_release and mine in x.python.get(target, ())
    ]
    newest = max(pythons, key=version_key)
    # A Python newer than the release's is one later lines added (the first of them); an
    # older one is one later lines dropped (the last line that still has it).
    later = version_key(mine) > version_key(newest)
    line = (having[0] if later else having[-1]) if having else None
    # tensorflow-gpu's own releases end where the matrix says; a newer line is `tensorflow`'s.
    newer = (
        f", or install a TensorFlow release that has wheels for Python {mine} there "
        f"({'from' if later else 'up to'} {line}: `pip install tensorflow=={line}.*`)"
        if dist == "tensorflow" and line is not None
        else ""
    )
    # The refused file installs under its own Python; a tag the release's Pythons lack (a
    # build of one's own) leaves the release's newest, with the release by name.
    own = python in pythons
    target_python = python if own else newest
    what = "the wheel" if own else f"`{dist}=={version}`"
    return Fix(
        f"{file} is built for CPython {python}; this Python is {shown}, and {dist} {version} "
        f"publishes no wheel for Python {mine} on {where}: its wheels there are for Python "
        f"{_python_span(list(pythons))} (from the matrix), so no file of it fits this "
        f"interpreter. Create an environment with Python {target_python} on {where} (the "
        f"wheel's platform) and install {what} there{newer}.",
        (INTERPRETER_CHECK,),
    )


def windows_wheel_unknown_python_fix(
    m: Machine, file: str, dist: str, version: str, python: str
) -> Optional[Fix]:
    """The fix where pip refuses ``file``, the 64-bit Windows wheel of ``dist`` ``version``
    for CPython ``python``, finds no release at all, and the log shows neither the Python's
    version nor its bits: a Python of another version or a 32-bit one both fit (pip's tags of
    either lack ``cpXY-win_amd64``). Led by the version where the release's Windows wheels are
    for ``python`` alone (the matrix): the file then says nothing of the user's Python, as
    there was no other to pick. A 64-bit Python of that version covers both readings; a
    later release needs a 64-bit Python its wheels are for too, as pip listed no release
    for the Python in use. None where the matrix does not know the release's Windows
    Pythons, or they are more than ``python``."""
    target = "windows-x86_64"
    dist = normalize_name(dist)
    pythons = (
        (m.matrix.release_pythons(version) or {}).get(target, ()) if m.matrix is not None else ()
    )
    if dist not in _MATRIX_DISTS or tuple(pythons) != (python,):
        return None
    newest = _newest_python_on(m, target)
    later = f" (the newest has wheels up to Python {newest}, from the matrix)" if newest else ""
    make, install = venv_commands(python, f"install {dist}=={version}", windows=True, bits64=True)
    return Fix(
        f"{file} is the 64-bit Windows wheel of {dist} {version} for CPython {python}, the "
        f"one Python its Windows wheels are for (from the matrix); pip refuses it for a Python "
        f"of another version or a 32-bit one (TensorFlow publishes 64-bit wheels only), and "
        f"finds no release at all for either. Create an environment with a 64-bit Python "
        f"{python} and install {dist}=={version} there. pip listed no release at all for the "
        f"Python in use, so no TensorFlow had a wheel for it when it ran: a later TensorFlow "
        f"needs a 64-bit Python its Windows wheels are for too{later}. "
        f"The first command tells the two apart: it prints the version and the bits (a "
        f"version other than {python} is the first reading, 32 bits the second). The "
        f"environment's Python must print 64 before the install (32: the launcher took a "
        f"32-bit Python {python}; install the x86-64 one and make the environment again).",
        (INTERPRETER_CHECK, make, f".venv\\Scripts\\python {_BITS_CHECK}", install),
    )


#: A macOS wheel's platform tag: the oldest macOS it runs on and its architecture (PEP 425's
#: macosx_{major}_{minor}_{arch}; packaging's tags.mac_platforms accepts it on that macOS or
#: any later one of the same architecture, so a refusal is never about a newer macOS).
_MACOS_TAG = re.compile(r"macosx_(\d+)_(\d+)_(\w+)")


def _macos_tag_words(
    platform: str, running: Optional[str] = None, python_same: bool = False
) -> str:
    """Why a macOS wheel of the interpreter's own Python is refused, in words (empty for any
    other platform): the architecture (an arm64 Python takes no x86_64 wheel, nor the
    reverse), and for a macOS 11 or later tag a macOS before 11, a pip before 20.3, or a Python
    that reports macOS 10.16 (built against an older SDK, answered in macOS's compatibility
    mode: SYSTEM_VERSION_COMPAT=0 makes it report its real version). ``running``: the macOS
    release the log shows the machine runs, whose own tag is then named; ``python_same``: the
    log shows the interpreter's version, the wheel's own."""
    found = _MACOS_TAG.search(platform)
    if found is None:
        return ""
    return _macos_words(found) + _running_macos_words(found, running, python_same)


def _running_macos_words(
    found: re.Match[str], running: Optional[str], python_same: bool = False
) -> str:
    """What the macOS the machine runs (``running``, a 10.x release) takes of the refused
    wheel's tag (``found``): pip asks packaging's tags.mac_platforms, which for macOS 10.Y
    lists macosx_10_Y and every older 10.x tag. Empty where the release is not shown, or is
    11 or later (those list their own tags differently). ``python_same``: the log shows the
    interpreter's version, the wheel's own, so its Python tag is not what differs."""
    # https://github.com/pypa/packaging/blob/24.0/src/packaging/tags.py, mac_platforms: for
    # (10, Y) it yields 10_Y down to 10_0, for each binary format of the architecture.
    parts = version_key(running) if running else ()
    # No macOS 10.16 was released: it is what macOS 11 and later answer in their compatibility
    # mode (SYSTEM_VERSION_COMPAT=1; mac_platforms: "When built against an older macOS SDK,
    # Python will report macOS 10.16 instead of the real version"), so the system is not known.
    if len(parts) < 2 or parts[0] != 10 or parts[1] >= 16:
        return ""
    own = f"macosx_10_{parts[1]}"
    tag = f"macosx_{found.group(1)}_{found.group(2)}"
    if found.group(3) == "arm64":
        # mac_platforms again: "Arm64 support was introduced in 11.0, so no Arm binaries from
        # previous releases exist"; a Mac that runs 10.x is an Intel one, which no upgrade of
        # macOS makes take an arm64 wheel.
        return (
            f" This macOS {running} runs on an Intel Mac, which takes no arm64 wheel: take the "
            f"file tagged {own} or older for x86_64 (or universal2)."
        )
    if (int(found.group(1)), int(found.group(2))) <= (10, parts[1]):
        return (
            f" This macOS {running} takes wheels tagged {own} and older, {tag} among them: the "
            + ("architecture or the ABI tag" if python_same else "Python tag or the architecture")
            + " is what differs."
        )
    return (
        f" This macOS {running} takes wheels tagged {own} and older, not {tag}: take the file "
        f"tagged {own} or older, or upgrade macOS to {found.group(1)}.{found.group(2)}."
    )


def _macos_words(found: re.Match[str]) -> str:
    """The architecture and macOS 11 words of :func:`_macos_tag_words` for the tag ``found``."""
    arch = found.group(3)
    since = f"on macOS {found.group(1)}.{found.group(2)} or later."
    # packaging's tags._mac_binary_formats: an arm64 Python also takes universal2 wheels, an
    # x86_64 one also intel, fat64, fat32, universal2 and universal: a universal2 wheel holds
    # both architectures, so the architecture is no reason to refuse it.
    words = (
        f" A universal2 macOS wheel installs into an arm64 or an x86_64 Python, {since}"
        if arch == "universal2"
        else f" {'An' if arch[0] in 'aeiox' else 'A'} {arch} macOS wheel installs only into a "
        "Python of that architecture"
        + (
            " (an arm64 Python on Apple silicon takes none)"
            if arch == "x86_64"
            else " (an x86_64 Python under Rosetta takes none)"
            if arch == "arm64"
            else ""
        )
        + f", {since}"
    )
    if int(found.group(1)) >= 11:
        words += (
            " A macOS 11 or later tag is refused on an older macOS, by a pip older than 20.3, "
            "and by a Python that reports macOS 10.16 (one built against an SDK older than "
            "macOS 11, which macOS answers in its compatibility mode): the second command "
            "shows what the Python reports; for 10.16, upgrade pip and install with "
            "SYSTEM_VERSION_COMPAT=0 before the command."
        )
    return words


def unnamed_wheel_fix(m: Machine) -> Fix:
    """pip refused a wheel the log does not name: how to see the tags this interpreter
    accepts, to pick the file whose tags are among them."""
    return Fix(
        "pip refused a wheel file built for another Python or platform (the tags in its file "
        "name, {name}-{version}-{python}-{abi}-{platform}.whl, say which): take the file whose "
        "tags this interpreter accepts (pip lists them), or install by name and version so "
        "pip picks one.",
        m.pip("debug --verbose"),
    )


def python_64bit_fix(m: Machine, machine: str = "", installer: str = "pip") -> Fix:
    """A 64-bit Python in a new virtual environment: no 32-bit wheel exists on any platform.
    The environment is made by the 64-bit interpreter itself (Windows' launcher with -64,
    elsewhere the install's versioned ``python3.X``), never by a ``python`` that may still be
    the 32-bit one.
    ``machine``: the 32-bit architecture the log shows the system itself is (``i686``,
    ``armv7l`` from uname or platform), where a 64-bit Python needs a 64-bit system first.
    ``installer``: ``uv pip`` or ``uv`` (a project) where uv refused the 32-bit Python by
    its platform tag (``win32``, ``*_i686``), which installs and picks a 64-bit CPython by its
    full key."""
    uv = installer in ("uv", "uv pip")
    if uv and re.fullmatch(r"i[3-6]86", machine):
        # uv tags a 32-bit interpreter i686 on a 64-bit x86 system too (its interpreter query,
        # crates/uv-python/python/get_interpreter_info.py, turns x86_64 with 4-byte pointers
        # into i686): the tag says the Python is 32-bit, uname says whether the system is.
        newest = _newest_python_on(m, "linux-x86_64")
        key = f"cpython-{newest}-linux-x86_64-gnu" if newest else ""
        return Fix(
            f"uv's platform tag for this interpreter is 32-bit x86 ({machine}): a 32-bit "
            "Python, which TensorFlow publishes no wheel for. Where `uname -m` prints x86_64 "
            "the system is 64-bit: let uv install a 64-bit CPython"
            + (
                f" (Python {newest}, the newest the newest TensorFlow has Linux x86-64 wheels "
                "for, from the matrix)"
                if newest
                else ""
            )
            + " and recreate the environment with it. Where it prints i686 the system itself "
            "is 32-bit: install its 64-bit (x86-64) edition where the processor supports it "
            "first.",
            ("uname -m", *(_uv_python_commands(installer, key) if key else ())),
        )
    # Where the log names none, the probed system's (platform.machine(), which on Windows
    # reads the native architecture past WOW64: CPython's Lib/platform.py,
    # _get_machine_win32): a 32-bit system has no 64-bit Python to install.
    machine = machine or _system_32bit(m)
    if machine == "x86" and _system_of(m) == "windows":
        return Fix(
            "The system itself is 32-bit Windows (x86): TensorFlow publishes no wheel for it "
            "(its Windows wheels are for x86-64), and a 64-bit Python needs a 64-bit Windows. "
            "Install the 64-bit (x64) edition of Windows where the processor supports it, or "
            "use another machine, then install TensorFlow in a virtual environment there. The "
            "check prints x86 on a 32-bit Windows whatever the Python, AMD64 or ARM64 on a "
            "64-bit one.",
            ('python -c "import platform; print(platform.machine())"',),
        )
    if re.fullmatch(r"i[3-6]86", machine):
        return Fix(
            f"The system itself is 32-bit x86 ({machine}): TensorFlow publishes no wheel for "
            "it (its Linux wheels are for x86-64 and aarch64), and a 64-bit Python needs a "
            "64-bit system. Install the 64-bit (x86-64, amd64) edition of the operating system "
            "where the processor supports it (its flags list lm), or use another machine, then "
            "install TensorFlow in a virtual environment there.",
            ("uname -m", "grep -qw lm /proc/cpuinfo && echo 'the CPU runs 64-bit systems'"),
        )
    if re.fullmatch(r"armv\d+l?", machine):
        first = ""
        if m.matrix is not None:
            finals = sorted(
                (x for x in m.matrix.lines if not x.pre_release), key=lambda x: version_key(x.line)
            )
            having = wheel_lines(finals, "linux-aarch64")
            first = f" (from TensorFlow {having[0]})" if having else ""
        return Fix(
            f"The system itself is 32-bit Arm ({machine}): TensorFlow publishes no wheel for "
            f"it; its Linux Arm wheels are for 64-bit Arm, aarch64{first}. Install the 64-bit "
            "(arm64) edition of the operating system where the board supports it, then install "
            "TensorFlow in a virtual environment there.",
            ("uname -m", "python3 -c 'import platform; print(platform.machine())'"),
        )
    newest = _newest_python_on(m, "windows-x86_64") if uv else None
    if newest is not None:
        # uv's request by implementation, version, system, architecture and C library
        # (docs/concepts/python-versions.md: `cpython-3.12.3-macos-aarch64-none`): the 64-bit
        # build whatever Python the environment had.
        key = f"cpython-{newest}-windows-x86_64-none"
        return Fix(
            f"uv's platform tag for this interpreter is win32: a 32-bit Python. Let uv install "
            f"a 64-bit CPython (Python {newest} is the newest the newest TensorFlow has Windows "
            "wheels for, from the matrix) and recreate the environment with it.",
            _uv_python_commands(installer, key),
        )
    system = _system_of(m)
    if system == "windows":
        # `python` on the PATH is still the 32-bit one after a 64-bit install beside it: the
        # Python launcher's -64 suffix picks a 64-bit Python whatever the PATH holds
        # (Python 3.7's What's New, bpo-30291; CPython's PC/launcher-usage.txt, -X.Y-64).
        # The version is the matrix's: the launcher's newest 64-bit Python 3 may be one no
        # TensorFlow has a wheel for yet, and the matrix's Windows wheels are x86-64 ones.
        newest = _newest_python_on(m, "windows-x86_64")
        which = (
            f"Python {newest} (python.org's Windows x86-64 installer: {newest} is the newest "
            "Python the newest TensorFlow has Windows wheels for, from the matrix)"
            if newest is not None
            else "64-bit Python (python.org's Windows x86-64 installer)"
        )
        return Fix(
            f"Install a 64-bit {which}, create a virtual environment with it (the launcher's "
            "-64 picks the 64-bit one, not the 32-bit `python` on the PATH), and install "
            "TensorFlow there.",
            venv_commands(newest or "3", "install tensorflow", windows=True, bits64=True),
        )
    # `python` (or `python3`) on the PATH may still be the 32-bit one after a 64-bit install
    # beside it: the environment is made by the versioned name the new install provides.
    newest = _newest_python_here(m)
    if system is None:
        return _python_64bit_either_fix(m, newest)
    if newest is None:
        return Fix(
            "Install a 64-bit Python (the x86-64 or arm64 installer), create a virtual "
            "environment with it by its versioned name (python3.X: `python` on the PATH may "
            "still be the 32-bit one; the check prints 64 for the right one), and install "
            "TensorFlow there.",
            ("python3 -c 'import struct; print(struct.calcsize(\"P\") * 8)'",),
        )
    interpreter = f"python{newest}"
    return Fix(
        f"Install a 64-bit Python {newest} (the newest Python the newest TensorFlow has "
        "wheels for here, from the matrix), create a virtual environment with that "
        f"interpreter by its versioned name ({interpreter}: `python` on the PATH may still be "
        "the 32-bit one; the check prints 64), and install TensorFlow there.",
        (
            f"{interpreter} -c 'import struct; print(struct.calcsize(\"P\") * 8)'",
            f"{interpreter} -m venv .venv",
            ".venv/bin/python -m pip install tensorflow",
        ),
    )


def _system_32bit(m: Machine) -> str:
    """The probed system's architecture (``platform.machine()``) where it is a 32-bit one
    (``x86``, ``i686``, ``armv7l``), else ""."""
    plat = m.facts.platform
    machine = plat.machine if plat is not None else ""
    return machine if re.fullmatch(r"x86|i[3-6]86|armv\d+l?", machine) else ""


def _system_of(m: Machine) -> Optional[str]:
    """``linux``, ``windows`` or ``macos``: the machine's (:attr:`Machine.os`), else the probed
    ``platform.system()``, which a machine with no platform of the matrix still has (a 32-bit
    Windows, an i686 Linux); None where neither says."""
    plat = m.facts.platform
    # platform_key reads a system's name (Windows, Darwin) as its system's default platform.
    key = platform_key(plat.system) if plat is not None and plat.system else None
    return m.os or (PLATFORMS[key] if key is not None else None)


#: The word size of the interpreter that runs it, quoted so that sh, cmd and PowerShell pass
#: it alike (double quotes outside, single inside, as :data:`INTERPRETER_CHECK`).
_BITS_CHECK: Final = "-c \"import struct; print(struct.calcsize('P') * 8)\""


def _python_64bit_either_fix(m: Machine, newest: Optional[str]) -> Fix:
    """:func:`python_64bit_fix` where the log shows no system: a 32-bit Python is most often
    python.org's Windows installer (its default was the 32-bit one up to Python 3.8), so the
    launcher's commands come first, in forms cmd and PowerShell run, then the versioned name
    of a POSIX install. Each Python is the newest the matrix's newest line has wheels for on
    that system. (python.org's download button gave the 64-bit installer from 3.9.0 on,
    3.8.x and earlier the 32-bit one: https://github.com/python/release-tools/pull/4.)"""
    windows = _newest_python_on(m, "windows-x86_64")
    launcher = f"py -{windows or 3}-64"
    posix = (f"python{newest} {_BITS_CHECK}",) if newest else ()
    which = f"Python {windows}" if windows else "Python 3"
    return Fix(
        f"Install a 64-bit Python, create a virtual environment with it, and install "
        "TensorFlow there. On Windows (python.org's installer, the usual source of a 32-bit "
        f"Python), install the x86-64 {which} and make the environment with the launcher's "
        f"-64, which picks the 64-bit one whatever `python` on the PATH is (the `{launcher}` "
        "and `.venv\\Scripts` commands, for cmd or PowerShell). On Linux or macOS, make it "
        "with the new install's versioned name, as `python` on the PATH may still be the "
        "32-bit one "
        + (
            f"(the `python{newest}` and `.venv/bin` commands; Python {newest} is the newest "
            "the newest TensorFlow has wheels for, from the matrix)."
            if newest
            else "(python3.X)."
        )
        + " The check prints 64 for the right interpreter.",
        (
            f"{launcher} {_BITS_CHECK}",
            *venv_commands(windows or "3", "install tensorflow", windows=True, bits64=True),
            *posix,
            *(venv_commands(newest, "install tensorflow", windows=False) if newest else ()),
        ),
    )


def _newest_python_here(m: Machine) -> Optional[str]:
    """The newest Python the matrix's newest final line has wheels for on this machine's
    platform (its OS's where the architecture is unknown): a new install of it provides
    ``python3.X`` on Linux and macOS (python.org's macOS installer, the distributions'
    packages), the name a fix runs where ``python`` on the PATH may be another install's."""
    return _newest_python_on(m, m.platform or (f"{m.os}-" if m.os in ("linux", "macos") else ""))


def _newest_python_on(m: Machine, platform: str) -> Optional[str]:
    """The newest Python the newest final line with wheels on ``platform`` (a matrix key,
    ``windows-x86_64``) publishes one for."""
    releases = m.matrix.releases if m.matrix is not None else ()
    newest = next((x for x in releases if x.pythons_on(platform)), None)
    return max(newest.pythons_on(platform), key=version_key) if newest is not None else None


def _uv_python_commands(installer: str, key: str) -> tuple[str, ...]:
    """uv's commands that install the CPython ``key`` names and make the environment with it
    (:func:`_uv_environment`, TensorFlow unpinned)."""
    return (f"uv python install {key}", *_uv_environment(installer, key, "tensorflow"))


def metal_release(m: Machine) -> Optional[CompanionRelease]:
    """The tensorflow-metal release the companion table pairs with the installed TensorFlow
    and Python, or None: whether installing the plugin alone reaches the GPU (check_metal's
    severity and metal_missing_fix's command both ask this)."""
    table = m.companion("tensorflow-metal")
    if table is None or m.tf is None:
        return None
    return table.release_for(m.tf.version, m.python_version)


def metal_missing_fix(m: Machine) -> Fix:
    """tensorflow-metal for a Mac whose TensorFlow lists no GPU and has no plugin: the
    release the companion table pairs with the installed TensorFlow, else the newest pair."""
    table = m.companion("tensorflow-metal")
    tf = m.tf
    fit = metal_release(m)
    if fit is not None and tf is not None:
        return Fix(
            f"On macOS TensorFlow reaches the GPU only through Apple's tensorflow-metal "
            f"plugin: install tensorflow-metal {fit.release}, the release for TensorFlow "
            f"{tf.version} (tensorflow{fit.tensorflow}).",
            m.pip_install(fit.requirement("tensorflow-metal")),
        )
    newest = table.releases[-1] if table is not None and table.releases else None
    if newest is None:
        return Fix(
            "On macOS TensorFlow reaches the GPU only through Apple's tensorflow-metal plugin: "
            "install it.",
            m.pip_install("tensorflow-metal"),
        )
    if tf is not None:
        # Reaching the GPU means another TensorFlow: said, not run (an option, and
        # tensorflow-macos would need uninstalling before `tensorflow` goes beside it).
        return Fix(
            "On macOS TensorFlow reaches the GPU only through Apple's tensorflow-metal "
            f"plugin, and no tensorflow-metal release is paired with TensorFlow {tf.version}: "
            f"for the GPU, move to the newest pair, tensorflow{newest.tensorflow} with "
            f"tensorflow-metal {newest.release} (Python {newest.python}), in place of "
            f"{tf.name}; otherwise TensorFlow runs on the CPU here.",
            m.list_releases("tensorflow-metal"),
        )
    return Fix(
        "On macOS TensorFlow reaches the GPU only through Apple's tensorflow-metal plugin, and "
        "each release works with one TensorFlow line: install the newest pair, "
        f"tensorflow{newest.tensorflow} with tensorflow-metal {newest.release} (Python "
        f"{newest.python}).",
        m.pip_install(f"tensorflow{newest.tensorflow}", newest.requirement("tensorflow-metal")),
    )


def metal_python_fix(m: Machine) -> Fix:
    """An environment of a Python the newest tensorflow-metal has wheels for."""
    table = m.companion("tensorflow-metal")
    newest = table.releases[-1] if table is not None and table.releases else None
    if newest is None:
        return Fix("Use a Python tensorflow-metal publishes wheels for.", ())
    python = _newest_python(newest.python)
    return Fix(
        f"tensorflow-metal {newest.release} has wheels for Python {newest.python} and pairs "
        f"with tensorflow{newest.tensorflow}: for the GPU, create an environment with Python "
        f"{python} and install that pair; otherwise TensorFlow runs on the CPU here.",
        (
            f"python{python} -m venv .venv-metal",
            f'.venv-metal/bin/python -m pip install "tensorflow{newest.tensorflow}" '
            f'"{newest.requirement("tensorflow-metal")}"',
        ),
    )


def _newest_python(spec: str) -> str:
    """The newest ``3.X`` a ``<3.13,>=3.9`` range admits (``3.12``)."""
    for part in spec.split(","):
        if part.startswith("<") and not part.startswith("<="):
            major, minor = part[1:].split(".")[:2]
            return f"{major}.{int(minor) - 1}"
    return "3"


def bazel_fix(required: Optional[str], newer: Optional[bool], why: str = "", flag: str = "") -> Fix:
    """The Bazel release the source asks for (``required``: the release configure,
    .bazelversion or the WORKSPACE's check names; ``newer``: True where it asks for that
    release or newer, False for that or older, None where it names one release or none;
    ``why``: what the log shows, said first; ``flag``: the --incompatible_* flag a removed
    Starlark API's error names)."""
    if required:
        bound = {True: " or newer", False: " or older", None: ""}[newer]
        # USE_BAZEL_VERSION is Bazelisk's variable (its README): Bazel itself ignores it, so
        # where `bazel` is a Bazel release the export changes nothing.
        text = (
            f"Build with Bazel {required}{bound}, the release this source asks for: install "
            "Bazelisk as `bazel` (it fetches the release .bazelversion names, or the one "
            "USE_BAZEL_VERSION gives), or that Bazel release itself. USE_BAZEL_VERSION is "
            "read by Bazelisk only (`bazel version` then prints a Bazelisk version line "
            "first): a Bazel release installed as `bazel` ignores it."
        )
        commands: tuple[str, ...] = (
            "bazel version",
            f"export USE_BAZEL_VERSION={required}  # read by Bazelisk only",
        )
    else:
        # The log names no release: the source's own files do (.bazelversion since
        # TensorFlow 2.1, configure.py's _TF_MIN_BAZEL_VERSION and _TF_MAX_BAZEL_VERSION,
        # the WORKSPACE's minimum_bazel_version), and the build guide's tested builds.
        which = (
            "an older Bazel release, one this source accepts"
            if newer is False
            else "a Bazel release this source accepts"
        )
        text = (
            f"Build with {which} (./configure prints its "
            "range; .bazelversion, where the tree has one, names it): install Bazelisk as "
            "`bazel` on the PATH (it fetches that release), or the release itself; "
            "TensorFlow's build guide lists the tested Bazel of each line."
        )
        commands = ("bazel --version", "cat .bazelversion")
    if flag:
        # Bazel's backward compatibility policy: a flipped --incompatible_* flag can be set
        # back for a few releases, then it is removed (https://bazel.build/release/backward-compatibility).
        text += (
            f" Until then --{flag}=false, which the error names, restores the API in the "
            "releases that still have the flag."
        )
    return Fix(f"{why} {text}" if why else text, commands)


def bazel_toolchain_fix(os: Optional[str], compiler: str = "") -> Fix:
    """Bazel's C/C++ toolchain autoconfiguration (@local_config_cc) that found no compiler,
    for the system the log shows (``os``; ``compiler``: the one it looked for, gcc or
    clang). On Windows it takes Visual C++ from BAZEL_VC (or BAZEL_VS), else the default
    install paths (tools/cpp/windows_cc_configure.bzl); elsewhere the compiler CC names, else
    the one on the PATH (unix_cc_configure.bzl)."""
    if os == "windows":
        return Fix(
            "Bazel configures its C++ toolchain on Windows from the Visual C++ that BAZEL_VC "
            "(the VC directory of a Visual Studio or of its Build Tools) or BAZEL_VS points "
            "at, else from the default install paths, and found none it can use: BAZEL_VC or "
            "BAZEL_VS set to a wrong directory, or Visual Studio without its C++ workload. "
            'Install the Build Tools\' "Desktop development with C++" workload if vswhere '
            "finds no installation with it, set BAZEL_VC to that installation's VC directory "
            "(BAZEL_VC_FULL_VERSION, if set, to a version under VC\\Tools\\MSVC), then build "
            "again in a new terminal.",
            (
                '"%ProgramFiles(x86)%\\Microsoft Visual Studio\\Installer\\vswhere.exe" '
                "-latest -products * -requires "
                "Microsoft.VisualStudio.Component.VC.Tools.x86.x64 -property installationPath",
                "echo %BAZEL_VC% %BAZEL_VS%",
                "winget install Microsoft.VisualStudio.2022.BuildTools --override "
                '"--wait --passive --add Microsoft.VisualStudio.Workload.VCTools '
                '--includeRecommended"',
            ),
        )
    if os == "macos":
        return Fix(
            "Bazel configures its C++ toolchain from Xcode or the Command Line Tools and "
            "found no compiler: install the Command Line Tools (or set CC to a compiler's "
            "path), then build again.",
            ("xcode-select -p", "xcode-select --install"),
        )
    if os is None and not compiler:
        # Only the failed repository is shown: which system's configuration failed is not.
        return Fix(
            "Bazel could not configure its C/C++ toolchain (the cc_autoconf repository, "
            "local_config_cc), and the log does not show the system or the message above the "
            "failure. On Windows it needs Visual C++: BAZEL_VC set to the VC directory of a "
            'Visual Studio (or its Build Tools) with the "Desktop development with C++" '
            "workload, or unset so Bazel finds the default installation; elsewhere a C "
            "compiler on the PATH (gcc, Xcode's clang) or CC set to one. The lines above the "
            "failure (its traceback, Auto-Configuration Error) say which.",
            ("bazel info release", "echo $CC"),
        )
    named = compiler or "gcc"
    return Fix(
        f"Bazel configures its C++ toolchain from the compiler CC names, else {named} on the "
        f"PATH, and found neither: install {named} and the build tools (Debian and Ubuntu: "
        "build-essential; Fedora: gcc-c++), or set CC to the compiler's full path, then "
        "build again (`bazel clean --expunge` if Bazel keeps the old configuration).",
        (
            f"command -v {named} cc",
            "sudo apt-get install build-essential  # Debian, Ubuntu",
            "export CC=/usr/bin/gcc",
        )
        if os in (None, "linux")
        else (f"command -v {named} cc",),
    )


def host_compiler_fix(line: str, os: Optional[str]) -> Fix:
    """nvcc refusing the host compiler the build gives it, read from its own words
    (``line``: crt/host_config.h's #error, which names the bound) on the system the log
    shows (``os``). The supported compilers are NVIDIA's table for each toolkit."""
    gnu = re.search(r"gcc versions (later|earlier) than (\d{1,2}(?:\.\d{1,2})?)", line)
    override = (
        " nvcc's -allow-unsupported-compiler flag (in the toolkits that have it) only skips "
        "the check: NVIDIA warns the build may then fail or produce wrong code."
    )
    other_cuda = (
        " Or install a CUDA release whose installation guide lists this compiler (the "
        "toolkit's host compiler table), and build with that."
    )
    if gnu is not None and gnu.group(1) == "later":
        bound = gnu.group(2)
        apt = (
            (f"sudo apt-get install gcc-{bound} g++-{bound}  # Debian, Ubuntu",)
            if os in (None, "linux")
            else ()
        )
        return Fix(
            f"This CUDA toolkit's nvcc accepts GCC {bound} or older as its host compiler, and "
            f"the build gives it a newer one. Install a GCC {bound} (or older) beside the "
            "system's and name it to the build: TensorFlow's ./configure asks which gcc nvcc "
            "should use (GCC_HOST_COMPILER_PATH, read before ./configure runs again); a "
            "project's own nvcc command takes "
            "-ccbin; CMake takes CMAKE_CUDA_HOST_COMPILER." + other_cuda + override,
            (
                "gcc --version",
                "nvcc --version",
                *apt,
                f"export GCC_HOST_COMPILER_PATH=/usr/bin/gcc-{bound}",
            ),
        )
    if gnu is not None:
        bound = gnu.group(2)
        return Fix(
            f"This CUDA toolkit's nvcc accepts GCC {bound} or newer as its host compiler, and "
            f"the build gives it an older one: install a GCC {bound} or newer and name it to "
            "the build (./configure's GCC_HOST_COMPILER_PATH, nvcc's -ccbin).",
            ("gcc --version", "nvcc --version"),
        )
    if "Visual Studio" in line:
        return Fix(
            "This CUDA toolkit's nvcc supports only the Visual Studio releases its error "
            "names, and the build runs another: install one of those (its Build Tools with "
            "the C++ workload) and build from its Developer Command Prompt (for Bazel, "
            "BAZEL_VC pointing at its VC directory)." + other_cuda + override,
            ("nvcc --version", "where.exe cl"),
        )
    return Fix(
        "This CUDA toolkit's nvcc does not support the clang release the build gives it as "
        "its host compiler (its error names the bound): name a clang or GCC release it "
        "supports to the build (nvcc's -ccbin; TensorFlow's ./configure asks for the host "
        "compiler)." + other_cuda + override,
        ("clang --version", "nvcc --version"),
    )


#: The variable that asks find_cuda_config.py for each library's version, by the first file
#: it looks for (third_party/gpus/find_cuda_config.py, TensorFlow 2.1 to 2.17).
CUDA_CONFIG_VERSION_VARIABLES: Mapping[str, str] = {
    "cuda.h": "TF_CUDA_VERSION",
    "cudart": "TF_CUDA_VERSION",
    "nvcc": "TF_CUDA_VERSION",
    "cublas": "TF_CUBLAS_VERSION",
    "cudnn": "TF_CUDNN_VERSION",
    "nccl": "TF_NCCL_VERSION",
    "NvInfer": "TF_TENSORRT_VERSION",
    "nvinfer": "TF_TENSORRT_VERSION",
}


def cuda_config_fix(files: str, version: str, os: Optional[str] = None) -> Fix:
    """The library ``files`` (find_cuda_config.py's pattern, ``cudnn.h, cudnn_version.h``) of
    ``version`` (empty: any) where the build's configuration looks, or the variables that
    point it at the one installed, with the commands of the system the log shows (``os``)."""
    variable = next((v for k, v in CUDA_CONFIG_VERSION_VARIABLES.items() if k in files), "")
    first = files.partition(",")[0].strip()
    asked = f" of version {version}" if version else ""
    # On Windows the script looks for cudart.lib and nvcc.exe, and the build is configured
    # with configure.py (TensorFlow's Windows build guide); find(1) is no Windows command.
    windows = os == "windows"
    configure = "python configure.py" if windows else "./configure"
    search = (
        f"where /r C:\\ {first}"
        if windows
        else f"find / -name '{first}' -not -path '/proc/*' 2>/dev/null"
    )
    other = (
        f", or set {variable} to the version installed ({configure} asks for it)"
        if variable and version
        else ""
    )
    return Fix(
        f"The build's configuration found no {files}{asked} in the directories it lists. "
        "Install that library's development files (the -dev or -devel package, or NVIDIA's "
        "archive; pip's nvidia-* wheels are not searched), or name the directory that holds "
        f"them in TF_CUDA_PATHS, a comma-separated list of base directories{other}; then run "
        f"{configure} again.",
        (search, configure),
    )


def cuda_config_split_fix() -> Fix:
    """A CUDA toolkit whose compiler and libdevice share one root, for find_cuda_config.py's
    check that they do ("Inconsistent CUDA toolkit path: A vs B")."""
    # XLA finds ptxas and libdevice from one toolkit root, so the script requires nvcc's
    # directory and libdevice's to share it; a distribution's split package (nvcc in
    # /usr/bin, libdevice under /usr/lib/nvidia-cuda-toolkit) does not.
    return Fix(
        "The build's configuration found nvcc and libdevice under two different roots, and "
        "XLA needs them in one CUDA toolkit: install NVIDIA's toolkit (one directory, "
        "/usr/local/cuda-X.Y) and name it first in TF_CUDA_PATHS, then run ./configure again.",
        ("which -a nvcc", "find / -name 'libdevice*.10.bc' -not -path '/proc/*' 2>/dev/null"),
    )


def python_headers_fix(m: Machine) -> Fix:
    """The development headers of the Python the build is configured for."""
    if m.in_conda:
        return Fix(
            "Build with the conda environment's own Python (its headers ship with it): "
            "activate the environment before ./configure, and point the build at its python.",
            ("python -c \"import sysconfig; print(sysconfig.get_paths()['include'])\"",),
        )
    version = ".".join((m.python_version or "").split(".")[:2])
    dev = f"python{version}-dev" if version else "python3-dev"
    where = "python -c \"import sysconfig; print(sysconfig.get_paths()['include'])\""
    # Debian's package only where the system is known to be Linux (as source_build_fix).
    apt = (f"sudo apt-get install {dev}  # Debian, Ubuntu",) if m.os == "linux" else ()
    return Fix(
        "Install the development headers of the Python the build uses (Debian and Ubuntu: "
        f"{dev}; Fedora and RHEL: python3-devel; a python.org or conda Python has them), then "
        "build again.",
        (where, *apt),
    )


#: The Debian/Ubuntu packages of each split-out part, by the module missing: the unversioned
#: one, the distribution's own per-release one where it has one, and the one the deadsnakes
#: PPA builds for each of its Pythons (``{minor}``: the Python's minor release). Each python3.X
#: source builds python3.X-venv; python3-stdlib-extensions builds distutils, lib2to3 and tk
#: for all of the release's Pythons under unversioned names only (Debian's buster, bullseye and
#: bookworm, Ubuntu 22.04), so python3.X-distutils, -lib2to3 and -tk are deadsnakes' alone.
_DISTRO_PACKAGES = {
    "ensurepip": ("python3-venv", "python3.{minor}-venv", "python3.{minor}-venv"),
    "distutils": ("python3-distutils", "", "python3.{minor}-distutils"),
    "lib2to3": ("python3-lib2to3", "", "python3.{minor}-lib2to3"),
    "tkinter": ("python3-tk", "", "python3.{minor}-tk"),
}
#: The parts of the standard library Debian and Ubuntu ship as packages of their own.
DISTRO_PARTS: Final = frozenset(_DISTRO_PACKAGES)


#: The standard library's compiled modules that a Python built from source has only where the
#: library each links was found when it was built, with the development packages that provide
#: it: Debian and Ubuntu, Fedora and RHEL, Homebrew ("" where it has none). CPython's
#: devguide lists them ("Install dependencies": apt's libbz2-dev, libffi-dev, libgdbm-dev,
#: liblzma-dev, libncurses5-dev, libreadline6-dev, libsqlite3-dev, libssl-dev, uuid-dev,
#: zlib1g-dev; dnf's bzip2-devel, libffi-devel, gdbm-devel, xz-devel, ncurses-devel,
#: readline-devel, sqlite-devel, openssl-devel, libuuid-devel, zlib-devel; brew's openssl@3, xz,
#: gdbm: https://devguide.python.org/getting-started/setup-building/#install-dependencies), as
#: pyenv's suggested build environment does (https://github.com/pyenv/pyenv/wiki#suggested-build-environment).
#: Neither _tkinter (the distribution's split-out part first, :data:`DISTRO_PARTS`) nor _gdbm
#: (Debian ships it apart too, python3-gdbm: https://packages.debian.org/bookworm/python3-gdbm)
#: is a row: a missing one is more often the distribution's package than a build.
BUILT_PARTS: Final[Mapping[str, tuple[str, str, str]]] = {
    "_bz2": ("libbz2-dev", "bzip2-devel", "bzip2"),
    "_lzma": ("liblzma-dev", "xz-devel", "xz"),
    "_sqlite3": ("libsqlite3-dev", "sqlite-devel", "sqlite"),
    "_ctypes": ("libffi-dev", "libffi-devel", "libffi"),
    "_ssl": ("libssl-dev", "openssl-devel", "openssl@3"),
    "_hashlib": ("libssl-dev", "openssl-devel", "openssl@3"),
    "_uuid": ("uuid-dev", "libuuid-devel", ""),
    "readline": ("libreadline-dev", "readline-devel", "readline"),
    "_curses": ("libncurses5-dev", "ncurses-devel", "ncurses"),
    "zlib": ("zlib1g-dev", "zlib-devel", ""),
}


def unbuilt_part_fix(modules_missing: Sequence[str], system: str = "", rebuild: str = "") -> Fix:
    """The development packages of the libraries ``modules_missing`` (keys of
    :data:`BUILT_PARTS`) link, for ``system`` (``linux``, ``macos``; empty where the log does
    not show it), then the Python built again (``rebuild``: the command that rebuilds this one,
    where its path shows pyenv's; else said in words) and its environments made again."""
    rows = [BUILT_PARTS[x] for x in modules_missing if x in BUILT_PARTS]
    apt = " ".join(dict.fromkeys(r[0] for r in rows))
    dnf = " ".join(dict.fromkeys(r[1] for r in rows))
    brew = " ".join(dict.fromkeys(r[2] for r in rows if r[2]))
    commands: list[str] = []
    if system != "macos":
        commands += [
            f"sudo apt-get install {apt}  # Debian, Ubuntu",
            f"sudo dnf install {dnf}  # Fedora, RHEL",
        ]
    if system != "linux" and brew:
        commands.append(f"brew install {brew}  # macOS, Homebrew")
    if rebuild:
        commands.append(rebuild)
    names = ", ".join(modules_missing)
    return Fix(
        f"This Python was built without {names}: the development files of the library it links "
        "were missing when the interpreter was compiled (pyenv, asdf and `make install` build "
        "it on this machine and leave out what they cannot build). Install them, build the "
        "same Python again ("
        + (
            "the last command; "
            if rebuild
            else "`pyenv install --force VERSION`, asdf's "
            "uninstall then install, or `make` and `make install` in its source tree; "
        )
        + "its build's closing lines must no longer list the module), then make the virtual "
        "environments made from it again. Or use a Python built with them: the "
        "distribution's, python.org's or conda's.",
        tuple(commands),
    )


def distro_part_fix(part: str, python: str = "") -> Fix:
    """The Debian/Ubuntu package that holds ``part`` (ensurepip, distutils, lib2to3, tkinter)
    of the system Python; ``python``: its release where the log shows it (3.8)."""
    plain, own, deadsnakes = _DISTRO_PACKAGES[part]
    minor = python.split(".")[1] if python.count(".") >= 1 else ""
    package = own.format(minor=minor) if own and minor else plain
    ask = () if minor else ("python3 --version",)
    other = (
        " If `python3 --version` prints 3.12 or later, that Python has no distutils at all: "
        "`pip install setuptools` provides a copy instead."
        if part == "distutils" and not minor
        else ""
    )
    after = (
        " then create the virtual environment again (remove the half-made one first)."
        if part == "ensurepip"
        else " then run the command again."
    )
    if part == "tkinter":
        # Other Pythons split it too: Homebrew's python-tk formula, python.org's Windows
        # installer's "tcl/tk and IDLE" feature (https://docs.python.org/3/using/windows.html).
        after += (
            " Elsewhere: Homebrew's Python needs `brew install python-tk`, python.org's Windows "
            "installer its 'tcl/tk and IDLE' option (Modify in Apps); a Python built from "
            "source (pyenv, /usr/local) has _tkinter only if Tk's headers were there when it "
            "was built: install tk-dev, then build that Python again."
        )
    if own:
        where = (
            ""
            if minor
            else f" (for a Python 3.X from the distribution or deadsnakes, {own.format(minor='X')})"
        )
        install = f"sudo apt-get install {package}"
    else:
        # The log does not tell the distribution's Python from deadsnakes' (both live in
        # /usr/lib/python3.X/): deadsnakes' package exists only where its PPA has that Python.
        versioned = deadsnakes.format(minor=minor or "X")
        where = (
            f" (a Python 3.{minor or 'X'} from the deadsnakes PPA has its own, {versioned}; "
            f"the distribution's {plain} serves only the distribution's Pythons)"
        )
        install = (
            f"sudo apt-get install {versioned} || sudo apt-get install {plain}"
            if minor
            else f"sudo apt-get install {plain}"
        )
    return Fix(
        f"Debian and Ubuntu ship the system Python's {part} in a package of its own: install "
        f"{package}{where},{after} In a Dockerfile, add it to the apt-get install line.{other}",
        (*ask, install),
    )


def system_pip_fix() -> Fix:
    """pip for Debian's or Ubuntu's system Python, whose ensurepip refuses to run for it."""
    return Fix(
        "Debian and Ubuntu patch ensurepip to refuse their system Python, whatever is installed "
        "(python3-venv too): take that Python's pip from apt (python3-pip), or, better, make a "
        "virtual environment (python3-venv), whose own ensurepip runs, and install with its pip.",
        (
            "sudo apt-get install python3-venv",
            "python3 -m venv .venv",
            ".venv/bin/python -m pip install --upgrade pip",
        ),
    )


def removed_module_fix(
    m: Machine,
    module: str,
    removed_in: str,
    use: str,
    importer: str,
    dist: bool,
    name: str = "",
    syntax: str = "",
    building: bool = False,
    fixed_in: str = "",
) -> Fix:
    """What mends code that imports ``module``, which Python ``removed_in`` removed (``use``
    replaces it), or that uses ``name``, which that release removed from ``module``, or (with
    ``syntax``, ``module`` empty) that uses syntax that release took away. ``importer``: the
    distribution (``dist``) or installed package directory whose file imports it; empty for
    the project's own code; ``building``: the distribution's source release pip is building,
    not an installed one; ``fixed_in``: the distribution's first release without the use,
    where the module table knows it."""
    older = _python_before(removed_in)
    release = f"{importer} release pip is building" if building else f"installed {importer} release"
    python = m.python_version
    shown = f"Python {python}" if python else f"this Python ({removed_in} or later)"
    uses = f"uses {module}.{name}" if name else f"imports {module}"
    clause = (
        f"uses {syntax} (this is Python {python})"
        if syntax and python
        else f"uses {syntax} (this Python is {removed_in} or later)"
        if syntax
        else f"{uses}, which {shown} no longer has (removed in {removed_in})"
    )
    shim = (
        " Installing setuptools (`pip install setuptools`) makes `import distutils` work "
        "again (setuptools ships a copy), which is enough for code that uses distutils.version "
        "or distutils.util."
        if module == "distutils" and not name
        else ""
    )
    if importer and dist and fixed_in and not building:
        return Fix(
            f"{importer} {clause}: the {release} predates that Python. Upgrade it to "
            f"{fixed_in} or later (its first release without it), or run it on Python "
            f"{older} or older (a new virtual environment).{shim}",
            (*m.pip(f"show {importer}"), *m.pip_install(f"{importer}>={fixed_in}")),
        )
    if importer and dist:
        return Fix(
            f"{importer} {clause}: the {release} predates that Python. "
            f"Upgrade it to a release that supports Python {removed_in} or later, where the "
            f"project has one (`pip index versions {importer}` lists them), or run it on "
            f"Python {older} or older (a new virtual environment).{shim}",
            # A release pip is building is not installed: `pip show` would find nothing, the
            # releases pip can install say which to take.
            (
                *(m.list_releases(importer) if building else m.pip(f"show {importer}")),
                *m.pip(f'install --upgrade "{importer}"'),
            ),
        )
    if importer:
        # An installed package the module table does not know: its distribution's name is
        # not guessed from the directory. The file list that names its files names it.
        names = owner_of_package_command(importer)
        return Fix(
            f"The installed package {importer} {clause}: its release predates that Python. "
            "Upgrade the distribution that installs it (the command below names it) to a "
            f"release made for {removed_in} or later, or run it on Python "
            f"{older} or older.{shim}",
            (names,),
        )
    return Fix(
        f"The code {clause}: replace it with {use}, or run the code on Python {older} or older.",
        (),
    )


def _python_before(release: str) -> str:
    """The Python release before ``release`` (``3.12`` -> ``3.11``; ``3.0`` -> ``2.7``)."""
    major, minor = (int(x) for x in release.split(".")[:2])
    return f"{major}.{minor - 1}" if minor else "2.7"


def release_newer_python_fix(
    m: Machine, module: str, removed_in: str, uses: Optional[str] = None
) -> Fix:
    """TensorFlow's own files import ``module``, which Python ``removed_in`` removed (or, with
    ``uses``, use what that clause says that release took away): the installed release
    predates the interpreter; the first line with wheels for it, from the matrix."""
    # The log's Python, where it shows one: without it the release that removed the module
    # is only a lower bound, and no first line is named.
    minor = ".".join((m.python_version or "").split(".")[:2])
    lines = m.matrix.lines if m.matrix is not None and minor else ()
    first = min(
        (x for x in lines if minor in _pythons(x)),
        key=lambda x: version_key(x.line),
        default=None,
    )
    python = f"Python {minor}" if minor else f"this Python ({removed_in} or later)"
    installed = f"TensorFlow {m.tf.version}" if m.tf is not None else "The installed TensorFlow"
    target = (
        f"TensorFlow {first.line} or later, the first line with wheels for Python {minor} "
        "(from the matrix)"
        if first is not None
        else "a TensorFlow release with wheels for this Python (`tfdoctor matrix` lists each "
        "line's Pythons)"
    )
    said = uses or f"imports {module}, which {python} no longer has (removed in {removed_in})"
    return Fix(
        f"{installed} {said}: it was not built for this Python (pip never installs a TensorFlow "
        f"wheel for a Python it lacks; a copied environment, a conda package or a forced "
        f"install does). Install {target}, or run this release on the Python it was built for "
        "(a new virtual environment).",
        (
            "python --version",
            *m.pip_install(
                f"{m.tf_name or 'tensorflow'}>={first.line}"
                if first is not None
                else m.tf_name or "tensorflow"
            ),
        ),
    )


def addon_toolchain_fix(toolchain: str, os: Optional[str], clt_active: bool = False) -> Fix:
    """The toolchain node-gyp did not find (``VS``, ``Python``, or "" where the message names
    Xcode, make or none), for the system the log shows (``os``: linux, macos, windows);
    ``clt_active``: xcodebuild said the active developer directory is the Command Line Tools
    (they are installed: Xcode itself is what it asks for)."""
    if toolchain == "Python" and os == "windows":
        # node-gyp looks for Python itself, the py launcher among the places it tries.
        return Fix(
            "node-gyp runs a Python 3 to configure the build and finds none it can use: "
            "install Python 3 from python.org (with its py launcher, which node-gyp tries), "
            "then open a new terminal and install again.",
            ("py -3 --version",),
        )
    if toolchain == "Python":
        # npm 9 and later refuse `npm config set python` (not an npm option any more);
        # node-gyp reads npm_config_python from the environment (node-gyp's README).
        return Fix(
            "node-gyp runs a Python 3 to configure the build and finds none it can use: "
            "install Python 3 and tell node-gyp which one (the npm_config_python environment "
            "variable), then install again.",
            ("python3 --version", 'export npm_config_python="$(command -v python3)"'),
        )
    if toolchain == "VS" or os == "windows":
        return Fix(
            "node-gyp finds no Visual Studio C++ toolchain: install the Visual Studio Build "
            'Tools with the "Desktop development with C++" workload (VCTools), then install '
            "again in a new terminal.",
            (
                "winget install Microsoft.VisualStudio.2022.BuildTools --override "
                '"--wait --passive --add Microsoft.VisualStudio.Workload.VCTools '
                '--includeRecommended"',
            ),
        )
    if os == "macos" and clt_active:
        return Fix(
            "xcodebuild asks for Xcode, and the active developer directory is the Command Line "
            "Tools: where Xcode is installed, make it the active one (else install Xcode, or "
            "keep the Command Line Tools if the build went on after this line), then install "
            "again.",
            ("xcode-select -p", "sudo xcode-select -s /Applications/Xcode.app/Contents/Developer"),
        )
    if os == "macos":
        return Fix(
            "node-gyp builds with Xcode's toolchain and finds none: install the Command Line "
            "Tools, then install again.",
            ("xcode-select -p", "xcode-select --install"),
        )
    if os == "linux":
        return Fix(
            "node-gyp finds no make or C++ compiler: install the build tools (Debian and "
            "Ubuntu: build-essential; Alpine: build-base; Fedora: make gcc-c++) and Python 3, "
            "then install again.",
            (
                "apt-get install -y build-essential python3  # Debian, Ubuntu (root)",
                "apk add --no-cache build-base python3  # Alpine",
            ),
        )
    return Fix(
        "node-gyp finds no C++ toolchain for this system: on macOS the Xcode Command Line "
        "Tools (xcode-select --install), on Windows the Visual Studio Build Tools' \"Desktop "
        'development with C++" workload, on Linux make and a C++ compiler (build-essential, '
        "Alpine's build-base); then install again."
    )


def extension_toolchain_fix(os: Optional[str], compiler: str = "") -> Fix:
    """pip (setuptools) building a package's C/C++ extension from source, because no wheel of
    it fits this Python and platform, found no compiler for the system the log shows (``os``;
    ``compiler``: the one it could not run, where the log names it). Installing the
    toolchain fixes the build; a release with a wheel for this Python needs no build at all."""
    wheel = (
        " Or avoid the build: a release of the package with a wheel for this Python and "
        "platform (`pip index versions <package>` lists releases; pip's log above names the "
        "package it was building) installs without a compiler."
    )
    if os == "windows":
        # setuptools' msvc.py and _distutils/_msvccompiler.py refuse the build without MSVC
        # 14.x ("Microsoft Visual C++ 14.0 or greater is required").
        return Fix(
            "The package is built from source and setuptools finds no Microsoft C++ compiler: "
            'install the Visual Studio Build Tools with the "Desktop development with C++" '
            "workload (MSVC and the Windows SDK), then install again in a new terminal." + wheel,
            (
                "winget install Microsoft.VisualStudio.2022.BuildTools --override "
                '"--wait --passive --add Microsoft.VisualStudio.Workload.VCTools '
                '--includeRecommended"',
            ),
        )
    if os == "macos":
        return Fix(
            "The package is built from source and the Xcode Command Line Tools (the C compiler "
            "and xcrun) are missing or were removed by a macOS upgrade: install them, then "
            "install again." + wheel,
            ("xcode-select --install",),
        )
    named = f" ({compiler})" if compiler else ""
    return Fix(
        f"The package is built from source and the C compiler{named} is not installed: "
        "install a compiler and Python's headers (Debian and Ubuntu: build-essential and "
        "python3-dev; Fedora: gcc gcc-c++ python3-devel; Alpine: build-base python3-dev), then "
        "install again." + wheel,
        (
            "apt-get install -y build-essential python3-dev  # Debian, Ubuntu (root)",
            "dnf install -y gcc gcc-c++ python3-devel  # Fedora, RHEL (root)",
            "apk add --no-cache build-base python3-dev  # Alpine",
        ),
    )


def c_library_unfound_fix(library: str, macos: bool) -> Fix:
    """The TensorFlow C library (``libtensorflow.so.2``, ``libtensorflow.2.dylib``: the
    libtensorflow archive's, which no pip package installs) not found by the loader when a
    program that links it starts. TensorFlow's C install guide: extracted into a system
    directory, the loader's cache must learn it (``sudo ldconfig``); elsewhere its lib
    directory goes on the loader's path (https://www.tensorflow.org/install/lang_c)."""
    if library.startswith("libtensorflow_framework"):
        # The framework library is no C-archive file alone: the archive's lib directory holds
        # it beside libtensorflow, which links it, and every TensorFlow wheel from 1.4 on ships
        # it in its tensorflow/ directory (tf.sysconfig.get_lib(), the -L of get_link_flags),
        # which a program linked against an installed TensorFlow needs at its start too.
        env = "DYLD_LIBRARY_PATH" if macos else "LD_LIBRARY_PATH"
        return Fix(
            f"{library} is TensorFlow's framework library, which the program links, and the "
            "loader does not find it as the program starts. It lies in the lib directory of "
            "the libtensorflow archive (beside TensorFlow's C library), and in the tensorflow "
            "directory of a pip-installed TensorFlow (tf.sysconfig.get_lib()): put the "
            f"directory of the one the program was linked against on {env}"
            + (
                "."
                if macos
                else " (an archive extracted into /usr/local: run ldconfig, as TensorFlow's C "
                "install guide says)."
            ),
            (
                'python -c "import tensorflow as tf; print(tf.sysconfig.get_lib())"',
                f'export {env}="<that directory>${{{env}:+:${env}}}"',
            ),
        )
    if macos:
        return Fix(
            f"{library} is TensorFlow's C library (the libtensorflow archive; the Python "
            "package does not install it), and the loader does not find it: put the archive's "
            "lib directory on DYLD_LIBRARY_PATH (and LIBRARY_PATH for linking), as TensorFlow's "
            "C install guide says, or extract the archive into /usr/local.",
            ('export DYLD_LIBRARY_PATH="<archive>/lib${DYLD_LIBRARY_PATH:+:$DYLD_LIBRARY_PATH}"',),
        )
    return Fix(
        f"{library} is TensorFlow's C library (the libtensorflow archive; the Python package "
        "does not install it), and the loader does not find it. Where the archive was "
        "extracted into a system directory (/usr/local, its lib/ then /usr/local/lib), the "
        "loader's cache does not list it until ldconfig runs (TensorFlow's C install guide: "
        "sudo ldconfig); where it lies elsewhere, put its lib directory on LD_LIBRARY_PATH "
        "(and LIBRARY_PATH for linking).",
        (
            "sudo ldconfig /usr/local/lib",
            "ldconfig -p | grep libtensorflow",
        ),
    )


def program_library_fix(
    program: str, library: str, known: Optional[tuple[str, str, Sequence[str]]]
) -> Fix:
    """glibc's loader refusing to start ``program`` (no Python module: a program that links
    ``library``) because it finds no file of that name where it searches: the program's
    DT_RPATH, LD_LIBRARY_PATH, its DT_RUNPATH, the cache ldconfig builds (/etc/ld.so.cache,
    from /etc/ld.so.conf), then /lib and /usr/lib (ld.so(8)). ``known``: what the library
    is, where it comes from and the commands that get it (the module table's
    ``native_libraries`` row), None for a library the table does not know."""
    name = library.rsplit("/", 1)[-1]
    stem = name.split(".so", 1)[0]
    # glibc prints argv[0]: a program the shell found on PATH is named bare, and ldd reads a
    # bare name as a file in the working directory (elf/ldd.bash.in: file=./$file).
    path = shlex.quote(program) if "/" in program else f'"$(command -v {shlex.quote(program)})"'
    what = (
        f"{name} is {known[0]}: {known[1]}. "
        if known is not None
        else f"Install the package or build that provides {name}. "
    )
    return Fix(
        f"{program} could not start: the loader found no {name} where it searches for the "
        "libraries a program links (the program's run path, LD_LIBRARY_PATH, the cache that "
        "ldconfig builds from /etc/ld.so.conf, then /lib and /usr/lib). "
        + what
        + "Put the library in a directory the cache lists (/usr/local/lib on Debian and "
        "Ubuntu, /etc/ld.so.conf.d/libc.conf), or list its directory in a file of "
        "/etc/ld.so.conf.d, and run `sudo ldconfig`; or put its directory on LD_LIBRARY_PATH "
        "when the program runs; `ldd` on the program then lists any "
        "library still 'not found', the ones the library itself links among them.",
        (
            *(known[2] if known is not None else ()),
            "sudo ldconfig",
            f"ldconfig -p | grep {shlex.quote(stem)}",
            f"ldd {path} | grep 'not found'",
        ),
    )


def c_api_fix(os: Optional[str]) -> Fix:
    """The TensorFlow C library's headers or library are not where the compiler and the
    linker look, for the system the log shows (``os``)."""
    if os == "macos":
        return Fix(
            "The compiler or linker finds no TensorFlow C library: install it with Homebrew "
            "(its headers and library land in Homebrew's prefix, which the build then names), or "
            "extract the libtensorflow archive and point the build at it (CGO_CFLAGS or CPATH at "
            "its include directory, CGO_LDFLAGS or LIBRARY_PATH at its lib directory; "
            "DYLD_LIBRARY_PATH for running).",
            ("brew install libtensorflow", "brew --prefix libtensorflow"),
        )
    if os == "windows":
        return Fix(
            "The compiler or linker finds no TensorFlow C library: extract the libtensorflow "
            "zip and point the build at it (CGO_CFLAGS at its include directory, CGO_LDFLAGS at "
            "its lib directory), and put the directory of tensorflow.dll on PATH for running."
        )
    return Fix(
        "The compiler or linker finds no TensorFlow C library: extract the libtensorflow "
        "archive into /usr/local (its include/ and lib/ land in the compiler's and loader's "
        "default paths; then run ldconfig), or, where it lies elsewhere, point the build at it: "
        "CGO_CFLAGS (or CPATH) at its include directory, CGO_LDFLAGS (or LIBRARY_PATH) at its "
        "lib directory, and LD_LIBRARY_PATH (or an ld.so.conf.d entry) for running.",
        (
            "sudo tar -C /usr/local -xzf libtensorflow-*.tar.gz",
            "sudo ldconfig",
            "ls /usr/local/include/tensorflow/c/c_api.h",
        ),
    )


def range_release_fix(
    m: Machine,
    dist: str,
    spec: str,
    python: Optional[str],
    os: Optional[str] = None,
    listed: Sequence[str] = (),
    required_by: str = "",
) -> Optional[Fix]:
    """A requirement that limits TensorFlow to a range of old releases (``<2.0.0,>=1.12.0``)
    pip found no wheel of: the Pythons those releases have wheels for (the matrix's lines and
    early releases within the range). None where the matrix has no release in the range, or
    where the log's Python is one of them (then the Python is not what stops pip). ``os``:
    the system the log shows; only its platforms' wheels count. ``listed``: the final
    releases pip listed instead, all outside the range; then the Python is what stops pip
    only where those releases have wheels for a Python the range's have not (None
    otherwise: the platform or the index is, which another Python does not change).
    ``required_by``: the package whose requirement it is (pip's "(from basic-pitch)"): its
    own newer release, or its source, is the other way, since the range is its to widen."""
    # A compatible-release clause bounds the range too ("~=2.4.1": >=2.4.1, ==2.4.*; PEP 440).
    if m.matrix is None or ("<" not in spec and "~=" not in spec):
        return None
    newest = max(m.matrix.lines, key=lambda x: version_key(x.line), default=None)
    if newest is None or spec_contains(newest.latest_patch, spec) is not False:
        return None  # the range reaches the newest line: not a range of old releases

    # Each release in the range, with its Pythons by platform (the matrix's lines and early
    # releases), read once.
    in_range: list[tuple[str, Mapping[str, Sequence[str]]]] = [
        (x.latest_patch, x.python)
        for x in m.matrix.lines
        if spec_contains(x.latest_patch, spec) is True
    ]
    in_range += [
        (row.release, row.python)
        for row in m.matrix.early_releases
        if spec_contains(row.release, spec) is True
    ]
    keys = [key for key, system in PLATFORMS.items() if os is None or system == os]
    pythons = sorted(
        {py for _, by_key in in_range for key in keys for py in by_key.get(key, ())},
        key=version_key,
    )
    minor = ".".join((python or "").split(".")[:2])
    if not in_range or not pythons or minor in pythons:
        return None
    # pip listing none says that no release of the range it could see had a wheel for this
    # interpreter: where the log predates the range's later releases, the Pythons only those
    # have are no way out. A Python every release of the range has wheels for is one whatever
    # the log's date.
    each = [{py for key in keys for py in by_key.get(key, ())} for _, by_key in in_range]
    each = [x for x in each if x]
    common = sorted(set.intersection(*each), key=version_key) if each else []
    target = common[-1] if common and not listed else pythons[-1]
    beyond = _listed_only_pythons(m, listed, pythons, keys)
    if listed and (not beyond or any(spec_contains(v, spec) is not False for v in listed)):
        return None
    versions = sorted((r for r, _ in in_range), key=version_key)
    shown = "TensorFlow" if dist in ("tensorflow", "tensorflow-gpu") else dist
    # The log shows the system, not its CPU: a platform of it without any wheel in the range
    # (64-bit ARM Linux before 2.x's aarch64 wheels) is said, where no Python helps; on a Mac
    # that is Apple silicon (wheels from 2.13 on), where an x86-64 Python runs under Rosetta 2.
    empty = (
        sorted(k for k in keys if not any(by_key.get(k) for _, by_key in in_range))
        if os is not None
        else []
    )
    intel_only = "macos-arm64" in empty
    holder = f"{required_by}'s requirement" if required_by else "The requirement"
    moved = (
        f"install a release of {required_by} whose requirement admits a TensorFlow with wheels "
        f"for this Python (a newer release, or its source repository where no release does; "
        f"`pip index versions {required_by}` lists them)"
        if required_by
        else "move the requirement to a TensorFlow release with wheels for this Python "
        "(`tfdoctor matrix` lists each line's Pythons)"
    )
    return Fix(
        f"{holder} asks for {dist}{spec}: its releases ({shown} {versions[0]}"
        + (f" to {versions[-1]}" if versions[-1] != versions[0] else "")
        + f" in the matrix) have wheels for Python {_python_span(pythons)} only, "
        f"and pip found none for this interpreter"
        + (f" (Python {python})" if python else "")
        + (
            f"; the releases pip lists instead ({min(listed, key=version_key)} to "
            f"{max(listed, key=version_key)}) are the ones with wheels for Python "
            f"{_python_span(beyond)} too"
            + (
                f", which Python {python} is"
                if python and any(version_key(python)[:2] == version_key(b)[:2] for b in beyond)
                else ", so this interpreter is most likely one of those"
                if not python
                else ""
            )
            if beyond
            else ""
        )
        + f". Run it on Python {target} (a new virtual environment"
        + (", an x86-64 one under Rosetta 2 on Apple silicon" if intel_only else "")
        + (
            f"; every release of the range has wheels for it, Python "
            f"{_python_span([p for p in pythons if version_key(p) > version_key(target)])} "
            "only the later ones"
            if target != pythons[-1]
            else ""
        )
        + f"), or {moved}."
        + (
            f" They have no wheels at all for {', '.join(empty)}: there only the requirement "
            "can change."
            if empty and not intel_only
            else ""
        ),
        (INTERPRETER_CHECK, *(m.list_releases(required_by) if required_by else ())),
    )


def _listed_only_pythons(
    m: Machine, listed: Sequence[str], pythons: Sequence[str], keys: Sequence[str]
) -> list[str]:
    """The Pythons (oldest first) that the matrix's lines of the ``listed`` releases have
    wheels for on the platforms ``keys`` and that are not among ``pythons``; empty where pip
    listed nothing or the matrix knows none of the listed releases' lines."""
    if m.matrix is None or not listed:
        return []
    lines = [m.matrix.line_for(v) for v in listed]
    known = [x for x in lines if x is not None]
    if not known:
        return []
    return sorted(
        {py for x in known for key in keys for py in x.python.get(key, ())} - set(pythons),
        key=version_key,
    )


def wrapper_pin_fix(
    dist: str, platforms: Sequence[str], spec: str = "", system_shown: bool = True
) -> Fix:
    """A pin of ``dist`` (``spec``: the requirement's specifier), a distribution the
    ``tensorflow`` wheel requires on ``platforms`` only (the matrix's wrappers), where pip
    finds none: the requirement belongs to those. Without ``system_shown`` the log may be
    from one of them, where the refusal is about the Python: both are said."""
    where = ", ".join(platforms)
    markers = [PLATFORM_MARKERS[p] for p in platforms if p in PLATFORM_MARKERS]
    marker = f" (`{dist}{spec} ; {markers[0]}`)" if len(markers) == 1 else ""
    return Fix(
        f"{dist} is the distribution TensorFlow's own wheel requires on {where} only; pip "
        f"installs it there by itself for `tensorflow`, and it has no wheel elsewhere. A pin of "
        f"it (a requirements file written by `pip freeze` on {where}) fails on other machines: "
        f"remove the {dist} line and keep `tensorflow` at the same release, or limit the line "
        f"to its platform with an environment marker{marker}."
        + (
            ""
            if system_shown
            else f" (If this machine is {where} itself, the pin is right and pip refuses the "
            "Python: use one the release has wheels for, `tfdoctor matrix` lists them.)"
        ),
        (f"grep -in '{dist.replace('-', '[-_]')}' requirements.txt",),
    )


def wsl1_fix() -> Fix:
    """The distribution converted to WSL 2, whose GPU paravirtualisation WSL 1 lacks, with the
    Windows driver's WSL support; nothing of a Linux driver inside it."""
    return Fix(
        "WSL 1 gives a distribution no GPU: CUDA in WSL needs WSL 2 and the Windows NVIDIA "
        "driver, which brings its libraries into WSL 2 (NVIDIA's CUDA on WSL guide). From "
        "Windows PowerShell, convert the distribution to WSL 2 (`wsl -l -v` names it); install "
        "no Linux NVIDIA driver inside it.",
        (
            "wsl -l -v  # in Windows PowerShell",
            "wsl --set-version <distribution> 2  # in Windows PowerShell",
        ),
    )


#: Where WSL 2 mounts the Windows driver's libraries (libcuda.so.1, libnvidia-ml.so.1, ...):
#: NVIDIA's CUDA on WSL guide, https://docs.nvidia.com/cuda/wsl-user-guide/index.html
WSL_LIB_DIR = "/usr/lib/wsl/lib"
#: Everything WSL 2 mounts from Windows: WSL_LIB_DIR and the driver store under
#: /usr/lib/wsl/drivers, whose libcuda.so.1.1 the libcuda.so.1 in WSL_LIB_DIR loads (the
#: NVIDIA Container Toolkit mounts it from there: NVIDIA/nvidia-container-toolkit pull 1890,
#: "Using WSL driver store path: /usr/lib/wsl/drivers/nv_dispsi.inf_amd64_...").
WSL_MOUNTS = "/usr/lib/wsl/"


def wsl_foreign_libcuda(m: Machine) -> Optional[str]:
    """The libcuda the loader takes under WSL 2 when it is a Linux driver's, installed inside
    the distribution, else None: not one WSL mounts from Windows (its folder or its driver
    store), nor the CUDA toolkit's link-time stub (``/stubs/``, cause libcuda-stub), which no
    driver package installs."""
    libcuda = m.libcuda
    if not m.wsl2_host_driver or libcuda is None:
        return None
    if libcuda.startswith(WSL_MOUNTS) or "/stubs/" in libcuda:
        return None
    return libcuda


def wsl_container_gpu_fix() -> Fix:
    """A container started with the GPU flag on Windows: its GPU comes through WSL 2 (Docker
    Desktop's WSL 2 based engine, or Docker Engine with the NVIDIA Container Toolkit inside a
    WSL 2 distribution), from the Windows NVIDIA driver, so the flag is there and the Windows
    side is what to update. Docker's GPU support page (https://docs.docker.com/desktop/features/gpu/)
    and NVIDIA's CUDA on WSL guide."""
    return Fix(
        "On Windows a container reaches the GPU only through WSL 2 and the Windows NVIDIA "
        "driver (Docker Desktop's WSL 2 based engine, or Docker Engine with the NVIDIA "
        "Container Toolkit inside a WSL 2 distribution; the Hyper-V engine has no GPU): "
        "update the Windows NVIDIA driver, WSL and Docker Desktop, turn on its WSL 2 based "
        "engine, restart WSL, and check that nvidia-smi lists the GPU inside WSL.",
        (
            "wsl --update  # in Windows PowerShell",
            "wsl --shutdown  # in Windows PowerShell",
            "wsl nvidia-smi  # in Windows PowerShell",
        ),
    )


def wsl_gpu_fix(m: Optional[Machine] = None) -> Fix:
    """WSL 2's GPU libraries from Windows: WSL and the Windows driver updated, nothing of a
    Linux driver inside the distribution over them; where a Linux driver's libcuda loads in
    place of WSL's, that driver removed (dpkg names its package on Debian and Ubuntu)."""
    foreign_libcuda = wsl_foreign_libcuda(m) if m is not None else None
    if foreign_libcuda is None:
        return Fix(
            "Update WSL and the Windows NVIDIA (or GPU vendor's) driver from Windows, then "
            "restart WSL; inside the distribution, keep only what WSL mounts in "
            f"{WSL_LIB_DIR} (no Linux NVIDIA driver packages: NVIDIA's WSL guide says to "
            "install none there).",
            (
                "wsl --update  # in Windows PowerShell",
                "wsl --shutdown  # in Windows PowerShell",
                f"ls -l {WSL_LIB_DIR}",
            ),
        )
    # NVIDIA's CUDA on WSL guide: once the Windows driver is installed, CUDA is available in
    # WSL 2, and no Linux NVIDIA driver may be installed there (it would overwrite WSL's
    # libcuda); the toolkit is installed without a driver (its WSL-Ubuntu repository, or the
    # cuda-toolkit-X-Y package rather than the `cuda` or `cuda-drivers` meta-packages).
    text = (
        f"{foreign_libcuda} is a Linux driver's libcuda, loaded in place of the one the Windows "
        f"driver brings to WSL 2 in {WSL_LIB_DIR}: remove the Linux NVIDIA driver package "
        "that installed it (NVIDIA's WSL guide says to install none inside WSL 2; install the "
        "CUDA toolkit, where you need one, as cuda-toolkit-X-Y, which brings no driver), then "
        "restart WSL."
    )
    # The loader's path may be an alias (/lib for /usr/lib, a soname link) that dpkg did not
    # record: dpkg -S is asked for the file it resolves to, which the package installed.
    owner = f'dpkg -S "$(realpath {foreign_libcuda})"'
    # dpkg and apt: the distributions Machine.packager reads as apt's (Debian, Ubuntu and
    # their derivatives: Kali and Debian are WSL distributions too).
    commands: tuple[str, ...] = (
        (owner, f'sudo apt-get remove --purge "$({owner} | cut -d: -f1)"')
        if m is not None and m.packager == "apt"
        else (f"ls -l {foreign_libcuda} {WSL_LIB_DIR}/libcuda.so.1",)
    )
    return Fix(text, (*commands, "wsl --shutdown  # in Windows PowerShell"))


def gpu_access_blocked_fix(wsl: bool, m: Optional[Machine] = None) -> Fix:
    """NVML's ``GPU access blocked by the operating system``: under WSL 2 (``wsl``: the log
    shows it), WSL's own fix (given ``m``, the derived machine, it names a Linux driver's
    libcuda loaded in place of WSL's); elsewhere the same refusal comes from a Hyper-V guest
    given the GPU by partition (GPU-P, the paravirtualised device WSL 2 uses too) or a container
    without the GPU's device nodes, so the fix says how to tell them apart and mends each.
    WSL's tracker (microsoft/WSL issues 9938, 12859), GPU-P guests (staralt/dxgkrnl-dkms
    issue 7: the host driver's files not copied in) and containers (nvidia-container-toolkit's
    no-cgroups, WSL issue 9938) report the same words.
    https://learn.microsoft.com/powershell/module/hyper-v/add-vmgpupartitionadapter
    https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html"""
    if wsl:
        return wsl_gpu_fix(m)
    return Fix(
        "The system NVML runs on refuses it the GPU, not a driver it can load. See which GPU "
        "device it has: /dev/dxg is a paravirtualised GPU (WSL 2, or a Hyper-V guest given a "
        "GPU partition), /dev/nvidia* a GPU given to a container. Under WSL 2, update WSL and "
        "the Windows driver; in a Hyper-V guest, give the VM its GPU partition from the host "
        "and copy the host driver's files into the guest's /usr/lib/wsl; in a container, "
        "start it with the GPU (--gpus all, through the NVIDIA Container Toolkit) rather than "
        "with nvidia-smi mounted alone.",
        (
            "ls -l /dev/dxg /dev/nvidia*",
            "wsl --update  # under WSL 2, in Windows PowerShell",
            "Get-VMGpuPartitionAdapter -VMName VM  # Hyper-V guest, on the host; "
            "Add-VMGpuPartitionAdapter -VMName VM where none",
            "docker run --rm --gpus all IMAGE nvidia-smi  # container",
        ),
    )


def _wheel_platform_key(tag: str) -> Optional[str]:
    """The matrix's platform key of a wheel's platform tag (``win_amd64`` ->
    ``windows-x86_64``, ``macosx_10_11_x86_64`` -> ``macos-x86_64``), or None."""
    system = (
        "windows"
        if tag.startswith("win")
        else "macos"
        if tag.startswith("macosx_")
        else "linux"
        if "linux" in tag
        else None
    )
    arch = next(
        (
            key
            for key, words in (
                ("x86_64", ("amd64", "x86_64")),
                ("aarch64", ("aarch64",)),
                ("arm64", ("arm64",)),
            )
            if any(tag.endswith(w) for w in words)
        ),
        None,
    )
    if system is None or arch is None:
        return None
    # Apple silicon is the matrix's macos-arm64, and Linux ARM64 its linux-aarch64.
    return f"{system}-{arch}"


def missing_wheel_fix(
    m: Machine, file: str, dist: str, version: str, python: Optional[str], platform: str
) -> Fix:
    """The address of a wheel file answered 404 Not Found: that release published no wheel
    for the file name's Python and platform. The releases of its line that did (the matrix's
    wheels, for TensorFlow's own distributions), else where to look them up."""
    needs = f"CPython {python}" if python else "this interpreter"
    said = (
        f"{file} does not exist at that address (404 Not Found): {dist} {version} published "
        f"no wheel for {needs} on {platform}"
    )
    key = _wheel_platform_key(platform)
    line = ".".join(version.split(".")[:2])
    others: list[str] = []
    if m.matrix is not None and python and key and dist in _MATRIX_DISTS:
        # The line's own releases first (its patches' rows, then its latest patch).
        rows = [r for r in m.matrix.early_releases if r.release.startswith(f"{line}.")]
        others = [r.release for r in rows if python in r.python.get(key, ())]
        whole = next((x for x in m.matrix.lines if x.line == line), None)
        if whole is not None and python in whole.python.get(key, ()):
            others.append(whole.latest_patch)
    others = sorted(set(others) - {version}, key=version_key)
    if others:
        newest = others[-1]
        return install_fix(
            m,
            f"{said}; {dist} {newest} of the same {line} line did (from the matrix). Install "
            f"it by name and version, so pip picks the wheel for this interpreter from the "
            f"index, instead of a file address written for {version}.",
            f"{dist}=={newest}",
        )
    return Fix(
        f"{said}. Install by name and version (`pip install {dist}==X.Y.Z`) a release whose "
        f"files include a wheel for {needs} on {platform} (`pip index versions {dist}` lists "
        "the releases pip can install here; `tfdoctor matrix` each TensorFlow release's "
        "Pythons), instead of a file address written for one release.",
        (INTERPRETER_CHECK, *m.list_releases(dist)),
    )


def syntax_python_fix(
    m: Machine, python: Optional[str], release: str, syntax: str, package: Optional[str]
) -> Fix:
    """Code using ``syntax``, which Python ``release`` added, compiled by Python ``python``
    (None where the log does not show it, only that it is older than ``release``):
    an environment of a Python at least ``release`` (the oldest such one the TensorFlow line
    the log shows publishes wheels for, where the matrix knows it, so TensorFlow installs
    there too), or a release of ``package`` (where a package's file holds it) that still
    supports this Python."""
    this = f"Python {python}" if python else f"a Python before {release}"
    older = (
        f"or install a release of {package} that still supports {this} (its "
        f"changelog or PyPI page says which; `pip index versions {package}` lists them)"
        if package
        else "or change the line to syntax this Python has"
    )
    line = m.line
    served = (
        [p for p in line.pythons_on() if version_key(p) >= version_key(release)]
        if line is not None
        else []
    )
    if line is not None and served:
        target = served[0]
        where = (
            f"create an environment with Python {target} (the oldest Python from {release} on "
            f"that TensorFlow {line.line} publishes wheels for) and install there"
        )
    else:
        target = release
        where = (
            f"create an environment with Python {release} or newer (one your TensorFlow "
            "release publishes wheels for: `tfdoctor matrix` lists them) and install there"
        )
    return Fix(
        f"The code uses {syntax}, which Python {release} added, and this is {this}: "
        f"{where}, {older}.",
        ("python --version", f"python{target} -m venv .venv"),
    )


def typing_python_fix(python: Optional[str]) -> Fix:
    """Typing the interpreter's ``typing`` module refuses, written by code for a newer Python:
    a Python whose typing accepts it (3.10 or newer), in an environment of its own."""
    shown = f"This Python {python}" if python else "This Python"
    return Fix(
        f"{shown} is older than the code that raised it was written for: its typing module "
        "refuses a Callable with an ellipsis among its argument types, which Python 3.10 "
        "and later (and 3.9 from 3.9.2) accept. Create an environment with Python 3.10 or "
        "newer and install the package there; or install a release of the package that still "
        "supports this Python.",
        ("python --version", "python3.10 -m venv .venv"),
    )
