"""The examined machine as the checks see it: knowledge derived from the facts, computed once.

Facts say what the probes observed; :class:`Machine` answers the questions every check and fix
builder asks of them: which TensorFlow ``import tensorflow`` loads, which release line and
CUDA build it is, what kind of environment packages go into (and with which command), whether
a GPU is there at all, TensorFlow's declared ranges, and how to edit the loader's path. Each
answer has one rule, here; no check derives it again.
"""

from __future__ import annotations

import functools
import ntpath
import posixpath
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from typing import Final, Optional

from tfdoctor.compat import (
    Target,
    build_capabilities,
    keras3_serves_tf_keras,
    marker_environment,
    platform_of,
    python_minor,
    tf_keras_requirement,
)
from tfdoctor.cuda_layout import (
    DEFAULT_CUDA_ROOT,
    declared_cuda,
    libraries_in,
    library_dirs,
    nvcc_wheel_dir,
    wheel_cuda_major,
    wheel_dir,
    without_xla_cuda_data_dir,
    xla_cuda_data_dir,
)
from tfdoctor.evidence import tflog
from tfdoctor.evidence.conda import CONDA_TENSORFLOW
from tfdoctor.facts import (
    NOTEBOOK_ENV_MARKERS,
    TF_DISTRIBUTIONS,
    CondaPackage,
    DeviceFacts,
    Facts,
    GpuFacts,
    PackageFacts,
    PythonFacts,
    SmokeFacts,
    TFStatus,
    normalize_name,
    requirement_name,
)
from tfdoctor.matrix import (
    PIN_FIELDS,
    PLATFORMS,
    Companion,
    CompanionRelease,
    Companions,
    ComputeCapabilities,
    Matrix,
    TFLine,
    load_companions,
    ranges_meet,
    spec_contains,
    version_key,
)
from tfdoctor.records import Record, record
from tfdoctor.tf_imports import ImportTable

#: Distributions whose ``tensorflow`` package is a CPU-only build wherever they install.
CPU_ONLY_DISTRIBUTIONS = frozenset(
    {"tensorflow-cpu", "tf-nightly-cpu", "tensorflow-cpu-aws", "tensorflow-macos"}
)
#: Distributions the matrix's release lines describe (their versions are TensorFlow's).
MATRIX_DISTRIBUTIONS = frozenset(
    {"tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel"}
)
#: Nightly builds (``2.22.0.dev20250101``); their GPU extra is ``tf-nightly[and-cuda]``.
NIGHTLY_DISTRIBUTIONS = frozenset(
    {
        "tf-nightly",
        "tf-nightly-gpu",
        "tf-nightly-cpu",
        "tf-nightly-2-0-preview",
        "tf-nightly-gpu-2-0-preview",
    }
)

#: The values of TF_USE_LEGACY_KERAS that make tf.keras tf-keras: TensorFlow compares the value
#: exactly with these (tensorflow/__init__.py and python/util/lazy_loader.py of 2.16-2.21).
LEGACY_KERAS_VALUES: Final = ("true", "True", "1")
#: The first pip with ``pip index versions`` (pip's changelog, 21.2).
PIP_INDEX_VERSIONS: Final = (21, 2)
#: The first Python the pip of ``PIP_INDEX_VERSIONS`` runs on: pip 21.0 dropped Python 2.7
#: and 3.5, whose newest pip is 20.3.4 (pip's changelog, 21.0).
PIP_INDEX_PYTHON: Final = (3, 6)

#: pip's commands uv's pip interface runs itself on the environment it finds (the active one,
#: else ``.venv``): ``install`` and ``uninstall`` (it asks no confirmation), and ``list``,
#: ``show``, ``freeze`` and ``check``, which inspect it (https://docs.astral.sh/uv/pip/packages/,
#: https://docs.astral.sh/uv/pip/inspection/).
UV_PIP_COMMANDS: Final = frozenset({"install", "uninstall", "list", "show", "freeze", "check"})
#: pip's confirmation switches, which uv's ``uv pip uninstall`` does not take: it never asks.
_PIP_YES: Final = frozenset({"-y", "--yes"})
#: pip's network options uv's pip interface does not take (clap refuses an unknown argument),
#: by the environment variable uv reads in their place: its HTTP timeout in seconds, its
#: retries, and the proxy (https://docs.astral.sh/uv/reference/environment/: UV_HTTP_TIMEOUT,
#: UV_HTTP_RETRIES, and HTTPS_PROXY among the variables it reads from other tools).
UV_NETWORK_VARIABLES: Final = {
    "--timeout": "UV_HTTP_TIMEOUT",
    "--retries": "UV_HTTP_RETRIES",
    "--proxy": "HTTPS_PROXY",
}


def uv_pip_settings(args: str) -> tuple[tuple[str, str], ...]:
    """The ``(variable, value)`` settings that carry to uv what pip's network options in
    ``pip <args>`` (``--timeout 120``) ask of pip (:data:`UV_NETWORK_VARIABLES`)."""
    words = args.split(" ")
    return tuple(
        (UV_NETWORK_VARIABLES[word], words[i + 1])
        for i, word in enumerate(words[:-1])
        if word in UV_NETWORK_VARIABLES
    )


def uv_pip(args: str, python: str = "") -> str:
    """The command that runs ``pip <args>`` in an environment uv manages: uv's pip interface
    where it has the command, else pip itself, run by uv in that environment (``uv run --with
    pip``: uv creates environments without pip, https://docs.astral.sh/uv/pip/environments/).
    pip's network options are left to the variables of :func:`uv_pip_settings`; pip's cache
    is not uv's: ``cache purge`` is ``uv cache clean`` (https://docs.astral.sh/uv/concepts/cache/).
    ``python``: the interpreter whose environment it changes (``--python``, which uv's pip
    interface and ``uv run`` take: https://docs.astral.sh/uv/reference/cli/#uv-pip-install),
    else the one uv finds (the active environment, else ``.venv``)."""
    if args == "cache purge":
        return "uv cache clean"
    target = f" --python {python}" if python else ""
    command, _, rest = args.partition(" ")
    if command not in UV_PIP_COMMANDS:
        return f"uv run{target} --with pip python -m pip {args}"
    words = rest.split(" ")
    kept = [
        word
        for i, word in enumerate(words)
        if word not in UV_NETWORK_VARIABLES and (i == 0 or words[i - 1] not in UV_NETWORK_VARIABLES)
    ]
    if command == "uninstall":
        kept = [word for word in kept if word not in _PIP_YES]
    return f"uv pip {command}{target} {' '.join(kept)}".rstrip()


#: pip's install options by a project command's own (``uv add``), for each distribution the
#: command names where the value is ``{}``: a project's lock holds every requirement, so
#: ``uv pip install`` into its environment is undone by the next ``uv sync`` or ``uv run``,
#: which restore the lock; ``uv add`` writes the requirement to pyproject.toml and the lock
#: (https://docs.astral.sh/uv/concepts/projects/layout/#the-project-environment,
#: https://docs.astral.sh/uv/concepts/projects/dependencies/#adding-dependencies). Its
#: resolver and installer options are uv's (https://docs.astral.sh/uv/reference/cli/#uv-add):
#: one package reinstalled or upgraded (``--reinstall-package``, ``--upgrade-package``, the
#: latter as ``uv lock --upgrade-package`` does, docs.astral.sh/uv/concepts/projects/sync/
#: #upgrading-locked-package-versions), pre-releases, the cache, build isolation.
_UV_ADD_SWITCHES: Final = {
    "--force-reinstall": "--reinstall-package {}",
    "-U": "--upgrade-package {}",
    "--upgrade": "--upgrade-package {}",
    "--pre": "--prerelease allow",
    "--no-cache-dir": "--no-cache",
    "--no-build-isolation": "--no-build-isolation",
}
#: pip's install options that take a value, by ``uv add``'s: the requirements and constraints
#: files, the indexes (pip's --index-url is uv's default index, --extra-index-url another).
_UV_ADD_VALUED: Final = {
    "-r": "-r",
    "--requirement": "-r",
    "-c": "-c",
    "--constraint": "-c",
    "--index-url": "--default-index",
    "-i": "--default-index",
    "--extra-index-url": "--index",
}
#: pip's options a project's lock makes moot: it resolves and installs every dependency
#: (``--no-deps`` has no project form), over what is installed (``--ignore-installed``).
_LOCK_MOOT: Final = frozenset({"--no-deps", "--ignore-installed", "-y", "--yes"})


def _project_words(args: str) -> Optional[tuple[str, list[str], list[str]]]:
    """``pip <args>`` for an install or uninstall as its command, its options and the
    distributions it names (quoted specs, bare names, paths); None for another command or
    options this reading does not know (the caller keeps pip's form)."""
    command, _, rest = args.partition(" ")
    if command not in ("install", "uninstall"):
        return None
    try:
        words = shlex.split(rest)
    except ValueError:
        return None
    options: list[str] = []
    named: list[str] = []
    it = iter(words)
    for word in it:
        if not word.startswith("-"):
            named.append(word)
        elif word in _UV_ADD_VALUED or word in UV_NETWORK_VARIABLES:
            options.extend((word, next(it, "")))
        elif word in _UV_ADD_SWITCHES or word in _LOCK_MOOT:
            options.append(word)
        else:
            return None
    return command, options, named


def _path_spec(spec: str) -> bool:
    """A requirement that is a file or directory (a wheel, a source tree), not a name."""
    return spec.startswith(("/", ".", "~")) or spec.endswith((".whl", ".tar.gz", ".zip"))


def _shell_spec(spec: str) -> str:
    """A requirement as a shell word: quoted where it holds a comparison or an extra
    (``"numpy<2"``), bare where it is a name or a path (a wheel's ``*`` is the shell's)."""
    return f'"{spec}"' if re.search(r"[<>=!~;\[ ]", spec) else spec


def _spec_name(spec: str) -> str:
    """The distribution a requirement names (``numpy`` of ``numpy<2``, ``tf[and-cuda]==2``)."""
    return re.split(r"[<>=!~;\[ @]", spec, maxsplit=1)[0]


def uv_project_command(args: str) -> Optional[str]:
    """The uv project's command for ``pip <args>`` where it installs or uninstalls: ``uv add``
    with uv's options (:data:`_UV_ADD_SWITCHES`, :data:`_UV_ADD_VALUED`), ``uv remove``; None
    for pip itself, a look (``list``, ``show``: uv's pip interface reads the project's
    environment as it is) or options without a project form."""
    read = _project_words(args)
    if read is None or _about_pip(args):
        return None
    command, options, named = read
    if command == "uninstall":
        # uv remove drops a requirement from pyproject.toml and the lock, and uninstalls it.
        return f"uv remove {' '.join(named)}" if named else None
    words: list[str] = []
    names = [_spec_name(spec) for spec in named if not _path_spec(spec)]
    it = iter(options)
    for option in it:
        if option in _UV_ADD_VALUED:
            words.extend((_UV_ADD_VALUED[option], next(it, "")))
        elif option in UV_NETWORK_VARIABLES:
            next(it, "")  # uv reads its own variable for it (uv_pip_settings)
        elif option in _UV_ADD_SWITCHES:
            form = _UV_ADD_SWITCHES[option]
            words.extend([form.format(n) for n in names] if "{}" in form else [form])
    if not named and "-r" not in words:
        return None
    return " ".join(["uv add", *dict.fromkeys(words), *map(_shell_spec, named)])


#: The directory of a pixi workspace that holds its environments, as a prefix path shows it.
_PIXI_ENVS = "/.pixi/envs/"
#: pixi global's environments: $PIXI_HOME/envs, by default ~/.pixi/envs (prefix-dev/pixi
#: crates/pixi_global/src/common.rs, EnvRoot::from_env), a home directory's .pixi, not a
#: workspace's: no manifest there takes `pixi add` (a prefix with ``/`` for ``\``).
_PIXI_GLOBAL_ENVS = re.compile(r"^(?:[a-z]:)?(?:/home/[^/]+|/root|/users/[^/]+)/\.pixi/envs/", re.I)


def pixi_command(args: str) -> Optional[str]:
    """pixi's command for ``pip <args>`` where it installs or uninstalls PyPI packages in its
    workspace: ``pixi add --pypi`` and ``pixi remove --pypi``, which write the manifest and
    the lock that ``pixi install`` restores (https://pixi.sh/latest/reference/cli/pixi/add/);
    None for anything else, or options pixi's add has no form of (a reinstall, an index,
    a requirements file), or a wheel or source tree named by its path."""
    read = _project_words(args)
    if read is None or _about_pip(args):
        return None
    command, options, named = read
    if not named or any(o not in _LOCK_MOOT and o not in ("-U", "--upgrade") for o in options):
        return None
    if any(map(_path_spec, named)):
        # pixi reads each as a PEP 508 requirement (a name first): a path is none.
        return None
    if command == "uninstall":
        return f"pixi remove --pypi {' '.join(named)}"
    return "pixi add --pypi " + " ".join(map(_shell_spec, named))


#: The channels a pixi workspace installs from without naming one: conda-forge, which
#: ``pixi init`` writes into every new manifest (https://pixi.prefix.dev/latest/first_workspace/),
#: and conda's default channels, which pixi does not use: a conda fix's "defaults" there
#: means the workspace's own.
_PIXI_CHANNELS = re.compile(r"|conda-forge|defaults|pkgs/\w+")


#: A channel as conda's ``-c`` takes it, one shell word: a name (``conda-forge``,
#: ``conda-forge/label/rc``) or a URL. conda records a package of no known channel (a local
#: file's) as ``<unknown>`` (conda/base/constants.py, UNKNOWN_CHANNEL; str(Channel) of the
#: record's ChannelField), which is no channel to install from, and which a shell would read
#: as a redirection: that package is installed from the configured channels.
_CONDA_CHANNEL = re.compile(r"[\w.+-]+(?:/[\w.+-]+)*|[a-z]+://[\w.+:/@%~-]+")


def _unquoted(spec: str) -> str:
    """``spec`` without the shell quotes a caller gave it."""
    return spec.strip("\"'")


def conda_spec_name(spec: str) -> str:
    """The package name a conda MatchSpec names (``"tensorflow=2.15=cuda*"``: tensorflow;
    ``conda-forge::nccl``: nccl)."""
    bare = _unquoted(spec).rpartition("::")[2]
    return re.split(r"[=<>!~ \[]", bare, maxsplit=1)[0]


#: A PEP 440 clause as conda's version spec reads it: the comparisons conda shares with PEP 440
#: (``>=``, ``<=``, ``>``, ``<``, ``!=``, ``==`` without a wildcard, ``~=``), and the prefix
#: clauses conda writes otherwise: ``==X.Y.*`` is conda's glob ``X.Y.*`` (conda ignores a
#: ``.*`` after ``==`` and would match X.Y exactly), ``!=X.Y.*`` conda's own. ``===`` has no
#: conda form. conda/models/version.py, VersionSpec.get_matcher; MatchSpec's version syntax:
#: https://docs.conda.io/projects/conda/en/stable/user-guide/concepts/pkg-specs.html
_CONDA_CLAUSE = re.compile(r"(?P<op>>=|<=|!=|==|~=|>|<)(?P<version>[\w.!+]+?)(?P<star>\.\*)?")


def conda_match_spec(name: str, specifier: str) -> Optional[str]:
    """The conda MatchSpec of the conda package ``name`` for the PEP 440 ``specifier``
    (``>=1.16,<1.20``: ``numpy>=1.16,<1.20``; ``==2.15.*``: ``keras=2.15``, conda's form for
    every 2.15.x), None where a clause has no conda form (``===``, a wildcard ``~=``)."""
    clauses: list[str] = []
    for clause in filter(None, (c.strip() for c in specifier.split(","))):
        m = _CONDA_CLAUSE.fullmatch(clause.replace(" ", ""))
        if m is None or (m["star"] and m["op"] not in ("==", "!=")):
            return None
        if m["star"] and m["op"] == "==":
            clauses.append(f"{m['version']}.*")
        else:
            clauses.append(f"{m['op']}{m['version']}{m['star'] or ''}")
    if not clauses:
        return name
    if len(clauses) == 1 and clauses[0][0].isdigit():
        # "name=X.Y": conda's fuzzy match, X.Y.* (the form conda's own docs write).
        return f"{name}={clauses[0][:-2]}"
    # A glob has no operator to part it from the name: the comparisons go first
    # (``numpy>=1.16,1.19.*``, conda's ``,`` is "and").
    clauses.sort(key=lambda c: c[0].isdigit())
    return name + ",".join(clauses)


def _pixi_spec(spec: str) -> str:
    """``spec`` as one shell word for ``pixi add``: quoted where a glob, a comparison or a
    space would reach the shell."""
    bare = _unquoted(spec)
    return f'"{bare}"' if re.search(r"[*?<>|!\s\[]", bare) else bare


#: The Pythons pip's installer script has a script of its own for, at
#: ``https://bootstrap.pypa.io/pip/X.Y/get-pip.py``: the script at the root refuses them
#: ("This script does not work on Python X.Y. ... Please use
#: https://bootstrap.pypa.io/pip/X.Y/get-pip.py instead.", templates/default.py in
#: pypa/get-pip): the lines of scripts/generate.py's SCRIPT_CONSTRAINTS, the root script's
#: minimum the line after the last of them (Python 3.10, pip 26.1 having left 3.9).
GET_PIP_OWN_SCRIPT: Final = frozenset(
    ("2.6", "2.7", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9")
)


def get_pip_url(python: Optional[str]) -> str:
    """The address of pip's installer script (https://pip.pypa.io/en/stable/installation/#get-pip-py)
    for Python ``python`` (``X.Y.Z``): its own for a Python the newest script refuses
    (:data:`GET_PIP_OWN_SCRIPT`), else the newest."""
    line = ".".join((python or "").split(".")[:2])
    if line in GET_PIP_OWN_SCRIPT:
        return f"https://bootstrap.pypa.io/pip/{line}/get-pip.py"
    return "https://bootstrap.pypa.io/get-pip.py"


#: The virtual environment a fix makes where the examined one cannot take the install.
NEW_VENV: Final = "~/.venvs/tf"
#: That environment's interpreter.
NEW_VENV_PYTHON: Final = f"{NEW_VENV}/bin/python"


def venv_pip(args: str, python: str = "python3") -> tuple[str, str]:
    """The commands that make the virtual environment :data:`NEW_VENV` with ``python`` and
    run ``pip <args>`` in it: the one form every fix that moves to a new environment uses."""
    return (f"{python} -m venv {NEW_VENV}", f"{NEW_VENV_PYTHON} -m pip {args}")


def _about_pip(args: str) -> bool:
    """Whether ``pip <args>`` installs or uninstalls pip itself (``install --upgrade pip``,
    ``install "pip<21"``), or asks its version (after such an upgrade: the same pip)."""
    command, _, rest = args.partition(" ")
    if command == "--version":
        return True
    names = (re.split(r"[<>=!~;\[ ]", word.strip("\"'"), maxsplit=1)[0] for word in rest.split())
    return command in ("install", "uninstall") and any(n.lower() == "pip" for n in names)


#: Distributions whose modules ``import tensorflow`` imports unconditionally as it starts: one
#: that is missing, broken or outside TensorFlow's range fails the import itself (distribution
#: -> the first import, from data/tf_imports.yaml, measured on one release and sourced).
START_IMPORTS: Mapping[str, str] = ImportTable("start")

#: Distributions whose modules TensorFlow imports only when a feature is used, with that use:
#: one outside TensorFlow's range fails there, not at ``import tensorflow``.
LAZY_IMPORTS: Mapping[str, str] = ImportTable("lazy")

#: What a companion's requirement is judged on: TensorFlow (any of its distributions), and
#: the Keras packages released with it.
COMPANION_TARGETS = (*TF_DISTRIBUTIONS, "tf-keras", "keras")

#: What TensorFlow itself can show working, by kind: the import, its device list, kernels run
#: on the GPU by the smoke test. An inference that says the opposite (a cause's
#: ``contradicted_by`` in :mod:`tfdoctor.causes`) is at most a note: observed beats inferred.
OBSERVATION_KINDS: Mapping[str, str] = {
    "tf-imports": "TensorFlow imported in the examined interpreter",
    "tf-lists-gpu": "TensorFlow listed at least one GPU",
    "tf-lists-every-gpu": "TensorFlow listed a GPU for each GPU the driver lists",
    "gpu-kernels-ran": "the smoke test ran every kernel it tried on each of the driver's GPUs",
    "gpu-conv-ran": "the smoke test's convolutions (cuDNN) ran on each of the driver's GPUs",
    "gpu-xla-ran": "the smoke test's XLA-compiled kernel ran on each of the driver's GPUs",
    "run-went-on": "the log shows the run doing its work (an epoch, a saved model, tests passed)",
}
#: The kinds only a log shows (:mod:`tfdoctor.evidence.progress`), never a machine's facts.
LOG_OBSERVATIONS = frozenset({"run-went-on"})
#: Smoke kernels by the part of the GPU stack they need (kernel names: ``SmokeResult.kernel``).
_CONV_KERNELS = ("conv2d-forward", "conv2d-backward")
_XLA_KERNELS = ("xla-dense",)

#: Driver error reasons that, without ``/dev/nvidia*`` nodes or PCI devices, mean "no GPU".
_ABSENT_REASONS = frozenset({"library-not-found", "driver-not-loaded", "no-gpu"})

#: Android's per-app data directories, under which an app's own files live (Termux's prefix
#: is /data/data/com.termux/files/usr, its Python beneath it): an interpreter there runs on
#: Android, whose C library is Bionic, not glibc.
#: https://developer.android.com/reference/android/content/Context#getDataDir()
#: https://wiki.termux.com/wiki/Differences_from_Linux
ANDROID_APP_DATA: Final = ("/data/data/", "/data/user/")


def tf_providers(packages: Sequence[PackageFacts]) -> tuple[PackageFacts, ...]:
    """The distributions among ``packages`` that write the ``tensorflow`` import package."""
    return tuple(
        p
        for p in packages
        if "tensorflow" in p.top_level
        or (not p.top_level and normalize_name(p.name) in TF_DISTRIBUTIONS)
    )


def separate_installations(requires: Mapping[str, Iterable[str]]) -> set[str]:
    """Of TensorFlow distributions (PEP 503 name -> the requirement lines each declares), the
    ones that are an installation of their own: a thin wrapper requiring another of them
    (tensorflow -> tensorflow-intel on Windows, -> tensorflow-cpu-aws on Linux aarch64,
    tensorflow-macos -> tensorflow) is one installation with it, not a second one."""
    names = set(requires)
    return {
        name
        for name, lines in requires.items()
        if not {normalize_name(requirement_name(line)) for line in lines} & (names - {name})
    }


def tf_shadow(python: Optional[PythonFacts], providers: Sequence[PackageFacts]) -> Optional[str]:
    """The module ``import tensorflow`` resolves to, where that is outside every installed
    TensorFlow distribution (a ``tensorflow/`` folder or ``tensorflow.py`` earlier on the path);
    None when it resolves into one, to nothing, or is unknown.

    Known before anything is imported (the path finder's answer), so the doctor also uses it to
    bound the import it then runs.
    """
    if python is None or python.tensorflow_origin is None:
        return None
    if python.tensorflow_path_kind in (None, "site-packages"):
        return None
    origin = python.tensorflow_origin
    # The installed distribution itself (also one in the user site) is no shadow.
    if any(p.location and origin.startswith(p.location.rstrip("/\\")) for p in providers):
        return None
    return origin


@record
class LogHints(Record):
    """What a log says or implies about the machine that no probe recorded (``explain``
    without facts): used to fit fixes, never written into the facts. Each None when the log
    gives no sign of it."""

    #: ``linux``, ``windows`` or ``macos``.
    os: Optional[str] = None
    #: The Python minor version (``3.11``).
    python: Optional[str] = None
    conda: bool = False
    wsl: bool = False
    #: ``container`` where the log shows a container image's own paths (its runtime unknown).
    container: Optional[str] = None
    #: The host's system where the log shows a container started on another (``macos``:
    #: Docker Desktop for Mac, whose Linux VM hands its containers no GPU).
    container_host: Optional[str] = None
    #: The hosted notebook the log shows (``colab``, ``kaggle``), by its paths or its name.
    notebook: Optional[str] = None
    #: The managed platform's instance type the log shows the job on (``ml.m5.xlarge``).
    instance_type: Optional[str] = None
    #: The pip release the log shows (``pip 20.0.2 from ...``, pip's upgrade notice).
    pip: Optional[str] = None
    #: Who installed TensorFlow where the log shows another installer than pip: ``conda``,
    #: ``distro`` (a Debian package) or ``source`` (a Bazel build)
    #: (:func:`tfdoctor.evidence.packages.tf_installer`).
    tf_installer: Optional[str] = None
    #: The installer the log shows where not pip: ``uv pip`` (uv's pip interface), ``uv``
    #: (a uv project) or ``pixi`` (:func:`tfdoctor.evidence.installer.log_installer`).
    installer: Optional[str] = None
    #: Packages the log shows conda installed: every ``conda list`` row of a conda channel,
    #: and a folder of conda's package cache of those a fix asks about
    #: (:func:`tfdoctor.evidence.conda.conda_installed`).
    conda_installed: frozenset[str] = frozenset()
    #: The channel the log's ``conda list`` shows for such a package (empty: the default
    #: channels), by name (:func:`tfdoctor.evidence.conda.conda_channels`).
    conda_channels: tuple[tuple[str, str], ...] = ()
    #: The package manager the log shows the host's packages installed with (``apt``,
    #: ``dnf``, ``yum``, ``zypper``: :func:`tfdoctor.evidence.devices.host_packager`).
    packager: Optional[str] = None
    #: The Linux distribution the log names, as os-release's ``ID`` then ``ID_LIKE`` words,
    #: and its name as printed (:func:`tfdoctor.evidence.distro.read_distro`).
    os_ids: tuple[str, ...] = ()
    os_name: Optional[str] = None
    #: The log shows AMD's ROCm stack at work (a signature in ROCm's words): the build that
    #: ran is tensorflow-rocm's, whatever distribution name the log leaves out.
    rocm: bool = False
    #: The machine a Python on macOS reports itself built for, in platform.platform()'s words
    #: (``arm64``, ``x86_64``: the interpreter's, so Rosetta 2's x86-64 one says x86_64),
    #: which decides the wheels pip can install for it.
    mac_python_machine: Optional[str] = None
    #: The macOS release sw_vers printed (``10.15.5``), which decides the macosx_X_Y wheel
    #: tags pip takes there.
    macos_release: Optional[str] = None


#: os-release identifiers (``ID`` or an ``ID_LIKE`` word) of families with one package manager
#: whatever the release, tried before the names: a derivative lists its parent (os-release(5):
#: Linux Mint, Pop!_OS, elementary OS and Zorin OS list ``ubuntu``, openSUSE ``suse``). The RPM
#: families are left to the names: yum or dnf depends on the release, not the family.
_PACKAGER_IDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("debian", "ubuntu"), "apt"),
    (("suse", "opensuse"), "zypper"),
    (("arch",), "pacman"),
    (("alpine",), "apk"),
)
#: Words of a distribution's name (os-release's PRETTY_NAME) and its package manager, tried in
#: order: a release that moved to dnf (Amazon Linux 2023, CentOS and RHEL 8) before its
#: family's yum-era name.
_PACKAGERS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("ubuntu", "debian", "mint", "pop!_os", "raspbian", "kali", "elementary"), "apt"),
    (("amazon linux 2023",), "dnf"),
    (("amazon linux", "centos linux 7", "server 7."), "yum"),
    (("fedora", "red hat", "centos", "rocky", "almalinux", "oracle linux"), "dnf"),
    (("suse",), "zypper"),
    (("alpine",), "apk"),
    (("arch linux", "manjaro", "endeavouros"), "pacman"),
)


@record
class Machine(Record):
    """The derived view of one :class:`Facts` (and the matrix): build it with :func:`view`."""

    facts: Facts
    matrix: Optional[Matrix]
    #: What a log adds where the facts hold nothing (no probe ran): the operating system and
    #: Python version it shows or implies. Never the machine's architecture or interpreter.
    hints: Optional[LogHints] = None

    # --- TensorFlow ---------------------------------------------------------------------------

    @functools.cached_property
    def tf_providers(self) -> tuple[PackageFacts, ...]:
        """Every installed distribution that writes the ``tensorflow`` import package."""
        return tf_providers(self.facts.packages or ())

    @functools.cached_property
    def tf(self) -> Optional[PackageFacts]:
        """The distribution ``import tensorflow`` belongs to (``tensorflow`` first).

        Wrappers (``tensorflow`` -> ``tensorflow-intel`` on Windows) install as a pair; the
        name the user installed is the one that requires the other, so it wins.
        """
        providers = self.tf_providers or tuple(
            p for p in (self.facts.package(n) for n in TF_DISTRIBUTIONS) if p is not None
        )
        if not providers:
            return None
        order = {name: i for i, name in enumerate(TF_DISTRIBUTIONS)}
        return min(providers, key=lambda p: order.get(normalize_name(p.name), len(order)))

    @functools.cached_property
    def tf_shadow(self) -> Optional[str]:
        """Where ``import tensorflow`` resolves when that is not the installed distribution."""
        return tf_shadow(self.facts.python, self.tf_providers)

    @functools.cached_property
    def import_observed(self) -> bool:
        """TensorFlow's import ran and its outcome is known (not ``--static``, not unprobed)."""
        tf = self.facts.tensorflow
        return tf is not None and tf.status not in (TFStatus.SKIPPED, TFStatus.CHILD_ERROR)

    @functools.cached_property
    def tf_listed_gpus(self) -> tuple[DeviceFacts, ...]:
        """The GPUs TensorFlow listed as it imported: none where it did not import, or where
        the import loaded some other module named tensorflow (no version: a shadow)."""
        tf = self.facts.tensorflow
        if tf is None or tf.status != TFStatus.OK or not tf.version:
            return ()
        return tuple(d for d in tf.devices if d.device_type == "GPU")

    @functools.cached_property
    def tf_name(self) -> Optional[str]:
        """The installed TensorFlow's distribution name in PEP 503 form."""
        return normalize_name(self.tf.name) if self.tf is not None else None

    @functools.cached_property
    def line(self) -> Optional[TFLine]:
        """The matrix line of the installed TensorFlow (None for nightlies and unknown lines)."""
        if self.tf is None or self.matrix is None or self.tf_name in NIGHTLY_DISTRIBUTIONS:
            return None
        return self.matrix.line_for(self.tf.version)

    @property
    def is_nightly(self) -> bool:
        """A ``tf-nightly`` build: no matrix line, its own extra."""
        return self.tf_name in NIGHTLY_DISTRIBUTIONS

    @functools.cached_property
    def cpu_only_distribution(self) -> bool:
        """The installed distribution is a CPU-only build by name or by the matrix.

        ``tensorflow-cpu`` and friends always; plain ``tensorflow`` where the matrix names
        another distribution as this release's GPU build on this OS (1.15.2 to 2.0:
        ``tensorflow-gpu``; 1.15.0's was ``tensorflow`` itself) or no CUDA build for this
        platform (Linux aarch64, Windows after 2.10, macOS).
        """
        if self.tf_name is None:
            return False
        if self.tf_name in CPU_ONLY_DISTRIBUTIONS:
            return True
        tf = self.facts.tensorflow
        if tf is not None and tf.is_cuda_build is not None:
            return not tf.is_cuda_build and not tf.is_rocm_build
        line, plat = self.line, self.platform
        if line is None or plat is None or self.tf_name == "tensorflow-gpu":
            return False
        if plat not in line.cuda_builds:
            return True
        assert self.matrix is not None and self.tf is not None  # a line implies both
        gpu = self.matrix.gpu_distribution(self.tf.version, PLATFORMS[plat])
        return gpu not in (self.tf_name, None)

    @functools.cached_property
    def build_cuda(self) -> Optional[str]:
        """The CUDA version (X.Y) of the installed build: TensorFlow's word, else the matrix.

        Without TensorFlow's word the matrix answers only for the distribution that is this
        platform's CUDA build; a CPU-only distribution has none.
        """
        tf = self.facts.tensorflow
        cuda = dll_version(tf.cuda_version) if tf is not None else None
        if cuda:
            parts = version_key(cuda)
            if len(parts) >= 2:
                return f"{parts[0]}.{parts[1]}"
        if tf is not None and tf.is_cuda_build is False:
            return None
        logged = self._cuda_from_log()
        if logged is not None:
            return logged
        if self.cpu_only_distribution:
            return None
        if self.declared_cuda[0] is not None:
            return self.declared_cuda[0]
        if self.line is None:
            return None
        if self.platform is not None:
            return self.line.cuda if self.platform in self.line.cuda_builds else None
        # A log without the machine (explain): its operating system, when implied, is enough,
        # as the line's CUDA build has one CUDA version on every platform it ships for.
        os_name = self.os
        if os_name is not None and any(PLATFORMS[p] == os_name for p in self.line.cuda_builds):
            return self.line.cuda
        return None

    @functools.cached_property
    def build_cuda_major(self) -> Optional[str]:
        """The build's CUDA major: of :attr:`build_cuda` when known, else as the CUDA runtime or
        cuBLAS library TensorFlow named in its log or error (``cudart64_110.dll``: 11)."""
        if self.build_cuda:
            return self.build_cuda.split(".", 1)[0]
        for event in self.tf_logged(tflog.LibraryNotLoaded):
            if event.cuda is not None:
                return event.cuda.split(".", 1)[0]
        return None

    @property
    def asked_cudnn(self) -> Optional[tuple[str, str]]:
        """The cuDNN major a cuDNN file TensorFlow failed to load names, with the file
        (``libcudnn.so.7``: 7): what the build asks for where its record is not known."""
        for event in self.tf_logged(tflog.LibraryNotLoaded):
            if event.cudnn is not None:
                return event.cudnn.split(".", 1)[0], event.soname
        return None

    def _cuda_from_log(self) -> Optional[str]:
        """The build's CUDA as a pre-11 library name in TensorFlow's error or log reveals it
        (before CUDA 11 every toolkit library's file name carried CUDA's major.minor)."""
        for event in self.tf_logged(tflog.LibraryNotLoaded):
            cuda = event.cuda
            if cuda is not None and version_key(cuda)[:1] < (11,) and "." in cuda:
                return cuda
        return None

    @functools.cached_property
    def build_cudnn(self) -> Optional[str]:
        """The cuDNN version of the build: the matrix's, unless TensorFlow's record differs."""
        tf = self.facts.tensorflow
        matrix_cudnn = self.line.cudnn if self.line is not None else None
        cudnn = dll_version(tf.cudnn_version) if tf is not None else None
        # TensorFlow's own record wins when it says more than the major (the Linux wheels'
        # build_info records only "8"), or another major than the matrix.
        if cudnn and (
            matrix_cudnn is None
            or len(version_key(cudnn)) >= 2
            or version_key(cudnn)[:1] != version_key(matrix_cudnn)[:1]
        ):
            return cudnn
        return matrix_cudnn or self.declared_cuda[1]

    @functools.cached_property
    def declared_cuda(self) -> tuple[Optional[str], Optional[str]]:
        """(CUDA, cuDNN) the installed TensorFlow's ``and-cuda`` requirements pin (X.Y each):
        the wheel's own word where its build info has none (TF 2.22 records no versions)."""
        if self.tf is None:
            return None, None
        return declared_cuda(self.tf.requires)

    @functools.cached_property
    def build_gpu_code(self) -> Optional[ComputeCapabilities]:
        """The GPU code of the installed build: what its shared objects carry (``.nv_fatbin``,
        observed), else the list its build info states; None when neither was read.

        TF 2.22's build info no longer states the list, and the objects are what the driver
        gets whatever the build info says.
        """
        libs = self.facts.cuda_libs
        code = libs.gpu_code if libs is not None else None
        if code is not None and (code.sass or code.ptx):
            return ComputeCapabilities(code.sass, code.ptx)
        tf = self.facts.tensorflow
        if tf is not None and tf.compute_capabilities:
            caps = build_capabilities(tf.compute_capabilities)
            if caps.sass or caps.ptx:
                return caps
        return None

    @functools.cached_property
    def rocm_build(self) -> bool:
        """The installed TensorFlow is AMD's ROCm build: ``tensorflow-rocm`` by name, a build
        whose own info says ROCm, or (explain) a log in ROCm's words (:attr:`LogHints.rocm`).
        Its GPU libraries are ROCm's (HIP, rocBLAS, MIOpen), never CUDA's."""
        tf = self.facts.tensorflow
        return (
            self.tf_name == "tensorflow-rocm"
            or (tf is not None and bool(tf.is_rocm_build))
            or (self.hints is not None and self.hints.rocm)
        )

    @functools.cached_property
    def rocm_release(self) -> Optional[str]:
        """The ROCm release the installed tensorflow-rocm was built for, as its version's
        fourth part names it, one digit each (2.14.0.600: ROCm 6.0.0; 2.13.0.570: 5.7.0:
        https://pypi.org/project/tensorflow-rocm/#history and AMD's compatibility matrix,
        https://rocm.docs.amd.com/en/docs-6.0.0/about/compatibility/3rd-party-support-matrix.html);
        None for another distribution or a version without that part."""
        if self.tf_name != "tensorflow-rocm" or self.tf is None:
            return None
        parts = self.tf.version.split(".")
        if len(parts) != 4 or not re.fullmatch(r"[1-9]\d{2}", parts[3]):
            return None
        return ".".join(parts[3])

    def and_cuda_spec(
        self, version: Optional[str] = None, cuda_build_ran: bool = False
    ) -> Optional[str]:
        """``tensorflow[and-cuda]==X`` (X: ``version``, else the installed release) where the
        extra works: on Linux, for a release whose matrix line has it (``and_cuda``) and that
        finds its own wheels (not a ``cuda_install.wheels_unfound`` patch); ``tf-nightly``'s
        own extra for a nightly. None otherwise: the extra would change nothing or harm.

        ``cuda_build_ran``: the log shows the installed release's CUDA build at work (its
        CUDA libraries failing to load). Where the log shows no system, a release whose CUDA
        builds are Linux's alone (the matrix's ``cuda_builds``; no native Windows GPU build)
        ran on Linux (WSL included), so the extra applies there too; the matrix's builds are
        ``tensorflow``'s own (tensorflow-rocm prints the same sentence, on ROCm).

        The extra is ``tensorflow``'s alone (each matrix line's ``and_cuda`` is that
        distribution's): for another installed distribution (tensorflow-rocm, tensorflow-cpu,
        tensorflow-gpu, intel-tensorflow) the installed release has no such extra, and a ROCm
        build's GPU libraries are not CUDA's at all: None for both."""
        if self.rocm_build:
            return None
        if version is None and self.tf_name not in (None, "tensorflow", *NIGHTLY_DISTRIBUTIONS):
            return None
        if self.os is None and cuda_build_ran and not self.is_nightly:
            line = self.line
            linux_only = (
                line is not None
                and self.tf_name == "tensorflow"
                and bool(line.cuda_builds)
                and not line.windows_native_gpu
                and all(PLATFORMS.get(p) == "linux" for p in line.cuda_builds)
            )
            if not linux_only or version is not None:
                return None  # another release's builds say nothing of this machine
        elif self.os != "linux":
            return None
        if self.is_nightly and version is None:
            return "tf-nightly[and-cuda]"
        version = version or (self.tf.version if self.tf is not None else None)
        line = self.matrix.line_for(version) if version and self.matrix is not None else None
        if line is None or not line.and_cuda:
            return None
        if line.cuda_install is not None and version in line.cuda_install.wheels_unfound:
            return None
        return f"tensorflow[and-cuda]=={version}"

    @functools.cached_property
    def legacy_keras(self) -> bool:
        """TF_USE_LEGACY_KERAS is set: tf.keras is served by tf-keras. TensorFlow compares the
        value exactly with "true", "True" and "1" (tensorflow/__init__.py and
        python/util/lazy_loader.py of 2.16-2.21): " 1", "yes" or "TRUE" leave Keras 3 in place."""
        env = self.facts.environment or {}
        return env.get("TF_USE_LEGACY_KERAS") in LEGACY_KERAS_VALUES

    @functools.cached_property
    def keras3_is_tf_keras(self) -> bool:
        """Keras 3 serves ``tf.keras`` on the installed line: its wheel's keras pin admits 3."""
        return self.line is not None and keras3_serves_tf_keras(self.line)

    @functools.cached_property
    def tf_keras_spec(self) -> Optional[str]:
        """``tf-keras`` of the installed line (:func:`~tfdoctor.compat.tf_keras_requirement`)."""
        return tf_keras_requirement(self.line) if self.line is not None else None

    @functools.cached_property
    def cuda_install_method(self) -> Optional[str]:
        """How the installed line's GPU build gets its CUDA libraries on Linux (the matrix's
        ``cuda_install``; a line without that field but with an ``and-cuda`` extra uses it)."""
        line = self.line
        if line is None:
            return None
        if line.cuda_install is not None:
            return line.cuda_install.method
        return "and-cuda" if line.and_cuda else None

    def wheels_unfound(self) -> bool:
        """The installed patch is one whose own CUDA wheels it does not find."""
        line = self.line
        inst = line.cuda_install if line is not None else None
        return self.tf is not None and inst is not None and self.tf.version in inst.wheels_unfound

    # --- platform and environment --------------------------------------------------------------

    @functools.cached_property
    def platform(self) -> Optional[str]:
        """The matrix platform key (``linux-x86_64``)."""
        plat = self.facts.platform
        if plat is None:
            return None
        return platform_of(plat.system, plat.machine)

    @functools.cached_property
    def non_glibc_libc(self) -> Optional[str]:
        """The C library of a Linux or Android system that is not glibc, which no manylinux
        wheel installs on (PEP 600: a manylinux wheel needs glibc): ``musl`` where the probe
        read musl's loader; ``bionic`` where the C library is not glibc and the facts show
        Android: its own name for the system (``platform.system()`` is ``Android`` from
        CPython 3.13, PEP 738, Termux's builds included: termux/termux-packages#29056), or,
        for the CPythons before it, which say ``Linux``, an interpreter under Android's app
        data directories (:data:`ANDROID_APP_DATA`). None otherwise: a C library the probe
        could not name is no sign alone."""
        plat = self.facts.platform
        if plat is None or plat.libc == "glibc":
            return None
        if plat.libc == "musl":
            return "musl"
        py = self.facts.python
        paths = (py.executable, py.prefix) if py is not None else ()
        if plat.system == "Android" or any(p.startswith(ANDROID_APP_DATA) for p in paths if p):
            return "bionic"
        return None

    @functools.cached_property
    def arch(self) -> Optional[str]:
        """The architecture of the matrix's platform key (``x86_64``, ``arm64``), else what a
        log's Python on macOS reports (``LogHints.mac_python_machine``); None where unknown."""
        if self.platform:
            return self.platform.split("-", 1)[1]
        if self.facts.platform is None and self.hints and self.os == "macos":
            return self.hints.mac_python_machine
        return None

    @property
    def macos_release(self) -> Optional[str]:
        """The macOS release the log's sw_vers printed (``LogHints.macos_release``), where no
        probe recorded the platform; None where unknown."""
        if self.facts.platform is None and self.hints is not None:
            return self.hints.macos_release
        return None

    @functools.cached_property
    def os(self) -> Optional[str]:
        """``linux``, ``windows`` or ``macos`` (WSL counts as Linux)."""
        if self.platform:
            return PLATFORMS[self.platform]
        return self.hints.os if self.facts.platform is None and self.hints else None

    @functools.cached_property
    def emulation(self) -> Optional[str]:
        """The CPU emulation the interpreter runs under (``qemu``, ``rosetta``): the probed
        ``platform.emulation``, else ``rosetta`` where a report saved before that field
        records only ``platform.rosetta``; None where native or not probed."""
        plat = self.facts.platform
        if plat is None:
            return None
        return plat.emulation or ("rosetta" if plat.rosetta else None)

    @functools.cached_property
    def packager(self) -> Optional[str]:
        """The Linux distribution's package manager, as its name (os-release's PRETTY_NAME)
        implies it: ``apt`` (Debian, Ubuntu and their derivatives), ``dnf`` (Fedora, RHEL 8
        and later, its rebuilds, Amazon Linux 2023), ``yum`` (RHEL and CentOS 7, Amazon Linux
        2), ``zypper`` (SUSE), ``apk`` (Alpine), ``pacman`` (Arch); None where unnamed or
        another (each distribution's own documentation names its tool). Without probed
        facts, the one the log shows the user running (:attr:`LogHints.packager`), else the
        one the identifiers of the distribution the log names imply."""
        plat = self.facts.platform
        if plat is None:
            hints = self.hints
            if hints is None or self.os not in (None, "linux"):
                return None
            if hints.packager is not None:
                return hints.packager
            # The distribution the log names, by its identifiers alone: a name without its
            # release (lsb_release's "CentOS") does not tell yum's releases from dnf's.
            ids, name = hints.os_ids, ""
        elif self.os != "linux":
            return None
        else:
            ids, name = plat.os_ids, plat.os_name.lower()
        for known, tool in _PACKAGER_IDS:
            if any(i in ids for i in known):
                return tool
        for words, tool in _PACKAGERS:
            if any(word in name for word in words):
                return tool
        return None

    def os_like(self, *ids: str) -> bool:
        """The Linux distribution is one of ``ids`` or derives from one (os-release's ``ID``
        and ``ID_LIKE``, the probe's or the log's: :attr:`os_ids`); False where neither holds
        identifiers."""
        return any(i in self.os_ids for i in ids)

    @property
    def os_ids(self) -> tuple[str, ...]:
        """os-release's ``ID`` and ``ID_LIKE`` words: the facts' where a probe read them, else
        those of the distribution the log names (:attr:`LogHints.os_ids`); empty if neither."""
        plat = self.facts.platform
        if plat is not None:
            return plat.os_ids
        return self.hints.os_ids if self.hints is not None and self.os in (None, "linux") else ()

    @functools.cached_property
    def ubuntu(self) -> Optional[bool]:
        """Whether the Linux distribution is Ubuntu or built on it, whose tools
        (ubuntu-drivers, update-secureboot-policy) and archive packages a fix may name: True
        where os-release's ID or ID_LIKE says ``ubuntu`` (a derivative such as Linux Mint,
        Pop!_OS, elementary OS or Zorin OS lists it: os-release(5)), or, in facts without
        those identifiers, where its name says Ubuntu; False where it names another, or where
        the log shows a package manager other than Ubuntu's apt; None where unknown."""
        if self.os is not None and self.os != "linux":
            return False
        plat = self.facts.platform
        if self.os_ids:
            return "ubuntu" in self.os_ids
        if plat is not None:
            name = plat.os_name.lower()
            # "Linux" alone: the probe found no os-release to name the distribution.
            return None if name == "linux" else "ubuntu" in name
        return False if self.packager not in (None, "apt") else None

    @property
    def wsl(self) -> Optional[str]:
        """``WSL1``/``WSL2`` under the Windows Subsystem for Linux."""
        if self.facts.platform is None:
            return "WSL2" if self.hints is not None and self.hints.wsl else None
        return self.facts.platform.wsl

    @property
    def wsl2_host_driver(self) -> bool:
        """The GPU comes from the Windows driver through WSL 2 (outside a container, whose GPU
        access is the container runtime's): no Linux driver of the distribution's own."""
        return self.wsl == "WSL2" and not self.container

    @functools.cached_property
    def libcuda(self) -> Optional[str]:
        """The driver's libcuda the loader takes: the one cuInit loaded, else the library
        search's choice (None where neither recorded one)."""
        cuinit = self.facts.cuinit
        if cuinit is not None and cuinit.library:
            return cuinit.library
        libs = self.facts.cuda_libs
        for lib in libs.libraries if libs is not None else ():
            if lib.name == "cuda" and lib.selected is not None:
                return lib.candidates[lib.selected].path
        return None

    @property
    def container(self) -> Optional[str]:
        """The container runtime this runs in, if any (from a log without facts:
        ``container``, where it shows a container image's own paths)."""
        if self.facts.platform is None:
            return self.hints.container if self.hints is not None else None
        return self.facts.platform.container

    @functools.cached_property
    def notebook(self) -> Optional[str]:
        """A hosted notebook VM (``colab``, ``kaggle`` ...): the hosted probe's name (a TPU VM
        is none), else, for facts older than it, the environment variables recorded."""
        hosted = self.facts.hosted
        if hosted is not None:
            return hosted.name if hosted.name != "tpu-vm" else None
        env = self.facts.environment or {}
        for var, name in NOTEBOOK_ENV_MARKERS:
            if var in env:
                return name
        if self.facts.platform is None and self.hints is not None:
            return self.hints.notebook
        return None

    @functools.cached_property
    def in_conda(self) -> bool:
        """The interpreter lives in a conda environment (conda commands apply)."""
        py = self.facts.python
        if py is None and self.hints is not None and self.hints.conda:
            return True
        return self.facts.conda is not None or (py is not None and py.env_kind == "conda")

    @functools.cached_property
    def conda_outside(self) -> Optional[str]:
        """conda's command directory on ``PATH`` while the interpreter is in no conda
        environment: that directory (``miniconda3/condabin``), else None. ``conda
        init`` puts ``condabin`` on PATH for every shell, so conda is installed and its
        environments are one ``conda activate`` away, but this is another interpreter
        (https://docs.conda.io/projects/conda/en/stable/commands/init.html, --condabin)."""
        if self.in_conda or self.facts.python is None:
            return None
        # Windows' folder names ignore case (Miniconda3\condabin), and so does macOS by default.
        pure = PureWindowsPath if self.os == "windows" else PurePosixPath
        return next(
            (e for e in self.path_entries("PATH") if pure(e).name.lower() == "condabin"), None
        )

    def path_entries(self, variable: str) -> tuple[str, ...]:
        """The non-empty entries of the search-path ``variable`` (``PATH``) of the examined
        machine, in order. Split with that machine's ``os.pathsep`` (``;`` on Windows, ``:``
        elsewhere), not this one's: a Windows facts file replayed on Linux reads as Windows
        wrote it, and its drive letters (``C:\\``) stay whole."""
        sep = ntpath.pathsep if self.os == "windows" else posixpath.pathsep
        value = (self.facts.environment or {}).get(variable, "")
        return tuple(entry for entry in value.split(sep) if entry)

    @functools.cached_property
    def conda_tensorflow(self) -> Optional[CondaPackage]:
        """The conda package TensorFlow came from, when from a conda channel rather than pip
        (fixes then use conda)."""
        conda = self.facts.conda
        for name in CONDA_TENSORFLOW if conda is not None else ():
            pkg = conda.package(name) if conda is not None else None
            if pkg is not None and pkg.channel not in ("pypi", ""):
                return pkg
        return None

    def from_conda(self, name: str) -> bool:
        """Whether conda (a conda channel, not pip) installed the package ``name``: the
        facts' conda list, else what the log shows."""
        conda = self.facts.conda
        pkg = conda.package(name) if conda is not None else None
        if pkg is not None:
            return pkg.channel not in ("pypi", "")
        return self.hints is not None and name in self.hints.conda_installed

    def conda_channel(self, name: str) -> Optional[str]:
        """The conda channel the package ``name`` came from (``conda-forge``, ``pkgs/main``;
        empty for the default channels where the log's ``conda list`` shows no column): the
        facts' conda list, else the log's; None where neither shows it from a channel."""
        conda = self.facts.conda
        pkg = conda.package(name) if conda is not None else None
        if pkg is not None:
            return pkg.channel if pkg.channel not in ("pypi", "") else None
        shown = dict(self.hints.conda_channels) if self.hints is not None else {}
        return shown.get(name)

    def conda_owned(self, dist: str) -> Optional[tuple[str, str]]:
        """The conda package that installed the distribution ``dist`` here and the channel to
        install it again from, where conda (a conda channel, not pip) installed it: the facts'
        conda-meta records, else the log's ``conda list``; None for pip's or where neither
        shows it. The names compare as PEP 503 normalises them (conda-forge's
        ``typing_extensions`` is PyPI's typing-extensions); the channel is empty for conda's
        default channels (``pkgs/main``, ``defaults``, a ``conda list`` row without one),
        which conda installs from without ``-c``, and for one ``-c`` cannot take
        (:data:`_CONDA_CHANNEL`)."""
        want = normalize_name(dist)
        conda = self.facts.conda
        if conda is not None:
            pkg = next((p for p in conda.packages if normalize_name(p.name) == want), None)
            if pkg is None or pkg.channel in ("pypi", ""):
                return None
            name, channel = pkg.name, pkg.channel
        else:
            shown = self.hints.conda_installed if self.hints is not None else frozenset()
            name = next((n for n in sorted(shown) if normalize_name(n) == want), "")
            if not name:
                return None
            channel = self.conda_channel(name) or ""
        default = channel == "defaults" or channel.startswith("pkgs/")
        return name, "" if default or not _CONDA_CHANNEL.fullmatch(channel) else channel

    def conda_requirement(self, spec: str) -> Optional[tuple[str, str]]:
        """The channel (:meth:`conda_owned`) and the conda MatchSpec that install the
        requirement ``spec`` with conda, where conda installed its package here and can read
        the requirement (no extras, markers or URL; :func:`conda_match_spec`); else None."""
        owned = self.conda_owned(requirement_name(spec))
        bare = spec.strip()
        rest = bare[len(requirement_name(bare)) :]
        if owned is None or any(c in rest for c in "[;@"):
            return None
        match = conda_match_spec(owned[0], rest)
        return (owned[1], match) if match is not None else None

    def install(self, *specs: str) -> tuple[str, ...]:
        """Commands that install the requirements ``specs`` (PEP 508, no markers) here, each
        package by the installer that installed it: conda's (:meth:`conda_install`, from the
        channel it came from) for a package conda installed, pip's (:meth:`pip_install`) for
        the rest and for a requirement conda cannot read (extras, ``===``). pip over a
        package conda installed overwrites files conda tracks, and conda's next solve
        neither sees nor repairs the change
        (https://docs.conda.io/projects/conda/en/stable/user-guide/tasks/manage-pkgs.html#installing-non-conda-packages)."""
        by_channel: dict[str, list[str]] = {}
        pip: list[str] = []
        for spec in specs:
            found = self.conda_requirement(spec)
            if found is None:
                pip.append(spec)
            else:
                by_channel.setdefault(found[0], []).append(f'"{found[1]}"')
        commands = [
            line
            for channel, matched in by_channel.items()
            for line in self.conda_install(*matched, channel=channel)
        ]
        return (*commands, *(self.pip_install(*pip) if pip else ()))

    def reinstall(self, spec: str) -> tuple[str, ...]:
        """Commands that install the requirement ``spec`` again over the installed files (a
        plain install sees them installed and does nothing), its dependencies left as they
        are, by the installer that installed it (:meth:`install`): conda's
        ``--force-reinstall --no-deps``
        (https://docs.conda.io/projects/conda/en/stable/commands/install.html; pixi's
        reinstall in a workspace, :meth:`conda_install`), else pip's."""
        found = self.conda_requirement(spec)
        if found is None:
            return self.pip(f'install --force-reinstall --no-deps "{spec}"')
        options = ("--force-reinstall", "--no-deps")
        return self.conda_install(f'"{found[1]}"', channel=found[0], options=options)

    @functools.cached_property
    def tf_installer(self) -> Optional[str]:
        """Who installed TensorFlow, where not pip: ``conda`` (a conda channel's package, in
        the facts or the log), ``distro`` or ``source`` (the log's paths); None for pip's or
        where nothing shows it. A reinstall goes through that installer."""
        if self.conda_tensorflow is not None:
            return "conda"
        return self.hints.tf_installer if self.hints is not None else None

    @functools.cached_property
    def installer(self) -> Optional[str]:
        """The installer that manages the examined environment where not pip: ``uv pip``,
        ``uv`` (a uv project) or ``pixi`` (a pixi workspace), as the log shows it, else
        ``uv`` where the facts show the environment is a uv project's; None for pip's or
        where nothing shows it."""
        if self.hints is not None and self.hints.installer:
            return self.hints.installer
        py = self.facts.python
        prefix = f"{py.prefix.replace(chr(92), '/')}/" if py is not None else ""
        if _PIXI_ENVS in prefix and not _PIXI_GLOBAL_ENVS.match(prefix):
            # pixi installs a workspace's environments in its .pixi/envs/NAME: conda
            # environments that "you cannot manually edit", kept in sync with the workspace's
            # manifest and lock (https://pixi.prefix.dev/v0.40.1/features/environment), so a
            # change goes through pixi's add and remove. pixi global's, under a home
            # directory's .pixi, belong to no workspace and keep the environment's own pip.
            return "pixi"
        return "uv" if py is not None and py.uv_project else None

    @property
    def _uv_installs(self) -> bool:
        """Whether uv installs here: the log shows it (its pip interface or a uv project), or
        the facts show an environment uv made without pip (:attr:`pip_bootstrap`)."""
        shown = self.installer is not None and self.installer.startswith("uv")
        return shown or self.pip_bootstrap == ()

    @functools.cached_property
    def pip_bootstrap(self) -> Optional[tuple[str, ...]]:
        """Where the facts show pip absent from the examined environment, so that ``python -m
        pip`` fails with "No module named pip": the commands that give it one, empty where
        uv made the environment (uv's pip interface installs without pip,
        https://docs.astral.sh/uv/pip/environments/); None where pip is there or not known.

        ``python -m ensurepip --upgrade`` installs the pip the standard library bundles
        (https://docs.python.org/3/library/ensurepip.html), which a ``venv --without-pip``
        keeps; where ensurepip is missing too (Debian's and Ubuntu's system Python leave it
        to python3-venv), pip's own installer script for that Python (:func:`get_pip_url`);
        Debian's and Ubuntu's system Python itself, whose ensurepip refuses it, the
        distribution's pip package."""
        py = self.facts.python
        if py is None or not py.executable or py.pip_installed is not False:
            return None
        if py.uv_venv:
            return ()
        default_python3 = py.executable.replace("\\", "/").rsplit("/", 1)[-1] == "python3"
        if (
            py.env_kind == "system"
            and py.prefix == "/usr"
            and self.packager == "apt"
            and default_python3
        ):
            # Debian patches ensurepip to refuse its system Python, whatever is installed
            # ("ensurepip is disabled in Debian/Ubuntu for the system python. ... Install the
            # python3-pip package to use pip itself.": debian/patches/ensurepip-disabled.diff
            # of Debian's python3.X), and from bookworm that Python is externally managed, so
            # that get-pip.py's pip install refuses it too (PEP 668): the distribution's pip
            # (its prefix /usr: a Python built into /usr/local keeps its own ensurepip). Only
            # for the distribution's default python3: python3-pip's pip lies in
            # /usr/lib/python3/dist-packages for that release, and another /usr/bin/python3.X
            # (deadsnakes') cannot run it; Python 2's python-pip left with Debian 11 and
            # Ubuntu 20.04.
            return ("sudo apt-get install python3-pip",)
        if py.ensurepip is False:
            # Downloaded by the interpreter itself: curl is not on every machine (a slim
            # container image), nor the same program in Windows PowerShell (an alias of
            # Invoke-WebRequest).
            module = "urllib.request" if py.version[:1] == "3" else "urllib"
            return (
                f'{self.python_exe} -c "import {module} as u; '
                f"u.urlretrieve('{get_pip_url(py.version)}', 'get-pip.py')\"",
                f"{self.python_exe} get-pip.py",
            )
        return (f"{self.python_exe} -m ensurepip --upgrade",)

    @functools.cached_property
    def externally_managed(self) -> bool:
        """PEP 668: ``pip install`` into this interpreter is refused."""
        py = self.facts.python
        return py is not None and py.externally_managed and py.env_kind == "system"

    @functools.cached_property
    def env_kind(self) -> str:
        """``conda``, ``venv``, ``notebook``, ``system`` or ``user`` (pyenv and similar)."""
        if self.in_conda:
            return "conda"
        if self.notebook is not None:
            return "notebook"
        py = self.facts.python
        if py is None:
            return "unknown"
        if py.env_kind in ("venv", "virtualenv"):
            return "venv"
        return py.env_kind

    @functools.cached_property
    def python_version(self) -> Optional[str]:
        """The examined interpreter's version (the probe's, else the log's hint)."""
        if self.facts.python is not None:
            return self.facts.python.version
        return self.hints.python if self.hints is not None else None

    @functools.cached_property
    def python_exe(self) -> str:
        """The examined interpreter, quoted for a shell where needed."""
        py = self.facts.python
        if py is None or not py.executable:
            return "python"
        exe = py.executable
        return f'"{exe}"' if " " in exe else exe

    def line_fits(
        self, line: TFLine, platform: Optional[str] = None, *, unknown: bool = True
    ) -> bool:
        """Whether TensorFlow ``line`` publishes a wheel for the examined Python (the probe's,
        else the log's) on a platform whose key starts with ``platform`` (``linux-``; empty:
        any; None: this machine's platform where known, else any); ``unknown`` where the
        Python is not known, which each caller chooses (an install offered anyway, or not)."""
        python = self.python_version
        if not python:
            return unknown
        where = (self.platform or "") if platform is None else platform
        return line.has_wheels_for(python, where)

    @property
    def wheel_platform(self) -> str:
        """The platform key prefix the wheels for this machine are under: its platform key
        where known, else its system's (``windows-``), else empty (any)."""
        return self.platform or (f"{self.os}-" if self.os else "")

    def release_of_line(self, line: TFLine) -> Optional[str]:
        """The newest release of ``line`` the matrix says has a wheel for the examined Python
        on this machine's platform (its system's where the CPU is unknown; any where both
        are): the line's latest patch where its wheels fit, else a patch whose own row names
        that Python (1.15.0 for Python 2.7, whose wheels 1.15.5 lacks). None where the
        Python is unknown, there is no matrix, or no release of the line the matrix vouches
        for has one."""
        python = self.python_version
        if not python or self.matrix is None:
            return None
        if self.line_fits(line):
            return line.latest_patch
        return self.matrix.newest_release_with_wheels(python, self.wheel_platform, line.line)

    def pip(self, args: str) -> tuple[str, ...]:
        """Commands that run ``pip <args>`` for the examined environment: the one home of how
        a fix's command reaches it (its interpreter's ``-m pip``; uv's where the log shows uv
        installing, :func:`uv_pip`; a bare ``pip`` where neither is known).

        An externally managed interpreter (PEP 668) refuses ``pip install``: the commands
        create a virtual environment first and install there.
        """
        project = (
            uv_project_command(args)
            if self.installer == "uv"
            else pixi_command(args)
            if self.installer == "pixi"
            else None
        )
        if project is not None:
            return (project,)
        if self._uv_installs:
            # The examined interpreter's environment, where the facts name it: uv would
            # otherwise change the active one, or .venv.
            return (uv_pip(args, self.python_exe if self.pip_bootstrap == () else ""),)
        if self.externally_managed and args.split(" ", 1)[0] in ("install", "uninstall"):
            if args.startswith("uninstall"):
                return ()
            # A new environment holds nothing yet: it gets the TensorFlow installed here too,
            # so that the fix applies to the TensorFlow being diagnosed.
            tf = self.tf
            carry = (
                f' "{tf.name}=={tf.version}"'
                if tf is not None and normalize_name(tf.name) not in args
                else ""
            )
            return venv_pip(f"{args}{carry}")
        if self.facts.python is None or not self.facts.python.executable:
            if _about_pip(args):
                # pip run by its launcher refuses to replace itself on Windows and names
                # `python -m pip` instead (pip/_internal/utils/misc.py,
                # protect_pip_from_modification_on_windows): pip's own upgrade goes through the
                # module whatever the system, and its version is read the same way.
                return (f"python -m pip {args}",)
            return (f"pip {args}",)
        return (*(self.pip_bootstrap or ()), f"{self.python_exe} -m pip {args}")

    def pip_after_install(self, args: str) -> tuple[str, ...]:
        """Commands that run ``pip <args>``, a look (``check``, ``--version``), after an install
        :meth:`pip` wrote in the same fix: in the environment that install went into, the new
        virtual environment where the examined interpreter is externally managed (its own pip
        would read the system's packages the install left alone), else :meth:`pip`'s."""
        if self._uv_installs or not self.externally_managed:
            return self.pip(args)
        return (f"{NEW_VENV_PYTHON} -m pip {args}",)

    @property
    def pip_version(self) -> Optional[str]:
        """The environment's pip release: the probe's, else what the log shows."""
        if self.facts.python is not None and self.facts.python.pip_version:
            return self.facts.python.pip_version
        return self.hints.pip if self.hints is not None else None

    def installable_releases(self, dist: str) -> tuple[str, ...]:
        """Commands that list the releases of ``dist`` where :meth:`install` takes them from:
        conda's channels for a package conda installed (:meth:`conda_owned`: ``conda search``,
        https://docs.conda.io/projects/conda/en/stable/commands/search.html; ``pixi search``
        in a pixi workspace, https://pixi.sh/latest/reference/cli/pixi/search/), else pip's
        index (:meth:`list_releases`)."""
        owned = self.conda_owned(dist)
        if owned is None:
            return self.list_releases(dist)
        name, channel = owned
        if self.installer == "pixi":
            return (f"pixi search {name}",)
        return (" ".join(["conda search", *(("-c", channel) if channel else ()), name]),)

    def list_releases(
        self, dist: str, python: Optional[str] = None, pre: bool = False
    ) -> tuple[str, ...]:
        """Commands that list the releases of ``dist`` pip can install here: ``pip index
        versions``, which pip 21.2 added (pip's changelog, 21.2 (2021-07-24)), after upgrading
        a pip the facts or the log show older; where neither shows one, it is not assumed
        old. On a Python older than 3.6 no pip has it: there pip's refusal of an empty
        version lists them (``from versions: ...``). ``python``: the interpreter's version
        where the caller read it (pip's refusal names it), else the machine's; ``pre``: the
        pre-releases are the question (a range that names one)."""
        python = python or self.python_version
        if python and version_key(python)[:2] < PIP_INDEX_PYTHON:
            return self.pip(f'install "{dist}=="')
        # A nightly's builds (2.17.0.dev20240101) are pre-releases, which `pip index versions`
        # drops unless asked (pip/_internal/commands/index.py): without --pre it lists none.
        flag = "--pre " if pre or normalize_name(dist) in NIGHTLY_DISTRIBUTIONS else ""
        listing = self.pip(f"index versions {flag}{dist}")
        shown = self.pip_version
        if shown and version_key(shown) < PIP_INDEX_VERSIONS:
            return (*self.pip("install --upgrade pip"), *listing)
        return listing

    def pip_settings(self, args: str) -> tuple[tuple[str, str], ...]:
        """The environment settings ``pip <args>`` needs beside :meth:`pip`'s commands: uv's
        variables for pip's network options where uv installs (:func:`uv_pip_settings`),
        none for pip, whose options stay on its command line."""
        if self._uv_installs:
            return uv_pip_settings(args)
        return ()

    def pip_look(self, args: str, tail: str = "") -> tuple[str, ...]:
        """Commands that run ``pip <args>``, a look that changes nothing (``list``, ``show``,
        ``check``), with ``tail`` (a redirection, a pipe into a filter) after it: the look is
        the last command, alone on its line; where pip is absent here (:attr:`pip_bootstrap`)
        the commands that install it come first, each on its own line. They are not joined
        with ``&&``, which Windows PowerShell before 7 refuses (about_Pipeline_Chain_Operators:
        PowerShell 7 added ``&&`` and ``||``), and a bootstrap that fails shows its own error."""
        lines = self.pip(args)
        if not lines or lines[:-1] not in ((), self.pip_bootstrap or ()):
            # only an install or an uninstall takes more lines, or none
            raise ValueError(f"pip {args} is no single look here: {lines}")
        return (*lines[:-1], lines[-1] + tail)

    def pip_install(self, *specs: str) -> tuple[str, ...]:
        """``pip install "spec" ...`` for this environment."""
        return self.pip("install " + " ".join(f'"{s}"' for s in specs))

    def conda_install(
        self, *specs: str, channel: str = "", options: Sequence[str] = (), yes: bool = False
    ) -> tuple[str, ...]:
        """Commands that install the conda packages ``specs`` (MatchSpecs) into the examined
        environment: the one home of conda-form installs, as :meth:`pip` is of pip's.
        ``channel``: the channel they come from (empty: the configured ones); ``options``:
        conda's (``--force-reinstall``, ``--override-channels``); ``yes``: conda's ``-y``.

        In a pixi workspace (:attr:`installer`) the environment follows the workspace's
        manifest and lock, and ``conda install`` there is undone by the next ``pixi install``:
        the packages go through ``pixi add`` (conda MatchSpecs, from the workspace's
        channels; ``CHANNEL::spec`` for one channel's build,
        https://pixi.prefix.dev/latest/concepts/package_specifications/), a reinstall through
        ``pixi reinstall``, which pixi 0.43.0 added
        (https://pixi.prefix.dev/latest/reference/cli/pixi/reinstall/; pixi's CHANGELOG, 0.43.0)."""
        if self.installer != "pixi":
            words = [
                "conda install",
                *(("-y",) if yes else ()),
                *(("-c", channel) if channel else ()),
            ]
            return (" ".join([*words, *options, *specs]),)
        if "--force-reinstall" in options:
            # "If you don't provide an environment, the `default` environment will be
            # re-installed" (pixi reinstall's help, src/cli/reinstall.rs of pixi 0.43.0): the
            # one the facts' prefix names, .pixi/envs/NAME, by its -e (--environment).
            py = self.facts.python
            prefix = py.prefix.replace("\\", "/") if py is not None else ""
            env = prefix.partition(_PIXI_ENVS)[2].strip("/") if _PIXI_ENVS in prefix else ""
            where = ("-e", env) if env and env != "default" else ()
            names = dict.fromkeys(map(conda_spec_name, specs))
            return (" ".join(["pixi reinstall", *where, *names]),)
        if _PIXI_CHANNELS.fullmatch(channel):
            return (" ".join(["pixi add", *map(_pixi_spec, specs)]),)
        # A channel the workspace may not list: pixi refuses a CHANNEL::spec whose channel is
        # not among the manifest's channels. `pixi workspace channel add` is the name pixi
        # 0.43.0 gave `pixi project channel add` (prefix-dev/pixi#3315, first tagged v0.43.0;
        # https://pixi.prefix.dev/latest/reference/cli/pixi/workspace/channel/add/).
        return (
            f"pixi workspace channel add {channel}",
            " ".join(["pixi add", *(_pixi_spec(f"{channel}::{_unquoted(s)}") for s in specs)]),
        )

    def conda_update(self, name: str, channel: str = "") -> str:
        """The command that updates the conda package ``name`` in the examined environment:
        ``conda update`` (``channel``: the channel it came from, conda's ``-c``,
        https://docs.conda.io/projects/conda/en/stable/commands/update.html; empty: the
        configured ones), or in a pixi workspace ``pixi update``, which takes the newest
        release its manifest allows into the lock and the environment
        (https://pixi.prefix.dev/latest/reference/cli/pixi/update/; pixi 0.23.0 added it)."""
        if self.installer == "pixi":
            return f"pixi update {name}"
        return " ".join(["conda update", *(("-c", channel) if channel else ()), name])

    def upgrade(self, dist: str) -> tuple[str, ...]:
        """Commands that upgrade the installed distribution ``dist`` to its newest release
        here, by the installer that installed it: conda's update from the channel it came
        from for a package conda installed (:meth:`conda_owned`; pip over it would overwrite
        files conda tracks, as :meth:`install` says), else ``pip install --upgrade``."""
        owned = self.conda_owned(dist)
        if owned is None:
            return self.pip(f"install --upgrade {dist}")
        return (self.conda_update(*owned),)

    def conda_remove(self, *names: str, force: bool = False) -> tuple[str, ...]:
        """Commands that remove the conda packages ``names`` from the examined environment:
        ``conda remove -y`` (``--force``: those packages only, not what depends on them,
        https://docs.conda.io/projects/conda/en/stable/commands/remove.html), ``pixi remove``
        in a pixi workspace, which drops them from its manifest and lock
        (https://pixi.prefix.dev/latest/reference/cli/pixi/remove/), one command a name:
        pixi refuses a name its manifest does not list ("dependency NAME is missing.",
        DependencyError::NoDependency in crates/pixi_manifest/src/error.rs of prefix-dev/pixi)
        and then saves none of the others (pixi_api's workspace/remove), and a package another
        one brought in (tensorboard, tensorflow-base) is in the lock, not the manifest."""
        if self.installer == "pixi":
            return tuple(f"pixi remove {name}" for name in names)
        return (" ".join(["conda remove -y", *(("--force",) if force else ()), *names]),)

    # --- the examined interpreter as a matrix target --------------------------------------

    @functools.cached_property
    def gpus(self) -> tuple[GpuFacts, ...]:
        """The GPUs the driver lists."""
        drv = self.facts.driver
        return drv.gpus if drv is not None else ()

    @functools.cached_property
    def gpu_capabilities(self) -> tuple[str, ...]:
        """Compute capabilities of the driver's GPUs, oldest first."""
        caps = [g.compute_capability for g in self.gpus if g.compute_capability]
        return tuple(sorted(caps, key=version_key))

    @functools.cached_property
    def target(self) -> Target:
        """This machine as a matrix target: Python, platform, driver and its oldest GPU."""
        python = python_minor(self.python_version) if self.python_version else None
        drv = self.facts.driver
        driver = drv.driver_version if drv is not None and drv.gpus else None
        caps = self.gpu_capabilities
        return Target(
            python=python,
            platform=self.platform,
            driver=driver,
            gpu=caps[0] if caps else None,
            wsl=self.wsl is not None,
        )

    @functools.cached_property
    def marker_env(self) -> dict[str, str]:
        """PEP 508 marker variables of the examined interpreter, as far as the facts tell."""
        python, plat = self.facts.python, self.facts.platform
        return marker_environment(
            python_version=self.python_version,
            implementation=None if python is None else python.implementation,
            system=None if plat is None else plat.system,
            machine=None if plat is None else plat.machine,
            release=None if plat is None else plat.release,
        )

    # --- GPU presence --------------------------------------------------------------------------

    @functools.cached_property
    def device_nodes(self) -> tuple[str, ...]:
        """``/dev/nvidia*`` nodes (the kernel probe's, else the platform's list)."""
        kernel = self.facts.nvidia_kernel
        if kernel is not None and kernel.device_nodes:
            return tuple(n.path for n in kernel.device_nodes)
        return self.facts.platform.nvidia_device_nodes if self.facts.platform else ()

    @functools.cached_property
    def pci_gpus(self) -> int:
        """NVIDIA devices on the PCI bus (0 when none or not read)."""
        kernel = self.facts.nvidia_kernel
        return len(kernel.pci_devices) if kernel is not None else 0

    @functools.cached_property
    def no_nvidia_gpu_seen(self) -> bool:
        """The kernel facts show no NVIDIA GPU at all: the PCI bus was read and holds no
        NVIDIA device, ``/proc/modules`` was read and lists no ``nvidia`` module, and no
        ``/dev/nvidia*`` node exists. A container reads its host's bus and modules, so there
        the host has no GPU to hand over either. False where any of it was not read (a log,
        a sandbox), on arm64 Linux, whose Jetson GPU is no PCI device (L4T drives it with
        nvgpu, not nvidia: NVIDIA's Jetson Linux Developer Guide), and under WSL 2 (a
        container on it included: the kernel release is the VM's), whose GPU the Windows
        driver serves through /dev/dxg with no PCI device, nvidia module or /dev/nvidia* node
        in the VM (https://docs.nvidia.com/cuda/wsl-user-guide/index.html)."""
        kernel = self.facts.nvidia_kernel
        plat = self.facts.platform
        if kernel is None or plat is None or kernel.pci_source is None or kernel.modules is None:
            return False
        if plat.machine.lower() in ("aarch64", "arm64") or self.wsl:
            return False
        return (
            not kernel.pci_devices
            and "nvidia" not in kernel.modules
            and not kernel.kernel_module_version
            and not self.device_nodes
        )

    @functools.cached_property
    def gpu_presence(self) -> str:
        """``present`` (the driver lists GPUs); ``driver-broken`` (a GPU is there and its
        driver fails); ``not-handed-over`` (a container given no GPU though the host or the
        image has one, or given device nodes by hand without the driver's libraries);
        ``absent`` (nothing says a GPU is here, or the bus was read and holds none:
        :attr:`no_nvidia_gpu_seen`)."""
        drv = self.facts.driver
        if drv is not None and drv.gpus:
            return "present"
        reason = drv.error.reason if drv is not None and drv.error is not None else None
        if reason is not None and reason not in _ABSENT_REASONS:
            return "driver-broken"  # version mismatch, no permission: a GPU is there
        env = self.facts.environment or {}
        wants = env.get("NVIDIA_VISIBLE_DEVICES", "").strip().lower() not in ("", "void", "none")
        if self.container:
            # A container sees the host's PCI bus and modules, not its own devices.
            if self.device_nodes:
                if reason in ("library-not-found", "no-gpu"):
                    return "not-handed-over"
                return "driver-broken"
            if self.no_nvidia_gpu_seen:
                # Observed: the bus it shares with its host holds no NVIDIA device, so there is
                # none to hand over, whatever NVIDIA_VISIBLE_DEVICES (a CUDA image's) asks for.
                return "absent"
            return "not-handed-over" if self.pci_gpus or wants else "absent"
        if self.device_nodes or self.pci_gpus:
            return "driver-broken"
        return "absent"

    # --- what TensorFlow itself showed ------------------------------------------------------

    @functools.cached_property
    def observations(self) -> Mapping[str, str]:
        """Each kind of :data:`OBSERVATION_KINDS` that the facts show, with the plain words
        of what was seen (``TensorFlow lists GPU:0``). A kernel run on a GPU implies the
        listing and the import (the smoke child imports the examined TensorFlow)."""
        seen: dict[str, str] = {}
        tf = self.facts.tensorflow
        # Without a version the import loaded some other module named tensorflow (a shadow).
        if tf is not None and tf.status == TFStatus.OK and tf.version:
            seen["tf-imports"] = f"TensorFlow {tf.version} imports"
            listed = self.tf_listed_gpus
            if listed:
                names = ", ".join(_short_device(d.name) for d in listed)
                seen["tf-lists-gpu"] = f"TensorFlow lists {names}"
                caps = [d.details.get("compute_capability") for d in listed]
                # TensorFlow lists a GPU at or above the lowest capability its release lists
                # (compat.listing_floor) whether or not the build has code for it, so the
                # listing vouches only for that floor, and only while CUDA has not refused the
                # build's code.
                covered = _covers(self.gpus, len(listed), [c for c in caps if c])
                if covered and self.gpu_code_refused is None:
                    seen["tf-lists-every-gpu"] = seen["tf-lists-gpu"]
        smoke = self.facts.smoke
        if smoke is not None:
            for kind, kernels, what in (
                ("gpu-kernels-ran", None, "kernels"),
                ("gpu-conv-ran", _CONV_KERNELS, "convolutions (cuDNN)"),
                ("gpu-xla-ran", _XLA_KERNELS, "XLA-compiled kernel"),
            ):
                ran = _ran_on_gpus(smoke, kernels, len(self.gpus))
                if ran:
                    seen[kind] = f"The smoke test's {what} ran on {', '.join(ran)}"
            if "gpu-kernels-ran" in seen:
                seen.setdefault("tf-imports", "The smoke test imported TensorFlow")
                seen.setdefault("tf-lists-gpu", seen["gpu-kernels-ran"])
                seen.setdefault("tf-lists-every-gpu", seen["gpu-kernels-ran"])
        return seen

    # --- CUDA libraries ------------------------------------------------------------------------

    @functools.cached_property
    def unopened_libraries(self) -> frozenset[str]:
        """Searched libraries the build shows it never opens.

        Read from the build: the names its shared objects hold (the probe's
        ``named_libraries``); where only its RUNPATH was read, the libraries with no wheel
        directory there though it lists the other wheels' (TF 2.14-2.21 list no curand). Empty
        when the build could not be read: then every library searched counts.
        """
        libs = self.facts.cuda_libs
        if libs is None:
            return frozenset()
        searched = {lib.name for lib in libs.libraries}
        if libs.named_libraries is not None:
            return frozenset(searched - set(libs.named_libraries))
        wheel_dirs = [
            PurePosixPath(p.replace("\\", "/")).parent.name
            for p in libs.runpath
            if "/nvidia/" in p.replace("\\", "/")
        ]
        if not wheel_dirs:
            return frozenset()
        listed = {name for d in wheel_dirs for name in libraries_in(d)}
        return frozenset(n for n in searched if library_dirs(n) and n not in listed)

    @functools.cached_property
    def missing_libraries(self) -> tuple[str, ...]:
        """Libraries TensorFlow needs to register a GPU that no candidate satisfies.

        Only those the build opens (:attr:`unopened_libraries`); not the driver's libcuda
        (driver.nvidia judges it); not NCCL, which TensorFlow opens only for multi-GPU
        collectives, never to register a device; not cuBLASLt for CUDA builds before 10.1,
        which had none (cuBLASLt first shipped with CUDA 10.1).
        """
        libs = self.facts.cuda_libs
        if libs is None:
            return ()
        cuda = version_key(self.build_cuda) if self.build_cuda else None
        skip = {"cuda", "nccl", *self.unopened_libraries}
        if cuda is not None and cuda[:2] < (10, 1):
            skip.add("cublasLt")
        return tuple(
            lib.name for lib in libs.libraries if lib.selected is None and lib.name not in skip
        )

    @functools.cached_property
    def tf_log(self) -> str:
        """TensorFlow's error, logged error lines and (bounded) stderr, as one text."""
        tf = self.facts.tensorflow
        if tf is None:
            return ""
        return "\n".join((tf.error_message or "", *tf.log_errors, tf.stderr_tail))

    @functools.cached_property
    def tf_events(self) -> tuple[tflog.Event, ...]:
        """What TensorFlow's error and log lines report (:mod:`tfdoctor.evidence.tflog`), read
        once for every check; a line kept both in ``log_errors`` and the stderr tail once."""
        seen: set[tuple[type, str]] = set()
        out = []
        for event in tflog.read_events(self.tf_log):
            key = (type(event), event.message)
            if key not in seen:
                seen.add(key)
                out.append(event)
        return tuple(out)

    def tf_logged(self, kind: type[tflog.E]) -> tuple[tflog.E, ...]:
        """The events of one kind in TensorFlow's log (:attr:`tf_events`)."""
        return tflog.of_kind(self.tf_events, kind)

    @functools.cached_property
    def unloaded_files(self) -> tuple[str, ...]:
        """Library files TensorFlow said it could not load, TensorRT's left out: TF-TRT is
        optional and its "Could not load dynamic library 'libnvinfer.so.7'" is harmless
        (TensorFlow registers the GPU without it)."""
        return tuple(
            name
            for name in tflog.unloaded_files(self.tf_events)
            if not tflog.library_of(name).startswith("nvinfer")
        )

    @functools.cached_property
    def gpu_code_refused(self) -> Optional[str]:
        """The line where TensorFlow (or its smoke test) said CUDA found no code in the build
        that the GPU can run; None when nothing said so."""
        texts = [self.tf_log]
        smoke = self.facts.smoke
        if smoke is not None:
            texts.append("\n".join((smoke.error_message or "", smoke.stderr_tail)))
        return next(filter(None, map(tflog.gpu_code_refused, texts)), None)

    @functools.cached_property
    def dlopen_failed(self) -> bool:
        """TensorFlow's log says GPU libraries did not load."""
        return bool(self.unloaded_files) or bool(self.tf_logged(tflog.GpuRegistrationSkipped))

    # --- declared ranges -----------------------------------------------------------------------

    def declared_range(self, dist: str) -> Optional[str]:
        """TensorFlow's declared range for ``dist`` (``<2.0.0,>=1.23.5``): its installed
        metadata with markers evaluated for this interpreter, else the matrix's pin."""
        wanted = normalize_name(dist)
        for name, spec in self.declared_requirements:
            if name == wanted:
                return spec or None
        return None

    def numpy_runs_with(self) -> Optional[str]:
        """The NumPy range the installed TensorFlow runs with: its declared range, with NumPy
        1's cap where the matrix states its line was compiled against NumPy 1.x (numpy_abi)
        and the range admits NumPy 2 (2.7-2.11 declare a floor only), since no NumPy 2 loads
        it. What a fix that upgrades NumPy installs inside."""
        declared = self.declared_range("numpy")
        line = self.line
        if (
            declared is not None
            and line is not None
            and line.runs_on_numpy2() is False
            and spec_contains("2.0.0", declared) is not False
        ):
            return f"{declared},<2"
        return declared

    def runs_with(self, dist: str) -> Optional[str]:
        """The range of ``dist`` the installed TensorFlow runs with, what a fix installs inside:
        its declared range, narrowed where the matrix states its line needs more than its
        wheel says. NumPy: :meth:`numpy_runs_with`. Keras on a line released in step with its
        own (``keras_in_step``, 2.6-2.15): within that line, where the declared range admits
        the next line's (``keras~=2.6`` admits keras 2.15, which TensorFlow 2.6 does not
        import), as pip takes the newest release a range admits."""
        wanted = normalize_name(dist)
        if wanted == "numpy":
            return self.numpy_runs_with()
        declared = self.declared_range(wanted)
        line = self.line
        if wanted != "keras" or line is None or not line.keras_in_step:
            return declared
        own = f"=={line.line}.*"
        major, minor = line.key
        if declared is None:
            return own
        if spec_contains(f"{major}.{minor + 1}.0", declared) is False:
            return declared  # already within the line (<2.14,>=2.13.1 of 2.13)
        # The line's own range where the declared one admits its first release (~=2.6), else
        # both (a floor above it, as 2.13.1's >=2.13.1).
        if spec_contains(f"{major}.{minor}.0", declared):
            return own
        return f"{declared},{own}"

    @functools.cached_property
    def tf_declaring(self) -> tuple[PackageFacts, ...]:
        """The installed TensorFlow and the installed TensorFlow distributions it requires:
        a wrapper declares only its platform's build (``tensorflow`` on Windows requires
        ``tensorflow-intel==X``, on Linux aarch64 ``tensorflow-cpu-aws==X``), whose metadata
        declares the rest."""
        if self.tf is None:
            return ()
        found = [self.tf]
        for name, _ in applicable_requirements(self.tf.requires, self.marker_env, TF_DISTRIBUTIONS):
            inner = self.facts.package(name)
            if inner is not None and inner not in found:
                found.append(inner)
        return tuple(found)

    @functools.cached_property
    def declared_requirements(self) -> tuple[tuple[str, str], ...]:
        """Every requirement the installed TensorFlow declares for this interpreter, as
        (PEP 503 name, specifier; empty when unversioned), in the wheel's order.

        Read from its installed metadata (``Requires-Dist``, markers evaluated for this
        interpreter, no extra: what ``pip check`` judges); several lines for one name join.
        Where it names no range for a package the matrix pins, the matrix line's pin stands
        in (tf-keras is not TensorFlow's requirement: it is judged as a companion), and so does
        a range the line needs without declaring it (``undeclared_ranges``).
        """
        found: dict[str, list[str]] = {}
        for dist in self.tf_declaring:
            for req in applicable_requirements(dist.requires, self.marker_env):
                specs = found.setdefault(req[0], [])
                if req[1] and req[1] not in specs:
                    specs.append(req[1])
        for field in PIN_FIELDS if self.line is not None else ():
            value = getattr(self.line.pins, field) if self.line is not None else None
            name = normalize_name(field)
            if field != "tf_keras" and isinstance(value, str) and not found.get(name):
                found[name] = [value]
        # Ranges the line's code needs that its wheel does not declare (the matrix's
        # undeclared_ranges): judged as if declared, where the wheel names none.
        for name, value in (self.line.undeclared_ranges if self.line is not None else {}).items():
            if not found.get(name):
                found[name] = [value]
        # Where TensorFlow's metadata is not at hand (a log), the companions its wheels are
        # known to require (the companion table's required_by_tensorflow) stand in.
        if self.tf is not None and not self.tf.requires:
            for name, comp in self.companion_table.companions.items():
                need = comp.required_by(self.tf.version)
                if need is not None and not found.get(name):
                    found[name] = [need.spec]
        return tuple((name, ",".join(specs)) for name, specs in found.items())

    @functools.cached_property
    def companion_requirements(self) -> tuple[tuple[PackageFacts, str, str], ...]:
        """What each installed companion declares on TensorFlow, tf-keras or keras: (the
        companion, the PEP 503 name it requires, the specifier), from its own metadata.

        A companion is any installed distribution, TensorFlow's own aside, that requires one
        of them. A requirement on a TensorFlow distribution counts against the installed
        TensorFlow whatever its name (``tensorflow`` by tensorflow-text, also under
        ``tensorflow-cpu``), and also where it sits behind the extra named after the
        installed distribution (tensorflow-io and TensorFlow Addons declare their range as
        ``tensorflow<2.17,>=2.16; extra == 'tensorflow'``), which ``pip check`` never reads.
        """
        if self.tf is None:
            return ()
        providers = {normalize_name(p.name) for p in self.tf_providers} | {self.tf_name}
        found = []
        for pkg in self.facts.packages or ():
            if normalize_name(pkg.name) in providers:
                continue
            env = self.marker_env
            named = {**env, "extra": self.tf_name or ""}
            plain = applicable_requirements(pkg.requires, env, COMPANION_TARGETS)
            extra = applicable_requirements(pkg.requires, named, (self.tf_name or "",))
            for name, spec in dict.fromkeys((*plain, *extra)):
                target = "tensorflow" if name in TF_DISTRIBUTIONS else name
                if spec and (pkg, target, spec) not in found:
                    found.append((pkg, target, spec))
        return tuple(found)

    @functools.cached_property
    def tensorflow_wanted(self) -> tuple[tuple[PackageFacts, str], ...]:
        """The TensorFlow each installed package other than TensorFlow's own needs, installed
        or not: (the package, the specifier). Its own metadata's requirement on a TensorFlow
        distribution (plain, or behind the ``tensorflow`` extra, as tensorflow-io and
        TensorFlow Addons declare it), else the companion table's row for its release
        (tensorflow-probability declares none). What installing TensorFlow must keep.

        A release of a companion TensorFlow's own wheels require with a floor only, inside
        that floor (tensorflow-io-gcs-filesystem 0.37.1 under ``>=0.23.1``, the table's
        ``required_by_tensorflow``), is what pip installed for TensorFlow, and is left behind
        when TensorFlow is uninstalled: its own range says nothing of the TensorFlow wanted."""
        providers = {normalize_name(p.name) for p in self.tf_providers}
        if self.tf_name:
            providers.add(self.tf_name)
        named = {**self.marker_env, "extra": "tensorflow"}
        table = self.companion_table
        found: list[tuple[PackageFacts, str]] = []
        for pkg in self.facts.packages or ():
            name = normalize_name(pkg.name)
            if name in providers or name in TF_DISTRIBUTIONS:
                continue
            comp = table.companions.get(name)
            if comp is not None and any(
                spec_contains(pkg.version, need.spec) for need in comp.required_by_tensorflow
            ):
                continue  # pip's choice for a TensorFlow, not a TensorFlow it needs
            plain = applicable_requirements(pkg.requires, self.marker_env, TF_DISTRIBUTIONS)
            extra = applicable_requirements(pkg.requires, named, ("tensorflow",))
            specs = [spec for _, spec in dict.fromkeys((*plain, *extra)) if spec]
            row = table.companions.get(name) or table.built_on.get(name)
            own = row.row_of(pkg.version) if row is not None and not specs else None
            if own is not None and own.tensorflow:
                specs.append(own.tensorflow)
            found.extend((pkg, spec) for spec in dict.fromkeys(specs))
        return tuple(found)

    @functools.cached_property
    def companion_table(self) -> Companions:
        """The companion table, read once for this view (each read hashes the file)."""
        return load_companions()

    @functools.cached_property
    def companions_off_table(self) -> tuple[tuple[PackageFacts, CompanionRelease], ...]:
        """The installed companions (and libraries built on TensorFlow, the table's
        ``built_on``) whose release the companion table pairs with another TensorFlow than the
        installed one: (the package, its row). Empty where TensorFlow's version is not known.
        The table's answer alone: what a package's own metadata declares is
        :attr:`companion_requirements`."""
        if self.tf is None:
            return ()
        found = []
        for comp, own in self.companions_on_table:
            if own.admits(self.tf.version):
                continue
            declared = self.declared_range(comp.name)
            if declared and spec_contains(comp.version, declared):
                # TensorFlow's own requirement admits it: pip installed it for TensorFlow
                # (tensorflow-io-gcs-filesystem 0.31.0, the last with Windows wheels, under
                # TensorFlow 2.12 there).
                continue
            found.append((comp, own))
        return tuple(found)

    @functools.cached_property
    def companions_off_keras(self) -> tuple[tuple[PackageFacts, CompanionRelease], ...]:
        """The installed companions and libraries built on TensorFlow whose release's row in
        the companion table names the standalone Keras its code works with (``keras``), and
        the installed keras is outside it while their own declared keras range (their
        metadata, :meth:`declared_keras`) admits it: (the package, its row). A declaration
        that excludes it is a requirement pip reports, read as one."""
        keras = self.facts.package("keras")
        if keras is None:
            return ()
        return tuple(
            (comp, own)
            for comp, own in self.companions_on_table
            if own.keras
            and spec_contains(keras.version, own.keras) is False
            and all(spec_contains(keras.version, s) is not False for s in self.declared_keras(comp))
        )

    def declared_keras(self, comp: PackageFacts) -> tuple[str, ...]:
        """The keras ranges the companion ``comp`` declares in its metadata
        (:attr:`companion_requirements`); none where it declares none or none was read."""
        name = normalize_name(comp.name)
        return tuple(
            spec
            for c, target, spec in self.companion_requirements
            if target == "keras" and normalize_name(c.name) == name
        )

    @functools.cached_property
    def companions_on_table(self) -> tuple[tuple[PackageFacts, CompanionRelease], ...]:
        """The installed companions and libraries built on TensorFlow (the table's
        ``built_on``) whose installed release has a row in the companion table: (the package,
        its row)."""
        found = []
        table = self.companion_table
        for name, row in (*table.companions.items(), *table.built_on.items()):
            comp = self.facts.package(name)
            own = row.row_of(comp.version) if comp is not None else None
            if comp is not None and own is not None:
                found.append((comp, own))
        return tuple(found)

    def companion(self, name: str) -> Optional[Companion]:
        """The companion table's row for ``name`` (which release fits which TensorFlow)."""
        return self.companion_table.companions.get(normalize_name(name))

    def companion_urls(
        self, name: str, release: Optional[CompanionRelease] = None
    ) -> tuple[str, ...]:
        """Where the companion table's row for ``name`` comes from (its sources' addresses);
        with ``release``, that release's own sources first, the companion's where it has none."""
        sources = self.companion_table.sources
        own = tuple(sources[s].url for s in release.sources if s in sources) if release else ()
        row = self.companion(name) or self.companion_table.built_on.get(normalize_name(name))
        if own or row is None:
            return own
        return tuple(sources[s].url for s in row.sources if s in sources)

    def keras2_user_urls(self, names: tuple[str, ...]) -> tuple[str, ...]:
        """Where the rows of packages that need Keras 2 (``names``) come from."""
        table = self.companion_table
        ids = [s for n in names if n in table.keras2_users for s in table.keras2_users[n].sources]
        return tuple(dict.fromkeys(table.sources[s].url for s in ids if s in table.sources))

    # --- the loader's path ---------------------------------------------------------------------

    @functools.cached_property
    def ld_library_path(self) -> tuple[str, ...]:
        """``LD_LIBRARY_PATH`` entries, in order."""
        value = (self.facts.environment or {}).get("LD_LIBRARY_PATH", "")
        return tuple(p for p in value.split(":") if p)

    def ld_path_without(self, directory: str) -> str:
        """The shell line that takes ``directory`` off ``LD_LIBRARY_PATH``."""
        wanted = _norm_dir(directory)
        kept = [p for p in self.ld_library_path if _norm_dir(p) != wanted]
        if not kept:
            return "unset LD_LIBRARY_PATH"
        return "export LD_LIBRARY_PATH=" + shlex.quote(":".join(kept))

    @staticmethod
    def ld_path_with(directories: tuple[str, ...]) -> str:
        """The shell line that puts ``directories`` first on ``LD_LIBRARY_PATH``."""
        joined = ":".join(directories)
        return (
            f"export LD_LIBRARY_PATH={shlex.quote(joined)}"
            + '"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"'
        )

    @functools.cached_property
    def site_packages(self) -> Optional[str]:
        """The site-packages directory TensorFlow (else the interpreter) installs into."""
        if self.tf is not None and self.tf.location:
            return self.tf.location
        py = self.facts.python
        return py.site_packages[0] if py is not None and py.site_packages else None

    @functools.cached_property
    def wheel_library_dirs(self) -> tuple[str, ...]:
        """The ``nvidia/*/lib`` directories of the installed NVIDIA wheels that may serve the
        build.

        The library probe's pip candidates name them; without those, the installed
        ``nvidia-*`` distributions of the build's release do (``nvidia-cudnn-cu12`` ships
        ``nvidia/cudnn/lib``).
        """
        libs = self.facts.cuda_libs
        dirs = {
            str(PurePosixPath(c.path).parent)
            for lib in (libs.libraries if libs is not None else ())
            for c in lib.candidates
            if c.origin == "pip"
        }
        site = self.site_packages
        if not dirs and site is not None:
            dirs.update(
                str(PurePosixPath(site) / "nvidia" / sub / "lib")
                for _, sub in self.build_cuda_wheels
            )
        return tuple(sorted(dirs))

    @functools.cached_property
    def libdevice_root(self) -> Optional[str]:
        """The CUDA root above the ``nvvm/libdevice/libdevice.10.bc`` the probe found."""
        libs = self.facts.cuda_libs
        if libs is None or libs.libdevice is None:
            return None
        return str(PurePosixPath(libs.libdevice.replace("\\", "/")).parents[2])

    @functools.cached_property
    def xla_flags_for_libdevice(self) -> Optional[str]:
        """The ``XLA_FLAGS`` that point XLA at the libdevice found here, where XLA does not
        look by itself; None when it looks there already, or when none was found.

        XLA looks in ``--xla_gpu_cuda_data_dir``, else in /usr/local/cuda and the
        ``nvidia/cuda_nvcc`` wheel beside TensorFlow (CandidateCudaRoots,
        xla/tsl/platform/default/cuda_root_path.cc); not in ``$CUDA_HOME``. The user's other
        flags are kept.
        """
        root = self.libdevice_root
        if root is None or self.os == "windows":  # no TensorFlow GPU build there since 2.11
            return None
        defaults = {PurePosixPath(DEFAULT_CUDA_ROOT)}
        if self.tf is not None and self.tf.location:
            defaults.add(PurePosixPath(self.tf.location) / "nvidia" / nvcc_wheel_dir())
        else:
            # Without a known TensorFlow, any site's cuda_nvcc may be the one next to it.
            sites = self.facts.python.site_packages if self.facts.python else ()
            defaults.update(PurePosixPath(s) / "nvidia" / nvcc_wheel_dir() for s in sites)
        current = (self.facts.environment or {}).get("XLA_FLAGS", "")
        data_dir = xla_cuda_data_dir(current)
        if data_dir is not None and PurePosixPath(data_dir) == PurePosixPath(root):
            return None
        if data_dir is None and PurePosixPath(root) in defaults:
            return None
        return " ".join([*without_xla_cuda_data_dir(current), f"--xla_gpu_cuda_data_dir={root}"])

    @functools.cached_property
    def runpath_misses_wheels(self) -> bool:
        """TensorFlow's library was read and its RUNPATH names no ``nvidia/*/lib`` directory."""
        libs = self.facts.cuda_libs
        if libs is None or not libs.runpath_object:
            return False
        return not any("/nvidia/" in p.replace("\\", "/") for p in libs.runpath)

    @functools.cached_property
    def cuda_wheels(self) -> tuple[tuple[PackageFacts, str], ...]:
        """Installed ``nvidia-*`` distributions that carry CUDA libraries, each with the
        ``nvidia/<dir>`` it writes (``nvidia-cudnn-cu12`` -> ``cudnn``)."""
        found = []
        for pkg in self.facts.packages or ():
            sub = wheel_dir(normalize_name(pkg.name), pkg.version)
            if sub is not None:
                found.append((pkg, sub))
        return tuple(found)

    @functools.cached_property
    def other_release_wheels(self) -> tuple[PackageFacts, ...]:
        """Installed ``nvidia-*`` wheels of another CUDA major than the build's (their ``-cuXX``
        suffix: ``nvidia-cublas-cu11`` beside a CUDA 12 build; the ``nvidia/cuXX`` directory
        of the unsuffixed CUDA 13 wheels), or cuDNN wheels of another
        cuDNN major than the build's: they hold other sonames than the build loads
        (``libcudart.so.11.0``, not ``libcudart.so.12``), so they are not its wheels. Empty
        where the build's release is not known."""
        cuda = version_key(self.build_cuda_major or "")[:1]
        cudnn = version_key(self.build_cudnn or "")[:1]
        other = []
        for pkg, sub in self.cuda_wheels:
            wheel_cuda = wheel_cuda_major(normalize_name(pkg.name), sub)
            if (cuda and wheel_cuda is not None and (wheel_cuda,) != cuda) or (
                sub == "cudnn" and cudnn and version_key(pkg.version)[:1] not in ((), cudnn)
            ):
                other.append(pkg)
        return tuple(other)

    @functools.cached_property
    def build_cuda_wheels(self) -> tuple[tuple[PackageFacts, str], ...]:
        """:attr:`cuda_wheels` less :attr:`other_release_wheels`: those that may hold the
        libraries the build loads."""
        other = set(self.other_release_wheels)
        return tuple((pkg, sub) for pkg, sub in self.cuda_wheels if pkg not in other)

    @functools.cached_property
    def cuda_wheels_installed(self) -> tuple[str, ...]:
        """Installed ``nvidia-*`` distributions that may serve the build, by name."""
        return tuple(sorted(normalize_name(pkg.name) for pkg, _ in self.build_cuda_wheels))

    def frameworks_pinning(
        self, dists: Iterable[str], tf_ranges: Optional[Mapping[str, str]] = None
    ) -> tuple[str, ...]:
        """Installed frameworks (``torch 2.4.0``) whose wheels require one of ``dists``
        (nvidia-* distributions), each pinning its own versions of them: one environment
        cannot hold both its pins and TensorFlow's. Given ``tf_ranges`` (TensorFlow's range
        for each distribution, its and-cuda extra's), only those whose requirement here (its
        markers holding) admits no release TensorFlow's range does: ranges that meet let one
        environment hold both."""
        wanted = {normalize_name(requirement_name(d)) for d in dists}
        tf = {normalize_name(k): v for k, v in (tf_ranges or {}).items()}
        out = []
        for name in FRAMEWORKS_PINNING_CUDA:
            pkg = self.facts.package(name)
            if pkg is None:
                continue
            if tf_ranges is None:
                pins = bool({normalize_name(requirement_name(r)) for r in pkg.requires} & wanted)
            else:
                pins = any(
                    dist in tf and not ranges_meet(spec, tf[dist])
                    for dist, spec in applicable_requirements(
                        pkg.requires, self.marker_env, tuple(wanted)
                    )
                )
            if pins:
                out.append(f"{pkg.name} {pkg.version}")
        return tuple(out)


#: Frameworks whose wheels pin their own nvidia-* versions (their Requires-Dist: torch's
#: ``nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux"``, jax's cuda12 plugin's ranges).
FRAMEWORKS_PINNING_CUDA: Final = (
    "torch",
    "jax",
    "jaxlib",
    "jax-cuda12-plugin",
    "cupy-cuda12x",
    "onnxruntime-gpu",
)


def applicable_requirements(
    lines: Sequence[str], env: Mapping[str, str], names: Optional[Sequence[str]] = None
) -> list[tuple[str, str]]:
    """The requirement ``lines`` (``Requires-Dist``) whose markers hold in ``env``, as (PEP 503
    name, specifier), limited to ``names`` when given; unparsable lines are skipped, and so
    are markers that need a variable ``env`` lacks."""
    from packaging.markers import UndefinedEnvironmentName  # noqa: PLC0415 - 40 ms import
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415

    wanted = None if names is None else {normalize_name(n) for n in names}
    out = []
    for text in lines:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        name = normalize_name(req.name)
        if wanted is not None and name not in wanted:
            continue
        if req.marker is not None:
            try:
                if not req.marker.evaluate(dict(env)):
                    continue
            except UndefinedEnvironmentName:
                continue
        out.append((name, str(req.specifier)))
    return out


def _short_device(name: str) -> str:
    """``/physical_device:GPU:0`` -> ``GPU:0``."""
    return name.rsplit("device:", 1)[-1].lstrip("/")


def _covers(gpus: Sequence[GpuFacts], listed: int, listed_caps: Sequence[str]) -> bool:
    """TensorFlow's ``listed`` GPUs (with the compute capabilities it gave) account for every
    GPU the driver lists: as many, and of the same capabilities where TensorFlow said."""
    if listed < len(gpus):
        return False
    if len(listed_caps) < listed:
        return True  # TensorFlow gave no capability for some: the count decides
    remaining = list(listed_caps)
    for gpu in gpus:
        if gpu.compute_capability is None:
            continue
        if gpu.compute_capability not in remaining:
            return False
        remaining.remove(gpu.compute_capability)
    return True


def _ran_on_gpus(
    smoke: SmokeFacts, kernels: Optional[Sequence[str]], driver_gpus: int
) -> list[str]:
    """The GPUs on which the smoke test ran ``kernels`` (every kernel when None), each where it
    was pinned and without a wrong result; empty unless that holds on every GPU tested and the
    GPUs tested are at least as many as the driver lists."""
    ran: list[str] = []
    for device in smoke.devices:
        if device.device_type != "GPU":
            continue
        results = [r for r in device.results if kernels is None or r.kernel in kernels]
        good = [
            r for r in results if r.status == "ok" and r.placed_on == r.device and r.ok is not False
        ]
        if not results or len(good) != len(results):
            return []
        ran.append(_short_device(device.name))
    return ran if ran and len(ran) >= driver_gpus else []


def _norm_dir(path: str) -> str:
    text = path.rstrip("/") or "/"
    return str(PurePath(text))


def dll_version(value: Optional[str]) -> Optional[str]:
    """A version as TensorFlow records it, with Windows DLL suffixes read as versions.

    The native Windows builds record the DLL names' suffixes: cuDNN ``64_8`` (cudnn64_8.dll)
    is cuDNN 8, CUDA ``64_112`` (cudart64_112.dll) is CUDA 11.2, ``64_101`` CUDA 10.1.
    """
    if not value:
        return None
    match = re.fullmatch(r"64_(\d+)", value.strip())
    if match is None:
        return value if re.fullmatch(r"\d+(\.\d+)*", value.strip()) else None
    digits = match.group(1)
    if len(digits) == 1:
        return digits
    return f"{digits[:-1]}.{digits[-1]}"


def view(facts: Facts, matrix: Optional[Matrix]) -> Machine:
    """The derived view of ``facts``."""
    return Machine(facts, matrix)
