"""A conda (or mamba) environment a log shows active: its prompt, its paths, its commands.

conda's and mamba's shell hooks put the active environment's name before the prompt
(``(sleap) user@host:~$``, ``changeps1``:
https://docs.conda.io/projects/conda/en/latest/user-guide/configuration/settings.html); an
environment lives in ``<root>/envs/<name>/`` (its interpreter in ``bin/``, its libraries in
``lib/``); ``conda activate``, ``mamba create`` and ``source activate`` name one. What is read
here is what the log shows, with the line it came from; a venv's prompt looks the same as
conda's, so a prompt is read as conda's only where the text names conda (or the prompt is
conda's own `(base)`), and never with a name a venv usually has.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Optional

from tfdoctor.records import Record, record

#: How much of a text is searched (a prompt and the commands open what a user pasted).
CONDA_READ = 256 << 10

#: The conda packages that install the ``tensorflow`` import package, conda-forge's and the
#: default channels' (``tensorflow-base`` holds the files, the others are its metapackages:
#: https://anaconda.org/anaconda/tensorflow-base, https://anaconda.org/conda-forge/tensorflow),
#: the package holding the files first. The one list of them: the evidence reads them in
#: ``conda list``, the machine looks them up in its facts, the causes widen it.
CONDA_TENSORFLOW: tuple[str, ...] = (
    "tensorflow-base",
    "tensorflow",
    "tensorflow-gpu",
    "tensorflow-cpu",
)

#: A prompt with an environment's name before a Unix shell's own (``user@host:dir$``,
#: ``[user@host dir]$``, ``user@host dir %``).
_PROMPT = re.compile(
    r"(?m)^\((?P<env>[\w.-]{1,60})\)[ \t]+"
    r"(?:[\w.-]+@[\w.-]+(?::[~/][^\s$#%]{0,200}| [~\w./-]{1,200}) ?[$#%]"
    r"|\[[\w.-]+@[\w.-]+ [^\]\n]{0,200}\][$#])"
)
#: Names ``python -m venv``, virtualenv, Poetry and Pipenv give their environments' prompts.
_VENV_NAME = re.compile(r"(?i)venv|virtualenv|^\.?env$|-py\d\.\d+$|-[A-Za-z0-9_-]{8}$")
#: conda, or a distribution of it (miniconda, anaconda, mamba, micromamba, miniforge),
#: named anywhere: what makes a prompt's name a conda environment's rather than a venv's.
_CONDA_WORDS = ("conda", "mamba", "miniforge")


def _names_conda(head: str) -> bool:
    """Whether ``head`` names conda, or shows conda's own default environment's prompt
    (``(base)``): substring tests, as a log's head is read for every block."""
    low = head.lower()
    return "(base)" in head or any(word in low for word in _CONDA_WORDS)


#: An environment's directory in a path, under conda's, Miniforge's or mamba's root.
_ENV_PATH = re.compile(
    r"[/\\](?:(?:mini|ana)conda\d*|miniforge\d*|mambaforge|micromamba|conda|\.conda)"
    r"[/\\]envs[/\\][\w.-]{1,60}[/\\]"
)
#: A command that makes or enters an environment.
_COMMAND = re.compile(
    r"(?m)(?:^|[$#%>][ \t]*)"
    r"(?:(?:conda|mamba|micromamba)[ \t]+(?:activate|create)|source[ \t]+activate)"
    r"[ \t]+\S"
)


#: A virtual environment made or entered (python -m venv, virtualenv, its activate script on
#: Unix or Windows) or a venv's prompt stacked on conda's: the Python that runs is the venv's.
_VENV_AFTER = re.compile(
    r"(?m)-m[ \t]+(?:venv|virtualenv)\b|\bvirtualenv[ \t]+\S|(?:^|[ \t;&])(?:source|\.)[ \t]+\S*"
    r"bin/activate\b|Scripts[\\/]activate|^\([\w.-]{1,60}\)[ \t]+\([\w.-]{1,60}\)[ \t]"
)


def read_conda_env(text: str) -> Optional[tuple[int, str]]:
    """The first line of ``text`` (its head) showing an active conda environment: its index
    and the line, stripped; None where none does."""
    head = text[:CONDA_READ]
    found: list[re.Match[str]] = []
    # Each word is asked of ``text`` first: where it is a block, that answers from the lines'
    # shapes, without a pass over the head. A prompt opens a line.
    prompt = head.startswith("(") or ("\n(" in text and "\n(" in head)
    if prompt and _names_conda(head):
        # A prompt's name alone is a venv's as often as conda's (`python -m venv` names the
        # prompt after its directory): read only where the text names conda at all.
        found += [m for m in _PROMPT.finditer(head) if not _VENV_NAME.search(m.group("env"))][:1]
    if "envs" in text and "envs" in head:
        found += [m for m in (_ENV_PATH.search(head),) if m is not None]
    if any(word in text and word in head for word in ("activate", "create")):
        found += [m for m in (_COMMAND.search(head),) if m is not None]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    if _VENV_AFTER.search(head, first.start()):
        return None  # a venv made or entered inside conda's: the venv's Python runs
    start = head.rfind("\n", 0, first.start()) + 1
    end = head.find("\n", first.end())
    line = head[start : end if end >= 0 else len(head)].strip()[:200]
    return head.count("\n", 0, start), line


@record
class UnresolvedSpec(Record):
    """A package spec conda's solver could not find, as ResolvePackageNotFound lists it."""

    name: str
    #: The version the spec pins (``0.6.0``), empty where it pins none.
    version: str
    #: The exact build the spec pins (``hdf63c60_3``), empty where it pins none.
    build: str


#: conda's ResolvePackageNotFound: its name, then one ``  - SPEC`` line per spec it could not
#: find (conda/exceptions.py, ``"  - %s" % bad_chain``); ``conda env create`` prints it for
#: an environment file's dependencies. A spec is ``name=version=build`` or ``name==version``,
#: after its channel where the file names one (``conda-forge::name``).
_UNRESOLVED = re.compile(r"ResolvePackageNotFound:[ \t]*\r?\n((?:[ \t]*- [^\n]{1,300}\n?){1,200})")
_SPEC = re.compile(
    r"^[ \t]*- (?:[\w./-]{1,100}::)?(?P<name>[A-Za-z0-9_][\w.-]{0,100})"
    r"(?:={1,2}(?P<version>[\w.*+!]{1,60})(?:=(?P<build>[\w.*+]{1,100}))?)?[ \t\r]*$"
)


def spec_line(line: str) -> bool:
    """Whether ``line`` is one of conda's ``  - SPEC`` lines (``  - tensorflow==2.4``)."""
    return _SPEC.match(line) is not None


def _listed_specs(blocks: re.Pattern[str], text: str) -> list[UnresolvedSpec]:
    """The ``  - SPEC`` lines of every list ``blocks`` finds in ``text`` (its first group),
    each spec once, in order."""
    out: list[UnresolvedSpec] = []
    for block in blocks.finditer(text):
        for line in block.group(1).splitlines():
            m = _SPEC.match(line)
            if m is None:
                continue  # a chain (a -> b) or a range: no exact pin to judge
            spec = UnresolvedSpec(m["name"].lower(), m["version"] or "", m["build"] or "")
            if spec not in out:
                out.append(spec)
    return out


def read_unresolved_specs(text: str) -> list[UnresolvedSpec]:
    """The specs every ResolvePackageNotFound in ``text`` lists, each once, in order."""
    if "ResolvePackageNotFound" not in text:
        return []
    return _listed_specs(_UNRESOLVED, text)


#: conda's PackagesNotFoundError for a command's own request (``conda install NAME``): "The
#: following packages are not available from current channels:", one ``  - SPEC`` line per
#: package, then the channels searched (conda/exceptions.py, PackagesNotFoundError).
_NOT_AVAILABLE = re.compile(
    r"The following packages are not available from current channels:[ \t]*\r?\n\s*"
    r"((?:[ \t]*- [^\n]{1,300}\n?){1,50})"
)


def read_unavailable_specs(text: str) -> list[UnresolvedSpec]:
    """The specs every PackagesNotFoundError in ``text`` lists (a ``conda install``'s request
    that no channel searched carries), each once, in order."""
    if "not available from current channels" not in text:
        return []
    return _listed_specs(_NOT_AVAILABLE, text)


#: pixi's PyPI resolver (rattler_installs_packages) excluding every release of a package
#: because no wheel is tagged for the environment's Python and platform (its declared
#: system requirements) and there is no source archive; the package's name opens the list of
#: its releases, wrapped over lines before the reason (``└─ NAME 0.1.0 | 0.1.1 ...``).
#: The reason is wrapped to the terminal's width: any run of blanks between its words.
_EXCLUDED_REASON = (
    "is excluded because none of the artifacts are compatible with the Python interpreter or "
    "glibc version"
).replace(" ", r"\s{1,40}")
_PYPI_EXCLUDED = re.compile(
    r"[└├]─[ \t]+(?P<dist>[A-Za-z0-9][\w.-]{0,80})[ \t]+\d[^└├]{0,3000}?" + _EXCLUDED_REASON
)


def read_pypi_excluded(text: str) -> list[str]:
    """The packages pixi's PyPI resolver excluded for having no compatible wheel, in order."""
    if "artifacts are" not in text and "artifacts\n" not in text:
        return []
    out: list[str] = []
    for m in _PYPI_EXCLUDED.finditer(text):
        dist = m["dist"].lower().replace("_", "-")
        if dist not in out:
            out.append(dist)
    return out


#: The environment file a conda or mamba command was given (``conda env create -f FILE``).
_ENV_FILE = re.compile(
    r"(?:conda|mamba)[ \t]+env[ \t]+(?:create|update)\b[^\n]{0,200}?(?:-f|--file)[ =\t]+"
    r"(?P<file>[^\s'\"]{1,200}\.ya?ml)\b"
)


def read_env_file(text: str) -> Optional[str]:
    """The environment file the first ``conda env create``/``update`` in ``text`` names."""
    if "env" not in text:
        return None
    m = _ENV_FILE.search(text[:CONDA_READ])
    return m["file"] if m is not None else None


#: ``conda list``'s header (conda/cli/main_list.py: "# packages in environment at %s:"), then
#: its rows: name, version, build string, channel (empty for the default channels; ``pypi``
#: with the build ``pypi_0`` for what pip installed).
_LIST_HEADER = "# packages in environment at"
#: How much of the text after the header is read for rows (a list of a thousand packages).
_LIST_READ = 256 * 1024
_LIST_ROW = re.compile(
    r"^(?P<name>[a-z0-9][\w.-]{0,80})[ \t]+(?P<version>\d[\w.!+]{0,40})[ \t]+"
    r"(?P<build>[\w.+]{1,80})(?:[ \t]+(?P<channel>[\w./:-]{1,200}))?[ \t]*\r?$",
    re.MULTILINE,
)
#: A row of conda 4.5 and older for a distribution pip installed: ``protobuf 3.4.0 <pip>``
#: (conda/cli/main_list.py then printed pip's packages so, with no build and no channel).
_PIP_ROW = re.compile(
    r"^(?P<name>[a-z0-9][\w.-]{0,80})[ \t]+(?P<version>\d[\w.!+]{0,40})[ \t]+<pip>[ \t]*\r?$",
    re.MULTILINE,
)
#: A package's folder in conda's package cache: ``pkgs/jaxlib-0.4.23-cuda120py311h.../``
#: (conda's layout: one folder per package build).
_CACHE_FOLDER = re.compile(r"[/\\]pkgs[/\\](?P<name>[a-z0-9][\w.-]*?)-\d[\w.!+]*-[\w.+]+[/\\]")


@record
class CondaRow(Record):
    """One row of ``conda list`` as printed (observed): its four columns, the channel empty
    where the row has none (the default channels)."""

    name: str
    version: str
    build: str
    channel: str

    @property
    def kind(self) -> Optional[str]:
        """``cpu`` or ``gpu`` by the build string: the default channels build ``eigen_``,
        ``mkl_`` (CPU) and ``gpu_`` variants, conda-forge ``cpu_`` and ``cuda<ver>`` ones;
        None for pip's (``pypi_0``) or another."""
        if re.match(r"(?:eigen|mkl|cpu)_", self.build):
            return "cpu"
        if re.match(r"gpu_|cuda\d+", self.build):
            return "gpu"
        return None


def _list_row(m: re.Match[str]) -> CondaRow:
    """The row ``m`` of :data:`_LIST_ROW` matched."""
    return CondaRow(m["name"], m["version"], m["build"], m["channel"] or "")


def list_row_at(text: str, start: int) -> Optional[CondaRow]:
    """The ``conda list`` row on the line of ``text`` that starts at ``start``, None where
    that line is not one: for a caller that finds the lines worth trying by itself. conda 4.5
    and older list what pip installed as ``name version <pip>`` (no build, no channel): such a
    row reads as the build ``pypi_0`` and the channel ``pypi`` that later releases print."""
    m = _LIST_ROW.match(text, start)
    if m is not None:
        return _list_row(m)
    pip = _PIP_ROW.match(text, start)
    return CondaRow(pip["name"], pip["version"], "pypi_0", "pypi") if pip is not None else None


#: A line of ``conda list``'s output (conda/cli/main_list.py prints its header's comment
#: lines, then one line of blank-separated columns a package, nothing else): a comment, a
#: blank line, or a line of two to six columns, a row :data:`_LIST_ROW` reads or one it does
#: not (pip's ``<pip>`` of conda 4.5 and older, ``<develop>``). Any other line (a prompt, a
#: traceback, another table's rule of dashes) is after the list: the rows of what follows
#: (``pip list --outdated``'s ``numpy 2.0.1 2.1.0 wheel``) are another command's.
_LIST_LINE = re.compile(r"[ \t]*(?:#.*)?\r?|[a-z0-9_][^\s]*(?:[ \t]+[^\s]+){1,5}[ \t]*\r?")


def listed_rows(text: str) -> list[CondaRow]:
    """The rows of the first ``conda list`` in ``text``: those under its header (the same
    columns without it, as ``conda search`` prints them, say what a channel offers, not what
    is installed), up to the first line that is none of the list's (:data:`_LIST_LINE`),
    within :data:`_LIST_READ` of it."""
    at = text.find(_LIST_HEADER)
    if at < 0:
        return []
    rows: list[CondaRow] = []
    for line in text[at : at + _LIST_READ].split("\n"):
        if not _LIST_LINE.fullmatch(line):
            break
        m = _LIST_ROW.match(line)
        if m is not None:
            rows.append(_list_row(m))
    return rows


#: The environment ``conda list``'s header names (conda/cli/main_list.py: "# packages in
#: environment at %s:").
_LIST_PREFIX = re.compile(
    re.escape(_LIST_HEADER) + r"[ \t]+(?P<prefix>[^\n]{1,400}?):[ \t]*\r?$", re.M
)


def listed_prefix(text: str) -> Optional[str]:
    """The environment (its prefix) of the first ``conda list`` in ``text``, as its header
    names it; None where there is none."""
    at = text.find(_LIST_HEADER)
    m = _LIST_PREFIX.match(text, at) if at >= 0 else None
    return m["prefix"] if m is not None else None


def in_environment(prefix: str, site_packages: str) -> bool:
    """Whether ``site_packages`` is the site-packages of the conda environment at ``prefix``:
    ``PREFIX/lib/pythonX.Y/site-packages``, Windows' ``PREFIX\\Lib\\site-packages``
    (conda's layout), not an environment under it (``PREFIX/envs/NAME``: base holds the
    others) nor another (a virtual environment made beside conda's). Windows' names
    compare as its file system does, ignoring case."""

    def norm(path: str) -> str:
        bare = path.replace("\\", "/").rstrip("/")
        return bare.lower() if re.match(r"[A-Za-z]:/", bare) else bare

    base, site = norm(prefix), norm(site_packages)
    rest = site[len(base) + 1 :] if site.startswith(base + "/") else ""
    return rest.lower().startswith("lib/")


def conda_channels(text: str, names: Optional[frozenset[str]] = None) -> dict[str, str]:
    """The channel ``conda list`` shows for each of ``names`` (None: every package) it lists
    from a conda channel (not ``pypi``): its column as printed (``conda-forge``), empty for
    the default channels. Only rows under the list's header (:func:`listed_rows`): the same
    columns elsewhere may be another command's."""
    return rows_channels(listed_rows(text), names)


def rows_channels(
    rows: Iterable[CondaRow], names: Optional[frozenset[str]] = None
) -> dict[str, str]:
    """:func:`conda_channels` of the rows :func:`listed_rows` read."""
    found: dict[str, str] = {}
    for row in rows:
        named = names is None or row.name in names
        if named and row.build != "pypi_0" and row.channel != "pypi":
            found.setdefault(row.name, row.channel)
    return found


def conda_installed(text: str, names: frozenset[str]) -> frozenset[str]:
    """Which of ``names`` the text shows installed by conda (not pip): a ``conda list`` row
    under its header from a conda channel (:func:`conda_channels`), or a file in conda's
    package cache (:func:`conda_cached`)."""
    return frozenset(conda_channels(text, names)) | conda_cached(text, names)


def conda_cached(text: str, names: frozenset[str]) -> frozenset[str]:
    """Which of ``names`` the text shows a folder of in conda's package cache."""
    if "pkgs" not in text:
        return frozenset()
    return frozenset(m["name"] for m in _CACHE_FOLDER.finditer(text) if m["name"] in names)


@record
class CondaInfo(Record):
    """What ``conda info`` printed: its release, the virtual packages it detected, and whether
    its user agent names WSL 2's kernel."""

    #: conda's release (``4.12.0``), empty where the block does not show it.
    version: str
    #: The virtual packages it lists, by name (``__linux``, ``__glibc``, ``__cuda``).
    virtual: tuple[str, ...]
    wsl: bool
    #: The index of the ``virtual packages :`` line in the text.
    index: int
    #: The platform conda solves for (``linux-64``, ``win-64``, ``osx-arm64``), empty where
    #: the block does not show it.
    platform: str = ""

    @property
    def windows(self) -> bool:
        """conda runs on Windows: its platform is ``win-*``, or it lists ``__win`` (conda's
        virtual package of a Windows system, conda/plugins/virtual_packages/windows.py)."""
        return self.platform.startswith("win-") or "__win" in self.virtual


#: conda info's list of virtual packages (conda/cli/main_info.py: the field's name, then one
#: ``name=version=build`` per line under it, aligned after the colon).
_VIRTUAL_LIST = re.compile(
    r"(?m)^[ \t]*virtual packages[ \t]*:[ \t]*(?P<first>__\w+=[^\s]*)"
    r"(?P<rest>(?:\r?\n[ \t]{4,}__\w+=[^\s]*)*)"
)
_INFO_VERSION = re.compile(r"(?m)^[ \t]*conda version[ \t]*:[ \t]*(?P<version>\d+(?:\.\d+){1,2})")
_INFO_AGENT = re.compile(r"(?m)^[ \t]*user-agent[ \t]*:[^\n]*")
#: conda info's ``platform : win-64`` line (conda/cli/main_info.py: the subdir it solves for).
_INFO_PLATFORM = re.compile(r"(?m)^[ \t]*platform[ \t]*:[ \t]*(?P<platform>[a-z]+-[\w]+)")


def read_conda_info(text: str) -> Optional[CondaInfo]:
    """The first ``conda info`` block of ``text`` that lists virtual packages; None where
    none does."""
    if "virtual packages" not in text:
        return None
    listed = _VIRTUAL_LIST.search(text)
    if listed is None:
        return None
    names = tuple(
        line.strip().split("=", 1)[0]
        for line in (listed["first"], *listed["rest"].split("\n"))
        if line.strip()
    )
    version = _INFO_VERSION.search(text)
    agent = _INFO_AGENT.search(text)
    platform = _INFO_PLATFORM.search(text)
    return CondaInfo(
        version["version"] if version is not None else "",
        names,
        # WSL 2's kernel names itself in its release (5.15.90.1-microsoft-standard-WSL2).
        agent is not None and "microsoft-standard" in agent.group(0),
        text.count("\n", 0, listed.start()),
        platform["platform"] if platform is not None else "",
    )
