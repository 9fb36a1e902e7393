"""Builders for the CUDA libraries, cuDNN and GPU memory a log shows."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple, Optional

from tfdoctor import causes
from tfdoctor.compat import PTX, SASS, carries_machine_code
from tfdoctor.evidence import tflog
from tfdoctor.evidence.dpkg import apt_installed, dpkg_installed
from tfdoctor.evidence.tflog import library_of
from tfdoctor.explain.common import _floor, _without, cite, group, hits_by
from tfdoctor.explain.drivers import _driver_runs
from tfdoctor.explain.revealed import Revealed
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key
from tfdoctor.signatures import DIRECTML_WORDS, ROCM_WORDS

#: The signatures of TensorFlow's CUDA runtime stub (cudart_stub.cc) that say libcudart did not
#: load without naming its file.
_CUDART_STUB: Final = frozenset(
    {"cudart-stub-no-driver", "cudart-stub-symbol-not-found", "cudart-stub-error-loading"}
)


def _libraries(hits: Sequence[Hits]) -> tuple[str, ...]:
    names = [library_of(g["library"]) for h in hits for g in h.groups if g.get("library")]
    if any(h.signature.id == "dnn-library-not-found" for h in hits):
        names.append("cudnn")
    if any(h.signature.id in _CUDART_STUB for h in hits):
        names.append("cudart")
    return tuple(dict.fromkeys(names))


# dlopen's reason when the file loads but a symbol it binds with a version is not in the
# library of that name the loader found (glibc's "undefined symbol: X, version Y").
_UNDEFINED = re.compile(
    r"(?:dlerror|Error): (?P<path>\S+?): undefined symbol: (?P<symbol>\w+)"
    r"(?:, version (?P<partner>[\w.]+))?"
)


def _mixed_release(hits: Sequence[Hits]) -> Optional[Fix]:
    """The fix for a CUDA library that loaded without a versioned symbol of its partner (two
    releases mixed on the loader's path), read from the line that says so."""
    for hit in hits:
        for _, line in hit.citations:
            found = _UNDEFINED.search(line)
            if found is not None:
                return causes.gpu.mixed_release_fix(
                    found.group("path"), found.group("symbol"), found.group("partner") or ""
                )
    return None


def _shadowed(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    library = group(hits, "library") if len(hits) == 1 else None
    if hits and hits[0].signature.id == "jax-cuda-library-older" and library:
        # JAX's own check: its library of an older release than its build came first.
        cause = causes.gpu.CUDNN_SHADOWED if library == "cuDNN" else causes.gpu.CUDA_LIB_SHADOWED
        return cause, causes.gpu.jax_library_older_fix(
            m, library, group(hits, "loaded") or "", group(hits, "required") or ""
        )
    fix = _mixed_release(hits)
    if fix is None and any(h.signature.id == "cudnn-sublibrary-mismatch" for h in hits):
        # cuDNN's own status names no file: the fix lists every copy to find the mix.
        fix = causes.gpu.mixed_cudnn_fix(m)
    return causes.gpu.CUDA_LIB_SHADOWED, fix or causes.gpu.read_device_log_fix()


#: cuDNN's own loader of its parts on Windows with Windows' error code (the system error
#: codes: 126 a module not found, 193 a file of another machine type;
#: https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-).
_CUDNN_PART = re.compile(
    r"Could not load library (?P<part>cudnn_\w+64_\d+\.dll)\. Error code (?P<code>\d+)"
)


def _cudnn_part_refused(hits: Sequence[Hits]) -> Optional[tuple[str, str]]:
    """The part of cuDNN (``cudnn_cnn_infer64_8.dll``) that cuDNN itself could not load on
    Windows after its main DLL loaded, and Windows' error code; None where no line says so,
    or where zlib's own line is shown (its reading names it)."""
    if any(h.signature.id == "cudnn-zlib-missing" for h in hits):
        return None
    for hit in hits:
        for _, line in hit.citations:
            found = _CUDNN_PART.search(line)
            if found is not None:
                return found.group("part"), found.group("code")
    return None


def _cuda_libs(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if all(h.signature.id == "onnxruntime-cuda-provider" for h in hits):
        # ONNX Runtime's words alone: its CUDA provider's libraries, not TensorFlow's.
        return causes.gpu.CUDA_LIBS_MISSING, causes.gpu.onnxruntime_cuda_fix(
            m, group(hits, "required"), group(hits, "cuda_version")
        )
    names = _libraries(hits)
    if m.rocm_build:
        # tensorflow-rocm's gpu_device.cc prints the CUDA build's summary ("Cannot dlopen
        # some GPU libraries", under GOOGLE_CUDA || TENSORFLOW_USE_ROCM): ROCm's libraries,
        # unless the names the log gives are CUDA's (the one builder decides).
        cause, fix = causes.gpu.cuda_libraries_fix(m, names)
        if cause == causes.gpu.ROCM_LIBS_OFF_PATH:
            return cause, fix
    if r.nix_store is not None and names and m.facts.cuda_libs is None:
        # A Nix package's libraries are in the store, found only through run paths: one the
        # loader did not find is off the path the package was built with.
        return causes.gpu.CUDA_LIBS_OFF_PATH, causes.gpu.nix_cuda_fix(r.nix_store, names)
    if r.other_toolkit is not None and m.facts.cuda_libs is None:
        return causes.gpu.CUDA_LIBS_MISSING, causes.gpu.other_toolkit_fix(m, *r.other_toolkit)
    if r.cuda_wheels is not None and m.facts.cuda_libs is None:
        return causes.gpu.CUDA_WHEELS_UNFOUND, causes.gpu.wheel_dirs_fix(m.python_exe)
    mixed = _mixed_release(hits)
    if mixed is not None:
        return causes.gpu.CUDA_LIB_SHADOWED, mixed
    part = _cudnn_part_refused(hits)
    if part is not None:
        return causes.gpu.CUDA_LIBS_MISSING, causes.gpu.cudnn_part_fix(*part)
    shown = _copies_shown(m, r, hits)
    if shown is not None:
        return shown
    ranked = _unfound_ranked(m, r, hits, names)
    if ranked is not None:
        return ranked
    cause, fix = causes.gpu.cuda_libraries_fix(m, names)
    if names and not any(name in fix.text for name in names):
        # Say which: the toolkit's installer and NVIDIA's wheels package each library apart.
        fix = Fix(f"Missing: {', '.join(names)}. {fix.text}", fix.commands)
    elif _no_library_named(m, hits):
        fix = Fix(f"{_NONE_NAMED} {fix.text}", fix.commands)
    return cause, fix


def _no_library_named(m: Machine, hits: Sequence[Hits]) -> bool:
    """Whether no line of the log names a library that did not load (TensorFlow's summary,
    "Cannot dlopen some GPU libraries", without the loader's lines before it), and no facts of
    the machine (the loader's own search) say which."""
    return not _libraries(hits) and not m.unloaded_files and m.facts.cuda_libs is None


def _unnamed_library_severity(
    final: causes.CauseId, m: Machine, hits: Sequence[Hits], severity: Severity
) -> Severity:
    """A missing library's finding at most a warning where no line names the library: the
    summary alone says the GPU was not registered, not which library failed (the fix says so)."""
    if (
        final == causes.gpu.CUDA_LIBS_MISSING
        and severity.rank > Severity.WARNING.rank
        and _no_library_named(m, hits)
    ):
        return Severity.WARNING
    return severity


#: What TensorFlow's summary alone ("Cannot dlopen some GPU libraries. Please make sure the
#: missing libraries mentioned above are installed properly ... Skipping registering GPU
#: devices...", gpu_device.cc) shows: some library did not load and the GPU was not
#: registered; which library is named only by the loader's own lines.
_NONE_NAMED = (
    "No line of the log names the library that did not load: TensorFlow's summary says that "
    "some GPU libraries did not load and that it skipped the GPU, not which (the loader's "
    "own lines, which it calls the ones 'mentioned above', name them)."
)


def _custom_op_unresolved(
    findings: Mapping[str, Finding], by_cause: Mapping[str, Sequence[Hits]]
) -> Optional[Finding]:
    """A project's own op library that the loader could not resolve (its signatures are the
    native loader's), read as custom-op-build-mismatch: the general reading, a native library
    whose symbols or dependencies did not resolve, named too as a warning with the same way
    out, for a reader who looks for the loader's cause."""
    found = findings.get(f"explain.{causes.software.CUSTOM_OP_BUILD_MISMATCH}")
    if (
        found is None
        or found.severity.rank < Severity.WARNING.rank
        or not (
            causes.platform.NATIVE_LIBRARY_UNRESOLVED in by_cause
            or causes.software.COMPANION_MISMATCH in by_cause
        )
        or f"explain.{causes.platform.NATIVE_LIBRARY_UNRESOLVED}" in findings
    ):
        return None
    return causes.finding(
        f"explain.{causes.platform.NATIVE_LIBRARY_UNRESOLVED}",
        Severity.WARNING,
        causes.platform.NATIVE_LIBRARY_UNRESOLVED,
        "The loader could not resolve the op library's symbols (the general reading of the "
        "custom op above)",
        "The loader's words are those of any native library whose symbols or dependencies do "
        "not resolve; the op library is the project's own, built against another TensorFlow or "
        "with other flags: the custom op's fix above is the way out.",
        found.fix,
    )


#: The companion reading's signature for an op library's missing TensorFlow symbol printed
#: without the library's path (signatures.yaml): the words name no library.
_BARE_OP_SYMBOL = "op-undefined-symbol-bare"


def _unnamed_op_library_candidate(
    findings: Mapping[str, Finding], by_cause: Mapping[str, Sequence[Hits]], r: Revealed
) -> Optional[Finding]:
    """An op library's missing TensorFlow symbol where the log names neither the library nor
    the code that loaded it (no path, no frame calling ``tf.load_op_library``): an add-on's
    library built for another TensorFlow is the reading above, and a project's own op library,
    compiled against another TensorFlow or with other flags (tf.sysconfig's), the other
    candidate, with its own way out. The same words come from both
    (tensorflow/core/framework/load_library.cc returns dlopen's error for either)."""
    found = findings.get(f"explain.{causes.software.COMPANION_MISMATCH}")
    hits = by_cause.get(causes.software.COMPANION_MISMATCH, ())
    if (
        found is None
        or found.severity.rank < Severity.WARNING.rank
        or not hits
        or any(h.signature.id != _BARE_OP_SYMBOL for h in hits)
        or r.op_loader is not None
        or f"explain.{causes.software.CUSTOM_OP_BUILD_MISMATCH}" in findings
    ):
        return None
    symbol = group(hits, "symbol") or ""
    return causes.finding(
        f"explain.{causes.software.CUSTOM_OP_BUILD_MISMATCH}",
        Severity.WARNING,
        causes.software.CUSTOM_OP_BUILD_MISMATCH,
        "Or: the op library is the project's own build, compiled against another TensorFlow "
        "or with other flags (the other candidate)",
        f"The log names neither the op library missing {symbol} nor the code that loaded it: "
        "an installed add-on's library (the reading above) and one a project compiled itself "
        "(a Makefile or setup.py with TensorFlow's include and link flags) fail with the same "
        "words.",
        causes.software.custom_op_fix("", symbol, r.tf_version),
    )


def _missing_left_open(
    findings: Mapping[str, Finding], m: Machine, r: Revealed, other: causes.CauseId
) -> bool:
    """Whether ``cuda-libs-missing`` is a warning or above that nothing decided (the machine's
    facts, the loader's own search; another toolkit, pip's CUDA wheels or a copy shown in the
    log), and the ``other`` candidate is not read yet."""
    missing = findings.get(f"explain.{causes.gpu.CUDA_LIBS_MISSING}")
    return not (
        missing is None
        or missing.cause != causes.gpu.CUDA_LIBS_MISSING
        or missing.severity.rank < Severity.WARNING.rank
        or f"explain.{other}" in findings
        or m.facts.cuda_libs is not None
        or r.other_toolkit is not None
        or r.cuda_wheels is not None
        or r.library_files
    )


def _other_library_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
) -> Optional[Finding]:
    """The second candidate for CUDA libraries the loader did not find, where the log cannot
    tell installed-off-the-path from not installed and the first is the missing cause: that
    they are installed where the loader does not look, a warning with how to tell and its
    path line. None where the machine's facts (the loader's own search) or the log decide: a
    copy shown, another toolkit's, pip's CUDA wheels, two releases mixed, or the off-path
    reading already given."""
    if not _missing_left_open(findings, m, r, causes.gpu.CUDA_LIBS_OFF_PATH):
        return None
    hits = by_cause.get(causes.gpu.CUDA_LIBS_MISSING, ())
    if not hits or _mixed_release(hits) is not None:
        return None
    if all(h.signature.id == "onnxruntime-cuda-provider" for h in hits):
        return None  # ONNX Runtime's fix names both readings itself
    part = _cudnn_part_refused(hits)
    if part is not None and part[1] == "193":
        return None  # a file found, of another word size: not one off the path
    names = _libraries(hits)
    if _no_library_named(m, hits):
        # No library named, none shown on the disk: nothing the log shows is off the path
        # (the missing finding's fix already says how a copy found would be put on it).
        return None
    shown = ", ".join(names) or "the CUDA libraries"
    return causes.other_candidate(
        causes.gpu.CUDA_LIBS_OFF_PATH,
        f"{shown} installed where the loader does not look",
        "The loader's words say only that it did not find the file, not that it is absent: "
        "the log does not show whether a copy is on the disk. The search below tells the two "
        "candidates apart: no copy found is the missing cause above; a copy found is this one.",
        causes.gpu.off_path_candidate_fix(m, names),
    )


def _cudnn_major_candidate(
    findings: Mapping[str, Finding], m: Machine, r: Revealed
) -> Optional[Finding]:
    """A further candidate where TensorFlow skipped the GPU (gpu_device.cc's "Cannot dlopen
    some GPU libraries") and the log names no library it could not load (the loader's lines
    cut or not pasted): a cuDNN of another major than the build loads, the library installed
    apart from CUDA's toolkit and the one whose major changes between lines. None where a
    library is named, the facts (the loader's own search) decide, or pip's CUDA wheels or
    another toolkit are shown."""
    if (
        not _missing_left_open(findings, m, r, causes.gpu.CUDNN_VERSION_MISMATCH)
        or m.unloaded_files
        or not m.tf_logged(tflog.GpuRegistrationSkipped)
    ):
        return None
    return causes.other_candidate(
        causes.gpu.CUDNN_VERSION_MISMATCH,
        "a cuDNN of another major than the build loads",
        "TensorFlow's summary says some GPU libraries did not load, and the log does not show "
        "the loader's lines that name them: the CUDA libraries (the candidates above) or a "
        "cuDNN of another major, which TensorFlow refuses by its file name alike.",
        causes.gpu.cudnn_major_candidate_fix(m),
    )


#: Places a copy shown there does not serve from: conda's package cache (an environment links
#: its files from there into its own lib directory) and a trash folder.
_NOT_SERVED = re.compile(r"/pkgs/|[/\\]\.?Trash|\$Recycle", re.IGNORECASE)


def _copies_shown(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """CUDA libraries the loader did not find that the log itself shows on the disk (a
    listing, find's output, a path written out), outside every directory the loader's printed
    path holds: installed, off the loader's path for the process that failed. None where the
    log shows no such copy, or the machine's facts (the loader's own search) decide."""
    if m.facts.cuda_libs is not None:
        return None
    unloaded = m.tf_logged(tflog.LibraryNotLoaded)
    wanted = {e.soname.lower() for e in unloaded}
    wanted |= {g["library"].lower() for h in hits for g in h.groups if g.get("library")}
    # A directory the loader searched and did not find the file in: not a copy off its path.
    searched = {d.rstrip("/") for e in unloaded for d in e.search_path.split(":") if d}
    copies: dict[str, tuple[str, str]] = {}
    for shown in (tflog.LibraryFileShown(0, "", path) for path in r.library_files):
        name = shown.name.lower()
        # The very file asked for: its soname (libcudnn.so.8), or a fuller version of it
        # (libcudnn.so.8.9.7, the file the soname links to); another major serves nothing.
        asked = next((w for w in wanted if name == w or name.startswith(w + ".")), None)
        if asked is None or _NOT_SERVED.search(shown.path) or shown.directory in searched:
            continue
        copies.setdefault(asked, (shown.path, shown.directory))
    if not copies:
        return None
    rest = tuple(
        dict.fromkeys(library_of(w) for w in sorted(wanted - set(copies)) if "nvinfer" not in w)
    )
    return causes.gpu.CUDA_LIBS_OFF_PATH, causes.gpu.shown_copy_fix(m, tuple(copies.values()), rest)


#: TensorFlow 2's loader line for a CUDA library it could not open (dso_loader.cc), and a
#: user's words (or ldd) naming one as not found.
_LOADER_LINE = "dlopen-cuda-library"
_NAMED_NOT_FOUND = "cuda-library-named-not-found"
_UNFOUND = frozenset({_LOADER_LINE, _NAMED_NOT_FOUND})
#: A conda environment's own lib directory in the loader's printed path.
_ENV_LIB_ON_PATH = re.compile(
    r"(?:/envs/[\w.-]+|/(?:(?:mini|ana)conda\d*|miniforge\d*|mambaforge|opt/conda))/lib/?$"
)


def _unfound_ranked(
    m: Machine, r: Revealed, hits: Sequence[Hits], names: tuple[str, ...]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """The ranked candidates for CUDA libraries the loader did not find, where the log cannot
    decide between installed-off-its-path and not installed and makes the first likelier: an
    active conda environment shown beside TensorFlow 2's loader line (from 2.9 to 2.14
    TensorFlow's own guide installs CUDA into the environment's lib directory, off the loader's
    path until an activate.d script adds it), or the library named as not found in words
    only. None where the machine's facts (the loader's own search) or the log decide: the
    printed path already holds the environment's lib, a Windows DLL, a release whose CUDA comes
    from its own pip wheels."""
    ids = {h.signature.id for h in hits}
    if m.facts.cuda_libs is not None or m.os == "windows" or not ids & _UNFOUND:
        return None
    if any(g.get("library", "").endswith(".dll") for h in hits for g in h.groups):
        return None  # Windows finds DLLs through PATH: no loader path, no conda lib
    printed = [d for e in m.tf_logged(tflog.LibraryNotLoaded) for d in e.search_path.split(":")]
    if any(_ENV_LIB_ON_PATH.search(directory) for directory in printed):
        return None  # the environment's lib is searched: the library is not in it
    conda = r.conda_env is not None and _conda_route(m)
    if conda and _LOADER_LINE in ids:
        shown = (
            f"The log shows an active conda environment ({r.conda_env}) and TensorFlow's "
            f"loader not finding {', '.join(names) or 'a CUDA library'}"
        )
    elif ids == {_NAMED_NOT_FOUND}:
        shown = f"The log names {', '.join(names) or 'a CUDA library'} as not found"
    else:
        return None  # TensorFlow's own lines, without a conda environment: the general fix
    fix = causes.gpu.unfound_library_fix(m, names, shown, conda, _major_named(hits))
    # Off its path first only where a conda environment makes it likelier; a user's "not
    # found" alone says nothing of whether it is installed: the missing cause, with the same
    # ranked candidates.
    return (causes.gpu.CUDA_LIBS_OFF_PATH if conda else causes.gpu.CUDA_LIBS_MISSING), fix


#: An NVIDIA wheel's directory on a printed path (site-packages/nvidia/cublas/lib).
_WHEEL_DIR = re.compile(r"(?:site|dist)-packages/nvidia/")


def _off_path(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """CUPTI, the profiler's library, off the loader's path (the one signature of this cause
    in a log): its directory, from the CUDA release its file name says and from where the
    log shows the CUDA libraries come from (NVIDIA's pip wheels: installed, or a
    ``site-packages/nvidia`` directory on the printed path), and whether the path the loader
    printed lacks it."""
    for hit in hits:
        for groups in hit.groups:
            library = groups.get("library", "")
            if "cupti" in library.lower():
                printed = next(
                    (
                        e.search_path
                        for e in m.tf_logged(tflog.LibraryNotLoaded)
                        if e.soname == library and e.search_path
                    ),
                    None,
                )
                # A wheel's directory, not the container runtime's /usr/local/nvidia/lib64.
                wheels = r.cuda_wheels
                if wheels is None and _WHEEL_DIR.search(printed or ""):
                    wheels = ""
                return causes.gpu.CUDA_LIBS_OFF_PATH, causes.gpu.cupti_fix(
                    m, library, printed, wheels
                )
    return _cuda_libs(m, r, hits)


def _major_named(hits: Sequence[Hits]) -> Optional[str]:
    """The CUDA major the library files named imply (``libcudart.so.11.0``: 11), if any."""
    for hit in hits:
        for groups in hit.groups:
            cuda = tflog.cuda_of_soname(groups.get("library", "").lower())
            if cuda is not None:
                return cuda.split(".", 1)[0]
    return None


def _conda_route(m: Machine) -> bool:
    """Whether TensorFlow's CUDA may come from a conda environment's lib directory: not a
    release whose own CUDA wheels serve it (the matrix's ``cuda_install``), nor a CUDA major
    only such releases were built for."""
    if m.line is not None:
        return m.cuda_install_method != "and-cuda"
    major = m.build_cuda_major
    if major is None or m.matrix is None:
        return True  # not known which release: the conda route is not ruled out
    return any(
        line.cuda is not None
        and line.cuda.split(".", 1)[0] == major
        and (line.cuda_install is None or line.cuda_install.method != "and-cuda")
        for line in m.matrix.lines
    )


#: A cuDNN file whose name gives its full version (libcudnn.so.8.9.7; the soname's major
#: alone says nothing of the minor the build needs).
_CUDNN_FILE_VERSION = re.compile(r"^libcudnn\.so\.(?P<version>\d+\.\d+(?:\.\d+)?)$")


def _newer_cudnn_shown(r: Revealed) -> Optional[tuple[str, str, str]]:
    """A cuDNN file the log shows on the disk that meets the build's cuDNN (same major, this
    minor or newer) while the process loaded an older one: its version, path and directory.
    None where the log shows no such copy, or the versions are not both stated."""
    loaded, need = r.cudnn_loaded, r.cudnn_compiled
    if not loaded or not need or version_key(loaded) >= version_key(need):
        return None
    for path in r.library_files:
        shown = tflog.LibraryFileShown(0, "", path)
        match = _CUDNN_FILE_VERSION.match(shown.name)
        if match is None:
            continue
        version = match.group("version")
        same_major = version_key(version)[:1] == version_key(need)[:1]
        if same_major and version_key(version)[:2] >= version_key(need)[:2]:
            return version, path, shown.directory
    return None


#: Two spellings that may name one directory: the toolkit's ``/usr/local/cuda``, a link its
#: installer makes to a release's ``/usr/local/cuda-X.Y``, and ``/lib`` beside ``/usr/lib``
#: where the system merged them (Debian, Ubuntu, Fedora): a file under both may be one file,
#: which the log cannot tell from two.
_DIRECTORY_ALIAS = (
    (re.compile(r"^/usr/local/cuda-\d+(?:\.\d+)?(?=/|$)"), "/usr/local/cuda"),
    (re.compile(r"^/usr(?=/lib)"), ""),
)


def _cudnn_copies_shown(r: Revealed) -> tuple[str, ...]:
    """The paths of the cuDNN file that bears the build's major only (``cudnn64_8.dll``,
    ``libcudnn.so.8``: its minor not in the name, so one copy may be the build's) the log shows
    in more than one directory (a ``where.exe`` or ``find`` listing, a path the text names), in
    the order shown, where the process loaded an older cuDNN of the build's major; empty
    otherwise. Two spellings of one directory (:data:`_DIRECTORY_ALIAS`) are one copy."""
    loaded, need = r.cudnn_loaded, r.cudnn_compiled
    if not loaded or not need or not _older_same_major(loaded, need):
        return ()
    major = version_key(need)[0]
    names = (f"libcudnn.so.{major}", f"cudnn64_{major}.dll")
    copies: dict[str, str] = {}
    for path in r.library_files:
        shown = tflog.LibraryFileShown(0, "", path)
        if shown.name.lower() in names:
            where = shown.directory.lower().replace("\\", "/")
            for alias, one in _DIRECTORY_ALIAS:
                where = alias.sub(one, where)
            copies.setdefault(where, path)
    return tuple(copies.values()) if len(copies) > 1 else ()


def _older_cudnn_candidate(
    findings: Mapping[str, Finding], m: Machine, r: Revealed
) -> Optional[Finding]:
    """cuDNN refused an older release of the build's major: an older copy ahead of the
    build's on the loader's path is the other candidate beside an older one installed alone,
    a warning with the listing that tells them apart. None where the log decides (a copy of
    the build's release shown: cudnn-shadowed is the reading) or the versions differ
    otherwise."""
    found = findings.get(f"explain.{causes.gpu.CUDNN_VERSION_MISMATCH}")
    loaded, need = r.cudnn_loaded, r.cudnn_compiled
    if (
        found is None
        or found.cause != causes.gpu.CUDNN_VERSION_MISMATCH
        or found.summary.startswith("Or: ")
        or found.severity.rank < Severity.WARNING.rank
        or not loaded
        or not need
        or not _older_same_major(loaded, need)
        or any(
            tflog.LibraryFileShown(0, "", path).name.lower().startswith(("libcudnn", "cudnn64_"))
            for path in r.library_files
        )
    ):
        # A listing of cuDNN files shown without the build's release (else the copy shown
        # decides, in _cudnn): the user looked, and found no newer copy to come first.
        return None
    return causes.other_candidate(
        causes.gpu.CUDNN_SHADOWED,
        f"an older cuDNN ({loaded}) first on the loader's path, ahead of a cuDNN {need} "
        "installed too",
        f"cuDNN's refusal says which release loaded ({loaded}) and which the build needs "
        f"({need}), not whether a copy of {need} or newer is on the disk too: the listing "
        "below tells. None found is the version's finding above; one found is this one.",
        causes.gpu.older_cudnn_first_fix(m, need, m.os or r.os, bool(r.conda)),
    )


#: The first cuDNN major whose newer minors TensorFlow accepts for a build of an older one:
#: below it the build asks for its own minor ("Minor version is backward-compatible beginning
#: with CuDNN 7", IsSourceCompatibleWithCudnnLibrary in
#: https://github.com/tensorflow/tensorflow/blob/v1.12.0/tensorflow/stream_executor/cuda/cuda_dnn.cc).
_CUDNN_NEWER_MINOR_FROM: Final = 7


def _cudnn_rule(loaded: Optional[str], need: str) -> str:
    """Which cuDNN releases serve a build that needs ``need`` and refused ``loaded``, in words:
    the build's own minor only where it is of a major before :data:`_CUDNN_NEWER_MINOR_FROM`
    and refused a newer minor of it; else its major with this minor or newer."""
    if loaded:
        have, want = version_key(loaded), version_key(need)
        if want[:1] < (_CUDNN_NEWER_MINOR_FROM,) and have[:1] == want[:1] and have[:2] > want[:2]:
            major_minor = ".".join(need.split(".")[:2])
            return f"{major_minor} itself: this build refused the newer {loaded}"
    return "same major, this minor or newer"


def _older_same_major(loaded: str, need: str) -> bool:
    """Whether cuDNN ``loaded`` is older than ``need`` within the same major release."""
    return version_key(loaded)[:1] == version_key(need)[:1] and version_key(loaded) < version_key(
        need
    )


def _cudnn(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    loaded, need = group(hits, "cudnn_loaded"), group(hits, "cudnn_compiled")
    build = group(hits, "xla_build") or ""
    if build and loaded and need and _jaxlib_xla(r, f"{build}/"):
        # jaxlib's XLA refused it (its source path): JAX's own wheel, not TensorFlow's, met
        # another framework's cuDNN first in the process.
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.jax_cudnn_shadowed_fix(m, loaded, need)
    if r.frameworks and loaded and need and not causes.gpu.cudnn_serves(loaded, need):
        # TensorFlow's own refusal, with PyTorch or JAX at work in the same program: their
        # cuDNN (the nvidia-cudnn wheel they pin, or their own copy) is the one that loaded.
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.framework_cudnn_first_fix(
            m, loaded, need, r.frameworks
        )
    newer = _newer_cudnn_shown(r)
    if newer is not None and r.cudnn_loaded and r.cudnn_compiled and m.facts.cuda_libs is None:
        # The right cuDNN is on the disk and an older one loaded: the older comes first.
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.shown_cudnn_shadow_fix(
            m, r.cudnn_loaded, r.cudnn_compiled, *newer
        )
    copies = _cudnn_copies_shown(r)
    if copies and r.cudnn_loaded and r.cudnn_compiled and m.facts.cuda_libs is None:
        # One cuDNN file in two directories, and the one that loaded older than the build's:
        # the loader took the copy that comes first in its order.
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.cudnn_copies_fix(
            m, r.cudnn_loaded, r.cudnn_compiled, copies
        )
    # As the check does: the right cuDNN, got the release's own way (checks/cuda.py).
    cause, fix = causes.gpu.cuda_libraries_fix(m, ("cudnn",))
    need = r.cudnn_compiled or m.build_cudnn  # what TensorFlow itself said wins
    loaded = r.cudnn_loaded
    if need:
        fix = Fix(
            f"TensorFlow needs cuDNN {need} ({_cudnn_rule(loaded, need)}). {fix.text}", fix.commands
        )
    if need and loaded and _older_same_major(loaded, need):
        # Older, same major: what tells an older copy first on the path from an older one
        # installed alone is whether a copy of the build's release is on the disk too.
        first = causes.gpu.older_cudnn_first_fix(m, need, m.os or r.os, bool(r.conda))
        fix = Fix(
            f"{fix.text} {first.text}", tuple(dict.fromkeys((*fix.commands, *first.commands)))
        )
    return (
        causes.gpu.CUDNN_VERSION_MISMATCH if cause == causes.gpu.CUDA_LIBS_MISSING else cause
    ), fix


def _capability(r: Revealed, hits: Sequence[Hits]) -> Optional[str]:
    for hit in hits:
        for groups in hit.groups:
            if groups.get("compute_capability"):
                return groups["compute_capability"]
    return r.compute_capability


def _cuda_predates(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """The reading where the GPU the log shows is newer than the CUDA release the build runs
    with (the libraries it opened, else the matrix's CUDA for the TensorFlow shown); None
    where the log shows either not, or a CUDA that knows the GPU."""
    build = _build_cuda(m, r)
    cap = _capability(r, hits)
    model = m.matrix.gpu_model(r.gpu_name) if r.gpu_name and m.matrix is not None else None
    known = cap or (model.compute_capability if model is not None else None)
    line = m.line if r.build_cuda is None else None
    if line is not None and known and carries_machine_code(line, known):
        # The matrix knows the wheel's own GPU code, and it runs on this GPU (sm_80 runs on
        # 8.6): that decides, as check_compute_capability judges; the CUDA rule is for builds
        # whose code is not known.
        return None
    # A TensorFlow the matrix does not know (or none shown) runs with the CUDA the user
    # installed where its wheel links one release's libraries (1.x's libcudart.so.9.0): the
    # form's statement of it, said as such.
    stated = r.stated_cuda if build is None else None
    fix = causes.gpu.cuda_predates_gpu(m, cap, r.gpu_name, build or stated)
    if fix is not None and stated is not None:
        fix = Fix(f"The issue's form states CUDA {stated}. {fix.text}", fix.commands)
    return (causes.gpu.CUDA_RELEASE_PREDATES_GPU, fix) if fix is not None else None


def _build_cuda(m: Machine, r: Revealed) -> Optional[str]:
    """The CUDA release the build runs with, read where the log shows a CUDA library failing
    (so the build is a CUDA one, whatever the platform): the toolkit libraries it opened, else
    the matrix's for the TensorFlow shown (a line's, or an early release's from TensorFlow's
    tested build configurations: 1.12 is CUDA 9.0)."""
    build = r.build_cuda or m.build_cuda
    if build or m.matrix is None:
        return build
    if m.line is not None and m.line.cuda and m.line.cuda_builds:
        # Where the log shows no operating system: a line's CUDA builds share one CUDA release.
        return m.line.cuda
    tf = m.tf.version if m.tf is not None else r.tf_version
    return m.matrix.early_cuda(tf) if tf else None


#: PyTorch's CUDA check raising the CUDA runtime's error (c10/cuda/CUDAException.cpp), as
#: Python shows it: its exception type first. llama.cpp's ggml prints the same error bare
#: ("CUDA error: %s", ggml-cuda.cu's ggml_cuda_error).
_TORCH_NO_KERNEL = re.compile(
    r"\b(?:RuntimeError|torch\.\w*Error): CUDA error: no kernel image is available"
)
_TORCH_ARCH_SIGNATURE: Final = "torch-gpu-capability-unsupported"


class _TorchArch(NamedTuple):
    """PyTorch's own reading of a GPU its build lacks code for: the GPU's compute capability
    (``8.6``, where shown), the architectures the build carries (``sm_37``, ...), and whether
    a kernel failed (its CUDA check's "no kernel image"), not the warning alone."""

    capability: Optional[str]
    archs: tuple[str, ...]
    failed: bool


def _torch_arch(r: Revealed, hits: Sequence[Hits]) -> Optional[_TorchArch]:
    """PyTorch's reading, where every line read is PyTorch's: its own check (torch/cuda/
    __init__.py, _check_cubins) or its CUDA check's "no kernel image" with PyTorch in the log
    and no TensorFlow shown. None where a line is another's (TensorFlow's own refusal keeps
    its reading)."""
    mine = [
        h.signature.id == _TORCH_ARCH_SIGNATURE
        or (bool(h.citations) and all(_TORCH_NO_KERNEL.search(line) for _, line in h.citations))
        for h in hits
    ]
    if not hits or not all(mine):
        return None
    failed = any(_TORCH_NO_KERNEL.search(line) for h in hits for _, line in h.citations)
    if not any(h.signature.id == _TORCH_ARCH_SIGNATURE for h in hits) and not (
        "PyTorch" in r.frameworks and not r.tf_version
    ):
        return None
    cc = group(hits, "gpu_arch")
    archs = group(hits, "supported_archs")
    return _TorchArch(
        f"{cc[:-1]}.{cc[-1]}" if cc and len(cc) >= 2 else None,
        tuple(archs.split()) if archs else (),
        failed,
    )


def _torch_arch_severity(
    final: causes.CauseId, r: Revealed, hits: Sequence[Hits], severity: Severity
) -> Severity:
    """PyTorch's warning of the GPU with no kernel failing: a note where its build's machine
    code runs on the GPU, a warning where its PTX compiles for it (the program runs, the
    first start slow); ``severity`` otherwise."""
    torch = _torch_arch(r, hits) if final == causes.gpu.GPU_ARCH_UNSUPPORTED else None
    if torch is None or torch.failed:
        return severity
    code = causes.gpu.torch_gpu_code(torch.capability, torch.archs)
    if code == SASS:
        return Severity.INFO
    if code == PTX and severity.rank > Severity.WARNING.rank:
        return Severity.WARNING
    return severity


def _arch(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    torch = _torch_arch(r, hits)
    if torch is not None:
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.torch_arch_fix(*torch)
    # PyTorch's warning beside another's line names its own GPU and list: not a ROCm build's.
    others = [h for h in hits if h.signature.id != _TORCH_ARCH_SIGNATURE]
    target = group(others, "gpu_arch")
    supported = group(others, "supported_archs")
    if target is not None and supported is not None:
        # tensorflow-rocm printed the targets it accepts: the printed list decides. A list
        # that holds the refused target (run together with another where a comma is
        # missing) is the build's defect, not a GPU without code.
        item = causes.gpu.rocm_target_listed(target, supported)
        if item is not None:
            return causes.gpu.GPU_KNOWN_FAILURE, causes.gpu.rocm_arch_list_fix(m, target, item)
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.rocm_arch_fix(m, target, supported)
    if all(ROCM_WORDS in h.signature.tags for h in hits):
        # gpu_device.cc's first words name the GPU's ISA and the build's oldest one.
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.rocm_arch_fix(
            m, target, minimum=group(hits, "min_gpu_arch")
        )
    if all(DIRECTML_WORDS in h.signature.tags for h in hits):
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.directml_adapter_fix()
    predates = _cuda_predates(m, r, hits)
    if predates is not None:
        return predates
    minimum = next(
        (g["min_capability"] for h in hits for g in h.groups if g.get("min_capability")), None
    )
    return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.gpu_arch_fix(
        m, _capability(r, hits), minimum
    )


def _ptx_jit(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    predates = _cuda_predates(m, r, hits)
    if predates is not None:
        return predates
    cap = _capability(r, hits) or "X.Y"
    return causes.gpu.GPU_PTX_JIT, causes.gpu.ptx_jit_fix(m, cap)


class _LibraryRanking(NamedTuple):
    """What the log shows for the candidates of a cuDNN/cuBLAS handle that failed: those it
    shows (``seen``, with the words of ``shown``), the order they go in, and what fits the
    others' words to it (causes.runtime.gpu_library_init_fix's arguments)."""

    seen: tuple[str, ...]
    order: tuple[str, ...]
    shown: tuple[str, ...]
    driver_runs: str
    newer: Optional[tuple[str, str, str]]
    without: tuple[str, ...]
    build_libs: str


def _gpu_library_rank(m: Machine, r: Revealed, hits: Sequence[Hits]) -> _LibraryRanking:
    """The candidates of a cuDNN/cuBLAS handle that failed, ranked by what the log (or the
    facts) show. A cuDNN other than the build's, or a driver below the build's floor, is seen;
    memory, the usual reason, is not, so it leads otherwise."""
    order: list[str] = []
    shown: list[str] = []
    loaded, built = r.cudnn_loaded, r.cudnn_compiled or m.build_cudnn or _early_cudnn(m, r)
    if loaded and built and not causes.gpu.cudnn_serves(loaded, built):
        order.append("version")
        shown.append(f"cuDNN {loaded} loaded for a build of cuDNN {built}")
    floor = _floor(m)
    if r.driver_version and floor and version_key(r.driver_version) < version_key(floor):
        order.append("driver")
        shown.append(f"driver {r.driver_version}, older than the {floor} the build needs")
    taken = _memory_taken(r)
    # The library's own status says what failed where it is ALLOC_FAILED: memory, with no
    # sign of a version, a driver or the GPU (the ambiguous ones are INTERNAL_ERROR and
    # NOT_INITIALIZED).
    alloc = _alloc_failed(hits)
    if taken or alloc:
        order.append("memory")
        shown.append(" and ".join(x for x in (taken, alloc) if x))
    unsupported = not taken and not alloc and _blas_unsupported_only(hits)
    if unsupported:
        shown.append(
            "cuBLAS reporting CUBLAS_STATUS_NOT_SUPPORTED, a routine it has no implementation "
            "of here, not a lack of memory"
        )
    seen = tuple(order)
    # The GPU-newer candidate, fitted to the side the log shows (the GPU, or the CUDA the
    # build runs with); the other side unknown, it cannot lead.
    without: list[str] = ["memory"] if unsupported else []
    cuda = _build_cuda(m, r)
    cap = _capability(r, hits)
    model = m.matrix.gpu_model(r.gpu_name) if r.gpu_name and m.matrix is not None else None
    newer = causes.gpu.gpu_newer_candidate(m, cap, r.gpu_name, cuda, built)
    # The GPU shown is the stronger evidence: its candidate right after memory; the build's
    # CUDA alone (which GPUs it does not know) after the version's.
    then: tuple[str, ...] = ()
    if alloc:
        # The status names memory: the other candidates only where the log shows them.
        without.extend(k for k in ("version", "driver", "gpu-newer") if k not in order)
    elif newer is not None and (cap or model is not None or unsupported):
        then = ("gpu-newer",)
    elif newer is not None and cuda:
        then = ("version", "gpu-newer")
    if newer is None and m.matrix is not None:
        without.append("gpu-newer")
    if r.driver_version and floor and version_key(r.driver_version) >= version_key(floor):
        # The log's driver meets the floor of the build's CUDA: not a candidate.
        without.append("driver")
    return _LibraryRanking(
        seen,
        tuple(dict.fromkeys((*order, *(() if unsupported else ("memory",)), *then))),
        tuple(shown),
        "" if floor else _driver_runs(m, r.driver_version),
        newer,
        tuple(without),
        _build_libs(built, cuda),
    )


#: The Bazel repositories XLA logs from where it is built outside TensorFlow's own tree, as
#: jaxlib builds it: ``external/org_tensorflow/tensorflow/...`` until XLA left TensorFlow's
#: repository (2023), ``external/xla/xla/...`` since. TensorFlow logs its own XLA and stream
#: executor as ``tensorflow/...`` and, 2.15 on, ``external/local_xla/xla/...``.
_OUTSIDE_TF_XLA = re.compile(r"^external/(?:xla/xla|org_tensorflow/tensorflow)/")
#: TensorFlow's own sources as its lines log them.
_TF_SOURCE = re.compile(r"^(?:tensorflow|external/local_(?:xla|tsl))/")


def _jaxlib_xla(r: Revealed, source: str) -> bool:
    """Whether a line's ``source`` is an XLA built outside TensorFlow's tree (jaxlib's,
    :data:`_OUTSIDE_TF_XLA`): not where the log is TensorFlow Serving's, whose model server
    logs TensorFlow's own XLA under external/org_tensorflow/ too."""
    return _OUTSIDE_TF_XLA.match(source) is not None and not (
        r.serving and source.startswith("external/org_tensorflow/")
    )


def _jax_memory(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[Optional[tuple[str, str, str]], Optional[tuple[tuple[str, str], ...]]]:
    """The memory candidate's words and settings where the library that failed ran in JAX's
    runtime: the log shows JAX (its error type, frames or import), or the library's lines come
    from an XLA built outside TensorFlow's tree (jaxlib's), and not TensorFlow Serving (whose
    model server logs TensorFlow's XLA under external/org_tensorflow/ too). Both frameworks'
    where TensorFlow shows as well (its version or distribution, in the log or the machine's
    facts, or its own sources' lines); (None, None) where JAX does not show."""
    sources = [tflog.parse_line(line).source for h in hits for _, line in h.citations]
    if r.serving or not ("JAX" in r.frameworks or any(_jaxlib_xla(r, x) for x in sources)):
        return None, None
    if r.tf_version or r.tf_dist or m.tf is not None or any(_TF_SOURCE.match(x) for x in sources):
        return causes.runtime.JAX_TF_MEMORY_CANDIDATE, causes.runtime.JAX_TF_MEMORY_SETTINGS
    return causes.runtime.JAX_MEMORY_CANDIDATE, causes.runtime.JAX_MEMORY_SETTINGS


#: A status a CUDA library printed (CUBLAS_STATUS_NOT_SUPPORTED, CUDNN_STATUS_INTERNAL_ERROR).
_LIBRARY_STATUS = re.compile(r"\bCU(?:BLAS|DNN)_STATUS_[A-Z_]+")


def _statuses(hits: Sequence[Hits]) -> frozenset[str]:
    """The cuDNN and cuBLAS statuses the library's lines print."""
    return frozenset(
        found.group(0)
        for h in hits
        for _, line in h.citations
        for found in _LIBRARY_STATUS.finditer(line)
    )


def _blas_unsupported_only(hits: Sequence[Hits]) -> bool:
    """Whether the library's failure is cuBLAS's CUBLAS_STATUS_NOT_SUPPORTED alone: "the
    functionality requested is not supported" (cuBLAS library guide, cublasStatus_t), where a
    lack of memory is ALLOC_FAILED, or NOT_INITIALIZED when the handle cannot be created."""
    if any(h.signature.id != "cublas-failed" for h in hits):
        return False
    return _statuses(hits) == {"CUBLAS_STATUS_NOT_SUPPORTED"}


#: The statuses cuDNN and cuBLAS return when they could not allocate what they need:
#: "Resource allocation failed inside the cuDNN library" (cuDNN API reference, cudnnStatus_t)
#: and "Resource allocation failed inside the cuBLAS library. This is usually caused by a
#: cudaMalloc() failure" (cuBLAS library guide, cublasStatus_t).
_ALLOC_FAILED = frozenset({"CUDNN_STATUS_ALLOC_FAILED", "CUBLAS_STATUS_ALLOC_FAILED"})


def _alloc_failed(hits: Sequence[Hits]) -> str:
    """The library's words where every status its lines print is ALLOC_FAILED, its own word
    that it could not allocate memory ('' where none is, or another status is beside it)."""
    statuses = _statuses(hits)
    if not statuses or not statuses <= _ALLOC_FAILED:
        return ""
    named = " and ".join(sorted(statuses))
    return f"{named}, the library's own status for memory it could not allocate"


def _gpu_library_init(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # The message is the same whatever the reason: rank the candidates by what the log (or the
    # facts) show.
    predates = _cuda_predates(m, r, hits)
    if predates is not None:
        # A GPU newer than the build's CUDA: no handle of that release starts on it.
        return predates
    rank = _gpu_library_rank(m, r, hits)
    ids = {h.signature.id for h in hits}
    memory = _memory_candidate(m, r, hits)
    if (
        not rank.seen
        and ids <= _NO_DNN_PLUGIN
        and not (r.oom_device or r.oom_bytes)
        and not m.dlopen_failed  # a cuDNN that did not load at all: that finding says why
    ):
        # The stream executor has no cuDNN plugin at all, and no handle error or failed
        # allocation came first (memory taken fails cudnnCreate, which logs its
        # CUDNN_STATUS_ line): the library that loaded did not start, as a cuDNN older or of
        # another major than the build's does. That is what the finding is about; where the
        # log shows the versions, their own finding already is.
        said = (
            "a GPU stream without cuDNN support (a cuDNN that does not load at all keeps the "
            "GPU from being registered, so one loaded and did not start)"
            if "dnn-support-not-created" in ids
            else "TensorFlow without any cuDNN to run with"
        )
        return causes.gpu.CUDNN_VERSION_MISMATCH, causes.runtime.gpu_library_init_fix(
            m,
            ("version", "memory"),
            (f"{said}, and no cuDNN handle error or out-of-memory line before it",),
        )
    if not rank.seen and ids <= _NO_FUSED_ENGINE:
        # XLA's autotuner found no cuDNN engine for a fused convolution at all: a cuDNN that
        # started and offers nothing for the operation, as one older than the build's XLA
        # expects does (even the floor of the wheel's own and-cuda range: TensorFlow 2.21
        # with cuDNN 9.3 or 9.5.1); not memory (the list of configurations is empty before
        # any runs) nor the driver (cuDNN started). A GPU newer than the cuDNN is the other
        # reading.
        return causes.gpu.CUDNN_VERSION_MISMATCH, causes.runtime.gpu_library_init_fix(
            m,
            ("version", "gpu-newer"),
            (
                "XLA's autotuner finding no cuDNN configuration at all for a fused "
                "convolution, where a newer cuDNN of the same major offers one",
            ),
            newer=rank.newer,
            without=("memory", "driver"),
            version=causes.runtime.XLA_FUSED_CUDNN_CANDIDATE,
        )
    return causes.runtime.GPU_LIBRARY_INIT_FAILED, causes.runtime.gpu_library_init_fix(
        m,
        rank.order,
        rank.shown,
        rank.driver_runs,
        rank.newer,
        rank.without,
        rank.build_libs,
        memory=memory[0],
        memory_settings=memory[1],
    )


def _memory_candidate(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[Optional[tuple[str, str, str]], Optional[tuple[tuple[str, str], ...]]]:
    """The memory candidate's words and settings, the same for the library finding and the
    candidate's own: XLA's autotuner failing every algorithm keeps its words (memory taken by
    a framework beside it too), a handle of JAX's runtime JAX's own; the settings are those
    of the runtime that failed (:func:`_jax_memory`)."""
    words, settings = _jax_memory(m, r, hits)
    if any(h.signature.id in _CONV_PICKER for h in hits):
        return causes.runtime.XLA_CONV_MEMORY_CANDIDATE, settings
    return words, settings


def _gpu_library_candidates(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
) -> list[Finding]:
    """The candidates of a cuDNN/cuBLAS/cuFFT handle that failed, each a warning of its own
    cause with its own fix, in the order the library finding ranks them: the error's words are
    the same whatever the reason, so the log leaves them open. The first is left out (the
    library finding already leads with its test and fix) unless the log's evidence put it
    first: then it names the cause the log shows. None where that finding gave
    another reading (a GPU newer than the build's CUDA, cuDNN's version) or is not a problem,
    where no handle failed (a stream executor without its cuDNN plugin), or where a library
    did not load at all (that finding says why nothing started)."""
    main = findings.get(f"explain.{causes.runtime.GPU_LIBRARY_INIT_FAILED}")
    hits = [
        h
        for h in by_cause.get(causes.runtime.GPU_LIBRARY_INIT_FAILED, ())
        if h.signature.id not in _NO_DNN_PLUGIN
    ]
    if (
        main is None
        or main.cause != causes.runtime.GPU_LIBRARY_INIT_FAILED
        or main.severity.rank < Severity.WARNING.rank
        or not hits
        or m.dlopen_failed
        or causes.gpu.CUDA_LIBS_MISSING in by_cause
    ):
        return []
    rank = _gpu_library_rank(m, r, hits)
    ranked = causes.runtime.gpu_library_ranking(rank.order, rank.without)
    # The candidate the log's own evidence puts first (a cuDNN that does not serve the build,
    # a driver below its floor, memory taken, cuBLAS's NOT_SUPPORTED for the GPU-newer one)
    # is a cause the log shows, which the main finding's generic one does not name.
    led = (*rank.seen, *(("gpu-newer",) if _blas_unsupported_only(hits) else ()))
    out = []
    for number, key in enumerate(ranked, 1):
        if number == 1 and key not in led:
            # Otherwise the main finding leads with this candidate, its test and its fix: a
            # finding of its own would repeat that advice. The others keep its numbers.
            continue
        candidate = causes.runtime.GPU_LIBRARY_INIT_CANDIDATES[key]
        fix = causes.runtime.gpu_library_candidate_fix(
            m, key, rank.driver_runs, rank.newer, rank.build_libs, *_memory_candidate(m, r, hits)
        )
        if len(ranked) == 1:
            # The evidence leaves no other candidate (a library's ALLOC_FAILED status): the
            # cause the log shows, not an alternative to the finding above.
            out.append(
                causes.finding(
                    f"explain.{candidate.cause}",
                    Severity.WARNING,
                    candidate.cause,
                    f"{candidate.title[:1].upper()}{candidate.title[1:]}, the one candidate "
                    "the evidence leaves for the library that failed",
                    cite(hits) + "\nThe evidence rules out the library's other candidates: "
                    "the finding above names this one, with what tells it.",
                    fix,
                )
            )
            continue
        out.append(
            causes.other_candidate(
                candidate.cause,
                f"{candidate.title}, candidate {number} of "
                f"{len(ranked)} for the library that failed",
                cite(hits) + "\nThe library's error is the same whatever the reason: the "
                "finding above ranks the candidates by what the log shows, and this is one of "
                "them, with what tells it apart.",
                fix,
            )
        )
    return out


def _early_cudnn(m: Machine, r: Revealed) -> Optional[str]:
    """The cuDNN the GPU build of the TensorFlow shown was built with, where the matrix's early
    releases state it (TensorFlow's tested build configurations: 1.2 is cuDNN 5.1)."""
    tf = m.tf.version if m.tf is not None else r.tf_version
    return m.matrix.early_cudnn(tf) if tf and m.matrix is not None else None


def _build_libs(cudnn: Optional[str], cuda: Optional[str]) -> str:
    """What the build wants of cuDNN and CUDA, in words ('' where neither is known): a cuDNN
    of its major, its minor or newer (cuda_dnn.cc's check), and its CUDA's cuBLAS."""
    major = cudnn.split(".", 1)[0] if cudnn else ""
    wants = [
        *(
            [f"cuDNN {cudnn} (or a newer {major}.x)" if "." in cudnn else f"a cuDNN {major}.x"]
            if cudnn
            else []
        ),
        *([f"the cuBLAS of CUDA {cuda}"] if cuda else []),
    ]
    return f"the build wants {' and '.join(wants)}" if wants else ""


#: The share of the GPU's memory free at start below which another process is shown holding
#: it (TensorFlow 1.x prints both before it maps any; a desktop's display takes a few hundred
#: MiB of a GPU, far from half).
_TAKEN_SHARE = 0.5


#: The out-of-memory signatures that are one framework's own words, and that framework: PyTorch's
#: caching allocator (c10/cuda/CUDACachingAllocator.cpp), CuPy's memory pool and runtime binding
#: (cupy/cuda/memory.pyx, cupy_backends/cuda/api/runtime.pyx).
_FAILED_IN: Final[Mapping[str, str]] = {
    "torch-cuda-out-of-memory": "PyTorch",
    "cupy-out-of-memory": "CuPy",
}
#: The CUDA runtime's own out-of-memory as "CUDA error: out of memory": PyTorch's CUDA check
#: (c10/cuda/CUDAException.cpp) words it so, and so does llama.cpp's ggml (ggml-cuda.cu,
#: ggml_cuda_error): PyTorch's only where its frames or import show.
_CUDA_CALL_OUT_OF_MEMORY: Final = "torch-cuda-error-out-of-memory"


def _failed_in(hit: Hits, r: Revealed) -> Optional[str]:
    """The program whose own words ``hit`` is (``""``: a CUDA call of a program the log does
    not name), None where it is no other program's out-of-memory."""
    if hit.signature.id == _CUDA_CALL_OUT_OF_MEMORY:
        return "PyTorch" if "PyTorch" in r.frameworks else ""
    return _FAILED_IN.get(hit.signature.id)


def _gpu_out_of_memory(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The GPU's memory ran out: the fix led by what the log shows filled it."""
    free = _memory_free_at_start(r)
    reading = (
        # No room even for the CUDA context when TensorFlow started on the GPU.
        ("taken", "there was no memory left for TensorFlow's CUDA context on the GPU")
        if any(h.signature.id == "cuda-init-out-of-memory" for h in hits)
        else ("taken", free)
        if free
        else r.memory_reading
    )
    rocm = any(h.signature.id == "hip-out-of-memory" for h in hits)
    failed = "TensorFlow"
    named = [x for x in (_failed_in(h, r) for h in hits) if x is not None]
    if reading is not None and reading[0] in ("shared", "beside"):
        # Whose allocation failed: the framework whose own words the failing line holds
        # (PyTorch's allocator or CUDA check, CuPy's pool or runtime binding), or JAX's
        # runtime error type on the line.
        cited = [line for h in hits for _, line in h.citations]
        if named:
            failed = named[0]
        elif "JAX" in reading[1] and any("XlaRuntimeError" in line for line in cited):
            failed = "JAX"
    elif reading is None and hits and all(h.signature.id == _CUDA_CALL_OUT_OF_MEMORY for h in hits):
        # Only a CUDA call's own words, no TensorFlow allocation: PyTorch's where it shows,
        # else a program the log does not name.
        failed = named[0]
    # TensorFlow's own advice with a failed BFC allocation, where the log shows it.
    suggested = any(h.signature.id == "bfc-async-allocator-suggested" for h in hits)
    # PyTorch's own words of fragmentation come only with its caching allocator's refusal.
    allocator = any(h.signature.id == "torch-cuda-out-of-memory" for h in hits)
    # CuPy's pool names the limit set for it whenever one is set (cupy/cuda/memory.pyx,
    # OutOfMemoryError: "... limit set to: N bytes"), also where cudaMalloc itself failed
    # below it: the limit refused only where the request and what was allocated pass it.
    capped = any(
        int(g["request_bytes"].replace(",", "")) + int(g["allocated_bytes"].replace(",", ""))
        > int(g["limit_bytes"].replace(",", ""))
        for h in hits
        if h.signature.id == "cupy-out-of-memory"
        for g in h.groups
        if g.get("request_bytes") and g.get("allocated_bytes") and g.get("limit_bytes")
    )
    return causes.runtime.GPU_OUT_OF_MEMORY, causes.runtime.gpu_memory_fix(
        m, rocm, reading, failed, suggested, allocator, capped
    )


def _memory_free_at_start(r: Revealed) -> str:
    """TensorFlow 1.x's words that less than half the GPU was free when it started ('' where
    the log does not show both sizes, or shows more free)."""
    if r.gpu_memory is None:
        return ""
    total, free = (tflog.readable_bytes(x) for x in r.gpu_memory)
    if total and free is not None and free < _TAKEN_SHARE * total:
        return f"only {r.gpu_memory[1]} of the GPU's {r.gpu_memory[0]} free when TensorFlow started"
    return ""


def _memory_taken(r: Revealed) -> str:
    """What the log shows of the GPU's memory taken, as the evidence that puts memory first:
    an allocation that failed, less than half the GPU free when TensorFlow started, or a device
    far smaller than its GPU ('' where it shows none)."""
    if r.oom_device or r.oom_bytes:
        return "an allocation on the GPU that failed for want of memory"
    free = _memory_free_at_start(r)
    if free:
        return f"{free} (another process held the rest)"
    if r.memory_reading is not None and r.memory_reading[0] == "taken":
        # The device TensorFlow created far smaller than its GPU (evidence/gpumemory.py).
        return f"{r.memory_reading[1]} (another process held the rest)"
    return ""


#: The signatures of a stream executor without its cuDNN plugin (cudnn_rnn_ops.cc's "Fail to
#: find the dnn implementation"), as opposed to a plugin whose handle failed.
_NO_DNN_PLUGIN = frozenset({"dnn-implementation-missing", "dnn-support-not-created"})
#: XLA's autotuner with no cuDNN configuration for a fused operation.
_NO_FUSED_ENGINE = frozenset({"autotuner-no-cudnn-config"})
#: XLA's convolution autotuner failing every cuDNN algorithm it tried (its own words raised).
_CONV_PICKER = frozenset({"xla-conv-algorithm-picker-failed"})


def _windows_gpu_archive(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """A Windows GPU archive of TensorFlow's C library named for a release the matrix says has
    no native Windows GPU build (2.11 and later): no such archive was published."""
    hit = evidence.hits.get("libtensorflow-archive")
    matrix = machine.matrix
    if hit is None or matrix is None:
        return None
    for (where, cited), groups in zip(hit.citations, hit.groups):
        if groups.get("archive") != "gpu-windows-x86_64":
            continue
        release = groups["tf_version"]
        line = matrix.line_for(release)
        if line is None or line.windows_native_gpu:
            continue
        return causes.finding(
            f"explain.{causes.platform.WINDOWS_NATIVE_GPU_ENDED}",
            Severity.ERROR,
            causes.platform.WINDOWS_NATIVE_GPU_ENDED,
            f"No Windows GPU build of TensorFlow {release}'s C library exists",
            f"{where}: {cited}\nTensorFlow {release} has no native Windows GPU build (from the "
            "matrix), so no GPU archive of its C library for Windows was published.",
            causes.platform.windows_gpu_fix(machine, archive=True),
            hit.signature.sources,
        )
    return None


def _tensorrt_versions(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """TF-TRT's note of the TensorRT it was linked against beside the one it loaded (the
    tensorrt-linked-version and tensorrt-loaded-version evidence): another major, or an older
    release of the same, is one TF-TRT cannot use (TensorRT keeps no forward compatibility,
    and its majors no backward one: trt_convert.py's check), whether or not its refusal
    follows in the log."""
    linked = evidence.hits.get("tensorrt-linked-version")
    loaded = evidence.hits.get("tensorrt-loaded-version")
    if loaded is None:
        return _tensorrt_installed(evidence, linked)
    if linked is None:
        return None
    want = _release(linked.groups[0].get("required"))
    got = _release(loaded.groups[0].get("loaded"))
    if not want or not got:
        return None
    have, need = version_key(got), version_key(want)
    if have[:1] == need[:1] and have >= need:
        return None
    cites = "\n".join(f"{w}: {line}" for hit in (linked, loaded) for w, line in hit.citations[:1])
    return causes.finding(
        f"explain.{causes.gpu.TENSORRT_VERSION_MISMATCH}",
        Severity.ERROR,
        causes.gpu.TENSORRT_VERSION_MISMATCH,
        f"TF-TRT loaded TensorRT {got}, linked against TensorRT {want}",
        f"{cites}\nTensorRT serves only the major it was linked against, at that release or a "
        "newer one: this one cannot run TF-TRT's engines.",
        causes.gpu.tensorrt_version_fix(want, got),
        linked.signature.sources,
    )


#: The linked release as the REPL echoes the Python check's own call (TF-TRT's private
#: ``get_linked_tensorrt_version()``, returning a tuple), on the line below it.
_LINKED_ECHO = re.compile(
    r"get_linked_tensorrt_version\(\)[^\n]{0,200}\n(?:[ \t]*\n)?[ \t]*(?:Out\[\d+\]:[ \t]*)?"
    r"\((?P<version>\d+, \d+, \d+)\)[ \t]*$",
    re.MULTILINE,
)
#: TensorRT's runtime library's Debian package, named for its major (libnvinfer8; Debian
#: Policy 8.1's soname rule, NVIDIA's TensorRT installation guide's package list).
_NVINFER_PACKAGE = re.compile(r"libnvinfer(?P<major>\d+)")
#: TensorRT installed other than as the Debian runtime packages, with its major: pip's wheels
#: (``tensorrt``, ``tensorrt-libs``, ``tensorrt-cu12`` ... as pip list or freeze prints them:
#: TensorFlow 2.15's and-cuda extra installs TensorRT so, and dpkg never lists them), the
#: module's ``tensorrt.__version__`` echoed on a line below it, a library in the wheel's
#: ``tensorrt_libs`` folder, and the Debian development package (libnvinfer-dev, which
#: depends on its release's runtime package).
_TENSORRT_ELSEWHERE = re.compile(
    r"^[ \t]*tensorrt(?:[-_](?:libs|bindings|cu\d+(?:[-_](?:libs|bindings))?))?"
    r"(?:[ \t]+|==)(?P<pip>\d+)\."
    r"|tensorrt\.__version__[^\n]{0,200}\n(?:[ \t]*(?:Out\[\d+\]:)?[ \t]*)['\"]?(?P<echo>\d+)\."
    r"|tensorrt_libs/libnvinfer\.so\.(?P<wheel>\d+)",
    re.MULTILINE | re.IGNORECASE,
)


def _tensorrt_elsewhere(text: str, major: int, packages: Sequence[tuple[str, str]]) -> bool:
    """Whether ``text`` shows TensorRT of ``major`` installed other than as a libnvinferN
    Debian package (:data:`_TENSORRT_ELSEWHERE`, or the development package among the
    ``packages`` listed installed), or a ``tensorrt_libs`` folder of pip's wheel at all (its
    major unshown)."""
    if "tensorrt_libs" in text and "tensorrt_libs/libnvinfer.so." not in text:
        return True
    for m in _TENSORRT_ELSEWHERE.finditer(text):
        if int(next(g for g in m.groups() if g is not None)) == major:
            return True
    return any(
        name == "libnvinfer-dev" and version_key(version)[:1] == (major,)
        for name, version in packages
    )


def _tensorrt_installed(evidence: Evidence, linked: Optional[Hits]) -> Optional[Finding]:
    """The TensorRT TF-TRT was linked against (its note, or the check's call echoed) beside
    the TensorRT runtime packages the log lists installed (``dpkg -l``, ``apt list
    --installed``), none of its major: TF-TRT asks the loader for libnvinfer.so.<major> and
    finds none."""
    text = evidence.first_text
    if "libnvinfer" not in text:
        return None
    echoed = _LINKED_ECHO.search(text) if "get_linked_tensorrt_version" in text else None
    want = (
        _release(linked.groups[0].get("required"))
        if linked is not None
        else _release(echoed.group("version"))
        if echoed is not None
        else ""
    )
    packages = (*dpkg_installed(text), *apt_installed(text))
    installed = [
        (int(m.group("major")), version)
        for name, version in packages
        for m in [_NVINFER_PACKAGE.fullmatch(name)]
        if m is not None
    ]
    if not want or not installed:
        return None
    major = version_key(want)[0]
    if any(m == major for m, _ in installed) or _tensorrt_elsewhere(text, major, packages):
        return None
    got = installed[0][1].split("-", 1)[0]
    return causes.finding(
        f"explain.{causes.gpu.TENSORRT_VERSION_MISMATCH}",
        Severity.ERROR,
        causes.gpu.TENSORRT_VERSION_MISMATCH,
        f"TF-TRT was linked against TensorRT {want}; the packages listed hold no "
        f"libnvinfer.so.{major}",
        f"TF-TRT names TensorRT {want} as the release it was linked against, and the packages "
        f"listed install TensorRT {got} ({', '.join(f'libnvinfer{m}' for m, _ in installed)}): "
        f"TF-TRT loads libnvinfer.so.{major}, which none of them provides.",
        causes.gpu.tensorrt_version_fix(want, got, installed=True),
        (
            "https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/python/compiler/"
            "tensorrt/trt_convert.py",
            "https://docs.nvidia.com/deeplearning/tensorrt/install-guide/index.html",
        ),
    )


def _release(version: Optional[str]) -> str:
    """A version TF-TRT printed as a tuple's items (``7, 2, 2``) or dotted, dotted; "" for
    major 0, which is no release: TensorFlow built without TensorRT returns (0, 0, 0) for
    both the linked and the loaded one (tf2tensorrt/common/utils.cc,
    GetLinkedTensorRTVersion's and GetLoadedTensorRTVersion's #else)."""
    dotted = version.replace(", ", ".") if version else ""
    return dotted if dotted and version_key(dotted)[:1] != (0,) else ""


#: Python 3.8's words for an extension Windows refused, naming the module (Python/
#: dynload_win.c from v3.8.0; 3.7 and older print "DLL load failed:" alone).
_NAMED_REFUSAL = re.compile(r"DLL load failed while importing \w")


def _python_after_gpu_dlls(m: Machine, hits: Sequence[Hits]) -> bool:
    """Whether the Python the log shows (its version, or Python 3.8's wording of the refusal:
    3.8 or later) has no Windows wheel of any TensorFlow up to 2.0 in the matrix, whose GPU
    builds link the CUDA DLLs at import: the TensorFlow that failed is 2.1 or later."""
    named = any(_NAMED_REFUSAL.search(line) for h in hits for _, line in h.citations)
    python = m.python_version or ("3.8" if named else None)
    if python is None or m.matrix is None:
        return False
    if named and version_key(python) < (3, 8):
        python = "3.8"  # the wording is 3.8's whatever an older path says
    old = [x for x in m.matrix.lines if version_key(x.line)[:2] <= (2, 0)]
    return bool(old) and not any(x.has_wheels_for(python, "windows") for x in old)


def _gpu_dll_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
) -> Optional[Finding]:
    """Windows refusing TensorFlow's own module for a DLL it did not find (or for a reason the
    paste cut off), where the log does not rule out a GPU build of 2.0 or older: the CUDA and
    cuDNN DLLs such a build links are the other candidate beside the Visual C++ runtime
    (:func:`gpu_dll_candidate`). None where a CUDA library has its own finding, or for another
    package's extension."""
    missing = findings.get(f"explain.{causes.platform.MSVC_RUNTIME_MISSING}")
    hits = hits_by(
        by_cause,
        causes.platform.MSVC_RUNTIME_MISSING,
        "windows-dll-not-found",
        "windows-dll-load-failed-reason-cut",
        "windows-tf1-module-not-found",
    )
    if (
        missing is None
        or missing.cause != causes.platform.MSVC_RUNTIME_MISSING
        or not hits
        or f"explain.{causes.gpu.CUDA_LIBS_MISSING}" in findings
    ):
        return None
    return gpu_dll_candidate(cite(hits), m, r, hits)


def gpu_dll_candidate(
    cited: str, m: Machine, r: Revealed, hits: Sequence[Hits] = ()
) -> Optional[Finding]:
    """The CUDA and cuDNN DLLs a GPU build of TensorFlow 2.0 or older links, as the other
    candidate for Windows refusing TensorFlow's own module (``cited``: the lines that show the
    refusal; ``hits``: its signatures' hits, whose wording tells Python's release): a warning
    with the listing that tells. None for 2.1 and later (they load CUDA when the GPU is first
    used), a Python no release up to 2.0 has Windows wheels for
    (:func:`_python_after_gpu_dlls`), or a CPU build shown."""
    version = m.tf.version if m.tf is not None else r.tf_version
    if (
        (version is not None and version_key(version)[:2] >= (2, 1))
        or m.cpu_only_distribution
        or (version is None and _python_after_gpu_dlls(m, hits))
    ):
        return None
    return causes.other_candidate(
        causes.gpu.CUDA_LIBS_MISSING,
        "a CUDA or cuDNN DLL a GPU build of TensorFlow 2.0 or older links",
        cited + "\nWindows names no DLL: the Visual C++ runtime (the finding above) and, "
        "for a GPU build of 2.0 or older, the CUDA and cuDNN DLLs of its release are refused "
        "in the same words. Whether they are on PATH tells the two apart.",
        causes.gpu.windows_gpu_dlls_fix(),
    )


def _settle_dnn_not_found(by_cause: dict[str, list[Hits]]) -> None:
    """ "DNN library is not found" read once, by what the log shows around it: the refused
    cuDNN's own line (the mismatch), a cuDNN handle that failed (that finding's candidates), a
    library that did not load (that finding), else a cuDNN that loaded and did not start, with
    the library not found as the second reading."""
    mismatch = causes.gpu.CUDNN_VERSION_MISMATCH in by_cause
    handle = any(
        h.signature.id not in _NO_DNN_PLUGIN
        for h in by_cause.get(causes.runtime.GPU_LIBRARY_INIT_FAILED, [])
    )
    not_loaded = any(
        h.signature.id != "dnn-library-not-found"
        for h in by_cause.get(causes.gpu.CUDA_LIBS_MISSING, [])
    )
    if mismatch or handle:
        # The line TensorFlow printed when it refused the cuDNN, or the handle that failed,
        # says the library loaded: one cause, that line's.
        _without(by_cause, causes.gpu.CUDA_LIBS_MISSING, "dnn-library-not-found")
    if mismatch or not_loaded:
        _without(by_cause, causes.runtime.GPU_LIBRARY_INIT_FAILED, "dnn-support-not-created")


def _no_tensorrt(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """TF-TRT missing: a build without TensorRT, or, for its module of 1.14 and later, a
    TensorFlow older than that module (TF-TRT in tensorflow.contrib.tensorrt then)."""
    tf = m.tf.version if m.tf is not None else r.tf_version
    module_missing = any(h.signature.id == "tf-trt-module-missing" for h in hits)
    # Where the module began is the matrix's (its tf_trt rows); unknown, no release predates it.
    since = (
        m.matrix.tf_trt_module_since(causes.gpu.TF_TRT_MODULE)
        if module_missing and m.matrix is not None
        else None
    )
    if since and tf and version_key(tf)[:2] < version_key(since)[:2]:
        return causes.code.API_REMOVED, causes.gpu.tf_trt_module_predates_fix(m, tf, since)
    return causes.gpu.TF_BUILD_WITHOUT_TENSORRT, causes.gpu.tf_without_tensorrt_fix(m)
