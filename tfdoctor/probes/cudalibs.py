"""Which CUDA, cuDNN and NCCL libraries TensorFlow would load, and XLA's ptxas and libdevice.

The search replays the Linux dynamic loader for a ``dlopen`` by soname from TensorFlow's own
libraries: LD_LIBRARY_PATH, then their RUNPATH (the pip wheels' ``nvidia/*/lib``), then the
ldconfig cache, then the default directories. Every file found is recorded; a child
interpreter loads each by absolute path and calls the library's own version function, so a
library that crashes on load takes down the child, never the doctor.
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform as platform_module
import re
import secrets
import sys
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Optional

from tfdoctor.cuda_layout import (
    DEFAULT_CUDA_ROOT,
    declared_cuda,
    fixed_sonames,
    library_dirs,
    library_names,
    newest_cuda,
    nvcc_wheel_dir,
    paired_cudnn,
    soname_versions,
    xla_cuda_data_dir,
)
from tfdoctor.facts import CudaLibsFacts, LibraryCandidate, LibraryFacts, ProbeError
from tfdoctor.probes._run import CommandResult, Runner, child_script, run_command
from tfdoctor.probes.build_info import tensorflow_dirs, versions_from_build_info
from tfdoctor.probes.elf import Runpath, tensorflow_runpath
from tfdoctor.probes.tfbuild import BuildRead, read_build
from tfdoctor.records import Record, record

PROBE = "cuda_libs"

# Debian and Ubuntu multiarch directories, searched by their glibc by default.
_MULTIARCH = {
    "x86_64": "x86_64-linux-gnu",
    "amd64": "x86_64-linux-gnu",
    "aarch64": "aarch64-linux-gnu",
    "arm64": "aarch64-linux-gnu",
    "ppc64le": "powerpc64le-linux-gnu",
}


# --- what to search for ---------------------------------------------------------------------


def searched_versions(
    build_info: Mapping[str, object] | None, requires: Sequence[str] = ()
) -> tuple[int, int, int]:
    """(CUDA major, CUDA minor, cuDNN major) to search for: from TF's build_info, else from
    the CUDA wheels its ``and-cuda`` extra pins (``requires``: its Requires-Dist lines; TF
    2.22's build_info records no versions), else the newest."""
    versions = versions_from_build_info(build_info or {})
    newest, newest_cudnn = newest_cuda()
    if versions.is_cuda_build is not True:
        return newest[0], newest[1], newest_cudnn
    pinned_cuda, pinned_cudnn = declared_cuda(requires) if requires else (None, None)
    if versions.cuda_major is not None and versions.cuda_minor is not None:
        cuda = (versions.cuda_major, versions.cuda_minor)
    elif pinned_cuda is not None:
        major, _, minor = pinned_cuda.partition(".")
        cuda = (int(major), int(minor))
    else:
        cuda = newest
    cudnn = versions.cudnn_major
    if cudnn is None and pinned_cudnn is not None:
        cudnn = int(pinned_cudnn.partition(".")[0])
    if cudnn is None:
        # The pairing of TF's tested build configurations (data/cuda.yaml, cudnn_pairing).
        cudnn = paired_cudnn(cuda[0])
    return cuda[0], cuda[1], cudnn


def tf_library_names(
    cuda_major: int, cuda_minor: int, cudnn_major: int, platform: str = sys.platform
) -> dict[str, tuple[str, ...]]:
    """The file names TF's loader asks for, per library, for a CUDA/cuDNN version.

    Linux: ``lib<name>.so.<version>`` (tsl's FormatLibraryFileName). Windows:
    ``<name><version>.dll`` with cuda_configure.bzl's ``64_`` version prefix, and the driver
    is ``nvcuda.dll``; NCCL is not built for Windows.
    """
    versions = soname_versions(cuda_major, cuda_minor)
    versions["cudnn"] = str(cudnn_major)
    names_in_order = library_names()
    if platform == "win32":
        names = {
            name: (f"{name}64_{version.replace('.', '')}.dll",)
            for name, version in versions.items()
        }
        names["cuda"] = ("nvcuda.dll",)
        return {name: names[name] for name in names_in_order if name in names}
    versions.update(fixed_sonames())
    return {name: (f"lib{name}.so.{versions[name]}",) for name in names_in_order}


# --- ldconfig -------------------------------------------------------------------------------


@record
class LdconfigEntry(Record):
    """One line of ``ldconfig -p``: a soname, its flags and the file it maps to."""

    soname: str
    flags: str
    path: str


_LDCONFIG_LINE = re.compile(r"^\s+(\S+)\s+\(([^)]*)\)\s+=>\s+(\S.*?)\s*$")


def parse_ldconfig(text: str) -> tuple[LdconfigEntry, ...]:
    """Entries of ``ldconfig -p`` output, in cache order; header and trailer lines dropped."""
    entries = []
    for line in text.splitlines():
        match = _LDCONFIG_LINE.match(line)
        if match:
            entries.append(LdconfigEntry(match.group(1), match.group(2), match.group(3)))
    return tuple(entries)


def read_ldconfig(runner: Runner, timeout: float) -> tuple[Optional[str], Optional[ProbeError]]:
    """The text of ``ldconfig -p`` (it lives in /sbin, often off a user's PATH)."""
    result: Optional[CommandResult] = None
    for exe in ("ldconfig", "/sbin/ldconfig"):
        result = runner([exe, "-p"], None, timeout)
        if result.start_error is None:
            break
    if result is None or result.start_error is not None or result.returncode != 0:
        why = "could not run" if result is None or result.start_error else "failed"
        return None, ProbeError(
            probe=PROBE,
            reason="ldconfig-failed",
            message=f"ldconfig -p {why}; the loader cache was not searched",
            detail=(result.start_error or result.stderr_tail()) if result else "",
        )
    return result.stdout, None


# --- the child ------------------------------------------------------------------------------


@record
class LoadResult(Record):
    """What the child saw when it loaded one file."""

    path: str
    loadable: Optional[bool]
    error: Optional[str] = None
    #: An ELF file of another class or machine, which the loader's search passes over.
    wrong_kind: bool = False
    version: Optional[str] = None
    #: Why no version function answered, for a library that loaded.
    call_error: Optional[str] = None


# faulthandler's dump_traceback_later(exit=True) writes "Timeout (H:MM:SS[.ffffff])!" and
# exits with status 1 (Modules/faulthandler.c); the child arms it per library.
_CHILD_DEADLINE = re.compile(r"^Timeout \(\d+:\d\d:\d\d(?:\.\d+)?\)!$", re.MULTILINE)


def _opt_text(value: object) -> Optional[str]:
    return value if isinstance(value, str) else None


def parse_lib_versions(stdout: str, marker: str) -> dict[str, LoadResult]:
    """The child's records by path: JSON after ``marker`` at a line start; the rest skipped.

    Libraries may print to stdout when loaded (constructors), so only the marker, fresh for
    each run, delimits the records.
    """
    results: dict[str, LoadResult] = {}
    prefix = marker + " "
    for line in stdout.splitlines():
        if not line.startswith(prefix):
            continue
        try:
            doc = json.loads(line[len(prefix) :])
        except ValueError:
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("path"), str):
            continue
        results[doc["path"]] = LoadResult(
            path=doc["path"],
            loadable=bool(doc.get("loadable")),
            error=_opt_text(doc.get("error")),
            wrong_kind=doc.get("wrong_kind") is True,
            version=_opt_text(doc.get("version")),
            call_error=_opt_text(doc.get("call_error")),
        )
    return results


def _died(result: CommandResult, path: str, loaded: bool, deadline: Optional[float]) -> LoadResult:
    """What is known of the library the child was at when it died.

    ``deadline`` is the per-library limit when that is what ended the child, else None.
    """
    step = "calling its version function" if loaded else "loading it"
    if deadline is not None:
        why = f"{step} did not finish within {deadline:g}s"
    elif result.signal_name:
        why = f"{step} killed the checking process ({result.signal_name})"
    else:
        why = f"the checking process exited with code {result.returncode} while {step}"
    # A load_error on a loadable library says its version call failed, and how; a
    # timed-out load leaves loadability unknown.
    loadable: Optional[bool] = True if loaded else None
    if not loaded and deadline is None:
        loadable = False
    return LoadResult(path, loadable=loadable, error=why)


def load_in_child(
    items: Sequence[tuple[str, str]],
    python: str,
    env: Optional[Mapping[str, str]],
    runner: Runner,
    timeout: float,
) -> tuple[dict[str, LoadResult], Optional[ProbeError]]:
    """Load each (kind, path) in a child; a path that kills it is recorded and the rest rerun.

    ``timeout`` bounds each library (the child enforces it with faulthandler); the run as a
    whole gets one such share per library plus one for starting the interpreter, so a
    deadline always lands on the library that overran it.
    """
    results: dict[str, LoadResult] = {}
    pending = list(items)
    script = child_script("lib_versions.py")
    # A fresh marker per run: nothing a library prints can forge a record.
    marker = f"=== tfdoctor lib_versions {secrets.token_hex(8)} ==="
    while pending:
        argv = [python, script, marker, f"{timeout:g}"]
        argv += [f"{kind}:{path}" for kind, path in pending]
        result = runner(argv, env, timeout * (len(pending) + 1))
        if result.start_error is not None:
            return results, ProbeError(
                PROBE, "child-error", "could not start the library loader", result.start_error
            )
        records = parse_lib_versions(result.stdout, marker)
        done = 0
        while done < len(pending) and pending[done][1] in records:
            results[pending[done][1]] = records[pending[done][1]]
            done += 1
        if done == len(pending):
            break
        culprit = pending[done][1]
        loaded = f"{marker} loaded {done}\n" in result.stderr
        timed_out = result.timed_out or (
            result.returncode == 1 and _CHILD_DEADLINE.search(result.stderr) is not None
        )
        results[culprit] = _died(result, culprit, loaded, timeout if timed_out else None)
        if timed_out:
            # Another slow library would spend the same again; the rest stay unknown.
            tail = result.stderr_tail().splitlines()
            return results, ProbeError(
                PROBE,
                "timeout",
                f"{culprit}: {results[culprit].error}",
                "\n".join(line for line in tail if not line.startswith(marker)).strip(),
            )
        pending = pending[done + 1 :]
    return results, None


# --- candidates -----------------------------------------------------------------------------


def version_from_filename(*paths: str) -> Optional[str]:
    """The longest version in the file names (``libcudnn.so.8.9.7`` -> ``8.9.7``)."""
    best: Optional[str] = None
    for path in paths:
        name = PureWindowsPath(path).name if "\\" in path else PurePosixPath(path).name
        match = re.search(r"\.so\.(\d+(?:\.\d+)*)$", name)
        version = match.group(1) if match else None
        dll = re.search(r"64_(\d+)\.dll$", name, re.IGNORECASE)
        if dll:
            # cudart64_110.dll is CUDA 11.0's runtime: three digits are major and minor.
            digits = dll.group(1)
            version = f"{digits[:-1]}.{digits[-1]}" if len(digits) == 3 else digits
        if version and (best is None or version.count(".") > best.count(".")):
            best = version
    return best


def _split_path_list(value: Optional[str], sep: str) -> list[str]:
    # glibc reads an empty LD_LIBRARY_PATH element as the current directory, which is the
    # doctor's and not TF's; such elements are left out.
    return [part for part in (value or "").split(sep) if part]


def runpath_site_dirs(site_dirs: Sequence[str]) -> list[str]:
    """The site dirs whose ``nvidia/*/lib`` TF's RUNPATH reaches: the one holding TF, else all.

    The RUNPATH entries are ``$ORIGIN/../nvidia/<dir>/lib`` of libraries inside the
    ``tensorflow`` package, so they name the wheels next to that package only. Without a
    TensorFlow to anchor them every site dir's wheels stay candidates.
    """
    anchored = [str(package.parent) for package in tensorflow_dirs(site_dirs)]
    return anchored or list(site_dirs)


def _runpath_origin(directory: str) -> str:
    """``pip`` for a wheel's ``nvidia/<dir>/lib``, else ``RUNPATH``."""
    path = PurePosixPath(directory)
    return "pip" if path.name == "lib" and path.parent.parent.name == "nvidia" else "RUNPATH"


def linux_search_dirs(
    name: str,
    cuda_major: int,
    pip_sites: Sequence[str],
    env: Mapping[str, str],
    system_dirs: Sequence[str],
    runpath: Sequence[str] = (),
) -> list[tuple[Path, str]]:
    """(directory, origin) in loader order, the ldconfig cache aside (it maps sonames).

    ``runpath`` is the RUNPATH read from TF's framework library (:mod:`tfdoctor.probes.elf`);
    where it is empty, the wheel layout stands in for it: ``pip_sites`` are the site dirs
    TF's RUNPATH reaches (:func:`runpath_site_dirs`).
    """
    ld_path = _split_path_list(env.get("LD_LIBRARY_PATH"), ":")
    dirs = [(Path(d), "LD_LIBRARY_PATH") for d in ld_path]
    if runpath:
        # ld.so(8): a dlopen by soname searches the calling object's DT_RUNPATH after
        # LD_LIBRARY_PATH; every entry is searched for every library.
        dirs.extend((Path(d), _runpath_origin(d)) for d in runpath)
        return dirs + [(Path(d), "system") for d in system_dirs]
    for site in pip_sites:
        pkgs = library_dirs(name, cuda_major)
        dirs.extend((Path(site) / "nvidia" / pkg / "lib", "pip") for pkg in pkgs)
    return dirs + [(Path(d), "system") for d in system_dirs]


def windows_search_dirs(
    name: str, site_dirs: Sequence[str], env: Mapping[str, str]
) -> list[tuple[Path, str]]:
    """(directory, origin) for a DLL: System32, PATH, CUDA_PATH\\bin, then the pip wheels.

    LoadLibrary's standard search has System32 before PATH; the pip wheels' ``bin`` only
    count where something added them with ``os.add_dll_directory``.
    """
    dirs: list[tuple[Path, str]] = []
    root = env.get("SystemRoot") or env.get("SYSTEMROOT")
    if root:
        dirs.append((Path(root) / "System32", "system"))
    dirs.extend((Path(d), "PATH") for d in _split_path_list(env.get("PATH"), ";"))
    if env.get("CUDA_PATH"):
        dirs.append((Path(env["CUDA_PATH"]) / "bin", "CUDA_PATH"))
    for site in site_dirs:
        dirs.extend((Path(site) / "nvidia" / pkg / "bin", "pip") for pkg in library_dirs(name))
    return dirs


def default_system_dirs(machine: Optional[str] = None) -> tuple[str, ...]:
    """The directories glibc searches after the cache (ld.so(8)), multiarch ones first."""
    arch = _MULTIARCH.get((machine or platform_module.machine()).lower())
    multiarch = (f"/lib/{arch}", f"/usr/lib/{arch}") if arch else ()
    return (*multiarch, "/lib64", "/usr/lib64", "/lib", "/usr/lib")


@record
class _Found(Record):
    path: str
    #: The file behind any symbolic links, resolved once here.
    real: str
    origin: str
    exists: bool


def find_files(
    filenames: Sequence[str],
    dirs: Sequence[tuple[Path, str]],
    cache: Sequence[LdconfigEntry],
    cache_after: int,
) -> list[_Found]:
    """Every file for the names, in search order, one per real path.

    ``cache_after`` is how many of ``dirs`` the loader searches before the ldconfig cache.
    """
    found: list[_Found] = []
    seen: set[str] = set()

    def add(path: Path, origin: str) -> None:
        try:
            if not path.is_symlink() and not path.is_file():
                return
            path = path.absolute()
            real = str(path.resolve())
        except (OSError, RuntimeError):  # unreadable directory, symlink loop
            return
        if real in seen:
            return
        seen.add(real)
        found.append(_Found(str(path), real, origin, path.exists()))

    for filename in filenames:
        for directory, origin in dirs[:cache_after]:
            add(directory / filename, origin)
        for entry in cache:
            if entry.soname == filename:
                add(Path(entry.path), "ldconfig")
        for directory, origin in dirs[cache_after:]:
            add(directory / filename, origin)
    return found


def select(candidates: Sequence[LibraryCandidate], passed_over: Sequence[bool]) -> Optional[int]:
    """The candidate the loader ends up with, or None when its dlopen would fail.

    The loader takes the first file it finds, except an ELF file of another class or
    machine (and a dangling link), which it passes over; a file that then fails to load
    (not ELF, a missing dependency) fails the dlopen (glibc elf/dl-load.c, open_verify).
    A candidate whose loading is unknown is assumed to load.
    """
    for index, (candidate, skip) in enumerate(zip(candidates, passed_over)):
        if skip:
            continue
        return None if candidate.loadable is False else index
    return None


# --- ptxas and libdevice --------------------------------------------------------------------

_PTXAS_RELEASE = re.compile(r"release\s+(\d+\.\d+)(?:,\s*V(\d+(?:\.\d+)+))?")


def parse_ptxas_version(text: str) -> Optional[str]:
    """``12.5.82`` from ``Cuda compilation tools, release 12.5, V12.5.82``, else ``12.5``."""
    match = _PTXAS_RELEASE.search(text)
    if not match:
        return None
    return match.group(2) or match.group(1)


#: Where a CUDA toolkit sits when nothing says otherwise.
DEFAULT_TOOLKIT_DIRS = (DEFAULT_CUDA_ROOT,)


def _cuda_roots(
    env: Mapping[str, str], site_dirs: Sequence[str], toolkit_dirs: Sequence[str]
) -> list[Path]:
    # XLA's CandidateCudaRoots (tsl/platform/default/cuda_libdevice_path.cc): the flag's
    # directory, the pip nvidia/cuda_nvcc package, the toolkit, /usr/local/cuda.
    roots = []
    data_dir = xla_cuda_data_dir(env.get("XLA_FLAGS"))
    if data_dir:
        roots.append(Path(data_dir))
    roots.extend(Path(site) / "nvidia" / nvcc_wheel_dir() for site in site_dirs)
    roots.extend(Path(env[var]) for var in ("CUDA_HOME", "CUDA_PATH") if env.get(var))
    roots.extend(Path(d) for d in toolkit_dirs)
    return roots


def find_ptxas(
    env: Mapping[str, str],
    site_dirs: Sequence[str],
    toolkit_dirs: Sequence[str] = DEFAULT_TOOLKIT_DIRS,
    platform: str = sys.platform,
) -> Optional[str]:
    """The ptxas XLA would run: PATH first (PreferPtxasFromPath), then the CUDA roots."""
    exe = "ptxas.exe" if platform == "win32" else "ptxas"
    sep = ";" if platform == "win32" else ":"
    dirs = [Path(d) for d in _split_path_list(env.get("PATH"), sep)]
    dirs += [root / "bin" for root in _cuda_roots(env, site_dirs, toolkit_dirs)]
    for directory in dirs:
        path = directory / exe
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None


def find_libdevice(
    env: Mapping[str, str],
    site_dirs: Sequence[str],
    toolkit_dirs: Sequence[str] = DEFAULT_TOOLKIT_DIRS,
) -> Optional[str]:
    """``nvvm/libdevice/libdevice.10.bc`` under the first CUDA root that has it."""
    for root in _cuda_roots(env, site_dirs, toolkit_dirs):
        path = root / "nvvm" / "libdevice" / "libdevice.10.bc"
        if path.is_file():
            return str(path)
    return None


def read_ptxas_version(ptxas: str, runner: Runner, timeout: float) -> Optional[str]:
    """The version ``ptxas --version`` prints, or None."""
    result = runner([ptxas, "--version"], None, timeout)
    if result.start_error is not None or result.returncode != 0:
        return None
    return parse_ptxas_version(result.stdout)


# --- the probe ------------------------------------------------------------------------------


def probe_cuda_libs(
    site_dirs: Sequence[str],
    build_info: Mapping[str, object] | None,
    env: Mapping[str, str] | None = None,
    runner: Runner = run_command,
    *,
    timeout: float = 10.0,
    platform: str = sys.platform,
    ldconfig_output: str | None = None,
    system_dirs: Sequence[str] | None = None,
    toolkit_dirs: Sequence[str] = DEFAULT_TOOLKIT_DIRS,
    python: str = sys.executable,
    requires: Sequence[str] = (),
) -> CudaLibsFacts:
    """Every candidate file for each CUDA library TF loads, with versions; never raises.

    ``ldconfig_output`` replaces running ``ldconfig -p``; ``system_dirs`` replaces the
    loader's default directories; ``toolkit_dirs`` the default CUDA toolkit locations
    searched for ptxas and libdevice; ``python`` is the interpreter that loads the libraries;
    ``requires`` TensorFlow's Requires-Dist lines (its ``and-cuda`` pins name the CUDA where
    build_info does not).
    """
    cuda_major, cuda_minor, cudnn_major = searched_versions(build_info, requires)
    try:
        return _probe(
            site_dirs=site_dirs,
            versions=(cuda_major, cuda_minor, cudnn_major),
            env=os.environ if env is None else env,
            child_env=env,
            runner=runner,
            timeout=timeout,
            platform=platform,
            ldconfig_output=ldconfig_output,
            system_dirs=system_dirs,
            toolkit_dirs=toolkit_dirs,
            python=python,
        )
    # A probe reports its own failure instead of raising; the traceback names the bug.
    except Exception as exc:
        return CudaLibsFacts(
            cuda_major=cuda_major,
            cudnn_major=cudnn_major,
            error=ProbeError(PROBE, "crashed", str(exc), traceback.format_exc()),
        )


def _probe(
    *,
    site_dirs: Sequence[str],
    versions: tuple[int, int, int],
    env: Mapping[str, str],
    child_env: Optional[Mapping[str, str]],
    runner: Runner,
    timeout: float,
    platform: str,
    ldconfig_output: Optional[str],
    system_dirs: Optional[Sequence[str]],
    toolkit_dirs: Sequence[str],
    python: str,
) -> CudaLibsFacts:
    cuda_major, cuda_minor, cudnn_major = versions
    errors: list[ProbeError] = []
    if platform != "win32" and not platform.startswith("linux"):
        # TF has no CUDA build for macOS since 1.15.
        return CudaLibsFacts(
            cuda_major,
            cudnn_major,
            error=ProbeError(PROBE, "unsupported-platform", f"no CUDA libraries on {platform}"),
        )
    names = tf_library_names(cuda_major, cuda_minor, cudnn_major, platform)

    found: dict[str, list[_Found]] = {}
    runpath = Runpath()
    build = BuildRead()
    if platform == "win32":
        for name, filenames in names.items():
            dirs = windows_search_dirs(name, site_dirs, env)
            found[name] = find_files(filenames, dirs, (), len(dirs))
    else:
        pip_sites = runpath_site_dirs(site_dirs)
        package = next(iter(tensorflow_dirs(site_dirs)), None)
        runpath = tensorflow_runpath(package)
        if runpath.error is not None:
            errors.append(runpath.error)
        build = read_build(package, library_names())
        if build.named is None and build.error is not None:
            errors.append(build.error)
        if ldconfig_output is None:
            ldconfig_output, ldconfig_error = read_ldconfig(runner, timeout)
            if ldconfig_error:
                errors.append(ldconfig_error)
        cache = parse_ldconfig(ldconfig_output or "")
        sysdirs = default_system_dirs() if system_dirs is None else system_dirs
        for name, filenames in names.items():
            dirs = linux_search_dirs(name, cuda_major, pip_sites, env, sysdirs, runpath.dirs)
            found[name] = find_files(filenames, dirs, cache, len(dirs) - len(sysdirs))

    to_load = [(name, f.path) for name in names for f in found[name] if f.exists]
    loaded, child_error = load_in_child(to_load, python, child_env, runner, timeout)
    if child_error:
        errors.insert(0, child_error)

    libraries = []
    for name, filenames in names.items():
        candidates, passed_over = [], []
        for item in found[name]:
            candidate, skip = _candidate(item, loaded.get(item.path))
            candidates.append(candidate)
            passed_over.append(skip)
        libraries.append(
            LibraryFacts(
                name=name,
                sonames=filenames,
                candidates=tuple(candidates),
                selected=select(candidates, passed_over),
            )
        )

    ptxas = find_ptxas(env, site_dirs, toolkit_dirs, platform)
    return CudaLibsFacts(
        cuda_major=cuda_major,
        cudnn_major=cudnn_major,
        libraries=tuple(libraries),
        ptxas=ptxas,
        ptxas_version=read_ptxas_version(ptxas, runner, timeout) if ptxas else None,
        libdevice=find_libdevice(env, site_dirs, toolkit_dirs),
        error=errors[0] if errors else None,
        runpath=runpath.dirs,
        runpath_object=runpath.object,
        named_libraries=build.named,
        gpu_code=build.gpu_code,
    )


def _candidate(item: _Found, result: Optional[LoadResult]) -> tuple[LibraryCandidate, bool]:
    """The candidate's facts, and whether the loader's search passes over it."""
    filename_version = version_from_filename(item.path, item.real)
    by_name = LibraryCandidate(item.path, item.origin, filename_version, _source(filename_version))
    if not item.exists:
        try:
            error = f"dangling symbolic link to {Path(item.path).readlink()}"
        except OSError as exc:
            error = str(exc)
        return dataclasses.replace(by_name, loadable=False, load_error=error), True
    if result is None:
        return by_name, False
    # A library that loaded but whose version functions failed keeps that reason too.
    candidate = dataclasses.replace(
        by_name, loadable=result.loadable, load_error=result.error or result.call_error
    )
    if result.version is not None:
        candidate = dataclasses.replace(candidate, version=result.version, version_source="call")
    return candidate, result.wrong_kind


def _source(version: Optional[str]) -> str:
    return "filename" if version is not None else "none"
