"""What the text and markdown renderers share: area order, counts, and the facts as plain lines.

Plain strings only: this module must not load rich, so the markdown and JSON renderers stay
cheap to import.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any, Callable, NamedTuple, Optional

from tfdoctor.defaults import ExitCode
from tfdoctor.facts import (
    CpuFacts,
    CudaLibsFacts,
    DriverFacts,
    Facts,
    GpuFacts,
    HostedFacts,
    LibraryFacts,
    NotebookFacts,
    PackageFacts,
    PlatformFacts,
    ProbeError,
    PythonFacts,
    TensorFlowFacts,
    TFStatus,
    normalize_name,
)
from tfdoctor.findings import Finding, Report, Severity
from tfdoctor.records import Record, record

#: Areas in the order a broken stack is best read: the interpreter, the machine, what is
#: installed, TensorFlow itself, then the GPU stack beneath it. Others follow alphabetically.
AREA_ORDER: tuple[str, ...] = (
    "python",
    "platform",
    "notebook",
    "hosted",
    "cpu",
    "packages",
    "tensorflow",
    "driver",
    "gpu",
    "cuda",
    "env",
)

#: Packages the paste-ready report lists; the full list is in the JSON and ``--verbose``.
RELEVANT_PACKAGE_PREFIXES: tuple[str, ...] = (
    "tensorflow",
    "tf-",
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

_NOUN = {
    Severity.OK: ("ok", "ok"),
    Severity.INFO: ("note", "notes"),
    Severity.UNKNOWN: ("unknown", "unknown"),
    Severity.WARNING: ("warning", "warnings"),
    Severity.ERROR: ("error", "errors"),
}


@record
class Section(Record):
    """A titled block of plain fact lines, shared by the text and markdown renderers."""

    title: str
    lines: tuple[str, ...]


def area_of(finding_id: str) -> str:
    """The area a finding belongs to: its id up to the first dot (``cuda.shadowed`` -> ``cuda``)."""
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
    if code == ExitCode.INTERRUPTED:
        return f"exit code {code}: interrupted (Ctrl-C); what was found until then"
    if code == ExitCode.ERRORS:
        return f"exit code {code}: errors found"
    if code == ExitCode.WARNINGS:
        return f"exit code {code}: warnings or unknowns (--strict)"
    if report.worst().rank >= Severity.UNKNOWN.rank:
        return f"exit code {code}: no errors (warnings and unknowns fail only with --strict)"
    unexplained = report.unexplained()
    if unexplained is not None:
        # An exception raised outside TensorFlow is a note, yet the log is not clean: say
        # what was left unexplained rather than "no problems".
        said = unexplained.summary
        return f"exit code {code}: no TensorFlow problem found, but {said[:1].lower()}{said[1:]}"
    return f"exit code {code}: no problems found"


# --- evidence: repeats shown once, long detail folded -----------------------------------

#: Lines of a finding's detail shown before the rest is folded away (``--verbose`` shows all).
FOLD_LINES = 8
#: A detail at most this much longer is shown whole: hiding a line or two costs a marker line.
FOLD_SLACK = 4
#: Blocks shorter than this are prose rather than evidence, and may well recur in another
#: finding on purpose; only longer ones are left out when an earlier finding showed them.
SHARED_BLOCK_LINES = 3
#: How every traceback Python prints starts (Lib/traceback.py); NumPy 2 prints its own stack
#: with the first frame glued to this line (numpy/core/_multiarray_umath.py).
_TRACEBACK = "Traceback (most recent call last):"


class _Block(NamedTuple):
    """Lines of a detail between blank lines (or before a traceback), and whether a blank
    line came before them."""

    lines: tuple[str, ...]
    after_blank: bool

    @property
    def key(self) -> str:
        """The block's text, trailing blanks ignored: equal keys are the same evidence."""
        return "\n".join(line.rstrip() for line in self.lines)


def _blocks(text: str) -> list[_Block]:
    """``text`` cut at blank lines and where a traceback starts."""
    blocks: list[_Block] = []
    current: list[str] = []
    after_blank = blank = False
    for line in text.splitlines():
        if not line.strip():
            blank = True
            continue
        if current and (blank or line.startswith(_TRACEBACK)):
            blocks.append(_Block(tuple(current), after_blank))
            current = []
        if not current:
            after_blank = blank and bool(blocks)
        blank = False
        current.append(line)
    if current:
        blocks.append(_Block(tuple(current), after_blank))
    return blocks


class EvidenceFolder:
    """The detail of each finding of one report as the lines to print: a block of lines that
    repeats (in one finding's detail, or shown under an earlier finding) appears once, and
    what is left is folded to :data:`FOLD_LINES` lines with a count of the rest.

    With ``verbose`` every detail is printed as recorded. One folder serves one report, in
    the order its findings are printed.
    """

    def __init__(self, *, verbose: bool) -> None:
        self.verbose = verbose
        # Block -> the finding it was printed under.
        self._shown: dict[str, str] = {}

    def lines(self, finding: Finding) -> list[str]:
        """The lines of ``finding.detail`` to print, blank lines between paragraphs kept."""
        if self.verbose:
            return finding.detail.splitlines()
        kept: list[_Block] = []
        seen: dict[str, int] = {}
        repeated = 0
        elsewhere: dict[str, int] = {}
        for block in _blocks(finding.detail):
            key = block.key
            if key in seen:
                seen[key] += 1
                repeated += len(block.lines)
            elif len(block.lines) >= SHARED_BLOCK_LINES and key in self._shown:
                earlier = self._shown[key]
                elsewhere[earlier] = elsewhere.get(earlier, 0) + len(block.lines)
            else:
                seen[key] = 1
                kept.append(block)
        out: list[str] = []
        ends: list[tuple[int, str]] = []  # (line after the block, its key)
        for block in kept:
            if block.after_blank and out:
                out.append("")
            out += block.lines
            ends.append((len(out), block.key))
        folded = len(out) > FOLD_LINES + FOLD_SLACK
        if folded:
            left = sum(1 for line in out[FOLD_LINES:] if line.strip())
            out = out[:FOLD_LINES]
            while out and not out[-1].strip():
                out.pop()
            out.append(f"... {left} more line{'s' if left != 1 else ''}; -v shows them all")
        for end, key in ends:
            if not folded or end <= FOLD_LINES:
                self._shown.setdefault(key, finding.id)
        if repeated:
            out.append(_repeat_note(seen, repeated))
        for earlier, count in elsewhere.items():
            out.append(f"({count} lines left out: the same as under {earlier} above)")
        return out


def _repeat_note(seen: dict[str, int], repeated: int) -> str:
    """``(the same traceback appeared 3 times; 51 repeated lines left out)``."""
    tracebacks = [n for key, n in seen.items() if n > 1 and key.startswith(_TRACEBACK)]
    if len(tracebacks) == 1:
        head = f"the same traceback appeared {tracebacks[0]} times; "
    elif tracebacks:
        head = f"{len(tracebacks)} tracebacks appeared more than once; "
    else:
        head = ""
    return f"({head}{repeated} repeated line{'s' if repeated != 1 else ''} left out)"


def wrap_at_spaces(line: str, width: int, hang: str = "") -> list[str]:
    """``line`` cut to ``width`` columns at spaces only; continuation lines keep its indent,
    plus ``hang``.

    A word longer than the width (a path, a URL, a version range) stays whole on a line of
    its own, overflowing: a pin copied from the output must be the pin.
    """
    indent = line[: len(line) - len(line.lstrip())]
    return textwrap.wrap(
        line,
        max(width, len(indent) + 1),
        subsequent_indent=indent + hang,
        break_long_words=False,
        break_on_hyphens=False,
        drop_whitespace=True,
    ) or [line.rstrip()]


# --- facts as plain lines ---------------------------------------------------------------


def facts_sections(facts: Facts, *, brief: bool) -> list[Section]:
    """Every fact as titled plain lines; ``brief`` keeps only the packages that matter to TF.

    A section whose facts are missing says so, with the reason its probe recorded.
    """
    sections = []
    for spec in _SECTIONS:
        value = getattr(facts, spec.field)
        lines = _unknown(facts, spec.probes) if value is None else spec.lines(value, brief)
        sections.append(Section(spec.title, tuple(lines)))
    # Shown where they apply only: outside a hosted image or a kernel there is nothing to say.
    if facts.hosted is not None and facts.hosted.name is not None:
        sections.append(Section("Hosted image", tuple(_hosted_lines(facts.hosted))))
    if facts.notebook is not None:
        sections.append(
            Section("Notebook kernel and terminal", tuple(_notebook_lines(facts.notebook)))
        )
    sections.append(Section("Probe errors", tuple(_probe_error_lines(facts.errors))))
    return sections


def _hosted_lines(hosted: HostedFacts) -> list[str]:
    lines = [
        f"  image: {hosted.name} ({_opt(hosted.image_version)})",
        f"  markers: {', '.join(hosted.markers) or 'none'}",
    ]
    if hosted.tpu_type or hosted.tpu_devices:
        devices = ", ".join(hosted.tpu_devices) or "none"
        lines.append(f"  TPU: {_opt(hosted.tpu_type)}; devices: {devices}")
    return lines


def _notebook_lines(nb: NotebookFacts) -> list[str]:
    server = nb.server_environment
    return [
        f"  kernel: {nb.kernel_executable} (prefix {nb.kernel_prefix})",
        f"  kernelspec {_opt(nb.kernel_name)}: "
        + (" ".join(nb.kernelspec_argv) or _opt(nb.kernelspec_error)),
        f"  started by: pid {_opt(nb.server_pid)} {' '.join(nb.server_command)}".rstrip(),
        f"  terminal python: {_opt(nb.terminal_python)} (prefix {_opt(nb.terminal_prefix)})",
        *(f"  kernel {k}={v}" for k, v in sorted(nb.kernel_environment.items())),
        *(
            [f"  terminal {k}={v}" for k, v in sorted(server.items())]
            if server is not None
            else ["  terminal environment: could not be read"]
        ),
        f"  TensorFlow imported in the kernel: {_opt(nb.kernel_tensorflow)}",
    ]


def _unknown(facts: Facts, probes: tuple[str, ...]) -> list[str]:
    for probe in probes:
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


def _python_lines(py: PythonFacts, brief: bool) -> list[str]:
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


def _platform_lines(plat: PlatformFacts, brief: bool) -> list[str]:
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


def _cpu_lines(cpu: CpuFacts, brief: bool) -> list[str]:
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


def _package_lines(packages: tuple[PackageFacts, ...], brief: bool) -> list[str]:
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


def _tensorflow_lines(tf: TensorFlowFacts, brief: bool) -> list[str]:
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
    if tf.stderr_tail.strip() and (not brief or tf.status != TFStatus.OK):
        lines.append("  stderr (tail):")
        lines += [f"    {s}" for s in tf.stderr_tail.splitlines()]
    return lines


def _gpu_lines(gpu: GpuFacts) -> list[str]:
    return [
        f"  GPU {gpu.index}: {gpu.name}",
        f"    uuid: {_opt(gpu.uuid)}, PCI bus: {_opt(gpu.pci_bus_id)}",
        f"    compute capability: {_opt(gpu.compute_capability)}",
        f"    memory: {_size(gpu.memory_used)} used of {_size(gpu.memory_total)}",
        f"    MIG mode: {_opt(gpu.mig_mode)}",
        f"    ECC errors: {_opt(gpu.ecc_corrected)} corrected, "
        f"{_opt(gpu.ecc_uncorrected)} uncorrected",
    ]


def _driver_lines(drv: DriverFacts, brief: bool) -> list[str]:
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


def _cuda_lines(cuda: CudaLibsFacts, brief: bool) -> list[str]:
    lines = [f"  searched for CUDA {_opt(cuda.cuda_major)}, cuDNN {_opt(cuda.cudnn_major)}"]
    for lib in cuda.libraries:
        lines += _library_lines(lib)
    ptxas = "not found" if cuda.ptxas is None else f"{cuda.ptxas} ({_opt(cuda.ptxas_version)})"
    lines.append(f"  ptxas: {ptxas}")
    lines.append(f"  libdevice: {cuda.libdevice or 'not found'}")
    if cuda.named_libraries is not None:
        lines.append(f"  the build opens: {', '.join(cuda.named_libraries) or 'none of them'}")
    if cuda.gpu_code is not None:
        code = ", ".join(cuda.gpu_code.sass + cuda.gpu_code.ptx) or "none"
        lines.append(f"  GPU code in the build's libraries: {code}")
    if cuda.error is not None:
        lines += _error_lines("error", cuda.error)
    return lines


def _environment_lines(env: dict[str, str], brief: bool) -> list[str]:
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


class _SectionSpec(NamedTuple):
    """One facts section: its title, the :class:`Facts` field it shows, the probes that
    record why that field is missing, and the function that turns a present value into lines."""

    title: str
    field: str
    probes: tuple[str, ...]
    lines: Callable[[Any, bool], list[str]]


# The probe names are the ones the probes record in ProbeError.probe (tfdoctor.doctor and
# tfdoctor.probes): packages come from the same child run as the interpreter's facts, so the
# python probe's error explains them too. Nothing probes the environment (it is read
# directly), so a facts file without it has no recorded reason.
_SECTIONS: tuple[_SectionSpec, ...] = (
    _SectionSpec("Python", "python", ("python",), _python_lines),
    _SectionSpec("Platform", "platform", ("platform",), _platform_lines),
    _SectionSpec("CPU", "cpu", ("cpu",), _cpu_lines),
    _SectionSpec("Packages", "packages", ("python",), _package_lines),
    _SectionSpec("TensorFlow", "tensorflow", ("tensorflow",), _tensorflow_lines),
    _SectionSpec("NVIDIA driver and GPUs", "driver", ("driver",), _driver_lines),
    _SectionSpec("CUDA libraries", "cuda_libs", ("cuda_libs",), _cuda_lines),
    _SectionSpec("Environment", "environment", (), _environment_lines),
)


# A line printed to a GitHub Actions job's log is a workflow command when, after its leading
# white space, it starts with "::" (ActionCommand.TryParseV2 trims the line's start first),
# or when it holds "##[" anywhere (the older form: ActionCommand.TryParse finds it with
# IndexOf); actions/runner, src/Runner.Common/ActionCommand.cs. A report quotes log lines (a
# CI job's own log among them) and file names, and is printed in such logs. .NET's
# TrimStart() takes every Unicode white space (a no-break space, U+3000), as \s does.
_WORKFLOW_COMMAND = re.compile(r"^([^\S\n]*):(?=:)|#(?=#\[)", re.MULTILINE)


def _inert(match: re.Match[str]) -> str:
    indent = match.group(1)
    return "\\x23" if indent is None else f"{indent}\\x3a"


def inert(text: str) -> str:
    """``text`` in which a CI runner finds no workflow command: of a line's leading ``::``
    and of ``##[``, the first character written as its escape (``\\x3a:error::``,
    ``\\x23#[error]``), as control characters are."""
    if "::" not in text and "##[" not in text:
        return text
    return _WORKFLOW_COMMAND.sub(_inert, text)


def inert_json(text: str) -> str:
    """JSON ``text`` in which a CI runner finds no workflow command, its values unchanged: a
    line of indented JSON starts with blanks and a quote or a bracket, never ``::``, and the
    first ``#`` of a ``##[`` is written as JSON's escape of it (``\\u0023#[``), which no
    backslash before it can turn into anything else (JSON never escapes ``#``)."""
    return text.replace("##[", "\\u0023#[") if "##[" in text else text
