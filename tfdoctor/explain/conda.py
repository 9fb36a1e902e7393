"""Builders for conda: unsatisfiable system packages and paths too long."""

from __future__ import annotations

import dataclasses
import re
from typing import Optional

from tfdoctor import causes
from tfdoctor.explain.common import _cite_head
from tfdoctor.explain.scanning import Evidence
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key

#: conda's UnsatisfiableError for chains that end in a virtual package (conda/resolve.py,
#: _classify_bad_deps; the "virtual_package" message of conda/exceptions.py): the chains, one
#: a line after a dash, then "Your installed version is: V", V being "not available" where the
#: solver sees no such package (a login node or image build without a driver for __cuda).
#: https://github.com/conda/conda/blob/4.14.0/conda/exceptions.py
#: conda 4.8 and 4.9 word the same block of __cuda alone as its "cuda" message: "... were
#: found to be incompatible with your CUDA driver:" then "Your installed CUDA driver is: V"
#: (https://github.com/conda/conda/blob/4.9.2/conda/exceptions.py).
_CONDA_SYSTEM_BLOCK = re.compile(
    r"incompatible with your (?P<kind>system|CUDA driver):[ \t]*\n"
    r"(?P<specs>(?:[^\n]{0,400}\n){0,60}?)"
    r"[^\n]{0,60}?Your installed (?:version|CUDA driver) is: (?P<ref>not available|\d[\w.]{0,30})"
)
#: conda's list of the chains that meet in one package, in the "incompatible with each other"
#: part of the same error ("Package __cuda conflicts for:", then one chain a line, each
#: ending in a requirement of it): where the CUDA driver's block lists only the system's own
#: record, these are the builds' requirements of __cuda.
_CONDA_CUDA_CHAINS = re.compile(
    r"Package __cuda conflicts for:[ \t]*\n(?P<specs>(?:[^\n]{1,400}\n?){1,60})"
)
#: A chain's last link: the virtual package a build needs, with its version where shown
#: (MatchSpec's ``__cuda[version='>=11.0']`` or the chain's own ``__glibc >=2.17``). The
#: system's own records (``feature:/linux-64::__glibc==2.31=0``) have no arrow before them.
_CONDA_SYSTEM_NEED = re.compile(
    r"-> (?P<package>__(?:cuda|glibc|osx))(?:\[version='(?P<spec>[^'\n]{0,80})'\]"
    r"|[ \t]+(?P<bare>[<>=!~\d][^\s]{0,80}))?[ \t]*$",
    re.MULTILINE,
)
_FLOOR = re.compile(r">=[ \t]*(\d+(?:\.\d+){0,2})")


#: The platform conda solves for, as its records of the system name it
#: (``feature:/linux-64::__cuda==10.2=0``).
_CONDA_SUBDIR = re.compile(r"::?/?(?P<os>linux|win)-(?:64|aarch64|ppc64le|32)::__")


def _conda_driver_floor(m: Machine, block: re.Match[str]) -> Optional[str]:
    """The oldest driver that reports the CUDA the block's builds need, on the platform its
    records of the system name (None where they name none, or the matrix has no such CUDA).
    conda compares the CUDA version the driver reports, so minor version compatibility's
    lower floor does not satisfy its solver: the driver the toolkit shipped with does."""
    subdir = _CONDA_SUBDIR.search(block.group(0))
    floor = _FLOOR.findall(block.group("specs"))
    toolkit = m.matrix.toolkit(max(floor, key=version_key)) if m.matrix and floor else None
    if subdir is None or toolkit is None:
        return None
    return toolkit.min_driver_linux if subdir["os"] == "linux" else toolkit.min_driver_windows


def _conda_system_unsatisfied(evidence: Evidence, m: Machine) -> Optional[Finding]:
    """conda's solver refusing builds for a virtual package the system it solves for lacks
    (``not available``) or has below the builds' floor. conda prints the same block beside
    other conflicts where the installed version satisfies every chain: that says nothing."""
    for block in _CONDA_SYSTEM_BLOCK.finditer(evidence.first_text):
        needs = list(_CONDA_SYSTEM_NEED.finditer(block.group("specs")))
        # conda 4.8's and 4.9's group lists every chain that meets in __cuda, those the
        # driver satisfies too (the system's block lists only those it does not).
        every_chain = not needs and block.group("kind") == "CUDA driver"
        if every_chain:
            chains = _CONDA_CUDA_CHAINS.search(evidence.first_text)
            needs = list(_CONDA_SYSTEM_NEED.finditer(chains.group("specs"))) if chains else []
        packages = {n.group("package") for n in needs}
        if len(packages) != 1:
            continue  # conda states one installed version for the block: whose is unclear
        package = packages.pop()
        floors = sorted(
            {f for n in needs for f in _FLOOR.findall(n.group("spec") or n.group("bare") or "")},
            key=version_key,
        )
        ref = block.group("ref")
        if ref == "not available":
            floor = floors[0] if floors else ""
        else:
            above = [f for f in floors if version_key(f) > version_key(ref)]
            if not above or (every_chain and len(above) < len(floors)):
                # The system satisfies the chains, or one of those conda 4.9 lists: the
                # conflict is elsewhere, or a build the driver admits remains.
                continue
            floor = above[-1]
        cited = _cite_head(evidence, [needs[0].group(0).strip(), block.group(0).split("\n")[-1]])
        # A glibc detected below the floor is the system's own: no declaration helps (conda
        # read the value from this machine, so declaring this machine's value changes nothing).
        if package == "__glibc" and ref != "not available":
            cause: causes.CauseId = causes.platform.GLIBC_TOO_OLD
            fix = causes.platform.glibc_fix(f"GLIBC_{floor}")
        elif package == "__osx" and ref != "not available":
            # So is a macOS detected below it.
            cause = causes.platform.MACOS_TOO_OLD
            fix = causes.platform.macos_fix(floor)
        elif package == "__cuda" and ref != "not available":
            # conda read __cuda from this machine's driver: its own value is what it saw, so
            # the driver (or the builds) must change.
            cause = causes.gpu.DRIVER_TOO_OLD
            fix = causes.conda.conda_cuda_below_fix(ref, floor, _conda_driver_floor(m, block))
        else:
            cause = causes.conda.CONDA_VIRTUAL_PACKAGE_MISMATCH
            subdir = _CONDA_SUBDIR.search(block.group(0))
            windows = subdir["os"] == "win" if subdir is not None else m.os == "windows"
            fix = causes.conda.virtual_package_fix(package, floor, pixi=False, windows=windows)
        return causes.finding(
            f"explain.{cause}",
            Severity.ERROR,
            cause,
            "conda's solver does not see the system version a package's builds need"
            if ref == "not available"
            else f"conda's solver sees {package} {ref}, below the {floor} the builds need",
            cited,
            fix,
        )
    return None


#: A conda (mamba, micromamba) command that creates or installs into an environment.
_CONDA_COMMAND = re.compile(
    r"^[^\n]{0,80}?\b(?:conda|mamba|micromamba)(?:\.exe)?[ \t]+(?:env[ \t]+)?(?:create|install)\b"
    r"[^\n]*",
    re.MULTILINE,
)
#: The environment's name or path in such a command (``--name=gpu``, ``-n tf-gpu``,
#: ``--prefix ./env``): a word there names no package.
_CONDA_ENV_OPTION = re.compile(r"(?<!\S)(?:--name|--prefix|-n|-p)(?:=|[ \t]+)\S+")
#: A request for CUDA builds: a build string that names them (``deepmd-kit=2.1.0=*gpu``,
#: ``"pytorch=*=cuda*"``, conda-forge's way to require a CUDA-enabled build,
#: https://conda-forge.org/docs/user/cuda/), or a package that stands for the CUDA toolkit the
#: builds load (cudatoolkit, cuda-version, pytorch-cuda) or for a GPU build (tensorflow-gpu).
#: The builds of such packages depend on ``__cuda``, the CUDA version conda reads from the
#: NVIDIA driver of the machine that solves.
_CONDA_CUDA_SPEC = re.compile(
    r"=[\w.*]*\b(?:gpu|cuda)[\w.*]*|\b(?:cudatoolkit|cuda-version|pytorch-cuda|tensorflow-gpu)\b"
)
#: conda's solver giving up (conda/exceptions.py's UnsatisfiableError, conda-libmamba-solver's
#: LibMambaUnsatisfiableError; the classic solver's "Found conflicts! Looking for
#: incompatible packages." before it).
_CONDA_UNSOLVED = ("UnsatisfiableError", "Found conflicts! Looking for incompatible packages")
#: The solver's words that already name the conflict: a virtual package (``__glibc==2.17``,
#: ``__cuda``, ``__osx``; "incompatible with your system" heads conda's list of them) or the
#: environment's installed Python ("incompatible with the existing python installation").
_CONDA_NAMED_CONFLICT = re.compile(
    r"\b__\w+==|(?<!\w)__(?:cuda|glibc|osx|linux|unix|win|archspec)\b"
    r"|incompatible with your system|incompatible with the existing python installation"
)


def _conda_cuda_request(text: str) -> Optional[str]:
    """The last conda command before the solver gave up, where it asks for CUDA builds (its
    environment's name and path left out), or None. An earlier command is another solve."""
    end = min(i for i in (text.find(w) for w in _CONDA_UNSOLVED) if i >= 0)
    commands = [c for c in _CONDA_COMMAND.finditer(text) if c.start() < end]
    if not commands:
        return None
    line = commands[-1].group(0).strip()
    return line if _CONDA_CUDA_SPEC.search(_CONDA_ENV_OPTION.sub(" ", line)) else None


def _conda_cuda_builds_unsolved(evidence: Evidence, m: Machine) -> Optional[Finding]:
    """conda's solver that found no environment for a command asking CUDA builds, where its
    words never name ``__cuda``: a machine whose driver conda does not read (a login node, an
    image build, a node without a GPU) has no ``__cuda``, and the classic solver then lists
    conflicts of other packages instead (conda-forge's CUDA page: the packages install
    without a GPU where the override declares one). A warning: the conflicts it lists may be
    the real ones, which ``conda info``'s virtual packages tell apart. Where the words name
    a virtual package (``__cuda``, ``__glibc``, ``__osx``) or the installed Python, the solver's
    own reading leads; where they name TensorFlow's Python as the conflict, that one. Only the
    last conda command before the failure counts: an earlier one is a solve that ended."""
    text = evidence.first_text
    if not any(w in text for w in _CONDA_UNSOLVED) or _CONDA_NAMED_CONFLICT.search(text):
        return None
    if evidence.conda_conflicts:
        # The solver named TensorFlow's Python as the conflict: that reading explains it.
        return None
    request = _conda_cuda_request(text)
    if request is None:
        return None
    # The solver's own words as the log holds them (one cut before UnsatisfiableError keeps
    # only the classic solver's "Found conflicts!").
    gave_up = next(w for w in _CONDA_UNSOLVED if w in text)
    fix = causes.conda.virtual_package_fix("__cuda", "", pixi=False, windows=m.os == "windows")
    return causes.finding(
        f"explain.{causes.conda.CONDA_VIRTUAL_PACKAGE_MISMATCH}",
        Severity.WARNING,
        causes.conda.CONDA_VIRTUAL_PACKAGE_MISMATCH,
        "conda found no environment for CUDA builds: the solver may not see a CUDA driver (__cuda)",
        _cite_head(evidence, [request, gave_up])
        + "\nThe command asks for CUDA builds, which depend on __cuda; conda's conflicts do "
        "not name it, so the conflicts it lists may be the real ones instead: `conda info` "
        "lists the virtual packages it sees (no __cuda line: it read no driver).",
        dataclasses.replace(fix, commands=("conda info", *fix.commands)),
    )


#: conda's check of an extracted package (LinkPathAction.verify in
#: https://github.com/conda/conda/blob/main/conda/core/path_actions.py), whose package cache
#: is on Windows (a drive letter): "The package for X located at DIR / appears to be
#: corrupted. The path 'P' / specified in the package manifest cannot be found." (older
#: condas: "The file 'P'").
_CONDA_CORRUPTED = re.compile(
    r"The package for (?P<package>[\w.-]{1,120}) located at (?P<cache>[A-Za-z]:\\[^\n]{1,300}?)"
    r"[ \t]*\n[ \t]*appears to be corrupted\. The (?:path|file) '(?P<path>[^'\n]{1,500})'"
)


def _conda_path_too_long(evidence: Evidence) -> Optional[Finding]:
    """conda found a file of a package missing from its cache on Windows, whose full path
    (the cache's folder joined to the manifest's path) is at or near Windows' 260-character
    limit: the extraction could not write it, not a corrupted download."""
    for found in _CONDA_CORRUPTED.finditer(evidence.first_text):
        cache, path = found.group("cache"), found.group("path")
        full = f"{cache}\\{path}".replace("/", "\\")
        if len(full) < causes.platform.NEAR_MAX_PATH:
            continue  # a short path is missing for another reason (an interrupted download)
        return causes.finding(
            f"explain.{causes.platform.WINDOWS_LONG_PATHS}",
            Severity.ERROR,
            causes.platform.WINDOWS_LONG_PATHS,
            "conda could not write a package file whose path is longer than Windows allows",
            _cite_head(evidence, [found.group(0).split("\n")[0], f"'{path}'"])
            + f"\nThe file's full path in the cache is {len(full)} characters: {full}",
            causes.platform.conda_long_paths_fix(),
        )
    return None
