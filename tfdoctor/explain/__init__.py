"""``tfdoctor explain``: a pasted TensorFlow log as evidence for the catalogue of causes.

The log is scanned for known signatures (:mod:`tfdoctor.signatures`); what it reveals (the
TensorFlow, CUDA and cuDNN versions, the GPU's compute capability, the operating system, the
Python) becomes a :class:`~tfdoctor.facts.Facts` holding only that, merged into a machine's
facts when those are given; each recognised cause becomes one finding whose fix comes from the
catalogue's builder applied to that machine view, so a fix never assumes more than is known.
Benign noise becomes ``info`` findings that say why it is harmless.

Finding ids: ``explain.<cause>`` for a cause, ``explain.benign.<signature>`` for noise,
``explain.no-signature`` when nothing is recognised, ``explain.unexplained-exception`` for a
Python exception no cause explains (docs/findings.md).

How a block of the log is read (:func:`scan`), so that a long log costs a few passes in C:
its lines are split once into shapes (every digit read as 0, :func:`_shapes`); every literal
(the signatures' folded keywords, the tflog families') is searched for in the distinct shapes
only (:func:`_candidates`); the lines to visit are worked out from those shapes
(:func:`_visits`): every line of a shape whose literals decide nothing alone, the first lines
of a shape whose signatures cannot tell one digit from another (the rest of them only
counted), and the lines that hold a literal with digits, found in the text by one search each.
The other readers' gates (``word in text``) ask the same shapes first (:class:`_Shaped`).
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime
import functools
import importlib
import itertools
import operator
import os
import re
import shlex
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Callable, NamedTuple, Optional

from tfdoctor import causes
from tfdoctor.bounded import size_text
from tfdoctor.causes import observed
from tfdoctor.compat import (
    PTX,
    carries_machine_code,
    cuda_driver_floor,
    first_keras3_line,
    gpu_code,
    of_tf_keras_only,
)
from tfdoctor.evidence import tflog
from tfdoctor.evidence.cluster import (
    TASK,
    channel_hosts,
    looked_up,
    nccl_mismatched_ranks,
    read_cluster_evidence,
)
from tfdoctor.evidence.conda import (
    CONDA_TENSORFLOW,
    CondaInfo,
    CondaRow,
    UnresolvedSpec,
    conda_channels,
    conda_installed,
    read_conda_env,
    read_conda_info,
    read_env_file,
    read_pypi_excluded,
    read_unresolved_specs,
)
from tfdoctor.evidence.devices import (
    MAX_LISTINGS,
    DeviceListing,
    apptainer_shown,
    container_hostname,
    container_run_tool,
    container_run_without_gpu,
    container_shares_host_python,
    container_shown,
    gpus_listed,
    host_packager,
    kernel_refused_attrs,
    read_device_listings,
    sagemaker_instance_type,
    tf_cpu_image,
    tf_image_release,
    tpu_vm_hostname,
    unix_prompt,
    visible_devices_set,
    wsl1_shown,
)
from tfdoctor.evidence.frameworks import read_frameworks
from tfdoctor.evidence.frozen import frozen_shown
from tfdoctor.evidence.gpumemory import read_gpu_memory
from tfdoctor.evidence.imports import imported_before_tensorflow
from tfdoctor.evidence.installer import Installer, log_installer, read_installer
from tfdoctor.evidence.interpreter import Interpreter, read_interpreter
from tfdoctor.evidence.macos import (
    APPLE,
    INTEL,
    dyld_refused,
    dyld_tried,
    mac_shown,
    python_machine,
    uname_darwin,
)
from tfdoctor.evidence.nodejs import read_tfjs_node_package, rejoin_addon_paths
from tfdoctor.evidence.packages import (
    MAX_CONFLICTS,
    MAX_REQUESTS,
    PIP_TF_REMOVED,
    CondaMissingRelease,
    CondaPythonConflict,
    Conflict,
    ImportCheck,
    InstallRequest,
    NumpyBuild,
    Unavailable,
    mo_check_outcome,
    plugin_dist,
    read_conda_missing_releases,
    read_conda_python_conflicts,
    read_conda_rows,
    read_conflicts,
    read_echoed_versions,
    read_import_checks,
    read_install_requests,
    read_kernel_installs,
    read_listed_versions,
    read_numpy_builds,
    read_pip_installed,
    read_pip_shown,
    read_shown_packages,
    read_stale_import,
    read_unavailable,
    tf_installer,
)
from tfdoctor.evidence.pip import (
    MAX_COLLECTED,
    MAX_REFUSALS,
    AbiTagsFound,
    Collected,
    PipKind,
    PipRefusal,
    PlatformsFound,
    PythonRefusal,
    SourceBuild,
    VersionsSetAside,
    WheelRefusal,
    build_folder_system,
    pip_words,
    read_abi_hints,
    read_collected,
    read_first_platform,
    read_machine,
    read_missing_wheel,
    read_pip_line,
    read_pip_lines,
    read_platform_hints,
    read_python_64bit,
    read_python_refusals,
    read_refusals,
    read_set_aside_hints,
    read_source_builds,
    read_unmatched,
    read_wheel_files_installed,
    read_wheel_refusal,
    read_wheel_refusals,
    requested_version,
)
from tfdoctor.evidence.progress import WentOn, crash_shown, read_went_on
from tfdoctor.evidence.servers import server_frame, server_line
from tfdoctor.evidence.stated import (
    STATED_READ,
    Stated,
    failing_run_names,
    read_gpu_complaint,
    read_slow_start,
    read_stated,
)
from tfdoctor.evidence.tflog import cudnn_dotted, library_of
from tfdoctor.evidence.traceback import (
    MAX_INTERPRETERS,
    MAX_MODULE_ORIGINS,
    MAX_TRACEBACKS,
    Frame,
    Inferred,
    PackageCode,
    Traceback,
    cut_import,
    egg_releases,
    failing_package,
    failures,
    import_statements,
    installed_package,
    interpreter_prefix,
    interpreters,
    keras_importer,
    module_origins,
    op_loader_in,
    origin_of,
    path_hints,
    python_command,
    read_python_shown,
    read_tracebacks,
)
from tfdoctor.explain.cpu_machine import cuda_probe_only, gpu_wanted
from tfdoctor.explain.devices import unlisted_gpu_findings
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
from tfdoctor.explain.installers import locked_without_wrapper, unavailable_findings
from tfdoctor.explain.keras_versions import (
    keras_release_in_words,
    multi_backend_keras_finding,
)
from tfdoctor.explain.modules import TF_OWN, requested_findings
from tfdoctor.explain.packages import (
    conda_pip_side_by_side,
    conda_pip_tensorboards,
    distributions_finding,
    distributions_fix,
    internal_caller,
    internal_caller_fix,
    log_packages,
    numpy_extension_package,
    package_findings,
    refused_fallback_findings,
    resolver_python_findings,
    tf_keras_generation,
    went_on_note,
)
from tfdoctor.explain.reader import LogReader, LogText
from tfdoctor.explain.syntax import compile_error_at_newer_syntax
from tfdoctor.explain.tensorboard import tensorboard_findings
from tfdoctor.explain.unshown import cut_import_finding, unshown_caller_candidate
from tfdoctor.facts import (
    TF_DISTRIBUTIONS,
    DriverFacts,
    Facts,
    GpuFacts,
    PackageFacts,
    TensorFlowFacts,
    TFStatus,
    normalize_name,
)
from tfdoctor.findings import Finding, Fix, Report, Severity, keep_weightier
from tfdoctor.machine import LogHints, Machine
from tfdoctor.matrix import Matrix, parse_arch, spec_contains, version_key
from tfdoctor.modules import distribution_of, modules
from tfdoctor.records import Record, record
from tfdoctor.signatures import (
    ABI_TAG,
    BARE_INIT_ERROR,
    BAZEL_WORDS,
    BENIGN,
    DEEPMD_BUILD,
    DESCRIPTOR_CLASH,
    DIRECTML_WORDS,
    EMULATOR,
    EVIDENCE,
    FORKED,
    GENCODE_CHECK,
    GOES_ON,
    INDEX_NOT_PYPI,
    INDEX_UNREAD,
    KFD_NODE,
    LOADER_LINE,
    MACOS_WORDS,
    MODULE_KEY_REFUSED,
    NOUVEAU_HOLDS_GPU,
    NUITKA_WORDS,
    ONE_RELEASE,
    PATTERN_PARTS,
    PROCESS_ENDED,
    PROTO3_OPTIONAL,
    REASON_CUT,
    REMOVED_API,
    ROCM_WORDS,
    SETUPTOOLS_WORDS,
    TF_DISTRIBUTION,
    TFLITE_WORDS,
    WINDOWS_WORDS,
    Signature,
    Signatures,
)
from tfdoctor.wheel_index import python_span, releases_of
from tfdoctor.wheel_tags import MANYLINUX1_GLIBC, manylinux_name, tag_os, wheel_platform_tags

#: Citations kept per signature (the first lines it matched).
CITATIONS = 3
#: The most log lines handed to the facts' ``log_errors``.
MAX_LOG_ERRORS = 40
#: How much of the log (its first characters) is searched for what TensorFlow answered about
#: its devices.
DEVICES_READ = 4 << 20
#: The characters of a log searched for import statements, and the most kept.
STATEMENTS_READ = 1 << 20
MAX_STATEMENTS = 20
#: The most events of TensorFlow's log lines kept (a failure repeated on every step of a long
#: run says no more the thousandth time).
MAX_EVENTS = 500

_SEVERITY = {"info": Severity.INFO, "warning": Severity.WARNING, "error": Severity.ERROR}


@dataclasses.dataclass
class Hits:
    """What one signature matched: how often, the first lines, their named groups."""

    signature: Signature
    count: int = 0
    first: int = 0
    citations: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    groups: list[dict[str, str]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Evidence:
    """Every signature's hits, in order of first appearance, and the lines read."""

    hits: dict[str, Hits] = dataclasses.field(default_factory=dict)
    lines: int = 0
    #: The Python exceptions in the log, with their frames (:mod:`tfdoctor.evidence.traceback`).
    tracebacks: list[Traceback] = dataclasses.field(default_factory=list)
    #: pip's refusals with the releases it could see (:mod:`tfdoctor.evidence.pip`).
    refusals: list[PipRefusal] = dataclasses.field(default_factory=list)
    #: Wheel files pip refused for this interpreter or platform.
    wheel_refusals: list[WheelRefusal] = dataclasses.field(default_factory=list)
    #: Platform wheels pip installed from a file the command named: (file, dist, version).
    wheel_files: list[tuple[str, str, str]] = dataclasses.field(default_factory=list)
    #: The platform tag of the first tag `pip debug` lists: the interpreter's own.
    tags_platform: Optional[str] = None
    #: The machine's architecture as uname or platform.platform() names it (``aarch64``).
    machine: Optional[str] = None
    #: Whether the interpreter's banner shows a 64-bit build (evidence.pip.read_python_64bit).
    python_64bit: bool = False
    #: The interpreter pip's tags or its banner show (evidence.interpreter.read_interpreter).
    interpreter: Optional[Interpreter] = None
    #: The version ``python --version`` printed, where the log shows it asked.
    python_shown: Optional[str] = None
    #: Requirements pip found broken, and companions' verdicts on the TensorFlow they found
    #: (:mod:`tfdoctor.evidence.packages`).
    conflicts: list[Conflict] = dataclasses.field(default_factory=list)
    import_checks: list[ImportCheck] = dataclasses.field(default_factory=list)
    #: Extension modules NumPy refused for the C API or ABI they were built for.
    numpy_builds: list[NumpyBuild] = dataclasses.field(default_factory=list)
    #: Releases pip built from their source archive, and failed to (:mod:`tfdoctor.evidence.pip`).
    source_builds: list[SourceBuild] = dataclasses.field(default_factory=list)
    #: Requirements no candidate of the package declaring them could meet, in pip's resolver's
    #: words (:mod:`tfdoctor.evidence.packages`).
    unavailable: list[Unavailable] = dataclasses.field(default_factory=list)
    #: The requirements pip collected, with the release whose file it chose for each.
    collected: list[Collected] = dataclasses.field(default_factory=list)
    #: Releases pip refused for their Requires-Python (:mod:`tfdoctor.evidence.pip`).
    python_refusals: list[PythonRefusal] = dataclasses.field(default_factory=list)
    abi_hints: list[AbiTagsFound] = dataclasses.field(default_factory=list)
    #: uv's hints naming the platform tags a release's wheels have (:mod:`tfdoctor.evidence.pip`).
    platform_hints: list[PlatformsFound] = dataclasses.field(default_factory=list)
    #: uv's hints that a requirement's releases exist but were set aside (another index, the
    #: exclude-newer cutoff, pre-releases not enabled; :mod:`tfdoctor.evidence.pip`).
    set_aside: list[VersionsSetAside] = dataclasses.field(default_factory=list)
    #: Some block names WSL 2's own paths or kernel (/usr/lib/wsl/, -microsoft-standard).
    wsl: bool = False
    #: Versions a session printed when asked (``tf.__version__``), by distribution.
    echoed: dict[str, str] = dataclasses.field(default_factory=dict)
    #: The versions a pasted package listing gives TensorFlow and its step-locked companions.
    listed: dict[str, str] = dataclasses.field(default_factory=dict)
    #: Every distribution a `pip show` in the log printed, with its version.
    shown: dict[str, str] = dataclasses.field(default_factory=dict)
    #: What TensorFlow's own log lines report (:mod:`tfdoctor.evidence.tflog`), each with
    #: where it is in the log (``line 12``, ``cell 3, line 4``).
    events: list[tuple[str, tflog.Event]] = dataclasses.field(default_factory=list)
    #: Where the first line TensorFlow's own logger wrote from its source files is: the
    #: process that wrote the log imported TensorFlow.
    tf_logged_at: Optional[str] = None
    #: What TensorFlow answered when asked for its devices (:mod:`tfdoctor.evidence.devices`),
    #: each with where it is.
    devices: list[tuple[str, DeviceListing]] = dataclasses.field(default_factory=list)
    #: The operating system the text around those answers implies (a prompt, a path), read only
    #: where the log holds such an answer.
    os_near_devices: Optional[Inferred] = None
    #: The operating system a shell prompt anywhere in the log implies (``C:\\Users\\x>``).
    os_of_prompt: Optional[Inferred] = None
    #: A Unix shell's prompt near them (not native Windows), read likewise.
    prompt_near_devices: Optional[str] = None
    #: How many characters of the log were searched for those answers.
    devices_read: int = 0
    #: Import statements the log shows outside tracebacks (a session's input), with where.
    statements: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    #: Distributions the log installs from inside a running notebook kernel (``!pip install``).
    kernel_installs: list[str] = dataclasses.field(default_factory=list)
    #: The first ``docker run`` (or ``podman run``) the log shows that hands the container no
    #: GPU, if any, as (the tool, the command).
    docker_run_without_gpu: Optional[tuple[str, str]] = None
    #: The value CUDA_VISIBLE_DEVICES is set to where the head of the log sets it.
    visible_devices: Optional[str] = None
    #: A kernel look-up found a kernel of the op for a device the process registered, and
    #: none that takes the attributes asked (:func:`kernel_refused_attrs`).
    kernel_refused_attrs: bool = False
    #: Modules the log prints as objects, with the file each was imported from.
    modules: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    #: TensorFlow's packages as a pasted ``conda list`` shows them.
    conda_rows: list[CondaRow] = dataclasses.field(default_factory=list)
    #: How many characters of the log were searched for them.
    statements_read: int = 0
    #: conda's solver finding no build of a TensorFlow release for the environment's Python.
    conda_conflicts: list[CondaPythonConflict] = dataclasses.field(default_factory=list)
    #: Pinned TensorFlow releases conda's channels lack (PackagesNotFoundError).
    conda_missing: list[CondaMissingRelease] = dataclasses.field(default_factory=list)
    #: Python executables the log's head names (``sys.executable``, ``which python``).
    interpreters: list[str] = dataclasses.field(default_factory=list)
    #: The log's head speaks of Jupyter (a notebook, its kernel, ipykernel).
    jupyter: bool = False
    #: The log names Apple's tensorflow-metal plugin (installed, loading, or its device line).
    metal_shown: bool = False
    #: The machine as the user's issue form states it, and their sentence that TensorFlow does
    #: not use the GPU, with where (:mod:`tfdoctor.evidence.stated`), from the log's head.
    stated: Stated = dataclasses.field(default_factory=Stated)
    #: The head of the log's first block (what the user wrote around the lines pasted), and
    #: that block (for where a line of it is).
    first_text: str = ""
    first_block: Optional[LogText] = None
    gpu_complaint: Optional[tuple[str, str]] = None
    #: The user's sentence that the program's start takes long, with where.
    slow_start: Optional[tuple[str, str]] = None
    #: The TensorFlow.js for Node package the log names first (``tfjs-node-gpu``), if any.
    tfjs_node_package: Optional[str] = None
    #: Packages a program said must be installed, with where (:mod:`tfdoctor.evidence.packages`).
    install_requests: list[tuple[str, InstallRequest]] = dataclasses.field(default_factory=list)
    #: The first line showing an active conda environment (its prompt, a path in its
    #: directory, ``conda activate``), with where (:mod:`tfdoctor.evidence.conda`).
    conda_env: Optional[tuple[str, str]] = None
    #: The specs conda's ResolvePackageNotFound lists, the packages pixi's PyPI resolver
    #: excluded for want of a compatible wheel, and the environment file a command named
    #: (:mod:`tfdoctor.evidence.conda`).
    unresolved: list[UnresolvedSpec] = dataclasses.field(default_factory=list)
    pypi_excluded: list[str] = dataclasses.field(default_factory=list)
    env_file: Optional[str] = None
    #: The first ``conda info`` block listing virtual packages, with where.
    conda_info: Optional[tuple[str, CondaInfo]] = None
    #: The log shows a program frozen by PyInstaller (:mod:`tfdoctor.evidence.frozen`).
    frozen: bool = False
    #: The first line a server, task queue or thread printed as it served or failed
    #: (:mod:`tfdoctor.evidence.servers`), "" where none.
    server_line: str = ""
    #: The first line showing the run's work done (an epoch to its end, a model saved, tests
    #: passed), with where (:mod:`tfdoctor.evidence.progress`); and whether the process is
    #: shown ending in a crash (an abort, a fatal signal) that no traceback records.
    went_on: Optional[tuple[str, WentOn]] = None
    crashed: bool = False
    #: The packages pip's conflicts and the companions' import checks named before that line
    #: (a conflict's dependency, a checking companion): the work done refutes only what was
    #: shown before it, not a notice printed after (a save or an evaluation that followed).
    named_before_work: frozenset[str] = frozenset()
    #: The packages of :data:`_CONDA_ASKED` the log shows conda installed.
    conda_installed: frozenset[str] = frozenset()
    #: The channel ``conda list`` shows for each of them it lists (empty: the defaults).
    conda_channels: dict[str, str] = dataclasses.field(default_factory=dict)

    def logged(self, kind: type[tflog.E]) -> list[tuple[str, tflog.E]]:
        """The events of one kind, with where each is."""
        return [(where, e) for where, e in self.events if isinstance(e, kind)]

    def values(self, group: str, evidence_only: bool = False) -> list[str]:
        """Every distinct value a named group took, in order of appearance (``evidence_only``:
        from lines that state a fact, not from errors that name a version they want)."""
        out: list[str] = []
        for hit in sorted(self.hits.values(), key=lambda h: h.first):
            if evidence_only and hit.signature.cause != EVIDENCE:
                continue
            for groups in hit.groups:
                value = groups.get(group)
                if value and value not in out:
                    out.append(value)
        return out

    def first(self, group: str, evidence_only: bool = False) -> Optional[str]:
        """The first value a named group took."""
        values = self.values(group, evidence_only)
        return values[0] if values else None

    def cited_lines(self) -> list[str]:
        """The cited lines of every signature, in order of first appearance."""
        return [
            line
            for hit in sorted(self.hits.values(), key=lambda h: h.first)
            for _, line in hit.citations
        ]


#: The packages whose installer a fix asks about: JAX's (conda-forge builds jax and jaxlib
#: together; pip's would mix into conda's, causes.software.jax_release_fix) and TensorFlow's
#: (reinstalled by conda where conda installed it, :func:`tf_installer`), and h5py's and
#: libhdf5's (installed again from the channel they came from, hdf5_mismatch_fix).
_CONDA_ASKED = frozenset({"jax", "jaxlib", "h5py", "hdf5", *CONDA_TENSORFLOW})


#: What WSL 2 shows of itself: the directory of the Windows driver's libraries it mounts, its
#: kernel's release (``-microsoft-standard`` since the 4.19 kernels, ``-microsoft-standard-WSL2``
#: since 5.10: the WSL2-Linux-Kernel's CONFIG_LOCALVERSION; WSL 1's is ``-Microsoft``), and the
#: paravirtualised GPU's device node, which only WSL 2 has.
#: https://learn.microsoft.com/windows/wsl/compare-versions
#: https://github.com/microsoft/WSL2-Linux-Kernel/blob/linux-msft-wsl-5.15.y/arch/x86/configs/config-wsl
#: libd3d12.so and libdxcore.so are the Direct3D 12 and DXCore user-mode libraries WSL 2
#: mounts from Windows into /usr/lib/wsl/lib (NVIDIA's CUDA on WSL guide; Microsoft's
#: DirectX on WSL notes): a loader line naming one shows WSL as surely as the folder does.
_WSL_WORDS = (
    "/usr/lib/wsl/",
    "-microsoft-standard",
    "/dev/dxg",
    "libd3d12.so",
    "libdxcore.so",
)


#: Words only Jupyter's world prints (its name, its kernel package, IPython's cells), found
#: by a plain search (a pattern with no literal prefix costs a tenth of a second a megabyte).
_JUPYTER_WORDS = ("jupyter", "Jupyter", "ipykernel", "Cell In[", "<ipython-input-")


class _Shaped(str):
    """A block's text whose ``in`` first asks the block's distinct line shapes (every digit
    read as 0, each shape once): a word no shape holds is in no line, and that answer costs
    the size of the distinct text, not of the block. Each reader's gate (``word in text``) is
    a pass over the block otherwise; a long log repeats a few shapes, and a dozen readers
    passing over all of it cost more than the signatures do.

    A word of several lines (``"\\ntensorflow"``, ``"artifacts\\n"``) is asked likewise, a
    line at a time: its first line must end a shape, its last start one, and each between be
    one whole (the shapes joined between line ends, so that the first and the last count too).
    """

    shapes: str
    #: The shapes read hexadecimal tokens as zeros too (:func:`_fold_hex`): a word they could
    #: hide (:func:`_hex_safe`) is asked of the text alone.
    folded = False
    #: :func:`_pairs_in` the shapes, worked out on the first question where they are long.
    _pairs: Optional[frozenset[str]] = None

    def pairs(self) -> frozenset[str]:
        """Each two characters in a row the shapes may hold (:func:`_pairs_in`)."""
        if self._pairs is None:
            self._pairs = _pairs_in(self.shapes)
        return self._pairs

    def __contains__(self, word: object) -> bool:
        # Where the distinct shapes are most of the text (lines that never repeat: an
        # allocator's dump, addresses), asking them first would pass over as much again.
        if (
            isinstance(word, str)
            and len(self.shapes) * 2 < len(self)
            and (not self.folded or _hex_safe(word))
        ):
            shape = word.translate(_SHAPE)
            if "\n" not in shape:
                # Long shapes (distinct lines, folded) are a pass each: a word with two
                # characters in a row they lack is answered from their pairs alone.
                if len(self.shapes) > _LONG_DISTINCT and not _word_pairs(shape) <= self.pairs():
                    return False
                if shape not in self.shapes:
                    return False
            elif not _lines_in(shape, f"\n{self.shapes}\n"):
                return False
        return str.__contains__(self, word)  # type: ignore[operator]  # str's own answer


def _lines_in(shape: str, framed: str) -> bool:
    """Whether each line of ``shape`` (a word of several lines) can be where it is among the
    shapes ``framed`` (joined by line ends, one before the first and one after the last)."""
    first, *middle, last = shape.split("\n")
    return (
        f"{first}\n" in framed
        and f"\n{last}" in framed
        and all(f"\n{line}\n" in framed for line in middle)
    )


def _read_conflicts(evidence: Evidence, text: str) -> None:
    """pip's conflicts in ``text``."""
    if len(evidence.conflicts) < MAX_CONFLICTS:
        evidence.conflicts.extend(read_conflicts((text,)))


def _read_python_words(evidence: Evidence, text: str) -> None:
    """What pip and uv say of this interpreter's Python: releases refused for their
    Requires-Python, and uv's hints naming the Python tags a release's wheels have."""
    if len(evidence.python_refusals) < MAX_REFUSALS:
        evidence.python_refusals.extend(read_python_refusals((text,)))
    if len(evidence.abi_hints) < MAX_REFUSALS:
        evidence.abi_hints.extend(read_abi_hints((text,)))
    if len(evidence.platform_hints) < MAX_REFUSALS:
        evidence.platform_hints.extend(read_platform_hints((text,)))
    if len(evidence.set_aside) < MAX_REFUSALS:
        evidence.set_aside.extend(read_set_aside_hints((text,)))


def _read_builds(evidence: Evidence, text: str) -> None:
    """pip's words on what it could not install: the source archives it failed to build, and
    the requirements no candidate of the package declaring them could meet."""
    if len(evidence.source_builds) < MAX_REFUSALS:
        evidence.source_builds.extend(read_source_builds((text,)))
    if len(evidence.unavailable) < MAX_CONFLICTS and "conflict is caused by" in text:
        evidence.unavailable.extend(read_unavailable((text,)))
    if len(evidence.collected) < MAX_COLLECTED and pip_words(PipKind.COLLECTING) in text:
        evidence.collected.extend(read_collected(text)[: MAX_COLLECTED - len(evidence.collected)])


def _read_wheels(evidence: Evidence, text: str) -> None:
    """The wheel files of one block: those pip refused, those it installed from a file."""
    if len(evidence.wheel_refusals) < MAX_REFUSALS:
        evidence.wheel_refusals.extend(read_wheel_refusals(text))
    if len(evidence.wheel_files) < MAX_REFUSALS:
        evidence.wheel_files.extend(read_wheel_files_installed(text))


def _read_platform(evidence: Evidence, text: str) -> None:
    """What the log shows of the platform the programs run on: the wheel tags' platform, the
    machine, the Python's word size and the TensorFlow.js for Node package; the first each."""
    evidence.tags_platform = evidence.tags_platform or read_first_platform(text)
    evidence.machine = evidence.machine or read_machine(text)
    evidence.python_64bit = evidence.python_64bit or read_python_64bit(text)
    evidence.interpreter = evidence.interpreter or read_interpreter(text)
    evidence.tfjs_node_package = evidence.tfjs_node_package or read_tfjs_node_package(text)


def _read_block(evidence: Evidence, block: LogText, text: _Shaped) -> None:
    """The readers other than the signatures, over one block: tracebacks, pip's and the
    companions' words, versions a session echoed, devices, WSL and the shell's prompt.
    ``text`` is the block's text, its distinct line shapes beside it (:class:`_Shaped`)."""
    # What earlier blocks showed of the packages, before this block's own (see _read_program).
    named_before = _notice_names(evidence.conflicts, evidence.import_checks)
    if len(evidence.tracebacks) < MAX_TRACEBACKS:
        found_tbs = read_tracebacks(text, block)
        evidence.tracebacks.extend(found_tbs[: MAX_TRACEBACKS - len(evidence.tracebacks)])
        # An egg's folder names the release installed, as a listing does.
        for dist, version in egg_releases(found_tbs).items():
            evidence.listed.setdefault(dist, version)
    if len(evidence.refusals) < MAX_REFUSALS:
        evidence.refusals.extend(read_refusals((text,)))
    _read_wheels(evidence, text)
    _read_platform(evidence, text)
    if evidence.python_shown is None:
        evidence.python_shown = read_python_shown(text)
    _read_conflicts(evidence, text)
    if len(evidence.import_checks) < MAX_CONFLICTS:
        evidence.import_checks.extend(read_import_checks((text,)))
    if len(evidence.numpy_builds) < MAX_CONFLICTS:
        evidence.numpy_builds.extend(read_numpy_builds((text,)))
    _read_builds(evidence, text)
    _read_python_words(evidence, text)
    for dist, echoed in read_echoed_versions((text,)).items():
        evidence.echoed.setdefault(dist, echoed)
        if dist == "keras":
            # keras.__version__ echoed names the release installed, as a listing does.
            evidence.listed.setdefault(dist, echoed)
    for dist, listed in read_listed_versions(text).items():
        evidence.listed.setdefault(dist, listed)
    for dist, version in read_shown_packages(text).items():
        evidence.shown.setdefault(dist, version)
    if evidence.tf_logged_at is None:
        logged = tflog.tensorflow_line_at(text)
        if logged is not None:
            evidence.tf_logged_at = block.where(logged)
    if len(evidence.conda_rows) < MAX_CONFLICTS:
        evidence.conda_rows.extend(read_conda_rows((text,)))
    evidence.conda_installed |= conda_installed(text, _CONDA_ASKED)
    for name, channel in conda_channels(text, _CONDA_ASKED).items():
        evidence.conda_channels.setdefault(name, channel)
    if len(evidence.conda_conflicts) < MAX_CONFLICTS:
        evidence.conda_conflicts.extend(read_conda_python_conflicts((text,)))
    evidence.conda_missing.extend(
        read_conda_missing_releases((text,))[: MAX_CONFLICTS - len(evidence.conda_missing)]
    )
    if len(evidence.install_requests) < MAX_REQUESTS:
        evidence.install_requests.extend(
            (block.where(r.index), r)
            for r in read_install_requests(text)[: MAX_REQUESTS - len(evidence.install_requests)]
        )
    if len(evidence.modules) < MAX_MODULE_ORIGINS:
        for origin in module_origins(text, MAX_MODULE_ORIGINS - len(evidence.modules)):
            if origin not in evidence.modules:
                evidence.modules.append(origin)
    _read_devices(evidence, block, text)
    evidence.kernel_refused_attrs = evidence.kernel_refused_attrs or kernel_refused_attrs(text)
    _read_head(evidence, block, text)
    if not evidence.wsl and any(word in text for word in _WSL_WORDS):
        evidence.wsl = True
    _read_program(evidence, block, text, named_before)
    _read_solver(evidence, text)
    _read_conda(evidence, block, text)
    if evidence.os_of_prompt is None:
        # A prompt opens what a user pasted: its head is enough, and keeps huge logs fast.
        evidence.os_of_prompt = _os_of_prompt(text[:PROMPT_READ])


def _read_conda(evidence: Evidence, block: LogText, text: str) -> None:
    """The conda environment ``text`` shows active, and the first ``conda info`` listing of
    virtual packages, each with where, once for the whole log."""
    if evidence.conda_info is None:
        info = read_conda_info(text)
        if info is not None:
            evidence.conda_info = (block.where(info.index), info)
    if evidence.conda_env is None:
        shown = read_conda_env(text)
        if shown is not None:
            evidence.conda_env = (block.where(shown[0]), shown[1])


def _read_program(
    evidence: Evidence, block: LogText, text: str, shown: frozenset[str] = frozenset()
) -> None:
    """How the program ran, where ``text`` shows it: frozen by PyInstaller, under a server, a
    task queue or a thread of its own; whether it did its work (and the packages the notices
    before it named, beside ``shown`` by earlier blocks), whether it crashed."""
    evidence.frozen = evidence.frozen or frozen_shown(text)
    evidence.server_line = evidence.server_line or server_line(text)
    evidence.crashed = evidence.crashed or crash_shown(text)
    if evidence.went_on is None:
        went = read_went_on(text)
        if went is not None:
            evidence.went_on = (block.where(went.index), went)
            before = text[: _offset_of_line(text, went.index)]
            evidence.named_before_work = shown | _notice_names(
                read_conflicts((before,)), read_import_checks((before,))
            )


def _offset_of_line(text: str, index: int) -> int:
    """Where the line ``index`` lines into ``text`` starts (the text's length past its end)."""
    at = 0
    for _ in range(index):
        at = text.find("\n", at) + 1
        if at == 0:
            return len(text)
    return at


def _notice_names(conflicts: Iterable[Conflict], checks: Iterable[ImportCheck]) -> frozenset[str]:
    """The packages notices are about: each conflict's dependency, each checking companion."""
    return frozenset((*(c.target for c in conflicts), *(c.dist for c in checks)))


def _read_solver(evidence: Evidence, text: str) -> None:
    """conda's and pixi's refusals of an environment: the specs ResolvePackageNotFound lists,
    the packages pixi's PyPI resolver excluded, the environment file a command named."""
    if len(evidence.unresolved) < MAX_CONFLICTS:
        evidence.unresolved.extend(read_unresolved_specs(text))
    if len(evidence.pypi_excluded) < MAX_CONFLICTS:
        evidence.pypi_excluded.extend(read_pypi_excluded(text))
    if evidence.env_file is None:
        evidence.env_file = read_env_file(text)


def scan(blocks: Iterable[LogText], signatures: Signatures) -> Evidence:
    """Match every line of ``blocks`` against ``signatures``.

    Each signature's literal keyword is looked for with ``str.find`` (a fast substring search
    in C) in the block's distinct line shapes (:func:`_candidates`); only the lines that can
    hold one are visited (:func:`_visits`), and only there do the signatures' own patterns
    run, so most of a log is never touched by a regular expression, nor by a Python loop.
    """
    keywords = _folded_keywords(signatures)
    # TensorFlow's log-line families (tflog) are found in the same pass: a literal that is
    # also a signature's keyword is searched for once.
    literals = [
        _Literal(
            literal,
            _shape_of(literal),
            keywords.get(literal, ()),
            tflog.KEYWORDS.get(literal, ()),
            all(sig.cause == EVIDENCE for sig in keywords.get(literal, ())),
            _literal_pairs(literal),
        )
        for literal in dict.fromkeys((*keywords, *tflog.KEYWORDS))
    ]
    # A literal that a hexadecimal token could hide would be missed in folded shapes: none
    # is (each piece of a literal is checked), and a set of signatures holding one folds none.
    foldable = all(_hex_safe(literal.text) for literal in literals)
    evidence = Evidence()
    order = 0
    for block in blocks:
        shapes, distinct, counts, folded = _block_shapes(block.text, foldable)
        evidence.lines += len(shapes)
        shaped = _Shaped(block.text)
        shaped.shapes = distinct
        shaped.folded = folded
        # Node's addon path, on a line of its own below Windows' reason, joins that line (the
        # lines stay as many; the signatures read the joined ones, the readers the block's).
        text: str = rejoin_addon_paths(shaped)
        if text is not shaped:
            shapes, distinct, counts, folded = _block_shapes(text, foldable)
        _read_block(evidence, block, shaped)
        # The block's pairs, where its shapes are the ones searched, are worked out once; so
        # are the lines holding a literal with digits, asked for its shapes and its visits.
        plan = _candidates(
            distinct,
            literals,
            evidence,
            shaped.pairs if distinct is shaped.shapes else None,
            raw := _RawShapes(text, shapes),
        )
        if not plan:
            continue
        lines = _Lines(text, shapes)
        visits, unvisited = _visits(text, shapes, counts, lines, plan, evidence, folded, raw)
        # Whether a signature that only counts now matched a shape: its lines all agree.
        counted: dict[tuple[str, str], bool] = {}
        for line_no in visits:
            line = lines[line_no]
            shape = shapes[line_no]
            sigs, families = plan[shape]  # a line holding a literal: its shape holds it too
            if families and len(evidence.events) < MAX_EVENTS:
                readers = [r for literal, rs in families if literal.text in line for r in rs]
                if readers:
                    read = tflog.read_with(line, block.first_line + line_no, readers)
                    evidence.events.extend((block.where(line_no), event) for event in read)
            for sig in sigs:
                hit = evidence.hits.get(sig.id)
                if (
                    hit is not None
                    and len(hit.citations) >= CITATIONS
                    and not folded
                    and _shape_blind(sig)
                ):
                    # Only counted from here on, by a pattern that cannot tell a line from its
                    # shape: one search per shape.
                    key = (sig.id, shape)
                    found = counted.get(key)
                    if found is None:
                        found = counted[key] = (
                            sig.keyword in line and sig.pattern.search(line) is not None
                        )
                    hit.count += found
                    continue
                if sig.keyword not in line:
                    continue  # its shape holds it, the line does not, or a shorter literal
                match = sig.pattern.search(line)
                if match is None:
                    continue
                if hit is None:
                    order += 1
                    hit = evidence.hits[sig.id] = Hits(sig, first=order)
                hit.count += 1
                if len(hit.citations) < CITATIONS:
                    hit.citations.append((block.where(line_no), line.strip()))
                    hit.groups.append({k: v for k, v in match.groupdict().items() if v})
        for sid, matched in unvisited:
            evidence.hits[sid].count += matched
    return evidence


#: tensorflow-metal named in a log: its distribution, its library, or the device line it
#: prints as it registers the GPU (tensorflow-metal's "Metal device set to: Apple M1").
_METAL_WORDS = re.compile(r"tensorflow[-_]metal|metal_plugin|Metal device set to", re.IGNORECASE)


def _head(text: _Shaped, size: int) -> str:
    """The first ``size`` characters of a block's ``text``: the block itself where it is no
    longer, so that its readers' gates still ask its shapes."""
    return text if len(text) <= size else text[:size]


def _read_head(evidence: Evidence, block: LogText, text: _Shaped) -> None:
    """What a user ran, read from the head of ``block``: import statements, interpreters,
    installs in a running kernel, a notebook's words, the issue's form, a GPU complaint."""
    if evidence.statements_read >= STATEMENTS_READ or len(evidence.statements) >= MAX_STATEMENTS:
        return
    # What a user ran is pasted where the log starts: its head is read, as for devices.
    head = _head(text, STATEMENTS_READ - evidence.statements_read)
    evidence.statements_read += len(head)
    found = import_statements(head, MAX_STATEMENTS - len(evidence.statements))
    evidence.statements.extend((block.where(line), code) for line, code in found)
    for dist in read_kernel_installs(head):
        if dist not in evidence.kernel_installs:
            evidence.kernel_installs.append(dist)
    if evidence.docker_run_without_gpu is None:
        evidence.docker_run_without_gpu = container_run_without_gpu(head)
    if evidence.visible_devices is None:
        evidence.visible_devices = visible_devices_set(head)
    # Each of its words holds "metal", and no other character matches those letters in any
    # case: shapes that hold no "metal" lower-cased leave the pattern's pass over the head out
    # (no hexadecimal token holds a letter of it: "m", "t" and "l" are none).
    evidence.metal_shown = evidence.metal_shown or (
        "metal" in text.shapes.lower() and _METAL_WORDS.search(head) is not None
    )
    for python in interpreters(head, MAX_INTERPRETERS):
        if python not in evidence.interpreters:
            evidence.interpreters.append(python)
    del evidence.interpreters[MAX_INTERPRETERS:]
    evidence.jupyter = evidence.jupyter or any(w in head for w in _JUPYTER_WORDS)
    if not evidence.first_text:
        evidence.first_text = head[:STATED_READ]
        evidence.first_block = block
        evidence.stated = read_stated(head)
    if evidence.gpu_complaint is None:
        complaint = read_gpu_complaint(head)
        if complaint is not None:
            evidence.gpu_complaint = (
                block.where(head[: head.find(complaint)].count("\n")),
                complaint,
            )
    if evidence.slow_start is None:
        slow = read_slow_start(head)
        if slow is not None:
            evidence.slow_start = (block.where(head[: head.find(slow)].count("\n")), slow)


def _read_devices(evidence: Evidence, block: LogText, text: _Shaped) -> None:
    """What TensorFlow answered about its devices in ``block`` (its ``text``), into
    ``evidence``."""
    if len(evidence.devices) >= MAX_LISTINGS or evidence.devices_read >= DEVICES_READ:
        return
    # A session asks for its devices where it starts, before a run's output: the head of the
    # log is read, so that a long training log costs nothing more.
    head = _head(text, DEVICES_READ - evidence.devices_read)
    evidence.devices_read += len(head)
    listings = read_device_listings(head, 0)
    evidence.devices.extend((block.where(x.line), x) for x in listings)
    if listings and evidence.os_near_devices is None:
        evidence.os_near_devices = _os_of((head,), ())
        evidence.prompt_near_devices = unix_prompt(head)


_FOLDED: dict[int, tuple[Signatures, Mapping[str, tuple[Signature, ...]]]] = {}

#: Short literals that many keywords contain, searched once for all of them: a keyword that
#: holds one is looked for only on the lines that hold it (checked with ``in`` there), so a
#: block is passed over once per gate instead of once per keyword.
_GATES = ("rror", "ailed", "found", "No ", "version", "nvalid", "NCCL", "TPU", "Keras")


def _folded_keywords(signatures: Signatures) -> Mapping[str, tuple[Signature, ...]]:
    """The signatures' keywords, each folded into a shorter literal it contains (another
    keyword, or a gate): every line holding the longer one holds the shorter, so one search
    finds both, and the signature's own keyword and pattern decide on the line. Each search
    of a block is a pass over it: fewer literals, fewer passes. (The log-line readers'
    literals are not folded into: some, such as "ould not", are on thousands of lines of a
    long log, and each would carry the folded signatures to every one of them.)"""
    cached = _FOLDED.get(id(signatures))
    if cached is not None and cached[0] is signatures:
        return cached[1]
    own = signatures.keywords
    shorter = sorted({*own, *_GATES}, key=len)
    lengths = [len(s) for s in shorter]
    out: dict[str, list[Signature]] = {}
    for keyword, sigs in own.items():
        # The literals shorter than the keyword, asked in C (a few hundred for each keyword).
        fewer = shorter[: bisect.bisect_left(lengths, len(keyword))]
        probe = next(filter(keyword.__contains__, fewer), keyword)
        out.setdefault(probe, []).extend(sigs)
    folded = {k: tuple(v) for k, v in out.items()}
    _FOLDED[id(signatures)] = (signatures, folded)
    return folded


#: Every digit read as 0: the shape of a line, the same for lines that differ only in their
#: numbers (timestamps, steps, losses, addresses).
_SHAPE = str.maketrans("123456789", "000000000")


@functools.cache
def _shape_of(literal: str) -> str:
    """A literal's shape (every digit read as 0), worked out once per literal: the scan's
    literals and the signatures' keywords are a fixed set, asked of every block. A literal
    holds a digit exactly where its shape holds a 0."""
    return literal.translate(_SHAPE)


#: What lets a pattern tell one digit from another: a digit of its own (a literal, a
#: quantifier's count, an escape's code), a character class (``[1-9]``), a named character
#: (``\\N{DIGIT ONE}``) or a backreference by name. Without them every digit is alike to it
#: (``\\d``, ``\\w``, ``.`` take them all).
_DIGIT_AWARE = re.compile(r"[0-9\[]|\(\?P=|\\N\{")


def _shape_blind(sig: Signature) -> bool:
    """Whether ``sig`` matches a line exactly when it matches the line's shape (every digit
    read as 0): its keyword and pattern cannot tell one digit from another."""
    key = (sig.keyword, sig.pattern.pattern)
    blind = _BLIND.get(key)
    if blind is None:
        blind = _BLIND[key] = not (
            _DIGIT_AWARE.search(sig.pattern.pattern) or _DIGIT_AWARE.search(sig.keyword)
        )
    return blind


_BLIND: dict[tuple[str, str], bool] = {}


def _required_runs(sig: Signature) -> tuple[str, ...]:
    """The literal runs every match of ``sig``'s pattern holds: the characters its top-level
    sequence takes one after another, as written (a branch, a group, a repeat, an anchor or a
    class ends a run). None where case is ignored: a run then stands for many spellings."""
    key = (sig.keyword, sig.pattern.pattern)
    runs = _RUNS.get(key)
    if runs is None:
        runs = _RUNS[key] = _literal_runs(sig.pattern)
    return runs


_RUNS: dict[tuple[str, str], tuple[str, ...]] = {}


#: The parser of regular expressions (re._parser from Python 3.11, where sre_parse warns on
#: import; sre_parse before): what literals a signature's pattern requires (:func:`_literal_runs`).
_re_parser: Any = importlib.import_module(
    "re._parser" if sys.version_info >= (3, 11) else "sre_parse"
)


def _literal_runs(pattern: re.Pattern[str]) -> tuple[str, ...]:
    """:func:`_required_runs` of one compiled pattern."""
    if pattern.flags & re.IGNORECASE:
        return ()
    runs: list[str] = []
    run: list[str] = []
    for op, value in _re_parser.parse(pattern.pattern, pattern.flags):
        if op is _re_parser.LITERAL:
            run.append(chr(value))
            continue
        if run:
            runs.append("".join(run))
            run = []
    if run:
        runs.append("".join(run))
    return tuple(runs)


def _may_match(sig: Signature, shape: str, folded: bool) -> bool:
    """Whether a line of ``shape`` can match ``sig``: its shape holds the shape of each run of
    literal characters the pattern requires (:func:`_required_runs`). A line holding a run
    holds its shape in the line's shape; in folded shapes (``folded``) only a run no
    hexadecimal token could hide (:func:`_hex_safe`) is asked. A gate as common as the
    allocator's file name (on every line of its dump) then brings no line whose shape lacks
    the rest of the pattern's literals (its memory map's ``*``) to be visited."""
    return all(
        _shape_of(run) in shape for run in _required_runs(sig) if not folded or _hex_safe(run)
    )


#: A hexadecimal token in a line's shape (its digits already 0): 8 or more hexadecimal
#: characters, a digit among them, a whole word, after an optional "0x" (an address, a hash).
_HEX_PLAIN = re.compile(r"\b((?:0x)?(?=[0a-f]{8})[a-f]*0[0a-f]*)\b")
#: The same token with the character before it (no word character: a line end before the
#: first line of a text stands for its start). Opening with a class of characters lets the
#: engine skip in C every place that is not one, where a leading ``\b`` had it try each place
#: of the text, and one of a text's few non-word characters opens each try.
_HEX = re.compile(r"(\W)(0x(?=[0a-f]{8})[a-f]*0[0a-f]*(?!\w)|(?=[0a-f]{8})[a-f]*0[0a-f]*(?!\w))")
#: :data:`_HEX` for a text of ASCII characters alone: ``\w`` and ``\W`` are then ASCII's
#: classes, checked by a table where Unicode's ask each character's category (a third faster
#: over an allocator's dump or distinct lines, ``benchmarks/bench_explain.py``).
_HEX_ASCII = re.compile(_HEX.pattern, re.ASCII)
_HEX_ZERO = str.maketrans("abcdefx", "0000000")
#: What part of a literal a hexadecimal token could hold: its first word (or the whole of
#: it), a piece of a token; its last, the start of one; a word between, a whole one.
_HEX_FIRST = re.compile(r"(?:0?x)?[0-9a-f]*")
_HEX_LAST = re.compile(r"0x[0-9a-f]*|[0-9a-f]*")
_HEX_WORD = re.compile(r"(?:0x)?[0-9a-f]{8,}")


def _fold_hex(shape: str) -> str:
    """``shape`` with each hexadecimal token (:data:`_HEX_PLAIN`) read as zeros, as long as
    it."""
    parts = (_HEX_ASCII if shape.isascii() else _HEX).split(f"\n{shape}")
    if len(parts) == 1:
        return shape
    # The tokens, joined, are folded by one translation in C (a token holds no line end).
    parts[2::3] = "\n".join(parts[2::3]).translate(_HEX_ZERO).split("\n")
    return "".join(parts)[1:]


@functools.cache
def _hex_safe(word: str) -> bool:
    """Whether a line that holds ``word`` holds its shape once hexadecimal tokens are zeros:
    where no token can hold a letter of it. A token is a whole word of the line, so it meets
    ``word`` in a whole word of it (split at what is no word character): the first or only
    one as a token's end or piece, the last as a token's start, one between as a token."""
    first, *middle = re.split(r"\W+", word)
    last = middle.pop() if middle else ""
    return not (
        _hides(_HEX_FIRST, first)
        or _hides(_HEX_LAST, last)
        or any(_hides(_HEX_WORD, piece) for piece in middle)
    )


def _hides(token: re.Pattern[str], piece: str) -> bool:
    """Whether ``piece`` of a word can be what ``token`` says of a hexadecimal token, with a
    letter (digits alone are zeros in either shape; an empty piece is none)."""
    return piece != "" and token.fullmatch(piece) is not None and not piece.isdigit()


def _block_shapes(text: str, foldable: bool) -> tuple[list[str], str, Counter[str], bool]:
    """:func:`_shapes` of a block's ``text``, and whether they are folded: lines that do not
    repeat their shapes (an allocator's dump, an address a line) leave the distinct text
    nearly as long as the block, and every search a pass over it; read with their hexadecimal
    tokens as zeros too (where ``foldable``), such lines share a few shapes again."""
    shaped = text.translate(_SHAPE)
    whole: Optional[tuple[list[str], str, Counter[str]]] = None
    if foldable and _lines_differ(shaped):
        # Most lines have a shape of their own (distinct lines, a sample says): the block's
        # text is folded whole, no line's shape looked up in a table of folded ones. Folded
        # shapes as long as these are the unfolded ones' at most: the unfolded shapes, no
        # shorter, would be folded, and they are not worked out.
        whole = _counted(_fold_hex(shaped).split("\n"))
        if len(whole[1]) * 8 > len(text):
            return (*whole, True)
    shapes, distinct, counts = _counted(shaped.split("\n"))
    if not foldable or len(distinct) * 8 <= len(text):
        return shapes, distinct, counts, False
    if whole is not None:
        # Folded whole above, where the sample was misleading: folding is line by line, so
        # the shapes folded below would be these (the text is not folded twice).
        return (*whole, True)
    if len(distinct) * 4 > len(text) * 3 and not _pieces_repeat(distinct):
        folded = _fold_hex(shaped).split("\n")  # as above, where the sample was misleading
    else:
        # Each distinct shape folded once (their text is shorter than the block's), each
        # line's shape then looked up: the tokens' search costs the distinct text, not the
        # block.
        folded_of = dict(zip(counts, _fold_pieces(distinct).split("\n")))
        folded = list(map(folded_of.__getitem__, shapes))
    return (*_counted(folded), True)


#: How much of a text :func:`_fold_pieces` samples to tell whether its pieces repeat.
_PIECES_SAMPLE = 1 << 16


def _fold_pieces(text: str) -> str:
    """:func:`_fold_hex` of ``text``, each piece between spaces folded once where pieces
    repeat: a token is a whole word and a space is none, so a piece folds alike wherever it
    is. An allocator's dump repeats every piece of its lines but the addresses, and its
    distinct pieces are a few hundredths of the text; lines whose pieces rarely repeat (a
    sample of the text says) are folded whole, the pieces' bookkeeping costing more there."""
    if not _pieces_repeat(text):
        return _fold_hex(text)
    pieces = text.split(" ")
    distinct = dict.fromkeys(pieces)
    joined = " ".join(distinct)
    folded = _fold_hex(joined)
    if folded is joined:
        return text
    folded_of = dict(zip(distinct, folded.split(" ")))
    return " ".join(map(folded_of.__getitem__, pieces))


def _lines_differ(shaped: str) -> bool:
    """Whether most lines of a block's ``shaped`` text (its digits read as 0) have a shape of
    their own, and their pieces between spaces rarely repeat, a sample of it says: folding
    the text whole then costs hardly more than folding its distinct shapes."""
    sample = shaped[:_PIECES_SAMPLE]
    return len("\n".join(dict.fromkeys(sample.split("\n")))) * 4 > len(sample) * 3 and (
        not _pieces_repeat(sample)
    )


def _pieces_repeat(text: str) -> bool:
    """Whether the pieces between spaces of ``text`` repeat enough, a sample of it says, that
    folding each distinct piece once costs less than folding the text whole."""
    sample = text[:_PIECES_SAMPLE]
    return len(" ".join(dict.fromkeys(sample.split(" ")))) * 4 <= len(sample)


def _shapes(text: str) -> tuple[list[str], str, Counter[str]]:
    """The shape of each line of ``text``, the distinct shapes, each once in the order first
    seen, joined by newlines, and how many lines each shape has."""
    return _counted(text.translate(_SHAPE).split("\n"))


def _counted(shapes: list[str]) -> tuple[list[str], str, Counter[str]]:
    """``shapes``, the distinct ones, each once in the order first seen, joined by newlines,
    and how many lines each has (counted in C, in the order first seen)."""
    counts = Counter(shapes)
    return shapes, "\n".join(counts), counts


class _Literal(NamedTuple):
    """A literal the scan looks for, with what it brings, worked out once per scan."""

    text: str
    #: The literal with every digit read as 0, as a line's shape holds it (:func:`_shape_of`).
    shape: str
    sigs: tuple[Signature, ...]
    families: tuple[tflog.Reader, ...]
    #: Its signatures only reveal versions: once each has its citations, it is not looked for.
    evidence_only: bool
    #: Each two characters in a row of its shape: a text lacking one lacks the literal.
    pairs: frozenset[str]


#: The tflog readers a literal brings to a shape, with the literal.
_Families = list[tuple[_Literal, tuple[tflog.Reader, ...]]]
_Plan = dict[str, tuple[list[Signature], _Families]]


#: A distinct text this long is searched for literals by patterns first (:func:`_candidates`).
_LONG_DISTINCT = 1 << 16


def _candidates(
    distinct: str,
    literals: Sequence[_Literal],
    evidence: Evidence,
    pairs: Optional[Callable[[], frozenset[str]]] = None,
    raw: Optional[_RawShapes] = None,
) -> _Plan:
    """The distinct shapes that hold a literal, in order, each with the signatures to match
    on its lines (each once) and the tflog readers to run there, with the literal that
    brought them.

    A long log repeats a few shapes of line: a training step, a warning, a progress bar. The
    literals are searched for in each distinct shape once (a digit in a literal is a 0 there
    too), so the passes cost the size of the distinct text, not of the log; a line holds a
    literal only if its shape holds the literal's shape, and the caller checks the line.

    Where ``raw`` is given and the block's text is at most :data:`_RAW_RATIO` times the
    distinct text (a long distinct text, lines that rarely repeat their shapes), a
    literal with a digit is looked for in the block's text itself: its shape
    ("132" read "000") is in nearly every shape of such lines (an address, a hash), the literal
    on a few, and only the shapes of those few are the literal's.
    """
    read_families = len(evidence.events) < MAX_EVENTS
    if raw is not None and len(raw.text) > len(distinct) * _RAW_RATIO:
        raw = None  # lines that repeat their shapes: the shapes' search is the cheaper
    sigs_at: dict[str, list[Signature]] = {}
    families_at: dict[str, _Families] = {}
    find = distinct.find
    long = len(distinct) > _LONG_DISTINCT
    # Over a long distinct text each literal's search is a pass over it (hundreds of them);
    # a literal with two characters in a row the text never has is not searched for.
    held = (pairs() if pairs is not None else _pairs_in(distinct)) if long else frozenset()
    for literal in literals:
        sigs = literal.sigs
        if sigs and literal.evidence_only and all(_saturated(evidence, sig) for sig in sigs):
            sigs = ()  # versions already read: the rest of the log cannot add to them
        families = literal.families if read_families else ()
        if not sigs and not families:
            continue
        shape = literal.shape
        if long and not literal.pairs <= held:
            continue
        if long:
            # Most literals are in no shape: over a long distinct text (lines that never
            # repeat) a pattern says so faster (:func:`_literal_pattern`); over a short one
            # its call costs more than the search.
            first = _literal_pattern(shape).search(distinct)
            if first is None:
                continue
            if raw is not None and "0" in shape:
                # Each shape once, in the order first found, as the search below adds them.
                for line in raw.holding(literal.text):
                    if sigs:
                        sigs_at.setdefault(line, []).extend(sigs)
                    if families:
                        families_at.setdefault(line, []).append((literal, families))
                continue
            i = first.start()
        else:
            i = find(shape)
        while i >= 0:
            start = distinct.rfind("\n", 0, i) + 1
            end = find("\n", i)
            if end < 0:
                end = len(distinct)
            line = distinct[start:end]
            if sigs:
                sigs_at.setdefault(line, []).extend(sigs)
            if families:
                families_at.setdefault(line, []).append((literal, families))
            i = find(shape, end)
    return {
        shape: (
            list({id(sig): sig for sig in sigs_at.get(shape, ())}.values()),  # once each, in order
            families_at.get(shape, []),
        )
        for shape in (*sigs_at, *families_at)
    }


#: A block whose text is at most this many times its distinct shapes' has its literals with
#: digits looked for in its text (:func:`_candidates`): a pattern's pass over a text up to
#: as many times longer costs less than visiting, in Python, each of the thousands of shapes
#: that the literal's zeros are in (the fold's threshold, :func:`_block_shapes`).
_RAW_RATIO = 8


class _RawShapes:
    """The shapes of a block's lines that hold a literal in the block's ``text`` itself."""

    def __init__(self, text: str, shapes: list[str]) -> None:
        self.text = text
        self.shapes = shapes
        #: :meth:`lines` of each literal asked: a literal whose lines gave its shapes
        #: (:func:`_candidates`) has the same lines visited (:func:`_visits`), a pass each.
        self.found: dict[str, set[int]] = {}

    def lines(self, literal: str) -> set[int]:
        """The numbers of the lines holding ``literal`` (:func:`_lines_holding`)."""
        found = self.found.get(literal)
        if found is None:
            found = self.found[literal] = _lines_holding(self.text, (literal,))
        return found

    def holding(self, literal: str) -> Iterable[str]:
        """The distinct shapes of the lines holding ``literal``, each once, in the order
        their first such line comes."""
        shapes = self.shapes
        return dict.fromkeys(shapes[n] for n in sorted(self.lines(literal)))


def _pairs_of(text: str) -> frozenset[str]:
    """Each two characters in a row in ``text``."""
    return frozenset(map(operator.add, text, text[1:]))


@functools.lru_cache(maxsize=1 << 12)
def _word_pairs(shape: str) -> frozenset[str]:
    """:func:`_pairs_of` a word's shape, asked of a block's text: the readers' words are a
    few hundred, each asked of every block."""
    return _pairs_of(shape)


@functools.cache
def _literal_pairs(literal: str) -> frozenset[str]:
    """:func:`_pairs_of` a literal's shape, worked out once per literal (a fixed set)."""
    return _pairs_of(_shape_of(literal))


def _pairs_in(distinct: str) -> frozenset[str]:
    """Each two characters in a row that ``distinct`` may hold (a few more at most): those of
    its pieces between spaces, each piece once and framed by spaces. A pair of the text is in
    a piece or has a space of its own, so it is among those; and distinct shapes repeat their
    words (their numbers and tokens read as zeros), so the pieces are a fraction of the text."""
    return _pairs_of(" " + " ".join(set(distinct.split(" "))) + " ")


class _Lines:
    """The lines of a block's text, each cut out when asked: a long block has most of its
    lines never visited, and splitting it whole costs more than all the visits."""

    def __init__(self, text: str, shapes: list[str]) -> None:
        self.text = text
        self.shapes = shapes
        #: ``ends[n + 1]``: where line ``n`` ends, less the line ends before it (a shape is as
        #: long as its line), summed only as far as a line was asked for; ``ends[0]`` is 0.
        self.ends: list[int] = [0]

    def __getitem__(self, line_no: int) -> str:
        ends = self.ends
        known = len(ends) - 1
        if line_no >= known:
            ends.extend(
                itertools.accumulate(map(len, self.shapes[known : line_no + 1]), initial=ends[-1])
            )
            del ends[known + 1]  # the sum carried over, already there
        end = ends[line_no + 1] + line_no
        return self.text[end - len(self.shapes[line_no]) : end]


def _visits(
    text: str,
    shapes: list[str],
    counts: Mapping[str, int],
    lines: _Lines,
    plan: _Plan,
    evidence: Evidence,
    folded: bool = False,
    raw: Optional[_RawShapes] = None,
) -> tuple[list[int], list[tuple[str, int]]]:
    """The lines of a block that :func:`scan` must visit, in order, and what the others add
    to signatures' counts: ``(signature id, lines matched)``.

    A literal without digits is in a line exactly when it is in the line's shape; the lines
    that hold a literal with digits ("code 137", "-4") are found in ``text`` itself, since most
    lines of a shape that holds its shape ("code 000") do not hold it. A shape where a literal
    without digits brings a reader, or a signature that can tell one digit from another, has
    every line visited. Elsewhere each signature whose keyword the shape holds matches all the
    shape's lines or none (:func:`_shape_blind`): one search on its first line says which, its
    first lines are visited until each matching signature has all its citations, and every
    later line only adds one to each one's count, added here without visiting it. Folded
    shapes (``folded``, hexadecimal tokens read as zeros) have every line visited: a pattern
    may tell a token's letters from its digits. The lines holding a literal come from ``raw``
    where given, each literal's found once a block (:meth:`_RawShapes.lines`).
    """
    every: set[str] = set()
    wanted: set[str] = set()
    visits: set[int] = set()
    alike: list[tuple[str, list[Signature]]] = []
    positions = _Positions(shapes, len(plan) > _FEW_SHAPES)
    for shape, (sigs, families) in plan.items():
        per_line = False
        # A literal with a digit (a 0 in its shape) may be in a line's shape and not in the
        # line: its lines are looked for in the text.
        for literal, _ in families:
            if "0" not in literal.shape:
                per_line = True  # in the shape, so on every line of it
            elif literal.shape in shape:
                wanted.add(literal.text)
        certain: list[Signature] = []
        for sig in sigs:
            keyword = _shape_of(sig.keyword)
            if "0" not in keyword:
                if sig.keyword in shape and _may_match(sig, shape, folded):
                    certain.append(sig)
            elif keyword in shape and _may_match(sig, shape, folded):
                wanted.add(sig.keyword)
        # A signature whose keyword holds a digit is asked only on the lines that hold the
        # keyword (found in the text), folded or not: visiting a folded shape's every line for
        # it would visit most of a dump's or of distinct lines' ("132" is in every address).
        if per_line or (certain and (folded or not all(_shape_blind(sig) for sig in certain))):
            every.add(shape)
            continue
        if not certain:
            continue
        first = positions.first(shape, 1)[0]
        matching = [sig for sig in certain if sig.pattern.search(lines[first]) is not None]
        if not matching:
            continue
        needed = max(CITATIONS - _cited(evidence, sig) for sig in matching)
        visits.update(positions.first(shape, needed))
        alike.append((shape, matching))
    if every:
        visits.update(_lines_of(every, shapes, counts))
    if wanted:
        if raw is None:
            visits.update(_lines_holding(text, wanted))
        else:
            for word in wanted:
                visits.update(raw.lines(word))
    order = sorted(visits)
    unvisited: list[tuple[str, int]] = []
    if alike:
        shown = {shape for shape, _ in alike}
        seen: dict[str, int] = dict.fromkeys(shown, 0)
        for line_no in order:
            if shapes[line_no] in shown:
                seen[shapes[line_no]] += 1
        for shape, matching in alike:
            rest = counts[shape] - seen[shape]
            if rest:
                unvisited.extend((sig.id, rest) for sig in matching)
    return order, unvisited


#: How many shapes a block's lines are searched for one by one (``list.index``, in C, a pass
#: each); more are found in one pass over the lines, in Python.
_FEW_SHAPES = 16


class _Positions:
    """The first lines of each shape of a block, up to :data:`CITATIONS` (all a shape whose
    lines are counted unvisited needs): found by ``list.index`` where a few shapes are asked,
    else in one pass over all the lines, worked out on the first question (where every line
    has a shape of its own, one search a shape would be a pass over the lines each)."""

    def __init__(self, shapes: list[str], many: bool) -> None:
        self.shapes = shapes
        self.many = many
        self.found: Optional[dict[str, list[int]]] = None

    def first(self, shape: str, needed: int) -> list[int]:
        """The first ``needed`` lines of ``shape``, up to :data:`CITATIONS` (fewer where it
        has fewer)."""
        if needed <= 0:
            return []
        if not self.many:
            at = [self.shapes.index(shape)]
            while len(at) < min(needed, CITATIONS):
                try:
                    at.append(self.shapes.index(shape, at[-1] + 1))
                except ValueError:
                    break
            return at
        if self.found is None:
            found: dict[str, list[int]] = {}
            for line_no, each in enumerate(self.shapes):
                lines = found.setdefault(each, [])
                if len(lines) < CITATIONS:
                    lines.append(line_no)
            self.found = found
        return self.found[shape][:needed]


def _lines_of(chosen: set[str], shapes: list[str], counts: Mapping[str, int]) -> Iterable[int]:
    """The numbers of the lines whose shape is one of ``chosen``."""
    many = len(chosen) > _FEW_SHAPES
    if many or sum(counts[shape] for shape in chosen) * 8 >= len(shapes):
        return (line_no for line_no, shape in enumerate(shapes) if shape in chosen)
    # A few lines: each found by the list's own search (in C) from the last one.
    found: list[int] = []
    for shape in chosen:
        line_no = -1
        for _ in range(counts[shape]):
            line_no = shapes.index(shape, line_no + 1)
            found.append(line_no)
    return found


def _cited(evidence: Evidence, sig: Signature) -> int:
    """How many lines ``sig`` has cited so far."""
    hit = evidence.hits.get(sig.id)
    return len(hit.citations) if hit is not None else 0


@functools.cache
def _literal_pattern(literal: str) -> re.Pattern[str]:
    """``literal`` as a pattern: the regular expression engine looks for a short literal
    faster than ``str.find`` does where the literal is absent from a long text
    (``benchmarks/bench_explain.py --literals``, a 50 MB log: 2.3-2.6x for two or three
    characters, 1.3-2.3x for eight)."""
    return re.compile(re.escape(literal))


def _lines_holding(text: str, literals: Iterable[str]) -> set[int]:
    """The numbers of the lines of ``text`` that hold one of ``literals`` (each found by its
    pattern, :func:`_literal_pattern`, in C; each line once per literal)."""
    starts: set[int] = set()
    find, rfind = text.find, text.rfind
    for literal in literals:
        search = _literal_pattern(literal).search
        found = search(text)
        while found is not None:
            i = found.start()
            starts.add(rfind("\n", 0, i) + 1)
            end = find("\n", i)
            if end < 0:
                break
            found = search(text, end)
    out: set[int] = set()
    number = counted = 0
    for start in sorted(starts):
        number += text.count("\n", counted, start)
        counted = start
        out.add(number)
    return out


def _saturated(evidence: Evidence, sig: Signature) -> bool:
    """An evidence signature that has all the lines it keeps."""
    hit = evidence.hits.get(sig.id)
    return sig.cause == EVIDENCE and hit is not None and len(hit.citations) >= CITATIONS


# --- what the log reveals -------------------------------------------------------------------


@record
class Revealed(Record):
    """What the log shows about the machine, each None when it does not show it."""

    tf_version: Optional[str] = None
    tf_dist: Optional[str] = None
    #: The Python version the log states, else the one a path implies (then in ``inferred``).
    python: Optional[str] = None
    #: The operating system library names or path styles imply (always in ``inferred``).
    os: Optional[str] = None
    cudnn_loaded: Optional[str] = None
    cudnn_compiled: Optional[str] = None
    cuda_version: Optional[str] = None
    #: The CUDA release the build runs with, as the toolkit libraries it opened name it
    #: (libcublas.so.9.0: 9.0; libcudart.so.11.0: 11, a major alone).
    build_cuda: Optional[str] = None
    compute_capability: Optional[str] = None
    gpu_name: Optional[str] = None
    #: The memory TensorFlow 1.x found on the GPU when it started, total and free, as it
    #: printed them ("5.80GiB", "312.50MiB").
    gpu_memory: Optional[tuple[str, str]] = None
    #: The CUDA release the issue's form states (the toolkit the user runs), where the log's
    #: libraries do not say the build's.
    stated_cuda: Optional[str] = None
    driver_version: Optional[str] = None
    #: The loaded NVIDIA kernel module's version, as cuda_diagnostics.cc reports it ("kernel
    #: reported version is: 460.91.3"): the module is loaded, whatever libcuda did.
    kernel_module: Optional[str] = None
    #: The driver's libcuda loaded and told its version while TensorFlow found no NVIDIA
    #: kernel driver running (cuda_diagnostics.cc: "libcuda reported version is: 550.54.14",
    #: "kernel driver does not appear to be running on this host"): the driver is installed
    #: and its kernel module is not loaded.
    libcuda_without_module: bool = False
    #: A line of the log says another kernel driver (nouveau) holds the GPU (a signature
    #: tagged nouveau-holds-gpu: the nvidia module's own words, lsmod's or lspci's).
    nouveau_holds_gpu: bool = False
    numpy_version: Optional[str] = None
    #: The NCCL release the process loaded and the CUDA release it was built for, as NCCL
    #: printed them when it started.
    nccl_version: Optional[str] = None
    nccl_cuda: Optional[str] = None
    #: The first allocation the log says failed: the device (``GPU:0``) and the bytes asked,
    #: each where the line gives it.
    oom_device: Optional[str] = None
    oom_bytes: Optional[int] = None
    site_packages: Optional[str] = None
    #: The shared library TensorFlow's own import failed to load (an ImportError raised in a
    #: frame of TensorFlow's that names a ``.so``), where the log shows one.
    tf_import_library: Optional[str] = None
    wsl: bool = False
    #: The one CUDA toolkit major the log shows installed (nvcc's release, the toolkit's
    #: directory, the CUDA compiler wheel), with the words that show it; None for none or
    #: several.
    toolkit_major: Optional[tuple[int, str]] = None
    #: What filled the GPU where an allocation failed, as the log tells it apart
    #: (:func:`_gpu_memory_reading`): ``taken`` (another process held memory before
    #: TensorFlow started), ``never-fits`` (one request at least all TensorFlow has), with
    #: the words that show it, or ``shared`` (TensorFlow started on the GPU beside another
    #: framework's GPU work), with the frameworks; None where the log does not tell.
    memory_reading: Optional[tuple[str, str]] = None
    #: Other GPU frameworks the log shows at work beside TensorFlow (``PyTorch``, ``JAX``;
    #: :mod:`tfdoctor.evidence.frameworks`).
    frameworks: tuple[str, ...] = ()
    #: TensorFlow Serving's own words in the log (:data:`_SERVING_WORDS`): its model server
    #: builds TensorFlow as the Bazel repository org_tensorflow, as jaxlib once did.
    serving: bool = False
    #: XLA's words on the ptxas it runs that name its version, the first of each problem:
    #: the problem, the version, and the other release the line names
    #: (:class:`tflog.PtxasProblem`). One log can hold two (TensorFlow 2.19's clamping note
    #: and its driver older than that ptxas), each its own finding's reading.
    ptxas_shown: tuple[tuple[str, str, str], ...] = ()
    #: The path of the ptxas XLA says it ran (:func:`tflog.ptxas_path_shown`).
    ptxas_path: Optional[str] = None
    #: The TensorFlow.js for Node package the log names (``tfjs-node-gpu``), if any.
    tfjs_node_package: Optional[str] = None
    #: What OpenVINO's Model Optimizer made of its requirements check, where the log shows it
    #: (:func:`tfdoctor.evidence.packages.mo_check_outcome`).
    mo_outcome: Optional[str] = None
    conda: bool = False
    #: Who installed TensorFlow where the log shows another installer than pip
    #: (:func:`tfdoctor.evidence.packages.tf_installer`).
    tf_installer: Optional[str] = None
    #: The installer the log shows where not pip (``uv pip``, ``uv``)
    #: (:func:`tfdoctor.evidence.installer.log_installer`).
    installer: Optional[str] = None
    conda_installed: frozenset[str] = frozenset()
    #: The channel ``conda list`` shows for a package of :data:`_CONDA_ASKED` (empty: the
    #: default channels), by name, sorted.
    conda_channels: tuple[tuple[str, str], ...] = ()
    #: A path the log shows under the Nix store (/nix/store/...-python3-3.6.2-env/...): the
    #: program runs from Nix packages, whose libraries are found through their run paths.
    nix_store: Optional[str] = None
    #: The line showing an active conda environment (its prompt, a path in its directory,
    #: ``conda activate``), with where: ``line 1: (tf) user@host:~$ python x.py``.
    conda_env: Optional[str] = None
    #: The loader's printed path is that of NVIDIA's CUDA container images (their
    #: LD_LIBRARY_PATH names /usr/local/nvidia/lib, where the container runtime mounts the
    #: host's driver libraries): the process runs in such a container.
    cuda_image: bool = False
    #: The log shows the CUDA libraries installed as pip wheels: their CUDA major ("12"), ""
    #: where only the and-cuda extra was asked for (and the shell passed it), None otherwise.
    cuda_wheels: Optional[str] = None
    #: CUDA library files the log shows on the disk by their full paths (a listing, find's
    #: output), in order (:class:`tfdoctor.evidence.tflog.LibraryFileShown`).
    library_files: tuple[str, ...] = ()
    #: A CUDA library of one release that did not load while the loader's printed path held
    #: a toolkit of another major, or the log shows one installed (nvcc, version.txt): (the
    #: toolkit's release, its directory or the line that shows it, the file asked for, the
    #: release the file implies, whether it is the loader's path).
    other_toolkit: Optional[tuple[str, str, str, str, bool]] = None
    #: What pip said it could see for this interpreter and platform.
    pip_refusals: tuple[PipRefusal, ...] = ()
    #: Wheel files pip refused, with their tags (the file its message or command named).
    wheel_refusals: tuple[WheelRefusal, ...] = ()
    #: Platform wheels pip installed from a file the command line named: (file, dist, version).
    wheel_files: tuple[tuple[str, str, str], ...] = ()
    #: The interpreter's platform tag, as `pip debug` lists it first (``win32``).
    tags_platform: Optional[str] = None
    #: The machine's architecture as uname or platform.platform() names it (``aarch64``).
    machine: Optional[str] = None
    #: Whether the interpreter's banner shows a 64-bit build (a 32-bit one is ruled out).
    python_64bit: bool = False
    #: The interpreter pip's tags or its banner show: its implementation, build, platform.
    interpreter: Optional[Interpreter] = None
    #: The file whose code called ``tf.load_op_library`` in a traceback (the frame before
    #: TensorFlow's load_library.py): whose op library it loaded.
    op_loader: Optional[str] = None
    #: The import package whose compiled extension Windows refused ("DLL load failed"), as a
    #: traceback shows it, where it is not TensorFlow's family (mpi4py, cv2, h5py).
    dll_extension: Optional[str] = None
    #: The package whose compiled extension NumPy refused, as a traceback's frames name it,
    #: where it is not TensorFlow's family (pandas', cv2's built for another NumPy).
    numpy_extension: Optional[PackageCode] = None
    #: The library outside TensorFlow's family whose code imported the standalone keras
    #: package, as the last traceback through Keras' frames shows it.
    keras_importer: Optional[PackageCode] = None
    #: The installed package outside TensorFlow's family whose import the loader failed (a
    #: shared library its extension needs not found, or a symbol of one undefined), as the
    #: last such traceback shows it.
    native_importer: Optional[PackageCode] = None
    #: The paths dyld said it tried for a library it did not load (its "Reason: tried:").
    dyld_tried: tuple[str, ...] = ()
    #: Those of them where dyld found a file and refused it (no "no such file").
    dyld_refused: tuple[str, ...] = ()
    #: TensorFlow found no NVIDIA kernel driver on the host (cuda_diagnostics.cc) and nothing
    #: in the log expects a GPU (no GPU shown, listed, wanted or complained of, no container).
    no_gpu_host: bool = False
    #: The same of NVML's words (:data:`_NVML_NO_DRIVER`): no NVIDIA driver, as a GPU-monitoring
    #: library found, and nothing in the log expects a GPU.
    nvml_no_gpu_host: bool = False
    #: TensorFlow itself listed a GPU: a device created (gpu_device.cc's "Created device"), or
    #: a device query answering with one or more GPUs (observed, not inferred).
    gpu_listed: bool = False
    #: The CUDA libraries that did not load are only those a 2.1+ build looks for at every
    #: start, and nothing in the log shows or wants a GPU (:mod:`tfdoctor.explain.cpu_machine`).
    cuda_probe_only: bool = False
    #: pip's "Successfully installed" is in the log and no traceback is: an install that
    #: ended well, with nothing after it failing.
    installed_quietly: bool = False
    #: nvidia-smi's table header is in the log: it prints one only where it lists a GPU.
    smi_gpu: bool = False
    #: node-gyp's verdict that an addon's build failed is in the log.
    addon_build_failed: bool = False
    #: TensorFlow.js is named in the log (a package path or name).
    tfjs: bool = False
    #: HDFS or Hadoop is named in the log (an hdfs:// path, libhdfs, Hadoop's variables,
    #: TensorFlowOnSpark): a JVM library that does not load is the HDFS file system's.
    hadoop: bool = False
    #: A library other than TensorFlow's HDFS file system that starts a JVM in the process
    #: (JPype, pyjnius, python-javabridge, R's rJava) is named in the log.
    jvm_embedder: bool = False
    #: TensorFlowSharp's types (``TensorFlow.TFGraph``, ``TFTensor``) are in the log: the .NET
    #: binding whose NuGet package carries TensorFlow's C library itself.
    tensorflowsharp: bool = False
    #: The log shows S3_ENDPOINT set to a plain-http URL.
    s3_plain_http: bool = False
    #: The version of pip the log shows (its upgrade notice, ``pip X from ...``).
    pip_version: Optional[str] = None
    #: The macOS a library dyld could not bind was built for (its "Referenced from:" line).
    dyld_built_for: Optional[str] = None
    #: The hosted notebook the log shows (``colab``, ``kaggle``): its paths or its name.
    notebook: Optional[str] = None
    #: The versioned interpreter command a shell line ran the code with (``python3``,
    #: ``py -3.10``), where the log shows one: pip's commands name it.
    python_command: Optional[str] = None
    #: The container tool whose command the log shows running the program or reading its
    #: output (``kubectl logs``, ``docker exec``): it ran in a container.
    container_tool: Optional[str] = None
    #: The kind of Mac the log shows (with its words), where it shows one and its system is
    #: macOS or not shown (:func:`tfdoctor.evidence.macos.mac_shown`; also in ``inferred``).
    mac: Optional[Inferred] = None
    #: A ``docker run`` or ``podman run`` the log shows without a GPU flag (the tool, the
    #: command as shown).
    docker_run_without_gpu: Optional[tuple[str, str]] = None
    #: ``macos`` where the log shows a Mac (its platform, the issue's form) and a ``docker
    #: run``/``podman run`` on it: Docker Desktop's (Podman's) Linux VM, which hands its
    #: containers no GPU.
    container_host: Optional[str] = None
    #: The package manager the log shows the host's packages installed with (``apt``,
    #: ``dnf``, ``yum``, ``zypper``).
    packager: Optional[str] = None
    #: The tool of the first ``docker run`` or ``podman run`` the log shows, GPU flag or not.
    run_tool: Optional[str] = None
    #: The line that prints a Docker container's default hostname (its ID's first 12 hex
    #: digits: TensorFlow's CUDA diagnostics, a shell's prompt): the process ran in one.
    container_hostname: Optional[str] = None
    #: The line that names a Cloud TPU VM's hostname, where TensorFlow's own frames are in a
    #: ``site-packages`` directory (a virtual environment's, ``~/.local``'s, conda's: one the
    #: user installed it into, not the image's system ``dist-packages``) and the log names no
    #: TPU build of TensorFlow (Cloud TPU's guide installs tensorflow-tpu there too).
    tpu_vm_user_tf: Optional[str] = None
    #: The SageMaker instance type the log shows the job on (``ml.m5.xlarge``).
    instance_type: Optional[str] = None
    #: TensorFlow's loader opened a ROCm library (tensorflow-rocm on ROCm's runtime).
    rocm_loaded: bool = False
    #: A kernel look-up found a kernel of the op for a device the process registered, and
    #: none that takes the attributes asked (observed): a dtype refused, not a device missing.
    kernel_refused_attrs: bool = False
    #: Releases pip skipped for their Requires-Python, as it listed them.
    python_refusals: tuple[PythonRefusal, ...] = ()
    #: uv's hints naming the Python tags a release's wheels have, none of them this Python's.
    abi_hints: tuple[AbiTagsFound, ...] = ()
    #: uv's hints naming the platform tags a release's wheels have, none of them this one's.
    platform_hints: tuple[PlatformsFound, ...] = ()
    #: uv's hints that a requirement's releases exist but were set aside.
    set_aside: tuple[VersionsSetAside, ...] = ()
    #: Facts the log does not state but its paths and file names imply, each with its basis.
    inferred: tuple[Inferred, ...] = ()
    #: Where TensorFlow's own lines state a fact (field name, ``line 12``), for those read from
    #: its log lines' events (:mod:`tfdoctor.evidence.tflog`).
    stated_at: tuple[tuple[str, str], ...] = ()
    #: The packages a shown ``python -c`` command imports before TensorFlow
    #: (:func:`tfdoctor.evidence.imports.imported_before_tensorflow`).
    imported_before: tuple[str, ...] = ()

    def known(self) -> list[str]:
        """What the log states, as phrases (not what it only implies: :attr:`inferred`), with
        the line that states it where TensorFlow's own lines do."""
        out = []
        guessed = {hint.fact for hint in self.inferred}
        at = dict(self.stated_at)
        if self.tf_version:
            out.append(f"TensorFlow {self.tf_version}")
        if self.python and "python" not in guessed:
            out.append(f"Python {self.python}")
        if self.cudnn_compiled:
            out.append(f"a build for cuDNN {self.cudnn_compiled}{_at(at, 'cudnn_compiled')}")
        if self.cudnn_loaded:
            out.append(f"cuDNN {self.cudnn_loaded} loaded{_at(at, 'cudnn_loaded')}")
        if self.gpu_name or self.compute_capability:
            cc = self.compute_capability
            notes = [f"compute capability {cc}"] if cc else []
            notes += [at["compute_capability"]] if "compute_capability" in at else []
            name = f"GPU {self.gpu_name}" if self.gpu_name else "GPU"
            out.append(name + (f" ({', '.join(notes)})" if notes else ""))
        if self.gpu_memory:
            out.append(f"{self.gpu_memory[1]} of the GPU's {self.gpu_memory[0]} free at start")
        if self.driver_version:
            out.append(f"driver {self.driver_version}{_at(at, 'driver_version')}")
        if self.numpy_version:
            out.append(f"NumPy {self.numpy_version}")
        if self.nccl_version and self.nccl_cuda:
            out.append(f"NCCL {self.nccl_version} built for CUDA {self.nccl_cuda}")
        if self.oom_device or self.oom_bytes:
            size = f" of {size_text(self.oom_bytes)}" if self.oom_bytes else ""
            device = f" on {self.oom_device}" if self.oom_device else ""
            out.append(f"an allocation{size} failing{device}{_at(at, 'oom')}")
        return out

    def unknown(self) -> list[str]:
        """What the fix would need and the log does not show."""
        out = []
        if not self.tf_version:
            out.append("the TensorFlow version")
        if not self.os:
            out.append("the operating system")
        if not self.python:
            out.append("the Python version")
        return out


def _at(where: Mapping[str, str], fact: str) -> str:
    """`` (line 12)`` where a fact is stated, else empty."""
    return f" ({where[fact]})" if fact in where else ""


#: pip's refusal of a wheel file ("X.whl is not a supported wheel on this platform"): its
#: platform tag is the one the machine does not have.
_REFUSED_WHEEL_LINE = re.compile(r"^[^\n]*is not a supported wheel[^\n]*$", re.MULTILINE)

#: Path styles and words that imply an operating system, in the order they are tried.
_OS_TEXT = (
    (
        "macos",
        re.compile(
            r"(?:^|[\s\"'(])/(?:Users/|opt/homebrew/|usr/local/Cellar/)|\.dylib\b|\bon darwin$"
            # python.org's macOS installer: its framework and its Applications folder.
            r"|/Library/Frameworks/Python\.framework/|/Applications/Python 3\.\d+/"
            # platform.platform()'s words for macOS (macOS-14.1-arm64-arm-64bit;
            # Darwin-19.6.0-x86_64-i386-64bit).
            r"|\b(?:macOS|Darwin)-\d+\.\d+(?:\.\d+)?-(?:arm64|x86_64)\b",
            re.MULTILINE,
        ),
    ),
    # platform.platform()'s words (Windows-10-10.0.19041-SP0) and CPython's Windows build
    # string ("[MSC v.1929 64 bit (AMD64)]", which its banner and sys.version print) say
    # Windows too, as do Python's words for an extension Windows refused (Python/
    # dynload_win.c) and TensorFlow's checks that run on Windows only (self_check.py).
    (
        "windows",
        re.compile(
            r"\b[A-Za-z]:\\|\\(?:site|dist)-packages\\|\.dll\b"
            r"|\[MSC v\.\d+|\bWindows-1[01]-10\.\d+\.\d+|\bDLL load failed\b"
            r"|TensorFlow requires a 64-bit Python interpreter"
            r"|Found conflicting TensorFlow installations"
            # pip debug's tags for a Windows interpreter (packaging's win32, win_amd64,
            # win_arm64) and conda info's platform for a Windows conda (win-32, win-64).
            r"|(?m:^[ \t]*(?:cp|pp|py)\d*-\w+-win(?:32|_amd64|_arm64)[ \t]*\r?$)"
            r"|(?m:^[ \t]*platform : win-(?:32|64)[ \t]*\r?$)"
        ),
    ),
    (
        "linux",
        re.compile(
            r"(?:^|[\s\"'(])/(?:usr|home|opt|root|lib|lib64|content|workspace|mnt)/|\.so\b"
            r"|core dumped|/sbin/ldconfig"
            r"|\bLinux-\d+\.\d+\.\d+\S*-(?:x86_64|aarch64)-with-"
        ),
    ),
)


#: The Linux path styles that are a Mac's too (what :data:`_OS_TEXT` cites for them).
_SHARED_WITH_MACOS = frozenset({"/usr/", "/opt/"})


# Shell prompts as users paste them: cmd.exe's and PowerShell's (`C:\Users\x>`, `PS C:\x>`),
# bash's default on Linux (`user@host:~/dir$`) and zsh's on macOS (`user@MacBook-Pro dir %`).
_PROMPTS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("windows", re.compile(r"^(?:\([\w.-]+\) )?(?:PS )?[A-Z]:\\[^>\n]*> ?\S", re.MULTILINE), ":\\"),
    (
        "linux",
        re.compile(r"^(?:\([\w.-]+\) )?[\w.-]+@[\w.-]+:[~/][^$\n]*\$ \S", re.MULTILINE),
        "$ ",
    ),
    (
        "macos",
        re.compile(r"^(?:\([\w.-]+\) )?[\w.-]+@[\w.-]*Mac[\w.-]* [^%\n]*% \S", re.MULTILINE),
        "% ",
    ),
)


#: How much of each block is searched for a shell prompt.
PROMPT_READ = 16 * 1024


def _os_of_prompt(text: str) -> Optional[Inferred]:
    """The operating system the first shell prompt of ``text`` implies, or None."""
    for name, pattern, needs in _PROMPTS:
        if needs not in text:
            continue  # the prompt's own characters are not there: no regex
        match = pattern.search(text)
        if match is not None:
            return Inferred("os", name, match.group(0).strip()[:60])
    return None


def _os_of(
    lines: Sequence[str], libraries: Sequence[str], frames: Sequence[str] = ()
) -> Optional[Inferred]:
    """The operating system the cited lines and the tracebacks' file paths (``frames``)
    imply (no log states it), with what implies it: library names, then path styles."""
    for lib in libraries:
        if lib.endswith(".dll"):
            return Inferred("os", "windows", lib)
    for lib in libraries:
        if "-darwin.so" in lib:
            # CPython's extension suffix on macOS (.cpython-39-darwin.so).
            return Inferred("os", "macos", lib)
        if ".so" in lib:
            return Inferred("os", "linux", lib)
    text = "\n".join((*lines, *(f" {path}" for path in frames)))
    if "supported wheel" in text:
        # pip's refusal names a wheel of exactly the platform this machine is not.
        text = _REFUSED_WHEEL_LINE.sub("", text)
    # setuptools' build folders, named after the platform they build for (before the path
    # styles: a macOS build's extensions end in .so too).
    folder = build_folder_system(text)
    if folder is not None:
        return Inferred("os", *folder)
    for name, pattern in _OS_TEXT:
        match = pattern.search(text)
        if match is not None:
            return Inferred("os", name, match.group(0).strip())
    # Only then a wheel's name: a requirement for another system can stand in any log.
    for tag in wheel_platform_tags(text):
        system = tag_os(tag)
        if system is not None:
            return Inferred("os", system, tag)
    return None


def _text_os(text: str) -> Optional[str]:
    """The operating system the whole of ``text`` implies (:func:`_os_of`), or None."""
    found = _os_of((text,), ())
    return found.value if found is not None else None


_SO_NAMED = re.compile(r"(lib[\w.+-]+?\.so(?:\.\d+)*)\b")


def _tf_import_library(tracebacks: Sequence[Traceback]) -> Optional[str]:
    """The library an ImportError raised in TensorFlow's own frame names (TensorFlow's import
    could not load it), or None."""
    for tb in tracebacks:
        if not tb.frames or not tb.name.endswith("ImportError"):
            continue
        if origin_of(tb.frames[-1].path).dist != "tensorflow":
            continue
        found = _SO_NAMED.search(tb.message)
        if found is not None:
            return found.group(1)
    return None


def _libcuda_without_module(evidence: Evidence) -> bool:
    """Whether TensorFlow's diagnostics show the driver's libcuda with a version and no
    kernel module: the driver's user-space installed, its module not loaded."""
    libcuda = any(e.source == "libcuda" for _, e in evidence.logged(tflog.DriverVersion))
    return libcuda and any(e.kernel_module_absent for _, e in evidence.logged(tflog.DriverNotFound))


#: NVML's own words for a host without the NVIDIA driver (nvmlInit's NVML_ERROR_DRIVER_NOT_LOADED
#: and NVML_ERROR_LIBRARY_NOT_FOUND, as pynvml raises them or a tool prints "Failed to
#: initialize NVML: "): a GPU-monitoring library (pynvml, gpustat, a training framework's
#: GPU logger) says so on a CPU machine as readily as on a broken GPU one.
#: https://docs.nvidia.com/deploy/nvml-api/group__nvmlReturnValues.html
_NVML_NO_DRIVER = ("nvml-driver-not-loaded", "nvml-library-not-found")


def _no_gpu_host(evidence: Evidence, text: str, container: bool, nvml: bool = False) -> bool:
    """TensorFlow's probe (with ``nvml``, NVML's: :data:`_NVML_NO_DRIVER`) found no NVIDIA
    driver on this host, and nothing else in the log says a GPU was expected."""
    if nvml:
        found = any(sid in evidence.hits for sid in _NVML_NO_DRIVER)
    else:
        found = bool(evidence.logged(tflog.DriverNotFound))
    if container or not found:
        return False
    if _libcuda_without_module(evidence):
        return False  # the driver's libcuda is installed: a GPU was meant
    if evidence.devices or evidence.gpu_complaint is not None:
        return False
    head = evidence.first_text
    return not gpu_wanted(text) and not gpu_wanted(head)


#: The CUDA executor's words when it reads an enumerated GPU's NUMA node (TensorFlow's
#: stream_executor/cuda/cuda_gpu_executor.cc, later XLA's cuda_executor.cc).
_CUDA_NUMA_READ = "successful NUMA node read from SysFS"


def _cuda_probe_only(evidence: Evidence, lines: Sequence[str], container: bool) -> bool:
    """Whether the log is a machine without a GPU looking for CUDA as it starts: only the
    runtime and libcuda missing, nothing that shows or wants a GPU (devices listed, the user's
    complaint, a container's GPU image, a CUDA device enumerated)."""
    if container or evidence.devices or evidence.gpu_complaint is not None:
        return False
    numa = evidence.hits.get("numa-node")
    if numa is not None and any(_CUDA_NUMA_READ in line for _, line in numa.citations):
        # The CUDA executor reads the NUMA node of each GPU it enumerates (cuda_executor.cc's
        # TryToReadNumaNode, in its device description): libcuda ran and a GPU is there, so
        # the runtime missing beside it is the GPU's failure, not a machine without one.
        return False
    hits = [
        h
        for h in evidence.hits.values()
        if h.signature.cause in (causes.gpu.CUDA_LIBS_MISSING, causes.gpu.DRIVER_NOT_LOADED)
    ]
    if any(LOADER_LINE not in h.signature.tags for h in hits):
        return False  # the toolkit's summary, an import's error, a user's words: not the look
    if "opened-cudart" in evidence.hits or "opened-cuda-toolkit-library" in evidence.hits:
        return False  # the loader opened part of a CUDA toolkit: a GPU setup, wherever the line
    return cuda_probe_only(
        [e for _, e in evidence.logged(tflog.LibraryNotLoaded)],
        [g["library"] for h in hits for g in h.groups if g.get("library")],
        "cudart-dlerror-hint" in evidence.hits,
        evidence.first("tf_version", evidence_only=True) or evidence.stated.tf_version,
        (*lines, evidence.first_text),
    )


def _os_of_installed(evidence: Evidence) -> Optional[Inferred]:
    """macOS, where a package listing shows installed a distribution whose every release the
    wheel index knows is a macOS wheel (tensorflow-macos, tensorflow-metal): pip installs it
    nowhere else. None otherwise (a name alone, in a command or a refusal, installs nothing)."""
    for name, version in (*evidence.listed.items(), *evidence.shown.items()):
        rows = releases_of(normalize_name(name))
        platforms = {p for row in rows for p in row.platforms}
        if platforms and all(p.startswith("macos-") for p in platforms):
            return Inferred(
                "os", "macos", f"{name} {version} installed (its wheels are for macOS only)"
            )
    return None


def _system_of(
    evidence: Evidence, lines: Sequence[str], libraries: Sequence[str], frames: Sequence[str]
) -> tuple[Optional[Inferred], Optional[Inferred]]:
    """The operating system the log implies and the kind of Mac it shows, each with its
    basis: library names and path styles, the devices' lines, a prompt, the issue's form,
    then a Mac's own signs."""
    os_hint = _os_of(lines, libraries, frames)
    if (
        os_hint is not None
        and os_hint.value == "linux"
        and os_hint.because.lstrip("\"'(") in _SHARED_WITH_MACOS
        and evidence.os_of_prompt is not None
        and evidence.os_of_prompt.value == "macos"
        # A container started from the Mac's prompt is Linux whatever its host (as
        # _container_host reads it): its /usr/ paths are the container's own.
        and container_run_tool(evidence.first_text) is None
    ):
        # /usr/ and /opt/ hold programs on a Mac too (Homebrew's /usr/local on Intel, Anaconda
        # under /opt): a Mac's own zsh prompt says more than those two path styles.
        os_hint = evidence.os_of_prompt
    os_hint = (
        os_hint or evidence.os_near_devices or evidence.os_of_prompt or _os_of_installed(evidence)
    )
    said = evidence.stated
    if os_hint is None and said.os is not None:
        # The user's own form states it: what they wrote, cited as written.
        os_hint = Inferred("os", said.os, f"the issue's form: {said.os_said}")
    mac, printed = mac_shown(evidence.first_text)
    darwin = uname_darwin(evidence.first_text)
    if os_hint is None and darwin is not None:
        # The kernel's own name, as uname printed it: macOS's Darwin.
        os_hint = Inferred("os", "macos", darwin)
    if os_hint is None and mac is not None and printed:
        # Only what the machine printed says the system (a user's words may name another
        # machine than the one that failed).
        os_hint = Inferred("os", "macos", mac.because)
    if os_hint is None and mac is None:
        # TensorFlow's own images are Ubuntu's (https://www.tensorflow.org/install/docker):
        # a program the log shows started from one runs on Linux.
        release = tf_image_release(evidence.first_text) or tf_cpu_image(evidence.first_text)
        if release is not None:
            os_hint = Inferred("os", "linux", "TensorFlow's Docker image (Linux)")
    if os_hint is not None and os_hint.value != "macos":
        mac = None  # a Mac named beside a log of another system is another machine
    return os_hint, mac


def _container_host(evidence: Evidence) -> Optional[str]:
    """``macos`` where the log shows a container started (``docker run``, ``podman run``) on
    a Mac: a Mac's own signs (its platform string, uname, sysctl) or the issue's form naming
    macOS. A container is Linux whatever its host, so a Mac there is the host's."""
    if container_run_tool(evidence.first_text) is None:
        return None
    if evidence.stated.os == "macos" or mac_shown(evidence.first_text)[0] is not None:
        return "macos"
    return None


#: The evidence signatures that show HDFS or Hadoop in a log.
_HADOOP_SHOWN = (
    "hdfs-shown",
    "hadoop-home-shown",
    "tensorflowonspark-shown",
    "tensorflowonspark-module-shown",
)

#: The JVM's library and Hadoop's, which TensorFlow's HDFS file system loads (libhdfs starts
#: a JVM from libjvm.so).
_HDFS_LIBRARIES = ("libjvm.so", "libhdfs.so")
#: Libraries that load libjvm.so into a Python or R process themselves: beside one, a JVM
#: library that does not load may be theirs. (Spark's py4j talks to a JVM in another process
#: and loads none.)
#: TensorFlowSharp's namespace and types (TensorFlow.NET's namespace is ``Tensorflow``).
_TENSORFLOWSHARP = re.compile(r"\bTensorFlowSharp\b|\bTensorFlow\.TF[A-Z]\w{0,40}")
_JVM_EMBEDDERS = re.compile(r"(?i)\b(?:jpype1?|pyjnius|jnius|javabridge|rjava)\b")


#: TensorFlow's TPU builds as pip and a listing name them (``tensorflow-tpu``, the nightly
#: ``tf-nightly-tpu``; a wheel's ``tensorflow_tpu-2.16.1-...``): a log that shows one installed
#: is not of the CPU wheel on a TPU VM.
_TPU_BUILD_NAMED = re.compile(r"(?<![\w.-])(?:tensorflow|tf[-_]nightly)[-_]tpu\b")


def reveal(evidence: Evidence, matrix: Optional[Matrix] = None) -> Revealed:
    """What ``evidence`` shows about the machine (``matrix``: which TensorFlow lines the
    CUDA and cuDNN releases a missing library's file name implies were built for)."""
    lines = evidence.cited_lines()
    libraries = evidence.values("library")
    site = evidence.first("site_packages")
    python = evidence.first("python_version") or evidence.python_shown
    inferred: list[Inferred] = []
    # The interpreter's directory in a path: TensorFlow's site-packages, else a traceback's
    # frame (lib/python3.12/, Python312\Lib\, python@3.12's framework).
    paths = [site] if site is not None else []
    paths += [frame.path for tb in evidence.tracebacks for frame in tb.frames]
    paths += [f"lib/python{v}/" for v in evidence.values("path_python", evidence_only=True)[:1]]
    for path in paths if python is None else ():
        match = re.search(r"python(3\.\d+)[/\\]|Python3(\d+)[/\\]", path)
        if match is not None:
            python = match.group(1) or f"3.{match.group(2)}"
            inferred.append(Inferred("python", python, path))
            break
    conda = site is not None and bool(re.search(r"conda|[/\\]envs[/\\]", site))
    if conda and site is not None:
        inferred.append(Inferred("environment", "a conda environment", site))
    frames = [f.path for tb in evidence.tracebacks for f in tb.frames]
    image_line = next((line for line in lines if _CUDA_IMAGE_PATH.search(line)), None)
    notebook = _notebook_of("\n".join((evidence.first_text, *lines)), frames)
    if notebook is not None:
        image_line = None  # hosted notebooks (Colab) print the same path: no container shown
    if image_line is not None:
        inferred.append(Inferred("environment", "a container of NVIDIA's CUDA images", image_line))
    os_hint, mac = _system_of(evidence, lines, libraries, frames)
    inferred.extend(x for x in (mac, os_hint) if x is not None)
    said = evidence.stated
    if python is None and said.python is not None:
        python = said.python
        inferred.append(Inferred("python", python, "the issue's form"))
    inferred.extend(_soname_hints(evidence, matrix))
    # TensorFlow's own lines first (tflog's events), then what other lines state (nvidia-smi's
    # header, "Loaded cuDNN version 8600", the devices TensorFlow created).
    stated: dict[str, str] = {}
    mismatch = [
        (where, e) for where, e in evidence.logged(tflog.VersionMismatch) if e.library == "cuDNN"
    ]
    compiled = _stated(stated, "cudnn_compiled", [(w, e.compiled) for w, e in mismatch])
    loaded = _stated(stated, "cudnn_loaded", [(w, e.loaded) for w, e in mismatch])
    compiled = compiled or evidence.first("cudnn_compiled")
    loaded = loaded or evidence.first("cudnn_loaded") or evidence.first("cudnn_version")
    logged_caps = [
        *((w, e.capability) for w, e in evidence.logged(tflog.GpuIgnored)),
        *((w, e.capability) for w, e in evidence.logged(tflog.NoKernelsForGpu)),
    ]
    cap = _stated(stated, "compute_capability", logged_caps)
    caps = [cap] if cap else evidence.values("compute_capability")
    if not caps and evidence.first("cc_major") and evidence.first("cc_minor"):
        # TensorFlow 1.x's device line: "major: 7 minor: 5".
        caps = [f"{evidence.first('cc_major')}.{evidence.first('cc_minor')}"]
    driver = _stated(stated, "driver_version", _driver_versions(evidence))
    oom = next(
        (
            (where, e)
            for where, e in evidence.logged(tflog.OutOfMemory)
            if e.failure and (e.device or e.bytes)
        ),
        None,
    )
    if oom is not None:
        stated["oom"] = oom[0]
    text = "\n".join(lines)
    return Revealed(
        tf_version=evidence.first("tf_version", evidence_only=True)
        or evidence.echoed.get("tensorflow")
        or _listed_tensorflow(evidence.listed)
        or evidence.stated.tf_version
        or tf_image_release(evidence.first_text),
        tf_dist=evidence.first("dist", evidence_only=True),
        python=python,
        os=os_hint.value if os_hint is not None else None,
        cudnn_loaded=cudnn_dotted(loaded),
        cudnn_compiled=cudnn_dotted(compiled),
        cuda_version=evidence.first("cuda_version"),
        build_cuda=next(
            filter(None, map(tflog.cuda_of_soname, evidence.values("toolkit_library"))), None
        ),
        compute_capability=caps[0] if caps else None,
        gpu_name=evidence.first("gpu_name") or evidence.stated.gpu,
        gpu_memory=_gpu_memory(evidence),
        stated_cuda=evidence.stated.cuda,
        driver_version=driver or evidence.first("driver_version"),
        kernel_module=next(
            (e.version for _, e in evidence.logged(tflog.DriverVersion) if e.source == "kernel"),
            None,
        ),
        libcuda_without_module=_libcuda_without_module(evidence),
        nouveau_holds_gpu=any(
            NOUVEAU_HOLDS_GPU in h.signature.tags for h in evidence.hits.values()
        ),
        numpy_version=evidence.first("numpy_version") or evidence.echoed.get("numpy"),
        nccl_version=evidence.first("nccl_version", evidence_only=True),
        nccl_cuda=evidence.first("nccl_cuda", evidence_only=True),
        oom_device=(oom[1].device or None) if oom is not None else None,
        oom_bytes=oom[1].bytes if oom is not None else None,
        site_packages=site,
        tf_import_library=_tf_import_library(evidence.tracebacks),
        other_toolkit=_other_toolkit(evidence),
        wsl=evidence.wsl or "/usr/lib/wsl/" in text or evidence.stated.wsl,
        cuda_image=image_line is not None,
        cuda_wheels=_cuda_wheels(evidence),
        library_files=tuple(
            dict.fromkeys(e.path for _, e in evidence.logged(tflog.LibraryFileShown))
        ),
        conda=conda,
        tf_installer=tf_installer((*(p for p in (site,) if p), *frames), evidence.conda_installed),
        installer=log_installer(text),
        conda_installed=evidence.conda_installed,
        conda_channels=tuple(sorted(evidence.conda_channels.items())),
        nix_store=next((p for p in (site or "", *frames) if p.startswith(_NIX_STORE)), None),
        conda_env=(
            f"{evidence.conda_env[0]}: {evidence.conda_env[1]}"
            if evidence.conda_env is not None
            else f"the installed path {site}"
            if conda
            else None
        ),
        pip_refusals=tuple(evidence.refusals),
        wheel_refusals=tuple(evidence.wheel_refusals),
        wheel_files=tuple(dict.fromkeys(evidence.wheel_files)),
        tags_platform=evidence.tags_platform,
        machine=evidence.machine,
        python_64bit=evidence.python_64bit,
        interpreter=evidence.interpreter,
        op_loader=op_loader_in(evidence.first_text),
        dll_extension=_dll_extension(evidence.tracebacks),
        numpy_extension=numpy_extension_package(evidence.tracebacks),
        keras_importer=next(filter(None, map(keras_importer, reversed(evidence.tracebacks))), None),
        native_importer=_native_importer(evidence.tracebacks),
        dyld_tried=dyld_tried(evidence.first_text),
        dyld_refused=dyld_refused(evidence.first_text),
        pip_version=evidence.first("pip_version", evidence_only=True),
        tfjs_node_package=evidence.tfjs_node_package,
        mo_outcome=mo_check_outcome(evidence.first_text)
        if any(h == _MO_CHECK for h in evidence.hits)
        else None,
        toolkit_major=_toolkit_major(evidence, text),
        frameworks=read_frameworks(f"{evidence.first_text}\n{text}"),
        serving=_SERVING_WORDS.search(f"{evidence.first_text}\n{text}") is not None,
        memory_reading=_gpu_memory_reading(
            # The log's head holds the GPU's description, which no signature cites.
            f"{evidence.first_text}\n{text}",
            next(
                (
                    e.bytes
                    for _, e in evidence.logged(tflog.OutOfMemory)
                    if e.failure and e.bytes and "trying to allocate" in e.message
                ),
                None,
            ),
        ),
        ptxas_path=tflog.ptxas_path_shown(f"{evidence.first_text}\n{text}"),
        ptxas_shown=tuple(
            {
                e.problem: (e.problem, e.ptxas, e.other)
                for _, e in reversed(evidence.logged(tflog.PtxasProblem))
                if e.ptxas and e.other
            }.values()
        ),
        dyld_built_for=evidence.first("macos_version", evidence_only=True),
        mac=mac,
        notebook=notebook,
        python_command=python_command(evidence.first_text),
        container_tool=container_shown(evidence.first_text),
        docker_run_without_gpu=evidence.docker_run_without_gpu,
        container_host=_container_host(evidence),
        packager=host_packager(evidence.first_text),
        run_tool=container_run_tool(evidence.first_text),
        container_hostname=container_hostname(evidence.first_text),
        instance_type=sagemaker_instance_type(evidence.first_text),
        tpu_vm_user_tf=(
            tpu_vm_hostname(evidence.first_text)
            if any("/site-packages/tensorflow/" in f for f in frames)
            and not _TPU_BUILD_NAMED.search(evidence.first_text)
            else None
        ),
        no_gpu_host=_no_gpu_host(evidence, text, image_line is not None),
        nvml_no_gpu_host=_no_gpu_host(evidence, text, image_line is not None, nvml=True),
        gpu_listed="created-gpu-device" in evidence.hits
        or (gpus_listed([x for _, x in evidence.devices]) or 0) > 0,
        cuda_probe_only=_cuda_probe_only(evidence, lines, image_line is not None),
        installed_quietly=not evidence.tracebacks
        and any(_INSTALLED in t for t in (evidence.first_text, *lines)),
        smi_gpu="nvidia-smi-header" in evidence.hits,
        addon_build_failed="node-gyp-build-failed" in evidence.hits,
        tfjs="tfjs-shown" in evidence.hits,
        rocm_loaded="rocm-library-opened" in evidence.hits,
        kernel_refused_attrs=evidence.kernel_refused_attrs,
        hadoop=any(s in evidence.hits for s in _HADOOP_SHOWN),
        jvm_embedder=_JVM_EMBEDDERS.search(f"{evidence.first_text}\n{text}") is not None,
        tensorflowsharp=_TENSORFLOWSHARP.search(f"{evidence.first_text}\n{text}") is not None,
        s3_plain_http="s3-endpoint-http-shown" in evidence.hits,
        python_refusals=tuple(evidence.python_refusals),
        abi_hints=tuple(evidence.abi_hints),
        platform_hints=tuple(evidence.platform_hints),
        set_aside=tuple(evidence.set_aside),
        inferred=tuple(inferred),
        stated_at=tuple(stated.items()),
        imported_before=imported_before_tensorflow(f"{evidence.first_text}\n{text}"),
    )


class _Notebook(NamedTuple):
    """A hosted notebook's marks: its ``name``, the plain ``words`` one of which every match of
    its ``pattern`` holds, and the pattern of its own paths and packages."""

    name: str
    words: tuple[str, ...]
    pattern: re.Pattern[str]

    def shown(self, text: str) -> bool:
        """Whether ``text`` shows this notebook: the words first, the pattern where one is in."""
        return any(word in text for word in self.words) and self.pattern.search(text) is not None


#: A hosted notebook's own paths and packages: Colab's /content working directory, its
#: google.colab package and the local version label of the packages Colab builds for its image
#: (``tensorflow 2.8.2+zzzcolab20220719082949``, as pip prints them installed there), Kaggle's
#: /kaggle/input and /kaggle/working. Not the words "Colab" or "Kaggle", which a user writes of
#: another machine ("it works on Colab"). Each row keeps, beside its pattern, the plain words one
#: of which every match of the pattern holds: a text without them is passed over without a
#: regular-expression search (most logs show no notebook).
_NOTEBOOKS: tuple[_Notebook, ...] = (
    # Colab's pip hook (google.colab's _pip module) prints "WARNING: The following packages
    # were previously imported in this runtime:" after an install in the kernel: only Colab's
    # runtime has it. The google.colab package's own files in a traceback (its import hooks,
    # _import_hooks/_cv2.py: googlecolab/colabtools, google/colab/) are Colab's too, and so is
    # /usr/lib64-nvidia, the directory of the driver's libraries that Colab's runtime puts on
    # LD_LIBRARY_PATH, which TensorFlow's loader prints with each library it could not open
    # (dso_loader.cc; tinygrad/tinygrad#16023, googlecolab/colabtools#4300).
    # pip on Colab's runtime also looks in Colab's own wheel index and says so first
    # ("Looking in indexes: https://pypi.org/simple,
    # https://us-python.pkg.dev/colab-wheels/public/simple/", from the runtime's pip
    # configuration): the repository is Colab's.
    _Notebook(
        "colab",
        ("content/", "colab", "this runtime", "crashed for an unknown", "lib64-nvidia"),
        re.compile(
            r"\bgoogle[./]colab\b|(?:^|[\s\"'(])/content/|\d\+zzzcolab\d"
            r"|previously imported in this runtime:"
            r"|(?:^|\n)Your \w+ crashed for an unknown reason"
            r"|(?:^|[\s:=])/usr/lib64-nvidia(?:/|:|\s|$)"
            r"|\bus-python\.pkg\.dev/colab-wheels/"
        ),
    ),
    # Kaggle's notebook directories: the data (/kaggle/input), the output kept with the
    # version (/kaggle/working) and the scratch one (/kaggle/temp), as the first cell of
    # Kaggle's Python notebook template names them (Kaggle/docker-python's image runs it).
    _Notebook("kaggle", ("/kaggle/",), re.compile(r"/kaggle/(?:input|working|temp)\b")),
    # A SageMaker notebook instance's persistent directory and the conda environments its
    # kernels run in (https://docs.aws.amazon.com/sagemaker/latest/dg/nbi-lifecycle-config-install.html,
    # https://docs.aws.amazon.com/sagemaker/latest/dg/nbi-add-external.html), and a training
    # job's /opt/ml/code, /opt/ml/input and /opt/ml/model
    # (https://docs.aws.amazon.com/sagemaker/latest/dg/your-algorithms-training-algo-running-container.html),
    # and a Studio space's volume, mounted at /home/sagemaker-user
    # (https://docs.aws.amazon.com/sagemaker/latest/dg/studio-updated-jl-image-specifications.html).
    _Notebook(
        "sagemaker",
        ("/ec2-user/", "/opt/ml/", "/sagemaker-user/"),
        re.compile(
            r"/home/ec2-user/(?:SageMaker|anaconda3/envs)/|/opt/ml/(?:code|input|model)/"
            r"|/home/sagemaker-user/"
        ),
    ),
    # A Databricks cluster's own Python environment (/databricks/python/bin/pip in Databricks'
    # init-script guide, https://docs.databricks.com/archive/compute/libraries-init-scripts.html,
    # python3 in older runtimes) and the driver's working directory, /databricks/driver.
    _Notebook("databricks", ("/databricks/",), re.compile(r"/databricks/(?:python3?|driver)/")),
    # The Deep Learning VM image Vertex AI Workbench instances run keeps its metadata and
    # scripts under /opt/deeplearning/ (https://cloud.google.com/deep-learning-vm/docs/images;
    # the probe's marker for the image, tfdoctor.probes.hosted).
    _Notebook("vertex", ("/opt/deeplearning/",), re.compile(r"/opt/deeplearning/")),
)


def _notebook_of(head: str, frames: Sequence[str]) -> Optional[str]:
    """The hosted notebook the head of the log or its tracebacks' files show by its own paths,
    or None (two shown: neither)."""
    text = "\n".join((head, *frames))
    found = [row.name for row in _NOTEBOOKS if row.shown(text)]
    return found[0] if len(found) == 1 else None


def _listed_tensorflow(listed: Mapping[str, str]) -> Optional[str]:
    """TensorFlow's version in a pasted listing, where its distributions there agree."""
    versions = {v for name, v in listed.items() if name in TF_DISTRIBUTIONS}
    return versions.pop() if len(versions) == 1 else None


def _listed_distribution(listed: Mapping[str, str], version: Optional[str]) -> Optional[str]:
    """The TensorFlow distribution a pasted listing shows at ``version`` (``tensorflow`` first
    where several are), or None."""
    found = [n for n, v in listed.items() if n in TF_DISTRIBUTIONS and v == version]
    return min(found, key=TF_DISTRIBUTIONS.index) if found else None


def _cuda_wheels(evidence: Evidence) -> Optional[str]:
    """The CUDA major of the nvidia-* wheels pip installed or a listing shows ("" where the
    and-cuda extra was only asked for), or None: none shown, an and-cuda request the shell
    stopped (zsh's glob), or wheels of another CUDA major than the library files TensorFlow
    asked for."""
    ids = {h.signature.id: h for h in evidence.hits.values()}
    installed = ids.get("cuda-wheels-installed") or ids.get("cuda-wheels-listed")
    if installed is not None:
        major: Optional[str] = next(
            (g["cuda_version"] for g in installed.groups if g.get("cuda_version")), ""
        )
    elif "and-cuda-requested" in ids and "zsh-glob-extra" not in ids:
        major = ""
    else:
        return None
    asked = {e.cuda.split(".", 1)[0] for _, e in evidence.logged(tflog.LibraryNotLoaded) if e.cuda}
    if major and asked and major not in asked:
        return None  # cu12 wheels cannot serve a build that asks for CUDA 11's files
    return major


#: The evidence signatures that show the CUDA toolkit installed: nvcc's banner, version.txt,
#: the toolkit's directory named for its release.
_TOOLKIT_SHOWN = (
    "nvcc-release-shown",
    "cuda-version-file-shown",
    "cuda-toolkit-dir-shown",
    "cuda-toolkit-linux-dir-shown",
)


def _toolkit_major(evidence: Evidence, text: str) -> Optional[tuple[int, str]]:
    """The one CUDA toolkit major the log shows (the toolkit signatures' releases, then the
    directories and the compiler wheel its head and cited lines show), with the words."""
    shown: dict[int, str] = {}
    for sid in _TOOLKIT_SHOWN:
        if sid in evidence.hits:
            for groups in evidence.hits[sid].groups:
                release = groups.get("toolkit_cuda")
                if release:
                    shown.setdefault(version_key(release)[0], f"CUDA {release}")
    for said in (evidence.first_text, text):
        for major, words in tflog.toolkit_majors_shown(said).items():
            shown.setdefault(major, words)
    return next(iter(shown.items())) if len(shown) == 1 else None


def _other_toolkit(evidence: Evidence) -> Optional[tuple[str, str, str, str, bool]]:
    """A CUDA file of one major release that did not load, where the search path TensorFlow
    printed holds a toolkit of another (libcudart.so.11.0 asked, /usr/local/cuda-12.1 there),
    else where the log shows one toolkit release installed, of another major (nvcc's
    "release 12.1"): the toolkit the user has, which a TensorFlow of its own CUDA would use."""
    failed = [event for _, event in evidence.logged(tflog.LibraryNotLoaded)]
    for event in failed:
        found, asked = event.path_cuda, event.cuda
        if (
            found is not None
            and asked is not None
            and version_key(found[0])[:1] != version_key(asked)[:1]
        ):
            return found[0], found[1], event.soname, asked, True
    shown = [
        (groups["toolkit_cuda"], line)
        for sid in _TOOLKIT_SHOWN
        if sid in evidence.hits
        for groups, (_, line) in zip(evidence.hits[sid].groups, evidence.hits[sid].citations)
        if groups.get("toolkit_cuda")
    ]
    if len({release for release, _ in shown}) != 1:
        return None  # none shown, or several toolkits: which one serves is not known
    release, line = shown[0]
    for event in failed:
        if event.cuda is not None and not causes.gpu.toolkit_serves(release, event.cuda):
            return release, line.strip(), event.soname, event.cuda, False
    return None


def _stated(
    stated: dict[str, str], fact: str, found: Sequence[tuple[str, Optional[str]]]
) -> Optional[str]:
    """The first value in ``found`` (where, value), its place noted in ``stated``."""
    for where, value in found:
        if value:
            stated[fact] = where
            return value
    return None


def _driver_versions(evidence: Evidence) -> list[tuple[str, Optional[str]]]:
    """The kernel driver's version where TensorFlow's log lines state it (cuda_diagnostics.cc,
    cuda_dnn.cc); libcuda's own version is the library's, not the running driver's."""
    out: list[tuple[str, Optional[str]]] = []
    for where, event in evidence.events:
        if isinstance(event, tflog.DriverMismatch):
            out.append((where, event.kernel))
        elif isinstance(event, tflog.DriverVersion) and event.source != "libcuda":
            out.append((where, event.version))
    return out


def _soname_hints(evidence: Evidence, matrix: Optional[Matrix]) -> list[Inferred]:
    """The CUDA and cuDNN releases the library files that did not load imply, each with the
    line that names the file (``libcudart.so.11.0`` is asked for by a build for CUDA 11), and
    the TensorFlow lines built for all of them (from the matrix)."""
    hints: dict[tuple[str, str], Inferred] = {}
    for where, event in evidence.logged(tflog.LibraryNotLoaded):
        for fact, value in (("cuda", event.cuda), ("cudnn", event.cudnn)):
            if value is not None:
                hints.setdefault((fact, value), Inferred(fact, value, f"{where}: {event.soname}"))
    found = list(hints.values())
    lines = _lines_built_for(matrix, found)
    if lines:
        found.append(Inferred("tensorflow-lines", lines, ", ".join(h.because for h in found)))
    return found


def _lines_built_for(matrix: Optional[Matrix], hints: Sequence[Inferred]) -> Optional[str]:
    """The TensorFlow lines (``2.5 to 2.14``) whose builds use every CUDA and cuDNN release
    ``hints`` name, as the matrix records them; None without a matrix, a hint or a line."""
    if matrix is None or not hints:
        return None
    found = []
    for line in matrix.releases:
        built = {"cuda": line.cuda, "cudnn": line.cudnn}
        if all(_same_release(built[h.fact], h.value) for h in hints):
            found.append(line.line)
    if not found:
        return None
    ordered = sorted(found, key=version_key)
    return ordered[0] if len(ordered) == 1 else f"{ordered[0]} to {ordered[-1]}"


def _same_release(built: Optional[str], implied: str) -> bool:
    """A build's ``11.8`` is the ``11`` (or a ``10.0`` is the ``10.0``) a file name implies."""
    want = version_key(implied)
    return built is not None and version_key(built)[: len(want)] == want


def _settle_echoed_keras(evidence: Evidence, matrix: Optional[Matrix]) -> Evidence:
    """``evidence``, where an echoed keras.__version__ (read as the keras package installed)
    is a release only tf-keras has, with it as tf-keras's: tf_keras imported as keras (tf.keras
    under TF_USE_LEGACY_KERAS=1) echoes its own release."""
    echoed = evidence.echoed.get("keras")
    if matrix is None or echoed is None or evidence.listed.get("keras") != echoed:
        return evidence
    if of_tf_keras_only(matrix, echoed):
        del evidence.listed["keras"]
        evidence.listed.setdefault("tf-keras", echoed)
    return evidence


def log_facts(revealed: Revealed, evidence: Evidence, base: Optional[Facts], version: str) -> Facts:
    """Facts holding only what the log shows, over ``base`` (a machine's facts) when given.

    What the log does not show stays unknown: no interpreter, word size, architecture or
    operating system is made up for it (what the log implies of the Python and the operating
    system reaches the fixes through :func:`log_hints`, marked inferred in the report)."""
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    facts = base or Facts(tfdoctor_version=version, collected_at=now)
    cited = tuple(evidence.cited_lines()[:MAX_LOG_ERRORS])
    tf = facts.tensorflow or TensorFlowFacts(status=TFStatus.SKIPPED, interpreter="")
    tf = dataclasses.replace(
        tf,
        version=tf.version or revealed.tf_version,
        cudnn_version=tf.cudnn_version or revealed.cudnn_compiled,
        log_errors=tuple(dict.fromkeys((*tf.log_errors, *cited))),
        stderr_tail=tf.stderr_tail or "\n".join(cited),
    )
    packages = list(facts.packages or ())
    names = {p.name for p in packages}
    listed_dist = _listed_distribution(evidence.listed, revealed.tf_version)
    shown_dist = revealed.tf_dist or listed_dist or "tensorflow"
    if revealed.tf_version and not (names & {"tensorflow", shown_dist}):
        # The listing's own name where its version is the one read (tf-nightly, tensorflow-
        # gpu): a reinstall of "tensorflow" at a nightly's version names no release.
        dist = shown_dist
        location = revealed.site_packages or ""
        packages.append(
            PackageFacts(dist, revealed.tf_version, location, top_level=("tensorflow",))
        )
    if revealed.numpy_version and "numpy" not in names:
        packages.append(PackageFacts("numpy", revealed.numpy_version, ""))
    # What pip or a companion said is installed (observed), where nothing else says; then what
    # a pasted listing shows (TensorFlow's own only where nothing else named it).
    tf_names = set(TF_DISTRIBUTIONS)
    names = {p.name for p in packages}
    packages.extend(
        p for p in log_packages(evidence.conflicts, evidence.import_checks) if p.name not in names
    )
    names = {p.name for p in packages}
    packages.extend(
        PackageFacts(
            name, version, "", top_level=("tensorflow",) if name in TF_DISTRIBUTIONS else ()
        )
        for name, version in evidence.listed.items()
        if name not in names and not (name in tf_names and names & tf_names)
    )
    driver = facts.driver
    if driver is None and (revealed.compute_capability or revealed.driver_version):
        gpus: tuple[GpuFacts, ...] = ()
        if revealed.compute_capability:
            name = revealed.gpu_name or "GPU"
            gpus = (GpuFacts(0, name, compute_capability=revealed.compute_capability),)
        driver = DriverFacts(
            source="none",
            driver_version=revealed.driver_version,
            cuda_version=revealed.cuda_version,
            gpus=gpus,
        )
    return dataclasses.replace(
        facts,
        tensorflow=tf,
        packages=tuple(packages) if packages else facts.packages,
        driver=driver,
    )


#: LD_LIBRARY_PATH as the dynamic loader's messages print it, holding the directory NVIDIA's
#: CUDA images name for the driver libraries the runtime mounts (their Dockerfiles: ENV
#: LD_LIBRARY_PATH /usr/local/nvidia/lib:/usr/local/nvidia/lib64).
# The path is one word after the colon: searching only that word keeps a line that repeats
# "LD_LIBRARY_PATH:" linear.
_CUDA_IMAGE_PATH = re.compile(r"LD_LIBRARY_PATH:[ \t]*[^\s]*?/usr/local/nvidia/lib")


def log_hints(revealed: Revealed) -> LogHints:
    """What the log says or implies of the operating system, Python and container, for
    fitting fixes."""
    return LogHints(
        os=revealed.os,
        python=revealed.python,
        conda=revealed.conda,
        wsl=revealed.wsl,
        container=(
            revealed.docker_run_without_gpu[0]
            if revealed.docker_run_without_gpu
            else "container"
            if revealed.cuda_image
            else revealed.container_tool
        ),
        notebook=revealed.notebook,
        instance_type=revealed.instance_type,
        container_host=revealed.container_host,
        pip=revealed.pip_version,
        tf_installer=revealed.tf_installer,
        installer=revealed.installer,
        conda_installed=revealed.conda_installed,
        conda_channels=revealed.conda_channels,
        packager=revealed.packager,
    )


# --- findings -------------------------------------------------------------------------------

Builder = Callable[[Machine, Revealed, Sequence[Hits]], tuple[causes.CauseId, Fix]]


def _libraries(hits: Sequence[Hits]) -> tuple[str, ...]:
    names = [library_of(g["library"]) for h in hits for g in h.groups if g.get("library")]
    if any(h.signature.id == "dnn-library-not-found" for h in hits):
        names.append("cudnn")
    if any(h.signature.id == "cudart-stub-no-driver" for h in hits):
        names.append("cudart")
    return tuple(dict.fromkeys(names))


# dlopen's reason when the file loads but a symbol it binds with a version is not in the
# library of that name the loader found (glibc's "undefined symbol: X, version Y").
_UNDEFINED = re.compile(
    r"(?:dlerror|Error): (?P<path>\S+?): undefined symbol: (?P<symbol>\w+)"
    r"(?:, version (?P<partner>[\w.]+))?"
)


def _mixed_release(hits: Sequence[Hits]) -> Optional[Fix]:
    """The fix for a CUDA library that loaded without a versioned symbol of its partner (two
    releases mixed on the loader's path), read from the line that says so."""
    for hit in hits:
        for _, line in hit.citations:
            found = _UNDEFINED.search(line)
            if found is not None:
                return causes.gpu.mixed_release_fix(
                    found.group("path"), found.group("symbol"), found.group("partner") or ""
                )
    return None


def _shadowed(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    library = _group(hits, "library") if len(hits) == 1 else None
    if hits and hits[0].signature.id == "jax-cuda-library-older" and library:
        # JAX's own check: its library of an older release than its build came first.
        cause = causes.gpu.CUDNN_SHADOWED if library == "cuDNN" else causes.gpu.CUDA_LIB_SHADOWED
        return cause, causes.gpu.jax_library_older_fix(
            m, library, _group(hits, "loaded") or "", _group(hits, "required") or ""
        )
    fix = _mixed_release(hits)
    if fix is None and any(h.signature.id == "cudnn-sublibrary-mismatch" for h in hits):
        # cuDNN's own status names no file: the fix lists every copy to find the mix.
        fix = causes.gpu.mixed_cudnn_fix(m)
    return causes.gpu.CUDA_LIB_SHADOWED, fix or causes.gpu.read_device_log_fix()


#: cuDNN's own loader of its parts on Windows with Windows' error code (the system error
#: codes: 126 a module not found, 193 a file of another machine type;
#: https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-).
_CUDNN_PART = re.compile(
    r"Could not load library (?P<part>cudnn_\w+64_\d+\.dll)\. Error code (?P<code>\d+)"
)


def _cudnn_part_refused(hits: Sequence[Hits]) -> Optional[tuple[str, str]]:
    """The part of cuDNN (``cudnn_cnn_infer64_8.dll``) that cuDNN itself could not load on
    Windows after its main DLL loaded, and Windows' error code; None where no line says so,
    or where zlib's own line is shown (its reading names it)."""
    if any(h.signature.id == "cudnn-zlib-missing" for h in hits):
        return None
    for hit in hits:
        for _, line in hit.citations:
            found = _CUDNN_PART.search(line)
            if found is not None:
                return found.group("part"), found.group("code")
    return None


#: Where Nix keeps its packages; a program run from them finds libraries through the run paths
#: written into each (nixpkgs' stdenv), not /usr/lib or the loader's cache.
_NIX_STORE = "/nix/store/"


def _cuda_libs(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if all(h.signature.id == "onnxruntime-cuda-provider" for h in hits):
        # ONNX Runtime's words alone: its CUDA provider's libraries, not TensorFlow's.
        return causes.gpu.CUDA_LIBS_MISSING, causes.gpu.onnxruntime_cuda_fix(
            m, _group(hits, "required"), _group(hits, "cuda_version")
        )
    names = _libraries(hits)
    if r.nix_store is not None and names and m.facts.cuda_libs is None:
        # A Nix package's libraries are in the store, found only through run paths: one the
        # loader did not find is off the path the package was built with.
        return causes.gpu.CUDA_LIBS_OFF_PATH, causes.gpu.nix_cuda_fix(r.nix_store, names)
    if r.other_toolkit is not None and m.facts.cuda_libs is None:
        return causes.gpu.CUDA_LIBS_MISSING, causes.gpu.other_toolkit_fix(m, *r.other_toolkit)
    if r.cuda_wheels is not None and m.facts.cuda_libs is None:
        return causes.gpu.CUDA_WHEELS_UNFOUND, causes.gpu.wheel_dirs_fix(m.python_exe)
    mixed = _mixed_release(hits)
    if mixed is not None:
        return causes.gpu.CUDA_LIB_SHADOWED, mixed
    part = _cudnn_part_refused(hits)
    if part is not None:
        return causes.gpu.CUDA_LIBS_MISSING, causes.gpu.cudnn_part_fix(*part)
    shown = _copies_shown(m, r, hits)
    if shown is not None:
        return shown
    ranked = _unfound_ranked(m, r, hits, names)
    if ranked is not None:
        return ranked
    cause, fix = causes.gpu.cuda_libraries_fix(m, names)
    if names and not any(name in fix.text for name in names):
        # Say which: the toolkit's installer and NVIDIA's wheels package each library apart.
        fix = Fix(f"Missing: {', '.join(names)}. {fix.text}", fix.commands)
    return cause, fix


def _custom_op_unresolved(
    findings: Mapping[str, Finding], by_cause: Mapping[str, Sequence[Hits]]
) -> Optional[Finding]:
    """A project's own op library that the loader could not resolve (its signatures are the
    native loader's), read as custom-op-build-mismatch: the general reading, a native library
    whose symbols or dependencies did not resolve, named too as a warning with the same way
    out, for a reader who looks for the loader's cause."""
    found = findings.get(f"explain.{causes.software.CUSTOM_OP_BUILD_MISMATCH}")
    if (
        found is None
        or found.severity.rank < Severity.WARNING.rank
        or not (
            causes.platform.NATIVE_LIBRARY_UNRESOLVED in by_cause
            or causes.software.COMPANION_MISMATCH in by_cause
        )
        or f"explain.{causes.platform.NATIVE_LIBRARY_UNRESOLVED}" in findings
    ):
        return None
    return causes.finding(
        f"explain.{causes.platform.NATIVE_LIBRARY_UNRESOLVED}",
        Severity.WARNING,
        causes.platform.NATIVE_LIBRARY_UNRESOLVED,
        "The loader could not resolve the op library's symbols (the general reading of the "
        "custom op above)",
        "The loader's words are those of any native library whose symbols or dependencies do "
        "not resolve; the op library is the project's own, built against another TensorFlow or "
        "with other flags: the custom op's fix above is the way out.",
        found.fix,
    )


def _missing_left_open(
    findings: Mapping[str, Finding], m: Machine, r: Revealed, other: causes.CauseId
) -> bool:
    """Whether ``cuda-libs-missing`` is a warning or above that nothing decided (the machine's
    facts, the loader's own search; another toolkit, pip's CUDA wheels or a copy shown in the
    log), and the ``other`` candidate is not read yet."""
    missing = findings.get(f"explain.{causes.gpu.CUDA_LIBS_MISSING}")
    return not (
        missing is None
        or missing.cause != causes.gpu.CUDA_LIBS_MISSING
        or missing.severity.rank < Severity.WARNING.rank
        or f"explain.{other}" in findings
        or m.facts.cuda_libs is not None
        or r.other_toolkit is not None
        or r.cuda_wheels is not None
        or r.library_files
    )


def _other_library_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
) -> Optional[Finding]:
    """The second candidate for CUDA libraries the loader did not find, where the log cannot
    tell installed-off-the-path from not installed and the first is the missing cause: that
    they are installed where the loader does not look, a warning with how to tell and its
    path line. None where the machine's facts (the loader's own search) or the log decide: a
    copy shown, another toolkit's, pip's CUDA wheels, two releases mixed, or the off-path
    reading already given."""
    if not _missing_left_open(findings, m, r, causes.gpu.CUDA_LIBS_OFF_PATH):
        return None
    hits = by_cause.get(causes.gpu.CUDA_LIBS_MISSING, ())
    if not hits or _mixed_release(hits) is not None:
        return None
    if all(h.signature.id == "onnxruntime-cuda-provider" for h in hits):
        return None  # ONNX Runtime's fix names both readings itself
    part = _cudnn_part_refused(hits)
    if part is not None and part[1] == "193":
        return None  # a file found, of another word size: not one off the path
    names = _libraries(hits)
    shown = ", ".join(names) or "the CUDA libraries"
    return causes.other_candidate(
        causes.gpu.CUDA_LIBS_OFF_PATH,
        f"{shown} installed where the loader does not look",
        "The loader's words say only that it did not find the file, not that it is absent: "
        "the log does not show whether a copy is on the disk. The search below tells the two "
        "candidates apart: no copy found is the missing cause above; a copy found is this one.",
        causes.gpu.off_path_candidate_fix(m, names),
    )


def _cudnn_major_candidate(
    findings: Mapping[str, Finding], m: Machine, r: Revealed
) -> Optional[Finding]:
    """A further candidate where TensorFlow skipped the GPU (gpu_device.cc's "Cannot dlopen
    some GPU libraries") and the log names no library it could not load (the loader's lines
    cut or not pasted): a cuDNN of another major than the build loads, the library installed
    apart from CUDA's toolkit and the one whose major changes between lines. None where a
    library is named, the facts (the loader's own search) decide, or pip's CUDA wheels or
    another toolkit are shown."""
    if (
        not _missing_left_open(findings, m, r, causes.gpu.CUDNN_VERSION_MISMATCH)
        or m.unloaded_files
        or not m.tf_logged(tflog.GpuRegistrationSkipped)
    ):
        return None
    return causes.other_candidate(
        causes.gpu.CUDNN_VERSION_MISMATCH,
        "a cuDNN of another major than the build loads",
        "TensorFlow's summary says some GPU libraries did not load, and the log does not show "
        "the loader's lines that name them: the CUDA libraries (the candidates above) or a "
        "cuDNN of another major, which TensorFlow refuses by its file name alike.",
        causes.gpu.cudnn_major_candidate_fix(m),
    )


#: Places a copy shown there does not serve from: conda's package cache (an environment links
#: its files from there into its own lib directory) and a trash folder.
_NOT_SERVED = re.compile(r"/pkgs/|[/\\]\.?Trash|\$Recycle", re.IGNORECASE)


def _copies_shown(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """CUDA libraries the loader did not find that the log itself shows on the disk (a
    listing, find's output, a path written out), outside every directory the loader's printed
    path holds: installed, off the loader's path for the process that failed. None where the
    log shows no such copy, or the machine's facts (the loader's own search) decide."""
    if m.facts.cuda_libs is not None:
        return None
    unloaded = m.tf_logged(tflog.LibraryNotLoaded)
    wanted = {e.soname.lower() for e in unloaded}
    wanted |= {g["library"].lower() for h in hits for g in h.groups if g.get("library")}
    # A directory the loader searched and did not find the file in: not a copy off its path.
    searched = {d.rstrip("/") for e in unloaded for d in e.search_path.split(":") if d}
    copies: dict[str, tuple[str, str]] = {}
    for shown in (tflog.LibraryFileShown(0, "", path) for path in r.library_files):
        name = shown.name.lower()
        # The very file asked for: its soname (libcudnn.so.8), or a fuller version of it
        # (libcudnn.so.8.9.7, the file the soname links to); another major serves nothing.
        asked = next((w for w in wanted if name == w or name.startswith(w + ".")), None)
        if asked is None or _NOT_SERVED.search(shown.path) or shown.directory in searched:
            continue
        copies.setdefault(asked, (shown.path, shown.directory))
    if not copies:
        return None
    rest = tuple(
        dict.fromkeys(library_of(w) for w in sorted(wanted - set(copies)) if "nvinfer" not in w)
    )
    return causes.gpu.CUDA_LIBS_OFF_PATH, causes.gpu.shown_copy_fix(m, tuple(copies.values()), rest)


#: TensorFlow 2's loader line for a CUDA library it could not open (dso_loader.cc), and a
#: user's words (or ldd) naming one as not found.
_LOADER_LINE = "dlopen-cuda-library"
_NAMED_NOT_FOUND = "cuda-library-named-not-found"
_UNFOUND = frozenset({_LOADER_LINE, _NAMED_NOT_FOUND})
#: A conda environment's own lib directory in the loader's printed path.
_ENV_LIB_ON_PATH = re.compile(
    r"(?:/envs/[\w.-]+|/(?:(?:mini|ana)conda\d*|miniforge\d*|mambaforge|opt/conda))/lib/?$"
)


def _unfound_ranked(
    m: Machine, r: Revealed, hits: Sequence[Hits], names: tuple[str, ...]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """The ranked candidates for CUDA libraries the loader did not find, where the log cannot
    decide between installed-off-its-path and not installed and makes the first likelier: an
    active conda environment shown beside TensorFlow 2's loader line (from 2.9 to 2.14
    TensorFlow's own guide installs CUDA into the environment's lib directory, off the loader's
    path until an activate.d script adds it), or the library named as not found in words
    only. None where the machine's facts (the loader's own search) or the log decide: the
    printed path already holds the environment's lib, a Windows DLL, a release whose CUDA comes
    from its own pip wheels."""
    ids = {h.signature.id for h in hits}
    if m.facts.cuda_libs is not None or m.os == "windows" or not ids & _UNFOUND:
        return None
    if any(g.get("library", "").endswith(".dll") for h in hits for g in h.groups):
        return None  # Windows finds DLLs through PATH: no loader path, no conda lib
    printed = [d for e in m.tf_logged(tflog.LibraryNotLoaded) for d in e.search_path.split(":")]
    if any(_ENV_LIB_ON_PATH.search(directory) for directory in printed):
        return None  # the environment's lib is searched: the library is not in it
    conda = r.conda_env is not None and _conda_route(m)
    if conda and _LOADER_LINE in ids:
        shown = (
            f"The log shows an active conda environment ({r.conda_env}) and TensorFlow's "
            f"loader not finding {', '.join(names) or 'a CUDA library'}"
        )
    elif ids == {_NAMED_NOT_FOUND}:
        shown = f"The log names {', '.join(names) or 'a CUDA library'} as not found"
    else:
        return None  # TensorFlow's own lines, without a conda environment: the general fix
    fix = causes.gpu.unfound_library_fix(m, names, shown, conda, _major_named(hits))
    # Off its path first only where a conda environment makes it likelier; a user's "not
    # found" alone says nothing of whether it is installed: the missing cause, with the same
    # ranked candidates.
    return (causes.gpu.CUDA_LIBS_OFF_PATH if conda else causes.gpu.CUDA_LIBS_MISSING), fix


#: An NVIDIA wheel's directory on a printed path (site-packages/nvidia/cublas/lib).
_WHEEL_DIR = re.compile(r"(?:site|dist)-packages/nvidia/")


def _off_path(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """CUPTI, the profiler's library, off the loader's path (the one signature of this cause
    in a log): its directory, from the CUDA release its file name says and from where the
    log shows the CUDA libraries come from (NVIDIA's pip wheels: installed, or a
    ``site-packages/nvidia`` directory on the printed path), and whether the path the loader
    printed lacks it."""
    for hit in hits:
        for groups in hit.groups:
            library = groups.get("library", "")
            if "cupti" in library.lower():
                printed = next(
                    (
                        e.search_path
                        for e in m.tf_logged(tflog.LibraryNotLoaded)
                        if e.soname == library and e.search_path
                    ),
                    None,
                )
                # A wheel's directory, not the container runtime's /usr/local/nvidia/lib64.
                wheels = r.cuda_wheels
                if wheels is None and _WHEEL_DIR.search(printed or ""):
                    wheels = ""
                return causes.gpu.CUDA_LIBS_OFF_PATH, causes.gpu.cupti_fix(
                    m, library, printed, wheels
                )
    return _cuda_libs(m, r, hits)


def _tensorboard_duplicate(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    """Every TensorBoard out, pip's '~' leftovers deleted where the log shows the directory,
    the one TensorBoard of the installed TensorFlow back in."""
    site = next(
        (g["site_packages"] for h in hits for g in h.groups if g.get("site_packages")), None
    )
    leftover = next((g["leftover"] for h in hits for g in h.groups if g.get("leftover")), None)
    return (
        causes.software.TENSORBOARD_DUPLICATE_INSTALL,
        causes.software.tensorboard_duplicate_fix(m, site, leftover),
    )


def _major_named(hits: Sequence[Hits]) -> Optional[str]:
    """The CUDA major the library files named imply (``libcudart.so.11.0``: 11), if any."""
    for hit in hits:
        for groups in hit.groups:
            cuda = tflog.cuda_of_soname(groups.get("library", "").lower())
            if cuda is not None:
                return cuda.split(".", 1)[0]
    return None


def _gpu_memory_reading(text: str, request: Optional[int]) -> Optional[tuple[str, str]]:
    """What the log shows filled the GPU (:attr:`Revealed.memory_reading`)."""
    shown = read_gpu_memory(text)
    if shown.frameworks and shown.device_bytes and not shown.capped:
        # TensorFlow started on the GPU and another framework worked in the same log: each
        # maps memory of its own at start, whichever of them then ran out.
        return "shared", ", ".join(shown.frameworks)
    if shown.taken_before and shown.device_bytes and shown.total_bytes:
        return "taken", (
            f"TensorFlow found {size_text(shown.device_bytes)} free of the GPU's "
            f"{size_text(shown.total_bytes)} when it created its device"
        )
    if shown.taken_before and shown.device_bytes:
        return "taken", (
            f"TensorFlow found only {size_text(shown.device_bytes)} free on the GPU when it "
            "created its device, less than any GPU it runs on carries, unless this one is "
            "that small"
        )
    room = shown.limit_bytes or shown.device_bytes
    if request is not None and room is not None and shown.never_fits(request):
        return "never-fits", (
            f"one allocation asked for {size_text(request)}, at least all the "
            f"{size_text(room)} TensorFlow has on the GPU"
        )
    return None


def _gpu_memory(evidence: Evidence) -> Optional[tuple[str, str]]:
    """The first GPU's total and free memory, as TensorFlow 1.x printed them at start (its
    tf1-gpu-memory line), where the log shows both."""
    for hit in sorted(evidence.hits.values(), key=lambda h: h.first):
        for groups in hit.groups:
            total, free = groups.get("gpu_total_memory"), groups.get("gpu_free_memory")
            if total and free:
                return total, free
    return None


def _conda_route(m: Machine) -> bool:
    """Whether TensorFlow's CUDA may come from a conda environment's lib directory: not a
    release whose own CUDA wheels serve it (the matrix's ``cuda_install``), nor a CUDA major
    only such releases were built for."""
    if m.line is not None:
        return m.cuda_install_method != "and-cuda"
    major = m.build_cuda_major
    if major is None or m.matrix is None:
        return True  # not known which release: the conda route is not ruled out
    return any(
        line.cuda is not None
        and line.cuda.split(".", 1)[0] == major
        and (line.cuda_install is None or line.cuda_install.method != "and-cuda")
        for line in m.matrix.lines
    )


#: A cuDNN file whose name gives its full version (libcudnn.so.8.9.7; the soname's major
#: alone says nothing of the minor the build needs).
_CUDNN_FILE_VERSION = re.compile(r"^libcudnn\.so\.(?P<version>\d+\.\d+(?:\.\d+)?)$")


def _newer_cudnn_shown(r: Revealed) -> Optional[tuple[str, str, str]]:
    """A cuDNN file the log shows on the disk that meets the build's cuDNN (same major, this
    minor or newer) while the process loaded an older one: its version, path and directory.
    None where the log shows no such copy, or the versions are not both stated."""
    loaded, need = r.cudnn_loaded, r.cudnn_compiled
    if not loaded or not need or version_key(loaded) >= version_key(need):
        return None
    for path in r.library_files:
        shown = tflog.LibraryFileShown(0, "", path)
        match = _CUDNN_FILE_VERSION.match(shown.name)
        if match is None:
            continue
        version = match.group("version")
        same_major = version_key(version)[:1] == version_key(need)[:1]
        if same_major and version_key(version)[:2] >= version_key(need)[:2]:
            return version, path, shown.directory
    return None


def _older_cudnn_candidate(
    findings: Mapping[str, Finding], m: Machine, r: Revealed
) -> Optional[Finding]:
    """cuDNN refused an older release of the build's major: an older copy ahead of the
    build's on the loader's path is the other candidate beside an older one installed alone,
    a warning with the listing that tells them apart. None where the log decides (a copy of
    the build's release shown: cudnn-shadowed is the reading) or the versions differ
    otherwise."""
    found = findings.get(f"explain.{causes.gpu.CUDNN_VERSION_MISMATCH}")
    loaded, need = r.cudnn_loaded, r.cudnn_compiled
    if (
        found is None
        or found.cause != causes.gpu.CUDNN_VERSION_MISMATCH
        or found.summary.startswith("Or: ")
        or found.severity.rank < Severity.WARNING.rank
        or not loaded
        or not need
        or not _older_same_major(loaded, need)
        or any(
            tflog.LibraryFileShown(0, "", path).name.lower().startswith(("libcudnn", "cudnn64_"))
            for path in r.library_files
        )
    ):
        # A listing of cuDNN files shown without the build's release (else the copy shown
        # decides, in _cudnn): the user looked, and found no newer copy to come first.
        return None
    return causes.other_candidate(
        causes.gpu.CUDNN_SHADOWED,
        f"an older cuDNN ({loaded}) first on the loader's path, ahead of a cuDNN {need} "
        "installed too",
        f"cuDNN's refusal says which release loaded ({loaded}) and which the build needs "
        f"({need}), not whether a copy of {need} or newer is on the disk too: the listing "
        "below tells. None found is the version's finding above; one found is this one.",
        causes.gpu.older_cudnn_first_fix(m, need, m.os or r.os, bool(r.conda)),
    )


def _older_same_major(loaded: str, need: str) -> bool:
    """Whether cuDNN ``loaded`` is older than ``need`` within the same major release."""
    return version_key(loaded)[:1] == version_key(need)[:1] and version_key(loaded) < version_key(
        need
    )


def _cudnn(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    loaded, need = _group(hits, "cudnn_loaded"), _group(hits, "cudnn_compiled")
    build = _group(hits, "xla_build") or ""
    if build and loaded and need and not (r.serving and build.startswith("external/org_")):
        # jaxlib's XLA refused it (its source path): JAX's own wheel, not TensorFlow's, met
        # another framework's cuDNN first in the process. TensorFlow Serving's model server
        # prints TensorFlow's XLA under external/org_tensorflow/ too: its refusal is its own.
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.jax_cudnn_shadowed_fix(m, loaded, need)
    if r.frameworks and loaded and need and not _cudnn_serves(loaded, need):
        # TensorFlow's own refusal, with PyTorch or JAX at work in the same program: their
        # cuDNN (the nvidia-cudnn wheel they pin, or their own copy) is the one that loaded.
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.framework_cudnn_first_fix(
            m, loaded, need, r.frameworks
        )
    newer = _newer_cudnn_shown(r)
    if newer is not None and r.cudnn_loaded and r.cudnn_compiled and m.facts.cuda_libs is None:
        # The right cuDNN is on the disk and an older one loaded: the older comes first.
        return causes.gpu.CUDNN_SHADOWED, causes.gpu.shown_cudnn_shadow_fix(
            m, r.cudnn_loaded, r.cudnn_compiled, *newer
        )
    # As the check does: the right cuDNN, got the release's own way (checks/cuda.py).
    cause, fix = causes.gpu.cuda_libraries_fix(m, ("cudnn",))
    need = r.cudnn_compiled or m.build_cudnn  # what TensorFlow itself said wins
    if need:
        fix = Fix(
            f"TensorFlow needs cuDNN {need} (same major, this minor or newer). {fix.text}",
            fix.commands,
        )
    loaded = r.cudnn_loaded
    if need and loaded and _older_same_major(loaded, need):
        # Older, same major: what tells an older copy first on the path from an older one
        # installed alone is whether a copy of the build's release is on the disk too.
        first = causes.gpu.older_cudnn_first_fix(m, need, m.os or r.os, bool(r.conda))
        fix = Fix(
            f"{fix.text} {first.text}", tuple(dict.fromkeys((*fix.commands, *first.commands)))
        )
    return (
        causes.gpu.CUDNN_VERSION_MISMATCH if cause == causes.gpu.CUDA_LIBS_MISSING else cause
    ), fix


def _capability(r: Revealed, hits: Sequence[Hits]) -> Optional[str]:
    for hit in hits:
        for groups in hit.groups:
            if groups.get("compute_capability"):
                return groups["compute_capability"]
    return r.compute_capability


def _cuda_predates(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """The reading where the GPU the log shows is newer than the CUDA release the build runs
    with (the libraries it opened, else the matrix's CUDA for the TensorFlow shown); None
    where the log shows either not, or a CUDA that knows the GPU."""
    build = _build_cuda(m, r)
    cap = _capability(r, hits)
    model = m.matrix.gpu_model(r.gpu_name) if r.gpu_name and m.matrix is not None else None
    known = cap or (model.compute_capability if model is not None else None)
    line = m.line if r.build_cuda is None else None
    if line is not None and known and carries_machine_code(line, known):
        # The matrix knows the wheel's own GPU code, and it runs on this GPU (sm_80 runs on
        # 8.6): that decides, as check_compute_capability judges; the CUDA rule is for builds
        # whose code is not known.
        return None
    # A TensorFlow the matrix does not know (or none shown) runs with the CUDA the user
    # installed where its wheel links one release's libraries (1.x's libcudart.so.9.0): the
    # form's statement of it, said as such.
    stated = r.stated_cuda if build is None else None
    fix = causes.gpu.cuda_predates_gpu(m, cap, r.gpu_name, build or stated)
    if fix is not None and stated is not None:
        fix = Fix(f"The issue's form states CUDA {stated}. {fix.text}", fix.commands)
    return (causes.gpu.CUDA_RELEASE_PREDATES_GPU, fix) if fix is not None else None


def _build_cuda(m: Machine, r: Revealed) -> Optional[str]:
    """The CUDA release the build runs with, read where the log shows a CUDA library failing
    (so the build is a CUDA one, whatever the platform): the toolkit libraries it opened, else
    the matrix's for the TensorFlow shown (a line's, or an early release's from TensorFlow's
    tested build configurations: 1.12 is CUDA 9.0)."""
    build = r.build_cuda or m.build_cuda
    if build or m.matrix is None:
        return build
    if m.line is not None and m.line.cuda and m.line.cuda_builds:
        # Where the log shows no operating system: a line's CUDA builds share one CUDA release.
        return m.line.cuda
    tf = m.tf.version if m.tf is not None else r.tf_version
    return m.matrix.early_cuda(tf) if tf else None


def _arch(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    target = _group(hits, "gpu_arch")
    supported = _group(hits, "supported_archs")
    if target is not None and supported is not None:
        # tensorflow-rocm printed the targets it accepts: the printed list decides. A list
        # that holds the refused target (run together with another where a comma is
        # missing) is the build's defect, not a GPU without code.
        item = causes.gpu.rocm_target_listed(target, supported)
        if item is not None:
            return causes.gpu.GPU_KNOWN_FAILURE, causes.gpu.rocm_arch_list_fix(m, target, item)
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.rocm_arch_fix(m, target, supported)
    if all(ROCM_WORDS in h.signature.tags for h in hits):
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.rocm_arch_fix(m)
    if all(DIRECTML_WORDS in h.signature.tags for h in hits):
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.directml_adapter_fix()
    predates = _cuda_predates(m, r, hits)
    if predates is not None:
        return predates
    minimum = next(
        (g["min_capability"] for h in hits for g in h.groups if g.get("min_capability")), None
    )
    return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.gpu_arch_fix(
        m, _capability(r, hits), minimum
    )


def _ptx_jit(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    predates = _cuda_predates(m, r, hits)
    if predates is not None:
        return predates
    cap = _capability(r, hits) or "X.Y"
    return causes.gpu.GPU_PTX_JIT, causes.gpu.ptx_jit_fix(m, cap)


def _macos(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    built_for = next(
        (g["macos_version"] for h in hits for g in h.groups if g.get("macos_version")), None
    )
    # The system library lacks the symbol (this cause's own hit): the macOS the referencing
    # binary was built for, on dyld's "Referenced from:" line, is the one it needs.
    return causes.platform.MACOS_TOO_OLD, causes.platform.macos_fix(built_for or r.dyld_built_for)


def _package_named(top: Optional[str]) -> Optional[str]:
    """How a fix names the installed import package ``top``: its distribution where the module
    table knows it (cv2 is opencv-python's), else by its directory (no distribution is made
    up for it); TensorFlow's as ``tensorflow``."""
    if not top:
        return None
    if top in ("tensorflow", "tensorflow_core"):
        return "tensorflow"
    return distribution_of(top) or causes.common.package_named(top)


def _glibc(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    glibc = next((g["glibc"] for h in hits for g in h.groups if g.get("glibc")), "GLIBC_2.17")
    requirer = _group(hits, "requirer") or ""
    top = installed_package(requirer) if requirer else None
    return causes.platform.GLIBC_TOO_OLD, causes.platform.glibc_fix(
        glibc,
        _package_named(top),
        m.matrix.releases if m.matrix is not None else (),
        m.tf.version if m.tf is not None else r.tf_version,
    )


def _no_tensorrt(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """TF-TRT missing: a build without TensorRT, or, for its module of 1.14 and later, a
    TensorFlow older than that module (TF-TRT in tensorflow.contrib.tensorrt then)."""
    tf = m.tf.version if m.tf is not None else r.tf_version
    module_missing = any(h.signature.id == "tf-trt-module-missing" for h in hits)
    # Where the module began is the matrix's (its tf_trt rows); unknown, no release predates it.
    since = (
        m.matrix.tf_trt_module_since(causes.gpu.TF_TRT_MODULE)
        if module_missing and m.matrix is not None
        else None
    )
    if since and tf and version_key(tf)[:2] < version_key(since)[:2]:
        return causes.code.API_REMOVED, causes.gpu.tf_trt_module_predates_fix(m, tf, since)
    return causes.gpu.TF_BUILD_WITHOUT_TENSORRT, causes.gpu.tf_without_tensorrt_fix(m)


def _libstdcxx(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.platform.LIBSTDCXX_TOO_OLD, causes.platform.libstdcxx_fix(
        _group(hits, "symbol") or "GLIBCXX_3.4",
        _group(hits, "library") or "",
        _group(hits, "requirer") or "",
    )


def _without(by_cause: dict[str, list[Hits]], cause: str, signature: str) -> None:
    """``by_cause`` without ``signature``'s hits under ``cause`` (the cause gone if none stay)."""
    rest = [h for h in by_cause.get(cause, []) if h.signature.id != signature]
    if rest:
        by_cause[cause] = rest
    else:
        by_cause.pop(cause, None)


def _settle_dnn_not_found(by_cause: dict[str, list[Hits]]) -> None:
    """ "DNN library is not found" read once, by what the log shows around it: the refused
    cuDNN's own line (the mismatch), a cuDNN handle that failed (that finding's candidates), a
    library that did not load (that finding), else a cuDNN that loaded and did not start, with
    the library not found as the second reading."""
    mismatch = causes.gpu.CUDNN_VERSION_MISMATCH in by_cause
    handle = any(
        h.signature.id not in _NO_DNN_PLUGIN
        for h in by_cause.get(causes.runtime.GPU_LIBRARY_INIT_FAILED, [])
    )
    not_loaded = any(
        h.signature.id != "dnn-library-not-found"
        for h in by_cause.get(causes.gpu.CUDA_LIBS_MISSING, [])
    )
    if mismatch or handle:
        # The line TensorFlow printed when it refused the cuDNN, or the handle that failed,
        # says the library loaded: one cause, that line's.
        _without(by_cause, causes.gpu.CUDA_LIBS_MISSING, "dnn-library-not-found")
    if mismatch or not_loaded:
        _without(by_cause, causes.runtime.GPU_LIBRARY_INIT_FAILED, "dnn-support-not-created")


def _fold_into_emulator(by_cause: dict[str, list[Hits]]) -> None:
    """QEMU's own line for the signal its guest died of shows the process ran emulated: the
    crash the CPU's missing instructions would explain (TensorFlow's AVX refusal, an illegal
    instruction) is the emulator's, one cause with it."""
    emulated = by_cause.get(causes.platform.CPU_EMULATED, [])
    if not any(EMULATOR in h.signature.tags for h in emulated):
        return
    lacking = by_cause.pop(causes.platform.CPU_LACKS_AVX, [])
    # The emulator's own line first: its words name the cause.
    by_cause[causes.platform.CPU_EMULATED] = [*emulated, *lacking]


def _cpu_avx(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """An illegal instruction: an emulator's missing AVX or the CPU's own, decided by what the
    facts and the log show of the machine (both causes' signatures come here)."""
    plat = m.facts.platform
    ids = {h.signature.id for h in hits}
    if ids == {"conda-apple-channel-x86"}:
        # No crash: an x86-64 conda looked for Apple silicon's packages. Under Rosetta only
        # where the Mac is shown to be Apple silicon: an Intel Mac following Apple's guide
        # prints the same search, and an arm64 conda cannot run there.
        intel_facts = (
            plat is not None
            and plat.system == "Darwin"
            and plat.machine == "x86_64"
            and not plat.rosetta
            and plat.emulation is None
        )
        if intel_facts or (r.mac is not None and r.mac.value == INTEL):
            return causes.platform.WHEEL_MISMATCH, causes.platform.intel_mac_conda_fix(m)
        # Apple silicon, shown or (since 2020 the commoner Mac) not told apart from Intel.
        shown = (plat is not None and plat.rosetta) or (r.mac is not None and r.mac.value == APPLE)
        return causes.platform.CPU_EMULATED, causes.platform.rosetta_conda_fix(not shown)
    emulator = any(EMULATOR in h.signature.tags for h in hits)
    emulated = (plat is not None and (plat.rosetta or plat.emulation is not None)) or emulator
    mac = r.mac  # shown only for a log of macOS, or of no system shown (_system_of)
    if not emulated and plat is None and mac is not None:
        # The Mac the log shows decides: Rosetta 2 on Apple silicon does not translate AVX
        # (https://developer.apple.com/documentation/apple-silicon/about-the-rosetta-translation-environment);
        # an Intel Mac runs the wheel natively, and the oldest lack AVX.
        emulated = mac.value == APPLE
    elif not emulated and plat is None:
        # A Mac that shows neither kind is taken for Apple silicon under Rosetta, the commoner
        # since 2020 (an Intel Mac without AVX is older than 2012): the macOS shells' words
        # or a log of macOS, not zsh's words on a system the log shows is another.
        emulated = r.os == "macos" or (
            not r.os and any(MACOS_WORDS in h.signature.tags for h in hits)
        )
    if emulated:
        # Not an emulator's own line (QEMU's): a Mac, shown or taken for Apple silicon.
        return causes.platform.CPU_EMULATED, causes.platform.native_interpreter_fix(
            m, apple_silicon=not emulator, host_platform=_group(hits, "host_platform")
        )
    library = _group(hits, "library")
    # Words only Windows prints (faulthandler's "Windows fatal exception") show the system
    # where nothing else in the log does.
    windows = any(WINDOWS_WORDS in h.signature.tags for h in hits)
    return causes.platform.CPU_LACKS_AVX, causes.platform.cpu_avx_fix(
        _group(hits, "instruction"),
        system="macos" if mac is not None else (m.os or r.os or ("windows" if windows else None)),
        binding=library if library and causes.platform.tfjs_binding(library) else None,
    )


#: Windows' reason for a DLL that did not load, on the line below Python's "DLL load failed:"
#: (a paste wrapped there): a module missing (126), a procedure missing (127), another
#: machine's DLL (193), access denied (5). Each says why, and none is a CPU without AVX, whose
#: reason is an initialisation that failed (1114).
#: https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-
_REASON_BELOW = re.compile(
    r"DLL load failed[^\n]{0,200}\n[ \t]*(?:The specified (?:module|procedure) could not be "
    r"found|%1 is not a valid Win32 application|Access is denied)"
)


def _cpu_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
    text: str = "",
) -> Optional[Finding]:
    """A CPU without the instructions the build needs, as the second candidate where the log
    leaves it open beside the reading given: an illegal instruction on a Mac the log does not
    show (taken for Apple silicon under Rosetta; an Intel Mac made before 2011 lacks AVX, and
    one before 2013 AVX2, which some builds need), or TensorFlow's native library failing on a
    system that may be Windows with the loader's reason cut (a DLL missing, or, from 1.6 on,
    its start on a CPU without AVX: Windows' "DLL initialization routine failed"). None where
    the machine's facts, the Mac or the system the log shows, or the reason, decide (in
    ``text``, the log, Windows' reason on the line below :data:`_REASON_BELOW`)."""
    if f"explain.{causes.platform.CPU_LACKS_AVX}" in findings or m.facts.platform is not None:
        return None
    emulated = findings.get(f"explain.{causes.platform.CPU_EMULATED}")
    # Both causes' signatures come to one reading (_cpu_avx): its crash lines, whichever.
    crashes = [
        h
        for c in (causes.platform.CPU_EMULATED, causes.platform.CPU_LACKS_AVX)
        for h in by_cause.get(c, ())
        if h.signature.id != "conda-apple-channel-x86"  # a search, not a crash
    ]
    if (
        emulated is not None
        and emulated.severity.rank >= Severity.WARNING.rank
        and crashes
        and not any(EMULATOR in h.signature.tags for h in crashes)
        and r.mac is None
    ):
        lines = [_cite([h]) for h in crashes]
        return causes.finding(
            f"explain.{causes.platform.CPU_LACKS_AVX}",
            Severity.WARNING,
            causes.platform.CPU_LACKS_AVX,
            "Or: an Intel Mac whose CPU lacks AVX (or the AVX2 a build needs) (the other "
            "candidate)",
            "\n".join(
                (
                    *lines[:1],
                    "The log does not show which Mac this is. On Apple silicon the crash is "
                    "x86-64 code under Rosetta 2 (the reading above); on an Intel Mac it is the "
                    "CPU itself: those made up to 2010 lack AVX, which every TensorFlow wheel "
                    "after 1.5 needs, and those up to 2012 lack AVX2, which some builds need. "
                    "The command below tells the two apart: an Apple M chip is the reading "
                    "above, an Intel CPU without AVX1.0 (or AVX2) is this one.",
                )
            ),
            causes.platform.cpu_avx_fix(None, system="macos"),
        )
    reason_cut = [
        h
        for c in (causes.platform.MSVC_RUNTIME_MISSING, causes.platform.NATIVE_LIBRARY_UNRESOLVED)
        for h in by_cause.get(c, ())
        if REASON_CUT in h.signature.tags
    ]
    if not reason_cut or r.os not in (None, "windows") or _REASON_BELOW.search(text):
        return None
    others = [
        h
        for hs in by_cause.values()
        for h in hs
        if REASON_CUT not in h.signature.tags and h.signature.severity != "info"
    ]
    if others or r.dll_extension is not None:
        return None  # another line says more than a cut reason
    first = reason_cut[0]
    return causes.finding(
        f"explain.{causes.platform.CPU_LACKS_AVX}",
        Severity.WARNING,
        causes.platform.CPU_LACKS_AVX,
        "Or: a CPU without AVX, on which TensorFlow's native library cannot start (the other "
        "candidate)",
        "\n".join(
            (
                _cite([first]),
                "The log cuts the loader's reason. On Windows TensorFlow's library fails to "
                "load for a DLL it links that is missing (the Visual C++ runtime), or fails to "
                "start on a CPU without AVX, which every release from 1.6 is built for "
                "(Windows then says 'A dynamic link library (DLL) initialization routine "
                "failed'). The command below lists the CPU's instruction sets: no AVX is this "
                "candidate.",
            )
        ),
        _avx_check_fix(
            "windows" if r.os == "windows" or WINDOWS_WORDS in first.signature.tags else None
        ),
    )


def _avx_check_fix(system: Optional[str]) -> Fix:
    """The AVX fix for ``system``; where the log shows none, with the check of Windows (whose
    loader words this failure so) beside Linux's."""
    fix = causes.platform.cpu_avx_fix(None, system=system)
    if system is not None:
        return fix
    windows = causes.platform.cpu_avx_fix(None, system="windows")
    return Fix(fix.text, (*fix.commands, *windows.commands))


def _jvm_candidate(
    findings: Mapping[str, Finding], by_cause: Mapping[str, Sequence[Hits]], r: Revealed
) -> Optional[Finding]:
    """TensorFlow's HDFS file system, as the second candidate where the JVM's library did not
    load and the log shows neither HDFS nor another library that starts a JVM in the process:
    libhdfs links libjvm.so, found through JAVA_HOME and the loader's path, and TensorFlow
    loads no JVM otherwise. None where HDFS is shown (then it is the reading itself) or JPype,
    pyjnius, python-javabridge or rJava is named."""
    found = findings.get(f"explain.{causes.platform.NATIVE_LIBRARY_UNRESOLVED}")
    if found is None or r.hadoop or r.jvm_embedder:
        return None
    hits = [
        h
        for h in by_cause.get(causes.platform.NATIVE_LIBRARY_UNRESOLVED, ())
        if any(
            g.get("library", "").replace("\\", "/").rsplit("/", 1)[-1].startswith("libjvm.so")
            for g in h.groups
        )
    ]
    if not hits or f"explain.{causes.runtime.FILESYSTEM_ENV_MISCONFIGURED}" in findings:
        return None
    return causes.other_candidate(
        causes.runtime.FILESYSTEM_ENV_MISCONFIGURED,
        "TensorFlow's HDFS file system, whose libhdfs needs the JVM that JAVA_HOME names",
        "\n".join(
            (
                _cite(hits[:1]),
                "libjvm.so is the JVM's library. TensorFlow loads it only through Hadoop's "
                "libhdfs, which its HDFS file system opens for an hdfs:// path (TensorFlowOnSpark "
                "jobs too), and finds it through JAVA_HOME and the loader's path; the log names "
                "no other library that starts a JVM in the process (JPype, rJava). Where the "
                "program reads from HDFS, this is the candidate: JAVA_HOME wrong or unset on the "
                "machine (each node of a cluster) that ran it.",
            )
        ),
        causes.runtime.hdfs_env_fix(),
    )


def _binding_word_size_candidate(
    findings: Mapping[str, Finding], by_cause: Mapping[str, Sequence[Hits]]
) -> Optional[Finding]:
    """A 32-bit process, as the second candidate where a .NET program did not find
    TensorFlow's C library: the library is built for 64-bit only, and a process built for x86
    (or AnyCPU preferring 32-bit) reports it as not found although it lies beside the program
    (Mono words every failed dlopen so). None where another reading took the line."""
    found = findings.get(f"explain.{causes.platform.NATIVE_LIBRARY_UNRESOLVED}")
    hits = _hits_by(
        by_cause, causes.platform.NATIVE_LIBRARY_UNRESOLVED, "dotnet-tensorflow-dll-not-found"
    )
    if (
        found is None
        or not hits
        or f"explain.{causes.platform.BINDING_PROCESS_NOT_64BIT}" in findings
    ):
        return None
    return causes.other_candidate(
        causes.platform.BINDING_PROCESS_NOT_64BIT,
        "the .NET program runs as a 32-bit process, which cannot load the 64-bit library",
        "\n".join(
            (
                _cite(hits[:1]),
                "TensorFlow's C library is built for 64-bit systems only; a program built for "
                "x86, or AnyCPU with 'Prefer 32-bit' (a .NET Framework console project's "
                "default), runs as a 32-bit process, and the runtime reports the library as not "
                "found even where it lies beside the program. Where the file is there, this is "
                "the candidate.",
            )
        ),
        causes.platform.binding_64bit_fix("dotnet"),
    )


def _protobuf(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    required, loaded = _group(hits, "required"), _group(hits, "loaded")
    if any(DESCRIPTOR_CLASH in h.signature.tags for h in hits):
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_clash_fix(
            m, _group(hits, "proto"), r.imported_before
        )
    if any(GENCODE_CHECK in h.signature.tags for h in hits):
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_gencode_fix(
            m, required, loaded, _group(hits, "proto")
        )
    if required and loaded and any(h.signature.id == "protobuf-cpp-headers-older" for h in hits):
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_runtime_newer_fix(
            m, required, loaded
        )
    if required and loaded:
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_runtime_fix(
            required, loaded
        )
    if any(h.signature.id == "protobuf-get-prototype" for h in hits):
        # A method protobuf 6.30 removed (causes.software.PROTOBUF_REMOVED): newer, not older.
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_removed_fix(
            m, "GetPrototype"
        )
    # What the generated code asked of a runtime older than it: the name decides the floor.
    missing = next(
        (_PROTOBUF_TOO_OLD[h.signature.id] for h in hits if h.signature.id in _PROTOBUF_TOO_OLD),
        None,
    )
    if missing is not None:
        return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_fix(
            m, too_old=True, missing=missing
        )
    return causes.software.PROTOBUF_INCOMPATIBLE, causes.software.protobuf_fix(m)


#: The signatures of protobuf runtimes older than the generated code, and the name each says
#: the runtime lacks (causes.software.PROTOBUF_GENCODE_MODULES gives its first release).
_PROTOBUF_TOO_OLD: dict[str, str] = {
    "protobuf-builder-missing": "builder",
    "protobuf-serialized-options": "serialized_options",
    "protobuf-descriptor-syntax": "syntax",
}


def _keras3(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "keras2-op-layer-under-keras3" for h in hits):
        # Only Keras 3 lacks Keras 2's TFOpLambda: the file is Keras 2's whatever else the
        # log shows, so tf-keras loads it.
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras2_model_fix(m)
    if all(h.signature.id == "keras3-keras-path-not-zip" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras_path_not_zip_fix(m)
    if all(h.signature.id == "keras3-loss-scale-arguments" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_loss_scale_fix(m)
    if all(h.signature.id == "keras3-positional-non-tensor" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_positional_fix(m)
    if all(h.signature.id == "keras2-file-variables-under-keras3" for h in hits):
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras2_weights_fix(m)
    if all(h.signature.id == "keras3-nested-inputs" for h in hits):
        # Keras 3.4 takes nested inputs again: the code runs on a newer Keras 3 as it is.
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_nested_inputs_fix(m)
    if any(
        h.signature.id in ("model-class-not-located", "model-function-not-located") for h in hits
    ):
        if tf_keras_generation(m)[0] == 2:
            # Keras 2 loading: the file is Keras 3's.
            return causes.software.MODEL_FROM_NEWER_KERAS, causes.software.keras3_model_fix(m)
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras2_model_fix(m)
    named = _rule_named(m, hits)
    if named is not None and named[0] == causes.code.KERAS3_BEHAVIOUR_CHANGE:
        # The rule's words; the legacy-Keras commands of the log's own TensorFlow, where the
        # rule keeps Keras 2 as a way out (a rule without legacy_keras gives no commands).
        legacy = causes.code.keras3_fix(m).commands if named[1].commands else ()
        return named[0], Fix(named[1].text, legacy)
    return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras3_fix(m)


def _keras3_model(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    cause = causes.software.KERAS3_MODEL_UNDER_KERAS2
    if all(h.signature.id == "keras3-file-variables-under-keras2" for h in hits):
        # The variable names say which Keras loads, not which wrote the file.
        return cause, causes.software.keras3_weights_fix(m)
    return cause, causes.software.keras3_model_fix(m)


def _tf_too_old(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The installed TensorFlow older than the code: what it lacks, by the signature's words."""
    if any(h.signature.id == "variable-scope-early-signature" for h in hits):
        return causes.code.TF_TOO_OLD_FOR_CODE, causes.code.variable_scope_fix(m)
    if any(h.signature.id == "dimension-list-before-int-conversion" for h in hits):
        return causes.code.TF_TOO_OLD_FOR_CODE, causes.code.dimension_list_fix(m)
    return causes.code.TF_TOO_OLD_FOR_CODE, causes.code.tile_rank_fix(m)


def _api_removed(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    named = _rule_named(m, hits)
    if named is not None:
        return named
    return causes.code.API_REMOVED, Fix(
        "Port the uses the installed TensorFlow lacks: `tfdoctor scan` lists each with its "
        "replacement.",
        ("tfdoctor scan .",),
    )


class _LibraryRanking(NamedTuple):
    """What the log shows for the candidates of a cuDNN/cuBLAS handle that failed: those it
    shows (``seen``, with the words of ``shown``), the order they go in, and what fits the
    others' words to it (causes.runtime.gpu_library_init_fix's arguments)."""

    seen: tuple[str, ...]
    order: tuple[str, ...]
    shown: tuple[str, ...]
    driver_runs: str
    newer: Optional[tuple[str, str, str]]
    without: tuple[str, ...]
    build_libs: str


def _gpu_library_rank(m: Machine, r: Revealed, hits: Sequence[Hits]) -> _LibraryRanking:
    """The candidates of a cuDNN/cuBLAS handle that failed, ranked by what the log (or the
    facts) show. A cuDNN other than the build's, or a driver below the build's floor, is seen;
    memory, the usual reason, is not, so it leads otherwise."""
    order: list[str] = []
    shown: list[str] = []
    loaded, built = r.cudnn_loaded, r.cudnn_compiled or m.build_cudnn or _early_cudnn(m, r)
    if loaded and built and not _cudnn_serves(loaded, built):
        order.append("version")
        shown.append(f"cuDNN {loaded} loaded for a build of cuDNN {built}")
    floor = _floor(m)
    if r.driver_version and floor and version_key(r.driver_version) < version_key(floor):
        order.append("driver")
        shown.append(f"driver {r.driver_version}, older than the {floor} the build needs")
    taken = _memory_taken(r)
    if taken:
        order.append("memory")
        shown.append(taken)
    unsupported = not taken and _blas_unsupported_only(hits)
    if unsupported:
        shown.append(
            "cuBLAS reporting CUBLAS_STATUS_NOT_SUPPORTED, a routine it has no implementation "
            "of here, not a lack of memory"
        )
    seen = tuple(order)
    # The GPU-newer candidate, fitted to the side the log shows (the GPU, or the CUDA the
    # build runs with); the other side unknown, it cannot lead.
    cuda = _build_cuda(m, r)
    cap = _capability(r, hits)
    model = m.matrix.gpu_model(r.gpu_name) if r.gpu_name and m.matrix is not None else None
    newer = causes.gpu.gpu_newer_candidate(m, cap, r.gpu_name, cuda, built)
    # The GPU shown is the stronger evidence: its candidate right after memory; the build's
    # CUDA alone (which GPUs it does not know) after the version's.
    then: tuple[str, ...] = ()
    if newer is not None and (cap or model is not None or unsupported):
        then = ("gpu-newer",)
    elif newer is not None and cuda:
        then = ("version", "gpu-newer")
    without: list[str] = ["memory"] if unsupported else []
    if newer is None and m.matrix is not None:
        without.append("gpu-newer")
    if r.driver_version and floor and version_key(r.driver_version) >= version_key(floor):
        # The log's driver meets the floor of the build's CUDA: not a candidate.
        without.append("driver")
    return _LibraryRanking(
        seen,
        tuple(dict.fromkeys((*order, *(() if unsupported else ("memory",)), *then))),
        tuple(shown),
        "" if floor else _driver_runs(m, r.driver_version),
        newer,
        tuple(without),
        _build_libs(built, cuda),
    )


#: A status a CUDA library printed (CUBLAS_STATUS_NOT_SUPPORTED, CUDNN_STATUS_INTERNAL_ERROR).
_LIBRARY_STATUS = re.compile(r"\bCU(?:BLAS|DNN)_STATUS_[A-Z_]+")


def _blas_unsupported_only(hits: Sequence[Hits]) -> bool:
    """Whether the library's failure is cuBLAS's CUBLAS_STATUS_NOT_SUPPORTED alone: "the
    functionality requested is not supported" (cuBLAS library guide, cublasStatus_t), where a
    lack of memory is ALLOC_FAILED, or NOT_INITIALIZED when the handle cannot be created."""
    if any(h.signature.id != "cublas-failed" for h in hits):
        return False
    statuses = {
        found.group(0)
        for h in hits
        for _, line in h.citations
        for found in _LIBRARY_STATUS.finditer(line)
    }
    return statuses == {"CUBLAS_STATUS_NOT_SUPPORTED"}


def _gpu_library_init(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # The message is the same whatever the reason: rank the candidates by what the log (or the
    # facts) show.
    predates = _cuda_predates(m, r, hits)
    if predates is not None:
        # A GPU newer than the build's CUDA: no handle of that release starts on it.
        return predates
    rank = _gpu_library_rank(m, r, hits)
    ids = {h.signature.id for h in hits}
    if (
        not rank.seen
        and ids <= _NO_DNN_PLUGIN
        and not (r.oom_device or r.oom_bytes)
        and not m.dlopen_failed  # a cuDNN that did not load at all: that finding says why
    ):
        # The stream executor has no cuDNN plugin at all, and no handle error or failed
        # allocation came first (memory taken fails cudnnCreate, which logs its
        # CUDNN_STATUS_ line): the library that loaded did not start, as a cuDNN older or of
        # another major than the build's does. That is what the finding is about; where the
        # log shows the versions, their own finding already is.
        said = (
            "a GPU stream without cuDNN support (a cuDNN that does not load at all keeps the "
            "GPU from being registered, so one loaded and did not start)"
            if "dnn-support-not-created" in ids
            else "TensorFlow without any cuDNN to run with"
        )
        return causes.gpu.CUDNN_VERSION_MISMATCH, causes.runtime.gpu_library_init_fix(
            m,
            ("version", "memory"),
            (f"{said}, and no cuDNN handle error or out-of-memory line before it",),
        )
    return causes.runtime.GPU_LIBRARY_INIT_FAILED, causes.runtime.gpu_library_init_fix(
        m, rank.order, rank.shown, rank.driver_runs, rank.newer, rank.without, rank.build_libs
    )


def _gpu_library_candidates(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
) -> list[Finding]:
    """The candidates of a cuDNN/cuBLAS/cuFFT handle that failed, each a warning of its own
    cause with its own fix, in the order the library finding ranks them: the error's words are
    the same whatever the reason, so the log leaves them open. The first is left out (the
    library finding already leads with its test and fix) unless the log's evidence put it
    first: then it names the cause the log shows. None where that finding gave
    another reading (a GPU newer than the build's CUDA, cuDNN's version) or is not a problem,
    where no handle failed (a stream executor without its cuDNN plugin), or where a library
    did not load at all (that finding says why nothing started)."""
    main = findings.get(f"explain.{causes.runtime.GPU_LIBRARY_INIT_FAILED}")
    hits = [
        h
        for h in by_cause.get(causes.runtime.GPU_LIBRARY_INIT_FAILED, ())
        if h.signature.id not in _NO_DNN_PLUGIN
    ]
    if (
        main is None
        or main.cause != causes.runtime.GPU_LIBRARY_INIT_FAILED
        or main.severity.rank < Severity.WARNING.rank
        or not hits
        or m.dlopen_failed
        or causes.gpu.CUDA_LIBS_MISSING in by_cause
    ):
        return []
    rank = _gpu_library_rank(m, r, hits)
    ranked = causes.runtime.gpu_library_ranking(rank.order, rank.without)
    # The candidate the log's own evidence puts first (a cuDNN that does not serve the build,
    # a driver below its floor, memory taken, cuBLAS's NOT_SUPPORTED for the GPU-newer one)
    # is a cause the log shows, which the main finding's generic one does not name.
    led = (*rank.seen, *(("gpu-newer",) if _blas_unsupported_only(hits) else ()))
    out = []
    for number, key in enumerate(ranked, 1):
        if number == 1 and key not in led:
            # Otherwise the main finding leads with this candidate, its test and its fix: a
            # finding of its own would repeat that advice. The others keep its numbers.
            continue
        candidate = causes.runtime.GPU_LIBRARY_INIT_CANDIDATES[key]
        out.append(
            causes.other_candidate(
                candidate.cause,
                f"{candidate.title}, candidate {number} of "
                f"{len(ranked)} for the library that failed",
                _cite(hits) + "\nThe library's error is the same whatever the reason: the "
                "finding above ranks the candidates by what the log shows, and this is one of "
                "them, with what tells it apart.",
                causes.runtime.gpu_library_candidate_fix(
                    m, key, rank.driver_runs, rank.newer, rank.build_libs
                ),
            )
        )
    return out


def _early_cudnn(m: Machine, r: Revealed) -> Optional[str]:
    """The cuDNN the GPU build of the TensorFlow shown was built with, where the matrix's early
    releases state it (TensorFlow's tested build configurations: 1.2 is cuDNN 5.1)."""
    tf = m.tf.version if m.tf is not None else r.tf_version
    return m.matrix.early_cudnn(tf) if tf and m.matrix is not None else None


def _build_libs(cudnn: Optional[str], cuda: Optional[str]) -> str:
    """What the build wants of cuDNN and CUDA, in words ('' where neither is known): a cuDNN
    of its major, its minor or newer (cuda_dnn.cc's check), and its CUDA's cuBLAS."""
    major = cudnn.split(".", 1)[0] if cudnn else ""
    wants = [
        *(
            [f"cuDNN {cudnn} (or a newer {major}.x)" if "." in cudnn else f"a cuDNN {major}.x"]
            if cudnn
            else []
        ),
        *([f"the cuBLAS of CUDA {cuda}"] if cuda else []),
    ]
    return f"the build wants {' and '.join(wants)}" if wants else ""


#: The share of the GPU's memory free at start below which another process is shown holding
#: it (TensorFlow 1.x prints both before it maps any; a desktop's display takes a few hundred
#: MiB of a GPU, far from half).
_TAKEN_SHARE = 0.5


def _gpu_out_of_memory(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The GPU's memory ran out: the fix led by what the log shows filled it."""
    free = _memory_free_at_start(r)
    reading = (
        # No room even for the CUDA context when TensorFlow started on the GPU.
        ("taken", "there was no memory left for TensorFlow's CUDA context on the GPU")
        if any(h.signature.id == "cuda-init-out-of-memory" for h in hits)
        else ("taken", free)
        if free
        else r.memory_reading
    )
    rocm = any(h.signature.id == "hip-out-of-memory" for h in hits)
    failed = "TensorFlow"
    if reading is not None and reading[0] == "shared":
        # Whose allocation failed: PyTorch's allocator, or JAX's runtime error type on the line.
        cited = [line for h in hits for _, line in h.citations]
        if any(h.signature.id == "torch-cuda-out-of-memory" for h in hits):
            failed = "PyTorch"
        elif "JAX" in reading[1] and any("XlaRuntimeError" in line for line in cited):
            failed = "JAX"
    return causes.runtime.GPU_OUT_OF_MEMORY, causes.runtime.gpu_memory_fix(m, rocm, reading, failed)


def _memory_free_at_start(r: Revealed) -> str:
    """TensorFlow 1.x's words that less than half the GPU was free when it started ('' where
    the log does not show both sizes, or shows more free)."""
    if r.gpu_memory is None:
        return ""
    total, free = (tflog.readable_bytes(x) for x in r.gpu_memory)
    if total and free is not None and free < _TAKEN_SHARE * total:
        return f"only {r.gpu_memory[1]} of the GPU's {r.gpu_memory[0]} free when TensorFlow started"
    return ""


def _memory_taken(r: Revealed) -> str:
    """What the log shows of the GPU's memory taken, as the evidence that puts memory first:
    an allocation that failed, less than half the GPU free when TensorFlow started, or a device
    far smaller than its GPU ('' where it shows none)."""
    if r.oom_device or r.oom_bytes:
        return "an allocation on the GPU that failed for want of memory"
    free = _memory_free_at_start(r)
    if free:
        return f"{free} (another process held the rest)"
    if r.memory_reading is not None and r.memory_reading[0] == "taken":
        # The device TensorFlow created far smaller than its GPU (evidence/gpumemory.py).
        return f"{r.memory_reading[1]} (another process held the rest)"
    return ""


def _cudnn_serves(loaded: str, built: str) -> bool:
    """Whether a loaded cuDNN serves a build of ``built``: the same major, that minor or newer
    (cuda_dnn.cc's own check: "CuDNN library needs to have matching major version and equal or
    higher minor version")."""
    have, need = version_key(loaded)[:2], version_key(built)[:2]
    return have[:1] == need[:1] and have >= need


def _driver_runs(m: Machine, driver: Optional[str]) -> str:
    """What driver ``driver`` runs by the matrix's driver floors (each CUDA release's minimum
    driver, lowered to its major's floor by minor version compatibility): the newest CUDA
    release whose floor it meets, and the next one's floor ('' where the table cannot say)."""
    if not driver or m.matrix is None:
        return ""
    # Under WSL the driver is the Windows host's, and reports Windows version numbers.
    os_name = "windows" if m.os == "windows" or m.wsl else "linux"
    have = version_key(driver)
    ran: Optional[str] = None
    for toolkit in m.matrix.cuda_toolkits:  # oldest first
        floor = cuda_driver_floor(m.matrix, toolkit.cuda, os_name)
        if floor is None:
            continue
        if have < version_key(floor.version):
            older = f"CUDA {ran} and older" if ran else "no CUDA release the table lists"
            return (
                f"the log's driver, {driver}, runs {older} (CUDA {toolkit.cuda} needs "
                f"{floor.version} or newer: {floor.rule}, by NVIDIA's tables): a build for that "
                "CUDA or a later one needs a newer driver"
            )
        ran = toolkit.cuda
    return ""


def _kernel_dso(hits: Sequence[Hits]) -> Optional[tuple[str, str]]:
    """The kernel module's and libcuda's driver branches TensorFlow compared, where the
    line is among ``hits`` (the kernel-dso-mismatch signature's groups)."""
    for hit in hits:
        for groups in hit.groups:
            kernel, dso = groups.get("driver_version"), groups.get("dso_version")
            if kernel and dso and kernel[0].isdigit() and dso[0].isdigit():
                return kernel.split(".")[0], dso.split(".")[0]
    return None


def _libcuda_newer(hits: Sequence[Hits]) -> Optional[tuple[str, str]]:
    """The two branches where the loaded libcuda's is the newer (a container's own copy can
    be so; an upgrade whose module is not reloaded is too)."""
    pair = _kernel_dso(hits)
    return pair if pair is not None and int(pair[1]) > int(pair[0]) else None


def _in_container(m: Machine, r: Revealed) -> bool:
    """The log (or the facts) show a container: its tool's run, a CUDA image, its host name."""
    return bool(
        m.container
        or r.cuda_image
        or r.docker_run_without_gpu
        or r.container_hostname
        or r.container_tool
    )


def _driver_mismatch(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The kernel module and libcuda of different versions: in a container, the image's own
    libcuda (the NVIDIA runtime mounts the host's, which match its module: its start fails
    otherwise), over an older host driver where it is the newer (too old for the image's CUDA);
    elsewhere a driver upgraded without reloading its module."""
    pair = _kernel_dso(hits)
    if pair is not None and pair[0] != pair[1] and _in_container(m, r):
        if int(pair[1]) > int(pair[0]):
            return causes.gpu.DRIVER_TOO_OLD, causes.gpu.container_libcuda_newer_fix(*pair)
        return causes.gpu.DRIVER_VERSION_MISMATCH, causes.gpu.container_libcuda_older_fix(*pair)
    return causes.gpu.DRIVER_VERSION_MISMATCH, causes.gpu.driver_mismatch_fix()


def _hits_by(by_cause: Mapping[str, Sequence[Hits]], cause: str, *signatures: str) -> list[Hits]:
    """The hits of ``cause`` that come from ``signatures`` (a reading bound to those words)."""
    return [h for h in by_cause.get(cause, ()) if h.signature.id in signatures]


def _container_libcuda_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
) -> Optional[Finding]:
    """A libcuda newer than the kernel module where the log shows no container: the image's
    own copy over an older host driver is the other candidate beside an upgrade whose module
    was not reloaded, a warning (a reboot does not help it)."""
    mismatch = findings.get(f"explain.{causes.gpu.DRIVER_VERSION_MISMATCH}")
    hits = by_cause.get(causes.gpu.DRIVER_VERSION_MISMATCH, ())
    newer = _libcuda_newer(hits)
    if (
        mismatch is None
        or mismatch.cause != causes.gpu.DRIVER_VERSION_MISMATCH
        or newer is None
        or f"explain.{causes.gpu.DRIVER_TOO_OLD}" in findings
    ):
        return None
    kernel, dso = newer
    return causes.other_candidate(
        causes.gpu.DRIVER_TOO_OLD,
        "a container's own libcuda newer than the host's driver",
        _cite(hits) + f"\nThe loaded libcuda ({dso}) is newer than the kernel module "
        f"({kernel}). Outside a container that is a driver upgraded without reloading its "
        "module (the finding above); inside one, the image's own libcuda over an older host "
        "driver, which a reboot does not change. /.dockerenv tells the two apart.",
        causes.gpu.container_libcuda_newer_fix(kernel, dso),
    )


def _warned_of(findings: Mapping[str, Finding], cause: str) -> bool:
    """Whether a finding of ``cause`` at warning or above is among ``findings``: the reading a
    ranked candidate follows."""
    return any(
        x.cause == cause and x.severity.rank >= Severity.WARNING.rank for x in findings.values()
    )


def _nccl_release_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    revealed: Revealed,
) -> Optional[Finding]:
    """NCCL's shared-memory registration refused where the log does not show NCCL's release:
    the same include/shm.h line runs from NCCL 2.4 to 2.11 (signatures.yaml,
    nccl-shm-register-invalid-argument), so a failed collective leads and NCCL 2.4's bug
    before 2.4.6 (NVIDIA/nccl#185) is the other candidate, a warning with its own fix. A
    release shown decides it either way (:func:`_nccl_release`)."""
    hits = _hits_by(by_cause, causes.gpu.NCCL_RELEASE_BUG, "nccl-shm-register-invalid-argument")
    failed = _warned_of(findings, causes.cluster.CLUSTER_COLLECTIVE_FAILED)
    if not hits or revealed.nccl_version is not None or not failed:
        return None
    return causes.other_candidate(
        causes.gpu.NCCL_RELEASE_BUG,
        "NCCL 2.4's shared-memory bug, fixed in 2.4.6",
        _cite(hits) + "\nCUDA refused NCCL's shared-memory segment as an invalid argument. "
        "NCCL 2.4 before 2.4.6 does so when two ranks of one host share a segment name; later "
        "releases print the same line for other failures. The log does not show which NCCL "
        "ran: its release tells the two apart.",
        causes.gpu.nccl_shm_release_fix(None, revealed.nccl_cuda),
    )


#: pip's own words around a connection to its index: its vendored urllib3's module path and
#: "Could not fetch URL" (pip/_internal/index/collector.py).
_PIP_INDEX_WORDS = ("pip._vendor", "Could not fetch URL")


def _cert_path_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
) -> Optional[Finding]:
    """Python's certificate verification refusing an issuer it does not trust (Modules/_ssl.c:
    "certificate verify failed", OpenSSL's reason after it from Python 3.7 on): the machine's
    store leads (the finding's fix ranks it, then a TLS-intercepting proxy), and the host or
    a filter on the network path to it, which no setting here changes, is the last
    candidate, a warning of its own cause with its own fix: fetch the file by another
    route."""
    hits = _hits_by(by_cause, causes.network.PYTHON_CA_CERTS_MISSING, "ssl-issuer-not-trusted")
    led = _warned_of(findings, causes.network.PYTHON_CA_CERTS_MISSING)
    if not hits or not led or f"explain.{causes.network.DOWNLOAD_HOST_UNREACHABLE}" in findings:
        return None
    if any(w in line for h in hits for _, line in h.citations for w in _PIP_INDEX_WORDS):
        # pip's index: its file has no loader's cache to take another route into, and the
        # filter on the way is the lead's first step already (an intercepting proxy).
        return None
    return causes.other_candidate(
        causes.network.DOWNLOAD_HOST_UNREACHABLE,
        "the download host or a filter on the way to it",
        _cite(hits) + "\nThe words say only that no CA this Python trusts signed the "
        "certificate it received: a server's incomplete chain or a network that answers for "
        "the host fails the same way as a store without the CA.",
        causes.network.cert_path_fix(_download_url(hits)),
    )


def _tf_module_missing(evidence: Evidence) -> bool:
    """Whether a traceback of ``evidence`` says Python found no top-level ``tensorflow``."""
    return any(
        (found := _NO_TOP_MODULE.match(tb.message)) is not None
        and found.group("module") == "tensorflow"
        for tb in evidence.tracebacks
    )


def _unrecognised_distribution_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    evidence: Evidence,
    machine: Machine,
) -> Optional[Finding]:
    """Transformers' placeholders saying TensorFlow is absent where the log lists no package:
    its release looks TensorFlow up by a list of distribution names (src/transformers/utils/
    import_utils.py, ``candidates``), so the words are the same for a TensorFlow not
    installed in the Python that ran (the reading, first) and one installed under a name that
    list lacks, the other candidate, a warning with its own fix (pip's list tells them apart).
    A listing shown settles it (:func:`_unrecognised_distribution`)."""
    hits = _hits_by(
        by_cause,
        causes.software.TF_NOT_INSTALLED,
        "transformers-requires-tensorflow",
        "transformers-tf-classes-missing",
    )
    cause = causes.software.TF_DISTRIBUTION_UNRECOGNISED
    if (
        not hits
        or evidence.listed
        or f"explain.{cause}" in findings
        or not _warned_of(findings, causes.software.TF_NOT_INSTALLED)
        # Python found no module 'tensorflow', which every distribution installs: none is
        # there under any name. A TensorFlow 1.x shown is refused for its version.
        or _tf_module_missing(evidence)
        or (machine.tf is not None and version_key(machine.tf.version)[:1] < (2,))
    ):
        return None
    return causes.other_candidate(
        cause,
        "TensorFlow installed under a name Transformers does not look for",
        _cite(hits) + "\nTransformers decides whether TensorFlow is there by its "
        "distribution's name; the log lists no package, so a TensorFlow 2 installed as "
        "another distribution (a nightly, a vendor's build) is not ruled out.",
        causes.software.unrecognised_distribution_fix(machine, "transformers", None),
    )


def _unresolved_task_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    evidence: Evidence,
) -> Optional[Finding]:
    """TensorFlow 1's master waiting for tasks that never answer (master.cc's "CreateSession
    still waiting for response from worker"): the words are the same whether the task did not
    start, its port is closed or its host name does not resolve where the master looks it up,
    so a name that does not resolve is a candidate of its own, a warning after the wait's
    finding, with its own fix. Left out where the gRPC server's channel cache (grpc_channel.cc)
    lists every waited-for task by an IP address or localhost: no name is looked up."""
    waits = _hits_by(
        by_cause, causes.cluster.CLUSTER_TASK_UNREACHABLE, "createsession-waiting-for-worker"
    )
    waiting = _warned_of(findings, causes.cluster.CLUSTER_TASK_UNREACHABLE)
    if not waits or not waiting:
        return None
    text = evidence.first_text
    hosts = channel_hosts(text) if "GrpcChannelCache" in text else {}
    tasks = sorted({g["spec"] for h in waits for g in h.groups if g.get("spec")})
    named = [
        hosts.get(f"{job} {index}")
        for job, index in (TASK.findall(t)[0] for t in tasks if TASK.search(t))
    ]
    if named and all(host is not None and not looked_up(host) for host in named):
        return None
    seen = read_cluster_evidence(text)
    if seen.unreachable and seen.peer_addresses and len(seen.peer_addresses) >= len(tasks):
        # gRPC names the address it failed to connect to ("ipv4:10.0.0.5:2222: ... Connection
        # refused"), one for each task waited for: the names resolved.
        return None
    shown = sorted({h for h in named if h is not None and looked_up(h)})
    return causes.other_candidate(
        causes.cluster.TF_CONFIG_UNRESOLVABLE,
        "a task's host name that does not resolve here",
        _cite(waits)
        + "\nNo answer came from "
        + (", ".join(tasks) or "a task")
        + ". A task whose host name does not resolve where the master looks it up waits so"
        + (f" ({', '.join(shown)}, as the cluster spec names it)" if shown else "")
        + "; so does one that did not start or whose port is closed (the finding above).",
        causes.cluster.unresolved_host_fix(shown[0] if len(shown) == 1 else None),
    )


#: The signatures of a stream executor without its cuDNN plugin (cudnn_rnn_ops.cc's "Fail to
#: find the dnn implementation"), as opposed to a plugin whose handle failed.
_NO_DNN_PLUGIN = frozenset({"dnn-implementation-missing", "dnn-support-not-created"})


def _graph_code(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "keras-tf1-session-under-tf2" for h in hits):
        # Multi-backend Keras' own refusal: its session is what the code asked for.
        return causes.code.API_MOVED_TO_COMPAT_V1, causes.software.keras_session_fix(
            m, _group(hits, "symbol")
        )
    # scan's words for the API the message names, after the step every such API needs.
    api = _group(hits, "api")
    port = ""
    if api and m.matrix is not None:
        from tfdoctor.scan.knowledge import ApiKnowledge  # noqa: PLC0415 - loads scan's rules

        verdict = ApiKnowledge(m.matrix).name(api)
        port = verdict.fix.text if verdict is not None else ""
    return causes.code.API_MOVED_TO_COMPAT_V1, causes.software.graph_code_fix(port)


#: The dependency each signature of ``dependency-out-of-range`` reads, as a pin to fall back to
#: where TensorFlow's declared range does not already exclude the installed release, and why.
_DEPENDENCY_PINS: dict[str, tuple[str, str, str]] = {
    "wrapt-dictwrapper": (
        "wrapt",
        "wrapt<1.15",
        "Install a wrapt before 1.15, which this TensorFlow's tracked objects work with (or "
        "upgrade TensorFlow to 2.13 or later).",
    ),
    "six-newbase-metaclass": (
        "six",
        "six>=1.12.0",
        "Install six 1.12 or later, inside every range TensorFlow declares (six>=1.10.0 in "
        "1.x, six>=1.12.0 in later releases): an old six (1.4.1) builds with_metaclass's "
        "base as a class named NewBase that TensorFlow's metaclasses do not expect. If pip "
        "already lists a newer six, an older copy is imported first (macOS's system Python "
        'ships six 1.4.1 in its Extras directory): `python -c "import six; '
        'print(six.__version__, six.__file__)"` shows which file; run TensorFlow from a '
        "virtual environment, whose six comes first.",
    ),
    "bfloat16-numpy-too-old": (
        "numpy",
        "numpy>=1.16.0,<2.0",
        "Install NumPy 1.16 or later (before 2.0), the NumPy this TensorFlow was built against.",
    ),
    # The extension's C code imports numpy.core._multiarray_umath, which NumPy has from 1.16
    # (numpy/core/code_generators/generate_ufunc_api.py of v1.16.0): an older NumPy is below
    # the build's; a TensorFlow built so declares no NumPy 2 either.
    "numpy-multiarray-umath-failed": (
        "numpy",
        "numpy>=1.16.0,<2.0",
        "Install NumPy 1.16 or later (before 2.0): the extension was built against NumPy "
        "1.16 or later, whose numpy.core._multiarray_umath the installed NumPy lacks.",
    ),
    "gast-node-arguments": (
        "gast",
        "",
        "Install the gast release the installed TensorFlow pins (`pip show tensorflow` lists "
        "it: TensorFlow 1.15 to 2.1 gast==0.2.2, 2.2 to 2.4 gast==0.3.3, 2.5 and 2.6 "
        "gast==0.4.0): AutoGraph's code builds syntax nodes for that release's fields.",
    ),
    "gast-autograph-unconverted": (
        "gast",
        "",
        "Install the gast release the installed TensorFlow pins (`pip show tensorflow` lists "
        "it: TensorFlow 1.15 to 2.1 gast==0.2.2, 2.2 to 2.4 gast==0.3.3, 2.5 and 2.6 "
        "gast==0.4.0): AutoGraph converts functions by building syntax nodes for that "
        "release, and runs them unconverted under another.",
    ),
    "flatbuffers-endvector-old": (
        "flatbuffers",
        "flatbuffers>=2.0",
        "Install the flatbuffers release the installed TensorFlow declares (`pip show "
        "tensorflow` lists the range): the TFLite converter code calls Builder.EndVector() "
        "without the length flatbuffers 1.x requires, so it was written for flatbuffers 2.",
    ),
    "flatbuffers-endvector-new": (
        "flatbuffers",
        "flatbuffers<2",
        "Install the flatbuffers release the installed TensorFlow declares (`pip show "
        "tensorflow` lists the range): the TFLite converter code passes Builder.EndVector() "
        "the length flatbuffers 2 no longer takes, so it was written for flatbuffers 1; or "
        "upgrade TensorFlow (and the converting package) to releases built for flatbuffers 2.",
    ),
    "arrow-extension-undefined-symbol": (
        "pyarrow",
        "",
        "Install the pyarrow release the extension's package declares (`pip check` names it: "
        '"tfx-bsl 1.14.0 requires pyarrow<11,>=10, but you have pyarrow 14.0.1"): its '
        "compiled library was built against that pyarrow's Arrow C++ library, whose symbols "
        "change between pyarrow's major releases.",
    ),
    "numpy-symbolic-tensor": (
        "numpy",
        "numpy<1.20",
        "Install a NumPy this TensorFlow supports (before 1.20).",
    ),
    # urllib3 2 requires an ssl module built with OpenSSL 1.1.1 or later (2.0.0 to 2.0.2 refuse
    # LibreSSL too); 1.26 supports both.
    "urllib3-v2-old-openssl": (
        "urllib3",
        "urllib3<2",
        "Install urllib3 1.26 (before 2): urllib3 2 refuses this Python's ssl module, built with "
        "the library the log names (an OpenSSL older than 1.1.1, or LibreSSL, which urllib3 "
        "2.0.0 to 2.0.2 refuse and later releases only warn of). A Python built against "
        "OpenSSL 1.1.1 or later (a newer conda or system Python) lets urllib3 2 run too.",
    ),
}


def _dependency(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # Each signature of this cause names its distribution by what it reads (the table); h5py 3
    # under a loader written for h5py 2 has the catalogue's own builder.
    ids = [h.signature.id for h in hits]
    if "h5py-str-decode" in ids:
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.h5py_bytes_fix(m)
    if "numpy-core-module-missing" in ids:
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.numpy_core_module_fix(m)
    if "openvino-mo-dependency-unsatisfied" in ids:
        # The Model Optimizer's own check names the package, the installed release and the
        # range it requires.
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.mo_dependency_fix(
            m, _group(hits, "dist"), _group(hits, "required"), _group(hits, "installed")
        )
    if set(ids) <= {"numpy-multiarray-failed", "numpy-umath-failed"}:
        return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.software.numpy_c_api_fix(m)
    key = next((i for i in ids if i in _DEPENDENCY_PINS), "numpy-symbolic-tensor")
    dist, fallback, text = _DEPENDENCY_PINS[key]
    if key.startswith(("flatbuffers-", "gast-", "arrow-")):
        # Which side moved depends on the TensorFlow and the converting package: without
        # TensorFlow's declared range, no pin is offered, only what shows the ranges.
        fix = causes.common.range_fix(m, dist) or Fix(
            text, (*m.pip(f"show tensorflow {dist}"), *m.pip("check"))
        )
        return causes.software.DEPENDENCY_OUT_OF_RANGE, fix
    return causes.software.DEPENDENCY_OUT_OF_RANGE, causes.common.declared_range_fix(
        m, dist, fallback, text
    )


def _driver_libraries(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "cuda-library-needs-libcuda-link" for h in hits):
        return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.libcuda_link_fix(
            r.wsl or m.wsl is not None
        )
    in_container = bool(
        m.container is not None or r.cuda_image or r.docker_run_without_gpu or r.container_hostname
    )
    if any(h.signature.id == "libcuda-file-broken" for h in hits) and not in_container:
        # The file is there and damaged: the driver's own libraries reinstalled.
        return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.driver_userspace_fix(m)
    if any(h.signature.id == "import-needs-libcuda" for h in hits):
        if in_container:
            # A container: the runtime mounts the host driver's libcuda only into a container
            # started with the GPU.
            return causes.container.CONTAINER_NO_GPU, causes.container.container_gpu_fix(m)
        cited = [line for h in hits for _, line in h.citations]
        if any("error while loading shared libraries" in line for line in cited):
            # A program linked to it (TensorFlow Serving's server), not a Python wheel: the
            # driver's library is what is missing.
            return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.driver_load_fix(m)
        return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.libcuda_import_fix(m)
    # The driver's user-space libraries (libnvidia-ml, libcuda) are not installed where the
    # kernel module is, or not visible to the container runtime.
    return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.driver_load_fix(m)


def _tpu_version(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    op = _group(hits, "op")
    if op is not None and (">" in op or modules().op_library(op)):
        # A companion's op (tensorflow-text's, Addons' Namespace>Op) is on no TPU worker,
        # whatever its release: not a matter of versions.
        return causes.software.OP_NOT_REGISTERED, causes.software.op_not_registered_fix(m, op)
    return causes.hosted.TPU_VERSION_MISMATCH, causes.hosted.tpu_version_fix()


def _glob_extra(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.platform.SHELL_GLOB_EXTRA, causes.platform.quoted_extra_fix(
        m, _group(hits, "dist")
    )


def _dependency_missing(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "tf-keras-package-unimportable" for h in hits):
        return causes.software.DEPENDENCY_MISSING, causes.software.keras_package_fix(m)
    # Else Keras asking for h5py (h5py-needed).
    return causes.software.DEPENDENCY_MISSING, causes.common.install_fix(
        m, "Install h5py, which Keras needs to read and write HDF5 (.h5) files.", "h5py"
    )


def _newer_model(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if all(h.signature.id == "keras-zip-read-as-savedmodel" for h in hits):
        return (
            causes.software.MODEL_FROM_NEWER_KERAS,
            causes.software.newer_keras_model_fix("keras-zip", os_name=m.os),
        )
    if any(h.signature.id == "keras-initializer-class-unknown" for h in hits):
        # An initializer class tf.keras writes, which the loader (older Keras, or
        # TensorFlow.js where the log shows it) does not define.
        return causes.software.MODEL_FROM_NEWER_KERAS, causes.software.initializer_class_fix(
            _group(hits, "keras_class"), r.tfjs
        )
    return causes.software.MODEL_FROM_NEWER_KERAS, causes.software.newer_keras_model_fix(
        "h5", _group(hits, "symbol")
    )


def _graph_older(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.software.GRAPH_FROM_OLDER_TENSORFLOW, causes.software.graph_from_older_tf_fix(
        _group(hits, "attr")
    )


def _wsl_driver(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """WSL 2's GPU libraries, or, for NVML's refusal alone where the log shows no WSL, the
    system blocking the GPU (a Hyper-V guest or a container prints the same words)."""
    if m.wsl is None and all(h.signature.id == "nvml-gpu-access-blocked" for h in hits):
        return causes.platform.GPU_ACCESS_BLOCKED, causes.platform.gpu_access_blocked_fix(False)
    return causes.platform.WSL_DRIVER_BROKEN, causes.platform.gpu_access_blocked_fix(
        m.wsl is not None, m
    )


def _fleet_differs(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Nodes of one job differing in the fact the signature read names: NCCL's own check
    names the ranks and their releases; another signature only what it says differs."""
    if any(h.signature.id == "nccl-version-mismatch" for h in hits):
        return _nccl_versions_differ(m, hits)
    # No fact read beyond the signature's words: name them, with no command of NCCL's.
    said = "; ".join(dict.fromkeys(h.signature.summary for h in hits))
    return causes.cluster.FLEET_FACT_DIFFERS, causes.cluster.fleet_differs_fix(
        "what the log shows differing", said
    )


def _nccl_versions_differ(m: Machine, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """NCCL's ranks running other releases, each rank with the release NCCL names."""
    ranks = nccl_mismatched_ranks("\n".join(line for h in hits for _, line in h.citations))
    shown = ", ".join(f"rank {rank} has NCCL {release}" for rank, release in ranks)
    return causes.cluster.FLEET_FACT_DIFFERS, causes.cluster.fleet_differs_fix(
        "NCCL",
        shown,
        (
            # The environment's own pip (a wheel's nvidia-nccl), conda's package in a conda
            # environment, and the system's library.
            *(f"{c} 2>/dev/null | grep -i nccl  # on every node" for c in m.pip("list")),
            *(("conda list nccl  # on every node",) if m.in_conda else ()),
            "ldconfig -p | grep libnccl  # on every node",
        ),
    )


def _cluster_unreachable(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    # The master's own wait names the tasks that never answered; gRPC's words name none.
    tasks = sorted({g["spec"] for h in hits for g in h.groups if g.get("spec")})
    if any(h.signature.id == "createsession-waiting-for-worker" for h in hits):
        return causes.cluster.CLUSTER_TASK_UNREACHABLE, causes.cluster.cluster_waiting_fix(tasks)
    return causes.cluster.CLUSTER_TASK_UNREACHABLE, causes.cluster.cluster_unreachable_fix()


_DLOPENED = re.compile(r"dlopen\(([^,]+),")


def _wrong_arch(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "pip-unsupported-wheel-other" for h in hits):
        # pip refused a wheel file: its tags (from the message, or the command that named it)
        # say what it needs.
        wheel = next(iter(r.wheel_refusals), None)
        if wheel is None:
            return causes.platform.WHEEL_MISMATCH, causes.platform.unnamed_wheel_fix(m)
        return causes.platform.WHEEL_MISMATCH, causes.platform.wheel_tags_fix(
            m, wheel.file, wheel.python_version, wheel.platform, wheel.abi
        )
    if any(h.signature.id == "musl-loader-tensorflow" for h in hits):
        return causes.platform.WHEEL_MISMATCH, causes.platform.musl_fix()
    if any(h.signature.id == "windows-module-other-python" for h in hits):
        package = r.dll_extension
        return causes.platform.WHEEL_MISMATCH, causes.platform.other_python_dll_fix(
            m,
            _group(hits, "library") or "",
            distribution_of(package) if package else None,
            package,
        )
    library = _group(hits, "library")
    if library and causes.platform.tfjs_binding(library):
        return causes.platform.WHEEL_MISMATCH, causes.platform.tfjs_word_size_fix(library)
    if any(h.signature.id == "library-wrong-architecture" for h in hits) and library:
        top = installed_package(library)
        if top is None:
            # A library file of its own (libtensorflow.so of the C API), not a wheel's: its
            # build for this machine's architecture, not a reinstall.
            return causes.platform.WHEEL_MISMATCH, causes.platform.library_architecture_fix(library)
    # The loader's words: "have" is the library's architecture; the file it refused (dlopen's
    # first argument) says whose it is.
    lines = [line for h in hits for _, line in h.citations]
    refused = next((m.group(1) for m in map(_DLOPENED.search, lines) if m is not None), "")
    if not refused and any(h.signature.id == "binary-wrong-architecture-dyld2" for h in hits):
        # dyld 2 names the refused file on a line of its own, after dlopen's.
        refused = library or ""
    top = installed_package(refused) if refused else None
    dist = (distribution_of(top) if top else None) or "tensorflow"
    dyld = any(
        h.signature.id in ("binary-wrong-architecture", "binary-wrong-architecture-dyld2")
        for h in hits
    )
    return causes.platform.WHEEL_MISMATCH, causes.platform.architecture_fix(
        _group(hits, "architecture"), dist, m, dyld
    )


def _tpu_build(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.hosted.TPU_TF_WITHOUT_LIBTPU, causes.hosted.tensorflow_tpu_fix(
        m, m.tf.version if m.tf is not None else None
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


def _few_cores(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.gpu.GPU_TOO_FEW_CORES, causes.gpu.few_cores_fix(m, _group(hits, "cores"))


def _keras(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # A library built on the standalone keras, where the frames show one: named in the fix.
    library = (r.keras_importer.module, r.keras_importer.dist) if r.keras_importer else ()
    if any(h.signature.id == "keras-internal-api-missing" for h in hits):
        # Whichever of TensorFlow's step-locked companions the machine shows off its line.
        user = internal_caller(m)[0]
        if user == "keras":
            return causes.software.KERAS_VERSION, causes.software.keras_match_fix(m, *library)
        return internal_caller_fix(m, user)
    if any(h.signature.id == "keras-api-v2-missing" for h in hits) and m.keras3_is_tf_keras:
        # A TensorFlow whose tf.keras is Keras 3 never loads keras.api._v2: the code asked
        # for Keras 2's tree itself.
        return causes.code.KERAS3_BEHAVIOUR_CHANGE, causes.code.keras2_layout_fix(
            m, "keras.api._v2"
        )
    if any(h.signature.id == "keras-applications-submodules-hook" for h in hits):
        return causes.software.KERAS_VERSION, causes.software.keras_submodules_fix(m)
    if all(h.signature.id == "keras-history-missing" for h in hits):
        return causes.software.KERAS_VERSION, causes.software.keras_history_fix(m)
    if any(h.signature.id == "keras-multi-gpu-device-names" for h in hits):
        return causes.software.KERAS_VERSION, causes.software.keras_device_names_fix(m)
    if any(h.signature.id == "keras-optimizer-registered-twice" for h in hits):
        # Registered twice in one process: two copies of Keras, not one of the wrong release
        # only, so every copy goes before TensorFlow's own Keras comes back.
        return causes.software.KERAS_VERSION, causes.software.keras_copies_fix(m)
    return causes.software.KERAS_VERSION, causes.software.keras_match_fix(m, *library)


def _import_crash(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if r.rocm_loaded:
        # A native crash once ROCm's libraries are loaded: tensorflow-rocm is built for one
        # ROCm release, and on another its calls into HIP's runtime break (a stack smashed, a
        # segmentation fault) instead of failing to load (AMD's support matrix).
        return causes.gpu.ROCM_VERSION_MISMATCH, causes.gpu.rocm_match_fix(m, None)
    return causes.software.IMPORT_CRASH, causes.software.import_crash_fix(m, r.imported_before)


def _driver_not_loaded(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    dlopen = any(
        h.signature.id in ("dlopen-libcuda", "dlopen-libcuda-old", "libcuda-diagnostics-not-found")
        for h in hits
    )
    if any(h.signature.id == "apptainer-no-nv-files" for h in hits):
        # Apptainer looked for the driver's files on the host itself and found none.
        tool = r.docker_run_without_gpu[0] if r.docker_run_without_gpu else None
        return causes.gpu.DRIVER_NOT_LOADED, causes.container.gpu_node_fix(
            tool if tool in ("apptainer", "singularity") else "apptainer"
        )
    if any(MODULE_KEY_REFUSED in h.signature.tags for h in hits):
        # The kernel said why the module does not load: its signature is not trusted.
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.secure_boot_fix()
    if any(NOUVEAU_HOLDS_GPU in h.signature.tags for h in hits):
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.nouveau_fix(m)
    if any(h.signature.id == "container-cli-driver-not-loaded" for h in hits):
        # The toolkit runs on the host: its driver, not the container's start, is missing.
        return causes.gpu.DRIVER_NOT_LOADED, causes.container.toolkit_host_driver_fix()
    if r.kernel_module and dlopen and not m.container and r.container_hostname:
        # The host's kernel module is seen (a container shares the host's kernel) from a
        # process whose hostname is a Docker container's ID: the runtime mounts the driver's
        # user-space libraries (libcuda) only into a container started with the GPU.
        return causes.container.CONTAINER_NO_GPU, causes.container.container_gpu_fix(m)
    if r.kernel_module and dlopen and not m.container:
        # TensorFlow's own diagnosis found the kernel module loaded: what is missing is the
        # driver's user-space library, not the driver.
        return causes.gpu.DRIVER_LIBRARIES_MISSING, causes.gpu.libcuda_beside_module_fix(
            r.kernel_module
        )
    return causes.gpu.driver_not_loaded(m)


#: Docker's daemon without the NVIDIA runtime's binary: --gpus finds no driver for GPUs, or the
#: runtime registered in daemon.json is not installed (signatures.yaml).
_RUNTIME_NOT_INSTALLED = frozenset({"docker-no-gpu-driver", "nvidia-runtime-binary-missing"})
#: Docker's refusals of ``--runtime=nvidia`` (signatures.yaml), in its newer and older words.
_RUNTIME_NAME_REFUSED = frozenset({"docker-no-nvidia-runtime", "docker-unknown-runtime-nvidia"})


def _matched_line(hits: Sequence[Hits], sid: str) -> Optional[str]:
    """The first line signature ``sid`` matched in ``hits``, or None."""
    return next((line for h in hits if h.signature.id == sid for _, line in h.citations), None)


def _container_tool(m: Machine, r: Revealed) -> str:
    """The tool the log shows running the container: Kubernetes, Podman or Docker (where it
    shows none: Docker, the commonest)."""
    for tool in (m.container, r.run_tool, r.container_tool):
        if tool in ("kubernetes", "podman", "docker"):
            return tool
    return "docker"


def _container_no_gpu(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if causes.container.mac_host(m):
        # Docker Desktop's VM on a Mac has no GPU: no runtime or flag on it hands one over.
        return causes.container.CONTAINER_NO_GPU, causes.container.mac_container_fix()
    if any(h.signature.id in _RUNTIME_NOT_INSTALLED for h in hits):
        # Docker's own daemon refused: the host side, whatever the log says of containers.
        return causes.container.CONTAINER_NO_GPU, causes.container.docker_runtime_fix()
    refused = _matched_line(hits, "container-cli-no-gpus-flag")
    if refused is not None:
        # Podman's CLI prints its errors behind "Error: ", Docker's CLI prints pflag's alone.
        podman = refused.lstrip().startswith("Error:") or m.container == "podman"
        return causes.container.CONTAINER_NO_GPU, causes.container.gpus_flag_fix(
            "podman" if podman else "docker"
        )
    cdi = _matched_line(hits, "cdi-device-unresolvable")
    if cdi is not None:
        docker = "daemon" in cdi or m.container == "docker"
        return causes.container.CONTAINER_NO_GPU, causes.container.cdi_spec_fix(
            "docker" if docker else "podman"
        )
    if any(h.signature.id == "nvml-unknown-in-container" for h in hits):
        return causes.container.CONTAINER_NO_GPU, causes.container.nvml_cgroup_fix(
            _container_tool(m, r)
        )
    if any(h.signature.id == "k8s-device-plugin-no-driver" for h in hits):
        # The plugin's own words say why the node has no nvidia.com/gpu to offer.
        return causes.container.CONTAINER_NO_GPU, causes.container.device_plugin_fix()
    if any(h.signature.id == "k8s-insufficient-gpu" for h in hits):
        return causes.container.CONTAINER_NO_GPU, causes.container.k8s_gpu_capacity_fix()
    stage = _matched_line(hits, "container-cli-stage-error")
    if stage is not None:
        return causes.container.CONTAINER_NO_GPU, causes.container.toolkit_stage_fix(
            stage, m.packager
        )
    if any(h.signature.id in _RUNTIME_NAME_REFUSED for h in hits):
        # The daemon has no runtime of the name --runtime asked for: its registration.
        return causes.container.CONTAINER_NO_GPU, causes.container.runtime_name_fix()
    fix = causes.container.container_gpu_fix(m)
    if not m.container:
        # The log does not show a container: the same failure on a host is the driver's.
        host = causes.gpu.driver_load_fix(m)
        fix = Fix(
            f"{fix.text} If this is not a container: {host.text}", (*fix.commands, *host.commands)
        )
    return causes.container.CONTAINER_NO_GPU, fix


def _no_device(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if r.docker_run_without_gpu is None and causes.gpu.runtime_chooses_gpu(m):
        # A hosted notebook whose runtime setting gives it a GPU: its VM runs the kernel in a
        # container of the platform's (Colab's hostname is that container's ID), which the
        # user cannot start with a GPU; the runtime's accelerator is what hands one over.
        return causes.hosted.HOSTED_RUNTIME_WITHOUT_GPU, causes.hosted.hosted_gpu_runtime_fix(
            m.notebook
        )
    if r.run_tool is not None and r.docker_run_without_gpu is None and (r.wsl or r.os == "windows"):
        # A container started with its GPU flag from Windows or WSL 2: the flag is there, and
        # its GPU comes through WSL 2 from the Windows driver.
        return causes.platform.WSL_DRIVER_BROKEN, causes.platform.wsl_container_gpu_fix()
    if r.docker_run_without_gpu is not None or (r.container_hostname and not m.container):
        # The log shows the container started with no GPU flag, or TensorFlow's diagnostics
        # name a Docker container's default hostname with no runtime shown: CUDA sees no
        # device because the runtime handed it none.
        return causes.container.CONTAINER_NO_GPU, causes.container.container_gpu_fix(m)
    if r.nouveau_holds_gpu and not m.wsl and not m.container:
        # The log shows nouveau holding the GPU: CUDA sees no device the nvidia module drives.
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.nouveau_fix(m)
    if r.libcuda_without_module and not m.wsl and not m.container:
        # TensorFlow's diagnostics found the driver's libcuda but no kernel module: no device
        # because the module is not loaded (a kernel updated without its build, Secure Boot,
        # nouveau). WSL has no such module (the Windows driver serves the GPU).
        return causes.gpu.DRIVER_NOT_LOADED, causes.gpu.driver_load_fix(m)
    return causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN, causes.gpu.no_device_fix(m)


#: The file runc names as refused, where a script's name shows it is one.
_REFUSED_SCRIPT = re.compile(r"exec /\S*\.(?:sh|py|bash): exec format error")


def _image_platform(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    line = _matched_line(hits, "container-exec-format-error") or ""
    # runc before 1.1 does not name the file: a script is as likely as a binary there.
    script = "user process caused" in line or _REFUSED_SCRIPT.search(line) is not None
    return causes.container.CONTAINER_IMAGE_PLATFORM, causes.container.image_platform_fix(
        script, _container_tool(m, r)
    )


#: CUresult 804 in each of the log's wordings: its name, cuda_driver.cc's number where
#: cuGetErrorName knows none, the runtime's cudaGetErrorString (cuda.h, driver_types.h).
_COMPAT_REFUSED = re.compile(
    r"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE|UNKNOWN ERROR \(804\)"
    r"|forward compatibility was attempted on non supported HW"
)


def _compat_refused(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """CUresult 804 (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: "forward compatibility was
    attempted on non supported HW") where the log shows the kernel module (cuda_diagnostics'
    "kernel reported version", nvidia-smi's driver) at or above the build's floor: the driver
    runs the build, and what failed is CUDA's forward-compatibility libcuda loaded on a GPU
    that does not take it. The check's reading of the same (checks/gpu.py), with its fix."""
    cited = [line for h in hits for _, line in h.citations]
    if not any(_COMPAT_REFUSED.search(line) for line in cited):
        return None
    floor, driver = _floor(m), r.kernel_module or r.driver_version
    if floor is None or driver is None or version_key(driver) < version_key(floor):
        return None
    return causes.gpu.DRIVER_VERSION_MISMATCH, causes.gpu.compat_libcuda_fix(None)


def _floor(m: Machine) -> Optional[str]:
    floor = causes.gpu.build_driver_floor(m)
    return floor.version if floor is not None else None


def _hit(hits: Sequence[Hits], sid: str) -> bool:
    """Whether the signature ``sid`` is among ``hits``."""
    return any(h.signature.id == sid for h in hits)


def _platform_image(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The platform's image for the framework and Python asked for: the SDK's own list where
    its refusal names one, else the image the registry does not have."""
    setting, value, supported = (
        _group(hits, g) for g in ("sdk_setting", "sdk_value", "sdk_supported")
    )
    fix = (
        causes.hosted.sagemaker_sdk_fix(m, setting, value, supported)
        if setting and value and supported
        else causes.hosted.sagemaker_versions_unset_fix()
        if any(h.signature.id == "sagemaker-sdk-version-unset" for h in hits)
        else causes.hosted.platform_image_fix(_group(hits, "image"))
    )
    return causes.hosted.PLATFORM_IMAGE_UNAVAILABLE, fix


def _group(hits: Sequence[Hits], name: str) -> Optional[str]:
    """The first value a named group took in ``hits``."""
    return next((g[name] for h in hits for g in h.groups if g.get(name)), None)


def _metadata_unsatisfiable(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    """TensorFlow's own requirement of a companion the resolver could not meet, told in the
    terms of the resolver that printed it (:func:`installer_of`)."""
    tool = installer_of(hits).tool
    return causes.software.TF_METADATA_UNSATISFIABLE, causes.software.metadata_unsatisfiable_fix(
        m,
        _group(hits, "companion") or "the companion",
        _group(hits, "spec") or "",
        _group(hits, "marker") or "",
        _group(hits, "required_by") or "",
        tool if tool in ("poetry", "pip-tools") else "uv",
    )


def _unpublished_pin(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A resolver's word that no version of a distribution matches the project's requirement
    at all (not one without files for this Python): the release is not published. The
    newest release this package knows of (the matrix's for TensorFlow, the bundled wheel
    index's for a companion) is the pin the fix offers."""
    dist = normalize_name(_group(hits, "dist") or "")
    spec = _group(hits, "spec") or ""
    installer = installer_of(hits)
    resolver = "poetry" if installer.tool == "poetry" else installer.interface or "uv"
    known: tuple[str, ...] = ()
    python = ""
    if m.matrix is not None and dist == "tensorflow":
        # The newest line with a wheel for the log's Python (the matrix lists each line's):
        # a newer one's pin could not install there either.
        python = r.python or ""
        newest = m.matrix.newest_with_wheels(python)
        known = (newest.latest_patch,) if newest is not None else ()
    elif releases_of(dist):
        known = tuple(x.version for x in releases_of(dist))
    # uv's hint where the releases exist but were not considered: its "no version" then says
    # nothing of what the index publishes.
    aside = next((x for x in r.set_aside if x.dist == dist), None) if resolver != "poetry" else None
    if aside is not None:
        return causes.software.PINNED_RELEASE_NOT_PUBLISHED, causes.software.set_aside_pin_fix(
            dist, spec, resolver, aside.reason, aside.index
        )
    return causes.software.PINNED_RELEASE_NOT_PUBLISHED, causes.software.unpublished_pin_fix(
        dist or "the package", spec, resolver, known, python
    )


#: A downloaded file's URL in a cited line, or the host urllib3 names (host='pypi.org').
_DOWNLOAD_URL = re.compile(
    r"https?://[^\s'\"<>()]{1,300}|host='(?P<host>[\w.-]{1,253})'"
    # libcurl's details (TensorFlow's HTTP client): "Could not resolve host: NAME",
    # "Failed to connect to NAME port 443".
    r"|(?:resolve host:|connect to) (?P<curl_host>[\w-]{1,63}(?:\.[\w-]{1,63}){1,8})"
)
#: The system's words for a failed connection, as the cited line gives them.
_NETWORK_ERROR = re.compile(
    r"\[(?:Errno|WinError) -?\d+\] [^'\"<>()\n]{1,120}|Connection to [\w.-]{1,253} timed out"
    r"|Read timed out|urlopen error timed out|libcurl code \d+ meaning '[^'\n]{1,80}'"
)
#: OpenSSL's reason for a failed verification, after Python 3.7's colon.
_VERIFY_REASON = re.compile(r"certificate verify failed: ([^(\n'>]{1,160})")
#: The ranking of the candidates for each kind of failed connection: no route or no name
#: server first where the system found none, a proxy first where the direct connection was
#: refused or dropped, the host's route first where it connected and then stalled.
_NETWORK_ORDER: dict[str, tuple[str, ...]] = {
    "download-network-unreachable": ("no-network", "proxy", "host"),
    "download-name-unresolved": ("no-network", "proxy", "host"),
    "download-name-unknown": ("no-network", "proxy", "host"),
    "download-getaddrinfo-failed": ("no-network", "proxy", "host"),
    "download-connection-refused": ("proxy", "host", "no-network"),
    "download-connection-timed-out": ("proxy", "host", "no-network"),
    "download-read-timed-out": ("host", "proxy", "no-network"),
    "tf-http-host-unresolved": ("no-network", "proxy", "host"),
    "tf-http-connect-failed": ("proxy", "host", "no-network"),
}


#: The causes of a download whose connection failed.
_CONNECTION_CAUSES = (
    causes.network.NO_NETWORK_ACCESS,
    causes.network.PROXY_NOT_CONFIGURED,
    causes.network.DOWNLOAD_HOST_UNREACHABLE,
)


def _download_url(hits: Sequence[Hits]) -> Optional[str]:
    """The URL (or urllib3's host, as an https URL) the cited lines show, if any."""
    for h in hits:
        for _, line in h.citations:
            match = _DOWNLOAD_URL.search(line)
            if match is not None:
                host = match.group("host") or match.group("curl_host")
                return f"https://{host}" if host else match.group(0).rstrip(".:,;")
    return None


#: The host tfjs-node's install script downloads libtensorflow and its addon from by default
#: (tfjs-node/scripts/install.js, BASE_HOST).
_TFJS_HOST = "storage.googleapis.com"
#: Node's failed name lookup (signatures.yaml) and the host it names (lib/internal/errors.js,
#: dnsException: "getaddrinfo CODE HOST").
_NODE_DNS = "node-getaddrinfo-failed"
_NODE_LOOKUP = re.compile(r"\bgetaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?P<host>[\w.-]{1,253})")


def _download_network(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A download whose connection failed: the candidates ranked by what the system said."""
    first = min(hits, key=lambda h: h.first)
    said_first = first.citations[0][1] if first.citations else ""
    if first.signature.id == _NODE_DNS and _TFJS_HOST in said_first:
        # tfjs-node's install script, whose download host and mirror setting are its own.
        return causes.network.NO_NETWORK_ACCESS, causes.network.tfjs_download_fix(
            m, _TFJS_HOST, r.tfjs_node_package or "tfjs-node"
        )
    order = _NETWORK_ORDER.get(first.signature.id, ("proxy", "host", "no-network"))
    said = " ".join(line for h in hits for _, line in h.citations)
    error = _NETWORK_ERROR.search(said)
    words = error.group(0).strip() if error is not None else first.signature.summary
    node = _NODE_LOOKUP.search(said_first) if first.signature.id == _NODE_DNS else None
    if node is not None:
        # Node's lookup of another host (a model or registry the program names): npm's and
        # Node's settings, not pip's.
        return causes.network.NETWORK_CAUSE[order[0]], causes.network.node_network_fix(
            m, order, node.group(0), node.group("host")
        )
    return causes.network.NETWORK_CAUSE[order[0]], causes.network.network_fix(
        m, order, words, _download_url(hits), slow=first.signature.id == "download-read-timed-out"
    )


def _ca_certs(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A certificate no trusted CA signed: python.org's macOS step where macOS may be the
    system, and the intercepting proxy first for clients that carry certifi's own bundle."""
    said = " ".join(line for h in hits for _, line in h.citations)
    # pip and requests verify with certifi's bundle (urllib3's "HTTPSConnectionPool", requests'
    # "SSLError("), not the interpreter's store: a missing store does not explain them.
    proxy_first = any(w in said for w in ("HTTPSConnectionPool", "SSLError(", "pip._vendor"))
    if r.os == "macos":
        macos: Optional[bool] = True
    elif r.os is not None:
        macos = False
    elif m.os is not None:
        macos = m.os == "macos"
    else:
        macos = None
    reason = _VERIFY_REASON.search(said)
    return causes.network.PYTHON_CA_CERTS_MISSING, causes.network.ca_certs_fix(
        m,
        macos,
        r.python,
        proxy_first=proxy_first,
        reason=reason.group(1).strip() if reason is not None else "",
        url=_download_url(hits),
    )


def _host_cert(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """One host's certificate that does not verify, with OpenSSL's reason."""
    said = " ".join(line for h in hits for _, line in h.citations)
    reason = _VERIFY_REASON.search(said)
    return causes.network.DOWNLOAD_HOST_CERT_UNVERIFIABLE, causes.network.host_cert_fix(
        m,
        reason.group(1).strip() if reason is not None else "certificate verify failed",
        _download_url(hits),
    )


def _addon_tools(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    bazel = [h for h in hits if BAZEL_WORDS in h.signature.tags]
    if bazel and len(bazel) == len(hits):
        # Bazel's C/C++ autoconfiguration: the Visual C++ wrapper's words are Windows'.
        windows = r.os == "windows" or any(WINDOWS_WORDS in h.signature.tags for h in bazel)
        return (
            causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING,
            causes.platform.bazel_toolchain_fix(
                "windows" if windows else r.os, _group(bazel, "compiler") or ""
            ),
        )
    extension = [h for h in hits if SETUPTOOLS_WORDS in h.signature.tags]
    if extension and len(extension) == len(hits):
        # setuptools' words: MSVC is Windows', xcrun macOS's; a compiler it could not run.
        tags = {t for h in extension for t in h.signature.tags}
        shown = (
            "windows"
            if WINDOWS_WORDS in tags
            else "macos"
            if MACOS_WORDS in tags
            else r.os or "linux"
        )
        return (
            causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING,
            causes.platform.extension_toolchain_fix(shown, _group(extension, "compiler") or ""),
        )
    # node-gyp's words name what it missed: Python, Visual Studio, Xcode (macOS's), make.
    said = " ".join(line for h in hits if h not in extension for _, line in h.citations)
    toolchain = (
        "Python"
        if "Python" in said
        else "VS"
        if "Visual Studio" in said or "find VS" in said
        else ""
    )
    system = (
        "macos"
        if "Xcode" in said
        else r.os or "linux"
        if "not found: make" in said  # make is what node-gyp runs on Linux (and BSDs)
        else r.os
    )
    xcodebuild = any(h.signature.id == "xcodebuild-needs-xcode" for h in hits)
    return causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING, causes.platform.addon_toolchain_fix(
        toolchain, system, clt_active=xcodebuild
    )


#: The oldest architecture generation (Maxwell, compute capability 5.x) whose name every ptxas
#: of TensorFlow 2's CUDA releases (10.0 to 12.x) knows; CUDA 13's is later
#: (:func:`tfdoctor.causes.gpu.toolkit_dropped_arch`).
_OLDEST_ARCH_MAJOR_KEPT = 5


def _ptxas_old(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    arch = _group(hits, "gpu_arch")
    cap = _group(hits, "compute_capability")
    if arch is None and cap is not None:
        # XLA's later words name the GPU's capability (``ptxas does not support CC 8.9``).
        arch = "sm_" + cap.replace(".", "")
    parsed = parse_arch(arch) if arch else None
    if parsed is not None and r.toolkit_major is not None:
        dropped = causes.gpu.toolkit_dropped_arch(r.toolkit_major[0], parsed[1], parsed[2])
        if dropped is not None:
            # A ptxas newer than the GPU: the GPU too old for that toolkit, not the ptxas.
            known = f"{parsed[1]}.{parsed[2]}"
            return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.toolkit_dropped_arch_fix(
                m, known, r.toolkit_major[0], r.toolkit_major[1], dropped
            )
    if parsed is not None and parsed[1] < _OLDEST_ARCH_MAJOR_KEPT:
        # XLA asks ptxas for the GPU's own architecture. Every ptxas from CUDA 6.5 to 10.2
        # knows Kepler's sm_30 to sm_37; CUDA 11 dropped sm_30 and CUDA 12 sm_35 and sm_37. A
        # ptxas that does not know one is newer than the GPU: the GPU is too old for the
        # toolchain and for the TensorFlow built with it, not the ptxas too old.
        # https://docs.nvidia.com/cuda/archive/11.0/cuda-toolkit-release-notes/index.html
        # https://docs.nvidia.com/cuda/archive/12.0.0/cuda-toolkit-release-notes/index.html
        known = f"{parsed[1]}.{parsed[2]}"
        return causes.gpu.GPU_ARCH_UNSUPPORTED, causes.gpu.gpu_arch_fix(m, known)
    nvcc = [
        line for h in hits if h.signature.id == "nvcc-unknown-gpu-arch" for _, line in h.citations
    ]
    if nvcc:
        # nvcc names a virtual architecture (compute_86) where it has no real one (sm_86).
        named = re.search(r"compute_(\d+[a-z]?)", " ".join(nvcc))
        arch = arch or (f"sm_{named.group(1)}" if named else None)
    if nvcc:
        return causes.xla.PTXAS_TOO_OLD, causes.xla.ptxas_old_fix(m, arch, "nvcc")
    shown = next((p for p in r.ptxas_shown if p[0] != "newer-than-driver"), None)
    return causes.xla.PTXAS_TOO_OLD, causes.xla.ptxas_old_fix(m, arch, "ptxas", shown, r.ptxas_path)


def _ptxas_new(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A ptxas newer than the driver, with the versions XLA's own line states."""
    shown = next((p for p in r.ptxas_shown if p[0] == "newer-than-driver"), None)
    if shown is not None:
        return causes.xla.PTXAS_TOO_NEW, causes.xla.ptxas_fix(m, shown[2], shown[1])
    return causes.xla.PTXAS_TOO_NEW, causes.xla.ptxas_fix(m)


def _filesystem_env(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Which setting of which remote file system the log's lines point at."""
    ids = {h.signature.id for h in hits}
    cause = causes.runtime.FILESYSTEM_ENV_MISCONFIGURED
    if "s3-region-wrong" in ids:
        return cause, causes.runtime.s3_region_fix(_group(hits, "region"))
    if "s3-credentials-not-set" in ids:
        return cause, causes.runtime.s3_credentials_fix(r.s3_plain_http)
    if "gcs-anonymous-refused" in ids:
        return cause, causes.runtime.gcs_credentials_fix()
    return cause, causes.runtime.s3_object_missing_fix()


def _companion(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if all(h.signature.id == "filesystem-scheme-unregistered" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.filesystem_plugin_fix(
            m, _group(hits, "scheme")
        )
    if any(h.signature.id == "edgetpu-delegate-prepare" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.edgetpu_runtime_fix(m)
    if any(h.signature.id == "edgetpu-model-needs-newer-runtime" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.edgetpu_model_runtime_fix(
            _group(hits, "required"), _group(hits, "loaded")
        )
    if any(h.signature.id == "keras-retinanet-tf-version-check" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.library_tf_check_fix(
            m, "keras-retinanet", _group(hits, "required"), _group(hits, "excluded")
        )
    if any(h.signature.id == "tfjs-unsupported-ops" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.converter_older_fix(
            m, "tensorflowjs"
        )
    if any(h.signature.id == "edward-tf-unsupported" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.edward_tf_fix(m)
    if any(h.signature.id == "grappler-given-rewriter-config" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.older_grappler_caller_fix(m)
    if any(h.signature.id == "tfjs-core-releases-differ" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.tfjs_releases_fix()
    if any(h.signature.id == "dotnet-c-api-entry-point-missing" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.dotnet_binding_fix(
            _group(hits, "symbol") or "a C function"
        )
    if any(h.signature.id in ("c-api-name-unknown", "c-api-symbol-undefined") for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.c_binding_fix(
            _group(hits, "binding"), _group(hits, "symbol") or "a C name", r.os
        )
    if any(h.signature.id == "horovod-tensorflow-extension-not-built" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.horovod_unbuilt_fix(m)
    if any(DEEPMD_BUILD in h.signature.tags for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.deepmd_rebuild_fix(
            m, _group(hits, "required"), _group(hits, "tf_version"), _group(hits, "flag")
        )
    if any(h.signature.id == "horovod-framework-version-mismatch" for h in hits):
        return causes.software.COMPANION_MISMATCH, causes.software.rebuild_on_install_fix(
            m, "horovod", "HOROVOD_WITH_TENSORFLOW=1"
        )
    # Named by its library's path, or by its own words ("TensorFlow Probability").
    libraries = [g["library"] for h in hits for g in h.groups if g.get("library")]
    named = _group(hits, "dist")
    op = _group(hits, "op")
    owners = (
        origin_of(x).dist
        or plugin_dist(x)
        or _library_owner(x)
        or _built_on_tensorflow(installed_package(x))
        for x in libraries
    )
    dist = (
        next(filter(None, owners), "")
        if libraries
        else normalize_name(named.replace(" ", "-"))
        if named
        else (modules().op_library(op) or "")
        if op
        else ""
    )
    top = next((t for t in map(installed_package, libraries) if t), None)
    symbol = _group(hits, "symbol") or ""
    loader = _package_loader(libraries, r.op_loader)
    if not dist and top is None and loader is not None:
        # The library's own name says no package, and the log gives no folder of it: the
        # installed package whose code called tf.load_op_library is whose library it is.
        top, dist = loader, distribution_of(loader) or ""
    if not dist and top is None and symbol:
        own = _own_op_library(libraries, r.op_loader)
        if own is not None:
            # No package's: the project's own op library, built by its script or shipped
            # prebuilt, against another TensorFlow or with other flags.
            return causes.software.CUSTOM_OP_BUILD_MISMATCH, causes.software.custom_op_fix(
                own, symbol, r.tf_version
            )
    if "horovod" in (dist, top):
        # Horovod compiles its TensorFlow extension (horovod/tensorflow/mpi_lib) as it is
        # installed, against the TensorFlow present then: no release table, a rebuild
        # (docs/troubleshooting.rst, "pip install --no-cache-dir horovod").
        return causes.software.COMPANION_MISMATCH, causes.software.rebuild_on_install_fix(
            m, "horovod", "HOROVOD_WITH_TENSORFLOW=1"
        )
    # The symbol's C++ ABI says which TensorFlow build lacks it where the log does not show
    # the release (whose own wheels' ABI would then be the question).
    abi = causes.software.cxx_abi_of(symbol) if r.tf_version is None else None
    fix = causes.software.companion_fix(m, dist or None, abi=abi)
    if not dist and top is not None:
        # No distribution the table knows: the directory it is installed in names the add-on.
        shown = next((x for x in libraries if installed_package(x) == top), None) or next(
            iter(libraries), r.op_loader
        )
        fix = Fix(
            f"The add-on is {causes.common.package_named(top)} (its library: {shown}). {fix.text}",
            (*fix.commands, causes.common.owner_of_package_command(top)),
        )
    return causes.software.COMPANION_MISMATCH, fix


def _package_loader(libraries: Sequence[str], loader: Optional[str]) -> Optional[str]:
    """The installed add-on (its import name) whose code called ``tf.load_op_library``, where
    the log names the op library by its file name alone (``_x_ops.so``: the loader's message
    cites the name it was given, resolved by the package in its own folder) or not at all.
    Only a package the module table knows is built on TensorFlow (its wheels carry op
    libraries built for a TensorFlow release): another package's library may have been
    compiled by the project itself (a source install), which the custom-op reading answers.
    None where a library's folder is shown or the caller is the user's own code."""
    if any(re.search(r"[/\\]", x) for x in libraries) or loader is None:
        return None
    top = installed_package(loader)
    return top if _built_on_tensorflow(top) else None


def _own_op_library(libraries: Sequence[str], loader: Optional[str]) -> Optional[str]:
    """The op library a project built or shipped itself (no installed package's), as the
    log names it ("" where it names none but a project's file loaded it), or None."""
    if libraries and _package_loader(libraries, loader) is None:
        return libraries[0] if not any(map(installed_package, libraries)) else None
    if loader is not None and installed_package(loader) is None:
        return ""
    return None


#: A library of the operating system itself that the loader could not find (dyld's words).
_SYSTEM_LIBRARY = re.compile(r"Library not loaded: (/System/Library/[^\s\\]+|/usr/lib/[^\s\\]+)")


#: The libraries conda-forge's TensorFlow builds link from the environment instead of carrying
#: them, by library name and by the C++ namespace of their symbols: the feedstock's
#: TF_SYSTEM_LIBS (flatbuffers, snappy, protobuf, grpc, curl, gif, icu, libjpeg-turbo,
#: sqlite, png in recipe/build.sh; abseil from recipe/build_common.sh,
#: https://github.com/conda-forge/tensorflow-feedstock).
_CONDA_TF_LIBRARIES = (
    "flatbuffers",
    "snappy",
    "protobuf",
    "grpc",
    "gpr",
    "absl",
    "curl",
    "gif",
    "icu",
    "jpeg",
    "sqlite3",
    "png",
)
#: The start of an Itanium-mangled C++ symbol, before its first nested name.
_MANGLED_NAME = re.compile(r"^_Z(?:T[IVS])?N?K?")
#: A nested name's length: four digits at most (a longer number is no real name, and Python
#: refuses to read one of thousands of digits).
_MANGLED_PART = re.compile(r"\d{1,4}")


def _namespaces(symbol: str) -> list[str]:
    """The first two names of a mangled C++ symbol's nesting (``_ZTIN6snappy4SinkE``: snappy,
    Sink; ``_ZNK6google8protobuf7Message...``: google, protobuf); empty when it is not one."""
    found = _MANGLED_NAME.match(symbol)
    out: list[str] = []
    at = found.end() if found is not None else len(symbol)
    while len(out) < 2:
        size = _MANGLED_PART.match(symbol, at)
        if size is None:
            break
        start, length = size.end(), int(size.group())
        out.append(symbol[start : start + length])
        at = start + length
    return out


def _conda_build_library(hits: Sequence[Hits], r: Revealed) -> Optional[str]:
    """The library of a conda TensorFlow build's own dependencies that TensorFlow's own
    library missed (a symbol of its namespace), or that TensorFlow's import failed to load;
    None otherwise (another package's missing library is not TensorFlow's build's)."""
    for hit in hits:
        for groups in hit.groups:
            library = groups.get("library", "").replace("\\", "/").rsplit("/", 1)[-1]
            names = _namespaces(groups.get("symbol", ""))
            for name in _CONDA_TF_LIBRARIES:
                # ICU versions its namespace (icu_73).
                if any(n == name or n.startswith(name + "_") for n in names):
                    return f"lib{name}"
                if library.startswith(f"lib{name}") and library == r.tf_import_library:
                    return f"lib{name}"
    return None


#: Python's words as Windows refuses an extension module (Python 3.8 on name it:
#: ``DLL load failed while importing MPI``; Python/dynload_win.c), with the status code where
#: Windows has no message for it (``DLL load failed with error code 3221225781 while
#: importing cygrpc``).
_DLL_REFUSED = re.compile(
    r"DLL load failed(?: with error code -?\d+)?(?: while importing (?P<module>\w+))?"
    r"|Module use of python\d+(?:_d)?\.dll conflicts"
    # ERROR_MOD_NOT_FOUND as ctypes (and Python 3.8+'s os.add_dll_directory loads) raise it
    # for a DLL a package opens itself (LightGBM's lib_lightgbm.dll through ctypes.CDLL):
    # https://learn.microsoft.com/en-us/windows/win32/debug/system-error-codes--0-499-
    r"|\[WinError 126\]"
)
#: A package's own raise of an ImportError whose words follow on lines of their own.
_RERAISED = re.compile(r"^\s*raise ImportError\(\w+\)\s*$")
#: An absolute import statement: its top-level package.
_IMPORTS = re.compile(r"^\s*(?:from|import)\s+(?P<top>[A-Za-z_]\w*)")


#: Cython's name for a compiled module's frame as it is imported (``File "h5py\\h5.pyx",
#: line 1, in init h5py.h5``): the module's dotted name.
_CYTHON_INIT = re.compile(r"^init (?P<top>[A-Za-z_]\w*)\.")


def _frame_package(frame: Frame) -> Optional[str]:
    """The import package a traceback's frame shows at work: the one its import statement
    names, else the installed package its file is in, else the compiled module Cython names
    as it initialises one (a frame of a ``.pyx`` file, outside site-packages)."""
    stated = _IMPORTS.match(frame.code)
    if stated is not None:
        return stated.group("top")
    cython = _CYTHON_INIT.match(frame.function)
    return installed_package(frame.path) or (cython.group("top") if cython else None)


def _dll_extension(tracebacks: Sequence[Traceback]) -> Optional[str]:
    """The import package whose compiled extension Windows refused, where a traceback shows
    it and it is not TensorFlow's own: the package the innermost frame's import statement
    names (``from mpi4py import MPI``, ``from tensorflow_text.core.pybinds import
    tflite_registrar``), else the installed package that frame is in (cv2's ``from .cv2
    import *``), else the module Python names (``while importing cv2``) where the module
    table knows its distribution. None for TensorFlow's own (``_pywrap_tensorflow_internal``
    under ``from tensorflow.python...``) or where nothing says whose. A companion's
    extensions are named ``_pywrap_*`` too (tensorflow-text's), so the frame decides."""
    for tb in tracebacks:
        refused = _DLL_REFUSED.search(tb.message)
        if refused is None or tb.ignored:
            continue
        module = refused.group("module") or ""
        if tb.frames:
            package = next(filter(None, map(_frame_package, reversed(tb.frames))), None)
        else:
            stated = _IMPORTS.match(tb.statement or tb.code)
            package = stated.group("top") if stated is not None else None
        package = package or (module if module and distribution_of(module) else None)
        if package is None or distribution_of(package) in TF_DISTRIBUTIONS:
            return None
        if module.startswith("_pywrap") and package not in modules().family:
            # TensorFlow's own module under a package that imports TensorFlow (a traceback
            # cut above TensorFlow's frames): only a companion names its modules so too.
            return None
        return package
    # A package that re-raises its extension's refusal in words of its own, the loader's
    # below them (NumPy's "Importing the numpy C-extensions failed ... Original error was:
    # DLL load failed ...", numpy/core/__init__.py): its own raise is the innermost frame.
    for tb in tracebacks:
        last = tb.frames[-1] if tb.frames else None
        if last is None or tb.ignored or not _RERAISED.match(last.code):
            continue
        package = installed_package(last.path)
        if package is not None and distribution_of(package) not in TF_DISTRIBUTIONS:
            return package
    return None


#: The dynamic loader's words for a library it could not open or link for an extension being
#: imported (glibc's dlerror: "cannot open shared object file", "undefined symbol"; dyld's
#: "Library not loaded").
_LOADER_REFUSED = re.compile(r"cannot open shared object file|undefined symbol|Library not loaded")


def _native_importer(tracebacks: Sequence[Traceback]) -> Optional[PackageCode]:
    """The installed package whose import the loader refused, where the last traceback with
    the loader's words shows it in its frames and it is not TensorFlow's family (whose own
    readings name TensorFlow and its companions)."""
    for tb in reversed(tracebacks):
        if not _LOADER_REFUSED.search(tb.message):
            continue
        found = failing_package(tb)
        if found is None or found.module in modules().family or found.dist in TF_DISTRIBUTIONS:
            return None
        return found
    return None


def _library_package(library: str, r: Revealed) -> Optional[str]:
    """The installed package (its import name) a native library belongs to: the folder of its
    path, else, where the message names the library by its file alone, the package whose
    import failed (:func:`_native_importer`); None where neither says."""
    top = installed_package(os.path.normpath(library))
    if top is None and r.native_importer is not None and not re.search(r"[/\\]", library):
        return r.native_importer.module
    return top


def _msvc_runtime(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Windows' "DLL load failed" is TensorFlow's missing runtime only where the extension is
    TensorFlow's: another package's extension (mpi4py's, cv2's) needs its own DLLs, and a
    companion's was built against another TensorFlow."""
    return _extension_refused(m, r.dll_extension) or (
        causes.platform.MSVC_RUNTIME_MISSING,
        causes.platform.msvc_fix(),
    )


def _extension_refused(m: Machine, package: Optional[str]) -> Optional[tuple[causes.CauseId, Fix]]:
    """The reading of Windows refusing the compiled extension of ``package`` (not
    TensorFlow's): a companion released for each TensorFlow line (the companion table:
    tensorflow-text, tensorflow-io, ...) links TensorFlow's own library, so its extension
    built for another TensorFlow finds a DLL or an entry point missing (ERROR_MOD_NOT_FOUND,
    126; ERROR_PROC_NOT_FOUND, 127) when TensorFlow itself loaded; another package's needs
    its own DLLs. None for no package, or another of TensorFlow's family (tflite-runtime's
    extension links no TensorFlow: the Visual C++ runtime is its reading)."""
    if package is None:
        return None
    dist = distribution_of(package)
    if dist is not None and m.companion(dist) is not None:
        # tensorflow-text's README: install the TF Text release of the TensorFlow in use
        # (https://github.com/tensorflow/text#install-using-pip).
        return causes.software.COMPANION_MISMATCH, causes.software.companion_dll_fix(m, dist)
    if package in modules().family:
        return None
    return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.extension_dll_fix(
        m, package, dist
    )


def _built_on_tensorflow(package: Optional[str]) -> str:
    """The distribution of an installed import package that is built on TensorFlow (a
    companion of its family, or a library the module table marks as written against it),
    TensorFlow itself left out; "" for any other package or none."""
    dist = distribution_of(package) if package else None
    if not dist or dist in TF_DISTRIBUTIONS:
        return ""
    table = modules()
    return dist if package in table.family or package in table.on_tensorflow else ""


def _library_owner(library: str) -> str:
    """The distribution a library's own name says it belongs to (``libtensorflow_io.so`` is
    tensorflow_io's: tensorflow-io; ``_regex_split_ops.so`` tensorflow-text's), or ""."""
    name = library.replace("\\", "/").rsplit("/", 1)[-1]
    listed = modules().op_libraries.get(name.split(".", 1)[0])
    if listed is not None and name == library:
        # An add-on whose op libraries are named after their op sets (tensorflow-text's
        # _regex_split_ops.so): the module table lists them. Only a name alone: a path says
        # whose file it is (a project's own build of an op set named alike is no add-on's).
        return listed
    stem = library_of(name)
    # A package names its libraries after itself, sometimes with a suffix
    # (libtensorflow_io_plugins.so): the longest prefix the module table knows.
    parts = stem.split("_")
    found = (distribution_of("_".join(parts[:end])) for end in range(len(parts), 1, -1))
    return next(filter(None, found), "")


#: TensorFlow's C library as the libtensorflow archive installs it (lib/libtensorflow.so.2,
#: lib/libtensorflow.2.dylib; https://www.tensorflow.org/install/lang_c), not the Python
#: package's libtensorflow_framework.
_TF_C_LIBRARY = re.compile(r"(?:^|[/\\])libtensorflow(?:\.so(?:\.\d+){0,3}|(?:\.\d+){0,3}\.dylib)$")

#: A library that loaded but needs a symbol no loaded library defines, in glibc's and dyld's
#: words.
_LIBRARY_SYMBOL_IDS = frozenset({"library-undefined-symbol", "library-symbol-not-found-dyld"})

#: The loader refusing a program as it starts (dyld's own prefix, glibc's ld.so's words), not a
#: module loaded later by dlopen (whose failure Python or TensorFlow raises).
_PROGRAM_START = re.compile(
    r"^\s*dyld(?:\[\d+\])?: Library not loaded|error while loading shared libraries"
)


def _framework_at_start(library: str, hits: Sequence[Hits]) -> bool:
    """TensorFlow's framework library unfound as a program starts, not as Python loads a
    module: a program of the C API, whose archive holds it beside libtensorflow."""
    cited = (line for h in hits for _, line in h.citations)
    return bool(_TF_FRAMEWORK.search(library)) and any(map(_PROGRAM_START.search, cited))


#: TensorFlow's own shared library, by the major its soname carries (macOS: the major before
#: .dylib, as get_link_flags' -ltensorflow_framework.N names it).
#: The unversioned name (libtensorflow_framework.so) is the one of the wheels before
#: versioned sonames; 2.x's get_link_flags names .so.2.
_TF_FRAMEWORK = re.compile(
    r"libtensorflow_(?:framework|cc)(?:\.so\.(\d+)|\.(\d+)\.dylib|\.(?:so|dylib)(?![.\w]))"
)

#: The file dyld was opening (``dlopen(PATH, MODE)``), the library that needs another.
_DLOPEN_PATH = re.compile(r"dlopen\((?P<path>[^,()\s]{1,400}),")

#: The libraries a macOS TensorFlow wheel installs in its own package folder, which its
#: extensions find through their rpath (@loader_path): the framework library
#: (libtensorflow_framework.2.dylib) and the extension most of the others link
#: (_pywrap_tensorflow_internal.so: Python's extension suffix on macOS too). Only dyld's
#: words are read against it (:func:`_tf_own_library_unfound`), so Linux's
#: libtensorflow_framework.so.2 is no form of it.
_TF_OWN_LIBRARY = re.compile(
    r"(?:^|[/\\])(?:libtensorflow_framework(?:\.\d+){0,3}\.dylib|_pywrap_tensorflow_internal\.so)$"
)

#: A file of TensorFlow's own package folder in an environment.
_IN_TF_PACKAGE = re.compile(r"[/\\](?:site|dist)-packages[/\\]tensorflow[/\\]")


def _dyld_found_as(library: Optional[str], tried: Sequence[str]) -> Optional[str]:
    """The library dyld names by a run-path (@rpath/libomp.dylib), as the path of its name
    in a Homebrew keg that dyld says it tried, where one is shown: the file was built
    against that formula (its run-path names /opt/homebrew/opt/libomp/lib), which says whose
    the library is. The library itself otherwise."""
    if not library or not library.startswith("@"):
        return library
    name = library.rsplit("/", 1)[-1]
    kegs = (p for p in tried if p.rsplit("/", 1)[-1] == name and causes.platform.in_keg(p))
    return next(kegs, library)


def _tf_incomplete(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Only a signature names this cause (the tracebacks' own reading builds its finding
    itself): a stale file of another release, whose directory pip's uninstall leaves, or
    TensorFlow's extension needing a symbol its framework library lacks."""
    cause = causes.software.TF_INSTALL_INCOMPLETE
    if all(h.signature.id == "tensorflow-half-removed-copy" for h in hits):
        return cause, causes.software.tf_leftover_fix(
            m, _group(hits, "site_packages"), _group(hits, "leftover")
        )
    own = [h for h in hits if h.signature.id == "tensorflow-own-symbol-missing"]
    if own:
        groups, (_, line) = own[0].groups[0], own[0].citations[0]
        # dlopen(...) is dyld's wording (macOS); glibc names the file alone.
        return cause, causes.software.own_symbol_fix(
            m, groups["library"], groups["symbol"], "dlopen(" in line
        )
    return cause, causes.software.stale_files_fix(m)


def _tf_own_unfound(
    m: Machine, r: Revealed, hits: Sequence[Hits], library: Optional[str], owner: Optional[str]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """TensorFlow's extension cannot find the framework library (or the extension) its own
    wheel installs beside it: the installation lacks its own file. None otherwise, where the
    file that needs it is a companion's (``owner``), or where dyld says it found a file of
    that name and refused it (its architecture, its code signature): the file is there."""
    if owner is not None or not _tf_own_library_unfound(library, hits):
        return None
    name = (library or "").rsplit("/", 1)[-1]
    if any(path.rsplit("/", 1)[-1] == name for path in r.dyld_refused):
        return None
    return causes.software.TF_INSTALL_INCOMPLETE, causes.software.incomplete_install_fix(m)


def _tf_own_library_unfound(library: Optional[str], hits: Sequence[Hits]) -> bool:
    """dyld could not find one of TensorFlow's own libraries (:data:`_TF_OWN_LIBRARY`) for a
    file of TensorFlow's own package (the one dlopen was opening): the installation lacks the
    file its wheel put beside it, as an uninstall of another distribution sharing the folder
    (tensorflow-macos and tensorflow both install tensorflow/) or an interrupted install
    leaves it. A plugin or companion outside that folder is another reading."""
    if not library or _TF_OWN_LIBRARY.search(library) is None:
        return False
    if not any(h.signature.id == "dylib-not-loaded" for h in hits):
        return False
    cited = [line for h in hits for _, line in h.citations]
    users = [m.group("path") for line in cited for m in _DLOPEN_PATH.finditer(line)]
    return bool(users) and all(_IN_TF_PACKAGE.search(path) for path in users)


def _framework_users(cited: Sequence[str], loader: Optional[str]) -> list[str]:
    """The files that need TensorFlow's framework library: the ones dyld was opening, or (no
    such file shown) the file that called tf.load_op_library."""
    opened = [m.group("path") for line in cited for m in _DLOPEN_PATH.finditer(line)]
    return opened or ([loader] if loader is not None else [])


def _own_framework_user(cited: Sequence[str], loader: Optional[str]) -> bool:
    """The library that needs TensorFlow's framework library is a project's own op library:
    the file dyld was opening, or (no such file shown) the file that called
    tf.load_op_library, lies outside site-packages. One under site-packages is an installed
    package's, whether or not the module table lists its distribution (pip installed it, built
    for the TensorFlow of its day)."""
    users = _framework_users(cited, loader)
    return bool(users) and not any(installed_package(u) is not None for u in users)


def _framework_package(cited: Sequence[str], loader: Optional[str]) -> Optional[str]:
    """The installed package whose op library needs TensorFlow's framework library, by its
    distribution where the module table knows it, else by its import name; None where no
    file under site-packages shows one."""
    tops = (installed_package(u) for u in _framework_users(cited, loader))
    top = next((t for t in tops if t is not None and t not in TF_OWN), None)
    if top is None:
        return None
    return distribution_of(top) or f"the package that provides `{top}`"


#: An installed file's path in a cited line (a loader's "Referenced from", a companion's
#: "from paths"). It starts where a path can (after a space, a quote or a comma): tried at
#: every character of a long path-like run, the search would take quadratic time.
_INSTALLED_PATH = re.compile(r"""(?<![^\s'",])[^\s'"]*[/\\](?:site|dist)-packages[/\\][^\s'",]+""")


def _framework_major(
    m: Machine, r: Revealed, hits: Sequence[Hits], library: Optional[str], owner: Optional[str]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """TensorFlow's framework library of another major (or unversioned) that
    tf.load_op_library's op needs: a project's own op relinked with TensorFlow's flags, a
    package's built for that major; None where the log shows neither."""
    framework = _TF_FRAMEWORK.search(library or "")
    cited = [line for h in hits for _, line in h.citations]
    if framework is None or not any("NotFoundError" in line for line in cited):
        return None
    # tf.load_op_library raises NotFoundError: an op links TensorFlow's own library of major N
    # (libtensorflow_framework.so.2 since 2.0; the unversioned name before versioned sonames),
    # which this TensorFlow lacks when it is of another major.
    major = framework.group(1) or framework.group(2)
    shown = version_key(r.tf_version)[:1] if r.tf_version else None
    other = shown is None or (shown >= (2,) if major is None else shown != (int(major),))
    if not other:
        return None
    if owner is None and _own_framework_user(cited, r.op_loader):
        # The op library that needs it is the project's own (its path outside site-packages,
        # or the project's file loaded it): rebuilt with TensorFlow's flags, not reinstalled.
        name = library.replace("\\", "/").rsplit("/", 1)[-1] if library else None
        return causes.software.CUSTOM_OP_BUILD_MISMATCH, causes.software.custom_op_link_fix(
            m, name, r.tf_version
        )
    if major is None:
        return None
    # A package's compiled ops: the package was built for that major.
    return causes.software.COMPANION_MISMATCH, causes.software.op_library_major_fix(
        m, major, r.tf_version, owner or _framework_package(cited, r.op_loader)
    )


#: Windows refusing a package's own extension module, as Python names it (with Windows'
#: reason, or the reason cut from the paste).
_EXTENSION_REFUSED = frozenset(
    {"windows-extension-dll-load-failed", "windows-extension-dll-reason-cut"}
)


def _windows_extension(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Python's "DLL load failed" for an extension module: a file of another word size
    (TensorFlow's own or a package's), or a package's own extension refused; None for
    neither."""
    if any(h.signature.id in ("windows-dll-wrong-machine", "windows-error-193") for h in hits):
        # Another word size: the extension Python names is TensorFlow's own, or a package's.
        package = r.dll_extension
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.dll_word_size_fix(
            m, package, distribution_of(package) if package else None
        )
    if not any(h.signature.id in _EXTENSION_REFUSED for h in hits):
        return None
    # A package's own extension (Python names it, or the traceback's import does).
    module = r.dll_extension or _group(hits, "library")
    package = module if module and distribution_of(module) else r.dll_extension
    return _extension_refused(m, package) or (
        causes.platform.NATIVE_LIBRARY_UNRESOLVED,
        causes.platform.extension_dll_fix(
            m, package, distribution_of(package) if package else None
        ),
    )


def _runtime_named(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """A Windows extension refused for its DLLs (_windows_extension), or a runtime the log
    names as the library not found, with its own install: TensorFlow's C library (its header
    or library not found by the build), the Edge TPU runtime (where TFLite's load_delegate
    asks for it)."""
    refused = _windows_extension(m, r, hits)
    if refused is not None:
        return refused
    if any(h.signature.id in ("c-api-header-not-found", "c-api-library-not-linked") for h in hits):
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.c_api_fix(r.os)
    library = _group(hits, "library")
    if library and causes.software.edgetpu_runtime_file(library):
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.software.edgetpu_install_fix(
            library
        )
    return None


def _native(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "tensorrt-stub-abort" for h in hits):
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.tensorrt_fix()
    cuda_symbol = next(
        (g for h in hits if h.signature.id == "extension-cuda-runtime-symbol" for g in h.groups),
        None,
    )
    if cuda_symbol is not None:
        # Read before the generic undefined symbol, which names no CUDA release.
        path = cuda_symbol["library"]
        top = installed_package(os.path.normpath(path))
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.cuda_runtime_symbol_fix(
            m, path, cuda_symbol["symbol"], distribution_of(top) if top else None
        )
    icu = next(
        (g for h in hits if h.signature.id == "icu-data-symbol-undefined" for g in h.groups), None
    )
    if icu is not None:
        shown = icu.get("library") or None
        top = installed_package(os.path.normpath(shown)) if shown else None
        package = icu.get("dist") or (distribution_of(top) if top else None)
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.icu_data_fix(
            m, icu["symbol"], package, icu.get("loaded") or None, shown
        )
    own_install = _runtime_named(m, r, hits)
    if own_install is not None:
        return own_install
    library = _group(hits, "library")
    if library and r.hadoop and library.rsplit("/", 1)[-1].startswith(_HDFS_LIBRARIES):
        # Only where the log shows HDFS: other programs embed a JVM too (JPype, rJava); where
        # none is named, _jvm_candidate ranks HDFS's environment after the loader's reading.
        return causes.runtime.FILESYSTEM_ENV_MISCONFIGURED, causes.runtime.hdfs_env_fix()
    if not (library and causes.platform.tfjs_binding(library)) and any(
        h.signature.id == "tfjs-node-dlopen-failed" for h in hits
    ):
        # Node's error code alone, beside TensorFlow.js for Node: its addon did not load.
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.tfjs_dlopen_fix(
            r.os, r.tfjs_node_package or "tfjs-node"
        )
    if library and causes.platform.tfjs_binding(library):
        # TensorFlow.js for Node's addon: the file tfjs-node itself says is missing, or one
        # Windows could not load for a DLL it links.
        built = not any(
            h.signature.id in ("tfjs-binding-not-built", "tfjs-binding-module-missing")
            for h in hits
        )
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.tfjs_binding_fix(
            library, built
        )
    if library and any(h.signature.id in _LIBRARY_SYMBOL_IDS for h in hits):
        symbol = _group(hits, "symbol") or ""
        if re.match(r"_ZN?K?St(?!3__1)", symbol):  # std::__1 is LLVM's libc++, not libstdc++
            # A symbol of the C++ standard library (namespace std): the libstdc++ loaded is
            # older than the one the library was built with.
            return causes.platform.LIBSTDCXX_TOO_OLD, causes.platform.libstdcxx_fix(
                symbol, "", library
            )
        # A library that loaded but needs a symbol nothing defines: it, or the library that
        # should define it (the message's "version" names that one), is of another build.
        top = _library_package(library, r)
        built_on_tf = _built_on_tensorflow(top)
        if built_on_tf and causes.software.tf_build_symbol(symbol):
            # A compiled companion's own library missing a symbol of the TensorFlow build it
            # links (abseil, protobuf, TensorFlow's): built for another TensorFlow.
            return causes.software.COMPANION_MISMATCH, causes.software.companion_build_fix(
                m, built_on_tf, symbol, r.tf_version
            )
        # A library no installed package owns, beside one wheel the log shows installed from
        # a file (built elsewhere, not chosen by pip for this system): that wheel's native code
        # may link what this system's libraries do not define.
        wheel = r.wheel_files[0] if top is None and len(r.wheel_files) == 1 else None
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.undefined_symbol_fix(
            library, symbol, _package_named(top), _group(hits, "required"), wheel
        )
    if any(h.signature.id == "dotnet-tensorflow-dll-not-found" for h in hits):
        return (
            causes.platform.NATIVE_LIBRARY_UNRESOLVED,
            causes.platform.dotnet_library_unfound_fix(r.tensorflowsharp),
        )
    own = _own_library_unopened(hits)
    if own is not None:
        return causes.platform.WHEEL_MISMATCH, causes.platform.own_library_unopened_fix(m, *own)
    # "Library not loaded" is dyld's (macOS) wording.
    dyld = any(h.signature.id == "dylib-not-loaded" for h in hits)
    macos = r.os == "macos" or dyld or bool(library and library.endswith(".dylib"))
    if library and (_TF_C_LIBRARY.search(library) or _framework_at_start(library, hits)):
        # The C library itself unfound (undefined symbols are read above): a program of the
        # C API (or a binding over it) started where the loader does not look.
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, causes.platform.c_library_unfound_fix(
            library.replace("\\", "/").rsplit("/", 1)[-1], macos
        )
    windows = not macos and (
        r.os == "windows" or bool(library and library.lower().endswith((".dll", ".pyd")))
    )
    importer = r.native_importer
    fix = causes.platform.native_library_fix(
        _dyld_found_as(library, r.dyld_tried) if macos else library,
        macos,
        windows,
        (importer.module, importer.dist, importer.folder) if importer is not None else None,
    )
    # The file that needed the library is a companion's own extension: a release of that
    # companion built for this system and TensorFlow is what links (its own fix).
    owners = (
        origin_of(path).dist
        for hit in hits
        for _, line in hit.citations
        for path in _INSTALLED_PATH.findall(line)
    )
    named = (_library_owner(g["library"]) for h in hits for g in h.groups if g.get("library"))
    owner = next((d for d in (*owners, *named) if d and d not in TF_DISTRIBUTIONS), None)
    major_found = _framework_major(m, r, hits, library, owner) or _tf_own_unfound(
        m, r, hits, library, owner
    )
    if major_found is not None:
        return major_found
    foreign = _conda_build_library(hits, r)
    if owner is None and r.conda and foreign is not None:
        # TensorFlow's pip wheels carry these libraries inside; a conda build links them from
        # the environment, so one from another channel or release breaks it.
        fix = causes.platform.conda_channel_fix(m, foreign)
        return causes.platform.NATIVE_LIBRARY_UNRESOLVED, fix
    if owner is not None:
        lines = [line for h in hits for _, line in h.citations]
        system = next(filter(None, map(_SYSTEM_LIBRARY.search, lines)), None)
        if system is not None:
            # Built for a newer macOS than this one: its release for this TensorFlow may be
            # that very build; a release whose wheel's macOS tag this system meets, or a newer
            # macOS, is what loads.
            fix = Fix(
                f"{owner}'s library links {system.group(1)}, which this macOS does not have: "
                f"the {owner} release installed was built for a newer macOS. Upgrade macOS, or "
                f"install an older {owner} release whose wheel is built for this macOS (the "
                "macosx_X_Y tag of its file name at most this version), with the TensorFlow "
                f"that release declares. Or: {fix.text}",
                ("sw_vers -productVersion", *m.list_releases(owner), *fix.commands),
            )
        else:
            other = causes.software.companion_fix(m, owner)
            fix = Fix(
                f"The library that needs it is {owner}'s own: {other.text} Or: {fix.text}",
                (*other.commands, *fix.commands),
            )
    return causes.platform.NATIVE_LIBRARY_UNRESOLVED, fix


#: glibc's words for a library it could not open, as dlerror() and Python's ImportError print
#: them after the file's name: ENOENT's.
_ENOENT_WORDS = ": cannot open shared object file: No such file or directory"


def _own_library_unopened(hits: Sequence[Hits]) -> Optional[tuple[str, str]]:
    """The installed path and distribution of a package's own compiled library (a ``.so``
    in its site-packages directory, named by its whole path) that glibc reported as not
    there: not a dependency it links, the file itself. None for a bare file name (a library
    the loader searched for), a path outside site-packages, or a distribution the module
    table does not know."""
    for hit in hits:
        for (_, line), groups in zip(hit.citations, hit.groups):
            path = groups.get("library", "")
            if "/" not in path or not path.endswith(".so") or f"{path}{_ENOENT_WORDS}" not in line:
                continue
            top = installed_package(path)
            dist = distribution_of(top) if top else None
            if dist:
                return path, dist
    return None


def _custom_op(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A project's own op that does not compile, link or load against the installed
    TensorFlow: the step the log shows failing says which flags to take from it."""
    ids = {h.signature.id for h in hits}
    cause = causes.software.CUSTOM_OP_BUILD_MISMATCH
    plugin = bool(ids & {"tf-plugin-setup-failed", "tf-plugin-nvcc-failed"})
    if ids & {"custom-op-header-missing", "custom-op-header-error", "custom-op-source-api-error"}:
        return cause, causes.software.custom_op_compile_fix(_group(hits, "header"), plugin)
    if "horovod-extension-crash-frame" in ids:
        return cause, causes.software.horovod_compiler_fix(m, r.tf_version)
    if "op-library-cuda-unfound" in ids:
        library = _group(hits, "library") or ""
        package = installed_package(r.op_loader) if r.op_loader else None
        dist = distribution_of(package) if package else None
        if dist:
            # A published package's ops, built for another CUDA (its release for another
            # TensorFlow): its release for the installed one.
            return causes.software.COMPANION_MISMATCH, causes.software.companion_fix(m, dist)
        return cause, causes.software.custom_op_cuda_unfound_fix(library)
    if "op-library-unbuilt" in ids:
        return cause, causes.software.custom_op_unbuilt_fix(_group(hits, "library"))
    if "op-library-windows-unloaded" in ids:
        return cause, causes.software.custom_op_windows_fix(_group(hits, "library"))
    if "op-library-cuda-runtime-symbol" in ids:
        return cause, causes.software.custom_op_cudart_fix(
            _group(hits, "library"), _group(hits, "symbol") or ""
        )
    if "op-library-own-symbol" in ids:
        return cause, causes.software.custom_op_unlinked_fix(
            _group(hits, "library"), _group(hits, "symbol") or ""
        )
    if "framework-library-not-found-apple-ld" in ids:
        linked = _group(hits, "library")
        return cause, causes.software.custom_op_macos_link_fix(
            m, f"-l{linked}" if linked else None, r.tf_version
        )
    if "framework-library-not-linked" in ids:
        linked = _group(hits, "library")
        return cause, causes.software.custom_op_link_fix(
            m, f"-l{linked}" if linked else None, r.tf_version
        )
    return cause, causes.software.custom_op_compile_fix(None, plugin)


#: The external repository a Bazel crash names ('REPOSITORY_DIRECTORY:@llvm').
_CRASHED_REPOSITORY = re.compile(r"'REPOSITORY\w{0,20}:@{1,2}([\w.+~-]{1,200})")


def _bazel(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # The last release asked for: configure may be run again after a first change.
    found = [
        (g["required"], g.get("direction", "")) for h in hits for g in h.groups if g.get("required")
    ]
    required, direction = found[-1] if found else (None, "")
    # configure.py's words (upgrade, downgrade) and a WORKSPACE check's (at least, at most).
    newer = {"upgrade": True, "least": True, "downgrade": False, "most": False}.get(direction)
    ids = {h.signature.id for h in hits}
    # The flag that sets a removed API back, where an error names one.
    flag = next(
        (
            g["flag"]
            for h in hits
            if h.signature.id == "bazel-incompatible-change-flipped"
            for g in h.groups
            if g.get("flag")
        ),
        "",
    )
    why = ""
    if not required and any(REMOVED_API in h.signature.tags for h in hits):
        newer = False
        said = " ".join(line for h in hits for _, line in h.citations)
        # Bazel's own replacement for the native repository rules it removed.
        load = (
            " Where the WORKSPACE is your own, load the rule instead, as Bazel's message says "
            '(load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive"); git.bzl '
            "for git_repository)."
            if "http_archive" in said or "git_repository" in said
            else ""
        )
        why = (
            "The source's build files use a Starlark API this Bazel release has removed: the "
            "Bazel is newer than the source." + load
        )
    elif not required and "bazel-tools-symbol-missing" in ids:
        why = (
            f"The source loads {_group(hits, 'symbol') or 'a symbol'} from Bazel's own tools "
            "(@bazel_tools), which this Bazel release does not have: the source was written "
            "for another release."
        )
    elif not required and "bazel-rc-option-unrecognized" in ids:
        why = (
            f"This Bazel release does not know --{_group(hits, 'flag')}, a versioned flag the "
            "source's .bazelrc (or the build command a guide gives) passes: they were written "
            "for another release."
        )
    elif not required and "starlark-builtin-keyword-unknown" in ids:
        why = (
            "The source calls a Bazel builtin with an argument this Bazel release does not "
            "take: the source was written for another release."
        )
    elif not required and "bazel-crash-evaluating-repository" in ids:
        said = " ".join(line for h in hits for _, line in h.citations)
        named = _CRASHED_REPOSITORY.search(said)
        repo = named.group(1) if named is not None else ""
        why = (
            f"Bazel crashed (an internal error, a bug of this Bazel release) while it set up "
            f"the source's external repository{' @' + repo if repo else ''}: the release the "
            "source is built and tested with is the one to use."
        )
    return causes.platform.BAZEL_VERSION_MISMATCH, causes.platform.bazel_fix(
        required, newer, why, flag
    )


def _host_compiler(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """nvcc's refusal of the host compiler, fixed from the bound its own line names."""
    line = next((text for h in hits for _, text in h.citations), "")
    return causes.platform.BUILD_HOST_COMPILER_UNSUPPORTED, causes.platform.host_compiler_fix(
        line, r.os
    )


def _static_tls(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    return causes.platform.STATIC_TLS_EXHAUSTED, causes.platform.static_tls_fix(
        _group(hits, "library")
    )


#: The distributions whose refused wheels this cause is about (pip-unsupported-wheel's).
_TF_WHEEL = re.compile(PATTERN_PARTS["{{tf_wheel}}"], re.IGNORECASE)


def _shown_64bit(r: Revealed) -> bool:
    """Whether the interpreter's own words show a 64-bit build: its banner's build string
    (:func:`tfdoctor.evidence.pip.read_python_64bit`), pip's tags or its answer to a width
    query (:attr:`tfdoctor.evidence.interpreter.Interpreter.bits`). A 32-bit cause is ruled
    out there."""
    return r.python_64bit or (r.interpreter is not None and r.interpreter.bits == 64)


def _no_wheel(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # pip's own words say what it could see: reason from them before any general advice.
    lines = [line for h in hits for _, line in h.citations]
    wheel = next((w for w in map(read_wheel_refusal, lines) if w is not None), None)
    # Else a TensorFlow wheel the pip command named (a paste that kept only pip's message).
    wheel = wheel or next((w for w in r.wheel_refusals if _TF_WHEEL.match(w.dist)), None)
    shown = ".".join((r.python or "").split(".")[:2])
    if (
        wheel is not None
        and wheel.platform == "win_amd64"
        and _no_release_at_all(r, hits)
        and (not shown or wheel.python_version == shown)
        # Not where the interpreter's own words (its build string, pip's tags) say 64-bit.
        and not _shown_64bit(r)
    ):
        # pip finds no TensorFlow at all and refuses the 64-bit Windows wheel (the user picks
        # the wheel of their own CPython): the interpreter is 32-bit, which python.org's
        # default Windows download was until 3.9; TensorFlow has only 64-bit wheels.
        return causes.platform.PYTHON_32BIT, causes.platform.python_64bit_fix(m)
    if wheel is not None:
        # A file handed to pip by name or URL: pip did not look for a wheel, it refused this
        # one, built for another interpreter or platform.
        return causes.platform.WHEEL_MISMATCH, causes.platform.wheel_tags_fix(
            m, wheel.file, wheel.python_version, wheel.platform, wheel.abi
        )
    tags = _interpreter_tags(m, r, hits)
    if tags is not None:
        return tags
    hint = next((x for x in r.abi_hints if x.dist in TF_DISTRIBUTIONS), None)
    if hint is not None:
        # uv's hint, on its own line below the refusal, names the interpreter and the Python
        # tags of the release's wheels: a pin of that release, or no release, fits this Python.
        one_release = any(ONE_RELEASE in h.signature.tags for h in hits)
        return (
            causes.platform.TF_RELEASE_NOT_FOR_PYTHON
            if one_release
            else causes.platform.TF_NO_WHEEL_FOR_PYTHON,
            causes.platform.resolver_release_fix(
                hint.dist,
                hint.version,
                hint.python,
                hint.tags,
                (),
                installer_of(hits).interface,
                hint.implementation,
                hint.variant,
            ),
        )
    yanked = _yanked_placeholder(m, r, hits)
    if yanked is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, yanked
    # The resolver's refusals of every release for the interpreter's Python ABI tag (a pin's
    # refusal is one release's).
    abi_words = [
        h for h in hits if ABI_TAG in h.signature.tags and ONE_RELEASE not in h.signature.tags
    ]
    if abi_words and not r.pip_refusals:
        # uv's (or pixi's) words say the wheels' Python ABI tags are what does not match:
        # the interpreter's Python version, not its bitness or platform.
        dist = next((g["dist"] for h in abi_words for g in h.groups if g.get("dist")), "")
        if normalize_name(dist) in TF_DISTRIBUTIONS:
            return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.abi_tag_python_fix(m)
    chosen = _resolver_release(hits, r, m)
    if chosen is not None:
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, chosen
    if (platform := _platform_refusal(r, hits)) is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, platform
    unprefixed = _unprefixed_refusal(m, r, hits)
    if unprefixed is not None:
        return causes.platform.PIP_TOO_OLD, unprefixed
    skipped = _skipped_for_python(m, r)
    if skipped is not None:
        return skipped
    refused = _release_refused(r)
    if refused is not None:
        dist, asked, release = refused
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.platform.release_line_fix(
            m, dist, asked, release
        )
    refusals = [x for x in r.pip_refusals if x.dist in TF_DISTRIBUTIONS]
    jetson = next((x for x in refusals if _NVIDIA_LOCAL.search(x.spec or "")), None)
    if jetson is not None:
        # A +nvYY.MM release is NVIDIA's build for Jetson, only on NVIDIA's index of one
        # JetPack release, which drops old builds: not a Python without wheels.
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.platform.jetson_index_fix(
            normalize_name(jetson.dist), jetson.spec
        )
    wrapper = _refused_wrapper(m, r)
    if wrapper is not None:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, wrapper
    companion = _refused_companion(r, hits)
    if companion is not None:
        return _companion_refused(m, r, hits, companion)
    if not refusals:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.no_wheel_fix(m)
    refusal = refusals[0]
    pinned = requested_version(refusal.spec)
    if (silicon := _apple_silicon_refusal(m, r, refusal)) is not None:
        return silicon
    if (ranged := _range_refusal(m, r, refusal)) is not None:
        return ranged
    if (machine := _machine_refusal(m, r, refusal)) is not None:
        return machine
    if (
        r.pip_version
        and version_key(r.pip_version) < causes.platform.PIP_MANYLINUX2010
        and (pinned is None or version_key(pinned) >= (1, 15))
        and r.os in (None, "linux")
    ):
        # Every Linux wheel of TensorFlow since 1.15 and 2.0 carries the manylinux2010 tag
        # or a newer one: a pip before 19.0 lists none of them (Windows' and macOS' tags it
        # reads; an older release's refusal is about its Pythons).
        return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
            m,
            f"The log shows pip {r.pip_version}, older than 19.0, the first that reads the "
            "platform tags of TensorFlow's wheels since 1.15 and 2.0 (manylinux2010), so pip "
            "lists only older releases, or none.",
            pip=r.pip_version,
        )
    blind = _blind_to_newer_manylinux(m, r, refusal)
    if blind is not None:
        return causes.platform.PIP_TOO_OLD, blind
    if (
        r.pip_version
        and version_key(r.pip_version) < causes.platform.PIP_MACOS11
        and r.os == "macos"
        and not refusal.versions
        and r.python
        and _python_has_macos_wheels(m, r.python)
    ):
        # pip lists no TensorFlow at all for a Python that has macOS wheels, and it is older
        # than the first pip that reads macOS 11's tags: on macOS 11 and later that pip finds
        # no macOS wheel of anything (elsewhere it would list releases for this Python).
        return causes.platform.PIP_TOO_OLD, causes.platform.macos11_pip_fix(
            m, r.pip_version, r.python
        )
    if (
        normalize_name(refusal.dist) == "tensorflow-macos"
        and refusal.shown
        and not refusal.versions
    ):
        # Apple's own build lists no release at all: its wheels' macOS 11 tags are what an
        # interpreter reporting 10.16, or an older pip, does not read (not only the Python).
        pythons = {py for row in releases_of("tensorflow-macos") for py in row.pythons}
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.macos_wrapper_fix(
            m, r.python, r.pip_version, sorted(pythons, key=version_key)
        )
    cause, fix, _ = causes.platform.pip_refusal_fix(
        m,
        refusal.final_versions or refusal.versions,
        requested_version(refusal.spec),
        r.python,
        normalize_name(refusal.dist),
        refusal.shown,
        # TensorFlow's own requirement of a build of it (tensorflow-intel from tensorflow) is
        # its metadata's, not a dependant's pin: pip's reading of its list stands.
        "" if refusal.required_by in TF_DISTRIBUTIONS else refusal.required_by,
        r.python_64bit,
    )
    return cause, fix


def _companion_refused(
    m: Machine, r: Revealed, hits: Sequence[Hits], companion: str
) -> tuple[causes.CauseId, Fix]:
    """Cause and fix where only distributions outside TensorFlow's own were refused: a
    companion's refusal read with the bundled index, any other package's from its words
    (:func:`_package_refused`)."""
    if causes.software.unknown_package(companion) and not _TF_WHEEL.match(
        # TensorFlow's own runtimes and Coral's library, named as its wheels are: companions.
        companion.replace("-", "_")
    ):
        return _package_refused(m, r, hits, companion)
    lines = [line for h in hits for _, line in h.citations]
    refusal_of = next((x for x in r.pip_refusals if normalize_name(x.dist) == companion), None)
    listed = refusal_of.final_versions if refusal_of is not None else ()
    published = _unmatched_published(companion, lines) if refusal_of is None else None
    if published is not None:
        # A range of releases PyPI publishes, and pip (its list not shown) found none of
        # them to install: those releases have no wheel for this Python and platform.
        return (
            causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
            causes.software.companion_no_wheel_fix(m, companion, (), False, published),
        )
    pinned = requested_version(refusal_of.spec) if refusal_of is not None else None
    if (
        pinned is not None
        and refusal_of is not None
        # pip's own list, where it shows releases, is read against the pin below.
        and not refusal_of.versions
        and releases_of(companion)
        # A release newer than the index's newest may have come out after it was generated:
        # the bundled index says nothing of it.
        and version_key(pinned) < version_key(releases_of(companion)[-1].version)
        and not causes.software.releases_published(companion, f"=={pinned}")
    ):
        # A pin of a release PyPI's files never listed, older than the newest they list
        # (tflite-runtime before 2.5 came from Coral's own index,
        # https://google-coral.github.io/py-repo/): pip refuses it for any
        # Python; the pin is what to change.
        return (
            causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
            causes.software.unpublished_release_fix(m, companion, pinned),
        )
    if refusal_of is not None and refusal_of.spec and refusal_of.versions:
        # A release asked for while pip lists others: that release has no wheel here.
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.software.pinned_companion_fix(
            m, companion, refusal_of.spec, refusal_of.versions
        )
    chosen = _chosen_release(hits, companion) if refusal_of is None else None
    if chosen is not None:
        # uv's or Poetry's words name the one release it chose: that release's wheels
        # (no wheel of the companion for this Python and platform, as pip's refusal reads).
        return (
            causes.platform.TF_NO_WHEEL_FOR_PYTHON,
            causes.software.companion_no_wheel_fix(
                m, companion, (), False, f"=={chosen}", installer_of(hits).finder
            ),
        )
    # Without pip's list, the specifier its last line names (a release no index lists).
    said = _unmatched_spec(companion, lines) if refusal_of is None else None
    return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.software.companion_no_wheel_fix(
        m,
        companion,
        listed,
        refusal_of.shown if refusal_of is not None else not said,
        refusal_of.spec if refusal_of is not None else said or "",
        "pip" if refusal_of is not None else installer_of(hits).finder,
        unworded=refusal_of is not None and refusal_of.unworded,
    )


def _package_refused(
    m: Machine, r: Revealed, hits: Sequence[Hits], dist: str
) -> tuple[causes.CauseId, Fix]:
    """Cause and fix where the refused distribution is one nothing bundled describes (an
    application or library around TensorFlow): a pin pip's list leaves out, or the one release
    a resolver chose, is that release's refusal (another release, or a Python it supports);
    no release listed is every release's (a Python or platform its files list)."""
    refusal = next((x for x in r.pip_refusals if normalize_name(x.dist) == dist), None)
    if refusal is not None and refusal.spec and refusal.versions:
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.software.pinned_package_fix(
            m,
            dist,
            refusal.spec,
            requested_version(refusal.spec),
            refusal.final_versions or refusal.versions,
            refusal.required_by,
            stated=_python_stated(r),
        )
    chosen = _chosen_release(hits, dist)
    if refusal is None and chosen is not None:
        # uv's or Poetry's words name the release it chose: that release has no file here (a
        # companion's reads so too: no wheel of the package for this Python and platform).
        hinted = next((x.platforms for x in r.platform_hints if x.dist == dist), ())
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.resolver_release_fix(
            dist, chosen, r.python, (), hinted
        )
    shown = refusal.shown if refusal is not None else False
    spec = refusal.spec if refusal is not None else ""
    lines = [line for h in hits for _, line in h.citations]
    required_by = refusal.required_by if refusal is not None else ""
    return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.software.package_no_wheel_fix(
        m,
        dist,
        spec or (_unmatched_spec(dist, lines) or ""),
        shown,
        required_by,
        # Nothing but pip's empty list: a name PyPI does not have reads the same.
        alone=shown and not required_by and not r.python and not r.os and not r.known(),
        installer="pip" if refusal is not None else installer_of(hits).finder,
        stated=_python_stated(r),
    )


def installer_of(hits: Sequence[Hits]) -> Installer:
    """The installer whose words the refusal is in, and uv's interface (``uv pip``, ``uv``: a
    project), read once from the signatures' tags and the lines they cite
    (:func:`tfdoctor.evidence.installer.read_installer`): every fix builder asks this."""
    return read_installer(
        {t for h in hits for t in h.signature.tags},
        "\n".join(line for h in hits for _, line in h.citations),
    )


def _chosen_release(hits: Sequence[Hits], dist: str) -> Optional[str]:
    """The release of ``dist`` a resolver (uv, Poetry) chose and found no file of, as its
    words name it; None where they name none."""
    return next(
        (
            g["tf_version"]
            for h in hits
            if ONE_RELEASE in h.signature.tags
            for g in h.groups
            if normalize_name(g.get("dist") or "") == dist and g.get("tf_version")
        ),
        None,
    )


def _python_stated(r: Revealed) -> bool:
    """Whether the log states the Python's version (not only implies it by its paths)."""
    return bool(r.python) and all(hint.fact != "python" for hint in r.inferred)


#: pip's refusals of distributions outside TensorFlow's family (signatures.yaml).
_OTHER_REFUSALS = frozenset(
    {"pip-no-version-satisfies-other", "pip-no-matching-distribution-other"}
)
#: pip's refusals of TensorFlow's distributions and companions (signatures.yaml).
_TF_REFUSALS = frozenset({"pip-no-version-satisfies", "pip-no-matching-distribution"})


def _drop_unread_refusals(by_cause: dict[str, list[Hits]], evidence: Evidence) -> None:
    """pip's refusal says no wheel fits only where pip read the index and its releases: not
    after pip retried a broken connection or could not fetch a page of the index (the
    network, a proxy or a certificate, which no network signature may read: what pip saw is
    then unknown, unless it lists releases all the same) or after it read an index of the
    user's own or none (--no-index: what that index or directory holds, a build backend such
    as setuptools left out of it, is not what PyPI's files say of the Python), for
    TensorFlow's distributions and any other; nor, for a distribution outside TensorFlow's
    family, where pip lists no release and says it skipped yanked ones (PEP 592: the project
    withdrew them, no Python or platform changes that; a yanked placeholder of TensorFlow's
    family is _yanked_placeholder's)."""
    hits = by_cause.get(causes.platform.TF_NO_WHEEL_FOR_PYTHON)
    if not hits:
        return
    unreached = [h.first for h in evidence.hits.values() if INDEX_UNREAD in h.signature.tags]
    not_pypi = [h.first for h in evidence.hits.values() if INDEX_NOT_PYPI in h.signature.tags]
    yanked = "pip-yanked-ignored" in evidence.hits and any(
        x.shown and not x.versions for x in evidence.refusals
    )

    read = {normalize_name(x.dist) for x in evidence.refusals}

    def unread(h: Hits) -> bool:
        if h.signature.id == "piptools-no-matching-tf":
            # pip-tools' words with no refusal read from them: requirements that exclude each
            # other (evidence.pip's _clashing), not a release without a wheel here.
            return not any(normalize_name(g.get("dist", "")) in read for g in h.groups)
        # A retry that then got through: pip's list of releases says it read the index.
        listed = any(x.versions for x in read_refusals(line for _, line in h.citations))
        failed = [] if listed else unreached
        before = any(first <= h.first for first in (*failed, *not_pypi))
        if h.signature.id in _TF_REFUSALS and before:
            return True
        return h.signature.id in _OTHER_REFUSALS and (yanked or before)

    kept = [h for h in hits if not unread(h)]
    if kept:
        by_cause[causes.platform.TF_NO_WHEEL_FOR_PYTHON] = kept
    else:
        del by_cause[causes.platform.TF_NO_WHEEL_FOR_PYTHON]


def _apple_silicon_refusal(
    m: Machine, r: Revealed, refusal: PipRefusal
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Cause and fix where pip lists no TensorFlow release (or the log shows no list) on a Mac
    the log shows to be Apple silicon: the matrix's Pythons of the Linux, Windows and Intel Mac
    wheels say nothing there, since the ``tensorflow`` distribution has macOS arm64 wheels only
    from the first line the matrix gives them (2.13); before it, Apple's tensorflow-macos
    (:func:`causes.platform.apple_silicon_fix`). None where pip lists releases (an x86-64
    Python under Rosetta 2 sees the Intel wheels), for a range that admits no such line, or
    on a Mac not shown to be Apple's."""
    if (
        m.matrix is None
        or r.mac is None
        or r.mac.value != APPLE
        or r.os not in (None, "macos")
        or normalize_name(refusal.dist) not in ("tensorflow", "tensorflow-cpu", "tensorflow-gpu")
        or refusal.final_versions
    ):
        return None
    arm64 = sorted(
        (x for x in m.matrix.lines if x.python.get("macos-arm64") and not x.pre_release),
        key=lambda x: version_key(x.line),
    )
    if not arm64:
        return None
    first = arm64[0].line
    asked = requested_version(refusal.spec)
    if asked is None and refusal.spec and not spec_contains(f"{first}.0", refusal.spec):
        return None  # a range of older releases only: _range_refusal reads their Pythons
    pythons = sorted({py for x in arm64 for py in x.python["macos-arm64"]}, key=version_key)
    fix = causes.platform.apple_silicon_fix(m, asked, first, pythons, r.python)
    if fix is None:
        return None
    # pip's empty list of the user's own request says no release at all has a wheel here.
    return (
        causes.platform.TF_NO_WHEEL_FOR_PYTHON
        if refusal.shown and not refusal.required_by
        else causes.platform.TF_RELEASE_NOT_FOR_PYTHON
    ), fix


def _range_refusal(
    m: Machine, r: Revealed, refusal: PipRefusal
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Cause and fix where pip refused a range of old TensorFlow releases, none with a wheel
    for this interpreter: their Pythons (:func:`causes.platform.range_release_fix`). pip's
    empty list of the user's own request says no release at all has one here; a dependant's
    range, or a list of releases outside it, is that range's refusal. None for a pin, or a
    range the log's Python or pip's list does not single out."""
    if requested_version(refusal.spec) is not None or not refusal.spec:
        return None
    ranged = causes.platform.range_release_fix(
        m,
        normalize_name(refusal.dist),
        refusal.spec,
        r.python,
        r.os,
        refusal.final_versions or refusal.versions,
    )
    if ranged is None:
        return None
    no_release = refusal.shown and not refusal.versions and not refusal.required_by
    return (
        causes.platform.TF_NO_WHEEL_FOR_PYTHON
        if no_release
        else causes.platform.TF_RELEASE_NOT_FOR_PYTHON
    ), ranged


#: pip's warning that it installs a yanked pure wheel (signatures.yaml): its version.
_YANKED = "pip-yanked-placeholder-selected"
_YANKED_VERSION = re.compile(r"' candidate \(version (?P<version>[^\s)]{1,40}) at ")


def _yanked_placeholder(m: Machine, r: Revealed, hits: Sequence[Hits]) -> Optional[Fix]:
    """The fix where pip fell back to a yanked pure wheel of a native distribution of
    TensorFlow's family (no other release fits this interpreter); None where the log has no
    such warning, or pip's own refusal, which says more, is there too."""
    if r.pip_refusals:
        return None
    for h in hits:
        if h.signature.id != _YANKED:
            continue
        for groups, (_, line) in zip(h.groups, h.citations):
            found = _YANKED_VERSION.search(line)
            if found is not None:
                dist = normalize_name(groups.get("dist") or "")
                return causes.software.yanked_placeholder_fix(m, dist, found["version"])
    return None


def _drop_pure_yanked(by_cause: dict[str, list[Hits]]) -> None:
    """pip's yanked pure wheel says no release fits only of a distribution whose releases are
    native (the module table's): a pure distribution's yanked release is one a requirement
    pinned, which installs and runs."""
    hits = by_cause.get(causes.platform.TF_NO_WHEEL_FOR_PYTHON)
    if not hits:
        return
    native = modules().native
    kept = [
        h
        for h in hits
        if h.signature.id != _YANKED
        or any(normalize_name(g.get("dist") or "") in native for g in h.groups)
    ]
    if kept:
        by_cause[causes.platform.TF_NO_WHEEL_FOR_PYTHON] = kept
    else:
        del by_cause[causes.platform.TF_NO_WHEEL_FOR_PYTHON]


def _placeholder_imported(
    findings: dict[str, Finding], by_cause: Mapping[str, Sequence[Hits]], evidence: Evidence
) -> Iterable[Finding]:
    """``findings``, where a yanked placeholder pip installed (:func:`_yanked_placeholder`) has
    its module missed by a traceback: the placeholder is why, an error, and "not installed"
    (whose fix installs the same distribution again) is left out."""
    found = findings.get(f"explain.{causes.platform.TF_NO_WHEEL_FOR_PYTHON}")
    if found is None:
        return findings.values()
    dists = {
        normalize_name(g.get("dist") or "")
        for h in by_cause.get(causes.platform.TF_NO_WHEEL_FOR_PYTHON, ())
        if h.signature.id == _YANKED
        for g in h.groups
    }
    table = modules()
    for dist in sorted(dists):
        module = table.module_of(dist) or dist.replace("-", "_")
        if not any(
            tb.message.startswith(f"No module named '{module}") for tb in evidence.tracebacks
        ):
            continue
        missing = findings.get(f"explain.{causes.software.PACKAGE_NOT_INSTALLED}")
        if missing is not None and missing.summary.startswith(f"{dist} (module {module})"):
            del findings[missing.id]
        findings[found.id] = dataclasses.replace(found, severity=Severity.ERROR)
        break
    return findings.values()


def _interpreter_tags(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> Optional[tuple[causes.CauseId, Fix]]:
    """pip saw no TensorFlow release at all, and the interpreter, as `pip debug`'s tags or
    its banner show it, is one TensorFlow publishes no wheel for: a musl one (musllinux:
    Alpine), where a glibc-based system is the fix, not another Python; PyPy or a
    free-threaded CPython, where CPython's default build is. None for any other (a 32-bit
    one is the signature pip-tag-32bit's; for the others the list of releases says more)."""
    if not _no_release_at_all(r, hits):
        return None
    if (r.tags_platform or "").startswith("musllinux_"):
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.musl_fix()
    shown = r.interpreter
    if shown is None:
        return None
    if shown.platform == "win_arm64":
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.windows_arm64_fix(m)
    if shown.answered_bits == 32:
        # The interpreter's own answer that it is 32-bit (a 32-bit tag is pip-tag-32bit's).
        return causes.platform.PYTHON_32BIT, causes.platform.python_64bit_fix(m)
    fix = causes.platform.interpreter_without_wheels_fix(
        m, shown.implementation, shown.free_threaded, shown.python or r.python or ""
    )
    return (causes.platform.TF_NO_WHEEL_FOR_PYTHON, fix) if fix is not None else None


def _unmatched_spec(dist: str, lines: Sequence[str]) -> Optional[str]:
    """The specifier pip's "No matching distribution found" line asks of ``dist``; None for
    any version."""
    return next(
        (u[1] for u in map(read_unmatched, lines) if u is not None and u[0] == dist and u[1]),
        None,
    )


def _unmatched_published(dist: str, lines: Sequence[str]) -> Optional[str]:
    """The specifier pip's "No matching distribution found" line asks of ``dist``, where the
    bundled wheel index lists releases of it that the specifier admits (they exist, with
    wheels for some Pythons and platforms); None otherwise (any version asked, or none
    published: a release that does not exist is another question)."""
    spec = _unmatched_spec(dist, lines)
    if spec is None:
        return None
    return spec if causes.software.releases_published(dist, spec) else None


def _release_not_for_python(
    m: Machine, r: Revealed, hits: Sequence[Hits]
) -> tuple[causes.CauseId, Fix]:
    """A release with no file for this interpreter, as its signatures say: a wheel address
    that answered 404 Not Found (its file name's tags), else conda's channels without a build
    of it (pip's refusals of a release are read in _no_wheel)."""
    lines = [line for h in hits for _, line in h.citations]
    missing = next((w for w in map(read_missing_wheel, lines) if w is not None), None)
    if missing is not None:
        return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.platform.missing_wheel_fix(
            m,
            missing.file,
            normalize_name(missing.dist),
            missing.version,
            missing.python_version,
            missing.platform,
        )
    return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.conda.channel_build_fix(m)


def _either(pythons: Sequence[str]) -> str:
    """``["3.3", "3.4"]`` -> ``3.3 or 3.4``."""
    return ", ".join(pythons[:-1]) + (" or " if len(pythons) > 1 else "") + pythons[-1]


def _linux_pythons(m: Matrix, version: str) -> Optional[set[str]]:
    """The Pythons the Linux x86-64 wheels of the release ``version`` are for (the matrix)."""
    pythons = m.release_pythons(version)
    return set(pythons.get("linux-x86_64", ())) if pythons is not None else None


#: 64-bit Linux architectures TensorFlow publishes no wheel for (its matrix's platforms).
_NO_WHEEL_ARCHS = frozenset({"ppc64le", "s390x"})
#: 64-bit machines uname names that a 32-bit Python seldom runs on (not aarch64: Raspberry Pi
#: OS's 32-bit system runs a 64-bit kernel, which uname reports, under 32-bit programs).
_MACHINES_64BIT = frozenset({"x86_64", *_NO_WHEEL_ARCHS})


def _machine_refusal(
    m: Machine, r: Revealed, refusal: PipRefusal
) -> Optional[tuple[causes.CauseId, Fix]]:
    """Cause and fix where pip lists no TensorFlow at all on a Linux machine the log names
    (uname, platform.platform()) other than x86-64: an architecture with no wheel of any
    release; on aarch64, whose wheels start later (the matrix's linux-aarch64 Pythons), a
    pinned release before them, a Python none of them is for, else a pip before 19.3 shown
    (they are manylinux2014, PEP 599). None elsewhere (32-bit machines are python-32bit's
    signatures')."""
    machine = r.machine
    if (
        machine is None
        or m.matrix is None
        or r.os not in (None, "linux")
        or refusal.versions
        or not refusal.shown
        or normalize_name(refusal.dist) not in _OWN_BUILDS
    ):
        return None
    if machine in _NO_WHEEL_ARCHS:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.arch_without_wheels_fix(
            machine
        )
    if machine != "aarch64":
        return None
    having = [
        x
        for x in sorted(m.matrix.lines, key=lambda x: version_key(x.line))
        if not x.pre_release and x.python.get("linux-aarch64")
    ]
    if not having:
        return None
    pythons = sorted({py for x in having for py in x.python["linux-aarch64"]}, key=version_key)
    asked = requested_version(refusal.spec)
    if asked is not None and version_key(asked)[:2] < having[0].key:
        # A release before the first aarch64 line: no Python changes that.
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.aarch64_release_fix(
            asked, having[0].line, pythons
        )
    minor = ".".join((r.python or "").split(".")[:2])
    if minor and minor not in pythons:
        return causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.aarch64_python_fix(
            r.python or minor, having[0].line, pythons
        )
    if r.pip_version and version_key(r.pip_version) < causes.platform.PIP_MANYLINUX2014:
        return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
            m,
            f"The log shows pip {r.pip_version} on Linux aarch64, where TensorFlow's wheels "
            f"(from {having[0].line}) are tagged manylinux2014, which pip reads only since "
            "19.3: it lists none of them.",
            pip=r.pip_version,
        )
    return None


def _tag_pip(glibc: str) -> tuple[int, ...]:
    """The first pip that reads the manylinux tag of the glibc floor ``glibc``: manylinux2010
    (PEP 571) from 19.0, manylinux2014 (PEP 599) from 19.3, any other manylinux_x_y (PEP 600)
    from 20.3 (pip's release notes, https://pip.pypa.io/en/stable/news/)."""
    return {
        "manylinux2010": causes.platform.PIP_MANYLINUX2010,
        "manylinux2014": causes.platform.PIP_MANYLINUX2014,
    }.get(manylinux_name(version_key(glibc)), causes.platform.PIP_PEP600)


def _blind_to_newer_manylinux(m: Machine, r: Revealed, refusal: PipRefusal) -> Optional[Fix]:
    """pip lists TensorFlow's releases up to the last before the first line whose Linux wheels
    need a newer manylinux tag (the matrix's glibc_min: manylinux2010 from 1.15, manylinux2014
    from 2.9, ...), and none after, while the Python (the log's, else the one every release
    listed has wheels for) has wheels of releases after it: only a pip that does not read the
    newer tag lists so (:func:`_tag_pip`). Past the first tag, whose pips are long gone, the
    list ending there says so only where the log shows such a pip or asks for a release past
    it (else the log may predate that release). None where anything else can explain the
    list."""
    matrix = m.matrix
    listed = refusal.final_versions
    if matrix is None or not listed or r.os not in (None, "linux"):
        return None
    if m.platform is not None and m.platform != "linux-x86_64":
        return None  # manylinux1's last releases are the x86-64 ones; other machines differ
    finals = sorted(
        (x for x in matrix.lines if not x.pre_release), key=lambda x: version_key(x.line)
    )
    newest = max(listed, key=version_key)
    # The first line after the list whose tag is newer than the line before it needs.
    floors = [MANYLINUX1_GLIBC, *(version_key(x.glibc_min or "0") for x in finals)]
    cuts = [
        x
        for x, before in zip(finals, floors)
        if x.glibc_min and version_key(x.glibc_min) > before and x.key > version_key(newest)[:2]
    ]
    if not cuts:
        return None
    cut = cuts[0]
    needs = _tag_pip(cut.glibc_min or "")
    if r.pip_version and version_key(r.pip_version) >= needs:
        return None  # the pip shown reads that tag: its list is about something else
    asked = requested_version(refusal.spec)
    if asked is not None and version_key(asked)[:2] < cut.key:
        return None  # a release pip would read the tags of: its Python is the question
    if needs != causes.platform.PIP_MANYLINUX2010 and not r.pip_version and asked is None:
        return None  # a log older than the cut's release lists the same
    if r.python:
        candidates = {".".join(r.python.split(".")[:2])}
    else:
        # TensorFlow publishes wheels only: each release pip lists has one for this Python.
        known = [p for p in map(functools.partial(_linux_pythons, matrix), listed) if p]
        candidates = set.intersection(*known) if known else set()
    between = [
        set(row.python.get("linux-x86_64", ()))
        for row in matrix.early_releases
        if version_key(newest) < version_key(row.release) and version_key(row.release)[:2] < cut.key
    ] + [
        set(x.python.get("linux-x86_64", ()))
        for x in finals
        if version_key(newest)[:2] < x.key < cut.key
    ]
    if any(candidates & pys for pys in between):
        return None  # a release pip reads the tags of is missing from the list too
    later = {py for x in finals if x.key >= cut.key for py in x.python.get("linux-x86_64", ())} | {
        py
        for row in matrix.early_releases
        if version_key(row.release)[:2] >= cut.key
        for py in row.python.get("linux-x86_64", ())
    }
    supported = sorted(candidates & later, key=version_key)
    if not supported:
        return None
    others = sorted(candidates - later, key=version_key)
    python = (
        f"Python {r.python}"
        if r.python
        else "the Python every release it lists is built for (" + _either(supported) + ")"
    )
    tag = manylinux_name(version_key(cut.glibc_min or ""))
    return causes.platform.pip_upgrade_fix(
        m,
        f"pip lists TensorFlow only up to {newest}: every Linux wheel from {cut.line} on is "
        f"tagged {tag} or newer (the matrix's glibc {cut.glibc_min}), which pip before "
        f"{'.'.join(map(str, needs))} does not read, while "
        f"{python} has wheels of those releases."
        + (
            f" (If this Python is {_either(others)}, which no later release supports, the "
            "Python is what to change instead.)"
            if others
            else ""
        ),
        pip=r.pip_version,
    )


_NO_WHEEL = (causes.platform.TF_NO_WHEEL_FOR_PYTHON, causes.platform.TF_RELEASE_NOT_FOR_PYTHON)
#: A release with NVIDIA's local version label for its Jetson builds (``1.15.5+nv21.7``).
_NVIDIA_LOCAL = re.compile(r"==\s*[\d.]+\+nv\d")


#: The first TensorFlow whose Linux wheels carry only the manylinux2010 tag, which pip reads
#: since 19.0 (https://github.com/tensorflow/tensorflow/releases/tag/v1.15.0).
_MANYLINUX2010_TF = (1, 15)


def _unprefixed(line: str) -> bool:
    """Whether ``line`` is pip's refusal as a pip before 19.1 printed it: 19.1 began prefixing
    its errors with "ERROR: " (https://github.com/pypa/pip/blob/19.1/NEWS.rst, pypa/pip#6298)."""
    said = read_pip_line(line)
    return said is not None and said.kind is PipKind.NO_VERSION and not said.level


def _unprefixed_refusal(m: Machine, r: Revealed, hits: Sequence[Hits]) -> Optional[Fix]:
    """A pip before 19.1 (its refusal printed without ``ERROR:``) refusing a TensorFlow request
    that only releases since 1.15 meet, on Linux or a system not shown, listing none of them
    (or a list cut short): those releases publish manylinux2010 wheels only, which pip reads
    only since 19.0. Where the log shows the Python, a release the request admits must have a
    Linux wheel for it (else the Python, not pip, is the reason)."""
    if (
        m.matrix is None
        or r.os not in (None, "linux")
        # A pip shown as 19.0 or later reads manylinux2010 whatever its words look like.
        or (r.pip_version and version_key(r.pip_version) >= causes.platform.PIP_MANYLINUX2010)
        or not any(_unprefixed(line) for h in hits for _, line in h.citations)
    ):
        return None
    for refusal in r.pip_refusals:
        listed = [version_key(v) for v in refusal.final_versions]
        admitted = [
            line
            for line in m.matrix.lines
            if refusal.spec and spec_contains(line.latest_patch, refusal.spec) is True
        ]
        # The matrix's lines start at 1.15; its early releases before 1.15 have manylinux1
        # wheels, which an old pip reads: a request one of them meets is not pip's to fail.
        early = any(
            version_key(row.release) < _MANYLINUX2010_TF
            and refusal.spec
            and spec_contains(row.release, refusal.spec) is True
            for row in m.matrix.early_releases
        )
        if (
            normalize_name(refusal.dist) in TF_DISTRIBUTIONS
            and admitted
            and not early
            and all(version_key(line.line) >= _MANYLINUX2010_TF for line in admitted)
            and any(line.has_wheels_for(r.python, "linux-") for line in admitted)
            and all(v < _MANYLINUX2010_TF for v in listed)
            # "from versions: none" is another reason's: an old pip lists the older releases.
            and (listed or not refusal.shown)
        ):
            shown = (
                f"lists TensorFlow only up to {max(refusal.final_versions, key=version_key)}"
                if listed
                else "the log cuts its list of releases short"
            )
            return causes.platform.pip_upgrade_fix(
                m,
                "pip printed its refusal without 'ERROR:', as pips before 19.1 do, and "
                f"{shown}: every Linux wheel of the releases asked for ({refusal.spec}) carries "
                "the manylinux2010 tag or a newer one, which pip reads only since 19.0.",
            )
    return _unprefixed_companion_refusal(m, r)


def _unprefixed_companion_refusal(m: Machine, r: Revealed) -> Optional[Fix]:
    """A pip before 19.1 (the caller has read its unprefixed refusal) listing releases of a
    distribution the bundled wheel index describes, none of them one whose Linux wheels the
    index records, while every release the request admits publishes only platform wheels
    with Linux ones among them: a pip that old reads only the manylinux1 tag of a Linux
    wheel (manylinux2010 from 19.0, manylinux2014 from 19.3: pip's release notes), which
    the list (pre-releases or sdists only) shows it skipped. Where the log shows the Python,
    one of those releases must have a Linux wheel for it (else the Python is the reason).
    The fix ranks the two readings the text leaves open: pip first, then the Python."""
    for refusal in r.pip_refusals:
        dist = normalize_name(refusal.dist)
        rows = releases_of(dist)
        if dist in TF_DISTRIBUTIONS or not rows or not refusal.versions:
            continue  # "from versions: none" is another reason's (an index, a Python)
        admitted = [
            row for row in rows if not refusal.spec or spec_contains(row.version, refusal.spec)
        ]
        with_linux = {row.version for row in rows if row.platform_fits("linux")}
        if (
            not admitted
            or any(row.pure or not row.platform_fits("linux") for row in admitted)
            or any(v in with_linux for v in refusal.versions)
            or (r.python and not any(row.python_fits(r.python) for row in admitted))
        ):
            continue
        pythons = sorted(
            {p for row in admitted for p in row.pythons if not p.startswith("py")},
            key=version_key,
        )
        span = python_span(tuple(pythons)) if pythons else "the Pythons they list"
        asked = f" ({refusal.spec})" if refusal.spec else ""
        return causes.platform.pip_upgrade_fix(
            m,
            "pip printed its refusal without 'ERROR:', as pips before 19.1 do, and lists "
            f"{dist} {', '.join(refusal.versions)} only, none of the releases asked for{asked}, "
            f"though each publishes Linux wheels (for {span}): a pip before 19.0 reads only "
            "the manylinux1 tag of a Linux wheel (manylinux2010 from 19.0, manylinux2014 from "
            f"19.3). If the upgraded pip still lists no such release of {dist}, the Python "
            f"is the reason: use one of {span} (`python --version`).",
        )
    return None


def _python_has_macos_wheels(m: Machine, python: str) -> bool:
    """Whether some TensorFlow line publishes macOS wheels for ``python`` (the matrix)."""
    return m.matrix is not None and any(
        line.has_wheels_for(python, "macos-") for line in m.matrix.lines
    )


#: Wrapper distributions users also install by name (https://developer.apple.com/metal/
#: tensorflow-plugin/: `pip install tensorflow-macos` for TensorFlow 2.12 and before).
_INSTALLED_BY_NAME = frozenset({"tensorflow-macos"})


def _refused_wrapper(m: Machine, r: Revealed) -> Optional[Fix]:
    """pip refused a pin of a distribution TensorFlow's ``tensorflow`` wheel requires on one
    platform only (tensorflow-intel on Windows, tensorflow-macos, tensorflow-cpu-aws: the
    matrix's wrappers), where it has no wheel: a requirements file frozen on that platform."""
    if m.matrix is None:
        return None
    platforms = m.matrix.wrapper_platforms()
    for refusal in r.pip_refusals:
        dist = normalize_name(refusal.dist)
        # tensorflow-macos was also Apple silicon's TensorFlow itself (2.5-2.12, installed by
        # name as Apple's Metal plugin guide says): a request for it is no frozen pin.
        keys = () if dist in _INSTALLED_BY_NAME else platforms.get(dist, ())
        # On its own platform the refusal is about the Python or the release, not the pin.
        if keys and not any(r.os is not None and key.startswith(r.os) for key in keys):
            return causes.platform.wrapper_pin_fix(
                dist, keys, refusal.spec or "", system_shown=r.os is not None
            )
    return None


def _refused_companion(r: Revealed, hits: Sequence[Hits]) -> Optional[str]:
    """The companion pip found no wheel of, where only companions were refused (tensorflow-io,
    -text, Addons, tflite-runtime: their releases are not TensorFlow's, and their wheels cover
    other Pythons and platforms); None where a TensorFlow distribution was refused too."""
    named = [normalize_name(g["dist"]) for h in hits for g in h.groups if g.get("dist")]
    refused = [normalize_name(x.dist) for x in r.pip_refusals]
    if any(d in TF_DISTRIBUTIONS for d in (*refused, *named)):
        return None
    return next(iter((*refused, *named)), None)


#: uv's refusal of every release for the interpreter's platform tags (not its Python's).
_UV_PLATFORM_TAG = "uv-no-platform-tag-any-release"
# uv's platform hint under it (uv-distribution-types): "Wheels are available for `X` (v1) on
# the following platform(s): `manylinux_2_17_x86_64`, ..." (its Python hints are evidence:
# evidence.pip's read_abi_hints, read in _no_wheel).
_UV_PLATFORMS = re.compile(r"on the following platforms?: (?P<platforms>[`\w., ]+)")


def _platform_refusal(r: Revealed, hits: Sequence[Hits]) -> Optional[Fix]:
    """The fix where uv's words say no release has a wheel for the interpreter's platform
    tags (the machine or the interpreter's architecture, not its Python version); None
    where they are not in the log, or pip's own refusal, which says more, is there too."""
    words = [h for h in hits if h.signature.id == _UV_PLATFORM_TAG]
    if not words or r.pip_refusals:
        return None
    dist = normalize_name(next((g["dist"] for h in words for g in h.groups if g.get("dist")), ""))
    hint = next((x for x in r.platform_hints if x.dist == dist), None)
    return causes.platform.platform_tag_fix(
        dist, hint.version if hint else None, hint.platforms if hint else ()
    )


def _resolver_release(hits: Sequence[Hits], r: Revealed, m: Machine) -> Optional[Fix]:
    """The fix for a release a resolver chose and found no file of, read with its hint (on
    the refusal's line, else uv's platform hint for that release on a line below it); for
    Poetry, whose words name neither, the matrix's Pythons and platforms of the release."""
    found = [
        (g, line)
        for h in hits
        if ONE_RELEASE in h.signature.tags
        for g, (_, line) in zip(h.groups, h.citations)
    ]
    if not found:
        return None
    groups, line = found[0]
    if normalize_name(groups.get("dist") or "") not in TF_DISTRIBUTIONS or not groups.get(
        "tf_version"
    ):
        # A companion's (tensorflow-text, tensorflow-io-gcs-filesystem): whether any of its
        # releases has a wheel here is the companion's question (_refused_companion).
        return None
    dist, version = normalize_name(groups["dist"]), groups["tf_version"]
    platforms = _UV_PLATFORMS.search(line)
    hinted = next(
        (x.platforms for x in r.platform_hints if x.dist == dist and x.version == version), ()
    )
    # The matrix's Pythons and platforms are those of the tensorflow wheels: not a wrapper's
    # (tensorflow-intel is Windows-only, tensorflow-macos macOS-only) nor another build's.
    line_of = m.matrix.line_for(version) if m.matrix is not None and dist == "tensorflow" else None
    if (
        not platforms
        and not hinted
        and installer_of(hits).finder == "Poetry"
        and line_of is not None
    ):
        return causes.platform.poetry_release_fix(dist, version, line_of)
    return causes.platform.resolver_release_fix(
        dist,
        version,
        None,
        (),
        re.findall(r"[\w.]+", platforms.group("platforms")) if platforms else hinted,
    )


#: TensorFlow's own builds, whose Pythons the matrix knows (the wheels of ``tensorflow``), and
#: its CPU-only build, which no 32-bit interpreter installs either.
_OWN_BUILDS = frozenset({"tensorflow", "tensorflow-gpu", "tensorflow-cpu"})


#: The site-packages of a Python installed under /usr/local: Homebrew's on an Intel Mac as much
#: as one built from source on Linux (Docker's python images), so no system of its own.
_LOCAL_SITE = re.compile(r"/usr/local/lib/python\d\.\d+/site-packages\b")


def _macos_open(r: Revealed, text: str) -> bool:
    """Whether the system may be macOS: the log shows macOS, or no system, or Linux only by
    the path of a Python under /usr/local (:data:`_LOCAL_SITE`)."""
    if r.os in (None, "macos"):
        return True
    if r.os != "linux" or "/usr/local/lib/python" not in text:
        return False
    linux = dict(_OS_TEXT)["linux"]
    stated = [x for x in r.inferred if x.fact == "os"]
    # The path style's own words (_os_of: "/usr/", a quote or parenthesis before it).
    return all(x.because.strip("\"'( ") == "/usr/" for x in stated) and not linux.search(
        _LOCAL_SITE.sub("", text)
    )


def _refusal_candidates(
    findings: Mapping[str, Finding], m: Machine, r: Revealed, text: str = ""
) -> list[Finding]:
    """The other candidates, as warnings after the reading given, where pip's empty list of a
    TensorFlow build (``from versions: none``) leaves open why no release fits. pip lists
    every release with a file for this interpreter whatever the specifier asks
    (package_finder.py's find_all_candidates, which the refusal's "from versions" prints:
    https://github.com/pypa/pip/blob/23.0/src/pip/_internal/resolution/resolvelib/factory.py,
    ``_report_single_requirement_conflict``), so an empty list says no release at all fitted
    when pip ran; what the log does not show is why:

    - a pinned release: no release at all (the interpreter is what to change), or the pinned
      one alone where the log predates the releases built for this Python (the pin is): each
      reading gets the other as its candidate;
    - for a request of any release, the interpreter 32-bit (TensorFlow has only 64-bit wheels),
      where the log shows no system, no Mac (no 32-bit Python runs on a macOS TensorFlow
      supports), no x86-64 machine and no Python, or shows Windows with a Python TensorFlow
      has Windows wheels for (python.org's default Windows installer was 32-bit up to 3.8);
    - pip older than 20.3, shown, on a system that may be macOS (:func:`_macos_open`, in
      ``text``, the log), with a Python TensorFlow has macOS wheels for: on macOS 11 and later
      such a pip reads no macOS wheel."""
    given = {
        x.cause: x
        for x in findings.values()
        if x.cause in _NO_WHEEL and x.severity.rank >= Severity.WARNING.rank
    }
    refusal = next(
        (
            x
            for x in r.pip_refusals
            if normalize_name(x.dist) in _OWN_BUILDS and x.shown and not x.versions
        ),
        None,
    )
    if not given or refusal is None:
        return []
    if _apple_silicon_refusal(m, r, refusal) is not None:
        # On Apple silicon the platform decides, whatever the Python: the other readings'
        # Pythons are those of wheels for other platforms.
        return []
    dist = normalize_name(refusal.dist)
    requested = requested_version(refusal.spec)
    out: list[Finding] = []
    if requested is not None and dist != "tensorflow-cpu":
        release = f"{'TensorFlow' if dist == 'tensorflow' else dist} {requested}"
        if causes.platform.TF_NO_WHEEL_FOR_PYTHON in given:
            cause, fix, _ = causes.platform.pip_refusal_fix(
                m, (), requested, r.python, dist, False, refusal.required_by
            )
            if cause == causes.platform.TF_RELEASE_NOT_FOR_PYTHON:
                out.append(
                    causes.other_candidate(
                        cause,
                        f"{release} alone has no wheel for this Python",
                        "pip's empty list says no TensorFlow release had a wheel for this "
                        "interpreter when it ran; a log older than the releases built for this "
                        f"Python reads the same, and then the pin of {release} is what to move.",
                        fix,
                    )
                )
        elif causes.platform.TF_RELEASE_NOT_FOR_PYTHON in given:
            cause, fix, _ = causes.platform.pip_refusal_fix(m, (), None, r.python, dist)
            if cause == causes.platform.TF_NO_WHEEL_FOR_PYTHON:
                out.append(
                    causes.other_candidate(
                        cause,
                        "no TensorFlow release at all has a wheel for this interpreter",
                        f"pip's empty list names no release at all, not only {release}: where "
                        "this Python, its bitness or the platform has no TensorFlow, another "
                        "release of the package that pins it changes nothing.",
                        fix,
                    )
                )
    windows_python = (
        r.os == "windows"
        and bool(r.python)
        and m.matrix is not None
        and any(line.has_wheels_for(r.python, "windows-") for line in m.matrix.lines)
    )
    if (
        f"explain.{causes.platform.PYTHON_32BIT}" not in findings
        # A request for any release: a pin or a range has its own Pythons to weigh first.
        and not refusal.spec
        and r.mac is None
        and r.os in (None, "windows")
        and (not r.python or windows_python)
        # uname's or platform's word for a 64-bit machine: a 32-bit Python there is rare; and
        # a Mac's paths anywhere in the log (r.os reads the cited lines only).
        and r.machine not in _MACHINES_64BIT
        and not dict(_OS_TEXT)["macos"].search(text)
        # The interpreter's own words that it is 64-bit (its Windows build string, pip's
        # tags) or that its kind is the cause (PyPy, a free-threaded build).
        and not _shown_64bit(r)
        and (
            r.interpreter is None
            or (not r.interpreter.free_threaded and r.interpreter.implementation in ("", "CPython"))
        )
    ):
        wide = causes.platform.python_64bit_fix(m)
        out.append(
            causes.finding(
                f"explain.{causes.platform.PYTHON_32BIT}",
                Severity.WARNING,
                causes.platform.PYTHON_32BIT,
                "Or: a 32-bit Python, for which TensorFlow publishes no wheel (the other "
                "candidate)",
                "pip lists no release for a 32-bit interpreter whatever its version: "
                "TensorFlow's wheels are 64-bit only, and python.org's default Windows "
                "installer was the 32-bit one up to Python 3.8. The first command prints the "
                "interpreter's bits: 32 is this candidate.",
                Fix(wide.text, (causes.common.INTERPRETER_CHECK, *wide.commands)),
            )
        )
    if (
        f"explain.{causes.platform.PIP_TOO_OLD}" not in findings
        and r.pip_version
        and version_key(r.pip_version) < causes.platform.PIP_MACOS11
        and _macos_open(r, text)
        and m.matrix is not None
        and any(line.has_wheels_for(r.python, "macos-") for line in m.matrix.lines)
    ):
        out.append(
            causes.other_candidate(
                causes.platform.PIP_TOO_OLD,
                f"pip {r.pip_version} on macOS 11 or later, which it does not read the wheels of",
                "The log does not show the system. On macOS 11 and later a pip older than "
                "20.3 finds no macOS wheel of any release, so it lists none.",
                causes.platform.macos11_pip_fix(m, r.pip_version, r.python),
            )
        )
    named = _required_by_name(findings, m, r, refusal, text)
    if named is not None:
        out.append(named)
    return out


def _required_by_name(
    findings: Mapping[str, Finding], m: Machine, r: Revealed, refusal: PipRefusal, text: str
) -> Optional[Finding]:
    """pip listing no ``tensorflow`` at all where another distribution requires that name
    ("(from gpflow)"), on a Mac not shown to be an Intel one: until the matrix's first line
    with macOS arm64 wheels of ``tensorflow`` (2.13), TensorFlow on Apple silicon was Apple's
    tensorflow-macos, which provides the module under another distribution name, so a
    library's requirement of ``tensorflow`` fails although TensorFlow may be installed. A
    candidate beside the reading given (the log does not show what is installed); a Python
    shown must be one tensorflow-macos has wheels for."""
    library = normalize_name(refusal.required_by)
    cause = causes.software.TF_DISTRIBUTION_UNRECOGNISED
    if (
        m.matrix is None
        or normalize_name(refusal.dist) != "tensorflow"
        or not library
        or library in TF_DISTRIBUTIONS
        or f"explain.{cause}" in findings
        or (r.mac is not None and r.mac.value == INTEL)
        # An x86-64 Python (Intel, or Rosetta 2) has the tensorflow distribution's own wheels.
        or python_machine(text) == "x86_64"
        or not (r.os == "macos" or dict(_OS_TEXT)["macos"].search(text))
    ):
        return None
    wrapper = releases_of("tensorflow-macos")
    if r.python and not any(row.python_fits(r.python) for row in wrapper):
        return None
    arm64 = sorted(
        (line for line in m.matrix.lines if line.python.get("macos-arm64")),
        key=lambda line: version_key(line.line),
    )
    if not arm64:
        return None
    return causes.finding(
        f"explain.{cause}",
        Severity.WARNING,
        cause,
        f"Or: {library} requires `tensorflow` by name beside Apple's tensorflow-macos (the "
        "other candidate)",
        f"pip found no release of the distribution named tensorflow, which {library} requires, "
        "for this Mac's Python. On Apple silicon, TensorFlow before "
        f"{arm64[0].line} is Apple's tensorflow-macos (the tensorflow distribution has macOS "
        f"arm64 wheels from {arm64[0].line}: the matrix), whose module {library} imports but "
        "whose name its requirement does not match.",
        causes.software.required_by_name_fix(m, library, arm64[0].line),
    )


#: One distribution and its release in a listing ("tensorflow-intel 2.19.0").
_LISTED_RELEASE = re.compile(r"(?P<name>[A-Za-z0-9][\w.-]*) (?P<version>\d[\w.+!-]*)")


def _tf_distributions(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """TensorFlow's own listing of its distributions installed at differing releases: every
    one out, the newest final release back in."""
    listed = _group(hits, "installed") or ""
    seen = {
        normalize_name(x.group("name")): x.group("version")
        for x in _LISTED_RELEASE.finditer(listed)
    }
    return causes.software.TF_MULTIPLE_DISTRIBUTIONS, distributions_fix(
        seen or {m.tf_name or "tensorflow": ""}, m
    )


def _python_32bit(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # The architecture uname or platform printed, where the system itself is 32-bit; uv's
    # words where uv refused the interpreter (its fix is uv's, in the interface that printed
    # them: "You're on Windows" is a project's install, lock/mod.rs).
    installer = installer_of(hits)
    return causes.platform.PYTHON_32BIT, causes.platform.python_64bit_fix(
        m,
        _group(hits, "architecture") or "",
        (installer.interface or "uv pip") if installer.uv else "pip",
    )


def _pip_old(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    shown = f"pip {r.pip_version}" if r.pip_version else "this pip"
    if any(h.signature.id == "pypi-tls-refused" for h in hits):
        return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
            m,
            f"PyPI refused the connection: it accepts TLS 1.2 only (since 2018), which {shown} "
            "or the Python's SSL library under it does not speak, so pip cannot fetch anything.",
            tls=True,
        )
    return causes.platform.PIP_TOO_OLD, causes.platform.pip_upgrade_fix(
        m,
        f"{shown if r.pip_version else 'This pip'} predates Requires-Python (pip 9.0): it "
        "installs releases that no longer support this Python, whose builds then fail.",
        pip=r.pip_version,
    )


def _listed_for(refusal: PythonRefusal, dist: str) -> bool:
    """Whether ``refusal`` is in the list form and of ``dist``: pip's list names no
    distribution (it follows the refusal it belongs to), its verbose lines name each file's."""
    return not refusal.dist and (not refusal.of or refusal.of == normalize_name(dist))


def _skipped_for_python(m: Machine, r: Revealed) -> Optional[tuple[causes.CauseId, Fix]]:
    """pip refused the requested release and said it skipped that release for its
    Requires-Python: the interpreter is outside its range (pip's words, not the matrix's).
    A name asked for alone or with a range, where pip's one refusal follows its list of the
    releases it skipped, is read from the newest of those the range admits: no release at
    all for this Python where pip lists none, else the skipped ones'."""
    for refused in r.pip_refusals:
        asked = requested_version(refused.spec)
        skipped = next(
            (x for x in r.python_refusals if _listed_for(x, refused.dist) and x.version == asked),
            None,
        )
        if asked is not None and skipped is not None:
            return causes.platform.TF_RELEASE_NOT_FOR_PYTHON, causes.platform.python_range_fix(
                m, refused.dist, asked, skipped.spec, r.python, refused.final_versions
            )
    if len(r.pip_refusals) != 1 or requested_version(r.pip_refusals[0].spec) is not None:
        return None  # pip's list follows the refusal it belongs to: one refusal, one list
    refused = r.pip_refusals[0]
    # pip prints "Ignored the following versions that require a different python version"
    # for the requirement it then refuses (resolvelib/factory.py,
    # _report_single_requirement_conflict, from pip 21.2).
    admitted = [
        x
        for x in r.python_refusals
        if _listed_for(x, refused.dist)
        and x.version
        and (not refused.spec or spec_contains(x.version, refused.spec))
    ]
    if not admitted:
        return None
    newest = max(admitted, key=lambda x: version_key(x.version))
    cause = (
        causes.platform.TF_NO_WHEEL_FOR_PYTHON
        if refused.shown and not refused.versions
        else causes.platform.TF_RELEASE_NOT_FOR_PYTHON
    )
    return cause, causes.platform.python_range_fix(
        m, refused.dist, newest.version, newest.spec, r.python, refused.final_versions
    )


def _release_refused(r: Revealed) -> Optional[tuple[str, str, str]]:
    """The pin pip refused while listing another release of its line (tensorflow-text 1.15.1
    for ==1.15.0): its distribution, the release asked for and the one listed. That release,
    not the package or the Python, is what has no wheel here."""
    for refused in r.pip_refusals:
        if refused.required_by and causes.software.unknown_package(normalize_name(refused.dist)):
            # Another package's pin of a package nothing bundled describes: installing the
            # listed release leaves that pin unmet (_package_refused).
            continue
        asked = requested_version(refused.spec)
        release = causes.platform.same_line_release(asked, refused.final_versions)
        if asked is not None and release is not None:
            return refused.dist, asked, release
    return None


def _title(cause: causes.CauseId, r: Revealed) -> str:
    """The catalogue's title of ``cause``, naming the distribution a refused release is of."""
    refused = _release_refused(r)
    if cause == causes.platform.TF_RELEASE_NOT_FOR_PYTHON and refused is not None:
        return causes.platform.release_not_for_python_title(refused[0])
    return causes.CAUSES[cause].title


def _no_release_at_all(r: Revealed, hits: Sequence[Hits]) -> bool:
    """pip saw no release of a TensorFlow distribution at all: a no-match for any version, or
    a refusal whose version list is empty."""
    unpinned = any(
        h.signature.id == "pip-no-matching-distribution" and not g.get("tf_version")
        for h in hits
        for g in h.groups
    )
    listed = [x for x in r.pip_refusals if x.dist in TF_DISTRIBUTIONS]
    return (unpinned and not any(x.versions for x in listed)) or any(
        not x.versions and not x.spec for x in listed
    )


def _api_default(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # TensorFlow 2.11's optimizer, by what the log shows it met: a variable it was not built
    # with, or a device without XLA for its compiled step; TensorFlow 2.4's KerasTensors.
    if any(h.signature.id == "optimizer-unbuilt-variable" for h in hits):
        return causes.code.API_DEFAULT_CHANGED, causes.code.optimizer_build_fix()
    if any(h.signature.id == "keras-tensor-not-dispatched" for h in hits):
        return causes.code.API_DEFAULT_CHANGED, causes.code.keras_tensors_fix(m)
    if any(h.signature.id == "numpy-load-allow-pickle" for h in hits):
        return causes.code.API_DEFAULT_CHANGED, causes.code.numpy_allow_pickle_fix(m)
    named = _rule_named(m, hits)
    if named is not None:
        # keras211-optimizer-lr: scan's rule of that name.
        return named
    return causes.code.API_DEFAULT_CHANGED, causes.xla.pluggable_xla_fix()


#: The collective executor refusing a member of a group (TensorFlow 2.5+ and earlier words).
_GROUP_MISMATCH = ("collective-group-mismatch", "collective-group-mismatch-old")


#: NCCL's warnings that name the transport that failed, by the signature that reads each.
_NCCL_TRANSPORTS = (
    ("nccl-no-socket-interface", "socket"),
    ("nccl-infiniband-failure", "ib"),
    ("nccl-peer-access-unsupported", "p2p"),
)


def _collective(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # A member refused by its group is the workers disagreeing on the group's devices; NCCL's
    # own failures are read from NCCL's log, by the transport its warning names (one only:
    # two transports failing leave the general advice).
    if any(h.signature.id in _GROUP_MISMATCH for h in hits):
        return causes.cluster.CLUSTER_COLLECTIVE_FAILED, causes.cluster.collective_group_fix(m)
    named = {transport for sid, transport in _NCCL_TRANSPORTS if _hit(hits, sid)}
    transport = named.pop() if len(named) == 1 else None
    return causes.cluster.CLUSTER_COLLECTIVE_FAILED, causes.gpu.collective_failed_fix(transport)


#: The signatures of XLA's refusal of an op it has no kernel for, and of a kernel look-up that
#: found kernels of the op but none for the attributes (dtype) it was given.
_XLA_KERNEL_IDS = frozenset({"xla-unsupported-op", "xla-no-kernel-for-op"})
_ATTRS_KERNEL_IDS = frozenset(
    {"no-kernel-for-op-attrs", "no-device-kernel-for-op", "no-device-for-node"}
)


def _nccl_release(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """NCCL's shared-memory registration refused: NCCL 2.4's bug before 2.4.6 where the
    release NCCL printed is one of those; else (another release, or none shown: the same
    include/shm.h line runs up to NCCL 2.11) a collective that failed, read from NCCL's log."""
    if r.nccl_version is None or not causes.gpu.nccl_shm_bug(r.nccl_version):
        return causes.cluster.CLUSTER_COLLECTIVE_FAILED, causes.gpu.collective_failed_fix()
    return causes.gpu.NCCL_RELEASE_BUG, causes.gpu.nccl_shm_release_fix(r.nccl_version, r.nccl_cuda)


def _op_kernel(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """An op without a kernel: XLA's, one for the dtype given, or one on the GPU it was put on
    (the first hit's kind: the line the log shows first; a kernel of the op that refused the
    attributes on a device of the process makes it the dtype's, whatever the line); an
    add-on's op, whose library registers it, is that library's to load."""
    first = hits[0].signature.id if hits else ""
    kind = "xla" if first in _XLA_KERNEL_IDS else "attrs" if first in _ATTRS_KERNEL_IDS else ""
    if kind != "xla" and r.kernel_refused_attrs:
        kind = "refused"
    op = _group(hits, "op")
    if kind == "attrs" and op is not None and modules().op_library(op) is not None:
        # An add-on's op (the module table names whose) with no kernel at all: its library
        # is not loaded whole in this process, or is of another release; not a dtype.
        return causes.software.OP_NOT_REGISTERED, causes.software.op_not_registered_fix(m, op)
    return causes.runtime.OP_KERNEL_MISSING, causes.runtime.op_kernel_fix(op, kind)


def _library_pin(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    # Numba's own import check names the NumPy bound it was built for; pip's words are read in
    # explain.packages; without either, the generic fix.
    numba = next((h for h in hits if h.signature.id == "numba-numpy-range"), None)
    bound = _group([numba], "numpy_version") if numba is not None else None
    if numba is not None and bound is not None:
        upper = any("or less" in line for _, line in numba.citations)
        return causes.software.LIBRARY_PIN_CONFLICTS, causes.software.numba_numpy_fix(
            m, bound, upper
        )
    return causes.software.LIBRARY_PIN_CONFLICTS, causes.software.library_pin_fix(m)


#: The placeholder a converter writes in the old one-byte opcode field for every builtin
#: numbered past 127 (tensorflow/lite/schema/schema.fbs, PLACEHOLDER_FOR_GREATER_OP_CODES;
#: the real code sits in the int32 builtin_code field a runtime of its time does not read):
#: an operator newer than the runtime, whatever version follows it.
_GREATER_OP_CODES = "PLACEHOLDER_FOR_GREATER_OP_CODES"
#: The TFLite op resolver's words for an operator's first version, which every runtime that has
#: the operator knows (lite/core/api/op_resolver.cc); not the placeholder.
_FIRST_OP_VERSION = re.compile(
    rf"Didn't find op for builtin opcode '(?!{_GREATER_OP_CODES}')\w+' version '1'"
)
#: TOCO's words where Select TensorFlow ops were allowed and an op is no TensorFlow op either
#: (tensorflow/lite/toco/tflite/export.cc).
_TOCO_UNRECOGNIZED = "and are not recognized by TensorFlow"
#: The TFLite converters refusing an op they have no builtin for: MLIR's, and TOCO's before it.
_CONVERTER_REFUSALS = frozenset({"tflite-converter-op-unsupported", "toco-op-unsupported"})


def _op_unregistered(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    if any(h.signature.id == "tflite-flex-delegate-missing" for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_flex_fix(m)
    if any(
        h.signature.id == "toco-op-unsupported" and _TOCO_UNRECOGNIZED in line
        for h in hits
        for _, line in h.citations
    ):
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_unknown_op_fix(
            _group(hits, "op")
        )
    if any(h.signature.id in _CONVERTER_REFUSALS for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_select_ops_fix(
            _group(hits, "op")
        )
    custom = next((h for h in hits if h.signature.id == "tflite-unresolved-custom-op"), None)
    if custom is not None:
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_custom_op_fix(
            m, _group([custom], "op")
        )
    if (
        any(h.signature.id == "tflite-micro-registration-missing" for h in hits)
        and _group(hits, "op") != _GREATER_OP_CODES
    ) or any(_FIRST_OP_VERSION.search(line) for h in hits for _, line in h.citations):
        # Version 1 is every builtin's first: no converter newer than the runtime wrote it,
        # the resolver the program built lacks the operator.
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_resolver_fix(
            _group(hits, "op")
        )
    if all(TFLITE_WORDS in h.signature.tags for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.tflite_runtime_fix()
    op = _group(hits, "op")
    if any(h.signature.id == "graph-attr-not-in-op" for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.graph_from_other_tf_fix(m, op)
    if any(h.signature.id == "graph-inputs-not-in-op" for h in hits):
        return causes.software.OP_NOT_REGISTERED, causes.software.graph_from_other_tf_fix(
            m, op, inputs=True
        )
    return causes.software.OP_NOT_REGISTERED, causes.software.op_not_registered_fix(
        m, op, _op_host(hits)
    )


#: TensorFlow Serving's own words and paths (its loader's "Loading servable", the
#: tensorflow_serving/ sources it logs from).
_SERVING_WORDS = re.compile(r"tensorflow_serving/|Loading servable|servable version \{")
#: TensorFlow Java's exceptions (org.tensorflow.TensorFlowException, and the newer
#: org.tensorflow.exceptions.TFNotFoundException).
_JAVA_WORDS = re.compile(r"\borg\.tensorflow\.(?:exceptions\.)?\w*Exception\b")


def _op_host(hits: Sequence[Hits]) -> str:
    """The process an unregistered op was asked of, where its cited line shows one no Python
    import reaches: TensorFlow Serving's model server, TensorFlow Java; "" otherwise."""
    lines = [line for h in hits for _, line in h.citations]
    if any(map(_SERVING_WORDS.search, lines)):
        return causes.software.SERVING_HOST
    if any(map(_JAVA_WORDS.search, lines)):
        return causes.software.NATIVE_HOST
    return ""


#: The Python release a distribution's package or path names (python3.8-venv,
#: /usr/lib/python3.8/distutils/).
_DISTRO_PYTHON = re.compile(r"python3\.(?P<minor>\d+)(?:-venv\b|/)")


def _distro_part(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """Which part of the distribution's Python is missing (its signature says), with the
    release its own lines name, else the log's Python."""
    ids = {h.signature.id for h in hits}
    if ids <= {"ensurepip-disabled-debian", "venv-package-named"}:
        # The system Python's ensurepip refused by Debian's patch: no package lifts it.
        return causes.platform.DISTRO_PYTHON_PART_MISSING, causes.platform.system_pip_fix()
    part = (
        "tkinter"
        if "tkinter-missing" in ids
        else "distutils"
        if "distutils-stub-debian" in ids
        else "ensurepip"
    )
    named = [
        f"3.{match.group('minor')}"
        for h in hits
        for _, line in h.citations
        for match in [_DISTRO_PYTHON.search(line)]
        if match is not None
    ]
    python = named[0] if named else (m.python_version or "")
    return causes.platform.DISTRO_PYTHON_PART_MISSING, causes.platform.distro_part_fix(part, python)


def _numpy_abi(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """An extension built for NumPy 1 under NumPy 2: the package whose extension it is, where
    the traceback's frames name it, beside TensorFlow's own range."""
    package = r.numpy_extension
    return causes.software.NUMPY_ABI, causes.software.numpy_abi_fix(
        m, package.module if package else "", package.dist if package else ""
    )


def _kernel_package(hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """The kernel's interpreter lacks the package that starts a kernel: Spyder's own
    spyder-kernels where its words show it, else ipykernel; the interpreter and the releases
    asked for where the lines name them."""
    spyder = any(h.signature.id == "spyder-kernels-missing" for h in hits)
    return causes.notebook.KERNEL_PACKAGE_MISSING, causes.notebook.kernel_package_fix(
        "spyder-kernels" if spyder else "ipykernel",
        _group(hits, "interpreter"),
        _group(hits, "spec"),
    )


def _added_row(cause: causes.CauseId, build: Callable[[Machine, str], Fix]) -> Builder:
    """A builder for the signatures the module table's ``added_to_distribution`` keys: the fix
    names the release of the row of the signature that hit."""

    def builder(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
        table = modules().added_to_dist
        signature = next(h.signature.id for h in hits if h.signature.id in table)
        return cause, build(m, signature)

    return builder


def _simple(cause: causes.CauseId, build: Callable[[Machine], Fix]) -> Builder:
    def builder(m: Machine, r: Revealed, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
        return cause, build(m)

    return builder


#: Causes whose fix needs the machine alone: cause -> the catalogue's fix builder.
_SIMPLE: dict[causes.CauseId, Callable[[Machine], Fix]] = {
    causes.software.TF_KERAS_MISSING: causes.software.tf_keras_missing_fix,
    causes.software.TF_PIN_CONFLICTS_WITH_PACKAGE: causes.software.tf_pin_conflict_fix,
    causes.software.NUMBA_LLVMLITE_MISMATCH: causes.software.numba_llvmlite_fix,
    causes.software.IMPORT_HANG: causes.software.import_hang_fix,
    # Transformers is the library whose words name this cause (_unrecognised_distribution,
    # which also knows the distribution the log lists).
    causes.software.TF_DISTRIBUTION_UNRECOGNISED: lambda m: (
        causes.software.unrecognised_distribution_fix(m, "transformers", None)
    ),
    causes.software.TF_GPU_PACKAGE_REMOVED: causes.software.tensorflow_gpu_removed_fix,
    causes.platform.METAL_NO_WHEEL_FOR_PYTHON: causes.platform.metal_python_fix,
    causes.gpu.CUINIT_UNKNOWN_ERROR: causes.gpu.cuinit_unknown_fix,
    causes.gpu.FABRIC_MANAGER_NOT_RUNNING: causes.gpu.fabric_manager_fix,
    causes.gpu.LIBCUDA_STUB: causes.gpu.libcuda_stub_fix,
    causes.xla.LIBDEVICE_MISSING: causes.xla.libdevice_fix,
    causes.xla.PTXAS_MISSING: causes.xla.ptxas_install_fix,
    causes.runtime.THREADS_EXHAUSTED: causes.runtime.thread_limit_fix,
    causes.hosted.HOSTED_TF_LINE_DROPPED: causes.hosted.hosted_tf1_dropped_fix,
    causes.gpu.GPU_MEMORY_ERRORS: lambda m: causes.gpu.gpu_memory_errors_fix(0),
    causes.platform.EXTERNALLY_MANAGED: lambda m: causes.platform.venv_fix(),
    causes.platform.WINDOWS_LONG_PATHS: lambda m: causes.platform.long_paths_fix(),
    causes.platform.WINDOWS_NATIVE_GPU_ENDED: causes.platform.windows_gpu_fix,
    causes.runtime.GPU_BUSY_OR_UNAVAILABLE: causes.runtime.gpu_busy_fix,
    causes.runtime.GPU_WATCHDOG_TIMEOUT: causes.runtime.gpu_watchdog_fix,
    causes.runtime.GPU_CONFIG_TOO_LATE: causes.runtime.config_order_fix,
    causes.runtime.TF_RELEASE_KERNEL_BUG: causes.runtime.onednn_kernel_fix,
    # WSL 2's words only where the log shows WSL: NVML's refusal alone is a Hyper-V guest's
    # or a container's too (the other signatures of the cause read WSL's own paths or need
    # it shown).
    causes.software.TF_SHADOWED_MODULE: lambda m: causes.software.source_tree_fix(),
    causes.runtime.GPU_MEMORY_GROWTH_MIXED: lambda m: causes.runtime.memory_growth_all_fix(),
    causes.runtime.DISTRIBUTE_CONFIG_TOO_LATE: lambda m: causes.runtime.strategy_order_fix(),
    causes.runtime.STRATEGY_SCOPE_MISSING: lambda m: causes.runtime.strategy_scope_fix(),
    causes.cluster.CLUSTER_WORKER_FAILED: lambda m: causes.cluster.peer_failed_fix(),
    causes.cluster.CLUSTER_PORT_IN_USE: lambda m: causes.cluster.port_in_use_fix(),
    causes.container.NCCL_SHM_TOO_SMALL: lambda m: causes.container.nccl_shm_fix(),
    causes.platform.TF_EXPORTED_SYMBOL_CLASH: lambda m: causes.platform.hwloc_preload_fix(),
    causes.cluster.MPI_INTERFACE_UNPINNED: lambda m: causes.cluster.mpi_interfaces_fix(),
    causes.cluster.TF_CONFIG_INVALID_JSON: lambda m: causes.cluster.tf_config_json_fix(),
    causes.cluster.TF_CONFIG_TASK_INVALID: lambda m: causes.cluster.task_fix(),
    causes.cluster.TF_CONFIG_TASK_OUT_OF_RANGE: lambda m: causes.cluster.task_fix(),
    causes.cluster.TF_CONFIG_MASTER_TASK: lambda m: causes.cluster.master_task_fix(),
    causes.cluster.TF_CONFIG_UNKNOWN_JOB: lambda m: causes.cluster.unknown_job_fix(),
    causes.cluster.TF_CONFIG_ADDRESS_SCHEME: lambda m: causes.cluster.address_scheme_fix(),
    causes.cluster.DATASET_AUTOSHARD_MISMATCH: lambda m: causes.cluster.autoshard_fix(),
    causes.software.TENSORBOARD_NOT_INSTALLED: causes.software.tensorboard_fix,
    causes.software.DEPENDENCY_API_REMOVED: causes.software.pkg_resources_fix,
    causes.gpu.GPU_UNSEEN_NO_REASON: lambda m: causes.gpu.read_device_log_fix(),
    # Colab words it "runtime"; its menu is Runtime > Restart session.
    causes.notebook.KERNEL_RESTART_NEEDED: lambda m: causes.notebook.restart_fix(
        "Runtime > Restart session in Colab"
    ),
    causes.platform.PINNED_SDIST_UNBUILDABLE: causes.platform.old_sdist_build_fix,
    causes.platform.DEPENDENCY_SDIST_BUILD_FAILS: causes.platform.replaced_dependency_fix,
    causes.code.NUMPY2_BEHAVIOUR_CHANGE: causes.code.numpy2_copy_fix,
}

#: Cause -> the catalogue's fix builder, applied to the machine the log (and facts) show.
BUILDERS: dict[str, Builder] = {
    causes.software.DISTUTILS_PACKAGE_UNREMOVABLE: lambda m, r, hits: (
        causes.software.DISTUTILS_PACKAGE_UNREMOVABLE,
        causes.software.unremovable_dependency_fix(
            m, _group(hits, "dist"), _group(hits, "installer")
        ),
    ),
    causes.runtime.IMPORT_ORDER_CONFLICT: lambda m, r, hits: (
        causes.runtime.IMPORT_ORDER_CONFLICT,
        causes.runtime.import_order_fix(r.imported_before),
    ),
    causes.notebook.KERNEL_PACKAGE_MISSING: lambda m, r, hits: _kernel_package(hits),
    # pip of the interpreter the shell ran (python3 where plain python is another or none).
    causes.software.TF_NOT_INSTALLED: lambda m, r, hits: (
        causes.software.TF_NOT_INSTALLED,
        causes.software.tensorflow_install_fix(m, r.python_command or "python"),
    ),
    causes.platform.PYENV_VERSION_UNAVAILABLE: lambda m, r, hits: (
        causes.platform.PYENV_VERSION_UNAVAILABLE,
        causes.platform.pyenv_fix(
            _group(hits, "pyenv_version"), _group(hits, "pyenv_origin"), _group(hits, "command")
        ),
    ),
    causes.platform.VENV_BASE_PYTHON_MISSING: lambda m, r, hits: (
        causes.platform.VENV_BASE_PYTHON_MISSING,
        causes.platform.venv_base_fix(_group(hits, "interpreter"), m.os == "windows"),
    ),
    causes.platform.PYTHON_COMMAND_MISSING: lambda m, r, hits: (
        causes.platform.PYTHON_COMMAND_MISSING,
        causes.platform.python_command_fix(_group(hits, "command")),
    ),
    causes.conda.CONDA_ENV_NOT_FOUND: lambda m, r, hits: (
        causes.conda.CONDA_ENV_NOT_FOUND,
        causes.conda.conda_env_missing_fix(_group(hits, "conda_env")),
    ),
    causes.conda.PIXI_PLATFORM_NOT_CONFIGURED: lambda m, r, hits: (
        causes.conda.PIXI_PLATFORM_NOT_CONFIGURED,
        causes.conda.pixi_platform_fix(_group(hits, "conda_platform")),
    ),
    causes.conda.CONDA_SHELL_NOT_INITIALISED: lambda m, r, hits: (
        causes.conda.CONDA_SHELL_NOT_INITIALISED,
        causes.conda.conda_shell_fix(_group(hits, "command") or "conda", r.os),
    ),
    causes.hosted.PLATFORM_IMAGE_UNAVAILABLE: _platform_image,
    causes.platform.CI_PYTHON_VERSION_UNAVAILABLE: lambda m, r, hits: (
        causes.platform.CI_PYTHON_VERSION_UNAVAILABLE,
        causes.platform.ci_python_fix(_group(hits, "ci_python")),
    ),
    # Only a signature names this cause (the tracebacks' own reading builds its finding
    # itself): a stale file of another release, whose directory pip's uninstall leaves.
    causes.software.TF_INSTALL_INCOMPLETE: _tf_incomplete,
    causes.runtime.TF_ENV_FLAG_INVALID: lambda m, r, hits: (
        causes.runtime.TF_ENV_FLAG_INVALID,
        causes.runtime.malloc_async_fix(m)
        if any(h.signature.id == "cuda-malloc-async-unsupported" for h in hits)
        else causes.runtime.env_flag_fix(
            m, _group(hits, "variable") or "", _group(hits, "flag") or ""
        ),
    ),
    causes.network.PYTHON_CA_CERTS_MISSING: _ca_certs,
    causes.network.DOWNLOAD_HOST_CERT_UNVERIFIABLE: _host_cert,
    causes.network.NO_NETWORK_ACCESS: _download_network,
    causes.network.PROXY_NOT_CONFIGURED: _download_network,
    causes.network.DOWNLOAD_HOST_UNREACHABLE: _download_network,
    causes.gpu.CUDA_LIBS_MISSING: _cuda_libs,
    causes.gpu.CUDA_LIBS_OFF_PATH: _off_path,
    causes.software.TENSORBOARD_DUPLICATE_INSTALL: _tensorboard_duplicate,
    causes.gpu.CUDNN_VERSION_MISMATCH: _cudnn,
    causes.gpu.GPU_ARCH_UNSUPPORTED: _arch,
    causes.gpu.GPU_PTX_JIT: _ptx_jit,
    causes.platform.GLIBC_TOO_OLD: _glibc,
    causes.software.TF_METADATA_UNSATISFIABLE: _metadata_unsatisfiable,
    causes.software.PINNED_RELEASE_NOT_PUBLISHED: _unpublished_pin,
    causes.software.FREEZER_TF_SUPPORT_OUTDATED: lambda m, r, hits: (
        causes.software.FREEZER_TF_SUPPORT_OUTDATED,
        causes.software.freezer_fix(
            m,
            "nuitka" if any(NUITKA_WORDS in h.signature.tags for h in hits) else "pyinstaller",
        ),
    ),
    causes.runtime.TENSOR_FROM_OTHER_GRAPH: lambda m, r, hits: (
        causes.runtime.TENSOR_FROM_OTHER_GRAPH,
        causes.runtime.other_graph_fix(),
    ),
    causes.runtime.SERVER_CONCURRENCY_MODEL_MISMATCH: lambda m, r, hits: (
        causes.runtime.SERVER_CONCURRENCY_MODEL_MISMATCH,
        causes.runtime.server_concurrency_fix(
            any(h.signature.id == "gevent-thread-local-weakref" for h in hits),
            tf1=m.tf is not None and version_key(m.tf.version)[:1] == (1,),
        ),
    ),
    causes.gpu.TF_BUILD_WITHOUT_TENSORRT: _no_tensorrt,
    causes.runtime.SERVING_MODEL_VERSION_MISSING: lambda m, r, hits: (
        causes.runtime.SERVING_MODEL_VERSION_MISSING,
        causes.runtime.serving_version_fix(_group(hits, "servable"), _group(hits, "base_path")),
    ),
    causes.software.EDGETPU_DEVICE_UNAVAILABLE: lambda m, r, hits: (
        causes.software.EDGETPU_DEVICE_UNAVAILABLE,
        causes.software.edgetpu_device_fix(_group(hits, "library"), _in_container(m, r)),
    ),
    causes.platform.MACOS_TOO_OLD: _macos,
    causes.platform.LIBSTDCXX_TOO_OLD: _libstdcxx,
    causes.software.KERAS_VERSION: _keras,
    causes.code.API_MOVED_TO_COMPAT_V1: _graph_code,
    causes.gpu.DRIVER_LIBRARIES_MISSING: _driver_libraries,
    causes.gpu.GPU_TOO_FEW_CORES: _few_cores,
    causes.gpu.CUDA_LIB_SHADOWED: _shadowed,
    causes.platform.SHELL_GLOB_EXTRA: _glob_extra,
    causes.software.MODEL_FROM_NEWER_KERAS: _newer_model,
    causes.software.GRAPH_FROM_OLDER_TENSORFLOW: _graph_older,
    causes.software.HDF5_LIBRARY_MISMATCH: lambda m, r, hits: (
        causes.software.HDF5_LIBRARY_MISMATCH,
        causes.software.hdf5_mismatch_fix(m, _group(hits, "required"), _group(hits, "loaded")),
    ),
    causes.software.MODEL_FILE_LFS_POINTER: lambda m, r, hits: (
        causes.software.MODEL_FILE_LFS_POINTER,
        causes.software.lfs_pointer_fix(),
    ),
    causes.software.HUB_CACHE_INCOMPLETE: lambda m, r, hits: (
        causes.software.HUB_CACHE_INCOMPLETE,
        causes.software.hub_cache_fix(m, _group(hits, "cache_dir")),
    ),
    causes.software.HUB_MODEL_FORMAT_MISMATCH: lambda m, r, hits: (
        causes.software.HUB_MODEL_FORMAT_MISMATCH,
        causes.software.hub_format_fix(
            any(h.signature.id == "hub-tf1-format-not-trainable" for h in hits)
        ),
    ),
    causes.cluster.CLUSTER_TASK_UNREACHABLE: _cluster_unreachable,
    causes.software.HOROVOD_CONTROLLER_MISSING: lambda m, r, hits: (
        causes.software.HOROVOD_CONTROLLER_MISSING,
        causes.software.horovod_controller_fix(
            m,
            "MPI"
            if _hit(hits, "horovod-mpi-not-built")
            else "Gloo"
            if _hit(hits, "horovod-gloo-not-built")
            else None,
            mpi_absent=_hit(hits, "horovodrun-mpi-not-found"),
        ),
    ),
    causes.cluster.TF_CONFIG_UNRESOLVABLE: lambda m, r, hits: (
        causes.cluster.TF_CONFIG_UNRESOLVABLE,
        causes.cluster.unresolved_host_fix(_group(hits, "host")),
    ),
    causes.cluster.FLEET_FACT_DIFFERS: _fleet_differs,
    causes.platform.WSL_DRIVER_BROKEN: _wsl_driver,
    causes.cluster.TF_CONFIG_MULTIPLE_CHIEFS: lambda m, r, hits: (
        causes.cluster.TF_CONFIG_MULTIPLE_CHIEFS,
        causes.cluster.one_task_fix(_group(hits, "job")),
    ),
    causes.software.DEPENDENCY_MISSING: _dependency_missing,
    causes.platform.WHEEL_MISMATCH: _wrong_arch,
    causes.hosted.TPU_TF_WITHOUT_LIBTPU: _tpu_build,
    causes.hosted.TPU_NOT_FOUND: _tpu_not_found,
    causes.hosted.TPU_VERSION_MISMATCH: _tpu_version,
    causes.software.DEPENDENCY_OUT_OF_RANGE: _dependency,
    causes.code.KERAS3_BEHAVIOUR_CHANGE: _keras3,
    causes.software.KERAS3_MODEL_UNDER_KERAS2: _keras3_model,
    causes.gpu.DRIVER_NOT_LOADED: _driver_not_loaded,
    causes.software.PROTOBUF_INCOMPATIBLE: _protobuf,
    causes.platform.TF_NO_WHEEL_FOR_PYTHON: _no_wheel,
    causes.platform.PIP_TOO_OLD: _pip_old,
    causes.platform.PYTHON_32BIT: _python_32bit,
    causes.gpu.ROCM_VERSION_MISMATCH: lambda m, r, hits: (
        causes.gpu.ROCM_VERSION_MISMATCH,
        causes.gpu.rocm_match_fix(m, _group(hits, "library")),
    ),
    causes.code.API_DEFAULT_CHANGED: _api_default,
    causes.platform.CPU_LACKS_AVX: _cpu_avx,
    causes.platform.MSVC_RUNTIME_MISSING: _msvc_runtime,
    causes.platform.BAZEL_VERSION_MISMATCH: _bazel,
    causes.platform.BUILD_HOST_COMPILER_UNSUPPORTED: _host_compiler,
    causes.platform.BUILD_CUDA_CONFIG_NOT_FOUND: lambda m, r, hits: (
        causes.platform.BUILD_CUDA_CONFIG_NOT_FOUND,
        causes.platform.cuda_config_fix(
            _group(hits, "header") or "", _group(hits, "required") or "", r.os
        )
        if _group(hits, "header")
        else causes.platform.cuda_config_split_fix(),
    ),
    causes.platform.BUILD_PYTHON_HEADERS_MISSING: lambda m, r, h: (
        causes.platform.BUILD_PYTHON_HEADERS_MISSING,
        causes.platform.python_headers_fix(m),
    ),
    causes.platform.CPU_EMULATED: _cpu_avx,
    causes.runtime.OPEN_FILES_LIMIT_REACHED: lambda m, r, hits: (
        causes.runtime.OPEN_FILES_LIMIT_REACHED,
        causes.runtime.open_files_fix(),
    ),
    causes.runtime.HDF5_FILE_LOCK_FAILED: lambda m, r, hits: (
        causes.runtime.HDF5_FILE_LOCK_FAILED,
        causes.runtime.hdf5_lock_fix(m, any(h.signature.id == "hdf5-lock-held" for h in hits)),
    ),
    causes.runtime.SPAWN_MAIN_UNGUARDED: lambda m, r, hits: (
        causes.runtime.SPAWN_MAIN_UNGUARDED,
        causes.runtime.spawn_guard_fix(),
    ),
    causes.runtime.TF_INITIALISED_BEFORE_FORK: lambda m, r, hits: (
        causes.runtime.TF_INITIALISED_BEFORE_FORK,
        causes.runtime.fork_after_init_fix(),
    ),
    causes.platform.DISTRO_PYTHON_PART_MISSING: _distro_part,
    # A container's groups are set by its runtime: usermod inside it changes nothing.
    causes.gpu.DRIVER_NO_PERMISSION: lambda m, r, hits: (
        causes.gpu.DRIVER_NO_PERMISSION,
        causes.gpu.rocm_no_permission_fix(
            _in_container(m, r)
            or any(h.signature.id == "rocm-kfd-not-member-of-nogroup" for h in hits)
        )
        if all(KFD_NODE in h.signature.tags for h in hits)
        else causes.gpu.no_permission_fix(_in_container(m, r)),
    ),
    causes.gpu.ROCM_LIBS_OFF_PATH: lambda m, r, hits: (
        causes.gpu.ROCM_LIBS_OFF_PATH,
        causes.gpu.rocm_libs_off_path_fix(
            _group(hits, "library"),
            build=any(h.signature.id == "rocm-configure-library-not-found" for h in hits),
        ),
    ),
    causes.runtime.DISK_SPACE_EXHAUSTED: lambda m, r, hits: (
        causes.runtime.DISK_SPACE_EXHAUSTED,
        causes.runtime.disk_space_fix(m, r.os, docker=bool(r.container_tool or r.cuda_image)),
    ),
    causes.platform.TF_RELEASE_NOT_FOR_PYTHON: _release_not_for_python,
    causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE: lambda m, r, hits: (
        causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE,
        causes.platform.typing_python_fix(r.python),
    ),
    causes.software.PROTOC_TOO_OLD: lambda m, r, hits: (
        causes.software.PROTOC_TOO_OLD,
        causes.software.protoc_upgrade_fix(
            optional=any(PROTO3_OPTIONAL in h.signature.tags for h in hits),
            label_asked=any(h.signature.id == "protoc-label-expected" for h in hits),
            os=r.os,
        ),
    ),
    causes.conda.CONDA_VIRTUAL_PACKAGE_MISMATCH: lambda m, r, hits: _virtual(m, hits),
    causes.gpu.DRIVER_TOO_OLD: lambda m, r, hits: (
        _compat_refused(m, r, hits)
        or (
            causes.gpu.DRIVER_TOO_OLD,
            causes.container.image_cuda_driver_fix(m, _group(hits, "cuda_version"))
            if any(h.signature.id == "container-toolkit-cuda-requirement" for h in hits)
            else causes.gpu.driver_init_error_fix(m, _floor(m))
            if all(BARE_INIT_ERROR in h.signature.tags for h in hits)
            else causes.gpu.driver_too_old_fix(m, _floor(m)),
        )
    ),
    causes.software.IMPORT_CRASH: _import_crash,
    causes.gpu.TENSORRT_ENGINE_STALE: lambda m, r, hits: (
        causes.gpu.TENSORRT_ENGINE_STALE,
        causes.gpu.tensorrt_engine_fix(
            _group(hits, "expected"),
            _group(hits, "found"),
            any("incompatible device" in line for h in hits for _, line in h.citations),
            m.os,
        ),
    ),
    causes.gpu.TENSORRT_VERSION_MISMATCH: lambda m, r, hits: (
        causes.gpu.TENSORRT_VERSION_MISMATCH,
        causes.gpu.tensorrt_version_fix(_group(hits, "required"), _group(hits, "loaded")),
    ),
    causes.network.DOWNLOAD_HASH_MISMATCH: lambda m, r, hits: (
        causes.network.DOWNLOAD_HASH_MISMATCH,
        # Pipenv names its lock file in pip's words, or (later releases) passes them through
        # under its own exception's name: its lock file holds the hashes either way.
        causes.network.hash_mismatch_fix(
            m,
            any(
                "Pipfile.lock" in line or "pipenv.exceptions" in line
                for h in hits
                for _, line in h.citations
            ),
        ),
    ),
    causes.runtime.HOST_OUT_OF_MEMORY: lambda m, r, hits: (
        causes.runtime.HOST_OUT_OF_MEMORY,
        # The build service's own line says where the memory ran out, whatever else killed.
        causes.runtime.build_memory_fix(m)
        if any(h.signature.id == "build-killed-for-memory" for h in hits)
        else causes.runtime.compiler_memory_fix(m)
        if any(h.signature.id == "compiler-killed" for h in hits)
        else causes.runtime.host_memory_fix(m),
    ),
    causes.runtime.GPU_OUT_OF_MEMORY: _gpu_out_of_memory,
    causes.platform.NATIVE_ADDON_BUILD_TOOLS_MISSING: _addon_tools,
    causes.runtime.GPU_LIBRARY_INIT_FAILED: _gpu_library_init,
    causes.gpu.DRIVER_VERSION_MISMATCH: _driver_mismatch,
    causes.xla.PTXAS_TOO_OLD: _ptxas_old,
    causes.xla.PTXAS_TOO_NEW: _ptxas_new,
    causes.xla.XLA_CODE_UNCOMPILABLE: lambda m, r, hits: (
        causes.xla.XLA_CODE_UNCOMPILABLE,
        causes.xla.xla_code_fix({h.signature.id for h in hits}),
    ),
    causes.software.COMPANION_MISMATCH: _companion,
    causes.software.TF_MULTIPLE_DISTRIBUTIONS: _tf_distributions,
    causes.software.NUMPY_ABI: _numpy_abi,
    causes.software.CUSTOM_OP_BUILD_MISMATCH: _custom_op,
    causes.runtime.FILESYSTEM_ENV_MISCONFIGURED: _filesystem_env,
    causes.platform.NATIVE_LIBRARY_UNRESOLVED: _native,
    causes.platform.BINDING_PROCESS_NOT_64BIT: lambda m, r, hits: (
        causes.platform.BINDING_PROCESS_NOT_64BIT,
        causes.platform.binding_64bit_fix("java"),
    ),
    causes.code.API_REMOVED: _api_removed,
    causes.code.TF_TOO_OLD_FOR_CODE: _tf_too_old,
    causes.platform.STATIC_TLS_EXHAUSTED: _static_tls,
    causes.runtime.OP_KERNEL_MISSING: _op_kernel,
    causes.software.OP_NOT_REGISTERED: _op_unregistered,
    causes.container.CONTAINER_NO_GPU: _container_no_gpu,
    causes.container.CONTAINER_IMAGE_PLATFORM: _image_platform,
    causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN: _no_device,
    causes.cluster.CLUSTER_COLLECTIVE_FAILED: _collective,
    causes.gpu.NCCL_RELEASE_BUG: _nccl_release,
    causes.gpu.NCCL_CUDA_MISMATCH: lambda m, r, hits: (
        causes.gpu.NCCL_CUDA_MISMATCH,
        causes.gpu.nccl_cuda_fix(m, r.nccl_cuda),
    ),
    causes.software.LIBRARY_PIN_CONFLICTS: _library_pin,
    causes.code.DEPENDENCY_TOO_OLD_FOR_CODE: _added_row(
        causes.code.DEPENDENCY_TOO_OLD_FOR_CODE, causes.code.dependency_too_old_fix
    ),
    causes.software.KERAS_BACKEND_VERSION_UNSUPPORTED: _added_row(
        causes.software.KERAS_BACKEND_VERSION_UNSUPPORTED, causes.software.keras_backend_fix
    ),
    **{cause: _simple(cause, build) for cause, build in _SIMPLE.items()},
}


def _cite(hits: Sequence[Hits]) -> str:
    out = []
    for hit in hits:
        for where, line in hit.citations:
            out.append(f"{where}: {line}")
        more = hit.count - len(hit.citations)
        if more > 0:
            out.append(f"(and {more} more like it)")
    return "\n".join(out)


#: A virtual package a solver's line names, with the version its builds ask for.
_VIRTUAL = re.compile(r"(__(?:cuda|osx|glibc))\b(?:[ \t]*>=?[ \t]*(\d+(?:\.\d+){0,2}))?")


def _virtual_package(hits: Sequence[Hits]) -> tuple[str, str]:
    """The virtual package the cited lines name (``__cuda`` first) and the lowest version
    they ask of it (empty where none is shown)."""
    named = [m for h in hits for _, line in h.citations for m in _VIRTUAL.finditer(line)]
    for package in ("__cuda", "__osx", "__glibc"):
        floors = sorted(
            {m.group(2) for m in named if m.group(1) == package and m.group(2)}, key=version_key
        )
        if any(m.group(1) == package for m in named):
            return package, floors[0] if floors else ""
    return "__cuda", ""


def _virtual(m: Machine, hits: Sequence[Hits]) -> tuple[causes.CauseId, Fix]:
    """A virtual package the solver lacks: declared where the machine has it; where the
    machine's own facts show an older glibc than the builds ask for, the system is too old."""
    package, floor = _virtual_package(hits)
    platform = m.facts.platform
    have = platform.libc_version if platform is not None and platform.libc == "glibc" else None
    if package == "__glibc" and floor and have and version_key(have) < version_key(floor):
        return causes.platform.GLIBC_TOO_OLD, causes.platform.glibc_fix(f"GLIBC_{floor}")
    return causes.conda.CONDA_VIRTUAL_PACKAGE_MISMATCH, causes.conda.virtual_package_fix(
        package, floor, pixi=False, windows=m.os == "windows"
    )


def _conda_cpu_build(
    rows: Sequence[CondaRow], gpu: bool, os: Optional[str] = None
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
        causes.gpu.conda_gpu_build_fix(row.version, row.build, row.channel),
    )


def _gpu_shown(m: Machine, r: Revealed) -> bool:
    """Whether the facts or the log show an NVIDIA GPU: a compute capability, nvidia-smi's
    table (printed only where it lists a GPU), or the machine's view."""
    return bool(r.compute_capability) or r.smi_gpu or m.gpu_presence in ("present", "driver-broken")


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
    ``frozen-family-module`` a program frozen by PyInstaller and, of the lines, those whose
    missing module is inside a package of TensorFlow's family; ``server-possible`` a server,
    task queue or thread running the code, or nothing of the program shown around the line;
    ``server-not-shown`` no such server (TensorFlow 1's per-thread graph); ``tfjs-shown``
    TensorFlow.js named in the log (Node's words are any addon's); ``not-imported-elsewhere``
    no failing ``from M import`` statement with M outside TensorFlow's package; ``wsl-shown``
    WSL named in the log or the issue form (CUDA's operating-system error is WSL's there)."""
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
        if need == "not-imported-elsewhere":
            return not imported_elsewhere
        if need == "wsl-shown":
            return evidence.wsl or evidence.stated.wsl
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


def _rule_named(m: Machine, hits: Sequence[Hits]) -> Optional[tuple[causes.CauseId, Fix]]:
    """A signature named as a scan rule (keras211-optimizer-decay) is that rule's error: its
    cause and fix are the rule's, the words scan gives for the use that raised it."""
    if m.matrix is None:
        return None
    from tfdoctor.scan.knowledge import ApiKnowledge  # noqa: PLC0415 - loads scan's rules

    knowledge = ApiKnowledge(m.matrix)
    # Only the lines of the cause's highest level name the rule: a warning's rule (Keras
    # dropping `lr` or `decay`) does not give its fix to an error of the same cause beside it.
    top = max(_SEVERITY[h.signature.severity].rank for h in hits)
    for hit in hits:
        if _SEVERITY[hit.signature.severity].rank < top:
            continue
        verdict = knowledge.rule(hit.signature.id)
        if verdict is not None:
            return verdict.cause, verdict.fix
    return None


#: pip's last line after an install it completed (``installed_packages_summary``).
_INSTALLED = pip_words(PipKind.INSTALLED)

#: Causes of TensorFlow's start-up look for CUDA: on a machine that shows no GPU, a warning
#: at most (:mod:`tfdoctor.explain.cpu_machine`).
_PROBED_CAUSES = frozenset({causes.gpu.CUDA_LIBS_MISSING, causes.gpu.DRIVER_NOT_LOADED})


#: OpenVINO's Model Optimizer's requirements check (signatures.yaml).
_MO_CHECK = "openvino-mo-dependency-unsatisfied"
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
    if final == causes.gpu.DRIVER_NOT_LOADED and r.gpu_listed:
        # TensorFlow listing a GPU needs the driver's libcuda loaded and answering in that
        # process (the CUDA platform enumerates devices through it): what it observed beats
        # the reading of a libcuda that did not load (another process, a retry, a probe).
        severity = Severity.INFO
        notes.append(
            "TensorFlow lists a GPU in this log, which it does only with the driver's libcuda "
            "loaded: the driver answered where it listed it; the fix is for a run that lists none."
        )
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
    if fix is not None and not own and (m.tf is None or m.os is None):
        fix = _without_extra_installs(fix)
    elif fix is not None and not own and m.platform is None:
        fix = _extra_for_unknown_architecture(fix)
    gpu = _gpu_shown(m, r)
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
    severity, nvml_note = _nvml_without_gpu(hits, r, severity)
    severity, quiet = _quiet_reading(final, hits, r, gpu, severity)
    if any(h.signature.id == _MO_CHECK for h in hits):
        severity = _mo_check_severity(hits, r.mo_outcome, severity)
    parts = [_cite(hits), *quiet, *nvml_note]
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
    summary = lead.signature.summary if final == cause else _title(final, r)
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
        f"{_cite([hit])}\n{sig.explanation}",
        None,
        sig.sources,
        check="explain",
    )


def _system_library_is_the_loaders(by_cause: dict[str, list[Hits]]) -> None:
    """A companion's library that links a system library this system lacks: its build is for
    a newer system, not for another TensorFlow; one finding, the loader's, with both lines."""
    unopened = _hits_by(by_cause, causes.software.COMPANION_MISMATCH, "companion-library-unopened")
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
                ApiKnowledge(matrix),
                machine,
                evidence.kernel_installs,
                keras_backend_shown="keras-multi-backend-file" in evidence.hits,
            )
            or hollow_tensorflow_findings(evidence.tracebacks, machine)
            or flags_before_absl_findings(evidence.tracebacks, machine)
        )
    if evidence.statements and machine.tf is not None:
        return statement_findings(evidence.statements, ApiKnowledge(matrix), machine)
    return []


def _unexplained(evidence: Evidence, machine: Machine) -> list[Finding]:
    """What the log's last exception says where no cause explains the log: the candidates
    that weigh it (Keras 3 meeting Keras 2 code, a legacy copy, a release's missing name),
    else the exception itself as unexplained."""
    candidate = (
        lambda_bytecode_candidate(evidence.tracebacks, machine)
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
    if any(v.replace("-", "") != tf.version.replace("-", "") for v in named):
        return None
    cause, final = found
    kind = "a nightly build" if cause == causes.runtime.TF_BUILD_REGRESSION else "a pre-release"
    return causes.finding(
        f"explain.{cause}",
        Severity.WARNING,
        cause,
        f"The TensorFlow that ran is {tf.name} {tf.version}, {kind}: the failure may be its own",
        f"The log shows {tf.name} {tf.version}, {kind} of {final}, and no other cause for the "
        "exception: unreleased builds carry defects that their final release, or a later "
        "build, does not.",
        causes.runtime.unreleased_build_fix(machine, tf.name, tf.version, final),
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
    from tfdoctor.explain.interface import interface_candidates  # noqa: PLC0415

    found = interface_candidates(evidence.tracebacks, machine)
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
    findings.update((x.id, x) for x in _api_findings(evidence, matrix, machine))
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
        ),
        _conda_cpu_build(evidence.conda_rows, _gpu_shown(machine, revealed), revealed.os),
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
    ):
        if extra is not None:
            findings.setdefault(extra.id, extra)
    inferred = _inferred(evidence, revealed)
    for cause, hits in by_cause.items():
        found = _retried_only(
            _graph_placed(
                _fit_process_fix(
                    _cause_finding(cause, hits, machine, revealed, facts is not None, inferred),
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
                _nccl_fell_back_to_sockets(_said_to_go_on(found, hits), hits, evidence),
                hits,
                evidence,
            ),
        )
    # After the signatures' findings: a line of the log's own says more than its words.
    for late in (
        _keras3_in_words(evidence, machine),
        multi_backend_keras_finding(evidence.first_text, evidence.tracebacks, machine),
        *_unlisted(evidence, revealed, machine, findings.values(), inferred),
        _native_import_cut(evidence, revealed, machine, findings.values()),
        cut_import_finding(
            cut_import(evidence.first_text), evidence.tracebacks, machine, findings.values()
        ),
        _old_pip_shown(evidence, machine, revealed, findings.values()),
        _user_site_tensorflow(evidence, machine),
        _dict_wrapper_cut(evidence, machine),
        _syntax_newer_than_python(evidence, revealed, machine),
        _conda_path_too_long(evidence),
        _conda_system_unsatisfied(evidence, machine),
        _pip_path_too_long(evidence),
        _project_python_range(evidence),
        # After the hints' reading, which names the range the resolver suggests.
        *resolver_python_findings(evidence.python_refusals, machine),
        _model_garden_official(evidence),
        _other_library_candidate(findings, by_cause, machine, revealed),
        _cudnn_major_candidate(findings, machine, revealed),
        _slow_start_on_gpu(evidence, revealed, machine, findings.values()),
        _cpu_candidate(findings, by_cause, machine, revealed, evidence.first_text),
        _binding_word_size_candidate(findings, by_cause),
        _jvm_candidate(findings, by_cause, revealed),
        *_refusal_candidates(findings, machine, revealed, evidence.first_text),
        _custom_op_unresolved(findings, by_cause),
        _hosted_tf_replaced(evidence, revealed, by_cause, findings, machine),
        _kernel_kept_release(evidence, revealed),
        _pip_added_beside(evidence, machine),
        locked_without_wrapper(
            evidence.first_text,
            machine,
            revealed.os,
            revealed.mac,
            _text_os,
        ),
        _container_candidate(findings, by_cause, machine, revealed, evidence),
        _gpu_dll_candidate(findings, by_cause, machine, revealed),
        _container_libcuda_candidate(findings, by_cause),
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
    if f"explain.{causes.hosted.HOSTED_TF_REPLACED}" in findings:
        # The install is the cause: the GPU's own finding, whose fix would install CUDA or
        # cuDNN on the image, and an image's companion refused by the new TensorFlow, whose fix
        # fits the companion to it, say what failed, second.
        for key, x in list(findings.items()):
            if (
                x.cause in _IMAGE_PAIRING_CAUSES or x.cause == causes.software.COMPANION_MISMATCH
            ) and x.severity.rank > Severity.WARNING.rank:
                findings[key] = dataclasses.replace(x, severity=Severity.WARNING)
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


#: Words of installing: a stated platform and release are about an install only beside them.
_INSTALL_WORDS = re.compile(r"(?i)\bpip\b|\binstall|\bwheels?\b|\bdownload|\bpypi\b|\bbinar")


def _stated_platform_release(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """The user's form names a platform and a TensorFlow release that publishes no wheel for
    it (the matrix's Pythons per platform are empty), and the text is about installing: that
    release is not for this platform, whatever pip printed or not."""
    said = evidence.stated
    platform = said.platform()
    matrix = machine.matrix
    if platform is None or said.tf_version is None or matrix is None:
        return None
    line = matrix.line_for(said.tf_version)
    if line is None or platform not in line.python or line.python[platform]:
        return None
    text = evidence.first_text
    if not _INSTALL_WORDS.search(text):
        return None
    having = causes.platform.wheel_lines(matrix.lines, platform)
    last = matrix.line_for(having[-1]) if having else None
    return causes.finding(
        f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
        Severity.ERROR,
        causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
        causes.platform.release_not_for_python_title("tensorflow"),
        _cite_head(evidence, said.lines)
        + f"\nThe form states {platform} and TensorFlow {said.tf_version}, whose release "
        "publishes no wheel for that platform (from the matrix).",
        causes.platform.platform_ended_fix(machine, said.tf_version, platform, last),
    )


#: A traceback frame in TensorFlow's loader of its native library (TensorFlow 1.x-2.x:
#: pywrap_tensorflow.py, which imports the SWIG or pybind11 module _pywrap_tensorflow_internal).
_NATIVE_IMPORT_FRAME = re.compile(
    r'^[ \t]*File "(?P<path>[^"\n]{1,300}?[\\/]tensorflow(?:_core)?[\\/]python[\\/]'
    r'pywrap_tensorflow(?:_internal)?\.py)", line \d+',
    re.MULTILINE,
)


def _native_import_cut(
    evidence: Evidence, r: Revealed, m: Machine, found: Iterable[Finding]
) -> Optional[Finding]:
    """A traceback through TensorFlow's loader of its native library, cut before the message
    that says why it failed, where nothing else explains the log: the candidates ranked by
    what the log shows of the machine (Windows; a container started without a GPU)."""
    if any(x.severity.rank >= Severity.WARNING.rank for x in found):
        return None
    text = evidence.first_text
    if "pywrap_tensorflow" not in text:
        return None
    frame = _NATIVE_IMPORT_FRAME.search(text)
    if frame is None or any(
        any("pywrap_tensorflow" in f.path for f in tb.frames) for tb in evidence.tracebacks
    ):
        return None  # no such frame, or the traceback's own message is shown (its finding)
    where = f"line {text.count(chr(10), 0, frame.start()) + 1}: {frame.group(0).strip()}"
    windows = r.os == "windows" or re.match(r"[A-Za-z]:\\", frame.group("path")) is not None
    if windows:
        # Python's "DLL load failed" is what this import raises on Windows: a Visual C++
        # runtime DLL missing is the commoner reason (TensorFlow 2.1 and later need the 2019
        # runtime's msvcp140_1.dll), a CPU without AVX (every release from 1.6) the other.
        return causes.finding(
            f"explain.{causes.platform.MSVC_RUNTIME_MISSING}",
            Severity.WARNING,
            causes.platform.MSVC_RUNTIME_MISSING,
            "TensorFlow's native library did not load on Windows (the message is cut off)",
            f"{where}\nThe traceback ends in TensorFlow's loader of its native library before "
            "the message; on Windows that is a DLL the library needs, most often the Visual C++ "
            "runtime, or a CPU without AVX.",
            causes.platform.msvc_fix(),
        )
    if r.docker_run_without_gpu is not None:
        # A GPU build links the driver's libcuda.so.1, which the container runtime mounts
        # only into a container started with the GPU.
        command = r.docker_run_without_gpu[1]
        return causes.finding(
            f"explain.{causes.container.CONTAINER_NO_GPU}",
            Severity.WARNING,
            causes.container.CONTAINER_NO_GPU,
            "TensorFlow's native library did not load in a container started without a GPU",
            f"{where}\nThe container was started without GPU access ({command}); a GPU build "
            "of TensorFlow in the image links the driver's libcuda.so.1, which only the "
            "runtime's GPU option mounts (--gpus, through the NVIDIA Container Toolkit; "
            "Apptainer's --nv). The traceback is cut before its message: where the image holds "
            "a CPU build, that message decides.",
            causes.container.container_gpu_fix(m),
        )
    return None


def _windows_gpu_archive(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """A Windows GPU archive of TensorFlow's C library named for a release the matrix says has
    no native Windows GPU build (2.11 and later): no such archive was published."""
    hit = evidence.hits.get("libtensorflow-archive")
    matrix = machine.matrix
    if hit is None or matrix is None:
        return None
    for (where, cited), groups in zip(hit.citations, hit.groups):
        if groups.get("archive") != "gpu-windows-x86_64":
            continue
        release = groups["tf_version"]
        line = matrix.line_for(release)
        if line is None or line.windows_native_gpu:
            continue
        return causes.finding(
            f"explain.{causes.platform.WINDOWS_NATIVE_GPU_ENDED}",
            Severity.ERROR,
            causes.platform.WINDOWS_NATIVE_GPU_ENDED,
            f"No Windows GPU build of TensorFlow {release}'s C library exists",
            f"{where}: {cited}\nTensorFlow {release} has no native Windows GPU build (from the "
            "matrix), so no GPU archive of its C library for Windows was published.",
            causes.platform.windows_gpu_fix(machine, archive=True),
            hit.signature.sources,
        )
    return None


#: A TensorFlow release a user names (``tensorflow 2.15``, ``TF 2.16.1``, ``tf==2.15``).
_NAMED_TF = re.compile(r"(?i)\b(?:tensorflow|tf)(?:\s*==\s*|\s+|-)v?(\d+\.\d+)(?:\.\d+)?\b")
#: Words of a model that does not load.
_MODEL_NOT_LOADING = re.compile(
    r"(?i)\bmodel\b[^.\n]{0,80}?\b(?:unable|can'?t|cannot|fails?|failed|not)\b[^.\n]{0,30}?"
    r"\b(?:load|import|open|read|restore)"
    r"|\b(?:unable|can'?t|cannot|fails?|failed)\s+to\s+(?:load|import|open|read|restore)\b"
    r"[^.\n]{0,30}?\bmodel\b"
)
#: Words that say it works after all.
_WORKS = re.compile(r"(?i)\bno errors?\b")
#: "Keras 3" as users write it.
_KERAS3_WORDS = re.compile(r"(?i)\bkeras\s*3\b")
_QUOTED_ARG = re.compile(r"['`\"](\w+)['`\"]")
#: Words that say an argument is not taken.
_REFUSED_WORDS = re.compile(
    r"(?i)\bno\b|\bnot\b|n't\b|\bremoved\b|\bunrecogni[sz]ed\b|\bunexpected\b|\bdropped\b"
)


def _cite_head(evidence: Evidence, fragments: Iterable[str]) -> str:
    """The lines of the log's head that hold ``fragments``, each with where it is."""
    text, block = evidence.first_text, evidence.first_block
    out: list[str] = []
    for fragment in fragments:
        at = text.find(fragment)
        if at < 0 or block is None:
            continue
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        cited = (
            f"{block.where(text.count(chr(10), 0, at))}: {text[start : end if end >= 0 else None]}"
        )
        if cited not in out:
            out.append(cited)
    return "\n".join(out)


#: The signatures that show pip's own version (`pip --version`, `pip install -v`'s first line,
#: its upgrade notice).
_PIP_VERSION_SHOWN = ("pip-version-shown", "pip-version-notice")


def _old_pip_shown(
    evidence: Evidence, m: Machine, r: Revealed, found: Iterable[Finding]
) -> Optional[Finding]:
    """A pip older than 19.0, on Linux or a system not shown, where nothing else in the log is
    a problem: it cannot install TensorFlow's Linux wheels since 1.15 and 2.0 (manylinux2010
    and newer tags), whatever it is asked for next. A Windows or macOS log is not read so:
    pip 9 reads those systems' tags (macOS 11's only since 20.3, which the refusal shows)."""
    if (
        r.pip_version is None
        or version_key(r.pip_version) >= causes.platform.PIP_MANYLINUX2010
        or r.os not in (None, "linux")
        or any(x.severity.rank >= Severity.WARNING.rank for x in found)
    ):
        return None
    cited = [
        f"{where}: {line}"
        for sid in _PIP_VERSION_SHOWN
        if (hit := evidence.hits.get(sid)) is not None
        for where, line in hit.citations[:1]
    ]
    if any(re.search(r"(?:^|\s)[A-Za-z]:\\", line) for line in cited):
        return None  # a Windows path: pip reads win_amd64 at any age
    return causes.finding(
        f"explain.{causes.platform.PIP_TOO_OLD}",
        Severity.WARNING,
        causes.platform.PIP_TOO_OLD,
        "pip is too old for TensorFlow's wheels",
        "\n".join(cited)
        + f"\nThe log shows pip {r.pip_version}, older than 19.0, the first pip that reads "
        "the manylinux2010 tag of every Linux wheel of TensorFlow since 1.15 and 2.0.",
        causes.platform.pip_upgrade_fix(
            m,
            f"pip {r.pip_version} lists no Linux wheel of TensorFlow 1.15, 2.0 or later "
            "(manylinux2010 needs pip 19.0, manylinux2014 19.3), so it cannot install them.",
            pip=r.pip_version,
        ),
    )


#: TensorFlow's package in a per-user site-packages (site.USER_SITE): Windows'
#: %APPDATA%\\Python\\PythonXY\\site-packages, POSIX ~/.local/lib/pythonX.Y/site-packages,
#: a macOS framework build's ~/Library/Python/X.Y/lib/python/site-packages
#: (https://docs.python.org/3/library/site.html#site.USER_SITE).
_USER_SITE_TF = re.compile(
    r"(?P<site>.{0,120}?(?:[\\/]AppData[\\/]Roaming[\\/]Python[\\/]Python\d+"
    r"|/\.local/lib/python\d\.\d+|/Library/Python/\d\.\d+/lib/python)"
    r"[\\/]site-packages)[\\/]tensorflow(?:_core)?[\\/]",
    re.IGNORECASE,
)
#: A conda installation's own files (its Python reads the user site, unlike a venv's).
_CONDA_PREFIX = re.compile(
    r"[\\/](?:ana|mini)conda\d?[\\/]|[\\/](?:miniforge|mambaforge)\d?[\\/]", re.IGNORECASE
)


#: The distributions of TensorFlow's family, as the uv signatures name them.
_TF_FAMILY = TF_DISTRIBUTION + r"(?![\w-])"
#: uv's hint where the project's requires-python admits Pythons a dependency does not
#: support (PubGrubHint::RequiresPython; "`Requires-Python` requirement" before uv 0.3).
#: https://github.com/astral-sh/uv/blob/0.6.0/crates/uv-resolver/src/pubgrub/report.rs
_UV_REQUIRES_PYTHON = re.compile(
    r"hint: The `(?:requires-python|Requires-Python)` (?:value|requirement) \([^)\n]{0,80}\) "
    r"includes Python versions that are not supported by your dependencies \(e\.g\., "
    rf"(?P<dist>{_TF_FAMILY})[^\s]{{0,80}} only supports (?P<supports>[^)\n]{{1,80}})\)\."
    r"(?: Consider using a more restrictive `(?:requires-python|Requires-Python)` "
    r"(?:value|requirement) \(like (?P<like>[^)\n]{1,80})\))?"
)
#: Poetry's SolveFailure where the project's Python range reaches past a dependency's
#: (mixology/failure.py), and its PythonRequirementSolution's suggested range.
#: https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/failure.py
#: https://github.com/python-poetry/poetry/blob/1.8.3/src/poetry/mixology/solutions/solutions/python_requirement_solution.py
_POETRY_PYTHON_RANGE = re.compile(
    r"^[ \t]*- (?P<dist>" + _TF_FAMILY + r") requires Python (?P<supports>[^\n]{1,80}?), so it "
    r"will not be satisfied for Python [^\n]{1,80}$",
    re.MULTILINE,
)
#: PDM's refusal of the project's requires-python (format_resolution_impossible): one line a
#: dependency's Python requirement with the candidate that declares it, then the range it
#: suggests.
#: https://github.com/pdm-project/pdm/blob/0acc07a718a35a69e926240f8f47d53404d95a2b/src/pdm/cli/utils.py
_PDM_PYTHON_RANGE = re.compile(
    r"^[ \t]*python(?P<supports>[<>=!~][^\s(]{0,80}) \(from <Candidate (?P<dist>"
    + _TF_FAMILY
    + r")@",
    re.MULTILINE,
)
#: PDM's head of that refusal, which rich wraps at the terminal's width (any gap between its
#: words may be a line break).
_PDM_PYTHON_WORDS = re.compile(
    r"don't\s+work\s+on\s+all\s+Python\s+versions\s+in\s+the\s+range\s+of\s+the\s+project's"
)
_PDM_SUGGESTED = re.compile(
    r"change the value of `requires-python` in pyproject\.toml to (?P<range>[^\s]{1,80}?)\.?$",
    re.MULTILINE,
)
_POETRY_SUGGESTED = re.compile(
    r"For (?P<dist>[\w.-]{1,100}), a possible solution would be to set the `python` property to "
    r'"(?P<range>[^"\n]{1,80})"'
)


def _project_python_range(evidence: Evidence) -> Optional[Finding]:
    """uv, PDM or Poetry refusing to lock a project whose declared Python range admits Pythons a
    release of TensorFlow's family does not support: the declaration to narrow."""
    text = evidence.first_text
    if "requires-python" in text.lower() and "hint:" in text:
        # uv wraps its hint at the terminal's width: read it as one line.
        flat = re.sub(r"\s+", " ", text)
        found = _UV_REQUIRES_PYTHON.search(flat)
        if found is not None:
            dist, supports = found.group("dist"), found.group("supports")
            return causes.finding(
                f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
                Severity.ERROR,
                causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
                f"The project's requires-python admits Pythons {dist} does not support",
                _cite_head(evidence, ["includes Python versions that are not supported"])
                or found.group(0),
                causes.platform.project_python_range_fix(
                    "uv", dist, supports, found.group("like") or ""
                ),
            )
    # Each requirement of the refusal names PDM's candidate ("(from <Candidate X@V ...>)").
    if "<Candidate " in text and _PDM_PYTHON_WORDS.search(text):
        pdm = _PDM_PYTHON_RANGE.search(text)
        if pdm is not None:
            advised = _PDM_SUGGESTED.search(text)
            return causes.finding(
                f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
                Severity.ERROR,
                causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
                f"The project's requires-python admits Pythons {pdm.group('dist')} does not "
                "support",
                _cite_head(evidence, [pdm.group(0).strip()]),
                causes.platform.project_python_range_fix(
                    "pdm",
                    pdm.group("dist"),
                    pdm.group("supports"),
                    advised.group("range") if advised else "",
                ),
            )
    if "is not compatible with some of the required packages Python requirement" in text:
        needed = _POETRY_PYTHON_RANGE.search(text)
        if needed is not None:
            dist = needed.group("dist")
            suggested = next(
                (
                    s.group("range")
                    for s in _POETRY_SUGGESTED.finditer(text)
                    if s.group("dist") == dist
                ),
                "",
            )
            return causes.finding(
                f"explain.{causes.platform.TF_RELEASE_NOT_FOR_PYTHON}",
                Severity.ERROR,
                causes.platform.TF_RELEASE_NOT_FOR_PYTHON,
                f"The project's Python range reaches Pythons {dist} does not support",
                _cite_head(evidence, [needed.group(0).strip()]),
                causes.platform.project_python_range_fix(
                    "poetry", dist, needed.group("supports"), suggested
                ),
            )
    return None


#: pip's words for an OSError while it installs (create_os_error_message in
#: https://github.com/pypa/pip/blob/23.0/src/pip/_internal/commands/install.py; "an
#: EnvironmentError" before pip 21.0), with the file Windows refused: error 206
#: (ERROR_FILENAME_EXCED_RANGE, "The filename or extension is too long"), or a file not found
#: or invalid (ENOENT, EINVAL) whose path is past MAX_PATH, where pip 21.2 and later add the
#: long path hint that a signature reads (older pips print the path alone).
_PIP_WINDOWS_PATH = re.compile(
    r"Could not install packages due to an (?:OSError|EnvironmentError): "
    r"\[(?:(?P<winerror>WinError 206)|Errno (?:2|22))\][^'\n]{0,120}"
    r"'(?P<path>[A-Za-z]:(?:\\\\|\\)[^'\n]{1,1000})'"
)


def _pip_path_too_long(evidence: Evidence) -> Optional[Finding]:
    """pip could not write a file of a package on Windows because its path is past Windows'
    260-character limit: error 206 says so; a missing file says so when its path is that
    long (a short one is missing for another reason)."""
    for found in _PIP_WINDOWS_PATH.finditer(evidence.first_text):
        # The error's text is the path's repr: a backslash is doubled.
        path = found.group("path").replace("\\\\", "\\")
        if found.group("winerror") is None and len(path) < _NEAR_MAX_PATH:
            continue
        return causes.finding(
            f"explain.{causes.platform.WINDOWS_LONG_PATHS}",
            Severity.ERROR,
            causes.platform.WINDOWS_LONG_PATHS,
            "pip could not write a file whose path is longer than Windows allows",
            _cite_head(evidence, [found.group(0)[:80]])
            + (
                f"\nThe file's full path is {len(path)} characters."
                if len(path) >= _NEAR_MAX_PATH
                else ""
            ),
            causes.platform.long_paths_fix(),
        )
    return None


#: conda's UnsatisfiableError for chains that end in a virtual package (conda/resolve.py,
#: _classify_bad_deps; the "virtual_package" message of conda/exceptions.py): the chains, one
#: a line after a dash, then "Your installed version is: V", V being "not available" where the
#: solver sees no such package (a login node or image build without a driver for __cuda).
#: https://github.com/conda/conda/blob/4.14.0/conda/exceptions.py
_CONDA_SYSTEM_BLOCK = re.compile(
    r"incompatible with your system:[ \t]*\n(?P<specs>(?:[^\n]{0,400}\n){0,60}?)"
    r"[^\n]{0,60}?Your installed version is: (?P<ref>not available|\d[\w.]{0,30})"
)
#: A chain's last link: the virtual package a build needs, with its version where shown
#: (MatchSpec's ``__cuda[version='>=11.0']`` or the chain's own ``__glibc >=2.17``). The
#: system's own records (``feature:/linux-64::__glibc==2.31=0``) have no arrow before them.
_CONDA_SYSTEM_NEED = re.compile(
    r"-> (?P<package>__(?:cuda|glibc|osx))(?:\[version='(?P<spec>[^'\n]{0,80})'\]"
    r"|[ \t]+(?P<bare>[<>=!~\d][^\s]{0,80}))?[ \t]*$",
    re.MULTILINE,
)
_FLOOR = re.compile(r">=[ \t]*(\d+(?:\.\d+){0,2})")


#: The platform conda solves for, as its records of the system name it
#: (``feature:/linux-64::__cuda==10.2=0``).
_CONDA_SUBDIR = re.compile(r"::?/?(?P<os>linux|win)-(?:64|aarch64|ppc64le|32)::__")


def _conda_driver_floor(m: Machine, block: re.Match[str]) -> Optional[str]:
    """The oldest driver that reports the CUDA the block's builds need, on the platform its
    records of the system name (None where they name none, or the matrix has no such CUDA).
    conda compares the CUDA version the driver reports, so minor version compatibility's
    lower floor does not satisfy its solver: the driver the toolkit shipped with does."""
    subdir = _CONDA_SUBDIR.search(block.group(0))
    floor = _FLOOR.findall(block.group("specs"))
    toolkit = m.matrix.toolkit(max(floor, key=version_key)) if m.matrix and floor else None
    if subdir is None or toolkit is None:
        return None
    return toolkit.min_driver_linux if subdir["os"] == "linux" else toolkit.min_driver_windows


def _conda_system_unsatisfied(evidence: Evidence, m: Machine) -> Optional[Finding]:
    """conda's solver refusing builds for a virtual package the system it solves for lacks
    (``not available``) or has below the builds' floor. conda prints the same block beside
    other conflicts where the installed version satisfies every chain: that says nothing."""
    for block in _CONDA_SYSTEM_BLOCK.finditer(evidence.first_text):
        needs = list(_CONDA_SYSTEM_NEED.finditer(block.group("specs")))
        packages = {n.group("package") for n in needs}
        if len(packages) != 1:
            continue  # conda states one installed version for the block: whose is unclear
        package = packages.pop()
        floors = sorted(
            {f for n in needs for f in _FLOOR.findall(n.group("spec") or n.group("bare") or "")},
            key=version_key,
        )
        ref = block.group("ref")
        if ref == "not available":
            floor = floors[0] if floors else ""
        else:
            above = [f for f in floors if version_key(f) > version_key(ref)]
            if not above:
                continue  # the system satisfies the chains: the conflict is elsewhere
            floor = above[-1]
        cited = _cite_head(evidence, [needs[0].group(0).strip(), block.group(0).split("\n")[-1]])
        # A glibc detected below the floor is the system's own: no declaration helps (conda
        # read the value from this machine, so declaring this machine's value changes nothing).
        if package == "__glibc" and ref != "not available":
            cause: causes.CauseId = causes.platform.GLIBC_TOO_OLD
            fix = causes.platform.glibc_fix(f"GLIBC_{floor}")
        elif package == "__osx" and ref != "not available":
            # So is a macOS detected below it.
            cause = causes.platform.MACOS_TOO_OLD
            fix = causes.platform.macos_fix(floor)
        elif package == "__cuda" and ref != "not available":
            # conda read __cuda from this machine's driver: its own value is what it saw, so
            # the driver (or the builds) must change.
            cause = causes.gpu.DRIVER_TOO_OLD
            fix = causes.conda.conda_cuda_below_fix(ref, floor, _conda_driver_floor(m, block))
        else:
            cause = causes.conda.CONDA_VIRTUAL_PACKAGE_MISMATCH
            subdir = _CONDA_SUBDIR.search(block.group(0))
            windows = subdir["os"] == "win" if subdir is not None else m.os == "windows"
            fix = causes.conda.virtual_package_fix(package, floor, pixi=False, windows=windows)
        return causes.finding(
            f"explain.{cause}",
            Severity.ERROR,
            cause,
            "conda's solver does not see the system version a package's builds need"
            if ref == "not available"
            else f"conda's solver sees {package} {ref}, below the {floor} the builds need",
            cited,
            fix,
        )
    return None


#: conda's check of an extracted package (LinkPathAction.verify in
#: https://github.com/conda/conda/blob/main/conda/core/path_actions.py), whose package cache
#: is on Windows (a drive letter): "The package for X located at DIR / appears to be
#: corrupted. The path 'P' / specified in the package manifest cannot be found." (older
#: condas: "The file 'P'").
_CONDA_CORRUPTED = re.compile(
    r"The package for (?P<package>[\w.-]{1,120}) located at (?P<cache>[A-Za-z]:\\[^\n]{1,300}?)"
    r"[ \t]*\n[ \t]*appears to be corrupted\. The (?:path|file) '(?P<path>[^'\n]{1,500})'"
)
#: Windows' MAX_PATH is 260 characters with the terminating NUL
#: (https://learn.microsoft.com/en-us/windows/win32/fileio/maximum-file-path-limitation);
#: a file within 20 of it is read as past it, as a pasted log often shortens the user's own
#: folder name (C:\\Users\\user).
_NEAR_MAX_PATH = 240


def _conda_path_too_long(evidence: Evidence) -> Optional[Finding]:
    """conda found a file of a package missing from its cache on Windows, whose full path
    (the cache's folder joined to the manifest's path) is at or near Windows' 260-character
    limit: the extraction could not write it, not a corrupted download."""
    for found in _CONDA_CORRUPTED.finditer(evidence.first_text):
        cache, path = found.group("cache"), found.group("path")
        full = f"{cache}\\{path}".replace("/", "\\")
        if len(full) < _NEAR_MAX_PATH:
            continue  # a short path is missing for another reason (an interrupted download)
        return causes.finding(
            f"explain.{causes.platform.WINDOWS_LONG_PATHS}",
            Severity.ERROR,
            causes.platform.WINDOWS_LONG_PATHS,
            "conda could not write a package file whose path is longer than Windows allows",
            _cite_head(evidence, [found.group(0).split("\n")[0], f"'{path}'"])
            + f"\nThe file's full path in the cache is {len(full)} characters: {full}",
            causes.platform.conda_long_paths_fix(),
        )
    return None


#: A frame of the TensorFlow Model Garden's research code in a clone (models/research/X/),
#: whose root holds the `official` package it imports
#: (https://github.com/tensorflow/models/tree/master/research/object_detection).
_GARDEN_RESEARCH = re.compile(
    r"^(?P<root>.{0,300}?[\\/]models(?:-[\w.]{1,40})?)[\\/]research[\\/]\w+[\\/]"
)
#: Python's message for the Model Garden's `official` package, or a part of it, not found.
_NO_OFFICIAL = re.compile(r"^No module named '?(?P<module>official(?:\.\w+){0,10})'?$")


def _model_garden_official(evidence: Evidence) -> Optional[Finding]:
    """The Model Garden's research code (a frame under a clone's ``models/research/``) failing
    to import ``official``: the clone's root, which holds it, is not first on the path."""
    for tb in evidence.tracebacks:
        missing = _NO_OFFICIAL.match(tb.message.strip())
        if tb.type not in ("ModuleNotFoundError", "ImportError") or missing is None:
            continue
        roots = [r for r in (_GARDEN_RESEARCH.match(f.path) for f in tb.frames) if r]
        if not roots:
            continue
        root = roots[-1].group("root")
        return causes.finding(
            f"explain.{causes.software.PACKAGE_NOT_INSTALLED}",
            Severity.ERROR,
            causes.software.PACKAGE_NOT_INSTALLED,
            f"The Model Garden's {missing.group('module')} is not on the Python path",
            f"{tb.where}: {tb.type}: {tb.message}\nThe code is the Model Garden's research "
            f"code in a clone ({roots[-1].group(0)}), whose official package is at {root}.",
            causes.software.model_garden_path_fix(root, "\\" in root),
        )
    return None


#: A Python frame's file, as CPython prints it (a traceback cut before its exception too).
_FRAME_FILE = re.compile(r'File "(?P<path>[^"\n]{1,400})", line \d+')


def _syntax_newer_than_python(
    evidence: Evidence, revealed: Revealed, machine: Machine
) -> Optional[Finding]:
    """Python's compile error at a line of syntax a newer Python added, where the log shows
    the Python (explain.syntax): the code, or the package's release, needs that Python."""
    found = compile_error_at_newer_syntax(evidence.first_text, revealed.python)
    if found is None or revealed.python is None:
        return None
    cited, release, syntax, package = found
    owner = f"{package}'s code" if package else "The code"
    return causes.finding(
        f"explain.{causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE}",
        Severity.ERROR,
        causes.platform.PYTHON_TOO_OLD_FOR_PACKAGE,
        f"{owner} needs Python {release} or newer; this is Python {revealed.python}",
        f"{cited}\nPython cannot compile the line: it uses {syntax}, which Python {release} "
        f"added, and the log shows Python {revealed.python}.",
        causes.platform.syntax_python_fix(machine, revealed.python, release, syntax, package),
        # Each release's "What's New" page lists the syntax it added.
        (f"https://docs.python.org/3/whatsnew/{release}.html",),
    )


def _user_site_tensorflow(evidence: Evidence, m: Machine) -> Optional[Finding]:
    """Frames through TensorFlow in the per-user site-packages, inside a conda Python (other
    frames are a conda installation's): conda's Pythons read the user site before their own
    site-packages, so a TensorFlow installed there with ``pip --user`` shadows the
    environment's and runs against its packages. Frames are read from the log's head, so a
    traceback cut before its exception counts."""
    paths = [m.group("path") for m in _FRAME_FILE.finditer(evidence.first_text)]
    sites = [m for m in map(_USER_SITE_TF.match, paths) if m is not None]
    conda = next((p for p in paths if _CONDA_PREFIX.search(p) and not _USER_SITE_TF.match(p)), None)
    if not sites or conda is None:
        return None
    site = sites[0].group("site")
    return causes.finding(
        f"explain.{causes.software.TF_SHADOWED_MODULE}",
        Severity.WARNING,
        causes.software.TF_SHADOWED_MODULE,
        "TensorFlow is imported from the per-user site-packages, not the environment",
        _cite_head(evidence, [sites[0].group(0)])
        + f"\nTensorFlow's frames are under {site} (the user site), the interpreter's under "
        f"a conda installation ({conda}).",
        causes.software.user_site_fix(m, site),
    )


#: A traceback the log ends inside, at TensorFlow's tracked dict's attribute lookup
#: (``_DictWrapper.__getattribute__`` in trackable/data_structures.py, training/tracking/ before
#: 2.10), the source line it ran at most after it: the exception line was cut from the paste.
_DICT_WRAPPER_CUT = re.compile(
    r'File "(?P<path>[^"\n]{0,400}[\\/]tensorflow[\\/]python[\\/]'
    r'(?:trackable|training[\\/]tracking)[\\/]data_structures\.py)", line \d+, '
    r"in __getattribute__[ \t]*(?:\r?\n[ \t]+\S[^\n]*)?\s*\Z"
)


def _dict_wrapper_cut(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """A traceback cut before its exception line whose innermost frame is TensorFlow's
    ``_DictWrapper.__getattribute__``: wrapt 1.15 under a TensorFlow of 2.12 or older.

    ``_DictWrapper`` is a wrapt ``ObjectProxy``: an ``AttributeError`` its lookup raises goes
    on to the proxy's ``__getattr__`` (C code, no frame), and a property's own error has the
    property's frame below. What leaves the lookup as the innermost frame is the ``TypeError``
    wrapt 1.15 let through ("this __dict__ descriptor does not support '_DictWrapper'
    objects"; wrapt 1.15.0 stopped suppressing exceptions in attribute access:
    https://github.com/tensorflow/tensorflow/issues/59869, GrahamDumpleton/wrapt#231).
    From TensorFlow 2.13 the same error comes from typing-extensions 4.6
    (https://github.com/tensorflow/tensorflow/issues/62217): not read as wrapt there."""
    if evidence.tracebacks:
        return None  # the exception line is there: the signatures read it
    cut = _DICT_WRAPPER_CUT.search(evidence.first_text)
    if cut is None:
        return None
    if machine.tf is not None and version_key(machine.tf.version) >= (2, 13):
        return None
    dist, fallback, text = _DEPENDENCY_PINS["wrapt-dictwrapper"]
    return causes.finding(
        f"explain.{causes.software.DEPENDENCY_OUT_OF_RANGE}",
        Severity.WARNING,
        causes.software.DEPENDENCY_OUT_OF_RANGE,
        "Most likely wrapt 1.15 under a TensorFlow whose tracked dicts were written before it",
        _cite_head(evidence, [cut.group("path")])
        + "\nThe log ends inside a traceback at TensorFlow's tracked dict's attribute lookup "
        "(_DictWrapper.__getattribute__), its exception line cut. What that lookup raises "
        'itself is the TypeError wrapt 1.15 lets through ("this __dict__ descriptor does not '
        "support '_DictWrapper' objects\"); under TensorFlow 2.13 or later the same error "
        "comes from typing-extensions 4.6 or later instead. `pip show tensorflow wrapt "
        "typing-extensions` tells which.",
        causes.common.declared_range_fix(machine, dist, fallback, text),
    )


def _keras3_in_words(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """The Keras 2 to Keras 3 boundary in a user's words, where no line of the log shows it:
    a model that worked under a release before the first Keras 3 line and does not load under
    one from it, or an argument the text quotes beside "Keras 3" that a rule says Keras 3
    removed (Embedding's `input_length`)."""
    text = evidence.first_text
    matrix = machine.matrix
    first = first_keras3_line(matrix) if matrix is not None else None
    if not text or first is None or matrix is None:
        return None
    boundary = version_key(first.line)
    named = {version_key(v) for v in _NAMED_TF.findall(text)}
    said = ""
    model = False
    cited: list[str] = []
    replacement = ""
    loading = _MODEL_NOT_LOADING.search(text)
    if loading is not None and _WORKS.search(text):
        loading = None
    if any(v < boundary for v in named) and any(v >= boundary for v in named) and loading:
        model = True
        cited = [loading.group(0)]
        said = (
            f"The text names TensorFlow releases on both sides of {first.line}, where Keras 3 "
            "became tf.keras, and a model that does not load: a model Keras 2 saved, read by "
            "Keras 3."
        )
    elif _KERAS3_WORDS.search(text):
        from tfdoctor.scan.knowledge import ApiKnowledge  # noqa: PLC0415 - loads scan's rules

        removed = {
            r.kwarg: r.replacement
            for r in ApiKnowledge(matrix).rules.rules
            if r.kwarg and r.cause == causes.code.KERAS3_BEHAVIOUR_CHANGE
        }
        # The argument quoted on a line that names Keras 3 and says it is gone or refused.
        arg = next(
            (
                a
                for line in text.split("\n")
                if _KERAS3_WORDS.search(line) and _REFUSED_WORDS.search(line)
                for a in _QUOTED_ARG.findall(line)
                if a in removed
            ),
            None,
        )
        if arg is not None:
            said = f"The text quotes `{arg}` beside Keras 3, which does not take it."
            cited = [arg]
            replacement = removed[arg]
    if not said:
        return None
    return causes.finding(
        f"explain.{causes.code.KERAS3_BEHAVIOUR_CHANGE}",
        Severity.WARNING,
        causes.code.KERAS3_BEHAVIOUR_CHANGE,
        "Keras 2 code or models under Keras 3 (the user's words)",
        f"{_cite_head(evidence, cited)}\n{said}",
        causes.code.keras2_model_fix(machine) if model else _with_rule(replacement, machine),
    )


def _with_rule(replacement: str, machine: Machine) -> Fix:
    """Keras 3's own way for what the text names (the rule's), or Keras 2 kept (tf-keras)."""
    kept = causes.code.keras3_fix(machine)
    return Fix(f"{replacement} To keep the Keras 2 code instead: {kept.text}", kept.commands)


def _pip_ignores_requires_python(
    evidence: Evidence, revealed: Revealed, machine: Machine
) -> Optional[Finding]:
    """pip before 9.0 (its version shown) failing to build a source archive: it ignores a
    release's Requires-Python, so it took a release that no longer supports this Python."""
    built = evidence.hits.get("pip-egg-info-failed")
    pip = revealed.pip_version
    if built is None or not pip or version_key(pip) >= causes.platform.PIP_REQUIRES_PYTHON:
        return None
    cause, fix = _pip_old(machine, revealed, [built])
    return causes.finding(
        f"explain.{cause}",
        Severity.ERROR,
        cause,
        f"pip {pip} ignores Requires-Python and built a release this Python cannot run",
        _cite([built]),
        fix,
    )


def _went_on_overruled(found: list[Finding], evidence: Evidence) -> list[Finding]:
    """``found`` with what the log's own work done refutes made notes
    (:func:`_went_on_seen`), worst first; unchanged where the log shows none. The work done
    refutes only what the log shows before it: a finding whose evidence all comes after
    (a notice or a failure at save time, after the epochs trained) keeps its weight."""
    worked = _went_on_seen(evidence)
    if not worked:
        return found
    # What the work done alone observed, left out for a finding shown only after it.
    went = f"The run went on: {evidence.went_on[1].what}" if evidence.went_on else None
    unworked = {k: v for k, v in worked.items() if went is None or not v.startswith(went)}
    return sorted(
        (
            observed.overrule_seen(x, unworked if _shown_after_work(x, evidence) else worked)
            for x in found
        ),
        key=lambda f: -f.severity.rank,
    )


#: A line a finding cites, as :meth:`LogText.where` names it (``line 12``, ``cell 3, line 4``,
#: ``last 128 MiB, line 9``).
_CITED_AT = re.compile(r"\b(?:(cell) (\d+), |(last) [^,\n]{1,20}, )?line (\d+)\b")


_CITED_LINE = re.compile(r"^(?:cell \d+, |last [^,\n]{1,20}, )?line \d+(?=: )", re.M)


def _position(where: str) -> Optional[tuple[int, int, int]]:
    """``where`` (:meth:`LogText.where`'s words) as an order: cell, tail read, line."""
    m = _CITED_AT.search(where)
    if m is None:
        return None
    return (int(m[2]) if m[1] else 0, 1 if m[3] else 0, int(m[4]))


def _shown_after_work(finding: Finding, evidence: Evidence) -> bool:
    """Whether everything the log shows of ``finding`` comes after the line showing the work
    done: the lines of its cause's signatures and those its detail cites lie after it, and
    the notices it names (pip's conflicts, a companion's import check) were all printed after
    it. False where its evidence is before it, or where where it lies is not known."""
    if evidence.went_on is None or finding.cause is None:
        return False
    went = _position(evidence.went_on[0])
    if went is None:
        return False
    hits = [h for h in evidence.hits.values() if h.signature.cause == finding.cause]
    wheres = [w for h in hits for w, _ in h.citations]
    # The detail's own citations open its lines (``line 12: ...``); a frame's "line 40" not.
    wheres += [m[0] for m in _CITED_LINE.finditer(finding.detail)]
    positions = [p for p in map(_position, wheres) if p is not None]
    if any(p < went for p in positions):
        return False
    said = f"{finding.summary}\n{finding.detail}"
    named = _notice_names(evidence.conflicts, evidence.import_checks)
    named_here = {n for n in named if re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w-])", said)}
    if named_here and named_here & evidence.named_before_work:
        return False
    return bool(positions) or bool(named_here)


def _process_ended(evidence: Evidence) -> bool:
    """Whether the log shows a process ending without a traceback: a crash's own words
    (:func:`tfdoctor.evidence.progress.crash_shown`) or a line of a signature tagged
    ``process-ended`` (a shell's, IDE's or runtime's report of a signal that ended it)."""
    hits = evidence.hits.values()
    return evidence.crashed or any(PROCESS_ENDED in h.signature.tags for h in hits)


def _went_on_seen(evidence: Evidence) -> dict[str, str]:
    """The observations a log's own lines make where nothing failed (no exception that ended
    the run, no refusal of pip's, no crash): the run did its work (an epoch to its end, a model
    saved, tests passed), where TensorFlow's own work (:attr:`WentOn.tensorflow`) shows the
    import ran too; or TensorFlow printed its version
    when asked (``tf.__version__``), which it does only once imported. Empty otherwise, and
    where a line of the log reports a process ended by a signal (a signature tagged
    ``process-ended``: the shells', IDEs' and runtimes' words, which print no traceback)."""
    echoed = evidence.echoed.get("tensorflow")
    if (
        (evidence.went_on is None and echoed is None)
        or _process_ended(evidence)
        or evidence.refusals
        or failures([tb for tb in evidence.tracebacks if not tb.warned])
    ):
        return {}
    imported = f"TensorFlow {echoed} imported (the log prints its version)" if echoed else ""
    if evidence.went_on is None:
        return {"tf-imports": imported}
    where, went = evidence.went_on
    words = f"The run went on: {went.what} ({where})"
    if not went.tensorflow:
        # Tests that passed, or Keras 3 on a backend of its choice, do not show TensorFlow
        # imported: only a version printed does.
        return {"run-went-on": words, **({"tf-imports": imported} if imported else {})}
    return {"run-went-on": words, "tf-imports": words}


def _warned_capped(found: Iterable[Finding], evidence: Evidence) -> list[Finding]:
    """``found`` with the errors read only from a warning the program went on after (an
    exception AutoGraph names as the cause it ran a function unconverted) made warnings."""
    said = [f"{tb.where}: {tb.type}: {tb.message}" for tb in evidence.tracebacks if tb.warned]
    if not said:
        return list(found)
    return [
        dataclasses.replace(x, severity=Severity.WARNING)
        if x.severity is Severity.ERROR and any(s in x.detail for s in said)
        else x
        for x in found
    ]


#: The signature of ctypes' "Could not find module '...' (or one of its dependencies)" on
#: Windows (Modules/_ctypes/callproc.c): a package that loads an optional DLL this way often
#: catches the error and reports it as a Python warning, then goes on without it.
_CTYPES_MODULE_UNFOUND = "ctypes-windows-module-not-found"
#: A line the warnings module printed: ``file:line: Category: message``, every category's name
#: ending in Warning (Lib/warnings.py, formatwarning; the built-in categories' names).
_PYTHON_WARNING_LINE = re.compile(r"\b[A-Za-z]*Warning: ")


def _ctypes_unfound_went_on(found: Finding, hits: Sequence[Hits], evidence: Evidence) -> Finding:
    """``found`` as a note where ctypes' DLL not found is its only line and the program did
    not end on it: every such line sits in a Python warning, or the log shows the run went on
    (:func:`_went_on_seen`), and nothing else failed."""
    if (
        found.severity.rank <= Severity.INFO.rank
        or not hits
        or any(h.signature.id != _CTYPES_MODULE_UNFOUND for h in hits)
    ):
        return found
    warned = all(
        h.count == len(h.citations)
        and all(_PYTHON_WARNING_LINE.search(line) for _, line in h.citations)
        for h in hits
    )
    went_on = "run-went-on" in _went_on_seen(evidence)
    if not (went_on or (warned and all(tb.warned for tb in evidence.tracebacks))):
        return found
    why = (
        "the log shows the run went on after it"
        if went_on
        else "it is printed as a Python warning, which the program goes on after"
    )
    return dataclasses.replace(
        found,
        severity=Severity.INFO,
        detail=f"{found.detail}\nA DLL that did not load, but {why}: a package that loads an "
        "optional library this way runs without it. The fix applies only if what the library "
        "provides is needed.",
    )


def _said_to_go_on(found: Finding, hits: Sequence[Hits]) -> Finding:
    """``found`` made a warning where one of its lines is the program's own word that it goes
    on past it (a signature tagged ``goes-on``: HDF5's version check the user disabled)."""
    if found.severity is not Severity.ERROR or not any(GOES_ON in h.signature.tags for h in hits):
        return found
    said = next((line for h in hits if GOES_ON in h.signature.tags for _, line in h.citations), "")
    return dataclasses.replace(
        found,
        severity=Severity.WARNING,
        detail=f"{found.detail}\nThe program says it goes on ({said.strip()}): this did not "
        "end the run, though what it warns of may still go wrong later.",
    )


#: NCCL's verbs wrapper's warning that a call failed (misc/ibvwrap.cc), and its lines naming
#: the socket transport it uses then: net_socket.cc's "NET/Socket : Using [0]eth0:..." and
#: init.cc's "Using network Socket". ncclNetInit tries the IB transport first and, where its
#: init fails, the next one (src/net.cc): the run goes on over sockets.
_IBV_CALL_FAILED = re.compile(r"NCCL WARN Call to ibv_\w+ failed")
_NCCL_SOCKET_CHOSEN = re.compile(r"NCCL INFO (?:NET/Socket : Using\b|Using network Socket\b)")


def _nccl_fell_back_to_sockets(found: Finding, hits: Sequence[Hits], evidence: Evidence) -> Finding:
    """``found`` as a note where NCCL's InfiniBand failure is only a verbs call that failed
    (no completion error of a running collective) and NCCL went on: the log names its socket
    transport after the last such line and nothing failed, or the run went on
    (:func:`_went_on_seen`)."""
    if (
        found.severity.rank <= Severity.INFO.rank
        or not hits
        or any(h.signature.id != "nccl-infiniband-failure" for h in hits)
        or not all(_IBV_CALL_FAILED.search(line) for h in hits for _, line in h.citations)
    ):
        return found
    text = evidence.first_text
    last = max((m.end() for m in _IBV_CALL_FAILED.finditer(text)), default=-1)
    sockets = last >= 0 and _NCCL_SOCKET_CHOSEN.search(text, last) is not None
    failed = evidence.refusals or failures([tb for tb in evidence.tracebacks if not tb.warned])
    if not ((sockets and not failed) or "run-went-on" in _went_on_seen(evidence)):
        return found
    return dataclasses.replace(
        found,
        severity=Severity.INFO,
        detail=f"{found.detail}\nNCCL went on without InfiniBand: "
        + (
            "it chose its socket transport after the failed call"
            if sockets
            else "the log shows the run went on"
        )
        + ". Collectives run slower over sockets; the fix applies only where InfiniBand "
        "(or RoCE) should carry them.",
    )


#: A client's notice that it will try again: pip's (urllib3's Retry) and TensorFlow's own
#: (retrying_utils.cc). The program went on; alone, it does not say how the download ended.
_RETRY_NOTICE = re.compile(r"\bRetrying \(Retry\(|will be automatically retried")


def _retried_only(found: Finding, hits: Sequence[Hits], evidence: Evidence) -> Finding:
    """``found`` made a warning where a failed connection is read only from retry notices
    (every line its signatures matched is cited, and is one) and nothing else in the log
    failed: no refusal of pip's, no exception, no other cause's error line."""
    if (
        found.severity is not Severity.ERROR
        or found.cause not in _CONNECTION_CAUSES
        or evidence.refusals
        or any(not tb.warned for tb in evidence.tracebacks)
        or any(
            h.signature.severity == "error" and h.signature.cause not in _CONNECTION_CAUSES
            for h in evidence.hits.values()
        )
        or not all(
            h.count == len(h.citations)
            and all(_RETRY_NOTICE.search(line) for _, line in h.citations)
            for h in hits
        )
    ):
        return found
    return dataclasses.replace(
        found,
        severity=Severity.WARNING,
        detail=found.detail
        + "\nThe log shows only that the program tried again, not that the download failed in "
        "the end: harmful where the retries run out.",
    )


def _pip_unreached_index(by_cause: dict[str, list[Hits]]) -> None:
    """pip's empty list of releases after its connection failed is the connection's."""
    if any(
        "Retrying (Retry(" in line or "pip._vendor" in line
        for cause in _CONNECTION_CAUSES
        for h in by_cause.get(cause, ())
        for _, line in h.citations
    ):
        # pip could not reach its index: "from versions: none" then says nothing of the
        # wheels, only that pip saw none.
        by_cause.pop(causes.platform.TF_NO_WHEEL_FOR_PYTHON, None)


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
    _nccl_names_its_cuda_failure(by_cause)
    _dump_is_the_named_allocators(by_cause)
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
        for signature in ("numpy-multiarray-failed", "numpy-umath-failed"):
            _without(by_cause, causes.software.DEPENDENCY_OUT_OF_RANGE, signature)


#: The BFC allocator's dump lines that name no allocator (bfc_allocator.cc's DumpMemoryLog and
#: RenderOccupancy), read as the GPU's; and the lines that name a host allocator.
_UNNAMED_DUMP = frozenset(
    {"bfc-dump-chunks", "bfc-dump-stats", "bfc-dump-region", "bfc-dump-occupancy"}
)
_HOST_ALLOCATOR = frozenset(
    {"bfc-host-ran-out", "bfc-cpu-ran-out", "bfc-cpu-dump-head", "oom-allocating-host"}
)


def _dump_is_the_named_allocators(by_cause: dict[str, list[Hits]]) -> None:
    """An allocator's dump whose lines name no allocator, in a log that names only a host one
    running out (its pinned or CPU BFC allocator): the dump is that allocator's, host memory."""
    gpu = by_cause.get(causes.runtime.GPU_OUT_OF_MEMORY, [])
    host = by_cause.get(causes.runtime.HOST_OUT_OF_MEMORY, [])
    if not gpu or not any(h.signature.id in _HOST_ALLOCATOR for h in host):
        return
    if all(h.signature.id in _UNNAMED_DUMP for h in gpu):
        host.extend(gpu)
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


#: NCCL's own warning naming the CUDA call that failed (checks.h, CUDACHECK), before the
#: "unhandled cuda error" it returns.
_NCCL_CUDA_FAILURE = "NCCL WARN Cuda failure "

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
        _NCCL_CUDA_FAILURE in line
        for cause, hits in by_cause.items()
        if cause != causes.gpu.NCCL_CUDA_MISMATCH and cause not in _NCCL_BUILD_FAILURES
        for hit in hits
        for _, line in hit.citations
    ):
        del by_cause[causes.gpu.NCCL_CUDA_MISMATCH]


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
        _hits_by(
            by_cause, causes.software.CUSTOM_OP_BUILD_MISMATCH, "horovod-extension-crash-frame"
        )
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
    waits = _hits_by(
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
    polled = _hits_by(
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
    hits = _hits_by(by_cause, causes.platform.MSVC_RUNTIME_MISSING, "windows-error-126")
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


#: Transformers' words that it has no TensorFlow: its TF classes' placeholders (and the names
#: its __init__ then leaves undefined), and its notice at import that it found no framework.
_NO_TF_SIGNATURES = frozenset(
    {
        "transformers-requires-tensorflow",
        "transformers-tf-classes-missing",
        "transformers-no-framework",
    }
)


def _unrecognised_distribution(
    evidence: Evidence, machine: Machine, by_cause: dict[str, list[Hits]], benign: list[Hits]
) -> Optional[Finding]:
    """Transformers saying TensorFlow is absent where a listing in the log shows TensorFlow 2
    installed under another distribution name than ``tensorflow``: its release looks
    TensorFlow up by a list of names that lacks that one (src/transformers/utils/
    import_utils.py, ``candidates``). The finding replaces "not installed", whose fix would
    install a second TensorFlow over the first, and the notice."""
    said = [
        h
        for h in (*by_cause.get(causes.software.TF_NOT_INSTALLED, ()), *benign)
        if h.signature.id in _NO_TF_SIGNATURES
    ]
    if not said or "tensorflow" in evidence.listed:
        return None  # the plain name is one every release looks for: another reason
    tf_listed = {n: v for n, v in evidence.listed.items() if n in TF_DISTRIBUTIONS}
    # A TensorFlow 1.x is refused for its version ("TensorFlow >= 2.0"), not for its name.
    shown = next(((n, v) for n, v in tf_listed.items() if version_key(v)[:1] >= (2,)), None)
    logged = evidence.tf_logged_at
    tf1 = machine.tf is not None and version_key(machine.tf.version)[:1] < (2,)
    if shown is None and (logged is None or tf_listed or tf1):
        # No TensorFlow 2 listed, and no line of TensorFlow's own beside nothing that says
        # it is 1.x.
        return None
    ids = {h.signature.id for h in said}
    for hit in said:
        if hit.signature.cause == BENIGN:
            benign.remove(hit)
        else:
            _without(by_cause, causes.software.TF_NOT_INSTALLED, hit.signature.id)
    cause = causes.software.TF_DISTRIBUTION_UNRECOGNISED
    fix = causes.software.unrecognised_distribution_fix(
        machine, "transformers", *(shown or (None, ""))
    )
    if shown is None:
        # TensorFlow's own lines say it imported, not under which name or release: an
        # inference, a warning.
        return causes.finding(
            f"explain.{cause}",
            Severity.WARNING,
            cause,
            "Transformers reports no TensorFlow where TensorFlow's own lines show it imported",
            f"{_cite(said)}\nTensorFlow's own logger wrote to this log ({logged}): TensorFlow "
            "is installed where it ran. Transformers looks it up by distribution name and "
            "counts only TensorFlow 2, so either its release does not know the name TensorFlow "
            "is installed under, or the TensorFlow is 1.x.",
            fix,
        )
    dist, version = shown
    return causes.finding(
        f"explain.{cause}",
        # The placeholders raise; the notice alone leaves the program running without models.
        Severity.WARNING if ids == {"transformers-no-framework"} else Severity.ERROR,
        cause,
        f"Transformers does not recognise TensorFlow installed as {dist}",
        f"{_cite(said)}\nThe log lists {dist} {version}: TensorFlow is installed, under a "
        "distribution name the Transformers release does not look for, so it treats "
        "TensorFlow as absent.",
        fix,
    )


#: Python 3.8's words for an extension Windows refused, naming the module (Python/
#: dynload_win.c from v3.8.0; 3.7 and older print "DLL load failed:" alone).
_NAMED_REFUSAL = re.compile(r"DLL load failed while importing \w")


def _python_after_gpu_dlls(m: Machine, hits: Sequence[Hits]) -> bool:
    """Whether the Python the log shows (its version, or Python 3.8's wording of the refusal:
    3.8 or later) has no Windows wheel of any TensorFlow up to 2.0 in the matrix, whose GPU
    builds link the CUDA DLLs at import: the TensorFlow that failed is 2.1 or later."""
    named = any(_NAMED_REFUSAL.search(line) for h in hits for _, line in h.citations)
    python = m.python_version or ("3.8" if named else None)
    if python is None or m.matrix is None:
        return False
    if named and version_key(python) < (3, 8):
        python = "3.8"  # the wording is 3.8's whatever an older path says
    old = [x for x in m.matrix.lines if version_key(x.line)[:2] <= (2, 0)]
    return bool(old) and not any(x.has_wheels_for(python, "windows") for x in old)


def _gpu_dll_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
) -> Optional[Finding]:
    """Windows refusing TensorFlow's own module for a DLL it did not find, where the log does
    not rule out a GPU build of 2.0 or older: the CUDA and cuDNN DLLs such a build links are
    the other candidate beside the Visual C++ runtime, a warning with the listing that tells.
    None for 2.1 and later (they load CUDA when the GPU is first used), a Python no release up
    to 2.0 has Windows wheels for (:func:`_python_after_gpu_dlls`), a CPU build shown, a
    CUDA library's own finding, or another package's extension."""
    missing = findings.get(f"explain.{causes.platform.MSVC_RUNTIME_MISSING}")
    hits = _hits_by(by_cause, causes.platform.MSVC_RUNTIME_MISSING, "windows-dll-not-found")
    version = m.tf.version if m.tf is not None else r.tf_version
    if (
        missing is None
        or missing.cause != causes.platform.MSVC_RUNTIME_MISSING
        or not hits
        or (version is not None and version_key(version)[:2] >= (2, 1))
        or m.cpu_only_distribution
        or f"explain.{causes.gpu.CUDA_LIBS_MISSING}" in findings
        or (version is None and _python_after_gpu_dlls(m, hits))
    ):
        return None
    return causes.finding(
        f"explain.{causes.gpu.CUDA_LIBS_MISSING}",
        Severity.WARNING,
        causes.gpu.CUDA_LIBS_MISSING,
        "Or: a CUDA or cuDNN DLL a GPU build of TensorFlow 2.0 or older links (the other "
        "candidate)",
        _cite(hits) + "\nWindows names no DLL: the Visual C++ runtime (the finding above) and, "
        "for a GPU build of 2.0 or older, the CUDA and cuDNN DLLs of its release are refused "
        "in the same words. Whether they are on PATH tells the two apart.",
        causes.gpu.windows_gpu_dlls_fix(),
    )


#: A container started by a command the log shows (its GPU flags, or that it is another
#: container, decide: evidence.devices.container_run_without_gpu reads them).
_CONTAINER_STARTED = re.compile(r"\b(?:nvidia-docker|docker|podman)[ \t]+(?:container[ \t]+)?run\b")


def _container_candidate(
    findings: Mapping[str, Finding],
    by_cause: Mapping[str, Sequence[Hits]],
    m: Machine,
    r: Revealed,
    evidence: Evidence,
) -> Optional[Finding]:
    """libcuda.so.1 missing where the log tells no container from a machine of its own: a
    container started without the GPU is the other candidate (its image carries CUDA, never
    the driver's library, which the NVIDIA runtime mounts), a warning with what tells the two
    apart. None where the log or the facts decide: a container shown (the builder's answer
    then), a hosted notebook (its runtime type, not a container's start, gives the GPU),
    native Windows, macOS or WSL, the driver's kernel module or nvidia-smi's GPU."""
    missing = findings.get(f"explain.{causes.gpu.DRIVER_LIBRARIES_MISSING}")
    hits = _hits_by(by_cause, causes.gpu.DRIVER_LIBRARIES_MISSING, "import-needs-libcuda")
    if (
        missing is None
        or not hits
        or missing.severity.rank < Severity.WARNING.rank
        or m.facts.platform is not None
        or m.container is not None
        or r.notebook
        or m.os not in (None, "linux")
        or r.wsl
        or r.kernel_module
        or r.smi_gpu
        or _CONTAINER_STARTED.search(evidence.first_text)
    ):
        return None
    fix = causes.container.container_gpu_fix(m)
    return causes.other_candidate(
        causes.container.CONTAINER_NO_GPU,
        "a container started without the GPU",
        _cite(hits) + "\nlibcuda.so.1 comes with the NVIDIA driver: a machine without the "
        "driver and a container started without the NVIDIA runtime both lack it, and the log "
        "shows neither. Inside a container /.dockerenv (Docker) or /run/.containerenv (Podman) "
        "exists: then this is the cause; else the driver is (the finding above).",
        Fix(fix.text, ("ls /.dockerenv /run/.containerenv", *fix.commands)),
    )


#: The GPU failures a TensorFlow of another release than the hosted image's shows: its cuDNN
#: or CUDA libraries are not the ones the image carries.
_IMAGE_PAIRING_CAUSES = (
    causes.gpu.CUDNN_VERSION_MISMATCH,
    causes.gpu.CUDNN_SHADOWED,
    causes.runtime.GPU_LIBRARY_INIT_FAILED,
    causes.gpu.CUDA_LIBS_MISSING,
)
#: pip's list of what it installed (its "Successfully installed" line), read for TensorFlow's
#: own distributions with their release (``tensorflow-2.6.0``, ``tf-nightly-2.10.0.dev20220601``).
_PIP_INSTALLED_TF = re.compile(
    r"[^\n]{0,4000}?(?<![\w.-])"
    r"(?P<dist>tensorflow(?:-gpu|-cpu)?|tf-nightly(?:-gpu|-cpu)?)-(?P<version>\d[\w.+]{0,40})"
)


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
    r"(?<![\w.-])[\"']?(?P<dist>tensorflow(?:-gpu|-cpu)?|tf-nightly(?:-gpu|-cpu)?)"
    r"==(?P<version>\d[\w.]{0,40})",
    re.MULTILINE,
)
#: pip about to replace one of TensorFlow's distributions (req_uninstall.py's "Found existing
#: installation: %s" and "Successfully uninstalled %s"), and the pinned release it collected
#: for it (prepare.py's "Collecting %s"): a log cut before pip's final list still shows the
#: replacement.
_PIP_REPLACING_TF = re.compile(r"(?P<dist>tensorflow(?:-gpu|-cpu)?|tf-nightly(?:-gpu|-cpu)?)[ -]\d")
_PIP_REPLACING = (PipKind.FOUND_EXISTING, PipKind.UNINSTALLED)
_PIP_COLLECTING_TF = re.compile(
    r"(?P<dist>tensorflow(?:-gpu|-cpu)?|tf-nightly(?:-gpu|-cpu)?)==(?P<version>\d[\w.]{0,40})"
)
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
    found = next(_pip_said(text, _PIP_INSTALLED_TF, PipKind.INSTALLED), None)
    if found is not None:
        return found.match.group("dist"), found.match.group("version")
    pinned = _KERNEL_TF_PIN.search(text) if "install" in text else None
    if pinned is not None:
        return pinned.group("dist"), pinned.group("version")
    dist = next((d for d in evidence.kernel_installs if d in TF_DISTRIBUTIONS), None)
    if dist is not None:
        return dist, None
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
#: before 9: "(use --upgrade to upgrade)"), with the version it printed last on the line where
#: it did.
_PIP_SATISFIED_TF = re.compile(
    r"(?: \(use --upgrade to upgrade\))?: "
    r"(?P<dist>tensorflow(?:-gpu|-cpu)?|tf-nightly(?:-gpu|-cpu)?)(?:[<>=!~][^\s]{0,60})? in "
    r"[^\n]{0,400}?(?:\((?P<version>\d[\w.+]{0,40})\))?[ \t]*$"
)


def _pip_added_beside(evidence: Evidence, machine: Machine) -> Optional[Finding]:
    """pip installing one of TensorFlow's distributions where it found another installed
    (a dependant that requires ``tensorflow`` pulled it in beside ``tensorflow-gpu``, as
    Keras 2.0 did): two distributions now write the same ``tensorflow/`` package."""
    head = evidence.first_text
    if pip_words(PipKind.SATISFIED) not in head or _INSTALLED not in head:
        return None
    installed = next(_pip_said(head, _PIP_INSTALLED_TF, PipKind.INSTALLED), None)
    if installed is None:
        return None
    added = installed.match.group("dist")
    for found in _pip_said(head, _PIP_SATISFIED_TF, PipKind.SATISFIED):
        kept = found.match.group("dist")
        if kept == added or f"{pip_words(PipKind.UNINSTALLED)}{kept}-" in head:
            continue
        seen = {kept: found.match.group("version") or "", added: installed.match.group("version")}
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
        f"TensorFlow replaced on {image.title}, whose CUDA and cuDNN are built for its own",
        failure
        + f"\nThe log installs {what} on {image.title} (its paths show the notebook) before "
        "this failure.",
        causes.hosted.installed_over_image_fix(m, image, dist, version),
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
        _cite(hits)
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
        return _cite(hits)
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
            return None  # (a crash before the install is not the install's)
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
            f"TensorFlow replaced on {image.title}, whose CUDA and cuDNN are built for its own",
            f"{failure}\n{said}, before this failure.",
            causes.hosted.installed_over_image_fix(m, image, dist, version),
        )
    return causes.finding(
        f"explain.{causes.hosted.HOSTED_TF_REPLACED}",
        Severity.WARNING,
        causes.hosted.HOSTED_TF_REPLACED,
        f"The notebook replaced the TensorFlow {image.title} ships",
        f"{said}: the image's CUDA and cuDNN libraries and its other packages are built and "
        "tested with its own TensorFlow, and stay as they were.",
        causes.hosted.installed_over_image_fix(m, image, dist, version),
    )


def _image_tensorflow_removed(
    evidence: Evidence, notebook: Optional[str], installed: tuple[str, Optional[str]], m: Machine
) -> Optional[Finding]:
    """pip removing the TensorFlow the hosted ``notebook``'s image had and installing another
    release, with no failure after it: the replacement observed, a warning (the image's CUDA
    and cuDNN wheels and its add-ons stay at its own release). None where pip's removal is not
    shown, or it put the same release back."""
    # An image ships a release of tensorflow (or its -gpu/-cpu name), never tf-nightly.
    removed = next(
        (x for x in PIP_TF_REMOVED.finditer(evidence.first_text) if x["dist"].startswith("tens")),
        None,
    )
    dist, version = installed
    image = causes.hosted.hosted_image(notebook)
    if (
        image is None
        or removed is None
        or version is None
        # A local label (``+zzzcolab...``) names a build of the same release.
        or removed["version"].split("+")[0] == version
    ):
        return None
    return causes.finding(
        f"explain.{causes.hosted.HOSTED_TF_REPLACED}",
        Severity.WARNING,
        causes.hosted.HOSTED_TF_REPLACED,
        f"The notebook replaced the TensorFlow {image.title} ships",
        f"{removed.group(0).strip()}\npip removed TensorFlow {removed['version']} from "
        f"{image.title} (its paths show the notebook) and installed {dist} {version}: the "
        "image's CUDA and cuDNN libraries and its other packages are built and tested with "
        "its own TensorFlow, and stay as they were.",
        causes.hosted.installed_over_image_fix(m, image, dist, version),
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


#: No module of the name in a top-level import: ``No module named 'x'`` (Python 3's words).
_NO_TOP_MODULE = re.compile(r"^No module named '(?P<module>[A-Za-z_]\w*)'$")


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


#: The event Kubernetes' scheduler records when it binds a pod to a node
#: (pkg/scheduler/schedule_one.go: "Successfully assigned %v/%v to %v").
_POD_ASSIGNED = "Successfully assigned "


def _settle_pod_scheduled(evidence: Evidence, findings: dict[str, Finding]) -> None:
    """Kubernetes' scheduler refusing a pod for want of a free GPU, then assigning it (a GPU
    freed, or the cluster autoscaler added a node): the refusal was a wait, not the failure,
    so its finding becomes a note. Not where other lines show the container without a GPU."""
    key = f"explain.{causes.container.CONTAINER_NO_GPU}"
    found = findings.get(key)
    if (
        found is None
        or found.severity.rank < Severity.WARNING.rank
        or "k8s-insufficient-gpu" not in evidence.hits
        or any(
            h.signature.cause == causes.container.CONTAINER_NO_GPU
            for sid, h in evidence.hits.items()
            if sid != "k8s-insufficient-gpu"
        )
    ):
        return
    text = evidence.first_text
    refused = text.find("Insufficient nvidia.com/gpu")
    if text.find(_POD_ASSIGNED, max(refused, 0)) < 0:
        return
    findings[key] = dataclasses.replace(
        found,
        severity=Severity.INFO,
        detail=found.detail + "\nThe scheduler assigned the pod to a node afterwards: it waited "
        "for a free GPU, and got one.",
    )


#: The readings of a driver not reached that assume a Linux driver inside the machine: a
#: kernel module to load, its user-space libraries, their versions, cuInit's bare failure, CUDA
#: seeing no device (CUDA_VISIBLE_DEVICES aside), a container's GPU access where none is shown.
_LINUX_DRIVER_READINGS = (
    causes.gpu.DRIVER_NOT_LOADED,
    causes.gpu.DRIVER_LIBRARIES_MISSING,
    causes.gpu.DRIVER_VERSION_MISMATCH,
    causes.gpu.CUINIT_UNKNOWN_ERROR,
    causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN,
    # cuInit's shared-object failure read as a container's, where the log shows none.
    causes.container.CONTAINER_NO_GPU,
)


#: WSL 2 named in the user's words (``Ubuntu 22.04 on WSL2``, ``WSL 2``): beside the Linux
#: driver's messages (libcuda, nvidia-smi, cuInit), the machine that printed them.
_WSL2_SAID = re.compile(r"\bWSL ?2\b", re.IGNORECASE)

#: TensorFlow creating a GPU device (gpu_device.cc's ``Created device
#: /job:localhost/replica:0/task:0/device:GPU:0 with 9000 MB memory``, older releases'
#: ``Created TensorFlow device (...)``): the driver answered.
_GPU_DEVICE_CREATED = re.compile(r"Created (?:TensorFlow )?device [^\n]{0,300}?device:GPU:\d")


def _settle_wsl2(evidence: Evidence, machine: Machine, findings: dict[str, Finding]) -> None:
    """WSL 2 shown (its kernel, its driver directory, the form's or the user's words) beside
    a driver not reached, outside a container: ``wsl-driver-broken`` in place of the Linux driver's
    readings. A WSL 2 distribution has no NVIDIA kernel module of its own: the Windows
    driver gives it the GPU through /dev/dxg and the libraries WSL mounts in
    /usr/lib/wsl/lib (libcuda.so.1, libnvidia-ml.so.1), and NVIDIA's guide says to install
    no Linux driver inside it. So libcuda not loading, cuInit failing or CUDA seeing no
    device there is WSL's GPU support or the Windows driver (or a Linux driver installed over
    them), and loading a module or installing a Linux driver changes nothing.
    https://docs.nvidia.com/cuda/wsl-user-guide/index.html
    https://learn.microsoft.com/windows/wsl/tutorials/gpu-compute
    """
    # Only where the words say the failing run is under WSL 2 ("works on WSL2, fails on my
    # server" names another machine).
    said = failing_run_names(_WSL2_SAID, evidence.first_text) if machine.wsl is None else None
    if (machine.wsl != "WSL2" and said is None) or machine.container:
        # WSL 1 in the machine's facts is wsl1's (no GPU at all); a container's GPU access
        # is the container runtime's (container-no-gpu).
        return
    named = machine.wsl or (said.group(0) if said is not None else "WSL 2")
    if _GPU_DEVICE_CREATED.search(evidence.first_text) is not None or any(
        (listing.gpus or 0) > 0 for _, listing in evidence.devices
    ):
        # TensorFlow reached a GPU: the Windows driver answered, and what failed beside it
        # (cuDNN opening libcuda.so by its unversioned name) is the readings' own.
        return
    for key, x in list(findings.items()):
        if x.cause not in _LINUX_DRIVER_READINGS or x.severity.rank < Severity.WARNING.rank:
            continue
        if x.cause == causes.gpu.CUDA_VISIBLE_DEVICES_HIDDEN and evidence.visible_devices:
            continue  # the variable is shown: it may hide the GPU
        del findings[key]
        other = "Or: " if x.summary.startswith("Or: ") else ""
        found = causes.finding(
            f"explain.{causes.platform.WSL_DRIVER_BROKEN}",
            x.severity,
            causes.platform.WSL_DRIVER_BROKEN,
            f"{other}Under WSL 2 the GPU is not reached through the Windows driver",
            f"{x.detail}\nThe log shows WSL 2 ({named}): its GPU comes from the Windows "
            "driver through the libraries WSL mounts in /usr/lib/wsl/lib, not from a Linux "
            "driver inside the distribution.",
            causes.platform.wsl_gpu_fix(machine),
        )
        keep_weightier(findings, found)


#: What TensorFlow or nvidia-smi says of a GPU it cannot reach, read as a machine's driver:
#: under WSL 1, which gives Linux no GPU at all, the cause is WSL's version, and these fixes
#: (load a kernel module, install a driver, start a container with --gpus) change nothing.
_NO_GPU_REACHED = (
    causes.gpu.DRIVER_NOT_LOADED,
    causes.gpu.DRIVER_LIBRARIES_MISSING,
    causes.gpu.DRIVER_VERSION_MISMATCH,
    causes.gpu.CUINIT_UNKNOWN_ERROR,
    causes.container.CONTAINER_NO_GPU,
    causes.platform.WSL_DRIVER_BROKEN,
    causes.platform.GPU_ACCESS_BLOCKED,
)


def _settle_wsl1(evidence: Evidence, findings: dict[str, Finding]) -> None:
    """WSL 1 shown (:func:`tfdoctor.evidence.devices.wsl1_shown`) beside a GPU not reached
    (a driver's finding, no GPU listed, the user's complaint): ``wsl1`` in place of the
    driver's findings. WSL 1 alone is no fault: TensorFlow runs there on the CPU. Not where
    the log shows WSL 2 too (its kernel or driver directory, ``evidence.wsl``): a distribution
    converted, or another one run, and the driver's findings are WSL 2's own."""
    shown = wsl1_shown(evidence.first_text) if not evidence.wsl else None
    if shown is None:
        return
    drivers = [k for k, x in findings.items() if x.cause in _NO_GPU_REACHED]
    no_gpu = any(listing.gpus == 0 for _, listing in evidence.devices)
    if not drivers and not no_gpu and evidence.gpu_complaint is None:
        return
    complaint = evidence.gpu_complaint
    said = "\n".join(
        [shown, *(findings[k].summary for k in drivers)]
        + ([f"{complaint[0]}: {complaint[1]}"] if complaint is not None else [])
    )
    for key in drivers:
        del findings[key]
    found = causes.finding(
        f"explain.{causes.platform.WSL1}",
        Severity.ERROR,
        causes.platform.WSL1,
        "Linux runs under WSL 1, which gives it no GPU",
        f"{said}\nThe kernel release (4.4.0-...-Microsoft) or `wsl -l -v` shows WSL 1: CUDA "
        "reaches a GPU only under WSL 2.",
        causes.platform.wsl1_fix(),
    )
    findings.setdefault(found.id, found)


#: A package imported from a home directory: the user site-packages
#: (``~/.local/lib/python3.10/site-packages``) or an environment installed under it
#: (``~/miniforge3/lib/...``, ``~/miniconda3/envs/x/lib/...``, ``~/venv/lib/...``).
_HOME_PACKAGE = re.compile(
    r"^(?P<path>/(?:home/[^/\s]+|root)/(?:[^\s]*?/)?lib/python\d\.\d+/site-packages/"
    r"(?P<package>[A-Za-z_]\w*))"
)


def _settle_host_python_leak(evidence: Evidence, findings: dict[str, Finding]) -> None:
    """A program run in an Apptainer (Singularity) container, or a Docker or Podman one whose
    command binds a home directory or passes PYTHONPATH in, whose failing traceback imports a
    package from a home directory: the host's environment (PYTHONPATH) or its home, which the
    container binds, put the host's package before the image's. The finding leads; what the
    package's failure reads as (another release, another NumPy) stays, a warning."""
    shared = container_shares_host_python(evidence.first_text)
    tool = shared[0] if shared is not None else apptainer_shown(evidence.first_text)
    tb = last_failure(evidence.tracebacks) if tool is not None else None
    home = next(
        (m for fr in (tb.frames if tb else ()) if (m := _HOME_PACKAGE.match(fr.path))), None
    )
    if tool is None or tb is None or home is None:
        return
    for key, x in list(findings.items()):
        if x.severity.rank > Severity.WARNING.rank:
            findings[key] = dataclasses.replace(x, severity=Severity.WARNING)
    found = causes.finding(
        f"explain.{causes.container.CONTAINER_HOST_PYTHON_LEAK}",
        Severity.ERROR,
        causes.container.CONTAINER_HOST_PYTHON_LEAK,
        f"The {tool} container imports {home.group('package')} from the host's home directory",
        f"{tb.where}: {tb.type}: {tb.message}\nThe traceback's code comes from "
        f"{home.group('path')}, under a home directory the container shares with the host, "
        "not from the image.",
        causes.container.host_python_leak_fix(tool, home.group("path")),
    )
    findings.setdefault(found.id, found)


def _settle_kernel_install(evidence: Evidence, findings: dict[str, Finding]) -> None:
    """The kernel's finding (:func:`_kernel_without_install`) in place of "not installed":
    pip put the module where the kernel does not look, and that fix would send the next
    install to the same wrong interpreter."""
    kernel = _kernel_without_install(evidence)
    if kernel is None:
        return
    for key in ("explain.package-not-installed", "explain.tf-not-installed"):
        findings.pop(key, None)
    findings.setdefault(kernel.id, kernel)


def _kernel_without_install(evidence: Evidence) -> Optional[Finding]:
    """A notebook's kernel (IPython's traceback) that cannot import a module whose
    distribution pip says it installed, or found installed, in the log: pip ran for another
    interpreter than the kernel's (a terminal's environment, ``!pip`` of the shell's PATH).
    Not where ``%pip`` installed it (the kernel's own interpreter), nor into the user's site
    directory, which a kernel started before it existed does not search (a restart's
    matter)."""
    text = evidence.first_text
    if "%pip install" in text:
        return None
    installed = read_pip_installed(text) if "pip" in text or "Successfully" in text else []
    # pip show reports what is installed whenever it ran: before the failure or after it, a
    # distribution it shows that the kernel cannot import is another interpreter's (unless an
    # install after the failure put it there: below).
    shown = read_pip_shown(text)
    if not installed and not shown:
        return None
    for tb in evidence.tracebacks:
        match = _NO_TOP_MODULE.match(tb.message.strip()) if tb.ipython else None
        if match is None:
            continue
        module = match.group("module")
        dist = normalize_name(distribution_of(module) or module)
        said = [text.find(w) for w in ("Successfully installed", "Requirement already satisfied")]
        pip_at = min((x for x in said if x >= 0), default=-1)
        failed_at = text.rfind(tb.message.strip())
        # An install after the failure was its remedy, not another interpreter's, and a pip
        # show after that install reports the remedy.
        remedied = text.find("Successfully installed", failed_at) >= 0
        if (dist not in shown or remedied) and (
            dist not in installed or not 0 <= pip_at < failed_at
        ):
            continue
        return causes.finding(
            f"explain.{causes.notebook.KERNEL_ENV_MISMATCH}",
            Severity.ERROR,
            causes.notebook.KERNEL_ENV_MISMATCH,
            f"pip installed {dist}, yet the notebook's kernel finds no {module}: it runs "
            "another Python",
            f"{tb.where}: {tb.type}: {tb.message}\npip reports {dist} installed in the "
            "environment it ran for; the kernel's interpreter does not see it, so pip and the "
            "kernel are two Pythons.",
            causes.notebook.kernel_install_fix(dist),
        )
    return None


def _kernel_python(evidence: Evidence, by_cause: dict[str, list[Hits]]) -> Optional[Finding]:
    """TensorFlow missing in a notebook while the log shows interpreters of two environments:
    the kernel imports from another Python than the one TensorFlow went into. The finding
    replaces "not installed" (whose fix would install into the wrong one again)."""
    hits = by_cause.get(causes.software.TF_NOT_INSTALLED)
    if not hits or not (evidence.jupyter or any(tb.ipython for tb in evidence.tracebacks)):
        return None
    prefixes: list[str] = []
    pythons: list[str] = []
    for python in evidence.interpreters:
        prefix = interpreter_prefix(python)
        if prefix not in prefixes:
            prefixes.append(prefix)
            pythons.append(python)
    if len(prefixes) < 2:
        return None
    del by_cause[causes.software.TF_NOT_INSTALLED]
    return causes.finding(
        f"explain.{causes.notebook.KERNEL_ENV_MISMATCH}",
        Severity.ERROR,
        causes.notebook.KERNEL_ENV_MISMATCH,
        "The notebook runs another Python than the one TensorFlow was installed into",
        _cite(hits) + "\nInterpreters the log shows: " + ", ".join(pythons) + ".",
        causes.notebook.kernel_python_fix(pythons, prefixes),
    )


#: An R call that names the environment TensorFlow goes into or is used from (the R
#: interfaces' install_tensorflow(envname =), reticulate's use_* and *_create).
_R_ENV_CALL = re.compile(
    r"\b(?P<call>install_tensorflow|install_keras|use_virtualenv|use_condaenv|virtualenv_create"
    r"|conda_create)\(\s*(?:envname\s*=\s*)?[\"'](?P<env>[\w.-]{1,80})[\"']"
)
#: The R interfaces' list of the Pythons reticulate searched, one per line below this line
#: (tf_config_error_message in https://github.com/rstudio/tensorflow/blob/main/R/package.R).
_R_SEARCHED = re.compile(
    r"Python environments searched for 'tensorflow' package:\n"
    r"(?P<list>(?:[ \t]+\S[^\n]{0,400}(?:\n|$)){1,20})"
)


def _reticulate_python(evidence: Evidence, by_cause: dict[str, list[Hits]]) -> Optional[Finding]:
    """The R interfaces found no TensorFlow, and the Pythons reticulate searched are none of
    the environment the log's R code installed TensorFlow into or asked to use: the session
    is bound to another Python. The finding replaces "not installed" (whose fix would
    install into the wrong one again)."""
    hits = _hits_by(by_cause, causes.software.TF_NOT_INSTALLED, "tf-not-installed-r")
    text = evidence.first_text
    searched_at = _R_SEARCHED.search(text) if hits else None
    calls = list(_R_ENV_CALL.finditer(text)) if searched_at is not None else []
    if searched_at is None or not calls:
        return None
    searched = [x.strip() for x in searched_at.group("list").splitlines() if x.strip()]
    env = calls[-1].group("env")
    folder = re.compile(rf"(?:^|[\\/]){re.escape(env)}(?:[\\/]|$)")
    if any(folder.search(python) for python in searched):
        return None  # reticulate did search it: TensorFlow is missing there, not elsewhere
    del by_cause[causes.software.TF_NOT_INSTALLED]
    conda = any(c.group("call") in ("use_condaenv", "conda_create") for c in calls)
    return causes.finding(
        f"explain.{causes.notebook.KERNEL_ENV_MISMATCH}",
        Severity.ERROR,
        causes.notebook.KERNEL_ENV_MISMATCH,
        "R uses another Python than the environment TensorFlow was installed into",
        _cite(hits)
        + f"\nThe R code names the environment {env!r}; reticulate searched "
        + ", ".join(searched)
        + ".",
        causes.notebook.reticulate_env_fix(env, conda, searched),
    )


def _gpus_named(evidence: Evidence, revealed: Revealed, machine: Machine) -> list[tuple[str, str]]:
    """The NVIDIA GPU models the log names (TensorFlow's device line, the issue's form, then
    the lines of its head, in the user's words or a tool's table), as the GPU table knows
    them: each model's name and compute capability."""
    if machine.matrix is None:
        return []
    names = [revealed.gpu_name] if revealed.gpu_name else []
    names += evidence.first_text.splitlines()
    models = (machine.matrix.gpu_model(name) for name in names if name.strip())
    return [(x.name, x.compute_capability) for x in models if x is not None]


def _slow_start_on_gpu(
    evidence: Evidence, revealed: Revealed, machine: Machine, found: Iterable[Finding]
) -> Optional[Finding]:
    """A start the user says takes long on a named NVIDIA GPU, with nothing else explained:
    the build without machine code for the GPU, whose PTX the driver compiles first.

    TensorFlow's own warning for it says "CUDA kernels will be jit-compiled from PTX, which
    could take 30 minutes or longer" (gpu_device.cc), printed only where its log level lets
    it through; the driver keeps what it compiled in a cache of 256 MiB by default, which
    TensorFlow's kernels outgrow, so every start compiles again (CUDA_CACHE_MAXSIZE, NVIDIA's
    CUDA programming guide, "Just-in-Time Compilation").
    https://github.com/tensorflow/tensorflow/blob/v2.4.0/tensorflow/core/common_runtime/gpu/gpu_device.cc
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#just-in-time-compilation
    """
    if evidence.slow_start is None or any(x.severity.rank >= Severity.WARNING.rank for x in found):
        return None
    models = _gpus_named(evidence, revealed, machine)
    if not models:
        return None
    # Of several GPUs named (one slow, one compared), the newest is the one a build can lack.
    model, cap = max(models, key=lambda x: version_key(x[1]))
    line = machine.line
    known = line.compute_capabilities if line is not None else None
    if known is not None and gpu_code(known, cap) != PTX:
        return None  # the build has machine code for it (or none at all): not the PTX
    where, said = evidence.slow_start
    built = (
        f"TensorFlow {line.line} carries only PTX for compute capability {cap}"
        if line is not None and known is not None
        else "the log does not show which TensorFlow; a build made before the GPU's "
        "architecture has only PTX for it"
    )
    return causes.finding(
        f"explain.{causes.gpu.GPU_PTX_JIT}",
        Severity.WARNING,
        causes.gpu.GPU_PTX_JIT,
        f"A slow start on the {model} (compute capability {cap}): kernels compiled from PTX first",
        f"{where}: {said}\nThe {model} has compute capability {cap}; {built}, so the "
        "driver compiles every kernel from PTX before the first one runs, and again at each "
        "start where its cache is too small to keep them.",
        causes.gpu.ptx_jit_fix(machine, cap),
    )


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
    created = any(h.signature.id == "created-gpu-device" for h in evidence.hits.values())
    if not listings and evidence.gpu_complaint is not None and not created:
        # (A GPU device TensorFlow created outranks the user's words: observed beats said.)
        # No answer of TensorFlow's is shown, only the user's words that it does not use the
        # GPU: the same question, asked of what the log states around it.
        where, said = evidence.gpu_complaint
        listings = [(where, DeviceListing(0, said, gpus=0))]
    layout = evidence.hits.get("gpu-layout-on-cpu")
    on_cpu = not listings and layout is not None and not created
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
