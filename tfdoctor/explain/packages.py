"""What explain concludes from the packages a log names: pip's conflict reports, companions'
import-time checks, NumPy's refusal of an extension built for another NumPy, a library using a
NumPy name NumPy removed, a package missing a name in TensorFlow's private modules, Keras 2's
module layout asked of Keras 3, and Keras 3 refusing an object of a library written for Keras 2.

Each verdict names a cause of the catalogue and takes its fix from the catalogue's builders,
applied to the machine the log shows (the versions pip printed are facts it observed:
:func:`log_packages` adds them to the log's facts before the machine view is built).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, Optional

from tfdoctor import causes
from tfdoctor.causes import observed
from tfdoctor.compat import first_keras3_line, keras3_serves_tf_keras
from tfdoctor.evidence.conda import CondaRow
from tfdoctor.evidence.packages import (
    CondaMissingRelease,
    CondaPythonConflict,
    Conflict,
    ImportCheck,
    NumpyBuild,
    library_verdict,
)
from tfdoctor.evidence.pip import Collected, PipRefusal, PythonRefusal, SourceBuild
from tfdoctor.evidence.pyerrors import MissingAttribute, NameAsked, name_asked
from tfdoctor.evidence.refusals import (
    ATTRIBUTE,
    KEYWORD,
    PYTHON,
    Refusal,
    call_passed_through,
    read_refusal,
    tf_object_class,
)
from tfdoctor.evidence.traceback import (
    CYTHON_INIT,
    Frame,
    PackageCode,
    Traceback,
    checkout_of,
    code_package,
    egg_release,
    entered_package,
    failing_package,
    failures,
    imported_package,
    installed_namespaced,
    installed_package,
    keras_own_missing,
    library_dist,
    library_origins,
    numpy_refuser,
    origin_of,
    own_module_missing,
    statement_package,
    tensorflow_facing,
    tree_holding,
    users_own,
)
from tfdoctor.explain.dependencies import dependency_caller_findings
from tfdoctor.explain.generated import (
    generated_code_findings,
    source_tree_findings,
    uncompiled_protos_findings,
)
from tfdoctor.explain.keras_versions import (
    keras_argument_findings,
    keras_get_updates_findings,
    keras_listed_findings,
    keras_tensor_attribute_findings,
    keras_tensorflow_findings,
    keras_training_argument_findings,
)
from tfdoctor.explain.modules import IMPORT_STATEMENT, TF_OWN, module_findings, tf_requires
from tfdoctor.facts import TENSORBOARD_DISTRIBUTIONS, TF_DISTRIBUTIONS, PackageFacts, normalize_name
from tfdoctor.findings import Finding, Fix, Severity, keep_weightier
from tfdoctor.keras_api import ArgumentAdded, keras_api
from tfdoctor.machine import FRAMEWORKS_PINNING_CUDA, Machine
from tfdoctor.matrix import (
    PIN_FIELDS,
    TFLine,
    admits_below,
    exact_pin,
    ranges_meet,
    spec_contains,
    version_key,
)
from tfdoctor.modules import RemovedApi, StaleBuildScript, distribution_of, modules
from tfdoctor.records import Record, record
from tfdoctor.scan.api import (
    KWARGS_MARK,
    LAST_KERAS2,
    KeywordReleases,
    NameReleases,
    bundled_lines,
    keyword_releases,
    load_api,
    parameters_of,
    release_has,
)
from tfdoctor.wheel_index import python_span, releases_of

if TYPE_CHECKING:
    from tfdoctor.scan.rules import Rules


class Keras2Library(NamedTuple):
    """A library whose layers and models are Keras 2 objects (tf.keras before 2.16, or
    tf-keras), which Keras 3 refuses."""

    #: Its distribution's name on PyPI.
    dist: str
    #: Where the fact is stated.
    source: str
    #: Where its Keras code lies inside the package, as frames name its files (a regular
    #: expression after the top-level directory); the rest of the package is TensorFlow's,
    #: whatever Keras runs (hub.load). None where the whole package is Keras code.
    keras_files: Optional[str] = None


#: The libraries written for Keras 2, by top-level import package.
KERAS2_LIBRARIES: dict[str, Keras2Library] = {
    # tf_keras is Keras 2 whole; its frames beside Keras 3's are two Kerases in one program,
    # another cause than Keras 2 code on Keras 3.
    "tf_keras": Keras2Library("tf-keras", "https://github.com/keras-team/tf-keras"),
    # hub.KerasLayer subclasses tf_keras.layers.Layer where tf.keras is Keras 3.
    "tensorflow_hub": Keras2Library(
        "tensorflow-hub",
        "https://github.com/tensorflow/hub/blob/v0.16.1/tensorflow_hub/keras_layer.py",
        r"keras_layer\.py",
    ),
    # tfp.layers need tf-keras from TFP 0.24 (TensorFlow 2.16), the release notes say.
    "tensorflow_probability": Keras2Library(
        "tensorflow-probability",
        "https://github.com/tensorflow/probability/releases/tag/v0.24.0",
        r"python[/\\]layers[/\\]",
    ),
    # Addons ended before Keras 3; its last release supports TensorFlow below 2.16.
    "tensorflow_addons": Keras2Library(
        "tensorflow-addons",
        "https://github.com/tensorflow/addons",
        r"(?:layers|optimizers|losses|metrics|callbacks|rnn)[/\\]",
    ),
}

# Keras 3 names its classes `keras.Layer`, `keras.Model` in its messages; Keras 2 said
# "instance of class Layer" (keras-team/keras v3.0.0, src/models/sequential.py).
_KERAS3_WORDS = re.compile(
    r"`keras\.(?:Layer|Model|layers\.Layer|KerasTensor)`|\bKeras 3\b"
    # The same refusal retyped without its backticks.
    r"|Only instances of keras\.(?:Layer|Model)\b"
)
# An object or class a message prints: `<tensorflow_hub.keras_layer.KerasLayer object at
# 0x7f...>`, `<class 'tensorflow_hub.keras_layer.KerasLayer'>`.
_PRINTED = re.compile(
    r"<class '(?P<cls>[\w.]+)'>|<(?P<obj>[A-Za-z_][\w.]*) object at 0x[0-9a-fA-F]+>"
)
# Keras 3's refusal of an object that is none of its own ("Only instances of `keras.Layer` can
# be added to a Sequential model. Received: ..."), when the words that would name the object
# are not in the log (a paste cut inside the traceback).
_UNNAMED_REFUSAL = re.compile(r"Only instances of `?keras\.(?:Layer|Model)\b")


def log_packages(
    conflicts: Sequence[Conflict], checks: Sequence[ImportCheck]
) -> list[PackageFacts]:
    """The distributions pip or a companion said are installed, with the requirement pip
    quoted (``tensorflow-io 0.14.0`` requiring ``tensorflow<2.3.0,>=2.2.0``; TensorFlow 2.3.0)."""
    out: dict[str, PackageFacts] = {}
    for c in conflicts:
        if c.kind in ("requested", "asked"):
            continue  # pip installed nothing: no version is known to be there
        if c.kind == "installed" and c.target not in out:
            out[c.target] = PackageFacts(c.target, c.have, "")
        if not c.requirer or (c.kind == "between" and c.requirer not in TF_DISTRIBUTIONS):
            # A range check that does not name its package; two other packages a resolver
            # weighed (it installed neither).
            continue
        known = out.get(c.requirer)
        requires = (*(known.requires if known else ()), f"{c.target}{c.spec}")
        out[c.requirer] = PackageFacts(c.requirer, c.requirer_version, "", requires)
    for check in checks:
        if check.found and not any(name in out for name in TF_DISTRIBUTIONS):
            out["tensorflow"] = PackageFacts("tensorflow", check.found, "")
    return list(out.values())


def package_findings(
    conflicts: Sequence[Conflict],
    checks: Sequence[ImportCheck],
    tracebacks: Sequence[Traceback],
    m: Machine,
    numpy_builds: Sequence[NumpyBuild] = (),
    source_builds: Sequence[SourceBuild] = (),
    python_refusals: Sequence[PythonRefusal] = (),
    modules: Sequence[tuple[str, str]] = (),
    conda_conflicts: Sequence[CondaPythonConflict] = (),
    kernel_installs: Sequence[str] = (),
    conda_missing: Sequence[CondaMissingRelease] = (),
    frozen: bool = False,
    listed: Optional[Mapping[str, str]] = None,
    signed: Collection[str] = (),
    shown: Optional[Mapping[str, str]] = None,
    crashed: bool = False,
    logged: Optional[Mapping[str, str]] = None,
    conda_rows: Sequence[CondaRow] = (),
    scripts: Sequence[str] = (),
    legacy_keras: bool = False,
    loose: Sequence[Frame] = (),
) -> list[Finding]:
    """One finding per cause the packages show, in order of appearance (``modules``: the
    modules the log prints as objects, with the file each came from; ``kernel_installs``: the
    distributions installed from inside a running notebook kernel; ``frozen``: the log shows
    a program frozen by PyInstaller; ``listed``: the versions a package listing in the log
    gives; ``signed``: the lines signatures read as a cause, which the generic readings of an
    exception leave to them; ``crashed``: the log shows a process ending without a traceback,
    a failure as an exception is; ``logged``: the log's words for the work done after each
    exception the run went on after, by the exception's place, :meth:`Traceback.where`;
    ``conda_rows``: the rows a pasted ``conda list`` shows; ``scripts``: the program files
    its shell lines run Python on; ``legacy_keras``: the log shows TF_USE_LEGACY_KERAS set to a
    value TensorFlow takes; ``loose``: frames the log shows outside any traceback read, a paste
    that starts inside one and stops before its exception)."""
    out: dict[str, Finding] = {}
    # Where TensorFlow's own range on a name is one side of the clash, two other packages'
    # ranges on it are left to that reading (one finding per clash, TensorFlow's first).
    tf_clashes = {
        c.target
        for c in conflicts
        if c.kind == "between"
        and c.requirer in TF_DISTRIBUTIONS
        and _meeting(c.spec, c.have) is None
    }
    conflicts_read = [
        c
        for c in _kept_first(conflicts, m)
        if not (c.kind == "between" and c.requirer not in TF_DISTRIBUTIONS)
        or c.target not in tf_clashes
    ]
    for finding in (
        # uv's and Poetry's come after the readings of their own hints
        # (resolver_python_findings).
        *(_python_refusal(x, m) for x in python_refusals if x.dist and x.installer == "pip"),
        *(_conda_python(x, m) for x in conda_conflicts),
        *(_conda_missing(x, m) for x in conda_missing),
        *(_source_build(b, m) for b in source_builds),
        *(
            _conflict(
                c,
                m,
                _legacy_keras_used(tracebacks),
                _pair_weight(c, tracebacks),
                notice_alone=not tracebacks and not crashed,
                untouched=not crashed and not _goes_through(c, tracebacks, named=True),
            )
            for c in conflicts_read
        ),
        *(_import_check(c, m) for c in checks if not _warned_and_since_paired(c, m)),
        *library_verdict_findings(tracebacks, checks, m, signed),
        _side_by_side(conflicts, m),
        listed_side_by_side(listed or {}, m),
        _listed_kerases(listed or {}, m),
        *(_companions_off_table(m) if _tf_listed_as_shown(listed or {}, m) else ()),
        *_companions_off_keras(m),
        *(_keras2_object(tb, m) for tb in tracebacks),
        *(f for tb in tracebacks for f in _foreign_layer_findings(tb, m, legacy_keras)),
        keras2_code_on_keras3(tracebacks, loose, m),
        *(_keras_stacks(tb, m) for tb in tracebacks),
        *(_saved_config(tb, m) for tb in tracebacks),
        *(_keras3_model_private(tb, m) for tb in tracebacks),
        *(_graph_op_unknown(tb, m) for tb in tracebacks),
        *(_numpy_struct_size(tb, m) for tb in tracebacks),
        *(_keras_tree_mixed(tb, m) for tb in tracebacks),
        *numpy_removed_findings(tracebacks, m, shown),
        *removed_api_findings(tracebacks, m, {**(shown or {}), **(listed or {})}, signed, loose),
        *other_python_findings(tracebacks),
        *incomplete_install_findings(tracebacks, m, frozen),
        *h5py_str_findings(tracebacks, m),
        *shadowed_module_findings(tracebacks),
        *foreign_caller_findings(tracebacks, m, logged),
        *keras_caller_findings(tracebacks, m),
        *undefined_keras_name_findings(tracebacks, m),
        *op_library_fallback_findings(tracebacks, m),
        *object_field_findings(tracebacks, m, logged),
        *class_field_findings(tracebacks, m),
        *dependency_caller_findings(tracebacks, m, signed),
        *private_api_findings(tracebacks, m, modules),
        *keras2_layout_findings(tracebacks, m),
        # After the readings that name the library or the private name: what Keras' own
        # frames show of its release.
        *keras_tensorflow_findings(tracebacks, m),
        *keras_argument_findings(tracebacks, m),
        *keras_listed_findings(tracebacks, m),
        *keras_tensor_attribute_findings(tracebacks, m),
        *keras_get_updates_findings(tracebacks, m),
        *keras_training_argument_findings(tracebacks, m),
        *(_numpy_build(b, m, numpy_extension_package(tracebacks)) for b in numpy_builds),
        *source_tree_findings(tracebacks, scripts, m),
        *uncompiled_protos_findings(tracebacks),
        *module_findings(tracebacks, m, kernel_installs),
        *generated_code_findings(tracebacks, m, conda_rows),
    ):
        if finding is None:
            continue
        # TensorFlow's own requirement after another pair's note of one id takes its place.
        keep_weightier(out, finding)
    return list(out.values())


def _side_by_side(conflicts: Sequence[Conflict], m: Machine) -> Optional[Finding]:
    """Two or more TensorFlow distributions that pip's conflict lines show installed, each
    declaring its own requirements (``tensorflow-gpu 2.2.0 requires ...``, ``tf-nightly 2.6.0
    requires ...``): they write the same ``tensorflow/`` package, and the import mixes their
    files. The platform builds the ``tensorflow`` package itself requires (the matrix's
    wrappers: tensorflow-intel on Windows, tensorflow-cpu-aws, tensorflow-macos) are one
    installation with it, not a second."""
    if m.matrix is None:
        return None
    return distributions_finding(
        _installed_side_by_side(conflicts, m),
        m,
        "pip's conflict lines name each as installed with its own requirements: they write the "
        "same `tensorflow/` package, so the import runs a mix of their files.",
    )


def _installed_side_by_side(conflicts: Sequence[Conflict], m: Machine) -> dict[str, str]:
    """The TensorFlow distributions pip's conflict lines name as installed, each with its own
    requirements (name to version; the matrix's wrappers left out, as one installation with
    the ``tensorflow`` that requires them)."""
    wrappers = m.matrix.wrapper_platforms() if m.matrix is not None else ()
    seen: dict[str, str] = {}
    for c in conflicts:
        name = normalize_name(c.requirer)
        if c.kind != "installed" or name not in TF_DISTRIBUTIONS or name in wrappers:
            continue
        seen.setdefault(name, c.requirer_version)
    return seen


def _kept_first(conflicts: Sequence[Conflict], m: Machine) -> list[Conflict]:
    """``conflicts`` with those of TensorFlow distributions the fix of several side by side
    removes after the one it keeps (:func:`kept_distribution`): the one finding per cause is
    the first, and a range of a TensorFlow the fix uninstalls is not the one to install (pip's
    gast==0.3.3 of tensorflow-gpu 2.2.0 beside tensorflow 2.5.0's gast==0.4.0)."""
    seen = _installed_side_by_side(conflicts, m)
    if len(seen) < 2 or m.matrix is None:
        return list(conflicts)
    keep = kept_distribution(seen, m)[0]
    return sorted(
        conflicts,
        key=lambda c: (
            c.requirer in TF_DISTRIBUTIONS
            and normalize_name(c.requirer) in seen
            and normalize_name(c.requirer) != keep
        ),
    )


def listed_side_by_side(listed: Mapping[str, str], m: Machine) -> Optional[Finding]:
    """Two or more TensorFlow distributions in a package listing the log shows (``pip list``,
    ``pip freeze``, a hand-made list): ``tensorflow`` beside ``tensorflow-gpu``, ``tf-nightly``
    or ``tensorflow-cpu`` writes the same ``tensorflow/`` package twice. A platform build the
    ``tensorflow`` wheel itself requires (the matrix's wrappers: tensorflow-intel,
    tensorflow-macos, tensorflow-cpu-aws) is one installation with it at the same version; at
    another version it is a second one."""
    if m.matrix is None:
        return None
    wrappers = m.matrix.wrapper_platforms()
    plain = listed.get("tensorflow")
    seen = {
        name: version
        for name, version in listed.items()
        if name in TF_DISTRIBUTIONS
        and not (name in wrappers and (plain is None or _same_release(version, plain)))
    }
    return distributions_finding(
        seen,
        m,
        "The log lists each as installed: TensorFlow's distributions all write the same "
        "`tensorflow/` package, so the last one installed overwrote files of the other and "
        "the import runs a mix of them (uninstalling either removes files the other needs).",
    )


def _listed_kerases(listed: Mapping[str, str], m: Machine) -> Optional[Finding]:
    """keras beside keras-nightly in a package listing the log shows: both write the one
    ``keras/`` folder (TensorFlow 2.5's nightly-era requirement left them so), so the import
    runs a mix of two releases and registers Keras twice. tf-keras (``tf_keras/``) beside
    Keras 3 is TensorFlow 2.16's own arrangement and is not read here."""
    shown = {
        name: listed[name] for name in causes.software.KERAS_PACKAGE_DISTRIBUTIONS if name in listed
    }
    if len(shown) < 2:
        return None
    listing = ", ".join(f"{name} {version}" for name, version in shown.items())
    return causes.finding(
        f"explain.{causes.software.KERAS_VERSION}",
        Severity.ERROR,
        causes.software.KERAS_VERSION,
        f"Two Keras distributions are installed side by side: {listing}",
        "The log lists each as installed: both write the same `keras/` package, so the last "
        "one installed overwrote files of the other and the import runs a mix of them "
        "(uninstalling either removes files the other needs).",
        causes.software.keras_copies_fix(m, tuple(shown)),
    )


def conda_pip_side_by_side(rows: Sequence[CondaRow], m: Machine) -> Optional[Finding]:
    """TensorFlow in a pasted ``conda list`` twice: a package of conda's own build
    (tensorflow, tensorflow-base, tensorflow-gpu) and one pip installed (build ``pypi_0``,
    channel ``pypi``: conda lists what pip put into the environment so). Both write the same
    ``tensorflow/`` folder (conda's docs on using pip in an environment:
    https://docs.conda.io/projects/conda/en/stable/user-guide/tasks/manage-environments.html#using-pip-in-an-environment)."""
    ours = [r for r in rows if normalize_name(r.name) in (*TF_DISTRIBUTIONS, "tensorflow-base")]
    pip_rows = [(r.name, r.version) for r in ours if r.build == "pypi_0" or r.channel == "pypi"]
    conda_rows = [
        (r.name, r.version, r.channel) for r in ours if (r.name, r.version) not in pip_rows
    ]
    if not conda_rows:
        # Two of TensorFlow's distributions both from pip (tensorflow beside tensorflow-gpu,
        # each pypi_0): the side-by-side install a pip listing shows. conda's own packages of
        # one build (tensorflow, tensorflow-base, conda-forge's tensorflow-gpu that requires
        # tensorflow) are one installation, so only pip's rows count here.
        named = {normalize_name(name): version for name, version in pip_rows}
        return listed_side_by_side(named, m) if len(named) > 1 else None
    if not pip_rows:
        return None
    shown = [f"{r.name} {r.version} {r.build} {r.channel}".rstrip() for r in ours]
    return causes.finding(
        f"explain.{causes.software.TF_MULTIPLE_DISTRIBUTIONS}",
        Severity.ERROR,
        causes.software.TF_MULTIPLE_DISTRIBUTIONS,
        "TensorFlow is installed twice in the conda environment: by conda and by pip",
        "conda list: " + "; ".join(shown),
        causes.software.conda_pip_duplicate_fix(m, conda_rows, pip_rows),
    )


def conda_pip_tensorboards(rows: Sequence[CondaRow], m: Machine) -> Optional[Finding]:
    """TensorBoard in a pasted ``conda list`` twice: a package of a conda channel and one pip
    installed (build ``pypi_0``, channel ``pypi``), or two of its distributions (tensorboard
    beside tb-nightly): each writes the one ``tensorboard/`` folder."""
    # One row each: a listing pasted twice shows the same TensorBoard twice.
    ours = list(
        dict.fromkeys(r for r in rows if normalize_name(r.name) in TENSORBOARD_DISTRIBUTIONS)
    )
    from_pip = [r for r in ours if r.build == "pypi_0" or r.channel == "pypi"]
    from_conda = [r for r in ours if r not in from_pip]
    if not (from_pip and from_conda) and len({normalize_name(r.name) for r in ours}) < 2:
        return None  # one installer's one distribution, in one release or two listings
    shown = "; ".join(f"{r.name} {r.version} {r.build} {r.channel}".rstrip() for r in ours)
    # Each installer's rows go with its own remover: conda's with conda's, pip's with pip's.
    fix = (
        causes.software.conda_tensorboards_fix(
            m,
            [(r.name, r.channel) for r in from_conda],
            [r.name for r in from_pip],
            next((r.version for r in rows if normalize_name(r.name) in TF_DISTRIBUTIONS), None),
        )
        if from_conda
        else causes.software.tensorboard_duplicate_fix(m)
    )
    return causes.finding(
        f"explain.{causes.software.TENSORBOARD_DUPLICATE_INSTALL}",
        Severity.ERROR,
        causes.software.TENSORBOARD_DUPLICATE_INSTALL,
        "TensorBoard is installed twice in the conda environment",
        "conda list: " + shown,
        fix,
    )


def _same_release(a: str, b: str) -> bool:
    """Whether two version strings name one release (``2.12`` and ``2.12.0`` do)."""

    def trimmed(v: str) -> tuple[int, ...]:
        key = version_key(v)
        while key and key[-1] == 0:
            key = key[:-1]
        return key

    return trimmed(a) == trimmed(b)


def distributions_finding(seen: Mapping[str, str], m: Machine, said: str) -> Optional[Finding]:
    """The finding for TensorFlow distributions installed side by side (``seen``: name to
    version, two or more), with what the log shows of them (``said``): every one out, the
    newest final release back in."""
    if len(seen) < 2 or m.matrix is None:
        return None
    listing = ", ".join(f"{name} {version}" for name, version in seen.items())
    return causes.finding(
        f"explain.{causes.software.TF_MULTIPLE_DISTRIBUTIONS}",
        Severity.ERROR,
        causes.software.TF_MULTIPLE_DISTRIBUTIONS,
        f"{len(seen)} TensorFlow distributions are installed side by side: {listing}",
        said,
        distributions_fix(seen, m),
    )


def distributions_fix(seen: Mapping[str, str], m: Machine) -> Fix:
    """Every TensorFlow distribution of ``seen`` (name to version, one or more) out, the
    newest final release of them back in."""
    keep, why = kept_distribution(seen, m)
    wanted = _installable(m, keep, seen[keep])
    return Fix(
        "Remove every TensorFlow distribution, then install exactly one (the command keeps "
        f"{wanted} {seen[keep]}, {why}; name another if that is "
        "the one the code needs).",
        (
            *m.pip(f"uninstall -y {' '.join(seen)}"),
            *m.pip_install(f"{wanted}=={seen[keep]}"),
        ),
    )


def kept_distribution(seen: Mapping[str, str], m: Machine) -> tuple[str, str]:
    """Of the TensorFlow distributions ``seen`` (name to version), the one
    :func:`distributions_fix` keeps, with why: the newest final release among them (a nightly
    or pre-release only where nothing else is installed), or the one a companion the log
    lists is built for; the user may pick another, the command names one."""
    finals = {n: v for n, v in seen.items() if re.fullmatch(r"\d+(?:\.\d+)*", v)}
    pool = finals or seen
    fitted = _companion_fit(pool, m)
    if fitted is not None:
        # A companion the log lists fits one of them only (intel-extension-for-tensorflow
        # 1.1.0 beside intel-tensorflow 2.11.0 and the tensorflow 2.12.0 pip pulled over it):
        # keeping the newest would leave the companion on a TensorFlow it was not built for.
        return fitted[0], f"the one {fitted[1]} is built for"
    return max(pool, key=lambda n: version_key(pool[n])), "the newest final release shown"


def _installable(m: Machine, name: str, version: str) -> str:
    """The distribution to install for TensorFlow ``name`` ``version``: that of the release's
    GPU build, as the matrix derives it, for tensorflow-gpu (tensorflow from 2.1,
    tensorflow-gpu before: tensorflow-gpu 2.1 and later is served by tensorflow)."""
    gpu_build = (
        m.matrix.gpu_distribution(version)
        if normalize_name(name) == "tensorflow-gpu" and m.matrix is not None
        else None
    )
    return "tensorflow" if gpu_build == "tensorflow" else name


def _companion_fit(pool: Mapping[str, str], m: Machine) -> Optional[tuple[str, str]]:
    """Of the TensorFlow distributions in ``pool`` (name to version), the newest that every
    companion the table pairs with another TensorFlow than the installed one
    (:attr:`Machine.companions_off_table`) admits: (its name, those companions as ``name
    version``). None where there is no such companion or no distribution they all admit."""
    off = m.companions_off_table
    if not off:
        return None
    fits = [n for n, v in pool.items() if all(own.admits(v) for _, own in off)]
    if not fits:
        return None
    best = max(fits, key=lambda n: version_key(pool[n]))
    return best, " and ".join(f"{comp.name} {comp.version}" for comp, _ in off)


#: Cython's check, at an extension's import, of the size of a NumPy type its C code was
#: compiled with against the NumPy loaded (Cython/Utility/ImportExport.c, __Pyx_ImportType:
#: "%.200s.%.200s size changed, may indicate binary incompatibility. Expected %zd from C
#: header, got %zd from PyObject"); a ValueError where the compiled type is larger.
_STRUCT_SIZE = re.compile(
    r"numpy\.(?P<type>ndarray|dtype|ufunc|flatiter|broadcast) size changed, may indicate "
    r"binary incompatibility\. Expected (?P<compiled>\d+) from C header, got (?P<loaded>\d+) "
    r"from PyObject"
)


def _numpy_struct_size(tb: Traceback, m: Machine) -> Optional[Finding]:
    """A compiled extension whose NumPy types are larger than the NumPy loaded: it was built
    against a newer NumPy than the one installed (a wheel built for NumPy 2, or for a 1.x
    newer than this one), so the installed NumPy is below what the package needs. A warning's
    form (compiled smaller: an older NumPy at build time) is harmless and not read."""
    found = _STRUCT_SIZE.search(tb.message)
    if found is None or tb.name.endswith("Warning"):
        return None
    if int(found.group("compiled")) <= int(found.group("loaded")):
        return None
    module = next(
        (
            init.group("module")
            for f in reversed(tb.frames)
            for init in [CYTHON_INIT.match(f.function)]
            if init is not None
        ),
        None,
    )
    package = failing_package(tb, _NUMPY_ITSELF)
    named = causes.common.package_named(package.module, package.dist) if package else ""
    who = f"{named} (module {module or package.module})" if package else "A compiled package"
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
        Severity.ERROR,
        causes.software.DEPENDENCY_OUT_OF_RANGE,
        f"{_sentence_start(who)} was built against a newer NumPy than the one installed",
        f"{tb.where}: {tb.type}: {tb.message}\nIts compiled numpy.{found.group('type')} is "
        f"{found.group('compiled')} bytes, the loaded NumPy's {found.group('loaded')}: the "
        "package's binary needs a newer NumPy.",
        causes.software.numpy_newer_build_fix(
            m,
            None,
            package.module if package is not None else "",
            package.dist if package is not None else "",
        ),
    )


def _sentence_start(words: str) -> str:
    """``words`` opening a sentence: "the package that provides ..." capitalised, a
    distribution's name (pycocotools) kept as PyPI spells it."""
    return "The" + words[3:] if words.startswith("the ") else words


#: TensorFlow 1.x's graph importer looked each node's op up in the registry's dict
#: (python/framework/importer.py: ``op_def = op_dict[node.op]``): an op this build does not
#: register raised the bare KeyError, before "Op type not registered" was worded (1.5).
_IMPORTER = re.compile(r"tensorflow[/\\]python[/\\]framework[/\\]importer\.py$")
_OP_NAME = re.compile(r"^u?'(?P<op>[A-Z]\w*)'$")


def _graph_op_unknown(tb: Traceback, m: Machine) -> Optional[Finding]:
    """A KeyError naming an op, raised in TensorFlow's graph importer: the graph was written
    by a TensorFlow (or with a library) that registers an op this one does not."""
    if tb.name != "KeyError" or not tb.frames or not _IMPORTER.search(tb.frames[-1].path):
        return None
    match = _OP_NAME.match(tb.message.strip())
    if match is None:
        return None
    op = match.group("op")
    return causes.finding(
        f"explain.{causes.software.OP_NOT_REGISTERED}",
        Severity.ERROR,
        causes.software.OP_NOT_REGISTERED,
        f"The graph uses the op {op}, which this TensorFlow does not register",
        f"{tb.where}: {tb.type}: {tb.message}\nTensorFlow's graph importer found no op named "
        f"{op} in this build's registry (older releases raise a bare KeyError where newer ones "
        "say 'Op type not registered').",
        causes.software.op_not_registered_fix(m, op),
    )


def _keras_tree_mixed(tb: Traceback, m: Machine) -> Optional[Finding]:
    """Keras' own code missing a name of another of its modules: its folder holds files of
    two releases (keras-nightly, which TensorFlow 2.5 requires, installed over keras 2.4; a
    tf-nightly's Keras over a release's), so no release of it is whole."""
    module = keras_own_missing(tb)
    if module is None:
        return None
    return causes.finding(
        f"explain.{causes.software.KERAS_VERSION}",
        Severity.ERROR,
        causes.software.KERAS_VERSION,
        "The keras package holds the files of two Keras releases",
        f"{tb.where}: {tb.type}: {tb.message}\nKeras' own code imports {module} and does not "
        "find what its release has there: another distribution installed into the same keras "
        "folder (keras-nightly, which TensorFlow 2.5 requires, beside standalone keras; or an "
        "upgrade that stopped halfway).",
        causes.software.keras_copies_fix(m),
    )


def resolver_python_findings(python_refusals: Sequence[PythonRefusal], m: Machine) -> list[Finding]:
    """uv's and Poetry's refusals of a release of TensorFlow's ecosystem for its
    Requires-Python, one finding each (another project's package, refused in the same words,
    is that project's range to read, not TensorFlow's)."""
    return [
        _python_refusal(x, m)
        for x in python_refusals
        if x.dist and x.installer != "pip" and causes.software.tensorflow_ecosystem(x.dist)
    ]


def _python_refusal(refusal: PythonRefusal, m: Machine) -> Finding:
    """pip (uv, Poetry) refused a package: its Requires-Python excludes the interpreter, or
    part of the Python range the project declares (uv's lock, Poetry's)."""
    release = f"{refusal.dist} {refusal.version}".rstrip()
    if refusal.project or refusal.installer == "Poetry":
        judged = f"the project's Python range {refusal.project}".rstrip()
        # The resolver locks for every Python the project admits, not the interpreter at
        # hand (Poetry always solves for the project's declared range): the declaration is
        # what to change.
        fix = causes.platform.project_python_range_fix(
            refusal.installer.lower(), refusal.dist, refusal.spec, ""
        )
    else:
        judged = f"Python {refusal.python or '?'}"
        fix = causes.platform.python_range_fix(
            m, refusal.dist, refusal.version, refusal.spec, refusal.python or None
        )
    # uv's "all versions of X" is no release of it at all for these Pythons, not one release.
    cause = (
        causes.platform.TF_NO_WHEEL_FOR_PYTHON
        if refusal.every
        else causes.platform.TF_RELEASE_NOT_FOR_PYTHON
    )
    title = (
        f"No {refusal.dist} release supports {judged}"
        if refusal.every
        else causes.platform.release_not_for_python_title(refusal.dist)
    )
    if (
        not refusal.every
        and refusal.python
        and not causes.software.tensorflow_ecosystem(refusal.dist)
        and not releases_of(refusal.dist)
        and causes.platform.python_below_range(refusal.python, refusal.spec)
    ):
        # Another project's release (neither of TensorFlow's ecosystem nor in the wheel
        # index) that needs a newer Python than the one installing it: the package's range,
        # not one of TensorFlow's wheels, is what refuses.
        cause = causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE
        title = f"{refusal.dist} needs a newer Python than {refusal.python}"
    return causes.finding(
        f"explain.{cause}",
        Severity.ERROR,
        cause,
        title,
        f"pip: {refusal.dist} requires a different Python: {refusal.python or '?'} not in "
        f"{refusal.spec!r}"
        if refusal.installer == "pip"
        else f"{refusal.installer}: {release} requires Python {refusal.spec}, outside {judged}",
        fix,
        ("https://packaging.python.org/en/latest/specifications/core-metadata/#requires-python",),
    )


def _conda_python(conflict: CondaPythonConflict, m: Machine) -> Finding:
    """conda's solver found no build for the environment's Python: of the pinned release
    (``tf-release-not-for-python``), or of any release (``tf-no-wheel-for-python``). The
    Pythons are the solver's list, else the matrix's Pythons of the release's wheels."""
    pythons, whose = conflict.pythons, "its builds are for"
    if conflict.version and not pythons and m.matrix is not None:
        whose = "the release was built for (its PyPI wheels)"
        # A pre-release (0.12.0rc0) has the Pythons of its final release's wheels.
        final = re.sub(r"(?:rc|a|b|dev)\d*$", "", conflict.version)
        final = final if final.count(".") >= 2 else f"{final}.0"
        by_platform = m.matrix.release_pythons(final) or {}
        pythons = tuple({py for pys in by_platform.values() for py in pys})
    ordered = tuple(sorted(set(pythons), key=version_key))
    release = f"{conflict.dist} {conflict.version}".rstrip()
    cause = (
        causes.platform.TF_RELEASE_NOT_FOR_PYTHON
        if conflict.version
        else causes.platform.TF_NO_WHEEL_FOR_PYTHON
    )
    return causes.finding(
        f"explain.{cause}",
        Severity.ERROR,
        cause,
        f"conda has no build of {release} for Python {conflict.python}",
        f"conda's solver: {release} conflicts with python {conflict.python} (UnsatisfiableError)"
        + (f"; {whose} Python {', '.join(ordered)}" if ordered else ""),
        causes.conda.conda_python_fix(
            conflict.dist, conflict.version, conflict.python, ordered, whose
        ),
        ("https://docs.conda.io/projects/conda/en/stable/user-guide/troubleshooting.html",),
    )


def _conda_missing(missing: CondaMissingRelease, m: Machine) -> Optional[Finding]:
    """conda found the pinned TensorFlow release in none of its channels: no build of it for
    this platform (and Python) there, where other releases of the package are. A cudatoolkit
    is :func:`_conda_cudatoolkit_missing`'s."""
    if missing.dist == "cudatoolkit":
        return _conda_cudatoolkit_missing(missing, m)
    release = f"{missing.dist} {missing.version}"
    return causes.finding(
        f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
        Severity.ERROR,
        causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
        f"conda's channels have no build of {release} for this platform",
        # One reading of three wordings (PackagesNotFoundError, ResolvePackageNotFound,
        # libsolv's "nothing provides requested"): none named as the log may not say it.
        f"conda: {missing.dist}={missing.version} is not available from the channels it "
        "searched; a channel publishes only some releases per platform and Python.",
        causes.conda.channel_build_fix(m),
        ("https://docs.conda.io/projects/conda/en/stable/user-guide/troubleshooting.html",),
    )


def _conda_cudatoolkit_missing(missing: CondaMissingRelease, m: Machine) -> Optional[Finding]:
    """conda found no cudatoolkit of a CUDA major after the last one that package was made
    for (data/cuda.yaml's ``conda_cudatoolkit``): no channel has it, on any platform. Where
    conda solved for Windows, no TensorFlow uses that CUDA there either: its GPU builds for
    native Windows ended with a CUDA 11 line. None for a release inside the package's span
    (one channel's gap, or a platform without it: another question)."""
    end = causes.conda.cudatoolkit_never_made(missing.version)
    if end is None:
        return None
    last_major, successor, sources = end
    cuda = missing.version.rstrip("*")
    where = f" for {missing.platform}" if missing.platform else ""
    said = (
        f"conda: cudatoolkit={missing.version} is not available from the channels it "
        f"searched{where}. conda's cudatoolkit package was made for CUDA {last_major} and "
        f"earlier only, on every platform: from CUDA {last_major + 1} on the channels ship "
        f"CUDA as separate packages held to one release by {successor}."
    )
    last = causes.platform.last_windows_gpu_line(m)
    if missing.platform.startswith("win-") and last is not None:
        return causes.finding(
            f"explain.{causes.platform.WINDOWS_NATIVE_GPU_ENDED}",
            Severity.ERROR,
            causes.platform.WINDOWS_NATIVE_GPU_ENDED,
            f"conda has no cudatoolkit {cuda}, and no TensorFlow uses a GPU on native Windows "
            f"after {last.line}",
            f"{said} TensorFlow's GPU builds for native Windows ended with {last.line}, built "
            f"for CUDA {last.cuda}: no later release uses the GPU there, whatever CUDA is "
            "installed.",
            causes.platform.windows_gpu_fix(m),
            sources,
        )
    return causes.finding(
        f"explain.{causes.software.PINNED_RELEASE_NOT_PUBLISHED}",
        Severity.ERROR,
        causes.software.PINNED_RELEASE_NOT_PUBLISHED,
        f"conda has no cudatoolkit {cuda}: that package ends at CUDA {last_major}",
        said,
        causes.conda.cuda_after_cudatoolkit_fix(m, cuda, successor, missing.platform),
        sources,
    )


def _source_build(build: SourceBuild, m: Machine) -> Finding:
    """pip built a release from source because no wheel of it fits, and the build failed."""
    release = f"{build.dist} {build.version}" if build.version else build.dist
    if build.failed and not causes.software.tensorflow_ecosystem(build.dist):
        # What pip said around the failed build of a dependency tells why it built one:
        # it replaced an installed wheel, or went back to an older release. TensorFlow and
        # its companions (tensorflow-text without a wheel for the platform) keep the reading
        # of a release with no wheel here.
        if build.replaced:
            return _replaced_by_source(build, m, release)
        if build.backtracked:
            return _older_release_source(build, m, release)
        stale = modules().stale_build_scripts.get(build.dist)
        if stale is not None and stale.breaks(build.version) and stale.broke(build.errors):
            return _stale_build_script(build, m, release, stale)
        fallback = _requires_python_fallback(build, m, release)
        if fallback is not None:
            return fallback
    installer = causes.common.RESOLVER_NAMES.get(build.installer, build.installer)
    ended = (
        "the build's own error is above that line."
        if build.failed
        else "the log shows setup.py building it and not how the build ended (pip's verdict "
        "is not in it)."
    )
    return causes.finding(
        "explain.tf-release-not-for-python",
        # Only setup.py's output, no failure shown: the likely reading, not an observation.
        Severity.ERROR if build.failed else Severity.WARNING,
        causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
        f"{installer} could not build {release} from source: it found no wheel of it to use "
        "for this Python and platform",
        f"{build.message}\n{installer} builds a source archive where it finds no wheel of the "
        "release it chose for the interpreter and platform (or is told not to use one: "
        "--no-binary); " + ended,
        causes.platform.source_build_fix(
            m, build.dist, build.version, build.python, build.system, build.installer
        ),
        ("https://pip.pypa.io/en/stable/cli/pip_install/#cmdoption-only-binary",),
    )


def _requires_python_fallback(build: SourceBuild, m: Machine, release: str) -> Optional[Finding]:
    """The failed build is of a requirement of a package the user asked for by name alone,
    and pip chose an old release of that package (:func:`requires_python_fallback`)."""
    if not build.required_by or not build.requirer_chosen:
        return None
    return requires_python_fallback(
        m,
        build.required_by,
        build.requirer_chosen,
        release,
        built=True,
        message=build.message,
    )


def refused_fallback_findings(
    refusals: Sequence[PipRefusal], collected: Sequence[Collected], m: Machine
) -> list[Finding]:
    """pip refusing a requirement ("Could not find a version that satisfies the requirement
    tensorflow<2.4,>=1.15.2 (from tfx)") of a package the user asked for by name alone, of
    which pip chose an old release (:func:`requires_python_fallback`)."""
    asked = {c.dist: c.version for c in collected if not c.spec and not c.required_by}
    out: list[Finding] = []
    for refusal in refusals:
        by = normalize_name(refusal.required_by)
        if by not in asked:
            continue
        found = requires_python_fallback(
            m,
            by,
            asked[by],
            f"{normalize_name(refusal.dist)}{refusal.spec}",
            built=False,
            message=f"pip: no release of {refusal.dist}{refusal.spec} (from {by}) to install",
        )
        if found is not None:
            out.append(found)
    return out


def requires_python_fallback(
    m: Machine, dist: str, chosen_version: str, failed: str, built: bool, message: str
) -> Optional[Finding]:
    """pip chose ``chosen_version`` of ``dist``, asked for by name alone, and a requirement of
    that release (``failed``) could not be installed (``built``: its source build failed;
    else pip found no release of it). Where every newer release the wheel index lists
    declares a Requires-Python other than the chosen one's, pip passed over them for this
    interpreter, and the old release's pins are what fail here."""
    # pip drops each file whose Requires-Python excludes the interpreter before it chooses,
    # and says so only when nothing is left (src/pip/_internal/index/package_finder.py,
    # _check_link_requires_python; https://github.com/pypa/pip/blob/23.0/src/pip/_internal/
    # index/package_finder.py): a name asked for alone gets the newest release left.
    chosen_key = version_key(chosen_version)
    releases = releases_of(dist)
    chosen = next((r for r in releases if version_key(r.version) == chosen_key), None)
    newer = [r for r in releases if version_key(r.version) > chosen_key]
    if chosen is None or not newer:
        return None
    if any(not r.requires_python or r.requires_python == chosen.requires_python for r in newer):
        # A newer release this Python could take: pip chose the old one for another reason.
        return None
    python = m.python_version
    if python and not chosen.python_fits(python):
        return None  # pip takes no release that excludes the interpreter: another Python's log
    # Where the interpreter is known, a newer release the index lists for it is what installs
    # (a log older than that release, or an index without it): the newer releases do not all
    # exclude this Python.
    fits = causes.platform.newest_release_for(m, dist, python) if python else None
    if fits is not None and version_key(fits.version) <= chosen_key:
        fits = None
    newest = newer[-1]
    cause = causes.platform.TF_NO_WHEEL_FOR_PYTHON
    then = (
        "then had to be built from source, and failed"
        if built
        else "then had no release pip could install here"
    )
    summary = (
        f"pip fell back to {dist} {chosen.version}; {dist} {fits.version} supports this Python"
        if fits is not None
        else f"pip fell back to {dist} {chosen.version}: its newer releases exclude this Python"
    )
    newer_words = (
        f"although the newer {fits.version} declares a Requires-Python "
        f"({fits.requires_python or 'none'}) that admits Python {python}"
        if fits is not None
        else f"although {len(newer)} newer releases exist, each declaring its own "
        f"Requires-Python (the newest, {newest.version}: {newest.requires_python})"
    )
    return causes.finding(
        f"explain.{cause}",
        Severity.ERROR,
        cause,
        summary,
        f"{message}\npip collected {dist} without a version and chose {dist} "
        f"{chosen.version} (Requires-Python {chosen.requires_python or 'none'}), "
        f"{newer_words}; {failed}, a requirement of {dist} {chosen.version}, {then}.",
        causes.platform.requires_python_fallback_fix(
            m, dist, chosen.version, newest.version, newest.describe(), failed, built, fits
        ),
        ("https://packaging.python.org/en/latest/specifications/core-metadata/#requires-python",),
    )


def _replaced_by_source(build: SourceBuild, m: Machine, release: str) -> Finding:
    """pip removed the release of a dependency installed from a wheel ("Found existing
    installation: llvmlite 0.39.1") to build another from source, and that build failed."""
    return causes.finding(
        f"explain.{causes.platform.DEPENDENCY_SDIST_BUILD_FAILS}",
        Severity.ERROR,
        causes.platform.DEPENDENCY_SDIST_BUILD_FAILS,
        f"pip replaced {build.dist} {build.replaced} with a source build of {release}, which "
        "failed",
        f"{build.message}\npip: Found existing installation: {build.dist} {build.replaced}. "
        "Resolving the requested packages made pip remove the release installed from a wheel "
        "and build another from its source archive, and that build failed on this machine.",
        causes.platform.replaced_dependency_fix(m, build.dist, build.replaced),
        ("https://pip.pypa.io/en/stable/user_guide/#constraints-files",),
    )


def _older_release_source(build: SourceBuild, m: Machine, release: str) -> Finding:
    """pip went back over releases of a dependency ("pip is looking at multiple versions of
    statsmodels"), chose one it had to build from source, and the build failed."""
    return causes.finding(
        f"explain.{causes.platform.PINNED_SDIST_UNBUILDABLE}",
        Severity.ERROR,
        causes.platform.PINNED_SDIST_UNBUILDABLE,
        f"pip went back to {release}, which it must build from source, and the build failed",
        f"{build.message}\npip: pip is looking at multiple versions of {build.dist}. A "
        "requirement's range made the resolver go back to an older release with no wheel "
        "for this Python; its build script predates the build tools pip's isolated build "
        "environment installs.",
        causes.platform.old_sdist_build_fix(m, build.dist, build.version),
        ("https://pip.pypa.io/en/stable/topics/dependency-resolution/",),
    )


def _stale_build_script(
    build: SourceBuild, m: Machine, release: str, stale: StaleBuildScript
) -> Finding:
    """pip built a release whose build script the current build tools break (the module
    table's ``stale_build_scripts``: PyYAML before 6.0.1 under Cython 3.0). pip builds a source
    archive only where no wheel of the chosen release fits, and chooses an old release only
    where a requirement's range asks for it, so the pin is what made pip build it. Poetry
    builds in an isolated environment of its own the same way."""
    installer = causes.common.RESOLVER_NAMES.get(build.installer, build.installer)
    releases = f"{build.dist} releases from {stale.broken_from} before {stale.fixed_in}"
    return causes.finding(
        f"explain.{causes.platform.PINNED_SDIST_UNBUILDABLE}",
        Severity.ERROR,
        causes.platform.PINNED_SDIST_UNBUILDABLE,
        f"{installer} built {release} from source, and {releases} do not build with {stale.tool}",
        f"{build.message}\n{releases} do not build from their source archive with "
        f"{stale.tool}, which the isolated build environment installs; {installer} took "
        f"{release}'s archive because a requirement (the install's own, or a package's) asked "
        f"for a {build.dist} below {stale.fixed_in}: a resolver chooses the newest release the "
        "requirements admit, and the newer ones build, or publish wheels.",
        causes.software.stale_build_fix(
            m,
            build.dist,
            build.version,
            stale.fixed_in,
            stale.tool,
            build.installer,
            (build.spec, build.required_by, build.requirer_release),
        ),
        stale.links,
    )


#: The fix of each front end of TensorFlow that requires another TensorFlow.
_FRONT_END_FIXES = {
    causes.software.TF_KERAS_MISMATCH: causes.software.tf_keras_fix,
    causes.software.KERAS_VERSION: causes.software.keras_match_fix,
}


def _legacy_keras_used(tracebacks: Sequence[Traceback]) -> bool:
    """Whether an exception of the log went through tf-keras (``tf_keras`` in a frame, its
    message or the statement that raised it)."""
    return any(
        "tf_keras" in tb.message
        or "tf_keras" in tb.statement
        or any("tf_keras" in f.path or "tf_keras" in f.code for f in tb.frames)
        for tb in tracebacks
    )


def _conflict(
    c: Conflict,
    m: Machine,
    legacy_keras_used: bool = True,
    pair_weight: Optional[Severity] = None,
    notice_alone: bool = False,
    untouched: bool = False,
) -> Optional[Finding]:
    """The cause one broken requirement stands for: a companion built for another TensorFlow,
    or one of TensorFlow's own dependencies outside the range it declares. ``legacy_keras_used``:
    the log shows tf-keras in use (a tf-keras of another TensorFlow breaks only what imports
    it, as ``TF_USE_LEGACY_KERAS`` or ``import tf_keras`` does). ``pair_failed``: the failure
    the log ends in follows from the pair (:func:`_pair_failed`), which then answers for two
    packages neither of which is TensorFlow. ``notice_alone``: the log shows no exception
    (:func:`_harmless_notice`); ``untouched``: no crash, and no traceback runs through either
    package of the pair (the run never imported them)."""
    if c.kind == "between":
        if c.requirer in TF_DISTRIBUTIONS:
            return _between(c, m)
        return _others_between(c, m, pair_weight) if pair_weight else None
    if c.kind == "backtrack":
        return _backtrack(c, m)
    if c.kind == "asked":
        return _asked_together(c, m) if pair_weight else None
    if c.kind == "requested":
        asked = exact_pin(c.have)
        if asked is None and (_floor(c.have) is None or ranges_meet(c.have, c.spec)):
            return None  # a range the resolver weighed that TensorFlow's meets, or unknown
        if asked is not None and spec_contains(asked, c.spec) is not False:
            return None  # pip lists every requirement on the name; this one is not the clash
    elif c.kind == "installed" and spec_contains(c.have, c.spec) is not False:
        return None
    said = _said(c)
    cause = causes.software.tensorflow_requirer_cause(c.requirer)
    if c.target in TF_DISTRIBUTIONS and c.kind == "installed" and cause in _FRONT_END_FIXES:
        # TensorFlow's own front end (tf-keras, keras), released with its lines: its own
        # cause and fix (the Keras of the installed line), not a companion's.
        # pip's notice of a tf-keras of another TensorFlow, with nothing of the log going
        # through tf-keras: only code that imports it breaks (a Keras 3 program does not).
        quiet = (
            cause == causes.software.TF_KERAS_MISMATCH
            and c.source == "pip"
            and not legacy_keras_used
        )
        return causes.finding(
            f"explain.{cause}",
            Severity.INFO if quiet else Severity.ERROR,
            cause,
            f"{c.requirer_named} is of another TensorFlow (tensorflow{c.spec})",
            said
            + (
                " Nothing in the log goes through tf-keras: it breaks only code that imports it "
                "(import tf_keras, or tf.keras with TF_USE_LEGACY_KERAS=1)."
                if quiet
                else ""
            ),
            _FRONT_END_FIXES[cause](m),
        )
    if c.target in TF_DISTRIBUTIONS and c.requirer not in TF_DISTRIBUTIONS:
        return _companion_conflict(c, m, said)
    if (
        c.target == "protobuf"
        and c.kind == "installed"
        and c.requirer not in TF_DISTRIBUTIONS
        and causes.software.tensorflow_ecosystem(c.requirer)
        and _protobuf_breaks(c)
    ):
        # TensorFlow's own family (tensorflow-metadata, -datasets, -serving-api) compiles its
        # messages with one protobuf: the same fault as TensorFlow's range, on the package
        # that states it.
        return causes.finding(
            "explain.protobuf-incompatible",
            Severity.ERROR,
            causes.software.PROTOBUF_INCOMPATIBLE,
            f"{c.requirer_named} needs protobuf{c.spec}, not {c.have}",
            said,
            causes.common.install_fix(
                m,
                f"Install a protobuf in the range {c.requirer} declares (its generated code "
                "runs only with that protobuf), before the packages that pull a newer one.",
                f"protobuf{c.spec}",
            ),
        )
    if (
        c.kind == "installed"
        and c.requirer not in TF_DISTRIBUTIONS
        and c.target != "protobuf"
        and c.target not in TF_DISTRIBUTIONS
        and causes.software.tensorflow_family(c.requirer)
    ):
        # A package of TensorFlow's own family (tensorflow-metadata, tensorflow-datasets,
        # TensorBoard) runs with what it declares, as TensorFlow does: an installed dependency
        # outside that range is the same fault, on the package that states it. Where pip's
        # notice after an install is all the log shows, it is a note: pip 20.3 and later print
        # it of packages already there that the install did not check (a hosted image's
        # preinstalled ones; resolution/resolvelib's "does not currently take into account all
        # the packages that are installed"), and only code importing that package can break:
        # nothing did. The same where the log's failure runs through neither package: the
        # run never imported them, so the notice did not matter to it. pip 20.2's "you'll
        # have" is said of the install it makes: a warning.
        quiet = (notice_alone or untouched) and c.source == "pip" and not c.planned
        failed = (
            f"The log's failure runs through neither {c.requirer} nor {c.target}"
            if not notice_alone
            else "Nothing in the log failed after pip's notice"
        )
        return causes.finding(
            f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
            Severity.INFO if quiet else Severity.WARNING,
            causes.software.DEPENDENCY_OUT_OF_RANGE,
            f"{c.target} {c.have} is outside the range {c.requirer_named} declares "
            f"({c.target}{c.spec})",
            said + (f" {failed}: only code that imports {c.requirer} can break." if quiet else ""),
            causes.common.install_fix(
                m,
                f"Install {c.target} in the range {c.requirer} declares, after the packages "
                "that pulled the other one (or a release of those whose range meets it).",
                f"{c.target}{c.spec}",
            ),
        )
    if c.requirer == "numba" and c.target == "llvmlite" and c.kind == "installed" and pair_weight:
        # numba refuses an llvmlite older than its own line as it imports (numba/__init__.py,
        # _ensure_llvm: https://github.com/numba/numba/blob/0.55.2/numba/__init__.py): more
        # than a pair that may well work, so a warning even where the notice is all there is.
        return causes.finding(
            f"explain.{causes.software.NUMBA_LLVMLITE_MISMATCH}",
            Severity.WARNING,
            causes.software.NUMBA_LLVMLITE_MISMATCH,
            f"llvmlite {c.have} is not the llvmlite line {c.requirer_named} was made for "
            f"(llvmlite{c.spec})",
            said,
            causes.software.numba_llvmlite_fix(m, c.requirer_version, c.spec),
        )
    if c.kind == "installed" and c.requirer in FRAMEWORKS_PINNING_CUDA and _cuda_wheel(c.target, m):
        return _framework_wheel_replaced(c, m, said)
    if _taken_back_by_tf_install(c):
        return _held_back_by_tf_install(c, m, said)
    if c.requirer not in TF_DISTRIBUTIONS and pair_weight and _library_pin(c):
        return _library_pin_conflict(c, m, said)
    if c.requirer not in TF_DISTRIBUTIONS and pair_weight and _caps_tf_dependency(c, m):
        return _library_pin_conflict(c, m, said, pair_weight)
    if c.requirer not in TF_DISTRIBUTIONS and c.kind == "missing":
        return _requirement_missing(c, m, said, pair_weight) if pair_weight else None
    if c.requirer not in TF_DISTRIBUTIONS:
        # Neither side is TensorFlow: answered only where the log's failure is the pair's.
        return _pair_out_of_range(c, m, said, pair_weight) if pair_weight else None
    if c.kind == "installed" and _cuda_wheel(c.target, m):
        return _cuda_wheel_conflict(c, m, said)
    return _tf_requirement(c, m, said, notice_alone)


def _requirement_missing(c: Conflict, m: Machine, said: str, severity: Severity) -> Finding:
    """pip's notice that a package other than TensorFlow requires one that is not installed:
    after an install, of the packages already there that the install did not check, with the
    requirement and its range ("tf-models-official 2.15.0 requires tensorflow-text~=2.15.0,
    which is not installed": commands/install.py, ``_warn_about_conflicts``), and from
    `pip check` with the name alone ("deepctr 0.9.3 requires tqdm, which is not installed":
    commands/check.py; https://github.com/pypa/pip/blob/23.2.1/src/pip/_internal/commands/
    check.py). A note where nothing failed after it (only code importing the package needs
    it), a warning where the log's failure names the missing package's module."""
    quiet = severity == Severity.INFO
    # A companion of TensorFlow pins the TensorFlow it was built for: its release for the
    # installed one, never a bare install that may replace TensorFlow.
    module = next(iter(modules().modules_of(c.target)), c.target.replace("-", "_"))
    if m.companion(c.target) is not None:
        fix = causes.software.package_install_fix(m, c.target, module)
    elif c.spec:
        fix = causes.common.install_fix(
            m,
            f"Install {c.target} in the range {c.requirer_named} declares (pip installs what a "
            "package requires where it installs that package, not with --no-deps).",
            f"{c.target}{c.spec}",
        )
    elif c.requirer_version:
        # The range is not in the log (`pip check` prints the name alone): asking pip for the
        # requirer's installed release again resolves its requirements, the missing one in
        # the range it declares.
        fix = causes.common.install_fix(
            m,
            f"Install {c.target} in the range {c.requirer_named} declares, which the log does "
            f"not show: asking pip for {c.requirer_named} again resolves its requirements and "
            f"installs {c.target} in that range.",
            f"{c.requirer}=={c.requirer_version}",
        )
    else:
        fix = causes.common.install_fix(
            m,
            f"Install {c.target}; the range {c.requirer_named} declares on it is not in the log.",
            c.target,
        )
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_MISSING}",
        severity,
        causes.software.DEPENDENCY_MISSING,
        f"{c.target} is not installed, though {c.requirer_named} requires it"
        + (f" ({c.target}{c.spec})" if c.spec else ""),
        said
        + (
            f" Nothing in the log failed after pip's notice: only code that imports "
            f"{c.requirer} needs it."
            if quiet
            else ""
        ),
        fix,
    )


def _taken_back_by_tf_install(c: Conflict) -> bool:
    """pip's notice that a package (neither TensorFlow) needs a newer release of a dependency
    than the one the same run installed beside TensorFlow, where that run removed a release
    the package's range admits: the install of TensorFlow took the dependency back below it
    (pip's new resolver moves an installed release only for a requirement of what it
    installs, and its notice after the install names the packages that broke)."""
    return (
        c.kind == "installed"
        and c.requirer not in TF_DISTRIBUTIONS
        and c.target not in TF_DISTRIBUTIONS
        and bool(c.installed_with_tf and c.replaced)
        and version_key(c.replaced) > version_key(c.have)
        and spec_contains(c.replaced, c.spec) is True
        and spec_contains(c.have, c.spec) is False
    )


def _held_back_by_tf_install(c: Conflict, m: Machine, said: str) -> Finding:
    """:func:`_taken_back_by_tf_install`: TensorFlow's range holds the dependency below the
    other package's need (the fix: a TensorFlow whose range admits it, installed with it:
    the matrix's nearest line to the installed one whose declared range meets the need)."""
    lines = m.matrix.lines if m.matrix is not None else ()
    fits = _served(
        m.matrix.lines_pinning(c.target, lambda pin: _meeting(pin, c.spec) is not None)
        if m.matrix is not None
        else (),
        m,
    )
    admitting = None
    if fits and m.tf is not None:
        best = _nearest(fits, lines, m.tf.version)
        wanted = f"{m.tf_name or 'tensorflow'}=={best.latest_patch}"
        admitting = (best, c.spec, m.tf.version, wanted)
    return causes.finding(
        f"explain.{causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE}",
        Severity.WARNING,
        causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE,
        f"Installing {c.installed_with_tf} took {c.target} back from {c.replaced} to {c.have}, "
        f"below the range {c.requirer_named} declares ({c.target}{c.spec})",
        f"{said} The same pip run removed {c.target} {c.replaced} and installed {c.have} with "
        f"{c.installed_with_tf}: the TensorFlow it installed holds {c.target} below what "
        f"{c.requirer} needs.",
        # The fix's command names the distribution alone (``pip install "webapp"``).
        causes.software.tf_pin_conflict_fix(
            m, c.target, c.requirer if admitting else c.requirer_named, "", admitting
        ),
    )


def _cuda_wheel_conflict(c: Conflict, m: Machine, said: str) -> Finding:
    """An NVIDIA wheel installed outside the pin of TensorFlow's and-cuda extra (pip's notice
    after another framework's install replaced it): TensorFlow's pin and the other
    framework's cannot both hold in one environment."""
    admitting = (
        _newest_line_admitting(m, c.target, c.have)
        if spec_contains(c.have, c.spec) is False
        else None
    )
    return causes.finding(
        f"explain.{causes.gpu.CUDA_WHEEL_PINS}",
        Severity.WARNING,
        causes.gpu.CUDA_WHEEL_PINS,
        f"{c.target} {c.have} is outside the pin of TensorFlow {c.requirer_version}'s and-cuda "
        f"extra ({c.target}{c.spec})",
        said,
        causes.gpu.framework_cuda_pins_fix(
            m, ((c.target, c.have, c.spec),), c.requirer_version, admitting
        ),
    )


def _framework_wheel_replaced(c: Conflict, m: Machine, said: str) -> Finding:
    """Another framework's exact pin on an NVIDIA wheel (torch's nvidia-cudnn-cu12==...) broken
    by what TensorFlow's and-cuda extra installed: the TensorFlow line whose pin meets the
    framework's (the matrix), else separate environments."""
    lines = m.matrix.lines if m.matrix is not None else ()
    # The newest line whose pin meets the framework's and has wheels for the log's Python
    # (where the log shows it): the oldest would downgrade TensorFlow further than needed.
    meeting = sorted(
        (
            x
            for x in lines
            if not x.pre_release
            and (pin := x.declared(c.target)) is not None
            and ranges_meet(pin, c.spec)
            and m.line_fits(x, "")
        ),
        key=lambda x: version_key(x.line),
        reverse=True,
    )
    return causes.finding(
        f"explain.{causes.gpu.CUDA_WHEEL_PINS}",
        Severity.WARNING,
        causes.gpu.CUDA_WHEEL_PINS,
        f"{c.target} {c.have} is outside {c.requirer_named}'s pin ({c.target}{c.spec})",
        said,
        causes.gpu.framework_pin_replaced_fix(
            m, c.target, c.have, c.requirer_named, c.spec, meeting[0] if meeting else None
        ),
    )


def _harmless_notice(c: Conflict, m: Machine, notice_alone: bool) -> Optional[str]:
    """Why pip's notice of an installed release outside TensorFlow's range is harmless, where
    the log shows no exception after it and the release is one the matrix says the line's code
    runs with (its ``tolerated_ranges``: h5py 2 under 2.5-2.15, Keras 3 over 2.15); None
    otherwise. pip prints the notice after the install went ahead (install.py
    ``_warn_about_conflicts``,
    https://github.com/pypa/pip/blob/24.0/src/pip/_internal/commands/install.py): most such
    notices stand for a real break (NumPy, wrapt, gast outside the range), so only those
    releases are a note."""
    if not notice_alone or c.kind != "installed" or c.source != "pip" or m.matrix is None:
        return None
    line = m.matrix.line_for(c.requirer_version)
    tolerated = line.tolerated_ranges.get(c.target) if line is not None else None
    if line is None or tolerated is None or not spec_contains(c.have, tolerated):
        return None
    cited = "; ".join(
        m.matrix.sources[x].title
        for x in line.sources_of(f"tolerated_ranges.{c.target}")
        if x in m.matrix.sources
    )
    return (
        f" TensorFlow {line.line}'s code is known to run with {c.target}{tolerated} although "
        f"its wheel asks for {c.target}{c.spec} ({cited}), and nothing in the log failed "
        "after the notice."
    )


def _library_pin(c: Conflict) -> bool:
    """pip's notice that a library written against TensorFlow (the module table's
    ``on_tensorflow``) pins one exact release of a shared dependency (``h5py==3.7.0``) and
    another is installed; TensorFlow's own family states ranges of its own (checked above)."""
    if c.kind != "installed" or exact_pin(c.spec) is None:
        return False
    if c.target in TF_DISTRIBUTIONS or c.target == "protobuf":
        return False
    return causes.software.written_on_tensorflow(c.requirer)


def _caps_tf_dependency(c: Conflict, m: Machine) -> bool:
    """pip's notice that a library outside TensorFlow's family caps a dependency TensorFlow
    requires (its declared range, else the import table) below the release installed
    (``thinc 6.10.3 has requirement wrapt<1.11.0,>=1.10.0, but you'll have wrapt 1.11.1``):
    the library's old cap, not the dependency, is what lags, and moving the dependency back
    would take it out of TensorFlow's range. Only where the installed TensorFlow's range on
    it is known and misses the library's: where it meets it the dependency can move back for
    both, and where it is not known nothing says it cannot (TensorFlow 2.13 itself declares
    numpy<=1.24.3: the matrix's pins)."""
    if c.kind != "installed" or c.source != "pip" or not c.have or not c.spec:
        return False  # a package's own check as it imports states its build's range
    if c.target in TF_DISTRIBUTIONS or c.target == "protobuf":
        return False  # TensorFlow itself, and protobuf's generated code, are judged apart
    if causes.software.tensorflow_family(c.requirer) or not tf_requires(m, c.target):
        return False
    if not _above_cap(f"=={c.have}", c.spec):
        return False
    tf_range = m.declared_range(c.target)
    return tf_range is not None and _meeting(c.spec, tf_range) is None


def _library_pin_conflict(
    c: Conflict, m: Machine, said: str, severity: Severity = Severity.WARNING
) -> Finding:
    """A library pinning a dependency exactly, or capping one TensorFlow requires below the
    release installed (:func:`_caps_tf_dependency`; ``severity`` then weighs pip's notice
    as for any pair), another release installed."""
    capped = exact_pin(c.spec) is None
    return causes.finding(
        f"explain.{causes.software.LIBRARY_PIN_CONFLICTS}",
        severity,
        causes.software.LIBRARY_PIN_CONFLICTS,
        f"{c.requirer_named} {'caps' if capped else 'pins'} {c.target}{c.spec}; {c.target} "
        f"{c.have} is installed",
        f"{said} " + causes.software.library_pin_detail(c.requirer_named, c.target, capped=capped),
        causes.software.library_pin_fix(
            m, c.requirer, c.target, c.spec, c.have, move_back=not capped
        ),
    )


def _pair_weight(c: Conflict, tracebacks: Sequence[Traceback]) -> Optional[Severity]:
    """How much pip's notice ``c`` of an installed release out of its requirer's range weighs:
    a warning where a traceback runs through either package (numba's frames raising over the
    llvmlite it was not built for); a note where the notice is all the log shows (pip prints
    it after installs that then run: the pair may well work); nothing beside another
    package's exception, another failure, the notice beside it noise."""
    if c.kind in ("requested", "between", "asked"):
        # pip's resolver refused the pin, or two packages' ranges
        # (ResolutionImpossible): it installed nothing, so the refusal is the log's failure,
        # unless a traceback shows another one.
        return None if tracebacks else Severity.WARNING
    if c.kind == "missing" and c.raised:
        # pkg_resources raised DistributionNotFound as it resolved the requirer (an entry
        # point's script): the program ended there.
        return Severity.ERROR
    if c.kind == "missing":
        # pip's "requires X, which is not installed", after an install or from `pip check`,
        # or pkg_resources' words a program caught and logged (a plugin loader's warning):
        # weighed as pip's notice of a release out of range is, a warning only where the
        # failure names the missing package's module (No module named 'tensorflow_text'),
        # not where it merely runs through the requirer's code.
        return (
            Severity.INFO
            if not tracebacks
            else Severity.WARNING
            if _names_target(c, tracebacks)
            else None
        )
    if c.kind != "installed":
        return None
    if c.source in ("import", "pkg_resources"):
        # The requirer's own import-time check raised it, or pkg_resources did as it resolved
        # the requirer: the program ended there, with the pair named.
        return Severity.ERROR
    if not tracebacks:
        return Severity.INFO
    return Severity.WARNING if _goes_through(c, tracebacks) else None


def _names_target(c: Conflict, tracebacks: Sequence[Traceback]) -> bool:
    """Whether an exception names an import package of ``c``'s missing target."""
    return _exception_names(
        tracebacks, {c.target.replace("-", "_"), *modules().modules_of(c.target)}
    )


def _exception_names(tracebacks: Sequence[Traceback], names: set[str]) -> bool:
    """Whether an exception names one of the import packages ``names`` (``No module named
    'gast'``)."""
    said = re.compile(rf"(?<![\w.]){'|'.join(map(re.escape, sorted(names)))}(?![\w])")
    return any(said.search(f"{tb.type}: {tb.message}") for tb in tracebacks)


def _goes_through(c: Conflict, tracebacks: Sequence[Traceback], named: bool = False) -> bool:
    """Whether a traceback runs through either package of ``c``: a frame of its code, or
    (``named``) an exception that names its import package (``No module named 'gast'``)."""
    table = modules()
    # The import packages of either distribution: the module table's, else its own name
    # (numba, llvmlite), as most distributions name their package.
    names = {d.replace("-", "_") for d in (c.requirer, c.target)}
    names |= {*table.modules_of(c.requirer), *table.modules_of(c.target)}
    if named and _exception_names(tracebacks, names):
        return True
    return any(installed_package(frame.path) in names for tb in tracebacks for frame in tb.frames)


def _pair_out_of_range(c: Conflict, m: Machine, said: str, severity: Severity) -> Finding:
    """Any two packages pip says are installed out of range, neither of them TensorFlow
    (numba and the llvmlite it was not built for): the requirer runs only with the range it
    declares, which pip's own words print (pip's install.py ``_warn_about_conflicts``:
    https://github.com/pypa/pip/blob/24.0/src/pip/_internal/commands/install.py)."""
    if c.kind == "requested":
        return _pin_outside_range(c, m, said, severity)
    tf = m.tf
    tf_range = m.declared_range(c.target) if tf is not None else None
    if tf is not None and tf_range and _meeting(c.spec, tf_range) is None:
        # The installed TensorFlow's own range on the name misses the requirer's: installing
        # the requirer's range would take TensorFlow out of its own, so the requirer moves.
        return causes.finding(
            f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
            severity,
            causes.software.DEPENDENCY_OUT_OF_RANGE,
            f"{c.requirer_named} needs {c.target}{c.spec}, outside TensorFlow "
            f"{tf.version}'s range ({c.target}{tf_range})",
            f"{said} TensorFlow {tf.version} declares {c.target}{tf_range}: no {c.target} "
            "meets both.",
            Fix(
                f"Keep {c.target} in the range TensorFlow {tf.version} declares "
                f"({c.target}{tf_range}) and install the release of "
                f"{c.requirer or 'the importing package'} whose own range on {c.target} admits "
                f"it (its release notes name the {c.target} each release needs), or a "
                f"TensorFlow whose range meets {c.target}{c.spec}. No command is given: the "
                f"log names no release of {c.requirer or 'it'} that fits.",
            ),
        )
    if c.source.startswith("import") and (c.requirer, c.target) == ("jax", "jaxlib"):
        # jax's own check (evidence.packages.RANGE_CHECKS): one release of both, never
        # jaxlib alone (causes.software.jax_release_fix).
        return causes.finding(
            f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
            severity,
            causes.software.DEPENDENCY_OUT_OF_RANGE,
            f"jaxlib {c.have} is outside the range jax declares (jaxlib{c.spec})",
            said,
            causes.software.jax_release_fix(m, c.have),
        )
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
        severity,
        causes.software.DEPENDENCY_OUT_OF_RANGE,
        f"{c.target} {c.have} is outside the range {c.requirer_named} declares "
        f"({c.target}{c.spec})",
        said,
        causes.common.install_fix(
            m,
            f"Install {c.target} in the range {c.requirer_named} declares; where another "
            f"package pins {c.target} outside it (`pip check` names the requirements), "
            f"install the release of {c.requirer or 'the checking package'} or of that "
            "package whose range meets the other's.",
            f"{c.target}{c.spec}",
        ),
    )


def _asked_together(c: Conflict, m: Machine) -> Optional[Finding]:
    """pip's "Cannot install tensorflow==2.12.0 and numpy==1.26.0" without the block that names
    the requirements: where the matrix records the range that TensorFlow release's wheel
    declares on the other name and the pin falls outside it, that range is the clash (the
    block would say so), read as the user's pin against TensorFlow's range."""
    pinned = exact_pin(c.have)
    line = m.matrix.line_for(c.requirer_version) if m.matrix is not None else None
    field = c.target.replace("-", "_")
    spec = getattr(line.pins, field, None) if line is not None and field in PIN_FIELDS else None
    if line is None or not spec or pinned is None or spec_contains(pinned, spec) is not False:
        return None
    said = (
        f"pip (ResolutionImpossible): the requirements ask for {c.requirer}=="
        f"{c.requirer_version} and {c.target}{c.have} together, and pip refuses them (the "
        f"lines naming the requirements are not in the log). TensorFlow {line.line}'s wheels "
        f"declare {c.target}{spec} ({line.latest_patch}'s, in the compatibility matrix), "
        f"which {pinned} is outside."
    )
    return _tf_requirement(dataclasses.replace(c, kind="requested", spec=spec), m, said)


def _others_between(c: Conflict, m: Machine, severity: Severity) -> Optional[Finding]:
    """Two packages, neither TensorFlow, whose ranges on one name no version meets, as a
    resolver's conflict block lists them (pip's "The conflict is caused by:", uv's, Poetry's,
    PDM's): it installs neither, and one of the two must move to a release whose range meets
    the other's. A library on TensorFlow pinning the name exactly is that library's pin."""
    if _meeting(c.spec, c.have) is not None:
        return None  # the resolver lists every range on the name; these two meet
    other = c.other.split(" ", 1)[0]
    pins = [
        (name, spec)
        for name, spec in ((c.requirer, c.spec), (other, c.have))
        if exact_pin(spec) is not None and causes.software.written_on_tensorflow(name)
    ]
    cause = (
        causes.software.LIBRARY_PIN_CONFLICTS if pins else causes.software.DEPENDENCY_OUT_OF_RANGE
    )
    listed = (
        (*m.list_releases(c.requirer), *m.list_releases(other))
        if c.installer == "pip"
        else (
            causes.software.releases_command(c.installer, c.requirer),
            causes.software.releases_command(c.installer, other),
        )
    )
    return causes.finding(
        f"explain.{cause}",
        severity,
        cause,
        f"{c.requirer_named} and {c.other} declare {c.target} ranges no release meets "
        f"({c.target}{c.spec}; {c.target}{c.have})",
        f"The resolver ({c.installer}): {c.requirer_named} requires {c.target}{c.spec} and "
        f"{c.other} requires {c.target}{c.have}; no {c.target} meets both, so it installs "
        "neither.",
        Fix(
            (f"{pins[0][0]} pins {c.target}{pins[0][1]}: install" if pins else "Install")
            + f" a release of {c.requirer} or of {other} whose {c.target} range meets "
            f"the other's ({c.requirer}'s {c.target}{c.spec}, {other}'s {c.target}{c.have}; "
            "the commands list their releases, and each release's requirements name its "
            "range), or keep the two in separate environments.",
            listed,
        ),
    )


def _pin_outside_range(c: Conflict, m: Machine, said: str, severity: Severity) -> Finding:
    """The requirements pin a release (``typing-extensions==3.7.4.3``) outside the range
    another requested package declares on it (``black 21.12b0 depends on
    typing-extensions>=3.10.0.0``), neither of them TensorFlow: pip's resolver installs
    nothing (ResolutionImpossible, pip's resolution/resolvelib/factory.py
    ``_report_single_requirement_conflict``/``get_installation_error``:
    https://github.com/pypa/pip/blob/24.0/src/pip/_internal/resolution/resolvelib/factory.py).
    One of the two must move; which is the project's choice, so the fix names both ways."""
    # A resolver other than pip (uv, Poetry, PDM) prints the project's range, not a pin.
    what = "pin" if exact_pin(c.have) is not None else "requirement"
    installer = c.installer or "pip"
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
        severity,
        causes.software.DEPENDENCY_OUT_OF_RANGE,
        f"The {what} {c.target}{c.have} is outside the range {c.requirer_named} declares "
        f"({c.target}{c.spec})",
        f"{said} No {c.target} meets both, so {installer} installs nothing.",
        causes.common.install_fix(
            m,
            f"Move the {what} {c.target}{c.have} into the range {c.requirer} {c.requirer_version} "
            f"declares ({c.target}{c.spec}) and install the two together; where the {what} is "
            f"there for another package, pin instead a release of {c.requirer} whose "
            "requirement admits it ("
            + (
                f"`pip index versions {c.requirer}` lists them"
                if installer == "pip"
                else f"its release notes say which; {installer} found none where it says only "
                "older ones are available"
            )
            + ").",
            f"{c.requirer}=={c.requirer_version}",
            f"{c.target}{c.spec}",
        ),
    )


def _protobuf_breaks(c: Conflict) -> bool:
    """A protobuf outside a range that breaks (or may break) the requirer's generated code:
    every one but a protobuf above the cap that still loads it
    (:func:`tfdoctor.causes.software.protobuf_above_cap_loads`), where pip's notice is all
    there is."""
    return not causes.software.protobuf_above_cap_loads(c.have, c.spec)


def _meeting(a: str, b: str) -> Optional[str]:
    """A version both specifiers admit, tried at the versions they name and just past them
    (``>1.0`` and ``<2.0`` meet at 1.0.1); None where none of those does."""
    named = re.findall(r"\d+(?:\.\d+)*", f"{a} {b}")
    tried = [*named, *(f"{v}.1" for v in named)]
    tried += [".".join([*v.split(".")[:-1], str(int(v.split(".")[-1]) + 1)]) for v in named]
    return next((v for v in tried if spec_contains(v, a) and spec_contains(v, b)), None)


def _add(installer: str, wanted: str, beside: str) -> tuple[str, ...]:
    """``installer``'s command (a resolver other than pip) that requires ``wanted`` beside
    ``beside`` (:func:`tfdoctor.causes.common.add_command`); none for a resolver without
    one."""
    command = causes.common.add_command(installer, wanted, beside)
    return (command,) if command is not None else ()


def _floor(spec: str) -> Optional[str]:
    """The highest lower bound of a range (``>=2``, ``>=2.0,<3``: 2.0), the release the
    resolver would start from; None where the range has none."""
    floors = [x.group("v") for x in _FLOOR.finditer(spec)]
    return max(floors, key=version_key) if floors else None


#: A specifier's lower bound (``==2.6.0``, ``>=2.6``, ``~=2.6.0``, a prefix ``==2.0.*``: a
#: conda request ``numpy=2.0`` is every 2.0 release) and its upper bound (``<2.6.0``,
#: ``<=2.5.9``), as pip's resolver prints them.
_FLOOR = re.compile(r"(?:==|>=|~=|>)\s*(?P<v>\d+(?:\.\d+)*)(?:\.\*)?(?![\w.*])")
#: An upper bound; conda's builds write theirs ``<1.20.0a0`` (conda-build's pin expressions
#: append ``.0a0`` to the next release, conda_build/utils.py ``_increment``: below every
#: pre-release of it), which caps at the same release.
_CAP = re.compile(r"(?P<op><=?)\s*(?P<v>\d+(?:\.\d+)*)(?:a0)?(?![\w.*])")


def _above_cap(wanted: str, tf_range: str) -> bool:
    """Whether every release ``wanted`` admits lies at or past the cap of TensorFlow's
    ``tf_range`` on the same package (``==2.6.0`` against ``<2.6.0,>=2.5.0``): TensorFlow's
    range, not the other package's, is what holds the package below."""
    floors = [version_key(x.group("v")) for x in _FLOOR.finditer(wanted)]
    caps = [(x.group("op"), version_key(x.group("v"))) for x in _CAP.finditer(tf_range)]
    if not floors or not caps:
        return False
    floor = max(floors)
    return any(floor >= cap if op == "<" else floor > cap for op, cap in caps)


def _between(c: Conflict, m: Machine) -> Optional[Finding]:
    """TensorFlow's range on a package and another package's that no version meets: the
    TensorFlow release whose range meets the other's (the matrix's pins), else the other's pin
    is what must move."""
    if not c.have:
        return _tf_range_shuts_out(c, m)
    if _meeting(c.spec, c.have) is not None:
        return None  # the resolver lists every range on the name; these two meet
    other = c.other.split(" ", 1)[0]
    said = (
        f"The resolver: {c.other} requires {c.target}{c.have}, and TensorFlow "
        f"{c.requirer_version} requires {c.target}{c.spec}; no {c.target} meets both."
    )
    lines = m.matrix.lines if m.matrix is not None else ()
    pinning = (
        m.matrix.lines_pinning(c.target, lambda pin: _meeting(pin, c.have) is not None)
        if m.matrix is not None and c.installer != "conda"
        else ()
    )
    fits = _served(pinning, m)
    if c.installer == "conda":
        # The matrix holds the ranges of PyPI's wheels; conda's channels build TensorFlow
        # with ranges of their own (a build's "depends"), which only the channel can list.
        fix = Fix(
            f"conda's builds of TensorFlow declare {c.target} ranges of their own: install a "
            f"release of {other} whose {c.target} range meets TensorFlow {c.requirer_version}'s "
            f"({c.target}{c.spec}), or a TensorFlow build whose {c.target} range meets {other}'s "
            f"({c.target}{c.have}); `conda search --info` lists each build's dependencies.",
            (
                causes.software.releases_command("conda", other),
                f'conda search --info "{c.requirer}={c.requirer_version}"',
            ),
        )
    elif fits:
        best = _nearest(fits, lines, c.requirer_version)
        # A CUDA wheel comes with TensorFlow's and-cuda extra only: the release asked for
        # keeps it, or pip would drop the wheels the shared range was chosen by.
        extra = "[and-cuda]" if _cuda_wheel(c.target, m) else ""
        wanted = f"{c.requirer}{extra}=={best.latest_patch}"
        fix = causes.software.tf_pin_conflict_fix(
            m, c.target, other, c.installer, (best, c.have, c.requirer_version, wanted)
        )
    else:
        listed = (
            f"`pip index versions {other}`"
            if c.installer == "pip"
            else f"`conda search {other}`"
            if c.installer == "conda"
            else f"its releases on PyPI: https://pypi.org/project/{other}/#history"
        )
        # A line whose range meets, but without wheels for this Python: named, not installed.
        near = _nearest(pinning, lines, c.requirer_version) if pinning else None
        served_by = near.pythons_on(m.platform or "") if near is not None else ()
        # The matrix records TensorFlow's ranges on a few packages only (its pins): of any
        # other it cannot say whether some release meets.
        known = c.target.replace("-", "_") in PIN_FIELDS or any(
            x.declared(c.target) is not None for x in lines
        )
        fix = Fix(
            (
                f"No TensorFlow release in the matrix declares a {c.target} range that meets "
                f"{other}'s {c.target}{c.have}"
                + (
                    f" and has wheels for this Python and platform (TensorFlow {near.line}'s range "
                    + (
                        f"does; its wheels are for {python_span(served_by)})"
                        if served_by
                        else "does; it has no wheels for this platform)"
                    )
                    if near is not None
                    else ""
                )
                if known
                else f"The matrix does not record TensorFlow's {c.target} ranges, so whether "
                f"another TensorFlow release's range meets {other}'s {c.target}{c.have} is not "
                "known here"
            )
            + f": install a release of {other} with a wider {c.target} range ({listed}), or "
            "keep the two in separate environments."
            + (
                f" TensorFlow {c.requirer_version}'s range caps {c.target} below every release "
                f"{other} asks for: a later {c.requirer} whose range admits {c.target}{c.have} "
                f"ends it too (`pip index versions {c.requirer}` lists them)."
                if _above_cap(c.have, c.spec)
                else ""
            ),
            m.list_releases(other)
            if c.installer == "pip"
            else (causes.software.releases_command(c.installer, other),),
        )
    # Another package's exact pin (inference-schema 1.2.0: wrapt==1.11.1) that no TensorFlow
    # release's range meets is that package's to widen: a library pinning a shared dependency.
    pinned = (
        not fits
        and not c.brought
        and c.have.startswith("==")
        and not causes.software.tensorflow_family(other)
    ) or (
        # Two frameworks' CUDA wheels (torch's and jax's exact nvidia-*-cu12 pins against
        # TensorFlow's and-cuda extra): one process, one copy of each CUDA library, so the
        # two frameworks' pins on it must meet, whichever moves.
        _cuda_wheel(c.target, m) and not causes.software.tensorflow_family(other)
    )
    cause = {
        "keras": causes.software.KERAS_VERSION,
        "protobuf": causes.software.PROTOBUF_INCOMPATIBLE,
    }.get(
        c.target,
        # TensorFlow's cap lies below every release the other package asks for: TensorFlow's
        # range holds the shared dependency back (the other's pin is not the old one), whether
        # or not the matrix names a line whose range meets it (that line is then the fix).
        causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE
        if _above_cap(c.have, c.spec)
        else causes.software.LIBRARY_PIN_CONFLICTS
        if pinned
        else causes.software.DEPENDENCY_OUT_OF_RANGE,
    )
    return causes.finding(
        f"explain.{cause}",
        Severity.ERROR,
        cause,
        f"{c.other} and TensorFlow {c.requirer_version} require {c.target} ranges that do not meet",
        said,
        fix,
    )


def _tf_range_shuts_out(c: Conflict, m: Machine) -> Finding:
    """A resolver's conclusion that TensorFlow's range on a shared name makes it incompatible
    with another package, the other's own range not in the log (Poetry's "tensorflow (...)
    requires wrapt (...). Thus, tensorflow (...) is incompatible with reflex (...)"):
    TensorFlow's declared range holds the name where the other package cannot follow."""
    other = c.other.split(" ", 1)[0]
    return causes.finding(
        f"explain.{causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE}",
        Severity.ERROR,
        causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE,
        f"TensorFlow {c.requirer_version}'s {c.target} range ({c.target}{c.spec}) makes it "
        f"incompatible with {c.other}",
        f"The resolver ({c.installer}): {c.requirer} {c.requirer_version} requires "
        f"{c.target}{c.spec}, and from that it concludes that {c.requirer} is incompatible "
        f"with {c.other}; it installs neither.",
        causes.software.tf_pin_conflict_fix(
            m, c.target, other, c.installer, stated=(c.requirer_version, c.spec)
        ),
    )


def _served(fits: Sequence[TFLine], m: Machine) -> tuple[TFLine, ...]:
    """Of the lines that ``fits``, those that publish a wheel for the machine's Python on its
    platform (the matrix's ``python``; an unknown one is taken as served): a line without one
    is no release the resolver can install here."""
    python = m.python_version
    return tuple(x for x in fits if x.has_wheels_for(python, m.platform or ""))


def _nearest(fits: Sequence[TFLine], lines: Sequence[TFLine], release: str) -> TFLine:
    """Of the lines that ``fits``, the nearest to ``release`` (the one resolved or installed)
    among all ``lines``: it moves least, and keeps the other package's own TensorFlow range
    likeliest met; of two as near, the older."""
    here = version_key(release)[:2]
    ordered = sorted({*(x.line for x in lines)}, key=version_key)
    at = {line: i for i, line in enumerate(ordered)}
    place = sum(1 for line in ordered if version_key(line) < here)
    return min(fits, key=lambda x: (abs(at[x.line] - place), version_key(x.line)))


def _cuda_wheel(target: str, m: Machine) -> bool:
    """Whether ``target`` is a CUDA wheel some TensorFlow line's and-cuda extra declares
    (``nvidia-cudnn-cu12``), not a package the matrix pins as a companion."""
    lines = m.matrix.lines if m.matrix is not None else ()
    return any(target in (x.and_cuda or {}) for x in lines)


def _backtrack(c: Conflict, m: Machine) -> Optional[Finding]:
    """pip dropping a candidate over a requirement no release of which publishes a wheel for
    the system the log shows (the bundled index of PyPI's files: tensorflow-text has no
    Windows wheel after 2.10): pip goes on to older candidates, and what it settles on, if
    anything, is a release of another era than the rest of the environment."""
    if causes.software.wheels_for_system(m, c.target, c.spec) is not False:
        return None  # a wheel exists here, or nothing is known: about versions (pip says which)
    said = (
        f"pip: Will try a different candidate, due to conflict: {c.requirer_named} depends on "
        f"{c.target}{c.spec}."
    )
    return causes.finding(
        f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
        Severity.WARNING,
        causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
        f"{c.target}{c.spec}, which {c.requirer_named} needs, has no wheel for this system",
        f"{said}\nNo release of {c.target} in {c.spec or 'any version'} publishes a wheel for "
        f"the system the log shows ({m.os}; PyPI's files): pip moves back to older "
        f"{c.requirer} releases, and what it settles on, if anything, belongs to another era "
        "than the rest of the environment.",
        causes.software.companion_no_wheel_fix(m, c.target, (), False, c.spec),
    )


def _said(c: Conflict) -> str:
    if c.source.startswith("import"):
        # The requirer's own words as it imported (evidence.packages.RANGE_CHECKS).
        return (
            f"As it imported, {c.requirer or 'a package'} "
            f"{'refused' if c.source == 'import' else 'warned of'} {c.target} {c.have}: "
            f"it needs {c.target}{c.spec}."
        )
    if c.kind == "installed":
        return (
            f"{c.source}: {c.requirer_named} requires {c.target}{c.spec}, but "
            f"{c.target} {c.have} is installed."
        )
    if c.kind == "missing":
        return f"{c.source}: {c.requirer_named} requires {c.target}{c.spec}, not installed."
    if c.installer != "pip":
        return (
            f"{causes.common.RESOLVER_NAMES[c.installer]}: the "
            f"{'requirements ask' if c.installer == 'uv pip' else 'project asks'} for "
            f"{c.target}{c.have}; {c.requirer_named} depends on {c.target}{c.spec}."
        )
    return (
        f"pip (ResolutionImpossible): the requirements ask for {c.target}{c.have}; "
        f"{c.requirer_named} depends on {c.target}{c.spec}."
    )


def _companion_conflict(c: Conflict, m: Machine, said: str) -> Finding:
    pip = c.installer == "pip"
    pinned = exact_pin(c.have) if c.kind == "requested" else None
    table = m.companion(c.requirer) if pinned else None
    row = table.release_for(pinned) if table is not None and pinned else None
    if row is not None and pinned:
        # The companion table names the release made for the TensorFlow asked for: that
        # release beside the pin meets both ranges.
        version = row.release if row.release.count(".") >= 2 else f"{row.release}.*"
        wanted = f"{c.requirer}=={version}"
        fix = Fix(
            f"{c.requirer_named} is built for tensorflow{c.spec}, and the requirements ask "
            f"for tensorflow=={pinned}: install {c.requirer} {row.release}, the release made "
            f"for that TensorFlow ({', '.join(m.companion_urls(c.requirer, row)) or 'its table'}"
            "), or ask for a TensorFlow in its range"
            + (f" (`pip index versions {c.requirer}` lists its releases)." if pip else "."),
            (*m.pip_install(wanted, f"tensorflow=={pinned}"), *m.list_releases(c.requirer))
            if pip
            else _add(c.installer, wanted, f"tensorflow=={pinned}"),
        )
        severity = Severity.ERROR
    elif c.kind == "requested":
        fix = Fix(
            f"{c.requirer_named} is built for tensorflow{c.spec}, and the "
            f"requirements ask for tensorflow{c.have}: install the {c.requirer} release made "
            f"for that TensorFlow ("
            + (f"`pip index versions {c.requirer}`" if pip else "PyPI's list")
            + " names them; its compatibility table says which), or ask for a TensorFlow in "
            "its range.",
            m.list_releases(c.requirer)
            if pip
            else (causes.common.pypi_releases_command(c.requirer),),
        )
        severity = Severity.ERROR
    else:
        comp = m.facts.package(c.requirer)
        fix = causes.software.companion_fix(m, c.requirer, comp, "tensorflow", c.spec)
        severity = Severity.ERROR if c.kind == "installed" else Severity.WARNING
    return causes.finding(
        "explain.companion-mismatch",
        severity,
        causes.software.COMPANION_MISMATCH,
        f"{c.requirer_named} is built for another TensorFlow (tensorflow{c.spec})",
        f"{said} A companion runs only with the TensorFlow it was built for: its compiled ops "
        "miss symbols, its Python code calls what is not there.",
        fix,
    )


def _tf_listed_as_shown(listed: Mapping[str, str], m: Machine) -> bool:
    """Whether a TensorFlow distribution a listing (or pip's last install) gives in
    ``listed`` is at the release the log's TensorFlow is read as, or none is listed: where
    none is, the log names two releases (one installed over the other) and which one the
    companion sits beside is not shown."""
    tf = m.tf
    versions = [v for k, v in listed.items() if normalize_name(k) in TF_DISTRIBUTIONS]
    return tf is not None and (not versions or tf.version in versions)


def _companions_off_table(m: Machine) -> Iterator[Finding]:
    """The companions the log shows installed (a listing, pip's words) at a release the
    companion table pairs with another TensorFlow than the one the log shows: the question
    ``check`` asks of an installed machine, asked of what the log holds. A warning: the log
    shows the pair, not that it is what failed."""
    if m.tf is None:
        return
    listed = {
        normalize_name(p.name): p.version
        for p in m.facts.packages or ()
        if normalize_name(p.name) in TF_DISTRIBUTIONS
    }
    for comp, own in m.companions_off_table:
        fix = causes.software.companion_fix(m, comp.name, comp, "tensorflow", own.tensorflow)
        if len(listed) > 1 and _companion_fit(listed, m) is not None:
            # Another TensorFlow distribution the log lists is the one the companion fits:
            # the side-by-side install is the fault, and keeping that one mends both.
            fix = distributions_fix(listed, m)
        yield causes.finding(
            "explain.companion-mismatch",
            Severity.WARNING,
            causes.software.tensorflow_requirer_cause(comp.name),
            f"{comp.name} {comp.version} is built for tensorflow{own.tensorflow}, beside "
            f"TensorFlow {m.tf.version}",
            f"The log shows {comp.name} {comp.version} and TensorFlow {m.tf.version} installed "
            f"together; the companion table ({', '.join(m.companion_urls(comp.name))}) pairs "
            f"its release {own.release} with tensorflow{own.tensorflow}. A companion runs only "
            "with the TensorFlow it was built for: its compiled ops miss symbols, its Python "
            "code calls what is not there.",
            fix,
        )


def _companions_off_keras(m: Machine) -> Iterator[Finding]:
    """The libraries the log shows installed (a listing, pip's words) at a release whose row
    in the companion table names the standalone Keras its code works with, beside a keras the
    log shows outside it: ``check``'s question (:attr:`Machine.companions_off_keras`) asked of
    what the log holds. A warning: the log shows the pair, not that it is what failed."""
    for comp, own in m.companions_off_keras:
        yield causes.finding(
            "explain.companion-mismatch",
            Severity.WARNING,
            causes.software.COMPANION_MISMATCH,
            *causes.software.companion_keras_words(m, comp, own, metadata=False),
        )


def _built_with_numpy2(m: Machine, requirer: str, version: str) -> bool:
    """Whether the matrix states that TensorFlow ``requirer`` ``version`` (a TensorFlow
    distribution or a platform build it requires) was compiled with NumPy 2 (its line's
    ``numpy_abi``); False where the requirer is another package or the matrix says nothing."""
    if m.matrix is None or not version:
        return False
    name = normalize_name(requirer)
    if name not in TF_DISTRIBUTIONS and name not in m.matrix.wrapper_platforms():
        return False
    line = m.matrix.line_for(version)
    return line is not None and line.runs_on_numpy2() is True


def _line_admitting(m: Machine, target: str, version: str, current: str) -> Optional[TFLine]:
    """The oldest final TensorFlow line after ``current`` whose wheel's pin on ``target`` (a
    package the matrix pins) admits ``version``; None where none does or it is not pinned."""
    if m.matrix is None or not current:
        return None
    later = sorted(
        (
            x
            for x in m.matrix.lines_pinning(target, lambda spec: bool(spec_contains(version, spec)))
            if not x.pre_release
            and version_key(x.line) > version_key(current)[:2]
            # Only a line with wheels for the log's Python, where the log shows it.
            and m.line_fits(x, "")
        ),
        key=lambda x: version_key(x.line),
    )
    return later[0] if later else None


def _newest_line_admitting(m: Machine, target: str, version: str) -> Optional[TFLine]:
    """The newest final TensorFlow line whose wheel's pin on ``target`` admits ``version`` and
    that has wheels for the log's Python (where the log shows it); None where none does."""
    if m.matrix is None:
        return None
    fitting = [
        x
        for x in m.matrix.lines_pinning(target, lambda spec: bool(spec_contains(version, spec)))
        if not x.pre_release and m.line_fits(x, "")
    ]
    return max(fitting, key=lambda x: version_key(x.line)) if fitting else None


def _tf_requirement(c: Conflict, m: Machine, said: str, notice_alone: bool = False) -> Finding:
    """TensorFlow's own requirement broken: the cause by what it is about. ``notice_alone``:
    the log shows no exception, where a pair known to work is a note (:func:`_harmless_notice`)."""
    tf = f"TensorFlow {c.requirer_version}".rstrip()
    if c.kind == "requested":
        pinned = exact_pin(c.have) or _floor(c.have)
        asked = f"{c.target}=={pinned}" if exact_pin(c.have) else f"{c.target}{c.have}"
        admitting = _line_admitting(m, c.target, pinned, c.requirer_version) if pinned else None
        who = causes.common.RESOLVER_NAMES[c.installer]
        kind = "pin" if exact_pin(c.have) else "requirement"
        # A project's resolver (uv, Poetry, PDM) reads its requirements from pyproject.toml;
        # conda's are its command's (or an environment file's).
        owner = (
            "requirements"
            if c.installer in causes.common.COMMAND_LINE_RESOLVERS
            else "project's requirements"
        )
        head = (
            f"The {owner} {'pin' if kind == 'pin' else 'ask for'} {c.target}{c.have}, outside "
            f"the range {tf} declares ({c.target}{c.spec})"
        )
        if c.installer == "conda":
            # The matrix holds the ranges of PyPI's wheels; conda's channels build TensorFlow
            # with ranges of their own (a build's "depends"), so no release from the matrix is
            # offered: the package inside the range the solver printed, and each side's builds.
            fix = Fix(
                f"{head}, so {who} installs neither. conda's builds of TensorFlow declare "
                f"{c.target} ranges of their own: pin {c.target} inside that range, or choose "
                f"a TensorFlow build whose {c.target} range admits {asked} (`conda search "
                "--info` lists each build's dependencies).",
                (
                    *_add(
                        c.installer,
                        f"{c.target}{c.spec}",
                        f"{c.requirer}={c.requirer_version}" if c.requirer_version else "",
                    ),
                    causes.software.releases_command("conda", c.target),
                    f'conda search --info "{c.requirer}"',
                ),
            )
        elif admitting is not None:
            # A later line's declared range admits the pin (what the other packages that pinned
            # it need too): moving TensorFlow is what satisfies every side.
            wanted = f"{c.requirer}=={admitting.latest_patch}"
            fix = Fix(
                f"{head}, so {who} installs neither. TensorFlow {admitting.line} "
                f"declares {c.target}{getattr(admitting.pins, c.target.replace('-', '_'))}, "
                f"which admits it: install that TensorFlow with the {kind} (or pin {c.target} "
                f"inside {tf}'s range, where nothing else needs {asked}).",
                m.pip_install(wanted, asked)
                if c.installer == "pip"
                else _add(c.installer, wanted, asked),
            )
        else:
            fix = Fix(
                f"{head}, so {who} installs neither: pin {c.target} inside that "
                f"range, or choose a TensorFlow release whose range admits {asked}.",
                m.pip_install(f"{c.requirer}=={c.requirer_version}", f"{c.target}{c.spec}")
                if c.installer == "pip"
                else _add(
                    c.installer, f"{c.target}{c.spec}", f"{c.requirer}=={c.requirer_version}"
                ),
            )
        # Keras 2.6 to 2.15 is released with TensorFlow's line: its pin outside the range is
        # a Keras of another TensorFlow, as where it is installed (below); protobuf's range is
        # the one TensorFlow's generated code needs, as where it is installed.
        cause = (
            causes.software.KERAS_VERSION
            if c.target == "keras"
            else causes.software.PROTOBUF_INCOMPATIBLE
            if c.target == "protobuf"
            else causes.software.DEPENDENCY_OUT_OF_RANGE
        )
        return causes.finding(
            f"explain.{cause}",
            Severity.ERROR,
            cause,
            f"The {owner} {'pin' if kind == 'pin' else 'require'} {c.target} outside {tf}'s "
            f"range ({c.target}{c.spec})",
            said,
            fix,
        )
    if c.kind == "missing":
        return causes.finding(
            "explain.dependency-missing",
            Severity.ERROR if c.raised else Severity.WARNING,
            causes.software.DEPENDENCY_MISSING,
            f"{c.target} is not installed, though {tf} requires it",
            said,
            causes.common.install_fix(
                m,
                "Install what TensorFlow requires, in the range it declares.",
                f"{c.target}{c.spec}",
            ),
        )
    cause, severity = causes.software.DEPENDENCY_OUT_OF_RANGE, Severity.WARNING
    # The range the machine's TensorFlow runs with is this line's only where the line is of
    # that release: of another one beside it (two distributions side by side), the range pip
    # quoted is the one its words and command name.
    own = m.tf
    remedy: Optional[Fix] = (
        None
        if own is not None and c.requirer_version and c.requirer_version != own.version
        else causes.common.range_fix(m, c.target)
    )
    if c.target == "keras":
        cause, remedy, severity = (
            causes.software.KERAS_VERSION,
            causes.software.keras_match_fix(m),
            Severity.ERROR,
        )
    elif c.target == "protobuf":
        # Above TensorFlow's cap only breaks its generated code from protobuf 4.21 on; a
        # runtime between the cap and 4.21 loads it, and pip's notice is all there is.
        cause, remedy, severity = (
            causes.software.PROTOBUF_INCOMPATIBLE,
            causes.software.protobuf_fix(m),
            Severity.ERROR if _protobuf_breaks(c) else Severity.INFO,
        )
    elif (
        c.target == "numpy"
        and version_key(c.have)[:1] >= (2,)
        and not _built_with_numpy2(m, c.requirer, c.requirer_version)
    ):
        # NumPy 2 under a TensorFlow whose range ends below it: built for NumPy 1, unless
        # the matrix states its line was compiled with NumPy 2 (then only out of range).
        cause, remedy, severity = (
            causes.software.NUMPY_ABI,
            causes.software.numpy_abi_fix(m),
            Severity.ERROR,
        )
    if remedy is None:
        remedy = causes.common.install_fix(
            m, f"Install the {c.target} range {tf} declares.", f"{c.target}{c.spec}"
        )
    if c.source == "pkg_resources":
        # pkg_resources raised it: the program stopped there (pip's notice stops nothing).
        severity = Severity.ERROR
    harmless = _harmless_notice(c, m, notice_alone)
    return causes.finding(
        f"explain.{cause}",
        Severity.INFO if harmless else severity,
        cause,
        f"{c.target} {c.have} is outside {tf}'s range ({c.target}{c.spec})",
        said + (harmless or ""),
        remedy,
    )


def _import_check(check: ImportCheck, m: Machine, raised: str = "") -> Finding:
    """A companion refused the TensorFlow it found (or found its signatures changed). Where
    the words are a library's own rather than a sentence of the companions' table (its file
    known: :attr:`ImportCheck.path`), its fix is the library's (:func:`library_fix`), and
    ``raised`` the exception's place and that file; a warning it printed is a warning."""
    if check.path and not raised:
        raised = f"{check.path} warned"
    # The import package its file lies in, below a namespace root where it is one's
    # (nvidia.dali): the root alone ("nvidia") names no package.
    found = installed_namespaced(check.path) if check.path else None
    module = found if found is not None and "." in found else None
    fix = (
        library_fix(m, check.dist, module)
        if raised
        else causes.software.companion_fix(m, check.dist)
    )
    floor = _floor_above(check, m)
    if raised and floor is not None and not paired_with_tensorflow(m, check.dist):
        # A floor above the TensorFlow it found: this release of the library is newer than
        # TensorFlow, so a newer one of it does not help; TensorFlow at the floor, or an older
        # release of the library, does.
        fix = causes.software.library_tf_check_fix(
            m, module or check.dist, floor, None, at_floor=True
        )
        if not known_distribution(check.dist):
            # No distribution's name: which one installed its folder, for the older release.
            folder = module or check.dist.replace("-", "_")
            fix = Fix(
                fix.text,
                (*fix.commands, causes.common.owner_of_package_command(folder, folded=True)),
            )
    asked = f"{module or check.dist} asks for TensorFlow {check.spec}" if check.spec else ""
    refused = f"TensorFlow {check.found} is installed" if check.found else ""
    if asked or refused:
        fix = Fix(f"{'; '.join(x for x in (asked, refused) if x)}. {fix.text}", fix.commands)
    # A name the module table does not know is an import package's, not a distribution's.
    who = (
        check.dist
        if not raised or known_distribution(check.dist)
        else f"The package of `{module or check.dist.replace('-', '_')}`"
    )
    said = (
        f"{raised}: {check.message}\nThe library whose code "
        f"{'printed it as a warning' if check.warned else 'raised it'} ({who}, as its path "
        "names it) checked the TensorFlow it found and refused it."
        if raised
        else f"{check.dist}, as it imports: {check.message}"
    )
    return causes.finding(
        "explain.companion-mismatch",
        Severity.WARNING if check.warned else Severity.ERROR,
        causes.software.COMPANION_MISMATCH,
        f"{who} is built for another TensorFlow release",
        said,
        fix,
    )


def _warned_and_since_paired(check: ImportCheck, m: Machine) -> bool:
    """Whether ``check`` is a companion's logged warning (not a library's own file's) and the
    release of that companion the log shows installed (a listing, or pip's later
    "Successfully installed" list, which replaces an earlier release) has a row in the
    companion table that admits the TensorFlow the log shows: the pair the warning was of
    is no longer the one installed."""
    if not check.warned or check.path or m.tf is None:
        return False
    dist = normalize_name(check.dist)
    return any(
        normalize_name(comp.name) == dist and own.admits(m.tf.version)
        for comp, own in m.companions_on_table
    )


def _floor_above(check: ImportCheck, m: Machine) -> Optional[str]:
    """The release a library's own refusal states as its floor (``>=X`` alone), where the
    TensorFlow it found (its words, else the one the log shows) is below it; else None."""
    found = check.found or (m.tf.version if m.tf is not None else "")
    spec = check.spec
    if not spec.startswith(">=") or "," in spec or not found:
        return None
    return spec[2:] if spec_contains(found, spec) is False else None


def library_verdict_findings(
    tracebacks: Sequence[Traceback],
    checks: Sequence[ImportCheck],
    m: Machine,
    signed: Collection[str] = (),
) -> Iterator[Finding]:
    """A library refusing the installed TensorFlow in words of its own
    (:func:`library_verdict`), raised in its own code as the innermost frame's path shows:
    the companion cause, named after that package. Words a sentence of the companions' table
    read (``checks``) or a signature cited (``signed``) are left to that reading, and
    TensorFlow's own frames are no library's."""
    read = [c.message for c in checks]
    cited = [line.strip() for line in signed if len(line.strip()) > 20]
    for tb in failures(tracebacks):
        if any(tb.message in line or line in tb.message for line in cited):
            continue
        code = failing_package(tb)
        if code is None or code.module in ("tensorflow", "tensorflow_core"):
            continue
        if normalize_name(code.dist) in TF_DISTRIBUTIONS:
            continue
        verdict = library_verdict(
            tb.message, code.dist or library_dist(code.module, code.path), code.path
        )
        if verdict is None or any(verdict.message in x or x in verdict.message for x in read):
            continue
        yield _import_check(verdict, m, f"{tb.where}: {tb.type} raised in {code.path}")


# A model file's config names the module of each class it saved (`'module':
# 'keras.src.models.functional'`); Keras prints that config when it cannot rebuild the class.
_CONFIG_MODULE = re.compile(
    r"Could not (?:locate|deserialize) class '(?P<cls>\w+)'"
    # The gap stops at the next such message: a text repeating it stays linear.
    r"(?:(?!Could not (?:locate|deserialize) class ).)*?'module': '(?P<module>keras[\w.]*)'",
    re.S,
)


def _saved_config(tb: Traceback, m: Machine) -> Optional[Finding]:
    """A model whose saved config names a module of the other Keras generation: the module's
    layout says which Keras wrote the file (keras.src.models is Keras 3's, keras.engine and
    keras.src.engine Keras 2's)."""
    match = _CONFIG_MODULE.search(tb.message)
    if match is None:
        return None
    module = match.group("module")
    written = origin_of("/site-packages/" + module.replace(".", "/") + ".py").generation
    said = (
        f"{tb.where}: {tb.type}: {tb.message}\nThe saved config names {module}: the file was "
        f"written by {written or 'another Keras'}, and the Keras loading it cannot rebuild "
        f"{match.group('cls')}."
    )
    if written == "Keras 3":
        return causes.finding(
            "explain.keras3-model-under-keras2",
            Severity.ERROR,
            causes.software.KERAS3_MODEL_UNDER_KERAS2,
            f"A model saved by Keras 3 is loaded by Keras 2 ({match.group('cls')})",
            said,
            causes.software.keras3_model_fix(m),
        )
    if written == "Keras 2":
        return causes.finding(
            "explain.keras3-behaviour-change",
            Severity.ERROR,
            causes.code.KERAS3_BEHAVIOUR_CHANGE,
            f"A model saved by Keras 2 is loaded by Keras 3 ({match.group('cls')})",
            said,
            causes.code.keras3_fix(m),
        )
    return None


#: Keras' model classes, whose private members Keras 2 callers (TensorFlow's own SavedModel
#: and TFLite code paths, libraries written for Keras 2) reach into.
_KERAS_MODELS = frozenset({"Functional", "Sequential", "Model"})
#: A Keras 2 model's private members, and the public ones Keras 3's models dropped: Keras 2's
#: Sequential and Functional have output_names, which tf2onnx's from_keras reads
#: (tf2onnx/convert.py, _rename_duplicate_keras_model_names, 1.16.1) and Keras 3's Sequential
#: lacks (onnx/tensorflow-onnx#2348, TensorFlow 2.16).
_KERAS3_DROPPED = frozenset({"output_names"})


def before_keras3(m: Machine) -> bool:
    """The installed TensorFlow is older than the first line whose ``tf.keras`` is Keras 3
    (2.16: the matrix's keras pins, :func:`~tfdoctor.compat.first_keras3_line`); False where
    neither is known."""
    first = first_keras3_line(m.matrix) if m.matrix is not None else None
    return m.tf is not None and first is not None and version_key(m.tf.version)[:2] < first.key


def _keras3_model_private(tb: Traceback, m: Machine) -> Optional[Finding]:
    """Code written for Keras 2 calling a private member of a Keras 3 model: Keras 3's
    models do not have Keras 2's internals (`_get_save_spec`, `_is_graph_network`), nor
    Sequential's `output_names`."""
    member = tb.missing_attribute
    if member is None or member.kind != "object" or member.owner not in _KERAS_MODELS:
        return None
    if not member.name.startswith("_") and member.name not in _KERAS3_DROPPED:
        return None  # a public member both generations' models have, or neither
    origins = library_origins(tb)
    if (
        any(o.generation == "Keras 2" for o in origins)
        or before_keras3(m)
        or tf_keras_generation(m)[0] == 2
    ):
        return None  # Keras 2 itself lacks it: not a generation mismatch
    caller = next((o.dist for o in origins if o.dist != "keras"), "the code")
    return causes.finding(
        "explain.keras3-behaviour-change",
        Severity.ERROR,
        causes.code.KERAS3_BEHAVIOUR_CHANGE,
        f"{caller} reaches for {member.name}, "
        f"a Keras 2 model {'internal' if member.name[:1] == '_' else 'attribute'} "
        "Keras 3 lacks",
        f"{tb.where}: {tb.type}: {tb.message}\n{caller} was written for Keras 2 models; "
        "TensorFlow 2.16 and later give Keras 3 models, without Keras 2's private members (nor "
        "Sequential's output_names). "
        "Keras 3's own way to export a SavedModel is model.export(path).",
        causes.code.keras3_fix(m),
    )


def _keras2_object(tb: Traceback, m: Machine) -> Optional[Finding]:
    """Keras 3 refusing an object of a library written for Keras 2 (hub.KerasLayer, a
    tf_keras layer): the library needs Keras 2, which is tf-keras under TensorFlow 2.16+."""
    keras3 = bool(_KERAS3_WORDS.search(tb.message)) or any(
        o.generation == "Keras 3" for o in library_origins(tb)
    )
    if not keras3:
        return None
    for match in _PRINTED.finditer(tb.message):
        qualified = match.group("cls") or match.group("obj") or ""
        top = qualified.split(".")[0]
        if top not in KERAS2_LIBRARIES:
            continue
        row = KERAS2_LIBRARIES[top]
        dist = row.dist
        return causes.finding(
            "explain.tf-keras-missing",
            Severity.ERROR,
            causes.software.TF_KERAS_MISSING,
            f"Keras 3 refused a {dist} object: {dist} is written for Keras 2 (tf-keras)",
            f"{tb.where}: {tb.type}: {tb.message}\n{qualified} is a Keras 2 class; "
            "TensorFlow 2.16 and later give Keras 3 as tf.keras, which accepts only its own "
            "layers and models.",
            causes.software.tf_keras_missing_fix(m),
            (row.source,),
        )
    if _UNNAMED_REFUSAL.match(tb.message) and "Received" not in tb.message:
        # The object is not named: a Keras 2 library's layer is the usual one, not the only.
        return causes.finding(
            "explain.tf-keras-missing",
            Severity.WARNING,
            causes.software.TF_KERAS_MISSING,
            "Keras 3 refused an object that is not one of its own layers",
            f"{tb.where}: {tb.type}: {tb.message}\nThe log does not show the object's class. "
            "TensorFlow 2.16 and later give Keras 3 as tf.keras, which accepts only its own "
            "layers and models; a layer of a library written for Keras 2 (TensorFlow Hub's "
            "KerasLayer, a tf_keras layer) is refused this way.",
            causes.software.tf_keras_missing_fix(m),
        )
    return None


#: Files of code written for Keras 2 whatever Keras is installed, as frames name them: the
#: Keras parts of :data:`KERAS2_LIBRARIES`, and Transformers' TensorFlow models and their base
#: (it imports tf_keras first from 4.38 and, without it, refuses Keras 3 before any model code
#: runs; earlier releases take tf.keras: src/transformers/modeling_tf_utils.py).
_KERAS2_CODE = re.compile(
    r"[/\\](?:transformers[/\\](?:models[/\\]\w+[/\\])?(?:modeling_tf_\w+|keras_callbacks"
    r"|optimization_tf)\.py|"
    + "|".join(
        f"{top}[/\\\\]{row.keras_files}"
        for top, row in KERAS2_LIBRARIES.items()
        if row.keras_files is not None
    )
    + ")"
)


def keras2_code_on_keras3(
    tracebacks: Sequence[Traceback], loose: Sequence[Frame], m: Machine
) -> Optional[Finding]:
    """Code written for Keras 2 (:data:`_KERAS2_CODE`) in the same traceback as Keras 3's own
    frames (keras/src/ of Keras 3): Keras 3 runs that code, which needs Keras 2 (tf-keras).
    From the failed traceback, an error; from frames a paste shows without the traceback's
    end (``loose``), a warning: the failure itself is not shown."""
    runs = [(tb.frames, tb.where, Severity.ERROR) for tb in failures(tracebacks)]
    if not runs and loose:
        runs = [(tuple(loose), "", Severity.WARNING)]
    for frames, where, severity in runs:
        keras3 = next((f for f in frames if origin_of(f.path).generation == "Keras 3"), None)
        code = next((f for f in frames if _KERAS2_CODE.search(f.path)), None)
        if keras3 is None or code is None:
            continue
        said = f"{where}: " if where else ""
        return causes.finding(
            f"explain.{causes.software.TF_KERAS_MISSING}",
            severity,
            causes.software.TF_KERAS_MISSING,
            "Keras 3 runs code written for Keras 2 (tf-keras)",
            f"{said}{code.path}, line {code.line}, is code written for Keras 2, and "
            f"{keras3.path}, line {keras3.line}, is Keras 3's own: TensorFlow 2.16 and later give "
            "Keras 3 as tf.keras, and the library's code needs Keras 2, which is tf-keras there."
            + (
                ""
                if severity is Severity.ERROR
                else " The paste stops before the exception, so what failed is not shown."
            ),
            causes.software.tf_keras_missing_fix(m),
        )
    return None


#: Import packages whose layers and models are Keras 3's own or no layers at all: Keras 3
#: refusing one of theirs is no second Keras (KerasHub, KerasCV and KerasNLP build on Keras 3;
#: an array or another framework's module handed to a model is the code's own slip).
_NOT_FOREIGN_LAYERS = frozenset(
    {"keras", "builtins", "tensorflow", "numpy", "pandas", "torch", "jax", "jaxlib", "flax"}
)
#: A printed class that says it is a layer: a ``layers`` package on its path
#: (``larq.layers.QuantConv3D``) or a name ending in Layer (``__main__.AttentionLayer``). A
#: "model" in a name is no sign (scikit-learn's linear_model, torchvision's models).
_LAYERISH = re.compile(r"(?:^|\.)layers?\.|Layer$")


def _foreign_layer_findings(tb: Traceback, m: Machine, legacy_shown: bool) -> list[Finding]:
    """Keras 3 refusing a layer or model of a library the catalogue does not know
    (``Only instances of `keras.Layer` can be added to a Sequential model. Received:
    <larq.layers.QuantConv3D object at 0x...>``): the object is another Keras's. Two readings
    fit the same words, and the log alone seldom tells them apart: the library builds on Keras
    2 (tf.keras before TensorFlow 2.16, or tf-keras) and the process has only Keras 3, or
    tf.keras is Keras 2 already (TF_USE_LEGACY_KERAS=1) and the code takes the model from the
    standalone keras package, Keras 3. The variable, where the machine's environment or the log
    (``legacy_shown``) shows it set, decides; else the first leads and the second follows as the
    other candidate."""
    if not _UNNAMED_REFUSAL.match(tb.message):
        return []
    if not (
        _KERAS3_WORDS.search(tb.message)
        or any(o.generation == "Keras 3" for o in library_origins(tb))
    ):
        return []
    for match in _PRINTED.finditer(tb.message):
        qualified = match.group("cls") or match.group("obj") or ""
        parts = qualified.split(".")
        top = parts[0]
        if (
            len(parts) < 2
            or top in KERAS2_LIBRARIES
            or top in _NOT_FOREIGN_LAYERS
            or top.startswith("keras_")
            or not _LAYERISH.search(qualified)
        ):
            continue
        said = f"{tb.where}: {tb.type}: {tb.message}"
        own = top == "__main__"
        whose = "the code's own class" if own else f"{modules().distribution(top) or top}'s"
        mixed_fix = causes.software.keras_mixed_fix(None if own else top)
        if m.legacy_keras or legacy_shown:
            return [
                causes.finding(
                    f"explain.{causes.software.KERAS_STANDALONE_MIXED_WITH_TF_KERAS}",
                    Severity.ERROR,
                    causes.software.KERAS_STANDALONE_MIXED_WITH_TF_KERAS,
                    f"Keras 3 refused {whose} {parts[-1]}: the model is the standalone keras "
                    "package's while tf.keras is Keras 2",
                    f"{said}\nTF_USE_LEGACY_KERAS is set, so tf.keras is tf-keras (Keras 2) and "
                    f"{qualified} is built on it; the model that refused it is Keras 3's.",
                    mixed_fix,
                )
            ]
        return [
            causes.finding(
                f"explain.{causes.software.TF_KERAS_MISSING}",
                Severity.WARNING,
                causes.software.TF_KERAS_MISSING,
                f"Keras 3 refused {whose} {parts[-1]}: if it is built on Keras 2, that needs "
                "tf-keras",
                f"{said}\nKeras 3 accepts only its own layers and models; {qualified} is "
                "another Keras's. TensorFlow 2.16 and later give Keras 3 as tf.keras, so a "
                "library written for Keras 2 needs tf-keras with TF_USE_LEGACY_KERAS=1. The "
                "log does not show which Keras the library builds on: `pip show` of it and its "
                "requirements tell.",
                causes.software.tf_keras_missing_fix(m),
            ),
            causes.other_candidate(
                causes.software.KERAS_STANDALONE_MIXED_WITH_TF_KERAS,
                "the model is built from the standalone keras package (Keras 3) while the "
                "layer is a tf.keras one of Keras 2",
                f"{said}\nWhere TF_USE_LEGACY_KERAS=1 is set (in the code or its environment), "
                f"tf.keras is tf-keras (Keras 2) and {qualified} builds on it, while `import "
                "keras` and `from keras.models import Sequential` stay Keras 3: the two do not "
                "mix. The variable, set or not, tells this reading from the one above.",
                mixed_fix,
            ),
        ]
    return []


# Keras 2's refusal of an object that is not one of its own layers or models (Sequential.add,
# the functional API): "must be an instance of class Layer. Found: <...>".
# Multi-backend Keras' is_keras_tensor (keras-team/keras 2.3.1 keras/backend/tensorflow_backend.py:
# "Unexpectedly found an instance of type `<...>`. Expected a symbolic tensor instance.") and
# its layers' input check (keras/engine/base_layer.py, assert_input_compatibility: "was called
# with an input that isn't a symbolic tensor. Received type: <...>") refuse the other Keras's
# tensors in the same way; so does the input check of Keras 2 from TensorFlow 2.4's Keras on
# (keras 2.15 keras/src/engine/input_spec.py, tf_keras the same: "Inputs to a layer should be
# tensors. Got '...' (of type <class ...>)"), handed a Keras 3 tensor. Those checks refuse
# their own Keras' layers and models as well (a layer called on a model or on an uncalled
# layer, the code's own slip): only a tensor class of the other Keras says two stacks.
_KERAS2_REFUSAL = re.compile(
    r"must be an instance of (?:class )?(?:Layer|Model)\b"
    r"|(?P<tensor>Unexpectedly found an instance of type|an input that isn't a symbolic tensor"
    r"|Inputs to a layer should be tensors\. Got)"
)


def _keras_stacks(tb: Traceback, m: Machine) -> Optional[Finding]:
    """Keras 2 refusing a Keras layer or model: Keras never refuses its own, so the object is
    the other Keras's (tf.keras and the standalone keras package, each a separate stack), as
    when a keras release older than the keras-applications or TensorFlow beside it hands back
    tf.keras models, or code imports from both."""
    refusal = _KERAS2_REFUSAL.search(tb.message)
    if refusal is None:
        return None
    for match in _PRINTED.finditer(tb.message):
        qualified = match.group("cls") or match.group("obj") or ""
        parts = qualified.split(".")
        if "keras" not in parts[:-1] or parts[0] in KERAS2_LIBRARIES:
            continue
        if refusal.group("tensor") and not parts[-1].endswith("Tensor"):
            continue  # a layer or model where a tensor belongs: any Keras refuses its own
        other = "tf.keras" if parts[0] == "tensorflow" else "the standalone keras package"
        fix = causes.software.keras_match_fix(m)
        return causes.finding(
            "explain.keras-version",
            Severity.ERROR,
            causes.software.KERAS_VERSION,
            f"Keras refused an object of {other}: two Keras stacks are mixed",
            f"{tb.where}: {tb.type}: {tb.message}\n{qualified} is a class of {other}; a Keras "
            "accepts only its own layers and models, so the object came from the other Keras.",
            Fix(
                "Use one Keras: import every Keras name from one package (tensorflow.keras, or "
                "keras at the release that matches TensorFlow and keras-applications). " + fix.text,
                fix.commands,
            ),
        )
    return None


# --- NumPy names a library still uses ----------------------------------------------------------

#: NumPy names removed, by the release that removed them: `alen` and `asscalar`
#: (https://numpy.org/doc/stable/release/1.23.0-notes.html, expired deprecations), the aliases
#: deprecated in 1.20 and expired in 1.24
#: (https://numpy.org/doc/stable/release/1.24.0-notes.html#expired-deprecations), the
#: main-namespace names NumPy 2.0 removed
#: (https://numpy.org/doc/stable/numpy_2_0_migration_guide.html#main-namespace; `msort` in
#: https://numpy.org/doc/stable/release/2.0.0-notes.html) and `in1d`
#: (https://numpy.org/doc/stable/release/2.4.0-notes.html, "Removed numpy.in1d").
NUMPY_REMOVED: dict[str, tuple[str, ...]] = {
    "1.23": ("alen", "asscalar"),
    "1.24": ("object", "bool", "int", "float", "complex", "str"),
    "2.0": (
        "float_",
        "complex_",
        "unicode_",
        "string_",
        "NaN",
        "Inf",
        "Infinity",
        "NINF",
        "PINF",
        "infty",
        "cast",
        "mat",
        "asfarray",
        "find_common_type",
        "round_",
        "product",
        "cumproduct",
        "sometrue",
        "alltrue",
        "issubclass_",
        "sctype2char",
        "maximum_sctype",
        "obj2sctype",
        "issctype",
        "sctypes",
        "longfloat",
        "singlecomplex",
        "cfloat",
        "clongfloat",
        "longcomplex",
        "msort",
    ),
    "2.4": ("in1d",),
}
# NumPy 1.24 says `module 'numpy' has no attribute 'object'`; NumPy 2 names the release for
# the names it removed: "`np.float_` was removed in the NumPy 2.0 release. Use `np.float64`
# instead." (numpy/__init__.py, __getattr__ and its __expired_attributes__).
_NUMPY_NAME = re.compile(
    r"module 'numpy' has no attribute '(?P<name>\w+)'"
    r"|`np\.(?P<removed>\w+)` was removed in the NumPy (?P<release>\d+\.\d+) release"
)


#: NumPy keyword arguments removed, by function: the keyword and the release that removed it.
#: ``newshape`` of numpy.reshape, deprecated in 2.1 for ``shape``, expired in 2.4
#: (https://numpy.org/devdocs/release/2.4.0-notes.html, expired deprecations).
NUMPY_KEYWORDS_REMOVED: dict[str, tuple[str, str]] = {"reshape": ("newshape", "2.4")}
#: Python's words for a keyword a function no longer takes.
_UNEXPECTED_KEYWORD = re.compile(
    r"^(?P<func>\w+)\(\) got an unexpected keyword argument '(?P<keyword>\w+)'"
)


def _numpy_keyword_removed(tb: Traceback, m: Machine) -> Optional[Finding]:
    """A call of a NumPy function with a keyword the installed NumPy removed: read only where
    the line that raised calls that function through NumPy (``np.reshape(V, newshape=...)``),
    as another library's function of the same name (torch's reshape) says the same words."""
    match = _UNEXPECTED_KEYWORD.match(tb.message)
    if match is None or tb.name != "TypeError":
        return None
    func, keyword = match.group("func"), match.group("keyword")
    removed = NUMPY_KEYWORDS_REMOVED.get(func)
    if removed is None or removed[0] != keyword:
        return None
    code = tb.frames[-1].code if tb.frames else tb.code
    if not re.search(rf"\b(?:np|numpy)\.{func}\([^\n]{{0,400}}\b{keyword}\s*=", code):
        return None
    release = removed[1]
    # The package whose file made the call (the innermost installed frame, as its path names
    # it), else the code the log runs.
    frame = tb.frames[-1] if tb.frames else None
    user = (installed_package(frame.path) if frame is not None else None) or ""
    declared = m.declared_range("numpy")
    change = (
        f"Upgrade {user} to a release that no longer passes {keyword}= to np.{func}"
        if user
        else f"In the code, pass np.{func} its argument without the {keyword}= keyword"
    )
    return causes.finding(
        f"explain.{causes.code.NUMPY_NAME_REMOVED}",
        Severity.ERROR,
        causes.code.NUMPY_NAME_REMOVED,
        f"{user or 'The code'} calls np.{func} with {keyword}=, removed in NumPy {release}",
        f"{tb.where}: {tb.type}: {tb.message}\n{user or 'The code'} passes np.{func} the "
        f"{keyword} keyword, which NumPy {release} removed: the installed NumPy is newer than "
        "that code was written for.",
        Fix(
            f"{change}, or install a NumPy older than {release} until then (inside the range "
            "TensorFlow declares).",
            m.install(f"numpy<{release}" + (f",{declared}" if declared else "")),
        ),
    )


#: The Keras distributions released with TensorFlow's lines (its front end).
_TF_KERAS = ("keras", "tf-keras")


def _module_lacks(message: str) -> Optional[NameAsked]:
    """A name a module the message names lacks: its missing attribute (``module 'PIL.Image'
    has no attribute 'ANTIALIAS'``) or a name an import did not find in it (``cannot import
    name 'ANTIALIAS' from 'PIL.Image'``), as the evidence layer reads Python's words."""
    asked = name_asked(message)
    return asked if asked is not None and asked.wording != "submodule" else None


def _object_member(tb: Traceback) -> Optional[MissingAttribute]:
    """An object's missing attribute opening ``tb``'s message (``'Processor' object has no
    attribute 'Init'``), where the message names no module lacking a name; else None."""
    member = tb.missing_attribute
    if member is None or member.kind != "object" or member.before:
        return None
    return member if _module_lacks(tb.message) is None else None


def removed_row_reads(tb: Traceback) -> bool:
    """Whether the reading of a removed name (:func:`_removed_row`) answers ``tb``'s message:
    where it does not (a library's own words before importlib's), a signature of the same
    words stays the reading."""
    return _removed_row(tb) is not None


def _removed_row(tb: Traceback) -> Optional[tuple[str, str, RemovedApi]]:
    """The module, the name and the ``removed_from_distribution`` row ``tb``'s message reads
    as (:func:`_module_lacks`; else one that begins with a whole module a release removed,
    in importlib's words: "No module named 'P.a.b'", P.a imported, or a top-level one, "No
    module named 'pkg_resources'", the name then empty, where the table's row names the module
    and no names), or None where the table has no row for it. An object's missing attribute
    (``'Processor' object has no attribute 'Init'``, Objects/object.c, opening the message)
    is looked up as Class.method among every row's names: the message does not name the
    module."""
    table = modules().removed_from_dist
    lacks = _module_lacks(tb.message)
    member = _object_member(tb)
    if member is not None:
        name = f"{member.owner}.{member.name}"
        return next(
            ((module, name, row) for module, row in table.items() if name in row.names), None
        )
    if lacks is None:
        gone = tb.missing_module
        # A top-level module missing may be its distribution not installed at all: the row's
        # fix, a release before the removal, installs one there too (its absent_from says
        # where environments come without it).
        if gone is None or not gone.quoted or gone.before:
            return None
        whole = table.get(gone.name)
        return (gone.name, "", whole) if whole and not whole.names else None
    row = table.get(lacks.module)
    return (lacks.module, lacks.name, row) if row is not None and lacks.name in row.names else None


#: JAX's own words for a name (or an argument) a release of it removed, as it raises them:
#: its deprecation module's AttributeError for an entry without a function
#: (jax/_src/deprecations.py, deprecation_getattr: "jax.interpreters.xla.xe was removed in JAX
#: v0.4.36.", "jax.interpreters.xla.pytype_aval_mappings was deprecated in JAX v0.5.0 and
#: removed in JAX v0.7.0. jax.core.pytype_aval_mappings can be used ...") and the TypeError of
#: a removed argument ("The newshape argument to jnp.reshape was removed in JAX v0.4.36.").
#: The release is JAX's own; "will be removed" is a warning, not this.
_JAX_REMOVED = re.compile(
    r"^(?P<what>(?:The \w{1,100} argument to )?(?:jax|jnp|lax)(?:\.\w{1,100}){0,10}) was "
    r"(?:deprecated in JAX v[\d.]{1,20},? and )?removed in JAX v(?P<release>\d+\.\d+\.\d+)"
)
#: Where JAX's deprecation messages are written (the release notes name each removal).
_JAX_DEPRECATIONS = (
    "https://github.com/jax-ml/jax/blob/jax-v0.7.0/jax/_src/deprecations.py",
    "https://docs.jax.dev/en/latest/changelog.html",
)


def _user_of(tb: Traceback, own: str, frames: Sequence[Frame] = ()) -> str:
    """The library whose code asked ``own`` for what it lacks: the innermost installed frame
    outside it, by the distribution pip knows it by (skimage is scikit-image's) where the
    module table says; empty where no such frame shows (the user's own code). Where another
    library's own attribute hook raised it, the object is that library's, not ``own``'s, and
    that library is no user of the name: the user is sought outside it too. ``frames``: those
    to read where ``tb`` has none (the paste's frames below its message)."""
    frames = tb.frames or frames
    raiser = installed_package(frames[-1].path) if frames else None
    # PySpark's DataFrame.__getattr__ raises "'DataFrame' object has no attribute 'X'" in
    # Python's words for any name it lacks (apache/spark python/pyspark/sql/dataframe.py,
    # DataFrame.__getattr__): the frame that raised is PySpark's hook, not PySpark calling
    # pandas.
    hooked = (
        raiser is not None
        and raiser != own
        and frames[-1].function in ("__getattr__", "__getattribute__")
    )
    skip = {own, raiser} if hooked else {own}
    top = next(
        (
            top
            for top in (installed_package(f.path) for f in reversed(frames))
            if top is not None and top not in skip
        ),
        "",
    )
    return (distribution_of(top) or top) if top else ""


def _importer_of(frames: Sequence[Frame], own: str, user: str) -> str:
    """The installed library outermost on the import chain to ``user``'s code (distrax
    importing TensorFlow Probability's JAX substrate): the package the program imported,
    whose release decides which ``user`` it brings; empty where ``user``'s frame is the
    outermost one importing. Only frames of a module being imported count (its body,
    ``<module>``, or a line that is an import statement): a caller's frame (IPython running a
    cell, a training loop's ``fit``) imports nothing."""
    top = next(
        (
            top
            for top in (
                installed_package(f.path)
                for f in frames
                if f.function == "<module>" or IMPORT_STATEMENT.match(f.code)
            )
            if top is not None and top != own
        ),
        "",
    )
    dist = (distribution_of(top) or top) if top else ""
    return dist if dist and dist != user else ""


def _fell_back(tb: Traceback, tracebacks: Sequence[Traceback]) -> bool:
    """Whether the run went on from ``tb`` in the module that raised it: a later exception
    raised in the same file (``try: from scipy.misc import imread`` then ``except
    ImportError: from imageio import imread``) is the failure that counts, the first refusal
    the package's own fallback."""
    if not tb.frames:
        return False
    later = tracebacks[tracebacks.index(tb) + 1 :]
    return any(x.frames and x.frames[-1].path == tb.frames[-1].path for x in later)


def _shown_release(dist: str, m: Machine, listed: Mapping[str, str]) -> Optional[str]:
    """The release of ``dist`` the machine or the log's listing shows installed."""
    pkg = m.facts.package(dist)
    return pkg.version if pkg is not None else listed.get(normalize_name(dist))


def _class_is_own(
    tb: Traceback, own: str, dist: str, m: Machine, listed: Mapping[str, str]
) -> bool:
    """Whether the object whose attribute ``tb`` reports missing is of the package ``own``'s
    class: its code raised it (the innermost frame), or ``dist`` shows installed and no other
    installed package's code raised it."""
    raiser = installed_package(tb.frames[-1].path) if tb.frames else None
    if raiser == own:
        return True
    return raiser is None and _shown_release(dist, m, listed) is not None


def _installed_before(dist: str, release: str, m: Machine, listed: Mapping[str, str]) -> bool:
    """Whether the release of ``dist`` the machine or the log's listing shows installed
    comes before ``release``."""
    version = _shown_release(dist, m, listed)
    return version is not None and version_key(version) < version_key(release)


def removed_api_findings(
    tracebacks: Sequence[Traceback],
    m: Machine,
    listed: Optional[Mapping[str, str]] = None,
    signed: Collection[str] = (),
    loose: Sequence[Frame] = (),
) -> list[Finding]:
    """A name of a module that a release of its own distribution removed (the module table's
    ``removed_from_distribution``: Pillow 10's Image.ANTIALIAS; or JAX's own words naming the
    release, :data:`_JAX_REMOVED`): the code using it was written for an earlier release of
    that distribution. ``listed``: the versions a package listing in the log gives, where the
    machine's facts do not. ``signed``: the lines signatures cited, whose reading is theirs.
    ``loose``: frames the log shows outside any traceback read."""
    for tb in tracebacks:
        jax = _JAX_REMOVED.match(tb.message)
        if jax is not None:
            # A paste may give the message above its frames (the error first, then pytest's
            # or Python's frames cut before their end): those frames are its.
            frames = tb.frames or loose
            user = _user_of(tb, "jax", frames)
            via = _importer_of(frames, "jax", user) if user else ""
            what, release = jax.group("what"), jax.group("release")
            return [
                causes.finding(
                    f"explain.{causes.software.DEPENDENCY_API_REMOVED}",
                    Severity.ERROR,
                    causes.software.DEPENDENCY_API_REMOVED,
                    f"{what} is gone: jax {release} removed it",
                    f"{tb.where}: {tb.type}: {tb.message}\n"
                    + (
                        f"{user} (an installed package"
                        + (f", imported by {via}" if via else "")
                        + ") uses it."
                        if user
                        else "The code uses it."
                    ),
                    causes.software.release_removed_fix(
                        m, "jax", release, what, "what JAX's message names instead", user, via=via
                    ),
                    _JAX_DEPRECATIONS,
                )
            ]
        found = _removed_row(tb)
        if found is None or _fell_back(tb, tracebacks):
            continue
        module, name, row = found
        if any(tb.message in line for line in signed):
            # A signature reads the message as a cause of its own (TensorBoard's own code
            # asking its tensorboard.util of another release: two TensorBoards): its reading
            # is the specific one, as for dependency_caller_findings.
            continue
        if _installed_before(row.dist, row.removed_in, m, listed or {}):
            # A release before the removal lacks the name for another reason (SciPy 1.0 to
            # 1.2 define scipy.misc.imread only where Pillow is installed): not this reading.
            continue
        # The caller raised it: the innermost installed frame outside the distribution is the
        # library whose code uses the name (none: the user's own code).
        user = _user_of(tb, module.split(".", 1)[0])
        # A library the module table knows to use it: its row's fix (check's), and sources.
        known = causes.software.removed_api_user(m, module, name, user) if user else None
        return [
            causes.finding(
                f"explain.{causes.software.DEPENDENCY_API_REMOVED}",
                # An object's attribute names its class, not the module: another library's
                # class of that name is possible, so a warning, unless the distribution's own
                # code raised it (pandas' __getattr__), or the log shows the distribution in a
                # release without the method and no other installed package's code raised it
                # (PySpark's DataFrame raises the same words beside any pandas).
                Severity.WARNING
                if _object_member(tb) is not None
                and not _class_is_own(tb, module.split(".", 1)[0], row.dist, m, listed or {})
                else Severity.ERROR,
                causes.software.DEPENDENCY_API_REMOVED,
                f"{causes.software.removed_api_name(module, name)} is "
                + (
                    f"not imported: {row.dist} {row.removed_in} and later do not import it"
                    if row.unimported
                    else f"gone: {row.dist} {row.removed_in} removed it"
                ),
                f"{tb.where}: {tb.type}: {tb.message}\n"
                + (f"{user} (an installed package) uses it." if user else "The code uses it."),
                causes.software.removed_api_fix(m, module, name, user, bool(tb.frames)),
                (*known.links, *row.links) if known is not None else row.links,
            )
        ]
    return []


def numpy_removed_findings(
    tracebacks: Sequence[Traceback], m: Machine, shown: Optional[Mapping[str, str]] = None
) -> list[Finding]:
    """A library (TensorFlow, TensorBoard, Keras...) using a NumPy name the installed NumPy
    removed (or a keyword of a NumPy function, :func:`_numpy_keyword_removed`): that NumPy
    is newer than the library was written for. ``shown``: the distributions a ``pip show``
    in the log printed (the candidates where no frame names the code's package)."""
    for tb in tracebacks:
        keyword = _numpy_keyword_removed(tb, m)
        if keyword is not None:
            return [keyword]
        match = _NUMPY_NAME.search(tb.message)
        # NumPy's own words for a name it removed are the installed NumPy's, whatever the
        # frames' paths look like (a paste that cut site-packages off "numpy/__init__.py").
        if match is None or (match.group("removed") is None and _not_installed_numpy(tb)):
            continue
        name = match.group("name") or match.group("removed")
        release = match.group("release") or next(
            (r for r, names in NUMPY_REMOVED.items() if name in names), None
        )
        # The library whose code asked NumPy for the name: a frame of TensorFlow's family,
        # else the innermost frame past NumPy's own where it is an installed package's.
        family = next((o.dist for o in library_origins(tb)), "")
        package = PackageCode(family, family, "") if family else failing_package(tb, _NUMPY_ITSELF)
        if release is None:
            continue  # a name NumPy never had
        if package is None:
            # No frame shown, but the statement that raised it imports a library (TensorFlow
            # too): its code (run by the import) used the name, not the user's.
            imported = statement_import(tb, own=True)
            dist = imported[1] if imported is not None else ""
            # Importing NumPy runs no other code.
            package = PackageCode(dist, dist, "") if dist and dist != "numpy" else None
        if package is None:
            return [_numpy_name_in_code(tb, name, release, m, shown)]
        user = causes.common.package_named(package.module, package.dist)
        upgrade = causes.common.package_upgrade(m, package.module, package.dist)
        detail = (
            f"{tb.where}: {tb.type}: {tb.message}\n{_sentence_start(user)} uses np.{name}, "
            f"which NumPy {release} removed: the installed NumPy is newer than the installed "
            "release of it was written for."
        )
        declared = m.declared_range("numpy")
        if declared and not admits_below(declared, release):
            # No NumPy the installed TensorFlow runs with has the name: the library moves.
            cause = causes.code.NUMPY_NAME_REMOVED
            fix = Fix(
                f"TensorFlow declares numpy{declared}, and no NumPy in that range has "
                f"np.{name}: upgrade {user} to a release written for NumPy {release} or later.",
                upgrade,
            )
        elif version_key(release)[:1] >= (2,) and (user in TF_DISTRIBUTIONS or user in _TF_KERAS):
            # TensorFlow's own code, or the Keras released with it: a stack built for NumPy 1,
            # whose range excludes 2.
            cause, fix = causes.software.NUMPY_ABI, causes.software.numpy_abi_fix(m)
        elif version_key(release)[:1] >= (2,) or not (
            user in TF_DISTRIBUTIONS or user in _TF_KERAS
        ):
            # Another library's Python code written for a NumPy before the release that
            # removed the name (1.24's np.bool, 2.0's, 2.4's in1d): the name is what breaks.
            # TensorFlow's own code is held by the NumPy range it declares (below).
            cause = causes.code.NUMPY_NAME_REMOVED
            # Below the release that removed the name and inside TensorFlow's own range (its
            # range alone may admit the NumPy installed, which changes nothing).
            fix = Fix(
                f"Upgrade {user} to a release written for NumPy {release} ("
                # pip's own command, the last (an externally managed Python's starts a venv).
                + (f"`{upgrade[-1]}`" if package.dist else f"`{upgrade[-1]}` names it")
                + "), or "
                f"install a NumPy older than {release} (which still has np.{name}) until there "
                "is one.",
                m.install(f"numpy<{release}" + (f",{declared}" if declared else "")),
            )
        else:
            cause = causes.software.DEPENDENCY_OUT_OF_RANGE
            fix = causes.common.declared_range_fix(
                m,
                "numpy",
                f"numpy<{release}",
                f"Install a NumPy older than {release}, which still has np.{name} (or upgrade "
                f"{user} to a release written for the newer NumPy).",
            )
        return [
            causes.finding(
                f"explain.{cause}",
                Severity.ERROR,
                cause,
                f"{_sentence_start(user)} uses np.{name}, removed in NumPy {release}",
                detail,
                fix,
            )
        ]
    return []


#: NumPy's own import package: its ``__getattr__`` raises the AttributeError for the caller.
_NUMPY_ITSELF = frozenset({"numpy"})


def _not_installed_numpy(tb: Traceback) -> bool:
    """Whether the ``numpy`` that lacks the name is not the installed NumPy: a file of the
    user's own named numpy.py (or a numpy/ folder) among the frames, Python 3.13's note
    naming such a file ("consider renaming"), or a module still importing itself ("partially
    initialized module"). No NumPy release is at fault there (shadowed_module_findings)."""
    lacks = tb.missing_attribute
    if (lacks is not None and lacks.shadowing) or tb.circular_import is not None:
        return True
    return any(own_module_file(frame, "numpy") for frame in tb.frames)


#: What NumPy 1.24 says to write instead of each builtin alias it removed (its release notes).
_BUILTIN_ALIASES = {
    "object": "object",
    "bool": "bool",
    "int": "int",
    "float": "float",
    "complex": "complex",
    "str": "str",
}


#: What NumPy's release notes name in place of a removed function whose AttributeError says
#: none: `asscalar` (1.16.0 notes: an alias of ndarray.item), `alen` (1.18.0 notes: len),
#: `msort` (2.0.0 notes), `product`, `cumproduct`, `sometrue`, `alltrue` (the NumPy 2.0
#: migration guide's main-namespace table) and `in1d` (2.0.0 notes: deprecated for isin).
_NUMPY_REPLACEMENTS = {
    "asscalar": "a.item()",
    "alen": "len(a)",
    "msort": "np.sort(a, axis=0)",
    "product": "np.prod",
    "cumproduct": "np.cumprod",
    "sometrue": "np.any",
    "alltrue": "np.all",
    "in1d": "np.isin",
}


def _numpy_name_in_code(
    tb: Traceback, name: str, release: str, m: Machine, shown: Optional[Mapping[str, str]] = None
) -> Finding:
    """The user's own code (no library frame) using a name NumPy ``release`` removed: change
    the code, or hold NumPy back until it is changed. Where no frame is shown at all and a
    ``pip show`` printed other packages (``shown``: neither NumPy nor TensorFlow's own), those
    are named as the packages whose code it may be."""
    said = re.search(r"Use `(?P<use>[\w.]+)` instead", tb.message)
    instead = (
        said.group("use") if said else _BUILTIN_ALIASES.get(name) or _NUMPY_REPLACEMENTS.get(name)
    )
    write = (
        f"write `{instead}` instead of `np.{name}`"
        if instead
        else f"replace `np.{name}` with the name NumPy's message gives"
    )
    where = next(
        (
            f"{f.path}, line {f.line}"
            for f in reversed(tb.frames)
            # NumPy's own __getattr__ frame is not the code, installed or cut to numpy/.
            if not origin_of(f.path).installed and not own_module_file(f, "numpy")
        ),
        "the code",
    )
    declared = m.declared_range("numpy")
    # The packages a `pip show` printed beside the failure, where no frame says whose code it
    # is: the user inspected them, so they are the candidates (in words, not run blindly).
    candidates = (
        [
            (dist, version)
            for dist, version in (shown or {}).items()
            if dist != "numpy" and dist not in TF_DISTRIBUTIONS
        ][:3]
        if not tb.frames
        else []
    )
    which = (
        " (a `pip show` in the log shows "
        + ", ".join(f"{dist} {version}" for dist, version in candidates)
        + " installed; for its code: "
        + " or ".join(f"`pip install --upgrade {dist}`" for dist, _ in candidates)
        + ")"
        if candidates
        else ""
    )
    if declared and not admits_below(declared, release):
        # TensorFlow's own floor is at or above the release that removed the name: no NumPy
        # it runs with has it, so holding NumPy back would break TensorFlow instead.
        fix = Fix(
            f"In the code, {write}: TensorFlow {m.tf.version if m.tf else ''} declares "
            f"numpy{declared}, and no NumPy in that range has np.{name}. Where the code is a "
            f"package's{which}, upgrade that package to a release written for NumPy {release} "
            "or later.",
            (),
        )
    else:
        fix = Fix(
            f"In the code, {write}"
            + (
                f"; where it is a package's{which}, upgrade that package to a release written "
                f"for NumPy {release}"
                if which
                else ""
            )
            + f". Until the code is changed, a NumPy older than {release} runs it (inside the "
            "range TensorFlow declares).",
            m.install(f"numpy<{release}" + (f",{declared}" if declared else "")),
        )
    return causes.finding(
        "explain.numpy-name-removed",
        Severity.ERROR,
        causes.code.NUMPY_NAME_REMOVED,
        f"The code uses np.{name}, removed in NumPy {release}",
        f"{tb.where}: {tb.type}: {tb.message}\nThe code ({where}) was written for a NumPy "
        f"older than {release}.",
        fix,
    )


def numpy_extension_package(tracebacks: Sequence[Traceback]) -> Optional[PackageCode]:
    """The package whose compiled extension NumPy refused, as a traceback's frames name it,
    where it is not TensorFlow's family (TensorFlow's own build has the range it declares)."""
    found = numpy_refuser(tracebacks)
    if found is None or found.module in modules().family or found.dist in TF_DISTRIBUTIONS:
        return None
    return found


def _numpy_build(build: NumpyBuild, m: Machine, package: Optional[PackageCode]) -> Finding:
    """An extension NumPy refused: built for NumPy 1 under NumPy 2 (the ABI changed), or for
    a newer NumPy than the one running (whose C API lacks what it calls). ``package``: whose
    extension it is, where the frames show it."""
    module, dist = (package.module, package.dist) if package is not None else ("", "")
    of = f" of {causes.common.package_named(module, dist)}" if package is not None else ""
    built = "1.x" if build.built == "1.0" else build.built  # the ABI of every NumPy 1
    said = (
        f"NumPy refused an extension module built for NumPy {built} (C API or ABI); "
        f"the NumPy running is {build.running} or a release of the same C API."
    )
    if version_key(build.built)[:1] < (2,) <= version_key(build.running)[:1]:
        return causes.finding(
            "explain.numpy-abi",
            Severity.ERROR,
            causes.software.NUMPY_ABI,
            f"An extension{of} built for NumPy 1 runs under NumPy 2",
            said,
            causes.software.numpy_abi_fix(m, module, dist),
        )
    return causes.finding(
        "explain.dependency-out-of-range",
        Severity.ERROR,
        causes.software.DEPENDENCY_OUT_OF_RANGE,
        f"An extension{of} built for NumPy {build.built} runs under an older NumPy",
        said,
        causes.software.numpy_newer_build_fix(m, build.built, module, dist),
    )


# --- a package reaching into TensorFlow's private modules ---------------------------------------

# `tensorflow.python.*` is private: it changes between minors, and a package that imports from
# it runs only with the TensorFlow it was built against (Keras 2 before 2.16, TensorFlow
# Probability, Addons, Text...). A name missing there, raised in such a package's frames, is
# that package's release against another TensorFlow
# (https://www.tensorflow.org/guide/versions#what_is_covered: tensorflow.python is not).
_PRIVATE = re.compile(
    # Not the tf.keras API trees TensorFlow served from python.keras.api (public): _v2, 2.0 to
    # 2.5's tf.keras; _v1, 1.14 and 1.15's tf.keras and 2.0 to 2.5's tf.compat.v1.keras.
    r"module '(?:tensorflow|tensorflow_core)\.python(?![\w.]*\.api\._v[12])[\w.]*' has no "
    r"attribute '\w+'"
    r"|cannot import name '\w+' from '(?:tensorflow|tensorflow_core)\.(?:python|core)[\w.]*'"
    r"|No module named '(?:tensorflow|tensorflow_core)\.(?:python|core)[\w.]*'"
    # tf.__internal__ (2.5 on) is the API TensorFlow keeps for Keras and its own family, with
    # no compatibility promise either (tensorflow/python/util/tf_export.py: "internal APIs,
    # not covered by the guarantees"); Keras 2 (keras 2.6 to 2.15, tf-keras) calls it.
    r"|module 'tensorflow(?:\._api\.v2)?(?:\.compat\.v[12])?\.__internal__[\w.]*' has no "
    r"attribute '\w+'"
)

#: A module of tf.__internal__ (its missing name's caller is a Keras 2 when no frame says
#: otherwise), and of TensorFlow's private Keras copy (which imported: the name is missing).
_INTERNAL = re.compile(r"\.__internal__(?:\.|$)")
_PRIVATE_KERAS = re.compile(r"^(?:tensorflow|tensorflow_core)\.python\.keras")


def _attribute_of(tb: Traceback, module: re.Pattern[str]) -> bool:
    """Whether ``tb``'s message says a module whose name ``module`` matches lacks an
    attribute (the evidence layer's reading of ``module 'M' has no attribute 'X'``)."""
    lacks = tb.missing_attribute
    return lacks is not None and lacks.module and module.search(lacks.owner) is not None


#: Keras' HDF5 loaders (TensorFlow's keras/saving/hdf5_format.py, standalone Keras 2's
#: engine/saving.py, and before it Keras 2.0-2.1's engine/topology.py, whose
#: load_weights_from_hdf5_group calls f.attrs['keras_version'].decode('utf8'): keras-team/keras
#: at 2.1.6) called .decode on attributes h5py 2 returned as bytes; h5py 3 returns str
#: (h5py 3.0 release notes), so loading a model raises this until TensorFlow 2.5 / Keras 2.5.
_HDF5_LOADER = re.compile(r"hdf5_format\.py|[/\\]engine[/\\](?:saving|topology)\.py")


#: A line of code that decodes an HDF5 attribute it read (``f.attrs['keras_version'].
#: decode('utf8')``, ``attrs.get('backend').decode``): h5py 2 returned variable-length string
#: attributes as bytes, h5py 3 returns str (h5py 3.0 "What's new": "Variable-length string
#: attributes are now read as str objects", https://docs.h5py.org/en/stable/whatsnew/3.0.html).
_ATTRS_DECODED = re.compile(
    r"\.attrs(?:\[[^\]]+\]|\.get\([^)]*\))\.decode\("
    # Keras' own attributes read into a variable first, then decoded: Keras 2.0-2.1's
    # keras/models.py load_model (model_config = f.attrs.get('model_config'), then
    # json.loads(model_config.decode('utf-8')); keras-team/keras at 00d1e46c) and the loaders
    # copied from it.
    r"|\b(?:model_config|training_config|keras_version|backend)\.decode\("
)


def h5py_str_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """``'str' object has no attribute 'decode'`` raised in Keras' HDF5 loader, or in an
    installed library's line that decodes an HDF5 attribute: h5py 3 under code that expects
    h5py 2's bytes."""
    for tb in tracebacks:
        if "'str' object has no attribute 'decode'" not in tb.message:
            continue
        fix = causes.software.h5py_bytes_fix(m)
        last = tb.frames[-1] if tb.frames else None
        top = installed_package(last.path) if last is not None else None
        if (
            last is not None
            and top is not None
            and top not in TF_OWN
            and _ATTRS_DECODED.search(last.code)
        ):
            # A library's own HDF5 reader (a model zoo's weight loader), not Keras': the same
            # h5py 3 change, whose other way out is that library's release.
            dist = library_dist(top, last.path)
            if not known_distribution(dist) and egg_release(last.path) is None:
                # An import name no table or egg maps to its distribution: no name to upgrade.
                dist = f"the {top} package"
            return [
                causes.finding(
                    f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
                    Severity.ERROR,
                    causes.software.DEPENDENCY_OUT_OF_RANGE,
                    f"h5py 3 under {dist}'s HDF5 reader, written for h5py 2",
                    f"{tb.where}: {tb.type}: {tb.message}\n{dist} ({last.path}) decodes an "
                    "HDF5 attribute that h5py 2 returned as bytes and h5py 3 returns as str.",
                    causes.software.h5py_bytes_fix(m, dist),
                )
            ]
        if any(_HDF5_LOADER.search(f.path) for f in tb.frames[-3:]) or (
            last is not None and top in TF_OWN and _ATTRS_DECODED.search(last.code)
        ):
            return [
                causes.finding(
                    f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
                    Severity.ERROR,
                    causes.software.DEPENDENCY_OUT_OF_RANGE,
                    "h5py 3 under a Keras HDF5 loader written for h5py 2",
                    f"{tb.where}: {tb.type}: {tb.message}\nThe loader ({tb.frames[-1].path}) "
                    "decodes attributes that h5py 2 returned as bytes and h5py 3 returns as str.",
                    fix,
                )
            ]
        h5py = m.facts.package("h5py")
        if (
            tb.frames
            or (m.tf is not None and version_key(m.tf.version) >= (2, 5))
            or (h5py is not None and version_key(h5py.version) < (3,))
        ):
            # The frames name the code that decoded and it is not Keras' loader; or the log
            # shows a TensorFlow whose loader reads h5py 3's strings, or an h5py 2.
            continue
        # The message pasted without its frames: of the code that meets TensorFlow, Keras'
        # HDF5 loader is where it is raised (every load_model of an .h5 file under TensorFlow
        # before 2.5 with h5py 3); Python 2 code calling .decode on a str is the other
        # candidate, which only the traceback's last frame tells apart.
        return [
            causes.finding(
                f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
                Severity.WARNING,
                causes.software.DEPENDENCY_OUT_OF_RANGE,
                "Most likely h5py 3 under a Keras HDF5 loader written for h5py 2",
                f"{tb.where}: {tb.type}: {tb.message}\nThe log shows no frames. Keras' HDF5 "
                "loader of TensorFlow before 2.5 (keras/saving/hdf5_format.py) and of "
                "standalone Keras before 2.4 (keras/engine/saving.py) decodes attributes "
                "that h5py 2 returned as bytes and h5py 3 returns as str: if the traceback's "
                "last frame is one of those files, this is the cause. If it is other code, "
                "that code calls .decode on a str (Python 2 code): fix it there instead.",
                fix,
            )
        ]
    return []


def incomplete_install_findings(
    tracebacks: Sequence[Traceback], m: Machine, frozen: bool = False
) -> list[Finding]:
    """TensorFlow's own code failing to import one of its own modules: its files on disk are
    incomplete (not in a frozen program, whose bundle the freezer's hooks made: its reading;
    ``frozen``, the log shows one, :mod:`tfdoctor.evidence.frozen`)."""
    if frozen:
        return []
    for tb in tracebacks:
        module = own_module_missing(tb)
        if module is None:
            continue
        return [
            causes.finding(
                f"explain.{causes.software.TF_INSTALL_INCOMPLETE}",
                Severity.ERROR,
                causes.software.TF_INSTALL_INCOMPLETE,
                f"TensorFlow's own module {module} is missing: its files are incomplete",
                f"{tb.where}: {tb.type}: {tb.message}\n{_whose_import(tb)}",
                # A module every release installs may be missing from the build itself.
                causes.runtime.unreleased_reinstall_fix(
                    m, causes.software.incomplete_install_fix(m)
                ),
            ),
            *two_distributions_candidate(m),
        ]
    return []


#: The distributions a user most often has two of in one environment: the stable, GPU and CPU
#: builds, the Windows and macOS wrappers pip pulls in beside them (2.12-2.17, 2.13-2.15) and
#: the nightlies; each writes the same ``tensorflow`` folder (facts.TF_DISTRIBUTIONS).
_OFTEN_PAIRED = (
    "tensorflow",
    "tensorflow-cpu",
    "tensorflow-gpu",
    "tensorflow-intel",
    "tensorflow-macos",
    "tf-nightly",
    "tf-nightly-cpu",
    "tf-nightly-gpu",
)


def two_distributions_candidate(m: Machine) -> list[Finding]:
    """The other reading of TensorFlow's files of two releases in its one folder: not an
    install that stopped half way, but two TensorFlow distributions (tensorflow and
    tensorflow-gpu, a tf-nightly beside a release) that each write that folder, so installing
    or upgrading one leaves the other's files mixed with its own. Ranked second, as a
    warning: the log shows no listing that tells them apart. None where it shows the
    environment holds one TensorFlow distribution only."""
    shown = m.tf_providers
    if len(shown) == 1:
        return []
    names = list(dict.fromkeys([*(p.name for p in shown), *_OFTEN_PAIRED]))
    keep = m.tf
    spec = (
        f"{_installable(m, keep.name, keep.version)}=={keep.version}"
        if keep is not None
        else "tensorflow"
    )
    return [
        causes.other_candidate(
            causes.software.TF_MULTIPLE_DISTRIBUTIONS,
            "two TensorFlow distributions in one environment",
            "tensorflow, tensorflow-gpu, tensorflow-cpu and the tf-nightly builds all install "
            "into the same tensorflow folder: where two of them are installed, installing or "
            "upgrading one writes its files over the other's, and TensorFlow's own imports "
            "meet the files of two releases, as an interrupted install leaves them. `pip list` "
            "tells the two candidates apart: more than one of them listed is this one.",
            Fix(
                "List the TensorFlow distributions installed; where more than one is, remove "
                "them all (tf-nightly included) and install exactly one.",
                (
                    *m.pip("list"),
                    *m.pip(f"uninstall -y {' '.join(names)}"),
                    *m.pip_install(spec),
                ),
            ),
        )
    ]


def _whose_import(tb: Traceback) -> str:
    """Why the missing module says the install is incomplete: TensorFlow's own import, or a
    module every release installs."""
    if tb.frames and origin_of(tb.frames[-1].path).dist == "tensorflow":
        return (
            f"The import is TensorFlow's own ({tb.frames[-1].path}), of a module its wheel "
            "installs."
        )
    return (
        "Every TensorFlow release installs that module: the tensorflow package that imported "
        "has lost its files (an interrupted install or uninstall, or a broken build)."
    )


_FROM_IMPORT = re.compile(r"^\s*from\s+(?P<module>[\w.]+)\s+import\b")


def _private_message(tb: Traceback) -> str:
    """The exception's message, with the module an old Python left out taken from the import
    line of the innermost frame that names the missing name."""
    # Python before 3.7 printed `cannot import name 'X'` without the module: the import
    # statement the innermost frame shows names it.
    bare = tb.missing_name
    if bare is None or bare.module or not bare.quoted:
        return tb.message
    for code in (*(frame.code for frame in reversed(tb.frames)), tb.statement):
        found = _FROM_IMPORT.match(code or "")
        if found is not None and bare.name in code:
            return f"cannot import name '{bare.name}' from '{found.group('module')}'"
    return tb.message


#: Modules of TensorFlow's family a user's own file is often named after (`tensorflow.py`).
_SHADOWABLE = ("tensorflow", "keras", "numpy", "tensorboard")


def _named_top_module(tb: Traceback) -> Optional[str]:
    """The top-level module the message names as lacking a name (``module 'keras' has no
    attribute``, a module still importing included; ``cannot import name 'X' from 'keras'``),
    or as found as a plain module for a dotted import of its submodule (importlib's ``;
    'keras' is not a package``); None where it names no such module."""
    lacks = tb.missing_attribute
    if lacks is not None and lacks.module and lacks.owner:
        return lacks.owner if "." not in lacks.owner else None
    asked = tb.missing_name
    if asked is not None and asked.module:
        return asked.module if "." not in asked.module else None
    gone = tb.missing_module
    plain = gone.not_a_package if gone is not None else ""
    return plain if plain and "." not in plain else None


#: Python's refusal of a keyword argument (Python/ceval.c: "%U() got an unexpected keyword
#: argument '%S'").
_KEYWORD_REFUSED = re.compile(r"got an unexpected keyword argument '(?P<kw>\w+)'")


@record
class _Asked(Record):
    """A TensorFlow name a caller asked for, as :func:`_tf_asked` reads it: a module and its
    name, or one other field."""

    #: The module a name was asked of (an attribute, or a ``from`` import's name).
    module: Optional[str] = None
    #: That name.
    attr: Optional[str] = None
    #: A keyword argument refused.
    kw: Optional[str] = None
    #: Python 2's (and 3.0's to 3.4's) ``'module' object has no attribute 'nest'``: a name of
    #: a module the words do not name.
    unnamed_attr: Optional[str] = None
    #: ``tensorflow_core`` missing: TensorFlow 1.15 to 2.1 kept their code there (the
    #: tensorflow package forwarded to it); neither earlier nor later releases have it.
    core: Optional[str] = None
    #: A module of TensorFlow's public tree the installed release does not have.
    tf_submodule: Optional[str] = None


def _tf_asked(tb: Traceback) -> Optional[_Asked]:
    """A name a caller asked for that the message says is missing, as the evidence layer
    reads Python's words: an attribute or an import of a named module, a keyword argument, a
    name Python 2's words leave unnamed, or a module of TensorFlow's own trees; else None."""
    lacks = tb.missing_attribute
    if lacks is not None and lacks.module and lacks.owner:
        return _Asked(module=lacks.owner, attr=lacks.name)
    asked = tb.missing_name
    if asked is not None and asked.module:
        return _Asked(module=asked.module, attr=asked.name)
    refused = _KEYWORD_REFUSED.search(tb.message)
    if refused is not None:
        return _Asked(kw=refused.group("kw"))
    if lacks is not None and lacks.module_object and not lacks.before:
        return _Asked(unnamed_attr=lacks.name)
    gone = tb.missing_module
    if gone is None or not gone.quoted:
        return None
    if gone.name.split(".")[0] == "tensorflow_core":
        return _Asked(core="tensorflow_core")
    return _Asked(tf_submodule=gone.name) if gone.name.startswith("tensorflow.") else None


def asked_fix(
    m: Machine,
    dist: str,
    message: str,
    asked: str,
    module: Optional[str],
    base: Optional[Fix] = None,
    listed: str = "",
) -> Fix:
    """The fix of ``dist``'s code asking TensorFlow for what the installed one lacks: for a
    keyword Python refused (``message``), the line that brought it where the API table or the
    signature listings know (:func:`refused_call_fix`; ``listed``: the public name the line
    calls with it); else the lines whose API has the name asked (:func:`_with_lines`).
    ``base``: the cause's own fix those lines complete (the library's release,
    :func:`library_fix`, by default)."""
    fix = base if base is not None else library_fix(m, dist)
    refused = read_refusal(message)
    if refused is not None and refused.shape == KEYWORD:
        return refused_call_fix(m, dist, refused, fix, listed=listed)
    return _with_lines(fix, asked, module, m, dist)


def _with_lines(fix: Fix, asked: str, module: Optional[str], m: Machine, dist: str = "") -> Fix:
    """``fix`` with the TensorFlow lines whose public API has what was asked (a module or a
    name; from the bundled API listings of the 1.x and 2.x lines, and before them TensorFlow's
    release notes, :func:`tfdoctor.scan.api.name_releases`), where a listed line has it: the
    releases the package fits. Where the log shows a TensorFlow older than every such release,
    the package ``dist`` is newer than it, and the fix is TensorFlow of one of those lines. A
    name only 1.x lines have says the package was written for TensorFlow 1: the fix adds the
    last 1.x line, installed where the log's Python has its wheels."""
    from tfdoctor.scan.api import bundled_lines, name_releases, tf1_lines  # noqa: PLC0415

    if module is None or not asked.startswith("tf.") or "__" in asked.replace(module, ""):
        return fix
    tf1 = sorted(tf1_lines(), key=version_key)
    lines = [*tf1, *sorted(bundled_lines(), key=version_key)]
    # A module is a listed module of its own (a dunder part such as __internal__ would pass a
    # name lookup as an attribute every module has).
    releases = name_releases(asked, module == asked)
    if not lines or not set(releases.having) & set(lines):
        return fix  # no listed line has it: the release notes' names are answered elsewhere
    notes = (
        f", TensorFlow's release notes the releases before {lines[0]}"
        if releases.first not in lines
        else ""
    )
    text = (
        f"{fix.text} TensorFlow {releases.span()} has {asked} (the public API of each line; "
        f"the listings cover {lines[0]} to {lines[-1]}{notes})."
    )
    first = releases.first
    known = known_distribution(dist) or m.facts.package(dist) is not None
    if dist and m.tf is not None and version_key(m.tf.version)[:2] < version_key(first)[:2]:
        # The log's TensorFlow is older than every release with the name: the package's
        # release is newer than it, and only TensorFlow of such a line (or an older package)
        # fits.
        return causes.software.library_newer_fix(
            m, dist, m.tf.version, releases.span(), first, releases.since(), known
        )
    side = _lacking_side(m, releases) if dist and m.tf is None else "newer"
    if side == "older":
        # No release shown, but every line this Python has wheels for that lacks the name is
        # older than its first: the package is newer than the installed TensorFlow.
        python = m.python_version
        which = f"line with wheels for Python {python}" if python else "release"
        basis = f" (every TensorFlow {which} that lacks the name is older than {first})"
        return causes.software.library_newer_fix(
            m, dist, None, releases.span(), first, releases.since(), known, basis
        )
    if side is None:
        # Which side the installed TensorFlow lies on is not known: an upgrade of the package
        # moves it further off a TensorFlow older than the name, so none is run blind.
        upgrade = set(causes.software.library_upgrade(m, dist))
        fix = Fix(fix.text, tuple(c for c in fix.commands if c not in upgrade))
    if tf1 and releases.having[-1] in tf1:
        # Only 1.x lines have it: the package is TensorFlow 1 code (TensorFlow 2 moved such
        # names to tf.compat.v1 or dropped them), which runs on the last 1.x line as written.
        return _tf1_way(Fix(text, fix.commands), tf1[-1], m)
    return Fix(text, fix.commands)


def _lacking_side(m: Machine, releases: NameReleases) -> Optional[str]:
    """Where the installed TensorFlow, whose release the log does not show, lies against the
    releases that have a name it lacks: ``older`` where every release this Python has wheels
    for (the matrix's lines and earlier releases; any Python where it is not shown) without
    the name is older than the first with it, ``newer`` where every such is newer than the
    last with it, None where they lie on both sides or none is known."""
    if m.matrix is None or not releases.having:
        return None
    python = m.python_version
    minor = ".".join(python.split(".")[:2]) if python else ""
    having = {version_key(r)[:2] for r in releases.having}
    lines: list[tuple[int, ...]] = [x.key for x in m.matrix.releases if x.has_wheels_for(python)]
    lines += [
        version_key(e.release)[:2]
        for e in m.matrix.early_releases
        if any(not minor or minor in ps for ps in e.python.values())
    ]
    lacking = [key for key in lines if key not in having]
    if not lacking:
        return None
    if all(key < version_key(releases.first)[:2] for key in lacking):
        return "older"
    if all(key > version_key(releases.having[-1])[:2] for key in lacking):
        return "newer"
    return None


def _tf1_way(fix: Fix, last: str, m: Machine) -> Fix:
    """``fix`` with the last TensorFlow 1 line (``last``) as the way to run a package written
    for TensorFlow 1 as it is, its command only where the log shows a Python that line has
    wheels for (the matrix's): never a Python or release the log does not show."""
    from tfdoctor.compat import install_requirement  # noqa: PLC0415 - compat imports causes

    entry = m.matrix.line_for(last) if m.matrix is not None else None
    said = (
        f"{fix.text} No TensorFlow 2 line has it: the package was written for TensorFlow 1. "
        f"Install its release written for TensorFlow 2 where there is one, or run it as it "
        f"is with TensorFlow {last}, the last 1.x line"
    )
    if entry is None:
        return Fix(said + ".", fix.commands)
    pythons = sorted({p for ps in entry.python.values() for p in ps}, key=version_key)
    span = f" (Python {pythons[0]} to {pythons[-1]})" if pythons else ""
    python = m.python_version
    if python is None:
        return Fix(f"{said}{span}: check `python -V` first.", fix.commands)
    release = m.release_of_line(entry)
    if release is None:
        return Fix(
            f"{said}{span}, in an environment of such a Python: TensorFlow {last} has no wheel "
            f"for Python {python} here.",
            fix.commands,
        )
    # Its latest patch lacks a wheel for this Python where an earlier one has it (the
    # matrix's row for that patch: 1.15.0 for Python 2.7): that patch, said as such.
    which = (
        f"; for Python {python}, {release}, its last release with wheels for it"
        if release != entry.latest_patch
        else ""
    )
    return Fix(
        f"{said}{span}{which}.",
        (*fix.commands, *m.pip_install(install_requirement(entry, m.target, release))),
    )


def _caller_index(tb: Traceback, packages: Sequence[Optional[str]], named: bool) -> Optional[int]:
    """The index of the innermost frame of an installed package outside TensorFlow's own
    (``packages``: each frame's), or None. Where a name is asked (``named``) and the user's own
    code follows that frame (a model function the package's trainer called back), the user's
    line asked it: no package's frame is the caller."""
    index = next(
        (i for i in range(len(packages) - 1, -1, -1) if packages[i] and packages[i] not in TF_OWN),
        None,
    )
    if index is not None and named and any(users_own(f.path) for f in tb.frames[index + 1 :]):
        return None
    refusal = read_refusal(tb.message)
    if (
        index is not None
        and index < len(packages) - 1
        and refusal is not None
        and refusal.shape == KEYWORD
        and not call_passed_through(tb, tb.frames[index], refusal.function)
    ):
        # A keyword refused in a later frame's call of its own (Keras' calling TensorFlow's
        # function, tf.function calling the package's own): not the package's call.
        return None
    return index


def went_on_note(finding: Finding, went: Optional[str]) -> Finding:
    """``finding``, read from an exception, as a note where ``went`` (the log's words for the
    work done after it) shows the run went on after that exception: a library logged it
    (``logger.exception``) and carried on, so what the work done refutes is a note (observed
    beats inferred), and any other reading of it no problem either. Unchanged where ``went``
    is None."""
    if went is None:
        return finding
    noted = observed.overrule_seen(finding, {"run-went-on": went})
    if noted.severity.rank <= Severity.INFO.rank:
        return noted
    return dataclasses.replace(noted, severity=Severity.INFO, detail=f"{went}.\n{noted.detail}")


def foreign_caller_findings(
    tracebacks: Sequence[Traceback], m: Machine, logged: Optional[Mapping[str, str]] = None
) -> list[Finding]:
    """An installed package outside TensorFlow's own asking TensorFlow for a public name or
    keyword argument it does not have (what scan's rules do not call a removal): that package
    was written for another TensorFlow release. The caller is the innermost installed frame
    that is not TensorFlow's; for a keyword, TensorFlow's frame must follow it (the callee).
    A note where the run went on after the exception (``logged``, :func:`went_on_note`)."""
    from tfdoctor.scan.knowledge import tf_public_name  # noqa: PLC0415 - scan loads on demand

    for tb in tracebacks:
        match = _tf_asked(tb)
        if match is None or own_module_missing(tb):
            continue
        module = match.module or match.tf_submodule
        if (match.core or match.tf_submodule) and not tb.frames:
            continue  # the package that imported it is not shown
        if module is not None:
            api = tf_public_name(module)
            if api is None:
                continue
            shown = m.tf.version if m.tf is not None else None
            if not match.tf_submodule and release_has(shown, f"{api}.{match.attr}"):
                continue  # the log's TensorFlow has the name: no release pairing explains it
        packages = [installed_package(f.path) for f in tb.frames]
        index = _caller_index(tb, packages, module is not None)
        unseen_callee = False
        called: Optional[str] = None
        wrapped = (
            library_caller(tb) if (not tb.frames or index is None) and module is not None else None
        )
        if wrapped is not None:
            # No frame shown, but a lazy-import wrapper names the library's module whose
            # import asked TensorFlow for the name; or the user's last frame shown imports
            # the library, whose own frames the paste cut.
            top, where = wrapped
        elif index is not None:
            top, where = packages[index] or "", tb.frames[index].path
            if (
                module is None
                and not match.core
                and not any(p in TF_OWN for p in packages[index + 1 :])
            ):
                # Python raises a refused keyword in the caller's frame: the callee is shown
                # only where a wrapper of TensorFlow's took the call. A package written
                # against TensorFlow refusing in its own innermost frame called, most often,
                # TensorFlow (a warning: the callee is not shown); any other frame after it
                # is another callee's.
                known = distribution_of(top)
                written = (
                    _written_for_tensorflow(top)
                    or (known is not None and m.companion(known) is not None)
                    # The frame's module is the library's TensorFlow front end (coremltools'
                    # frontend/tensorflow2/, JAX's jax2tf/): what it calls is TensorFlow's.
                    or tensorflow_facing(tb.frames[index].path)
                )
                if index != len(packages) - 1:
                    continue
                # The line printed may name the callee: a call of TensorFlow's own, written
                # from tf., given the refused keyword (any library's, the table's or not).
                called = tf_call_refused(tb.message, tb.frames[index].code)
                # Where the log's TensorFlow takes the keyword, the callee is not its function.
                if (
                    (not written and called is None)
                    or (called is not None and _shown_tf_takes(m, called, tb.message))
                    or _table_takes(m, tb.message)
                ):
                    continue
                unseen_callee = called is None
        else:
            # No frame shown: the package an interactive `import X` above the error imported
            # asked TensorFlow, as it imported (a name TensorFlow's own import lacks is not
            # asked of it by the user).
            unnamed = match.unnamed_attr is not None
            statement = statement_library(tb, m)
            if (module is None and not unnamed) or statement is None:
                continue
            top, where = statement, f"`{tb.statement}`"
        dist = library_dist(top, where)
        asked = (
            (api or "")
            if match.tf_submodule
            else f"{api}.{match.attr}"
            if module
            else "tensorflow_core, where TensorFlow 1.15 to 2.1 kept their code"
            if match.core
            else f"a module's {match.unnamed_attr}"
            if match.unnamed_attr
            else (f"the keyword {match.kw}")
        )
        unnamed = match.unnamed_attr is not None
        said = (
            f"{dist} ({where}) asks a module it does not name (Python 2's message) for "
            f"{match.unnamed_attr} as it is imported: most often TensorFlow's, when the "
            f"{dist} release and the TensorFlow release do not go together."
            if unnamed
            else f"{dist} ({where}) asks TensorFlow for {asked}, which the installed TensorFlow "
            f"does not have: the {dist} release and the TensorFlow release do not go together."
        )
        if called is not None:
            said = (
                f"{dist} ({where}) calls TensorFlow's {called} with {asked}, which the "
                f"installed TensorFlow's {called} does not take: the {dist} release and the "
                "TensorFlow release do not go together."
            )
        if unseen_callee:
            said = (
                f"{dist} ({where}) passes {asked}, which the function it calls does not take; "
                f"{dist} is written against TensorFlow, so that function is most likely "
                f"TensorFlow's (the traceback does not show it): the {dist} release and the "
                "TensorFlow release do not go together."
            )
        found = causes.finding(
            f"explain.{causes.software.COMPANION_MISMATCH}",
            Severity.WARNING if unnamed or unseen_callee else Severity.ERROR,
            causes.software.COMPANION_MISMATCH,
            f"{dist} was written for another TensorFlow release (it asks for {asked})",
            f"{tb.where}: {tb.type}: {tb.message}\n{said}",
            asked_fix(
                m,
                dist,
                tb.message,
                asked,
                asked if match.tf_submodule else module,
                listed=called or "",
            ),
        )
        return [went_on_note(found, (logged or {}).get(tb.where))]
    return []


def keyword_added(rules: Rules, func: str, kwarg: str) -> Optional[tuple[list[str], str, str]]:
    """The TensorFlow names of the function ``func`` that took ``kwarg`` only from a later 1.x
    release, with that release and the argument's older name, from the scan rule of the older
    name that says so (its ``renamed_to``, ``renamed_in`` and ``renamed_api``: 1.0's ``axis``
    for the reductions' ``reduction_indices``, 1.5's ``keepdims`` for ``keep_dims``); None where
    no rule names such a function with that argument."""
    for rule in rules.rules:
        if rule.renamed_to != kwarg or not rule.kwarg:
            continue
        names = [a for a in (rule.renamed_api or rule.api) if a.rsplit(".", 1)[-1] == func]
        if names:
            return names, rule.renamed_in, rule.kwarg
    return None


def _shown_tf_takes(m: Machine, called: str, message: str) -> bool:
    """Whether the TensorFlow the log shows takes the keyword Python refused in ``message`` in
    its function ``called`` (``tf.nn.softmax``), as the API knowledge says: a keyword a later
    1.x release brought, from that release on (:func:`keyword_added`), one the
    parameters read from the shown line's wheel take (:func:`keyword_releases`), or one a scan
    rule says a later release removed, before it. Then the refusing function is not that
    TensorFlow's (the name ``tf`` is bound to another module), and no release explains it."""
    from tfdoctor.scan.rules import load_rules  # noqa: PLC0415 - scan loads on demand

    refused = _REFUSED_KEYWORD.search(message)
    shown = version_key(m.tf.version)[:2] if m.tf is not None else ()
    if len(shown) < 2 or refused is None:
        return False  # no release shown (or none read): nothing to rule the callee out by
    func, kwarg = called.rsplit(".", 1)[-1], refused["kw"]
    rules = load_rules()
    added = keyword_added(rules, func, kwarg)
    if added is not None and shown >= version_key(added[1])[:2]:
        return True
    if keyword_releases(called, kwarg).takes(".".join(map(str, shown))):
        return True  # the parameters read from that line's wheel take it
    return any(
        rule.kind == "removed"
        and rule.kwarg == kwarg
        and any(a.startswith("tf.") and a.rsplit(".", 1)[-1] == func for a in rule.api)
        and shown < version_key(rule.release)[:2]
        for rule in rules.rules
    )


#: Python's refusal of a keyword, with the refusing function's own name (``__init__`` for a
#: class's constructor).
_REFUSED_KEYWORD = re.compile(
    r"\b(?P<func>\w+)\(\) got an unexpected keyword argument '(?P<kw>\w+)'"
)
#: A refused constructor's class, as Python 3.10 and later name it (``DispatchServer.__init__()
#: got an unexpected keyword argument 'port'``: the message gives the ``__qualname__``).
_REFUSED_OWNER = re.compile(r"\b(?P<cls>\w+)\.__init__\(\) got an unexpected keyword argument")
#: A call written from TensorFlow's top-level module on a source line (``tf.name_scope(``,
#: ``tf.compat.v1.layers.dense(``), with a bounded number of submodules.
_TF_CALL = re.compile(r"\b(?:tf|tensorflow)\.((?:\w+\.){0,5}\w+)\(")


def tf_function_named(func: str, call: str) -> bool:
    """Whether ``func``, the function Python names in a refusal, is the one the call written
    as ``call`` (``tf.nn.conv2d``) runs: its own name, or that name with ``_v2``, the name
    TensorFlow 2 gives the function it exports under the 1.x name where their arguments
    differ (tensorflow/python/ops/nn_ops.py: ``conv2d_v2`` exported as ``nn.conv2d``, the
    1.x ``conv2d`` kept for ``tf.compat.v1``)."""
    name = call.rsplit(".", 1)[-1]
    return func in (name, f"{name}_v2")


def tensorflow_calls(code: str) -> list[str]:
    """The calls the source line ``code`` writes from TensorFlow's top-level module, as
    written with ``tf.`` (``tf.name_scope``, ``tf.compat.v1.layers.dense``), in order."""
    return [f"tf.{call.group(1)}" for call in _TF_CALL.finditer(code or "")]


def tf_call_refused(message: str, code: str) -> Optional[str]:
    """The TensorFlow call (``tf.name_scope``) the source line ``code`` makes with the keyword
    Python refused in ``message``, where the refusing function is that call's: its own name
    (or its TensorFlow 2 ``_v2`` one, :func:`tf_function_named`), or a class's constructor
    (``__init__() got ...``, TensorFlow 2's ``tf.name_scope`` is a class). None where the line
    calls no TensorFlow function with that keyword."""
    refused = _REFUSED_KEYWORD.search(message)
    if refused is None or not code:
        return None
    func, keyword = refused.group("func"), refused.group("kw")
    # Python 3.10 and later name the class whose constructor refused (bpo-40679,
    # python/cpython#20236: the function's __qualname__): the call must be of that class (an
    # __init__ a base defines names the base, and is not read as the call's).
    owner = _REFUSED_OWNER.search(message) if func == "__init__" else None
    for call in _TF_CALL.finditer(code):
        named = owner.group("cls") if owner is not None else func
        if named != "__init__" and not tf_function_named(named, call.group(1)):
            continue
        if re.search(rf"\b{re.escape(keyword)}\s*=", _own_arguments(code[call.end() :])):
            return f"tf.{call.group(1)}"
    return None


def _own_arguments(rest: str) -> str:
    """The text of a call's own arguments, from just after its opening parenthesis in
    ``rest``: up to the matching closing one (or the line's end), without what nested
    brackets hold (another call's keywords are not this call's)."""
    depth, out = 1, []
    for char in rest:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1:
            out.append(char)
    return "".join(out)


#: Python's AttributeError for a name a module lacks, asked of Keras' top-level package
#: (``module 'keras' has no attribute 'applications'``: standalone Keras whose top level
#: leaves out what the library's release was written against).
# Only the top level: a submodule's missing name (keras.backend.get_session) is an API
# removal the API knowledge reads.


def _frame_library(frame: Frame, frames: Sequence[Frame]) -> Optional[str]:
    """The import package of a library outside TensorFlow's family whose file ``frame`` runs:
    installed under site-packages or dist-packages, or a source tree of a package the module
    table marks as written against TensorFlow (keras2onnx), which the traceback's ``frames``
    show imported as that package (:func:`code_package`) or entered from outside it
    (:func:`entered_package`: the program's first file of its own lies elsewhere); None for
    the user's own code, a script in a folder that only bears the package's name included,
    and TensorFlow's and its companions'."""
    top = code_package(frame.path, frames) or entered_package(frame.path, frames)
    if top is None or top in TF_OWN or top in modules().family:
        return None
    return top


def object_field_findings(
    tracebacks: Sequence[Traceback], m: Machine, logged: Optional[Mapping[str, str]] = None
) -> list[Finding]:
    """A library's own code (the innermost frame) asking an object of TensorFlow's or Keras'
    own classes for a field the installed release's class lacks (keras2onnx reading
    ``model.outputs[0].graph`` of a KerasTensor): the library's release was written for
    another TensorFlow or Keras. A warning: the object may also be one the library was
    handed by mistake; a note where the run went on after the exception (``logged``,
    :func:`went_on_note`). The same words in the user's own frame are left to the API
    readings."""
    for tb in tracebacks:
        if tb.name != "AttributeError" or not tb.frames:
            continue
        # Python's words for an attribute an object lacks (the evidence layer's reading),
        # on an object only TensorFlow's or Keras' classes make: PyTorch has a Tensor and a
        # Sequential too, so only those whose names no other common library shares.
        refusal = read_refusal(tb.message)
        if refusal is None or refusal.shape != ATTRIBUTE or not tf_object_class(refusal.owner):
            continue
        top = _frame_library(tb.frames[-1], tb.frames)
        if top is None:
            continue
        path = tb.frames[-1].path
        dist = library_dist(top, path)
        cls, attr = refusal.owner, refusal.argument
        # A source checkout's code is what runs, whatever pip installed: the directory that
        # holds its package (the innermost directory of that name) is what to update; a
        # relative path is the current directory's.
        checkout = None if installed_package(path) is not None else tree_holding(path, top)
        said = (
            f"{dist} ({path}) asks a {cls}, an object of TensorFlow's or Keras' "
            f"own, for {attr}, which the installed release's {cls} does not have: the {dist} "
            "release was most likely written for another TensorFlow or Keras release."
        )
        found = causes.finding(
            f"explain.{causes.software.COMPANION_MISMATCH}",
            Severity.WARNING,
            causes.software.COMPANION_MISMATCH,
            f"{dist} was written for another TensorFlow or Keras release (a {cls} has no {attr})",
            f"{tb.where}: {tb.type}: {tb.message}\n{said}",
            _with_keras2(
                m,
                library_fix(m, dist)
                if checkout is None
                else causes.software.checkout_release_fix(m, top, checkout),
                dist,
            ),
        )
        return [went_on_note(found, (logged or {}).get(tb.where))]
    return []


#: Python's AttributeError for an attribute a class lacks, asked of the class itself
#: (``type object 'Module' has no attribute '_TF_MODULE_IGNORED_PROPERTIES'``; CPython's
#: Objects/typeobject.c, type_getattro: "type object '%.100s' has no attribute '%U'"). The
#: words name the class only: the source line printed says whose class it is. Libraries
#: extend TensorFlow's classes' private fields (tf.Module's _TF_MODULE_IGNORED_PROPERTIES,
#: tensorflow/python/module/module.py, which Keras' Layer and TensorFlow Probability's
#: Bijector build on), and those fields come and go between releases.


def _frame_dist(frame: Frame, frames: Sequence[Frame]) -> Optional[str]:
    """The distribution of a library built on TensorFlow whose file ``frame`` runs, where it
    is not TensorFlow's own: an installed package outside the family
    (:func:`_frame_library`), else a member of TensorFlow's family its path names (Keras
    too), installed or not (``.../tensorflow_probability/python/...``: the code is that
    companion's whatever the paste left of the path's start); ``frames``: the traceback's."""
    top = _frame_library(frame, frames)
    if top is not None:
        return library_dist(top, frame.path)
    dist = origin_of(frame.path).dist
    if not dist or dist in TF_DISTRIBUTIONS or dist == "tensorboard":
        return None
    return dist


def class_field_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """A library's own code (the innermost frame) asking a class of TensorFlow's, written as
    such on the source line printed (``tf.Module._TF_MODULE_IGNORED_PROPERTIES`` in
    TensorFlow Probability's bijector.py), for an attribute the installed release's class
    lacks: the library's release was written for another TensorFlow (companion-mismatch; for
    Keras' own frame, a Keras of another release, keras-version). The same words in the
    user's own frame, or of a class the line does not take from ``tf.``, are left to other
    readings."""
    for tb in tracebacks:
        if tb.name != "AttributeError" or not tb.frames:
            continue
        lacks = tb.missing_attribute
        if lacks is None or lacks.kind != "type" or lacks.before or "." in lacks.owner:
            continue  # a class's own words (type object 'X'), opening the message
        frame = tb.frames[-1]
        cls, attr = lacks.owner, lacks.name
        # The class as the line reaches it from TensorFlow's top-level module (a bounded
        # number of submodules: tf.keras.layers.Layer), then the attribute asked.
        written = re.search(
            rf"\b(?:tf|tensorflow)\.(?:\w+\.){{0,4}}{cls}\.{attr}\b", frame.code or ""
        )
        dist = _frame_dist(frame, tb.frames) if written is not None else None
        if written is None or dist is None:
            continue
        asked = written.group(0)
        said = (
            f"{dist} ({frame.path}) asks TensorFlow's class {cls} for {attr} ({asked}), which "
            f"the installed TensorFlow's {cls} does not have: the {dist} release was written "
            "for another TensorFlow release than the installed one."
        )
        cause, fix = internal_caller_fix(m, dist)
        checkout = checkout_of(frame.path, tb.frames)
        if checkout is not None:
            # A source checkout's code runs whatever pip installed: the checkout is what to
            # move (object_field_findings reads it so too).
            fix = causes.software.checkout_release_fix(m, *checkout)
        return [
            causes.finding(
                f"explain.{cause}",
                Severity.ERROR,
                cause,
                f"{dist} was written for another TensorFlow release (it asks for {asked})",
                f"{tb.where}: {tb.type}: {tb.message}\n{said}",
                fix,
            )
        ]
    return []


def _with_keras2(m: Machine, fix: Fix, dist: str) -> Fix:
    """``fix``, with Keras 2 (tf-keras) as the other way out where the log shows tf.keras is
    Keras 3: a library written for Keras 2 runs there unchanged."""
    major, basis = tf_keras_generation(m)
    if major != 3:
        return fix
    keras2 = causes.code.keras3_fix(m)
    return Fix(
        f"{fix.text} tf.keras is Keras 3 here ({basis}): where {dist} was written for Keras 2, "
        "it also runs under tf-keras with TF_USE_LEGACY_KERAS=1 (before TensorFlow is "
        "imported).",
        (*fix.commands, *(c for c in keras2.commands if c not in fix.commands)),
    )


#: Python's words for a name no scope defines (CPython's Python/ceval.c, NAME_ERROR_MSG:
#: "name '%.200s' is not defined"; 3.10+ may add "Did you mean: ...?").
_UNDEFINED = re.compile(r"^name '(?P<name>[A-Za-z_]\w*)' is not defined")
#: The listings read for a Keras name: the newest line, and the last whose tf.keras is Keras 2
#: (scan.api's LAST_KERAS2): between them every public Keras class and function of both
#: generations is listed.
_KERAS_LISTINGS = (".".join(map(str, LAST_KERAS2)),)


def _keras_public_home(name: str) -> Optional[str]:
    """The public Keras module of TensorFlow's API listings that exports ``name``
    (``Layer`` -> ``tf.keras.layers``), or None where none does: a module alias (``tf``,
    ``K``) is a submodule or no member at all, never a listed member."""
    for line in (*bundled_lines()[:1], *_KERAS_LISTINGS):
        index = load_api(line)
        if index is None:
            continue
        for module, members in sorted(index.modules.items()):
            if members and name in members and module.startswith(("tf.keras.", "keras.")):
                return module
    return None


def undefined_keras_name_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """An installed library's own frame (outside TensorFlow's family) failing on a name it
    never defined that is one of Keras' public classes or functions (bert4keras' ``class
    OurLayer(Layer)`` with Layer undefined): the names the library takes from Keras (a star
    import, an import chosen by the TensorFlow or Keras it finds) did not bring it in with the
    installed release, for which that library release was not written. A warning: the import
    may also have been skipped for another reason. The user's own frame is left alone."""
    for tb in tracebacks:
        match = _UNDEFINED.match(tb.message) if tb.name == "NameError" else None
        caller = library_caller(tb) if match is not None and tb.frames else None
        if match is None or caller is None:
            continue
        name = match.group("name")
        home = _keras_public_home(name)
        if home is None:
            continue
        top, where = caller
        dist = library_dist(top, where)
        return [
            causes.finding(
                f"explain.{causes.software.COMPANION_MISMATCH}",
                Severity.WARNING,
                causes.software.COMPANION_MISMATCH,
                f"{dist} was written for another TensorFlow or Keras release ({name} is "
                "undefined in its code)",
                f"{tb.where}: {tb.type}: {tb.message}\n{dist} ({where}) uses {name}, a name "
                f"Keras exports ({home}.{name}), which its imports did not define with the "
                f"installed TensorFlow and Keras: the {dist} release was written for another "
                "release of them.",
                _with_keras2(m, library_fix(m, dist), dist),
            )
        ]
    return []


#: A module TensorFlow's build generates to wrap a library's ops (tf_gen_op_wrapper_py:
#: ``gen_array_ops``; a companion's ``gen_rasterizer_op``), named in an import that failed.
_GENERATED_WRAPPER = re.compile(r"(?:^|\.)gen_\w+$")


def op_library_fallback_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """An installed package's import of the op wrapper its build generates failing, caught by
    its own code, whose fallback then raised TensorFlow's NotFoundError (``tf.load_op_library``
    refusing the package's compiled ops: a library built against another TensorFlow; its
    message may be cut from the paste): that package's release does not go with the installed
    TensorFlow (companion-mismatch)."""
    for caught, then in zip(tracebacks, tracebacks[1:]):
        if not caught.handled or not then.type.endswith("NotFoundError") or not caught.frames:
            continue
        missing = caught.missing_name
        gone = caught.missing_module
        wrapper = (
            f"{missing.module}.{missing.name}"
            if missing is not None
            else gone.name
            if gone is not None
            else ""
        )
        top = installed_package(caught.frames[-1].path)
        if not _GENERATED_WRAPPER.search(wrapper) or top is None or top in TF_OWN:
            continue
        dist = library_dist(top, caught.frames[-1].path)
        shown = f": {then.message}" if then.message else " (its message is cut from the log)"
        return [
            causes.finding(
                f"explain.{causes.software.COMPANION_MISMATCH}",
                Severity.ERROR,
                causes.software.COMPANION_MISMATCH,
                f"{dist}'s compiled ops do not load in the installed TensorFlow",
                f"{caught.where}: {caught.type}: {caught.message}\n{then.where}: {then.type}"
                f"{shown}\n{dist} imports the op wrapper its build generates ({wrapper}), and "
                "where that fails loads its compiled library with tf.load_op_library, which "
                "raised NotFoundError: the library was built against another TensorFlow than "
                "the installed one.",
                library_fix(m, dist),
            )
        ]
    return []


def keras_caller_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """An installed library outside TensorFlow's family asking the installed Keras for a name
    it does not have, in the library's own frame (keras-bert's ``keras.applications``): the
    library's release was written for another Keras (and the TensorFlow it came with)."""
    for tb in tracebacks:
        if "keras" not in tb.message or tb.type != "AttributeError":
            continue
        lacks = tb.missing_attribute
        if lacks is None or lacks.owner != "keras" or not lacks.module or lacks.before:
            continue  # Keras' top-level module's words (module 'keras'), opening the message
        caller = library_caller(tb) if tb.frames else None
        if caller is None:
            continue
        top, where = caller
        if top in _SHADOWABLE:
            continue  # a file of the user's named keras.py is another cause
        dist = library_dist(top, where)
        asked = f"keras.{lacks.name}"
        return [
            causes.finding(
                f"explain.{causes.software.COMPANION_MISMATCH}",
                Severity.ERROR,
                causes.software.COMPANION_MISMATCH,
                f"{dist} was written for another Keras release (it asks for {asked})",
                f"{tb.where}: {tb.type}: {tb.message}\n{dist} ({where}) asks the installed "
                f"Keras for {asked}, which it does not have: the {dist} release and the "
                "Keras (and TensorFlow) release do not go together.",
                library_fix(m, dist),
            )
        ]
    return []


#: The Python release a path belongs to: ``lib/python3.6/`` (POSIX's layout, site-packages,
#: dist-packages and the standard library alike) or ``Python36\`` (Windows' install folder).
#: Debian's version-less ``/usr/lib/python3/dist-packages`` names none.
_PYTHON_OF_PATH = re.compile(
    r"[/\\](?:lib(?:64)?[/\\]python(?P<major>\d)\.(?P<minor>\d{1,2})|Python(?P<wmajor>\d)(?P<wminor>\d{1,2}))[/\\]"
)
#: TensorFlow's own package inside an installation folder of some Python (that folder).
_TF_INSTALLED = re.compile(
    r"^(?P<site>[^\n]{0,400}?[/\\](?:site|dist)-packages)[/\\]tensorflow(?:_core)?[/\\]"
)


def _python_of(path: str) -> Optional[str]:
    """The Python release (``3.6``) whose installation ``path`` lies in, if it names one."""
    found = _PYTHON_OF_PATH.search(path)
    if found is None:
        return None
    if found.group("major"):
        return f"{found.group('major')}.{found.group('minor')}"
    return f"{found.group('wmajor')}.{found.group('wminor')}"


def other_python_findings(tracebacks: Sequence[Traceback]) -> list[Finding]:
    """TensorFlow imported from the site-packages of another Python release than the one
    running: one traceback is one process, so frames of Python 3.10's files beside
    TensorFlow's under ``lib/python3.6/site-packages`` say that folder is on this Python's
    path (PYTHONPATH, a .pth file, sys.path.append): its compiled extension is built for 3.6
    and fails to load, whatever the message (an undefined symbol, a module not found). A
    reinstall does not change it; taking the folder off the path does."""
    for tb in tracebacks:
        tf_frame, site = next(
            ((f, x.group("site")) for f in tb.frames for x in [_TF_INSTALLED.match(f.path)] if x),
            (None, ""),
        )
        if tf_frame is None:
            continue
        theirs = _python_of(tf_frame.path)
        ours = next(
            (
                v
                for v in (_python_of(f.path) for f in tb.frames if f is not tf_frame)
                if v is not None and v != theirs
            ),
            None,
        )
        if theirs is None or ours is None:
            continue
        return [
            causes.finding(
                f"explain.{causes.software.TF_SHADOWED_MODULE}",
                Severity.ERROR,
                causes.software.TF_SHADOWED_MODULE,
                f"Python {ours} imported the TensorFlow of Python {theirs}'s site-packages",
                f"{tb.where}: {tb.type}: {tb.message}\nThe traceback runs through {tf_frame.path} "
                f"(installed for Python {theirs}) and through files of Python {ours}: that "
                "folder is on this Python's path, so its TensorFlow, built for another Python, "
                "is imported instead of one installed for this one.",
                causes.software.other_python_path_fix(site, ours),
            )
        ]
    return []


def own_module_path(path: str, module: str, *, folder: bool = True) -> Optional[str]:
    """The module of the user's own that Python imports as ``module`` from file ``path``: a
    ``module.py`` outside site-packages (Python 2's compiled ``module.pyc`` too), or
    (``folder``) the ``module/`` folder of a ``module/__init__.py`` there; None otherwise."""
    name = path.replace("\\", "/").rsplit("/", 2)
    if name[-1] in (f"{module}.py", f"{module}.pyc"):
        own = path
    elif folder and name[-2:-1] == [module] and name[-1] in ("__init__.py", "__init__.pyc"):
        own = path[: -len(name[-1]) - 1]
    else:
        return None
    return own if origin_of(path).installed is False else None


def own_module_file(frame: Frame, module: str, *, folder: bool = True) -> bool:
    """Whether ``frame`` runs a file of the user's own that Python imports as ``module``
    (:func:`own_module_path`)."""
    return own_module_path(frame.path, module, folder=folder) is not None


def shadowed_module_findings(tracebacks: Sequence[Traceback]) -> list[Finding]:
    """``import tensorflow`` that found the user's own ``tensorflow.py`` (or a ``tensorflow/``
    package outside site-packages): the frames show the file, and the module it made lacks
    what the code asks of it (Python: "partially initialized module ... (most likely due to a
    circular import)" when the file imports itself)."""
    for tb in tracebacks:
        module = _named_top_module(tb)
        lacks = tb.missing_attribute
        if lacks is not None and lacks.shadowing and module in _SHADOWABLE:
            # Python 3.13 names the file itself: a module of the script's directory named
            # like the one asked ("consider renaming '/p/tensorflow.py' if it has the same
            # name as a library you intended to import").
            return [
                causes.finding(
                    f"explain.{causes.software.TF_SHADOWED_MODULE}",
                    Severity.ERROR,
                    causes.software.TF_SHADOWED_MODULE,
                    f"`import {module}` loaded {lacks.path}, not the installed {module}",
                    f"{tb.where}: {tb.type}: {tb.message}\nPython names {lacks.path}, a file "
                    "in the script's directory named like the package: Python imports it "
                    "instead of the installed one, which has what the code asks.",
                    causes.software.own_module_fix(lacks.path, module),
                )
            ]
        # Python 2 does not name the module ("'module' object has no attribute 'Variable'"):
        # the frames name the file.
        asked: tuple[str, ...] = (module,) if module in _SHADOWABLE else ()
        if not asked and lacks is not None and lacks.module_object:
            asked = _SHADOWABLE
        gone = tb.missing_module
        tail = gone is not None and gone.python2_alone
        if not asked and tail:
            # Python 2 names only the submodule's tail, unquoted ("No module named datasets"):
            # the frame that imported it says whose submodule it asked for.
            asked = tuple(
                x
                for x in _SHADOWABLE
                if any(re.match(rf"\s*(?:from|import)\s+{x}\.", f.code or "") for f in tb.frames)
            )
        for frame, module in ((fr, x) for fr in tb.frames for x in asked):
            base = frame.path.replace("\\", "/").rsplit("/", 2)
            # A package directory counts where Python's own words name a module; from the
            # tail alone only a plain file does (a package of TensorFlow's layout outside
            # site-packages is an install with --target, not the user's own).
            if own_module_file(frame, module, folder=not tail):
                origin = (
                    frame.path
                    if base[-1] != "__init__.py"
                    else frame.path[: -len("__init__.py") - 1]
                )
                return [
                    causes.finding(
                        f"explain.{causes.software.TF_SHADOWED_MODULE}",
                        Severity.ERROR,
                        causes.software.TF_SHADOWED_MODULE,
                        f"`import {module}` loaded {origin}, not the installed {module}",
                        f"{tb.where}: {tb.type}: {tb.message}\nThe traceback runs through "
                        f"{frame.path}, a file of the user's own named like the package: Python "
                        "imports it instead of the installed one, which has what the code asks.",
                        causes.software.own_module_fix(origin, module),
                    )
                ]
        cycle = _import_cycle_finding(tb)
        if cycle is not None:
            return [cycle]
    return []


#: The packages whose own import an import cycle through a user's file interrupts.
_CYCLE_ROOTS = frozenset({"tensorflow", "keras"})


def _import_cycle_finding(tb: Traceback) -> Optional[Finding]:
    """TensorFlow (or Keras) asked for a name while it is still being imported: an installed
    package's import reached a file of the user's own named like a module it imports
    (``keras.py``), which imports TensorFlow again; the frames show the file. Without frames,
    a warning: the same file, not shown."""
    # Python's words for a name asked of a module still being imported (3.8 on: an attribute,
    # or a ``from M import X``; 3.12's submodule access), read by the evidence layer.
    cycle = tb.circular_import
    if cycle is None or cycle.module.split(".")[0] not in _CYCLE_ROOTS:
        return None
    said = f"{tb.where}: {tb.type}: {tb.message}"
    for before, frame in zip(tb.frames, tb.frames[1:]):
        name = frame.path.replace("\\", "/").rsplit("/", 1)[-1]
        if (
            origin_of(before.path).installed is True
            and origin_of(frame.path).installed is False
            and re.fullmatch(r"[A-Za-z_]\w{0,60}\.py", name)
        ):
            module = name[: -len(".py")]
            return causes.finding(
                f"explain.{causes.software.TF_SHADOWED_MODULE}",
                Severity.ERROR,
                causes.software.TF_SHADOWED_MODULE,
                f"`import {module}` inside TensorFlow's import loaded {frame.path}",
                f"{said}\n{before.path} imports `{module}` while TensorFlow is being imported, "
                f"and Python found {frame.path}, a file of the user's own named like it, which "
                "imports TensorFlow again before its first import has finished.",
                causes.software.own_module_fix(frame.path, module),
            )
    if tb.frames:
        return None
    return causes.finding(
        f"explain.{causes.software.TF_SHADOWED_MODULE}",
        Severity.WARNING,
        causes.software.TF_SHADOWED_MODULE,
        "TensorFlow was asked for a name while its own import was still running",
        f"{said}\nPython says so of an import cycle: most often a file of the user's own "
        "named like TensorFlow or a module it imports (tensorflow.py, keras.py, numpy.py) in "
        "the working directory or on PYTHONPATH, which imports TensorFlow again. The frames are "
        "not shown; the command lists such files where the program starts.",
        Fix(
            "Rename the file of your own that is named like tensorflow or a module it imports "
            "(and delete its __pycache__), so the import loads the installed package.",
            ("ls tensorflow.py keras.py numpy.py tensorflow/ keras/ 2>/dev/null",),
        ),
    )


def tf_keras_generation(m: Machine) -> tuple[Optional[int], str]:
    """The Keras major ``tf.keras`` is on this machine (2 or 3), with what says so; None where
    nothing does. TF_USE_LEGACY_KERAS makes it Keras 2; else the keras installed; else the
    installed TensorFlow's line (the matrix's rule, :func:`~tfdoctor.compat.
    keras3_serves_tf_keras`); else the Python, where every line that supports it is of one
    kind (Python 3.12 has wheels from TensorFlow 2.16 on). Code that imports keras itself gets
    the installed keras whatever the variable says."""
    if m.legacy_keras:
        return 2, "TF_USE_LEGACY_KERAS is set"
    keras = next((p for p in m.facts.packages or () if normalize_name(p.name) == "keras"), None)
    if keras is not None and keras.version and version_key(keras.version)[0] in (2, 3):
        return version_key(keras.version)[0], f"keras {keras.version} is installed"
    if m.line is not None:
        tf = m.tf.version if m.tf is not None else m.line.line
        return (3 if m.keras3_is_tf_keras else 2), f"TensorFlow {tf}'s tf.keras"
    python = m.python_version
    if python is None or m.matrix is None:
        return None, ""
    minor = ".".join(python.split(".")[:2])
    kinds = {
        keras3_serves_tf_keras(line)
        for line in m.matrix.lines
        if line.pins.keras and any(minor in pythons for pythons in line.python.values())
    }
    if len(kinds) != 1:
        return None, ""
    major = 3 if kinds == {True} else 2
    return major, f"Python {minor} runs only TensorFlow lines whose tf.keras is Keras {major}"


#: The distributions that reach into TensorFlow's private compat.v2.__internal__ namespace,
#: released in step with it (each of one minor serves TensorFlow of that minor).
_INTERNAL_USERS = ("keras", "tf-keras", "tensorflow-estimator")


def internal_caller(m: Machine) -> tuple[str, str]:
    """The distribution that called a name tf.__internal__ lacks, with what says so: the one
    of TensorFlow's step-locked companions the machine shows on another minor than TensorFlow
    (Keras first), else the Keras 2 the machine would have."""
    if m.tf is not None:
        minor = version_key(m.tf.version)[:2]
        stepped = _stepped_with(m)
        off = {
            normalize_name(p.name): p.version
            for p in m.facts.packages or ()
            if normalize_name(p.name) in stepped and version_key(p.version)[:2] != minor
        }
        for name in _INTERNAL_USERS:
            if name in off:
                return name, f"{name} {off[name]} beside TensorFlow {m.tf.version}"
    return _keras2_of(m)


def _stepped_with(m: Machine) -> set[str]:
    """Which of :data:`_INTERNAL_USERS` are released in step with this TensorFlow's line:
    tf-keras always (2.X for TensorFlow 2.X); keras where the matrix says its line's keras is
    (2.6-2.15; Keras 3 after, its own numbering); tensorflow-estimator up to the last such
    line (2.16 dropped it with Keras 2: its last release is 2.15). All three where the line is
    not known."""
    line, matrix = m.line, m.matrix
    if line is None or matrix is None:
        return set(_INTERNAL_USERS)
    stepped = {"tf-keras"}
    if line.keras_in_step:
        stepped.add("keras")
    last = max((x.key for x in matrix.lines if x.keras_in_step), default=None)
    if last is not None and line.key <= last:
        stepped.add("tensorflow-estimator")
    return stepped


def internal_caller_fix(m: Machine, user: str) -> tuple[causes.CauseId, Fix]:
    """The cause and fix of ``user`` (:func:`internal_caller`) built for another TensorFlow."""
    if user == "keras":
        return causes.software.KERAS_VERSION, causes.software.keras_match_fix(m)
    if user == "tf-keras":
        return causes.software.TF_KERAS_MISMATCH, causes.software.tf_keras_fix(m)
    if user == "tensorflow-estimator" and m.tf is not None:
        # A dependency TensorFlow declares (up to 2.15), released with each minor.
        line = ".".join(map(str, version_key(m.tf.version)[:2]))
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.common.declared_range_fix(
            m,
            user,
            f"{user}=={line}.*",
            f"{user} is of another release than TensorFlow {m.tf.version}: install the "
            f"release of TensorFlow's line ({line}).",
        )
    return causes.software.COMPANION_MISMATCH, library_fix(m, user)


def library_fix(m: Machine, dist: str, module: Optional[str] = None) -> Fix:
    """The fix of ``dist``'s code asking TensorFlow for what the installed one lacks: a
    companion's release for this TensorFlow (the companion table); for a library built on
    TensorFlow but not released with it (Transformers), whose releases no table pairs with
    TensorFlow's, its newer release, which follows TensorFlow's changes."""
    if not paired_with_tensorflow(m, dist):
        # A distribution the log shows installed by that name (a listing, an egg's folder) is
        # the one to upgrade, whether or not the module table names it.
        known = known_distribution(dist) or m.facts.package(dist) is not None
        return causes.software.library_release_fix(m, dist, known=known, module=module)
    return causes.software.companion_fix(m, dist)


def paired_with_tensorflow(m: Machine, dist: str) -> bool:
    """Whether ``dist``'s releases go with TensorFlow's: the companion table pairs them, or it
    is of TensorFlow's family (Keras). Its release for the installed TensorFlow is the one to
    install, never its newest: that may be made for a later TensorFlow (Keras 2.11 for
    TensorFlow 2.11, Keras 3 for 2.16)."""
    return m.companion(dist) is not None or dist in _family_dists()


def known_distribution(dist: str) -> bool:
    """Whether the module table names ``dist`` as a distribution that installs some import
    package. Elsewhere ``dist`` is an import name as pip normalises it: PyPI's project of that
    name may be another's (``object_detection`` is not PyPI's object-detection), or none, as for
    a user's own package installed into site-packages, so no command installs it."""
    return dist in frozenset(modules().dists.values())


def _family_dists() -> frozenset[str]:
    """The distributions of TensorFlow's family (the module table's ``family`` rows)."""
    table = modules()
    return frozenset(table.dists[module] for module in table.family)


def _keras2_of(m: Machine) -> tuple[str, str]:
    """Which Keras 2 distribution this machine would have, with what says so: tf-keras where
    tf-keras is installed or tf.keras is Keras 3, keras where it is Keras 2 (and by default:
    keras 2.6 to 2.15 called tf.__internal__ first)."""
    names = {normalize_name(p.name) for p in m.facts.packages or ()}
    if "tf-keras" in names:
        return "tf-keras", "tf-keras is installed"
    major, basis = tf_keras_generation(m)
    if major is None:
        return "keras", "no frame is shown: Keras 2 is the caller of tf.__internal__"
    return ("tf-keras" if major == 3 else "keras"), basis


def statement_import(tb: Traceback, own: bool = False) -> Optional[tuple[str, str]]:
    """The top-level import package of the statement printed above ``tb``'s message
    (:func:`statement_package`) and the distribution that installs it, where that statement is
    an import of a package the module table knows (its import ran that package's code), not
    one of TensorFlow's own distributions unless ``own``. None for any other statement, and
    where none is printed."""
    top = statement_package(tb)
    dist = distribution_of(top) if top is not None else None
    if top is None or dist is None or (dist in TF_DISTRIBUTIONS and not own):
        return None
    return top, dist


def statement_library(tb: Traceback, m: Machine) -> Optional[str]:
    """The import package of the statement printed above a message with no frames (``>>>
    import onnx_tf``, ``python -c "from onnx_tf.backend import prepare"``), where it is a
    library built on TensorFlow (:func:`_written_for_tensorflow`, or a companion the table
    pairs with TensorFlow's releases): its import ran its code, which asked TensorFlow or Keras
    for what the message says is missing. None where frames are shown (they say whose code
    asked), for TensorFlow's own packages, and for any other import: the user's own module,
    or a package not built on TensorFlow (importing numpy above the error says nothing)."""
    shown = None if tb.frames else statement_import(tb)
    if shown is None or shown[0] in TF_OWN:
        return None
    top, known = shown
    if not _written_for_tensorflow(top) and m.companion(known) is None:
        return None
    return top


def _written_for_tensorflow(top: str) -> bool:
    """An import package written against TensorFlow's API: its family (Keras included) or a
    library the module table marks as built on it."""
    table = modules()
    return top in table.family or top in table.on_tensorflow


def library_caller(tb: Traceback) -> Optional[tuple[str, str]]:
    """The top-level import package of a library outside TensorFlow's family whose own code
    raised ``tb``, with where the log shows it: the innermost frame that is not TensorFlow's
    or Keras' own (those are the callee) lies under site-packages or dist-packages in that
    package, or in a source tree the frames show imported as it (:func:`checkout_package`);
    else, with no frame shown, the module a lazy-import wrapper names (Transformers' ``Failed
    to import transformers.modeling_tf_utils``). None where that frame is the user's own code
    (outside any site-packages and such a tree), a family member's (:func:`library_origins`
    reads those), or nothing shows one."""
    for frame in reversed(tb.frames):
        if frame.path.startswith("<frozen "):
            continue  # importlib's own machinery, between the importer and the imported
        top = installed_package(frame.path)
        if top is not None and top in TF_OWN:
            continue  # an installed TensorFlow's or Keras' own frame: the callee
        if top is None:
            # A package's source tree outside site-packages (a checkout on the path) is that
            # package's code, not the user's; a tree of TensorFlow's own is no library's, and
            # no frame above it is the failing library's (the tree on the path is the answer).
            top = code_package(frame.path, tb.frames)
        if top is None and frame is tb.frames[-1]:
            return _import_led(frame)
        if top is None or top in modules().family:
            return None
        return top, frame.path
    top = tb.wrapper.split(".", 1)[0]
    if tb.frames or not top or top in modules().family:
        return None
    return top, f"its lazy import of {tb.wrapper} failed with this error"


def _import_led(frame: Frame) -> Optional[tuple[str, str]]:
    """The library whose import the user's innermost frame ran, where the paste cut the
    frames below it (a notebook's cell ``----> 2 import deepxde as dde`` right above the
    error): Python raised inside that import, so its code asked for what is missing. Only a
    package the module table names as a distribution's (a module of the user's own, imported
    by the same words, is no library) and outside TensorFlow's family (read by
    :func:`library_origins`)."""
    top = imported_package(frame.code)
    if top is None or top in TF_OWN or top in modules().family or distribution_of(top) is None:
        return None
    return top, f"`{frame.code}` in {frame.path} imported it; its own frames are not shown"


def package_behind(tb: Traceback) -> tuple[Optional[str], str, str]:
    """The installed distribution (not TensorFlow's) whose code raised ``tb``, how the log
    shows it, and the import that led there where its package is not known: from the
    frames, else the statement printed above a message without frames, else the imports
    IPython marked above that statement. ``(None, "", led)`` where nothing shows one."""
    user = next((o.dist for o in library_origins(tb) if o.dist != "tensorflow"), None)
    if user is not None:
        return user, "from its frames", ""
    library = library_caller(tb)
    if library is not None:
        return library_dist(*library), library[1], ""
    shown = statement_import(tb)
    if shown is not None:
        return shown[1], f"`{tb.statement}` raised it", ""
    # The imports IPython marked above the statement that raised (its frames' file lines cut
    # from the paste): the innermost one of a module other than TensorFlow's holds that
    # statement, or imports what does.
    for statement in reversed(tb.importers):
        top = imported_package(statement) or ""
        dist = distribution_of(top)
        if not top or dist in TF_DISTRIBUTIONS or top in ("tensorflow", "tensorflow_core"):
            continue
        if dist is not None:
            return dist, f"`{statement}` led to it", ""
        return None, "", statement
    return None, "", ""


def private_api_findings(
    tracebacks: Sequence[Traceback], m: Machine, modules: Sequence[tuple[str, str]] = ()
) -> list[Finding]:
    """A package built against another TensorFlow, missing a name in tensorflow.python
    (``modules``: the modules the log shows imported, for a message without frames)."""
    for tb in tracebacks:
        message, inferred = _keras_private_bare(tb, m)
        message = message or _private_message(tb)
        if _PRIVATE.search(message) is None or own_module_missing(tb):
            continue  # (a module TensorFlow's own install lacks is incomplete_install_findings')
        user, basis, led = package_behind(tb)
        if user is None and not tb.frames:
            # No frame: a package the log shows imported from an installation (a test's
            # fixture, a session's echo) that is not TensorFlow's own is the one that reaches
            # into TensorFlow's private modules.
            shown = next(
                (
                    (dist, path)
                    for name, path in modules
                    if installed_package(path) is not None
                    and _written_for_tensorflow(name.split(".")[0])
                    and (dist := distribution_of(name.split(".")[0])) is not None
                    and dist not in TF_DISTRIBUTIONS
                ),
                None,
            )
            if shown is not None:
                user, basis = shown[0], f"the log shows it imported from {shown[1]}"
        if user is None and _attribute_of(tb, _INTERNAL):
            user, basis = internal_caller(m)
        unshown_keras = user is None and not tb.frames and _attribute_of(tb, _PRIVATE_KERAS)
        if unshown_keras:
            # The module imported (the name is missing from it, not the module), so this
            # TensorFlow still has its private Keras copy (up to 2.15). Besides TensorFlow
            # itself, the code that reaches into it is standalone Keras's TensorFlow backend
            # (keras/backend/tensorflow_backend.py imports tensorflow.python.keras.backend
            # in Keras 2.3): a Keras of another release than this TensorFlow.
            user, basis = "keras", "no frame is shown: standalone Keras is the usual caller"
        if user is None and not tb.frames:
            user, basis = _keras_private_import(message)
            basis = f"{basis}; {inferred}" if user is not None and inferred else basis
        if user is None:
            if tb.frames or tb.typed or _PRIVATE_IMPORT.search(_private_message(tb)) is None:
                # The frames, or a prompt, show the code is the user's own (what the private
                # name stands for is explain.api's to say), or the words are not a private
                # name's.
                continue
            return [_private_import_finding(tb, m, led)]
        said = (
            f"{tb.where}: {tb.type}: {tb.message}\n{user} ({basis}) imports TensorFlow's "
            "private modules, which change between releases: it was built for another "
            "TensorFlow."
        )
        cause, fix = internal_caller_fix(m, user)
        checkout = next(
            (
                tree
                for frame in reversed(tb.frames)
                if (tree := checkout_of(frame.path, tb.frames)) is not None
            ),
            None,
        )
        if (
            cause == causes.software.COMPANION_MISMATCH
            and checkout is not None
            and library_dist(checkout[0]) == user
        ):
            # A source checkout's code runs whatever pip installed: the checkout is what to
            # move (class_field_findings reads it so too).
            fix = causes.software.checkout_release_fix(m, *checkout)
        older = _private_keras_older_candidate(tb, m) if unshown_keras else None
        if older is not None:
            # The lead's fix names the other way too: the log cannot tell which code asked.
            fix = Fix(f"{fix.text} {_OR_OLDER_TENSORFLOW}", fix.commands)
        return [
            causes.finding(
                f"explain.{cause}",
                Severity.ERROR,
                cause,
                f"{user} is built for another TensorFlow (a private TensorFlow name is missing)",
                said,
                fix,
            ),
            *([older] if older is not None else []),
        ]
    return []


#: The lead's words for the other candidate of a name TensorFlow's private Keras lacks where no
#: frame shows who asked (:func:`_private_keras_older_candidate`).
_OR_OLDER_TENSORFLOW = (
    "The log shows no frame, so the other way stays open: the code that asks (your own, or "
    "a library written for TensorFlow's Keras) was written for a later TensorFlow, and "
    "upgrading TensorFlow to the release its requirements name is the fix (the other "
    "candidate)."
)


def _private_keras_older_candidate(tb: Traceback, m: Machine) -> Optional[Finding]:
    """The other candidate beside standalone Keras for a name TensorFlow's private Keras copy
    (tensorflow.python.keras) lacks, the log showing no frame: the code that asked (the
    user's own, or a library's written for TensorFlow's Keras) was written for a later
    TensorFlow, whose copy has the name (a warning, ranked after Keras). Only where the log
    shows a TensorFlow 1.x or none: the 1.x copy grew with each release, while TensorFlow 2.0
    dropped TensorFlow 1's names from it and 2.6 moved Keras out (the keras package) and froze
    the copy, so a name missing under a 2.x is as likely one a release removed. A frame shown
    (the user's own line) is explain.api's to read, not a Keras unshown."""
    if m.tf is not None and version_key(m.tf.version)[:1] != (1,):
        return None
    lacks = tb.missing_attribute
    name = f"{lacks.owner}.{lacks.name}" if lacks is not None else "the name"
    return causes.other_candidate(
        causes.code.TF_TOO_OLD_FOR_CODE,
        f"the TensorFlow is older than the code that asks its private Keras for `{name}`",
        f"{tb.where}: {tb.type}: {tb.message}\nNo frame shows whose code asked: standalone "
        "Keras (the reading above) or code written for a later TensorFlow, whose "
        "tensorflow.python.keras has the name.",
        causes.code.tf_too_old_fix(m, f"`{name}`", None),
    )


class _KerasUse(NamedTuple):
    """Which standalone Keras uses a private TensorFlow name, and how."""

    #: The Keras module and releases, in words.
    where: str
    #: How that Keras reaches the name, as :attr:`NameAsked.wording` says Python's words for
    #: it missing: ``import`` (``from M import X``: "cannot import name"), ``attribute``
    #: (``M.X``: "has no attribute").
    wording: str
    #: For an ``import``, the first TensorFlow whose tree has the name, before which that
    #: import fails; empty where not known.
    added: str = ""


#: Names of TensorFlow's private tree that standalone Keras's own modules use, with the Keras
#: releases that do: where no frame shows the caller, that Keras is the usual one, meeting a
#: TensorFlow it was not released with.
_KERAS_PRIVATE_NAMES: dict[tuple[str, str], _KerasUse] = {
    # keras-team/keras v2.3.1, keras/backend/tensorflow_backend.py: is_tensor() tests
    # `isinstance(x, tf_ops._TensorLike)` (tf_ops: tensorflow.python.framework.ops), an
    # attribute read (2.2's backend reads it so too).
    ("tensorflow.python.framework.ops", "_TensorLike"): _KerasUse(
        "the keras/backend/tensorflow_backend.py of multi-backend Keras 2.3", "attribute"
    ),
    # keras-team/keras 2.3.0 and 2.3.1, keras/backend/tensorflow_backend.py line 13: `from
    # tensorflow.python.keras.utils import tf_utils` (2.2.5's backend imports nothing of
    # TensorFlow's Keras copy). The tensorflow 1.8.0 wheel has
    # tensorflow/python/keras/utils/__init__.py but no tf_utils.py there; the 1.9.0 wheel has
    # it (https://pypi.org/project/tensorflow/1.9.0/#files, the wheels' file lists).
    ("tensorflow.python.keras.utils", "tf_utils"): _KerasUse(
        "the keras/backend/tensorflow_backend.py of multi-backend Keras 2.3", "import", "1.9"
    ),
    # keras-team/keras v2.6.0 to v2.15.0, keras/backend.py (keras/src/backend.py from 2.13):
    # `from tensorflow.python.eager.context import get_config`.
    ("tensorflow.python.eager.context", "get_config"): _KerasUse(
        "the backend module of Keras 2.6 to 2.15", "import"
    ),
}


def _keras_private_import(message: str) -> tuple[Optional[str], str]:
    """``("keras", basis)`` where ``message`` names a private TensorFlow name that standalone
    Keras's own modules use (:data:`_KERAS_PRIVATE_NAMES`), in the words Python prints for
    the way they reach it; ``(None, "")`` elsewhere."""
    lacks = _module_lacks(message)
    if lacks is None:
        return None, ""
    module, name = lacks.module, lacks.name
    # TensorFlow 1.15 and 2.0 served their tree from tensorflow_core.
    row = _KERAS_PRIVATE_NAMES.get((module.replace("tensorflow_core.", "tensorflow.", 1), name))
    if row is None or row.wording != lacks.wording:
        return None, ""  # (Keras reaching the name otherwise fails in other words)
    return "keras", f"no frame is shown, and {row.where} uses {module}.{name}"


def keras_private_caller(message: str) -> bool:
    """Whether ``message`` names a private TensorFlow name that standalone Keras's own modules
    use (:data:`_KERAS_PRIVATE_NAMES`): where no frame shows the caller, that Keras asked."""
    return _keras_private_import(message)[0] is not None


def _keras_private_bare(tb: Traceback, m: Machine) -> tuple[str, str]:
    """The message ``tb`` would carry had its Python named the module (``cannot import name
    'tf_utils' from 'tensorflow.python.keras.utils'``), with words saying it was inferred.
    Only where Python 3.6 or older printed the name alone, no frame shows the import, exactly
    one row of :data:`_KERAS_PRIVATE_NAMES` has that name, that Keras imports it by name
    (:attr:`_KerasUse.wording`) and the log's TensorFlow is older than the release that added
    it (that Keras's import fails there); empty strings elsewhere."""
    bare = tb.missing_name
    if bare is None or not bare.bare_alone or tb.frames or m.tf is None:
        return "", ""
    rows = [(key, use) for key, use in _KERAS_PRIVATE_NAMES.items() if key[1] == bare.name]
    if len(rows) != 1 or rows[0][1].wording != "import" or not rows[0][1].added:
        return "", ""
    (module, name), use = rows[0]
    if version_key(m.tf.version) >= version_key(use.added):
        # This TensorFlow has the name, so that Keras's import of it does not fail here: the
        # bare name says nothing of who asked.
        return "", ""
    return (
        f"cannot import name '{name}' from '{module}'",
        f"the Python printed the name alone: the module is inferred, as TensorFlow "
        f"{m.tf.version} lacks {module}.{name} (added in {use.added}), which {use.where} "
        "imports",
    )


#: A module of tensorflow.python (its Keras copy too) that could not be imported from, or a
#: private name missing from one: the words themselves say the code reaches into TensorFlow's
#: private tree.
_PRIVATE_IMPORT = re.compile(
    # tensorflow.core holds the C++ runtime's Python side (protos, kernels' wrappers): private
    # as tensorflow.python is.
    r"cannot import name '\w+' from '(?:tensorflow|tensorflow_core)\.(?:python|core)[\w.]*'"
    r"|No module named '(?:tensorflow|tensorflow_core)\.(?:python|core)[\w.]*'"
    # A private name (a leading underscore) of a private module: no user code asks for it.
    r"|module '(?:tensorflow|tensorflow_core)\.python[\w.]*' has no attribute '_\w+'"
)


def _private_import_finding(tb: Traceback, m: Machine, led: str) -> Finding:
    """An import from TensorFlow's private tree that this TensorFlow lacks, by code the log
    does not name (``led``: the import that led there, of a module no table knows): code
    written against another TensorFlow, most often a package's (user code imports tf.*)."""
    asked = re.search(r"(?:tensorflow|tensorflow_core)\.(?:python|core)", tb.message)
    tree = asked.group(0) if asked is not None else "tensorflow.python"
    via = (
        f" The import `{led}` led to it: that module, or a package it imports, holds it."
        if led
        else ""
    )
    said = (
        f"{tb.where}: {tb.type}: {tb.message}"
        + (f" (raised by `{tb.statement}`)" if tb.statement else "")
        + f"\nThe code asks {tree}, "
        "TensorFlow's private tree, which changes between releases, for a name it lacks: the code "
        f"was written against another TensorFlow.{via} The log does not show whose code it is "
        "(a traceback's file paths would)."
    )
    general = causes.software.companion_fix(m, None)
    fix = Fix(
        f"If the code is a package's (the traceback's file paths show which): "
        f"{general.text} If it is your own code, import the public name (tf.*) instead.",
        general.commands,
    )
    return causes.finding(
        f"explain.{causes.software.COMPANION_MISMATCH}",
        # Whose code it is, the log does not show: an inference, not an observation.
        Severity.WARNING,
        causes.software.COMPANION_MISMATCH,
        "Code built for another TensorFlow imports a private TensorFlow name this release lacks",
        said,
        fix,
    )


# --- Keras 2's own module layout asked of Keras 3 ------------------------------------------------


def keras2_moved_under_src(m: Machine, tracebacks: Sequence[Traceback]) -> str:
    """The Keras 2.13-2.15 the log shows (the keras installed, else the Keras of the
    TensorFlow line shown where that line steps with one), in words; empty otherwise, and
    where a frame of ``tracebacks`` runs in Keras 3's files (observed beats inferred)."""
    if any(origin_of(f.path).generation == "Keras 3" for tb in tracebacks for f in tb.frames):
        return ""
    keras = m.facts.package("keras")
    if keras is not None and keras.version:
        shown = version_key(keras.version)[:2]
        return f"keras {keras.version}" if (2, 13) <= shown < (3, 0) else ""
    line = m.line
    if (
        m.tf is not None
        and line is not None
        and line.keras_in_step  # the matrix: 2.6-2.15
        and version_key(line.line)[:2] >= (2, 13)  # Keras 2.13 moved under keras/src
    ):
        return f"TensorFlow {m.tf.version}'s Keras ({line.line})"
    return ""


def _keras2_module(module: str) -> bool:
    """Whether ``module`` (``keras.engine``) is one of the layouts only Keras 2 has, as the
    frames' paths call them (a package or a module file)."""
    path = "/site-packages/" + module.replace(".", "/")
    return any(origin_of(path + tail).generation == "Keras 2" for tail in ("/__init__.py", ".py"))


def keras2_layout_findings(tracebacks: Sequence[Traceback], m: Machine) -> list[Finding]:
    """Code importing a module only Keras 2 has (keras.engine, keras.src.engine,
    keras.optimizers.optimizer_v2: the layouts the frames' paths call Keras 2) where Keras 3
    is installed: Keras 2 code under Keras 3."""
    for tb in tracebacks:
        # A module of the keras package missing, or one without a name asked of it.
        gone, asked = tb.missing_module, tb.missing_name
        missing = gone.name if gone is not None and gone.quoted else ""
        lacking = asked.module if asked is not None else ""
        module = next((x for x in (missing, lacking) if x.startswith("keras")), "")
        if not module:
            continue
        if module == "keras.src":
            # Keras has kept its code under keras/src/ since 2.13 (Keras 3 too): a Keras
            # without it is older than what imports it (TensorFlow 2.13+, or a file saved by
            # a newer Keras).
            return [
                causes.finding(
                    "explain.keras-version",
                    Severity.ERROR,
                    causes.software.KERAS_VERSION,
                    "The installed Keras predates keras.src (Keras 2.13), which the code imports",
                    f"{tb.where}: {tb.type}: {tb.message}\nKeras 2.13 and later (Keras 3 too) "
                    "keep their code under keras/src/; the Keras installed is older.",
                    causes.software.keras_match_fix(m),
                )
            ]
        path = "/site-packages/" + module.replace(".", "/")
        origin = origin_of(path + "/__init__.py")
        if not origin.generation:
            # A module file rather than a package (keras.src.models.functional: functional.py).
            origin = origin_of(path + ".py")
        if origin.generation == "Keras 3":
            # The module is Keras 3's layout: the Keras installed is Keras 2, older than the
            # code that imports it.
            return [
                causes.finding(
                    "explain.keras-version",
                    Severity.ERROR,
                    causes.software.KERAS_VERSION,
                    f"`{module}` is Keras 3's layout, which the installed Keras 2 does not have",
                    f"{tb.where}: {tb.type}: {tb.message}\nOnly Keras 3 (tf.keras from "
                    f"TensorFlow 2.16) has {module}: the code importing it was written for "
                    "Keras 3.",
                    causes.software.keras3_code_fix(m, module),
                )
            ]
        if origin.generation != "Keras 2":
            continue
        if missing.startswith("keras") and _keras2_module(missing.rpartition(".")[0]):
            # Python names the first module of a dotted import it did not find (CPython's
            # importlib/_bootstrap.py, _find_and_load_unlocked, imports the parent first and
            # raises for it): `keras.engine.saving` missing says keras.engine imported, which
            # Keras 3 has not. A Keras 2 without that submodule is installed
            # (multi-backend Keras' engine/saving.py and engine/topology.py), not Keras 3.
            continue
        if (
            not missing.startswith("keras")
            and asked is not None
            and asked.path != "unknown location"
        ):
            # A name refused by a Keras 2 module that imported from its own file (`cannot
            # import name 'X' from 'keras.engine' (.../keras/engine/__init__.py)`) shows a
            # Keras 2 installed, a release without that name, not Keras 3. Not the folder a
            # removed release left behind ("(unknown location)": no __init__.py, a namespace
            # package), which is all Keras 3 upgraded over Keras 2 keeps of it.
            continue
        importer = installed_package(tb.frames[-1].path) if tb.frames else None
        if (importer is not None and importer not in TF_OWN) or library_caller(tb) is not None:
            # An installed package's own import of Keras 2's layout: its release predates the
            # installed Keras, Keras 2.13's keras.src as much as Keras 3 (explain.api).
            continue
        moved = keras2_moved_under_src(m, tracebacks) if not module.startswith("keras.src.") else ""
        if moved:
            # The log shows a Keras 2 of 2.13 to 2.15, which keeps Keras 2's modules under
            # keras/src/ (keras-team/keras v2.13.1: pip_build.py): not Keras 3.
            return [
                causes.finding(
                    "explain.keras-version",
                    Severity.ERROR,
                    causes.software.KERAS_VERSION,
                    f"`{module}` is the layout of Keras 2.12 and older, which {moved} keeps "
                    "under keras.src",
                    f"{tb.where}: {tb.type}: {tb.message}\nKeras 2.13 to 2.15 moved Keras 2's "
                    f"modules under keras/src/, and the log shows {moved}: the code was "
                    "written for Keras 2.12 or older.",
                    causes.code.keras212_layout_fix(m, module),
                )
            ]
        return [
            causes.finding(
                "explain.keras3-behaviour-change",
                Severity.ERROR,
                causes.code.KERAS3_BEHAVIOUR_CHANGE,
                f"`{module}` is Keras 2's layout, which Keras 3 does not have",
                f"{tb.where}: {tb.type}: {tb.message}\nKeras 3 (tf.keras from TensorFlow "
                f"2.16) has no {module}: the code importing it was written for Keras 2.",
                causes.code.keras2_layout_fix(m, module),
            )
        ]
    return []


def _table_row(refusal: Refusal) -> Optional[ArgumentAdded]:
    """The API table's row for the keyword Python refused, where the refusing function is the
    row's (``tensorflow2_arguments``), whatever TensorFlow the log shows."""
    if refusal.shape != KEYWORD or refusal.speaker != PYTHON:
        return None
    row = keras_api().tensorflow2_arguments.get(refusal.argument)
    return row if row is not None and row.function == refusal.function else None


def _table_takes(m: Machine, message: str) -> bool:
    """Whether the TensorFlow the log shows takes the keyword Python refused in ``message``,
    as the API table dates it: then the function that refused it is not that TensorFlow's."""
    refusal = read_refusal(message)
    if refusal is None or m.tf is None:
        return False
    return _table_row(refusal) is not None and keyword_added_row(refusal, m) is None


@record
class KeywordChange(Record):
    """A keyword of a TensorFlow public callable that the signature listings date against the
    TensorFlow refusing it (:func:`keyword_change`)."""

    dated: KeywordReleases
    #: Whether a later line brought it (the TensorFlow is older than the code), else an
    #: earlier line was the last to take it (the TensorFlow is newer).
    added: bool
    #: Added: the first line after the TensorFlow that takes it. Removed: the line that
    #: dropped it.
    line: str
    #: Added: the newest line that takes it where the newest listed line does not ("" where
    #: it does).
    until: str = ""
    #: Removed: the one parameter the dropping line brought, where there is one.
    brought: str = ""


def keyword_change(api: str, keyword: str, tf_version: Optional[str]) -> Optional[KeywordChange]:
    """How the signature listings date ``keyword`` of the public callable ``api``, refused by
    the TensorFlow ``tf_version`` (None: not shown): first taken by a later line, or taken only
    by earlier lines up to a line that dropped it. With no TensorFlow shown, a keyword that the
    newest line takes and every line from its first (whose line before is read without it),
    or one taken from the callable's first read line up to a line read without it. None where
    the listings do not read the callable in the lines that decide, where the TensorFlow shown
    takes the keyword or the callable takes ``**kwargs`` there (refused by what it passes them
    on to), where no line takes it, where lines on both sides of the TensorFlow take it, or
    where the change lies between TensorFlow 1 and 2: their ``tf.`` names are other functions
    (TensorFlow 2 keeps 1.x's under ``tf.compat.v1``), not one function that changed."""
    dated = keyword_releases(api, keyword)
    if not dated.taking:
        return None
    until = "" if dated.takes(dated.known[-1]) else dated.last
    shown = ".".join(tf_version.split(".")[:2]) if tf_version else ""
    if shown:
        if shown not in dated.known or dated.takes(shown) is not False:
            return None  # a line the listings lack, one that takes it, or one not read
        if KWARGS_MARK in parameters_of(api).get(shown, frozenset()):
            return None
        later = [x for x in dated.taking if version_key(x) > version_key(shown)]
        if later and len(later) < len(dated.taking):
            return None  # taken on both sides: no one direction
        if later:
            if not _same_major(later[0], shown):
                return None
            return KeywordChange(dated, True, later[0], until)
    else:
        run = dated.known[dated.known.index(dated.first) : dated.known.index(dated.last) + 1]
        if dated.taking != run:
            return None  # taken for a while, then not, then again: no one direction
        at = dated.known.index(dated.first)
        if not until and dated.before(dated.first) is False:
            if not _same_major(dated.first, dated.known[at - 1]):
                return None
            return KeywordChange(dated, True, dated.first)
        if dated.first != dated.having[0]:
            return None  # a line before its first is read without it: no one direction
    removed_in, dropped = dated.after(dated.last)
    if dropped is not False or not _same_major(removed_in, dated.last):
        return None  # the line after its last is not read, or is another major's
    if shown and not _same_major(removed_in, shown):
        return None
    read = parameters_of(api)
    brought = sorted(read[removed_in] - read[dated.last] - {KWARGS_MARK})
    return KeywordChange(dated, False, removed_in, brought=brought[0] if len(brought) == 1 else "")


def _same_major(one: str, other: str) -> bool:
    """Whether two lines (``2.4``, ``2.9``) are of one major release."""
    return version_key(one)[:1] == version_key(other)[:1]


def listed_keyword_removed_fix(m: Machine, api: str, change: KeywordChange, user: str = "") -> Fix:
    """The fix of code passing a keyword of ``api`` that a line dropped (``change``): what
    ``api`` takes from then on (its API docs; the one argument that line brought named, where
    there is one, as what the listings observe, not as the keyword's replacement: a line may
    drop one argument and bring an unrelated one, as 2.2's ``set_loop_options`` dropped
    ``back_prop`` and brought ``shape_invariants``), or a TensorFlow before that line;
    ``user``: the library whose code passed it."""
    since = change.line
    kept = f"`{change.dated.keyword}=` left"
    use = f"the arguments `{api}` takes from TensorFlow {since} on (its API docs" + (
        f"; {since} brought `{change.brought}=` as {kept})" if change.brought else ")"
    )
    what = f"`{change.dated.keyword}=` of `{api}`"
    return causes.software.release_removed_fix(m, "tensorflow", since, what, use, user)


def keyword_added_row(refusal: Refusal, m: Machine) -> Optional[ArgumentAdded]:
    """The API table's row for the keyword Python refused (``conv() got an unexpected keyword
    argument 'batch_group_count'``), where the refusing function is the row's and the log
    shows no TensorFlow that already takes it (one that does refused for another reason)."""
    row = _table_row(refusal)
    if row is None:
        return None
    if m.tf is not None and version_key(m.tf.version)[:2] >= version_key(row.added_in)[:2]:
        return None
    return row


def release_unknown_fix(
    fix: Fix, dist: str, refusal: Refusal, product: str, known: bool, called: str = ""
) -> Fix:
    """``fix`` saying that no table here knows which release changed what the refusing
    function takes, and how the library's own requirements say which TensorFlow (or Keras)
    its release was written for: the ranges it declares, printed from its installed metadata
    (:func:`causes.common.declared_requirements_command`, which runs on the Pythons before
    3.8 too). ``called``: the call the line makes where
    Python's words name only a constructor (``tf.name_scope``)."""
    callee = (
        f"`{called or refusal.callee}`" if called or refusal.callee else f"the {product} function"
    )
    text = (
        f"{fix.text} Which {product} release changed what {callee} takes is not in "
        "tfdoctor's API tables: the release notes of "
        + (
            f"{dist}, or the {product} range its release declares where it declares one "
            "(the last command prints its requirements), "
            if known
            else "that library "
        )
        + f"say which {product} it was written for."
    )
    if not known:
        return Fix(text, fix.commands)
    return Fix(text, (*fix.commands, causes.common.declared_requirements_command(dist)))


def refused_call_fix(
    m: Machine,
    dist: str,
    refusal: Refusal,
    fix: Fix,
    product: str = "TensorFlow",
    called: str = "",
    listed: str = "",
) -> Fix:
    """The fix of ``dist``'s call that ``product``'s function refused (``refusal``): where the
    API table knows the line that brought the refused keyword (:func:`keyword_added_row`),
    or the signature listings date it for ``listed``, the public name the caller's line calls
    with it (:func:`keyword_change`), that line or later, or the library's release for the
    installed TensorFlow (the line that dropped it, or one before it); elsewhere
    ``fix`` (the library's release), saying the tables do not know
    (:func:`release_unknown_fix`; ``called`` as there). ``fix`` as it is where the table
    dates the keyword but the log's TensorFlow already takes it, and for a companion, whose
    pairing with TensorFlow its compatibility table gives (tensorflow-probability declares no
    TensorFlow in its requirements: its setup.py's REQUIRED_PACKAGES)."""
    known = known_distribution(dist) or m.facts.package(dist) is not None
    row = keyword_added_row(refusal, m)
    if row is not None:
        return causes.software.keyword_release_fix(
            m, dist, row.api, refusal.argument, row.added_in, known
        )
    if _table_row(refusal) is not None or m.companion(dist) is not None:
        return fix
    change = (
        keyword_change(listed, refusal.argument, m.tf.version if m.tf is not None else None)
        if listed and refusal.shape == KEYWORD and refusal.speaker == PYTHON
        else None
    )
    if change is not None and change.added and not change.until:
        return causes.software.keyword_release_fix(
            m, dist, listed, refusal.argument, change.line, known
        )
    if change is not None and not change.added:
        return listed_keyword_removed_fix(m, listed, change, dist)
    return release_unknown_fix(fix, dist, refusal, product, known, called)
