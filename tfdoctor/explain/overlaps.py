"""Readings that settle findings which explain the same lines of a log."""

from __future__ import annotations

import dataclasses
import re
from typing import Optional

from tfdoctor import causes
from tfdoctor.evidence.frameworks import read_frameworks
from tfdoctor.evidence.servers import server_frame
from tfdoctor.evidence.traceback import (
    Frame,
    Traceback,
    installed_package,
    origin_of,
    path_python,
)
from tfdoctor.explain.common import _without, hits_by
from tfdoctor.explain.modules import keras3_backend_of
from tfdoctor.explain.native import _INSTALLED_PATH, _SYSTEM_LIBRARY
from tfdoctor.explain.network import _pip_unreached_index
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.facts import TF_DISTRIBUTIONS
from tfdoctor.findings import Finding
from tfdoctor.modules import distribution_of, modules
from tfdoctor.signatures import FORKED, WINDOWS_WORDS

#: Of the signatures of a forked process (their ``forked`` tag), a server's or a task queue's
#: workers (they also show the code served), in the order their lines are quoted.
_SERVER_FORK_SIGNS = (
    "gunicorn-workers-forked",
    "gunicorn-worker-timeout",
    "forked-celery-worker",
    "forked-uwsgi-worker",
)


#: A frame in TensorBoard's package or its console script (bin/tensorboard,
#: Scripts\\tensorboard.exe\\__main__.py), not a user's directory named after it.
#: TensorBoard's installed package (a frame of its own code).
_TB_PACKAGE = re.compile(r"(?:site|dist)-packages/tensorboard/")
_TB_FRAME = re.compile(
    r"(?:site|dist)-packages/tensorboard/|/tensorboard(?:\.exe)?(?:/__main__\.py)?$"
)


#: A frame in TensorFlow's installed package under a Windows drive's path (backslashes read as
#: slashes): not a source tree, nor a frozen program's relative paths.
_WINDOWS_TF_FRAME = re.compile(
    r"[A-Za-z]:/(?:[^/]+/)*?(?:site|dist)-packages/tensorflow(?:_core)?/"
)


#: What shows JAX beside the frameworks' reading (:func:`read_frameworks`): its own modules'
#: names in a traceback (``jax._src``), jaxlib's sources (``jaxlib/cuda/...``), its runtime
#: error type under any of its modules' names (``XlaRuntimeError``, later ``JaxRuntimeError``).
_JAX_SHOWN = re.compile(r"\bjax\._src\.|\bjaxlib[./\\]|\b(?:Xla|Jax)RuntimeError\b")


#: A ``from M import ...`` statement, and its module.
_FROM_IMPORT = re.compile(r"^\s*from\s+(?P<module>[\w.]{1,200})\s+import\b")


def _drop_unsupported(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """Hits of signatures whose words are a cause's only in a context (their ``needs``),
    dropped where the log shows another: ``tensorflow-frame`` needs a traceback frame in
    TensorFlow's files (gast's node check is AutoGraph's only there: pythran and beniget use
    gast too); ``tensorboard-frame`` a frame in TensorBoard's files or its script, or the
    package named on the line (``run_main`` is a common name); ``tensorboard-code-failing``
    a failing frame in TensorBoard's package (a caller's use of a dropped helper is no second
    TensorBoard); ``alone`` needs no other
    cause's line and no installed package's frame (TensorFlow 0.x-1.x append their
    source-tree notice to every import error: the notice is the cause only where the error it
    wraps is its own); ``tf-runtime-not-failed`` no sign of TensorFlow's own native runtime
    failing (Windows words the same for its _pywrap module as for another extension);
    ``frozen-family-module`` a frozen program (any freezer's) and, of the lines, those whose
    missing module is inside a package of TensorFlow's family; ``server-possible`` a server,
    task queue or thread running the code, or nothing of the program shown around the line;
    ``server-not-shown`` no such server (TensorFlow 1's per-thread graph); ``tfjs-shown``
    TensorFlow.js named in the log (Node's words are any addon's); ``tfjs-possible`` that, or
    no Python traceback and no other cause's line (words other programs share);
    ``not-imported-elsewhere``
    no failing ``from M import`` statement with M outside TensorFlow's package; ``wsl-shown``
    WSL named in the log or the issue form (CUDA's operating-system error is WSL's there);
    ``windows-tf-install`` a frame in an installed TensorFlow under a Windows drive's path
    (:data:`_WINDOWS_TF_FRAME`) and no line in Windows' own words (``windows-words``: the
    refusal printed, whose reason its own line reads); ``outside-traceback`` no traceback
    whose exception line is the hit's (that traceback's reading answers it, its frames showing
    whose code raised it); ``keras3-backend-frame`` a frame in a Keras 3 backend's package in
    the traceback whose exception line is the hit's (a framework's module missing is that
    backend's import there, another program's elsewhere)."""
    if not any(h.signature.needs for hits in by_cause.values() for h in hits):
        return
    frames = [f.path.replace("\\", "/") for tb in evidence.tracebacks for f in tb.frames]
    in_tf = any("/tensorflow" in p or "/autograph/" in p for p in frames)
    forked = any(FORKED in h.signature.tags for h in evidence.hits.values())
    installed = any(origin_of(p).installed for p in frames)
    # TensorBoard's package or its console script (bin/tensorboard, Scripts\tensorboard.exe).
    in_tb = any(_TB_FRAME.search(p) for p in frames)

    def tb_failing(hit: Hits) -> bool:
        # Each traceback of the hit's line fails in TensorBoard's own package, not in its
        # caller's code; the line alone, with no frame, shows no caller.
        raised = [
            tb
            for tb in evidence.tracebacks
            if tb.frames and tb.message and any(tb.message in line for _, line in hit.citations)
        ]
        return all(_TB_PACKAGE.search(tb.frames[-1].path.replace("\\", "/")) for tb in raised)

    runtime_failed = "native-runtime-failed" in evidence.hits or any(
        "pywrap_tensorflow" in p for p in frames
    )
    served = (
        _server_shown(evidence)
        if any(h.signature.needs.startswith("server-") for hs in by_cause.values() for h in hs)
        else ""
    )
    unconditional = {c for c, hits in by_cause.items() if any(not h.signature.needs for h in hits)}
    # The statement each traceback failed at: its innermost frame's line, or the one shown.
    failing = [
        (tb.frames[-1].code if tb.frames else tb.code or tb.statement) for tb in evidence.tracebacks
    ]
    imported_elsewhere = any(
        (m := _FROM_IMPORT.match(x)) is not None and m.group("module").split(".")[0] != "tensorflow"
        for x in failing
    )

    def holds(hit: Hits, cause: str) -> bool:
        need = hit.signature.needs
        if need == "tensorflow-frame":
            return in_tf
        if need == "tensorboard-frame":
            return in_tb or any("tensorboard" in line for _, line in hit.citations)
        if need == "tensorboard-code-failing":
            return tb_failing(hit)
        if need == "alone":
            return not installed and not (unconditional - {cause})
        if need == "fork-shown":
            return forked
        if need == "fork-not-shown":
            return not forked
        if need == "tf-runtime-not-failed":
            return not runtime_failed
        if need == "frozen-family-module":
            return evidence.frozen
        if need == "server-possible":
            return bool(served) or not _program_shown(evidence)
        if need == "server-not-shown":
            return not served
        if need == "tfjs-shown":
            return "tfjs-shown" in evidence.hits
        if need == "tfjs-possible":
            # A Python traceback or another cause's line is another program's context.
            return "tfjs-shown" in evidence.hits or not (
                evidence.tracebacks or (unconditional - {cause})
            )
        if need == "not-imported-elsewhere":
            return not imported_elsewhere
        if need == "wsl-shown":
            return evidence.wsl or evidence.stated.wsl
        if need == "jax-not-shown":
            text = evidence.first_text
            return "JAX" not in read_frameworks(text) and not _JAX_SHOWN.search(text)
        if need == "outside-traceback":
            # The traceback's reading of the same words answers them, where it reads them.
            from tfdoctor.explain.packages import removed_row_reads  # noqa: PLC0415 - a cycle

            return not any(
                tb.message and tb.message in line and removed_row_reads(tb)
                for tb in evidence.tracebacks
                for _, line in hit.citations
            )
        if need == "exception-line":
            return any(
                tb.frames and tb.message and any(tb.message in line for _, line in hit.citations)
                for tb in evidence.tracebacks
            )
        if need == "keras3-backend-frame":
            # A frame of the traceback whose exception line the hit cites, not of another
            # traceback of the log (another program's import failing elsewhere).
            return any(
                keras3_backend_of(f.path.replace("\\", "/"))
                for tb in evidence.tracebacks
                if tb.message and any(tb.message in line for _, line in hit.citations)
                for f in tb.frames
            )
        if need == "loader-reason-not-python":
            return not any(_python_import_reason(tb) for tb in evidence.tracebacks)
        if need == "windows-tf-install":
            # Windows' own words in the log (its "DLL load failed" and the reason): the
            # refusal is shown, not cut, and their line reads it.
            shown = any(WINDOWS_WORDS in h.signature.tags for h in evidence.hits.values())
            return not shown and any(_WINDOWS_TF_FRAME.match(p) for p in frames)
        return True

    for cause in list(by_cause):
        held = [h for h in by_cause[cause] if holds(h, cause)]
        kept = [
            k
            for k in (
                _family_lines(h) if h.signature.needs == "frozen-family-module" else h for h in held
            )
            if k is not None
        ]
        if kept:
            by_cause[cause] = kept
        else:
            del by_cause[cause]


def _family_lines(hit: Hits) -> Optional[Hits]:
    """``hit`` with only its lines whose missing module (the ``module`` group) lies inside a
    package of TensorFlow's family (the module table's ``family``), None where no line's does.
    A package's top-level module missing says only that the building environment lacked it
    (PyInstaller collects what the program imports and the environment has): not the
    freezer's hooks, which collect a package's own submodules."""
    family = modules().family
    kept = [
        (cited, groups)
        for cited, groups in zip(hit.citations, hit.groups)
        if "." in groups.get("module", "") and groups["module"].split(".")[0] in family
    ]
    if not kept:
        return None
    if len(kept) == len(hit.citations):
        return hit
    return dataclasses.replace(
        hit, count=len(kept), citations=[c for c, _ in kept], groups=[g for _, g in kept]
    )


#: Signatures whose lines show a server's or a task queue's workers running the code (the
#: workers they forked, gevent's patched threads).
_SERVER_SIGNS = (*_SERVER_FORK_SIGNS, "gevent-thread-local-weakref")


def _python_import_reason(tb: Traceback) -> bool:
    """Whether ``tb`` is TensorFlow's loader (a frame of its pywrap_tensorflow) failing on a
    standard module a Python release removed (``No module named 'imp'``), on a Python the
    frames do not show older than the removal: the interpreter's reason, which the removed
    module's reading names, not the native loader's."""
    gone = tb.missing_module
    if gone is None or not any("pywrap_tensorflow" in f.path for f in tb.frames):
        return False
    row = modules().removed.get(gone.name)
    if row is None:
        return False
    shown = {v for v in (path_python(f.path) for f in tb.frames) if v}
    return not row.kept_by(shown.pop() if len(shown) == 1 else None)


def _server_shown(evidence: Evidence) -> str:
    """What in the log shows a server, task queue or thread running the code, quoted ("" for
    nothing): a line it printed, a frame in its files, a signature of its workers."""
    if evidence.server_line:
        return evidence.server_line
    for tb in evidence.tracebacks:
        for frame in tb.frames:
            if server_frame(frame.path):
                return f'File "{frame.path}"'
    for sign in _SERVER_SIGNS:
        hit = evidence.hits.get(sign)
        if hit is not None and hit.citations:
            return hit.citations[0][1]
    return ""


def _program_shown(evidence: Evidence) -> bool:
    """Whether the log shows the program around its lines: a traceback's frames, or a notebook
    (Jupyter's words, IPython's cells)."""
    return evidence.jupyter or any(tb.frames or tb.ipython for tb in evidence.tracebacks)


def _system_library_is_the_loaders(by_cause: dict[str, list[Hits]]) -> None:
    """A companion's library that links a system library this system lacks: its build is for
    a newer system, not for another TensorFlow; one finding, the loader's, with both lines."""
    unopened = hits_by(by_cause, causes.software.COMPANION_MISMATCH, "companion-library-unopened")
    if not unopened or not any(
        _SYSTEM_LIBRARY.search(line)
        for h in by_cause.get(causes.platform.NATIVE_LIBRARY_UNRESOLVED, ())
        for _, line in h.citations
    ):
        return
    by_cause[causes.platform.NATIVE_LIBRARY_UNRESOLVED].extend(unopened)
    rest = [h for h in by_cause[causes.software.COMPANION_MISMATCH] if h not in unopened]
    if rest:
        by_cause[causes.software.COMPANION_MISMATCH] = rest
    else:
        del by_cause[causes.software.COMPANION_MISMATCH]


#: runpy's and spawn.py's frames that run the parent's main module again in a spawned child.
_RERUN_FRAMES = frozenset(
    {"_fixup_main_from_path", "_fixup_main_from_name", "run_path", "_run_module_code", "_run_code"}
)


def _main_frame(evidence: Evidence) -> Optional[Frame]:
    """The frame of the main module a spawned child ran again: the first file below
    spawn.py's and runpy's frames that re-run it, where a traceback shows them."""
    for tb in evidence.tracebacks:
        rerun = False
        for frame in tb.frames:
            path = frame.path.replace("\\", "/")
            if frame.function in _RERUN_FRAMES:
                rerun = True
            elif (
                rerun
                and not path.startswith("<")
                and not path.endswith(("multiprocessing/spawn.py", "/runpy.py"))
            ):
                return frame
    return None


def _main_module(evidence: Evidence) -> str:
    """The main module a spawned child ran again (:func:`_main_frame`'s file)."""
    frame = _main_frame(evidence)
    return frame.path if frame is not None else ""


#: A statement that imports: the main module's imports stay at its top level under the guard.
_IMPORT_STATEMENT = re.compile(r"^\s*(?:import|from)\s+[\w.]+")


def _rerun_failed_on_an_import(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """A spawned child that failed on one of the main module's top-level imports: the guard
    keeps imports outside it, so the re-run frames do not say it is missing; the import's own
    error is the cause."""
    frame = _main_frame(evidence)
    if frame is not None and _IMPORT_STATEMENT.match(frame.code):
        _without(by_cause, causes.runtime.SPAWN_MAIN_UNGUARDED, "spawn-reimports-main")


#: The servers whose forked workers the log shows, by the signatures that show them, in the
#: order they are chosen: the fix fitted to the first.
_FORKING_SERVERS = (
    ("gunicorn", frozenset({"gunicorn-workers-forked", "gunicorn-worker-timeout"})),
    ("celery", frozenset({"forked-celery-worker"})),
)


def _fit_process_fix(found: Finding, evidence: Evidence) -> Finding:
    """``found`` with the fix of a process cause fitted to what the log shows beyond its
    lines: the main module a spawned child re-ran, the server that forked the workers."""
    if found.cause == causes.runtime.SPAWN_MAIN_UNGUARDED:
        module = _main_module(evidence)
        if module:
            return dataclasses.replace(found, fix=causes.runtime.spawn_guard_fix(module))
    if found.cause == causes.runtime.TF_INITIALISED_BEFORE_FORK:
        for server, signs in _FORKING_SERVERS:
            if any(sign in evidence.hits for sign in signs):
                return dataclasses.replace(found, fix=causes.runtime.fork_after_init_fix(server))
    return found


def _settle_overlaps(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """Where two causes' signatures read one failure, the one whose words say more keeps it;
    signatures that are TensorFlow's only in its context go where the log shows otherwise."""
    _drop_unsupported(by_cause, evidence)
    _rerun_failed_on_an_import(by_cause, evidence)
    _pip_unreached_index(by_cause)
    _system_library_is_the_loaders(by_cause)
    _crash_frames_name_the_library(by_cause)
    _session_started_after_waiting(by_cause, evidence)
    _served_after_polling(by_cause, evidence)
    _abort_names_its_failure(by_cause)
    _driver_fallback_says_why(by_cause, evidence)
    _nccl_names_its_cuda_failure(by_cause)
    _nccl_shm_is_the_system_error(by_cause)
    _dump_is_the_named_allocators(by_cause)
    _oom_hint_is_the_failures(by_cause, evidence)
    _protoc_label_is_the_files(by_cause, evidence)
    _tf_keras_frames_say_tf_keras(by_cause, evidence)
    _companions_own_library_refused(by_cause)
    _process_start_is_no_dll(by_cause, evidence)
    if any(
        h.signature.id == "tf-keras-warning"
        for h in by_cause.get(causes.software.TF_KERAS_MISSING, ())
    ):
        # TensorFlow 2.16's loader warns that TF_USE_LEGACY_KERAS asks for the missing
        # tf_keras, then raises "Keras cannot be imported" for the same reason
        # (tensorflow/python/util/lazy_loader.py, KerasLazyLoader._initialize): one cause.
        _without(by_cause, causes.software.DEPENDENCY_MISSING, "tf-keras-package-unimportable")
    if causes.software.NUMPY_ABI in by_cause:
        # NumPy 2's own message says which way: the bare C API failure beside it is the same.
        # So is the ufunc import's line (numpy.core._multiarray_umath failed to import), which
        # alone reads as a NumPy older than the build's: printed after NumPy 2's message, it
        # follows the same failed import of the C API, not an older NumPy.
        for signature in (
            "numpy-multiarray-failed",
            "numpy-umath-failed",
            "numpy-multiarray-umath-failed",
        ):
            _without(by_cause, causes.software.DEPENDENCY_OUT_OF_RANGE, signature)


#: TensorFlow's hint after a kernel's RESOURCE_EXHAUSTED (executor.cc): it names no resource.
_OOM_HINT = "oom-hint"
#: The lines of an allocation that failed which name no allocator or device (bfc_allocator.cc's
#: DumpMemoryLog and RenderOccupancy; the executor's hint after any kernel's
#: RESOURCE_EXHAUSTED, executor.cc), read as the GPU's; and the lines that name a host
#: allocator.
_UNNAMED_DUMP = frozenset(
    {"bfc-dump-chunks", "bfc-dump-stats", "bfc-dump-region", "bfc-dump-occupancy", _OOM_HINT}
)
_HOST_ALLOCATOR = frozenset(
    {"bfc-host-ran-out", "bfc-cpu-ran-out", "bfc-cpu-dump-head", "oom-allocating-host"}
)


def _dump_is_the_named_allocators(by_cause: dict[str, list[Hits]]) -> None:
    """An allocator's dump (or the executor's OOM hint) whose lines name no allocator, in a log
    that names only a host one running out (its pinned or CPU BFC allocator): the dump is that
    allocator's, host memory."""
    gpu = by_cause.get(causes.runtime.GPU_OUT_OF_MEMORY, [])
    host = by_cause.get(causes.runtime.HOST_OUT_OF_MEMORY, [])
    if not gpu or not any(h.signature.id in _HOST_ALLOCATOR for h in host):
        return
    if all(h.signature.id in _UNNAMED_DUMP for h in gpu):
        host.extend(gpu)
        del by_cause[causes.runtime.GPU_OUT_OF_MEMORY]


#: Causes whose failure TensorFlow reports as RESOURCE_EXHAUSTED, with the executor's OOM hint
#: appended: host memory (ENOMEM), a full disk (ENOSPC) and the open files' limit (EMFILE,
#: ENFILE), errors.cc's ErrnoToCode.
_RESOURCE_EXHAUSTED_CAUSES = frozenset(
    {
        causes.runtime.HOST_OUT_OF_MEMORY,
        causes.runtime.DISK_SPACE_EXHAUSTED,
        causes.runtime.OPEN_FILES_LIMIT_REACHED,
    }
)


#: TensorFlow's own summary that it registered no GPU (gpu_device.cc).
_NO_GPU_REGISTERED = "dlopen-summary"


def _oom_hint_is_the_failures(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """TensorFlow's OOM hint where the GPU's memory is read from it alone, in a log where
    another RESOURCE_EXHAUSTED cause's error reads a failure, or a TPU program's compilation
    failed: the hint's status is that failure's. The executor appends the hint to every kernel's
    RESOURCE_EXHAUSTED status (executor.cc), whatever ran out and on whichever device: a full
    disk and the open files' limit are RESOURCE_EXHAUSTED too (ENOSPC, EMFILE: errors.cc's
    ErrnoToCode), a tf.data cache's write "No space left on device" prints it, and so does a
    TPU program too large for the TPU's memory (tpu-compilation-failed). Where TensorFlow said
    it registered no GPU ("Cannot dlopen some GPU libraries ... Skipping registering GPU
    devices", gpu_device.cc), no kernel ran on one: the hint's allocation was another device's."""
    gpu = by_cause.get(causes.runtime.GPU_OUT_OF_MEMORY, [])
    if not gpu or any(h.signature.id != _OOM_HINT for h in gpu):
        return
    if (
        _NO_GPU_REGISTERED in evidence.hits
        or "tpu-compilation-failed" in evidence.hits
        or any(
            cause in _RESOURCE_EXHAUSTED_CAUSES
            and any(h.signature.severity == "error" for h in hits)
            for cause, hits in by_cause.items()
        )
    ):
        del by_cause[causes.runtime.GPU_OUT_OF_MEMORY]


#: Signatures of a collective's abort, which quotes the failure that aborted it ("Collective
#: ops is aborted by: <failure>", base_collective_executor.cc).
#: gRPC's pick_first policy quotes its last error likewise ("failed to connect to all
#: addresses; last error: UNAVAILABLE: DNS resolution failed for ...").
_ABORT_WRAPPERS = (
    (causes.cluster.CLUSTER_WORKER_FAILED, "collective-aborted"),
    (causes.cluster.CLUSTER_TASK_UNREACHABLE, "grpc-connect-failed"),
)


def _abort_names_its_failure(by_cause: dict[str, list[Hits]]) -> None:
    """A collective's abort (or gRPC's failed connection) quotes the failure behind it: where
    another cause's signature reads that failure on every line the wrapper was read from, the
    wrapper is that failure (NCCL, a group's membership, a name that does not resolve), not a
    peer that went away or did not answer."""
    for cause, signature in _ABORT_WRAPPERS:
        wrapper = next((h for h in by_cause.get(cause, ()) if h.signature.id == signature), None)
        if wrapper is None:
            continue
        read_elsewhere = {
            line
            for other, hits in by_cause.items()
            if other != cause
            for hit in hits
            for _, line in hit.citations
        }
        if all(line in read_elsewhere for _, line in wrapper.citations):
            _without(by_cause, cause, signature)


#: XLA's words after any failure to run ptxas, and TensorFlow's Windows builds' reason.
_DRIVER_FALLBACK = "ptxas-driver-fallback"
_WINDOWS_NO_PTXAS = "ptxas-windows-unsupported"


def _driver_fallback_says_why(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """XLA's "Relying on driver to perform ptx compilation" follows whatever stopped ptxas.
    Where the log shows that reason, the line is the reason's: Windows, whose TensorFlow never
    runs ptxas (harmless), or a ptxas of another cause (one too old for the GPU); alone, it
    reads as no ptxas to run."""
    if not hits_by(by_cause, causes.xla.PTXAS_MISSING, _DRIVER_FALLBACK):
        return
    windows = _WINDOWS_NO_PTXAS in evidence.hits
    other_ptxas = causes.xla.PTXAS_TOO_OLD in by_cause or causes.xla.PTXAS_TOO_NEW in by_cause
    if windows or other_ptxas:
        _without(by_cause, causes.xla.PTXAS_MISSING, _DRIVER_FALLBACK)


#: NCCL's own warning naming the CUDA call that failed (checks.h, CUDACHECK), before the
#: "unhandled cuda error" it returns: on NCCL's WARN line, or quoted as the last warning in
#: XLA's status for the failed call.
_NCCL_CUDA_FAILURE = re.compile(
    r"(?:NCCL WARN |Last NCCL warning\(error\) log entry \(may be unrelated\) '{1,2})"
    r"Cuda failure "
)

#: Causes whose reading of that warning agrees with an NCCL of another CUDA release: a driver
#: older than NCCL's CUDA, a GPU NCCL's build has no code for.
_NCCL_BUILD_FAILURES = (causes.gpu.DRIVER_TOO_OLD, causes.gpu.GPU_ARCH_UNSUPPORTED)


def _nccl_names_its_cuda_failure(by_cause: dict[str, list[Hits]]) -> None:
    """Where NCCL's own warning names the CUDA failure and another cause reads it as its own
    (the GPU out of memory, peer access refused), the "unhandled cuda error" is that failure,
    not an NCCL built for another CUDA release."""
    if causes.gpu.NCCL_CUDA_MISMATCH not in by_cause:
        return
    if any(
        _NCCL_CUDA_FAILURE.search(line)
        for cause, hits in by_cause.items()
        if cause != causes.gpu.NCCL_CUDA_MISMATCH and cause not in _NCCL_BUILD_FAILURES
        for hit in hits
        for _, line in hit.citations
    ):
        del by_cause[causes.gpu.NCCL_CUDA_MISMATCH]


#: The signatures that read NCCL's system error alone (ncclSystemError, "unhandled system
#: error"): the result, in whichever program's words, names no step that failed.
_NCCL_SYSTEM_ERROR = ("nccl-failure", "nccl-system-error-code")


def _nccl_shm_is_the_system_error(by_cause: dict[str, list[Hits]]) -> None:
    """Where NCCL's own warning says it could not create its shared memory (NCCL's line, or
    XLA's status quoting it as NCCL's last warning), the system error NCCL returned is that
    failure: the generic collective advice ("run again with NCCL_DEBUG=INFO") goes."""
    if causes.container.NCCL_SHM_TOO_SMALL not in by_cause:
        return
    for signature in _NCCL_SYSTEM_ERROR:
        _without(by_cause, causes.cluster.CLUSTER_COLLECTIVE_FAILED, signature)


#: What says the protoc that asked for a label is 3 or later: its version (``protoc --version``
#: prints ``libprotoc 3.6.1``), or its warning for a file without a ``syntax`` line, which
#: protoc 3.0 added (parser.cc: "No syntax specified for the proto file").
_PROTOC_3 = re.compile(r"\blibprotoc (?:[3-9]|[1-9]\d)\.|No syntax specified for the proto file")


def _protoc_label_is_the_files(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """protoc asking for a field label is protoc 2.x reading newer syntax, unless the log
    shows protoc 3 or later: then it is a proto2 file's own field without a label."""
    if _PROTOC_3.search(evidence.first_text):
        _without(by_cause, causes.software.PROTOC_TOO_OLD, "protoc-label-expected")


def _crash_frames_name_the_library(by_cause: dict[str, list[Hits]]) -> None:
    """A segmentation fault whose backtrace runs through Horovod's TensorFlow extension or
    Open MPI's hwloc bound to TensorFlow's: the frames say where it crashed, which is not an
    import, so the crash's own line is theirs."""
    if not (
        hits_by(by_cause, causes.software.CUSTOM_OP_BUILD_MISMATCH, "horovod-extension-crash-frame")
        or causes.platform.TF_EXPORTED_SYMBOL_CLASH in by_cause
    ):
        return
    _without(by_cause, causes.software.IMPORT_CRASH, "segmentation-fault")


def _tf_keras_frames_say_tf_keras(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """A name tf.__internal__ lacks, asked in tf-keras' own frames (``.../tf_keras/...``) on
    every line read so: tf-keras of another TensorFlow, which the frames' reading gives
    (explain.packages' private_api_findings), not the standalone Keras the words alone
    point to."""
    hit = next(
        (
            h
            for h in by_cause.get(causes.software.KERAS_VERSION, ())
            if h.signature.id == "keras-internal-api-missing"
        ),
        None,
    )
    if hit is None:
        return
    through_tf_keras = {
        tb.where
        for tb in evidence.tracebacks
        if any("/tf_keras/" in f.path.replace("\\", "/") for f in tb.frames)
    }
    if all(where in through_tf_keras for where, _ in hit.citations):
        _without(by_cause, causes.software.KERAS_VERSION, "keras-internal-api-missing")


def _session_started_after_waiting(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """TensorFlow 1's master waiting for tasks, then starting its session: the tasks answered
    (the session starts only once every task it waited for has), so the waits were the other
    tasks starting."""
    started = evidence.hits.get("master-session-started")
    waits = hits_by(
        by_cause, causes.cluster.CLUSTER_TASK_UNREACHABLE, "createsession-waiting-for-worker"
    )
    if started is not None and waits and started.first > waits[0].first:
        _without(
            by_cause, causes.cluster.CLUSTER_TASK_UNREACHABLE, "createsession-waiting-for-worker"
        )


def _served_after_polling(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """TensorFlow Serving finding no version of a servable, then loading one of it: the
    version was written after the server first polled its base path, and it is served."""
    loaded = evidence.hits.get("serving-version-loaded")
    polled = hits_by(
        by_cause, causes.runtime.SERVING_MODEL_VERSION_MISSING, "serving-no-version-directory"
    )
    if loaded is None or not polled or loaded.first < polled[0].first:
        return
    served = {g.get("servable") for g in loaded.groups}
    if all(g.get("servable") in served for h in polled for g in h.groups):
        _without(
            by_cause, causes.runtime.SERVING_MODEL_VERSION_MISSING, "serving-no-version-directory"
        )


def _companions_own_library_refused(by_cause: dict[str, list[Hits]]) -> None:
    """Windows' ERROR_MOD_NOT_FOUND for a companion's own library (tensorflow-io's
    ``libtensorflow_io.so``, in its loader's "caused by" list) beside the companion's reading
    is the companion's: TensorFlow's own library loaded, so its Visual C++ runtime is not the
    reading of that line."""
    if causes.software.COMPANION_MISMATCH not in by_cause:
        return
    hits = hits_by(by_cause, causes.platform.MSVC_RUNTIME_MISSING, "windows-error-126")
    lines = [line for h in hits for _, line in h.citations]
    # A path inside a list's repr doubles its backslashes.
    paths = [x.replace("\\\\", "\\") for line in lines for x in _INSTALLED_PATH.findall(line)]
    owners = {distribution_of(installed_package(x) or "") for x in paths}
    if lines and len(paths) >= len(lines) and not owners & {None, *TF_DISTRIBUTIONS}:
        _without(by_cause, causes.platform.MSVC_RUNTIME_MISSING, "windows-error-126")


def _process_start_is_no_dll(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """Python's "[WinError 193]" raised where a program is started (subprocess's Popen calls
    CreateProcess in _execute_child, multiprocessing's spawn calls it itself) is Windows
    refusing to run a file that is no program (a script, a file of another system, a
    damaged download): ERROR_BAD_EXE_FORMAT of no DLL this Python loads, so no word-size
    reading of TensorFlow's libraries."""
    refused = [t for t in evidence.tracebacks if "[WinError 193]" in t.message]
    if refused and all(
        any(f.function == "_execute_child" or "CreateProcess(" in f.code for f in t.frames)
        for t in refused
    ):
        _without(by_cause, causes.platform.NATIVE_LIBRARY_UNRESOLVED, "windows-error-193")
