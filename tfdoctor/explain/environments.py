"""What explain concludes from a solver's refusal of an environment's description: conda's
ResolvePackageNotFound for an environment file's specs, and pixi's PyPI resolver excluding every
release of a package for the system it was told it runs on.

ResolvePackageNotFound lists the specs conda could not find (conda/exceptions.py); which
cause they show is read from the specs themselves, never guessed: a package only one platform
has (libgcc-ng, vc), or exact builds of packages every platform has, say the file was exported
on another platform; a TensorFlow companion PyPI publishes, asked of conda without a build,
says it belongs under the file's pip: section. Specs that show neither stay unexplained.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.causes.conda import (
    CONDA_CUDA_UNDETECTED,
    CONDA_ENV_FILE_OTHER_PLATFORM,
    CONDA_PACKAGE_PYPI_ONLY,
    CONDA_VIRTUAL_PACKAGE_MISMATCH,
    CONDA_WSL_CUDA_RELEASE,
    CUDA_PACKAGES,
    EVERY_PLATFORM_PACKAGES,
    conda_cuda_undetected_fix,
    env_file_other_platform_fix,
    platform_of,
    pypi_companion,
    pypi_only_fix,
    pypi_only_request_fix,
    virtual_package_fix,
)
from tfdoctor.causes.notebook import KERNEL_INTERPRETER_MISSING, kernelspec_gone_fix
from tfdoctor.evidence.conda import CondaInfo, UnresolvedSpec
from tfdoctor.evidence.traceback import missing_kernel_interpreter
from tfdoctor.findings import Finding, Severity
from tfdoctor.matrix import version_key
from tfdoctor.wheel_index import releases_of

#: The file ``conda env create`` reads when the log does not name one.
DEFAULT_ENV_FILE = "environment.yml"


def _spec_text(spec: UnresolvedSpec) -> str:
    return "=".join(p for p in (spec.name, spec.version, spec.build) if p)


#: The operating systems :func:`tfdoctor.causes.conda.platform_of` names, by the log's word.
_PLATFORM_OF_OS = {"linux": "Linux", "windows": "Windows", "macos": "macOS"}


def other_platform_finding(
    specs: Sequence[UnresolvedSpec], file: str, mac: bool = False, os: Optional[str] = None
) -> Optional[Finding]:
    """Specs of another platform's export: a package only one platform has, or exact builds
    (two or more) among which is a package every platform has (``mac``: the log shows a Mac;
    ``os``: the operating system the log shows, None where it shows none)."""
    # A package of the platform the log runs on is this platform's, whatever else conda
    # did not find (a removed build, another architecture): only a package of a platform
    # other than the one shown says the file was exported elsewhere.
    here = _PLATFORM_OF_OS.get(os or "")
    platform_only = [
        s.name for s in specs if platform_of(s.name) is not None and platform_of(s.name) != here
    ]
    built = [s for s in specs if s.build]
    everywhere = [s for s in built if s.name in EVERY_PLATFORM_PACKAGES]
    if not platform_only and not (len(built) >= 2 and everywhere):
        return None
    shown = [s for s in specs if s.name in platform_only] or everywhere
    why = (
        "; ".join(f"{n} exists for {platform_of(n)} only" for n in platform_only)
        if platform_only
        else f"{len(built)} specs pin exact builds, and conda's channels carry "
        f"{', '.join(s.name for s in everywhere)} for every platform: the builds are another "
        "platform's"
    )
    return causes.finding(
        f"explain.{CONDA_ENV_FILE_OTHER_PLATFORM}",
        Severity.ERROR,
        CONDA_ENV_FILE_OTHER_PLATFORM,
        "The conda environment file pins another platform's builds",
        "ResolvePackageNotFound: "
        + ", ".join(_spec_text(s) for s in shown[:6])
        + f"\n{why}. `conda env export` writes each package's exact build; another platform "
        "has none of them.",
        env_file_other_platform_fix(
            platform_only, file, [s.name for s in specs if mac and s.name in CUDA_PACKAGES]
        ),
    )


def pypi_only_finding(specs: Sequence[UnresolvedSpec], file: str) -> Optional[Finding]:
    """Specs without a build that name TensorFlow companions PyPI publishes."""
    found = [s for s in specs if not s.build and pypi_companion(s.name, s.version)]
    if not found:
        return None
    known = [s.name for s in found if releases_of(s.name)]
    return causes.finding(
        f"explain.{CONDA_PACKAGE_PYPI_ONLY}",
        Severity.ERROR,
        CONDA_PACKAGE_PYPI_ONLY,
        "The environment file asks conda for packages published on PyPI",
        "ResolvePackageNotFound: "
        + ", ".join(_spec_text(s) for s in found)
        + "\nTensorFlow's companion packages are published on PyPI"
        + (f" ({', '.join(known)}: the release is there)" if known else "")
        + "; the conda channels the file names do not carry these releases.",
        pypi_only_fix(
            [(s.name, s.version) for s in found], file, builds=any(s.build for s in specs)
        ),
    )


def pypi_only_request_finding(specs: Sequence[UnresolvedSpec]) -> Optional[Finding]:
    """A ``conda install`` of TensorFlow companions the channels it searched do not carry
    (PackagesNotFoundError), where PyPI publishes them: the wheel index lists their releases
    (a name alone is no proof: Apple's tensorflow-deps is a conda package of its own channel)."""
    found = [
        s
        for s in specs
        if not s.build and releases_of(s.name) and pypi_companion(s.name, s.version)
    ]
    if not found:
        return None
    return causes.finding(
        f"explain.{CONDA_PACKAGE_PYPI_ONLY}",
        Severity.ERROR,
        CONDA_PACKAGE_PYPI_ONLY,
        "conda was asked for packages published on PyPI",
        "PackagesNotFoundError: "
        + ", ".join(_spec_text(s) for s in found)
        + "\nTensorFlow's companion packages are published on PyPI; the conda channels the "
        "command searched do not carry these releases.",
        pypi_only_request_fix([(s.name, s.version) for s in found]),
    )


def macos_wheels_only(dist: str) -> bool:
    """Whether every release of ``dist`` the wheel index knows has macOS wheels only."""
    releases = releases_of(dist)
    return bool(releases) and all(
        r.platforms and all(p.startswith("macos-") for p in r.platforms) for r in releases
    )


def pypi_excluded_finding(excluded: Sequence[str]) -> Optional[Finding]:
    """pixi excluding every release of a package whose wheels are for macOS only: the
    workspace's declared macOS is older than its wheels' tags."""
    dist = next((d for d in excluded if macos_wheels_only(d)), None)
    if dist is None:
        return None
    return causes.finding(
        f"explain.{CONDA_VIRTUAL_PACKAGE_MISMATCH}",
        Severity.ERROR,
        CONDA_VIRTUAL_PACKAGE_MISMATCH,
        f"pixi finds no wheel of {dist} for the macOS the workspace declares",
        f"pixi excluded every release of {dist}: none of the artifacts are compatible with "
        f"the Python interpreter or glibc version.\n{dist} publishes wheels for macOS only, "
        "tagged with the macOS release they need; pixi compares the tags with the workspace's "
        "declared system requirements (its defaults where it declares none), not with the "
        "Mac it runs on.",
        virtual_package_fix("__osx", "", pixi=True),
    )


def cuda_undetected_finding(
    info: Optional[tuple[str, CondaInfo]], driver_shown: bool
) -> Optional[Finding]:
    """``conda info`` listing no __cuda (``info``: where, and what it printed) where the log
    shows an NVIDIA driver (``driver_shown``) or WSL 2 under a conda that predates WSL's
    detection: conda does not see the driver. A machine without either is left alone (no
    __cuda is right where there is no driver)."""
    if info is None or "__cuda" in info[1].virtual:
        return None
    where, shown = info
    old_on_wsl = (
        shown.wsl
        and bool(shown.version)
        and version_key(shown.version) < version_key(CONDA_WSL_CUDA_RELEASE)
    )
    if not (old_on_wsl or driver_shown):
        return None
    why = (
        f"conda {shown.version} runs under WSL 2 and predates {CONDA_WSL_CUDA_RELEASE}, whose "
        "CUDA detection first looks in WSL's driver directory (/usr/lib/wsl/lib)"
        if old_on_wsl
        else "the log shows an NVIDIA driver, which conda did not find"
    )
    return causes.finding(
        f"explain.{CONDA_CUDA_UNDETECTED}",
        Severity.ERROR if driver_shown else Severity.WARNING,
        CONDA_CUDA_UNDETECTED,
        # Without a driver in the log, WSL 2 under an old conda says only that conda could not
        # see one: the machine may have none (a CPU-only laptop).
        "conda lists no __cuda: it does not see the NVIDIA driver"
        if driver_shown
        else "conda lists no __cuda: this conda cannot see a WSL 2 NVIDIA driver, if there is one",
        f"{where}: virtual packages : {', '.join(shown.virtual)}\n{why}.",
        conda_cuda_undetected_fix(old_on_wsl, shown.windows),
    )


def kernelspec_gone_finding(text: str) -> Optional[Finding]:
    """A Jupyter server that could not start a kernel because its kernelspec's interpreter is
    not there (``text``: the log's head)."""
    interpreter = missing_kernel_interpreter(text)
    if interpreter is None:
        return None
    return causes.finding(
        f"explain.{KERNEL_INTERPRETER_MISSING}",
        Severity.ERROR,
        KERNEL_INTERPRETER_MISSING,
        "The kernel cannot start: its kernelspec names an interpreter that is gone",
        f"FileNotFoundError: {interpreter}\nJupyter ran the kernelspec's command "
        "(-m ipykernel_launcher) with an interpreter that does not exist.",
        kernelspec_gone_fix(interpreter),
    )


def environment_findings(
    specs: Sequence[UnresolvedSpec],
    excluded: Sequence[str],
    file: Optional[str],
    mac: bool = False,
    os: Optional[str] = None,
    unavailable: Sequence[UnresolvedSpec] = (),
) -> list[Finding]:
    """The findings a solver's refusal supports (none where the log does not show why;
    ``mac``: the log shows a Mac; ``os``: the operating system it shows; ``unavailable``: the
    specs a ``conda install`` asked for that no channel searched carries)."""
    path = file or DEFAULT_ENV_FILE
    found = (
        other_platform_finding(specs, path, mac, os),
        pypi_only_finding(specs, path),
        pypi_only_request_finding(unavailable),
        pypi_excluded_finding(excluded),
    )
    return [x for x in found if x is not None]
