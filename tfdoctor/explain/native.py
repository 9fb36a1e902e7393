"""Builders for native code: extensions and TensorFlow's own libraries that fail to load."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.backtrace import read_native_backtraces
from tfdoctor.evidence.tflog import library_of
from tfdoctor.evidence.traceback import installed_package, origin_of
from tfdoctor.explain.common import group, program_refused
from tfdoctor.explain.libraries import gpu_dll_candidate
from tfdoctor.explain.modules import TF_OWN, TF_PACKAGES
from tfdoctor.explain.revealed import _HDFS_LIBRARIES, Revealed
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.facts import TF_DISTRIBUTIONS
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key
from tfdoctor.modules import distribution_of, modules
from tfdoctor.signatures import REMOVED_API


def _filesystem_env(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Which setting of which remote file system the log's lines point at."""
    ids = {h.signature.id for h in hits}
    cause = causes.runtime.FILESYSTEM_ENV_MISCONFIGURED
    if "s3-region-wrong" in ids:
        return cause, causes.runtime.s3_region_fix(group(hits, "region"))
    if "s3-endpoint-redirect" in ids:
        return cause, causes.runtime.s3_region_fix(None, redirected=True)
    if "s3-credentials-not-set" in ids:
        return cause, causes.runtime.s3_credentials_fix(r.s3_plain_http)
    if "gcs-anonymous-refused" in ids:
        return cause, causes.runtime.gcs_credentials_fix()
    if "tpu-local-filesystem" in ids:
        cited = " ".join(line for h in hits for _, line in h.citations)
        return cause, causes.runtime.tpu_local_path_fix("tfhub_modules" in cited)
    return cause, causes.runtime.s3_object_missing_fix()


def _package_loader(libraries: Sequence[str], loader: Optional[str]) -> Optional[str]:
    """The installed add-on (its import name) whose code called ``tf.load_op_library``, where
    the log names the op library by its file name alone (``_x_ops.so``: the loader's message
    cites the name it was given, resolved by the package in its own folder) or not at all.
    Only a package the module table knows is built on TensorFlow (its wheels carry op
    libraries built for a TensorFlow release): another package's library may have been
    compiled by the project itself (a source install), which the custom-op reading answers.
    None where a library's folder is shown or the caller is the user's own code."""
    if any(re.search(r"[/\\]", x) for x in libraries) or loader is None:
        return None
    top = installed_package(loader)
    return top if _built_on_tensorflow(top) else None


def _own_op_library(libraries: Sequence[str], loader: Optional[str]) -> Optional[str]:
    """The op library a project built or shipped itself (no installed package's), as the
    log names it ("" where it names none but a project's file loaded it), or None."""
    if libraries and _package_loader(libraries, loader) is None:
        return libraries[0] if not any(map(installed_package, libraries)) else None
    if loader is not None and installed_package(loader) is None:
        return ""
    return None


#: A library of the operating system itself that the loader could not find (dyld's words).
_SYSTEM_LIBRARY = re.compile(r"Library not loaded: (/System/Library/[^\s\\]+|/usr/lib/[^\s\\]+)")


#: The libraries conda-forge's TensorFlow builds link from the environment instead of carrying
#: them, by library name and by the C++ namespace of their symbols: the feedstock's
#: TF_SYSTEM_LIBS (flatbuffers, snappy, protobuf, grpc, curl, gif, icu, libjpeg-turbo,
#: sqlite, png in recipe/build.sh; abseil from recipe/build_common.sh,
#: https://github.com/conda-forge/tensorflow-feedstock).
_CONDA_TF_LIBRARIES = (
    "flatbuffers",
    "snappy",
    "protobuf",
    "grpc",
    "gpr",
    "absl",
    "curl",
    "gif",
    "icu",
    "jpeg",
    "sqlite3",
    "png",
)
#: The start of an Itanium-mangled C++ symbol, before its first nested name.
_MANGLED_NAME = re.compile(r"^_Z(?:T[IVS])?N?K?")
#: A nested name's length: four digits at most (a longer number is no real name, and Python
#: refuses to read one of thousands of digits).
_MANGLED_PART = re.compile(r"\d{1,4}")


def _namespaces(symbol: str) -> list[str]:
    """The first two names of a mangled C++ symbol's nesting (``_ZTIN6snappy4SinkE``: snappy,
    Sink; ``_ZNK6google8protobuf7Message...``: google, protobuf); empty when it is not one."""
    found = _MANGLED_NAME.match(symbol)
    out: list[str] = []
    at = found.end() if found is not None else len(symbol)
    while len(out) < 2:
        size = _MANGLED_PART.match(symbol, at)
        if size is None:
            break
        start, length = size.end(), int(size.group())
        out.append(symbol[start : start + length])
        at = start + length
    return out


def _conda_build_library(hits: Sequence[Hits], r: Revealed) -> Optional[str]:
    """The library of a conda TensorFlow build's own dependencies that TensorFlow's own
    library missed (a symbol of its namespace), or that TensorFlow's import failed to load;
    None otherwise (another package's missing library is not TensorFlow's build's)."""
    for hit in hits:
        for groups in hit.groups:
            library = groups.get("library", "").replace("\\", "/").rsplit("/", 1)[-1]
            names = _namespaces(groups.get("symbol", ""))
            for name in _CONDA_TF_LIBRARIES:
                # ICU versions its namespace (icu_73).
                if any(n == name or n.startswith(name + "_") for n in names):
                    return f"lib{name}"
                if library.startswith(f"lib{name}") and library == r.tf_import_library:
                    return f"lib{name}"
    return None


def _library_package(library: str, r: Revealed) -> Optional[str]:
    """The installed package (its import name) a native library belongs to: the folder of its
    path, else, where the message names the library by its file alone, the package whose
    import failed (:func:`_native_importer`); None where neither says."""
    top = installed_package(os.path.normpath(library))
    if top is None and r.native_importer is not None and not re.search(r"[/\\]", library):
        return r.native_importer.module
    return top


def _msvc_runtime(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Windows' "DLL load failed" is TensorFlow's missing runtime only where the extension is
    TensorFlow's: another package's extension (mpi4py's, cv2's) needs its own DLLs, and a
    companion's was built against another TensorFlow."""
    return _extension_refused(m, r.dll_extension) or (
        causes.platform.MSVC_RUNTIME_MISSING,
        causes.platform.msvc_fix(),
    )


def _extension_refused(m: Machine, package: Optional[str]) -> Optional[tuple[causes.CauseId, Fix]]:
    """The reading of Windows refusing the compiled extension of ``package`` (not
    TensorFlow's): a companion released for each TensorFlow line (the companion table:
    tensorflow-text, tensorflow-io, ...) links TensorFlow's own library, so its extension
    built for another TensorFlow finds a DLL or an entry point missing (ERROR_MOD_NOT_FOUND,
    126; ERROR_PROC_NOT_FOUND, 127) when TensorFlow itself loaded; another package's needs
    its own DLLs. None for no package, or another of TensorFlow's family (tflite-runtime's
    extension links no TensorFlow: the Visual C++ runtime is its reading)."""
    if package is None:
        return None
    dist = distribution_of(package)
    if dist is not None and m.companion(dist) is not None:
        # tensorflow-text's README: install the TF Text release of the TensorFlow in use
        # (https://github.com/tensorflow/text#install-using-pip).
        return causes.software.COMPANION_MISMATCH, causes.software.companion_dll_fix(m, dist)
    if package in modules().family:
        return None
    return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.extension_dll_fix(
        m, package, dist
    )


def _built_on_tensorflow(package: Optional[str]) -> str:
    """The distribution of an installed import package that is built on TensorFlow (a
    companion of its family, or a library the module table marks as written against it),
    TensorFlow itself left out; "" for any other package or none."""
    dist = distribution_of(package) if package else None
    if not dist or dist in TF_DISTRIBUTIONS:
        return ""
    table = modules()
    return dist if package in table.family or package in table.on_tensorflow else ""


def _library_owner(library: str) -> str:
    """The distribution a library's own name says it belongs to (``libtensorflow_io.so`` is
    tensorflow_io's: tensorflow-io; ``_regex_split_ops.so`` tensorflow-text's), or ""."""
    name = library.replace("\\", "/").rsplit("/", 1)[-1]
    listed = modules().op_libraries.get(name.split(".", 1)[0])
    if listed is not None and name == library:
        # An add-on whose op libraries are named after their op sets (tensorflow-text's
        # _regex_split_ops.so): the module table lists them. Only a name alone: a path says
        # whose file it is (a project's own build of an op set named alike is no add-on's).
        return listed
    stem = library_of(name)
    # A package names its libraries after itself, sometimes with a suffix
    # (libtensorflow_io_plugins.so): the longest prefix the module table knows.
    parts = stem.split("_")
    found = (distribution_of("_".join(parts[:end])) for end in range(len(parts), 1, -1))
    return next(filter(None, found), "")


#: TensorFlow's C library as the libtensorflow archive installs it (lib/libtensorflow.so.2,
#: lib/libtensorflow.2.dylib; https://www.tensorflow.org/install/lang_c), not the Python
#: package's libtensorflow_framework.
_TF_C_LIBRARY = re.compile(r"(?:^|[/\\])libtensorflow(?:\.so(?:\.\d+){0,3}|(?:\.\d+){0,3}\.dylib)$")

#: A library that loaded but needs a symbol no loaded library defines, in glibc's and dyld's
#: words.
_LIBRARY_SYMBOL_IDS = frozenset({"library-undefined-symbol", "library-symbol-not-found-dyld"})

#: The loader refusing a program as it starts (dyld's own prefix, glibc's ld.so's words), not a
#: module loaded later by dlopen (whose failure Python or TensorFlow raises).
_PROGRAM_START = re.compile(
    r"^\s*dyld(?:\[\d+\])?: Library not loaded|error while loading shared libraries"
)


def _program_unstarted(hits: Sequence[Hits], library: Optional[str], macos: bool) -> Optional[Fix]:
    """The fix for a program (not Python's import) that the loader would not start for a
    library it found nowhere: TensorFlow's C library or framework library (the C API's
    archive), else the library glibc's line names; None for no such program."""
    if library and (_TF_C_LIBRARY.search(library) or _framework_at_start(library, hits)):
        # The C library itself unfound (undefined symbols are read above): a program of the
        # C API (or a binding over it) started where the loader does not look.
        return causes.platform.c_library_unfound_fix(
            library.replace("\\", "/").rsplit("/", 1)[-1], macos
        )
    started = program_refused(hits)
    if started is None:
        return None
    # The library it names is what to get, where the loader looks; the module table says
    # what a library of TensorFlow's projects is and how it is built.
    program, name = started
    row = modules().native_libraries.get(name.split(".so", 1)[0])
    return causes.platform.program_library_fix(
        program, name, (row.what, row.get, row.commands) if row is not None else None
    )


def _framework_at_start(library: str, hits: Sequence[Hits]) -> bool:
    """TensorFlow's framework library unfound as a program starts, not as Python loads a
    module: a program of the C API, whose archive holds it beside libtensorflow."""
    cited = (line for h in hits for _, line in h.citations)
    return bool(_TF_FRAMEWORK.search(library)) and any(map(_PROGRAM_START.search, cited))


#: TensorFlow's own shared library, by the major its soname carries (macOS: the major before
#: .dylib, as get_link_flags' -ltensorflow_framework.N names it).
#: The unversioned name (libtensorflow_framework.so) is the one of the wheels before
#: versioned sonames; 2.x's get_link_flags names .so.2.
_TF_FRAMEWORK = re.compile(
    r"libtensorflow_(?:framework|cc)(?:\.so\.(\d+)|\.(\d+)\.dylib|\.(?:so|dylib)(?![.\w]))"
)

#: The file dyld was opening (``dlopen(PATH, MODE)``), the library that needs another.
_DLOPEN_PATH = re.compile(r"dlopen\((?P<path>[^,()\s]{1,400}),")

#: The libraries a macOS TensorFlow wheel installs in its own package folder, which its
#: extensions find through their rpath (@loader_path): the framework library
#: (libtensorflow_framework.2.dylib) and the extension most of the others link
#: (_pywrap_tensorflow_internal.so: Python's extension suffix on macOS too). Only dyld's
#: words are read against it (:func:`_tf_own_library_unfound`), so Linux's
#: libtensorflow_framework.so.2 is no form of it.
_TF_OWN_LIBRARY = re.compile(
    r"(?:^|[/\\])(?:libtensorflow_framework(?:\.\d+){0,3}\.dylib|_pywrap_tensorflow_internal\.so)$"
)

#: A file of TensorFlow's own package folder in an environment.
_IN_TF_PACKAGE = re.compile(r"[/\\](?:site|dist)-packages[/\\]tensorflow[/\\]")


def _dyld_found_as(library: Optional[str], tried: Sequence[str]) -> Optional[str]:
    """The library dyld names by a run-path (@rpath/libomp.dylib), as the path of its name
    in a Homebrew keg that dyld says it tried, where one is shown: the file was built
    against that formula (its run-path names /opt/homebrew/opt/libomp/lib), which says whose
    the library is. The library itself otherwise."""
    if not library or not library.startswith("@"):
        return library
    name = library.rsplit("/", 1)[-1]
    kegs = (p for p in tried if p.rsplit("/", 1)[-1] == name and causes.platform.in_keg(p))
    return next(kegs, library)


def _tf_incomplete(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Only a signature names this cause (the tracebacks' own reading builds its finding
    itself): a stale file of another release, whose directory pip's uninstall leaves, or
    TensorFlow's extension needing a symbol its framework library lacks."""
    cause = causes.software.TF_INSTALL_INCOMPLETE
    if all(h.signature.id == "tensorflow-half-removed-copy" for h in hits):
        return cause, causes.software.tf_leftover_fix(
            m, group(hits, "site_packages"), group(hits, "leftover")
        )
    own = [h for h in hits if h.signature.id == "tensorflow-own-symbol-missing"]
    if own:
        groups, (_, line) = own[0].groups[0], own[0].citations[0]
        # dlopen(...) is dyld's wording (macOS); glibc names the file alone.
        return cause, causes.software.own_symbol_fix(
            m, groups["library"], groups["symbol"], "dlopen(" in line
        )
    return cause, causes.software.stale_files_fix(m)


def _tf_own_unfound(
    m: Machine, r: Revealed, hits: Sequence[Hits], library: Optional[str], owner: Optional[str]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """TensorFlow's extension cannot find the framework library (or the extension) its own
    wheel installs beside it: the installation lacks its own file. None otherwise, where the
    file that needs it is a companion's (``owner``), or where dyld says it found a file of
    that name and refused it (its architecture, its code signature): the file is there."""
    if owner is not None or not _tf_own_library_unfound(library, hits):
        return None
    name = (library or "").rsplit("/", 1)[-1]
    if any(path.rsplit("/", 1)[-1] == name for path in r.dyld_refused):
        return None
    return causes.software.TF_INSTALL_INCOMPLETE, causes.software.incomplete_install_fix(m)


def _tf_own_library_unfound(library: Optional[str], hits: Sequence[Hits]) -> bool:
    """dyld could not find one of TensorFlow's own libraries (:data:`_TF_OWN_LIBRARY`) for a
    file of TensorFlow's own package (the one dlopen was opening): the installation lacks the
    file its wheel put beside it, as an uninstall of another distribution sharing the folder
    (tensorflow-macos and tensorflow both install tensorflow/) or an interrupted install
    leaves it. A plugin or companion outside that folder is another reading."""
    if not library or _TF_OWN_LIBRARY.search(library) is None:
        return False
    if not any(h.signature.id == "dylib-not-loaded" for h in hits):
        return False
    cited = [line for h in hits for _, line in h.citations]
    users = [m.group("path") for line in cited for m in _DLOPEN_PATH.finditer(line)]
    return bool(users) and all(_IN_TF_PACKAGE.search(path) for path in users)


def _framework_users(cited: Sequence[str], loader: Optional[str]) -> list[str]:
    """The files that need TensorFlow's framework library: the ones dyld was opening, or (no
    such file shown) the file that called tf.load_op_library."""
    opened = [m.group("path") for line in cited for m in _DLOPEN_PATH.finditer(line)]
    return opened or ([loader] if loader is not None else [])


def _own_framework_user(cited: Sequence[str], loader: Optional[str]) -> bool:
    """The library that needs TensorFlow's framework library is a project's own op library:
    the file dyld was opening, or (no such file shown) the file that called
    tf.load_op_library, lies outside site-packages. One under site-packages is an installed
    package's, whether or not the module table lists its distribution (pip installed it, built
    for the TensorFlow of its day)."""
    users = _framework_users(cited, loader)
    return bool(users) and not any(installed_package(u) is not None for u in users)


def _framework_package(cited: Sequence[str], loader: Optional[str]) -> Optional[str]:
    """The installed package whose op library needs TensorFlow's framework library, by its
    distribution where the module table knows it, else by its import name; None where no
    file under site-packages shows one."""
    tops = (installed_package(u) for u in _framework_users(cited, loader))
    top = next((t for t in tops if t is not None and t not in TF_OWN), None)
    if top is None:
        return None
    return distribution_of(top) or f"the package that provides `{top}`"


#: An installed file's path in a cited line (a loader's "Referenced from", a companion's
#: "from paths"). It starts where a path can (after a space, a quote or a comma): tried at
#: every character of a long path-like run, the search would take quadratic time.
_INSTALLED_PATH = re.compile(r"""(?<![^\s'",])[^\s'"]*[/\\](?:site|dist)-packages[/\\][^\s'",]+""")


def _framework_major(
    m: Machine, r: Revealed, hits: Sequence[Hits], library: Optional[str], owner: Optional[str]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """TensorFlow's framework library of another major (or unversioned) that
    tf.load_op_library's op needs: a project's own op relinked with TensorFlow's flags, a
    package's built for that major; None where the log shows neither."""
    framework = _TF_FRAMEWORK.search(library or "")
    cited = [line for h in hits for _, line in h.citations]
    if framework is None or not any("NotFoundError" in line for line in cited):
        return None
    # tf.load_op_library raises NotFoundError: an op links TensorFlow's own library of major N
    # (libtensorflow_framework.so.2 since 2.0; the unversioned name before versioned sonames),
    # which this TensorFlow lacks when it is of another major.
    major = framework.group(1) or framework.group(2)
    shown = version_key(r.tf_version)[:1] if r.tf_version else None
    other = shown is None or (shown >= (2,) if major is None else shown != (int(major),))
    if not other:
        return None
    if owner is None and _own_framework_user(cited, r.op_loader):
        # The op library that needs it is the project's own (its path outside site-packages,
        # or the project's file loaded it): rebuilt with TensorFlow's flags, not reinstalled.
        name = library.replace("\\", "/").rsplit("/", 1)[-1] if library else None
        return causes.software.CUSTOM_OP_BUILD_MISMATCH, causes.software.custom_op_link_fix(
            m, name, r.tf_version
        )
    if major is None:
        return None
    # A package's compiled ops: the package was built for that major.
    return causes.software.COMPANION_MISMATCH, causes.software.op_library_major_fix(
        m, major, r.tf_version, owner or _framework_package(cited, r.op_loader)
    )


#: Windows refusing a package's own extension module, as Python names it (with Windows'
#: reason, or the reason cut from the paste).
_EXTENSION_REFUSED = frozenset(
    {"windows-extension-dll-load-failed", "windows-extension-dll-reason-cut"}
)


def _windows_extension(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Python's "DLL load failed" for an extension module: a file of another word size
    (TensorFlow's own or a package's), or a package's own extension refused; None for
    neither."""
    if any(h.signature.id in ("windows-dll-wrong-machine", "windows-error-193") for h in hits):
        # Another word size: the extension Python names is TensorFlow's own, or a package's.
        package = r.dll_extension
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.dll_word_size_fix(
            m, package, distribution_of(package) if package else None
        )
    if not any(h.signature.id in _EXTENSION_REFUSED for h in hits):
        return None
    # A package's own extension (Python names it, or the traceback's import does).
    module = r.dll_extension or group(hits, "library")
    package = module if module and distribution_of(module) else r.dll_extension
    return _extension_refused(m, package) or (
        causes.platform.NATIVE_LIBRARY_UNRESOLVED,
        causes.platform.extension_dll_fix(
            m, package, distribution_of(package) if package else None
        ),
    )


def _runtime_named(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """A Windows extension refused for its DLLs (_windows_extension), or a runtime the log
    names as the library not found, with its own install: TensorFlow's C library (its header
    or library not found by the build), the Edge TPU runtime (where TFLite's load_delegate
    asks for it)."""
    refused = _windows_extension(m, r, hits)
    if refused is not None:
        return refused
    if any(h.signature.id in ("c-api-header-not-found", "c-api-library-not-linked") for h in hits):
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.c_api_fix(r.os)
    library = group(hits, "library")
    if library and causes.software.edgetpu_runtime_file(library):
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.software.edgetpu_install_fix(
            library
        )
    return None


def _native(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "tensorrt-stub-abort" for h in hits):
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.tensorrt_fix()
    cuda_symbol = next(
        (g for h in hits if h.signature.id == "extension-cuda-runtime-symbol" for g in h.groups),
        None,
    )
    if cuda_symbol is not None:
        # Read before the generic undefined symbol, which names no CUDA release.
        path = cuda_symbol["library"]
        top = installed_package(os.path.normpath(path))
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.cuda_runtime_symbol_fix(
            m, path, cuda_symbol["symbol"], distribution_of(top) if top else None
        )
    icu = next(
        (g for h in hits if h.signature.id == "icu-data-symbol-undefined" for g in h.groups), None
    )
    if icu is not None:
        shown = icu.get("library") or None
        top = installed_package(os.path.normpath(shown)) if shown else None
        package = icu.get("dist") or (distribution_of(top) if top else None)
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.icu_data_fix(
            m, icu["symbol"], package, icu.get("loaded") or None, shown
        )
    own_install = _runtime_named(m, r, hits)
    if own_install is not None:
        return own_install
    library = group(hits, "library")
    if library and r.hadoop and library.rsplit("/", 1)[-1].startswith(_HDFS_LIBRARIES):
        # Only where the log shows HDFS: other programs embed a JVM too (JPype, rJava); where
        # none is named, _jvm_candidate ranks HDFS's environment after the loader's reading.
        return causes.runtime.FILESYSTEM_ENV_MISCONFIGURED, causes.runtime.hdfs_env_fix()
    if not (library and causes.platform.tfjs_binding(library)) and any(
        h.signature.id == "tfjs-node-dlopen-failed" for h in hits
    ):
        # Node's error code alone, beside TensorFlow.js for Node: its addon did not load.
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.tfjs_dlopen_fix(
            r.os, r.tfjs_node_package or "tfjs-node"
        )
    if library and causes.platform.tfjs_binding(library):
        # TensorFlow.js for Node's addon: the file tfjs-node itself says is missing, or one
        # Windows could not load for a DLL it links.
        built = not any(
            h.signature.id in ("tfjs-binding-not-built", "tfjs-binding-module-missing")
            for h in hits
        )
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.tfjs_binding_fix(
            library, built
        )
    if library and any(h.signature.id in _LIBRARY_SYMBOL_IDS for h in hits):
        symbol = group(hits, "symbol") or ""
        if re.match(r"_ZN?K?St(?!3__1)", symbol):  # std::__1 is LLVM's libc++, not libstdc++
            # A symbol of the C++ standard library (namespace std): the libstdc++ loaded is
            # older than the one the library was built with.
            return causes.platform.LIBSTDCXX_TOO_OLD, causes.platform.libstdcxx_fix(
                symbol, "", library
            )
        # A library that loaded but needs a symbol nothing defines: it, or the library that
        # should define it (the message's "version" names that one), is of another build.
        top = _library_package(library, r)
        built_on_tf = _built_on_tensorflow(top)
        if built_on_tf and causes.software.tf_build_symbol(symbol):
            # A compiled companion's own library missing a symbol of the TensorFlow build it
            # links (abseil, protobuf, TensorFlow's): built for another TensorFlow.
            return causes.software.COMPANION_MISMATCH, causes.software.companion_build_fix(
                m, built_on_tf, symbol, r.tf_version
            )
        # A library no installed package owns, beside one wheel the log shows installed from
        # a file (built elsewhere, not chosen by pip for this system): that wheel's native code
        # may link what this system's libraries do not define.
        wheel = r.wheel_files[0] if top is None and len(r.wheel_files) == 1 else None
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.undefined_symbol_fix(
            library,
            symbol,
            causes.common.installed_package_named(top),
            group(hits, "required"),
            wheel,
        )
    if any(h.signature.id == "dotnet-tensorflow-dll-not-found" for h in hits):
        return (
            causes.platform.NATIVE_LIBRARY_UNRESOLVED,
            causes.platform.dotnet_library_unfound_fix(r.tensorflowsharp),
        )
    own = _own_library_unopened(hits)
    if own is not None:
        return causes.platform.WHEEL_MISMATCH, causes.platform.own_library_unopened_fix(m, *own)
    # "Library not loaded" is dyld's (macOS) wording.
    dyld = any(h.signature.id == "dylib-not-loaded" for h in hits)
    macos = r.os == "macos" or dyld or bool(library and library.endswith(".dylib"))
    unstarted = _program_unstarted(hits, library, macos)
    if unstarted is not None:
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, unstarted
    windows = not macos and (
        r.os == "windows" or bool(library and library.lower().endswith((".dll", ".pyd")))
    )
    importer = r.native_importer
    fix = causes.platform.native_library_fix(
        _dyld_found_as(library, r.dyld_tried) if macos else library,
        macos,
        windows,
        (importer.module, importer.dist, importer.folder) if importer is not None else None,
    )
    # The file that needed the library is a companion's own extension: a release of that
    # companion built for this system and TensorFlow is what links (its own fix).
    owners = (
        origin_of(path).dist
        for hit in hits
        for _, line in hit.citations
        for path in _INSTALLED_PATH.findall(line)
    )
    named = (_library_owner(g["library"]) for h in hits for g in h.groups if g.get("library"))
    owner = next((d for d in (*owners, *named) if d and d not in TF_DISTRIBUTIONS), None)
    major_found = _framework_major(m, r, hits, library, owner) or _tf_own_unfound(
        m, r, hits, library, owner
    )
    if major_found is not None:
        return major_found
    foreign = _conda_build_library(hits, r)
    if owner is None and r.conda and foreign is not None:
        # TensorFlow's pip wheels carry these libraries inside; a conda build links them from
        # the environment, so one from another channel or release breaks it.
        fix = causes.platform.conda_channel_fix(m, foreign)
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, fix
    if owner is not None:
        lines = [line for h in hits for _, line in h.citations]
        system = next(filter(None, map(_SYSTEM_LIBRARY.search, lines)), None)
        if system is not None:
            # Built for a newer macOS than this one: its release for this TensorFlow may be
            # that very build; a release whose wheel's macOS tag this system meets, or a newer
            # macOS, is what loads.
            fix = Fix(
                f"{owner}'s library links {system.group(1)}, which this macOS does not have: "
                f"the {owner} release installed was built for a newer macOS. Upgrade macOS, or "
                f"install an older {owner} release whose wheel is built for this macOS (the "
                "macosx_X_Y tag of its file name at most this version), with the TensorFlow "
                f"that release declares. Or: {fix.text}",
                ("sw_vers -productVersion", *m.list_releases(owner), *fix.commands),
            )
        else:
            other = causes.software.companion_fix(m, owner)
            fix = Fix(
                f"The library that needs it is {owner}'s own: {other.text} Or: {fix.text}",
                (*other.commands, *fix.commands),
            )
    return causes.platform.NATIVE_LIBRARY_UNRESOLVED, fix


#: glibc's words for a library it could not open, as dlerror() and Python's ImportError print
#: them after the file's name: ENOENT's.
_ENOENT_WORDS = ": cannot open shared object file: No such file or directory"


def _own_library_unopened(hits: Sequence[Hits]) -> Optional[tuple[str, str]]:
    """The installed path and distribution of a package's own compiled library (a ``.so``
    in its site-packages directory, named by its whole path) that glibc reported as not
    there: not a dependency it links, the file itself. None for a bare file name (a library
    the loader searched for), a path outside site-packages, or a distribution the module
    table does not know."""
    for hit in hits:
        for (_, line), groups in zip(hit.citations, hit.groups):
            path = groups.get("library", "")
            if "/" not in path or not path.endswith(".so") or f"{path}{_ENOENT_WORDS}" not in line:
                continue
            top = installed_package(path)
            dist = distribution_of(top) if top else None
            if dist:
                return path, dist
    return None


def _custom_op(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A project's own op that does not compile, link or load against the installed
    TensorFlow: the step the log shows failing says which flags to take from it."""
    ids = {h.signature.id for h in hits}
    cause = causes.software.CUSTOM_OP_BUILD_MISMATCH
    plugin = bool(ids & {"tf-plugin-setup-failed", "tf-plugin-nvcc-failed"})
    if ids & {"custom-op-header-missing", "custom-op-header-error", "custom-op-source-api-error"}:
        return cause, causes.software.custom_op_compile_fix(group(hits, "header"), plugin)
    if "horovod-extension-crash-frame" in ids:
        return cause, causes.software.horovod_compiler_fix(m, r.tf_version)
    if "op-library-cuda-unfound" in ids:
        library = group(hits, "library") or ""
        package = installed_package(r.op_loader) if r.op_loader else None
        dist = distribution_of(package) if package else None
        if dist:
            # A published package's ops, built for another CUDA (its release for another
            # TensorFlow): its release for the installed one.
            return causes.software.COMPANION_MISMATCH, causes.software.companion_fix(m, dist)
        return cause, causes.software.custom_op_cuda_unfound_fix(library)
    if "op-library-unbuilt" in ids:
        return cause, causes.software.custom_op_unbuilt_fix(group(hits, "library"))
    if "op-library-windows-unloaded" in ids:
        return cause, causes.software.custom_op_windows_fix(group(hits, "library"))
    if "op-library-cuda-runtime-symbol" in ids:
        return cause, causes.software.custom_op_cudart_fix(
            group(hits, "library"), group(hits, "symbol") or ""
        )
    if "op-library-own-symbol" in ids:
        return cause, causes.software.custom_op_unlinked_fix(
            group(hits, "library"), group(hits, "symbol") or ""
        )
    if "framework-library-not-found-apple-ld" in ids:
        linked = group(hits, "library")
        return cause, causes.software.custom_op_macos_link_fix(
            m, f"-l{linked}" if linked else None, r.tf_version
        )
    if "framework-library-not-linked" in ids:
        linked = group(hits, "library")
        return cause, causes.software.custom_op_link_fix(
            m, f"-l{linked}" if linked else None, r.tf_version
        )
    return cause, causes.software.custom_op_compile_fix(None, plugin)


#: The external repository a Bazel crash names ('REPOSITORY_DIRECTORY:@llvm').
_CRASHED_REPOSITORY = re.compile(r"'REPOSITORY\w{0,20}:@{1,2}([\w.+~-]{1,200})")


def _bazel(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # The last release asked for: configure may be run again after a first change.
    found = [
        (g["required"], g.get("direction", "")) for h in hits for g in h.groups if g.get("required")
    ]
    required, direction = found[-1] if found else (None, "")
    # configure.py's words (upgrade, downgrade) and a WORKSPACE check's (at least, at most).
    newer = {"upgrade": True, "least": True, "downgrade": False, "most": False}.get(direction)
    ids = {h.signature.id for h in hits}
    # The flag that sets a removed API back, where an error names one.
    flag = next(
        (
            g["flag"]
            for h in hits
            if h.signature.id == "bazel-incompatible-change-flipped"
            for g in h.groups
            if g.get("flag")
        ),
        "",
    )
    why = ""
    if not required and any(REMOVED_API in h.signature.tags for h in hits):
        newer = False
        said = " ".join(line for h in hits for _, line in h.citations)
        # Bazel's own replacement for the native repository rules it removed.
        load = (
            " Where the WORKSPACE is your own, load the rule instead, as Bazel's message says "
            '(load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive"); git.bzl '
            "for git_repository)."
            if "http_archive" in said or "git_repository" in said
            else ""
        )
        why = (
            "The source's build files use a Starlark API this Bazel release has removed: the "
            "Bazel is newer than the source." + load
        )
    elif not required and "bazel-tools-symbol-missing" in ids:
        why = (
            f"The source loads {group(hits, 'symbol') or 'a symbol'} from Bazel's own tools "
            "(@bazel_tools), which this Bazel release does not have: the source was written "
            "for another release."
        )
    elif not required and "bazel-rc-option-unrecognized" in ids:
        why = (
            f"This Bazel release does not know --{group(hits, 'flag')}, a versioned flag the "
            "source's .bazelrc (or the build command a guide gives) passes: they were written "
            "for another release."
        )
    elif not required and "starlark-builtin-keyword-unknown" in ids:
        why = (
            "The source calls a Bazel builtin with an argument this Bazel release does not "
            "take: the source was written for another release."
        )
    elif not required and "bazel-crash-evaluating-repository" in ids:
        said = " ".join(line for h in hits for _, line in h.citations)
        named = _CRASHED_REPOSITORY.search(said)
        repo = named.group(1) if named is not None else ""
        why = (
            f"Bazel crashed (an internal error, a bug of this Bazel release) while it set up "
            f"the source's external repository{' @' + repo if repo else ''}: the release the "
            "source is built and tested with is the one to use."
        )
    return causes.platform.BAZEL_VERSION_MISMATCH, causes.platform.bazel_fix(
        required, newer, why, flag
    )


def _host_compiler(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """nvcc's refusal of the host compiler, fixed from the bound its own line names."""
    line = next((text for h in hits for _, text in h.citations), "")
    return causes.platform.BUILD_HOST_COMPILER_UNSUPPORTED, causes.platform.host_compiler_fix(
        line, r.os
    )


def _static_tls(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.platform.STATIC_TLS_EXHAUSTED, causes.platform.static_tls_fix(
        group(hits, "library")
    )


#: A traceback frame in TensorFlow's loader of its native library (TensorFlow 1.x-2.x:
#: pywrap_tensorflow.py, which imports the SWIG or pybind11 module _pywrap_tensorflow_internal).
_NATIVE_IMPORT_FRAME = re.compile(
    r'^[ \t]*File "(?P<path>[^"\n]{1,300}?[\\/]tensorflow(?:_core)?[\\/]python[\\/]'
    r'pywrap_tensorflow(?:_internal)?\.py)",[ \t]*(?:\n[ \t]*)?line \d+',
    re.MULTILINE,
)
#: The message TensorFlow's loader raises its ImportError with (pywrap_tensorflow.py, 1.x-2.x:
#: ``msg = """%s\n\nFailed to load the native TensorFlow runtime..." % traceback.format_exc()``):
#: the inner traceback first, so a message that is only its header was cut before the reason.
_INNER_TRACEBACK = "Traceback (most recent call last)"


def _native_import_cut(
    evidence: Evidence, r: Revealed, m: Machine, found: Iterable[Finding]
) -> tuple[Finding, ...]:
    """A traceback through TensorFlow's loader of its native library, cut before the message
    that says why it failed, where nothing else explains the log: the candidates ranked by
    what the log shows of the machine (Windows, with a GPU build's DLLs as the second; a
    container started without a GPU)."""
    if any(x.severity.rank >= Severity.WARNING.rank for x in found):
        return ()
    text = evidence.first_text
    if "pywrap_tensorflow" not in text:
        return ()
    frame = _NATIVE_IMPORT_FRAME.search(text)
    if frame is None or any(
        any("pywrap_tensorflow" in f.path for f in tb.frames)
        and not tb.message.startswith(_INNER_TRACEBACK)
        for tb in evidence.tracebacks
    ):
        return ()  # no such frame, or the traceback's own message is shown (its finding)
    # A path the paste wrapped before its line number is cited on one line.
    where = f"line {text.count(chr(10), 0, frame.start()) + 1}: " + " ".join(frame.group(0).split())
    windows = r.os == "windows" or re.match(r"[A-Za-z]:\\", frame.group("path")) is not None
    if windows:
        # Python's "DLL load failed" is what this import raises on Windows: a Visual C++
        # runtime DLL missing is the commoner reason (TensorFlow 2.1 and later need the 2019
        # runtime's msvcp140_1.dll), a CPU without AVX (every release from 1.6) the other;
        # a GPU build of 2.0 or older refuses in the same words for its CUDA and cuDNN DLLs.
        candidate = gpu_dll_candidate(where, m, r)
        return (
            causes.finding(
                f"explain.{causes.platform.MSVC_RUNTIME_MISSING}",
                Severity.WARNING,
                causes.platform.MSVC_RUNTIME_MISSING,
                "TensorFlow's native library did not load on Windows (the message is cut off)",
                f"{where}\nThe traceback ends in TensorFlow's loader of its native library "
                "before the message; on Windows that is a DLL the library needs, most often the "
                "Visual C++ runtime, or a CPU without AVX.",
                causes.platform.msvc_fix(),
            ),
        ) + ((candidate,) if candidate is not None else ())
    if r.docker_run_without_gpu is not None:
        # A GPU build links the driver's libcuda.so.1, which the container runtime mounts
        # only into a container started with the GPU.
        command = r.docker_run_without_gpu[1]
        return (
            causes.finding(
                f"explain.{causes.container.CONTAINER_NO_GPU}",
                Severity.WARNING,
                causes.container.CONTAINER_NO_GPU,
                "TensorFlow's native library did not load in a container started without a GPU",
                f"{where}\nThe container was started without GPU access ({command}); a GPU build "
                "of TensorFlow in the image links the driver's libcuda.so.1, which only the "
                "runtime's GPU option mounts (--gpus, through the NVIDIA Container Toolkit; "
                "Apptainer's --nv). The traceback is cut before its message: where the image holds "
                "a CPU build, that message decides.",
                causes.container.container_gpu_fix(m),
            ),
        )
    return ()


#: The import packages of native libraries TensorFlow's own install brings and loads itself,
#: which its code calls as it should: the CUDA wheels of ``tensorflow[and-cuda]`` (2.14 and
#: later), whose libraries pip puts under ``site-packages/nvidia/<library>/lib``.
#: https://github.com/tensorflow/tensorflow/blob/v2.14.0/tensorflow/tools/pip_package/setup.py
_TF_NATIVE_DEPENDENCIES = frozenset({"nvidia"})


def _interleaved_import(text: str, found: Iterable[Finding]) -> Optional[Finding]:
    """A native backtrace (gdb's) of TensorFlow's import: TensorFlow's static initialisers on
    the stack, running code of another installed package's library inner to them. The loader
    bound a symbol of TensorFlow's library to that library's copy (one loaded first into the
    process exports it: tensorflow#13615, PyTorch 0.2's libTHC and std::call_once), so the
    package imported before TensorFlow breaks TensorFlow's import. None where the stack shows
    no such thing or the log's own words already name the import order."""
    conflict = f"explain.{causes.runtime.IMPORT_ORDER_CONFLICT}"
    if any(x.id == conflict for x in found):
        return None
    # The thread that imported TensorFlow: the one whose stack holds its initialisers (each
    # thread's backtrace where gdb printed all).
    frames, start = next(
        (
            (stack, i)
            for stack in read_native_backtraces(text)
            for i, f in enumerate(stack)
            if f.initialiser and f.package in TF_PACKAGES
        ),
        ((), None),
    )
    if start is None:
        return None
    inner = [
        f
        for f in frames[:start]
        if f.package is not None
        and f.package not in TF_OWN
        and f.package not in _TF_NATIVE_DEPENDENCIES
    ]
    if not inner:
        return None
    others = tuple(dict.fromkeys(str(f.package) for f in reversed(inner)))
    shown = "; ".join(
        f"#{f.number} {f.library.rsplit('/', 1)[-1]} ({f.package})"
        for f in (inner[0], frames[start])
    )
    return causes.finding(
        conflict,
        Severity.ERROR,
        causes.runtime.IMPORT_ORDER_CONFLICT,
        f"TensorFlow's import ran into {', '.join(others)}'s native code, loaded before it",
        f"The native backtrace shows TensorFlow's static initialisers, which run as its "
        f"library loads during `import tensorflow`, calling code of a library another package "
        f"loaded first ({shown}): TensorFlow's library was bound to that library's copy of a "
        "symbol, and the import crashed in it. Imported first, TensorFlow binds its own.",
        causes.runtime.import_order_fix(others),
    )


#: TensorFlow's own shared objects, by file name, as a backtrace names them.
_TF_LIBRARY = re.compile(
    r"^(?:libtensorflow_framework|libtensorflow_cc|libtensorflow|_pywrap_tensorflow_internal)"
    r"\.(?:so|dylib)\b"
)
#: The libraries TensorFlow's own shared objects carry a copy of, by the prefix their symbols
#: have as a backtrace prints them (Itanium mangling's namespace, or hwloc's C names):
#: protobuf and abseil are built into libtensorflow_framework (tensorflow/workspace2.bzl),
#: hwloc from 1.14 (tensorflow/tensorflow#29807).
_BUNDLED_SYMBOLS = (
    ("_ZN6google8protobuf", "protobuf"),
    ("_ZN4absl", "abseil"),
    ("hwloc_", "hwloc"),
)
#: System libraries a stack passes through on anyone's behalf: the C and C++ runtimes, the
#: loader, Python's own.
_RUNTIME_LIBRARY = re.compile(
    r"^(?:libc|libstdc\+\+|libgcc_s|libpthread|ld-linux|libpython|libm)\b|^python[\d.]*$"
)


def _file_name(library: str) -> str:
    """A shared object's file name, from its path or its name alone."""
    return PurePosixPath(library).name


def _bundled_in(frame_text: str) -> str:
    """The bundled library (:data:`_BUNDLED_SYMBOLS`) whose symbol a frame runs, or ""."""
    function = frame_text.split(" in ", 1)[-1].lstrip()
    function = re.sub(r"^0x[0-9a-fA-F]+\s+", "", function)
    return next((name for prefix, name in _BUNDLED_SYMBOLS if function.startswith(prefix)), "")


def bound_to_tensorflow_copy(text: str, found: Iterable[Finding]) -> Optional[Finding]:
    """A native backtrace whose innermost frames run a library TensorFlow's own shared object
    carries a copy of (protobuf, abseil, hwloc: :data:`_BUNDLED_SYMBOLS`) inside TensorFlow's
    library, called from another package's library: that library's own calls were bound to
    TensorFlow's exported copy, of another release, and crashed in it. None where a reading of
    the log's words already names the cause."""
    clash = f"explain.{causes.platform.TF_EXPORTED_SYMBOL_CLASH}"
    if any(x.id == clash for x in found):
        return None
    for stack in read_native_backtraces(text):
        inner = 0
        while inner < len(stack) and _TF_LIBRARY.match(_file_name(stack[inner].library)):
            inner += 1
        if inner == 0 or inner >= len(stack):
            continue
        bundled = next((b for f in stack[:inner] for b in [_bundled_in(f.text)] if b), "")
        caller = stack[inner]
        name = _file_name(caller.library)
        if not bundled or not name or _RUNTIME_LIBRARY.match(name):
            continue
        who = caller.package or f"the package of {name}"
        shown = "; ".join(
            f"#{f.number} {_file_name(f.library)}" for f in (stack[inner - 1], caller)
        )
        return causes.finding(
            clash,
            Severity.ERROR,
            causes.platform.TF_EXPORTED_SYMBOL_CLASH,
            f"{who[:1].upper()}{who[1:]} ran TensorFlow's copy of {bundled} and crashed in it",
            f"The native backtrace shows {name} calling {bundled} code inside TensorFlow's "
            f"library ({shown}): TensorFlow's library exports the {bundled} it carries, and "
            f"the other library's own {bundled} calls were bound to that copy, of another "
            "release.",
            causes.platform.exported_symbol_fix(bundled, who, caller.package or ""),
        )
    return None
