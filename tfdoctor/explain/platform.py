"""Builders for the platform: the operating system, the C library, the CPU, the word size."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.dpkg import library_packages
from tfdoctor.evidence.macos import APPLE, INTEL
from tfdoctor.evidence.pip import WheelRefusal
from tfdoctor.evidence.traceback import Traceback, failures, installed_package
from tfdoctor.explain.common import cite, group, hits_by
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import Hits
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import PLATFORMS, version_key
from tfdoctor.modules import distribution_of
from tfdoctor.signatures import EMULATOR, MACOS_WORDS, REASON_CUT, WINDOWS_WORDS
from tfdoctor.wheel_tags import (
    MANYLINUX1_GLIBC,
    machine_name,
    macos_target,
    manylinux_glibc,
    manylinux_name,
    pep600_spelled,
    tag_machines,
    tag_os,
)


def _macos(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    built_for = next(
        (g["macos_version"] for h in hits for g in h.groups if g.get("macos_version")), None
    )
    # The system library lacks the symbol (this cause's own hit): the macOS the referencing
    # binary was built for, on dyld's "Referenced from:" line, is the one it needs.
    return causes.platform.MACOS_TOO_OLD, causes.platform.macos_fix(built_for or r.dyld_built_for)


#: 32-bit ARM machines as uname and platform name them (``armv8l``: 32-bit programs on a
#: 64-bit ARM CPU's kernel in 32-bit mode).
_ARM32_MACHINES = frozenset({"armv6l", "armv7l", "armv8l"})


def _glibc(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # The newest glibc any line asks for: the loader names each missing version on a line of
    # its own, and the system must have them all.
    glibc = max(
        (g["glibc"] for h in hits for g in h.groups if g.get("glibc")),
        key=lambda v: version_key(v.split("_", 1)[-1]),
        default="GLIBC_2.17",
    )
    requirer = group(hits, "requirer") or ""
    top = installed_package(requirer) if requirer else None
    # A 32-bit ARM system: its libraries' folder (Debian's multiarch directory
    # arm-linux-gnueabihf, as on a Raspberry Pi), or the machine uname, platform.platform() or
    # pip's chosen wheels name (Revealed.machine). PyPI's TensorFlow wheels are x86-64 and
    # aarch64 ones only, so the glibc floors of their manylinux tags name no release that
    # installs here.
    library = group(hits, "library") or ""
    arm32 = r.machine in _ARM32_MACHINES or bool(re.search(r"/arm-linux-gnueabi(?:hf)?/", library))
    return causes.platform.GLIBC_TOO_OLD, causes.platform.glibc_fix(
        glibc,
        causes.common.installed_package_named(top),
        m.matrix.releases if m.matrix is not None and not arm32 else (),
        m.tf.version if m.tf is not None else r.tf_version,
        arm32=arm32,
        requirer=requirer if top is None else "",
        packages=library_packages(requirer, r.dpkg_installed) if top is None and requirer else (),
    )


def _libstdcxx(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    requirer = group(hits, "requirer") or ""
    return causes.platform.LIBSTDCXX_TOO_OLD, causes.platform.libstdcxx_fix(
        group(hits, "symbol") or "GLIBCXX_3.4",
        group(hits, "library") or "",
        requirer,
        library_packages(requirer, r.dpkg_installed) if requirer else (),
        causes.common.installed_package_named(installed_package(requirer)) if requirer else None,
    )


def _fold_into_emulator(by_cause: dict[str, list[Hits]]) -> None:
    """QEMU's own line for the signal its guest died of shows the process ran emulated: the
    crash the CPU's missing instructions would explain (TensorFlow's AVX refusal, an illegal
    instruction) is the emulator's, one cause with it."""
    emulated = by_cause.get(causes.platform.CPU_EMULATED, [])
    if not any(EMULATOR in h.signature.tags for h in emulated):
        return
    lacking = by_cause.pop(causes.platform.CPU_LACKS_AVX, [])
    # The emulator's own line first: its words name the cause.
    by_cause[causes.platform.CPU_EMULATED] = [*emulated, *lacking]


def _cpu_avx(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """An illegal instruction: an emulator's missing AVX or the CPU's own, decided by what the
    facts and the log show of the machine (both causes' signatures come here)."""
    plat = m.facts.platform
    ids = {h.signature.id for h in hits}
    if ids == {"conda-apple-channel-x86"}:
        # No crash: an x86-64 conda looked for Apple silicon's packages. Under Rosetta only
        # where the Mac is shown to be Apple silicon: an Intel Mac following Apple's guide
        # prints the same search, and an arm64 conda cannot run there.
        intel_facts = (
            plat is not None
            and plat.system == "Darwin"
            and plat.machine == "x86_64"
            and not plat.rosetta
            and plat.emulation is None
        )
        if intel_facts or (r.mac is not None and r.mac.value == INTEL):
            return causes.platform.WHEEL_MISMATCH, causes.platform.intel_mac_conda_fix(m)
        # Apple silicon, shown or (since 2020 the commoner Mac) not told apart from Intel.
        shown = (plat is not None and plat.rosetta) or (r.mac is not None and r.mac.value == APPLE)
        return causes.platform.CPU_EMULATED, causes.platform.rosetta_conda_fix(not shown)
    emulator = any(EMULATOR in h.signature.tags for h in hits)
    emulated = (plat is not None and (plat.rosetta or plat.emulation is not None)) or emulator
    mac = r.mac  # shown only for a log of macOS, or of no system shown (_system_of)
    if not emulated and plat is None and mac is not None:
        # The Mac the log shows decides: Rosetta 2 on Apple silicon does not translate AVX
        # (https://developer.apple.com/documentation/apple-silicon/about-the-rosetta-translation-environment);
        # an Intel Mac runs the wheel natively, and the oldest lack AVX.
        emulated = mac.value == APPLE
    elif not emulated and plat is None:
        # A Mac that shows neither kind is taken for Apple silicon under Rosetta, the commoner
        # since 2020 (an Intel Mac without AVX is older than 2012): the macOS shells' words
        # or a log of macOS, not zsh's words on a system the log shows is another.
        emulated = r.os == "macos" or (
            not r.os and any(MACOS_WORDS in h.signature.tags for h in hits)
        )
    if emulated:
        # Not an emulator's own line (QEMU's): a Mac, shown or taken for Apple silicon.
        return causes.platform.CPU_EMULATED, causes.platform.native_interpreter_fix(
            m, apple_silicon=not emulator, host_platform=group(hits, "host_platform")
        )
    library = group(hits, "library")
    # Words only Windows prints (faulthandler's "Windows fatal exception") show the system
    # where nothing else in the log does.
    windows = any(WINDOWS_WORDS in h.signature.tags for h in hits)
    return causes.platform.CPU_LACKS_AVX, causes.platform.cpu_avx_fix(
        group(hits, "instruction"),
        system="macos" if mac is not None else (m.os or r.os or ("windows" if windows else None)),
        binding=library if library and causes.platform.tfjs_binding(library) else None,
    )


#: Windows' reason for a DLL that did not load, on the line below Python's "DLL load failed:"
#: (a paste wrapped there): a module missing (126), a procedure missing (127), another
#: machine's DLL (193), access denied (5). Each says why, and none is a CPU without AVX, whose
#: reason is an initialisation that failed (1114).
#: https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-
_REASON_BELOW = re.compile(
    r"DLL load failed[^\n]{0,200}\n[ \t]*(?:The specified (?:module|procedure) could not be "
    r"found|%1 is not a valid Win32 application|Access is denied)"
)


def _cpu_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
    text: str = "",
) -> Optional[Finding]:
    """A CPU without the instructions the build needs, as the second candidate where the log
    leaves it open beside the reading given: an illegal instruction on a Mac the log does not
    show (taken for Apple silicon under Rosetta; an Intel Mac made before 2011 lacks AVX, and
    one before 2013 AVX2, which some builds need), or TensorFlow's native library failing on a
    system that may be Windows with the loader's reason cut (a DLL missing, or, from 1.6 on,
    its start on a CPU without AVX: Windows' "DLL initialization routine failed"). None where
    the machine's facts, the Mac or the system the log shows, or the reason, decide (in
    ``text``, the log, Windows' reason on the line below :data:`_REASON_BELOW`)."""
    if f"explain.{causes.platform.CPU_LACKS_AVX}" in findings or m.facts.platform is not None:
        return None
    emulated = findings.get(f"explain.{causes.platform.CPU_EMULATED}")
    # Both causes' signatures come to one reading (_cpu_avx): its crash lines, whichever.
    crashes = [
        h
        for c in (causes.platform.CPU_EMULATED, causes.platform.CPU_LACKS_AVX)
        for h in by_cause.get(c, ())
        if h.signature.id != "conda-apple-channel-x86"  # a search, not a crash
    ]
    if (
        emulated is not None
        and emulated.severity.rank >= Severity.WARNING.rank
        and crashes
        and not any(EMULATOR in h.signature.tags for h in crashes)
        and r.mac is None
    ):
        lines = [cite([h]) for h in crashes]
        return causes.other_candidate(
            causes.platform.CPU_LACKS_AVX,
            "an Intel Mac whose CPU lacks AVX (or the AVX2 a build needs)",
            "\n".join(
                (
                    *lines[:1],
                    "The log does not show which Mac this is. On Apple silicon the crash is "
                    "x86-64 code under Rosetta 2 (the reading above); on an Intel Mac it is the "
                    "CPU itself: those made up to 2010 lack AVX, which every TensorFlow wheel "
                    "after 1.5 needs, and those up to 2012 lack AVX2, which some builds need. "
                    "The command below tells the two apart: an Apple M chip is the reading "
                    "above, an Intel CPU without AVX1.0 (or AVX2) is this one.",
                )
            ),
            causes.platform.cpu_avx_fix(None, system="macos"),
        )
    reason_cut = [
        h
        for c in (causes.platform.MSVC_RUNTIME_MISSING, causes.platform.NATIVE_LIBRARY_UNRESOLVED)
        for h in by_cause.get(c, ())
        if REASON_CUT in h.signature.tags
    ]
    if not reason_cut or r.os not in (None, "windows") or _REASON_BELOW.search(text):
        return None
    others = [
        h
        for hs in by_cause.values()
        for h in hs
        if REASON_CUT not in h.signature.tags and h.signature.severity != "info"
    ]
    if others or r.dll_extension is not None:
        return None  # another line says more than a cut reason
    first = reason_cut[0]
    return causes.other_candidate(
        causes.platform.CPU_LACKS_AVX,
        "a CPU without AVX, on which TensorFlow's native library cannot start",
        "\n".join(
            (
                cite([first]),
                "The log cuts the loader's reason. On Windows TensorFlow's library fails to "
                "load for a DLL it links that is missing (the Visual C++ runtime), or fails to "
                "start on a CPU without AVX, which every release from 1.6 is built for "
                "(Windows then says 'A dynamic link library (DLL) initialization routine "
                "failed'). The command below lists the CPU's instruction sets: no AVX is this "
                "candidate.",
            )
        ),
        _avx_check_fix(
            "windows" if r.os == "windows" or WINDOWS_WORDS in first.signature.tags else None
        ),
    )


def _avx_check_fix(system: Optional[str]) -> Fix:
    """The AVX fix for ``system``; where the log shows none, with the check of Windows (whose
    loader words this failure so) beside Linux's."""
    fix = causes.platform.cpu_avx_fix(None, system=system)
    if system is not None:
        return fix
    windows = causes.platform.cpu_avx_fix(None, system="windows")
    return Fix(fix.text, (*fix.commands, *windows.commands))


def _jvm_candidate(
    findings: Mapping[str, Finding], by_cause: Mapping[str, Sequence[Hits]], r: Revealed
) -> Optional[Finding]:
    """TensorFlow's HDFS file system, as the second candidate where the JVM's library did not
    load and the log shows neither HDFS nor another library that starts a JVM in the process:
    libhdfs links libjvm.so, found through JAVA_HOME and the loader's path, and TensorFlow
    loads no JVM otherwise. None where HDFS is shown (then it is the reading itself) or JPype,
    pyjnius, python-javabridge or rJava is named."""
    found = findings.get(f"explain.{causes.platform.NATIVE_LIBRARY_UNRESOLVED}")
    if found is None or r.hadoop or r.jvm_embedder:
        return None
    hits = [
        h
        for h in by_cause.get(causes.platform.NATIVE_LIBRARY_UNRESOLVED, ())
        if any(
            g.get("library", "").replace("\\", "/").rsplit("/", 1)[-1].startswith("libjvm.so")
            for g in h.groups
        )
    ]
    if not hits or f"explain.{causes.runtime.FILESYSTEM_ENV_MISCONFIGURED}" in findings:
        return None
    return causes.other_candidate(
        causes.runtime.FILESYSTEM_ENV_MISCONFIGURED,
        "TensorFlow's HDFS file system, whose libhdfs needs the JVM that JAVA_HOME names",
        "\n".join(
            (
                cite(hits[:1]),
                "libjvm.so is the JVM's library. TensorFlow loads it only through Hadoop's "
                "libhdfs, which its HDFS file system opens for an hdfs:// path (TensorFlowOnSpark "
                "jobs too), and finds it through JAVA_HOME and the loader's path; the log names "
                "no other library that starts a JVM in the process (JPype, rJava). Where the "
                "program reads from HDFS, this is the candidate: JAVA_HOME wrong or unset on the "
                "machine (each node of a cluster) that ran it.",
            )
        ),
        causes.runtime.hdfs_env_fix(),
    )


def _binding_word_size_candidate(
    findings: Mapping[str, Finding], by_cause: Mapping[str, Sequence[Hits]]
) -> Optional[Finding]:
    """A 32-bit process, as the second candidate where a .NET program did not find
    TensorFlow's C library: the library is built for 64-bit only, and a process built for x86
    (or AnyCPU preferring 32-bit) reports it as not found although it lies beside the program
    (Mono words every failed dlopen so). None where another reading took the line."""
    found = findings.get(f"explain.{causes.platform.NATIVE_LIBRARY_UNRESOLVED}")
    hits = hits_by(
        by_cause, causes.platform.NATIVE_LIBRARY_UNRESOLVED, "dotnet-tensorflow-dll-not-found"
    )
    if (
        found is None
        or not hits
        or f"explain.{causes.platform.BINDING_PROCESS_NOT_64BIT}" in findings
    ):
        return None
    return causes.other_candidate(
        causes.platform.BINDING_PROCESS_NOT_64BIT,
        "the .NET program runs as a 32-bit process, which cannot load the 64-bit library",
        "\n".join(
            (
                cite(hits[:1]),
                "TensorFlow's C library is built for 64-bit systems only; a program built for "
                "x86, or AnyCPU with 'Prefer 32-bit' (a .NET Framework console project's "
                "default), runs as a 32-bit process, and the runtime reports the library as not "
                "found even where it lies beside the program. Where the file is there, this is "
                "the candidate.",
            )
        ),
        causes.platform.binding_64bit_fix("dotnet"),
    )


def pip_reading_glibc(glibc: tuple[int, ...]) -> tuple[int, ...]:
    """The first pip that reads the manylinux tag of the glibc floor ``glibc``: manylinux1
    (PEP 513) from 8.1, manylinux2010 (PEP 571) from 19.0, manylinux2014 (PEP 599) from 19.3,
    any other manylinux_x_y (PEP 600) from 20.3 (pip's release notes,
    https://pip.pypa.io/en/stable/news/)."""
    if tuple(glibc[:2]) <= MANYLINUX1_GLIBC:
        return causes.platform.PIP_MANYLINUX1
    return {
        "manylinux2010": causes.platform.PIP_MANYLINUX2010,
        "manylinux2014": causes.platform.PIP_MANYLINUX2014,
    }.get(manylinux_name(glibc), causes.platform.PIP_PEP600)


def _pip_reading_tag(tag: str) -> tuple[int, ...]:
    """The first pip that reads the platform tag ``tag``: a legacy manylinux alias's
    (:func:`pip_reading_glibc`), any tag PEP 600 spells (``manylinux_2_17_x86_64``, which
    pip 19.3 does not read though it reads ``manylinux2014_x86_64``) and macOS 11's and
    later's from 20.3 (pip 20.3's release notes: PEP 600, Big Sur's tags); () for the tags
    every pip in use reads (Windows', macOS 10's, ``linux_x86_64``) and those not judged here
    (musllinux, macOS 10's ``universal2``: their refusal stays the wheel's misfit)."""
    if pep600_spelled(tag):
        return causes.platform.PIP_PEP600
    glibc = manylinux_glibc(tag)
    if glibc is not None:
        return pip_reading_glibc(glibc)
    target = macos_target(tag)
    if target is not None and target[0] >= 11:
        return causes.platform.PIP_MACOS11
    return ()


def _tag_floor(tag: str) -> str:
    """The system a manylinux or macOS tag's wheel needs beyond a pip that reads it (``glibc
    2.28``, ``macOS 11.0``), or empty."""
    glibc = manylinux_glibc(tag)
    target = macos_target(tag)
    if glibc is not None:
        return f"glibc {glibc[0]}.{glibc[1]}"
    return f"macOS {target[0]}.{target[1]}" if target is not None else ""


def matrix_platform_of_tags(platform: str) -> str:
    """The matrix's platform key (``windows-x86_64``, ``macos-arm64``) a wheel's platform
    tags (``manylinux_2_17_x86_64.manylinux2014_x86_64``) name, where they name one system and
    one machine the matrix knows; else empty (a universal2 wheel, a 32-bit Arm tag)."""
    keys = {
        f"{os}-{'arm64' if os == 'macos' and machine == 'aarch64' else machine}"
        for tag in platform.split(".")
        if (os := tag_os(tag)) is not None
        for machine in tag_machines(tag)
    }
    return next(iter(keys)) if len(keys) == 1 and keys <= set(PLATFORMS) else ""


def pip_blind_to_wheel(m: Machine, r: Revealed, wheel: WheelRefusal) -> Optional[Fix]:
    """pip's "is not a supported wheel on this platform" where the log shows a pip older than
    the first that reads every platform tag the wheel carries (a manylinux2014 wheel under pip
    19.2, macOS 11's tags under pip 20.2): that pip refuses the wheel on any machine, so
    upgrading pip is the fix. None where the pip is not shown or reads one of the tags, or the
    log shows the wheel is for another Python, system or machine (the tags' own misfit)."""
    if not r.pip_version:
        return None
    tags = wheel.platform.split(".")
    needs = min(map(_pip_reading_tag, tags))
    # A pip the log shows installed (an upgrade) may be the one that refused: only where no
    # pip shown reads the tags is the refusal an old pip's.
    if any(version_key(v) >= needs for v in (r.pip_version, *r.pip_installed)):
        return None
    shown = ".".join((r.python or "").split(".")[:2])
    if shown and wheel.python_version and wheel.python_version != shown:
        return None
    if r.os is not None and r.os not in {tag_os(t) for t in tags}:
        return None
    machines = {a for t in tags for a in tag_machines(t)}
    if r.machine and machines and machine_name(r.machine) not in machines:
        return None
    first = ".".join(map(str, needs))
    floor = min((_tag_floor(t) for t in tags if _pip_reading_tag(t) == needs), default="")
    which = (
        f"any of its platform tags ({', '.join(tags)})"
        if len(tags) > 1
        else (f"its platform tag ({tags[0]})")
    )
    return causes.platform.pip_upgrade_fix(
        m,
        f"pip {r.pip_version} refused {wheel.file}: the first pip that reads {which} is "
        f"{first}, so this pip refuses the wheel on any machine"
        + (f" (the wheel also needs {floor} or later)" if floor else "")
        + ".",
        pip=r.pip_version,
    )


_DLOPENED = re.compile(r"dlopen\(([^,]+),")


def _wrong_arch(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "pip-unsupported-wheel-other" for h in hits):
        # pip refused a wheel file: its tags (from the message, or the command that named it)
        # say what it needs.
        wheel = next(iter(r.wheel_refusals), None)
        if wheel is None:
            return causes.platform.WHEEL_MISMATCH, causes.platform.unnamed_wheel_fix(m)
        blind = pip_blind_to_wheel(m, r, wheel)
        if blind is not None:
            return causes.platform.PIP_TOO_OLD, blind
        return causes.platform.WHEEL_MISMATCH, causes.platform.wheel_tags_fix(
            m,
            wheel.file,
            wheel.python_version,
            wheel.platform,
            wheel.abi,
            matrix_platform_of_tags(wheel.platform),
        )
    if any(h.signature.id == "musl-loader-tensorflow" for h in hits):
        return causes.platform.WHEEL_MISMATCH, causes.platform.musl_fix()
    if any(h.signature.id == "windows-module-other-python" for h in hits):
        package = r.dll_extension
        return causes.platform.WHEEL_MISMATCH, causes.platform.other_python_dll_fix(
            m,
            group(hits, "library") or "",
            distribution_of(package) if package else None,
            package,
        )
    library = group(hits, "library")
    if library and causes.platform.tfjs_binding(library):
        return causes.platform.WHEEL_MISMATCH, causes.platform.tfjs_word_size_fix(library)
    if any(h.signature.id == "library-wrong-architecture" for h in hits) and library:
        top = installed_package(library)
        if top is None:
            # A library file of its own (libtensorflow.so of the C API), not a wheel's: its
            # build for this machine's architecture, not a reinstall.
            return causes.platform.WHEEL_MISMATCH, causes.platform.library_architecture_fix(library)
    # The loader's words: "have" is the library's architecture; the file it refused (dlopen's
    # first argument) says whose it is.
    lines = [line for h in hits for _, line in h.citations]
    refused = next((m.group(1) for m in map(_DLOPENED.search, lines) if m is not None), "")
    if not refused and any(h.signature.id == "binary-wrong-architecture-dyld2" for h in hits):
        # dyld 2 names the refused file on a line of its own, after dlopen's.
        refused = library or ""
    top = installed_package(refused) if refused else None
    dist = (distribution_of(top) if top else None) or "tensorflow"
    dyld = any(
        h.signature.id in ("binary-wrong-architecture", "binary-wrong-architecture-dyld2")
        for h in hits
    )
    return causes.platform.WHEEL_MISMATCH, causes.platform.architecture_fix(
        group(hits, "architecture"), dist, m, dyld
    )


#: The signatures of a thread a library could not start -> the pool it belongs to
#: (causes.runtime.thread_limit_fix); TensorFlow's own where none of these matched.
_THREAD_POOL_OF = {
    "openblas-thread-creation-failed": "openblas",
    "openmp-thread-creation-failed": "openmp",
    "python-thread-start-failed": "python",
}


def _threads(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A thread the process could not start: the fix caps each pool whose words the log shows,
    in the log's order, so that the pool the finding's title names is among them."""
    pools = [_THREAD_POOL_OF.get(h.signature.id, "tensorflow") for h in hits]
    return causes.runtime.THREADS_EXHAUSTED, causes.runtime.thread_limit_fix(m, pools)


def _few_cores(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.gpu.GPU_TOO_FEW_CORES, causes.gpu.few_cores_fix(m, group(hits, "cores"))


#: A Windows path in an exception's message (a drive, then a run of characters no path
#: holds none of): quoted or not, up to the next quote or the line's end.
_WINDOWS_PATH_IN_MESSAGE = re.compile(r"(?<![\w])[A-Za-z]:[\\/][^'\"<>|\n\r]{20,2000}")
#: The words of a failure to create, open or find a file, Python's (FileNotFoundError,
#: ``[Errno 2]``, ``[WinError 3]``, ``[WinError 206]``) and TensorFlow's file system's
#: (``Failed to create a directory``, NotFoundError).
_FILE_FAILED = re.compile(
    r"Failed to create|No such file or directory|cannot find the path|WinError (?:3|206)\b"
    r"|FileNotFoundError|NotFoundError|too long",
    re.I,
)


def long_path_exception(tracebacks: Sequence[Traceback]) -> Optional[Finding]:
    """An exception that failed to create, open or find a file whose Windows path is past
    MAX_PATH: Windows refuses such a path unless long paths are on (and the program declares
    itself long-path aware, as python.exe does from 3.6). Any program's, not pip's alone."""
    for tb in failures(tracebacks):
        said = f"{tb.type}: {tb.message}"
        if not _FILE_FAILED.search(said):
            continue
        for found in _WINDOWS_PATH_IN_MESSAGE.finditer(tb.message):
            path = found.group(0).rstrip(" .,;:)")
            if len(path.replace("\\\\", "\\")) < causes.platform.NEAR_MAX_PATH:
                continue
            return causes.finding(
                f"explain.{causes.platform.WINDOWS_LONG_PATHS}",
                Severity.ERROR,
                causes.platform.WINDOWS_LONG_PATHS,
                "A file's path is longer than Windows allows",
                f"{tb.where}: {tb.type}: {tb.message[:300]}\nThe path is {len(path)} "
                "characters; Windows refuses a path past 260 (MAX_PATH) unless long paths are "
                "on.",
                causes.platform.long_file_path_fix(),
            )
    return None
