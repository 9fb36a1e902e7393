"""Which distribution installs an import package, read from ``data/modules.yaml``.

A message names a module (``No module named 'cv2'``), a fix installs a distribution
(``opencv-python``); a traceback's frame lies in a package directory (``tensorflow_text/``),
a finding names the distribution. The rows name their source; a module not listed is unknown,
never guessed from its name. Imports nothing from the package but the YAML reader and the
record base.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Optional, TypeVar

from tfdoctor.records import Record, record
from tfdoctor.yamldoc import (
    SOURCE_ID,
    DataSource,
    NodeReader,
    compose,
    load_cached,
    version_key,
)

if TYPE_CHECKING:
    from yaml import Node

#: The module table shipped inside the package.
MODULES_DATA = Path(__file__).parent / "data" / "modules.yaml"
MODULES_VERSION = 1

_MODULE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
_DIST = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_OP = re.compile(r"^[A-Za-z][\w>]*\*?$")


@record
class SourceBuildNeeds(Record):
    """What building a distribution from its source archive needs on the machine."""

    #: Debian and Ubuntu packages with the headers and tools its build compiles against.
    apt: tuple[str, ...]
    #: What the headers are, in words ("the HDF5 headers").
    what: str
    #: The distribution's own build of it for Python 3 (Debian's name), or "".
    system_package: str = ""


@record
class StaleBuildScript(Record):
    """A distribution whose releases from ``broken_from`` to before ``fixed_in`` do not build
    from source with the build tools pip's isolated build environment installs now."""

    #: The first release whose isolated build takes the new tool.
    broken_from: str
    #: The first release that builds again.
    fixed_in: str
    #: The build tool whose release broke the ones between, in words (``Cython 3.0``).
    tool: str
    #: The words the build prints where that tool breaks it.
    error: str
    #: Where that is recorded (the row's sources' addresses).
    links: tuple[str, ...] = ()

    def breaks(self, version: str) -> bool:
        """Whether release ``version`` is one that no longer builds."""
        return bool(version) and (
            version_key(self.broken_from) <= version_key(version) < version_key(self.fixed_in)
        )

    def broke(self, errors: Sequence[str]) -> bool:
        """Whether a build that printed ``errors`` (its exception and compiler error lines)
        failed as the tool breaks it: its words among them, or no error of its own shown."""
        return not errors or any(self.error in line for line in errors)


@record
class InstallStep(Record):
    """A project installed by a step of its own, not by pip alone (a script in its clone)."""

    #: The command, run in the project's clone, that installs it.
    command: str
    #: What the step does, in words.
    what: str


@record
class RemovedModule(Record):
    """A standard module a Python release removed, or names it removed from one that stays."""

    #: The first Python without it (``3.12``; ``3.0`` for Python 2's renamed modules).
    removed_in: str
    #: What replaces it, as the source names it (``{name}`` stands for the name removed).
    use: str
    #: A package (distutils.util is its submodule), not a single-file module.
    package: bool = False
    #: The names removed from the module, which stays; empty where the whole module went.
    names: frozenset[str] = frozenset()

    def replacement(self, name: str = "") -> str:
        """What replaces ``name`` (the module itself where empty), as :attr:`use` says."""
        return self.use.replace("{name}", name)

    def kept_by(self, python: Optional[str]) -> bool:
        """Whether ``python`` (a version; None or empty where not known) still has it: a
        release before :attr:`removed_in`."""
        return bool(python) and version_key(str(python))[:2] < version_key(self.removed_in)[:2]


@record
class RemovedApi(Record):
    """A module, or names of a module, a release of its distribution removed."""

    #: The distribution (PEP 503 name) and its first release without them (``10.0.0``).
    dist: str
    removed_in: str
    #: What replaces them, as the release notes name it.
    use: str
    #: The names removed from the module; empty where the whole module went.
    names: frozenset[str] = frozenset()
    #: Where the removal is recorded (the row's sources' addresses).
    links: tuple[str, ...] = ()
    #: The first Python on which no release before the removal imports (``3.12``); empty
    #: where any Python the releases name does.
    python_below: str = ""
    #: The names are submodules the release no longer imports, not ones it deleted: a bare
    #: ``import module`` binds them only where something else imported them.
    unimported: bool = False
    #: The environments that come without the distribution at all ("a virtual environment of
    #: Python 3.12 or later, or uv's"), where the module is missing without being removed;
    #: empty where none is known to.
    absent_from: str = ""


@record
class RemovedApiUser(Record):
    """Releases of a distribution whose own code uses what a release of another distribution
    removed (a row of ``removed_from_distribution``), or what a Python release removed from
    its standard library (a row of ``removed_from_python``): beside that release, or on that
    Python or a later one, they fail."""

    #: The user's distribution (PEP 503 name) and its releases read using it (``>=1.14,<2.21``).
    dist: str
    releases: str
    #: The row of ``removed_from_distribution`` (its module) and the name of it used (empty
    #: where the whole module is).
    module: str
    name: str
    #: The user's first release read without it.
    fixed_in: str
    #: What fails, in words.
    fails: str
    #: Where the use is recorded (the row's sources' addresses).
    links: tuple[str, ...] = ()
    #: A distribution the user's code imports before it reaches the use (empty where none):
    #: without it installed, the code fails first on that import, never on the removal.
    after: str = ""
    #: The Python release that removed what it uses, where ``uses`` is a ``removed_from_python``
    #: row's (empty: a distribution's removal).
    python: str = ""


@record
class AddedApi(Record):
    """What a release of a distribution added, which an older release refuses in words of its
    own (the signature of those words keys it): code relying on it needs that release."""

    #: The distribution (PEP 503 name) and its first release with it (``3.3.0``).
    dist: str
    added_in: str
    #: What the release added, in words ("imshow takes an (M, N, 1) image").
    what: str
    #: What code does instead under older releases, where it can (empty where it cannot).
    instead: str = ""
    #: Where the addition is recorded (the row's sources' addresses).
    links: tuple[str, ...] = ()
    #: The module the release added (``torch._dynamo``), where what it added is a module: an
    #: older release's refusal is then also Python's own ``No module named`` for it, read from
    #: a traceback as well as from the signature's words. Empty where the addition is no module.
    module: str = ""


@record
class WindowsRuntime(Record):
    """A runtime a distribution's Windows extension modules load that its wheels do not
    carry: installed apart, or Windows refuses the extension ("DLL load failed")."""

    #: The runtime and its DLL, in words ("the Microsoft MPI runtime (msmpi.dll)").
    runtime: str
    #: The DLL's file name, which ``where`` looks for on PATH.
    dll: str
    #: Where its installer comes from, in words and with its page.
    get: str
    url: str


@record
class NativeLibrary(Record):
    """A native library of TensorFlow's projects that a program outside Python links and no
    package manager installs for it: what it is and where it comes from, for the loader's
    refusal to start a program that needs it."""

    #: What the library is, in words ("TensorFlow Lite's C library").
    what: str
    #: Where it comes from, in words (built from TensorFlow's source, an archive).
    get: str
    #: The commands that build or fetch it, as its project's documentation gives them.
    commands: tuple[str, ...]


class ModulesError(ValueError):
    """A module table that cannot be used: ``FILE:LINE: FIELD: what is wrong``."""


@record
class Modules(Record):
    """Import package -> distribution, and the packages of TensorFlow's family."""

    path: str
    sources: Mapping[str, DataSource]
    dists: Mapping[str, str]
    family: frozenset[str]
    #: Op name (or prefix ending in ``*``) -> the distribution whose library registers it.
    ops: Mapping[str, str]
    #: Distribution -> the one its project now publishes under another name.
    successors: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Distributions whose wheels carry compiled code (platform tags, not ``py3-none-any``).
    native: frozenset[str] = frozenset()
    #: Import packages outside TensorFlow's family written against TensorFlow's API
    #: (libraries built on it): their code asking TensorFlow for what it lacks was written for
    #: another TensorFlow.
    on_tensorflow: frozenset[str] = frozenset()
    #: Distribution -> what its source build needs (where pip finds no wheel of it).
    source_builds: Mapping[str, SourceBuildNeeds] = dataclasses.field(default_factory=dict)
    #: Standard module -> the Python release that removed it.
    removed: Mapping[str, RemovedModule] = dataclasses.field(default_factory=dict)
    #: A name a Python release removed from a standard module that stays, dotted
    #: (``collections.Mapping``, 3.10) -> its row: the release, and what replaces that name.
    removed_names: Mapping[str, RemovedModule] = dataclasses.field(default_factory=dict)
    #: Module -> what a release of its distribution removed (the module, or names of it).
    removed_from_dist: Mapping[str, RemovedApi] = dataclasses.field(default_factory=dict)
    #: Signature id -> what a release added that the older releases' words refuse.
    added_to_dist: Mapping[str, AddedApi] = dataclasses.field(default_factory=dict)
    #: Distribution -> the runtime its Windows extension modules load (:class:`WindowsRuntime`).
    windows_runtimes: Mapping[str, WindowsRuntime] = dataclasses.field(default_factory=dict)
    #: Import package -> the project's own install step (:class:`InstallStep`).
    install_steps: Mapping[str, InstallStep] = dataclasses.field(default_factory=dict)
    #: Op library file stem (``_regex_split_ops``) -> the distribution that ships it, for a
    #: log naming the library by its file name alone (``NotFoundError: _x_ops.so not found``).
    op_libraries: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Nightly distribution -> the release distribution it is the nightly build of (both
    #: install one import package: ``tb-nightly`` installs ``tensorboard``).
    nightlies: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Library file stem (``libtensorflowlite_c``) -> what it is and how to get it.
    native_libraries: Mapping[str, NativeLibrary] = dataclasses.field(default_factory=dict)
    #: The releases whose code uses what a row of ``removed_from_dist`` removed.
    removed_api_users: tuple[RemovedApiUser, ...] = ()
    #: Top-level folders that several distributions share as namespace packages (PEP 420:
    #: no ``__init__.py`` of their own), ``nvidia``, ``google``: an installed file's package
    #: is named with the folder below (``nvidia.dali_tf_plugin``), not by the root alone.
    namespaces: frozenset[str] = frozenset()
    #: Distribution -> the releases whose build script the current build tools break.
    stale_build_scripts: Mapping[str, StaleBuildScript] = dataclasses.field(default_factory=dict)

    @property
    def namespace_roots(self) -> frozenset[str]:
        """The top-level folders of ``namespaces`` (``google`` of ``google.cloud``)."""
        return frozenset(name.split(".")[0] for name in self.namespaces)

    def python_removal_user(self, dist: str, module: str, name: str) -> Optional[RemovedApiUser]:
        """The ``removed_api_users`` row of ``dist``'s use of what a Python release removed
        (``module``, or its ``name``; empty where the whole module), or None."""
        # The rows name distributions by their PEP 503 names.
        wanted = (re.sub(r"[-_.]+", "-", dist).lower(), module, name)
        return next(
            (
                u
                for u in self.removed_api_users
                if u.python and (u.dist, u.module, u.name) == wanted
            ),
            None,
        )

    def release_of(self, dist: str) -> str:
        """The release distribution ``dist`` is the nightly build of, else ``dist`` itself."""
        return self.nightlies.get(dist, dist)

    def distribution(self, module: str) -> Optional[str]:
        """The distribution that installs ``module`` (a dotted name: its longest listed
        prefix decides, so ``google.protobuf.internal`` is protobuf's), or None."""
        # No listed module has more parts than the deepest key: longer prefixes cannot match
        # (and a name of thousands of parts costs nothing).
        parts = module.split(".", self.depth)[: self.depth]
        for end in range(len(parts), 0, -1):
            found = self.dists.get(".".join(parts[:end]))
            if found is not None:
                return found
        return None

    @functools.cached_property
    def depth(self) -> int:
        """The most dotted parts a listed module has."""
        return max((key.count(".") + 1 for key in self.dists), default=1)

    def op_library(self, op: str) -> Optional[str]:
        """The distribution whose library registers the op ``op``, or None."""
        found = self.ops.get(op)
        if found is not None:
            return found
        return next(
            (d for key, d in self.ops.items() if key.endswith("*") and op.startswith(key[:-1])),
            None,
        )

    @functools.cached_property
    def _by_dist(self) -> Mapping[str, tuple[str, ...]]:
        """Distribution -> the import packages listed for it, in the table's order (built
        once: explain and check ask it per conflict and per frame)."""
        out: dict[str, list[str]] = {}
        for module, dist in self.dists.items():
            out.setdefault(dist, []).append(module)
        return {dist: tuple(mods) for dist, mods in out.items()}

    def modules_of(self, dist: str) -> tuple[str, ...]:
        """The import packages the table lists for ``dist`` (none where it lists none)."""
        return self._by_dist.get(dist, ())

    def module_of(self, dist: str) -> Optional[str]:
        """The import package of ``dist`` (its first listed module), or None."""
        return next(iter(self.modules_of(dist)), None)

    def written_on_tensorflow(self, dist: str) -> bool:
        """Whether the distribution ``dist`` (PEP 503 name) is a library the table lists as
        written against TensorFlow (``on_tensorflow``), by its name or its modules'."""
        return dist.replace("-", "_") in self.on_tensorflow or any(
            mod in self.on_tensorflow for mod in self.modules_of(dist)
        )


def _module_reader(reader: NodeReader) -> Callable[[Node, str], str]:
    """The reader of a row's module field: an import package's dotted name."""
    return reader.matching(_MODULE, "import package (dotted name)")


def _dist_reader(reader: NodeReader) -> Callable[[Node, str], str]:
    """The reader of a row's distribution field: a PEP 503 name."""
    return reader.matching(_DIST, "distribution (PEP 503 name)")


def parse_modules(text: str, path: str = "<modules>") -> Modules:
    """Validate module table YAML ``text`` (``path`` names it in errors)."""
    root = compose(text, path, "module table", ModulesError)
    reader = NodeReader(path, ModulesError)
    top = reader.mapping(
        root,
        "modules",
        ("schema_version", "sources", "modules", "ops"),
        (
            "successors",
            "source_builds",
            "removed_from_python",
            "removed_from_distribution",
            "added_to_distribution",
            "windows_runtimes",
            "install_steps",
            "op_libraries",
            "nightlies",
            "native_libraries",
            "removed_api_users",
            "namespaces",
            "stale_build_scripts",
        ),
    )
    reader.schema_version(top["schema_version"], MODULES_VERSION)
    sources = reader.sources(top["sources"], SOURCE_ID, DataSource)

    module = _module_reader(reader)
    dist = _dist_reader(reader)

    dists: dict[str, str] = {}
    family: set[str] = set()
    native: set[str] = set()
    on_tensorflow: set[str] = set()
    for where, name, fields, _ in reader.sourced_rows(
        top["modules"],
        "modules",
        "module",
        ("dist",),
        ("family", "native", "on_tensorflow"),
        module,
        sources,
    ):
        dists[name] = dist(fields["dist"], f"{where}.dist")
        if reader.flag(fields, "family", f"{where}.family"):
            family.add(name)
        if reader.flag(fields, "native", f"{where}.native"):
            native.add(dists[name])
        if reader.flag(fields, "on_tensorflow", f"{where}.on_tensorflow"):
            on_tensorflow.add(name)

    op = reader.matching(_OP, "op name, or prefix ending in *")

    ops: dict[str, str] = {}
    for where, name, fields, _ in reader.sourced_rows(
        top["ops"], "ops", "op", ("dist",), (), op, sources
    ):
        ops[name] = dist(fields["dist"], f"{where}.dist")
    successors: dict[str, str] = {}
    for where, name, fields, _ in _sourced_rows(
        reader, top, "successors", "dist", ("successor",), (), dist, sources
    ):
        successors[name] = dist(fields["successor"], f"{where}.successor")
    nightlies: dict[str, str] = {}
    for where, name, fields, _ in _sourced_rows(
        reader, top, "nightlies", "dist", ("release",), (), dist, sources
    ):
        nightlies[name] = dist(fields["release"], f"{where}.release")
    return Modules(
        path,
        sources,
        dists,
        frozenset(family),
        ops,
        successors,
        frozenset(native),
        frozenset(on_tensorflow),
        _source_builds(reader, top, sources),
        *(from_python := _removed(reader, top, sources)),
        removed_from_dist := _removed_from_dist(reader, top, sources),
        _added_to_dist(reader, top, sources),
        _windows_runtimes(reader, top, sources),
        _install_steps(reader, top, sources, module),
        _op_libraries(reader, top, sources, dist),
        nightlies,
        _native_libraries(reader, top, sources),
        _removed_api_users(reader, top, sources, removed_from_dist, from_python),
        frozenset(
            name
            for _, name, _, _ in _sourced_rows(
                reader, top, "namespaces", "root", (), (), module, sources
            )
        ),
        _stale_build_scripts(reader, top, sources),
    )


def _sourced_rows(
    reader: NodeReader,
    top: Mapping[str, Node],
    field: str,
    key: str,
    required: tuple[str, ...],
    optional: tuple[str, ...],
    read_key: Callable[[Node, str], str],
    sources: Mapping[str, DataSource],
    unique: bool = True,
) -> Iterator[tuple[str, str, dict[str, Node], tuple[str, ...]]]:
    """The rows of the optional table ``field``, each naming its sources: ``(where, key value,
    fields, source ids)`` per row (``NodeReader.sourced_rows``; ``unique``: one row per key
    value); none where the table is absent."""
    if field not in top:
        return
    yield from reader.sourced_rows(
        top[field], field, key, required, optional, read_key, sources, unique
    )


#: An op library's file name without its suffix: an add-on names its own after the op set
#: (``_regex_split_ops``, ``_sentencepiece_tokenizer``).
_LIBRARY_STEM = re.compile(r"^_?[A-Za-z]\w*$")


def _op_libraries(
    reader: NodeReader,
    top: Mapping[str, Node],
    sources: Mapping[str, DataSource],
    dist: Callable[[Node, str], str],
) -> dict[str, str]:
    """The ``op_libraries`` rows: op library file stem -> the distribution shipping it."""
    stem = reader.matching(_LIBRARY_STEM, "op library file name without .so")
    return {
        name: dist(fields["dist"], f"{where}.dist")
        for where, name, fields, _ in _sourced_rows(
            reader, top, "op_libraries", "library", ("dist",), (), stem, sources
        )
    }


_Row = TypeVar("_Row")


def _table(
    reader: NodeReader,
    top: Mapping[str, Node],
    sources: Mapping[str, DataSource],
    field: str,
    key: str,
    read_key: Callable[[Node, str], str],
    required: tuple[str, ...],
    build: Callable[[str, dict[str, Node]], _Row],
) -> dict[str, _Row]:
    """The optional table ``field`` as key value -> ``build(where, fields)`` per row; each row
    names its sources and holds exactly the ``required`` fields."""
    return {
        name: build(where, fields)
        for where, name, fields, _ in _sourced_rows(
            reader, top, field, key, required, (), read_key, sources
        )
    }


def _install_steps(
    reader: NodeReader,
    top: Mapping[str, Node],
    sources: Mapping[str, DataSource],
    module: Callable[[Node, str], str],
) -> dict[str, InstallStep]:
    """The ``install_steps`` rows: import package -> the project's own install step."""
    return _table(
        reader,
        top,
        sources,
        "install_steps",
        "module",
        module,
        ("command", "what"),
        lambda where, fields: InstallStep(
            reader.required_string(fields["command"], f"{where}.command"),
            reader.required_string(fields["what"], f"{where}.what"),
        ),
    )


#: A shared library's file name without its suffix (libtensorflowlite_c).
_NATIVE_STEM = re.compile(r"^lib[\w+-]+$")


def _native_libraries(
    reader: NodeReader, top: Mapping[str, Node], sources: Mapping[str, DataSource]
) -> dict[str, NativeLibrary]:
    """The ``native_libraries`` rows: library file stem -> what it is and how to get it."""
    return _table(
        reader,
        top,
        sources,
        "native_libraries",
        "library",
        reader.matching(_NATIVE_STEM, "library file name without its suffix"),
        ("what", "get", "commands"),
        lambda where, fields: NativeLibrary(
            reader.required_string(fields["what"], f"{where}.what"),
            reader.required_string(fields["get"], f"{where}.get"),
            reader.strings(fields["commands"], f"{where}.commands"),
        ),
    )


_DLL = re.compile(r"^[\w.-]+\.dll$", re.IGNORECASE)
_URL = re.compile(r"^https://\S+$")


def _windows_runtimes(
    reader: NodeReader, top: Mapping[str, Node], sources: Mapping[str, DataSource]
) -> dict[str, WindowsRuntime]:
    """The ``windows_runtimes`` rows: distribution -> the runtime its extensions load."""
    dist = _dist_reader(reader)

    out: dict[str, WindowsRuntime] = {}
    for where, name, fields, _ in _sourced_rows(
        reader,
        top,
        "windows_runtimes",
        "dist",
        ("runtime", "dll", "get", "url"),
        (),
        dist,
        sources,
    ):
        out[name] = WindowsRuntime(
            reader.required_string(fields["runtime"], f"{where}.runtime"),
            reader.required_string(fields["dll"], f"{where}.dll", _DLL, "DLL file name"),
            reader.required_string(fields["get"], f"{where}.get"),
            reader.required_string(fields["url"], f"{where}.url", _URL, "https URL"),
        )
    return out


class _Removal(NamedTuple):
    """A row of ``removed_from_python`` or ``removed_from_distribution``, its shared columns
    read."""

    where: str
    module: str
    fields: dict[str, Node]
    #: The row's source ids.
    ids: tuple[str, ...]
    removed_in: str
    use: str
    #: The names removed from the module, which stays, as listed; empty where the whole
    #: module went.
    names: tuple[str, ...]


def _removals(
    reader: NodeReader,
    top: Mapping[str, Node],
    field: str,
    release: tuple[re.Pattern[str], str],
    sources: Mapping[str, DataSource],
    required: tuple[str, ...] = (),
    optional: tuple[str, ...] = (),
) -> Iterator[_Removal]:
    """The rows of the removal table ``field``: each a module, the release that removed it
    (``release``: the form it must match, and its words), what replaces it, and the names
    removed where the module stays; ``required`` and ``optional``: the table's own fields."""
    for where, module, fields, ids in _sourced_rows(
        reader,
        top,
        field,
        "module",
        (*required, "removed_in", "use"),
        ("names", *optional),
        _module_reader(reader),
        sources,
    ):
        yield _Removal(
            where,
            module,
            fields,
            ids,
            reader.required_string(fields["removed_in"], f"{where}.removed_in", *release),
            reader.required_string(fields["use"], f"{where}.use"),
            reader.strings(fields["names"], f"{where}.names") if "names" in fields else (),
        )


_PYTHON_RELEASE = (re.compile(r"^3\.\d+$"), "Python release (3.12)")


def _removed(
    reader: NodeReader, top: Mapping[str, Node], sources: Mapping[str, DataSource]
) -> tuple[dict[str, RemovedModule], dict[str, RemovedModule]]:
    """The ``removed_from_python`` rows: standard module -> the release that removed it, and
    each name a row lists, dotted (``inspect.getargspec``) -> the release and what replaces
    that name (the module stays): the row's ``use``, or its ``uses`` entry for a name whose
    replacement differs (inspect.formatargspec's is not getargspec's)."""
    whole: dict[str, RemovedModule] = {}
    named: dict[str, RemovedModule] = {}
    for where, name, fields, _, removed_in, use, names in _removals(
        reader, top, "removed_from_python", _PYTHON_RELEASE, sources, optional=("package", "uses")
    ):
        package = reader.flag(fields, "package", f"{where}.package")
        row = RemovedModule(removed_in, use, package, frozenset(names))
        if not names:
            whole[name] = row
        uses = reader.mapping(fields["uses"], f"{where}.uses") if "uses" in fields else {}
        for each, node in uses.items():
            if each not in names:
                raise reader.error(node, f"{where}.uses.{each}", "not one of the row's names")
        for each in names:
            own_use = uses.get(each)
            text = reader.required_string(own_use, f"{where}.uses.{each}") if own_use else use
            named[f"{name}.{each}"] = dataclasses.replace(row, use=text)
    return whole, named


_RELEASE = (re.compile(r"^\d+(?:\.\d+)*$"), "release (3.3.0)")
#: A build tool and the release of it that broke a build (``Cython 3.0``): the fix pins the tool
#: below that release by its name.
_TOOL_RELEASE = (re.compile(r"^[A-Za-z][\w.-]* \d+(?:\.\d+)*$"), "tool and release (Cython 3.0)")


def _release_of(
    reader: NodeReader, fields: Mapping[str, Node], where: str, field: str
) -> tuple[str, str]:
    """A row's distribution and the release its ``field`` names (``added_in``)."""
    return (
        _dist_reader(reader)(fields["dist"], f"{where}.dist"),
        reader.required_string(fields[field], f"{where}.{field}", *_RELEASE),
    )


#: A signature's id, as tfdoctor/signatures.yaml spells them.
_SIGNATURE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


#: A module a release added, dotted below its package (``torch._dynamo``).
_ADDED_MODULE = re.compile(r"^[A-Za-z_]\w*(?:\.\w+)+$")


def _added_to_dist(
    reader: NodeReader, top: Mapping[str, Node], sources: Mapping[str, DataSource]
) -> dict[str, AddedApi]:
    """The ``added_to_distribution`` rows: signature id -> the release of a distribution that
    added what the signature's words (an older release's refusal) show missing."""
    signature = reader.matching(_SIGNATURE, "signature id")
    module = reader.matching(_ADDED_MODULE, "dotted module name")

    out: dict[str, AddedApi] = {}
    for where, name, fields, ids in _sourced_rows(
        reader,
        top,
        "added_to_distribution",
        "signature",
        ("dist", "added_in", "what"),
        ("instead", "module"),
        signature,
        sources,
    ):
        out[name] = AddedApi(
            *_release_of(reader, fields, where, "added_in"),
            reader.required_string(fields["what"], f"{where}.what"),
            reader.required_string(fields["instead"], f"{where}.instead")
            if "instead" in fields
            else "",
            tuple(sources[i].url for i in ids),
            module(fields["module"], f"{where}.module") if "module" in fields else "",
        )
    return out


def _removed_from_dist(
    reader: NodeReader, top: Mapping[str, Node], sources: Mapping[str, DataSource]
) -> dict[str, RemovedApi]:
    """The ``removed_from_distribution`` rows: module -> the release of its distribution that
    removed it (or the names listed of it)."""
    dist = _dist_reader(reader)
    return {
        row.module: RemovedApi(
            dist(row.fields["dist"], f"{row.where}.dist"),
            row.removed_in,
            row.use,
            frozenset(row.names),
            tuple(sources[i].url for i in row.ids),
            reader.required_string(
                row.fields["python_below"], f"{row.where}.python_below", *_PYTHON_RELEASE
            )
            if "python_below" in row.fields
            else "",
            reader.flag(row.fields, "unimported", f"{row.where}.unimported"),
            reader.required_string(row.fields["absent_from"], f"{row.where}.absent_from")
            if "absent_from" in row.fields
            else "",
        )
        for row in _removals(
            reader,
            top,
            "removed_from_distribution",
            _RELEASE,
            sources,
            required=("dist",),
            optional=("python_below", "unimported", "absent_from"),
        )
    }


#: A version range as a requirement writes it: comma-separated clauses (``>=1.14,<2.21``).
_RELEASES = (
    re.compile(r"^(?:(?:[<>]=?|==|!=|~=)\d+(?:\.\d+)*)(?:,(?:[<>]=?|==|!=|~=)\d+(?:\.\d+)*)*$"),
    "version range (>=1.14,<2.21)",
)


def _removed_api_users(
    reader: NodeReader,
    top: Mapping[str, Node],
    sources: Mapping[str, DataSource],
    removed: Mapping[str, RemovedApi],
    from_python: tuple[Mapping[str, RemovedModule], Mapping[str, RemovedModule]] = ({}, {}),
) -> tuple[RemovedApiUser, ...]:
    """The ``removed_api_users`` rows, each ``uses`` resolved to a row of ``removed``: its
    module, or module.name for a name the row lists; or to a row of ``removed_from_python``
    (``from_python``: its whole modules, its names dotted), whose release is then the row's
    ``python``."""
    whole, named = from_python
    out: list[RemovedApiUser] = []
    for where, name, fields, ids in _sourced_rows(
        reader,
        top,
        "removed_api_users",
        "dist",
        ("uses", "releases", "fixed_in", "fails"),
        ("after",),
        _dist_reader(reader),
        sources,
        unique=False,
    ):
        uses = reader.required_string(fields["uses"], f"{where}.uses")
        if any((row.dist, f"{row.module}.{row.name}".rstrip(".")) == (name, uses) for row in out):
            # One row per distribution and what it uses.
            raise reader.error(fields["uses"], f"{where}.uses", f"duplicate use {uses!r}")
        module, _, attr = uses.rpartition(".")
        python = ""
        if uses in whole:
            module, attr, python = uses, "", whole[uses].removed_in
        elif uses in named:
            python = named[uses].removed_in
        elif uses in removed and not removed[uses].names:
            module, attr = uses, ""
        elif not (module in removed and attr in removed[module].names):
            raise reader.error(
                fields["uses"],
                f"{where}.uses",
                "not a module or name removed_from_distribution or removed_from_python lists",
            )
        out.append(
            RemovedApiUser(
                name,
                reader.required_string(fields["releases"], f"{where}.releases", *_RELEASES),
                module,
                attr,
                reader.required_string(fields["fixed_in"], f"{where}.fixed_in", *_RELEASE),
                reader.required_string(fields["fails"], f"{where}.fails"),
                tuple(sources[i].url for i in ids),
                _dist_reader(reader)(fields["after"], f"{where}.after")
                if "after" in fields
                else "",
                python,
            )
        )
    return tuple(out)


_APT = re.compile(r"^[a-z0-9][a-z0-9.+-]+$")


def _source_builds(
    reader: NodeReader, top: Mapping[str, Node], sources: Mapping[str, DataSource]
) -> dict[str, SourceBuildNeeds]:
    """The ``source_builds`` rows: distribution -> what its build needs."""
    dist = _dist_reader(reader)

    out: dict[str, SourceBuildNeeds] = {}
    for where, name, fields, _ in _sourced_rows(
        reader,
        top,
        "source_builds",
        "dist",
        ("apt", "what"),
        ("system_package",),
        dist,
        sources,
    ):
        system = (
            reader.required_string(fields["system_package"], f"{where}.system_package", _APT)
            if "system_package" in fields
            else ""
        )
        out[name] = SourceBuildNeeds(
            reader.strings(fields["apt"], f"{where}.apt", _APT, "Debian package name"),
            reader.required_string(fields["what"], f"{where}.what"),
            system,
        )
    return out


def _stale_build_scripts(
    reader: NodeReader, top: Mapping[str, Node], sources: Mapping[str, DataSource]
) -> dict[str, StaleBuildScript]:
    """The ``stale_build_scripts`` rows: distribution -> the releases the build tools break."""
    out: dict[str, StaleBuildScript] = {}
    for where, name, fields, ids in _sourced_rows(
        reader,
        top,
        "stale_build_scripts",
        "dist",
        ("broken_from", "fixed_in", "tool", "error"),
        (),
        _dist_reader(reader),
        sources,
    ):
        out[name] = StaleBuildScript(
            reader.required_string(fields["broken_from"], f"{where}.broken_from", *_RELEASE),
            reader.required_string(fields["fixed_in"], f"{where}.fixed_in", *_RELEASE),
            reader.required_string(fields["tool"], f"{where}.tool", *_TOOL_RELEASE),
            reader.required_string(fields["error"], f"{where}.error"),
            tuple(sources[i].url for i in ids),
        )
    return out


@functools.cache
def modules(path: Optional[str] = None) -> Modules:
    """The module table (the shipped file unless ``path``), read once per process."""
    return load_cached(path or str(MODULES_DATA), "modules", ModulesError, parse_modules, Modules)


def distribution_of(module: str) -> Optional[str]:
    """The distribution that installs ``module``, from the shipped table, or None."""
    return modules().distribution(module)


def module_added(module: str) -> Optional[tuple[str, AddedApi]]:
    """The ``added_to_distribution`` row whose release added ``module`` (``torch._dynamo``),
    with the signature that keys it, from the shipped table; None where no row names it."""
    return next(((s, r) for s, r in modules().added_to_dist.items() if r.module == module), None)
