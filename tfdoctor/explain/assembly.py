"""The findings put together: :func:`explain`, ordered, cited and settled."""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Iterable, Mapping, Sequence
from typing import Optional

from tfdoctor import causes
from tfdoctor.bounded import size_text
from tfdoctor.causes import observed
from tfdoctor.evidence.conda import CondaRow
from tfdoctor.evidence.devices import DeviceListing, tf_cpu_image
from tfdoctor.evidence.packages import pip_spelled
from tfdoctor.evidence.traceback import (
    Inferred,
    Traceback,
    cut_import,
    loose_frames,
    path_hints,
    python_scripts,
)
from tfdoctor.explain.builders import BUILDERS
from tfdoctor.explain.cluster import (
    _nccl_fell_back_to_sockets,
    _nccl_release_candidate,
    _settle_pod_scheduled,
    _unresolved_task_candidate,
)
from tfdoctor.explain.common import cite
from tfdoctor.explain.conda import (
    _conda_cuda_builds_unsolved,
    _conda_path_too_long,
    _conda_system_unsatisfied,
)
from tfdoctor.explain.containers import (
    _IMAGE_PAIRING_CAUSES,
    _container_candidate,
    _settle_host_python_leak,
)
from tfdoctor.explain.devices import unlisted_gpu_findings
from tfdoctor.explain.drivers import (
    _container_libcuda_candidate,
    _legacy_gpu_candidate,
    _settle_smi_missing,
    _settle_wsl1,
    _settle_wsl2,
    _slow_start_on_gpu,
)
from tfdoctor.explain.environments import (
    cuda_undetected_finding,
    environment_findings,
    kernelspec_gone_finding,
)
from tfdoctor.explain.exceptions import (
    inferred_note,
    keras3_candidate,
    keras_backend_candidate,
    keras_zip_candidate,
    lambda_bytecode_candidate,
    last_failure,
    legacy_copy_candidate,
    savedmodel_config_candidate,
    unexplained_finding,
)
from tfdoctor.explain.hosted import (
    TF1_API_GONE,
    _gpu_shown,
    _hosted_tf_replaced,
    _kernel_kept_release,
    _nightly_gpu_build,
    _pip_added_beside,
    _settle_hosted_python,
    keras_left_by_replacement,
    tf1_replaced_by_tf2,
    tpu_holder_failed,
)
from tfdoctor.explain.installers import locked_without_wrapper, unavailable_findings
from tfdoctor.explain.keras_versions import (
    keras_release_in_words,
    metric_name_finding,
    multi_backend_keras_finding,
)
from tfdoctor.explain.libraries import (
    _cudnn_major_candidate,
    _custom_op_unresolved,
    _gpu_dll_candidate,
    _gpu_library_candidates,
    _older_cudnn_candidate,
    _other_library_candidate,
    _settle_dnn_not_found,
    _tensorrt_versions,
    _torch_arch_severity,
    _unnamed_library_severity,
    _unnamed_op_library_candidate,
    _windows_gpu_archive,
)
from tfdoctor.explain.modules import requested_findings
from tfdoctor.explain.native import (
    _interleaved_import,
    _native_import_cut,
    bound_to_tensorflow_copy,
)
from tfdoctor.explain.network import _cert_path_candidate, _retried_only
from tfdoctor.explain.nightlies import nightly_own_name_finding
from tfdoctor.explain.notebooks import (
    _kernel_python,
    _reticulate_python,
    _settle_kernel_install,
    program_off_kernel_path,
)
from tfdoctor.explain.overlaps import (
    _fit_process_fix,
    _program_shown,
    _server_shown,
    _settle_overlaps,
)
from tfdoctor.explain.packages import (
    conda_pip_side_by_side,
    conda_pip_tensorboards,
    listed_side_by_side,
    package_findings,
    refused_fallback_findings,
    resolver_python_findings,
    went_on_note,
)
from tfdoctor.explain.platform import (
    _binding_word_size_candidate,
    _cpu_candidate,
    _fold_into_emulator,
    _jvm_candidate,
    long_path_exception,
)
from tfdoctor.explain.progress import (
    _ctypes_unfound_went_on,
    _position,
    _process_ended,
    _said_to_go_on,
    _warned_capped,
    _went_on_overruled,
)
from tfdoctor.explain.reader import LogReader, LogText
from tfdoctor.explain.revealed import (
    _MO_CHECK,
    _NVML_NO_DRIVER,
    Revealed,
    _settle_echoed_keras,
    _text_os,
    log_facts,
    log_hints,
    reveal,
)
from tfdoctor.explain.scanning import _SEVERITY, Evidence, Hits, scan
from tfdoctor.explain.software import (
    _dict_wrapper_cut,
    _keras3_in_words,
    _model_garden_official,
    _syntax_newer_than_python,
    _syntax_older_than_python,
    _typing_newer_than_python,
    _unrecognised_distribution,
    _unrecognised_distribution_candidate,
    frozen_program_finding,
    import_crash_candidate,
)
from tfdoctor.explain.tensorboard import tensorboard_findings
from tfdoctor.explain.unshown import cut_import_finding, unshown_caller_candidate
from tfdoctor.explain.wheels import (
    _NO_WHEEL,
    _drop_pure_yanked,
    _drop_unread_refusals,
    _old_pip_shown,
    _pip_ignores_requires_python,
    _pip_path_too_long,
    _placeholder_imported,
    _project_python_range,
    _refusal_candidates,
    _refused_companion,
    _stated_platform_release,
    _title,
    _user_site_tensorflow,
    installer_of,
    pip_of_another_python,
)
from tfdoctor.explain.xla import compiler_summary
from tfdoctor.facts import TF_DISTRIBUTIONS, Facts
from tfdoctor.findings import Finding, Fix, Report, Severity, keep_weightier
from tfdoctor.machine import LEGACY_KERAS_VALUES, Machine
from tfdoctor.matrix import Matrix
from tfdoctor.signatures import BENIGN, EVIDENCE, IMAGE_CHECK, Signature, Signatures


def _settle_locked_wrapper(
    wrapper: Optional[Finding], findings: dict[str, Finding]
) -> Optional[Finding]:
    """The locked install without TensorFlow's wrapper (:func:`locked_without_wrapper`), where
    it is sure, in place of "not installed": the installer did install ``tensorflow``, and
    installing it again with pip (that finding's fix) leaves the wrapper out again."""
    if wrapper is not None and wrapper.severity is Severity.ERROR:
        findings.pop(f"explain.{causes.software.TF_NOT_INSTALLED}", None)
    return wrapper


def _settle_environment(
    evidence: Evidence, revealed: Revealed, machine: Machine, findings: dict[str, Finding]
) -> None:
    """Where the log shows the environment around the process, the readings it changes: a
    notebook kernel of another Python, WSL 1, WSL 2, a container's Python importing the
    host's, a hosted notebook's Python that comes with its runtime."""
    _settle_hosted_python(revealed, machine, findings)
    _settle_kernel_install(evidence, findings)
    _settle_wsl1(evidence, findings)
    _settle_wsl2(evidence, machine, findings)
    _settle_host_python_leak(evidence, findings)
    _settle_pod_scheduled(evidence, findings)


def _conda_cpu_build(
    rows: Sequence[CondaRow], gpu: bool, machine: Machine, os: Optional[str] = None
) -> Optional[Finding]:
    """A ``conda list`` showing TensorFlow's CPU build (by its build string): it cannot use a
    GPU, whatever CUDA is installed; an error where the log shows one."""
    row = next((r for r in rows if r.name in ("tensorflow", "tensorflow-base")), None)
    if row is None or row.kind != "cpu" or os == "macos":
        return None  # macOS has no CUDA GPU build to move to
    return causes.finding(
        f"explain.{causes.gpu.TF_CPU_ONLY_BUILD}",
        Severity.ERROR if gpu else Severity.WARNING,
        causes.gpu.TF_CPU_ONLY_BUILD,
        f"conda's {row.name} {row.version} is a CPU-only build ({row.build})",
        f"conda list: {row.name} {row.version} {row.build} {row.channel}".rstrip()
        + "\nA CPU build of TensorFlow never lists a GPU, whatever driver, CUDA or cuDNN is "
        "installed beside it.",
        causes.gpu.conda_gpu_build_fix(machine, row.version, row.build, row.channel),
    )


#: The signatures of TensorFlow 1's "Tensor ... is not an element of this graph", one per
#: reading (a server's threads; a graph cleared or left elsewhere).
_OTHER_GRAPH_SIGNS = frozenset({"tensor-of-another-threads-graph", "tensor-of-another-graph"})


def _graph_placed(found: Finding, hits: Sequence[Hits], evidence: Evidence) -> Finding:
    """``found``, a reading of TensorFlow 1's tensor of another graph, with what placed it:
    the server, task queue or thread the log shows running the code, quoted; where the log
    shows only the line, nothing of the program around it, a warning that says both readings
    are reported (a server's request threads, a graph cleared or left in a script or
    notebook), each with its own fix, and the log does not say which."""
    if not hits or any(h.signature.id not in _OTHER_GRAPH_SIGNS for h in hits):
        return found
    served = _server_shown(evidence)
    if served:
        note = f"A server, task queue or thread of its own runs the code: {served}"
        return dataclasses.replace(found, detail=f"{found.detail}\n{note}")
    if _program_shown(evidence):
        return found
    severity = Severity.WARNING if found.severity.rank > Severity.WARNING.rank else found.severity
    note = (
        "The log shows only this line, nothing of the program around it: a threaded server "
        "(Flask, Django, gunicorn's threads) calling a model its start loaded is one reading "
        "(server-concurrency-model-mismatch), a model kept across keras.backend."
        "clear_session() or called outside the graph it was loaded in is the other "
        "(tensor-from-other-graph). The traceback's frames say which."
    )
    return dataclasses.replace(found, severity=severity, detail=f"{found.detail}\n{note}")


#: Causes of TensorFlow's start-up look for CUDA: on a machine that shows no GPU, a warning
#: at most (:mod:`tfdoctor.explain.cpu_machine`).
_PROBED_CAUSES = frozenset({causes.gpu.CUDA_LIBS_MISSING, causes.gpu.DRIVER_NOT_LOADED})
#: The modules mo cannot work without: not importing, they fail the check (versions_checker.py,
#: ``critical_modules``).
_MO_CRITICAL = frozenset({"networkx", "defusedxml", "numpy"})


def _mo_check_severity(
    hits: Sequence[Hits], outcome: Optional[str], severity: Severity
) -> Severity:
    """The weight of mo's requirements check as mo itself gave it: an error where it logged
    an error or a module it needs did not import (it exits 1 then), a note where it went on
    and wrote the model (the check only warned), else the signature's warning."""
    critical = any(
        groups.get("dist") in _MO_CRITICAL and not groups.get("installed")
        for h in hits
        if h.signature.id == _MO_CHECK
        for groups in h.groups
    )
    if outcome == "error" or critical:
        return Severity.ERROR
    if outcome == "converted":
        return Severity.INFO
    return severity


def _nvml_without_gpu(
    hits: Sequence[Hits], r: Revealed, severity: Severity
) -> tuple[Severity, tuple[str, ...]]:
    """NVML's no-driver words alone (:data:`_NVML_NO_DRIVER`) in a log that wants no GPU: a
    GPU-monitoring library's nvmlInit failing on a CPU job's host, a note with its reason, as
    TensorFlow's own probe is there (``no_gpu_host``); else ``severity`` and no note."""
    alone = bool(hits) and all(h.signature.id in _NVML_NO_DRIVER for h in hits)
    if not alone or not r.nvml_no_gpu_host:
        return severity, ()
    return Severity.INFO, (
        "NVML (the driver's management library a GPU monitor calls) found no NVIDIA driver "
        "on this host and nothing in the log expects a GPU: on a machine without an NVIDIA "
        "GPU this is harmless; the fix is for a machine that has one.",
    )


def _quiet_reading(
    final: str, hits: Sequence[Hits], r: Revealed, gpu: bool, severity: Severity
) -> tuple[Severity, list[str]]:
    """The severity of a cause whose lines the log shows in a run that went on, and the
    sentences that say why: TensorFlow looking for CUDA on a machine that shows and wants no
    GPU (:mod:`tfdoctor.explain.cpu_machine`), libcuda not loading where TensorFlow lists a
    GPU, Colab's request to restart after an install with nothing failing after it. Other
    findings keep ``severity``."""
    notes: list[str] = []
    if final in _PROBED_CAUSES and r.cuda_probe_only and not gpu:
        # The runtime (and libcuda) a 2.1+ build looks for at every start, on a machine that
        # shows no GPU: TensorFlow's own next line says to ignore it there ("Ignore above
        # cudart dlerror if you do not have a GPU set up on your machine"). The same lines
        # are all some logs of a GPU left unused show, so the note says both readings and
        # keeps the fix; but nothing in the log shows a GPU (no device, nvidia-smi, GPU
        # query or complaint: cpu_machine._GPU_WANTED), and a log of harmless start-up noise
        # must not read as a problem.
        severity = Severity.INFO
        if not r.no_gpu_host:  # else the driver's note says so
            notes.append(
                "Only the CUDA runtime (and the driver's libcuda) did not load, the libraries "
                "TensorFlow 2.1 and later look for at every start, and nothing else in the log "
                "shows or asks for a GPU: on a machine without an NVIDIA GPU this is harmless "
                "(TensorFlow runs on the CPU; TF_CPP_MIN_LOG_LEVEL=2 hides it); on a machine "
                "meant to use one, the fix below is what makes TensorFlow see it."
            )
    if final == causes.gpu.DRIVER_NOT_LOADED and r.cuda_gpu_reached:
        # TensorFlow listing a GPU needs the driver's libcuda loaded and answering in that
        # process (the CUDA platform enumerates devices through it): what it observed beats
        # the reading of a libcuda that did not load (another process, a retry, a probe).
        severity = Severity.INFO
        notes.append(
            "TensorFlow lists a GPU in this log, which it does only with the driver's libcuda "
            "loaded: the driver answered where it listed it; the fix is for a run that lists none."
        )
    elif final == causes.gpu.DRIVER_NOT_LOADED and r.gpu_reached:
        # A pluggable device's GPU (pluggable_device_factory.cc's "physical PluggableDevice"):
        # TensorFlow reached it through its plugin, which loads no libcuda, so the run uses
        # the GPU it has without the NVIDIA driver's library.
        severity = Severity.INFO
        notes.append(
            "TensorFlow reached a GPU in this log through a pluggable device (a plugin such as "
            "tensorflow-metal or DirectML), which needs no libcuda: the fix is for a run meant "
            "to use an NVIDIA GPU through CUDA."
        )
    check = r.image_check
    if (
        final == causes.container.CONTAINER_NO_GPU
        and check is not None
        and all(IMAGE_CHECK in h.signature.tags for h in hits)
    ):
        if check.against is not None:
            # What the log shows of the run beats the check's reading of it.
            severity = Severity.INFO
            notes.append(
                f"NVIDIA's image's start-up check found no GPU, but {check.against}: its words "
                "are not this run's failure; the fix is for a container started without one."
            )
        elif check.run is not None and severity.rank < Severity.WARNING.rank:
            # The image's entrypoint prints it as the container starts, and the log shows the
            # command that started it without a GPU flag: a container run without a GPU.
            severity = Severity.WARNING
    if (
        final == causes.notebook.KERNEL_RESTART_NEEDED
        and r.installed_quietly
        and all(h.signature.id == "colab-restart-runtime" for h in hits)
    ):
        # Colab's request after an install, with nothing failing after it: the packages the
        # runtime imported before still run until a restart, which only code using the new
        # releases needs.
        severity = Severity.INFO
        notes.append(
            "pip's install ended well and nothing in the log failed after it: the runtime keeps "
            "the releases it imported before the install until it restarts, which matters only "
            "to code that needs the new ones."
        )
    return severity, notes


def _moved_summary(final: causes.CauseId, cause: str, lead: Hits, r: Revealed) -> str:
    """The summary of a finding whose signatures read ``cause`` and whose builder judged it
    ``final``: the lead signature's own where the cause stayed, else the catalogue's title,
    except a restart of the kernel, whose title names TensorFlow: a reading moved there from
    another cause (a protobuf older than the code, after an install in the kernel) keeps its
    own words."""
    if final == cause:
        return lead.signature.summary
    if final == causes.notebook.KERNEL_RESTART_NEEDED:
        return (
            f"The kernel still runs what it imported before the install: {lead.signature.summary}"
        )
    return _title(final, r)


def _cause_finding(
    cause: str, hits: Sequence[Hits], m: Machine, r: Revealed, with_facts: bool, inferred: str = ""
) -> Finding:
    builder = BUILDERS.get(cause)
    fix: Optional[Fix] = None
    # The signatures name only catalogued causes (checked when they load).
    final = causes.CauseId(cause)
    if builder is not None:
        final, fix = builder(m, r, hits)
    # The user's own requirement, quoted, is theirs to keep: no release is chosen for them.
    own = final == causes.platform.SHELL_GLOB_EXTRA
    if (
        fix is not None
        and not own
        and (m.tf is None or m.os is None)
        and not _installed_cuda_build(final, m)
    ):
        fix = _without_extra_installs(fix)
    elif fix is not None and not own and m.platform is None:
        fix = _extra_for_unknown_architecture(fix)
    # A GPU image started without the GPU flag shows the GPU was meant for the container,
    # as a GPU the log shows does for the lines that are notes on a machine without one.
    gpu = _gpu_shown(m, r) or (
        final == causes.container.CONTAINER_NO_GPU and r.gpu_image_without_gpu is not None
    )
    ranks = [
        _SEVERITY[(h.signature.severity_with_gpu if gpu else None) or h.signature.severity].rank
        for h in hits
    ]
    rank = max(ranks)
    severity = next(s for s in _SEVERITY.values() if s.rank == rank)
    # The words of the cause's own signatures, the first line at their highest level: a
    # warning of the same cause above an error (an optimizer argument dropped, then the
    # failure) does not name the error, and a line another cause's signature read, moved here
    # by what the log shows (an AVX refusal under QEMU), does not name this cause.
    owned = [i for i, h in enumerate(hits) if h.signature.cause == cause] or list(range(len(hits)))
    lead = hits[max(owned, key=lambda i: (ranks[i], -i))]
    if (
        final == causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING
        and r.addon_build_failed
        and severity.rank < Severity.WARNING.rank
    ):
        # xcodebuild's refusal is a note where node-gyp goes on; beside its failed build it
        # is the likely reason.
        severity = Severity.WARNING
    if (
        all(h.signature.id == "tfjs-core-releases-differ" for h in hits)
        and not r.tfjs
        and severity.rank > Severity.WARNING.rank
    ):
        # The kernel functions' names alone, with no TensorFlow.js in the log: likely theirs.
        severity = Severity.WARNING
    if final == causes.gpu.DRIVER_LIBRARIES_MISSING and r.kernel_module:
        # The NVIDIA kernel module runs (TensorFlow read its version) and its libcuda did not
        # load: a driver half installed, whatever the line's own level.
        severity = Severity.ERROR
    if final == causes.gpu.DRIVER_NOT_LOADED and r.no_gpu_host and severity is Severity.WARNING:
        # TensorFlow's own probe found no NVIDIA kernel driver on the host, and nothing in the
        # log expects a GPU: what every CUDA build prints on a machine without one.
        severity = Severity.INFO
    severity, nvml_note = _nvml_without_gpu(
        hits, r, _unnamed_library_severity(final, m, hits, severity)
    )
    severity, quiet = _quiet_reading(
        final, hits, r, gpu, _torch_arch_severity(final, r, hits, severity)
    )
    if any(h.signature.id == _MO_CHECK for h in hits):
        severity = _mo_check_severity(hits, r.mo_outcome, severity)
    parts = [cite(hits), *quiet, *nvml_note]
    if final == causes.gpu.DRIVER_NOT_LOADED and severity is Severity.INFO and r.no_gpu_host:
        parts.append(
            "TensorFlow found no NVIDIA kernel driver on this host and nothing in the log "
            "expects a GPU: on a machine without an NVIDIA GPU this is harmless (TensorFlow runs "
            "on the CPU); the fix is for a machine that has one."
        )
    notes = [h.signature.explanation for h in hits if h.signature.explanation]
    if notes and severity is Severity.INFO:
        parts.append(" ".join(dict.fromkeys(notes)))
    if r.cudnn_loaded and final in (causes.gpu.CUDNN_VERSION_MISMATCH, causes.gpu.CUDNN_SHADOWED):
        parts.append(_cudnn_place(m, r))
    known = r.known()
    if known:
        parts.append("The log shows: " + ", ".join(known) + ".")
    if inferred:
        parts.append(inferred)
    unknown = [] if with_facts else r.unknown()
    if unknown:
        parts.append(
            "The log does not show "
            + ", ".join(unknown)
            + ": the fix is the general one (run `tfdoctor check` on the machine, or pass "
            "--facts, for one fitted to it)."
        )
    summary = (
        compiler_summary(hits, r) if final == causes.xla.PTXAS_TOO_OLD else None
    ) or _moved_summary(final, cause, lead, r)
    companion = _refused_companion(r, hits) if final in _NO_WHEEL else None
    if companion is not None and final == causes.platform.TF_NO_WHEEL_FOR_PYTHON:
        summary = (
            f"{installer_of(hits).finder} found no {companion} wheel for this Python and platform"
        )
    elif companion is not None:
        summary = causes.platform.release_not_for_python_title(companion)
    return causes.finding(
        f"explain.{final}",
        severity,
        final,
        summary,
        "\n".join(p for p in parts if p),
        fix,
        tuple(dict.fromkeys(u for h in hits for u in h.signature.sources)),
    )


def _fit_changed_call(
    found: Finding, hits: Sequence[Hits], evidence: Evidence, m: Machine
) -> Finding:
    """``found`` with its fix fitted to whose code made the call, where a signature of a
    change (:func:`_changed_by`) read the message of a traceback the log shows: its edit for
    the user's own code, an installed package's release (or the release before the change)
    for a package's (:func:`tfdoctor.explain.interface.caller_fitted_fix`)."""
    if found.cause not in _FITTED_TO_CALLER or found.fix is None:
        return found
    for hit in hits:
        changed = _changed_by(hit.signature, found, m)
        if changed is None:
            continue
        tb = next(
            (
                x
                for x in evidence.tracebacks
                if x.frames
                and not x.ignored
                and hit.signature.pattern.search(f"{x.type}: {x.message}") is not None
            ),
            None,
        )
        if tb is None:
            continue
        # The interface reading loads the API listings: only for a log that needs it.
        from tfdoctor.explain.interface import caller_fitted_fix  # noqa: PLC0415
        from tfdoctor.explain.modules import TF_OWN  # noqa: PLC0415

        product, since = changed
        # The callee is the distribution whose API changed (NumPy's np.load), or TensorFlow's
        # and Keras' own frames for theirs: the frame outside it made the call.
        callees = TF_OWN if product in ("tensorflow", "keras") else frozenset({product})
        fitted = caller_fitted_fix(m, tb, found.fix, product, since, callees)
        return found if fitted is found.fix else dataclasses.replace(found, fix=fitted)
    return found


#: The causes whose signatures' fixes edit the call (a changed behaviour; a name or argument
#: a release removed, as scan's rule of the signature's name words it; TensorFlow 1 code that
#: TensorFlow 2's behaviour refuses, ported with tf.compat.v1).
_FITTED_TO_CALLER = frozenset(
    {
        causes.code.API_DEFAULT_CHANGED,
        causes.code.API_REMOVED,
        causes.code.API_MOVED_TO_COMPAT_V1,
    }
)


def _changed_by(signature: Signature, found: Finding, m: Machine) -> Optional[tuple[str, str]]:
    """The distribution whose change ``signature`` shows met, and the release of the change:
    the signature's own ``changed`` (tfdoctor/signatures.yaml, dated by its sources), else the
    TensorFlow line scan's rule of that name dates it to, where ``found``'s fix is that rule's
    edit (no commands: a rule whose fix installs a line is its own answer). None where
    neither says (the pluggable device without XLA: the device, not the caller, decides)."""
    if signature.changed is not None:
        return signature.changed
    if m.matrix is None or found.fix is None or found.fix.commands:
        return None
    from tfdoctor.scan.knowledge import ApiKnowledge  # noqa: PLC0415 - loads scan's rules

    verdict = ApiKnowledge(m.matrix).rule(signature.id)
    if (
        verdict is None
        or not verdict.release
        or verdict.cause != found.cause
        or verdict.fix.text != found.fix.text
    ):
        return None
    return "tensorflow", verdict.release


def _installed_cuda_build(cause: str, m: Machine) -> bool:
    """Whether ``cause`` is CUDA libraries missing under an installed ``tensorflow`` whose
    CUDA build the log shows at work: its CUDA extra at that release is then right for this
    platform and Python, which it already runs on (:meth:`Machine.and_cuda_spec`)."""
    return (
        cause == causes.gpu.CUDA_LIBS_MISSING and m.and_cuda_spec(cuda_build_ran=True) is not None
    )


def _without_extra_installs(fix: Fix) -> Fix:
    """``fix`` without commands that install a release's CUDA extra: the log does not show
    the platform and Python they are only right for."""
    kept = tuple(c for c in fix.commands if "[and-cuda]" not in c)
    if kept == fix.commands:
        return fix
    return Fix(
        fix.text + " (Which release installs here depends on the platform and Python, which "
        "the log does not show: `tfdoctor matrix --python-version X.Y` lists them.)",
        kept,
    )


def _extra_for_unknown_architecture(fix: Fix) -> Fix:
    """``fix`` saying that its CUDA extra serves some architectures only: the log shows the
    operating system (or implies it) but never the machine's architecture."""
    if not any("[and-cuda]" in c for c in fix.commands):
        return fix
    return Fix(
        fix.text + " (The extra installs NVIDIA's CUDA wheels only on the platforms whose "
        "wheels declare it, Linux x86-64 first; the log does not show this machine's "
        "architecture.)",
        fix.commands,
    )


def _cudnn_place(m: Machine, r: Revealed) -> str:
    """Where the loaded cuDNN comes from, when the machine's facts say."""
    libs = m.facts.cuda_libs
    lib = next((x for x in (libs.libraries if libs else ()) if x.name == "cudnn"), None)
    if lib is None or lib.selected is None:
        if libs is not None:
            return (
                f"cuDNN {r.cudnn_loaded} was loaded; the machine's facts show no cuDNN the "
                "loader would pick, so the log comes from another environment or machine."
            )
        return f"cuDNN {r.cudnn_loaded} was loaded; the log does not say from where."
    chosen = lib.candidates[lib.selected]
    version = f" (cuDNN {chosen.version})" if chosen.version else ""
    return (
        f"cuDNN {r.cudnn_loaded} was loaded; on this machine the loader picks {chosen.path}"
        f"{version}, found through {chosen.origin}."
    )


def _benign_finding(hit: Hits) -> Finding:
    sig = hit.signature
    return Finding(
        f"explain.benign.{sig.id}",
        Severity.INFO,
        sig.summary,
        f"{cite([hit])}\n{sig.explanation}",
        None,
        sig.sources,
        check="explain",
    )


def _api_findings(evidence: Evidence, matrix: Optional[Matrix], machine: Machine) -> list[Finding]:
    """scan's verdicts on the API uses the log shows: the names its exceptions are about, more
    precise than a signature of the same cause; else, where no exception is shown, the
    imports a session ran, judged for the TensorFlow the log shows."""
    if matrix is None:
        return []
    # scan's judge loads its rules and API listings: only for a log that needs them.
    from tfdoctor.explain.api import (  # noqa: PLC0415
        api_findings,
        flags_before_absl_findings,
        hollow_tensorflow_findings,
        statement_findings,
    )
    from tfdoctor.scan.knowledge import ApiKnowledge  # noqa: PLC0415

    if evidence.tracebacks and "tensorflow-namespace-package" in evidence.hits:
        # The log prints tensorflow as a namespace package (a folder without its files): a
        # name missing from it says nothing of a release, and the signature names the cause.
        return []
    if evidence.tracebacks:
        return (
            api_findings(
                evidence.tracebacks,
                ApiKnowledge(
                    matrix, python=machine.python_version, platform=machine.wheel_platform
                ),
                machine,
                evidence.kernel_installs,
                keras_backend_shown="keras-multi-backend-file" in evidence.hits,
            )
            or hollow_tensorflow_findings(
                evidence.tracebacks,
                machine,
                # Two TensorFlow distributions a listing (or pip installing one beside the
                # other) shows: the leading reading of a tensorflow without a name every
                # release has.
                listed_side_by_side(evidence.listed, machine)
                or conda_pip_side_by_side(evidence.conda_rows, machine)
                or _pip_added_beside(evidence, machine),
                evidence.modules,
            )
            or flags_before_absl_findings(evidence.tracebacks, machine)
        )
    if evidence.statements and machine.tf is not None:
        return statement_findings(
            evidence.statements,
            ApiKnowledge(matrix, python=machine.python_version, platform=machine.wheel_platform),
            machine,
        )
    return []


def _api_or_nightly(
    evidence: Evidence, matrix: Optional[Matrix], machine: Machine
) -> list[Finding]:
    """The API readings of the log's exceptions (:func:`_api_findings`), after a nightly build
    that lacks a name its own line's releases have (:mod:`tfdoctor.explain.nightlies`): the
    build's defect leads, and what the API readings say of the name is second (a warning)."""
    api = _api_findings(evidence, matrix, machine)
    nightly = nightly_own_name_finding(evidence.tracebacks, machine)
    if nightly is None:
        return api
    return [
        nightly,
        *(
            dataclasses.replace(x, severity=Severity.WARNING)
            if x.severity.rank > Severity.WARNING.rank
            else x
            for x in api
        ),
    ]


def _unexplained(evidence: Evidence, machine: Machine) -> list[Finding]:
    """What the log's last exception says where no cause explains the log: the candidates
    that weigh it (Keras 3 meeting Keras 2 code, a legacy copy, a release's missing name),
    else the exception itself as unexplained."""
    candidate = (
        program_off_kernel_path(evidence.tracebacks)
        or lambda_bytecode_candidate(evidence.tracebacks, machine)
        or savedmodel_config_candidate(evidence.tracebacks, machine)
        or keras_zip_candidate(evidence.tracebacks, machine)
        or keras_backend_candidate(evidence.tracebacks, machine)
        or keras3_candidate(evidence.tracebacks, machine)
        or legacy_copy_candidate(evidence.tracebacks, machine)
    )
    if candidate is not None:
        return [candidate]
    named = _release_name_candidates(evidence, machine) or _interface_candidates(evidence, machine)
    if named:
        return named
    words = keras_release_in_words(evidence.first_text, machine)
    if words is not None:
        return [words]
    unexplained = unexplained_finding(evidence.tracebacks)
    if unexplained is None:
        return []
    unreleased = _unreleased_candidate(evidence, machine)
    return [unexplained] if unreleased is None else [unreleased, unexplained]


def _unreleased_candidate(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """A pre-release or a nightly of TensorFlow shown beside an exception nothing else
    explains: the build's own defect is a candidate, a warning (the same exception may be
    the code's, which the final release would raise too). Not where the log names another
    TensorFlow release too (a pre-release asked for and refused, or replaced by a final
    release): which one ran is not shown."""
    tf = machine.tf
    found = causes.runtime.unreleased_build(tf.version) if tf is not None else None
    if tf is None or found is None:
        return None
    named = {
        *evidence.values("tf_version", evidence_only=True),
        *(v for k, v in evidence.echoed.items() if k in TF_DISTRIBUTIONS),
        *(v for k, v in evidence.listed.items() if k in TF_DISTRIBUTIONS),
    }
    # Each in pip's spelling: a nightly's own 2.16.0-dev20231109 is 2.16.0.dev20231109.
    if any(pip_spelled(v) != pip_spelled(tf.version) for v in named):
        return None
    return causes.unreleased_build_finding(
        machine,
        f"explain.{found[0]}",
        Severity.WARNING,
        tf.name,
        tf.version,
        did="the failure may be its own",
        shown="The log shows no other cause for the exception",
    )


def _with_unshown_caller(
    out: Sequence[Finding], evidence: Evidence, machine: Machine
) -> list[Finding]:
    """``out`` with an installed library's release as the other candidate for a name the
    installed TensorFlow lacks, where the log shows no frame of whose code asked
    (:mod:`tfdoctor.explain.unshown`): after the reading it is the other candidate of."""
    unshown = unshown_caller_candidate(out, evidence.tracebacks, machine)
    if unshown is None:
        return list(out)
    return sorted((*out, unshown), key=lambda f: -f.severity.rank)


def _release_name_candidates(evidence: Evidence, machine: Machine) -> list[Finding]:
    """explain.api's reading of a TensorFlow or Keras name no other reading placed; loaded
    only for a log whose exceptions need it (it reads the API listings)."""
    if not evidence.tracebacks:
        return []
    from tfdoctor.explain.api import release_name_candidates  # noqa: PLC0415

    return release_name_candidates(evidence.tracebacks, machine)


def _interface_candidates(evidence: Evidence, machine: Machine) -> list[Finding]:
    """explain.interface's reading of a call a library made that TensorFlow's or Keras'
    interface refused; loaded only for a log whose exceptions need it (it reads the API
    listings)."""
    if not evidence.tracebacks:
        return []
    from tfdoctor.explain.interface import (  # noqa: PLC0415
        interface_candidates,
        own_keyword_candidates,
    )

    found = interface_candidates(evidence.tracebacks, machine) or own_keyword_candidates(
        evidence.tracebacks, machine
    )
    went = _went_on_after(last_failure(evidence.tracebacks), evidence)
    # The exception did not end the run (a library logged it and the work went on): both
    # candidates, a call refused along the way, are notes.
    return [went_on_note(x, went) for x in found]


def _logged(evidence: Evidence) -> dict[str, str]:
    """The log's words for the work done after each exception the run went on after
    (:func:`_went_on_after`), by the exception's place (:attr:`Traceback.where`)."""
    out: dict[str, str] = {}
    for tb in evidence.tracebacks:
        went = _went_on_after(tb, evidence)
        if went is not None:
            out.setdefault(tb.where, went)
    return out


#: Causes signatures read from an exception's own line (TensorFlow's TBNotInstalledError,
#: tensorflow/python/summary/tb_summary.py; Python's ModuleNotFoundError for tensorboard): a
#: note where every line read is an exception the run went on after (:func:`_logged`), as
#: the frame readings of such an exception are (:func:`went_on_note`).
_READ_FROM_EXCEPTIONS = frozenset({causes.software.TENSORBOARD_NOT_INSTALLED})


def _logged_capped(
    found: dict[str, Finding], by_cause: Mapping[str, Sequence[Hits]], evidence: Evidence
) -> dict[str, Finding]:
    """``found`` with the findings of :data:`_READ_FROM_EXCEPTIONS` made notes where all the
    lines their signatures read are exceptions the run went on after."""
    logged = _logged(evidence)
    if not logged:
        return found
    out = dict(found)
    for key, x in found.items():
        if x.cause not in _READ_FROM_EXCEPTIONS:
            continue
        wheres = [w for h in by_cause.get(x.cause, ()) for w, _ in h.citations]
        if wheres and all(w in logged for w in wheres):
            out[key] = went_on_note(x, logged[wheres[0]])
    return out


def _went_on_after(tb: Optional[Traceback], evidence: Evidence) -> Optional[str]:
    """The log's words for the run's work done (:attr:`Evidence.went_on`) where its first such
    line comes after ``tb``'s exception: the run went on after it. None elsewhere."""
    if tb is None or evidence.went_on is None:
        return None
    where, went = evidence.went_on
    at, done = _position(tb.where), _position(where)
    if at is None or done is None or done <= at:
        return None
    return f"The run went on after it: {went.what} ({where})"


def explain(
    lines: Iterable[LogText],
    signatures: Signatures,
    matrix: Optional[Matrix],
    facts: Optional[Facts] = None,
    version: str = "",
) -> Report:
    """The report a log supports: one finding per recognised cause, noise as info.

    ``lines`` are the log's blocks (:func:`tfdoctor.explain.reader.read_log`); ``facts``, a
    machine's own, sharpen the fixes (the log's lines join its ``tensorflow.log_errors``).
    """
    evidence = _settle_echoed_keras(scan(lines, signatures), matrix)
    revealed = reveal(evidence, matrix)
    merged = log_facts(revealed, evidence, facts, version)
    machine = Machine(merged, matrix, log_hints(revealed))
    by_cause: dict[str, list[Hits]] = {}
    benign: list[Hits] = []
    for hit in sorted(evidence.hits.values(), key=lambda h: h.first):
        if hit.signature.cause == BENIGN:
            benign.append(hit)
        elif hit.signature.cause != EVIDENCE:
            by_cause.setdefault(hit.signature.cause, []).append(hit)
    _fold_into_emulator(by_cause)
    _settle_dnn_not_found(by_cause)
    _settle_smi_missing(by_cause)
    if (
        causes.platform.PYTHON_32BIT in by_cause
        and evidence.source_builds
        and causes.platform.TF_NO_WHEEL_FOR_PYTHON not in by_cause
    ):
        # pip went on to build TensorFlow's dependencies from source: it had a TensorFlow
        # wheel for this 32-bit system (a community build), and the failed build is the cause.
        del by_cause[causes.platform.PYTHON_32BIT]
    if causes.platform.PYTHON_32BIT in by_cause:
        # pip finds no wheel because the interpreter is 32-bit: one cause, the interpreter.
        by_cause.pop(causes.platform.TF_NO_WHEEL_FOR_PYTHON, None)
    _drop_pure_yanked(by_cause)
    _drop_unread_refusals(by_cause, evidence)
    _settle_overlaps(by_cause, evidence)
    if causes.platform.NATIVE_LIBRARY_UNRESOLVED in by_cause and any(
        c != causes.platform.NATIVE_LIBRARY_UNRESOLVED and h.signature.severity == "error"
        for c, hs in by_cause.items()
        for h in hs
    ):
        # The generic loader advice only where no signature names the library's cause.
        del by_cause[causes.platform.NATIVE_LIBRARY_UNRESOLVED]
    # A distribution Transformers does not recognise, then a notebook's other interpreter,
    # replace "not installed" before the causes are judged.
    # (In this order: the first takes the hits it explains from "not installed".)
    findings = {
        x.id: x
        for x in (
            _unrecognised_distribution(evidence, machine, by_cause, benign),
            _kernel_python(evidence, by_cause),
            _reticulate_python(evidence, by_cause),
        )
        if x is not None
    }
    findings.update((x.id, x) for x in _api_or_nightly(evidence, matrix, machine))
    ignores_requires_python = _pip_ignores_requires_python(evidence, revealed, machine)
    for found in package_findings(
        evidence.conflicts,
        evidence.import_checks,
        evidence.tracebacks,
        machine,
        evidence.numpy_builds,
        # A pip that ignores Requires-Python took a release this Python cannot build: the pip
        # is the cause, not a missing wheel.
        () if ignores_requires_python is not None else evidence.source_builds,
        evidence.python_refusals,
        evidence.modules,
        evidence.conda_conflicts,
        evidence.kernel_installs,
        evidence.conda_missing,
        evidence.frozen,
        evidence.listed,
        shown=evidence.shown,
        crashed=_process_ended(evidence),
        logged=_logged(evidence),
        conda_rows=evidence.conda_rows,
        scripts=python_scripts(evidence.first_text),
        legacy_keras=evidence.legacy_keras_set in LEGACY_KERAS_VALUES,
        # Frames of a paste cut before its exception, where no traceback was read.
        loose=()
        if any(tb.frames for tb in evidence.tracebacks)
        else loose_frames(evidence.first_text),
        signed=[
            line
            for hits in by_cause.values()
            for hit in hits
            if hit.signature.cause not in (BENIGN, EVIDENCE)
            for _, line in hit.citations
        ],
    ):
        findings.setdefault(found.id, found)
    for extra in (
        *requested_findings(evidence.install_requests, machine),
        *unavailable_findings(evidence.unavailable, machine),
        *refused_fallback_findings(evidence.refusals, evidence.collected, machine),
        *environment_findings(
            evidence.unresolved,
            evidence.pypi_excluded,
            evidence.env_file,
            mac=revealed.os == "macos" or revealed.mac is not None,
            os=revealed.os,
            unavailable=evidence.unavailable_specs,
        ),
        _conda_cpu_build(evidence.conda_rows, _gpu_shown(machine, revealed), machine, revealed.os),
        kernelspec_gone_finding(evidence.first_text),
        cuda_undetected_finding(
            evidence.conda_info,
            _gpu_shown(machine, revealed) or revealed.driver_version is not None,
        ),
        conda_pip_side_by_side(evidence.conda_rows, machine),
        conda_pip_tensorboards(evidence.conda_rows, machine),
        ignores_requires_python,
        _stated_platform_release(evidence, machine),
        _windows_gpu_archive(evidence, machine),
        _tensorrt_versions(evidence, machine),
    ):
        if extra is not None:
            findings.setdefault(extra.id, extra)
    inferred = _inferred(evidence, revealed)
    for cause, hits in by_cause.items():
        found = _retried_only(
            _graph_placed(
                _fit_process_fix(
                    _fit_changed_call(
                        _cause_finding(cause, hits, machine, revealed, facts is not None, inferred),
                        hits,
                        evidence,
                        machine,
                    ),
                    evidence,
                ),
                hits,
                evidence,
            ),
            hits,
            evidence,
        )
        keep_weightier(
            findings,
            _ctypes_unfound_went_on(
                _nccl_fell_back_to_sockets(
                    _said_to_go_on(tpu_holder_failed(found, hits, by_cause), hits), hits, evidence
                ),
                hits,
                evidence,
            ),
        )
    # After the signatures' findings: a line of the log's own says more than its words.
    for late in (
        _keras3_in_words(evidence, machine),
        multi_backend_keras_finding(evidence.first_text, evidence.tracebacks, machine),
        metric_name_finding(evidence.first_text, evidence.tracebacks, machine),
        *_unlisted(evidence, revealed, machine, findings.values(), inferred),
        *_native_import_cut(evidence, revealed, machine, findings.values()),
        _interleaved_import(evidence.first_text, findings.values()),
        bound_to_tensorflow_copy(evidence.first_text, findings.values()),
        cut_import_finding(
            cut_import(evidence.first_text), evidence.tracebacks, machine, findings.values()
        ),
        _old_pip_shown(evidence, machine, revealed, findings.values()),
        pip_of_another_python(evidence, machine),
        _user_site_tensorflow(evidence, machine),
        _dict_wrapper_cut(evidence, machine),
        _syntax_newer_than_python(evidence, revealed, machine),
        _syntax_older_than_python(evidence, machine),
        _typing_newer_than_python(evidence, revealed, machine),
        _conda_path_too_long(evidence),
        _conda_system_unsatisfied(evidence, machine),
        _conda_cuda_builds_unsolved(evidence, machine),
        _pip_path_too_long(evidence),
        long_path_exception(evidence.tracebacks),
        _project_python_range(evidence),
        # After the hints' reading, which names the range the resolver suggests.
        *resolver_python_findings(evidence.python_refusals, machine),
        _model_garden_official(evidence),
        frozen_program_finding(evidence, machine),
        _other_library_candidate(findings, by_cause, machine, revealed),
        _cudnn_major_candidate(findings, machine, revealed),
        _slow_start_on_gpu(evidence, revealed, machine, findings.values()),
        _cpu_candidate(findings, by_cause, machine, revealed, evidence.first_text),
        _binding_word_size_candidate(findings, by_cause),
        _jvm_candidate(findings, by_cause, revealed),
        import_crash_candidate(findings, machine, revealed),
        *_refusal_candidates(findings, machine, revealed, evidence.first_text),
        _custom_op_unresolved(findings, by_cause),
        _unnamed_op_library_candidate(findings, by_cause, revealed),
        _hosted_tf_replaced(evidence, revealed, by_cause, findings, machine),
        _nightly_gpu_build(evidence, by_cause, findings, machine),
        _kernel_kept_release(evidence, revealed),
        _pip_added_beside(evidence, machine),
        _settle_locked_wrapper(
            locked_without_wrapper(
                evidence.first_text,
                machine,
                revealed.os,
                revealed.mac,
                _text_os,
            ),
            findings,
        ),
        _container_candidate(findings, by_cause, machine, revealed, evidence),
        _gpu_dll_candidate(findings, by_cause, machine, revealed),
        _container_libcuda_candidate(findings, by_cause),
        _legacy_gpu_candidate(findings, by_cause, revealed),
        _nccl_release_candidate(findings, by_cause, revealed),
        _unresolved_task_candidate(findings, by_cause, evidence),
        _cert_path_candidate(findings, by_cause),
        _unrecognised_distribution_candidate(findings, by_cause, evidence, machine),
        *_gpu_library_candidates(findings, by_cause, machine, revealed),
        _older_cudnn_candidate(findings, machine, revealed),
        # A listing or a nightly's install read over several lines: after the signatures,
        # whose lines (pip's leftover with its directory) say more.
        *tensorboard_findings(
            evidence.first_text,
            machine,
            explained=any(x.severity.rank >= Severity.WARNING.rank for x in findings.values()),
        ),
    ):
        if late is not None:
            findings.setdefault(late.id, late)
    _settle_environment(evidence, revealed, machine, findings)
    _settle_image_build(findings, evidence)
    _settle_unloaded_registrar(findings, by_cause)
    out = sorted(
        _warned_capped(
            _placeholder_imported(_logged_capped(findings, by_cause, evidence), by_cause, evidence),
            evidence,
        ),
        key=lambda f: -f.severity.rank,
    )
    if all(x.severity.rank < Severity.WARNING.rank for x in out):
        # A failure nothing explains is reported as such: never "no problems found".
        out.extend(_unexplained(evidence, machine))
    # A frameless API error gets the installed library as its second candidate; then observed
    # beats inferred, within the log: the run did its work after the notices, so what they
    # predict of the packages' versions did not happen here (issue 21).
    out = _went_on_overruled(_with_unshown_caller(out, evidence, machine), evidence)
    if facts is not None:
        # Observed beats inferred, for what the log claims too: where the machine's facts
        # show TensorFlow doing what a cause says it cannot (it imports, it lists the GPU),
        # the log's finding is a note (it may come from another run or environment).
        out = sorted((observed.overrule(x, machine) for x in out), key=lambda f: -f.severity.rank)
    if facts is None and any(tb.ipython for tb in evidence.tracebacks):
        # IPython printed the failure: the installs go into the kernel's own Python.
        out = [
            dataclasses.replace(x, fix=causes.software.in_notebook(x.fix))
            if x.fix is not None
            else x
            for x in out
        ]
    out.extend(_benign_finding(h) for h in benign)
    if not out:
        out.append(
            Finding(
                "explain.no-signature",
                Severity.INFO,
                "No known signature found",
                f"None of the {len(signatures.signatures)} signatures matched the "
                f"{evidence.lines} lines read.",
                check="explain",
            )
        )
    if isinstance(lines, LogReader) and lines.unread is not None:
        out.append(_unread_finding(lines, *lines.unread))
    return Report(merged, tuple(dataclasses.replace(f, check="explain") for f in out))


#: The loader refusing a library for a symbol version its C or C++ runtime lacks ("version
#: `GLIBCXX_3.4.22' not found (required by ...)"): the library did not load, nor did what it
#: registers.
_RUNTIME_REFUSALS = frozenset({causes.platform.LIBSTDCXX_TOO_OLD, causes.platform.GLIBC_TOO_OLD})
#: TensorFlow Lite's words for a custom op that neither the op resolver nor a delegate
#: registered (lite/core/subgraph.cc): a delegate's or an op library's op.
_CUSTOM_OP_UNRESOLVED = "tflite-unresolved-custom-op"


def _settle_unloaded_registrar(
    findings: dict[str, Finding], by_cause: Mapping[str, Sequence[Hits]]
) -> None:
    """A custom op TensorFlow Lite left unresolved where the loader refused a library for the
    runtime it lacks: that library (the Edge TPU delegate, an op library) would have
    registered it, so the loader's finding leads and the op's is second (a warning)."""
    ops = by_cause.get(causes.software.OP_NOT_REGISTERED, ())
    if not ops or any(h.signature.id != _CUSTOM_OP_UNRESOLVED for h in ops):
        return
    if not any(
        x.cause in _RUNTIME_REFUSALS and x.severity == Severity.ERROR for x in findings.values()
    ):
        return
    for key, x in list(findings.items()):
        if x.cause == causes.software.OP_NOT_REGISTERED and x.severity.rank > Severity.WARNING.rank:
            findings[key] = dataclasses.replace(x, severity=Severity.WARNING)


def _settle_image_build(findings: dict[str, Finding], evidence: Evidence) -> None:
    """The GPU library findings second where an image's TensorFlow is replaced by an install
    (hosted-tf-replaced) or is a nightly build (tf-build-regression, an error only in
    TensorFlow's nightly image): the image's libraries are its TensorFlow's. TensorFlow 1's
    API missing is second too where the install replaced the image's TensorFlow 1 with
    TensorFlow 2 (:func:`tf1_replaced_by_tf2`): the API was there before it; so is Keras
    asking the new TensorFlow for what it lacks where the log installs no Keras
    (:func:`keras_left_by_replacement`): the image's Keras came with the release removed."""
    nightly = findings.get(f"explain.{causes.runtime.TF_BUILD_REGRESSION}")
    replacing = findings.get(f"explain.{causes.hosted.HOSTED_TF_REPLACED}")
    # A replacement observed with no failure after it (a warning) explains no companion's
    # refusal: the companion's finding keeps its rank.
    replaced = replacing is not None and replacing.severity == Severity.ERROR
    api_gone = replaced and tf1_replaced_by_tf2(evidence) is not None
    keras_left = replaced and keras_left_by_replacement(evidence) is not None
    if replacing is not None or (nightly is not None and nightly.severity == Severity.ERROR):
        # The install, or the nightly image's build, is the cause: the GPU's own finding,
        # whose fix would install CUDA or cuDNN on the image, and (after an install) an
        # image's companion refused by the new TensorFlow, whose fix fits the companion to
        # it, say what failed, second.
        for key, x in list(findings.items()):
            if (
                x.cause in _IMAGE_PAIRING_CAUSES
                or (replaced and x.cause == causes.software.COMPANION_MISMATCH)
                or (api_gone and x.cause in TF1_API_GONE)
                or (keras_left and x.cause == causes.software.KERAS_VERSION)
            ) and x.severity.rank > Severity.WARNING.rank:
                findings[key] = dataclasses.replace(x, severity=Severity.WARNING)


def _unlisted(
    evidence: Evidence,
    revealed: Revealed,
    machine: Machine,
    found: Iterable[Finding],
    inferred: str,
) -> list[Finding]:
    """The findings for TensorFlow listing no GPU (:mod:`tfdoctor.explain.devices`): the
    reading, with what the log implies of the machine, then the other candidates."""
    listings = evidence.devices
    reached = evidence.gpu_reached()
    if not listings and evidence.gpu_complaint is not None and reached is None:
        # (A GPU device TensorFlow created outranks the user's words: observed beats said.)
        # No answer of TensorFlow's is shown, only the user's words that it does not use the
        # GPU: the same question, asked of what the log states around it.
        where, said = evidence.gpu_complaint
        listings = [(where, DeviceListing(0, said, gpus=0))]
    layout = evidence.hits.get("gpu-layout-on-cpu")
    on_cpu = not listings and layout is not None and reached is None
    if on_cpu and layout is not None:
        # A CPU kernel refused the layout only GPU kernels take: the op ran on the CPU, as
        # where TensorFlow lists no GPU (observed, not said).
        where, said = layout.citations[0]
        listings = [(where, DeviceListing(0, said, gpus=0))]
    unlisted_all = unlisted_gpu_findings(
        listings,
        found,
        machine,
        _gpu_shown(machine, revealed),
        revealed.tf_dist,
        evidence.prompt_near_devices,
        evidence.metal_shown,
        any(tb.ipython for tb in evidence.tracebacks),
        any(
            row.kind == "gpu" and row.name in ("tensorflow", "tensorflow-base")
            for row in evidence.conda_rows
        ),
        evidence.visible_devices,
        tf_cpu_image(evidence.first_text),
        reached,
    )
    if not unlisted_all:
        return []
    unlisted, others = unlisted_all[0], unlisted_all[1:]
    if on_cpu and unlisted.fix is not None:
        unlisted = dataclasses.replace(
            unlisted,
            summary="An op in the GPU-only channels-first layout ran on the CPU",
            # Code meant for the CPU is as likely as a GPU not used: a warning, whatever the
            # build or machine the log shows.
            severity=min(unlisted.severity, Severity.WARNING, key=lambda x: x.rank),
            fix=Fix(
                "A pooling or convolution op in the channels-first layout (NCHW), which only "
                "TensorFlow's GPU kernels take, ran on the CPU. Code meant for the CPU: build "
                "the model channels-last (data_format='channels_last', or "
                "tf.keras.backend.set_image_data_format('channels_last')). Code written for a "
                f"GPU: TensorFlow did not use one. {unlisted.fix.text}",
                unlisted.fix.commands,
            ),
        )
    if inferred:
        unlisted = dataclasses.replace(unlisted, detail=f"{unlisted.detail}\n{inferred}")
    return [unlisted, *others]


def _inferred(evidence: Evidence, revealed: Revealed) -> str:
    """What the log implies without stating it (its paths, its tracebacks' paths, library
    names), marked as inferred ('' when nothing)."""
    paths = [f.path for tb in evidence.tracebacks for f in tb.frames]
    hints: dict[tuple[str, str], Inferred] = {}
    for hint in (*revealed.inferred, *path_hints(paths)):
        hints.setdefault((hint.fact, hint.value), hint)
    return inferred_note(list(hints.values())) if hints else ""


def _unread_finding(log: LogReader, first: int, end: Optional[int]) -> Finding:
    """The log was longer than explain reads: bytes ``first`` to ``end`` were not explained."""
    shown = "LOG" if log.name == "stdin" else shlex.quote(log.name)
    why = (
        f"explain reads at most {size_text(log.limit)} of a log, so that a huge one cannot take "
        "minutes"
    )
    if end is None or log.size is None:
        return Finding(
            "explain.log-truncated",
            Severity.UNKNOWN,
            f"Only the first {size_text(first)} of {log.name} were read; the rest was not "
            "explained",
            f"{why}; of a stream that cannot seek (a pipe), the start. A failure at the end "
            "of the log is not seen.",
            Fix(
                "Explain the end of the log (the last 100 MiB):",
                (f"tail -c 100M {shown} | tfdoctor explain -",),
            ),
            check="explain",
        )
    return Finding(
        "explain.log-truncated",
        Severity.UNKNOWN,
        f"Read the first {size_text(first)} and the last {size_text(log.size - end)} of "
        f"{log.name} ({size_text(log.size)}); the {size_text(end - first)} between were not "
        "explained",
        f"{why}: of a file, its start (versions, libraries loaded) and its end (the failure). "
        "Lines at the end are numbered from where reading resumed.",
        Fix(
            "Explain the part that was skipped, if it matters:",
            (f"tail -c +{first + 1} {shown} | head -c {end - first} | tfdoctor explain -",),
        ),
        check="explain",
    )
