"""The terminal report: one verdict per area, what to fix, and with ``verbose`` every fact.

Colour and width come from the arguments only, so the output is the same on every machine
and golden tests can compare it whole.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from typing import Optional

from rich.console import Console
from rich.text import Text

from tfdoctor.facts import (
    CpuFacts,
    CudaLibsFacts,
    DriverFacts,
    Facts,
    GpuFacts,
    LibraryFacts,
    PackageFacts,
    PlatformFacts,
    ProbeError,
    PythonFacts,
    TensorFlowFacts,
    normalize_name,
)
from tfdoctor.findings import ExitCode, Finding, Report, Severity
from tfdoctor.redact import Redactor

#: Areas in the order a broken stack is best read: the interpreter, the machine, what is
#: installed, TensorFlow itself, then the GPU stack beneath it. Others follow alphabetically.
AREA_ORDER: tuple[str, ...] = (
    "python",
    "platform",
    "cpu",
    "packages",
    "tensorflow",
    "driver",
    "gpu",
    "cuda",
    "env",
)

# Severity marks for plain terminals (and logs, and CI) and for colour terminals.
_PLAIN_MARK = {
    Severity.OK: "[ ok ]",
    Severity.INFO: "[info]",
    Severity.UNKNOWN: "[ ?? ]",
    Severity.WARNING: "[warn]",
    Severity.ERROR: "[FAIL]",
}
_COLOR_MARK = {
    Severity.OK: "✔",
    Severity.INFO: "i",
    Severity.UNKNOWN: "?",
    Severity.WARNING: "!",
    Severity.ERROR: "✘",
}
_STYLE = {
    Severity.OK: "green",
    Severity.INFO: "cyan",
    Severity.UNKNOWN: "magenta",
    Severity.WARNING: "yellow",
    Severity.ERROR: "bold red",
}
_NOUN = {
    Severity.OK: ("ok", "ok"),
    Severity.INFO: ("note", "notes"),
    Severity.UNKNOWN: ("unknown", "unknown"),
    Severity.WARNING: ("warning", "warnings"),
    Severity.ERROR: ("error", "errors"),
}

#: Packages the paste-ready report lists; the full list is in the JSON and ``--verbose``.
RELEVANT_PACKAGE_PREFIXES: tuple[str, ...] = (
    "tensorflow",
    "tf-",
    "tf-keras",
    "keras",
    "tensorboard",
    "tensorrt",
    "nvidia-",
    "jax",
    "numpy",
    "protobuf",
    "ml-dtypes",
    "h5py",
    "tfdoctor",
)

# Probe names that may have recorded the error for a facts section that is missing.
_SECTION_PROBES: dict[str, tuple[str, ...]] = {
    "python": ("python",),
    "platform": ("platform",),
    "cpu": ("cpu",),
    "packages": ("packages",),
    "tensorflow": ("tensorflow", "tf"),
    "driver": ("driver", "nvml", "nvidia-smi"),
    "cuda_libs": ("cuda_libs", "cuda-libs", "cuda"),
    "environment": ("environment", "env"),
}


@dataclasses.dataclass(frozen=True)
class Section:
    """A titled block of plain fact lines, shared by the text and markdown renderers."""

    title: str
    lines: tuple[str, ...]


def area_of(finding_id: str) -> str:
    """The area a finding belongs to: its id up to the first dot (``cuda.cudnn`` -> ``cuda``)."""
    return finding_id.split(".", 1)[0]


def group_by_area(findings: Sequence[Finding]) -> list[tuple[str, list[Finding]]]:
    """Findings grouped by area, areas in :data:`AREA_ORDER` then alphabetically."""
    groups: dict[str, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(area_of(finding.id), []).append(finding)

    def key(area: str) -> tuple[int, str]:
        rank = AREA_ORDER.index(area) if area in AREA_ORDER else len(AREA_ORDER)
        return (rank, area)

    return [(area, groups[area]) for area in sorted(groups, key=key)]


def counts_phrase(findings: Sequence[Finding], *, include_ok: bool = True) -> str:
    """``2 errors, 1 warning, 3 ok``: counts per severity, worst first."""
    parts = []
    for sev in sorted(Severity, key=lambda s: s.rank, reverse=True):
        n = sum(1 for f in findings if f.severity is sev)
        if n and (include_ok or sev is not Severity.OK):
            one, many = _NOUN[sev]
            parts.append(f"{n} {one if n == 1 else many}")
    return ", ".join(parts) if parts else "no findings"


def exit_phrase(report: Report, strict: bool) -> str:
    """What the exit code the report earns means."""
    code = report.exit_code(strict)
    if code == ExitCode.ERRORS:
        return f"exit code {code}: errors found"
    if code == ExitCode.WARNINGS:
        return f"exit code {code}: warnings or unknowns (--strict)"
    if report.worst().rank >= Severity.UNKNOWN.rank:
        return f"exit code {code}: no errors (warnings and unknowns fail only with --strict)"
    return f"exit code {code}: no problems found"


def render_text(
    report: Report,
    *,
    verbose: bool = False,
    color: bool = False,
    width: int = 100,
    strict: bool = False,
) -> str:
    """The report for a terminal: verdict per area, non-ok findings with fixes, a summary.

    The string ends in one newline; the caller prints it as it is.
    """
    redactor = Redactor(private=False)
    safe = redactor.tree(report)
    out = io.StringIO()
    console = Console(
        file=out,
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        width=width,
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
        force_jupyter=False,
        force_interactive=False,
    )
    marks = _COLOR_MARK if color else _PLAIN_MARK
    mark_width = max(len(m) for m in marks.values())
    facts = safe.facts

    header = Text(f"tfdoctor {facts.tfdoctor_version}", style="bold")
    if facts.python is not None:
        header.append(f" - {facts.python.executable} (Python {facts.python.version})")
    console.print(header, soft_wrap=True)
    console.print()

    groups = group_by_area(safe.findings)
    area_width = max((len(area) for area, _ in groups), default=0)
    for area, findings in groups:
        worst = max((f.severity for f in findings), key=lambda s: s.rank)
        line = Text()
        line.append(marks[worst].ljust(mark_width), style=_STYLE[worst])
        line.append(f" {area.ljust(area_width)}  ", style="bold")
        line.append(_area_verdict(findings, worst))
        console.print(line, soft_wrap=True)
        indent = mark_width + 1
        for finding in findings:
            if finding.severity is not Severity.OK:
                _print_finding(console, finding, marks, indent, mark_width, verbose)
    if not groups:
        console.print("No checks ran.")

    failed = sorted({err.probe for err in facts.errors})
    if failed and not verbose:
        console.print()
        console.print(
            f"Probes that could not determine their facts: {', '.join(failed)} "
            "(--verbose shows why)",
            soft_wrap=True,
        )

    if verbose:
        for section in facts_sections(facts, brief=False):
            console.print()
            console.print(Text(section.title, style="bold underline"), soft_wrap=True)
            for fact_line in section.lines:
                console.print(Text(fact_line), soft_wrap=True)

    console.print()
    summary = Text("Summary: ", style="bold")
    summary.append(f"{counts_phrase(safe.findings)}; {exit_phrase(safe, strict)}.")
    console.print(summary, soft_wrap=True)
    # Strip trailing blanks rich leaves on wrapped lines: they only make diffs and pastes noisy.
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    return redactor.text("\n".join(lines).rstrip("\n") + "\n")


def _area_verdict(findings: Sequence[Finding], worst: Severity) -> str:
    checks = f"{len(findings)} check{'s' if len(findings) != 1 else ''}"
    if worst is Severity.OK:
        # A healthy area says what was found, so the quiet report still shows the stack.
        return "; ".join(f.summary for f in findings)
    if worst is Severity.INFO:
        notes = sum(1 for f in findings if f.severity is Severity.INFO)
        return f"ok, {notes} note{'s' if notes != 1 else ''} ({checks})"
    return f"{counts_phrase(findings, include_ok=False)} ({checks})"


def _print_finding(
    console: Console,
    finding: Finding,
    marks: dict[Severity, str],
    indent: int,
    mark_width: int,
    verbose: bool,
) -> None:
    head = Text(" " * indent)
    head.append(marks[finding.severity].ljust(mark_width), style=_STYLE[finding.severity])
    head.append(f" {finding.summary}")
    head.append(f" ({finding.id})", style="dim")
    console.print(head, soft_wrap=True)
    body = indent + mark_width + 1
    # Quiet by default: a note is one line; its detail shows with --verbose.
    if finding.detail and (verbose or finding.severity is not Severity.INFO):
        # Prose wraps to the width; everything a user might copy is printed unwrapped.
        for line in Text(finding.detail).wrap(console, max(20, console.width - body)):
            line.rstrip()
            console.print(Text(" " * body) + line, soft_wrap=True)
    if finding.fix is not None:
        fix = Text(" " * body)
        fix.append("Fix: ", style="bold")
        fix.append(finding.fix.text)
        console.print(fix, soft_wrap=True)
        for command in finding.fix.commands:
            console.print(Text(" " * (body + 4)) + Text(command, style="bold"), soft_wrap=True)
    for link in finding.links:
        console.print(Text(" " * body + f"See: {link}"), soft_wrap=True)


# --- facts as plain lines ---------------------------------------------------------------


def facts_sections(facts: Facts, *, brief: bool) -> list[Section]:
    """Every fact as titled plain lines; ``brief`` keeps only the packages that matter to TF."""
    return [
        Section("Python", tuple(_python_lines(facts, facts.python))),
        Section("Platform", tuple(_platform_lines(facts, facts.platform))),
        Section("CPU", tuple(_cpu_lines(facts, facts.cpu))),
        Section("Packages", tuple(_package_lines(facts, facts.packages, brief))),
        Section("TensorFlow", tuple(_tensorflow_lines(facts, facts.tensorflow, brief))),
        Section("NVIDIA driver and GPUs", tuple(_driver_lines(facts, facts.driver))),
        Section("CUDA libraries", tuple(_cuda_lines(facts, facts.cuda_libs))),
        Section("Environment", tuple(_environment_lines(facts, facts.environment))),
        Section("Probe errors", tuple(_probe_error_lines(facts.errors))),
    ]


def _unknown(facts: Facts, section: str) -> list[str]:
    for probe in _SECTION_PROBES[section]:
        err = facts.error_for(probe)
        if err is not None:
            return [f"  could not determine ({err.probe}: {err.reason}: {err.message})"]
    return ["  could not determine (the probe recorded no reason)"]


def _error_lines(label: str, err: ProbeError) -> list[str]:
    lines = [f"  {label}: {err.reason}: {err.message}"]
    lines += [f"      {d}" for d in err.detail.splitlines() if d.strip()]
    return lines


def _opt(value: object) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _size(n: Optional[int]) -> str:
    return "unknown" if n is None else f"{n / 2**30:.1f} GiB"


def _python_lines(facts: Facts, py: Optional[PythonFacts]) -> list[str]:
    if py is None:
        return _unknown(facts, "python")
    lines = [
        f"  version: {py.version} ({py.implementation}, {py.bits}-bit)",
        f"  executable: {py.executable}",
        f"  environment: {py.env_kind}",
        f"  prefix: {py.prefix}",
        f"  base prefix: {py.base_prefix}",
        f"  pip: {_opt(py.pip_version)}",
    ]
    lines += [f"  site-packages: {p}" for p in py.site_packages]
    return lines


def _platform_lines(facts: Facts, plat: Optional[PlatformFacts]) -> list[str]:
    if plat is None:
        return _unknown(facts, "platform")
    libc = plat.libc if plat.libc_version is None else f"{plat.libc} {plat.libc_version}"
    nodes = ", ".join(plat.nvidia_device_nodes) if plat.nvidia_device_nodes else "none"
    return [
        f"  system: {plat.system} {plat.release} ({plat.machine})",
        f"  os: {plat.os_name}",
        f"  libc: {libc}",
        f"  WSL: {plat.wsl or 'no'}",
        f"  container: {plat.container or 'none detected'}",
        f"  Rosetta 2: {_opt(plat.rosetta)}",
        f"  /dev/nvidia* nodes: {nodes}",
    ]


def _cpu_lines(facts: Facts, cpu: Optional[CpuFacts]) -> list[str]:
    if cpu is None:
        return _unknown(facts, "cpu")
    if cpu.flags_known:
        flags = " ".join(cpu.flags) if cpu.flags else "none of the tracked ones"
    else:
        flags = "unknown"
    return [
        f"  model: {cpu.model}",
        f"  cores: {_opt(cpu.physical_cores)} physical, {_opt(cpu.logical_cores)} logical",
        f"  vector features: {flags}",
        f"  memory: {_size(cpu.memory_total)} total, {_size(cpu.memory_available)} available",
        f"  swap: {_size(cpu.swap_total)}",
    ]


def _is_relevant(pkg: PackageFacts) -> bool:
    name = normalize_name(pkg.name)
    return any(name.startswith(prefix) for prefix in RELEVANT_PACKAGE_PREFIXES)


def _package_lines(
    facts: Facts, packages: Optional[tuple[PackageFacts, ...]], brief: bool
) -> list[str]:
    if packages is None:
        return _unknown(facts, "packages")
    shown = sorted(
        (p for p in packages if not brief or _is_relevant(p)),
        key=lambda p: (normalize_name(p.name), p.version, p.location),
    )
    if not shown:
        return ["  none installed" if not packages else "  none of the TensorFlow-related ones"]
    rows = [("name", "version", "location")] + [
        (p.name, p.version, p.location + (" (editable)" if p.editable else "")) for p in shown
    ]
    name_w = max(len(r[0]) for r in rows)
    ver_w = max(len(r[1]) for r in rows)
    lines = [f"  {n.ljust(name_w)}  {v.ljust(ver_w)}  {loc}".rstrip() for n, v, loc in rows]
    if brief and len(shown) < len(packages):
        hidden = len(packages) - len(shown)
        lines.append(f"  ({hidden} other package{'s' if hidden != 1 else ''} not shown)")
    return lines


def _tensorflow_lines(facts: Facts, tf: Optional[TensorFlowFacts], brief: bool) -> list[str]:
    if tf is None:
        return _unknown(facts, "tensorflow")
    lines = [
        f"  status: {tf.status}",
        f"  interpreter: {tf.interpreter}",
        f"  version: {_opt(tf.version)} ({_opt(tf.git_version)})",
        f"  CUDA build: {_opt(tf.is_cuda_build)}, ROCm build: {_opt(tf.is_rocm_build)}",
        f"  built for CUDA {_opt(tf.cuda_version)}, cuDNN {_opt(tf.cudnn_version)}",
    ]
    if tf.compute_capabilities:
        lines.append(f"  compute capabilities: {', '.join(tf.compute_capabilities)}")
    if tf.build_info:
        lines.append(f"  build info (from {_opt(tf.build_info_source)}):")
        lines += [f"    {k}: {v}" for k, v in sorted(tf.build_info.items())]
    if tf.devices:
        lines.append("  devices:")
        for dev in tf.devices:
            extra = ", ".join(f"{k}={v}" for k, v in sorted(dev.details.items()))
            lines.append(f"    {dev.name} ({dev.device_type})" + (f": {extra}" if extra else ""))
    else:
        lines.append("  devices: none listed")
    if tf.error_type or tf.error_message:
        lines.append(f"  error: {_opt(tf.error_type)}: {_opt(tf.error_message)}")
    if tf.signal:
        lines.append(f"  killed by signal: {tf.signal}")
    run = []
    if tf.returncode is not None:
        run.append(f"exit code {tf.returncode}")
    if tf.seconds is not None:
        run.append(f"took {tf.seconds:.1f} s")
    if tf.timeout is not None:
        run.append(f"timeout {tf.timeout:g} s")
    if run:
        lines.append(f"  child: {', '.join(run)}")
    if tf.log_errors:
        lines.append("  log errors:")
        lines += [f"    {e}" for e in tf.log_errors]
    # A healthy import's stderr is noise in a bug report; a failed one's is the evidence.
    if tf.stderr_tail.strip() and (not brief or tf.status != "ok"):
        lines.append("  stderr (tail):")
        lines += [f"    {s}" for s in tf.stderr_tail.splitlines()]
    return lines


def _gpu_lines(gpu: GpuFacts) -> list[str]:
    lines = [f"  GPU {gpu.index}: {gpu.name}"]
    lines.append(f"    uuid: {_opt(gpu.uuid)}, PCI bus: {_opt(gpu.pci_bus_id)}")
    lines.append(f"    compute capability: {_opt(gpu.compute_capability)}")
    used = "unknown" if gpu.memory_used is None else _size(gpu.memory_used)
    lines.append(f"    memory: {used} used of {_size(gpu.memory_total)}")
    lines.append(f"    MIG mode: {_opt(gpu.mig_mode)}")
    lines.append(
        f"    ECC errors: {_opt(gpu.ecc_corrected)} corrected, "
        f"{_opt(gpu.ecc_uncorrected)} uncorrected"
    )
    return lines


def _driver_lines(facts: Facts, drv: Optional[DriverFacts]) -> list[str]:
    if drv is None:
        return _unknown(facts, "driver")
    lines = [
        f"  source: {drv.source}",
        f"  driver version: {_opt(drv.driver_version)}",
        f"  highest CUDA the driver supports: {_opt(drv.cuda_version)}",
        f"  NVML version: {_opt(drv.nvml_version)}",
    ]
    if drv.nvml_error is not None:
        lines += _error_lines("NVML error", drv.nvml_error)
    if drv.error is not None:
        lines += _error_lines("error", drv.error)
    if not drv.gpus:
        lines.append("  GPUs: none")
    for gpu in drv.gpus:
        lines += _gpu_lines(gpu)
    return lines


def _library_lines(lib: LibraryFacts) -> list[str]:
    lines = [f"  {lib.name} ({', '.join(lib.sonames)})"]
    if not lib.candidates:
        lines.append("    not found")
    for i, cand in enumerate(lib.candidates):
        chosen = "*" if i == lib.selected else " "
        version = "version unknown"
        if cand.version is not None:
            version = f"version {cand.version} ({cand.version_source})"
        if cand.loadable is None:
            load = "load not tried"
        elif cand.loadable:
            load = "loads"
        else:
            load = f"does not load: {_opt(cand.load_error)}"
        lines.append(f"   {chosen}{i + 1}. {cand.path}")
        lines.append(f"       from {cand.origin}; {version}; {load}")
    if lib.candidates:
        lines.append(
            "    none would load"
            if lib.selected is None
            else f"    selected: {lib.selected + 1} (marked *)"
        )
    return lines


def _cuda_lines(facts: Facts, cuda: Optional[CudaLibsFacts]) -> list[str]:
    if cuda is None:
        return _unknown(facts, "cuda_libs")
    lines = [f"  searched for CUDA {_opt(cuda.cuda_major)}, cuDNN {_opt(cuda.cudnn_major)}"]
    for lib in cuda.libraries:
        lines += _library_lines(lib)
    ptxas = "not found" if cuda.ptxas is None else f"{cuda.ptxas} ({_opt(cuda.ptxas_version)})"
    lines.append(f"  ptxas: {ptxas}")
    lines.append(f"  libdevice: {cuda.libdevice or 'not found'}")
    if cuda.error is not None:
        lines += _error_lines("error", cuda.error)
    return lines


def _environment_lines(facts: Facts, env: Optional[dict[str, str]]) -> list[str]:
    if env is None:
        return _unknown(facts, "environment")
    if not env:
        return ["  none of the relevant variables are set"]
    return [f"  {name}={value}" for name, value in sorted(env.items())]


def _probe_error_lines(errors: tuple[ProbeError, ...]) -> list[str]:
    if not errors:
        return ["  none"]
    lines: list[str] = []
    for err in errors:
        lines += _error_lines(err.probe, err)
    return lines
