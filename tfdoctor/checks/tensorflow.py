"""Checks on TensorFlow itself: a wheel for this Python, and whether it imports (when not,
why).

The fixes name the newest TensorFlow that fits this machine's Python, platform, driver and
GPUs, from :func:`tfdoctor.compat.newest_fit`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, fix, pip_command, unknown
from tfdoctor.checks._shared import (
    import_output,
    installed_line,
    matrix_unknown,
    read_output,
    wheel_misfits,
)
from tfdoctor.compat import Target, evaluate, install_requirement, newest_fit, python_minor
from tfdoctor.evidence.traceback import own_module_missing, raised_in_own_code, read_tracebacks
from tfdoctor.facts import TensorFlowFacts, TFStatus, normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import MATRIX_DISTRIBUTIONS, Machine
from tfdoctor.matrix import Matrix, version_key


def _newest_fix(machine: Machine, matrix: Matrix, text: str) -> Optional[Fix]:
    """A fix installing the newest line that fits this machine, or None when none does."""
    target = machine.target
    verdict = newest_fit(matrix, target)
    if verdict is None:
        return None
    req = install_requirement(verdict.line, target)
    return fix(
        text.format(version=verdict.line.latest_patch), pip_command(machine, f'install "{req}"')
    )


def _supported_pythons(matrix: Matrix, plat: str) -> list[str]:
    """The Pythons a final release has wheels for on ``plat``, oldest first: a line with only
    a pre-release (2.22.0rc0) is listed, never recommended (the matrix's own rule), and pip
    takes no pre-release unless asked (``--pre``), so its Pythons get no TensorFlow here."""
    return sorted(
        {v for entry in matrix.lines if not entry.pre_release for v in entry.python.get(plat, ())},
        key=version_key,
    )


def check_python_wheels(ctx: CheckContext) -> Iterator[Finding]:
    """The installed TensorFlow has wheels for this Python; else the newest one that does.

    Every problem it reports is one cause: no wheel for this Python and platform.
    """
    for finding in _python_wheels(ctx):
        problem = finding.severity.rank >= Severity.WARNING.rank and not finding.cause
        yield (
            dataclasses.replace(finding, cause=causes.platform.TF_NO_WHEEL_FOR_PYTHON)
            if problem
            else finding
        )


#: The exceptions a compiled extension of another Python raises as it loads (the loader's
#: ImportError, ctypes' OSError, a module initialiser's SystemError).
_EXTENSION_ERRORS = ("ImportError", "ModuleNotFoundError", "OSError", "SystemError")


def _native_failure(tf: Optional[TensorFlowFacts]) -> bool:
    """Whether TensorFlow's import failed the way files built for another Python fail: a
    crash, or an error of loading a compiled extension; not an error its Python code raised
    once its extensions loaded (an AttributeError from a NumPy too new has its own finding)."""
    if tf is None or tf.status not in (TFStatus.SIGNAL, TFStatus.IMPORT_ERROR):
        return False  # ran, not run, or no answer (a timeout says nothing of its files)
    if tf.status == TFStatus.SIGNAL:
        return True
    return (tf.error_type or "").rsplit(".", 1)[-1] in _EXTENSION_ERRORS or not tf.error_type


def _python_wheels(ctx: CheckContext) -> Iterator[Finding]:
    facts, matrix = ctx.facts, ctx.matrix
    if matrix is None or facts.python is None or facts.platform is None:
        yield unknown("tensorflow.python", "the Python and platform", facts.error_for("python"))
        return
    python = python_minor(facts.python.version)
    plat = ctx.machine.platform
    if causes.platform.missing_without_release_fix(ctx.machine) is not None:
        # packages.tensorflow reports the missing TensorFlow as this cause, with its fix (an
        # interpreter, a platform or a Python no release has a wheel for): one finding per
        # cause, this one a note. A C library other than glibc is the reason where there is
        # one: the platform key alone has wheels.
        where = plat or f"{facts.platform.system} {facts.platform.machine}"
        libc = ctx.machine.non_glibc_libc
        yield Finding(
            "tensorflow.python",
            Severity.INFO,
            f"No TensorFlow release has a wheel for Python {facts.python.version} on "
            f"{where}{f' with {libc} libc' if libc else ''} "
            # A run of selected checks may leave packages.tensorflow out: the note names the
            # command that gives the fix, true whichever checks ran.
            "(`tfdoctor check packages.tensorflow` gives the fix)",
        )
        return
    pkg, line = installed_line(ctx)
    if python is None and pkg is not None and facts.python.version.startswith("2."):
        # TensorFlow up to 2.1 published Python 2.7 wheels: an installed release is judged by
        # what its own files say (an early release's row, a line's latest patch), or not at
        # all, never as "no wheels".
        early = matrix.release_pythons(pkg.version) or {}
        minor = ".".join(facts.python.version.split(".")[:2])
        if minor in early.get(plat or "", ()):
            yield Finding(
                "tensorflow.python",
                Severity.OK,
                f"TensorFlow {pkg.version} has wheels for Python {minor} on {plat}",
            )
            return
        if line is None:
            yield matrix_unknown("tensorflow.python", ctx, pkg)
            return
        # Its own Pythons are known and this one is not among them: no wheels (below).
    if python is None or plat is None:
        yield Finding(
            "tensorflow.python",
            Severity.ERROR,
            f"TensorFlow publishes no wheels for Python {facts.python.version} on "
            f"{facts.platform.system} {facts.platform.machine}",
            "TensorFlow's wheels are CPython 3 on Linux (x86-64, aarch64), macOS and "
            "Windows (x86-64) only.",
            causes.platform.tf_no_wheel_fix(ctx.machine),
        )
        return
    if pkg is not None and line is None:
        yield matrix_unknown("tensorflow.python", ctx, pkg)
        return
    if line is not None and pkg is not None:
        if normalize_name(pkg.name) not in MATRIX_DISTRIBUTIONS:
            yield Finding(
                "tensorflow.python",
                Severity.INFO,
                f"{pkg.name} {pkg.version} is installed; the matrix lists the tensorflow "
                "wheels, so its Python support is not judged",
            )
            return
        wheels = line.python.get(plat, ())
        if python in wheels:
            yield Finding(
                "tensorflow.python",
                Severity.OK,
                f"TensorFlow {line.line} has wheels for Python {python} on {plat}",
            )
            return
        broken = _native_failure(facts.tensorflow)
        span = f"{wheels[0]}-{wheels[-1]}" if wheels else "none"
        if pkg.version != line.latest_patch and not broken:
            # The matrix lists the latest patch's wheels; earlier patches sometimes had more
            # (2.11.0 had cp37, 2.11.1 not): an installed older patch that imports is fine.
            yield Finding(
                "tensorflow.python",
                Severity.INFO,
                f"TensorFlow {line.latest_patch}, the line's latest patch, has no wheel for "
                f"Python {python} on {plat} (Python {span}); the installed {pkg.version} "
                + (
                    "runs"
                    if facts.tensorflow is not None and facts.tensorflow.status == TFStatus.OK
                    else "is another patch, whose own wheels are not judged"
                ),
                "Upgrading within the line would need another Python.",
            )
            return
        yield Finding(
            "tensorflow.python",
            Severity.ERROR if broken else Severity.WARNING,
            f"TensorFlow {pkg.version} has no wheel for Python {python} on {plat} "
            f"(its wheels: Python {span})",
            "The installed files were built for another Python (copied environment, "
            "source build, or an upgraded interpreter); compiled extensions may not load.",
            causes.platform.tf_no_wheel_fix(ctx.machine, span),
            (f"https://pypi.org/project/tensorflow/{line.latest_patch}/#files",),
        )
        return
    # Not installed (or not a known distribution): what to install.
    if facts.python.bits != 64:
        # The matrix's platforms are 64-bit: a 32-bit interpreter on a 64-bit system reports
        # the system's machine (AMD64), yet pip finds no wheel for it (python.bits says why).
        yield Finding(
            "tensorflow.python",
            Severity.INFO,
            f"No TensorFlow release has a wheel for a {facts.python.bits}-bit Python "
            "(python.bits gives the fix)",
        )
        return
    best = newest_fit(matrix, Target(python=python, platform=plat))
    if best is None:
        supported = _supported_pythons(matrix, plat)
        yield Finding(
            "tensorflow.python",
            Severity.ERROR,
            f"No TensorFlow release has a wheel for Python {python} on {plat}",
            f"Pythons with wheels on {plat}: {', '.join(supported) or 'none'}.",
            causes.platform.tf_no_wheel_fix(ctx.machine),
        )
        return
    here = ctx.machine.target
    machine_best = newest_fit(matrix, here)
    if machine_best is None and here.wants_gpu:
        reasons = evaluate(matrix, best.line, here).reasons
        yield Finding(
            "tensorflow.python",
            Severity.WARNING,
            f"No TensorFlow release runs on this machine's GPU with Python {python} on {plat}",
            f"TensorFlow {best.line.latest_patch} has wheels for this Python, but: "
            + "; ".join(reasons)
            + ". Options: update the driver, use another Python, or run on the CPU.",
            fix(
                f"Install TensorFlow {best.line.latest_patch} for the CPU (see `tfdoctor "
                f"matrix --python-version {python}` for the GPU options).",
                pip_command(ctx.machine, f'install "tensorflow=={best.line.latest_patch}"'),
            ),
        )
        return
    differs = machine_best is not None and machine_best.line != best.line
    yield Finding(
        "tensorflow.python",
        Severity.INFO,
        f"TensorFlow {best.line.latest_patch} is the newest release for Python {python} on {plat}",
        f"This machine's platform, driver or GPUs need an older release: "
        f"{machine_best.line.latest_patch}."
        if differs and machine_best is not None
        else "",
        _newest_fix(
            ctx.machine, matrix, "Install TensorFlow {version}, the newest that fits this machine."
        ),
    )


def _known_cause(ctx: CheckContext) -> Optional[Finding]:
    """A cause of a failed import the facts show without its output: a shadowing module, or
    a wheel of TensorFlow (or of what it imports at start) built for another Python or machine."""
    shadow = _shadowing(ctx)
    if shadow is not None:
        return shadow
    wheels = wheel_misfits(ctx)
    if wheels is not None and wheels.severity is Severity.ERROR:
        return dataclasses.replace(wheels, id="tensorflow.import")
    return None


def _shadowing(ctx: CheckContext) -> Optional[Finding]:
    """``import tensorflow`` resolves outside the installed distribution."""
    py = ctx.facts.python
    origin = ctx.machine.tf_shadow
    if py is None or origin is None:
        return None
    where = {
        "working-directory": "the working directory",
        "PYTHONPATH": "PYTHONPATH",
        "pth": "a .pth file's path entry",
        "user-site": "the user site-packages",
    }.get(py.tensorflow_path_kind or "", "an earlier sys.path entry")
    commands: tuple[str, ...]
    if py.tensorflow_path_kind == "PYTHONPATH":
        commands = (
            "unset PYTHONPATH  # or remove " + (py.tensorflow_path_entry or "") + " from it",
        )
    elif py.tensorflow_path_kind == "user-site":
        # Python skips the user site with PYTHONNOUSERSITE set (docs: site.ENABLE_USER_SITE).
        commands = ("export PYTHONNOUSERSITE=1",)
    else:
        commands = causes.software.own_module_fix(origin).commands
    return causes.finding(
        "tensorflow.import",
        Severity.ERROR,
        causes.software.TF_SHADOWED_MODULE,
        f"`import tensorflow` loads {origin} (from {where}), not the installed distribution",
        f"sys.path entry: {py.tensorflow_path_entry or '?'}",
        fix(
            "Rename or remove that module (or take its directory off the path), so the "
            "installed TensorFlow is imported.",
            *commands,
        ),
    )


def _import_error_finding(ctx: CheckContext, tf: TensorFlowFacts) -> Finding:
    """Why the import failed: what the facts show without its output (a shadowing module, a
    wheel for another machine), else what ``explain`` reads in its own words (the exception
    first, then the stderr), so that both entrances name the same cause and fix."""
    pkg = ctx.machine.tf
    version = f" {pkg.version}" if pkg else ""
    message = f"{tf.error_type or 'Error'}: {tf.error_message or ''}".strip()
    detail = message + ("\n\n" + tf.stderr_tail if tf.stderr_tail else "")
    found = _known_cause(ctx)
    if found is not None:
        return dataclasses.replace(found, detail=found.detail + "\n\n" + detail)
    what = f"TensorFlow{version} fails to import"
    # The exception names the failure when it names a cause of a failed import; else the
    # stderr tells (a generic ImportError after a dlopen error that only the log shows, or a
    # NumPy ABI message printed above "numpy.core.multiarray failed to import").
    said = _read_as_log(ctx, tf, what, whole=False)
    if said is not None and said.cause in _IMPORT_CAUSES:
        return dataclasses.replace(said, detail=detail)
    own = next(filter(None, map(own_module_missing, read_tracebacks(tf.stderr_tail or ""))), None)
    if own is not None:
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.software.TF_INSTALL_INCOMPLETE,
            f"TensorFlow{version} cannot import its own module {own}: its files are incomplete",
            detail,
            causes.software.incomplete_install_fix(ctx.machine),
        )
    # Without a stderr the whole reading is the exception's again: explain runs once.
    read = _read_as_log(ctx, tf, what) if tf.stderr_tail else said
    if read is not None and read.cause != causes.software.IMPORT_FAILED_UNKNOWN:
        return read
    unreleased = _unreleased_own_failure(ctx, tf, detail)
    if unreleased is not None:
        return unreleased
    if read is not None:
        return read
    return causes.finding(
        "tensorflow.import",
        Severity.ERROR,
        causes.software.IMPORT_FAILED_UNKNOWN,
        f"TensorFlow{version} is installed but fails to import",
        detail,
        fix(
            "The error is not one tfdoctor recognises; the detail shows the failing module. "
            "Reinstalling the same versions would not change it: look for the package the "
            "traceback names.",
            'python -c "import tensorflow" 2>&1 | tail -30',
        ),
    )


def _unreleased_own_failure(
    ctx: CheckContext, tf: TensorFlowFacts, detail: str
) -> Optional[Finding]:
    """A nightly or a pre-release of TensorFlow whose import failed inside its own modules
    alone, nothing else read in its words: that build's defect (the reading explain gives a
    log, :func:`tfdoctor.causes.runtime.unreleased_build`). An error where it is the only
    distribution of TensorFlow; a warning beside another, whose files may be the ones that
    ran. None where the traceback runs through other code, or no build installed is one."""
    if not any(raised_in_own_code(tb) for tb in read_tracebacks(tf.stderr_tail or "")):
        return None
    m = ctx.machine
    providers = m.tf_providers or ((m.tf,) if m.tf is not None else ())
    for pkg in providers:
        others = [f"{p.name} {p.version}" for p in providers if p is not pkg]
        beside = (
            f" {', '.join(others)} is installed beside it, writing the same tensorflow "
            "package: which of them wrote the files that ran is not shown."
            if others
            else ""
        )
        found = causes.unreleased_build_finding(
            m,
            "tensorflow.import",
            Severity.WARNING if others else Severity.ERROR,
            pkg.name,
            pkg.version,
            did="its import fails inside its own modules",
            shown="Every frame of the failed import is TensorFlow's own code",
            after=f"{beside}\n\n{detail}",
        )
        if found is not None:
            return found
    return None


#: The statement the TensorFlow probe runs in its child interpreter.
_PROBE_STATEMENT = ">>> import tensorflow"

#: The causes that claim TensorFlow cannot import: where the import failed, the reading of its
#: output names one of them first (a CUDA library TensorFlow only warns about loses to the
#: NumPy ABI error that stopped the import).
_IMPORT_CAUSES = frozenset(causes.CONTRADICTED_BY["tf-imports"])


def _read_as_log(
    ctx: CheckContext, tf: TensorFlowFacts, what: str, whole: bool = True
) -> Optional[Finding]:
    """What ``explain`` reads in the failed import's own words (its exception and, with
    ``whole``, its stderr): the same signatures and knowledge, fitted to this machine. The
    first cause of error level, one that explains a failed import before any other; None
    where none is."""
    said = "\n".join(
        x
        for x in (
            f"{tf.error_type}: {tf.error_message}" if tf.error_type else tf.error_message,
            tf.stderr_tail if whole else "",
        )
        if x
    )
    if not said.strip():
        return None
    # The probe's own statement, above its words: what failed is TensorFlow's import, so a
    # name missing with no frame shown is missing in the code that import ran.
    said = f"{_PROBE_STATEMENT}\n{said}"
    errors = [x for x in read_output(ctx, said) if x.severity is Severity.ERROR]
    found = next((x for x in errors if x.cause in _IMPORT_CAUSES), None) or next(iter(errors), None)
    if found is None:
        return None
    return dataclasses.replace(
        found,
        id="tensorflow.import",
        check="",
        summary=f"{what}: {found.summary}",
        detail=said,
    )


def _signal_finding(ctx: CheckContext, tf: TensorFlowFacts) -> Finding:
    facts, m = ctx.facts, ctx.machine
    sig = tf.signal or "a signal"
    tail = ("\n\n" + tf.stderr_tail) if tf.stderr_tail else ""
    summary = f"Importing TensorFlow killed the interpreter with {sig}"
    plat = facts.platform
    shadow = _shadowing(ctx)
    if shadow is not None:
        # The module that crashed is not the installed distribution: only this finding says
        # so (platform.rosetta names an emulation on its own).
        return dataclasses.replace(shadow, summary=summary + ": " + shadow.summary)
    if sig == "SIGILL" and plat is not None and m.emulation:
        # The emulator lacks the instruction, not the CPU: before a wheel built for another
        # machine (packages.wheels names it too), and whether the report names the emulation
        # or only Rosetta (Machine.emulation), the fix is a native interpreter. Rosetta 2
        # translates no AVX ("About the Rosetta translation environment", Apple); QEMU's user
        # mode runs only its CPU model's instructions.
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.platform.CPU_EMULATED,
            summary + f": this {plat.machine} Python runs under {m.emulation} emulation",
            "The emulated CPU lacks the AVX instructions the wheel needs." + tail,
            causes.platform.native_interpreter_fix(m),
        )
    found = _known_cause(ctx)
    if found is not None:
        return dataclasses.replace(found, summary=summary + ": " + found.summary)
    if sig != "SIGILL" and tf.stderr_tail:
        # A native library aborts the process with its reason on stderr: protobuf's C++
        # runtime (its version check, its descriptor database refusing a second copy of
        # generated code), TensorFlow's own CHECK failures after a CUDA call failed (LOG(FATAL)
        # prints "Check failed: ..." then aborts, tsl/platform/default/logging.cc). The same
        # reading explain gives those words, where it names a cause of error level.
        read = _read_as_log(ctx, tf, summary)
        if read is not None:
            return read
    if sig == "SIGILL":
        cpu = facts.cpu
        no_avx = cpu is not None and cpu.flags_known and "avx" not in cpu.flags
        missing = (
            [x.upper() for x in ("avx2", "fma") if x not in cpu.flags]
            if cpu is not None and cpu.flags_known and not no_avx
            else []
        )
        installed = m.tf
        if missing and installed is not None and causes.platform.beyond_avx_build(installed.name):
            # The CPU has AVX, which PyPI's wheels need: the build installed is another
            # project's, compiled for more.
            return causes.finding(
                "tensorflow.import",
                Severity.ERROR,
                causes.platform.CPU_LACKS_AVX,
                summary + f": this CPU lacks {' and '.join(missing)}, and {installed.name} is "
                "not one of PyPI's AVX-only builds",
                f"The CPU met an instruction it does not have: it reports AVX but not "
                f"{' and '.join(missing)}, and {installed.name} {installed.version} is not one "
                "of PyPI's AVX-only TensorFlow wheels." + tail,
                causes.platform.cpu_beyond_avx_fix(m, missing, installed),
            )
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.platform.CPU_LACKS_AVX,
            summary,
            "The CPU met an instruction it does not have: the wheel was compiled for vector "
            "extensions (AVX and, in newer lines, more) this CPU or VM lacks."
            + (" This CPU reports no AVX." if no_avx else "")
            + tail,
            causes.platform.cpu_avx_fix(system=m.os),
        )
    if len(m.tf_providers) > 1:
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.software.TF_MULTIPLE_DISTRIBUTIONS,
            summary + ": two TensorFlow distributions share one directory",
            "See packages.tensorflow." + tail,
            causes.software.reinstall_tf_fix(
                m, "Remove every TensorFlow distribution, then install exactly one."
            ),
        )
    return causes.finding(
        "tensorflow.import",
        Severity.ERROR,
        causes.software.IMPORT_CRASH,
        summary,
        "The facts point at no known cause: the distribution is single, the module resolves to "
        "it, and no library of the wrong version was found. The log tail and a native "
        "backtrace say where it crashed." + tail,
        fix(
            "Get a native backtrace of the crash.",
            causes.common.TF_IMPORT_FAULTHANDLER,
        ),
    )


def _cuda_build(m: Machine) -> str:
    """``CUDA 12.5 build with code for sm_60 ... sm_90, compute_90 PTX``: the CUDA line and the
    GPU code the build carries, as far as they were read (build info, pins, its objects)."""
    text = f"CUDA {m.build_cuda} build" if m.build_cuda else "CUDA build"
    code = m.build_gpu_code
    if code is not None and (code.sass or code.ptx):
        carried = [*code.sass, *(f"{arch} PTX" for arch in code.ptx)]
        text += " with code for " + ", ".join(carried)
    return text


def _named_before(ctx: CheckContext) -> set[str]:
    """The causes the checks run before on this context named at warning or above."""
    return {
        f.cause
        for made in ctx.findings_made.values()
        for f in made
        if f.cause and f.severity.rank >= Severity.WARNING.rank
    }


def _cannot_use_gpu(cause: Optional[str]) -> bool:
    """Whether ``cause`` claims TensorFlow cannot use the GPU (a GPU in TensorFlow's list
    refutes it: :data:`tfdoctor.causes.CONTRADICTED_BY`'s ``tf-lists-gpu``)."""
    entry = causes.CAUSES.get(cause) if cause else None
    return entry is not None and "tf-lists-gpu" in entry.contradicted_by


def check_tf_output(ctx: CheckContext) -> Iterator[Finding]:
    """What TensorFlow printed as it imported, read as ``explain`` reads a log: the problems
    it shows once it runs (the GPU not used for a library it could not load, a cuDNN it
    cannot start, XLA's ptxas or libdevice, memory it could not get, a companion's own
    warning), each with the catalogue's fix fitted to this machine.

    Only where the import ran: a failed import's output is tensorflow.import's to read. A
    cause another check already named from the facts is not named again (the facts outrank
    what the text implies), and what TensorFlow showed working overrules the text (observed
    beats inferred: :mod:`tfdoctor.causes.observed`, applied to every check's findings)."""
    tf = ctx.facts.tensorflow
    if tf is None or tf.status != TFStatus.OK:
        return
    said = import_output(tf)
    if not said.strip():
        yield Finding("tensorflow.output", Severity.OK, "TensorFlow printed nothing as it imported")
        return
    named = _named_before(ctx)
    # Where the facts already said why TensorFlow cannot use the GPU (a cause a listed GPU
    # would refute: the driver, WSL's libcuda, the container's access), the text's own guess
    # at that same question (CUDA_VISIBLE_DEVICES, a container without --gpus) is not a second
    # answer: the facts outrank what the text implies.
    gpu_answered = any(_cannot_use_gpu(cause) for cause in named)
    found = [
        x
        for x in read_output(ctx, said)
        if x.cause not in named and not (gpu_answered and _cannot_use_gpu(x.cause))
    ]
    for finding in found:
        yield dataclasses.replace(
            finding,
            id="tensorflow.output",
            check="",
            detail=f"{finding.detail}\n(TensorFlow's own output as it imported.)".strip(),
        )
    if not found:
        yield Finding(
            "tensorflow.output",
            Severity.OK,
            "What TensorFlow printed as it imported names no problem",
        )


def check_tf_import(ctx: CheckContext) -> Iterator[Finding]:
    """TensorFlow imports in the examined interpreter; when not, why, with the fix."""
    facts = ctx.facts
    tf = facts.tensorflow
    if tf is None:
        yield unknown(
            "tensorflow.import", "whether TensorFlow imports", facts.error_for("tensorflow")
        )
        return
    if tf.status == TFStatus.SKIPPED:
        # Where the import resolves is known without running it (the path finder's answer).
        shadow = _shadowing(ctx)
        if shadow is not None:
            note = "Found where the import resolves, without importing it (--static)."
            yield dataclasses.replace(shadow, detail=shadow.detail + "\n" + note)
            return
        yield Finding(
            "tensorflow.import",
            Severity.INFO,
            "TensorFlow was not imported (--static)",
            "Static mode checks the installation without running TensorFlow.",
        )
        return
    if tf.status == TFStatus.OK:
        shadow = _shadowing(ctx)
        if shadow is not None:
            # It imported, but the module it imported is not the installed TensorFlow.
            found = f"TensorFlow {tf.version}" if tf.version else "a module without a version"
            yield dataclasses.replace(
                shadow, summary=f"The import succeeded, loading {found}: " + shadow.summary
            )
            return
        build = (
            _cuda_build(ctx.machine)
            if tf.is_cuda_build
            else "ROCm build"
            if tf.is_rocm_build
            else "CPU build"
        )
        yield Finding(
            "tensorflow.import",
            Severity.OK,
            f"TensorFlow {tf.version} imports ({build}, {tf.seconds or 0:.1f} s)",
        )
        return
    if tf.status == TFStatus.NOT_INSTALLED:
        # packages.tensorflow already says "not installed" with the fix.
        sev = Severity.WARNING if ctx.machine.tf else Severity.INFO
        yield Finding(
            "tensorflow.import",
            sev,
            "TensorFlow cannot be imported: no `tensorflow` module on this interpreter's path",
            tf.error_message or "",
        )
        return
    if tf.status == TFStatus.IMPORT_ERROR:
        yield _import_error_finding(ctx, tf)
        return
    if tf.status == TFStatus.SIGNAL:
        yield _signal_finding(ctx, tf)
        return
    if tf.status == TFStatus.TIMEOUT:
        shadow = _shadowing(ctx)
        if shadow is not None:
            yield dataclasses.replace(
                shadow,
                summary=f"Importing TensorFlow did not finish within {tf.timeout or 0:g} s: "
                + shadow.summary,
            )
            return
        yield causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.software.IMPORT_HANG,
            f"Importing TensorFlow did not finish within {tf.timeout or 0:g} s",
            "The facts show no known cause; where it stops tells more."
            + ("\n\n" + tf.stderr_tail if tf.stderr_tail else ""),
            fix(
                "Allow more time, and watch where it stops.",
                "tfdoctor check --timeout 300",
                'TF_CPP_MIN_LOG_LEVEL=0 python -X importtime -c "import tensorflow" 2>&1 | tail',
            ),
        )
        return
    read = _read_as_log(ctx, tf, f"Importing TensorFlow failed ({tf.status})")
    if read is not None:
        yield read
        return
    yield Finding(
        "tensorflow.import",
        Severity.UNKNOWN,
        f"Could not run the TensorFlow probe ({tf.status})",
        (tf.error_message or "") + ("\n\n" + tf.stderr_tail if tf.stderr_tail else ""),
    )
