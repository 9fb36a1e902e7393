"""The fix vocabulary all areas share: installs for this environment, declared ranges."""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Callable, Final, Optional

from tfdoctor.causes.base import CauseId
from tfdoctor.env.usage import LOAD
from tfdoctor.facts import normalize_name, requirement_name
from tfdoctor.findings import Fix
from tfdoctor.machine import Machine, applicable_requirements
from tfdoctor.matrix import spec_contains, version_key
from tfdoctor.modules import distribution_of

if TYPE_CHECKING:
    from packaging.specifiers import Specifier
    from packaging.version import Version

TF_PIP_GUIDE = "https://www.tensorflow.org/install/pip"


def list_file_command(path: str, os_name: Optional[str]) -> str:
    """The command that lists ``path`` on the system a fix is for: cmd has no ls, and its
    dir (PowerShell's alias of Get-ChildItem) lists the file in both shells
    (https://learn.microsoft.com/windows-server/administration/windows-commands/dir)."""
    return f"dir {path}" if os_name == "windows" else f"ls -l {path}"


#: The Keras release that wrote a `.keras` file: its metadata.json's keras_version (Keras 2.11
#: on and Keras 3 write it: keras/src/saving/saving_lib.py, _METADATA_FILENAME).
KERAS_FILE_METADATA: Final = (
    "python -c \"import zipfile; print(zipfile.ZipFile('MODEL.keras').read('metadata.json'))\""
)


#: The interpreter's version, system, machine and bitness, to compare with the tags of a
#: release's wheels (cp311, win_amd64, manylinux_2_17_x86_64, macosx_11_0_arm64). Its program
#: is in double quotes with single quotes inside, and holds no character sh expands in them
#: ($, `, \, !): so quoted, it runs alike in sh, cmd (which treats a single quote as a
#: letter: https://learn.microsoft.com/windows-server/administration/windows-commands/cmd)
#: and PowerShell (whose Windows PowerShell 5.1 drops the double quotes inside a single-quoted
#: argument to a native program: about_Parsing, "Passing arguments that contain quote
#: characters").
INTERPRETER_CHECK: Final = (
    'python -c "import platform, struct, sys; print(sys.version.split()[0], '
    "platform.system(), platform.machine(), struct.calcsize('P') * 8)\""
)
#: The interpreter's version, system and machine, quoted as :data:`INTERPRETER_CHECK` is.
PLATFORM_CHECK: Final = (
    'python -c "import platform, sys; print(sys.version.split()[0], platform.system(), '
    'platform.machine())"'
)
#: The interpreter's machine (x86_64 under Rosetta or QEMU, arm64 native), quoted likewise.
MACHINE_CHECK: Final = 'python -c "import platform; print(platform.machine())"'


#: TensorFlow's import alone under Python's fault handler, which prints the frames of a crash.
TF_IMPORT_FAULTHANDLER: Final = 'python -X faulthandler -c "import tensorflow"'


def import_after_commands(imported_before: Sequence[str]) -> tuple[str, str]:
    """TensorFlow's import alone, then after ``imported_before`` (import names), each under
    the fault handler: where the first loads and the second crashes, the two clash."""
    return (
        TF_IMPORT_FAULTHANDLER,
        f'python -X faulthandler -c "import {", ".join(imported_before)}; import tensorflow"',
    )


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One candidate reason for an error whose words are the same whatever the reason: the
    cause it names, what it is and what tells it apart (in the ranked list of the finding
    that reads the error), its fix fitted to the machine, and the commands that show it."""

    cause: CauseId
    what: str
    tell: str
    fix: Callable[[Machine], Fix]
    #: The commands that show it (before its fix's own).
    shows: tuple[str, ...] = ()
    #: Its title in a few words, for the finding of its own; empty where ``what`` is one.
    short: str = ""

    @property
    def title(self) -> str:
        """Its title, for the finding of its own ("Or: ...")."""
        return self.short or self.what


def pypi_files_command(dist: str, version: Optional[str] = None) -> str:
    """A command that prints the file names of ``dist``'s release ``version`` on PyPI (its
    newest where None): their tags say the Pythons and platforms it has wheels for. PyPI's
    JSON API (https://docs.pypi.org/api/json/) lists a release's files under "urls"; unlike
    ``pip index versions`` (pip 21.2 and later), it does not filter them by this
    interpreter's tags, and any Python 3 runs it."""
    path = f"{dist}/{version}" if version else dist
    return (
        "python -c \"import json, urllib.request; print(*(f['filename'] for f in json.load("
        f"urllib.request.urlopen('https://pypi.org/pypi/{path}/json'))['urls']), sep='\\n')\""
    )


def pypi_files_page(dist: str) -> str:
    """PyPI's page of ``dist``'s files (each release's wheels, whose tags name the Pythons and
    platforms it serves), for a fix's words."""
    return f"https://pypi.org/project/{dist}/#files"


def pypi_releases_command(dist: str) -> str:
    """A command that prints the releases of ``dist`` PyPI has (its JSON API's "releases"),
    for an installer other than pip: any Python 3 runs it."""
    return (
        'python -c "import json, urllib.request; print(*json.load(urllib.request.urlopen('
        f"'https://pypi.org/pypi/{dist}/json'))['releases'], sep='\\n')\""
    )


#: The clauses of a printed command's generator that walk every file of each install's
#: metadata folder on ``sys.path`` (``*.dist-info``, ``*.egg-info``; ``r``: the file's path).
#: The folders are listed by hand, so the command runs on every Python (2.7 on):
#: importlib.metadata, which reads the same folders, is Python 3.8+ and pkg_resources is gone
#: from setuptools 82
#: (https://packaging.python.org/en/latest/specifications/recording-installed-packages/).
_INFO_FILES = "for p in sys.path for r in glob.glob(os.path.join(p or os.curdir, '*-info', '*'))"


def owner_of_package_command(top: str, folded: bool = False) -> str:
    """A command printing the distribution that installed the import package or module
    ``top``: the ``*.dist-info``/``*.egg-info`` folder on ``sys.path`` whose file list names
    ``top/`` or ``top.py``. ``folded``: ``top`` is known only in lower case (pip's normalised
    name, PEP 503), so its folder is matched whatever its case (``GraphKit/`` for
    ``graphkit``).

    The lists are read by hand (:data:`_INFO_FILES`), so the command runs on every Python (2.7
    on). A wheel's file list is ``RECORD`` (paths relative to site-packages,
    each line ``path,hash,size``: https://packaging.python.org/en/latest/specifications/recording-installed-packages/);
    a setup.py install's is the egg-info's ``installed-files.txt`` (paths relative to that
    folder, ``../top/...``). The folder's name is the distribution's name and version."""
    line = "l.lower()" if folded else "l"
    # A namespace package's subpackage (nvidia.dali_tf_plugin) lies in its folder below the root.
    top = top.replace(".", "/")
    return (
        'python -c "import glob, os, sys; print(sorted(set(os.path.basename(os.path.dirname(r)) '
        f"{_INFO_FILES} "
        "if os.path.basename(r) in ('RECORD', 'installed-files.txt') and any("
        f"{line}.split(b',')[0].strip() in (b'{top}.py', b'../{top}.py') or "
        f"{line}.startswith((b'{top}/', b'../{top}/')) for l in open(r, 'rb')))))\""
    )


def declared_requirements_command(dist: str) -> str:
    """A command printing the requirements ``dist``'s installed metadata declares, one a line:
    a wheel's ``Requires-Dist`` lines in its ``*.dist-info/METADATA`` (core metadata,
    https://packaging.python.org/en/latest/specifications/core-metadata/#requires-dist-multiple-use),
    a setup.py install's ``*.egg-info/requires.txt`` (setuptools' own list, its extras under
    ``[extra]`` heads). Read by hand as :func:`owner_of_package_command` reads the file lists
    (:data:`_INFO_FILES`), so it runs on every Python (2.7 on).

    The folder is matched by the project name before its version (``name-version.dist-info``,
    ``name-version-py3.6.egg-info``, an editable install's ``name.egg-info``), compared as
    PEP 503 normalises it: the specification asks for the name escaped (``-`` as ``_``), which
    older installers wrote in other cases and spellings."""
    name = normalize_name(dist)
    return (
        "python -c \"import glob, os, re, sys; print(chr(10).join(l.decode('utf-8', 'replace')"
        f".strip() {_INFO_FILES} "
        "if os.path.basename(r) in ('METADATA', 'requires.txt') and re.sub('[-_.]+', '-', "
        "os.path.basename(os.path.dirname(r)).rsplit('.', 1)[0].split('-')[0]).lower() == "
        f"'{name}' for l in open(r, 'rb') if l.strip() and (l.startswith(b'Requires-Dist:') "
        "or r.endswith('requires.txt'))))\""
    )


def package_named(module: str, dist: str = "") -> str:
    """How a fix names the installed package whose code failed, given its import package
    ``module`` and its distribution ``dist`` where the module table knows it: the
    distribution, else "the package that provides `module`". No PyPI name is made up from an
    import name (the module cv2 is the distribution opencv-python)."""
    return dist or f"the package that provides `{module}`"


def installed_package_named(module: Optional[str]) -> Optional[str]:
    """:func:`package_named` of the import package ``module`` with the distribution the module
    table gives it (cv2 is opencv-python's; tensorflow_core is tensorflow's); None for none."""
    return package_named(module, distribution_of(module) or "") if module else None


def package_upgrade(m: Machine, module: str, dist: str = "") -> tuple[str, ...]:
    """The command that upgrades the package of ``module``: its distribution's upgrade by the
    installer that installed it (:meth:`Machine.upgrade`) where known, else the command that
    prints which distribution installed it."""
    return m.upgrade(dist) if dist else (owner_of_package_command(module),)


def install_fix(m: Machine, text: str, *specs: str) -> Fix:
    """``text`` and the commands that install ``specs`` here, each package with the installer
    that installed it (:meth:`Machine.install`), the text naming those conda's commands
    change (:func:`conda_installed_note`)."""
    return Fix(text + conda_installed_note(m, *specs), m.install(*specs))


def conda_installed_note(m: Machine, *specs: str) -> str:
    """Words for the packages among ``specs`` that conda installed here: those a fix changes
    with conda (:meth:`Machine.install`), and those it leaves to pip because conda cannot read
    the requirement (an extra, ``===``), which says why; empty where there are none."""
    # Each conda-owned spec with its conda form (channel, MatchSpec), None where conda has none.
    owned = [
        (requirement_name(s), m.conda_requirement(s))
        for s in specs
        if m.conda_owned(requirement_name(s))
    ]
    by_conda = [(d, found[0]) for d, found in owned if found is not None]
    left = [d for d, found in owned if found is None]
    words = ""
    if by_conda:
        named = ", ".join(f"{d} (from {channel})" if channel else d for d, channel in by_conda)
        words += (
            f" conda installed {named} in this environment: the commands change "
            f"{'it' if len(by_conda) == 1 else 'them'} with conda, as pip would overwrite files "
            "conda tracks."
        )
    if left:
        words += (
            f" conda installed {', '.join(left)} too, but the requirement has no conda form "
            "(an extra, a marker, a URL or ===): pip installs it, over conda's files; "
            "`conda list` shows which installer holds it afterwards."
        )
    return words


def python_venv_commands(
    m: Machine, python: str, args: str = "install tensorflow"
) -> tuple[str, ...]:
    """A virtual environment made by CPython ``python``'s own versioned command (Windows'
    launcher, ``py -3.X``: python.org's installer puts no ``python3.X`` on the PATH,
    https://docs.python.org/3/using/windows.html#python-launcher-for-windows; elsewhere
    ``python3.X``), and ``pip <args>`` run by its interpreter (``Scripts\\`` on Windows,
    ``bin/`` elsewhere: https://docs.python.org/3/library/venv.html#how-venvs-work)."""
    return venv_commands(python, args, m.os == "windows")


def venv_commands(python: str, args: str, windows: bool, bits64: bool = False) -> tuple[str, ...]:
    """:func:`python_venv_commands` where the system is given (``windows``), not read from a
    machine. ``bits64``: the launcher's ``-64`` suffix (``py -3.13-64``), which picks the 64-bit
    install of that version whatever the PATH holds (CPython's PC/launcher-usage.txt, -X.Y-64;
    bpo-30291); a POSIX install's ``python3.X`` is of one word size. The suffix is the
    launcher's from Python 3.7 (What's New in Python 3.7, bpo-30291), and the launcher on a
    machine is its newest Python's: a Python older than 3.7 may have only an older launcher,
    which refuses it, so its command has none (check the environment's bits after)."""
    if windows:
        key = version_key(python)
        suffix = bits64 and (len(key) < 2 or key >= (3, 7))
        launcher = f"py -{python}-64" if suffix else f"py -{python}"
        return (f"{launcher} -m venv .venv", f".venv\\Scripts\\python -m pip {args}")
    return (f"python{python} -m venv .venv", f".venv/bin/python -m pip {args}")


def tensorflow_move_fix(m: Machine, text: str, requirement: str) -> Fix:
    """:func:`install_fix` of a TensorFlow ``requirement`` (``tensorflow<2.15,>=2.13``) that
    moves TensorFlow off the installed line, with what moves with it. pip takes the newest
    final line the range admits with a wheel for this Python and platform (the matrix's): its
    Keras is named beside it where its tf.keras is another Keras than the installed line's
    (Keras 3 from the matrix's first line whose wheel pins it, 2.16; Keras 2 before), the
    line's own keras pin (its wheel's METADATA, the matrix's ``pins.keras``) installed with
    it; an installed tf-keras of another line is replaced by that line's (each declares its
    own line's TensorFlow), whichever Keras tf.keras is; where no
    line of the range has a wheel for this Python, the Pythons its newest line has wheels for
    are named, as the Python must move too."""
    from tfdoctor.compat import (  # noqa: PLC0415 - avoids a cycle at import
        first_keras3_line,
        keras3_serves_tf_keras,
        line_releases,
        tf_keras_requirement,
    )

    matrix, installed = m.matrix, m.line
    if matrix is None or installed is None:
        return install_fix(m, text, requirement)
    spec = requirement[len(requirement_name(requirement)) :]
    python = m.facts.python.version if m.facts.python is not None else None
    platform = m.platform or ""
    admitted = [
        line
        for line in sorted(matrix.lines, key=lambda x: x.key, reverse=True)
        if not line.pre_release and any(spec_contains(v, spec) for v in line_releases(matrix, line))
    ]
    served = [line for line in admitted if line.has_wheels_for(python, platform)]
    taken = served[0] if served else admitted[0] if admitted else None
    if taken is None:
        return install_fix(m, text, requirement)
    words, specs, newer = text, [requirement], ""
    pythons = taken.pythons_on(platform)
    if not served and python and pythons:
        minor = ".".join(python.split(".")[:2])
        newer = pythons[-1]
        words += (
            f" No TensorFlow in that range has a wheel for Python {minor}: TensorFlow "
            f"{taken.line}'s are for Python {pythons[0]} to {newer}, so install it in a new "
            f"virtual environment of one of those (Python {newer} below)."
        )
    pin = taken.pins.keras
    moved = pin is not None and keras3_serves_tf_keras(taken) != keras3_serves_tf_keras(installed)
    if moved:
        first = first_keras3_line(matrix)
        keras = 3 if keras3_serves_tf_keras(taken) else 2
        since = f" (Keras 3 serves it from TensorFlow {first.line} on)" if first else ""
        words += (
            f" Keras moves with it: TensorFlow {taken.line}'s tf.keras is Keras {keras}, "
            f"keras{pin} as its wheel requires{since}, installed with it"
        )
        specs.append(f"keras{pin}")
    # tf-keras X.Y declares the TensorFlow of its own line (the matrix's pins.tf_keras, from
    # its METADATA): an installed one of another line moves too, whichever Keras tf.keras is.
    tf_keras = tf_keras_requirement(taken)
    held = m.facts.package("tf-keras")
    if (
        held is not None
        and tf_keras is not None
        and not spec_contains(held.version, tf_keras[len("tf-keras") :])
    ):
        words += (
            f", with tf-keras of its line ({tf_keras})"
            if moved
            else f" tf-keras {held.version} is of another line: {tf_keras}, TensorFlow "
            f"{taken.line}'s, is installed with it."
        )
        specs.append(tf_keras)
    if moved:
        words += "."
    if newer:
        quoted = " ".join(f'"{x}"' for x in specs)
        return Fix(words, python_venv_commands(m, newer, f"install {quoted}"))
    return Fix(words + conda_installed_note(m, *specs), m.install(*specs))


def companion_install(m: Machine, spec: str) -> tuple[str, ...]:
    """The commands that install the companion ``spec`` (:meth:`Machine.install`): conda's for
    one conda installed; pip's with ``--no-deps`` where its only requirement, `tensorflow` by
    name (the companion table's ``only_tensorflow``), is served here by another TensorFlow
    distribution (tensorflow-cpu)."""
    name = normalize_name(requirement_name(spec))
    tf = m.tf_name
    if m.conda_owned(name) is not None:
        return m.install(spec)
    if (
        name in m.companion_table.only_tensorflow
        and tf is not None
        and normalize_name(tf) not in ("tensorflow", "tf-nightly")
        and not m.is_nightly
    ):
        return m.pip(f'install --no-deps "{spec}"')
    return m.install(spec)


def range_fix(m: Machine, dist: str) -> Optional[Fix]:
    """Install TensorFlow's declared range of ``dist`` (the one rule for every pin fix), inside
    the ranges the other installed distributions declare for it where one version can serve
    them all: TensorFlow's range alone lets pip pick its newest release, which may leave the
    range of the package that pinned ``dist`` (tf2onnx 1.16's protobuf~=3.20.2 under
    TensorFlow 2.15's protobuf>=3.20.3: 3.20.3 serves both, 4.25 only TensorFlow)."""
    # The range the build runs with (NumPy 1's cap under a line compiled against it, whose
    # wheel may declare a floor only; the line's own Keras where keras is released in step):
    # pip would take NumPy 2 from the floor, the newest Keras 2 from `~=2.6`.
    spec = m.runs_with(dist)
    installed = m.facts.package(dist)
    if spec is None or (installed is not None and spec_contains(installed.version, spec)):
        return None  # installing what is already installed changes nothing
    # Only the ranges that leave out some of TensorFlow's: one that admits all of it (a
    # floor below TensorFlow's) changes nothing pip may take, and naming it would claim so.
    others = [(name, r) for name, r in requirer_ranges(m, dist) if narrows(spec, r)]
    joint = joint_range((spec, *(r for _, r in others))) if others else None
    # The words say which range it is: the declared one, or the narrower one the build runs
    # with (a text that says "declares" over a range the wheel does not declare misleads).
    declared = m.declared_range(dist)
    which = (
        f"the {dist} range TensorFlow declares"
        if spec == declared
        else f"the {dist} range the installed TensorFlow runs with ({dist}{spec}; its wheel "
        f"declares {dist}{declared or ' without a range'}, which pip may meet with a release "
        "this build does not load)"
    )
    if joint is None:
        return install_fix(m, f"Install {which}.", f"{dist}{spec}")
    named = sorted({name for name, _ in others})
    names = ", ".join(named)
    return install_fix(
        m,
        f"Install {which}, inside the range {names} "
        f"declare{'s' if len(named) == 1 else ''} too (TensorFlow's range alone lets pip "
        f"take a {dist} outside theirs).",
        f"{dist}{joint}",
    )


def requirer_ranges(m: Machine, dist: str) -> list[tuple[str, str]]:
    """The ranges of ``dist`` that installed distributions other than TensorFlow's declare
    (markers evaluated for this interpreter), as (distribution, specifier)."""
    own = {normalize_name(p.name) for p in m.tf_declaring} | {normalize_name(dist)}
    out = []
    for pkg in m.facts.packages or ():
        if normalize_name(pkg.name) in own:
            continue
        for _, spec in applicable_requirements(pkg.requires, m.marker_env, (dist,)):
            if spec:
                out.append((pkg.name, spec))
    return out


def narrows(spec: str, other: str) -> bool:
    """Whether specifier ``other`` leaves out a version ``spec`` admits: tried on the versions
    either names and the next patch, minor and major after each (where ranges part); False
    where one does not parse."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - import cost
    from packaging.version import Version  # noqa: PLC0415

    try:
        wide, narrow = SpecifierSet(spec), SpecifierSet(other)
    except InvalidSpecifier:
        return False
    tried = []
    for named in _named_versions((*wide, *narrow)):
        major, minor, micro = named.major, named.minor, named.micro
        tried += [
            named,
            Version(f"{major}.{minor}.{micro + 1}"),
            Version(f"{major}.{minor + 1}.0"),
            Version(f"{major + 1}.0.0"),
        ]
    return any(wide.contains(v) and not narrow.contains(v) for v in tried)


def _named_versions(clauses: Iterable[Specifier]) -> Iterator[Version]:
    """The version each clause of a specifier names (``==2.*`` names 2), where it parses."""
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415 - import cost

    for clause in clauses:
        try:
            yield Version(clause.version.rstrip(".*"))
        except InvalidVersion:
            continue


def joint_range(specs: Sequence[str]) -> Optional[str]:
    """One specifier for what every one of ``specs`` admits, where a version one of them
    names (or the next patch after it) is admitted by all, so that pip can resolve it; None
    where none is, or a specifier does not parse."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415 - import cost
    from packaging.version import Version  # noqa: PLC0415

    try:
        joint = SpecifierSet(",".join(specs))
    except InvalidSpecifier:
        return None
    for named in _named_versions(joint):
        following = Version(f"{named.major}.{named.minor}.{named.micro + 1}")
        if any(joint.contains(v) for v in (named, following)):
            return str(joint)
    return None


def major_of(version: Optional[str]) -> Optional[int]:
    """The major of a version string (``"12.3"`` -> 12); None when there is none."""
    parts = version_key(version) if version else ()
    return parts[0] if parts else None


def declared_range_fix(m: Machine, dist: str, fallback: str, text: str) -> Fix:
    """TensorFlow's declared range of ``dist``, else ``fallback`` with ``text``."""
    return range_fix(m, dist) or install_fix(m, text, fallback)


#: tf-keras is released with TensorFlow and numbered like it: 2.X serves TensorFlow 2.X (each
#: wheel requires its TensorFlow line, so an unpinned install would move TensorFlow too).
TF_KERAS_OF_MINOR = (
    "the tf-keras of the installed TensorFlow's minor (tf-keras 2.X for TensorFlow 2.X: "
    '`pip install "tf-keras~=2.X.0"`; `pip show tensorflow` gives X)'
)


def set_env(m: Machine, *settings: tuple[str, str]) -> tuple[str, ...]:
    """The lines that set each ``(name, value)`` of ``settings`` for what the shell starts next:
    ``export`` on Linux, macOS and WSL; on a Windows machine cmd's ``set NAME=value`` lines,
    then one PowerShell line of ``$env:NAME = "value"`` (the user runs the one of the shell in
    use: ``export`` is no command in either, and cmd's ``set`` in PowerShell sets no
    environment variable)."""
    if m.os == "windows":
        cmd = tuple(f"set {name}={value}" for name, value in settings)
        powershell = "; ".join(f'$env:{name} = "{value}"' for name, value in settings)
        return (*cmd, powershell)
    return ("export " + " ".join(f"{name}={shlex.quote(value)}" for name, value in settings),)


def unset_env(m: Machine, name: str) -> tuple[str, ...]:
    """The lines that remove environment variable ``name`` for what the shell starts next:
    sh's ``unset NAME``; on a Windows machine cmd's ``set NAME=`` (an empty value removes it:
    https://learn.microsoft.com/windows-server/administration/windows-commands/set_1), then
    PowerShell's ``Remove-Item Env:NAME`` (about_Environment_Variables), quiet where it is not
    set. As in :func:`set_env`, the user runs the one of the shell in use."""
    return unset_env_lines(name, m.os == "windows")


def unset_env_lines(name: str, windows: bool) -> tuple[str, ...]:
    """:func:`unset_env`'s lines where only the evidence says whether the shell is Windows'
    (``windows``: a Windows path in the log) and no machine is known."""
    if windows:
        return (f"set {name}=", f"Remove-Item Env:{name} -ErrorAction SilentlyContinue")
    return (f"unset {name}",)


def set_env_to_output(m: Machine, name: str, command: str) -> tuple[str, ...]:
    """The lines that set ``name`` to the line ``command`` prints, for what the shell starts
    next: sh's command substitution, ``export NAME="$(command)"``; on a Windows machine cmd's
    ``for /f`` over the command's output (at the prompt its variable takes one %,
    https://learn.microsoft.com/windows-server/administration/windows-commands/for), then
    PowerShell's subexpression in a double-quoted string, ``$env:NAME = "$(command)"``
    (about_Quoting_Rules). As in :func:`set_env`, the user runs the one of the shell in use."""
    if m.os == "windows":
        return (
            f"for /f \"delims=\" %i in ('{command}') do set {name}=%i",
            f'$env:{name} = "$({command})"',
        )
    return (f'export {name}="$({command})"',)


def show_env(m: Machine, name: str) -> tuple[str, ...]:
    """The lines that print environment variable ``name``: sh's ``echo "NAME=$NAME"`` (empty
    after the = where it is unset); on a Windows machine cmd's ``echo NAME=%NAME%`` (cmd expands
    ``%NAME%``, and leaves it as written where it is unset,
    https://learn.microsoft.com/windows-server/administration/windows-commands/echo),
    then PowerShell's ``$env:NAME`` (about_Environment_Variables: sh's ``$NAME`` is a
    PowerShell variable, not the environment's). As in :func:`set_env`, the user runs the one
    of the shell in use."""
    if m.os == "windows":
        return (f"echo {name}=%{name}%", f'"{name}=$env:{name}"')
    return (f'echo "{name}=${name}"',)


def load_env(m: Machine) -> str:
    """The command that loads ``tfdoctor env``'s settings into the machine's shell:
    PowerShell's on Windows (``tfdoctor env`` prints no format for cmd), sh's elsewhere."""
    return LOAD["powershell" if m.os == "windows" else "sh"]


def legacy_keras_switch(m: Machine) -> tuple[str, ...]:
    """The command that makes tf.keras tf-keras, unless the machine already sets it."""
    return () if m.legacy_keras else set_env(m, ("TF_USE_LEGACY_KERAS", "1"))


#: Each resolver by the name its users know it by, for the words of a finding (``uv pip``:
#: uv's pip interface).
RESOLVER_NAMES: Final = {
    "pip": "pip",
    "uv": "uv",
    "uv pip": "uv",
    "poetry": "Poetry",
    "pdm": "PDM",
    "conda": "conda",
    "pixi": "pixi",
}

#: The resolvers that take the requirements from the command line, remembering none between
#: runs (pip, uv's pip interface, conda's install); a project's resolver (uv, Poetry, PDM,
#: pixi) reads them from its manifest. A fix names both sides of a conflict on such a
#: resolver's command line, and its words call them the requirements, not the project's.
COMMAND_LINE_RESOLVERS: Final = frozenset({"pip", "uv pip", "conda"})

#: Each resolver's command that requires a release, by the words of its report. uv's docs:
#: ``uv add`` writes a requirement to the project's pyproject.toml and locks again (as Poetry's
#: and PDM's ``add`` do), while its pip interface (``uv pip install``) has no project and
#: installs into the environment as pip does (docs.astral.sh/uv/pip/packages/,
#: docs.astral.sh/uv/guides/migration/pip-to-project/). pip's own commands are the
#: machine's (:meth:`tfdoctor.machine.Machine.pip_install`).
_ADD_COMMANDS: Final = {
    "uv pip": "uv pip install",
    "uv": "uv add",
    "poetry": "poetry add",
    "pdm": "pdm add",
    # pixi's PyPI dependencies, written to its manifest and lock (its resolver is uv's, its
    # command its own: https://pixi.sh/latest/reference/cli/pixi/add/).
    "pixi": "pixi add --pypi",
    # conda's solver weighs what the command names against what the environment holds: the
    # release and the range it must meet go on the command line together, as with uv's pip
    # interface (https://docs.conda.io/projects/conda/en/stable/commands/install.html).
    "conda": "conda install",
}


def add_command(resolver: str, wanted: str, beside: str = "") -> Optional[str]:
    """``resolver``'s command that requires ``wanted`` (``tensorflow==2.15.1``) beside the
    requirement ``beside`` that it must be resolved with; None for a resolver without one here
    (pip's: the machine's). A project's resolver reads ``beside`` from its pyproject.toml
    already; uv's pip interface and conda's install remember nothing, so both go on the
    command line."""
    command = _ADD_COMMANDS.get(resolver)
    if command is None:
        return None
    named = (wanted, beside) if beside and resolver in COMMAND_LINE_RESOLVERS else (wanted,)
    return " ".join((command, *(f'"{x}"' for x in named)))
