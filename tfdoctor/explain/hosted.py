"""Builders for hosted runtimes: Colab, Kaggle and TPUs, their images and installs."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple, Optional

from tfdoctor import causes
from tfdoctor.evidence.devices import (
    container_run_tool,
    container_run_without_gpu,
    tf_nightly_gpu_image,
)
from tfdoctor.evidence.packages import (
    PIP_TF_DIST,
    installed_items,
    kernel_install_end,
    kernel_installs_unnamed,
    read_stale_import,
    read_tf_installed,
)
from tfdoctor.evidence.pip import (
    PipKind,
    collected_requirer,
    pip_words,
    read_pip_lines,
    requested_version,
)
from tfdoctor.explain.common import _cite_head, cite, group
from tfdoctor.explain.containers import _IMAGE_PAIRING_CAUSES
from tfdoctor.explain.packages import distributions_finding
from tfdoctor.explain.revealed import _INSTALLED, Revealed
from tfdoctor.explain.scanning import Evidence, Hits
from tfdoctor.facts import TF_DISTRIBUTIONS, normalize_name
from tfdoctor.findings import Finding, Fix, Severity
from tfdoctor.machine import Machine
from tfdoctor.matrix import version_key
from tfdoctor.modules import modules


def _tpu_version(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    op = group(hits, "op")
    if op is not None and (">" in op or modules().op_library(op)):
        # A companion's op (tensorflow-text's, Addons' Namespace>Op) is on no TPU worker,
        # whatever its release: not a matter of versions.
        return causes.software.OP_NOT_REGISTERED, causes.software.op_not_registered_fix(m, op)
    return causes.hosted.TPU_VERSION_MISMATCH, causes.hosted.tpu_version_fix()


def _tpu_build(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.hosted.TPU_TF_WITHOUT_LIBTPU, causes.hosted.tensorflow_tpu_fix(
        m, m.tf.version if m.tf is not None else None
    )


def _tpu_busy(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A TPU another process holds: its holder's pid and the TPU's device node, where libtpu's
    or the node's words name them."""
    return causes.hosted.TPU_HELD_BY_ANOTHER_PROCESS, causes.hosted.tpu_busy_fix(
        group(hits, "pid"), group(hits, "tpu_device")
    )


def tpu_holder_failed(
    found: Finding, hits: Sequence[Hits], by_cause: Mapping[str, Sequence[Hits]]
) -> Finding:
    """``found`` made an error where its lines are TensorFlow's note that another process
    holds the TPU (a warning alone: TensorFlow goes on without it) and the same log shows
    this process failing to find a TPU (the tpu-not-found cause's lines)."""
    if (
        found.severity is not Severity.WARNING
        or found.cause != causes.hosted.TPU_HELD_BY_ANOTHER_PROCESS
        or not any(h.signature.id == "tpu-libtpu-in-use" for h in hits)
        or causes.hosted.TPU_NOT_FOUND not in by_cause
    ):
        return found
    return dataclasses.replace(
        found,
        severity=Severity.ERROR,
        detail=f"{found.detail}\nThis process then found no TPU: the one it would use is "
        "the other process's.",
    )


def _tpu_not_found(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if (
        r.tpu_vm_user_tf is not None
        and any(h.signature.id == "tpu-system-device-missing" for h in hits)
        and (m.tf is None or m.tf.name != "tensorflow-tpu")
    ):
        # On the TPU VM itself, from a TensorFlow the user installed (a virtual environment's,
        # ~/.local's): PyPI's tensorflow registers no TPU device there; its TPU build with
        # libtpu does (Cloud TPU's TensorFlow guide).
        return _tpu_build(m, r, hits)
    return causes.hosted.TPU_NOT_FOUND, causes.hosted.tpu_not_found_fix()


def _gpu_shown(m: Machine, r: Revealed) -> bool:
    """Whether the facts or the log show an NVIDIA GPU: a compute capability, nvidia-smi's
    table (printed only where it lists a GPU), or the machine's view."""
    return bool(r.compute_capability) or r.smi_gpu or m.gpu_presence in ("present", "driver-broken")


class _PipSaid(NamedTuple):
    """One of pip's lines, from its words to the end of what ``match`` read after them."""

    line: str
    match: re.Match[str]


def _pip_said(text: str, pattern: re.Pattern[str], *kinds: PipKind) -> Iterator[_PipSaid]:
    """Each line of ``text`` pip printed of any of ``kinds`` whose words ``pattern`` reads on
    from, in order."""
    for said in read_pip_lines(text, *kinds):
        found = pattern.match(said.rest)
        if found is not None:
            yield _PipSaid(f"{said.words}{said.rest[: found.end()]}".strip(), found)


#: An install run in the notebook's kernel that pins one of TensorFlow's distributions
#: (``!pip install tensorflow==2.6.0``, ``%pip install -q "tensorflow-gpu==1.15"``): the
#: release it asked for, where pip's own list of what it installed is not in the log.
_KERNEL_TF_PIN = re.compile(
    r"^[ \t]*(?:In \[\d*\]: ?)?[!%](?:pip3?|python3? -m pip) install\b[^\n]{0,300}?"
    rf"(?<![\w.-])[\"']?(?P<dist>{PIP_TF_DIST})==(?P<version>\d[\w.]{{0,40}})",
    re.MULTILINE,
)
#: pip about to replace one of TensorFlow's distributions (req_uninstall.py's "Found existing
#: installation: %s" and "Successfully uninstalled %s"), and the pinned release it collected
#: for it (prepare.py's "Collecting %s"): a log cut before pip's final list still shows the
#: replacement. The release pip printed after the name is the one removed.
_PIP_REPLACING_TF = re.compile(rf"(?P<dist>{PIP_TF_DIST})[ -](?P<version>\d[\w.+]{{0,40}})")
_PIP_REPLACING = (PipKind.FOUND_EXISTING, PipKind.UNINSTALLED)
_PIP_COLLECTING_TF = re.compile(rf"(?P<dist>{PIP_TF_DIST})==(?P<version>\d[\w.]{{0,40}})")
#: Colab's pip hook (google.colab's _pip module) after an install in the kernel: the packages
#: the runtime had imported whose files the install replaced, as ``[PIL,tensorflow]``. With
#: ``tensorflow`` there, the install replaced the TensorFlow the runtime ran: the image's.
_RUNTIME_IMPORTED = re.compile(
    r"previously imported in this runtime:[ \t]*\n[ \t]*\[(?P<names>[^\]\n]{0,2000})\]"
)


def _tf_installed_in_log(evidence: Evidence) -> Optional[tuple[str, Optional[str]]]:
    """The TensorFlow distribution, and its release where the log shows it, that the log shows
    installed: pip's "Successfully installed" list, else an install run in the kernel (with
    the release it pins), else pip removing the one there (with the pinned release it
    collected), else Colab's note that the install replaced the tensorflow package
    the runtime had imported."""
    text = evidence.first_text
    found = next(read_tf_installed(text), None)
    if found is not None:
        return found.dist, found.version
    pinned = _KERNEL_TF_PIN.search(text) if "install" in text else None
    if pinned is not None:
        dist = pinned.group("dist")
        return None if _pip_kept(text, dist, pinned.end()) else (dist, pinned.group("version"))
    dist = next((d for d in evidence.kernel_installs if d in TF_DISTRIBUTIONS), None)
    if dist is not None:
        # Only pip's lines after that install's own command are about it: an earlier cell's
        # "Requirement already satisfied" says nothing of what this install did.
        start = kernel_install_end(text, dist)
        kept = start is not None and _pip_kept(text, dist, start)
        return None if kept else (dist, None)
    removing = (
        next(_pip_said(text, _PIP_REPLACING_TF, *_PIP_REPLACING), None)
        if "install" in text
        else None
    )
    if removing is not None:
        collected = next(_pip_said(text, _PIP_COLLECTING_TF, PipKind.COLLECTING), None)
        if collected is not None:
            return collected.match.group("dist"), collected.match.group("version")
        return removing.match.group("dist"), None
    replaced = _RUNTIME_IMPORTED.search(text) if "this runtime" in text else None
    if replaced is not None and "tensorflow" in (
        n.strip() for n in replaced.group("names").split(",")
    ):
        return "tensorflow", None
    return None


def _pip_kept(text: str, dist: str, start: int) -> bool:
    """Whether pip, after ``start`` in ``text``, found TensorFlow's ``dist`` already installed
    ("Requirement already satisfied: tensorflow==2.15.0 in ...") and removed none of
    TensorFlow's distributions: the install run in the kernel changed nothing of
    TensorFlow's."""
    if "Requirement already" not in text:
        return False
    kept = any(
        said.match.group("dist") == dist
        for said in _pip_said(
            text[start:], _PIP_SATISFIED_TF, PipKind.SATISFIED, PipKind.UP_TO_DATE
        )
    )
    return kept and next(_pip_said(text, _PIP_REPLACING_TF, *_PIP_REPLACING), None) is None


def _tf_requirer(evidence: Evidence, dist: str) -> Optional[str]:
    """The package whose install brought TensorFlow's ``dist`` (with its release where pip
    shows it): the one pip collected it for (its "Collecting tensorflow... (from sleap==1.1.5)"
    progress), else the one package the notebook's kernel installs, where that is not one of
    TensorFlow's own, nothing that names no distribution on the line (a requirements file, a
    path, a URL: :func:`kernel_installs_unnamed`) is installed beside it, and pip's list of
    what it installed holds both. None where the log shows neither, or TensorFlow was asked
    for itself."""
    tf = normalize_name(dist)
    by = collected_requirer(evidence.collected, tf)
    if by is not None and by.dist in _TF_NAMES:
        return None  # a wrapper of TensorFlow's own (tensorflow pulling tensorflow-intel)
    if by is not None:
        return f"{by.dist} {by.release}".strip()
    asked = evidence.kernel_installs
    text = evidence.first_text
    if len(asked) != 1 or normalize_name(asked[0]) in _TF_NAMES or kernel_installs_unnamed(text):
        return None
    for said in read_pip_lines(text, PipKind.INSTALLED):
        items = installed_items(said.rest)
        if tf in items and asked[0] in items:
            return f"{asked[0]} {items[asked[0]]}"
    return None


#: TensorFlow's own distributions by their PEP 503 names.
_TF_NAMES = frozenset(normalize_name(d) for d in TF_DISTRIBUTIONS)


#: The dynamic loader refusing an installed package's native extension for a symbol it lacks
#: (glibc's elf/dl-lookup.c prints "undefined symbol: %s"; CPython's ImportError, and
#: TensorFlow's load_op_library NotFoundError, quote it after the file): an extension built
#: against another TensorFlow, or TensorFlow against other libraries, than the ones loaded.
_UNDEFINED_SYMBOL = re.compile(
    r"^[^\n]{0,200}?(?:ImportError|OSError|NotFoundError)\b[^\n]{0,40}?: "
    r"(?P<path>/[^\n:]{1,700}?\.so[.\d]*): "
    r"undefined symbol: (?P<symbol>\S{1,400})",
    re.MULTILINE,
)


#: pip finding one of TensorFlow's distributions installed ("Requirement already satisfied:
#: tensorflow-gpu in SITE (1.0.1)", operations/prepare.py's "Requirement %s: %s (%s)"; pip
#: before 9: "(use --upgrade to upgrade)"; under --upgrade, the legacy resolver's "already
#: up-to-date" up to 20.2), with the version it printed last on the line where it did.
_PIP_SATISFIED_TF = re.compile(
    r"(?: \(use --upgrade to upgrade\))?: "
    rf"(?P<dist>{PIP_TF_DIST})(?:[<>=!~][^\s]{{0,60}})? in "
    r"[^\n]{0,400}?(?:\((?P<version>\d[\w.+]{0,40})\))?[ \t]*$"
)


def _pip_added_beside(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """pip installing one of TensorFlow's distributions where it found another installed
    (a dependant that requires ``tensorflow`` pulled it in beside ``tensorflow-gpu``, as
    Keras 2.0 did): two distributions now write the same ``tensorflow/`` package."""
    head = evidence.first_text
    found_kinds = (PipKind.SATISFIED, PipKind.UP_TO_DATE)
    if _INSTALLED not in head or not any(pip_words(k) in head for k in found_kinds):
        return None
    installed = next(read_tf_installed(head), None)
    if installed is None:
        return None
    added = installed.dist
    for found in _pip_said(head, _PIP_SATISFIED_TF, *found_kinds):
        kept = found.match.group("dist")
        if kept == added or f"{pip_words(PipKind.UNINSTALLED)}{kept}-" in head:
            continue
        seen = {kept: found.match.group("version") or "", added: installed.version}
        if not seen[kept]:
            continue  # no release shown for the one already there: nothing to keep by name
        return distributions_finding(
            seen,
            machine,
            f"{found.line}\n{installed.line}\npip found {kept} "
            f"installed and installed {added} beside it (a package it was asked for requires "
            f"{added} by that name): both write the same `tensorflow/` package. Install the "
            "package that required it with --no-deps where the TensorFlow already there is "
            "the one wanted.",
        )
    return None


#: pip removing the TensorFlow Colab builds for its image (its local version label,
#: ``+zzzcolab`` and the build's date): the notebook replaced the image's own TensorFlow.
_COLAB_BUILD_REMOVED = re.compile(
    r"(?P<dist>tensorflow(?:-gpu)?)-(?P<version>\d+\.\d+(?:\.\d+)?)\+zzzcolab\d{1,20}"
)


def _hosted_tf_replaced(
    evidence: Evidence,
    revealed: Revealed,
    by_cause: dict[str, list[Hits]],
    findings: Mapping[str, Finding],
    m: Machine,
) -> Optional[Finding]:
    """A GPU library failure, or an installed extension's undefined symbol, on a hosted
    notebook (its own paths or its pip hook shown) after the log installs a TensorFlow there:
    the image's CUDA and cuDNN wheels and its companions are built for the image's TensorFlow,
    so the install is why (Colab's runtime FAQ). The GPU finding stays: it says what failed.
    Without such a failure, pip's removal of Colab's own build of TensorFlow is the same
    replacement observed: a warning."""
    removed = (
        next(
            _pip_said(
                evidence.first_text,
                _COLAB_BUILD_REMOVED,
                PipKind.UNINSTALLED,
                PipKind.UNINSTALLING,
            ),
            None,
        )
        if "zzzcolab" in evidence.first_text
        else None
    )
    if removed is not None:
        replaced = _image_build_removed(evidence, revealed, by_cause, findings, removed, m)
        if replaced is not None:
            return replaced
    image = causes.hosted.hosted_image(revealed.notebook)
    installed = _tf_installed_in_log(evidence) if image is not None else None
    if image is not None and installed is None:
        return _image_libraries_unpaired(evidence, by_cause, findings, revealed.notebook, m)
    if image is None or installed is None:
        return None
    failure = _after_install_failure(evidence, by_cause, findings)
    if failure is None:
        return _image_tensorflow_removed(evidence, revealed.notebook, installed, m)
    dist, version = installed
    what = f"{dist} {version}" if version else dist
    return causes.finding(
        f"explain.{causes.hosted.HOSTED_TF_REPLACED}",
        Severity.ERROR,
        causes.hosted.HOSTED_TF_REPLACED,
        f"TensorFlow replaced on {image.title}, whose CUDA, cuDNN and packages are built for "
        "its own",
        failure
        + f"\nThe log installs {what} on {image.title} (its paths show the notebook) before "
        "this failure.",
        causes.hosted.installed_over_image_fix(
            m, image, dist, version, _tf_requirer(evidence, dist)
        ),
    )


def _nightly_gpu_build(
    evidence: Evidence,
    by_cause: Mapping[str, list[Hits]],
    findings: Mapping[str, Finding],
    m: Machine,
) -> Optional[Finding]:
    """A CUDA library or cuDNN of the build that failed (a finding of the image-pairing causes
    held for an error that names a library missing or of another release, not one that
    started and failed; the driver's libcuda left out, which no image carries) where the
    TensorFlow that ran is a nightly build. TensorFlow's nightly image, run with its GPU
    flags and no TensorFlow installed over it: an error, as the image's TensorFlow, CUDA and
    cuDNN were installed together, so the machine's libraries play no part (the flags missing
    are container-no-gpu's; an install over the image replaced the nightly). A nightly the log
    shows otherwise (its own ``__version__``, pip's install): a warning beside the library's
    finding, whose environment is still the user's. None where neither is shown."""
    # A library that loaded and failed to start (a cuDNN handle refused, the GPU's memory
    # taken: gpu-library-init-failed's reading) has the host's candidates first (memory, the
    # driver, the GPU's architecture), which no image tag changes.
    if not any(
        x.cause in _IMAGE_PAIRING_CAUSES
        and x.cause != causes.runtime.GPU_LIBRARY_INIT_FAILED
        and x.severity.rank >= Severity.ERROR.rank
        for x in findings.values()
    ):
        return None
    # The finding may be named after one cause and read from another's lines: every pairing
    # cause's lines are the failure's.
    hits = [
        h
        for c in _IMAGE_PAIRING_CAUSES
        for h in by_cause.get(c, ())
        if not any("libcuda." in line or "nvcuda" in line for _, line in h.citations)
    ]
    text = evidence.first_text
    tf = m.tf
    found = causes.runtime.unreleased_build(tf.version) if tf is not None else None
    nightly = found is not None and found[0] == causes.runtime.TF_BUILD_REGRESSION
    image = tf_nightly_gpu_image(text)
    if image is not None and (
        container_run_without_gpu(text) is not None
        or _tf_installed_in_log(evidence) is not None
        or (tf is not None and tf.version and not nightly)
    ):
        image = None
    if not hits or (image is None and not nightly):
        return None
    if image is None:
        assert tf is not None and found is not None  # a nightly shown
        return causes.unreleased_build_finding(
            m,
            f"explain.{causes.runtime.TF_BUILD_REGRESSION}",
            Severity.WARNING,
            tf.name,
            tf.version,
            summary=f"Or: the nightly build {tf.name} {tf.version} (the other candidate)",
            detail=f"{cite(hits)}\nThe TensorFlow that ran is {tf.name} {tf.version}, a nightly "
            f"build of {found[1]}: a defect of the build fails the same way where the libraries "
            "are right.",
        )
    return causes.finding(
        f"explain.{causes.runtime.TF_BUILD_REGRESSION}",
        Severity.ERROR,
        causes.runtime.TF_BUILD_REGRESSION,
        f"A nightly build of TensorFlow ran ({image}): the failure is the build's",
        f"{cite(hits)}\nThe command runs {image}, TensorFlow's nightly image, with the GPU: the "
        "image's TensorFlow, CUDA and cuDNN were installed together, so a library of the build "
        "missing or refused there is the build's, not the machine's.",
        causes.runtime.nightly_image_fix(image, container_run_tool(text) or "docker"),
    )


#: A CUDA toolkit library or cuDNN installed into the notebook by the system's or conda's
#: package manager (``apt-get install libcudnn8=8.0.5...``, ``conda install cudatoolkit``):
#: the image's libraries replaced rather than its TensorFlow.
_NOTEBOOK_CUDA_INSTALL = re.compile(
    r"\b(?:apt(?:-get)?|conda|mamba|dpkg)\b[^\n]{0,200}?\b(?:install|-i)\b[^\n]{0,300}?"
    r"\b(?:lib)?(?:cudnn|cuda|cublas|cudart|nvidia-cuda)",
)


def _image_libraries_unpaired(
    evidence: Evidence,
    by_cause: Mapping[str, list[Hits]],
    findings: Mapping[str, Finding],
    notebook: Optional[str],
    m: Machine,
) -> Optional[Finding]:
    """A refused cuDNN, or a CUDA library of the build not found, on the hosted ``notebook``
    (``colab``) whose install the log does not show: the image's TensorFlow is built for the
    CUDA and cuDNN the image carries (Colab's runtime FAQ), so a TensorFlow that asks for
    others is not the image's, or the libraries are not. The driver's own libcuda is left
    out: a runtime without a GPU lacks it whatever TensorFlow runs
    (``hosted-runtime-without-gpu``); so is a log whose installs are shown and hold no
    TensorFlow."""
    hits = [
        h
        for c in (causes.gpu.CUDNN_VERSION_MISMATCH, causes.gpu.CUDA_LIBS_MISSING)
        for h in by_cause.get(c, ())
        if f"explain.{c}" in findings
        and findings[f"explain.{c}"].severity.rank >= Severity.ERROR.rank
        and not any("libcuda." in line or "nvcuda" in line for _, line in h.citations)
    ]
    image = causes.hosted.hosted_image(notebook)
    text = evidence.first_text
    if (
        image is None
        or not hits
        or any(
            said in text
            for said in ("Successfully installed", "previously imported in this runtime")
        )
    ):
        # pip's list (or Colab's hook) shows what the notebook installed, and no TensorFlow.
        return None
    libraries = _NOTEBOOK_CUDA_INSTALL.search(text)
    return causes.finding(
        f"explain.{causes.hosted.HOSTED_TF_REPLACED}",
        Severity.ERROR,
        causes.hosted.HOSTED_TF_REPLACED,
        f"TensorFlow and the CUDA libraries of {image.title} do not pair: one was replaced",
        cite(hits)
        + f"\n{image.title} (its paths show the notebook) ships a TensorFlow built for the CUDA "
        "and cuDNN of its image; the TensorFlow that ran asks for others"
        + (
            f" (the notebook installs libraries: {libraries.group(0).strip()})."
            if libraries is not None
            else ", so it is not the image's."
        ),
        causes.hosted.installed_over_image_fix(m, image, None, None),
    )


#: Colab's own notice that the kernel process died without a Python exception (a native
#: crash; its RAM notice says "after using all available RAM" instead).
_COLAB_KERNEL_DIED = re.compile(r"^Your \w+ crashed for an unknown reason\.?", re.MULTILINE)

#: The causes of TensorFlow 1's API missing under TensorFlow 2.
TF1_API_GONE = (causes.code.API_MOVED_TO_COMPAT_V1, causes.code.TF_CONTRIB_REMOVED)


def _image_tf_removed(text: str) -> Optional[_PipSaid]:
    """pip's first line removing a TensorFlow an image could have shipped (a release of
    tensorflow or its -gpu/-cpu name, never a nightly): "Found existing installation" or
    "Successfully uninstalled". None where pip removed none."""
    if "install" not in text:
        return None
    return next(
        (
            said
            for said in _pip_said(text, _PIP_REPLACING_TF, *_PIP_REPLACING)
            if not said.match.group("dist").startswith("tf-nightly")
        ),
        None,
    )


def _tf_release_replaced(evidence: Evidence) -> Optional[tuple[str, str]]:
    """The TensorFlow release pip removed (one an image could have shipped:
    :func:`_image_tf_removed`) and the other release the log shows installed in its place,
    both as pip printed them. None where either is not shown, or the same release was put
    back (a local label, ``+zzzcolab...``, names a build of the same release)."""
    removed = _image_tf_removed(evidence.first_text)
    installed = _tf_installed_in_log(evidence) if removed is not None else None
    if removed is None or installed is None or installed[1] is None:
        return None
    before, after = removed.match.group("version"), installed[1]
    return None if before.split("+")[0] == after.split("+")[0] else (before, after)


def tf1_replaced_by_tf2(evidence: Evidence) -> Optional[tuple[str, str]]:
    """The TensorFlow 1 release pip removed and the TensorFlow 2 (or later) one the log shows
    installed in its place, both as pip printed them: TensorFlow 1's API (``tf.Session``,
    ``tf.contrib``) was there before the install and is gone after it, so the install, not
    the code, is why it is missing. None where either release is not shown."""
    replaced = _tf_release_replaced(evidence)
    if replaced is None:
        return None
    before, after = replaced
    if version_key(before)[:1] != (1,) or version_key(after)[:1] < (2,):
        return None
    return replaced


#: Keras by its PEP 503 name: the standalone package an image ships beside its TensorFlow
#: (TensorFlow 2.6 to 2.15 take their tf.keras from it).
_KERAS = "keras"


def keras_left_by_replacement(evidence: Evidence) -> Optional[tuple[str, str]]:
    """The TensorFlow release pip removed and the other one it installed in its place
    (:func:`_tf_release_replaced`), where the log shows no Keras installed (pip's
    "Collecting keras...", its "Successfully installed" lists, an install run in the kernel):
    the Keras there is the one installed with the removed release, so a Keras asking the new
    TensorFlow for what it lacks was left behind by the replacement. None otherwise."""
    replaced = _tf_release_replaced(evidence)
    if replaced is None or _KERAS in evidence.kernel_installs:
        return None
    text = evidence.first_text
    for said in read_pip_lines(text, PipKind.COLLECTING, PipKind.INSTALLED):
        if said.kind is PipKind.INSTALLED:
            named = set(installed_items(said.rest))
        else:
            named = {normalize_name(re.split(r"[\s<>=!~\[;(]", said.rest.strip(), maxsplit=1)[0])}
        if _KERAS in named:
            return None
    return replaced


def _lines_once(hits: Sequence[Hits]) -> list[Hits]:
    """``hits`` less those whose every cited line an earlier one cites: one line of the log
    read by the signatures of two causes ("DNN library is not found" for a cuDNN not loaded
    and for one refused) is cited once."""
    seen: set[tuple[str, str]] = set()
    out = []
    for hit in hits:
        cited = set(hit.citations)
        if cited and cited <= seen:
            continue
        seen |= cited
        out.append(hit)
    return out


def _after_install_failure(
    evidence: Evidence,
    by_cause: Mapping[str, list[Hits]],
    findings: Mapping[str, Finding],
) -> Optional[str]:
    """The failure a TensorFlow installed over a hosted image's shows, cited: a GPU library
    the reading holds for an error (a refused cuDNN, a handle that failed, "DNN library is not
    found", a CUDA library not found: not CUDA's start-up probe on a runtime without a GPU),
    or an installed extension whose symbol the loaded libraries lack, or Colab's notice that
    the kernel died without an exception. None where none of these."""
    failed = any(
        x.cause in _IMAGE_PAIRING_CAUSES and x.severity.rank >= Severity.ERROR.rank
        for x in findings.values()
    )
    # The finding may be named after one cause and read from another's lines ("DNN library
    # is not found" with a refused cuDNN): every pairing cause's lines are the failure's.
    hits = [h for c in _IMAGE_PAIRING_CAUSES for h in by_cause.get(c, ())] if failed else []
    if hits:
        return cite(_lines_once(hits))
    text = evidence.first_text
    missing = next(
        (
            m
            for m in (_UNDEFINED_SYMBOL.finditer(text) if "undefined symbol" in text else ())
            # An installed package's extension, not a program built from a checkout.
            if re.search(r"/(?:site|dist)-packages/", m.group("path"))
        ),
        None,
    )
    if missing is None:
        crashed = _COLAB_KERNEL_DIED.search(text) if "crashed for an unknown" in text else None
        if crashed is None or "install" not in text[: crashed.start()]:
            # (a crash before the install is not the install's)
            return _refused_after_install(evidence, by_cause, findings)
        return (
            f"{_cite_head(evidence, [crashed.group(0)]) or crashed.group(0)}\nThe notebook's "
            "kernel died without a Python exception: a native library of the installed "
            "TensorFlow failed beside the image's own."
        )
    return (
        f"{_cite_head(evidence, [missing.group(0)]) or missing.group(0)}\nThe installed "
        f"extension {missing.group('path')} needs {missing.group('symbol')}, which the "
        "libraries loaded beside it lack: they are of another release."
    )


#: Where a cited line is (:func:`tfdoctor.explain.common.cite`: ``line 12: ``, ``cell 3, line
#: 4: ``), before the line itself.
_CITED_WHERE = re.compile(r"^(?:[^\n:]{0,200}, )?line \d+: ")


def _installed_before(text: str, said: str) -> bool:
    """Whether ``text`` shows an install before the first line ``said`` cites; a line not in
    ``text`` (past the log's head, or a finding's words rather than the log's) is after it."""
    line = _CITED_WHERE.sub("", said.split("\n", 1)[0]).strip()
    at = text.find(line) if line else -1
    return "install" in (text if at < 0 else text[:at])


def _refused_after_install(
    evidence: Evidence,
    by_cause: Mapping[str, list[Hits]],
    findings: Mapping[str, Finding],
) -> Optional[str]:
    """A companion refusing the TensorFlow installed (the image's companions are built for the
    image's release), or TensorFlow 1's API gone where pip shows the install put TensorFlow 2
    in place of the image's TensorFlow 1 (:func:`tf1_replaced_by_tf2`), cited from the
    symptom's own finding. None where neither is held for an error."""
    api_gone = any(f"explain.{c}" in findings for c in TF1_API_GONE)
    tf1 = tf1_replaced_by_tf2(evidence) if api_gone else None
    keras = (
        keras_left_by_replacement(evidence)
        if f"explain.{causes.software.KERAS_VERSION}" in findings
        else None
    )
    symptoms = [
        causes.software.COMPANION_MISMATCH,
        *(TF1_API_GONE if tf1 is not None else ()),
        *((causes.software.KERAS_VERSION,) if keras is not None else ()),
    ]
    for cause in symptoms:
        found = findings.get(f"explain.{cause}")
        if found is None or found.severity.rank < Severity.ERROR.rank:
            continue
        hits = by_cause.get(cause, [])
        said = cite(hits) if hits else found.detail.split("\n", 1)[0]
        if not _installed_before(evidence.first_text, said):
            continue  # (an install after the failure may be the user's try at a fix)
        if cause == causes.software.COMPANION_MISMATCH:
            return (
                f"{said}\nA companion refuses the TensorFlow installed: the image's own "
                "companions are built for the image's TensorFlow release."
            )
        if cause == causes.software.KERAS_VERSION:
            assert keras is not None  # (Keras is a symptom only with it)
            return (
                f"{said}\nThe image's Keras came with its TensorFlow: pip removed TensorFlow "
                f"{keras[0]} and installed {keras[1]}, and installed no Keras in step with it."
            )
        assert tf1 is not None  # (the TensorFlow 1 causes are symptoms only with it)
        return (
            f"{said}\nTensorFlow 1's API was there before the install: pip removed TensorFlow "
            f"{tf1[0]} and installed {tf1[1]}, which no longer has it."
        )
    return None


def _image_build_removed(
    evidence: Evidence,
    revealed: Revealed,
    by_cause: dict[str, list[Hits]],
    findings: Mapping[str, Finding],
    removed: _PipSaid,
    m: Machine,
) -> Optional[Finding]:
    """pip removing Colab's own build of TensorFlow (``removed``), with what it installed in
    its place where the log shows it: an error where the GPU's libraries fail after it, else a
    warning. None where another hosted notebook's paths are shown."""
    image = causes.hosted.hosted_image(revealed.notebook or "colab")
    if image is None or image.name != "colab":
        return None
    failure = _after_install_failure(evidence, by_cause, findings)
    installed = _tf_installed_in_log(evidence)
    dist, version = installed if installed is not None else (removed.match.group("dist"), None)
    if version is not None and "+zzzcolab" in version:
        # A local version label is not for public indexes (PEP 440; PyPI refuses uploads with
        # one): only the image's own wheel carries it.
        return None  # Colab's own build put back: nothing replaced
    shown = f"{dist} {version}" if version else "another TensorFlow"
    said = (
        f"{removed.line}\npip removed the TensorFlow {removed.match.group('version')} "
        f"that {image.title} builds for its image (its +zzzcolab label) and installed {shown} "
        "in its place"
    )
    if failure is not None:
        return causes.finding(
            f"explain.{causes.hosted.HOSTED_TF_REPLACED}",
            Severity.ERROR,
            causes.hosted.HOSTED_TF_REPLACED,
            f"TensorFlow replaced on {image.title}, whose CUDA, cuDNN and packages are built for "
            "its own",
            f"{failure}\n{said}, before this failure.",
            causes.hosted.installed_over_image_fix(
                m, image, dist, version, _tf_requirer(evidence, dist)
            ),
        )
    return causes.finding(
        f"explain.{causes.hosted.HOSTED_TF_REPLACED}",
        Severity.WARNING,
        causes.hosted.HOSTED_TF_REPLACED,
        f"The notebook replaced the TensorFlow {image.title} ships",
        f"{said}: the image's CUDA and cuDNN libraries and its other packages are built and "
        "tested with its own TensorFlow, and stay as they were.",
        causes.hosted.installed_over_image_fix(
            m, image, dist, version, _tf_requirer(evidence, dist)
        ),
    )


def _image_tensorflow_removed(
    evidence: Evidence, notebook: Optional[str], installed: tuple[str, Optional[str]], m: Machine
) -> Optional[Finding]:
    """pip removing the TensorFlow the hosted ``notebook``'s image had and installing another
    release, with no failure after it: the replacement observed, a warning (the image's CUDA
    and cuDNN wheels and its add-ons stay at its own release). None where pip's removal is not
    shown, or it put the same release back."""
    said = _image_tf_removed(evidence.first_text)
    dist, version = installed
    image = causes.hosted.hosted_image(notebook)
    if image is None or said is None or version is None or _tf_release_replaced(evidence) is None:
        return None  # the same release put back (a ``+zzzcolab...`` build of it included)
    removed = said.match
    return causes.finding(
        f"explain.{causes.hosted.HOSTED_TF_REPLACED}",
        Severity.WARNING,
        causes.hosted.HOSTED_TF_REPLACED,
        f"The notebook replaced the TensorFlow {image.title} ships",
        f"{said.line}\npip removed TensorFlow {removed['version']} from "
        f"{image.title} (its paths show the notebook) and installed {dist} {version}: the "
        "image's CUDA and cuDNN libraries and its other packages are built and tested with "
        "its own TensorFlow, and stay as they were.",
        causes.hosted.installed_over_image_fix(
            m, image, dist, version, _tf_requirer(evidence, dist)
        ),
    )


def _kernel_kept_release(evidence: Evidence, revealed: Revealed) -> Optional[Finding]:
    """TensorFlow's version echoed after pip replaced it, naming the release pip removed
    (:func:`tfdoctor.evidence.packages.read_stale_import`): the process that echoed it had
    imported TensorFlow before the install, and a module once imported stays in it until
    the interpreter restarts."""
    stale = read_stale_import(evidence.first_text)
    if stale is None:
        return None
    image = causes.hosted.hosted_image(revealed.notebook)
    menu = (
        "the Runtime menu's restart in Colab"
        if revealed.notebook == "colab"
        else f"{image.restart}, on {image.title}"
        if image is not None
        else "Kernel > Restart Kernel in Jupyter, the Runtime menu's restart in Colab, or a new "
        "Python process"
    )
    return causes.finding(
        f"explain.{causes.notebook.KERNEL_RESTART_NEEDED}",
        Severity.ERROR,
        causes.notebook.KERNEL_RESTART_NEEDED,
        f"pip installed TensorFlow {stale.installed}, yet the running process still reports "
        f"{stale.removed}",
        f"{stale.echoed}\n"
        + (
            f"pip removed TensorFlow {stale.removed} and installed {stale.installed}"
            if stale.removal_shown
            else f"pip installed TensorFlow {stale.installed} into the kernel's own interpreter "
            "(the note the notebook prints after such a run says so)"
        )
        + "; the process that printed this version had imported TensorFlow "
        "before the install, and keeps the release it loaded until it restarts.",
        causes.notebook.restart_fix(menu),
    )


def _settle_hosted_python(
    revealed: Revealed, machine: Machine, findings: dict[str, Finding]
) -> None:
    """A TensorFlow release pinned on a hosted notebook whose Python its wheels do not serve:
    the fix gains the image's runtime version whose Python they do (the Python comes with
    the runtime there: a new virtual environment of another Python is not at hand), and,
    where the log shows a GPU, whether the release finds its CUDA on that runtime."""
    image = causes.hosted.hosted_image(revealed.notebook)
    pinned = next(
        (
            v
            for x in revealed.pip_refusals
            if x.dist in TF_DISTRIBUTIONS and (v := requested_version(x.spec)) is not None
        ),
        None,
    )
    if image is None or not image.releases or pinned is None:
        return
    words = causes.hosted.hosted_python_words(machine, image, pinned, _gpu_shown(machine, revealed))
    for key, found in list(findings.items()):
        if found.cause == causes.platform.TF_RELEASE_NOT_FOR_PYTHON and words and found.fix:
            fix = Fix(f"{found.fix.text} {words}", found.fix.commands)
            findings[key] = dataclasses.replace(found, fix=fix)
