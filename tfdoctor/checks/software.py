"""Checks on the installed TensorFlow distributions and on importing TensorFlow."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Optional

from tfdoctor import causes
from tfdoctor.checks._context import (
    CheckContext,
    fix,
    unknown,
)
from tfdoctor.evidence import tflog
from tfdoctor.evidence.tflog import library_of
from tfdoctor.facts import (
    PackageFacts,
    TensorFlowFacts,
    TFStatus,
    normalize_name,
)
from tfdoctor.findings import Finding, Severity
from tfdoctor.machine import START_IMPORTS, Machine
from tfdoctor.matrix import version_key
from tfdoctor.wheel_tags import misfit

if TYPE_CHECKING:
    from packaging.requirements import Requirement


def _requirements(pkg: PackageFacts) -> list[Requirement]:
    """The distribution's parseable ``Requires-Dist`` lines; malformed ones are skipped."""
    # packaging's parser costs about 40 ms to import: pay it only when a check needs it.
    from packaging.requirements import (  # noqa: PLC0415
        InvalidRequirement,
        Requirement,
    )

    out = []
    for line in pkg.requires:
        try:
            out.append(Requirement(line))
        except InvalidRequirement:
            continue
    return out


def _requires_names(pkg: PackageFacts) -> set[str]:
    return {normalize_name(req.name) for req in _requirements(pkg)}


def check_tf_distributions(ctx: CheckContext) -> Iterator[Finding]:
    """Two distributions writing ``tensorflow/`` overwrite each other's files."""
    facts = ctx.facts
    if facts.packages is None:
        yield unknown("packages.tensorflow", "the installed packages", facts.error_for("python"))
        return
    m = ctx.machine
    providers = list(m.tf_providers)
    if not providers:
        yield causes.finding(
            "packages.tensorflow",
            Severity.WARNING,
            causes.software.TF_NOT_INSTALLED,
            "TensorFlow is not installed in this environment",
            "No distribution that provides `import tensorflow` was found in "
            + (facts.python.prefix if facts.python else "this interpreter")
            + ".",
            causes.software.tensorflow_install_fix(m),
        )
        return
    # A thin wrapper (tensorflow -> tensorflow-intel on Windows, tensorflow-macos -> tensorflow)
    # declares the other as a requirement: that pair is one installation, not two.
    linked: set[str] = set()
    for pkg in providers:
        for other in providers:
            if other is not pkg and normalize_name(other.name) in _requires_names(pkg):
                linked.add(normalize_name(pkg.name))
    independent = [p for p in providers if normalize_name(p.name) not in linked]
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
        yield Finding(
            "packages.wheels",
            Severity.INFO,
            "Could not judge the wheels: no WHEEL tags recorded",
            "Installed without wheels (conda, a source build), or facts from an older tfdoctor.",
        )
        return
    misfits = _wheel_misfits(ctx)
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


def _wheel_misfits(ctx: CheckContext) -> Optional[Finding]:
    """The distributions whose WHEEL tags do not fit, as one finding (one cause, one fix):
    an error where TensorFlow or a package it imports as it starts is among them."""
    facts, m = ctx.facts, ctx.machine
    py = facts.python
    if py is None:
        return None
    misfits = [
        (p, why) for p in facts.packages or () if (why := misfit(p.wheel_tags, py, facts.platform))
    ]
    if not misfits:
        return None
    breaks = {normalize_name(p.name) for p in m.tf_providers} | set(START_IMPORTS)
    fatal = any(normalize_name(p.name) in breaks for p, _ in misfits)
    severity = Severity.ERROR if fatal else Severity.WARNING
    glibc = [why for _, why in misfits if why.part == "glibc"]
    names = ", ".join(f"{p.name} {p.version}" for p, _ in misfits)
    detail = "\n".join(
        f"{p.name}: built for {why.built_for}; here: {why.here}" for p, why in misfits
    )
    if len(glibc) == len(misfits):
        need = max(glibc, key=lambda why: version_key(why.glibc or "0")).glibc or ""
        return causes.finding(
            "packages.wheels",
            severity,
            causes.platform.GLIBC_TOO_OLD,
            f"{names}: built for glibc {need} or newer, this system has {glibc[0].here}",
            detail,
            causes.platform.glibc_fix(f"GLIBC_{need}"),
        )
    return causes.finding(
        "packages.wheels",
        severity,
        causes.platform.WHEEL_MISMATCH,
        f"{names}: wheel built for another Python or machine ({misfits[0][1].built_for}; "
        f"here: {misfits[0][1].here})",
        detail,
        causes.platform.wheel_reinstall_fix(m, [p for p, _ in misfits]),
    )


def _known_cause(ctx: CheckContext) -> Optional[Finding]:
    """A cause of a failed import the facts show without its output: a shadowing module, or
    a wheel of TensorFlow (or of what it imports at start) built for another Python or machine."""
    shadow = _shadowing(ctx)
    if shadow is not None:
        return shadow
    wheels = _wheel_misfits(ctx)
    if wheels is not None and wheels.severity is Severity.ERROR:
        return dataclasses.replace(wheels, id="tensorflow.import")
    return None


# --- import ---------------------------------------------------------------------------------

_NUMPY_ABI = re.compile(
    r"compiled using NumPy 1\.x cannot be run in\s+NumPy 2|_ARRAY_API not found"
    r"|numpy\.core\.multiarray failed to import|numpy\.core\._multiarray_umath",
)
_GLIBC = re.compile(r"(GLIBC(?:XX)?_[\d.]+)' not found")
_PROTOBUF = re.compile(
    # protobuf 4.21 prints "Descriptors cannot not be created directly" (sic).
    r"Descriptors cannot (?:not )?be created directly"
    r"|cannot import name '\w+' from 'google\.protobuf"
    r"|google\.protobuf.*has no attribute",
)
_DLL = re.compile(r"DLL load failed", re.IGNORECASE)


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
        commands = (f'mv "{origin}" "{origin}.bak"  # rename your own module',)
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
    facts, m = ctx.facts, ctx.machine
    pkg = m.tf
    message = f"{tf.error_type or 'Error'}: {tf.error_message or ''}".strip()
    version = f" {pkg.version}" if pkg else ""
    # The exception names the failure; the log only where the exception says nothing known
    # (a generic ImportError after a dlopen error that only the log shows).
    text = tf.error_message or ""
    known = (_NUMPY_ABI, _GLIBC, _PROTOBUF, _DLL)
    unloaded = tflog.unloaded_files(tflog.read_events(text))
    if not (unloaded or any(r.search(text) for r in known)):
        text = m.tf_log
        unloaded = tflog.unloaded_files(m.tf_events)
    detail = message + ("\n\n" + tf.stderr_tail if tf.stderr_tail else "")
    numpy = facts.package("numpy")
    found = _known_cause(ctx)
    if found is not None:
        return dataclasses.replace(found, detail=found.detail + "\n\n" + detail)
    if _NUMPY_ABI.search(text):
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.software.NUMPY_ABI,
            f"TensorFlow{version} was built against NumPy 1.x but NumPy "
            f"{numpy.version if numpy else '2'} is installed",
            detail,
            causes.software.numpy_abi_fix(m),
        )
    if unloaded:
        lib = unloaded[0]
        name = library_of(lib)
        if (
            name.startswith(
                (
                    "cuda",
                    "cublas",
                    "cudnn",
                    "cufft",
                    "curand",
                    "cusolver",
                    "cusparse",
                    "nccl",
                    "nvinfer",
                )
            )
            and name != "cuda"
        ):
            cause, remedy = causes.gpu.cuda_libraries_fix(m, (name,))
        elif name == "cuda":
            cause, remedy = (
                causes.gpu.DRIVER_NOT_LOADED,
                fix(
                    "libcuda.so.1 comes with the NVIDIA driver: install the driver (on a machine "
                    "without a GPU, install the CPU build instead).",
                    "nvidia-smi",
                ),
            )
        else:
            cause, remedy = (
                causes.software.IMPORT_FAILED_UNKNOWN,
                fix(
                    f"Install the system library that provides {lib}.", f"ldconfig -p | grep {lib}"
                ),
            )
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            cause,
            f"TensorFlow{version} cannot load {lib}",
            detail,
            remedy,
        )
    if match := _GLIBC.search(text):
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.platform.GLIBC_TOO_OLD,
            f"TensorFlow{version} needs {match.group(1)}, newer than this system's C library",
            detail,
            causes.platform.glibc_fix(match.group(1)),
        )
    if _PROTOBUF.search(text):
        remedy = causes.common.range_fix(m, "protobuf") or causes.common.install_fix(
            m,
            "Install a protobuf older than 3.21 (the pure-Python fallback also works).",
            "protobuf<3.21",
        )
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.software.PROTOBUF_INCOMPATIBLE,
            f"TensorFlow{version} fails to import with the installed protobuf",
            detail,
            remedy,
        )
    if _DLL.search(text):
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.platform.MSVC_RUNTIME_MISSING,
            f"TensorFlow{version} fails to load its native library (DLL load failed)",
            detail,
            causes.platform.msvc_fix(),
        )
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


def _signal_finding(ctx: CheckContext, tf: TensorFlowFacts) -> Finding:
    facts, m = ctx.facts, ctx.machine
    sig = tf.signal or "a signal"
    tail = ("\n\n" + tf.stderr_tail) if tf.stderr_tail else ""
    summary = f"Importing TensorFlow killed the interpreter with {sig}"
    found = _known_cause(ctx)
    if found is not None:
        return dataclasses.replace(found, summary=summary + ": " + found.summary)
    plat = facts.platform
    if sig == "SIGILL":
        if plat is not None and plat.emulation:
            host = plat.host_machine or "the host's architecture"
            return causes.finding(
                "tensorflow.import",
                Severity.ERROR,
                causes.platform.CPU_EMULATED,
                summary + f": this {plat.machine} Python runs under {plat.emulation} emulation",
                "The emulated CPU lacks the AVX instructions the wheel needs." + tail,
                fix(
                    f"Use a native {host} interpreter or image (e.g. docker --platform "
                    f"linux/{'arm64' if 'arm' in host or 'aarch' in host else host})."
                ),
            )
        cpu = facts.cpu
        no_avx = cpu is not None and cpu.flags_known and "avx" not in cpu.flags
        return causes.finding(
            "tensorflow.import",
            Severity.ERROR,
            causes.platform.CPU_LACKS_AVX,
            summary,
            "The CPU met an instruction it does not have: the wheel was compiled for vector "
            "extensions (AVX and, in newer lines, more) this CPU or VM lacks."
            + (" This CPU reports no AVX." if no_avx else "")
            + tail,
            causes.platform.cpu_avx_fix(),
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
            'python -X faulthandler -c "import tensorflow"',
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
    yield Finding(
        "tensorflow.import",
        Severity.UNKNOWN,
        f"Could not run the TensorFlow probe ({tf.status})",
        (tf.error_message or "") + ("\n\n" + tf.stderr_tail if tf.stderr_tail else ""),
    )
