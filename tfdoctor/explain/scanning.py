"""A block of a log read into evidence: :func:`scan`, :class:`Evidence`, :class:`Hits`.

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
import functools
import importlib
import itertools
import operator
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Callable, NamedTuple, Optional

from tfdoctor.evidence import tflog
from tfdoctor.evidence.conda import (
    CONDA_TENSORFLOW,
    CondaInfo,
    CondaRow,
    UnresolvedSpec,
    conda_cached,
    listed_prefix,
    listed_rows,
    read_conda_env,
    read_conda_info,
    read_env_file,
    read_pypi_excluded,
    read_unavailable_specs,
    read_unresolved_specs,
    rows_channels,
)
from tfdoctor.evidence.devices import (
    GPU_DEVICE_CREATED,
    MAX_LISTINGS,
    PLUGGABLE_DEVICE_CREATED,
    DeviceListing,
    container_run_without_gpu,
    kernel_refused_attrs,
    read_device_listings,
    unix_prompt,
    variable_set,
    visible_devices_set,
)
from tfdoctor.evidence.frozen import freezer_of
from tfdoctor.evidence.installer import log_installer
from tfdoctor.evidence.interpreter import Interpreter, read_interpreter
from tfdoctor.evidence.macos import prompt_system
from tfdoctor.evidence.nodejs import read_tfjs_node_package, rejoin_addon_paths
from tfdoctor.evidence.packages import (
    MAX_CONFLICTS,
    MAX_REQUESTS,
    CondaMissingRelease,
    CondaPythonConflict,
    Conflict,
    ImportCheck,
    InstallRequest,
    NumpyBuild,
    Unavailable,
    read_conda_missing_releases,
    read_conda_python_conflicts,
    read_conda_rows,
    read_conflicts,
    read_echoed_versions,
    read_import_checks,
    read_install_requests,
    read_installed_versions,
    read_kernel_installs,
    read_listed_versions,
    read_numpy_builds,
    read_shown_packages,
    read_unavailable,
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
    read_platform_hints,
    read_python_64bit,
    read_python_refusals,
    read_refusals,
    read_set_aside_hints,
    read_source_builds,
    read_wheel_files_installed,
    read_wheel_refusals,
)
from tfdoctor.evidence.progress import WentOn, crash_shown, read_went_on
from tfdoctor.evidence.servers import server_line
from tfdoctor.evidence.stated import (
    STATED_READ,
    Stated,
    read_gpu_complaint,
    read_slow_start,
    read_stated,
)
from tfdoctor.evidence.traceback import (
    MAX_INTERPRETERS,
    MAX_MODULE_ORIGINS,
    MAX_TRACEBACKS,
    Inferred,
    Traceback,
    egg_releases,
    import_statements,
    interpreters,
    module_origins,
    read_python_shown,
    read_tracebacks,
    read_warned_verdicts,
    rejoin_wrapped_messages,
)
from tfdoctor.explain.cpu_machine import gpu_wanted
from tfdoctor.explain.reader import LogText
from tfdoctor.findings import Severity
from tfdoctor.matrix import load_companions
from tfdoctor.modules import modules
from tfdoctor.signatures import EVIDENCE, Signature, Signatures
from tfdoctor.wheel_tags import tag_os, wheel_platform_tags

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
    #: Those of ``listed`` that only pip's "Successfully installed" lists gave: a later list
    #: replaces them (pip installed that release over the earlier), as a listing's row does.
    listed_by_pip: set[str] = dataclasses.field(default_factory=set)
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
    #: The value TF_USE_LEGACY_KERAS is set to where the log's head shows it set (a shell's or
    #: the code's assignment; :func:`tfdoctor.evidence.devices.variable_set`); None where not.
    legacy_keras_set: Optional[str] = None
    #: A kernel look-up found a kernel of the op for a device the process registered, and
    #: none that takes the attributes asked (:func:`kernel_refused_attrs`).
    kernel_refused_attrs: bool = False
    #: Modules the log prints as objects, with the file each was imported from.
    modules: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    #: TensorFlow's packages as a pasted ``conda list`` shows them.
    conda_rows: list[CondaRow] = dataclasses.field(default_factory=list)
    #: TensorFlow's packages as the rows under a ``conda list`` header show them: what the
    #: environment holds (the same columns with no header may be ``conda search``'s offer).
    conda_listed: list[CondaRow] = dataclasses.field(default_factory=list)
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
    #: The specs a ``conda install`` asked for that no channel it searched carries
    #: (PackagesNotFoundError).
    unavailable_specs: list[UnresolvedSpec] = dataclasses.field(default_factory=list)
    pypi_excluded: list[str] = dataclasses.field(default_factory=list)
    env_file: Optional[str] = None
    #: The first ``conda info`` block listing virtual packages, with where.
    conda_info: Optional[tuple[str, CondaInfo]] = None
    #: The freezer whose bundle the log shows (:func:`tfdoctor.evidence.frozen.freezer_of`:
    #: pyinstaller, nuitka, py2app, cx_freeze), None where it shows none.
    freezer: Optional[str] = None
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
    #: The installer other than pip the whole log shows (pixi, uv's pip interface, a uv
    #: project: :func:`tfdoctor.evidence.installer.log_installer`); pixi's wherever one
    #: block shows pixi (its PyPI resolver prints uv's words), else the first block's.
    installer: Optional[str] = None
    #: The packages the log's ``conda list`` shows conda installed, and those of
    #: :data:`_CONDA_ASKED` whose folder in conda's package cache it shows.
    conda_installed: frozenset[str] = frozenset()
    #: The channel ``conda list`` shows for each package conda installed (empty: the defaults).
    conda_channels: dict[str, str] = dataclasses.field(default_factory=dict)
    #: The environment the first ``conda list`` that shows a package conda installed names
    #: (:func:`tfdoctor.evidence.conda.listed_prefix`).
    conda_list_prefix: Optional[str] = None

    @property
    def frozen(self) -> bool:
        """The log shows a frozen program, whichever freezer built it (:attr:`freezer`)."""
        return self.freezer is not None

    def gpu_reached(self, cuda: bool = False) -> Optional[tuple[str, str]]:
        """Where and in which line the log shows TensorFlow itself with a GPU device
        (observed): one it created (gpu_device.cc's ``Created device ... device:GPU:0``, a
        pluggable device's ``Created TensorFlow device (... device:GPU:0 ...)``), or an answer
        listing a GPU; None where it shows none. ``cuda``: only a GPU reached through CUDA and
        the NVIDIA driver, so not a pluggable device's (tensorflow-metal's, DirectML's), nor an
        answer listing a GPU where the log shows a pluggable device created (the answer does
        not say which platform its GPU is of)."""
        created = self.hits.get("created-gpu-device")
        if created is not None and created.citations:
            # The line ends in CUDA's compute capability (GetShortDeviceDescription): CUDA's.
            return created.citations[0]
        pluggable = PLUGGABLE_DEVICE_CREATED.search(self.first_text) is not None
        listed = next(((w, x.text) for w, x in self.devices if (x.gpus or 0) > 0), None)
        if listed is not None and not (cuda and pluggable):
            return listed
        if self.first_block is None:
            return None
        for found in GPU_DEVICE_CREATED.finditer(self.first_text):
            start = self.first_text.rfind("\n", 0, found.start()) + 1
            end = self.first_text.find("\n", found.end())
            line = self.first_text[start : end if end >= 0 else len(self.first_text)]
            if cuda and PLUGGABLE_DEVICE_CREATED.search(line):
                continue
            return self.first_block.where(self.first_text.count("\n", 0, start)), line.strip()
        return None

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


#: The packages whose folder in conda's package cache is read as conda's install of them (a
#: ``conda list`` row is read for every package): JAX's (conda-forge builds jax and jaxlib
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


@functools.cache
def _companion_names() -> tuple[str, ...]:
    """The packages whose release in a listing is evidence, by PEP 503 name: those the companion
    table pairs with TensorFlow lines (its companions and the libraries built on TensorFlow), and
    those the module table dates a module's addition in (torch for ``torch._dynamo``)."""
    table = load_companions()
    # The distributions of the module table's added_to_distribution rows (torch, jax): a
    # release of theirs the log shows says whether the row's addition is there.
    added = {row.dist for row in modules().added_to_dist.values()}
    return tuple(sorted({*table.companions, *table.built_on, *added}))


def _read_conda_rows(evidence: Evidence, text: _Shaped) -> None:
    """conda's words in one block: its list's rows, which packages it installed and from which
    channels, and its solver's conflicts."""
    if len(evidence.conda_rows) < MAX_CONFLICTS:
        evidence.conda_rows.extend(read_conda_rows((text,)))
    listed = listed_rows(text)
    if len(evidence.conda_listed) < MAX_CONFLICTS:
        evidence.conda_listed.extend(r for r in listed if r.name in CONDA_TENSORFLOW)
    # Every package the list shows from a conda channel is conda's to change (a fix that
    # installs it goes through conda: Machine.install); conda's package cache only for the
    # packages asked about, as a folder there shows a download, not what this environment holds.
    channels = rows_channels(listed)
    evidence.conda_installed |= conda_cached(text, _CONDA_ASKED) | frozenset(channels)
    for name, channel in channels.items():
        evidence.conda_channels.setdefault(name, channel)
    if channels and evidence.conda_list_prefix is None:
        evidence.conda_list_prefix = listed_prefix(text)
    if len(evidence.conda_conflicts) < MAX_CONFLICTS:
        evidence.conda_conflicts.extend(read_conda_python_conflicts((text,)))
    evidence.conda_missing.extend(
        read_conda_missing_releases((text,))[: MAX_CONFLICTS - len(evidence.conda_missing)]
    )


def _read_listed(evidence: Evidence, text: _Shaped) -> None:
    """The releases one block's listings give, then those pip's installed lists give: a
    listing's row is kept over pip's words; pip's later list replaces its earlier one."""
    for dist, listed in read_listed_versions(text, _companion_names()).items():
        if dist in evidence.listed_by_pip:
            evidence.listed_by_pip.discard(dist)
            evidence.listed[dist] = listed
        else:
            evidence.listed.setdefault(dist, listed)
    for dist, installed in read_installed_versions(text, _companion_names()).items():
        if dist not in evidence.listed or dist in evidence.listed_by_pip:
            evidence.listed[dist] = installed
            evidence.listed_by_pip.add(dist)


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
        evidence.import_checks.extend(read_warned_verdicts(text))
    if len(evidence.numpy_builds) < MAX_CONFLICTS:
        evidence.numpy_builds.extend(read_numpy_builds((text,)))
    _read_builds(evidence, text)
    _read_python_words(evidence, text)
    for dist, echoed in read_echoed_versions((text,)).items():
        evidence.echoed.setdefault(dist, echoed)
        if dist in ("keras", "torch"):
            # keras.__version__ (torch.__version__) echoed names the release installed, as a
            # listing does.
            evidence.listed.setdefault(dist, echoed)
    _read_listed(evidence, text)
    for dist, version in read_shown_packages(text).items():
        evidence.shown.setdefault(dist, version)
    if evidence.tf_logged_at is None:
        logged = tflog.tensorflow_line_at(text)
        if logged is not None:
            evidence.tf_logged_at = block.where(logged)
    _read_conda_rows(evidence, text)
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


def _read_installer(evidence: Evidence, text: str) -> None:
    """The installer ``text`` shows (a command it echoes, a uv project's lock, uv's or pixi's
    resolver words), kept once for the whole log: a command echoed far from the lines a
    signature cites still says which tool a fix is for. pixi wins over uv wherever shown."""
    if evidence.installer == "pixi":
        return
    # A plain search gates the patterns: every one of them holds one of these words.
    if "pixi" not in text and (
        evidence.installer is not None or ("uv" not in text and "No solution found" not in text)
    ):
        return
    found = log_installer(text)
    if found is not None and (evidence.installer is None or found == "pixi"):
        evidence.installer = found


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
    evidence.freezer = evidence.freezer or freezer_of(text)
    evidence.server_line = evidence.server_line or server_line(text)
    evidence.crashed = evidence.crashed or crash_shown(text)
    if evidence.went_on is None:
        went = read_went_on(text)
        if went is not None:
            evidence.went_on = (block.where(went.index), went)
            before = text[: _offset_of_line(text, went.index)]
            evidence.named_before_work = shown | _notice_names(
                read_conflicts((before,)),
                [*read_import_checks((before,)), *read_warned_verdicts(before)],
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
    the packages pixi's PyPI resolver excluded, the environment file a command named; and the
    installer the log shows (:func:`_read_installer`)."""
    _read_installer(evidence, text)
    if len(evidence.unresolved) < MAX_CONFLICTS:
        evidence.unresolved.extend(read_unresolved_specs(text))
    if len(evidence.unavailable_specs) < MAX_CONFLICTS:
        evidence.unavailable_specs.extend(read_unavailable_specs(text))
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
        # So does the rest of an exception's message a paste wrapped mid-sentence.
        text: str = rejoin_wrapped_messages(rejoin_addon_paths(shaped))
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
    return _settle_placement(evidence)


def _settle_placement(evidence: Evidence) -> Evidence:
    """A session's device mapping without a GPU (:attr:`DeviceListing.placement`) kept as an
    answer about GPUs only where the log shows one meant (:func:`gpu_wanted`, the user's
    words): ``log_device_placement`` prints it on every machine without a GPU, so a program
    run on the CPU on purpose shows it with nothing wrong."""
    if evidence.gpu_complaint is None and not gpu_wanted(evidence.first_text):
        evidence.devices = [(where, x) for where, x in evidence.devices if not x.placement]
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
    if evidence.legacy_keras_set is None:
        evidence.legacy_keras_set = variable_set(head, "TF_USE_LEGACY_KERAS")
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


# Shell prompts as users paste them: cmd.exe's and PowerShell's (`C:\Users\x>`, `PS C:\x>`).
# A Unix prompt says its system by its own parts (evidence.macos.prompt_system), not by its `$`.
_WINDOWS_PROMPT = re.compile(r"^(?:\([\w.-]+\) )?(?:PS )?[A-Z]:\\[^>\n]*> ?\S", re.MULTILINE)


#: How much of each block is searched for a shell prompt.
PROMPT_READ = 16 * 1024


def _os_of_prompt(text: str) -> Optional[Inferred]:
    """The operating system the first shell prompt of ``text`` that shows one implies, or
    None."""
    if ":\\" in text:  # the prompt's own characters, before the regex
        match = _WINDOWS_PROMPT.search(text)
        if match is not None:
            return Inferred("os", "windows", match.group(0).strip()[:60])
    shown = prompt_system(text) if "@" in text else None
    return Inferred("os", shown[0], shown[1][:60]) if shown is not None else None


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
