"""Checks on the installed packages: TensorFlow's distributions, their wheels, the ranges
TensorFlow and its companions declare, conda's packages and an ``--against`` file."""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Iterator, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix, pip_command, unknown
from tfdoctor.checks._shared import (
    import_output,
    installed_line,
    read_output,
    specifier,
    wheel_misfits,
)
from tfdoctor.compat import keras3_serves_tf_keras
from tfdoctor.evidence.conda import CONDA_TENSORFLOW
from tfdoctor.facts import (
    TENSORBOARD_DISTRIBUTIONS,
    TF_DISTRIBUTIONS,
    CondaPackage,
    PackageFacts,
    TFStatus,
    normalize_name,
    requirement_name,
)
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import (
    COMPANION_TARGETS,
    LAZY_IMPORTS,
    START_IMPORTS,
    Machine,
    applicable_requirements,
    separate_installations,
)
from tfdoctor.matrix import (
    Keras2User,
    TFLine,
    above_range,
    exact_pin,
    spec_contains,
    version_key,
)
from tfdoctor.modules import RemovedApiUser, modules


def check_tf_distributions(ctx: CheckContext) -> Iterator[Finding]:
    """Two distributions writing ``tensorflow/`` overwrite each other's files."""
    facts = ctx.facts
    if facts.packages is None:
        yield unknown("packages.tensorflow", "the installed packages", facts.error_for("python"))
        return
    m = ctx.machine
    providers = list(m.tf_providers)
    if not providers:
        wheelless = causes.platform.missing_without_release_fix(m)
        if wheelless is not None:
            # "Install TensorFlow" would fail here whatever the pip: no release has a wheel
            # for this interpreter. An error, as tensorflow.python, which only notes it, says
            # of a Python no release serves.
            yield causes.finding(
                "packages.tensorflow",
                Severity.ERROR,
                causes.platform.TF_NO_WHEEL_FOR_PYTHON,
                "TensorFlow is not installed, and no release has a wheel for this Python here",
                "",
                wheelless,
            )
            return
        old_pip = _pip_too_old(m)
        if old_pip is not None:
            yield causes.finding(
                "packages.tensorflow",
                _not_installed_severity(ctx),
                causes.platform.PIP_TOO_OLD,
                f"TensorFlow is not installed, and pip {old_pip[0]} cannot install it here",
                old_pip[1],
                _pip_then_tensorflow_fix(m, old_pip[0], old_pip[1]),
            )
            return
        yield causes.finding(
            "packages.tensorflow",
            _not_installed_severity(ctx),
            causes.software.TF_NOT_INSTALLED,
            "TensorFlow is not installed in this environment",
            "No distribution that provides `import tensorflow` was found in "
            + (facts.python.prefix if facts.python else "this interpreter")
            + ".",
            causes.software.tensorflow_install_fix(m),
        )
        return
    user_copy = _user_site_copy(ctx, providers)
    if user_copy is not None:
        yield user_copy
        return
    separate = separate_installations({normalize_name(p.name): p.requires for p in providers})
    independent = [p for p in providers if normalize_name(p.name) in separate]
    if len(independent) <= 1:
        listing = ", ".join(f"{p.name} {p.version}" for p in providers)
        yield Finding("packages.tensorflow", Severity.OK, f"One TensorFlow installation: {listing}")
        return
    listing = ", ".join(f"{p.name} {p.version}" for p in independent)
    yield causes.finding(
        "packages.tensorflow",
        Severity.ERROR,
        causes.software.TF_MULTIPLE_DISTRIBUTIONS,
        f"{len(independent)} TensorFlow distributions are installed side by side: {listing}",
        "",
        causes.software.reinstall_tf_fix(
            m, "Remove every TensorFlow distribution, then install exactly one."
        ),
    )


def check_removed_api_users(ctx: CheckContext) -> Iterator[Finding]:
    """Each installed release whose code uses what the installed release of another
    distribution removed (the module table's ``removed_api_users`` rows): TensorBoard's
    pkg_resources beside setuptools 82, read from the installed versions alone."""
    facts = ctx.facts
    if facts.packages is None:
        return
    table = modules()
    for user in table.removed_api_users:
        pkg = facts.package(user.dist)
        if pkg is None or spec_contains(pkg.version, user.releases) is not True:
            continue
        if user.after and facts.package(user.after) is None:
            continue  # the code fails on importing that distribution before the use
        if user.python:
            found = _python_removal_user(ctx, user, pkg)
            if found is not None:
                yield found
            continue
        row = table.removed_from_dist[user.module]
        dep = facts.package(row.dist)
        if dep is None or version_key(dep.version) < version_key(row.removed_in):
            continue
        what = causes.software.removed_api_name(user.module, user.name)
        yield causes.finding(
            "packages.removed-api",
            Severity.ERROR,
            causes.software.DEPENDENCY_API_REMOVED,
            f"{pkg.name} {pkg.version} uses {what}, which {row.dist} {dep.version} "
            "no longer provides",
            f"{row.dist} {row.removed_in} "
            f"{'no longer imports' if row.unimported else 'removed'} {what}; {user.fails} "
            "fails beside it "
            f"({pkg.name} {user.fixed_in} no longer uses it).",
            causes.software.removed_api_user_fix(ctx.machine, user),
            links=(*user.links, *row.links),
        )


def _python_removal_user(
    ctx: CheckContext, user: RemovedApiUser, pkg: PackageFacts
) -> Optional[Finding]:
    """An installed release whose code uses what this Python's release removed from the
    standard library (a ``removed_api_users`` row on a ``removed_from_python`` row: TensorBoard
    before 2.8's vendored html5lib and collections.Mapping, gone in 3.10); None on an older
    Python, or where the Python is not known."""
    python = ctx.machine.python_version
    table = modules()
    what = f"{user.module}.{user.name}" if user.name else user.module
    # The row resolved when the table was read: one of removed_from_python's.
    gone = table.removed_names.get(what) or table.removed[user.module]
    if not python or gone.kept_by(python):
        return None
    return causes.finding(
        "packages.removed-api",
        Severity.ERROR,
        causes.platform.PYTHON_REMOVED_MODULE,
        f"{pkg.name} {pkg.version} uses {what}, which Python {python} no longer has",
        f"Python {user.python} removed {what}; {user.fails} fails on it ({pkg.name} "
        f"{user.fixed_in} no longer uses it).",
        causes.platform.removed_module_fix(
            ctx.machine,
            user.module,
            user.python,
            gone.replacement(user.name),
            pkg.name,
            True,
            user.name,
            fixed_in=user.fixed_in,
        ),
        links=user.links,
    )


def _not_installed_severity(ctx: CheckContext) -> Severity:
    """How bad no TensorFlow distribution is, whatever the reason (an old pip, none
    installed): an error where the target interpreter itself was asked and has no
    ``tensorflow`` module on its path (the child's find_spec, observed: ``import tensorflow``
    raises the ModuleNotFoundError explain reads as this cause at error, signatures.yaml), a
    warning where only the listing says so (--static: a source tree or a copy without
    metadata on the path would still import)."""
    tf = ctx.facts.tensorflow
    if tf is not None and tf.status == TFStatus.NOT_INSTALLED:
        return Severity.ERROR
    return Severity.WARNING


def _same_dir(a: str, b: str) -> bool:
    """Whether two directory paths name one directory (a trailing separator aside)."""
    return a.rstrip("/\\") == b.rstrip("/\\")


def _user_site_copy(ctx: CheckContext, providers: list[PackageFacts]) -> Optional[Finding]:
    """A TensorFlow in the per-user site-packages that ``import tensorflow`` resolves to, with
    another in the environment: the user site comes before the environment's own
    site-packages on sys.path (conda's Pythons read it; site.ENABLE_USER_SITE), so the user's
    copy is imported and runs against the environment's packages. One distribution name in two
    places is no pair of distributions side by side: the copy to remove is the user site's."""
    py = ctx.facts.python
    if py is None or py.tensorflow_path_kind != "user-site" or not py.tensorflow_path_entry:
        return None
    entry = py.tensorflow_path_entry
    user = [p for p in providers if p.location and _same_dir(p.location, entry)]
    others = [p for p in providers if p not in user]
    if not user or not others:
        return None
    mine = ", ".join(f"{p.name} {p.version}" for p in user)
    theirs = ", ".join(f"{p.name} {p.version} ({p.location})" for p in others)
    return causes.finding(
        "packages.tensorflow",
        Severity.ERROR,
        causes.software.TF_SHADOWED_MODULE,
        f"TensorFlow is installed twice: {mine} in the user site-packages, which this Python "
        f"imports, and {theirs} in the environment",
        f"sys.path entry: {entry}",
        causes.software.user_site_fix(ctx.machine, entry, [p.name for p in user], kept=True),
    )


_MACOS_RELEASE = re.compile(r"macOS (\d+)")


def _pip_too_old(m: Machine) -> Optional[tuple[str, str]]:
    """The interpreter's pip and why it finds no TensorFlow wheel for this platform, where it
    is older than the first pip that reads the platform tags of every TensorFlow wheel this
    Python has (the matrix's newest fit): manylinux2010 on Linux (pip 19.0, PEP 571), macOS
    11's own version on macOS 11 and later (pip 20.3). None where pip is recent enough, its
    version unknown, or no TensorFlow release fits this machine at all (then the Python is
    the cause, not pip)."""
    from tfdoctor.compat import newest_fit  # noqa: PLC0415

    py, plat = m.facts.python, m.facts.platform
    if py is None or plat is None or not py.pip_version or m.matrix is None:
        return None
    if newest_fit(m.matrix, m.target) is None:
        return None
    pip = version_key(py.pip_version)
    macos = _MACOS_RELEASE.match(plat.os_name or "") if m.os == "macos" else None
    if macos is not None and int(macos.group(1)) >= 11 and pip < causes.platform.PIP_MACOS11:
        # A pip before 20.3 tags this machine macosx_11_0 only (as the interpreter reports
        # 11.x), so it matches none of the macosx_10_x wheels TensorFlow publishes
        # (pip's 20.3 release notes, https://pip.pypa.io/en/stable/news/#v20-3).
        return py.pip_version, (
            f"pip {py.pip_version} predates pip 20.3, the first that reads macOS 11's "
            f"platform tags; on {plat.os_name} it matches no macOS wheel of TensorFlow and "
            "lists no release at all ('No matching distribution found for tensorflow')."
        )
    if m.os == "linux" and pip < causes.platform.PIP_MANYLINUX2010:
        # Every Linux wheel of TensorFlow since 1.15 and 2.0 is tagged manylinux2010 or newer.
        return py.pip_version, (
            f"pip {py.pip_version} predates pip 19.0, the first that reads the manylinux2010 "
            "platform tag of TensorFlow's Linux wheels since 1.15 and 2.0: it lists only older "
            "releases, or none."
        )
    return None


def _pip_then_tensorflow_fix(m: Machine, pip: str, reason: str) -> Fix:
    """Upgrade this interpreter's pip, then install the newest TensorFlow that fits."""
    upgrade = causes.platform.pip_upgrade_fix(m, reason, pip=pip)
    install = causes.software.tensorflow_install_fix(m)
    return Fix(
        f"{upgrade.text} {install.text}",
        (
            # A pip before 9.0 ignores Requires-Python: first a pip that reads it and still
            # runs on old Pythons (the last before 21), as pip_upgrade_fix says.
            *(
                m.pip('install --upgrade "pip<21"')
                if version_key(pip) < causes.platform.PIP_REQUIRES_PYTHON
                else ()
            ),
            *m.pip("install --upgrade pip"),
            *install.commands,
        ),
    )


def check_tensorflow_gpu_package(ctx: CheckContext) -> Iterator[Finding]:
    """``tensorflow-gpu`` stopped at 2.11; since 2.12 PyPI only has a package that refuses to
    install. The plain ``tensorflow`` wheel carries GPU support on Linux since 2.1."""
    facts = ctx.facts
    if facts.packages is None:
        return
    pkg = facts.package("tensorflow-gpu")
    if pkg is None:
        return
    line = ctx.matrix.line_for(pkg.version) if ctx.matrix is not None else None
    # Older than every line the matrix knows (1.14 and before): tensorflow-gpu was the GPU
    # build then too.
    older = (
        ctx.matrix is not None
        and line is None
        and version_key(pkg.version) < version_key(ctx.matrix.lines[-1].line)
    )
    if (line is not None and line.tensorflow_gpu_release) or older:
        # Up to 2.11 tensorflow-gpu was published beside tensorflow as its GPU build (the
        # only GPU build for 1.15 and 2.0, where plain tensorflow was CPU-only).
        only_gpu_build = line is None or line.gpu_package.get("linux") == "tensorflow-gpu"
        yield Finding(
            "packages.tensorflow-gpu",
            Severity.INFO if only_gpu_build else Severity.OK,
            f"tensorflow-gpu {pkg.version} is the GPU build of TensorFlow "
            f"{'.'.join(pkg.version.split('.')[:2])}",
            "Newer lines ship GPU support in `tensorflow` itself; tensorflow-gpu ended with 2.11.",
        )
        return
    if line is not None and line.gpu_package.get("linux") == "tensorflow-gpu":
        # 1.15 and 2.0: the plain tensorflow wheel was a CPU build; this is the GPU build.
        yield Finding(
            "packages.tensorflow-gpu",
            Severity.INFO,
            f"tensorflow-gpu {pkg.version} is the GPU build of TensorFlow {line.line}",
            "For this line the plain `tensorflow` wheel was CPU-only. Newer lines ship GPU "
            "support in `tensorflow` itself; tensorflow-gpu ended with 2.11.",
        )
        return
    m = ctx.machine
    yield causes.finding(
        "packages.tensorflow-gpu",
        Severity.WARNING,
        causes.software.TF_GPU_PACKAGE_REMOVED,
        f"The removed tensorflow-gpu package is installed ({pkg.version})",
        "tensorflow-gpu has been removed from PyPI: its last release line is 2.11 and later "
        "versions only print an error. GPU support on Linux comes with the plain `tensorflow` "
        "wheel; `tensorflow[and-cuda]` (2.14+) also installs the CUDA libraries.",
        causes.software.tensorflow_gpu_removed_fix(m),
    )


def check_wheel_tags(ctx: CheckContext) -> Iterator[Finding]:
    """The installed wheels were built for this Python and machine (their WHEEL tags)."""
    facts, m = ctx.facts, ctx.machine
    if facts.packages is None or facts.python is None or m.tf is None:
        return
    if not any(p.wheel_tags for p in facts.packages):
        unpublished = causes.software.unpublished_here(m)
        if unpublished:
            # No tags to read, but the index of PyPI's files knows the release has no wheel
            # for this system and architecture at all.
            yield causes.finding(
                "packages.wheels",
                Severity.WARNING,
                causes.platform.WHEEL_MISMATCH,
                "Installed, though PyPI has no wheel of them for this machine: "
                + ", ".join(f"{p.name} {p.version}" for p, _ in unpublished),
                "\n".join(f"{p.name} {p.version}: {r.describe()}" for p, r in unpublished),
                causes.software.unpublished_fix(m, unpublished),
            )
            return
        yield Finding(
            "packages.wheels",
            Severity.INFO,
            "Could not judge the wheels: no WHEEL tags recorded",
            "Installed without wheels (conda, a source build), or facts from an older tfdoctor.",
        )
        return
    misfits = wheel_misfits(ctx)
    if misfits is None:
        tags = f" ({', '.join(m.tf.wheel_tags)})" if m.tf.wheel_tags else ""
        yield Finding("packages.wheels", Severity.OK, f"The wheels fit this interpreter{tags}")
        return
    # TensorFlow and what it imports as it starts fail `import tensorflow`; where that ran
    # and succeeded, the observation outranks the tags.
    tf = facts.tensorflow
    fatal = misfits.severity is Severity.ERROR
    ok = tf is not None and tf.status == TFStatus.OK
    yield misfits if fatal and not ok else dataclasses.replace(misfits, severity=Severity.WARNING)


def _in_range(version: str, spec: str) -> bool:
    """``version`` satisfies a declared ``spec`` as ``pip check`` judges it; what does not
    parse is not judged."""
    return spec_contains(version, spec) is not False


#: Packages whose version range against TensorFlow breaks imports most often, with the
#: severity of being outside TensorFlow's declared range.
_PINNED = (
    ("numpy", Severity.ERROR),
    ("keras", Severity.ERROR),
    ("protobuf", Severity.WARNING),
    ("ml-dtypes", Severity.WARNING),
)


def _judged(m: Machine) -> tuple[tuple[str, Severity], ...]:
    """Every requirement TensorFlow declares here: the pinned packages first, then what
    ``import tensorflow`` imports as it starts, then the rest (imported when used)."""
    declared = [name for name, _ in m.declared_requirements]
    pinned = {dist for dist, _ in _PINNED}
    start = sorted(d for d in declared if d in START_IMPORTS and d not in pinned)
    rest = sorted(d for d in declared if d not in START_IMPORTS and d not in pinned)
    return (*_PINNED, *((d, Severity.WARNING) for d in (*start, *rest)))


def _admits(spec: Optional[str], version: str) -> bool:
    """The matrix pin ``spec`` admits ``version`` (no pin admits nothing)."""
    return spec is not None and version in specifier(spec)


def _pin_detail(dist: str, version: str, line: Optional[TFLine], own: bool = True) -> str:
    """Why ``dist`` ``version`` outside TensorFlow's range matters; ``own``: the installed
    wheel declares the range itself (else the matrix's pin or undeclared range stands in)."""
    major = version_key(version)[:1]
    # What the line was built for is read from the matrix, not from release numbers: the
    # NumPy ABI it was compiled against (numpy_abi, sourced); keras<3 (its pins) means Keras 2.
    if dist == "numpy" and major >= (2,) and line is not None and line.runs_on_numpy2() is False:
        return (
            f"NumPy 2 changed its C ABI: TensorFlow {line.line} was compiled against NumPy 1.x "
            "and fails to import ('compiled using NumPy 1.x cannot be run in NumPy 2')."
        )
    if (
        dist == "keras"
        and major >= (3,)
        and line is not None
        and not _admits(line.pins.keras, "3.0.0")
    ):
        return (
            f"Keras 3 does not serve tf.keras on TensorFlow {line.line} (its wheel pins Keras "
            f"{line.pins.keras}); `tf.keras` breaks."
        )
    undeclared = line.undeclared_ranges.get(dist) if line is not None else None
    if line is not None and not own and undeclared and not _admits(undeclared, version):
        return (
            f"TensorFlow {line.line}'s code needs {dist}{undeclared}, which this release's wheel "
            "does not declare (its line's last patches do): pip installed a newer one without a "
            "word, and `pip check` does not report it."
        )
    return "Outside the range TensorFlow's wheel declares (`pip check` reports it too)."


def check_dependency_pins(ctx: CheckContext) -> Iterator[Finding]:
    """Every requirement the installed TensorFlow and its companions declare, judged against
    what is installed (what ``pip check`` reports, with a severity and the side to move)."""
    facts = ctx.facts
    if facts.packages is None:
        return
    pkg, line = installed_line(ctx)
    if pkg is None:
        return
    m = ctx.machine
    reported: set[str] = set()
    yield from _missing_dependencies(ctx, pkg)
    for dist, pinned_severity in _judged(m):
        severity = pinned_severity
        dep = facts.package(dist)
        spec = m.declared_range(dist)
        if dep is None or spec is None or _in_range(dep.version, spec):
            continue
        own = any(normalize_name(requirement_name(r)) == dist for r in pkg.requires)
        detail = _pin_detail(dist, dep.version, line, own)
        # protobuf above TensorFlow's cap, of a major the range admits and short of the
        # runtime that refuses old generated code: known to load (protobuf_above_cap_loads).
        loads = dist == "protobuf" and causes.software.protobuf_above_cap_loads(dep.version, spec)
        if dist in START_IMPORTS and not m.import_observed and not loads:
            # Observed beats inferred: where the import ran, its outcome is the verdict
            # (tensorflow.import); where it did not (--static), the declaration is all there
            # is, and TensorFlow imports this package before anything else can run.
            severity = Severity.ERROR
            detail += (
                f" TensorFlow imports it as it starts ({START_IMPORTS[dist]}), and the import "
                "was not run to show this version works (--static)."
            )
        elif dist in LAZY_IMPORTS:
            detail += (
                f" TensorFlow imports it only when used, by {LAZY_IMPORTS[dist]}: that is where "
                "an incompatible version fails, not `import tensorflow`."
            )
        elif dist not in START_IMPORTS and dist not in dict(_PINNED):
            detail += " TensorFlow does not import it as it starts; what uses it may fail."
        cause, remedy = causes.software.DEPENDENCY_OUT_OF_RANGE, causes.common.range_fix(m, dist)
        if dist == "numpy" and above_range(dep.version, spec):
            # Outside the range upwards by a major: NumPy 2 under a NumPy 1 build, known to
            # break the import (an error even when --static did not try it). A line the
            # matrix states was compiled with NumPy 2 is only out of its declared range.
            if version_key(dep.version)[:1] >= (2,) and (line is None or not line.runs_on_numpy2()):
                cause, remedy, severity = (
                    causes.software.NUMPY_ABI,
                    causes.software.numpy_abi_fix(m),
                    Severity.ERROR,
                )
        elif dist == "protobuf" and causes.software.protobuf_breaks_generated_code(
            dep.version, spec
        ):
            cause, severity = causes.software.PROTOBUF_INCOMPATIBLE, Severity.ERROR
        elif loads and (_imported(ctx) or not m.import_observed):
            # Above TensorFlow's cap but short of the runtime that refuses its generated code:
            # a note, not a fault, where TensorFlow imported with it (observed) and where the
            # import's outcome is not known (--static), as the runtime loads that code. A
            # failed import keeps the warning: this package is then one candidate among others.
            severity = Severity.INFO
            seen = (
                "TensorFlow imported with it (observed)"
                if _imported(ctx)
                else "the import's outcome is not known (not run, as under --static)"
            )
            detail += (
                f" {seen}: a protobuf runtime loads code generated by older protoc releases up "
                "to 4.21, which refuses code from before 3.19 (https://protobuf.dev/news/2022-05-06/)."
            )
        elif dist == "protobuf" and not loads:
            cause = _protobuf_cause(ctx)
        elif dist == "keras":
            cause, remedy = causes.software.KERAS_VERSION, causes.software.keras_match_fix(m)
        reported.add(dist)
        whose = f"TensorFlow {pkg.version}'s range"
        if not own and line is not None and dist in line.undeclared_ranges:
            # The matrix's undeclared range, not the wheel's: said as what the code needs.
            whose = f"the range TensorFlow {pkg.version}'s code needs,"
            if remedy is not None:
                remedy = Fix(
                    f"Install the {dist} range TensorFlow {line.line}'s code needs ({dist}"
                    f"{spec}; the line's last patches declare it).",
                    remedy.commands,
                )
        yield causes.finding(
            "packages.pins",
            severity,
            cause,
            f"{dep.name} {dep.version} is outside {whose} {dist}{spec}",
            detail,
            remedy,
        )
    yield from _beyond_tensorflows_pins(ctx, pkg, line, reported)


def _numpy2_under_numpy1_build(
    ctx: CheckContext, line: Optional[TFLine], reported: set[str]
) -> Iterator[Finding]:
    """NumPy 2 inside the range TensorFlow declares (a floor only), under a line compiled
    against NumPy 1.x (:meth:`TFLine.runs_on_numpy2` False): its import fails on NumPy 2's
    ABI, and `pip check` is silent. Only where the import was not run (--static): where it
    ran, its outcome is the verdict (observed beats inferred)."""
    m = ctx.machine
    numpy = ctx.facts.package("numpy")
    if (
        "numpy" in reported
        or numpy is None
        or line is None
        or m.import_observed
        or version_key(numpy.version)[:1] < (2,)
        or line.runs_on_numpy2() is not False
    ):
        return
    reported.add("numpy")
    yield causes.finding(
        "packages.pins",
        Severity.ERROR,
        causes.software.NUMPY_ABI,
        f"numpy {numpy.version} is NumPy 2, and TensorFlow {line.line} was compiled against "
        "NumPy 1.x",
        f"NumPy 2 changed its C ABI: TensorFlow {line.line} fails to import ('compiled using "
        "NumPy 1.x cannot be run in NumPy 2'), though its wheel declares numpy"
        f"{m.declared_range('numpy') or ''} (a floor only), so `pip check` is silent. The "
        "import was not run to show otherwise (--static).",
        causes.software.numpy_abi_fix(m),
    )


def _beyond_tensorflows_pins(
    ctx: CheckContext, pkg: PackageFacts, line: Optional[TFLine], reported: set[str]
) -> Iterator[Finding]:
    """What TensorFlow's own pins leave to the rest of its family: the family's ranges, a
    library's exact pins, Keras and TensorBoard beside TensorFlow, the companions
    (``reported``: the distributions TensorFlow's own ranges already named)."""
    yield from _family_ranges(ctx, reported)
    yield from _numpy2_under_numpy1_build(ctx, line, reported)
    yield from _library_pins(ctx)
    yield from _keras_in_step(ctx, pkg, line, reported)
    yield from _keras_shared(ctx, pkg)
    yield from _tensorboard_shared(ctx)
    yield from _tf_keras(ctx, pkg, line)
    yield from _companions_judged(ctx, pkg)
    yield from _standalone_keras(ctx, pkg)
    yield from _tensorboard(ctx, pkg)


def _protobuf_cause(ctx: CheckContext) -> causes.CauseId:
    """The cause of a protobuf outside a range TensorFlow or its family declares.

    protobuf's range is the one the generated code needs, either way out of it: below the
    floor the runtime lacks what that code imports (causes.software.PROTOBUF_GENCODE_MODULES:
    protoc 3.20's code imports google.protobuf.internal.builder), above the cap it may refuse
    the code; explain names pip's notice on protobuf so (explain/packages.py). Not for a
    protobuf above the cap that still loads the code
    (causes.software.protobuf_above_cap_loads): that range is broken, the code is not. Where the
    import ran and worked, that claim is refuted (causes.CONTRADICTED_BY, "tf-imports") and
    would fall to a note; what stays is the declared range broken, which `pip check` reports
    and what else loads generated code may fail on: the range's own cause.
    """
    if _imported(ctx):
        return causes.software.DEPENDENCY_OUT_OF_RANGE
    return causes.software.PROTOBUF_INCOMPATIBLE


def _library_pins(ctx: CheckContext) -> Iterator[Finding]:
    """A library written against TensorFlow (the module table's ``on_tensorflow``) that pins
    one exact release of a shared dependency (deepctr 0.9.3: ``h5py==3.7.0``) while another
    is installed: what ``pip check`` reports of it, with the cause and fix explain gives
    pip's notice of the same pair (explain/packages.py, ``_library_pin``). TensorFlow's own
    distributions and family declare ranges judged above; a pin on TensorFlow is a
    companion's, on protobuf the generated code's."""
    m = ctx.machine
    own = {normalize_name(p.name) for p in (*m.tf_providers, *m.tf_declaring)}
    for requirer in ctx.facts.packages or ():
        name = normalize_name(requirer.name)
        if name in own or name in TF_DISTRIBUTIONS or causes.software.tensorflow_family(name):
            continue
        if not causes.software.written_on_tensorflow(name):
            continue
        for target, spec in applicable_requirements(requirer.requires, m.marker_env):
            if exact_pin(spec) is None or target in TF_DISTRIBUTIONS or target == "protobuf":
                continue
            dep = ctx.facts.package(target)
            if dep is None or _in_range(dep.version, spec):
                continue
            yield causes.finding(
                "packages.pins",
                Severity.WARNING,
                causes.software.LIBRARY_PIN_CONFLICTS,
                f"{requirer.name} {requirer.version} pins {target}{spec}; {target} "
                f"{dep.version} is installed",
                causes.software.library_pin_detail(f"{requirer.name} {requirer.version}", target),
                causes.software.library_pin_fix(m, name, target, spec, dep.version),
            )


def _family_ranges(ctx: CheckContext, reported: set[str]) -> Iterator[Finding]:
    """What ``pip check`` reports of TensorFlow's own family (TensorBoard, tensorflow-metadata,
    tensorflow-datasets): each declares the ranges its code runs with, as TensorFlow does, so a
    dependency installed outside one is the same fault, on the package that states it; on
    protobuf, any package of TensorFlow's ecosystem (its messages are compiled with one
    protobuf). The readings explain gives pip's notice of the same pair (explain/packages.py,
    ``_conflict``); TensorFlow's own ranges (``reported``) and a companion's range on
    TensorFlow or Keras are judged above, and a protobuf above a cap that still loads the
    code is pip's notice only."""
    m = ctx.machine
    # TensorFlow's own distributions: their ranges are judged above.
    own = {normalize_name(p.name) for p in (*m.tf_providers, *m.tf_declaring)}
    wanted: dict[str, list[tuple[PackageFacts, str]]] = {}
    for requirer in ctx.facts.packages or ():
        name = normalize_name(requirer.name)
        if name in own:
            continue
        for target, spec in applicable_requirements(requirer.requires, m.marker_env):
            family = causes.software.tensorflow_family(name) or (
                target == "protobuf" and causes.software.tensorflow_ecosystem(name)
            )
            if not spec or not family or target in COMPANION_TARGETS or target in reported:
                continue
            dep = ctx.facts.package(target)
            if dep is None or _in_range(dep.version, spec):
                continue
            if target == "protobuf" and causes.software.protobuf_above_cap_loads(dep.version, spec):
                continue
            wanted.setdefault(target, []).append((requirer, spec))
    for target, pairs in sorted(wanted.items()):
        dep = ctx.facts.package(target)
        assert dep is not None  # only installed targets are collected
        names = ", ".join(f"{p.name} {p.version}" for p, _ in pairs)
        specs = [spec for _, spec in pairs]
        tf_range = m.declared_range(target)
        joint = causes.common.joint_range((*specs, *((tf_range,) if tf_range else ())))
        breaks = target == "protobuf" and any(
            causes.software.protobuf_breaks_generated_code(dep.version, s) for s in specs
        )
        yield causes.finding(
            "packages.pins",
            Severity.ERROR if breaks else Severity.WARNING,
            _protobuf_cause(ctx)
            if target == "protobuf"
            else causes.software.DEPENDENCY_OUT_OF_RANGE,
            f"{dep.name} {dep.version} is outside the range {names} declare"
            f"{'s' if len(pairs) == 1 else ''} ({'; '.join(f'{target}{s}' for s in specs)})",
            (
                "Their messages are compiled for the protobuf range they declare"
                if target == "protobuf"
                else "TensorFlow's project releases them with the ranges their code runs with"
            )
            + "; another release may not import or run (`pip check` reports it too).",
            causes.common.install_fix(
                m,
                f"Install {target} in the range "
                + ("they declare" if len(pairs) > 1 else f"{pairs[0][0].name} declares")
                + (" and TensorFlow's" if tf_range else "")
                + ", after the packages that pulled the other release.",
                f"{target}{joint}",
            )
            if joint is not None
            else Fix(
                f"No {target} release is admitted by every range on it here: install "
                "the release of "
                + pairs[0][0].name
                + " made for this TensorFlow (its releases are listed below).",
                m.list_releases(pairs[0][0].name),
            ),
        )


#: The distributions that install the ``keras`` package TensorFlow has required.
_KERAS_DISTS = causes.software.KERAS_PACKAGE_DISTRIBUTIONS


def _installing(
    packages: Sequence[PackageFacts], folder: str, names: Sequence[str]
) -> list[PackageFacts]:
    """The distributions that install the import package ``folder`` into one directory: by
    the folders each lists, and without that list (wheels built without top_level.txt, as
    keras' are) by its name among ``names``. Copies in two directories (the user site's
    beside the environment's) write two folders, one shadowing the other: the first directory
    that holds two of them is returned, else the distributions of one directory at most."""
    found = [
        p
        for p in packages
        if folder in p.top_level or (not p.top_level and normalize_name(p.name) in names)
    ]
    for p in found:
        shared = [q for q in found if _same_dir(q.location, p.location)]
        if len(shared) > 1:
            return shared
    return found[:1]


def _keras_shared(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """Two installed distributions that both install the ``keras`` package (keras beside
    keras-nightly, which TensorFlow 2.5 requires): each overwrote the other's files, and the
    folder holds a mix of two releases that no import list shows."""
    facts = ctx.facts
    if facts.packages is None:
        return
    sharing = _installing(facts.packages, "keras", _KERAS_DISTS)
    if len(sharing) < 2:
        return
    named = ", ".join(f"{p.name} {p.version}" for p in sharing)
    wanted = next(
        (r for r in pkg.requires if normalize_name(requirement_name(r)) in _KERAS_DISTS),
        None,
    )
    yield causes.finding(
        "packages.pins",
        Severity.ERROR,
        causes.software.KERAS_VERSION,
        f"Two distributions install the keras package: {named}",
        "Each wrote its files into the same keras/ folder, so it holds a mix of two releases; "
        "Keras' own imports between its modules fail, or TensorFlow gets a Keras of another "
        f"release. TensorFlow {pkg.version} requires "
        + (f"{wanted}." if wanted else "the Keras of its line."),
        causes.software.keras_shared_fix(
            ctx.machine,
            [p.name for p in sharing],
            wanted.split(";")[0].strip() if wanted else None,
        ),
    )


def _tensorboard_shared(ctx: CheckContext) -> Iterator[Finding]:
    """Two installed distributions that both install the ``tensorboard`` package (tensorboard
    beside tb-nightly, or the tensorflow-tensorboard of TensorFlow 1.3-1.5): each overwrote
    the other's files, and TensorBoard loads every plugin twice or imports modules of two
    releases (causes.software's TENSORBOARD_DUPLICATE_INSTALL)."""
    sharing = _installing(ctx.facts.packages or (), "tensorboard", TENSORBOARD_DISTRIBUTIONS)
    if len(sharing) < 2:
        return
    named = ", ".join(f"{p.name} {p.version}" for p in sharing)
    yield causes.finding(
        "packages.pins",
        Severity.ERROR,
        causes.software.TENSORBOARD_DUPLICATE_INSTALL,
        f"Two distributions install the tensorboard package: {named}",
        "Each wrote its files into the same tensorboard/ folder, so it holds a mix of two "
        "releases: TensorBoard registers its plugins twice ('Duplicate plugins for name') or "
        "its modules import names another release's files lack.",
        causes.software.tensorboard_duplicate_fix(ctx.machine, sharing[0].location),
    )


def _standalone_keras(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """A standalone keras from before TensorFlow required a Keras of its own (to 2.4) beside
    a TensorFlow it does not work with (the companion table's standalone_keras rows): its
    metadata declares no TensorFlow, so pip installed it without a word, and `import keras`
    fails (keras 2.4 under TensorFlow 1.x) or breaks on TensorFlow's internals (2.3 under
    TensorFlow 2.3). Where TensorFlow's wheel requires a keras, that requirement judges it."""
    m = ctx.machine
    keras = ctx.facts.package("keras")
    table = m.companion_table.standalone_keras
    if (
        keras is None
        or table is None
        or any(name in _KERAS_DISTS for name, _ in m.declared_requirements)
    ):
        return
    if any(
        normalize_name(comp.name) == "keras" and target == "tensorflow"
        for comp, target, _ in m.companion_requirements
    ):
        return  # its wheel declares a TensorFlow (keras 2.4.0): _companions judges that
    own = table.row_of(keras.version)
    if own is None or own.admits(pkg.version):
        return
    urls = ", ".join(dict.fromkeys(m.companion_table.sources[s].url for s in own.sources))
    yield causes.finding(
        "packages.pins",
        Severity.WARNING,
        causes.software.KERAS_VERSION,
        f"keras {keras.version} does not work with {pkg.name} {pkg.version} (it needs "
        f"tensorflow{own.tensorflow})",
        f"keras {own.release} declares no TensorFlow in its metadata, so pip installs it beside "
        f"any; it works with tensorflow{own.tensorflow} ({urls}). With this TensorFlow "
        "`import keras` fails or breaks on TensorFlow's internals; tf.keras is unaffected.",
        causes.software.keras_match_fix(m),
    )


def _tensorboard(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """A note where TensorBoard is absent because TensorFlow no longer requires it (its
    metadata, read: 2.21 dropped it), since tf.summary's writers still import it."""
    m = ctx.machine
    if not pkg.requires or ctx.facts.package("tensorboard") is not None:
        return
    if any(name == "tensorboard" for name, _ in m.declared_requirements):
        return  # required and missing: dependency-missing says so
    yield causes.finding(
        "packages.pins",
        Severity.INFO,
        causes.software.TENSORBOARD_NOT_INSTALLED,
        f"TensorBoard is not installed (TensorFlow {pkg.version} does not require it)",
        f"If the code uses them, {LAZY_IMPORTS['tensorboard']} fail without it.",
        causes.common.install_fix(
            m, "Install TensorBoard if the code writes summaries.", "tensorboard"
        ),
    )


def _missing_dependencies(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """Requirements TensorFlow declares that are not installed, as one finding (one cause,
    one fix): an error when one is imported as TensorFlow starts and the import did not run
    (else tensorflow.import has the observed verdict), a warning otherwise."""
    m = ctx.machine
    declared = {normalize_name(n) for dist in m.tf_declaring for n in dist.requires_missing}
    # A conda package may lack the dist-info the probe looks for; conda-meta knows it.
    conda = ctx.facts.conda
    in_conda = {normalize_name(c.name) for c in conda.packages} if conda is not None else set()
    # A platform's thin `tensorflow` wheel requires the build that holds the code
    # (tensorflow-macos on Apple silicon 2.13-2.15, tensorflow-intel on Windows): a marker
    # the probe leaves unjudged, and a TensorFlow distribution the probe always lists when
    # installed, so its absence is observed.
    wrapped = {
        d
        for d, _ in m.declared_requirements
        if d in TF_DISTRIBUTIONS and not any(normalize_name(p.name) == d for p in m.tf_declaring)
    }
    missing = [
        d
        for d, _ in m.declared_requirements
        if (d in declared or d in wrapped) and d not in in_conda and ctx.facts.package(d) is None
    ]
    if not missing:
        return
    missing.sort(key=lambda d: (d not in START_IMPORTS and d not in wrapped, d))
    at_start = [d for d in missing if d in START_IMPORTS or d in wrapped]
    # Inside the declared ranges, the range the build runs with (Machine.runs_with): a missing
    # keras under TensorFlow 2.6 is keras 2.6, not the newest Keras 2 that `keras~=2.6` admits.
    specs = [f"{d}{m.runs_with(d) or ''}" for d in missing]
    yield causes.finding(
        "packages.pins",
        # A wrapped build missing is why no `tensorflow` module imports, unless one did.
        Severity.ERROR
        if (at_start and not m.import_observed) or (wrapped & set(missing) and not _imported(ctx))
        else Severity.WARNING,
        causes.software.DEPENDENCY_MISSING,
        f"Not installed, though TensorFlow {pkg.version} requires them: {', '.join(missing)}",
        "\n".join(
            f"{d}: the build this platform's tensorflow wheel wraps: it holds the "
            "`tensorflow` package itself"
            if d in wrapped
            else f"{d}: imported as TensorFlow starts ({START_IMPORTS[d]})"
            if d in START_IMPORTS
            else f"{d}: imported when used, by {LAZY_IMPORTS[d]}"
            if d in LAZY_IMPORTS
            else f"{d}: not imported as TensorFlow starts"
            for d in missing
        ),
        causes.common.install_fix(
            m, "Install what TensorFlow requires, in the ranges it declares.", *specs
        ),
    )


def _imported(ctx: CheckContext) -> bool:
    """TensorFlow's import was observed to work."""
    tf = ctx.facts.tensorflow
    return tf is not None and tf.status == TFStatus.OK


def _keras_in_step(
    ctx: CheckContext, pkg: PackageFacts, line: Optional[TFLine], reported: set[str]
) -> Iterator[Finding]:
    """keras 2.X serves TensorFlow 2.X only on the lines released with it (the matrix's
    ``keras_in_step``), although the wheel's range (``keras~=2.6``) admits later ones."""
    keras = ctx.facts.package("keras")
    if line is None or not line.keras_in_step or keras is None or "keras" in reported:
        return
    if version_key(keras.version)[:2] == line.key:
        return
    yield causes.finding(
        "packages.pins",
        Severity.ERROR,
        causes.software.KERAS_VERSION,
        f"keras {keras.version} is not the Keras of TensorFlow {line.line} "
        f"(keras {line.line}.x is released with it)",
        f"keras {keras.version} belongs to another TensorFlow line and does not import with "
        f"TensorFlow {pkg.version}, though the range TensorFlow declares may admit it.",
        causes.software.keras_match_fix(ctx.machine),
    )


def _tf_keras(ctx: CheckContext, pkg: PackageFacts, line: Optional[TFLine]) -> Iterator[Finding]:
    """TF_USE_LEGACY_KERAS needs tf-keras of the same line (TensorFlow 2.16+); a tf-keras of
    another line does not import, an error where it serves tf.keras."""
    facts, m = ctx.facts, ctx.machine
    legacy = m.legacy_keras
    tfk = facts.package("tf-keras")
    spec = m.tf_keras_spec
    # tf-keras's own requirement on tensorflow first (its wheel), else the matrix's pairing.
    own = [s for c, target, s in m.companion_requirements if c is tfk and target == "tensorflow"]
    if own and tfk is not None:
        wants, fits = f"tensorflow{own[0]}", all(_in_range(pkg.version, s) for s in own)
    elif line is not None and spec is not None and tfk is not None:
        wants = spec
        fits = f"tf-keras{tfk.version}" == spec or tfk.version in specifier(
            spec.removeprefix("tf-keras")
        )
    else:
        wants, fits = "", True
    # TF_USE_LEGACY_KERAS picks tf-keras on every line that has a tf-keras release (2.15
    # reads it too, though its own tf.keras is Keras 2) and where Keras 3 is tf.keras.
    if legacy and tfk is None and line is not None and spec is not None:
        yield causes.finding(
            "packages.pins",
            Severity.ERROR,
            causes.software.TF_KERAS_MISSING,
            "TF_USE_LEGACY_KERAS is set but tf-keras is not installed",
            "With TF_USE_LEGACY_KERAS=1, `tf.keras` is served by the tf-keras package; "
            "without it importing tf.keras fails.",
            causes.software.tf_keras_missing_fix(ctx.machine),
        )
    elif tfk is None and line is not None and keras3_serves_tf_keras(line):
        needy = _keras2_users(ctx)
        if needy:
            names = ", ".join(f"{p.name} {p.version}" for p, _ in needy)
            # A library that fails only once its TensorFlow side is used (its other
            # frameworks keep working) is a warning; one that fails as it is imported, an error.
            at_import = any(user.fails_at == "import" for _, user in needy)
            yield causes.finding(
                "packages.pins",
                Severity.ERROR if at_import else Severity.WARNING,
                causes.software.TF_KERAS_MISSING,
                f"{names} need{'s' if len(needy) == 1 else ''} tf-keras, which is not installed",
                "From TensorFlow 2.16 tf.keras is Keras 3, and "
                + "; ".join(f"{p.name}: {user.failure}" for p, user in needy)
                + ".",
                causes.software.tf_keras_missing_fix(ctx.machine),
                ctx.machine.keras2_user_urls(tuple(user.name for _, user in needy)),
            )
    elif tfk is not None and not fits:
        yield causes.finding(
            "packages.pins",
            Severity.ERROR if legacy else Severity.WARNING,
            causes.software.TF_KERAS_MISMATCH,
            f"tf-keras {tfk.version} does not match TensorFlow {pkg.version} (wants {wants})",
            "tf-keras is released in step with TensorFlow; another line's tf-keras may not "
            "import" + (", and TF_USE_LEGACY_KERAS makes it serve tf.keras." if legacy else "."),
            causes.software.tf_keras_fix(m),
        )


def _keras2_users(ctx: CheckContext) -> list[tuple[PackageFacts, Keras2User]]:
    """The installed packages the companion table says need Keras 2 (tf-keras), beside a
    keras package of the releases each refuses (where its row names them)."""
    keras = ctx.facts.package("keras")
    found = []
    for name, user in ctx.machine.companion_table.keras2_users.items():
        dist = ctx.facts.package(name)
        if dist is None or not user.needs_tf_keras(dist.version):
            continue
        if user.keras and (keras is None or not _in_range(keras.version, user.keras)):
            continue
        found.append((dist, user))
    return found


def _companions(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """Each companion's declared range on TensorFlow, tf-keras and keras admits what is
    installed; tf-keras's own range on TensorFlow is judged with tf-keras (above); a
    companion declaring none is judged by the companion table's row for its release."""
    m = ctx.machine
    yield from _undeclared_companions(ctx, pkg)
    yield from _companions_off_keras(ctx)
    seen: set[tuple[str, str]] = set()
    # The Keras 2 users whose missing tf-keras _tf_keras reports (tf.keras is Keras 3): one
    # finding, tf-keras-missing, whose fix installs the tf-keras of TensorFlow's line, where
    # the companion's own floor (tensorflow-hub 0.16.1: tf-keras>=2.14.1) names no line.
    keras2_missing = (
        {normalize_name(p.name) for p, _ in _keras2_users(ctx)}
        if ctx.facts.package("tf-keras") is None
        and m.line is not None
        and keras3_serves_tf_keras(m.line)
        else set()
    )
    # A companion built for another TensorFlow is one finding: its fix moves it (or
    # TensorFlow), and its Keras range moves with it.
    off_tf = {
        normalize_name(comp.name)
        for comp, target, spec in m.companion_requirements
        if target == "tensorflow" and not _in_range(pkg.version, spec)
    }
    for comp, target, spec in m.companion_requirements:
        key = (normalize_name(comp.name), target)
        if key in seen or key == ("tf-keras", "tensorflow"):
            continue
        if target != "tensorflow" and key[0] in off_tf:
            continue
        have = pkg if target == "tensorflow" else ctx.facts.package(target)
        if have is None:
            seen.add(key)
            if target in dict(m.declared_requirements):
                continue  # TensorFlow requires it too: dependency-missing names it
            if target == "tf-keras" and key[0] in keras2_missing:
                continue  # _tf_keras names it, with the tf-keras of TensorFlow's line
            yield causes.finding(
                "packages.pins",
                Severity.WARNING,
                causes.software.COMPANION_MISMATCH,
                f"{comp.name} {comp.version} requires {target}{spec}, which is not installed",
                f"What of {comp.name} uses it fails without it (`pip check` reports it too).",
                causes.software.companion_fix(m, comp.name, comp, target, spec),
            )
            continue
        if _in_range(have.version, spec):
            continue
        seen.add(key)
        on_tf = target == "tensorflow"
        # A companion TensorFlow requires itself, installed inside the range TensorFlow
        # declares for it, is what pip chose for TensorFlow (tensorflow-io-gcs-filesystem
        # 0.37.1 under TensorFlow 2.15, whose requirement is >=0.23.1): TensorFlow's own
        # declaration admits it, so the companion's narrower range is a note, not an error.
        tf_range = m.declared_range(comp.name) if on_tf else None
        admitted = tf_range is not None and _in_range(comp.version, tf_range)
        severity = Severity.INFO if admitted else Severity.ERROR if on_tf else Severity.WARNING
        yield causes.finding(
            "packages.pins",
            severity,
            causes.software.tensorflow_requirer_cause(key[0])
            if on_tf
            else causes.software.COMPANION_MISMATCH,
            f"{comp.name} {comp.version} requires {target}{spec}, but {have.name} "
            f"{have.version} is installed",
            (
                f"TensorFlow {have.version} itself requires {comp.name}{tf_range}, which "
                f"admits {comp.version}: pip installed it for TensorFlow. {comp.name}'s own "
                "range is narrower; its release for this TensorFlow matches it exactly."
            )
            if admitted
            else f"{comp.name} is built against the TensorFlow it declares; with another its "
            "compiled ops fail to load ('undefined symbol' in its .so) or its Python code "
            "calls what is not there."
            if on_tf
            else f"{comp.name} declares the {target} it works with; another may not import.",
            causes.software.companion_fix(m, comp.name, comp, target, spec),
        )


def _companions_judged(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """The companions as their metadata and the companion table judge them; where that names
    no companion built for another TensorFlow, what TensorFlow's own output shows of one."""
    named = list(_companions(ctx, pkg))
    yield from named
    if not any(
        f.cause == causes.software.COMPANION_MISMATCH and f.severity.rank >= Severity.WARNING.rank
        for f in named
    ):
        yield from _logged_companions(ctx)


def _logged_companions(ctx: CheckContext) -> Iterator[Finding]:
    """A companion that TensorFlow's own output shows failing, where its metadata showed
    nothing (the companion missing from the package list, or declaring no range): its op
    library's undefined symbol, TensorFlow Addons' warning outside its range, TensorFlow
    Probability's version check. Read as ``explain`` reads that text (the same signatures,
    cause and fix builder), fitted to this machine; a companion-mismatch at warning or above
    only. Where TensorFlow's import failed, tensorflow.import reads the output instead."""
    tf = ctx.facts.tensorflow
    if tf is None or not _imported(ctx):
        return
    for found in read_output(ctx, import_output(tf)):
        if found.cause == causes.software.COMPANION_MISMATCH:
            yield dataclasses.replace(
                found,
                id="packages.pins",
                check="",
                detail=f"{found.detail} (TensorFlow's own output as it imported.)",
            )


#: Plugins that register TensorFlow's GPU device as TensorFlow loads them (PluggableDevice):
#: tensorflow-metal is the GPU on macOS, https://developer.apple.com/metal/tensorflow-plugin/
#: (libmetal_plugin.dylib, loaded from tensorflow-plugins/ by TensorFlow's import).
_GPU_PLUGINS = frozenset({"tensorflow-metal"})


def _companions_off_keras(ctx: CheckContext) -> Iterator[Finding]:
    """Companions whose metadata admits the installed standalone keras while their release's
    code does not: the companion table's row names the Keras that code works with (a later
    release of the same code declaring it). A metadata range that excludes it is
    :func:`_companions`' finding (:attr:`Machine.companions_off_keras` leaves it out)."""
    m = ctx.machine
    for comp, own in m.companions_off_keras:
        yield causes.finding(
            "packages.pins",
            Severity.WARNING,
            causes.software.COMPANION_MISMATCH,
            *causes.software.companion_keras_words(m, comp, own, metadata=True),
        )


def _undeclared_companions(ctx: CheckContext, pkg: PackageFacts) -> Iterator[Finding]:
    """Companions whose metadata declares no TensorFlow (tensorflow-probability checks it only
    as it is imported), or a range wider than their code works with (Spektral 0.6.0 declares
    tensorflow>=2.1.0 and fails to import under 2.3), judged by the companion table's row for
    the installed release."""
    m = ctx.machine
    declared: dict[str, list[str]] = {}
    for comp, target, spec in m.companion_requirements:
        if target == "tensorflow":
            declared.setdefault(normalize_name(comp.name), []).append(spec)
    for comp, own in m.companions_off_table:
        name = normalize_name(comp.name)
        specs = declared.get(name)
        if specs and not all(_in_range(pkg.version, s) for s in specs):
            continue  # its own declaration excludes this TensorFlow: _companions says so
        if specs:
            # The metadata admits this TensorFlow, the release's code does not (the table's
            # row cites the code): pip and `pip check` are silent, the import is not.
            yield causes.finding(
                "packages.pins",
                Severity.WARNING,
                causes.software.tensorflow_requirer_cause(name),
                f"{comp.name} {comp.version} does not work with {pkg.name} {pkg.version}, "
                f"though its metadata admits it (tensorflow{','.join(specs)})",
                f"Its release {own.release}'s code needs tensorflow{own.tensorflow} (the "
                f"companion table, from {', '.join(m.companion_urls(name, own))}): with this "
                "TensorFlow its import fails or misbehaves, and neither pip nor `pip check` "
                "reports it.",
                causes.software.companion_fix(m, comp.name, comp, "tensorflow", own.tensorflow),
            )
            continue
        # A GPU plugin's release for another line fails as TensorFlow loads it, before any
        # GPU is listed; a GPU listed by TensorFlow is that plugin loaded: observed beats the
        # table, and what is left is a pairing outside the plugin's tested one.
        loaded = name in _GPU_PLUGINS and bool(m.tf_listed_gpus)
        yield causes.finding(
            "packages.pins",
            Severity.INFO if loaded else Severity.ERROR,
            causes.software.tensorflow_requirer_cause(name),
            f"{comp.name} {comp.version} requires tensorflow{own.tensorflow}, but "
            f"{pkg.name} {pkg.version} is installed"
            + (
                f", though TensorFlow lists {len(m.tf_listed_gpus)} GPU(s) through it"
                if loaded
                else ""
            ),
            f"{comp.name}'s metadata requires no TensorFlow outside its extras; its release "
            f"{own.release} needs tensorflow{own.tensorflow} (the companion table, from "
            f"{', '.join(m.companion_urls(name, own))}), and its import fails or misbehaves "
            "with another."
            + (" Here it loaded: TensorFlow lists the GPU it registers." if loaded else ""),
            causes.software.companion_fix(m, comp.name, comp, "tensorflow", own.tensorflow),
        )


def _pypi_companions(ctx: CheckContext, from_conda: CondaPackage) -> Iterator[Finding]:
    """Compiled companions pip installed (conda lists them from the ``pypi`` channel) beside
    a TensorFlow built by a conda channel: their wheels link PyPI's TensorFlow build, which
    conda's is not, so their ops fail to load ('undefined symbol') even at the same version
    (tensorflow/addons' README, C++ Custom Op Compatibility)."""
    conda = ctx.facts.conda
    if conda is None:
        return
    for pkg in conda.packages:
        if pkg.channel != "pypi" or not causes.software.links_pypi_tensorflow(pkg.name):
            continue
        yield causes.finding(
            "packages.conda",
            Severity.WARNING,
            causes.software.COMPANION_MISMATCH,
            f"{pkg.name} {pkg.version} from PyPI beside conda's TensorFlow {from_conda.version} "
            f"build ({from_conda.channel})",
            f"{pkg.name}'s wheel carries ops compiled against PyPI's TensorFlow; conda's build "
            "is compiled differently, so they may fail to load ('undefined symbol' in its .so), "
            "even where the versions match.",
            causes.software.conda_pypi_companion_fix(
                ctx.machine,
                from_conda.version,
                [n for n in CONDA_TENSORFLOW if conda.package(n) is not None],
                # conda names its GPU builds so (tensorflow-gpu, build strings gpu_py36...).
                gpu=conda.package("tensorflow-gpu") is not None or "gpu" in from_conda.build,
            ),
            (causes.software.CUSTOM_OP_PIP_ONLY,),
        )


#: conda packages that bring the CUDA runtime: the CUDA 11 era's single package, and the
#: CUDA 12 era's metapackage that pins the version (conda-forge's cuda-version).
_CONDA_CUDA = ("cudatoolkit", "cuda-version", "cuda-cudart", "cuda-runtime")


def check_conda_mix(ctx: CheckContext) -> Iterator[Finding]:
    """One TensorFlow in a conda environment, and conda's CUDA of the build's major."""
    facts, m = ctx.facts, ctx.machine
    conda = facts.conda
    if conda is None:
        return
    from_conda = m.conda_tensorflow
    pip_tf = m.tf
    if from_conda is not None and pip_tf is not None and pip_tf.version != from_conda.version:
        # conda's package writes site-packages/tensorflow too; a pip install over it (or
        # under it) leaves files of two releases in one directory.
        yield causes.finding(
            "packages.conda",
            Severity.ERROR,
            causes.software.TF_MULTIPLE_DISTRIBUTIONS,
            f"TensorFlow {from_conda.version} from conda ({from_conda.channel}) and "
            f"{pip_tf.name} {pip_tf.version} from pip share this environment",
            "conda's tensorflow and pip's write the same `tensorflow/` directory: the import "
            "mixes the two releases' files.",
            fix(
                "Keep one: remove conda's TensorFlow, then restore pip's files (TensorFlow's "
                "own guide installs it with pip, also inside conda).",
                *m.conda_remove(
                    *(n for n in CONDA_TENSORFLOW if conda.package(n) is not None), force=True
                ),
                *m.pip(f'install --force-reinstall --no-deps "{pip_tf.name}=={pip_tf.version}"'),
            ),
        )
        return
    if from_conda is not None:
        yield from _pypi_companions(ctx, from_conda)
    build = m.build_cuda
    toolkit = next((conda.package(n) for n in _CONDA_CUDA if conda.package(n) is not None), None)
    if build is None or toolkit is None or from_conda is not None:
        return
    if version_key(toolkit.version)[:1] == version_key(build)[:1]:
        yield Finding(
            "packages.conda",
            Severity.OK,
            f"conda's {toolkit.name} {toolkit.version} matches TensorFlow's CUDA {build} build",
        )
        return
    tf_name = normalize_name(pip_tf.name) if pip_tf is not None else "tensorflow"
    yield causes.finding(
        "packages.conda",
        Severity.WARNING,
        causes.conda.CONDA_CUDA_MISMATCH,
        f"conda's {toolkit.name} {toolkit.version} is not the CUDA {build} that {tf_name} "
        f"{pip_tf.version if pip_tf else ''} was built for".replace("  ", " "),
        "",
        causes.conda.conda_cuda_fix(m, toolkit.name),
    )


def check_drift(ctx: CheckContext) -> Iterator[Finding]:
    """Each pinned package is installed at a version its requirement allows."""
    from packaging.markers import UndefinedEnvironmentName  # noqa: PLC0415 - only with --against
    from packaging.requirements import Requirement  # noqa: PLC0415
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    facts = ctx.facts
    if ctx.against is None:
        return
    if facts.packages is None:
        yield unknown("packages.drift", "the installed packages", facts.error_for("python"))
        return
    if not facts.packages_complete:
        # A plain `check --json` report lists TensorFlow's family only: any other pin would
        # read as "not installed".
        yield Finding(
            "packages.drift",
            Severity.UNKNOWN,
            "Could not determine the installed packages: this report lists only "
            "TensorFlow's packages",
            fix=fix(
                "Save the report with every package, or compare on the machine itself.",
                f"tfdoctor check --json --against {shlex.quote(ctx.against_file or 'FILE')}",
            ),
        )
        return
    # The examined interpreter's marker values; Marker.evaluate takes this one's for any the
    # facts do not record.
    env = ctx.machine.marker_env
    compared = 0
    drifted: list[Finding] = []
    for text in ctx.against:
        req = Requirement(text)
        try:
            if req.marker is not None and not req.marker.evaluate(env):
                continue
        except UndefinedEnvironmentName:
            pass  # compare rather than skip silently
        compared += 1
        name = normalize_name(req.name)
        pinned = f"{name}{req.specifier}"
        installed = facts.package(name)
        remedy = fix("Install the pinned version.", pip_command(ctx.machine, f'install "{pinned}"'))
        if installed is None:
            drifted.append(
                Finding(
                    "packages.drift",
                    Severity.WARNING,
                    f"{name} is pinned ({pinned}) but not installed",
                    fix=remedy,
                )
            )
            continue
        try:
            matches = req.specifier.contains(Version(installed.version), prereleases=True)
        except InvalidVersion:
            matches = False
        if not matches:
            drifted.append(
                Finding(
                    "packages.drift",
                    Severity.WARNING,
                    f"{name} {installed.version} is installed; the requirements pin {pinned}",
                    "Changed since the file was written (an upgrade, or another install).",
                    remedy,
                )
            )
    if drifted:
        yield from drifted
        return
    if compared == 0:
        yield Finding(
            "packages.drift",
            Severity.INFO,
            f"No requirement in {ctx.against_file or 'the file'} applies to this environment",
            "The file is empty, or every requirement's marker excludes this interpreter and "
            "platform: nothing was compared.",
        )
        return
    yield Finding(
        "packages.drift",
        Severity.OK,
        f"All {compared} pinned packages match the installed versions",
    )
