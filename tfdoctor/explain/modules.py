"""Exceptions that name a module of a known distribution (``data/modules.yaml``).

``No module named 'cv2'``: the distribution that provides the module (opencv-python) is not
installed in the Python that ran; a requirement of TensorFlow's is a broken install of
TensorFlow's own. ``module 'ml_dtypes' has no attribute 'int4'`` or ``cannot import name 'X'
from 'ml_dtypes'``: a requirement of TensorFlow's is installed in a release without a name
that its caller uses, i.e. outside the range the caller was written for. The family of the
message decides, never a package's own wording; TensorFlow, Keras, tf-keras, TensorBoard,
NumPy and protobuf have causes of their own elsewhere.
"""

from __future__ import annotations

import dataclasses
import functools
import pkgutil
import re
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.packages import InstallRequest
from tfdoctor.evidence.pyerrors import MissingModule
from tfdoctor.evidence.traceback import (
    Frame,
    Traceback,
    file_owner,
    installed_package,
    library_origins,
    standard_library,
)
from tfdoctor.facts import TF_DISTRIBUTIONS, normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import LAZY_IMPORTS, START_IMPORTS, Machine, applicable_requirements
from tfdoctor.matrix import Pins, spec_contains, version_key
from tfdoctor.modules import RemovedModule, distribution_of, module_added, modules
from tfdoctor.scan.api import bundled_lines, name_releases, tf1_lines
from tfdoctor.scan.knowledge import public_name


def _named_missing(tb: Traceback) -> Optional[tuple[str, str]]:
    """(module, name) of a name the message says a module it names lacks: an attribute
    (``module 'x' has no attribute 'y'``) or a ``from M import X`` (3.7's ``cannot import
    name 'X' from 'M'``), as :mod:`tfdoctor.evidence.pyerrors` reads them; None otherwise."""
    lacks = tb.missing_attribute
    if lacks is not None and lacks.module and lacks.owner:
        return lacks.owner, lacks.name
    asked = tb.missing_name
    if asked is not None and asked.module:
        return asked.module, asked.name
    return None


def namespace_roots() -> frozenset[str]:
    """Namespace packages that several distributions share (google.protobuf beside
    google.api; the module table's ``namespaces``): one of them missing a name of another is
    no sign of a package replaced under a kernel."""
    return modules().namespace_roots


#: Import packages of TensorFlow itself and its Keras: frames there are the callee, and an
#: import of one is the user's own; a call between them is no companion's.
TF_OWN = frozenset({"tensorflow", "tensorflow_core", "keras", "tf_keras", "tensorboard"})
#: TensorFlow's own import packages (tensorflow_core: 2.0 and 2.1's code): a frame there is
#: TensorFlow's code, not a Keras package's of its own release.
TF_PACKAGES = frozenset({"tensorflow", "tensorflow_core"})
#: Distributions whose missing modules and names other readers judge (API knowledge, the
#: TensorFlow, Keras and TensorBoard causes, NumPy's removed names, protobuf's signatures).
_ELSEWHERE = frozenset({"tensorflow", "keras", "tf-keras", "tensorboard", "numpy", "protobuf"})


def module_findings(
    tracebacks: Sequence[Traceback], m: Machine, kernel_installs: Sequence[str] = ()
) -> list[Finding]:
    """One finding per module the exceptions show missing, or missing a name
    (``kernel_installs``: distributions installed from inside the running notebook kernel)."""
    out: dict[str, Finding] = {}
    # The exception that stopped the run: the one explain.dependencies reads a library's
    # release pairing from.
    stopped = [tb for tb in tracebacks if not tb.ignored and not tb.warned]
    last = stopped[-1] if stopped else None
    for tb in tracebacks:
        found = (
            _missing_module(tb, m)
            or _reinstalled_in_kernel(tb, kernel_installs)
            or _missing_name(tb, m, paired=tb is last)
        )
        if found is not None and found.id not in out:
            out[found.id] = found
    return list(out.values())


def tf_requires(m: Machine, dist: str) -> bool:
    """Whether TensorFlow requires ``dist``: its declared range, else the import table."""
    return m.declared_range(dist) is not None or dist in START_IMPORTS or dist in LAZY_IMPORTS


def _missing_module(tb: Traceback, m: Machine) -> Optional[Finding]:
    # Python 3 quotes the whole name; Python 2 prints it bare, and then only the part that did
    # not import, so a bare name is read only where it is one module's, and only as a known
    # distribution's (below); a bare dotted one only where its first part is one.
    gone = tb.missing_module
    if gone is None:
        return None
    module = gone.name
    if not gone.quoted and "." in module:
        module = _python2_top_missing(tb, gone)
        if not module:
            return None
    removed = modules().removed_from_dist.get(module)
    if removed is not None and not removed.names:
        # A module a release of its own distribution removed (setuptools 82's pkg_resources):
        # installing that distribution brings the release without it (dependency-api-removed
        # answers it).
        return None
    backend = _keras_backend_missing(tb, module, m)
    if backend is not None:
        return backend
    dist = distribution_of(module)
    if not gone.quoted and dist is None:
        return None  # Python 2's tail of a dotted import, or a word: not a module known here
    # Only the package itself: a submodule missing from an installed package is about its
    # release (API knowledge), not about the package being absent.
    if dist is None:
        return (
            _unbuilt_part(tb, module, m)
            or _removed_module(tb, module, m)
            or _unlisted_module(tb, module, m)
        )
    if module == "keras":
        return _keras_missing(tb, m)
    if module == "google.protobuf" and _other_requirer(tb, dist) is None:
        return _protobuf_missing(f"{tb.where}: {tb.type}: {tb.message}", m)
    if dist in _ELSEWHERE or module not in modules().dists:
        return None
    said = f"{tb.where}: {tb.type}: {tb.message}"
    return _not_installed(module, dist, said, m, _other_requirer(tb, dist))


def _python2_top_missing(tb: Traceback, gone: MissingModule) -> str:
    """The top-level module Python 2's bare dotted words say did not import (``No module
    named pandas.api.types``: pandas, the part its ``load_next`` failed on), where that part
    is a listed distribution's top-level module outside TensorFlow's family (whose own names
    other readings answer) and the innermost line shown does not import it as another
    package's submodule (``import tensorflow.keras.layers`` prints ``keras.layers``); empty
    otherwise. An installed package too old for the submodule prints the submodule's part
    (``No module named api.types``), never the package's."""
    first = gone.python2_failed
    dist = distribution_of(first)
    if (
        dist is None
        or first not in modules().dists
        or first in modules().family
        or dist in _ELSEWHERE
        or dist in TF_DISTRIBUTIONS
    ):
        return ""
    line = tb.frames[-1].code or "" if tb.frames else ""
    if re.search(rf"\w\.{re.escape(gone.name)}\b", line):
        return ""
    return first


#: A frame of one of Keras 3's backend packages (keras/src/backend/torch/core.py; Keras 3.0
#: kept them under keras/backend/torch/, where Keras 2's keras/backend.py is one module).
_KERAS3_BACKEND_FRAME = re.compile(r"keras[/\\](?:src[/\\])?backend[/\\](?P<backend>\w+)[/\\]")


def keras3_backend_of(path: str) -> Optional[str]:
    """The Keras 3 backend (``torch``, ``jax``) whose package ``path`` lies in; None where it
    is not a file of one."""
    found = _KERAS3_BACKEND_FRAME.search(path)
    backend = found.group("backend") if found is not None else None
    return backend if backend in causes.software.KERAS3_BACKENDS else None


def _keras_backend_missing(tb: Traceback, module: str, m: Machine) -> Optional[Finding]:
    """``No module named 'torch'`` raised inside Keras 3's backend package for that framework:
    KERAS_BACKEND (or keras.json) chose a backend the Python that ran does not have."""
    for frame in reversed(tb.frames):
        backend = keras3_backend_of(frame.path)
        if backend is None:
            continue
        dist = causes.software.KERAS3_BACKENDS[backend]
        if module.split(".", 1)[0] != dist:
            return None
        added = module_added(module)
        if added is not None and causes.platform.WHEEL_MISMATCH not in (
            causes.software.added_module_causes(m, added[1])
        ):
            # A module a later release added (torch._dynamo, torch 2.0) under an older
            # release shown: its age, which the module table's row and its signature read.
            return None
        if module != dist:
            # ``No module named 'torch._C'``: the package imported and its own submodule did
            # not, so the backend is installed, broken or built for another Python.
            return causes.finding(
                f"explain.{causes.platform.WHEEL_MISMATCH}",
                Severity.ERROR,
                causes.platform.WHEEL_MISMATCH,
                f"Keras 3's {backend} backend found {dist} without its module {module}",
                f"{tb.where}: {tb.type}: {tb.message}\nThe frame {frame.path} is Keras 3's "
                f"{backend} backend.",
                causes.platform.backend_module_missing_fix(m, backend, dist, module),
            )
        return causes.finding(
            "explain.package-not-installed",
            Severity.ERROR,
            causes.software.PACKAGE_NOT_INSTALLED,
            f"Keras 3 is set to its {backend} backend, and {dist} is not installed",
            f"{tb.where}: {tb.type}: {tb.message}\nThe frame {frame.path} is Keras 3's "
            f"{backend} backend, which Keras imports when KERAS_BACKEND (or keras.json) names "
            "it.",
            causes.software.keras_backend_missing_fix(m, backend, dist),
        )
    return None


#: An import statement's first package (``from ai_edge_litert.x import Y``: ai_edge_litert).
IMPORT_STATEMENT = re.compile(r"^\s*(?:from|import)\s+(?P<package>[A-Za-z_]\w*)")


def _other_requirer(tb: Traceback, missing: str) -> Optional[str]:
    """The distribution other than TensorFlow's whose import the traceback shows failing (its
    innermost installed frame's, else the package the innermost line imports), or None: a
    TensorFlow frame or import on the way, or nothing that names one."""
    lines = [tb.statement, *tb.importers, *(f.code for f in tb.frames)]
    origins = [o.dist for o in library_origins(tb) if o.dist]
    if any(_THROUGH_TENSORFLOW.search(x) or _IMPORTS_TENSORFLOW.match(x) for x in lines if x):
        return None
    if any(normalize_name(d) in TF_DISTRIBUTIONS for d in origins):
        return None
    others = [d for d in origins if normalize_name(d) != normalize_name(missing)]
    if others:
        return others[0]
    last = tb.frames[-1].code if tb.frames else tb.statement
    match = IMPORT_STATEMENT.match(last or "")
    dist = distribution_of(match.group("package")) if match is not None else None
    if dist is None or normalize_name(dist) in (*TF_DISTRIBUTIONS, normalize_name(missing)):
        return None
    return dist


#: A statement or source line that reaches Keras through TensorFlow (``tf.keras``,
#: ``from tensorflow.keras import ...``, ``import tensorflow_addons``).
_THROUGH_TENSORFLOW = re.compile(
    r"\b(?:tensorflow(?:_\w+)?|tf)\.keras\b|^\s*(?:from|import)\s+tensorflow_\w+"
)
#: An import of TensorFlow itself.
_IMPORTS_TENSORFLOW = re.compile(r"^\s*(?:from\s+tensorflow\b|import\s+tensorflow\b)")
#: The user's own import of the keras package.
_OWN_KERAS = re.compile(r"^\s*(?:from\s+keras(?:\.\w+)*\s+import|import\s+keras\b)")


def _keras_missing(tb: Traceback, m: Machine) -> Optional[Finding]:
    """``No module named 'keras'`` reached through TensorFlow: from 2.6 tf.keras is the keras
    package TensorFlow requires (2.6 to 2.15 Keras 2 of its own line, Keras 3 from 2.16), loaded
    lazily as tf.keras is first used, so an environment without it (conda's tensorflow 2.6.0
    package did not require it; an install with --no-deps) fails only there. The user's own
    ``import keras`` without TensorFlow on the way is no TensorFlow dependency: the keras
    package is not installed in that Python."""
    said = f"{tb.where}: {tb.type}: {tb.message}"
    lines = [tb.statement, *tb.importers, *(f.code for f in tb.frames)]
    through_tf = any(_THROUGH_TENSORFLOW.search(x) for x in lines if x) or any(
        (o.dist or "").startswith("tensorflow") for o in library_origins(tb)
    )
    last = tb.frames[-1].code if tb.frames else tb.statement
    if not through_tf or (last and _OWN_KERAS.match(last)):
        # The code's own `import keras`: the keras package is not in the Python that ran.
        return causes.finding(
            "explain.package-not-installed",
            Severity.ERROR,
            causes.software.PACKAGE_NOT_INSTALLED,
            "keras is not installed in the Python that ran",
            f"{said}\nThe code imports the keras package itself, and the Python that ran has "
            "none (an image or environment may ship TensorFlow, whose tf.keras is importable, "
            "without it).",
            causes.software.keras_match_fix(m),
        )
    tf = m.tf
    if tf is not None and version_key(tf.version)[:2] < (2, 6):
        return None  # before 2.6 tf.keras was TensorFlow's own: not this
    return causes.finding(
        "explain.dependency-missing",
        Severity.ERROR,
        causes.software.DEPENDENCY_MISSING,
        "keras is not installed, though TensorFlow's tf.keras is that package (from 2.6)",
        f"{said}\nFrom TensorFlow 2.6 tf.keras is the separate keras package, which TensorFlow "
        "requires and loads as tf.keras is first used: an environment that left it out (conda's "
        "tensorflow 2.6.0 package, an install with --no-deps) fails there.",
        causes.software.keras_match_fix(m),
    )


def _not_installed(
    module: str, dist: str, said: str, m: Machine, requirer: Optional[str] = None
) -> Finding:
    """The finding for ``dist`` (which provides ``module``) missing from the Python that ran:
    a broken install of TensorFlow's own where TensorFlow requires it, unless the traceback
    shows another library (``requirer``) importing it with TensorFlow nowhere on the way."""
    if requirer is not None and m.tf is None:
        return causes.finding(
            "explain.package-not-installed",
            Severity.ERROR,
            causes.software.PACKAGE_NOT_INSTALLED,
            f"{dist} (module {module}) is not installed in the Python that ran",
            f"{said}\nImporting {requirer} needs {module}, which the distribution {dist} "
            f"provides; no TensorFlow is on the way (that TensorFlow requires {dist} too does "
            "not make it TensorFlow's failure).",
            causes.software.package_install_fix(m, dist, module),
        )
    if tf_requires(m, dist) and m.companion(dist) is None:
        spec = m.declared_range(dist) or ""
        return causes.finding(
            "explain.dependency-missing",
            Severity.ERROR,
            causes.software.DEPENDENCY_MISSING,
            f"{dist} (module {module}) is not installed, though TensorFlow requires it",
            f"{said}\nTensorFlow requires {dist}: an install made with --no-deps, a partial "
            "copy or an uninstall left it out.",
            causes.common.install_fix(
                m, f"Install {dist} in the range TensorFlow declares.", f"{dist}{spec}"
            ),
        )
    return causes.finding(
        "explain.package-not-installed",
        Severity.ERROR,
        causes.software.PACKAGE_NOT_INSTALLED,
        f"{dist} (module {module}) is not installed in the Python that ran",
        f"{said}\nThe module {module} is provided by the distribution {dist}.",
        causes.software.package_install_fix(m, dist, module),
    )


def _protobuf_missing(said: str, m: Machine) -> Finding:
    """``No module named 'google.protobuf'`` on TensorFlow's way: protobuf installs into the
    ``google`` namespace package (no ``google/__init__.py`` of its own), so either it is not
    installed, or a regular package named ``google`` found first on sys.path (a directory with
    an ``__init__.py``) hides the namespace: Python searches no further
    (https://docs.python.org/3/reference/import.html#namespace-packages)."""
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_MISSING}",
        Severity.ERROR,
        causes.software.DEPENDENCY_MISSING,
        "protobuf (module google.protobuf) is not importable, though the code that failed "
        "requires it",
        f"{said}\nprotobuf installs google.protobuf into the shared `google` namespace: it is "
        "not installed in the Python that ran, or a package named google with an __init__.py "
        "of its own (a project folder, a stray directory on sys.path) is found first and hides "
        "the namespace.",
        _stand_in_fix("google", "protobuf", m),
    )


def _namespace_stand_in(said: str, top: str, dist: str, m: Machine) -> Finding:
    """A requirement of TensorFlow's imported as a bare directory: Python's import system says
    "(unknown location)" for a namespace package, a directory without ``__init__.py``
    (https://docs.python.org/3/reference/import.html#namespace-packages). The distribution's
    files are not what was found, so no release of it is at fault."""
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_MISSING}",
        Severity.ERROR,
        causes.software.DEPENDENCY_MISSING,
        f"{dist}'s files are missing: {top} was found as a bare directory",
        f"{said}\n'(unknown location)' means Python found {top} as a directory without "
        f"its package files: a half-done uninstall of {dist}, or a directory named {top} in "
        "the working directory or elsewhere on sys.path, stands in for it.",
        _stand_in_fix(top, dist, m),
    )


def _stand_in_fix(top: str, dist: str, m: Machine) -> Fix:
    """Where Python finds ``top`` (a directory of that name elsewhere on sys.path stands in
    for, or hides, the package ``dist`` installs), then ``dist`` installed again over its
    files (``--force-reinstall``: a plain install sees it installed and does nothing), of
    the release :func:`_reinstall_spec` finds."""
    spec, which = _reinstall_spec(dist, m)
    looks = (f'{m.python_exe} -c "import {top}; print({top}.__path__)"',)
    text = (
        f"The first command prints the directory found for {top}: where it is not in "
        f"site-packages, rename it; else install {dist} again over the broken files"
    )
    if spec is None:
        return Fix(f"{text}: {which}.", (*looks, *m.pip(f"show {dist}")))
    return Fix(
        f"{text}, {which}.",
        (*looks, *m.pip(f'install --force-reinstall --no-deps "{dist}{spec}"')),
    )


#: The requirements TensorFlow's ranges cap, release by release (the matrix's pins:
#: protobuf, NumPy, Keras, tf-keras, ml_dtypes): the newest release may lie outside the
#: range of the TensorFlow installed.
_CAPPED = frozenset(field.name for field in dataclasses.fields(Pins))


def _reinstall_spec(dist: str, m: Machine) -> tuple[Optional[str], str]:
    """The specifier to install ``dist`` again with, and words saying which release: the
    one the log shows installed (pip's "but you have"), where TensorFlow's declared range
    admits it (another package's range does not bar it: the files, not the release, are
    what is broken), else TensorFlow's declared range, else the ranges the packages the log
    shows require of it, else any release of one the matrix does not pin. None where the
    log shows none of these for one it pins: a bare name would pull the newest release,
    which may lie outside the range of the TensorFlow that runs, so the words name the
    release `pip show` prints instead."""
    installed = m.facts.package(dist)
    declared = m.declared_range(dist)
    required = sorted(
        {
            spec
            for package in m.facts.packages or ()
            for _, spec in applicable_requirements(package.requires, m.marker_env, (dist,))
            if spec
        }
    )
    if (
        installed is not None
        and installed.version
        and (declared is None or spec_contains(installed.version, declared) is not False)
    ):
        return f"=={installed.version}", f"of the release installed ({installed.version})"
    if declared:
        return declared, "in the range TensorFlow declares"
    if required:
        return ",".join(required), "in the range the packages the log shows require"
    if normalize_name(dist).replace("-", "_") not in _CAPPED:
        # Not among the requirements whose caps break most often (the matrix's pins): the
        # newest release, as pip would pick.
        return "", "of any release (the log shows no release or range of it)"
    return None, (
        f"of the release installed, which `pip show {dist}` prints (pip install "
        f'--force-reinstall --no-deps "{dist}==<that release>"); the log shows no release '
        "and no TensorFlow whose range would bound it"
    )


def _reinstalled_in_kernel(tb: Traceback, installed: Sequence[str]) -> Optional[Finding]:
    """A name every TensorFlow release has (``tf.name_scope``: the bundled API listings of
    1.9 on) missing from TensorFlow in a log that installed TensorFlow from inside the running
    kernel: no release lacks it, so the module the kernel holds is a mix of the release it
    imported before the install and the files the install put on disk."""
    if not any(d in TF_DISTRIBUTIONS for d in installed) or _shadowed(tb):
        return None
    named = _named_missing(tb)
    if named is None:
        return None
    module, attr = named
    public = public_name(module)
    if public is None or not public.startswith("tf") or not _in_every_release(f"{public}.{attr}"):
        return None
    said = f"{tb.where}: {tb.type}: {tb.message}"
    every = _every_release_words(f"{public}.{attr}")
    return causes.finding(
        f"explain.{causes.notebook.KERNEL_RESTART_NEEDED}",
        Severity.ERROR,
        causes.notebook.KERNEL_RESTART_NEEDED,
        f"TensorFlow lacks {public}.{attr}, which {every} has: the kernel holds the "
        "release an install in the notebook replaced",
        f"{said}\nThe log installs TensorFlow from inside the running kernel; `{public}.{attr}` is "
        f"in {every}, so what lacks it is a kernel mixing the modules it "
        "imported before the install with the other release's files on disk.",
        causes.notebook.restart_fix(causes.notebook.NOTEBOOK_RESTART_MENUS),
    )


def _shadowed(tb: Traceback) -> bool:
    """The name is missing because ``tensorflow`` is not TensorFlow's package: a module of the
    code's own named tensorflow (a frame's ``tensorflow.py``, a ``tensorflow/`` folder outside
    site-packages), or one still importing itself (Python's "partially initialized module")."""
    if tb.circular_import is not None:
        return True
    for frame in tb.frames:
        path = frame.path.replace("\\", "/")
        own = "site-packages/" not in path and "dist-packages/" not in path
        if own and (path.endswith("/tensorflow.py") or "/tensorflow/" in path):
            return True
    return False


def _every_release_words(name: str) -> str:
    """Which releases have ``name``, in words, dated by the earliest source
    (:func:`tfdoctor.scan.api.name_releases`): "every TensorFlow release" only where no known
    release lacks it (``tf.name_scope``), else from the release that brought it (``tf.data``:
    "every TensorFlow release from 1.4 on", from the 1.4.0 release notes)."""
    releases = name_releases(name)
    if not releases.lacking or not releases.first:
        return "every TensorFlow release"
    earlier = "" if releases.dated else " (or earlier)"
    return f"every TensorFlow release from {releases.first}{earlier} on"


def _in_every_release(name: str) -> bool:
    """Whether every TensorFlow line with a bundled API listing (1.9 to the newest line) has
    ``name``, as the one reading of which releases have a name
    (:func:`tfdoctor.scan.api.name_releases`) says."""
    listed = {*tf1_lines(), *bundled_lines()}
    return bool(listed) and listed <= set(name_releases(name).having)


def _held_back_by_tensorflow(tb: Traceback, m: Machine, dist: str, caller: str) -> Optional[str]:
    """The installed package (not TensorFlow's own) that lacks a name of ``dist`` where
    TensorFlow's range on ``dist`` has a cap a later line dropped
    (:data:`tfdoctor.causes.software.UNCAPPED_FROM`), and the installed TensorFlow's declared
    range still caps it or is not known; None otherwise. Only for a dependency that only adds
    names (typing-extensions backports typing's new names and keeps the old ones), so a name
    missing is a release older than the caller's."""
    if dist not in causes.software.UNCAPPED_FROM:
        return None
    spec = m.declared_range(dist)
    if spec is not None and "<" not in spec:
        return None  # the installed TensorFlow's range has no cap: not what holds it back
    if (
        spec is None
        and m.tf is not None
        and version_key(m.tf.version)[:2] >= version_key(causes.software.UNCAPPED_FROM[dist])
    ):
        return None  # its range unknown, but of a line that declares none: the same
    frame = tb.frames[-1] if tb.frames else None
    top = installed_package(frame.path) if frame is not None else None
    user = caller or (distribution_of(top) or top if top else "")
    if not user or normalize_name(user) == dist:
        return None  # the code's own import, or the dependency's own file
    own = normalize_name(user)
    if own in TF_DISTRIBUTIONS or own.startswith(("tensorflow", "tf-", "keras")):
        return None  # TensorFlow's own code: its range is what it runs with
    return user


def _missing_name(tb: Traceback, m: Machine, paired: bool = False) -> Optional[Finding]:
    named = _named_missing(tb)
    if named is None:
        return None
    from_python = _removed_name(tb, m)
    if from_python is not None:
        return from_python
    module, name = named
    dist = distribution_of(module)
    said = f"{tb.where}: {tb.type}: {tb.message}"
    if dist == "protobuf" and "(unknown location)" in tb.message:
        # The import found google.protobuf (or protobuf 4.21's compiled backend, google._upb)
        # as an empty namespace package: protobuf's files are gone (a half-done uninstall, or
        # another package's google/ directory left behind). Installing it again over them
        # (--force-reinstall: a plain install sees it installed and does nothing), of the
        # release the log shows; no bare name, which would pull the newest protobuf.
        spec, which = _reinstall_spec("protobuf", m)
        again = "Install protobuf again over the broken files"
        again_fix = (
            Fix(f"{again}: {which}.", m.pip("show protobuf"))
            if spec is None
            else Fix(
                f"{again}, {which}.",
                m.reinstall(f"protobuf{spec}"),
            )
        )
        return causes.finding(
            "explain.protobuf-incompatible",
            Severity.ERROR,
            causes.software.PROTOBUF_INCOMPATIBLE,
            f"protobuf's files are missing ({module} has no module file)",
            f"{said}\n'(unknown location)' means Python found {module} as a bare "
            "directory: the protobuf install is broken, not of the wrong release.",
            again_fix,
        )
    if dist == "protobuf" and module.startswith("google._upb"):
        # The upb backend (protobuf 4.21 on) without a name the Python code calls: its own
        # module of another release than the code beside it, which the generated-code reading
        # (explain/generated.py) judges from the frames; not a runtime older than the code.
        return None
    if dist == "protobuf" and name in causes.software.PROTOBUF_REMOVED:
        # A name a protobuf release removed (6.30's `service`): the runtime is newer than
        # the code that imports it.
        removed = causes.software.PROTOBUF_REMOVED[name].release
        return causes.finding(
            "explain.protobuf-incompatible",
            Severity.ERROR,
            causes.software.PROTOBUF_INCOMPATIBLE,
            f"The installed protobuf has no {name}: protobuf {removed} removed it",
            f"{said}\nThe code imports {name}, which protobuf releases before {removed} have: "
            "the installed protobuf is newer than the code.",
            causes.software.protobuf_removed_fix(m, name),
        )
    if dist == "protobuf":
        # protobuf adds what generated code calls (`_internal_create_key` in 3.12, `builder` in
        # 3.20, `runtime_version` in 5.27: the `_pb2.py` files of newer protoc use them) and
        # removes little (PROTOBUF_REMOVED, above): another name missing from it is a
        # protobuf older than the generated code that asks.
        return causes.finding(
            "explain.protobuf-incompatible",
            Severity.ERROR,
            causes.software.PROTOBUF_INCOMPATIBLE,
            f"The installed protobuf has no {name}: it is older than the code that imports it",
            f"{said}\nGenerated `_pb2.py` files import what the protobuf release of their "
            "protoc provides; an older protobuf runtime lacks it.",
            causes.software.protobuf_fix(m, too_old=True, missing=name),
        )
    top = module.split(".")[0]
    if (
        tb.ipython
        and tb.frames
        and not tb.handled  # the package caught it: an optional import of its own, not a mix
        and top not in namespace_roots()
        and installed_package(tb.frames[-1].path) == top
    ):
        # A package's own import of its own module's name, in a notebook: its files on disk
        # are of another release than the modules the kernel imported before an install.
        return causes.finding(
            f"explain.{causes.notebook.KERNEL_RESTART_NEEDED}",
            Severity.ERROR,
            causes.notebook.KERNEL_RESTART_NEEDED,
            f"{module.split('.')[0]} fails to import its own {module}.{name}: the kernel holds "
            "modules of the release an install replaced",
            f"{said}\nThe package's own files import each other; one of them missing a name of "
            "another means two releases meet: the kernel imported part of the package before an "
            "install replaced it on disk (a `pip install` in the notebook).",
            causes.notebook.restart_fix(causes.notebook.NOTEBOOK_RESTART_MENUS),
        )
    if dist is None or dist in _ELSEWHERE:
        return None
    if "(unknown location)" in tb.message and top not in namespace_roots() and tf_requires(m, dist):
        return _namespace_stand_in(said, top, dist, m)
    if m.companion(dist) is not None:
        # A companion without a name its caller uses: a release of it that does not go with
        # the code and the TensorFlow around it.
        return causes.finding(
            f"explain.{causes.software.COMPANION_MISMATCH}",
            Severity.ERROR,
            causes.software.COMPANION_MISMATCH,
            f"The installed {dist} has no {name}: another release than the code expects",
            f"{said}\n{dist} releases go with particular TensorFlow releases; the installed "
            f"one lacks {module}.{name}.",
            causes.software.companion_fix(m, dist),
        )
    if not tf_requires(m, dist):
        return None  # a package TensorFlow does not pin: the caller's own version choice
    caller = next((o.dist for o in library_origins(tb) if o.dist != dist), "")
    held = _held_back_by_tensorflow(tb, m, dist, caller)
    if held is not None:
        return causes.finding(
            f"explain.{causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE}",
            Severity.ERROR,
            causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE,
            f"{held} needs a newer {dist} than the installed one (it has no {name}); "
            f"TensorFlow's range can cap {dist} before {causes.software.UNCAPPED_FROM[dist]}",
            f"{said}\n{held} imports {module}.{name}, which the installed {dist} does not have "
            f"yet ({dist} only adds names): {held} was written for a newer {dist}, and "
            f"TensorFlow's declared range on {dist} stops below it in some releases before "
            f"{causes.software.UNCAPPED_FROM[dist]}, which keep it back.",
            causes.software.tf_pin_conflict_fix(m, dist, held),
        )
    if paired and _library_asked(tb, module.split(".")[0]) and _pairing_read(tb, m):
        # A library outside TensorFlow's family asked for the name: its own release and the
        # dependency's are what the frames show (dependency_caller_findings reads them, from
        # the exception that stopped the run, ``paired``), not the range TensorFlow declares,
        # which the log does not show in play.
        return None
    who = caller or "the code"
    said += (
        f"\n{who} uses {module}.{name}, which the installed "
        f"{dist} does not have: it is not the {dist} release {who} was written for."
    )
    fix = causes.common.range_fix(m, dist)
    if fix is None:
        tf = m.tf_name or "tensorflow"
        pinned = f"{tf}=={m.tf.version}" if m.tf is not None else tf
        # pip keeps an installed requirement it is asked for and resolves its dependencies
        # again: those outside the ranges TensorFlow declares are replaced, nothing else moves.
        # The module the traceback names beside the distribution pip knows, where they differ
        # (ml_dtypes is ml-dtypes, absl is absl-py): the reader sees the one, pip lists the other.
        top = module.split(".")[0]
        aside = f" ({dist} is the distribution of the `{top}` module)" if top != dist else ""
        fix = Fix(
            f"Install the {dist} release TensorFlow declares{aside}: asking pip for the installed "
            f"TensorFlow again moves {dist} into its declared range (`pip check` shows the "
            "range and whether the installed one is outside it).",
            (*m.pip("check"), *m.pip_install(pinned)),
        )
    return causes.finding(
        "explain.dependency-out-of-range",
        Severity.ERROR,
        causes.software.DEPENDENCY_OUT_OF_RANGE,
        f"The installed {dist} has no {name} ({who} expects another {dist} release)",
        said,
        fix,
    )


def _pairing_read(tb: Traceback, m: Machine) -> bool:
    """Whether explain.dependencies reads ``tb`` as a library's release pairing: where it does
    not (a traceback it leaves to another reading), TensorFlow's range is the one shown."""
    from tfdoctor.explain.dependencies import dependency_caller_findings  # noqa: PLC0415 - cycle

    return bool(dependency_caller_findings([tb], m))


def _library_asked(tb: Traceback, top: str) -> bool:
    """Whether the innermost frame outside the import package ``top``'s own is an installed
    library's outside TensorFlow's family (jax asking ml_dtypes for a dtype): the user's own
    code, or TensorFlow's, is not."""
    for frame in reversed(tb.frames):
        package = installed_package(frame.path)
        if package == top:
            continue
        return package is not None and package not in modules().family
    return False


def requested_findings(requests: Sequence[tuple[str, InstallRequest]], m: Machine) -> list[Finding]:
    """One finding per package a program said must be installed (``requests``: each with where
    it is), where the name is a module or distribution the table knows and the log does not
    show it installed. The program's own words decide, not its wording: Rasa's "install the
    package(s) that contain the module(s)", "You must install X", "X is not installed"."""
    out: dict[str, Finding] = {}
    for where, request in requests:
        resolved = _requested_dist(request.name)
        if resolved is None:
            continue
        module, dist = resolved
        if dist in _ELSEWHERE or m.facts.package(dist) is not None:
            continue
        said = f"{where}: {request.line}\nThe program asks for {request.name}."
        found = _not_installed(module, dist, said, m)
        out.setdefault(found.id, found)
    return list(out.values())


def _requested_dist(name: str) -> Optional[tuple[str, str]]:
    """The module and distribution a printed package name stands for: an import name
    (``tensorflow_text``) or a distribution's own (``tensorflow-text``), or None."""
    table = modules()
    if name in table.dists:
        return name, table.dists[name]
    wanted = normalize_name(name)
    module = table.module_of(wanted)
    return (module, wanted) if module is not None else None


@functools.cache
def stdlib_modules() -> frozenset[str]:
    """Modules of Python's standard library: ``sys.stdlib_module_names`` (Python 3.10+), else
    what the running Python's standard library directories hold. Missing from an
    interpreter, they are no package to install (what a Python of another release lacks is a
    cause of its own)."""
    names = getattr(sys, "stdlib_module_names", None)
    if names:
        return frozenset(names)
    paths = sysconfig.get_paths()
    dirs = [paths["stdlib"], str(Path(paths["platstdlib"]) / "lib-dynload")]
    found = {m.name for m in pkgutil.iter_modules(dirs)}
    return frozenset(found | set(sys.builtin_module_names))


def _unlisted_module(tb: Traceback, module: str, m: Machine) -> Optional[Finding]:
    """``No module named 'X'`` for a top-level module no listed distribution installs: a
    package not installed in the Python that ran, whichever it is (or the user's own module
    off the path). A warning: which distribution provides X is not known, only likely."""
    if "." in module:
        return _partly_installed(tb, module)
    if (
        module.startswith("_")
        or module in stdlib_modules()
        or module in modules().removed
        or tb.name not in ("ModuleNotFoundError", "ImportError")
    ):
        return None
    return causes.finding(
        "explain.package-not-installed",
        Severity.WARNING,
        causes.software.PACKAGE_NOT_INSTALLED,
        f"The module {module} is not installed in the Python that ran",
        f"{tb.where}: {tb.type}: {tb.message}\nNo distribution tfdoctor knows installs "
        f"{module}: the one that does is not installed here, or {module} is a module of the "
        "code's own project that is not on the path.",
        causes.software.unlisted_module_fix(module),
    )


def _partly_installed(tb: Traceback, module: str) -> Optional[Finding]:
    """``No module named 'pkg.sub'`` for a package no listed distribution installs: Python 3
    names the first part of a dotted import it could not find (importlib._bootstrap's
    _find_and_load_unlocked), so ``pkg`` itself imported and lacks ``sub``: a package whose
    install stopped or was never run to its end (a clone whose install step failed), or a
    folder of that name on the path. A warning: which of them, the log does not say."""
    top = module.split(".", 1)[0]
    if (
        top.startswith("_")
        or top in stdlib_modules()
        or top in modules().dists
        or top in modules().removed
        or tb.name not in ("ModuleNotFoundError", "ImportError")
    ):
        return None
    return causes.finding(
        "explain.package-not-installed",
        Severity.WARNING,
        causes.software.PACKAGE_NOT_INSTALLED,
        f"The package {top} imported without its module {module}: installed only partly",
        f"{tb.where}: {tb.type}: {tb.message}\nPython found a package {top} but no {module} "
        f"in it: the install of {top} did not finish (its install step stopped or was not "
        f"run), or a folder named {top} on the path is not that package.",
        causes.software.partial_install_fix(top, module, modules().install_steps.get(top)),
    )


_SYSTEM_PYTHON = re.compile(r"/usr/lib/python3(?:\.\d+)?/")
#: Frames that show setuptools' own copy of distutils in use (pip's isolated build
#: environment, which installs setuptools and its distutils-precedence.pth; the copy or its
#: import hook): a name missing there is setuptools' (its copy dropped distutils.msvccompiler
#: in 74.0), never Debian's split.
_SETUPTOOLS_DISTUTILS = re.compile(r"/pip-build-env-|/setuptools/_distutils/|/_distutils_hack/")
#: The interpreter's release an installed path names (lib/python3.6/; Windows' Lib\ names none).
_PATH_PYTHON = re.compile(r"/(?:lib|lib64)/python(?P<version>3\.\d+)/")


def _frames_python(tb: Traceback) -> str:
    """The Python release the traceback's paths name (``lib/python3.8/``), if one alone."""
    found = {
        match.group("version")
        for f in tb.frames
        for match in [_PATH_PYTHON.search(f.path.replace("\\", "/"))]
        if match is not None
    }
    return found.pop() if len(found) == 1 else ""


def _distro_part(tb: Traceback, module: str, removed_in: str, m: Machine) -> Optional[Finding]:
    """``No module named`` for distutils or lib2to3 where the evidence shows a Python that
    still has it in its release: the distribution's package that holds it is missing.
    Evidence, in order: the log's Python (or the frames' ``lib/python3.X/``) before the
    release that removed it; the system Python's own directory (``/usr/lib/python3``); for
    distutils, a submodule missing (``distutils.util``), which only Debian's split leaves
    (its stdlib keeps ``distutils/__init__.py``; a Python without distutils says
    ``No module named 'distutils'``)."""
    top = module.split(".", maxsplit=1)[0]
    if top not in causes.platform.DISTRO_PARTS:
        return None
    paths = [f.path.replace("\\", "/") for f in tb.frames]
    if top == "distutils" and any(_SETUPTOOLS_DISTUTILS.search(p) for p in paths):
        return None  # setuptools' copy is the distutils imported: not the distribution's
    python = m.python_version or _frames_python(tb)
    if python and version_key(python)[:2] >= version_key(removed_in)[:2]:
        return None  # a Python that removed it: not the distribution's package
    system = any(_SYSTEM_PYTHON.search(p) for p in paths)
    submodule = top == "distutils" and module != top
    if not (python or system or submodule):
        return None
    said = f"{tb.where}: {tb.type}: {tb.message}"
    why = (
        f"Python {python} still has {top} in its release"
        if python
        else "the system Python's own directory (/usr/lib/python3) raised it"
        if system
        else f"{top}'s package is there and its submodule {module} is not, which only "
        f"Debian's split leaves (a Python {removed_in} or later, without {top}, names "
        f"'{top}' itself)"
    )
    return causes.finding(
        f"explain.{causes.platform.DISTRO_PYTHON_PART_MISSING}",
        Severity.ERROR,
        causes.platform.DISTRO_PYTHON_PART_MISSING,
        f"The distribution's Python lacks its {top} package (Debian and Ubuntu ship it apart)",
        f"{said}\nDebian and Ubuntu package the system Python's {top} apart from it (until "
        f"Python {removed_in}, which removed it): {why}.",
        causes.platform.distro_part_fix(top, python),
    )


#: A Python pyenv built (``~/.pyenv/versions/3.10.5/``): its full release, which the command
#: that builds it again names. pyenv-win installs python.org's builds, which lack no part.
_PYENV_PYTHON = re.compile(r"/\.pyenv/versions/(?P<version>\d+\.\d+\.\d+)/")


def _unbuilt_part(tb: Traceback, module: str, m: Machine) -> Optional[Finding]:
    """``No module named '_lzma'`` (a compiled module of the standard library,
    :data:`causes.platform.BUILT_PARTS`) outside Windows: a Python built from source without
    the library that module links. Distributions', python.org's and conda's builds have them
    all (a system Python's frames, ``/usr/lib/python3``, are left alone); Windows' installers
    ship them too, so a Windows path is left to other readings."""
    if module not in causes.platform.BUILT_PARTS or tb.name not in (
        "ModuleNotFoundError",
        "ImportError",
    ):
        return None
    paths = [f.path.replace("\\", "/") for f in tb.frames]
    if m.os == "windows" or any(re.match(r"^[A-Za-z]:/", p) for p in paths):
        return None
    if any(_SYSTEM_PYTHON.search(p) for p in paths):
        # The distribution's own Python has these modules in its standard library package:
        # one missing there is a damaged install, which rebuilding nothing mends.
        return None
    pyenv = next((x.group("version") for p in paths for x in [_PYENV_PYTHON.search(p)] if x), "")
    python = pyenv or m.python_version or _frames_python(tb)
    said = f"{tb.where}: {tb.type}: {tb.message}"
    return causes.finding(
        f"explain.{causes.platform.DISTRO_PYTHON_PART_MISSING}",
        Severity.ERROR,
        causes.platform.DISTRO_PYTHON_PART_MISSING,
        f"This Python{f' {python}' if python else ''} was built without its {module} module",
        f"{said}\n{module} is a compiled module of the standard library that every "
        "distribution's, python.org's and conda's Python has; a Python built from source "
        "(pyenv, asdf, `make install`) leaves it out where the library it links was not there "
        "when it was built.",
        causes.platform.unbuilt_part_fix(
            (module,), m.os or "", f"pyenv install --force {pyenv}" if pyenv else ""
        ),
        ("https://devguide.python.org/getting-started/setup-building/#install-dependencies",),
    )


def _removed_module(tb: Traceback, module: str, m: Machine) -> Optional[Finding]:
    """``No module named 'X'`` for a standard module a Python release removed (distutils,
    imp, PEP 594's modules, Python 2's names), imported by a package release or code older
    than the interpreter. Where the log shows a Python that still has it, only Debian's
    split-out distutils and lib2to3 are a cause (:func:`_distro_part`)."""
    top = module.split(".", maxsplit=1)[0]
    gone = modules().removed.get(top)
    if gone is None or tb.name not in ("ModuleNotFoundError", "ImportError"):
        return None
    if top != module and not gone.package:
        return None  # a submodule of a single-file module: the project's own package
    split = _distro_part(tb, module, gone.removed_in, m)
    if split is not None:
        return split
    if gone.kept_by(m.python_version):
        return None  # the Python the log shows still has it: not this
    return _removed_from_python(tb, top, "", gone, m)


def _removed_name(tb: Traceback, m: Machine) -> Optional[Finding]:
    """``module 'collections' has no attribute 'Mapping'`` (or ``cannot import name 'Mapping'
    from 'collections'``) for a name a Python release removed from a standard module that
    stays (the module table's ``removed_from_python`` rows with ``names``: collections' ABC
    aliases in 3.10, inspect.getargspec in 3.11): code written for an older Python. A name
    not listed (``collections.OrderedDict``, ``collections.abc``) is not this; nor a Python
    the log (or the frames' ``lib/python3.X/``) shows still having it."""
    lacks = tb.missing_attribute
    asked = tb.missing_name
    if lacks is not None and lacks.kind == "module" and not lacks.partial:
        module, name = lacks.owner, lacks.name
    elif asked is not None and asked.module:
        module, name = asked.module, asked.name
    else:
        return None
    gone = modules().removed_names.get(f"{module}.{name}")
    if gone is None:
        return None
    if gone.kept_by(m.python_version or _frames_python(tb)):
        return None  # a Python that still has it: the name is missing for another reason
    return _removed_from_python(tb, module, name, gone, m)


def _removed_from_python(
    tb: Traceback, module: str, name: str, gone: RemovedModule, m: Machine
) -> Finding:
    """The finding of code that imports ``module`` (or uses its ``name``), which Python
    ``gone.removed_in`` removed: whose code asked decides it. The innermost frame that is not
    Python's own (its import machinery, its standard library) asked: TensorFlow's own files
    are a release not built for this Python; an installed package's, a release of it that
    predates the Python (its distribution as the module table or its egg names it, never a
    name made up from the directory); the user's own code is told the replacement."""
    said = f"{tb.where}: {tb.type}: {tb.message}"
    python = m.python_version
    frames = [f for f in tb.frames if not f.path.startswith("<") and not standard_library(f.path)]
    path = frames[-1].path if frames else ""
    owner = file_owner(path)
    who, dist = owner.who, bool(owner.dist)
    reached = _import_reached(frames, module) if not who and not owner.tensorflow else None
    if reached is not None:
        who, dist = reached, True
    what = f"{module}.{name}" if name else module
    uses = f"uses {what}" if name else f"imports {module}"
    use = f"use {what}" if name else f"import {module}"  # the verb of a plural subject
    if owner.tensorflow:
        return causes.finding(
            f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
            Severity.ERROR,
            causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
            f"TensorFlow's own files {use}, which Python {gone.removed_in} removed: the "
            "installed release predates this Python",
            f"{said}\nPython {gone.removed_in} removed {what}; TensorFlow releases built for "
            "that Python no longer use it.",
            causes.platform.release_newer_python_fix(m, what, gone.removed_in),
        )
    # The module table's row of this distribution's use, where it has one: its first release
    # without it (check reads the same row from the installed versions).
    row = modules().python_removal_user(who, module, name) if who else None
    fixed_in = row.fixed_in if row is not None else ""
    return causes.finding(
        f"explain.{causes.platform.PYTHON_REMOVED_MODULE}",
        Severity.ERROR,
        causes.platform.PYTHON_REMOVED_MODULE,
        f"{who or 'The code'} {uses}, which Python {gone.removed_in} removed"
        + (f" (this is Python {python})" if python else ""),
        f"{said}\nPython {gone.removed_in} removed "
        + (f"{what} from the standard module {module}" if name else f"the standard module {module}")
        + ": "
        + (f"the installed {who}" if who else "the code")
        + f" was written for an older Python. In its place: {gone.replacement(name)}.",
        causes.platform.removed_module_fix(
            m,
            module,
            gone.removed_in,
            gone.replacement(name),
            who,
            dist,
            name,
            building=owner.building,
            fixed_in=fixed_in if dist else "",
        ),
    )


def _import_reached(frames: Sequence[Frame], module: str) -> Optional[str]:
    """The installed distribution whose import the innermost frame shown runs, where that
    frame imports another package than ``module`` (``from tensorboard.main import
    run_main`` in a console script): the frames between it and the failing import were cut
    from the paste, and the code that asked ``module`` is that distribution's or one it
    imports. None where the frame imports nothing, imports ``module`` itself, or imports a
    package the module table does not know to be installed (the project's own) or
    TensorFlow (its own release is another reading)."""
    if not frames:
        return None
    found = IMPORT_STATEMENT.match(frames[-1].code)
    top = found.group("package") if found is not None else ""
    if not top or top == module.split(".", 1)[0]:
        return None
    # The module table names no standard module's distribution: a standard import is none.
    dist = distribution_of(top)
    if dist is None or normalize_name(dist) in TF_DISTRIBUTIONS:
        return None
    return dist
