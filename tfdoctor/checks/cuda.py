"""Checks on the CUDA libraries: every one the build needs is found, none is shadowed by
another version, and their versions match the build and its pins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePath
from typing import Optional

from tfdoctor import causes
from tfdoctor.checks._context import CheckContext, unknown
from tfdoctor.checks._shared import installed_line, specifier
from tfdoctor.evidence import tflog
from tfdoctor.facts import Facts, LibraryCandidate, LibraryFacts, TFStatus
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.matrix import version_key


def _describe(lib: LibraryFacts, unopened: frozenset[str]) -> str:
    if lib.selected is None:
        never = " (the build never opens it)" if lib.name in unopened else ""
        return f"{lib.name}: not found{never}"
    cand = lib.candidates[lib.selected]
    version = f" {cand.version}" if cand.version else ""
    return f"{lib.name}{version} ({cand.origin}: {cand.path})"


def _cuda_build(facts: Facts) -> Optional[bool]:
    tf = facts.tensorflow
    if tf is not None and tf.is_cuda_build is not None:
        return tf.is_cuda_build
    return None


def check_cuda_libraries(ctx: CheckContext) -> Iterator[Finding]:
    """Every CUDA library the TensorFlow build needs is found, and which file wins."""
    facts = ctx.facts
    libs, drv = facts.cuda_libs, facts.driver
    # No TensorFlow (packages.tensorflow says so), or a CPU-only one: no CUDA build to serve.
    if _cuda_build(facts) is False or ctx.machine.cpu_only_distribution:
        return
    if facts.packages is not None and ctx.machine.tf is None:
        return
    if libs is None:
        yield unknown(
            "cuda.libraries", "which CUDA libraries would load", facts.error_for("cuda_libs")
        )
        return
    if libs.error is not None and not libs.libraries:
        yield unknown("cuda.libraries", "which CUDA libraries would load", libs.error)
        return
    missing = ctx.machine.missing_libraries
    unopened = ctx.machine.unopened_libraries
    detail = "\n".join(_describe(lib, unopened) for lib in libs.libraries)
    # The driver unread (no driver facts), yet a CUDA toolkit of the build's libraries is on
    # the search path: someone set this machine up for the GPU, so what is missing is a
    # fault, not a CPU machine's absent extras.
    toolkit_here = drv is None and any(lib.selected is not None for lib in libs.libraries)
    has_gpu = bool(drv and drv.gpus) or toolkit_here
    if not missing:
        opened = [lib for lib in libs.libraries if lib.name not in unopened]
        yield Finding(
            "cuda.libraries",
            Severity.OK,
            f"All {len(opened)} CUDA libraries the build opens for CUDA {libs.cuda_major} / "
            f"cuDNN {libs.cudnn_major} are found",
            detail,
        )
        return
    tf = facts.tensorflow
    listed = [d.name for d in tf.devices if d.device_type == "GPU"] if tf is not None else []
    if tf is not None and tf.status == TFStatus.OK and listed:
        # Observed beats inferred: TensorFlow registered the GPU, so whatever the search
        # missed was found by the loader after all, or is not needed for it.
        yield Finding(
            "cuda.libraries",
            Severity.INFO,
            f"The library search found no {', '.join(missing)}, yet TensorFlow lists "
            f"{len(listed)} GPU(s) ({', '.join(listed)}): it loaded what it needs",
            detail,
        )
        return
    if not has_gpu:
        yield Finding(
            "cuda.libraries",
            Severity.INFO,
            f"CUDA libraries not installed ({', '.join(missing)}); not needed without a GPU",
            detail,
        )
        return
    cause, remedy = causes.gpu.cuda_libraries_fix(ctx.machine, missing)
    found = [f for f in libs.elsewhere if f.name in missing]
    if found:
        detail += "\nfound off the loader's path:\n" + "\n".join(
            f"{f.name} {f.version or ''} {f.path} ({f.place})".replace("  ", " ") for f in found
        )
    yield causes.finding(
        "cuda.libraries",
        Severity.ERROR,
        cause,
        f"Missing CUDA libraries TensorFlow needs: {', '.join(missing)}",
        detail,
        remedy,
    )


def check_cuda_shadowed(ctx: CheckContext) -> Iterator[Finding]:
    """A library found earlier in the search order hides the pip wheel's, of another version."""
    facts = ctx.facts
    libs = facts.cuda_libs
    if libs is None:
        return
    for lib in libs.libraries:
        if lib.selected is None:
            continue
        chosen = lib.candidates[lib.selected]
        if chosen.origin == "pip":
            continue
        pip = next((c for c in lib.candidates if c.origin == "pip"), None)
        if pip is None or (pip.version and chosen.version and pip.version == chosen.version):
            continue
        directory = str(PurePath(chosen.path).parent)
        remedy = causes.gpu.shadow_fix(ctx.machine, lib, pip)
        yield causes.finding(
            "cuda.shadowed",
            Severity.WARNING,
            causes.gpu.CUDNN_SHADOWED if lib.name == "cudnn" else causes.gpu.CUDA_LIB_SHADOWED,
            f"{lib.name} {chosen.version or '(unknown version)'} from {directory} "
            f"({chosen.origin}) shadows the pip wheel's {pip.version or '(unknown version)'}",
            "The dynamic loader searches LD_LIBRARY_PATH before the pip wheels' directories "
            "(TensorFlow's RUNPATH), then the ldconfig cache: the first match is the one "
            f"TensorFlow gets.\nloaded: {chosen.path}\nshadowed: {pip.path}",
            remedy,
        )


def _selected(lib: LibraryFacts) -> Optional[str]:
    if lib.selected is None:
        return None
    return lib.candidates[lib.selected].version


def check_cuda_versions(ctx: CheckContext) -> Iterator[Finding]:
    """cuDNN and the CUDA libraries that would load match the build and its and-cuda pins."""
    facts, matrix = ctx.facts, ctx.matrix
    libs = facts.cuda_libs
    if matrix is None or libs is None:
        return
    pkg, line = installed_line(ctx)
    if pkg is None or ctx.machine.build_cuda is None:
        return
    # A release older than the matrix's lines is judged by its own build record.
    release = line.line if line is not None else pkg.version
    problems: list[str] = []
    # The build's own record wins over the matrix when they disagree on the major.
    build_cudnn = ctx.machine.build_cudnn
    shadowing: Optional[tuple[LibraryFacts, LibraryCandidate]] = None
    for lib in libs.libraries:
        loaded = _selected(lib)
        if lib.name != "cudnn" or loaded is None or build_cudnn is None:
            continue
        if not causes.gpu.cudnn_serves(loaded, build_cudnn):
            problems.append(
                f"cuDNN {loaded} would load, but TensorFlow {release} was built with "
                f"cuDNN {build_cudnn} (needs {version_key(build_cudnn)[0]}.x, at least "
                f"{build_cudnn})"
            )
            good = next(
                (
                    c
                    for i, c in enumerate(lib.candidates)
                    if i != lib.selected
                    and c.version
                    and causes.gpu.cudnn_serves(c.version, build_cudnn)
                ),
                None,
            )
            if good is not None:
                shadowing = (lib, good)
    if not problems:
        # What TensorFlow itself logged: the cuDNN it loaded and the one it was built with.
        for event in ctx.machine.tf_logged(tflog.VersionMismatch):
            if (
                event.loaded
                and event.compiled
                and not causes.gpu.cudnn_serves(event.loaded, event.compiled)
            ):
                problems.append(
                    f"TensorFlow loaded cuDNN {event.loaded} but was built with cuDNN "
                    f"{event.compiled} (its own log)"
                )
                break
    cudnn_problem = bool(problems)
    off_pins: list[tuple[str, str, str]] = []
    for dist, spec in sorted(((line.and_cuda if line is not None else None) or {}).items()):
        installed = facts.package(dist)
        if installed is None:
            continue
        if installed.version not in specifier(spec):
            problems.append(f"{dist} {installed.version} is outside TensorFlow's pin {dist}{spec}")
            off_pins.append((dist, installed.version, spec))
    if not problems:
        return
    if cudnn_problem:
        cause, remedy = _cuda_versions_fix(ctx, shadowing)
    else:
        cause = causes.gpu.CUDA_WHEEL_PINS
        remedy = causes.gpu.framework_cuda_pins_fix(ctx.machine, off_pins, pkg.version, listed=True)
    yield causes.finding(
        "cuda.versions",
        Severity.ERROR if cudnn_problem else Severity.WARNING,
        cause,
        problems[0]
        if len(problems) == 1
        else f"{len(problems)} CUDA library versions do not match TensorFlow {release}'s build",
        "\n".join(problems) if len(problems) > 1 else "",
        remedy,
    )


def _cuda_versions_fix(
    ctx: CheckContext,
    shadowing: Optional[tuple[LibraryFacts, LibraryCandidate]],
) -> tuple[causes.CauseId, Fix]:
    """Unshadow the right cuDNN, or get the cuDNN the build needs the release's own way."""
    m = ctx.machine
    if shadowing is not None:
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.shadow_fix(m, *shadowing)
    cause, remedy = causes.gpu.cuda_libraries_fix(m, ("cudnn",))
    need = f"TensorFlow needs cuDNN {m.build_cudnn} (same major, this minor or newer). "
    remedy = Fix(need + remedy.text, remedy.commands)
    return (
        causes.gpu.CUDNN_VERSION_MISMATCH if cause == causes.gpu.CUDA_LIBS_MISSING else cause
    ), remedy
