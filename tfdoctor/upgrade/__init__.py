"""``tfdoctor upgrade``'s plan: the move from the installed TensorFlow to another, as steps.

Pure functions of the facts, the matrix, the companion table, scan's findings for the code and
the target's pins (each computed by its own service): which release is asked for, what blocks
the move on this machine (Python, platform, GPU, a companion with no release for it), what must
change (the driver, the changes that come with the releases crossed, the code, file by file),
and what to install. The steps come in the order to do them; a :class:`Plan` carries them as a
:class:`~tfdoctor.findings.Report` whose exit code (``strict``) is the command's: 0 nothing to
do, 1 changes to make, 2 the move cannot be done here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Optional

from tfdoctor.causes import finding as cause_finding
from tfdoctor.causes.code import KERAS3_BEHAVIOUR_CHANGE, KERAS3_MIGRATE, TF_ESTIMATOR_REMOVED
from tfdoctor.causes.common import legacy_keras_switch
from tfdoctor.causes.gpu import driver_upgrade, ptx_jit_fix
from tfdoctor.causes.software import TENSORBOARD_NOT_INSTALLED
from tfdoctor.compat import (
    CUDA,
    DRIVER,
    FAILS,
    GPU,
    NONE,
    PLATFORM,
    PTX,
    PYTHON,
    UNRECORDED,
    DriverFloor,
    Verdict,
    evaluate,
    first_keras3_line,
    tf_keras_requirement,
)
from tfdoctor.facts import Facts, normalize_name
from tfdoctor.findings import Finding, Fix, Report, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import Companions, Matrix, TFLine, version_key
from tfdoctor.pin import Pinset
from tfdoctor.records import Record, record

#: The check every step of the plan names (scan's findings keep their own).
CHECK = "upgrade"

_RELEASE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?$")

#: A code finding's severity in the plan: code that breaks on the target is a change to make,
#: not a reason the move cannot be done here (exit code 1, not 2).
_AS_CHANGE = {Severity.ERROR: Severity.WARNING}


class UpgradeError(ValueError):
    """Bad input to the plan: a release the matrix does not know (exit code 3)."""


@record
class Plan(Record):
    """A move to another TensorFlow: its steps, in order, as a report, and its pins."""

    #: The installed TensorFlow's version; None when none is installed.
    source: Optional[str]
    #: The release moved to (``2.21.0``).
    target: str
    #: One line: what the move takes.
    summary: str
    #: The steps in the order to do them (blockers first, the install last, notes after).
    report: Report
    #: The target's pins; None when they cannot be made (see the report's steps).
    pins: Optional[Pinset] = None
    #: Paths of the code scanned (empty: none was given).
    paths: tuple[str, ...] = ()

    def exit_code(self) -> int:
        """0 nothing to do, 1 changes to make, 2 the move cannot be done here."""
        return self.report.exit_code(strict=True)


def read_release(matrix: Matrix, text: str) -> tuple[TFLine, str]:
    """The line and release ``--to`` names (``2.21`` is its newest release, ``2.21.0`` that
    one); UpgradeError naming the known lines for any other value."""
    value = text.strip()
    match = _RELEASE.match(value)
    line = matrix.line_for(value) if match is not None else None
    if match is not None and line is not None:
        if match.group(3) is None:
            return line, line.latest_patch
        if line.pre_release or version_key(value) <= version_key(line.latest_patch):
            return line, value
    known = ", ".join(entry.line for entry in matrix.lines)
    raise UpgradeError(
        f"--to {text}: not a TensorFlow release the matrix knows (X.Y or X.Y.Z of: {known})"
    )


def scan_since(facts: Facts, matrix: Matrix, line: TFLine) -> Optional[str]:
    """The line scan compares the code from: the installed one, when the move goes forward
    from a line the matrix knows (else None: every use is judged against the target)."""
    installed = Machine(facts, matrix).line
    if installed is None or installed.key > line.key:
        return None
    return installed.line


def plan_upgrade(
    facts: Facts,
    matrix: Matrix,
    companions: Companions,
    line: TFLine,
    release: str,
    *,
    code: Sequence[Finding] = (),
    removed_in: Optional[Mapping[str, str]] = None,
    pins: Optional[Pinset] = None,
    pin_problem: Optional[tuple[str, tuple[str, ...]]] = None,
    paths: tuple[str, ...] = (),
) -> Plan:
    """The plan to move ``facts``' environment to ``release`` of ``line``.

    ``code``: scan's findings for the code, judged from the installed line to the target;
    ``removed_in``: the release line each code cause's rules start at (scan's rules), for the
    changes that come with a release; ``pins``: the target's pins, or ``pin_problem`` (the
    message and reasons) when none could be made.
    """
    m = Machine(facts, matrix)
    installed = m.tf.version if m.tf is not None else None
    source_key = m.line.key if m.line is not None else None
    here = [*_platform_steps(m, matrix, line), *_companion_steps(m, matrix, companions, line)]
    changes = _release_changes(m, matrix, line, source_key, code, removed_in or {})
    code_steps = order_code(code)
    install = _install_step(m, line, release, installed, pins, pin_problem, here)
    # What this machine must change or cannot do comes first, worst first; notes and oks last.
    first = [f for f in here if f.severity.rank >= Severity.UNKNOWN.rank]
    later = [f for f in here if f.severity.rank < Severity.UNKNOWN.rank]
    first.sort(key=lambda f: -f.severity.rank)
    steps = (*first, *changes, *code_steps, *install, *later)
    report = Report(facts, steps)
    summary = _summary(installed, release, steps, code_steps, paths)
    return Plan(installed, release, summary, report, pins, paths)


# --- the platform ----------------------------------------------------------------------------


def _platform_steps(m: Machine, matrix: Matrix, line: TFLine) -> list[Finding]:
    """Python, platform, GPU and driver against the line (blockers, changes and oks), worded
    from :func:`~tfdoctor.compat.evaluate`'s verdict, the one the checks read."""
    target = m.target
    plat = target.platform
    release = line.line
    if plat is None:
        return [
            _step(
                "upgrade.platform",
                Severity.UNKNOWN,
                f"Could not determine this machine's platform: whether TensorFlow {release} "
                "has wheels for it is unknown",
            )
        ]
    verdict = evaluate(matrix, line, target)
    if verdict.about(PLATFORM):
        return [
            _step(
                "upgrade.platform",
                Severity.ERROR,
                f"TensorFlow {release} has no wheels for {plat}",
                f"The {release} release publishes no tensorflow wheel for {plat}; pip finds "
                "nothing to install.",
            )
        ]
    wheels = line.python.get(plat, ())
    span = f"{wheels[0]}-{wheels[-1]}" if len(wheels) > 1 else wheels[0]
    if target.python is None:
        python = _step(
            "upgrade.python",
            Severity.UNKNOWN,
            f"Could not determine the Python version: TensorFlow {release} needs Python "
            f"{span} on {plat}",
        )
    elif verdict.about(PYTHON):
        python = _step(
            "upgrade.python",
            Severity.ERROR,
            f"Python {target.python} is outside TensorFlow {release}'s range "
            f"(Python {span} on {plat})",
            f"TensorFlow {release} publishes wheels for Python {span} only "
            f"(Requires-Python {line.requires_python or 'not declared'}): pip finds no "
            f"TensorFlow {release} for Python {target.python}.",
            Fix(
                f"Move to a Python TensorFlow {release} supports ({span}) first, in a new "
                "virtual environment.",
                (f"python{wheels[-1]} -m venv ~/.venvs/tf-{release}",),
            ),
        )
    else:
        python = _step(
            "upgrade.python",
            Severity.OK,
            f"Python {target.python} has TensorFlow {release} wheels for {plat}",
        )
    return [python, *_gpu_steps(m, line, plat, verdict)]


def _gpu_steps(m: Machine, line: TFLine, plat: str, verdict: Verdict) -> list[Finding]:
    """The GPU's code and the driver against the line's CUDA build, from the verdict."""
    release = line.line
    cap = m.target.gpu
    if not m.gpus:
        return [
            _step(
                "upgrade.gpu",
                Severity.OK,
                f"No NVIDIA GPU listed here: TensorFlow {release} runs on the CPU",
            )
        ]
    cpu_only = verdict.about(CUDA)
    if cpu_only:
        return [
            _step(
                "upgrade.gpu",
                Severity.ERROR,
                f"TensorFlow {release} has no CUDA build for {plat}: it would run on the CPU "
                "only, and this machine has an NVIDIA GPU",
                "; ".join((*(j.text for j in cpu_only), *line.notes)),
            )
        ]
    needs = f"TensorFlow {release}'s CUDA {line.cuda} build needs NVIDIA driver"
    out = [_driver_step(m, j.floor, needs) for j in verdict.about(DRIVER) if j.floor is not None]
    code = verdict.gpu_code
    if cap is None:
        out.append(
            _step(
                "upgrade.gpu",
                Severity.UNKNOWN,
                "Could not determine the GPU's compute capability: whether TensorFlow "
                f"{release} carries code for it is unknown",
            )
        )
    elif code == FAILS:
        out.append(
            _step(
                "upgrade.gpu",
                Severity.ERROR,
                f"TensorFlow {release} fails on this GPU (compute capability {cap})",
                line.known_gpu_failures[cap],
            )
        )
    elif code == NONE:
        caps = line.compute_capabilities
        carried = ", ".join((*caps.sass, *caps.ptx)) if caps is not None else ""
        out.append(
            _step(
                "upgrade.gpu",
                Severity.ERROR,
                f"TensorFlow {release} carries no code for this GPU (compute capability {cap})",
                f"Its wheels carry {carried}: no machine code and no PTX the driver could "
                "compile for this GPU, so TensorFlow would not use it.",
            )
        )
    elif code == UNRECORDED:
        out.append(
            _step(
                "upgrade.gpu",
                Severity.UNKNOWN,
                f"TensorFlow {release}'s wheels do not record their GPU architectures: whether "
                f"they carry code for this GPU (compute capability {cap}) is unknown",
                "The matrix lists no compute capabilities for this line; the first start on "
                "the GPU shows whether it runs.",
            )
        )
    elif code == PTX:
        # https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/#just-in-time-compilation
        out += [
            _driver_step(
                m,
                j.floor,
                f"This GPU (compute capability {cap}) runs TensorFlow {release} only by JIT "
                "from PTX, which needs NVIDIA driver",
            )
            for j in verdict.about(GPU)
            if j.floor is not None
        ]
        out.append(
            _step(
                "upgrade.gpu",
                Severity.WARNING,
                f"This GPU runs TensorFlow {release} only by JIT from PTX (compute capability "
                f"{cap}; no machine code for it in the wheels)",
                "The driver compiles every kernel at the first start (minutes), and again "
                "whenever its cache is evicted.",
                ptx_jit_fix(m, cap),
            )
        )
    else:
        how = (
            "its CUDA wheels (tensorflow[and-cuda])"
            if line.and_cuda and m.os == "linux" and not m.wsl
            else f"CUDA {line.cuda} and cuDNN {line.cudnn or '?'} installed on the machine"
        )
        out.append(
            _step(
                "upgrade.gpu",
                Severity.OK,
                f"This GPU (compute capability {cap}) runs TensorFlow {release}'s machine code "
                f"(CUDA {line.cuda}, cuDNN {line.cudnn or '?'}, from {how})",
            )
        )
    if m.target.driver is None:
        out.append(
            _step(
                "upgrade.driver",
                Severity.UNKNOWN,
                f"Could not determine the NVIDIA driver's version: whether it runs TensorFlow "
                f"{release}'s CUDA {line.cuda} build is unknown",
            )
        )
    return out


def _driver_step(m: Machine, floor: DriverFloor, needs: str) -> Finding:
    """A driver upgrade to ``floor``, which this driver is below (``needs``: what needs it)."""
    text, commands = driver_upgrade(m, floor.version)
    return _step(
        "upgrade.driver",
        Severity.WARNING,
        f"{needs} >= {floor.version}; this one is {m.target.driver}",
        floor.rule,
        Fix(text, tuple(commands)),
    )


# --- companions ------------------------------------------------------------------------------


def _companion_steps(m: Machine, matrix: Matrix, table: Companions, line: TFLine) -> list[Finding]:
    """A blocker for each installed companion with no release for the line; a note for one
    only the installed TensorFlow required (tensorflow-io-gcs-filesystem up to 2.19)."""
    out: list[Finding] = []
    python = m.target.python
    pulled = {name for name, _ in m.declared_requirements}
    for pkg in sorted(m.facts.packages or (), key=lambda p: normalize_name(p.name)):
        comp = table.companions.get(normalize_name(pkg.name))
        if comp is None or comp.release_for(line.latest_patch, python) is not None:
            continue
        if comp.name in pulled and m.tf is not None:
            out.append(
                _step(
                    "upgrade.companion",
                    Severity.INFO,
                    f"{comp.name} {pkg.version} came with TensorFlow {m.tf.version}, which "
                    f"requires it; no release of it declares TensorFlow {line.latest_patch}",
                    "An upgrade in place leaves it installed (pip removes no dependency); the "
                    "pins leave it out. Uninstall it after the move unless your code imports it.",
                    Fix("Uninstall it after the move.", m.pip(f"uninstall -y {comp.name}")),
                )
            )
            continue
        served = [entry.line for entry in matrix.releases if comp.release_for(entry.latest_patch)]
        last = f" Its newest release serves TensorFlow {served[0]}." if served else ""
        why = f" {comp.end_of_life}" if comp.end_of_life else " No release for it yet."
        on = (
            f" on Python {python}"
            if python and comp.release_for(line.latest_patch) is not None
            else ""
        )
        out.append(
            _step(
                "upgrade.companion",
                Severity.ERROR,
                f"{comp.name} {pkg.version} has no release for TensorFlow {line.line}{on}",
                f"Its ops are built against one TensorFlow: no release of it declares "
                f"TensorFlow {line.latest_patch}.{why}{last}",
                Fix(
                    "Replace its uses and uninstall it, or stay on a TensorFlow it serves.",
                    m.pip(f"uninstall -y {comp.name}"),
                ),
                tuple(table.sources[s].url for s in comp.sources if s in table.sources),
            )
        )
    return out


# --- changes that come with the releases crossed ---------------------------------------------


def _release_changes(
    m: Machine,
    matrix: Matrix,
    line: TFLine,
    source: Optional[tuple[int, int]],
    code: Sequence[Finding],
    removed_in: Mapping[str, str],
) -> list[Finding]:
    """Keras 2 -> 3, tf.estimator gone, NumPy 2, TensorBoard no longer a dependency: each
    where the move crosses the release it came with (with no TensorFlow installed, only
    where the code or the packages show it matters)."""
    causes = {f.cause for f in code}
    installed = {normalize_name(p.name): p.version for p in m.facts.packages or ()}
    out: list[Finding] = []

    def crosses(at: Optional[str]) -> bool:
        if at is None:
            return False
        key = version_key(at)[:2]
        return (source is None or source < key) and key <= line.key

    keras3 = first_keras3_line(matrix)
    keras2_packages = [
        name
        for name in sorted(installed)
        if (
            name in m.companion_table.keras2_users
            and m.companion_table.keras2_users[name].needs_tf_keras(installed[name])
        )
        or name == "tf-keras"
        or (name == "keras" and version_key(installed[name])[:1] < (3,))
    ]
    if keras3 is not None and crosses(keras3.line):
        evidence = KERAS3_BEHAVIOUR_CHANGE in causes or bool(keras2_packages)
        if evidence or source is not None:
            spec = tf_keras_requirement(line) or "tf-keras"
            users = f" Installed here: {', '.join(keras2_packages)}." if keras2_packages else ""
            out.append(
                cause_finding(
                    "upgrade.keras3",
                    Severity.WARNING if evidence else Severity.INFO,
                    KERAS3_BEHAVIOUR_CHANGE,
                    f"Keras 2 -> 3: from TensorFlow {keras3.line}, tf.keras is Keras 3",
                    "Keras 3 removed or changed Keras 2 APIs (legacy optimizers, the "
                    "SavedModel save format, most keras.backend functions)." + users,
                    Fix(
                        "Port the code to Keras 3 (the code changes below), or keep Keras 2: "
                        "install tf-keras and set TF_USE_LEGACY_KERAS=1 before TensorFlow is "
                        "imported.",
                        (*m.pip_install(spec), *legacy_keras_switch(m)),
                    ),
                    (KERAS3_MIGRATE,),
                )
            )
    estimator_at = removed_in.get(TF_ESTIMATOR_REMOVED)
    if crosses(estimator_at):
        evidence = TF_ESTIMATOR_REMOVED in causes or "tensorflow-estimator" in installed
        if evidence or source is not None:
            out.append(
                cause_finding(
                    "upgrade.estimator",
                    Severity.WARNING if evidence else Severity.INFO,
                    TF_ESTIMATOR_REMOVED,
                    f"tf.estimator is gone from TensorFlow {estimator_at}",
                    fix=Fix(
                        "Rewrite Estimator code as Keras models (the code changes below); "
                        "tensorflow-estimator is not installed with TensorFlow any more."
                    ),
                )
            )
    numpy2 = _first_numpy2_line(matrix)
    if numpy2 is not None and crosses(numpy2.line) and source is not None:
        have = installed.get("numpy")
        kept = f" NumPy {have} is installed and satisfies it too." if have else ""
        out.append(
            _step(
                "upgrade.numpy2",
                Severity.INFO,
                f"NumPy 2: TensorFlow {numpy2.line} and later accept NumPy 2 "
                f"(numpy{line.pins.numpy or ''})",
                "A new environment gets NumPy 2; extensions built against NumPy 1 fail to "
                "import under it ('A module that was compiled using NumPy 1.x cannot be run "
                "in NumPy 2')." + kept,
                Fix("Pin numpy<2 until every compiled package you use has a NumPy 2 build."),
                ("https://numpy.org/devdocs/numpy_2_0_migration_guide.html",),
            )
        )
    tensorboard_at = removed_in.get(TENSORBOARD_NOT_INSTALLED)
    if crosses(tensorboard_at):
        uses = TENSORBOARD_NOT_INSTALLED in causes
        if uses or "tensorboard" in installed:
            out.append(
                cause_finding(
                    "upgrade.tensorboard",
                    Severity.WARNING if uses else Severity.INFO,
                    TENSORBOARD_NOT_INSTALLED,
                    f"TensorBoard is no longer a dependency of TensorFlow from {tensorboard_at}",
                    "A new environment has no tensorboard unless it is asked for"
                    + (": the code below uses it." if uses else "."),
                    Fix("Add tensorboard to the requirements.", m.pip_install("tensorboard")),
                )
            )
    return out


def _first_numpy2_line(matrix: Matrix) -> Optional[TFLine]:
    """The oldest line the matrix states was compiled with NumPy 2 (``numpy_abi``). Not the
    first whose numpy pin admits 2.0: 2.7-2.11 declare a floor only, yet were compiled
    against NumPy 1.x and fail to import under NumPy 2."""
    built = [entry for entry in matrix.lines if entry.numpy_abi == 2]
    return min(built, key=lambda entry: entry.key) if built else None


# --- the code ------------------------------------------------------------------------------


def order_code(code: Sequence[Finding]) -> tuple[Finding, ...]:
    """Scan's findings grouped by file, the file with the most breaking use first; in a file,
    most breaking first, then by position. Code that breaks becomes a change to make."""
    by_file: dict[str, list[Finding]] = {}
    for item in code:
        path = item.location.path if item.location is not None else ""
        by_file.setdefault(path, []).append(item)

    def worst(path: str) -> int:
        return max(f.severity.rank for f in by_file[path])

    out: list[Finding] = []
    for path in sorted(by_file, key=lambda p: (-worst(p), p)):
        items = sorted(by_file[path], key=lambda f: -f.severity.rank)  # stable: position kept
        out.extend(_as_change(f) for f in items)
    return tuple(out)


def _as_change(item: Finding) -> Finding:
    severity = _AS_CHANGE.get(item.severity, item.severity)
    if severity is item.severity:
        return item
    return dataclasses.replace(item, severity=severity)


# --- the install -----------------------------------------------------------------------------


def _install_step(
    m: Machine,
    line: TFLine,
    release: str,
    installed: Optional[str],
    pins: Optional[Pinset],
    problem: Optional[tuple[str, tuple[str, ...]]],
    blockers: Sequence[Finding],
) -> list[Finding]:
    """Install the pins (or why there are none); ok when the release is installed already."""
    if installed is not None and installed == release:
        return [_step("upgrade.install", Severity.OK, f"TensorFlow {release} is installed already")]
    if pins is None:
        if any(f.severity is Severity.ERROR for f in blockers):
            return []  # the blockers say why; a pin error would say it again
        message, reasons = problem or (f"no pins for TensorFlow {release}", ())
        return [_step("upgrade.install", Severity.ERROR, message, "\n".join(reasons))]
    lines = [entry.requirement() for entry in pins.entries if entry.pinned]
    patch = (
        f" (the matrix describes {line.line} by {line.latest_patch}, its newest release; "
        f"install {release} in its place)"
        if release != line.latest_patch
        else ""
    )
    notes = [f"Note: {text}" for label, text in pins.provenance if label == "Note"]
    detail = "\n".join(["Pins:", *(f"  {text}" for text in lines), *pins.warnings, *notes])
    what = f"{installed} -> {release}" if installed else release
    return [
        _step(
            "upgrade.install",
            Severity.WARNING,
            f"Install TensorFlow {what} with its companions in step ({len(lines)} pins){patch}",
            detail,
            Fix(
                "Install the pins in the environment (or write them to a requirements file "
                "with `tfdoctor pin`).",
                m.pip_install(*_to_install(pins)),
            ),
        )
    ]


def _to_install(pins: Pinset) -> tuple[str, ...]:
    """What to ask pip for: every exact pin pip's resolver chose, else the roots, from which
    pip resolves the ranges. The resolver ran for this machine's platform, so a marker on a
    pin (``sys_platform == "linux"``) holds here and is left out of the command."""
    if pins.mode != "resolved":
        return pins.requested
    return tuple(
        dataclasses.replace(entry, marker=None).requirement()
        for entry in pins.entries
        if entry.pinned
    )


# --- the summary ----------------------------------------------------------------------------


def _summary(
    installed: Optional[str],
    release: str,
    steps: Sequence[Finding],
    code: Sequence[Finding],
    paths: tuple[str, ...],
) -> str:
    """One line: what the move takes."""
    move = f"TensorFlow {installed} -> {release}" if installed else f"TensorFlow {release}"
    blockers = [f for f in steps if f.severity is Severity.ERROR]
    if blockers:
        more = f" (and {len(blockers) - 1} more)" if len(blockers) > 1 else ""
        return f"{move}: cannot be done on this machine: {blockers[0].summary}{more}"
    todo = [f for f in steps if f.severity.rank >= Severity.UNKNOWN.rank and f not in code]
    changes = [f for f in code if f.severity.rank >= Severity.UNKNOWN.rank]
    files = {f.location.path for f in changes if f.location is not None}
    scanned = "" if paths else "; no code scanned"
    if not todo and not changes:
        return f"{move}: nothing to change{scanned}"
    parts = [f"{len(todo)} step{'s' if len(todo) != 1 else ''}"] if todo else []
    if changes:
        parts.append(
            f"{len(changes)} code change{'s' if len(changes) != 1 else ''} in {len(files)} "
            f"file{'s' if len(files) != 1 else ''}"
        )
    return f"{move}: needs {', '.join(parts)}{scanned}"


def _step(
    finding_id: str,
    severity: Severity,
    summary: str,
    detail: str = "",
    fix: Optional[Fix] = None,
    links: tuple[str, ...] = (),
) -> Finding:
    return Finding(finding_id, severity, summary, detail, fix, links, check=CHECK)
