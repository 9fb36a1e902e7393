"""Checks on the installed TensorFlow distributions and on importing TensorFlow."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Optional

from tfdoctor.checks._context import (
    CheckContext,
    cuda_wheels_fix,
    fix,
    installed_tf,
    pip_command,
    unknown,
)
from tfdoctor.facts import (
    TF_DISTRIBUTIONS,
    Facts,
    PackageFacts,
    TensorFlowFacts,
    normalize_name,
)
from tfdoctor.findings import Finding, Fix, Severity

if TYPE_CHECKING:
    from packaging.requirements import Requirement


def _tf_providers(facts: Facts) -> list[PackageFacts]:
    """Distributions that write the ``tensorflow`` import package."""
    out = []
    for pkg in facts.packages or ():
        name = normalize_name(pkg.name)
        if "tensorflow" in pkg.top_level or (not pkg.top_level and name in TF_DISTRIBUTIONS):
            out.append(pkg)
    return out


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
    providers = _tf_providers(facts)
    if not providers:
        yield Finding(
            "packages.tensorflow",
            Severity.WARNING,
            "TensorFlow is not installed in this environment",
            "No distribution that provides `import tensorflow` was found in "
            + (facts.python.prefix if facts.python else "this interpreter")
            + ".",
            fix(
                "Install TensorFlow into this environment.",
                pip_command(facts, "install tensorflow"),
            ),
            ("https://www.tensorflow.org/install/pip",),
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
    names = [p.name for p in independent]
    listing = ", ".join(f"{p.name} {p.version}" for p in independent)
    keep = installed_tf(facts) or independent[0]
    yield Finding(
        "packages.tensorflow",
        Severity.ERROR,
        f"{len(independent)} TensorFlow distributions are installed side by side: {listing}",
        "Each writes the same `tensorflow/` package; whichever was installed last won file by "
        "file, so the import may mix releases (crashes, missing symbols, wrong GPU support). "
        "Uninstalling one also deletes files the other needs: remove all, then reinstall one.",
        fix(
            "Remove every TensorFlow distribution, then install exactly one.",
            pip_command(facts, "uninstall -y " + " ".join(names)),
            pip_command(facts, f'install "{normalize_name(keep.name)}=={keep.version}"'),
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
    yield Finding(
        "packages.tensorflow-gpu",
        Severity.WARNING,
        f"The removed tensorflow-gpu package is installed ({pkg.version})",
        "tensorflow-gpu has been removed from PyPI: its last release line is 2.11 and later "
        "versions only print an error. GPU support on Linux comes with the plain `tensorflow` "
        "wheel; `tensorflow[and-cuda]` (2.14+) also installs the CUDA libraries.",
        fix(
            "Replace tensorflow-gpu with tensorflow and its CUDA extra.",
            pip_command(facts, "uninstall -y tensorflow-gpu"),
            pip_command(facts, 'install "tensorflow[and-cuda]"'),
        ),
        ("https://pypi.org/project/tensorflow-gpu/",),
    )


# --- import ---------------------------------------------------------------------------------

_NUMPY_ABI = re.compile(
    r"compiled using NumPy 1\.x cannot be run in\s+NumPy 2|_ARRAY_API not found"
    r"|numpy\.core\.multiarray failed to import|numpy\.core\._multiarray_umath",
)
_DLOPEN = re.compile(r"(lib[\w.+-]+\.so[\w.]*): cannot open shared object file")
_GLIBC = re.compile(r"(GLIBC(?:XX)?_[\d.]+)' not found")
_PROTOBUF = re.compile(
    r"Descriptors cannot be created directly|cannot import name '\w+' from 'google\.protobuf"
    r"|google\.protobuf.*has no attribute",
)
_DLL = re.compile(r"DLL load failed", re.IGNORECASE)


def _declared_spec(tf: Optional[PackageFacts], dist: str) -> Optional[str]:
    """The version range TensorFlow's metadata declares for ``dist`` (``numpy<2.0.0,>=1.23.5``)."""
    if tf is None:
        return None
    for req in _requirements(tf):
        if normalize_name(req.name) == dist and req.marker is None and str(req.specifier):
            return f"{dist}{req.specifier}"
    return None


def _import_error_finding(facts: Facts, tf: TensorFlowFacts) -> Finding:
    pkg = installed_tf(facts)
    message = f"{tf.error_type or 'Error'}: {tf.error_message or ''}".strip()
    version = f" {pkg.version}" if pkg else ""
    links: tuple[str, ...] = ()
    text = tf.error_message or ""
    numpy = facts.package("numpy")
    if _NUMPY_ABI.search(text):
        spec = _declared_spec(pkg, "numpy") or "numpy<2"
        summary = (
            f"TensorFlow{version} was built against NumPy 1.x but NumPy "
            f"{numpy.version if numpy else '2'} is installed"
        )
        remedy: Fix = fix(
            "Install the NumPy range TensorFlow declares (or upgrade TensorFlow to 2.18+, "
            "the first line built for NumPy 2).",
            pip_command(facts, f'install "{spec}"'),
        )
        links = ("https://numpy.org/devdocs/numpy_2_0_migration_guide.html",)
    elif match := _DLOPEN.search(text):
        lib = match.group(1)
        summary = f"TensorFlow{version} cannot load {lib}"
        remedy = cuda_wheels_fix(
            facts,
            "Install the CUDA libraries this TensorFlow was built for as pip wheels (Linux), "
            "or add the directory holding them to LD_LIBRARY_PATH.",
        )
    elif match := _GLIBC.search(text):
        summary = f"TensorFlow{version} needs {match.group(1)}, newer than this system's C library"
        remedy = fix(
            "Use a newer Linux distribution (or container base image), or an older TensorFlow "
            "built for this glibc.",
            "ldd --version",
        )
    elif _PROTOBUF.search(text):
        spec = _declared_spec(pkg, "protobuf") or "protobuf"
        summary = f"TensorFlow{version} fails to import with the installed protobuf"
        remedy = fix(
            "Install the protobuf range TensorFlow declares.",
            pip_command(facts, f'install "{spec}"'),
        )
    elif _DLL.search(text):
        summary = f"TensorFlow{version} fails to load its native library (DLL load failed)"
        remedy = fix(
            "Install the Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 "
            "(x64); check the CPU has AVX; use 64-bit Python.",
            "winget install Microsoft.VCRedist.2015+.x64",
        )
        links = ("https://www.tensorflow.org/install/pip#windows-native",)
    else:
        summary = f"TensorFlow{version} is installed but fails to import"
        remedy = fix(
            "Reinstall TensorFlow cleanly; if it persists, the detail shows the cause.",
            pip_command(
                facts,
                f'install --force-reinstall "tensorflow=={pkg.version}"'
                if pkg
                else "install --force-reinstall tensorflow",
            ),
        )
    detail = message
    if tf.stderr_tail:
        detail += "\n\n" + tf.stderr_tail
    return Finding("tensorflow.import", Severity.ERROR, summary, detail, remedy, links)


def _signal_finding(facts: Facts, tf: TensorFlowFacts) -> Finding:
    sig = tf.signal or "a signal"
    cpu = facts.cpu
    if sig == "SIGILL":
        no_avx = cpu is not None and cpu.flags_known and "avx" not in cpu.flags
        detail = (
            "The CPU met an instruction it does not have: the wheel was compiled for vector "
            "extensions (AVX and, in newer lines, more) this CPU or VM lacks."
            + (" This CPU reports no AVX." if no_avx else "")
        )
        remedy = fix(
            "Run on a CPU with the instructions the wheel needs, or build TensorFlow from "
            "source for this CPU.",
            "grep -o -w -E 'avx|avx2|fma|avx512f' /proc/cpuinfo | sort -u",
        )
    elif sig == "SIGSEGV":
        detail = (
            "A crash in native code during import: most often two TensorFlow distributions "
            "mixed in one directory, a compiled extension (numpy, h5py, protobuf) built for "
            "another ABI, or a CUDA library of the wrong version loaded first."
        )
        remedy = fix(
            "Reinstall TensorFlow and its pinned dependencies in a fresh virtual environment.",
            "python -m venv /tmp/tf-clean",
            "/tmp/tf-clean/bin/python -m pip install tensorflow",
            '/tmp/tf-clean/bin/python -c "import tensorflow as tf; print(tf.__version__)"',
        )
    else:
        detail = "Native code aborted during import; the log tail usually names the failed check."
        remedy = fix(
            "Read the last lines of the log below; reinstall TensorFlow in a fresh environment.",
            pip_command(facts, "install --force-reinstall tensorflow"),
        )
    if tf.stderr_tail:
        detail += "\n\n" + tf.stderr_tail
    return Finding(
        "tensorflow.import",
        Severity.ERROR,
        f"Importing TensorFlow killed the interpreter with {sig}",
        detail,
        remedy,
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
    if tf.status == "skipped":
        yield Finding(
            "tensorflow.import",
            Severity.INFO,
            "TensorFlow was not imported (--static)",
            "Static mode checks the installation without running TensorFlow.",
        )
        return
    if tf.status == "ok":
        build = (
            "CUDA build" if tf.is_cuda_build else "ROCm build" if tf.is_rocm_build else "CPU build"
        )
        yield Finding(
            "tensorflow.import",
            Severity.OK,
            f"TensorFlow {tf.version} imports ({build}, {tf.seconds or 0:.1f} s)",
        )
        return
    if tf.status == "not-installed":
        # packages.tensorflow already says "not installed" with the fix.
        sev = Severity.WARNING if installed_tf(facts) else Severity.INFO
        yield Finding(
            "tensorflow.import",
            sev,
            "TensorFlow cannot be imported: no `tensorflow` module on this interpreter's path",
            tf.error_message or "",
        )
        return
    if tf.status == "import-error":
        yield _import_error_finding(facts, tf)
        return
    if tf.status == "signal":
        yield _signal_finding(facts, tf)
        return
    if tf.status == "timeout":
        yield Finding(
            "tensorflow.import",
            Severity.ERROR,
            f"Importing TensorFlow did not finish within {tf.timeout or 0:g} s",
            "A hang during import usually comes from a slow or network filesystem, a GPU "
            "driver that blocks while initialising, or a lock held by another process."
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
