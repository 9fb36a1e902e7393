"""Reach over the knowledge tables: every row of a table, asked from a log.

Each test walks every row of one table (the CUDA sonames a line loads, the GPUs below a line's
oldest architecture, the Pythons a line has no wheel for, the companions locked to a TensorFlow
minor, the names scan knows were removed), writes the message the real program prints for a
failure about that row, and asserts that explain reaches the row's cause with a fix that names
what the row says. One explain call per row; the rows that miss are listed together.

The wording of each message is the program's own (cited at each writer). Rows that explain does
not reach yet are in ``UNREACHED`` with the reason; a row there that is reached fails too, so the
list only shrinks.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Callable, NamedTuple, Optional

import pytest

from tests.explaining import explained, fix_text
from tfdoctor import cuda_layout
from tfdoctor.findings import Finding, Severity
from tfdoctor.keras_api import keras_api
from tfdoctor.matrix import Companion, Matrix, TFLine, load_companions, load_matrix
from tfdoctor.modules import modules as load_module_table
from tfdoctor.scan.api import STORE as API_STORE
from tfdoctor.scan.api import _stored as stored_listings
from tfdoctor.scan.api import load_api
from tfdoctor.scan.rules import Rule, load_rules


def version_tuple(release: str) -> tuple[int, ...]:
    """``2.16`` as (2, 16)."""
    return tuple(int(p) for p in release.split("."))


class Row(NamedTuple):
    """One row asked from a log: its key, the log, and what the top finding must hold."""

    key: str
    text: str
    #: The cause the top finding must have (empty: any, at error).
    cause: str
    #: Each must appear in the top finding's fix (or summary).
    says: tuple[str, ...]
    #: The top finding's severity (a scan rule's own, where it gives one).
    severity: Severity = Severity.ERROR
    #: One of these at least must appear too (empty: no such condition).
    says_any: tuple[str, ...] = ()


@functools.cache
def _matrix() -> Matrix:
    return load_matrix()


def _reached(row: Row) -> Optional[str]:
    """None where explain reaches ``row``; else what it gave instead."""
    report = explained(row.text, matrix=_matrix())
    if not report.findings:
        return "no finding"
    top: Finding = report.findings[0]
    if top.severity is not row.severity or (row.cause and top.cause != row.cause):
        return f"{top.cause} ({top.severity.value})"
    said = f"{top.summary}\n{fix_text(top)}"
    missing = [s for s in row.says if s not in said]
    if row.says_any and not any(s in said for s in row.says_any):
        missing.append(" or ".join(row.says_any))
    return f"fix lacks {missing}" if missing else None


def misses(rows: Iterator[Row]) -> tuple[int, dict[str, str]]:
    """The number of rows and, for each row explain does not reach, what it gave."""
    count, missed = 0, {}
    for row in rows:
        count += 1
        why = _reached(row)
        if why is not None:
            missed[row.key] = why
    return count, missed


def _pip_installed(*dists: str) -> str:
    # pip's own line after an install (pip/_internal/commands/install.py: "Successfully
    # installed %s", the name-version pairs joined by spaces).
    return f"Successfully installed {' '.join(dists)}\n"


def _line_minor(line: TFLine) -> tuple[int, int]:
    major, minor = line.line.split(".")[:2]
    return int(major), int(minor)


# --- CUDA sonames a line loads (tfdoctor/data/cuda.yaml, compat_matrix.yaml) ------------------


#: The dso_loader's path in the log by the line's era: stream_executor up to 2.10, TSL inside
#: TensorFlow in 2.11-2.12, the local_tsl repository from 2.13 (the file moved with TSL; its
#: message is one sentence throughout: "Could not load dynamic library '" << name << "';
#: dlerror: " << dlerror(), tsl/platform/default/dso_loader.cc, cuda.yaml's source dso-loader).
def _dso_loader(line: TFLine) -> str:
    minor = _line_minor(line)
    if minor < (2, 11):
        return "tensorflow/stream_executor/platform/default/dso_loader.cc:64"
    if minor < (2, 13):
        return "tensorflow/tsl/platform/default/dso_loader.cc:66"
    return "external/local_tsl/tsl/platform/default/dso_loader.cc:70"


#: gpu_device.cc's sentence after the loader's (tensorflow/core/common_runtime/gpu/
#: gpu_device.cc, since 2.1).
CANNOT_DLOPEN = (
    "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1850] Cannot dlopen some GPU "
    "libraries. Please make sure the missing libraries mentioned above are installed properly "
    "if you would like to use GPU. Follow the guide at https://www.tensorflow.org/install/gpu "
    "for how to download and setup the required libraries for your platform.\n"
    "Skipping registering GPU devices...\n"
)


def _install_says(line: TFLine) -> tuple[str, ...]:
    """What a fix of the line's missing CUDA libraries must name: the line's own way to get
    them (compat_matrix.yaml, cuda_install)."""
    method = line.cuda_install.method if line.cuda_install else "system"
    cuda_major = (line.cuda or "").split(".")[0]
    if method == "and-cuda":
        return ("and-cuda",)
    if method == "cudnn-wheel":
        return (f"nvidia-cudnn-cu{cuda_major}", f"cuDNN {line.cudnn}")
    return (f"CUDA {line.cuda}", f"cuDNN {line.cudnn}")


def _cuda_lines() -> Iterator[TFLine]:
    for line in _matrix().releases:
        if line.cuda and line.cudnn and _line_minor(line) >= (2, 0) and line.cuda_builds:
            yield line


def _loaded(line: TFLine) -> dict[str, str]:
    """The CUDA libraries ``line`` loads and the version each is asked for by."""
    cuda_major, cuda_minor = (int(x) for x in (line.cuda or "").split(".")[:2])
    sonames = dict(cuda_layout.soname_versions(cuda_major, cuda_minor))
    if cuda_major < 11:
        sonames.pop("cublasLt", None)  # loaded from CUDA 11 on (dso_loader.cc)
    sonames["cudnn"] = (line.cudnn or "").split(".")[0]
    return sonames


def _not_loaded(line: TFLine, name: str, dlerror: str) -> str:
    """The log of ``line``'s release failing to load the CUDA library ``name``."""
    return (
        _pip_installed(f"tensorflow-{line.latest_patch}")
        + f"2023-03-01 10:00:00.000000: W {_dso_loader(line)}] Could not load dynamic library "
        f"'{name}'; dlerror: {dlerror}\n"
        "2023-03-01 10:00:00.100000: " + CANNOT_DLOPEN
    )


def soname_rows() -> Iterator[Row]:
    """Each soname each CUDA line loads, missing, as the loader prints it."""
    for line in _cuda_lines():
        for lib, version in _loaded(line).items():
            name = f"lib{lib}.so.{version}"
            dlerror = f"{name}: cannot open shared object file: No such file or directory"
            text = _not_loaded(line, name, dlerror)
            yield Row(f"{line.line} {name}", text, "cuda-libs-missing", _install_says(line))


def windows_dll_rows() -> Iterator[Row]:
    """Each CUDA library each native Windows GPU line (2.0-2.10) loads, missing, as the loader
    prints it there: the name is the library's, "64_", its version without the dot, ".dll"
    (tensorflow/core/platform/windows/load_library.cc, FormatLibraryFileName; "dlerror:
    <name> not found", the example of signatures.yaml's dlopen-failed rows)."""
    for line in _cuda_lines():
        if not line.windows_native_gpu:
            continue
        for lib, version in _loaded(line).items():
            name = f"{lib}64_{version.replace('.', '')}.dll"
            says = (f"CUDA {line.cuda}", f"cuDNN {line.cudnn}", "PATH")
            text = _not_loaded(line, name, f"{name} not found")
            yield Row(f"{line.line} {name}", text, "cuda-libs-missing", says)


def dlopen_rows() -> Iterator[Row]:
    """Each CUDA line's bare "Cannot dlopen some GPU libraries" (from 2.14 the loader's own
    line is logged at VLOG level only, so it is the sentence a default log shows): a warning,
    as no line names the library."""
    for line in _cuda_lines():
        text = (
            _pip_installed(f"tensorflow-{line.latest_patch}")
            + "2024-03-01 10:00:00.100000: "
            + CANNOT_DLOPEN
        )
        yield Row(line.line, text, "cuda-libs-missing", _install_says(line), Severity.WARNING)


# --- GPUs below a line's oldest architecture (tfdoctor/data/gpus.yaml) ---------------------


def _capability(arch: str) -> tuple[int, int]:
    digits = arch.split("_")[1]
    return int(digits[:-1]), int(digits[-1])


def _cc(text: str) -> tuple[int, int]:
    major, minor = text.split(".")
    return int(major), int(minor)


def gpu_rows() -> Iterator[Row]:
    """Each GPU of gpus.yaml older than each line's oldest architecture, as gpu_device.cc
    prints it ("Ignoring visible gpu device (...) with Cuda compute capability X. The minimum
    required Cuda capability is Y.", tensorflow/core/common_runtime/gpu/gpu_device.cc)."""
    matrix = _matrix()
    for line in matrix.releases:
        archs = line.compute_capabilities
        if not archs or not (archs.sass or archs.ptx):
            continue
        lowest = min(_capability(a) for a in (*archs.sass, *archs.ptx))
        for gpu in matrix.gpus:
            if _cc(gpu.compute_capability) >= lowest:
                continue
            cc = gpu.compute_capability
            text = (
                _pip_installed(f"tensorflow-{line.latest_patch}")
                + "2023-03-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/"
                f"gpu_device.cc:1934] Ignoring visible gpu device (device: 0, name: {gpu.name}, "
                f"pci bus id: 0000:01:00.0, compute capability: {cc}) with Cuda compute "
                f"capability {cc}. The minimum required Cuda capability is "
                f"{lowest[0]}.{lowest[1]}.\n"
            )
            yield Row(f"{line.line} {gpu.name} ({cc})", text, "gpu-arch-unsupported", (cc,))


def ptxas_rows() -> Iterator[Row]:
    """Each GPU of gpus.yaml newer than each CUDA line's toolkit knows (cuda.yaml's first CUDA
    per architecture), as XLA relays ptxas' refusal ("Your CUDA software stack is old. We
    fallback to the NVIDIA driver for some compilation. ... The ptxas error was: " and ptxas'
    own "Value 'sm_XY' is not defined for option 'gpu-name'", tensorflow/stream_executor/gpu/
    asm_compiler.cc at v2.4.0)."""
    matrix = _matrix()
    for line in _cuda_lines():
        for gpu in matrix.gpus:
            first = cuda_layout.first_cuda_for(gpu.compute_capability)
            if first is None or cuda_layout.cuda_knows(line.cuda or "", first):
                continue
            arch = "sm_" + gpu.compute_capability.replace(".", "")
            text = (
                _pip_installed(f"tensorflow-{line.latest_patch}")
                + "2023-03-01 10:00:00.000000: W tensorflow/stream_executor/gpu/"
                "asm_compiler.cc:235] Your CUDA software stack is old. We fallback to the NVIDIA "
                "driver for some compilation. Update your CUDA version to get the best "
                "performance. The ptxas error was: ptxas fatal   : Value "
                f"'{arch}' is not defined for option 'gpu-name'\n"
            )
            says = (arch, f"CUDA {first}")
            yield Row(f"{line.line} {gpu.name} ({arch})", text, "ptxas-too-old", says)


def xla_ptxas_rows() -> Iterator[Row]:
    """Each GPU newer than each CUDA line's toolkit knows from 2.12, in XLA's later words: it
    asks ptxas which architectures it knows and logs "Falling back to the CUDA driver for PTX
    compilation; ptxas does not support CC X.Y" (tensorflow/compiler/xla/stream_executor/gpu/
    asm_compiler.cc, then xla/stream_executor/cuda/subprocess_compilation.cc)."""
    matrix = _matrix()
    for line in _cuda_lines():
        if _line_minor(line) < (2, 12):
            continue
        for gpu in matrix.gpus:
            first = cuda_layout.first_cuda_for(gpu.compute_capability)
            if first is None or cuda_layout.cuda_knows(line.cuda or "", first):
                continue
            text = (
                _pip_installed(f"tensorflow-{line.latest_patch}")
                + "2024-03-01 10:00:00.000000: W external/local_xla/xla/stream_executor/cuda/"
                "subprocess_compilation.cc:287] Falling back to the CUDA driver for PTX "
                f"compilation; ptxas does not support CC {gpu.compute_capability}\n"
            )
            key = f"{line.line} {gpu.name} ({gpu.compute_capability})"
            arch = "sm_" + gpu.compute_capability.replace(".", "")
            yield Row(key, text, "ptxas-too-old", (arch, f"CUDA {first}"))


# --- Pythons a line has no wheel for (compat_matrix.yaml, python) ------------------------------

PYTHONS = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13")
PLATFORM = "linux-x86_64"


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split(".") if p.isdigit())


def pip_rows() -> Iterator[Row]:
    """Each final line, asked for by pip on each Python the matrix gives it no Linux wheel
    for, where pip lists others: pip's two lines ("Could not find a version that satisfies
    the requirement %s (from versions: %s)", "No matching distribution found for %s",
    pip/_internal/index/package_finder.py)."""
    matrix = _matrix()
    for line in matrix.releases:
        has = line.pythons_on(PLATFORM)
        if not has or line.pre_release:
            continue
        for python in PYTHONS:
            if python in has:
                continue
            listed = sorted(
                (x.latest_patch for x in matrix.releases if python in x.pythons_on(PLATFORM)),
                key=_version_key,
            )
            if not listed:
                continue
            want = line.latest_patch
            text = (
                f"$ python{python} -m pip install tensorflow=={want}\n"
                "ERROR: Could not find a version that satisfies the requirement "
                f"tensorflow=={want} (from versions: {', '.join(listed)})\n"
                f"ERROR: No matching distribution found for tensorflow=={want}\n"
            )
            says = (want, listed[-1])
            yield Row(f"{line.line} py{python}", text, "tf-release-not-for-python", says)


def numpy_rows() -> Iterator[Row]:
    """Each final line built against NumPy 1 (up to 2.17: 2.18 is the first built with NumPy
    2, its pin allowing it) imported under NumPy 2, in NumPy's words (numpy/core/
    _multiarray_umath.py at v2.0.0): the fix keeps NumPy to the line's own range (its pin in
    compat_matrix.yaml) or moves TensorFlow to a line built for NumPy 2."""
    site = "/opt/venv/lib/python3.10/site-packages"
    for line in _matrix().releases:
        pin = line.pins.numpy
        if pin is None or line.pre_release or _line_minor(line) >= (2, 18):
            continue
        text = (
            _pip_installed("numpy-2.0.0", f"tensorflow-{line.latest_patch}")
            + "\nA module that was compiled using NumPy 1.x cannot be run in\n"
            "NumPy 2.0.0 as it may crash. To support both 1.x and 2.x\n"
            "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
            "Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.\n\n"
            "If you are a user of the module, the easiest solution will be to\n"
            "downgrade to 'numpy<2' or try to upgrade the affected module.\n"
            "We expect that some modules will need time to support NumPy 2.\n\n"
            "Traceback (most recent call last):\n"
            '  File "train.py", line 1, in <module>\n'
            "    import tensorflow as tf\n"
            f'  File "{site}/tensorflow/__init__.py", line 37, in <module>\n'
            "    from tensorflow.python.tools import module_util as _module_util\n"
            "AttributeError: _ARRAY_API not found\n"
        )
        yield Row(line.line, text, "numpy-abi", (), says_any=(f"numpy{pin}", "numpy<2"))


# --- companions locked to a TensorFlow minor (tfdoctor/companions.yaml) --------------------

#: A native library of each companion whose ops are built against TensorFlow's C++ ABI, at
#: the path its wheel installs it, loaded by tf.load_op_library (tensorflow-text: BUILD's
#: py_tf_text_library rules, _<name>_ops.so; TF-DF: tensorflow/ops/inference/inference.so;
#: TFQ: core/ops/_tfq_simulate_ops.so; tensorflow-io: core/python/ops/libtensorflow_io.so;
#: its GCS filesystem plugin's libtensorflow_io_gcs_filesystem.so; tensorflow-addons:
#: custom_ops/<area>/_<name>_ops.so).
NATIVE = {
    "tensorflow-text": "tensorflow_text/python/ops/_regex_split_ops.so",
    "tensorflow-decision-forests": (
        "tensorflow_decision_forests/tensorflow/ops/inference/inference.so"
    ),
    "tensorflow-quantum": "tensorflow_quantum/core/ops/_tfq_simulate_ops.so",
    "tensorflow-io": "tensorflow_io/core/python/ops/libtensorflow_io.so",
    "tensorflow-io-gcs-filesystem": (
        "tensorflow_io_gcs_filesystem/core/python/ops/libtensorflow_io_gcs_filesystem.so"
    ),
    "tensorflow-addons": "tensorflow_addons/custom_ops/image/_image_ops.so",
}

#: A symbol of TensorFlow's C++ framework (tensorflow::OpKernel::TraceString), whose mangled
#: form changes between minors: a library built against another minor misses it.
TF_SYMBOL = "_ZN10tensorflow8OpKernel11TraceStringB5cxx11ERKNS_15OpKernelContextEb"


def _tf_release(companion: Companion, release: str) -> Optional[str]:
    """The newest final TensorFlow release (a line's latest patch or its .0) that the row of
    ``release`` admits, where the row admits one minor only."""
    row = companion.row_of(release)
    if row is None:
        return None
    minors = set()
    admitted = None
    for line in _matrix().releases:
        for version in (line.latest_patch, f"{line.line}.0", f"{line.line}.1"):
            if row.admits(version):
                minors.add(line.line)
                admitted = admitted or version
    return admitted if len(minors) == 1 else None


#: The pluggable devices' libraries, which `import tensorflow` loads from site-packages/
#: tensorflow-plugins (tensorflow/__init__.py, load_library.load_pluggable_device_library):
#: tensorflow-metal's under dyld ("dlopen(<path>, 0x0006): Symbol not found: <name>", the
#: symbol with dyld's leading underscore), Intel's extension's under glibc.
PLUGINS = {
    "tensorflow-metal": "libmetal_plugin.dylib",
    "intel-extension-for-tensorflow": "libitex_gpu.so",
}


def _locked_rows(dist: str) -> Iterator[tuple[str, str, str]]:
    """Each row of ``dist`` locked to one TensorFlow minor: that TensorFlow, another release of
    the companion (one not for it, the nearest earlier where there is one) and the newest
    release for it."""
    companion = load_companions().companions[dist]
    rows = companion.releases
    for index, row in enumerate(rows):
        tf = _tf_release(companion, row.release)
        if tf is None:
            continue
        others = [r for r in rows if not r.admits(tf)]
        if not others:
            continue
        earlier = [r for r in rows[:index] if not r.admits(tf)]
        fitting = [r.release for r in rows if r.admits(tf)]
        yield tf, (earlier or others)[-1].release, fitting[-1]


def companion_rows() -> Iterator[Row]:
    """Each row of a native companion locked to one TensorFlow minor: TensorFlow of that minor
    installed beside another release of the companion, whose op library misses a TensorFlow
    symbol (tf.load_op_library raises NotFoundError with the loader's dlerror, "<path>:
    undefined symbol: <name>", tensorflow/python/framework/load_library.py); a plugin's library
    refused as `import tensorflow` loads it."""
    site = "/opt/venv/lib/python3.10/site-packages"
    for dist, library in NATIVE.items():
        package = library.split("/")[0]
        for tf, other, fitting in _locked_rows(dist):
            text = (
                _pip_installed(f"{dist}-{other}", f"tensorflow-{tf}")
                + "Traceback (most recent call last):\n"
                '  File "train.py", line 2, in <module>\n'
                f"    import {package}\n"
                f'  File "{site}/{package}/__init__.py", line 20, in <module>\n'
                "    from . import ops\n"
                f'  File "{site}/tensorflow/python/framework/load_library.py", line 54, in '
                "load_op_library\n"
                "    lib_handle = py_tf.TF_LoadLibrary(library_filename)\n"
                "tensorflow.python.framework.errors_impl.NotFoundError: "
                f"{site}/{library}: undefined symbol: {TF_SYMBOL}\n"
            )
            # The fix names the companion and one release whose row admits the TensorFlow.
            key = f"{dist} {other} under tensorflow {tf}"
            yield Row(key, text, "companion-mismatch", (dist, fitting))
    for dist, library in PLUGINS.items():
        macos = library.endswith(".dylib")
        where = "/Users/u/venv/lib/python3.10/site-packages" if macos else site
        path = f"{where}/tensorflow-plugins/{library}"
        refusal = (
            f"dlopen({path}, 0x0006): Symbol not found: _{TF_SYMBOL}"
            if macos
            else f"{path}: undefined symbol: {TF_SYMBOL}"
        )
        for tf, other, fitting in _locked_rows(dist):
            text = (
                _pip_installed(f"{dist}-{other}", f"tensorflow-{tf}")
                + "Traceback (most recent call last):\n"
                '  File "train.py", line 1, in <module>\n'
                "    import tensorflow as tf\n"
                f'  File "{where}/tensorflow/__init__.py", line 440, in <module>\n'
                "    _ll.load_pluggable_device_library(pluggable_device_dir)\n"
                f'  File "{where}/tensorflow/python/framework/load_library.py", line 151, in '
                "load_pluggable_device_library\n"
                "    py_tf.TF_LoadPluggableDeviceLibrary(lib)\n"
                f"tensorflow.python.framework.errors_impl.NotFoundError: {refusal}\n"
            )
            yield Row(
                f"{dist} {other} under tensorflow {tf}", text, "companion-mismatch", (dist, fitting)
            )


# --- names scan knows were removed (tfdoctor/scan_rules.yaml) ------------------------------


def _scan_line(rule: Rule) -> Optional[TFLine]:
    return _matrix().line_for(f"{rule.release}.0")


def _tf_module(parts: list[str]) -> str:
    # TensorFlow 2's public modules are generated under tensorflow._api.v2 (their __name__,
    # which Python's AttributeError prints: "module '%U' has no attribute '%U'",
    # Objects/moduleobject.c).
    return "tensorflow" if not parts else "tensorflow._api.v2." + ".".join(parts)


def _removed_names() -> Iterator[tuple[Rule, TFLine, str]]:
    """Each name of each attribute-error rule, with the line of the rule's release."""
    for rule in load_rules().rules:
        line = _scan_line(rule)
        if line is None or rule.effect != "attribute-error" or rule.kwarg:
            continue
        for api in rule.api:
            yield rule, line, api


def _attribute_row(rule: Rule, line: TFLine, api: str, module: str) -> Row:
    """``api`` read on the rule's release, whose ``module`` lacks its last part."""
    text = (
        _pip_installed(f"tensorflow-{line.latest_patch}") + "Traceback (most recent call last):\n"
        '  File "model.py", line 12, in <module>\n'
        f"    x = {api}\n"
        f"AttributeError: module '{module}' has no attribute '{api.rsplit('.', maxsplit=1)[-1]}'\n"
    )
    return Row(f"{rule.id} {api}", text, rule.cause, (rule.replacement[:40],))


def scan_rows() -> Iterator[Row]:
    """Each TensorFlow name an attribute-error rule knows was removed, as Python raises it on
    the rule's release (the release shown by pip's line)."""
    for rule, line, api in _removed_names():
        parts = api.split(".")
        if parts[0] == "tf" and len(parts) >= 2 and "keras" not in parts:
            yield _attribute_row(rule, line, api, _tf_module(parts[1:-1]))


KERAS_FRAMES = {
    # Keras 3 (2.16 on) re-raises from its traceback filter (keras/src/utils/
    # traceback_utils.py); Keras 2 from the layer's own __init__ (keras/engine/base_layer.py).
    True: (
        '  File "/opt/venv/lib/python3.11/site-packages/keras/src/utils/traceback_utils.py", '
        "line 122, in error_handler\n"
        "    raise e.with_traceback(filtered_tb) from None\n"
    ),
    False: (
        '  File "/opt/venv/lib/python3.8/site-packages/tensorflow/python/keras/engine/'
        'base_layer.py", line 318, in __init__\n'
        "    generic_utils.validate_kwargs(kwargs, allowed_kwargs)\n"
    ),
}


#: Names TensorFlow loads lazily from another distribution, listed only where the listing's
#: environment had it: tf.summary is TensorBoard's (tensorflow/__init__.py loads its
#: tensorboard.summary._tf.summary), present in 2.16 where TensorBoard is installed.
LAZY = frozenset({"tf.summary"})


def listing_rows() -> Iterator[Row]:
    """Each TensorFlow 2 name the bundled API listings (tfdoctor/scan/api_lines.txt, from the
    wheels) hold in one line and not in the next, read on that next release: Python's
    "module '%U' has no attribute '%U'" with the module's generated __name__."""
    lines = sorted((b.line for b in stored_listings(API_STORE)), key=version_tuple)
    for before, after in zip(lines, lines[1:]):
        old, new = load_api(before), load_api(after)
        line = _matrix().line_for(f"{after}.0")
        if old is None or new is None or line is None:
            continue
        for module, members in sorted(old.modules.items()):
            kept = new.modules.get(module)
            if members is None or kept is None or not module.startswith("tf"):
                continue
            if ".compat." in f"{module}." or "keras" in module:
                continue  # the compat tree and Keras have readers and tables of their own
            for name in sorted(members - kept):
                if name.endswith("/") or name.startswith("_") or f"{module}.{name}" in LAZY:
                    continue
                api = f"{module}.{name}"
                text = (
                    _pip_installed(f"tensorflow-{line.latest_patch}")
                    + "Traceback (most recent call last):\n"
                    '  File "model.py", line 12, in <module>\n'
                    f"    x = {api}\n"
                    f"AttributeError: module '{_tf_module(module.split('.')[1:])}' has no "
                    f"attribute '{name}'\n"
                )
                # The last release with it, or a more specific reading's own way: the
                # name kept in tf.compat.v1, or Keras 2 kept through tf-keras.
                alternatives = (f"TensorFlow {before}", "tf.compat.v1.", "tf-keras")
                key = f"{api} (gone in {after})"
                yield Row(key, text, "", (), says_any=alternatives)


#: Keras 2 classes whose constructor takes no **kwargs (LossScaleOptimizer, keras/mixed_precision/
#: loss_scale_optimizer.py from 2.4): Python refuses for them, not Keras' validate_kwargs.
NO_KWARGS_KERAS2 = frozenset({"LossScaleOptimizer"})


def _kwarg_error(rule: Rule) -> Optional[tuple[str, str]]:
    """The user's call and the TypeError a removed keyword argument of ``rule`` raises, in its
    release's words (Python's "%U() got an unexpected keyword argument '%S'", Python/ceval.c,
    with the qualified name from Python 3.10, the Python of Keras 3's tracebacks here)."""
    keras3 = version_tuple(rule.release) >= (2, 16)
    refused = f"got an unexpected keyword argument '{rule.kwarg}'"
    if rule.method:
        call = f"model.{rule.method}(x, {rule.kwarg}=1)"
        # Keras 3's fit/predict/... are TensorFlowTrainer's (keras/src/backend/tensorflow/
        # trainer.py); Keras 2's Model.fit takes no **kwargs either (Python 3.8 here).
        owner = "TensorFlowTrainer." if keras3 else ""
        return call, f"TypeError: {owner}{rule.method}() {refused}"
    classes = [a for a in rule.api if a.split(".")[-1][:1].isupper()]
    if classes:
        name = classes[0].split(".")[-1]
        call = f"{classes[0]}(x, {rule.kwarg}=1)"
        if keras3:
            return call, f"TypeError: {name}.__init__() {refused}"
        if name in NO_KWARGS_KERAS2:
            return call, f"TypeError: __init__() {refused}"
    layers = [a for a in rule.api if a.split(".")[-1] == "layers"]
    if classes or (layers and not keras3):
        # Keras 2's layers and models take **kwargs and refuse the unknown ones themselves
        # (generic_utils.validate_kwargs: raise TypeError(error_message, kwarg) with
        # "Keyword argument not understood:").
        call = f"{(classes or layers)[0]}{'' if classes else '.Dense'}(8, {rule.kwarg}=1)"
        return call, f"TypeError: ('Keyword argument not understood:', '{rule.kwarg}')"
    return None


def kwarg_rows() -> Iterator[Row]:
    """Each keyword argument a type-error rule knows was removed, as its release raises it,
    the user's call printed as Python prints the line of its frame."""
    for rule in load_rules().rules:
        line = _scan_line(rule)
        if rule.effect != "type-error" or not rule.kwarg or line is None:
            continue
        refusal = _kwarg_error(rule)
        if refusal is None:
            continue
        call, error = refusal
        text = (
            _pip_installed(f"tensorflow-{line.latest_patch}")
            + "Traceback (most recent call last):\n"
            '  File "model.py", line 12, in <module>\n'
            f"    m = {call}\n"
            + KERAS_FRAMES[version_tuple(rule.release) >= (2, 16)]
            + f"{error}\n"
        )
        yield Row(f"{rule.id} {rule.kwarg}", text, rule.cause, (rule.replacement[:40],))


def keras3_refusal_rows() -> Iterator[Row]:
    """Each keyword argument a value-error rule knows Keras 3 refuses, in Keras 3's own words:
    its optimizers' base class ("Argument(s) not recognized: {kwargs}", keras/src/optimizers/
    base_optimizer.py), its layers ("Unrecognized keyword arguments passed to {cls}: {kwargs}",
    keras/src/layers/layer.py) and evaluate ("Arguments not recognized: {kwargs}", keras/src/
    backend/tensorflow/trainer.py)."""
    for rule in load_rules().rules:
        line = _scan_line(rule)
        if rule.effect != "value-error" or not rule.kwarg or line is None:
            continue
        if version_tuple(rule.release) < (2, 16) and rule.kwarg != "decay":
            continue
        if rule.kwarg == "decay":
            # 2.11's new optimizers refuse it in their own words (keras/optimizers/
            # optimizer_experimental/optimizer.py, _process_kwargs, at v2.11.0).
            text = (
                _pip_installed(f"tensorflow-{line.latest_patch}")
                + "Traceback (most recent call last):\n"
                '  File "model.py", line 12, in <module>\n'
                "    opt = tf.keras.optimizers.Adam(learning_rate=0.001, decay=1e-6)\n"
                "ValueError: decay is deprecated in the new Keras optimizer, please check the "
                "docstring for valid arguments, or use the legacy optimizer, e.g., "
                "tf.keras.optimizers.legacy.Adam.\n"
            )
            yield Row(f"{rule.id} {rule.kwarg}", text, rule.cause, (rule.replacement[:40],))
            continue
        given = f"{{'{rule.kwarg}': 0.001}}"
        classes = [a for a in rule.api if a.split(".")[-1][:1].isupper()]
        if rule.method == "evaluate":
            call, error = f"model.evaluate(x, {rule.kwarg}=4)", f"Arguments not recognized: {given}"
        elif any(a.split(".")[-1] == "optimizers" for a in rule.api):
            call = f"keras.optimizers.Adam({rule.kwarg}=0.001)"
            error = f"Argument(s) not recognized: {given}"
        elif classes and ".layers." in classes[0]:
            name = classes[0].split(".")[-1]
            call = f"{classes[0]}(100, 8, {rule.kwarg}=0.001)"
            error = f"Unrecognized keyword arguments passed to {name}: {given}"
        else:
            continue
        text = (
            _pip_installed(f"tensorflow-{line.latest_patch}")
            + "Traceback (most recent call last):\n"
            '  File "model.py", line 12, in <module>\n'
            f"    m = {call}\n" + KERAS_FRAMES[True] + f"ValueError: {error}\n"
        )
        yield Row(f"{rule.id} {rule.kwarg}", text, rule.cause, (rule.replacement[:40],))


def keras_name_rows() -> Iterator[Row]:
    """Each tf.keras name an attribute-error rule knows was removed, as Python raises it on
    the rule's release: tf.keras' modules are generated under keras.api._v2.keras up to 2.15
    and Keras 3's under keras.api from 2.16 (their __name__, printed by Python's "module '%U'
    has no attribute '%U'")."""
    for rule, line, api in _removed_names():
        parts = api.split(".")
        if parts[:2] == ["tf", "keras"] and len(parts) >= 4:
            root = "keras.api" if version_tuple(rule.release) >= (2, 16) else "keras.api._v2.keras"
            yield _attribute_row(rule, line, api, ".".join((root, *parts[2:-1])))


def import_rows() -> Iterator[Row]:
    """Each name an import-error rule knows was removed, imported as the code writes it:
    "cannot import name '%U' from '%U' (%U)" for a name of a module, "No module named '%U'"
    for a module (Python/import.c, Lib/importlib/_bootstrap.py)."""
    site = "/opt/venv/lib/python3.8/site-packages"
    for rule in load_rules().rules:
        line = _scan_line(rule)
        if rule.effect != "import-error" or line is None:
            continue
        for api in rule.api:
            parts = api.split(".")
            if parts[0] == "tf":
                # Written as tf.X.Y: TensorFlow 2's module has no attribute X (its private
                # tree and its generated _api are not exported under the tf name).
                statement = f"x = {api}"
                error = f"AttributeError: module 'tensorflow' has no attribute '{parts[1]}'"
            module, name = ".".join(parts[:-1]), parts[-1]
            if parts[0] == "tf":
                pass
            elif name[:1].isupper() or name.startswith("_") or name in ("relu6",):
                statement = f"from {module} import {name}"
                error = (
                    f"ImportError: cannot import name '{name}' from '{module}' "
                    f"({site}/{module.replace('.', '/')}/__init__.py)"
                )
            else:
                statement = f"import {'.'.join(parts)}"
                error = f"ModuleNotFoundError: No module named '{'.'.join(parts)}'"
            text = (
                _pip_installed(f"tensorflow-{line.latest_patch}")
                + "Traceback (most recent call last):\n"
                '  File "model.py", line 3, in <module>\n'
                f"    {statement}\n"
                f"{error}\n"
            )
            yield Row(f"{rule.id} {api}", text, rule.cause, (), Severity(rule.severity))


def module_rows() -> Iterator[Row]:
    """Each import package of modules.yaml missing ("No module named '%U'", Lib/importlib/
    _bootstrap.py): the fix installs its distribution (never the module's name)."""
    table = load_module_table()
    for module, dist in sorted(table.dists.items()):
        if "." in module:
            continue
        text = (
            "Traceback (most recent call last):\n"
            '  File "train.py", line 3, in <module>\n'
            f"    import {module}\n"
            f"ModuleNotFoundError: No module named '{module}'\n"
        )
        yield Row(f"{module} ({dist})", text, "", (dist,))


def removed_api_rows() -> Iterator[Row]:
    """Each name of removed_from_distribution asked as Python refuses it: a module's name
    ("module '%U' has no attribute '%U'", or "cannot import name"), a class's method
    ("'%.100s' object has no attribute '%U'", Objects/object.c), a whole module ("No module
    named")."""
    table = load_module_table()
    for module, removed in sorted(table.removed_from_dist.items()):
        if not removed.names:
            errors = [(f"import {module}", f"ModuleNotFoundError: No module named '{module}'")]
        else:
            errors = []
            for name in sorted(removed.names):
                if "." in name:
                    cls, attr = name.split(".", 1)
                    errors.append(
                        (f"x.{attr}", f"AttributeError: '{cls}' object has no attribute '{attr}'")
                    )
                else:
                    errors.append(
                        (
                            f"{module}.{name}",
                            f"AttributeError: module '{module}' has no attribute '{name}'",
                        )
                    )
        for code, error in errors:
            text = (
                # pip show's first lines (pip/_internal/commands/show.py: "Name: %s",
                # "Version: %s").
                f"$ pip show {removed.dist}\nName: {removed.dist}\nVersion: {removed.removed_in}\n"
                + "Traceback (most recent call last):\n"
                '  File "prep.py", line 7, in <module>\n'
                f"    y = {code}\n"
                f"{error}\n"
            )
            yield Row(f"{module}: {error.split(': ', 1)[1]}", text, "", (removed.removed_in,))


def _traceback(call: str, error: str, installed: str = "") -> str:
    """A traceback of the user's ``call`` ending in ``error``, after pip's line for
    ``installed`` where given."""
    return (
        (_pip_installed(installed) if installed else "") + "Traceback (most recent call last):\n"
        '  File "train.py", line 30, in <module>\n'
        f"    {call}\n"
        f"{error}\n"
    )


def keras_api_rows() -> Iterator[Row]:
    """Each row of tfdoctor/data/keras_api.yaml, refused in its release's words: a TensorFlow
    2 argument by the line before it (tf.keras' compile: "Invalid keyword argument(s) in
    `compile`: {...}", tensorflow/python/keras/engine/training.py at v2.3.0; tf.function:
    Python's "function() got an unexpected keyword argument"; a function of TensorFlow's own
    modules, called by a library's frame), a Keras 1 training argument by
    Keras 2's fit ("fit() got an unexpected keyword argument", tf.keras' fit takes no
    **kwargs), an optimizer keyword by Keras before it ("Unexpected keyword argument passed to
    optimizer: ", keras 2.2.5 keras/optimizers.py), a multi-backend tensor attribute read on a
    tf.keras tensor (Python's "'Tensor' object has no attribute")."""
    table = keras_api()
    for argument, added in sorted(table.tensorflow2_arguments.items()):
        before = _matrix().line_for(f"{added.before}.0")
        if before is None:
            continue
        if not added.public:
            # A function of TensorFlow's own modules: a library's frame calls it (its module's
            # path), and the row's line is the library's release's (companion-mismatch).
            module, function = added.api.rsplit(".", 1)
            error = f"TypeError: {function}() got an unexpected keyword argument '{argument}'"
            text = _pip_installed(f"tensorflow-{before.latest_patch}") + (
                "Traceback (most recent call last):\n"
                '  File "train.py", line 30, in <module>\n'
                "    convert(model)\n"
                '  File "/venv/lib/python3.9/site-packages/somelib/tf_front/lower.py", line 9, '
                "in convert\n"
                f"    out = {module.rsplit('.', 1)[-1]}.{function}(x, {argument}=1)\n"
                f"{error}\n"
            )
            yield Row(
                f"{argument} (TensorFlow {added.before})",
                text,
                "companion-mismatch",
                (f"TensorFlow {added.added_in}",),
                Severity.WARNING,
            )
            continue
        if added.function == "compile":
            call = f"model.compile(optimizer='adam', loss='mse', {argument}=8)"
            error = f"TypeError: Invalid keyword argument(s) in `compile`: {{'{argument}'}}"
        else:
            call = f"@tf.{added.function}({argument}=True)"
            error = f"TypeError: {added.function}() got an unexpected keyword argument '{argument}'"
        text = _traceback(call, error, f"tensorflow-{before.latest_patch}")
        says_any = (added.older_name, f"TensorFlow {added.added_in}")
        yield Row(f"{argument} (TensorFlow {added.before})", text, "", (), says_any=says_any)
    for argument, rename in sorted(table.keras2_renamed.items()):
        call = f"model.fit(x, y, {argument}=10)"
        error = f"TypeError: fit() got an unexpected keyword argument '{argument}'"
        text = _traceback(call, error, "tensorflow-2.4.4")
        yield Row(f"{argument} (Keras 2)", text, "", (rename.renamed_to,))
    for argument, release in sorted(table.optimizer_arguments.items()):
        call = f"opt = keras.optimizers.Adam({argument}=0.001)"
        error = f"TypeError: Unexpected keyword argument passed to optimizer: {argument}"
        major, minor = version_tuple(release)[:2]
        # The line before's last patch words it so (2.2.5's keras/optimizers.py).
        text = _traceback(call, error, f"keras-{major}.{minor - 1}.5")
        yield Row(f"{argument} (Keras before {release})", text, "", (release,))
    for attribute, last in sorted(table.tensor_attributes.items()):
        call = f"shape = x.{attribute}"
        error = f"AttributeError: 'Tensor' object has no attribute '{attribute}'"
        text = _traceback(call, error, "tensorflow-2.4.4")
        yield Row(f"{attribute} (after Keras {last})", text, "", (last,))


#: Each table: its rows.
TABLES: dict[str, Callable[[], Iterator[Row]]] = {
    "cuda sonames (dso_loader)": soname_rows,
    "cuda lines (Cannot dlopen)": dlopen_rows,
    "cuda DLLs of the Windows GPU lines": windows_dll_rows,
    "gpus below a line": gpu_rows,
    "gpus newer than a line's CUDA (ptxas)": ptxas_rows,
    "gpus newer than a line's CUDA (XLA's later words)": xla_ptxas_rows,
    "pythons without a wheel": pip_rows,
    "numpy 2 under a line built for numpy 1": numpy_rows,
    "companions locked to a minor": companion_rows,
    "scan: removed names": scan_rows,
    "scan: removed keyword arguments": kwarg_rows,
    "scan: Keras 3 refusals": keras3_refusal_rows,
    "scan: removed tf.keras names": keras_name_rows,
    "scan: removed imports": import_rows,
    "scan: names gone from the API listings": listing_rows,
    "keras_api.yaml: arguments and attributes": keras_api_rows,
    "modules: missing import packages": module_rows,
    "modules: removed from a distribution": removed_api_rows,
}

#: Rows explain does not reach yet, and why.
UNREACHED: dict[str, dict[str, str]] = {name: {} for name in TABLES}
# TensorFlow 2.0 and 2.1 installed their code as tensorflow_core behind the tensorflow name;
# code (or a library) importing it under a later release needs a code change or one of those
# releases, which the log's one line does not choose between: no fix yet.
UNREACHED["modules: missing import packages"]["tensorflow_core (tensorflow)"] = " (unknown)"
# NumPy absent is left to other readers (explain.modules' _ELSEWHERE), which judge only its
# names and submodules. Installing it like any other package ranks the missing module above
# pip's own failure to reach the index for it (/simple/numpy/ retried): that ranking, which
# holds for every package, belongs to the findings' order, not to this table.
UNREACHED["modules: missing import packages"]["numpy (numpy)"] = " (unknown)"


@pytest.mark.parametrize("table", list(TABLES))
def test_every_row_of_the_table_reaches_its_cause(table: str) -> None:
    count, missed = misses(TABLES[table]())
    assert count > 0
    known = UNREACHED[table]
    assert {k: v for k, v in missed.items() if known.get(k) != v} == {}
    assert sorted(k for k in known if k not in missed) == []


@pytest.mark.parametrize("shown", ["Name: tensorflow-rocm\nVersion: 2.14.0.600\n"])
def test_cannot_dlopen_of_another_distribution_is_not_told_the_and_cuda_extra(
    shown: str,
) -> None:
    # tensorflow-rocm's build prints gpu_device.cc's sentence too (its ROCm libraries failing
    # to load); its release (2.14.0.600: TensorFlow 2.14 on ROCm 6.0) is no tensorflow
    # release, and tensorflow's and-cuda extra is another build.
    report = explained(shown + "2024-03-01 10:00:00.100000: " + CANNOT_DLOPEN, matrix=_matrix())
    assert report.findings
    assert all("and-cuda" not in fix_text(x) for x in report.findings)


def test_cannot_dlopen_of_a_linux_only_cuda_release_keeps_its_extras_command() -> None:
    # 2.17's CUDA builds are Linux's alone: the installed release's extra is right where its
    # CUDA build ran, though the log names no system, so its command stays in the fix.
    report = explained(
        _pip_installed("tensorflow-2.17.0") + "2024-03-01 10:00:00.100000: " + CANNOT_DLOPEN,
        matrix=_matrix(),
    )
    top = report.findings[0]
    assert top.cause == "cuda-libs-missing" and top.fix is not None
    assert any('"tensorflow[and-cuda]==2.17.0"' in c for c in top.fix.commands)


@pytest.mark.parametrize(
    ("module", "api"),
    [
        ("tensorflow.compat.v2.experimental", "tf.experimental"),
        ("tensorflow.keras.layers", "tf.keras.layers"),
        ("tensorflow.python.ops", None),
        ("tensorflow_core.python", None),
        ("keras.layers", None),
    ],
)
def test_a_module_of_tensorflows_public_api_is_named_as_listed(
    module: str, api: Optional[str]
) -> None:
    from tfdoctor.scan.knowledge import tf_public_name

    assert tf_public_name(module) == api
