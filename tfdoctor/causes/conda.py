"""Causes in a conda environment: its CUDA toolkit beside TensorFlow's build, and the
environment files and system requirements conda's and pixi's solvers refuse."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, Optional

from tfdoctor.causes.base import Cause, CauseId, define
from tfdoctor.causes.common import TF_PIP_GUIDE, install_fix
from tfdoctor.causes.platform import metal_missing_fix
from tfdoctor.cuda_layout import conda_cudatoolkit_end
from tfdoctor.evidence.conda import CONDA_TENSORFLOW
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine
from tfdoctor.matrix import TFLine, version_key

#: The ids of this area's causes, as checks, explain and scan name them.
CONDA_CUDA_MISMATCH: Final = CauseId("conda-cuda-mismatch")
CONDA_ENV_FILE_OTHER_PLATFORM: Final = CauseId("conda-env-file-other-platform")
CONDA_PACKAGE_PYPI_ONLY: Final = CauseId("conda-package-pypi-only")
CONDA_VIRTUAL_PACKAGE_MISMATCH: Final = CauseId("conda-virtual-package-mismatch")
CONDA_SHELL_NOT_INITIALISED: Final = CauseId("conda-shell-not-initialised")
CONDA_CUDA_UNDETECTED: Final = CauseId("conda-cuda-undetected")
CONDA_ENV_NOT_FOUND: Final = CauseId("conda-env-not-found")
PIXI_PLATFORM_NOT_CONFIGURED: Final = CauseId("pixi-platform-not-configured")

#: conda's guide to environment files: ``conda env export --from-history`` writes only the
#: packages asked for, without the exact builds of one platform; a ``pip:`` section installs
#: from PyPI.
CONDA_ENV_GUIDE = (
    "https://docs.conda.io/projects/conda/en/latest/user-guide/tasks/manage-environments.html"
)
#: conda's virtual packages (__cuda, __glibc, __osx) and the CONDA_OVERRIDE_* variables.
CONDA_VIRTUAL_GUIDE = (
    "https://docs.conda.io/projects/conda/en/latest/user-guide/tasks/manage-virtual.html"
)
#: conda's guide to activation and `conda init`, the shell hook activate needs.
CONDA_ACTIVATION_GUIDE = (
    "https://docs.conda.io/projects/conda/en/latest/dev-guide/deep-dives/activation.html"
)
#: conda's change that made its CUDA detection find WSL 2's libcuda (/usr/lib/wsl/lib),
#: first released in conda 4.14.0.
CONDA_WSL_DETECTION = "https://github.com/conda/conda/pull/11626"
#: The first conda release whose CUDA detection searches WSL 2's driver directory.
CONDA_WSL_CUDA_RELEASE = "4.14.0"
#: pixi's manifest reference: the platforms a workspace is solved for.
PIXI_PLATFORMS = "https://pixi.prefix.dev/latest/reference/pixi_manifest/#platforms"
#: pixi's system requirements: the virtual packages a workspace declares it runs on.
PIXI_SYSTEM_REQUIREMENTS = "https://pixi.prefix.dev/latest/workspace/system_requirements/"

#: Causes in the conda environment's CUDA.
CAUSES: Mapping[str, Cause] = dict(
    (
        define(
            CONDA_CUDA_MISMATCH,
            "conda's CUDA is not the CUDA TensorFlow was built for",
            "The conda environment's CUDA packages are of another major version than "
            "TensorFlow's build; their libraries come first once the environment is active "
            "and do not serve it.",
            TF_PIP_GUIDE,
        ),
        define(
            CONDA_ENV_FILE_OTHER_PLATFORM,
            "The conda environment file was exported on another platform",
            "`conda env export` writes every package of an environment with its exact build "
            "(name=version=build), including the packages only its platform has (Linux's "
            "libgcc-ng and libstdcxx-ng, Windows' vc and vs2015_runtime); another platform's "
            "channels have none of those builds, so conda stops with ResolvePackageNotFound "
            "before installing anything.",
            CONDA_ENV_GUIDE,
        ),
        define(
            CONDA_PACKAGE_PYPI_ONLY,
            "A package the environment file asks conda for is published on PyPI only",
            "TensorFlow's companion packages (tensorflow-addons, tensorflow-metadata, "
            "tensorflow-io, ...) are published on PyPI; conda's channels carry few of them or "
            "none of their older releases, so an environment file listing them among conda's "
            "dependencies stops with ResolvePackageNotFound. Under the file's pip: section pip "
            "installs them from PyPI.",
            CONDA_ENV_GUIDE,
        ),
        define(
            CONDA_VIRTUAL_PACKAGE_MISMATCH,
            "The solver's view of the system is below what a package needs",
            "conda, mamba and pixi solve against virtual packages that stand for the system: "
            "__cuda (the CUDA version the NVIDIA driver supports), __glibc and __osx (the C "
            "library's and macOS' versions). conda detects them on the machine that solves (a "
            "login node or an image build has no driver: no __cuda); pixi takes them from the "
            "workspace's [system-requirements], with low defaults. Builds that need more are "
            "refused, whatever the machine that runs the code has; CONDA_OVERRIDE_CUDA, "
            "CONDA_OVERRIDE_GLIBC and CONDA_OVERRIDE_OSX, or pixi's system requirements, say "
            "what it has.",
            CONDA_VIRTUAL_GUIDE,
            PIXI_SYSTEM_REQUIREMENTS,
        ),
        define(
            CONDA_SHELL_NOT_INITIALISED,
            "conda's (or mamba's) activate ran in a shell without its hook",
            "`conda activate` (`mamba activate`, `micromamba activate`) is a shell function "
            "that `conda init` (`mamba shell init`) writes into the shell's start-up file; a "
            "shell that has not read it (never initialised, not restarted since, or a script "
            "or job's non-interactive shell) runs the program instead, which cannot change its "
            "parent shell and refuses. The environment stays inactive, and the commands after "
            "it (pip install, python) run in whichever Python comes first on PATH.",
            CONDA_ACTIVATION_GUIDE,
        ),
        define(
            CONDA_CUDA_UNDETECTED,
            "conda does not detect the NVIDIA driver: it lists no __cuda",
            "conda detects __cuda by loading the driver's libcuda, from the loader's path and "
            "a few fixed directories (WSL 2's /usr/lib/wsl/lib only from conda 4.14.0 on), and "
            "asking it for the CUDA version it supports. Where it finds none, it lists no "
            "__cuda: CUDA builds (tensorflow's cuda* builds, tensorflow-gpu) are refused or CPU "
            "builds chosen, although the driver runs CUDA.",
            CONDA_VIRTUAL_GUIDE,
            CONDA_WSL_DETECTION,
        ),
        define(
            CONDA_ENV_NOT_FOUND,
            "The conda environment a command names does not exist for this conda",
            "conda finds an environment by name in its own envs directories (its envs_dirs); "
            "an environment never created, created under another conda installation, or "
            "created by path (-p) is not found by name, and the command (activate, install, "
            "run) fails: nothing after it runs in that environment.",
            CONDA_ENV_GUIDE,
        ),
        define(
            PIXI_PLATFORM_NOT_CONFIGURED,
            "The pixi workspace does not list the platform it runs on",
            "pixi solves and locks a workspace for the platforms its manifest lists "
            "(`platforms = [...]`); on a machine whose platform (linux-64, osx-arm64, win-64) "
            "is not among them it installs nothing. The platform is added to the manifest, "
            "and the lock file solved for it.",
            PIXI_PLATFORMS,
        ),
    )
)


def conda_libraries_fix(m: Machine, line: Optional[TFLine], replace: bool = False) -> Fix:
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
        m.conda_install(*pkgs.split(), channel="conda-forge"),
    )


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
            (*m.conda_remove(toolkit), *m.pip_install(spec)),
        )
    return conda_libraries_fix(m, m.line, replace=True)


def conda_python_fix(
    dist: str, version: str, python: str, pythons: Sequence[str], whose: str
) -> Fix:
    """conda has no build of ``dist`` ``version`` (of any release where ``version`` is empty)
    for the environment's Python ``python``: a new environment with the newest Python 3 of
    ``pythons`` (what ``whose`` says they are), or another release (pip's wheels where no
    release has a conda build for this Python)."""
    release = f"{dist} {version}".rstrip()
    newest = next((p for p in reversed(pythons) if p.startswith("3.")), None)
    listed = f"; {whose} Python {', '.join(pythons)}" if pythons else ""
    other = (
        f"or install a release built for Python {python} instead"
        if version
        else "or install TensorFlow with pip inside the environment, whose wheels may cover "
        "this Python (`tfdoctor matrix` lists each release's Pythons)"
    )
    if newest is None:
        return Fix(
            f"conda has no build of {release} for Python {python}{listed}: create an "
            f"environment with a Python it was built for (`conda search` lists its builds), "
            f"{other}.",
            (f"conda search {dist}" + (f"={version}" if version else ""),),
        )
    env = f"tf{version.replace('.', '')}"
    spec = f"{dist}={version}" if version else dist
    return Fix(
        f"conda has no build of {release} for Python {python}{listed}. Create an environment "
        f"with Python {newest} for it, {other}.",
        (f"conda create -n {env} python={newest} {spec}", f"conda activate {env}"),
    )


#: The script conda runs as an environment is activated (conda's activate.d hook), and the
#: lines TensorFlow's pip install guide for 2.9-2.14 wrote into it so that TensorFlow finds the
#: CUDA libraries conda installed in the environment's lib directory, which the loader does not
#: search (tensorflow/docs site/en/install/pip.md; tensorflow/docs#2214 for 2.12).
CONDA_ACTIVATE_SCRIPT = "$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh"
CONDA_LIB_ON_PATH: tuple[str, ...] = (
    "mkdir -p $CONDA_PREFIX/etc/conda/activate.d",
    "echo 'export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/' >> " + CONDA_ACTIVATE_SCRIPT,
    "source " + CONDA_ACTIVATE_SCRIPT,
)
TF_PIP_GUIDE_CONDA = "https://github.com/tensorflow/docs/pull/2214"


def conda_env_install_fix(m: Machine, major: Optional[str] = None) -> Fix:
    """conda's CUDA and cuDNN into the active environment, of the build's release where known
    (else of the CUDA major the library TensorFlow asked for names)."""
    if m.build_cuda is not None or m.line is not None:
        return conda_libraries_fix(m, m.line)
    major = m.build_cuda_major or major
    spec = f"cudatoolkit={major} cudnn" if major else "cudatoolkit cudnn"
    what = f"the CUDA {major}" if major else "the CUDA"
    return Fix(
        f"Install {what} toolkit and cuDNN into this conda environment (`tfdoctor matrix` "
        "names the releases this TensorFlow was built with).",
        m.conda_install(*spec.split(), channel="conda-forge"),
    )


def channel_build_fix(m: Machine) -> Fix:
    """The channels have no build of the requested TensorFlow for this platform and Python."""
    return Fix(
        "The conda channels searched have no build of that TensorFlow for this platform and "
        "Python (conda-forge builds only some releases per platform; the defaults channel's "
        "are old): list the builds there are, and pick one of them, add the channel that has "
        "one, or create the environment with a Python the release has builds for; or install "
        "TensorFlow with pip inside the conda environment (PyPI's wheels cover more "
        "releases).",
        (
            "conda search -c conda-forge tensorflow",
            *m.pip("install tensorflow"),
        ),
    )


def cudatoolkit_never_made(version: str) -> Optional[tuple[int, str, tuple[str, ...]]]:
    """(the last CUDA major conda's ``cudatoolkit`` was made for, the package that pins a
    CUDA release after it, the URLs that say so) where ``version``, a cudatoolkit release
    asked of conda, is of a later major: no channel has it. None otherwise."""
    end = conda_cudatoolkit_end()
    major = re.match(r"\d+", version)
    if end is None or major is None or int(major.group()) <= end[0]:
        return None
    return end


#: conda-forge's CUDA 12 packages: `cuda-runtime`, the metapackage of the runtime libraries
#: (its `cuda` metapackage requires it and `cuda-toolkit`), every package held to one release
#: by `cuda-version` (https://github.com/conda-forge/cuda-feedstock/blob/main/recipe/README.md),
#: which "is versioned only by the MAJOR.MINOR of a release label" (the same README): a
#: request for 12.1.1 matches no cuda-version, 12.1 does. The `cuda` metapackage requires
#: `__linux` or `__win` (recipe/meta.yaml): the packages are built for those platforms only.
_CUDA_VERSION_RELEASE: Final = re.compile(r"\d+(?:\.\d+)?")
_CUDA_PACKAGE_PLATFORMS: Final = ("linux-", "win-")


def cuda_after_cudatoolkit_fix(m: Machine, cuda: str, successor: str, platform: str = "") -> Fix:
    """CUDA ``cuda`` (a major after the last conda's ``cudatoolkit`` was made for) from the
    packages that replaced it, held to that release (its MAJOR.MINOR) by ``successor``
    (``cuda-version``), or, for TensorFlow, the CUDA wheels pip installs with it. Where conda
    solved for a ``platform`` those packages are not built for (macOS), no CUDA release runs
    there: TensorFlow reaches a Mac's GPU through tensorflow-metal."""
    if platform and not platform.startswith(_CUDA_PACKAGE_PLATFORMS):
        metal = metal_missing_fix(m)
        return Fix(
            f"conda's CUDA packages are built for Linux and Windows only, and no CUDA release "
            f"runs on {platform}: drop the CUDA packages from the request. {metal.text}",
            metal.commands,
        )
    found = _CUDA_VERSION_RELEASE.match(cuda)
    release = found.group() if found is not None else cuda
    return Fix(
        f"Ask conda for CUDA {release} under the names it has now: the CUDA packages "
        f"(cuda-runtime for the runtime libraries) held to that release by {successor}, and "
        "cuDNN beside them. For TensorFlow on Linux, pip's `tensorflow[and-cuda]` installs "
        "the CUDA and cuDNN libraries its build was made for as wheels, and TensorFlow finds "
        "them without a conda CUDA.",
        (
            *m.conda_install(
                f"{successor}={release}", "cuda-runtime", "cudnn", channel="conda-forge"
            ),
            *m.pip_install("tensorflow[and-cuda]"),
        ),
    )


# --- environment files and system requirements ---------------------------------------------

#: Packages that exist for one platform only, with that platform: an environment file that
#: lists them with exact builds was exported there. Linux: the GCC runtime conda's Linux
#: builds link (libgcc-ng, libstdcxx-ng, libgomp, libgfortran-ng, _libgcc_mutex) and its
#: linker (ld_impl_linux-64); Windows: the Visual C++ runtimes (vc, vs2015_runtime,
#: vc14_runtime, ucrt) and Windows-only Python packages (wincertstore, pywin32, pywinpty,
#: winpty, win_inet_pton). Names read from the repodata of defaults' and conda-forge's
#: linux-64 and win-64 subdirectories (https://repo.anaconda.com/pkgs/main/).
PLATFORM_ONLY_PACKAGES: Mapping[str, str] = {
    "libgcc-ng": "Linux",
    "libstdcxx-ng": "Linux",
    "libgomp": "Linux",
    "libgfortran-ng": "Linux",
    "_libgcc_mutex": "Linux",
    "ld_impl_linux-64": "Linux",
    "ld_impl_linux-aarch64": "Linux",
    "vc": "Windows",
    "vs2015_runtime": "Windows",
    "vs2017_runtime": "Windows",
    "vc14_runtime": "Windows",
    "ucrt": "Windows",
    "wincertstore": "Windows",
    "pywin32": "Windows",
    "pywinpty": "Windows",
    "winpty": "Windows",
    "win_inet_pton": "Windows",
}
#: Name prefixes of Windows-only packages (MSYS2's and MinGW-w64's builds for Windows).
_WINDOWS_PREFIXES = ("m2w64-", "m2-", "msys2-")

#: Packages every platform's channels carry: an exact build of one of them not found is a
#: build of another platform (or subdirectory), not a package the channels lack.
EVERY_PLATFORM_PACKAGES = frozenset(
    {"python", "openssl", "zlib", "xz", "sqlite", "tk", "pip", "setuptools", "wheel",
     "ca-certificates", "certifi", "libffi", "bzip2"}
)  # fmt: skip

#: conda's own TensorFlow packages (defaults' builds and their metapackages), and Apple's
#: tensorflow-deps, a conda package of its own channel for Apple silicon only
#: (https://developer.apple.com/metal/tensorflow-plugin/: `conda install -c apple
#: tensorflow-deps`): conda carries them, so not finding one is about a release, a channel or
#: a platform, never "PyPI only".
_CONDA_TF_PACKAGES = frozenset(
    {*CONDA_TENSORFLOW, "tensorflow-mkl", "tensorflow-eigen", "tensorflow-estimator",
     "_tflow_select", "tensorflow-deps"}
)  # fmt: skip


def platform_of(name: str) -> Optional[str]:
    """The one platform the conda package ``name`` exists for, None where it is not known to
    be a single platform's."""
    if name in PLATFORM_ONLY_PACKAGES:
        return PLATFORM_ONLY_PACKAGES[name]
    if name.startswith(_WINDOWS_PREFIXES):
        return "Windows"
    return None


def pypi_companion(name: str, version: str) -> bool:
    """Whether ``name`` is one of TensorFlow's companion packages published on PyPI (a
    ``tensorflow-*`` or ``tf-*`` distribution other than conda's own TensorFlow builds, or one
    tfdoctor's wheel index holds), and, where the index knows its releases, ``version`` is one
    of them: then pip can install the release conda did not find."""
    from tfdoctor.wheel_index import releases_of  # noqa: PLC0415 - the index loads lazily

    if name in _CONDA_TF_PACKAGES:
        return False
    releases = releases_of(name)
    if releases:
        return not version or any(
            r.version == version or r.version.startswith(version + ".") for r in releases
        )
    return name.startswith(("tensorflow-", "tf-"))


def _pip_spec(name: str, version: str) -> str:
    """conda's ``name=version`` as pip's requirement."""
    return f"{name}=={version}" if version else name


#: conda's CUDA packages: built for Linux and Windows only (NVIDIA ships no CUDA for macOS
#: since CUDA 10.2, https://docs.nvidia.com/cuda/archive/10.2/cuda-toolkit-release-notes/).
CUDA_PACKAGES = frozenset({"cudatoolkit", "cudnn", "cuda-toolkit", "cuda-runtime", "cuda-nvcc"})


def _without_builds(file: str, drop: Sequence[str] = ()) -> tuple[str, str]:
    """The command that writes ``file`` without its specs' build strings (``name=1.2=h0_3``
    becomes ``name=1.2``) and without the packages ``drop``, and the file it writes: pip's
    section and every other line stay as they are."""
    names = "|".join(n.replace(".", "\\.") for n in drop)
    delete = (
        f" -e '/^[[:space:]]*-[[:space:]]*([^[:space:]:]+::)?({names})([=<>[:space:]]|$)/d'"
        if drop
        else ""
    )
    stripped = file.rsplit(".", 1)[0] + "-nobuilds.yml"
    return (
        f"sed -E -e 's/^([[:space:]]*-[[:space:]]*[^=#[:space:]]+=[^=[:space:]]+)=[^[:space:]]+"
        f"[[:space:]]*$/\\1/'{delete} {file} > {stripped}",
        stripped,
    )


def env_file_other_platform_fix(
    platform_only: Sequence[str], file: str, mac_cuda: Sequence[str] = ()
) -> Fix:
    """An environment file with another platform's exact builds: its dependencies only
    (``mac_cuda``: CUDA packages the file lists where the log shows a Mac, which no Mac
    build serves: TensorFlow for macOS from pip instead)."""
    command, stripped = _without_builds(file, platform_only)
    which = (
        f" and {', '.join(platform_only)} (packages of another platform)" if platform_only else ""
    )
    return Fix(
        "The file pins the exact builds of the platform it was exported on: recreate it on that "
        "machine with only the packages that were asked for (`conda env export "
        "--from-history`), or drop the build strings" + which + " from it here and let conda "
        "pick this platform's builds; a file the project made for this platform, where it has "
        "one, serves as well."
        + (
            f" On a Mac, {', '.join(mac_cuda)} (CUDA) have no build at all: leave them and the "
            "GPU TensorFlow out, and install TensorFlow for macOS with pip in the environment "
            "(tensorflow-macos for 2.12 and older, tensorflow from 2.13; tensorflow-metal for "
            "the Mac's GPU)."
            if mac_cuda
            else ""
        ),
        (command, f"conda env create -f {stripped}"),
    )


def pypi_only_fix(specs: Sequence[tuple[str, str]], file: str, builds: bool = False) -> Fix:
    """Packages conda's channels lack, moved to the environment file's pip: section
    (``builds``: conda did not find exact builds too, which come out of the file as well, or
    its next solve refuses them)."""
    names = "|".join(n.replace(".", "\\.") for n, _ in specs)
    reqs = " ".join(_pip_spec(n, v) for n, v in specs)
    listed = ", ".join(f"{n}={v}" if v else n for n, v in specs)
    if builds:
        strip, created = _without_builds(file, [n for n, _ in specs])
    else:
        strip = (
            "sed -i.bak -E '/^[[:space:]]*-[[:space:]]*([^[:space:]:]+::)?"
            f"({names})([=<>[:space:]]|$)/d' {file}"
        )
        created = file
    return Fix(
        f"{listed}: published on PyPI, not in the conda channels the file uses. Move them from "
        "the file's conda dependencies to its pip: section (add `- pip` to the dependencies, "
        f"then `- pip:` with `- {_pip_spec(*specs[0])}` ...), or remove them from the file and "
        "install them with pip once the environment exists, in it."
        + (
            " The file also pins exact builds conda did not find (another machine's): drop "
            "the build strings too and let conda pick this platform's."
            if builds
            else ""
        ),
        (
            strip,
            f"conda env create -f {created}",
            # The environment the file names (its name: field), active for pip.
            f"conda activate \"$(sed -n 's/^name:[[:space:]]*//p' {created})\"",
            f"python -m pip install {reqs}",
        ),
    )


def pypi_only_request_fix(specs: Sequence[tuple[str, str]]) -> Fix:
    """Packages a ``conda install`` asked for that its channels lack: pip in the same
    environment installs them from PyPI, where they are built against PyPI's TensorFlow."""
    reqs = " ".join(_pip_spec(n, v) for n, v in specs)
    listed = ", ".join(f"{n}={v}" if v else n for n, v in specs)
    return Fix(
        f"{listed}: published on PyPI, not in the conda channels searched. Install them with "
        "the pip of the conda environment (activated, `python -m pip`), after TensorFlow; "
        "they are built against PyPI's TensorFlow of their release, so where the environment's "
        "TensorFlow came from conda, install that TensorFlow release with pip too (the first "
        "command shows which is there).",
        ("conda list tensorflow", f"python -m pip install {reqs}"),
    )


#: Each virtual package: what stands for it, the override variable conda reads, pixi's
#: system-requirements key, the command that shows what this machine has, and a shell
#: expression that prints this machine's value alone.
VIRTUAL_PACKAGES: Mapping[str, tuple[str, str, str, str, str]] = {
    # nvidia-smi's banner: "| NVIDIA-SMI 535.54.03  Driver Version: 535.54.03  CUDA Version:
    # 12.2 |"; empty where no driver answers, which conda reads as no CUDA at all.
    "__cuda": ("the CUDA version the NVIDIA driver supports", "CONDA_OVERRIDE_CUDA", "cuda",
               "nvidia-smi",
               "nvidia-smi | sed -n 's/.*CUDA Version: *\\([0-9.]*\\).*/\\1/p' | head -n 1"),
    "__osx": ("the macOS release", "CONDA_OVERRIDE_OSX", "macos", "sw_vers -productVersion",
              "sw_vers -productVersion"),
    # glibc's ldd ends its first line with the release: "ldd (GNU libc) 2.36",
    # "ldd (Ubuntu GLIBC 2.35-0ubuntu3.1) 2.35".
    "__glibc": ("the C library's version", "CONDA_OVERRIDE_GLIBC", "libc", "ldd --version",
                "ldd --version | head -n 1 | awk '{print $NF}'"),
}  # fmt: skip


def conda_cuda_below_fix(seen: str, floor: str, driver: Optional[str]) -> Fix:
    """conda's ``__cuda`` read from this machine's driver (``seen``) below the CUDA ``floor``
    the builds need: the driver is what must change (``driver``: the oldest one for that CUDA
    by NVIDIA's tables, where known), or the builds; declaring the version this machine has
    changes nothing, since conda read it from the same driver."""
    newer = f" ({driver} or newer, by NVIDIA's tables)" if driver else ""
    return Fix(
        f"conda reads __cuda from the NVIDIA driver of the machine it solves on: that driver "
        f"supports CUDA {seen}, and the builds need {floor} or newer. Upgrade the driver to one "
        f"that supports CUDA {floor}{newer}, or install builds for CUDA {seen} or older. Where "
        "this machine is not the one that runs the code (a login node whose driver is older "
        "than the GPU machines'), export CONDA_OVERRIDE_CUDA set to the CUDA Version the GPU "
        "machines' `nvidia-smi` shows before conda solves.",
        ("nvidia-smi",),
    )


def override_export(package: str, windows: bool = False) -> tuple[str, ...]:
    """The commands that declare this machine's own value of the virtual ``package`` to conda
    (``export CONDA_OVERRIDE_CUDA=...``), read from the machine; ``windows``: conda runs on
    Windows, where cmd sets a variable with ``set`` and PowerShell with ``$env:`` (``export``
    and sh's command substitution are neither's), the value the one ``nvidia-smi`` shows."""
    _, variable, _, _, reading = VIRTUAL_PACKAGES[package]
    if windows:
        # Only __cuda applies on Windows (__osx and __glibc are macOS's and Linux's).
        return (f"set {variable}=X.Y", f'$env:{variable} = "X.Y"')
    # The value is the machine's own, which only it can say: the floor the builds ask for is
    # never declared for it (a machine below the floor would get builds it cannot run), so
    # the command reads the machine's value, and the solver then says whether it is enough.
    if package != "__cuda":
        return (f'export {variable}="$({reading})"',)
    # Where no driver answers (a login node, an image build) the reading is empty, and an
    # empty override tells conda there is no CUDA at all: only a value is exported, and an
    # empty reading says which value to set instead.
    return (
        f'cuda="$({reading})"; if [ -n "$cuda" ]; then export {variable}="$cuda"; '
        f'else echo "No NVIDIA driver answers here: export {variable} set to the CUDA '
        f'Version that nvidia-smi shows on the GPU machines" >&2; fi',
    )


def virtual_package_fix(package: str, floor: str, pixi: bool, windows: bool = False) -> Fix:
    """Declare the system a package's builds need (``floor``: the version they ask for, empty
    where not shown), where the machine that runs the code has it (``pixi``: the log is
    pixi's, whose system requirements say what the machine has; ``windows``: conda runs on
    Windows, whose shells set the variable with ``set`` and ``$env:``)."""
    what, variable, key, probe, _ = VIRTUAL_PACKAGES[package]
    value = floor or "X.Y"
    declare = (
        f'{key} = "{value}" in pixi.toml\'s [system-requirements] table'
        if pixi
        else f"{variable} to the version this machine has before conda solves"
    ) + (
        f", X.Y being the version `{probe}` shows"
        if (pixi and not floor) or (windows and not pixi)
        else ""
    )
    lacks = {
        "__cuda": "a machine without an NVIDIA GPU and driver needs CPU builds instead",
        "__osx": "an older Mac needs a macOS update or an older release of the package",
        "__glibc": "an older system needs an older release of the package (or a newer system)",
    }[package]
    where = (
        "; a login node or an image build has no driver: there, set it to what the GPU "
        "machines' `nvidia-smi` shows"
        if package == "__cuda"
        else ""
    )
    commands: tuple[str, ...] = (
        (probe, "pixi install") if pixi else (probe, *override_export(package, windows))
    )
    return Fix(
        f"The solver does not see {what}{' ' + floor + ' or newer' if floor else ''} that the "
        f"builds need ({package}). Where the machine that runs the code has it (`{probe}` shows "
        f"it{where}), declare it: {declare}. "
        + (f"Below {floor}, no declaration helps: " if floor else "Where it lacks it, ")
        + f"{lacks}.",
        commands,
    )


#: The shell a system opens by default, where the log shows the system: PowerShell in Windows'
#: terminal, zsh in macOS's since 10.15 (a bash start-up file is one zsh never reads); bash
#: elsewhere.
_DEFAULT_SHELL = {"windows": "powershell", "macos": "zsh"}


def conda_shell_fix(tool: str, os: Optional[str] = None) -> Fix:
    """Give the shell ``tool``'s hook (conda, mamba, micromamba) before activating: once for
    every new shell (its init command), or in this shell or script (its hook), or run the
    command in the environment without activating it; for the default shell of the ``os`` the
    log shows (bash where it shows none)."""
    shell = _DEFAULT_SHELL.get(os or "", "bash")
    if tool == "conda":
        hook = (
            ()
            if shell == "powershell"
            else ('source "$(conda info --base)/etc/profile.d/conda.sh"',)
        )
        return Fix(
            f"Initialise the shell for conda once (`conda init {shell}`, or bash, zsh, fish, "
            "tcsh, powershell, cmd.exe: the shell you use), open a new shell, then activate. In "
            "a script or a job, load conda's hook before `conda activate`, or run the command "
            "in the environment with `conda run -n ENV COMMAND`.",
            (f"conda init {shell}", *hook),
        )
    hook_command = (
        f"{tool} shell hook --shell powershell | Out-String | Invoke-Expression"
        if shell == "powershell"
        else f'eval "$({tool} shell hook --shell {shell})"'
    )
    return Fix(
        f"Load {tool}'s hook into this shell before `{tool} activate` (in a script, too), or "
        f"write it into the shell's start-up file once with `{tool} shell init` and open a new "
        f"shell; or run the command in the environment with `{tool} run -n ENV COMMAND`.",
        (hook_command, f"{tool} shell init --shell {shell}"),
    )


def conda_cuda_undetected_fix(old_on_wsl: bool, windows: bool = False) -> Fix:
    """conda lists no __cuda on a machine whose driver runs CUDA: a conda that searches WSL's
    driver directory (``old_on_wsl``: this one predates it), or the version declared
    (``windows``: with cmd's and PowerShell's commands)."""
    upgrade = (
        f"This conda predates {CONDA_WSL_CUDA_RELEASE}, the first release that looks for WSL "
        "2's libcuda (/usr/lib/wsl/lib): update conda in the base environment, then check "
        "that `conda info` lists __cuda. Until then (or where it still lists none), "
        if old_on_wsl
        else "Where `conda info` still lists no __cuda (a libcuda outside the directories "
        "conda searches), "
    )
    commands = (f'conda install -n base "conda>={CONDA_WSL_CUDA_RELEASE}"',) if old_on_wsl else ()
    return Fix(
        upgrade + "declare the CUDA version the driver supports (the CUDA Version "
        "`nvidia-smi` shows) in CONDA_OVERRIDE_CUDA before conda solves"
        + (", X.Y being that version." if windows else "."),
        (*commands, "nvidia-smi", *override_export("__cuda", windows), "conda info"),
    )


def conda_env_missing_fix(name: Optional[str]) -> Fix:
    """The environment ``name`` (where the log shows it) is not one this conda knows: list the
    ones it knows, create it, or name it by its path."""
    env = name or "NAME"
    return Fix(
        f"conda knows no environment named {env!r}: `conda env list` lists the ones it finds "
        "(the name is the folder under an envs directory). Create it "
        f"(conda create -n {env} python=X.Y, then install into it), or name an environment "
        "created elsewhere by its path (conda activate /path/to/env), with the conda that "
        "created it.",
        ("conda env list", f"conda create -n {env} python"),
    )


#: The pixi release that added ``pixi project platform add``
#: (https://github.com/prefix-dev/pixi/tree/v0.11.0/src/cli/project/platform). The error that
#: names an unlisted platform was printed up to pixi 0.12, before the command was renamed
#: ``pixi workspace`` (0.43.0): the pixi that printed it knows ``project``.
PIXI_PLATFORM_ADD_RELEASE = "0.11.0"


def pixi_platform_fix(platform: Optional[str]) -> Fix:
    """Add the machine's ``platform`` (where pixi names it) to the workspace's platforms, with
    the command of the pixi that printed the error (``project``: the error predates pixi's
    rename to ``workspace``), or in the manifest by hand where that pixi lacks the command."""
    tag = platform or "PLATFORM"
    return Fix(
        f"Add this machine's platform ({tag}) to the manifest's platforms, then install: pixi "
        "solves the lock file for it (a dependency without builds for it then says so). A "
        f"pixi older than {PIXI_PLATFORM_ADD_RELEASE} has no `pixi project platform add`: add "
        f'"{tag}" to the `platforms = [...]` list of pixi.toml by hand.',
        (f"pixi project platform add {tag}", "pixi install"),
    )
