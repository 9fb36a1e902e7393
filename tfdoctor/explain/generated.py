"""Exceptions protobuf's runtime raises while a generated ``_pb2`` module loads.

A ``_pb2.py`` file is code that protoc generated for one protobuf runtime: it calls that
runtime (``_descriptor.FieldDescriptor(...)``, ``_message.Message``) as that release had it.
When the innermost frames are protobuf's own (``google/protobuf/``) and a frame above them is
a generated ``_pb2`` module, the exception, whatever its words (``Descriptors cannot be created
directly``, ``module 'google._upb._message' has no attribute 'Message'``), is the runtime and
the generated code disagreeing: protobuf outside the range the code's package declares
(protobuf's notes on its 4.21 runtime: https://protobuf.dev/news/2022-05-06/#python-updates).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.conda import CondaRow
from tfdoctor.evidence.packages import tf_installer
from tfdoctor.evidence.traceback import Frame, Traceback, is_installed, origin_of
from tfdoctor.facts import normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.modules import distribution_of

#: protobuf's wheel installs the ``google.protobuf`` namespace package: its files lie there.
_RUNTIME = "/google/protobuf/"
#: A conda environment's own site-packages, below its prefix.
_CONDA_SITE = re.compile(r"/(?:lib/python\d+\.\d+t?|Lib)/site-packages", re.IGNORECASE)
#: Words only a runtime newer than the generated code says: ``google._upb`` is the backend
#: protobuf 4.21 introduced, and "Descriptors cannot be created directly" is 4.21's refusal of
#: code from protoc before 3.19 (https://protobuf.dev/news/2022-05-06/#python-updates).
_NEWER_RUNTIME = ("_upb", "Descriptors cannot")
#: The descriptor pool refusing a second copy of one .proto file: two packages (or two copies
#: of one) define it, which no protobuf release changes.
_DUPLICATE = "duplicate file name"
#: protobuf's compiled descriptor pool refusing a field of protobuf's own descriptor.proto
#: (``KeyError: "Couldn't find field google.protobuf.DescriptorProto.ExtensionRange.options"``:
#: pyext/descriptor_pool.cc, ``PyErr_Format(PyExc_KeyError, "Couldn't find field %.200s",
#: name)``, https://github.com/protocolbuffers/protobuf/blob/v3.4.0/python/google/protobuf/pyext/descriptor_pool.cc).
#: protobuf's Python code (descriptor.py, descriptor_pb2.py) asks its compiled part for a
#: field of its own release, which the compiled part of another release lacks: two protobuf
#: releases' files in one folder, whoever imported protobuf.
_OWN_FIELD_REFUSED = re.compile(r"Couldn't find field (?P<field>google\.protobuf\.[\w.]{1,200})")


def _in_runtime(frame: Frame) -> bool:
    return _RUNTIME in frame.path.replace("\\", "/")


def _generated(frame: Frame) -> bool:
    return frame.path.replace("\\", "/").rsplit("/", 1)[-1].endswith("_pb2.py")


def generated_code_findings(
    tracebacks: Sequence[Traceback], m: Machine, rows: Sequence[CondaRow] = ()
) -> list[Finding]:
    """One finding when an exception is raised in protobuf's runtime below a ``_pb2`` frame,
    or protobuf's compiled part refuses a field of protobuf's own (``rows``: the ``conda
    list`` rows the log shows, whose protobuf copies the fix removes)."""
    for tb in tracebacks:
        found = _runtime_refusal(tb, m) or _own_field_refused(tb, m, rows)
        if found is not None:
            return [found]
    return []


#: A statement importing a generated module (``from tensorboard.compat.proto.event_pb2 import
#: SessionLog``), where a short traceback (pytest's) leaves out the frames below it.
_IMPORTS_GENERATED = re.compile(
    r"^\s*(?:from\s+(?P<module>[\w.]*_pb2)\s+import\b|import\s+(?P<module2>[\w.]*_pb2)\b)"
)
#: The upb runtime's own module, named in its refusals of code it was not built for.
_UPB = "google._upb._message"


def _runtime_refusal(tb: Traceback, m: Machine) -> Optional[Finding]:
    frames = list(tb.frames)
    if not frames or _DUPLICATE in tb.message:
        return None
    if not _in_runtime(frames[-1]):
        # The frames stop at the import of a generated module, and the runtime's own module
        # words the refusal: the same disagreement, its inner frames cut from the paste.
        imported = _IMPORTS_GENERATED.match(frames[-1].code or "")
        if _UPB not in tb.message or imported is None:
            return None
        module = imported.group("module") or imported.group("module2")
        owner = distribution_of(module) or "the importing package"
        name = f"{module.rsplit('.', 1)[-1]}.py"
    else:
        # The generated module that called the runtime: the innermost frame above its own.
        caller = next((f for f in reversed(frames) if not _in_runtime(f)), None)
        if caller is None or not _generated(caller):
            return None
        owner = origin_of(caller.path).dist or "the calling package"
        name = caller.path.replace("\\", "/").rsplit("/", 1)[-1]
    return causes.finding(
        "explain.protobuf-incompatible",
        Severity.ERROR,
        causes.software.PROTOBUF_INCOMPATIBLE,
        f"protobuf's runtime refused {owner}'s generated code ({name})",
        f"{tb.where}: {tb.type}: {tb.message}\nThe exception is raised in protobuf's runtime "
        f"(google/protobuf/) while {owner}'s generated `_pb2` module loads: the installed "
        "protobuf is not the runtime that code was generated for.",
        _fix(m, newer=any(word in tb.message for word in _NEWER_RUNTIME)),
    )


def _own_field_refused(tb: Traceback, m: Machine, rows: Sequence[CondaRow]) -> Optional[Finding]:
    """protobuf's own frame raising its compiled pool's refusal of a field of protobuf's own
    descriptor.proto (:data:`_OWN_FIELD_REFUSED`), whatever code imported protobuf: its Python
    part and its compiled part are of two releases. A listing that shows protobuf more than
    once says how (several copies in one folder); the fix removes them all."""
    refused = _OWN_FIELD_REFUSED.search(tb.message)
    if refused is None or not tb.frames or not _in_runtime(tb.frames[-1]):
        return None
    # A row once (a listing pasted twice shows each row twice); conda's own record of a
    # package is one per environment (conda-meta holds one record a name), so two conda rows
    # are two environments' listings, whose rows count no copies of one folder.
    copies = list(dict.fromkeys(r for r in rows if r.name == "protobuf"))
    if copies:
        conda_rows = [(r.version, r.channel) for r in copies if r.channel != "pypi"]
        pip_versions = [r.version for r in copies if r.channel == "pypi"]
        shown = "The listing shows"
        listing = [
            f"protobuf {r.version} {'pip' if r.channel == 'pypi' else r.channel or r.build}"
            for r in copies
        ]
        several = len(listing) > 1 and len(conda_rows) <= 1
    else:
        # No listing in the words: the machine's own records of the folder that ran.
        conda_rows, pip_versions = _installed_copies(m, tb.frames[-1])
        shown = "This environment's package records show"
        listing = [f"protobuf {v} conda{f' ({c})' if c else ''}" for v, c in conda_rows]
        listing += [f"protobuf {v} pip" for v in pip_versions]
        several = len(listing) > 1
    return causes.finding(
        "explain.protobuf-incompatible",
        Severity.ERROR,
        causes.software.PROTOBUF_INCOMPATIBLE,
        "protobuf's compiled part lacks a field its own Python code declares: two protobuf "
        "releases are mixed",
        f"{tb.where}: {tb.type}: {tb.message}\nprotobuf's own descriptor code asks its "
        f"compiled descriptor pool for {refused.group('field')}, a field of protobuf's own "
        "descriptor.proto, and the pool lacks it: the Python files and the compiled module "
        "come from different protobuf releases."
        + (f"\n{shown} protobuf {len(listing)} times: {'; '.join(listing)}." if several else ""),
        causes.software.protobuf_copies_fix(m, conda_rows, pip_versions, shown)
        if several
        else causes.software.protobuf_reinstall_fix(m),
    )


def _installed_copies(m: Machine, frame: Frame) -> tuple[list[tuple[str, str]], list[str]]:
    """The protobuf copies the machine's facts show in the folder ``frame`` ran from (the one
    holding google/protobuf/): conda's packages of protobuf (version, channel) where that
    folder lies in the conda environment, and every other distribution record of protobuf
    in it, each a copy pip uninstalls once (a record of a conda package's version is that
    package's own). Both empty where the facts name no folders (a log's)."""
    folder = frame.path.replace("\\", "/").split(_RUNTIME, 1)[0].rstrip("/")
    records = [
        p.version
        for p in m.facts.packages or ()
        if normalize_name(p.name) == "protobuf"
        and p.location.replace("\\", "/").rstrip("/") == folder
    ]
    conda = m.facts.conda
    # conda's packages are the environment's own site-packages' (PREFIX/lib/pythonX.Y/
    # site-packages, PREFIX\Lib\site-packages on Windows): a folder deeper under the prefix
    # is another environment's (base's envs/NAME) and holds none of them.
    prefix = conda.prefix.replace("\\", "/").rstrip("/") if conda is not None else ""
    in_conda = (
        conda is not None
        and folder.startswith(prefix + "/")
        and _CONDA_SITE.fullmatch(folder[len(prefix) :]) is not None
    )
    conda_rows = [
        (c.version, c.channel)
        for c in (conda.packages if conda is not None and in_conda else ())
        if c.name == "protobuf" and c.channel != "pypi"
    ]
    for version, _ in conda_rows:
        if version in records:
            records.remove(version)
    return conda_rows, records


def _fix(m: Machine, newer: bool) -> Fix:
    """TensorFlow's declared range; without one, away from a runtime the words show is newer,
    else no direction is guessed (an older runtime refuses newer code in other words)."""
    if newer:
        return causes.software.protobuf_fix(m)
    return causes.common.range_fix(m, "protobuf") or Fix(
        "Install the protobuf release the package that owns the generated code declares "
        "(`pip check` names the range each installed package wants).",
        m.pip("check"),
    )


#: A generated module that did not import: ``cannot import name 'x_pb2' from 'pkg.protos'``
#: (Python before 3.8 leaves out the module, Python 2 the quotes: the evidence layer takes the
#: module from the import statement where the frames show it) or ``No module named
#: 'pkg.protos.x_pb2'`` (Python 2: ``No module named x_pb2``, only the part that failed).
_MISSING_GENERATED = re.compile(
    r"cannot import name '?(?P<name>\w{1,200}_pb2)\b'?(?: from '(?P<package>[\w.]{1,300})')?"
    r"|No module named '?(?P<module>[\w.]{0,300}_pb2)\b"
)
#: The import statement a frame or the line above the exception shows, naming the package.
_IMPORT_OF = re.compile(
    r"^\s*from\s+(?P<package>[\w.]{1,300})\s+import\b[^\n]{0,200}?\b(?P<name>\w{1,200}_pb2)\b"
    r"|^\s*(?:from|import)\s+(?P<module>[\w.]{1,300}_pb2)\b"
)
#: Python 3's message names the file of the package it searched:
#: ``(/src/models/research/object_detection/protos/__init__.py)``.
_PACKAGE_FILE = re.compile(r"\((?P<path>[^()\n]{1,400}?)\)\s*$")
_WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]|\\")


def uncompiled_protos_findings(tracebacks: Sequence[Traceback]) -> list[Finding]:
    """One finding where a project's own generated ``_pb2`` module is missing: the project
    compiles its .proto files with protoc (the Object Detection API's object_detection/protos),
    and that step has not run. A known distribution's generated module (TensorFlow's,
    TensorBoard's, protobuf's) missing is a broken install of it, read elsewhere."""
    for tb in tracebacks:
        found = _uncompiled(tb)
        if found is not None:
            return [found]
    return []


def _missing_generated(tb: Traceback) -> Optional[tuple[str, str]]:
    """The package and the full name of the generated module the exception shows missing."""
    match = _MISSING_GENERATED.search(tb.message)
    if match is None or tb.circular_import is not None:
        return None
    dotted = match.group("module")
    if dotted and "." in dotted:
        return dotted.rsplit(".", 1)[0], dotted
    name = match.group("name") or dotted
    if match.group("package"):
        return match.group("package"), f"{match.group('package')}.{name}"
    # The package only an import statement shows (Python 2's bare name, a pasted line).
    for code in (*(f.code for f in reversed(tb.frames)), tb.statement):
        line = _IMPORT_OF.match(code or "")
        if line is None:
            continue
        if line.group("module") and line.group("module").endswith(f".{name}"):
            return line.group("module").rsplit(".", 1)[0], line.group("module")
        if line.group("package") and line.group("name") == name:
            return line.group("package"), f"{line.group('package')}.{name}"
    return None


def _tree_root(tb: Traceback, top: str) -> tuple[Optional[str], bool, bool]:
    """The directory holding the package ``top`` that a path of the traceback shows (the
    message's package file, else the innermost frame inside it; None where the path is
    relative, from the directory the program ran in), whether that copy is an installed one
    (site-packages) rather than a source tree, and whether any path shows it at all."""
    said = _PACKAGE_FILE.search(tb.message)
    paths = [said.group("path")] if said is not None else []
    paths += [f.path for f in reversed(tb.frames) if not f.path.startswith("<")]
    for path in paths:
        unified = path.replace("\\", "/")
        if unified.startswith(f"{top}/"):
            return None, False, True
        at = unified.rfind(f"/{top}/")
        if at < 0:
            continue
        if is_installed(path):
            return None, True, True
        return path[:at] or "/", False, True
    return None, False, False


def _uncompiled(tb: Traceback) -> Optional[Finding]:
    missing = _missing_generated(tb)
    if missing is None:
        return None
    package, module = missing
    if distribution_of(package) is not None:
        return None  # a distribution's own generated code: its install is broken, not built
    top = package.split(".", 1)[0]
    root, installed, shown = _tree_root(tb, top)
    # The project's protos package by name, or its source tree in the frames: without either
    # the module may be an installed distribution's that tfdoctor does not know.
    if "protos" not in package.split(".") and (not shown or installed):
        return None
    paths = [root or "", *(f.path for f in tb.frames)]
    windows = any(_WINDOWS_PATH.search(p) for p in paths if p and not p.startswith("<"))
    where = f" (under {root})" if root else " (an installed copy)" if installed else ""
    return causes.finding(
        f"explain.{causes.software.PROTOS_NOT_COMPILED}",
        Severity.ERROR,
        causes.software.PROTOS_NOT_COMPILED,
        f"{module} was never generated: protoc has not compiled {package}'s .proto files",
        f"{tb.where}: {tb.type}: {tb.message}\n{module.rsplit('.', 1)[-1]} is a module protoc "
        f"writes from a .proto file of the {top} project{where}; it is not kept in the "
        "project's source tree, so it exists only once its .proto files are compiled.",
        causes.software.protos_compile_fix(package, module, root, installed, windows),
    )


#: TensorFlow's own protoc-generated module (``tensorflow.core.framework.graph_pb2``): Bazel's
#: build generates it from the tree's ``graph.proto``, so a source checkout holds the .proto
#: file and no ``_pb2.py`` (tensorflow/core/framework/BUILD of any release).
_TF_GENERATED = re.compile(r"(?:tensorflow|tensorflow_core)\.[\w.]{1,300}_pb2")
#: The folders right under a TensorFlow checkout's ``tensorflow/``, from 0.x to 2.x
#: (https://github.com/tensorflow/tensorflow/tree/v1.15.0/tensorflow,
#: https://github.com/tensorflow/tensorflow/tree/v2.15.0/tensorflow; ``models`` and
#: ``tensorboard`` of 0.x): a path whose ``tensorflow/`` folder holds none of them is a
#: project folder a user named ``tensorflow`` (``~/tensorflow/train.py``), not the tree.
_TF_TREE_FOLDERS = frozenset(
    (
        "c", "cc", "compiler", "contrib", "core", "dtensor", "examples", "g3doc", "go",
        "java", "js", "lite", "models", "python", "security", "stream_executor",
        "tensorboard", "tools", "tsl", "user_ops",
    )
)  # fmt: skip
#: Those of them that hold .proto files the build generates Python modules from: Python 2
#: names a missing one from the folder without an ``__init__.py`` on (``core.framework.
#: graph_pb2``: the tree's ``tensorflow/core/`` has none, Bazel's runfiles add it).
_TF_PROTO_FOLDERS = frozenset(
    ("compiler", "contrib", "core", "dtensor", "lite", "python", "tensorboard", "tools", "tsl")
)


def tf_source_tree(tb: Traceback, scripts: Sequence[str] = ()) -> Optional[str]:
    """A file under a ``tensorflow/`` folder outside site-packages that the traceback's frames
    or the program a shell line runs (``scripts``) show, where no frame is an installed
    TensorFlow's: the code ran in a TensorFlow source tree, whose ``tensorflow/`` is what
    ``import tensorflow`` finds first. A Bazel build's output (bazel-bin, runfiles) is a built
    tree, not read here, and a ``tensorflow/`` folder holding none of the tree's own folders
    (:data:`_TF_TREE_FOLDERS`) is a user's project. None where nothing shows one."""
    frames = [f.path for f in tb.frames if not f.path.startswith("<")]
    if any(origin_of(p).dist == "tensorflow" and origin_of(p).installed for p in frames):
        return None
    for path in (*frames, *scripts):
        origin = origin_of(path)
        built = tf_installer([path], ()) == "source"
        folder = origin.module.split(".")[1:2]
        if (
            origin.dist == "tensorflow"
            and origin.installed is False
            and not built
            and folder
            and folder[0] in _TF_TREE_FOLDERS
        ):
            return path
    return None


def _tf_generated_missing(tb: Traceback) -> Optional[str]:
    """The generated module of TensorFlow's own that the exception shows missing, as printed:
    Python 3's whole name (``tensorflow.core.framework.graph_pb2``), or Python 2's bare words,
    which name only the part that did not import (``core.framework.graph_pb2``, from one of
    the tree's folders of .proto files, :data:`_TF_PROTO_FOLDERS`: not a project's
    ``protos.x_pb2``, which :func:`uncompiled_protos_findings` reads, nor a bare
    ``predict_pb2``): read only where a source tree of TensorFlow's is shown, the package
    whose part it is."""
    missing = _missing_generated(tb)
    if missing is None:
        return None
    module = missing[1]
    if _TF_GENERATED.fullmatch(module):
        return module
    gone = tb.missing_module
    if gone is None or gone.quoted or module.split(".")[0] not in _TF_PROTO_FOLDERS:
        return None
    return module if distribution_of(module) is None else None


def source_tree_findings(
    tracebacks: Sequence[Traceback], scripts: Sequence[str], m: Machine
) -> list[Finding]:
    """One finding where a program run inside a TensorFlow source tree (:func:`tf_source_tree`)
    misses a generated module of TensorFlow's: the tree's ``tensorflow/`` folder was imported
    instead of the installed package, and it has the .proto files only. TensorFlow 0.x to
    1.x's own guard says it in words ("you should not try to import tensorflow from its
    source directory", read by the signature tf-imported-from-source-tree); before that
    guard runs, or from another import, this is how it shows."""
    for tb in tracebacks:
        tree = tf_source_tree(tb, scripts)
        module = _tf_generated_missing(tb) if tree is not None else None
        if module is None:
            continue
        return [
            causes.finding(
                f"explain.{causes.software.TF_SHADOWED_MODULE}",
                Severity.ERROR,
                causes.software.TF_SHADOWED_MODULE,
                "`import tensorflow` found a TensorFlow source tree, not the installed package",
                f"{tb.where}: {tb.type}: {tb.message}\n{tree} lies in a tensorflow/ folder "
                f"outside site-packages, and {module}, a module TensorFlow's build generates "
                "from its .proto files, is missing: a source tree holds the .proto files only, "
                "so the tensorflow imported is the tree's.",
                causes.software.source_tree_fix(m),
            )
        ]
    return []
