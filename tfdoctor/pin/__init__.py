"""Pinned requirements that reproduce a TensorFlow setup: pure functions from facts to pins.

Two modes, each returning a :class:`Pinset` that :mod:`tfdoctor.render.requirements` formats:

* :func:`environment_pinset`: the installed TensorFlow distribution and the closure of its
  installed dependencies (or every distribution), each pinned to its installed version, with
  the ``and-cuda`` wheels TensorFlow asks for and the packages that pull each one in.
* :func:`target_pinset`: the newest release line the compatibility matrix says fits a target
  (Python, platform, driver, GPU), with the ranges its wheel declares. Ranges are what can be
  said offline; :mod:`tfdoctor.pin.resolve` turns them into exact pins with pip's resolver.

Nothing here reads the machine: the facts come from the probes, the matrix from its loader.
"""

from __future__ import annotations

import dataclasses
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Callable, Optional

from tfdoctor.compat import (
    Target,
    Verdict,
    describe_target,
    driver_floor,
    evaluate,
    install_requirement,
    newest_fit,
    tf_keras_requirement,
    verdicts,
)
from tfdoctor.cuda_layout import tensorrt_python_cap
from tfdoctor.facts import Facts, PackageFacts, TFStatus, normalize_name
from tfdoctor.machine import Machine, view
from tfdoctor.matrix import (
    PLATFORM_MARKERS,
    PLATFORMS,
    Companions,
    Matrix,
    TFLine,
    spec_contains,
    version_key,
)
from tfdoctor.records import Record, record

if TYPE_CHECKING:
    from packaging.requirements import Requirement

#: Flag of an editable install: listed, never pinned (its source is a local path).
EDITABLE = "editable"
#: Flag of an installed version outside the range a package that requires it declares.
CONFLICT = "conflict"

#: The extra of ``tensorflow`` (2.14+) that installs the CUDA libraries as pip wheels.
AND_CUDA = "and-cuda"

#: NVIDIA's CUDA wheels are published for Linux only (https://pypi.org/project/nvidia-cudnn-cu12/).
LINUX_MARKER = 'sys_platform == "linux"'

#: TensorFlow 2.14's ``and-cuda`` extra pins ``tensorrt==8.5.3.1``, whose wheels stop at a
#: Python (data/cuda.yaml, ``tensorrt``): on a newer Python pip cannot install the extra.
TENSORRT = "tensorrt"


class PinError(ValueError):
    """Nothing to pin: no TensorFlow installed, or no release fits the target (exit code 2)."""

    def __init__(self, message: str, reasons: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.reasons = tuple(reasons)


@record
class PinEntry(Record):
    """One requirement line: a distribution, its version or range, and why it is there."""

    #: The distribution in PEP 503 normal form (``google-pasta``), as pip-compile writes it.
    name: str
    #: ``==2.21.0`` in environment mode; a range (``<2.0.0,>=1.23.5``) in target mode.
    specifier: str
    extras: tuple[str, ...] = ()
    #: A PEP 508 marker (``sys_platform == "linux"``) or None.
    marker: Optional[str] = None
    #: What requires it: ``tensorflow``, ``tensorflow[and-cuda]``; empty for a root.
    via: tuple[str, ...] = ()
    #: :data:`EDITABLE`, :data:`CONFLICT`.
    flags: tuple[str, ...] = ()
    #: ``sha256:...`` digests of the release's files (``--hashes``).
    hashes: tuple[str, ...] = ()

    @property
    def pinned(self) -> bool:
        """Whether the entry becomes a requirement line (editable installs do not)."""
        return EDITABLE not in self.flags

    @property
    def exact_version(self) -> Optional[str]:
        """The version of an ``==X`` pin, else None."""
        if self.specifier.startswith("==") and "," not in self.specifier:
            return self.specifier[2:]
        return None

    def requirement(self) -> str:
        """The PEP 508 requirement: ``tensorflow[and-cuda]==2.21.0 ; sys_platform == "linux"``."""
        extras = f"[{','.join(self.extras)}]" if self.extras else ""
        marker = f" ; {self.marker}" if self.marker else ""
        return f"{self.name}{extras}{self.specifier}{marker}"


@record
class Pinset(Record):
    """Pinned requirements and where they came from."""

    #: ``environment``, ``all``, ``target`` (ranges) or ``resolved`` (a target, pinned exactly
    #: by pip's resolver).
    mode: str
    #: Sorted by name.
    entries: tuple[PinEntry, ...]
    #: Header lines, in order: (label, value) such as ("Python", "3.11.7 CPython (venv)").
    provenance: tuple[tuple[str, str], ...] = ()
    #: What the user should know: pins the installed versions disagree with, missing wheels.
    warnings: tuple[str, ...] = ()
    #: Target mode: the requirements a resolver starts from (``tensorflow[and-cuda]==2.21.0``,
    #: with the extra's wheels one by one when it is dropped); the other entries are what
    #: those declare.
    requested: tuple[str, ...] = ()

    def entry(self, name: str) -> Optional[PinEntry]:
        """The entry for a distribution, by any spelling of its name."""
        key = normalize_name(name)
        return next((e for e in self.entries if e.name == key), None)


# --- markers ----------------------------------------------------------------------------------


def _applies(req: Requirement, env: Mapping[str, str], extra: str) -> bool:
    """Whether ``req`` is a requirement of the base package (``extra`` "") or of ``extra`` only.

    A requirement of an extra is one whose marker holds with ``extra`` set and fails without.
    """
    from packaging.markers import UndefinedEnvironmentName  # noqa: PLC0415

    if req.marker is None:
        return extra == ""
    try:
        base = req.marker.evaluate({**env, "extra": ""})
        if extra == "":
            return base
        return not base and req.marker.evaluate({**env, "extra": extra})
    except UndefinedEnvironmentName:
        return False


# --- environment mode -------------------------------------------------------------------------

RequirementsOf = Callable[[str, str], list["Requirement"]]


@record
class _Problem(Record):
    """A requirement the installed packages do not meet: who requires, and what is wrong."""

    #: ``keras``, ``tensorflow[and-cuda]``.
    label: str
    text: str
    #: A version outside the range (pip refuses such pins), not a missing package.
    conflict: bool


@dataclasses.dataclass
class _Closure:
    """What a walk over installed requirements found."""

    via: dict[str, set[str]]
    flags: dict[str, set[str]]
    problems: list[_Problem]


def _walk(
    installed: Mapping[str, PackageFacts],
    roots: Iterable[tuple[str, tuple[str, ...]]],
    requirements_of: RequirementsOf,
) -> _Closure:
    """Breadth-first over ``Requires-Dist`` from ``roots`` (name, extras) through installed."""
    closure = _Closure({}, {}, [])
    queue: deque[tuple[str, str]] = deque()
    for key, extras in roots:
        closure.via.setdefault(key, set())
        queue.extend((key, extra) for extra in ("", *extras))
    seen: set[tuple[str, str]] = set()
    while queue:
        key, extra = queue.popleft()
        if (key, extra) in seen:
            continue
        seen.add((key, extra))
        label = f"{key}[{extra}]" if extra else key
        for req in requirements_of(key, extra):
            dep = normalize_name(req.name)
            have = installed.get(dep)
            if have is None:
                closure.problems.append(
                    _Problem(
                        label,
                        f"{label} requires {dep}{req.specifier}, which is not installed",
                        False,
                    )
                )
                continue
            if req.specifier and spec_contains(have.version, str(req.specifier)) is False:
                closure.problems.append(
                    _Problem(
                        label,
                        f"{label} requires {dep}{req.specifier}, but {dep} {have.version} is "
                        "installed",
                        True,
                    )
                )
                closure.flags.setdefault(dep, set()).add(CONFLICT)
            if dep != key:
                closure.via.setdefault(dep, set()).add(label)
            queue.append((dep, ""))
            queue.extend((dep, normalize_name(e)) for e in sorted(req.extras))
    return closure


def _only_for_extra(text: str) -> Optional[str]:
    """The extra a ``Requires-Dist`` line belongs to when its marker says so plainly.

    ``pytest; extra == "test"`` and ``x; python_version < "3.12" and extra == 'dev'`` hold
    only for that extra (a conjunction with ``extra == NAME``). Most lines of a large
    package are such; recognising them by text spares parsing them for the base package.
    """
    marker = text.partition(";")[2]
    if not marker or " or " in marker:
        return None
    match = _EXTRA_ONLY_RE.search(marker)
    return normalize_name(match.group(1)) if match else None


_EXTRA_ONLY_RE = re.compile(r"""(?:^\s*|\band\s+|\(\s*)extra\s*==\s*['"]([^'"]+)['"]\s*\)?\s*$""")


def _requirements_reader(
    installed: Mapping[str, PackageFacts],
    env: Mapping[str, str],
    extra_requires: Mapping[tuple[str, str], Sequence[str]],
) -> RequirementsOf:
    """A cached ``(name, extra) -> requirements`` over the installed metadata."""
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415

    parsed: dict[tuple[str, str], list[Requirement]] = {}

    def parse(texts: Iterable[str]) -> list[Requirement]:
        reqs = []
        for text in texts:
            try:
                reqs.append(Requirement(text))
            except InvalidRequirement:
                continue  # a malformed Requires-Dist: pip ignores it too
        return reqs

    def requirements_of(key: str, extra: str) -> list[Requirement]:
        if (key, extra) in extra_requires:
            return parse(extra_requires[key, extra])
        if (key, extra) not in parsed:
            texts = [
                t for t in installed[key].requires if _only_for_extra(t) in (None, extra or None)
            ]
            parsed[key, extra] = [r for r in parse(texts) if _applies(r, env, extra)]
        return parsed[key, extra]

    return requirements_of


def _and_cuda_requirements(
    pkg: PackageFacts, line: Optional[TFLine], env: Mapping[str, str]
) -> list[str]:
    """The ``and-cuda`` extra of the installed TensorFlow: its metadata, else the matrix."""
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415

    found = []
    for text in pkg.requires:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if _applies(req, env, AND_CUDA):
            found.append(_strip(req))
    if not found and line is not None and line.and_cuda:
        found = [f"{dist}{spec}" for dist, spec in sorted(line.and_cuda.items())]
    return found


def _strip(req: Requirement) -> str:
    """A requirement without its marker (``nvidia-cudnn-cu12<10.0,>=9.3.0.75``)."""
    extras = f"[{','.join(sorted(req.extras))}]" if req.extras else ""
    return f"{req.name}{extras}{req.specifier}"


def needs_matrix(facts: Facts) -> bool:
    """Whether environment mode needs the matrix: TensorFlow's metadata lacks its extras.

    Facts replayed from a report may carry no ``Requires-Dist``; the matrix then supplies the
    ``and-cuda`` pins. Loading it costs a YAML parse, so only then.
    """
    tf = view(facts, None).tf
    return tf is not None and not any(AND_CUDA in text for text in tf.requires)


def _tf_roots(
    machine: Machine, installed: Mapping[str, PackageFacts], env: Mapping[str, str]
) -> list[str]:
    """The installed TensorFlow distributions that no other installed one requires.

    Wrappers install as a pair (``tensorflow`` requires ``tensorflow-intel`` on Windows):
    the one the user installed is the root. Several roots are distributions that overwrite
    each other's files.
    """
    first = [machine.tf_name] if machine.tf_name is not None else []
    present = sorted({normalize_name(p.name) for p in machine.tf_providers} | set(first))
    reader = _requirements_reader(installed, env, {})
    required = {normalize_name(r.name) for key in present for r in reader(key, "")}
    return [k for k in present if k not in required] or first


def environment_pinset(
    facts: Facts,
    matrix: Optional[Matrix] = None,
    *,
    all_packages: bool = False,
    smoke_verdict: Optional[str] = None,
) -> Pinset:
    """Pins reproducing this environment: TensorFlow's closure, or every distribution.

    ``smoke_verdict`` is what the smoke checks said of ``facts.smoke`` ("passed", "failed:
    ..."), for the header. Raises :class:`PinError` when the packages are unknown or
    (without ``all_packages``) no TensorFlow distribution is installed.
    """
    if facts.packages is None:
        err = facts.error_for("python")
        raise PinError("the installed packages could not be read", (err.message,) if err else ())
    installed = {normalize_name(p.name): p for p in facts.packages}
    machine = view(facts, matrix)
    env = machine.marker_env
    warnings: list[str] = []
    extra_requires: dict[tuple[str, str], Sequence[str]] = {}
    root_extras: dict[str, tuple[str, ...]] = {}
    if all_packages:
        roots = sorted(installed)
    else:
        roots = _tf_roots(machine, installed, env)
        if not roots:
            raise PinError(
                "no TensorFlow distribution is installed in the examined environment",
                (
                    "pin every installed distribution with --all, or pin the newest "
                    "TensorFlow for a target with --python-version X.Y (and --platform, --driver, "
                    "--gpu)",
                ),
            )
        if len(roots) > 1:
            warnings.append(
                f"several TensorFlow distributions are installed ({', '.join(roots)}); they "
                "overwrite each other's files (`tfdoctor check packages.tensorflow`)"
            )
    tf_key = machine.tf_name
    if tf_key is not None:
        tf_pkg = installed[tf_key]
        cuda_reqs = _and_cuda_requirements(tf_pkg, machine.line, env)
        extra_requires[tf_key, AND_CUDA] = cuda_reqs
        if _any_installed(cuda_reqs, installed):
            root_extras[tf_key] = (AND_CUDA,)
    reader = _requirements_reader(installed, env, extra_requires)
    walk = _walk(installed, ((k, root_extras.get(k, ())) for k in roots), reader)
    cuda_label = f"{tf_key}[{AND_CUDA}]" if tf_key is not None else None
    # The installed CUDA wheels miss TensorFlow's and-cuda pins: the file then pins TensorFlow
    # without the extra (what is installed now installs again), so nothing in it says
    # "tensorflow[and-cuda]" and pip has nothing of the extra to refuse.
    cuda_problem = any(p.label == cuda_label for p in walk.problems)
    for problem in walk.problems:
        refused = problem.conflict and problem.label != cuda_label
        text = problem.text + (
            " (pip will refuse these pins until that is fixed)" if refused else ""
        )
        if text not in warnings:
            warnings.append(text)
    entries = []
    for key in sorted(walk.via):
        pkg = installed[key]
        flags = set(walk.flags.get(key, ()))
        if pkg.editable:
            flags.add(EDITABLE)
        extras = root_extras.get(key, ()) if not cuda_problem else ()
        via = walk.via[key]
        if cuda_problem and cuda_label in via:
            via = (via - {cuda_label}) | {f"{cuda_label}, not pinned (see the warning)"}
        entries.append(
            PinEntry(
                name=key,
                specifier=f"=={pkg.version}",
                extras=extras,
                via=tuple(sorted(via)),
                flags=tuple(sorted(flags)),
            )
        )
    if cuda_problem and tf_key is not None:
        warnings.append(
            f"the installed CUDA wheels disagree with {tf_key}'s {AND_CUDA} pins: "
            f"{tf_key} is pinned without [{AND_CUDA}] so that the file installs what is "
            f"installed now; `pip install {tf_key}[{AND_CUDA}]=={installed[tf_key].version}` "
            "installs the versions TensorFlow was built for"
        )
    editable = [e.name for e in entries if EDITABLE in e.flags]
    if editable:
        warnings.append(
            f"editable installs are listed but not pinned: {', '.join(editable)} "
            "(install them from their source tree)"
        )
    return Pinset(
        mode="all" if all_packages else "environment",
        entries=tuple(entries),
        provenance=provenance(facts, smoke_verdict),
        warnings=tuple(warnings),
    )


def _any_installed(requirements: Sequence[str], installed: Mapping[str, PackageFacts]) -> bool:
    from packaging.requirements import Requirement  # noqa: PLC0415

    return any(normalize_name(Requirement(text).name) in installed for text in requirements)


# --- provenance -------------------------------------------------------------------------------


def provenance(facts: Facts, smoke_verdict: Optional[str] = None) -> tuple[tuple[str, str], ...]:
    """Header lines describing the examined machine, from the facts and the smoke verdict."""
    items: list[tuple[str, str]] = []
    py = facts.python
    items.append(("Python", f"{py.version} {py.implementation} ({py.env_kind})" if py else "?"))
    plat = facts.platform
    if plat is not None:
        parts = [f"{plat.system} {plat.release} {plat.machine}".replace("  ", " ")]
        if plat.os_name:
            parts.append(plat.os_name)
        if plat.libc_version:
            parts.append(f"{plat.libc} {plat.libc_version}")
        parts.extend(p for p in (plat.wsl, plat.container) if p)
        items.append(("Platform", ", ".join(parts)))
    drv = facts.driver
    if drv is None:
        items.append(("NVIDIA driver", "not probed"))
    elif drv.driver_version:
        cuda = f" (supports CUDA {drv.cuda_version})" if drv.cuda_version else ""
        items.append(("NVIDIA driver", f"{drv.driver_version}{cuda}"))
    else:
        items.append(("NVIDIA driver", f"none ({drv.error.message})" if drv.error else "none"))
    for gpu in drv.gpus if drv is not None else ():
        cc = gpu.compute_capability or "?"
        items.append((f"GPU {gpu.index}", f"{gpu.name}, compute capability {cc}"))
    libs = facts.cuda_libs
    if libs is not None:
        loaded = []
        for lib in libs.libraries:
            if lib.selected is None:
                continue
            cand = lib.candidates[lib.selected]
            loaded.append(f"{lib.name} {cand.version or '?'} ({cand.origin})")
        items.append(("CUDA libraries", ", ".join(loaded) or "none found"))
    tf = facts.tensorflow
    if tf is not None and tf.status == TFStatus.OK:
        build = f"TensorFlow {tf.version}"
        if tf.is_cuda_build:
            build += f" built with CUDA {tf.cuda_version or '?'}, cuDNN {tf.cudnn_version or '?'}"
        gpus = sum(1 for d in tf.devices if d.device_type == "GPU")
        items.append(("TensorFlow", f"{build}; imports, sees {gpus} GPU(s)"))
    if facts.smoke is None:
        smoke = "not run"
    else:
        # How the child ended is not a verdict (a finished run can still compute wrong
        # numbers on the CPU); the smoke checks' findings are, and the caller passes them.
        smoke = smoke_verdict or f"ran ({facts.smoke.status}), not judged"
    items.append(("Smoke test", smoke))
    return tuple(items)


# --- target mode ------------------------------------------------------------------------------

#: The distributions of :class:`~tfdoctor.matrix.Pins` (``tf_keras`` is a range the tf-keras
#: wheel declares for TensorFlow, not one TensorFlow declares, so it is not pinned here).
_PINNED = (
    ("numpy", "numpy"),
    ("protobuf", "protobuf"),
    ("keras", "keras"),
    ("ml_dtypes", "ml-dtypes"),
)


def _span(names: Sequence[str]) -> str:
    if len(names) <= 3:
        return ", ".join(names)
    return f"{names[0]} to {names[-1]} ({len(names)} lines)"


def exclusion_reasons(all_verdicts: Sequence[Verdict]) -> tuple[str, ...]:
    """``2.21 to 2.11 (11 lines): no GPU support ...``: each reason with the lines it excludes."""
    grouped: dict[str, list[str]] = {}
    for verdict in all_verdicts:
        for reason in verdict.reasons:
            grouped.setdefault(reason, []).append(verdict.line.line)
    return tuple(f"{_span(lines)}: {reason}" for reason, lines in grouped.items())


def companion_pins(
    table: Companions,
    line: TFLine,
    installed: Iterable[PackageFacts],
    python: Optional[str] = None,
) -> tuple[list[PinEntry], list[str]]:
    """The installed companions moved to their release for ``line`` (the companion table;
    tf-keras: the matrix's pairing), and a warning for each that has none.

    A companion left at its installed release would break the target's TensorFlow (its ops
    are built against one), so it is asked for at the release for the target's line.
    """
    entries: list[PinEntry] = []
    warnings: list[str] = []
    pre = line.pre_release
    for pkg in sorted(installed, key=lambda p: normalize_name(p.name)):
        name = normalize_name(pkg.name)
        if name == "tf-keras":
            spec = tf_keras_requirement(line)
            if spec is not None:
                entries.append(PinEntry(name, spec[len("tf-keras") :]))
            continue
        comp = table.companions.get(name)
        if comp is None:
            continue
        row = comp.release_for(line.latest_patch, python)
        if row is not None:
            entries.append(PinEntry(name, row.specifier(pre)))
            continue
        eol = f" ({comp.end_of_life})" if comp.end_of_life else ""
        on = f" on Python {python}" if python and comp.release_for(line.latest_patch) else ""
        warnings.append(
            f"{name} {pkg.version} is installed, but no release of it declares TensorFlow "
            f"{line.latest_patch}{on}{eol}: it is left out, since it would not load with it"
        )
    return entries, warnings


def target_pinset(
    matrix: Matrix,
    target: Target,
    origins: Optional[Mapping[str, str]] = None,
    companions: Optional[tuple[Companions, Sequence[PackageFacts]]] = None,
    line: Optional[TFLine] = None,
) -> Pinset:
    """Pins for the newest release line that fits ``target``, or for ``line`` when given;
    :class:`PinError` when none fits (or ``line`` does not).

    ``origins`` says where each target field came from (``given``, ``this machine``), for
    the header. ``companions``: the companion table and the installed companions, kept in
    step (:func:`companion_pins`).
    """
    from packaging.requirements import Requirement  # noqa: PLC0415

    plat = target.platform or "linux-x86_64"
    fitted = describe_target(dataclasses.replace(target, platform=plat))
    line_given = line is not None
    if line is not None:
        chosen = evaluate(matrix, line, target)
        if not chosen.fits:
            raise PinError(f"TensorFlow {line.line} does not fit {fitted}", chosen.reasons)
        found: Optional[Verdict] = chosen
    else:
        found = newest_fit(matrix, target)
    if found is None:
        raise PinError(
            f"no TensorFlow release fits {fitted}",
            exclusion_reasons(verdicts(matrix, target)),
        )
    line = found.line
    root = Requirement(install_requirement(line, target))
    root_name = normalize_name(root.name)
    extras = tuple(sorted(root.extras))
    cuda_label = f"{root_name}[{AND_CUDA}]"
    warnings: list[str] = []
    cuda_pins = dict(line.and_cuda or {}) if AND_CUDA in extras else {}
    trt_release, trt_python, trt_links = tensorrt_python_cap()
    if TENSORRT in cuda_pins and _newer_python(target.python, trt_python):
        # TensorFlow runs without TensorRT (only TF-TRT loads it), so the rest of the extra
        # is pinned by hand and the file installs.
        warnings.append(
            f"{TENSORRT}{cuda_pins.pop(TENSORRT)}, which {cuda_label}=={line.latest_patch} "
            f"requires, has no wheel for Python {target.python} (TensorRT {trt_release} wheels "
            f"stop at Python {trt_python[0]}.{trt_python[1]}; {trt_links[-1]}): "
            f"{root_name} is pinned without [{AND_CUDA}], its CUDA wheels are listed one by "
            f"one, and {TENSORRT} is left out (TensorFlow runs without it; TF-TRT needs it)"
        )
        extras = tuple(e for e in extras if e != AND_CUDA)
        cuda_label += f" without {TENSORRT} (see the warning)"
    entries = [PinEntry(root_name, str(root.specifier), extras)]
    requested = [entries[0].requirement()]
    if AND_CUDA not in extras:
        # The extra was dropped (see the warning): its wheels are asked for one by one.
        requested.extend(f"{normalize_name(d)}{s}" for d, s in sorted(cuda_pins.items()))
    wrapper = line.wrappers.get(plat)
    if wrapper is not None:
        # The wheel on this platform is a thin wrapper requiring this one, at the same version.
        entries.append(
            PinEntry(
                normalize_name(wrapper),
                f"=={line.latest_patch}",
                marker=PLATFORM_MARKERS.get(plat),
                via=(root_name,),
            )
        )
    for field, dist in _PINNED:
        spec = getattr(line.pins, field)
        if spec:
            entries.append(PinEntry(dist, spec, via=(root_name,)))
    for dist, spec in sorted(cuda_pins.items()):
        entries.append(PinEntry(normalize_name(dist), spec, marker=LINUX_MARKER, via=(cuda_label,)))
    if companions is not None:
        # Requested beside TensorFlow, each at its release for this line: the resolver then
        # pins them with what they require.
        extra, left_out = companion_pins(companions[0], line, companions[1], target.python)
        entries.extend(extra)
        requested.extend(e.requirement() for e in extra)
        warnings.extend(left_out)
    entries.sort(key=lambda e: e.name)
    return Pinset(
        mode="target",
        entries=tuple(entries),
        provenance=_target_provenance(matrix, found, target, origins or {}, chosen=line_given),
        warnings=tuple(warnings),
        requested=tuple(requested),
    )


def _newer_python(python: Optional[str], last: tuple[int, ...]) -> bool:
    """Whether a target Python (``3.11``) is newer than ``last``; False when not given."""
    return python is not None and version_key(python)[: len(last)] > last


def _target_provenance(
    matrix: Matrix,
    found: Verdict,
    target: Target,
    origins: Mapping[str, str],
    *,
    chosen: bool = False,
) -> tuple[tuple[str, str], ...]:
    line = found.line
    plat = target.platform or "linux-x86_64"
    os_name = PLATFORMS.get(plat, "linux")

    def origin(field: str) -> str:
        where = origins.get(field)
        return f" ({where})" if where else ""

    items: list[tuple[str, str]] = [
        ("Target Python", f"{target.python or 'any'}{origin('python')}"),
        ("Target platform", f"{plat}{origin('platform')}"),
    ]
    if target.cuda:
        items.append(("Target CUDA", f"{target.cuda}{origin('cuda')}"))
    items.append(("Target driver", f"{target.driver or 'none (no GPU)'}{origin('driver')}"))
    if target.gpu:
        items.append(("Target GPU", f"compute capability {target.gpu}{origin('gpu')}"))
    why = (
        "the release line asked for"
        if chosen
        else "the newest release line the compatibility matrix says fits this target"
    )
    items.append(("TensorFlow", f"{line.latest_patch}, {why}"))
    if target.wants_gpu and line.cuda:
        floor = driver_floor(matrix, line, os_name)
        text = f"CUDA {line.cuda}, cuDNN {line.cudnn or '?'}"
        if floor is not None:
            text += f"; needs NVIDIA driver >= {floor.version}"
        items.append(("GPU build", text))
        if not (os_name == "linux" and line.and_cuda):
            items.append(
                (
                    "Note",
                    f"this line has no pip wheels for CUDA on {os_name}: install CUDA "
                    f"{line.cuda} and cuDNN {line.cudnn or '?'} yourself",
                )
            )
        if os_name == "windows":
            items.append(
                (
                    "Note",
                    f"{line.line} is the last release line with GPU support on native "
                    "Windows; newer releases run on the GPU under WSL2 (Linux wheels)",
                )
            )
    items.extend(("Note", note) for note in found.notes)
    items.append(("Smoke test", "not run (a target, not this environment)"))
    return tuple(items)
